package exec

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ptxvm/ptxvm/internal/fp"
)

// halfSpecials are halves where rounding, overflow and NaN rules meet:
// zeros, the least subnormal and normal, one and the values next to it,
// the largest finite, infinities, NaNs.
var halfSpecials = []uint64{0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x83ff, 0x3c00, 0x3c01, 0x3bff,
	0xbc00, 0x7bff, 0xfbff, 0x7bfe, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x1400, 0x0200, 0x5bff, 0x6800}

// TestHalfConversions: every half converts to float64 and back
// unchanged, and float64 values around every half's rounding midpoint,
// the subnormals' and overflow's edges round as fp (exact) rounds them.
func TestHalfConversions(t *testing.T) {
	for h := uint64(0); h < 1<<16; h++ {
		x := f16to64(h)
		if want := math.Float64bits(fp.F16.ToFloat64(h)); math.Float64bits(x) != want && x == x {
			t.Fatalf("half %#04x: %v, want %v", h, x, math.Float64frombits(want))
		}
		if x != x {
			continue
		}
		if got := f64to16(x); got != h {
			t.Fatalf("half %#04x: back %#04x", h, got)
		}
		// the midpoint to the next half, and just either side of it
		next := f16to64(h + 1)
		if h&0x7fff >= 0x7bff || next != next {
			continue
		}
		mid := x + (next-x)/2
		for _, v := range []float64{mid, math.Nextafter(mid, math.Inf(1)), math.Nextafter(mid, math.Inf(-1))} {
			want := fp.F16.FromFloat64(v, fp.RN)
			if got := f64to16(v); got != want {
				t.Fatalf("%v (between halves %#04x and %#04x): %#04x, want %#04x", v, h, h+1, got, want)
			}
		}
	}
	for _, v := range []float64{65519.99, 65520, 65536, 1e9, math.Inf(1), 0x1p-25, math.Nextafter(0x1p-25, 1), 0x1p-26, 3 * 0x1p-26, 5e-324} {
		for _, s := range []float64{1, -1} {
			if got, want := f64to16(s*v), fp.F16.FromFloat64(s*v, fp.RN); got != want {
				t.Fatalf("%v: %#04x, want %#04x", s*v, got, want)
			}
		}
	}
}

// TestHalfArithmetic: add, sub, mul and fma on the host's floats against
// fp's exact half arithmetic, on the special halves in every combination
// and on random ones, and fma on products and addends chosen to land on a
// half's rounding midpoint only after rounding to float64.
func TestHalfArithmetic(t *testing.T) {
	add, sub, mul := halfOp2("add"), halfOp2("sub"), halfOp2("mul")
	check := func(a, b, c uint64) {
		for _, op := range []struct {
			name      string
			got, want uint64
		}{
			{"add", add(a, b), fp.F16.Add(a, b, fp.RN)},
			{"sub", sub(a, b), fp.F16.Sub(a, b, fp.RN)},
			{"mul", mul(a, b), fp.F16.Mul(a, b, fp.RN)},
			{"fma", halfFma(a, b, c), fp.F16.Fma(a, b, c, fp.RN)},
		} {
			if op.got != op.want {
				t.Fatalf("%s(%#04x, %#04x, %#04x) = %#04x, want %#04x", op.name, a, b, c, op.got, op.want)
			}
		}
	}
	for _, a := range halfSpecials {
		for _, b := range halfSpecials {
			for _, c := range halfSpecials {
				check(a, b, c)
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 7))
	for range 200000 {
		check(r.Uint64()&0xffff, r.Uint64()&0xffff, r.Uint64()&0xffff)
	}
	// fma whose float64 sum rounds onto a midpoint: c a half next to a
	// midpoint m, a*b a tiny product whose exact sum sits just off m
	tiny := []uint64{0x0001, 0x8001, 0x0003, 0x8003, 0x0101, 0x8101}
	for range 20000 {
		c := r.Uint64() & 0x7bff
		c |= r.Uint64() & 0x8000
		for _, a := range tiny {
			for _, b := range []uint64{0x0001, 0x8001, 0x0011} {
				check(a, b, c)
			}
		}
	}
	// and on large sums near a midpoint: c's neighbours
	for range 20000 {
		a, b := r.Uint64()&0x3fff, r.Uint64()&0xffff
		check(a, b, r.Uint64()&0xffff)
	}
}

// TestHalfPacked: .f16x2 runs the half function on both halves.
func TestHalfPacked(t *testing.T) {
	fn, _, _ := halfFloat("add", 2)
	a, b := uint64(0x3c00<<16|0x4000), uint64(0xbc00<<16|0x3c00) // (1, 2) + (-1, 1)
	if got := fn(a, b, 0); got != 0x0000<<16|0x4200 {
		t.Fatalf("add.f16x2: %#08x, want %#08x", got, 0x4200)
	}
	fma, _, _ := halfFloat("fma", 2)
	if got := fma(0x4000<<16|0x4000, 0x4200<<16|0x3c00, 0x3c00<<16|0xbc00); got != 0x4700<<16|0x3c00 { // (2*3+1, 2*1-1)
		t.Fatalf("fma.f16x2: %#08x", got)
	}
}

// TestCvtHalfVecMatchesLanes: cvt.rn.f16.f32/.f64 and cvt.f32/.f64.f16
// warp loops give what the per-lane conversions (fp.Convert) give, whole
// and masked, on halves' midpoints and limits, subnormals, NaNs with
// payloads, infinities and hashed bits.
func TestCvtHalfVecMatchesLanes(t *testing.T) {
	special := []string{"0x477fe000", "0x477fef00", "0x477ff000", "0x47800000", "0x33800000", "0x33000000",
		"0x33400000", "0x32800000", "0x3f801000", "0x3f803000", "0x3f801008", "0x3dcccccd", "0xbdcccccd",
		"0x387fda40", "0x3300d959", "0x7f800000", "0xff800000", "0x7fc00001", "0x7f800001", "0xffc12345",
		"0x00000001", "0x80000000", "0xc77ff000", "0x7f7fffff"}
	ops := []string{"cvt.rn.f16.f32 %g?, %x", "cvt.rn.ftz.f16.f32 %g?, %x", "cvt.rn.f16.f64 %g?, %w",
		"cvt.f32.f16 %d?, %h", "cvt.ftz.f32.f16 %d?, %h", "cvt.f64.f16 %e?, %h"}
	for _, op := range ops {
		unaryMatchesLanes(t, special, op)
	}
}
