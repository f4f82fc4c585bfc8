package exec

// Fused whole-warp loops for the common integer operations: one pass over
// the lanes that computes and normalises the slot (zero- or sign-extended
// to 64 bits), and forms with a uniform second operand (an immediate or
// other constant slot), which read one stream fewer. vecBinary picks them.

import "math/bits"

func vecAddZ32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(uint32(a[i]) + uint32(b[i]))
	}
}

func vecAddZ32K(d, a *lanes, k uint64) {
	kk := uint32(k)
	for i := range d {
		d[i] = uint64(uint32(a[i]) + kk)
	}
}

func vecAdd64K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = a[i] + k
	}
}

func vecAddS32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(int64(int32(uint32(a[i]) + uint32(b[i]))))
	}
}

func vecAddS32K(d, a *lanes, k uint64) {
	kk := uint32(k)
	for i := range d {
		d[i] = uint64(int64(int32(uint32(a[i]) + kk)))
	}
}

func vecSubZ32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(uint32(a[i]) - uint32(b[i]))
	}
}

func vecSubZ32K(d, a *lanes, k uint64) {
	kk := uint32(k)
	for i := range d {
		d[i] = uint64(uint32(a[i]) - kk)
	}
}

func vecSub64K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = a[i] - k
	}
}

func vecSubS32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(int64(int32(uint32(a[i]) - uint32(b[i]))))
	}
}

func vecSubS32K(d, a *lanes, k uint64) {
	kk := uint32(k)
	for i := range d {
		d[i] = uint64(int64(int32(uint32(a[i]) - kk)))
	}
}

func vecMulZ32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(uint32(a[i]) * uint32(b[i]))
	}
}

func vecMulZ32K(d, a *lanes, k uint64) {
	kk := uint32(k)
	for i := range d {
		d[i] = uint64(uint32(a[i]) * kk)
	}
}

func vecMul64K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = a[i] * k
	}
}

func vecMulS32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(int64(int32(uint32(a[i]) * uint32(b[i]))))
	}
}

func vecMulS32K(d, a *lanes, k uint64) {
	kk := uint32(k)
	for i := range d {
		d[i] = uint64(int64(int32(uint32(a[i]) * kk)))
	}
}

func vecAndZ32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(uint32(a[i]) & uint32(b[i]))
	}
}

func vecAndZ32K(d, a *lanes, k uint64) {
	kk := uint32(k)
	for i := range d {
		d[i] = uint64(uint32(a[i]) & kk)
	}
}

func vecAnd64K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = a[i] & k
	}
}

func vecOrZ32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(uint32(a[i]) | uint32(b[i]))
	}
}

func vecOrZ32K(d, a *lanes, k uint64) {
	kk := uint32(k)
	for i := range d {
		d[i] = uint64(uint32(a[i]) | kk)
	}
}

func vecOr64K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = a[i] | k
	}
}

func vecXorZ32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(uint32(a[i]) ^ uint32(b[i]))
	}
}

func vecXorZ32K(d, a *lanes, k uint64) {
	kk := uint32(k)
	for i := range d {
		d[i] = uint64(uint32(a[i]) ^ kk)
	}
}

func vecXor64K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = a[i] ^ k
	}
}

// Shifts: Go defines a shift by the operand width or more as all zeros
// (or all sign bits for a signed operand), which is PTX's clamping of the
// shift amount to the width (9.7.8.8).

func vecShlZ32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(uint32(a[i]) << uint32(b[i]))
	}
}

func vecShlZ32K(d, a *lanes, k uint64) {
	if k >= 32 { // Go's result for a shift by the width or more; below, a plain shift
		kk := uint32(k)
		for i := range d {
			d[i] = uint64(uint32(a[i]) << kk)
		}
		return
	}
	kk := uint32(k) & 31
	for i := range d {
		d[i] = uint64(uint32(a[i]) << kk)
	}
}

func vecShrZ32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(uint32(a[i]) >> uint32(b[i]))
	}
}

func vecShrZ32K(d, a *lanes, k uint64) {
	if k >= 32 { // Go's result for a shift by the width or more; below, a plain shift
		kk := uint32(k)
		for i := range d {
			d[i] = uint64(uint32(a[i]) >> kk)
		}
		return
	}
	kk := uint32(k) & 31
	for i := range d {
		d[i] = uint64(uint32(a[i]) >> kk)
	}
}

func vecShrS32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(int64(int32(a[i]) >> uint32(b[i])))
	}
}

func vecShrS32K(d, a *lanes, k uint64) {
	if k >= 32 { // Go's result for a shift by the width or more; below, a plain shift
		kk := uint32(k)
		for i := range d {
			d[i] = uint64(int64(int32(a[i]) >> kk))
		}
		return
	}
	kk := uint32(k) & 31
	for i := range d {
		d[i] = uint64(int64(int32(a[i]) >> kk))
	}
}

func vecShl64(d, a, b *lanes) {
	for i := range d {
		d[i] = a[i] << uint32(b[i])
	}
}

func vecShl64K(d, a *lanes, k uint64) {
	if k >= 64 { // Go's result for a shift by the width or more; below, a plain shift
		kk := uint32(k)
		for i := range d {
			d[i] = a[i] << kk
		}
		return
	}
	kk := uint32(k) & 63
	for i := range d {
		d[i] = a[i] << kk
	}
}

func vecShrU64(d, a, b *lanes) {
	for i := range d {
		d[i] = a[i] >> uint32(b[i])
	}
}

func vecShrU64K(d, a *lanes, k uint64) {
	if k >= 64 { // Go's result for a shift by the width or more; below, a plain shift
		kk := uint32(k)
		for i := range d {
			d[i] = a[i] >> kk
		}
		return
	}
	kk := uint32(k) & 63
	for i := range d {
		d[i] = a[i] >> kk
	}
}

func vecShrS64(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(int64(a[i]) >> uint32(b[i]))
	}
}

func vecShrS64K(d, a *lanes, k uint64) {
	if k >= 64 { // Go's result for a shift by the width or more; below, a plain shift
		kk := uint32(k)
		for i := range d {
			d[i] = uint64(int64(a[i]) >> kk)
		}
		return
	}
	kk := uint32(k) & 63
	for i := range d {
		d[i] = uint64(int64(a[i]) >> kk)
	}
}

// mul.wide on 32-bit operands: the full 64-bit product.

func vecMulWideU32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(uint32(a[i])) * uint64(uint32(b[i]))
	}
}

func vecMulWideU32K(d, a *lanes, k uint64) {
	kk := uint64(uint32(k))
	for i := range d {
		d[i] = uint64(uint32(a[i])) * kk
	}
}

func vecMulWideS32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(int64(int32(a[i])) * int64(int32(b[i])))
	}
}

func vecMulWideS32K(d, a *lanes, k uint64) {
	kk := int64(int32(k))
	for i := range d {
		d[i] = uint64(int64(int32(a[i])) * kk)
	}
}

// Masked forms: the same loops over the lanes of a partial mask (divergent
// code), without a function call per lane.

func vecAddZ32M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) + uint32(b[i]))
	}
}

func vecAddS32M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(int64(int32(uint32(a[i]) + uint32(b[i]))))
	}
}

func vecSubZ32M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) - uint32(b[i]))
	}
}

func vecSubS32M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(int64(int32(uint32(a[i]) - uint32(b[i]))))
	}
}

func vecMulZ32M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) * uint32(b[i]))
	}
}

func vecMulS32M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(int64(int32(uint32(a[i]) * uint32(b[i]))))
	}
}

func vecAndZ32M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) & uint32(b[i]))
	}
}

func vecOrZ32M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) | uint32(b[i]))
	}
}

func vecXorZ32M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) ^ uint32(b[i]))
	}
}

func vecShlZ32M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) << uint32(b[i]))
	}
}

func vecShrZ32M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) >> uint32(b[i]))
	}
}

func vecShrS32M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(int64(int32(a[i]) >> uint32(b[i])))
	}
}

func vecShl64M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = a[i] << uint32(b[i])
	}
}

func vecShrU64M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = a[i] >> uint32(b[i])
	}
}

func vecShrS64M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(int64(a[i]) >> uint32(b[i]))
	}
}

func vecMulWideU32M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i])) * uint64(uint32(b[i]))
	}
}

func vecMulWideS32M(d, a, b *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(int64(int32(a[i])) * int64(int32(b[i])))
	}
}

func vecAddZ32KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(k)
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) + kk)
	}
}

func vecAdd64KM(d, a *lanes, k uint64, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = a[i] + k
	}
}

func vecAddS32KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(k)
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(int64(int32(uint32(a[i]) + kk)))
	}
}

func vecSubZ32KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(k)
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) - kk)
	}
}

func vecSub64KM(d, a *lanes, k uint64, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = a[i] - k
	}
}

func vecSubS32KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(k)
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(int64(int32(uint32(a[i]) - kk)))
	}
}

func vecMulZ32KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(k)
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) * kk)
	}
}

func vecMul64KM(d, a *lanes, k uint64, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = a[i] * k
	}
}

func vecMulS32KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(k)
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(int64(int32(uint32(a[i]) * kk)))
	}
}

func vecAndZ32KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(k)
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) & kk)
	}
}

func vecAnd64KM(d, a *lanes, k uint64, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = a[i] & k
	}
}

func vecOrZ32KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(k)
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) | kk)
	}
}

func vecOr64KM(d, a *lanes, k uint64, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = a[i] | k
	}
}

func vecXorZ32KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(k)
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) ^ kk)
	}
}

func vecXor64KM(d, a *lanes, k uint64, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = a[i] ^ k
	}
}

func vecShlZ32KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(min(k, 32))
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) << kk)
	}
}

func vecShrZ32KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(min(k, 32))
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i]) >> kk)
	}
}

func vecShrS32KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(min(k, 32))
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(int64(int32(a[i]) >> kk))
	}
}

func vecShl64KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(min(k, 64))
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = a[i] << kk
	}
}

func vecShrU64KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(min(k, 64))
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = a[i] >> kk
	}
}

func vecShrS64KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint32(min(k, 64))
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(int64(a[i]) >> kk)
	}
}

func vecMulWideU32KM(d, a *lanes, k uint64, mask uint32) {
	kk := uint64(uint32(k))
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(uint32(a[i])) * kk
	}
}

func vecMulWideS32KM(d, a *lanes, k uint64, mask uint32) {
	kk := int64(int32(k))
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = uint64(int64(int32(a[i])) * kk)
	}
}
