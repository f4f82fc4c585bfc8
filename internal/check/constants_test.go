package check

import (
	"testing"

	"github.com/ptxvm/ptxvm/ptx"
)

// TestSurelyNotConst: evalConst skips ptx.EvalConst only where it fails,
// and gives its answer elsewhere: names inside every operator, in the
// unevaluated arm of ?: and the decided right of && included.
func TestSurelyNotConst(t *testing.T) {
	one, zero := &ptx.IntLit{Value: 1}, &ptx.IntLit{Value: 0}
	a, warp := &ptx.Ident{Name: "a"}, &ptx.Ident{Name: "WARP_SZ"}
	for _, e := range []ptx.Expr{
		nil, one, a, warp,
		&ptx.FloatLit{Bits: 0x3f800000, Single: true},
		&ptx.BinaryExpr{Op: "+", X: a, Y: one},
		&ptx.BinaryExpr{Op: "+", X: warp, Y: one},
		&ptx.BinaryExpr{Op: "&&", X: zero, Y: a},
		&ptx.BinaryExpr{Op: "||", X: one, Y: a},
		&ptx.BinaryExpr{Op: "/", X: one, Y: zero},
		&ptx.BinaryExpr{Op: "|", X: a, Y: a},
		&ptx.CondExpr{Cond: one, X: one, Y: a},
		&ptx.CondExpr{Cond: zero, X: a, Y: one},
		&ptx.CondExpr{Cond: one, X: one, Y: zero},
		&ptx.UnaryExpr{Op: "-", X: a},
		&ptx.UnaryExpr{Op: "!", X: one},
		&ptx.ParenExpr{X: &ptx.CastExpr{Type: ".s64", X: a}},
		&ptx.CastExpr{Type: ".u64", X: one},
		&ptx.SelectorExpr{X: a, Sel: "x"},
		&ptx.AddressExpr{Elems: []ptx.Expr{one}},
		&ptx.BraceExpr{Elems: []ptx.Expr{one}},
	} {
		want, err := ptx.EvalConst(e)
		if surelyNotConst(e) && err == nil {
			t.Errorf("surelyNotConst(%#v) = true; EvalConst accepts it", e)
		}
		if got, ok := evalConst(e); ok != (err == nil) || got != want {
			t.Errorf("evalConst(%#v) = %v, %v; EvalConst: %v, %v", e, got, ok, want, err)
		}
	}
}
