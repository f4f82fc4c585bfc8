//go:build amd64 && !purego

package exec

// The F16C loops (half_amd64.s) of add, sub, mul and fma.rn on .f16 and
// .f16x2: VCVTPH2PS widens eight halves to float32 exactly, the operation
// runs in float32 (add, sub, mul: rounded twice, which half.go shows is
// rounding once) or float64 (fma: a*b is exact, the sum is rounded to
// float32 by round-to-odd, which keeps the half nearest the float64 sum),
// and VCVTPS2PH rounds to the nearest half, ties to even (its immediate,
// not MXCSR). They compute what half.go's lane functions compute, bit for
// bit (half_vec_test.go compares them on every special pair and random
// halves).

//go:noescape
func halfAddVec1(d, a, b *lanes)

//go:noescape
func halfSubVec1(d, a, b *lanes)

//go:noescape
func halfMulVec1(d, a, b *lanes)

//go:noescape
func halfAddVec2(d, a, b *lanes)

//go:noescape
func halfSubVec2(d, a, b *lanes)

//go:noescape
func halfMulVec2(d, a, b *lanes)

//go:noescape
func halfFmaVec1(d, a, b, c *lanes)

//go:noescape
func halfFmaVec2(d, a, b, c *lanes)

// f16c: the CPU has F16C (CPUID leaf 1 ECX bit 29). The loops run while
// simdEnabled (AVX2 and FMA, and PTXVM_SIMD not off) too: halfSIMD.
var f16c = func() bool {
	_, _, c1, _ := cpuid(1, 0)
	return c1&(1<<29) != 0
}()

func halfSIMD() bool { return simdEnabled && f16c }

// The F16C two-operand loops, by kind (halfVecKind; 0: none), called
// directly by halfVecRun so that a row made for the call (a constant
// spread over the lanes, a masked op's result) stays on the stack.
const (
	halfNoVec uint8 = iota
	halfAdd1Vec
	halfSub1Vec
	halfMul1Vec
	halfAdd2Vec
	halfSub2Vec
	halfMul2Vec
	halfCvtPairKind // cvt.rn.f16x2.f32
)

// halfVecKind returns the kind of the F16C loop of add, sub or mul on n
// (1 or 2) halves a lane, or of "cvtpair" (cvt.rn.f16x2.f32), or 0.
func halfVecKind(op string, n int) uint8 {
	if !halfSIMD() {
		return halfNoVec
	}
	switch op + string(rune('0'+n)) {
	case "add1":
		return halfAdd1Vec
	case "sub1":
		return halfSub1Vec
	case "mul1":
		return halfMul1Vec
	case "add2":
		return halfAdd2Vec
	case "sub2":
		return halfSub2Vec
	case "mul2":
		return halfMul2Vec
	case "cvtpair2":
		return halfCvtPairKind
	}
	return halfNoVec
}

// halfVecRun runs the loop of kind on whole rows.
func halfVecRun(kind uint8, d, a, b *lanes) {
	switch kind {
	case halfAdd1Vec:
		halfAddVec1(d, a, b)
	case halfSub1Vec:
		halfSubVec1(d, a, b)
	case halfMul1Vec:
		halfMulVec1(d, a, b)
	case halfAdd2Vec:
		halfAddVec2(d, a, b)
	case halfSub2Vec:
		halfSubVec2(d, a, b)
	case halfMul2Vec:
		halfMulVec2(d, a, b)
	case halfCvtPairKind:
		halfCvtPairVec(d, a, b)
	default:
		panic("exec: halfVecRun of no F16C loop")
	}
}

// halfVecFma returns the F16C loop of fma.rn on n halves a lane, or nil.
func halfVecFma(n int) func(d, a, b, c *lanes) {
	switch {
	case !halfSIMD():
		return nil
	case n == 1:
		return halfFmaVec1
	}
	return halfFmaVec2
}

//go:noescape
func halfCvtPairVec(d, a, b *lanes)

// halfVecWiden returns the F16C loop of cvt.f32.f16, or nil: simdgen's,
// which is also a trace entry (streaming segments take it).
func halfVecWiden() func(d, a *lanes) {
	if !halfSIMD() {
		return nil
	}
	return simdUnary("cvt.f32.f16")
}

// halfVecCvt returns the F16C loop of cvt.rn.f16.f32, or nil (simdgen's,
// as halfVecWiden's).
func halfVecCvt() func(d, a *lanes) {
	if !halfSIMD() {
		return nil
	}
	return simdUnary("cvt.rn.f16.f32")
}
