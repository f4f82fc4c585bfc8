package exec

import (
	"context"
	"math/bits"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
)

// batchBlocks is how many warps a batch holds at most: enough that the
// forms' work, once per batch, is small per warp, few enough that the rows
// an op streams through stay in the second-level cache. On this project's
// machine, since loads run in front of register ops warp by warp, 256
// against 512: copy 11% slower on one worker, saxpy 7% and gridsaxpy 17%
// faster, and the three scale 1.72-1.91x on two workers against 1.51-1.84x
// (the two workers' register files share the last-level cache).
const batchBlocks = 256

// batchRun runs batches of one launch on one worker. Its register file
// holds one frame-like file per warp ("block") of the batch: block b's
// row of slot s is regs[(b*slots+s)*32:][:32].
type batchRun struct {
	pend batchPending // the batch's pending sums (batch_pending.go)
	// streaming segments (batch_segment.go): the scratch file and the
	// planner's lists
	segRegs               []uint64
	segSteps              []segStep
	segWritten, segInputs []int32
	segWrittenAt          []int32
	segSaved              []segSlot
	segTrace              []traceOp   // a segment's steps as one trace (segFuse)
	segAdvance            [][3]uint64 // its accesses' k offsets, steps and tables of steps (simdSegmentTrace)
	segTables             []warpSteps // the steps between warps of 2-D blocks (warpRows)
	// segNo: the loads where a segment's registers were found read outside
	// it, or too few ops qualified (in this launch: not planned again)
	segNo map[int32]bool
	// readRanges: the consecutive ranges the batch's loads read so far
	// (streamStore)
	readRanges [][2]uint64
	held       batchPending // earlier batches' sums, not in memory yet (keep)
	// the bytes the batch's global stores overwrote (batch_undo.go)
	undoLog   []undoEntry
	undoBytes []byte
	l         *launch
	fn        *Func
	plan      *batchPlan
	slots     int
	npred     int
	wpc       int // warps per CTA
	block     [3]int
	ctas      int // CTAs a batch of this launch takes
	// strided: a load of the launch took a cache line per lane (a
	// row-per-thread gemv). Over a batch, each op's lines leave the
	// caches before the next op reads their neighbours (A[i*n+j+1]); the
	// warp engine, warp by warp, finds them there: the worker runs the
	// rest of the launch's CTAs on it.
	strided bool
	// declined: a batch of the launch found a collective's warp not
	// whole (batch_collective.go), or dynUni branches parted warps in two
	// of its batches: the worker runs the rest of the launch's CTAs on
	// the warp engine
	declined bool
	parted   int  // batches of the launch a dynUni branch parted warps in
	probed   bool // a batch of this launch ran
	// per linear thread index of a CTA: its tid
	tid [][3]uint32
	// run: every warp's lanes are consecutive in tid.x (lane i has tid.x
	// = tid.x of lane 0 + i)
	run bool
	// segs: per warp of a CTA, its lanes that are threads as runs of
	// consecutive tid.x (one run of 32 for a run warp)
	segs [][]batchSeg

	nb       int      // warps in the current batch
	bw       []int32  // per block: its warp in its CTA
	bk       []uint64 // per block: its CTA's place in the batch (ctaid.x - x0, or ctaid.y: alongY)
	ctaLanes uint64   // lanes of a CTA that are threads
	// frames: the splits whose lanes have not all reconverged yet (split);
	// maskPool: spare per-block masks
	frames   []batchFrame
	maskPool [][]uint32
	x0       uint32
	dom      batchDomain
	cy, cz   uint32
	// alongY: the batch's CTAs are consecutive in y, not x (grids one CTA
	// wide: x0 is the first CTA's ctaid.y, ctaid.x is 0 and cy unused)
	alongY bool
	regs   []uint64
	preds  []uint32
	act    []uint32 // per block: the lanes running (not waiting at the exit)
	alive  []uint32 // per block: the lanes that are threads
	nAct   int      // blocks with running lanes
	lanes  uint64   // running lanes
	forms  []form
	hasF   []bool // the slot's form is its value
	hasR   []bool // the slot's rows hold its value
	// uniR: the slot's rows, in every block, hold uniRaw (kept across
	// batches: a kernel parameter's rows are filled once per launch)
	uniR   []bool
	uniRaw []uint64
	vtr    []vecTraceRun // vecRun's traces, by first op
	// runWritten: vecScan's and vecExec's buffer
	runWritten []int32
	// setpKnown: setpForms's answer per warp of a CTA (-1: not yet)
	setpKnown []int64
	// words: an atomic add's words (batch_atomic.go), and its buffers
	words            wordSet
	wordPtrs         []*uint32
	wordAcc, wordCur []uint32
	// (addWords64's)
	wordPtrs64           []*uint64
	wordAcc64, wordCur64 []uint64
	// combineDense's folds, per word of redWords (seen: folded into)
	dense        []uint64
	denseSeen    []bool
	denseTouched []uint32
	// folds: foldMaxOr's, held from batch to batch (heldFold)
	folds    [redMaxTargets]heldFold
	wordDone []bool
	w        Warp // runs handlers on a block's file
	cta      cta  // w's: its launch
	fr       frame
	tmp      lanes
	tmp2     lanes
	offs     lanes // lanesAccess's offsets
	unkept   bool  // the store running checked its lanes first: keep nothing (batch_undo.go)
	tailEnd  int32 // the last store of a tail of stores checked in this batch (-1: none; batch_undo.go)
	// the bounded loops this batch tried to prove, and whether it did
	// (batch_loopbound.go)
	boundTried []*boundedLoop
	boundOK    []bool

	gBase uint64
	gData []byte
	// the window before the last (window); reset with gData
	gBase2 uint64
	gData2 []byte
	// shared: the batch's CTAs' shared memories, shSize bytes each;
	// gplans: per op, its gathers' plan (sharedOffsets, globalOffsets)
	shared []byte
	shSize uint64
	gplans []*gatherPlan
	// predUni: per predicate, 0 or 1 when setp gave every lane of the
	// batch that value (-1: not known), so branches on it need no
	// per-block work
	predUni []int8
	// pfLast: per op, the first address of its last whole-batch access
	// (0: none yet), to prefetch the next one
	pfLast []uint64

	nWarp, nThread uint64
}

// getBatchRun returns a batchRun for launch l: one an earlier launch of
// the kernel with the same block shape left, when it holds enough blocks
// (its immediates' rows are filled already), or a new one.
func getBatchRun(l *launch) *batchRun {
	b := l.block
	wpc := (b[0]*b[1]*b[2] + warpSize - 1) / warpSize
	nb := batchCTAs(l.kernel, b, l.grid[0]*l.grid[1]*l.grid[2]) * wpc
	if r, ok := l.kernel.batchRuns.get(); ok && r.block == b && len(r.act) >= nb {
		r.l, r.gData, r.gData2, r.ctas, r.strided, r.declined, r.parted, r.probed = l, nil, nil, nb/wpc, false, false, 0, false
		r.cta.l = l
		r.sizeShared()
		clear(r.gplans) // (the block shape may not be all that changed)
		clear(r.segNo)
		clear(r.uniR)
		clear(r.pfLast)
		r.segTables = r.segTables[:0] // (the batches' layout may differ)
		return r
	}
	return newBatchRun(l, nb)
}

// batchCTAs is how many CTAs of block shape b a batch of kernel f takes,
// in a launch of ctas CTAs: batchBlocks warps at most, and a register
// file of batchBytes at most (one CTA at least).
func batchCTAs(f *Func, b [3]int, ctas int) int {
	wpc := (b[0]*b[1]*b[2] + warpSize - 1) / warpSize
	blocks := min(batchBlocks, batchBytes/(batchSlots(f)*warpSize*8))
	return max(1, min(blocks/wpc, ctas))
}

// batchSlots is how many rows a block's register file takes in a batch:
// f's slots, made odd. A block's file is 256 bytes a slot; with an even
// count some power of two divides the files' stride, and one register of
// every block falls in a few sets of the caches (112 slots: 7 x 4096
// bytes, every block's row in one first-level set; a tiled matmul's
// gathers ran 2.7x slower than with 115). With an odd count, the rows of
// successive blocks go round every 256-byte step of a 4 KiB page.
func batchSlots(f *Func) int { return max(1, f.numSlots) | 1 }

// batchBytes bounds a batch's register file (each worker has one, kept
// across launches): batchBlocks warps of a kernel with up to 128
// register slots.
const batchBytes = 8 << 20

// putBatchRun keeps r for a later launch.
func putBatchRun(r *batchRun) {
	r.l, r.gData, r.gData2 = nil, nil, nil
	r.fn.batchRuns.put(r)
}

func newBatchRun(l *launch, nb int) *batchRun {
	fn := l.kernel
	b := l.block
	threads := b[0] * b[1] * b[2]
	r := &batchRun{l: l, fn: fn, plan: fn.plan(), slots: batchSlots(fn), npred: fn.numPreds,
		wpc: (threads + warpSize - 1) / warpSize, block: b}
	r.ctas = nb / r.wpc
	r.tid = make([][3]uint32, r.wpc*warpSize)
	for t := range threads {
		r.tid[t] = [3]uint32{uint32(t % b[0]), uint32(t / b[0] % b[1]), uint32(t / (b[0] * b[1]))}
	}
	r.run = b[0]%warpSize == 0 || b[1]*b[2] == 1
	r.segs = make([][]batchSeg, r.wpc)
	for w := range r.segs {
		if r.run {
			r.segs[w] = []batchSeg{{0, warpSize}}
			continue
		}
		for i := 0; i < warpSize && w*warpSize+i < threads; i++ {
			t, ss := r.tid[w*warpSize+i], r.segs[w]
			if k := len(ss) - 1; k >= 0 && i > 0 {
				p := r.tid[w*warpSize+i-1]
				if t[0] == p[0]+1 && t[1] == p[1] && t[2] == p[2] {
					ss[k].n++
					continue
				}
			}
			r.segs[w] = append(ss, batchSeg{i, 1})
		}
	}
	r.regs = make([]uint64, nb*r.slots*warpSize)
	r.preds = make([]uint32, nb*r.npred)
	r.act = make([]uint32, nb)
	r.bw = make([]int32, nb)
	r.bk = make([]uint64, nb)
	r.alive = make([]uint32, nb)
	r.forms = make([]form, r.slots)
	r.hasF = make([]bool, r.slots)
	r.hasR = make([]bool, r.slots)
	r.uniR = make([]bool, r.slots)
	r.uniRaw = make([]uint64, r.slots)
	r.pfLast = make([]uint64, len(fn.Ops))
	r.sizeShared()
	r.predUni = make([]int8, r.npred)
	r.fr = frame{fn: fn}
	r.w.frames = []*frame{&r.fr}
	r.cta.l = l
	r.w.cta = &r.cta // (the atomic's handler finds global memory through it)
	// the immediates' rows, once: every batch of the launch reads them
	for _, c := range fn.consts {
		switch {
		case c.slot >= 0 && c.bits != sregMarker:
			for blk := range nb {
				fillRow(r.row(blk, c.slot), c.bits)
			}
		case c.slot >= 0 && c.sreg.name == "%laneid":
			for blk := range nb {
				for i := range warpSize {
					r.row(blk, c.slot)[i] = uint64(i)
				}
			}
		}
	}
	for blk := range nb {
		w := blk % r.wpc
		n := min(warpSize, threads-w*warpSize)
		r.alive[blk], r.bw[blk], r.bk[blk] = uint32(1<<n-1), int32(w), uint64(blk/r.wpc)
	}
	r.ctaLanes = uint64(threads)
	return r
}

// sizeShared gives each CTA of a batch its shared memory (the module's
// variables and the launch's dynamic part), zeroed by runBatch as a new
// CTA's is.
func (r *batchRun) sizeShared() {
	r.shSize = r.l.prog.dynShared + r.l.dynShared
	if n := uint64(r.ctas) * r.shSize; uint64(len(r.shared)) < n {
		r.shared = make([]byte, n)
	}
}

// ctasPerBatch is how many CTAs a batch takes.
func (r *batchRun) ctasPerBatch() int {
	n := r.ctas
	if c := int(r.fn.batchCap.Load()); c > 0 {
		n = min(n, c)
	}
	if !r.probed { // a small first batch finds strided loads early
		return max(1, min(n, probeBlocks/r.wpc))
	}
	return n
}

// probeBlocks is how many warps a worker's first batch of a launch holds
// at most (see strided).
const probeBlocks = 32

func (r *batchRun) row(blk int, s int32) *lanes {
	i := (blk*r.slots + int(s)) * warpSize
	return (*lanes)(r.regs[i : i+warpSize])
}

func (r *batchRun) pred(blk int, p int32) *uint32 { return &r.preds[blk*r.npred+int(p)] }

// guardOf is the lanes of block blk whose guard of op o is true.
func (r *batchRun) guardOf(o *Op, blk int) uint32 {
	if o.guard == 0 {
		return ^uint32(0)
	}
	g := *r.pred(blk, o.guard-1)
	if o.neg {
		g = ^g
	}
	return g
}

// runBatch runs CTAs x0 .. x0+n-1 of grid row (cy, cz); it reports false
// when they must run again on the warp engine, with nothing counted: a
// fault, a cancelled launch, a dynUni branch that parted a warp, a
// collective whose warp was not whole, an access or atomic or ld.param the
// batch does not model at the addresses it found.
func (r *batchRun) runBatch(ctx context.Context, x0, n int, cy, cz uint32) bool {
	ok := r.runOps(ctx, x0, n, cy, cz)
	if afterBatchOps != nil {
		afterBatchOps()
	}
	if ok {
		r.pend.keep(&r.held) // (batch_pending.go)
		r.forget()
	} else {
		r.pend.drop()
		r.rollback() // (batch_undo.go)
	}
	return ok
}

// afterBatchOps, when set (tests), runs after a batch's ops, before its
// pending sums are added or dropped.
var afterBatchOps func()

// runOps is runBatch's work: the ops, from the first to the exit.
func (r *batchRun) runOps(ctx context.Context, x0, n int, cy, cz uint32) bool {
	r.nb, r.x0, r.cy, r.cz = n*r.wpc, uint32(x0), cy, cz
	r.tailEnd = -1
	r.boundTried, r.boundOK = r.boundTried[:0], r.boundOK[:0]
	clear(r.shared[:uint64(n)*r.shSize])
	r.probed = true
	b := r.l.block
	r.dom = batchDomain{lo: [4]int64{0, 0, 0, int64(x0)}, n: [4]int64{int64(b[0]), int64(b[1]), int64(b[2]), int64(n)}}
	copy(r.act[:r.nb], r.alive[:r.nb])
	r.lanes = uint64(n) * r.ctaLanes
	r.nAct = r.nb
	clear(r.preds[:r.nb*r.npred])
	for i := range r.predUni {
		r.predUni[i] = -1
	}
	for s := range r.slots {
		r.forms[s], r.hasF[s], r.hasR[s] = form{}, true, false
	}
	for _, c := range r.fn.consts {
		switch {
		case c.slot < 0: // a predicate constant
			if c.bits != 0 && c.bits != sregMarker {
				for blk := range r.nb {
					*r.pred(blk, -c.slot-1) = ^uint32(0)
				}
			}
		case c.bits == sregMarker && c.sreg.name == "%laneid":
			// (not affine in the thread indices: rows, filled once)
			r.hasF[c.slot], r.hasR[c.slot] = false, true
		case c.bits == sregMarker:
			r.forms[c.slot] = r.sregForm(c.sreg)
		default:
			r.forms[c.slot], r.hasR[c.slot] = uniformRaw(c.bits), true
		}
	}
	r.gData, r.gData2 = nil, nil
	r.readRanges = r.readRanges[:0]
	r.nWarp, r.nThread = 0, 0
	ops := r.fn.Ops
	plan := r.plan
	backs := 0
	r.frames = r.frames[:0]
	for pc := int32(0); ; {
		for n := len(r.frames); n > 0 && pc == r.frames[n-1].join; n = len(r.frames) {
			pc = r.arrive() // a group reached its reconvergence point
		}
		if len(r.frames) > 0 {
			r.meetTaken(pc)
		}
		o := &ops[pc]
		switch plan.kind[pc] {
		case bkExit:
			// every warp issues the exit once, with all its threads: the
			// warp engine pushes it as a reconvergence point on the stack
			// of every lane of a branch that splits, unless the lane waits
			// for it already (warp.go's diverged), so the lanes that left
			// and those that arrive now are released together (a warp's
			// lanes that all left at once, before any split, left no
			// others behind)
			r.nWarp += uint64(r.nb)
			r.nThread += uint64(r.nb/r.wpc) * r.ctaLanes
			return true
		case bkBra:
			if o.guard == 0 {
				r.countAll()
				if o.target <= pc {
					if backs++; backs&255 == 0 && ctx.Err() != nil {
						return false
					}
				}
				pc = o.target
				continue
			}
			var next int32
			if plan.toExit[pc] {
				next = r.branch(o, pc)
			} else if next = r.split(o, pc); next < 0 {
				// (twice in a launch: its other batches would part too)
				r.parted++
				r.declined = r.parted >= 2
				return false
			}
			if next <= pc {
				if backs++; backs&255 == 0 && ctx.Err() != nil {
					return false
				}
			}
			pc = next
			continue
		case bkParam:
			if !r.param(o) {
				return false
			}
		case bkForm:
			// (inside a split a form would be every lane's value: only for
			// a register no other lane reads)
			if !r.formSafe(pc) || !r.formOp(pc, o) {
				if n := r.vecRun(pc); n > 0 {
					pc += n
					continue
				}
				r.regOp(pc, o)
			}
		case bkBar:
			// every thread of the batch's CTAs is here (batch.go's rule for
			// barriers): the op-by-op order has run all their earlier ops
			r.countAll()
		case bkColl:
			if n := r.vecRun(pc); n > 0 {
				pc += n
				continue
			}
			if !r.collective(pc, o) {
				r.declined = true // (the launch's other batches would too)
				return false
			}
		case bkAtom:
			if plan.pendingAtoms && !r.atomicPending(pc, o) || !plan.pendingAtoms && !r.atomic(pc, o) {
				return false
			}
		case bkReg:
			if n := r.vecRun(pc); n > 0 {
				pc += n
				continue
			}
			r.regOp(pc, o)
		case bkLoad:
			if n := r.segment(pc); n > 0 {
				pc += n
				continue
			}
			skip, ok := r.access(pc, o, false)
			if !ok {
				return false
			}
			pc += skip
		case bkStore:
			if !r.store(pc, o) { // (batch_undo.go)
				return false
			}
		}
		pc++
	}
}

// sregForm is a special register's form in the batch.
func (r *batchRun) sregForm(s *sregRef) form {
	l := r.l
	switch s.name {
	case "%tid":
		f := form{bits: 32}
		f.c[s.ci] = 1
		return f
	case "%ntid":
		return uniformRaw(uint64(l.block[s.ci]))
	case "%nctaid":
		return uniformRaw(uint64(l.grid[s.ci]))
	}
	// %ctaid: the batch's axis varies by CTA (the form's fourth term)
	switch {
	case s.ci == 0 && !r.alongY, s.ci == 1 && r.alongY:
		return form{c: [4]uint64{0, 0, 0, 1}, bits: 32}
	case s.ci == 0:
		return uniformRaw(0)
	case s.ci == 1:
		return uniformRaw(uint64(r.cy))
	}
	return uniformRaw(uint64(r.cz))
}

// countAll counts an unguarded op in every block with running lanes.
func (r *batchRun) countAll() {
	r.nWarp += uint64(r.nAct)
	r.nThread += r.lanes
}

// branch runs a guarded branch, whose exit side the lanes that go there
// take to wait; it returns the next PC of the lanes that still run.
func (r *batchRun) branch(o *Op, pc int32) int32 {
	toExit := o.target == r.plan.exit
	if u := r.predUni[o.guard-1]; u >= 0 {
		// every lane alike
		r.nWarp += uint64(r.nAct)
		if all := u == 1 != o.neg; all {
			r.nThread += r.lanes
			if !toExit {
				return o.target
			}
		} else if toExit || r.plan.viaBra[pc] {
			return pc + 1 // (viaBra: the bra to the exit runs as usual)
		}
		return r.plan.exit // every lane leaves (the exit counts them)
	}
	viaBra := r.plan.viaBra[pc]
	nAct, lanes := 0, uint64(0)
	for blk := range r.nb {
		a := r.act[blk]
		if a == 0 {
			continue
		}
		taken := a & r.guardOf(o, blk)
		r.nWarp++
		r.nThread += uint64(bits.OnesCount32(taken))
		stay := a &^ taken
		if !toExit {
			stay = a & taken
		}
		if stay != a {
			if viaBra { // the leaving lanes' bra to the exit
				r.nWarp++
				r.nThread += uint64(bits.OnesCount32(a &^ stay))
			}
		}
		a = stay
		r.act[blk] = a
		if a != 0 {
			nAct++
			lanes += uint64(bits.OnesCount32(a))
		}
	}
	r.nAct, r.lanes = nAct, lanes
	switch {
	case nAct == 0:
		return r.plan.exit
	case toExit:
		return pc + 1
	}
	return o.target
}

// A batchFrame is a split's reconvergence point (join): the lanes that
// arrived there so far, per block, and the taken side's lanes (per block)
// still to run there from the branch's target (nil once they run).
type batchFrame struct {
	join    int32
	arrived []uint32
	target  int32
	taken   []uint32
}

// split runs a guarded branch that reconverges before the exit: when it
// splits the running lanes, the fall-through lanes run on and the taken
// ones wait in a frame at the reconvergence point (the warp engine runs
// the lower PC first; the order of the groups changes neither the
// registers nor, without races, memory, nor the counts). It returns the
// next PC, or -1 when a branch that must split whole warps (dynUni) parts
// the lanes of one.
func (r *batchRun) split(o *Op, pc int32) int32 {
	if u := r.predUni[o.guard-1]; u >= 0 {
		r.nWarp += uint64(r.nAct)
		if u == 1 != o.neg { // every lane alike
			r.nThread += r.lanes
			return o.target
		}
		return pc + 1
	}
	taken := r.masks()
	anyTaken, anyFall := false, false
	dyn := r.plan.dynUni[pc]
	for blk := range r.nb {
		a, g := r.issue(o, blk)
		taken[blk] = a & g
		anyTaken = anyTaken || a&g != 0
		anyFall = anyFall || a&^g != 0
		if dyn && a&g != 0 && a&g != a {
			r.putMasks(taken)
			return -1 // a warp's lanes part: not a split of whole warps
		}
	}
	switch {
	case !anyTaken:
		r.putMasks(taken)
		return pc + 1
	case !anyFall:
		r.putMasks(taken)
		return o.target
	}
	arrived := r.masks()
	clear(arrived)
	for blk := range r.nb {
		r.act[blk] &^= taken[blk]
	}
	r.recount()
	r.frames = append(r.frames, batchFrame{join: r.fn.ipdom[pc], arrived: arrived, target: o.target, taken: taken})
	return pc + 1
}

// arrive records the running lanes at the top frame's reconvergence
// point and returns where to go on: the next group waiting to run, or,
// when all have arrived, the point itself with every lane.
func (r *batchRun) arrive() int32 {
	f := &r.frames[len(r.frames)-1]
	for blk := range r.nb {
		f.arrived[blk] |= r.act[blk]
	}
	if f.taken != nil {
		copy(r.act[:r.nb], f.taken)
		r.putMasks(f.taken)
		f.taken = nil
		r.recount()
		return f.target
	}
	copy(r.act[:r.nb], f.arrived)
	r.putMasks(f.arrived)
	join := f.join
	r.frames = r.frames[:len(r.frames)-1]
	r.recount()
	return join
}

// meetTaken merges into the running lanes the taken lanes of every split
// whose target is pc and whose taken side has not run: the group ran into
// the label they wait at, where the warp engine's lanes meet at one PC and
// go on together (clang's `if (ty == 0) goto L; if (ty != 15) goto J; ...;
// L: ...` in Rodinia's hotspot: the code from L then issues once per
// warp, as the warp engine counts it).
func (r *batchRun) meetTaken(pc int32) {
	for i := range r.frames {
		f := &r.frames[i]
		if f.taken == nil || f.target != pc {
			continue
		}
		for blk := range r.nb {
			r.act[blk] |= f.taken[blk]
		}
		r.putMasks(f.taken)
		f.taken = nil
		r.recount()
	}
}

// formSafe reports whether the register that op pc writes may hold a form
// (one value for every lane of the batch) though pc runs inside splits,
// where only some lanes run: its reads all lie after pc and before the
// innermost split's join (localIn: the lanes that run on there are the
// ones that wrote it), and no split's lanes still to run (a frame's taken
// side, from its target to its join) can reach one of them. (Rodinia's
// hotspot: `if (ty == 0) goto L; if (ty != 15) goto J; base = row 17; L:
// tile[base + tx] = ...`: the ty == 15 lanes' form for base was read by
// the ty == 0 lanes, which run from L later, and their halo went to row
// 17.)
func (r *batchRun) formSafe(pc int32) bool {
	n := len(r.frames)
	if n == 0 {
		return true
	}
	if !r.plan.localIn(pc, r.frames[n-1].join) {
		return false
	}
	first, last := r.plan.readsFirst[pc], r.plan.readsLast[pc]
	if first < 0 {
		return true
	}
	for i := range r.frames {
		if f := &r.frames[i]; f.taken != nil && first < f.join && last >= f.target {
			return false
		}
	}
	return true
}

// masks returns a per-block mask slice from the pool.
func (r *batchRun) masks() []uint32 {
	if n := len(r.maskPool); n > 0 {
		m := r.maskPool[n-1]
		r.maskPool = r.maskPool[:n-1]
		return m[:r.nb]
	}
	return make([]uint32, r.nb, len(r.act))
}

func (r *batchRun) putMasks(m []uint32) { r.maskPool = append(r.maskPool, m) }

// recount sets nAct and lanes from act.
func (r *batchRun) recount() {
	r.nAct, r.lanes = 0, 0
	for _, a := range r.act[:r.nb] {
		if a != 0 {
			r.nAct++
			r.lanes += uint64(bits.OnesCount32(a))
		}
	}
}

// param runs ld.param of a kernel parameter (a scalar or a vector):
// uniform values.
func (r *batchRun) param(o *Op) bool {
	p, n := r.l.params, uint64(o.size)
	whole := n * uint64(len(o.vec)) // (a vector's alignment is its size)
	if addr := o.addrConst; addr&(whole-1) != 0 || whole > uint64(len(p)) || addr > uint64(len(p))-whole {
		return false
	}
	r.countAll()
	for k, d := range o.vec {
		if d < 0 {
			continue // a sink
		}
		addr := o.addrConst + uint64(k)*n
		v := extend(mem.Load(p[addr:addr+n]), o.typ, o.size*8)
		if len(r.frames) > 0 && !(len(o.vec) == 1 && r.formSafe(o.pc)) { // only the running lanes' rows
			r.materialize(d)
			for blk := range r.nb {
				row := r.row(blk, d)
				for m := r.act[blk]; m != 0; m &= m - 1 {
					row[bits.TrailingZeros32(m)] = v
				}
			}
			r.wroteRows(d)
			continue
		}
		r.forms[d], r.hasF[d], r.hasR[d] = uniformRaw(v), true, false
	}
	return true
}

// formOf returns slot s's form, if it has one.
func (r *batchRun) formOf(s int32) (form, bool) {
	if s < 0 || !r.hasF[s] {
		return form{}, false
	}
	return r.forms[s], true
}

// formOp computes an integer op's result as a form, when its operands
// are forms and the result is one; false leaves the op to regOp.
func (r *batchRun) formOp(pc int32, o *Op) bool {
	var src [3]form // (a bkForm op is pure: planBatch)
	for i, s := range []int32{o.a, o.b, o.c}[:o.nsrc] {
		f, ok := r.formOf(s)
		if !ok {
			return false
		}
		src[i] = f
	}
	fi := &r.plan.form[pc]
	w, sext := fi.bits, r.plan.sext[pc]
	var res form
	var ok bool
	switch fi.op {
	case fMov:
		res, ok = src[0].lin(w)
	case fAdd, fSub:
		a, ok1 := src[0].lin(w)
		b, ok2 := src[1].lin(w)
		if fi.op == fSub {
			b = b.scale(^uint64(0))
		}
		res, ok = a.add(b), ok1 && ok2
	case fNeg:
		var a form
		a, ok = src[0].lin(w)
		res = a.scale(^uint64(0))
	case fNot:
		var a form
		a, ok = src[0].lin(w)
		res = a.scale(^uint64(0)).add(form{base: ^uint64(0)})
	case fShl:
		var a form
		a, ok = src[0].lin(w)
		ok = ok && src[1].uniform()
		if k := uint64(uint32(src[1].raw())); k >= uint64(w) {
			res = form{}
		} else {
			res = a.scale(1 << k)
		}
	case fMul, fMad, fMulWide:
		a, b := src[0], src[1]
		if !a.uniform() {
			a, b = b, a
		}
		if !a.uniform() {
			return false
		}
		if fi.op == fMulWide {
			k, _ := a.widen(fi.signed, &r.dom)
			var x form
			x, ok = b.widen(fi.signed, &r.dom)
			res = x.scale(k.base)
			break
		}
		k, _ := a.lin(w)
		var x form
		x, ok = b.lin(w)
		res = x.scale(k.base)
		if fi.op == fMad {
			c, ok2 := src[2].lin(w)
			res, ok = res.add(c), ok && ok2
		}
	case fMin, fMax:
		res, ok = r.clampForm(fi, w, src[0], src[1])
	case fCvt:
		if fi.widen {
			res, ok = src[0].widen(fi.signed, &r.dom)
		} else {
			res, ok = src[0].lin(fi.srcBits)
		}
	}
	if !ok {
		return false
	}
	d := o.d
	r.forms[d], r.hasF[d], r.hasR[d] = res.typed(w, sext), true, false
	r.countAll()
	return true
}

// selpForm runs selp o whose predicate every lane of the batch holds
// alike and whose chosen operand is a form of the type's width: the
// destination is that form (a clamped index, i > 0 ? i - 1 : 0, past the
// batch that holds i = 0).
func (r *batchRun) selpForm(o *Op) bool {
	t, ok := parseInt(typeOf(o.inst))
	u := r.predUni[o.c]
	if !ok || u < 0 {
		return false
	}
	pick := o.b
	if (u == 1) != (o.k != 0) { // (o.k: the predicate complemented)
		pick = o.a
	}
	f, ok := r.formOf(pick)
	if !ok || int(f.bits) != t.bits && !f.uniform() {
		return false
	}
	r.forms[o.d], r.hasF[o.d], r.hasR[o.d], r.uniR[o.d] = f, true, false, false
	r.countAll()
	return true
}

// clampForm is min or max (fi) of forms a and b of width w when one is
// uniform and every value the other takes over the batch lies on one side
// of it: that form, or the uniform value (false otherwise: rows).
func (r *batchRun) clampForm(fi *formInfo, w int, a, b form) (form, bool) {
	if a.uniform() {
		a, b = b, a
	}
	if !b.uniform() || a.uniform() {
		return form{}, false
	}
	lo, hi, ok := a.span(w, fi.signed, &r.dom)
	if !ok {
		return form{}, false
	}
	k := b.raw() // (as span gives values: 32 bits extended as the type is)
	if w == 32 && fi.signed {
		k = uint64(int64(int32(k)))
	} else if w == 32 {
		k &= 0xffffffff
	}
	less := func(x, y uint64) bool {
		if fi.signed {
			return int64(x) < int64(y)
		}
		return x < y
	}
	above, below := !less(lo, k), !less(k, hi) // every value >= k; every value <= k
	switch {
	case fi.op == fMax && above, fi.op == fMin && below:
		return a.lin(w)
	case fi.op == fMax && below, fi.op == fMin && above:
		return b.lin(w)
	}
	return form{}, false
}

// forgetPreds marks the predicates instruction in writes (its first
// operand: p, or p|q) as no longer known alike in every lane.
func (r *batchRun) forgetPreds(in *ir.Inst) {
	d := in.Operands[0]
	switch {
	case d.Kind == ir.OpReg && d.Reg != nil:
		r.predUni[r.fn.slot[d.Reg.ID]] = -1
		return
	case d.Kind == ir.OpPair:
		for _, e := range d.Elems {
			if e.Kind == ir.OpReg && e.Reg != nil {
				r.predUni[r.fn.slot[e.Reg.ID]] = -1
			}
		}
		return
	}
	for i := range r.predUni {
		r.predUni[i] = -1
	}
}

// predLogic runs and/or/xor/not on predicates that every lane of the
// batch holds alike (predUni): the result is alike too.
func (r *batchRun) predLogic(o *Op) bool {
	in := o.inst
	if o.typ != ".pred" || in.Operands[0].Kind != ir.OpReg {
		return false
	}
	var v [2]bool
	srcs := in.Operands[1:]
	if len(srcs) > 2 {
		return false
	}
	for i, a := range srcs {
		if a.Kind != ir.OpReg || a.Reg == nil {
			return false
		}
		u := r.predUni[r.fn.slot[a.Reg.ID]]
		if u < 0 {
			return false
		}
		v[i] = (u == 1) != a.Negate
	}
	var res bool
	switch in.Opcode {
	case "and":
		res = v[0] && v[1]
	case "or":
		res = v[0] || v[1]
	case "xor":
		res = v[0] != v[1]
	case "not":
		res = !v[0]
	default:
		return false
	}
	p := r.fn.slot[in.Operands[0].Reg.ID]
	var word uint32
	var u int8
	if res {
		word, u = ^uint32(0), 1
	}
	for blk := range r.nb {
		if r.act[blk] != 0 {
			*r.pred(blk, p) = word
		}
	}
	r.predUni[p] = u
	r.countAll()
	return true
}

// wroteRows marks slot s as held by its rows alone, which an op wrote
// lane by lane: no form, no row value known to be uniform.
func (r *batchRun) wroteRows(s int32) {
	r.hasF[s], r.hasR[s], r.uniR[s] = false, true, false
}

// materialize writes slot s's form into its rows.
func (r *batchRun) materialize(s int32) {
	if r.hasR[s] {
		return
	}
	f := r.forms[s]
	r.hasR[s] = true
	if f.uniform() {
		v := f.raw()
		if !r.uniR[s] || r.uniRaw[s] != v {
			for blk := range r.act {
				fillRow(r.row(blk, s), v)
			}
			r.uniR[s], r.uniRaw[s] = true, v
		}
		return
	}
	r.uniR[s] = false
	// (2-D blocks: the AVX2 loop of the form's add, sums truncated again
	// as the form is; z_heat spent a fifth of its time in the Go loops)
	key := "add.64"
	if f.bits == 32 && f.sext {
		key = "add.s32"
	} else if f.bits == 32 {
		key = "add.z32"
	}
	addK, _ := simdBinary(key)
	for blk := range r.nb {
		// (blocks with lanes waiting in a split's frame too, which act
		// does not show; only blocks whose lanes all left could be skipped)
		if r.alive[blk] == 0 {
			continue
		}
		row := r.row(blk, s)
		if w := int(r.bw[blk]); !r.run && blk >= r.wpc && r.alive[w] != 0 {
			// (2-D blocks, whose rows formRow builds run by run): the same
			// warp of the batch's first CTA plus the CTA's term, truncated
			// again as the form is (the low 32 bits of a sum are those of
			// the sum of the low 32 bits)
			first, d := r.row(w, s), f.c[3]*r.bk[blk]
			switch { // (norm's cases, outside the loops)
			case addK.rk != nil:
				addK.rk(row, first, d)
			case f.bits != 32:
				for i := range row {
					row[i] = first[i] + d
				}
			case f.sext:
				for i := range row {
					row[i] = uint64(int64(int32(first[i] + d)))
				}
			default:
				for i := range row {
					row[i] = uint64(uint32(first[i] + d))
				}
			}
			continue
		}
		r.formRow(f, blk, row)
	}
}

// materializeSrcs writes out the forms of the registers op pc reads
// (plan.srcs) into their rows, for its handler.
func (r *batchRun) materializeSrcs(pc int32) {
	for _, s := range r.plan.srcs[pc] {
		r.materialize(s)
	}
}

// formRow writes form f's values in block blk's lanes into row.
func (r *batchRun) formRow(f form, blk int, row *lanes) {
	if f.uniform() {
		fillRow(row, f.raw())
		return
	}
	w := int(r.bw[blk])
	if r.run {
		v := r.segFirst(&f, blk, batchSeg{0, warpSize})
		if f.bits == 64 && simdEnabled {
			batchIota(row, v, f.c[0])
			return
		}
		if v32 := uint64(uint32(v)); f.bits == 32 && simdEnabled && f.c[0] < 1<<31 {
			// a 32-bit form whose lanes do not wrap (nor, sign-extended,
			// cross 2^31): its values as they are (a thread index)
			if end := v32 + (warpSize-1)*f.c[0]; end < 1<<31 || !f.sext && end < 1<<32 {
				batchIota(row, v32, f.c[0])
				return
			}
		}
		for i := range row {
			row[i] = f.norm(v)
			v += f.c[0]
		}
		return
	}
	for _, sg := range r.segs[w] {
		v, c, seg := r.segFirst(&f, blk, sg), f.c[0], row[sg.lane:sg.lane+sg.n]
		switch { // (norm's cases, outside the loops)
		case f.bits != 32:
			for i := range seg {
				seg[i] = v
				v += c
			}
		case f.sext:
			for i := range seg {
				seg[i] = uint64(int64(int32(v)))
				v += c
			}
		default:
			for i := range seg {
				seg[i] = uint64(uint32(v))
				v += c
			}
		}
	}
}

// regDest returns the register op o writes (not a predicate): its first
// slot and how many; -1 and 0 for none.
func (r *batchRun) regDest(o *Op) (int32, int) {
	if d := &o.inst.Operands[0]; d.Kind == ir.OpReg && d.Reg != nil && d.Reg.Type != ".pred" {
		return r.fn.operandSlots(d)
	}
	return -1, 0
}

// uniformOp runs register op o, which writes ndst slots from dst, once
// when every lane would compute the same (unguarded, one destination,
// uniform forms in): one block's worth, the result a uniform form.
func (r *batchRun) uniformOp(o *Op, dst int32, ndst int) bool {
	if o.guard != 0 || ndst != 1 || !o.pure && o.vkind != vecUnary || !r.uniformIn(o, func(int32) bool { return false }) {
		return false
	}
	blk := 0
	for _, s := range []int32{o.a, o.b, o.c}[:max(1, o.nsrc)] {
		v := r.forms[s].raw()
		fillRow(r.row(blk, s), v)
		r.uniR[s] = r.uniR[s] && r.uniRaw[s] == v
	}
	r.uniR[dst] = false
	r.fr.regs = r.regs[:r.slots*warpSize]
	r.fr.preds = r.preds[:r.npred]
	o.exec(&r.w, o, ^uint32(0))
	v := r.row(blk, dst)[0]
	r.forms[dst], r.hasF[dst], r.hasR[dst] = uniformRaw(v), true, false
	r.countAll()
	return true
}

// A batchSeg is a run of lanes of a warp whose tid.x are consecutive:
// lanes lane to lane+n-1.
type batchSeg struct{ lane, n int }

// segFirst is form f's value in segment sg's first lane of block blk,
// before normalisation (the segment's lanes follow at steps of c[0]).
func (r *batchRun) segFirst(f *form, blk int, sg batchSeg) uint64 {
	t := &r.tid[int(r.bw[blk])*warpSize+sg.lane]
	return f.base + f.c[0]*uint64(t[0]) + f.c[1]*uint64(t[1]) + f.c[2]*uint64(t[2]) + f.c[3]*(uint64(r.x0)+r.bk[blk])
}

// regOp runs a register-only op through its handler, block by block, on
// rows (setp on forms compares them directly).
func (r *batchRun) regOp(pc int32, o *Op) {
	in := o.inst
	split := len(r.frames) > 0 // (lanes of other groups keep their values)
	if in.Opcode == "setp" && !split && r.setpForms(o) {
		return
	}
	dst, ndst := r.regDest(o)
	if dst < 0 && o.guard == 0 && !split && r.predLogic(o) {
		return
	}
	if dst < 0 {
		r.forgetPreds(in) // (the predicates it writes)
	}
	if in.Opcode == "selp" && o.guard == 0 && !split && ndst == 1 && r.selpForm(o) {
		return
	}
	if !split && r.uniformOp(o, dst, ndst) {
		return
	}
	r.materializeSrcs(pc)
	if o.guard != 0 || split {
		for k := range int32(ndst) {
			r.materialize(dst + k) // the lanes that do not run keep their value
		}
	}
	if o.guard == 0 && o.vkind != vecNone && ndst == 1 && dst == o.d && r.threadsRun() {
		// every lane: the whole-warp loop over every block, the rows a
		// register file apart
		r.countAll()
		r.vecAll(o)
		r.wroteRows(dst)
		return
	}
	for blk := range r.nb {
		a, g := r.issue(o, blk)
		if a == 0 {
			continue
		}
		mask := g // lanes that do not run hold nothing anyone reads
		if o.guard != 0 || split {
			mask = a & g
		}
		if mask == 0 {
			continue
		}
		if mask == ^uint32(0) && o.vkind != vecNone {
			// the op's whole-warp loop, as the converged path calls it
			o.runVecAt(unsafe.Pointer(r.row(blk, 0)))
			continue
		}
		r.point(blk)
		o.exec(&r.w, o, mask)
	}
	for k := range int32(ndst) {
		r.wroteRows(dst + k)
	}
}

// point makes r.fr block blk's register file, for a handler to run on.
func (r *batchRun) point(blk int) {
	i := blk * r.slots * warpSize
	r.fr.regs = r.regs[i : i+r.slots*warpSize]
	r.fr.preds = r.preds[blk*r.npred : (blk+1)*r.npred]
}

// issue counts op o's issue in block blk when a lane of it runs, and
// returns those lanes and the lanes whose guard is true (a == 0: none
// runs, nothing counted).
func (r *batchRun) issue(o *Op, blk int) (a, g uint32) {
	a = r.act[blk]
	if a == 0 {
		return 0, 0
	}
	g = r.guardOf(o, blk)
	r.nWarp++
	r.nThread += uint64(bits.OnesCount32(a & g))
	return a, g
}

// issueAll counts op o's issue in every block (issue's counts).
func (r *batchRun) issueAll(o *Op) {
	for blk := range r.nb {
		r.issue(o, blk)
	}
}

// pfStep records that op pc accesses the batch's range from start now and
// returns how far its next access will lie (one step of its own on; 0
// the first time).
func (r *batchRun) pfStep(pc int32, start uint64) uintptr {
	last := r.pfLast[pc]
	r.pfLast[pc] = start
	if last == 0 {
		return 0
	}
	return uintptr(start - last)
}

// vecAll runs op o's whole-warp loop in every block.
func (r *batchRun) vecAll(o *Op) {
	for blk := range r.nb {
		o.runVecAt(unsafe.Pointer(r.row(blk, 0)))
	}
}
