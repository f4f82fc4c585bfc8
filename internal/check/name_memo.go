package check

import "github.com/ptxvm/ptxvm/ptx"

// nameMemo keeps the symbols of the names one instruction uses: checking
// it asks for each operand's name several times (is it declared, a
// register of what type, a variable), and comparing pointers costs less
// than walking the scopes again. Its scope's names do not change while
// the scope's instructions are checked (block declares them first).
// Build keeps every accepted instruction's names for the builder
// (keepNames), which resolves its operands from them.
type nameMemo struct {
	s *scope
	// used[from:]: the instruction's names; used[:from] are the
	// instructions' kept for Build
	from int
	used []usedName
}

// A usedName is a name an instruction uses and the symbol it denotes,
// with the name's index in its range (scope.findAt). The guard's
// predicate is written without a *ptx.Ident: its id is nil.
type usedName struct {
	id    *ptx.Ident
	sym   *symbol
	index int
}

// nameMemoSize bounds the names kept per instruction; an instruction's
// further names are looked up each time.
const nameMemoSize = 16

// start forgets the instruction's names kept, for an instruction of s
// (block calls it per instruction).
func (m *nameMemo) start(s *scope) { m.s, m.used = s, m.used[:m.from] }

// keep adds a name's symbol, if there is room.
func (m *nameMemo) keep(id *ptx.Ident, sym *symbol, index int) {
	if len(m.used)-m.from < nameMemoSize {
		m.used = append(m.used, usedName{id, sym, index})
	}
}

// find is s.find(id.Name), kept.
func (c *checker) find(s *scope, id *ptx.Ident) *symbol {
	m := &c.names
	if m.s != s {
		m.start(s)
	}
	for i := m.from; i < len(m.used); i++ {
		if m.used[i].id == id {
			return m.used[i].sym
		}
	}
	sym, index := s.findAt(id.Name)
	m.keep(id, sym, index)
	return sym
}

// keepNames keeps, for Build, the names in's checking found, if in was
// accepted (the builder resolves them from these: builder.used).
func (c *checker) keepNames(in *ptx.Instruction) {
	n := len(c.matched)
	if n == 0 || c.matched[n-1].in != in {
		return
	}
	m := &c.names
	mi := &c.matched[n-1]
	mi.namesFrom, mi.namesTo = int32(m.from), int32(len(m.used))
	m.from = len(m.used)
}
