package exec

// Clusters (2.2.2, 11.7): every launch runs in the implicit 1x1x1 cluster
// (%cluster_* registers in sreg.go, barrier.cluster in control.go), so the
// only CTA a cluster address can name is the executing one, rank 0. mapa
// and getctarank (9.7.9.23-24) work on that cluster; a rank outside it is
// a fault. Launches with larger clusters are refused (caserun) until the
// engine co-schedules a cluster's CTAs.

import (
	"fmt"
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/ir"
)

func init() {
	register(lowerMapa, "mapa")
	register(lowerGetctarank, "getctarank")
}

// mapa{.shared::cluster}.type d, a, b: the address of a in CTA b.
func lowerMapa(l *lowering, in *ir.Inst, o *Op) error {
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	a, err := l.addrValue(in, 1)
	if err != nil {
		return err
	}
	b, err := l.src(in, 2)
	if err != nil {
		return err
	}
	width := uint64(1<<32 - 1)
	if typeOf(in) == ".u64" {
		width = ^uint64(0)
	}
	o.exec = func(w *Warp, o *Op, mask uint32) {
		r := w.top().regs
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			if rank := uint32(r[int(b)*warpSize+lane]); rank != 0 {
				w.fail(o, 1<<lane, FaultUndefined, fmt.Sprintf("CTA rank %d is outside the cluster (1 CTA: cluster launches are not supported yet)", rank))
				return
			}
			r[int(d)*warpSize+lane] = r[int(a)*warpSize+lane] & width
		}
	}
	return nil
}

// getctarank{.shared::cluster}.type d, a: the rank of the CTA holding a.
func lowerGetctarank(l *lowering, in *ir.Inst, o *Op) error {
	if _, err := l.addrValue(in, 1); err != nil {
		return err
	}
	return l.unary(in, o, func(uint64) uint64 { return 0 })
}

// addrValue returns a slot holding operand i's value: a register, or the
// address of a variable (plus offset) as mov would give it.
func (l *lowering) addrValue(in *ir.Inst, i int) (int32, error) {
	op := in.Operands[i]
	if op.Kind == ir.OpAddr || op.Kind == ir.OpVar {
		sub := *in
		sub.Opcode = "mov"
		sub.Operands = []ir.Operand{in.Operands[0], op}
		sub.Types = nil
		return l.src(&sub, 1)
	}
	return l.src(in, i)
}
