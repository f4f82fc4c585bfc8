package exec

import (
	"math"

	"github.com/ptxvm/ptxvm/internal/ir"
)

// A form is a register's value in every lane of a batch (batch.go) as a
// function of the lane's indices x = (tid.x, tid.y, tid.z, ctaid.x):
// base + c·x modulo 2^bits, kept in the slot zero- or sign-extended (sext)
// as the engine's handler for the op that wrote it leaves it. bits 0: the
// register holds base in every lane, as the slot's content (c is zero).
type form struct {
	base uint64
	c    [4]uint64
	bits uint8
	sext bool
}

// uniformRaw is the form of a slot holding v in every lane.
func uniformRaw(v uint64) form { return form{base: v} }

func (f form) uniform() bool { return f.c == [4]uint64{} }

// norm is the slot content of the value v (modulo 2^bits).
func (f form) norm(v uint64) uint64 {
	if f.bits == 32 {
		if f.sext {
			return uint64(int64(int32(v)))
		}
		return uint64(uint32(v))
	}
	return v
}

// raw is the slot content of a uniform form.
func (f form) raw() uint64 { return f.norm(f.base) }

// lin is the form as a linear function modulo 2^w, for an op of width w
// (32 or 64): false when its lanes' values are not one (a 32-bit form
// read as 64 bits; widen decides those).
func (f form) lin(w int) (form, bool) {
	switch {
	case f.bits == 0:
		return form{base: f.base}, true
	case int(f.bits) >= w:
		return form{base: f.base, c: f.c}, true
	}
	return form{}, false
}

func (f form) add(g form) form {
	return form{base: f.base + g.base, c: [4]uint64{f.c[0] + g.c[0], f.c[1] + g.c[1], f.c[2] + g.c[2], f.c[3] + g.c[3]}}
}

func (f form) scale(k uint64) form {
	return form{base: f.base * k, c: [4]uint64{f.c[0] * k, f.c[1] * k, f.c[2] * k, f.c[3] * k}}
}

// aligned reports whether every value of the form plus off is a multiple
// of n (a power of two): its base plus off and its steps are.
func (f *form) aligned(off, n uint64) bool {
	return (f.base+off|f.c[0]|f.c[1]|f.c[2]|f.c[3])&(n-1) == 0
}

// typed gives a linear function the width and extension of a result.
func (f form) typed(bits int, sext bool) form {
	f.bits, f.sext = uint8(bits), sext && bits == 32
	return f
}

// batchDomain is the range of each index over a batch's lanes: x[i] in
// [lo[i], lo[i]+n[i]).
type batchDomain struct {
	lo, n [4]int64
}

// widen returns the 64-bit linear function of a 32-bit form's values read
// as unsigned or signed 32-bit integers, when no lane's value wraps
// differently from the others: the exact integer base + c·x (with c's
// entries taken as signed 32-bit steps) then lies in one 2^32 window over
// the whole domain, and the values are that integer less the window's
// start.
func (f form) widen(signed bool, d *batchDomain) (form, bool) {
	if f.bits == 0 || f.uniform() {
		v := uint64(uint32(f.base))
		if signed {
			v = uint64(int64(int32(f.base)))
		}
		return form{base: v, bits: 64}, true
	}
	if f.bits != 32 {
		return form{}, false
	}
	b := int64(uint32(f.base))
	if signed {
		b = int64(int32(f.base))
	}
	var c [4]uint64
	var cs [4]int64
	for i, ci := range f.c {
		cs[i] = int64(int32(ci)) // |c| < 2^31 and the indices < 2^31: no overflow below 2^63
		c[i] = uint64(cs[i])
	}
	dlo, dhi := d.deltas(cs)
	lo, hi := b+dlo, b+dhi
	off := int64(0)
	if signed {
		off = 1 << 31
	}
	k := (lo + off) >> 32 // floor division: the window of the smallest value
	if (hi+off)>>32 != k {
		return form{}, false
	}
	return form{base: uint64(b - k<<32), c: c, bits: 64}, true
}

// deltas returns the least and greatest of c·x over the domain; each
// |c[i]| < 2^31 (the tid terms stay below 2^41, the ctaid.x term below
// 2^62: the sums fit in an int64).
func (d *batchDomain) deltas(c [4]int64) (int64, int64) {
	var lo, hi int64
	for i, s := range c {
		if d.n[i] <= 0 || s == 0 {
			continue
		}
		t0, t1 := s*d.lo[i], s*(d.lo[i]+d.n[i]-1)
		lo += min(t0, t1)
		hi += max(t0, t1)
	}
	return lo, hi
}

// span returns the least and greatest values, in the order of a
// comparison of bits bits (signed or not), that a non-uniform form takes
// over the domain, when no value wraps around (so the values lie between
// them and a threshold comparison that the two agree on holds alike in
// every lane).
func (f form) span(bits int, signed bool, d *batchDomain) (uint64, uint64, bool) {
	if int(f.bits) != bits {
		return 0, 0, false
	}
	if bits == 32 {
		w, ok := f.widen(signed, d) // the values as exact integers
		if !ok {
			return 0, 0, false
		}
		var cs [4]int64
		for i, c := range w.c {
			cs[i] = int64(c)
		}
		dlo, dhi := d.deltas(cs)
		return w.base + uint64(dlo), w.base + uint64(dhi), true
	}
	var cs [4]int64
	for i, c := range f.c {
		cs[i] = int64(c)
		if cs[i] >= 1<<31 || cs[i] <= -1<<31 {
			return 0, 0, false
		}
	}
	dlo, dhi := d.deltas(cs)
	if signed {
		b := int64(f.base)
		if dlo < 0 && b < math.MinInt64-dlo || dhi > 0 && b > math.MaxInt64-dhi {
			return 0, 0, false
		}
		return uint64(b + dlo), uint64(b + dhi), true
	}
	if dlo < 0 && f.base < uint64(-dlo) || dhi > 0 && f.base > math.MaxUint64-uint64(dhi) {
		return 0, 0, false
	}
	return f.base + uint64(dlo), f.base + uint64(dhi), true
}

// cvtIntTypes returns an integer cvt's destination and source types.
func cvtIntTypes(in *ir.Inst) (intType, intType, bool) {
	dt, at, ok := typePair(in, ".dtype", ".atype")
	if !ok {
		return intType{}, intType{}, false
	}
	d, ok1 := parseInt(dt)
	a, ok2 := parseInt(at)
	return d, a, ok1 && ok2 && (d.bits == 32 || d.bits == 64) && (a.bits == 32 || a.bits == 64)
}

// An intCmp is one of setp's integer comparisons.
type intCmp uint8

const (
	cmpNone intCmp = iota
	cmpEq
	cmpNe
	cmpLt // .lt, .lo: less, signed as the type says (.lo unsigned)
	cmpLe
	cmpGt
	cmpGe
)

// parseIntCmp returns the comparison and whether it is unsigned whatever
// the type (.lo, .ls, .hi, .hs).
func parseIntCmp(cmp string) (intCmp, bool) {
	switch cmp {
	case ".eq":
		return cmpEq, false
	case ".ne":
		return cmpNe, false
	case ".lt":
		return cmpLt, false
	case ".le":
		return cmpLe, false
	case ".gt":
		return cmpGt, false
	case ".ge":
		return cmpGe, false
	case ".lo":
		return cmpLt, true
	case ".ls":
		return cmpLe, true
	case ".hi":
		return cmpGt, true
	case ".hs":
		return cmpGe, true
	}
	return cmpNone, false
}

// compareInt is setp's integer comparison c of x and y of bits bits (32 or
// 64), signed or not.
func compareInt(x, y uint64, bits int, signed bool, c intCmp) bool {
	if bits == 32 {
		if signed {
			x, y = uint64(int64(int32(x))), uint64(int64(int32(y)))
		} else {
			x, y = uint64(uint32(x)), uint64(uint32(y))
		}
	}
	if signed {
		x, y = x^1<<63, y^1<<63 // signed order as unsigned order
	}
	switch c {
	case cmpEq:
		return x == y
	case cmpNe:
		return x != y
	case cmpLt:
		return x < y
	case cmpLe:
		return x <= y
	case cmpGt:
		return x > y
	case cmpGe:
		return x >= y
	}
	return false
}
