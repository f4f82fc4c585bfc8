//go:build amd64 && !purego

package exec

import (
	"os"
	"testing"
)

// TestApproxExhaustive runs every f32 bit pattern through the AVX2 loops
// of ex2, sin, cos and lg2 .approx.f32 (with and without .ftz) and the Go loops
// they repeat operation for operation (approx_math.go), and requires the
// same bits everywhere. About two minutes per loop, so only on request:
// PTXVM_EXHAUSTIVE=1 go test -run TestApproxExhaustive ./internal/exec
// (-run 'TestApproxExhaustive/sin.approx.f32$' for one).
func TestApproxExhaustive(t *testing.T) {
	if os.Getenv("PTXVM_EXHAUSTIVE") == "" {
		t.Skip("set PTXVM_EXHAUSTIVE=1 to run (minutes)")
	}
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	type pair struct{ got, want func(d, a *lanes) }
	loops := map[string]pair{}
	var keys []string
	for _, op := range []string{"ex2", "sin", "cos", "lg2"} {
		for _, ftz := range []bool{false, true} {
			key := op + ".approx.f32"
			if ftz {
				key = op + ".approx.ftz.f32"
			}
			var p pair
			p.got = simdUnary(key)
			withoutSIMD(t, func() { p.want = approxVecF32(op, ftz) }) // (before any subtest runs)
			loops[key] = p
			keys = append(keys, key)
		}
	}
	for _, key := range keys {
		p := loops[key]
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			var a, d, w lanes
			bad := 0
			for hi := uint64(0); hi < 1<<32; hi += warpSize {
				for i := range a {
					a[i] = hi + uint64(i)
				}
				p.got(&d, &a)
				p.want(&w, &a)
				if d != w {
					for i := range d {
						if d[i] != w[i] && bad < 5 {
							t.Errorf("%#08x: AVX2 %#08x, Go %#08x", a[i], d[i], w[i])
							bad++
						}
					}
				}
			}
		})
	}
}
