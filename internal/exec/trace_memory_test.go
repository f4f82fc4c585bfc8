package exec

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
)

// memTraceKernel exercises the accesses traces take (trace.go): global
// loads of every width and extension, consecutive, scattered and uniform,
// and from a pointer that alternates between two allocations; a pointer chase
// (the destination is the address register); shared stores, consecutive
// and with two lanes per element (the higher lane's value stays), and
// shared loads, uniform and scattered; global stores, consecutive and
// strided. Each warp has its own shared region, so warps do not race. The
// loads whose allocation changes every iteration are refused by their
// trace bodies every time: the Go path takes them, and the rest of the
// trace runs after them.
const memTraceKernel = `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 out, .param .u64 outs, .param .u64 chain, .param .u32 nt)
{
	.reg .pred %p;
	.reg .b32 %r<40>;
	.reg .b64 %rd<40>;
	.shared .align 8 .b8 sh[2048];
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [out];
	ld.param.u64 %rd4, [outs];
	ld.param.u64 %rd30, [chain];
	ld.param.u32 %r30, [nt];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;      // the thread's global index
	mov.u32 %r5, 0;
	mov.u32 %r6, 0;
	mov.u64 %rd20, 0;
	mov.u64 %rd5, sh;
	shr.u32 %r20, %r1, 5;
	mul.wide.u32 %rd6, %r20, 512;
	add.s64 %rd5, %rd5, %rd6;           // the warp's shared region
	and.b32 %r21, %r1, 31;              // lane
	and.b32 %r22, %r4, 63;
	mul.wide.u32 %rd31, %r22, 8;
	add.s64 %rd31, %rd30, %rd31;        // the chase starts at chain[gid % 64]
LOOP:
	and.b32 %r31, %r5, 1;
	setp.ne.u32 %p, %r31, 0;
	selp.b64 %rd32, %rd1, %rd2, %p;     // B on even iterations, A on odd
	mad.lo.u32 %r32, %r5, 4, %r21;
	mul.wide.u32 %rd33, %r32, 4;
	add.s64 %rd33, %rd32, %rd33;
	ld.global.u32 %r33, [%rd33];        // refused every time: the trace goes on after it
	xor.b32 %r6, %r6, %r33;
	mad.lo.u32 %r10, %r1, 37, %r5;
	and.b32 %r10, %r10, 4095;
	cvt.u64.u32 %rd9, %r10;
	add.s64 %rd9, %rd1, %rd9;
	ld.global.s8 %r11, [%rd9];
	add.u32 %r6, %r6, %r11;
	ld.global.u8 %r12, [%rd9];
	xor.b32 %r6, %r6, %r12;
	mul.wide.u32 %rd10, %r5, 2;
	add.s64 %rd10, %rd2, %rd10;
	ld.global.s16 %r13, [%rd10];        // uniform
	add.u32 %r6, %r6, %r13;
	ld.global.u16 %r14, [%rd10+2];
	xor.b32 %r6, %r6, %r14;
	mul.wide.u32 %rd11, %r21, 8;
	add.s64 %rd12, %rd1, %rd11;
	ld.global.s32 %r15, [%rd12+4];
	add.u32 %r6, %r6, %r15;
	ld.global.u64 %rd13, [%rd12+64];
	add.s64 %rd20, %rd20, %rd13;
	ld.global.u64 %rd31, [%rd31];       // chase: the address register is the destination
	add.s64 %rd20, %rd20, %rd31;
	mul.wide.u32 %rd14, %r21, 4;
	add.s64 %rd14, %rd5, %rd14;
	st.shared.u32 [%rd14], %r6;
	shr.u32 %r16, %r21, 1;
	mul.wide.u32 %rd15, %r16, 8;
	add.s64 %rd15, %rd5, %rd15;
	st.shared.u64 [%rd15+256], %rd20;   // lanes 2k and 2k+1: one element
	ld.shared.u32 %r17, [%rd5+12];      // uniform
	add.u32 %r6, %r6, %r17;
	xor.b32 %r18, %r21, 5;
	mul.wide.u32 %rd16, %r18, 4;
	add.s64 %rd16, %rd5, %rd16;
	ld.shared.s32 %r19, [%rd16];
	xor.b32 %r6, %r6, %r19;
	ld.shared.u64 %rd17, [%rd15+256];
	xor.b64 %rd20, %rd20, %rd17;
	mad.lo.u32 %r23, %r5, %r30, %r4;
	mul.wide.u32 %rd18, %r23, 4;
	add.s64 %rd18, %rd3, %rd18;
	st.global.u32 [%rd18], %r6;         // consecutive
	mul.wide.u32 %rd19, %r4, 80;
	add.s64 %rd19, %rd4, %rd19;
	mul.wide.u32 %rd21, %r5, 4;
	add.s64 %rd19, %rd19, %rd21;
	st.global.u32 [%rd19], %r6;         // strided: 80 bytes between lanes
	and.b32 %r7, %r5, 1;
	setp.eq.u32 %p, %r7, 0;
	selp.b64 %rd7, %rd1, %rd2, %p;      // (last: its window changes every time) A on even iterations, B on odd
	mad.lo.u32 %r8, %r5, 7, %r1;
	and.b32 %r8, %r8, 1023;
	mul.wide.u32 %rd8, %r8, 4;
	add.s64 %rd8, %rd7, %rd8;
	ld.global.u32 %r9, [%rd8];
	add.u32 %r6, %r6, %r9;
	add.u32 %r5, %r5, 1;
	setp.lt.u32 %p, %r5, 20;
	@%p bra LOOP;
	mul.wide.u32 %rd22, %r4, 8;
	add.s64 %rd22, %rd4, %rd22;
	st.global.u64 [%rd22+16384], %rd20;
	ret;
}
`

// TestMemoryTracesMatchOps runs memTraceKernel with traces and op by op
// (the Go paths) and compares every byte it writes and the instruction
// counts; 2 CTAs of 80 threads, so the third warp of each (16 lanes) runs
// op by op either way.
func TestMemoryTracesMatchOps(t *testing.T) {
	setFlag(t, &tracesEnabled, true) // (set back at cleanup should a run below fail)
	const nt = 160
	run := func() ([]byte, LaunchStats, int) {
		p, g := load(t, memTraceKernel)
		traced := 0
		for _, o := range p.Kernels["k"].Ops {
			for _, e := range o.trace {
				for _, k := range memTraceKinds {
					for _, v := range []string{k, k + "P"} {
						if b, ok := simdMemBody(v); ok && e.body == b {
							traced++
						}
					}
				}
			}
		}
		alloc := func(n uint64, fill func(i int) byte) uint64 {
			a, err := g.Alloc(n, 0)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := g.Bytes(a, n)
			for i := range b {
				b[i] = fill(i)
			}
			return a
		}
		pa := alloc(8192, func(i int) byte { return byte(i*131 + i>>8) })
		pb := alloc(8192, func(i int) byte { return byte(i*29 + 0x80) })
		out := alloc(20*nt*4, func(int) byte { return 0 })
		outs := alloc(16384+nt*8, func(int) byte { return 0 })
		chain := alloc(64*8, func(int) byte { return 0 })
		cb, _ := g.Bytes(chain, 64*8)
		for i := 0; i < 64; i++ {
			binary.LittleEndian.PutUint64(cb[8*i:], chain+uint64((i*5+3)%64)*8)
		}
		var st LaunchStats
		if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{2, 1, 1}, Block: [3]int{80, 1, 1},
			Params: params(p.Kernels["k"], pa, pb, out, outs, chain, nt), Workers: 1, Stats: &st}); err != nil {
			t.Fatal(err)
		}
		st.Duration = 0
		b1, _ := g.Bytes(out, 20*nt*4)
		b2, _ := g.Bytes(outs, 16384+nt*8)
		return append(append([]byte(nil), b1...), b2...), st, traced
	}
	got, gotStats, traced := run()
	tracesEnabled = false
	want, wantStats, untraced := run()
	tracesEnabled = true
	if simdEnabled && traced < 15 {
		t.Fatalf("only %d memory ops in traces", traced)
	}
	if untraced != 0 {
		t.Fatal("traces built while turned off")
	}
	if gotStats != wantStats {
		t.Errorf("stats %+v, op by op %+v", gotStats, wantStats)
	}
	if i := firstDiff(got, want); i >= 0 {
		t.Fatalf("byte %d: %#x, op by op %#x", i, got[i], want[i])
	}
}

// memTraceKinds: the kinds memTraceKind names (each also with P, global).
var memTraceKinds = []string{"ldZ8", "ldS8", "ldZ16", "ldS16", "ldZ32", "ldS32", "ld64", "st32", "st64"}

func firstDiff(a, b []byte) int {
	if bytes.Equal(a, b) {
		return -1
	}
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return len(a)
}

// TestMemoryTraceFaults: an access a trace refuses runs on the Go path,
// which faults as op by op does: same fault (thread, op, address), same
// memory written before it. Lane 13 of the second warp steps out of its
// buffer in the fifth iteration (a load, then in another launch a store),
// and in a third launch a lane's address is misaligned.
func TestMemoryTraceFaults(t *testing.T) {
	setFlag(t, &tracesEnabled, true) // (set back at cleanup should a run below fail)
	src := `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 buf, .param .u64 out, .param .u32 mode)
{
	.reg .pred %p<3>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [buf];
	ld.param.u64 %rd2, [out];
	ld.param.u32 %r9, [mode];
	mov.u32 %r1, %tid.x;
	mov.u32 %r5, 0;
LOOP:
	mad.lo.u32 %r2, %r5, 64, %r1;
	setp.eq.u32 %p1, %r1, 45;
	setp.eq.u32 %p2, %r5, 4;
	and.pred %p1, %p1, %p2;
	selp.u32 %r3, 100000, 0, %p1;       // lane 13 of warp 1, iteration 4: far out
	setp.eq.u32 %p2, %r9, 2;
	and.pred %p2, %p1, %p2;
	selp.u32 %r10, 2, 0, %p2;           // mode 2: misaligned instead
	selp.u32 %r3, 0, %r3, %p2;
	add.u32 %r2, %r2, %r3;
	mul.wide.u32 %rd3, %r2, 4;
	cvt.u64.u32 %rd9, %r10;
	add.s64 %rd3, %rd3, %rd9;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	setp.eq.u32 %p2, %r9, 1;
	@%p2 bra STORE;
	ld.global.u32 %r4, [%rd4];
	add.u32 %r4, %r4, %r5;
	xor.b32 %r4, %r4, 0x55;
	bra NEXT;
STORE:
	mov.u32 %r4, %r5;
	xor.b32 %r4, %r4, 0x55;
	st.global.u32 [%rd5], %r4;
NEXT:
	mad.lo.u32 %r6, %r5, 64, %r1;
	mul.wide.u32 %rd6, %r6, 4;
	add.s64 %rd7, %rd2, %rd6;
	st.global.u32 [%rd7+4096], %r4;
	add.u32 %r5, %r5, 1;
	setp.lt.u32 %p1, %r5, 8;
	@%p1 bra LOOP;
	ret;
}
`
	for mode := uint64(0); mode < 3; mode++ {
		run := func() ([]byte, string) {
			p, g := load(t, src)
			buf, _ := g.Alloc(4096, 0)
			out, _ := g.Alloc(8192, 0)
			b, _ := g.Bytes(buf, 4096)
			for i := range b {
				b[i] = byte(i * 7)
			}
			err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1},
				Params: params(p.Kernels["k"], buf, out, mode), Workers: 1})
			var f *Fault
			if !errors.As(err, &f) {
				t.Fatalf("mode %d: error %v, want a fault", mode, err)
			}
			o, _ := g.Bytes(out, 8192)
			return append([]byte(nil), o...), fmt.Sprintf("%v", err)
		}
		got, gotErr := run()
		tracesEnabled = false
		want, wantErr := run()
		tracesEnabled = true
		if gotErr != wantErr {
			t.Errorf("mode %d: fault %q, op by op %q", mode, gotErr, wantErr)
		}
		if i := firstDiff(got, want); i >= 0 {
			t.Errorf("mode %d: byte %d: %#x, op by op %#x", mode, i, got[i], want[i])
		}
	}
}

// TestTraceWindowsFollowFrees: a trace window names an allocation; after
// it is freed and another takes its place, the next launch reads the new
// one (the windows' generation changed).
func TestTraceWindowsFollowFrees(t *testing.T) {
	src := `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r2, [%rd4];
	add.s64 %rd5, %rd2, %rd3;
	add.u32 %r2, %r2, 1;
	st.global.u32 [%rd5], %r2;
	ret;
}
`
	p, g := load(t, src)
	out, _ := g.Alloc(128, 0)
	for round := 0; round < 3; round++ {
		in, _ := g.Alloc(128, 0)
		b, _ := g.Bytes(in, 128)
		for i := 0; i < 32; i++ {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(round*1000+i))
		}
		if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
			Params: params(p.Kernels["k"], in, out), Workers: 1}); err != nil {
			t.Fatal(err)
		}
		o, _ := g.Bytes(out, 128)
		for i := 0; i < 32; i++ {
			if v := binary.LittleEndian.Uint32(o[4*i:]); v != uint32(round*1000+i+1) {
				t.Fatalf("round %d thread %d: %d, want %d", round, i, v, round*1000+i+1)
			}
		}
		if err := g.Free(in); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpWindowsFollowFrees: a divergent group's loads from two
// allocations read every CTA's elements, launch after launch of new
// allocations, and fault at a freed allocation's address rather than read
// its old bytes through a window an op kept (opWindow; the suite's spmv,
// whose loads take three allocations in turn, checks its hits).
func TestOpWindowsFollowFrees(t *testing.T) {
	src := `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 in2, .param .u64 out)
{
	.reg .pred %p;
	.reg .b32 %r<6>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd6, [in2];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r3, %ctaid.x;
	mad.lo.u32 %r4, %r3, 32, %r1;
	mul.wide.u32 %rd3, %r4, 4;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd7, %rd6, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	mov.u32 %r2, 7;
	setp.ge.u32 %p, %r1, 20;
	@%p bra Skip;                 // (lanes 0-19 run on as a group)
	ld.global.u32 %r2, [%rd4];
	ld.global.u32 %r5, [%rd7];
	add.u32 %r2, %r2, %r5;
Skip:
	add.u32 %r2, %r2, 1;
	st.global.u32 [%rd5], %r2;
	ret;
}
`
	p, g := load(t, src)
	const ctas = 6
	out, _ := g.Alloc(128*ctas, 0)
	in2, _ := g.Alloc(128*ctas, 0)
	b2, _ := g.Bytes(in2, 128*ctas)
	for i := 0; i < 32*ctas; i++ {
		binary.LittleEndian.PutUint32(b2[4*i:], uint32(i)<<16)
	}
	for round := 0; round < 4; round++ {
		in, _ := g.Alloc(128*ctas, 0)
		b, _ := g.Bytes(in, 128*ctas)
		for i := 0; i < 32*ctas; i++ {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(round*1000+i))
		}
		launch := func() error {
			return p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{ctas, 1, 1}, Block: [3]int{32, 1, 1},
				Params: params(p.Kernels["k"], in, in2, out), Workers: 1})
		}
		if err := launch(); err != nil {
			t.Fatal(err)
		}
		o, _ := g.Bytes(out, 128*ctas)
		for i := 0; i < 32*ctas; i++ {
			want := uint32(8)
			if i%32 < 20 {
				want = uint32(round*1000+i+1) + uint32(i)<<16
			}
			if v := binary.LittleEndian.Uint32(o[4*i:]); v != want {
				t.Fatalf("round %d thread %d: %#x, want %#x", round, i, v, want)
			}
		}
		if err := g.Free(in); err != nil {
			t.Fatal(err)
		}
		// the freed allocation's address: a fault, not its old bytes
		var f *Fault
		if err := launch(); !errors.As(err, &f) {
			t.Fatalf("round %d: a load from a freed allocation gave %v, want a fault", round, err)
		}
	}
}

// TestStoreHalves: stores of a 16x16 block's warps (lanes 0-15 and 16-31
// each at consecutive elements of two rows: storeHalves), 4 and 8 bytes,
// on the warp engine, give every element; a row pitch that puts the last
// block's second half past the buffer faults there, at its first lane.
func TestStoreHalves(t *testing.T) {
	for _, c := range []struct {
		ty, cvt string
		size    int
	}{{"u32", "mov.u32 %v, %r3;", 4}, {"u64", "cvt.u64.u32 %v, %r3;", 8}} {
		src := strings.NewReplacer("TY", c.ty, "CVT", c.cvt, "SZ", fmt.Sprint(c.size)).Replace(`.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 pitch)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<6>;
	.reg .TY %v;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [pitch];
	mov.u32 %r2, %tid.x;
	mov.u32 %r4, %tid.y;
	mov.u32 %r5, %ctaid.x;
	mad.lo.u32 %r2, %r5, 16, %r2;   // x
	mad.lo.u32 %r3, %r4, %r1, %r2;  // y * pitch + x
	CVT
	mul.lo.TY %v, %v, 3;
	bar.sync 0;
	mul.wide.u32 %rd2, %r3, SZ;
	add.s64 %rd3, %rd1, %rd2;
	st.global.TY [%rd3], %v;
	ret;
}`)
		const ctas, pitch = 4, 64
		in := bdFillBufs(bdBufs(bdB(c.size*pitch*16, bdZero)), 5)
		res, err := bdRun(src, "k", bdX(ctas), bdXY(16, 16), in, bdArgs(bdPtr(0), bdU(pitch)), 1, false)
		if err != nil || res.err != nil {
			t.Fatal(c.ty, err, res.err)
		}
		for y := range 16 {
			for x := range pitch {
				i := y*pitch + x
				var got uint64
				if c.size == 4 {
					got = uint64(binary.LittleEndian.Uint32(res.mem[0][4*i:]))
				} else {
					got = binary.LittleEndian.Uint64(res.mem[0][8*i:])
				}
				want := uint64(0)
				if x < 16*ctas {
					want = uint64(3 * i)
				}
				if got != want {
					t.Fatalf("%s: element (%d, %d) = %d, want %d", c.ty, x, y, got, want)
				}
			}
		}
		// a pitch of 60 elements: the last CTA's rows overrun a buffer of 16 rows of 60 by one piece
		short := bdFillBufs(bdBufs(bdB(c.size*(60*15+56), bdZero)), 5)
		res, err = bdRun(src, "k", bdX(ctas), bdXY(16, 16), short, bdArgs(bdPtr(0), bdU(60)), 1, false)
		var f *Fault
		if err != nil || !errors.As(res.err, &f) {
			t.Fatalf("%s: past the buffer: %v %v, want a fault", c.ty, err, res.err)
		}
	}
}

// TestLocalArraysInTraces: a kernel that fills a per-thread local array in
// a loop (st.local at one offset in every lane: the traces' local bodies),
// sums it back with ld.local of 4 bytes zero- and sign-extended and of 8
// bytes, calls a function whose larger frame moves the lanes' local
// memories (growLocal), and reads the array again, gives Go's values, with
// traces and without; an index that differs between lanes takes the Go
// path in the trace's place.
func TestLocalArraysInTraces(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.func (.param .b32 r) deep(.param .b32 x)
{
	.local .align 8 .b8 big[2048];
	.reg .b32 %q<4>;
	.reg .b64 %qd<4>;
	ld.param.b32 %q1, [x];
	mov.u64 %qd1, big;
	st.local.u32 [%qd1+2040], %q1;
	ld.local.u32 %q2, [%qd1+2040];
	add.u32 %q2, %q2, 1;
	st.param.b32 [r], %q2;
	ret;
}
.visible .entry k(.param .u64 out)
{
	.local .align 8 .b8 depot[384];
	.reg .pred %p;
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;
	ld.param.u64 %rd10, [out];
	mov.u64 %rd1, depot;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mad.lo.u32 %r3, %r2, 32, %r1;      // g
	mov.u32 %r4, 0;
Fill:
	mul.wide.u32 %rd2, %r4, 4;
	add.u64 %rd3, %rd1, %rd2;
	mad.lo.u32 %r5, %r3, %r4, -7;      // a[i] = g*i - 7 (negative for g*i < 7)
	st.local.u32 [%rd3], %r5;
	mul.wide.u32 %rd4, %r4, 8;
	add.u64 %rd5, %rd1, %rd4;
	cvt.u64.u32 %rd6, %r5;
	shl.b64 %rd6, %rd6, 20;
	st.local.u64 [%rd5+128], %rd6;     // b[i] = a[i] << 20 (64 bits)
	add.u32 %r4, %r4, 1;
	setp.lt.u32 %p, %r4, 32;
	@%p bra Fill;
	mov.u32 %r4, 0;
	mov.u64 %rd7, 0;
Sum:
	mul.wide.u32 %rd2, %r4, 4;
	add.u64 %rd3, %rd1, %rd2;
	ld.local.s32 %rd8, [%rd3];
	add.u64 %rd7, %rd7, %rd8;
	mul.wide.u32 %rd4, %r4, 8;
	add.u64 %rd5, %rd1, %rd4;
	ld.local.u64 %rd9, [%rd5+128];
	xor.b64 %rd7, %rd7, %rd9;
	add.u32 %r4, %r4, 1;
	setp.lt.u32 %p, %r4, 32;
	@%p bra Sum;
	{
	.param .b32 px;
	.param .b32 pr;
	st.param.b32 [px], %r3;
	call.uni (pr), deep, (px);
	ld.param.b32 %r6, [pr];
	}
	st.local.u32 [%rd1+20], %r6;       // a[5] = deep's result, in the moved memories
	and.b32 %r7, %r1, 31;              // a lane's own index: the Go path
	mul.wide.u32 %rd2, %r7, 4;
	add.u64 %rd3, %rd1, %rd2;
	ld.local.u32 %r8, [%rd3];
	ld.local.u32 %r9, [%rd1+124];      // a[31] after the call
	cvt.u64.u32 %rd11, %r6;
	add.u64 %rd7, %rd7, %rd11;
	cvt.u64.u32 %rd11, %r8;
	add.u64 %rd7, %rd7, %rd11;
	cvt.u64.u32 %rd11, %r9;
	add.u64 %rd7, %rd7, %rd11;
	mul.wide.u32 %rd12, %r3, 8;
	add.u64 %rd13, %rd10, %rd12;
	st.global.u64 [%rd13], %rd7;
	ret;
}`
	const ctas = 3
	want := make([]uint64, 32*ctas)
	for g := range want {
		var s uint64
		for i := range 32 {
			a := int32(uint32(g*i) - 7)
			s += uint64(int64(a))
			s ^= uint64(uint32(a)) << 20
		}
		s += uint64(g + 1)
		if g%32 == 5 {
			s += uint64(g + 1) // (a[5], written after the call)
		} else {
			s += uint64(uint32(g*(g%32) - 7))
		}
		s += uint64(uint32(g*31 - 7))
		want[g] = s
	}
	for _, traces := range []bool{true, false} {
		setFlag(t, &tracesEnabled, traces)
		p, g := load(t, src)
		out, _ := g.Alloc(uint64(8*len(want)), 0)
		launchK(t, p, ctas, 32, out)
		b, _ := g.Bytes(out, uint64(8*len(want)))
		for i, w := range want {
			if got := binary.LittleEndian.Uint64(b[8*i:]); got != w {
				t.Fatalf("traces %v: thread %d: %#x, want %#x", traces, i, got, w)
			}
		}
	}
}

// TestConstInTraces: ld.const of a table in a loop (one element for the
// whole warp, and each lane's own; an element by name, and a shared
// variable's by name, through the parameter bodies) runs in traces through
// the constant window, with the values of the table as without traces and of Go; an
// index past the bank faults (the body refuses, the Go path faults).
func TestConstInTraces(t *testing.T) {
	var init strings.Builder
	tab := make([]uint32, 64)
	for i := range tab {
		tab[i] = uint32(i*i*2654435761) ^ 0x5bd1e995
		if i > 0 {
			init.WriteString(", ")
		}
		fmt.Fprintf(&init, "%d", tab[i])
	}
	src := `.version 8.0
.target sm_90
.address_size 64
.const .align 4 .b32 tab[64] = {` + init.String() + `};
.visible .entry k(.param .u64 out, .param .u32 bad)
{
	.reg .pred %p;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	.shared .align 4 .b32 sh[32];
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r10, [bad];
	mov.u32 %r1, %tid.x;
	mul.lo.u32 %r9, %r1, 3;
	mul.wide.u32 %rd3, %r1, 4;
	mov.u64 %rd4, sh;
	add.u64 %rd4, %rd4, %rd3;
	st.shared.u32 [%rd4], %r9;         // sh[tid] = 3 tid
	bar.sync 0;
	mov.u32 %r2, 0;
	mov.u32 %r3, 0;
	mov.u64 %rd2, tab;
Loop:
	mul.wide.u32 %rd3, %r2, 4;
	add.u64 %rd4, %rd2, %rd3;
	ld.const.u32 %r4, [%rd4];          // tab[i], alike in every lane
	add.u32 %r5, %r1, %r2;
	and.b32 %r5, %r5, 63;
	add.u32 %r5, %r5, %r10;            // (bad: past the table's bank)
	mul.wide.u32 %rd5, %r5, 4;
	add.u64 %rd6, %rd2, %rd5;
	ld.const.u32 %r6, [%rd6];          // tab[(tid + i) % 64], each lane's
	xor.b32 %r3, %r3, %r4;
	add.u32 %r3, %r3, %r6;
	ld.const.u32 %r7, [tab+12];        // tab[3] by name
	add.u32 %r3, %r3, %r7;
	ld.shared.u32 %r8, [sh+20];        // sh[5] by name
	add.u32 %r3, %r3, %r8;
	add.u32 %r2, %r2, 1;
	setp.lt.u32 %p, %r2, 64;
	@%p bra Loop;
	mul.wide.u32 %rd7, %r1, 4;
	add.u64 %rd7, %rd1, %rd7;
	st.global.u32 [%rd7], %r3;
	ret;
}`
	want := make([]uint32, 32)
	for l := range want {
		var s uint32
		for i := range 64 {
			s ^= tab[i]
			s += tab[(l+i)%64]
			s += tab[3] + 15
		}
		want[l] = s
	}
	for _, traces := range []bool{true, false} {
		setFlag(t, &tracesEnabled, traces)
		p, g := load(t, src)
		out, _ := g.Alloc(4*32, 0)
		launchK(t, p, 1, 32, out, 0)
		b, _ := g.Bytes(out, 4*32)
		for l, w := range want {
			if got := binary.LittleEndian.Uint32(b[4*l:]); got != w {
				t.Fatalf("traces %v: lane %d: %#x, want %#x", traces, l, got, w)
			}
		}
		err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
			Params: params(p.Kernels["k"], out, 1<<20), Workers: 1})
		var f *Fault
		if !errors.As(err, &f) {
			t.Fatalf("traces %v: an index past the bank gave %v, want a fault", traces, err)
		}
	}
}

// TestMulHiU64InTraces: a 64-bit hash loop with mul.hi.u64 by a register
// and by an immediate (the traces' scalar bodies) gives Go's values, with
// traces and without.
func TestMulHiU64InTraces(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p;
	.reg .b32 %r<4>;
	.reg .b64 %rd<10>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	cvt.u64.u32 %rd2, %r1;
	mul.lo.u64 %rd3, %rd2, -7046029254386353131;
	add.u64 %rd3, %rd3, 12345;
	mov.u64 %rd4, 0;
	mov.u32 %r2, 0;
Loop:
	mul.hi.u64 %rd5, %rd3, -4658895280553007687;
	mul.hi.u64 %rd6, %rd3, %rd5;
	xor.b64 %rd4, %rd4, %rd6;
	add.u64 %rd3, %rd3, %rd5;
	add.u64 %rd3, %rd3, 1442695040888963407;
	add.u32 %r2, %r2, 1;
	setp.lt.u32 %p, %r2, 50;
	@%p bra Loop;
	mul.wide.u32 %rd7, %r1, 8;
	add.u64 %rd8, %rd1, %rd7;
	st.global.u64 [%rd8], %rd4;
	ret;
}`
	want := make([]uint64, 32)
	for l := range want {
		x := uint64(l)*uint64(0x9E3779B97F4A7C15) + 12345
		var acc uint64
		for range 50 {
			h, _ := bits.Mul64(x, 0xBF58476D1CE4E5B9)
			h2, _ := bits.Mul64(x, h)
			acc ^= h2
			x += h
			x += 1442695040888963407
		}
		want[l] = acc
	}
	for _, traces := range []bool{true, false} {
		setFlag(t, &tracesEnabled, traces)
		p, g := load(t, src)
		out, _ := g.Alloc(8*32, 0)
		launchK(t, p, 1, 32, out)
		b, _ := g.Bytes(out, 8*32)
		for l, w := range want {
			if got := binary.LittleEndian.Uint64(b[8*l:]); got != w {
				t.Fatalf("traces %v: lane %d: %#x, want %#x", traces, l, got, w)
			}
		}
	}
}

// TestVectorLoadsInTraces: a loop of ld.global.v4.u32 and ld.global.v2.s32
// into consecutive registers (the traces' vector bodies) and one into
// registers out of order (the Go path) gives Go's values, with traces and
// without.
func TestVectorLoadsInTraces(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out)
{
	.reg .pred %p;
	.reg .b32 %r<16>;
	.reg .b64 %rd<10>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r10, %tid.x;
	mul.wide.u32 %rd3, %r10, 16;
	add.u64 %rd4, %rd1, %rd3;         // in + 16 tid
	mov.u32 %r11, 0;
	mov.u32 %r12, 0;
Loop:
	ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd4];
	add.u32 %r12, %r12, %r1;
	xor.b32 %r12, %r12, %r2;
	add.u32 %r12, %r12, %r3;
	xor.b32 %r12, %r12, %r4;
	ld.global.v2.s32 {%r5, %r6}, [%rd4+8];
	shr.s32 %r5, %r5, 3;
	add.u32 %r12, %r12, %r5;
	sub.u32 %r12, %r12, %r6;
	ld.global.v2.u32 {%r8, %r7}, [%rd4];
	mul.lo.u32 %r8, %r8, 3;
	add.u32 %r12, %r12, %r8;
	add.u32 %r12, %r12, %r7;
	add.u64 %rd4, %rd4, 512;
	add.u32 %r11, %r11, 1;
	setp.lt.u32 %p, %r11, 16;
	@%p bra Loop;
	mul.wide.u32 %rd5, %r10, 4;
	add.u64 %rd6, %rd2, %rd5;
	st.global.u32 [%rd6], %r12;
	ret;
}`
	r := rand.New(rand.NewPCG(19, 20))
	words := make([]uint32, 32*4*16)
	for i := range words {
		words[i] = r.Uint32()
	}
	want := make([]uint32, 32)
	for l := range want {
		var acc uint32
		for it := range 16 {
			w := words[it*128+4*l:]
			acc += w[0]
			acc ^= w[1]
			acc += w[2]
			acc ^= w[3]
			acc += uint32(int32(w[2]) >> 3)
			acc -= w[3]
			acc += w[0] * 3
			acc += w[1]
		}
		want[l] = acc
	}
	for _, traces := range []bool{true, false} {
		setFlag(t, &tracesEnabled, traces)
		p, g := load(t, src)
		in, _ := g.Alloc(uint64(4*len(words)), 0)
		out, _ := g.Alloc(4*32, 0)
		b, _ := g.Bytes(in, uint64(4*len(words)))
		for i, w := range words {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		launchK(t, p, 1, 32, in, out)
		o, _ := g.Bytes(out, 4*32)
		for l, w := range want {
			if got := binary.LittleEndian.Uint32(o[4*l:]); got != w {
				t.Fatalf("traces %v: lane %d: %#x, want %#x", traces, l, got, w)
			}
		}
	}
}

// TestOpWindowAnswers: an op's window (noteWindow: the allocation it used
// last) answers an address inside it, with that allocation's bytes and
// base, and not an address past its end or below its base, one of another
// generation of the allocations (one was freed since), or an op whose
// window it is not.
func TestOpWindowAnswers(t *testing.T) {
	var w Warp
	o := &Op{traceWin: traceWindowOffset(firstGlobalWindow + 1)}
	other := &Op{traceWin: traceWindowOffset(firstGlobalWindow + 2)}
	data := make([]byte, 64)
	const base, gen = 0x1000, 3
	if _, _, ok := w.opWindow(o, base, gen); ok {
		t.Fatal("a window before one was noted")
	}
	w.noteWindow(o, data, base, gen)
	d, b, ok := w.opWindow(o, base+63, gen)
	if !ok || b != base || len(d) != len(data) || &d[0] != &data[0] {
		t.Fatalf("the last byte: %v base %#x len %d", ok, b, len(d))
	}
	for _, c := range []struct {
		o         *Op
		addr, gen uint64
	}{
		{o, base + 64, gen},
		{o, base - 1, gen},
		{o, base, gen + 1},
		{other, base, gen},
		{&Op{}, base, gen},
	} {
		if _, _, ok := w.opWindow(c.o, c.addr, c.gen); ok {
			t.Errorf("window %d answered %#x of generation %d", traceWindowIndex(c.o.traceWin), c.addr, c.gen)
		}
	}
}
