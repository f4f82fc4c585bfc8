package bench

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// checksum summarises a checked buffer's bytes the way the native harness
// does (harness.cpp, checksum): "fnv:<hex>" for exact buffers, a 64-bit
// FNV-style hash of the little-endian words; "sum:<abs>:<weighted>" for
// approx f32 buffers (rsqrt.approx in the device code is not the host's
// 1/sqrtf bit for bit), sums in f64.
func checksum(check string, data []byte) string {
	if check == "approx" {
		var abs, weighted float64
		for i := 0; i+4 <= len(data); i += 4 {
			x := float64(math.Float32frombits(binary.LittleEndian.Uint32(data[i:])))
			abs += math.Abs(x)
			weighted += x * (1 + float64((i/4)&7)/8)
		}
		return "sum:" + strconv.FormatFloat(abs, 'g', 17, 64) + ":" + strconv.FormatFloat(weighted, 'g', 17, 64)
	}
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(data); i += 8 {
		var word [8]byte
		copy(word[:], data[i:])
		h = (h ^ binary.LittleEndian.Uint64(word[:])) * 0x100000001b3
		h ^= h >> 32
	}
	return fmt.Sprintf("fnv:%016x", h)
}

// matches reports whether checksum got meets the expectation want: equal
// for exact buffers; for approx ones, both sums within rtol of the sum of
// magnitudes (NaN never matches).
func matches(check, got, want string, rtol float64) bool {
	if check != "approx" {
		return got == want
	}
	g, ok1 := parseSums(got)
	w, ok2 := parseSums(want)
	if !ok1 || !ok2 {
		return false
	}
	tol := rtol * w[0]
	return math.Abs(g[0]-w[0]) <= tol && math.Abs(g[1]-w[1]) <= 2*tol
}

func parseSums(s string) ([2]float64, bool) {
	var out [2]float64
	parts := strings.Split(s, ":")
	if len(parts) != 3 || parts[0] != "sum" {
		return out, false
	}
	for i := range 2 {
		v, err := strconv.ParseFloat(parts[i+1], 64)
		if err != nil || math.IsNaN(v) {
			return out, false
		}
		out[i] = v
	}
	return out, true
}
