package exec

import "math"

// The f32 transcendental .approx instructions' values (9.7.3.21 ex2): the
// manual bounds their error and leaves the exact results to the
// implementation, so ptxvm computes them by an algorithm of its own that
// the AVX2 loops (simdgen) repeat operation for operation: the per-lane
// path, the Go warp loops and the AVX2 ones give the same bits. The
// series' Horner steps are fused multiply-adds (math.FMA; VFMADD213PD in
// the assembly: one rounding each, and a quarter to a sixth faster there
// than a multiply and an add); every other product is rounded explicitly
// (float64(...)), so that no compiler fuses it into a multiply-add the
// assembly does not do.

// exp2Coef are the Taylor coefficients of 2^f = e^(f ln 2): (ln 2)^k / k!,
// each the float64 nearest the exact value.
var exp2Coef = [14]float64{
	0x1.0000000000000p+0, 0x1.62e42fefa39efp-1, 0x1.ebfbdff82c58fp-3, 0x1.c6b08d704a0c0p-5,
	0x1.3b2ab6fba4e77p-7, 0x1.5d87fe78a6731p-10, 0x1.430912f86c787p-13, 0x1.ffcbfc588b0c7p-17,
	0x1.62c0223a5c824p-20, 0x1.b5253d395e7c4p-24, 0x1.e4cf5158b8ecap-28, 0x1.e8cac7351bb25p-32,
	0x1.c3bd650fc2986p-36, 0x1.816193166d0f9p-40,
}

// exp2Approx is 2^x for ex2.approx.f32 (x an f32 value), in f64: x
// clamped to [-200, 200] (beyond, the f32 result is 0 or +Inf either
// way), x = n + f with n the nearest integer (ties to even) and |f| <=
// 1/2, 2^f by its Taylor series to degree 13 in Horner's form (truncation
// error under 1e-17 relative), times 2^n. NaN stays NaN.
func exp2Approx(x float64) float64 {
	if x != x {
		return x
	}
	x = min(max(x, -200), 200)
	n := math.RoundToEven(x)
	f := x - n
	p := exp2Coef[13]
	for k := 12; k >= 0; k-- {
		p = math.FMA(p, f, exp2Coef[k])
	}
	return p * math.Float64frombits(uint64(int64(n)+1023)<<52)
}

// The constants of sinCosApprox: pi/2 as the sum of pio2a and pio2b (29
// significant bits each: their products with a reduction count below 2^24
// are exact) and pio2c, 2/pi, and the Taylor coefficients of sin r,
// (-1)^k / (2k+1)!, and of cos r, (-1)^k / (2k)!, each the float64 nearest
// the exact value.
const (
	pio2a     = 0x1.921fb54000000p+0
	pio2b     = 0x1.10b4611000000p-30
	pio2c     = 0x1.4c4c6628b80dcp-59
	twoOverPi = 0x1.45f306dc9c883p-1
)

var sinCoef = [8]float64{0x1.0000000000000p+0, -0x1.5555555555555p-3, 0x1.1111111111111p-7,
	-0x1.a01a01a01a01ap-13, 0x1.71de3a556c734p-19, -0x1.ae64567f544e4p-26, 0x1.6124613a86d09p-33,
	-0x1.ae7f3e733b81fp-41}

var cosCoef = [9]float64{0x1.0000000000000p+0, -0x1.0000000000000p-1, 0x1.5555555555555p-5,
	-0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-16, -0x1.27e4fb7789f5cp-22, 0x1.1eed8eff8d898p-29,
	-0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-45}

// sinCosApprox is sin x (or cos x) for sin/cos.approx.f32 (x an f32
// value), in f64: x = k pi/2 + r with k the nearest integer to x 2/pi (ties
// to even) and r reduced in three steps (exact for |k| < 2^24, that is
// |x| up to about 2.6e7; beyond, where the manual bounds no error, r is
// clamped to [-1, 1] and the result, though in [-1, 1], means little),
// then sin r to degree 15 and cos r to degree 16 by their Taylor series
// (truncation error under 1e-16 for |r| <= pi/4), chosen and signed by k
// mod 4. NaN and infinities give NaN.
func sinCosApprox(x float64, cos bool) float64 {
	if x != x || math.IsInf(x, 0) {
		return math.NaN()
	}
	k := math.RoundToEven(float64(x * twoOverPi))
	r := float64(x - float64(k*pio2a))
	r = float64(r - float64(k*pio2b))
	r = float64(r - float64(k*pio2c))
	if !(r > -1) {
		r = -1
	}
	if !(r < 1) {
		r = 1
	}
	q := float64(k - float64(4*math.Floor(float64(k*0.25))))
	r2 := float64(r * r)
	s := sinCoef[7]
	for i := 6; i >= 0; i-- {
		s = math.FMA(s, r2, sinCoef[i])
	}
	s = float64(s * r)
	c := cosCoef[8]
	for i := 7; i >= 0; i-- {
		c = math.FMA(c, r2, cosCoef[i])
	}
	if cos {
		switch q {
		case 0:
			return c
		case 1:
			return -s
		case 2:
			return -c
		}
		return s
	}
	switch q {
	case 0:
		return s
	case 1:
		return c
	case 2:
		return -s
	}
	return -c
}

func sinApprox(x float64) float64 { return sinCosApprox(x, false) }
func cosApprox(x float64) float64 { return sinCosApprox(x, true) }

// The constants of log2Approx: the coefficients 1/(2k+1) of the series
// ln m = 2 atanh s = 2s (1 + s^2/3 + s^4/5 + ...), s = (m-1)/(m+1), 2/ln 2
// and the square root of 2, each the float64 nearest the exact value.
var lg2Coef = [12]float64{0x1.0000000000000p+0, 0x1.5555555555555p-2, 0x1.999999999999ap-3,
	0x1.2492492492492p-3, 0x1.c71c71c71c71cp-4, 0x1.745d1745d1746p-4, 0x1.3b13b13b13b14p-4,
	0x1.1111111111111p-4, 0x1.e1e1e1e1e1e1ep-5, 0x1.af286bca1af28p-5, 0x1.8618618618618p-5,
	0x1.642c8590b2164p-5}

const (
	twoOverLn2 = 0x1.71547652b82fep+1
	sqrt2      = 0x1.6a09e667f3bcdp+0
)

// log2Approx is log2 x for lg2.approx.f32 (x an f32 value), in f64: x =
// m 2^e with m in (sqrt(1/2), sqrt(2)], then e + ln m 2/ln 2 with ln m/2 =
// atanh s by its series to s^23 (|s| <= 0.172: truncation error under
// 1e-17). NaN and negative x give NaN, zeros -Inf, +Inf +Inf.
func log2Approx(x float64) float64 {
	switch {
	case x != x || x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	case math.IsInf(x, 1):
		return x
	}
	b := math.Float64bits(x)
	e := float64(int64(b>>52&0x7ff) - 1023)
	m := math.Float64frombits(b&^(0x7ff<<52) | 1023<<52)
	if m > sqrt2 {
		m = float64(m * 0.5)
		e = e + 1
	}
	s := float64(float64(m-1) / float64(m+1))
	s2 := float64(s * s)
	p := lg2Coef[11]
	for k := 10; k >= 0; k-- {
		p = math.FMA(p, s2, lg2Coef[k])
	}
	return e + float64(float64(s*p)*twoOverLn2)
}
