package exec

// Arithmetic, logic, comparison and conversion: the integer instructions of
// 9.7.1, logic and shifts of 9.7.8, comparison and selection of 9.7.6, mov
// (9.7.9.3-4), and f32/f64 arithmetic and cvt in round-to-nearest (9.7.3,
// 9.7.9.21). Other rounding modes and the narrow float formats come with
// the numerics work and are reported unsupported until then.
//
// Registers hold 64-bit slots; a handler reads the low bits its type
// needs and writes results zero-extended (sign-extended for signed types).

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/fp"
	"github.com/ptxvm/ptxvm/internal/ir"
)

func init() {
	register(lowerMov, "mov")
	register(lowerIntOrFloat, "add", "sub", "mul", "mad", "div", "rem", "min", "max", "abs", "neg", "fma")
	register(lowerInt, "mul24", "mad24", "popc", "clz", "brev", "and", "or", "xor", "not", "cnot", "shl", "shr", "sad")
	register(lowerSetp, "setp")
	register(lowerSelp, "selp")
}

// intType describes an integer (or bit) type: width and signedness.
type intType struct {
	bits   int
	signed bool
}

func parseInt(t string) (intType, bool) {
	if len(t) < 3 || (t[1] != 's' && t[1] != 'u' && t[1] != 'b') {
		return intType{}, false
	}
	n := typeBits(t)
	if n != 8 && n != 16 && n != 32 && n != 64 {
		return intType{}, false
	}
	return intType{n, t[1] == 's'}, true
}

func (t intType) mask() uint64 {
	if t.bits == 64 {
		return ^uint64(0)
	}
	return 1<<uint(t.bits) - 1
}

// norm truncates v to the type and extends it back to 64 bits.
func (t intType) norm(v uint64) uint64 {
	if t.signed && t.bits < 64 {
		s := 64 - uint(t.bits)
		return uint64(int64(v<<s) >> s)
	}
	return v & t.mask()
}

func (t intType) signedVal(v uint64) int64 {
	s := 64 - uint(t.bits)
	return int64(v<<s) >> s
}

// Per-lane loops over registers, by arity. The lane function lives in the
// op (fn1, fn2, fn3) and exec and lane are functions of the package, not
// closures over it: lowering a module made two or three closures per
// register op, most of its allocations.

func (l *lowering) unary(in *ir.Inst, o *Op, fn func(a uint64) uint64) error {
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	a, err := l.src(in, 1)
	if err != nil {
		return err
	}
	o.d, o.a, o.pure, o.nsrc = d, a, true, 1
	o.fn1, o.exec, o.lane = fn, unaryExec, unaryLane
	return nil
}

func unaryExec(w *Warp, o *Op, mask uint32) {
	r, fn := w.top().regs, o.fn1
	dd, aa := int(o.d)*warpSize, int(o.a)*warpSize
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		r[dd+i] = fn(r[aa+i])
	}
}

func unaryLane(f *frame, o *Op, i int) {
	r := f.regs
	r[int(o.d)*warpSize+i] = o.fn1(r[int(o.a)*warpSize+i])
}

func (l *lowering) binary(in *ir.Inst, o *Op, fn func(a, b uint64) uint64) error {
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
	o.d, o.a, o.b, o.pure, o.nsrc = d, a, b, true, 2
	o.fn2, o.exec, o.lane = fn, binaryExec, binaryLane
	return nil
}

func binaryExec(w *Warp, o *Op, mask uint32) {
	r, fn := w.top().regs, o.fn2
	dd, aa, bb := int(o.d)*warpSize, int(o.a)*warpSize, int(o.b)*warpSize
	if mask == ^uint32(0) {
		for i := 0; i < warpSize; i++ {
			r[dd+i] = fn(r[aa+i], r[bb+i])
		}
		return
	}
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		r[dd+i] = fn(r[aa+i], r[bb+i])
	}
}

func binaryLane(f *frame, o *Op, i int) {
	r := f.regs
	r[int(o.d)*warpSize+i] = o.fn2(r[int(o.a)*warpSize+i], r[int(o.b)*warpSize+i])
}

func (l *lowering) ternary(in *ir.Inst, o *Op, fn func(a, b, c uint64) uint64) error {
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
	c, err := l.src(in, 3)
	if err != nil {
		return err
	}
	o.d, o.a, o.b, o.c, o.pure, o.nsrc = d, a, b, c, true, 3
	o.fn3, o.exec, o.lane = fn, ternaryExec, ternaryLane
	return nil
}

func ternaryExec(w *Warp, o *Op, mask uint32) {
	r, fn := w.top().regs, o.fn3
	dd, aa, bb, cc := int(o.d)*warpSize, int(o.a)*warpSize, int(o.b)*warpSize, int(o.c)*warpSize
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		r[dd+i] = fn(r[aa+i], r[bb+i], r[cc+i])
	}
}

func ternaryLane(f *frame, o *Op, i int) {
	r := f.regs
	r[int(o.d)*warpSize+i] = o.fn3(r[int(o.a)*warpSize+i], r[int(o.b)*warpSize+i], r[int(o.c)*warpSize+i])
}

// mov d, a: registers, immediates, special registers, addresses of
// variables; predicates; packing {a, b} into d and unpacking d into {a, b}.
func lowerMov(l *lowering, in *ir.Inst, o *Op) error {
	t := o.typ
	if t == ".pred" {
		p, _, err := l.pred(in, 0)
		if err != nil {
			return err
		}
		q, neg, err := l.pred(in, 1)
		if err != nil {
			return err
		}
		o.d, o.a, o.neg = p, q, neg
		o.exec = func(w *Warp, o *Op, mask uint32) {
			f := w.top()
			v := f.preds[o.a]
			f.preds[o.d] = f.preds[o.d]&^mask | v&mask
		}
		return nil
	}
	n := typeBits(t)
	if n == 0 || n > 64 {
		return l.unsupported(in, "type "+t)
	}
	d, s := in.Operands[0], in.Operands[1]
	switch {
	case s.Kind == ir.OpVector: // pack
		return l.pack(in, o, n)
	case d.Kind == ir.OpVector: // unpack
		return l.unpack(in, o, n)
	}
	it := intType{bits: n}
	vec := vecNorm(it, it)
	if s.Kind == ir.OpSreg && (n == 64 || !isClock(s.Sreg) && s.Sreg != "%globaltimer") {
		// a special register's row is already normalised (fillSreg): copy it
		// (the 64-bit copy, AVX2 where there is one, so traces take it)
		vec = vecNorm(intType{bits: 64}, intType{bits: 64})
	}
	return l.unaryVec(in, o, func(a uint64) uint64 { return it.norm(a) }, vec)
}

func (l *lowering) pack(in *ir.Inst, o *Op, n int) error {
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	elems := in.Operands[1].Elems
	width := uint(n / len(elems))
	var slots []int32
	for k := range elems {
		sub := *in
		sub.Operands = []ir.Operand{elems[k]}
		sub.Types = nil
		s, err := l.src(&sub, 0)
		if err != nil {
			return err
		}
		slots = append(slots, s)
	}
	o.d, o.vec = d, slots
	if len(slots) == 2 && (width == 32 || width == 16) {
		o.memTrace = fmt.Sprintf("pack:%d", width) // (traces: trace.go's packEntry)
	}
	emask := uint64(1)<<width - 1
	o.exec = func(w *Warp, o *Op, mask uint32) {
		r := w.top().regs
		if mask == ^uint32(0) { // a whole warp: element by element, row by row
			var v lanes
			for k, s := range o.vec {
				src, sh := (*lanes)(r[int(s)*warpSize:]), width*uint(k)
				for i := range v {
					v[i] |= (src[i] & emask) << sh
				}
			}
			*(*lanes)(r[int(o.d)*warpSize:]) = v
			return
		}
		for m := mask; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			var v uint64
			for k, s := range o.vec {
				v |= (r[int(s)*warpSize+i] & emask) << (width * uint(k))
			}
			r[int(o.d)*warpSize+i] = v
		}
	}
	return nil
}

func (l *lowering) unpack(in *ir.Inst, o *Op, n int) error {
	a, err := l.src(in, 1)
	if err != nil {
		return err
	}
	elems := in.Operands[0].Elems
	width := uint(n / len(elems))
	var slots []int32
	for _, e := range elems {
		switch e.Kind {
		case ir.OpSink:
			slots = append(slots, -1)
		case ir.OpReg:
			slots = append(slots, l.reg(e))
		default:
			return l.unsupported(in, "unpack operand")
		}
	}
	o.a, o.vec = a, slots
	if len(slots) == 2 && (width == 32 || width == 16) && (slots[0] >= 0 || slots[1] >= 0) {
		// (traces: trace.go's packEntry; one element a sink, the other only)
		part := map[[2]bool]string{{true, true}: "", {true, false}: "lo", {false, true}: "hi"}[[2]bool{slots[0] >= 0, slots[1] >= 0}]
		o.memTrace = fmt.Sprintf("unpack:%d%s", width, part)
	}
	emask := uint64(1)<<width - 1
	o.exec = func(w *Warp, o *Op, mask uint32) {
		r := w.top().regs
		if mask == ^uint32(0) { // a whole warp: element by element, row by row
			v := *(*lanes)(r[int(o.a)*warpSize:]) // (a destination may be the source)
			for k, s := range o.vec {
				if s < 0 {
					continue
				}
				dst, sh := (*lanes)(r[int(s)*warpSize:]), width*uint(k)
				for i := range dst {
					dst[i] = v[i] >> sh & emask
				}
			}
			return
		}
		for m := mask; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			v := r[int(o.a)*warpSize+i]
			for k, s := range o.vec {
				if s >= 0 {
					r[int(s)*warpSize+i] = v >> (width * uint(k)) & emask
				}
			}
		}
	}
	return nil
}

func lowerIntOrFloat(l *lowering, in *ir.Inst, o *Op) error {
	t := o.typ
	if t == "" {
		for _, m := range in.Mods {
			if m == ".f32x2" {
				t = m
			}
		}
	}
	if _, _, ok := floatType(t); ok {
		return lowerFloat(l, in, o)
	}
	return lowerInt(l, in, o)
}

// lowerInt lowers the integer and bit instructions.
func lowerInt(l *lowering, in *ir.Inst, o *Op) error {
	if o.typ == ".pred" {
		return lowerPredLogic(l, in, o)
	}
	if p, ok := packedOf(in); ok {
		return lowerPacked(l, in, o, p)
	}
	if hasMod(in, ".cc") {
		return lowerCarryOp(l, in, o)
	}
	t, ok := parseInt(o.typ)
	if !ok {
		return l.unsupported(in, "type "+o.typ)
	}
	relu := hasMod(in, ".relu")
	if relu && (in.Opcode != "min" && in.Opcode != "max" || !t.signed) {
		return l.unsupported(in, "")
	}
	mode := in.Groups[".mode"]
	for _, m := range []string{".hi", ".lo", ".wide"} {
		if mode == "" && hasMod(in, m) { // literal forms like mad.hi.sat.s32
			mode = m
		}
	}
	sat := hasMod(in, ".sat")
	wide := intType{bits: min(64, 2*t.bits), signed: t.signed}
	switch in.Opcode {
	case "add", "sub":
		sub := in.Opcode == "sub"
		if sat && !t.signed { // add.sat.u32 (PTX 9.2): clamp to 0..UINT32_MAX
			return l.binary(in, o, func(a, b uint64) uint64 {
				x, y := a&t.mask(), b&t.mask()
				if sub {
					if x < y {
						return 0
					}
					return x - y
				}
				return min(x+y, t.mask())
			})
		}
		var vec vecBin
		if !sat {
			vec = vecBinary(in.Opcode, "", t)
		}
		return l.binaryVec(in, o, func(a, b uint64) uint64 {
			if sat { // .sat applies to .s32: clamp to MININT..MAXINT
				x, y := int64(int32(a)), int64(int32(b))
				r := x + y
				if sub {
					r = x - y
				}
				return uint64(int64(max(math.MinInt32, min(math.MaxInt32, r))))
			}
			if sub {
				return t.norm(a - b)
			}
			return t.norm(a + b)
		}, vec)
	case "mul":
		err := l.binaryVec(in, o, func(a, b uint64) uint64 { return mulMode(t, wide, mode, a, b) }, vecBinary("mul", mode, t))
		if err == nil && mode == ".hi" && t.bits == 64 && !t.signed {
			// (traces: a 128-bit product's high half, lane by lane, a
			// scalar multiply each; its Go loop would cut a hash's trace)
			o.memTrace = map[bool]string{true: "mulhiU64K", false: "mulhiU64"}[o.vkind == vecK]
		}
		return err
	case "mad":
		return l.ternaryVec(in, o, func(a, b, c uint64) uint64 {
			if mode == ".hi" && sat { // mad.hi.sat.s32
				p := int64(int32(a)) * int64(int32(b)) >> 32
				return uint64(int64(max(math.MinInt32, min(math.MaxInt32, p+int64(int32(c))))))
			}
			p := mulMode(t, wide, mode, a, b)
			if mode == ".wide" {
				return wide.norm(p + c)
			}
			return t.norm(p + c)
		}, vecMad(mode, sat, t))
	case "mul24", "mad24": // 24-bit operands (the manual leaves the upper bits unspecified: they are ignored)
		mul24 := func(a, b uint64) uint64 {
			var p int64
			if t.signed {
				p = (int64(a<<40) >> 40) * (int64(b<<40) >> 40)
			} else {
				p = int64((a & 0xffffff) * (b & 0xffffff))
			}
			if mode == ".hi" {
				return t.norm(uint64(p) >> 16)
			}
			return t.norm(uint64(p))
		}
		if in.Opcode == "mul24" {
			return l.binary(in, o, mul24)
		}
		return l.ternary(in, o, func(a, b, c uint64) uint64 {
			if sat { // mad24.hi.sat.s32: 32-bit signed saturating addition
				return uint64(int64(max(math.MinInt32, min(math.MaxInt32, int64(int32(mul24(a, b)))+int64(int32(c))))))
			}
			return t.norm(mul24(a, b) + c)
		})
	case "div":
		div := func(a, b uint64) uint64 {
			if t.norm(b) == 0 {
				return t.norm(^uint64(0)) // unspecified (9.7.1.6): all ones
			}
			if t.signed {
				x, y := t.signedVal(a), t.signedVal(b)
				if y == -1 {
					return t.norm(uint64(-x))
				}
				return t.norm(uint64(x / y))
			}
			return (a & t.mask()) / (b & t.mask())
		}
		return l.binaryVec(in, o, div, vecDivRem("div", t, div))
	case "rem":
		rem := func(a, b uint64) uint64 {
			if t.norm(b) == 0 {
				return t.norm(a)
			}
			if t.signed {
				x, y := t.signedVal(a), t.signedVal(b)
				if y == -1 {
					return 0
				}
				return t.norm(uint64(x % y))
			}
			return (a & t.mask()) % (b & t.mask())
		}
		return l.binaryVec(in, o, rem, vecDivRem("rem", t, rem))
	case "min", "max":
		isMax := in.Opcode == "max"
		if len(in.Operands) != 3 {
			return l.unsupported(in, "three inputs")
		}
		var vec vecBin
		if !relu {
			vec = vecMinMax(in.Opcode, t)
		}
		return l.binaryVec(in, o, func(a, b uint64) uint64 {
			var less bool
			if t.signed {
				less = t.signedVal(a) < t.signedVal(b)
			} else {
				less = a&t.mask() < b&t.mask()
			}
			r := b
			if less != isMax {
				r = a
			}
			if relu && t.signedVal(r) < 0 { // .relu: a negative result is 0
				return 0
			}
			return t.norm(r)
		}, vec)
	case "abs":
		return l.unaryVec(in, o, func(a uint64) uint64 {
			if t.signedVal(a) < 0 {
				return t.norm(-a)
			}
			return t.norm(a)
		}, intUnaryVec("abs", t))
	case "neg":
		return l.unaryVec(in, o, func(a uint64) uint64 { return t.norm(-a) }, intUnaryVec("neg", t))
	case "popc":
		return l.unaryVec(in, o, func(a uint64) uint64 { return uint64(bits.OnesCount64(a & t.mask())) }, bitCountVec("popc", t))
	case "clz":
		return l.unaryVec(in, o, func(a uint64) uint64 { return uint64(bits.LeadingZeros64(a&t.mask()) - (64 - t.bits)) }, bitCountVec("clz", t))
	case "brev":
		return l.unaryVec(in, o, func(a uint64) uint64 { return bits.Reverse64(a) >> (64 - uint(t.bits)) }, bitCountVec("brev", t))
	case "and":
		return l.binaryVec(in, o, func(a, b uint64) uint64 { return (a & b) & t.mask() }, vecBinary("and", "", t))
	case "or":
		return l.binaryVec(in, o, func(a, b uint64) uint64 { return (a | b) & t.mask() }, vecBinary("or", "", t))
	case "xor":
		return l.binaryVec(in, o, func(a, b uint64) uint64 { return (a ^ b) & t.mask() }, vecBinary("xor", "", t))
	case "not":
		return l.unaryVec(in, o, func(a uint64) uint64 { return ^a & t.mask() }, intUnaryVec("not", t))
	case "cnot":
		return l.unary(in, o, func(a uint64) uint64 {
			if a&t.mask() == 0 {
				return 1
			}
			return 0
		})
	case "shl", "shr":
		left := in.Opcode == "shl"
		return l.binaryVec(in, o, func(a, b uint64) uint64 {
			n := uint32(b) // shift amounts beyond the width are clamped (9.7.8.7-8)
			if n > uint32(t.bits) {
				n = uint32(t.bits)
			}
			switch {
			case left:
				if n >= 64 {
					return 0
				}
				return t.norm(a << n)
			case t.signed:
				return t.norm(uint64(t.signedVal(a) >> min(n, 63)))
			default:
				if n >= 64 {
					return 0
				}
				return (a & t.mask()) >> n
			}
		}, vecBinary(in.Opcode, "", t))
	case "sad":
		return l.ternaryVec(in, o, func(a, b, c uint64) uint64 {
			var d uint64
			if t.signed {
				x, y := t.signedVal(a), t.signedVal(b)
				if x < y {
					x, y = y, x
				}
				d = uint64(x - y)
			} else {
				x, y := a&t.mask(), b&t.mask()
				if x < y {
					x, y = y, x
				}
				d = x - y
			}
			return t.norm(c + d)
		}, sadVec(t))
	}
	return l.unsupported(in, "")
}

// sadVec is sad's warp loop for 32-bit types (|a - b| + c), or nil.
func sadVec(t intType) func(d, a, b, c *lanes) {
	switch {
	case t.bits != 32:
		return nil
	case simdTernary("sad."+int32Name(t)) != nil:
		return simdTernary("sad." + int32Name(t))
	case t.signed:
		return func(d, a, b, c *lanes) {
			for i := range d {
				x, y := int64(int32(a[i])), int64(int32(b[i]))
				d[i] = uint64(int64(int32(uint32(c[i]) + uint32(max(x, y)-min(x, y)))))
			}
		}
	}
	return func(d, a, b, c *lanes) {
		for i := range d {
			x, y := uint32(a[i]), uint32(b[i])
			d[i] = uint64(uint32(c[i]) + max(x, y) - min(x, y))
		}
	}
}

// mulMode computes mul.lo/.hi/.wide (9.7.1.3).
func mulMode(t, wide intType, mode string, a, b uint64) uint64 {
	if t.signed {
		x, y := t.signedVal(a), t.signedVal(b)
		hi, lo := bits.Mul64(uint64(x), uint64(y))
		if x < 0 {
			hi -= uint64(y)
		}
		if y < 0 {
			hi -= uint64(x)
		}
		switch mode {
		case ".hi":
			if t.bits == 64 {
				return hi
			}
			return t.norm(uint64(x*y) >> uint(t.bits))
		case ".wide":
			return wide.norm(lo)
		}
		return t.norm(lo)
	}
	x, y := a&t.mask(), b&t.mask()
	hi, lo := bits.Mul64(x, y)
	switch mode {
	case ".hi":
		if t.bits == 64 {
			return hi
		}
		return t.norm(lo >> uint(t.bits))
	case ".wide":
		return wide.norm(lo)
	}
	return t.norm(lo)
}

// Floating point, f32 and f64, round to nearest even.

func f32(v uint64) float32  { return math.Float32frombits(uint32(v)) }
func of32(x float32) uint64 { return uint64(math.Float32bits(x)) }
func f64(v uint64) float64  { return math.Float64frombits(v) }
func of64(x float64) uint64 { return math.Float64bits(x) }

// ftz32 flushes an f32 subnormal to a zero of the same sign.
func ftz32(x float32) float32 {
	if x != 0 && math.Abs(float64(x)) < 0x1p-126 {
		return float32(math.Copysign(0, float64(x)))
	}
	return x
}

// setp.CmpOp{.BoolOp}.type p{|q}, a, b{, {!}c} (9.7.6.2).
func lowerSetp(l *lowering, in *ir.Inst, o *Op) error {
	t := o.typ
	cmp := in.Groups[".CmpOp"]
	if cmp == "" {
		return l.unsupported(in, "comparison")
	}
	boolOp := in.Groups[".BoolOp"]
	var p, q int32 = -1, -1
	dst := in.Operands[0]
	if dst.Kind == ir.OpPair {
		pp := dst.Elems[0]
		qq := dst.Elems[1]
		if pp.Kind == ir.OpReg {
			p = l.f.slot[pp.Reg.ID]
		}
		if qq.Kind == ir.OpReg {
			q = l.f.slot[qq.Reg.ID]
		}
	} else if dst.Kind == ir.OpReg {
		p = l.f.slot[dst.Reg.ID]
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
	if t == ".f16x2" || t == ".bf16x2" {
		// p|q receive the lanes' results: p the low half, q the high half,
		// each combined with c (9.7.7.2)
		lane, err := comparison(t[:len(t)-2], cmp, hasMod(in, ".ftz"))
		if err != nil {
			return l.unsupported(in, err.Error())
		}
		o.exec = func(w *Warp, o *Op, mask uint32) {
			f := w.top()
			r := f.regs
			var lo, hi uint32
			for m := mask; m != 0; m &= m - 1 {
				i := bits.TrailingZeros32(m)
				x, y := r[int(a)*warpSize+i], r[int(b)*warpSize+i]
				if lane(x, y) {
					lo |= 1 << i
				}
				if lane(x>>16, y>>16) {
					hi |= 1 << i
				}
			}
			if c >= 0 {
				cv := f.preds[c]
				if cneg {
					cv = ^cv
				}
				lo, hi = boolCombine(boolOp, lo, cv), boolCombine(boolOp, hi, cv)
			}
			if p >= 0 {
				f.preds[p] = f.preds[p]&^mask | lo&mask
			}
			if q >= 0 {
				f.preds[q] = f.preds[q]&^mask | hi&mask
			}
		}
		return nil
	}
	test, err := comparison(t, cmp, hasMod(in, ".ftz"))
	if err != nil {
		return l.unsupported(in, err.Error())
	}
	vec := vecCompare(t, cmp)
	if vec == nil {
		vec = vecFloatCompare(t, cmp, hasMod(in, ".ftz"))
	}
	if key, swap, ok := setpTrace(t, cmp, hasMod(in, ".ftz")); ok && boolOp == "" && q < 0 && p >= 0 {
		// traces run it (trace.go): rows o.a and o.b compared, the mask
		// stored to predicate o.d
		o.memTrace, o.a, o.b, o.d = key, a, b, p
		if swap {
			o.a, o.b = b, a
		}
	}
	masked := f32CompareMasked(t, cmp, hasMod(in, ".ftz"))
	if simdEnabled && vec != nil {
		// the AVX2 comparison of every lane costs less than a loop over a
		// partial mask's lanes; the test has no effects
		whole := vec
		masked = func(a, b *lanes, mask uint32) uint32 { return whole(a, b) & mask }
	}
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		r := f.regs
		var res uint32
		if vec != nil && mask == ^uint32(0) {
			aa, bb := int(a)*warpSize, int(b)*warpSize
			res = vec((*lanes)(r[aa:aa+warpSize]), (*lanes)(r[bb:bb+warpSize]))
		} else if masked != nil && bits.OnesCount32(mask) >= maskedMinLanes {
			res = masked((*lanes)(r[int(a)*warpSize:]), (*lanes)(r[int(b)*warpSize:]), mask)
		} else {
			for m := mask; m != 0; m &= m - 1 {
				i := bits.TrailingZeros32(m)
				if test(r[int(a)*warpSize+i], r[int(b)*warpSize+i]) {
					res |= 1 << i
				}
			}
		}
		setpWrite(f, p, q, c, cneg, boolOp, res, mask)
	}
	o.lane = func(f *frame, o *Op, i int) {
		var res uint32
		if test(f.regs[int(a)*warpSize+i], f.regs[int(b)*warpSize+i]) {
			res = 1 << i
		}
		setpWrite(f, p, q, c, cneg, boolOp, res, 1<<i)
	}
	return nil
}

// setpWrite writes a setp's comparison results res (a bit a lane) for the
// lanes of mask: to predicate p, and their complement to q (-1: none),
// each combined with predicate c (negated when cneg) by boolOp.
func setpWrite(f *frame, p, q, c int32, cneg bool, boolOp string, res, mask uint32) {
	np := ^res
	if c >= 0 {
		cv := f.preds[c]
		if cneg {
			cv = ^cv
		}
		res, np = boolCombine(boolOp, res, cv), boolCombine(boolOp, ^res, cv)
	}
	if p >= 0 {
		f.preds[p] = f.preds[p]&^mask | res&mask
	}
	if q >= 0 {
		f.preds[q] = f.preds[q]&^mask | np&mask
	}
}

func boolCombine(op string, x, c uint32) uint32 {
	switch op {
	case ".and":
		return x & c
	case ".or":
		return x | c
	}
	return x ^ c
}

type unsupportedError string

func (e unsupportedError) Error() string { return string(e) }

// comparison returns the test of a comparison operator for a type.
func comparison(t, cmp string, ftz bool) (func(a, b uint64) bool, error) {
	if f, n, ok := floatType(t); ok && n == 1 {
		// values widen exactly to f64, so comparing there is comparing
		// the operands (9.7.6.2, 9.7.7.2)
		elem := uint64(1)<<uint(f.Width()) - 1
		if f.Width() == 64 {
			elem = ^uint64(0)
		}
		get := func(v uint64) float64 {
			v &= elem
			if ftz {
				v = f.FlushSubnormal(v)
			}
			return f.ToFloat64(v)
		}
		if f == fp.F64 {
			get = f64
		}
		unordered := len(cmp) == 4 && cmp[3] == 'u' || cmp == ".nan"
		var base func(x, y float64) bool
		switch cmp {
		case ".eq", ".equ":
			base = func(x, y float64) bool { return x == y }
		case ".ne", ".neu":
			base = func(x, y float64) bool { return x != y }
		case ".lt", ".ltu":
			base = func(x, y float64) bool { return x < y }
		case ".le", ".leu":
			base = func(x, y float64) bool { return x <= y }
		case ".gt", ".gtu":
			base = func(x, y float64) bool { return x > y }
		case ".ge", ".geu":
			base = func(x, y float64) bool { return x >= y }
		case ".num":
			base = func(x, y float64) bool { return true }
		case ".nan":
			base = func(x, y float64) bool { return false }
		default:
			return nil, unsupportedError("comparison " + cmp)
		}
		return func(a, b uint64) bool {
			x, y := get(a), get(b)
			if math.IsNaN(x) || math.IsNaN(y) {
				return unordered
			}
			return base(x, y)
		}, nil
	}
	it, ok := parseInt(t)
	if !ok {
		return nil, unsupportedError("type " + t)
	}
	signed := it.signed
	switch cmp {
	case ".lo", ".ls", ".hi", ".hs":
		signed = false
	}
	less := func(a, b uint64) bool {
		if signed {
			return it.signedVal(a) < it.signedVal(b)
		}
		return a&it.mask() < b&it.mask()
	}
	eq := func(a, b uint64) bool { return a&it.mask() == b&it.mask() }
	switch cmp {
	case ".eq":
		return eq, nil
	case ".ne":
		return func(a, b uint64) bool { return !eq(a, b) }, nil
	case ".lt", ".lo":
		return less, nil
	case ".le", ".ls":
		return func(a, b uint64) bool { return less(a, b) || eq(a, b) }, nil
	case ".gt", ".hi":
		return func(a, b uint64) bool { return less(b, a) }, nil
	case ".ge", ".hs":
		return func(a, b uint64) bool { return !less(a, b) }, nil
	}
	return nil, unsupportedError("comparison " + cmp)
}

// selp.type d, a, b, c: d = c ? a : b.
func lowerSelp(l *lowering, in *ir.Inst, o *Op) error {
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
	c, neg, err := l.pred(in, 3)
	if err != nil {
		return err
	}
	// traces run it (trace.go): rows o.d, o.a, o.b, predicate o.c,
	// complemented by XOR with o.k
	o.memTrace, o.d, o.a, o.b, o.c = "selp", d, a, b, c
	if neg {
		o.k = 0xffffffff
	}
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		cv := f.preds[c]
		if neg {
			cv = ^cv
		}
		r := f.regs
		if simdEnabled {
			simdSelp((*lanes)(r[int(d)*warpSize:]), (*lanes)(r[int(a)*warpSize:]), (*lanes)(r[int(b)*warpSize:]), cv, mask)
			return
		}
		for m := mask; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			if cv&(1<<i) != 0 {
				r[int(d)*warpSize+i] = r[int(a)*warpSize+i]
			} else {
				r[int(d)*warpSize+i] = r[int(b)*warpSize+i]
			}
		}
	}
	o.lane = func(f *frame, o *Op, i int) {
		r := f.regs
		if (f.preds[c]>>i&1 != 0) != neg {
			r[int(d)*warpSize+i] = r[int(a)*warpSize+i]
		} else {
			r[int(d)*warpSize+i] = r[int(b)*warpSize+i]
		}
	}
	return nil
}

func roundInt(irnd string, x float64) float64 {
	switch irnd {
	case ".rni":
		return math.RoundToEven(x)
	case ".rzi":
		return math.Trunc(x)
	case ".rmi":
		return math.Floor(x)
	case ".rpi":
		return math.Ceil(x)
	}
	return x
}

// floatToInt converts an integral float to an integer type, saturating.
func floatToInt(x float64, t intType) uint64 {
	if math.IsNaN(x) {
		return 0
	}
	if t.signed {
		lo, hi := -math.Ldexp(1, t.bits-1), math.Ldexp(1, t.bits-1)
		switch {
		case x < lo:
			return uint64(int64(-1) << uint(t.bits-1))
		case x >= hi:
			return uint64(1)<<uint(t.bits-1) - 1
		}
		return uint64(int64(x))
	}
	hi := math.Ldexp(1, t.bits)
	switch {
	case x <= 0:
		return 0
	case x >= hi:
		return t.mask()
	}
	return uint64(x)
}

// saturate clamps an integer to the destination type's range.
func saturate(v uint64, src, dst intType) uint64 {
	var lo, hi int64
	if dst.signed {
		lo, hi = -1<<uint(dst.bits-1), 1<<uint(dst.bits-1)-1
		if dst.bits == 64 {
			lo, hi = math.MinInt64, math.MaxInt64
		}
	} else {
		lo = 0
		hi = int64(dst.mask())
		if dst.bits == 64 {
			hi = math.MaxInt64
		}
	}
	if src.signed {
		s := int64(v)
		return uint64(max(lo, min(hi, s)))
	}
	if dst.bits == 64 && !dst.signed {
		return v
	}
	if v > uint64(hi) {
		return uint64(hi)
	}
	return v
}
