package exec

// cp.async (9.7.9.25.3): copies from global to shared memory, completed
// with cp.async.commit_group / wait_group / wait_all. ptxvm performs the
// copy when the instruction executes. That is one of the executions the
// manual allows: the copy is asynchronous, unordered with other cp.async
// operations and other memory operations until a wait, and treated as a
// weak memory operation, so a program that waits before reading (the only
// way it may rely on the data) sees exactly what it would see on the GPU;
// the commit and wait instructions then have nothing left to do.
// cp.async.mbarrier.arrive (9.7.13.15.15) therefore arrives at once: with
// .noinc it is an arrive-on; without, the increment and the arrive cancel.
// Not yet: cp.async.bulk*, cp.reduce.async.bulk*.

import (
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/ir"
)

func init() {
	register(lowerCp, "cp")
}

func lowerCp(l *lowering, in *ir.Inst, o *Op) error {
	switch {
	case hasMod(in, ".async") && hasMod(in, ".mbarrier") && hasMod(in, ".arrive"):
		return lowerCpAsyncMbarrierArrive(l, in, o)
	case !hasMod(in, ".async") || hasMod(in, ".bulk") || hasMod(in, ".mbarrier") || hasMod(in, ".reduce"):
		return l.unsupported(in, "")
	case hasMod(in, ".commit_group"), hasMod(in, ".wait_group"), hasMod(in, ".wait_all"):
		return lowerNop(l, in, o) // every copy is complete when it executes
	}
	onlySpace := func(space string) *ir.Inst {
		c := *in
		c.Mods = nil
		for _, m := range in.Mods {
			if m != ".shared" && m != ".shared::cta" && m != ".global" {
				c.Mods = append(c.Mods, m)
			}
		}
		c.Mods = append(c.Mods, space)
		return &c
	}
	if err := l.address(onlySpace(".shared"), in.Operands[0], o); err != nil {
		return err
	}
	src := &Op{inst: in, pc: o.pc}
	if err := l.address(onlySpace(".global"), in.Operands[1], src); err != nil {
		return err
	}
	if in.Operands[2].Kind != ir.OpImm {
		return l.unsupported(in, "cp-size")
	}
	size := in.Operands[2].Imm.Uint64()
	if size != 4 && size != 8 && size != 16 {
		return &Error{in.Pos, "cp-size must be 4, 8 or 16"}
	}
	srcSize, ignore, ignoreNeg := int32(-1), int32(-1), false
	if len(in.Operands) > 3 {
		switch e := in.Operands[3]; {
		case e.Kind == ir.OpReg && e.Reg.Type == ".pred":
			p, neg, err := l.pred(in, 3)
			if err != nil {
				return err
			}
			ignore, ignoreNeg = p, neg
		case e.Kind == ir.OpReg && e.Reg.Type == ".b64": // cache-policy only
		default:
			s, err := l.src(in, 3)
			if err != nil {
				return err
			}
			srcSize = s
		}
	}
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			n := size // bytes read from src; the rest of dst is zero-filled
			if srcSize >= 0 {
				n = min(size, uint64(uint32(f.regs[int(srcSize)*warpSize+lane])))
			}
			if ignore >= 0 && (f.preds[ignore]&(1<<lane) != 0) != ignoreNeg {
				n = 0
			}
			var data [16]byte
			if n > 0 {
				p := w.accessAligned(src, lane, n, size) // only src-size bytes are read
				if p == nil {
					return
				}
				copy(data[:n], p[:n])
			}
			q := w.access(o, lane, size)
			if q == nil {
				return
			}
			copy(q, data[:size])
		}
	}
	return nil
}

func lowerCpAsyncMbarrierArrive(l *lowering, in *ir.Inst, o *Op) error {
	if !hasMod(in, ".noinc") {
		// the pending count goes up by one and the arrive takes it back:
		// no change, but the object must be a valid mbarrier
		return lowerMbarrierCheck(l, in, o)
	}
	c := *in
	c.Opcode = "mbarrier"
	c.Mods = append([]string{".arrive"}, in.Mods...)
	c.Operands = append([]ir.Operand{{Kind: ir.OpSink}}, in.Operands...)
	return lowerMbarrier(l, &c, o)
}
