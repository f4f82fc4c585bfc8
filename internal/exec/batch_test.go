package exec

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// batchShapes: handwritten kernels of the batch shape, each exercising a
// path of batch_run.go the clang kernels of testdata/batch do not reach
// (or not always): guarded ops, selp, setp with a boolean op, equality
// on forms, 64-bit comparisons, shifts past the width, narrowing cvt,
// negative steps, per-lane loop trip counts, exit, unconditional
// branches and a fall-through exit.
const batchShapes = `
.version 7.0
.target sm_80
.address_size 64

// guarded ops on rows and forms; selp; setp.and; a 64-bit threshold
.visible .entry guarded(.param .u64 out, .param .u64 in, .param .u32 n)
{
	.reg .pred %p<6>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [in];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.ge.u32 %p1, %r5, %r1;
	@%p1 bra DONE;
	mul.wide.u32 %rd3, %r5, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %r6, [%rd4];
	and.b32 %r7, %r5, 3;
	setp.eq.u32 %p2, %r7, 1;
	mov.u32 %r8, 77;
	@%p2 add.u32 %r8, %r6, 5;
	@!%p2 ld.global.u32 %r8, [%rd4+4];
	setp.lt.u32 %p3, %r6, 1000000;
	setp.gt.u32.and %p4, %r5, 7, %p3;
	selp.b32 %r9, %r8, %r6, %p4;
	cvt.u64.u32 %rd5, %r5;
	setp.lt.u64 %p5, %rd5, 40;
	@%p5 add.u32 %r9, %r9, 1000;
	add.s64 %rd6, %rd1, %rd3;
	@%p2 st.global.u32 [%rd6], %r9;
	@!%p2 st.global.u32 [%rd6], %r8;
DONE:
	ret;
}

// forms through shl past the width, narrowing cvt, a negative step
// (out[n-1-i]), setp.eq/.ne on forms, a stored form
.visible .entry forms(.param .u64 out, .param .u64 aux, .param .u32 n)
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [aux];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.ge.u32 %p1, %r5, %r1;
	@%p1 bra DONE;
	sub.s32 %r6, %r1, %r5;
	add.s32 %r7, %r6, -1;
	mul.wide.s32 %rd3, %r7, 4;
	add.s64 %rd4, %rd1, %rd3;
	shl.b32 %r8, %r5, 33;
	shl.b32 %r9, %r5, 3;
	add.s32 %r10, %r8, %r9;
	cvt.u64.u32 %rd5, %r10;
	shl.b64 %rd6, %rd5, 30;
	cvt.u32.u64 %r11, %rd6;
	xor.b32 %r12, %r11, %r10;
	setp.eq.u32 %p2, %r5, 37;
	setp.ne.s32 %p3, %r7, 5;
	selp.b32 %r13, 1, 2, %p2;
	selp.b32 %r14, %r12, %r13, %p3;
	st.global.u32 [%rd4], %r14;
	mul.wide.u32 %rd7, %r5, 8;
	add.s64 %rd8, %rd2, %rd7;
	st.global.u64 [%rd8], %rd6;
DONE:
	exit;
}

// loads every lane makes at one address (signed and not), in a split and
// guarded too
.visible .entry uload(.param .u64 out, .param .u64 in, .param .u32 n)
{
	.reg .pred %p<4>;
	.reg .b16 %h<4>;
	.reg .b32 %r<20>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [in];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.ge.u32 %p1, %r5, %r1;
	@%p1 bra DONE;
	ld.global.s8 %r6, [%rd2+3];
	ld.global.u16 %h1, [%rd2+6];
	cvt.u32.u16 %r7, %h1;
	ld.global.s32 %r8, [%rd2+8];
	ld.global.u32 %r9, [%rd2+12];
	and.b32 %r10, %r5, 1;
	setp.eq.u32 %p2, %r10, 0;
	@%p2 bra EVEN;
	ld.global.s16 %h2, [%rd2+16];
	cvt.s32.s16 %r9, %h2;
EVEN:
	setp.lt.u32 %p3, %r4, 17;
	@%p3 ld.global.s8 %r8, [%rd2+20];
	add.s32 %r11, %r6, %r7;
	add.s32 %r11, %r11, %r8;
	xor.b32 %r11, %r11, %r9;
	add.s32 %r11, %r11, %r5;
	mul.wide.u32 %rd3, %r5, 4;
	add.s64 %rd4, %rd1, %rd3;
	st.global.u32 [%rd4], %r11;
DONE:
	ret;
}

// a run of whole-warp ops (vecRun) that reads a form one of its later ops
// overwrites
.visible .entry vrun(.param .u64 out, .param .u64 in, .param .u32 n)
{
	.reg .pred %p<2>;
	.reg .b32 %r<16>;
	.reg .f32 %f<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [in];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.ge.u32 %p1, %r5, %r1;
	@%p1 bra DONE;
	mul.wide.u32 %rd3, %r5, 8;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.f32 %f1, [%rd4];
	ld.global.f32 %f2, [%rd4+4];
	mov.b32 %f3, 0f3FC00000;
	add.rn.f32 %f4, %f1, %f3;
	mul.rn.f32 %f3, %f1, %f2;
	sub.rn.f32 %f5, %f4, %f3;
	add.s64 %rd5, %rd1, %rd3;
	st.global.v2.f32 [%rd5], {%f5, %f3};
DONE:
	ret;
}

// shared memory and a barrier: each CTA stages its elements and a halo of
// 2 in shared memory (the halo by 2 lanes, in a split), waits, then sums
// its neighbours; a v2 shared store and load too
.visible .entry tile(.param .u64 out, .param .u64 in)
{
	.reg .pred %p<2>;
	.reg .b32 %r<24>;
	.reg .b64 %rd<16>;
	.shared .align 8 .b8 sh[1096];
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [in];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	add.s32 %r5, %r4, 2;
	mul.wide.u32 %rd3, %r5, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %r6, [%rd4];
	mov.u64 %rd5, sh;
	mul.wide.u32 %rd6, %r3, 4;
	add.s64 %rd7, %rd5, %rd6;
	st.shared.u32 [%rd7+8], %r6;
	setp.gt.u32 %p1, %r3, 1;
	@%p1 bra HALO;
	mul.wide.u32 %rd8, %r4, 4;
	add.s64 %rd9, %rd2, %rd8;
	ld.global.u32 %r7, [%rd9];
	st.shared.u32 [%rd7], %r7;
	add.s32 %r8, %r4, %r2;
	add.s32 %r8, %r8, 2;
	mul.wide.u32 %rd10, %r8, 4;
	add.s64 %rd11, %rd2, %rd10;
	ld.global.u32 %r9, [%rd11];
	mul.wide.u32 %rd12, %r2, 4;
	add.s64 %rd13, %rd7, %rd12;
	st.shared.u32 [%rd13+8], %r9;
HALO:
	mul.wide.u32 %rd14, %r3, 8;
	add.s64 %rd15, %rd5, %rd14;
	st.shared.v2.u32 [%rd15+576], {%r3, %r6};
	ld.shared.u32 %r19, [%rd5+1088];
	bar.sync 0;
	st.shared.u32 [%rd5+1088], %r4;
	ld.shared.u32 %r10, [%rd7];
	ld.shared.u32 %r11, [%rd7+4];
	ld.shared.u32 %r12, [%rd7+8];
	ld.shared.u32 %r13, [%rd7+12];
	ld.shared.u32 %r14, [%rd7+16];
	add.s32 %r15, %r10, %r11;
	add.s32 %r15, %r15, %r12;
	mad.lo.s32 %r15, %r13, 3, %r15;
	xor.b32 %r15, %r15, %r14;
	xor.b32 %r16, %r3, 1;
	mul.wide.u32 %rd14, %r16, 8;
	add.s64 %rd15, %rd5, %rd14;
	ld.shared.v2.u32 {%r17, %r18}, [%rd15+576];
	add.s32 %r15, %r15, %r18;
	add.s32 %r15, %r15, %r17;
	add.s32 %r15, %r15, %r19;
	mul.wide.u32 %rd8, %r4, 4;
	add.s64 %rd9, %rd1, %rd8;
	st.global.u32 [%rd9], %r15;
	ret;
}

// a shared address with a %ctaid term: stored at tid + ctaid, loaded at
// tid (each CTA's own shared memory)
.visible .entry shcta(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	.shared .align 4 .b8 sh[1024];
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mov.u64 %rd2, sh;
	add.s32 %r5, %r3, %r1;
	mul.wide.u32 %rd3, %r5, 4;
	add.s64 %rd4, %rd2, %rd3;
	mul.lo.s32 %r6, %r4, 7;
	xor.b32 %r6, %r6, %r3; // (a row, not a form)
	st.shared.u32 [%rd4], %r6;
	bar.sync 0;
	mul.wide.u32 %rd5, %r3, 4;
	add.s64 %rd6, %rd2, %rd5;
	ld.shared.u32 %r7, [%rd6];
	mul.wide.u32 %rd7, %r4, 4;
	add.s64 %rd8, %rd1, %rd7;
	st.global.u32 [%rd8], %r7;
	ret;
}

// loads a run of lanes makes at one address (in[ty], sh[ty] in 16x16
// blocks), and a barrier inside a branch on %ctaid (every thread of a CTA
// takes it alike)
.visible .entry bcast(.param .u64 out, .param .u64 in)
{
	.reg .pred %p<2>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;
	.shared .align 4 .b8 sh[64];
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [in];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %tid.y;
	shl.b32 %r4, %r1, 8;
	mad.lo.s32 %r5, %r3, 16, %r2;
	add.s32 %r6, %r4, %r5;
	mul.wide.u32 %rd3, %r3, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %r7, [%rd4];
	mov.u64 %rd5, sh;
	mul.wide.u32 %rd6, %r2, 4;
	add.s64 %rd7, %rd5, %rd6;
	add.s32 %r8, %r7, %r1;
	st.shared.u32 [%rd7], %r8;
	and.b32 %r9, %r1, 1;
	setp.eq.u32 %p1, %r9, 0;
	@%p1 bra EVEN;
	bar.sync 0;
	add.s64 %rd8, %rd5, %rd3;
	ld.shared.u32 %r10, [%rd8];
	add.s32 %r7, %r7, %r10;
EVEN:
	mul.wide.u32 %rd9, %r6, 4;
	add.s64 %rd10, %rd1, %rd9;
	st.global.u32 [%rd10], %r7;
	ret;
}

// a transposed shared tile (sh[tx][ty] read after sh[ty][tx] is
// written): the same offsets in every CTA, not consecutive (a gather)
.visible .entry transp(.param .u64 out, .param .u64 in)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;
	.shared .align 4 .b8 sh[1024];
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [in];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %tid.y;
	shl.b32 %r4, %r1, 8;
	mad.lo.s32 %r5, %r3, 16, %r2;
	add.s32 %r6, %r4, %r5;
	mul.wide.u32 %rd3, %r6, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %r7, [%rd4];
	mov.u64 %rd5, sh;
	mul.wide.u32 %rd6, %r5, 4;
	add.s64 %rd7, %rd5, %rd6;
	st.shared.u32 [%rd7], %r7;
	bar.sync 0;
	mad.lo.s32 %r8, %r2, 16, %r3;
	mul.wide.u32 %rd8, %r8, 4;
	add.s64 %rd9, %rd5, %rd8;
	ld.shared.u32 %r9, [%rd9];
	add.s64 %rd10, %rd1, %rd3;
	st.global.u32 [%rd10], %r9;
	ret;
}

// a loop over tiles whose shared offsets move with the iteration (the
// gather plan must follow the form), reading each tile reversed and at
// double stride (increasing, not consecutive)
.visible .entry tileloop(.param .u64 out, .param .u64 in, .param .u32 tiles)
{
	.reg .pred %p<3>;
	.reg .b32 %r<24>;
	.reg .b64 %rd<16>;
	.shared .align 4 .b8 sh[2048];
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [in];
	ld.param.u32 %r1, [tiles];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %tid.x;
	shl.b32 %r4, %r2, 5;
	add.s32 %r5, %r4, %r3;
	mov.u64 %rd5, sh;
	mov.u32 %r6, 0;
	mov.u32 %r7, 0;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 bra END;
LOOP:
	mad.lo.s32 %r8, %r6, 1024, %r5;
	mul.wide.u32 %rd3, %r8, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %r9, [%rd4];
	shl.b32 %r10, %r6, 7;
	mad.lo.s32 %r11, %r3, 4, %r10;
	cvt.u64.u32 %rd6, %r11;
	add.s64 %rd7, %rd5, %rd6;
	st.shared.u32 [%rd7], %r9;
	bar.sync 0;
	sub.s32 %r12, 31, %r3;
	mad.lo.s32 %r13, %r12, 4, %r10;
	cvt.u64.u32 %rd8, %r13;
	add.s64 %rd9, %rd5, %rd8;
	ld.shared.u32 %r14, [%rd9];
	shr.u32 %r15, %r3, 4;
	mad.lo.s32 %r16, %r3, 8, %r10;
	cvt.u64.u32 %rd10, %r16;
	add.s64 %rd11, %rd5, %rd10;
	ld.shared.u32 %r17, [%rd11+-128];
	add.s32 %r7, %r7, %r14;
	xor.b32 %r7, %r7, %r17;
	bar.sync 0;
	add.s32 %r6, %r6, 1;
	setp.lt.u32 %p2, %r6, %r1;
	@%p2 bra LOOP;
END:
	mul.wide.u32 %rd12, %r5, 4;
	add.s64 %rd13, %rd1, %rd12;
	st.global.u32 [%rd13], %r7;
	ret;
}

// predicate logic on predicates every lane holds alike
.visible .entry predu(.param .u64 out, .param .u32 n)
{
	.reg .pred %p<10>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.lt.u32 %p1, %r5, -1;
	setp.gt.u32 %p2, %r5, -2;
	and.pred %p3, %p1, %p2;
	or.pred %p4, %p1, %p2;
	xor.pred %p5, %p1, %p2;
	not.pred %p6, %p1;
	or.pred %p7, %p2, !%p1;
	selp.b32 %r6, 1, 0, %p3;
	selp.b32 %r7, 2, 0, %p4;
	selp.b32 %r8, 4, 0, %p5;
	selp.b32 %r9, 8, 0, %p6;
	selp.b32 %r10, 16, 0, %p7;
	add.s32 %r11, %r6, %r7;
	add.s32 %r11, %r11, %r8;
	add.s32 %r11, %r11, %r9;
	add.s32 %r11, %r11, %r10;
	mul.wide.u32 %rd2, %r5, 4;
	add.s64 %rd3, %rd1, %rd2;
	setp.ge.u32 %p8, %r5, %r1;
	or.pred %p9, %p8, %p3;
	@%p9 bra DONE;
	st.global.u32 [%rd3], %r11;
DONE:
	ret;
}

// a loop whose trip count differs per lane (tid % 5), left through the
// fall-through into the exit; an unconditional branch
.visible .entry trips(.param .u64 out, .param .u32 n)
{
	.reg .pred %p<3>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.lt.u32 %p1, %r5, %r1;
	@!%p1 bra DONE;
	mul.wide.u32 %rd2, %r5, 4;
	add.s64 %rd3, %rd1, %rd2;
	rem.u32 %r6, %r4, 5;
	mov.u32 %r7, 0;
	mov.u32 %r8, 1;
	bra.uni TEST;
LOOP:
	mad.lo.s32 %r8, %r8, 3, %r7;
	st.global.u32 [%rd3], %r8;
	add.s32 %r7, %r7, 1;
TEST:
	setp.lt.u32 %p2, %r7, %r6;
	@%p2 bra LOOP;
DONE:
	ret;
}
`

// batchVectors: ld/st.v2/.v4.global in batches: a float4 scale, a
// pair load with a sink, a guarded vector store, 64-bit pairs.
const batchVectors = `
.version 7.0
.target sm_80
.address_size 64
.visible .entry vec(.param .u64 out, .param .u64 in, .param .u32 n, .param .u64 out2, .param .u64 out3)
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .f32 %f<10>;
	.reg .b64 %rd<16>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [in];
	ld.param.u32 %r1, [n];
	ld.param.u64 %rd9, [out2];
	ld.param.u64 %rd15, [out3];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.ge.u32 %p1, %r5, %r1;
	@%p1 bra DONE;
	mul.wide.u32 %rd3, %r5, 16;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];
	mul.rn.f32 %f5, %f1, %f4;
	add.rn.f32 %f6, %f2, %f3;
	add.s64 %rd5, %rd1, %rd3;
	st.global.v4.f32 [%rd5], {%f5, %f6, %f1, %f2};
	ld.global.v2.u32 {%r6, _}, [%rd4+8];
	and.b32 %r7, %r5, 1;
	setp.eq.u32 %p2, %r7, 0;
	mul.wide.u32 %rd6, %r5, 8;
	add.s64 %rd7, %rd9, %rd6;
	@%p2 st.global.v2.u32 [%rd7], {%r6, %r5};
	ld.global.v2.u64 {%rd10, %rd11}, [%rd4];
	xor.b64 %rd12, %rd10, %rd11;
	ld.global.v2.s32 {%r10, %r11}, [%rd4];
	setp.lt.s32 %p3, %r10, %r11;
	selp.b32 %r12, %r10, %r11, %p3;
	cvt.rn.f32.s32 %f7, %r12;
	cvt.rn.f32.u32 %f8, %r11;
	add.rn.f32 %f7, %f7, %f8;
	mov.b32 %r13, %f7;
	cvt.u64.u32 %rd14, %r13;
	add.s64 %rd12, %rd12, %rd14;
	add.s64 %rd13, %rd15, %rd3;
	st.global.v2.u64 [%rd13], {%rd12, %rd10};
DONE:
	ret;
}
`

// batchSplits: branches that split lanes until they reconverge before
// the exit: a conditional store, clang's if/else layout, nested ifs, a
// loop with per-lane trip counts inside the kernel, an if inside a
// grid-stride loop.
const batchSplits = `
.version 7.0
.target sm_80
.address_size 64
.visible .entry splits(.param .u64 x, .param .u64 y, .param .u64 z, .param .u32 n)
{
	.reg .pred %p<12>;
	.reg .b32 %r<40>;
	.reg .b64 %rd<20>;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [y];
	ld.param.u64 %rd3, [z];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.ge.u32 %p1, %r5, %r1;
	@%p1 bra DONE;
	mul.wide.u32 %rd4, %r5, 4;
	add.s64 %rd5, %rd1, %rd4;
	ld.global.u32 %r6, [%rd5];
	add.s64 %rd6, %rd2, %rd4;
	add.s64 %rd7, %rd3, %rd4;
	// a conditional store
	and.b32 %r7, %r6, 3;
	setp.ne.u32 %p2, %r7, 0;
	@%p2 bra SKIP;
	st.global.u32 [%rd6], %r6;
SKIP:
	// clang's if/else: the fall-through side jumps to its block
	and.b32 %r8, %r6, 4;
	setp.eq.u32 %p3, %r8, 0;
	@%p3 bra ELSE;
	bra.uni THEN;
ELSE:
	mul.lo.s32 %r9, %r6, 3;
	bra.uni JOIN;
THEN:
	add.s32 %r9, %r6, 1000;
JOIN:
	// nested ifs
	and.b32 %r10, %r6, 8;
	setp.eq.u32 %p4, %r10, 0;
	@%p4 bra OUTER_ELSE;
	and.b32 %r11, %r6, 16;
	setp.eq.u32 %p5, %r11, 0;
	@%p5 bra IN_ELSE;
	add.s32 %r9, %r9, 7;
	bra.uni IN_JOIN;
IN_ELSE:
	xor.b32 %r9, %r9, 255;
IN_JOIN:
	bra.uni OUTER_JOIN;
OUTER_ELSE:
	shl.b32 %r9, %r9, 1;
OUTER_JOIN:
	st.global.u32 [%rd7], %r9;
DONE:
	ret;
}

// a loop whose trip count differs per lane, then a join before the exit:
// not of the batch shape (TestBatchPlanRefusals)
.visible .entry joinloop(.param .u64 x, .param .u64 y, .param .u64 z, .param .u32 n)
{
	.reg .pred %p<12>;
	.reg .b32 %r<40>;
	.reg .b64 %rd<20>;
	ld.param.u64 %rd3, [z];
	mov.u32 %r4, %tid.x;
	mul.wide.u32 %rd4, %r4, 4;
	add.s64 %rd7, %rd3, %rd4;
	rem.u32 %r12, %r4, 7;
	mov.u32 %r13, 0;
	mov.u32 %r14, %r4;
	setp.eq.u32 %p6, %r12, 0;
	@%p6 bra AFTER;
LOOP:
	mad.lo.s32 %r14, %r14, 5, %r13;
	add.s32 %r13, %r13, 1;
	setp.lt.u32 %p7, %r13, %r12;
	@%p7 bra LOOP;
AFTER:
	st.global.u32 [%rd7], %r14;
	ret;
}

// a branch on %ctaid (alike in a warp) around a data-dependent one that
// meets at the same point: forwardRegion refuses the outer one, the
// uniform predicate lets it through (whole warps split)
.visible .entry usplit(.param .u64 x, .param .u64 y, .param .u32 n)
{
	.reg .pred %p<8>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [y];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.ge.u32 %p1, %r5, %r1;
	@%p1 bra DONE;
	mul.wide.u32 %rd3, %r5, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r6, [%rd4];
	add.s64 %rd5, %rd2, %rd3;
	and.b32 %r10, %r2, 1;
	setp.eq.u32 %p5, %r10, 0;
	@%p5 bra J;
	and.b32 %r11, %r6, 1;
	setp.eq.u32 %p6, %r11, 0;
	@%p6 bra J;
	st.global.u32 [%rd5], %r6;
J:
	add.s32 %r12, %r6, %r5;
	st.global.u32 [%rd5+4096], %r12;
DONE:
	ret;
}

// a form written in a split inside a grid-stride loop and read, before
// the split, in the next iteration (not local to the split)
.visible .entry gsform(.param .u64 x, .param .u64 y, .param .u32 n)
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [y];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mov.u32 %r5, %nctaid.x;
	mad.lo.s32 %r6, %r2, %r3, %r4;
	mul.lo.s32 %r7, %r5, %r3;
	mov.u32 %r10, 7;
	setp.ge.u32 %p1, %r6, %r1;
	@%p1 bra DONE;
LOOP:
	mul.wide.u32 %rd3, %r6, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r8, [%rd4];
	add.s32 %r11, %r8, %r10;
	setp.lt.s32 %p2, %r8, 0;
	@%p2 bra SKIP;
	mad.lo.s32 %r10, %r6, 3, 1;
SKIP:
	add.s64 %rd5, %rd2, %rd3;
	st.global.u32 [%rd5], %r11;
	add.s32 %r6, %r6, %r7;
	setp.lt.u32 %p3, %r6, %r1;
	@%p3 bra LOOP;
DONE:
	ret;
}

// an if inside a grid-stride loop
.visible .entry gsif(.param .u64 x, .param .u64 y, .param .u32 n)
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [y];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mov.u32 %r5, %nctaid.x;
	mad.lo.s32 %r6, %r2, %r3, %r4;
	mul.lo.s32 %r7, %r5, %r3;
	setp.ge.u32 %p1, %r6, %r1;
	@%p1 bra DONE;
LOOP:
	mul.wide.u32 %rd3, %r6, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r8, [%rd4];
	setp.lt.s32 %p2, %r8, 0;
	@%p2 bra NEG;
	add.s32 %r9, %r8, 1;
	bra.uni STORE;
NEG:
	neg.s32 %r9, %r8;
STORE:
	add.s64 %rd5, %rd2, %rd3;
	st.global.u32 [%rd5], %r9;
	add.s32 %r6, %r6, %r7;
	setp.lt.u32 %p3, %r6, %r1;
	@%p3 bra LOOP;
DONE:
	ret;
}
`

// TestBatchShapes compares the batch executor with the warp engine on the
// handwritten kernels, over grids of one batch and of many.
func TestBatchShapes(t *testing.T) {
	const r, z = bdRand, bdZero
	cases := []shapeCase{
		{"guarded", "guarded", bdX(3), bdX(64), bdBufs(bdWords(200, z), bdWords(201, r)), bdArgs(bdPtr(0), bdPtr(1), bdU(170)), false},
		{"guarded/many", "guarded", bdX(700), bdX(32), bdBufs(bdWords(22400, z), bdWords(22401, r)), bdArgs(bdPtr(0), bdPtr(1), bdU(22390)), false},
		{"forms", "forms", bdX(4), bdX(96), bdBufs(bdWords(384, z), bdDwords(384, z)), bdArgs(bdPtr(0), bdPtr(1), bdU(380)), false},
		{"forms/many", "forms", bdX(300), bdX(128), bdBufs(bdWords(38400, z), bdDwords(38400, z)), bdArgs(bdPtr(0), bdPtr(1), bdU(38400)), false},
		{"uload", "uload", bdX(6), bdX(64), bdBufs(bdWords(384, z), bdWords(8, r)), bdArgs(bdPtr(0), bdPtr(1), bdU(380)), false},
		{"uload/many", "uload", bdX(300), bdX(128), bdBufs(bdWords(38400, z), bdWords(8, r)), bdArgs(bdPtr(0), bdPtr(1), bdU(38400)), false},
		{"vrun", "vrun", bdX(40), bdX(64), bdBufs(bdDwords(2560, z), bdDwords(2560, bdF32)), bdArgs(bdPtr(0), bdPtr(1), bdU(2560)), false},
		{"tile", "tile", bdX(3), bdX(64), bdBufs(bdWords(192, z), bdWords(196, r)), bdArgs(bdPtr(0), bdPtr(1)), false},
		{"tile/many", "tile", bdX(600), bdX(64), bdBufs(bdWords(38400, z), bdWords(38404, r)), bdArgs(bdPtr(0), bdPtr(1)), false},
		{"tile/past the end", "tile", bdX(4), bdX(64), bdBufs(bdWords(256, z), bdWords(250, r)), bdArgs(bdPtr(0), bdPtr(1)), true},
		{"shcta", "shcta", bdX(8), bdX(64), bdBufs(bdWords(512, z)), bdArgs(bdPtr(0)), false},
		{"bcast", "bcast", bdX(40), bdXY(16, 16), bdBufs(bdWords(40*256, z), bdWords(16, r)), bdArgs(bdPtr(0), bdPtr(1)), false},
		{"transp", "transp", bdX(30), bdXY(16, 16), bdBufs(bdWords(30*256, z), bdWords(30*256, r)), bdArgs(bdPtr(0), bdPtr(1)), false},
		{"tileloop", "tileloop", bdX(24), bdX(32), bdBufs(bdWords(768, z), bdWords(8*1024, r)), bdArgs(bdPtr(0), bdPtr(1), bdU(7)), false},
		{"predu", "predu", bdX(6), bdX(64), bdBufs(bdWords(384, z)), bdArgs(bdPtr(0), bdU(380)), false},
		{"trips", "trips", bdX(5), bdX(64), bdBufs(bdWords(320, z)), bdArgs(bdPtr(0), bdU(300)), false},
		{"trips/many", "trips", bdX(600), bdX(64), bdBufs(bdWords(38400, z)), bdArgs(bdPtr(0), bdU(38399)), false},
	}
	vec := []shapeCase{
		{"vec", "vec", bdX(5), bdX(64), bdBufs(bdWords(4*320, z), bdWords(4*320, r), bdDwords(320, z), bdWords(4*320, z)), bdArgs(bdPtr(0), bdPtr(1), bdU(300), bdPtr(2), bdPtr(3)), false},
		{"vec/many", "vec", bdX(400), bdX(96), bdBufs(bdWords(4*38400, z), bdWords(4*38400, r), bdDwords(38400, z), bdWords(4*38400, z)), bdArgs(bdPtr(0), bdPtr(1), bdU(38400), bdPtr(2), bdPtr(3)), false},
		{"vec/misaligned", "vec", bdX(4), bdX(64), bdBufs(bdWords(4*260, z), bdWords(4*260, r), bdDwords(260, z), bdWords(4*260, z)), bdArgs(bdPtr(0), bdPtrOff(1, 8), bdU(256), bdPtr(2), bdPtr(3)), true},
		{"vec/past the end", "vec", bdX(4), bdX(64), bdBufs(bdWords(4*256, z), bdWords(4*250, r), bdDwords(256, z), bdWords(4*256, z)), bdArgs(bdPtr(0), bdPtr(1), bdU(256), bdPtr(2), bdPtr(3)), true},
	}
	runShapes(t, batchVectors, vec)
	splits := []shapeCase{
		{"splits", "splits", bdX(5), bdX(64), bdBufs(bdWords(320, r), bdWords(320, z), bdWords(320, z)), bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(300)), false},
		{"splits/many", "splits", bdX(500), bdX(96), bdBufs(bdWords(48000, r), bdWords(48000, z), bdWords(48000, z)), bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(47990)), false},
		{"splits/2-D", "splits", bdX(40), bdXY(8, 4), bdBufs(bdWords(1280, r), bdWords(1280, z), bdWords(1280, z)), bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(1200)), false},
		{"usplit", "usplit", bdX(16), bdX(64), bdBufs(bdWords(1024, r), bdWords(2048, z)), bdArgs(bdPtr(0), bdPtr(1), bdU(1000)), false},
		{"gsform", "gsform", bdX(6), bdX(64), bdBufs(bdWords(3000, r), bdWords(3000, z)), bdArgs(bdPtr(0), bdPtr(1), bdU(3000)), false},
		{"gsif", "gsif", bdX(12), bdX(64), bdBufs(bdWords(5000, r), bdWords(5000, z)), bdArgs(bdPtr(0), bdPtr(1), bdU(5000)), false},
		{"gsif/many", "gsif", bdX(300), bdX(128), bdBufs(bdWords(200000, r), bdWords(200000, z)), bdArgs(bdPtr(0), bdPtr(1), bdU(199999)), false},
	}
	runShapes(t, batchSplits, splits)
	runShapes(t, batchShapes, cases)
}

// A shapeCase is a launch of a handwritten kernel; fault: it must fault
// (else it must not, and must run in batches).
type shapeCase struct {
	name, kernel string
	grid, block  [3]int
	bufs         []bdBuf
	args         []bdArg
	fault        bool
}

// runShapes compares each case's launch of src with the warp engine.
func runShapes(t *testing.T, src string, cases []shapeCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := bdFillBufs(c.bufs, bdSeed(c.name))
			diff, ref := bdDiff(t, src, c.kernel, c.grid, c.block, in, c.args, !c.fault)
			if diff != "" {
				t.Fatal(diff)
			}
			var f *Fault
			if c.fault != errors.As(ref.err, &f) {
				t.Fatalf("got %v, want a fault: %v", ref.err, c.fault)
			}
		})
	}
}

// TestBatchTripsByHand checks the per-lane loop against its C meaning:
// thread i runs tid%5 iterations of x = 3x + j (j from 0), storing x each
// time; threads with no iteration store nothing.
func TestBatchTripsByHand(t *testing.T) {
	setFlag(t, &batchEnabled, true) // (whatever PTXVM_BATCH says)
	p, g := load(t, batchShapes)
	k := p.Kernels["trips"]
	const n, block = 1984, 64
	out, _ := g.Alloc(4*n, 256)
	b, _ := g.Bytes(out, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(b[4*i:], 0xdead)
	}
	var st LaunchStats
	if err := p.Launch(context.Background(), "trips", LaunchConfig{Grid: [3]int{n / block, 1, 1}, Block: [3]int{block, 1, 1},
		Params: params(k, out, n), Workers: 1, Stats: &st}); err != nil {
		t.Fatal(err)
	}
	if st.Batched != n/block {
		t.Fatalf("%d CTAs batched, want %d", st.Batched, n/block)
	}
	for i := range n {
		want := uint32(0xdead)
		if trips := i % block % 5; trips > 0 {
			want = 1
			for j := range trips {
				want = 3*want + uint32(j)
			}
		}
		if got := binary.LittleEndian.Uint32(b[4*i:]); got != want {
			t.Fatalf("thread %d: %d, want %d", i, got, want)
		}
	}
}

// TestBatchRunReuse: a launch reuses an earlier launch's register file
// (getBatchRun); the rows it kept (a parameter's, uniR) must not leak
// into a launch with another parameter value.
func TestBatchRunReuse(t *testing.T) {
	setFlag(t, &batchEnabled, true) // (whatever PTXVM_BATCH says)
	src := `
.version 7.0
.target sm_80
.address_size 64
.visible .entry scale(.param .u64 out, .param .f32 a)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.f32 %r1, [a];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	mul.wide.u32 %rd2, %r5, 4;
	add.s64 %rd3, %rd1, %rd2;
	ld.global.f32 %r6, [%rd3];
	mul.rn.f32 %r7, %r1, %r6;
	st.global.f32 [%rd3], %r7;
	ret;
}`
	p, g := load(t, src)
	k := p.Kernels["scale"]
	const n = 64 * 300 // several batches
	out, _ := g.Alloc(4*n, 256)
	b, _ := g.Bytes(out, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(b[4*i:], 0x3f800000) // 1.0
	}
	for _, a := range []uint64{0x40000000, 0x40400000} { // 2.0, then 3.0
		var st LaunchStats
		if err := p.Launch(context.Background(), "scale", LaunchConfig{Grid: [3]int{n / 64, 1, 1}, Block: [3]int{64, 1, 1},
			Params: params(k, out, a), Workers: 1, Stats: &st}); err != nil {
			t.Fatal(err)
		}
		if st.Batched != n/64 {
			t.Fatalf("%d CTAs batched", st.Batched)
		}
	}
	for i := range n {
		if got := binary.LittleEndian.Uint32(b[4*i:]); got != 0x40c00000 { // 6.0
			t.Fatalf("element %d: %#x, want 6.0", i, got)
		}
	}
}

// TestBatchPlanRefusals: kernels outside the shape get no plan.
func TestBatchPlanRefusals(t *testing.T) {
	body := func(s string) string {
		return `
.version 8.1
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.reg .f32 %f<3>;
	.shared .b32 sh[32];
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
` + s + `
	ret;
}`
	}
	for name, s := range map[string]string{
		"barrier in a split":        "setp.eq.u32 %p1, %r1, 0; @%p1 bra L; bar.sync 0; add.u32 %r1, %r1, 1; L: st.global.u32 [%rd1], %r1;",
		"barrier in a laneid split": "mov.u32 %r2, %laneid; setp.eq.u32 %p1, %r2, 0; @%p1 bra L; bar.sync 0; add.u32 %r1, %r1, 1; L: st.global.u32 [%rd1], %r1;",
		"barrier after an exit":     "setp.eq.u32 %p1, %r1, 0; @%p1 bra X; bar.sync 0; st.global.u32 [%rd1], %r1; X:",
		"barrier in a loop":         "mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2; mov.u32 %r2, %r1; L: bar.sync 0; st.global.u32 [%rd3], %r2; add.u32 %r2, %r2, 1; setp.lt.u32 %p1, %r2, 9; @%p1 bra L;",
		"barrier.red":               "bar.red.popc.u32 %r2, 0, %p1; st.global.u32 [%rd1], %r2;",
		"two atomics":               "atom.global.add.u32 %r2, [%rd1], 1; red.global.add.u32 [%rd1], %r2;",
		"parting loop with an exit": "mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2; mov.u32 %r2, %r1; L: ld.global.u32 %r3, [%rd3]; setp.eq.u32 %p1, %r3, 0; @%p1 bra X; add.u32 %r2, %r2, 1; setp.lt.u32 %p1, %r2, 9; @%p1 bra L; st.global.u32 [%rd3], %r2; X:",
		"atomic in a loop":          "mov.u32 %r2, 0; L: atom.global.add.u32 %r3, [%rd1], 1; add.u32 %r2, %r2, 1; setp.lt.u32 %p1, %r2, 3; @%p1 bra L;",
		"loop after an atomic":      "atom.global.add.u32 %r3, [%rd1], 1; mov.u32 %r2, 0; L: add.u32 %r2, %r2, 1; setp.lt.u32 %p1, %r2, %r3; @%p1 bra L; st.global.u32 [%rd1], %r2;",
		"store after an atomic":     "atom.global.add.u32 %r2, [%rd1], 1; st.global.u32 [%rd1+4], %r2;",
		"atomic in a split":         "setp.eq.u32 %p1, %r1, 0; @%p1 bra L; atom.global.add.u32 %r2, [%rd1], 1; L: add.u32 %r1, %r1, %r2;",
		"shared atomic":             "atom.shared.add.u32 %r2, [sh], 1;",
		"generic atomic":            "atom.add.u32 %r2, [%rd1], 1;",
		"vector atomic":             "atom.global.v2.f32.add {%f1, %f2}, [%rd1], {%f1, %f2};",
		"shfl after an atomic":      "atom.global.add.u32 %r2, [%rd1], 1; shfl.sync.down.b32 %r3, %r2, 1, 31, -1;",
		"shfl in a split":           "setp.lt.u32 %p1, %r1, 7; @%p1 bra L; shfl.sync.down.b32 %r1, %r1, 1, 31, -1; L: st.global.u32 [%rd1], %r1;",
		"volatile":                  "st.volatile.global.u32 [%rd1], %r1;",
		"volatile load in a loop":   "mov.u32 %r2, 0; L: ld.volatile.global.u32 %r3, [%rd1]; add.u32 %r2, %r2, 1; setp.lt.u32 %p1, %r2, 9; @%p1 bra L; st.global.u32 [%rd1+4], %r3;",
		"volatile load, then loop":  "ld.volatile.global.u32 %r3, [%rd1]; mov.u32 %r2, 0; L: bar.sync 0; add.u32 %r2, %r2, 1; setp.lt.u32 %p1, %r2, 9; @%p1 bra L; st.global.u32 [%rd1+4], %r3;",
		"acquire load":              "ld.acquire.gpu.global.u32 %r3, [%rd1]; st.global.u32 [%rd1+4], %r3;",
		"relaxed load":              "ld.relaxed.gpu.global.u32 %r3, [%rd1]; st.global.u32 [%rd1+4], %r3;",
		"volatile vector load":      "ld.volatile.global.v2.u32 {%r3, %r4}, [%rd1]; st.global.u32 [%rd1+8], %r3;",
		"clock":                     "mov.u32 %r2, %clock; st.global.u32 [%rd1], %r2;",
		"warpid":                    "mov.u32 %r2, %warpid; st.global.u32 [%rd1], %r2;",
		"arithmetic loop":           "mov.u32 %r2, 0; L: add.u32 %r1, %r1, 3; add.u32 %r2, %r2, 1; setp.eq.u32 %p1, %r2, 9; @%p1 bra E; bra.uni L; E: st.global.u32 [%rd1], %r1;",
		"two exits":                 "setp.eq.u32 %p1, %r1, 0; @%p1 bra L; st.global.u32 [%rd1], %r1; ret; L:",
	} {
		p, _ := load(t, body(s))
		if p.Kernels["k"].plan() != nil {
			t.Errorf("%s: planned for batches", name)
		}
	}
	p, _ := load(t, body("st.global.u32 [%rd1], %r1;"))
	if p.Kernels["k"].plan() == nil {
		t.Error("a plain store: no batch plan")
	}
	// a grid-stride loop: planned with plain loads, not with volatile
	// ones (a spin on a flag would never end in a batch's lockstep)
	gridStride := "mul.wide.u32 %rd2, %r1, 4; L: add.s64 %rd3, %rd1, %rd2; ld.LD.global.u32 %r2, [%rd3]; st.global.u32 [%rd3+4], %r2; add.s64 %rd2, %rd2, 4096; setp.lt.u64 %p1, %rd2, 65536; @%p1 bra L;"
	if p, _ := load(t, body(strings.ReplaceAll(gridStride, "LD.", ""))); p.Kernels["k"].plan() == nil {
		t.Error("a grid-stride loop: no batch plan")
	}
	if p, _ := load(t, body(strings.ReplaceAll(gridStride, "LD", "volatile"))); p.Kernels["k"].plan() != nil {
		t.Error("a grid-stride loop of volatile loads: planned for batches")
	}
	// an else-if chain after an atomic: nested splits that meet at one
	// point split lanes, never whole warps only (they cannot send a batch
	// back after the atomic)
	p, _ = load(t, body("atom.global.add.u32 %r2, [%rd1], 1; setp.lt.u32 %p1, %r1, 7; @%p1 bra J; setp.lt.u32 %p1, %r1, 9; @%p1 bra J; add.u32 %r2, %r2, 1; J: add.u32 %r2, %r2, 3;"))
	if b := p.Kernels["k"].plan(); b == nil || slices.Contains(b.dynUni, true) {
		t.Error("an else-if chain after an atomic: no batch plan, or splits of whole warps")
	}
	p, _ = load(t, batchSplits)
	if p.Kernels["joinloop"].plan() != nil {
		t.Error("a loop that splits towards a point other than the exit: planned for batches")
	}
	if p.Kernels["splits"].plan() == nil || p.Kernels["gsif"].plan() == nil || p.Kernels["usplit"].plan() == nil {
		t.Error("forward splits: no batch plan")
	}
}

// intCompare is integer comparison c of a and b, bits bits wide (32 or
// 64), signed or not, by Go's comparison of the corresponding type: the
// tests' reference for compareInt, which the code they check uses.
func intCompare(a, b uint64, bits int, signed bool, c intCmp) bool {
	var o int
	switch {
	case bits == 32 && signed:
		o = cmp.Compare(int32(a), int32(b))
	case bits == 32:
		o = cmp.Compare(uint32(a), uint32(b))
	case signed:
		o = cmp.Compare(int64(a), int64(b))
	default:
		o = cmp.Compare(a, b)
	}
	switch c {
	case cmpEq:
		return o == 0
	case cmpNe:
		return o != 0
	case cmpLt:
		return o < 0
	case cmpLe:
		return o <= 0
	case cmpGt:
		return o > 0
	case cmpGe:
		return o >= 0
	}
	panic(fmt.Sprintf("comparison %d", c))
}

// TestBatchThreshold checks threshold against comparing every lane: when
// it answers, every lane of the run compares as it says; and it answers
// whenever the run does not wrap around and every lane compares alike.
func TestBatchThreshold(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	pick := func() uint64 {
		switch r.IntN(4) {
		case 0:
			return uint64(r.IntN(64)) - 32
		case 1:
			return 1<<31 + uint64(r.IntN(64)) - 32
		case 2:
			return 1<<63 + uint64(r.IntN(64)) - 32
		}
		return r.Uint64()
	}
	answered := 0
	for range 40000 {
		bitsN := []int{32, 64}[r.IntN(2)]
		signed := r.IntN(2) == 0
		c := intCmp(int(cmpLt) + r.IntN(4)) // (thresholds: not .eq, .ne)
		count := int64([]int{2, 32, 8192}[r.IntN(3)])
		v, k := pick(), pick()
		s := uint64(r.IntN(9)) - 4
		if r.IntN(3) == 0 {
			s = uint64(r.Int64N(1<<33)) - 1<<32
		}
		moving := r.IntN(2)
		res, ok := threshold(v, s, count, k, moving, bitsN, signed, c)
		all, none, wraps := true, true, false
		prev := uint64(0)
		for l := range count {
			x := v + s*uint64(l)
			if bitsN == 32 {
				x = uint64(uint32(x))
			}
			// a wrap: the value moves against the step's direction
			if l > 0 {
				ord := func(a, b uint64) bool { return intCompare(a, b, bitsN, signed, cmpLt) }
				step := int64(s) // (a 32-bit step is its signed 32-bit value: the same values)
				if bitsN == 32 {
					step = int64(int32(s))
				}
				if step > 0 && !ord(prev, x) || step < 0 && !ord(x, prev) {
					wraps = true
				}
			}
			prev = x
			var lane bool
			if moving == 0 {
				lane = intCompare(x, k, bitsN, signed, c)
			} else {
				lane = intCompare(k, x, bitsN, signed, c)
			}
			all, none = all && lane, none && !lane
			if ok && lane != (res != 0) {
				t.Fatalf("v %#x s %d count %d k %#x moving %d %d-bit signed %v cmp %d: lane %d compares %v, threshold said %#x",
					v, int64(s), count, k, moving, bitsN, signed, c, l, lane, res)
			}
		}
		if ok {
			answered++
		}
		if !ok && !wraps && (all || none) && (bitsN == 32 || int64(s) <= 1<<32 && int64(s) >= -1<<32) {
			t.Fatalf("v %#x s %d count %d k %#x moving %d %d-bit signed %v cmp %d: no answer for a run without wrap-around", v, int64(s), count, k, moving, bitsN, signed, c)
		}
	}
	if answered < 20000 {
		t.Fatalf("threshold answered only %d of 40000", answered)
	}
}

// TestFormSpan checks form.span against every lane of small domains: the
// values lie between its ends in the comparison's order, and the ends are
// values some lane takes.
func TestFormSpan(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 13))
	coef := func() uint64 {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return uint64(r.IntN(9)) - 4
		case 2:
			return uint64(r.Int64N(1<<32)) - 1<<31
		}
		return r.Uint64()
	}
	answered := 0
	for range 30000 {
		bitsN := []int{32, 64}[r.IntN(2)]
		signed := r.IntN(2) == 0
		f := form{base: r.Uint64(), c: [4]uint64{coef(), coef(), coef(), coef()}, bits: uint8(bitsN)}
		switch r.IntN(4) {
		case 0:
			f.base = uint64(r.IntN(1<<12)) - 1<<11
		case 1: // near a limit of the signed or unsigned order
			f.base = []uint64{1 << 63, 1 << 31, 0, 1 << 32}[r.IntN(4)] + uint64(r.Int64N(1<<40)) - 1<<39
		}
		d := batchDomain{lo: [4]int64{0, 0, 0, r.Int64N(1 << 31)}, n: [4]int64{1 + r.Int64N(8), 1 + r.Int64N(4), 1 + r.Int64N(3), 1 + r.Int64N(8)}}
		lo, hi, ok := f.span(bitsN, signed, &d)
		if !ok {
			continue
		}
		answered++
		less := func(a, b uint64) bool { return intCompare(a, b, bitsN, signed, cmpLt) }
		sawLo, sawHi := false, false
		for x := range d.n[0] {
			for y := range d.n[1] {
				for z := range d.n[2] {
					for c := range d.n[3] {
						v := f.base + f.c[0]*uint64(x) + f.c[1]*uint64(y) + f.c[2]*uint64(z) + f.c[3]*uint64(d.lo[3]+c)
						if less(v, lo) || less(hi, v) {
							t.Fatalf("%+v over %+v (%d-bit, signed %v): lane value %#x outside [%#x, %#x]", f, d, bitsN, signed, v, lo, hi)
						}
						same := func(a, b uint64) bool { return !less(a, b) && !less(b, a) }
						sawLo, sawHi = sawLo || same(v, lo), sawHi || same(v, hi)
					}
				}
			}
		}
		if !sawLo || !sawHi {
			t.Fatalf("%+v over %+v (%d-bit, signed %v): ends [%#x, %#x] not both taken", f, d, bitsN, signed, lo, hi)
		}
	}
	if answered < 5000 {
		t.Fatalf("span answered %d of 30000", answered)
	}
}

// TestBatchSplitsRandom: random kernels whose lanes split at forward
// branches (nested if/else, ifs without else, clang's if/else layout)
// and meet again before the exit, with register writes (rows and forms),
// parameter loads, comparisons, guarded ops, loads and stores in the
// sides, compared with the warp engine (memory, counts, errors).
func TestBatchSplitsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 17))
	count := 150
	if testing.Short() {
		count = 30
	}
	planned := 0
	for k := range count {
		var b strings.Builder
		label := 0
		nr := 20 // %r1..%r19 are set in the prologue
		emit := func(format string, a ...any) { fmt.Fprintf(&b, "\t"+format+"\n", a...) }
		reg := func() string { return fmt.Sprintf("%%r%d", 1+r.IntN(nr-1)) }
		// a side: a few ops; depth bounds the nesting
		var side func(depth int)
		stmt := func(depth int) {
			d := fmt.Sprintf("%%r%d", 10+r.IntN(10)) // (the prologue's %r1-%r9 stay)
			switch x := r.IntN(11); {
			case x < 3:
				emit("%s %s, %s, %s;", []string{"add.s32", "sub.s32", "mul.lo.s32", "xor.b32", "and.b32"}[r.IntN(5)], d, reg(), reg())
			case x == 3:
				emit("mov.u32 %s, %d;", d, r.IntN(1000)-500) // a form inside a side
			case x == 4:
				emit("mad.lo.s32 %s, %%r5, %d, %s;", d, r.IntN(9)-4, reg()) // an affine one
			case x == 5:
				emit("ld.param.u32 %s, [c];", d)
			case x == 6 && r.IntN(2) == 0:
				emit("setp.lt.s32 %%p%d, %s, %s;", 2+r.IntN(3), reg(), reg())
			case x == 6: // predicate logic (on predicates the prologue may have set alike in every lane)
				emit("%s.pred %%p%d, %%p%d, %%p%d;", []string{"and", "or", "xor"}[r.IntN(3)], 2+r.IntN(3), 5+r.IntN(2), 5+r.IntN(2))
			case x == 7:
				emit("@%%p%d add.s32 %s, %s, 1;", 2+r.IntN(3), d, reg())
			case x == 8:
				emit("ld.global.u32 %s, [%%rd4+%d];", d, 4*r.IntN(4))
			case x == 9:
				emit("st.global.u32 [%%rd5+%d], %s;", 4*r.IntN(3), reg()) // (this lane's own words)
			default:
				if depth > 0 {
					side(depth - 1)
					if r.IntN(4) > 0 { // (else the nested join may be this side's own)
						emit("add.s32 %s, %s, 1;", d, reg())
					}
				}
			}
		}
		side = func(depth int) {
			label++
			l := label
			some := func(most int) { // 1 to most statements
				for range 1 + r.IntN(most) {
					stmt(depth)
				}
			}
			emit("and.b32 %%r20, %s, %d;", reg(), 1<<r.IntN(5))
			emit("setp.eq.u32 %%p1, %%r20, 0;")
			switch r.IntN(4) {
			case 3: // an else-if chain (clang's if (a) X else if (b) Y): two
				// splits meeting at one point, the second's taken side the
				// point itself
				emit("@%%p1 bra FIRST%d;", l)
				emit("and.b32 %%r20, %s, %d;", reg(), 1<<r.IntN(5))
				emit("setp.ne.u32 %%p1, %%r20, 0;")
				emit("@%%p1 bra JOIN%d;", l)
				some(3)
				emit("bra.uni JOIN%d;", l)
				fmt.Fprintf(&b, "FIRST%d:\n", l)
				some(3)
				fmt.Fprintf(&b, "JOIN%d:\n", l)
			case 0: // if without else
				emit("@%%p1 bra SKIP%d;", l)
				some(4)
				fmt.Fprintf(&b, "SKIP%d:\n", l)
			case 1: // if/else
				emit("@%%p1 bra ELSE%d;", l)
				some(3)
				emit("bra.uni JOIN%d;", l)
				fmt.Fprintf(&b, "ELSE%d:\n", l)
				some(3)
				fmt.Fprintf(&b, "JOIN%d:\n", l)
			default: // clang's layout: the fall-through side jumps to its block
				emit("@%%p1 bra ELSE%d;", l)
				emit("bra.uni THEN%d;", l)
				fmt.Fprintf(&b, "ELSE%d:\n", l)
				some(3)
				emit("bra.uni JOIN%d;", l)
				fmt.Fprintf(&b, "THEN%d:\n", l)
				some(3)
				fmt.Fprintf(&b, "JOIN%d:\n", l)
			}
		}
		for range 1 + r.IntN(3) {
			side(r.IntN(3))
		}
		body := b.String()
		src := fmt.Sprintf(`
.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n, .param .u32 c)
{
	.reg .pred %%p<8>;
	.reg .b32 %%r<24>;
	.reg .b64 %%rd<8>;
	ld.param.u64 %%rd1, [in];
	ld.param.u64 %%rd2, [out];
	ld.param.u32 %%r1, [n];
	mov.u32 %%r2, %%ctaid.x;
	mov.u32 %%r3, %%ntid.x;
	mov.u32 %%r4, %%tid.x;
	mad.lo.s32 %%r5, %%r2, %%r3, %%r4;
	setp.ge.u32 %%p1, %%r5, %%r1;
	@%%p1 bra DONE;
	mul.wide.u32 %%rd3, %%r5, 16;
	add.s64 %%rd4, %%rd1, %%rd3;
	add.s64 %%rd5, %%rd2, %%rd3;
	ld.global.u32 %%r6, [%%rd4];
	ld.global.u32 %%r7, [%%rd4+4];
	mul.lo.s32 %%r8, %%r5, 7;
	setp.lt.u32 %%p2, %%r6, %%r7;
	setp.gt.s32 %%p3, %%r6, 0;
	setp.ne.u32 %%p4, %%r8, 21;
	setp.lt.u32 %%p5, %%r5, -1;
	setp.gt.u32 %%p6, %%r5, -1;
	mov.u32 %%r10, 1;
	mov.u32 %%r11, %%r5;
	mov.u32 %%r12, %%r6;
	mov.u32 %%r13, 0;
	mov.u32 %%r14, %%r7;
	mov.u32 %%r15, 3;
	mov.u32 %%r16, %%r8;
	mov.u32 %%r17, %%r4;
	mov.u32 %%r18, 5;
	mov.u32 %%r19, %%r2;
%s
	add.s32 %%r21, %%r10, %%r11;
	add.s32 %%r21, %%r21, %%r12;
	add.s32 %%r21, %%r21, %%r13;
	add.s32 %%r21, %%r21, %%r14;
	add.s32 %%r21, %%r21, %%r15;
	add.s32 %%r21, %%r21, %%r16;
	add.s32 %%r21, %%r21, %%r17;
	add.s32 %%r21, %%r21, %%r18;
	add.s32 %%r21, %%r21, %%r19;
	selp.b32 %%r22, 1, 2, %%p2;
	selp.b32 %%r23, 4, 8, %%p3;
	add.s32 %%r21, %%r21, %%r22;
	add.s32 %%r21, %%r21, %%r23;
	st.global.u32 [%%rd5+12], %%r21;
DONE:
	ret;
}`, body)
		block := []int{32, 64, 96, 100, 256}[r.IntN(5)]
		grid := 1 + r.IntN(40)
		n := grid*block - r.IntN(block)
		bufs := bdBufs(bdWords(4*n+4, bdRand), bdWords(4*n, bdZero))
		in := bdFillBufs(bufs, uint64(k)+1)
		args := bdArgs(bdPtr(0), bdPtr(1), bdU(uint64(n)), bdU(uint64(r.IntN(100))))
		diff, ref := bdDiffOn(t, src, "k", bdX(grid), bdX(block), in, args, false, []int{1})
		if diff != "" {
			t.Fatalf("kernel %d (grid %d, block %d, n %d): %s\n%s", k, grid, block, n, diff, src)
		}
		if ref.err != nil {
			t.Fatalf("kernel %d: %v\n%s", k, ref.err, src)
		}
		if p, _ := load(t, src); p.Kernels["k"].plan() != nil {
			planned++
		}
	}
	// (kernels with nested splits that meet at one point stay on the warp
	// engine: most of the rest must run in batches)
	if planned < count/2 {
		t.Fatalf("only %d of %d kernels run in batches", planned, count)
	}
}

// TestBatchCancel: a batch that never ends (an unconditional loop) stops
// when the launch's context is cancelled, with a canceled fault.
func TestBatchCancel(t *testing.T) {
	setFlag(t, &batchEnabled, true)
	p, g := load(t, `
.version 7.0
.target sm_80
.address_size 64
.visible .entry spin(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	mov.u32 %r2, 0;
LOOP:
	add.s32 %r2, %r2, %r1;
	st.global.u32 [%rd3], %r2;
	setp.gt.u32 %p1, %r1, 5000;
	@%p1 bra DONE;
	bra.uni LOOP;
DONE:
	ret;
}`)
	k := p.Kernels["spin"]
	if k.plan() == nil {
		t.Fatal("no batch plan")
	}
	out, _ := g.Alloc(4*64, 256)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := p.Launch(ctx, "spin", LaunchConfig{Grid: [3]int{4, 1, 1}, Block: [3]int{64, 1, 1}, Params: params(k, out), Workers: 1})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultCanceled {
		t.Fatalf("got %v, want a canceled fault", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the launch took %v to stop", d)
	}
}

// TestBatchParamVector: ld.param.v2/.v4 of a structure parameter (a sink
// among the elements) in batches, against the warp engine and by hand.
func TestBatchParamVector(t *testing.T) {
	src := `
.version 7.0
.target sm_80
.address_size 64
.visible .entry pv(.param .u64 out, .param .align 16 .b8 s[16])
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.v4.u32 {%r1, %r2, _, %r4}, [s];
	ld.param.v2.u32 {%r5, %r6}, [s+8];
	mov.u32 %r7, %tid.x;
	mad.lo.s32 %r8, %r7, %r1, %r2;
	add.s32 %r8, %r8, %r4;
	xor.b32 %r8, %r8, %r5;
	add.s32 %r8, %r8, %r6;
	mul.wide.u32 %rd2, %r7, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r8;
	ret;
}`
	for _, on := range []bool{false, true} {
		setFlag(t, &batchEnabled, on)
		p, g := load(t, src)
		k := p.Kernels["pv"]
		if k.plan() == nil {
			t.Fatal("no batch plan")
		}
		out, _ := g.Alloc(4*64, 256)
		offs, size := k.ParamLayout()
		buf := make([]byte, size)
		binary.LittleEndian.PutUint64(buf[offs[0]:], out)
		for i, v := range []uint32{3, 100, 7, 1000} {
			binary.LittleEndian.PutUint32(buf[offs[1]+uint64(4*i):], v)
		}
		var st LaunchStats
		if err := p.Launch(context.Background(), "pv", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1}, Params: buf, Workers: 1, Stats: &st}); err != nil {
			t.Fatal(err)
		}
		if on != (st.Batched == 1) {
			t.Fatalf("batches %v: %d CTAs batched", on, st.Batched)
		}
		b, _ := g.Bytes(out, 4*64)
		for i := range 64 {
			// r1=3 r2=100 (r3 sunk: 7) r4=1000 r5=7 r6=1000
			want := (uint32(i)*3 + 100 + 1000) ^ 7
			want += 1000
			if got := binary.LittleEndian.Uint32(b[4*i:]); got != want {
				t.Fatalf("batches %v: thread %d: %d, want %d", on, i, got, want)
			}
		}
	}
}

// TestBatchSharedRandom: random kernels that stage values in shared
// memory, wait at a barrier, and read them back at random lane patterns
// (own, reversed, rotated, broadcast, halved, strided through and), with
// forward splits after the barrier, against the warp engine.
func TestBatchSharedRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 29))
	count := 60
	if testing.Short() {
		count = 15
	}
	for k := range count {
		shape := [][2]int{{32, 1}, {64, 1}, {128, 1}, {256, 1}, {16, 4}, {8, 8}, {16, 16}}[r.IntN(7)]
		threads := shape[0] * shape[1]
		var b strings.Builder
		emit := func(format string, a ...any) { fmt.Fprintf(&b, "\t"+format+"\n", a...) }
		for j := range 1 + r.IntN(5) {
			d := fmt.Sprintf("%%r%d", 20+j)
			switch r.IntN(6) {
			case 0: // own
				emit("mov.u32 %%r10, %%r5;")
			case 1: // reversed
				emit("sub.s32 %%r10, %d, %%r5;", threads-1)
			case 2: // rotated (not affine)
				emit("add.s32 %%r10, %%r5, %d;", 1+r.IntN(threads))
				emit("and.b32 %%r10, %%r10, %d;", threads-1)
			case 3: // broadcast
				emit("mov.u32 %%r10, %d;", r.IntN(threads))
			case 4: // halved
				emit("shr.u32 %%r10, %%r5, 1;")
			default: // strided through and (not affine)
				emit("mul.lo.s32 %%r10, %%r5, %d;", 2*r.IntN(8)+1)
				emit("and.b32 %%r10, %%r10, %d;", threads-1)
			}
			emit("mul.wide.u32 %%rd8, %%r10, 4;")
			emit("add.s64 %%rd9, %%rd5, %%rd8;")
			emit("ld.shared.u32 %s, [%%rd9];", d)
			if r.IntN(3) == 0 { // a split after the barrier
				emit("setp.lt.u32 %%p2, %s, %d;", d, 1<<31)
				emit("@%%p2 bra SK%d;", j)
				emit("xor.b32 %s, %s, %%r5;", d, d)
				fmt.Fprintf(&b, "SK%d:\n", j)
			}
			emit("add.s32 %%r11, %%r11, %s;", d)
		}
		src := fmt.Sprintf(`
.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in)
{
	.reg .pred %%p<4>;
	.reg .b32 %%r<32>;
	.reg .b64 %%rd<12>;
	.shared .align 4 .b8 sh[1024];
	ld.param.u64 %%rd1, [out];
	ld.param.u64 %%rd2, [in];
	mov.u32 %%r1, %%ctaid.x;
	mov.u32 %%r2, %%tid.x;
	mov.u32 %%r3, %%tid.y;
	mad.lo.s32 %%r5, %%r3, %d, %%r2;
	mad.lo.s32 %%r6, %%r1, %d, %%r5;
	mul.wide.u32 %%rd3, %%r6, 4;
	add.s64 %%rd4, %%rd2, %%rd3;
	ld.global.u32 %%r7, [%%rd4];
	mov.u64 %%rd5, sh;
	mul.wide.u32 %%rd6, %%r5, 4;
	add.s64 %%rd7, %%rd5, %%rd6;
	st.shared.u32 [%%rd7], %%r7;
	mov.u32 %%r11, 0;
	bar.sync 0;
%s	add.s64 %%rd10, %%rd1, %%rd3;
	st.global.u32 [%%rd10], %%r11;
	ret;
}`, shape[0], threads, b.String())
		grid := 1 + r.IntN(30)
		n := grid * threads
		bufs := bdBufs(bdWords(n, bdZero), bdWords(n, bdRand))
		in := bdFillBufs(bufs, uint64(k)+1)
		diff, ref := bdDiff(t, src, "k", bdX(grid), bdXY(shape[0], shape[1]), in, bdArgs(bdPtr(0), bdPtr(1)), true)
		if diff != "" {
			t.Fatalf("kernel %d (grid %d, block %v): %s\n%s", k, grid, shape, diff, src)
		}
		if ref.err != nil {
			t.Fatalf("kernel %d: %v\n%s", k, ref.err, src)
		}
	}
}

// TestBatchVariableAddresses: loads and stores at a variable's own address
// ([gv+8], [sh+4]: no address register). Thread 0 of each CTA stores
// gv[2] + ctaid.x into sh[1]; after the barrier every thread stores
// sh[1]*gv[0] + tid.x, that is (7 + ctaid.x)*5 + tid.x.
func TestBatchVariableAddresses(t *testing.T) {
	setFlag(t, &batchEnabled, true)
	p, g := load(t, `
.version 7.0
.target sm_80
.address_size 64
.global .align 4 .u32 gv[4] = {5, 6, 7, 8};
.visible .entry absaddr(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<4>;
	.shared .align 4 .u32 sh[4];
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.s32 %r4, %r2, %r3, %r1;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra SKIP;
	ld.global.u32 %r5, [gv+8];
	add.u32 %r5, %r5, %r2;
	st.shared.u32 [sh+4], %r5;
SKIP:
	bar.sync 0;
	ld.shared.u32 %r6, [sh+4];
	ld.global.u32 %r7, [gv];
	mad.lo.u32 %r8, %r6, %r7, %r1;
	mul.wide.u32 %rd2, %r4, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r8;
	ret;
}`)
	k := p.Kernels["absaddr"]
	if k.plan() == nil {
		t.Fatal("not planned for batches")
	}
	const ctas, block = 100, 96
	out, _ := g.Alloc(4*ctas*block, 256)
	var st LaunchStats
	if err := p.Launch(context.Background(), "absaddr", LaunchConfig{Grid: [3]int{ctas, 1, 1}, Block: [3]int{block, 1, 1},
		Params: params(k, out), Workers: 1, Stats: &st}); err != nil {
		t.Fatal(err)
	}
	if st.Batched != ctas {
		t.Fatalf("%d CTAs batched, want %d", st.Batched, ctas)
	}
	b, _ := g.Bytes(out, 4*ctas*block)
	for i := range ctas * block {
		if got, want := binary.LittleEndian.Uint32(b[4*i:]), uint32((7+i/block)*5+i%block); got != want {
			t.Fatalf("thread %d: %d, want %d", i, got, want)
		}
	}
}

// TestBatchExitByBranch: clang's layout of `if (p) {...} return;` with the
// body after the exit's branch (`@p bra BODY; bra.uni DONE; BODY: ...;
// DONE: ret;`): the lanes that fall through leave by one more branch,
// which the counts must include. Predicates true in no lane, some lanes of
// a warp, whole warps, and every lane; with a warp-shuffle sum before and
// an atomic or a store in the body; batches on and off.
func TestBatchExitByBranch(t *testing.T) {
	for _, body := range []string{
		"add.s32 %r3, %r17, %r16;\n\tatom.global.add.u32 %r19, [%rd2], %r3;",
		"mul.wide.u32 %rd5, %r20, 4;\n\tadd.s64 %rd6, %rd1, %rd5;\n\tst.global.u32 [%rd6], %r16;",
	} {
		for _, pred := range []string{
			"and.b32 %r18, %r2, 31;\n\tsetp.eq.b32 %p3, %r18, 0;", // lane 0 of each warp
			"rem.u32 %r18, %r20, 3;\n\tsetp.eq.b32 %p3, %r18, 0;", // every third thread
			"and.b32 %r18, %r2, 32;\n\tsetp.eq.b32 %p3, %r18, 0;", // whole warps
			"setp.lt.u32 %p3, %r2, 4096;",                         // every lane
			"setp.gt.u32 %p3, %r2, 4096;",                         // none
		} {
			src := `
.version 7.8
.target sm_80
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 sum)
{
	.reg .pred %p<4>;
	.reg .b32 %r<22>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [sum];
	mov.u32 %r6, %ntid.x;
	mov.u32 %r7, %ctaid.x;
	mov.u32 %r2, %tid.x;
	mad.lo.s32 %r20, %r7, %r6, %r2;
	mul.wide.u32 %rd3, %r20, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r21, [%rd4];
	shfl.sync.down.b32 %r9, %r21, 16, 31, -1;
	add.s32 %r16, %r9, %r21;
	shfl.sync.down.b32 %r17, %r16, 1, 31, -1;
	` + pred + `
	@%p3 bra BODY;
	bra.uni DONE;
BODY:
	` + body + `
DONE:
	ret;
}`
			for _, grid := range []int{2, 30} {
				n := grid * 128
				in := bdFillBufs(bdBufs(bdWords(n, bdRand), bdWords(1, bdZero)), uint64(grid))
				bdSame(t, fmt.Sprintf("%q, %q, grid %d", pred, body, grid), src, "k", bdX(grid), bdX(128), in, bdArgs(bdPtr(0), bdPtr(1)), true)
			}
		}
	}
}

// TestBatchPartingLoop: a loop whose lanes leave for the code after it
// at per-lane trip counts (tid%3+1: three exits in every warp) must split
// whole warps in a batch (dynUni): the batch goes back to the warp engine,
// whose lanes meet after the loop; memory and counts must be the warp
// engine's. With
// tid/32%3+1 every warp's lanes leave together and the launch runs in
// batches.
func TestBatchPartingLoop(t *testing.T) {
	for _, trips := range []string{
		"rem.u32 %r3, %r2, 3;",
		"shr.u32 %r3, %r2, 5;\n\trem.u32 %r3, %r3, 3;",
	} {
		src := `
.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %tid.x;
	mov.u32 %r4, %ntid.x;
	mad.lo.s32 %r5, %r1, %r4, %r2;
	` + trips + `
	add.u32 %r3, %r3, 1;
	mov.u32 %r6, 0;
	mov.u32 %r7, %r5;
LOOP:
	mul.wide.u32 %rd3, %r7, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r8, [%rd4];
	add.u32 %r6, %r6, %r8;
	add.u32 %r7, %r7, 7;
	sub.u32 %r3, %r3, 1;
	setp.ne.u32 %p1, %r3, 0;
	@%p1 bra LOOP;
	mul.lo.u32 %r9, %r6, 3;
	mul.wide.u32 %rd5, %r5, 4;
	add.s64 %rd6, %rd2, %rd5;
	st.global.u32 [%rd6], %r9;
	ret;
}`
		eligible := strings.Contains(trips, "shr")
		grid, block := 20, 96
		n := grid * block
		in := bdFillBufs(bdBufs(bdWords(n+64, bdRand), bdWords(n, bdZero)), 5)
		bdSame(t, fmt.Sprintf("%q", trips), src, "k", bdX(grid), bdX(block), in, bdArgs(bdPtr(0), bdPtr(1)), eligible)
	}
}

// TestBatchVectorRegisterElements: the elements of a vector register
// (%v.x, %v.y) are slots of their own: a form kept in %v.y must be
// written out into %v.y's rows, not %v.x's, before an op that is no form
// (xor) reads it. Thread i stores (i ^ 0x55) + 5 + in[i].
func TestBatchVectorRegisterElements(t *testing.T) {
	src := `
.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in)
{
	.reg .b32 %r<6>;
	.reg .v2 .u32 %v;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [in];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mad.lo.s32 %r3, %r2, 64, %r1;
	mov.u32 %v.y, %r3;
	mul.wide.u32 %rd3, %r3, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %v.x, [%rd4];
	add.u32 %v.x, %v.x, 5;
	xor.b32 %r4, %v.y, 0x55;
	add.u32 %r4, %r4, %v.x;
	add.s64 %rd5, %rd1, %rd3;
	st.global.u32 [%rd5], %r4;
	ret;
}`
	const grid = 40
	in := bdFillBufs(bdBufs(bdWords(grid*64, bdZero), bdWords(grid*64, bdRand)), 9)
	ref := bdSame(t, "launch", src, "k", bdX(grid), bdX(64), in, bdArgs(bdPtr(0), bdPtr(1)), true)
	for i := range grid * 64 {
		want := uint32(i^0x55) + 5 + binary.LittleEndian.Uint32(in[1][4*i:])
		if got := binary.LittleEndian.Uint32(ref.mem[0][4*i:]); got != want {
			t.Fatalf("thread %d: %d, want %d", i, got, want)
		}
	}
}

// TestBatchEqualityForms: setp.eq and .ne between a form and a value, on
// 2-D blocks (runs of tid.x shorter than a warp, partial warps) and values
// that some lanes, one lane, or no lane of a batch takes (outside its
// range; a 32-bit form that wraps around), and between uniform values,
// compared with the warp engine.
func TestBatchEqualityForms(t *testing.T) {
	ks := []int64{0, 1, 5, 15, 17, 20, 31, 47, 100, 1000, -1, -16, 0x7fffffff, -0x80000000}
	var b strings.Builder
	b.WriteString(`.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3; // x
	mov.u32 %r1, %ctaid.y;
	mov.u32 %r2, %ntid.y;
	mov.u32 %r3, %tid.y;
	mad.lo.s32 %r5, %r1, %r2, %r3; // y
	mov.u32 %r1, %nctaid.x;
	mov.u32 %r2, %ntid.x;
	mul.lo.s32 %r2, %r1, %r2;
	mad.lo.s32 %r6, %r5, %r2, %r4; // y*width + x
	mul.lo.s32 %r7, %r4, 0x10000001; // wraps around 2^32
	sub.s32 %r8, 40, %r6; // steps down, negative past 40
	cvt.u64.u32 %rd2, %r6;
	mov.u32 %r9, %nctaid.x;
	mul.lo.s32 %r9, %r9, 5; // uniform
	mov.u32 %r10, 0;
`)
	bit := 0
	for _, k := range ks {
		for _, src := range []string{"%r4", "%r5", "%r6", "%r7", "%r8", "%r9"} {
			for _, cmp := range []string{"eq.u32", "ne.s32"} {
				fmt.Fprintf(&b, "\tsetp.%s %%p1, %s, %d;\n\tselp.b32 %%r11, %d, 0, %%p1;\n\txor.b32 %%r10, %%r10, %%r11;\n", cmp, src, k, uint32(1)<<(bit%32)^uint32(bit*2654435761))
				bit++
			}
		}
		fmt.Fprintf(&b, "\tsetp.eq.u64 %%p2, %%rd2, %d;\n\tselp.b32 %%r11, %d, 0, %%p2;\n\tadd.s32 %%r10, %%r10, %%r11;\n", k, bit)
	}
	b.WriteString(`	mul.wide.u32 %rd3, %r6, 4;
	add.s64 %rd4, %rd1, %rd3;
	st.global.u32 [%rd4], %r10;
	exit;
}`)
	src := b.String()
	for _, sh := range []struct{ grid, block [3]int }{
		{bdXY(5, 3), bdXY(16, 16)}, {bdXY(4, 5), bdXY(8, 4)}, {bdXY(3, 2), bdXY(33, 3)}, {bdXY(6, 2), bdXY(32, 1)}, {bdXY(2, 3), bdXY(4, 12)},
	} {
		n := sh.grid[0] * sh.grid[1] * sh.block[0] * sh.block[1]
		in := bdFillBufs(bdBufs(bdWords(n, bdZero)), 1)
		bdSame(t, fmt.Sprintf("grid %v block %v", sh.grid, sh.block), src, "k", sh.grid, sh.block, in, bdArgs(bdPtr(0)), true)
	}
}

// TestBatchGlobalGathers: 4-byte accesses of global memory at
// in[a*tid.x + b*tid.y + e*tid.z + c*ctaid.x + f*ctaid.y + d] on 2-D and
// 3-D blocks (the same offsets from each CTA's lowest address: gathers,
// runs of eight, one word for eight lanes), as loads (signed and not;
// also where a split leaves some warps whole, beside loads of one
// word for all lanes), and, on the paths stores take, as a kernel's last store (lanes that
// share a word: the last one's value stays) and as a store that a load
// and a store follow. The steps leave the CTAs apart, overlapping or
// descending; buffers one word short, misaligned addresses and a load
// out of bounds after the store (what the store wrote must be undone)
// fault. Compared with the warp engine.
func TestBatchGlobalGathers(t *testing.T) {
	type coef struct{ a, b, e, c, f, d int }
	coefs := []coef{
		{1, 16, 0, 16, 64, 0}, {1, 64, 0, 16, 256, 5}, {2, 1, 0, 40, 3, 0}, {0, 1, 0, 8, 32, 0},
		{1, 0, 0, 1, 0, 0}, {-1, 16, 0, 32, 0, 31}, {1, -32, 7, 0, 0, 600}, {3, 17, 100, 50, 1000, 2},
		{1, 16, 0, -20, 7, 300},
	}
	access := map[string]string{
		"ld":    "ld.global.%s %%r7, [%%rd4];\n\tadd.s32 %%r7, %%r7, %%r15;\n\tst.global.u32 [%%rd6], %%r7;",
		"st":    "st.global.%s [%%rd4], %%r15;", // (a form)
		"ld+st": "ld.global.u32 %%r7, [%%rd6];\n\tadd.s32 %%r7, %%r7, %%r15;\n\tst.global.%s [%%rd4], %%r7;",
		"st+ld": "st.global.%s [%%rd4], %%r15;\n\tld.global.u32 %%r7, [%%rd6+LATE];\n\tadd.s32 %%r7, %%r7, %%r15;\n\tst.global.u32 [%%rd6], %%r7;",
		// a split: lane 5 of each CTA skips the loads, the warps without
		// it load whole
		"split": `mov.u32 %%r7, 0;
	setp.eq.u32 %%p1, %%r14, 5;
	@%%p1 bra SKIP;
	ld.global.%s %%r7, [%%rd4];
	ld.global.u32 %%r16, [%%rd1+8];
	ld.const.u32 %%r17, [cdata+8];
	add.s32 %%r7, %%r7, %%r16;
	add.s32 %%r7, %%r7, %%r17;
SKIP:
	add.s32 %%r7, %%r7, %%r15;
	st.global.u32 [%%rd6], %%r7;`,
	}
	for i, cf := range coefs {
		for _, mode := range []string{"ld", "split", "st", "ld+st", "st+ld"} {
			for _, ty := range []string{"u32", "f32", "s32", "b32"} {
				for _, sh := range []struct{ grid, block [3]int }{
					{bdXY(3, 2), bdXY(16, 16)}, {bdXY(4, 2), bdXY(8, 4)}, {bdXY(3, 2), bdDims(4, 4, 2)}, {bdXY(5, 2), bdXY(32, 2)},
				} {
					maxIdx := 0
					for bx := range sh.grid[0] {
						for by := range sh.grid[1] {
							for tz := range sh.block[2] {
								for tyy := range sh.block[1] {
									for tx := range sh.block[0] {
										maxIdx = max(maxIdx, cf.a*tx+cf.b*tyy+cf.e*tz+cf.c*bx+cf.f*by+cf.d)
									}
								}
							}
						}
					}
					for _, bad := range []struct{ short, skew, late int }{{0, 0, 0}, {1, 0, 0}, {0, 2, 0}, {0, 0, 1}} {
						if bad.late != 0 && mode != "st+ld" {
							continue
						}
						src := fmt.Sprintf(`.version 8.0
.target sm_90
.address_size 64
.const .u32 cdata[4] = {11, 12, 13, 14};
.visible .entry k(.param .u64 in, .param .u64 out)
{
	.reg .pred %%p<2>;
	.reg .b32 %%r<20>;
	.reg .b64 %%rd<8>;
	ld.param.u64 %%rd1, [in];
	ld.param.u64 %%rd2, [out];
	mov.u32 %%r1, %%tid.x;
	mov.u32 %%r2, %%tid.y;
	mov.u32 %%r3, %%tid.z;
	mov.u32 %%r4, %%ctaid.x;
	mov.u32 %%r5, %%ctaid.y;
	mul.lo.s32 %%r6, %%r1, %d;
	mad.lo.s32 %%r6, %%r2, %d, %%r6;
	mad.lo.s32 %%r6, %%r3, %d, %%r6;
	mad.lo.s32 %%r6, %%r4, %d, %%r6;
	mad.lo.s32 %%r6, %%r5, %d, %%r6;
	add.s32 %%r6, %%r6, %d;
	mul.wide.s32 %%rd3, %%r6, 4;
	add.s64 %%rd4, %%rd1, %%rd3;
	add.s64 %%rd4, %%rd4, %d;
	mov.u32 %%r8, %%ntid.x;
	mov.u32 %%r9, %%ntid.y;
	mov.u32 %%r10, %%ntid.z;
	mul.lo.s32 %%r11, %%r8, %%r9;
	mul.lo.s32 %%r11, %%r11, %%r10; // threads per CTA
	mov.u32 %%r12, %%nctaid.x;
	mad.lo.s32 %%r13, %%r5, %%r12, %%r4; // CTA index
	mad.lo.s32 %%r14, %%r3, %%r9, %%r2;
	mad.lo.s32 %%r14, %%r14, %%r8, %%r1; // thread in CTA
	mad.lo.s32 %%r15, %%r13, %%r11, %%r14;
	mul.wide.u32 %%rd5, %%r15, 4;
	add.s64 %%rd6, %%rd2, %%rd5;
	`+strings.ReplaceAll(access[mode], "LATE", strconv.Itoa(-4*bad.late))+`
	exit;
}`, cf.a, cf.b, cf.e, cf.c, cf.f, cf.d, bad.skew, ty)
						threads := sh.grid[0] * sh.grid[1] * sh.block[0] * sh.block[1] * sh.block[2]
						in := bdFillBufs(bdBufs(bdWords(maxIdx+1-bad.short+bad.skew/2, bdRand), bdWords(threads, bdZero)), uint64(i))
						what := fmt.Sprintf("coefficients %v %s %s grid %v block %v %+v", cf, mode, ty, sh.grid, sh.block, bad)
						ok := bad == struct{ short, skew, late int }{}
						workers := []int{1, 2}
						if strings.Contains(mode, "st") {
							// (CTAs storing to one word race: one worker
							// stores in the warp engine's order)
							workers = []int{1}
						}
						diff, ref := bdDiffOn(t, src, "k", sh.grid, sh.block, in, bdArgs(bdPtr(0), bdPtr(1)), ok, workers)
						if diff != "" {
							t.Fatalf("%s: %s", what, diff)
						}
						if (ref.err != nil) == ok {
							t.Fatalf("%s: error %v", what, ref.err)
						}
						if bad.late != 0 {
							// (bdDiff compares no memory after a fault)
							on, err := bdRun(src, "k", sh.grid, sh.block, in, bdArgs(bdPtr(0), bdPtr(1)), 1, true)
							if err != nil || !bytes.Equal(on.mem[0], ref.mem[0]) {
								t.Fatalf("%s: the batched launch left other bytes in the buffer stored to (%v)", what, err)
							}
						}
					}
				}
			}
		}
	}
}

// TestBatchSharedGathers64: 8-byte loads of shared memory at
// sh[a*tid.x + b*tid.y + d] after every thread wrote its own element (a
// double tile's As[ty][k], Bs[k][tx], a strided column), on 2-D blocks
// and partial warps, and at offsets past the array or misaligned (a
// fault), compared with the warp engine.
func TestBatchSharedGathers64(t *testing.T) {
	type coef struct{ a, b, d int }
	for _, cf := range []coef{{0, 16, 3}, {1, 0, 5}, {1, 16, 0}, {3, 1, 2}, {0, 0, 7}, {-1, 16, 31}, {2, -4, 100}} {
		for _, ty := range []string{"f64", "u64", "s64", "b64"} {
			for _, sh := range []struct{ grid, block [3]int }{{bdX(4), bdXY(16, 16)}, {bdX(3), bdXY(8, 4)}, {bdX(5), bdXY(32, 2)}, {bdX(2), bdXY(10, 5)}} {
				threads := sh.block[0] * sh.block[1]
				for _, bad := range []int{0, 1, 2} { // in bounds, one element past, misaligned
					skew := []int{0, 8 * 512, 4}[bad]
					src := fmt.Sprintf(`.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %%r<12>;
	.reg .b64 %%rd<12>;
	.shared .align 8 .b64 sh[512];
	ld.param.u64 %%rd1, [out];
	mov.u32 %%r1, %%tid.x;
	mov.u32 %%r2, %%tid.y;
	mov.u32 %%r3, %%ntid.x;
	mad.lo.s32 %%r4, %%r2, %%r3, %%r1; // thread in CTA
	mov.u32 %%r5, %%ctaid.x;
	mul.wide.u32 %%rd2, %%r4, 0x9e3779b97f4a7c15;
	cvt.u64.u32 %%rd3, %%r5;
	xor.b64 %%rd2, %%rd2, %%rd3;
	mov.u64 %%rd4, sh;
	mul.wide.u32 %%rd5, %%r4, 8;
	add.s64 %%rd6, %%rd4, %%rd5;
	st.shared.u64 [%%rd6], %%rd2;
	bar.sync 0;
	mul.lo.s32 %%r6, %%r1, %d;
	mad.lo.s32 %%r6, %%r2, %%r7, %%r6;
	add.s32 %%r6, %%r6, %d;
	mul.wide.s32 %%rd7, %%r6, 8;
	add.s64 %%rd7, %%rd4, %%rd7;
	ld.shared.%s %%rd8, [%%rd7+%d];
	mov.u32 %%r8, %%ntid.y;
	mul.lo.s32 %%r8, %%r8, %%r3;
	mad.lo.s32 %%r9, %%r5, %%r8, %%r4;
	mul.wide.u32 %%rd9, %%r9, 8;
	add.s64 %%rd9, %%rd1, %%rd9;
	st.global.u64 [%%rd9], %%rd8;
	exit;
}`, cf.a, cf.d, ty, skew)
					src = strings.Replace(src, "mad.lo.s32 %r6, %r2, %r7, %r6;", fmt.Sprintf("mad.lo.s32 %%r6, %%r2, %d, %%r6;", cf.b), 1)
					in := bdFillBufs(bdBufs(bdDwords(sh.grid[0]*threads, bdZero)), 1)
					what := fmt.Sprintf("coefficients %v %s block %v bad %d", cf, ty, sh.block, bad)
					diff, ref := bdDiff(t, src, "k", sh.grid, sh.block, in, bdArgs(bdPtr(0)), bad == 0)
					if diff != "" {
						t.Fatalf("%s: %s", what, diff)
					}
					if (ref.err != nil) != (bad != 0) {
						t.Fatalf("%s: error %v", what, ref.err)
					}
				}
			}
		}
	}
}

// TestBatchDescendingRuns: loads and stores whose lanes go down by their
// size (a reversed copy: out[n-1-i] = in[i], and the reverse), each size
// and signedness, against the warp engine: one range for the batch, each
// warp's run reversed. With n past the buffers' ends the batch's first
// lanes lie out of bounds (it goes back, the warp engine faults where it
// must); with a byte offset the input's range is misaligned.
func TestBatchDescendingRuns(t *testing.T) {
	const threads = 4 * 128
	for _, ty := range []struct {
		name string
		size int
	}{{"u8", 1}, {"s8", 1}, {"u16", 2}, {"s16", 2}, {"u32", 4}, {"s32", 4}, {"b64", 8}} {
		for _, mode := range []string{"load", "store", "both"} {
			for _, bad := range []struct {
				name    string
				n, skew uint64
			}{{"", threads, 0}, {"long", threads + 40, 0}, {"skewed", threads, 1}} {
				if bad.skew != 0 && ty.size == 1 {
					continue // (bytes are never misaligned)
				}
				inIdx, outIdx := "%r5", "%r5"
				if mode != "store" {
					inIdx = "%r7"
				}
				if mode != "load" {
					outIdx = "%r7"
				}
				src := fmt.Sprintf(`.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n)
{
	.reg .b32 %%r<10>;
	.reg .b64 %%rd<10>;
	.reg .b16 %%h<2>;
	ld.param.u64 %%rd1, [in];
	ld.param.u64 %%rd2, [out];
	ld.param.u32 %%r1, [n];
	mov.u32 %%r2, %%ctaid.x;
	mov.u32 %%r3, %%ntid.x;
	mov.u32 %%r4, %%tid.x;
	mad.lo.s32 %%r5, %%r2, %%r3, %%r4;
	not.b32 %%r6, %%r5;
	add.s32 %%r7, %%r1, %%r6;
	mul.wide.u32 %%rd3, %s, %d;
	add.s64 %%rd4, %%rd1, %%rd3;
	mul.wide.u32 %%rd5, %s, %d;
	add.s64 %%rd6, %%rd2, %%rd5;
	ld.global.%s %s, [%%rd4];
	st.global.%s [%%rd6], %s;
	ret;
}`, inIdx, ty.size, outIdx, ty.size, ty.name, bdReg(ty.size), ty.name, bdReg(ty.size))
				in := bdFillBufs(bdBufs(bdB(threads*ty.size+8, bdRand), bdB(threads*ty.size+8, bdRand)), 7)
				name := fmt.Sprintf("%s/%s/%s", ty.name, mode, bad.name)
				diff, ref := bdDiff(t, src, "k", bdX(4), bdX(128), in, bdArgs(bdPtrOff(0, bad.skew), bdPtr(1), bdU(bad.n)), bad.n == threads && bad.skew == 0)
				if diff != "" {
					t.Fatalf("%s: %s", name, diff)
				}
				if (ref.err != nil) != (bad.name != "") {
					t.Fatalf("%s: error %v", name, ref.err)
				}
			}
		}
	}
}

// bdReg is a register of TestBatchDescendingRuns' kernel for a value of
// size bytes.
func bdReg(size int) string {
	switch size {
	case 1, 2:
		return "%h1"
	case 8:
		return "%rd7"
	}
	return "%r8"
}

// TestBatchElseIfChains: a 2-D stencil whose edge threads load the tile's
// halo with else-if chains (clang's if (tx == 15) ... else if (tx == 0)
// ...: two splits meeting at one point, the second's taken side that point
// itself), then a barrier and the five-point sum: every CTA runs in
// batches, with the warp engine's memory and counts.
func TestBatchElseIfChains(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<24>;
	.reg .b64 %rd<12>;
	.shared .align 4 .b32 tile[324];
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %tid.y;
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %ctaid.y;
	mov.u32 %r5, %nctaid.x;
	shl.b32 %r5, %r5, 4;
	add.s32 %r5, %r5, 2;
	shl.b32 %r6, %r3, 4;
	add.s32 %r6, %r6, %r1;
	add.s32 %r6, %r6, 1;
	shl.b32 %r7, %r4, 4;
	add.s32 %r7, %r7, %r2;
	add.s32 %r7, %r7, 1;
	mad.lo.s32 %r8, %r7, %r5, %r6;
	mul.wide.u32 %rd3, %r8, 4;
	add.s64 %rd4, %rd1, %rd3;
	mad.lo.s32 %r9, %r2, 18, %r1;
	mul.wide.u32 %rd5, %r9, 4;
	mov.u64 %rd6, tile;
	add.s64 %rd6, %rd6, %rd5;
	ld.global.u32 %r10, [%rd4];
	st.shared.u32 [%rd6+76], %r10;
	setp.eq.u32 %p1, %r1, 15;
	@%p1 bra RIGHT;
	setp.ne.u32 %p2, %r1, 0;
	@%p2 bra XDONE;
	ld.global.u32 %r11, [%rd4+-4];
	st.shared.u32 [%rd6+72], %r11;
	bra.uni XDONE;
RIGHT:
	ld.global.u32 %r11, [%rd4+4];
	st.shared.u32 [%rd6+80], %r11;
XDONE:
	mul.wide.u32 %rd7, %r5, 4;
	setp.eq.u32 %p1, %r2, 15;
	@%p1 bra BOTTOM;
	setp.ne.u32 %p2, %r2, 0;
	@%p2 bra YDONE;
	sub.s64 %rd8, %rd4, %rd7;
	ld.global.u32 %r12, [%rd8];
	st.shared.u32 [%rd6+4], %r12;
	bra.uni YDONE;
BOTTOM:
	add.s64 %rd8, %rd4, %rd7;
	ld.global.u32 %r12, [%rd8];
	st.shared.u32 [%rd6+148], %r12;
YDONE:
	bar.sync 0;
	ld.shared.u32 %r13, [%rd6+76];
	ld.shared.u32 %r14, [%rd6+72];
	ld.shared.u32 %r15, [%rd6+80];
	ld.shared.u32 %r16, [%rd6+4];
	ld.shared.u32 %r17, [%rd6+148];
	shl.b32 %r13, %r13, 2;
	add.s32 %r13, %r13, %r14;
	add.s32 %r13, %r13, %r15;
	add.s32 %r13, %r13, %r16;
	add.s32 %r13, %r13, %r17;
	shl.b32 %r18, %r3, 4;
	add.s32 %r18, %r18, %r1;
	shl.b32 %r19, %r4, 4;
	add.s32 %r19, %r19, %r2;
	shl.b32 %r20, %r5, 0;
	add.s32 %r20, %r20, -2;
	mad.lo.s32 %r21, %r19, %r20, %r18;
	mul.wide.u32 %rd9, %r21, 4;
	add.s64 %rd10, %rd2, %rd9;
	st.global.u32 [%rd10], %r13;
	ret;
}`
	const gx, gy = 6, 5
	w, h := 16*gx+2, 16*gy+2
	in := bdFillBufs(bdBufs(bdWords(w*h, bdRand), bdWords(16*gx*16*gy, bdZero)), 3)
	ref := bdSame(t, "else-if halo", src, "k", bdXY(gx, gy), bdXY(16, 16), in, bdArgs(bdPtr(0), bdPtr(1)), true)
	// every CTA in batches (a batch that parted warps would leave some
	// to the warp engine)
	on, err := bdRun(src, "k", bdXY(gx, gy), bdXY(16, 16), in, bdArgs(bdPtr(0), bdPtr(1)), 1, true)
	if err != nil || on.stats.Batched != gx*gy {
		t.Fatalf("%v: %d of %d CTAs batched", err, on.stats.Batched, gx*gy)
	}
	// the five-point sums, from the input
	inb, out := in[0], ref.mem[1]
	word := func(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
	for y := range 16 * gy {
		for x := range 16 * gx {
			c := (y+1)*w + x + 1
			want := 4*word(inb, c) + word(inb, c-1) + word(inb, c+1) + word(inb, c-w) + word(inb, c+w)
			if got := word(out, y*16*gx+x); got != want {
				t.Fatalf("out[%d][%d] = %d, want %d", y, x, got, want)
			}
		}
	}
}

// TestBatchFormRows2D: 32-bit forms of 2-D blocks whose CTAs' terms carry
// them across 2^31 and 2^32 (ctaid.x * 0x7ffffff9), written out into rows
// for ops that take rows (shifts, popc, widening cvt and mul, compares,
// min and max): each CTA's rows are
// its first warp's plus its term, truncated again as the form is (zero- or
// sign-extended), against the warp engine.
func TestBatchFormRows2D(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %tid.y;
	mov.u32 %r3, %ctaid.x;
	mad.lo.u32 %r4, %r2, 16, %r1;
	mad.lo.u32 %r5, %r3, 0x7ffffff9, %r4;
	mad.lo.s32 %r6, %r3, 0x7ffffff9, %r4;
	shr.u32 %r7, %r5, 3;
	shr.s32 %r8, %r6, 3;
	popc.b32 %r9, %r5;
	cvt.u64.u32 %rd2, %r5;
	cvt.s64.s32 %rd3, %r6;
	mul.wide.u32 %rd6, %r5, 3;
	mul.wide.s32 %rd7, %r6, 3;
	add.s64 %rd2, %rd2, %rd6;
	add.s64 %rd3, %rd3, %rd7;
	setp.lt.u32 %p1, %r5, 0x80000000;
	setp.lt.s32 %p2, %r6, 0;
	selp.b32 %r13, 1, 2, %p1;
	selp.b32 %r14, 4, 8, %p2;
	add.u32 %r9, %r9, %r13;
	add.u32 %r9, %r9, %r14;
	max.u32 %r15, %r5, 0x40000000;
	min.s32 %r13, %r6, 5;
	add.u32 %r7, %r7, %r15;
	add.u32 %r8, %r8, %r13;
	mov.u32 %r10, %ntid.x;
	mov.u32 %r11, %ntid.y;
	mul.lo.u32 %r10, %r10, %r11;
	mad.lo.u32 %r12, %r3, %r10, %r4;
	mul.wide.u32 %rd4, %r12, 32;
	add.s64 %rd5, %rd1, %rd4;
	st.global.u32 [%rd5], %r7;
	st.global.u32 [%rd5+4], %r8;
	st.global.u32 [%rd5+8], %r9;
	st.global.u64 [%rd5+16], %rd2;
	st.global.u64 [%rd5+24], %rd3;
	ret;
}`
	const ctas = 9
	in := bdFillBufs(bdBufs(bdB(32*16*16*ctas, bdZero)), 1)
	bdSame(t, "2-D form rows", src, "k", bdX(ctas), bdXY(16, 16), in, bdArgs(bdPtr(0)), true)
}

// TestBatchMaskedRuns: a tree reduction written as the textbook's first
// version (if (tid % (2*s) == 0) ...: in each level's split the running
// lanes of a warp are every 2s-th), of signed minima through setp/selp and
// of 64-bit sums, in shared memory and then in global memory: the running
// lanes' words of each warp's span, against the warp engine.
func TestBatchMaskedRuns(t *testing.T) {
	var b strings.Builder
	b.WriteString(`.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<16>;
	.shared .align 8 .b8 sh[3072];
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mad.lo.u32 %r3, %r2, 256, %r1;
	mul.wide.u32 %rd3, %r3, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.s32 %r4, [%rd4];
	mul.wide.u32 %rd5, %r1, 4;
	mov.u64 %rd6, sh;
	add.s64 %rd7, %rd6, %rd5;
	st.shared.u32 [%rd7], %r4;
	mul.wide.u32 %rd8, %r1, 8;
	add.s64 %rd9, %rd6, %rd8;
	cvt.s64.s32 %rd10, %r4;
	st.shared.u64 [%rd9+1024], %rd10;
	mul.wide.u32 %rd11, %r3, 4;
	add.s64 %rd12, %rd2, %rd11;
	st.global.u32 [%rd12], %r4;
	bar.sync 0;
`)
	for s := 1; s < 256; s *= 2 {
		fmt.Fprintf(&b, `	and.b32 %%r5, %%r1, %d;
	setp.ne.u32 %%p1, %%r5, 0;
	@%%p1 bra L%d;
	ld.shared.s32 %%r6, [%%rd7];
	ld.shared.s32 %%r7, [%%rd7+%d];
	setp.lt.s32 %%p2, %%r7, %%r6;
	selp.b32 %%r6, %%r7, %%r6, %%p2;
	st.shared.u32 [%%rd7], %%r6;
	ld.shared.u64 %%rd13, [%%rd9+1024];
	ld.shared.u64 %%rd14, [%%rd9+%d];
	add.s64 %%rd13, %%rd13, %%rd14;
	st.shared.u64 [%%rd9+1024], %%rd13;
	ld.global.s32 %%r8, [%%rd12];
	ld.global.s32 %%r9, [%%rd12+%d];
	max.s32 %%r8, %%r8, %%r9;
	st.global.u32 [%%rd12], %%r8;
L%d:
	bar.sync 0;
`, 2*s-1, s, 4*s, 1024+8*s, 4*s, s)
	}
	b.WriteString(`	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra DONE;
	ld.shared.s32 %r6, [sh];
	ld.shared.u64 %rd13, [sh+1024];
	mul.wide.u32 %rd14, %r2, 16;
	add.s64 %rd15, %rd2, %rd14;
	st.global.u32 [%rd15+4096], %r6;
	st.global.u64 [%rd15+4104], %rd13;
DONE:
	ret;
}`)
	const ctas = 4
	in := bdFillBufs(bdBufs(bdWords(256*ctas, bdRand), bdB(4*256*ctas+16*ctas, bdZero)), 9)
	bdSame(t, "masked runs", b.String(), "k", bdX(ctas), bdX(256), in, bdArgs(bdPtr(0), bdPtr(1)), true)
}

// TestBatchMovingCompares: setp of two forms that differ by a constant
// (i + K against i, as a loop's overflow test compares), K such that no
// lane, some lanes or every lane wraps around (32 and 64 bits, signed and
// not, each operator, both orders), against the warp engine: where neither
// operand wraps over the batch one answer serves every lane.
func TestBatchMovingCompares(t *testing.T) {
	ops := []string{"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"}
	for _, ty := range []string{"u32", "s32", "u64", "s64"} {
		wide := ty[1:] == "64"
		for _, k := range []int64{1024, -1024, 0, 1 << 40, -(1 << 31), 0x7fffff00, -0x7fffff00, 0xffffff00} {
			var b strings.Builder
			reg, mov := "%r", "cvt.u32.u32"
			if wide {
				reg, mov = "%rd", "cvt.u64.u32"
			}
			fmt.Fprintf(&b, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 base)
{
	.reg .pred %%p<2>;
	.reg .b32 %%r<8>;
	.reg .b64 %%rd<8>;
	ld.param.u64 %%rd1, [out];
	mov.u32 %%r1, %%tid.x;
	mov.u32 %%r2, %%ctaid.x;
	mad.lo.u32 %%r3, %%r2, 128, %%r1;
	%s %s4, %%r3;
	ld.param.u64 %%rd6, [base];
	cvt.u32.u64 %%r6, %%rd6;
	add.%s %s4, %s4, %s;
	add.%s %s5, %s4, %d;
	mul.wide.u32 %%rd2, %%r3, %d;
	add.s64 %%rd3, %%rd1, %%rd2;
	mov.u32 %%r7, 0;
`, mov, reg, ty, reg, reg, map[bool]string{false: "%r6", true: "%rd6"}[wide], ty, reg, reg, k, 4*2*len(ops))
			for i, op := range ops {
				if (op == "lo" || op == "ls" || op == "hi" || op == "hs") && ty[0] == 's' {
					continue
				}
				for j, pair := range [2][2]string{{reg + "5", reg + "4"}, {reg + "4", reg + "5"}} {
					fmt.Fprintf(&b, "\tsetp.%s.%s %%p1, %s, %s;\n\tselp.u32 %%r7, 1, 0, %%p1;\n\tst.global.u32 [%%rd3+%d], %%r7;\n", op, ty, pair[0], pair[1], 4*(2*i+j))
				}
			}
			b.WriteString("\tret;\n}")
			for _, base := range []uint64{0, 0x7fffffc0, 0xffffff00, 0x7fffffffffffff00, 0xffffffffffffff80} {
				in := bdFillBufs(bdBufs(bdB(4*2*len(ops)*128*6, bdZero)), 1)
				bdSame(t, fmt.Sprintf("%s k=%d base=%#x", ty, k, base), strings.ReplaceAll(b.String(), "%%", "%"), "k", bdX(6), bdX(128), in, bdArgs(bdPtr(0), bdU(base)), true)
			}
		}
	}
}

// TestBatchSlotsOdd: a batch's register files take an odd number of rows,
// one more than the kernel's slots where those are even (batchSlots: with
// an even count, one register of every block falls in a few cache sets).
// The batch tests run on such files (newBatchRun sizes them so).
func TestBatchSlotsOdd(t *testing.T) {
	for n := range 300 {
		f := &Func{numSlots: n}
		if s := batchSlots(f); s%2 != 1 || s < max(n, 1) || s > n+1 {
			t.Fatalf("%d slots: %d rows", n, s)
		}
	}
}

// TestBatchPartialWarps: CTAs whose last warp is partial (100 and 1000
// threads, 4 to 31 lanes of it threads) load, add and store their
// threads' words one after the other: one range for the batch, each CTA's
// whole warps as rows and its last warp's threads alone, the register ops'
// whole-warp loops on every lane. 4- and 8-byte, signed or not; a kernel
// whose first or last CTA reaches past an array; an in-place update that
// must be kept (faulting in thread 31); against the warp engine.
func TestBatchPartialWarps(t *testing.T) {
	for _, ty := range []struct{ ld, st, reg string }{{"u32", "u32", "%r"}, {"s32", "u32", "%r"}, {"u64", "u64", "%rd"}} {
		size := 4
		if ty.ld == "u64" {
			size = 8
		}
		for _, block := range []int{100, 1000, 36} {
			src := fmt.Sprintf(`.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 y, .param .u64 z)
{
	.reg .b32 %%r<10>;
	.reg .b64 %%rd<12>;
	ld.param.u64 %%rd1, [x];
	ld.param.u64 %%rd2, [y];
	ld.param.u64 %%rd3, [z];
	mov.u32 %%r1, %%ctaid.x;
	mov.u32 %%r2, %%ntid.x;
	mov.u32 %%r3, %%tid.x;
	mad.lo.s32 %%r4, %%r1, %%r2, %%r3;
	mul.wide.u32 %%rd4, %%r4, %d;
	add.s64 %%rd5, %%rd1, %%rd4;
	add.s64 %%rd6, %%rd2, %%rd4;
	add.s64 %%rd7, %%rd3, %%rd4;
	ld.global.%s %s8, [%%rd5];
	ld.global.%s %s9, [%%rd6];
	add.%s %s8, %s8, %s9;
	xor.b%d %s8, %s8, 0x5a5a;
	st.global.%s [%%rd7], %s8;
	ret;
}`, size, ty.ld, ty.reg, ty.ld, ty.reg, map[bool]string{true: "s64", false: "s32"}[size == 8], ty.reg, ty.reg, ty.reg, 8*size, ty.reg, ty.reg, ty.st, ty.reg)
			const ctas = 5
			words := block * ctas * size / 4
			for _, c := range []struct {
				name      string
				xw, short int
			}{{"", words, 0}, {"past x", words - 3, 0}, {"past z", words, 5}} {
				in := bdFillBufs(bdBufs(bdWords(c.xw, bdRand), bdWords(words, bdRand), bdWords(words-c.short, bdZero)), 4)
				name := fmt.Sprintf("%s/%d/%s", ty.ld, block, c.name)
				diff, ref := bdDiff(t, src, "k", bdX(ctas), bdX(block), in, bdArgs(bdPtr(0), bdPtr(1), bdPtr(2)), c.name == "")
				if diff != "" {
					t.Fatalf("%s: %s", name, diff)
				}
				if (ref.err != nil) != (c.name != "") {
					t.Fatalf("%s: error %v", name, ref.err)
				}
			}
		}
	}
	// an in-place a[i] += 1 that must be kept, then the fault in thread 31
	// (faultsInThread31), on CTAs of 100 threads
	faultsInThread31(t, undoHead+`	mul.wide.u32 %o, %i, 4;
	add.u64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
`+thread31Fault, 200, 100)
}

// TestBatchAlongY: a grid one CTA wide (grid(1, n), as a row-per-CTA
// kernel launches it) is batched along y: each CTA reads and writes by its
// %ctaid.y, %ctaid.x reads 0 and %ctaid.z stays the CTA's plane, on one
// and two workers, every CTA batched; a load past the end in one CTA
// faults as on the warp engine.
func TestBatchAlongY(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n)
{
	.reg .pred %p;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	ld.param.u32 %r11, [n];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ctaid.y;
	mov.u32 %r4, %ctaid.z;
	mov.u32 %r5, %nctaid.y;
	mov.u32 %r6, %ntid.x;
	mad.lo.u32 %r7, %r4, %r5, %r3;  // the CTA's row: z * nctaid.y + y
	mad.lo.u32 %r8, %r7, %r6, %r1;  // the thread's element
	setp.ge.u32 %p, %r8, %r11;
	@%p bra Done;
	mul.wide.u32 %rd3, %r8, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r9, [%rd4];
	mad.lo.u32 %r9, %r2, 1000003, %r9; // + ctaid.x * 1000003 (0)
	mad.lo.u32 %r9, %r3, 1000, %r9;
	mad.lo.u32 %r9, %r4, 7, %r9;
	add.s64 %rd5, %rd2, %rd3;
	st.global.u32 [%rd5], %r9;
Done:
	ret;
}`
	const block = 64
	grid := bdDims(1, 37, 2)
	n := block * 37 * 2
	in := bdFillBufs(bdBufs(bdWords(n, bdRand), bdWords(n, bdZero)), 5)
	for _, workers := range []int{1, 2} {
		var batches atomic.Int32
		afterBatchOps = func() { batches.Add(1) }
		res, err := bdRun(src, "k", grid, bdX(block), in, bdArgs(bdPtr(0), bdPtr(1), bdU(uint64(n))), workers, true)
		afterBatchOps = nil
		if err != nil || res.err != nil {
			t.Fatal(err, res.err)
		}
		if res.stats.Batched != 74 {
			t.Errorf("%d workers: %d of 74 CTAs batched", workers, res.stats.Batched)
		}
		// (several CTAs a batch: a batch of one CTA each would be 74)
		if b := batches.Load(); b > 12 {
			t.Errorf("%d workers: %d batches for 74 CTAs of 2 warps", workers, b)
		}
		for i := range n {
			y, z := i/block%37, i/(block*37)
			want := binary.LittleEndian.Uint32(in[0][4*i:]) + uint32(y)*1000 + uint32(z)*7
			if got := binary.LittleEndian.Uint32(res.mem[1][4*i:]); got != want {
				t.Fatalf("%d workers: element %d (ctaid.y %d, z %d): %d, want %d", workers, i, y, z, got, want)
			}
		}
	}
	// n past the input's end: CTA (0, 30, 0) loads beyond it
	big := bdArgs(bdPtr(0), bdPtr(1), bdU(uint64(31*block)))
	short := bdFillBufs(bdBufs(bdWords(30*block+5, bdRand), bdWords(n, bdZero)), 6)
	diff, ref := bdDiffOn(t, src, "k", bdXY(1, 37), bdX(block), short, big, true, []int{1, 2})
	if diff != "" {
		t.Fatal(diff)
	}
	var f *Fault
	if !errors.As(ref.err, &f) || f.CTA != [3]int{0, 30, 0} {
		t.Fatalf("got %v, want a fault in CTA (0,30,0)", ref.err)
	}
}

// TestBatchWarpRuns2D: 2-D blocks, each run of consecutive tid.x (a warp
// in blocks 32 or more wide) at consecutive addresses and the runs a pitch
// apart (a pitched copy): stores, 8-byte and sign-extended loads take one
// check of the batch's range and a pass per run. The copies of u32, f64 and s16 (as
// s32) elements match Go's, the batch ran, and a destination too short
// for the last row faults on the warp engine, naming the thread.
func TestBatchWarpRuns2D(t *testing.T) {
	const tmpl = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 src, .param .u64 dst, .param .u32 sp, .param .u32 dp, .param .u32 w, .param .u32 h)
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;
	.reg .f64 %fd;
	ld.param.u64 %rd1, [src];
	ld.param.u64 %rd2, [dst];
	ld.param.u32 %r1, [sp];
	ld.param.u32 %r2, [dp];
	ld.param.u32 %r3, [w];
	ld.param.u32 %r4, [h];
	mov.u32 %r5, %ctaid.x;
	mov.u32 %r6, %ntid.x;
	mov.u32 %r7, %tid.x;
	mad.lo.u32 %r8, %r5, %r6, %r7;   // x
	mov.u32 %r5, %ctaid.y;
	mov.u32 %r6, %ntid.y;
	mov.u32 %r7, %tid.y;
	mad.lo.u32 %r9, %r5, %r6, %r7;   // y
	setp.ge.u32 %p1, %r8, %r3;
	setp.ge.u32 %p2, %r9, %r4;
	or.pred %p3, %p1, %p2;
	@%p3 bra Done;
	mad.lo.u32 %r10, %r9, %r1, %r8;  // y*sp + x
	mad.lo.u32 %r11, %r9, %r2, %r8;  // y*dp + x
	mul.wide.u32 %rd3, %r10, SIN;
	add.s64 %rd4, %rd1, %rd3;
	mul.wide.u32 %rd5, %r11, SOUT;
	add.s64 %rd6, %rd2, %rd5;
	COPY
Done:
	ret;
}`
	cases := []struct {
		name      string
		in, out   int
		copy      string
		convert   func(b []byte) []byte
		blockX, y int
	}{
		{"u32", 4, 4, "ld.global.u32 %r12, [%rd4];\n\tst.global.u32 [%rd6], %r12;", func(b []byte) []byte { return b }, 32, 4},
		{"f64", 8, 8, "ld.global.f64 %fd, [%rd4];\n\tst.global.f64 [%rd6], %fd;", func(b []byte) []byte { return b }, 64, 2},
		{"s16", 2, 4, "ld.global.s16 %r12, [%rd4];\n\tst.global.u32 [%rd6], %r12;", func(b []byte) []byte {
			return binary.LittleEndian.AppendUint32(nil, uint32(int32(int16(binary.LittleEndian.Uint16(b)))))
		}, 32, 8},
		// (blocks less wide than a warp: each warp's runs of tid.x)
		{"u32 16 wide", 4, 4, "ld.global.u32 %r12, [%rd4];\n\tst.global.u32 [%rd6], %r12;", func(b []byte) []byte { return b }, 16, 16},
		{"f64 8 wide", 8, 8, "ld.global.f64 %fd, [%rd4];\n\tst.global.f64 [%rd6], %fd;", func(b []byte) []byte { return b }, 8, 8},
	}
	const w, h, sp, dp = 200, 37, 211, 203
	for _, c := range cases {
		src := strings.NewReplacer("SIN", fmt.Sprint(c.in), "SOUT", fmt.Sprint(c.out), "COPY", c.copy).Replace(tmpl)
		grid := bdXY((w+c.blockX-1)/c.blockX, (h+c.y-1)/c.y)
		in := bdFillBufs(bdBufs(bdB(c.in*sp*h, bdRand), bdB(c.out*dp*h, bdRand)), 9)
		for _, short := range []bool{false, true} {
			outLen := c.out * dp * h
			if short { // (the last row's end lies past the destination)
				outLen = c.out * (dp*(h-1) + w - 1)
				in[1] = in[1][:outLen]
			}
			var batches atomic.Int32
			afterBatchOps = func() { batches.Add(1) }
			res, err := bdRun(src, "k", grid, [3]int{c.blockX, c.y, 1}, in, bdArgs(bdPtr(0), bdPtr(1), bdU(sp), bdU(dp), bdU(w), bdU(h)), 1, true)
			afterBatchOps = nil
			if err != nil {
				t.Fatal(err)
			}
			if short {
				var f *Fault
				if !errors.As(res.err, &f) || f.Kind != FaultOutOfBounds || f.CTA != [3]int{(w - 1) / c.blockX, (h - 1) / c.y, 0} ||
					f.Thread != [3]int{(w - 1) % c.blockX, (h - 1) % c.y, 0} {
					t.Errorf("%s, short destination: %v, want the last thread's out-of-bounds store", c.name, res.err)
				}
				continue
			}
			if res.err != nil || batches.Load() == 0 {
				t.Fatalf("%s: %v, %d batches", c.name, res.err, batches.Load())
			}
			for y := range h {
				for x := range dp {
					at := c.out * (y*dp + x)
					want := in[1][at : at+c.out] // (past the width: untouched)
					if x < w {
						from := c.in * (y*sp + x)
						want = c.convert(in[0][from : from+c.in])
					}
					if got := res.mem[1][at : at+c.out]; !bytes.Equal(got, want) {
						t.Fatalf("%s: element (%d, %d) = %x, want %x", c.name, x, y, got, want)
					}
				}
			}
		}
	}
}

// TestMaterializeAddLoops: materialize adds a CTA's term to the batch's
// first CTA's rows with the AVX2 loops of add.64, add.s32 and add.z32; the
// sums are truncated as a form of 64 bits, of 32 sign-extended and of 32
// zero-extended bits is (form.norm).
func TestMaterializeAddLoops(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 loops")
	}
	r := rand.New(rand.NewPCG(5, 5))
	for _, c := range []struct {
		key  string
		norm func(x uint64) uint64
	}{
		{"add.64", func(x uint64) uint64 { return x }},
		{"add.s32", func(x uint64) uint64 { return uint64(int64(int32(x))) }},
		{"add.z32", func(x uint64) uint64 { return uint64(uint32(x)) }},
	} {
		add, ok := simdBinary(c.key)
		if !ok || add.rk == nil {
			t.Fatalf("%s: no loop", c.key)
		}
		for range 100 {
			var first, row lanes
			for i := range first {
				first[i] = c.norm(r.Uint64())
			}
			d := r.Uint64() >> uint(r.IntN(64))
			add.rk(&row, &first, d)
			for i := range row {
				if want := c.norm(first[i] + d); row[i] != want {
					t.Fatalf("%s: %#x + %#x = %#x, want %#x", c.key, first[i], d, row[i], want)
				}
			}
		}
	}
}

// TestRunsNarrow: loadRun and storeRun of 1- and 2-byte elements (four a
// word) give each lane its little-endian element, zero- or sign-extended,
// and store each lane's low bytes, nothing else.
func TestRunsNarrow(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, n := range []uint64{1, 2} {
		for _, signed := range []bool{false, true} {
			data := make([]byte, n*warpSize)
			for i := range data {
				data[i] = byte(r.Uint32())
			}
			var row lanes
			loadRun(&row, data, n, signed)
			for l := range warpSize {
				var want uint64
				switch {
				case n == 1 && signed:
					want = uint64(int64(int8(data[l])))
				case n == 1:
					want = uint64(data[l])
				case signed:
					want = uint64(int64(int16(binary.LittleEndian.Uint16(data[2*l:]))))
				default:
					want = uint64(binary.LittleEndian.Uint16(data[2*l:]))
				}
				if row[l] != want {
					t.Fatalf("load n %d signed %v lane %d: %#x, want %#x", n, signed, l, row[l], want)
				}
			}
		}
		var row lanes
		for l := range row {
			row[l] = r.Uint64() // (the bytes above the element's must not reach memory)
		}
		out := make([]byte, n*warpSize+8)
		storeRun(out[:n*warpSize], &row, n)
		for l := range warpSize {
			got := uint64(out[l])
			if n == 2 {
				got = uint64(binary.LittleEndian.Uint16(out[2*l:]))
			}
			if want := row[l] & (1<<(8*n) - 1); got != want {
				t.Fatalf("store n %d lane %d: %#x, want %#x", n, l, got, want)
			}
		}
		if !bytes.Equal(out[n*warpSize:], make([]byte, 8)) {
			t.Fatalf("store n %d wrote past the run", n)
		}
	}
}

// TestBatchVolatileShared: ld/st.volatile.shared run in batches (each
// CTA's shared memory is its batch's, on one goroutine; the op-by-op
// order performs every access in each thread's order): a warp-synchronous
// step after a barrier, warp 0 adding the upper half and then, without a
// barrier, the next sixteen (CUDA samples' volatile last-warp
// reduction), gives Go's values and the warp engine's memory, batched.
func TestBatchVolatileShared(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.shared .align 4 .b8 sh[256];
	.reg .pred %p;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mul.lo.u32 %r3, %r1, 3;
	add.u32 %r3, %r3, %r2;
	mul.wide.u32 %rd2, %r1, 4;
	mov.u64 %rd3, sh;
	add.s64 %rd3, %rd3, %rd2;
	st.volatile.shared.u32 [%rd3], %r3;
	bar.sync 0;
	setp.ge.u32 %p, %r1, 32;
	@%p bra Done;
	ld.volatile.shared.u32 %r4, [%rd3];
	ld.volatile.shared.u32 %r5, [%rd3+128];
	add.u32 %r4, %r4, %r5;
	st.volatile.shared.u32 [%rd3], %r4;
	ld.volatile.shared.u32 %r6, [%rd3];
	ld.volatile.shared.u32 %r7, [%rd3+64];
	add.u32 %r6, %r6, %r7;
	mad.lo.u32 %r8, %r2, 32, %r1;
	mul.wide.u32 %rd4, %r8, 4;
	add.s64 %rd5, %rd1, %rd4;
	st.global.u32 [%rd5], %r6;
Done:
	ret;
}`
	const ctas = 20
	in := bdFillBufs(bdBufs(bdWords(32*ctas, bdZero)), 1)
	diff, ref := bdDiffOn(t, src, "k", bdX(ctas), bdX(64), in, bdArgs(bdPtr(0)), true, []int{1, 2})
	if diff != "" || ref.err != nil {
		t.Fatal(diff, ref.err)
	}
	for c := range uint32(ctas) {
		var sh [64]uint32
		for tid := range uint32(64) {
			sh[tid] = 3*tid + c
		}
		for tid := range 32 { // (the first step: every lane's loads, then its stores)
			sh[tid] += sh[tid+32]
		}
		for tid := range uint32(32) {
			want := sh[tid] + sh[tid+16]
			if got := binary.LittleEndian.Uint32(ref.mem[0][4*(32*c+tid):]); got != want {
				t.Fatalf("CTA %d thread %d: %d, want %d", c, tid, got, want)
			}
		}
	}
}

// TestBatchClampForms: min and max of a form with a uniform value keep
// the form, or become the value, where every lane of the batch lies on
// one side of it, and run on rows where they straddle it: a 3-point
// stencil's clamped neighbours (max(i, 1) - 1, min(i + 1, n - 1)), u32
// and s32 (with a bound below zero), batched, give Go's values and the
// warp engine's memory; so do the same clamps through selp.
func TestBatchClampForms(t *testing.T) {
	const tmpl = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n)
{
	.reg .pred %p;
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.u32 %r5, %r2, %r3, %r4;
	setp.ge.u32 %p, %r5, %r1;
	@%p bra Done;
	max.TY %r6, %r5, 1;
	sub.u32 %r6, %r6, 1;            // the left neighbour, clamped
	add.u32 %r7, %r5, 1;
	sub.u32 %r8, %r1, 1;
	min.TY %r7, %r7, %r8;           // the right neighbour, clamped
	max.TY %r9, %r5, LOW;           // (s32: -5, below every index)
	mul.wide.u32 %rd3, %r6, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r10, [%rd4];
	mul.wide.u32 %rd5, %r7, 4;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.u32 %r11, [%rd6];
	add.u32 %r10, %r10, %r11;
	add.u32 %r10, %r10, %r9;
	mul.wide.u32 %rd7, %r5, 4;
	add.s64 %rd8, %rd2, %rd7;
	st.global.u32 [%rd8], %r10;
Done:
	ret;
}`
	// (and the same through selp, whose predicate every lane of a batch
	// but the first and the last holds alike: selpForm)
	selpTmpl := strings.Replace(strings.Replace(tmpl, `	max.TY %r6, %r5, 1;
	sub.u32 %r6, %r6, 1;            // the left neighbour, clamped`, `	setp.eq.u32 %p, %r5, 0;
	sub.u32 %r6, %r5, 1;
	selp.b32 %r6, 0, %r6, %p;       // the left neighbour, clamped`, 1), `	min.TY %r7, %r7, %r8;           // the right neighbour, clamped`, `	setp.ge.u32 %p, %r7, %r1;
	selp.b32 %r7, %r8, %r7, %p;     // the right neighbour, clamped`, 1)
	const n = 5000
	for _, c := range []struct{ ty, low, src string }{{"u32", "0", tmpl}, {"s32", "-5", tmpl}, {"u32", "0", selpTmpl}} {
		src := strings.NewReplacer("TY", c.ty, "LOW", c.low).Replace(c.src)
		in := bdFillBufs(bdBufs(bdWords(n, bdRand), bdWords(n, bdZero)), 11)
		diff, ref := bdDiffOn(t, src, "k", bdX((n+255)/256), bdX(256), in, bdArgs(bdPtr(0), bdPtr(1), bdU(n)), true, []int{1, 2})
		if diff != "" || ref.err != nil {
			t.Fatal(c.ty, diff, ref.err)
		}
		word := func(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
		for i := range n {
			want := word(in[0], max(i, 1)-1) + word(in[0], min(i+1, n-1)) + uint32(i)
			if got := word(ref.mem[1], i); got != want {
				t.Fatalf("%s: element %d = %d, want %d", c.ty, i, got, want)
			}
		}
	}
}

// TestBatchUniformCompares: a setp whose operands are both alike in every
// lane of the batch (%ctaid.y of a batch along x, plus a parameter, against
// another) is one answer for the batch (setpForms), the same as the warp
// engine's per lane, for every comparison and type, across the sign and
// width boundaries.
func TestBatchUniformCompares(t *testing.T) {
	ops := []string{"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"}
	for _, ty := range []string{"u32", "s32", "u64", "s64"} {
		wide := ty[1:] == "64"
		reg, cvt := "%r", "cvt.u32.u32"
		if wide {
			reg, cvt = "%rd", "cvt.u64.u32"
		}
		var b strings.Builder
		fmt.Fprintf(&b, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 base, .param .u64 k)
{
	.reg .pred %%p<2>;
	.reg .b32 %%r<10>;
	.reg .b64 %%rd<10>;
	ld.param.u64 %%rd1, [out];
	mov.u32 %%r1, %%tid.x;
	mov.u32 %%r2, %%ctaid.x;
	mov.u32 %%r3, %%ctaid.y;
	mov.u32 %%r8, %%nctaid.x;
	mad.lo.u32 %%r9, %%r3, %%r8, %%r2;
	mad.lo.u32 %%r9, %%r9, 64, %%r1;
	ld.param.u64 %%rd6, [base];
	ld.param.u64 %%rd7, [k];
	cvt.u32.u64 %%r6, %%rd6;
	cvt.u32.u64 %%r7, %%rd7;
	%s %s4, %%r3;
	add.%s %s4, %s4, %s;
	mov.b64 %%rd5, %%rd7;
	mov.b32 %%r5, %%r7;
	mul.wide.u32 %%rd2, %%r9, %d;
	add.s64 %%rd3, %%rd1, %%rd2;
	mov.u32 %%r7, 0;
`, cvt, reg, ty, reg, reg, map[bool]string{false: "%r6", true: "%rd6"}[wide], 4*2*len(ops))
		for i, op := range ops {
			if (op == "lo" || op == "ls" || op == "hi" || op == "hs") && ty[0] == 's' {
				continue
			}
			for j, pair := range [2][2]string{{reg + "5", reg + "4"}, {reg + "4", reg + "5"}} {
				fmt.Fprintf(&b, "\tsetp.%s.%s %%p1, %s, %s;\n\tselp.u32 %%r7, 1, 0, %%p1;\n\tst.global.u32 [%%rd3+%d], %%r7;\n", op, ty, pair[0], pair[1], 4*(2*i+j))
			}
		}
		b.WriteString("\tret;\n}")
		src := strings.ReplaceAll(b.String(), "%%", "%")
		for _, grid := range [][3]int{bdXY(3, 6), bdXY(1, 6)} { // (a grid one CTA wide batches along y)
			for _, base := range []uint64{0, 0x7ffffffd, 0xfffffffd, 0x7ffffffffffffffd, 0xfffffffffffffffd} {
				for _, k := range []uint64{2, 0x7fffffff, 0x80000000, 0xffffffff, 1 << 40, 0x8000000000000000} {
					in := bdFillBufs(bdBufs(bdB(4*2*len(ops)*64*grid[0]*grid[1], bdZero)), 1)
					bdSame(t, fmt.Sprintf("%s grid %v base=%#x k=%#x", ty, grid, base, k), src, "k", grid, bdX(64), in, bdArgs(bdPtr(0), bdU(base), bdU(k)), true)
				}
			}
		}
	}
}

// TestAccessStridedNarrow: accessStrided's 1- and 2-byte elements (a
// pixel's byte in a 2-D block's run of 16 lanes), at strides of one
// element and more, load zero- or sign-extended as the type says and
// store the element's low bytes only, nothing between or after them.
func TestAccessStridedNarrow(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	sg := batchSeg{lane: 16, n: 16}
	for _, n := range []uint64{1, 2} {
		for _, stride := range []uint64{n, 3 * n} {
			size := (uint64(sg.n)-1)*stride + n
			data := make([]byte, size+8)
			for i := range data {
				data[i] = byte(r.Uint32())
			}
			for _, ty := range []string{".u", ".b", ".s"} {
				t0 := fmt.Sprintf("%s%d", ty, 8*n)
				var row lanes
				accessStrided(&row, sg, data[:size], stride, n, t0, false)
				for l := range warpSize {
					var want uint64
					if l >= sg.lane && l < sg.lane+sg.n {
						e := data[uint64(l-sg.lane)*stride:]
						want = uint64(e[0])
						if n == 2 {
							want = uint64(binary.LittleEndian.Uint16(e))
						}
						if ty == ".s" {
							want = uint64(int64(want<<(64-8*n)) >> (64 - 8*n))
						}
					}
					if row[l] != want {
						t.Fatalf("load %s stride %d lane %d: %#x, want %#x", t0, stride, l, row[l], want)
					}
				}
			}
			var row lanes
			for l := range row {
				row[l] = r.Uint64()
			}
			out := make([]byte, size+8)
			accessStrided(&row, sg, out[:size], stride, n, fmt.Sprintf(".b%d", 8*n), true)
			want := make([]byte, size+8)
			for l := sg.lane; l < sg.lane+sg.n; l++ {
				e := want[uint64(l-sg.lane)*stride:]
				e[0] = byte(row[l])
				if n == 2 {
					binary.LittleEndian.PutUint16(e, uint16(row[l]))
				}
			}
			if !bytes.Equal(out, want) {
				t.Fatalf("store n %d stride %d: %x, want %x", n, stride, out, want)
			}
		}
	}
}

// TestBatchVolatileLoads: ld.volatile.global runs in batches (kernels
// without loops), lane by lane through the host's atomics: a copy (one
// range), a guarded gather at indices read from memory, signed bytes and
// halves, a flag read once by every thread, and a lane out of bounds (the
// warp engine faults it), all as the warp engine gives them.
func TestBatchVolatileLoads(t *testing.T) {
	const tmpl = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 idx, .param .u64 out, .param .u32 n)
{
	.reg .pred %p;
	.reg .b16 %h<2>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [idx];
	ld.param.u64 %rd3, [out];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.u32 %r5, %r2, %r3, %r4;
	mul.wide.u32 %rd4, %r5, 4;
	add.s64 %rd5, %rd1, %rd4;
	ld.volatile.global.u32 %r6, [%rd5];          // a copy's range
	ld.volatile.global.u32 %r11, [%rd1+8];       // one flag for all
	add.u32 %r6, %r6, %r11;
	add.s64 %rd6, %rd2, %rd4;
	ld.global.u32 %r7, [%rd6];
	and.b32 %r7, %r7, MASK;
	setp.lt.u32 %p, %r4, 100;
	@%p bra Skip;
	mul.wide.u32 %rd7, %r7, 4;
	add.s64 %rd8, %rd1, %rd7;
	ld.volatile.global.u32 %r8, [%rd8];          // a guarded gather
	add.u32 %r6, %r6, %r8;
Skip:
	cvt.u64.u32 %rd9, %r7;
	add.s64 %rd9, %rd1, %rd9;
	ld.volatile.global.s8 %r9, [%rd9];
	add.u32 %r6, %r6, %r9;
	and.b64 %rd10, %rd9, -2;
	ld.volatile.global.s16 %h1, [%rd10];
	cvt.s32.s16 %r10, %h1;
	add.u32 %r6, %r6, %r10;
	add.s64 %rd11, %rd3, %rd4;
	st.global.u32 [%rd11], %r6;
	ret;
}`
	const n = 4096
	for _, c := range []struct {
		mask string
		bad  bool
	}{{"4095", false}, {"0x7fffffff", true}} { // (the second: gathers far out of bounds)
		src := strings.ReplaceAll(tmpl, "MASK", c.mask)
		in := bdFillBufs(bdBufs(bdWords(n, bdRand), bdWords(n, bdRand), bdWords(n, bdZero)), 17)
		diff, ref := bdDiffOn(t, src, "k", bdX(n/256), bdX(256), in, bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(n)), !c.bad, []int{1, 2})
		if diff != "" {
			t.Fatal(c.mask, diff)
		}
		if c.bad {
			if ref.err == nil {
				t.Fatal("gathers out of bounds: no fault")
			}
			continue
		}
		if ref.err != nil {
			t.Fatal(ref.err)
		}
		word := func(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
		for i := range n {
			j := word(in[1], i) & 4095
			want := word(in[0], i) + word(in[0], 2)
			if i%256 >= 100 {
				want += word(in[0], int(j))
			}
			want += uint32(int32(int8(in[0][j])))
			want += uint32(int32(int16(binary.LittleEndian.Uint16(in[0][j&^1:]))))
			if got := word(ref.mem[2], i); got != want {
				t.Fatalf("element %d = %#x, want %#x", i, got, want)
			}
		}
	}
}

// TestBatchFormReadByLaterSide: a register written as a form in a split's
// fall-through (lanes 24-31 of each warp: base = 200) and read at a label
// that an enclosing split's taken lanes (0-7) reach later, with the old
// value (base = 100), keeps each lane's own value in batches (formSafe:
// Rodinia hotspot's halo rows, whose tid.y == 0 lanes wrote row 17). Lanes
// 8-23 store nothing.
func TestBatchFormReadByLaterSide(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mad.lo.u32 %r3, %r2, 64, %r1;
	and.b32 %r1, %r1, 31;
	mov.u64 %rd2, 100;
	setp.lt.u32 %p1, %r1, 8;
	@%p1 bra L7;
	setp.lt.u32 %p2, %r1, 24;
	@%p2 bra L8;
	mov.u64 %rd2, 200;
L7:
	cvt.u64.u32 %rd3, %r1;
	add.u64 %rd4, %rd2, %rd3;
	mul.wide.u32 %rd5, %r3, 8;
	add.u64 %rd6, %rd1, %rd5;
	st.global.u64 [%rd6], %rd4;
L8:
	bar.sync 0;                  // (the join is not the exit)
	ret;
}`
	const ctas = 40
	in := bdFillBufs(bdBufs(bdDwords(64*ctas, bdZero)), 3)
	ref := bdSame(t, "later side", src, "k", bdX(ctas), bdX(64), in, bdArgs(bdPtr(0)), true)
	for i := range 64 * ctas {
		l := uint64(i % 32)
		want := uint64(0)
		switch {
		case l < 8:
			want = 100 + l
		case l >= 24:
			want = 200 + l
		}
		if got := binary.LittleEndian.Uint64(ref.mem[0][8*i:]); got != want {
			t.Fatalf("thread %d: %d, want %d", i, got, want)
		}
	}
}

// TestBatchLoadsPastExitedLanes: a 2-D stencil whose threads on the
// border return first (x < 1, y < 1, x >= W-1, y >= H-1) loads its
// neighbours with every lane's rows filled (allLanes: the lanes that left
// hold nothing anyone reads), where the batch's range, the border lanes'
// addresses included, lies in the buffer, and block by block where it
// does not (the first rows' border lanes point before it): the values of
// the warp engine and of Go, the border untouched.
func TestBatchLoadsPastExitedLanes(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b, .param .u32 w, .param .u32 h)
{
	.reg .pred %p<5>;
	.reg .b32 %r<24>;
	.reg .b64 %rd<16>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [b];
	ld.param.u32 %r1, [w];
	ld.param.u32 %r2, [h];
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.u32 %r5, %r3, 32, %r4;      // x
	mov.u32 %r6, %ctaid.y;
	mov.u32 %r7, %tid.y;
	mad.lo.u32 %r8, %r6, 8, %r7;       // y
	add.u32 %r9, %r1, -1;
	add.u32 %r10, %r2, -1;
	setp.lt.u32 %p1, %r5, 1;
	setp.lt.u32 %p2, %r8, 1;
	or.pred %p1, %p1, %p2;
	setp.ge.u32 %p3, %r5, %r9;
	or.pred %p1, %p1, %p3;
	setp.ge.u32 %p4, %r8, %r10;
	or.pred %p1, %p1, %p4;
	@%p1 bra Done;
	mad.lo.u32 %r11, %r8, %r1, %r5;    // c = y*W + x
	mul.wide.u32 %rd3, %r11, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r12, [%rd4];
	ld.global.u32 %r13, [%rd4+-4];
	ld.global.u32 %r14, [%rd4+4];
	mul.wide.u32 %rd5, %r1, 4;
	sub.s64 %rd6, %rd4, %rd5;
	ld.global.u32 %r15, [%rd6];
	add.s64 %rd7, %rd4, %rd5;
	ld.global.u32 %r16, [%rd7];
	mul.lo.u32 %r17, %r12, 3;
	add.u32 %r17, %r17, %r13;
	add.u32 %r17, %r17, %r14;
	shl.b32 %r18, %r15, 1;
	add.u32 %r17, %r17, %r18;
	shl.b32 %r19, %r16, 2;
	add.u32 %r17, %r17, %r19;
	add.s64 %rd8, %rd2, %rd3;
	st.global.u32 [%rd8], %r17;
Done:
	ret;
}`
	const W, H = 256, 64
	in := bdFillBufs(bdBufs(bdWords(W*H, bdRand), bdWords(W*H, bdZero)), 23)
	ref := bdSame(t, "stencil", src, "k", bdXY(W/32, H/8), bdXY(32, 8), in, bdArgs(bdPtr(0), bdPtr(1), bdU(W), bdU(H)), true)
	word := func(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
	for y := range H {
		for x := range W {
			c := y*W + x
			want := uint32(0)
			if x >= 1 && y >= 1 && x < W-1 && y < H-1 {
				a := in[0]
				want = 3*word(a, c) + word(a, c-1) + word(a, c+1) + 2*word(a, c-W) + 4*word(a, c+W)
			}
			if got := word(ref.mem[1], c); got != want {
				t.Fatalf("(%d, %d): %d, want %d", x, y, got, want)
			}
		}
	}
}
