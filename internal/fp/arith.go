package fp

import "math/big"

// NaNResult is the NaN an operation on ops returns (9.7.3 notes, ptx-isa-9.0.txt line "NaN payloads are
// supported for double-precision instructions"): f64 operations return the
// first NaN operand, quieted; the other formats return the canonical NaN,
// as does an invalid operation (inf-inf, 0*inf, 0/0, sqrt of a negative).
func (f Format) NaNResult(ops ...uint64) uint64 {
	if f.native() == 64 {
		for _, v := range ops {
			if f.IsNaN(v) {
				return f.Quiet(v)
			}
		}
	}
	return f.CanonicalNaN()
}

func (f Format) anyNaN(ops ...uint64) bool {
	for _, v := range ops {
		if f.IsNaN(v) {
			return true
		}
	}
	return false
}

// exactOnly makes the operations skip their fast paths (set by tests, so
// that the math/big path is checked on its own).
var exactOnly = false

// Add returns a+b rounded once.
func (f Format) Add(a, b uint64, m Mode) uint64 {
	if m == RN && !exactOnly {
		if r, ok := f.fastAdd(a, b); ok {
			return r
		}
	}
	if f.anyNaN(a, b) {
		return f.NaNResult(a, b)
	}
	ai, bi := f.IsInf(a), f.IsInf(b)
	switch {
	case ai && bi && f.Signbit(a) != f.Signbit(b):
		return f.CanonicalNaN()
	case ai:
		return a
	case bi:
		return b
	}
	if r, ok := f.addFast(a, b, m); ok && !exactOnly && !f.IsZero(a) && !f.IsZero(b) {
		return r
	}
	return f.sum(f.decode(a), f.decode(b), m)
}

// Sub returns a-b rounded once.
func (f Format) Sub(a, b uint64, m Mode) uint64 {
	if f.IsNaN(b) {
		return f.Add(a, b, m)
	}
	return f.Add(a, f.Neg(b), m)
}

// sum adds two exact values (without sticky fractions) and rounds.
func (f Format) sum(x, y *exact, m Mode) uint64 {
	e := min(x.exp, y.exp)
	var a, b big.Int
	a.Lsh(&x.mant, uint(x.exp-e))
	b.Lsh(&y.mant, uint(y.exp-e))
	if x.neg {
		a.Neg(&a)
	}
	if y.neg {
		b.Neg(&b)
	}
	a.Add(&a, &b)
	if a.Sign() == 0 {
		// IEEE 754 6.3: zeros of the same sign add to that zero; any
		// other exact zero sum is +0, or -0 when rounding toward -infinity
		if x.mant.Sign() == 0 && y.mant.Sign() == 0 && x.neg == y.neg {
			return f.Zero(x.neg)
		}
		return f.Zero(m == RM)
	}
	r := &exact{neg: a.Sign() < 0, exp: e}
	r.mant.Abs(&a)
	return f.round(r, m)
}

// Mul returns a*b rounded once.
func (f Format) Mul(a, b uint64, m Mode) uint64 {
	if m == RN && !exactOnly {
		if r, ok := f.fastMul(a, b); ok {
			return r
		}
	}
	if f.anyNaN(a, b) {
		return f.NaNResult(a, b)
	}
	neg := f.Signbit(a) != f.Signbit(b)
	ai, bi := f.IsInf(a), f.IsInf(b)
	az, bz := f.IsZero(a), f.IsZero(b)
	switch {
	case ai && bz, bi && az:
		return f.CanonicalNaN()
	case ai || bi:
		return f.Inf(neg)
	case az || bz:
		return f.Zero(neg)
	}
	if r, ok := f.mulFast(a, b, m); ok && !exactOnly {
		return r
	}
	return f.round(f.product(a, b), m)
}

// product is the exact product of two finite values.
func (f Format) product(a, b uint64) *exact {
	x, y := f.decode(a), f.decode(b)
	r := &exact{neg: x.neg != y.neg, exp: x.exp + y.exp}
	r.mant.Mul(&x.mant, &y.mant)
	return r
}

// Fma returns a*b+c rounded once (9.7.3.6).
func (f Format) Fma(a, b, c uint64, m Mode) uint64 {
	if m == RN && !exactOnly {
		if r, ok := f.fastFma(a, b, c); ok {
			return r
		}
	}
	if f.anyNaN(a, b, c) {
		return f.NaNResult(a, b, c)
	}
	pneg := f.Signbit(a) != f.Signbit(b)
	ai, bi, ci := f.IsInf(a), f.IsInf(b), f.IsInf(c)
	az, bz := f.IsZero(a), f.IsZero(b)
	switch {
	case ai && bz, bi && az:
		return f.CanonicalNaN()
	case ai || bi:
		if ci && f.Signbit(c) != pneg {
			return f.CanonicalNaN()
		}
		return f.Inf(pneg)
	case ci:
		return c
	}
	if !az && !bz && !f.IsZero(c) {
		if r, ok := f.fmaFast(a, b, c, m); ok && !exactOnly {
			return r
		}
	}
	var p *exact
	if az || bz {
		p = &exact{neg: pneg}
	} else {
		p = f.product(a, b)
	}
	return f.sum(p, f.decode(c), m)
}

// Div returns a/b rounded once.
func (f Format) Div(a, b uint64, m Mode) uint64 {
	if m == RN && !exactOnly {
		if r, ok := f.fastDiv(a, b); ok {
			return r
		}
	}
	if f.anyNaN(a, b) {
		return f.NaNResult(a, b)
	}
	neg := f.Signbit(a) != f.Signbit(b)
	ai, bi := f.IsInf(a), f.IsInf(b)
	az, bz := f.IsZero(a), f.IsZero(b)
	switch {
	case ai && bi, az && bz:
		return f.CanonicalNaN()
	case ai, bz:
		return f.Inf(neg)
	case bi, az:
		return f.Zero(neg)
	}
	if r, ok := f.divFast(a, b, m); ok && !exactOnly {
		return r
	}
	x, y := f.decode(a), f.decode(b)
	// scale the dividend so the quotient has at least Man+3 bits
	k := max(0, f.Man+3+y.mant.BitLen()-x.mant.BitLen())
	var num, q, rem big.Int
	num.Lsh(&x.mant, uint(k))
	q.QuoRem(&num, &y.mant, &rem)
	r := &exact{neg: neg, exp: x.exp - y.exp - k, sticky: rem.Sign() != 0}
	r.mant.Set(&q)
	return f.round(r, m)
}

// Sqrt returns the square root rounded once; sqrt(-0) is -0.
func (f Format) Sqrt(a uint64, m Mode) uint64 {
	if m == RN && !exactOnly {
		if r, ok := f.fastSqrt(a); ok {
			return r
		}
	}
	switch {
	case f.IsNaN(a):
		return f.NaNResult(a)
	case f.IsZero(a):
		return a
	case f.Signbit(a):
		return f.CanonicalNaN()
	case f.IsInf(a):
		return a
	}
	if r, ok := f.sqrtFast(a, m); ok && !exactOnly {
		return r
	}
	x := f.decode(a)
	// make the exponent even and give the root at least Man+3 bits
	k := max(0, 2*(f.Man+3)-x.mant.BitLen())
	if (x.exp-k)%2 != 0 {
		k++
	}
	var v, s, sq big.Int
	v.Lsh(&x.mant, uint(k))
	s.Sqrt(&v)
	sq.Mul(&s, &s)
	r := &exact{exp: (x.exp - k) / 2, sticky: sq.Cmp(&v) != 0}
	r.mant.Set(&s)
	return f.round(r, m)
}
