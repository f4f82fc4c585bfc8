package exec

// Unit tests of the integer family's tricky semantics, with expected values
// from the manual's Semantics pseudo-code and examples (PTX ISA 9.0).

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"
)

func TestBfind(t *testing.T) {
	u32, s32 := intType{32, false}, intType{32, true}
	u64, s64 := intType{64, false}, intType{64, true}
	for _, c := range []struct {
		t        intType
		shiftamt bool
		a, want  uint64
	}{
		{u32, false, 0, 0xffffffff}, // "bfind returns 0xffffffff if no non-sign bit is found"
		{u32, true, 0, 0xffffffff},  // .shiftamt leaves 0xffffffff alone
		{s32, false, 0xffffffff, 0xffffffff},
		{s32, false, 0, 0xffffffff},
		{u32, false, 1, 0},
		{u32, true, 1, 31},
		{u32, false, 0x80000000, 31},
		{s32, false, 0x80000000, 30}, // negative: most significant 0
		{s32, true, 0x80000000, 1},
		{s32, false, 0x7fffffff, 30},
		{s32, false, 0xfffffffe, 0},
		{u64, false, 1 << 63, 63},
		{u64, true, 1 << 40, 23},
		{s64, false, ^uint64(0), 0xffffffff},
		{s64, false, 1 << 63, 62},
		{s32, false, 0xffffffff_80000000, 30}, // only the low 32 bits count
	} {
		if got := bfind(c.t, c.shiftamt, c.a); got != c.want {
			t.Errorf("bfind(%v, shiftamt=%v, %#x) = %#x, want %#x", c.t, c.shiftamt, c.a, got, c.want)
		}
	}
}

func TestFns(t *testing.T) {
	for _, c := range []struct {
		mask         uint32
		base, offset int32
		want         uint32
	}{
		// the manual's examples, with the mask 0xaaaaaaaa that makes them
		// agree with its pseudo-code (the PDF prints 0xffffffff)
		{0xaaaaaaaa, 3, 1, 3},
		{0xaaaaaaaa, 3, -1, 3},
		{0xaaaaaaaa, 2, 1, 3},
		{0xaaaaaaaa, 2, -1, 1},
		// the pseudo-code with mask 0xffffffff
		{0xffffffff, 2, 1, 2},
		{0xffffffff, 0, 32, 31},
		{0xffffffff, 0, 33, 0xffffffff},
		{0xffffffff, 31, -32, 0},
		{0, 5, 0, 0xffffffff},
		{1 << 5, 5, 0, 5},
		{1 << 5, 4, 0, 0xffffffff},
		{0x80000001, 0, 2, 31},
		{0x80000001, 31, -2, 0},
		{0x80000001, 1, -1, 0},
		{0xffffffff, 0, -0x80000000, 0xffffffff},
	} {
		if got := fns(c.mask, c.base, c.offset); got != c.want {
			t.Errorf("fns(%#x, %d, %d) = %#x, want %#x", c.mask, c.base, c.offset, got, c.want)
		}
	}
}

func TestBmsk(t *testing.T) {
	for _, c := range []struct {
		a, b  uint32
		clamp bool
		want  uint32
	}{
		{1, 2, false, 0x6}, // the manual's example
		{1, 2, true, 0x6},
		{0, 0, true, 0},
		{0, 32, true, 0xffffffff},  // .clamp: width 0..32
		{0, 32, false, 0},          // .wrap: width 32 wraps to 0
		{30, 5, true, 0xc0000000},  // a + b > 32: up to the msb
		{30, 5, false, 0xc0000000}, // same in .wrap (sum overflow)
		{32, 4, true, 0},           // position >= 32 in .clamp
		{32, 4, false, 0xf},        // wraps to position 0
		{33, 2, false, 0x6},
		{4, 36, false, 0xf0},
		{4, 36, true, 0xfffffff0},
		{31, 1, true, 0x80000000},
		{0, 31, false, 0x7fffffff},
	} {
		if got := bmsk(c.a, c.b, c.clamp); got != c.want {
			t.Errorf("bmsk(%d, %d, clamp=%v) = %#x, want %#x", c.a, c.b, c.clamp, got, c.want)
		}
	}
}

func TestSzext(t *testing.T) {
	for _, c := range []struct {
		a, b          uint32
		clamp, signed bool
		want          uint32
	}{
		{0xffffffff, 0, false, false, 0}, // the manual's example
		{0xffffffff, 0, true, true, 0},
		{0x80, 8, true, true, 0xffffff80},
		{0x80, 8, true, false, 0x80},
		{0x7f, 8, true, true, 0x7f},
		{0x1ff, 8, false, false, 0xff},
		{0x80, 40, true, true, 0x80},        // .clamp, N >= 32: a unchanged
		{0x80, 40, false, true, 0xffffff80}, // .wrap: N = 40 & 31 = 8
		{0xdeadbeef, 32, true, true, 0xdeadbeef},
		{0xdeadbeef, 32, false, true, 0}, // .wrap: N = 0
		{0x1, 1, true, true, 0xffffffff},
		{0x80000000, 31, true, true, 0},
		{0x40000000, 31, true, true, 0xc0000000},
	} {
		if got := szext(c.a, c.b, c.clamp, c.signed); got != c.want {
			t.Errorf("szext(%#x, %d, clamp=%v, signed=%v) = %#x, want %#x", c.a, c.b, c.clamp, c.signed, got, c.want)
		}
	}
}

func TestDp4aDp2a(t *testing.T) {
	if got := dp4a(0xffffffff, 0x01020304, 10, true, true); got != 0 {
		t.Errorf("dp4a.s32.s32 = %#x, want 0", got)
	}
	if got := dp4a(0xffffffff, 0x01020304, 10, false, false); got != 10+255*10 {
		t.Errorf("dp4a.u32.u32 = %d", got)
	}
	if got := dp4a(0xffffffff, 0x80808080, 0, false, true); got != uint32(4*255*-128&0xffffffff) {
		t.Errorf("dp4a.u32.s32 = %#x", got)
	}
	if got := dp4a(0xffffffff, 0xffffffff, 0xffffffff, false, false); got != uint32((4*255*255-1)&0xffffffff) {
		t.Errorf("dp4a wraps: %#x", got)
	}
	// a = {-1, 2} (half-words), b bytes {1, 2, 3, 4}
	a := uint32(0x0002ffff)
	if got := dp2a(a, 0x04030201, 0, true, false, false); got != uint32(int32(-1*1+2*2)) {
		t.Errorf("dp2a.lo.s32.u32 = %#x", got)
	}
	if got := dp2a(a, 0x04030201, 0, true, false, true); got != uint32(int32(-1*3+2*4)) {
		t.Errorf("dp2a.hi.s32.u32 = %#x", got)
	}
	if got := dp2a(a, 0x04030201, 0, false, false, true); got != 0xffff*3+2*4 {
		t.Errorf("dp2a.hi.u32.u32 = %#x", got)
	}
}

func TestPrmt(t *testing.T) {
	const a, b = 0x33221100, 0x77665544
	for _, c := range []struct {
		mode string
		c    uint64
		want uint64
	}{
		{"", 0x3210, 0x33221100},
		{"", 0x7654, 0x77665544},
		{"", 0x0000, 0x00000000},
		{"", 0x8888, 0x00000000},                // sign of byte 0 (0x00)
		{"", 0xffff_ffff_0000_7654, 0x77665544}, // c[63:16] ignored
		{".f4e", 1, 0x44332211},
		{".f4e", 3, 0x66554433},
		{".b4e", 0, 0x55667700},
		{".b4e", 2, 0x77001122},
		{".rc8", 2, 0x22222222},
		{".ecl", 1, 0x33221111},
		{".ecl", 2, 0x33222222},
		{".ecr", 1, 0x11111100},
		{".ecr", 2, 0x22221100},
		{".rc16", 1, 0x33223322},
		{".rc16", 0xfffffff2, 0x11001100}, // only c[1:0] counts
	} {
		var got uint64
		if c.mode == "" {
			got = prmtDefault(a, b, c.c)
		} else {
			sel := prmtModes[c.mode][c.c&3]
			src := uint64(b)<<32 | a
			for k := 0; k < 4; k++ {
				got |= (src >> (8 * uint(sel[k])) & 0xff) << (8 * k)
			}
		}
		if got != c.want {
			t.Errorf("prmt%s c=%#x: %#x, want %#x", c.mode, c.c, got, c.want)
		}
	}
	// b: 0x80 in byte 5 for the sign-replicating selector
	if got := prmtDefault(0x33221100, 0x77668044, 0xd); got != 0xff {
		t.Errorf("prmt sign replicate: %#x", got)
	}
}

// runLanes runs body in a 32-thread kernel; body sees %t = %tid.x (.u32)
// and leaves each thread's result in %res (.b64), which is returned per
// lane.
func runLanes(t *testing.T, decls, body string) [32]uint64 {
	t.Helper()
	return runLanesOn(t, "sm_90", decls, body)
}

// runLanesOn is runLanes for a given target.
func runLanesOn(t *testing.T, target, decls, body string) [32]uint64 {
	t.Helper()
	return runLanesOnVersion(t, "9.2", target, decls, body)
}

// runLanesOnVersion is runLanes for a given PTX version and target.
func runLanesOnVersion(t *testing.T, version, target, decls, body string) [32]uint64 {
	t.Helper()
	src := `.version ` + version + `
.target ` + target + `
.address_size 64
.visible .entry k(.param .u64 out) {
	.reg .u32 %t;
	.reg .b64 %res, %addr, %off;
` + decls + `
	mov.u32 %t, %tid.x;
	mov.b64 %res, 0;
` + body + `
	ld.param.u64 %addr, [out];
	mul.wide.u32 %off, %t, 8;
	add.u64 %addr, %addr, %off;
	st.global.u64 [%addr], %res;
	ret;
}
`
	p, g := load(t, src)
	out, _ := g.Alloc(8*32, 0)
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
		Params: params(p.Kernels["k"], out)})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := g.Bytes(out, 8*32)
	var res [32]uint64
	for i := range res {
		res[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return res
}

// TestCarryChain adds 0xffffffff_ffffffff_ffffffff + tid over three words:
// the carry ripples only in lanes with tid > 0, so CC.CF differs by lane.
func TestCarryChain(t *testing.T) {
	res := runLanes(t, ".reg .u32 %r<8>;", `
	add.cc.u32 %r0, 0xffffffff, %t;
	addc.cc.u32 %r1, 0xffffffff, 0;
	addc.cc.u32 %r2, 0xffffffff, 0;
	addc.u32 %r3, 0, 0;
	mov.b64 %res, {%r2, %r3};
	xor.b32 %r4, %r0, %r1;
	cvt.u64.u32 %off, %r4;
	shl.b64 %off, %off, 48;
	xor.b64 %res, %res, %off;`)
	for i, v := range res {
		r2, r3 := uint32(0xffffffff), uint32(0)
		r0, r1 := uint32(0xffffffff)+uint32(i), uint32(0xffffffff)
		if i > 0 {
			r1, r2, r3 = 0, 0, 1
		}
		want := (uint64(r3)<<32 | uint64(r2)) ^ uint64(r0^r1)<<48
		if v != want {
			t.Errorf("lane %d: %#x, want %#x", i, v, want)
		}
	}
}

// TestBorrowChain: 0 - tid over 64 bits with sub.cc/subc, and the borrow
// out as subc.u32 0, 0 (0 - CF: all ones after a borrow).
func TestBorrowChain(t *testing.T) {
	res := runLanes(t, ".reg .u32 %r<8>;", `
	sub.cc.u32 %r0, 0, %t;
	subc.cc.u32 %r1, 0, 0;
	subc.u32 %r2, 0, 0;
	mov.b64 %res, {%r0, %r1};
	xor.b32 %r2, %r2, %r1;
	cvt.u64.u32 %off, %r2;
	xor.b64 %res, %res, %off;`)
	for i, v := range res {
		// r2 = 0 - CF equals r1 (all ones after a borrow), so the xor adds 0
		if want := -uint64(i); v != want {
			t.Errorf("lane %d: %#x, want %#x", i, v, want)
		}
	}
}

// TestCarryGuarded: a guarded add.cc leaves CC.CF of the lanes it skips.
func TestCarryGuarded(t *testing.T) {
	res := runLanes(t, ".reg .u32 %r<4>; .reg .pred %p;", `
	add.cc.u32 %r0, 0xffffffff, 1;      // CF = 1 everywhere
	setp.lt.u32 %p, %t, 16;
	@%p add.cc.u32 %r0, 0, 0;           // CF = 0 in lanes 0..15 only
	addc.u32 %r1, 0, 0;
	cvt.u64.u32 %res, %r1;`)
	for i, v := range res {
		want := uint64(0)
		if i >= 16 {
			want = 1
		}
		if v != want {
			t.Errorf("lane %d: %d, want %d", i, v, want)
		}
	}
}

// TestMadCarry runs the manual's 64x64->128 multiply example (9.7.2.6)
// with [r5,r4] = [r7,r6] = 2^64 - 1 - tid.
func TestMadCarry(t *testing.T) {
	res := runLanes(t, ".reg .u32 %r<8>;", `
	sub.u32 %r4, 0xffffffff, %t;
	mov.u32 %r5, 0xffffffff;
	mov.u32 %r6, %r4;
	mov.u32 %r7, %r5;
	mul.lo.u32    %r0,%r4,%r6;
	mul.hi.u32    %r1,%r4,%r6;
	mad.lo.cc.u32 %r1,%r5,%r6,%r1;
	madc.hi.u32   %r2,%r5,%r6,0;
	mad.lo.cc.u32 %r1,%r4,%r7,%r1;
	madc.hi.cc.u32 %r2,%r4,%r7,%r2;
	addc.u32      %r3,0,0;
	mad.lo.cc.u32 %r2,%r5,%r7,%r2;
	madc.hi.u32   %r3,%r5,%r7,%r3;
	mov.b64 %res, {%r2, %r3};      // the high 64 bits
	mov.b64 %off, {%r0, %r1};
	xor.b64 %res, %res, %off;`)
	for i, v := range res {
		x := ^uint64(i)
		hi, lo := mul64(x, x)
		if want := hi ^ lo; v != want {
			t.Errorf("lane %d: %#x, want %#x", i, v, want)
		}
	}
}

func mul64(x, y uint64) (uint64, uint64) {
	var hi, lo uint64
	// schoolbook on 32-bit halves, independent of math/bits
	x0, x1, y0, y1 := x&0xffffffff, x>>32, y&0xffffffff, y>>32
	p00, p01, p10, p11 := x0*y0, x0*y1, x1*y0, x1*y1
	mid := p00>>32 + p01&0xffffffff + p10&0xffffffff
	lo = p00&0xffffffff | mid<<32
	hi = p11 + p01>>32 + p10>>32 + mid>>32
	return hi, lo
}

func TestLop3BoolOp(t *testing.T) {
	// d = a & b & c (0x80) with a = tid, b = c = 1: d != 0 only for odd tid
	res := runLanes(t, ".reg .b32 %d; .reg .pred %p, %q;", `
	setp.lt.u32 %q, %t, 8;
	lop3.or.b32 %d|%p, %t, 1, 1, 0x80, %q;
	selp.u64 %res, 1, 0, %p;
	lop3.and.b32 _|%p, %t, 1, 1, 0x80, %q;
	@%p or.b64 %res, %res, 2;
	cvt.u64.u32 %off, %d;
	shl.b64 %off, %off, 8;
	or.b64 %res, %res, %off;`)
	for i, v := range res {
		odd, low := i&1 == 1, i < 8
		want := uint64(i&1) << 8
		if odd || low {
			want |= 1
		}
		if odd && low {
			want |= 2
		}
		if v != want {
			t.Errorf("lane %d: %#x, want %#x", i, v, want)
		}
	}
}

func TestSetSlct(t *testing.T) {
	res := runLanes(t, ".reg .u32 %u; .reg .s32 %s; .reg .f32 %f; .reg .pred %q; .reg .b32 %x;", `
	setp.ne.u32 %q, %t, 3;
	set.lt.u32.s32 %u, %t, 5;          // 0xffffffff for tid < 5
	set.ge.xor.s32.u32 %s, %t, 5, !%q;  // (tid >= 5) != (tid == 3)
	set.eq.f32.u32 %f, %t, 7;           // 1.0f for tid 7
	mov.b64 %res, {%u, %s};
	mov.b32 %x, %f;
	xor.b32 %x, %x, %t;
	cvt.u64.u32 %off, %x;
	xor.b64 %res, %res, %off;`)
	for i, v := range res {
		var u, s, f uint32
		if i < 5 {
			u = 0xffffffff
		}
		if (i >= 5) != (i == 3) {
			s = 0xffffffff
		}
		if i == 7 {
			f = 0x3f800000
		}
		want := (uint64(s)<<32 | uint64(u)) ^ uint64(f^uint32(i))
		if v != want {
			t.Errorf("lane %d: %#x, want %#x", i, v, want)
		}
	}
	// slct.f32: -0 selects a, NaN and negative subnormals select b, and
	// .ftz flushes a negative subnormal to -0 (selects a)
	for _, c := range []struct {
		cbits uint32
		ftz   bool
		want  uint64
	}{
		{0x80000000, false, 1}, {0x7fc00000, false, 2}, {0xffc00000, false, 2},
		{0x80000001, false, 2}, {0x80000001, true, 1}, {0xff800000, false, 2},
		{0x7f800000, false, 1}, {0, false, 1},
	} {
		ftz := ""
		if c.ftz {
			ftz = ".ftz"
		}
		r := runLanes(t, ".reg .f32 %c;", "mov.b32 %c, "+hex32(c.cbits)+";\n\tslct"+ftz+".u64.f32 %res, 1, 2, %c;")
		if r[0] != c.want {
			t.Errorf("slct%s c=%#x: %d, want %d", ftz, c.cbits, r[0], c.want)
		}
	}
	r := runLanes(t, ".reg .s32 %c; .reg .s16 %h;", "sub.s32 %c, 0, %t;\n\tslct.s16.s32 %h, -5, 7, %c;\n\tcvt.s64.s16 %res, %h;")
	for i, v := range r {
		want := uint64(7)
		if i == 0 {
			want = ^uint64(4) // -5 sign-extended
		}
		if v != want {
			t.Errorf("slct.s16.s32 lane %d: %#x, want %#x", i, v, want)
		}
	}
}

func hex32(v uint32) string {
	const digits = "0123456789abcdef"
	var b strings.Builder
	b.WriteString("0f")
	for s := 28; s >= 0; s -= 4 {
		b.WriteByte(digits[v>>uint(s)&0xf])
	}
	return b.String()
}

func TestPackedAndRelu(t *testing.T) {
	res := runLanes(t, ".reg .b32 %a, %b, %d<8>, %s;", `
	mov.b32 %a, 0x7fff8000;             // s16x2 {-32768, 32767}, u8x4 {0x00, 0x80, 0xff, 0x7f}
	mov.b32 %b, 0x00010001;
	add.sat.s16x2 %d0, %a, %b;          // {-32767, 32767}
	add.s16x2 %d1, %a, %b;              // {-32767, -32768}
	min.relu.s16x2 %d2, %a, %b;         // {0, 1}
	sub.s8x4 %d3, %a, %b;               // bytes 00-01, 80-00, ff-01, 7f-00
	max.s8x4 %d4, %a, %b;               // {1, 0, 1, 0x7f}
	neg.s8x4 %d5, %a;
	add.sat.u32 %d6, %a, 0xffffffff;
	sub.s32 %s, 2, %t;
	max.relu.s32 %s, %s, -3;            // max(2-tid, -3), a negative result is 0
	mov.b64 %res, {%d0, %d1};
	mov.b64 %off, {%d2, %d3};
	xor.b64 %res, %res, %off;
	mov.b64 %off, {%d4, %d5};
	xor.b64 %res, %res, %off;
	mov.b64 %off, {%d6, %s};
	xor.b64 %res, %res, %off;`)
	d0, d1 := uint64(0x7fff8001), uint64(0x80008001)
	d2, d3 := uint64(0x00010000), uint64(0x7ffe80ff)
	d4, d5 := uint64(0x7f010001), uint64(0x81018000)
	d6 := uint64(0xffffffff)
	for i, v := range res {
		relu := uint64(max(0, 2-i))
		if want := (d1<<32 | d0) ^ (d3<<32 | d2) ^ (d5<<32 | d4) ^ (relu<<32 | d6); v != want {
			t.Errorf("lane %d: %#x, want %#x", i, v, want)
		}
	}
}
