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
//
// Warp-wide ld and st of global and shared memory join traces too (unguarded,
// one element of 1, 2, 4 or 8 bytes for ld, 4 or 8 for st, an address
// register, not a strong form), and so do ld.param of a kernel parameter
// by name and cvta.to.global: their bodies access memory through the
// warp's windows (Warp.tc: the CTA's shared memory, the launch's
// parameters, and per traced global op the allocation it last used),
// checking every lane first. A body that refuses its access (a lane
// outside the window or misaligned, no window yet, a generic address
// that is not a global one) stops the trace before the op, which then runs
// on the Go path: that path installs the op's window or raises the fault.

import (
	"strings"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// traceOp is one entry of simdTrace's list (the assembly reads this
// layout): the loop body's code address, the byte offsets of the
// operand rows in the frame's registers, and the immediate.
type traceOp struct {
	body       uint64
	d, a, b, c uint64
	k          uint64
}

// traceWindow is memory a trace's memory bodies access (the assembly reads
// this layout): the address of its first byte in the host (data), its
// length, its first byte's address in the kernel's space (base), and lane
// 0's last offset and step for prefetching (stride.go's rule).
type traceWindow struct {
	data       uintptr
	n          uint64
	base       uint64
	last, step uint64
}

// traceCtx is what simdTrace's bodies reach through R8 (the assembly reads
// this layout): the windows, by index: the CTA's shared memory, the
// launch's parameters, the lanes' local memories, the constant bank, then
// up to 60 global ones per warp (global ld/st beyond the 60th of a
// function stay out of traces).
type traceCtx struct {
	win [traceWindows]traceWindow
	// the predicates of the frame running the trace (setp's bodies)
	preds uintptr
	// a loop trace's state (loop_trace.go)
	loop loopState
}

// traceState is a warp's context for traces with memory bodies: the
// windows and predicates (ctx), their memory kept reachable for the
// garbage collector (data), the allocations' generation the global
// windows belong to, and the frame and CTA that ctx's predicates, shared
// memory and parameters are those of.
type traceState struct {
	ctx   traceCtx
	data  [traceWindows][]byte
	gen   uint64
	frame *frame
	cta   *cta
}

const (
	traceWindows      = 64
	sharedWindow      = 0
	paramWindow       = 1
	localWindow       = 2 // the lanes' local memories: data, and n the bytes of each (localStride)
	constWindow       = 3 // the launch's constant bank, from address 0
	firstGlobalWindow = 4
)

// traceWindowOffset is window i's byte offset in a traceCtx.
func traceWindowOffset(i uint64) uint64 {
	return i * uint64(unsafe.Sizeof(traceWindow{}))
}

// traceWindowIndex is the window at byte offset off (traceWindowOffset's
// inverse: an op's traceWin).
func traceWindowIndex(off uint64) int {
	return int(off / traceWindowOffset(1))
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
	if f.prefix < len(target) {
		target[f.prefix] = true // a reused frame starts there (prefix.go)
	}
	globals := uint64(0) // global windows handed out
	entry := func(o *Op) (traceOp, bool) {
		if o.memTrace != "" && o.guard == 0 {
			return memEntry(f, o, &globals)
		}
		if !o.plain || o.guard != 0 {
			return traceOp{}, false
		}
		return vecEntry(o)
	}
	// the runs' entries, one after the other in one slab (an op is in one
	// run at most): each run kept is its slice
	slab := make([]traceOp, 0, len(f.Ops))
	// the entries of the ops from lo on that loops span, for loop traces
	// (entry is called once per op that has one: a memory op's takes a
	// window)
	lo, hi := loopSpan(f)
	entries := make([]traceOp, max(0, hi-lo+1))
	for i := 0; i < len(f.Ops); {
		start := len(slab)
		j := i
		for ; j < len(f.Ops) && (j == i || !target[j]); j++ {
			t, ok := entry(&f.Ops[j])
			if !ok {
				break
			}
			slab = append(slab, t)
			if j >= lo && j <= hi {
				entries[j-lo] = t
			}
		}
		run := slab[start:len(slab):len(slab)]
		if len(run) >= minTrace {
			f.Ops[i].trace = run
			f.Ops[i].traceRegs = true
			for k := i; k < i+len(run); k++ {
				f.Ops[i].traceMem = f.Ops[i].traceMem || f.Ops[k].memTrace != ""
				f.Ops[i].traceRegs = f.Ops[i].traceRegs && ownRowsOnly(f.Ops[k].memTrace)
			}
		} else if len(run) == 1 && f.Ops[i].memTrace != "" && ownRowsOnly(f.Ops[i].memTrace) {
			// a setp, selp or predicate op alone: divergent groups take
			// it as a trace of one (a whole-warp loop alone they call
			// directly)
			f.groupSingles = append(f.groupSingles, groupSingle{int32(i), run[0]})
		}
		if len(run) < minTrace {
			slab = slab[:start] // (not kept: the next run's)
		}
		i = max(j, i+1)
	}
	buildLoopTraces(f, entries, lo)
}

// ownRowsOnly reports whether a trace entry of memTrace kind reads and
// writes only each lane's own registers and predicates (no memory, no
// other lane's row): a whole-warp loop's, setp's, selp's, predicate
// logic's, pack's and unpack's. Such a trace may run on lanes that are no
// threads (runConverged's wide).
func ownRowsOnly(kind string) bool {
	if kind == "" || kind == "selp" || strings.HasPrefix(kind, "mulhi") {
		return true
	}
	for _, p := range []string{"setp:", "predlogic:", "pack:", "unpack:"} {
		if strings.HasPrefix(kind, p) {
			return true
		}
	}
	return false
}

// vecEntry is the trace entry of an op with a whole-warp loop: its body
// and its rows' offsets.
func vecEntry(o *Op) (traceOp, bool) {
	if o.vkind == vecNone {
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
	return traceOp{body: body, d: offs[0], a: offs[1], b: offs[2], c: offs[3], k: o.k}, true
}

// shflEntry is the trace entry of a whole-warp shfl (its table in k; the
// collOp keeps it alive).
func shflEntry(c *collOp) (traceOp, bool) {
	body, ok := simdMemBody("shfl")
	if !ok {
		return traceOp{}, false
	}
	t := traceOp{body: body, d: uint64(c.dst) * warpSize * 8, a: uint64(c.ins[0]) * warpSize * 8, k: uint64(uintptr(unsafe.Pointer(c.shfl)))}
	if c.pdst >= 0 {
		t.c = uint64(c.pdst) * 4
	}
	return t, true
}

// memEntry is the trace entry of an op with a trace-only body (o.memTrace):
// setp and predicate logic (predicate indices), shfl, selp, cvta.to.global,
// or a warp-wide ld/st with its window (shared memory's, the parameters',
// or the next of the global ones).
func memEntry(f *Func, o *Op, globals *uint64) (traceOp, bool) {
	kind := o.memTrace
	row := func(s int32) uint64 { return uint64(s) * warpSize * 8 }
	inFrame := func(slots ...int32) bool {
		for _, s := range slots {
			if s < 0 || int(s) >= f.numSlots {
				return false
			}
		}
		return true
	}
	if strings.HasPrefix(kind, "setp:") {
		// o.a and o.b are the compared rows (swapped by setpTrace), o.d
		// the predicate
		body, ok := simdMemBody(kind)
		if !ok || !inFrame(o.a, o.b) || o.d < 0 {
			return traceOp{}, false
		}
		return traceOp{body: body, d: uint64(o.d) * 4, a: row(o.a), b: row(o.b)}, true
	}
	if strings.HasPrefix(kind, "predlogic:") {
		// o.d, o.a and o.b are predicate indices, o.k their negations
		body, ok := simdMemBody(kind)
		if !ok || o.d < 0 || o.a < 0 || o.b < 0 {
			return traceOp{}, false
		}
		return traceOp{body: body, d: uint64(o.d) * 4, a: uint64(o.a) * 4, b: uint64(o.b) * 4, k: o.k}, true
	}
	if kind == "shfl" {
		c := o.aux.(*collOp)
		if !inFrame(c.dst, c.ins[0]) {
			return traceOp{}, false
		}
		return shflEntry(c)
	}
	if kind == "selp" {
		body, ok := simdMemBody(kind)
		if !ok || !inFrame(o.d, o.a, o.b) || o.c < 0 {
			return traceOp{}, false
		}
		return traceOp{body: body, d: row(o.d), a: row(o.a), b: row(o.b), c: uint64(o.c) * 4, k: o.k}, true
	}
	if strings.HasPrefix(kind, "pack:") || strings.HasPrefix(kind, "unpack:") {
		return packEntry(f, o, kind)
	}
	if strings.HasPrefix(kind, "mulhi") {
		// a register op's body: d, a, and b or k
		body, ok := simdMemBody(kind)
		if !ok || !inFrame(o.d, o.a) || kind == "mulhiU64" && !inFrame(o.b) {
			return traceOp{}, false
		}
		t := traceOp{body: body, d: row(o.d), a: row(o.a), k: o.k}
		if kind == "mulhiU64" {
			t.b = row(o.b)
		}
		return t, true
	}
	if kind == "cvtaToGlobal" {
		body, ok := simdMemBody(kind)
		if !ok || !inFrame(o.d, o.a) {
			return traceOp{}, false
		}
		return traceOp{body: body, d: row(o.d), a: row(o.a)}, true
	}
	win := uint64(0)
	switch {
	case o.space == spaceKernelParam:
		win = paramWindow
	case o.space == mem.SpaceLocal:
		win = localWindow
	case o.space == mem.SpaceConst:
		win = constWindow
	case o.space == mem.SpaceGlobal:
		if *globals+firstGlobalWindow >= traceWindows {
			return traceOp{}, false
		}
		// loads of global memory prefetch strided rows, stores take
		// consecutive rows only (vectors: their own bodies, without)
		if !strings.HasPrefix(kind, "ldV") {
			kind += "P"
		}
		win = *globals + firstGlobalWindow
	}
	body, ok := simdMemBody(kind)
	if !ok || !inFrame(o.vec...) || o.addrBase >= 0 && !inFrame(o.addrBase) || o.addrBase < 0 && !strings.HasPrefix(kind, "ldParam") {
		return traceOp{}, false
	}
	if o.space == mem.SpaceGlobal {
		*globals++
	}
	o.traceWin = traceWindowOffset(win)
	t := traceOp{body: body, c: o.traceWin, k: o.addrConst}
	if o.addrBase >= 0 {
		t.a = row(o.addrBase)
	}
	if kind[:2] == "ld" {
		t.d = row(o.vec[0])
	} else {
		t.b = row(o.vec[0])
	}
	return t, true
}

// packEntry is the trace entry of mov's two-element pack (kind pack:W:
// d, then the elements' rows a and b) or unpack (kind unpack:W, W the
// element's width: the source a, the elements' rows d and b; unpack:Wlo
// and unpack:Whi, the one that is not a sink, d).
func packEntry(f *Func, o *Op, kind string) (traceOp, bool) {
	body, ok := simdMemBody(kind)
	if !ok || len(o.vec) != 2 {
		return traceOp{}, false
	}
	var d, a, b int32
	switch {
	case strings.HasPrefix(kind, "pack:"):
		d, a, b = o.d, o.vec[0], o.vec[1]
	case strings.HasSuffix(kind, "lo"):
		d, a, b = o.vec[0], o.a, 0
	case strings.HasSuffix(kind, "hi"):
		d, a, b = o.vec[1], o.a, 0
	default:
		d, a, b = o.vec[0], o.a, o.vec[1]
	}
	for _, s := range []int32{d, a, b} {
		if s < 0 || int(s) >= f.numSlots {
			return traceOp{}, false
		}
	}
	row := func(s int32) uint64 { return uint64(s) * warpSize * 8 }
	return traceOp{body: body, d: row(d), a: row(a), b: row(b)}, true
}

// prepareWindows readies the windows for a trace with memory bodies (the
// converged loop runs traces: simdTrace returns how many of a trace's ops
// ran, fewer than all when a memory body refused) and returns the trace's
// context: the CTA's shared memory, the launch's parameters, frame f's
// predicates, and no global window of a freed allocation.
//
//go:noinline
func (w *Warp) prepareWindows(f *frame) *traceCtx {
	ts := w.frameContext(f)
	if gen := w.cta.l.prog.global.Gen(); gen != ts.gen {
		ts.clearGlobalWindows(gen)
	}
	// the local memories (growLocal may have moved them since): the
	// bodies take a warp's access at one offset in every lane's
	// (n is one lane's bytes, not the window's)
	if lw := &ts.ctx.win[localWindow]; len(w.localBack) == 0 || uint64(len(w.localBack)) < warpSize*w.localStride {
		ts.setWindow(localWindow, nil, 0)
	} else if lw.data != uintptr(unsafe.Pointer(&w.localBack[0])) || lw.n != w.localStride {
		ts.setWindow(localWindow, w.localBack, 0)
		lw.n = w.localStride
	}
	return &ts.ctx
}

// frameContext returns the warp's trace state with frame f's predicates
// and its CTA's shared memory, parameters and constants in its context:
// what register-only bodies use (setp's predicates), and the windows
// that do not change within a frame.
func (w *Warp) frameContext(f *frame) *traceState {
	ts := w.traceState()
	if ts.frame != f || ts.cta != w.cta { // (else they are set)
		ts.ctx.preds = uintptr(unsafe.Pointer(unsafe.SliceData(f.preds)))
		ts.setWindow(sharedWindow, w.cta.shared.Data, 0)
		ts.setWindow(paramWindow, w.cta.l.params, 0)
		ts.setWindow(constWindow, w.cta.l.prog.constant.Data, 0)
		ts.frame, ts.cta = f, w.cta
	}
	return ts
}

// traceState returns the warp's trace state, allocated on first use.
func (w *Warp) traceState() *traceState {
	if w.ts == nil {
		w.ts = new(traceState)
	}
	return w.ts
}

// setWindow points window i at data, whose first byte has address base
// (an empty window when data is).
func (ts *traceState) setWindow(i int, data []byte, base uint64) {
	t := &ts.ctx.win[i]
	ts.data[i] = data
	if len(data) == 0 {
		t.data, t.n = 0, 0
		return
	}
	t.data, t.n, t.base = uintptr(unsafe.Pointer(&data[0])), uint64(len(data)), base
}

// clearGlobalWindows empties the global windows, which belong to another
// generation of the allocations than gen (one was freed since).
func (ts *traceState) clearGlobalWindows(gen uint64) {
	for i := firstGlobalWindow; i < traceWindows; i++ {
		ts.ctx.win[i] = traceWindow{}
		ts.data[i] = nil
	}
	ts.gen = gen
}

// noteWindow makes the allocation a global ld/st took on the Go path (data
// at address base, of generation gen) its trace window, unless it is
// already.
func (w *Warp) noteWindow(o *Op, data []byte, base, gen uint64) {
	if len(data) == 0 || base&7 != 0 {
		return
	}
	ts := w.traceState()
	i := traceWindowIndex(o.traceWin)
	t := &ts.ctx.win[i]
	if t.data != 0 && t.base == base && ts.gen == gen {
		return
	}
	if gen != ts.gen {
		ts.clearGlobalWindows(gen)
	}
	ts.setWindow(i, data, base)
}
