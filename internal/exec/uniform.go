package exec

// Uniform values (DESIGN.md decision 5): when every lane that runs an
// instruction reads the same operands, the instruction is computed once
// and the result copied to the lanes. A load whose address is the same in
// every lane is performed once (lowerLd), and the costly pure operations
// (division, square roots, transcendentals) are computed for one lane.
//
// The test is made at run time, lane by lane, stopping at the first lane
// that differs (so it costs about one comparison on divergent operands). A
// static divergence analysis could not decide it: with independent thread
// scheduling, lanes that diverged may meet again at the same instruction
// in different iterations of a loop (the scheduler lets a spinning group
// run ahead of lanes waiting to reconverge), so a loop counter that every
// lane computes alike can still differ within a group.

import (
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/ir"
)

// uniformEnabled lets tests compare runs with and without the optimization.
var uniformEnabled = true

// sameInLanes reports whether every lane of mask holds row's value of lane
// l0 (a lane of mask).
func sameInLanes(row *lanes, mask uint32, l0 int) bool {
	if mask == ^uint32(0) && simdEnabled {
		return simdAllSame(row)
	}
	v := row[l0]
	for m := mask; m != 0; m &= m - 1 {
		if row[bits.TrailingZeros32(m)] != v {
			return false
		}
	}
	return true
}

// costlyPure reports whether an op is one of the pure operations that cost
// enough per lane to be worth the test: the division, square root,
// reciprocal and transcendental families.
func costlyPure(in *ir.Inst, o *Op) bool {
	if !o.pure {
		return false
	}
	switch in.Opcode {
	case "div", "rem", "sqrt", "rcp", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh":
		return true
	}
	return false
}

// applyUniform gives the costly pure ops their compute-once form.
func applyUniform(f *Func) {
	if !uniformEnabled {
		return
	}
	for i, in := range f.IR.Insts {
		if o := &f.Ops[i]; costlyPure(in, o) && !hasSIMDLoop(o) {
			computeOnceIfUniform(o)
		}
	}
}

// hasSIMDLoop reports whether op o's whole-warp loop is an AVX2 one: it
// computes 32 lanes in about the time the uniform test takes.
func hasSIMDLoop(o *Op) bool {
	return o.vkind != vecNone && isSIMDLoop(o.vecLoop())
}

// computeOnceIfUniform makes a pure single-result op (the unary, binary
// and ternary helpers record their source slots and count) compute its
// result for the first lane of the mask only, and copy it to the others,
// when every lane of the mask has the same operands.
func computeOnceIfUniform(o *Op) {
	o.wrap(func(inner execFunc) execFunc {
		return func(w *Warp, o *Op, mask uint32) {
			if mask&(mask-1) == 0 {
				inner(w, o, mask)
				return
			}
			regs := w.top().regs
			l0 := bits.TrailingZeros32(mask)
			for k, s := range [3]int32{o.a, o.b, o.c} {
				if k < int(o.nsrc) && !sameInLanes((*lanes)(regs[int(s)*warpSize:]), mask, l0) {
					inner(w, o, mask)
					return
				}
			}
			inner(w, o, 1<<l0)
			row := (*lanes)(regs[int(o.d)*warpSize:])
			v := row[l0]
			for m := mask; m != 0; m &= m - 1 {
				row[bits.TrailingZeros32(m)] = v
			}
		}
	})
}
