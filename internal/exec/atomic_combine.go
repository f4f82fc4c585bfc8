package exec

// Buffered max, min, and, or, xor, exch, inc and dec: like buffered adds
// (atomic_buffer.go), but each word's lanes fold into one value (the
// extreme, the bitwise fold, the last value written, the count of
// increments), which the worker applies with one atomic op when it must.
// Applying the fold once gives what applying the lanes' ops one after
// another, in the worker's order, gives (max, min and the bitwise ops
// commute and associate; an exch leaves the last value; k increments
// with one limit are one step round 0..limit: incTimes, and decrements
// one step down: decTimes): the
// worker's ops to a word take consecutive places in its coherence order,
// allowed for relaxed operations whose old values no instruction reads,
// under the same rules as the adds (no fence or release/acquire in the
// kernel, plain accesses to the allocation put the folds in memory first).
// A per-bucket atomicMax or atomicMin, or a bitset's atomicOr, then costs
// a compare or a bitwise op per lane instead of an atomic read (and a
// compare-and-swap where the word changes).

import (
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// The ops of buffered updates (redTarget.op).
const (
	redAdd uint8 = iota
	redMax
	redMin
	redAnd
	redOr
	redXor
	redExch // the last value (the word's last write in the worker's order)
	redInc  // atom.inc: the count of increments (all with one limit: redTarget.limit)
	redDec  // atom.dec: the count of decrements (all with one limit)
)

// combineOp returns the buffered op of atom/red op on type t when its
// updates of a word commute and associate (max and min of 32- or 64-bit
// integers, and, or and xor of .b32/.b64), or redAdd when it is none.
func combineOp(op, t string) uint8 {
	switch op {
	case ".max", ".min":
		switch t {
		case ".u32", ".s32", ".u64", ".s64":
			if op == ".max" {
				return redMax
			}
			return redMin
		}
	case ".and", ".or", ".xor":
		if t == ".b32" || t == ".b64" {
			return map[string]uint8{".and": redAnd, ".or": redOr, ".xor": redXor}[op]
		}
	case ".exch":
		if t == ".b32" || t == ".b64" {
			return redExch
		}
	case ".inc", ".dec":
		if t == ".u32" && op == ".inc" {
			return redInc
		}
		if t == ".u32" {
			return redDec
		}
	}
	return redAdd
}

// incTimes is atom.inc with limit lim applied k times to old:
// ((old >= lim) ? 0 : old+1) steps round 0..lim (9.7.13.5).
func incTimes(old, k, lim uint64) uint64 {
	if k == 0 {
		return old
	}
	if old >= lim {
		return (k - 1) % (lim + 1)
	}
	return (old + k) % (lim + 1)
}

// decTimes is atom.dec with limit lim applied k times to old:
// ((old == 0) || (old > lim)) ? lim : old-1 (9.7.13.5) steps down round
// lim..0, the first step from a word above lim to lim.
func decTimes(old, k, lim uint64) uint64 {
	if k == 0 {
		return old
	}
	if old > lim {
		old, k = lim, k-1
	}
	return (old + (lim+1)*(k/(lim+1)+1) - k) % (lim + 1)
}

// combiner folds the values of a buffered op (redTarget.op other than
// redAdd) on words of one width: as unsigned maxima (min and the signed
// ops through a complement and a flipped sign bit), ors (and: of the
// complements), xors, the last value (exch) or a count (inc, dec). in and out
// move a value to and from the folded form: x holds the sign bit to flip
// and, for min and and, the complement (vmask). (Four fields: the
// compiler keeps them in registers in the lanes' loops; with six it read
// them from memory, 15-20% slower.)
type combiner struct {
	kind     uint8 // redMax, redOr, redXor, redExch, redInc or redDec, on the values in gives
	vmask, x uint64
	limit    uint64 // inc: the limit every increment must have
}

func newCombiner(t *redTarget) combiner {
	c := combiner{kind: t.op, vmask: ^uint64(0), limit: t.limit}
	if t.width == 4 {
		c.vmask = 0xffffffff
	}
	if t.signed && (t.op == redMax || t.op == redMin) {
		c.x = 1 << (8*t.width - 1)
	}
	switch t.op {
	case redMin:
		c.kind, c.x = redMax, c.x^c.vmask
	case redAnd:
		c.kind, c.x = redOr, c.vmask
	}
	return c
}

// in is a lane's value v in the folded form, or false for an increment
// with another limit (it cannot join the count).
func (c combiner) in(v uint64) (uint64, bool) {
	v &= c.vmask
	if c.kind == redInc || c.kind == redDec {
		return 1, v == c.limit
	}
	return v ^ c.x, true
}

// fold adds the folded value v to acc.
func (c combiner) fold(acc, v uint64) uint64 {
	switch c.kind {
	case redMax:
		return max(acc, v)
	case redOr:
		return acc | v
	case redXor:
		return acc ^ v
	case redExch:
		return v
	}
	return acc + v // (inc, dec: a count)
}

// out is the op's value of the folded acc (applyCombined's v).
func (c combiner) out(acc uint64) uint64 { return acc ^ c.x }

// combineLanes folds the values of the lanes of mask into the slot's words
// (the first value a word gets, then each later one folded in, lane after
// lane). A lane outside the covered words applies its op to memory
// straight away; it returns the lanes outside the target or misaligned,
// and increments with another limit, for the general path (which faults
// there, and puts the folds in memory first). adj is the op's address
// constant less the target's base.
func (rb *redSlot) combineLanes(addrs, vals *lanes, adj uint64, mask uint32) uint32 {
	t := rb.t
	c := newCombiner(t)
	width, limit, lo := t.width, t.size-t.width, rb.lo
	shift := uint(bits.TrailingZeros64(width))
	seen, d := rb.seen[:redWords], rb.d64[:redWords] // (in locals, bounds known)
	var rest uint32
	for m := mask; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		off := addrs[lane] + adj
		if off > limit || off&(width-1) != 0 {
			rest |= 1 << lane
			continue
		}
		v, ok := c.in(vals[lane])
		if !ok {
			rest |= 1 << lane
			continue
		}
		i := (off - lo) >> shift
		if i >= redWords {
			applyCombined(t, unsafe.Pointer(&rb.data[off]), c.out(v))
			continue
		}
		if !seen[i] {
			seen[i] = true
			rb.touched = append(rb.touched, uint32(i))
			d[i] = v
			rb.min, rb.max = min(rb.min, int(i)), max(rb.max, int(i))
			continue
		}
		d[i] = c.fold(d[i], v)
	}
	return rest
}

// flushCombined applies each touched word's fold to memory (one atomic op
// a word) and empties the slot.
func (rb *redSlot) flushCombined() {
	c := newCombiner(rb.t)
	for _, i := range rb.touched {
		applyCombined(rb.t, unsafe.Pointer(&rb.data[rb.lo+uint64(i)*rb.t.width]), c.out(rb.d64[i]))
		rb.seen[i], rb.d64[i] = false, 0
	}
	rb.touched = rb.touched[:0]
}

// applyCombined applies target t's op with value v to the word at p, as
// one atomic step.
func applyCombined(t *redTarget, p unsafe.Pointer, v uint64) {
	isMax := t.op == redMax
	switch {
	case t.op == redInc || t.op == redDec:
		times := incTimes
		if t.op == redDec {
			times = decTimes
		}
		for q := (*uint32)(p); ; {
			old := atomic.LoadUint32(q)
			if atomic.CompareAndSwapUint32(q, old, uint32(times(uint64(old), v, t.limit))) {
				return
			}
		}
	case t.width == 4 && t.op == redExch:
		atomic.StoreUint32((*uint32)(p), uint32(v))
	case t.op == redExch:
		atomic.StoreUint64((*uint64)(p), v)
	case t.width == 4 && (t.op == redMax || t.op == redMin):
		minMaxWord32((*uint32)(p), uint32(v), isMax, t.signed, true)
	case t.width == 4 && t.op == redAnd:
		atomic.AndUint32((*uint32)(p), uint32(v))
	case t.width == 4 && t.op == redOr:
		atomic.OrUint32((*uint32)(p), uint32(v))
	case t.width == 4:
		for q := (*uint32)(p); ; {
			old := atomic.LoadUint32(q)
			if atomic.CompareAndSwapUint32(q, old, old^uint32(v)) {
				return
			}
		}
	case t.op == redMax || t.op == redMin:
		minMaxWord64((*uint64)(p), v, isMax, t.signed, true)
	case t.op == redAnd:
		atomic.AndUint64((*uint64)(p), v)
	case t.op == redOr:
		atomic.OrUint64((*uint64)(p), v)
	default:
		for q := (*uint64)(p); ; {
			old := atomic.LoadUint64(q)
			if atomic.CompareAndSwapUint64(q, old, old^v) {
				return
			}
		}
	}
}

// combineWord applies the ops of the lanes of mask, all at the global or
// shared word at p and of one combinable kind whose old values no
// instruction reads (info.fold), as one atomic step: the lanes' values folded, then
// applied once (what applying them in lane order gives). False, with
// nothing applied, when the lanes' increments have different limits.
// (One loop per kind: through combiner.fold's switch per lane the folds
// took a third of simpleAtomicIntrinsics' time.)
func combineWord(p unsafe.Pointer, info *atomInfo, width uint64, vals *lanes, mask uint32) bool {
	l0 := bits.TrailingZeros32(mask)
	t := redTarget{width: width, op: info.fold, signed: info.it.signed, limit: vals[l0] & 0xffffffff}
	c := newCombiner(&t)
	acc, _ := c.in(vals[l0])
	rest := mask & (mask - 1)
	switch c.kind {
	case redInc, redDec:
		for m := rest; m != 0; m &= m - 1 {
			if vals[bits.TrailingZeros32(m)]&0xffffffff != t.limit {
				return false
			}
		}
		acc = uint64(bits.OnesCount32(mask))
	case redExch:
		acc, _ = c.in(vals[31-bits.LeadingZeros32(mask)])
	case redMax:
		if mask == ^uint32(0) { // (a plain loop: no lane search in the chain)
			for _, v := range vals {
				acc = max(acc, v&c.vmask^c.x)
			}
			break
		}
		for m := rest; m != 0; m &= m - 1 {
			acc = max(acc, vals[bits.TrailingZeros32(m)]&c.vmask^c.x)
		}
	case redOr:
		if mask == ^uint32(0) {
			var a, b uint64 // (two chains)
			for l := 0; l < warpSize; l += 2 {
				a, b = a|(vals[l]^c.x), b|(vals[l+1]^c.x)
			}
			acc = (a | b) & c.vmask
			break
		}
		for m := rest; m != 0; m &= m - 1 {
			acc |= vals[bits.TrailingZeros32(m)]&c.vmask ^ c.x
		}
	default: // redXor
		if mask == ^uint32(0) {
			var a, b uint64
			for l := 0; l < warpSize; l += 2 {
				a, b = a^vals[l], b^vals[l+1]
			}
			acc = (a ^ b) & c.vmask
			break
		}
		for m := rest; m != 0; m &= m - 1 {
			acc ^= vals[bits.TrailingZeros32(m)] & c.vmask
		}
	}
	applyCombined(&t, p, c.out(acc))
	return true
}
