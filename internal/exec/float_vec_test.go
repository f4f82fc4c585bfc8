package exec

// Tests of the whole-warp float loops that run under a rounding mode other
// than .rn (simdgen's MXCSR rounding controls), round to integral values
// (cvt.rni/rzi/rmi/rpi between equal float types), or flush subnormals
// first (setp, min and max .ftz.f32): a full warp against split halves
// (convergedMatchesLanes: the per-lane path, or for binary ops with
// masked AVX2 forms those forms), and against values worked out by hand
// from the manual. simd_test.go compares the AVX2 loops with internal/fp
// (itself checked against exact arithmetic) on random operands.

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// pairsSetup puts hashed bits (from seed) in %x, %y and %z, then the
// special triples over them, one per lane from lane 0.
func pairsSetup(seed uint32, triples [][3]string) string {
	s := fmt.Sprintf(`
	mul.lo.u32 %%x, %%t, %#x;
	xor.b32 %%y, %%x, 0x5bd1e995;
	mul.lo.u32 %%z, %%y, 0x01000193;
	shr.u32 %%z, %%z, 3;
`, seed)
	for i, tr := range triples {
		s += fmt.Sprintf("\tsetp.eq.u32 %%p, %%t, %d;\n", i)
		for k, r := range []string{"%x", "%y", "%z"} {
			if tr[k] != "" {
				s += fmt.Sprintf("\t@%%p mov.b32 %s, %s;\n", r, tr[k])
			}
		}
	}
	return s
}

// f32Triples are operands where the rounding mode decides: inexact sums
// and products next to ties, exact zeros (x - x), overflow, underflow to
// and from the subnormals (around the smallest normal, where .ftz and
// rounding meet), NaNs and infinities.
var f32Triples = [][3]string{
	{"0x3f800000", "0x30800000", "0xbf800000"}, // 1 + 2^-30
	{"0xbf800000", "0x30800000", "0x3f800000"}, // -1 + 2^-30
	{"0x3f800000", "0xbf800000", "0x3f800000"}, // 1 - 1: the zero's sign
	{"0x7f7fffff", "0x7f7fffff", "0xff7fffff"}, // overflow
	{"0xff7fffff", "0x7f7fffff", "0x7f7fffff"},
	{"0x00000001", "0x3f000000", "0x00000000"}, // 2^-149 * 0.5
	{"0x80000001", "0x3f000000", "0x80000000"},
	{"0x00800000", "0x3f7fffff", "0x00000000"}, // just below the smallest normal
	{"0x00800001", "0xbf7fffff", "0x00000001"},
	{"0x3f800001", "0x3f800001", "0xbf800000"}, // (1+u)^2 - 1
	{"0x3f800000", "0x40400000", "0x00000000"}, // 1/3
	{"0xbf800000", "0x40400000", "0x80000000"},
	{"0x7f800000", "0xff800000", "0x3f800000"}, // inf - inf
	{"0x7fc00000", "0x3f800000", "0x3f800000"},
	{"0x3f800000", "0x7fa00000", "0x3f800000"},
	{"0x00000000", "0x80000000", "0x80000000"},
	{"0x007fffff", "0x007fffff", "0x00000001"}, // subnormals
	{"0x4b800001", "0x3f800000", "0x3f000000"}, // ties past 2^24
	{"0x4b7fffff", "0x3f000000", "0xbf000000"},
	{"0x3fc00000", "0x3fc00000", "0xc0100000"}, // 1.5*1.5 - 2.25
	{"0x00000001", "0x00000000", "0x80000001"}, // equal only once flushed
	{"0x80000001", "0x00000001", "0x00000000"},
	{"0x807fffff", "0x00000000", "0x007fffff"},
}

// TestDirectedRoundingVecMatchesLanes: add, sub, mul, div and fma under
// .rz, .rm and .rp on f32 (.ftz too) and f64 give what the per-lane path
// gives, on the triples above and on hashed bits.
func TestDirectedRoundingVecMatchesLanes(t *testing.T) {
	for _, mode := range []string{".rz", ".rm", ".rp"} {
		for _, ftz := range []string{"", ".ftz"} {
			for _, seed := range []uint32{0x9e3779b9, 0x85ebca6b} {
				setup := pairsSetup(seed, f32Triples)
				for _, op := range []string{"add", "sub", "mul", "div"} {
					convergedMatchesLanes(t, setup, op+mode+ftz+".f32", "%x, %y", false)
				}
				convergedMatchesLanes(t, setup, "fma"+mode+ftz+".f32", "%x, %y, %z", false)
				convergedMatchesLanes(t, setup, "add"+mode+ftz+".f32", "%x, 0f3F800000", false)
			}
		}
		// f64: each word next to another (f64 specials where a word is an
		// f32 special's upper half), and operands around 1 + 2^-60
		for _, seed := range []uint32{0x9e3779b9, 0x85ebca6b} {
			setup := pairsSetup(seed, f32Triples) + `
	mov.b64 %w, {%z, %x};
	mov.b64 %v, {%x, %y};
	mov.b64 %u, {%y, %z};
	setp.eq.u32 %p, %t, 31;
	@%p mov.b64 %w, 0x3ff0000000000000;
	@%p mov.b64 %v, 0x3c30000000000000;
	@%p mov.b64 %u, 0xbff0000000000000;
`
			for _, op := range []string{"add", "sub", "mul", "div"} {
				convergedMatchesLanes(t, setup, op+mode+".f64", "%w, %v", true)
			}
			convergedMatchesLanes(t, setup, "fma"+mode+".f64", "%w, %v, %u", true)
		}
	}
}

// TestDirectedRoundingByHand: results worked out from 9.7.3's rounding
// modifiers (.rz toward zero, .rm toward -inf, .rp toward +inf; an exact
// zero sum is -0 under .rm only, IEEE 754 6.3), on a full warp.
func TestDirectedRoundingByHand(t *testing.T) {
	for _, c := range []struct {
		inst, a, b, c string
		want          uint64
	}{
		{"add.rp.f32", "0x3f800000", "0x30800000", "", 0x3f800001}, // 1 + 2^-30 up
		{"add.rz.f32", "0x3f800000", "0x30800000", "", 0x3f800000},
		{"add.rm.f32", "0xbf800000", "0xb0800000", "", 0xbf800001}, // -1 - 2^-30 down
		{"add.rz.f32", "0xbf800000", "0xb0800000", "", 0xbf800000},
		{"sub.rm.f32", "0x3f800000", "0x3f800000", "", 0x80000000}, // 1 - 1 = -0
		{"sub.rp.f32", "0x3f800000", "0x3f800000", "", 0x00000000},
		{"add.rz.f32", "0x7f7fffff", "0x7f7fffff", "", 0x7f7fffff}, // overflow stays finite
		{"add.rp.f32", "0x7f7fffff", "0x7f7fffff", "", 0x7f800000},
		{"add.rm.f32", "0x7f7fffff", "0x7f7fffff", "", 0x7f7fffff},
		{"mul.rp.f32", "0x00000001", "0x3f000000", "", 0x00000001}, // 2^-150 up to 2^-149
		{"mul.rz.f32", "0x00000001", "0x3f000000", "", 0x00000000},
		{"mul.rp.ftz.f32", "0x00000001", "0x3f800000", "", 0x00000000}, // subnormal input flushed
		{"div.rz.f32", "0x3f800000", "0x40400000", "", 0x3eaaaaaa},     // 1/3 = 0x3eaaaaaa.aa...
		{"div.rp.f32", "0x3f800000", "0x40400000", "", 0x3eaaaaab},
		{"fma.rm.f32", "0x3f800001", "0x3f800001", "0xbf800000", 0x34800000}, // 2^-22 + 2^-46 down
		{"fma.rp.f32", "0x3f800001", "0x3f800001", "0xbf800000", 0x34800001},
		{"add.rz.f32", "0x7fc00000", "0x3f800000", "", 0x7fffffff},  // NaN: the canonical NaN
		{"cvt.rmi.f32.f32", "0xbf000000", "", "", 0xbf800000},       // floor(-0.5) = -1
		{"cvt.rzi.f32.f32", "0xbf000000", "", "", 0x80000000},       // trunc(-0.5) = -0
		{"cvt.rpi.f32.f32", "0xbf000000", "", "", 0x80000000},       // ceil(-0.5) = -0
		{"cvt.rni.f32.f32", "0x40200000", "", "", 0x40000000},       // 2.5 to even: 2
		{"cvt.rni.f32.f32", "0x40600000", "", "", 0x40800000},       // 3.5 to even: 4
		{"cvt.rpi.f32.f32", "0x3f800001", "", "", 0x40000000},       // ceil(1+u) = 2
		{"cvt.rmi.ftz.f32.f32", "0x80000001", "", "", 0x80000000},   // flushed to -0 first: -0
		{"cvt.rmi.f32.f32", "0x80000001", "", "", 0xbf800000},       // floor(-2^-149) = -1
		{"cvt.rzi.f32.f32", "0x7fa00000", "", "", 0x7fffffff},       // NaN
		{"cvt.rmi.f32.f32", "0x4b000001", "", "", 0x4b000001},       // already integral
		{"min.ftz.f32", "0x80000001", "0x00000000", "", 0x80000000}, // -0 < +0 after flushing
		{"max.ftz.f32", "0x007fffff", "0x00000000", "", 0x00000000},
		{"max.ftz.f32", "0x807fffff", "0x80000000", "", 0x80000000},
	} {
		args := []string{}
		for _, v := range []string{c.a, c.b, c.c} {
			if v != "" {
				args = append(args, v)
			}
		}
		setup := ""
		regs := []string{"%x", "%y", "%z"}
		for i, v := range args {
			setup += fmt.Sprintf("\tmov.b32 %s, %s;\n", regs[i], v)
		}
		res := runLanes(t, lanesDecls, setup+"\t"+c.inst+" %d1, "+strings.Join(regs[:len(args)], ", ")+";\n\tcvt.u64.u32 %res, %d1;")
		for l, v := range res {
			if v != c.want {
				t.Fatalf("%s %v lane %d: got %#x, want %#x", c.inst, args, l, v, c.want)
			}
		}
	}
	// f64: 1 + 2^-60 up and toward zero, 1 - 1 down
	for _, c := range []struct {
		inst, a, b string
		want       uint64
	}{
		{"add.rp.f64", "0x3ff0000000000000", "0x3c30000000000000", 0x3ff0000000000001},
		{"add.rz.f64", "0x3ff0000000000000", "0x3c30000000000000", 0x3ff0000000000000},
		{"sub.rm.f64", "0x3ff0000000000000", "0x3ff0000000000000", 0x8000000000000000},
		{"cvt.rmi.f64.f64", "0xbfe0000000000000", "", 0xbff0000000000000},
		{"cvt.rzi.f64.f64", "0x7ff4000000000000", "", 0x7ffc000000000000}, // a NaN keeps its payload, quieted
	} {
		setup := "\tmov.b64 %w, " + c.a + ";\n"
		args := "%w"
		if c.b != "" {
			setup += "\tmov.b64 %v, " + c.b + ";\n"
			args += ", %v"
		}
		res := runLanes(t, lanesDecls, setup+"\t"+c.inst+" %e1, "+args+";\n\tmov.b64 %res, %e1;")
		for l, v := range res {
			if v != c.want {
				t.Fatalf("%s %s %s lane %d: got %#x, want %#x", c.inst, c.a, c.b, l, v, c.want)
			}
		}
	}
}

// TestIntegralRoundingVecMatchesLanes: cvt.rni/rzi/rmi/rpi.f32.f32 (.ftz
// too) and .f64.f64 converged against the lanes, on the triples' values
// and hashed bits (NaNs, infinities, subnormals, values past 2^23 that
// are already integral).
func TestIntegralRoundingVecMatchesLanes(t *testing.T) {
	for _, irnd := range []string{".rni", ".rzi", ".rmi", ".rpi"} {
		for _, seed := range []uint32{0x9e3779b9, 0x85ebca6b} {
			setup := pairsSetup(seed, f32Triples)
			convergedMatchesLanes(t, setup, "cvt"+irnd+".f32.f32", "%x", false)
			convergedMatchesLanes(t, setup, "cvt"+irnd+".ftz.f32.f32", "%y", false)
			convergedMatchesLanes(t, setup+"\tmov.b64 %w, {%z, %x};\n", "cvt"+irnd+".f64.f64", "%w", true)
		}
	}
}

// TestFtzCompareVecMatchesLanes: setp.ftz.f32 with every operator, and
// min and max .ftz.f32, converged (AVX2 loops, trace bodies) against the
// lanes.
func TestFtzCompareVecMatchesLanes(t *testing.T) {
	setup := pairsSetup(0x9e3779b9, f32Triples)
	for _, op := range []string{"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"} {
		// a trace of add, setp and selp: the setp body converged, the
		// lanes' comparison in the halves
		convergedMatchesLanes(t, setup, "add.u32 %z, %x, 0;\n\tsetp."+op+".ftz.f32 %q, %z, %y;\n\tselp.b32", "1, 0, %q", false)
		convergedMatchesLanes(t, setup, "set."+op+".ftz.u32.f32", "%x, %y", false)
	}
	for _, op := range []string{"min", "max"} {
		convergedMatchesLanes(t, setup, op+".ftz.f32", "%x, %y", false)
		convergedMatchesLanes(t, setup, op+".ftz.f32", "%x, 0f00000001", false)
	}
}

// TestDirectedLoopsRestoreRounding: after a loop under .rz (an AVX2 one
// where the host has them), Go's own float arithmetic rounds to nearest
// again: the loop loads Go's MXCSR word back before returning.
func TestDirectedLoopsRestoreRounding(t *testing.T) {
	loops, ok := simdBinary("add.rz.f64")
	if !ok {
		t.Skip("no AVX2 loops on this host")
	}
	var d, a, b lanes
	for i := range a {
		a[i], b[i] = 0x3ff0000000000000, 0x3c30000000000000 // 1, 2^-60
	}
	loops.rr(&d, &a, &b)
	if d[0] != 0x3ff0000000000000 {
		t.Fatalf("add.rz.f64 1 + 2^-60 = %#x, want 1", d[0])
	}
	// 1 (the loop's result, which the compiler cannot know) + 3*2^-54 is
	// 1 + 2^-52 to nearest, 1 toward zero
	if got := math.Float64frombits(d[0]) + 3*0x1p-54; got != 1+0x1p-52 {
		t.Fatalf("Go's 1 + 3*2^-54 after the loop = %v: the rounding mode leaked", got)
	}
}

// TestCopysignVecMatchesLanes: copysign.f32 and .f64 converged (AVX2)
// against the lanes: b's magnitude with a's sign, NaNs and zeros too.
func TestCopysignVecMatchesLanes(t *testing.T) {
	setup := pairsSetup(0x9e3779b9, f32Triples)
	convergedMatchesLanes(t, setup, "copysign.f32", "%x, %y", false)
	convergedMatchesLanes(t, setup, "copysign.f32", "%x, 0fBF800000", false)
	convergedMatchesLanes(t, setup, "copysign.f32", "0fBF800000, %y", false)
	wide := setup + "\tmov.b64 %w, {%z, %x};\n\tmov.b64 %v, {%x, %y};\n"
	convergedMatchesLanes(t, wide, "copysign.f64", "%w, %v", true)
	convergedMatchesLanes(t, wide, "copysign.f64", "%w, 0d7FF8000000000001", true)
}
