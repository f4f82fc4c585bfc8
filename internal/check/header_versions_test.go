package check

import (
	"testing"

	"github.com/ptxvm/ptxvm/internal/isa"
)

// TestKnownVersion: knownVersion accepts exactly the PTX ISA versions of
// the manual's Table 63 (and 9.1, 9.2), among every major and minor.
func TestKnownVersion(t *testing.T) {
	want := map[isa.Version]bool{}
	for _, v := range [][2]uint8{{1, 0}, {1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}, {2, 0}, {2, 1}, {2, 2}, {2, 3},
		{3, 0}, {3, 1}, {3, 2}, {4, 0}, {4, 1}, {4, 2}, {4, 3}, {5, 0}, {6, 0}, {6, 1}, {6, 2}, {6, 3}, {6, 4}, {6, 5},
		{7, 0}, {7, 1}, {7, 2}, {7, 3}, {7, 4}, {7, 5}, {7, 6}, {7, 7}, {7, 8}, {8, 0}, {8, 1}, {8, 2}, {8, 3}, {8, 4},
		{8, 5}, {8, 6}, {8, 7}, {8, 8}, {9, 0}, {9, 1}, {9, 2}} {
		want[isa.Version{Major: v[0], Minor: v[1]}] = true
	}
	for major := range 256 {
		for minor := range 256 {
			v := isa.Version{Major: uint8(major), Minor: uint8(minor)}
			if got := knownVersion(v); got != want[v] {
				t.Errorf("knownVersion(%d.%d) = %v, want %v", major, minor, got, want[v])
			}
		}
	}
}
