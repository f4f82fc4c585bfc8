package check

// Building the IR (internal/ir) of a module that checked without errors:
// names resolved to registers, variables, functions and instruction
// indices, constants evaluated, each instruction with its table form.

import (
	"strings"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/isa"
	"github.com/ptxvm/ptxvm/ptx"
)

// Build checks m and, if it has no errors, returns its IR. The diagnostics
// (warnings included) are returned either way.
func Build(m *ptx.Module, opts Options) (*ir.Module, ptx.DiagnosticList) {
	n, names := 0, 0
	for _, it := range m.Items {
		if fn, ok := it.(*ptx.Function); ok && fn.Body != nil {
			i, k := countInsts(fn.Body)
			n, names = n+i, names+k
		}
	}
	c := &checker{mod: m, opts: opts, matched: make([]matchedInst, 0, n)}
	c.names.used = make([]usedName, 0, names)
	c.run()
	if c.diags.HasErrors() {
		return nil, c.diags
	}
	b := &builder{c: c, vars: map[string]*ir.Var{}, funcs: map[string]*ir.Func{}}
	return b.module(), c.diags
}

type builder struct {
	c     *checker
	mod   *ir.Module
	vars  map[string]*ir.Var  // module scope
	funcs map[string]*ir.Func // module scope
	// insts, operands: the function's instructions and operands still to
	// hand out, allocated at once (a module has thousands of each)
	insts    []ir.Inst
	operands []ir.Operand
	// next: the index in c.matched of the instruction the builder
	// should meet next; byInst: c.matched's indexes by instruction, made
	// if it meets them in another order
	next   int
	byInst map[*ptx.Instruction]int
	// used: the names the checker found for the instruction at hand
	used []usedName
	// regs: registers still to hand out (newReg), allocated regBlock at once
	regs     []ir.Reg
	regBlock int
}

// matchOf returns the checker's record of in: the form it accepted in
// for and the names it found (nil if none).
// The builder walks each function's instructions in the order the
// checker did, so each is normally the next one in c.matched, found
// without a map (hashing a pointer per instruction was 5% of a large
// module's check); where the two orders differ (functions taken in
// another order) an index finds it, and the walk goes on from there.
func (b *builder) matchOf(in *ptx.Instruction) *matchedInst {
	l := b.c.matched
	if b.next >= len(l) || l[b.next].in != in {
		if b.byInst == nil {
			b.byInst = make(map[*ptx.Instruction]int, len(l))
			for i := range l {
				b.byInst[l[i].in] = i
			}
		}
		i, ok := b.byInst[in]
		if !ok {
			return nil
		}
		b.next = i
	}
	b.next++
	return &l[b.next-1]
}

// newInst returns a zero instruction with n zero operands.
func (b *builder) newInst(n int) *ir.Inst {
	// (function allocated the function's, as labels counted them)
	in := &b.insts[0]
	b.insts = b.insts[1:]
	in.Operands = b.operands[:n:n] // (an append elsewhere copies)
	b.operands = b.operands[n:]
	return in
}

// fscope is a function-body scope of the builder.
type fscope struct {
	parent *fscope
	names  map[string]any         // *ir.Reg or *ir.Var; also the registers made from ranges
	lens   nameLens               // of names
	ranges prefixTable[rangeDecl] // parameterized register names
}

// set declares name in s.
func (s *fscope) set(name string, x any) {
	s.names[name] = x
	s.lens.add(name)
}

type rangeDecl struct {
	count int
	decl  *ptx.VarDecl
	regs  []*ir.Reg // by index, made on first use (counts up to rangeRegsMax)
}

// rangeRegsMax bounds the ranges whose registers find keeps by index; a
// larger one (a made-up %r<100000000>) keeps the names it meets with the
// scope's names instead.
const rangeRegsMax = 1 << 16

func (b *builder) module() *ir.Module {
	b.mod = &ir.Module{Version: b.c.version, Target: b.c.target, AddressSize: 64}
	for _, it := range b.c.mod.Items {
		switch it := it.(type) {
		case *ptx.Target:
			for _, n := range it.Names {
				if _, ok := isa.ParseTarget(n); !ok {
					b.mod.Options = append(b.mod.Options, n)
				}
			}
		case *ptx.AddressSize:
			b.mod.AddressSize = it.Size
		case *ptx.VarDecl:
			for _, dl := range it.Names {
				v := newVar(it, dl)
				b.mod.Vars = append(b.mod.Vars, v)
				b.vars[dl.Name] = v
			}
		case *ptx.Function:
			f := b.funcs[it.Name]
			if f == nil {
				f = &ir.Func{Name: it.Name, Entry: it.Kind == ".entry", Linkage: it.Linkage, Decl: it}
				b.funcs[it.Name] = f
				b.mod.Funcs = append(b.mod.Funcs, f)
			}
			if it.Body != nil {
				f.Decl, f.Defined = it, true
			}
		case *ptx.Alias:
			if f := b.funcs[it.Target]; f != nil {
				b.funcs[it.Name] = f
			}
		}
	}
	for _, f := range b.mod.Funcs {
		b.function(f)
	}
	return b.mod
}

// newVar makes the IR variable of one declarator.
func newVar(d *ptx.VarDecl, dl *ptx.Declarator) *ir.Var {
	v := &ir.Var{Name: dl.Name, Space: d.Space, Linkage: d.Linkage, Type: d.Type, Vector: d.Vector, Init: dl.Init, Decl: d}
	elem := int64(typeBytes(d.Type))
	if d.Vector > 0 {
		elem *= int64(d.Vector)
	}
	v.Align = int(elem)
	if d.Align != nil {
		if n, ok := constInt(d.Align); ok {
			v.Align = int(n)
		}
	}
	v.Size = elem
	for _, dim := range dl.Dims {
		n := int64(0)
		if dim != nil {
			n, _ = constInt(dim)
		} else if init, ok := dl.Init.(*ptx.BraceExpr); ok && len(v.Dims) == 0 {
			n = int64(len(init.Elems)) // `[]` sized by its initializer (5.4.3)
		}
		v.Dims = append(v.Dims, int(n))
		v.Size *= n
	}
	return v
}

// typeBytes is the size of a fundamental type (5.2), 8 for opaque handles.
func typeBytes(t string) int {
	switch t {
	case ".pred":
		return 1
	case ".texref", ".samplerref", ".surfref":
		return 8
	}
	if st, ok := parseType(t); ok {
		return (st.bits + 7) / 8
	}
	// packed and narrow formats: the digits give the element width
	digits := strings.TrimLeft(t, ".abcdefghijklmnopqrstuvwxyz")
	switch {
	case strings.HasSuffix(t, "x2") && strings.Contains(t, "16"), t == ".tf32":
		return 4
	case strings.HasSuffix(t, "x4") && strings.Contains(t, "8"):
		return 4
	case t == ".bf16", strings.HasSuffix(t, "x2"):
		return 2
	case digits != "":
		return 1
	}
	return 1
}

func (b *builder) function(f *ir.Func) {
	d := f.Decl
	f.Labels = map[string]int{}
	fs := &fscope{names: map[string]any{}}
	param := func(p *ptx.VarDecl) *ir.Param {
		dl := p.Names[0]
		if p.Space == ".reg" {
			r := b.newReg(f, dl.Name, p)
			fs.set(dl.Name, r)
			return &ir.Param{Reg: r}
		}
		v := newVar(p, dl)
		fs.set(dl.Name, v)
		return &ir.Param{Var: v}
	}
	for _, p := range d.Results {
		if len(p.Names) > 0 {
			f.Results = append(f.Results, param(p))
		}
	}
	for _, p := range d.Params {
		if len(p.Names) > 0 {
			f.Params = append(f.Params, param(p))
		}
	}
	if d.Body == nil {
		return
	}
	// (the function's instructions and operands in two allocations)
	ni, no := b.labels(f, d.Body)
	b.insts, b.operands = make([]ir.Inst, ni), make([]ir.Operand, no)
	f.Insts = make([]*ir.Inst, 0, ni)
	b.block(f, fs, d.Body)
}

// countInsts returns the number of instructions in blk and its blocks,
// and of the names they use, about: one per operand and guard.
func countInsts(blk *ptx.Block) (insts, names int) {
	for _, s := range blk.Stmts {
		switch s := s.(type) {
		case *ptx.Instruction:
			insts++
			names += len(s.Operands)
			if s.Guard != nil {
				names++
			}
		case *ptx.Block:
			i, k := countInsts(s)
			insts, names = insts+i, names+k
		}
	}
	return insts, names
}

// labels numbers the instructions and records where each label points;
// it returns how many instructions and operands blk holds.
func (b *builder) labels(f *ir.Func, blk *ptx.Block) (insts, operands int) {
	var walk func(*ptx.Block)
	walk = func(blk *ptx.Block) {
		for _, s := range blk.Stmts {
			switch s := s.(type) {
			case *ptx.Label:
				f.Labels[s.Name] = insts
			case *ptx.Instruction:
				insts++
				operands += len(s.Operands)
			case *ptx.Block:
				walk(s)
			}
		}
	}
	walk(blk)
	return insts, operands
}

func (b *builder) block(f *ir.Func, parent *fscope, blk *ptx.Block) {
	s := &fscope{parent: parent, names: map[string]any{}}
	for _, st := range blk.Stmts {
		d, ok := st.(*ptx.VarDecl)
		if !ok {
			continue
		}
		for _, dl := range d.Names {
			switch {
			case d.Space == ".reg" && dl.Count != nil:
				n, _ := constInt(dl.Count)
				s.ranges.add(dl.Name, rangeDecl{count: int(n), decl: d})
			case d.Space == ".reg":
				r := b.newReg(f, dl.Name, d)
				s.set(dl.Name, r)
			default:
				v := newVar(d, dl)
				f.Vars = append(f.Vars, v)
				s.set(dl.Name, v)
			}
		}
	}
	for _, st := range blk.Stmts {
		switch st := st.(type) {
		case *ptx.Instruction:
			f.Insts = append(f.Insts, b.inst(f, s, st))
		case *ptx.Block:
			b.block(f, s, st)
		}
	}
}

func (b *builder) inst(f *ir.Func, s *fscope, in *ptx.Instruction) *ir.Inst {
	out := b.newInst(len(in.Operands))
	out.Pos, out.Opcode, out.Mods = in.Pos, in.Opcode, in.Modifiers
	b.used = nil
	if mi := b.matchOf(in); mi != nil {
		m := &mi.m
		out.Block, out.Form, out.Groups = m.instr, m.form, m.groups
		out.Types = mi.specs.types
		b.used = b.c.names.used[mi.namesFrom:mi.namesTo]
	}
	if in.Guard != nil {
		g := new(ir.Operand)
		if !b.usedOperand(f, s, nil, in.Guard.Pred, g) {
			*g = b.name(f, s, in.Guard.Pred)
		}
		g.Negate = in.Guard.Negate
		out.Guard = g
	}
	for i, e := range in.Operands {
		b.operand(f, s, e, &out.Operands[i])
	}
	return out
}

// find resolves a name in the function's scopes: a register or variable.
func (b *builder) find(f *ir.Func, s *fscope, name string) any {
	x, _ := b.findDecl(f, s, name)
	return x
}

// findDecl is find, and the range whose register x is, if that range
// keeps its registers by index (else nil). A register of a range
// (%r<100>) is made on its first use and kept by its index in the range
// (block declares a scope's names before its instructions, so none is
// declared after), so later uses find it from the name's prefix and
// index without hashing the whole name.
func (b *builder) findDecl(f *ir.Func, s *fscope, name string) (any, *rangeDecl) {
	prefix, index := "", -2 // splitIndex(name), computed on the first miss
	for sc := s; sc != nil; sc = sc.parent {
		if sc.lens.has(name) {
			if x, ok := sc.names[name]; ok {
				return x, nil
			}
		}
		if sc.ranges.empty() {
			continue
		}
		if index == -2 {
			prefix, index = splitIndex(name)
		}
		if prefix == "" {
			continue
		}
		rs := sc.ranges.get(prefix)
		for k := range rs {
			r := &rs[k]
			if index >= r.count {
				continue
			}
			if r.count > rangeRegsMax {
				reg := b.newReg(f, name, r.decl)
				sc.set(name, reg)
				return reg, nil
			}
			if r.regs == nil {
				r.regs = make([]*ir.Reg, r.count)
			}
			reg := r.regs[index]
			if reg == nil {
				reg = b.newReg(f, name, r.decl)
				r.regs[index] = reg
			}
			return reg, r
		}
	}
	if v, ok := b.vars[name]; ok {
		return v, nil
	}
	if fn, ok := b.funcs[name]; ok {
		return fn, nil
	}
	return nil, nil
}

// newReg adds to f a register named name, declared by d. Registers are
// allocated in blocks (b.regs; a large module has tens of thousands),
// the first ones small, for small modules.
func (b *builder) newReg(f *ir.Func, name string, d *ptx.VarDecl) *ir.Reg {
	if len(b.regs) == 0 {
		b.regBlock = min(2*b.regBlock+16, 1024)
		b.regs = make([]ir.Reg, b.regBlock)
	}
	reg := &b.regs[0]
	b.regs = b.regs[1:]
	*reg = ir.Reg{ID: len(f.Regs), Name: name, Type: d.Type, Vector: d.Vector}
	f.Regs = append(f.Regs, reg)
	return reg
}

// name resolves a bare name operand.
func (b *builder) name(f *ir.Func, s *fscope, name string) ir.Operand {
	switch x := b.find(f, s, name).(type) {
	case *ir.Reg:
		return ir.Operand{Kind: ir.OpReg, Reg: x}
	case *ir.Var:
		return ir.Operand{Kind: ir.OpVar, Var: x}
	case *ir.Func:
		return ir.Operand{Kind: ir.OpFunc, Func: x}
	}
	if i, ok := f.Labels[name]; ok {
		return ir.Operand{Kind: ir.OpLabel, Label: i, Name: name}
	}
	switch {
	case name == "_":
		return ir.Operand{Kind: ir.OpSink}
	case name == "WARP_SZ":
		return ir.Operand{Kind: ir.OpImm, Imm: ptx.Const{Kind: ptx.ConstS64, Bits: 32}}
	case isa.LookupSpecialReg(name) != nil:
		return ir.Operand{Kind: ir.OpSreg, Sreg: name}
	}
	// prototypes and .calltargets/.branchtargets labels
	return ir.Operand{Kind: ir.OpName, Name: name}
}

// operand resolves e into *op, a zero operand (written in place: an
// ir.Operand is large, and returning it copied it at every level).
func (b *builder) operand(f *ir.Func, s *fscope, e ptx.Expr, op *ir.Operand) {
	// a name (most operands) is no constant but WARP_SZ (evalConst)
	if id, ok := e.(*ptx.Ident); ok && id.Name != "WARP_SZ" {
		if !b.usedOperand(f, s, id, id.Name, op) {
			*op = b.name(f, s, id.Name)
		}
		return
	}
	if v, ok := evalConst(e); ok {
		op.Kind, op.Imm = ir.OpImm, v
		return
	}
	switch e := e.(type) {
	case *ptx.Ident:
		*op = b.name(f, s, e.Name)
	case *ptx.SelectorExpr:
		b.operand(f, s, e.X, op)
		op.Component = e.Sel
	case *ptx.UnaryExpr:
		b.operand(f, s, e.X, op)
		op.Negate = !op.Negate
	case *ptx.ParenExpr:
		b.operand(f, s, e.X, op)
	case *ptx.BinaryExpr:
		if e.Op == "|" {
			op.Kind, op.Elems = ir.OpPair, make([]ir.Operand, 2)
			b.operand(f, s, e.X, &op.Elems[0])
			b.operand(f, s, e.Y, &op.Elems[1])
			return
		}
		// var+imm, var-imm: an address constant
		b.operand(f, s, e.X, op)
		if off, ok := evalConst(e.Y); ok && (e.Op == "+" || e.Op == "-") {
			n := off.Int64()
			if e.Op == "-" {
				n = -n
			}
			op.Offset += n
		}
	case *ptx.IndexExpr:
		b.operand(f, s, e.X, op)
		if i, ok := constInt(e.Index); ok && op.Var != nil && len(op.Var.Dims) > 0 {
			op.Offset += i * (op.Var.Size / int64(max(1, op.Var.Dims[0])))
		}
	case *ptx.AddressExpr:
		op.Kind = ir.OpAddr
		if len(e.Elems) != 1 {
			op.Elems = b.operandList(f, s, e.Elems)
			return
		}
		inner := new(ir.Operand)
		b.operand(f, s, e.Elems[0], inner)
		if inner.Kind == ir.OpImm {
			op.Offset = inner.Imm.Int64()
			return
		}
		op.Offset, inner.Offset = inner.Offset, 0
		op.Base = inner
	case *ptx.BraceExpr:
		op.Kind, op.Elems = ir.OpVector, b.operandList(f, s, e.Elems)
	case *ptx.TupleExpr:
		op.Kind, op.Elems = ir.OpTuple, b.operandList(f, s, e.Elems)
	default:
		op.Kind = ir.OpName
	}
}

// operandList resolves a list of operands (nil for none).
func (b *builder) operandList(f *ir.Func, s *fscope, es []ptx.Expr) []ir.Operand {
	if len(es) == 0 {
		return nil
	}
	ops := make([]ir.Operand, len(es))
	for i, x := range es {
		b.operand(f, s, x, &ops[i])
	}
	return ops
}
