package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"sort"
	"testing"
)

// packKernel wraps body in a kernel k(.param .u64 out) with the registers
// the cases use.
func packKernel(decls, body string) string {
	return `.version 8.0
.target sm_90
.address_size 64
` + decls + `
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
` + body + `
	ret;
}`
}

// TestPackable: kernels whose threads meet others only through global
// memory may pack; shared memory, barriers, warp collectives, special
// registers a lane cannot be given alone, and calls the engine cannot see
// through are refused.
func TestPackable(t *testing.T) {
	cases := []struct {
		name, decls, body string
		want              bool
	}{
		{"global store", "", "mov.u32 %r1, %ctaid.x;\n\tst.global.u32 [%rd1], %r1;", true},
		{"lane registers", "", "mov.u32 %r1, %laneid;\n\tmov.u32 %r2, %lanemask_lt;\n\tmov.u32 %r3, %warpid;\n\tmov.u32 %r4, %clusterid.x;", true},
		{"atomic", "", "atom.global.add.u32 %r1, [%rd1], 1;\n\tred.global.add.u32 [%rd1], 1;", true},
		{"local array", ".global .align 4 .b8 g[16];", "ld.global.u32 %r1, [g];\n\tst.local.u32 [%rd1], %r1;", true},
		{"call", ".func f(.param .b32 x) { ret; }", "{\n\t.param .b32 a;\n\tst.param.b32 [a], 0;\n\tcall f, (a);\n\t}", true},
		{"shared store", "", "st.shared.u32 [%rd1], 1;", false},
		{"shared variable", ".shared .align 4 .b8 sh[16];", "mov.u64 %rd2, sh;", false},
		{"cvta.shared", "", "cvta.shared.u64 %rd2, %rd1;", false},
		{"barrier", "", "bar.sync 0;", false},
		{"syncwarp", "", "bar.warp.sync -1;", false},
		{"shfl", "", "shfl.sync.down.b32 %r1, %r2, 1, 31, -1;", false},
		{"vote", "", "vote.sync.ballot.b32 %r1, %p1, -1;", false},
		{"activemask", "", "activemask.b32 %r1;", false},
		{"dynamic smem size", "", "mov.u32 %r1, %dynamic_smem_size;", false},
		{"callee with barrier", ".func f() { bar.sync 0; ret; }", "call f;", false},
		{"call through a register", ".func f() { ret; }", "mov.u64 %rd2, f;\n\tprototype: .callprototype ()_ ();\n\tcall %rd2, prototype;", false},
	}
	for _, c := range cases {
		p, _ := load(t, packKernel(c.decls, c.body))
		if got := p.Kernels["k"].canPack(); got != c.want {
			t.Errorf("%s: packable %v, want %v", c.name, got, c.want)
		}
	}
}

// packProbe stores, for each thread (index g in x-fastest order over the
// grid's CTAs and then the CTA's threads), its %ctaid, %tid, %laneid,
// %lanemask_lt, %clusterid.x and the steps of a Collatz walk from g+1
// (a loop whose lanes leave at different trip counts): 10 words of 12.
const packProbe = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<40>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ctaid.y;
	mov.u32 %r3, %ctaid.z;
	mov.u32 %r4, %tid.x;
	mov.u32 %r5, %tid.y;
	mov.u32 %r6, %tid.z;
	mov.u32 %r7, %nctaid.x;
	mov.u32 %r8, %nctaid.y;
	mov.u32 %r9, %ntid.x;
	mov.u32 %r10, %ntid.y;
	mov.u32 %r11, %ntid.z;
	mad.lo.u32 %r12, %r3, %r8, %r2;
	mad.lo.u32 %r12, %r12, %r7, %r1;   // the CTA's linear index
	mul.lo.u32 %r13, %r9, %r10;
	mul.lo.u32 %r13, %r13, %r11;      // threads per CTA
	mad.lo.u32 %r14, %r6, %r10, %r5;
	mad.lo.u32 %r14, %r14, %r9, %r4;  // the thread's linear index in its CTA
	mad.lo.u32 %r15, %r12, %r13, %r14; // g
	mul.wide.u32 %rd2, %r15, 48;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};
	mov.u32 %r16, %laneid;
	mov.u32 %r17, %lanemask_lt;
	mov.u32 %r18, %clusterid.x;
	st.global.v4.u32 [%rd3+16], {%r5, %r6, %r16, %r17};
	add.u32 %r20, %r15, 1;
	mov.u32 %r21, 0;
Walk:
	setp.le.u32 %p1, %r20, 1;
	@%p1 bra Done;
	and.b32 %r22, %r20, 1;
	setp.ne.u32 %p2, %r22, 0;
	mad.lo.u32 %r23, %r20, 3, 1;
	shr.u32 %r24, %r20, 1;
	selp.u32 %r20, %r23, %r24, %p2;
	add.u32 %r21, %r21, 1;
	bra Walk;
Done:
	st.global.v2.u32 [%rd3+32], {%r18, %r21};
	ret;
}`

func collatzSteps(x uint32) uint32 {
	n := uint32(0)
	for x > 1 {
		if x&1 != 0 {
			x = 3*x + 1
		} else {
			x /= 2
		}
		n++
	}
	return n
}

func runPackProbe(t *testing.T, grid, block [3]int, workers int) ([]byte, LaunchStats) {
	t.Helper()
	p, g := load(t, packProbe)
	n := grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2]
	out, _ := g.Alloc(uint64(48*n), 0)
	var st LaunchStats
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: grid, Block: block, Params: params(p.Kernels["k"], out),
		Workers: workers, Stats: &st}); err != nil {
		t.Fatal(err)
	}
	b, _ := g.Bytes(out, uint64(48*n))
	return append([]byte(nil), b...), st
}

// TestPackedCTAs: CTAs of 1 to 16 threads, several to a warp, each lane
// reading its own CTA's %ctaid, its thread's %tid and %laneid (the
// thread's index in its CTA: 9.3 "%laneid"), in grids that end in a
// partial pack, on 1 and 2 workers; the values come from the thread's
// coordinates. Packing must also issue fewer warp instructions than one
// CTA a warp, and the same thread instructions.
func TestPackedCTAs(t *testing.T) {
	shapes := []struct{ grid, block [3]int }{
		{[3]int{45, 1, 1}, [3]int{1, 1, 1}},
		{[3]int{7, 5, 1}, [3]int{1, 1, 1}}, // (packs across rows)
		{[3]int{7, 3, 2}, [3]int{3, 1, 1}},
		{[3]int{5, 4, 1}, [3]int{2, 2, 1}},
		{[3]int{1, 19, 1}, [3]int{3, 5, 1}},
		{[3]int{1, 1, 9}, [3]int{16, 1, 1}},
		{[3]int{6, 1, 1}, [3]int{5, 1, 2}},
	}
	for _, s := range shapes {
		gx, gy := s.grid[0], s.grid[1]
		bx, by := s.block[0], s.block[1]
		nt := bx * by * s.block[2]
		ctas := gx * gy * s.grid[2]
		setFlag(t, &packEnabled, false)
		_, single := runPackProbe(t, s.grid, s.block, 1)
		packEnabled = true
		for _, workers := range []int{1, 2} {
			b, st := runPackProbe(t, s.grid, s.block, workers)
			for g := range ctas * nt {
				c, th := g/nt, g%nt
				want := []uint32{uint32(c % gx), uint32(c / gx % gy), uint32(c / (gx * gy)), uint32(th % bx),
					uint32(th / bx % by), uint32(th / (bx * by)), uint32(th), 1<<th - 1, uint32(c % gx), collatzSteps(uint32(g + 1))}
				for k, w := range want {
					if got := binary.LittleEndian.Uint32(b[48*g+4*k:]); got != w {
						t.Fatalf("grid %v block %v, %d workers: thread %d (CTA %d, thread %d) word %d = %d, want %d",
							s.grid, s.block, workers, g, c, th, k, got, w)
					}
				}
			}
			if st.ThreadInstructions != single.ThreadInstructions || st.WarpInstructions >= single.WarpInstructions || st.CTAs != ctas {
				t.Errorf("grid %v block %v, %d workers: packed %+v, one CTA a warp %+v", s.grid, s.block, workers, st, single)
			}
		}
	}
}

// TestPackedFault: a fault in a packed warp names the faulting lane's CTA
// and thread, not the pack's first CTA.
func TestPackedFault(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 bad)
{
	.reg .pred %p;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [bad];
	mov.u32 %r0, %clock;              // (not of the batch shape: packed)
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ctaid.y;
	mov.u32 %r4, %nctaid.x;
	mad.lo.u32 %r5, %r3, %r4, %r2;
	mov.u32 %r6, %ntid.x;
	mov.u32 %r7, %tid.x;
	mad.lo.u32 %r5, %r5, %r6, %r7;    // the thread's index
	mul.wide.u32 %rd2, %r5, 4;
	setp.eq.u32 %p, %r5, %r1;
	@%p add.s64 %rd2, %rd2, 4096;     // thread bad stores past the end
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r5;
	ret;
}`
	cases := []struct {
		grid, block [3]int
		bad         int
		cta, thread [3]int
	}{
		{[3]int{40, 1, 1}, [3]int{3, 1, 1}, 37*3 + 2, [3]int{37, 0, 0}, [3]int{2, 0, 0}},
		{[3]int{5, 4, 1}, [3]int{1, 1, 1}, 2*5 + 3, [3]int{3, 2, 0}, [3]int{0, 0, 0}},
	}
	for _, c := range cases {
		p, g := load(t, src)
		out, _ := g.Alloc(4096, 0)
		for _, workers := range []int{1, 2} {
			err := p.Launch(context.Background(), "k", LaunchConfig{Grid: c.grid, Block: c.block,
				Params: params(p.Kernels["k"], out, uint64(c.bad)), Workers: workers})
			var f *Fault
			if !errors.As(err, &f) || f.Kind != FaultOutOfBounds || f.CTA != c.cta || f.Thread != c.thread {
				t.Errorf("grid %v block %v, %d workers: %v, want an out-of-bounds store by CTA %v thread %v", c.grid, c.block, workers, err, c.cta, c.thread)
			}
		}
	}
}

// TestPackedAtomics: one-thread CTAs packed 32 to a warp add 1 to one of 7
// counters; each counter ends at the number of CTAs that chose it, and
// the old values each CTA got are 0 to that number less one, each once.
func TestPackedAtomics(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 bins, .param .u64 olds)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [bins];
	ld.param.u64 %rd2, [olds];
	mov.u32 %r1, %ctaid.x;
	mul.lo.u32 %r2, %r1, 40503;
	rem.u32 %r2, %r2, 7;
	mul.wide.u32 %rd3, %r2, 4;
	add.s64 %rd4, %rd1, %rd3;
	atom.global.add.u32 %r3, [%rd4], 1;
	mul.wide.u32 %rd5, %r1, 4;
	add.s64 %rd6, %rd2, %rd5;
	st.global.u32 [%rd6], %r3;
	ret;
}`
	const ctas = 1000
	p, g := load(t, src)
	bins, _ := g.Alloc(28, 0)
	olds, _ := g.Alloc(4*ctas, 0)
	for _, workers := range []int{1, 2} {
		bb, _ := g.Bytes(bins, 28)
		clear(bb)
		if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{ctas, 1, 1}, Block: [3]int{1, 1, 1},
			Params: params(p.Kernels["k"], bins, olds), Workers: workers}); err != nil {
			t.Fatal(err)
		}
		ob, _ := g.Bytes(olds, 4*ctas)
		got := map[uint32][]uint32{}
		for c := range uint32(ctas) {
			bin := c * 40503 % 7
			got[bin] = append(got[bin], binary.LittleEndian.Uint32(ob[4*c:]))
		}
		for bin := range uint32(7) {
			list := got[bin]
			sort.Slice(list, func(i, j int) bool { return list[i] < list[j] })
			for i, v := range list {
				if v != uint32(i) {
					t.Fatalf("%d workers: bin %d's olds %v are not 0..%d", workers, bin, list, len(list)-1)
				}
			}
			if c := binary.LittleEndian.Uint32(bb[4*bin:]); c != uint32(len(list)) {
				t.Errorf("%d workers: bin %d = %d, want %d", workers, bin, c, len(list))
			}
		}
	}
}

// TestPackDiffRandom: random kernels of loads, stores, arithmetic, guards
// and grid-stride loops (batch_diff_test.go's generator) in CTAs of 1 to
// 16 threads give the same memory and thread instructions packed as one
// CTA a warp, and fault where they do (which CTA's fault is reported may
// differ: pack.go).
func TestPackDiffRandom(t *testing.T) {
	count := 200
	if testing.Short() {
		count = 50
	}
	r := rand.New(rand.NewPCG(77, 3))
	packed := 0
	for i := range count {
		k := bdGenKernelTiny(r, true)
		in := bdFillBufs(k.bufs, uint64(i)+1)
		var res [2]bdResult
		for j, on := range []bool{false, true} {
			var err error
			if res[j], err = bdLaunch(k.src, "k", k.grid, k.block, in, k.args, 1, false, on); err != nil {
				t.Fatalf("kernel %d: %v\n%s", i, err, k.src)
			}
		}
		off, on := res[0], res[1]
		if (off.err == nil) != (on.err == nil) {
			t.Fatalf("kernel %d (%s): one CTA a warp %v, packed %v\n%s", i, k.desc, off.err, on.err, k.src)
		}
		if off.err != nil {
			continue
		}
		if on.stats.WarpInstructions < off.stats.WarpInstructions {
			packed++
		}
		if on.stats.ThreadInstructions != off.stats.ThreadInstructions {
			t.Fatalf("kernel %d (%s): %d thread instructions packed, %d not\n%s", i, k.desc, on.stats.ThreadInstructions, off.stats.ThreadInstructions, k.src)
		}
		for b := range off.mem {
			if at := firstDiff(on.mem[b], off.mem[b]); at >= 0 {
				t.Fatalf("kernel %d (%s): buffer %d byte %d: packed %#x, one CTA a warp %#x\n%s", i, k.desc, b, at, on.mem[b][at], off.mem[b][at], k.src)
			}
		}
	}
	if packed < count/4 {
		t.Errorf("%d of %d kernels ran packed", packed, count)
	}
}
