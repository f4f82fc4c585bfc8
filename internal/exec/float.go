package exec

// Floating-point arithmetic (9.7.3), half precision (9.7.4) and mixed
// precision (9.7.5) through internal/fp: every rounding mode, .ftz, .sat,
// .relu, packed f16x2/bf16x2/f32x2 lanes. The .approx instructions compute
// the function in f64 and round it to nearest in the instruction's format,
// which is within every error bound the manual states (the GPU's results
// differ in the last bits; the manual defines only the bound).

import (
	"math"
	"math/bits"
	"strings"

	"github.com/ptxvm/ptxvm/internal/fp"
	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/sharedcache"
)

func init() {
	register(lowerFloat, "sqrt", "rcp", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh")
	register(lowerTestp, "testp")
}

// floatType returns the element format and lane count of a float type.
func floatType(t string) (fp.Format, int, bool) {
	switch t {
	case ".f64":
		return fp.F64, 1, true
	case ".f32":
		return fp.F32, 1, true
	case ".f16":
		return fp.F16, 1, true
	case ".bf16":
		return fp.BF16, 1, true
	case ".f16x2":
		return fp.F16, 2, true
	case ".bf16x2":
		return fp.BF16, 2, true
	case ".f32x2":
		return fp.F32, 2, true
	}
	return fp.Format{}, 0, false
}

// roundingOf returns the instruction's floating-point rounding modifier.
func roundingOf(in *ir.Inst) (fp.Mode, bool) {
	for _, m := range in.Mods {
		if r, ok := fp.ParseMode(m); ok && m != "" {
			return r, true
		}
	}
	return fp.RN, false
}

// floatMods applies the input and result modifiers of an instruction.
type floatMods struct {
	f               fp.Format
	ftz, sat, relu  bool
	width, elemMask uint64
}

func newFloatMods(in *ir.Inst, f fp.Format) floatMods {
	return floatMods{
		f:   f,
		ftz: hasMod(in, ".ftz"), sat: hasMod(in, ".sat"), relu: hasMod(in, ".relu"),
		width: uint64(f.Width()), elemMask: 1<<uint(f.Width()) - 1,
	}
}

func (m *floatMods) in(v uint64) uint64 {
	v &= m.elemMask
	if m.ftz {
		v = m.f.FlushSubnormal(v)
	}
	return v
}

// out applies .ftz, then .sat (clamp to [0, 1], NaN to +0) and .relu
// (negative to +0, NaN to the canonical NaN), 9.7.3.3 and 9.7.4.4.
func (m *floatMods) out(v uint64) uint64 {
	f := m.f
	if m.ftz {
		v = f.FlushSubnormal(v)
	}
	if m.sat {
		switch {
		case f.IsNaN(v), f.Signbit(v):
			return f.Zero(false)
		case v > f.One():
			return f.One()
		}
	}
	if m.relu {
		switch {
		case f.IsNaN(v):
			return f.CanonicalNaN()
		case f.Signbit(v):
			return f.Zero(false)
		}
	}
	return v
}

// lanes lifts an element operation to a packed register of n lanes.
func (m *floatMods) lanes(n int, fn func(a, b, c uint64) uint64) func(a, b, c uint64) uint64 {
	if n == 1 {
		return func(a, b, c uint64) uint64 { return m.out(fn(m.in(a), m.in(b), m.in(c))) }
	}
	w := uint(m.width)
	return func(a, b, c uint64) uint64 {
		var r uint64
		for k := uint(0); k < uint(n); k++ {
			s := k * w
			r |= m.out(fn(m.in(a>>s), m.in(b>>s), m.in(c>>s))) << s
		}
		return r
	}
}

func lowerFloat(l *lowering, in *ir.Inst, o *Op) error {
	if at := in.Groups[".atype"] + in.Groups[".abtype"]; at != "" && hasMod(in, ".f32") {
		return lowerMixed(l, in, o, at)
	}
	t := o.typ
	if t == "" && hasMod(in, ".f32x2") { // the .f32x2 forms name no type group
		t = ".f32x2"
	}
	f, n, ok := floatType(t)
	if !ok {
		return l.unsupported(in, "type "+t)
	}
	if hasMod(in, ".oob") {
		return l.unsupported(in, "modifier .oob (the manual does not give the OOB-NaN encoding)")
	}
	mode, _ := roundingOf(in)
	approx := hasMod(in, ".approx") || hasMod(in, ".full")
	if in.Opcode == "div" && !approx && !hasRounding(in) && f == fp.F32 {
		// PTX 1.0-1.3: div.f32 is div.approx.ftz.f32 (9.7.3.8)
		in = withMods(in, ".approx", ".ftz")
		approx = true
	}
	sm1x := l.p.Module.Target.SM < 20
	if sm1x && f == fp.F32 && !hasMod(in, ".ftz") {
		// sm_1x: f32 instructions flush subnormal inputs and results
		// (the "sm_1x" Subnormal numbers notes of 9.7.3)
		in = withMods(in, ".ftz")
	}
	if sm1x && f == fp.F32 && in.Opcode == "mad" && !hasRounding(in) {
		return lowerMadSM1x(l, in, o)
	}
	key := floatPlanKey{op: in.Opcode, mods: strings.Join(in.Mods, "\x00"), f: f, n: n, mode: mode, approx: approx,
		operands: len(in.Operands), simd: simdEnabled}
	pl := floatPlans.Get(key, func() *floatPlan { return planFloat(in, f, n, mode, approx) })
	switch {
	case pl == nil:
		return l.unsupported(in, "")
	case pl.arity != len(in.Operands)-1:
		return l.unsupported(in, "operands")
	case pl.arity == 1 && pl.vec1 != nil:
		return l.unaryVec(in, o, pl.fn1, pl.vec1)
	case pl.arity == 1:
		return l.unary(in, o, pl.fn1)
	case pl.arity == 2:
		return l.binaryVec(in, o, pl.lane2, pl.vec)
	}
	return l.ternaryVec(in, o, pl.fn, pl.vec3)
}

// A floatPlan is what lowerFloat chooses for an instruction from its
// opcode, modifiers, format, lane count, rounding and operand count alone
// (and whether the AVX2 loops are on): the lane functions and whole-warp
// loops of its arity. Its functions read nothing they do not own, so every
// op of that shape, in any program, shares them (floatPlans): working them
// out was most of a float-heavy module's lowering (sgemmreg.ptx).
type floatPlan struct {
	arity int
	fn1   func(a uint64) uint64 // arity 1
	vec1  func(d, a *lanes)
	lane2 func(a, b uint64) uint64 // arity 2
	vec   vecBin
	fn    func(a, b, c uint64) uint64 // arity 3
	vec3  func(d, a, b, c *lanes)
}

type floatPlanKey struct {
	op, mods string
	f        fp.Format
	n        int
	mode     fp.Mode
	approx   bool
	operands int
	simd     bool // (tests turn the AVX2 loops off)
}

var floatPlans = sharedcache.New[floatPlanKey, *floatPlan]()

// planFloat works out in's floatPlan; nil when the operation has no lane
// function (unsupported).
func planFloat(in *ir.Inst, f fp.Format, n int, mode fp.Mode, approx bool) *floatPlan {
	md := newFloatMods(in, f)
	elem, arity := floatElem(in, f, mode, approx)
	if elem == nil {
		return nil
	}
	pl := &floatPlan{arity: arity}
	if arity != len(in.Operands)-1 {
		return pl // (lowerFloat refuses it)
	}
	fn := md.lanes(n, elem)
	var vec vecBin
	var lane2 func(a, b uint64) uint64 // the two-operand lane function, when there is a direct one
	if n == 1 && !md.ftz && !md.sat && !md.relu && mode == fp.RN {
		if fast := fastFloat(in.Opcode, f, approx); fast != nil {
			fn = fast
		}
		if !approx {
			lane2, vec = floatPair(in.Opcode, f)
		}
	}
	var half3 func(d, a, b, c *lanes)
	if f == fp.F16 && !md.ftz && !md.sat && !md.relu && mode == fp.RN && !approx {
		// (half.go: rounded once, on the host's floats)
		if hf, hv, h3 := halfFloat(in.Opcode, n); hf != nil {
			fn, vec, half3 = hf, hv, h3
		}
	}
	plainFtz32 := f == fp.F32 && n == 1 && md.ftz && !md.sat && !md.relu && mode == fp.RN && !approx
	if plainFtz32 && arity == 2 && in.Opcode != "min" && in.Opcode != "max" { // (add, sub, mul, div; min and max below)
		vec, _ = simdBinary(in.Opcode + ".ftz.f32")
	}
	if (in.Opcode == "min" || in.Opcode == "max") && (f == fp.F32 || f == fp.F64) && n == 1 && arity == 2 && !md.relu &&
		!hasMod(in, ".NaN") && !hasMod(in, ".abs") && !hasMod(in, ".xorsign") {
		// min/max.f32 (.ftz too) and .f64 without .NaN, .abs, .xorsign
		key := in.Opcode + "." + f.String()
		if md.ftz {
			key = in.Opcode + ".ftz." + f.String()
		}
		vec, _ = simdBinary(key)
	}
	directed := directedKey(in.Opcode, f, mode, md.ftz)
	if directed != "" && n == 1 && !md.sat && !md.relu && !approx && arity == 2 {
		vec, _ = simdBinary(directed)
	}
	if in.Opcode == "div" && approx && f == fp.F32 && n == 1 && !md.sat && !md.relu {
		// div.approx and div.full (approxFn, with div.approx's quirk)
		key := "divfull"
		if hasMod(in, ".approx") {
			key = "divapprox"
		}
		if md.ftz {
			key += ".ftz"
		}
		vec, _ = simdBinary(key + ".f32")
	}
	switch arity {
	case 1:
		pl.fn1 = func(a uint64) uint64 { return fn(a, 0, 0) }
		if (f == fp.F32 || f == fp.F64) && n == 1 && !approx && !md.ftz && !md.sat && !md.relu && mode == fp.RN {
			if vec := simdUnary(in.Opcode + "." + f.String()); vec != nil {
				pl.vec1 = vec
				return pl
			}
		}
		if (in.Opcode == "neg" || in.Opcode == "abs") && n == 1 && !md.sat && !md.relu {
			if vec := negAbsVec(in.Opcode, f, md.ftz); vec != nil {
				pl.vec1 = vec
				return pl
			}
		}
		if f == fp.F32 && n == 1 && approx && !md.sat && !md.relu && hasMod(in, ".approx") {
			pl.vec1 = approxVecF32(in.Opcode, md.ftz)
		}
		return pl
	case 2:
		if lane2 == nil {
			lane2 = func(a, b uint64) uint64 { return fn(a, b, 0) }
		}
		pl.lane2, pl.vec = lane2, vec
		return pl
	}
	var vec3 func(d, a, b, c *lanes)
	if vec.rr != nil || n == 1 && !md.ftz && !md.sat && !md.relu && mode == fp.RN && !approx {
		vec3 = fmaVec(in.Opcode, f)
	}
	if plainFtz32 && (in.Opcode == "fma" || in.Opcode == "mad") {
		vec3 = simdTernary("fma.ftz.f32")
	}
	if directed != "" && n == 1 && !md.sat && !md.relu && (in.Opcode == "fma" || in.Opcode == "mad") {
		vec3 = simdTernary("fma" + strings.TrimPrefix(directed, in.Opcode))
	}
	if half3 != nil {
		vec3 = half3
	}
	pl.fn, pl.vec3 = fn, vec3
	return pl
}

// directedKey names the AVX2 loop of add, sub, mul, div, fma or mad under
// .rz, .rm or .rp on f32 (.ftz too) or f64 ("add.rz.f32",
// "fma.rm.ftz.f32"; simdgen runs them under the MXCSR rounding control),
// or is "" for other modes and types. The caller checks the other
// modifiers.
func directedKey(op string, f fp.Format, mode fp.Mode, ftz bool) string {
	var m string
	switch mode {
	case fp.RZ:
		m = ".rz"
	case fp.RM:
		m = ".rm"
	case fp.RP:
		m = ".rp"
	}
	if m == "" || f != fp.F32 && f != fp.F64 {
		return ""
	}
	switch op {
	case "add", "sub", "mul", "div", "fma", "mad":
	default:
		return ""
	}
	if ftz && f == fp.F32 {
		m += ".ftz"
	}
	return op + m + "." + f.String()
}

func hasRounding(in *ir.Inst) bool {
	_, ok := roundingOf(in)
	return ok
}

// floatElem returns the operation on one element and its arity.
func floatElem(in *ir.Inst, f fp.Format, mode fp.Mode, approx bool) (func(a, b, c uint64) uint64, int) {
	switch in.Opcode {
	case "add":
		return func(a, b, _ uint64) uint64 { return f.Add(a, b, mode) }, 2
	case "sub":
		return func(a, b, _ uint64) uint64 { return f.Sub(a, b, mode) }, 2
	case "mul":
		return func(a, b, _ uint64) uint64 { return f.Mul(a, b, mode) }, 2
	case "div":
		if approx && hasMod(in, ".approx") && f == fp.F32 {
			// d = a * (1/b): for 2^126 < |b| < 2^128, NaN when a is
			// infinite and otherwise a zero of the quotient's sign (9.7.3.8)
			q := approxFn(f, func(x, y float64) float64 { return x / y })
			return func(a, b, _ uint64) uint64 {
				if y := math.Abs(f.ToFloat64(b)); y > 0x1p126 && y < 0x1p128 {
					if f.IsInf(a) {
						return f.CanonicalNaN()
					}
					if !f.IsNaN(a) {
						return f.Zero(f.Signbit(a) != f.Signbit(b))
					}
				}
				return q(a, b, 0)
			}, 2
		}
		if approx {
			return approxFn(f, func(x, y float64) float64 { return x / y }), 2
		}
		return func(a, b, _ uint64) uint64 { return f.Div(a, b, mode) }, 2
	case "fma", "mad":
		return func(a, b, c uint64) uint64 { return f.Fma(a, b, c, mode) }, 3
	case "neg":
		return func(a, _, _ uint64) uint64 { return f.Neg(a) }, 1
	case "abs":
		return func(a, _, _ uint64) uint64 { return f.Abs(a) }, 1
	case "min", "max":
		return minMax(in, f)
	case "sqrt":
		if approx {
			return approxFn(f, func(x, _ float64) float64 { return math.Sqrt(x) }), 1
		}
		return func(a, _, _ uint64) uint64 { return f.Sqrt(a, mode) }, 1
	case "rcp", "rsqrt":
		if approx && f == fp.F64 && hasMod(in, ".ftz") {
			return approxF64Hi(in.Opcode), 1
		}
	}
	switch in.Opcode {
	case "rcp":
		if approx {
			return approxFn(f, func(x, _ float64) float64 { return 1 / x }), 1
		}
		return func(a, _, _ uint64) uint64 { return f.Div(f.One(), a, mode) }, 1
	case "rsqrt":
		return approxFn(f, func(x, _ float64) float64 { return 1 / math.Sqrt(x) }), 1
	case "ex2":
		if f == fp.F32 { // (approx_math.go)
			return approxFn(f, func(x, _ float64) float64 { return exp2Approx(x) }), 1
		}
		return approxFn(f, func(x, _ float64) float64 { return math.Exp2(x) }), 1
	case "lg2":
		if f == fp.F32 {
			return approxFn(f, func(x, _ float64) float64 { return log2Approx(x) }), 1
		}
		return approxFn(f, func(x, _ float64) float64 { return math.Log2(x) }), 1
	case "sin":
		if f == fp.F32 {
			return approxFn(f, func(x, _ float64) float64 { return sinApprox(x) }), 1
		}
		return approxFn(f, func(x, _ float64) float64 { return math.Sin(x) }), 1
	case "cos":
		if f == fp.F32 {
			return approxFn(f, func(x, _ float64) float64 { return cosApprox(x) }), 1
		}
		return approxFn(f, func(x, _ float64) float64 { return math.Cos(x) }), 1
	case "tanh":
		return approxFn(f, func(x, _ float64) float64 { return math.Tanh(x) }), 1
	}
	return nil, 0
}

// approxFn evaluates an approximate instruction in f64 and rounds the
// result to nearest in the format; NaN results are the canonical NaN
// (rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 name 0x7fffffff00000000,
// 9.7.3.14; the others leave the NaN unspecified).
func approxFn(f fp.Format, fn func(x, y float64) float64) func(a, b, c uint64) uint64 {
	return func(a, b, _ uint64) uint64 {
		r := fn(f.ToFloat64(a), f.ToFloat64(b))
		if math.IsNaN(r) {
			if f == fp.F64 {
				return 0x7fffffff00000000
			}
			return f.CanonicalNaN()
		}
		return f.FromFloat64(r, fp.RN)
	}
}

// minMax is min/max (9.7.3.11-12, 9.7.4.7-8): NaN operands are ignored
// unless .NaN is given, -0 orders below +0, .abs compares magnitudes and
// .xorsign gives the result the XOR of the operands' signs.
func minMax(in *ir.Inst, f fp.Format) (func(a, b, c uint64) uint64, int) {
	isMax := in.Opcode == "max"
	nan, abs, xorsign := hasMod(in, ".NaN"), hasMod(in, ".abs"), hasMod(in, ".xorsign")
	three := len(in.Operands) == 4
	two := func(x, y uint64) uint64 {
		if nan && (f.IsNaN(x) || f.IsNaN(y)) {
			return f.CanonicalNaN()
		}
		return pickMinMax(f, isMax, x, y)
	}
	arity := 2
	if three {
		arity = 3
	}
	return func(a, b, c uint64) uint64 {
		sign := f.Signbit(a) != f.Signbit(b)
		if abs {
			a, b, c = f.Abs(a), f.Abs(b), f.Abs(c)
		}
		d := two(a, b)
		if three {
			d = two(d, c)
		}
		if xorsign && !three && !f.IsNaN(d) {
			d = f.Abs(d)
			if sign {
				d = f.Neg(d)
			}
		}
		return d
	}, arity
}

// fastFloat returns Go's own operations for the f32 and f64 round-to-
// nearest forms without modifiers: the same results as internal/fp,
// without its generality (internal/fp's tests cover both paths).
func fastFloat(op string, f fp.Format, approx bool) func(a, b, c uint64) uint64 {
	if approx || (f != fp.F32 && f != fp.F64) {
		return nil
	}
	if fn, _ := floatPair(op, f); fn != nil {
		return func(a, b, _ uint64) uint64 { return fn(a, b) }
	}
	switch op {
	case "fma", "mad":
		if f == fp.F32 {
			return func(a, b, c uint64) uint64 { return fp.F32.Fma(a&0xffffffff, b&0xffffffff, c&0xffffffff, fp.RN) }
		}
		return func(a, b, c uint64) uint64 { return fix64(of64(math.FMA(f64(a), f64(b), f64(c))), a, b, c) }
	}
	return nil
}

// fix64 replaces a NaN result with the one the GPU returns.
func fix64(r uint64, ops ...uint64) uint64 {
	if r&^(1<<63) > 0x7ff0000000000000 {
		return fp.F64.NaNResult(ops...)
	}
	return r
}

// lowerMixed is 9.7.5: add/sub/fma .f32 with .f16 or .bf16 inputs a (and
// b), converted exactly to f32 before the operation.
func lowerMixed(l *lowering, in *ir.Inst, o *Op, at string) error {
	src, _, ok := floatType(at)
	if !ok {
		return l.unsupported(in, "type "+at)
	}
	mode, _ := roundingOf(in)
	md := newFloatMods(in, fp.F32)
	conv := func(v uint64) uint64 { return fp.Convert(fp.F32, src, v&(1<<uint(src.Width())-1), fp.RN) }
	f := fp.F32
	switch in.Opcode {
	case "add":
		return l.binary(in, o, func(a, c uint64) uint64 { return md.out(f.Add(conv(a), c&0xffffffff, mode)) })
	case "sub":
		return l.binary(in, o, func(a, c uint64) uint64 { return md.out(f.Sub(conv(a), c&0xffffffff, mode)) })
	case "fma":
		return l.ternary(in, o, func(a, b, c uint64) uint64 {
			return md.out(f.Fma(conv(a), conv(b), c&0xffffffff, mode))
		})
	}
	return l.unsupported(in, "")
}

// testp.op.type p, a (9.7.3.1); zeros count as normal.
func lowerTestp(l *lowering, in *ir.Inst, o *Op) error {
	f, n, ok := floatType(typeOf(in))
	if !ok || n != 1 {
		return l.unsupported(in, "type "+typeOf(in))
	}
	var test func(v uint64) bool
	switch in.Groups[".op"] {
	case ".finite":
		test = func(v uint64) bool { return !f.IsNaN(v) && !f.IsInf(v) }
	case ".infinite":
		test = f.IsInf
	case ".number":
		test = func(v uint64) bool { return !f.IsNaN(v) }
	case ".notanumber":
		test = f.IsNaN
	case ".normal":
		test = func(v uint64) bool { return !f.IsNaN(v) && !f.IsInf(v) && !f.IsSubnormal(v) }
	case ".subnormal":
		test = f.IsSubnormal
	default:
		return l.unsupported(in, "test "+in.Groups[".op"])
	}
	p, _, err := l.pred(in, 0)
	if err != nil {
		return err
	}
	a, err := l.src(in, 1)
	if err != nil {
		return err
	}
	mask64 := uint64(1)<<uint(f.Width()) - 1
	if f == fp.F64 {
		mask64 = ^uint64(0)
	}
	o.exec = func(w *Warp, o *Op, mask uint32) {
		fr := w.top()
		var res uint32
		for m := mask; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			if test(fr.regs[int(a)*warpSize+i] & mask64) {
				res |= 1 << i
			}
		}
		fr.preds[p] = fr.preds[p]&^mask | res&mask
	}
	return nil
}

// pickMinMax is min_num/max_num of 9.7.3.11-12 on bit patterns of f (also
// behind redux.sync and atom min/max): a NaN operand is ignored, two NaNs
// give the canonical NaN, and -0 orders below +0. It returns the chosen
// operand.
func pickMinMax(f fp.Format, isMax bool, x, y uint64) uint64 {
	xn, yn := f.IsNaN(x), f.IsNaN(y)
	switch {
	case xn && yn:
		return f.CanonicalNaN()
	case xn:
		return y
	case yn:
		return x
	}
	fx, fy := f.ToFloat64(x), f.ToFloat64(y)
	less := fx < fy || fx == fy && f.Signbit(x) && !f.Signbit(y)
	if less != isMax {
		return x
	}
	return y
}

// withMods returns a copy of in with extra modifiers (for the defaults of
// old PTX versions).
func withMods(in *ir.Inst, mods ...string) *ir.Inst {
	c := *in
	c.Mods = append(append([]string(nil), in.Mods...), mods...)
	return &c
}

// lowerMadSM1x is mad.f32 on sm_1x targets (9.7.3.7): the product in double
// precision with its mantissa truncated to 24 bits and its exponent kept,
// plus c, rounded to nearest f32; when c is a zero the result is that of
// mul and add, i.e. the product rounded to nearest. Subnormal inputs and
// results are flushed.
func lowerMadSM1x(l *lowering, in *ir.Inst, o *Op) error {
	md := newFloatMods(in, fp.F32)
	return l.ternary(in, o, func(a, b, c uint64) uint64 {
		a, b, c = md.in(a), md.in(b), md.in(c)
		if fp.F32.IsZero(c) {
			return md.out(fp.F32.Add(fp.F32.Mul(a, b, fp.RN), c, fp.RN))
		}
		x, y, z := fp.F32.ToFloat64(a), fp.F32.ToFloat64(b), fp.F32.ToFloat64(c)
		p := x * y // exact
		if !math.IsInf(p, 0) && !math.IsNaN(p) {
			p = math.Float64frombits(math.Float64bits(p) &^ (1<<29 - 1))
		}
		r := fp.SumToOdd(p, z)
		if math.IsNaN(r) {
			return md.out(fp.F32.NaNResult(a, b, c))
		}
		return md.out(uint64(math.Float32bits(float32(r))))
	})
}

// f64Hi is the 1.11.20 format of an f64's upper word, with the lower 32 bits
// zero (9.7.3.14, 9.7.3.17).
var f64Hi = fp.Format{Exp: 11, Man: 20, Pad: 32}

// approxF64Hi is rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64: the function
// of a's upper word (1.11.20, the lower 32 bits ignored), rounded to nearest
// in 1.11.20 and placed in d's upper word; NaNs give 0x7fffffff00000000.
func approxF64Hi(op string) func(a, b, c uint64) uint64 {
	fn := func(x float64) float64 { return 1 / x }
	if op == "rsqrt" {
		fn = func(x float64) float64 { return 1 / math.Sqrt(x) }
	}
	return func(a, _, _ uint64) uint64 {
		r := fn(math.Float64frombits(a &^ 0xffffffff))
		if math.IsNaN(r) {
			return 0x7fffffff00000000
		}
		return fp.Convert(f64Hi, fp.F64, math.Float64bits(r), fp.RN)
	}
}
