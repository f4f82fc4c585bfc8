package exec

import (
	"os"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// Streaming segments (issue 7, memory-bound kernels). Op by op, a batch's
// register ops stream their rows through the second-level cache: each op
// passes over every block's file (256 warps x the function's slots x 256
// bytes, more than that cache holds), so STREAM's triad, a = b + s*c, moved
// its rows there and back five times per element. A segment instead runs a
// straight stretch of consecutive loads, register ops with whole-warp
// loops and consecutive stores warp by warp through one scratch file, which
// stays in the first-level cache: warp 0's loads, ops and stores, then
// warp 1's. A scratch benchmark of the triad's loops (4 Mi elements):
// 6.9-7.4 ms op by op, 4.7-4.8 ms warp by warp in one file, 4.2-5.6 for
// Go's own loop over the three arrays.
//
// The segment is planned first, op by op, as runOps would run it: its
// ld.param and integer ops on forms run as usual (batch-wide, nothing per
// warp), its loads' and stores' ranges are checked (one window each,
// consecutive over the whole batch), and it ends at the first op that does
// not qualify. Its results live in the scratch file only, so no op at or
// after its end may read a register it writes (the plan's readsLast);
// otherwise, or when fewer than one load and one register op qualify, the
// ops run op by op as before (the form ops it ran compute the same forms
// again: the segment takes none that reads its own destination). The
// order of the accesses, warp after warp, is the warp engine's. A warp
// runs the stretch as one trace (segFuse: the register ops' entries and
// segment bodies for the accesses); a store that an op after it could
// undo (undo logs: a grid-stride loop) keeps its whole range first, one
// that keeps nothing may stream.

// segmentsEnabled lets tests (and PTXVM_SEGMENT=off) compare runs with and
// without segments.
var segmentsEnabled = os.Getenv("PTXVM_SEGMENT") != "off"

// segmentRuns counts the segments run, segmentStreams their non-temporal
// stores, segmentsPerWarp those run warp by warp, segmentKeeps their
// stores that kept what they overwrote (for tests).
var segmentRuns, segmentStreams, segmentsPerWarp, segmentKeeps atomic.Int64

// segSlot is a slot's batch state as a segment's planning found it.
type segSlot struct {
	s                int32
	f                form
	hasF, hasR, uniR bool
	uniRaw           uint64
}

// segStep is one per-warp step of a segment: a load into or a store from
// slot's scratch row at p + warp*32*n, or a trace of register ops.
type segStep struct {
	load, store bool
	nt          bool // a store's non-temporal (streamStore's rule)
	slot        int32
	vec         []int32 // a 4 x 4-byte vector's four slots (slot unused)
	p           unsafe.Pointer
	n           uintptr
	signed      bool
	tr          []traceOp
	keep        []byte // a store's bytes, kept before the segment runs (undo logs)
	// warpSteps: per warp, the step from its first element to the next
	// warp's, where the warps' elements do not follow each other (rows of
	// a 2-D block; warpRows); nil: n*32 bytes each
	warpSteps []uint64
	// lane: the step from a lane's element to the next one's (n where
	// they follow each other)
	lane uint64
	// halves: each warp's lanes 16-31 lie half bytes after lane 0's
	// element, in a row of their own (16-wide 2-D blocks)
	halves bool
	half   uint64
}

// warpSteps is a table of the steps between the batch's warps' first
// addresses at a form (warpRows): they depend only on the form's steps
// and the batch's warps, so a launch's batches share it.
type warpSteps struct {
	c     [4]uint64
	steps []uint64
}

// warpRows reports whether the lanes of each warp of the batch access
// elements of n bytes at form af plus off a constant step apart (af's
// along tid.x: n for consecutive ones), where the warps themselves lie
// apart (a 2-D block whose rows are whole warps: blockDim.x a multiple of
// 32), every address aligned. It returns the lowest address, the bytes from there to
// the end of its highest element, warp 0's first address, and each warp's
// step to the next one's first (0 after the last). With halves, each
// warp is two rows of 16 lanes instead (blockDim.x 16, blockDim.y even),
// its lanes 16-31 half bytes after its lane 0 (the step along tid.y).
func (r *batchRun) warpRows(af *form, off, n uint64) (lo, total, first uint64, steps []uint64, halves bool, half uint64, ok bool) {
	b := r.l.block
	halves = b[0] == warpSize/2 && b[1]%2 == 0 && af.c[0] == n
	if af.c[0] == 0 || b[0]%warpSize != 0 && !halves || !af.aligned(off, n) {
		return 0, 0, 0, nil, false, 0, false
	}
	lo, hi, ok := af.span(64, false, &r.dom)
	if !ok {
		return 0, 0, 0, nil, false, 0, false
	}
	if halves {
		half = af.c[1]
	}
	return lo + off, hi - lo + n, r.segFirst(af, 0, batchSeg{0, warpSize}) + off, r.warpStepsOf(af), halves, half, true
}

// warpStepsOf returns the table of warp steps at form af (made once per
// launch and set of steps; a batch of fewer warps reads its first ones).
func (r *batchRun) warpStepsOf(af *form) []uint64 {
	for i := range r.segTables {
		if t := &r.segTables[i]; t.c == af.c && len(t.steps) >= r.nb {
			return t.steps[:r.nb]
		}
	}
	if len(r.segTables) >= 8 {
		r.segTables = r.segTables[:0] // (forms of another launch)
	}
	steps := make([]uint64, r.nb)
	at := r.segFirst(af, 0, batchSeg{0, warpSize})
	for blk := range r.nb - 1 {
		next := r.segFirst(af, blk+1, batchSeg{0, warpSize})
		steps[blk] = next - at
		at = next
	}
	r.segTables = append(r.segTables, warpSteps{af.c, steps})
	return steps
}

// streamSteps reports whether non-temporal stores of the warps' rows
// from p on, steps apart (nil: consecutive), stay 32-byte aligned.
func streamSteps(p unsafe.Pointer, steps []uint64) bool {
	if uintptr(p)&31 != 0 {
		return false
	}
	for _, s := range steps {
		if s&31 != 0 {
			return false
		}
	}
	return true
}

// segment runs the segment starting at load pc when one qualifies and
// returns how many ops it ran (0: none; the ops run as usual).
func (r *batchRun) segment(pc int32) int32 {
	if !segmentsEnabled || !simdEnabled || !tracesEnabled || len(r.frames) > 0 || !r.full() || r.segNo[pc] {
		return 0
	}
	ops, plan := r.fn.Ops, r.plan
	steps := r.segSteps[:0]
	written, writtenAt := r.segWritten[:0], r.segWrittenAt[:0] // (the slots and the ops writing them)
	inputs := r.segInputs[:0]
	defer func() {
		r.segSteps, r.segWritten, r.segWrittenAt, r.segInputs = steps[:0], written[:0], writtenAt[:0], inputs[:0]
	}()
	write := func(s, at int32) {
		written, writtenAt = append(written, s), append(writtenAt, at)
	}
	read := func(s int32) {
		if !slices.Contains(written, s) && !slices.Contains(inputs, s) {
			inputs = append(inputs, s)
		}
	}
	// (a segment that does not run leaves the counts and the read ranges
	// as they were: its ops run again op by op)
	// (and the slots its parameter and form ops set as they were: an op
	// before them in the segment may read what they overwrite)
	nWarp, nThread, nRanges := r.nWarp, r.nThread, len(r.readRanges)
	saved := r.segSaved[:0]
	defer func() { r.segSaved = saved[:0] }()
	save := func(d int32) {
		saved = append(saved, segSlot{d, r.forms[d], r.hasF[d], r.hasR[d], r.uniR[d], r.uniRaw[d]})
	}
	undo := func() int32 {
		r.nWarp, r.nThread, r.readRanges = nWarp, nThread, r.readRanges[:nRanges]
		for i := len(saved) - 1; i >= 0; i-- {
			v := &saved[i]
			r.forms[v.s], r.hasF[v.s], r.hasR[v.s], r.uniR[v.s], r.uniRaw[v.s] = v.f, v.hasF, v.hasR, v.uniR, v.uniRaw
		}
		if r.segNo == nil {
			r.segNo = map[int32]bool{}
		}
		r.segNo[pc] = true
		return 0
	}
	loads, regOps := 0, 0
	var run []traceOp // the register ops since the last access
	flush := func() {
		if len(run) > 0 {
			steps = append(steps, segStep{tr: run})
			run = nil
		}
	}
	end := pc
scan:
	for ; int(end) < len(ops); end++ {
		o := &ops[end]
		switch plan.kind[end] {
		case bkParam:
			if len(o.vec) != 1 || slices.Contains(inputs, o.vec[0]) || slices.Contains(written, o.vec[0]) {
				break scan
			}
			save(o.vec[0])
			if !r.param(o) {
				break scan
			}
			continue
		case bkForm, bkReg:
			// a form op runs batch-wide, now (forms do not depend on the
			// warp): unless it overwrites what an op before it in the
			// segment reads or wrote, or reads its own destination; with
			// a source the segment wrote (its rows are the scratch
			// file's, its form stale), or no form, it is a register op
			srcs := []int32{o.a, o.b, o.c}[:o.nsrc]
			srcWritten := slices.ContainsFunc(srcs, func(s int32) bool { return slices.Contains(written, s) })
			clash := func(d int32) bool {
				return slices.Contains(inputs, d) || slices.Contains(written, d) || slices.Contains(srcs, d)
			}
			if plan.kind[end] == bkForm && !srcWritten {
				if clash(o.d) {
					break scan
				}
				save(o.d)
				if r.formOp(end, o) {
					continue
				}
			}
			if d, nd := r.regDest(o); nd == 1 && !srcWritten && !clash(d) {
				// a register op on uniform forms (nvcc's cvta after the
				// guard): once, batch-wide, as outside segments
				save(d)
				if r.uniformOp(o, d, nd) {
					continue
				}
			}
			if !r.segRegOp(o, end, read, write, &run) {
				break scan
			}
			regOps++
			continue
		case bkLoad, bkStore:
		default:
			break scan
		}
		store := plan.kind[end] == bkStore
		n := uint64(o.size)
		// a v2 or v4 of 4 bytes or a v4 of bytes (uchar4), zero-extended,
		// or a v2 of 8 bytes
		unsigned := store || o.typ == "" || o.typ[1] != 's'
		vec := (len(o.vec) == 4 || len(o.vec) == 2) && n == 4 && unsigned || len(o.vec) == 2 && n == 8 || len(o.vec) == 4 && n == 1 && unsigned
		if o.guard != 0 || len(o.vec) != 1 && !vec || o.space != mem.SpaceGlobal || n != 1 && n != 2 && n != 4 && n != 8 || o.addrBase < 0 ||
			!store && plan.volatileLd != nil && plan.volatileLd[end] || slices.Contains(o.vec, -1) {
			break
		}
		size := n * uint64(len(o.vec)) // (a vector's: its step and alignment)
		af, isForm := r.formOf(o.addrBase)
		if isForm && af.bits == 32 {
			af, isForm = af.widen(af.sext, &r.dom)
		}
		if !isForm || slices.Contains(written, o.addrBase) {
			break
		}
		// consecutive over the batch, or within each warp only (first:
		// warp 0's first element, warpSteps: per warp the step to the
		// next warp's); lane: the step from a lane's element to the next
		// lane's, size for consecutive ones (a strided access's elements,
		// pairs or an array of structs' fields or a reversed array's,
		// move one at a time: scalars only)
		var warpSteps []uint64
		var halves bool
		var half uint64
		v0, st, ok := r.linear(&af)
		start, total, first, lane := v0+o.addrConst, size*warpSize*uint64(r.nb), v0+o.addrConst, size
		if ok && st != size && st != 0 && int64(st) > -1<<31 && int64(st) < 1<<31 && af.aligned(o.addrConst, size) {
			lane = st // (strided over the batch)
			last := v0 + st*(uint64(r.nb)*warpSize-1)
			if int64(st) < 0 {
				start, total = last+o.addrConst, v0-last+size
			} else {
				total = last - v0 + size
			}
		} else if !ok || st != size {
			if start, total, first, warpSteps, halves, half, ok = r.warpRows(&af, o.addrConst, size); !ok {
				break
			}
			lane = af.c[0]
			if halves && (vec || n < 4) {
				break // (halves have bodies for 4- and 8-byte scalars only)
			}
		}
		strided := lane != size
		if strided && vec {
			break
		}
		data, off, ok := r.window(start, total)
		if !ok || start&(size-1) != 0 {
			break
		}
		if !store && slices.ContainsFunc(o.vec, func(v int32) bool { return slices.Contains(inputs, v) }) {
			break // (it would overwrite an input the warps read first)
		}
		// an op after a store may send the batch back: what it
		// overwrites is kept first (batch_undo.go), as the op's own store
		// would; a store that keeps nothing may stream. Only a store
		// consecutive over the batch keeps its range whole: the rows of
		// 2-D blocks have other batches' elements between them, which
		// another worker may store while this batch runs (putting the
		// range back would undo those), so such a store runs op by op,
		// keeping each warp's own bytes.
		kept := store && r.keeping() && r.storeKeeps(end)
		if kept && (warpSteps != nil || strided) {
			break
		}
		flush()
		if store {
			for _, v := range o.vec {
				read(v)
			}
		} else {
			r.readRanges = append(r.readRanges, [2]uint64{start, start + total})
			for _, v := range o.vec {
				write(v, end)
			}
			loads++
		}
		t := o.typ
		p := unsafe.Pointer(&data[off+first-start])
		step := segStep{load: !store, store: store, slot: o.vec[0], p: p, n: uintptr(size), lane: lane, warpSteps: warpSteps, halves: halves, half: half,
			signed: t != "" && t[1] == 's' && n < 8, nt: store && !vec && !strided && n >= 4 && !kept && r.streamRange(data, off, start, total) && streamSteps(p, warpSteps) && half&31 == 0}
		if vec {
			step.vec = o.vec
		}
		if kept {
			step.keep = data[off : off+total]
		}
		steps = append(steps, step)
	}
	flush()
	// (a copy that only moves elements runs as well op by op, unless
	// they move a step apart: a reversed array's, a transpose's)
	if loads == 0 || regOps == 0 && !slices.ContainsFunc(steps, func(st segStep) bool { return st.tr == nil && st.lane != uint64(st.n) }) {
		return undo()
	}
	// no op from end on reads what the segment wrote (clang's and nvcc's
	// registers are written once; a loop would read it again)
	for i, d := range written {
		if slices.Index(written, d) != i {
			continue // (a slot written again: its first write counts)
		}
		if plan.slotLast[d] >= end || plan.slotFirst[d] >= 0 && plan.slotFirst[d] <= writtenAt[i] {
			return undo()
		}
	}
	if !r.segFuse(steps) {
		return undo()
	}
	for _, st := range steps {
		if st.keep != nil && !r.keep(st.keep) {
			return undo() // (the undo log is full: the op's store sends the batch back)
		}
	}
	for _, st := range steps {
		if st.tr == nil {
			r.countAll()
		} else {
			for range st.tr {
				r.countAll()
			}
		}
	}
	r.runSegment(steps, inputs)
	for _, s := range written {
		r.hasF[s], r.hasR[s], r.uniR[s] = false, true, false // (rows nobody reads)
	}
	segmentRuns.Add(1)
	r.l.segments.Add(1)
	for _, st := range steps {
		if st.nt {
			segmentStreams.Add(1)
		}
		if st.keep != nil {
			segmentKeeps.Add(1)
		}
	}
	return end - pc
}

// segRegOp adds register op o (at pc) to the segment's current run of
// trace entries, when it has a whole-warp loop and writes one row; read
// notes its sources, write its destination.
func (r *batchRun) segRegOp(o *Op, pc int32, read func(int32), write func(s, at int32), run *[]traceOp) bool {
	d := &o.inst.Operands[0]
	if o.guard != 0 || o.vkind == vecNone || d.Reg == nil || d.Reg.Type == ".pred" {
		return false
	}
	if s, n := r.fn.operandSlots(d); s != o.d || n != 1 {
		return false
	}
	t, ok := vecEntry(o)
	if !ok {
		return false
	}
	for _, s := range o.vecRows()[1:] {
		read(s)
	}
	write(o.d, pc)
	*run = append(*run, t)
	return true
}

// stridedKeys are the segment bodies of scalars a step apart, by size:
// the store, the zero- and the sign-extending load.
var stridedKeys = [9][3]string{1: {"segSt8X", "segLdZ8X", "segLdS8X"}, 2: {"segSt16X", "segLdZ16X", "segLdS16X"},
	4: {"segSt32X", "segLdZ32X", "segLdS32X"}, 8: {"segSt64X", "segLd64X", "segLd64X"}}

// narrowKeys are the segment bodies of 1- and 2-byte elements, by size:
// the store, the zero- and the sign-extending load.
var narrowKeys = [3][3]string{1: {"segSt8", "segLdZ8", "segLdS8"}, 2: {"segSt16", "segLdZ16", "segLdS16"}}

// segFuse makes a segment's steps one trace (r.segTrace): its register
// ops' entries, and for each load and store a segment body (simdgen's
// segmentBodies) whose address k starts at warp 0's elements and moves on
// by a warp's elements after each warp (r.segAdvance: the k's byte offset
// in the trace and the step, simdSegmentTrace's), so that a warp runs in
// one call. False when the bodies are missing (no AVX2).
func (r *batchRun) segFuse(steps []segStep) bool {
	tr, adv := r.segTrace[:0], r.segAdvance[:0]
	defer func() { r.segTrace, r.segAdvance = tr, adv }()
	access := func(body uint64, st *segStep, d, a, b, c uint64) {
		kAt := uint64(len(tr))*uint64(unsafe.Sizeof(traceOp{})) + uint64(unsafe.Offsetof(traceOp{}.k))
		var table uint64
		if st.warpSteps != nil {
			table = uint64(uintptr(unsafe.Pointer(&st.warpSteps[0])))
		}
		adv = append(adv, [3]uint64{kAt, warpSize * st.lane, table})
		tr = append(tr, traceOp{body: body, d: d, a: a, b: b, c: c, k: uint64(uintptr(st.p))})
	}
	row := func(s int32) uint64 { return uint64(s) * warpSize * 8 }
	for i := range steps {
		st := &steps[i]
		if st.tr != nil {
			tr = append(tr, st.tr...)
			continue
		}
		key := "segSt32"
		switch {
		case len(st.vec) == 4 && st.n == 4 && st.load:
			key = "segLdV4Z8"
		case len(st.vec) == 4 && st.n == 4:
			key = "segStV4x8"
		case len(st.vec) == 2 && st.n == 16 && st.load:
			key = "segLdV2x64"
		case len(st.vec) == 2 && st.n == 16:
			key = "segStV2x64"
		case len(st.vec) == 2 && st.load:
			key = "segLdV2Z32"
		case len(st.vec) == 2:
			key = "segStV2x32"
		case st.vec != nil && st.load:
			key = "segLdV4Z32"
		case st.vec != nil:
			key = "segStV4x32"
		case st.n < 4 && st.load: // (bytes and halves: scalars only)
			key = narrowKeys[st.n][1]
			if st.signed {
				key = narrowKeys[st.n][2]
			}
		case st.n < 4:
			key = narrowKeys[st.n][0]
		case st.load && st.n == 8:
			key = "segLd64"
		case st.load && st.signed:
			key = "segLdS32"
		case st.load:
			key = "segLdZ32"
		case st.nt && st.n == 8:
			key = "segStNT64"
		case st.nt:
			key = "segStNT32"
		case st.n == 8:
			key = "segSt64"
		}
		strided := st.lane != uint64(st.n)
		switch {
		case st.halves:
			key += "H" // (segLdZ32H and the like: the planner took no others)
		case strided:
			key = stridedKeys[st.n][0]
			if st.load {
				key = stridedKeys[st.n][1]
				if st.signed {
					key = stridedKeys[st.n][2]
				}
			}
		}
		body, ok := simdMemBody(key)
		if !ok {
			return false
		}
		if st.halves {
			access(body, st, row(st.slot), 0, 0, st.half)
		} else if strided {
			access(body, st, row(st.slot), st.lane, 0, 0)
		} else if len(st.vec) == 2 {
			access(body, st, row(st.vec[0]), row(st.vec[1]), 0, 0)
		} else if st.vec != nil {
			access(body, st, row(st.vec[0]), row(st.vec[1]), row(st.vec[2]), row(st.vec[3]))
		} else {
			access(body, st, row(st.slot), 0, 0, 0)
		}
	}
	return len(tr) > 0
}

// runSegment runs a segment warp by warp in the scratch file, each warp's
// steps as one trace (segFuse's), whose input rows come from the warp's
// file or its forms.
func (r *batchRun) runSegment(steps []segStep, inputs []int32) {
	size := r.slots * warpSize
	if len(r.segRegs) < size {
		r.segRegs = make([]uint64, size)
	}
	regs := r.segRegs[:size]
	row := func(s int32) *lanes { return (*lanes)(regs[int(s)*warpSize:]) }
	// uniform inputs once; the others warp by warp
	var perWarp []int32
	for _, s := range inputs {
		if f, ok := r.formOf(s); ok && f.uniform() {
			fillRow(row(s), f.raw())
			continue
		}
		perWarp = append(perWarp, s)
	}
	base := unsafe.Pointer(&regs[0])
	if r.nb == 0 {
		return
	}
	tr, adv := r.segTrace, r.segAdvance
	if len(perWarp) == 0 {
		// every warp alike but for its accesses' addresses: one call
		// runs them all
		simdSegmentTrace(base, &tr[0], len(tr), &adv[0], len(adv), r.nb)
	} else {
		segmentsPerWarp.Add(1)
		for blk := range r.nb {
			for _, s := range perWarp {
				if f, ok := r.formOf(s); ok {
					r.formRow(f, blk, row(s))
				} else {
					*row(s) = *r.row(blk, s)
				}
			}
			simdSegmentTrace(base, &tr[0], len(tr), &adv[0], len(adv), 1)
		}
	}
	batchSFence() // (the non-temporal stores, before anything else reads them)
}
