package check

import (
	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/ptx"
)

// usedOperand resolves a name of the instruction at hand into *op from
// the symbol the checker found for it (b.used; id nil for the guard's
// predicate), without walking the builder's scopes: a register or
// variable, made on its first use as find makes it, is kept with its
// symbol (a range's by index). It reports false, writing nothing, for a
// name the checker did not keep, or one that is not a register or
// variable: name resolves those (its order differs from the checker's
// for labels).
func (b *builder) usedOperand(f *ir.Func, s *fscope, id *ptx.Ident, name string, op *ir.Operand) bool {
	for i := range b.used {
		u := &b.used[i]
		if u.id != id {
			continue
		}
		if u.sym == nil || u.sym.kind != symVar {
			return false
		}
		var x any
		switch built := u.sym.built.(type) {
		case *rangeDecl:
			reg := built.regs[u.index]
			if reg == nil {
				reg = b.newReg(f, name, built.decl)
				built.regs[u.index] = reg
			}
			x = reg
		case nil:
			// the first use: the builder's scopes say what it is
			var rd *rangeDecl
			x, rd = b.findDecl(f, s, name)
			switch {
			case rd != nil:
				u.sym.built = rd
			case u.index < 0: // one register or variable, not a range's
				u.sym.built = x
			}
		default:
			x = built
		}
		switch x := x.(type) {
		case *ir.Reg:
			op.Kind, op.Reg = ir.OpReg, x
			return true
		case *ir.Var:
			op.Kind, op.Var = ir.OpVar, x
			return true
		}
		return false
	}
	return false
}
