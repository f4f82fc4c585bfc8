package exec

import "testing"

// TestEvenChunks: the chunk sizes the workers take leave none of them a
// whole chunk more than the others where the grid allows it, and never
// make the busiest worker's share larger.
func TestEvenChunks(t *testing.T) {
	for _, c := range []struct{ n, chunk, workers, want int }{
		{160, 32, 2, 27}, // 6 chunks: 81 and 79 CTAs
		{96, 32, 2, 24},  // 4 chunks of 24
		{128, 32, 2, 32}, // 4 chunks already
		{5, 1, 2, 1},     // one CTA a chunk: 3 and 2 is as even as it gets
		{1, 1, 4, 1},
		{1000, 64, 1, 64},
		{100, 10, 3, 9}, // 10 chunks -> 12 of 9 (the last 1)
	} {
		if got := evenChunks(c.n, c.chunk, c.workers); got != c.want {
			t.Errorf("evenChunks(%d, %d, %d) = %d, want %d", c.n, c.chunk, c.workers, got, c.want)
		}
	}
	// the busiest worker, when the chunks take equally long, runs
	// ceil(chunks/workers) of them (the last one may be short)
	busiest := func(n, chunk, workers int) int {
		c := (n + chunk - 1) / chunk
		return min(n, (c+workers-1)/workers*chunk)
	}
	for n := 1; n <= 600; n++ {
		for chunk := 1; chunk <= 70; chunk++ {
			for workers := 1; workers <= 4; workers++ {
				got := evenChunks(n, chunk, workers)
				if got < 1 || got > chunk {
					t.Fatalf("evenChunks(%d, %d, %d) = %d", n, chunk, workers, got)
				}
				if b0, b1 := busiest(n, chunk, workers), busiest(n, got, workers); b1 > b0 {
					t.Fatalf("evenChunks(%d, %d, %d) = %d: the busiest worker runs %d CTAs, %d before", n, chunk, workers, got, b1, b0)
				}
			}
		}
	}
}
