package exec

import (
	"context"
	"encoding/binary"
	"os"
	"sync/atomic"
	"testing"
	"time"
)

// lockSrc: each thread takes the spin lock of bucket key%nb (clang's
// `while (atomicCAS(&lock[b], 0, 1) != 0);` with __nvvm_atom_cas_gen's
// fence), adds its key to the bucket's sum and counts itself with plain
// volatile loads and stores (right only under mutual exclusion), and
// releases the lock. Lock 0 starts taken (the host's); thread 32 of the
// first CTA releases it once warp 0 has set the CTA's flag, so warp 0's
// lanes on bucket 0 find it held from outside their warp (their round
// lets no lane through).
const lockSrc = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 keys, .param .u64 locks, .param .u64 sums, .param .u64 flags, .param .u32 nb)
{
	.reg .pred %p<4>;
	.reg .b32 %r<24>;
	.reg .b64 %rd<24>;
	ld.param.u64 %rd1, [keys];
	ld.param.u64 %rd2, [locks];
	ld.param.u64 %rd3, [sums];
	ld.param.u64 %rd4, [flags];
	ld.param.u32 %r1, [nb];
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %ctaid.x;
	mul.wide.u32 %rd5, %r3, 4;
	add.s64 %rd6, %rd4, %rd5;          // the CTA's flag
	setp.ne.u32 %p1, %r2, 32;
	setp.ne.or.u32 %p1, %r3, 0, %p1;
	@%p1 bra Work;
	// thread 32 of CTA 0 (warp 1): let lock 0 go once warp 0 set the flag
Wait:
	ld.volatile.global.u32 %r5, [%rd6];
	setp.eq.u32 %p2, %r5, 0;
	@%p2 bra Wait;
	atom.global.exch.b32 %r6, [%rd2], 0;
Work:
	setp.ge.u32 %p1, %r2, 32;
	@%p1 bra Locked;
	st.volatile.global.u32 [%rd6], 1; // (warp 0: the flag first)
Locked:
	mad.lo.u32 %r7, %r3, 64, %r2;
	mul.wide.u32 %rd7, %r7, 4;
	add.s64 %rd8, %rd1, %rd7;
	ld.global.u32 %r8, [%rd8];
	rem.u32 %r9, %r8, %r1;
	mul.wide.u32 %rd9, %r9, 4;
	add.s64 %rd10, %rd2, %rd9;         // lock[b]
	mul.wide.u32 %rd11, %r9, 8;
	add.s64 %rd12, %rd3, %rd11;        // sums[b]: the sum, the count
Spin:
	fence.sc.sys;
	atom.acquire.sys.global.cas.b32 %r10, [%rd10], 0, 1;
	setp.ne.b32 %p3, %r10, 0;
	@%p3 bra Spin;
	ld.volatile.global.u32 %r11, [%rd12];
	add.s32 %r12, %r11, %r8;
	st.volatile.global.u32 [%rd12], %r12;
	ld.volatile.global.u32 %r13, [%rd12+4];
	add.s32 %r14, %r13, 1;
	st.volatile.global.u32 [%rd12+4], %r14;
	membar.gl;
	atom.global.exch.b32 %r15, [%rd10], 0;
	ret;
}`

// TestLockRounds: spin locks taken in rounds keep mutual exclusion (every
// bucket's plain read-modify-write sum and count exact) over 1, 4 and 64
// buckets, on 1 and 2 workers, also where a round lets no lane through
// (lock 0 held by another warp of the CTA until warp 0 has gone on: the
// frame is left diverged for the default schedule); on one worker they
// issue fewer instructions than the default schedule's spins.
func TestLockRounds(t *testing.T) {
	const ctas, block = 24, 64
	n := ctas * block
	keys := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(keys[4*i:], uint32(i*2654435761>>7)%100000)
	}
	for _, nb := range []int{1, 4, 64} {
		want := make([]uint32, 2*nb)
		for i := range n {
			k := binary.LittleEndian.Uint32(keys[4*i:])
			want[2*(k%uint32(nb))] += k
			want[2*(k%uint32(nb))+1]++
		}
		var counts [2]uint64
		for _, rounds := range []bool{true, false} {
			for _, workers := range []int{1, 2} {
				setFlag(t, &lockRoundsEnabled, rounds)
				setFlag(t, &batchEnabled, false)
				p, g := load(t, lockSrc)
				if p.Kernels["k"].Ops[findSpin(t, p.Kernels["k"])].lock == nil {
					t.Fatal("the spin loop is not a lock region")
				}
				alloc := func(b []byte) uint64 {
					a, _ := g.Alloc(uint64(len(b)), 0)
					m, _ := g.Bytes(a, uint64(len(b)))
					copy(m, b)
					return a
				}
				locks := make([]byte, 4*nb)
				locks[0] = 1 // (taken: thread 32 of CTA 0 lets it go)
				kb, lb, sb, fb := alloc(keys), alloc(locks), alloc(make([]byte, 8*nb)), alloc(make([]byte, 4*ctas))
				var left atomic.Int32 // (the workers' rounds call it)
				lockRoundsLeft = func() { left.Add(1) }
				var st LaunchStats
				if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{ctas, 1, 1}, Block: [3]int{block, 1, 1},
					Params: params(p.Kernels["k"], kb, lb, sb, fb, uint64(nb)), Workers: workers, Stats: &st}); err != nil {
					t.Fatal(err)
				}
				sums, _ := g.Bytes(sb, uint64(8*nb))
				for i := range want {
					if got := binary.LittleEndian.Uint32(sums[4*i:]); got != want[i] {
						t.Fatalf("%d buckets, rounds %v, %d workers: word %d = %d, want %d", nb, rounds, workers, i, got, want[i])
					}
				}
				lockRoundsLeft = nil
				if workers == 1 {
					counts[map[bool]int{true: 0, false: 1}[rounds]] = st.ThreadInstructions
					if rounds && nb > 1 && left.Load() == 0 { // (one bucket: every lane fails at once, no split)
						t.Errorf("%d buckets: no round left lanes to the default schedule", nb)
					}
				}
			}
		}
		if counts[0] >= counts[1] {
			t.Errorf("%d buckets: %d thread instructions in rounds, %d by default", nb, counts[0], counts[1])
		}
	}
}

// findSpin returns the pc of the back edge of lockSrc's Spin loop.
func findSpin(t *testing.T, f *Func) int {
	for pc := range f.Ops {
		if o := &f.Ops[pc]; o.bra && o.target < int32(pc) && f.Ops[o.target].inst.Opcode == "fence" {
			return pc
		}
	}
	t.Fatal("no Spin loop")
	return 0
}

// TestSpinGroupsLetTheHolderRun: in one warp, lane 0 takes a lock and
// holds it at a PC above two groups of lanes spinning on it in two loops
// of their own. Each fairness decision favours lanes that have not spun in
// the cycle (pick's passed): the two spinning groups took turns for ever
// before, and the holder never ran. Every lane ends up counted once.
func TestSpinGroupsLetTheHolderRun(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 lock, .param .u64 count)
{
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [lock];
	ld.param.u64 %rd2, [count];
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra Others;
Take:
	atom.global.cas.b32 %r2, [%rd1], 0, 1;
	setp.ne.u32 %p2, %r2, 0;
	@%p2 bra Take;
	bra.uni Holder;
Others:
	setp.ge.u32 %p3, %r1, 16;
	@%p3 bra LoopB;
LoopA:
	atom.global.cas.b32 %r2, [%rd1], 0, 1;
	setp.ne.u32 %p2, %r2, 0;
	@%p2 bra LoopA;
	bra.uni Crit;
LoopB:
	atom.global.cas.b32 %r2, [%rd1], 0, 1;
	setp.ne.u32 %p2, %r2, 0;
	@%p2 bra LoopB;
Crit:
	ld.volatile.global.u32 %r3, [%rd2];
	add.u32 %r3, %r3, 1;
	st.volatile.global.u32 [%rd2], %r3;
	atom.global.exch.b32 %r4, [%rd1], 0;
	ret;
Holder:
	ld.volatile.global.u32 %r3, [%rd2];
	add.u32 %r3, %r3, 1;
	st.volatile.global.u32 [%rd2], %r3;
	atom.global.exch.b32 %r4, [%rd1], 0;
	ret;
}`
	p, g := load(t, src)
	lock, _ := g.Alloc(4, 0)
	count, _ := g.Alloc(4, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.Launch(ctx, "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
		Params: params(p.Kernels["k"], lock, count), Workers: 1}); err != nil {
		t.Fatal(err)
	}
	b, _ := g.Bytes(count, 4)
	if c := binary.LittleEndian.Uint32(b); c != 32 {
		t.Errorf("count %d, want 32", c)
	}
}

// TestFairnessCycleReleasesWaitingLanes: the state a per-bucket spin-lock
// kernel (probe a_lock: each lane of a warp takes its bucket's lock in a
// turn of its own) hung in on two workers. Lane 4 took the lock in the
// first loop and waits at that loop's exit (the reconvergence point of the
// back edge) for lane 16, which spins there on the same lock; lanes 5 and
// 21 spin on it in the second loop; the rest wait further on. Each
// fairness decision saw two of the three spinners spun, one the cycle
// before, and started a new cycle among them without ever letting the
// waiting holder run. Once every runnable lane has spun in a cycle, the
// lanes waiting at the innermost reconvergence point must go next.
func TestFairnessCycleReleasesWaitingLanes(t *testing.T) {
	const (
		holder             = 4
		loop1, exit1       = 34, 38 // the first loop's head and exit (lane 4 waits there)
		loop2, exit2       = 50, 63 // the second's head, and the point the others wait at
		spinA, spinB, spin = 5, 21, 16
	)
	f := &frame{fn: &Func{}, active: ^uint32(0)}
	for l := range warpSize {
		switch l {
		case holder:
			f.pc[l], f.rstack[l] = exit1, []int32{exit1}
		case spin:
			f.pc[l], f.rstack[l] = loop1, []int32{exit1}
		case spinA, spinB:
			f.pc[l], f.rstack[l] = loop2, []int32{exit2}
		default:
			f.pc[l], f.rstack[l] = exit2, []int32{exit2}
		}
		f.rtop[l] = f.rstack[l][0] + 1
		f.rdepth++
	}
	// the decision after lanes 16 and 21 spun, lanes 5 and 16 having
	// spun earlier in the cycle
	f.backs, f.spun, f.passed = starvationLimit, 1<<spin|1<<spinB, 1<<spinA|1<<spin
	mask, pc := f.pick(nil)
	if mask != 1<<holder || pc != exit1 {
		t.Fatalf("picked lanes %#x at %d, want the waiting holder (lane %d at %d)", mask, pc, holder, exit1)
	}
}

// TestTryLockBackOff runs a try-lock whose threads back off in two ways
// (testdata/trylock_backoff.ptx: odd keys by nanosleep, even keys by a
// loop of volatile loads) under perturbed schedules on one worker and on
// two workers: every launch must end with every thread counted once. Lanes
// that took their locks wait at the loop's exit while the others go round
// and wait at the loop's head, a lower point; the starvation escape used
// to release only the lowest point (and only lanes that had not spun in
// the cycle), so the holders never ran (hung with seeds 1, 2 and 4, and
// on two workers, before).
func TestTryLockBackOff(t *testing.T) {
	src, err := os.ReadFile("testdata/trylock_backoff.ptx")
	if err != nil {
		t.Fatal(err)
	}
	p, g := load(t, string(src))
	const n, buckets, block = 12000, 16, 256
	x, _ := g.Alloc(4*n, 0)
	xb, _ := g.Bytes(x, 4*n)
	var wantN [buckets]uint32
	var want [buckets]uint32
	for i := range n {
		v := uint32(i)*2654435761 ^ uint32(i)>>3
		v ^= v >> 13
		v *= 0x5bd1e995
		v ^= v >> 15
		binary.LittleEndian.PutUint32(xb[4*i:], v)
		wantN[v%buckets]++
		want[v%buckets] += v >> 16
	}
	k := p.Kernels["lk_try_k"]
	for _, run := range []struct {
		seed    uint64
		workers int
	}{{1, 1}, {2, 1}, {3, 1}, {4, 1}, {0, 2}, {0, 2}} {
		lock, _ := g.Alloc(4*buckets, 0)
		val, _ := g.Alloc(4*buckets, 0)
		cnt, _ := g.Alloc(4*buckets, 0)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err := p.Launch(ctx, "lk_try_k", LaunchConfig{Grid: [3]int{(n + block - 1) / block, 1, 1}, Block: [3]int{block, 1, 1},
			Params: params(k, x, n, buckets, lock, val, cnt), Workers: run.workers, ScheduleSeed: run.seed})
		cancel()
		if err != nil {
			t.Fatalf("seed %d, %d workers: %v", run.seed, run.workers, err)
		}
		vb, _ := g.Bytes(val, 4*buckets)
		cb, _ := g.Bytes(cnt, 4*buckets)
		for b := range buckets {
			if v, c := binary.LittleEndian.Uint32(vb[4*b:]), binary.LittleEndian.Uint32(cb[4*b:]); v != want[b] || c != wantN[b] {
				t.Fatalf("seed %d, %d workers, bucket %d: sum %d count %d, want %d and %d", run.seed, run.workers, b, v, c, want[b], wantN[b])
			}
		}
		for _, a := range []uint64{lock, val, cnt} {
			g.Free(a)
		}
	}
}

// TestStarvationEscapeTakesTurns: the state the try-lock kernel
// (TestTryLockBackOff) hung in on two workers. Lanes 11-13 took their
// locks and wait at the loop's exit (67); lanes 1-9 wait at the loop's
// head (31), a lower point, every round; lane 14 spins; every lane had
// spun in the cycle (the holders before they took their locks). The
// starvation escape released the lowest point every time, so the holders
// never ran; the points now take turns, and the second decision must
// release the holders.
func TestStarvationEscapeTakesTurns(t *testing.T) {
	const head, exit, spinner = 31, 67, 14
	holders, atHead := uint32(0x7)<<11, uint32(0x3fe)
	f := &frame{fn: &Func{}, active: holders | atHead | 1<<spinner}
	reset := func() { // the lanes at the head back there, waiting
		f.rdepth = 0
		for l := range warpSize {
			switch {
			case holders>>l&1 != 0:
				f.pc[l], f.rstack[l] = exit, []int32{exit}
			case atHead>>l&1 != 0:
				f.pc[l], f.rstack[l] = head, []int32{exit, head}
			case l == spinner:
				f.pc[l], f.rstack[l] = 41, []int32{exit, head}
			default:
				continue
			}
			f.rtop[l] = f.rstack[l][len(f.rstack[l])-1] + 1
			f.rdepth += len(f.rstack[l])
		}
	}
	released := uint32(0)
	for decision := range 2 {
		reset()
		f.backs, f.spun, f.passed, f.favor = starvationLimit, 1<<spinner, f.active, 0
		mask, _ := f.pick(nil)
		released |= mask
		if decision == 0 && mask == 0 {
			t.Fatal("the first decision released no lane")
		}
	}
	if released&holders != holders {
		t.Fatalf("two decisions released lanes %#x, not the holders %#x", released, holders)
	}
}

// TestTicketTurnsYieldSoon: a ticket lock in one warp (each lane takes a
// ticket with atom.add, then waits until the word it reads with
// ld.volatile equals its ticket, adds to the sum and serves the next
// ticket). The wait loop only reads memory, so its spinners yield after
// spinLimit backward branches, as a lock's do (lockLoops): the warp
// instructions stay near 32 turns of a few dozen, where 1024 backward
// branches a turn took over 100000.
func TestTicketTurnsYieldSoon(t *testing.T) {
	p, g := load(t, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 next, .param .u64 serving, .param .u64 sum)
{
	.reg .pred %p;
	.reg .b32 %r<6>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [next];
	ld.param.u64 %rd2, [serving];
	ld.param.u64 %rd3, [sum];
	mov.u32 %r1, %tid.x;
	atom.global.add.u32 %r2, [%rd1], 1;
Wait:
	ld.volatile.global.u32 %r3, [%rd2];
	setp.ne.u32 %p, %r3, %r2;
	@%p bra Wait;
	ld.volatile.global.u32 %r4, [%rd3];
	add.u32 %r4, %r4, %r1;
	st.volatile.global.u32 [%rd3], %r4;
	add.u32 %r5, %r2, 1;
	st.volatile.global.u32 [%rd2], %r5;
	ret;
}`)
	next, _ := g.Alloc(4, 0)
	serving, _ := g.Alloc(4, 0)
	sum, _ := g.Alloc(4, 0)
	var st LaunchStats
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := p.Launch(ctx, "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
		Params: params(p.Kernels["k"], next, serving, sum), Workers: 1, Stats: &st}); err != nil {
		t.Fatal(err)
	}
	b, _ := g.Bytes(sum, 4)
	if s := binary.LittleEndian.Uint32(b); s != 31*32/2 {
		t.Errorf("sum %d, want %d", s, 31*32/2)
	}
	t.Logf("%d warp instructions", st.WarpInstructions)
	if st.WarpInstructions > 20000 {
		t.Errorf("%d warp instructions for 32 turns: the waiters held the warp for the starvation limit", st.WarpInstructions)
	}
}

// TestWaitingWarpYieldsSoon: warp 0 of a CTA waits for a flag that warp 1
// sets; the cluster runs warp 0 first. A converged warp going round a spin
// loop gives the worker up after spinYield rounds (runConverged), so warp
// 1 runs long before warp 0's time slice (sliceSteps) would end.
func TestWaitingWarpYieldsSoon(t *testing.T) {
	p, g := load(t, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 flag, .param .u64 out)
{
	.reg .pred %p;
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [flag];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	setp.ge.u32 %p, %r1, 32;
	@%p bra Set;
Wait:
	ld.volatile.global.u32 %r2, [%rd1];
	setp.eq.u32 %p, %r2, 0;
	@%p bra Wait;
	st.global.u32 [%rd2], %r2;
	ret;
Set:
	st.volatile.global.u32 [%rd1], 7;
	ret;
}`)
	flag, _ := g.Alloc(4, 0)
	out, _ := g.Alloc(4, 0)
	var st LaunchStats
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1},
		Params: params(p.Kernels["k"], flag, out), Workers: 1, Stats: &st}); err != nil {
		t.Fatal(err)
	}
	if b, _ := g.Bytes(out, 4); binary.LittleEndian.Uint32(b) != 7 {
		t.Errorf("warp 0 read %d, want 7", binary.LittleEndian.Uint32(b))
	}
	t.Logf("%d warp instructions", st.WarpInstructions)
	if st.WarpInstructions > 10*spinYield {
		t.Errorf("%d warp instructions: warp 0 spun out its slice before warp 1 ran", st.WarpInstructions)
	}
}
