package bench

import (
	"testing"
	"time"
)

// TestGoals judges made-up figures: the worst kernel of each goal decides,
// and goals without figures are not measured.
func TestGoals(t *testing.T) {
	rs := []*Result{
		{Name: "a", Class: "alu-int", Workers: 1, Wall: time.Second, ThreadInstructions: 2e9, Native: 100 * time.Millisecond,
			ScaleWorkers: 2, Scaling: 1.9},
		{Name: "b", Class: "alu-float", Workers: 1, Wall: time.Second, ThreadInstructions: 1e9, Native: 20 * time.Millisecond,
			ScaleWorkers: 2, Scaling: 1.95},
		{Name: "h", Class: "atomics", Workers: 1, Wall: time.Second, ScaleWorkers: 2, Scaling: 1.0},
		{Name: "t", Class: "launch", Workers: 1, Wall: 10 * time.Microsecond},
	}
	loads := []LoadResult{{Path: "small.ptx", Bytes: 1000, Median: time.Millisecond}, {Path: "big.ptx", Bytes: 20480, Median: time.Millisecond}}
	got := map[string]Goal{}
	for _, g := range Goals(rs, 0, loads) {
		got[g.Name] = g
	}
	for name, want := range map[string]struct{ measured, pass bool }{
		"ALU >= 1.5 G thread-inst/s/core": {true, false}, // b: 1 G/s
		"ALU <= 25x native":               {true, false}, // b: 50x
		"memory >= 30% of host memcpy":    {false, false},
		"2 workers >= 1.8x of 1":          {true, true}, // the histogram does not count
		"trivial launch < 50 us":          {true, true},
		"compile < 1 ms per 10 KB":        {true, true}, // 0.5 ms per 10 KB; small.ptx does not count
	} {
		g, ok := got[name]
		if !ok || g.Measured != want.measured || g.Pass != want.pass {
			t.Errorf("%s: %+v, want measured %v pass %v", name, g, want.measured, want.pass)
		}
	}
}
