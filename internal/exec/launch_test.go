package exec

import (
	"sync"
	"sync/atomic"
	"testing"
)

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

// TestChunkerGuided: guided chunks start at a 1/(2 x workers) share of the
// grid, shrink to the floor, never below it but for the last, and cover
// every cluster once, also when workers race for them; fixed chunks are
// the chunk size.
func TestChunkerGuided(t *testing.T) {
	c := &chunker{n: 16384, chunk: 64, workers: 2, guided: true}
	var sizes []int
	for next := 0; ; {
		s, e := c.take()
		if s >= c.n {
			break
		}
		if s != next || e <= s {
			t.Fatalf("chunk [%d, %d) after %d", s, e, next)
		}
		sizes, next = append(sizes, e-s), e
	}
	if sizes[0] != 4096 || sizes[1] != 3072 {
		t.Fatalf("first chunks %v, want 4096, 3072", sizes[:2])
	}
	for i := 1; i < len(sizes); i++ {
		if sizes[i] > sizes[i-1] || sizes[i] < 64 && i != len(sizes)-1 {
			t.Fatalf("chunk %d of %v", i, sizes)
		}
	}
	if sizes[len(sizes)-2] != 64 {
		t.Fatalf("chunks end at %v, want the floor 64", sizes[len(sizes)-3:])
	}
	fixed := &chunker{n: 100, chunk: 30, workers: 2}
	for _, want := range [][2]int{{0, 30}, {30, 60}, {60, 90}, {90, 100}} {
		if s, e := fixed.take(); s != want[0] || e != want[1] {
			t.Fatalf("fixed chunk [%d, %d), want %v", s, e, want)
		}
	}
	if s, _ := fixed.take(); s < 100 {
		t.Fatalf("fixed chunks past the grid: %d", s)
	}
	// racing workers: every cluster taken once
	c = &chunker{n: 100000, chunk: 7, workers: 4, guided: true}
	seen := make([]atomic.Int32, c.n)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				s, e := c.take()
				if s >= c.n {
					return
				}
				for i := s; i < e; i++ {
					seen[i].Add(1)
				}
			}
		}()
	}
	wg.Wait()
	for i := range seen {
		if seen[i].Load() != 1 {
			t.Fatalf("cluster %d taken %d times", i, seen[i].Load())
		}
	}
}
