package exec

// Registers start at zero in every frame (a kernel that reads a register
// before writing it sees 0, whatever ran before on the worker), but a
// warp's reused kernel frame need not clear them all: only the rows some
// path may read before writing. A forward "definitely written" analysis
// over the kernel's basic blocks finds them; everything it is unsure of is
// cleared:
//   - only unguarded instructions of the opcodes below define their first
//     operand (a full write of a scalar register's row, or of each
//     register of a {...} list);
//   - every register operand anywhere else is a read;
//   - vector and .b128 registers are always cleared, and so is every row
//     of a kernel too large for the analysis to pay (uninitMaxWords); a
//     brx.idx leads to each block of its target list.
// A lane that skips a write (a branch around it, a divergent path) follows
// a CFG path that skips it, so the analysis covers divergence.

import (
	"slices"

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

// uninitMaxWords bounds the analysis's sets (blocks times 64-slot words):
// beyond it the load-time cost (the compile goal of docs/bench.md) is not
// worth the clearing it saves.
const uninitMaxWords = 1 << 16

// uninitRows returns the register slots of a kernel that a path may read
// before writing (sorted), or all true when the analysis gives up.
func uninitRows(f *Func) (rows []int32, all bool) {
	fn := f.IR
	n := len(fn.Insts)
	words := (f.regSlots + 63) / 64
	scalar := func(r *ir.Reg) (int32, bool) { // a scalar register's slot
		if r == nil || r.Type == ".pred" || r.Vector > 0 || r.Type == ".b128" {
			return 0, false
		}
		return f.slot[r.ID], true
	}
	// the slots instruction i defines, defSlots[defAt[i]:defAt[i+1]], and
	// reads, useSlots[useAt[i]:useAt[i+1]] (flat: one allocation each)
	defAt, useAt := make([]int32, n+1), make([]int32, n+1)
	var defSlots, useSlots []int32
	defs := func(i int) []int32 { return defSlots[defAt[i]:defAt[i+1]] }
	uses := func(i int) []int32 { return useSlots[useAt[i]:useAt[i+1]] }
	var reads func(op *ir.Operand)
	reads = func(op *ir.Operand) {
		if op.Kind == ir.OpReg {
			if s, ok := scalar(op.Reg); ok {
				useSlots = append(useSlots, s)
			}
		}
		if op.Base != nil {
			reads(op.Base)
		}
		for k := range op.Elems {
			reads(&op.Elems[k])
		}
	}
	// basic blocks: leaders at 0, at branch targets and after control ops
	leader := make([]bool, n+1)
	leader[0], leader[n] = true, true
	for i, in := range fn.Insts {
		switch in.Opcode {
		case "brx": // (its targets: lowerBrx's list)
			ts, ok := f.Ops[i].aux.([]int32)
			if !ok {
				return nil, true
			}
			for _, t := range ts {
				leader[t] = true
			}
			leader[i+1] = true
		case "bra":
			if len(in.Operands) == 1 && in.Operands[0].Kind == ir.OpLabel {
				leader[in.Operands[0].Label] = true
			}
			leader[i+1] = true
		case "ret", "exit", "trap":
			leader[i+1] = true
		}
		first := 0
		if f.Ops[i].defFirst && in.Guard == nil && len(in.Operands) > 0 {
			d := &in.Operands[0]
			switch d.Kind {
			case ir.OpReg:
				if s, ok := scalar(d.Reg); ok {
					defSlots = append(defSlots, s)
				}
				first = 1
			case ir.OpVector:
				for k := range d.Elems {
					if e := &d.Elems[k]; e.Kind == ir.OpReg {
						if s, ok := scalar(e.Reg); ok {
							defSlots = append(defSlots, s)
						}
					}
				}
				first = 1
			}
		}
		for k := first; k < len(in.Operands); k++ {
			reads(&in.Operands[k])
		}
		defAt[i+1], useAt[i+1] = int32(len(defSlots)), int32(len(useSlots))
	}
	var starts []int // block b is instructions starts[b] up to starts[b+1]
	blockOf := make([]int, n+1)
	for i := 0; i <= n; i++ {
		if leader[i] {
			starts = append(starts, i)
		}
		blockOf[i] = len(starts) - 1
	}
	nb := len(starts) - 1 // the last start is n: the function's end
	if nb*words > uninitMaxWords {
		return nil, true
	}
	// in[b]: the slots written on every path from the entry to block b
	// (the entry: none; the others start full and shrink)
	sets := make([]uint64, 2*(nb+1)*words)
	in, def := sets[:(nb+1)*words], sets[(nb+1)*words:]
	set := func(s []uint64, b int) []uint64 { return s[b*words : (b+1)*words] }
	for b := 1; b <= nb; b++ {
		for w := range set(in, b) {
			set(in, b)[w] = ^uint64(0)
		}
	}
	succs := make([][]int, nb)
	for b := 0; b < nb; b++ {
		last := starts[b+1] - 1
		for i := starts[b]; i <= last; i++ {
			for _, s := range defs(i) {
				set(def, b)[s/64] |= 1 << (s % 64)
			}
		}
		inst := fn.Insts[last]
		switch {
		case inst.Opcode == "bra" && len(inst.Operands) == 1 && inst.Operands[0].Kind == ir.OpLabel:
			succs[b] = append(succs[b], blockOf[inst.Operands[0].Label])
			if inst.Guard != nil {
				succs[b] = append(succs[b], b+1)
			}
		case inst.Opcode == "brx":
			for _, t := range f.Ops[last].aux.([]int32) {
				succs[b] = append(succs[b], blockOf[t])
			}
			if inst.Guard != nil {
				succs[b] = append(succs[b], b+1)
			}
		case (inst.Opcode == "ret" || inst.Opcode == "exit" || inst.Opcode == "trap") && inst.Guard == nil:
		default:
			succs[b] = append(succs[b], b+1) // (block nb: past the end)
		}
	}
	out := make([]uint64, words)
	for changed := true; changed; {
		changed = false
		for b := 0; b < nb; b++ {
			for w := range out {
				out[w] = set(in, b)[w] | set(def, b)[w]
			}
			for _, c := range succs[b] {
				for w, v := range set(in, c) {
					if v&out[w] != v {
						set(in, c)[w], changed = v&out[w], true
					}
				}
			}
		}
	}
	need := make([]uint64, words)
	cur := make([]uint64, words)
	for b := 0; b < nb; b++ {
		copy(cur, set(in, b))
		for i := starts[b]; i < starts[b+1]; i++ {
			for _, s := range uses(i) {
				if cur[s/64]>>(s%64)&1 == 0 {
					need[s/64] |= 1 << (s % 64)
				}
			}
			for _, s := range defs(i) {
				cur[s/64] |= 1 << (s % 64)
			}
		}
	}
	for _, r := range fn.Regs {
		if r.Type != ".pred" && (r.Vector > 0 || r.Type == ".b128") {
			width := slotCount(r)
			for k := int(f.slot[r.ID]); k < int(f.slot[r.ID])+width; k++ {
				need[k/64] |= 1 << (k % 64)
			}
		}
	}
	for s := 0; s < f.regSlots; s++ {
		if need[s/64]>>(s%64)&1 != 0 {
			rows = append(rows, int32(s))
		}
	}
	return slices.Clip(rows), false
}
