package sharedcache

import (
	"sync"
	"testing"
)

// TestGetComputesOnce: a key's value is worked out on its first Get only;
// Lookup finds what Get or Put kept and nothing else.
func TestGetComputesOnce(t *testing.T) {
	c := New[string, int]()
	if _, ok := c.Lookup("a"); ok {
		t.Fatal("an empty cache found a key")
	}
	calls := 0
	for range 3 {
		if v := c.Get("a", func() int { calls++; return 7 }); v != 7 {
			t.Fatalf("Get = %d, want 7", v)
		}
	}
	if calls != 1 {
		t.Fatalf("computed %d times, want 1", calls)
	}
	c.Put("b", 9)
	if v, ok := c.Lookup("b"); !ok || v != 9 {
		t.Fatalf("Lookup(b) = %d, %v; want 9, true", v, ok)
	}
}

// TestLimit: past Limit keys a new key is not kept (its value is still
// returned, and worked out again each time); the kept ones stay.
func TestLimit(t *testing.T) {
	c := New[int, int]()
	for k := range Limit {
		c.Put(k, k)
	}
	calls := 0
	for range 2 {
		if v := c.Get(Limit, func() int { calls++; return -1 }); v != -1 {
			t.Fatalf("Get past the limit = %d, want -1", v)
		}
	}
	if calls != 2 {
		t.Fatalf("a key past the limit computed %d times, want 2 (not kept)", calls)
	}
	if v, ok := c.Lookup(Limit - 1); !ok || v != Limit-1 {
		t.Fatalf("the last kept key: %d, %v", v, ok)
	}
}

// TestConcurrent: goroutines getting and putting the same keys agree on
// every value (go test -race checks the locking).
func TestConcurrent(t *testing.T) {
	c := New[int, int]()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 200 {
				if v := c.Get(k, func() int { return 2 * k }); v != 2*k {
					t.Errorf("goroutine %d: Get(%d) = %d", g, k, v)
				}
			}
		}()
	}
	wg.Wait()
}
