package exec

import (
	"github.com/ptxvm/ptxvm/internal/ir"
)

// Warp-uniform predicates (batch.go). A branch on a predicate that every
// lane of a warp holds alike never splits a warp: in the warp engine each
// warp takes it as a whole, so its lanes never wait for each other at its
// reconvergence point, and a batch may run a forward one as a split of
// whole warps (frames) whatever lies in its region (if (blockIdx.x == 0)
// around code that forwardRegion refuses). Backward ones, loops with a
// trip count alike in a warp, would do too, but batch.go takes them only
// around a barrier or varying global accesses (its loop rule): the warp
// engine's traces run other loops faster. Were a predicate
// wrongly taken as uniform, the batch's split would still give each lane
// its own path (the results stay right); only the warp engine's counts
// could differ, which the differential tests compare.

// uniformPreds returns, per predicate, whether every lane of a warp holds
// it alike whenever a lane reads it, and per register slot whether it may
// differ between the lanes of a warp: the fixpoint of marking non-uniform
// every register or predicate with a definition that reads a non-uniform
// one, reads %tid or %laneid (or memory at a non-uniform address), is guarded by a
// non-uniform predicate, or lies where only some lanes of a warp run (a
// region that a branch on a non-uniform predicate splits).
func uniformPreds(f *Func, p *batchPlan) ([]bool, []bool) {
	nonReg := make([]bool, f.numSlots)
	nonPred := make([]bool, f.numPreds)
	for s, ref := range f.sregOf {
		if ref.name == "%tid" || ref.name == "%laneid" {
			nonReg[s] = true
		}
	}
	predOf := func(a *ir.Operand) int32 {
		if a.Kind == ir.OpReg && a.Reg != nil && a.Reg.Type == ".pred" {
			return f.slot[a.Reg.ID]
		}
		return -1
	}
	for changed := true; changed; {
		changed = false
		// the ops that only some lanes of a warp may run
		split := make([]bool, len(f.Ops))
		for pc := range f.Ops {
			o := &f.Ops[pc]
			if p.kind[pc] != bkBra || o.guard == 0 || !nonPred[o.guard-1] || p.toExit[pc] {
				continue
			}
			lo, hi := int32(pc)+1, f.ipdom[pc]
			if o.target <= int32(pc) { // a loop: its body
				lo, hi = o.target, int32(pc)+1
			}
			if hi < 0 {
				hi = int32(len(f.Ops))
			}
			for i := lo; i < hi && int(i) < len(f.Ops); i++ {
				split[i] = true
			}
		}
		for pc := range f.Ops {
			o := &f.Ops[pc]
			in := o.inst
			if len(in.Operands) == 0 || p.kind[pc] == bkBra || p.kind[pc] == bkExit || p.kind[pc] == bkStore {
				continue
			}
			non := split[pc] || o.guard != 0 && nonPred[o.guard-1]
			for _, s := range p.srcs[pc] {
				non = non || nonReg[s]
			}
			for _, s := range []int32{o.a, o.b, o.c}[:o.nsrc] {
				non = non || s >= 0 && int(s) < len(nonReg) && nonReg[s]
			}
			if p.kind[pc] == bkLoad {
				non = non || o.addrBase >= 0 && nonReg[o.addrBase]
			}
			for i := 1; i < len(in.Operands); i++ {
				if q := predOf(&in.Operands[i]); q >= 0 {
					non = non || nonPred[q]
				}
			}
			if !non {
				continue
			}
			// mark what it writes
			mark := func(a *ir.Operand) {
				switch {
				case a.Kind == ir.OpReg && a.Reg != nil && a.Reg.Type == ".pred":
					q := f.slot[a.Reg.ID]
					changed = changed || !nonPred[q]
					nonPred[q] = true
				case a.Kind == ir.OpReg && a.Reg != nil:
					s, n := f.operandSlots(a)
					for k := range int32(n) {
						changed = changed || !nonReg[s+k]
						nonReg[s+k] = true
					}
				}
			}
			d := &in.Operands[0]
			mark(d)
			for k := range d.Elems {
				mark(&d.Elems[k])
			}
		}
	}
	uni := make([]bool, f.numPreds)
	for q := range uni {
		uni[q] = !nonPred[q]
	}
	return uni, nonReg
}
