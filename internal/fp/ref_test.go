package fp

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The reference: math/big computes each operation correctly rounded at a
// chosen precision and mode; the format's exponent range is applied on top
// (subnormal results are computed at the reduced precision their quantum
// allows, overflow follows 6.5.2/IEEE 754 7.4). It shares no code with the
// package's own rounding.

var bigModes = map[Mode]big.RoundingMode{
	RN: big.ToNearestEven, RZ: big.ToZero, RM: big.ToNegativeInf, RP: big.ToPositiveInf, RNA: big.ToNearestAway,
}

// toBig returns the exact value of a finite v.
func toBig(f Format, v uint64) *big.Float {
	neg, e, m := f.fields(v)
	x := new(big.Float).SetPrec(200)
	if e == 0 {
		x.SetMantExp(new(big.Float).SetUint64(m), 1-f.bias()-f.Man)
	} else {
		x.SetMantExp(new(big.Float).SetUint64(m|1<<f.Man), int(e)-f.bias()-f.Man)
	}
	if neg {
		x.Neg(x)
	}
	return x
}

// fromBig encodes a value already rounded to the format's precision and
// quantum (finite, in range) as bits.
func fromBig(f Format, x *big.Float, neg bool) uint64 {
	if x.Sign() == 0 {
		return f.Zero(neg)
	}
	mant := new(big.Float)
	e := x.MantExp(mant) - 1 // leading bit exponent
	if e > f.emax() {
		panic("fromBig: out of range")
	}
	if e < f.emin() {
		// subnormal: fraction = |x| / 2^(emin-Man)
		q := new(big.Float).SetMantExp(new(big.Float).Abs(x), f.Man-f.emin())
		u, acc := q.Uint64()
		if acc != big.Exact {
			panic("fromBig: subnormal not on its quantum")
		}
		return f.pack(neg, 0, u)
	}
	q := new(big.Float).SetMantExp(new(big.Float).Abs(x), f.Man-e)
	u, acc := q.Uint64()
	if acc != big.Exact {
		panic("fromBig: not on the format's precision")
	}
	return f.pack(neg, uint64(e+f.bias()), u&f.manMask())
}

// refRound computes op at the format's precision and range with mode m. op
// must return its result correctly rounded to prec bits in mode rm.
func refRound(f Format, m Mode, op func(prec uint, rm big.RoundingMode) *big.Float) uint64 {
	probe := op(uint(f.Man+64), big.ToZero) // RZ never crosses into the next binade
	if probe.Sign() == 0 {
		panic("refRound: exact zero must be handled by the caller")
	}
	neg := probe.Signbit()
	e := probe.MantExp(nil) - 1
	prec := f.Man + 1
	if e < f.emin() {
		prec -= f.emin() - e
	}
	var r *big.Float
	if prec < 1 {
		// below half the smallest subnormal's quantum: the result is a zero
		// or the smallest subnormal, by mode and by which side of half
		// the quantum it lies on
		tiny := new(big.Float).SetMantExp(big.NewFloat(1), f.emin()-f.Man)
		half := new(big.Float).SetMantExp(big.NewFloat(1), f.emin()-f.Man-1)
		abs := new(big.Float).Abs(probe)
		up := false
		switch m {
		case RZ:
		case RP:
			up = !neg
		case RM:
			up = neg
		default: // to nearest: strictly more than half, or exactly half with RNA
			up = abs.Cmp(half) > 0 || abs.Cmp(half) == 0 && m == RNA && exactOp(op)
		}
		if !up {
			return f.Zero(neg)
		}
		if neg {
			tiny.Neg(tiny)
		}
		return fromBig(f, tiny, neg)
	}
	r = op(uint(prec), bigModes[m])
	if r.Sign() != 0 && r.MantExp(nil)-1 > f.emax() {
		return f.overflow(neg, m)
	}
	return fromBig(f, r, neg)
}

// exactOp reports whether op's result at 2000 bits is exact (used only to
// break an exact tie below the subnormal range).
func exactOp(op func(uint, big.RoundingMode) *big.Float) bool {
	return op(2000, big.ToZero).Acc() == big.Exact
}

// edges returns the special and boundary values of a format.
func edges(f Format) []uint64 {
	var vs []uint64
	for _, neg := range []bool{false, true} {
		for _, v := range []uint64{
			f.Zero(neg), f.pack(neg, 0, 1), f.pack(neg, 0, 2), f.pack(neg, 0, f.manMask()),
			f.pack(neg, 1, 0), f.pack(neg, 1, 1), f.One(), f.pack(neg, uint64(f.bias()), 1),
			f.pack(neg, uint64(f.bias()), f.manMask()), f.pack(neg, uint64(f.bias()+1), 0),
			f.pack(neg, uint64(f.bias()-1), f.manMask()), f.MaxFinite(neg), f.pack(neg, f.expMask()-1, f.manMask()-1),
			f.Inf(neg), f.CanonicalNaN(), f.pack(neg, f.expMask(), 1), f.pack(neg, f.expMask(), 1<<(f.Man-1)|5),
		} {
			if neg {
				v |= f.signBit()
			}
			vs = append(vs, v)
		}
	}
	return vs
}

// randomValue draws bit patterns: uniformly, or near 1.0 so that sums
// cancel and round, or near the subnormal and overflow boundaries.
func randomValue(f Format, r *rand.Rand) uint64 {
	bitsN := f.Width()
	v := r.Uint64() & (1<<bitsN - 1)
	switch r.IntN(4) {
	case 0: // exponent near the bias
		_, _, m := f.fields(v)
		e := uint64(f.bias() + r.IntN(7) - 3)
		v = f.pack(r.IntN(2) == 0, e, m)
	case 1: // tiny
		_, _, m := f.fields(v)
		v = f.pack(r.IntN(2) == 0, uint64(r.IntN(3)), m)
	case 2: // large
		_, _, m := f.fields(v)
		v = f.pack(r.IntN(2) == 0, f.expMask()-1-uint64(r.IntN(3)), m)
	}
	return v &^ (1<<f.Pad - 1)
}

// sameResult compares results: bitwise, except that NaN matches NaN.
func sameResult(f Format, got, want uint64) bool {
	if f.IsNaN(want) {
		return f.IsNaN(got)
	}
	return got == want
}

var formats = []Format{F64, F32, F16, BF16}
var modes = []Mode{RN, RZ, RM, RP, RNA}

// refBinary is the reference for add, sub, mul, div on finite nonzero
// inputs whose exact result is nonzero.
func refBinary(f Format, op string, a, b uint64, m Mode) (uint64, bool) {
	if !isFiniteNonzero(f, a) || !isFiniteNonzero(f, b) {
		return 0, false
	}
	x, y := toBig(f, a), toBig(f, b)
	calc := func(prec uint, rm big.RoundingMode) *big.Float {
		z := new(big.Float).SetPrec(prec).SetMode(rm)
		switch op {
		case "add":
			return z.Add(x, y)
		case "sub":
			return z.Sub(x, y)
		case "mul":
			return z.Mul(x, y)
		case "div":
			return z.Quo(x, y)
		}
		panic(op)
	}
	if calc(4000, big.ToZero).Sign() == 0 {
		return 0, false
	}
	return refRound(f, m, calc), true
}

func isFiniteNonzero(f Format, v uint64) bool {
	return !f.IsNaN(v) && !f.IsInf(v) && !f.IsZero(v)
}

func apply(f Format, op string, a, b uint64, m Mode) uint64 {
	switch op {
	case "add":
		return f.Add(a, b, m)
	case "sub":
		return f.Sub(a, b, m)
	case "mul":
		return f.Mul(a, b, m)
	case "div":
		return f.Div(a, b, m)
	}
	panic(op)
}

func TestBinaryAgainstBig(t *testing.T) {
	n := 3000
	if *longFlag {
		n = 300000
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, f := range formats {
		es := edges(f)
		for _, op := range []string{"add", "sub", "mul", "div"} {
			for _, m := range modes {
				checked := 0
				check := func(a, b uint64) {
					want, ok := refBinary(f, op, a, b, m)
					if !ok {
						return
					}
					checked++
					if got := apply(f, op, a, b, m); !sameResult(f, got, want) {
						t.Fatalf("%s %s%s(%#x, %#x) = %#x, want %#x", f, op, m, a, b, got, want)
					}
				}
				for _, a := range es {
					for _, b := range es {
						check(a, b)
					}
				}
				for range n {
					check(randomValue(f, r), randomValue(f, r))
				}
				if checked < n/2 {
					t.Errorf("%s %s%s: only %d vectors checked", f, op, m, checked)
				}
			}
		}
	}
}

func TestFmaAgainstBig(t *testing.T) {
	n := 3000
	if *longFlag {
		n = 300000
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, f := range formats {
		for _, m := range modes {
			checked := 0
			for range n {
				a, b, c := randomValue(f, r), randomValue(f, r), randomValue(f, r)
				if r.IntN(3) == 0 { // make the addend cancel the product
					p := f.Mul(a, b, RN)
					c = f.Neg(p) ^ uint64(r.IntN(4))<<f.Pad
				}
				if !isFiniteNonzero(f, a) || !isFiniteNonzero(f, b) || !isFiniteNonzero(f, c) {
					continue
				}
				x, y, z := toBig(f, a), toBig(f, b), toBig(f, c)
				p := new(big.Float).SetPrec(400).Mul(x, y) // exact: 2*(Man+1) <= 106 bits
				calc := func(prec uint, rm big.RoundingMode) *big.Float {
					return new(big.Float).SetPrec(prec).SetMode(rm).Add(p, z)
				}
				if calc(4000, big.ToZero).Sign() == 0 {
					continue
				}
				want := refRound(f, m, calc)
				checked++
				if got := f.Fma(a, b, c, m); !sameResult(f, got, want) {
					t.Fatalf("%s fma%s(%#x, %#x, %#x) = %#x, want %#x", f, m, a, b, c, got, want)
				}
			}
			if checked < n/3 {
				t.Errorf("%s fma%s: only %d vectors checked", f, m, checked)
			}
		}
	}
}

// TestSqrtByDefinition checks square roots by the inequalities that define
// the correctly rounded result, in exact arithmetic (math/big's own Sqrt
// does not honour directed rounding): with s the result, p and n its
// neighbours, RZ/RM need s^2 <= x < n^2, RP needs p^2 < x <= s^2, and the
// nearest modes need ((p+s)/2)^2 <= x <= ((s+n)/2)^2. The square root of a
// finite positive value of these formats is always normal and finite.
func TestSqrtByDefinition(t *testing.T) {
	n := 5000
	if *longFlag {
		n = 500000
	}
	r := rand.New(rand.NewPCG(5, 6))
	sq := func(f Format, v uint64) *big.Float {
		x := toBig(f, v)
		return new(big.Float).SetPrec(400).Mul(x, x)
	}
	mid := func(f Format, a, b uint64) *big.Float {
		m := new(big.Float).SetPrec(400).Add(toBig(f, a), toBig(f, b))
		m.SetMantExp(m, -1)
		return m.Mul(m, m)
	}
	for _, f := range formats {
		for _, m := range modes {
			check := func(a uint64) {
				if !isFiniteNonzero(f, a) || f.Signbit(a) {
					return
				}
				x := toBig(f, a)
				s := f.Sqrt(a, m)
				if !isFiniteNonzero(f, s) || f.Signbit(s) || f.IsSubnormal(s) {
					t.Fatalf("%s sqrt%s(%#x) = %#x, want a positive normal", f, m, a, s)
				}
				step := uint64(1) << f.Pad
				p, nx := s-step, s+step
				var ok bool
				switch m {
				case RZ, RM:
					ok = sq(f, s).Cmp(x) <= 0 && x.Cmp(sq(f, nx)) < 0
				case RP:
					ok = sq(f, p).Cmp(x) < 0 && x.Cmp(sq(f, s)) <= 0
				default:
					ok = mid(f, p, s).Cmp(x) <= 0 && x.Cmp(mid(f, s, nx)) <= 0
				}
				if !ok {
					t.Fatalf("%s sqrt%s(%#x) = %#x, not the correctly rounded root", f, m, a, s)
				}
			}
			for _, a := range edges(f) {
				check(a)
			}
			for range n {
				check(randomValue(f, r))
			}
			if f.Width() == 16 { // every 16-bit input
				for a := range uint64(1 << 16) {
					check(a)
				}
			}
		}
	}
}

// TestConvertExhaustive16 converts every f16 and bf16 value to every other
// format and back from f32 in every mode.
func TestConvertExhaustive16(t *testing.T) {
	for _, src := range []Format{F16, BF16} {
		for v := range uint64(1 << 16) {
			for _, dst := range []Format{F64, F32, F16, BF16, TF32} {
				if dst == src {
					continue
				}
				for _, m := range modes {
					got := Convert(dst, src, v, m)
					var want uint64
					switch {
					case src.IsNaN(v):
						if !dst.IsNaN(got) {
							t.Fatalf("%s->%s%s(%#x) = %#x, want NaN", src, dst, m, v, got)
						}
						continue
					case src.IsInf(v):
						want = dst.Inf(src.Signbit(v))
					case src.IsZero(v):
						want = dst.Zero(src.Signbit(v))
					default:
						x := toBig(src, v)
						want = refRound(dst, m, func(prec uint, rm big.RoundingMode) *big.Float {
							return new(big.Float).SetPrec(prec).SetMode(rm).Set(x)
						})
					}
					if got != want {
						t.Fatalf("%s->%s%s(%#x) = %#x, want %#x", src, dst, m, v, got, want)
					}
				}
			}
		}
	}
}

func TestConvertFromWide(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, src := range []Format{F64, F32} {
		for _, dst := range []Format{F32, F16, BF16, TF32} {
			if dst.Width() > src.Width() || dst == src {
				continue
			}
			for _, m := range modes {
				for i := range 20000 {
					var v uint64
					if i < 2000 {
						v = dst.randomAsWide(src, r)
					} else {
						v = randomValue(src, r)
					}
					if !isFiniteNonzero(src, v) {
						continue
					}
					x := toBig(src, v)
					want := refRound(dst, m, func(prec uint, rm big.RoundingMode) *big.Float {
						return new(big.Float).SetPrec(prec).SetMode(rm).Set(x)
					})
					if got := Convert(dst, src, v, m); got != want {
						t.Fatalf("%s->%s%s(%#x) = %#x, want %#x", src, dst, m, v, got, want)
					}
				}
			}
		}
	}
}

// randomAsWide draws a wide value whose magnitude lies in f's range,
// including its subnormals and just beyond its largest finite value.
func (f Format) randomAsWide(wide Format, r *rand.Rand) uint64 {
	e := f.emin() - f.Man - 2 + r.IntN(f.emax()-f.emin()+f.Man+4)
	x := math.Ldexp(1+r.Float64(), e)
	if r.IntN(2) == 0 {
		x = -x
	}
	if wide == F32 {
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(x)
}

func TestFromIntAgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, f := range formats {
		for _, m := range modes {
			for i := range 20000 {
				x := r.Uint64() >> r.IntN(64)
				signed := i%2 == 0
				if x == 0 {
					continue
				}
				b := new(big.Int).SetUint64(x)
				if signed && int64(x) < 0 {
					b.SetInt64(int64(x))
				}
				bf := new(big.Float).SetInt(b)
				want := refRound(f, m, func(prec uint, rm big.RoundingMode) *big.Float {
					return new(big.Float).SetPrec(prec).SetMode(rm).Set(bf)
				})
				if got := FromInt(f, x, signed, m); got != want {
					t.Fatalf("%s from %#x (signed %v)%s = %#x, want %#x", f, x, signed, m, got, want)
				}
			}
		}
	}
}

// TestExactPathAgainstBig runs the comparisons with the fast paths off, so
// the math/big path is checked for every format and mode on its own.
func TestExactPathAgainstBig(t *testing.T) {
	exactOnly = true
	defer func() { exactOnly = false }()
	t.Run("binary", TestBinaryAgainstBig)
	t.Run("fma", TestFmaAgainstBig)
	t.Run("sqrt", TestSqrtByDefinition)
}
