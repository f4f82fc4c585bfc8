package exec

// Packed integer arithmetic: add/min/max(.relu) on .u16x2/.s16x2
// (9.7.1.1, 9.7.1.12-13), and the PTX 9.2 additions (9.2 manual 1.3 and
// 5.2.5): add/sub/min/max/neg on .u8x4/.s8x4 and add.sat on .u16x2/.s16x2
// (add.sat.u32 is in lowerInt).
//
// The 9.0 Semantics split a and b into half-words and apply the operation
// to each pair, writing each result half-word; the 9.2 chapter 9 text is
// not in the spec set, so .u8x4/.s8x4 and .sat follow the same lane-wise
// reading: add/sub/neg wrap within each lane, min/max compare lanes as
// signed (.s) or unsigned (.u) values, .relu clamps a negative lane to 0,
// and .sat clamps the exact lane result to the lane type's range.

import "github.com/ptxvm/ptxvm/internal/ir"

// packed describes a packed integer type: n lanes of w bits.
type packed struct {
	w, n   uint
	signed bool
}

func packedOf(in *ir.Inst) (packed, bool) {
	for _, m := range in.Mods {
		switch m {
		case ".u16x2":
			return packed{16, 2, false}, true
		case ".s16x2":
			return packed{16, 2, true}, true
		case ".u8x4":
			return packed{8, 4, false}, true
		case ".s8x4":
			return packed{8, 4, true}, true
		}
	}
	return packed{}, false
}

// lane returns lane k of v, sign- or zero-extended.
func (p packed) lane(v uint64, k uint) int64 {
	x := v >> (p.w * k) & (1<<p.w - 1)
	if p.signed {
		s := 64 - p.w
		return int64(x<<s) >> s
	}
	return int64(x)
}

// clamp limits x to the lane type's range.
func (p packed) clamp(x int64) int64 {
	lo, hi := int64(0), int64(1)<<p.w-1
	if p.signed {
		lo, hi = -1<<(p.w-1), 1<<(p.w-1)-1
	}
	return max(lo, min(hi, x))
}

// apply builds the .b32 result of fn applied lane by lane.
func (p packed) apply(a, b uint64, fn func(x, y int64) int64) uint64 {
	var d uint64
	for k := uint(0); k < p.n; k++ {
		r := fn(p.lane(a, k), p.lane(b, k))
		d |= uint64(r) & (1<<p.w - 1) << (p.w * k)
	}
	return d
}

func lowerPacked(l *lowering, in *ir.Inst, o *Op, p packed) error {
	sat, relu := hasMod(in, ".sat"), hasMod(in, ".relu")
	if relu && !p.signed {
		return l.unsupported(in, ".relu on an unsigned type")
	}
	post := func(x int64) int64 {
		if sat {
			x = p.clamp(x)
		}
		if relu && x < 0 {
			x = 0
		}
		return x
	}
	var fn func(x, y int64) int64
	switch in.Opcode {
	case "add":
		fn = func(x, y int64) int64 { return x + y }
	case "sub":
		fn = func(x, y int64) int64 { return x - y }
	case "min":
		fn = func(x, y int64) int64 { return min(x, y) }
	case "max":
		fn = func(x, y int64) int64 { return max(x, y) }
	case "neg":
		if sat || relu {
			return l.unsupported(in, "")
		}
		return l.unary(in, o, func(a uint64) uint64 {
			return p.apply(a, 0, func(x, _ int64) int64 { return -x })
		})
	default:
		return l.unsupported(in, "")
	}
	if len(in.Operands) != 3 {
		return l.unsupported(in, "operands")
	}
	return l.binary(in, o, func(a, b uint64) uint64 {
		return p.apply(a, b, func(x, y int64) int64 { return post(fn(x, y)) })
	})
}
