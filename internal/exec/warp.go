package exec

// A warp: 32 lanes with their own PCs (independent thread scheduling,
// docs/engine.md), running frames (one per function activation).

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/mem"
)

const warpSize = 32

// starvationLimit is how many backward branches lanes may take while other
// lanes of the warp wait for them at a reconvergence point, before the
// waiting lanes are released to run on unconverged (an intra-warp spin lock
// waiting for them would otherwise never end).
const starvationLimit = 1024

// spinLimit is starvationLimit for lanes that go round a loop that tries to
// take a lock (an atom.cas or atom.exch in its body, lockLoop) while other
// lanes of the warp wait for them: most likely the lock is one of those
// lanes', which must run to let it go (probe u_spinlock: two lanes of a
// warp on one bucket's lock spun 4000 instructions per collision before).
// A CAS loop that retries on contention (an atomic float max) rarely goes
// round 16 times; when it does, the lanes that left it go on unconverged.
const spinLimit = 16

// lockLoops marks the backward branches of f whose loops try to take a
// lock (an atom.cas or atom.exch in the body), or wait for another
// thread's write (spin-waits: at most maxSpinWait ops, strong loads and
// no writes): their spinners yield after spinLimit backward branches.
func lockLoops(f *Func) {
	for pc := range f.Ops {
		o := &f.Ops[pc]
		if !o.bra || o.target > int32(pc) {
			continue
		}
		strongLoad, acts := false, false // (acts: the loop writes, calls or waits at a barrier)
		for i := o.target; i < int32(pc); i++ {
			in := f.Ops[i].inst
			if in == nil {
				continue
			}
			if in.Opcode == "atom" && (hasMod(in, ".cas") || hasMod(in, ".exch")) {
				o.lockLoop = true
				break
			}
			switch in.Opcode {
			case "ld", "ldu":
				strongLoad = strongLoad || hasMod(in, ".volatile") || hasMod(in, ".acquire") || hasMod(in, ".relaxed")
			case "st", "atom", "red", "call", "bar", "barrier":
				acts = true
			}
		}
		// a loop that only reads memory another thread writes (a ticket
		// lock's wait for its turn, a flag): its spinners wait for
		// another lane just as a lock's do
		if strongLoad && !acts && pc-int(o.target) <= maxSpinWait {
			o.lockLoop = true
		}
	}
}

// maxSpinWait bounds the ops of a loop lockLoops takes for a spin-wait.
const maxSpinWait = 16

// spinYield is how many rounds of a spin loop (lockLoops) a converged
// warp goes before it lets the CTA's other warps run: one of them may be
// the one it waits for (probe fl_warps, warp w waiting for warp w+1, took
// a time slice, 16384 steps, per handoff).
const spinYield = 64

// sliceSteps is how many steps a warp runs before letting the CTA's other
// warps run (a warp spinning on a flag another warp sets must not starve it).
const sliceSteps = 1 << 14

// Warp is one warp of a CTA.
type Warp struct {
	cta    *cta
	id     int
	alive  uint32 // lanes that are threads of the CTA
	exited uint32 // lanes that executed exit (or returned from the kernel)
	tid    [warpSize][3]uint32
	local  [warpSize][]byte // per-thread local memory: frames of .local/.param variables
	// localBack holds the lanes' local memories, localStride bytes each
	// (local[l] is its l-th part): a warp-wide access at one address in
	// every lane is a strided one (stack.go)
	localBack   []byte
	localStride uint64
	// hasLocal: some lane's local or dyn memory has bytes (reset clears
	// them only then)
	hasLocal bool
	stack    uint64           // top of the local frame stack (same for every lane)
	dyn      [warpSize][]byte // per-thread alloca stack, ending at allocaTop
	sp       [warpSize]uint64 // per-thread alloca stack pointers
	spMoved  bool             // some lane's sp left allocaTop since reset
	frames   []*frame
	// spare is the kernel frame of the CTA this warp ran last, kept so the
	// next CTA on the worker reuses its register file and predicates
	spare *frame
	// called: frames of calls that returned, each kept for the function's
	// next call (a call per loop iteration allocated a frame each time:
	// garbage the two workers' collections then fought over)
	called []*frame
	steps  int
	fault  *Fault
	issued uint32 // lanes at the op being executed, guard true or not (collectives)
	// instructions issued (warp) and executed by lanes (thread) since the
	// cluster last collected them (LaunchStats)
	nWarp, nThread uint64
	// the global allocation of the last access (memory.go), and of the
	// one before on accessAligned's path (gBase2, gData2: each with the
	// Global's generation it was found in)
	gBase, gBase2 uint64
	gData, gData2 []byte
	gGen, gGen2   uint64
	spins         int              // rounds of spin loops the converged warp went since it last yielded (spinYield)
	offs          [warpSize]uint64 // per-lane offsets of a warp-wide access (warpWindow)
	// per load op, the last row and step of its addresses (stride.go)
	strides [strideSlots]strideState
	// the memory traces access (trace.go), allocated with the first
	// trace that needs it
	ts      *traceState
	keep    [groupTraceMaxKeep]lanes // rows' values of lanes outside a group trace's group (group_trace.go)
	sink    lanes                    // where a vector load's sink elements go
	scratch lanes                    // a whole-warp loop's results before some lanes take them (unaryVec)
	// clusterTarget is, per lane, the barrier.cluster phase its last arrive
	// completes (0: never arrived)
	clusterTarget [warpSize]uint32

	// scheduling with the CTA: the warp runs when woken, and reports back
	wake   chan struct{}
	status warpStatus
}

type warpStatus uint8

const (
	warpRunnable warpStatus = iota
	warpBlocked             // every live lane waits (barrier)
	warpDone
)

// frame is one function activation of a warp.
// (pushFrame resets a reused frame field by field: a new field needs its
// reset there too.)
type frame struct {
	fn       *Func
	regs     []uint64 // slot*32 + lane
	preds    []uint32 // lane masks
	pc       [warpSize]int32
	active   uint32             // lanes in this activation (not returned)
	returned uint32             // lanes that executed ret
	blocked  uint32             // lanes waiting at a barrier
	syncWait uint32             // lanes waiting at a warp collective (collective.go)
	arr      *[warpSize]arrival // what each waiting lane brought (allocated on first use)
	rstack   [warpSize][]int32
	rtop     [warpSize]int32  // per lane: 1 + the top of rstack, 0 when empty (pick's fast test)
	base     uint64           // offset of this frame's variables in each lane's local memory
	sp       [warpSize]uint64 // the alloca stack pointers when the frame started
	backs    int              // backward branches taken since the last fairness decision
	spinners uint32           // lanes that took the last backward branch
	spun     uint32           // lanes that took one since the last fairness decision
	// passed: the lanes that spun in this fairness cycle; favour goes to
	// the others until none is left (two groups spinning on a lock that
	// a third, at a higher PC, holds took turns for ever before)
	passed  uint32
	relAt   int32    // the reconvergence point the starvation escape released last (nextPoint)
	favor   uint32   // lanes run first until they block, finish or spin (see pick)
	callOp  *Op      // the call that made this frame (nil for the kernel)
	outLive []uint64 // runGroup: the rows live for the lanes outside its group (liveness.go)
	// conv: all active lanes are at upc (pc[] is stale), none waits or is
	// blocked; the run loop's fast path. rdepth counts reconvergence
	// points pushed and not yet popped, over all lanes.
	conv   bool
	upc    int32
	rdepth int
	// suspended: calls this frame made whose lanes were set aside
	// (suspendCall, calls.go) so that lanes outside them could go on;
	// inCall: the lanes inside them (not run here until they return)
	suspended []*frame
	inCall    uint32
	topSlices int // time slices this frame began on top (rotateCalls)
	// carry is the condition code CC.CF of 9.7.2, one bit per lane: an
	// implicit per-thread register that add.cc/addc/sub.cc/subc/mad.cc/madc
	// read and write (int_carry.go). It is not preserved across calls (the
	// manual), so each activation starts with it clear.
	carry uint32
}

func (w *Warp) top() *frame { return w.frames[len(w.frames)-1] }

// pushFrame starts fn for the lanes of mask.
func (w *Warp) pushFrame(fn *Func, mask uint32) *frame {
	if w.sp[0] == 0 {
		for l := range w.sp {
			w.sp[l] = allocaTop
		}
	}
	if s := w.spare; s != nil && s.fn == fn {
		w.spare = nil
		return w.restartFrame(s, mask)
	}
	for i := len(w.called) - 1; i >= 0; i-- {
		if s := w.called[i]; s.fn == fn {
			w.called = slices.Delete(w.called, i, i+1)
			s.sp = w.sp // (the stack pointers the call's allocations start from)
			return w.restartFrame(s, mask)
		}
	}
	f := &frame{fn: fn, active: mask, base: w.stack, sp: w.sp}
	if r, ok := fn.regPool.Get().(*[]uint64); ok {
		f.regs = *r
		clear(f.regs) // registers start at zero, as in a fresh frame
	} else {
		f.regs = make([]uint64, fn.numSlots*warpSize)
	}
	f.preds = make([]uint32, fn.numPreds)
	return w.startFrame(f, mask, false)
}

// restartFrame makes s, a finished frame of the same function (the warp's
// last kernel frame, or a returned call's), the new frame for the lanes
// of mask: the state of a fresh frame, field by field (a whole-struct
// reset would also clear pc, which the converged start leaves unread, and
// the kept slices); the registers start at zero again and the
// immediates' rows still hold them (only special registers and frame
// addresses change). s.sp stays: a kernel frame starts with every lane's
// stack pointer at allocaTop, and reset put them back there (a call's the
// caller sets). s.arr stays: collectives read only the records of waiting
// lanes, which syncWait, cleared here, names.
func (w *Warp) restartFrame(s *frame, mask uint32) *frame {
	fn := s.fn
	s.active, s.returned, s.blocked, s.syncWait = mask, 0, 0, 0
	s.suspended, s.inCall, s.topSlices = s.suspended[:0], 0, 0
	s.base, s.backs, s.spinners, s.spun, s.passed, s.relAt, s.favor, s.callOp = w.stack, 0, 0, 0, 0, 0, 0, nil
	if s.rdepth != 0 { // (else every lane's reconvergence stack is empty)
		s.rtop = [warpSize]int32{}
		for l := range s.rstack {
			s.rstack[l] = s.rstack[l][:0]
		}
	}
	s.rdepth, s.carry = 0, 0
	if fn.clearAll {
		clear(s.regs[:fn.regSlots*warpSize])
	} else { // the rows a path may read before writing (uninit.go)
		for _, r := range fn.clearRows {
			clear(s.regs[int(r)*warpSize : int(r+1)*warpSize])
		}
	}
	clear(s.preds)
	return w.startFrame(s, mask, true)
}

// startFrame fills a new frame's constant rows (with reused, a frame of the
// same function whose immediates' rows are filled already), grows the
// lanes' local memory for its variables, and makes it the warp's top frame.
func (w *Warp) startFrame(f *frame, mask uint32, reused bool) *frame {
	fn := f.fn
	w.stack += fn.frameSize
	// without variables of its own the frame's lanes need no more than
	// their caller's frame gave them
	if fn.frameSize > 0 && w.localStride < w.stack {
		w.growLocal(w.stack)
	}
	consts := fn.consts
	if reused {
		consts = fn.reuseConsts // the rows an earlier CTA left are the rest
	}
	for _, c := range consts {
		if c.slot < 0 { // a predicate constant
			if c.bits == sregMarker { // %is_explicit_cluster
				if w.cta.l.explicit {
					f.preds[-c.slot-1] = ^uint32(0)
				}
				continue
			}
			if c.bits != 0 {
				f.preds[-c.slot-1] = ^uint32(0)
			}
			continue
		}
		row := f.regs[int(c.slot)*warpSize : int(c.slot+1)*warpSize]
		if c.bits == sregMarker {
			if !reused || c.sreg.perCTA {
				w.fillSreg(c.sreg, row)
			}
			continue
		}
		if reused {
			continue
		}
		for l := range row {
			row[l] = c.bits
		}
	}
	for _, c := range fn.frameConsts {
		row := f.regs[int(c.slot)*warpSize : int(c.slot+1)*warpSize]
		for l := range row {
			row[l] = f.base + c.bits
		}
	}
	f.conv, f.upc = true, 0 // every lane starts at the first op, together
	if reused && fn.prefix > 0 {
		// the rows of the launch-invariant prefix hold what it computes
		// (prefix.go): it counts as executed
		f.upc = int32(fn.prefix)
		w.nWarp += uint64(fn.prefix)
		w.nThread += uint64(fn.prefix) * uint64(bits.OnesCount32(mask))
	}
	w.frames = append(w.frames, f)
	return f
}

func (w *Warp) popFrame() {
	f := w.top()
	w.stack = f.base
	if len(w.frames) > 1 { // (the kernel's frame: the warp is done, reset sets sp again)
		for m := f.active | f.returned; m != 0; m &= m - 1 { // the frame's lanes release their allocations
			l := bits.TrailingZeros32(m)
			w.sp[l] = f.sp[l]
		}
	}
	w.frames = w.frames[:len(w.frames)-1]
}

// run executes the warp until it finishes, blocks, faults, or uses its
// time slice; it returns whether the warp can run again.
func (w *Warp) run() warpStatus {
	w.steps = 0
	if len(w.frames) > 1 || len(w.frames) == 1 && len(w.frames[0].suspended) > 0 {
		w.rotateCalls()
	}
	slice := sliceSteps
	rng := w.cta.rng
	if rng != nil { // a perturbed schedule: short, random slices
		slice = 1 + rng.IntN(64)
	}
	for len(w.frames) > 0 {
		f := w.top()
		f.active &^= w.exited
		if f.active == 0 {
			if !w.returnFrame() {
				return warpDone
			}
			continue
		}
		var mask uint32
		var pc int32
		if f.conv {
			if w.runConverged(f, slice) {
				if w.fault != nil {
					return warpDone
				}
				return warpRunnable
			}
			// what pick would choose: a converged frame has no blocked,
			// waiting or favoured lanes (enterConv's conditions), so all
			// its lanes at upc (with a perturbed schedule pick still
			// draws its random number); the op's execution below sets the
			// lanes' PCs, which leaveConv would set first
			switch {
			case !f.conv:
				// (left diverged, its lanes' PCs set: a spin lock's
				// round that let no lane through, lockloop.go)
			case rng == nil && f.blocked|f.syncWait|f.favor == 0 && f.rdepth == 0 && f.backs < starvationLimit:
				mask, pc = f.active, f.upc
				f.conv = false
			default:
				f.leaveConv()
			}
		}
		if mask == 0 && len(f.suspended) > 0 && f.runnable() == 0 {
			// nothing runs here until a suspended call's lanes return
			w.resumeCall(f)
			continue
		}
		if mask == 0 {
			mask, pc = f.pick(rng)
		}
		if mask == 0 {
			// lanes waiting at a collective may complete now that the
			// others have exited or arrived
			if f.syncWait != 0 && w.completeSync(f) {
				continue
			}
			if w.fault != nil {
				return warpDone
			}
			return warpBlocked
		}
		if rng == nil && f.favor == 0 && f.fn.Ops[pc].plain {
			if w.runGroup(f, mask, pc, slice) {
				if w.fault != nil {
					return warpDone
				}
				return warpRunnable
			}
			if mask == f.active && f.blocked == 0 && f.syncWait == 0 && f.rdepth == 0 {
				f.enterConv(mask) // the whole activation is one group again
			}
			continue
		}
		o := &f.fn.Ops[pc]
		exec := f.guarded(o, mask)
		if !o.ends || exec != mask { // (lanes that return or exit have no next op)
			next := pc + 1
			for m := mask; m != 0; m &= m - 1 {
				f.pc[bits.TrailingZeros32(m)] = next
			}
		}
		w.issued = mask
		w.nWarp++
		w.nThread += uint64(bits.OnesCount32(exec))
		if exec != 0 || o.collective {
			o.exec(w, o, exec)
			if w.fault != nil {
				return warpDone
			}
		}
		if isControl(o) {
			f.diverged(o, mask, exec)
		}
		if w.top() == f && mask == f.active && f.blocked == 0 && f.syncWait == 0 && f.favor == 0 && f.rdepth == 0 {
			f.enterConv(mask)
		}
		w.steps++
		if w.steps >= slice {
			return warpRunnable
		}
	}
	return warpDone
}

// runConverged is the converged fast path of run: every active lane is at
// f.upc, none waits or is blocked, and plain ops and uniform branches
// cannot split them, so the loop keeps the PC, the step count and the
// instruction counters in locals. It reports true when the warp must give
// up the worker (its slice ended or it faulted), false at the first op that
// needs the general path (f.upc then names it).
func (w *Warp) runConverged(f *frame, slice int) bool {
	ops := f.fn.Ops
	active := f.active
	full := uint64(bits.OnesCount32(active))
	// wide: register-only whole-warp loops and traces may run on every
	// lane. In a kernel's frame, converged, the lanes outside active
	// exited or are no threads (a CTA of one thread, the book's
	// julia<<<grid, 1>>>): nothing reads their rows again. A called
	// function's frame keeps returned lanes' results in its rows.
	wide := active == ^uint32(0) || len(w.frames) == 1
	upc := f.upc
	steps := w.steps
	var nWarp, nThread uint64
	stop, refused := false, false
	var tail []traceOp // the rest of a trace after a refused op
	// the rows of the whole-warp loops' operands, addressed without bounds
	// checks: lowering gave every slot a row of this frame (numSlots rows)
	rows := unsafe.Pointer(unsafe.SliceData(f.regs))
	for {
		o := &ops[upc]
		if lt := o.loop; lt != nil && !refused && tail == nil && steps < slice && (active == ^uint32(0) || wide && lt.regs) {
			// the loop as one trace (loop_trace.go)
			var ctx *traceCtx
			if lt.regs {
				ctx = &w.frameContext(f).ctx
			} else {
				ctx = w.prepareWindows(f)
			}
			ran, notTaken, _, at, before := runLoopTrace(rows, lt, upc, active, slice-steps, 1<<62, ctx)
			upc = at
			nWarp += uint64(ran)
			nThread += full * uint64(ran-notTaken)
			steps += ran
			// stopped before an op of the region: it runs on the paths
			// below (a branch the lanes part at, a refused access)
			refused = before && at <= lt.end
			if steps >= slice {
				stop = true
				break
			}
			continue
		}
		if (o.trace != nil || tail != nil) && (active == ^uint32(0) || wide && o.traceRegs && tail == nil) && !refused {
			tr, mem := o.trace, o.traceMem
			if tail != nil { // right after the refused op (see below)
				tr, mem, tail = tail, true, nil
			}
			if steps+len(tr) <= slice {
				var ctx *traceCtx // (no body of a trace without mem uses it)
				if mem {
					ctx = w.prepareWindows(f)
				}
				// (trace.go; written out here: a call costs the short traces)
				n := simdTrace(rows, unsafe.SliceData(tr), len(tr), ctx)
				upc += int32(n)
				nWarp += uint64(n)
				nThread += full * uint64(n)
				steps += n
				if n < len(tr) {
					// a memory body refused its access: the op runs on
					// the Go path next, which takes it or faults, then the
					// rest of the trace
					refused = true
					if n+1 < len(tr) {
						tail = tr[n+1:]
					}
				}
				if steps >= slice {
					stop = true
					break
				}
				continue
			}
		}
		refused = false
		if o.plain {
			exec := active
			if o.guard != 0 {
				exec = f.guarded(o, active)
				nThread += uint64(bits.OnesCount32(exec))
			} else {
				nThread += full
			}
			upc++
			nWarp++
			steps++
			if exec == active && wide && o.vkind != vecNone {
				// the op's whole-warp loop, called directly (runVec, written
				// out here: the hottest loop of the engine)
				d, a := rowAt(rows, o.d), rowAt(rows, o.a)
				switch o.vkind {
				case vecK:
					o.vrk(d, a, o.k)
				case vecRR:
					o.vrr(d, a, rowAt(rows, o.b))
				case vecUnary:
					o.vu(d, a)
				default:
					o.vt(d, a, rowAt(rows, o.b), rowAt(rows, o.c))
				}
			} else if exec != 0 {
				f.upc = upc // faults and %clock-style reads see the op's position
				o.exec(w, o, exec)
				if w.fault != nil {
					stop = true
					break
				}
			}
			if steps >= slice {
				stop = true
				break
			}
			continue
		}
		if o.collective && active == ^uint32(0) {
			// a collective the whole warp completes at once (collective.go)
			// leaves it converged at the next op
			exec := f.guarded(o, active)
			if c, ok := o.aux.(*collOp); ok && exec == ^uint32(0) {
				f.upc = upc
				if c.runWhole(w, f) {
					upc++
					nWarp++
					nThread += full
					steps++
					if steps >= slice {
						stop = true
						break
					}
					continue
				}
			}
		}
		if !o.bra {
			// a brx.idx whose running lanes all hold one index (a
			// bytecode interpreter's switch): still converged, at its
			// target
			next, ok := f.uniformBrx(o, active)
			if !ok {
				break
			}
			upc = next
			nThread += full
			nWarp++
			steps++
			if steps >= slice {
				stop = true
				break
			}
			continue
		}
		taken := f.guarded(o, active) // every active lane jumps, or none does: still converged
		if taken == 0 {
			upc++
		} else if taken == active {
			upc = o.target
			nThread += full
			if o.lockLoop && o.target <= o.pc {
				// the whole warp goes round a spin loop, waiting for
				// another warp's write (a chain of warps, a queue):
				// after spinYield rounds it gives the worker to the
				// CTA's other warps rather than spin out its slice
				if w.spins++; w.spins >= spinYield {
					w.spins = 0
					nWarp++
					steps++
					stop = true
					break
				}
			}
		} else if r, nw, nt, s, ok := w.runDiamondConverged(f, o, active, taken, steps, slice); ok {
			// an if/else of straight-line sides: still converged at its
			// reconvergence point (diamond.go)
			upc, nWarp, nThread, steps = r, nWarp+nw, nThread+nt, s
			if steps >= slice || w.fault != nil {
				stop = true
				break
			}
			continue
		} else if nw, nt, ok := w.runCASLoop(f, o, active, taken, false); ok {
			// a CAS loop's lanes that go on in it, one after another to
			// its end: still converged after it (casloop.go)
			upc, nWarp, nThread, steps = o.cas.end+1, nWarp+nw, nThread+nt, steps+int(nw)
			if steps >= slice || w.fault != nil {
				stop = true
				break
			}
			continue
		} else if nw, nt, conv, ok := w.runLockRounds(f, o, active, taken); ok {
			// a spin lock's lanes in rounds, each through its critical
			// section: converged after the release, unless a round let
			// no lane through (lockloop.go: the frame is left diverged)
			nWarp, nThread, steps = nWarp+nw, nThread+nt, steps+int(nw)
			if w.fault != nil {
				stop = true
				break
			}
			if !conv {
				break // (run sees f.conv false)
			}
			upc = o.lock.rel + 1
			if steps >= slice {
				stop = true
				break
			}
			continue
		} else {
			break
		}
		nWarp++
		steps++
		if steps >= slice {
			stop = true
			break
		}
	}
	if f.conv {
		f.upc = upc
	}
	w.steps = steps
	w.nWarp += nWarp
	w.nThread += nThread
	return stop
}

// uniformBrx returns the target of brx.idx o when every lane of active
// runs it (its guard true) with one index in range of its list; false
// otherwise (its handler takes the lanes one by one, and faults for an
// index out of range).
func (f *frame) uniformBrx(o *Op, active uint32) (int32, bool) {
	ts, ok := o.aux.([]int32)
	if !ok || o.inst.Opcode != "brx" || f.guarded(o, active) != active {
		return 0, false
	}
	idx := (*lanes)(f.regs[int(o.a)*warpSize:])
	l0 := bits.TrailingZeros32(active)
	if i := uint32(idx[l0]); int(i) < len(ts) && sameInLanes(idx, active, l0) {
		return ts[i], true
	}
	return 0, false
}

// runGroup runs the lanes of mask, which pick chose at pc, through the
// plain ops that follow for as long as pick would keep choosing them
// alone: until another runnable lane's PC or one of their reconvergence
// points is reached (lanes meet there), or a non-plain op. It is the
// default schedule, step for step, without a pick per op. It reports
// true when the warp must give up the worker (slice over, or a fault).
func (w *Warp) runGroup(f *frame, mask uint32, pc int32, slice int) bool {
	limit := f.groupLimit(mask, pc)
	// the limit at the last backward branch's target: the other lanes
	// wait while the group runs, so a loop's head keeps its limit
	headPC, headLimit := int32(-1), int32(0)
	// the last forward branch that passed only points of the group's own,
	// and the limit after it
	jumpPC, jumpLimit := int32(-1), int32(0)
	// the diamond last run: nothing the group does changes the other lanes
	// or the group's reconvergence points, which let it run (the sides'
	// test depends on which lanes take the branch, but a lane's
	// reconvergence point post-dominates its PC while the group stops at
	// each of them, so none lies inside a straight-line side)
	var placed *diamond
	ops := f.fn.Ops
	n := uint64(bits.OnesCount32(mask))
	// whole-warp loops may run for every lane where the rows they write
	// are dead for the rest (liveness.go)
	allLanes := groupAllLanes && f.outsideLive(mask)
	var gts []*traceWrites // group traces (group_trace.go)
	if allLanes && groupTracesEnabled {
		gts = f.fn.groupTraces()
	}
	upc := pc
	steps := w.steps
	var nWarp, nThread uint64
	stop := false
	// loop traces (loop_trace.go): the last one looked at and whether no
	// other lane's PC nor a reconvergence point of the group's lies in its
	// region; the op a loop trace stopped before (it runs below)
	var ltSeen *loopTrace
	ltFree := false
	loopSkip := int32(-1)
	for upc < limit {
		o := &ops[upc]
		if lt := o.loop; lt != nil && gts != nil && lt.writes != nil && upc != loopSkip && lt.end < limit && steps < slice {
			if lt != ltSeen {
				ltSeen, ltFree = lt, f.groupLimit(mask, lt.start-1) > lt.end
			}
			backsLeft := 1 << 62
			others := f.active&^mask != 0
			if others {
				backsLeft = starvationLimit - f.backs
			}
			if ltFree && backsLeft > 0 {
				if ran, notTaken, backs, at, before, ok := w.runGroupLoop(f, lt, mask, upc, slice-steps, backsLeft); ok {
					upc = at
					nWarp += uint64(ran)
					nThread += n * uint64(ran-notTaken)
					steps += ran
					if backs > 0 && others {
						f.countBackwards(mask, backs)
					}
					if before && at <= lt.end {
						loopSkip = at
					}
					if steps >= slice {
						stop = true
						break
					}
					if f.backs >= starvationLimit {
						break // pick's business
					}
					continue
				}
			}
		}
		loopSkip = -1
		if gts != nil && gts[upc] != nil && upc+int32(len(gts[upc].ops)) <= limit && steps+len(gts[upc].ops) <= slice {
			// a register-only trace for all lanes (group_trace.go)
			if k := w.runGroupTrace(f, gts[upc], mask); k > 0 {
				upc += int32(k)
				nWarp += uint64(k)
				nThread += n * uint64(k)
				steps += k
				if steps >= slice {
					stop = true
					break
				}
				continue
			}
		}
		if !o.plain {
			if !o.bra || !groupBranches {
				break
			}
			// a branch every lane of the group takes, or none does: what
			// run's general path does (pc, counts, diverged's count of a
			// backward branch), without another pick, which would choose
			// this group again (its PC stays the lowest runnable one)
			taken := f.guarded(o, mask)
			if taken != 0 && taken != mask {
				nw, nt, s, ok := w.runDiamondGroup(f, o, mask, taken, steps, slice, o.dia == placed)
				if !ok {
					// a CAS loop's lanes that go on in it, one after
					// another (casloop.go), when no other lane, nor a
					// reconvergence point of the group's, lies in the loop:
					// the group goes on after it
					if o.cas == nil || f.groupLimit(mask, o.cas.start-1) <= o.cas.end {
						break
					}
					if cw, ct, cok := w.runCASLoop(f, o, mask, taken, true); cok {
						upc, nWarp, nThread, steps = o.cas.end+1, nWarp+cw, nThread+ct, steps+int(cw)
						if limit <= upc {
							limit = f.groupLimit(mask, upc)
						}
						if steps >= slice || w.fault != nil {
							stop = true
							break
						}
						continue
					}
					break // the group splits: run's general path
				}
				placed = o.dia
				// an if/else of straight-line sides, and nothing else
				// could run meanwhile: the group goes on at its
				// reconvergence point (diamond.go), as after pick's release
				upc, nWarp, nThread, steps = o.dia.r, nWarp+nw, nThread+nt, s
				switch {
				case upc <= o.pc:
					// sides that branch back (to a loop's head): below
					// the PC the limit was found from, as after a
					// backward branch
					if upc != headPC {
						headPC, headLimit = upc, f.groupLimit(mask, upc)
					}
					limit = headLimit
				case limit <= upc:
					limit = f.groupLimit(mask, upc)
				}
				// (else it stands: the lowest point above the diamond's
				// branch lies above its end too)
				if steps >= slice || w.fault != nil {
					stop = true
					break
				}
				continue
			}
			nWarp++
			steps++
			if taken == 0 {
				upc++
			} else {
				nThread += n
				upc = o.target
				if upc <= o.pc {
					if f.active&^mask != 0 {
						f.countBackward(mask)
						f.lockSpin(o)
					}
					if upc != headPC {
						headPC, headLimit = upc, f.groupLimit(mask, upc)
					}
					limit = headLimit
					if f.backs >= starvationLimit || f.waitsAt(mask, upc) {
						break // pick's business
					}
				} else if upc >= limit {
					// past a reconvergence point of its own (a loop's exit
					// point, laid out inside it), which it did not reach:
					// pick would choose the group again (the same branch
					// decides alike while the group runs)
					if o.pc == jumpPC {
						limit = jumpLimit
					} else if f.jumpedOwnPoint(mask, o.pc, upc) {
						limit = f.groupLimit(mask, upc)
						jumpPC, jumpLimit = o.pc, limit
					}
				}
			}
			if steps >= slice {
				stop = true
				break
			}
			continue
		}
		exec := mask
		if o.guard != 0 {
			exec = f.guarded(o, mask)
			nThread += uint64(bits.OnesCount32(exec))
		} else {
			nThread += n
		}
		upc++
		nWarp++
		steps++
		if o.vkind != vecNone && (exec == ^uint32(0) || allLanes && o.guard == 0 && f.deadOutside(o.d)) {
			f.runVec(o)
		} else if exec != 0 {
			o.exec(w, o, exec)
			if w.fault != nil {
				stop = true
				break
			}
		}
		if steps >= slice {
			stop = true
			break
		}
	}
	for m := mask; m != 0; m &= m - 1 {
		f.pc[bits.TrailingZeros32(m)] = upc
	}
	w.steps = steps
	w.nWarp += nWarp
	w.nThread += nThread
	return stop
}

// rowAt is register slot s's row in a frame's registers starting at rows.
func rowAt(rows unsafe.Pointer, s int32) *lanes {
	return (*lanes)(unsafe.Add(rows, uintptr(s)*(warpSize*8)))
}

// runVec runs op o's whole-warp loop (o.vkind says which) on the frame's
// registers, for a full mask: what o.exec would do, one call sooner. These
// loops compute and cannot fault.
func (f *frame) runVec(o *Op) {
	o.runVecAt(unsafe.Pointer(unsafe.SliceData(f.regs)))
}

// runVecAt runs op o's whole-warp loop on the registers starting at rows
// (a frame's, a batch's block's).
func (o *Op) runVecAt(rows unsafe.Pointer) {
	d, a := rowAt(rows, o.d), rowAt(rows, o.a)
	switch o.vkind {
	case vecK:
		o.vrk(d, a, o.k)
	case vecRR:
		o.vrr(d, a, rowAt(rows, o.b))
	case vecUnary:
		o.vu(d, a)
	default:
		o.vt(d, a, rowAt(rows, o.b), rowAt(rows, o.c))
	}
}

// groupLimit is the first PC after pc where the lanes of mask must be
// scheduled anew: the lowest PC above pc of another lane that pick could
// choose, or of a reconvergence point one of them waits for.
func (f *frame) groupLimit(mask uint32, pc int32) int32 {
	return f.limitAbove(f.active&^f.blocked&^f.syncWait&^mask, mask, pc)
}

// runnableOthers returns the lanes outside mask that pick could choose:
// not blocked, not in a collective, not waiting at a reconvergence point
// (pick passes those over while any lane can run).
func (f *frame) runnableOthers(mask uint32) uint32 {
	return f.active &^ f.blocked &^ f.syncWait &^ mask &^ f.waitingLanes()
}

// jumpedOwnPoint reports whether a forward branch of the group (mask) from
// pc to upc passed over nothing but reconvergence points of its own: no
// lane that pick could choose lies in (pc, upc] and no lane of the group
// waits at upc.
func (f *frame) jumpedOwnPoint(mask uint32, pc, upc int32) bool {
	return f.limitAbove(f.runnableOthers(mask), 0, pc) > upc && !f.waitsAt(mask, upc)
}

// rtopLimit is the lowest reconvergence point above at that a lane of mask
// waits for (groupLimit without the other lanes), or the op count.
func (f *frame) rtopLimit(mask uint32, at int32) int32 {
	return f.limitAbove(0, mask, at)
}

// limitAbove is the lowest PC above pc of a lane of others, or of a
// reconvergence point a lane of mask waits for, or the op count.
func (f *frame) limitAbove(others, mask uint32, pc int32) int32 {
	limit := int32(len(f.fn.Ops))
	if simdEnabled {
		return simdGroupLimit(&f.pc, &f.rtop, others, mask, pc, limit)
	}
	for m := others; m != 0; m &= m - 1 {
		if p := f.pc[bits.TrailingZeros32(m)]; p > pc && p < limit {
			limit = p
		}
	}
	for m := mask; m != 0; m &= m - 1 {
		if r := f.rtop[bits.TrailingZeros32(m)] - 1; r > pc && r < limit {
			limit = r
		}
	}
	return limit
}

// groupBranches: runGroup takes the branches its whole group agrees on
// (tests turn it off to compare the schedule with run's general path).
var groupBranches = true

// groupAllLanes: runGroup runs whole-warp loops for every lane where the
// rows they write are dead outside the group (tests turn it off to
// compare).
var groupAllLanes = true

// waitsAt reports whether a lane of mask has pc as its reconvergence point
// (pick holds it there).
func (f *frame) waitsAt(mask uint32, pc int32) bool {
	for m := mask; m != 0; m &= m - 1 {
		if f.rtop[bits.TrailingZeros32(m)] == pc+1 {
			return true
		}
	}
	return false
}

// guarded returns the lanes of lanes whose guard predicate holds (all of
// them for an unguarded op).
func (f *frame) guarded(o *Op, lanes uint32) uint32 {
	if o.guard == 0 {
		return lanes
	}
	g := f.preds[o.guard-1]
	if o.neg {
		g = ^g
	}
	return lanes & g
}

// enterConv switches to the fast path if every lane of mask is at one PC.
func (f *frame) enterConv(mask uint32) {
	if f.inCall != 0 {
		return // (lanes inside a suspended call sit at the op after it)
	}
	pc := f.pc[bits.TrailingZeros32(mask)]
	if simdEnabled && bits.OnesCount32(mask) >= 8 {
		// one AVX2 scan (it runs after every op of the general path)
		if at, low := lowestPC(f, mask); at == mask {
			f.conv, f.upc = true, low
			f.resetBackward()
			f.passed = 0
		}
		return
	}
	for m := mask; m != 0; m &= m - 1 {
		if f.pc[bits.TrailingZeros32(m)] != pc {
			return
		}
	}
	f.conv, f.upc = true, pc
	f.resetBackward()
	f.passed = 0
}

// leaveConv writes the converged PC back to every active lane.
func (f *frame) leaveConv() {
	for m := f.active; m != 0; m &= m - 1 {
		f.pc[bits.TrailingZeros32(m)] = f.upc
	}
	f.conv = false
}

func isControl(o *Op) bool {
	switch o.inst.Opcode {
	case "bra", "brx":
		return true
	}
	return false
}

// pick chooses the lanes to run next and their PC: lanes waiting at their
// reconvergence point are held back until the others arrive; among the
// rest the lowest PC runs first. When lanes spin (take many backward
// branches) while others could run, the others are favoured until they
// block, finish or spin themselves: an intra-warp lock holder gets out.
func (f *frame) pick(rng *rand.Rand) (uint32, int32) {
	cand := f.candidates()
	waiting := f.waitingLanes() & cand
	runnable := cand &^ waiting
	if f.favor != 0 {
		if fr := runnable & f.favor; fr != 0 {
			return lowestPC(f, fr)
		}
		f.favor = 0
	}
	if f.backs >= starvationLimit {
		spun := f.spun
		f.resetBackward()
		f.passed |= spun
		cycle := f.passed // (the lanes that spun in this cycle)
		others := runnable &^ f.passed
		if others == 0 { // every runnable lane spun: a new cycle
			f.passed = spun
			others = runnable &^ spun
			if waiting != 0 {
				// after the lanes waiting at a reconvergence point: one
				// may hold what the spinners wait for (a lock taken in a
				// loop other lanes still spin in), and spinners at
				// several PCs would otherwise favour each other for ever
				others = 0
			}
		}
		if others != 0 {
			f.favor = others
			return lowestPC(f, others)
		}
		if waiting != 0 {
			// the lanes that did not spin first: spinners whose loop
			// diverges wait at a reconvergence point inside it, below the
			// point where the lanes they may be waiting for wait, and
			// releasing the lowest would let them spin on for ever
			rel := waiting
			if w := waiting &^ spun; w != 0 {
				rel = w
			}
			// and of those, the ones that took no backward branch in the
			// whole cycle: a lane that took a lock in a loop waits at the
			// loop's exit, while the spinners go round and come back to
			// wait at the loop's head, a lower point (probe lk_try, a
			// try-lock with back-off, hung there)
			if w := rel &^ cycle; w != 0 {
				rel = w
			}
			// the points they wait at take turns, from one decision to
			// the next: a group that leaves and comes back to wait at a
			// lower point must not keep the lanes waiting at a higher one
			// (a lock's holder at its loop's exit) there for ever
			rel = f.nextPoint(rel)
			f.favor, _ = f.release(rel)
			return f.pick(rng)
		}
	}
	if runnable != 0 {
		if rng != nil { // any runnable group may go first
			return samePC(f, runnable, nthLane(runnable, rng.IntN(bits.OnesCount32(runnable))))
		}
		return lowestPC(f, runnable)
	}
	if waiting == 0 {
		return 0, 0
	}
	// Everyone still running has arrived: the waiters with the lowest
	// reconvergence point converge and go on together.
	out, r := f.release(waiting)
	// What picking again would choose, when no released lane waits at its
	// next reconvergence point: the released lanes are then the only
	// runnable ones (the rest still wait), all at r, and neither favour
	// nor the starvation count can apply (both were settled above).
	if f.waitsAt(out, r) {
		return f.pick(rng)
	}
	if rng != nil {
		rng.IntN(bits.OnesCount32(out)) // (the draw picking again makes)
	}
	return out, r
}

// candidates are the lanes pick and runnable may choose from: active, not
// blocked at a barrier or a collective, not inside a suspended call.
func (f *frame) candidates() uint32 {
	return f.active &^ f.blocked &^ f.syncWait &^ f.inCall
}

// nextPoint returns the lanes of waiting (each waiting at its
// reconvergence point, its PC) at the lowest point above the one the
// starvation escape released last (f.relAt), or at the lowest of all
// when none lies above; it records that point.
func (f *frame) nextPoint(waiting uint32) uint32 {
	var above, lowest uint32
	ra, rl := int32(math.MaxInt32), int32(math.MaxInt32)
	for m := waiting; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		pc := f.pc[l]
		if pc > f.relAt {
			switch {
			case pc < ra:
				ra, above = pc, 1<<l
			case pc == ra:
				above |= 1 << l
			}
		}
		switch {
		case pc < rl:
			rl, lowest = pc, 1<<l
		case pc == rl:
			lowest |= 1 << l
		}
	}
	if above != 0 {
		f.relAt = ra
		return above
	}
	f.relAt = rl
	return lowest
}

// countBackward counts a backward branch the lanes of mask took while
// other lanes of the frame could be waiting for them (starvationLimit).
func (f *frame) countBackward(mask uint32) { f.countBackwards(mask, 1) }

// countBackwards counts n backward branches of the lanes of mask.
func (f *frame) countBackwards(mask uint32, n int) {
	f.backs += n
	f.spinners = mask
	f.spun |= mask
}

// lockSpin, after a backward branch o counted, has the lanes that go
// round a loop that tries to take a lock (lockLoop) spinLimit times yield
// as starvationLimit would.
func (f *frame) lockSpin(o *Op) {
	if o.lockLoop && f.backs >= spinLimit {
		f.backs = max(f.backs, starvationLimit)
	}
}

// resetBackward starts the count of backward branches again.
func (f *frame) resetBackward() {
	f.backs, f.spun = 0, 0
}

// waitingLanes returns the lanes at their reconvergence point, found
// without branches (which divergent code would mispredict).
func (f *frame) waitingLanes() uint32 {
	if simdEnabled {
		return simdWaiting(&f.pc, &f.rtop)
	}
	var waiting uint32
	for l := range f.pc {
		var at uint32
		if f.rtop[l] == f.pc[l]+1 {
			at = 1
		}
		waiting |= at << l
	}
	return waiting
}

// release lets the waiting lanes of one reconvergence point r go on
// (popping it) and returns them and r: the lowest point that no active lane
// holds below the top of its stack, else the lowest. Nested points usually
// lie in PC order, the inner one lower, but a loop whose latch clang
// places before its body (a work queue's ticket atomic) has its outer
// point lower: releasing that first would send its lanes on alone while
// the others, waiting at the inner point, still hold it below theirs, and
// the warp would never meet again.
func (f *frame) release(waiting uint32) (uint32, int32) {
	r := f.innermost(waiting)
	var out uint32
	for m := waiting; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		if f.pc[l] == r && f.rtop[l] == r+1 { // (rtop: 1 + the top of rstack)
			s := f.rstack[l]
			f.rstack[l] = s[:len(s)-1]
			f.rtop[l] = 0
			if len(s) > 1 {
				f.rtop[l] = s[len(s)-2] + 1
			}
			f.rdepth--
			out |= 1 << l
		}
	}
	return out, r
}

// innermost returns the lowest reconvergence point the lanes of waiting
// wait at that no active lane holds below the top of its stack (the lowest
// when every one is held so).
func (f *frame) innermost(waiting uint32) int32 {
	_, low := lowestPC(f, waiting)
	if f.rdepth <= bits.OnesCount32(waiting) {
		return low // (no lane of those waiting holds two points; none else can hold one below its top without holding two)
	}
	for left := waiting; left != 0; {
		at, r := lowestPC(f, left)
		if !f.holdsBelowTop(r) {
			return r
		}
		left &^= at
	}
	return low
}

// holdsBelowTop reports whether an active lane holds point r below the top
// of its reconvergence stack.
func (f *frame) holdsBelowTop(r int32) bool {
	for m := f.active; m != 0; m &= m - 1 {
		s := f.rstack[bits.TrailingZeros32(m)]
		for i := 0; i+1 < len(s); i++ {
			if s[i] == r {
				return true
			}
		}
	}
	return false
}

// samePC returns the lanes of lanes at lane l's PC.
func samePC(f *frame, lanes uint32, l int) (uint32, int32) {
	pc := f.pc[l]
	var mask uint32
	for m := lanes; m != 0; m &= m - 1 {
		if j := bits.TrailingZeros32(m); f.pc[j] == pc {
			mask |= 1 << j
		}
	}
	return mask, pc
}

// nthLane returns the index of the n-th set bit of lanes.
func nthLane(lanes uint32, n int) int {
	for ; n > 0; n-- {
		lanes &= lanes - 1
	}
	return bits.TrailingZeros32(lanes)
}

func lowestPC(f *frame, lanes uint32) (uint32, int32) {
	if simdEnabled {
		return simdLowestPC(&f.pc, lanes)
	}
	best := int32(1<<31 - 1)
	var mask uint32
	for m := lanes; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		switch pc := f.pc[l]; {
		case pc < best:
			best, mask = pc, 1<<l
		case pc == best:
			mask |= 1 << l
		}
	}
	return mask, best
}

// diverged records, after a branch, that the lanes of mask split: each
// waits for the others at the branch's reconvergence point.
func (f *frame) diverged(o *Op, mask, taken uint32) {
	// count backward branches only while other lanes exist that could be
	// waiting for the spinners
	if taken != 0 && f.pc[bits.TrailingZeros32(taken)] <= o.pc && f.active&^taken != 0 {
		f.countBackward(taken)
		f.lockSpin(o)
		f.favor &^= taken
	}
	var split bool
	if o.bra { // the taken lanes at the target, the others at the next op
		split = taken != 0 && taken != mask && o.target != o.pc+1
	} else {
		first := f.pc[bits.TrailingZeros32(mask)]
		for m := mask; m != 0; m &= m - 1 {
			if f.pc[bits.TrailingZeros32(m)] != first {
				split = true
				break
			}
		}
	}
	r := f.fn.ipdom[o.pc]
	if !split || r < 0 {
		return
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		if f.rtop[l] == r+1 {
			// the lane waits at r already (a divergent loop's exit branch
			// splitting again, an if nested in an if that joins at the
			// same point): a second entry would hold it at r for one more
			// release, so that the lanes released first run on alone
			continue
		}
		f.rstack[l] = append(f.rstack[l], r)
		f.rtop[l] = r + 1
		f.rdepth++
	}
}

// returnFrame ends the top frame; it reports whether a caller continues.
func (w *Warp) returnFrame() bool {
	f := w.top()
	call := f.callOp
	w.popFrame()
	if call == nil { // the kernel returned: the warp's next CTA reuses the frame
		w.spare = f
		return false
	}
	caller := w.top()
	if cr, ok := call.aux.(*callInfo); ok {
		cr.copyResults(w, caller, f)
	}
	caller.inCall &^= f.returned | w.exited
	if len(w.called) == maxCalledFrames { // (the oldest goes: a recursion's frames do not crowd out the others)
		w.called[0].recycle()
		w.called = slices.Delete(w.called, 0, 1)
	}
	w.called = append(w.called, f)
	return true
}

// maxCalledFrames bounds the returned call frames a warp keeps: a few per
// function of a call chain, more for a recursion's.
const maxCalledFrames = 8

// recycle gives a finished frame's register file back for reuse; nothing
// may read the frame afterwards.
func (f *frame) recycle() {
	regs := f.regs
	f.regs = nil
	f.fn.regPool.Put(&regs)
}

// fail records a fault at op o for the first lane of mask.
func (w *Warp) fail(o *Op, lanes uint32, kind FaultKind, msg string) {
	if w.fault != nil {
		return
	}
	l := bits.TrailingZeros32(lanes)
	t, c := w.tid[l], w.laneCTA(l)
	w.fault = &Fault{Kind: kind, Kernel: w.cta.l.kernel.IR.Name, CTA: [3]int{int(c[0]), int(c[1]), int(c[2])},
		Thread: [3]int{int(t[0]), int(t[1]), int(t[2])}, Msg: msg}
	if o != nil {
		w.fault.Pos = o.inst.Pos
		w.fault.Inst = o.inst.Opcode + strings.Join(o.inst.Mods, "")
	}
}

// memFault records a memory fault.
func (w *Warp) memFault(o *Op, lane int, f *mem.Fault, space mem.Space) {
	kind := FaultOutOfBounds
	if f.Kind == mem.Misaligned {
		kind = FaultMisaligned
	}
	w.fail(o, 1<<lane, kind, "")
	if w.fault != nil && w.fault.Space == "" {
		w.fault.Space, w.fault.Addr, w.fault.Size = space.String(), f.Addr, f.Size
	}
}
