package fp

import "math"

// Fast paths for round to nearest even in f32 and f64, where Go's own
// operations are exactly the correctly rounded result. An f32 operation is
// computed in f64 and rounded to f32: for + - * / and sqrt the f64 result is
// exact or rounds with no double-rounding error, since 53 >= 2*24+2
// (Figueroa, "When is double rounding innocuous?"). NaN results are
// replaced by the ones the GPU returns (NaNResult).

func (f Format) fastAdd(a, b uint64) (uint64, bool) {
	switch f.native() {
	case 64:
		return f.fixNaN(math.Float64bits(math.Float64frombits(a)+math.Float64frombits(b)), a, b), true
	case 32:
		r := float32(float64(f32(a)) + float64(f32(b)))
		return f.fixNaN(uint64(math.Float32bits(r)), a, b), true
	}
	return 0, false
}

func (f Format) fastMul(a, b uint64) (uint64, bool) {
	switch f.native() {
	case 64:
		return f.fixNaN(math.Float64bits(math.Float64frombits(a)*math.Float64frombits(b)), a, b), true
	case 32:
		r := float32(float64(f32(a)) * float64(f32(b)))
		return f.fixNaN(uint64(math.Float32bits(r)), a, b), true
	}
	return 0, false
}

func (f Format) fastDiv(a, b uint64) (uint64, bool) {
	switch f.native() {
	case 64:
		return f.fixNaN(math.Float64bits(math.Float64frombits(a)/math.Float64frombits(b)), a, b), true
	case 32:
		r := float32(float64(f32(a)) / float64(f32(b)))
		return f.fixNaN(uint64(math.Float32bits(r)), a, b), true
	}
	return 0, false
}

func (f Format) fastSqrt(a uint64) (uint64, bool) {
	switch f.native() {
	case 64:
		return f.fixNaN(math.Float64bits(math.Sqrt(math.Float64frombits(a))), a), true
	case 32:
		r := float32(math.Sqrt(float64(f32(a))))
		return f.fixNaN(uint64(math.Float32bits(r)), a), true
	}
	return 0, false
}

func (f Format) fastFma(a, b, c uint64) (uint64, bool) {
	switch f.native() {
	case 64:
		r := math.FMA(math.Float64frombits(a), math.Float64frombits(b), math.Float64frombits(c))
		return f.fixNaN(math.Float64bits(r), a, b, c), true
	case 32:
		return f.fixNaN(uint64(math.Float32bits(fma32(f32(a), f32(b), f32(c)))), a, b, c), true
	}
	return 0, false
}

func f32(v uint64) float32 { return math.Float32frombits(uint32(v)) }

// fixNaN replaces a NaN result by the NaN the GPU returns.
func (f Format) fixNaN(r uint64, ops ...uint64) uint64 {
	if r&^f.signBit() > f.Inf(false) {
		return f.NaNResult(ops...)
	}
	return r
}

// fma32 is a*b+c rounded once to f32. The product of two f32 is exact in
// f64; the sum is rounded to f64 with round-to-odd (a sticky last bit),
// which then rounds to f32 exactly as the exact sum would, since f64 has
// more than 24+2 bits (Boldo and Melquiond, "Emulation of FMA and
// correctly rounded sums: proved algorithms using rounding to odd").
func fma32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := p + float64(c)
	if math.Float64bits(s)&0x7ff0000000000000 == 0x7ff0000000000000 {
		// s is infinite or NaN, as it is whenever p is (an f32 product
		// cannot overflow f64): no rounding to fix
		return float32(s)
	}
	// the rounding error of s, exactly (Knuth's TwoSum)
	bv := s - p
	err := (p - (s - bv)) + (float64(c) - bv)
	if err != 0 && math.Float64bits(s)&1 == 0 {
		if err > 0 {
			s = math.Nextafter(s, math.Inf(1))
		} else {
			s = math.Nextafter(s, math.Inf(-1))
		}
	}
	return float32(s)
}

// FmaF32 is fma.rn.f32 without the GPU's NaN rule: a*b+c rounded once to
// the nearest f32, ties to even (NaN results are whatever NaN the host
// gives; callers replace them). It is the lane loop's entry point.
func FmaF32(a, b, c float32) float32 { return fma32(a, b, c) }
