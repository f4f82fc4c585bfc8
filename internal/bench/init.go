package bench

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Init says how a buffer is filled: "zero", "u32" (seeded random words,
// value % Mod when Mod is not 0, plus Add) or "f32" (uniform in [Lo, Hi)).
// The native harness (testdata/bench/src/harness.cpp, fill) computes the
// same bits, so both sides start from the same inputs.
type Init struct {
	Kind string  `json:"kind"`
	Seed uint64  `json:"seed,omitempty"`
	Mod  uint32  `json:"mod,omitempty"`
	Add  uint32  `json:"add,omitempty"`
	Lo   float64 `json:"lo,omitempty"`
	Hi   float64 `json:"hi,omitempty"`
}

func splitmix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// genU32 is element i of the stream seed: independent of the length, so a
// small size's input is a prefix of the full one's.
func genU32(seed, i uint64) uint32 { return uint32(splitmix64(seed<<40^i) >> 32) }

// fill returns the initial bytes of b.
func fill(b *Buffer) ([]byte, error) {
	out := make([]byte, b.Size())
	in := b.Init
	switch in.Kind {
	case "zero":
	case "u32":
		for i := range b.Count {
			v := genU32(in.Seed, uint64(i))
			if in.Mod != 0 {
				v %= in.Mod
			}
			binary.LittleEndian.PutUint32(out[4*i:], v+in.Add)
		}
	case "f32":
		for i := range b.Count {
			// The same f64 operations as the harness, then one rounding.
			u := float64(genU32(in.Seed, uint64(i))>>8) * (1.0 / 16777216.0)
			binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(float32(in.Lo+(in.Hi-in.Lo)*u)))
		}
	default:
		return nil, fmt.Errorf("buffer %s: unknown init %q", b.Name, in.Kind)
	}
	return out, nil
}
