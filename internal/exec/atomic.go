package exec

// atom and red (9.7.13.5-6) on scalar integer and f32/f64 values. Global
// memory is shared by the CTAs running on every worker, so global atomics
// hold the program's atomic lock; shared memory belongs to one CTA, whose
// warps run on one goroutine, so its atomics need no lock. The .sem and
// .scope qualifiers are satisfied by this (every atomic is sequentially
// consistent). Vector, packed-half and .b128 forms come with the
// cooperation work.

import (
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
)

func init() {
	register(lowerAtom, "atom", "red")
}

func lowerAtom(l *lowering, in *ir.Inst, o *Op) error {
	t := typeOf(in)
	op := in.Groups[".op"]
	if op == "" {
		for _, m := range []string{".add", ".min", ".max", ".inc", ".dec", ".and", ".or", ".xor", ".exch", ".cas"} {
			if hasMod(in, m) {
				op = m
			}
		}
	}
	n := typeBits(t) / 8
	if op == "" || n != 4 && n != 8 || hasMod(in, ".v2") || hasMod(in, ".v4") || hasMod(in, ".v8") {
		return l.unsupported(in, "")
	}
	ops := in.Operands
	d := int32(-1)
	if in.Opcode == "atom" {
		var err error
		if d, err = l.dst(in, 0); err != nil {
			return err
		}
		ops = ops[1:]
	}
	if err := l.address(in, ops[0], o); err != nil {
		return err
	}
	base := len(in.Operands) - len(ops)
	b, err := l.src(in, base+1)
	if err != nil {
		return err
	}
	c := int32(-1)
	if op == ".cas" {
		if c, err = l.src(in, base+2); err != nil {
			return err
		}
	}
	it, isInt := parseInt(t)
	apply := atomicOp(op, t, it, isInt)
	if apply == nil {
		return l.unsupported(in, "")
	}
	o.d, o.b, o.c, o.size = d, b, c, n
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		global := o.space == mem.SpaceGlobal || o.space == mem.SpaceGeneric
		if global {
			w.cta.l.prog.atomicMu.Lock()
			defer w.cta.l.prog.atomicMu.Unlock()
		}
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			p := w.access(o, lane, uint64(o.size))
			if p == nil {
				return
			}
			old := mem.Load(p)
			var cv uint64
			if o.c >= 0 {
				cv = f.regs[int(o.c)*warpSize+lane]
			}
			mem.Store(p, apply(old, f.regs[int(o.b)*warpSize+lane], cv))
			if o.d >= 0 {
				if isInt {
					old = it.norm(old)
				}
				f.regs[int(o.d)*warpSize+lane] = old
			}
		}
	}
	return nil
}

// atomicOp returns the new memory value from the old one and the operands.
func atomicOp(op, t string, it intType, isInt bool) func(old, b, c uint64) uint64 {
	if t == ".f32" || t == ".f64" {
		get := func(v uint64) float64 {
			if t == ".f32" {
				return float64(f32(v))
			}
			return f64(v)
		}
		put := func(x float64) uint64 {
			if t == ".f32" {
				return of32(float32(x))
			}
			return of64(x)
		}
		switch op {
		case ".add":
			return func(old, b, _ uint64) uint64 { return put(get(old) + get(b)) }
		case ".min":
			return func(old, b, _ uint64) uint64 { return put(minNum(false, get(old), get(b))) }
		case ".max":
			return func(old, b, _ uint64) uint64 { return put(minNum(true, get(old), get(b))) }
		case ".exch":
			return func(_, b, _ uint64) uint64 { return b }
		}
		return nil
	}
	if !isInt {
		return nil
	}
	less := func(a, b uint64) bool {
		if it.signed {
			return it.signedVal(a) < it.signedVal(b)
		}
		return a&it.mask() < b&it.mask()
	}
	switch op {
	case ".add":
		return func(old, b, _ uint64) uint64 { return it.norm(old + b) }
	case ".min":
		return func(old, b, _ uint64) uint64 {
			if less(b, old) {
				return b
			}
			return old
		}
	case ".max":
		return func(old, b, _ uint64) uint64 {
			if less(old, b) {
				return b
			}
			return old
		}
	case ".inc": // ((old >= b) ? 0 : old+1)
		return func(old, b, _ uint64) uint64 {
			if old&it.mask() >= b&it.mask() {
				return 0
			}
			return old + 1
		}
	case ".dec": // ((old == 0) || (old > b)) ? b : old-1
		return func(old, b, _ uint64) uint64 {
			if old&it.mask() == 0 || old&it.mask() > b&it.mask() {
				return b
			}
			return old - 1
		}
	case ".and":
		return func(old, b, _ uint64) uint64 { return old & b }
	case ".or":
		return func(old, b, _ uint64) uint64 { return old | b }
	case ".xor":
		return func(old, b, _ uint64) uint64 { return old ^ b }
	case ".exch":
		return func(_, b, _ uint64) uint64 { return b }
	case ".cas":
		return func(old, b, c uint64) uint64 {
			if old&it.mask() == b&it.mask() {
				return c
			}
			return old
		}
	}
	return nil
}
