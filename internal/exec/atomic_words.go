package exec

// The warp loop of atom/red on 4- or 8-byte words in the window
// (atomic.go), for both widths: each lane through its op's function on
// the word (atomicWord32, atomicWord64: typed, since a generic one ran
// 10-20% slower in a per-bucket max kernel), every lane at one word in one
// step (foldWord). A global word takes the host's atomics; shared memory
// belongs to the cluster's goroutine, which updates it with plain loads
// and stores.

import (
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// word is the host word of a 4- or 8-byte atom.
type word interface{ uint32 | uint64 }

// loadWord reads the word at p: atomically where global (another worker
// may write it; a plain read would race).
func loadWord[T word](p *T, global bool) T {
	switch {
	case !global:
		return *p
	case unsafe.Sizeof(*p) == 4: // (each instantiation's own constant)
		return T(atomic.LoadUint32((*uint32)(unsafe.Pointer(p))))
	}
	return T(atomic.LoadUint64((*uint64)(unsafe.Pointer(p))))
}

// replaceWord writes next at p where it still holds old (a global word:
// compare-and-swap; the cluster's own shared word, read just before, holds
// it) and reports whether it did.
func replaceWord[T word](p *T, old, next T, global bool) bool {
	switch {
	case !global:
		*p = next
		return true
	case unsafe.Sizeof(*p) == 4:
		return atomic.CompareAndSwapUint32((*uint32)(unsafe.Pointer(p)), uint32(old), uint32(next))
	}
	return atomic.CompareAndSwapUint64((*uint64)(unsafe.Pointer(p)), uint64(old), uint64(next))
}

// foldWord runs op (apply) for the lanes of mask, all at the word at p, in
// lane order as one atomic step: each lane's old value (normalised as
// norm says) is the word as the lanes before it left it, a valid order of
// the lanes' ops. A global word takes one compare-and-swap, done again
// from the new word when another worker changed it, and none when the
// ops leave it unchanged (the load is then the step).
// kind, when not redAdd, names the op (atomic_combine.go's kinds, signed
// for max and min), whose lanes then run in a loop of its own: through
// apply, an atomicInc ring's tickets took two fifths of a_int1's time.
func foldWord[T word](p *T, apply func(old, b, c uint64) uint64, kind uint8, signed bool, vals, cs, olds *lanes, mask uint32, norm intType, global bool) {
	for {
		start := loadWord(p, global)
		cur := start
		if kind != redAdd && cs == nil && olds != nil {
			cur = foldKind(kind, signed, cur, vals, olds, mask, norm)
			if cur == start || replaceWord(p, start, cur, global) {
				return
			}
			continue
		}
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			var c uint64
			if cs != nil {
				c = uint64(T(cs[l]))
			}
			if olds != nil {
				olds[l] = norm.norm(uint64(cur))
			}
			cur = T(apply(uint64(cur), uint64(T(vals[l])), c))
		}
		if cur == start || replaceWord(p, start, cur, global) {
			return
		}
	}
}

// foldKind runs op kind (redMax to redDec; max and min signed as signed
// says) for the lanes of mask in lane order from the word cur, each lane's
// old value (normalised as norm says) into olds, and returns the word
// they leave (9.7.13.5's rules).
func foldKind[T word](kind uint8, signed bool, cur T, vals, olds *lanes, mask uint32, norm intType) T {
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		olds[l] = norm.norm(uint64(cur))
		v := T(vals[l])
		switch kind {
		case redMax:
			if less(cur, v, signed) {
				cur = v
			}
		case redMin:
			if less(v, cur, signed) {
				cur = v
			}
		case redAnd:
			cur &= v
		case redOr:
			cur |= v
		case redXor:
			cur ^= v
		case redExch:
			cur = v
		case redInc:
			if cur >= v {
				cur = 0
			} else {
				cur++
			}
		default: // redDec
			if cur == 0 || cur > v {
				cur = v
			} else {
				cur--
			}
		}
	}
	return cur
}

// less compares a and b as unsigned words, or as two's complement ones.
func less[T word](a, b T, signed bool) bool {
	if !signed {
		return a < b
	}
	if unsafe.Sizeof(a) == 4 {
		return int32(a) < int32(b)
	}
	return int64(a) < int64(b)
}

// wordLanes runs op (its function on one word) for the lanes of mask whose
// words (of T) lie in the window win (its first address winBase, its last
// word's offset winLimit), aligned: every lane at one word as one step
// (combineWord where unread, the op's info, is not nil: old values unread;
// else foldWord with fold and kind), else lane by lane. It returns the lanes it left,
// from the first outside the window or misaligned on, for the general
// path (which faults where it must). Old values are normalised as norm
// says.
func wordLanes[T word](win []byte, winBase, winLimit, addrConst uint64, addrs, vals, cs, olds *lanes, mask uint32,
	op func(p *T, b, c T, global bool) T, fold func(old, b, c uint64) uint64, kind uint8, signed bool, unread *atomInfo, norm intType, global bool) uint32 {
	size := uint64(unsafe.Sizeof(T(0)))
	if l0 := bits.TrailingZeros32(mask); mask&(mask-1) != 0 && sameInLanes(addrs, mask, l0) {
		// every lane at one word (a counter, a ring's atomicInc, a lock)
		if off := addrs[l0] + addrConst - winBase; off <= winLimit && off&(size-1) == 0 {
			p := unsafe.Pointer(&win[off])
			// old values unread (the CUDA samples' simpleAtomicIntrinsics,
			// a block's shared maximum): one fold, one atomic step
			if unread != nil && combineWord(p, unread, size, vals, mask) {
				return 0
			}
			foldWord((*T)(p), fold, kind, signed, vals, cs, olds, mask, norm, global)
			return 0
		}
	}
	for ; mask != 0; mask &= mask - 1 {
		lane := bits.TrailingZeros32(mask)
		off := addrs[lane] + addrConst - winBase
		if off > winLimit || off&(size-1) != 0 {
			break
		}
		var c T
		if cs != nil {
			c = T(cs[lane])
		}
		old := op((*T)(unsafe.Pointer(&win[off])), T(vals[lane]), c, global)
		if olds != nil {
			olds[lane] = norm.norm(uint64(old))
		}
	}
	return mask
}
