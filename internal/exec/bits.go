package exec

// Predicate logic (9.7.8 on .pred), bit-field and funnel-shift
// instructions (9.7.1.19-20, 9.7.8.6), prmt (9.7.9.7), lop3 (9.7.8.5),
// copysign (9.7.3.2), mul24/mad24 (9.7.1.5-6).

import (
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/ir"
)

func init() {
	register(lowerBits, "bfe", "bfi", "shf", "prmt", "lop3", "copysign")
}

// lowerPredLogic lowers and/or/xor/not/cnot on predicates.
func lowerPredLogic(l *lowering, in *ir.Inst, o *Op) error {
	d, _, err := l.pred(in, 0)
	if err != nil {
		return err
	}
	a, aneg, err := l.pred(in, 1)
	if err != nil {
		return err
	}
	b, bneg := int32(-1), false
	if len(in.Operands) > 2 {
		if b, bneg, err = l.pred(in, 2); err != nil {
			return err
		}
	}
	op := in.Opcode
	// traces run and, or and xor as predlogic bodies (trace.go), not as
	// and of the negated operand with itself; o.k holds the operands'
	// negations (all ones in the low half for a, the high half for b)
	o.d, o.a, o.b, o.k = d, a, b, 0
	if aneg {
		o.k |= 0xffffffff
	}
	if bneg {
		o.k |= 0xffffffff << 32
	}
	switch op {
	case "and", "or", "xor":
		o.memTrace = "predlogic:" + op
	case "not", "cnot": // not x is (^x) & (^x)
		o.memTrace, o.b, o.k = "predlogic:and", a, ^uint64(0)
		if aneg {
			o.k = 0
		}
	}
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		x := f.preds[a]
		if aneg {
			x = ^x
		}
		var y uint32
		if b >= 0 {
			y = f.preds[b]
			if bneg {
				y = ^y
			}
		}
		var r uint32
		switch op {
		case "and":
			r = x & y
		case "or":
			r = x | y
		case "xor":
			r = x ^ y
		case "not", "cnot":
			r = ^x
		}
		f.preds[d] = f.preds[d]&^mask | r&mask
	}
	return nil
}

func lowerBits(l *lowering, in *ir.Inst, o *Op) error {
	t := typeOf(in)
	it, _ := parseInt(t)
	switch in.Opcode {
	case "bfe": // bfe.type d, a, b, c: extract c bits from position b, sign-extending for .s
		if it.bits == 0 {
			return l.unsupported(in, "type "+t)
		}
		fn := func(a, b, c uint64) uint64 { return bfe(it, a, b, c) }
		if v := simdTernary("bfe" + t); v != nil {
			return l.ternaryVec(in, o, fn, v)
		}
		return l.ternaryVec(in, o, fn, func(d, a, b, c *lanes) {
			for i := range d {
				d[i] = bfe(it, a[i], b[i], c[i])
			}
		})
	case "bfi": // bfi.type f, a, b, c, d: insert d bits of a into b at position c
		if len(in.Operands) != 5 {
			return l.unsupported(in, "")
		}
		dst, err := l.dst(in, 0)
		if err != nil {
			return err
		}
		var src [4]int32
		for k := 0; k < 4; k++ {
			if src[k], err = l.src(in, k+1); err != nil {
				return err
			}
		}
		o.exec = func(w *Warp, o *Op, mask uint32) {
			r := w.top().regs
			for m := mask; m != 0; m &= m - 1 {
				i := bits.TrailingZeros32(m)
				a, b := r[int(src[0])*warpSize+i], r[int(src[1])*warpSize+i]
				r[int(dst)*warpSize+i] = bfi(it, a, b, r[int(src[2])*warpSize+i], r[int(src[3])*warpSize+i])
			}
		}
		return nil
	case "shf": // shf.{l,r}.{clamp,wrap}.b32 d, a, b, c: funnel shift of b:a by c
		left := hasMod(in, ".l")
		clamp := hasMod(in, ".clamp")
		shf := func(a, b, c uint64) uint64 {
			n := uint32(c)
			if clamp {
				n = min(n, 32)
			} else {
				n &= 31
			}
			v := uint64(uint32(b))<<32 | uint64(uint32(a))
			if left {
				return uint64(uint32((v << n) >> 32))
			}
			return uint64(uint32(v >> n))
		}
		return l.ternaryVec(in, o, shf, shfVec(left, clamp))
	case "prmt": // prmt.b32{.mode} d, a, b, c
		mode := in.Groups[".mode"]
		if mode == "" {
			for _, m := range in.Mods {
				if _, ok := prmtModes[m]; ok {
					mode = m
				}
			}
		}
		if mode == "" {
			fn := func(a, b, c uint64) uint64 { return prmtDefault(a, b, c) }
			if v := simdTernary("prmt.uniform"); v != nil && len(in.Operands) == 4 && in.Operands[3].Kind == ir.OpImm {
				return l.ternaryVec(in, o, fn, v) // the selector the same in every lane
			}
			return l.ternaryVec(in, o, fn,
				func(d, a, b, c *lanes) {
					for i := range d {
						d[i] = prmtDefault(a[i], b[i], c[i])
					}
				})
		}
		table, ok := prmtModes[mode]
		if !ok {
			return l.unsupported(in, "prmt mode "+mode)
		}
		return l.ternary(in, o, func(a, b, c uint64) uint64 {
			src := uint64(uint32(b))<<32 | uint64(uint32(a))
			sel := table[c&3]
			var d uint64
			for k := 0; k < 4; k++ {
				d |= (src >> (8 * uint(sel[k])) & 0xff) << (8 * k)
			}
			return d
		})
	case "lop3": // lop3.b32 d, a, b, c, immLut; lop3.BoolOp.b32 d|p, a, b, c, immLut, q
		return lowerLop3(l, in, o)
	case "copysign": // copysign.type d, a, b: |b| with the sign of a
		vec, _ := simdBinary("copysign" + t)
		if t == ".f32" {
			return l.binaryVec(in, o, func(a, b uint64) uint64 { return uint64(uint32(b)&0x7fffffff | uint32(a)&0x80000000) }, vec)
		}
		return l.binaryVec(in, o, func(a, b uint64) uint64 { return b&^(1<<63) | a&(1<<63) }, vec)
	}
	return l.unsupported(in, "")
}

// prmtDefault is prmt's generic form (9.7.9.7): each 4-bit selector of c
// picks a byte of {b, a}; its msb replicates the byte's sign bit instead.
func prmtDefault(a, b, c uint64) uint64 {
	src := uint64(uint32(b))<<32 | uint64(uint32(a))
	var d uint64
	for k := 0; k < 4; k++ {
		sel := c >> (4 * k) & 0xf
		byteV := src >> (8 * (sel & 7)) & 0xff
		if sel&8 != 0 { // replicate the sign bit
			if byteV&0x80 != 0 {
				byteV = 0xff
			} else {
				byteV = 0
			}
		}
		d |= byteV << (8 * k)
	}
	return d
}

// prmtModes gives, per named mode and selector c[1:0], the source byte of
// d.b0, d.b1, d.b2, d.b3 (the manual's table, which lists them b3 first).
// The manual's syntax line spells the edge-clamp-left mode ".ec1"; the
// table and the instruction table spell it ".ecl": both are accepted.
var prmtModes = map[string][4][4]uint8{
	".f4e":  {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
	".b4e":  {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
	".rc8":  {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
	".ecl":  {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
	".ec1":  {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
	".ecr":  {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
	".rc16": {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
}

// lop3Lut applies the look-up table lut bit by bit to a, b, c (9.7.8.6).
func lop3Lut(lut, a, b, c uint64) uint64 {
	// bit i of d is bit (a_i<<2 | b_i<<1 | c_i) of lut: the OR of the
	// minterms whose lut bit is set, all 32 bits at once
	var d uint64
	for i := uint(0); i < 8; i++ {
		if lut>>i&1 == 0 {
			continue
		}
		x, y, z := ^a, ^b, ^c
		if i&4 != 0 {
			x = a
		}
		if i&2 != 0 {
			y = b
		}
		if i&1 != 0 {
			z = c
		}
		d |= x & y & z
	}
	return d & 0xffffffff
}

// lowerLop3 lowers lop3.b32 d, a, b, c, immLut and (PTX 8.2)
// lop3.BoolOp.b32 d|p, a, b, c, immLut, q with p = (d != 0) BoolOp q; d may
// be the sink `_`.
func lowerLop3(l *lowering, in *ir.Inst, o *Op) error {
	if len(in.Operands) < 5 || in.Operands[4].Kind != ir.OpImm {
		return l.unsupported(in, "")
	}
	lut := in.Operands[4].Imm.Uint64() & 0xff
	boolOp := in.Groups[".BoolOp"]
	if boolOp == "" {
		for _, m := range in.Mods {
			if m == ".or" || m == ".and" {
				boolOp = m
			}
		}
	}
	if boolOp == "" {
		if len(in.Operands) != 5 {
			return l.unsupported(in, "")
		}
		sub := *in
		sub.Operands = in.Operands[:4]
		return l.ternaryVec(&sub, o, func(a, b, c uint64) uint64 { return lop3Lut(lut, a, b, c) },
			func(d, a, b, c *lanes) {
				for i := range d {
					d[i] = lop3Lut(lut, a[i], b[i], c[i])
				}
			})
	}
	if len(in.Operands) != 6 || in.Operands[0].Kind != ir.OpPair || len(in.Operands[0].Elems) != 2 {
		return l.unsupported(in, "operands")
	}
	pair := in.Operands[0].Elems
	sub := *in
	sub.Operands = []ir.Operand{pair[0]}
	d, err := l.dst(&sub, 0)
	if err != nil {
		return err
	}
	p := int32(-1)
	switch {
	case pair[1].Kind == ir.OpReg && pair[1].Reg.Type == ".pred":
		p = l.f.slot[pair[1].Reg.ID]
	case pair[1].Kind != ir.OpSink:
		return l.unsupported(in, "predicate destination")
	}
	var src [3]int32
	for k := range src {
		if src[k], err = l.src(in, k+1); err != nil {
			return err
		}
	}
	q, qneg, err := l.pred(in, 5)
	if err != nil {
		return err
	}
	isOr := boolOp == ".or"
	o.d, o.a, o.b, o.c = d, src[0], src[1], src[2]
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		r := f.regs
		dd, aa, bb, cc := int(o.d)*warpSize, int(o.a)*warpSize, int(o.b)*warpSize, int(o.c)*warpSize
		var nz uint32
		for m := mask; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			v := lop3Lut(lut, r[aa+i], r[bb+i], r[cc+i])
			r[dd+i] = v
			if v != 0 {
				nz |= 1 << uint(i)
			}
		}
		qv := f.preds[q]
		if qneg {
			qv = ^qv
		}
		res := nz & qv
		if isOr {
			res = nz | qv
		}
		if p >= 0 {
			f.preds[p] = f.preds[p]&^mask | res&mask
		}
	}
	return nil
}

// shfVec returns the warp loop of shf: the funnel shift written out for each
// direction and mode, so that no lane calls a function.
func shfVec(left, clamp bool) func(d, a, b, c *lanes) {
	key := "shf.r.wrap"
	switch {
	case left && clamp:
		key = "shf.l.clamp"
	case left:
		key = "shf.l.wrap"
	case clamp:
		key = "shf.r.clamp"
	}
	if v := simdTernary(key); v != nil {
		return v
	}
	switch {
	case left && clamp:
		return func(d, a, b, c *lanes) {
			for i := range d {
				v := uint64(uint32(b[i]))<<32 | uint64(uint32(a[i]))
				d[i] = uint64(uint32((v << min(uint32(c[i]), 32)) >> 32))
			}
		}
	case left:
		return func(d, a, b, c *lanes) {
			for i := range d {
				v := uint64(uint32(b[i]))<<32 | uint64(uint32(a[i]))
				d[i] = uint64(uint32((v << (uint32(c[i]) & 31)) >> 32))
			}
		}
	case clamp:
		return func(d, a, b, c *lanes) {
			for i := range d {
				v := uint64(uint32(b[i]))<<32 | uint64(uint32(a[i]))
				d[i] = uint64(uint32(v >> min(uint32(c[i]), 32)))
			}
		}
	}
	return func(d, a, b, c *lanes) {
		for i := range d {
			v := uint64(uint32(b[i]))<<32 | uint64(uint32(a[i]))
			d[i] = uint64(uint32(v >> (uint32(c[i]) & 31)))
		}
	}
}

// bfe is bfe.type's value (9.7.8.9): the len = c[7:0] bits of a from
// position pos = b[7:0], the bits past a's msb or past len filled with
// the sign bit (.s: bit min(pos+len-1, msb) of a, 0 when len is 0) or with
// zeros (.u).
func bfe(it intType, a, b, c uint64) uint64 {
	msb := uint64(it.bits - 1)
	pos, ln := b&0xff, c&0xff
	var k uint64 // the bits taken from a
	if pos <= msb {
		k = min(ln, msb+1-pos)
	}
	var d uint64
	if k > 0 {
		d = a >> pos & (1<<k - 1)
	}
	if it.signed && ln != 0 && a>>min(pos+ln-1, msb)&1 != 0 {
		d |= ^(1<<k - 1) // the sign bit above the field
	}
	return it.norm(d)
}

// bfi is bfi.type's value (9.7.8.10): b with its bits from position pos =
// c[7:0] on replaced by the low len = d[7:0] bits of a, as far as the
// width reaches.
func bfi(it intType, a, b, c, d uint64) uint64 {
	pos, ln := c&0xff, d&0xff
	var k uint64 // the bits inserted
	if pos < uint64(it.bits) {
		k = min(ln, uint64(it.bits)-pos)
	}
	f := b & it.mask()
	if k == 0 {
		return f
	}
	m := (uint64(1)<<k - 1) << pos
	return f&^m | a<<pos&m
}
