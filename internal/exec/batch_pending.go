package exec

import "math/bits"

// Pending adds in batches. A batch that goes back to the warp engine runs
// again from the start there, so a global atomic in a batch must not have
// changed memory by then (batch_atomic.go keeps atomics out of loops and
// before anything that can send the batch back). Adds that may be buffered
// (atomic_buffer.go: relaxed 32- or 64-bit integer adds whose old value no
// instruction reads, in a kernel without fences or release/acquire) need
// no such rule: a batch sums them per word (pending), and adds the sums
// to memory when it ends (one atomic add per word), or drops them when it
// goes back. Integer adds commute, so the sums give what the adds one by
// one would. The batch's threads must still see their own adds: an access
// of the batch to the allocation the sums are for sends it back to the
// warp engine (window), which has its own way (plainGlobal). So such adds
// may lie in loops (a histogram's grid-stride loop) and come before loads,
// stores and branches.

// batchPending is a batch's pending sums: words of one global allocation,
// of one width.
type batchPending struct {
	data        []byte // the allocation; nil: no pending sums
	base        uint64
	width       uint64
	lo          uint64 // offset in data of the word d32/d64[0] is for
	d32         []uint32
	d64         []uint64
	first, last int // touched words (first > last when none)
	// touched: where track is set, the first nt words that became
	// nonzero (a word may appear twice), which keep walks instead of
	// [first, last] where they are fewer (a batch's 8192 adds to 65536
	// bins); nt past touchedCap: too many to list (the list wrapped
	// round). Listed without a branch per add (a test of whether to
	// append mispredicted on half of a 4096-word histogram's adds: 13 to
	// 27 ms), and only where the last batch's words were sparse, more
	// than twice as many as its adds (the listing cost a 256-bin
	// histogram a fifth: adds counts them)
	touched *[touchedCap]uint32
	nt      int
	track   bool
	adds    int
}

// touchedCap is how many touched words a batch's pending sums list.
const touchedCap = 1 << 14

// pendingAtomsOK reports whether every atomic of the plan adds to pending
// sums (there is at least one).
func pendingAtomsOK(f *Func, p *batchPlan) bool {
	any := false
	for pc, k := range p.kind {
		if k != bkAtom {
			continue
		}
		ai, ok := f.Ops[pc].aux.(*atomInfo)
		if !ok || !ai.buffer || ai.addF32 {
			return false
		}
		any = true
	}
	return any && f.redSafe
}

// atomicPending runs the integer add o of a pendingAtoms plan: each
// running lane's value joins its word's sum. False (the batch goes back to
// the warp engine, and so do the launch's other batches) for a lane
// outside the allocation of the batch's sums or the words they cover,
// misaligned, or of another width.
func (r *batchRun) atomicPending(pc int32, o *Op) bool {
	if !r.addPending(pc, o) {
		r.declined = true // (the launch's other batches would likely go back too)
		return false
	}
	return true
}

// addPending is atomicPending's work.
func (r *batchRun) addPending(pc int32, o *Op) bool {
	r.materializeSrcs(pc)
	ai := o.aux.(*atomInfo)
	pd := &r.pend
	width := uint64(o.size)
	if pd.data == nil {
		// (the first running lane's allocation)
		for blk := range r.nb {
			if m := r.act[blk] & r.guardOf(o, blk); m != 0 {
				if !r.claimPending(r.row(blk, o.addrBase)[bits.TrailingZeros32(m)]+o.addrConst, width) {
					return false
				}
				break
			}
		}
	}
	if pd.data == nil { // (no lane runs it)
		r.issueAll(o)
		return true
	}
	if pd.width != width {
		return false
	}
	if pd.track {
		return r.addPendingListed(o, ai)
	}
	// (the fields in locals: the adds' stores would make the compiler
	// load them again lane after lane; one loop per width: a generic
	// function for both made the histogram 12% slower; and without the
	// touched list, whose upkeep cost a 256-bin histogram a tenth)
	start, limit, lo := o.addrConst-pd.base, uint64(len(pd.data))-width, pd.lo
	first, last := pd.first, pd.last
	d32, d64 := pd.d32, pd.d64
	for blk := range r.nb {
		addrs, vals := r.row(blk, o.addrBase), r.row(blk, ai.val)
		m := r.act[blk] & r.guardOf(o, blk)
		pd.adds += bits.OnesCount32(m)
		if m == ^uint32(0) && sameInLanes(addrs, m, 0) {
			// every lane at one word (a global counter): the warp's sum,
			// then one add (lane after lane, each add waited for the
			// previous one's store)
			vals, m = r.warpSum(vals), 1
		}
		if width == 4 {
			for ; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				off := addrs[l] + start
				i := (off - lo) >> 2
				if off > limit || off&3 != 0 || i >= redWords {
					pd.first, pd.last = first, last // (drop clears them)
					return false
				}
				d32[i] += uint32(vals[l])
				first, last = min(first, int(i)), max(last, int(i))
			}
			continue
		}
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			off := addrs[l] + start
			i := (off - lo) >> 3
			if off > limit || off&7 != 0 || i >= redWords {
				pd.first, pd.last = first, last // (drop clears them)
				return false
			}
			d64[i] += vals[l]
			first, last = min(first, int(i)), max(last, int(i))
		}
	}
	pd.first, pd.last = first, last
	r.issueAll(o)
	return true
}

// warpSum puts the sum of a warp's values in r.tmp[0] and returns r.tmp.
func (r *batchRun) warpSum(vals *lanes) *lanes {
	var sum uint64
	for _, v := range vals {
		sum += v
	}
	r.tmp[0] = sum
	return &r.tmp
}

// addPendingListed is addPending's loop that also lists the words that
// become nonzero (touched), for sparse sums.
func (r *batchRun) addPendingListed(o *Op, ai *atomInfo) bool {
	pd := &r.pend
	width := uint64(o.size)
	start, limit, lo := o.addrConst-pd.base, uint64(len(pd.data))-width, pd.lo
	first, last := pd.first, pd.last
	d32, d64, touched, nt := pd.d32, pd.d64, pd.touched, pd.nt
	for blk := range r.nb {
		addrs, vals := r.row(blk, o.addrBase), r.row(blk, ai.val)
		m := r.act[blk] & r.guardOf(o, blk)
		pd.adds += bits.OnesCount32(m)
		if m == ^uint32(0) && sameInLanes(addrs, m, 0) {
			vals, m = r.warpSum(vals), 1
		}
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			off := addrs[l] + start
			i := (off - lo) / width
			if off > limit || off&(width-1) != 0 || i >= redWords {
				pd.first, pd.last, pd.nt = first, last, nt // (drop clears them)
				return false
			}
			touched[nt&(touchedCap-1)] = uint32(i)
			if width == 4 {
				nt += b2i(d32[i] == 0)
				d32[i] += uint32(vals[l])
			} else {
				nt += b2i(d64[i] == 0)
				d64[i] += vals[l]
			}
			first, last = min(first, int(i)), max(last, int(i))
		}
	}
	pd.first, pd.last, pd.nt = first, last, nt
	r.issueAll(o)
	return true
}

// claimPending makes the allocation holding addr the one the batch's sums
// are for, covering the aligned block of words around addr.
func (r *batchRun) claimPending(addr, width uint64) bool {
	base, data, ok := r.l.prog.global.Find(addr)
	if !ok || uint64(len(data)) < width {
		return false
	}
	pd := &r.pend
	pd.data, pd.base, pd.width = data, base, width
	pd.first, pd.last = redWords, -1
	pd.lo = (addr - base) &^ (redWords*width - 1)
	if width == 4 && pd.d32 == nil {
		pd.d32 = make([]uint32, redWords)
	}
	if width == 8 && pd.d64 == nil {
		pd.d64 = make([]uint64, redWords)
	}
	if pd.touched == nil {
		pd.touched = new([touchedCap]uint32)
	}
	r.gData, r.gData2 = nil, nil // (the batch's next access there looks the allocation up: window refuses it)
	return true
}

// holds reports whether the batch has sums for the allocation at base
// (window then refuses the access).
func (pd *batchPending) holds(base uint64) bool {
	return pd.data != nil && pd.base == base
}

// commit adds the sums to memory (the batch ended) and drops them.
func (pd *batchPending) commit() {
	if pd.data == nil {
		return
	}
	if first, last := pd.first, pd.last; first <= last {
		words := pd.data[pd.lo+uint64(first)*pd.width:]
		if pd.width == 4 {
			addSums32(words, pd.d32[first:last+1])
		} else {
			addSums64(words, pd.d64[first:last+1])
		}
	}
	pd.empty() // (addSums zeroed the sums)
}

// empty marks the sums gone: no allocation, no words touched or listed,
// no adds counted (the words themselves are zero again).
func (pd *batchPending) empty() {
	pd.data, pd.first, pd.last, pd.nt, pd.adds = nil, redWords, -1, 0, 0
}

// keep moves the sums of a batch that ended into held, the sums of the
// worker's earlier batches of the launch that are not in memory yet:
// added to held's where they are for the same words, else after held's
// reach memory. (Adding every batch's sums to memory, one atomic add per
// word, took a third of a kernel adding to 4096 u64 bins.) The worker adds
// held's to memory before the warp engine runs a CTA and when it is done
// with the launch (launch.go), and a batch before it looks at their
// allocation (window).
func (pd *batchPending) keep(held *batchPending) {
	if pd.data == nil {
		return
	}
	// (the next batch lists its words where this one's were sparse)
	defer func(sparse bool) { pd.track, pd.adds = sparse, 0 }(pd.last-pd.first+1 > 2*pd.adds)
	if held.data != nil && (held.base != pd.base || held.width != pd.width || held.lo != pd.lo) {
		held.commit()
	}
	if held.data == nil {
		// held takes the sums, pd held's spare (zero) words
		held.d32, pd.d32 = pd.d32, held.d32
		held.d64, pd.d64 = pd.d64, held.d64
		held.data, held.base, held.width, held.lo, held.first, held.last = pd.data, pd.base, pd.width, pd.lo, pd.first, pd.last
		pd.empty()
		return
	}
	if first, last := pd.first, pd.last; first <= last {
		var list []uint32 // (nil: the range)
		if pd.track && pd.nt <= touchedCap && pd.nt < (last-first+1)/2 {
			list = pd.touched[:pd.nt]
		}
		if pd.width == 4 {
			mergeSums(held.d32, pd.d32, list, first, last)
		} else {
			mergeSums(held.d64, pd.d64, list, first, last)
		}
		held.first, held.last = min(held.first, first), max(held.last, last)
	}
	pd.empty()
}

// mergeSums adds src's sums to dst's and zeroes them: the words of list,
// or, where list is nil, those from first to last.
func mergeSums[T uint32 | uint64](dst, src []T, list []uint32, first, last int) {
	if list != nil {
		for _, i := range list {
			dst[i] += src[i]
			src[i] = 0
		}
		return
	}
	for i := first; i <= last; i++ {
		dst[i] += src[i]
		src[i] = 0
	}
}

// drop forgets the sums (the batch goes back to the warp engine, which
// adds again).
func (pd *batchPending) drop() {
	if pd.data == nil {
		return
	}
	if pd.first <= pd.last {
		if pd.width == 4 {
			clear(pd.d32[pd.first : pd.last+1])
		} else {
			clear(pd.d64[pd.first : pd.last+1])
		}
	}
	pd.empty()
}
