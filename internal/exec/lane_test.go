package exec

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// laneOps are register ops of every kind that sets Op.lane: unary,
// binary and ternary helpers (integer, float, moves, conversions), setp
// (one and two destinations, with a combining predicate, negated) and
// selp (with a negated predicate).
var laneOps = []string{
	"add.s32 %r1, %r2, %r3", "sub.u64 %rd1, %rd2, %rd3", "mul.lo.s32 %r1, %r2, 77",
	"mul.hi.u32 %r1, %r2, %r3", "mul.wide.s32 %rd1, %r2, %r3", "mad.lo.u32 %r1, %r2, %r3, %r4",
	"div.s32 %r1, %r2, %r3", "rem.u32 %r1, %r2, %r3", "rem.s64 %rd1, %rd2, %rd3",
	"min.s32 %r1, %r2, %r3", "max.u64 %rd1, %rd2, %rd3", "abs.s32 %r1, %r2", "neg.s64 %rd1, %rd2",
	"and.b32 %r1, %r2, %r3", "xor.b64 %rd1, %rd2, %rd3", "not.b32 %r1, %r2", "shl.b32 %r1, %r2, %r3",
	"shr.s32 %r1, %r2, 5", "popc.b64 %r1, %rd2", "brev.b32 %r1, %r2", "bfe.u32 %r1, %r2, 3, 9",
	"add.f32 %f1, %f2, %f3", "mul.rn.f64 %fd1, %fd2, %fd3", "fma.rn.f32 %f1, %f2, %f3, %f4",
	"div.rn.f64 %fd1, %fd2, %fd3", "min.f32 %f1, %f2, %f3", "sqrt.rn.f32 %f1, %f2",
	"mov.b64 %fd1, %rd2", "mov.b32 %f1, %r2",
	"cvt.rn.f64.s32 %fd1, %r2", "cvt.rzi.s32.f64 %r1, %fd2", "cvt.u16.u32 %h1, %r2", "cvt.s64.s16 %rd1, %h2",
	"add.s16 %h1, %h2, %h3", "selp.b32 %r1, %r2, %r3, %p2", "selp.f64 %fd1, %fd2, %fd3, !%p2",
	"setp.lt.s32 %p1, %r2, %r3", "setp.ne.s64 %p1, %rd2, %rd3", "setp.ge.f32 %p1, %f2, %f3",
	"setp.nan.f64 %p1, %fd2, %fd3", "setp.gtu.f32 %p1|%p3, %f2, %f3", "setp.eq.and.u32 %p1, %r2, %r3, %p2",
	"setp.lo.or.u32 %p1|%p3, %r2, %r3, !%p2", "setp.le.xor.s16 %p1, %h2, %h3, %p4",
}

// TestLaneMatchesExec: an op's lane closure, run for one lane, leaves the
// registers and predicates as its exec does with that lane alone in the
// mask, for random operands (with some equal, zero, NaN and extreme
// values); a CAS loop's lanes run their ops through it.
func TestLaneMatchesExec(t *testing.T) {
	src := `.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<5>;
	.reg .f32 %f<5>;
	.reg .f64 %fd<5>;
	.reg .b16 %h<5>;
	.reg .pred %p<5>;
	` + strings.Join(laneOps, ";\n\t") + `;
	ret;
}`
	p, _ := load(t, src)
	f := p.Kernels["k"]
	rng := rand.New(rand.NewPCG(7, 11))
	special := []uint64{0, 1, 0xffffffff, 0x80000000, 0x7fc00000, 0x7ff8000000000000, 0xffffffffffffffff, 0x8000000000000000}
	value := func() uint64 {
		if rng.IntN(4) == 0 {
			return special[rng.IntN(len(special))]
		}
		return rng.Uint64() >> rng.IntN(64)
	}
	frameWith := func() *frame {
		fr := &frame{fn: f, regs: make([]uint64, f.numSlots*warpSize), preds: make([]uint32, f.numPreds)}
		for i := range fr.regs {
			fr.regs[i] = value()
		}
		for i := range fr.preds {
			fr.preds[i] = rng.Uint32()
		}
		for _, c := range f.consts {
			if c.slot >= 0 && c.bits != sregMarker {
				fillRow((*lanes)(fr.regs[int(c.slot)*warpSize:]), c.bits)
			}
		}
		return fr
	}
	with := 0
	for pc := range f.Ops {
		o := &f.Ops[pc]
		if o.lane == nil {
			if o.inst != nil && o.inst.Opcode != "ret" {
				t.Errorf("%s: no lane closure", o.inst.Opcode+strings.Join(o.inst.Mods, ""))
			}
			continue
		}
		with++
		for round := range 20 {
			base := frameWith()
			for i := range warpSize {
				want := &frame{fn: f, regs: slices.Clone(base.regs), preds: slices.Clone(base.preds)}
				got := &frame{fn: f, regs: slices.Clone(base.regs), preds: slices.Clone(base.preds)}
				w := &Warp{frames: []*frame{want}}
				o.exec(w, o, 1<<i)
				o.lane(got, o, i)
				if !slices.Equal(got.regs, want.regs) || !slices.Equal(got.preds, want.preds) {
					t.Fatalf("op %d (%s), round %d, lane %d: the lane closure's registers or predicates differ from exec's",
						pc, laneOps[pc], round, i)
				}
			}
		}
	}
	if with < len(laneOps) {
		t.Errorf("%d ops with lane closures, want %d", with, len(laneOps))
	}
}
