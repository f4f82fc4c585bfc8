package ptx

// tokenKind classifies a token produced by the lexer.
type tokenKind uint8

const (
	tokEOF     tokenKind = iota
	tokIdent             // foo, %r1, $L__BB0_1, _ (identifiers per ptx-isa-9.0.txt 4.4)
	tokDotWord           // .u32, .shared::cta, .L2::cache_hint, .2d
	tokInt               // 42, 0x1F, 017, 0b101, 7U
	tokFloat             // 0f3F800000, 0d3FF0000000000000, 1.5, .05, 1e10
	tokString            // "text" (text keeps the quotes)
	tokPunct             // operators and delimiters: , ; : { } [ ] ( ) + - << && ...
	tokHash              // a preprocessor line; text is everything after '#', continuations joined
	tokDwarf             // an @@DWARF line; text is the rest of the line
)

var tokenKindNames = [...]string{"end of file", "identifier", "directive", "integer", "float", "string", "punctuation", "preprocessor line", "@@DWARF line"}

func (k tokenKind) String() string { return tokenKindNames[k] }

// token is one lexical token. text is a substring of the source (no copy).
type token struct {
	kind tokenKind
	text string
	file string
	line int32
	col  int32
}

func (t token) pos() Pos { return Pos{File: t.file, Line: int(t.line), Col: int(t.col)} }

// is reports whether t is the punctuation or directive word s.
func (t token) is(s string) bool {
	return (t.kind == tokPunct || t.kind == tokDotWord || t.kind == tokIdent) && t.text == s
}

// describe names t for diagnostics: `"foo"`, `end of file`.
func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "end of file"
	case tokHash:
		return "preprocessor line"
	case tokDwarf:
		return "@@DWARF line"
	}
	return "'" + t.text + "'"
}

// tokenSource is what the parser reads: the lexer, or the preprocessor
// wrapped around it, or a fixed slice of tokens.
type tokenSource interface {
	next() token
}

// sliceSource replays a fixed list of tokens, then EOF.
type sliceSource struct {
	toks []token
	eof  token
}

func (s *sliceSource) next() token {
	if len(s.toks) == 0 {
		return s.eof
	}
	t := s.toks[0]
	s.toks = s.toks[1:]
	return t
}
