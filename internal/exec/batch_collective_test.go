package exec

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestBatchCollectivesRandom: random kernels of warp collectives (shfl of
// every mode with immediate or register lanes and segment masks, vote,
// redux), ALU ops between them, branches on warp-uniform predicates,
// per-thread stores, and now and then a global atomic at the end (red or
// atom, a total or one counter per CTA) run with batches on and off, on
// one worker and on two, and must agree on memory, counts and errors. The
// blocks are whole warps (any shape) or, now and then, not (48 threads:
// the batch declines and the warp engine faults where the manual says).
func TestBatchCollectivesRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 37))
	count := 80
	if testing.Short() {
		count = 20
	}
	declined := 0
	for k := range count {
		shape := [][2]int{{32, 1}, {64, 1}, {128, 1}, {256, 1}, {16, 4}, {8, 8}, {32, 4}, {48, 1}}[r.IntN(8)]
		whole := shape[0]*shape[1]%32 == 0
		var b strings.Builder
		emit := func(format string, a ...any) { fmt.Fprintf(&b, "\t"+format+"\n", a...) }
		regs := []string{"%r7", "%r6", "%r5"} // values so far (the loaded word, the index, tid)
		pick := func() string { return regs[len(regs)-1-r.IntN(min(3, len(regs)))] }
		next := 20
		fresh := func() string { next++; d := fmt.Sprintf("%%r%d", next); regs = append(regs, d); return d }
		for j := range 2 + r.IntN(8) {
			a := pick()
			switch r.IntN(8) {
			case 0, 1, 2:
				mode := []string{"up", "down", "bfly", "idx"}[r.IntN(4)]
				c := []int{31, 0x1f, 0x181f, 0x1c1f, 0x1007}[r.IntN(5)]
				lane := fmt.Sprint(r.IntN(32))
				if r.IntN(4) == 0 {
					lane = "%r5" // a register lane: tid, masked by the rule
				}
				d := fresh()
				if r.IntN(3) == 0 {
					emit("shfl.sync.%s.b32 %s|%%p3, %s, %s, %d, -1;", mode, d, a, lane, c)
					emit("selp.b32 %s, %s, 7, %%p3;", d, d)
				} else {
					emit("shfl.sync.%s.b32 %s, %s, %s, %d, -1;", mode, d, a, lane, c)
				}
			case 3:
				d := fresh()
				emit("setp.lt.u32 %%p2, %s, %d;", a, r.Uint32())
				emit("vote.sync.ballot.b32 %s, %%p2, -1;", d)
			case 4:
				d := fresh()
				emit("setp.gt.u32 %%p2, %s, %d;", a, r.Uint32())
				emit("vote.sync.%s.pred %%p3, %%p2, -1;", []string{"any", "all", "uni"}[r.IntN(3)])
				emit("selp.b32 %s, %s, %d, %%p3;", d, a, r.IntN(100))
			case 5:
				d := fresh()
				emit("redux.sync.%s %s, %s, -1;", []string{"add.u32", "min.u32", "max.s32", "and.b32", "or.b32", "xor.b32"}[r.IntN(6)], d, a)
			case 6: // a branch on a value every lane of a warp holds alike (a vote's)
				d := fresh()
				emit("setp.lt.u32 %%p2, %s, %d;", a, r.Uint32())
				emit("vote.sync.any.pred %%p3, %%p2, -1;")
				emit("mov.u32 %s, %s;", d, a)
				emit("@%%p3 bra U%d;", j)
				emit("mul.lo.s32 %s, %s, 3;", d, d)
				fmt.Fprintf(&b, "U%d:\n", j)
			default:
				d := fresh()
				emit("%s %s, %s, %s;", []string{"add.s32", "xor.b32", "mul.lo.s32", "sub.s32"}[r.IntN(4)], d, a, pick())
			}
		}
		emit("st.global.u32 [%%rd10], %s;", pick())
		atomic := ""
		switch r.IntN(4) {
		case 0: // a total
			emit("red.global.add.u32 [%%rd2], %s;", pick())
			atomic = "red"
		case 1: // one counter per CTA, from lane 0 of each warp
			emit("and.b32 %%r8, %%r5, 31;")
			emit("setp.ne.u32 %%p2, %%r8, 0;")
			emit("@%%p2 bra DONE;")
			emit("mul.wide.u32 %%rd11, %%r1, 4;")
			emit("add.s64 %%rd11, %%rd2, %%rd11;")
			emit("atom.global.add.u32 %%r9, [%%rd11], %s;", pick())
			atomic = "atom"
		}
		src := fmt.Sprintf(`
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in, .param .u64 sums)
{
	.reg .pred %%p<4>;
	.reg .b32 %%r<64>;
	.reg .b64 %%rd<12>;
	ld.param.u64 %%rd1, [out];
	ld.param.u64 %%rd3, [in];
	ld.param.u64 %%rd2, [sums];
	mov.u32 %%r1, %%ctaid.x;
	mov.u32 %%r2, %%tid.x;
	mov.u32 %%r3, %%tid.y;
	mad.lo.s32 %%r5, %%r3, %d, %%r2;
	mad.lo.s32 %%r6, %%r1, %d, %%r5;
	mul.wide.u32 %%rd4, %%r6, 4;
	add.s64 %%rd5, %%rd3, %%rd4;
	ld.global.u32 %%r7, [%%rd5];
	add.s64 %%rd10, %%rd1, %%rd4;
%sDONE:
	ret;
}`, shape[0], shape[0]*shape[1], b.String())
		grid := 1 + r.IntN(40)
		n := grid * shape[0] * shape[1]
		bufs := bdBufs(bdWords(n, bdZero), bdWords(n, bdRand), bdWords(grid, bdRand))
		in := bdFillBufs(bufs, uint64(k)+1)
		diff, ref := bdDiff(t, src, "k", bdX(grid), bdXY(shape[0], shape[1]), in, bdArgs(bdPtr(0), bdPtr(1), bdPtr(2)), whole)
		if diff != "" {
			t.Fatalf("kernel %d (grid %d, block %v, %s): %s\n%s", k, grid, shape, atomic, diff, src)
		}
		if ref.err != nil {
			if whole {
				t.Fatalf("kernel %d: %v\n%s", k, ref.err, src)
			}
			declined++
		}
	}
	if declined == 0 {
		t.Errorf("no kernel had a partial warp")
	}
}

// TestBatchCollectiveUniformSplit: a shfl inside a branch on a predicate
// every lane of a CTA holds alike (CTAs below 5 take it: whole warps split
// from the others, batch_uniform.go), and a guarded red after it; batches
// on and off agree, and the launch runs in batches.
func TestBatchCollectiveUniformSplit(t *testing.T) {
	src := `
.version 7.8
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 sums)
{
	.reg .pred %p<3>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [sums];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.s32 %r4, %r1, %r3, %r2;
	mul.lo.s32 %r5, %r4, 7;
	setp.ge.u32 %p1, %r1, 5;
	@%p1 bra SKIP;
	shfl.sync.bfly.b32 %r5, %r4, 3, 31, -1;
	add.s32 %r5, %r5, 1000;
SKIP:
	mul.wide.u32 %rd3, %r4, 4;
	add.s64 %rd4, %rd1, %rd3;
	st.global.u32 [%rd4], %r5;
	setp.lt.u32 %p2, %r2, 5;
	@%p2 red.global.add.u32 [%rd2], %r5;
	ret;
}`
	for _, grid := range []int{3, 9, 40} {
		n := grid * 64
		in := bdFillBufs(bdBufs(bdWords(n, bdZero), bdWords(1, bdRand)), uint64(grid))
		bdSame(t, fmt.Sprintf("grid %d", grid), src, "k", bdX(grid), bdX(64), in, bdArgs(bdPtr(0), bdPtr(1)), true)
	}
}

// TestBatchLaneid: %laneid (0 to 31 in every warp, whatever the block's
// shape) in a batch: each thread stores laneid*1000 + its warp's sum of
// the input over its lanes with an odd laneid (redux of a selected value),
// and lane 0 (by %laneid) adds the warp's sum to a total. Checked by hand
// and against the warp engine.
func TestBatchLaneid(t *testing.T) {
	src := `
.version 7.8
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in, .param .u64 sums)
{
	.reg .pred %p<3>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [in];
	ld.param.u64 %rd7, [sums];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %tid.y;
	mov.u32 %r9, %ntid.x;
	mad.lo.s32 %r10, %r3, %r9, %r2;
	mov.u32 %r4, %laneid;
	mad.lo.s32 %r5, %r1, 64, %r10;
	mul.wide.u32 %rd3, %r5, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %r6, [%rd4];
	and.b32 %r7, %r4, 1;
	setp.eq.u32 %p1, %r7, 1;
	selp.b32 %r7, %r6, 0, %p1;
	redux.sync.add.u32 %r8, %r7, -1;
	mad.lo.s32 %r11, %r4, 1000, %r8;
	add.s64 %rd5, %rd1, %rd3;
	st.global.u32 [%rd5], %r11;
	setp.ne.u32 %p2, %r4, 0;
	@%p2 bra DONE;
	red.global.add.u32 [%rd7], %r8;
DONE:
	ret;
}`
	for _, c := range []struct {
		grid  int
		block [3]int
	}{{3, bdX(64)}, {40, bdX(64)}, {40, bdXY(16, 4)}, {40, bdXY(8, 8)}} {
		n := c.grid * 64
		in := bdFillBufs(bdBufs(bdWords(n, bdZero), bdWords(n, bdRand), bdWords(1, bdZero)), uint64(c.grid))
		ref := bdSame(t, fmt.Sprintf("grid %d, block %v", c.grid, c.block), src, "k", bdX(c.grid), c.block, in, bdArgs(bdPtr(0), bdPtr(1), bdPtr(2)), true)
		word := func(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
		var total uint32
		for w := range n / 32 {
			var sum uint32
			for l := 1; l < 32; l += 2 {
				sum += word(in[1], 32*w+l)
			}
			total += sum
			for l := range 32 {
				if got, want := word(ref.mem[0], 32*w+l), uint32(l)*1000+sum; got != want {
					t.Fatalf("grid %d, block %v, thread %d: %d, want %d", c.grid, c.block, 32*w+l, got, want)
				}
			}
		}
		if got := word(ref.mem[2], 0); got != total {
			t.Fatalf("grid %d, block %v: total %d, want %d", c.grid, c.block, got, total)
		}
	}
}

// TestBatchFloatAtomicContention: two workers' batches add f32 values to
// the same five words (compare-and-swap, retried where the other worker
// changed a word first). The values are small integers, whose sums are
// exact in any order, so every run must give each word exactly
// sum(i%7 : i%5 == word).
func TestBatchFloatAtomicContention(t *testing.T) {
	setFlag(t, &batchEnabled, true)
	p, g := load(t, `
.version 7.8
.target sm_80
.address_size 64
.visible .entry k(.param .u64 bins)
{
	.reg .b32 %r<8>;
	.reg .f32 %f<2>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [bins];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.s32 %r4, %r1, %r3, %r2;
	rem.u32 %r5, %r4, 7;
	cvt.rn.f32.u32 %f1, %r5;
	rem.u32 %r6, %r4, 5;
	mul.wide.u32 %rd2, %r6, 4;
	add.s64 %rd3, %rd1, %rd2;
	red.global.add.f32 [%rd3], %f1;
	ret;
}`)
	const ctas, block = 2000, 128
	var want [5]float64
	for i := range ctas * block {
		want[i%5] += float64(i % 7)
	}
	bins, _ := g.Alloc(5*4, 0)
	for run := range 5 {
		b, _ := g.Bytes(bins, 5*4)
		clear(b)
		var st LaunchStats
		if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{ctas, 1, 1}, Block: [3]int{block, 1, 1},
			Params: params(p.Kernels["k"], bins), Workers: 2, Stats: &st}); err != nil {
			t.Fatal(err)
		}
		if st.Batched == 0 {
			t.Fatal("not batched")
		}
		for w := range 5 {
			if got := math.Float32frombits(binary.LittleEndian.Uint32(b[4*w:])); float64(got) != want[w] {
				t.Fatalf("run %d, word %d: %v, want %v", run, w, got, want[w])
			}
		}
	}
}
