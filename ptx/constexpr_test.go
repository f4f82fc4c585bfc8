package ptx

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Tree builders. Expected values below were worked out by hand from the
// rules of ptx-isa-9.0.txt 4.5.1-4.5.6, not by running the evaluator.

var at = Pos{File: "t.ptx", Line: 3, Col: 7}

func ci(v uint64) Expr      { return &IntLit{Pos: at, Value: v} }
func cu(v uint64) Expr      { return &IntLit{Pos: at, Value: v, Unsigned: true} }
func cf(v float64) Expr     { return &FloatLit{Pos: at, Bits: math.Float64bits(v)} }
func cd(bits uint64) Expr   { return &FloatLit{Pos: at, Bits: bits} }
func cf32(bits uint64) Expr { return &FloatLit{Pos: at, Bits: bits, Single: true} }
func cid(n string) Expr     { return &Ident{Pos: at, Name: n} }
func cun(op string, x Expr) Expr {
	return &UnaryExpr{Pos: at, Op: op, X: x}
}
func cbin(x Expr, op string, y Expr) Expr {
	return &BinaryExpr{Pos: at, Op: op, X: x, Y: y}
}
func ccast(t string, x Expr) Expr  { return &CastExpr{Pos: at, Type: t, X: x} }
func ccond(c, x, y Expr) Expr      { return &CondExpr{Pos: at, Cond: c, X: x, Y: y} }
func cpar(x Expr) Expr             { return &ParenExpr{Pos: at, X: x} }
func cneg(v uint64) Expr           { return cun("-", ci(v)) }
func s64(v int64) Const            { return Const{ConstS64, uint64(v)} }
func u64(v uint64) Const           { return Const{ConstU64, v} }
func f64bits(b uint64) Const       { return Const{ConstF64, b} }
func f64v(v float64) Const         { return Const{ConstF64, math.Float64bits(v)} }
func minS64() Expr                 { return ccast(".s64", ci(0x8000000000000000)) }
func divz(x Expr, op string) Expr  { return cbin(x, op, ci(0)) }
func eqS(x Expr, y Expr) Expr      { return cbin(x, "==", y) }
func inf() Const                   { return f64bits(0x7FF0000000000000) }
func nanE() Expr                   { return cd(0x7FF8000000000000) }
func addr() Expr                   { return &AddressExpr{Pos: at, Elems: []Expr{cid("a")}} }
func strl() Expr                   { return &StringLit{Pos: at, Text: `"s"`, Value: "s"} }
func maxU() Const                  { return u64(math.MaxUint64) }
func oneThirdBits() uint64         { return 0x3FD5555555555555 }
func pointThreeBits() uint64       { return 0x3FD3333333333334 }
func twoPow64Minus(n uint64) Const { return u64(-n) }

func TestEvalConst(t *testing.T) {
	tests := []struct {
		name string
		e    Expr
		want Const
		err  string // substring of the expected error
	}{
		// 4.5.1 literals: signed unless U or too large for .s64, any base.
		{"decimal", ci(42), s64(42), ""},
		{"max s64 stays signed", ci(0x7FFFFFFFFFFFFFFF), s64(math.MaxInt64), ""},
		{"2^63 is unsigned", ci(0x8000000000000000), u64(1 << 63), ""},
		{"0xfabc123400000000 unsigned", ci(0xfabc123400000000), u64(0xfabc123400000000), ""},
		{"U suffix", cu(42), u64(42), ""},
		{"max u64", ci(math.MaxUint64), maxU(), ""},

		// Unary + and - keep the type; ! gives .s64; ~ gives .u64.
		{"-1", cneg(1), s64(-1), ""},
		{"+123", cun("+", ci(123)), s64(123), ""},
		{"-(-42)", cun("-", cneg(42)), s64(42), ""},
		{"-1U", cun("-", cu(1)), maxU(), ""},
		{"-0xfabc123400000000", cneg(0xfabc123400000000), u64(0x0543EDCC00000000), ""},
		{"-MinInt64 wraps", cun("-", minS64()), s64(math.MinInt64), ""},
		{"!0", cun("!", ci(0)), s64(1), ""},
		{"!5", cun("!", ci(5)), s64(0), ""},
		{"!0U is signed", cun("!", cu(0)), s64(1), ""},
		{"~0", cun("~", ci(0)), maxU(), ""},
		{"~5", cun("~", ci(5)), u64(0xFFFFFFFFFFFFFFFA), ""},
		{"~-1", cun("~", cneg(1)), u64(0), ""},

		// Casts reinterpret the 64 bits.
		{"(.s64)max u64", ccast(".s64", ci(math.MaxUint64)), s64(-1), ""},
		{"(.u64)-1", ccast(".u64", cneg(1)), maxU(), ""},
		{"(.u64)5", ccast(".u64", ci(5)), u64(5), ""},
		{"(.u32) rejected", ccast(".u32", ci(5)), Const{}, "invalid cast (.u32)"},
		{"(.s64)float rejected", ccast(".s64", cf(1.5)), Const{}, "cannot cast floating-point"},

		// + - * / with the usual arithmetic conversions; wrap-around.
		{"2+3*4", cbin(ci(2), "+", cbin(ci(3), "*", ci(4))), s64(14), ""},
		{"MaxInt64+1 wraps", cbin(ci(math.MaxInt64), "+", ci(1)), s64(math.MinInt64), ""},
		{"max u64 + 1", cbin(ci(math.MaxUint64), "+", ci(1)), u64(0), ""},
		{"5 - 7U", cbin(ci(5), "-", cu(7)), twoPow64Minus(2), ""},
		{"-3 * 4", cbin(cneg(3), "*", ci(4)), s64(-12), ""},
		{"-3 * 4U", cbin(cneg(3), "*", cu(4)), twoPow64Minus(12), ""},
		{"-7 / 2 truncates", cbin(cneg(7), "/", ci(2)), s64(-3), ""},
		{"7 / -2 truncates", cbin(ci(7), "/", cneg(2)), s64(-3), ""},
		{"-7 / 2U unsigned", cbin(cneg(7), "/", cu(2)), u64(9223372036854775804), ""},
		{"MinInt64 / -1 wraps", cbin(minS64(), "/", cneg(1)), s64(math.MinInt64), ""},
		{"1 / 0", divz(ci(1), "/"), Const{}, "division by zero"},
		{"1U / 0", divz(cu(1), "/"), Const{}, "division by zero"},

		// % reads both operands as .u64 and gives .s64.
		{"7 % 3", cbin(ci(7), "%", ci(3)), s64(1), ""},
		{"7U % 3 is signed", cbin(cu(7), "%", ci(3)), s64(1), ""},
		{"-7 % 3 unsigned", cbin(cneg(7), "%", ci(3)), s64(0), ""}, // (2^64-7) mod 3: 2^64≡1, 1-7=-6≡0
		{"-7 % 4 unsigned", cbin(cneg(7), "%", ci(4)), s64(1), ""}, // 2^64≡0, -7≡1 (mod 4)
		{"7 % -1 unsigned", cbin(ci(7), "%", cneg(1)), s64(7), ""}, // 7 mod (2^64-1)
		{"-1 % 10", cbin(cneg(1), "%", ci(10)), s64(5), ""},        // 18446744073709551615 mod 10
		{"-1 % -2", cbin(cneg(1), "%", cneg(2)), s64(1), ""},       // (2^64-1) mod (2^64-2)
		{"remainder by zero", divz(ci(1), "%"), Const{}, "remainder by zero"},

		// Shifts: count is .u64, result has the first operand's type.
		{"1 << 3", cbin(ci(1), "<<", ci(3)), s64(8), ""},
		{"1 << 63", cbin(ci(1), "<<", ci(63)), s64(math.MinInt64), ""},
		{"1 << 64", cbin(ci(1), "<<", ci(64)), s64(0), ""},
		{"1 << 2U keeps s64", cbin(ci(1), "<<", cu(2)), s64(4), ""},
		{"1U << 2 keeps u64", cbin(cu(1), "<<", ci(2)), u64(4), ""},
		{"-16 >> 2 arithmetic", cbin(cneg(16), ">>", ci(2)), s64(-4), ""},
		{"-1 >> 64 arithmetic", cbin(cneg(1), ">>", ci(64)), s64(-1), ""},
		{"-1 >> -1 count is huge", cbin(cneg(1), ">>", cneg(1)), s64(-1), ""},
		{"1 >> -1 count is huge", cbin(ci(1), ">>", cneg(1)), s64(0), ""},
		{"(.u64)-16 >> 2 logical", cbin(ccast(".u64", cneg(16)), ">>", ci(2)), u64(0x3FFFFFFFFFFFFFFC), ""},
		{"-1U >> 63", cbin(cun("-", cu(1)), ">>", ci(63)), u64(1), ""},
		{"1 << -1 count is huge", cbin(ci(1), "<<", cneg(1)), s64(0), ""},

		// & | ^: usual conversions, result of the converted type.
		{"6 & 3", cbin(ci(6), "&", ci(3)), s64(2), ""},
		{"5 | 2", cbin(ci(5), "|", ci(2)), s64(7), ""},
		{"5 ^ 1", cbin(ci(5), "^", ci(1)), s64(4), ""},
		{"-1 ^ 0", cbin(cneg(1), "^", ci(0)), s64(-1), ""},
		{"-1 & 0xFFU", cbin(cneg(1), "&", cu(0xFF)), u64(0xFF), ""},
		{"-2 | 1U", cbin(cneg(2), "|", cu(1)), maxU(), ""},

		// Comparisons and equality: .s64 0 or 1, usual conversions.
		{"-1 < 0", cbin(cneg(1), "<", ci(0)), s64(1), ""},
		{"-1 < 0U", cbin(cneg(1), "<", cu(0)), s64(0), ""},
		{"-1 > 1U", cbin(cneg(1), ">", cu(1)), s64(1), ""},
		{"3 <= 3", cbin(ci(3), "<=", ci(3)), s64(1), ""},
		{"3 > 4", cbin(ci(3), ">", ci(4)), s64(0), ""},
		{"3 >= 3U", cbin(ci(3), ">=", cu(3)), s64(1), ""},
		{"2^63 > 1", cbin(ci(0x8000000000000000), ">", ci(1)), s64(1), ""},
		{"(.s64)2^63 > 1", cbin(minS64(), ">", ci(1)), s64(0), ""},
		{"-1 == max u64", eqS(cneg(1), ci(math.MaxUint64)), s64(1), ""},
		{"-1 != max u64", cbin(cneg(1), "!=", ci(math.MaxUint64)), s64(0), ""},
		{"1 == 2", eqS(ci(1), ci(2)), s64(0), ""},
		{"3U == 3", eqS(cu(3), ci(3)), s64(1), ""},

		// && and || give .s64 0 or 1 and short-circuit.
		{"2 && 3", cbin(ci(2), "&&", ci(3)), s64(1), ""},
		{"2 && 0U", cbin(ci(2), "&&", cu(0)), s64(0), ""},
		{"0U || 0", cbin(cu(0), "||", ci(0)), s64(0), ""},
		{"0 || 7", cbin(ci(0), "||", ci(7)), s64(1), ""},
		{"0 && 1/0 not evaluated", cbin(ci(0), "&&", divz(ci(1), "/")), s64(0), ""},
		{"1 || 1%0 not evaluated", cbin(ci(1), "||", divz(ci(1), "%")), s64(1), ""},
		{"1 && 1/0", cbin(ci(1), "&&", divz(ci(1), "/")), Const{}, "division by zero"},
		{"0 || 1/0", cbin(ci(0), "||", divz(ci(1), "/")), Const{}, "division by zero"},
		{"0 && 1.5 still typed", cbin(ci(0), "&&", cf(1.5)), Const{}, "requires integer"},
		{"1.5 || 1", cbin(cf(1.5), "||", ci(1)), Const{}, "requires integer"},

		// f64 arithmetic (4.5.2): double precision throughout.
		{"1.5 + 2.25", cbin(cf(1.5), "+", cf(2.25)), f64v(3.75), ""},
		{"0.1 + 0.2", cbin(cf(0.1), "+", cf(0.2)), f64bits(pointThreeBits()), ""},
		{"1.0 / 3.0", cbin(cf(1), "/", cf(3)), f64bits(oneThirdBits()), ""},
		{"2.5 - 4.0", cbin(cf(2.5), "-", cf(4)), f64v(-1.5), ""},
		{"2.5 * 4.0", cbin(cf(2.5), "*", cf(4)), f64v(10), ""},
		{"1.0 / 0.0 is +Inf", cbin(cf(1), "/", cf(0)), inf(), ""},
		{"-(0.0) is -0", cun("-", cf(0)), f64bits(0x8000000000000000), ""},
		{"+1.5", cun("+", cf(1.5)), f64v(1.5), ""},
		{"0d3FF0000000000000 + 1.0", cbin(cd(0x3FF0000000000000), "+", cf(1)), f64bits(0x4000000000000000), ""},
		{"1.5 < 2.0", cbin(cf(1.5), "<", cf(2)), s64(1), ""},
		{"1.5 >= 2.0", cbin(cf(1.5), ">=", cf(2)), s64(0), ""},
		{"1.5 == 1.5", eqS(cf(1.5), cf(1.5)), s64(1), ""},
		{"NaN == NaN", eqS(nanE(), nanE()), s64(0), ""},
		{"NaN != NaN", cbin(nanE(), "!=", nanE()), s64(1), ""},
		{"-0.0 == 0.0", eqS(cun("-", cf(0)), cf(0)), s64(1), ""},
		{"1 + 1.5 mixed", cbin(ci(1), "+", cf(1.5)), Const{}, "integer and a floating-point"},
		{"1.5 < 2 mixed", cbin(cf(1.5), "<", ci(2)), Const{}, "integer and a floating-point"},
		{"1.5 % 2.0", cbin(cf(1.5), "%", cf(2)), Const{}, "requires integer"},
		{"1.5 << 1.0", cbin(cf(1.5), "<<", cf(1)), Const{}, "requires integer"},
		{"1.5 & 2.5", cbin(cf(1.5), "&", cf(2.5)), Const{}, "requires integer"},
		{"!1.5", cun("!", cf(1.5)), Const{}, "requires integer"},
		{"~1.5", cun("~", cf(1.5)), Const{}, "requires integer"},

		// 0f literals keep their f32 bits and may not be operands.
		{"0f3F800000", cf32(0x3F800000), Const{ConstF32, 0x3F800000}, ""},
		{"(0f3F800000)", cpar(cf32(0x3F800000)), Const{ConstF32, 0x3F800000}, ""},
		{"-0f3F800000", cun("-", cf32(0x3F800000)), Const{}, "0f constants may not be used"},
		{"0f + 1.0", cbin(cf32(0x3F800000), "+", cf(1)), Const{}, "0f constants may not be used"},
		{"1 ? 0f : 0f", ccond(ci(1), cf32(0x3F800000), cf32(0)), Const{}, "0f constants may not be used"},

		// Conditional: integer condition, arms both integer (usual
		// conversions) or both f64.
		{"1 ? 2 : 3", ccond(ci(1), ci(2), ci(3)), s64(2), ""},
		{"0 ? 2 : 3U", ccond(ci(0), ci(2), cu(3)), u64(3), ""},
		{"1 ? -1 : 0U", ccond(ci(1), cneg(1), cu(0)), maxU(), ""},
		{"5U ? 1 : 2", ccond(cu(5), ci(1), ci(2)), s64(1), ""},
		{"1 ? 1.5 : 2.5", ccond(ci(1), cf(1.5), cf(2.5)), f64v(1.5), ""},
		{"0 ? 1.5 : 2.5", ccond(ci(0), cf(1.5), cf(2.5)), f64v(2.5), ""},
		{"1 ? 1 : 2.5", ccond(ci(1), ci(1), cf(2.5)), Const{}, "both integer or both floating-point"},
		{"1.5 ? 1 : 2", ccond(cf(1.5), ci(1), ci(2)), Const{}, "condition of '?:' must be an integer"},
		{"0 ? 1/0 : 5", ccond(ci(0), divz(ci(1), "/"), ci(5)), s64(5), ""},
		{"1 ? 5 : 1%0", ccond(ci(1), ci(5), divz(ci(1), "%")), s64(5), ""},
		{"1 ? 1/0 : 5", ccond(ci(1), divz(ci(1), "/"), ci(5)), Const{}, "division by zero"},

		// Parentheses keep the type.
		{"(-1U)", cpar(cun("-", cu(1))), maxU(), ""},
		{"(1.5)", cpar(cf(1.5)), f64v(1.5), ""},

		// Names and non-constant trees.
		{"WARP_SZ", cid("WARP_SZ"), s64(32), ""},
		{"WARP_SZ * 2", cbin(cid("WARP_SZ"), "*", ci(2)), s64(64), ""},
		{"identifier", cid("n"), Const{}, "n is not a constant"},
		{"address", addr(), Const{}, "not a constant expression"},
		{"string", strl(), Const{}, "not a constant expression"},
		{"nil", nil, Const{}, "missing expression"},
		{"unknown unary", cun("*", ci(1)), Const{}, "not allowed"},
		{"unknown binary", cbin(ci(1), "=", ci(1)), Const{}, "not allowed"},
	}
	for _, tc := range tests {
		got, err := EvalConst(tc.e)
		if c, ok := ConstOf(tc.e, nil); ok != (err == nil) || c != got {
			t.Errorf("%s: ConstOf = %v, %v; EvalConst: %v, %v", tc.name, c, ok, got, err)
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: got %v, %v; want error containing %q", tc.name, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %v (%v %#x), %v; want %v (%v %#x)", tc.name, got, got.Kind, got.Bits, err, tc.want, tc.want.Kind, tc.want.Bits)
		}
	}
}

func TestEvalConstErrorPosition(t *testing.T) {
	pos := Pos{File: "k.ptx", Line: 9, Col: 12}
	e := &BinaryExpr{Pos: pos, Op: "/", X: ci(1), Y: ci(0)}
	_, err := EvalConst(cbin(ci(1), "+", e))
	var d *Diagnostic
	if !errors.As(err, &d) {
		t.Fatalf("error %v (%T) is not a *Diagnostic", err, err)
	}
	if d.Pos != pos || d.Severity != SeverityError {
		t.Errorf("diagnostic %v at %v; want error at %v", d, d.Pos, pos)
	}
	id := &Ident{Pos: Pos{File: "k.ptx", Line: 2, Col: 5}, Name: "x"}
	_, err = EvalConst(id)
	if !errors.As(err, &d) || d.Pos != id.Pos {
		t.Errorf("unknown name: %v; want a diagnostic at %v", err, id.Pos)
	}
	// A nil error must be a true nil interface.
	if _, err := EvalConst(ci(1)); err != nil {
		t.Errorf("EvalConst(1) error = %#v", err)
	}
}

func TestEvalConstWith(t *testing.T) {
	vals := map[string]Const{"N": s64(7), "M": u64(2), "WARP_SZ": s64(64), "F": f64v(0.5)}
	lookup := func(n string) (Const, bool) { c, ok := vals[n]; return c, ok }
	tests := []struct {
		e    Expr
		want Const
		err  string
	}{
		{cbin(cid("N"), "*", cid("M")), u64(14), ""},
		{cid("WARP_SZ"), s64(64), ""}, // lookup overrides the predefined value
		{cbin(cid("F"), "+", cf(1)), f64v(1.5), ""},
		{cbin(cid("N"), "-", cid("missing")), Const{}, "missing is not a constant"},
	}
	for i, tc := range tests {
		got, err := EvalConstWith(tc.e, lookup)
		if c, ok := ConstOf(tc.e, lookup); ok != (err == nil) || c != got {
			t.Errorf("%d: ConstOf = %v, %v; EvalConstWith: %v, %v", i, c, ok, got, err)
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%d: got %v, %v; want error %q", i, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%d: got %v, %v; want %v", i, got, err, tc.want)
		}
	}
}

// TestEvalConstMessages pins each message whole: they are built by
// concatenation, and must read as they did when formatted with fmt.
func TestEvalConstMessages(t *testing.T) {
	tests := []struct {
		e   Expr
		msg string
	}{
		{nil, "missing expression"},
		{cid("n"), "n is not a constant"},
		{ccast(".u32", ci(1)), "invalid cast (.u32) in constant expression: only (.s64) and (.u64) are allowed"},
		{ccast(".s64", cf(1)), "cannot cast floating-point value to .s64: constant expressions have no integer/floating-point casts"},
		{addr(), "not a constant expression"},
		{cun("-", cf32(0x3F800000)), "single-precision 0f constant cannot be an operand of '-': 0f constants may not be used in constant expressions"},
		{cun("~", cf(1)), "operator '~' requires integer operands"},
		{cun("*", ci(1)), "operator '*' is not allowed in constant expressions"},
		{cbin(ci(1), "+", cf(1)), "operator '+' has an integer and a floating-point operand: constant expressions do not convert between them"},
		{divz(ci(1), "/"), "division by zero in constant expression"},
		{divz(ci(1), "%"), "remainder by zero in constant expression"},
		{cbin(ci(1), "=", ci(1)), "operator '=' is not allowed in constant expressions"},
		{cbin(cf(1), "=", cf(1)), "operator '=' is not allowed in constant expressions"},
		{cbin(cf(1), "<<", cf(1)), "operator '<<' requires integer operands"},
		{ccond(cf(1), ci(1), ci(2)), "the condition of '?:' must be an integer"},
		{ccond(ci(1), ci(1), cf(2)), "the arms of '?:' must be both integer or both floating-point"},
	}
	for _, tc := range tests {
		_, err := EvalConst(tc.e)
		var d *Diagnostic
		if !errors.As(err, &d) || d.Msg != tc.msg {
			t.Errorf("EvalConst error %v; want %q", err, tc.msg)
		}
	}
}

func TestConstMethods(t *testing.T) {
	tests := []struct {
		c     Const
		str   string
		f     float64
		zero  bool
		isInt bool
	}{
		{s64(-5), "-5", -5, false, true},
		{u64(5), "5U", 5, false, true},
		{maxU(), "18446744073709551615U", 18446744073709551615, false, true},
		{s64(0), "0", 0, true, true},
		{f64v(1.5), "1.5", 1.5, false, false},
		{f64v(2), "2.0", 2, false, false},
		{f64v(-0.0), "0.0", 0, true, false},
		{f64v(1e300), "1e+300", 1e300, false, false},
		{inf(), "0d7FF0000000000000", math.Inf(1), false, false},
		{Const{ConstF32, 0x3F800000}, "0f3F800000", 1, false, false},
		{Const{ConstF32, 0x80000000}, "0f80000000", 0, true, false},
	}
	for _, tc := range tests {
		if s := tc.c.String(); s != tc.str {
			t.Errorf("String(%v %#x) = %q; want %q", tc.c.Kind, tc.c.Bits, s, tc.str)
		}
		if f := tc.c.Float64(); f != tc.f {
			t.Errorf("Float64(%v) = %v; want %v", tc.c, f, tc.f)
		}
		if z := tc.c.IsZero(); z != tc.zero {
			t.Errorf("IsZero(%v) = %v", tc.c, z)
		}
		if tc.c.IsInt() != tc.isInt || tc.c.IsFloat() == tc.isInt {
			t.Errorf("IsInt/IsFloat(%v) wrong", tc.c)
		}
	}
	if S64Const(-1) != s64(-1) || U64Const(3) != u64(3) || F64Const(0.5) != f64v(0.5) || F32Const(7) != (Const{ConstF32, 7}) {
		t.Error("constructors disagree with literals")
	}
	if S64Const(-2).Int64() != -2 || S64Const(-2).Uint64() != math.MaxUint64-1 {
		t.Error("Int64/Uint64 wrong")
	}
	if ConstU64.String() != ".u64" || ConstKind(9).String() != "ConstKind(9)" {
		t.Error("ConstKind.String wrong")
	}
}
