package check

import (
	"testing"

	"github.com/ptxvm/ptxvm/internal/isa"
	"github.com/ptxvm/ptxvm/ptx"
)

// TestMatchOfAnyOrder: the builder finds each instruction's accepted form
// whether it meets the instructions in the checker's order or not (the
// functions in another order), and nil for one the checker did not
// accept.
func TestMatchOfAnyOrder(t *testing.T) {
	var ins [6]ptx.Instruction
	c := &checker{}
	for i := range 5 {
		c.matched = append(c.matched, matchedInst{in: &ins[i], m: match{instr: &isa.Instr{}}})
	}
	b := &builder{c: c}
	for _, i := range []int{3, 4, 0, 1, 2, 5, 2, 0} {
		m := b.matchOf(&ins[i])
		switch {
		case i == 5 && m != nil:
			t.Fatalf("instruction %d, never accepted, found a form", i)
		case i != 5 && (m == nil || m.m.instr != c.matched[i].m.instr):
			t.Fatalf("instruction %d: wrong form", i)
		}
	}
}
