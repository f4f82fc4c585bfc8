package exec

// Registers start at zero in every frame (a kernel that reads a register
// before writing it sees 0, whatever ran before on the worker), but a
// warp's reused kernel frame need not clear them all: only the rows some
// path may read before writing. A forward "definitely written" analysis
// over the kernel's instructions finds them; everything it is unsure of is
// cleared:
//   - only unguarded instructions of the opcodes below define their first
//     operand (a full write of a scalar register's row, or of each
//     register of a {...} list);
//   - every register operand anywhere else is a read;
//   - vector and .b128 registers, and kernels with indirect branches, are
//     always cleared.
// A lane that skips a write (a branch around it, a divergent path) follows
// a CFG path that skips it, so the analysis covers divergence.

import (
	"github.com/ptxvm/ptxvm/internal/ir"
)

// definesFirst lists the opcodes whose first operand is only written, in
// full, by every lane that runs them.
var definesFirst = map[string]bool{
	"add": true, "sub": true, "mul": true, "mad": true, "mul24": true, "mad24": true, "div": true,
	"rem": true, "abs": true, "neg": true, "min": true, "max": true, "popc": true, "clz": true,
	"bfind": true, "brev": true, "bfe": true, "bfi": true, "and": true, "or": true, "xor": true,
	"not": true, "cnot": true, "shl": true, "shr": true, "shf": true, "prmt": true, "mov": true,
	"cvt": true, "cvta": true, "selp": true, "ld": true, "ldu": true, "fma": true, "rcp": true,
	"sqrt": true, "rsqrt": true, "sin": true, "cos": true, "lg2": true, "ex2": true, "tanh": true,
	"copysign": true, "set": true, "slct": true, "sad": true,
}

// uninitRows returns the register slots of a kernel that a path may read
// before writing (sorted), or all true when the analysis gives up.
func uninitRows(f *Func) (rows []int32, all bool) {
	fn := f.IR
	n := len(fn.Insts)
	words := (f.regSlots + 63) / 64
	type set []uint64
	newSet := func() set { return make(set, words) }
	always := newSet() // vector and .b128 registers: cleared whatever the analysis says
	for _, r := range fn.Regs {
		if r.Type != ".pred" && (r.Vector > 0 || r.Type == ".b128") {
			width := max(1, r.Vector) // prepare's slot count
			if r.Type == ".b128" {
				width *= 2
			}
			for k := int(f.slot[r.ID]); k < int(f.slot[r.ID])+width; k++ {
				always[k/64] |= 1 << (k % 64)
			}
		}
	}
	scalar := func(r *ir.Reg) (int32, bool) { // a scalar register's slot
		if r == nil || r.Type == ".pred" || r.Vector > 0 || r.Type == ".b128" {
			return 0, false
		}
		return f.slot[r.ID], true
	}
	def, use := make([]set, n), make([]set, n)
	var reads func(s set, op *ir.Operand)
	reads = func(s set, op *ir.Operand) {
		if op.Kind == ir.OpReg {
			if slot, ok := scalar(op.Reg); ok {
				s[slot/64] |= 1 << (slot % 64)
			}
		}
		if op.Base != nil {
			reads(s, op.Base)
		}
		for i := range op.Elems {
			reads(s, &op.Elems[i])
		}
	}
	for i, in := range fn.Insts {
		switch in.Opcode {
		case "brx":
			return nil, true
		}
		def[i], use[i] = newSet(), newSet()
		first := 0
		if definesFirst[in.Opcode] && in.Guard == nil && len(in.Operands) > 0 {
			d := &in.Operands[0]
			switch d.Kind {
			case ir.OpReg:
				if slot, ok := scalar(d.Reg); ok {
					def[i][slot/64] |= 1 << (slot % 64)
				}
				first = 1
			case ir.OpVector:
				for k := range d.Elems {
					if e := &d.Elems[k]; e.Kind == ir.OpReg {
						if slot, ok := scalar(e.Reg); ok {
							def[i][slot/64] |= 1 << (slot % 64)
						}
					}
				}
				first = 1
			}
		}
		for k := first; k < len(in.Operands); k++ {
			reads(use[i], &in.Operands[k])
		}
	}
	// in[i]: the slots written on every path from the entry to i
	in := make([]set, n+1)
	for i := range in {
		in[i] = newSet()
		if i > 0 {
			for w := range in[i] {
				in[i][w] = ^uint64(0)
			}
		}
	}
	succ := func(i int) []int {
		inst := fn.Insts[i]
		switch inst.Opcode {
		case "ret", "exit", "trap":
			if inst.Guard == nil {
				return nil
			}
		case "bra":
			if len(inst.Operands) == 1 && inst.Operands[0].Kind == ir.OpLabel {
				if inst.Guard == nil {
					return []int{inst.Operands[0].Label}
				}
				return []int{inst.Operands[0].Label, i + 1}
			}
		}
		return []int{i + 1}
	}
	out := newSet()
	for changed := true; changed; {
		changed = false
		for i := 0; i < n; i++ {
			for w := range out {
				out[w] = in[i][w] | def[i][w]
			}
			for _, j := range succ(i) {
				if j > n {
					continue
				}
				for w := range out {
					if v := in[j][w] & out[w]; v != in[j][w] {
						in[j][w], changed = v, true
					}
				}
			}
		}
	}
	need := newSet()
	for i := 0; i < n; i++ {
		for w := range need {
			need[w] |= use[i][w] &^ in[i][w]
		}
	}
	for s := 0; s < f.regSlots; s++ {
		if (need[s/64]|always[s/64])>>(s%64)&1 != 0 {
			rows = append(rows, int32(s))
		}
	}
	return rows, false
}
