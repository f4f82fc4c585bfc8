package check

import "github.com/ptxvm/ptxvm/internal/isa"

// A memo is an answer (gate's findings, spec's operand rule) kept for an
// opcode-and-modifiers combination and form, with the questions about the
// instruction's operands it depended on (isa.Alt with Operand: is one
// present, of what kind) and their answers. An instruction whose
// operands answer them alike gets the same answer.
type memo[V any] struct {
	asked   []isa.Alt
	answers []bool
	v       V
}

// maxMemos bounds the memos kept per key (the operands' variety).
const maxMemos = 8

// recall returns the value of the first of ms whose questions the
// instruction at hand (answer) answers alike.
func recall[V any](ms []memo[V], answer func(isa.Alt) bool) (V, bool) {
next:
	for _, m := range ms {
		for i, a := range m.asked {
			if answer(a) != m.answers[i] {
				continue next
			}
		}
		return m.v, true
	}
	var zero V
	return zero, false
}

// ask records question a and its answer v, and returns v.
func (m *memo[V]) ask(a isa.Alt, v bool) bool {
	m.asked, m.answers = append(m.asked, a), append(m.answers, v)
	return v
}

// remember adds m to the memos *ms (up to maxMemos).
func remember[V any](ms *[]memo[V], m memo[V]) {
	if len(*ms) < maxMemos {
		*ms = append(*ms, m)
	}
}
