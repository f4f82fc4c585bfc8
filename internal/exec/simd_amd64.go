//go:build amd64 && !purego

package exec

// The AVX2 whole-warp loops (simd_amd64.s, written by ./simdgen) stand in
// for the Go loops of the common integer and f32 operations when the CPU
// and OS support AVX2 and FMA. Each computes what the Go loop it replaces
// computes, bit for bit (simd_test.go compares them on random and special
// values); the Go loops stay the portable path (build tag purego, other
// architectures, PTXVM_SIMD=off).

//go:generate go run ./simdgen -s simd_amd64.s -go simd_table_amd64.go

import (
	"os"
	"reflect"
	"strings"
)

// simdEnabled: lowering picks the AVX2 loops (tests turn it off to reach
// the Go loops).
var simdEnabled = simdSupported() && os.Getenv("PTXVM_SIMD") != "off"

// simdSupported reports AVX2 and FMA with the OS saving the YMM state
// (CPUID leaf 1 ECX bits 12, 27 and 28; leaf 7 EBX bit 5; XCR0 bits 1-2).
func simdSupported() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, c1, _ := cpuid(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if c1&(fma|osxsave|avx) != fma|osxsave|avx || xgetbv0()&6 != 6 {
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	return b7&(1<<5) != 0
}

// simdBinary returns the AVX2 loops of a binary operation ("add.z32",
// "mul.s32", "shr.u64", "add.f32", ...: simd_table_amd64.go), or false.
func simdBinary(key string) (vecBin, bool) {
	if !simdEnabled {
		return vecBin{}, false
	}
	v, ok := simdBinaryLoops[key]
	return v, ok
}

// simdTernary returns the AVX2 loop of "fma.f32", "fma.ftz.f32", "fma.f64"
// (.rn; "fma.rz.f32" and the like: simdKeyedTernary), "mad.z32",
// "mad.s32", "mad.64" or "shf.l.wrap" (and .r, .clamp), or nil.
func simdTernary(key string) func(d, a, b, c *lanes) {
	if !simdEnabled {
		return nil
	}
	switch key {
	case "fma.f32":
		return simdFmaF32
	case "mad.z32":
		return simdMadZ32
	case "mad.s32":
		return simdMadS32
	case "mad.64":
		return simdMad64
	case "madwide.u32":
		return simdMadWideU32
	case "madwide.s32":
		return simdMadWideS32
	case "fma.ftz.f32":
		return simdFmaFtzF32
	case "fma.f64":
		return simdFmaF64
	case "shf.l.wrap":
		return simdShfLWrap
	case "shf.r.wrap":
		return simdShfRWrap
	case "shf.l.clamp":
		return simdShfLClamp
	case "shf.r.clamp":
		return simdShfRClamp
	}
	return simdKeyedTernary[key]
}

// simdUnary returns the AVX2 loop of "sqrt.f32" or "rcp.f32" (.rn), of
// rsqrt, rcp or sqrt ".approx.f32" or ".approx.ftz.f32", of vecNorm's
// "copy.64", "zext.32" and "sext.32", of the keyed loops
// (simdKeyedUnary: "cvt.rmi.f32.f32" ...), or nil.
func simdUnary(key string) func(d, a *lanes) {
	if !simdEnabled {
		return nil
	}
	return simdUnaryLoop(key)
}

func simdUnaryLoop(key string) func(d, a *lanes) {
	if v, ok := simdKeyedUnary[key]; ok {
		return v
	}
	switch key {
	case "sqrt.f32":
		return simdSqrtF32
	case "ex2.approx.f32":
		return simdEx2ApproxF32
	case "ex2.approx.ftz.f32":
		return simdEx2ApproxFtzF32
	case "neg.s32":
		return simdNegS32
	case "neg.64":
		return simdNeg64
	case "not.32":
		return simdNot32
	case "not.64":
		return simdNot64
	case "abs.s32":
		return simdAbsS32
	case "abs.s64":
		return simdAbsS64
	case "cvt.f64.f32":
		return simdCvtF64F32
	case "cvt.ftz.f64.f32":
		return simdCvtF64F32Ftz
	case "cvt.rn.f32.f64":
		return simdCvtF32F64
	case "cvt.rn.ftz.f32.f64":
		return simdCvtF32F64Ftz
	case "neg.f32":
		return simdNegF32
	case "neg.ftz.f32":
		return simdNegFtzF32
	case "abs.f32":
		return simdAbsF32
	case "abs.ftz.f32":
		return simdAbsFtzF32
	case "neg.f64":
		return simdNegF64
	case "abs.f64":
		return simdAbsF64
	case "lg2.approx.f32":
		return simdLg2ApproxF32
	case "lg2.approx.ftz.f32":
		return simdLg2ApproxFtzF32
	case "sin.approx.f32":
		return simdSinApproxF32
	case "sin.approx.ftz.f32":
		return simdSinApproxFtzF32
	case "cos.approx.f32":
		return simdCosApproxF32
	case "cos.approx.ftz.f32":
		return simdCosApproxFtzF32
	case "cvt.f32.s32":
		return simdCvtF32S32
	case "cvt.f32.u32":
		return simdCvtF32U32
	case "cvt.f64.s32":
		return simdCvtF64S32
	case "cvt.f64.u32":
		return simdCvtF64U32
	case "cvt.rzi.s32.f32":
		return simdCvtS32F32Rzi
	case "cvt.rni.s32.f32":
		return simdCvtS32F32Rni
	case "cvt.rmi.s32.f32":
		return simdCvtS32F32Rmi
	case "cvt.rpi.s32.f32":
		return simdCvtS32F32Rpi
	case "cvt.rzi.u32.f32":
		return simdCvtU32F32Rzi
	case "cvt.rni.u32.f32":
		return simdCvtU32F32Rni
	case "cvt.rmi.u32.f32":
		return simdCvtU32F32Rmi
	case "cvt.rpi.u32.f32":
		return simdCvtU32F32Rpi
	case "rcp.f32":
		return simdRcpF32
	case "copy.64":
		return simdCopy64
	case "zext.32":
		return simdZext32
	case "sext.32":
		return simdSext32
	case "rsqrt.approx.f32":
		return simdRsqrtApproxF32
	case "rsqrt.approx.ftz.f32":
		return simdRsqrtApproxFtzF32
	case "rcp.approx.f32":
		return simdRcpApproxF32
	case "rcp.approx.ftz.f32":
		return simdRcpApproxFtzF32
	case "sqrt.approx.f32":
		return simdSqrtApproxF32
	case "sqrt.approx.ftz.f32":
		return simdSqrtApproxFtzF32
	}
	return nil
}

// simdLoopPCs: the code addresses of the AVX2 loops (isSIMDLoop): every
// loop with a body that traces can call is one.
var simdLoopPCs = func() map[uintptr]bool {
	m := map[uintptr]bool{}
	for _, f := range simdBodies {
		m[reflect.ValueOf(f).Pointer()] = true
	}
	return m
}()

// isSIMDLoop reports whether a whole-warp loop is one of the AVX2 ones
// (cheap enough that the compute-once test of uniform.go costs more than
// it saves).
func isSIMDLoop(f any) bool {
	return simdEnabled && simdLoopPCs[reflect.ValueOf(f).Pointer()]
}

// simdCompare returns the AVX2 comparison of "eq16", "lts16", "ltu16",
// "eq32", "lts32", "ltu32", "eq64", "lts64", "ltu64", or "f32", "f32ftz" or "f64" and a setp
// operator (".lt", ...), or nil. Its result has bit i set where lane i's test holds.
func simdCompare(key string) func(a, b *lanes) uint32 {
	if !simdEnabled {
		return nil
	}
	switch key {
	case "eq16":
		return simdEq16
	case "lts16":
		return simdLtS16
	case "ltu16":
		return simdLtU16
	case "eq32":
		return simdEq32
	case "lts32":
		return simdLtS32
	case "ltu32":
		return simdLtU32
	case "eq64":
		return simdEq64
	case "lts64":
		return simdLtS64
	case "ltu64":
		return simdLtU64
	}
	switch { // (f32ftz before f32, its prefix)
	case strings.HasPrefix(key, "f32ftz"):
		return simdF32FtzCompares[key[6:]]
	case strings.HasPrefix(key, "f32"):
		return simdF32Compares[key[3:]]
	case strings.HasPrefix(key, "f64"):
		return simdF64Compares[key[3:]]
	}
	return nil
}

// simdBodyIndex: the code address of each loop's body (what simdTrace
// calls), by the loop's code address.
var simdBodyIndex = func() map[uintptr]uint64 {
	m := map[uintptr]uint64{}
	for i, f := range simdBodies {
		m[reflect.ValueOf(f).Pointer()] = simdBodyAddr(i)
	}
	return m
}()

// simdBodyOf returns the code address of an AVX2 whole-warp loop's body,
// for a trace entry.
func simdBodyOf(f any) (uint64, bool) {
	if !simdEnabled {
		return 0, false
	}
	a, ok := simdBodyIndex[reflect.ValueOf(f).Pointer()]
	return a, ok
}

// simdMemBody returns the code address of a trace's memory body by kind
// (simdMemBodies).
func simdMemBody(kind string) (uint64, bool) {
	i, ok := simdMemBodies[kind]
	if !ok || !simdEnabled {
		return 0, false
	}
	return simdBodyAddr(int(i)), true
}
