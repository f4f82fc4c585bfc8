package exec

import (
	"math"

	"github.com/ptxvm/ptxvm/internal/fp"
)

// Half precision on the host's floats: add, sub, mul and fma.rn on .f16
// and .f16x2 without .ftz, .sat or .relu, and cvt between .f16 and
// .f32/.f64, where fp's soft float (exact for every format) costs a few
// hundred host instructions a lane.
//
// A half is exact in float64 (and float32). A sum, difference or product
// of two halves rounded to float32 and then to half is the correctly
// rounded half: float32 has 24 >= 2*11+2 bits, enough that rounding twice
// cannot differ from rounding once for these operations (Figueroa's
// condition for +, -, *). fma's a*b is exact in float64 (22 bits), and
// so is a*b + c wherever it could round to a half's midpoint: were the
// float64 sum s a midpoint (a multiple of 2^(e-11) near 2^e) while the
// exact sum s+d is not (0 < |d| < 2^(e-52)), a*b = (s - c) + d would need
// more than 22 significant bits, s - c being a nonzero multiple of
// 2^(e-11) (c a half of exponent e or less) or, for c of a larger
// exponent, the sum has at most 21 significant bits and is exact. NaN
// results are the canonical NaN (9.7.4's NaN rules for .f16:
// fp.F16.NaNResult).
//
// With F16C (half_amd64.go) whole warps take assembly loops that round the
// same way, eight halves an instruction; the Go loops here are the
// portable path and the reference those loops are tested against.

// f16to64 is the half in the low 16 bits of v as a float64 (exact).
func f16to64(v uint64) float64 {
	h := uint32(v) & 0xffff
	sign := uint64(h>>15) << 63
	exp, man := h>>10&0x1f, uint64(h&0x3ff)
	switch {
	case exp == 0x1f: // infinity, NaN (its payload's top bits)
		return math.Float64frombits(sign | 0x7ff0000000000000 | man<<42)
	case exp == 0: // zero, subnormal: man * 2^-24
		x := float64(man) * 0x1p-24
		if sign != 0 {
			x = -x
		}
		return x
	}
	return math.Float64frombits(sign | uint64(exp+1008)<<52 | man<<42)
}

// f64to16 rounds x (not NaN) to the nearest half, ties to even: the
// half's 16 bits.
func f64to16(x float64) uint64 {
	b := math.Float64bits(x)
	sign := b >> 48 & 0x8000
	b &= 1<<63 - 1
	switch {
	case b >= 0x40effe0000000000: // 65520 (the tie of 65504 and 2^16: to even, infinity) and up
		return sign | 0x7c00
	case b >= 0x3f10000000000000: // 2^-14 and up: normal
		m := b + 1<<41 - 1 + b>>42&1 // round to nearest even at bit 42
		return sign | (m-1008<<52)>>42
	case b >= 0x3e60000000000000: // 2^-25 and up: a subnormal (or 2^-14 after rounding)
		e := b >> 52
		m := b&(1<<52-1) | 1<<52
		s := 1051 - e // units of 2^-24: m >> s
		r, rem, half := m>>s, m&(1<<s-1), uint64(1)<<(s-1)
		if rem > half || rem == half && r&1 == 1 {
			r++
		}
		return sign | r
	}
	return sign // below 2^-25 (2^-25 itself a tie to 0)
}

// halfNaN is the NaN result of a half operation.
var halfNaN = fp.F16.NaNResult()

// halfOf is the half nearest the float32 x (a sum, difference or product
// of halves), or the canonical NaN.
func halfOf(x float32) uint64 {
	if x != x {
		return halfNaN
	}
	return f64to16(float64(x))
}

// halfAdd, halfSub and halfMul are add, sub and mul.rn.f16 on the low 16
// bits of a and b, rounded once.
func halfAdd(a, b uint64) uint64 { return halfOf(float32(f16to64(a)) + float32(f16to64(b))) }
func halfSub(a, b uint64) uint64 { return halfOf(float32(f16to64(a)) - float32(f16to64(b))) }
func halfMul(a, b uint64) uint64 { return halfOf(float32(f16to64(a)) * float32(f16to64(b))) }

// halfOp2 returns the half function of add, sub or mul, or nil.
func halfOp2(op string) func(a, b uint64) uint64 {
	switch op {
	case "add":
		return halfAdd
	case "sub":
		return halfSub
	case "mul":
		return halfMul
	}
	return nil
}

// halfFma is fma.rn.f16 on the low 16 bits of a, b and c.
func halfFma(a, b, c uint64) uint64 {
	s := f16to64(a)*f16to64(b) + f16to64(c) // (fused or not: the product is exact)
	if s != s {
		return halfNaN
	}
	return f64to16(s)
}

// halfFloat returns the lane function and warp loops of add, sub, mul or
// fma (mad) on n (1 or 2: .f16x2, the halves at bits 0-15 and 16-31)
// halves, rounded to nearest, or nil.
func halfFloat(op string, n int) (func(a, b, c uint64) uint64, vecBin, func(d, a, b, c *lanes)) {
	if f2 := halfOp2(op); f2 != nil {
		if n == 1 {
			fn := func(a, b, _ uint64) uint64 { return f2(a, b) }
			if k := halfVecKind(op, 1); k != 0 {
				return fn, halfVecBin(k), nil
			}
			return fn, vecBin{rr: halfLoop(op)}, nil
		}
		fn := func(a, b, _ uint64) uint64 { return f2(a, b) | f2(a>>16, b>>16)<<16 }
		if k := halfVecKind(op, 2); k != 0 {
			return fn, halfVecBin(k), nil
		}
		return fn, vecBin{rr: func(d, a, b *lanes) {
			for i := range d {
				d[i] = fn(a[i], b[i], 0)
			}
		}}, nil
	}
	if op != "fma" && op != "mad" {
		return nil, vecBin{}, nil
	}
	fn := halfFma
	if n == 2 {
		fn = func(a, b, c uint64) uint64 { return halfFma(a, b, c) | halfFma(a>>16, b>>16, c>>16)<<16 }
	}
	if loop := halfVecFma(n); loop != nil {
		return fn, vecBin{}, loop
	}
	return fn, vecBin{}, func(d, a, b, c *lanes) {
		for i := range d {
			d[i] = fn(a[i], b[i], c[i])
		}
	}
}

// halfVecBin is the F16C loop of kind (halfVecRun) with its
// constant-operand and masked forms: the constant spread over a warp's
// lanes, and the masked lanes taken from a whole-warp result (arithmetic
// never faults); the rows made for the call stay on the stack.
func halfVecBin(kind uint8) vecBin {
	merge := func(d, t *lanes, mask uint32) {
		for i := range d {
			if mask>>i&1 != 0 {
				d[i] = t[i]
			}
		}
	}
	return vecBin{
		rr: func(d, a, b *lanes) { halfVecRun(kind, d, a, b) },
		rk: func(d, a *lanes, k uint64) {
			var kk lanes
			fillRow(&kk, k)
			halfVecRun(kind, d, a, &kk)
		},
		mrr: func(d, a, b *lanes, mask uint32) {
			var t lanes
			halfVecRun(kind, &t, a, b)
			merge(d, &t, mask)
		},
		mrk: func(d, a *lanes, k uint64, mask uint32) {
			var kk, t lanes
			fillRow(&kk, k)
			halfVecRun(kind, &t, a, &kk)
			merge(d, &t, mask)
		},
	}
}

// halfLoop is the warp loop of add, sub or mul on one half per lane,
// each calling its function directly (inlined: no call per lane).
func halfLoop(op string) func(d, a, b *lanes) {
	switch op {
	case "add":
		return func(d, a, b *lanes) {
			for i := range d {
				d[i] = halfAdd(a[i], b[i])
			}
		}
	case "sub":
		return func(d, a, b *lanes) {
			for i := range d {
				d[i] = halfSub(a[i], b[i])
			}
		}
	}
	return func(d, a, b *lanes) {
		for i := range d {
			d[i] = halfMul(a[i], b[i])
		}
	}
}

// cvtHalfVec returns the warp loop of cvt.rn between .f16 and .f32 or
// .f64 (either way), or nil. Widening is exact; narrowing rounds once (a
// float32's .ftz input flush changes nothing: its subnormals round to a
// zero of their sign in half). NaN lanes take fp.Convert (their payload
// rules).
func cvtHalfVec(df, af fp.Format) func(d, a *lanes) {
	switch {
	case df == fp.F16 && (af == fp.F32 || af == fp.F64):
		width := ^uint64(0)
		if af == fp.F32 {
			width = 0xffffffff
		}
		return func(d, a *lanes) {
			for i, v := range a {
				x := math.Float64frombits(v)
				if af == fp.F32 {
					x = float64(math.Float32frombits(uint32(v)))
				}
				if x != x {
					d[i] = fp.Convert(df, af, v&width, fp.RN)
					continue
				}
				d[i] = f64to16(x)
			}
		}
	case af == fp.F16 && (df == fp.F32 || df == fp.F64):
		return func(d, a *lanes) {
			for i, v := range a {
				x := f16to64(v)
				switch {
				case x != x:
					d[i] = fp.Convert(df, af, v&0xffff, fp.RN)
				case df == fp.F32:
					d[i] = uint64(math.Float32bits(float32(x)))
				default:
					d[i] = math.Float64bits(x)
				}
			}
		}
	}
	return nil
}
