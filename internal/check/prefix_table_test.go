package check

import (
	"fmt"
	"testing"
)

// TestPrefixTable: declarations come back per prefix in the order they
// were added, past the list's size too (the map's part), and a change
// made through get's slice stays (the builder keeps a range's registers
// so).
func TestPrefixTable(t *testing.T) {
	var tb prefixTable[int]
	if !tb.empty() || tb.get("%r") != nil {
		t.Fatal("a new table is not empty")
	}
	for i := range 3 * prefixTableList {
		tb.add(fmt.Sprintf("%%x%d_", i), i)
		tb.add(fmt.Sprintf("%%x%d_", i), 100+i)
	}
	if tb.empty() {
		t.Fatal("empty after adds")
	}
	for i := range 3 * prefixTableList {
		got := tb.get(fmt.Sprintf("%%x%d_", i))
		if len(got) != 2 || got[0] != i || got[1] != 100+i {
			t.Fatalf("prefix %d: %v", i, got)
		}
	}
	if tb.get("%none") != nil {
		t.Fatal("an unknown prefix has declarations")
	}
	for _, i := range []int{0, 2 * prefixTableList} {
		p := fmt.Sprintf("%%x%d_", i)
		tb.get(p)[1] = -1
		if tb.get(p)[1] != -1 {
			t.Fatalf("prefix %d: a change through get did not stay", i)
		}
	}
}
