package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// load parses, checks and loads PTX source.
func load(t *testing.T, src string) (*Program, *mem.Global) {
	t.Helper()
	mod, err := parseModule(src)
	if err != nil {
		t.Fatal(err)
	}
	g := mem.NewGlobal(0)
	p, err := Load(mod, g)
	if err != nil {
		t.Fatal(err)
	}
	return p, g
}

func params(k *Func, vals ...uint64) []byte {
	offs, size := k.ParamLayout()
	buf := make([]byte, size)
	for i, v := range vals {
		n := uint64(8)
		if i+1 < len(offs) {
			n = min(8, offs[i+1]-offs[i])
		} else {
			n = min(8, size-offs[i])
		}
		putBits(buf[offs[i]:offs[i]+n], v)
	}
	return buf
}

func TestSaxpy(t *testing.T) {
	src, err := os.ReadFile("../../examples/saxpy.ptx")
	if err != nil {
		t.Fatal(err)
	}
	p, g := load(t, string(src))
	const n = 1000
	x, _ := g.Alloc(4*n, 0)
	y, _ := g.Alloc(4*n, 0)
	xb, _ := g.Bytes(x, 4*n)
	yb, _ := g.Bytes(y, 4*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(xb[4*i:], math.Float32bits(float32(i)))
		binary.LittleEndian.PutUint32(yb[4*i:], math.Float32bits(1))
	}
	k := p.Kernels["saxpy"]
	err = p.Launch(context.Background(), "saxpy", LaunchConfig{Grid: [3]int{(n + 127) / 128, 1, 1}, Block: [3]int{128, 1, 1},
		Params: params(k, n, uint64(math.Float32bits(2.5)), x, y)})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		got := math.Float32frombits(binary.LittleEndian.Uint32(yb[4*i:]))
		if want := float32(2.5)*float32(i) + 1; got != want {
			t.Fatalf("y[%d] = %v, want %v", i, got, want)
		}
	}
}

// TestDivergence: if/else on the lane, a loop with a lane-dependent trip
// count, reconvergence, and a barrier after divergent code.
func TestDivergence(t *testing.T) {
	p, g := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 1;
	setp.eq.u32 %p1, %r2, 0;
	@%p1 bra EVEN;
	mov.u32 %r3, 100;
	bra JOIN;
EVEN:
	mov.u32 %r3, 200;
JOIN:
	mov.u32 %r4, 0;
	mov.u32 %r5, 0;
LOOP:
	setp.ge.u32 %p2, %r5, %r1;
	@%p2 bra END;
	add.u32 %r4, %r4, %r5;
	add.u32 %r5, %r5, 1;
	bra LOOP;
END:
	bar.sync 0;
	add.u32 %r6, %r3, %r4;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r6;
	ret;
}
`)
	out, _ := g.Alloc(4*64, 0)
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1}, Params: params(p.Kernels["k"], out)}); err != nil {
		t.Fatal(err)
	}
	ob, _ := g.Bytes(out, 4*64)
	for i := 0; i < 64; i++ {
		want := uint32(100 + 100*(1-i%2) + i*(i-1)/2)
		if got := binary.LittleEndian.Uint32(ob[4*i:]); got != want {
			t.Errorf("out[%d] = %d, want %d", i, got, want)
		}
	}
}

func TestFaults(t *testing.T) {
	p, _ := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	st.global.u32 [%rd1], %r1;
	ret;
}
.visible .entry spin()
{
	.reg .pred %p;
	.reg .b32 %r<2>;
	mov.u32 %r1, %tid.x;
	setp.eq.u32 %p, %r1, 0;
	@%p bra DONE;
	bar.sync 0;
DONE:
	ret;
}
`)
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Params: params(p.Kernels["k"], 8)})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultOutOfBounds || f.Space != "global" || f.Addr != 8 || f.Pos.Line != 9 {
		t.Errorf("null store: %v", err)
	}
	err = p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{2048, 1, 1}, Params: params(p.Kernels["k"], 8)})
	if !errors.As(err, &f) || f.Kind != FaultLimit {
		t.Errorf("2048 threads: %v", err)
	}
	// thread 0 returns, the others wait at a barrier: with thread 0 gone
	// the barrier completes (only non-exited threads are waited for)
	if err := p.Launch(context.Background(), "spin", LaunchConfig{Grid: [3]int{2, 1, 1}, Block: [3]int{64, 1, 1}}); err != nil {
		t.Errorf("barrier after exit: %v", err)
	}
}

// TestIntraWarpLock: lanes of one warp take turns in a spin lock; a lockstep
// machine never lets the lock holder out of the loop (docs/engine.md,
// starvation escape). Each lane adds its id under the lock. The loop takes
// a lock (atom.cas), so its spinners yield after spinLimit rounds.
func TestIntraWarpLock(t *testing.T) {
	p, g := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<2>;
	.shared .u32 lock;
	.shared .u32 sum;
	mov.u32 %r1, %tid.x;
SPIN:
	atom.shared.cas.b32 %r2, [lock], 0, 1;
	setp.ne.u32 %p1, %r2, 0;
	@%p1 bra SPIN;
	ld.shared.u32 %r3, [sum];
	add.u32 %r3, %r3, %r1;
	st.shared.u32 [sum], %r3;
	atom.shared.exch.b32 %r4, [lock], 0;
	bar.sync 0;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra DONE;
	ld.param.u64 %rd1, [out];
	st.global.u32 [%rd1], %r3;
	ld.shared.u32 %r5, [sum];
	st.global.u32 [%rd1+4], %r5;
DONE:
	ret;
}
`)
	out, _ := g.Alloc(8, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var st LaunchStats
	if err := p.Launch(ctx, "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Params: params(p.Kernels["k"], out), Stats: &st}); err != nil {
		t.Fatal(err)
	}
	ob, _ := g.Bytes(out, 8)
	if got := binary.LittleEndian.Uint32(ob[4:]); got != 31*32/2 {
		t.Errorf("sum = %d, want %d", got, 31*32/2)
	}
	// each of the 32 turns: the spinners go round the 3-op loop spinLimit
	// times at most before the holder runs its 5 ops (about 1800 in all;
	// with starvationLimit's 1024 rounds a turn, about 95000)
	if st.WarpInstructions > 2000 {
		t.Errorf("%d warp instructions, want 2000 at most", st.WarpInstructions)
	}
}

// TestSpinnersReleaseTheLanesTheyWaitFor: lanes 0 and 1 spin, with an
// if/else inside their loop, until the other lanes of the warp, which
// wait at the loop's exit (above the loop), set a flag. The if/else's
// branches go backward (its else side is laid out before it), so when the
// backward-branch count reaches starvationLimit one spinner waits at its
// reconvergence point, below the others' point: the starvation escape
// must release the lanes that did not spin, not the lowest waiting ones
// (that spinner again, for ever).
func TestSpinnersReleaseTheLanesTheyWaitFor(t *testing.T) {
	p, g := load(t, `.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
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
	bra.uni HEAD;
ODD:
	add.u32 %s, %s, 3;
JOIN:
	add.u32 %k, %k, 1;
	ld.volatile.shared.u32 %f, [flag];
	setp.eq.u32 %p, %f, 0;
	@%p bra HEAD;
	bra.uni OUT;
HEAD:
	add.u32 %a, %k, %t;
	and.b32 %a, %a, 1;
	setp.eq.u32 %q, %a, 1;
	@%q bra ODD;
	xor.b32 %s, %s, %k;
	bra.uni JOIN;
OUT:
	setp.gt.u32 %p, %t, 1;
	@!%p bra STORE;
	st.volatile.shared.u32 [flag], 1;
STORE:
	ld.param.u64 %o, [out];
	mul.wide.u32 %addr, %t, 4;
	add.u64 %o, %o, %addr;
	st.global.u32 [%o], %k;
	ret;
}
`)
	out, _ := g.Alloc(32*4, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := p.Launch(ctx, "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Params: params(p.Kernels["k"], out)}); err != nil {
		t.Fatal(err)
	}
	ob, _ := g.Bytes(out, 8)
	// the others get their turn after spinLimit backward branches (the
	// loop only reads the flag: a spin-wait, lockLoops); an iteration of
	// the spinners issues at most two (their if/else's and the loop's),
	// so lane 0 saw the flag no sooner than this
	if k := binary.LittleEndian.Uint32(ob); k < spinLimit/2 {
		t.Errorf("lane 0 saw the flag after %d iterations: the others ran before the spinners starved them", k)
	}
}

// TestGuardedRetLeavesTheOthers: a guarded ret and exit that end some
// lanes of a converged warp, and of a divergent group, while the others
// go on to the next op.
func TestGuardedRetLeavesTheOthers(t *testing.T) {
	p, g := load(t, `.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .u32 %t, %a;
	.reg .u64 %o, %addr;
	.reg .pred %p, %q;
	ld.param.u64 %o, [out];
	mov.u32 %t, %tid.x;
	mul.wide.u32 %addr, %t, 4;
	add.u64 %o, %o, %addr;
	st.global.u32 [%o], 1;
	and.b32 %a, %t, 3;
	setp.eq.u32 %p, %a, 0;
	@%p ret;
	st.global.u32 [%o], 2;
	setp.lt.u32 %q, %t, 16;
	@%q bra LOW;
	setp.eq.u32 %p, %a, 1;
	@%p exit;
	st.global.u32 [%o], 3;
	ret;
LOW:
	setp.eq.u32 %p, %a, 2;
	@%p ret;
	st.global.u32 [%o], 4;
	ret;
}
`)
	out, _ := g.Alloc(64*4, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := p.Launch(ctx, "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1}, Params: params(p.Kernels["k"], out)}); err != nil {
		t.Fatal(err)
	}
	ob, _ := g.Bytes(out, 64*4)
	for l := 0; l < 64; l++ {
		want := uint32(4) // lanes below 16 that go on
		switch {
		case l%4 == 0:
			want = 1 // the first ret
		case l < 16 && l%4 == 2:
			want = 2 // ret at LOW
		case l >= 16 && l%4 == 1:
			want = 2 // exit
		case l >= 16:
			want = 3
		}
		if got := binary.LittleEndian.Uint32(ob[4*l:]); got != want {
			t.Errorf("thread %d wrote %d, want %d", l, got, want)
		}
	}
}

// TestDeadlock: the two halves of a CTA wait at different barriers.
func TestDeadlock(t *testing.T) {
	p, _ := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k()
{
	.reg .pred %p;
	.reg .b32 %r<2>;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p, %r1, 32;
	@%p bra A;
	bar.sync 1;
	bra DONE;
A:
	bar.sync 0;
DONE:
	ret;
}
`)
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1}})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultDeadlock || !strings.Contains(f.Msg, "warp 0") || !strings.Contains(f.Msg, "warp 1") {
		t.Fatalf("want a deadlock naming both warps, got %v", err)
	}
}

// TestIndirectCall: calls through a register, with lanes calling different
// functions, and a table of function addresses in a global initializer.
func TestIndirectCall(t *testing.T) {
	p, g := load(t, `.version 7.0
.target sm_70
.address_size 64
.func (.param .b32 r) twice(.param .b32 x)
{
	.reg .b32 %r<2>;
	ld.param.b32 %r1, [x];
	add.u32 %r1, %r1, %r1;
	st.param.b32 [r], %r1;
	ret;
}
.func (.param .b32 r) square(.param .b32 x)
{
	.reg .b32 %r<2>;
	ld.param.b32 %r1, [x];
	mul.lo.u32 %r1, %r1, %r1;
	st.param.b32 [r], %r1;
	ret;
}
.global .align 8 .u64 table[2] = {twice, square};
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<6>;
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 1;
	mul.wide.u32 %rd1, %r2, 8;
	mov.u64 %rd2, table;
	add.s64 %rd3, %rd2, %rd1;
	ld.global.u64 %rd4, [%rd3];
	{
	.param .b32 a;
	.param .b32 res;
	st.param.b32 [a], %r1;
	proto: .callprototype (.param .b32 _) _ (.param .b32 _);
	call (res), %rd4, (a), proto;
	ld.param.b32 %r3, [res];
	}
	ld.param.u64 %rd5, [out];
	mul.wide.u32 %rd1, %r1, 4;
	add.s64 %rd5, %rd5, %rd1;
	st.global.u32 [%rd5], %r3;
	ret;
}
`)
	out, _ := g.Alloc(4*32, 0)
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Params: params(p.Kernels["k"], out)}); err != nil {
		t.Fatal(err)
	}
	ob, _ := g.Bytes(out, 4*32)
	for i := 0; i < 32; i++ {
		want := uint32(2 * i)
		if i%2 == 1 {
			want = uint32(i * i)
		}
		if got := binary.LittleEndian.Uint32(ob[4*i:]); got != want {
			t.Errorf("out[%d] = %d, want %d", i, got, want)
		}
	}
}

// TestAlloca: per-thread stack allocations hold each thread's data.
func TestAlloca(t *testing.T) {
	p, g := load(t, `.version 7.3
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	mov.u32 %r1, %tid.x;
	stacksave.u64 %rd6;
	add.u32 %r2, %r1, 4;
	cvt.u64.u32 %rd1, %r2;
	alloca.u64 %rd2, %rd1, 8;
	cvta.local.u64 %rd3, %rd2;
	st.u32 [%rd3], %r1;
	ld.u32 %r3, [%rd3];
	stackrestore.u64 %rd6;
	ld.param.u64 %rd4, [out];
	mul.wide.u32 %rd5, %r1, 4;
	add.s64 %rd4, %rd4, %rd5;
	st.global.u32 [%rd4], %r3;
	ret;
}
`)
	out, _ := g.Alloc(4*40, 0)
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{40, 1, 1}, Params: params(p.Kernels["k"], out)}); err != nil {
		t.Fatal(err)
	}
	ob, _ := g.Bytes(out, 4*40)
	for i := 0; i < 40; i++ {
		if got := binary.LittleEndian.Uint32(ob[4*i:]); got != uint32(i) {
			t.Errorf("out[%d] = %d", i, got)
		}
	}
}

// TestAllocaStartsAtTheTopInEveryCTA: a thread's first allocation has the
// same address in every CTA, although the CTAs before it left their stack
// pointers moved (no stackrestore) and one worker reuses its warps.
func TestAllocaStartsAtTheTopInEveryCTA(t *testing.T) {
	p, g := load(t, `.version 7.3
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r2, %r2, %r3, %r1;
	add.u32 %r3, %r1, 4;
	cvt.u64.u32 %rd1, %r3;
	alloca.u64 %rd2, %rd1, 8;
	ld.param.u64 %rd4, [out];
	mul.wide.u32 %rd5, %r2, 8;
	add.s64 %rd4, %rd4, %rd5;
	st.global.u64 [%rd4], %rd2;
	ret;
}
`)
	const ctas, threads = 6, 40
	out, _ := g.Alloc(8*ctas*threads, 0)
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{ctas, 1, 1}, Block: [3]int{threads, 1, 1},
		Params: params(p.Kernels["k"], out), Workers: 1}); err != nil {
		t.Fatal(err)
	}
	ob, _ := g.Bytes(out, 8*ctas*threads)
	for c := 1; c < ctas; c++ {
		for i := 0; i < threads; i++ {
			first := binary.LittleEndian.Uint64(ob[8*i:])
			if got := binary.LittleEndian.Uint64(ob[8*(c*threads+i):]); got != first {
				t.Fatalf("CTA %d thread %d: alloca at %#x, in CTA 0 at %#x", c, i, got, first)
			}
		}
	}
}

func TestProgress(t *testing.T) {
	p, _ := load(t, ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n")
	var last, total int
	cfg := LaunchConfig{Grid: [3]int{10, 2, 1}, Block: [3]int{1, 1, 1}, Workers: 1,
		Progress: func(d, n int) { last, total = d, n }}
	if err := p.Launch(context.Background(), "k", cfg); err != nil {
		t.Fatal(err)
	}
	if last != 20 || total != 20 {
		t.Errorf("last progress report %d/%d, want 20/20", last, total)
	}
}

// TestSharedLimitPerTarget: the shared-memory limit follows the target
// (64 KiB per block on sm_75, 163 KiB on sm_80).
func TestSharedLimitPerTarget(t *testing.T) {
	for _, c := range []struct {
		target string
		bytes  uint64
		ok     bool
	}{{"sm_75", 64 << 10, true}, {"sm_75", 64<<10 + 1, false}, {"sm_80", 163 << 10, true}, {"sm_80", 163<<10 + 1, false}} {
		ver := "6.3"
		if c.target == "sm_80" {
			ver = "7.0"
		}
		p, _ := load(t, ".version "+ver+"\n.target "+c.target+"\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n")
		err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{1, 1, 1}, DynamicShared: c.bytes})
		if (err == nil) != c.ok {
			t.Errorf("%s with %d bytes: %v", c.target, c.bytes, err)
		}
	}
}

// TestScheduleSeed: a racy kernel (every thread stores its id to one shared
// word; thread 0 reads it after a barrier) gives the same result for the
// same seed and, over several seeds, more than one result; faults name the
// seed.
func TestScheduleSeed(t *testing.T) {
	p, g := load(t, `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out) {
	.reg .u32 %t, %v;
	.reg .b64 %a;
	.reg .pred %p;
	.shared .u32 x;
	mov.u32 %t, %tid.x;
	st.shared.u32 [x], %t;
	bar.sync 0;
	setp.ne.u32 %p, %t, 0;
	@%p bra Done;
	ld.shared.u32 %v, [x];
	ld.param.u64 %a, [out];
	st.global.u32 [%a], %v;
Done:
	ret;
}
`)
	out, _ := g.Alloc(4, 0)
	run := func(seed uint64) uint32 {
		err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{128, 1, 1},
			Params: params(p.Kernels["k"], out), Workers: 1, ScheduleSeed: seed})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := g.Bytes(out, 4)
		return uint32(b[0]) | uint32(b[1])<<8
	}
	seen := map[uint32]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		v := run(seed)
		if w := run(seed); w != v {
			t.Fatalf("seed %d: %d then %d", seed, v, w)
		}
		seen[v] = true
	}
	if len(seen) < 2 {
		t.Errorf("20 seeds gave one outcome %v; the schedule is not perturbed", seen)
	}
	if run(0) != run(0) {
		t.Error("the default schedule is not deterministic")
	}
	// a fault names the seed
	p2, _ := load(t, `.version 8.0
.target sm_80
.address_size 64
.visible .entry k() {
	trap;
}
`)
	err := p2.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, ScheduleSeed: 42})
	if err == nil || !strings.Contains(err.Error(), "schedule seed 42") {
		t.Errorf("fault %v does not name the seed", err)
	}
}

// TestMessagePassingAcrossCTAs: CTA 0 writes data and releases a flag; CTA
// 1, on another worker, acquires the flag and must see the data (8.4:
// release/acquire patterns). Run with -race to check the engine's own
// synchronization.
func TestMessagePassingAcrossCTAs(t *testing.T) {
	p, g := load(t, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 buf) {
	.reg .u32 %c, %v, %t;
	.reg .b64 %a;
	.reg .pred %p;
	mov.u32 %t, %tid.x;
	setp.ne.u32 %p, %t, 0;
	@%p bra Done;
	ld.param.u64 %a, [buf];
	mov.u32 %c, %ctaid.x;
	setp.ne.u32 %p, %c, 0;
	@%p bra Consumer;
	st.global.u32 [%a+8], 4242;
	fence.proxy.async;
	st.release.gpu.global.u32 [%a], 1;
	bra Done;
Consumer:
	ld.acquire.gpu.global.u32 %v, [%a];
	setp.eq.u32 %p, %v, 0;
	@%p bra Consumer;
	ld.global.u32 %v, [%a+8];
	st.global.u32 [%a+4], %v;
Done:
	ret;
}
`)
	buf, _ := g.Alloc(12, 0)
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{2, 1, 1}, Block: [3]int{32, 1, 1},
		Params: params(p.Kernels["k"], buf), Workers: 2}); err != nil {
		t.Fatal(err)
	}
	b, _ := g.Bytes(buf, 12)
	if got := uint32(b[4]) | uint32(b[5])<<8; got != 4242 {
		t.Errorf("consumer read %d, want 4242", got)
	}
}

// TestClockAdvances: a loop that waits for %clock64 to move on ends, and
// %globaltimer never goes back between reads.
func TestClockAdvances(t *testing.T) {
	res := runLanes(t, ".reg .u64 %c0, %c1, %g0, %g1; .reg .pred %p;", `
	mov.u64 %c0, %clock64;
	mov.u64 %g0, %globaltimer;
Spin:
	mov.u64 %c1, %clock64;
	sub.u64 %c1, %c1, %c0;
	setp.lt.u64 %p, %c1, 20000; // 20 us
	@%p bra Spin;
	mov.u64 %g1, %globaltimer;
	setp.ge.u64 %p, %g1, %g0;
	selp.u64 %res, 1, 0, %p;`)
	for l, v := range res {
		if v != 1 {
			t.Errorf("lane %d: %%globaltimer went back", l)
		}
	}
}

// TestClockOperandAdvances: an arithmetic op that reads %clock64 directly
// (whose whole-warp loop the converged path would otherwise call without
// refreshing the register) sees it move on: the spin ends.
func TestClockOperandAdvances(t *testing.T) {
	p, _ := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k()
{
	.reg .u64 %c0, %d;
	.reg .pred %p;
	mov.u64 %c0, %clock64;
Spin:
	sub.u64 %d, %clock64, %c0;
	setp.lt.u64 %p, %d, 20000; // 20 us
	@%p bra Spin;
	ret;
}
`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.Launch(ctx, "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Workers: 1}); err != nil {
		t.Fatalf("the spin on %%clock64 did not end: %v", err)
	}
}

// TestLaunchStats: a loop of known length gives exact instruction counts:
// 3 instructions before the loop, 7 per iteration (10 iterations), 3 after,
// issued by 2 warps (48 threads, the second warp half full); the last
// @%p bra is predicated off, so it is issued but not executed.
func TestLaunchStats(t *testing.T) {
	p, g := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	mov.u32 %r3, 0x9e3779b9;
LOOP:
	xor.b32 %r1, %r1, %r3;
	mul.lo.u32 %r1, %r1, 16777619;
	shr.u32 %r4, %r1, 13;
	xor.b32 %r1, %r1, %r4;
	add.u32 %r2, %r2, 1;
	setp.lt.u32 %p, %r2, 10;
	@%p bra LOOP;
	ld.param.u64 %rd1, [out];
	st.global.u32 [%rd1], %r1;
	ret;
}
`)
	out, _ := g.Alloc(4, 0)
	var st LaunchStats
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{48, 1, 1},
		Params: params(p.Kernels["k"], out), Workers: 1, Stats: &st}); err != nil {
		t.Fatal(err)
	}
	const per = 3 + 7*10 + 3
	if st.WarpInstructions != 2*per || st.ThreadInstructions != 48*(per-1) || st.CTAs != 1 || st.Workers != 1 {
		t.Errorf("stats %+v, want %d warp and %d thread instructions", st, 2*per, 48*(per-1))
	}
}

// TestReconvergeOnce: lanes that split several times towards one
// reconvergence point meet there as one group, so what follows issues once
// per warp. A loop whose lanes leave at trip counts tid%8+1 (warp.go's
// diverged splits the loop's branch at each of eight iterations), and an
// if nested in an if that joins at the same point; both followed by 10
// adds, a store and ret. Counted by hand: the loop, 1 ld.param + 3 before
// it + 4 per iteration for the lanes still in it (8 iterations) + 14
// after = 50 per warp; the ifs, 1 + 5 to the outer branch + 3 to the
// inner one + 1 + 14 = 24.
func TestReconvergeOnce(t *testing.T) {
	const after = `
	add.s32 %r3, %r3, 1;
	add.s32 %r3, %r3, 1;
	add.s32 %r3, %r3, 1;
	add.s32 %r3, %r3, 1;
	add.s32 %r3, %r3, 1;
	add.s32 %r3, %r3, 1;
	add.s32 %r3, %r3, 1;
	add.s32 %r3, %r3, 1;
	add.s32 %r3, %r3, 1;
	add.s32 %r3, %r3, 1;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
	ret;
}
`
	const head = `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
`
	for _, c := range []struct {
		name, body string
		warp       uint64
		want       func(tid uint32) uint32
	}{
		{"loop", `
	and.b32 %r2, %r1, 7;
	mov.u32 %r3, 0;
L1:
	add.s32 %r3, %r3, 3;
	add.s32 %r2, %r2, -1;
	setp.ge.s32 %p1, %r2, 0;
	@%p1 bra L1;`, 50, func(tid uint32) uint32 { return 3*(tid%8+1) + 10 }},
		{"nested", `
	mov.u32 %r3, 0;
	and.b32 %r2, %r1, 1;
	setp.eq.u32 %p1, %r2, 0;
	@%p1 bra J;
	and.b32 %r2, %r1, 2;
	setp.eq.u32 %p2, %r2, 0;
	@%p2 bra J;
	add.s32 %r3, %r3, 5;
J:`, 24, func(tid uint32) uint32 {
			if tid%4 == 3 {
				return 15
			}
			return 10
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, g := load(t, head+c.body+after)
			out, _ := g.Alloc(4*64, 0)
			var st LaunchStats
			if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1},
				Params: params(p.Kernels["k"], out), Workers: 1, Stats: &st}); err != nil {
				t.Fatal(err)
			}
			if st.WarpInstructions != 2*c.warp {
				t.Errorf("%d warp instructions, want %d (2 warps of %d)", st.WarpInstructions, 2*c.warp, c.warp)
			}
			ob, _ := g.Bytes(out, 4*64)
			for tid := range uint32(64) {
				if got := mem.Load(ob[4*tid : 4*tid+4]); got != uint64(c.want(tid)) {
					t.Errorf("out[%d] = %d, want %d", tid, got, c.want(tid))
				}
			}
		})
	}
}

// TestWarpLoadWindowFault: a converged load whose last lane runs past the
// allocation faults on that lane (the whole-warp path must not hide it).
func TestWarpLoadWindowFault(t *testing.T) {
	p, g := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 buf) {
	.reg .u32 %t, %v;
	.reg .b64 %a, %o;
	mov.u32 %t, %tid.x;
	ld.param.u64 %a, [buf];
	ld.global.u32 %v, [%a]; // warm the warp's allocation cache
	mul.wide.u32 %o, %t, 4;
	add.u64 %a, %a, %o;
	ld.global.u32 %v, [%a];
	st.global.u32 [%a], %v;
	ret;
}
`)
	buf, _ := g.Alloc(31*4, 0) // one word short of the 32 lanes
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
		Params: params(p.Kernels["k"], buf), Workers: 1})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultOutOfBounds || f.Thread[0] != 31 {
		t.Fatalf("got %v, want an out-of-bounds fault of thread 31", err)
	}
}

// TestReusedCTAsStartClean: CTAs run one after another on one worker (and
// so reuse each other's objects) each find their shared memory and local
// memory zeroed, as a fresh CTA would, and every CTA's result is its own.
func TestReusedCTAsStartClean(t *testing.T) {
	p, g := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out) {
	.reg .u32 %t, %c, %v, %w;
	.reg .b64 %a, %o;
	.shared .u32 s;
	.local .u32 loc;
	mov.u32 %t, %tid.x;
	mov.u32 %c, %ctaid.x;
	ld.shared.u32 %v, [s];
	ld.local.u32 %w, [loc];
	or.b32 %v, %v, %w;
	bar.sync 0;
	st.shared.u32 [s], 0xdead;
	st.local.u32 [loc], 0xbeef;
	add.u32 %v, %v, %c;
	ld.param.u64 %a, [out];
	mad.lo.u32 %t, %c, 64, %t;
	mul.wide.u32 %o, %t, 4;
	add.u64 %a, %a, %o;
	st.global.u32 [%a], %v;
	ret;
}
`)
	out, _ := g.Alloc(4*64*5, 0)
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{5, 1, 1}, Block: [3]int{64, 1, 1},
		Params: params(p.Kernels["k"], out), Workers: 1}); err != nil {
		t.Fatal(err)
	}
	b, _ := g.Bytes(out, 4*64*5)
	for i := 0; i < 64*5; i++ {
		if got := binary.LittleEndian.Uint32(b[4*i:]); got != uint32(i/64) {
			t.Fatalf("thread %d of CTA %d read %#x, want %d (zeroed memory)", i%64, i/64, got, i/64)
		}
	}
}

// TestMapF64ToF32Refused: f64 instructions under .target map_f64_to_f32
// are reported unsupported at load, not run in double precision.
func TestMapF64ToF32Refused(t *testing.T) {
	m, err := parseModule(`.version 1.4
.target sm_13, map_f64_to_f32
.entry k {
	.reg .f64 %d;
	add.f64 %d, %d, %d;
	exit;
}
`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Load(m, mem.NewGlobal(0))
	if err == nil || !strings.Contains(err.Error(), "unsupported: add.f64 (.target map_f64_to_f32)") {
		t.Errorf("Load: %v, want unsupported", err)
	}
}

// TestFirstFaultIsLowestCTA: when several CTAs fault on different workers,
// the launch reports the lowest CTA's fault, even when a later CTA faults
// sooner; and a CTA that waits forever for a faulted one does not hang the
// launch (it is cancelled after a grace period).
func TestFirstFaultIsLowestCTA(t *testing.T) {
	p, g := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 flag)
{
	.reg .b32 %c, %i, %v;
	.reg .b64 %a;
	.reg .pred %p;
	mov.u32 %c, %ctaid.x;
	setp.ne.u32 %p, %c, 0;
	@%p trap;                     // every CTA but 0 faults at once
	mov.u32 %i, 0;
Spin:                             // CTA 0 works a while, then faults too
	add.u32 %i, %i, 1;
	setp.lt.u32 %p, %i, 200000;
	@%p bra Spin;
	ld.param.u64 %a, [flag];
	ld.volatile.global.u32 %v, [%a];
	setp.eq.u32 %p, %v, 0;
	@%p trap;
Forever:                          // flag set: wait for a CTA that never comes
	bra Forever;
}
`)
	flag, _ := g.Alloc(4, 0)
	for round := 0; round < 5; round++ {
		err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{8, 1, 1}, Block: [3]int{32, 1, 1},
			Params: params(p.Kernels["k"], flag), Workers: 2})
		var f *Fault
		if !errors.As(err, &f) || f.Kind != FaultTrap || f.CTA != [3]int{0, 0, 0} {
			t.Fatalf("round %d: got %v, want the trap of CTA 0", round, err)
		}
	}
	// CTA 0 now spins forever once its loop ends: the launch still ends,
	// with CTA 1's fault
	b, _ := g.Bytes(flag, 4)
	b[0] = 1
	start := time.Now()
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{8, 1, 1}, Block: [3]int{32, 1, 1},
		Params: params(p.Kernels["k"], flag), Workers: 2})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultTrap || f.CTA != [3]int{1, 0, 0} {
		t.Fatalf("got %v, want the trap of CTA 1", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the launch took %v", d)
	}
}

// setFlag sets one of the package's switches (batchEnabled, simdEnabled,
// ...), limits (undoMaxBytes) or test hooks (redBeforeCAS, ...) to v for
// the rest of the test.
func setFlag[T any](t *testing.T, p *T, v T) {
	old := *p
	*p = v
	t.Cleanup(func() { *p = old })
}

// TestInternalErrorIsAFault: a Go panic inside a launch's worker (a bug of
// the engine; here a test hook that panics while the worker adds its
// buffered f32 adds) ends the launch with a FaultInternal naming the panic,
// not the process.
func TestInternalErrorIsAFault(t *testing.T) {
	setFlag(t, &batchEnabled, false) // (the warp engine buffers the adds)
	setFlag(t, &redBeforeCAS, func() { panic("test hook") })
	p, g := load(t, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 buf) {
	.reg .u64 %a;
	.reg .f32 %f;
	ld.param.u64 %a, [buf];
	mov.f32 %f, 0f3F800000;
	red.global.add.f32 [%a], %f;
	ret;
}
`)
	buf, _ := g.Alloc(4, 0)
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{4, 1, 1}, Block: [3]int{32, 1, 1},
		Params: params(p.Kernels["k"], buf), Workers: 2})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultInternal || !strings.Contains(f.Msg, "test hook") {
		t.Fatalf("err = %v, want an internal error naming the panic", err)
	}
}

// panicWriter panics on every write.
type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("writer") }

// TestInternalErrorReleasesPrintf: a printf writer that panics ends the
// launch with a FaultInternal, and the other workers, which print too, do
// not wait for the print lock forever.
func TestInternalErrorReleasesPrintf(t *testing.T) {
	src, err := os.ReadFile("../../testdata/clang/ptx/printf.sm_60.ptx60.O0.ptx")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := load(t, string(src))
	done := make(chan error, 1)
	go func() {
		done <- p.Launch(context.Background(), "_Z5hellov", LaunchConfig{Grid: [3]int{64, 1, 1}, Block: [3]int{32, 1, 1},
			Workers: 2, Printf: panicWriter{}})
	}()
	select {
	case err := <-done:
		var f *Fault
		if !errors.As(err, &f) || f.Kind != FaultInternal || !strings.Contains(f.Msg, "writer") {
			t.Fatalf("err = %v, want an internal error naming the writer's panic", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the launch still waits")
	}
}

// TestInternalErrorDropsBatch: after a panic in a batch (a test hook after
// its ops), the kernel's next launch does not reuse that batch's state:
// its pending sums are not added again.
func TestInternalErrorDropsBatch(t *testing.T) {
	p, g := load(t, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 c) {
	.reg .u64 %a;
	ld.param.u64 %a, [c];
	red.global.add.u32 [%a], 1;
	ret;
}
`)
	if pl := p.Kernels["k"].plan(); pl == nil || !pl.pendingAtoms {
		t.Fatal("not planned with pending sums")
	}
	c, _ := g.Alloc(4, 0)
	cb, _ := g.Bytes(c, 4)
	launch := func() error {
		return p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{64, 1, 1}, Block: [3]int{32, 1, 1},
			Params: params(p.Kernels["k"], c), Workers: 1})
	}
	setFlag(t, &afterBatchOps, func() { panic("batch hook") })
	var f *Fault
	if err := launch(); !errors.As(err, &f) || f.Kind != FaultInternal {
		t.Fatalf("err = %v, want an internal error", err)
	}
	afterBatchOps = nil
	clear(cb)
	if err := launch(); err != nil {
		t.Fatal(err)
	}
	if got := binary.LittleEndian.Uint32(cb); got != 64*32 {
		t.Errorf("count = %d, want %d", got, 64*32)
	}
}

// TestCallFramesStartFresh: a called function's later activations (the
// warp reuses a returned call's frame) start as the first did: a register
// read before it is written holds zero, not what the last activation
// left, and a predicate is clear; the callee's local array lies at its own
// frame's place (the caller's survives); a callee's alloca is released to
// the stack pointer of its call, not of an earlier one (the caller's
// alloca A survives another's B); a recursive function nests frames of
// itself.
func TestCallFramesStartFresh(t *testing.T) {
	p, g := load(t, `.version 7.8
.target sm_90
.address_size 64
.func (.param .b32 r) f(.param .b32 x)
{
	.local .align 4 .b32 arr[4];
	.reg .b32 %x, %u, %v;
	.reg .pred %p, %q;
	ld.param.b32 %x, [x];
	setp.eq.u32 %p, %x, 0;
	@%p mov.u32 %u, 5; // x != 0: %u read unset below
	@%p setp.eq.u32 %q, %x, 0; // x != 0: %q unset
	selp.u32 %v, 100, 0, %q;
	add.u32 %u, %u, %v;
	st.local.u32 [arr+4], %x;
	ld.local.u32 %v, [arr+4];
	add.u32 %u, %u, %v;
	st.param.b32 [r], %u;
	ret;
}
.func g()
{
	.reg .u64 %a;
	alloca.u64 %a, 16; // released at the return: the caller's stack pointer again
	st.local.u32 [%a], 99;
	ret;
}
.func (.param .b32 r) fib(.param .b32 n)
{
	.reg .b32 %n, %a, %b;
	.reg .pred %p;
	ld.param.b32 %n, [n];
	setp.lt.u32 %p, %n, 2;
	@%p bra Done;
	sub.u32 %a, %n, 1;
	{
	.param .b32 pa;
	.param .b32 ra;
	st.param.b32 [pa], %a;
	call (ra), fib, (pa);
	ld.param.b32 %a, [ra];
	}
	sub.u32 %b, %n, 2;
	{
	.param .b32 pb;
	.param .b32 rb;
	st.param.b32 [pb], %b;
	call (rb), fib, (pb);
	ld.param.b32 %b, [rb];
	}
	add.u32 %n, %a, %b;
Done:
	st.param.b32 [r], %n;
	ret;
}
.visible .entry k(.param .u64 out)
{
	.local .align 4 .b32 mine[2];
	.reg .b32 %t, %x, %r<4>, %m;
	.reg .b64 %o, %a;
	mov.u32 %t, %tid.x;
	st.local.u32 [mine+4], 7;
	mov.u32 %x, 0;
	{
	.param .b32 p0;
	.param .b32 q0;
	st.param.b32 [p0], %x;
	call (q0), f, (p0);
	ld.param.b32 %r0, [q0];
	}
	add.u32 %x, %t, 1;
	{
	.param .b32 p1;
	.param .b32 q1;
	st.param.b32 [p1], %x;
	call (q1), f, (p1);
	ld.param.b32 %r1, [q1];
	}
	and.b32 %x, %t, 7;
	add.u32 %x, %x, 3;
	{
	.param .b32 p2;
	.param .b32 q2;
	st.param.b32 [p2], %x;
	call (q2), fib, (p2);
	ld.param.b32 %r2, [q2];
	}
	call g, ();
	alloca.u64 %a, 16; // A
	st.local.u32 [%a], 11;
	call g, (); // (a reused frame: its stack pointer must be the one after A)
	alloca.u64 %o, 16; // B, below A
	st.local.u32 [%o], 22;
	ld.local.u32 %x, [%a];
	ld.local.u32 %m, [mine+4];
	add.u32 %m, %m, %x; // 7 + 11
	ld.param.u64 %o, [out];
	mul.wide.u32 %a, %t, 16;
	add.u64 %o, %o, %a;
	st.global.v4.u32 [%o], {%r0, %r1, %r2, %m};
	ret;
}
`)
	out, _ := g.Alloc(64*16, 0)
	for range 2 { // (the second launch reuses the warps' frames too)
		launchK(t, p, 1, 64, out)
		ob, _ := g.Bytes(out, 64*16)
		fib := []uint32{0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55}
		for th := range 64 {
			want := []uint32{105, uint32(th + 1), fib[th%8+3], 7 + 11}
			for k, w := range want {
				if got := binary.LittleEndian.Uint32(ob[16*th+4*k:]); got != w {
					t.Fatalf("thread %d, value %d: %d, want %d", th, k, got, w)
				}
			}
		}
	}
}

// TestReconvergeLatchFirst: a loop whose latch lies before its body (clang
// places a work queue's latch so). In the body, lanes with (tid+round)%8 <
// 2 branch straight to the latch, the rest run an inner loop whose lanes
// leave at different trips: the first split reconverges at the latch, a
// lower PC than the inner loop's point, which those lanes hold above it.
// The latch's lanes must not go round alone while the others wait at the
// inner point: the warp meets at the latch every round. Counted by hand,
// as one warp: 7 ops before the loop; 8 rounds of 4 + 24 (6 trips of 4
// ops) + 2 + 3; the even lanes' bra.uni to the exit; the odd lanes' ninth
// round (33) and their bra.uni; 4 at the exit: 310 at most (a bra.uni by
// which lanes leave a split may go unissued). Lanes left behind would
// issue the rounds group by group, several times over.
func TestReconvergeLatchFirst(t *testing.T) {
	p, g := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r5, 0;
	and.b32 %r6, %r1, 1;
	add.u32 %r6, %r6, 8;
	mov.u32 %r7, 0;
	bra.uni BODY;
EXIT:
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r7;
	ret;
LATCH:
	add.u32 %r5, %r5, 1;
	setp.lt.u32 %p3, %r5, %r6;
	@%p3 bra BODY;
	bra.uni EXIT;
BODY:
	add.u32 %r2, %r1, %r5;
	and.b32 %r2, %r2, 7;
	setp.lt.u32 %p1, %r2, 2;
	@%p1 bra LATCH;
INNER:
	add.u32 %r7, %r7, 3;
	add.s32 %r2, %r2, -1;
	setp.ge.s32 %p2, %r2, 2;
	@%p2 bra INNER;
	add.u32 %r7, %r7, 1;
	bra.uni LATCH;
}
`)
	out, _ := g.Alloc(4*32, 0)
	var st LaunchStats
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
		Params: params(p.Kernels["k"], out), Workers: 1, Stats: &st}); err != nil {
		t.Fatal(err)
	}
	b, _ := g.Bytes(out, 4*32)
	for tid := range uint32(32) {
		want := uint32(0)
		for r := range 8 + tid&1 {
			if v := (tid + r) % 8; v >= 2 {
				want += 3*(v-1) + 1
			}
		}
		if got := binary.LittleEndian.Uint32(b[4*tid:]); got != want {
			t.Errorf("out[%d] = %d, want %d", tid, got, want)
		}
	}
	if st.WarpInstructions > 310 {
		t.Errorf("%d warp instructions, want 310 at most", st.WarpInstructions)
	}
}

// TestBrxUniform: brx.idx in a converged warp. With one index in every
// lane (a bytecode interpreter's switch, rounds 0..5 picking case
// round%3) the warp stays converged: counted by hand, 4 ops before the
// loop, 6 rounds of 2 (the index, brx) + 2 (a case) + 3 (the latch), 4
// after: 50 warp instructions, each by all 32 lanes but the last @%p bra
// (issued, its guard false). With an index per lane (tid%3) the sums come
// out lane by lane.
func TestBrxUniform(t *testing.T) {
	for _, c := range []struct {
		name, index string
		warp        uint64 // 0: not counted
	}{
		{"uniform", "rem.u32 %r3, %r2, 3;", 50},
		{"per lane", "rem.u32 %r3, %r1, 3;", 0},
	} {
		p, g := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	mov.u32 %r4, 0;
	ld.param.u64 %rd1, [out];
LOOP:
	`+c.index+`
	ts: .branchtargets C0, C1, C2;
	brx.idx %r3, ts;
C0:
	add.u32 %r4, %r4, 1;
	bra.uni NEXT;
C1:
	add.u32 %r4, %r4, 10;
	bra.uni NEXT;
C2:
	add.u32 %r4, %r4, 100;
	bra.uni NEXT;
NEXT:
	add.u32 %r2, %r2, 1;
	setp.lt.u32 %p, %r2, 6;
	@%p bra LOOP;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r4;
	ret;
}
`)
		out, _ := g.Alloc(4*32, 0)
		var st LaunchStats
		if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
			Params: params(p.Kernels["k"], out), Workers: 1, Stats: &st}); err != nil {
			t.Fatal(err)
		}
		b, _ := g.Bytes(out, 4*32)
		for tid := range uint32(32) {
			want := uint32(0)
			for r := range uint32(6) {
				i := r % 3
				if c.name != "uniform" {
					i = tid % 3
				}
				want += []uint32{1, 10, 100}[i]
			}
			if got := binary.LittleEndian.Uint32(b[4*tid:]); got != want {
				t.Errorf("%s: out[%d] = %d, want %d", c.name, tid, got, want)
			}
		}
		if c.warp != 0 && (st.WarpInstructions != c.warp || st.ThreadInstructions != 32*(c.warp-1)) {
			t.Errorf("%s: %d warp and %d thread instructions, want %d and %d", c.name, st.WarpInstructions, st.ThreadInstructions, c.warp, 32*(c.warp-1))
		}
	}
}

// TestDeadLanesRunWide: CTAs of 5 threads (27 lanes of each warp no
// threads) run a hash loop converged: the whole-warp loops and
// register-only traces run on every lane there (runConverged's wide), and
// the live lanes' values, a guarded add among them, come out as a
// lane-by-lane run gives them (the loop in Go).
func TestDeadLanesRunWide(t *testing.T) {
	setFlag(t, &packEnabled, false) // (one CTA a warp: its dead lanes)
	p, g := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mad.lo.u32 %r3, %r2, 5, %r1;
	mul.wide.u32 %rd2, %r3, 4;
	add.s64 %rd3, %rd1, %rd2;
	mov.u32 %r4, %r3;
	mov.u32 %r5, 0;
	and.b32 %r8, %r3, 1;
	setp.eq.u32 %p2, %r8, 0;
LOOP:
	xor.b32 %r4, %r4, 0x9e3779b9;
	mul.lo.u32 %r4, %r4, 16777619;
	shr.u32 %r6, %r4, 13;
	xor.b32 %r4, %r4, %r6;
	@%p2 add.u32 %r4, %r4, 7;
	add.u32 %r5, %r5, 1;
	setp.lt.u32 %p1, %r5, 40;
	@%p1 bra LOOP;
	st.global.u32 [%rd3], %r4;
	ret;
}
`)
	const ctas = 7
	out, _ := g.Alloc(4*5*ctas, 0)
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{ctas, 1, 1}, Block: [3]int{5, 1, 1},
		Params: params(p.Kernels["k"], out), Workers: 1}); err != nil {
		t.Fatal(err)
	}
	b, _ := g.Bytes(out, 4*5*ctas)
	for i := range uint32(5 * ctas) {
		want := i
		for range 40 {
			want ^= 0x9e3779b9
			want *= 16777619
			want ^= want >> 13
			if i%2 == 0 {
				want += 7
			}
		}
		if got := binary.LittleEndian.Uint32(b[4*i:]); got != want {
			t.Errorf("thread %d: %#x, want %#x", i, got, want)
		}
	}
}
