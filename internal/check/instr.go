package check

// Instructions against the table: which form an instruction is, and whether
// the module's version and target allow it (feature gating).

import (
	"strings"

	"github.com/ptxvm/ptxvm/internal/isa"
	"github.com/ptxvm/ptxvm/internal/sharedcache"
	"github.com/ptxvm/ptxvm/ptx"
)

// match is an instruction matched to one form of one block.
type match struct {
	memos *formMemos // gate's and spec's answers for the combination and form
	instr *isa.Instr
	form  *isa.Form
	// present lists the form's operand placeholders the instruction gives
	// (optional operands are taken in order).
	present placeholders
	// groups maps each group of the form to the value the instruction chose
	// (".type" -> ".u32").
	groups map[string]string
	// operands are the form operands the instruction's operands fill, in order.
	operands []*isa.Operand
	// fixed: present is the choice's own, the same for every instruction
	// that fills the form so (choiceSpecsOf keeps its answer)
	fixed bool
}

// checkInstruction finds the instruction's form and checks its requirements.
func (c *checker) checkInstruction(s *scope, in *ptx.Instruction) {
	orig := in
	// A combination met before (most instructions) has its forms in
	// c.forms, found by its key without asking the table again.
	key, bank := c.combinationKey(in)
	fms, seen := c.forms[string(key)]
	var blocks []*isa.Instr // (the table's, asked on a miss)
	if !seen || bank {
		blocks = isa.Lookup(in.Opcode)
		if len(blocks) == 0 {
			c.errorf(in.Pos, "unknown instruction '%s'", in.Opcode)
			return
		}
		// A constant bank, `ld.const[2]` (5.1.3.1, deprecated), is not a modifier of the table.
		for i, m := range in.Modifiers {
			if strings.HasPrefix(m, "[") {
				c.gateDirectiveIf(".const", in.Pos, "bank")
				stripped := *in
				stripped.Modifiers = append(append([]string{}, in.Modifiers[:i]...), in.Modifiers[i+1:]...)
				in = &stripped
				key, _ = c.combinationKey(in)
				break
			}
		}
		fms = c.formsFor(blocks, in, key)
	}
	matches := c.matchBuf[:0]
	for _, fm := range fms {
		// Each way of choosing which optional operands were written is
		// a candidate: `{, ctaMask}{, cache-policy}` with one given may
		// mean either.
		for _, ch := range fm.choices(c, len(in.Operands)) {
			// call operands are checked by calls.go, against the callee
			if in.Opcode == "call" || shapesFit(ch.ops, in.Operands) {
				present, fixed := ch.present, ch.fixed
				if !fixed {
					present = presentNames(ch.ops, in.Operands)
				}
				matches = append(matches, match{fm.memos, fm.instr, fm.form, present, fm.groups, ch.ops, fixed})
			}
		}
	}
	c.matchBuf = matches[:0] // (for the next instruction; matches is read-only below)
	if len(matches) == 0 {
		if blocks == nil {
			blocks = isa.Lookup(in.Opcode)
		}
		c.reportNoForm(in, blocks)
		return
	}
	// Several forms may fit (old and new forms of one opcode overlap): the
	// instruction is valid if any of them accepts it, requirements and
	// operands included; otherwise the first one's findings are reported.
	// When none fits, report the candidate that fails least: fewest errors
	// other than feature gating (a form whose only fault is the module's
	// version or target is what was meant), then fewest errors.
	var best ptx.DiagnosticList
	bestScore := -1
	for i, m := range matches {
		start := len(c.diags)
		c.emit(in.Pos, c.gate(s, in, m))
		cs := c.checkOperands(s, in, m)
		found := c.diags[start:]
		if !found.HasErrors() {
			if c.matched != nil {
				c.matched = append(c.matched, matchedInst{in: orig, m: matches[i], specs: cs})
			}
			return
		}
		if score := failureScore(found); bestScore < 0 || score < bestScore {
			best, bestScore = append(ptx.DiagnosticList(nil), found...), score
		}
		c.diags = c.diags[:start]
	}
	c.diags = append(c.diags, best...)
}

// combinationKey writes the key of in's combination, its opcode and
// modifiers, in c.keyBuf (a hit in c.forms looks it up without making a
// string), and says whether a modifier is a constant bank.
func (c *checker) combinationKey(in *ptx.Instruction) (key []byte, bank bool) {
	key = append(c.keyBuf[:0], in.Opcode...)
	for _, m := range in.Modifiers {
		bank = bank || strings.HasPrefix(m, "[")
		key = append(append(key, 0), m...)
	}
	c.keyBuf = key
	return key, bank
}

// A formMatch is a form whose modifier slots an instruction's modifiers
// fill, with the value chosen for each group (shared, read-only), and the
// answers gate and spec keep for this combination of opcode, modifiers and
// form.
type formMatch struct {
	instr  *isa.Instr
	form   *isa.Form
	groups map[string]string
	memos  *formMemos
}

// formMemos are gate's and spec's answers for one combination of opcode,
// modifiers and form (memo.go), and its operand choices and their specs.
// Held by the combination's formMatch, they are found without hashing a
// key per operand. All but spec's are shared by the checkers of every
// module (the choices and their specs depend on the combination alone,
// gate's answers also on the module's version and target, gatesFor):
// a small module meets each combination a few times, and working the
// answers out again was most of its check.
type formMemos struct {
	specs []specMemos
	gates *sharedList[memo[[]gateDiag]]
	shape *shapeMemos
}

// shapeMemos are the memos of a combination and form that depend on
// nothing else (formShape's).
type shapeMemos struct {
	choiceSpecs sharedList[*choiceSpecs] // by choice (choiceSpecsOf)
	// byCount: the form's operand choices for n operands (choicesFor),
	// found here without the shared cache's lock
	byCount sharedList[choicesOfN]
	// gates: gate's answers, by the module's version and target (a
	// process checks modules of one or a few: a short list, not a map)
	gates sharedList[gatesOf]
}

// gatesOf are gate's answers for a combination and form in modules of one
// version and target.
type gatesOf struct {
	version isa.Version
	target  isa.Target
	hasTgt  bool
	memos   *sharedList[memo[[]gateDiag]]
}

// gatesFor returns gate's memos for c's version and target: shared, or
// the checker's own past maxMemos versions and targets.
func (sm *shapeMemos) gatesFor(c *checker) *sharedList[memo[[]gateDiag]] {
	for _, g := range sm.gates.get() {
		if g.version == c.version && g.target == c.target && g.hasTgt == c.hasTgt {
			return g.memos
		}
	}
	g := gatesOf{c.version, c.target, c.hasTgt, &sharedList[memo[[]gateDiag]]{}}
	sm.gates.add(g)
	return g.memos
}

type choicesOfN struct {
	n   int
	chs []choice
}

// choices returns choicesFor(fm.form, n), kept in the memos.
func (fm formMatch) choices(c *checker, n int) []choice {
	for _, k := range fm.memos.shape.byCount.get() {
		if k.n == n {
			return k.chs
		}
	}
	chs := c.choicesFor(fm.form, n)
	fm.memos.shape.byCount.add(choicesOfN{n, chs})
	return chs
}

// choiceSpecs are the specs of the operands of instructions matched to a
// form by one choice (choiceSpecsOf): per operand, its first
// placeholder's (first) and a pair's second's (second), and the types
// that gives (first's).
type choiceSpecs struct {
	ops           **isa.Operand // the choice's operands (the key)
	first, second []operandSpec
	types         []string
}

// specMemos are spec's answers for one operand placeholder.
type specMemos struct {
	name  string
	memos []memo[operandSpec]
}

// formsFor returns the forms of blocks that in's modifiers fill. A module
// repeats a few opcode and modifier combinations many times, so the
// answer is kept per combination (key: the opcode and modifiers, as
// checkInstruction writes them): the forms in a process-wide cache
// (sharedForms; they depend on the key alone), and the checker's own
// list, which holds the memos for the module's version and target.
func (c *checker) formsFor(blocks []*isa.Instr, in *ptx.Instruction, keyBytes []byte) []formMatch {
	if fms, ok := c.forms[string(keyBytes)]; ok {
		return fms
	}
	key := string(keyBytes)
	shapes := sharedForms.Get(key, func() []formShape {
		var found [8]formShape
		shapes := found[:0]
		var buf [16]string // the value each slot takes (matchMods)
		for _, b := range blocks {
			for i := range b.Forms {
				f := &b.Forms[i]
				chosen := buf[:0]
				if len(f.Mods) <= len(buf) {
					chosen = buf[:len(f.Mods)]
				} else {
					chosen = make([]string, len(f.Mods))
				}
				if !matchMods(f.Mods, in.Modifiers, chosen) {
					continue
				}
				groups := map[string]string{}
				for i, s := range f.Mods {
					if s.Group != "" && chosen[i] != "" {
						groups[s.Group] = chosen[i]
					}
				}
				shapes = append(shapes, formShape{b, f, groups, nil})
			}
		}
		// one allocation for the shapes, one for their memos
		out := make([]formShape, len(shapes))
		memos := make([]shapeMemos, len(shapes))
		for i := range shapes {
			out[i] = shapes[i]
			out[i].memos = &memos[i]
		}
		return out
	})
	fms := make([]formMatch, len(shapes))
	memos := make([]formMemos, len(shapes))
	for i, sh := range shapes {
		memos[i] = formMemos{gates: sh.memos.gatesFor(c), shape: sh.memos}
		fms[i] = formMatch{sh.instr, sh.form, sh.groups, &memos[i]}
	}
	if c.forms == nil {
		c.forms = map[string][]formMatch{}
	}
	c.forms[key] = fms
	return fms
}

// A formShape is a form an opcode and modifier combination fills, with
// the value chosen for each group; shared, read-only.
type formShape struct {
	instr  *isa.Instr
	form   *isa.Form
	groups map[string]string
	memos  *shapeMemos
}

// sharedForms and sharedChoices keep formsFor's forms and choicesFor's
// choices for every module the process checks: a module of a few dozen
// instructions asks for as many combinations as it has instructions, and
// finding their forms again was most of its check.
var (
	sharedForms   = sharedcache.New[string, []formShape]()
	sharedChoices = sharedcache.New[choiceKey, []choice]()
)

// A choice is one way n operands fill a form (operandChoices), with the
// placeholders they fill when that does not depend on how the operands are
// written (fixed; not when an operand is an optional pair); shared,
// read-only.
type choice struct {
	ops     []*isa.Operand
	present placeholders
	fixed   bool
}

type choiceKey struct {
	form *isa.Form
	n    int
}

// choicesFor returns operandChoices(f, n) with their placeholders, kept
// per form and operand count (sharedChoices).
func (c *checker) choicesFor(f *isa.Form, n int) []choice {
	return sharedChoices.Get(choiceKey{f, n}, func() []choice {
		var buf [4][]*isa.Operand // (most forms have one choice)
		opsList := operandChoices(f, n, buf[:0])
		chs := make([]choice, 0, len(opsList))
		for _, ops := range opsList {
			ch := choice{ops: ops}
			pair := false
			for _, op := range ops {
				pair = pair || op.PairOptional
			}
			if !pair {
				ch.present, ch.fixed = presentNames(ops, nil), true
			}
			chs = append(chs, ch)
		}
		return chs
	})
}

// failureScore weighs a candidate's errors: gating errors ("Feature ...
// requires") count 1, others 100.
func failureScore(ds ptx.DiagnosticList) int {
	score := 0
	for _, d := range ds {
		switch {
		case d.Severity != ptx.SeverityError:
		case strings.HasPrefix(d.Msg, "Feature "):
			score++
		default:
			score += 100
		}
	}
	return score
}

// operandChoices appends to out the ways n operands can fill the form: every
// required operand, plus n-required of the optional ones, keeping their
// order; the choice that takes the earliest optional operands comes first.
// None if n does not fit.
func operandChoices(f *isa.Form, n int, out [][]*isa.Operand) [][]*isa.Operand {
	nOptional := 0
	for i := range f.Operands {
		if f.Operands[i].Optional {
			nOptional++
		}
	}
	extra := n - (len(f.Operands) - nOptional)
	if extra < 0 || extra > nOptional {
		return out
	}
	if extra == 0 || extra == nOptional {
		// one way (the usual case): none or all of the optional ones
		ops := make([]*isa.Operand, 0, n)
		for i := range f.Operands {
			if extra > 0 || !f.Operands[i].Optional {
				ops = append(ops, &f.Operands[i])
			}
		}
		return append(out, ops)
	}
	optional := make([]int, 0, nOptional)
	for i := range f.Operands {
		if f.Operands[i].Optional {
			optional = append(optional, i)
		}
	}
	take := make([]bool, len(f.Operands))
	var pick func(from, left int)
	pick = func(from, left int) {
		if left == 0 {
			ops := make([]*isa.Operand, 0, n)
			for i := range f.Operands {
				if !f.Operands[i].Optional || take[i] {
					ops = append(ops, &f.Operands[i])
				}
			}
			out = append(out, ops)
			return
		}
		for k := from; k <= len(optional)-left && len(out) < 64; k++ {
			take[optional[k]] = true
			pick(k+1, left-1)
			take[optional[k]] = false
		}
	}
	pick(0, extra)
	return out
}

// shapesFit reports whether each operand is written as its form operand
// must be: addresses in brackets, call lists in parentheses, and nothing
// else in either.
func shapesFit(form []*isa.Operand, ops []ptx.Expr) bool {
	for i, op := range form {
		isAddr, isTuple := false, false
		switch e := ops[i].(type) {
		case *ptx.IndexExpr: // a[i]: an address, or the value of mov's source
			if op.Shape == isa.ShapeTuple {
				return false
			}
			continue
		case *ptx.AddressExpr:
			isAddr = true
		case *ptx.SelectorExpr:
			isAddr = isAddress(e.X)
		case *ptx.TupleExpr:
			isTuple = true
		}
		if isAddr != (op.Shape == isa.ShapeAddress) || isTuple != (op.Shape == isa.ShapeTuple) {
			return false
		}
	}
	return true
}

// isAddress reports whether e is written as a memory address: `[...]`,
// `[...].unified`, or an array element `a[i]` (6.4.2: `ld.global.u32 s, a[0];`).
func isAddress(e ptx.Expr) bool {
	switch e := e.(type) {
	case *ptx.AddressExpr, *ptx.IndexExpr:
		return true
	case *ptx.SelectorExpr:
		return isAddress(e.X)
	}
	return false
}

// placeholders is a set of a form's operand placeholders ("d", "a"): a
// form has a few, so a list, which costs less to make and to ask than a
// map.
type placeholders []string

func (p placeholders) has(name string) bool { return containsString(p, name) }

// presentNames lists the placeholders the operands fill; the second part of
// an optional pair (`d[|p]`) only when written `d|p`.
func presentNames(form []*isa.Operand, ops []ptx.Expr) placeholders {
	n := 0
	for _, op := range form {
		n += len(op.Names)
	}
	present := make(placeholders, 0, n)
	for i, op := range form {
		names := op.Names
		if op.PairOptional && !isPair(ops[i]) {
			names = names[:1]
		}
		present = append(present, names...)
	}
	return present
}

func isPair(e ptx.Expr) bool {
	b, ok := e.(*ptx.BinaryExpr)
	return ok && b.Op == "|"
}

// reportNoForm explains why no form fits: an unknown modifier, or a valid
// set of modifiers with the wrong operand count, or a bad combination.
func (c *checker) reportNoForm(in *ptx.Instruction, blocks []*isa.Instr) {
	known := map[string]bool{}
	modsOK := false
	var shapeForm *isa.Form // a form whose modifiers and operand count fit, but not its operand shapes
	for _, b := range blocks {
		for i := range b.Forms {
			f := &b.Forms[i]
			for _, s := range f.Mods {
				for _, v := range s.Values {
					for _, w := range strings.SplitAfter(v[1:], ".") {
						known["."+strings.TrimSuffix(w, ".")] = true
					}
				}
			}
			if matchMods(f.Mods, in.Modifiers, make([]string, len(f.Mods))) {
				modsOK = true
				if shapeForm == nil && in.Opcode != "call" && len(operandChoices(f, len(in.Operands), nil)) > 0 {
					shapeForm = f
				}
			}
		}
	}
	for _, m := range in.Modifiers {
		if !known[m] {
			c.errorf(in.Pos, "unknown modifier '%s' for instruction '%s'", m, in.Opcode)
			return
		}
	}
	name := in.Opcode + strings.Join(in.Modifiers, "")
	if shapeForm != nil {
		c.errorf(in.Pos, "operands of '%s' do not fit its syntax: %s", name, strings.TrimSpace(shapeForm.Text))
		return
	}
	if modsOK {
		c.errorf(in.Pos, "wrong number of operands for '%s' (%d given)", name, len(in.Operands))
		return
	}
	c.errorf(in.Pos, "invalid combination of modifiers in '%s'", name)
}

// gateDiag is one finding of gate, before it is reported.
type gateDiag struct {
	warning bool
	msg     string
}

func hasError(ds []gateDiag) bool {
	for _, d := range ds {
		if !d.warning {
			return true
		}
	}
	return false
}

func (c *checker) emit(pos ptx.Pos, ds []gateDiag) {
	for _, d := range ds {
		if d.warning {
			c.warnf(pos, "%s", d.msg)
		} else {
			c.errorf(pos, "%s", d.msg)
		}
	}
}

// gate evaluates the block's requirements that apply to this instruction.
// A module repeats a few opcode and modifier combinations many times: the
// findings are kept per combination and form, with the questions about
// operands the evaluation asked, and an instruction whose operands answer
// them alike gets them again.
func (c *checker) gate(s *scope, in *ptx.Instruction, m match) []gateDiag {
	var exprs map[string]ptx.Expr // placeholder -> operand, made when a condition asks
	operand := func(a isa.Alt) bool {
		if a.Kind == "" {
			return m.present.has(a.Value)
		}
		if exprs == nil {
			exprs = operandExprs(m, in.Operands)
		}
		e, ok := exprs[a.Value]
		return ok && c.operandIs(s, e, a.Kind)
	}
	if ds, ok := recall(m.memos.gates.get(), operand); ok {
		return ds
	}
	var mm memo[[]gateDiag]
	joined, hasJoined := "", false // the modifiers written in a row, made when asked
	mm.v = c.requirements(m.instr.Requires, func(a isa.Alt) bool {
		if a.Operand {
			return mm.ask(a, operand(a))
		}
		if containsString(in.Modifiers, a.Value) {
			return true
		}
		// a compound value holds when its words are written in a row
		if strings.Count(a.Value, ".") <= 1 {
			return false
		}
		if !hasJoined {
			joined, hasJoined = strings.Join(in.Modifiers, ""), true
		}
		return strings.Contains(joined, a.Value)
	}, func(r isa.Requirement) string {
		if r.Feature != "" {
			return r.Feature
		}
		return featureName(in, m.form, r.When)
	})
	m.memos.gates.add(mm)
	return mm.v
}

// operandExprs maps the form's placeholders to the operands written for
// them; the parts of a pair, address or vector to its elements when they
// line up one to one.
func operandExprs(m match, ops []ptx.Expr) map[string]ptx.Expr {
	out := map[string]ptx.Expr{}
	for i, fo := range m.operands {
		e := ops[i]
		var parts []ptx.Expr
		switch x := e.(type) {
		case *ptx.BinaryExpr:
			if x.Op == "|" {
				parts = []ptx.Expr{x.X, x.Y}
			}
		case *ptx.AddressExpr:
			parts = x.Elems
		case *ptx.BraceExpr:
			parts = x.Elems
		}
		if len(fo.Names) > 1 && len(parts) >= 1 {
			for j, name := range fo.Names {
				if j < len(parts) {
					out[name] = parts[j]
				}
			}
			continue
		}
		if len(fo.Names) == 1 && fo.Shape == isa.ShapeAddress && len(parts) == 1 {
			e = parts[0]
		}
		for _, name := range fo.Names {
			out[name] = e
		}
	}
	return out
}

// operandIs reports whether an operand is written as kind: "reg" (a
// register), "imm" (a constant), "sink" (`_`) or "entry" (a kernel's name).
func (c *checker) operandIs(s *scope, e ptx.Expr, kind string) bool {
	if u, ok := e.(*ptx.UnaryExpr); ok && (u.Op == "!" || u.Op == "-") {
		e = u.X
	}
	switch kind {
	case "imm":
		_, ok := constantValue(e)
		return ok
	}
	id, ok := e.(*ptx.Ident)
	if !ok {
		return false
	}
	switch kind {
	case "sink":
		return id.Name == "_"
	case "reg":
		if sym := c.find(s, id); sym != nil {
			return sym.isReg()
		}
		return isa.LookupSpecialReg(id.Name) != nil
	case "entry":
		sym := c.find(s, id)
		return sym != nil && sym.kind == symFunc && sym.fn != nil && sym.fn.Kind == ".entry"
	}
	return false
}

// requirements checks a list of requirements against the module; holds
// says whether a condition alternative is true for the construct at hand
// (alternatives about the module's target are answered here).
func (c *checker) requirements(reqs []isa.Requirement, holds func(isa.Alt) bool, name func(isa.Requirement) string) []gateDiag {
	var out []gateDiag
	targetHolds := func(a isa.Alt) bool {
		if a.Target.SM != 0 {
			return c.hasTgt && c.target.SM == a.Target.SM
		}
		return holds(a)
	}
	// A requirement's condition is evaluated only when the module's
	// version and target would make it report: most requirements are met
	// by a recent module, and their conditions are most of gate's work.
	for i := range reqs {
		r := &reqs[i]
		switch r.Kind {
		case isa.ReqPTX:
			if c.version.Less(r.Version) && condHolds(r.When, targetHolds) {
				out = append(out, gateDiag{msg: "Feature '" + name(*r) + "' requires PTX ISA .version " + versionString(r.Version) + " or later"})
			}
		case isa.ReqTarget:
			if c.hasTgt && !targetOK(c.target, r.Targets) && condHolds(r.When, targetHolds) {
				out = append(out, gateDiag{msg: "Feature '" + name(*r) + "' requires " + targetWords(r.Targets)})
			}
		case isa.ReqDeprecated:
			if !c.version.Less(r.Version) && condHolds(r.When, targetHolds) {
				out = append(out, gateDiag{warning: true, msg: withMessage("'"+name(*r)+"' is deprecated as of PTX ISA .version "+versionString(r.Version), r.Message)})
			}
		case isa.ReqInvalid:
			if condHolds(r.When, targetHolds) {
				out = append(out, gateDiag{msg: withMessage("invalid use of '"+name(*r)+"'", r.Message)})
			}
		case isa.ReqRemoved:
			if !c.version.Less(r.Version) && (len(r.Targets) == 0 || c.hasTgt && targetOK(c.target, r.Targets)) && condHolds(r.When, targetHolds) {
				msg := "'" + name(*r) + "' is not supported from PTX ISA .version " + versionString(r.Version)
				if len(r.Targets) > 0 {
					msg += " for .target " + r.Targets[0].String() + " and higher"
				}
				out = append(out, gateDiag{msg: withMessage(msg, r.Message)})
			}
		}
	}
	return out
}

func withMessage(s, msg string) string {
	if msg == "" {
		return s
	}
	return s + ": " + msg
}

func condHolds(c isa.Cond, holds func(isa.Alt) bool) bool {
	for _, term := range c {
		ok := false
		for _, a := range term {
			if holds(a) != a.Not {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func targetOK(t isa.Target, reqs []isa.Target) bool {
	for _, r := range reqs {
		if t.Satisfies(r) {
			return true
		}
	}
	return false
}

// targetWords phrases a target requirement as ptxas does:
// ".target sm_80 or higher", ".target sm_90a", ".target sm_100a or sm_101a".
func targetWords(ts []isa.Target) string {
	if len(ts) == 1 && ts[0].Suffix == 0 {
		return ".target " + ts[0].String() + " or higher"
	}
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.String()
	}
	return ".target " + strings.Join(names, " or ")
}

// featureName names the feature a requirement is about: the opcode with the
// form's leading literal modifiers (`redux.sync`, `cp.async.bulk`), plus the
// modifier values that made the condition hold (`add.u16x2`).
func featureName(in *ptx.Instruction, f *isa.Form, when isa.Cond) string {
	name := in.Opcode
	for _, s := range f.Mods {
		if s.Optional || s.Group != "" || len(s.Values) != 1 {
			break
		}
		name += s.Values[0]
	}
	have := map[string]bool{}
	for _, m := range in.Modifiers {
		have[m] = true
	}
	for _, term := range when {
		for _, a := range term {
			if !a.Not && !a.Operand && have[a.Value] && !strings.Contains(name, a.Value) {
				name += a.Value
				break
			}
		}
	}
	return name
}
