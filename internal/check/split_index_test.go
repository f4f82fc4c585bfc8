package check

import "testing"

// TestSplitIndex: a parameterized register name's prefix and index
// (5.3.1.1's %r<100> declares %r0 .. %r99): digits at the end without a
// leading zero, after a non-empty prefix; ten digits and more go through
// the overflow check.
func TestSplitIndex(t *testing.T) {
	for _, c := range []struct {
		name   string
		prefix string
		index  int
	}{
		{"%r12", "%r", 12},
		{"%r0", "%r", 0},
		{"%rd7", "%rd", 7},
		{"%f123456789", "%f", 123456789},
		{"%p1234567890", "%p", 1234567890},
		{"%r012", "", -1},
		{"%r", "", -1},
		{"123", "", -1},
		{"12345678901", "", -1},
		{"%r0123456789", "", -1},
		{"%r99999999999999999999", "", -1},
	} {
		if p, i := splitIndex(c.name); p != c.prefix || i != c.index {
			t.Errorf("splitIndex(%q) = %q, %d; want %q, %d", c.name, p, i, c.prefix, c.index)
		}
	}
}
