package ptx

import "bytes"

// Slab allocation of the most frequent nodes. A multi-megabyte module has
// millions of identifiers and literals; taking them from slabs instead of
// one heap allocation each roughly halves parse time. Slices handed out are
// capped (s[i:j:j]) so a caller's append never overwrites a neighbour.
// Each kind's slabs start small and double up to slabSize (exprs and words
// four times that): a kernel of a few dozen instructions does not pay for
// slabs a large module fills.

const slabSize = 256

type slabs struct {
	idents []Ident
	ints   []IntLit
	instrs []Instruction
	exprs  []Expr
	words  []string
}

// presize makes each kind's first slab about as large as src needs, up to
// its limit, so a small module's nodes fit in one slab of each kind rather
// than a 16 and a 32 (the larger half empty). Compiler output ends nearly
// every instruction in ';' and names nearly every operand with '%'; a prefix
// is enough to reach the limits of a large module. It returns the likely
// number of statements of a body, labels included.
func (s *slabs) presize(src []byte) int {
	src = src[:min(len(src), 32<<10)]
	semis := bytes.Count(src, []byte{';'})
	names := bytes.Count(src, []byte{'%'})
	ints := semis/2 + 4
	if semis > 0 {
		s.instrs = make([]Instruction, 0, min(semis+semis/16+1, slabSize))
	}
	if names > 0 {
		s.idents = make([]Ident, 0, min(names+names/16+4, slabSize))
	}
	s.ints = make([]IntLit, 0, min(ints, slabSize))
	s.exprs = make([]Expr, 0, min(names+semis/2+8, slabSize*4))
	s.words = make([]string, 0, min(semis+semis/2+8, slabSize*4))
	return semis + semis/4 + 4
}

// grow returns the size of a kind's next slab after one of last (its
// full slab's capacity).
func grow(last, limit int) int { return min(max(2*last, 16), limit) }

func (s *slabs) ident(pos Pos, name string) *Ident {
	if len(s.idents) == cap(s.idents) {
		s.idents = make([]Ident, 0, grow(cap(s.idents), slabSize))
	}
	s.idents = append(s.idents, Ident{Pos: pos, Name: name})
	return &s.idents[len(s.idents)-1]
}

func (s *slabs) intLit(l IntLit) *IntLit {
	if len(s.ints) == cap(s.ints) {
		s.ints = make([]IntLit, 0, grow(cap(s.ints), slabSize))
	}
	s.ints = append(s.ints, l)
	return &s.ints[len(s.ints)-1]
}

func (s *slabs) instruction() *Instruction {
	if len(s.instrs) == cap(s.instrs) {
		s.instrs = make([]Instruction, 0, grow(cap(s.instrs), slabSize))
	}
	s.instrs = s.instrs[:len(s.instrs)+1]
	return &s.instrs[len(s.instrs)-1]
}

// exprList copies list into slab storage.
func (s *slabs) exprList(list []Expr) []Expr {
	n := len(list)
	if n == 0 {
		return nil
	}
	if n > slabSize/4 {
		return append([]Expr(nil), list...)
	}
	if cap(s.exprs)-len(s.exprs) < n {
		s.exprs = make([]Expr, 0, max(grow(cap(s.exprs), slabSize*4), n))
	}
	i := len(s.exprs)
	s.exprs = append(s.exprs, list...)
	return s.exprs[i : i+n : i+n]
}

// wordList copies list into slab storage.
func (s *slabs) wordList(list []string) []string {
	n := len(list)
	if n == 0 {
		return nil
	}
	if n > slabSize/4 {
		return append([]string(nil), list...)
	}
	if cap(s.words)-len(s.words) < n {
		s.words = make([]string, 0, max(grow(cap(s.words), slabSize*4), n))
	}
	i := len(s.words)
	s.words = append(s.words, list...)
	return s.words[i : i+n : i+n]
}
