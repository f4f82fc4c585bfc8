package bench

import "testing"

// TestHostCopyScaling: both rates are measured (a copy moves bytes at some
// positive rate) and finite.
func TestHostCopyScaling(t *testing.T) {
	one, two := HostCopyScaling(1<<20, 3)
	if !(one > 0.01 && two > 0.01 && one < 1e6 && two < 1e6) {
		t.Errorf("rates %v and %v GB/s", one, two)
	}
}
