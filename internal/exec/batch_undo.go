package exec

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// Undoing a batch's stores. A batch that goes back to the warp engine runs
// again there from the start: after a fault (the warp engine then reports
// the fault it finds), when a branch parts a warp it must not (dynUni), a
// collective finds its warp not whole, or an access, atomic or parameter
// load finds addresses the batch does not model. By then it may have
// stored to global memory, and the run again would read what it stored: a
// grid-stride loop's a[i] += 1 would apply twice, and a kernel whose
// branches or addresses depend on such a value could take another path,
// miss the fault the batch found, or spin. So a batch of a kernel with
// global stores keeps the bytes each store overwrites and puts them back,
// last first, before it goes back; the warp engine then starts from the
// memory the batch started from. A store needs nothing kept when it
// checks every lane's address before it writes any (storeInBounds) and no op that can send
// the batch back can run after it (failAfter); a kernel's last store
// (out[i] = ..., then ret) costs nothing. Cancellation is no such op: the
// launch ends with the context's error, and the warp engine checks it too.

// undoStores reports whether a batch of plan p keeps what global stores
// overwrite.
func undoStores(f *Func, p *batchPlan) bool {
	for pc, k := range p.kind {
		if k == bkStore && f.Ops[pc].space == mem.SpaceGlobal {
			return true
		}
	}
	return false
}

// failsAfter returns, per op, whether an op that can send a batch back (a
// load, store, atomic, collective, parameter load, or a branch that must
// split whole warps) can run after it in a batch: the ops from which one
// is reachable in one step or more, found backwards from them, in the
// control-flow graph plus an edge from each split's join to its taken
// side.
func failsAfter(f *Func, p *batchPlan) []bool {
	n := len(f.Ops)
	g := newFlowGraph(f)
	// a split runs its fall-through lanes to the join first, then the
	// taken ones from the branch's target (batch_run.go's split, arrive):
	// the taken side runs after the other, as if the join led to it
	joins := map[int32][]int32{}
	for i, k := range p.kind {
		if o := &f.Ops[i]; k == bkBra && o.guard != 0 && !p.toExit[i] {
			if j := f.ipdom[i]; j >= 0 && int(j) < n && int(o.target) < n {
				joins[o.target] = append(joins[o.target], j)
			}
		}
	}
	after := make([]bool, n)
	var work []int32
	for i, k := range p.kind {
		switch {
		case k == bkLoad, k == bkStore, k == bkAtom, k == bkColl, k == bkParam, k == bkBra && p.dynUni[i]:
			work = append(work, int32(i))
		}
	}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		for _, preds := range [2][]int32{g.pred(i), joins[i]} {
			for _, q := range preds {
				if !after[q] {
					after[q] = true
					work = append(work, q)
				}
			}
		}
	}
	return after
}

// storeTails returns, per global store that failAfter marks, the global
// stores after it when they alone can send a batch back after it: the ops
// from it to the exit are one straight line (no branch), with no load,
// atomic, collective or parameter load, and each of those stores is
// unguarded and its address register unchanged since the first. An
// array-of-structs update ends so (p.x = ...; p.y = ...; p.z = ...). When
// every such store's lanes are in bounds as the first runs, none can fail
// later, and none needs to keep what it overwrites.
func storeTails(f *Func, p *batchPlan) [][]int32 {
	tails := make([][]int32, len(f.Ops))
	for pc, k := range p.kind {
		if k != bkStore || !p.failAfter[pc] || f.Ops[pc].space != mem.SpaceGlobal {
			continue
		}
		var tail, written []int32
		ok := false
	walk:
		for j := pc + 1; j < len(f.Ops); j++ {
			o := &f.Ops[j]
			switch p.kind[j] {
			case bkExit:
				ok = true
				break walk
			case bkReg, bkForm, bkBar:
			case bkStore:
				if o.space != mem.SpaceGlobal || o.guard != 0 || o.addrBase >= 0 && slices.Contains(written, o.addrBase) {
					break walk
				}
				tail = append(tail, int32(j))
			default:
				break walk
			}
			written = append(written, regDests(f, o.inst)...)
		}
		if ok && len(tail) > 0 {
			tails[pc] = tail
		}
	}
	return tails
}

// storeKeeps reports whether global store pc must keep what it
// overwrites in this batch: an op after it may send the batch back, it is
// no store of a tail checked already, its tail of stores (storeTails) does
// not lie in bounds now (when it does, those stores keep nothing either:
// tailEnd), and the batch proved no bounded loop around it
// (batch_loopbound.go).
func (r *batchRun) storeKeeps(pc int32) bool {
	if !r.plan.failAfter[pc] || pc <= r.tailEnd || r.loopBounded(pc) {
		return false
	}
	tail := r.plan.tails[pc]
	if tail == nil || len(r.frames) > 0 || !r.tailInBounds(tail) {
		return true
	}
	r.tailEnd = tail[len(tail)-1]
	return false
}

// store runs the store at pc: one that keeps nothing (storeKeeps) first
// checks every lane's address (storeInBounds); a lane out of bounds or
// misaligned sends the batch back before the op writes anything (the warp
// engine faults there). A store of a tail its first checked checks nothing
// again.
func (r *batchRun) store(pc int32, o *Op) bool {
	if !r.plan.undo || o.space != mem.SpaceGlobal {
		_, ok := r.access(pc, o, true)
		return ok
	}
	checked := pc <= r.tailEnd // (a store of a tail its first checked)
	if r.storeKeeps(pc) {
		_, ok := r.access(pc, o, true)
		return ok
	}
	if !checked && !r.storeInBounds(o) {
		return false
	}
	r.unkept = true
	_, ok := r.access(pc, o, true)
	r.unkept = false
	return ok
}

// tailInBounds reports whether every running lane of each store of tail
// stores in bounds (storeInBounds, with their addresses as they are now).
func (r *batchRun) tailInBounds(tail []int32) bool {
	for _, pc := range tail {
		if !r.storeInBounds(&r.fn.Ops[pc]) {
			return false
		}
	}
	return true
}

// storeInBounds reports whether every running lane's store of op o (its
// guard true) lies, aligned, in global memory the batch may write: a
// form's range over all the batch's threads in one check, else each
// block's lanes in one window, else lane by lane.
func (r *batchRun) storeInBounds(o *Op) bool {
	size := uint64(o.size * len(o.vec))
	af, isForm := r.addrForm(o)
	if isForm {
		// the form's values over all the batch's threads bound the
		// running lanes' addresses
		if _, _, in := r.batchRange(&af, o.addrConst, size); in {
			return true
		}
	}
	for blk := range r.nb {
		eff := r.act[blk] & r.guardOf(o, blk)
		if eff == 0 {
			continue
		}
		if isForm && r.run {
			// the lanes' addresses step by c from lane 0's: the ends of
			// the warp's range bound them
			v, c := r.segFirst(&af, blk, batchSeg{0, warpSize})+o.addrConst, af.c[0]
			lo, hi := v, v+(warpSize-1)*c
			if int64(c) < 0 {
				lo, hi = hi, lo
			}
			if _, _, in := r.window(lo, hi-lo+size); in && (v|c)&(size-1) == 0 && hi >= lo && hi-lo <= 1<<32 {
				continue
			}
		}
		addrs := r.addrRow(o, af, isForm, blk)
		lo, hi, mis := laneSpan(addrs, o.addrConst, eff)
		if mis&(size-1) != 0 {
			return false
		}
		if _, _, in := r.window(lo, hi-lo+size); in && hi-lo <= 1<<32 {
			continue
		}
		for m := eff; m != 0; m &= m - 1 {
			if _, _, in := r.window(addrs[bits.TrailingZeros32(m)]+o.addrConst, size); !in {
				return false
			}
		}
	}
	return true
}

// keeping reports whether global stores keep what they overwrite now: in
// a kernel with global stores, but not in a store that checked its lanes
// first (store).
func (r *batchRun) keeping() bool { return r.plan.undo && !r.unkept }

// undoEntry is a stored region and where its old bytes lie in undoBytes:
// all of dst, or (step > 0) count pieces of size bytes, step bytes apart
// from dst's start (the lanes of a strided store: an array of structs),
// kept one after the other.
type undoEntry struct {
	dst        []byte
	at         int
	step, size uint32
	count      int32
}

// undoMaxBytes bounds the bytes a batch keeps: past them it goes back to
// the warp engine (with what it stored put back), and the kernel's later
// batches are smaller (undoRoom; an in-place update of a large array by a
// small grid would keep about the whole array).
var undoMaxBytes = 16 << 20

// keep records dst's bytes before a store overwrites them (plan.undo);
// false when the batch keeps too much already (it must go back, and not
// store).
func (r *batchRun) keep(dst []byte) bool {
	if !r.keeping() {
		return true
	}
	if !r.undoRoom(len(dst)) {
		return false
	}
	r.undoLog = append(r.undoLog, undoEntry{dst: dst, at: len(r.undoBytes)})
	r.undoBytes = append(r.undoBytes, dst...)
	return true
}

// keepStrided is keep for count pieces of size bytes, step bytes apart
// from span's start (span ends at the last piece's end): one entry, and
// only the pieces' bytes, since another CTA's store may write between
// them while this batch runs.
func (r *batchRun) keepStrided(span []byte, step, size uint64, count int) bool {
	if !r.keeping() {
		return true
	}
	if count == 1 || step == size {
		return r.keep(span)
	}
	if !r.undoRoom(int(size) * count) {
		return false
	}
	at := len(r.undoBytes)
	r.undoLog = append(r.undoLog, undoEntry{dst: span, at: at, step: uint32(step), size: uint32(size), count: int32(count)})
	r.undoBytes = r.undoBytes[:at+int(size)*count]
	old := r.undoBytes[at:]
	switch size {
	case 4:
		for j := range count {
			binary.LittleEndian.PutUint32(old[4*j:], binary.LittleEndian.Uint32(span[uint64(j)*step:]))
		}
	case 8:
		for j := range count {
			binary.LittleEndian.PutUint64(old[8*j:], binary.LittleEndian.Uint64(span[uint64(j)*step:]))
		}
	default:
		for j := range uint64(count) {
			copy(old[j*size:(j+1)*size], span[j*step:])
		}
	}
	return true
}

// undoRoom makes room for one more entry of n bytes, false (the batch
// declined) past undoMaxBytes.
func (r *batchRun) undoRoom(n int) bool {
	if len(r.undoBytes)+n+(len(r.undoLog)+1)*int(unsafe.Sizeof(undoEntry{})) > undoMaxBytes { // (the log's entries count too)
		// the kernel's batches from now on take a quarter of this one's
		// CTAs (the kernel's: its next launches too), down to one CTA;
		// a batch of one CTA that keeps too much sends the launch's other
		// batches back (one thread a 16 KiB row, 64 threads a CTA: a
		// probe batch of 16 CTAs kept too much, and the launch ran warp
		// by warp after it, 133 ms against 81 without batches)
		if ctas := r.nb / r.wpc; ctas > 1 {
			c := int32(max(1, ctas/4))
			for old := r.fn.batchCap.Load(); old == 0 || c < old; old = r.fn.batchCap.Load() {
				if r.fn.batchCap.CompareAndSwap(old, c) {
					break
				}
			}
		} else {
			r.declined = true
		}
		return false
	}
	// grown by doubling, within undoMaxBytes as the check above is:
	// append's growth by a quarter copied a launch's first batch's kept
	// bytes again and again (gridsaxpy: 10.9 ms against 5 for later ones)
	if len(r.undoBytes)+n > cap(r.undoBytes) {
		r.undoBytes = slices.Grow(r.undoBytes, min(max(cap(r.undoBytes), 1<<20, n), undoMaxBytes-len(r.undoBytes)))
	}
	if len(r.undoLog) == cap(r.undoLog) {
		r.undoLog = slices.Grow(r.undoLog, min(max(cap(r.undoLog), 1<<14), undoMaxBytes/int(unsafe.Sizeof(undoEntry{}))))
	}
	return true
}

// rollback puts back what the batch's global stores overwrote (the batch
// goes back to the warp engine).
func (r *batchRun) rollback() {
	for i := len(r.undoLog) - 1; i >= 0; i-- {
		e := r.undoLog[i]
		if e.step == 0 {
			copy(e.dst, r.undoBytes[e.at:e.at+len(e.dst)])
			continue
		}
		old := r.undoBytes[e.at:]
		for j := range int(e.count) {
			copy(e.dst[j*int(e.step):j*int(e.step)+int(e.size)], old[j*int(e.size):])
		}
	}
	r.forget()
}

// forget drops the kept bytes (the batch ended).
func (r *batchRun) forget() {
	clear(r.undoLog) // (no references to memory kept past the batch)
	r.undoLog, r.undoBytes = r.undoLog[:0], r.undoBytes[:0]
}
