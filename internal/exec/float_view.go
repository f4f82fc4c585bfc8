package exec

// Whole-warp f32 loops that read and write the register rows as float32
// values in place. An f32 register holds its 32 bits zero-extended in a
// 64-bit slot, so on a little-endian host lane i's value is float32
// element 2i of the row and element 2i+1 is zero. Reading it there moves
// it straight into a floating-point register, without the integer to
// floating-point transfer that f32of costs per lane (about a quarter of an
// f32 add loop). The results are those of f32Add and its siblings: IEEE
// round to nearest, NaN results replaced by the canonical NaN; the loops
// keep the slot's upper half zero. TestFloatFastMatchesFP checks them
// against internal/fp.

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/fp"
)

// hostLittleEndian: the views below are only used where they are right.
var hostLittleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

func f32Row(r *lanes) *[2 * warpSize]float32 { return (*[2 * warpSize]float32)(unsafe.Pointer(r)) }
func u32Row(r *lanes) *[2 * warpSize]uint32  { return (*[2 * warpSize]uint32)(unsafe.Pointer(r)) }

// f32Put stores an f32 result into lane slot i/2 of a row viewed as
// float32 and uint32: the canonical NaN for a NaN, and a zero upper half.
func f32Put(df *[2 * warpSize]float32, du *[2 * warpSize]uint32, i int, x float32) {
	if x != x {
		du[i] = 0x7fffffff
	} else {
		df[i] = x
	}
	du[i+1] = 0
}

// f32ViewLoops returns the in-place loops of an f32 add, sub, mul or div
// (rr: two rows; rk: a row and the immediate k), or nils.
func f32ViewLoops(op string) (func(d, a, b *lanes), func(d, a *lanes, k uint64)) {
	if !hostLittleEndian {
		return nil, nil
	}
	switch op {
	case "add":
		return func(d, a, b *lanes) {
				af, bf, df, du := f32Row(a), f32Row(b), f32Row(d), u32Row(d)
				for i := 0; i < 2*warpSize; i += 2 {
					f32Put(df, du, i, af[i]+bf[i])
				}
			}, func(d, a *lanes, k uint64) {
				af, df, du, kf := f32Row(a), f32Row(d), u32Row(d), math.Float32frombits(uint32(k))
				for i := 0; i < 2*warpSize; i += 2 {
					f32Put(df, du, i, af[i]+kf)
				}
			}
	case "sub":
		return func(d, a, b *lanes) {
				af, bf, df, du := f32Row(a), f32Row(b), f32Row(d), u32Row(d)
				for i := 0; i < 2*warpSize; i += 2 {
					f32Put(df, du, i, af[i]-bf[i])
				}
			}, func(d, a *lanes, k uint64) {
				af, df, du, kf := f32Row(a), f32Row(d), u32Row(d), math.Float32frombits(uint32(k))
				for i := 0; i < 2*warpSize; i += 2 {
					f32Put(df, du, i, af[i]-kf)
				}
			}
	case "mul":
		return func(d, a, b *lanes) {
				af, bf, df, du := f32Row(a), f32Row(b), f32Row(d), u32Row(d)
				for i := 0; i < 2*warpSize; i += 2 {
					f32Put(df, du, i, af[i]*bf[i])
				}
			}, func(d, a *lanes, k uint64) {
				af, df, du, kf := f32Row(a), f32Row(d), u32Row(d), math.Float32frombits(uint32(k))
				for i := 0; i < 2*warpSize; i += 2 {
					f32Put(df, du, i, af[i]*kf)
				}
			}
	case "div":
		return func(d, a, b *lanes) {
				af, bf, df, du := f32Row(a), f32Row(b), f32Row(d), u32Row(d)
				for i := 0; i < 2*warpSize; i += 2 {
					f32Put(df, du, i, af[i]/bf[i])
				}
			}, func(d, a *lanes, k uint64) {
				af, df, du, kf := f32Row(a), f32Row(d), u32Row(d), math.Float32frombits(uint32(k))
				for i := 0; i < 2*warpSize; i += 2 {
					f32Put(df, du, i, af[i]/kf)
				}
			}
	}
	return nil, nil
}

// f32FmaView is fmaVec's f32 loop in place (f32Fma per lane: rounded once,
// the GPU's NaN result).
func f32FmaView(d, a, b, c *lanes) {
	af, bf, cf, df, du := f32Row(a), f32Row(b), f32Row(c), f32Row(d), u32Row(d)
	for i := 0; i < 2*warpSize; i += 2 {
		x := fp.FmaF32(af[i], bf[i], cf[i])
		if x != x {
			du[i] = uint32(fp.F32.NaNResult(uint64(math.Float32bits(af[i])), uint64(math.Float32bits(bf[i])), uint64(math.Float32bits(cf[i]))))
		} else {
			df[i] = x
		}
		du[i+1] = 0
	}
}

// f32ViewMasked returns f32ViewLoops' loops over the lanes of a partial
// mask (divergent code), or nils.
func f32ViewMasked(op string) (func(d, a, b *lanes, mask uint32), func(d, a *lanes, k uint64, mask uint32)) {
	if !hostLittleEndian {
		return nil, nil
	}
	switch op {
	case "add":
		return func(d, a, b *lanes, mask uint32) {
				af, bf, df, du := f32Row(a), f32Row(b), f32Row(d), u32Row(d)
				for m := mask; m != 0; m &= m - 1 {
					i := 2 * bits.TrailingZeros32(m)
					f32Put(df, du, i, af[i]+bf[i])
				}
			}, func(d, a *lanes, k uint64, mask uint32) {
				af, df, du, kf := f32Row(a), f32Row(d), u32Row(d), math.Float32frombits(uint32(k))
				for m := mask; m != 0; m &= m - 1 {
					i := 2 * bits.TrailingZeros32(m)
					f32Put(df, du, i, af[i]+kf)
				}
			}
	case "sub":
		return func(d, a, b *lanes, mask uint32) {
				af, bf, df, du := f32Row(a), f32Row(b), f32Row(d), u32Row(d)
				for m := mask; m != 0; m &= m - 1 {
					i := 2 * bits.TrailingZeros32(m)
					f32Put(df, du, i, af[i]-bf[i])
				}
			}, func(d, a *lanes, k uint64, mask uint32) {
				af, df, du, kf := f32Row(a), f32Row(d), u32Row(d), math.Float32frombits(uint32(k))
				for m := mask; m != 0; m &= m - 1 {
					i := 2 * bits.TrailingZeros32(m)
					f32Put(df, du, i, af[i]-kf)
				}
			}
	case "mul":
		return func(d, a, b *lanes, mask uint32) {
				af, bf, df, du := f32Row(a), f32Row(b), f32Row(d), u32Row(d)
				for m := mask; m != 0; m &= m - 1 {
					i := 2 * bits.TrailingZeros32(m)
					f32Put(df, du, i, af[i]*bf[i])
				}
			}, func(d, a *lanes, k uint64, mask uint32) {
				af, df, du, kf := f32Row(a), f32Row(d), u32Row(d), math.Float32frombits(uint32(k))
				for m := mask; m != 0; m &= m - 1 {
					i := 2 * bits.TrailingZeros32(m)
					f32Put(df, du, i, af[i]*kf)
				}
			}
	case "div":
		return func(d, a, b *lanes, mask uint32) {
				af, bf, df, du := f32Row(a), f32Row(b), f32Row(d), u32Row(d)
				for m := mask; m != 0; m &= m - 1 {
					i := 2 * bits.TrailingZeros32(m)
					f32Put(df, du, i, af[i]/bf[i])
				}
			}, func(d, a *lanes, k uint64, mask uint32) {
				af, df, du, kf := f32Row(a), f32Row(d), u32Row(d), math.Float32frombits(uint32(k))
				for m := mask; m != 0; m &= m - 1 {
					i := 2 * bits.TrailingZeros32(m)
					f32Put(df, du, i, af[i]/kf)
				}
			}
	}
	return nil, nil
}

// f32CmpCodes numbers the comparisons for f32CompareMasked's switch.
var f32CmpCodes = map[string]int{".eq": 0, ".ne": 1, ".lt": 2, ".le": 3, ".gt": 4, ".ge": 5, ".equ": 6,
	".neu": 7, ".ltu": 8, ".leu": 9, ".gtu": 10, ".geu": 11, ".num": 12, ".nan": 13}

// f32CompareMasked returns setp's f32 comparison (without .ftz) over the
// lanes of a partial mask, through the float32 view, or nil. Go compares
// float32 values as IEEE 754 does, NaN unordered, which is setp's rule
// (9.3.1.2, Tables 23 and 24).
func f32CompareMasked(t, cmp string, ftz bool) func(a, b *lanes, mask uint32) uint32 {
	if t != ".f32" || ftz || !hostLittleEndian {
		return nil
	}
	code, ok := f32CmpCodes[cmp]
	if !ok {
		return nil
	}
	return func(a, b *lanes, mask uint32) uint32 {
		af, bf := f32Row(a), f32Row(b)
		var r uint32
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			x, y := af[2*l], bf[2*l]
			var v bool
			switch code { // the same case every lane: predicted
			case 0:
				v = x == y
			case 1:
				v = x < y || x > y
			case 2:
				v = x < y
			case 3:
				v = x <= y
			case 4:
				v = x > y
			case 5:
				v = x >= y
			case 6:
				v = !(x < y || x > y)
			case 7:
				v = x != y
			case 8:
				v = !(x >= y)
			case 9:
				v = !(x > y)
			case 10:
				v = !(x <= y)
			case 11:
				v = !(x < y)
			case 12:
				v = x == x && y == y
			default:
				v = x != x || y != y
			}
			if v {
				r |= 1 << l
			}
		}
		return r
	}
}
