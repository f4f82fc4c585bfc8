package exec

import (
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
)

// Buffered adds: a histogram's red.global.add (or atom.global.add whose
// old value nobody reads) from two workers makes the cores pass the bins'
// cache lines back and forth on every add (4M adds to 256 bins: 30 ms on
// one worker, 106 ms on two). So each worker adds into its own deltas
// instead, and adds them to memory (one atomic add per word) when it must;
// f32 adds, whose rounding depends on their order, it logs in order and
// applies in that order when it must (one compare-and-swap per word).
//
// Why that is allowed (9.7.13.5 red, 8 Memory Consistency Model): without
// .sem an atom or red is .relaxed, and a relaxed operation is ordered
// with other threads' operations only through release/acquire patterns and
// fences (8.9 causality order). So the worker's adds to a word may take
// consecutive places in the word's coherence order at the moment it
// applies them (integer adds commute, so their sum does; f32 adds are
// applied one by one, in the order they ran), as long as no thread that
// must see one of the adds reads the word before then. Which threads must:
//   - the adding thread itself, and threads ordered after it by bar.sync,
//     barrier.cluster or mbarrier: all run on the same worker (a cluster's
//     CTAs share one goroutine), and every access of that worker other
//     than a buffered add that reaches the buffered allocation first adds
//     the worker's deltas to memory (plainGlobal), then turns buffering
//     off for the rest of the launch;
//   - threads ordered by fences or release/acquire operations: kernels
//     with any (or with malloc/free, or indirect calls) do not buffer
//     (redSafe).
// The host sees memory after the launch, when every worker has added its
// deltas. Plain accesses meet plainGlobal because they look the allocation
// up: a worker makes every cached lookup stale (mem.Global.Invalidate)
// before it buffers its first add, and a batch (batch.go), which keeps
// its own lookups, starts only after the worker's deltas are in memory.
// A worker that buffered also adds its deltas every redFlushRounds rounds
// of a cluster's warps, so that a CTA waiting for another worker's adds
// without synchronising (relaxed but expected to end) still sees them.

// zeroLanes is the address row of an op whose address is a variable's
// alone (read, never written).
var zeroLanes lanes

// bufferAddsEnabled switches buffered adds on (tests compare with them
// off).
var bufferAddsEnabled = true

// redBeforeCAS, when set (tests), runs between flushFloat's chains and
// its compare-and-swaps: another worker's add in between.
var redBeforeCAS func()

// redWords is how many words one worker's deltas cover.
const redWords = 1 << 16

// redFlushRounds: rounds of a cluster's warps between flushes while deltas
// are held.
const redFlushRounds = 16

// redTarget is a global allocation a launch buffers adds to and the kind
// of the adds: integers of 4 or 8 bytes, or f32 (float). Adds of two
// kinds to one word do not commute (the carry out of the low half; a
// float's rounding).
type redTarget struct {
	base, size, width uint64
	float             bool
	// op: redAdd, or an op whose updates of a word commute and associate
	// (atomic_combine.go), of signed integers for max and min
	op     uint8
	signed bool
	limit  uint64 // redInc: the limit of every increment buffered
}

// redMaxTargets is how many allocations a launch buffers adds to: the
// first ones its adds reach (a ring's slot counts and its budgets,
// k-means' counts and sums).
const redMaxTargets = 4

// redLaunch is a launch's buffering state.
type redLaunch struct {
	ok      bool // the kernel may buffer (redSafe)
	targets [redMaxTargets]atomic.Pointer[redTarget]
	off     atomic.Bool // a plain access met a target: no more buffering
}

// holds says whether global address addr lies in one of the targets.
func (rl *redLaunch) holds(addr uint64) bool {
	for i := range rl.targets {
		if t := rl.targets[i].Load(); t != nil && addr-t.base < t.size {
			return true
		}
	}
	return false
}

// redBuffer is one worker's deltas: a slot per target of the launch.
type redBuffer struct {
	l     *launch
	slots [redMaxTargets]redSlot // slots[i]: targets[i]'s (t nil: none added to yet)
	last  int                    // the slot of the last buffered add
	full  bool                   // every target is another allocation's
}

// redSlot is one worker's deltas to one target.
type redSlot struct {
	t    *redTarget
	data []byte // the target's bytes
	lo   uint64 // offset in data of the word d32/d64[0] is for
	d32  []uint32
	d64  []uint64
	// f32 adds do not commute: the log keeps them in the order they ran
	// (word index << 32 | value), and flush applies them in that order;
	// d32 and base hold the words' sums and values there
	log     []uint64
	base    []uint32
	seen    []bool
	touched []uint32
	failed  []uint32
	// touched words: [min, max] (min > max when none)
	min, max int
	// lanes of the target outside the covered words since they were
	// placed, and lanes inside
	misses, hits int
}

var redDeltas32 = sync.Pool{New: func() any { return make([]uint32, redWords) }}
var redDeltas64 = sync.Pool{New: func() any { return make([]uint64, redWords) }}
var redLogs = sync.Pool{New: func() any { return make([]uint64, 0, redLogSize) }}

// redLogSize is how many f32 adds a worker holds before it applies them.
const redLogSize = 1 << 16

func newRedBuffer(l *launch) *redBuffer {
	rb := &redBuffer{l: l}
	for i := range rb.slots {
		rb.slots[i].min, rb.slots[i].max = redWords, -1
	}
	return rb
}

// dirty says whether deltas are held.
func (rb *redBuffer) dirty() bool {
	if rb == nil {
		return false
	}
	for i := range rb.slots {
		if rb.slots[i].dirty() {
			return true
		}
	}
	return false
}

// flush adds the held deltas to memory.
func (rb *redBuffer) flush() {
	if rb == nil {
		return
	}
	for i := range rb.slots {
		rb.slots[i].flush()
	}
}

// dirty says whether the slot holds deltas.
func (rb *redSlot) dirty() bool { return rb.min <= rb.max }

// flush adds the slot's deltas to memory.
func (rb *redSlot) flush() {
	if !rb.dirty() {
		return
	}
	if rb.t.op != redAdd {
		rb.flushCombined()
	} else if rb.t.float {
		rb.flushFloat()
	} else if rb.t.width == 4 {
		addSums32(rb.data[rb.lo+uint64(rb.min)*4:], rb.d32[rb.min:rb.max+1])
	} else {
		addSums64(rb.data[rb.lo+uint64(rb.min)*8:], rb.d64[rb.min:rb.max+1])
	}
	rb.min, rb.max = redWords, -1
}

// addSums32 adds each nonzero sum d[i] to the 4-byte word at words[4i:]
// (one atomic add) and zeroes it: a worker's deltas (redBuffer.flush) or a
// batch's sums (batchPending.commit) reach memory.
func addSums32(words []byte, d []uint32) {
	for i, x := range d {
		if x != 0 {
			atomic.AddUint32((*uint32)(unsafe.Pointer(&words[4*i])), x)
			d[i] = 0
		}
	}
}

// addSums64 is addSums32 for 8-byte words.
func addSums64(words []byte, d []uint64) {
	for i, x := range d {
		if x != 0 {
			atomic.AddUint64((*uint64)(unsafe.Pointer(&words[8*i])), x)
			d[i] = 0
		}
	}
}

// flushFloat applies the logged f32 adds in order: each touched word's
// chain of adds (atomAddF32Flush) from its value, then one
// compare-and-swap; a word another worker changed meanwhile takes its
// chain again from the new value. The worker's adds to a word thus take
// consecutive places in its coherence order, each thread's in its
// program order: what adding them one by one at that moment gives.
func (rb *redSlot) flushFloat() {
	word := func(i uint32) *uint32 { return (*uint32)(unsafe.Pointer(&rb.data[rb.lo+uint64(i)*4])) }
	acc, base, seen, touched := rb.d32, rb.base, rb.seen, rb.touched[:0]
	for _, e := range rb.log {
		i := uint32(e >> 32)
		if !seen[i] {
			seen[i] = true
			touched = append(touched, i)
			v := atomic.LoadUint32(word(i))
			base[i], acc[i] = v, v
		}
		acc[i] = uint32(atomAddF32Flush(uint64(acc[i]), e))
	}
	for _, i := range touched {
		seen[i] = false
	}
	if redBeforeCAS != nil {
		redBeforeCAS()
	}
	// the words whose compare-and-swap fails take their chains again, all
	// in one more pass over the log (seen marks them)
	for pending := touched; len(pending) > 0; {
		failed := rb.failed[:0]
		for _, i := range pending {
			if !atomic.CompareAndSwapUint32(word(i), base[i], acc[i]) {
				failed = append(failed, i)
			}
		}
		rb.failed = failed
		if len(failed) == 0 {
			break
		}
		for _, i := range failed {
			v := atomic.LoadUint32(word(i))
			base[i], acc[i], seen[i] = v, v, true
		}
		for _, e := range rb.log {
			if i := uint32(e >> 32); seen[i] {
				acc[i] = uint32(atomAddF32Flush(uint64(acc[i]), e))
			}
		}
		for _, i := range failed {
			seen[i] = false
		}
		pending = append(rb.touched[:0], failed...)
	}
	rb.touched, rb.log = touched[:0], rb.log[:0]
}

// release flushes the deltas and gives their memory back (the worker is
// done with the launch).
func (rb *redBuffer) release() {
	for i := range rb.slots {
		rb.slots[i].release()
	}
}

// release flushes the slot's deltas and gives their memory back.
func (rb *redSlot) release() {
	rb.flush()
	if rb.base != nil { // (f32: d32 held sums, not deltas; the pool's must be zero)
		clear(rb.d32)
		clear(rb.base)
		redDeltas32.Put(rb.base)
		redLogs.Put(rb.log[:0])
	}
	if rb.d32 != nil {
		redDeltas32.Put(rb.d32)
	}
	if rb.d64 != nil {
		redDeltas64.Put(rb.d64)
	}
	rb.d32, rb.d64, rb.base, rb.log, rb.seen, rb.t, rb.data = nil, nil, nil, nil, nil, nil, nil
}

// slotOf returns the worker's slot whose target holds addr, claiming the
// allocation holding addr as a target of the launch (the first free one)
// and of the worker where it is none yet; nil when it cannot buffer there.
// A generic addr of another space is no global allocation's (global
// allocations lie outside the windows of the others: mem.Classify).
func (rb *redBuffer) slotOf(addr, width uint64, float bool, op uint8, signed bool, limit uint64) *redSlot {
	if s := &rb.slots[rb.last]; s.t != nil && addr-s.t.base < s.t.size {
		return s
	}
	for i := range rb.slots {
		if s := &rb.slots[i]; s.t != nil && addr-s.t.base < s.t.size {
			rb.last = i
			return s
		}
	}
	if rb.full {
		return nil
	}
	if sp, _ := mem.Classify(addr); sp != mem.SpaceGlobal {
		return nil
	}
	g := rb.l.prog.global
	base, data, ok := g.Find(addr)
	if !ok || uint64(len(data)) < width {
		return nil // (the general path faults)
	}
	for i := range rb.l.red.targets {
		t := rb.l.red.targets[i].Load()
		if t == nil {
			t = &redTarget{base: base, size: uint64(len(data)), width: width, float: float, op: op, signed: signed, limit: limit}
			if !rb.l.red.targets[i].CompareAndSwap(nil, t) {
				t = rb.l.red.targets[i].Load()
			}
		}
		if t.base == base {
			// the worker's cached lookups become stale: its plain
			// accesses to the target from now on look it up again and
			// meet plainGlobal
			g.Invalidate()
			rb.last = i
			s := &rb.slots[i]
			s.claim(t, data, addr-base)
			return s
		}
	}
	rb.full = true // (a fifth allocation: its adds go to memory as they run)
	return nil
}

// claim sets the slot up for target t, whose bytes are data, its covered
// words around offset off.
func (rb *redSlot) claim(t *redTarget, data []byte, off uint64) {
	rb.t, rb.data = t, data
	float, width := t.float, t.width
	switch {
	case t.op != redAdd: // (the words' folded values, zeroed again as they are flushed)
		rb.d64, rb.seen = redDeltas64.Get().([]uint64), make([]bool, redWords)
	case float:
		rb.d32, rb.base, rb.log = redDeltas32.Get().([]uint32), redDeltas32.Get().([]uint32), redLogs.Get().([]uint64)
		rb.seen = make([]bool, redWords)
	case width == 4:
		rb.d32 = redDeltas32.Get().([]uint32)
	default:
		rb.d64 = redDeltas64.Get().([]uint64)
	}
	rb.place(off)
}

// place moves the covered words to the aligned block holding offset off
// (the deltas must be empty).
func (rb *redSlot) place(off uint64) {
	rb.lo = off &^ (redWords*rb.t.width - 1)
	rb.misses, rb.hits = 0, 0
}

// plainGlobal is told of an access other than a buffered add at global
// address addr (or to the allocation whose base it is): if the launch
// buffers in that allocation, the worker adds its deltas to memory first,
// and buffering stops.
func (w *Warp) plainGlobal(addr uint64) {
	l := w.cta.l
	if l.red.holds(addr) {
		l.red.off.Store(true)
		if w.cta.cl != nil { // (a batch's warp has none, and no deltas)
			w.cta.cl.red.flush()
		}
	}
}

// bufferAdds adds, for the lanes of mask whose aligned address lies in the
// launch's target, their values into the worker's deltas (or, outside the
// covered words, straight to memory); it returns the other lanes, for the
// general path, and whether they must reach memory lane by lane (access)
// rather than through the warp's cached lookup, which must not hold the
// target (plainGlobal). o is a buffered add (atomInfo.buffer).
func (w *Warp) bufferAdds(o *Op, info *atomInfo, mask uint32) (uint32, bool) {
	l := w.cta.l
	if w.cta.cl == nil { // a batch's atomic (batch_atomic.go): batches do not buffer
		return mask, false
	}
	buf := w.cta.cl.red
	if buf == nil {
		return mask, false
	}
	if l.red.off.Load() {
		buf.flush()
		return mask, false
	}
	f := w.top()
	// (an address register, or a variable's address alone: addrs zero)
	addrs := &zeroLanes
	if o.addrBase >= 0 {
		addrs = (*lanes)(f.regs[int(o.addrBase)*warpSize:])
	}
	vals := (*lanes)(f.regs[int(info.val)*warpSize:])
	width, float := uint64(o.size), info.addF32
	// (the lowest lane's target: the lanes elsewhere take the general path)
	l0 := bits.TrailingZeros32(mask)
	rb := buf.slotOf(addrs[l0]+o.addrConst, width, float, info.combine, info.it.signed, vals[l0]&0xffffffff)
	if rb == nil {
		return mask, false
	}
	t := rb.t
	if t.width != width || t.float != float || t.op != info.combine || t.op != redAdd && t.signed != info.it.signed {
		// adds of another kind (k-means' f32 sums beside its u32 counts)
		// go to memory as they run; where one meets the target, its
		// lookup puts the deltas in memory first and ends buffering
		// (plainGlobal)
		return mask, false
	}
	if t.op != redAdd {
		return rb.combineLanes(addrs, vals, o.addrConst-t.base, mask), true
	}
	var rest uint32
	lo, limit, shift := rb.lo, t.size-width, uint(bits.TrailingZeros64(width))
	lowest, highest := rb.min, rb.max // (in registers for the loops)
	slow := mask
	if width == 4 {
		// the common cases first, in loops of their own: 32-bit adds to
		// covered words; the other lanes take the loop below
		if float && len(rb.log)+warpSize > redLogSize {
			rb.min, rb.max = lowest, highest
			rb.flush()
			lowest, highest = rb.min, rb.max
		}
		slow = 0
		base, d, log := o.addrConst-t.base, rb.d32[:redWords], rb.log
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			off := addrs[lane] + base
			i := (off - lo) >> 2
			if off > limit || off&3 != 0 || i >= redWords {
				slow |= 1 << lane
				continue
			}
			if float {
				log = append(log, i<<32|uint64(uint32(vals[lane])))
			} else {
				d[i] += uint32(vals[lane])
			}
			lowest, highest = min(lowest, int(i)), max(highest, int(i))
		}
		rb.log = log
		rb.hits += bits.OnesCount32(mask &^ slow)
	}
	for m := slow; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		off := addrs[lane] + o.addrConst - t.base
		if off > limit || off&(width-1) != 0 {
			rest |= 1 << lane
			continue
		}
		i := (off - lo) >> shift
		if i >= redWords {
			if rb.misses > 4096 && rb.misses > rb.hits {
				// the lanes mostly add elsewhere: cover the words from here
				rb.min, rb.max = lowest, highest
				rb.flush()
				rb.place(off)
				lo, lowest, highest = rb.lo, rb.min, rb.max
				i = (off - lo) >> shift
			} else {
				rb.misses++
				switch {
				case float:
					casAddF32((*uint32)(unsafe.Pointer(&rb.data[off])), uint32(vals[lane]))
				case width == 4:
					atomic.AddUint32((*uint32)(unsafe.Pointer(&rb.data[off])), uint32(vals[lane]))
				default:
					atomic.AddUint64((*uint64)(unsafe.Pointer(&rb.data[off])), vals[lane])
				}
				continue
			}
		}
		rb.hits++
		lowest, highest = min(lowest, int(i)), max(highest, int(i))
		switch {
		case float:
			rb.log = append(rb.log, i<<32|uint64(uint32(vals[lane])))
			if len(rb.log) == redLogSize {
				rb.min, rb.max = lowest, highest
				rb.flush()
				lowest, highest = rb.min, rb.max
			}
		case width == 4:
			rb.d32[i] += uint32(vals[lane])
		default:
			rb.d64[i] += vals[lane]
		}
	}
	rb.min, rb.max = lowest, highest
	return rest, true
}

// bufferableAdd says whether atom/red in (lowered to o), whose old value
// no instruction reads (oldUnread), may have its adds buffered: an add of
// one 32- or 64-bit integer or f32 to .global or generic memory, relaxed.
func bufferableAdd(in *ir.Inst, o *Op, op, t string, vec int) bool {
	if op != ".add" || !bufferableSite(in, o, vec) {
		return false
	}
	switch t {
	case ".u32", ".s32", ".u64", ".s64", ".f32":
		return true
	}
	return false
}

// bufferableSite says whether atom/red in (lowered to o) is of one value
// on .global or generic memory, relaxed: where its updates may be
// buffered.
func bufferableSite(in *ir.Inst, o *Op, vec int) bool {
	return vec == 1 && (o.space == mem.SpaceGlobal || o.space == mem.SpaceGeneric) && !o.frameAddr && !hasSemantics(in)
}

// oldUnread says whether no instruction of fn reads the old value atom or
// red in returns (red returns none), and fn does not return it (a .reg
// result, which its caller reads).
func oldUnread(fn *ir.Func, in *ir.Inst) bool {
	if in.Opcode == "red" {
		return true
	}
	d := in.Operands[0]
	switch {
	case d.Kind == ir.OpSink:
		return true
	case d.Kind != ir.OpReg || d.Reg.Vector > 0:
		return false
	}
	for _, r := range fn.Results {
		if r.Reg == d.Reg {
			return false
		}
	}
	for _, x := range fn.Insts {
		if x == in {
			if x.Guard != nil && x.Guard.Reg == d.Reg || mentions(x.Operands[1:], d.Reg) {
				return false
			}
			continue
		}
		if x.Guard != nil && x.Guard.Reg == d.Reg || mentions(x.Operands, d.Reg) {
			return false
		}
	}
	return true
}

// mentions says whether any operand (or element, or address base) is r.
func mentions(ops []ir.Operand, r *ir.Reg) bool {
	for i := range ops {
		op := &ops[i]
		if op.Reg == r || op.Base != nil && op.Base.Reg == r || mentions(op.Elems, r) {
			return true
		}
	}
	return false
}

// hasSemantics says whether in names a memory ordering other than
// .relaxed (or is a fence).
func hasSemantics(in *ir.Inst) bool {
	if in.Opcode == "fence" || in.Opcode == "membar" {
		return true
	}
	for _, m := range in.Mods {
		switch m {
		case ".acquire", ".release", ".acq_rel", ".sc", ".mmio":
			return true
		}
	}
	return false
}

// redSafe says whether kernel fn may buffer adds: it or a function it
// calls has an atom or red, and none of them orders memory across CTAs (a
// fence, a release or acquire), frees or allocates memory, or calls
// through a register.
func redSafe(fn *ir.Func) bool {
	adds := false
	return everyInst(fn, func(in *ir.Inst) bool {
		adds = adds || in.Opcode == "atom" || in.Opcode == "red"
		return !hasSemantics(in)
	}) && adds
}
