package exec

import (
	"context"
	"encoding/binary"
	"testing"
)

// TestGroupBranchesKeepSchedule: runGroup's handling of the branches a
// divergent group agrees on must not change the schedule. Each kernel logs
// (lane, step) pairs through an atomic counter as its lanes pass points in
// divergent loops, nested loops, a reconvergence point placed before a
// loop that reaches it, and an intra-warp spin lock (the
// starvation escape), so the log's order is the order the lanes ran in;
// the log and the instruction counts must be those of run's general path.
func TestGroupBranchesKeepSchedule(t *testing.T) {
	src := `.version 7.0
.target sm_70
.address_size 64
.visible .entry loops(.param .u64 log)
{
	.reg .pred %p<4>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [log];
	mov.u32 %r1, %tid.x;
	rem.u32 %r2, %r1, 7;          // outer trips: 0..6 by lane
	mov.u32 %r3, 0;
OUTER:
	setp.ge.u32 %p1, %r3, %r2;
	@%p1 bra DONE;
	and.b32 %r4, %r1, 3;          // inner trips: 0..3 by lane
	mov.u32 %r5, 0;
INNER:
	setp.ge.u32 %p2, %r5, %r4;
	@%p2 bra NEXT;
	atom.global.add.u32 %r6, [%rd1], 1;
	add.u32 %r6, %r6, 1;
	mul.wide.u32 %rd2, %r6, 4;
	add.u64 %rd3, %rd1, %rd2;
	shl.b32 %r7, %r1, 16;
	or.b32 %r7, %r7, %r5;
	st.global.u32 [%rd3], %r7;
	add.u32 %r5, %r5, 1;
	bra.uni INNER;
NEXT:
	add.u32 %r3, %r3, 1;
	setp.lt.u32 %p3, %r3, 100;
	@%p3 bra OUTER;
DONE:
	ret;
}
.visible .entry layout(.param .u64 log)
{
	// a reconvergence point (R) below the loop of one side: that side
	// jumps back to P, falls into R and must wait there for the other
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [log];
	mov.u32 %r1, %tid.x;
	mov.u32 %r3, 0;
	setp.ge.u32 %p1, %r1, 16;
	@%p1 bra B;
	bra.uni C;
P:
	add.u32 %r3, %r3, 100;
R:
	atom.global.add.u32 %r6, [%rd1], 1;
	add.u32 %r6, %r6, 1;
	mul.wide.u32 %rd2, %r6, 4;
	add.u64 %rd3, %rd1, %rd2;
	shl.b32 %r7, %r1, 16;
	or.b32 %r7, %r7, %r3;
	st.global.u32 [%rd3], %r7;
	ret;
B:
	add.u32 %r3, %r3, 1;
	setp.lt.u32 %p2, %r3, 5;
	@%p2 bra B;
	bra.uni P;
C:
	add.u32 %r3, %r3, 7;
	bra.uni R;
}
.visible .entry lock(.param .u64 log)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.shared .u32 lk;
	ld.param.u64 %rd1, [log];
	mov.u32 %r1, %tid.x;
SPIN:
	atom.shared.cas.b32 %r2, [lk], 0, 1;
	setp.ne.u32 %p1, %r2, 0;
	@%p1 bra SPIN;
	atom.global.add.u32 %r6, [%rd1], 1;
	add.u32 %r6, %r6, 1;
	mul.wide.u32 %rd2, %r6, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r1;
	atom.shared.exch.b32 %r4, [lk], 0;
	ret;
}
`
	run := func(kernel string) ([]uint32, LaunchStats) {
		p, g := load(t, src)
		const n = 4096
		log, _ := g.Alloc(4*n, 0)
		var st LaunchStats
		if err := p.Launch(context.Background(), kernel, LaunchConfig{Grid: [3]int{2, 1, 1}, Block: [3]int{64, 1, 1},
			Params: params(p.Kernels[kernel], log), Workers: 1, Stats: &st}); err != nil {
			t.Fatal(err)
		}
		b, _ := g.Bytes(log, 4*n)
		out := make([]uint32, n)
		for i := range out {
			out[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
		st.Duration = 0
		return out[:1+out[0]], st
	}
	for _, kernel := range []string{"loops", "layout", "lock"} {
		got, gotStats := run(kernel)
		groupBranches = false
		want, wantStats := run(kernel)
		groupBranches = true
		if len(want) < 20 {
			t.Fatalf("%s: only %d log entries", kernel, len(want))
		}
		if gotStats != wantStats {
			t.Errorf("%s: stats %+v, general path %+v", kernel, gotStats, wantStats)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d log entries, general path %d", kernel, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: log entry %d is %#x, general path %#x", kernel, i, got[i], want[i])
			}
		}
	}
}

// TestCheckVecRows: a whole-warp loop naming a slot outside the frame is
// refused at load time (the converged loop reads its rows unchecked).
func TestCheckVecRows(t *testing.T) {
	p, _ := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k()
{
	.reg .b32 %r<4>;
	mov.u32 %r1, %tid.x;
	add.u32 %r2, %r1, %r1;
	ret;
}
`)
	f := p.Kernels["k"]
	if err := checkVecRows(f); err != nil {
		t.Fatalf("a sound function refused: %v", err)
	}
	for i := range f.Ops {
		if f.Ops[i].vkind == vecRR {
			f.Ops[i].b = int32(f.numSlots)
			if err := checkVecRows(f); err == nil {
				t.Fatal("a slot past the frame was accepted")
			}
			return
		}
	}
	t.Fatal("no whole-warp loop in the test kernel")
}
