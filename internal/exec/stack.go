package exec

// Stack manipulation (9.7.17): alloca, stacksave, stackrestore, on the
// threads' local memory. Each thread has its own stack pointer, starting at
// allocaTop and growing down; a function's allocations are released when it
// returns.

import (
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/ir"
)

func init() {
	register(lowerAlloca, "alloca")
	register(lowerStacksave, "stacksave")
	register(lowerStackrestore, "stackrestore")
}

// allocaTop is the local-memory offset where the alloca stack starts; it
// grows down from there (9.7.17.3: "the stack grows down"), away from the
// frames, which grow up from 0.
const allocaTop = 1 << 31

// localBytes returns lane's local memory [off, off+n): the frames below,
// or the alloca stack below allocaTop.
func (w *Warp) localBytes(lane int, off, n uint64) []byte {
	d := w.dyn[lane]
	if lo := allocaTop - uint64(len(d)); off >= lo && off <= allocaTop && n <= allocaTop-off {
		return d[off-lo : off-lo+n : off-lo+n]
	}
	if f := w.local[lane]; off <= uint64(len(f)) && n <= uint64(len(f))-off {
		return f[off : off+n : off+n]
	}
	return nil
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
		al := max(o.imm, 1)
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			size := f.regs[int(o.a)*warpSize+lane]
			if size > w.sp[lane] || w.sp[lane]-size < allocaTop/2 {
				w.fail(o, 1<<lane, FaultOutOfBounds, "alloca: stack overflow")
				return
			}
			w.sp[lane] = (w.sp[lane] - size) &^ (al - 1)
			w.spMoved = true
			if need := allocaTop - w.sp[lane]; uint64(len(w.dyn[lane])) < need {
				grown := make([]byte, max(need, 2*uint64(len(w.dyn[lane]))))
				copy(grown[uint64(len(grown))-uint64(len(w.dyn[lane])):], w.dyn[lane])
				w.dyn[lane], w.hasLocal = grown, true
			}
			f.regs[int(o.d)*warpSize+lane] = w.sp[lane]
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
			lane := bits.TrailingZeros32(m)
			f.regs[int(o.d)*warpSize+lane] = w.sp[lane]
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
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			// only within the current function's allocations
			if v := f.regs[int(o.a)*warpSize+lane]; v <= f.sp[lane] && v >= w.sp[lane] {
				w.sp[lane] = v
				w.spMoved = true
			}
		}
	}
	return nil
}
