package check

// Symbols: module, function and block scopes (ptx-isa-9.0.txt 5.4, 7;
// labels are function-wide, 4.3.1), declarations, and the names
// instructions use. Also the walk that drives the per-instruction checks.

import (
	"strconv"
	"strings"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/isa"
	"github.com/ptxvm/ptxvm/ptx"
)

// symKind says what a name denotes.
type symKind uint8

const (
	symVar     symKind = iota // a variable of some state space (.reg ones are registers)
	symFunc                   // an .entry or .func
	symLabel                  // a code label
	symProto                  // a .callprototype label
	symTargets                // a .calltargets or .branchtargets label
)

// symbol is what a declared name denotes.
type symbol struct {
	kind symKind
	pos  ptx.Pos
	decl *ptx.VarDecl  // symVar
	fn   *ptx.Function // symFunc
	// typ: decl's type parsed, if parseType takes it (typOK); every
	// register operand's check compares it
	typ   simpleType
	typOK bool
	// built: what the builder made of a symVar, kept on its first use
	// (builder.usedOperand)
	built builtSym
}

// builtSym is what the builder made of a symbol: one register or
// variable, or a range whose registers it keeps by index (rd).
type builtSym struct {
	reg *ir.Reg
	v   *ir.Var
	rd  *rangeDecl
}

// varSymbol returns the symbol of a declarator of d.
func varSymbol(d *ptx.VarDecl, dl *ptx.Declarator) *symbol {
	sym := &symbol{kind: symVar, pos: dl.Pos, decl: d}
	sym.typ, sym.typOK = parseType(d.Type)
	return sym
}

// isReg reports whether s is a register (a .reg variable or parameter).
func (s *symbol) isReg() bool { return s.kind == symVar && s.decl.Space == ".reg" }

// scope is one level of declarations.
type scope struct {
	parent *scope
	names  map[string]*symbol
	lens   nameLens              // of names
	ranges prefixTable[rangeSym] // parameterized names: prefix -> declarations (%r<100>)
}

type rangeSym struct {
	count int
	sym   *symbol
}

func newScope(parent *scope) *scope {
	return &scope{parent: parent, names: map[string]*symbol{}}
}

// declare adds name, reporting a redeclaration in the same scope.
func (c *checker) declare(s *scope, name string, sym *symbol) {
	if prev, dup := s.names[name]; dup {
		c.errorf(sym.pos, "'%s' is already declared at %s", name, prev.pos)
		return
	}
	s.names[name] = sym
	s.lens.add(name)
}

func (s *scope) declareRange(prefix string, n int, sym *symbol) {
	s.ranges.add(prefix, rangeSym{n, sym})
}

// lookup reports whether name is declared in s or an enclosing scope.
func (s *scope) lookup(name string) bool { return s.find(name) != nil }

// find returns the symbol name denotes in s or an enclosing scope, or nil.
func (s *scope) find(name string) *symbol {
	sym, _ := s.findAt(name)
	return sym
}

// findAt is find, and the name's index in its range (5 for %r5 of
// %r<100>; -1 for a name declared alone). A name of a range is found
// from its prefix and index (splitIndex), not kept with the scope's
// names: a module's thousands of register names would grow the maps, and
// hashing the short prefix costs less than hashing the name.
func (s *scope) findAt(name string) (*symbol, int) {
	prefix, index := "", -2 // splitIndex(name), computed on the first miss
	for ; s != nil; s = s.parent {
		if s.lens.has(name) {
			if sym, ok := s.names[name]; ok {
				return sym, -1
			}
		}
		if s.ranges.empty() {
			continue
		}
		if index == -2 {
			prefix, index = splitIndex(name)
		}
		if prefix == "" {
			continue
		}
		for _, r := range s.ranges.get(prefix) {
			if index < r.count {
				return r.sym, index
			}
		}
	}
	return nil, -1
}

// splitIndex splits "%r12" into "%r" and 12; ("", -1) when there is no
// numeric suffix. "%r012" has none: parameterized names have no leading zeros.
func splitIndex(name string) (string, int) {
	// (every register operand comes here: one pass from the end, which
	// reads the value of up to nine digits; Atoi beyond, for its
	// overflow check)
	i, n, unit := len(name), 0, 1
	for i > 0 && name[i-1]-'0' <= 9 { // (a byte below '0' wraps past 9)
		i--
		if unit <= 1e8 {
			n += int(name[i]-'0') * unit
			unit *= 10
		}
	}
	if i == len(name) || i == 0 || len(name)-i > 1 && name[i] == '0' {
		return "", -1
	}
	if len(name)-i > 9 {
		var err error
		if n, err = strconv.Atoi(name[i:]); err != nil {
			return "", -1
		}
	}
	return name[:i], n
}

// declareVar declares the names of a declaration in s.
func (c *checker) declareVar(s *scope, d *ptx.VarDecl) {
	for _, dl := range d.Names {
		if dl.Count != nil {
			n, ok := constInt(dl.Count)
			if !ok || n <= 0 {
				c.errorf(dl.Pos, "the count of a parameterized name must be a positive integer constant")
				continue
			}
			s.declareRange(dl.Name, int(n), varSymbol(d, dl))
			continue
		}
		c.declare(s, dl.Name, varSymbol(d, dl))
	}
}

func constInt(e ptx.Expr) (int64, bool) {
	v, ok := evalConst(e)
	if !ok {
		return 0, false
	}
	switch v.Kind {
	case ptx.ConstS64:
		return v.Int64(), true
	case ptx.ConstU64:
		return int64(v.Uint64()), v.Uint64() < 1<<62
	}
	return 0, false
}

// symbols walks the module: declarations, then every function body.
func (c *checker) symbols() {
	mod := newScope(nil)
	functions := map[string]bool{}
	for _, it := range c.mod.Items {
		switch it := it.(type) {
		case *ptx.VarDecl:
			c.declareVar(mod, it)
		case *ptx.Function:
			// a prototype and its definition share the name
			if !functions[it.Name] {
				c.declare(mod, it.Name, &symbol{kind: symFunc, pos: it.Pos, fn: it})
			} else if it.Body != nil {
				mod.names[it.Name].fn = it // the definition stands for the name
			}
			functions[it.Name] = true
		case *ptx.Alias:
			// the alias may have been declared first as a prototype (11.2.3)
			if !functions[it.Name] {
				c.declare(mod, it.Name, &symbol{kind: symFunc, pos: it.Pos})
			}
		}
	}
	for _, it := range c.mod.Items {
		switch it := it.(type) {
		case *ptx.VarDecl:
			for _, dl := range it.Names {
				if dl.Init != nil {
					c.resolve(mod, dl.Init, "")
				}
			}
			c.gateDeclaration(it)
		case *ptx.Function:
			c.function(mod, it)
		case *ptx.Alias:
			c.gateDirective(".alias", it.Pos)
			if !mod.lookup(it.Target) {
				c.errorf(it.Pos, "undeclared function '%s' in .alias", it.Target)
			}
		case *ptx.Section:
			c.gateDirectiveIf(".section", it.Pos, sectionWords(it)...)
		case *ptx.Dwarf:
			c.gateDirective("@@DWARF", it.Pos)
		case *ptx.FileDirective:
			if it.Timestamp != nil {
				c.gateDirectiveIf(".file", it.Pos, "timestamp")
			} else {
				c.gateDirective(".file", it.Pos)
			}
		case *ptx.Directive:
			c.gateDirectiveIf(it.Name, it.Pos, pragmaWords(it)...)
		}
	}
}

// pragmaWords names the pragma strings of a .pragma (chapter 12): the
// first word of each string, `used_bytes_mask` of "used_bytes_mask 0xfff".
func pragmaWords(d *ptx.Directive) []string {
	var words []string
	for _, a := range d.Args {
		if s, ok := a.(*ptx.StringLit); ok {
			if f := strings.Fields(s.Value); len(f) > 0 {
				words = append(words, f[0])
			}
		}
	}
	return words
}

func (c *checker) function(mod *scope, f *ptx.Function) {
	// The .entry/.func blocks condition features on these words (11.2).
	var words []string
	if f.HasParams {
		words = append(words, "param-list")
	}
	if len(f.Attributes) > 0 {
		words = append(words, ".attribute")
		c.gateAttributes(f.Attributes, f.Pos)
	}
	for _, d := range f.Directives {
		words = append(words, d.Name)
		c.gateDirectiveIf(d.Name, d.Pos, pragmaWords(d)...)
	}
	c.gateDirectiveIf(f.Kind, f.Pos, words...)
	if f.Linkage != "" {
		c.gateDirective(f.Linkage, f.Pos) // .weak needs PTX 3.1 (11.6.3)
	}
	if f.Body == nil {
		return
	}
	fs := newScope(mod)
	for _, p := range append(append([]*ptx.VarDecl{}, f.Results...), f.Params...) {
		c.declareVar(fs, p)
	}
	c.labels(fs, f.Body)
	c.block(fs, f.Body)
}

// labels declares every label of a function body in its function scope:
// labels are visible throughout the function, nested blocks included.
func (c *checker) labels(fs *scope, b *ptx.Block) {
	for _, st := range b.Stmts {
		switch st := st.(type) {
		case *ptx.Label:
			c.declare(fs, st.Name, &symbol{kind: symLabel, pos: st.Pos})
		case *ptx.Prototype:
			c.declare(fs, st.Name, &symbol{kind: symProto, pos: st.Pos})
		case *ptx.TargetList:
			c.declare(fs, st.Name, &symbol{kind: symTargets, pos: st.Pos})
		case *ptx.Block:
			c.labels(fs, st)
		}
	}
}

func (c *checker) block(parent *scope, b *ptx.Block) {
	s := newScope(parent)
	for _, st := range b.Stmts {
		if d, ok := st.(*ptx.VarDecl); ok {
			c.declareVar(s, d)
		}
	}
	for _, st := range b.Stmts {
		switch st := st.(type) {
		case *ptx.Instruction:
			c.names.start(s)
			if st.Guard != nil {
				if sym, index := s.findAt(st.Guard.Pred); sym != nil {
					c.names.keep(nil, sym, index)
				} else {
					c.errorf(st.Guard.Pos, "undeclared predicate '%s'", st.Guard.Pred)
				}
			}
			c.checkInstruction(s, st)
			what := ""
			if st.Opcode == "bra" || st.Opcode == "brx" {
				what = "label"
			}
			for _, op := range st.Operands {
				c.resolve(s, op, what)
			}
			c.keepNames(st)
		case *ptx.Block:
			c.block(s, st)
		case *ptx.TargetList:
			c.gateDirective(st.Kind, st.Pos)
			for _, t := range st.Targets {
				if _, n, ok := cutRange(t); ok {
					_ = n // N<5>: the labels N0..N4, checked as a prefix below
					continue
				}
				if !s.lookup(t) {
					c.errorf(st.Pos, "undeclared name '%s' in %s", t, st.Kind)
				}
			}
		case *ptx.Prototype:
			var words []string
			for _, d := range st.Directives {
				words = append(words, d.Name)
			}
			c.gateDirectiveIf(".callprototype", st.Pos, words...)
		case *ptx.Directive:
			c.gateDirectiveIf(st.Name, st.Pos, pragmaWords(st)...)
		case *ptx.Loc:
			var words []string
			if st.FunctionName != nil {
				words = append(words, "function_name")
			}
			if st.InlinedAt != nil {
				words = append(words, "inlined_at")
			}
			c.gateDirectiveIf(".loc", st.Pos, words...)
		case *ptx.VarDecl:
			c.gateDeclaration(st)
		}
	}
}

// cutRange splits a target-list range "N<5>" into "N" and 5.
func cutRange(t string) (string, int, bool) {
	i := len(t) - 1
	if i < 0 || t[i] != '>' {
		return "", 0, false
	}
	for j := i - 1; j >= 0; j-- {
		if t[j] == '<' {
			n, err := strconv.Atoi(t[j+1 : i])
			return t[:j], n, err == nil
		}
	}
	return "", 0, false
}

// resolve checks that every name in an operand or initializer is declared
// or is a special register; what names the expected kind in messages.
func (c *checker) resolve(s *scope, e ptx.Expr, what string) {
	switch e := e.(type) {
	case *ptx.Ident:
		c.resolveName(s, e, what)
	case *ptx.SelectorExpr:
		c.resolve(s, e.X, what)
	case *ptx.IndexExpr:
		c.resolve(s, e.X, what)
		c.resolve(s, e.Index, "")
	case *ptx.AddressExpr:
		for _, x := range e.Elems {
			c.resolve(s, x, "")
		}
	case *ptx.BraceExpr:
		for _, x := range e.Elems {
			c.resolve(s, x, what)
		}
	case *ptx.TupleExpr:
		for _, x := range e.Elems {
			c.resolve(s, x, "")
		}
	case *ptx.UnaryExpr:
		c.resolve(s, e.X, what)
	case *ptx.BinaryExpr:
		c.resolve(s, e.X, what)
		c.resolve(s, e.Y, what)
	case *ptx.CondExpr:
		c.resolve(s, e.Cond, "")
		c.resolve(s, e.X, what)
		c.resolve(s, e.Y, what)
	case *ptx.ParenExpr:
		c.resolve(s, e.X, what)
	case *ptx.CastExpr:
		c.resolve(s, e.X, what)
	case *ptx.CallExpr: // generic(var), 0xFF(var): the function part is an operator
		for _, x := range e.Args {
			c.resolve(s, x, "")
		}
	case *ptx.KeyValue: // sampler fields name modes, not symbols
	}
}

func (c *checker) resolveName(s *scope, id *ptx.Ident, what string) {
	name, pos := id.Name, id.Pos
	if name == "_" || name == "WARP_SZ" || c.find(s, id) != nil {
		return
	}
	if r := isa.LookupSpecialReg(name); r != nil {
		c.emit(pos, c.requirements(r.Requires, func(isa.Alt) bool { return false }, func(req isa.Requirement) string {
			if req.Feature != "" {
				return req.Feature
			}
			return r.Name
		}))
		return
	}
	if what == "" {
		what = "identifier"
	}
	c.errorf(pos, "undeclared %s '%s'", what, name)
}

// gateDirective checks a directive's unconditional version and target requirements.
func (c *checker) gateDirective(name string, pos ptx.Pos) { c.gateDirectiveIf(name, pos) }

// gateDirectiveIf checks a directive's requirements, counting as true the
// condition words given (`bank` for a banked .const).
func (c *checker) gateDirectiveIf(name string, pos ptx.Pos, words ...string) {
	d := isa.LookupDirective(name)
	if d == nil {
		return
	}
	holds := func(a isa.Alt) bool {
		for _, w := range words {
			if a.Value == w {
				return true
			}
		}
		return false
	}
	c.emit(pos, c.requirements(d.Requires, holds, func(r isa.Requirement) string {
		if r.Feature != "" {
			return r.Feature
		}
		return name
	}))
}

// gateDeclaration gates the declaration features that the directive table
// records (.attribute, .ptr, .const banks).
func (c *checker) gateDeclaration(d *ptx.VarDecl) {
	if len(d.Attributes) > 0 {
		c.gateAttributes(d.Attributes, d.Pos)
	}
	if d.Ptr != nil {
		c.gateDirective(".ptr", d.Pos)
	}
	if d.Bank != nil {
		c.gateDirectiveIf(".const", d.Pos, "bank")
	}
}

// gateAttributes gates .attribute and each attribute's own requirements
// (5.4.8: .managed needs sm_30, .unified sm_90).
func (c *checker) gateAttributes(attrs []ptx.Attribute, pos ptx.Pos) {
	words := make([]string, len(attrs))
	for i, a := range attrs {
		words[i] = a.Name
	}
	c.gateDirectiveIf(".attribute", pos, words...)
}

// sectionWords names the features a .section uses (11.5.2 PTX ISA Notes):
// label+imm, .b16 data, labels inside the section, label differences.
func sectionWords(s *ptx.Section) []string {
	var words []string
	for _, it := range s.Items {
		switch it := it.(type) {
		case *ptx.Label:
			words = append(words, "label:")
		case *ptx.SectionData:
			if it.Type == ".b16" {
				words = append(words, ".b16")
			}
			for _, v := range it.Values {
				if b, ok := v.(*ptx.BinaryExpr); ok {
					_, xName := b.X.(*ptx.Ident)
					_, yName := b.Y.(*ptx.Ident)
					switch {
					case b.Op == "-" && xName && yName:
						words = append(words, "label1-label2")
					case xName && !yName:
						words = append(words, "label+imm")
					}
				}
			}
		}
	}
	return words
}
