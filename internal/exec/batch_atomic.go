package exec

import (
	"math"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// Global atomics in batches. A kernel may hold one atom or red on global
// memory (a warp's or a block's partial sum added to a total, a counter;
// or several idempotent ones: atomicsOK),
// which a batch runs block after block through its handler (atomic.go),
// in the order of the warp engine on one worker (CTA after CTA, warp
// after warp), under the lanes' masks.
//
// A batch that faults, or whose launch is cancelled, runs again on the
// warp engine from the start (its global stores put back first where it
// could also go back without a fault: batch_undo.go), which would apply
// an atomic twice. So the atomic
// checks every lane's address before it updates anything, and nothing
// after it may send the batch back: it lies in no loop and in no region
// of a split (it runs once, with every group's lanes), and no load, store,
// parameter load, collective, backward branch (where a batch checks for
// cancellation) or branch that must split whole warps (dynUni) follows it.

// batchAtomic reports whether op o is an atomic a batch may run: atom or
// red of one value on global memory through a register.
func batchAtomic(o *Op) bool {
	in := o.inst
	if in.Opcode != "atom" && in.Opcode != "red" || o.space != mem.SpaceGlobal || o.frameAddr || o.addrBase < 0 {
		return false
	}
	for _, m := range in.Mods {
		switch m {
		case ".v2", ".v4", ".v8":
			return false
		}
	}
	return true
}

// atomicsOK reports whether the kernel's atomics follow the rule above.
// Several atomics follow it where every one is a max, min, and or or whose
// old value no instruction reads (a bounding box's atomicMin and
// atomicMax): applied again from the start after a later one faults,
// each leaves its words as they were (max(max(w, v), v) = max(w, v)), and
// the first one's rule then holds from the first.
func atomicsOK(f *Func, p *batchPlan) bool {
	var atoms []int
	for pc, k := range p.kind {
		if k == bkAtom {
			atoms = append(atoms, pc)
		}
	}
	if len(atoms) == 0 {
		return true
	}
	if len(atoms) > 1 {
		for _, pc := range atoms {
			if !idempotentAtom(&f.Ops[pc]) {
				return false
			}
		}
	}
	a := atoms[0]
	for pc := range f.Ops {
		o := &f.Ops[pc]
		switch p.kind[pc] {
		case bkLoad, bkStore, bkParam, bkColl:
			if pc > a {
				return false
			}
		case bkBra:
			if pc >= a && o.target <= int32(pc) {
				return false // a loop around the atomic or after it
			}
			if pc > a && p.dynUni[pc] {
				return false // it goes back to the warp engine where it parts a warp
			}
			for _, x := range atoms {
				if splitsAround(f, p, int32(pc), int32(x)) {
					return false // in a split's region
				}
			}
		}
	}
	return true
}

// idempotentAtom reports whether atomic o leaves memory as it found it
// when applied a second time with the same values: max, min, and, or,
// its old value unread (atomic_combine.go's combine).
func idempotentAtom(o *Op) bool {
	ai, ok := o.aux.(*atomInfo)
	if !ok {
		return false
	}
	switch ai.combine {
	case redMax, redMin, redAnd, redOr:
		return true
	}
	return false
}

// atomic runs the atomic op o; false: a lane's address faults (nothing
// updated).
func (r *batchRun) atomic(pc int32, o *Op) bool {
	r.materializeSrcs(pc)
	ai := o.aux.(*atomInfo)
	if ai.addInt32 && ai.unread {
		if done, ok := r.addIntsUnread(o, ai); done {
			return ok
		}
	}
	if ai.combine != redAdd && r.combineDense(o, ai) {
		return true
	}
	dst := ai.dst // (-1: red, or a sink)
	if dst >= 0 {
		r.materialize(dst) // (the lanes that do not run keep their values)
	}
	n := uint64(o.size)
	ws := &r.words
	ws.reset(ai.addInt32 || ai.addF32 || ai.addF64 || ai.addInt64)
	last, have := uint64(0), false // (the lane before's address, once there is one)
	for blk := range r.nb {
		addrs := r.row(blk, o.addrBase)
		for m := r.act[blk] & r.guardOf(o, blk); m != 0; m &= m - 1 {
			addr := addrs[bits.TrailingZeros32(m)] + o.addrConst
			if have && addr == last && ws.ok { // (the lane before's word: a total's lanes)
				ws.of = append(ws.of, ws.of[len(ws.of)-1])
				continue
			}
			last, have = addr, true
			if addr&(n-1) != 0 {
				return false
			}
			// (the window of the lane before, else the allocation's)
			if !r.inWindow(addr, n) {
				if _, _, ok := r.window(addr, n); !ok {
					return false
				}
			}
			ws.note(addr)
		}
	}
	if ws.ok && len(ws.addrs) > 0 && (ai.addF64 || ai.addInt64) {
		r.addWords64(o, ai)
		if dst >= 0 {
			r.wroteRows(dst)
		}
		return true
	}
	if ws.ok && len(ws.addrs) > 0 {
		r.addWords(o, ai)
		if dst >= 0 {
			r.wroteRows(dst)
		}
		return true
	}
	for blk := range r.nb {
		a, g := r.issue(o, blk)
		if a&g != 0 {
			r.point(blk)
			o.exec(&r.w, o, a&g)
		}
	}
	if dst >= 0 {
		r.wroteRows(dst)
	}
	return true
}

// addIntsUnread runs an atom/red.add.u32/s32 whose old values nobody reads
// and whose running lanes name a few words in one pass: it checks each
// lane's address and sums its value into its word's total (a lane at the
// word of the lane before skips the lookups: a counter's lanes), then adds
// each total to memory with one fetch-and-add. done false: more words
// than maxWords, nothing updated (the general path takes over); ok false:
// a lane's address faults, nothing updated.
func (r *batchRun) addIntsUnread(o *Op, ai *atomInfo) (done, ok bool) {
	ws := &r.words
	ws.reset(true)
	acc := r.wordAcc[:0]
	last, have, w := uint64(0), false, int32(0)
	for blk := range r.nb {
		addrs, vals := r.row(blk, o.addrBase), r.row(blk, ai.val)
		for m := r.act[blk] & r.guardOf(o, blk); m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			if addr := addrs[l] + o.addrConst; !have || addr != last {
				if addr&3 != 0 {
					return true, false
				}
				if !r.inWindow(addr, 4) {
					if _, _, ok := r.window(addr, 4); !ok {
						return true, false
					}
				}
				if w = ws.index(addr); w < 0 {
					return false, false
				}
				if int(w) == len(acc) {
					acc = append(acc, 0)
				}
				last, have = addr, true
			}
			acc[w] += uint32(vals[l])
		}
	}
	r.wordAcc = acc
	r.issueAll(o)
	for i, a := range ws.addrs {
		data, off, _ := r.window(a, 4)
		atomic.AddUint32((*uint32)(unsafe.Pointer(&data[off])), acc[i])
	}
	return true, true
}

// addOneF32 is addWords' f32 add for lanes that all name one word p,
// whose value was cur: the chain of adds in order keeps its sum in a
// float register (the bits only leave it to be checked: the flushes and
// NaN of atomAddF32Flush, rare), then one compare-and-swap, again from
// the word's new value if another worker changed it.
func (r *batchRun) addOneF32(o *Op, ai *atomInfo, p *uint32, cur uint32) {
	for {
		s := math.Float32frombits(ftzBits32(cur)) // (at least one lane adds: k is 1)
		for blk := range r.nb {
			vals := r.row(blk, ai.val)
			var olds *lanes
			if ai.dst >= 0 && !ai.unread {
				olds = r.row(blk, ai.dst)
			}
			for m := r.act[blk] & r.guardOf(o, blk); m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				if olds != nil {
					olds[l] = uint64(math.Float32bits(s))
				}
				s += math.Float32frombits(ftzBits32(uint32(vals[l])))
				if b := math.Float32bits(s); b&0x7f800000 == 0 || b&0x7f800000 == 0x7f800000 {
					s = math.Float32frombits(ftzBits32(uint32(nan32(b))))
				}
			}
		}
		if atomic.CompareAndSwapUint32(p, cur, math.Float32bits(s)) {
			return
		}
		cur = atomic.LoadUint32(p)
	}
}

// wordSet is the distinct words a batch's atomic add names, up to
// maxWords (ok false past them, or for another op), and per running lane,
// in order, its word's index.
type wordSet struct {
	ok    bool
	addrs []uint64
	of    []int32
	tab   [4 * maxWords]int32 // open addressing on the word's address; index+1, 0: empty
}

// maxWords bounds the words an add of a batch is gathered into (a
// 256-bin histogram's).
const maxWords = 256

func (ws *wordSet) reset(add bool) {
	ws.ok, ws.addrs, ws.of = add, ws.addrs[:0], ws.of[:0]
	if add {
		clear(ws.tab[:])
	}
}

// note records the next running lane's word.
func (ws *wordSet) note(addr uint64) {
	if !ws.ok {
		return
	}
	if w := ws.index(addr); w >= 0 {
		ws.of = append(ws.of, w)
		return
	}
	ws.ok = false
}

// index returns the index of addr's word in ws.addrs, adding it when new;
// -1 past maxWords.
func (ws *wordSet) index(addr uint64) int32 {
	h := uint32((addr>>2)*0x9e3779b97f4a7c15>>32) % uint32(len(ws.tab))
	for {
		i := ws.tab[h]
		if i == 0 {
			if len(ws.addrs) == maxWords {
				return -1
			}
			ws.addrs = append(ws.addrs, addr)
			ws.tab[h] = int32(len(ws.addrs))
			return int32(len(ws.addrs)) - 1
		}
		if ws.addrs[i-1] == addr {
			return i - 1
		}
		if h++; h == uint32(len(ws.tab)) {
			h = 0
		}
	}
}

// addWords runs an atom/red.add.u32/s32/f32 whose running lanes name a few
// words (r.words: a reduction's total, a histogram's bins) as one atomic
// step per word: each word's adds in the warp engine's order (block after
// block, lane after lane), each lane's old value its word's running total,
// as atomic.go does for the lanes of one warp at one word. An integer
// word takes one fetch-and-add of its lanes' sum; an f32 word its lanes'
// adds in order (flushed: atomAddF32Flush) and one compare-and-swap,
// again from the new value if another worker changed the word.
func (r *batchRun) addWords(o *Op, ai *atomInfo) {
	ws := &r.words
	k := len(ws.addrs)
	ptrs := r.wordPtrs[:0]
	for _, a := range ws.addrs {
		data, off, _ := r.window(a, 4)
		ptrs = append(ptrs, (*uint32)(unsafe.Pointer(&data[off])))
	}
	r.wordPtrs = ptrs
	acc, cur, done := r.wordAcc[:0], r.wordCur[:0], r.wordDone[:0]
	for range k {
		acc, cur, done = append(acc, 0), append(cur, 0), append(done, false)
	}
	r.wordAcc, r.wordCur, r.wordDone = acc, cur, done
	r.issueAll(o)
	if ai.addF32 {
		for w, p := range ptrs {
			cur[w] = atomic.LoadUint32(p)
		}
	}
	// each round computes the chains of the words not done yet (all, the
	// first time) from cur, in one pass over the lanes; an f32 word whose
	// compare-and-swap fails (another worker added first) takes the next
	// round from the word's new value
	copy(acc, cur) // (integers: running sums from 0)
	if ai.addF32 && k == 1 {
		r.addOneF32(o, ai, ptrs[0], cur[0])
		return
	}
	keepOld := ai.dst >= 0 && !ai.unread // (the lanes' old values, which an instruction reads)
	for {
		lane := 0
		for blk := range r.nb {
			vals := r.row(blk, ai.val)
			var olds *lanes
			if keepOld {
				olds = r.row(blk, ai.dst)
			}
			for m := r.act[blk] & r.guardOf(o, blk); m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				w := ws.of[lane]
				lane++
				if done[w] {
					continue
				}
				if olds != nil {
					olds[l] = uint64(acc[w]) // (integers: made absolute below)
				}
				if ai.addF32 {
					acc[w] = uint32(atomAddF32Flush(uint64(acc[w]), vals[l]))
				} else {
					acc[w] += uint32(vals[l])
				}
			}
		}
		if !ai.addF32 {
			break
		}
		again := false
		for w, p := range ptrs {
			if done[w] {
				continue
			}
			if atomic.CompareAndSwapUint32(p, cur[w], acc[w]) {
				done[w] = true
				continue
			}
			cur[w] = atomic.LoadUint32(p)
			acc[w], again = cur[w], true
		}
		if !again {
			return
		}
	}
	// integers: one fetch-and-add per word, then each lane's old value
	for w, p := range ptrs {
		cur[w] = atomic.AddUint32(p, acc[w]) - acc[w]
	}
	if !keepOld {
		return
	}
	lane := 0
	for blk := range r.nb {
		olds := r.row(blk, ai.dst)
		for m := r.act[blk] & r.guardOf(o, blk); m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			olds[l] = ai.it.norm(uint64(cur[ws.of[lane]] + uint32(olds[l])))
			lane++
		}
	}
}

// addWords64 is addWords for atom/red.add.f64 and .u64/.s64: each word's
// adds in the warp engine's order, each lane's old value its word's
// running total. An integer word takes one fetch-and-add of its lanes'
// sum. An f64 word chains its lanes' adds (f64Add: the host's sum, NaN
// results as the general path makes them) and takes one
// compare-and-swap, again from the word's new value if another worker
// changed it: the worker's adds to a word take consecutive places in its
// coherence order (atomic_buffer.go says why a relaxed add may).
func (r *batchRun) addWords64(o *Op, ai *atomInfo) {
	ws := &r.words
	k := len(ws.addrs)
	ptrs := r.wordPtrs64[:0]
	for _, a := range ws.addrs {
		data, off, _ := r.window(a, 8)
		ptrs = append(ptrs, (*uint64)(unsafe.Pointer(&data[off])))
	}
	r.wordPtrs64 = ptrs
	acc, cur, done := r.wordAcc64[:0], r.wordCur64[:0], r.wordDone[:0]
	for _, p := range ptrs {
		v := uint64(0) // (integers: running sums from 0)
		if ai.addF64 {
			v = atomic.LoadUint64(p)
		}
		acc, cur, done = append(acc, v), append(cur, v), append(done, false)
	}
	r.wordAcc64, r.wordCur64, r.wordDone = acc, cur, done
	r.issueAll(o)
	keepOld := ai.dst >= 0 && !ai.unread
	for left := k; left > 0; {
		lane := 0
		for blk := range r.nb {
			vals := r.row(blk, ai.val)
			var olds *lanes
			if keepOld {
				olds = r.row(blk, ai.dst)
			}
			for m := r.act[blk] & r.guardOf(o, blk); m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				w := ws.of[lane]
				lane++
				if done[w] {
					continue
				}
				if olds != nil {
					olds[l] = acc[w] // (integers: made absolute below)
				}
				if ai.addF64 {
					acc[w] = f64Add(acc[w], vals[l])
				} else {
					acc[w] += vals[l]
				}
			}
		}
		if !ai.addF64 {
			break
		}
		for w, p := range ptrs {
			if done[w] {
				continue
			}
			if atomic.CompareAndSwapUint64(p, cur[w], acc[w]) {
				done[w] = true
				left--
				continue
			}
			cur[w] = atomic.LoadUint64(p)
			acc[w] = cur[w]
		}
	}
	if ai.addF64 {
		return
	}
	// integers: one fetch-and-add per word, then each lane's old value
	for w, p := range ptrs {
		cur[w] = atomic.AddUint64(p, acc[w]) - acc[w]
	}
	if !keepOld {
		return
	}
	lane := 0
	for blk := range r.nb {
		olds := r.row(blk, ai.dst)
		for m := r.act[blk] & r.guardOf(o, blk); m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			olds[l] = cur[ws.of[lane]] + olds[l]
			lane++
		}
	}
}

// afterCombineDense, when set (tests), runs when combineDense folded an
// atomic.
var afterCombineDense func()

// combineDense runs an atom/red max, min, and, or, xor, exch or inc whose old values
// no instruction reads (ai.combine) when every running lane's word lies in
// one allocation, aligned, within redWords words of the first lane's:
// each word's lanes folded into one value in a dense array, then applied
// with one atomic op a word (atomic_combine.go says why that is allowed).
// The values fold as combiner folds them. False: a lane fell outside (nothing applied; the
// general path takes the op, and faults where it must).
func (r *batchRun) combineDense(o *Op, ai *atomInfo) bool {
	n := uint64(o.size)
	var first, limit uint64 // (limit: redInc's, the first lane's)
	found := false
	for blk := range r.nb {
		if m := r.act[blk] & r.guardOf(o, blk); m != 0 {
			l := bits.TrailingZeros32(m)
			first, found = r.row(blk, o.addrBase)[l]+o.addrConst, true
			limit = r.row(blk, ai.val)[l] & 0xffffffff
			break
		}
	}
	if !found {
		r.issueAll(o)
		return true
	}
	data, off0, ok := r.window(first, n)
	if !ok || first&(n-1) != 0 {
		return false
	}
	base := first - off0
	lo := off0 &^ (redWords*n - 1)
	t := &redTarget{width: n, op: ai.combine, signed: ai.it.signed, limit: limit}
	c := newCombiner(t)
	bound, shift := uint64(len(data))-n, uint(bits.TrailingZeros64(n))
	if c.kind == redMax || c.kind == redOr {
		return r.foldMaxOr(o, ai, data, base, lo, bound, shift, t, c)
	}
	if r.dense == nil {
		r.dense, r.denseSeen = make([]uint64, redWords), make([]bool, redWords)
	}
	d, seen, touched := r.dense, r.denseSeen, r.denseTouched[:0]
	bad := false
lanes:
	for blk := range r.nb {
		addrs, vals := r.row(blk, o.addrBase), r.row(blk, ai.val)
		for m := r.act[blk] & r.guardOf(o, blk); m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			off := addrs[l] + o.addrConst - base
			i := (off - lo) >> shift
			v, ok := c.in(vals[l])
			if off > bound || off&(n-1) != 0 || i >= redWords || !ok {
				bad = true
				break lanes
			}
			if !seen[i] {
				seen[i], d[i] = true, v
				touched = append(touched, uint32(i))
				continue
			}
			d[i] = c.fold(d[i], v)
		}
	}
	r.denseTouched = touched
	if !bad {
		r.issueAll(o)
		if afterCombineDense != nil {
			afterCombineDense()
		}
	}
	for _, i := range touched {
		if !bad {
			applyCombined(t, unsafe.Pointer(&data[lo+uint64(i)*n]), c.out(d[i]))
		}
		seen[i] = false
	}
	return !bad
}

// foldMaxOr is combineDense's loop for a max or an or (and min and and,
// which the combiner turns into them), whose folds the worker holds from
// batch to batch (heldFold): each lane's value folded into its word's,
// which start at the fold's identity 0 (so without combineDense's test of
// a word's first lane, which mispredicted on half of a 4096-bin max's
// lanes), a word listed when it leaves 0. Both folds are idempotent, so a
// lane outside the covered words (false: the general path takes the op,
// and faults where it must) leaves the lanes before it folded: applied
// again there, they change nothing.
func (r *batchRun) foldMaxOr(o *Op, ai *atomInfo, data []byte, base, lo, bound uint64, shift uint, t *redTarget, c combiner) bool {
	n := uint64(o.size)
	h := r.heldFoldFor(data, base, lo, *t)
	if len(h.touched)+r.nb*warpSize > cap(h.touched) {
		h.flush() // (room for every lane of the batch)
	}
	d, touched := h.d, h.touched[:cap(h.touched)]
	nt := len(h.touched)
	isMax := c.kind == redMax
	for blk := range r.nb {
		addrs, vals := r.row(blk, o.addrBase), r.row(blk, ai.val)
		for m := r.act[blk] & r.guardOf(o, blk); m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			off := addrs[l] + o.addrConst - base
			i := (off - lo) >> shift
			if off > bound || off&(n-1) != 0 || i >= redWords {
				h.touched = touched[:nt]
				return false
			}
			v := vals[l]&c.vmask ^ c.x
			touched[nt] = uint32(i)
			nt += b2i(d[i] == 0)
			if isMax {
				d[i] = max(d[i], v)
			} else {
				d[i] |= v
			}
		}
	}
	h.touched = touched[:nt]
	r.issueAll(o)
	if afterCombineDense != nil {
		afterCombineDense()
	}
	return true
}

// A heldFold is a worker's folds of one max or or (foldMaxOr) on one
// allocation's words, from its batches, not in memory yet (atomic_combine.go
// says why they may wait): applied with one atomic op a word when the
// worker runs a CTA on the warp engine, when a batch looks at the
// allocation, when another target needs the slot, and when the worker is
// done with the launch (flushHeld), rather than after every batch (a
// 4096-bin float max applied its 4096 words per batch of 8192 threads).
type heldFold struct {
	data    []byte // the allocation (nil: the slot is free)
	base    uint64 // its address
	lo      uint64 // offset in data of word d[0]'s
	t       redTarget
	d       []uint64 // per word, its fold (0: none, the identity)
	touched []uint32 // the words folded into (a word may appear twice)
}

// heldFoldFor returns the slot holding folds of target t on the words from
// lo of the allocation data at base: the one that has them, or a free one,
// or the first after it applied its folds. Folds of another target on the
// same allocation go to memory first: a max and a min of one word do not
// commute, and a thread's must reach it in the thread's order.
func (r *batchRun) heldFoldFor(data []byte, base, lo uint64, t redTarget) *heldFold {
	free := -1
	for i := range r.folds {
		h := &r.folds[i]
		if h.data != nil && h.base == base {
			if h.lo == lo && h.t == t {
				return h
			}
			h.flush()
		}
		if h.data == nil && free < 0 {
			free = i
		}
	}
	if free < 0 {
		free = 0
		r.folds[0].flush()
	}
	h := &r.folds[free]
	if h.d == nil {
		h.d, h.touched = make([]uint64, redWords), make([]uint32, 0, redWords+len(r.act)*warpSize)
	}
	h.data, h.base, h.lo, h.t = data, base, lo, t
	return h
}

// flush applies the slot's folds to memory and frees it.
func (h *heldFold) flush() {
	if h.data == nil {
		return
	}
	c := newCombiner(&h.t)
	for _, i := range h.touched {
		if v := h.d[i]; v != 0 {
			applyCombined(&h.t, unsafe.Pointer(&h.data[h.lo+uint64(i)*h.t.width]), c.out(v))
			h.d[i] = 0
		}
	}
	h.touched, h.data = h.touched[:0], nil
}

// holdsFolds reports whether a slot holds folds for the allocation at
// base.
func (r *batchRun) holdsFolds(base uint64) bool {
	for i := range r.folds {
		if h := &r.folds[i]; h.data != nil && h.base == base {
			return true
		}
	}
	return false
}

// flushHeld puts what the worker's batches hold in memory: pending sums
// (batch_pending.go's keep) and folds (heldFold).
func (r *batchRun) flushHeld() {
	r.held.commit()
	for i := range r.folds {
		r.folds[i].flush()
	}
}
