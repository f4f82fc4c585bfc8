package exec

// A kernel's launch-invariant prefix: the leading ops that load kernel
// parameters, copy %tid, %ntid, %nctaid or %laneid, convert generic
// addresses of them to global ones, or compute from these alone, each
// into a register no other instruction writes. Every CTA of a launch
// computes the same rows with them for a given warp, so a warp's reused
// kernel frame (pushFrame), whose rows still hold what the warp's last CTA
// computed, starts after them; the skipped ops still count as executed
// (LaunchStats). clang and nvcc begin most kernels with such ops (the
// parameter loads and their cvta), a large share of a short
// memory-bound kernel's work.

import (
	"slices"

	"github.com/ptxvm/ptxvm/internal/ir"
)

// prefixEnabled lets tests compare runs with and without the skip.
var prefixEnabled = true

// invariantSregs are the special registers with the same value for a
// given warp lane in every CTA of a launch.
var invariantSregs = map[string]bool{"%tid": true, "%ntid": true, "%nctaid": true, "%laneid": true}

// invariantPrefix returns how many leading ops of kernel f a reused frame
// may skip.
func invariantPrefix(f *Func) int {
	if !f.IR.Entry || f.clearAll {
		return 0
	}
	writers := registerWriters(f)
	target := make([]bool, len(f.Ops)+1)
	for _, t := range f.IR.Labels {
		if t >= 0 && t < len(target) {
			target[t] = true
		}
	}
	constRow := map[int32]bool{} // plain immediates' rows (not special registers)
	for _, c := range f.consts {
		if c.slot >= 0 && c.bits != sregMarker {
			constRow[c.slot] = true
		}
	}
	invariant := map[int32]bool{} // the rows the prefix so far defines
	readable := func(s int32) bool { return invariant[s] || constRow[s] }
	n := 0
	for ; n < len(f.Ops); n++ {
		o := &f.Ops[n]
		in := f.IR.Insts[n]
		if n > 0 && target[n] || !o.plain || o.guard != 0 || len(in.Operands) == 0 {
			break
		}
		d := in.Operands[0]
		if d.Kind != ir.OpReg || d.Reg == nil || d.Reg.Type == ".pred" || d.Reg.Vector > 0 || d.Reg.Type == ".b128" {
			break
		}
		slot := f.slot[d.Reg.ID]
		// (a row no path reads before the prefix writes it: uninit.go
		// leaves it alone on reuse)
		if writers[slot] != 1 {
			break
		}
		ok := false
		switch {
		case in.Opcode == "ld" && o.space == spaceKernelParam && o.addrBase < 0:
			ok = true // a kernel parameter by name
		case in.Opcode == "mov" && len(in.Operands) == 2 && in.Operands[1].Kind == ir.OpSreg:
			ok = invariantSregs[in.Operands[1].Sreg]
		case in.Opcode == "cvta" && hasMod(in, ".to") && hasMod(in, ".global"):
			ok = readable(o.a)
		case o.pure:
			ok = true
			for _, s := range []int32{o.a, o.b, o.c}[:o.nsrc] {
				ok = ok && readable(s)
			}
		}
		if !ok {
			break
		}
		invariant[slot] = true
	}
	return n
}

// registerWriters counts, per register slot, the instructions of f that
// may write it: the first operand of those whose first operand is their
// only destination (uninit.go's definesFirst, and setp), nothing for
// stores, branches and barriers, every register operand of the rest.
func registerWriters(f *Func) []int {
	writers := make([]int, f.numSlots)
	var seen []int32 // the current instruction's slots, each once
	var mark func(op *ir.Operand)
	mark = func(op *ir.Operand) {
		if op.Kind == ir.OpReg && op.Reg != nil && op.Reg.Type != ".pred" {
			if s := f.slot[op.Reg.ID]; !slices.Contains(seen, s) {
				seen = append(seen, s)
			}
		}
		if op.Base != nil {
			mark(op.Base)
		}
		for k := range op.Elems {
			mark(&op.Elems[k])
		}
	}
	for i, in := range f.IR.Insts {
		seen = seen[:0]
		switch {
		case f.Ops[i].defFirst || in.Opcode == "setp":
			if len(in.Operands) > 0 {
				mark(&in.Operands[0])
			}
		case in.Opcode == "st" || in.Opcode == "bra" || in.Opcode == "bar" || in.Opcode == "barrier" ||
			in.Opcode == "ret" || in.Opcode == "exit":
		default:
			for k := range in.Operands {
				mark(&in.Operands[k])
			}
		}
		for _, s := range seen {
			writers[s]++
		}
	}
	return writers
}
