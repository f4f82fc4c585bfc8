package casefile

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// typeInfo describes one element type: its size and, for floats, the IEEE
// binary format (exponent and stored-mantissa widths).
type typeInfo struct {
	size  int
	class byte // 'u' unsigned, 's' signed, 'b' untyped bits, 'f' float
	ebits int
	mbits int
}

var types = map[string]typeInfo{
	"u8": {1, 'u', 0, 0}, "u16": {2, 'u', 0, 0}, "u32": {4, 'u', 0, 0}, "u64": {8, 'u', 0, 0},
	"s8": {1, 's', 0, 0}, "s16": {2, 's', 0, 0}, "s32": {4, 's', 0, 0}, "s64": {8, 's', 0, 0},
	"b8": {1, 'b', 0, 0}, "b16": {2, 'b', 0, 0}, "b32": {4, 'b', 0, 0}, "b64": {8, 'b', 0, 0},
	"f16": {2, 'f', 5, 10}, "bf16": {2, 'f', 8, 7}, "f32": {4, 'f', 8, 23}, "f64": {8, 'f', 11, 52},
}

// typeNames lists the element types in the order case-format.md gives them.
const typeNames = "u8 u16 u32 u64 s8 s16 s32 s64 b8 b16 b32 b64 f16 bf16 f32 f64"

// ElemSize returns the size in bytes of one element of the given type
// ("u8" ... "f64", "bf16"), or 0 if type is not an element type.
func ElemSize(typ string) int {
	return types[typ].size
}

// IsFloat reports whether typ is a floating-point element type.
func IsFloat(typ string) bool {
	return types[typ].class == 'f'
}

func (t typeInfo) bits() int { return 8 * t.size }

func (t typeInfo) mask() uint64 {
	if t.size == 8 {
		return math.MaxUint64
	}
	return 1<<t.bits() - 1
}

func (t typeInfo) signBit() uint64 { return 1 << (t.bits() - 1) }

func (t typeInfo) infBits() uint64 { return (1<<t.ebits - 1) << t.mbits }

// nanBits is the canonical quiet NaN: exponent all ones, top mantissa bit set.
func (t typeInfo) nanBits() uint64 { return t.infBits() | 1<<(t.mbits-1) }

func (t typeInfo) isNaN(b uint64) bool {
	return b&t.infBits() == t.infBits() && b&(1<<t.mbits-1) != 0
}

// maxExponentDigits bounds the decimal exponent of a number in a case file,
// so that a value like 1e999999999 cannot make exact arithmetic run away.
const maxExponentDigits = 100000

// numberRat converts JSON number text to an exact rational.
func numberRat(s string) (*big.Rat, error) {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || e > maxExponentDigits || e < -maxExponentDigits {
			return nil, fmt.Errorf("%s: exponent out of range", s)
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("%s is not a number", s)
	}
	return r, nil
}

// parseValue converts one value of a case file (a JSON number, "nan", "inf",
// "-inf", "-0" or a hex bit pattern) to the bits of an element of type t.
// The error is a message without the field's name.
func parseValue(v any, typ string) (uint64, error) {
	t := types[typ]
	switch v := v.(type) {
	case json.Number:
		return numberBits(string(v), typ)
	case string:
		switch v {
		case "nan", "inf", "-inf", "-0":
			if t.class != 'f' {
				return 0, fmt.Errorf("%q is only a value of float types, not %s", v, typ)
			}
			switch v {
			case "nan":
				return t.nanBits(), nil
			case "inf":
				return t.infBits(), nil
			case "-inf":
				return t.signBit() | t.infBits(), nil
			}
			return t.signBit(), nil
		}
		if len(v) >= 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X') {
			return parseHex(v, typ)
		}
		return 0, fmt.Errorf("%q is not a value: want a number, \"nan\", \"inf\", \"-inf\", \"-0\" or \"0x\" and %d hex digits", v, 2*t.size)
	}
	return 0, fmt.Errorf("want a number or a string, not %s", describe(v))
}

// parseHex reads a "0x..." bit pattern, which must have exactly the digits of
// the type's width.
func parseHex(s, typ string) (uint64, error) {
	t := types[typ]
	need := 2 * t.size
	if len(s) < 2 || s[0] != '0' || s[1] != 'x' && s[1] != 'X' {
		return 0, fmt.Errorf("%q is not a hex bit pattern (want \"0x\" and %d hex digits)", s, need)
	}
	digits := s[2:]
	for _, c := range digits {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return 0, fmt.Errorf("%q is not a hex bit pattern (%q is not a hex digit)", s, c)
		}
	}
	if len(digits) != need {
		plural := "s"
		if len(digits) == 1 {
			plural = ""
		}
		return 0, fmt.Errorf("%q has %d hex digit%s, %s needs %d", s, len(digits), plural, typ, need)
	}
	b, _ := strconv.ParseUint(digits, 16, 64) // digits are checked above
	return b, nil
}

// numberBits converts JSON number text to an element of type typ: integers
// must be in range, floats are rounded to nearest, ties to even, from the
// exact decimal value.
func numberBits(s, typ string) (uint64, error) {
	t := types[typ]
	r, err := numberRat(s)
	if err != nil {
		return 0, err
	}
	if t.class == 'f' {
		neg := strings.HasPrefix(s, "-")
		return roundRat(neg, r.Abs(r), t.ebits, t.mbits), nil
	}
	if !r.IsInt() {
		return 0, fmt.Errorf("%s is not an integer (%s is an integer type)", s, typ)
	}
	n := r.Num()
	lo, hi := intRange(t)
	if n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
		return 0, fmt.Errorf("%s is out of range for %s (%v to %v)", s, typ, lo, hi)
	}
	if n.Sign() >= 0 {
		return n.Uint64(), nil
	}
	return uint64(n.Int64()) & t.mask(), nil
}

// intRange is the range of JSON numbers accepted for an integer type: its
// own for u and s types, the union of both for untyped b types.
func intRange(t typeInfo) (lo, hi *big.Int) {
	one := big.NewInt(1)
	w := uint(t.bits())
	lo, hi = new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(one, w), one)
	if t.class != 'u' {
		lo.Neg(new(big.Int).Lsh(one, w-1))
	}
	if t.class == 's' {
		hi.Sub(new(big.Int).Lsh(one, w-1), one)
	}
	return lo, hi
}

// roundRat rounds the non-negative rational r to the nearest value of the
// binary floating-point format with ebits exponent and mbits stored mantissa
// bits (IEEE 754 roundTiesToEven, with gradual underflow and overflow to
// infinity) and returns its bit pattern, negated if neg.
func roundRat(neg bool, r *big.Rat, ebits, mbits int) uint64 {
	var sign uint64
	if neg {
		sign = 1 << (ebits + mbits)
	}
	if r.Sign() == 0 {
		return sign
	}
	inf := sign | (1<<ebits-1)<<mbits
	bias := 1<<(ebits-1) - 1
	emin := 1 - bias
	num, den := r.Num(), r.Denom()
	// 2^(e-1) < r < 2^(e+1); make it 2^e <= r < 2^(e+1).
	e := num.BitLen() - den.BitLen()
	if cmpPow2(num, den, e) < 0 {
		e--
	}
	if e > bias {
		return inf
	}
	if e < emin {
		e = emin // subnormal: the quantum stays that of the smallest normal binade
	}
	// n = r / 2^q with q the weight of the last mantissa bit.
	q := e - mbits
	a, b := new(big.Int).Set(num), new(big.Int).Set(den)
	if q >= 0 {
		b.Lsh(b, uint(q))
	} else {
		a.Lsh(a, uint(-q))
	}
	n, rem := new(big.Int).QuoRem(a, b, new(big.Int))
	switch c := rem.Lsh(rem, 1).Cmp(b); {
	case c > 0, c == 0 && n.Bit(0) == 1:
		n.Add(n, big.NewInt(1))
	}
	m := n.Uint64() // at most 2^(mbits+1)
	if m == 1<<(mbits+1) {
		m >>= 1
		e++
	}
	if e > bias {
		return inf
	}
	if m < 1<<mbits {
		return sign | m // subnormal or zero; e == emin
	}
	return sign | uint64(e+bias)<<mbits | (m - 1<<mbits)
}

// cmpPow2 compares num/den with 2^e.
func cmpPow2(num, den *big.Int, e int) int {
	if e >= 0 {
		return num.Cmp(new(big.Int).Lsh(den, uint(e)))
	}
	return new(big.Int).Lsh(num, uint(-e)).Cmp(den)
}

// roundFloat64 rounds f to the float format of typ (nearest, ties to even)
// and returns the bits. NaN becomes the canonical quiet NaN.
func roundFloat64(f float64, typ string) uint64 {
	t := types[typ]
	switch {
	case math.IsNaN(f):
		return t.nanBits()
	case math.IsInf(f, 1):
		return t.infBits()
	case math.IsInf(f, -1):
		return t.signBit() | t.infBits()
	}
	r := new(big.Rat).SetFloat64(math.Abs(f))
	return roundRat(math.Signbit(f), r, t.ebits, t.mbits)
}

// floatValue returns the value of float bits b of type typ as a float64,
// which holds every f16, bf16 and f32 value exactly.
func floatValue(b uint64, typ string) float64 {
	switch typ {
	case "f64":
		return math.Float64frombits(b)
	case "f32":
		return float64(math.Float32frombits(uint32(b)))
	case "bf16":
		return float64(math.Float32frombits(uint32(b) << 16))
	}
	// f16: 1 sign, 5 exponent, 10 mantissa bits, bias 15.
	exp, mant := int(b>>10&0x1f), float64(b&0x3ff)
	var v float64
	switch exp {
	case 0:
		v = math.Ldexp(mant, -24)
	case 0x1f:
		v = math.Inf(1)
		if mant != 0 {
			v = math.NaN()
		}
	default:
		v = math.Ldexp(1024+mant, exp-25)
	}
	if b&0x8000 != 0 {
		v = -v
	}
	return v
}

// intValue returns integer bits b of type t as a signed or unsigned value
// widened to 64 bits; signed reports which.
func intValue(b uint64, t typeInfo) (v uint64, signed bool) {
	if t.class != 's' {
		return b, false
	}
	shift := 64 - uint(t.bits())
	return uint64(int64(b<<shift) >> shift), true
}

// formatValue writes element bits in the form Write uses: decimal for u and
// s types, hex for b types, the shortest decimal that rounds back for
// floats, and the special strings for NaN, infinities and -0.
func formatValue(b uint64, typ string) any {
	t := types[typ]
	switch t.class {
	case 'u':
		return json.Number(strconv.FormatUint(b, 10))
	case 's':
		v, _ := intValue(b, t)
		return json.Number(strconv.FormatInt(int64(v), 10))
	case 'b':
		return hexBits(b, t.size)
	}
	switch {
	case b == t.nanBits():
		return "nan"
	case t.isNaN(b):
		return hexBits(b, t.size)
	case b == t.infBits():
		return "inf"
	case b == t.signBit()|t.infBits():
		return "-inf"
	case b == t.signBit():
		return "-0"
	}
	return json.Number(formatFloat(b, typ))
}

// formatFloat gives the shortest decimal that converts back to the finite
// float bits b. For f16 and bf16 the shortest float64 decimal suffices: it
// is within half a float64 ulp of a value whose neighbours in the narrow
// format are much further away.
func formatFloat(b uint64, typ string) string {
	bitSize := 64
	if typ == "f32" {
		bitSize = 32
	}
	return strconv.FormatFloat(floatValue(b, typ), 'g', -1, bitSize)
}

func hexBits(b uint64, size int) string {
	return fmt.Sprintf("0x%0*x", 2*size, b)
}
