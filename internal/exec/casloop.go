package exec

// CAS loops: the compare-and-swap retry loop of an atomic update that the
// hardware lacks (the CUDA Programming Guide's atomicAdd for double, a
// float atomicMin through __float_as_int):
//
//	L:  new = f(old, ...)                  register ops
//	    @p bra Out                         (optional early exits)
//	    [fence]
//	    atom.cas r, [a], old, new
//	    setp.ne q, old, r
//	    mov old, r                         (or at the top: L: mov old, r)
//	    @q bra L
//	Out:
//
// When such a loop's back edge or an early exit splits a converged warp,
// the lanes that go on in it each run it to its end here, one lane after
// another in lane order, and the warp goes on converged after it. That is
// a valid schedule of the threads (each runs its own program in order),
// and on one worker it leaves memory as the default schedule does: there
// the lanes still in the loop go round as a group whose compare-and-swaps
// on a word succeed one a round, in lane order, so a word's updates take
// the same order (TestCASLoopsMatchDefaultSchedule). It issues fewer
// instructions: a lane goes round again only when another thread updated
// its word between its two atomic steps, while in a group of n lanes on
// one word the last one goes round n times. A lane retries with the value
// the word held at its failed compare-and-swap, so it leaves the loop as
// soon as no other thread updates the word in between; no lane waits for
// another lane of its warp (a spin lock, whose compare value is a
// constant, is not such a loop). Without this the warp paid the default
// schedule's divergence, reconvergence and n^2/2 attempts (probe s_casd:
// 28x native).

import (
	"math/bits"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
)

// casLoopsEnabled lets tests compare runs with and without the fast path.
var casLoopsEnabled = true

// maxCASLoop bounds the ops of a CAS loop's body.
const maxCASLoop = 32

// casLoop is a back edge's CAS loop: ops [start, end) and the branch at
// end; its lanes leave at end+1.
type casLoop struct {
	start, end int32
	at         int32 // the atom.cas
}

// buildCASLoops marks the back edges of f that close CAS loops, and their
// early exits.
func buildCASLoops(f *Func) {
	for i := range f.Ops {
		if l := casLoopOf(f, int32(i)); l != nil {
			f.Ops[i].cas = l
			for pc := l.start; pc < l.end; pc++ {
				if f.Ops[pc].bra {
					f.Ops[pc].cas = l
				}
			}
		}
	}
}

// casLoopOf returns the CAS loop that the branch at pc closes, or nil.
func casLoopOf(f *Func, pc int32) *casLoop {
	b := &f.Ops[pc]
	if !b.bra || b.guard == 0 || b.target >= pc || pc-b.target > maxCASLoop || b.inst.Guard == nil {
		return nil
	}
	q := b.inst.Guard.Reg
	var casAt, setpAt, movAt int32 = -1, -1, -1
	for i := b.target; i < pc; i++ {
		o := &f.Ops[i]
		in := o.inst
		switch {
		case o.bra:
			if o.target != pc+1 {
				return nil // (a branch elsewhere: not straight-line)
			}
		case in.Opcode == "atom" && hasMod(in, ".cas") && memoryAccess(o):
			if casAt >= 0 {
				return nil
			}
			casAt = i
		case in.Opcode == "fence" || in.Opcode == "membar":
			if !o.plain {
				return nil
			}
		case !registerOnly(o):
			return nil
		}
	}
	if casAt < 0 {
		return nil
	}
	cas := f.Ops[casAt].inst
	if len(cas.Operands) != 4 || cas.Operands[0].Kind != ir.OpReg || cas.Operands[2].Kind != ir.OpReg {
		return nil
	}
	r, old := cas.Operands[0].Reg, cas.Operands[2].Reg
	if r == old {
		return nil
	}
	// old is written in the loop only by mov old, r (after the CAS, or
	// before any read of old); q only by setp.ne q, old, r (or .eq with
	// @!q) after the CAS (and before a bottom mov); r only by the CAS
	for i := b.target; i < pc; i++ {
		in := f.Ops[i].inst
		if i == casAt || len(in.Operands) == 0 {
			continue
		}
		d := in.Operands[0]
		writes := func(reg *ir.Reg) bool {
			if d.Kind == ir.OpReg {
				return d.Reg == reg
			}
			for _, e := range d.Elems {
				if e.Kind == ir.OpReg && e.Reg == reg {
					return true
				}
			}
			return false
		}
		switch {
		case writes(old):
			if movAt >= 0 || in.Opcode != "mov" || len(in.Operands) != 2 || in.Operands[1].Kind != ir.OpReg || in.Operands[1].Reg != r || in.Guard != nil {
				return nil
			}
			movAt = i
		case writes(q):
			if setpAt >= 0 || in.Opcode != "setp" || in.Guard != nil || d.Kind != ir.OpReg || len(in.Operands) != 3 {
				return nil
			}
			a1, a2 := in.Operands[1], in.Operands[2]
			if a1.Kind != ir.OpReg || a2.Kind != ir.OpReg || !(a1.Reg == old && a2.Reg == r || a1.Reg == r && a2.Reg == old) {
				return nil
			}
			// (bits compared as integers: a float compare of a NaN word
			// would go round for ever)
			cmp := setpCmp(in)
			if _, isInt := parseInt(typeOf(in)); !isInt || !(cmp == ".ne" && !b.neg || cmp == ".eq" && b.neg) {
				return nil
			}
			setpAt = i
		case writes(r):
			return nil
		}
	}
	switch {
	case casAt < setpAt && setpAt < movAt: // mov old, r at the bottom
	case movAt >= 0 && movAt < casAt && casAt < setpAt && !readsBefore(f, b.target, movAt, old):
		// mov old, r at the top (clang's other shape): each round's
		// compare value is the last round's result all the same
	default:
		return nil
	}
	return &casLoop{start: b.target, end: pc, at: casAt}
}

// readsBefore says whether an op in [from, to) reads reg.
func readsBefore(f *Func, from, to int32, reg *ir.Reg) bool {
	for i := from; i < to; i++ {
		in := f.Ops[i].inst
		if in.Guard != nil && in.Guard.Reg == reg || mentions(in.Operands[1:], reg) {
			return true
		}
	}
	return false
}

// setpCmp is setp's comparison modifier (".eq", ".ne", ...), or "".
func setpCmp(in *ir.Inst) string {
	for _, m := range in.Mods {
		switch m {
		case ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs",
			".equ", ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan":
			return m
		}
	}
	return ""
}

// runCASLoop runs the CAS loop l for the lanes of stay, which go on in it
// after branch o split the converged warp, or (group) runGroup's group,
// of active (o the back edge: the lanes that go round again; o an early
// exit: those that did not leave), each
// from o's next op (the loop's start after the back edge) to the loop's
// end, one lane after another in lane order; the warp goes on converged
// after the loop. It returns the warp- and thread-instructions issued (o,
// then each op once per lane that reached it: one lane an issue), or
// false when it does not apply (nothing ran then). It stops at an op that
// faults.
func (w *Warp) runCASLoop(f *frame, o *Op, active, taken uint32, group bool) (nWarp, nThread uint64, ok bool) {
	l := o.cas
	if l == nil || !casLoopsEnabled || w.cta.rng != nil { // (a perturbed schedule draws its own order)
		return 0, 0, false
	}
	stay, from := taken, l.start // (the back edge: its taken lanes go round)
	if o.pc != l.end {
		stay, from = active&^taken, o.pc+1 // (an early exit: the others stay)
	}
	ops := f.fn.Ops
	nWarp, nThread = 1, uint64(bits.OnesCount32(taken)) // (o)
	for m := stay; m != 0; m &= m - 1 {
		lane := uint32(1) << bits.TrailingZeros32(m)
	rounds:
		for pc := from; ; pc = l.start {
			for ; pc < l.end; pc++ {
				so := &ops[pc]
				exec := f.guarded(so, lane)
				nWarp++
				if exec == 0 {
					continue
				}
				nThread++
				if so.bra {
					break rounds // an early exit, to the loop's end + 1
				}
				if so.lane != nil {
					so.lane(f, so, bits.TrailingZeros32(lane))
					continue
				}
				if pc == l.at && w.casLane(f, so, bits.TrailingZeros32(lane)) {
					continue
				}
				f.upc = pc // (faults see the op's position)
				so.exec(w, so, exec)
				if w.fault != nil {
					return nWarp, nThread, true
				}
			}
			nWarp++ // (the back edge)
			if f.guarded(&ops[l.end], lane) == 0 {
				break
			}
			nThread++
		}
	}
	if !group {
		f.resetBackward() // (the default schedule's rounds end converged: enterConv resets it)
	}
	return nWarp, nThread, true
}

// casLane runs the CAS loop's atom.cas o for one lane whose word lies in
// global memory, in the warp's window, aligned (casWord32/64), and
// reports whether it did; false leaves the op to its exec, which takes
// every other case and faults where it must. (Through the exec, made for
// a warp's lanes, the serial lanes' compare-and-swaps took a third of a
// CAS-loop double add's time.)
func (w *Warp) casLane(f *frame, o *Op, lane int) bool {
	info, ok := o.aux.(*atomInfo)
	if !ok || o.addrBase < 0 || o.frameAddr || info.dst < 0 || o.c < 0 || o.space != mem.SpaceGlobal && o.space != mem.SpaceGeneric {
		return false
	}
	regs := f.regs
	addr := regs[int(o.addrBase)*warpSize+lane] + o.addrConst
	if sp, _ := mem.Classify(addr); sp != mem.SpaceGlobal {
		return false
	}
	n := uint64(o.size)
	if n != 4 && n != 8 { // (.b16 and .b128 compare-and-swaps: the exec's)
		return false
	}
	data, base := w.windowAt(o, lane)
	off := addr - base
	if data == nil || uint64(len(data)) < n || off > uint64(len(data))-n || off&(n-1) != 0 {
		return false
	}
	b, c := regs[int(info.val)*warpSize+lane], regs[int(o.c)*warpSize+lane]
	var old uint64
	if n == 4 {
		old = info.it.norm(uint64(casWord32((*uint32)(unsafe.Pointer(&data[off])), uint32(b), uint32(c), true)))
	} else {
		old = casWord64((*uint64)(unsafe.Pointer(&data[off])), b, c, true)
	}
	regs[int(info.dst)*warpSize+lane] = old
	return true
}
