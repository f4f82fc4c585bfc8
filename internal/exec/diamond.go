package exec

// Diamonds: a conditional branch whose two sides are short runs of
// straight-line ops (register-only ones, loads, stores and atomics) that
// meet at the branch's reconvergence point (an if/else, or an if without
// else). When the branch splits a group of lanes, the default schedule
// (pick, lowest PC first) runs the lanes of the lower side through it,
// then those of the other, holds both at the reconvergence point and
// releases them together; the warp does not yield in between unless its
// time slice ends. Where nothing else of the warp could run in between,
// runDiamondConverged does the same without recording PCs and reconvergence points
// lane by lane, and the group goes on together: the same ops on the same
// lanes in the same order, counted alike, with the same backward-branch
// accounting, and a fault where the default schedule faults.

import (
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/ir"
)

// diamondsEnabled lets tests compare runs with and without the fast path.
var diamondsEnabled = true

// maxDiamondSide bounds the ops of one side (longer sides gain little).
const maxDiamondSide = 32

// diamond is a branch's two sides: [0] the lanes that fall through, [1]
// those that take it.
type diamond struct {
	r     int32 // the reconvergence point (the branch's ipdom)
	sides [2]diamondSide
	steps int // the most steps the branch and its sides take
}

// spins reports whether the diamond's branch o or a side's branch to r
// closes a spin loop (lockLoops), whose spinners yield after spinLimit
// backward branches.
func (d *diamond) spins(ops []Op, o *Op) bool {
	if o.lockLoop {
		return true
	}
	for _, s := range d.sides {
		if s.bra && ops[s.end].lockLoop {
			return true
		}
	}
	return false
}

// diamondSide is the ops [start, end), straight-line; with bra, ops[end]
// is an unguarded branch to r, which the side's lanes take, else end is r.
type diamondSide struct {
	start, end int32
	bra        bool
}

// last is the side's last op (its branch to r) plus one: the end of the
// PCs its lanes pass (start itself for an empty side, whose lanes go
// straight to r).
func (s diamondSide) last() int32 {
	if s.bra {
		return s.end + 1
	}
	return s.end
}

// buildDiamonds finds the diamonds of f's guarded direct branches.
func buildDiamonds(f *Func) {
	for i := range f.Ops {
		o := &f.Ops[i]
		pc := int32(i)
		if !o.bra || o.guard == 0 || o.target == pc+1 {
			continue
		}
		r := f.ipdom[i]
		if r < 0 || int(r) >= len(f.Ops) {
			continue
		}
		fall, ok1 := diamondSideOf(f, pc+1, r)
		taken, ok2 := diamondSideOf(f, o.target, r)
		if !ok1 || !ok2 {
			continue
		}
		// the sides' PCs apart from each other and from r (else the
		// default schedule would merge the groups somewhere)
		if fall.start < taken.last() && taken.start < fall.last() ||
			fall.start <= r && r < fall.last() || taken.start <= r && r < taken.last() {
			continue
		}
		o.dia = &diamond{r: r, sides: [2]diamondSide{fall, taken},
			steps: 1 + int(fall.last()-fall.start) + int(taken.last()-taken.start)}
	}
}

// diamondSideOf is the side starting at pc, or false when it is not a
// short run of straight-line ops ending at r or at a branch to r.
func diamondSideOf(f *Func, pc, r int32) (diamondSide, bool) {
	for end := pc; end-pc <= maxDiamondSide && int(end) < len(f.Ops); end++ {
		if end == r {
			return diamondSide{pc, end, false}, true
		}
		o := &f.Ops[end]
		if o.bra && o.guard == 0 && o.target == r {
			return diamondSide{pc, end, true}, true
		}
		if !registerOnly(o) && !memoryAccess(o) {
			return diamondSide{}, false
		}
	}
	return diamondSide{}, false
}

// registerOnly reports whether an op only computes registers or
// predicates from registers: no memory, no fault, no special register
// (whose value may depend on when it is read).
func registerOnly(o *Op) bool {
	if !o.plain || o.collective || readsSreg(o) {
		return false
	}
	if o.pure {
		return true
	}
	switch o.inst.Opcode {
	case "setp", "set", "selp":
		return true
	case "and", "or", "xor", "not":
		return typeOf(o.inst) == ".pred"
	}
	return false
}

// memoryAccess reports whether an op is a load, store or atomic: it may
// fault, but neither branches nor blocks nor yields the warp.
func memoryAccess(o *Op) bool {
	if !o.plain || o.collective || readsSreg(o) {
		return false
	}
	switch o.inst.Opcode {
	case "ld", "st", "atom", "red":
		return true
	}
	return false
}

// readsSreg reports whether an op names a special register.
func readsSreg(o *Op) bool {
	for i := range o.inst.Operands {
		if o.inst.Operands[i].Kind == ir.OpSreg {
			return true
		}
	}
	return false
}

// runDiamondConverged runs the diamond of branch o, which split the
// converged warp (active) into taken and the rest, when the slice allows
// all of it: the warp stays converged at d.r. In the default schedule
// nothing else runs meanwhile either, and the warp converges again at r
// (where enterConv resets the backward-branch count, so it is left alone).
func (w *Warp) runDiamondConverged(f *frame, o *Op, active, taken uint32, steps, slice int) (int32, uint64, uint64, int, bool) {
	d := o.dia
	if d == nil || !diamondsEnabled || steps+d.steps > slice || w.cta.rng != nil {
		// (a perturbed schedule draws which side runs first)
		return 0, 0, 0, steps, false
	}
	nWarp, nThread := w.runSides(f, o, d, active, taken)
	f.resetBackward() // (runSides counted the sides' backward branches; enterConv would reset them)
	return d.r, nWarp, nThread, steps + int(nWarp), true
}

// runDiamondGroup is runDiamondConverged for runGroup's group (mask), in a
// warp whose other lanes wait at reconvergence points: only when none of
// them could run (they all wait), the lowest of their points is above r
// (so r is released first), the group's own reconvergence points lie
// outside the diamond and differ from r, and the backward branches it
// counts keep the count below starvationLimit. placed: this runGroup
// call ran this diamond already, so the tests of the other lanes and the
// reconvergence points, which nothing in the call changes, hold.
func (w *Warp) runDiamondGroup(f *frame, o *Op, mask, taken uint32, steps, slice int, placed bool) (uint64, uint64, int, bool) {
	d := o.dia
	if d == nil || !diamondsEnabled || steps+d.steps > slice || f.backs+3 >= starvationLimit ||
		f.backs+3 >= spinLimit && d.spins(f.fn.Ops, o) {
		// (near a fairness decision: pick's, after the branch that
		// reaches the limit)
		return 0, 0, steps, false
	}
	if !placed && !w.diamondPlaced(f, d, mask, taken) {
		return 0, 0, steps, false
	}
	// the backward branches the default schedule counts: the diamond's
	// (diverged), then each side's branch to r (runGroup)
	if o.target <= o.pc && f.active&^taken != 0 {
		f.countBackward(taken)
		f.lockSpin(o)
		f.favor &^= taken
	}
	nWarp, nThread := w.runSides(f, o, d, mask, taken)
	return nWarp, nThread, steps + int(nWarp), true
}

// diamondPlaced reports whether the other lanes of the frame and the
// reconvergence points of the group (mask; taken take the branch) let
// runDiamondGroup run diamond d.
func (w *Warp) diamondPlaced(f *frame, d *diamond, mask, taken uint32) bool {
	if others := f.active &^ f.blocked &^ f.syncWait &^ mask; others != 0 {
		if f.waitingLanes()&others != others {
			return false
		}
		if _, low := lowestPC(f, others); low <= d.r {
			return false
		}
	}
	// (each side's lanes would stop at a point of their own on the way)
	sl := [2]uint32{mask &^ taken, taken}
	for k, s := range d.sides {
		if s.start < s.last() && f.rtopLimit(sl[k], s.start-1) < s.last() {
			return false
		}
	}
	return f.rtopLimit(mask, d.r-1) != d.r
}

// runSides runs the branch o (taken of mask take it) and the lanes of each
// side through their ops, the lower side first, and returns the warp- and
// thread-instructions issued; it stops at an op that faults.
func (w *Warp) runSides(f *frame, o *Op, d *diamond, mask, taken uint32) (nWarp, nThread uint64) {
	nWarp, nThread = 1, uint64(bits.OnesCount32(taken))
	lanes := [2]uint32{mask &^ taken, taken}
	first := 0
	if d.sides[1].start < d.sides[0].start {
		first = 1
	}
	for k := range 2 {
		side, sl := d.sides[first^k], lanes[first^k]
		n := uint64(bits.OnesCount32(sl))
		for pc := side.start; pc < side.end; pc++ {
			so := &f.fn.Ops[pc]
			exec := f.guarded(so, sl)
			nWarp++
			nThread += uint64(bits.OnesCount32(exec))
			if exec != 0 {
				so.exec(w, so, exec)
				if w.fault != nil { // (the warp stops here, as it would have)
					return nWarp, nThread
				}
			}
		}
		if side.bra {
			nWarp++
			nThread += n
			if d.r <= side.end && f.active&^sl != 0 {
				f.countBackward(sl)
				f.lockSpin(&f.fn.Ops[side.end])
			}
		}
	}
	return nWarp, nThread
}
