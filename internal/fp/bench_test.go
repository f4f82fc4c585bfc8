package fp

import "testing"

// Per-operation cost of the round-to-nearest fast paths and of the exact
// slow path (directed rounding), on normal operands.
var sink uint64

func BenchmarkAddF32RN(b *testing.B) {
	x, y := uint64(0x3f8ccccd), uint64(0x40133333)
	for range b.N {
		sink = F32.Add(x, y, RN)
	}
}

func BenchmarkFmaF32RN(b *testing.B) {
	x, y, z := uint64(0x3f8ccccd), uint64(0x40133333), uint64(0xbf400000)
	for range b.N {
		sink = F32.Fma(x, y, z, RN)
	}
}

func BenchmarkFmaF64RN(b *testing.B) {
	x, y, z := uint64(0x3ff199999999999a), uint64(0x4002666666666666), uint64(0xbfe8000000000000)
	for range b.N {
		sink = F64.Fma(x, y, z, RN)
	}
}

func BenchmarkAddF32RZ(b *testing.B) {
	x, y := uint64(0x3f8ccccd), uint64(0x40133333)
	for range b.N {
		sink = F32.Add(x, y, RZ)
	}
}

func BenchmarkDivF64RP(b *testing.B) {
	x, y := uint64(0x3ff199999999999a), uint64(0x4002666666666666)
	for range b.N {
		sink = F64.Div(x, y, RP)
	}
}

func BenchmarkAddF16RN(b *testing.B) {
	x, y := uint64(0x3c66), uint64(0x4099)
	for range b.N {
		sink = F16.Add(x, y, RN)
	}
}

func BenchmarkConvertF32ToF16RN(b *testing.B) {
	for range b.N {
		sink = Convert(F16, F32, 0x3f8ccccd, RN)
	}
}
