package exec

import (
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// Undoing a batch's stores. A batch that goes back to the warp engine runs
// again there from the start. Faults aside (the launch ends with the
// fault), a batch goes back when a branch parts a warp it must not
// (dynUni), a collective finds its warp not whole, or pending sums cannot
// take an add (batch_pending.go); by then it may have stored to global
// memory, and a store whose value came from memory the batch changed (a
// grid-stride loop's a[i] += 1) would apply twice. So in kernels that can
// go back that way after a global store (undoStores), the batch keeps the
// bytes every global store overwrites, and puts them back, last first,
// before it goes back.

// undoStores reports whether a batch of plan p may go back to the warp
// engine, without a fault, after a global store.
func undoStores(f *Func, p *batchPlan) bool {
	stores, late := false, p.pendingAtoms
	for pc, k := range p.kind {
		switch k {
		case bkStore:
			stores = stores || f.Ops[pc].space == mem.SpaceGlobal
		case bkColl:
			late = true
		case bkBra:
			late = late || p.dynUni[pc]
		}
	}
	return stores && late
}

// undoEntry is a stored region and where its old bytes lie in undoBytes.
type undoEntry struct {
	dst []byte
	at  int
}

// undoMaxBytes bounds the bytes a batch keeps: past them it goes back to
// the warp engine (with what it stored put back), and so do the launch's
// other batches (an in-place update of a large array by a small grid
// would keep about the whole array).
var undoMaxBytes = 16 << 20

// keep records dst's bytes before a store overwrites them (plan.undo);
// false when the batch keeps too much already (it must go back, and not
// store).
func (r *batchRun) keep(dst []byte) bool {
	if !r.plan.undo {
		return true
	}
	if len(r.undoBytes)+len(dst)+(len(r.undoLog)+1)*int(unsafe.Sizeof(undoEntry{})) > undoMaxBytes { // (the log's entries count too)
		r.declined = true
		return false
	}
	r.undoLog = append(r.undoLog, undoEntry{dst: dst, at: len(r.undoBytes)})
	r.undoBytes = append(r.undoBytes, dst...)
	return true
}

// rollback puts back what the batch's global stores overwrote (the batch
// goes back to the warp engine).
func (r *batchRun) rollback() {
	for i := len(r.undoLog) - 1; i >= 0; i-- {
		e := r.undoLog[i]
		copy(e.dst, r.undoBytes[e.at:e.at+len(e.dst)])
	}
	r.forget()
}

// forget drops the kept bytes (the batch ended).
func (r *batchRun) forget() {
	clear(r.undoLog) // (no references to memory kept past the batch)
	r.undoLog, r.undoBytes = r.undoLog[:0], r.undoBytes[:0]
}
