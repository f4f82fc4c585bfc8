package ptx

// newPreprocessor wraps a lexer with the C-preprocessor subset of
// ptx-isa-9.0.txt 4.1. (Placeholder: passes tokens through and rejects
// preprocessor lines; the full implementation replaces this file.)
func newPreprocessor(lx *lexer, opts *ParseOptions, errf func(Pos, string)) tokenSource {
	return &passThrough{lx: lx, errf: errf}
}

type passThrough struct {
	lx   *lexer
	errf func(Pos, string)
}

func (p *passThrough) next() token {
	for {
		t := p.lx.next()
		if t.kind != tokHash {
			return t
		}
		p.errf(t.pos(), "preprocessor directives are not supported yet")
	}
}
