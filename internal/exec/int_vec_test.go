package exec

import (
	"math/rand/v2"
	"testing"
)

// TestVecMatchesScalar: the whole-warp loops give the per-lane closures'
// results for every operation and type they cover, on random and edge
// operands (shift amounts past the width included).
func TestVecMatchesScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	edges := []uint64{0, 1, 31, 32, 33, 63, 64, 65, 0x7fffffff, 0x80000000, 0xffffffff, 1 << 32, 1<<63 - 1, 1 << 63, ^uint64(0)}
	for _, op := range []string{"add", "sub", "mul", "and", "or", "xor", "shl", "shr"} {
		for _, ty := range []intType{{32, false}, {32, true}, {64, false}, {64, true}} {
			vec := vecBinary(op, "", ty)
			if vec == nil {
				if op == "shr" && ty.signed {
					continue // signed shifts stay per lane
				}
				t.Fatalf("%s %v: no warp loop", op, ty)
			}
			scalar := scalarInt(op, ty)
			for round := 0; round < 50; round++ {
				var d, a, b lanes
				for i := range a {
					a[i], b[i] = r.Uint64(), r.Uint64()
					if round%2 == 0 {
						a[i], b[i] = edges[r.IntN(len(edges))], edges[r.IntN(len(edges))]
					}
				}
				vec(&d, &a, &b)
				for i := range d {
					if want := scalar(a[i], b[i]); d[i] != want {
						t.Fatalf("%s %v (%#x, %#x) = %#x, want %#x", op, ty, a[i], b[i], d[i], want)
					}
				}
			}
		}
	}
}

// scalarInt is the per-lane semantics, as alu.go writes it.
func scalarInt(op string, t intType) func(a, b uint64) uint64 {
	switch op {
	case "add":
		return func(a, b uint64) uint64 { return t.norm(a + b) }
	case "sub":
		return func(a, b uint64) uint64 { return t.norm(a - b) }
	case "mul":
		wide := intType{bits: min(64, 2*t.bits), signed: t.signed}
		return func(a, b uint64) uint64 { return mulMode(t, wide, "", a, b) }
	case "and":
		return func(a, b uint64) uint64 { return a & b & t.mask() }
	case "or":
		return func(a, b uint64) uint64 { return (a | b) & t.mask() }
	case "xor":
		return func(a, b uint64) uint64 { return (a ^ b) & t.mask() }
	}
	left := op == "shl"
	return func(a, b uint64) uint64 {
		n := min(uint32(b), uint32(t.bits))
		switch {
		case left:
			if n >= 64 {
				return 0
			}
			return t.norm(a << n)
		default:
			if n >= 64 {
				return 0
			}
			return (a & t.mask()) >> n
		}
	}
}
