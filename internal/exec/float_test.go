package exec

// Unit tests of the floating-point lowering: packed lanes, modifiers,
// comparisons and conversions, with expected values worked out by hand from
// the manual's definitions (values in hex: f16 1.0 = 0x3c00, 2.0 = 0x4000,
// bf16 1.0 = 0x3f80, f32 1.0 = 0x3f800000).

import (
	"strings"
	"testing"
)

func TestFloatLowering(t *testing.T) {
	for _, c := range []struct {
		name, target, decls, body string
		want                      uint64
	}{
		{"add.f16x2 adds lanes", "sm_90", ".reg .b32 %a, %b, %d;", `
	mov.b32 %a, 0x40003c00; // {lo 1.0, hi 2.0}
	mov.b32 %b, 0xc0003800; // {lo 0.5, hi -2.0}
	add.rn.f16x2 %d, %a, %b;
	cvt.u64.u32 %res, %d;`, 0x00003e00}, // {1.5, +0}
		{"mul.bf16x2", "sm_90", ".reg .b32 %a, %b, %d;", `
	mov.b32 %a, 0x40003f80; // {1.0, 2.0}
	mov.b32 %b, 0xbf804040; // {3.0, -1.0}
	mul.rn.bf16x2 %d, %a, %b;
	cvt.u64.u32 %res, %d;`, 0xc0004040},
		{"add.sat.f16 clamps to 1", "sm_90", ".reg .b16 %a, %d;", `
	mov.b16 %a, 0x3c00;
	add.sat.f16 %d, %a, %a;
	cvt.u64.u16 %res, %d;`, 0x3c00},
		{"fma.rn.relu.bf16 of a negative is +0", "sm_90", ".reg .b16 %a, %b, %d;", `
	mov.b16 %a, 0x3f80;
	mov.b16 %b, 0xbf80;
	fma.rn.relu.bf16 %d, %a, %b, %b;
	cvt.u64.u16 %res, %d;`, 0},
		{"min.xorsign.abs.f32 differing signs", "sm_90", ".reg .f32 %a, %b, %d;", `
	mov.b32 %a, 0xc0000000; // -2
	mov.b32 %b, 0x40400000; // 3
	min.xorsign.abs.f32 %d, %a, %b;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`, 0xc0000000},
		{"max.xorsign.abs.f32 equal signs", "sm_90", ".reg .f32 %a, %b, %d;", `
	mov.b32 %a, 0xc0000000; // -2
	mov.b32 %b, 0xc0400000; // -3
	max.xorsign.abs.f32 %d, %a, %b;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`, 0x40400000},
		{"max.NaN.f32 gives the canonical NaN", "sm_90", ".reg .f32 %a, %b, %d;", `
	mov.b32 %a, 0x3f800000;
	mov.b32 %b, 0x7fc00001;
	max.NaN.f32 %d, %a, %b;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`, 0x7fffffff},
		{"max.f32 ignores a NaN", "sm_90", ".reg .f32 %a, %b, %d;", `
	mov.b32 %a, 0x3f800000;
	mov.b32 %b, 0x7fc00001;
	max.f32 %d, %a, %b;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`, 0x3f800000},
		{"min.f32 orders -0 below +0", "sm_90", ".reg .f32 %a, %b, %d;", `
	mov.b32 %a, 0x00000000;
	mov.b32 %b, 0x80000000;
	min.f32 %d, %a, %b;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`, 0x80000000},
		{"min.f32 of three inputs", "sm_100", ".reg .f32 %a, %b, %c, %d;", `
	mov.b32 %a, 0x40000000; // 2
	mov.b32 %b, 0x7fc00000; // NaN, ignored
	mov.b32 %c, 0xbf800000; // -1
	min.f32 %d, %a, %b, %c;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`, 0xbf800000},
		{"testp: zero is normal, 1 ulp is subnormal", "sm_90", ".reg .f32 %a, %b; .reg .pred %p, %q;", `
	mov.b32 %a, 0;
	mov.b32 %b, 1;
	testp.normal.f32 %p, %a;
	testp.subnormal.f32 %q, %b;
	selp.u32 %r, 1, 0, %p;
	selp.u32 %s, 2, 0, %q;
	or.b32 %r, %r, %s;
	cvt.u64.u32 %res, %r;`, 3},
		{"testp.finite.f64 of infinity", "sm_90", ".reg .f64 %a; .reg .pred %p;", `
	mov.b64 %a, 0x7ff0000000000000;
	testp.finite.f64 %p, %a;
	selp.u32 %r, 1, 0, %p;
	cvt.u64.u32 %res, %r;`, 0},
		{"setp.lt.f16x2 writes lanes to p and q", "sm_90", ".reg .b32 %a, %b; .reg .pred %p, %q;", `
	mov.b32 %a, 0x42003c00; // {1.0, 3.0}
	mov.b32 %b, 0x40004000; // {2.0, 2.0}
	setp.lt.f16x2 %p|%q, %a, %b;
	selp.u32 %r, 1, 0, %p;
	selp.u32 %s, 2, 0, %q;
	or.b32 %r, %r, %s;
	cvt.u64.u32 %res, %r;`, 1},
		{"setp.gtu.bf16 with a NaN", "sm_90", ".reg .b16 %a, %b; .reg .pred %p;", `
	mov.b16 %a, 0x7fc1;
	mov.b16 %b, 0x3f80;
	setp.gtu.bf16 %p, %a, %b;
	selp.u32 %r, 1, 0, %p;
	cvt.u64.u32 %res, %r;`, 1},
		{"cvt.rn.f16x2.f32 puts a in the upper half", "sm_90", ".reg .f32 %a, %b; .reg .b32 %d;", `
	mov.b32 %a, 0x3f800000;
	mov.b32 %b, 0x40000000;
	cvt.rn.f16x2.f32 %d, %a, %b;
	cvt.u64.u32 %res, %d;`, 0x3c004000},
		{"cvt.rn.satfinite.f16.f32 of 1e6 is max finite", "sm_90", ".reg .f32 %a; .reg .b16 %d;", `
	mov.b32 %a, 0x49742400; // 1e6
	cvt.rn.satfinite.f16.f32 %d, %a;
	cvt.u64.u16 %res, %d;`, 0x7bff},
		{"cvt.rn.f16.f32 of 1e6 is infinity", "sm_90", ".reg .f32 %a; .reg .b16 %d;", `
	mov.b32 %a, 0x49742400;
	cvt.rn.f16.f32 %d, %a;
	cvt.u64.u16 %res, %d;`, 0x7c00},
		{"cvt.rn.relu.bf16.f32 of -1 is +0", "sm_90", ".reg .f32 %a; .reg .b16 %d;", `
	mov.b32 %a, 0xbf800000;
	cvt.rn.relu.bf16.f32 %d, %a;
	cvt.u64.u16 %res, %d;`, 0},
		{"cvt.rna.tf32.f32 ties away", "sm_90", ".reg .f32 %a; .reg .b32 %d;", `
	mov.b32 %a, 0x3f801000; // 1 + 2^-11: half a tf32 ulp
	cvt.rna.tf32.f32 %d, %a;
	cvt.u64.u32 %res, %d;`, 0x3f802000},
		{"cvt.rz.f16.f64", "sm_90", ".reg .f64 %a; .reg .b16 %d;", `
	mov.b64 %a, 0x3ff0040000000001; // 1 + 2^-10 + tiny: rz drops the tiny part
	cvt.rz.f16.f64 %d, %a;
	cvt.u64.u16 %res, %d;`, 0x3c01},
		{"cvt.rp.f32.s64", "sm_90", ".reg .s64 %a; .reg .f32 %d;", `
	mov.b64 %a, 16777217; // 2^24 + 1
	cvt.rp.f32.s64 %d, %a;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`, 0x4b800001},
		{"cvt.rni.s32.f16", "sm_90", ".reg .b16 %a; .reg .s32 %d;", `
	mov.b16 %a, 0x4100; // 2.5
	cvt.rni.s32.f16 %d, %a;
	cvt.u64.u32 %res, %d;`, 2},
		{"add.rp.f32 rounds up", "sm_90", ".reg .f32 %a, %b, %d;", `
	mov.b32 %a, 0x3f800000;
	mov.b32 %b, 0x30800000; // 2^-30
	add.rp.f32 %d, %a, %b;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`, 0x3f800001},
		{"rcp.rz.f32 of 3", "sm_90", ".reg .f32 %a, %d;", `
	mov.b32 %a, 0x40400000;
	rcp.rz.f32 %d, %a;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`, 0x3eaaaaaa},
		{"rcp.rp.f32 of 3", "sm_90", ".reg .f32 %a, %d;", `
	mov.b32 %a, 0x40400000;
	rcp.rp.f32 %d, %a;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`, 0x3eaaaaab},
		{"add.rz.f32.f16 mixed precision", "sm_100", ".reg .b16 %a; .reg .f32 %c, %d;", `
	mov.b16 %a, 0x3c00; // 1.0 in f16
	mov.b32 %c, 0x33800000; // 2^-24: half an f32 ulp of 1
	add.rz.f32.f16 %d, %a, %c;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`, 0x3f800000},
		{"fma.rp.f32.bf16 mixed precision", "sm_100", ".reg .b16 %a, %b; .reg .f32 %c, %d;", `
	mov.b16 %a, 0x3f80;
	mov.b16 %b, 0x3f80;
	mov.b32 %c, 0x33800000;
	fma.rp.f32.bf16 %d, %a, %b, %c;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`, 0x3f800001},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := runLanesOn(t, c.target, c.decls+"\n\t.reg .b32 %r, %s;", c.body)
			if res[0] != c.want {
				t.Errorf("got %#x, want %#x", res[0], c.want)
			}
		})
	}
}

func TestCvtNarrow(t *testing.T) {
	runLaneCases(t, "sm_100a", []laneCase{
		// 448 is e4m3's largest value (0x7e); 1e6 saturates to it; 1.0 is 0x38
		{"e4m3x2 from f32, a in the upper byte", ".reg .f32 %a, %b; .reg .b16 %d;", `
	mov.b32 %a, 0x49742400; // 1e6
	mov.b32 %b, 0x3f800000; // 1.0
	cvt.rn.satfinite.e4m3x2.f32 %d, %a, %b;
	cvt.u64.u16 %res, %d;`, 0x7e38},
		// e5m2: -inf saturates to -57344 (0xfb); 0.5 is 0x38
		{"e5m2x2 from f32 saturates infinity", ".reg .f32 %a, %b; .reg .b16 %d;", `
	mov.b32 %a, 0xff800000;
	mov.b32 %b, 0x3f000000;
	cvt.rn.satfinite.e5m2x2.f32 %d, %a, %b;
	cvt.u64.u16 %res, %d;`, 0xfb38},
		// e2m1: 6.0 is 0x7, -0.5 is 0x9 (sign 1, e 0, m 1); .relu makes it +0
		{"e2m1x2 with relu", ".reg .f32 %a, %b; .reg .b8 %d;", `
	mov.b32 %a, 0x40c00000; // 6.0
	mov.b32 %b, 0xbf000000; // -0.5
	cvt.rn.satfinite.relu.e2m1x2.f32 %d, %a, %b;
	cvt.u64.u8 %res, %d;`, 0x70},
		// e3m2x2 to f16x2: 0x1f is 28 (f16 0x4f00), 0x04 is 0.25 (f16 0x3400)
		{"f16x2 from e3m2x2", ".reg .b16 %a; .reg .b32 %d;", `
	mov.b16 %a, 0x1f04;
	cvt.rn.f16x2.e3m2x2 %d, %a;
	cvt.u64.u32 %res, %d;`, 0x4f003400},
		// e4m3 0x01 is 2^-9 (subnormal; f16 0x1800), 0x00 is +0
		{"f16x2 from e4m3x2", ".reg .b16 %a; .reg .b32 %d;", `
	mov.b16 %a, 0x0100;
	cvt.rn.f16x2.e4m3x2 %d, %a;
	cvt.u64.u32 %res, %d;`, 0x18000000},
	})
}

func TestDivApproxLargeDivisor(t *testing.T) {
	for _, c := range []struct {
		name, a, b string
		want       uint64
	}{
		{"finite over 2^127 is a signed zero", "0x3f800000", "0xff000000", 0x80000000},
		{"infinity over 2^127 is NaN", "0x7f800000", "0x7f000000", 0x7fffffff},
		{"1 over 4 is 0.25", "0x3f800000", "0x40800000", 0x3e800000},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := runLanes(t, ".reg .f32 %a, %b, %d; .reg .b32 %r;", `
	mov.b32 %a, `+c.a+`;
	mov.b32 %b, `+c.b+`;
	div.approx.f32 %d, %a, %b;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`)
			if res[0] != c.want {
				t.Errorf("got %#x, want %#x", res[0], c.want)
			}
		})
	}
}

func TestCvtUE8M0(t *testing.T) {
	runLaneCases(t, "sm_100a", []laneCase{
		// 3.0 = 1.5 * 2^1: .rz gives 2^1 (e 128 = 0x80), .rp 2^2 (0x81);
		// 0.5 is exact: 2^-1 (0x7e) both ways
		{"rz from f32", ".reg .f32 %a, %b; .reg .b16 %d;", `
	mov.b32 %a, 0x40400000;
	mov.b32 %b, 0x3f000000;
	cvt.rz.ue8m0x2.f32 %d, %a, %b;
	cvt.u64.u16 %res, %d;`, 0x807e},
		{"rp from f32", ".reg .f32 %a, %b; .reg .b16 %d;", `
	mov.b32 %a, 0x40400000;
	mov.b32 %b, 0x3f000000;
	cvt.rp.ue8m0x2.f32 %d, %a, %b;
	cvt.u64.u16 %res, %d;`, 0x817e},
		// the largest f32 rounds up past 2^127: NaN, or 2^127 with .satfinite
		{"rp overflow", ".reg .f32 %a, %b; .reg .b16 %d;", `
	mov.b32 %a, 0x7f7fffff;
	mov.b32 %b, 0x7f7fffff;
	cvt.rp.ue8m0x2.f32 %d, %a, %b;
	cvt.u64.u16 %res, %d;`, 0xffff},
		{"rp overflow satfinite", ".reg .f32 %a, %b; .reg .b16 %d;", `
	mov.b32 %a, 0x7f7fffff;
	mov.b32 %b, 0x7fc00000; // NaN stays NaN
	cvt.rp.satfinite.ue8m0x2.f32 %d, %a, %b;
	cvt.u64.u16 %res, %d;`, 0xfeff},
		// to bf16x2: 0x7f is 1.0 (0x3f80), 0x00 is 2^-127 (subnormal 0x0040)
		{"to bf16x2", ".reg .b16 %a; .reg .b32 %d;", `
	mov.b16 %a, 0x7f00;
	cvt.rn.bf16x2.ue8m0x2 %d, %a;
	cvt.u64.u32 %res, %d;`, 0x3f800040},
		// from bf16x2 {hi 3.0 = 0x4040, lo 1.0 = 0x3f80} with .rz
		{"rz from bf16x2", ".reg .b32 %a; .reg .b16 %d;", `
	mov.b32 %a, 0x40403f80;
	cvt.rz.ue8m0x2.bf16x2 %d, %a;
	cvt.u64.u16 %res, %d;`, 0x807f},
	})
}

func TestCvtStochastic(t *testing.T) {
	// a = 1 + 2^-8 (bf16 discards 0x8000): rbits 0x8000 carries, so a
	// rounds up to 0x3f81; b = 1 + 2^-8 with rbits 0x7fff truncates.
	res := runLanesOn(t, "sm_100a", ".reg .f32 %a, %b; .reg .b32 %r, %d;", `
	mov.b32 %a, 0x3f808000;
	mov.b32 %b, 0x3f808000;
	mov.b32 %r, 0x80007fff;
	cvt.rs.bf16x2.f32 %d, %a, %b, %r;
	cvt.u64.u32 %res, %d;`)
	if res[0] != 0x3f813f80 {
		t.Errorf("cvt.rs.bf16x2.f32 = %#x, want 0x3f813f80", res[0])
	}
	// f16: 65504 + 2^-8 ulp carries past the largest f16: infinity, or
	// 65504 (0x7bff) with .satfinite
	res = runLanesOn(t, "sm_100a", ".reg .f32 %a, %b; .reg .b32 %r, %d;", `
	mov.b32 %a, 0x477fe001;
	mov.b32 %b, 0x477fe001;
	mov.b32 %r, 0x1fff1fff;
	cvt.rs.satfinite.f16x2.f32 %d, %a, %b, %r;
	cvt.u64.u32 %res, %d;`)
	if res[0] != 0x7bff7bff {
		t.Errorf("cvt.rs.satfinite.f16x2.f32 = %#x, want 0x7bff7bff", res[0])
	}
}

func TestSetHalf(t *testing.T) {
	runLaneCases(t, "sm_90", []laneCase{
		{"set.lt.f16.f32 writes f16 1.0", ".reg .f32 %a, %b; .reg .b16 %d;", `
	mov.b32 %a, 0x3f800000;
	mov.b32 %b, 0x40000000;
	set.lt.f16.f32 %d, %a, %b;
	cvt.u64.u16 %res, %d;`, 0x3c00},
		{"set.gt.u32.f16 writes all ones", ".reg .b16 %a, %b; .reg .u32 %d;", `
	mov.b16 %a, 0x4000;
	mov.b16 %b, 0x3c00;
	set.gt.u32.f16 %d, %a, %b;
	cvt.u64.u32 %res, %d;`, 0xffffffff},
		// lanes {lo 1 < 2: true, hi 3 < 2: false}
		{"set.lt.f16x2.f16x2 packs 1.0 per lane", ".reg .b32 %a, %b, %d;", `
	mov.b32 %a, 0x42003c00;
	mov.b32 %b, 0x40004000;
	set.lt.f16x2.f16x2 %d, %a, %b;
	cvt.u64.u32 %res, %d;`, 0x00003c00},
		{"set.lt.u32.bf16x2 packs 0xffff per lane", ".reg .b32 %a, %b, %d;", `
	mov.b32 %a, 0x3f804040; // {lo 3.0, hi 1.0}
	mov.b32 %b, 0x40004000; // {2.0, 2.0}
	set.lt.u32.bf16x2 %d, %a, %b;
	cvt.u64.u32 %res, %d;`, 0xffff0000},
	})
}

// TestMadSM1x: on sm_1x, mad.f32 truncates the product to 24 bits before
// adding (9.7.3.7). (1 + 2^-23) * (1 + 2^-23) = 1 + 2^-22 + 2^-46: the
// truncated product is 1 + 2^-22; adding 2^-24 (half an ulp of 1.0 above
// 1 + 2^-22, a tie) rounds to even: 1 + 2^-22 (0x3f800002). A fused
// multiply-add would see the 2^-46 and round up to 0x3f800003.
func TestMadSM1x(t *testing.T) {
	body := `
	mov.b32 %a, 0x3f800001;
	mov.b32 %c, 0x33800000;
	mad.f32 %d, %a, %a, %c;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`
	for _, c := range []struct {
		target, op string
		want       uint64
	}{
		{"sm_13", "mad.f32", 0x3f800002},
		{"sm_20", "mad.rn.f32", 0x3f800003},
	} {
		b := strings.Replace(body, "mad.f32", c.op, 1)
		res := runLanesOnVersion(t, "2.3", c.target, ".reg .f32 %a, %c, %d; .reg .b32 %r;", b)
		if res[0] != c.want {
			t.Errorf("%s %s: got %#x, want %#x", c.target, c.op, res[0], c.want)
		}
	}
}

// TestFtzSM1x: on sm_1x, add.f32 flushes subnormal inputs and results
// ("sm_1x: add.f32 flushes subnormal inputs and results to sign-preserving
// zero", 9.7.3.3); from sm_20 subnormals are kept.
func TestFtzSM1x(t *testing.T) {
	for _, c := range []struct {
		target, op string
		want       uint64
	}{{"sm_13", "add.f32", 0}, {"sm_20", "add.rn.f32", 2}} {
		res := runLanesOnVersion(t, "2.3", c.target, ".reg .f32 %a, %d; .reg .b32 %r;", `
	mov.b32 %a, 1;
	`+c.op+` %d, %a, %a;
	mov.b32 %r, %d;
	cvt.u64.u32 %res, %r;`)
		if res[0] != c.want {
			t.Errorf("%s %s: got %#x, want %#x", c.target, c.op, res[0], c.want)
		}
	}
}

// TestGrossF64Approx: rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 use only
// a's upper word and zero d's lower word (9.7.3.14, 9.7.3.17).
func TestGrossF64Approx(t *testing.T) {
	for _, c := range []struct {
		name, op, a string
		want        uint64
	}{
		// 3 with junk in the lower word: 1/3 in 1.11.20 is 0x3fd55555 rounded
		// to nearest (0x3fd5555555555555 truncated to 20 fraction bits is
		// 0x3fd55555, the next bit is 0)
		{"rcp of 3", "rcp.approx.ftz.f64", "0x4008000012345678", 0x3fd5555500000000},
		{"rcp of +subnormal is +inf", "rcp.approx.ftz.f64", "0x000fffff00000000", 0x7ff0000000000000},
		{"rcp of -inf is -0", "rcp.approx.ftz.f64", "0xfff0000000000000", 0x8000000000000000},
		{"rcp of NaN", "rcp.approx.ftz.f64", "0x7ff8000000000001", 0x7fffffff00000000},
		{"rsqrt of 4", "rsqrt.approx.ftz.f64", "0x4010000000000000", 0x3fe0000000000000},
		{"rsqrt of -0 is -inf", "rsqrt.approx.ftz.f64", "0x8000000000000000", 0xfff0000000000000},
	} {
		res := runLanes(t, ".reg .f64 %a, %d;", `
	mov.b64 %a, `+c.a+`;
	`+c.op+` %d, %a;
	mov.b64 %res, %d;`)
		if res[0] != c.want {
			t.Errorf("%s: got %#x, want %#x", c.name, res[0], c.want)
		}
	}
}

// laneCase is a kernel body whose lane 0 result is checked.
type laneCase struct {
	name, decls, body string
	want              uint64
}

func runLaneCases(t *testing.T, target string, cases []laneCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runLanesOn(t, target, c.decls, c.body)
			if res[0] != c.want {
				t.Errorf("got %#x, want %#x", res[0], c.want)
			}
		})
	}
}
