package exec

// cvt (9.7.9.21; ptx-isa-9.0-section-9.7.9-data-movement.md is easier to
// read): integer to integer, float to integer with integer rounding, integer
// to float and float to float in every rounding mode through internal/fp,
// .ftz, .sat, .relu, .satfinite, the packed f16x2/bf16x2 destinations,
// and the packed 8-, 6- and 4-bit formats (e4m3x2, e5m2x2, e2m3x2, e3m2x2,
// e2m1x2, ue8m0x2), and stochastic rounding (.rs) to f16x2/bf16x2. The
// x4 forms (.rs to the 8/6/4-bit formats, whose random-bit layout the
// manual gives only as figures) are reported unsupported.

import (
	"math"
	"strconv"
	"strings"

	"github.com/ptxvm/ptxvm/internal/fp"
	"github.com/ptxvm/ptxvm/internal/ir"
)

func init() {
	register(lowerCvt, "cvt")
}

// cvtFloat returns the format of a float cvt type (.tf32 included).
func cvtFloat(t string) (fp.Format, int, bool) {
	if t == ".tf32" {
		return fp.TF32, 1, true
	}
	return floatType(t)
}

// narrowTypes are the packed alternate formats and their element width in
// the register (a 6-bit value sits in 8 bits with 2 zero MSBs).
var narrowTypes = map[string]struct {
	f    fp.Format
	slot uint
}{
	".e4m3x2": {fp.E4M3, 8}, ".e5m2x2": {fp.E5M2, 8},
	".e2m3x2": {fp.E2M3, 8}, ".e3m2x2": {fp.E3M2, 8},
	".e2m1x2": {fp.E2M1, 4},
}

func lowerCvt(l *lowering, in *ir.Inst, o *Op) error {
	for _, m := range in.Mods {
		if m == ".ue8m0x2" {
			return lowerCvtUE8M0(l, in, o)
		}
		if strings.HasSuffix(m, "x4") && m[1] == 'e' {
			return l.unsupported(in, "type "+m)
		}
		if _, ok := narrowTypes[m]; ok {
			return lowerCvtNarrow(l, in, o)
		}
	}
	dt, at, ok := typePair(in, ".dtype", ".atype")
	if !ok {
		return l.unsupported(in, "")
	}
	if hasMod(in, ".rs") {
		return lowerCvtStochastic(l, in, o, dt, at)
	}
	df, dn, dFloat := cvtFloat(dt)
	af, an, aFloat := cvtFloat(at)
	if dn > 1 && (an != 1 || len(in.Operands) != 3) || an > 1 {
		return l.unsupported(in, "types "+dt+"."+at[1:])
	}
	irnd := in.Groups[".irnd"]
	for _, m := range in.Mods {
		switch m {
		case ".rni", ".rzi", ".rmi", ".rpi":
			irnd = m
		}
	}
	mode, _ := roundingOf(in)
	sat := hasMod(in, ".sat")
	// .ftz applies to .f32 inputs and results only (Subnormal numbers)
	ftzIn := hasMod(in, ".ftz") && af == fp.F32
	ftzOut := hasMod(in, ".ftz") && df == fp.F32
	switch {
	case dFloat && aFloat:
		return cvtFloatToFloat(l, in, o, df, af, dn, mode, irnd, ftzIn, ftzOut)
	case aFloat:
		it, ok := parseInt(dt)
		if !ok {
			return l.unsupported(in, "type "+dt)
		}
		if irnd == "" {
			return l.unsupported(in, "float to integer without an integer rounding modifier")
		}
		width := uint64(1)<<uint(af.Width()) - 1
		if af.Width() == 64 {
			width = ^uint64(0)
		}
		return l.unaryVec(in, o, func(a uint64) uint64 {
			v := a & width
			if ftzIn {
				v = af.FlushSubnormal(v)
			}
			x := af.ToFloat64(v)
			if math.IsNaN(x) {
				// Integer Notes: NaN converts to 0, except from .f64 or
				// to a 64-bit type, where it is 1 << (width-1)
				if af != fp.F64 && it.bits < 64 {
					return 0
				}
				return it.norm(1 << uint(it.bits-1))
			}
			return it.norm(floatToInt(roundInt(irnd, x), it))
		}, firstLoop(cvtFloatToInt32Vec(af, it, irnd, ftzIn), cvtFloatToInt64Vec(af, it, irnd, ftzIn)))
	case dFloat:
		it, ok := parseInt(at)
		if !ok {
			return l.unsupported(in, "type "+at)
		}
		if irnd != "" {
			return l.unsupported(in, "rounding "+irnd)
		}
		md := cvtMods(in, df)
		md.ftz = ftzOut
		var vec func(d, a *lanes)
		if mode == fp.RN && !md.sat && !md.relu && !md.satfinite {
			vec = firstLoop(cvtInt32ToFloatVec(df, it), cvtInt64ToFloatVec(df, it))
		}
		return l.unaryVec(in, o, func(a uint64) uint64 {
			v := a & it.mask()
			if it.signed {
				v = uint64(it.signedVal(a))
			}
			return md.out(fp.FromInt(df, v, it.signed, mode))
		}, vec)
	}
	src, ok1 := parseInt(at)
	dst, ok2 := parseInt(dt)
	if !ok1 || !ok2 {
		return l.unsupported(in, "types "+dt+"."+at[1:])
	}
	var vec func(d, a *lanes)
	if !sat {
		vec = vecNorm(src, dst)
	}
	return l.unaryVec(in, o, func(a uint64) uint64 {
		v := src.norm(a)
		if sat {
			return dst.norm(saturate(v, src, dst))
		}
		return dst.norm(v)
	}, vec)
}

// cvtMods are the result modifiers of a float destination, with
// .satfinite folded in: out of range results become the largest finite
// value of their sign, NaN stays NaN (Floating Point Notes).
type cvtResult struct {
	floatMods
	satfinite bool
}

func cvtMods(in *ir.Inst, f fp.Format) cvtResult {
	return cvtResult{floatMods: newFloatMods(in, f), satfinite: hasMod(in, ".satfinite")}
}

func (m *cvtResult) out(v uint64) uint64 {
	if m.satfinite && m.f.IsInf(v) {
		v = m.f.MaxFinite(m.f.Signbit(v))
	}
	return m.floatMods.out(v)
}

func cvtFloatToFloat(l *lowering, in *ir.Inst, o *Op, df, af fp.Format, dn int, mode fp.Mode, irnd string, ftzIn, ftzOut bool) error {
	md := cvtMods(in, df)
	md.ftz = ftzOut
	width := uint64(1)<<uint(af.Width()) - 1
	if af.Width() == 64 {
		width = ^uint64(0)
	}
	one := func(a uint64) uint64 {
		v := a & width
		if ftzIn {
			v = af.FlushSubnormal(v)
		}
		if irnd != "" { // same-size: round to an integral value in the format
			if af.IsNaN(v) {
				return md.out(af.NaNResult(v))
			}
			return md.out(df.FromFloat64(roundInt(irnd, af.ToFloat64(v)), fp.RN))
		}
		return md.out(fp.Convert(df, af, v, mode))
	}
	plainRN := irnd == "" && mode == fp.RN && !md.sat && !md.relu && !md.satfinite
	f16of32 := plainRN && df == fp.F16 && af == fp.F32 && !ftzOut // (ftzIn changes nothing: cvtHalfVec)
	if dn == 2 {                                                  // d[31:16] = convert(a), d[15:0] = convert(b)
		w := uint(df.Width())
		fn := func(a, b uint64) uint64 { return one(a)<<w | one(b) }
		if k := halfVecKind("cvtpair", 2); f16of32 && k != 0 {
			v := halfVecBin(k)
			return l.binaryVec(in, o, fn, vecBin{rr: v.rr, mrr: v.mrr})
		}
		return l.binary(in, o, fn)
	}
	if one16 := halfVecCvt(); f16of32 && one16 != nil {
		return l.unaryVec(in, o, one, one16)
	}
	if widen := halfVecWiden(); irnd == "" && df == fp.F32 && af == fp.F16 && !md.sat && !md.relu && !md.satfinite && widen != nil {
		// (exact: the rounding mode and .ftz change nothing, a half's
		// subnormals being normal floats)
		return l.unaryVec(in, o, one, widen)
	}
	if plainRN {
		if vec := cvtF32F64Vec(df, af, ftzIn, ftzOut); vec != nil {
			return l.unaryVec(in, o, one, vec)
		}
		if vec := cvtHalfVec(df, af); vec != nil && !ftzOut {
			return l.unaryVec(in, o, one, vec)
		}
	}
	if irnd != "" && df == af && (df == fp.F32 || df == fp.F64) && !md.sat && !md.relu && !md.satfinite {
		// round to an integral value: floorf, ceilf, truncf, rintf
		key := "cvt" + irnd
		if ftzIn && df == fp.F32 {
			key += ".ftz"
		}
		if vec := simdUnary(key + "." + df.String() + "." + df.String()); vec != nil {
			return l.unaryVec(in, o, one, vec)
		}
	}
	return l.unary(in, o, one)
}

// cvtF32F64Vec returns the warp loop of cvt.f64.f32 (exact: a NaN is
// quieted and keeps its payload, fp.Convert as the hardware does) or
// cvt.rn.f32.f64 (NaN results the canonical NaN), .ftz flushing the f32
// input or result, or nil.
func cvtF32F64Vec(df, af fp.Format, ftzIn, ftzOut bool) func(d, a *lanes) {
	flush := func(v uint64) uint64 {
		if v&0x7f800000 == 0 {
			v &= 0x80000000
		}
		return v
	}
	switch {
	case df == fp.F64 && af == fp.F32:
		key := "cvt.f64.f32"
		if ftzIn {
			key = "cvt.ftz.f64.f32"
		}
		if v := simdUnary(key); v != nil {
			return v
		}
		return func(d, a *lanes) {
			for i, v := range a {
				v &= 0xffffffff
				if ftzIn {
					v = flush(v)
				}
				d[i] = math.Float64bits(float64(math.Float32frombits(uint32(v))))
			}
		}
	case df == fp.F32 && af == fp.F64:
		key := "cvt.rn.f32.f64"
		if ftzOut {
			key = "cvt.rn.ftz.f32.f64"
		}
		if v := simdUnary(key); v != nil {
			return v
		}
		return func(d, a *lanes) {
			for i, v := range a {
				x := math.Float64frombits(v)
				r := uint64(math.Float32bits(float32(x)))
				if x != x {
					r = 0x7fffffff
				}
				if ftzOut {
					r = flush(r)
				}
				d[i] = r
			}
		}
	}
	return nil
}

// lowerCvtNarrow converts to and from the packed 8/6/4-bit formats
// (Description and Semantics of 9.7.9.21): from two f32 a, b (a to the
// upper element) or one f16x2 (upper half to the upper element), always
// .rn.satfinite; to f16x2 or bf16x2, exactly (the upper element to the
// upper half). .relu makes negative results +0 and NaN results the
// canonical NaN.
func lowerCvtNarrow(l *lowering, in *ir.Inst, o *Op) error {
	var ts []string
	for _, m := range in.Mods {
		if _, ok := narrowTypes[m]; ok || m == ".f32" || m == ".f16x2" || m == ".bf16x2" {
			ts = append(ts, m)
		}
	}
	if len(ts) != 2 {
		return l.unsupported(in, "")
	}
	relu := hasMod(in, ".relu")
	reluOf := func(f fp.Format, v uint64) uint64 {
		switch {
		case !relu:
		case f.IsNaN(v):
			return f.CanonicalNaN()
		case f.Signbit(v):
			return f.Zero(false)
		}
		return v
	}
	if n, ok := narrowTypes[ts[0]]; ok { // to a narrow format
		to := func(src fp.Format, v uint64) uint64 {
			return reluOf(n.f, fp.ConvertSatFinite(n.f, src, v, fp.RN))
		}
		switch ts[1] {
		case ".f32":
			return l.binary(in, o, func(a, b uint64) uint64 {
				return to(fp.F32, a&0xffffffff)<<n.slot | to(fp.F32, b&0xffffffff)
			})
		case ".f16x2":
			return l.unary(in, o, func(a uint64) uint64 {
				return to(fp.F16, a>>16&0xffff)<<n.slot | to(fp.F16, a&0xffff)
			})
		}
		return l.unsupported(in, "types")
	}
	n, ok := narrowTypes[ts[1]]
	if !ok {
		return l.unsupported(in, "types")
	}
	dst := fp.F16
	if ts[0] == ".bf16x2" {
		dst = fp.BF16
	} else if ts[0] != ".f16x2" {
		return l.unsupported(in, "types")
	}
	elem := uint64(1)<<uint(n.f.Width()) - 1
	from := func(v uint64) uint64 { return reluOf(dst, fp.Convert(dst, n.f, v&elem, fp.RN)) }
	return l.unary(in, o, func(a uint64) uint64 { return from(a>>n.slot)<<16 | from(a) })
}

// ue8m0 (5.2.3) is an unsigned power of two, 2^(e-127) for e = 0..254,
// with 0xff the NaN. The manual defines conversions to it only with .rz
// and .rp and says nothing of zero or negative inputs; ptxvm converts the
// magnitude (the sign is dropped, as the format has none) and maps zero to
// the smallest value, 0x00, which is what truncating the exponent gives.
// Overflow (and infinity) gives NaN, or 0xfe (2^127) with .satfinite.
func ue8m0From(f fp.Format, v uint64, up, satfinite bool) uint64 {
	switch {
	case f.IsNaN(v):
		return 0xff
	case f.IsInf(v):
		if satfinite {
			return 0xfe
		}
		return 0xff
	}
	// f is f32 or bf16: 8 exponent bits with bias 127, like ue8m0
	e := v >> uint(f.Man) & 0xff
	m := v & (1<<uint(f.Man) - 1)
	if up {
		switch {
		case e == 0: // subnormal: above 2^-127 rounds up to 2^-126
			if m > 1<<uint(f.Man-1) {
				e = 1
			}
		case m != 0:
			e++
		}
	}
	if e == 0xff {
		if satfinite {
			return 0xfe
		}
		return 0xff
	}
	return e
}

// ue8m0ToBF16 widens exactly: 2^-127 is the bf16 subnormal 0x0040.
func ue8m0ToBF16(e uint64) uint64 {
	switch e {
	case 0xff:
		return fp.BF16.CanonicalNaN()
	case 0:
		return 0x0040
	}
	return e << 7
}

// cvt.frnd3{.satfinite}.ue8m0x2.f32 d, a, b; cvt.frnd3{.satfinite}.ue8m0x2.bf16x2
// d, a; cvt.rn.bf16x2.ue8m0x2 d, a (9.7.9.21; the upper element goes to
// and comes from the upper half).
func lowerCvtUE8M0(l *lowering, in *ir.Inst, o *Op) error {
	up := hasMod(in, ".rp")
	sat := hasMod(in, ".satfinite")
	var ts []string
	for _, m := range in.Mods {
		if m == ".ue8m0x2" || m == ".f32" || m == ".bf16x2" {
			ts = append(ts, m)
		}
	}
	switch {
	case len(ts) == 2 && ts[0] == ".ue8m0x2" && ts[1] == ".f32":
		if !up && !hasMod(in, ".rz") {
			return l.unsupported(in, "rounding")
		}
		return l.binary(in, o, func(a, b uint64) uint64 {
			return ue8m0From(fp.F32, a&0xffffffff, up, sat)<<8 | ue8m0From(fp.F32, b&0xffffffff, up, sat)
		})
	case len(ts) == 2 && ts[0] == ".ue8m0x2" && ts[1] == ".bf16x2":
		if !up && !hasMod(in, ".rz") {
			return l.unsupported(in, "rounding")
		}
		return l.unary(in, o, func(a uint64) uint64 {
			return ue8m0From(fp.BF16, a>>16&0xffff, up, sat)<<8 | ue8m0From(fp.BF16, a&0xffff, up, sat)
		})
	case len(ts) == 2 && ts[0] == ".bf16x2" && ts[1] == ".ue8m0x2":
		return l.unary(in, o, func(a uint64) uint64 {
			return ue8m0ToBF16(a>>8&0xff)<<16 | ue8m0ToBF16(a&0xff)
		})
	}
	return l.unsupported(in, "types")
}

// cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits: a goes to the
// upper half with the random bits of rbits' upper 16 bits (13 of them for
// f16), b to the lower half with the lower 16 bits.
func lowerCvtStochastic(l *lowering, in *ir.Inst, o *Op, dt, at string) error {
	if at != ".f32" || (dt != ".f16x2" && dt != ".bf16x2") || len(in.Operands) != 4 {
		return l.unsupported(in, "stochastic rounding to "+dt)
	}
	df := fp.BF16
	rmask := uint64(0xffff)
	if dt == ".f16x2" {
		df, rmask = fp.F16, 0x1fff
	}
	md := cvtMods(in, df)
	one := func(v, r uint64) uint64 { // .satfinite and .relu act in md.out
		return md.out(fp.ConvertStochastic(df, fp.F32, v&0xffffffff, r&rmask))
	}
	return l.ternary(in, o, func(a, b, r uint64) uint64 {
		return one(a, r>>16)<<16 | one(b, r)
	})
}

// cvtInt32ToFloatVec returns the warp loop of cvt.rn.f32/f64 from an
// integer of 32 bits or fewer (an 8- or 16-bit one: a pixel), or nil:
// Go's conversions round to nearest even (exact for f64, and for f32 from
// 16 bits or fewer), and an integer result is never subnormal, so .ftz
// changes nothing.
func cvtInt32ToFloatVec(df fp.Format, it intType) func(d, a *lanes) {
	if it.bits > 32 || df != fp.F32 && df != fp.F64 {
		return nil
	}
	if it.bits < 32 {
		mask := it.mask()
		if v := simdUnary(strings.Replace(key32(df), "?", narrowName(it), 1)); v != nil {
			return v // (extended from the type's width in the loop)
		}
		if df == fp.F32 {
			return func(d, a *lanes) {
				for i := range d {
					x := float32(a[i] & mask)
					if it.signed {
						x = float32(it.signedVal(a[i]))
					}
					d[i] = uint64(math.Float32bits(x))
				}
			}
		}
		return func(d, a *lanes) {
			for i := range d {
				x := float64(a[i] & mask)
				if it.signed {
					x = float64(it.signedVal(a[i]))
				}
				d[i] = math.Float64bits(x)
			}
		}
	}
	if v := simdUnary(strings.Replace(key32(df), "?", int32Name(it), 1)); v != nil {
		return v
	}
	switch {
	case df == fp.F32 && it.signed:
		return func(d, a *lanes) {
			for i := range d {
				d[i] = uint64(math.Float32bits(float32(int32(a[i]))))
			}
		}
	case df == fp.F32:
		return func(d, a *lanes) {
			for i := range d {
				d[i] = uint64(math.Float32bits(float32(uint32(a[i]))))
			}
		}
	case it.signed:
		return func(d, a *lanes) {
			for i := range d {
				d[i] = math.Float64bits(float64(int32(a[i])))
			}
		}
	default:
		return func(d, a *lanes) {
			for i := range d {
				d[i] = math.Float64bits(float64(uint32(a[i])))
			}
		}
	}
}

// key32 is the AVX2 loop key of cvt to df from a 32-bit integer type, "?"
// in its place.
func key32(df fp.Format) string {
	if df == fp.F32 {
		return "cvt.f32.?"
	}
	return "cvt.f64.?"
}

// firstLoop returns the first of the loops that is not nil, or nil.
func firstLoop(loops ...func(d, a *lanes)) func(d, a *lanes) {
	for _, l := range loops {
		if l != nil {
			return l
		}
	}
	return nil
}

// cvtInt64ToFloatVec returns the warp loop of cvt.rn.f32/f64.s64/u64, or
// nil: Go's integer to float conversions round once, to nearest even.
func cvtInt64ToFloatVec(df fp.Format, it intType) func(d, a *lanes) {
	if it.bits != 64 {
		return nil
	}
	switch {
	case df == fp.F32 && it.signed:
		return func(d, a *lanes) {
			for i, v := range a {
				d[i] = uint64(math.Float32bits(float32(int64(v))))
			}
		}
	case df == fp.F32:
		return func(d, a *lanes) {
			for i, v := range a {
				d[i] = uint64(math.Float32bits(float32(v)))
			}
		}
	case df == fp.F64 && it.signed:
		return func(d, a *lanes) {
			for i, v := range a {
				d[i] = math.Float64bits(float64(int64(v)))
			}
		}
	case df == fp.F64:
		return func(d, a *lanes) {
			for i, v := range a {
				d[i] = math.Float64bits(float64(v))
			}
		}
	}
	return nil
}

// cvtFloatToInt64Vec returns the warp loop of cvt.rzi/rni/rmi/rpi.s64/u64
// from .f32 (.ftz too) or .f64, or nil: the lane rule (the Integer Notes of
// 9.7.9.21: saturating, NaN to 1 << 63) without the per-lane call.
func cvtFloatToInt64Vec(af fp.Format, it intType, irnd string, ftzIn bool) func(d, a *lanes) {
	if it.bits != 64 || af != fp.F32 && af != fp.F64 {
		return nil
	}
	nan := uint64(1) << 63
	if af == fp.F64 {
		return func(d, a *lanes) {
			for i, v := range a {
				x := math.Float64frombits(v)
				if x != x {
					d[i] = nan
					continue
				}
				d[i] = floatToInt(roundInt(irnd, x), it)
			}
		}
	}
	return func(d, a *lanes) {
		for i, v := range a {
			v &= 0xffffffff
			if ftzIn {
				v = fp.F32.FlushSubnormal(v)
			}
			x := float64(math.Float32frombits(uint32(v)))
			if x != x {
				d[i] = nan
				continue
			}
			d[i] = floatToInt(roundInt(irnd, x), it)
		}
	}
}

// cvtFloatToInt32Vec returns the warp loop of cvt.rzi/rni/rmi/rpi to an
// integer of 32 bits or fewer (an 8- or 16-bit one: a pixel) from .f32 or
// .f64, or nil: rounding to an integer (toward zero, to nearest even,
// down, up), saturating (the Integer Notes of 9.7.9.21); NaN converts to
// 0 from .f32 and to 1 << (bits-1) from .f64. A subnormal f32 input
// rounds to 0 toward zero or to nearest with or without .ftz; rounded
// down or up it gives -1 or 1 without .ftz, so .rmi/.rpi with .ftz
// (ftzIn) take the lane path.
func cvtFloatToInt32Vec(af fp.Format, it intType, irnd string, ftzIn bool) func(d, a *lanes) {
	var round func(float64) float64
	switch irnd {
	case ".rzi":
		round = math.Trunc
	case ".rni":
		round = math.RoundToEven
	case ".rmi":
		round = math.Floor
	case ".rpi":
		round = math.Ceil
	}
	if af != fp.F32 && af != fp.F64 || it.bits > 32 || round == nil || ftzIn && (irnd == ".rmi" || irnd == ".rpi") {
		return nil
	}
	// the type's least and greatest values
	lo, hi := 0.0, math.Ldexp(1, it.bits)-1
	if it.signed {
		lo, hi = -math.Ldexp(1, it.bits-1), math.Ldexp(1, it.bits-1)-1
	}
	if it.bits == 32 {
		if v := simdUnary("cvt" + irnd + "." + int32Name(it) + "." + af.String()); v != nil {
			return v
		}
	} else if af == fp.F32 {
		if v := simdUnary("cvt" + irnd + "." + narrowName(it) + ".f32"); v != nil {
			return v // (8 and 16 bits: clamped in f32, then truncated)
		}
	}
	in := func(v uint64) float64 { return float64(f32of(v)) }
	nan := uint64(0)
	if af == fp.F64 {
		in = math.Float64frombits
		nan = it.norm(1 << uint(it.bits-1))
	}
	return func(d, a *lanes) {
		for i := range d {
			x := round(in(a[i]))
			switch {
			case x != x:
				d[i] = nan
			case x <= lo:
				d[i] = it.norm(uint64(int64(lo)))
			case x >= hi:
				d[i] = it.norm(uint64(int64(hi)))
			default:
				d[i] = it.norm(uint64(int64(x)))
			}
		}
	}
}

// narrowName is an 8- or 16-bit integer type's name in the AVX2 loops'
// keys (u16, s8).
func narrowName(it intType) string {
	if it.signed {
		return "s" + strconv.Itoa(it.bits)
	}
	return "u" + strconv.Itoa(it.bits)
}

// int32Name is a 32-bit integer type's name in the AVX2 loops' keys.
func int32Name(it intType) string {
	if it.signed {
		return "s32"
	}
	return "u32"
}
