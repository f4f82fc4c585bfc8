package check

// Operand checks: registers against the types the instruction's form gives
// its operands (ptx-isa-9.0.txt 9.4, Tables 26-28), predicates, and the
// state space of variables named directly in an address.

import (
	"strconv"
	"strings"

	"github.com/ptxvm/ptxvm/internal/isa"
	"github.com/ptxvm/ptxvm/ptx"
)

// operandSpec is what a form requires of one operand placeholder.
type operandSpec struct {
	kinds []string
	typ   string // resolved type (".u32"), or "" when unknown or untyped
	// want: typ parsed, if parseType takes it (wantOK), for checkRegister
	want   simpleType
	wantOK bool
}

// spec resolves the operand rules of the matched block for placeholder
// name: later rules whose condition holds override earlier ones. The
// answer depends on the opcode, modifiers and form (m.key, m.form), the
// name, and which optional operands are present: it is kept per
// combination and name (m.memos) with the questions about presence it
// asked (gate's approach).
func (c *checker) spec(in *ptx.Instruction, m match, name string) operandSpec {
	present := func(a isa.Alt) bool { return m.present.has(a.Value) }
	var kept *[]memo[operandSpec]
	for i := range m.memos.specs {
		if m.memos.specs[i].name == name {
			kept = &m.memos.specs[i].memos
			break
		}
	}
	if kept == nil {
		if m.memos.specs == nil {
			// room for every placeholder of the form: one allocation
			names := 0
			for i := range m.form.Operands {
				names += len(m.form.Operands[i].Names)
			}
			m.memos.specs = make([]specMemos, 0, names)
		}
		m.memos.specs = append(m.memos.specs, specMemos{name: name})
		kept = &m.memos.specs[len(m.memos.specs)-1].memos
	}
	if sp, ok := recall(*kept, present); ok {
		return sp
	}
	var mm memo[operandSpec]
	holds := func(a isa.Alt) bool {
		if a.Operand {
			return mm.ask(a, present(a))
		}
		return containsString(in.Modifiers, a.Value)
	}
	for _, r := range m.instr.Operands {
		if !containsString(r.Names, name) || !condHolds(r.When, holds) {
			continue
		}
		if len(r.Kinds) > 0 {
			mm.v.kinds = r.Kinds
		}
		if r.Type != "" {
			mm.v.typ = resolveType(r.Type, m.groups, m.instr.Groups, in.Modifiers)
		}
	}
	if mm.v.typ == "" && onlyPredicate(mm.v.kinds) {
		mm.v.typ = ".pred"
	}
	mm.v.want, mm.v.wantOK = parseType(mm.v.typ)
	remember(kept, mm)
	return mm.v
}

// choiceSpecsOf returns the specs of the operands of in, matched to m:
// kept per form and choice for matches whose operand presence is the
// choice's own (m.fixed), as every instruction so matched has the same
// (the builder asked spec again for every operand of every instruction).
// Shared: no one changes them.
func (c *checker) choiceSpecsOf(in *ptx.Instruction, m match) *choiceSpecs {
	if m.fixed && len(m.operands) > 0 {
		for _, cs := range m.memos.shape.choiceSpecs.get() {
			if cs.ops == &m.operands[0] {
				return cs
			}
		}
	}
	n := len(in.Operands)
	specs := make([]operandSpec, 2*n)
	cs := &choiceSpecs{first: specs[:n:n], second: specs[n:], types: make([]string, n)}
	for i, fo := range m.operands {
		if len(fo.Names) > 0 {
			cs.first[i] = c.spec(in, m, fo.Names[0])
			cs.types[i] = cs.first[i].typ
		}
		if len(fo.Names) > 1 {
			cs.second[i] = c.spec(in, m, fo.Names[1])
		}
	}
	if m.fixed && len(m.operands) > 0 {
		cs.ops = &m.operands[0]
		m.memos.shape.choiceSpecs.add(cs)
	}
	return cs
}

// onlyPredicate reports whether kinds allow nothing but a predicate (or the sink).
func onlyPredicate(kinds []string) bool {
	pred := false
	for _, k := range kinds {
		switch k {
		case "pred":
			pred = true
		case "sink":
		default:
			return false
		}
	}
	return pred
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// resolveType turns a rule's type (".type", "2*.type", ".b32") into the
// type the instruction chose; "" when it cannot tell. A group the form fills
// with a literal (`add{.sat}.s32` under `.type`) is resolved through the
// instruction's modifiers.
func resolveType(t string, chosen map[string]string, groups []isa.Group, mods []string) string {
	factor := 1
	if i := strings.IndexByte(t, '*'); i > 0 {
		factor, _ = strconv.Atoi(t[:i])
		t = t[i+1:]
	}
	if v, ok := chosen[t]; ok {
		t = v
	} else if v := groupValueIn(t, groups, mods); v != "" {
		t = v
	} else if _, simple := parseType(t); !simple {
		return "" // a group left empty, or a type outside the checked set
	}
	if factor == 1 {
		return t
	}
	ty, ok := parseType(t)
	if !ok || ty.kind == 'p' {
		return ""
	}
	return "." + string(ty.kind) + strconv.Itoa(ty.bits*factor)
}

// groupValueIn returns the one modifier of mods that is a value of the
// group named name; "" if none or several are (cvt.f16.f32: both are
// values of .atype, so neither tells which is meant).
func groupValueIn(name string, groups []isa.Group, mods []string) string {
	found := ""
	for _, g := range groups {
		if g.Name != name {
			continue
		}
		for _, m := range mods {
			if containsString(g.Values, m) {
				if found != "" {
					return ""
				}
				found = m
			}
		}
	}
	return found
}

// simpleType is a fundamental scalar type: kind 'b', 's', 'u', 'f' or 'p'
// (.pred), and its width in bits.
type simpleType struct {
	kind byte
	bits int
}

// parseType parses the fundamental types the rules of 9.4 are about; packed
// and narrow float formats (.f16x2, .bf16, .e4m3...) are not checked.
func parseType(t string) (simpleType, bool) {
	if t == ".pred" {
		return simpleType{'p', 1}, true
	}
	if len(t) < 3 || t[0] != '.' {
		return simpleType{}, false
	}
	k := t[1]
	if k != 'b' && k != 's' && k != 'u' && k != 'f' {
		return simpleType{}, false
	}
	n := 0 // (the digits: every register operand's two types come here)
	for _, d := range []byte(t[2:]) {
		if d < '0' || d > '9' || n > 1000 {
			return simpleType{}, false
		}
		n = n*10 + int(d-'0')
	}
	switch n {
	case 8, 16, 32, 64, 128:
	default:
		return simpleType{}, false
	}
	if k == 'f' && n != 16 && n != 32 && n != 64 {
		return simpleType{}, false
	}
	return simpleType{k, n}, true
}

// typeAgrees applies Table 26 (exact size) or, for relaxed instructions,
// Tables 27 and 28 (operand may be wider, 9.4.1).
func typeAgrees(instr, operand simpleType, relaxed bool) bool {
	if instr.kind == 'p' || operand.kind == 'p' {
		return instr.kind == operand.kind
	}
	if relaxed {
		if operand.bits < instr.bits {
			return false
		}
		switch instr.kind {
		case 'b':
			return true
		case 's', 'u':
			return operand.kind != 'f'
		case 'f':
			return operand.kind == 'b' || operand.kind == 'f' && operand.bits == instr.bits
		}
		return true
	}
	if operand.bits != instr.bits {
		return false
	}
	switch instr.kind {
	case 's', 'u':
		return operand.kind != 'f'
	case 'f':
		return operand.kind != 's' && operand.kind != 'u'
	}
	return true
}

// relaxedOpcode: these opcodes may take data operands wider than the
// instruction type (9.4.1).
func relaxedOpcode(op string) bool {
	switch op {
	case "ld", "ldu", "st", "cvt":
		return true
	}
	return false
}

// checkOperands checks the operands of an instruction matched to a form;
// it returns their specs (choiceSpecsOf).
func (c *checker) checkOperands(s *scope, in *ptx.Instruction, m match) *choiceSpecs {
	relaxed, arith := relaxedOpcode(in.Opcode), isArithmetic(in.Opcode)
	cs := c.choiceSpecsOf(in, m)
	for i, e := range in.Operands {
		fo := m.operands[i]
		switch fo.Shape {
		case isa.ShapeScalar:
			sp := &cs.first[i]
			c.checkRegister(s, in, e, sp, relaxed)
			c.checkImmediate(in, e, fo, i, sp)
			c.checkVariable(s, in, e, fo, sp, arith)
		case isa.ShapePair:
			if p, ok := e.(*ptx.BinaryExpr); ok && p.Op == "|" && len(fo.Names) == 2 {
				c.checkRegister(s, in, p.X, &cs.first[i], relaxed)
				c.checkRegister(s, in, p.Y, &cs.second[i], relaxed)
			} else {
				c.checkRegister(s, in, e, &cs.first[i], relaxed)
			}
		case isa.ShapeVector:
			// Only loads and stores give vector elements the instruction
			// type; elsewhere (mov packing, mma fragments) elements are
			// narrower or packed.
			if b, ok := e.(*ptx.BraceExpr); ok && relaxed && in.Opcode != "cvt" && len(fo.Names) > 0 {
				sp := &cs.first[i]
				for _, x := range b.Elems {
					c.checkRegister(s, in, x, sp, relaxed)
				}
			}
		case isa.ShapeAddress:
			c.checkAddressForm(in, e)
			c.checkAddressSpace(s, in, e)
		}
	}
	return cs
}

// checkRegister checks a register operand's declared type against sp.
func (c *checker) checkRegister(s *scope, in *ptx.Instruction, e ptx.Expr, sp *operandSpec, relaxed bool) {
	if u, ok := e.(*ptx.UnaryExpr); ok && (u.Op == "!" || u.Op == "-") {
		e = u.X // negated predicate or negated operand (mma, min/max -a)
	}
	id, ok := e.(*ptx.Ident)
	if !ok || !sp.wantOK {
		return
	}
	sym := c.find(s, id)
	if sym == nil || !sym.isReg() || sym.decl.Vector != 0 || !sym.typOK {
		return
	}
	if !typeAgrees(sp.want, sym.typ, relaxed) {
		c.errorf(id.Pos, "Arguments mismatch for instruction '%s': register '%s' is %s, operand must be %s",
			in.Opcode, id.Name, sym.decl.Type, sp.typ)
	}
}

// checkAddressSpace: an address that names a variable directly must name one
// of the state space the instruction's modifiers give (5.1; `ld.global` of
// a .shared variable is an error). Generic addressing names any variable.
func (c *checker) checkAddressSpace(s *scope, in *ptx.Instruction, e ptx.Expr) {
	a, ok := e.(*ptx.AddressExpr)
	if !ok || len(a.Elems) != 1 || !singleSpaceOpcode(in.Opcode) {
		return
	}
	space := ""
	for _, m := range in.Modifiers {
		switch base, _, _ := strings.Cut(m, "::"); base {
		case ".global", ".shared", ".local", ".const", ".param":
			space = base
		}
	}
	if space == "" {
		return
	}
	id := baseIdent(a.Elems[0])
	if id == nil {
		return
	}
	sym := c.find(s, id)
	if sym == nil || sym.kind != symVar || sym.isReg() {
		return
	}
	have, _, _ := strings.Cut(sym.decl.Space, "::")
	if have != space && !(have == ".tex" && space == ".global") {
		c.errorf(id.Pos, "State space mismatch for instruction '%s': '%s' is a %s variable, not %s", in.Opcode, id.Name, have, space)
	}
}

// checkAddressForm: an address is [var], [reg], [reg+imm], [var+imm],
// [imm] or var[imm] (6.4.1, Addresses as Operands); a sum of two names or a
// product names no address PTX has (the builder kept only the first name
// of [var+reg], silently).
func (c *checker) checkAddressForm(in *ptx.Instruction, e ptx.Expr) {
	a, ok := e.(*ptx.AddressExpr)
	if !ok || len(a.Elems) != 1 {
		return
	}
	if bad := badAddressTerm(a.Elems[0]); bad != nil {
		c.errorf(bad.Position(), "Arguments mismatch for instruction '%s': an address is [var], [reg], [reg+imm], [var+imm] or [imm]", in.Opcode)
	}
}

// badAddressTerm returns the part of an address expression that is not a
// name, a constant, or a name plus or minus a constant, or nil.
func badAddressTerm(e ptx.Expr) ptx.Expr {
	if _, isConst := constantValue(e); isConst {
		return nil
	}
	switch e := e.(type) {
	case *ptx.Ident, *ptx.IndexExpr:
		return nil
	case *ptx.SelectorExpr: // a vector register's element, %v.x
		if _, ok := e.X.(*ptx.Ident); ok {
			return nil
		}
		return e
	case *ptx.ParenExpr:
		return badAddressTerm(e.X)
	case *ptx.BinaryExpr:
		if e.Op != "+" && e.Op != "-" {
			return e
		}
		if _, isConst := constantValue(e.Y); !isConst {
			return e.Y
		}
		if _, isConst := constantValue(e.X); isConst {
			return nil
		}
		return badAddressTerm(e.X)
	}
	return e
}

// singleSpaceOpcode: these opcodes access one state space, named by their
// modifiers (copies like cp.async name two).
func singleSpaceOpcode(op string) bool {
	switch op {
	case "ld", "ldu", "st", "atom", "red":
		return true
	}
	return false
}

// baseIdent returns the variable of `var`, `var+imm` or `var[i]`, or nil.
func baseIdent(e ptx.Expr) *ptx.Ident {
	switch e := e.(type) {
	case *ptx.Ident:
		return e
	case *ptx.BinaryExpr:
		if e.Op == "+" || e.Op == "-" {
			return baseIdent(e.X)
		}
	case *ptx.IndexExpr:
		return baseIdent(e.X)
	}
	return nil
}

// checkImmediate: a constant where the form allows no immediate (the
// destination of an arithmetic instruction, say) is an error. The kinds come
// from the block's operand rules; without a rule the first operand is a
// register and the others may be immediates (spec/FORMAT.md).
func (c *checker) checkImmediate(in *ptx.Instruction, e ptx.Expr, fo *isa.Operand, index int, sp *operandSpec) {
	if _, isConst := constantValue(e); !isConst {
		return
	}
	kinds := sp.kinds
	if len(kinds) == 0 {
		if index != 0 {
			return
		}
		kinds = []string{"reg"}
	}
	// 4.5: integer constants may stand for predicates (zero is False).
	if containsString(kinds, "imm") || containsString(kinds, "pred") || sp.typ == ".pred" {
		return
	}
	c.errorf(e.Position(), "Arguments mismatch for instruction '%s': operand '%s' cannot be an immediate", in.Opcode, fo.Names[0])
}

// constantValue evaluates e if it is a constant expression (no names).
func constantValue(e ptx.Expr) (ptx.Const, bool) {
	switch e.(type) {
	case *ptx.IntLit, *ptx.FloatLit, *ptx.UnaryExpr, *ptx.BinaryExpr, *ptx.ParenExpr, *ptx.CastExpr, *ptx.CondExpr:
		return evalConst(e)
	}
	return ptx.Const{}, false
}

// symbolKinds are the operand kinds that allow a variable's or function's
// name (its address) where a scalar is written.
var symbolKinds = []string{"var", "func", "addr", "texref", "samplerref", "surfref", "label"}

// checkVariable: naming a variable (not a register) as a scalar operand
// takes its address, which only some operands allow (mov, cvta, mapa, ...:
// kinds var/func); elsewhere it is an error. arith: isArithmetic(in.Opcode).
func (c *checker) checkVariable(s *scope, in *ptx.Instruction, e ptx.Expr, fo *isa.Operand, sp *operandSpec, arith bool) {
	id := baseIdent(e)
	if id == nil || len(sp.kinds) == 0 && !arith {
		return
	}
	sym := c.find(s, id)
	if sym == nil || sym.kind != symVar || sym.isReg() {
		return
	}
	for _, k := range symbolKinds {
		if containsString(sp.kinds, k) {
			return
		}
	}
	c.errorf(id.Pos, "Arguments mismatch for instruction '%s': '%s' is a %s variable, operand '%s' must be a register or constant", in.Opcode, id.Name, sym.decl.Space, fo.Names[0])
}

// isArithmetic reports whether the default operand kinds (register or
// constant) are certain for opcode: the integer, float and logic families.
func isArithmetic(opcode string) bool {
	switch opcode {
	case "add", "sub", "mul", "mad", "mul24", "mad24", "sad", "div", "rem", "abs", "neg", "min", "max",
		"popc", "clz", "bfind", "brev", "bfe", "bfi", "and", "or", "xor", "not", "cnot", "shl", "shr",
		"fma", "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "setp", "set", "selp", "slct":
		return true
	}
	return false
}
