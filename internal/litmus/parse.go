package litmus

import (
	"fmt"
	"strconv"
	"strings"
)

// addrBase encodes the address of location i as (i+1)*addrBase, far above
// the small values litmus tests store, so that register-held addresses and
// plain values never collide.
const addrBase int64 = 1 << 40

func addrOf(l *Location) int64 { return int64(l.index+1) * addrBase }

// locAt returns the location whose address is v, or nil.
func (t *Test) locAt(v int64) *Location {
	if v <= 0 || v%addrBase != 0 {
		return nil
	}
	i := int(v/addrBase) - 1
	if i < len(t.Locs) {
		return t.Locs[i]
	}
	return nil
}

// parser holds the state of one Parse.
type parser struct {
	file  string
	src   string // comments blanked
	lines []string
	t     *Test
	opts  ParseOptions

	pending []pendingReg // register initialisations, applied once threads exist
	cols    [][]cell     // the thread table, one slice of cells per thread

	rawCond   Expr
	condStart Pos
	rawFilter Expr
	rawLocs   []rawTerm
}

func (p *parser) errf(pos Pos, format string, args ...any) *Error {
	return &Error{File: p.file, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// bail is panicked with an *Error and recovered in Parse: the grammar is
// small and every error ends the parse, so this keeps the code linear.
type bail struct{ err *Error }

func (p *parser) fail(pos Pos, format string, args ...any) {
	panic(bail{p.errf(pos, format, args...)})
}

// ParseOptions are the readings of the format that have alternatives.
type ParseOptions struct {
	// DefaultSameCTA places threads whose header gives no position in one
	// CTA, instead of one CTA (and cluster) each (docs/litmus.md).
	DefaultSameCTA bool
}

// Parse parses one litmus test. file names the input in error messages.
func Parse(file, src string) (*Test, error) { return ParseWith(file, src, ParseOptions{}) }

// ParseWith parses one litmus test with the given options.
func ParseWith(file, src string, opts ParseOptions) (t *Test, err error) {
	p := &parser{file: file, src: stripComments(src), opts: opts}
	p.lines = strings.Split(p.src, "\n")
	p.t = &Test{File: file, locByName: map[string]*Location{}}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bail)
			if !ok {
				panic(r)
			}
			t, err = nil, b.err
		}
	}()
	p.parse()
	return p.t, nil
}

// lineOffset is the byte offset of the start of 0-based line i.
func (p *parser) lineOffset(i int) int {
	off := 0
	for j := 0; j < i && j < len(p.lines); j++ {
		off += len(p.lines[j]) + 1
	}
	return off
}

// scannerAt returns a scanner positioned at the start of 0-based line i.
func (p *parser) scannerAt(i int) *scanner {
	off := p.lineOffset(i)
	return &scanner{src: p.src, off: off, line: i + 1, lineStart: off}
}

func (p *parser) parse() {
	// Header: "PTX NAME" on the first non-blank line.
	li := 0
	for li < len(p.lines) && strings.TrimSpace(p.lines[li]) == "" {
		li++
	}
	if li == len(p.lines) {
		p.fail(Pos{1, 1}, "empty test: expected a header \"PTX NAME\"")
	}
	fields := strings.Fields(p.lines[li])
	col := strings.Index(p.lines[li], fields[0]) + 1
	arch := strings.ToUpper(fields[0])
	if arch != "PTX" && arch != "GPU_PTX" {
		p.fail(Pos{li + 1, col}, "expected a header \"PTX NAME\", found %q", fields[0])
	}
	p.t.Arch = fields[0]
	if len(fields) < 2 {
		p.fail(Pos{li + 1, col + len(fields[0])}, "missing test name after %s", fields[0])
	}
	p.t.Name = fields[1]

	// Comments ("..."), herd key=value lines, then the init block.
	s := p.scannerAt(li + 1)
	var open tok
	for {
		tk := s.next()
		if tk.kind == tEOF {
			p.fail(tk.pos, "missing init block \"{ ... }\"")
		}
		if tk.kind == tString {
			if p.t.Comment == "" {
				p.t.Comment = strings.Trim(tk.text, "\"")
			}
			continue
		}
		if tk.text == "{" {
			open = tk
			break
		}
	}
	var init []tok
	for {
		tk := s.next()
		if tk.kind == tEOF {
			p.fail(open.pos, "init block is not closed with \"}\"")
		}
		if tk.text == "}" {
			break
		}
		init = append(init, tk)
	}
	tableLine := s.line // 1-based line of the "}"; the table starts after it
	p.parseInit(init)

	// Thread table: rows up to the condition.
	condLine := p.parseTable(tableLine)

	// Condition.
	p.parseCondition(condLine)
	p.resolve()
}

// initStmt is one ";"-separated statement of the init block.
func splitStmts(toks []tok) [][]tok {
	var out [][]tok
	var cur []tok
	for _, tk := range toks {
		if tk.text == ";" {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, tk)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// threadPrefix recognises "P3" or "3" followed by ":" at the start of ts.
func threadPrefix(ts []tok) (int, bool) {
	if len(ts) < 2 || ts[1].text != ":" {
		return 0, false
	}
	name := ts[0].text
	if ts[0].kind == tIdent && (name[0] == 'P' || name[0] == 'p' || name[0] == 'T') {
		name = name[1:]
	}
	n, err := strconv.Atoi(name)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// pendingReg is a register initialisation waiting for the thread table.
type pendingReg struct {
	thread int
	reg    string
	num    int64
	loc    string // non-empty: the register holds the address of loc
	pos    Pos
}

func isTypeWord(s string) bool {
	switch s {
	case "int", "uint", "int32_t", "uint32_t", "int64_t", "uint64_t", "long", "unsigned", "signed", "char", "short", "volatile", "atomic_int", "intptr_t", "global", "shared", "int*", "uint8_t", "int8_t", "uint16_t", "int16_t":
		return true
	}
	return strings.HasPrefix(s, ".")
}

func (p *parser) parseInit(toks []tok) {
	for _, st := range splitStmts(toks) {
		if n, ok := threadPrefix(st); ok {
			p.parseRegInit(n, st[2:], st[0].pos)
			continue
		}
		// Memory: [type words] name [= value] | name @ proxy aliases other | name aliases other.
		i := 0
		shared := false
		for i < len(st)-1 && st[i].kind == tIdent && isTypeWord(st[i].text) {
			if strings.HasPrefix(st[i].text, ".shared") || st[i].text == "shared" {
				shared = true
			}
			i++
		}
		if i < len(st) && st[i].text == "*" {
			i++
		}
		if i >= len(st) || st[i].kind != tIdent {
			p.fail(st[0].pos, "expected a location or register initialisation, found %q", st[0].text)
		}
		name := st[i]
		if strings.HasPrefix(name.text, "%") || strings.HasPrefix(name.text, ".") {
			p.fail(name.pos, "expected a location name, found %q", name.text)
		}
		rest := st[i+1:]
		switch {
		case len(rest) == 0:
			p.declare(name.text, 0, name.pos).Shared = shared
		case rest[0].text == "=" || rest[0].text == "==":
			if len(rest) < 2 {
				p.fail(rest[0].pos, "missing value after \"=\"")
			}
			v, isLoc := p.initValue(rest[1:])
			l := p.declare(name.text, 0, name.pos)
			l.Shared = shared
			if isLoc != "" {
				// "x = y": herd's pointer initialisation; y's address.
				l.Init = addrOf(p.declare(isLoc, 0, rest[1].pos))
			} else {
				l.Init = v
			}
		case rest[0].text == "@" || rest[0].text == "aliases" || rest[0].text == "virtually":
			j := 0
			view := false
			if rest[0].text == "@" {
				j = 1
				if j < len(rest) && rest[j].text != "aliases" && rest[j].text != "virtually" {
					view = rest[j].text != "generic"
					j++ // the proxy word (generic, texture, surface, constant)
				}
			}
			if j < len(rest) && rest[j].text == "virtually" {
				j++ // "b @ generic virtually aliases a" (Dat3M's PTX-PROXY tests)
			}
			if j >= len(rest) || rest[j].text != "aliases" || j+1 >= len(rest) || rest[j+1].kind != tIdent {
				p.fail(rest[0].pos, "expected \"NAME @ PROXY {virtually} aliases OTHER\" or \"NAME aliases OTHER\"")
			}
			other := p.declare(rest[j+1].text, 0, rest[j+1].pos)
			l := p.declare(name.text, 0, name.pos)
			p.alias(l, other)
			if view {
				l.Virt = other.Virt
			}
		default:
			p.fail(rest[0].pos, "unexpected %q in the init block", rest[0].text)
		}
	}
}

// initValue parses the value of an initialisation: an integer, or a
// location name (returned as isLoc).
func (p *parser) initValue(ts []tok) (v int64, isLoc string) {
	t0 := ts[0]
	if t0.text == "&" && len(ts) > 1 {
		return 0, ts[1].text
	}
	if t0.kind == tNum {
		n, err := parseInt(t0.text)
		if err != nil {
			p.fail(t0.pos, "bad number %q", t0.text)
		}
		return n, ""
	}
	if t0.kind == tIdent {
		return 0, t0.text
	}
	p.fail(t0.pos, "expected a value, found %q", t0.text)
	return 0, ""
}

func (p *parser) parseRegInit(thread int, st []tok, pos Pos) {
	i := 0
	for i < len(st) && st[i].kind == tIdent && strings.HasPrefix(st[i].text, ".") {
		i++ // .reg .b64
	}
	if i >= len(st) || st[i].kind != tIdent {
		p.fail(pos, "expected a register name after \"%d:\"", thread)
	}
	r := pendingReg{thread: thread, reg: regName(st[i].text), pos: st[i].pos}
	rest := st[i+1:]
	if len(rest) > 0 {
		if rest[0].text != "=" || len(rest) < 2 {
			p.fail(rest[0].pos, "expected \"= value\" after register %s", st[i].text)
		}
		r.num, r.loc = p.initValue(rest[1:])
		if r.loc != "" {
			p.declare(r.loc, 0, rest[1].pos)
		}
	}
	p.pending = append(p.pending, r)
}

// regName drops the optional "%" of a register.
func regName(s string) string { return strings.TrimPrefix(s, "%") }

// declare returns the location named name, creating it (initial value v).
func (p *parser) declare(name string, v int64, pos Pos) *Location {
	if l, ok := p.t.locByName[name]; ok {
		return l
	}
	l := &Location{Name: name, Init: v, Phys: p.t.nPhys, Virt: len(p.t.Locs), Pos: pos, index: len(p.t.Locs)}
	p.t.nPhys++
	p.t.Locs = append(p.t.Locs, l)
	p.t.locByName[name] = l
	return l
}

// alias makes l share other's physical location (8.2.2).
func (p *parser) alias(l, other *Location) {
	old := l.Phys
	for _, m := range p.t.Locs {
		if m.Phys == old {
			m.Phys = other.Phys
		}
	}
	if l.Init == 0 {
		l.Init = other.Init
	}
}

func parseInt(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var u uint64
	var err error
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		u, err = strconv.ParseUint(s[2:], 16, 64)
	} else {
		u, err = strconv.ParseUint(strings.TrimSuffix(strings.TrimSuffix(s, "U"), "u"), 10, 64)
	}
	if err != nil {
		return 0, err
	}
	if neg {
		return -int64(u), nil
	}
	return int64(u), nil
}
