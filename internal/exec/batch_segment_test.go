package exec

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// segmentKernels: kernels with stretches that run as streaming segments
// (batch_segment.go), and some that must not; runs: whether one does,
// perWarp: whether one runs warp by warp (an input of the warp's own).
var segmentKernels = []struct {
	name, body    string
	runs, perWarp bool
}{
	// STREAM's triad: two loads, a register op on a parameter, one on the
	// loads, the store's address computed (a form) between, a store to a
	// third array
	{"triad", `
	ld.param.f32 %f9, [s];
	mul.wide.u32 %rd5, %r1, 4;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.f32 %f1, [%rd6];
	add.s64 %rd7, %rd2, %rd5;
	ld.global.f32 %f2, [%rd7];
	mul.rn.f32 %f3, %f9, %f2;
	add.rn.f32 %f4, %f1, %f3;
	add.s64 %rd8, %rd3, %rd5;
	st.global.f32 [%rd8], %f4;`, true, false},
	// saxpy in place: the store overwrites what the batch loaded (undo)
	{"inplace", `
	ld.param.f32 %f9, [s];
	mul.wide.u32 %rd5, %r1, 4;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.f32 %f1, [%rd6];
	mul.rn.f32 %f2, %f9, %f1;
	add.s64 %rd7, %rd2, %rd5;
	ld.global.f32 %f3, [%rd7];
	add.rn.f32 %f4, %f2, %f3;
	st.global.f32 [%rd7], %f4;`, true, false},
	// nvcc's saxpy: a cvta (a register op on a uniform form) between the
	// loads, ld.global.nc; the first load starts the segment, which runs
	// every warp in one call
	{"nvcc", `
	ld.param.f32 %f9, [s];
	cvta.to.global.u64 %rd10, %rd1;
	mul.wide.s32 %rd5, %r1, 4;
	add.s64 %rd6, %rd10, %rd5;
	ld.global.nc.f32 %f1, [%rd6];
	cvta.to.global.u64 %rd11, %rd2;
	add.s64 %rd7, %rd11, %rd5;
	ld.global.f32 %f2, [%rd7];
	fma.rn.f32 %f3, %f1, %f9, %f2;
	st.global.f32 [%rd7], %f3;`, true, false},
	// 8-byte values; a signed 32-bit load added to the thread's index (an
	// input whose rows each warp builds from its form)
	{"wide", `
	mul.wide.u32 %rd5, %r1, 8;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.u64 %rd10, [%rd6];
	mul.wide.u32 %rd9, %r1, 4;
	add.s64 %rd7, %rd2, %rd9;
	ld.global.s32 %r5, [%rd7];
	xor.b64 %rd12, %rd10, 21845;
	add.s64 %rd14, %rd12, %rd10;
	add.s32 %r6, %r5, %r1;
	add.s64 %rd8, %rd3, %rd5;
	st.global.u64 [%rd8], %rd14;
	add.s64 %rd13, %rd4, %rd9;
	st.global.u32 [%rd13], %r6;`, true, true},
	// float4: a vector load, four register ops, a vector store
	{"vec4", `
	ld.param.f32 %f9, [s];
	mul.wide.u32 %rd5, %r1, 16;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd6];
	mul.rn.f32 %f5, %f9, %f4;
	mul.rn.f32 %f6, %f9, %f3;
	add.rn.f32 %f7, %f2, %f9;
	sub.rn.f32 %f8, %f1, %f9;
	add.s64 %rd7, %rd3, %rd5;
	st.global.v4.f32 [%rd7], {%f8, %f7, %f6, %f5};`, true, false},
	// float2: a vector load of two, register ops, a vector store of two
	{"vec2", `
	ld.param.f32 %f9, [s];
	mul.wide.u32 %rd5, %r1, 8;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.v2.f32 {%f1, %f2}, [%rd6];
	mul.rn.f32 %f5, %f9, %f2;
	sub.rn.f32 %f6, %f1, %f9;
	add.s64 %rd7, %rd3, %rd5;
	st.global.v2.f32 [%rd7], {%f5, %f6};`, true, false},
	// double2: a vector load of two 8-byte elements, register ops, a
	// vector store of two
	{"dvec2", `
	mul.wide.u32 %rd5, %r1, 16;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.v2.u64 {%rd10, %rd11}, [%rd6];
	xor.b64 %rd12, %rd11, 21845;
	add.s64 %rd13, %rd10, %rd11;
	add.s64 %rd7, %rd3, %rd5;
	st.global.v2.u64 [%rd7], {%rd12, %rd13};`, true, false},
	// bytes and halves: a signed byte and an unsigned half loaded into
	// 32-bit registers, register ops, a byte and a half stored from them
	{"narrow", `
	cvt.u64.u32 %rd5, %r1;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.s8 %r5, [%rd6];
	mul.wide.u32 %rd9, %r1, 2;
	add.s64 %rd7, %rd2, %rd9;
	ld.global.u16 %r6, [%rd7];
	xor.b32 %r7, %r5, 21845;
	add.s32 %r8, %r6, %r5;
	add.s64 %rd8, %rd3, %rd5;
	st.global.u8 [%rd8], %r7;
	add.s64 %rd13, %rd4, %rd9;
	st.global.u16 [%rd13], %r8;`, true, false},
	// nvcc's byte arithmetic in 16-bit registers: a byte loaded into a
	// .b16 register, its complement (not.b16's whole-warp loop), stored
	{"not16", `
	.reg .b16 %h<3>;
	cvt.u64.u32 %rd5, %r1;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.u8 %h1, [%rd6];
	not.b16 %h2, %h1;
	add.s64 %rd8, %rd3, %rd5;
	st.global.u8 [%rd8], %h2;`, true, false},
	// half precision: a half loaded, widened, scaled, rounded back and
	// stored (the F16C conversions' whole-warp loops are trace entries)
	{"half", `
	.reg .b16 %h<3>;
	ld.param.f32 %f9, [s];
	mul.wide.u32 %rd5, %r1, 2;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.u16 %h1, [%rd6];
	cvt.f32.f16 %f1, %h1;
	mul.rn.f32 %f2, %f1, %f9;
	cvt.rn.f16.f32 %h2, %f2;
	add.s64 %rd8, %rd3, %rd5;
	st.global.u16 [%rd8], %h2;`, true, false},
	// uchar4: a vector load of four bytes, 32-bit ops, a vector store
	{"uchar4", `
	mul.wide.u32 %rd5, %r1, 4;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.v4.u8 {%r5, %r6, %r7, %r8}, [%rd6];
	xor.b32 %r9, %r5, 255;
	add.u32 %r10, %r6, %r7;
	add.s64 %rd7, %rd3, %rd5;
	st.global.v4.u8 [%rd7], {%r9, %r10, %r8, %r5};`, true, false},
	// a parameter load overwrites the first load's address register, then
	// an op reads its own destination: the first segment has no register
	// op and does not run, and the address must be as it was for the load
	// to run op by op (conformance's szext reuses %ptr so); the second
	// segment reads the first load's rows
	{"reuse", `
	mul.wide.u32 %rd5, %r1, 4;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.u32 %r5, [%rd6];
	ld.param.u64 %rd6, [b];
	add.s64 %rd6, %rd6, %rd5;
	ld.global.u32 %r6, [%rd6];
	add.u32 %r7, %r5, %r6;
	add.s64 %rd8, %rd3, %rd5;
	st.global.u32 [%rd8], %r7;`, true, true},
	// a loaded value read after the segment, by a setp whose branch parts
	// the lanes (what they run next: the counts), where nothing can fail
	// after the store: no segment
	{"readafter", `
	mul.wide.u32 %rd5, %r1, 4;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.u32 %r5, [%rd6];
	add.u32 %r6, %r5, 7;
	add.s64 %rd8, %rd3, %rd5;
	st.global.u32 [%rd8], %r6;
	setp.gt.u32 %p2, %r5, 2000000000;
	@%p2 bra SKIP;
	add.u32 %r7, %r6, 1;
	xor.b32 %r8, %r7, 3;
SKIP:`, false, false},
}

// segHead is the kernel around TestSegments' and TestSegmentsStrided's
// bodies: %r1 the thread's index, %r2 = n (the body runs for %r1 < n),
// %rd1-%rd4 the buffers a-d.
const segHead = `.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d, .param .u32 n, .param .f32 s) {
	.reg .u32 %%r<16>;
	.reg .u64 %%rd<16>;
	.reg .f32 %%f<16>;
	.reg .pred %%p<4>;
	ld.param.u64 %%rd1, [a];
	ld.param.u64 %%rd2, [b];
	ld.param.u64 %%rd3, [c];
	ld.param.u64 %%rd4, [d];
	ld.param.u32 %%r2, [n];
	mov.u32 %%r3, %%ctaid.x;
	mov.u32 %%r4, %%ntid.x;
	mov.u32 %%r1, %%tid.x;
	mad.lo.u32 %%r1, %%r3, %%r4, %%r1;
	setp.ge.u32 %%p1, %%r1, %%r2;
	@%%p1 bra DONE;
%s
DONE:
	ret;
}`

// TestSegments: each kernel gives the warp engine's memory and counts with
// batches, with segments and without, on one worker and two, with a bounds
// guard that leaves the last batch partial; segments run where runs says
// (with AVX2: the purego build has none).
func TestSegments(t *testing.T) {
	setFlag(t, &segmentsEnabled, true)
	for _, k := range segmentKernels {
		src := fmt.Sprintf(segHead, k.body)
		for _, n := range []int{300 * 128, 300*128 - 40} {
			in := bdFillBufs(bdBufs(bdB(16*300*128, bdRand), bdDwords(300*128, bdRand), bdB(16*300*128, bdRand), bdWords(300*128, bdRand)), bdSeed(k.name))
			args := bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdPtr(3), bdU(uint64(n)), bdF(1.75))
			before, beforeWarp := segmentRuns.Load(), segmentsPerWarp.Load()
			if diff, _ := bdDiffOn(t, src, "k", bdX(300), bdX(128), in, args, true, []int{1, 2}); diff != "" {
				t.Fatalf("%s n=%d: %s", k.name, n, diff)
			}
			if ran := segmentRuns.Load() > before; ran != (k.runs && simdEnabled) {
				t.Fatalf("%s n=%d: segments ran %v, want %v", k.name, n, ran, k.runs)
			}
			if perWarp := segmentsPerWarp.Load() > beforeWarp; perWarp != (k.perWarp && simdEnabled) {
				t.Fatalf("%s n=%d: a segment ran warp by warp: %v, want %v", k.name, n, perWarp, k.perWarp)
			}
			segmentsEnabled = false
			if diff, _ := bdDiffOn(t, src, "k", bdX(300), bdX(128), in, args, true, []int{1}); diff != "" {
				t.Fatalf("%s n=%d without segments: %s", k.name, n, diff)
			}
			segmentsEnabled = true
		}
	}
}

// TestSegmentsKeepStores: a grid-stride loop's a[i] += 1 runs as a segment
// in each trip, keeping what its store overwrites (a load of a later trip
// can still send the batch back); its lanes part at the loop's end when n
// is not a multiple of 32, and the batch goes back to the warp engine,
// which runs the CTAs again from the memory the batch started from. Each
// word must be incremented once per thread that reaches it (j < n: once),
// as without batches (bdDiffOn compares memory and counts).
func TestSegmentsKeepStores(t *testing.T) {
	setFlag(t, &segmentsEnabled, true)
	const ctas, block = 40, 128
	for _, n := range []int{3 * ctas * block, 3*ctas*block + 7} {
		src := undoHead + partingBody
		in := bdFillBufs(bdBufs(bdWords(4*ctas*block, bdZero), bdWords(ctas*block+16, bdZero)), 5)
		before := segmentRuns.Load()
		diff, ref := bdDiffOn(t, src, "k", bdX(ctas), bdX(block), in, bdArgs(bdPtr(0), bdPtr(1), bdU(uint64(n))), false, []int{1, 2})
		if diff != "" {
			t.Fatalf("n=%d: %s", n, diff)
		}
		if simdEnabled && segmentRuns.Load() == before {
			t.Fatalf("n=%d: no segment ran", n)
		}
		for j := range 4 * ctas * block {
			want := uint32(0)
			if j < n {
				want = 1
			}
			if got := binary.LittleEndian.Uint32(ref.mem[0][4*j:]); got != want {
				t.Fatalf("n=%d: a[%d] = %d, want %d", n, j, got, want)
			}
		}
	}
}

// TestLaunchStatsPaths: LaunchStats counts the segments a launch ran and
// the CTAs its batches gave back. TestSegmentsKeepStores's kernel: with n a
// multiple of 32 every batch finishes; with n+7 the lanes of one warp part
// at the loop's end and its batch goes back (the other batches finish).
func TestLaunchStatsPaths(t *testing.T) {
	if !simdEnabled {
		t.Skip("segments need AVX2")
	}
	setFlag(t, &segmentsEnabled, true)
	const ctas, block = 40, 128
	for _, n := range []int{3 * ctas * block, 3*ctas*block + 7} {
		in := bdFillBufs(bdBufs(bdWords(4*ctas*block, bdZero), bdWords(ctas*block+16, bdZero)), 5)
		res, err := bdRun(undoHead+partingBody, "k", bdX(ctas), bdX(block), in, bdArgs(bdPtr(0), bdPtr(1), bdU(uint64(n))), 1, true)
		if err != nil || res.err != nil {
			t.Fatalf("n=%d: %v %v", n, err, res.err)
		}
		st := res.stats
		if st.Segments == 0 {
			t.Errorf("n=%d: LaunchStats.Segments 0", n)
		}
		parts := n%warpSize != 0
		if parts && (st.Unbatched == 0 || st.Batched+st.Unbatched != ctas) || !parts && (st.Unbatched != 0 || st.Batched != ctas) {
			t.Errorf("n=%d: %d CTAs batched, %d given back, of %d", n, st.Batched, st.Unbatched, ctas)
		}
	}
}

// seg2DHead starts the kernels of TestSegments2D: x and y from 2-D
// blocks, a guard x < w && y < h, %rd5 = (y*pitch + x) * (element size).
const seg2DHead = `.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 w, .param .u32 h, .param .u32 pitch, .param .f32 s) {
	.reg .u32 %%r<16>;
	.reg .u64 %%rd<16>;
	.reg .f32 %%f<16>;
	.reg .pred %%p<4>;
	ld.param.u64 %%rd1, [a];
	ld.param.u64 %%rd2, [b];
	ld.param.u64 %%rd3, [c];
	ld.param.u32 %%r5, [w];
	ld.param.u32 %%r6, [h];
	ld.param.u32 %%r7, [pitch];
	ld.param.f32 %%f9, [s];
	mov.u32 %%r1, %%ctaid.x;
	mov.u32 %%r2, %%ntid.x;
	mov.u32 %%r3, %%tid.x;
	mad.lo.s32 %%r1, %%r1, %%r2, %%r3;
	mov.u32 %%r2, %%ctaid.y;
	mov.u32 %%r3, %%ntid.y;
	mov.u32 %%r4, %%tid.y;
	mad.lo.s32 %%r2, %%r2, %%r3, %%r4;
	setp.ge.s32 %%p1, %%r1, %%r5;
	setp.ge.s32 %%p2, %%r2, %%r6;
	or.pred %%p3, %%p1, %%p2;
	@%%p3 bra DONE;
	mad.lo.s32 %%r8, %%r2, %%r7, %%r1;
	mul.wide.s32 %%rd5, %%r8, %d;
%s
DONE:
	ret;
}`

// TestSegments2D: kernels on 2-D blocks whose rows are whole warps
// (blockDim.x a multiple of 32) run segments whose warps' elements lie
// apart (warpRows: a table of steps between warps), and give the warp
// engine's memory and counts; a block of 16-lane rows, a transposed
// access and a guard that parts lanes do not run segments at all.
func TestSegments2D(t *testing.T) {
	setFlag(t, &segmentsEnabled, true)
	// c = s*a + b (a scale of 4-byte elements), b in place, and the
	// same on float4s (the rows' elements 16 bytes each)
	scale := `
	add.s64 %rd6, %rd1, %rd5;
	ld.global.nc.f32 %f1, [%rd6];
	add.s64 %rd7, %rd2, %rd5;
	ld.global.f32 %f2, [%rd7];
	fma.rn.f32 %f3, %f1, %f9, %f2;
	add.s64 %rd8, %rd3, %rd5;
	st.global.f32 [%rd8], %f3;`
	inplace := `
	add.s64 %rd6, %rd1, %rd5;
	ld.global.f32 %f1, [%rd6];
	mul.rn.f32 %f2, %f1, %f9;
	st.global.f32 [%rd6], %f2;`
	vec := `
	add.s64 %rd6, %rd1, %rd5;
	ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd6];
	mul.rn.f32 %f5, %f1, %f9;
	mul.rn.f32 %f6, %f2, %f9;
	add.rn.f32 %f7, %f3, %f9;
	add.rn.f32 %f8, %f4, %f9;
	add.s64 %rd8, %rd3, %rd5;
	st.global.v4.f32 [%rd8], {%f5, %f6, %f7, %f8};`
	// 8-byte elements, and a signed 4-byte load (its own offsets)
	scale64 := `
	add.s64 %rd6, %rd1, %rd5;
	ld.global.u64 %rd10, [%rd6];
	mul.wide.s32 %rd9, %r8, 4;
	add.s64 %rd7, %rd2, %rd9;
	ld.global.s32 %r10, [%rd7];
	cvt.s64.s32 %rd11, %r10;
	add.s64 %rd12, %rd10, %rd11;
	add.s64 %rd8, %rd3, %rd5;
	st.global.u64 [%rd8], %rd12;`
	// an input of each warp's own: its lanes' x (the segment runs warp
	// by warp)
	indexed := `
	add.s64 %rd6, %rd1, %rd5;
	ld.global.f32 %f1, [%rd6];
	cvt.rn.f32.s32 %f2, %r1;
	add.rn.f32 %f3, %f1, %f2;
	add.s64 %rd8, %rd3, %rd5;
	st.global.f32 [%rd8], %f3;`
	// the load's rows run down the columns (a lane's step is the pitch)
	transposed := `
	mad.lo.s32 %r9, %r1, %r7, %r2;
	mul.wide.s32 %rd9, %r9, 4;
	add.s64 %rd6, %rd1, %rd9;
	ld.global.f32 %f1, [%rd6];
	mul.rn.f32 %f2, %f1, %f9;
	add.s64 %rd8, %rd3, %rd5;
	st.global.f32 [%rd8], %f2;`
	for _, c := range []struct {
		name        string
		body        string
		size        int
		grid, block [3]int
		w, h, pitch int
		runs        bool
		perWarp     bool
		streams     bool // its stores to c are non-temporal (rows 32-byte aligned)
	}{
		{"scale 32x4", scale, 4, bdXY(3, 5), bdXY(32, 4), 96, 20, 100, true, false, false},
		{"scale 64x2", scale, 4, bdXY(4, 3), bdXY(64, 2), 256, 6, 264, true, false, true},
		{"scale 96x2 3-D grid", scale, 4, bdDims(2, 3, 2), bdXY(96, 2), 192, 6, 200, true, false, true},
		{"inplace 32x8", inplace, 4, bdXY(5, 4), bdXY(32, 8), 160, 32, 161, true, false, false},
		{"float4 32x4", vec, 16, bdXY(3, 4), bdXY(32, 4), 96, 16, 97, true, false, false},
		{"indexed 64x2", indexed, 4, bdXY(3, 3), bdXY(64, 2), 192, 6, 192, true, true, true},
		{"rows of 16", scale, 4, bdXY(6, 4), bdXY(16, 16), 96, 64, 100, true, false, false},
		{"rows of 16, aligned", scale, 4, bdXY(6, 4), bdXY(16, 16), 96, 64, 104, true, false, true},
		{"rows of 16, 8-byte", scale64, 8, bdXY(6, 2), bdXY(16, 8), 96, 16, 100, true, false, true},
		{"rows of 16, float4", vec, 16, bdXY(3, 4), bdXY(16, 4), 48, 16, 50, false, false, false},
		{"rows of 16, odd", scale, 4, bdXY(6, 4), bdXY(16, 3), 96, 12, 100, false, false, false},
		{"transposed", transposed, 4, bdXY(2, 16), bdXY(32, 4), 64, 64, 64, true, false, true},
		{"edge", scale, 4, bdXY(3, 5), bdXY(32, 4), 90, 18, 100, false, false, false},
	} {
		src := fmt.Sprintf(seg2DHead, c.size, c.body)
		elems := c.pitch*c.grid[1]*c.block[1]*c.grid[2] + c.grid[0]*c.block[0]
		// (c large enough that its stores may stream: streamRange)
		in := bdFillBufs(bdBufs(bdB(c.size*elems, bdRand), bdB(c.size*elems, bdRand), bdB(max(c.size*elems, streamMin), bdRand)), bdSeed(c.name))
		args := bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(uint64(c.w)), bdU(uint64(c.h)), bdU(uint64(c.pitch)), bdF(1.75))
		before, beforeWarp, beforeNT := segmentRuns.Load(), segmentsPerWarp.Load(), segmentStreams.Load()
		diff, ref := bdDiffOn(t, src, "k", c.grid, c.block, in, args, true, []int{1, 2})
		if diff != "" {
			t.Fatalf("%s: %s", c.name, diff)
		}
		if ref.err != nil {
			t.Fatalf("%s: %v", c.name, ref.err)
		}
		if ran := segmentRuns.Load() > before; ran != (c.runs && simdEnabled) {
			t.Fatalf("%s: segments ran %v, want %v", c.name, ran, c.runs && simdEnabled)
		}
		if perWarp := segmentsPerWarp.Load() > beforeWarp; perWarp != (c.perWarp && simdEnabled) {
			t.Fatalf("%s: a segment ran warp by warp: %v, want %v", c.name, perWarp, c.perWarp && simdEnabled)
		}
		if nt := segmentStreams.Load() > beforeNT; nt != (c.streams && simdEnabled && streamEnabled) {
			t.Fatalf("%s: a segment's stores streamed: %v, want %v", c.name, nt, c.streams && simdEnabled && streamEnabled)
		}
	}
}

// TestSegments2DKeeps: a store that an op after it may send the batch back
// from keeps what it overwrites; in a segment it keeps its whole range,
// which only a store consecutive over the batch may (between the rows of
// 2-D blocks lie other batches' elements, which another worker may store
// meanwhile). The same kernel on 1-D blocks keeps in a segment, on 2-D
// blocks it does not (that store runs op by op), and both give the warp
// engine's memory and counts.
func TestSegments2DKeeps(t *testing.T) {
	setFlag(t, &segmentsEnabled, true)
	body := `
	add.s64 %rd6, %rd1, %rd5;
	ld.global.f32 %f1, [%rd6];
	mul.rn.f32 %f2, %f1, %f9;
	add.s64 %rd8, %rd3, %rd5;
	st.global.f32 [%rd8], %f2;
	add.s64 %rd7, %rd2, %rd5;
	ld.global.f32 %f3, [%rd7];
	add.rn.f32 %f4, %f3, %f9;
	st.global.f32 [%rd7], %f4;`
	src := fmt.Sprintf(seg2DHead, 4, body)
	for _, c := range []struct {
		name        string
		grid, block [3]int
		keeps       bool
	}{
		{"1-D blocks", bdXY(3, 5), bdXY(128, 1), true},
		{"2-D blocks", bdXY(3, 5), bdXY(32, 4), false},
	} {
		w, h, pitch := c.grid[0]*c.block[0], c.grid[1]*c.block[1], c.grid[0]*c.block[0]+8
		in := bdFillBufs(bdBufs(bdWords(pitch*h, bdRand), bdWords(pitch*h, bdRand), bdWords(pitch*h, bdRand)), bdSeed(c.name))
		args := bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(uint64(w)), bdU(uint64(h)), bdU(uint64(pitch)), bdF(1.75))
		before, beforeKeeps := segmentRuns.Load(), segmentKeeps.Load()
		if diff, _ := bdDiffOn(t, src, "k", c.grid, c.block, in, args, true, []int{1, 2}); diff != "" {
			t.Fatalf("%s: %s", c.name, diff)
		}
		if simdEnabled && segmentRuns.Load() == before {
			t.Fatalf("%s: no segment ran", c.name)
		}
		if keeps := segmentKeeps.Load() > beforeKeeps; keeps != (c.keeps && simdEnabled) {
			t.Fatalf("%s: a segment kept a store's range: %v, want %v", c.name, keeps, c.keeps && simdEnabled)
		}
	}
}

// TestSegmentsStrided: loads and stores whose lanes' elements lie a
// constant step apart (pairs, an array of structs' fields, RGB bytes, a
// reversed array, doubles two apart) run in segments, one element at a
// time (the segLd*X and segSt*X bodies), with the warp engine's memory
// and counts; a reversed copy with no register op runs one too (op by
// op its strided store went lane by lane). Each kernel's thread i reads
// elements of a at 0 <= (some multiple of i) < 16*n bytes and writes c.
func TestSegmentsStrided(t *testing.T) {
	setFlag(t, &segmentsEnabled, true)
	for _, k := range []struct{ name, body string }{
		// out[i] = a[2i] + a[2i+1]
		{"pairs", `
	mul.wide.u32 %rd5, %r1, 8;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.f32 %f1, [%rd6];
	ld.global.f32 %f2, [%rd6+4];
	add.rn.f32 %f3, %f1, %f2;
	mul.wide.u32 %rd7, %r1, 4;
	add.s64 %rd8, %rd3, %rd7;
	st.global.f32 [%rd8], %f3;`},
		// a float3 array of structs: c[i] = {z, y*s, x} (stores 12 apart)
		{"float3", `
	ld.param.f32 %f9, [s];
	mul.wide.u32 %rd5, %r1, 12;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.f32 %f1, [%rd6];
	ld.global.f32 %f2, [%rd6+4];
	ld.global.f32 %f3, [%rd6+8];
	mul.rn.f32 %f4, %f2, %f9;
	add.s64 %rd8, %rd3, %rd5;
	st.global.f32 [%rd8], %f3;
	st.global.f32 [%rd8+4], %f4;
	st.global.f32 [%rd8+8], %f1;`},
		// RGB bytes to one byte: (r + 2g + b) / 4, signed 16-bit too
		{"rgb", `
	mul.wide.u32 %rd5, %r1, 3;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.u8 %r5, [%rd6];
	ld.global.u8 %r6, [%rd6+1];
	ld.global.u8 %r7, [%rd6+2];
	shl.b32 %r6, %r6, 1;
	add.s32 %r5, %r5, %r6;
	add.s32 %r5, %r5, %r7;
	shr.u32 %r5, %r5, 2;
	cvt.u64.u32 %rd7, %r1;
	add.s64 %rd8, %rd3, %rd7;
	st.global.u8 [%rd8], %r5;
	mul.wide.u32 %rd9, %r1, 6;
	add.s64 %rd10, %rd2, %rd9;
	ld.global.s16 %r8, [%rd10+2];
	add.s32 %r8, %r8, %r5;
	mul.wide.u32 %rd11, %r1, 4;
	add.s64 %rd12, %rd4, %rd11;
	st.global.u16 [%rd12+2], %r8;`},
		// reversed: c[n-1-i] = a[i] * s, and d[i] = a[n-1-i] as it is
		{"reverse", `
	ld.param.f32 %f9, [s];
	mul.wide.u32 %rd5, %r1, 4;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.f32 %f1, [%rd6];
	mul.rn.f32 %f2, %f1, %f9;
	not.b32 %r5, %r1;
	add.s32 %r5, %r5, %r2;
	mul.wide.u32 %rd7, %r5, 4;
	add.s64 %rd8, %rd3, %rd7;
	st.global.f32 [%rd8], %f2;
	add.s64 %rd9, %rd1, %rd7;
	ld.global.u32 %r6, [%rd9];
	add.s64 %rd10, %rd4, %rd5;
	st.global.u32 [%rd10], %r6;`},
		// doubles two apart, sign-extended 32-bit loads four apart
		{"wide", `
	mul.wide.u32 %rd5, %r1, 16;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.u64 %rd7, [%rd6+8];
	add.s64 %rd8, %rd2, %rd5;
	ld.global.s32 %rd9, [%rd8+4];
	add.s64 %rd10, %rd7, %rd9;
	add.s64 %rd11, %rd3, %rd5;
	st.global.u64 [%rd11], %rd10;`},
	} {
		src := fmt.Sprintf(segHead, k.body)
		for _, n := range []int{40 * 128, 40*128 - 40} {
			in := bdFillBufs(bdBufs(bdB(16*40*128, bdRand), bdB(16*40*128, bdRand), bdB(16*40*128, bdRand), bdB(16*40*128, bdRand)), bdSeed(k.name))
			args := bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdPtr(3), bdU(uint64(n)), bdF(1.75))
			before := segmentRuns.Load()
			diff, ref := bdDiffOn(t, src, "k", bdX(40), bdX(128), in, args, true, []int{1, 2})
			if diff != "" {
				t.Fatalf("%s n=%d: %s", k.name, n, diff)
			}
			if ref.err != nil {
				t.Fatalf("%s n=%d: %v", k.name, n, ref.err)
			}
			if ran := segmentRuns.Load() > before; ran != simdEnabled {
				t.Fatalf("%s n=%d: segments ran %v", k.name, n, ran)
			}
		}
	}
}
