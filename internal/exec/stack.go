package exec

// Stack manipulation (9.7.17): alloca, stacksave, stackrestore, on the
// threads' local memory. The local stack top is shared by a warp's lanes
// (frames sit at the same offset in every lane), so alloca raises it by
// the largest size any executing lane asks for.

import (
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/ir"
)

func init() {
	register(lowerAlloca, "alloca")
	register(lowerStacksave, "stacksave")
	register(lowerStackrestore, "stackrestore")
}

// alloca.type ptr, size{, immAlign}: ptr is a local address.
func lowerAlloca(l *lowering, in *ir.Inst, o *Op) error {
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	size, err := l.src(in, 1)
	if err != nil {
		return err
	}
	o.d, o.a, o.imm = d, size, 8
	if len(in.Operands) > 2 && in.Operands[2].Kind == ir.OpImm {
		o.imm = in.Operands[2].Imm.Uint64()
	}
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		var most uint64
		for m := mask; m != 0; m &= m - 1 {
			most = max(most, f.regs[int(o.a)*warpSize+bits.TrailingZeros32(m)])
		}
		base := align(w.stack, max(o.imm, 1))
		w.stack = base + most
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			if uint64(len(w.local[lane])) < w.stack {
				grown := make([]byte, max(w.stack, 2*uint64(len(w.local[lane]))))
				copy(grown, w.local[lane])
				w.local[lane] = grown
			}
			f.regs[int(o.d)*warpSize+lane] = base
		}
	}
	return nil
}

func lowerStacksave(l *lowering, in *ir.Inst, o *Op) error {
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	o.d = d
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		for m := mask; m != 0; m &= m - 1 {
			f.regs[int(o.d)*warpSize+bits.TrailingZeros32(m)] = w.stack
		}
	}
	return nil
}

func lowerStackrestore(l *lowering, in *ir.Inst, o *Op) error {
	a, err := l.src(in, 0)
	if err != nil {
		return err
	}
	o.a = a
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		if v := f.regs[int(o.a)*warpSize+bits.TrailingZeros32(mask)]; v >= f.base {
			w.stack = v
		}
	}
	return nil
}
