package ptx

import "strings"

// The lexer turns PTX source bytes into tokens (ptx-isa-9.0.txt 4.1-4.5).
// It works on bytes, never allocates per token (token text is a substring of
// the source), and reports malformed input through errf and keeps going.

type lexer struct {
	src       string
	file      string
	off       int
	line      int
	lineStart int
	errf      func(Pos, string)
	comments  *[]Comment // where to record comments; nil discards them
}

func newLexer(file string, src []byte, errf func(Pos, string), comments *[]Comment) *lexer {
	s := string(src)
	// PTX cut out of a binary or a C string may end in NUL bytes: the text
	// ends at the first of them (as a C string would) when only NULs follow.
	if i := strings.IndexByte(s, 0); i >= 0 && strings.Trim(s[i:], "\x00") == "" {
		s = s[:i]
	}
	if len(s) >= 3 && s[:3] == "\xef\xbb\xbf" { // UTF-8 byte order mark
		s = "   " + s[3:]
	}
	return &lexer{src: s, file: file, line: 1, errf: errf, comments: comments}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// isFollowsym reports whether c may continue an identifier (4.4: [a-zA-Z0-9_$]).
func isFollowsym(c byte) bool { return followsym[c] }

// Byte classes: what a token starting with the byte may be.
const (
	clsOther   = iota // not valid in PTX outside strings and comments
	clsBlank          // ' ' \t \r \f \v
	clsNewline        // \n
	clsIdent          // a letter, '_' or '$'
	clsDigit          // a number
	clsDot            // a directive word, a float like .5, or '.'
	clsPercent        // %name, or the operator
	clsSlash          // a comment, or the operator
	clsQuote          // a string
	clsHash           // a preprocessor line
	clsAt             // @@DWARF, or a guard's '@'
	clsPunct1         // punctuation that is always one byte
	clsPunct2         // punctuation that may be the first of two bytes (<< <= == ...)
)

var byteClass, followsym = func() (cls [256]uint8, follow [256]bool) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		follow[c] = isLetter(b) || isDigit(b) || b == '_' || b == '$'
		switch {
		case b == ' ' || b == '\t' || b == '\r' || b == '\f' || b == '\v':
			cls[c] = clsBlank
		case b == '\n':
			cls[c] = clsNewline
		case isLetter(b) || b == '_' || b == '$':
			cls[c] = clsIdent
		case isDigit(b):
			cls[c] = clsDigit
		}
	}
	for _, b := range []byte(",;:{}[]()+-*~^?") {
		cls[b] = clsPunct1
	}
	for _, b := range []byte("<>=!&|") {
		cls[b] = clsPunct2
	}
	cls['.'], cls['%'], cls['/'], cls['"'], cls['#'], cls['@'] = clsDot, clsPercent, clsSlash, clsQuote, clsHash, clsAt
	return
}()

func isHexDigit(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func (lx *lexer) posAt(off int) Pos {
	return Pos{File: lx.file, Line: lx.line, Col: off - lx.lineStart + 1}
}

func (lx *lexer) errorAt(off int, msg string) {
	if lx.errf != nil {
		lx.errf(lx.posAt(off), msg)
	}
}

func (lx *lexer) newline(off int) {
	lx.line++
	lx.lineStart = off + 1
}

// atLineStart reports whether only blanks precede off on its line.
func (lx *lexer) atLineStart(off int) bool {
	for i := off - 1; i >= lx.lineStart; i-- {
		if c := lx.src[i]; c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v' {
			return false
		}
	}
	return true
}

func (lx *lexer) tok(kind tokenKind, start int) token {
	return token{kind: kind, text: lx.src[start:lx.off], file: lx.file, line: int32(lx.line), col: int32(start - lx.lineStart + 1)}
}

// set stores the token src[start:lx.off] of the given kind in *t. It
// leaves t.file, which scan's callers set: a pointer store per token costs
// a write barrier whenever the collector is marking.
func (lx *lexer) set(t *token, kind tokenKind, start int) {
	t.kind = kind
	t.text = lx.src[start:lx.off]
	t.line = int32(lx.line)
	t.col = int32(start - lx.lineStart + 1)
}

// next returns the next token, skipping blanks and comments.
func (lx *lexer) next() token {
	t := token{file: lx.file}
	lx.scan(&t)
	return t
}

// scan stores the next token in *t, whose file must already be lx.file
// (set writes the rest). Writing the fields in place, rather
// than returning a token to copy, saves the parser's hot path a 48-byte
// copy per token (and a store-forwarding stall on each). It dispatches on a
// byte-class table: a chain of comparisons cost more than the scan itself
// on the common one- and two-byte tokens.
func (lx *lexer) scan(t *token) {
	src := lx.src
	for lx.off < len(src) {
		start := lx.off
		c := src[start]
		switch byteClass[c] {
		case clsNewline:
			lx.off++
			lx.newline(start)
			continue
		case clsBlank:
			end := start + 1
			for end < len(src) && byteClass[src[end]] == clsBlank {
				end++
			}
			lx.off = end
			continue
		case clsIdent:
			lx.off = lx.follows(start + 1)
			lx.set(t, tokIdent, start)
			return
		case clsPercent:
			if start+1 < len(src) && isFollowsym(src[start+1]) {
				lx.off = lx.follows(start + 1)
				lx.set(t, tokIdent, start)
				return
			}
			lx.off++
			lx.set(t, tokPunct, start)
			return
		case clsPunct1:
			lx.off++
			lx.set(t, tokPunct, start)
			return
		case clsPunct2:
			lx.off = start + punctLen(src, start)
			lx.set(t, tokPunct, start)
			return
		case clsDot:
			if start+1 < len(src) && isDigit(src[start+1]) && !lx.digitWord(start+1) {
				lx.set(t, lx.number(start), start)
				return
			}
			if start+1 < len(src) && isFollowsym(src[start+1]) {
				lx.dotWord(start)
				lx.set(t, tokDotWord, start)
				return
			}
			lx.off++
			lx.set(t, tokPunct, start)
			return
		case clsDigit:
			lx.set(t, lx.number(start), start)
			return
		case clsSlash:
			if start+1 < len(src) && src[start+1] == '/' {
				end := len(src) // a comment runs to the end of its line
				if i := strings.IndexByte(src[start+2:], '\n'); i >= 0 {
					end = start + 2 + i
				}
				lx.off = end
				lx.comment(start)
				continue
			}
			if start+1 < len(src) && src[start+1] == '*' {
				lx.blockComment(start)
				continue
			}
			lx.off++
			lx.set(t, tokPunct, start)
			return
		case clsQuote:
			lx.str(t, start)
			return
		case clsHash:
			if lx.atLineStart(start) {
				*t = lx.hashLine(start)
				return
			}
			lx.off++
			lx.errorAt(start, "'#' must begin a preprocessor line")
			continue
		case clsAt:
			if start+1 < len(src) && src[start+1] == '@' {
				if d, ok := lx.dwarf(start); ok {
					*t = d
					return
				}
			}
			lx.off = start + 1
			lx.set(t, tokPunct, start)
			return
		default:
			lx.off++
			if c >= 0x80 {
				for lx.off < len(src) && src[lx.off] >= 0x80 && src[lx.off] < 0xC0 { // skip the rest of a UTF-8 sequence
					lx.off++
				}
			}
			lx.errorAt(start, "unexpected character "+quoteChar(src[start:lx.off]))
			continue
		}
	}
	*t = token{kind: tokEOF, file: lx.file, line: int32(lx.line), col: int32(lx.off - lx.lineStart + 1)}
}

// follows returns the end of the run of identifier characters from off.
func (lx *lexer) follows(off int) int {
	src := lx.src
	for off < len(src) && isFollowsym(src[off]) {
		off++
	}
	return off
}

// dwarf scans an `@@DWARF` line at start; ok is false when the word after
// `@@` is not DWARF (the `@` is then punctuation).
func (lx *lexer) dwarf(start int) (t token, ok bool) {
	src := lx.src
	end := lx.follows(start + 2)
	if word := src[start+2 : end]; len(word) != 5 || !equalFoldASCII(word, "dwarf") {
		return token{}, false
	}
	tstart := end
	for tstart < len(src) && (src[tstart] == ' ' || src[tstart] == '\t') {
		tstart++
	}
	tend := tstart
	for tend < len(src) && src[tend] != '\n' {
		tend++
	}
	t = token{kind: tokDwarf, text: trimRight(src[tstart:tend]), file: lx.file, line: int32(lx.line), col: int32(start - lx.lineStart + 1)}
	lx.off = tend
	return t, true
}

func (lx *lexer) comment(start int) {
	if lx.comments != nil {
		*lx.comments = append(*lx.comments, Comment{Pos: lx.posAt(start), Text: lx.src[start:lx.off]})
	}
}

func (lx *lexer) blockComment(start int) {
	src := lx.src
	pos := lx.posAt(start)
	i := start + 2
	for ; i+1 < len(src); i++ {
		if src[i] == '*' && src[i+1] == '/' {
			break
		}
		if src[i] == '\n' {
			lx.newline(i)
		}
	}
	if i+1 >= len(src) {
		for ; i < len(src); i++ {
			if src[i] == '\n' {
				lx.newline(i)
			}
		}
		lx.off = len(src)
		if lx.errf != nil {
			lx.errf(pos, "comment not terminated")
		}
		return
	}
	lx.off = i + 2
	if lx.comments != nil {
		*lx.comments = append(*lx.comments, Comment{Pos: pos, Text: src[start:lx.off]})
	}
}

// digitWord reports whether the digits at off continue into letters, as in
// `.1d` or `.2dms` (texture geometries), rather than a float like `.05`.
func (lx *lexer) digitWord(off int) bool {
	src := lx.src
	for off < len(src) && isDigit(src[off]) {
		off++
	}
	if off < len(src) && (src[off] == 'e' || src[off] == 'E') {
		n := off + 1
		if n < len(src) && (src[n] == '+' || src[n] == '-') {
			n++
		}
		if n < len(src) && isDigit(src[n]) {
			return false // .5e3
		}
	}
	return off < len(src) && (isLetter(src[off]) || src[off] == '_' || src[off] == '$')
}

// dotWord scans `.word{::word}`; lx.off ends after it.
func (lx *lexer) dotWord(start int) {
	src := lx.src
	end := start + 1
	for {
		for end < len(src) && isFollowsym(src[end]) {
			end++
		}
		if end+2 < len(src) && src[end] == ':' && src[end+1] == ':' && isFollowsym(src[end+2]) {
			end += 2
			continue
		}
		break
	}
	lx.off = end
}

// number scans an integer or float constant (4.5) and returns its kind;
// lx.off ends after it. Malformed constants are taken whole (letters and
// digits included) for the parser to reject with a precise message.
func (lx *lexer) number(start int) tokenKind {
	src := lx.src
	i := start
	kind := tokInt
	if src[i] == '0' && i+1 < len(src) {
		switch src[i+1] {
		case 'x', 'X', 'b', 'B':
			i += 2
			for i < len(src) && isFollowsym(src[i]) {
				i++
			}
			lx.off = i
			return tokInt
		case 'f', 'F', 'd', 'D':
			i += 2
			for i < len(src) && isFollowsym(src[i]) {
				i++
			}
			lx.off = i
			return tokFloat
		}
	}
	for i < len(src) && isDigit(src[i]) {
		i++
	}
	if i < len(src) && src[i] == '.' && (i+1 >= len(src) || !isLetter(src[i+1]) && src[i+1] != '_') {
		kind = tokFloat
		i++
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		n := i + 1
		if n < len(src) && (src[n] == '+' || src[n] == '-') {
			n++
		}
		if n < len(src) && isDigit(src[n]) {
			kind = tokFloat
			i = n
			for i < len(src) && isDigit(src[i]) {
				i++
			}
		}
	}
	for i < len(src) && isFollowsym(src[i]) { // a U suffix, or junk the parser reports
		i++
	}
	lx.off = i
	return kind
}

func (lx *lexer) str(t *token, start int) {
	src := lx.src
	i := start + 1
	for i < len(src) && src[i] != '"' && src[i] != '\n' {
		if src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n' {
			i++
		}
		i++
	}
	if i >= len(src) || src[i] != '"' {
		lx.off = i
		lx.errorAt(start, "string not terminated")
		lx.set(t, tokString, start)
		t.text += `"`
		return
	}
	lx.off = i + 1
	lx.set(t, tokString, start)
}

// hashLine scans a preprocessor line, joining backslash-newline continuations.
func (lx *lexer) hashLine(start int) token {
	src := lx.src
	t := token{kind: tokHash, file: lx.file, line: int32(lx.line), col: int32(start - lx.lineStart + 1)}
	i := start + 1
	seg := i
	var joined []byte
	for i < len(src) && src[i] != '\n' {
		if src[i] == '\\' && (i+1 < len(src) && src[i+1] == '\n' || i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n') {
			joined = append(joined, src[seg:i]...)
			joined = append(joined, ' ')
			if src[i+1] == '\r' {
				i++
			}
			i++
			lx.newline(i)
			i++
			seg = i
			continue
		}
		i++
	}
	if joined != nil {
		joined = append(joined, src[seg:i]...)
		t.text = trimRight(string(joined))
	} else {
		t.text = trimRight(src[start+1 : i])
	}
	lx.off = i
	return t
}

// punctLen returns the length of the operator or delimiter at src[i], or 0.
func punctLen(src string, i int) int {
	c := src[i]
	if i+1 < len(src) {
		switch d := src[i+1]; {
		case c == '<' && (d == '<' || d == '='),
			c == '>' && (d == '>' || d == '='),
			c == '=' && d == '=',
			c == '!' && d == '=',
			c == '&' && d == '&',
			c == '|' && d == '|':
			return 2
		}
	}
	switch c {
	case ',', ';', ':', '{', '}', '[', ']', '(', ')', '<', '>', '+', '-', '*', '/', '%', '!', '~', '&', '|', '^', '?', '@', '=':
		return 1
	}
	return 0
}

func trimRight(s string) string {
	for len(s) > 0 {
		switch s[len(s)-1] {
		case ' ', '\t', '\r', '\f', '\v':
			s = s[:len(s)-1]
			continue
		}
		break
	}
	return s
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i]|0x20, b[i]|0x20
		if x != y {
			return false
		}
	}
	return true
}

func quoteChar(s string) string {
	if len(s) == 1 && (s[0] < 0x20 || s[0] >= 0x7f) {
		const hex = "0123456789abcdef"
		return "'\\x" + string(hex[s[0]>>4]) + string(hex[s[0]&15]) + "'"
	}
	return "'" + s + "'"
}
