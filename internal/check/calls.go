package check

// Calls: call sites against function signatures and prototypes, and the
// rules about function headers that calls depend on. Manual sections (all
// ptx-isa-9.0.txt): 7.1 (declarations, parameter passing), 7.1.1 (one
// return value from PTX 2.0 on sm_20+), 9.7.12.5 (call), 11.2.1 (.entry),
// 11.2.2 (.func, unsized trailing .b8 array), 11.2.3 (.alias), 11.3.2
// (.calltargets), 11.3.3 (.callprototype), 11.4.6 (.noreturn).
//
// Deliberately not checked, for want of certainty about what ptxas does:
// the type kind of an argument (.b32 against .f32: only sizes are
// compared), constant arguments against the parameter type, call tables
// (`call ..., jmptbl;`) against the functions in their initializers, and
// whether a .param argument is local to the caller.

import (
	"fmt"

	"github.com/ptxvm/ptxvm/internal/isa"
	"github.com/ptxvm/ptxvm/ptx"
)

// callParam is one formal parameter or return parameter of a signature.
type callParam struct {
	name   string
	space  string // ".reg" or ".param" (other spaces are the declarations checker's business)
	typ    string
	vector int     // 0, 2, 4, 8
	align  int64   // explicit .align, 0 when absent
	dims   []int64 // array dimensions; -1 is unsized `[]`, -2 not a constant
}

// callSig is the interface of a function or .callprototype.
type callSig struct {
	results, params []callParam
}

// callFunc is what the module says about one function name.
type callFunc struct {
	first *ptx.Function // the first declaration or definition
	def   *ptx.Function // the definition (with body), or nil
	index int           // the item index of first
	sig   callSig
}

// callVar is a variable visible at a call: its declaration and declarator
// (nil for a parameterized name such as %r<10>).
type callVar struct {
	decl *ptx.VarDecl
	dl   *ptx.Declarator
}

// callScope is one level of variable declarations for the call walk.
type callScope struct {
	parent *callScope
	vars   map[string]callVar
	ranges prefixTable[callRange]
}

type callRange struct {
	count int64
	decl  *ptx.VarDecl
}

func newCallScope(parent *callScope) *callScope {
	return &callScope{parent: parent, vars: map[string]callVar{}}
}

func (s *callScope) add(d *ptx.VarDecl) {
	for _, dl := range d.Names {
		if dl.Count != nil {
			if n, ok := constInt(dl.Count); ok {
				s.ranges.add(dl.Name, callRange{n, d})
			}
			continue
		}
		if _, dup := s.vars[dl.Name]; !dup {
			s.vars[dl.Name] = callVar{d, dl}
		}
	}
}

func (s *callScope) find(name string) (callVar, bool) {
	prefix, index := splitIndex(name)
	for ; s != nil; s = s.parent {
		if v, ok := s.vars[name]; ok {
			return v, true
		}
		if prefix != "" {
			for _, r := range s.ranges.get(prefix) {
				if int64(index) < r.count {
					return callVar{decl: r.decl}, true
				}
			}
		}
	}
	return callVar{}, false
}

// callCtx holds the module-wide tables of the call checks.
type callCtx struct {
	c       *checker
	funcs   map[string]*callFunc
	aliases map[string]*ptx.Alias
	mod     *callScope
	cur     int                 // item index of the function being walked
	labels  map[string]ptx.Stmt // labels, prototypes and target lists of that function
}

// calls checks function headers against each other, .alias directives, and
// every call instruction of the module.
func (c *checker) calls() {
	cc := &callCtx{c: c, funcs: map[string]*callFunc{}, aliases: map[string]*ptx.Alias{}, mod: newCallScope(nil)}
	for i, it := range c.mod.Items {
		switch it := it.(type) {
		case *ptx.VarDecl:
			cc.mod.add(it)
		case *ptx.Function:
			cc.header(i, it)
		case *ptx.Alias:
			if prev, dup := cc.aliases[it.Name]; dup {
				// Without a prototype the name is redeclared: symbols says so.
				if cc.funcs[it.Name] != nil {
					c.errorf(it.Pos, "'%s' is already an alias of '%s' (at %s)", it.Name, prev.Target, prev.Pos)
				}
				continue
			}
			cc.aliases[it.Name] = it
		}
	}
	for i, it := range c.mod.Items {
		switch it := it.(type) {
		case *ptx.Function:
			if it.Body != nil {
				cc.function(i, it)
			}
		case *ptx.Alias:
			cc.alias(it)
		}
	}
}

// header checks one .entry/.func header on its own and against an earlier
// declaration of the same name.
func (cc *callCtx) header(index int, f *ptx.Function) {
	c := cc.c
	sig := sigOf(f.Results, f.Params)
	noreturn := hasDirective(f.Directives, ".noreturn")
	if f.Kind == ".entry" {
		// 11.2.1: a kernel has parameters only; its results go through memory.
		if f.HasResults {
			c.errorf(f.Pos, "kernel '%s' cannot have return parameters (11.2.1)", f.Name)
		}
		// 11.4.6: .noreturn can only be specified on device functions.
		if noreturn {
			c.errorf(f.Pos, ".noreturn can only be specified on device functions (.func), not on kernel '%s' (11.4.6)", f.Name)
		}
	} else {
		cc.resultRules(f.Pos, "function '"+f.Name+"'", len(f.Results), noreturn)
	}
	prev := cc.funcs[f.Name]
	if prev == nil {
		cf := &callFunc{first: f, index: index, sig: sig}
		if f.Body != nil {
			cf.def = f
		}
		cc.funcs[f.Name] = cf
		return
	}
	if f.Body != nil && prev.def != nil {
		c.errorf(f.Pos, "function '%s' is already defined at %s", f.Name, prev.def.Pos)
		return
	}
	if f.Kind != prev.first.Kind || !sameSig(sig, prev.sig) {
		c.errorf(f.Pos, "declaration of '%s' does not match its earlier declaration at %s", f.Name, prev.first.Pos)
	}
	if f.Body != nil {
		prev.def = f
	}
}

// resultRules: .noreturn functions and prototypes have no return
// parameters (11.2.2, 11.3.3, 11.4.6); PTX 2.0 and later on sm_20 and
// higher allows at most one return value (7.1.1, 11.2.2 Release Notes).
func (cc *callCtx) resultRules(pos ptx.Pos, what string, results int, noreturn bool) {
	c := cc.c
	if noreturn && results > 0 {
		c.errorf(pos, ".noreturn cannot be specified on %s, which has return parameters (11.4.6)", what)
	}
	if results > 1 && !c.version.Less(isa.Version{Major: 2, Minor: 0}) && c.hasTgt && c.target.SM >= 20 {
		c.errorf(pos, "%s has %d return parameters; PTX ISA 2.0 and later on sm_20 and higher allow at most one (7.1.1)", what, results)
	}
}

// alias checks `.alias fAlias, fAliasee;` (11.2.3).
func (cc *callCtx) alias(a *ptx.Alias) {
	c := cc.c
	target := cc.funcs[a.Target]
	if target == nil {
		if _, isAlias := cc.aliases[a.Target]; isAlias {
			c.errorf(a.Pos, "'%s' in .alias is itself an alias; the aliasee must be a function defined in this module (11.2.3)", a.Target)
		}
		return // not a function: undeclared names are reported by symbols
	}
	if target.first.Kind == ".entry" {
		c.errorf(a.Pos, "'%s' in .alias is a kernel (.entry); .alias names non-entry functions (11.2.3)", a.Target)
		return
	}
	if target.def == nil {
		c.errorf(a.Pos, "'%s' in .alias must be defined in this module, not only declared (11.2.3)", a.Target)
	} else if target.def.Linkage == ".weak" || target.first.Linkage == ".weak" {
		c.errorf(a.Pos, "'%s' has .weak linkage and cannot be aliased (11.2.3)", a.Target)
	}
	al := cc.funcs[a.Name]
	if _, isVar := cc.mod.find(a.Name); isVar {
		return // a redeclaration, reported by symbols
	}
	if al == nil {
		// 11.2.3: "Identifier fAlias is a function declaration without
		// body"; whether ptxas requires that declaration is not certain.
		c.warnf(a.Pos, "alias '%s' has no prototype; declare it with .func before the .alias (11.2.3)", a.Name)
		return
	}
	switch {
	case al.first.Kind == ".entry":
		c.errorf(a.Pos, "alias '%s' is a kernel (.entry); .alias names non-entry functions (11.2.3)", a.Name)
	case al.def != nil:
		c.errorf(a.Pos, "alias '%s' is defined at %s; an alias must be a function declaration without body (11.2.3)", a.Name, al.def.Pos)
	case !sameSig(al.sig, target.sig):
		c.errorf(a.Pos, "prototype of alias '%s' (at %s) does not match '%s' (11.2.3)", a.Name, al.first.Pos, a.Target)
	}
}

// function walks one function body.
func (cc *callCtx) function(index int, f *ptx.Function) {
	cc.cur = index
	cc.labels = map[string]ptx.Stmt{}
	collectCallLabels(cc.labels, f.Body)
	fs := newCallScope(cc.mod)
	for _, d := range f.Results {
		fs.add(d)
	}
	for _, d := range f.Params {
		fs.add(d)
	}
	cc.block(fs, f.Body)
}

// collectCallLabels records the labels of a body, nested blocks included
// (labels are function-wide, 4.3.1).
func collectCallLabels(m map[string]ptx.Stmt, b *ptx.Block) {
	for _, st := range b.Stmts {
		switch st := st.(type) {
		case *ptx.Label:
			m[st.Name] = st
		case *ptx.Prototype:
			m[st.Name] = st
		case *ptx.TargetList:
			m[st.Name] = st
		case *ptx.Block:
			collectCallLabels(m, st)
		}
	}
}

func (cc *callCtx) block(parent *callScope, b *ptx.Block) {
	s := newCallScope(parent)
	for _, st := range b.Stmts {
		if d, ok := st.(*ptx.VarDecl); ok {
			s.add(d)
		}
	}
	for _, st := range b.Stmts {
		switch st := st.(type) {
		case *ptx.Block:
			cc.block(s, st)
		case *ptx.Instruction:
			if st.Opcode == "call" {
				cc.call(s, st)
			}
		case *ptx.Prototype:
			cc.resultRules(st.Pos, ".callprototype '"+st.Name+"'", len(st.Results), hasDirective(st.Directives, ".noreturn"))
		case *ptx.TargetList:
			if st.Kind == ".calltargets" {
				cc.callTargets(s, st)
			}
		}
	}
}

// callTargets checks a .calltargets list: declared functions, declared
// before the directive, all of one signature (11.3.2).
func (cc *callCtx) callTargets(s *callScope, tl *ptx.TargetList) {
	c := cc.c
	var first string
	var firstSig callSig
	for _, t := range tl.Targets {
		if _, _, isRange := cutRange(t); isRange {
			continue
		}
		sig, ok := cc.targetSig(s, tl.Pos, t, ".calltargets")
		if !ok {
			continue
		}
		if first == "" {
			first, firstSig = t, sig
		} else if !sameSig(sig, firstSig) {
			c.errorf(tl.Pos, "'%s' in .calltargets '%s' does not have the signature of '%s'; all call targets must have the same type signature (11.3.2)", t, tl.Name, first)
		}
	}
}

// targetSig resolves a name listed in .calltargets to a function signature,
// reporting names that are not functions.
func (cc *callCtx) targetSig(s *callScope, pos ptx.Pos, name, where string) (callSig, bool) {
	c := cc.c
	if _, isVar := s.find(name); isVar {
		c.errorf(pos, "'%s' in %s is a variable, not a function", name, where)
		return callSig{}, false
	}
	if _, isLabel := cc.labels[name]; isLabel {
		c.errorf(pos, "'%s' in %s is a label, not a function", name, where)
		return callSig{}, false
	}
	if f := cc.funcs[name]; f != nil {
		if f.first.Kind == ".entry" {
			c.errorf(pos, "'%s' in %s is a kernel (.entry), not a function", name, where)
			return callSig{}, false
		}
		if f.index > cc.cur {
			c.warnf(pos, "'%s' in %s is declared after this function (at %s); functions must be declared before they are listed (11.3.2)", name, where, f.first.Pos)
		}
		return f.sig, true
	}
	if sig, ok := cc.aliasSig(name); ok {
		return sig, true
	}
	return callSig{}, false // undeclared: reported by symbols
}

// aliasSig is the signature of an alias: its prototype, else its aliasee's.
func (cc *callCtx) aliasSig(name string) (callSig, bool) {
	a := cc.aliases[name]
	if a == nil {
		return callSig{}, false
	}
	if f := cc.funcs[a.Target]; f != nil {
		return f.sig, true
	}
	return callSig{}, false
}

// call checks one call instruction (9.7.12.5):
//
//	call{.uni} {(results),} func {, (args)};
//	call{.uni} {(results),} fptr {, (args)}, flist-or-fproto;
func (cc *callCtx) call(s *callScope, in *ptx.Instruction) {
	c := cc.c
	ops := in.Operands
	var results, args *ptx.TupleExpr
	i := 0
	if i < len(ops) {
		if t, ok := ops[i].(*ptx.TupleExpr); ok {
			results, i = t, i+1
		}
	}
	if i >= len(ops) {
		return // malformed: the instruction table reports it
	}
	callee, ok := ops[i].(*ptx.Ident)
	if !ok {
		return
	}
	i++
	if i < len(ops) {
		if t, ok := ops[i].(*ptx.TupleExpr); ok {
			args, i = t, i+1
		}
	}
	var list *ptx.Ident
	if i < len(ops) {
		if list, ok = ops[i].(*ptx.Ident); !ok {
			return
		}
		i++
	}
	if i != len(ops) {
		return
	}

	// The callee: a register (indirect call) or a function name (direct).
	if v, isVar := s.find(callee.Name); isVar {
		if v.decl.Space != ".reg" {
			c.errorf(callee.Pos, "call target '%s' is a %s variable; an indirect call needs the function address in a register (9.7.12.5)", callee.Name, v.decl.Space)
			return
		}
		cc.indirect(s, in, callee, results, args, list)
		return
	}
	if _, isLabel := cc.labels[callee.Name]; isLabel {
		c.errorf(callee.Pos, "call target '%s' is a label, not a function", callee.Name)
		return
	}
	var sig callSig
	if f := cc.funcs[callee.Name]; f != nil {
		if f.first.Kind == ".entry" {
			// Kernels are launched, not called; even CUDA Dynamic
			// Parallelism launches them through a runtime call that
			// takes their address (6.4.4, 9.7.9.1 mov).
			c.errorf(callee.Pos, "'%s' is a kernel (.entry) and cannot be called", callee.Name)
			return
		}
		if f.index > cc.cur {
			// 7.1: "A function must be declared or defined prior to being called."
			c.warnf(callee.Pos, "'%s' is called before its declaration at %s (7.1)", callee.Name, f.first.Pos)
		}
		sig = f.sig
	} else if sig, ok = cc.aliasSig(callee.Name); !ok {
		return // undeclared: reported by symbols
	}
	if list != nil {
		c.errorf(list.Pos, "direct call to '%s' cannot name a prototype or call-target list ('%s'); only indirect calls through a register take one (9.7.12.5)", callee.Name, list.Name)
	}
	cc.checkCallArgs(s, in.Pos, "call to '"+callee.Name+"'", callee.Name, sig, results, args)
}

// indirect checks an indirect call through the register fptr.
func (cc *callCtx) indirect(s *callScope, in *ptx.Instruction, fptr *ptx.Ident, results, args *ptx.TupleExpr, list *ptx.Ident) {
	c := cc.c
	if list == nil {
		c.errorf(fptr.Pos, "indirect call through register '%s' needs a .callprototype or .calltargets operand (9.7.12.5)", fptr.Name)
		return
	}
	what := "call through '" + list.Name + "'"
	if v, isVar := s.find(list.Name); isVar {
		// A call table: "declared at module scope or local scope, in either
		// the constant or global state space" (9.7.12.5).
		if sp := v.decl.Space; sp != ".global" && sp != ".const" {
			c.errorf(list.Pos, "call table '%s' is a %s variable; call tables are in .global or .const space (9.7.12.5)", list.Name, sp)
		}
		return
	}
	switch st := cc.labels[list.Name].(type) {
	case *ptx.Prototype:
		cc.checkCallArgs(s, in.Pos, what, list.Name, sigOf(st.Results, st.Params), results, args)
		return
	case *ptx.TargetList:
		if st.Kind != ".calltargets" {
			break
		}
		for _, t := range st.Targets {
			if f := cc.funcs[t]; f != nil && f.first.Kind == ".func" {
				cc.checkCallArgs(s, in.Pos, what, list.Name, f.sig, results, args)
				return
			}
			if sig, ok := cc.aliasSig(t); ok {
				cc.checkCallArgs(s, in.Pos, what, list.Name, sig, results, args)
				return
			}
		}
		return
	case nil:
		if cc.funcs[list.Name] == nil && cc.aliases[list.Name] == nil {
			return // undeclared: reported by symbols
		}
	}
	c.errorf(list.Pos, "call through '%s' which is not a .callprototype or .calltargets label", list.Name)
}

// checkCallArgs checks the result and argument lists of a call against sig.
func (cc *callCtx) checkCallArgs(s *callScope, pos ptx.Pos, what, name string, sig callSig, results, args *ptx.TupleExpr) {
	c := cc.c
	var res, arg []ptx.Expr
	if results != nil {
		res = results.Elems
	}
	if args != nil {
		arg = args.Elems
	}
	if len(res) != len(sig.results) {
		c.errorf(pos, "%s: %s given, '%s' has %s", what, plural(len(res), "result"), name, plural(len(sig.results), "return parameter"))
	} else {
		for i, e := range res {
			cc.checkCallOperand(s, what, i, e, sig.results[i], true)
		}
	}
	// 11.2.2: a trailing unsized .b8 array parameter may be left out.
	min := len(sig.params)
	if min > 0 && sig.params[min-1].unsized() {
		min--
	}
	if len(arg) < min || len(arg) > len(sig.params) {
		c.errorf(pos, "%s: %s given, '%s' takes %d", what, plural(len(arg), "argument"), name, len(sig.params))
		return
	}
	for i, e := range arg {
		cc.checkCallOperand(s, what, i, e, sig.params[i], false)
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// checkCallOperand checks one argument (or result) against its formal
// parameter, as 7.1 lists for the caller: arguments are .param variables,
// .reg variables or constants; a .param byte-array parameter takes a .param
// array of matching size and alignment; other parameters take a .param or
// .reg variable of matching size, or (arguments only) a constant.
func (cc *callCtx) checkCallOperand(s *callScope, what string, i int, e ptx.Expr, p callParam, result bool) {
	c := cc.c
	role := fmt.Sprintf("argument %d", i+1)
	formal := "parameter"
	if result {
		role, formal = "result", "return parameter"
	}
	if p.name != "" && p.name != "_" {
		formal += " '" + p.name + "'"
	}
	switch x := e.(type) {
	case *ptx.Ident:
		if x.Name == "_" {
			return
		}
		v, ok := s.find(x.Name)
		if !ok {
			return // a function address, or undeclared (reported by symbols)
		}
		a := paramOf(v)
		if a.space != ".reg" && a.space != ".param" {
			c.errorf(x.Pos, "%s of %s ('%s') is a %s variable; arguments and results must be .reg or .param variables%s (7.1)",
				role, what, x.Name, a.space, map[bool]string{false: " or constants", true: ""}[result])
			return
		}
		if p.isArray() {
			if !a.isArray() || a.space != ".param" {
				c.errorf(x.Pos, "%s of %s ('%s'): %s is a .param array; pass a .param array of the same size and alignment (7.1)", role, what, x.Name, formal)
				return
			}
			if p.unsized() {
				return
			}
			if pb, ab := p.bytes(), a.bytes(); pb > 0 && ab > 0 && pb != ab {
				c.errorf(x.Pos, "%s of %s ('%s') is %d bytes, %s is %d bytes (7.1)", role, what, x.Name, ab, formal, pb)
				return
			}
			if p.align > 0 && a.align > 0 && p.align != a.align {
				c.errorf(x.Pos, "alignment of %s of %s ('%s', .align %d) does not match %s (.align %d) (7.1)", role, what, x.Name, a.align, formal, p.align)
			}
			return
		}
		if a.isArray() {
			c.errorf(x.Pos, "%s of %s ('%s') is an array; %s is a scalar (7.1)", role, what, x.Name, formal)
			return
		}
		if pb, ab := p.bits(), a.bits(); pb > 0 && ab > 0 && pb != ab {
			c.errorf(x.Pos, "%s of %s ('%s') is %d bits, %s is %d bits (7.1)", role, what, x.Name, ab, formal, pb)
		}
	case *ptx.IntLit, *ptx.FloatLit, *ptx.UnaryExpr, *ptx.ParenExpr, *ptx.CastExpr:
		if _, err := ptx.EvalConst(e); err != nil {
			return
		}
		if result {
			c.errorf(e.Position(), "result of %s is a constant; results must be .reg or .param variables (7.1)", what)
		} else if p.isArray() {
			c.errorf(e.Position(), "%s of %s is a constant; %s is a .param array (7.1)", role, what, formal)
		}
	case *ptx.AddressExpr, *ptx.StringLit:
		c.errorf(e.Position(), "%s of %s must be a .reg or .param variable%s (9.7.12.5)", role, what, map[bool]string{false: " or a constant", true: ""}[result])
	}
}

// sigOf builds a signature from parameter declarations.
func sigOf(results, params []*ptx.VarDecl) callSig {
	var s callSig
	for _, d := range results {
		s.results = append(s.results, paramsOf(d)...)
	}
	for _, d := range params {
		s.params = append(s.params, paramsOf(d)...)
	}
	return s
}

func paramsOf(d *ptx.VarDecl) []callParam {
	var out []callParam
	for _, dl := range d.Names {
		out = append(out, paramOf(callVar{d, dl}))
	}
	return out
}

func paramOf(v callVar) callParam {
	d := v.decl
	p := callParam{space: d.Space, typ: d.Type, vector: d.Vector}
	if d.Align != nil {
		if n, ok := constInt(d.Align); ok {
			p.align = n
		}
	}
	if v.dl != nil {
		p.name = v.dl.Name
		for _, dim := range v.dl.Dims {
			n := int64(-1) // unsized
			if dim != nil {
				var ok bool
				if n, ok = constInt(dim); !ok || n < 0 {
					n = -2
				}
			}
			p.dims = append(p.dims, n)
		}
	}
	return p
}

func (p callParam) isArray() bool { return len(p.dims) > 0 }

// unsized reports an unsized array parameter `.param .b8 name[]` (11.2.2).
func (p callParam) unsized() bool {
	return p.space == ".param" && len(p.dims) == 1 && p.dims[0] == -1
}

// bits is the size of a scalar or vector parameter in bits; 0 when unknown.
func (p callParam) bits() int64 {
	t, ok := parseType(p.typ)
	if !ok || t.kind == 'p' {
		return 0
	}
	n := int64(t.bits)
	if p.vector > 0 {
		n *= int64(p.vector)
	}
	return n
}

// bytes is the size of an array parameter in bytes; 0 when unknown.
func (p callParam) bytes() int64 {
	n := p.bits() / 8
	for _, d := range p.dims {
		if d < 0 {
			return 0
		}
		n *= d
	}
	return n
}

// effAlign is the alignment of a parameter: explicit, else its element size.
func (p callParam) effAlign() int64 {
	if p.align > 0 {
		return p.align
	}
	return p.bits() / 8
}

// sameSig compares signatures by what the ABI sees: number, state space,
// size and shape, alignment and array dimensions of every parameter. The
// type kind (.b32, .u32, .f32) is not compared; names never are.
func sameSig(a, b callSig) bool {
	return sameParams(a.results, b.results) && sameParams(a.params, b.params)
}

func sameParams(a, b []callParam) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.space != y.space || x.vector != y.vector || len(x.dims) != len(y.dims) {
			return false
		}
		if xb, yb := x.bits(), y.bits(); xb == 0 || yb == 0 {
			if x.typ != y.typ {
				return false
			}
		} else if xb != yb {
			return false
		}
		for j := range x.dims {
			if x.dims[j] != y.dims[j] {
				return false
			}
		}
		if x.effAlign() != y.effAlign() {
			return false
		}
	}
	return true
}

func hasDirective(ds []*ptx.Directive, name string) bool {
	for _, d := range ds {
		if d.Name == name {
			return true
		}
	}
	return false
}
