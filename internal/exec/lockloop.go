package exec

// Spin locks taken in rounds: a loop that spins on an atom.cas of a
// constant compare value (CUDA by Example's Lock, a per-bucket lock),
// followed by straight-line code that ends by releasing the same address
// (atom.exch or st there):
//
//	L:  [fence]
//	    atom.cas r, [a], 0, 1
//	    setp.ne p, r, 0
//	    @p bra L
//	    ...critical section: register ops, loads, stores, fences...
//	    atom.exch _, [a], 0                (the release)
//
// When the back edge splits a converged warp, the default schedule lets
// the lanes that failed spin spinLimit times before the winners run their
// critical sections (a lock's holder may be a lane of the same warp), and
// does so again at every collision: 16 buckets' locks took 145x native
// (probe a_lock16). Here the winners run through their critical sections
// to the release as one group, then the others go round the loop once as
// one group, and so on: each round's compare-and-swaps let one lane a
// free lock through, in lane order, and the warp goes on converged after
// the release when no lane is left. That is a valid schedule: each lane
// runs its own program in order, the winners merely run before the lanes
// that wait. A round that lets no lane through (the locks held outside
// the warp: another warp of the CTA, another worker) leaves the lanes
// where they are, the winners after the release and the others at the
// loop's head, for the default schedule (with its yields) to go on from.

import (
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/ir"
)

// lockRoundsEnabled lets tests compare runs with and without rounds.
var lockRoundsEnabled = true

// lockRoundsLeft, when set (tests), runs when a round let no lane through.
var lockRoundsLeft func()

// maxLockRegion bounds the ops of a lock loop and of its critical section.
const maxLockRegion = 48

// lockRegion is a spin lock's loop: ops [start, end) and the back edge at
// end; its critical section runs from end+1 to the release at rel.
type lockRegion struct {
	start, end, rel int32
}

// buildLockRegions marks the back edges of f that close spin locks.
func buildLockRegions(f *Func) {
	for i := range f.Ops {
		if r := lockRegionOf(f, int32(i)); r != nil {
			f.Ops[i].lock = r
		}
	}
}

// lockRegionOf returns the spin lock whose loop the branch at pc closes,
// or nil: the loop holds one atom.cas with an immediate compare value
// (a CAS loop's is a register) and otherwise only register ops and
// fences; after it, straight-line register ops, loads, stores, atomics and
// fences lead to an atom.exch or st at the CAS's address.
func lockRegionOf(f *Func, pc int32) *lockRegion {
	b := &f.Ops[pc]
	if !b.bra || b.guard == 0 || b.target >= pc || pc-b.target > maxLockRegion || b.inst.Guard == nil {
		return nil
	}
	var cas *Op
	for i := b.target; i < pc; i++ {
		o := &f.Ops[i]
		switch in := o.inst; {
		case in.Opcode == "atom" && hasMod(in, ".cas") && memoryAccess(o):
			if cas != nil || len(in.Operands) != 4 || in.Operands[2].Kind != ir.OpImm {
				return nil
			}
			cas = o
		case in.Opcode == "fence" || in.Opcode == "membar":
			if !o.plain {
				return nil
			}
		case !registerOnly(o):
			return nil
		}
	}
	if cas == nil {
		return nil
	}
	for i := pc + 1; i < int32(len(f.Ops)) && i <= pc+maxLockRegion; i++ {
		o := &f.Ops[i]
		in := o.inst
		fence := (in.Opcode == "fence" || in.Opcode == "membar") && o.plain
		if !fence && !registerOnly(o) && !memoryAccess(o) {
			return nil
		}
		if (in.Opcode == "atom" && hasMod(in, ".exch") || in.Opcode == "st") && o.addrBase == cas.addrBase && o.addrConst == cas.addrConst &&
			o.space == cas.space && o.frameAddr == cas.frameAddr && o.size == cas.size {
			return &lockRegion{start: b.target, end: pc, rel: i}
		}
	}
	return nil
}

// runLockRounds runs spin lock l's rounds from its back edge o, which the
// lanes of taken (of active) take: they failed to take their locks. It
// returns the warp- and thread-instructions issued (o included) and
// whether it applied (nothing ran otherwise). converged: every lane is
// after the release (f.upc is to be l.rel+1); else the frame is left
// diverged (f.conv false, the lanes' PCs set) for the default schedule.
// It stops at an op that faults.
func (w *Warp) runLockRounds(f *frame, o *Op, active, taken uint32) (nWarp, nThread uint64, converged, ok bool) {
	l := o.lock
	if l == nil || !lockRoundsEnabled || w.cta.rng != nil { // (o.lock: on the back edge alone)
		return 0, 0, false, false
	}
	ops := f.fn.Ops
	nWarp, nThread = 1, uint64(bits.OnesCount32(taken)) // (o)
	// run executes ops [from, to) for the lanes of mask, as the default
	// schedule's group would (straight-line: every op once)
	run := func(from, to int32, mask uint32) bool {
		for pc := from; pc < to; pc++ {
			so := &ops[pc]
			exec := f.guarded(so, mask)
			nWarp++
			nThread += uint64(bits.OnesCount32(exec))
			if exec == 0 {
				continue
			}
			f.upc = pc // (faults see the op's position)
			so.exec(w, so, exec)
			if w.fault != nil {
				return false
			}
		}
		return true
	}
	winners, losers, done := active&^taken, taken, uint32(0)
	for {
		if winners != 0 {
			if !run(l.end+1, l.rel+1, winners) {
				return nWarp, nThread, true, true
			}
			done |= winners
		}
		if losers == 0 {
			f.resetBackward()
			return nWarp, nThread, true, true
		}
		// the others go round: the loop once, then its back edge
		if !run(l.start, l.end, losers) {
			return nWarp, nThread, true, true
		}
		again := f.guarded(o, losers)
		nWarp++
		nThread += uint64(bits.OnesCount32(again))
		winners, losers = losers&^again, again
		if winners == 0 {
			// no lock came free: the default schedule goes on from here
			for m := done; m != 0; m &= m - 1 {
				f.pc[bits.TrailingZeros32(m)] = l.rel + 1
			}
			for m := losers; m != 0; m &= m - 1 {
				f.pc[bits.TrailingZeros32(m)] = l.start
			}
			f.conv = false
			f.countBackward(losers)
			if lockRoundsLeft != nil {
				lockRoundsLeft()
			}
			return nWarp, nThread, false, true
		}
	}
}
