package exec

import "testing"

// TestStrideNext follows a load op's rows through strideState.next: a
// prefetch needs the same step twice, at least strideMin either way, a row
// of at most maxPrefetchSpan bytes, and the row two steps ahead inside the
// window.
func TestStrideNext(t *testing.T) {
	const base, n = 0x10000, 1 << 20 // the window: [0x10000, 0x110000)
	type step struct {
		a0, span uint64
		off      uint64
		ok       bool
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"forward grid stride", []step{
			{base, 128, 0, false},        // first row: no step yet
			{base + 4096, 128, 0, false}, // a step, not yet repeated
			{base + 8192, 128, 8192 + 2*4096, true},
			{base + 12288, 128, 12288 + 2*4096, true},
			{base + 12288 + 512, 128, 0, false}, // the step changed
			{base + 12288 + 1024, 128, 12288 + 1024 + 1024, true},
		}},
		{"backward", []step{
			{base + 0x8000, 128, 0, false},
			{base + 0x7000, 128, 0, false},
			{base + 0x6000, 128, 0x4000, true},
			{base + 0x2000, 128, 0, false}, // changed
			{base - 0x2000, 128, 0, false}, // repeated, but two steps ahead is before the window
		}},
		{"short steps stay with the CPU", []step{
			{base, 128, 0, false},
			{base + 255, 128, 0, false},
			{base + 510, 128, 0, false},
			{base + 510 - 255, 128, 0, false},
			{base, 128, 0, false},
			{base + 256, 128, 0, false},
			{base + 512, 128, 512 + 512, true}, // 256 is long enough
			{base + 768, 128, 768 + 512, true},
		}},
		{"scattered or reversed lanes", []step{
			{base, 1024, 0, false},
			{base + 4096, 1024, 0, false},
			{base + 8192, 513, 0, false}, // repeated step, row too long
			{base + 12288, 512, 12288 + 8192, true},
			{base + 16384, ^uint64(0) - 100, 0, false}, // lane 31 below lane 0
		}},
		{"end of the window", []step{
			{base + n - 3*4096, 128, 0, false},
			{base + n - 2*4096, 128, 0, false},
			{base + n - 4096, 128, 0, false}, // two steps ahead: past the end
			{base + n - 4096 - 4096 - 128, 128, 0, false},
		}},
		{"the row ahead ends exactly at the window's end", []step{
			{base + n - 128 - 4*1024, 128, 0, false},
			{base + n - 128 - 3*1024, 128, 0, false},
			{base + n - 128 - 2*1024, 128, n - 128, true}, // [n-128, n): inside
			{base + n - 127 - 1024, 127, 0, false},        // the step changed
		}},
	}
	for _, c := range cases {
		var e strideState
		for i, s := range c.steps {
			off, size, ok := e.next(s.a0, s.span, base, n)
			if ok != s.ok || ok && (off != s.off || size != s.span) {
				t.Errorf("%s, row %d (a0 %#x): got off %#x size %d ok %v, want off %#x size %d ok %v",
					c.name, i, s.a0, off, size, ok, s.off, s.span, s.ok)
			}
		}
	}
}
