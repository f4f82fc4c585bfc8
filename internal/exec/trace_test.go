package exec

import (
	"context"
	"encoding/binary"
	"testing"
	"unsafe"
)

// TestTracesMatchOps: kernels whose converged code runs through traces
// give the results and instruction counts they give op by op, with time
// slices that end inside traces' runs (a long loop) and warps whose lanes
// are not all active (48 threads: the second warp runs op by op).
func TestTracesMatchOps(t *testing.T) {
	setFlag(t, &tracesEnabled, true) // (set back at cleanup should a run below fail)
	src := `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p;
	.reg .b32 %r<12>;
	.reg .f32 %f<6>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	cvt.rn.f32.u32 %f1, %r1;
	mov.u32 %r2, 0;                 // AVX2 loops right before the loop's label
	mov.u32 %r3, 0x9e3779b9;
LOOP:
	xor.b32 %r1, %r1, %r3;
	mul.lo.u32 %r1, %r1, 16777619;
	shr.u32 %r4, %r1, 13;
	xor.b32 %r1, %r1, %r4;
	shl.b32 %r5, %r1, 3;
	add.u32 %r1, %r1, %r5;
	mul.f32 %f2, %f1, 0f3F000000;
	fma.rn.f32 %f1, %f2, %f2, 0f3F800000;
	add.u32 %r2, %r2, 1;
	setp.lt.u32 %p, %r2, 700;
	@%p bra LOOP;
	cvt.rzi.u32.f32 %r6, %f1;
	xor.b32 %r1, %r1, %r6;
	ld.param.u64 %rd1, [out];
	mov.u32 %r7, %tid.x;
	mul.wide.u32 %rd2, %r7, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r1;
	ret;
}
`
	run := func() ([]byte, LaunchStats, int) {
		p, g := load(t, src)
		traced := 0
		for _, o := range p.Kernels["k"].Ops {
			traced += len(o.trace)
		}
		out, _ := g.Alloc(4*48, 0)
		var st LaunchStats
		if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{3, 1, 1}, Block: [3]int{48, 1, 1},
			Params: params(p.Kernels["k"], out), Workers: 1, Stats: &st}); err != nil {
			t.Fatal(err)
		}
		b, _ := g.Bytes(out, 4*48)
		st.Duration = 0
		return append([]byte(nil), b...), st, traced
	}
	if simdEnabled { // the loop's body has its own trace, from its label
		p, _ := load(t, src)
		f := p.Kernels["k"]
		if loop := f.IR.Labels["LOOP"]; f.Ops[loop].trace == nil {
			t.Errorf("no trace at the loop's label (op %d)", loop)
		}
	}
	got, gotStats, traced := run()
	tracesEnabled = false
	want, wantStats, untraced := run()
	tracesEnabled = true
	if simdEnabled && traced < 6 {
		t.Fatalf("only %d ops in traces", traced)
	}
	if untraced != 0 {
		t.Fatal("traces built while turned off")
	}
	if gotStats != wantStats {
		t.Errorf("stats %+v, op by op %+v", gotStats, wantStats)
	}
	for i := 0; i < 48; i++ {
		if g, w := binary.LittleEndian.Uint32(got[4*i:]), binary.LittleEndian.Uint32(want[4*i:]); g != w {
			t.Fatalf("thread %d: %#x, op by op %#x", i, g, w)
		}
	}
}

// TestTraceLayouts: the assembly (simdgen) reads traceOp, traceWindow and
// traceCtx at fixed offsets: an entry is 48 bytes (body, d, a, b, c, k), a
// window 40 (data, n, base, last, step), and the predicates' address
// follows 32 windows.
func TestTraceLayouts(t *testing.T) {
	var op traceOp
	var win traceWindow
	var ctx traceCtx
	var sh shflTable
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"traceOp", unsafe.Sizeof(op), 48}, {"traceOp.c", unsafe.Offsetof(op.c), 32}, {"traceOp.k", unsafe.Offsetof(op.k), 40},
		{"traceWindow", unsafe.Sizeof(win), 40}, {"traceWindow.n", unsafe.Offsetof(win.n), 8},
		{"traceWindow.base", unsafe.Offsetof(win.base), 16}, {"traceWindow.last", unsafe.Offsetof(win.last), 24},
		{"traceWindow.step", unsafe.Offsetof(win.step), 32},
		{"traceCtx.preds", unsafe.Offsetof(ctx.preds), 64 * 40}, {"paramWindow", uintptr(traceWindowOffset(paramWindow)), 40},
		{"shflTable.lane", unsafe.Offsetof(sh.lane), 32}, {"shflTable.pvals", unsafe.Offsetof(sh.pvals), 64},
		{"shflTable.hasPred", unsafe.Offsetof(sh.hasPred), 68},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, the assembly expects %d", c.name, c.got, c.want)
		}
	}
	if traceWindows != 64 {
		t.Errorf("traceWindows = %d, the assembly expects 64", traceWindows)
	}
}
