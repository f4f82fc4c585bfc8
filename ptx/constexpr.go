package ptx

// Constant-expression evaluation (ptx-isa-9.0.txt 4.5.1-4.5.6).
//
// Where the prose of 4.5.5 and the summary table of 4.5.6 disagree, the prose
// wins and the table only fills gaps: `&`, `|` and `^` follow the usual
// arithmetic conversions (prose) rather than always giving .u64 (table), and
// `%`, whose result type the prose leaves open, gives .s64 (table).

import (
	"fmt"
	"math"
	"strconv"
)

// ConstKind is the type of a constant-expression value.
type ConstKind uint8

const (
	ConstS64 ConstKind = iota // signed 64-bit integer
	ConstU64                  // unsigned 64-bit integer
	ConstF64                  // double-precision float
	// ConstF32 is a 0f literal: an exact single-precision value that may
	// stand alone but not be an operand of any operator (4.5.2).
	ConstF32
)

var constKindNames = [...]string{".s64", ".u64", ".f64", ".f32"}

func (k ConstKind) String() string {
	if int(k) < len(constKindNames) {
		return constKindNames[k]
	}
	return "ConstKind(" + strconv.Itoa(int(k)) + ")"
}

// Const is the value of a constant expression.
type Const struct {
	Kind ConstKind
	// Bits is the two's-complement value of an integer, the IEEE-754 bits
	// of an f64, or the IEEE-754 bits of an f32 in the low 32 bits.
	Bits uint64
}

// S64Const, U64Const, F64Const and F32Const make constants of each kind.
func S64Const(v int64) Const     { return Const{ConstS64, uint64(v)} }
func U64Const(v uint64) Const    { return Const{ConstU64, v} }
func F64Const(v float64) Const   { return Const{ConstF64, math.Float64bits(v)} }
func F32Const(bits uint32) Const { return Const{ConstF32, uint64(bits)} }

// IsInt reports whether c is an integer (.s64 or .u64).
func (c Const) IsInt() bool { return c.Kind == ConstS64 || c.Kind == ConstU64 }

// IsFloat reports whether c is a floating-point value (.f64 or .f32).
func (c Const) IsFloat() bool { return c.Kind == ConstF64 || c.Kind == ConstF32 }

// Int64 returns the integer bits of c as a signed value.
func (c Const) Int64() int64 { return int64(c.Bits) }

// Uint64 returns the integer bits of c as an unsigned value.
func (c Const) Uint64() uint64 { return c.Bits }

// Float64 returns c as a float64, converting integers by their signedness.
func (c Const) Float64() float64 {
	switch c.Kind {
	case ConstS64:
		return float64(int64(c.Bits))
	case ConstU64:
		return float64(c.Bits)
	case ConstF32:
		return float64(math.Float32frombits(uint32(c.Bits)))
	}
	return math.Float64frombits(c.Bits)
}

// IsZero reports whether c is zero (false as a predicate, 4.5.3).
func (c Const) IsZero() bool {
	if c.IsFloat() {
		return c.Float64() == 0
	}
	return c.Bits == 0
}

// String formats c as PTX source: 42, 42U, 1.5, 0f3F800000.
func (c Const) String() string {
	switch c.Kind {
	case ConstS64:
		return strconv.FormatInt(int64(c.Bits), 10)
	case ConstU64:
		return strconv.FormatUint(c.Bits, 10) + "U"
	case ConstF32:
		return fmt.Sprintf("0f%08X", uint32(c.Bits))
	}
	f := math.Float64frombits(c.Bits)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Sprintf("0d%016X", c.Bits)
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	for i := 0; i < len(s); i++ {
		if s[i] == '.' || s[i] == 'e' {
			return s
		}
	}
	return s + ".0" // keep it a float literal
}

// WarpSize is the value of the predefined constant WARP_SZ (4.5.1).
const WarpSize = 32

// EvalConst evaluates a constant expression. Identifiers are not constants,
// except the predefined WARP_SZ. The error is a *Diagnostic.
func EvalConst(e Expr) (Const, error) { return EvalConstWith(e, nil) }

// EvalConstWith is EvalConst with lookup supplying the values of identifiers
// (lookup may be nil); names it does not know are errors, except WARP_SZ.
func EvalConstWith(e Expr, lookup func(name string) (Const, bool)) (Const, error) {
	ev := evaluator{lookup: lookup}
	c, d := ev.eval(e, true)
	if d != nil {
		return Const{}, d
	}
	return c, nil
}

// ConstOf is EvalConstWith for a caller that needs no error message: ok
// is whether EvalConstWith succeeds, and c its value then. It builds no
// diagnostic, so saying no costs no more than saying yes (a checker asks
// this of every operand, and most are registers).
func ConstOf(e Expr, lookup func(name string) (Const, bool)) (c Const, ok bool) {
	ev := evaluator{lookup: lookup, quiet: true}
	c, d := ev.eval(e, true)
	if d != nil {
		return Const{}, false
	}
	return c, true
}

type evaluator struct {
	lookup func(name string) (Const, bool)
	quiet  bool // report failure with errQuiet, building no message
}

// errQuiet is every failure of a quiet evaluator.
var errQuiet = &Diagnostic{Severity: SeverityError, Msg: "not a constant expression"}

// fail returns the diagnostic a+b+c at pos. The message is concatenated
// only when it will be shown (not for ConstOf), and without fmt.
func (ev *evaluator) fail(pos Pos, a, b, c string) *Diagnostic {
	if ev.quiet {
		return errQuiet
	}
	return &Diagnostic{Pos: pos, Severity: SeverityError, Msg: a + b + c}
}

func b2s(b bool) Const {
	if b {
		return Const{ConstS64, 1}
	}
	return Const{ConstS64, 0}
}

// eval evaluates e. live is false inside an operand that C would not
// evaluate (the unselected arm of ?:, the right of a decided && or ||):
// there, type errors are still reported but division by zero is not.
func (ev *evaluator) eval(e Expr, live bool) (Const, *Diagnostic) {
	switch e := e.(type) {
	case nil:
		return Const{}, ev.fail(Pos{}, "missing expression", "", "")
	case *IntLit:
		// Signed unless suffixed U or too large for .s64, in any base (4.5.1).
		if e.Unsigned || e.Value > math.MaxInt64 {
			return Const{ConstU64, e.Value}, nil
		}
		return Const{ConstS64, e.Value}, nil
	case *FloatLit:
		if e.Single {
			return Const{ConstF32, e.Bits & 0xFFFFFFFF}, nil
		}
		return Const{ConstF64, e.Bits}, nil
	case *Ident:
		if ev.lookup != nil {
			if c, ok := ev.lookup(e.Name); ok {
				return c, nil
			}
		}
		if e.Name == "WARP_SZ" {
			return S64Const(WarpSize), nil
		}
		return Const{}, ev.fail(e.Pos, e.Name, " is not a constant", "")
	case *ParenExpr:
		return ev.eval(e.X, live) // any type, f32 included (Table 5)
	case *UnaryExpr:
		return ev.unary(e, live)
	case *CastExpr:
		x, d := ev.operand(e.X, live, "("+e.Type+")")
		if d != nil {
			return x, d
		}
		if e.Type != ".s64" && e.Type != ".u64" {
			return Const{}, ev.fail(e.Pos, "invalid cast (", e.Type, ") in constant expression: only (.s64) and (.u64) are allowed")
		}
		if !x.IsInt() {
			return Const{}, ev.fail(e.Pos, "cannot cast floating-point value to ", e.Type, ": constant expressions have no integer/floating-point casts")
		}
		if e.Type == ".s64" {
			return Const{ConstS64, x.Bits}, nil
		}
		return Const{ConstU64, x.Bits}, nil
	case *BinaryExpr:
		return ev.binary(e, live)
	case *CondExpr:
		return ev.cond(e, live)
	}
	return Const{}, ev.fail(e.Position(), "not a constant expression", "", "")
}

// operand evaluates an operand of op, rejecting 0f literals (4.5.2).
func (ev *evaluator) operand(e Expr, live bool, op string) (Const, *Diagnostic) {
	c, d := ev.eval(e, live)
	if d == nil && c.Kind == ConstF32 {
		d = ev.fail(e.Position(), "single-precision 0f constant cannot be an operand of '", op, "': 0f constants may not be used in constant expressions")
	}
	return c, d
}

func (ev *evaluator) unary(e *UnaryExpr, live bool) (Const, *Diagnostic) {
	x, d := ev.operand(e.X, live, e.Op)
	if d != nil {
		return x, d
	}
	switch e.Op {
	case "+":
		return x, nil
	case "-":
		if x.Kind == ConstF64 {
			return F64Const(-math.Float64frombits(x.Bits)), nil
		}
		return Const{x.Kind, -x.Bits}, nil // type preserved: -1U is .u64
	case "!":
		if !x.IsInt() {
			return Const{}, ev.needInt(e.Pos, e.Op)
		}
		return b2s(x.Bits == 0), nil
	case "~":
		if !x.IsInt() {
			return Const{}, ev.needInt(e.Pos, e.Op)
		}
		return Const{ConstU64, ^x.Bits}, nil // always .u64
	}
	return Const{}, ev.fail(e.Pos, "operator '", e.Op, "' is not allowed in constant expressions")
}

func (ev *evaluator) needInt(pos Pos, op string) *Diagnostic {
	return ev.fail(pos, "operator '", op, "' requires integer operands")
}

// usual applies the usual arithmetic conversions: both .u64 if either is.
func usual(x, y Const) ConstKind {
	if x.Kind == ConstU64 || y.Kind == ConstU64 {
		return ConstU64
	}
	return ConstS64
}

func (ev *evaluator) binary(e *BinaryExpr, live bool) (Const, *Diagnostic) {
	x, d := ev.operand(e.X, live, e.Op)
	if d != nil {
		return x, d
	}
	if e.Op == "&&" || e.Op == "||" {
		// Short-circuit as in C: a decided right operand is not evaluated.
		decided := x.IsInt() && (e.Op == "&&") == (x.Bits == 0)
		y, d := ev.operand(e.Y, live && !decided, e.Op)
		if d != nil {
			return y, d
		}
		if !x.IsInt() || !y.IsInt() {
			return Const{}, ev.needInt(e.Pos, e.Op)
		}
		if e.Op == "&&" {
			return b2s(x.Bits != 0 && y.Bits != 0), nil
		}
		return b2s(x.Bits != 0 || y.Bits != 0), nil
	}
	y, d := ev.operand(e.Y, live, e.Op)
	if d != nil {
		return y, d
	}
	if x.IsFloat() != y.IsFloat() {
		return Const{}, ev.fail(e.Pos, "operator '", e.Op, "' has an integer and a floating-point operand: constant expressions do not convert between them")
	}
	if x.Kind == ConstF64 {
		return ev.floatBinary(e, x, y)
	}
	k := usual(x, y)
	a, b := x.Bits, y.Bits
	switch e.Op {
	case "+":
		return Const{k, a + b}, nil
	case "-":
		return Const{k, a - b}, nil
	case "*":
		return Const{k, a * b}, nil // the low 64 bits are the same signed or not
	case "/":
		if b == 0 {
			return Const{k, 0}, ev.divZero(e, live)
		}
		if k == ConstU64 {
			return Const{k, a / b}, nil
		}
		// Truncates toward zero; MinInt64 / -1 wraps to MinInt64 in Go.
		return Const{k, uint64(int64(a) / int64(b))}, nil
	case "%":
		// Operands are .u64, the result .s64 (4.5.5, Table 5).
		if b == 0 {
			return Const{ConstS64, 0}, ev.divZero(e, live)
		}
		return Const{ConstS64, a % b}, nil
	case "<<":
		// The count is .u64; counts of 64 or more shift everything out.
		return Const{x.Kind, a << b}, nil
	case ">>":
		if x.Kind == ConstS64 {
			return Const{ConstS64, uint64(int64(a) >> b)}, nil // arithmetic
		}
		return Const{ConstU64, a >> b}, nil // logical
	case "&":
		return Const{k, a & b}, nil
	case "|":
		return Const{k, a | b}, nil
	case "^":
		return Const{k, a ^ b}, nil
	case "==":
		return b2s(a == b), nil
	case "!=":
		return b2s(a != b), nil
	case "<", "<=", ">", ">=":
		var c int
		if k == ConstU64 {
			c = cmpOrd(a, b)
		} else {
			c = cmpOrd(int64(a), int64(b))
		}
		return b2s(ordered(e.Op, c)), nil
	}
	return Const{}, ev.fail(e.Pos, "operator '", e.Op, "' is not allowed in constant expressions")
}

func (ev *evaluator) divZero(e *BinaryExpr, live bool) *Diagnostic {
	if !live {
		return nil
	}
	if e.Op == "%" {
		return ev.fail(e.Pos, "remainder by zero in constant expression", "", "")
	}
	return ev.fail(e.Pos, "division by zero in constant expression", "", "")
}

func cmpOrd[T int64 | uint64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func ordered(op string, c int) bool {
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

// floatBinary evaluates op on two .f64 operands in double precision (4.5.2);
// division by zero follows IEEE-754.
func (ev *evaluator) floatBinary(e *BinaryExpr, x, y Const) (Const, *Diagnostic) {
	a, b := math.Float64frombits(x.Bits), math.Float64frombits(y.Bits)
	switch e.Op {
	case "+":
		return F64Const(a + b), nil
	case "-":
		return F64Const(a - b), nil
	case "*":
		return F64Const(a * b), nil
	case "/":
		return F64Const(a / b), nil
	case "==":
		return b2s(a == b), nil
	case "!=":
		return b2s(a != b), nil
	case "<":
		return b2s(a < b), nil
	case "<=":
		return b2s(a <= b), nil
	case ">":
		return b2s(a > b), nil
	case ">=":
		return b2s(a >= b), nil
	case "%", "<<", ">>", "&", "|", "^":
		return Const{}, ev.needInt(e.Pos, e.Op)
	}
	return Const{}, ev.fail(e.Pos, "operator '", e.Op, "' is not allowed in constant expressions")
}

func (ev *evaluator) cond(e *CondExpr, live bool) (Const, *Diagnostic) {
	c, d := ev.operand(e.Cond, live, "?:")
	if d != nil {
		return c, d
	}
	if !c.IsInt() {
		return Const{}, ev.fail(e.Cond.Position(), "the condition of '?:' must be an integer", "", "")
	}
	x, d := ev.operand(e.X, live && c.Bits != 0, "?:")
	if d != nil {
		return x, d
	}
	y, d := ev.operand(e.Y, live && c.Bits == 0, "?:")
	if d != nil {
		return y, d
	}
	if x.IsFloat() != y.IsFloat() {
		return Const{}, ev.fail(e.Pos, "the arms of '?:' must be both integer or both floating-point", "", "")
	}
	r := y
	if c.Bits != 0 {
		r = x
	}
	if r.IsInt() {
		r.Kind = usual(x, y)
	}
	return r, nil
}
