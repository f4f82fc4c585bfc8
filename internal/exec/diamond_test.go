package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// diamondKernel has if/else diamonds: a store by thread 0, register-only
// sides in a loop whose
// lanes leave at different trip counts (the collatz pattern, with the else
// side laid out before the branch), with predicate ops and selp in the
// sides, an if without else, two branches sharing a reconvergence point,
// and a side too long to be one. After each, an atomic on shared memory
// logs the order in which lanes get there, so that a group run
// differently from the default schedule shows in the log.
const diamondKernel = `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 log) {
	.reg .u32 %t, %x, %s, %k, %slot, %a, %b, %ob, %oa;
	.reg .u64 %v, %o, %lg, %addr;
	.reg .pred %p, %q, %r;
	.shared .align 4 .b32 cnt;
	.shared .align 4 .b32 order[512];
	mov.u32 %t, %tid.x;
	mov.u32 %ob, order;
	setp.eq.u32 %p, %t, 0;
	@!%p bra START;
	st.shared.u32 [cnt], 0;
START:
	bar.sync 0;
	mul.lo.u32 %x, %t, 0x9e3779b9;
	shr.u32 %x, %x, 10;
	add.u32 %x, %x, 3;
	cvt.u64.u32 %v, %x;
	mov.u32 %s, 0;
	bra.uni HEAD;
EVEN:
	shr.u64 %v, %v, 1;
JOIN:
	add.u32 %s, %s, 1;
	setp.ne.u64 %p, %v, 1;
	@%p bra HEAD;
	bra.uni DONE;
HEAD:
	and.b64 %addr, %v, 1;
	setp.eq.u64 %q, %addr, 0;
	@%q bra EVEN;
	mad.lo.u64 %v, %v, 3, 1;
	bra.uni JOIN;
DONE:
	atom.shared.add.u32 %slot, [cnt], 1;
	and.b32 %slot, %slot, 511;
	shl.b32 %slot, %slot, 2;
	add.u32 %oa, %ob, %slot;
	st.shared.u32 [%oa], %t;
	// predicates and selp in the sides
	and.b32 %a, %s, 7;
	setp.lt.u32 %p, %a, 3;
	@%p bra ELSE2;
	setp.gt.u32 %r, %s, 40;
	selp.u32 %b, %s, %t, %r;
	xor.b32 %b, %b, 0x55;
	bra.uni J2;
ELSE2:
	setp.lt.u32 %r, %t, 50;
	or.pred %r, %r, %p;
	selp.u32 %b, 7, %s, %r;
J2:
	add.u32 %s, %s, %b;
	// an if without else
	and.b32 %a, %t, 3;
	setp.eq.u32 %p, %a, 1;
	@%p bra J3;
	mul.lo.u32 %s, %s, 3;
	add.u32 %s, %s, %t;
J3:
	atom.shared.add.u32 %slot, [cnt], 1;
	and.b32 %slot, %slot, 511;
	shl.b32 %slot, %slot, 2;
	add.u32 %oa, %ob, %slot;
	st.shared.u32 [%oa], %t;
	// two branches to one reconvergence point
	and.b32 %a, %s, 1;
	setp.eq.u32 %p, %a, 0;
	@%p bra J4;
	and.b32 %a, %s, 2;
	setp.eq.u32 %q, %a, 0;
	@%q bra J4;
	add.u32 %s, %s, 1000;
J4:
	// a loop around a diamond whose exit waits inside the loop's span
	mov.u32 %k, 0;
L5:
	and.b32 %a, %k, 1;
	setp.eq.u32 %p, %a, 0;
	@%p bra E5;
	add.u32 %s, %s, %k;
	bra.uni J5;
E5:
	sub.u32 %s, %s, 1;
J5:
	add.u32 %k, %k, 1;
	and.b32 %a, %t, 7;
	setp.lt.u32 %q, %k, %a;
	@%q bra L5;
	atom.shared.add.u32 %slot, [cnt], 1;
	and.b32 %slot, %slot, 511;
	shl.b32 %slot, %slot, 2;
	add.u32 %oa, %ob, %slot;
	st.shared.u32 [%oa], %t;
	ld.param.u64 %o, [out];
	ld.param.u64 %lg, [log];
	mov.u32 %a, %ctaid.x;
	mad.lo.u32 %a, %a, %ntid.x, %t;
	mul.wide.u32 %addr, %a, 4;
	add.u64 %o, %o, %addr;
	st.global.u32 [%o], %s;
	bar.sync 0;
	// the log, by the CTA's first 96 threads
	mov.u32 %a, %ctaid.x;
	mul.lo.u32 %a, %a, 288;
	mad.lo.u32 %a, %t, 3, %a;
	mul.wide.u32 %addr, %a, 4;
	add.u64 %lg, %lg, %addr;
	mul.lo.u32 %b, %t, 12;
	add.u32 %oa, %ob, %b;
	ld.shared.u32 %x, [%oa];
	st.global.u32 [%lg], %x;
	ld.shared.u32 %x, [%oa+4];
	st.global.u32 [%lg+4], %x;
	ld.shared.u32 %x, [%oa+8];
	st.global.u32 [%lg+8], %x;
	ret;
}
`

// TestDiamondsMatchDefaultSchedule runs diamondKernel with the diamond fast
// path and without (pick's schedule, op by op) and compares the results,
// the order lanes reached the atomics in, and the instruction counts; 2
// CTAs of 96 threads.
func TestDiamondsMatchDefaultSchedule(t *testing.T) {
	setFlag(t, &diamondsEnabled, true) // (set back at cleanup should a run below fail)
	p, _ := load(t, diamondKernel)
	n := 0
	for _, o := range p.Kernels["k"].Ops {
		if o.dia != nil {
			n++
		}
	}
	got, gotStats := runOutLog(t, diamondKernel, 2, 96, 96, 288)
	diamondsEnabled = false
	want, wantStats := runOutLog(t, diamondKernel, 2, 96, 96, 288)
	diamondsEnabled = true
	if n != 6 {
		t.Errorf("%d diamonds found, want 6 (START's store, the loop's, ELSE2's, J3's, J4's second branch, L5's)", n)
	}
	if gotStats != wantStats {
		t.Errorf("stats %+v, default schedule %+v", gotStats, wantStats)
	}
	if i := firstDiff(got, want); i >= 0 {
		t.Fatalf("byte %d: %#x, default schedule %#x", i, got[i], want[i])
	}
}

// diamondSpinKernel: lanes 0 and 1 spin around a diamond (its else side
// laid out before the branch, so both of its branches go backward, as the
// loop's does) until the other lanes, waiting at the loop's exit, set a
// flag; they run only once the spinners' backward branches reach
// starvationLimit. The iteration at which each spinner sees the flag
// shows when that happened, so how the diamond counts backward branches.
const diamondSpinKernel = `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out) {
	.reg .u32 %t, %k, %s, %a, %f;
	.reg .u64 %o, %addr;
	.reg .pred %p, %q;
	.shared .align 4 .b32 flag;
	mov.u32 %t, %tid.x;
	setp.eq.u32 %p, %t, 0;
	@!%p bra START;
	st.shared.u32 [flag], 0;
START:
	bar.sync 0;
	mov.u32 %k, 0;
	mov.u32 %s, 0;
	setp.gt.u32 %p, %t, 1;
	@%p bra OUT;
TOP:
	add.u32 %a, %k, %t;
	and.b32 %a, %a, 1;
	setp.eq.u32 %q, %a, 1;
	bra.uni BR;
ODD:
	add.u32 %s, %s, 3;
JOIN:
	add.u32 %k, %k, 1;
	ld.volatile.shared.u32 %f, [flag];
	setp.eq.u32 %p, %f, 0;
	@%p bra TOP;
	bra.uni OUT;
BR:
	@%q bra ODD;
	xor.b32 %s, %s, %k;
	bra.uni JOIN;
OUT:
	setp.gt.u32 %p, %t, 1;
	@!%p bra STORE;
	st.volatile.shared.u32 [flag], 1;
STORE:
	ld.param.u64 %o, [out];
	mul.wide.u32 %addr, %t, 8;
	add.u64 %o, %o, %addr;
	st.global.v2.u32 [%o], {%k, %s};
	ret;
}
`

// TestDiamondsKeepStarvationCount runs diamondSpinKernel with and without
// the diamond fast path: the spinners must see the flag at the same
// iteration, with the same values.
func TestDiamondsKeepStarvationCount(t *testing.T) {
	setFlag(t, &diamondsEnabled, true) // (set back at cleanup should a run below fail)
	run := func() []byte {
		p, g := load(t, diamondSpinKernel)
		out, _ := g.Alloc(32*8, 0)
		if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
			Params: params(p.Kernels["k"], out), Workers: 1}); err != nil {
			t.Fatal(err)
		}
		b, _ := g.Bytes(out, 32*8)
		return append([]byte(nil), b...)
	}
	diamondsEnabled = false
	want := run()
	diamondsEnabled = true
	got := run()
	t.Logf("spinners saw the flag at iterations %d and %d", binary.LittleEndian.Uint32(want), binary.LittleEndian.Uint32(want[8:]))
	// (an iteration issues three backward branches: the lanes take the
	// diamond's two sides apart, both laid out before its branch, then
	// the loop's together; at the first fairness decision both spinners
	// have spun, and the waiters go: see pick. The loop only reads the
	// flag, a spin-wait, so the limit is spinLimit: lockLoops)
	if k := binary.LittleEndian.Uint32(want); k < spinLimit/3 {
		t.Fatalf("the spinners saw the flag at iteration %d: the starvation limit did not hold them", k)
	}
	if i := firstDiff(got, want); i >= 0 {
		t.Fatalf("byte %d: %#x, default schedule %#x", i, got[i], want[i])
	}
}

// TestDiamondGroupRefusals: runDiamondGroup takes a split only where the
// default schedule would run the sides and release the group at r with
// nothing in between, and otherwise leaves everything as it was.
func TestDiamondGroupRefusals(t *testing.T) {
	p, _ := load(t, diamondKernel)
	fn := p.Kernels["k"]
	var o *Op
	for i := range fn.Ops {
		if d := fn.Ops[i].dia; d != nil && d.sides[1].start < fn.Ops[i].pc { // the loop's (else side below)
			o = &fn.Ops[i]
			break
		}
	}
	if o == nil {
		t.Fatal("no diamond with its taken side below the branch")
	}
	d := o.dia
	const group, taken = uint32(0b11), uint32(0b01) // lanes 0 and 1 split at o
	above := int32(len(fn.Ops)) - 1                 // a PC above the whole diamond
	for _, c := range []struct {
		name  string
		setup func(f *frame)
		steps int
		ok    bool
	}{
		{"others wait above", func(f *frame) {}, 0, true},
		{"no others", func(f *frame) { f.active = group }, 0, true},
		{"another lane could run", func(f *frame) { f.rtop[5] = 0 }, 0, false},
		{"others wait at r", func(f *frame) { f.pc[5], f.rtop[5] = d.r, d.r+1 }, 0, false},
		{"others wait below r", func(f *frame) { f.pc[5], f.rtop[5] = d.r-1, d.r }, 0, false},
		{"the group waits for r already", func(f *frame) { f.rtop[0] = d.r + 1 }, 0, false},
		{"a side's lane waits inside it", func(f *frame) { f.rtop[0] = d.sides[1].start + 1 }, 0, false},
		{"near starvation", func(f *frame) { f.backs = starvationLimit - 3 }, 0, false},
		{"the slice ends inside", func(f *frame) {}, sliceSteps - 2, false},
	} {
		f := &frame{fn: fn, regs: make([]uint64, fn.numSlots*warpSize), preds: make([]uint32, fn.numPreds), active: ^uint32(0)}
		for l := range f.pc {
			f.pc[l], f.rtop[l] = above, above+1 // waiting above the diamond
		}
		f.pc[0], f.pc[1], f.rtop[0], f.rtop[1] = o.pc, o.pc, 0, 0
		c.setup(f)
		before := *f
		w := &Warp{cta: &cta{}, frames: []*frame{f}}
		_, _, _, ok := w.runDiamondGroup(f, o, group, taken, c.steps, sliceSteps, false)
		if ok != c.ok {
			t.Errorf("%s: taken %v, want %v", c.name, ok, c.ok)
		}
		if !ok && (f.pc != before.pc || f.rtop != before.rtop || f.backs != before.backs || f.spinners != before.spinners) {
			t.Errorf("%s: refused but changed the frame", c.name)
		}
		if ok && f.backs != before.backs+2 { // the branch and the fall-through side's branch to r go backward
			t.Errorf("%s: %d backward branches counted, want 2", c.name, f.backs-before.backs)
		}
	}
}

// TestDiamondFaultsAsDefault: a store out of bounds in a diamond's side
// (lanes of one side only) faults at the same thread, instruction and
// address with the fast path as without it, converged and in a group.
func TestDiamondFaultsAsDefault(t *testing.T) {
	setFlag(t, &diamondsEnabled, true) // (set back at cleanup should a run below fail)
	src := `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 bad) {
	.reg .u32 %t, %a, %b;
	.reg .u64 %o, %addr;
	.reg .pred %p, %q;
	ld.param.u64 %o, [out];
	ld.param.u32 %b, [bad];
	mov.u32 %t, %tid.x;
	setp.lt.u32 %q, %t, 8;
	@%q bra GROUP;
	and.b32 %a, %t, 1;
	setp.eq.u32 %p, %a, 0;
	@%p bra EVEN;
	mul.wide.u32 %addr, %t, 4;
	add.u64 %addr, %o, %addr;
	st.global.u32 [%addr], %t;
	bra.uni JOIN;
EVEN:
	setp.eq.u32 %p, %t, %b;
	selp.u32 %a, 4096, 0, %p;
	add.u32 %a, %a, %t;
	mul.wide.u32 %addr, %a, 4;
	add.u64 %addr, %o, %addr;
	st.global.u32 [%addr], %t;
JOIN:
	ret;
GROUP:
	and.b32 %a, %t, 1;
	setp.eq.u32 %p, %a, 0;
	@%p bra GEVEN;
	add.u32 %a, %t, 1;
	bra.uni GJOIN;
GEVEN:
	setp.eq.u32 %p, %t, %b;
	selp.u32 %a, 4096, 0, %p;
	add.u32 %a, %a, %t;
	mul.wide.u32 %addr, %a, 4;
	add.u64 %addr, %o, %addr;
	st.global.u32 [%addr], %t;
GJOIN:
	ret;
}
`
	for _, bad := range []uint64{20, 4} { // converged at the split, or in the group of threads 0-7
		run := func() *Fault {
			p, g := load(t, src)
			out, _ := g.Alloc(32*4, 0)
			err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
				Params: params(p.Kernels["k"], out, bad), Workers: 1})
			var f *Fault
			if !errors.As(err, &f) {
				t.Fatalf("thread %d's store: %v, want a fault", bad, err)
			}
			return f
		}
		got := run()
		diamondsEnabled = false
		want := run()
		diamondsEnabled = true
		if got.Thread != want.Thread || got.Pos != want.Pos || got.Addr != want.Addr || got.Kind != want.Kind {
			t.Errorf("bad thread %d: fault %v, default schedule %v", bad, got, want)
		}
		if got.Thread[0] != int(bad) {
			t.Errorf("fault at thread %v, want %d", got.Thread, bad)
		}
	}
}

// TestDiamondsMatchDefaultScheduleRandom: random kernels of nested
// if/else blocks (register ops, stores and atomics in the sides, some with
// a branch inside, so not every one is a diamond) and short loops with
// per-lane trip counts, run with the diamond fast path and without: every
// thread's registers, the order lanes reached an atomic log, and the
// instruction counts must agree.
func TestDiamondsMatchDefaultScheduleRandom(t *testing.T) {
	setFlag(t, &diamondsEnabled, true) // (set back at cleanup should a run below fail)
	r := rand.New(rand.NewPCG(2026, 11))
	diamonds := 0
	for k := 0; k < 200; k++ {
		var b strings.Builder
		label := 0
		newLabel := func() string { label++; return fmt.Sprintf("L%d", label) }
		op := func() string {
			d, a := r.IntN(4), r.IntN(4)
			switch r.IntN(7) {
			case 0:
				return fmt.Sprintf("add.u32 %%r%d, %%r%d, %d;", d, a, r.IntN(100))
			case 1:
				return fmt.Sprintf("mul.lo.u32 %%r%d, %%r%d, %%r%d;", d, a, r.IntN(4))
			case 2:
				return fmt.Sprintf("xor.b32 %%r%d, %%r%d, %%t;", d, a)
			case 3:
				return fmt.Sprintf("shr.u32 %%r%d, %%r%d, %d;", d, a, r.IntN(5))
			case 4:
				return fmt.Sprintf("atom.global.add.u32 %%r%d, [%%cnt], 1;\n\tand.b32 %%r%d, %%r%d, 255;\n\tmul.wide.u32 %%w, %%r%d, 4;\n\tadd.u64 %%w, %%log, %%w;\n\tst.global.u32 [%%w], %%t;", d, d, d, d)
			case 5:
				return fmt.Sprintf("setp.lt.u32 %%p, %%r%d, %%r%d;\n\tselp.u32 %%r%d, %%r%d, 7, %%p;", a, d, d, a)
			}
			return fmt.Sprintf("sub.u32 %%r%d, %%r%d, %%r%d;", d, a, r.IntN(4))
		}
		var block func(depth int)
		block = func(depth int) {
			for n := 1 + r.IntN(3); n > 0; n-- {
				switch c := r.IntN(6); {
				case c < 3 || depth >= 2:
					b.WriteString("\t" + op() + "\n")
				case c < 5: // if/else
					els, join := newLabel(), newLabel()
					fmt.Fprintf(&b, "\tand.b32 %%a, %%r%d, %d;\n\tsetp.eq.u32 %%p, %%a, 0;\n\t@%%p bra %s;\n", r.IntN(4), 1<<r.IntN(4), els)
					block(depth + 1)
					fmt.Fprintf(&b, "\tbra.uni %s;\n%s:\n", join, els)
					if r.IntN(2) == 0 {
						block(depth + 1)
					}
					fmt.Fprintf(&b, "%s:\n", join)
				default: // a loop of (r & 3) + 1 trips
					top := newLabel()
					fmt.Fprintf(&b, "\tand.b32 %%n%d, %%r%d, 3;\n\tmov.u32 %%i%d, 0;\n%s:\n", depth, r.IntN(4), depth, top)
					block(depth + 1)
					fmt.Fprintf(&b, "\tadd.u32 %%i%d, %%i%d, 1;\n\tsetp.le.u32 %%p, %%i%d, %%n%d;\n\t@%%p bra %s;\n", depth, depth, depth, depth, top)
				}
			}
		}
		block(0)
		src := `.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 logp) {
	.reg .u32 %t, %a, %r0, %r1, %r2, %r3, %n0, %n1, %n2, %i0, %i1, %i2;
	.reg .u64 %o, %log, %cnt, %w;
	.reg .pred %p;
	ld.param.u64 %o, [out];
	ld.param.u64 %log, [logp];
	add.u64 %cnt, %log, 1024;
	mov.u32 %t, %tid.x;
	mul.lo.u32 %r0, %t, 0x9e3779b9;
	shr.u32 %r1, %r0, 7;
	xor.b32 %r2, %r0, %t;
	mov.u32 %r3, %t;
` + b.String() + `	mul.wide.u32 %w, %t, 16;
	add.u64 %o, %o, %w;
	st.global.v4.u32 [%o], {%r0, %r1, %r2, %r3};
	ret;
}
`
		p, _ := load(t, src)
		for _, o := range p.Kernels["k"].Ops {
			if o.dia != nil {
				diamonds++
			}
		}
		run := func() ([]byte, LaunchStats) { return runOutLog(t, src, 1, 64, 256, 257) }
		got, gotStats := run()
		diamondsEnabled = false
		want, wantStats := run()
		diamondsEnabled = true
		if gotStats != wantStats {
			t.Fatalf("kernel %d: stats %+v, default schedule %+v\n%s", k, gotStats, wantStats, src)
		}
		if i := firstDiff(got, want); i >= 0 {
			t.Fatalf("kernel %d: byte %d: %#x, default schedule %#x\n%s", k, i, got[i], want[i], src)
		}
	}
	if diamonds < 100 {
		t.Errorf("only %d diamonds in the 200 kernels", diamonds)
	}
	t.Logf("%d diamonds", diamonds)
}

// diamondBackJoin: a divergent group (the odd lanes; the even ones wait at
// Z, the reconvergence point of the branch to GSIDE) runs an if/else whose
// sides both branch back to R, below the branch: its group must then stop
// at Z again (runGroup's limit, found anew), as in the default schedule.
// Each lane logs the order it reaches Z in through a shared atomic.
const diamondBackJoin = `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 log) {
	.reg .u32 %t, %i, %s, %a, %slot;
	.reg .u64 %o, %addr, %sh, %ob;
	.reg .pred %p, %q, %x;
	.shared .align 4 .b32 cnt;
	.shared .align 4 .b32 order[1024];
	mov.u32 %t, %tid.x;
	mov.u64 %ob, order;
	setp.eq.u32 %p, %t, 0;
	@!%p bra START;
	st.shared.u32 [cnt], 0;
START:
	bar.sync 0;
	mov.u32 %i, 0;
	mov.u32 %s, 0;
	bra.uni Z;
R:
	add.u32 %s, %s, 1;
Z:
	add.u32 %i, %i, 1;
	atom.shared.add.u32 %slot, [cnt], 1;
	and.b32 %slot, %slot, 1023;
	mul.wide.u32 %sh, %slot, 4;
	add.u64 %sh, %sh, %ob;
	st.shared.u32 [%sh], %t;
	setp.gt.u32 %x, %i, 6;
	@%x bra EXIT;
	and.b32 %a, %t, 1;
	setp.eq.u32 %q, %a, 1;
	@%q bra GSIDE;
	add.u32 %s, %s, 5;
	bra.uni Z;
GSIDE:
	and.b32 %a, %t, 2;
	setp.eq.u32 %p, %a, 0;
	@%p bra T;
	add.u32 %s, %s, 2;
	bra.uni R;
T:
	sub.u32 %s, %s, 1;
	bra.uni R;
EXIT:
	bar.sync 0;
	ld.param.u64 %o, [out];
	mul.wide.u32 %addr, %t, 4;
	add.u64 %o, %o, %addr;
	st.global.u32 [%o], %s;
	ld.param.u64 %o, [log];
	add.u64 %o, %o, %addr;
	mul.wide.u32 %sh, %t, 28;
	add.u64 %sh, %sh, %ob;
	ld.shared.u32 %a, [%sh];
	st.global.u32 [%o], %a;
	ret;
}
`

// TestDiamondBackJoin: with diamonds on, the results, the order lanes
// reach Z in and the counts are the default schedule's (a kept limit let
// the odd lanes run past Z alone: 219 warp instructions against 155).
func TestDiamondBackJoin(t *testing.T) {
	setFlag(t, &batchEnabled, false)
	got, gs := runOutLog(t, diamondBackJoin, 1, 32, 32, 32)
	setFlag(t, &diamondsEnabled, false)
	want, ws := runOutLog(t, diamondBackJoin, 1, 32, 32, 32)
	if gs != ws {
		t.Errorf("stats %+v, default schedule %+v", gs, ws)
	}
	if i := firstDiff(got, want); i >= 0 {
		t.Errorf("byte %d: %#x, default schedule %#x", i, got[i], want[i])
	}
}

// runOutLog launches kernel k of src (parameters out and log) on grid CTAs
// of block threads on one worker and returns out (outWords per CTA) and
// log (logWords per CTA) one after the other, and the counts.
func runOutLog(t *testing.T, src string, grid, block, outWords, logWords int) ([]byte, LaunchStats) {
	t.Helper()
	p, g := load(t, src)
	on, ln := uint64(4*grid*outWords), uint64(4*grid*logWords)
	out, _ := g.Alloc(on, 0)
	lg, _ := g.Alloc(ln, 0)
	var st LaunchStats
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{grid, 1, 1}, Block: [3]int{block, 1, 1},
		Params: params(p.Kernels["k"], out, lg), Workers: 1, Stats: &st}); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	st.Duration = 0
	b1, _ := g.Bytes(out, on)
	b2, _ := g.Bytes(lg, ln)
	return append(append([]byte(nil), b1...), b2...), st
}
