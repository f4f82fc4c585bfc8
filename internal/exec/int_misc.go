package exec

// The rest of the integer family: bfind, fns, szext, bmsk, dp4a, dp2a
// (9.7.1.16-24), set and slct (9.7.6.1, 9.7.6.4). Each follows the
// manual's Semantics pseudo-code; where the manual leaves a value open the
// choice is stated at the handler.

import (
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/ir"
)

func init() {
	register(lowerIntMisc, "bfind", "fns", "szext", "bmsk", "dp4a", "dp2a")
	register(lowerSet, "set")
	register(lowerSlct, "slct")
}

func lowerIntMisc(l *lowering, in *ir.Inst, o *Op) error {
	switch in.Opcode {
	case "bfind":
		t, ok := parseInt(typeOf(in))
		if !ok || t.bits < 32 {
			return l.unsupported(in, "type "+typeOf(in))
		}
		shiftamt := hasMod(in, ".shiftamt")
		fn := func(a uint64) uint64 { return bfind(t, shiftamt, a) }
		if t.bits == 32 {
			key := "bfind" + map[bool]string{false: "", true: ".shiftamt"}[shiftamt] + map[bool]string{false: ".u32", true: ".s32"}[t.signed]
			if v := simdUnary(key); v != nil {
				return l.unaryVec(in, o, fn, v)
			}
		}
		return l.unary(in, o, fn)
	case "fns":
		return l.ternary(in, o, func(mask, base, offset uint64) uint64 {
			return uint64(fns(uint32(mask), int32(base), int32(offset)))
		})
	case "szext":
		t, ok := parseInt(typeOf(in))
		if !ok || t.bits != 32 {
			return l.unsupported(in, "type "+typeOf(in))
		}
		clamp := in.Groups[".mode"] == ".clamp" || hasMod(in, ".clamp")
		return l.binary(in, o, func(a, b uint64) uint64 {
			return t.norm(uint64(szext(uint32(a), uint32(b), clamp, t.signed)))
		})
	case "bmsk":
		clamp := in.Groups[".mode"] == ".clamp" || hasMod(in, ".clamp")
		return l.binary(in, o, func(a, b uint64) uint64 {
			return uint64(bmsk(uint32(a), uint32(b), clamp))
		})
	case "dp4a", "dp2a":
		as, bs := in.Groups[".atype"] == ".s32", in.Groups[".btype"] == ".s32"
		res := intType{bits: 32, signed: as || bs} // d and c are .s32 unless both are .u32
		if in.Opcode == "dp4a" {
			vec := simdTernary("dp4a" + in.Groups[".atype"] + in.Groups[".btype"])
			switch {
			case vec != nil: // (AVX2)
			case as && bs:
				vec = dp4aVec[int8, int8]
			case as:
				vec = dp4aVec[int8, uint8]
			case bs:
				vec = dp4aVec[uint8, int8]
			default:
				vec = dp4aVec[uint8, uint8]
			}
			return l.ternaryVec(in, o, func(a, b, c uint64) uint64 {
				return res.norm(uint64(dp4a(uint32(a), uint32(b), uint32(c), as, bs)))
			}, vec)
		}
		hi := in.Groups[".mode"] == ".hi" || hasMod(in, ".hi")
		return l.ternary(in, o, func(a, b, c uint64) uint64 {
			return res.norm(uint64(dp2a(uint32(a), uint32(b), uint32(c), as, bs, hi)))
		})
	}
	return l.unsupported(in, "")
}

// bfind (9.7.1.16): the position of the most significant non-sign bit,
// 0xffffffff when there is none; with .shiftamt, msb minus it.
func bfind(t intType, shiftamt bool, a uint64) uint64 {
	msb := t.bits - 1
	a &= t.mask()
	if t.signed && a>>uint(msb)&1 != 0 {
		a = ^a & t.mask()
	}
	if a == 0 {
		return 0xffffffff
	}
	d := 63 - bits.LeadingZeros64(a)
	if shiftamt {
		d = msb - d
	}
	return uint64(d)
}

// fns (9.7.1.17): the offset-th set bit of mask counting from base, up for a
// positive offset, down for a negative one; offset 0 tests bit base itself.
// base > 31 is undefined behaviour: the pseudo-code is run as written with
// base taken as a signed 32-bit value, so a base outside 0..31 finds
// nothing (0xffffffff).
func fns(mask uint32, base, offset int32) uint32 {
	if offset == 0 {
		if base >= 0 && base < 32 && mask>>uint(base)&1 == 1 {
			return uint32(base)
		}
		return 0xffffffff
	}
	count := int64(offset)
	inc := int32(1)
	if count < 0 {
		count, inc = -count, -1
	}
	count--
	for pos := base; pos >= 0 && pos < 32; pos += inc {
		if mask>>uint(pos)&1 == 1 {
			if count == 0 {
				return uint32(pos)
			}
			count--
		}
	}
	return 0xffffffff
}

// szext (9.7.1.21): sign- or zero-extend the low b bits of a.
func szext(a, b uint32, clamp, signed bool) uint32 {
	b1 := b & 0x1f
	tooLarge := b >= 32 && clamp
	mask := ^uint32(0) << b1
	if tooLarge {
		mask = 0
	}
	signPos := (b1 - 1) & 0x1f
	sign := false
	if b1 != 0 && !tooLarge && signed {
		sign = a>>signPos&1 == 1
	}
	d := a &^ mask
	if sign {
		d |= mask
	}
	return d
}

// bmsk (9.7.1.22): a mask of b bits starting at bit a.
func bmsk(a, b uint32, clamp bool) uint32 {
	a1 := a & 0x1f
	mask0 := ^uint32(0) << a1
	b1 := b & 0x1f
	sum := a1 + b1
	var mask1 uint32
	if sum < 32 {
		mask1 = ^uint32(0) << sum
	}
	overflow := sum >= 32
	if clamp {
		if a >= 32 {
			overflow = true
			mask0 = 0
		}
		if b >= 32 {
			overflow = true
		}
	}
	switch {
	case overflow:
		mask1 = 0
	case b1 == 0:
		mask1 = ^uint32(0)
	}
	return mask0 &^ mask1
}

// extByte returns byte/half-word k of v (w bits), sign- or zero-extended.
func extLane(v uint32, w, k uint, signed bool) int64 {
	x := v >> (w * k) & (1<<w - 1)
	if signed {
		s := 32 - w
		return int64(int32(x<<s) >> s)
	}
	return int64(x)
}

// dp4a (9.7.1.23): c plus the dot product of the four bytes of a and b,
// modulo 2^32.
func dp4a(a, b, c uint32, as, bs bool) uint32 {
	d := int64(c)
	for k := uint(0); k < 4; k++ {
		d += extLane(a, 8, k, as) * extLane(b, 8, k, bs)
	}
	return uint32(d)
}

// dp4aVec is dp4a's warp loop, the bytes of a read as A and those of b as
// B (int8: .s32, uint8: .u32); the result is .s32 (sign-extended in the
// slot) unless both are unsigned.
func dp4aVec[A, B int8 | uint8](d, a, b, c *lanes) {
	var za A
	var zb B
	signed := ^za < 0 || ^zb < 0 // (^0 of int8 is -1)
	for i := range d {
		x, y := uint32(a[i]), uint32(b[i])
		s := uint32(c[i]) +
			uint32(int32(A(x))*int32(B(y))) + uint32(int32(A(x>>8))*int32(B(y>>8))) +
			uint32(int32(A(x>>16))*int32(B(y>>16))) + uint32(int32(A(x>>24))*int32(B(y>>24)))
		if signed {
			d[i] = uint64(int64(int32(s)))
		} else {
			d[i] = uint64(s)
		}
	}
}

// dp2a (9.7.1.24): c plus the dot product of the two half-words of a and
// bytes 0-1 (.lo) or 2-3 (.hi) of b, modulo 2^32.
func dp2a(a, b, c uint32, as, bs, hi bool) uint32 {
	sel := uint(0)
	if hi {
		sel = 2
	}
	d := int64(c)
	for k := uint(0); k < 2; k++ {
		d += extLane(a, 16, k, as) * extLane(b, 8, sel+k, bs)
	}
	return uint32(d)
}

// set.CmpOp{.BoolOp}{.ftz}.dtype.stype d, a, b{, {!}c} (9.7.6.1, 9.7.7.1):
// when BoolOp(a CmpOp b, c) holds, all ones (integer dtype; sign-extended
// in the slot for signed types) or 1.0 in the float dtype, else 0. With a
// .f16x2 or .bf16x2 source the two halves compare separately and each half
// of d receives 1.0 (float dtype) or 0xffff (integer dtype); the manual's
// pseudo-code tests "stype == .bf16x2" where it means the dtype.
func lowerSet(l *lowering, in *ir.Inst, o *Op) error {
	dt, st, _ := typePair(in, ".dtype", ".stype") // (the half forms spell one of them)
	cmp, boolOp := in.Groups[".CmpOp"], in.Groups[".BoolOp"]
	packed := st == ".f16x2" || st == ".bf16x2"
	var one uint64
	switch dt {
	case ".u32":
		one = 0xffffffff
	case ".s32":
		one = ^uint64(0)
	case ".u16":
		one = 0xffff
	case ".s16":
		one = ^uint64(0)
	case ".f32":
		one = 0x3f800000
	case ".f16", ".f16x2":
		one = 0x3c00
	case ".bf16", ".bf16x2":
		one = 0x3f80
	default:
		return l.unsupported(in, "destination type "+dt)
	}
	if st == "" || cmp == "" {
		return l.unsupported(in, "source type")
	}
	lane := st
	if packed {
		lane = st[:len(st)-2]
		if dt != ".f16x2" && dt != ".bf16x2" {
			one = 0xffff
		}
	}
	test, err := comparison(lane, cmp, hasMod(in, ".ftz"))
	if err != nil {
		return l.unsupported(in, err.Error())
	}
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	a, err := l.src(in, 1)
	if err != nil {
		return err
	}
	b, err := l.src(in, 2)
	if err != nil {
		return err
	}
	c, cneg := int32(-1), false
	if boolOp != "" {
		if c, cneg, err = l.pred(in, 3); err != nil {
			return err
		}
	}
	combine := func(t bool, cv uint32, i int) bool {
		if c < 0 {
			return t
		}
		ci := cv>>uint(i)&1 == 1
		switch boolOp {
		case ".and":
			return t && ci
		case ".or":
			return t || ci
		}
		return t != ci
	}
	o.d, o.a, o.b = d, a, b
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		r := f.regs
		var cv uint32
		if c >= 0 {
			cv = f.preds[c]
			if cneg {
				cv = ^cv
			}
		}
		dd, aa, bb := int(o.d)*warpSize, int(o.a)*warpSize, int(o.b)*warpSize
		for m := mask; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			x, y := r[aa+i], r[bb+i]
			if packed {
				var v uint64
				if combine(test(x, y), cv, i) {
					v = one
				}
				if combine(test(x>>16, y>>16), cv, i) {
					v |= one << 16
				}
				r[dd+i] = v
				continue
			}
			if combine(test(x, y), cv, i) {
				r[dd+i] = one
			} else {
				r[dd+i] = 0
			}
		}
	}
	return nil
}

// slct.dtype.s32 / slct{.ftz}.dtype.f32 d, a, b, c (9.7.6.4): d = c >= 0 ?
// a : b. For .f32, -0 equals 0 (selects a), NaN selects b, and .ftz flushes
// a subnormal c to a zero of its sign first (so it selects a). The selected
// value is copied as a bit pattern of dtype's width.
func lowerSlct(l *lowering, in *ir.Inst, o *Op) error {
	dt := in.Groups[".dtype"]
	if dt == "" {
		dt = typeOf(in)
	}
	var norm func(uint64) uint64
	switch dt {
	case ".f32":
		norm = func(v uint64) uint64 { return v & 0xffffffff }
	case ".f64":
		norm = func(v uint64) uint64 { return v }
	default:
		t, ok := parseInt(dt)
		if !ok {
			return l.unsupported(in, "type "+dt)
		}
		norm = t.norm
	}
	ct := ""
	if len(in.Types) > 3 {
		ct = in.Types[3]
	}
	var geZero func(c uint64) bool
	switch ct {
	case ".s32":
		geZero = func(c uint64) bool { return int32(c) >= 0 }
	case ".f32":
		ftz := hasMod(in, ".ftz")
		geZero = func(c uint64) bool {
			x := f32(c)
			if ftz {
				x = ftz32(x)
			}
			return x >= 0 // false for NaN
		}
	default:
		return l.unsupported(in, "selector type "+ct)
	}
	return l.ternary(in, o, func(a, b, c uint64) uint64 {
		if geZero(c) {
			return norm(a)
		}
		return norm(b)
	})
}
