package exec

// Buffered max, min, and, or, xor, exch and inc: like buffered adds
// (atomic_buffer.go), but each word's lanes fold into one value (the
// extreme, the bitwise fold, the last value written, the count of
// increments), which the worker applies with one atomic op when it must.
// Applying the fold once gives what applying the lanes' ops one after
// another, in the worker's order, gives (max, min and the bitwise ops
// commute and associate; an exch leaves the last value; k increments
// with one limit are one step round 0..limit: incTimes): the
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
	case ".inc":
		if t == ".u32" {
			return redInc
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

// fold is op's fold of the values a and b of a word of width bytes.
func fold(op uint8, signed bool, width uint64, a, b uint64) uint64 {
	switch op {
	case redAnd:
		return a & b
	case redOr:
		return a | b
	case redXor:
		return a ^ b
	case redExch:
		return b
	case redInc:
		return a + 1 // (a count)
	}
	less := a < b // (op max: b replaces a)
	switch {
	case signed && width == 4:
		less = int32(a) < int32(b)
	case signed:
		less = int64(a) < int64(b)
	}
	if less == (op == redMax) {
		return b
	}
	return a
}

// combineLanes folds the values of the lanes of mask into the slot's words
// (the first value a word gets, then each later one folded in, lane after
// lane). A lane outside the covered words applies its op to memory
// straight away; it returns the lanes outside the target or misaligned,
// for the general path (which faults there). adj is the op's address
// constant less the target's base.
func (rb *redSlot) combineLanes(addrs, vals *lanes, adj uint64, mask uint32) uint32 {
	t := rb.t
	width, limit := t.width, t.size-t.width
	shift := uint(bits.TrailingZeros64(width))
	vmask := ^uint64(0)
	if width == 4 {
		vmask = 0xffffffff
	}
	var rest uint32
	for m := mask; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		off := addrs[lane] + adj
		if off > limit || off&(width-1) != 0 {
			rest |= 1 << lane
			continue
		}
		v := vals[lane] & vmask
		if t.op == redInc {
			if v != t.limit {
				rest |= 1 << lane // (another limit: the general path, after the folds)
				continue
			}
			v = 1
		}
		i := (off - rb.lo) >> shift
		if i >= redWords {
			applyCombined(t, unsafe.Pointer(&rb.data[off]), v)
			continue
		}
		if !rb.seen[i] {
			rb.seen[i] = true
			rb.touched = append(rb.touched, uint32(i))
			rb.d64[i] = v
			rb.min, rb.max = min(rb.min, int(i)), max(rb.max, int(i))
			continue
		}
		rb.d64[i] = fold(t.op, t.signed, width, rb.d64[i], v)
	}
	return rest
}

// flushCombined applies each touched word's fold to memory (one atomic op
// a word) and empties the slot.
func (rb *redSlot) flushCombined() {
	for _, i := range rb.touched {
		applyCombined(rb.t, unsafe.Pointer(&rb.data[rb.lo+uint64(i)*rb.t.width]), rb.d64[i])
		rb.seen[i], rb.d64[i] = false, 0
	}
	rb.touched = rb.touched[:0]
}

// applyCombined applies target t's op with value v to the word at p, as
// one atomic step.
func applyCombined(t *redTarget, p unsafe.Pointer, v uint64) {
	isMax := t.op == redMax
	switch {
	case t.op == redInc:
		for q := (*uint32)(p); ; {
			old := atomic.LoadUint32(q)
			if atomic.CompareAndSwapUint32(q, old, uint32(incTimes(uint64(old), v, t.limit))) {
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
