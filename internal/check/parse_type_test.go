package check

import "testing"

// TestParseType: the fundamental types of 5.2.1 with their kind and width
// (.pred as 1 bit), and nothing else: packed, narrow float and unknown
// widths, and malformed names.
func TestParseType(t *testing.T) {
	for _, c := range []struct {
		t    string
		kind byte
		bits int
		ok   bool
	}{
		{".pred", 'p', 1, true},
		{".b8", 'b', 8, true}, {".u16", 'u', 16, true}, {".s32", 's', 32, true}, {".u64", 'u', 64, true},
		{".b128", 'b', 128, true}, {".f16", 'f', 16, true}, {".f32", 'f', 32, true}, {".f64", 'f', 64, true},
		{".f8", 0, 0, false}, {".f128", 0, 0, false}, {".u24", 0, 0, false}, {".s256", 0, 0, false},
		{".f16x2", 0, 0, false}, {".bf16", 0, 0, false}, {".e4m3", 0, 0, false},
		{"u32", 0, 0, false}, {".u", 0, 0, false}, {".u3a", 0, 0, false}, {".u99999999999999999999", 0, 0, false},
	} {
		got, ok := parseType(c.t)
		if ok != c.ok || ok && (got.kind != c.kind || got.bits != c.bits) {
			t.Errorf("parseType(%q) = %c%d, %v; want %c%d, %v", c.t, got.kind, got.bits, ok, c.kind, c.bits, c.ok)
		}
	}
}
