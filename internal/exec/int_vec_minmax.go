package exec

// Whole-warp loops of min, max (without .relu) and mul.hi on 16-, 32- and
// 64-bit integers, normalised like the lane functions of alu.go: vecBinary
// picks them. (Go's min and max compile to conditional moves.)

import "math/bits"

func vecMinS32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(int64(min(int32(a[i]), int32(b[i]))))
	}
}

func vecMinS32K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = uint64(int64(min(int32(a[i]), int32(k))))
	}
}

func vecMaxS32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(int64(max(int32(a[i]), int32(b[i]))))
	}
}

func vecMaxS32K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = uint64(int64(max(int32(a[i]), int32(k))))
	}
}

func vecMinZ32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(min(uint32(a[i]), uint32(b[i])))
	}
}

func vecMinZ32K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = uint64(min(uint32(a[i]), uint32(k)))
	}
}

func vecMaxZ32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(max(uint32(a[i]), uint32(b[i])))
	}
}

func vecMaxZ32K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = uint64(max(uint32(a[i]), uint32(k)))
	}
}

// The 16-bit loops (T int16 or uint16: the value extended as the type is):
// clang narrows a byte image's sorting network to min.u16/max.u16 (a 3x3
// median filter ran 6x slower through the lane function than the same
// network on 32 bits).

func vecMin16[T int16 | uint16](d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(int64(min(T(a[i]), T(b[i]))))
	}
}

func vecMin16K[T int16 | uint16](d, a *lanes, k uint64) {
	for i := range d {
		d[i] = uint64(int64(min(T(a[i]), T(k))))
	}
}

func vecMax16[T int16 | uint16](d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(int64(max(T(a[i]), T(b[i]))))
	}
}

func vecMax16K[T int16 | uint16](d, a *lanes, k uint64) {
	for i := range d {
		d[i] = uint64(int64(max(T(a[i]), T(k))))
	}
}

func vecMinS64(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(min(int64(a[i]), int64(b[i])))
	}
}

func vecMinS64K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = uint64(min(int64(a[i]), int64(k)))
	}
}

func vecMaxS64(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(max(int64(a[i]), int64(b[i])))
	}
}

func vecMaxS64K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = uint64(max(int64(a[i]), int64(k)))
	}
}

func vecMinU64(d, a, b *lanes) {
	for i := range d {
		d[i] = min(a[i], b[i])
	}
}

func vecMinU64K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = min(a[i], k)
	}
}

func vecMaxU64(d, a, b *lanes) {
	for i := range d {
		d[i] = max(a[i], b[i])
	}
}

func vecMaxU64K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = max(a[i], k)
	}
}

// mul.hi: the upper half of the full product.

func vecMulHiS32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(int64(int32(uint64(int64(int32(a[i]))*int64(int32(b[i]))) >> 32)))
	}
}

func vecMulHiS32K(d, a *lanes, k uint64) {
	kk := int64(int32(k))
	for i := range d {
		d[i] = uint64(int64(int32(uint64(int64(int32(a[i]))*kk) >> 32)))
	}
}

func vecMulHiU32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(uint32(a[i])) * uint64(uint32(b[i])) >> 32
	}
}

func vecMulHiU32K(d, a *lanes, k uint64) {
	kk := uint64(uint32(k))
	for i := range d {
		d[i] = uint64(uint32(a[i])) * kk >> 32
	}
}

func vecMulHiU64(d, a, b *lanes) {
	for i := range d {
		d[i], _ = bits.Mul64(a[i], b[i])
	}
}

func vecMulHiU64K(d, a *lanes, k uint64) {
	for i := range d {
		d[i], _ = bits.Mul64(a[i], k)
	}
}

// vecMinMax returns the loops of min or max on t, or a zero vecBin.
func vecMinMax(op string, t intType) vecBin {
	if v, ok := simdBinary(simdMinMaxKey(op, t)); ok {
		return v
	}
	isMax := op == "max"
	switch {
	case t.bits == 32 && t.signed && isMax:
		return vecBin{rr: vecMaxS32, rk: vecMaxS32K}
	case t.bits == 32 && t.signed:
		return vecBin{rr: vecMinS32, rk: vecMinS32K}
	case t.bits == 32 && isMax:
		return vecBin{rr: vecMaxZ32, rk: vecMaxZ32K}
	case t.bits == 32:
		return vecBin{rr: vecMinZ32, rk: vecMinZ32K}
	case t.bits == 64 && t.signed && isMax:
		return vecBin{rr: vecMaxS64, rk: vecMaxS64K}
	case t.bits == 64 && t.signed:
		return vecBin{rr: vecMinS64, rk: vecMinS64K}
	case t.bits == 64 && isMax:
		return vecBin{rr: vecMaxU64, rk: vecMaxU64K}
	case t.bits == 64:
		return vecBin{rr: vecMinU64, rk: vecMinU64K}
	case t.bits == 16 && t.signed && isMax:
		return vecBin{rr: vecMax16[int16], rk: vecMax16K[int16]}
	case t.bits == 16 && t.signed:
		return vecBin{rr: vecMin16[int16], rk: vecMin16K[int16]}
	case t.bits == 16 && isMax:
		return vecBin{rr: vecMax16[uint16], rk: vecMax16K[uint16]}
	case t.bits == 16:
		return vecBin{rr: vecMin16[uint16], rk: vecMin16K[uint16]}
	}
	return vecBin{}
}

// simdMinMaxKey names min's or max's AVX2 loops, or "".
func simdMinMaxKey(op string, t intType) string {
	switch {
	case t.bits == 32 && t.signed:
		return op + ".s32"
	case t.bits == 32:
		return op + ".z32"
	case t.bits == 64 && t.signed:
		return op + ".s64"
	case t.bits == 64:
		return op + ".u64"
	case t.bits == 16 && t.signed:
		return op + ".s16"
	case t.bits == 16:
		return op + ".u16"
	}
	return ""
}
