package fp

import (
	"math"
	"math/bits"
)

// Fast exact paths without math/big.
//
// Formats of at most 24 bits of precision (f32, tf32, f16, bf16): every
// operation is computed in f64 and rounded to odd (an inexact result gets
// an odd last bit), then rounded once to the format in the instruction's
// mode. Rounding to odd at 53 >= p+2 bits and then to p bits in any mode is
// the correctly rounded result (Boldo and Melquiond, "Emulation of FMA and
// correctly rounded sums: proved algorithms using rounding to odd", 2008).
// The exact error of the f64 step comes from error-free transformations
// (TwoSum for sums, FMA residuals for products, quotients and roots), which
// are exact here because values of these formats stay far inside the f64
// range.
//
// f64 in directed modes: the round-to-nearest result and the sign of its
// error give the directed result, by stepping one ulp where the mode and
// the error disagree. Results near the ends of the f64 range (where the
// error-free transformations may underflow or overflow) fall back to the
// math/big path, as does .rna.

// narrow reports whether the format takes the round-to-odd path.
func (f Format) narrow() bool { return f.Man <= 23 && f.Exp <= 8 }

// odd rounds r to odd given the sign of the exact error exact-r.
func odd(r, err float64) float64 {
	if err == 0 || math.Float64bits(r)&1 == 1 {
		return r
	}
	return math.Nextafter(r, math.Copysign(math.Inf(1), err))
}

// twoSumErr is the exact rounding error of s = a+b (Knuth).
func twoSumErr(a, b, s float64) float64 {
	bv := s - a
	return (a - (s - bv)) + (b - bv)
}

// fromOdd rounds an odd-rounded f64 to the format.
func (f Format) fromOdd(r float64, m Mode) uint64 {
	return Convert(f, F64, math.Float64bits(r), m)
}

// directed turns the round-to-nearest f64 result r with error sign err
// into the result of mode m (not RNA); ok is false where the shortcut does
// not apply.
func directed(r, err float64, m Mode) (uint64, bool) {
	a := math.Abs(r)
	if a < 0x1p-960 || a > 0x1p1000 { // near underflow or overflow
		return 0, false
	}
	switch {
	case err == 0, m == RN:
	case m == RZ && (err > 0) != (r > 0):
		r = math.Nextafter(r, 0)
	case m == RM && err < 0:
		r = math.Nextafter(r, math.Inf(-1))
	case m == RP && err > 0:
		r = math.Nextafter(r, math.Inf(1))
	}
	return math.Float64bits(r), true
}

// inRange reports whether f64 operands are far enough from the ends of the
// range for the error-free transformations to be exact.
func inRange(xs ...float64) bool {
	for _, x := range xs {
		if a := math.Abs(x); a < 0x1p-900 || a > 0x1p1000 {
			return false
		}
	}
	return true
}

// addFast is a+b for finite nonzero-sum operands; ok is false when the
// math/big path must decide.
func (f Format) addFast(a, b uint64, m Mode) (uint64, bool) {
	x, y := f.ToFloat64(a), f.ToFloat64(b)
	s := x + y
	if s == 0 || math.IsInf(s, 0) {
		return 0, false // signed-zero rules and overflow: the exact path
	}
	e := twoSumErr(x, y, s)
	if f.narrow() {
		return f.fromOdd(odd(s, e), m), true
	}
	if m == RNA {
		return 0, false
	}
	return directed(s, e, m)
}

func (f Format) mulFast(a, b uint64, m Mode) (uint64, bool) {
	x, y := f.ToFloat64(a), f.ToFloat64(b)
	p := x * y
	if f.narrow() { // at most 2*24 bits: exact
		return f.fromOdd(p, m), true
	}
	if m == RNA || !inRange(x, y) {
		return 0, false
	}
	return directed(p, math.FMA(x, y, -p), m)
}

func (f Format) fmaFast(a, b, c uint64, m Mode) (uint64, bool) {
	x, y, z := f.ToFloat64(a), f.ToFloat64(b), f.ToFloat64(c)
	if !f.narrow() {
		return 0, false // an exact f64 fma error needs more than f64
	}
	p := x * y // exact
	s := p + z
	if s == 0 {
		return 0, false
	}
	return f.fromOdd(odd(s, twoSumErr(p, z, s)), m), true
}

func (f Format) divFast(a, b uint64, m Mode) (uint64, bool) {
	x, y := f.ToFloat64(a), f.ToFloat64(b)
	q := x / y
	if q == 0 || math.IsInf(q, 0) || !f.narrow() && !inRange(x, y) {
		return 0, false
	}
	// x - q*y is exact; the exact quotient lies on its side of q, scaled
	// by the sign of y
	rem := math.FMA(-q, y, x)
	err := rem
	if y < 0 {
		err = -rem
	}
	if f.narrow() {
		return f.fromOdd(odd(q, err), m), true
	}
	if m == RNA {
		return 0, false
	}
	return directed(q, err, m)
}

func (f Format) sqrtFast(a uint64, m Mode) (uint64, bool) {
	x := f.ToFloat64(a)
	if !f.narrow() && !inRange(x) {
		return 0, false
	}
	r := math.Sqrt(x)
	err := math.FMA(-r, r, x) // exact: x - r*r
	if f.narrow() {
		return f.fromOdd(odd(r, err), m), true
	}
	if m == RNA {
		return 0, false
	}
	return directed(r, err, m)
}

// roundSmall is round for values whose significand fits in 64 bits.
func (f Format) roundSmall(neg bool, mant uint64, exp int, sticky bool, m Mode) uint64 {
	n := bits.Len64(mant)
	top := exp + n - 1
	q := max(top-f.Man, f.emin()-f.Man)
	shift := q - exp
	var i uint64
	var half, rest bool
	switch {
	case shift <= 0:
		i = mant << uint(-shift)
		rest = sticky
	case shift < 64:
		i = mant >> uint(shift)
		half = mant>>uint(shift-1)&1 != 0
		rest = sticky || mant&(1<<uint(shift-1)-1) != 0
	case shift == 64:
		half = mant>>63 != 0
		rest = sticky || mant&(1<<63-1) != 0
	default:
		rest = sticky || mant != 0
	}
	inc := false
	switch m {
	case RN:
		inc = half && (rest || i&1 != 0)
	case RNA:
		inc = half
	case RP:
		inc = !neg && (half || rest)
	case RM:
		inc = neg && (half || rest)
	}
	if inc {
		i++
	}
	if bits.Len64(i) > f.Man+1 {
		i >>= 1
		q++
	}
	if bits.Len64(i) <= f.Man {
		return f.pack(neg, 0, i)
	}
	return f.encode(neg, q, i, m)
}

// decodeSmall returns the significand and exponent of a finite v.
func (f Format) decodeSmall(v uint64) (neg bool, mant uint64, exp int) {
	neg, e, m := f.fields(v)
	if e == 0 {
		return neg, m, f.emin() - f.Man
	}
	return neg, m | 1<<f.Man, int(e) - f.bias() - f.Man
}

// SumToOdd returns x+y rounded to odd in f64: exact when the sum is, and
// otherwise the neighbour with an odd last bit, so that rounding it once
// more to 24 or fewer bits gives the correctly rounded sum.
func SumToOdd(x, y float64) float64 {
	s := x + y
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return s
	}
	return odd(s, twoSumErr(x, y, s))
}
