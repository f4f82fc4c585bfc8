package check

import "github.com/ptxvm/ptxvm/ptx"

// evalConst is ptx.EvalConst, answering at once for an expression it
// must reject: most operands are registers, and EvalConst formats an
// error message (fmt.Sprintf) to say no.
func evalConst(e ptx.Expr) (ptx.Const, bool) {
	if surelyNotConst(e) {
		return ptx.Const{}, false
	}
	v, err := ptx.EvalConst(e)
	return v, err == nil
}

// surelyNotConst reports whether ptx.EvalConst fails on e: e holds a
// name other than WARP_SZ, or a node constant expressions lack (an
// address, a vector). EvalConst evaluates every operand of every
// operator (both arms of ?:, the right of a decided &&), so one such
// part anywhere fails the whole; false means it may succeed.
func surelyNotConst(e ptx.Expr) bool {
	switch e := e.(type) {
	case *ptx.IntLit, *ptx.FloatLit:
		return false
	case *ptx.Ident:
		return e.Name != "WARP_SZ"
	case *ptx.ParenExpr:
		return surelyNotConst(e.X)
	case *ptx.UnaryExpr:
		return surelyNotConst(e.X)
	case *ptx.CastExpr:
		return surelyNotConst(e.X)
	case *ptx.BinaryExpr:
		return surelyNotConst(e.X) || surelyNotConst(e.Y)
	case *ptx.CondExpr:
		return surelyNotConst(e.Cond) || surelyNotConst(e.X) || surelyNotConst(e.Y)
	}
	return true
}
