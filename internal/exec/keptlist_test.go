package exec

import (
	"runtime"
	"testing"
)

// TestKeptListSurvivesCollections: kept values come back after collections
// (a sync.Pool drops them: a batch's register file was then built again
// inside a timed launch), last in first out, and no more than keptMax are
// kept.
func TestKeptListSurvivesCollections(t *testing.T) {
	var k keptList[*int]
	a, b := new(int), new(int)
	k.put(a)
	k.put(b)
	runtime.GC()
	runtime.GC()
	if v, ok := k.get(); !ok || v != b {
		t.Fatalf("first get: %v %v, want the last put", v, ok)
	}
	if v, ok := k.get(); !ok || v != a {
		t.Fatalf("second get: %v %v", v, ok)
	}
	if _, ok := k.get(); ok {
		t.Fatal("a value from an empty list")
	}
	for range keptMax + 5 {
		k.put(new(int))
	}
	if len(k.items) != keptMax {
		t.Errorf("%d kept, want %d", len(k.items), keptMax)
	}
}
