package exec

// The functions of atom/red on one 8-byte word (.u64, .s64, .b64, .f64),
// and the one-word add of a shared .f32 word (atomic_words.go's loops):
// bit for bit what the general path produces, without its soft float.

import (
	"math/bits"
	"sync/atomic"
)

// atomicWord64 returns the function that runs atom/red op of type t on one
// 8-byte word at p with operands b and c and returns the old value, or nil
// where it does not serve (not one 8-byte element, or an op atomicOp has
// no function for). .add of .f64 adds with the host's float64 (round to
// nearest even, as fp.F64.Add; NaN results as f64Add), integer .add, .and,
// .or and .exch take fetch-and-op on a global word, .max, .min and .cas
// loops of their own, the others apply in a compare-and-swap loop that
// writes only where the word changes.
func atomicWord64(op, t string, n, vec int, it intType, isInt bool, apply func(old, b, c uint64) uint64) func(p *uint64, b, c uint64, global bool) uint64 {
	if vec != 1 || n != 8 || apply == nil {
		return nil
	}
	switch {
	case t == ".f64" && op == ".add":
		return addF64Word
	case isInt && op == ".add":
		return addWord64
	case isInt && (op == ".max" || op == ".min"):
		isMax, signed := op == ".max", it.signed
		return func(p *uint64, b, _ uint64, global bool) uint64 { return minMaxWord64(p, b, isMax, signed, global) }
	case isInt && op == ".cas":
		return casWord64
	}
	var fetch func(*uint64, uint64) uint64
	switch {
	case op == ".exch":
		fetch = atomic.SwapUint64
	case isInt && op == ".and":
		fetch = atomic.AndUint64
	case isInt && op == ".or":
		fetch = atomic.OrUint64
	}
	return func(p *uint64, b, c uint64, global bool) uint64 {
		switch {
		case !global:
			old := *p
			*p = apply(old, b, c)
			return old
		case fetch != nil:
			return fetch(p, b)
		}
		for {
			old := atomic.LoadUint64(p)
			next := apply(old, b, c)
			if next == old || atomic.CompareAndSwapUint64(p, old, next) {
				return old
			}
		}
	}
}

// addF64Word is atom.add.f64 of b on the word at p (f64Add: the host's
// sum, NaN results as fp.F64.Add makes them); it returns the old value.
func addF64Word(p *uint64, b, _ uint64, global bool) uint64 {
	if !global {
		old := *p
		*p = f64Add(old, b)
		return old
	}
	for {
		old := atomic.LoadUint64(p)
		next := f64Add(old, b)
		if next == old || atomic.CompareAndSwapUint64(p, old, next) {
			return old
		}
	}
}

// addWord64 is atom.add of a 64-bit integer b on the word at p.
func addWord64(p *uint64, b, _ uint64, global bool) uint64 {
	if !global {
		old := *p
		*p = old + b
		return old
	}
	return atomic.AddUint64(p, b) - b
}

// minMaxWord64 is atom.max (isMax) or .min of b on the 64-bit integer at
// p, signed or not, and returns the old value; a global word (atomic) is
// written only where b replaces it.
func minMaxWord64(p *uint64, b uint64, isMax, signed, global bool) uint64 {
	for {
		var old uint64
		if global {
			old = atomic.LoadUint64(p)
		} else {
			old = *p
		}
		less := old < b // (old before b: a max replaces it)
		if signed {
			less = int64(old) < int64(b)
		}
		if less != isMax || old == b {
			return old
		}
		if !global {
			*p = b
			return old
		}
		if atomic.CompareAndSwapUint64(p, old, b) {
			return old
		}
	}
}

// casWord64 is atom.cas of the 64-bit word at p with b and c, and returns
// the old value; a global word (atomic) is written only where it equals b.
func casWord64(p *uint64, b, c uint64, global bool) uint64 {
	if !global {
		old := *p
		if old == b {
			*p = c
		}
		return old
	}
	for {
		old := atomic.LoadUint64(p)
		if old != b || atomic.CompareAndSwapUint64(p, b, c) {
			return old
		}
	}
}

// f64AddOp is atom.add.f64's operation on host floats (f64Add: the host's
// sum, NaN results as fp.F64.Add makes them).
func f64AddOp(old, b, _ uint64) uint64 { return f64Add(old, b) }

// addF32SharedUniform is atom.shared.add.f32 of mask's lanes on the one
// word at p, in lane order (f32Add each: shared memory keeps subnormals),
// each lane getting the word as it was before its own add.
func addF32SharedUniform(p *uint32, vals, olds *lanes, mask uint32) {
	acc := uint64(*p)
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		if olds != nil {
			olds[l] = acc
		}
		acc = f32Add(acc, uint64(uint32(vals[l])))
	}
	*p = uint32(acc)
}
