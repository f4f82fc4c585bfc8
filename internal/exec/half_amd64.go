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

// halfVecBinary returns the F16C loop of add, sub or mul on n (1 or 2)
// halves a lane, or nil.
func halfVecBinary(op string, n int) func(d, a, b *lanes) {
	if !halfSIMD() {
		return nil
	}
	switch op + string(rune('0'+n)) {
	case "add1":
		return halfAddVec1
	case "sub1":
		return halfSubVec1
	case "mul1":
		return halfMulVec1
	case "add2":
		return halfAddVec2
	case "sub2":
		return halfSubVec2
	case "mul2":
		return halfMulVec2
	}
	return nil
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
func halfCvtVec1(d, a *lanes)

//go:noescape
func halfCvtPairVec(d, a, b *lanes)

// halfVecCvt returns the F16C loops of cvt.rn.f16.f32 (one) and
// cvt.rn.f16x2.f32 (pair), or nils.
func halfVecCvt() (one func(d, a *lanes), pair func(d, a, b *lanes)) {
	if !halfSIMD() {
		return nil, nil
	}
	return halfCvtVec1, halfCvtPairVec
}
