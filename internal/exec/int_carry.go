package exec

// Extended-precision integer arithmetic (9.7.2): add.cc, addc, sub.cc,
// subc, mad.cc, madc.
//
// The condition code CC.CF is an implicit per-thread register: frame.carry
// holds it as a lane mask, like a predicate. The manual says no other
// instruction reads or writes it and that it is not preserved across
// calls; a new activation starts with it clear, and the caller's value
// after a call is what it was before (the manual leaves it open).
//
// CC.CF is the carry out of the unsigned addition of the operands' bit
// patterns (a + b + CF), or the borrow out of the unsigned subtraction
// a - (b + CF): "behavior is the same for unsigned and signed integers".
// For mad.cc/madc the carry is that of the addition of the selected half of
// the product (t<31..0> or t<63..32> for 32 bits, t<63..0> or t<127..64>
// for 64 bits, the product signed for .s types) to c (and CF).

import (
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/ir"
)

func init() {
	register(lowerCarryOp, "addc", "subc", "madc")
}

// lowerCarryOp lowers add.cc, sub.cc, mad.cc (from lowerInt) and addc,
// subc, madc.
func lowerCarryOp(l *lowering, in *ir.Inst, o *Op) error {
	t, ok := parseInt(typeOf(in))
	if !ok || t.bits < 32 {
		return l.unsupported(in, "type "+typeOf(in))
	}
	useIn := in.Opcode == "addc" || in.Opcode == "subc" || in.Opcode == "madc"
	setOut := hasMod(in, ".cc")
	switch in.Opcode {
	case "add", "addc":
		return l.carryOp(in, o, useIn, setOut, func(a, b, _, cin uint64) (uint64, uint64) {
			return addCarry(t, a, b, cin)
		})
	case "sub", "subc":
		return l.carryOp(in, o, useIn, setOut, func(a, b, _, bin uint64) (uint64, uint64) {
			return subBorrow(t, a, b, bin)
		})
	case "mad", "madc":
		mode := in.Groups[".mode"]
		if mode != ".lo" && mode != ".hi" {
			return l.unsupported(in, "mode "+mode)
		}
		wide := intType{bits: min(64, 2*t.bits), signed: t.signed}
		return l.carryOp(in, o, useIn, setOut, func(a, b, c, cin uint64) (uint64, uint64) {
			return addCarry(t, mulMode(t, wide, mode, a, b), c, cin)
		})
	}
	return l.unsupported(in, "")
}

// addCarry adds the bit patterns of a and b (of type t, 32 or 64 bits) and
// the carry-in; it returns the sum as a value of t and the carry-out.
func addCarry(t intType, a, b, cin uint64) (uint64, uint64) {
	if t.bits == 64 {
		return bits.Add64(a, b, cin)
	}
	s := a&t.mask() + b&t.mask() + cin
	return t.norm(s), s >> uint(t.bits) & 1
}

// subBorrow computes a - (b + bin) on the bit patterns of type t; it
// returns the difference as a value of t and the borrow-out.
func subBorrow(t intType, a, b, bin uint64) (uint64, uint64) {
	if t.bits == 64 {
		return bits.Sub64(a, b, bin)
	}
	s := a&t.mask() - b&t.mask() - bin
	return t.norm(s), s >> 63
}

// carryOp lowers an instruction that may read CC.CF (useIn) and write it
// (setOut); fn gets the lane's operands (c is 0 for two-operand forms) and
// carry-in, and returns the result and carry-out.
func (l *lowering) carryOp(in *ir.Inst, o *Op, useIn, setOut bool, fn func(a, b, c, cin uint64) (uint64, uint64)) error {
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	n := len(in.Operands) - 1
	if n < 2 || n > 3 {
		return l.unsupported(in, "operands")
	}
	var src [3]int32
	for k := 0; k < n; k++ {
		if src[k], err = l.src(in, k+1); err != nil {
			return err
		}
	}
	if n == 2 {
		src[2] = l.constSlot(0)
	}
	o.d, o.a, o.b, o.c = d, src[0], src[1], src[2]
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		r := f.regs
		dd, aa, bb, cc := int(o.d)*warpSize, int(o.a)*warpSize, int(o.b)*warpSize, int(o.c)*warpSize
		var out uint32
		for m := mask; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			var cin uint64
			if useIn {
				cin = uint64(f.carry >> uint(i) & 1)
			}
			v, co := fn(r[aa+i], r[bb+i], r[cc+i], cin)
			r[dd+i] = v
			out |= uint32(co) << uint(i)
		}
		if setOut {
			f.carry = f.carry&^mask | out
		}
	}
	return nil
}
