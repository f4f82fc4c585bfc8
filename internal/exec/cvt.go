package exec

// cvt (9.7.9.21; ptx-isa-9.0-section-9.7.9-data-movement.md is easier to
// read): integer to integer, float to integer with integer rounding, integer
// to float and float to float in every rounding mode through internal/fp,
// .ftz, .sat, .relu, .satfinite, the packed f16x2/bf16x2 destinations,
// and the packed 8-, 6- and 4-bit formats (e4m3x2, e5m2x2, e2m3x2, e3m2x2,
// e2m1x2). The ue8m0x2 conversions, the x4 forms and stochastic rounding
// (.rs) are reported unsupported.

import (
	"math"
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
		if strings.HasPrefix(m, ".ue8m0") || strings.HasSuffix(m, "x4") && m[1] == 'e' {
			return l.unsupported(in, "type "+m)
		}
		if _, ok := narrowTypes[m]; ok {
			return lowerCvtNarrow(l, in, o)
		}
	}
	dt, at := in.Groups[".dtype"], in.Groups[".atype"]
	if dt == "" || at == "" { // the forms that spell their types
		var ts []string
		for _, m := range in.Mods {
			if isTypeMod(m) || m == ".tf32" {
				ts = append(ts, m)
			}
		}
		if len(ts) != 2 {
			return l.unsupported(in, "")
		}
		dt, at = ts[0], ts[1]
	}
	if hasMod(in, ".rs") {
		return l.unsupported(in, "stochastic rounding .rs")
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
		return l.unary(in, o, func(a uint64) uint64 {
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
		})
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
		return l.unary(in, o, func(a uint64) uint64 {
			v := a & it.mask()
			if it.signed {
				v = uint64(it.signedVal(a))
			}
			return md.out(fp.FromInt(df, v, it.signed, mode))
		})
	}
	src, ok1 := parseInt(at)
	dst, ok2 := parseInt(dt)
	if !ok1 || !ok2 {
		return l.unsupported(in, "types "+dt+"."+at[1:])
	}
	return l.unary(in, o, func(a uint64) uint64 {
		v := src.norm(a)
		if sat {
			return dst.norm(saturate(v, src, dst))
		}
		return dst.norm(v)
	})
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
	if dn == 2 { // d[31:16] = convert(a), d[15:0] = convert(b)
		w := uint(df.Width())
		return l.binary(in, o, func(a, b uint64) uint64 { return one(a)<<w | one(b) })
	}
	return l.unary(in, o, one)
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
