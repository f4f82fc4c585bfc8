package exec

// Lowering: IR instructions to ops. Each opcode has a lowerer (registered
// by the family files, alu.go, memory.go, control.go ...) that picks a
// handler for the instruction's types and modifiers and fills the op's
// operand slots.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
)

// lowerer lowers one instruction into o; it returns an *Error for forms
// the engine does not implement.
type lowerer func(l *lowering, in *ir.Inst, o *Op) error

// lowerers maps opcodes to their lowerers, with what the analyses after
// lowering ask about every op of the opcode (one lookup per instruction).
var lowerers = map[string]*opcodeInfo{}

type opcodeInfo struct {
	lower           lowerer
	plain, defFirst bool // isPlain, definesFirst
}

func register(lw lowerer, opcodes ...string) {
	for _, op := range opcodes {
		lowerers[op] = &opcodeInfo{lw, isPlain(op), definesFirst[op]}
	}
}

// lowering is the state of lowering one function.
type lowering struct {
	p      *Program
	f      *Func
	consts map[uint64]int32   // immediate bits -> const slot
	sregs  map[string]int32   // "%tid.x" -> slot filled at frame start
	sregOf map[int32]*sregRef // slot -> which special register
}

// sregRef is a special register a const slot holds, with what filling its
// row needs worked out at load time.
type sregRef struct {
	name, comp string
	ci         int // the component's index (componentIndex)
	// perCTA: the value may differ between two CTAs run by the same warp
	// (or, for the clocks, from moment to moment); the others are the
	// same for a warp's reused frame, whose row is not filled again
	perCTA bool
}

func newSregRef(name, comp string) *sregRef {
	perCTA := isClock(name)
	switch name {
	case "%ctaid", "%clusterid", "%cluster_ctaid", "%cluster_ctarank":
		perCTA = true
	}
	return &sregRef{name: name, comp: comp, ci: componentIndex(comp), perCTA: perCTA}
}

// prepare assigns register slots and lays out the frame and parameters of
// f; every function is prepared before any is lowered, so calls can refer
// to their callee's layout.
func (p *Program) prepare(f *Func) {
	fn := f.IR
	f.slot = make([]int32, len(fn.Regs))
	for _, r := range fn.Regs {
		if r.Type == ".pred" {
			f.slot[r.ID] = int32(f.numPreds)
			f.numPreds++
			continue
		}
		f.slot[r.ID] = int32(f.numSlots)
		f.numSlots += slotCount(r)
	}
	f.regSlots = f.numSlots // constants, special registers and frame addresses follow
	// Frame: function .param/.local variables and .param parameters live in
	// per-thread memory; kernel parameters in the launch's parameter buffer.
	f.frameOff = map[*ir.Var]uint64{}
	f.paramOff = map[*ir.Var]uint64{}
	place := func(v *ir.Var, size *uint64, offs map[*ir.Var]uint64) {
		*size = align(*size, uint64(max(1, v.Align)))
		offs[v] = *size
		*size += uint64(max(v.Size, 0))
	}
	for _, ps := range [][]*ir.Param{fn.Results, fn.Params} {
		for _, prm := range ps {
			if prm.Var == nil {
				continue
			}
			if fn.Entry {
				place(prm.Var, &f.paramSize, f.paramOff)
			} else {
				place(prm.Var, &f.frameSize, f.frameOff)
			}
		}
	}
	for _, v := range fn.Vars {
		if v.Space == ".local" || v.Space == ".param" {
			place(v, &f.frameSize, f.frameOff)
		}
	}
	f.frameSize = align(f.frameSize, 16)
}

// lower lowers the instructions of a prepared function.
func (p *Program) lower(f *Func) error {
	l := &lowering{p: p, f: f, consts: map[uint64]int32{}, sregs: map[string]int32{}, sregOf: map[int32]*sregRef{}}
	fn := f.IR
	f.sregOf = l.sregOf
	mapF64 := slices.Contains(p.Module.Options, "map_f64_to_f32")
	f.Ops = make([]Op, len(fn.Insts))
	for i, in := range fn.Insts {
		o := &f.Ops[i]
		o.inst, o.pc, o.addrBase, o.target, o.typ = in, int32(i), -1, -1, typeOf(in)
		if in.Guard != nil {
			o.guard = f.slot[in.Guard.Reg.ID] + 1
			o.neg = in.Guard.Negate
		}
		info := lowerers[in.Opcode]
		if info == nil {
			return l.unsupported(in, "")
		}
		if mapF64 && hasMod(in, ".f64") {
			// 11.1.2: under map_f64_to_f32 double-precision instructions run
			// in single precision; the engine does not do that yet
			return l.unsupported(in, ".target map_f64_to_f32")
		}
		if err := info.lower(l, in, o); err != nil {
			return err
		}
		o.plain, o.defFirst = info.plain, info.defFirst
		l.clockReads(in, o)
	}
	f.ipdom = postDominators(f)
	lockLoops(f)
	applyUniform(f)
	f.clearAll = true
	if fn.Entry {
		f.clearRows, f.clearAll = uninitRows(f)
	}
	if err := checkVecRows(f); err != nil {
		return err
	}
	if prefixEnabled {
		f.prefix = invariantPrefix(f)
	}
	buildTraces(f)
	buildDiamonds(f)
	buildCASLoops(f)
	buildLockRegions(f)
	for _, c := range f.consts {
		if c.slot < 0 || c.bits == sregMarker && c.sreg.perCTA {
			f.reuseConsts = append(f.reuseConsts, c)
		}
	}
	return nil
}

// checkVecRows: the converged loop addresses a whole-warp loop's operand
// rows without bounds checks (rowAt), so every one must be a row of the
// frame.
func checkVecRows(f *Func) error {
	for i := range f.Ops {
		o := &f.Ops[i]
		for _, s := range o.vecRows() {
			if s < 0 || int(s) >= f.numSlots {
				return fmt.Errorf("exec: internal error: %s's whole-warp loop names slot %d of %d", o.inst.Opcode, s, f.numSlots)
			}
		}
	}
	return nil
}

// unsupported reports an instruction form the engine does not implement.
func (l *lowering) unsupported(in *ir.Inst, why string) error {
	msg := "unsupported: " + in.Opcode + strings.Join(in.Mods, "")
	if why != "" {
		msg += " (" + why + ")"
	}
	return &Error{in.Pos, msg}
}

// reg returns the slot of a register operand (for a vector register, its
// first component, or the component named by op.Component).
func (l *lowering) reg(op ir.Operand) int32 {
	s, _ := l.f.operandSlots(&op)
	return s
}

// slotCount is the number of register slots r takes: one per vector
// element, two for .b128.
func slotCount(r *ir.Reg) int {
	n := max(1, r.Vector)
	if r.Type == ".b128" {
		n *= 2
	}
	return n
}

// operandSlots returns the first slot of register operand op and how many
// it names: one element of a vector register (%v.y), or all of the
// register's slots.
func (f *Func) operandSlots(op *ir.Operand) (int32, int) {
	s := f.slot[op.Reg.ID]
	if op.Component != "" && op.Reg.Vector > 0 {
		return s + int32(componentIndex(op.Component)), 1
	}
	return s, slotCount(op.Reg)
}

func componentIndex(c string) int {
	switch c {
	case "y", "g":
		return 1
	case "z", "b":
		return 2
	case "w", "a":
		return 3
	}
	return 0
}

// src returns a slot holding the value of a source operand of type t:
// a register, an immediate (a constant slot), or a special register.
func (l *lowering) src(in *ir.Inst, i int) (int32, error) {
	op := in.Operands[i]
	t := ""
	if i < len(in.Types) {
		t = in.Types[i]
	}
	switch op.Kind {
	case ir.OpReg:
		if op.Reg.Type == ".pred" {
			return 0, l.unsupported(in, "predicate as a value operand")
		}
		return l.reg(op), nil
	case ir.OpImm:
		return l.constSlot(constBits(op.Imm, t)), nil
	case ir.OpSreg:
		return l.sreg(op.Sreg, op.Component), nil
	case ir.OpFunc: // a function's address (mov d, fname)
		for k, f := range l.p.Module.Funcs {
			if f == op.Func {
				return l.constSlot(funcAddr(k)), nil
			}
		}
		return 0, l.unsupported(in, "function operand")
	case ir.OpVar:
		if off, ok := l.f.frameOff[op.Var]; ok {
			// a frame variable's address depends on the frame: filled when it starts
			s := int32(l.f.numSlots)
			l.f.numSlots++
			l.f.frameConsts = append(l.f.frameConsts, constSlot{slot: s, bits: off + uint64(op.Offset)})
			return s, nil
		}
		addr, err := l.varAddress(in, op.Var)
		if err != nil {
			return 0, err
		}
		return l.constSlot(addr + uint64(op.Offset)), nil
	}
	return 0, l.unsupported(in, "operand form")
}

// dst returns the slot of a destination register operand.
func (l *lowering) dst(in *ir.Inst, i int) (int32, error) {
	op := in.Operands[i]
	if op.Kind == ir.OpSink {
		return l.scratch(), nil
	}
	if op.Kind != ir.OpReg || op.Reg.Type == ".pred" {
		return 0, l.unsupported(in, "destination operand form")
	}
	return l.reg(op), nil
}

// pred returns the predicate index of a predicate operand.
func (l *lowering) pred(in *ir.Inst, i int) (int32, bool, error) {
	op := in.Operands[i]
	if op.Kind == ir.OpReg && op.Reg.Type == ".pred" {
		return l.f.slot[op.Reg.ID], op.Negate, nil
	}
	if op.Kind == ir.OpSreg && op.Sreg == "%is_explicit_cluster" {
		// true when the launch gave cluster dimensions; set per frame
		idx := l.f.numPreds
		l.f.numPreds++
		l.f.consts = append(l.f.consts, constSlot{slot: -int32(idx) - 1, bits: sregMarker})
		return int32(idx), false, nil
	}
	if op.Kind == ir.OpImm { // 4.5: constants stand for predicates
		idx := l.f.numPreds
		l.f.numPreds++
		l.f.consts = append(l.f.consts, constSlot{slot: -int32(idx) - 1, bits: op.Imm.Bits})
		return int32(idx), false, nil
	}
	return 0, false, l.unsupported(in, "predicate operand form")
}

// scratch allocates a slot nobody reads (for `_` destinations).
func (l *lowering) scratch() int32 {
	s := int32(l.f.numSlots)
	l.f.numSlots++
	return s
}

func (l *lowering) constSlot(bits uint64) int32 {
	if s, ok := l.consts[bits]; ok {
		return s
	}
	s := int32(l.f.numSlots)
	l.f.numSlots++
	l.consts[bits] = s
	l.f.consts = append(l.f.consts, constSlot{slot: s, bits: bits})
	return s
}

// clockReads makes an instruction that reads %clock, %clock64 or
// %globaltimer* refresh those registers each time it executes (the other
// special registers are fixed for a frame and filled when it starts).
func (l *lowering) clockReads(in *ir.Inst, o *Op) {
	var slots []int32
	for i := range in.Operands {
		op := &in.Operands[i] // (an Operand is large: no copy per operand)
		if op.Kind != ir.OpSreg || !isClock(op.Sreg) {
			continue
		}
		if s, ok := l.sregs[op.Sreg+"."+op.Component]; ok {
			slots = append(slots, s)
		}
	}
	if len(slots) == 0 {
		return
	}
	refs := make([]*sregRef, len(slots))
	for i, s := range slots {
		refs[i] = l.sregOf[s]
	}
	o.lane = nil // (it would read the registers unrefreshed)
	o.wrap(func(inner execFunc) execFunc {
		return func(w *Warp, o *Op, mask uint32) {
			regs := w.top().regs
			for i, s := range slots {
				w.fillSreg(refs[i], regs[int(s)*warpSize:int(s+1)*warpSize])
			}
			inner(w, o, mask)
		}
	})
}

func isClock(name string) bool {
	switch name {
	case "%clock", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi":
		return true
	}
	return false
}

func (l *lowering) sreg(name, comp string) int32 {
	key := name + "." + comp
	if s, ok := l.sregs[key]; ok {
		return s
	}
	s := int32(l.f.numSlots)
	l.f.numSlots++
	l.sregs[key] = s
	ref := newSregRef(name, comp)
	l.sregOf[s] = ref
	l.f.consts = append(l.f.consts, constSlot{slot: s, bits: sregMarker, sreg: ref})
	return s
}

// sregMarker marks a const slot that holds a special register, filled per
// lane when a frame starts (see frame.init).
const sregMarker = 1<<64 - 0x5e5

// varAddress is the address of a variable as `mov d, var` gives it: in the
// variable's own state space (5.4.4; cvta makes it generic).
func (l *lowering) varAddress(in *ir.Inst, v *ir.Var) (uint64, error) {
	if a, ok := l.p.varAddr[v]; ok {
		return a, nil
	}
	if off, ok := l.f.frameOff[v]; ok {
		return off, nil // a frame variable: offset in the thread's local memory (see frame.base)
	}
	if off, ok := l.f.paramOff[v]; ok {
		return off, nil
	}
	return 0, l.unsupported(in, "address of '"+v.Name+"'")
}

// spaceOf maps a state-space modifier to a memory space.
func spaceOf(mods []string) mem.Space {
	for _, m := range mods {
		base, _, _ := strings.Cut(m, "::")
		switch base {
		case ".global":
			return mem.SpaceGlobal
		case ".shared":
			return mem.SpaceShared
		case ".local":
			return mem.SpaceLocal
		case ".const":
			return mem.SpaceConst
		case ".param":
			return mem.SpaceParam
		}
	}
	return mem.SpaceGeneric
}

// typeOf returns the instruction type: the value of the `.type` group, or
// the last type-like modifier.
func typeOf(in *ir.Inst) string {
	if t, ok := in.Groups[".type"]; ok {
		return t
	}
	for i := len(in.Mods) - 1; i >= 0; i-- {
		if isTypeMod(in.Mods[i]) {
			return in.Mods[i]
		}
	}
	return ""
}

// typePair returns an instruction's two types: the values of groups dg
// and sg, or, in the forms that spell their types, the two type modifiers
// (.tf32 counting as one) in order.
func typePair(in *ir.Inst, dg, sg string) (string, string, bool) {
	d, s := in.Groups[dg], in.Groups[sg]
	if d != "" && s != "" {
		return d, s, true
	}
	var ts []string
	for _, m := range in.Mods {
		if isTypeMod(m) || m == ".tf32" {
			ts = append(ts, m)
		}
	}
	if len(ts) != 2 {
		return "", "", false
	}
	return ts[0], ts[1], true
}

func isTypeMod(m string) bool {
	if len(m) < 3 {
		return false
	}
	switch m[1] {
	case 'b', 's', 'u', 'f':
		for _, c := range m[2:] {
			if c < '0' || c > '9' {
				return m == ".f16x2" || m == ".bf16" || m == ".bf16x2"
			}
		}
		return true
	}
	return m == ".pred"
}

// typeBits is the width of a scalar type in bits.
func typeBits(t string) int {
	switch t {
	case ".pred":
		return 1
	case ".f16x2", ".bf16x2", ".u16x2", ".s16x2":
		return 32
	case ".bf16":
		return 16
	}
	n := 0
	for _, c := range t[2:] {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

func hasMod(in *ir.Inst, m string) bool {
	for _, x := range in.Mods {
		if x == m {
			return true
		}
	}
	return false
}

// isPlain reports whether an op only computes: it moves every executing
// lane to the next instruction and never blocks, so the converged fast path
// of Warp.run may run it (control flow, calls, returns, barriers and
// anything that can stop a thread are not plain).
func isPlain(opcode string) bool {
	switch opcode {
	case "bra", "brx", "call", "ret", "exit", "trap", "brkpt", "bar", "barrier",
		"shfl", "vote", "match", "redux", "elect":
		return false
	}
	return true
}
