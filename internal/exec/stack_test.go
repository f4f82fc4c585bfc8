package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// localKernel: each thread fills a 16-word .local array with values of its
// own, reads it back at indices of its own (the warp-wide local access
// with scattered and common addresses), calls a function with a larger
// local array of its own (the lanes' local memory grows while the
// caller's frame holds data), then reads its array again; lane 3 of the
// second warp, with bad set, reads a word past its frames.
const localKernel = `
.version 7.8
.target sm_90
.address_size 64
.func (.reg .u32 r) inner(.reg .u32 x) {
	.local .align 8 .b32 big[256];
	.reg .u32 %i, %v;
	.reg .u64 %a, %b;
	.reg .pred %p;
	mov.u64 %b, big;
	mov.u32 %i, 0;
FILL:
	mul.wide.u32 %a, %i, 4;
	add.u64 %a, %b, %a;
	add.u32 %v, %i, x;
	st.local.u32 [%a], %v;
	add.u32 %i, %i, 1;
	setp.lt.u32 %p, %i, 256;
	@%p bra FILL;
	and.b32 %i, x, 255;
	mul.wide.u32 %a, %i, 4;
	add.u64 %a, %b, %a;
	ld.local.u32 r, [%a];
	ret;
}
.visible .entry k(.param .u64 out, .param .u32 bad) {
	.local .align 8 .b32 buf[16];
	.reg .u32 %t, %k, %v, %acc, %r, %bad;
	.reg .u64 %o, %a, %b, %w;
	.reg .pred %p;
	ld.param.u64 %o, [out];
	ld.param.u32 %bad, [bad];
	mov.u32 %t, %tid.x;
	mov.u64 %b, buf;
	mov.u32 %k, 0;
FILL:
	mul.wide.u32 %a, %k, 4;
	add.u64 %a, %b, %a;
	mad.lo.u32 %v, %t, 100, %k;
	st.local.u32 [%a], %v;
	add.u32 %k, %k, 1;
	setp.lt.u32 %p, %k, 16;
	@%p bra FILL;
	// scattered: index (t + 5) & 15; common: index 7, as a u64 too
	add.u32 %k, %t, 5;
	and.b32 %k, %k, 15;
	mul.wide.u32 %a, %k, 4;
	add.u64 %a, %b, %a;
	ld.local.u32 %acc, [%a];
	ld.local.u32 %v, [%b+28];
	add.u32 %acc, %acc, %v;
	ld.local.u64 %w, [%b+8];
	cvt.u32.u64 %v, %w;
	add.u32 %acc, %acc, %v;
	shr.u64 %w, %w, 32;
	cvt.u32.u64 %v, %w;
	add.u32 %acc, %acc, %v;
	call (%r), inner, (%t);
	add.u32 %acc, %acc, %r;
	ld.local.u32 %v, [%b+60];
	add.u32 %acc, %acc, %v;
	setp.eq.u32 %p, %t, %bad;
	@%p ld.local.u32 %v, [%b+4096];
	mov.u32 %k, %ctaid.x;
	mad.lo.u32 %k, %k, 64, %t;
	mul.wide.u32 %a, %k, 4;
	add.u64 %o, %o, %a;
	st.global.u32 [%o], %acc;
	ret;
}
`

// TestLocalMemoryPerLane: localKernel's values, worked out per thread, and
// the out-of-bounds read's fault.
func TestLocalMemoryPerLane(t *testing.T) {
	p, g := load(t, localKernel)
	out, _ := g.Alloc(128*4, 0)
	launchK(t, p, 2, 64, out, 1000)
	ob, _ := g.Bytes(out, 128*4)
	for i := 0; i < 128; i++ { // (CTA 0's warps grow their local memory in the call; CTA 1 reuses them)
		th := i % 64
		v := func(k int) uint32 { return uint32(th*100 + k) }
		want := v((th+5)&15) + v(7) + v(2) + v(3) + uint32(th&255+th) + v(15)
		if got := binary.LittleEndian.Uint32(ob[4*i:]); got != want {
			t.Errorf("CTA %d thread %d: %d, want %d", i/64, th, got, want)
		}
	}
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1},
		Params: params(p.Kernels["k"], out, 35), Workers: 1})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultOutOfBounds || f.Space != "local" || f.Thread[0] != 35 {
		t.Fatalf("read past the frames: %v, want an out-of-bounds local fault at thread 35", err)
	}
}

// TestLocalWarpWideMixed: a 4-byte ld.local by every lane where the even
// lanes' addresses are in their frames and the odd lanes' in their alloca
// stacks: the warp-wide path gives way to the general one part way. Once
// into another register, once into the address's own register (32-bit
// local addresses). Thread t reads element 3 of its frame array
// (t*100+3) or of its alloca array (t*1000+3).
func TestLocalWarpWideMixed(t *testing.T) {
	for _, dst := range []string{"%w", "%v"} {
		p, g := load(t, `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out) {
	.local .align 4 .b32 buf[16];
	.reg .u32 %t, %a, %b, %v, %w, %k, %x;
	.reg .u64 %o, %y;
	.reg .pred %p;
	ld.param.u64 %o, [out];
	mov.u32 %t, %tid.x;
	mov.u32 %b, buf;
	alloca.u32 %a, 64;
	mov.u32 %k, 0;
FILL:
	shl.b32 %x, %k, 2;
	mad.lo.u32 %v, %t, 100, %k;
	add.u32 %w, %b, %x;
	st.local.u32 [%w], %v;
	mad.lo.u32 %v, %t, 1000, %k;
	add.u32 %w, %a, %x;
	st.local.u32 [%w], %v;
	add.u32 %k, %k, 1;
	setp.lt.u32 %p, %k, 16;
	@%p bra FILL;
	and.b32 %k, %t, 1;
	setp.eq.u32 %p, %k, 1;
	selp.b32 %v, %a, %b, %p;
	add.u32 %v, %v, 12;
	ld.local.u32 `+dst+`, [%v];
	mul.wide.u32 %y, %t, 4;
	add.u64 %o, %o, %y;
	st.global.u32 [%o], `+dst+`;
	ret;
}`)
		out, _ := g.Alloc(64*4, 0)
		launchK(t, p, 1, 64, out)
		b, _ := g.Bytes(out, 64*4)
		for th := range 64 {
			if got, want := uint64(binary.LittleEndian.Uint32(b[4*th:])), frameOrAlloca(th); got != want {
				t.Fatalf("into %s: thread %d: %d, want %d", dst, th, got, want)
			}
		}
	}
}

// frameOrAlloca is what thread th reads in TestLocalWarpWideMixed and
// TestLocalWarpWideMixed64: element 3 of its frame array (th*100+3) when
// th is even, of its alloca array (th*1000+3) when odd.
func frameOrAlloca(th int) uint64 {
	if th%2 == 1 {
		return uint64(th*1000 + 3)
	}
	return uint64(th*100 + 3)
}

// TestLocalWarpWideMixed64: TestLocalWarpWideMixed with 8-byte elements
// and 64-bit addresses, loaded into the address's own register (a pointer
// chase): thread t reads t*100+3 or t*1000+3, widened.
func TestLocalWarpWideMixed64(t *testing.T) {
	p, g := load(t, `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out) {
	.local .align 8 .b64 buf[16];
	.reg .u32 %t, %k;
	.reg .u64 %o, %y, %a, %b, %v, %w, %x;
	.reg .pred %p;
	ld.param.u64 %o, [out];
	mov.u32 %t, %tid.x;
	mov.u64 %b, buf;
	alloca.u64 %a, 128;
	mov.u32 %k, 0;
FILL:
	mul.wide.u32 %x, %k, 8;
	mul.wide.u32 %v, %t, 100;
	cvt.u64.u32 %w, %k;
	add.u64 %v, %v, %w;
	add.u64 %w, %b, %x;
	st.local.u64 [%w], %v;
	mul.wide.u32 %v, %t, 1000;
	cvt.u64.u32 %w, %k;
	add.u64 %v, %v, %w;
	add.u64 %w, %a, %x;
	st.local.u64 [%w], %v;
	add.u32 %k, %k, 1;
	setp.lt.u32 %p, %k, 16;
	@%p bra FILL;
	and.b32 %k, %t, 1;
	setp.eq.u32 %p, %k, 1;
	selp.b64 %v, %a, %b, %p;
	add.u64 %v, %v, 24;
	ld.local.u64 %v, [%v];
	mul.wide.u32 %y, %t, 8;
	add.u64 %o, %o, %y;
	st.global.u64 [%o], %v;
	ret;
}`)
	out, _ := g.Alloc(64*8, 0)
	launchK(t, p, 1, 64, out)
	b, _ := g.Bytes(out, 64*8)
	for th := range 64 {
		if got, want := binary.LittleEndian.Uint64(b[8*th:]), frameOrAlloca(th); got != want {
			t.Fatalf("thread %d: %d, want %d", th, got, want)
		}
	}
}

// TestLocalWarpWideSigned: ld.local.s32 by every lane of negative values,
// widened by mul.wide.s32 and cvt.s64.s32, and compared by setp.lt.s32:
// -(t+5) each time (9.7.9.8 ld: a signed load's value sign-extended).
func TestLocalWarpWideSigned(t *testing.T) {
	p, g := load(t, `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out) {
	.local .align 4 .b32 buf[4];
	.reg .s32 %t, %v, %n;
	.reg .u64 %o, %y, %b;
	.reg .s64 %w, %z;
	.reg .pred %p;
	ld.param.u64 %o, [out];
	mov.u32 %t, %tid.x;
	mov.u64 %b, buf;
	add.s32 %v, %t, 5;
	neg.s32 %v, %v;
	st.local.s32 [%b+8], %v;
	ld.local.s32 %n, [%b+8];
	mul.wide.s32 %w, %n, 1;
	cvt.s64.s32 %z, %n;
	add.s64 %w, %w, %z;
	setp.lt.s32 %p, %n, 0;
	@!%p mov.s64 %w, 0;
	mul.wide.u32 %y, %t, 8;
	add.u64 %o, %o, %y;
	st.global.s64 [%o], %w;
	ret;
}`)
	out, _ := g.Alloc(64*8, 0)
	launchK(t, p, 1, 64, out)
	b, _ := g.Bytes(out, 64*8)
	for th := range 64 {
		if got, want := int64(binary.LittleEndian.Uint64(b[8*th:])), -2*int64(th+5); got != want {
			t.Fatalf("thread %d: %d, want %d", th, got, want)
		}
	}
}

// TestLocalVectorAccesses: vector ld/st on a called function's .param
// variables (a struct returned through func_retval0, st.param.v2 in the
// callee and ld.param.v2/.v4 in the caller: one address in every lane)
// and on a local array at lane-dependent offsets (the general path): each
// lane reads back what it wrote, for .u32, .s32, .u64 and .v4.b32, under
// a full warp and a partial one. The arguments reach the callee's .param
// variables from the caller's (st.param) and from registers, 64-bit ones
// with bits 32-63 set (transfer.toCalleeLanes).
func TestLocalVectorAccesses(t *testing.T) {
	p, g := load(t, `.version 8.0
.target sm_90
.address_size 64
.func (.param .align 16 .b8 ret[32]) pair(.param .b32 a, .param .b64 b)
{
	.reg .b32 %x, %y;
	.reg .b64 %u, %v;
	ld.param.b32 %x, [a];
	ld.param.b64 %u, [b];
	mul.lo.u32 %y, %x, 3;
	sub.s32 %y, 0, %y;
	add.u64 %v, %u, 0x100000000;
	st.param.v2.b32 [ret], {%x, %y};
	st.param.v2.b64 [ret+16], {%u, %v};
	ret;
}
.visible .entry k(.param .u64 out, .param .u32 n)
{
	.reg .b32 %t, %n, %r<8>;
	.reg .b64 %o, %w, %e<4>, %f<3>;
	.reg .pred %p;
	.local .align 16 .b8 arr[512];
	ld.param.u64 %o, [out];
	ld.param.u32 %n, [n];
	mov.u32 %t, %tid.x;
	setp.ge.u32 %p, %t, %n;
	@%p bra Done;
	mul.wide.u32 %w, %t, 0x10001;
	mul.lo.u64 %w, %w, 0x100000001; // (bits 32-63 too)
	{
	.param .b32 pa;
	.param .b64 pb;
	.param .align 16 .b8 rv[32];
	st.param.b32 [pa], %t;
	st.param.b64 [pb], %w;
	call (rv), pair, (pa, pb);
	ld.param.v2.b32 {%r1, %r2}, [rv];
	ld.param.v2.s32 {%r3, %r4}, [rv];
	ld.param.v2.b64 {%e1, %e2}, [rv+16];
	ld.param.v4.b32 {%r5, %r6, %r7, %r0}, [rv+16];
	}
	{
	.param .align 16 .b8 rv2[32];
	call (rv2), pair, (%t, %w); // (registers straight into the callee's .param)
	ld.param.v2.b64 {%f1, %f2}, [rv2+16];
	}
	// a local array at lane-dependent offsets: t % 4 * 16
	and.b32 %n, %t, 3;
	mul.wide.u32 %e3, %n, 16;
	mov.u64 %e0, arr;
	add.u64 %e3, %e3, %e0;
	st.local.v2.b32 [%e3+8], {%r2, %r1};
	ld.local.b32 %r5, [%e3+8];
	ld.local.b32 %r6, [%e3+12];
	st.local.b32 [%e3+200], %r1;
	st.local.b32 [%e3+204], %t;
	ld.local.v2.b32 {%n, %r3}, [%e3+200];
	mul.wide.u32 %w, %t, 80;
	add.u64 %o, %o, %w;
	st.global.v4.b32 [%o], {%r1, %r2, %r3, %r4};
	st.global.v2.b64 [%o+16], {%e1, %e2};
	st.global.v4.b32 [%o+32], {%r5, %r6, %r7, %r0};
	st.global.v2.b32 [%o+48], {%n, %r3};
	st.global.v2.b64 [%o+64], {%f1, %f2};
Done:
	ret;
}
`)
	for _, n := range []uint64{32, 20} {
		out, _ := g.Alloc(80*32, 0)
		if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
			Params: params(p.Kernels["k"], out, n), Workers: 1}); err != nil {
			t.Fatal(err)
		}
		b, _ := g.Bytes(out, 80*32)
		for l := range uint64(n) {
			x, y := uint32(l), uint32(-3*int32(l))
			u := l * 0x10001 * 0x100000001
			v := u + 1<<32
			want := []uint64{uint64(x), uint64(y), uint64(x), uint64(y)} // (r3 is stored later: the words at 48)
			for k, w := range want {
				if got := binary.LittleEndian.Uint32(b[80*l+4*uint64(k):]); uint64(got) != w {
					t.Fatalf("n %d lane %d: word %d = %#x, want %#x", n, l, k, got, w)
				}
			}
			if g1, g2 := binary.LittleEndian.Uint64(b[80*l+16:]), binary.LittleEndian.Uint64(b[80*l+24:]); g1 != u || g2 != v {
				t.Fatalf("n %d lane %d: v2.b64 %#x %#x, want %#x %#x", n, l, g1, g2, u, v)
			}
			// r5, r6: the local array's v2 store read back by scalar loads
			if g5, g6 := binary.LittleEndian.Uint32(b[80*l+32:]), binary.LittleEndian.Uint32(b[80*l+36:]); g5 != y || g6 != x {
				t.Fatalf("n %d lane %d: local array v2 %#x %#x, want %#x %#x", n, l, g5, g6, y, x)
			}
			if g1, g2 := binary.LittleEndian.Uint32(b[80*l+48:]), binary.LittleEndian.Uint32(b[80*l+52:]); g1 != x || g2 != x {
				t.Fatalf("n %d lane %d: local array v2 load %#x %#x, want %#x %#x", n, l, g1, g2, x, x)
			}
			if f1, f2 := binary.LittleEndian.Uint64(b[80*l+64:]), binary.LittleEndian.Uint64(b[80*l+72:]); f1 != u || f2 != v {
				t.Fatalf("n %d lane %d: register arguments' v2.b64 %#x %#x, want %#x %#x", n, l, f1, f2, u, v)
			}
			if g7, g0 := binary.LittleEndian.Uint32(b[80*l+40:]), binary.LittleEndian.Uint32(b[80*l+44:]); g7 != uint32(v) || g0 != uint32(v>>32) {
				t.Fatalf("n %d lane %d: v4.b32 words 2-3 %#x %#x, want %#x %#x", n, l, g7, g0, uint32(v), uint32(v>>32))
			}
		}
	}
}

// TestLocalNarrowPerLane: per-thread byte and short arrays (a small
// histogram, counts in bytes; shorts updated at data-chosen indices) with
// per-lane, uniform and divergent accesses, signed loads of negative bytes
// and shorts (sign-extended: 9.7.9.8), and, in the odd lanes, the same
// array in the alloca stack (the general path takes those lanes). Each
// thread writes a checksum of its bytes, of its shorts, and one loaded
// byte; the expected values come from the same updates in Go.
func TestLocalNarrowPerLane(t *testing.T) {
	for _, alloca := range []bool{false, true} {
		src := localNarrowSrc
		if !alloca {
			src = strings.Replace(src, "selp.b32 %b, %a, %b, %odd;", "", 1)
		}
		p, g := load(t, src)
		checkLocalNarrow(t, p, g, alloca)
	}
}

const localNarrowSrc = `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out) {
	.local .align 2 .b8 h[64];
	.local .align 2 .b16 sh[16];
	.reg .u32 %t, %j, %x, %b, %c, %r, %k, %a, %q;
	.reg .u16 %hs;
	.reg .s16 %v;
	.reg .s32 %sv, %s, %neg;
	.reg .u64 %o, %y;
	.reg .pred %p, %odd;
	ld.param.u64 %o, [out];
	mov.u32 %t, %tid.x;
	and.b32 %x, %t, 1;
	setp.eq.u32 %odd, %x, 1;
	alloca.u32 %a, 64;
	mov.u32 %b, h;
	selp.b32 %b, %a, %b, %odd;
	mov.u32 %k, 0;
ZERO:
	add.u32 %x, %b, %k;
	st.local.u8 [%x], 0;
	add.u32 %k, %k, 1;
	setp.lt.u32 %p, %k, 64;
	@%p bra ZERO;
	mov.u32 %k, 0;
INIT:
	mul.lo.u32 %x, %k, 1000;
	sub.u32 %x, %x, 9000;
	cvt.u16.u32 %hs, %x;
	mov.u32 %q, sh;
	mad.lo.u32 %q, %k, 2, %q;
	st.local.u16 [%q], %hs;
	add.u32 %k, %k, 1;
	setp.lt.u32 %p, %k, 16;
	@%p bra INIT;
	mov.u32 %j, 0;
LOOP:
	mul.lo.u32 %x, %t, 131;
	mad.lo.u32 %x, %j, 29, %x;
	mad.lo.u32 %x, %j, %j, %x;
	and.b32 %c, %x, 63;
	add.u32 %x, %b, %c;
	ld.local.u8 %hs, [%x];
	add.u16 %hs, %hs, 1;
	st.local.u8 [%x], %hs;
	and.b32 %c, %c, 15;
	mov.u32 %q, sh;
	mad.lo.u32 %q, %c, 2, %q;
	ld.local.s16 %v, [%q];
	mul.lo.u32 %x, %c, 37;
	cvt.u16.u32 %hs, %x;
	sub.s16 %v, %v, %hs;
	st.local.s16 [%q], %v;
	add.u32 %j, %j, 1;
	setp.lt.u32 %p, %j, 40;
	@%p bra LOOP;
	@!%odd bra SUM;
	mul.lo.u32 %x, %t, 7;
	and.b32 %x, %x, 63;
	add.u32 %x, %b, %x;
	ld.local.u8 %hs, [%x];
	add.u16 %hs, %hs, 5;
	st.local.u8 [%x], %hs;
SUM:
	mov.u32 %r, 0;
	mov.u32 %s, 0;
	mov.u32 %k, 0;
SUMB:
	add.u32 %x, %b, %k;
	ld.local.u8 %hs, [%x];
	cvt.u32.u16 %x, %hs;
	add.u32 %q, %k, 1;
	mad.lo.u32 %r, %x, %q, %r;
	add.u32 %k, %k, 1;
	setp.lt.u32 %p, %k, 64;
	@%p bra SUMB;
	mov.u32 %k, 0;
SUMS:
	mov.u32 %q, sh;
	mad.lo.u32 %q, %k, 2, %q;
	ld.local.s16 %v, [%q];
	cvt.s32.s16 %sv, %v;
	add.s32 %s, %s, %sv;
	add.u32 %k, %k, 1;
	setp.lt.u32 %p, %k, 16;
	@%p bra SUMS;
	and.b32 %x, %t, 15;
	add.u32 %x, %b, %x;
	add.u32 %q, %t, 1;
	neg.s32 %neg, %q;
	cvt.u16.u32 %hs, %neg;
	st.local.u8 [%x], %hs;
	ld.local.s8 %v, [%x];
	cvt.s32.s16 %neg, %v;
	mul.wide.u32 %y, %t, 12;
	add.u64 %o, %o, %y;
	st.global.u32 [%o], %r;
	st.global.s32 [%o+4], %s;
	st.global.s32 [%o+8], %neg;
	ret;
}`

// checkLocalNarrow launches TestLocalNarrowPerLane's kernel and checks
// every thread's results.
func checkLocalNarrow(t *testing.T, p *Program, g *mem.Global, alloca bool) {
	const threads = 64
	out, _ := g.Alloc(threads*12, 0)
	launchK(t, p, 1, threads, out)
	b, _ := g.Bytes(out, threads*12)
	for th := range threads {
		var h [64]uint8
		var sh [16]int16
		for k := range sh {
			sh[k] = int16(k*1000 - 9000)
		}
		for j := range 40 {
			c := uint32(th*131+j*29+j*j) & 63
			h[c]++
			sh[c&15] -= int16(c & 15 * 37)
		}
		if th%2 == 1 {
			h[(th*7)&63] += 5
		}
		var r uint32
		var s int32
		for k, v := range h {
			r += uint32(v) * uint32(k+1)
		}
		for _, v := range sh {
			s += int32(v)
		}
		neg := int32(int8(-(th + 1)))
		got := b[12*th:]
		if gr, gs, gn := binary.LittleEndian.Uint32(got), int32(binary.LittleEndian.Uint32(got[4:])), int32(binary.LittleEndian.Uint32(got[8:])); gr != r || gs != s || gn != neg {
			t.Fatalf("alloca %v, thread %d: bytes %d, shorts %d, byte %d; want %d, %d, %d", alloca, th, gr, gs, gn, r, s, neg)
		}
	}
}
