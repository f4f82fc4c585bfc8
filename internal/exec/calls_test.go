package exec

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"testing"
	"time"
)

// TestCallsTakeTurns runs kernels whose lanes wait across a call's
// boundary, which hung while a call's lanes ran until all of them
// returned (calls.go): a spin lock taken in a function and released by
// its caller (call_lock), a lane spinning in a call for a flag a lane
// outside it sets (call_wait), and the same with the waiting call's local
// array and a call the other lane makes meanwhile (call_locals); and two
// that must not change: a barrier in a call (call_bar), and a long call
// beside long work outside it (call_div). Each runs
// on the default schedule, three seeded ones and two workers, under a
// deadline, and its outputs are checked.
func TestCallsTakeTurns(t *testing.T) {
	const threads = 64 // two warps, each with a lane waiting for another
	type check func(t *testing.T, word func(buf, i uint64) uint32, bufs [2]uint64)
	kernels := []struct {
		name  string
		grid  int
		words [2]uint64 // buffer sizes, in 32-bit words
		check check
	}{
		// (each CTA its own outputs after the counter: CTAs on two
		// workers storing to the same words race, which go test -race
		// reports)
		{"call_lock", 2, [2]uint64{1, 1 + 2*threads}, func(t *testing.T, word func(buf, i uint64) uint32, b [2]uint64) {
			if l, n := word(b[0], 0), word(b[1], 0); l != 0 || n != 2*threads {
				t.Errorf("lock %d and counter %d, want 0 and %d", l, n, 2*threads)
			}
			// each lock holder returned from acquire (with 2 tid + 1)
			// while the others still spun in it
			for i := range uint64(2 * threads) {
				if got, want := word(b[1], 1+i), 2*uint32(i%threads)+1; got != want {
					t.Errorf("acquire returned %d to thread %d, want %d", got, i, want)
				}
			}
		}},
		{"call_wait", 1, [2]uint64{2, threads}, func(t *testing.T, word func(buf, i uint64) uint32, b [2]uint64) {
			for i := range uint64(threads) {
				want := uint32(i)
				if i%32 == 0 {
					want = 100 + uint32(i/32) // the flag lane 1 of the warp set
				}
				if got := word(b[1], i); got != want {
					t.Errorf("out[%d] = %d, want %d", i, got, want)
				}
			}
		}},
		{"call_locals", 1, [2]uint64{2, threads}, func(t *testing.T, word func(buf, i uint64) uint32, b [2]uint64) {
			for i := range uint64(threads) {
				want := uint32(i)
				switch i % 32 {
				case 0: // the sum of the 16 words i*7+tid wait_sum stored before waiting
					want = 7*(15*16/2) + 16*uint32(i)
				case 1:
					want = 0xdead
				}
				if got := word(b[1], i); got != want {
					t.Errorf("out[%d] = %d, want %d", i, got, want)
				}
			}
		}},
		// a barrier inside the call, before and after a long loop (the
		// call stays on top with no lane outside it: never set aside)
		// (each CTA its own outputs: CTAs on two workers storing to the
		// same words race, which go test -race reports)
		{"call_bar", 3, [2]uint64{3 * threads, 1}, func(t *testing.T, word func(buf, i uint64) uint32, b [2]uint64) {
			var loop uint32
			for i := range uint32(20000) {
				loop += i
			}
			for i := range uint64(3 * threads) {
				if got, want := word(b[0], i), uint32(i%threads^1)*3+loop; got != want {
					t.Errorf("out[%d] = %d, want %d", i, got, want)
				}
			}
		}},
		// half of each warp in a long call, the other half in a long loop
		// outside it: the call is set aside and comes back, its results
		// reaching the caller's registers either way
		{"call_div", 1, [2]uint64{threads, 1}, func(t *testing.T, word func(buf, i uint64) uint32, b [2]uint64) {
			in, out := uint32(1), uint32(7)
			for range 300000 {
				in = in*1664525 + 1013904223
				out = out*22695477 + 1
			}
			for i := range uint64(threads) {
				want := out
				if i%32 < 16 {
					want = in
				}
				if got := word(b[0], i); got != want {
					t.Errorf("out[%d] = %#x, want %#x", i, got, want)
				}
			}
		}},
	}
	for _, kc := range kernels {
		src, err := os.ReadFile("testdata/" + kc.name + ".ptx")
		if err != nil {
			t.Fatal(err)
		}
		p, g := load(t, string(src))
		for _, run := range []struct {
			seed    uint64
			workers int
		}{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {0, 2}} {
			var bufs [2]uint64
			for i, n := range kc.words {
				bufs[i], _ = g.Alloc(4*n, 0)
			}
			word := func(buf, i uint64) uint32 {
				b, _ := g.Bytes(buf+4*i, 4)
				return binary.LittleEndian.Uint32(b)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			args := []uint64{bufs[0], bufs[1]}[:len(p.Kernels[kc.name].IR.Params)]
			err := p.Launch(ctx, kc.name, LaunchConfig{Grid: [3]int{kc.grid, 1, 1}, Block: [3]int{threads, 1, 1},
				Params: params(p.Kernels[kc.name], args...), Workers: run.workers, ScheduleSeed: run.seed})
			cancel()
			if err != nil {
				t.Fatalf("%s, seed %d, %d workers: %v", kc.name, run.seed, run.workers, err)
			}
			t.Run(fmt.Sprintf("%s/seed%d/workers%d", kc.name, run.seed, run.workers), func(t *testing.T) { kc.check(t, word, bufs) })
			for _, b := range bufs {
				g.Free(b)
			}
		}
	}
}

// TestInCallLanesKeepFrameDiverged: lanes inside a suspended call sit at
// the op after the call, where lanes that returned may stand too; the
// frame must not go converged over all of them (the fast path would run
// the lanes still in the call).
func TestInCallLanesKeepFrameDiverged(t *testing.T) {
	f := &frame{fn: &Func{}, active: ^uint32(0), inCall: 0xfffffffe}
	for l := range warpSize {
		f.pc[l] = 7
	}
	f.enterConv(f.active)
	if f.conv {
		t.Fatal("a frame with lanes in a suspended call went converged")
	}
	if m, pc := f.pick(nil); m != 1 || pc != 7 {
		t.Fatalf("picked %#x at %d, want lane 0 (the only one outside the call) at 7", m, pc)
	}
}
