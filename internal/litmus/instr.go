package litmus

import (
	"strings"
)

// decodeThread decodes the cells of one thread column into instructions,
// recording labels. Register/location resolution of identifiers happens in
// resolve, once every thread's registers are known.
func (p *parser) decodeThread(th *Thread, cells []cell) {
	for _, c := range cells {
		text := c.text
		pos := c.pos
		// Labels: "L:" possibly followed by an instruction.
		for {
			j := strings.Index(text, ":")
			if j <= 0 || strings.Contains(text[:j], " ") || strings.Contains(text[:j], ".") ||
				strings.HasPrefix(text, "@") || j+1 < len(text) && text[j+1] == ':' {
				break
			}
			lbl := text[:j]
			if !isLabelName(lbl) {
				break
			}
			if _, dup := th.Labels[lbl]; dup {
				p.fail(pos, "label %s defined twice in %s", lbl, th.Name)
			}
			th.Labels[lbl] = len(th.Code)
			rest := text[j+1:]
			lead := len(rest) - len(strings.TrimLeft(rest, " \t"))
			pos.Col += j + 1 + lead
			text = strings.TrimSpace(rest)
			if text == "" {
				break
			}
		}
		if text == "" {
			continue
		}
		in := p.decodeInstr(th, text, pos)
		th.Code = append(th.Code, in)
	}
}

func isLabelName(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '$' || isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// splitOperands splits "a, [b], c" at top-level commas, with positions.
func splitOperands(s string, pos Pos) []cell {
	var out []cell
	depth, start := 0, 0
	for j := 0; j <= len(s); j++ {
		if j < len(s) {
			switch s[j] {
			case '[', '{', '(':
				depth++
				continue
			case ']', '}', ')':
				depth--
				continue
			}
			if s[j] != ',' || depth > 0 {
				continue
			}
		}
		seg := s[start:j]
		lead := len(seg) - len(strings.TrimLeft(seg, " \t"))
		out = append(out, cell{strings.TrimSpace(seg), Pos{pos.Line, pos.Col + start + lead}})
		start = j + 1
	}
	if len(out) == 1 && out[0].text == "" {
		return nil
	}
	return out
}

// mods is the set of dot-separated modifiers of an opcode.
type mods struct {
	list []string
	used map[string]bool
}

func (m *mods) has(s string) bool {
	for _, x := range m.list {
		if x == s {
			m.used[x] = true
			return true
		}
	}
	return false
}

// ignorable modifiers: types, state spaces, cache operators, eviction
// hints, vector-free qualifiers that do not change the model's view.
func ignorableMod(s string) bool {
	if len(s) >= 2 && strings.ContainsRune("usbf", rune(s[0])) && isDigit(s[1]) {
		return true // u32 s64 b32 f32 ...
	}
	switch s {
	case "pred", "global", "shared", "shared::cta", "shared::cluster", "local", "param", "const", "generic",
		"ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "aligned", "uni", "lo", "hi", "wide", "noftz", "ftz", "sat",
		"unified", "approx", "rn", "rz", "rm", "rp", "to", "cc":
		return true
	}
	return strings.HasPrefix(s, "L1::") || strings.HasPrefix(s, "L2::") || strings.HasPrefix(s, "level::")
}

func (p *parser) decodeInstr(th *Thread, text string, pos Pos) *Instr {
	in := &Instr{Pos: pos, Text: text, Line: pos.Line}
	// Guard predicate.
	if strings.HasPrefix(text, "@") {
		f := strings.Fields(text)
		g := f[0][1:]
		if strings.HasPrefix(g, "!") {
			in.GuardNeg = true
			g = g[1:]
		}
		if g == "" || len(f) < 2 {
			p.fail(pos, "bad guard %q", f[0])
		}
		in.Guard = regName(g)
		th.regs[in.Guard] = true
		off := strings.Index(text, f[1])
		pos.Col += off
		text = text[off:]
	}
	opText, rest, _ := strings.Cut(text, " ")
	if k := strings.IndexAny(opText, "\t"); k >= 0 {
		opText, rest = opText[:k], opText[k+1:]+" "+rest
	}
	opPos := pos
	lead := len(rest) - len(strings.TrimLeft(rest, " \t"))
	argPos := Pos{pos.Line, pos.Col + len(opText) + 1 + lead}
	rest = strings.TrimSpace(rest)
	rest = strings.TrimSuffix(rest, ";")
	parts := strings.Split(opText, ".")
	in.Opcode = parts[0]
	m := &mods{list: parts[1:], used: map[string]bool{}}
	args := splitOperands(rest, argPos)

	need := func(n int) {
		if len(args) != n {
			p.fail(opPos, "%s takes %d operands, found %d", in.Opcode, n, len(args))
		}
	}
	switch in.Opcode {
	case "ld", "ldu", "st", "tld", "tex", "suld", "sust", "cold", "ldc":
		p.memSem(in, m, opPos)
		switch in.Opcode {
		case "tld", "tex":
			in.Proxy = ProxyTexture
		case "suld", "sust":
			in.Proxy = ProxySurface
		case "cold", "ldc":
			in.Proxy = ProxyConstant
		}
		need(2)
		if in.Opcode == "st" || in.Opcode == "sust" {
			in.Kind = KStore
			if in.Sem == SemAcquire {
				p.fail(opPos, "st cannot be .acquire")
			}
			in.Addr = p.addrOperand(th, args[0])
			in.Src = []Operand{p.valueOperand(args[1])}
		} else if _, err := parseInt(args[1].text); err == nil && in.Opcode == "ld" {
			// The Dat3M dialect writes "ld r0, 1" (also "ld.weak r0, 1")
			// for a register assignment: no address is an integer, so
			// an immediate source is a move, not a memory access.
			in.Kind = KALU
			in.ALU = "mov"
			in.Sem, in.Scope, in.Proxy = SemWeak, ScopeNone, ProxyGeneric
			in.Dst = p.dstOperand(th, args[0])
			in.Src = []Operand{p.valueOperand(args[1])}
		} else {
			in.Kind = KLoad
			if in.Sem == SemRelease {
				p.fail(opPos, "ld cannot be .release")
			}
			in.Dst = p.dstOperand(th, args[0])
			in.Addr = p.addrOperand(th, args[1])
		}
	case "atom", "red":
		in.Kind = KAtom
		if in.Opcode == "red" {
			in.Kind = KRed
		}
		p.atomSem(in, m, opPos)
		in.RMW = rmwOp(m)
		if in.RMW == RMWNone {
			p.fail(opPos, "%s needs an operation (.add, .inc, .dec, .exch, .cas, .and, .or, .xor, .min, .max)", in.Opcode)
		}
		if in.Kind == KRed && in.Sem == SemAcquire {
			p.fail(opPos, "red cannot be .acquire")
		}
		if in.Kind == KRed && in.Sem == SemAcqRel {
			// PTX allows only .relaxed and .release on red (9.7.13.6);
			// the Dat3M suite writes red.acq_rel. The read half of a red
			// forms no acquire pattern (8.8), so the acquire half has no
			// effect: .acq_rel is read as .release.
			in.Sem = SemRelease
		}
		if in.Kind == KRed && (in.RMW == RMWExch || in.RMW == RMWCas) {
			p.fail(opPos, "red has no .exch or .cas")
		}
		nsrc := 1
		if in.RMW == RMWCas {
			nsrc = 2
		}
		a := 0
		if in.Kind == KAtom {
			if len(args) > 0 {
				in.Dst = p.dstOperand(th, args[0])
			}
			a = 1
		}
		if (in.RMW == RMWInc || in.RMW == RMWDec) && len(args) == a+1 {
			// The manual's own litmus tests write "atom.inc.u32 %r0, [x];":
			// no bound means an unbounded increment.
			args = append(args, cell{"-1", argPos})
		}
		need(a + 1 + nsrc)
		in.Addr = p.addrOperand(th, args[a])
		for _, s := range args[a+1:] {
			in.Src = append(in.Src, p.valueOperand(s))
		}
	case "fence", "membar":
		in.Kind = KFence
		p.fenceSem(in, m, opPos)
		if len(args) > 0 && !in.IsProxyFence {
			p.fail(args[0].pos, "%s takes no operands", in.Opcode)
		}
	case "bar", "barrier":
		in.Kind = KBarrier
		p.barrier(in, m, args, opPos)
	case "mov", "cvt", "cvta", "not", "neg", "abs", "add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr", "min", "max", "selp", "mad":
		in.Kind = KALU
		in.ALU = in.Opcode
		if in.Opcode == "cvta" || in.Opcode == "cvt" {
			in.ALU = "mov"
		}
		n := 3
		switch in.ALU {
		case "mov", "not", "neg", "abs":
			n = 2
		case "selp", "mad":
			n = 4
		}
		need(n)
		in.Dst = p.dstOperand(th, args[0])
		for _, s := range args[1:] {
			in.Src = append(in.Src, p.valueOperand(s))
		}
		for _, x := range m.list {
			m.used[x] = true
		}
	case "setp":
		in.Kind = KSetp
		in.Cmp = cmpOp(m)
		if in.Cmp == "" {
			p.fail(opPos, "setp needs a comparison (.eq, .ne, .lt, .le, .gt, .ge)")
		}
		for _, x := range m.list {
			m.used[x] = true // types, .and/.or combiners are not modelled
		}
		if len(args) < 3 {
			p.fail(opPos, "setp takes 3 operands, found %d", len(args))
		}
		d := args[0]
		if a, b, ok := strings.Cut(d.text, "|"); ok {
			in.Dst = p.dstOperand(th, cell{strings.TrimSpace(a), d.pos})
			in.Dst2 = p.dstOperand(th, cell{strings.TrimSpace(b), d.pos})
		} else {
			in.Dst = p.dstOperand(th, d)
		}
		in.Src = []Operand{p.valueOperand(args[1]), p.valueOperand(args[2])}
	case "bra", "goto", "jmp", "b":
		in.Kind = KBranch
		need(1)
		in.Target = args[0].text
		in.Dst.Pos = args[0].pos
	case "beq", "bne", "blt", "ble", "bgt", "bge":
		in.Kind = KBranch
		in.Cmp = in.Opcode[1:]
		need(3)
		in.Src = []Operand{p.valueOperand(args[0]), p.valueOperand(args[1])}
		in.Target = args[2].text
		in.Dst.Pos = args[2].pos
	case "ret", "exit":
		in.Kind = KExit
	case "nop":
		in.Kind = KNop
	default:
		p.fail(opPos, "unknown instruction %q", in.Opcode)
	}
	for _, x := range m.list {
		if !m.used[x] && !ignorableMod(x) {
			p.fail(opPos, "unknown or misplaced modifier .%s on %s", x, in.Opcode)
		}
	}
	return in
}

func cmpOp(m *mods) string {
	for _, c := range []string{"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"} {
		if m.has(c) {
			switch c {
			case "lo":
				return "lt"
			case "ls":
				return "le"
			case "hi":
				return "gt"
			case "hs":
				return "ge"
			}
			return c
		}
	}
	return ""
}

func rmwOp(m *mods) RMWOp {
	for _, c := range []struct {
		s  string
		op RMWOp
	}{{"add", RMWAdd}, {"plus", RMWAdd}, {"sub", RMWSub}, {"inc", RMWInc}, {"dec", RMWDec}, {"exch", RMWExch},
		{"cas", RMWCas}, {"and", RMWAnd}, {"or", RMWOr}, {"xor", RMWXor}, {"min", RMWMin}, {"max", RMWMax}} {
		if m.has(c.s) {
			return c.op
		}
	}
	return RMWNone
}

// scopeMod returns the scope modifier of m, if any.
func scopeMod(m *mods) Scope {
	switch {
	case m.has("cta"):
		return ScopeCTA
	case m.has("cluster"):
		return ScopeCluster
	case m.has("gpu"), m.has("gl"):
		return ScopeGPU
	case m.has("sys"):
		return ScopeSys
	}
	return ScopeNone
}

// memSem reads the .sem and .scope of ld and st. Without them the
// operation is weak (9.7.9.8: "When none of these is specified, the .weak
// qualifier is assumed by default"); .volatile is relaxed at system scope
// (8.4.2); .mmio is strong (8.4.1) and only valid at .sys.
func (p *parser) memSem(in *Instr, m *mods, pos Pos) {
	in.Sem = SemWeak
	switch {
	case m.has("weak"):
	case m.has("volatile"):
		in.Sem, in.Scope = SemRelaxed, ScopeSys
	case m.has("mmio"):
		in.Sem, in.Scope = SemRelaxed, ScopeSys
		m.has("relaxed")
	case m.has("relaxed"):
		in.Sem = SemRelaxed
	case m.has("acquire"):
		in.Sem = SemAcquire
	case m.has("release"):
		in.Sem = SemRelease
	}
	if s := scopeMod(m); s != ScopeNone {
		if in.Sem == SemWeak {
			p.fail(pos, "a weak %s takes no scope (.%s needs .relaxed, .acquire or .release)", in.Opcode, s)
		}
		if in.Scope == ScopeNone {
			in.Scope = s
		}
	}
	if in.Sem != SemWeak && in.Scope == ScopeNone {
		in.Scope = ScopeSys // see docs/litmus.md: a missing scope is .sys
	}
}

// atomSem reads the .sem and .scope of atom and red: .relaxed and .gpu by
// default (9.7.13.5, 9.7.13.6).
func (p *parser) atomSem(in *Instr, m *mods, pos Pos) {
	in.Sem = SemRelaxed
	switch {
	case m.has("relaxed"):
	case m.has("acquire"):
		in.Sem = SemAcquire
	case m.has("release"):
		in.Sem = SemRelease
	case m.has("acq_rel"):
		in.Sem = SemAcqRel
	case m.has("weak"):
		p.fail(pos, "%s cannot be .weak", in.Opcode)
	case m.has("volatile"):
		in.Scope = ScopeSys
	}
	if s := scopeMod(m); s != ScopeNone {
		in.Scope = s
	}
	if in.Scope == ScopeNone {
		in.Scope = ScopeGPU
	}
}

// fenceSem decodes fence and membar. membar.{cta,gl,sys} is fence.sc at
// {cta,gpu,sys} (9.7.13.4: "membar is a synonym for fence.sc"); fence
// without .sem is .acq_rel (same section).
func (p *parser) fenceSem(in *Instr, m *mods, pos Pos) {
	if m.has("proxy") {
		in.IsProxyFence = true
		in.FenceSem = SemNone
		switch {
		case m.has("alias"):
			in.FenceProxy = ProxyAlias
		case m.has("texture"):
			in.FenceProxy = ProxyTexture
		case m.has("surface"):
			in.FenceProxy = ProxySurface
		case m.has("constant"):
			in.FenceProxy = ProxyConstant
		default:
			in.FenceProxy = ProxyAsync
		}
		for _, x := range m.list {
			m.used[x] = true // async::generic, tensormap::generic, .release.gpu ...
		}
		return
	}
	if m.has("mbarrier_init") || m.has("op_restrict") {
		// Orders only mbarrier.init (9.7.13.4), which tests cannot name.
		in.Kind = KNop
		for _, x := range m.list {
			m.used[x] = true
		}
		return
	}
	for _, x := range m.list {
		if strings.HasPrefix(x, "sync_restrict") {
			m.used[x] = true
		}
	}
	in.FenceSem = SemAcqRel
	switch {
	case in.Opcode == "membar":
		in.FenceSem = SemSC
	case m.has("sc"):
		in.FenceSem = SemSC
	case m.has("acq_rel"):
	case m.has("acquire"):
		in.FenceSem = SemAcquire
	case m.has("release"):
		in.FenceSem = SemRelease
	}
	in.Scope = scopeMod(m)
	if in.Scope == ScopeNone {
		in.Scope = ScopeSys
	}
	in.Sem = in.FenceSem
}

// barrier decodes bar and barrier. bar{.cta}.sync, bar.red and barrier.sync
// arrive and wait; bar.arrive only arrives (8.9.4 item 2); barrier.cluster
// arrive/wait pair up per cluster (item 3). bar.warp.sync is not a
// synchronizing operation of the model.
func (p *parser) barrier(in *Instr, m *mods, args []cell, pos Pos) {
	m.has("cta")
	m.has("aligned")
	switch {
	case m.has("warp"):
		m.has("sync")
		in.Kind = KNop
		return
	case m.has("cluster"):
		switch {
		case m.has("arrive"):
			in.BarKind = BarClusterArrive
		case m.has("wait"):
			in.BarKind = BarClusterWait
		default:
			p.fail(pos, "barrier.cluster needs .arrive or .wait")
		}
		m.has("release")
		m.has("relaxed")
		m.has("acquire")
		return
	case m.has("sync"):
		in.BarKind = BarSync
	case m.has("red"):
		in.BarKind = BarSync
		for _, x := range m.list {
			m.used[x] = true
		}
		// bar.red.popc.u32 d, a{, b}, {!}c: the id is the second operand.
		if len(args) > 0 {
			args = args[1:]
		}
		if len(args) > 0 {
			args = args[:len(args)-1]
		}
	case m.has("arrive"):
		in.BarKind = BarArrive
	default:
		if in.Opcode == "bar" && len(m.list) == 0 {
			in.BarKind = BarSync // old "bar 0"
		} else {
			p.fail(pos, "%s needs .sync, .arrive or .red", in.Opcode)
		}
	}
	if len(args) == 0 {
		in.BarID = Operand{Kind: OImm, Imm: 0, Pos: pos}
		return
	}
	if len(args) > 3 {
		p.fail(args[3].pos, "%s takes at most 3 operands", in.Opcode)
	}
	if len(args) == 3 && in.BarKind != BarSync && in.BarKind != BarArrive {
		p.fail(args[2].pos, "%s takes at most 2 operands (id, thread count)", in.Opcode)
	}
	in.BarID = p.valueOperand(args[0])
	for _, a := range args[1:] {
		in.BarMore = append(in.BarMore, p.valueOperand(a))
	}
}

// Operand classification. Identifiers are registers or locations; which
// one is settled in resolve, once every destination register is known.

func (p *parser) dstOperand(th *Thread, c cell) Operand {
	if c.text == "_" {
		return Operand{Kind: ONone, Pos: c.pos}
	}
	if !isRegLike(c.text) {
		p.fail(c.pos, "expected a destination register, found %q", c.text)
	}
	r := regName(c.text)
	th.regs[r] = true
	return Operand{Kind: OReg, Name: r, Pos: c.pos}
}

func isRegLike(s string) bool {
	s = regName(s)
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '$' || isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// addrOperand parses x, [x], [r], [r+4], [x+4].
func (p *parser) addrOperand(th *Thread, c cell) Operand {
	s := c.text
	if strings.HasPrefix(s, "[") {
		if !strings.HasSuffix(s, "]") {
			p.fail(c.pos, "missing \"]\" in address %q", s)
		}
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	var off int64
	if k := strings.IndexAny(s, "+"); k > 0 {
		n, err := parseInt(strings.TrimSpace(s[k+1:]))
		if err != nil {
			p.fail(c.pos, "bad address offset in %q", c.text)
		}
		off = n
		s = strings.TrimSpace(s[:k])
	}
	if !isRegLike(s) {
		p.fail(c.pos, "expected a location or an address register, found %q", c.text)
	}
	// Provisionally a location; resolve turns it into a register if the
	// thread has a register of that name.
	return Operand{Kind: OMemLoc, Name: regName(s), Off: off, Pos: c.pos}
}

// valueOperand parses an immediate or an identifier (register or location
// address; see resolve).
func (p *parser) valueOperand(c cell) Operand {
	s := c.text
	if s == "" {
		p.fail(c.pos, "missing operand")
	}
	if strings.HasPrefix(s, "!") {
		p.fail(c.pos, "negated operands are not supported here")
	}
	if isDigit(s[0]) || s[0] == '-' {
		n, err := parseInt(s)
		if err != nil {
			p.fail(c.pos, "bad number %q", s)
		}
		return Operand{Kind: OImm, Imm: n, Pos: c.pos}
	}
	if !isRegLike(s) {
		p.fail(c.pos, "expected a register, a location or a number, found %q", s)
	}
	return Operand{Kind: OReg, Name: regName(s), Pos: c.pos}
}
