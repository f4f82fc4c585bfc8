//go:build amd64 && !purego

package exec

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

// TestSIMDSegmentBodies runs each of a segment's access bodies (simdgen's
// segmentBodies) as a one-entry trace: a load fills row d from the 32
// consecutive elements at k (1-, 2- and 4-byte ones zero- or
// sign-extended, as ld's .u and .s types say), a store writes row d's
// values (their low bytes for a narrower store) there; no other row and no byte outside the 32
// elements changes. The non-temporal stores write to a 32-byte aligned k.
func TestSIMDSegmentBodies(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for _, c := range []struct {
		key         string
		size        int
		load, signd bool
	}{{"segLdZ8", 1, true, false}, {"segLdS8", 1, true, true}, {"segLdZ16", 2, true, false}, {"segLdS16", 2, true, true},
		{"segLdZ32", 4, true, false}, {"segLdS32", 4, true, true}, {"segLd64", 8, true, false},
		{"segSt8", 1, false, false}, {"segSt16", 2, false, false}, {"segSt32", 4, false, false}, {"segSt64", 8, false, false}, {"segStNT32", 4, false, false}, {"segStNT64", 8, false, false}} {
		body, ok := simdMemBody(c.key)
		if !ok {
			t.Fatalf("%s: no body", c.key)
		}
		for round := 0; round < 20; round++ {
			rows, buf := randomRowsAndBytes(rng, 4, 32*8+128)
			// the elements start 64 bytes in, on a 32-byte boundary
			start := 64 - int(uintptr(unsafe.Pointer(&buf[0]))&31)
			if round%2 == 1 && !strings.Contains(c.key, "NT") {
				start += c.size // (the others take any aligned element)
			}
			slot := 1 + round%3
			wantRows := append([]uint64(nil), rows...)
			wantBuf := append([]byte(nil), buf...)
			for l := 0; l < warpSize; l++ {
				at := start + l*c.size
				v := &wantRows[slot*warpSize+l]
				bits := uint(8 * c.size) // (the sign bit's place)
				switch e := elementAt(buf, at, c.size); {
				case c.load && c.signd && c.size < 8:
					*v = uint64(int64(e<<(64-bits)) >> (64 - bits))
				case c.load:
					*v = e
				default:
					putElement(wantBuf, at, c.size, *v)
				}
			}
			tr := []traceOp{{body: body, d: uint64(slot) * warpSize * 8, k: uint64(uintptr(unsafe.Pointer(&buf[start])))}}
			if ran := simdTrace(unsafe.Pointer(&rows[0]), &tr[0], 1, nil); ran != 1 {
				t.Fatalf("%s: %d entries ran", c.key, ran)
			}
			batchSFence()
			sameRowsAndBytes(t, c.key, round, rows, wantRows, buf, wantBuf)
		}
	}
}

// TestSIMDSegmentVectorBodies: a float4 segment's bodies move lane i's
// 16 bytes at k+16i (four 4-byte elements) into or from rows d, a, b and c,
// a float2 segment's lane i's 8 bytes at k+8i into or from rows d and a
// (a double2's 16 bytes at k+16i, 8-byte elements; a uchar4's 4 bytes at
// k+4i, into or from d, a, b and c),
// element e's in the e-th of them, zero-extended on a load and its low 4
// bytes on a store; nothing else changes.
func TestSIMDSegmentVectorBodies(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	rng := rand.New(rand.NewPCG(3, 5))
	for _, v := range []struct {
		n, size int // elements, each of size bytes
		ld, st  string
	}{{2, 4, "segLdV2Z32", "segStV2x32"}, {2, 8, "segLdV2x64", "segStV2x64"}, {4, 4, "segLdV4Z32", "segStV4x32"},
		{4, 1, "segLdV4Z8", "segStV4x8"}} {
		n := v.n
		for _, load := range []bool{true, false} {
			key := v.st
			if load {
				key = v.ld
			}
			body, ok := simdMemBody(key)
			if !ok {
				t.Fatalf("%s: no body", key)
			}
			for round := 0; round < 20; round++ {
				rows, buf := randomRowsAndBytes(rng, 6, 32*16+64)
				start := v.size * n * (1 + round%2)
				// the rows, not in order
				vec := [4]int{5, 1 + round%2, 3, 4 - round%2}
				wantRows := append([]uint64(nil), rows...)
				wantBuf := append([]byte(nil), buf...)
				for l := 0; l < warpSize; l++ {
					for e, s := range vec[:n] {
						at := start + v.size*n*l + v.size*e
						if load {
							wantRows[s*warpSize+l] = elementAt(buf, at, v.size)
						} else {
							putElement(wantBuf, at, v.size, rows[s*warpSize+l])
						}
					}
				}
				row := func(k int) uint64 { return uint64(vec[k]) * warpSize * 8 }
				tr := []traceOp{{body: body, d: row(0), a: row(1), k: uint64(uintptr(unsafe.Pointer(&buf[start])))}}
				if n == 4 {
					tr[0].b, tr[0].c = row(2), row(3)
				}
				if ran := simdTrace(unsafe.Pointer(&rows[0]), &tr[0], 1, nil); ran != 1 {
					t.Fatalf("%s: %d entries ran", key, ran)
				}
				sameRowsAndBytes(t, key, round, rows, wantRows, buf, wantBuf)
			}
		}
	}
}

// randomRowsAndBytes returns slots random rows and n random bytes.
func randomRowsAndBytes(rng *rand.Rand, slots, n int) ([]uint64, []byte) {
	rows := make([]uint64, slots*warpSize)
	for i := range rows {
		rows[i] = rng.Uint64()
	}
	buf := make([]byte, n)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	return rows, buf
}

// elementAt is the size-byte little-endian element at buf[at:],
// zero-extended; putElement writes v's low size bytes there.
func elementAt(buf []byte, at, size int) uint64 {
	var e uint64
	for b := size - 1; b >= 0; b-- {
		e = e<<8 | uint64(buf[at+b])
	}
	return e
}

func putElement(buf []byte, at, size int, v uint64) {
	for b := range size {
		buf[at+b] = byte(v >> (8 * b))
	}
}

// sameRowsAndBytes fails the test where a body left a row's lane or a
// byte of memory other than the expected.
func sameRowsAndBytes(t *testing.T, key string, round int, rows, wantRows []uint64, buf, wantBuf []byte) {
	t.Helper()
	for i := range rows {
		if rows[i] != wantRows[i] {
			t.Fatalf("%s round %d: row %d lane %d: %#x, want %#x", key, round, i/warpSize, i%warpSize, rows[i], wantRows[i])
		}
	}
	for i := range buf {
		if buf[i] != wantBuf[i] {
			t.Fatalf("%s round %d: byte %d: %#x, want %#x", key, round, i, buf[i], wantBuf[i])
		}
	}
}
