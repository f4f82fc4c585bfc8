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
		bs := &u.sym.built
		if bs.reg == nil && bs.v == nil && bs.rd == nil {
			// the first use: the builder's scopes say what it is, kept
			// for a name declared alone (index < 0) or a range's register
			// kept by index (rd)
			x, rd := b.findDecl(f, s, name)
			switch x := x.(type) {
			case *ir.Reg:
				if rd != nil && u.index >= 0 {
					bs.rd = rd
				} else if rd == nil && u.index < 0 {
					bs.reg = x
				}
				op.Kind, op.Reg = ir.OpReg, x
				return true
			case *ir.Var:
				if u.index < 0 {
					bs.v = x
				}
				op.Kind, op.Var = ir.OpVar, x
				return true
			}
			return false
		}
		switch {
		case bs.rd != nil:
			reg := bs.rd.regs[u.index]
			if reg == nil {
				reg = b.newReg(f, name, bs.rd.decl)
				bs.rd.regs[u.index] = reg
			}
			op.Kind, op.Reg = ir.OpReg, reg
		case bs.reg != nil:
			op.Kind, op.Reg = ir.OpReg, bs.reg
		default:
			op.Kind, op.Var = ir.OpVar, bs.v
		}
		return true
	}
	return false
}
