package exec

import (
	"math/rand/v2"
	"testing"

	"github.com/ptxvm/ptxvm/internal/fp"
)

// TestHalfVecMatchesExact: the F16C warp loops of add, sub, mul and fma.rn
// on .f16 and .f16x2 (half_amd64.s) give fp's exact half arithmetic in
// every lane: on all triples of the special halves, on random halves, on
// fma sums landing next to a half's midpoint, with garbage above the
// halves (.f16's bits 16-63, .f16x2's 32-63: ignored) and results
// zero-extended.
func TestHalfVecMatchesExact(t *testing.T) {
	if halfVecKind("add", 1) == 0 {
		t.Skip("no F16C loops on this build or CPU")
	}
	exact := map[string]func(a, b, c uint64) uint64{
		"add": func(a, b, _ uint64) uint64 { return fp.F16.Add(a, b, fp.RN) },
		"sub": func(a, b, _ uint64) uint64 { return fp.F16.Sub(a, b, fp.RN) },
		"mul": func(a, b, _ uint64) uint64 { return fp.F16.Mul(a, b, fp.RN) },
		"fma": func(a, b, c uint64) uint64 { return fp.F16.Fma(a, b, c, fp.RN) },
	}
	r := rand.New(rand.NewPCG(11, 5))
	// run checks one warp of half triples (n halves a lane) through every op.
	run := func(n int, h [3][]uint64) {
		var a, b, c, d lanes
		for i := range a {
			a[i], b[i], c[i] = r.Uint64(), r.Uint64(), r.Uint64() // garbage above the halves
			for j := range n {
				sh, k := uint(16*j), n*i+j
				for _, p := range []struct {
					l *lanes
					v uint64
				}{{&a, h[0][k]}, {&b, h[1][k]}, {&c, h[2][k]}} {
					p.l[i] = p.l[i]&^(0xffff<<sh) | p.v<<sh
				}
			}
		}
		for op, want := range exact {
			d = lanes{}
			if op == "fma" {
				halfVecFma(n)(&d, &a, &b, &c)
			} else {
				halfVecRun(halfVecKind(op, n), &d, &a, &b)
			}
			for i := range d {
				var w uint64
				for j := range n {
					k := n*i + j
					w |= want(h[0][k], h[1][k], h[2][k]) << (16 * j)
				}
				if d[i] != w {
					t.Fatalf("%s.f16 (x%d) lane %d: a %#x b %#x c %#x: %#x, want %#x", op, n, i, a[i], b[i], c[i], d[i], w)
				}
			}
		}
	}
	for n := 1; n <= 2; n++ {
		var h [3][]uint64
		flush := func() {
			if len(h[0]) == 32*n {
				run(n, h)
				h = [3][]uint64{}
			}
		}
		for _, x := range halfSpecials {
			for _, y := range halfSpecials {
				for _, z := range halfSpecials {
					h[0], h[1], h[2] = append(h[0], x), append(h[1], y), append(h[2], z)
					flush()
				}
			}
		}
		for range 4000 * 32 * n {
			h[0], h[1], h[2] = append(h[0], r.Uint64()&0xffff), append(h[1], r.Uint64()&0xffff), append(h[2], r.Uint64()&0xffff)
			flush()
		}
		// fma: tiny products beside a c next to a midpoint
		tiny := []uint64{0x0001, 0x8001, 0x0003, 0x8003, 0x0101, 0x8101}
		for range 2000 * 32 * n {
			c := r.Uint64()&0x7bff | r.Uint64()&0x8000
			h[0], h[1], h[2] = append(h[0], tiny[r.IntN(len(tiny))]), append(h[1], []uint64{0x0001, 0x8001, 0x0011}[r.IntN(3)]), append(h[2], c)
			flush()
		}
		// products near 1+2^-11 (a tie for halves) with the least subnormal added
		for range 1000 * 32 * n {
			h[0], h[1], h[2] = append(h[0], 0x3d56), append(h[1], 0x3a00), append(h[2], []uint64{0x0001, 0x8001, 0}[r.IntN(3)])
			flush()
		}
		for len(h[0]) > 0 { // pad the last warp
			h[0], h[1], h[2] = append(h[0], 0), append(h[1], 0), append(h[2], 0)
			flush()
		}
	}
}

// TestHalfVecCvt: the F16C loops of cvt.rn.f16.f32 and cvt.rn.f16x2.f32
// (a's half on top) give fp.Convert's halves, on the halves' midpoints and
// limits, subnormals, NaNs with payloads and random bits, with garbage in
// bits 32-63 ignored.
func TestHalfVecCvt(t *testing.T) {
	one, pairKind := halfVecCvt(), halfVecKind("cvtpair", 2)
	pair := func(d, a, b *lanes) { halfVecRun(pairKind, d, a, b) }
	if one == nil || pairKind == 0 {
		t.Skip("no F16C loops on this build or CPU")
	}
	special := []uint64{0x477fe000, 0x477fef00, 0x477ff000, 0x47800000, 0x33800000, 0x33000000, 0x33400000,
		0x32800000, 0x3f801000, 0x3f803000, 0x3f801008, 0x3dcccccd, 0xbdcccccd, 0x387fda40, 0x3300d959,
		0x7f800000, 0xff800000, 0x7fc00001, 0x7f800001, 0xffc12345, 0x00000001, 0x80000000, 0xc77ff000, 0x7f7fffff}
	r := rand.New(rand.NewPCG(2, 9))
	cvt := func(v uint64) uint64 { return fp.Convert(fp.F16, fp.F32, v&0xffffffff, fp.RN) }
	for round := range 3000 {
		var a, b, d, p lanes
		for i := range a {
			a[i], b[i] = r.Uint64(), r.Uint64()
			if round < 40 {
				a[i] = a[i]&^0xffffffff | special[r.IntN(len(special))]
				b[i] = b[i]&^0xffffffff | special[r.IntN(len(special))]
			}
		}
		one(&d, &a)
		pair(&p, &a, &b)
		for i := range a {
			if want := cvt(a[i]); d[i] != want {
				t.Fatalf("cvt.rn.f16.f32 %#x: %#x, want %#x", a[i], d[i], want)
			}
			if want := cvt(a[i])<<16 | cvt(b[i]); p[i] != want {
				t.Fatalf("cvt.rn.f16x2.f32 %#x, %#x: %#x, want %#x", a[i], b[i], p[i], want)
			}
		}
	}
}

// TestHalfVecBinForms: the constant-operand and masked forms of the F16C
// loops (halfVecBin) give the lane function's results in the lanes they
// run and leave the others' destinations alone.
func TestHalfVecBinForms(t *testing.T) {
	if halfVecKind("add", 1) == 0 {
		t.Skip("no F16C loops on this build or CPU")
	}
	r := rand.New(rand.NewPCG(4, 4))
	for _, c := range []struct {
		op string
		n  int
	}{{"add", 1}, {"sub", 1}, {"mul", 2}, {"sub", 2}} {
		fn, _, _ := halfFloat(c.op, c.n)
		v := halfVecBin(halfVecKind(c.op, c.n))
		for range 200 {
			var a, b, d, want lanes
			for i := range a {
				a[i], b[i], d[i] = r.Uint64()&0xffffffff, r.Uint64()&0xffffffff, r.Uint64()
			}
			k, mask := r.Uint64()&0xffffffff, r.Uint32()
			check := func(form string, got *lanes) {
				t.Helper()
				if *got != want {
					t.Fatalf("%s.f16 x%d %s: %x, want %x", c.op, c.n, form, got, want)
				}
			}
			got := d
			v.rk(&got, &a, k)
			for i := range want {
				want[i] = fn(a[i], k, 0)
			}
			check("rk", &got)
			got = d
			v.mrr(&got, &a, &b, mask)
			for i := range want {
				want[i] = d[i]
				if mask>>i&1 != 0 {
					want[i] = fn(a[i], b[i], 0)
				}
			}
			check("mrr", &got)
			got = d
			v.mrk(&got, &a, k, mask)
			for i := range want {
				want[i] = d[i]
				if mask>>i&1 != 0 {
					want[i] = fn(a[i], k, 0)
				}
			}
			check("mrk", &got)
		}
	}
}

// TestHalfWidenExhaustive: cvt.f32.f16's F16C loop gives fp.Convert's
// float32 for every one of the 65536 halves (exact; NaNs the canonical
// NaN), with garbage in bits 16-63 ignored.
func TestHalfWidenExhaustive(t *testing.T) {
	widen := halfVecWiden()
	if widen == nil {
		t.Skip("no F16C loops on this build or CPU")
	}
	r := rand.New(rand.NewPCG(16, 32))
	for h := 0; h < 1<<16; h += warpSize {
		var a, d lanes
		for l := range a {
			a[l] = uint64(h+l) | r.Uint64()<<16
		}
		widen(&d, &a)
		for l := range a {
			if want := fp.Convert(fp.F32, fp.F16, uint64(h+l), fp.RN); d[l] != want {
				t.Fatalf("half %#04x: %#x, want %#x", h+l, d[l], want)
			}
		}
	}
}
