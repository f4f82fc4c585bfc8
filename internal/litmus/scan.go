package litmus

import (
	"strings"
)

// stripComments blanks out herd comments "(* ... *)" and line comments
// "// ..." outside quoted strings, keeping every newline and column so that
// positions still point into the original text.
func stripComments(src string) string {
	b := []byte(src)
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inStr:
			if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '(' && i+1 < len(b) && b[i+1] == '*':
			depth := 0
			j := i
			for ; j < len(b); j++ {
				if b[j] == '(' && j+1 < len(b) && b[j+1] == '*' {
					depth++
					b[j], b[j+1] = ' ', ' '
					j++
					continue
				}
				if b[j] == '*' && j+1 < len(b) && b[j+1] == ')' {
					depth--
					b[j], b[j+1] = ' ', ' '
					j++
					if depth == 0 {
						break
					}
					continue
				}
				if b[j] != '\n' {
					b[j] = ' '
				}
			}
			i = j
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		}
	}
	return string(b)
}

// tok is a token of the header, init block and condition.
type tok struct {
	kind tokKind
	text string
	pos  Pos
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tNum
	tString
	tPunct
)

// scanner splits text into tokens, tracking line and column.
type scanner struct {
	src       string
	off       int
	line, col int
	lineStart int
}

func newScanner(src string, line int) *scanner {
	return &scanner{src: src, line: line, col: 1}
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '%' || c == '$' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9' || c == ':' && false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (s *scanner) pos() Pos { return Pos{s.line, s.off - s.lineStart + 1} }

func (s *scanner) skipSpace() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		if c == '\n' {
			s.off++
			s.line++
			s.lineStart = s.off
			continue
		}
		if c == ' ' || c == '\t' || c == '\r' {
			s.off++
			continue
		}
		break
	}
}

// next returns the next token.
func (s *scanner) next() tok {
	s.skipSpace()
	p := s.pos()
	if s.off >= len(s.src) {
		return tok{kind: tEOF, pos: p}
	}
	c := s.src[s.off]
	start := s.off
	switch {
	case c == '"':
		s.off++
		for s.off < len(s.src) && s.src[s.off] != '"' {
			if s.src[s.off] == '\n' {
				s.line++
				s.lineStart = s.off + 1
			}
			s.off++
		}
		if s.off < len(s.src) {
			s.off++
		}
		return tok{tString, s.src[start:s.off], p}
	case isDigit(c) || c == '-' && s.off+1 < len(s.src) && isDigit(s.src[s.off+1]):
		s.off++
		for s.off < len(s.src) && (isDigit(s.src[s.off]) || s.src[s.off] == 'x' || s.src[s.off] == 'X' ||
			(s.src[s.off] >= 'a' && s.src[s.off] <= 'f') || (s.src[s.off] >= 'A' && s.src[s.off] <= 'F')) {
			s.off++
		}
		return tok{tNum, s.src[start:s.off], p}
	case isIdentStart(c):
		s.off++
		for s.off < len(s.src) && (isIdentStart(s.src[s.off]) || isDigit(s.src[s.off]) ||
			s.src[s.off] == ':' && s.off+1 < len(s.src) && s.src[s.off+1] == ':') {
			if s.src[s.off] == ':' {
				s.off++
			}
			s.off++
		}
		return tok{tIdent, s.src[start:s.off], p}
	}
	for _, op := range []string{"/\\", "\\/", "==", "!=", "<>", "&&", "||"} {
		if strings.HasPrefix(s.src[s.off:], op) {
			s.off += len(op)
			return tok{tPunct, op, p}
		}
	}
	s.off++
	return tok{tPunct, s.src[start:s.off], p}
}

// tokens scans all of src.
func tokens(src string, line int) []tok {
	s := newScanner(src, line)
	var out []tok
	for {
		t := s.next()
		out = append(out, t)
		if t.kind == tEOF {
			return out
		}
	}
}
