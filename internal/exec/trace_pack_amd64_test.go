//go:build amd64 && !purego

package exec

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestSIMDTracePack runs the trace bodies of mov's pack and unpack
// (pack:W, unpack:W, unpack:Wlo, unpack:Whi) on random rows, with
// destinations apart from the sources, equal to one, and equal to each
// other, and compares every row with the Go row loops' rule (alu.go's pack
// and unpack: elements masked to W bits, unpack's low element written
// before the high one).
func TestSIMDTracePack(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(7, 8))
	const nrows = 4
	row := func(i int) uint64 { return uint64(i) * warpSize * 8 }
	for _, wd := range []uint{32, 16} {
		m := uint64(1)<<wd - 1
		for _, part := range []string{"pack", "unpack", "unpack:lo", "unpack:hi"} {
			key := fmt.Sprintf("pack:%d", wd)
			if part != "pack" {
				key = fmt.Sprintf("unpack:%d%s", wd, part[min(len(part), 7):])
			}
			body, ok := simdMemBody(key)
			if !ok {
				t.Fatalf("no trace body %s", key)
			}
			for round := 0; round < 200; round++ {
				var rows [nrows * warpSize]uint64
				for i := range rows {
					rows[i] = r.Uint64()
					if r.IntN(8) == 0 {
						rows[i] = []uint64{0, ^uint64(0), 1 << 63, 0xffffffff, 0x8000, 0xffff8000}[r.IntN(6)]
					}
				}
				d, a, b := r.IntN(nrows), r.IntN(nrows), r.IntN(nrows)
				want := rows
				for i := 0; i < warpSize; i++ {
					v, u := rows[a*warpSize+i], rows[b*warpSize+i]
					switch part {
					case "pack":
						want[d*warpSize+i] = v&m | (u&m)<<wd
					case "unpack":
						want[d*warpSize+i] = v & m
						want[b*warpSize+i] = v >> wd & m
					case "unpack:lo":
						want[d*warpSize+i] = v & m
					default:
						want[d*warpSize+i] = v >> wd & m
					}
				}
				ops := []traceOp{{body: body, d: row(d), a: row(a), b: row(b)}}
				if n := simdTrace(unsafe.Pointer(&rows[0]), &ops[0], 1, &traceCtx{}); n != 1 {
					t.Fatalf("%s: %d ops ran", key, n)
				}
				if rows != want {
					t.Fatalf("%s round %d (d %d a %d b %d): rows differ\ngot  %x\nwant %x", key, round, d, a, b, rows, want)
				}
			}
		}
	}
}
