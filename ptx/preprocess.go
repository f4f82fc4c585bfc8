package ptx

// The preprocessor: the C-preprocessor subset of ptx-isa-9.0.txt 4.1
// (#include, #define, #if, #ifdef, #else, #endif, #line, #file, plus the
// companions #undef, #ifndef, #elif and #error), as a token-stream filter
// between the lexer and the parser.
//
// Macro expansion follows C: arguments are fully expanded before
// substitution (except next to # and ##), the result is rescanned with the
// rest of the input, and a macro is never expanded again inside its own
// expansion. That "blue paint" rule is implemented with hide sets (Prosser's
// algorithm): every token carries the set of macros it came out of.
//
// PTX twist: a directive word `.NAME` is `.` followed by NAME to cpp, so
// NAME is expanded there too (`ld.SPACE.u32` with SPACE defined as global
// reads `ld.global.u32`); the expansion must start with a word.
//
// Expanded tokens take the position of the macro name that was expanded, so
// diagnostics point at the use, not the definition.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// maxIncludeDepth bounds #include nesting; it is also how include cycles are
// caught, so that guarded (#ifndef) mutual includes still work.
const maxIncludeDepth = 64

// Bounds on macro expansion, so that no input can hang or exhaust the
// process: tokens produced by all expansions of a source (exponential
// definitions reach it quickly) and nesting of argument pre-expansion.
const (
	maxExpansionTokens = 1 << 24
	maxExpansionDepth  = 200
)

// hideset is an immutable set of macro names, as a list (sets are tiny).
type hideset struct {
	name string
	next *hideset
}

func (h *hideset) has(name string) bool {
	for ; h != nil; h = h.next {
		if h.name == name {
			return true
		}
	}
	return false
}

func (h *hideset) add(name string) *hideset {
	if h.has(name) {
		return h
	}
	return &hideset{name, h}
}

func (h *hideset) union(o *hideset) *hideset {
	for ; o != nil; o = o.next {
		h = h.add(o.name)
	}
	return h
}

func (h *hideset) intersect(o *hideset) *hideset {
	var r *hideset
	for ; h != nil; h = h.next {
		if o.has(h.name) {
			r = &hideset{h.name, r}
		}
	}
	return r
}

// ppToken is a token on its way through macro expansion.
type ppToken struct {
	t  token
	hs *hideset
}

type macro struct {
	name     string
	pos      Pos
	fn       bool     // function-like
	params   []string // "__VA_ARGS__" last when variadic
	variadic bool
	body     []token
	param    []int // per body token: index of the parameter it names, or -1
}

type condFrame struct {
	pos     Pos    // of the opening directive
	name    string // "#if", "#ifdef" or "#ifndef"
	taken   bool   // a group of this conditional was (or is being) included
	sawElse bool
}

type ppFile struct {
	lx    *lexer
	path  string // as opened: the base of nested quoted includes
	conds []condFrame
}

type preprocessor struct {
	errf   func(Pos, string)
	opts   *ParseOptions
	read   func(string) ([]byte, error)
	macros map[string]*macro
	files  []*ppFile // include stack; the last is being read
	cur    *ppFile
	x      expander // the main input: pending tokens, then cur.lx
	// initial marks the first bytes of macro names ever defined: most
	// words can then skip the map lookup.
	initial [256]bool
	budget  int // tokens that expansions may still produce
	depth   int // nesting of expandList
}

// expander reads tokens and expands macros. The preprocessor's own input
// reads from a lexer after its pending tokens; argument pre-expansion and
// #if expressions use one over a fixed list (lx nil).
type expander struct {
	p     *preprocessor
	stack []ppToken // pending tokens; the next is last
	lx    *lexer
	eof   token // returned at the end when lx is nil
}

// newPreprocessor wraps a lexer with the preprocessor.
func newPreprocessor(lx *lexer, opts *ParseOptions, errf func(Pos, string)) tokenSource {
	if opts == nil {
		opts = &ParseOptions{}
	}
	if errf == nil {
		errf = func(Pos, string) {}
	}
	p := &preprocessor{errf: errf, opts: opts, read: opts.ReadFile, macros: map[string]*macro{}, budget: maxExpansionTokens}
	if p.read == nil {
		p.read = os.ReadFile
	}
	p.cur = &ppFile{lx: lx, path: lx.file}
	p.files = []*ppFile{p.cur}
	p.x = expander{p: p, lx: lx}
	if len(opts.Defines) > 0 {
		names := make([]string, 0, len(opts.Defines))
		for n := range opts.Defines {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			// -DNAME=VALUE is `#define NAME VALUE`; NAME may be `F(x)`.
			h := token{kind: tokHash, file: "<command line>", line: 1}
			p.define(h, p.dirTokens(h, n+" "+opts.Defines[n], 0))
		}
	}
	return p
}

// next returns the next token for the parser. With no macros defined it
// costs one lexer call and a switch per token.
func (p *preprocessor) next() token {
	if len(p.x.stack) == 0 {
		t := p.x.lx.next()
		switch t.kind {
		case tokIdent:
			if len(p.macros) == 0 || !p.initial[t.text[0]] {
				return t
			}
		case tokDotWord:
			if len(p.macros) == 0 || !p.initial[t.text[1]] {
				return t
			}
		case tokHash, tokEOF:
		default:
			return t
		}
		return p.slowNext(ppToken{t: t})
	}
	return p.slowNext(p.x.read())
}

// slowNext handles pt, a token that may start a macro invocation or be a
// directive or an end of file, and returns the next token for the parser.
func (p *preprocessor) slowNext(pt ppToken) token {
	x := &p.x
	for {
		switch pt.t.kind {
		case tokIdent, tokDotWord:
			if len(p.macros) == 0 || !x.expand(pt) {
				return pt.t
			}
		case tokHash:
			p.directive(pt.t)
		case tokEOF:
			if !p.endFile() {
				return pt.t
			}
		default:
			return pt.t
		}
		pt = x.read()
	}
}

// endFile closes the current file at its end, reporting conditionals left
// open; it reports whether reading goes on in the including file.
func (p *preprocessor) endFile() bool {
	f := p.cur
	for _, c := range f.conds {
		p.errf(c.pos, "unterminated "+c.name)
	}
	f.conds = nil
	if len(p.files) == 1 {
		return false
	}
	p.files = p.files[:len(p.files)-1]
	p.cur = p.files[len(p.files)-1]
	p.x.lx = p.cur.lx
	return true
}

// Reading and expanding.

func (x *expander) read() ppToken {
	if n := len(x.stack); n > 0 {
		t := x.stack[n-1]
		x.stack = x.stack[:n-1]
		return t
	}
	if x.lx != nil {
		return ppToken{t: x.lx.next()}
	}
	return ppToken{t: x.eof}
}

// unread pushes t back. An end of file is not pushed: it comes again.
func (x *expander) unread(t ppToken) {
	if t.t.kind != tokEOF {
		x.stack = append(x.stack, t)
	}
}

// pushFront makes ts the next tokens read, in order.
func (x *expander) pushFront(ts []ppToken) {
	for i := len(ts) - 1; i >= 0; i-- {
		x.stack = append(x.stack, ts[i])
	}
}

func isParen(t token, s string) bool { return t.kind == tokPunct && t.text == s }

// expand replaces pt, if it invokes a macro, by the macro's expansion in
// front of the input, and reports whether it did.
func (x *expander) expand(pt ppToken) bool {
	name := pt.t.text
	dot := pt.t.kind == tokDotWord
	if dot {
		name = name[1:]
	}
	m := x.p.macros[name]
	if m == nil || pt.hs.has(name) {
		return false
	}
	var out []ppToken
	if !m.fn {
		out = x.p.subst(m, nil, pt.hs.add(name), pt.t)
	} else {
		nt := x.read()
		if !isParen(nt.t, "(") {
			x.unread(nt) // a function-like macro name alone is not an invocation
			return false
		}
		args, rparen, ok := x.collectArgs(m, pt.t)
		if !ok {
			return true
		}
		out = x.p.subst(m, args, pt.hs.intersect(rparen.hs).add(name), pt.t)
	}
	if dot {
		if len(out) == 0 || out[0].t.kind != tokIdent || out[0].t.text[0] == '%' {
			x.p.errf(pt.t.pos(), "macro "+name+" used after '.' must expand to a word")
			x.unread(ppToken{pt.t, pt.hs.add(name)})
			return true
		}
		out[0].t.kind = tokDotWord
		out[0].t.text = "." + out[0].t.text
	}
	x.pushFront(out)
	return true
}

// collectArgs reads the arguments of an invocation of m up to the closing
// parenthesis (the opening one is read). Directive lines met on the way are
// processed, as GCC does.
func (x *expander) collectArgs(m *macro, at token) (args [][]ppToken, rparen ppToken, ok bool) {
	var cur []ppToken
	depth := 0
	for {
		pt := x.read()
		switch pt.t.kind {
		case tokEOF:
			x.p.errf(at.pos(), "unterminated argument list invoking macro "+m.name)
			return nil, pt, false
		case tokHash:
			x.p.directive(pt.t)
			continue
		case tokPunct:
			switch pt.t.text {
			case "(":
				depth++
			case ")":
				if depth == 0 {
					args = append(args, cur)
					args, ok = x.p.checkArgs(m, args, at)
					return args, pt, ok
				}
				depth--
			case ",":
				if depth == 0 && !(m.variadic && len(args) == len(m.params)-1) {
					args = append(args, cur)
					cur = nil
					continue
				}
			}
		}
		cur = append(cur, pt)
	}
}

func (p *preprocessor) checkArgs(m *macro, args [][]ppToken, at token) ([][]ppToken, bool) {
	n := len(m.params)
	if n == 0 && len(args) == 1 && len(args[0]) == 0 {
		args = nil // F() has no arguments
	}
	if m.variadic && len(args) == n-1 {
		args = append(args, nil) // the variable part may be empty
	}
	if len(args) != n {
		p.errf(at.pos(), fmt.Sprintf("macro %s takes %d argument%s, but %d given", m.name, n, plural(n), len(args)))
		return nil, false
	}
	return args, true
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// expandList fully expands a token list on its own (argument
// pre-expansion, #if and #line operands).
func (p *preprocessor) expandList(ts []ppToken, eof token) []ppToken {
	if p.depth >= maxExpansionDepth {
		p.errf(eof.pos(), "macro arguments nested too deeply")
		return ts
	}
	p.depth++
	defer func() { p.depth-- }()
	x := expander{p: p, eof: eof}
	x.pushFront(ts)
	var out []ppToken
	for {
		pt := x.read()
		if pt.t.kind == tokEOF {
			return out
		}
		if (pt.t.kind == tokIdent || pt.t.kind == tokDotWord) && len(p.macros) != 0 && x.expand(pt) {
			continue
		}
		out = append(out, pt)
	}
}

// subst builds the expansion of m: parameters replaced by arguments, # and
// ## applied, every token placed at the invocation and hidden by hs.
func (p *preprocessor) subst(m *macro, args [][]ppToken, hs *hideset, at token) []ppToken {
	body := m.body
	var expanded [][]ppToken // arguments fully expanded, on first use
	var done []bool
	isPaste := func(i int) bool { return i < len(body) && isParen(body[i], "##") }
	// operand returns the tokens of the operand starting at body[i] (a
	// token, a parameter or `#param`) and the index after it; raw selects
	// the unexpanded argument, as for operands of ##.
	operand := func(i int, raw bool) ([]ppToken, int) {
		b := body[i]
		if m.fn && isParen(b, "#") && i+1 < len(body) && m.param[i+1] >= 0 {
			return []ppToken{{t: p.stringize(args[m.param[i+1]], at)}}, i + 2
		}
		k := m.param[i]
		if k < 0 {
			return []ppToken{{t: b}}, i + 1
		}
		var arg []ppToken
		if raw {
			arg = args[k]
		} else {
			if expanded == nil {
				expanded = make([][]ppToken, len(args))
				done = make([]bool, len(args))
			}
			if !done[k] {
				expanded[k] = p.expandList(args[k], token{kind: tokEOF, file: at.file, line: at.line, col: at.col})
				done[k] = true
			}
			arg = expanded[k]
		}
		arg = append([]ppToken(nil), arg...)
		if b.kind == tokDotWord { // `.param`
			if len(arg) == 0 || arg[0].t.kind != tokIdent || arg[0].t.text[0] == '%' {
				p.errf(at.pos(), "argument for "+b.text+" in macro "+m.name+" must start with a word")
			} else {
				arg[0].t.kind = tokDotWord
				arg[0].t.text = "." + arg[0].t.text
			}
		}
		return arg, i + 1
	}
	out := make([]ppToken, 0, len(body))
	for i := 0; i < len(body); {
		end := i + 1
		if m.fn && isParen(body[i], "#") && i+1 < len(body) && m.param[i+1] >= 0 {
			end = i + 2
		}
		seg, j := operand(i, isPaste(end))
		for isPaste(j) && j+1 < len(body) {
			rhs, k := operand(j+1, true)
			switch {
			case len(seg) == 0: // an empty argument is a placemarker
				seg = rhs
			case len(rhs) > 0:
				pasted := p.paste(seg[len(seg)-1], rhs[0], at)
				seg = append(append(seg[:len(seg)-1], pasted...), rhs[1:]...)
			}
			j = k
		}
		out = append(out, seg...)
		i = j
	}
	if p.budget -= len(out) + 1; p.budget < 0 {
		if p.budget+len(out)+1 >= 0 {
			p.errf(at.pos(), fmt.Sprintf("macro expansion produces more than %d tokens; macros are no longer expanded", maxExpansionTokens))
		}
		clear(p.macros)
		return nil
	}
	for i := range out {
		t := &out[i].t
		t.file, t.line, t.col = at.file, at.line, at.col
		out[i].hs = out[i].hs.union(hs)
	}
	return out
}

// spaced reports whether b was separated from a by blanks in the source.
func spaced(a, b token) bool {
	return a.file != b.file || a.line != b.line || int(a.col)+len(a.text) != int(b.col)
}

// stringize makes the string literal of `#param`.
func (p *preprocessor) stringize(arg []ppToken, at token) token {
	var b strings.Builder
	b.WriteByte('"')
	for i, a := range arg {
		if i > 0 && spaced(arg[i-1].t, a.t) {
			b.WriteByte(' ')
		}
		if a.t.kind != tokString {
			b.WriteString(a.t.text)
			continue
		}
		for j := 0; j < len(a.t.text); j++ {
			if c := a.t.text[j]; c == '"' || c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(a.t.text[j])
		}
	}
	b.WriteByte('"')
	return token{kind: tokString, text: b.String(), file: at.file, line: at.line, col: at.col}
}

// paste joins two tokens with ##; the result must lex as one token.
func (p *preprocessor) paste(l, r ppToken, at token) []ppToken {
	text := l.t.text + r.t.text
	if text == "##" { // `# ## #` makes a ## that is no longer an operator
		return []ppToken{{t: token{kind: tokPunct, text: text, file: at.file, line: at.line, col: at.col}, hs: l.hs.union(r.hs)}}
	}
	bad := false
	lx := &lexer{src: text, line: 1, errf: func(Pos, string) { bad = true }}
	t := lx.next()
	if bad || t.kind == tokEOF || t.kind == tokHash || len(t.text) != len(text) || lx.next().kind != tokEOF {
		p.errf(at.pos(), fmt.Sprintf("pasting %q and %q does not give a valid token", l.t.text, r.t.text))
		return []ppToken{l, r}
	}
	t.text = text
	return []ppToken{{t: t, hs: l.hs.union(r.hs)}}
}

// Directives.

// splitDirective splits the text of a preprocessor line into the directive
// name and the rest, returning the offset of the rest in text.
func splitDirective(text string) (name, rest string, off int) {
	i := 0
	for i < len(text) && isBlank(text[i]) {
		i++
	}
	j := i
	for j < len(text) && isFollowsym(text[j]) {
		j++
	}
	return text[i:j], text[j:], j
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

// directive carries out one preprocessor line of an active group.
func (p *preprocessor) directive(h token) {
	name, rest, off := splitDirective(h.text)
	switch name {
	case "define":
		toks := p.dirTokens(h, rest, off)
		if len(toks) == 0 {
			p.errf(h.pos(), "#define requires a macro name")
			return
		}
		p.define(h, toks)
	case "undef":
		toks := p.dirTokens(h, rest, off)
		if !p.macroName(h, "#undef", toks) {
			return
		}
		delete(p.macros, toks[0].text)
	case "include":
		p.include(h, rest, off)
	case "if", "ifdef", "ifndef":
		v := p.condition(h, name, rest, off)
		p.cur.conds = append(p.cur.conds, condFrame{pos: h.pos(), name: "#" + name, taken: v})
		if !v {
			p.skip()
		}
	case "elif", "else":
		n := len(p.cur.conds)
		if n == 0 {
			p.errf(h.pos(), "#"+name+" without #if")
			return
		}
		c := &p.cur.conds[n-1]
		if c.sawElse {
			p.errf(h.pos(), "#"+name+" after #else")
		}
		if name == "else" {
			c.sawElse = true
		}
		p.skip() // the group before was taken, so this one and the rest are not
	case "endif":
		n := len(p.cur.conds)
		if n == 0 {
			p.errf(h.pos(), "#endif without #if")
			return
		}
		p.cur.conds = p.cur.conds[:n-1]
	case "line":
		p.line(h, p.dirTokens(h, rest, off), "#line")
	case "file":
		toks := p.dirTokens(h, rest, off)
		if len(toks) != 1 || toks[0].kind != tokString {
			p.errf(h.pos(), "#file expects a file name string")
			return
		}
		p.cur.lx.file = unquoteName(toks[0].text)
	case "error":
		p.errf(h.pos(), "#error "+strings.TrimSpace(stripComments(rest)))
	case "":
		if len(p.dirTokens(h, rest, off)) > 0 {
			p.errf(h.pos(), "invalid preprocessor directive")
		} // else the null directive
	default:
		if isDigit(name[0]) { // GNU line marker, as cpp writes: # 12 "file" 1
			i := 0
			for isBlank(h.text[i]) {
				i++
			}
			p.line(h, p.dirTokens(h, h.text[i:], i), "line marker")
			return
		}
		p.errf(h.pos(), "unknown preprocessor directive #"+name)
	}
}

// stripComments replaces the comments of a directive's text by a blank,
// as C does before directives are read, leaving string literals alone.
func stripComments(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			b.WriteString(s[i:j])
			i = j - 1
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			return b.String()
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			e := strings.Index(s[i+2:], "*/")
			if e < 0 {
				return b.String()
			}
			b.WriteByte(' ')
			i += e + 3
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// knownDirective reports whether name is a directive this preprocessor
// knows (checked in skipped groups too).
func knownDirective(name string) bool {
	switch name {
	case "define", "undef", "include", "if", "ifdef", "ifndef", "elif", "else", "endif", "line", "file", "error", "":
		return true
	}
	return isDigit(name[0])
}

// dirTokens lexes s, the part of preprocessor line h's text from offset off
// on. '#' and '##' become punctuation; comments are skipped. The tokens are
// placed on h's line (continuation lines are not told apart).
func (p *preprocessor) dirTokens(h token, s string, off int) []token {
	base := h.col + int32(off) // s[i] is at column base+1+i
	errf := func(pos Pos, msg string) {
		p.errf(Pos{File: h.file, Line: int(h.line), Col: int(base) + pos.Col}, msg)
	}
	lx := &lexer{src: s, file: h.file, line: 1, errf: errf}
	var toks []token
	for {
		i := lx.off
	blanks:
		for i < len(s) {
			switch {
			case isBlank(s[i]):
				i++
			case s[i] == '/' && i+1 < len(s) && s[i+1] == '/':
				i = len(s)
			case s[i] == '/' && i+1 < len(s) && s[i+1] == '*':
				e := strings.Index(s[i+2:], "*/")
				if e < 0 {
					errf(Pos{Col: i + 1}, "comment in a preprocessor line must end on that line")
					i = len(s)
					break blanks
				}
				i += e + 4
			default:
				break blanks
			}
		}
		lx.off = i
		if i >= len(s) {
			break
		}
		if s[i] == '#' {
			n := 1
			if i+1 < len(s) && s[i+1] == '#' {
				n = 2
			}
			lx.off += n
			toks = append(toks, lx.tok(tokPunct, i))
			continue
		}
		t := lx.next()
		if t.kind == tokEOF {
			break
		}
		toks = append(toks, t)
	}
	for i := range toks {
		toks[i].line = h.line
		toks[i].col += base
	}
	return toks
}

// macroName checks that toks is exactly one macro name, for directive what.
func (p *preprocessor) macroName(h token, what string, toks []token) bool {
	if len(toks) == 0 || toks[0].kind != tokIdent || toks[0].text[0] == '%' {
		p.errf(h.pos(), what+" requires a macro name")
		return false
	}
	if len(toks) > 1 {
		p.errf(toks[1].pos(), "extra tokens after "+what+" "+toks[0].text)
	}
	return true
}

// define handles `#define NAME body` and `#define NAME(params) body`; toks
// are the tokens after `define`.
func (p *preprocessor) define(h token, toks []token) {
	nt := toks[0]
	if nt.kind != tokIdent || nt.text[0] == '%' {
		p.errf(nt.pos(), "macro name must be an identifier, not "+nt.describe())
		return
	}
	if nt.text == "defined" {
		p.errf(nt.pos(), `"defined" cannot be used as a macro name`)
		return
	}
	m := &macro{name: nt.text, pos: nt.pos()}
	i := 1
	// Function-like only if '(' touches the name.
	if len(toks) > 1 && isParen(toks[1], "(") && int(toks[1].col) == int(nt.col)+len(nt.text) {
		m.fn = true
		i = 2
		if i < len(toks) && isParen(toks[i], ")") {
			i++
		} else {
			for {
				if i+2 < len(toks) && isParen(toks[i], ".") && isParen(toks[i+1], ".") && isParen(toks[i+2], ".") {
					m.variadic = true
					m.params = append(m.params, "__VA_ARGS__")
					i += 3
				} else if i < len(toks) && toks[i].kind == tokIdent && toks[i].text[0] != '%' {
					for _, q := range m.params {
						if q == toks[i].text {
							p.errf(toks[i].pos(), "duplicate macro parameter "+q)
							return
						}
					}
					m.params = append(m.params, toks[i].text)
					i++
				} else {
					p.errf(tokPos(toks, i, h), "expected a parameter name in macro "+m.name)
					return
				}
				if i < len(toks) && isParen(toks[i], ")") {
					i++
					break
				}
				if m.variadic || i >= len(toks) || !isParen(toks[i], ",") {
					p.errf(tokPos(toks, i, h), "expected ',' or ')' in the parameters of macro "+m.name)
					return
				}
				i++
			}
		}
	}
	m.body = toks[i:]
	m.param = make([]int, len(m.body))
	for j, b := range m.body {
		m.param[j] = -1
		name := b.text
		if b.kind == tokDotWord {
			name = name[1:]
		} else if b.kind != tokIdent {
			continue
		}
		for k, q := range m.params {
			if q == name {
				m.param[j] = k
			}
		}
	}
	for j, b := range m.body {
		if isParen(b, "##") && (j == 0 || j == len(m.body)-1) {
			p.errf(b.pos(), "'##' cannot be at either end of a macro body")
			return
		}
		if m.fn && isParen(b, "#") && (j+1 == len(m.body) || m.param[j+1] < 0 || m.body[j+1].kind != tokIdent) {
			p.errf(b.pos(), "'#' is not followed by a macro parameter")
			return
		}
	}
	if old := p.macros[m.name]; old != nil && !sameMacro(old, m) {
		p.errf(nt.pos(), fmt.Sprintf("macro %s redefined (previous definition at %s)", m.name, old.pos))
	}
	p.macros[m.name] = m
	p.initial[m.name[0]] = true
}

func tokPos(toks []token, i int, h token) Pos {
	if i < len(toks) {
		return toks[i].pos()
	}
	return h.pos()
}

// sameMacro reports whether two definitions are the same, which C allows
// to be repeated.
func sameMacro(a, b *macro) bool {
	if a.fn != b.fn || a.variadic != b.variadic || len(a.params) != len(b.params) || len(a.body) != len(b.body) {
		return false
	}
	for i := range a.params {
		if a.params[i] != b.params[i] {
			return false
		}
	}
	for i := range a.body {
		x, y := a.body[i], b.body[i]
		if x.kind != y.kind || x.text != y.text || i > 0 && spaced(a.body[i-1], x) != spaced(b.body[i-1], y) {
			return false
		}
	}
	return true
}

// include handles `#include "file"` and `#include <file>`. A quoted name is
// searched in the including file's directory, then opts.IncludePaths; an
// angled one in IncludePaths, then the including file's directory.
func (p *preprocessor) include(h token, rest string, off int) {
	i := 0
	for i < len(rest) && isBlank(rest[i]) {
		i++
	}
	var name string
	angled := false
	end := -1
	if i < len(rest) && rest[i] == '"' {
		end = strings.IndexByte(rest[i+1:], '"')
	} else if i < len(rest) && rest[i] == '<' {
		angled = true
		end = strings.IndexByte(rest[i+1:], '>')
	}
	if end >= 0 {
		name = rest[i+1 : i+1+end]
		if extra := p.dirTokens(h, rest[i+end+2:], off+i+end+2); len(extra) > 0 {
			p.errf(extra[0].pos(), "extra tokens after #include")
		}
	} else {
		// A computed include: the macro-expanded operand must be one of the forms.
		toks := p.dirTokens(h, rest, off)
		pts := make([]ppToken, len(toks))
		for k, t := range toks {
			pts[k].t = t
		}
		exp := p.expandList(pts, token{kind: tokEOF, file: h.file, line: h.line})
		switch {
		case len(exp) == 1 && exp[0].t.kind == tokString:
			name = unquoteName(exp[0].t.text)
			end = 0
		case len(exp) >= 2 && isParen(exp[0].t, "<") && isParen(exp[len(exp)-1].t, ">"):
			angled = true
			var b strings.Builder
			for k := 1; k < len(exp)-1; k++ {
				b.WriteString(exp[k].t.text)
			}
			name = b.String()
			end = 0
		}
	}
	if end < 0 || name == "" {
		p.errf(h.pos(), `#include expects "FILENAME" or <FILENAME>`)
		return
	}

	var cands []string
	dir := filepath.Dir(p.cur.path)
	switch {
	case filepath.IsAbs(name):
		cands = []string{name}
	case angled:
		for _, d := range p.opts.IncludePaths {
			cands = append(cands, filepath.Join(d, name))
		}
		cands = append(cands, filepath.Join(dir, name))
	default:
		cands = append(cands, filepath.Join(dir, name))
		for _, d := range p.opts.IncludePaths {
			cands = append(cands, filepath.Join(d, name))
		}
	}
	var data []byte
	var path string
	var firstErr error
	for _, c := range cands {
		b, err := p.read(c)
		if err == nil {
			data, path = b, c
			break
		}
		if firstErr == nil && !errors.Is(err, fs.ErrNotExist) {
			firstErr = err
		}
	}
	if path == "" {
		if firstErr != nil {
			p.errf(h.pos(), fmt.Sprintf("cannot read include file %q: %v", name, firstErr))
		} else {
			p.errf(h.pos(), fmt.Sprintf("include file %q not found", name))
		}
		return
	}
	if len(p.files) > maxIncludeDepth {
		for k := len(p.files) - 1; k >= 0; k-- {
			if p.files[k].path == path {
				chain := make([]string, 0, len(p.files)-k+1)
				for _, f := range p.files[k:] {
					chain = append(chain, f.path)
				}
				chain = append(chain, path)
				p.errf(h.pos(), "#include cycle: "+strings.Join(chain, " -> "))
				return
			}
		}
		p.errf(h.pos(), fmt.Sprintf("#include nested more than %d levels deep", maxIncludeDepth))
		return
	}
	// Comments of included files are not recorded (Module.Comments).
	f := &ppFile{lx: newLexer(path, data, p.errf, nil), path: path}
	p.files = append(p.files, f)
	p.cur = f
	p.x.lx = f.lx
}

// unquoteName returns the contents of a quoted file name.
func unquoteName(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	if len(s) >= 2 {
		return s[1 : len(s)-1]
	}
	return s
}

// line handles `#line N "file"` and cpp's line markers `# N "file" flags`:
// the next source line is line N (of file).
func (p *preprocessor) line(h token, toks []token, what string) {
	if len(toks) > 0 && toks[0].kind != tokInt {
		pts := make([]ppToken, len(toks))
		for k, t := range toks {
			pts[k].t = t
		}
		exp := p.expandList(pts, token{kind: tokEOF, file: h.file, line: h.line})
		toks = toks[:0]
		for _, pt := range exp {
			toks = append(toks, pt.t)
		}
	}
	n := -1
	if len(toks) > 0 && toks[0].kind == tokInt {
		v, err := strconv.ParseUint(toks[0].text, 10, 31)
		if err == nil && v > 0 {
			n = int(v)
		}
	}
	if n < 0 {
		p.errf(tokPos(toks, 0, h), what+" requires a line number from 1 to 2147483647")
		return
	}
	file := ""
	if len(toks) > 1 {
		if toks[1].kind != tokString {
			p.errf(toks[1].pos(), what+": expected a file name string after the line number")
			return
		}
		file = unquoteName(toks[1].text)
		for _, t := range toks[2:] {
			if what == "#line" || t.kind != tokInt { // line markers end with flags
				p.errf(t.pos(), "extra tokens after "+what)
				break
			}
		}
	}
	lx := p.cur.lx
	lx.line = n - 1 // the newline ending this directive makes it n
	if file != "" {
		lx.file = file
	}
}

// condition evaluates the opening directive of a conditional.
func (p *preprocessor) condition(h token, name, rest string, off int) bool {
	if name == "if" {
		return p.evalIf(h, rest, off)
	}
	toks := p.dirTokens(h, rest, off)
	if !p.macroName(h, "#"+name, toks) {
		return false
	}
	return (p.macros[toks[0].text] != nil) == (name == "ifdef")
}

// evalIf evaluates the expression of #if or #elif: `defined NAME` and
// `defined(NAME)` become 1 or 0, macros are expanded, remaining identifiers
// become 0 (as in C), and the result is a PTX constant expression that must
// be an integer; non-zero is true.
func (p *preprocessor) evalIf(h token, rest string, off int) bool {
	what := "#" + strings.TrimSpace(h.text[:off])
	toks := p.dirTokens(h, rest, off)
	if len(toks) == 0 {
		p.errf(h.pos(), what+" with no expression")
		return false
	}
	num := func(t token, v bool) token {
		t.kind, t.text = tokInt, "0"
		if v {
			t.text = "1"
		}
		return t
	}
	pts := make([]ppToken, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind != tokIdent || t.text != "defined" {
			pts = append(pts, ppToken{t: t})
			continue
		}
		j := i + 1
		paren := j < len(toks) && isParen(toks[j], "(")
		if paren {
			j++
		}
		if j >= len(toks) || toks[j].kind != tokIdent {
			p.errf(t.pos(), `operator "defined" requires a macro name`)
			return false
		}
		v := p.macros[toks[j].text] != nil
		j++
		if paren {
			if j >= len(toks) || !isParen(toks[j], ")") {
				p.errf(t.pos(), `missing ')' after "defined"`)
				return false
			}
			j++
		}
		pts = append(pts, ppToken{t: num(t, v)})
		i = j - 1
	}
	eof := token{kind: tokEOF, file: h.file, line: h.line, col: h.col + 1 + int32(len(h.text))}
	exp := p.expandList(pts, eof)
	out := make([]token, len(exp))
	for i, pt := range exp {
		out[i] = pt.t
		if pt.t.kind == tokIdent {
			out[i] = num(pt.t, false)
		}
	}
	e := parseConstExpr(&sliceSource{toks: out, eof: eof}, p.errf)
	if e == nil {
		return false
	}
	c, err := EvalConst(e)
	if err != nil {
		var d *Diagnostic
		if errors.As(err, &d) {
			p.errf(d.Pos, d.Msg)
		} else {
			p.errf(h.pos(), err.Error())
		}
		return false
	}
	if !c.IsInt() {
		p.errf(e.Position(), what+" expression must be an integer")
		return false
	}
	return c.Bits != 0
}

// skip passes over an excluded group of the innermost conditional, up to
// the #elif or #else that starts an included group or the #endif that ends
// the conditional. Nested conditionals are only counted; lexical errors are
// not reported in skipped text, but unknown directive names are.
func (p *preprocessor) skip() {
	lx := p.cur.lx
	errf := lx.errf
	lx.errf = func(pos Pos, msg string) {
		if msg == "comment not terminated" && errf != nil {
			errf(pos, msg)
		}
	}
	defer func() { lx.errf = errf }()
	depth := 0
	for {
		t := lx.next()
		if t.kind == tokEOF {
			return // endFile reports the open conditional
		}
		if t.kind != tokHash {
			continue
		}
		name, rest, off := splitDirective(t.text)
		switch name {
		case "if", "ifdef", "ifndef":
			depth++
		case "endif":
			if depth > 0 {
				depth--
				continue
			}
			p.cur.conds = p.cur.conds[:len(p.cur.conds)-1]
			return
		case "elif", "else":
			if depth > 0 {
				continue
			}
			c := &p.cur.conds[len(p.cur.conds)-1]
			if c.sawElse {
				p.errf(t.pos(), "#"+name+" after #else")
				continue
			}
			if name == "else" {
				c.sawElse = true
				if !c.taken {
					c.taken = true
					return
				}
				continue
			}
			if !c.taken && p.evalIf(t, rest, off) {
				c.taken = true
				return
			}
		default:
			if !knownDirective(name) {
				p.errf(t.pos(), "unknown preprocessor directive #"+name)
			}
		}
	}
}
