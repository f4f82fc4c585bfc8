package exec

import (
	"encoding/binary"
	"math"
	"math/bits"
	"os"
	"slices"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// Global memory in batches (batch.go): whole-batch ranges, runs of
// consecutive lanes, strided runs, vectors, and lane by lane.

// streamEnabled lets tests (and PTXVM_STREAM=off) compare batches with
// and without streaming stores.
var streamEnabled = os.Getenv("PTXVM_STREAM") != "off"

// streamMin is the least allocation a batch's stores stream to: one
// larger than the caches' share of a core, whose lines a kernel writes
// once and does not read back soon.
const streamMin = 8 << 20

// streamStore reports whether a store of the batch's range [start,
// start+total), at off in the allocation data, goes to memory without
// reading the lines first (batchStoreNT32N and 64N; copy's output:
// medians 4.35 -> 3.85 ms a launch): an allocation of streamMin or more,
// an aligned range, no undo log reading it first, and no load of this
// batch's read it (saxpy's y, in the caches already: there streaming
// stores cost 5-10% more).
func (r *batchRun) streamStore(data []byte, off, start, total uint64) bool {
	return !r.keeping() && r.streamRange(data, off, start, total)
}

// streamRange is streamStore for a store that keeps nothing (a segment's
// with nothing after it that can send the batch back).
func (r *batchRun) streamRange(data []byte, off, start, total uint64) bool {
	if !simdEnabled || !streamEnabled || uint64(len(data)) < streamMin || uintptr(unsafe.Pointer(&data[off]))&31 != 0 {
		return false
	}
	for _, rr := range r.readRanges {
		if start < rr[1] && rr[0] < start+total {
			return false
		}
	}
	return true
}

// window returns the global memory holding [addr, addr+n) and addr's
// offset in it.
func (r *batchRun) window(addr, n uint64) ([]byte, uint64, bool) {
	if r.inWindow(addr, n) {
		return r.gData, addr - r.gBase, true
	}
	// the window before the last, else a lookup (lanes choosing between
	// two buffers, `p = i & 1 ? a : b`, looked one up at every other lane:
	// probe24 q3_sel_thr); either way the checks below
	base, data := r.gBase2, r.gData2
	ok := data != nil && addr-base <= uint64(len(data)) // (Find's test: below base wraps past it)
	if !ok {
		base, data, ok = r.l.prog.global.Find(addr)
	}
	if ok && (r.held.holds(base) || r.holdsFolds(base)) {
		r.flushHeld() // (earlier batches' sums and folds: in memory first)
	}
	if !ok || r.pend.holds(base) { // (batch_pending.go: the batch goes back)
		return nil, 0, false
	}
	r.gBase2, r.gData2 = r.gBase, r.gData
	r.gBase, r.gData = base, data
	off := addr - base
	if off >= uint64(len(data)) || n > uint64(len(data))-off {
		return nil, 0, false
	}
	return data, off, true
}

// inWindow reports whether [addr, addr+n) lies in the last window (no
// call where it does: an atomic's lanes).
func (r *batchRun) inWindow(addr, n uint64) bool {
	off := addr - r.gBase
	return off < uint64(len(r.gData)) && n <= uint64(len(r.gData))-off
}

// winAt returns the memory an access of op space by block blk at addr
// (n bytes) goes through, addr's offset in it and its first byte's
// address: global memory (window), the shared memory of the block's
// CTA, or the program's constant bank (both with addresses from 0).
func (r *batchRun) winAt(space mem.Space, blk int, addr, n uint64) ([]byte, uint64, uint64, bool) {
	if space == mem.SpaceConst {
		c := r.l.prog.constant.Data
		if addr >= uint64(len(c)) || n > uint64(len(c))-addr {
			return nil, 0, 0, false
		}
		return c, addr, 0, true
	}
	if space == mem.SpaceShared {
		k := r.bk[blk]
		sh := r.shared[k*r.shSize : (k+1)*r.shSize]
		if addr>>rankShift == 1 {
			// the cluster address of rank 0, in a batch's one-CTA
			// clusters the CTA's own memory (cluster.go's peerShared)
			addr &= 1<<rankShift - 1
		}
		if addr >= r.shSize || n > r.shSize-addr {
			return nil, 0, 0, false
		}
		return sh, addr, 0, true
	}
	data, off, ok := r.window(addr, n)
	return data, off, r.gBase, ok
}

// addrForm returns the form of op o's address register, when it has one,
// as 64 bits, with its rows written out otherwise; an address without a
// register (a variable's, [buf+4]) is the form 0, o.addrConst being all
// of it. A 32-bit register (nvcc's shared addresses: mov.u32 %r, tile)
// is the 64-bit form of its rows' values (zero- or sign-extended, as the
// form is) when no lane's value wraps around 2^32 differently from the
// others (widen), else its rows.
func (r *batchRun) addrForm(o *Op) (form, bool) {
	if o.addrBase < 0 {
		return uniformRaw(0), true
	}
	af, isForm := r.formOf(o.addrBase)
	if isForm && af.bits == 32 {
		af, isForm = af.widen(af.sext, &r.dom)
	}
	if !isForm {
		r.materialize(o.addrBase)
	}
	return af, isForm
}

// access runs ld or st (.global or .shared) block by block; skip: how
// many ops after it it ran too (a fused run of register ops); false: a
// lane faults (the batch must run again: a store may have written the
// lanes before it).
func (r *batchRun) access(pc int32, o *Op, store bool) (int32, bool) {
	if len(o.vec) > 1 {
		return 0, r.vectorAccess(pc, o, store)
	}
	t := o.typ
	n := uint64(o.size)
	signed := t != "" && t[1] == 's' && n < 8
	v := o.vec[0]
	if !store && (o.guard != 0 || len(r.frames) > 0) {
		r.materialize(v) // the lanes that do not load keep their value
	}
	af, isForm := r.addrForm(o)
	if !store && r.plan.volatileLd != nil && r.plan.volatileLd[pc] {
		return 0, r.volatileLoad(o, af, isForm)
	}
	var vf form
	vForm := store && !r.hasR[v]
	if vForm {
		vf = r.forms[v]
	}
	global := o.space == mem.SpaceGlobal
	if isForm && af.uniform() && !store && o.guard == 0 && len(r.frames) == 0 && (global || o.space == mem.SpaceConst) {
		// every lane loads one address: one load, a uniform value
		addr := af.raw() + o.addrConst
		data, off, _, ok := r.winAt(o.space, 0, addr, n)
		if !ok || addr&(n-1) != 0 {
			return 0, false
		}
		r.countAll()
		r.forms[v], r.hasF[v], r.hasR[v], r.uniR[v] = uniformRaw(extend(mem.Load(data[off:off+n]), t, int(n)*8)), true, false, false
		return 0, true
	}
	// every lane runs it, at a form's addresses, a store's value in rows;
	// a load outside splits may also fill the rows of lanes that left for
	// the exit (a stencil's x < 1 guard), which no one reads again: they
	// are threads, so its range check covers their addresses too (not so
	// a partial warp's lanes that are no threads: allLanes)
	every := isForm && o.guard == 0 && !vForm && (r.full() || !store && r.allLanes())
	if every && global {
		// every lane, one range: one check, one pass
		if v0, st, ok := r.linear(&af); ok && st == n {
			start := v0 + o.addrConst
			total := n * warpSize * uint64(r.nb)
			if data, off, ok := r.window(start, total); ok && start&(n-1) == 0 {
				r.countAll()
				if !store {
					r.readRanges = append(r.readRanges, [2]uint64{start, start + total})
				}
				// prefetch the range this op will access next (one step
				// further than its last), while the batch runs on
				pf := r.pfStep(pc, start)
				if !store && simdEnabled && (n == 4 || n == 8) && len(r.frames) == 0 {
					// a run of register ops after it: warp by warp, each
					// warp's values loaded in front (a reduction's add)
					if end := r.vecScan(pc+1, v); end > pc+1 {
						r.vecExec(pc+1, end, &fusedLoad{v: v, p: &data[off], n: n, signed: signed, pf: pf})
						return end - (pc + 1), true
					}
				}
				if store && !r.keep(data[off:off+total]) {
					return 0, false
				}
				if store && (n == 4 || n == 8) && r.streamStore(data, off, start, total) {
					stream := batchStoreNT32N
					if n == 8 {
						stream = batchStoreNT64N
					}
					stream(&data[off], r.row(0, v), uintptr(r.slots*warpSize*8), r.nb)
					return 0, true
				}
				r.rowsAt(v, 0, r.nb, data[off:off+total], n, signed, store, pf)
				if !store {
					r.wroteRows(v)
				}
				return 0, true
			}
		}
		if v0, st, ok := r.linear(&af); ok && st == -n {
			// every lane, one range, lane after lane downwards (a reversed
			// copy's out[n-1-i]): one check, each warp's run reversed
			count := warpSize * uint64(r.nb)
			hi := v0 + o.addrConst // (the batch's first lane's address)
			lo := hi - (count-1)*n
			if data, off, ok := r.window(lo, count*n); ok && lo <= hi && lo&(n-1) == 0 {
				part := data[off : off+count*n]
				if store && !r.keep(part) {
					return 0, false
				}
				r.countAll()
				for blk := range r.nb {
					run := part[uint64(r.nb-1-blk)*warpSize*n:][:warpSize*n]
					row := r.row(blk, v)
					if store {
						for i := range row {
							r.tmp[warpSize-1-i] = row[i]
						}
						storeRun(run, &r.tmp, n)
					} else {
						loadRun(&r.tmp, run, n, signed)
						for i := range row {
							row[i] = r.tmp[warpSize-1-i]
						}
					}
				}
				if !store {
					r.wroteRows(v)
				}
				return 0, true
			}
		}
	}
	if isForm && o.guard == 0 && !vForm && global && (n == 4 || n == 8) && r.ctaLanes%warpSize != 0 && len(r.frames) == 0 &&
		r.lanes == uint64(r.nb/r.wpc)*r.ctaLanes {
		// every thread of CTAs whose last warp is partial (blocks of 100
		// or 1000 threads), the batch's threads one after the other: one
		// check, each CTA's whole warps as rows, its last warp's threads
		if b := r.l.block; b[1] == 1 && b[2] == 1 && af.c[0] == n && af.c[3] == n*r.ctaLanes {
			start := af.base + af.c[3]*uint64(r.x0) + o.addrConst
			ctas := r.nb / r.wpc
			span := n * r.ctaLanes // a CTA's
			if data, off, ok := r.window(start, span*uint64(ctas)); ok && start&(n-1) == 0 {
				all := data[off : off+span*uint64(ctas)]
				if store && !r.keep(all) {
					return 0, false
				}
				r.countAll()
				whole := int(r.ctaLanes / warpSize)
				last := uint32(1)<<(r.ctaLanes%warpSize) - 1
				for k := range ctas {
					cta := all[uint64(k)*span : uint64(k+1)*span]
					if whole > 0 {
						r.rowsAt(v, k*r.wpc, whole, cta[:uint64(whole)*warpSize*n], n, signed, store, 0)
					}
					maskedRun(cta[uint64(whole)*warpSize*n:], r.row(k*r.wpc+whole, v), last, n, signed, store)
				}
				if !store {
					r.wroteRows(v)
				}
				return 0, true
			}
		}
	}
	if every && global && r.ctaSpans(&af, n) {
		// every lane, each CTA's lanes one after the other, the CTAs apart
		// (each takes its own chunk: a block reduction's input): one check
		// and one pass per CTA, when every CTA's span checks
		span := n * uint64(r.wpc) * warpSize
		ok := true
		for k := range uint64(r.nb / r.wpc) {
			start := af.base + af.c[3]*(uint64(r.x0)+k) + o.addrConst
			if _, _, in := r.window(start, span); !in || start&(n-1) != 0 {
				ok = false
				break
			}
		}
		if ok {
			r.countAll()
			for k := range uint64(r.nb / r.wpc) {
				start := af.base + af.c[3]*(uint64(r.x0)+k) + o.addrConst
				data, off, _ := r.window(start, span)
				if store && !r.keep(data[off:off+span]) {
					return 0, false
				}
				r.rowsAt(v, int(k)*r.wpc, r.wpc, data[off:off+span], n, signed, store, 0)
			}
			if !store {
				r.wroteRows(v)
			}
			return 0, true
		}
	}
	if every && o.space == mem.SpaceShared && r.ctaLinear(&af, n) {
		// every lane, each CTA's lanes one after the other in its own
		// shared memory, at the same offsets in every CTA: one check
		start := af.base + o.addrConst
		span := n * uint64(r.wpc) * warpSize
		if start < r.shSize && span <= r.shSize-start && start&(n-1) == 0 {
			r.countAll()
			for k := range uint64(r.nb / r.wpc) {
				sh := r.shared[k*r.shSize+start : k*r.shSize+start+span]
				r.rowsAt(v, int(k)*r.wpc, r.wpc, sh, n, signed, store, 0)
			}
			if !store {
				r.wroteRows(v)
			}
			return 0, true
		}
	}
	if isForm && global && !store && (n == 4 && !signed || n == 8) && o.guard == 0 && (r.full() || r.allLanes()) && int64(af.c[3]) >= 0 {
		if g := r.globalOffsets(pc, &af, n); g != nil && (n == 4 || g.one != 0) {
			// every lane, at the same offsets from each CTA's lowest
			// address, the CTAs c[3] apart (2-D blocks: runs of tid.x
			// shorter than a warp): one check, gathers (of 8-byte
			// elements when every chunk is of one kind: an f64 matrix),
			// prefetching the next batch's
			if data, off, in := r.batchRange(&af, o.addrConst, n); in {
				r.countAll()
				row, stride := r.row(0, v), uintptr(r.slots*warpSize*8)
				pf := r.pfStep(pc, uint64(uintptr(unsafe.Pointer(&data[off]))))
				if n == 8 {
					batchChunks64NKPF(row, stride, &data[off], uintptr(af.c[3]), &g.offs[0], g.one == 2, r.wpc, r.nb/r.wpc, pf)
				} else {
					chunks32N(row, stride, &data[off], uintptr(af.c[3]), g, r.wpc, r.nb/r.wpc, pf)
				}
				r.wroteRows(v)
				if af.c[0] >= 64 {
					r.strided = true // (a cache line per lane)
				}
				return 0, true
			}
		}
	}
	if every && global && store && (n == 4 || n == 8) && !r.keeping() && int64(af.c[3]) >= 0 {
		if g := r.globalOffsets(pc, &af, n); g != nil && g.one == 1 {
			// every lane, at the same offsets from each CTA's lowest
			// address, eight consecutive words a chunk (2-D blocks: a
			// warp's rows of 16 or 8): one check, the chunks' stores
			// (m_madd16's store took as long as its two loads, a pass
			// per row below)
			if data, off, in := r.batchRange(&af, o.addrConst, n); in {
				r.countAll()
				if n == 8 {
					batchStoreChunks64NK(&data[off], uintptr(af.c[3]), r.row(0, v), uintptr(r.slots*warpSize*8), &g.offs[0], r.wpc, r.nb/r.wpc)
				} else {
					batchStoreChunks32NK(&data[off], uintptr(af.c[3]), r.row(0, v), uintptr(r.slots*warpSize*8), &g.offs[0], r.wpc, r.nb/r.wpc)
				}
				return 0, true
			}
		}
	}
	if every && global && af.c[0] == n && (store || n == 8 || signed) {
		// every lane, each run of consecutive tid.x at consecutive
		// addresses (2-D blocks: a pitched copy's rows), the runs apart:
		// one check of the form's range over the batch, then a pass per
		// run (y_pitch2d's store, 32x8 blocks, checked a window per warp:
		// 15.1 ms, 13.1 so)
		if lo, _, ok := af.span(64, false, &r.dom); ok {
			if data, off, in := r.batchRange(&af, o.addrConst, n); in {
				r.countAll()
				span := n * warpSize
				for blk := range r.nb {
					row := r.row(blk, v)
					if !r.run { // (blocks less wide than a warp: its runs)
						for _, sg := range r.segs[r.bw[blk]] {
							at := off + r.segFirst(&af, blk, sg) - lo
							seg := data[at : at+n*uint64(sg.n)]
							if store && !r.keep(seg) {
								return 0, false
							}
							accessStrided(row, sg, seg, n, n, t, store)
						}
						continue
					}
					at := off + r.segFirst(&af, blk, batchSeg{0, warpSize}) - lo
					run := data[at : at+span : at+span]
					if !store {
						loadRun(row, run, n, signed)
						continue
					}
					if !r.keep(run) {
						return 0, false
					}
					storeRun(run, row, n)
				}
				if !store {
					r.wroteRows(v)
				}
				return 0, true
			}
		}
	}
	if isForm && !store && o.guard == 0 && len(r.frames) == 0 {
		if g := r.sharedOffsets(pc, o, &af); g != nil {
			// the same offsets in every CTA's shared memory: gathers
			if n == 8 && r.full() && g.one != 0 && simdEnabled {
				// (every block, every chunk eight consecutive words or
				// one: a tile's rows and columns of f64 or u64)
				r.countAll()
				batchChunks64NK(r.row(0, v), uintptr(r.slots*warpSize*8), &r.shared[0], uintptr(r.shSize), &g.offs[0], g.one == 2, r.wpc, r.nb/r.wpc, 0)
				r.wroteRows(v)
				return 0, true
			}
			if n == 8 {
				for blk := range r.nb {
					if a, _ := r.issue(o, blk); a == 0 {
						continue
					}
					k, w := r.bk[blk], int(r.bw[blk])
					gather64(r.row(blk, v), r.shared[k*r.shSize:(k+1)*r.shSize], g.offs[w*warpSize:(w+1)*warpSize], g.kinds[4*w:4*w+4])
				}
				r.wroteRows(v)
				return 0, true
			}
			if r.full() {
				// (every block runs it: counted at once, the blocks' rows
				// and memory found by stepping, CTA after CTA)
				r.countAll()
				chunks32N(r.row(0, v), uintptr(r.slots*warpSize*8), &r.shared[0], uintptr(r.shSize), g, r.wpc, r.nb/r.wpc, 0)
				r.wroteRows(v)
				return 0, true
			}
			for blk := range r.nb {
				if a, _ := r.issue(o, blk); a == 0 {
					continue
				}
				k, w := r.bk[blk], int(r.bw[blk])
				batchChunks32(r.row(blk, v), &r.shared[k*r.shSize], &g.offs[w*warpSize], &g.kinds[4*w])
			}
			r.wroteRows(v)
			return 0, true
		}
	}
	var wg *gatherPlan // whole warps' gathers (a split's, a guarded load's)
	if isForm && global && n == 4 && !signed && !store && int64(af.c[3]) >= 0 && af.aligned(o.addrConst, 4) {
		wg = r.globalOffsets(pc, &af, 4)
	}
	uniOK, uni := false, uint64(0) // one word for every lane (a split's ld.const)
	if isForm && af.uniform() && !store && (global || o.space == mem.SpaceConst) {
		addr := af.raw() + o.addrConst
		if data, off, _, ok := r.winAt(o.space, 0, addr, n); ok && addr&(n-1) == 0 {
			uniOK, uni = true, extend(mem.Load(data[off:off+n]), t, int(n)*8)
		}
	}
	// runs of whole warps at consecutive addresses (wholeRun)
	runs := isForm && global && !vForm && !uniOK && wg == nil && r.run && af.c[0] == n && (n == 4 || n == 8)
	for blk := 0; blk < r.nb; blk++ {
		a, g := r.issue(o, blk)
		eff := a & g
		if eff == 0 {
			continue
		}
		if runs && eff == ^uint32(0) {
			if end := r.wholeRun(o, &af, blk, n); end > blk+1 {
				// blocks running whole warps at addresses that follow
				// each other (a batch that is not full, a 2-D grid's
				// rows of 1-D blocks with a partial last one, has mostly
				// such runs): one check and one pass for them all
				start := r.segFirst(&af, blk, batchSeg{0, warpSize}) + o.addrConst
				span := n * warpSize * uint64(end-blk)
				if data, off, ok := r.window(start, span); ok && start&(n-1) == 0 {
					if store && !r.keep(data[off:off+span]) {
						return 0, false
					}
					for b := blk + 1; b < end; b++ {
						r.issue(o, b)
					}
					r.rowsAt(v, blk, end-blk, data[off:off+span], n, signed, store, 0)
					blk = end - 1
					continue
				}
			}
		}
		row := r.row(blk, v)
		if vForm {
			r.formRow(vf, blk, &r.tmp2)
			row = &r.tmp2
		}
		if uniOK {
			for m := eff; m != 0; m &= m - 1 {
				row[bits.TrailingZeros32(m)] = uni
			}
			continue
		}
		if wg != nil && eff == ^uint32(0) {
			w := r.bw[blk]
			start := af.base + af.c[3]*(uint64(r.x0)+r.bk[blk]) + wg.lo + wg.wlo[w] + o.addrConst
			if data, off, ok := r.window(start, wg.wspan[w]); ok {
				batchChunks32(row, &data[off], &wg.woffs[w*warpSize], &wg.kinds[4*w])
				if af.c[0] >= 64 {
					r.strided = true // (a cache line per lane)
				}
				continue
			}
		}
		if isForm && r.run && af.c[0] == n && eff == ^uint32(0) {
			start := r.segFirst(&af, blk, batchSeg{0, warpSize}) + o.addrConst
			data, off, _, ok := r.winAt(o.space, blk, start, n*warpSize)
			if !ok || start&(n-1) != 0 {
				return 0, false
			}
			if store {
				if o.space == mem.SpaceGlobal {
					if !r.keep(data[off : off+n*warpSize]) {
						return 0, false
					}
				}
				storeRun(data[off:off+n*warpSize], row, n)
			} else {
				loadRun(row, data[off:off+n*warpSize], n, signed)
			}
			continue
		}
		if isForm && r.run && af.c[0] == n && (n == 4 || n == 8) && (!store || o.space == mem.SpaceShared || !r.keeping()) {
			// some of the warp's lanes (a split's: a tree reduction's
			// tid % (2*s) == 0), one after the other: one check of the
			// warp's span, then the running lanes' values (the rest of
			// the span is not touched)
			start := r.segFirst(&af, blk, batchSeg{0, warpSize}) + o.addrConst
			if data, off, _, ok := r.winAt(o.space, blk, start, n*warpSize); ok && start&(n-1) == 0 {
				maskedRun(data[off:off+n*warpSize], row, eff, n, signed, store)
				continue
			}
		}
		left := eff // the lanes the runs below do not take
		if isForm && af.c[0] == 0 && !store {
			// each run of consecutive tid.x reads one address: one load
			for _, sg := range r.segs[r.bw[blk]] {
				m := uint32(1<<sg.n-1) << sg.lane
				if eff&m != m {
					continue
				}
				addr := r.segFirst(&af, blk, sg) + o.addrConst
				data, off, _, ok := r.winAt(o.space, blk, addr, n)
				if !ok || addr&(n-1) != 0 {
					continue // (lane by lane below, which faults where it must)
				}
				x := extend(mem.Load(data[off:off+n]), t, int(n)*8)
				for i := sg.lane; i < sg.lane+sg.n; i++ {
					row[i] = x
				}
				left &^= m
			}
			if left == 0 {
				continue
			}
		}
		if isForm && int64(af.c[0]) > 0 && af.c[0] < 1<<32 && af.c[0]&(n-1) == 0 {
			// each run of consecutive tid.x that runs wholly: one check of
			// its span, then its lanes at steps of c[0]
			for _, sg := range r.segs[r.bw[blk]] {
				m := uint32(1<<sg.n-1) << sg.lane
				if eff&m != m {
					continue
				}
				start := r.segFirst(&af, blk, sg) + o.addrConst
				span := af.c[0]*uint64(sg.n-1) + n
				data, off, _, ok := r.winAt(o.space, blk, start, span)
				if !ok || start&(n-1) != 0 {
					continue // (lane by lane below, which faults where it must)
				}
				if store && o.space == mem.SpaceGlobal && !r.keepStrided(data[off:off+span], af.c[0], n, sg.n) {
					return 0, false
				}
				accessStrided(row, sg, data[off:off+span], af.c[0], n, t, store)
				if af.c[0] >= 64 && !store {
					r.strided = true // (a cache line per lane)
				}
				left &^= m
			}
			if left == 0 {
				continue
			}
		}
		addrs := r.addrRow(o, af, isForm, blk)
		if done, ok := r.lanesAccess(o, blk, addrs, row, left, store, signed); !ok {
			return 0, false // (the undo log is full)
		} else if done {
			continue
		}
		for m := left; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			addr := addrs[i] + o.addrConst
			data, off, _, ok := r.winAt(o.space, blk, addr, n)
			if !ok || addr&(n-1) != 0 {
				return 0, false
			}
			if store {
				if o.space == mem.SpaceGlobal {
					if !r.keep(data[off : off+n]) {
						return 0, false
					}
				}
				mem.Store(data[off:off+n], row[i])
			} else {
				row[i] = extend(mem.Load(data[off:off+n]), t, int(n)*8)
			}
		}
	}
	if !store {
		r.wroteRows(v)
	}
	return 0, true
}

// wholeRun returns the end of the run of blocks from blk on (blk itself
// running op o in all its lanes) in which every block does, at addresses
// of form af (n bytes each, consecutive tid.x at consecutive addresses)
// that follow each other from block to block.
func (r *batchRun) wholeRun(o *Op, af *form, blk int, n uint64) int {
	next := r.segFirst(af, blk, batchSeg{0, warpSize}) + n*warpSize
	end := blk + 1
	for ; end < r.nb; end++ {
		if r.act[end]&r.guardOf(o, end) != ^uint32(0) || r.segFirst(af, end, batchSeg{0, warpSize}) != next {
			break
		}
		next += n * warpSize
	}
	return end
}

// allLanes reports whether a load may fill every lane's rows, running or
// not: outside splits (the lanes that do not run left for the exit) and
// in CTAs without partial warps (every lane is a thread, inside the
// batch's domain).
func (r *batchRun) allLanes() bool {
	return len(r.frames) == 0 && r.ctaLanes%warpSize == 0
}

// volatileLoad runs an ld.volatile.global lane by lane, each element
// through the host's atomics (atomicLoad), as the warp engine's strong
// loads do: single-copy atomic against other workers' stores. False: a
// lane's address is outside global memory or misaligned (the warp engine
// faults it).
func (r *batchRun) volatileLoad(o *Op, af form, isForm bool) bool {
	n, v := uint64(o.size), o.vec[0]
	if isForm && o.guard == 0 && len(r.frames) == 0 && r.full() {
		// every lane, one range (a copy through a volatile pointer): one
		// check, then the elements one after the other
		if v0, st, ok := r.linear(&af); ok && st == n {
			start := v0 + o.addrConst
			total := n * warpSize * uint64(r.nb)
			if data, off, ok := r.window(start, total); ok && start&(n-1) == 0 {
				r.countAll()
				all := data[off : off+total]
				for blk := range r.nb {
					row, run := r.row(blk, v), all[uint64(blk)*warpSize*n:]
					for i := range row {
						row[i] = extend(atomicLoad(run[uint64(i)*n:uint64(i+1)*n]), o.typ, int(n)*8)
					}
				}
				r.wroteRows(v)
				return true
			}
		}
	}
	for blk := range r.nb {
		a, g := r.issue(o, blk)
		eff := a & g
		if eff == 0 {
			continue
		}
		row, addrs := r.row(blk, v), r.addrRow(o, af, isForm, blk)
		lo, hi, mis := laneSpan(addrs, o.addrConst, eff)
		if mis&(n-1) != 0 || hi-lo > 1<<32 {
			return false
		}
		// (one window for the warp's lanes: a check per lane took most of
		// a volatile copy's time)
		data, off, _, in := r.winAt(o.space, blk, lo, hi-lo+n)
		for m := eff; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			addr := addrs[i] + o.addrConst
			at := addr - lo + off
			if !in {
				var ok bool
				if data, at, _, ok = r.winAt(o.space, blk, addr, n); !ok {
					return false
				}
			}
			row[i] = extend(atomicLoad(data[at:at+n]), o.typ, int(n)*8)
		}
	}
	r.wroteRows(v)
	return true
}

// lanesAccess runs a load or store of the lanes of mask of block blk at
// addrs[lane] + o.addrConst (rows: a loop's addresses, a split's lanes)
// when one window holds all of them, aligned: every lane one after the
// other in one pass, else one pass over the lanes' offsets; false leaves
// them to the lane-by-lane path (which faults where it must); !ok: the
// undo log is full (keep).
func (r *batchRun) lanesAccess(o *Op, blk int, addrs, row *lanes, mask uint32, store, signed bool) (done, ok bool) {
	n := uint64(o.size)
	keep := store && o.space == mem.SpaceGlobal && r.keeping()
	if !store && mask == ^uint32(0) && simdEnabled {
		// every lane, in the window of lane 0's address: one AVX2 pass
		// that checks every lane before it writes the row (false: the
		// passes below)
		if load := simdLoads[n][b2i(signed)]; load != nil {
			if data, _, base, in := r.winAt(o.space, blk, addrs[0]+o.addrConst, n); in && base&7 == 0 &&
				load(row, addrs, &data[0], o.addrConst-base, uint64(len(data))-n) {
				return true, true
			}
		}
	}
	if mask == ^uint32(0) && consecutive(addrs, n) {
		lo := addrs[0] + o.addrConst
		data, off, _, in := r.winAt(o.space, blk, lo, warpSize*n)
		if !in || lo&(n-1) != 0 {
			return false, true
		}
		run := data[off : off+warpSize*n]
		switch {
		case !store:
			loadRun(row, run, n, signed)
		case keep && !r.keep(run):
			return false, false
		default:
			storeRun(run, row, n)
		}
		return true, true
	}
	lo, hi, mis := laneSpan(addrs, o.addrConst, mask)
	if mis&(n-1) != 0 || hi-lo > 1<<32 {
		return false, true
	}
	data, off, _, in := r.winAt(o.space, blk, lo, hi-lo+n)
	if !in {
		return false, true
	}
	offs := &r.offs
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		offs[i] = addrs[i] + o.addrConst - lo + off
	}
	if !store {
		loadLanes(row, data, offs, mask, int(n), o.typ)
		return true, true
	}
	if keep {
		for m := mask; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			if !r.keep(data[offs[i] : offs[i]+n]) {
				return false, false
			}
		}
		if hi-lo >= warpSize*64 {
			// a scatter whose old values the batch keeps lane by lane
			// (random out[idx[i]]): each kept value is a read that misses
			// the caches where the warp engine's store does not wait, so
			// the worker runs the rest of the launch there (h_scatter:
			// 206 ms batched, 40 warp by warp)
			r.strided = true
		}
	}
	storeLanes(data, offs, row, mask, int(n))
	return true, true
}

// addrRow returns block blk's row of op o's addresses (without
// o.addrConst): its form's values (af, when isForm) in r.tmp, else its
// address register's row.
func (r *batchRun) addrRow(o *Op, af form, isForm bool, blk int) *lanes {
	if isForm {
		r.formRow(af, blk, &r.tmp)
		return &r.tmp
	}
	return r.row(blk, o.addrBase)
}

// laneSpan returns the lowest and highest of the addresses addrs[lane] + c
// of the lanes of mask, and their bits ORed (alignment).
func laneSpan(addrs *lanes, c uint64, mask uint32) (lo, hi, mis uint64) {
	lo = ^uint64(0)
	for m := mask; m != 0; m &= m - 1 {
		a := addrs[bits.TrailingZeros32(m)] + c
		lo, hi, mis = min(lo, a), max(hi, a), mis|a
	}
	return lo, hi, mis
}

// consecutive reports whether a warp's addresses follow each other at
// steps of n.
func consecutive(addrs *lanes, n uint64) bool {
	if addrs[1]-addrs[0] != n { // (most gathers' first two lanes tell)
		return false
	}
	var diff uint64
	for i := range addrs {
		diff |= addrs[i] - addrs[0] - uint64(i)*n
	}
	return diff == 0
}

// vectorAccess runs ld/st.v2/.v4 (.global or .shared) block by block: the AVX2 loop of
// the warp engine where every lane runs (it checks every lane first),
// else lane by lane; false: a lane faults.
func (r *batchRun) vectorAccess(pc int32, o *Op, store bool) bool {
	t := o.typ
	n := uint64(o.size)
	size := n * uint64(len(o.vec)) // the whole vector: its alignment too
	for _, v := range o.vec {
		if v >= 0 && (store || o.guard != 0 || len(r.frames) > 0) {
			r.materialize(v)
		}
	}
	af, isForm := r.addrForm(o)
	var loop func(rows *[4]*lanes, regs *lanes, data *byte, adj, limit uint64) bool
	if store {
		loop = simdVectorStore(len(o.vec), o.size)
	} else {
		loop = simdVectorLoad(len(o.vec), o.size, t)
	}
	var rows [4]*lanes
	// prefetch distance: where this op will access next, when the batch's
	// vectors are consecutive (as for scalars: one step of its own on)
	v0, st, lin := r.linear(&af)
	lin = lin && isForm && st == size // the batch's vectors one after the other
	var pf uint64
	if lin && prefetchEnabled && o.space == mem.SpaceGlobal {
		pf = uint64(r.pfStep(pc, v0))
	}
	// keeps: a global store keeps what it overwrites first (the whole
	// batch's range, a warp's, else lane by lane)
	keeps := store && o.space == mem.SpaceGlobal && r.keeping()
	if whole := o.space == mem.SpaceGlobal && isForm && o.guard == 0 && r.full() && simdEnabled && len(o.vec) == 4 && n == 4 &&
		(store || t[1] != 's') && o.vec[0] >= 0 && o.vec[1] >= 0 && o.vec[2] >= 0 && o.vec[3] >= 0; whole {
		// every lane, the batch's vectors one after the other: one check,
		// one pass of transposes
		if lin {
			start := v0 + o.addrConst
			total := size * warpSize * uint64(r.nb)
			if data, off, ok := r.window(start, total); ok && start&(size-1) == 0 {
				if keeps && !r.keep(data[off:off+total]) {
					return false
				}
				r.countAll()
				p := &data[off : off+total][0]
				stride := uintptr(r.slots * warpSize * 8)
				v := o.vec
				if store {
					batchStoreV4x32N(p, r.row(0, v[0]), r.row(0, v[1]), r.row(0, v[2]), r.row(0, v[3]), stride, r.nb, uintptr(pf))
				} else {
					batchLoadV4Z32N(r.row(0, v[0]), r.row(0, v[1]), r.row(0, v[2]), r.row(0, v[3]), stride, p, r.nb, uintptr(pf))
					for _, s := range v {
						r.wroteRows(s)
					}
				}
				return true
			}
		}
	}
	for blk := range r.nb {
		a, g := r.issue(o, blk)
		eff := a & g
		if eff == 0 {
			continue
		}
		addrs := r.addrRow(o, af, isForm, blk)
		if pf != 0 {
			if data, off, ok := r.window(addrs[0]+o.addrConst+pf, size*warpSize); ok {
				p := uintptr(unsafe.Pointer(&data[off]))
				if store {
					prefetchLinesW(p, uintptr(size*warpSize))
				} else {
					prefetchLines(p, uintptr(size*warpSize))
				}
			}
		}
		for k, v := range o.vec {
			rows[k] = &r.tmp2 // (a sink)
			if v >= 0 {
				rows[k] = r.row(blk, v)
			}
		}
		if loop != nil && eff == ^uint32(0) && (!keeps || consecutive(addrs, size)) {
			a0 := addrs[0] + o.addrConst
			if keeps {
				// (the warp's vectors one after the other: kept at once)
				data, off, _, ok := r.winAt(o.space, blk, a0, size*warpSize)
				if !ok || a0&(size-1) != 0 {
					return false
				}
				if !r.keep(data[off : off+size*warpSize]) {
					return false
				}
			}
			if data, _, base, ok := r.winAt(o.space, blk, a0, size); ok && uint64(len(data)) >= size &&
				loop(&rows, addrs, &data[0], o.addrConst-base, uint64(len(data))-size) {
				continue
			}
		}
		for m := eff; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			addr := addrs[i] + o.addrConst
			data, off, _, ok := r.winAt(o.space, blk, addr, size)
			if !ok || addr&(size-1) != 0 {
				return false
			}
			if keeps {
				if !r.keep(data[off : off+size]) {
					return false
				}
			}
			for k := range o.vec {
				e := data[off+uint64(k)*n : off+uint64(k+1)*n]
				if store {
					mem.Store(e, rows[k][i])
				} else {
					rows[k][i] = extend(mem.Load(e), t, int(n)*8)
				}
			}
		}
	}
	if !store {
		for _, v := range o.vec {
			if v >= 0 {
				r.wroteRows(v)
			}
		}
	}
	return true
}

// rowsAt loads the rows of slot s in the nb blocks from b0 on from data
// (store: stores them to data), n bytes a lane, the blocks' lanes one
// after the other.
func (r *batchRun) rowsAt(s int32, b0, nb int, data []byte, n uint64, signed, store bool, pf uintptr) {
	stride := uintptr(r.slots * warpSize * 8)
	if simdEnabled && n >= 4 {
		p := &data[:uint64(nb)*warpSize*n][0]
		switch {
		case store && n == 4:
			batchStore32N(p, r.row(b0, s), stride, nb, pf)
		case store:
			batchStore64N(p, r.row(b0, s), stride, nb, pf)
		case n == 8:
			batchCopy64N(r.row(b0, s), stride, p, nb, pf)
		case signed:
			batchLoadS32N(r.row(b0, s), stride, p, nb, pf)
		default:
			batchLoadZ32N(r.row(b0, s), stride, p, nb, pf)
		}
		return
	}
	span := warpSize * n
	for k := range nb {
		part := data[uint64(k)*span : uint64(k+1)*span]
		if store {
			storeRun(part, r.row(b0+k, s), n)
		} else {
			loadRun(r.row(b0+k, s), part, n, signed)
		}
	}
}

// A gatherPlan is a shared load's offsets in a CTA, per warp and lane,
// and the kind of each chunk of eight lanes (batchChunks32), for the
// address form it was made for (its op's offset does not change).
type gatherPlan struct {
	f     form
	offs  []uint32
	kinds []uint8
	// one: every chunk's kind, when they are all alike and not gathers
	// (0: not so): batchChunks32NK's case, without a branch per chunk
	one uint8
	// a global load's (globalOffsets): the least offset of a CTA's
	// lanes (c·tid) and, per warp, the offsets from its lowest lane's,
	// that lane's offset in the CTA and the span of the warp's accesses
	lo         uint64
	woffs      []uint32
	wlo, wspan []uint64
}

// sharedOffsets returns, when unsigned 4-byte load o (op pc) from shared
// memory at form af reads, in every CTA of the batch, each lane at the
// same offset (no %ctaid.x term), every offset in bounds and aligned, its
// gather plan (made once per op while its form stays the same: a tile's
// loads in a loop), else nil.
func (r *batchRun) sharedOffsets(pc int32, o *Op, af *form) *gatherPlan {
	t := o.typ
	size := uint64(o.size)
	if o.space != mem.SpaceShared || size == 4 && (!simdEnabled || t[1] == 's') || size != 4 && size != 8 ||
		af.c[3] != 0 || af.bits != 64 || r.shSize < size || r.shSize > 1<<31 {
		return nil
	}
	if r.gplans == nil {
		r.gplans = make([]*gatherPlan, len(r.fn.Ops))
	}
	n := r.wpc * warpSize
	g := r.gplans[pc]
	if g != nil && g.f == *af && len(g.offs) == n {
		return g
	}
	if g == nil {
		g = &gatherPlan{}
		r.gplans[pc] = g
	}
	g.f = *af
	g.offs = append(g.offs[:0], make([]uint32, n)...)
	for i := range n {
		x := r.tid[i]
		off := af.base + af.c[0]*uint64(x[0]) + af.c[1]*uint64(x[1]) + af.c[2]*uint64(x[2]) + o.addrConst
		if off > r.shSize-size || off&(size-1) != 0 {
			g.offs = g.offs[:0] // (lane by lane, which faults where it must)
			return nil
		}
		g.offs[i] = uint32(off)
	}
	g.setKinds(r.shSize, size)
	return g
}

// chunks32N runs gather plan g for ctas CTAs of wpc warps
// (batchChunks32N), without a branch per chunk when all its chunks are of
// one kind other than a gather; those of eight consecutive values then
// prefetch pf bytes on (the next batch's: 2-D blocks' rows are many
// streams at once, more than the hardware's prefetchers follow).
func chunks32N(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, g *gatherPlan, wpc, ctas int, pf uintptr) {
	switch {
	case g.one != 0 && pf != 0:
		batchChunks32NKPF(row, rowStride, base, baseStride, &g.offs[0], g.one == 2, wpc, ctas, pf)
		return
	case g.one != 0:
		batchChunks32NK(row, rowStride, base, baseStride, &g.offs[0], g.one == 2, wpc, ctas, 0)
		return
	}
	batchChunks32N(row, rowStride, base, baseStride, &g.offs[0], &g.kinds[0], wpc, ctas)
}

// setKinds sets the kind of each chunk of eight lanes from the offsets of
// their size-byte values: one value, eight consecutive (below limit) or a
// gather.
func (g *gatherPlan) setKinds(limit, size uint64) {
	defer func() {
		g.one = g.kinds[0]
		for _, k := range g.kinds {
			if k != g.one {
				g.one = 0
			}
		}
	}()
	g.kinds = append(g.kinds[:0], make([]uint8, len(g.offs)/8)...)
	for c := range g.kinds {
		ch := g.offs[8*c : 8*c+8]
		same, consec := true, true
		for j := 1; j < 8; j++ {
			same = same && ch[j] == ch[0]
			consec = consec && ch[j] == ch[0]+uint32(size)*uint32(j)
		}
		switch {
		case same:
			g.kinds[c] = 2
		case consec && uint64(ch[0])+8*size <= limit:
			g.kinds[c] = 1
		}
	}
}

// gather64 sets row from the 8-byte values at base+offs[i], by chunks of
// eight lanes as kinds says (batchChunks32's kinds).
func gather64(row *lanes, base []byte, offs []uint32, kinds []uint8) {
	for c := range 4 {
		ch, r := offs[8*c:8*c+8], row[8*c:8*c+8]
		switch kinds[c] {
		case 2:
			v := binary.LittleEndian.Uint64(base[ch[0]:])
			for i := range r {
				r[i] = v
			}
		case 1:
			if hostLittleEndian { // (the row's words are the bytes as they are)
				copy(unsafe.Slice((*byte)(unsafe.Pointer(&r[0])), 64), base[ch[0]:ch[0]+64])
				break
			}
			for i := range r {
				r[i] = binary.LittleEndian.Uint64(base[ch[0]+uint32(8*i):])
			}
		default:
			for i, off := range ch {
				r[i] = binary.LittleEndian.Uint64(base[off:])
			}
		}
	}
}

// batchRange returns the global memory holding every address form af plus
// off takes over the batch's threads, for n-byte accesses, and the
// lowest one's offset in it, when one window holds them all and every
// one is aligned (the form's base and steps are).
func (r *batchRun) batchRange(af *form, off, n uint64) ([]byte, uint64, bool) {
	lo, hi, ok := af.span(64, false, &r.dom)
	if !ok || !af.aligned(off, n) {
		return nil, 0, false
	}
	return r.window(lo+off, hi-lo+n)
}

// globalOffsets returns, for a 4-byte load (op pc) at form af by whole
// warps, its gather plan: each lane's offset from the lowest address of
// its CTA's lanes (the same in every CTA: the form's tid terms), when
// they all stay below 2^31 (made once per op while the tid terms stay the
// same), else nil.
func (r *batchRun) globalOffsets(pc int32, af *form, size uint64) *gatherPlan {
	if !simdEnabled || af.bits != 64 || r.ctaLanes%warpSize != 0 {
		return nil
	}
	if r.gplans == nil {
		r.gplans = make([]*gatherPlan, len(r.fn.Ops))
	}
	n := r.wpc * warpSize
	key := form{c: [4]uint64{af.c[0], af.c[1], af.c[2]}, bits: 64}
	g := r.gplans[pc]
	if g != nil && g.f == key && len(g.offs) == n {
		return g
	}
	if g == nil {
		g = &gatherPlan{}
		r.gplans[pc] = g
	}
	g.f = key
	g.offs = append(g.offs[:0], make([]uint32, n)...)
	lo := int64(math.MaxInt64)
	for i := range n {
		x := r.tid[i]
		lo = min(lo, int64(af.c[0]*uint64(x[0])+af.c[1]*uint64(x[1])+af.c[2]*uint64(x[2])))
	}
	for i := range n {
		x := r.tid[i]
		off := af.c[0]*uint64(x[0]) + af.c[1]*uint64(x[1]) + af.c[2]*uint64(x[2]) - uint64(lo)
		if off >= 1<<31 {
			g.offs = g.offs[:0]
			return nil
		}
		g.offs[i] = uint32(off)
	}
	g.setKinds(math.MaxUint64, size)
	// each warp's offsets from its own lowest address, for warps that
	// run alone (a split's other warps)
	g.lo = uint64(lo)
	g.woffs = append(g.woffs[:0], g.offs...)
	g.wlo, g.wspan = g.wlo[:0], g.wspan[:0]
	for w := range r.wpc {
		offs := g.woffs[w*warpSize : (w+1)*warpSize]
		wlo, whi := slices.Min(offs), slices.Max(offs)
		for i := range offs {
			offs[i] -= wlo
		}
		g.wlo, g.wspan = append(g.wlo, uint64(wlo)), append(g.wspan, uint64(whi-wlo)+4)
	}
	return g
}

// ctaLinear reports whether form f steps by n from one thread of a CTA to
// the next in the order of their linear indices, the same in every CTA
// (no ctaid.x term), and the CTAs have no partial warps.
func (r *batchRun) ctaLinear(f *form, n uint64) bool {
	return f.c[3] == 0 && r.ctaSpans(f, n)
}

// ctaSpans reports whether form f, for accesses of n bytes, puts each
// CTA's lanes one after the other (in thread order, whole warps), where
// ever its CTA's part lies.
func (r *batchRun) ctaSpans(f *form, n uint64) bool {
	s, ok := r.ctaStep(f)
	return ok && s == n
}

// accessStrided loads (store: stores) segment sg's lanes of row from
// data, n bytes each, stride bytes apart (the span checked).
func accessStrided(row *lanes, sg batchSeg, data []byte, stride, n uint64, t string, store bool) {
	if stride == n && simdEnabled && n == 4 && sg.n%4 == 0 && (store || t[1] != 's') {
		if store {
			batchStore32s(&data[:4*sg.n][0], &row[sg.lane:][0], sg.n)
		} else {
			batchLoadZ32s(&row[sg.lane : sg.lane+sg.n][0], &data[:4*sg.n][0], sg.n)
		}
		return
	}
	off := uint64(0)
	switch {
	case store && n == 4 && hostLittleEndian:
		// (the span is checked: no check per lane, an array of structs'
		// six stores a lane cost a fifth of its kernel so)
		p := unsafe.Pointer(&data[:uint64(sg.n-1)*stride+4][0])
		for i := sg.lane; i < sg.lane+sg.n; i++ {
			*(*uint32)(unsafe.Add(p, off)) = uint32(row[i])
			off += stride
		}
	case store && n == 8 && hostLittleEndian:
		p := unsafe.Pointer(&data[:uint64(sg.n-1)*stride+8][0])
		for i := sg.lane; i < sg.lane+sg.n; i++ {
			*(*uint64)(unsafe.Add(p, off)) = row[i]
			off += stride
		}
	case store && n == 4:
		for i := sg.lane; i < sg.lane+sg.n; i++ {
			binary.LittleEndian.PutUint32(data[off:], uint32(row[i]))
			off += stride
		}
	case store && n == 8:
		for i := sg.lane; i < sg.lane+sg.n; i++ {
			binary.LittleEndian.PutUint64(data[off:], row[i])
			off += stride
		}
	case store && n == 1:
		// (a pixel's byte: mem.Store's switch per lane took a quarter of
		// an image conversion)
		d := data[:uint64(sg.n-1)*stride+1]
		for i := sg.lane; i < sg.lane+sg.n; i++ {
			d[off] = byte(row[i])
			off += stride
		}
	case store && n == 2:
		d := data[:uint64(sg.n-1)*stride+2]
		for i := sg.lane; i < sg.lane+sg.n; i++ {
			binary.LittleEndian.PutUint16(d[off:], uint16(row[i]))
			off += stride
		}
	case store:
		for i := sg.lane; i < sg.lane+sg.n; i++ {
			mem.Store(data[off:off+n], row[i])
			off += stride
		}
	case n == 1 && t[1] != 's':
		d := data[:uint64(sg.n-1)*stride+1]
		for i := sg.lane; i < sg.lane+sg.n; i++ {
			row[i] = uint64(d[off])
			off += stride
		}
	case n == 2 && t[1] != 's':
		d := data[:uint64(sg.n-1)*stride+2]
		for i := sg.lane; i < sg.lane+sg.n; i++ {
			row[i] = uint64(binary.LittleEndian.Uint16(d[off:]))
			off += stride
		}
	case n == 4 && t[1] != 's':
		for i := sg.lane; i < sg.lane+sg.n; i++ {
			row[i] = uint64(binary.LittleEndian.Uint32(data[off:]))
			off += stride
		}
	case n == 8:
		for i := sg.lane; i < sg.lane+sg.n; i++ {
			row[i] = binary.LittleEndian.Uint64(data[off:])
			off += stride
		}
	default:
		for i := sg.lane; i < sg.lane+sg.n; i++ {
			row[i] = extend(mem.Load(data[off:off+n]), t, int(n)*8)
			off += stride
		}
	}
}

// maskedRun loads (store: stores) the lanes of mask of a warp whose
// n-byte values (4 or 8; signed: sign-extended) follow each other in run.
func maskedRun(run []byte, row *lanes, mask uint32, n uint64, signed, store bool) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		e := run[uint64(i)*n:]
		switch {
		case store && n == 4:
			binary.LittleEndian.PutUint32(e, uint32(row[i]))
		case store:
			binary.LittleEndian.PutUint64(e, row[i])
		case n == 8:
			row[i] = binary.LittleEndian.Uint64(e)
		case signed:
			row[i] = uint64(int64(int32(binary.LittleEndian.Uint32(e))))
		default:
			row[i] = uint64(binary.LittleEndian.Uint32(e))
		}
	}
}

// loadRun loads a warp's consecutive n-byte values (signed: sign-extended)
// into row.
func loadRun(row *lanes, data []byte, n uint64, signed bool) {
	switch {
	case n == 4 && simdEnabled && signed:
		batchLoadS32N(row, 0, &data[:128][0], 1, 0)
	case n == 4 && simdEnabled:
		batchLoadZ32N(row, 0, &data[:128][0], 1, 0)
	case n == 8 && simdEnabled:
		batchCopy64N(row, 0, &data[:256][0], 1, 0)
	case n == 8:
		for i := range row {
			row[i] = binary.LittleEndian.Uint64(data[8*i:])
		}
	case n == 4 && signed:
		for i := range row {
			row[i] = uint64(int64(int32(binary.LittleEndian.Uint32(data[4*i:]))))
		}
	case n == 4:
		for i := range row {
			row[i] = uint64(binary.LittleEndian.Uint32(data[4*i:]))
		}
	// (bytes and halves: four or eight lanes a word; a byte image's loads
	// one at a time held its copies at a few percent of memcpy)
	case n == 2 && signed:
		d := (*[2 * warpSize]byte)(data)
		for i := 0; i < warpSize; i += 4 {
			w := binary.LittleEndian.Uint64(d[2*i:])
			row[i], row[i+1] = uint64(int64(int16(w))), uint64(int64(int16(w>>16)))
			row[i+2], row[i+3] = uint64(int64(int16(w>>32))), uint64(int64(int16(w>>48)))
		}
	case n == 2:
		d := (*[2 * warpSize]byte)(data)
		for i := 0; i < warpSize; i += 4 {
			w := binary.LittleEndian.Uint64(d[2*i:])
			row[i], row[i+1], row[i+2], row[i+3] = w&0xffff, w>>16&0xffff, w>>32&0xffff, w>>48
		}
	case n == 1 && signed:
		d := (*[warpSize]byte)(data)
		for i := 0; i < warpSize; i += 4 {
			w := binary.LittleEndian.Uint32(d[i:])
			row[i], row[i+1] = uint64(int64(int8(w))), uint64(int64(int8(w>>8)))
			row[i+2], row[i+3] = uint64(int64(int8(w>>16))), uint64(int64(int8(w>>24)))
		}
	default: // n == 1
		d := (*[warpSize]byte)(data)
		for i := 0; i < warpSize; i += 4 {
			w := binary.LittleEndian.Uint32(d[i:])
			row[i], row[i+1], row[i+2], row[i+3] = uint64(w&0xff), uint64(w>>8&0xff), uint64(w>>16&0xff), uint64(w>>24)
		}
	}
}

// storeRun stores a warp's row as consecutive n-byte values.
func storeRun(data []byte, row *lanes, n uint64) {
	switch {
	case n == 4 && simdEnabled:
		batchStore32N(&data[:128][0], row, 0, 1, 0)
		return
	case n == 8 && simdEnabled:
		batchStore64N(&data[:256][0], row, 0, 1, 0)
		return
	}
	switch n {
	case 8:
		for i, v := range row {
			binary.LittleEndian.PutUint64(data[8*i:], v)
		}
	case 4:
		for i, v := range row {
			binary.LittleEndian.PutUint32(data[4*i:], uint32(v))
		}
	case 2:
		d := (*[2 * warpSize]byte)(data)
		for i := 0; i < warpSize; i += 4 {
			binary.LittleEndian.PutUint64(d[2*i:], row[i]&0xffff|row[i+1]&0xffff<<16|row[i+2]&0xffff<<32|row[i+3]<<48)
		}
	default: // 1
		d := (*[warpSize]byte)(data)
		for i := 0; i < warpSize; i += 4 {
			binary.LittleEndian.PutUint32(d[i:], uint32(row[i]&0xff|row[i+1]&0xff<<8|row[i+2]&0xff<<16|row[i+3]<<24))
		}
	}
}
