package fp

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The 8-, 6- and 4-bit formats of 5.2.3, decoded by the manual's words:
// value = (-1)^s * 2^(e-bias) * 1.m for e > 0, 2^(1-bias) * 0.m for e = 0;
// e4m3 has no infinities and its only NaNs are 0x7f and 0xff; e5m2 is IEEE
// style; e2m3, e3m2 and e2m1 have neither.
func refDecode(f Format, v uint64) (x float64, nan bool) {
	s := v >> uint(f.Exp+f.Man) & 1
	e := int(v >> uint(f.Man) & (1<<uint(f.Exp) - 1))
	m := float64(v & (1<<uint(f.Man) - 1))
	bias := 1<<uint(f.Exp-1) - 1
	top := 1<<uint(f.Exp) - 1
	switch {
	case f == E4M3 && v&0x7f == 0x7f:
		return 0, true
	case f == E5M2 && e == top:
		if m != 0 {
			return 0, true
		}
		x = math.Inf(1)
	case e == 0:
		x = math.Ldexp(m, 1-bias-f.Man)
	default:
		x = math.Ldexp(1+m/float64(uint(1)<<uint(f.Man)), e-bias)
	}
	if s == 1 {
		x = -x
	}
	return x, false
}

var narrowFormats = []Format{E4M3, E5M2, E2M3, E3M2, E2M1}

// TestNarrowMaxNorm checks the largest finite values the formats are
// known by (OCP 8-bit and MX formats as PTX adopts them).
func TestNarrowMaxNorm(t *testing.T) {
	for _, c := range []struct {
		f    Format
		bits uint64
		want float64
	}{{E4M3, 0x7e, 448}, {E5M2, 0x7b, 57344}, {E2M3, 0x1f, 7.5}, {E3M2, 0x1f, 28}, {E2M1, 0x7, 6}} {
		if got := c.f.MaxFinite(false); got != c.bits {
			t.Errorf("%v MaxFinite = %#x, want %#x", c.f, got, c.bits)
		}
		if x, _ := refDecode(c.f, c.bits); x != c.want {
			t.Errorf("%v %#x decodes to %v, want %v", c.f, c.bits, x, c.want)
		}
	}
}

// TestNarrowWidenExhaustive widens every value of every narrow format to
// f16 and f32 (exact: both have more range and precision).
func TestNarrowWidenExhaustive(t *testing.T) {
	for _, f := range narrowFormats {
		for v := range uint64(1) << uint(f.Width()) {
			want, nan := refDecode(f, v)
			for _, dst := range []Format{F16, F32, BF16} {
				got := Convert(dst, f, v, RN)
				if nan {
					if !dst.IsNaN(got) {
						t.Fatalf("%v %#x -> %v = %#x, want NaN", f, v, dst, got)
					}
					continue
				}
				if x := dst.ToFloat64(got); x != want || math.Signbit(x) != math.Signbit(want) {
					t.Fatalf("%v %#x -> %v = %#x (%v), want %v", f, v, dst, got, x, want)
				}
			}
		}
	}
}

// refNearest rounds x to the nearest finite value of f by searching every
// encoding (ties to the even encoding), with .satfinite: beyond the
// largest finite magnitude, that magnitude.
func refNearest(f Format, x float64) uint64 {
	bx := new(big.Float).SetPrec(400).SetFloat64(x)
	best, bestD := uint64(0), (*big.Float)(nil)
	for v := range uint64(1) << uint(f.Width()) {
		y, nan := refDecode(f, v)
		if nan || math.IsInf(y, 0) || math.Signbit(y) != math.Signbit(x) {
			continue
		}
		d := new(big.Float).SetPrec(400).Sub(bx, new(big.Float).SetFloat64(y))
		d.Abs(d)
		if bestD == nil || d.Cmp(bestD) < 0 || d.Cmp(bestD) == 0 && v&1 == 0 {
			best, bestD = v, d
		}
	}
	return best
}

func TestNarrowFromF32SatFinite(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, f := range narrowFormats {
		var xs []float64
		for v := range uint64(1) << uint(f.Width()) { // every value and every midpoint
			x, nan := refDecode(f, v)
			if nan || math.IsInf(x, 0) {
				continue
			}
			xs = append(xs, x)
			if n, nan2 := refDecode(f, v+1); !nan2 && !math.IsInf(n, 0) && v+1 < uint64(1)<<uint(f.Width()) && math.Signbit(n) == math.Signbit(x) {
				xs = append(xs, (x+n)/2, x+(n-x)/4)
			}
		}
		for range 3000 {
			xs = append(xs, math.Ldexp(r.Float64()*2-1, r.IntN(24)-14))
		}
		xs = append(xs, math.Inf(1), math.Inf(-1), 1e30, -1e30, 1e-30, -1e-30)
		for _, x := range xs {
			v := uint64(math.Float32bits(float32(x)))
			x = float64(float32(x))
			got := ConvertSatFinite(f, F32, v, RN)
			var want uint64
			if math.IsInf(x, 0) {
				want = f.MaxFinite(x < 0)
			} else {
				want = refNearest(f, x)
			}
			if got != want {
				t.Fatalf("%v.satfinite(%g = %#x) = %#x, want %#x", f, x, v, got, want)
			}
		}
		nan := ConvertSatFinite(f, F32, 0x7fc00000, RN)
		if f.HasNaN() && !f.IsNaN(nan) || !f.HasNaN() && nan != f.MaxFinite(false) {
			t.Errorf("%v.satfinite(NaN) = %#x", f, nan)
		}
	}
}
