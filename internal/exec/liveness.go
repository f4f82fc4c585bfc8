package exec

// Register liveness for divergent groups (runGroup). A group of lanes runs
// each op for its lanes only; an op whose whole-warp loop computes and
// cannot fault (o.vkind) may run for all 32 lanes instead, skipping the
// masked path, when no lane outside the group may read the row it writes
// before writing it again: the row is not live where those lanes resume
// (their PCs: a reconvergence point they wait at, the op they go on at).
// The other lanes' values of a row that is dead for them are never read,
// so no run can tell the difference (registers read before any write read
// 0, uninit.go: such a read makes the row live).
//
// The analysis is the usual backward dataflow over ops, kept conservative:
// an op kills only the one row an unguarded op that writes its first
// operand in full writes (uninit.go's definesFirst); every other register
// operand, other destinations included, counts as a read. Functions with brx (targets not always known) or too large for the
// sets to pay get none.

import (
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/ir"
)

// liveMaxWords bounds the sets (ops times 64-slot words), as uninitMaxWords.
const liveMaxWords = 1 << 16

// liveSets holds, per op, the register slots live on entry to it.
type liveSets struct {
	words int
	in    []uint64 // op pc's set: in[pc*words : (pc+1)*words]
}

// liveness returns f's sets, computing them on first use, or nil.
func (f *Func) liveness() *liveSets {
	f.liveOnce.Do(func() { f.live = computeLiveness(f) })
	return f.live
}

func computeLiveness(f *Func) *liveSets {
	ls, _ := livenessVisits(f)
	return ls
}

// livenessVisits is computeLiveness, with the number of times it
// computed an op's set: a worklist revisits an op only when a successor's
// set grew (sweeps in PC order took one sweep per block of code laid out
// against the order it runs in).
func livenessVisits(f *Func) (*liveSets, int) {
	n := len(f.Ops)
	words := (f.regSlots + 63) / 64
	if n == 0 || words == 0 || n*words > liveMaxWords {
		return nil, 0
	}
	gen := make([]uint64, n*words)
	kill := make([]int32, n) // the slot op i kills, or -1
	for i := range f.Ops {
		o := &f.Ops[i]
		if o.inst.Opcode == "brx" {
			return nil, 0
		}
		kill[i] = -1
		if o.guard == 0 && o.defFirst && len(o.inst.Operands) > 0 {
			if a := &o.inst.Operands[0]; a.Kind == ir.OpReg && a.Reg != nil && a.Reg.Type != ".pred" {
				if s, k := f.operandSlots(a); k == 1 && int(s) < f.regSlots {
					kill[i] = s
				}
			}
		}
		set := gen[i*words : (i+1)*words]
		for k := range o.inst.Operands {
			if k == 0 && kill[i] >= 0 {
				continue // (the row it writes)
			}
			eachRegSlot(f, &o.inst.Operands[k], func(s int32) {
				if int(s) < f.regSlots {
					set[s/64] |= 1 << (s % 64)
				}
			})
		}
	}
	g := newFlowGraph(f)
	in := make([]uint64, n*words)
	out := make([]uint64, words)
	// the worklist, a stack: the last op first, as a backward analysis wants
	work := make([]int32, n)
	queued := make([]bool, n)
	for i := range work {
		work[i], queued[i] = int32(i), true
	}
	visits := 0
	for len(work) > 0 {
		i := int(work[len(work)-1])
		work = work[:len(work)-1]
		queued[i] = false
		visits++
		clear(out)
		for _, s := range g.succ(int32(i)) {
			if int(s) < n {
				for w, v := range in[int(s)*words : (int(s)+1)*words] {
					out[w] |= v
				}
			}
		}
		if k := kill[i]; k >= 0 {
			out[k/64] &^= 1 << (k % 64)
		}
		cur, changed := in[i*words:(i+1)*words], false
		for w := range cur {
			if v := out[w] | gen[i*words+w]; v != cur[w] {
				cur[w], changed = v, true
			}
		}
		if changed {
			for _, p := range g.pred(int32(i)) {
				if !queued[p] {
					work, queued[p] = append(work, p), true
				}
			}
		}
	}
	return &liveSets{words: words, in: in}, visits
}

// eachRegSlot calls fn for each register slot operand a names (not
// predicates, which live in their own array), its address base and vector
// elements included.
func eachRegSlot(f *Func, a *ir.Operand, fn func(int32)) {
	if a.Kind == ir.OpReg && a.Reg != nil && a.Reg.Type != ".pred" {
		s, n := f.operandSlots(a)
		for k := range int32(n) {
			fn(s + k)
		}
	}
	if a.Base != nil {
		eachRegSlot(f, a.Base, fn)
	}
	for k := range a.Elems {
		eachRegSlot(f, &a.Elems[k], fn)
	}
}

// outsideLive fills f.outLive with the rows live where the frame's lanes
// outside mask resume, and reports whether runGroup may run ops for all
// lanes: only in a kernel's frame (a function's lanes that returned keep
// their results in its rows) with no lane blocked at a barrier or waiting
// in a collective, whose PCs do not say what they read next.
func (f *frame) outsideLive(mask uint32) bool {
	if f.callOp != nil || f.blocked|f.syncWait|f.inCall != 0 {
		return false
	}
	ls := f.fn.liveness()
	if ls == nil {
		return false
	}
	if cap(f.outLive) < ls.words {
		f.outLive = make([]uint64, ls.words)
	}
	f.outLive = f.outLive[:ls.words]
	clear(f.outLive)
	last := int32(-1)
	for m := f.active &^ mask; m != 0; m &= m - 1 {
		pc := f.pc[bits.TrailingZeros32(m)]
		if pc == last || int(pc) >= len(f.fn.Ops) || pc < 0 {
			continue
		}
		last = pc
		for w, v := range ls.in[int(pc)*ls.words : (int(pc)+1)*ls.words] {
			f.outLive[w] |= v
		}
	}
	return true
}

// deadOutside reports whether row s is dead for the lanes outside the
// group (outsideLive).
func (f *frame) deadOutside(s int32) bool {
	return int(s/64) < len(f.outLive) && f.outLive[s/64]&(1<<(s%64)) == 0
}
