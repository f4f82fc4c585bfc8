package exec

// f32 and f64 add/sub/mul/div in round to nearest without modifiers: the
// per-lane functions and whole-warp loops behind the fast path of
// float.go. Go's float32 and float64 operations are IEEE 754 binary32 and
// binary64 with round to nearest even, exactly these instructions; only
// NaN results are replaced by the GPU's (canonical for f32, the first NaN
// operand quieted for f64: internal/fp's NaNResult).

import (
	"math"
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/fp"
)

// floatPair returns the per-lane function and the warp loops of op, or nil
// and a zero vecBin.
func floatPair(op string, f fp.Format) (func(a, b uint64) uint64, vecBin) {
	var fn func(a, b uint64) uint64
	switch {
	case f == fp.F32 && op == "add":
		fn = f32Add
	case f == fp.F32 && op == "sub":
		fn = f32Sub
	case f == fp.F32 && op == "mul":
		fn = f32Mul
	case f == fp.F32 && op == "div":
		fn = f32Div
	case f == fp.F64 && op == "add":
		fn = f64Add
	case f == fp.F64 && op == "sub":
		fn = f64Sub
	case f == fp.F64 && op == "mul":
		fn = f64Mul
	case f == fp.F64 && op == "div":
		fn = f64Div
	default:
		return nil, vecBin{}
	}
	if f == fp.F64 {
		if v, ok := simdBinary(op + ".f64"); ok {
			return fn, v
		}
		return fn, f64Loops(op)
	}
	if v, ok := simdBinary(op + ".f32"); ok {
		return fn, v
	}
	rr, rk := f32ViewLoops(op)
	mrr, mrk := f32ViewMasked(op)
	if rr == nil { // a big-endian host: the lane function, lane by lane
		return fn, vecBin{rr: func(d, a, b *lanes) {
			for i := range d {
				d[i] = fn(a[i], b[i])
			}
		}}
	}
	return fn, vecBin{rr, rk, mrr, mrk}
}

// f64Loops returns the warp loops of an f64 add, sub, mul or div written
// with the lane functions above (which inline into them).
func f64Loops(op string) vecBin {
	switch {
	case op == "add":
		return vecBin{
			func(d, a, b *lanes) {
				for i := range d {
					d[i] = f64Add(a[i], b[i])
				}
			},
			func(d, a *lanes, k uint64) {
				for i := range d {
					d[i] = f64Add(a[i], k)
				}
			},
			func(d, a, b *lanes, mask uint32) {
				for m := mask; m != 0; m &= m - 1 {
					i := bits.TrailingZeros32(m)
					d[i] = f64Add(a[i], b[i])
				}
			},
			func(d, a *lanes, k uint64, mask uint32) {
				for m := mask; m != 0; m &= m - 1 {
					i := bits.TrailingZeros32(m)
					d[i] = f64Add(a[i], k)
				}
			}}
	case op == "sub":
		return vecBin{
			func(d, a, b *lanes) {
				for i := range d {
					d[i] = f64Sub(a[i], b[i])
				}
			},
			func(d, a *lanes, k uint64) {
				for i := range d {
					d[i] = f64Sub(a[i], k)
				}
			},
			func(d, a, b *lanes, mask uint32) {
				for m := mask; m != 0; m &= m - 1 {
					i := bits.TrailingZeros32(m)
					d[i] = f64Sub(a[i], b[i])
				}
			},
			func(d, a *lanes, k uint64, mask uint32) {
				for m := mask; m != 0; m &= m - 1 {
					i := bits.TrailingZeros32(m)
					d[i] = f64Sub(a[i], k)
				}
			}}
	case op == "mul":
		return vecBin{
			func(d, a, b *lanes) {
				for i := range d {
					d[i] = f64Mul(a[i], b[i])
				}
			},
			func(d, a *lanes, k uint64) {
				for i := range d {
					d[i] = f64Mul(a[i], k)
				}
			},
			func(d, a, b *lanes, mask uint32) {
				for m := mask; m != 0; m &= m - 1 {
					i := bits.TrailingZeros32(m)
					d[i] = f64Mul(a[i], b[i])
				}
			},
			func(d, a *lanes, k uint64, mask uint32) {
				for m := mask; m != 0; m &= m - 1 {
					i := bits.TrailingZeros32(m)
					d[i] = f64Mul(a[i], k)
				}
			}}
	}
	return vecBin{
		func(d, a, b *lanes) {
			for i := range d {
				d[i] = f64Div(a[i], b[i])
			}
		},
		func(d, a *lanes, k uint64) {
			for i := range d {
				d[i] = f64Div(a[i], k)
			}
		},
		func(d, a, b *lanes, mask uint32) {
			for m := mask; m != 0; m &= m - 1 {
				i := bits.TrailingZeros32(m)
				d[i] = f64Div(a[i], b[i])
			}
		},
		func(d, a *lanes, k uint64, mask uint32) {
			for m := mask; m != 0; m &= m - 1 {
				i := bits.TrailingZeros32(m)
				d[i] = f64Div(a[i], k)
			}
		}}
}

func nan32(r uint32) uint64 {
	if r&0x7fffffff > 0x7f800000 {
		return 0x7fffffff
	}
	return uint64(r)
}

func f32of(v uint64) float32 { return math.Float32frombits(uint32(v)) }

func f32Add(a, b uint64) uint64 { return nan32(math.Float32bits(f32of(a) + f32of(b))) }
func f32Sub(a, b uint64) uint64 { return nan32(math.Float32bits(f32of(a) - f32of(b))) }
func f32Mul(a, b uint64) uint64 { return nan32(math.Float32bits(f32of(a) * f32of(b))) }
func f32Div(a, b uint64) uint64 { return nan32(math.Float32bits(f32of(a) / f32of(b))) }

func nan64(r, a, b uint64) uint64 {
	if r&^(1<<63) > 0x7ff0000000000000 {
		return fp.F64.NaNResult(a, b)
	}
	return r
}

func f64Add(a, b uint64) uint64 { return nan64(math.Float64bits(f64(a)+f64(b)), a, b) }
func f64Sub(a, b uint64) uint64 { return nan64(math.Float64bits(f64(a)-f64(b)), a, b) }
func f64Mul(a, b uint64) uint64 { return nan64(math.Float64bits(f64(a)*f64(b)), a, b) }
func f64Div(a, b uint64) uint64 { return nan64(math.Float64bits(f64(a)/f64(b)), a, b) }

// f32Fma is fma.rn.f32 on register bits, with the GPU's NaN result.
func f32Fma(a, b, c uint64) uint64 {
	r := math.Float32bits(fp.FmaF32(f32of(a), f32of(b), f32of(c)))
	if r&0x7fffffff > 0x7f800000 {
		return fp.F32.NaNResult(a&0xffffffff, b&0xffffffff, c&0xffffffff)
	}
	return uint64(r)
}

// fmaVec returns the warp loop of fma.rn (and mad.rn) on f32 or f64, or nil.
func fmaVec(op string, f fp.Format) func(d, a, b, c *lanes) {
	if op != "fma" && op != "mad" {
		return nil
	}
	switch f {
	case fp.F32:
		if v := simdTernary("fma.f32"); v != nil {
			return v
		}
		if hostLittleEndian {
			return f32FmaView
		}
		return func(d, a, b, c *lanes) {
			for i := range d {
				d[i] = f32Fma(a[i], b[i], c[i])
			}
		}
	case fp.F64:
		if v := simdTernary("fma.f64"); v != nil {
			return v
		}
		return func(d, a, b, c *lanes) {
			for i := range d {
				d[i] = fix64(of64(math.FMA(f64(a[i]), f64(b[i]), f64(c[i]))), a[i], b[i], c[i])
			}
		}
	}
	return nil
}

// floatKeys widens the lanes of an f32 or f64 register to float64 (exact).
func floatKeys(f fp.Format, d *[warpSize]float64, a *lanes) {
	if f == fp.F32 && hostLittleEndian { // the in-place float32 view (float_view.go)
		af := f32Row(a)
		for i := range d {
			d[i] = float64(af[2*i])
		}
		return
	}
	if f == fp.F32 {
		for i := range d {
			d[i] = float64(f32of(a[i]))
		}
		return
	}
	for i := range d {
		d[i] = math.Float64frombits(a[i])
	}
}

// vecFloatCompare returns a whole-warp setp comparison for f32/f64
// (9.7.6.2: ordered operators are false and unordered ones true when an
// operand is NaN; .ftz flushes subnormal f32 operands first), or nil.
func vecFloatCompare(t, cmp string, ftz bool) func(a, b *lanes) uint32 {
	var f fp.Format
	switch {
	case t == ".f64":
		if v := simdCompare("f64" + cmp); v != nil {
			return v
		}
		f = fp.F64
	case t == ".f32" && !ftz:
		if v := simdCompare("f32" + cmp); v != nil {
			return v
		}
		f = fp.F32
	case t == ".f32": // .ftz: the comparison of the flushed operands
		if v := simdCompare("f32ftz" + cmp); v != nil {
			return v
		}
		plain := vecFloatCompare(t, cmp, false)
		if plain == nil {
			return nil
		}
		return func(a, b *lanes) uint32 {
			var x, y lanes
			for i := range a {
				x[i], y[i] = fp.F32.FlushSubnormal(a[i]&0xffffffff), fp.F32.FlushSubnormal(b[i]&0xffffffff)
			}
			return plain(&x, &y)
		}
	default:
		return nil
	}
	var test func(x, y *[warpSize]float64) uint32
	switch cmp {
	case ".lt":
		test = fltLt
	case ".ge":
		test = func(x, y *[warpSize]float64) uint32 { return fltLt(y, x) | fltEq(x, y) }
	case ".gt":
		test = func(x, y *[warpSize]float64) uint32 { return fltLt(y, x) }
	case ".le":
		test = func(x, y *[warpSize]float64) uint32 { return fltLt(x, y) | fltEq(x, y) }
	case ".eq":
		test = fltEq
	case ".ne":
		test = func(x, y *[warpSize]float64) uint32 { return fltLt(x, y) | fltLt(y, x) }
	case ".ltu": // not (x >= y)
		test = func(x, y *[warpSize]float64) uint32 { return ^(fltLt(y, x) | fltEq(x, y)) }
	case ".geu":
		test = func(x, y *[warpSize]float64) uint32 { return ^fltLt(x, y) }
	case ".gtu":
		test = func(x, y *[warpSize]float64) uint32 { return ^(fltLt(x, y) | fltEq(x, y)) }
	case ".leu":
		test = func(x, y *[warpSize]float64) uint32 { return ^fltLt(y, x) }
	case ".equ":
		test = func(x, y *[warpSize]float64) uint32 { return ^(fltLt(x, y) | fltLt(y, x)) }
	case ".neu":
		test = func(x, y *[warpSize]float64) uint32 { return ^fltEq(x, y) }
	case ".num":
		test = func(x, y *[warpSize]float64) uint32 { return fltEq(x, x) & fltEq(y, y) }
	case ".nan":
		test = func(x, y *[warpSize]float64) uint32 { return ^(fltEq(x, x) & fltEq(y, y)) }
	default:
		return nil
	}
	return func(a, b *lanes) uint32 {
		var x, y [warpSize]float64
		floatKeys(f, &x, a)
		floatKeys(f, &y, b)
		return test(&x, &y)
	}
}

// fltLt and fltEq are IEEE comparisons: false when either side is NaN.
func fltLt(x, y *[warpSize]float64) uint32 {
	var r uint32
	for i := range x {
		if x[i] < y[i] {
			r |= 1 << i
		}
	}
	return r
}

func fltEq(x, y *[warpSize]float64) uint32 {
	var r uint32
	for i := range x {
		if x[i] == y[i] {
			r |= 1 << i
		}
	}
	return r
}

// approxVecF32 returns the warp loop of an f32 .approx unary op, or nil:
// the result computed in f64 and rounded to the nearest f32, NaN results
// the canonical NaN, and with .ftz subnormal inputs and results flushed to
// zero — what approxFn and floatMods do per lane, written out so that no
// lane calls a function.
func approxVecF32(op string, ftz bool) func(d, a *lanes) {
	key := op + ".approx.f32"
	if ftz {
		key = op + ".approx.ftz.f32"
	}
	if v := simdUnary(key); v != nil {
		return v
	}
	in := func(v uint64) float64 {
		if ftz && v&0x7f800000 == 0 {
			v &= 0x80000000
		}
		return float64(f32of(v))
	}
	out := func(r float64) uint64 {
		if r != r {
			return 0x7fffffff
		}
		b := math.Float32bits(float32(r))
		if ftz && b&0x7f800000 == 0 {
			b &= 0x80000000
		}
		return uint64(b)
	}
	switch op {
	case "rsqrt":
		return func(d, a *lanes) {
			for i := range d {
				d[i] = out(1 / math.Sqrt(in(a[i])))
			}
		}
	case "rcp":
		return func(d, a *lanes) {
			for i := range d {
				d[i] = out(1 / in(a[i]))
			}
		}
	case "sqrt":
		return func(d, a *lanes) {
			for i := range d {
				d[i] = out(math.Sqrt(in(a[i])))
			}
		}
	}
	// the transcendental ones (floatElem's functions)
	fn := map[string]func(float64) float64{"ex2": exp2Approx, "lg2": log2Approx, "sin": sinApprox,
		"cos": cosApprox, "tanh": math.Tanh}[op]
	if fn == nil {
		return nil
	}
	return func(d, a *lanes) {
		for i := range d {
			d[i] = out(fn(in(a[i])))
		}
	}
}

// negAbsVec returns the warp loop of neg or abs on f32 (with or without
// .ftz, which flushes a subnormal input to a zero of its sign first) or
// f64, or nil: the sign bit flipped or cleared, NaNs included (fp.Neg,
// fp.Abs), f32 results zero-extended.
func negAbsVec(op string, f fp.Format, ftz bool) func(d, a *lanes) {
	if f != fp.F32 && (f != fp.F64 || ftz) {
		return nil
	}
	key := op + "." + f.String()
	if ftz {
		key = op + ".ftz." + f.String()
	}
	if v := simdUnary(key); v != nil {
		return v
	}
	sign, width := uint64(1)<<63, ^uint64(0)
	if f == fp.F32 {
		sign, width = 1<<31, 0xffffffff
	}
	abs := op == "abs"
	return func(d, a *lanes) {
		for i, v := range a {
			v &= width
			if ftz && v&0x7f800000 == 0 {
				v &= 0x80000000
			}
			if abs {
				d[i] = v &^ sign
			} else {
				d[i] = v ^ sign
			}
		}
	}
}
