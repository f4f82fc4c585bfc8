package exec

// Traces: a run of consecutive whole-warp AVX2 loops (unguarded plain ops,
// which cannot fault or branch) runs in one call, simdTrace, which calls
// each loop's body in turn, instead of one dispatch from the converged
// loop and one call per op. The trace belongs to the run's first op: the
// converged loop takes it there when every lane of the warp is active and
// the trace fits in the warp's time slice, and counts its ops as it would
// count them one by one; otherwise, or when the warp arrives in the middle
// of the run (a branch target, the end of a time slice), the ops run one
// by one, to the same effect. Runs break at branch targets, so that a
// loop's body has a trace of its own.

import "unsafe"

// traceOp is one entry of simdTrace's list (the assembly reads this
// layout): the loop body's index in its table, the byte offsets of the
// operand rows in the frame's registers, and the immediate.
type traceOp struct {
	body       uint64
	d, a, b, c uint64
	k          uint64
}

// tracesEnabled lets tests compare runs with and without traces.
var tracesEnabled = true

// minTrace is the shortest run worth a trace.
const minTrace = 2

// buildTraces gives the first op of each run of AVX2 loops its trace.
func buildTraces(f *Func) {
	if !tracesEnabled {
		return
	}
	// a branch target starts a run of its own (a warp arriving there by
	// the branch takes the trace of the op it arrives at only)
	target := make([]bool, len(f.Ops))
	for i := range f.Ops {
		if t := f.Ops[i].target; t >= 0 && int(t) < len(target) {
			target[t] = true
		}
	}
	for _, t := range f.IR.Labels {
		if t >= 0 && t < len(target) {
			target[t] = true
		}
	}
	entry := func(o *Op) (traceOp, bool) {
		if !o.plain || o.guard != 0 || o.vkind == vecNone {
			return traceOp{}, false
		}
		body, ok := simdBodyOf(o.vecLoop())
		if !ok {
			return traceOp{}, false
		}
		var offs [4]uint64 // d, a, b, c (0 where the loop has none)
		for k, s := range o.vecRows() {
			offs[k] = uint64(s) * warpSize * 8
		}
		t := traceOp{body: body, d: offs[0], a: offs[1], b: offs[2], c: offs[3], k: o.k}
		return t, true
	}
	for i := 0; i < len(f.Ops); {
		var run []traceOp
		j := i
		for ; j < len(f.Ops) && (j == i || !target[j]); j++ {
			t, ok := entry(&f.Ops[j])
			if !ok {
				break
			}
			run = append(run, t)
		}
		if len(run) >= minTrace {
			f.Ops[i].trace = run
		}
		i = max(j, i+1)
	}
}

// runTrace runs op o's trace on the frame's registers.
func runTrace(rows unsafe.Pointer, o *Op) {
	simdTrace(rows, &o.trace[0], len(o.trace))
}
