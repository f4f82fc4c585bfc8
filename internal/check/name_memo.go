package check

import "github.com/ptxvm/ptxvm/ptx"

// nameMemo keeps the symbols of the names one instruction uses: checking
// it asks for each operand's name several times (is it declared, a
// register of what type, a variable), and comparing pointers costs less
// than walking the scopes again. Its scope's names do not change while
// the scope's instructions are checked (block declares them first).
type nameMemo struct {
	s    *scope
	n    int
	ids  [nameMemoSize]*ptx.Ident
	syms [nameMemoSize]*symbol
}

// nameMemoSize bounds the names kept; an instruction's further names are
// looked up each time.
const nameMemoSize = 8

// reset forgets the names kept (block calls it per instruction).
func (m *nameMemo) reset() { m.n = 0 }

// find is s.find(id.Name), kept.
func (c *checker) find(s *scope, id *ptx.Ident) *symbol {
	m := &c.names
	if m.s != s {
		m.s, m.n = s, 0
	}
	for i := range m.n {
		if m.ids[i] == id {
			return m.syms[i]
		}
	}
	sym := s.find(id.Name)
	if m.n < nameMemoSize {
		m.ids[m.n], m.syms[m.n] = id, sym
		m.n++
	}
	return sym
}
