package fp

import (
	"fmt"
	"math/big"
)

// Mode is a rounding mode (6.5.2).
type Mode uint8

const (
	RN  Mode = iota // to nearest, ties to even
	RZ              // toward zero
	RM              // toward -infinity
	RP              // toward +infinity
	RNA             // to nearest, ties away from zero
)

var modeNames = [...]string{".rn", ".rz", ".rm", ".rp", ".rna"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// ParseMode maps a PTX rounding modifier (".rn", ".rz", ...; "" is .rn) to
// a Mode.
func ParseMode(s string) (Mode, bool) {
	if s == "" {
		return RN, true
	}
	for i, n := range modeNames {
		if n == s {
			return Mode(i), true
		}
	}
	return 0, false
}

// exact is a finite real number: (-1)^neg * (mant + f) * 2^exp where f is
// 0 when sticky is false and strictly between 0 and 1 when it is true. A
// value with sticky set carries at least two bits more than any format it
// is rounded to, so the sticky fraction only decides direction, never ties.
type exact struct {
	neg    bool
	mant   big.Int
	exp    int
	sticky bool
}

// decode returns the exact value of a finite v.
func (f Format) decode(v uint64) *exact {
	neg, mant, exp := f.decodeSmall(v)
	x := &exact{neg: neg, exp: exp}
	x.mant.SetUint64(mant)
	return x
}

// isZero reports whether x is exactly zero.
func (x *exact) isZero() bool { return x.mant.Sign() == 0 && !x.sticky }

// round rounds a nonzero exact value to the format, handling subnormals and
// overflow as 6.5.2 and IEEE 754 define for each mode.
func (f Format) round(x *exact, m Mode) uint64 {
	n := x.mant.BitLen()
	if n == 0 { // callers keep enough bits that this does not happen
		panic("fp: rounding a value with no significant bits")
	}
	// keep the top 64 bits and fold the rest into the sticky bit: every
	// format has at most 53 bits, so the rounding position stays inside
	// the kept bits and roundSmall decides exactly as on the whole value
	if n <= 64 {
		return f.roundSmall(x.neg, x.mant.Uint64(), x.exp, x.sticky, m)
	}
	var top big.Int
	drop := n - 64
	top.Rsh(&x.mant, uint(drop))
	sticky := x.sticky || lowBitsNonzero(&x.mant, drop)
	return f.roundSmall(x.neg, top.Uint64(), x.exp+drop, sticky, m)
}

// encode packs a rounded normal significand i (Man+1 bits) with quantum
// exponent q, or returns the overflow result.
func (f Format) encode(neg bool, q int, i uint64, m Mode) uint64 {
	if q+f.Man > f.emax() {
		return f.overflow(neg, m)
	}
	v := f.pack(neg, uint64(q+f.Man+f.bias()), i&f.manMask())
	if f.Kind == NaNOnly && f.IsNaN(v) { // e4m3: past the largest finite value
		return f.overflow(neg, m)
	}
	return v
}

// overflow is the result of a value too large for the format: infinity or
// the largest finite number, by mode.
// Formats without infinities overflow to NaN (e4m3) or saturate (no NaN
// either); the conversions that write them take .satfinite anyway.
func (f Format) overflow(neg bool, m Mode) uint64 {
	switch {
	case m == RZ, m == RP && neg, m == RM && !neg, f.Kind == Finite:
		return f.MaxFinite(neg)
	case f.Kind == NaNOnly:
		return f.pack(neg, f.expMask(), f.manMask())
	}
	return f.Inf(neg)
}

// lowBitsNonzero reports whether any of the n low bits of x is set.
func lowBitsNonzero(x *big.Int, n int) bool {
	if n <= 0 {
		return false
	}
	t := x.TrailingZeroBits()
	return x.Sign() != 0 && int(t) < n
}
