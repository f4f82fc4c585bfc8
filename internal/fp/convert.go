package fp

import (
	"math"
	"math/bits"
)

// Convert converts v from format src to format dst, rounding with m when the
// value does not fit (cvt.frnd, 9.7.9.21). A NaN widened keeps its payload
// (quieted), as Go and the GPU do for f32 to f64; a NaN narrowed becomes the
// canonical NaN of dst.
func Convert(dst, src Format, v uint64, m Mode) uint64 {
	if dst == src {
		return v
	}
	if m == RN && src.native() == 64 && dst.native() == 32 && !src.IsNaN(v) {
		return uint64(math.Float32bits(float32(math.Float64frombits(v))))
	}
	neg := src.Signbit(v)
	switch {
	case src.IsNaN(v):
		if dst.Kind == IEEE && src.Kind == IEEE && dst.Man >= src.Man && dst.Exp >= src.Exp {
			_, _, man := src.fields(v)
			return dst.Quiet(dst.pack(neg, dst.expMask(), man<<(dst.Man-src.Man)))
		}
		return dst.CanonicalNaN()
	case src.IsInf(v):
		if dst.Kind != IEEE {
			return dst.overflow(neg, RN)
		}
		return dst.Inf(neg)
	case src.IsZero(v):
		return dst.Zero(neg)
	}
	neg, mant, exp := src.decodeSmall(v)
	return dst.roundSmall(neg, mant, exp, false, m)
}

// FromInt converts an integer to the format: x is the value's two's
// complement bits when signed is true, its magnitude otherwise.
func FromInt(dst Format, x uint64, signed bool, m Mode) uint64 {
	neg := signed && int64(x) < 0
	if neg {
		x = -x
	}
	if x == 0 {
		return dst.Zero(false)
	}
	if m == RN && dst.native() == 64 {
		if neg {
			return math.Float64bits(-float64(x))
		}
		return math.Float64bits(float64(x))
	}
	return dst.roundSmall(neg, x, 0, false, m)
}

// ToFloat64 returns the value of v as a float64, exactly, for any format
// no wider than f64.
func (f Format) ToFloat64(v uint64) float64 {
	switch f.native() {
	case 64:
		return math.Float64frombits(v)
	case 32:
		return float64(math.Float32frombits(uint32(v)))
	}
	return math.Float64frombits(Convert(F64, f, v, RN))
}

// FromFloat64 rounds a float64 to the format.
func (f Format) FromFloat64(x float64, m Mode) uint64 {
	return Convert(f, F64, math.Float64bits(x), m)
}

// ConvertSatFinite is Convert with .satfinite (9.7.9.21 Floating Point
// Notes): a magnitude beyond the largest finite value of dst, infinities
// included, becomes that value with the input's sign; a NaN stays NaN, or
// becomes +MAX_NORM in a format without NaNs.
func ConvertSatFinite(dst, src Format, v uint64, m Mode) uint64 {
	switch {
	case src.IsNaN(v):
		if !dst.HasNaN() {
			return dst.MaxFinite(false)
		}
		return dst.CanonicalNaN()
	case src.IsInf(v):
		return dst.MaxFinite(src.Signbit(v))
	}
	r := Convert(dst, src, v, m)
	if dst.IsInf(r) || dst.IsNaN(r) {
		return dst.MaxFinite(src.Signbit(v))
	}
	return r
}

// ConvertStochastic is cvt.rs (9.7.9.21, .rs): the value truncated to
// dst's precision, plus one unit away from zero when adding rbits to the
// discarded bits (as integers, aligned at their least significant bits)
// carries out of the discarded field. A result past the largest finite
// value is infinity (use ConvertSatFinite's rule for .satfinite); NaN,
// infinities and zeros convert as Convert does.
func ConvertStochastic(dst, src Format, v, rbits uint64) uint64 {
	if src.IsNaN(v) || src.IsInf(v) || src.IsZero(v) {
		return Convert(dst, src, v, RZ)
	}
	neg, mant, exp := src.decodeSmall(v)
	top := exp + bits.Len64(mant) - 1
	q := max(top-dst.Man, dst.emin()-dst.Man)
	k := q - exp // discarded bits
	if k <= 0 {
		return dst.roundSmall(neg, mant, exp, false, RN) // exact
	}
	var kept uint64
	if k < 64 {
		kept = mant >> uint(k)
		if (mant&(1<<uint(k)-1)+rbits)>>uint(k) != 0 {
			kept++
		}
	}
	if kept == 0 {
		return dst.Zero(neg)
	}
	return dst.roundSmall(neg, kept, q, false, RN) // exact, or overflow to infinity
}
