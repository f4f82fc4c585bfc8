package exec

import (
	"slices"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/ir"
)

// Traces for divergent groups. A group of lanes (runGroup) that reaches
// the head of a register-only trace (trace.go: whole-warp loops, setp,
// selp, predicate logic, pack and unpack, none of which fault or touch
// memory) may run the trace for all 32 lanes in one call, as runGroup
// already runs one whole-warp loop for all lanes (liveness.go), when:
//
//   - the rows it writes keep the outside lanes' values where those lanes
//     may read them: a row dead for them where they resume
//     (frame.outsideLive) needs nothing, the others (a few at most:
//     groupTraceMaxKeep) are saved for the outside lanes before and put
//     back after;
//   - so are the outside lanes' bits of the predicates it writes
//     (predicates are not in the liveness sets; a lane waiting at
//     `@%p bra` reads %p);
//   - the trace ends below the group's limit (no other lane's PC, nor a
//     reconvergence point of the group's, lies inside it) and within the
//     warp's time slice.
//
// The outside lanes' rows and predicates, as they read them, are then what
// running the ops for the group alone leaves, and the group's lanes compute
// what they would op by op. A divergent loop (mandelbrot's escape test,
// a per-lane trip count) runs its straight-line stretches this way.

// groupTraceMaxPreds bounds the predicates a group trace writes (runGroup
// saves them in an array on its stack).
const groupTraceMaxPreds = 8

// traceWrites is a register-only trace for groups (ops: the op's trace,
// or a setp, selp or predicate op alone) and what it writes: row slots and
// predicate indices.
type traceWrites struct {
	ops   []traceOp
	rows  []int32
	preds []int32
}

// groupTracesEnabled lets tests compare runs with and without group traces.
var groupTracesEnabled = true

// groupSingle is a setp, selp or predicate op at pc that divergent groups
// take as a trace of one (its entry).
type groupSingle struct {
	pc    int32
	entry traceOp
}

// groupTraces returns, per op, the group trace that starts there (nil:
// none), made on the first call: most functions never run a divergent
// group, and a module's load need not pay for them.
func (f *Func) groupTraces() []*traceWrites {
	f.groupOnce.Do(func() {
		gt := make([]*traceWrites, len(f.Ops))
		for i := range f.Ops {
			if o := &f.Ops[i]; o.trace != nil && o.traceRegs {
				gt[i] = traceWritesOf(f, i, o.trace)
			}
		}
		for _, s := range f.groupSingles {
			gt[s.pc] = traceWritesOf(f, int(s.pc), []traceOp{s.entry})
		}
		f.groupTr = gt
	})
	return f.groupTr
}

// traceWritesOf lists the rows and predicates written by trace ops, the
// entries of f's ops from i on, or returns nil when a group may not run
// them as a trace: too many predicates, or a destination the lists cannot
// name.
func traceWritesOf(f *Func, i int, ops []traceOp) *traceWrites {
	return writesIn(f, i, i+len(ops), ops)
}

// writesIn is traceWritesOf for f's ops from up to to, whose entries are
// ops; branches (a loop trace's) write nothing.
func writesIn(f *Func, from, to int, ops []traceOp) *traceWrites {
	tw := &traceWrites{ops: ops}
	addRow := func(s int32) {
		if !slices.Contains(tw.rows, s) {
			tw.rows = append(tw.rows, s)
		}
	}
	addPred := func(p int32) {
		if !slices.Contains(tw.preds, p) {
			tw.preds = append(tw.preds, p)
		}
	}
	var dest func(a *ir.Operand) bool
	dest = func(a *ir.Operand) bool {
		switch a.Kind {
		case ir.OpReg:
			if a.Reg == nil {
				return false
			}
			if a.Reg.Type == ".pred" {
				addPred(f.slot[a.Reg.ID])
				return true
			}
			s, k := f.operandSlots(a)
			for j := range int32(k) {
				addRow(s + j)
			}
			return true
		case ir.OpPair, ir.OpVector:
			for k := range a.Elems {
				if !dest(&a.Elems[k]) {
					return false
				}
			}
			return true
		case ir.OpSink:
			return true
		}
		return false
	}
	for k := from; k < to; k++ {
		o := &f.Ops[k]
		if o.bra {
			continue
		}
		if o.inst == nil || len(o.inst.Operands) == 0 || !dest(&o.inst.Operands[0]) {
			return nil
		}
		if o.vkind != vecNone {
			addRow(o.d) // (the loop's own row, named by the operand too)
		}
	}
	if len(tw.preds) > groupTraceMaxPreds {
		return nil
	}
	return tw
}

// groupTraceMaxKeep bounds the rows live outside the group that a group
// trace may write: runGroup keeps the outside lanes' values of each
// (Warp.keep) and puts them back after it.
const groupTraceMaxKeep = 8

// runGroupTrace runs group trace tw for all lanes on behalf of the
// group mask and returns how many of its ops ran (all: register-only
// bodies never refuse), or 0 when it wrote more rows live outside the
// group than it keeps. The outside lanes' values of those rows and their
// bits of the predicates it writes are what they were before.
func (w *Warp) runGroupTrace(f *frame, tw *traceWrites, mask uint32) int {
	var k outsideKept
	if !w.keepOutside(f, tw, &k) {
		return 0
	}
	ts := w.frameContext(f) // (register-only bodies use its predicates alone)
	n := simdTrace(unsafe.Pointer(unsafe.SliceData(f.regs)), unsafe.SliceData(tw.ops), len(tw.ops), &ts.ctx)
	w.putBackOutside(f, tw, mask, &k)
	return n
}

// outsideKept is what a trace run for all lanes on behalf of a group keeps
// for the lanes outside it: which rows (their values in Warp.keep) and the
// predicates it writes.
type outsideKept struct {
	rows  [groupTraceMaxKeep]int32
	n     int
	preds [groupTraceMaxPreds]uint32
}

// keepOutside keeps, in k, the rows tw writes that are live outside the
// group, and the predicates it writes; false when more such rows than it
// keeps.
func (w *Warp) keepOutside(f *frame, tw *traceWrites, k *outsideKept) bool {
	for _, s := range tw.rows {
		if !f.deadOutside(s) {
			if k.n == len(k.rows) {
				return false
			}
			k.rows[k.n] = s
			k.n++
		}
	}
	for i, s := range k.rows[:k.n] {
		w.keep[i] = *(*lanes)(f.regs[int(s)*warpSize:])
	}
	for i, p := range tw.preds {
		k.preds[i] = f.preds[p]
	}
	return true
}

// putBackOutside gives the lanes outside the group mask their values of
// the rows and predicates keepOutside kept.
func (w *Warp) putBackOutside(f *frame, tw *traceWrites, mask uint32, k *outsideKept) {
	for i, p := range tw.preds {
		f.preds[p] = k.preds[i]&^mask | f.preds[p]&mask
	}
	if k.n > 0 {
		outside := f.active &^ mask
		for i, s := range k.rows[:k.n] {
			row := (*lanes)(f.regs[int(s)*warpSize:])
			simdSelp(row, &w.keep[i], row, outside, outside)
		}
	}
}
