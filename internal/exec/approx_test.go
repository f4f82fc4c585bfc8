package exec

// The .approx instructions against the error bounds the manual states
// (ptx-isa-9.0.txt 9.7.3.13-22, 9.7.4.9-10), over dense sweeps of their
// inputs. The reference is Go's math package in f64, whose own error
// (under 1 f64 ulp) is far below every bound. `go test -v -run
// TestApproxBounds ./internal/exec` prints the measured maxima.

import (
	"math"
	"testing"

	"github.com/ptxvm/ptxvm/internal/fp"
	"github.com/ptxvm/ptxvm/internal/ir"
)

// approxOp returns the instruction as a function of f64 values and the
// format's rounding of an input (the sweep's points are rounded to the
// format before both the instruction and the reference see them).
type approxFns struct{ op, quantize func(x float64) float64 }

func approxOp(t *testing.T, op string, f fp.Format) approxFns {
	t.Helper()
	in := &ir.Inst{Opcode: op, Mods: []string{".approx"}}
	fn, arity := floatElem(in, f, fp.RN, true)
	if fn == nil || arity != 1 {
		t.Fatalf("%s.approx: no element operation", op)
	}
	return approxFns{
		op:       func(x float64) float64 { return f.ToFloat64(fn(f.FromFloat64(x, fp.RN), 0, 0)) },
		quantize: func(x float64) float64 { return f.ToFloat64(f.FromFloat64(x, fp.RN)) },
	}
}

// ulp32 is the f32 ulp at x's magnitude.
func ulp32(x float64) float64 {
	a := float32(math.Abs(x))
	return float64(math.Nextafter32(a, float32(math.Inf(1))) - a)
}

func TestApproxBounds(t *testing.T) {
	const n = 1 << 18
	sweep := func(lo, hi float64, fn func(x float64)) {
		for i := 0; i <= n; i++ {
			fn(lo + (hi-lo)*float64(i)/n)
		}
	}
	type bound struct {
		name  string
		limit float64
		max   float64
	}
	check := func(b *bound) {
		t.Logf("%-34s max error %.3g (bound %.3g)", b.name, b.max, b.limit)
		if !(b.max <= b.limit) {
			t.Errorf("%s: max error %g exceeds the manual's bound %g", b.name, b.max, b.limit)
		}
	}
	abs := func(name string, limit float64, a approxFns, ref func(float64) float64, lo, hi float64) {
		b := &bound{name: name, limit: limit}
		sweep(lo, hi, func(x float64) {
			x = a.quantize(x)
			b.max = math.Max(b.max, math.Abs(a.op(x)-ref(x)))
		})
		check(b)
	}
	rel := func(name string, limit float64, a approxFns, ref func(float64) float64, lo, hi float64) {
		b := &bound{name: name, limit: limit}
		sweep(lo, hi, func(x float64) {
			x = a.quantize(x)
			if r := ref(x); r != 0 && !math.IsInf(r, 0) {
				b.max = math.Max(b.max, math.Abs(a.op(x)-r)/math.Abs(r))
			}
		})
		check(b)
	}
	ulps := func(name string, limit float64, a approxFns, ref func(float64) float64, lo, hi float64) {
		b := &bound{name: name, limit: limit}
		sweep(lo, hi, func(x float64) {
			x = a.quantize(x)
			if r := ref(x); !math.IsInf(r, 0) && r != 0 {
				b.max = math.Max(b.max, math.Abs(a.op(x)-r)/ulp32(r))
			}
		})
		check(b)
	}
	f32 := fp.F32
	abs("sin.approx.f32 [-2pi, 2pi]", math.Exp2(-20.5), approxOp(t, "sin", f32), math.Sin, -2*math.Pi, 2*math.Pi)
	abs("sin.approx.f32 [-100pi, 100pi]", math.Exp2(-14.7), approxOp(t, "sin", f32), math.Sin, -100*math.Pi, 100*math.Pi)
	abs("cos.approx.f32 [-2pi, 2pi]", math.Exp2(-20.5), approxOp(t, "cos", f32), math.Cos, -2*math.Pi, 2*math.Pi)
	abs("cos.approx.f32 [-100pi, 100pi]", math.Exp2(-14.7), approxOp(t, "cos", f32), math.Cos, -100*math.Pi, 100*math.Pi)
	abs("lg2.approx.f32 (0.5, 2)", math.Exp2(-22), approxOp(t, "lg2", f32), math.Log2, 0.5, 2)
	rel("lg2.approx.f32 [2, 1e30]", math.Exp2(-22), approxOp(t, "lg2", f32), math.Log2, 2, 1e30)
	ulps("ex2.approx.f32 [-126, 127] (ulp)", 2, approxOp(t, "ex2", f32), math.Exp2, -126, 127)
	ulps("rcp.approx.f32 (ulp)", 1, approxOp(t, "rcp", f32), func(x float64) float64 { return 1 / x }, 1e-30, 1e30)
	rel("rsqrt.approx.f32", math.Exp2(-22.9), approxOp(t, "rsqrt", f32), func(x float64) float64 { return 1 / math.Sqrt(x) }, 1e-30, 1e30)
	rel("sqrt.approx.f32", math.Exp2(-23), approxOp(t, "sqrt", f32), math.Sqrt, 1e-30, 1e30)
	rel("tanh.approx.f32", math.Exp2(-11), approxOp(t, "tanh", f32), math.Tanh, -20, 20)
	abs("tanh.approx.f16", math.Exp2(-10.987), approxOp(t, "tanh", fp.F16), math.Tanh, -10, 10)
	abs("tanh.approx.bf16", math.Exp2(-8), approxOp(t, "tanh", fp.BF16), math.Tanh, -10, 10)
	rel("ex2.approx.f16", math.Exp2(-9.9), approxOp(t, "ex2", fp.F16), math.Exp2, -14, 15)
	rel("ex2.approx.bf16", math.Exp2(-7), approxOp(t, "ex2", fp.BF16), math.Exp2, -100, 100)
}
