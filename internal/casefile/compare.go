package casefile

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// Mismatch is one element whose contents differ from what was expected.
type Mismatch struct {
	Index int    // element index; -1 when the sizes differ
	Got   uint64 // the element's bits
	Want  uint64
	Text  string // "got 0x3f800000 want 0x3f800001"
}

// Check compares a buffer's contents after the launch with what the case
// expects and returns every element that differs, in index order. A buffer
// with Output false must equal Init bit for bit; otherwise got is compared
// with Expected by b.Compare.Mode. An unchecked buffer never mismatches.
func (b *Buffer) Check(got []byte) []Mismatch {
	want, mode := b.Expected, b.Compare.Mode
	if !b.Output {
		want, mode = b.Init, "bits"
	}
	if want == nil {
		return nil
	}
	if len(got) != len(want) {
		return []Mismatch{{Index: -1, Text: fmt.Sprintf("got %d bytes want %d", len(got), len(want))}}
	}
	t := types[b.Type]
	es := t.size
	var ms []Mismatch
	for i := 0; i+es <= len(want); i += es {
		g, w := load(got[i:], es), load(want[i:], es)
		if g == w || b.Compare.match(mode, g, w, b.Type) {
			continue
		}
		ms = append(ms, Mismatch{Index: i / es, Got: g, Want: w,
			Text: fmt.Sprintf("got %s want %s", hexBits(g, es), hexBits(w, es))})
	}
	return ms
}

func load(b []byte, size int) uint64 {
	var tmp [8]byte
	copy(tmp[:], b[:size])
	return binary.LittleEndian.Uint64(tmp[:])
}

// match reports whether got is acceptable for want (which differ bitwise).
func (c Compare) match(mode string, got, want uint64, typ string) bool {
	t := types[typ]
	switch mode {
	case "bits":
		return false
	case "exact", "":
		return t.class == 'f' && t.isNaN(got) && t.isNaN(want)
	case "ulp":
		if t.isNaN(got) || t.isNaN(want) {
			return t.isNaN(got) && t.isNaN(want)
		}
		return ulpDistance(got, want, t) <= c.ULP
	case "tolerance":
		if t.class != 'f' {
			return float64(intDistance(got, want, t)) <= c.Atol+c.Rtol*intMagnitude(want, t)
		}
		g, w := floatValue(got, typ), floatValue(want, typ)
		if math.IsNaN(g) || math.IsNaN(w) {
			return math.IsNaN(g) && math.IsNaN(w)
		}
		if math.IsInf(g, 0) || math.IsInf(w, 0) {
			return g == w
		}
		return math.Abs(g-w) <= c.Atol+c.Rtol*math.Abs(w)
	}
	return false
}

// ordered maps float bits to an integer that orders like the values, with
// +0 and -0 both at 0 and adjacent floats one apart.
func ordered(b uint64, t typeInfo) int64 {
	mag := int64(b &^ t.signBit())
	if b&t.signBit() != 0 {
		return -mag
	}
	return mag
}

// ulpDistance is how many representable values lie between two non-NaN
// floats (counting one end); infinities are one past the largest finite.
func ulpDistance(a, b uint64, t typeInfo) uint64 {
	x, y := ordered(a, t), ordered(b, t)
	if x < y {
		x, y = y, x
	}
	return uint64(x) - uint64(y) // exact: the true difference is below 2^64
}

// intDistance is |a-b| of two integer elements, exact in 64 bits.
func intDistance(a, b uint64, t typeInfo) uint64 {
	x, signed := intValue(a, t)
	y, _ := intValue(b, t)
	if signed && int64(x) < int64(y) || !signed && x < y {
		x, y = y, x
	}
	return x - y
}

func intMagnitude(b uint64, t typeInfo) float64 {
	v, signed := intValue(b, t)
	if signed && int64(v) < 0 {
		return float64(-v) // -v as uint64 is |v|, even for the most negative
	}
	return float64(v)
}

// FormatMismatches describes the first max mismatches of the named buffer
// (all of them when max <= 0) the way `ptxvm test` reports them:
//
//	buffer y[12]: got 0x3f800000 want 0x3f800001; buffer y[40]: ...; 5 more mismatches in y
//
// It returns "" when ms is empty.
func FormatMismatches(name string, ms []Mismatch, max int) string {
	var parts []string
	for i, m := range ms {
		if max > 0 && i == max {
			more := "mismatches"
			if len(ms)-max == 1 {
				more = "mismatch"
			}
			parts = append(parts, fmt.Sprintf("%d more %s in %s", len(ms)-max, more, name))
			break
		}
		if m.Index < 0 {
			parts = append(parts, fmt.Sprintf("buffer %s: %s", name, m.Text))
		} else {
			parts = append(parts, fmt.Sprintf("buffer %s[%d]: %s", name, m.Index, m.Text))
		}
	}
	return strings.Join(parts, "; ")
}
