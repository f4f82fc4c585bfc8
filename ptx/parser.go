package ptx

// The parser: recursive descent over the preprocessed token stream, building
// the tree of ast.go. Grammar sources: ptx-isa-9.0.txt chapter 4 (syntax),
// 5.4 (declarations), 7 (call syntax), 11 (directives); ptx-isa-3.1.txt for
// the older forms (@@DWARF, .const banks, body-declared .entry params).
//
// Error handling: each error is recorded with its position and the parser
// skips to the end of the statement (`;` or the enclosing `}`), so one pass
// reports every independent error. Every loop consumes at least one token per
// iteration, so no input can hang the parser.

import (
	"bytes"
	"math"
	"strconv"
	"strings"
)

// maxDiagnostics bounds the error list on garbage input.
const maxDiagnostics = 1000

// maxNesting bounds recursion (nested blocks, braces, parentheses).
const maxNesting = 500

type parser struct {
	src tokenSource
	// lx is src when src is the bare lexer: advance calls it directly
	// instead of through the interface (the per-token hot path), and tok
	// keeps lx.file throughout, as scan needs.
	lx       *lexer
	tok      token   // current token
	ahead    []token // lookahead tokens after tok, in order (in aheadBuf)
	aheadBuf [4]token
	diags    DiagnosticList
	comments []Comment
	file     string
	depth    int  // current nesting depth (blocks, expressions)
	inInit   bool // parsing an initializer: calls like generic(x) and 0xFF(x) are allowed
	inCall   bool // parsing call operands: parentheses form argument lists
	// inOperands: parsing instruction operands, where `x.sel` selects a
	// component (elsewhere, as in .section data, a dot-word after a name
	// starts the next line).
	inOperands bool
	slabs
	scratchWords []string
	stmtHint     int            // first capacity of a block's statement list
	scratchExprs listPool[Expr] // per expression-nesting depth scratch lists
	stmtLists    listPool[Stmt] // per block-nesting depth scratch lists
}

func newParser(filename string, src []byte, opts *ParseOptions) *parser {
	p := &parser{file: filename, scratchWords: make([]string, 0, 8)}
	p.stmtHint = p.presize(src)
	var comments *[]Comment
	if !opts.DiscardComments {
		comments = &p.comments
	}
	lx := newLexer(filename, src, p.errorf, comments)
	if bytes.IndexByte(src, '#') < 0 && len(opts.Defines) == 0 {
		p.src, p.lx = lx, lx // nothing to preprocess: skip the filter on the hot path
		p.tok.file = lx.file // for scan; the bare lexer's file never changes
	} else {
		p.src = newPreprocessor(lx, opts, p.errorf)
	}
	p.advance()
	return p
}

func (p *parser) errorf(pos Pos, msg string) {
	if len(p.diags) >= maxDiagnostics {
		return
	}
	if len(p.diags) == maxDiagnostics-1 {
		msg = "too many errors"
	}
	p.diags = append(p.diags, &Diagnostic{Pos: pos, Severity: SeverityError, Msg: msg})
}

// errorExpected reports that what was found is not what was expected.
func (p *parser) errorExpected(what string) {
	p.errorf(p.tok.pos(), "expected "+what+", found "+p.tok.describe())
}

func (p *parser) advance() {
	if len(p.ahead) > 0 {
		p.tok = p.ahead[0]
		p.ahead = p.ahead[1:]
		return
	}
	if p.lx != nil {
		p.lx.scan(&p.tok)
		return
	}
	p.tok = p.src.next()
}

// peek returns the token after the current one.
func (p *parser) peek() token { return p.peekN(1) }

// peekN returns the n-th token after the current one (n >= 1).
func (p *parser) peekN(n int) token {
	if len(p.ahead) == 0 {
		p.ahead = p.aheadBuf[:0] // reuse the buffer instead of allocating
	}
	for len(p.ahead) < n {
		p.ahead = append(p.ahead, p.src.next())
	}
	return p.ahead[n-1]
}

// got consumes the punctuation s if it is the current token.
func (p *parser) got(s string) bool {
	if p.tok.kind == tokPunct && p.tok.text == s {
		p.advance()
		return true
	}
	return false
}

// expect consumes the punctuation s or reports its absence.
func (p *parser) expect(s string) bool {
	if p.got(s) {
		return true
	}
	p.errorExpected("'" + s + "'")
	return false
}

func (p *parser) isPunct(s string) bool { return p.tok.kind == tokPunct && p.tok.text == s }
func (p *parser) isWord(s string) bool  { return p.tok.kind == tokDotWord && p.tok.text == s }

// parseList parses `elem {, elem}` up to and including the closing
// punctuation (the opening one is already consumed); the list may be empty.
func (p *parser) parseList(closer string, elem func() Expr) []Expr {
	list := p.scratch()
	for !p.isPunct(closer) && p.tok.kind != tokEOF {
		list = append(list, elem())
		if !p.listNext(closer) {
			break
		}
	}
	p.expect(closer)
	elems := []Expr{} // an empty list is not nil
	if len(list) > 0 {
		elems = p.exprList(list)
	}
	p.release(list)
	return elems
}

// listNext consumes the comma between two list elements and reports a
// comma that is followed by the list's closing token instead of an element.
func (p *parser) listNext(closer string) bool {
	if !p.got(",") {
		return false
	}
	if p.isPunct(closer) {
		p.errorf(p.tok.pos(), "expected an element after ',', found '"+closer+"'")
		return false
	}
	return true
}

// skipStatement skips to just after the next `;` at this nesting level, or
// to the `}` closing the enclosing block (not consumed), or to EOF.
func (p *parser) skipStatement() {
	depth := 0
	for {
		switch {
		case p.tok.kind == tokEOF:
			return
		case p.isPunct(";") && depth == 0:
			p.advance()
			return
		case p.isPunct("{"):
			depth++
		case p.isPunct("}"):
			if depth == 0 {
				return
			}
			depth--
		}
		p.advance()
	}
}

// skipBlock skips a balanced `{ ... }` starting at the current `{`.
func (p *parser) skipBlock() {
	depth := 0
	for p.tok.kind != tokEOF {
		if p.isPunct("{") {
			depth++
		} else if p.isPunct("}") {
			depth--
			if depth == 0 {
				p.advance()
				return
			}
		}
		p.advance()
	}
}

func (p *parser) parseModule() *Module {
	m := &Module{File: p.file}
	for p.tok.kind != tokEOF {
		n := len(p.diags)
		item := p.parseItem()
		if item != nil {
			m.Items = append(m.Items, item)
		}
		if len(p.diags) > n && len(p.diags) >= maxDiagnostics {
			break
		}
	}
	m.Comments = p.comments
	return m
}

var linkageWords = map[string]bool{".extern": true, ".visible": true, ".weak": true, ".common": true}

// stateSpaces are the words that start a variable declaration (5.1, plus
// .tex of 5.1.7 and .sreg, which only the checker rejects).
func isStateSpace(w string) bool {
	switch w {
	case ".reg", ".sreg", ".const", ".global", ".local", ".param", ".shared", ".tex":
		return true
	}
	return strings.HasPrefix(w, ".shared::") || strings.HasPrefix(w, ".param::")
}

// parseItem parses one module-scope item; it returns nil after an error or
// for an empty statement.
func (p *parser) parseItem() Item {
	t := p.tok
	switch t.kind {
	case tokDwarf:
		p.advance()
		return &Dwarf{Pos: t.pos(), Text: t.text}
	case tokPunct:
		if t.text == ";" { // empty statement
			p.advance()
			return nil
		}
	case tokDotWord:
		switch t.text {
		case ".version":
			return p.parseVersion()
		case ".target":
			return p.parseTarget()
		case ".address_size":
			p.advance()
			n := p.parseSmallInt("address size")
			return &AddressSize{Pos: t.pos(), Size: n}
		case ".file":
			return p.parseFile()
		case ".section":
			return p.parseSection()
		case ".alias":
			return p.parseAlias()
		case ".entry", ".func":
			return p.parseFunction(t.pos(), "")
		}
		if linkageWords[t.text] {
			p.advance()
			if p.isWord(".entry") || p.isWord(".func") {
				return p.parseFunction(t.pos(), t.text)
			}
			if p.tok.kind == tokDotWord && isStateSpace(p.tok.text) {
				return itemOrNil(p.parseVarDecl(t.pos(), t.text, true))
			}
			p.errorExpected("'.entry', '.func' or a state space after '" + t.text + "'")
			p.skipItem()
			return nil
		}
		if isStateSpace(t.text) {
			return itemOrNil(p.parseVarDecl(t.pos(), "", true))
		}
		if isDirectiveWithArgs(t.text) {
			return p.parseDirective()
		}
	}
	p.errorf(t.pos(), "expected a directive or declaration at module scope, found "+t.describe())
	p.skipItem()
	return nil
}

// itemOrNil and stmtOrNil keep a failed declaration (a nil *VarDecl) from
// becoming a non-nil interface holding nil.
func itemOrNil(d *VarDecl) Item {
	if d == nil {
		return nil
	}
	return d
}

func stmtOrNil(d *VarDecl) Stmt {
	if d == nil {
		return nil
	}
	return d
}

// skipItem recovers at module scope: it skips to after the next `;` or
// balanced `{...}` block, whichever comes first.
func (p *parser) skipItem() {
	for p.tok.kind != tokEOF {
		if p.isPunct(";") {
			p.advance()
			return
		}
		if p.isPunct("{") {
			p.skipBlock()
			return
		}
		if p.isPunct("}") { // stray close brace
			p.advance()
			return
		}
		p.advance()
	}
}

func (p *parser) parseVersion() Item {
	t := p.tok
	p.advance()
	v := &Version{Pos: t.pos()}
	num := p.tok
	if num.kind != tokFloat && num.kind != tokInt {
		p.errorExpected("a version number such as 9.0")
		p.skipStatement()
		return v
	}
	p.advance()
	major, minor, ok := strings.Cut(num.text, ".")
	a, err1 := strconv.Atoi(major)
	b, err2 := strconv.Atoi(minor)
	if !ok || err1 != nil || err2 != nil || minor == "" || a > 1000 || b > 1000 {
		p.errorf(num.pos(), "malformed version number '"+num.text+"'")
	}
	v.Major, v.Minor = a, b
	return v
}

func (p *parser) parseTarget() Item {
	t := p.tok
	p.advance()
	tg := &Target{Pos: t.pos()}
	for {
		if p.tok.kind != tokIdent {
			p.errorExpected("a target name")
			p.skipStatement()
			return tg
		}
		tg.Names = append(tg.Names, p.tok.text)
		p.advance()
		if !p.got(",") {
			return tg
		}
	}
}

// parseSmallInt parses a non-negative decimal/hex integer that fits an int.
func (p *parser) parseSmallInt(what string) int {
	t := p.tok
	if t.kind != tokInt {
		p.errorExpected(what)
		return 0
	}
	p.advance()
	v, ok := p.intValue(t)
	if !ok || v > math.MaxInt32 {
		p.errorf(t.pos(), what+" out of range: "+t.text)
		return 0
	}
	return int(v)
}

func (p *parser) parseFile() Item {
	t := p.tok
	p.advance()
	f := &FileDirective{Pos: t.pos()}
	f.Index = p.parseSmallInt("a file index")
	if p.tok.kind != tokString {
		p.errorExpected("a file name string")
		p.skipStatement()
		return f
	}
	f.Name, f.Text = unquote(p.tok.text), p.tok.text
	p.advance()
	if p.got(",") {
		f.Timestamp = p.parseExpr()
		if p.expect(",") {
			f.Size = p.parseExpr()
		}
	}
	return f
}

func (p *parser) parseAlias() Item {
	t := p.tok
	p.advance()
	a := &Alias{Pos: t.pos()}
	if p.tok.kind != tokIdent {
		p.errorExpected("an alias name")
		p.skipStatement()
		return a
	}
	a.Name = p.tok.text
	p.advance()
	if !p.expect(",") {
		p.skipStatement()
		return a
	}
	if p.tok.kind != tokIdent {
		p.errorExpected("a function name")
		p.skipStatement()
		return a
	}
	a.Target = p.tok.text
	p.advance()
	p.expect(";")
	return a
}

// parseSection parses `.section name { labels and .bN data }` (11.5.2).
func (p *parser) parseSection() Item {
	t := p.tok
	p.advance()
	s := &Section{Pos: t.pos()}
	if p.tok.kind != tokDotWord && p.tok.kind != tokIdent {
		p.errorExpected("a section name")
		p.skipItem()
		return s
	}
	s.Name = p.tok.text
	p.advance()
	if !p.expect("{") {
		p.skipItem()
		return s
	}
	for !p.isPunct("}") && p.tok.kind != tokEOF {
		t := p.tok
		switch {
		case t.kind == tokIdent && p.peek().is(":"):
			p.advance()
			p.advance()
			s.Items = append(s.Items, &Label{Pos: t.pos(), Name: t.text})
		case t.kind == tokDotWord && isSectionDataType(t.text):
			p.advance()
			d := &SectionData{Pos: t.pos(), Type: t.text}
			if p.tok.kind == tokDotWord && isSectionDataType(p.tok.text) || p.isPunct("}") {
				p.errorExpected("a value after '" + t.text + "'")
				continue
			}
			vals := p.scratch()
			for {
				vals = append(vals, p.parseExpr())
				if !p.got(",") {
					break
				}
			}
			d.Values = p.exprList(vals)
			p.release(vals)
			s.Items = append(s.Items, d)
		case t.kind == tokPunct && t.text == ";":
			p.advance()
		default:
			p.errorf(t.pos(), "expected a label or a .b8/.b16/.b32/.b64 data line in section, found "+t.describe())
			p.advance()
		}
	}
	p.expect("}")
	return s
}

func isOpaqueType(w string) bool {
	return w == ".texref" || w == ".samplerref" || w == ".surfref"
}

// startsModuleItem reports whether the dot-word w can only begin a new
// module-scope item.
func startsModuleItem(w string) bool {
	switch w {
	case ".entry", ".func", ".version", ".target", ".address_size", ".file", ".section", ".alias":
		return true
	}
	return linkageWords[w] || isStateSpace(w)
}

// isSectionDataType reports whether w starts a data line of a .section (11.5.2).
func isSectionDataType(w string) bool {
	return w == ".b8" || w == ".b16" || w == ".b32" || w == ".b64"
}

// isDirectiveWithArgs reports whether w is a directive parsed generically as
// a name followed by comma-separated operands: the performance-tuning and
// cluster directives of 11.4 and 11.6, and .pragma.
func isDirectiveWithArgs(w string) bool {
	switch w {
	case ".pragma", ".maxnreg", ".maxntid", ".reqntid", ".minnctapersm", ".maxnctapersm",
		".noreturn", ".abi_preserve", ".abi_preserve_control", ".reqnctapercluster",
		".explicitcluster", ".maxclusterrank", ".blocksareclusters":
		return true
	}
	return false
}

// parseDirective parses a generic directive followed by `;`, as at module
// or statement scope (`.pragma "nounroll";`).
func (p *parser) parseDirective() *Directive {
	d := p.parseDirectiveArgs()
	p.expect(";")
	return d
}

// parseDirectiveArgs parses `.name {arg {, arg}}` with no terminator.
func (p *parser) parseDirectiveArgs() *Directive {
	t := p.tok
	p.advance()
	d := &Directive{Pos: t.pos(), Name: t.text}
	switch t.text {
	case ".noreturn", ".explicitcluster", ".blocksareclusters":
		return d // these take no operands
	}
	if p.tok.kind == tokDotWord || p.isPunct("{") || p.isPunct(";") || p.tok.kind == tokEOF {
		p.errorExpected("an operand for '" + t.text + "'")
		return d
	}
	for {
		d.Args = append(d.Args, p.parseExpr())
		if !p.got(",") {
			return d
		}
	}
}

// parseFunction parses an .entry or .func definition or declaration
// (11.2.1, 11.2.2).
func (p *parser) parseFunction(pos Pos, linkage string) Item {
	f := &Function{Pos: pos, Linkage: linkage, Kind: p.tok.text}
	headerErrors := len(p.diags)
	p.advance()
	if p.isWord(".attribute") {
		f.Attributes = p.parseAttributes()
	}
	if p.isPunct("(") {
		f.HasResults = true
		f.Results = p.parseParamList()
	}
	if p.tok.kind != tokIdent {
		p.errorExpected("a function name")
		p.skipItem()
		return nil
	}
	f.Name = p.tok.text
	p.advance()
	if p.isPunct("(") {
		f.HasParams = true
		f.Params = p.parseParamList()
	}
	for p.tok.kind == tokDotWord {
		if startsModuleItem(p.tok.text) && len(p.diags) == headerErrors {
			// A prototype without its `;`, as CUDA 3.x nvcc writes them
			// (ptx-isa-3.1.txt: "a .func definition with no body provides a
			// function prototype"; the syntax shows no ';').
			return f
		}
		if !isDirectiveWithArgs(p.tok.text) {
			p.errorf(p.tok.pos(), "unexpected '"+p.tok.text+"' in function header")
			p.skipItem()
			return f
		}
		d := p.parseDirectiveArgs()
		f.Directives = append(f.Directives, d)
		if d.Name == ".pragma" {
			p.got(";")
		}
	}
	switch {
	case p.isPunct(";"):
		p.advance()
	case p.isPunct("{"):
		f.Body = p.parseBlock()
	default:
		p.errorExpected("'{' or ';' after function header")
		p.skipItem()
	}
	return f
}

// parseAttributes parses `.attribute(.managed)` or `.attribute(.unified(1, 2), ...)`.
func (p *parser) parseAttributes() []Attribute {
	p.advance() // .attribute
	if !p.expect("(") {
		return nil
	}
	var attrs []Attribute
	for {
		if p.tok.kind != tokDotWord {
			p.errorExpected("an attribute such as .managed")
			break
		}
		a := Attribute{Pos: p.tok.pos(), Name: p.tok.text}
		p.advance()
		if p.got("(") {
			a.Args = []Expr{}
			for !p.isPunct(")") && p.tok.kind != tokEOF {
				a.Args = append(a.Args, p.parseExpr())
				if !p.listNext(")") {
					break
				}
			}
			p.expect(")")
		}
		attrs = append(attrs, a)
		if !p.got(",") {
			break
		}
	}
	p.expect(")")
	return attrs
}

// parseParamList parses `( decl, decl, ... )` of function parameters.
func (p *parser) parseParamList() []*VarDecl {
	p.advance() // (
	params := []*VarDecl{}
	for !p.isPunct(")") && p.tok.kind != tokEOF {
		if p.tok.kind != tokDotWord || !isStateSpace(p.tok.text) {
			p.errorExpected("a parameter declaration such as '.param .b32 name'")
			for !p.isPunct(")") && !p.isPunct("{") && !p.isPunct(";") && p.tok.kind != tokEOF {
				p.advance()
			}
			break
		}
		n := p.parseDeclHead(p.tok.pos(), "")
		if n == nil {
			break
		}
		d := &n.decl
		if dl := p.parseDeclarator(&n.first); dl != nil {
			d.Names = append(n.names[:0], dl)
		}
		params = append(params, d)
		if !p.listNext(")") {
			break
		}
	}
	p.expect(")")
	return params
}

// parseVarDecl parses a full declaration statement ending in `;`.
func (p *parser) parseVarDecl(pos Pos, linkage string, moduleScope bool) *VarDecl {
	skip := p.skipStatement
	if moduleScope {
		skip = p.skipItem
	}
	n := p.parseDeclHead(pos, linkage)
	if n == nil {
		skip()
		return nil
	}
	d := &n.decl
	for {
		var dl *Declarator
		if d.Names == nil {
			dl = p.parseDeclarator(&n.first)
		} else {
			dl = p.parseDeclarator(nil)
		}
		if dl == nil {
			skip()
			return d
		}
		if d.Names == nil {
			d.Names = n.names[:0]
		}
		d.Names = append(d.Names, dl)
		if !p.got(",") {
			break
		}
	}
	if !p.expect(";") {
		skip()
	}
	return d
}

// declNode is a declaration with room for its first (most often only)
// declarator and name list: one allocation instead of three.
type declNode struct {
	decl  VarDecl
	first Declarator
	names [1]*Declarator
}

// parseDeclHead parses the state space and the specifiers of a declaration,
// up to the first name: `.shared .align 16 .v4 .f32`, `.param .u64 .ptr .global .align 8`.
func (p *parser) parseDeclHead(pos Pos, linkage string) *declNode {
	n := &declNode{decl: VarDecl{Pos: pos, Linkage: linkage, Space: p.tok.text}}
	d := &n.decl
	p.advance()
	if p.isPunct("[") { // .const[bank] (ptx-isa-3.1.txt 5.1.3)
		p.advance()
		d.Bank = p.parseExpr()
		p.expect("]")
	}
	for p.tok.kind == tokDotWord {
		t := p.tok
		switch {
		case t.text == ".align":
			p.advance()
			if d.Type != "" && d.Ptr != nil {
				d.Ptr.Align = p.parseUnary()
			} else {
				d.Align = p.parseUnary()
			}
		case t.text == ".attribute":
			d.Attributes = append(d.Attributes, p.parseAttributes()...)
		case t.text == ".v2" || t.text == ".v4" || t.text == ".v8":
			p.advance()
			d.Vector = int(t.text[2] - '0')
		case t.text == ".ptr":
			p.advance()
			d.Ptr = &PtrAttr{}
			// `.ptr .texref` etc.: LLVM's OpenCL image parameters
			if p.tok.kind == tokDotWord && p.tok.text != ".align" && (isStateSpace(p.tok.text) || isOpaqueType(p.tok.text)) {
				d.Ptr.Space = p.tok.text
				p.advance()
			}
		case d.Type == "":
			p.advance()
			d.Type = t.text
		default:
			p.errorf(t.pos(), "unexpected '"+t.text+"' in declaration (type already given as '"+d.Type+"')")
			return nil
		}
	}
	if d.Type == "" {
		p.errorExpected("a type")
		return nil
	}
	return n
}

// parseDeclarator parses `name`, `name<N>`, `name[d1][d2]` and `= init`
// into *dl, or into a new Declarator when dl is nil.
func (p *parser) parseDeclarator(dl *Declarator) *Declarator {
	if p.tok.kind != tokIdent {
		p.errorExpected("a name")
		return nil
	}
	if dl == nil {
		dl = new(Declarator)
	}
	dl.Pos, dl.Name = p.tok.pos(), p.tok.text
	p.advance()
	if p.got("<") {
		dl.Count = p.parseBinary(precShift)
		if !p.expect(">") {
			return nil
		}
	}
	for p.isPunct("[") {
		p.advance()
		if p.got("]") {
			dl.Dims = append(dl.Dims, nil)
			continue
		}
		dl.Dims = append(dl.Dims, p.parseExpr())
		if !p.expect("]") {
			return nil
		}
	}
	if p.got("=") {
		p.inInit = true
		dl.Init = p.parseExpr()
		p.inInit = false
	}
	return dl
}

// parseBlock parses `{ statements }`.
func (p *parser) parseBlock() *Block {
	b := &Block{Pos: p.tok.pos()}
	p.advance() // {
	p.depth++
	if p.depth > maxNesting {
		p.errorf(b.Pos, "blocks nested too deeply")
		p.depth--
		p.skipStatement()
		return b
	}
	// Collect in a reused list and copy once: appending to b.Stmts
	// directly left a trail of outgrown arrays on every large function.
	stmts := p.scratchStmts()
	for !p.isPunct("}") && p.tok.kind != tokEOF {
		if len(p.diags) >= maxDiagnostics {
			break
		}
		if s := p.parseStmt(); s != nil {
			stmts = append(stmts, s)
		}
	}
	if len(stmts) > 0 {
		b.Stmts = append([]Stmt(nil), stmts...)
	}
	p.releaseStmts(stmts)
	p.depth--
	b.End = p.tok.pos()
	if p.tok.kind == tokEOF {
		p.errorf(b.Pos, "'{' is not closed before end of file")
		return b
	}
	p.advance() // }
	return b
}

// parseStmt parses one statement of a function body; nil after an error.
func (p *parser) parseStmt() Stmt {
	if p.tok.kind == tokIdent {
		// Consume the name first rather than peek: most statements are
		// instructions, and the lookahead buffer costs on every one.
		pos, name := p.tok.pos(), p.tok.text
		p.advance()
		if p.isPunct(":") {
			p.advance()
			if p.tok.kind == tokDotWord {
				switch p.tok.text {
				case ".callprototype":
					return p.parsePrototype(pos, name)
				case ".calltargets", ".branchtargets":
					return p.parseTargetList(pos, name)
				}
			}
			return &Label{Pos: pos, Name: name}
		}
		return p.parseInstruction(nil, pos, name)
	}
	t := p.tok
	switch t.kind {
	case tokPunct:
		switch t.text {
		case "@":
			return p.parseGuarded()
		case "{":
			return p.parseBlock()
		case ";":
			p.advance()
			return nil
		}
	case tokDwarf:
		p.advance()
		return &Dwarf{Pos: t.pos(), Text: t.text}
	case tokDotWord:
		switch {
		case t.text == ".loc":
			return p.parseLoc()
		case linkageWords[t.text]:
			p.advance()
			if p.tok.kind == tokDotWord && isStateSpace(p.tok.text) {
				return stmtOrNil(p.parseVarDecl(t.pos(), t.text, false))
			}
			p.errorExpected("a state space after '" + t.text + "'")
			p.skipStatement()
			return nil
		case isStateSpace(t.text):
			return stmtOrNil(p.parseVarDecl(t.pos(), "", false))
		case isDirectiveWithArgs(t.text):
			return p.parseDirective()
		}
	}
	p.errorf(t.pos(), "expected an instruction, label or declaration, found "+t.describe())
	p.advance()
	p.skipStatement()
	return nil
}

func (p *parser) parseGuarded() Stmt {
	g := &Guard{Pos: p.tok.pos()}
	p.advance() // @
	if p.got("!") {
		g.Negate = true
	}
	if p.tok.kind != tokIdent {
		p.errorExpected("a predicate after '@'")
		p.skipStatement()
		return nil
	}
	g.Pred = p.tok.text
	p.advance()
	if p.tok.kind != tokIdent {
		p.errorExpected("an instruction after the guard predicate")
		p.skipStatement()
		return nil
	}
	opcode := p.tok.text
	p.advance()
	return p.parseInstruction(g, g.Pos, opcode)
}

// parseInstruction parses `opcode{.mod} {operand {, operand}} ;`; the
// opcode, at pos (the guard's when there is one), is already consumed.
func (p *parser) parseInstruction(g *Guard, pos Pos, opcode string) Stmt {
	in := p.instruction()
	in.Pos, in.Guard, in.Opcode = pos, g, opcode
	mods := p.scratchWords[:0]
	for {
		if p.tok.kind == tokDotWord {
			mods = append(mods, p.tok.text)
			p.advance()
			continue
		}
		// A constant bank, `ld.const[2].b32` (ptx-isa-9.0.txt 5.1.3.1,
		// deprecated), is kept among the modifiers as "[2]".
		if p.isPunct("[") && p.peekN(1).kind == tokInt && p.peekN(2).is("]") && p.peekN(3).kind == tokDotWord {
			mods = append(mods, "["+p.peekN(1).text+"]")
			p.advance()
			p.advance()
			p.advance()
			continue
		}
		break
	}
	in.Modifiers = p.wordList(mods)
	p.scratchWords = mods
	if p.got(";") {
		return in
	}
	if p.isPunct("}") || p.tok.kind == tokEOF {
		p.errorExpected("';' after '" + opcode + "'")
		return nil
	}
	p.inCall = opcode == "call"
	p.inOperands = true
	n := len(p.diags)
	ops := p.scratch()
	for {
		ops = append(ops, p.parseOperand())
		if len(p.diags) > n {
			p.inCall, p.inOperands = false, false
			p.release(ops)
			p.skipStatement()
			return nil
		}
		if !p.got(",") {
			break
		}
	}
	p.inCall, p.inOperands = false, false
	in.Operands = p.exprList(ops)
	p.release(ops)
	if !p.got(";") {
		p.errorExpected("',' or ';' after operand")
		p.skipStatement()
		return nil
	}
	return in
}

// parseOperand parses one instruction operand: an expression, or in a call
// a parenthesized argument list.
func (p *parser) parseOperand() Expr {
	if p.inCall && p.isPunct("(") {
		t := p.tok
		p.advance()
		return &TupleExpr{Pos: t.pos(), Elems: p.parseList(")", p.parseExpr)}
	}
	// Most operands are a lone name or register (`%r1,`): when the token
	// after it ends the operand, skip the layers of parseExpr.
	if p.tok.kind == tokIdent && p.depth < maxNesting {
		x := p.ident(p.tok.pos(), p.tok.text)
		p.advance()
		if p.tok.kind == tokPunct && (p.tok.text == "," || p.tok.text == ";") {
			return x
		}
		return p.parseExprAfter(x)
	}
	return p.parseExpr()
}

// parsePrototype parses `name: .callprototype ({ret}) _ (params) {directives};`.
func (p *parser) parsePrototype(pos Pos, name string) Stmt {
	p.advance() // .callprototype
	pr := &Prototype{Pos: pos, Name: name}
	if p.isPunct("(") {
		pr.HasResults = true
		pr.Results = p.parseParamList()
	}
	if p.tok.kind != tokIdent || p.tok.text != "_" {
		p.errorExpected("'_' in .callprototype")
		p.skipStatement()
		return nil
	}
	p.advance()
	if p.isPunct("(") {
		pr.HasParams = true
		pr.Params = p.parseParamList()
	}
	for p.tok.kind == tokDotWord && isDirectiveWithArgs(p.tok.text) {
		pr.Directives = append(pr.Directives, p.parseDirectiveArgs())
	}
	if !p.expect(";") {
		p.skipStatement()
	}
	return pr
}

func (p *parser) parseTargetList(pos Pos, name string) Stmt {
	tl := &TargetList{Pos: pos, Name: name, Kind: p.tok.text}
	p.advance()
	for {
		if p.tok.kind != tokIdent {
			p.errorExpected("a target name")
			p.skipStatement()
			return nil
		}
		name := p.tok.text
		p.advance()
		// The shorthand `N<5>` names N0..N4 (11.3.1, like 5.4.6).
		if p.isPunct("<") && p.peekN(1).kind == tokInt && p.peekN(2).is(">") {
			name += "<" + p.peekN(1).text + ">"
			p.advance()
			p.advance()
			p.advance()
		}
		tl.Targets = append(tl.Targets, name)
		if !p.got(",") {
			break
		}
	}
	if !p.expect(";") {
		p.skipStatement()
	}
	return tl
}

// parseLoc parses `.loc file line {col} {, function_name label{+imm}, inlined_at file line col}` (11.5.4).
func (p *parser) parseLoc() Stmt {
	l := &Loc{Pos: p.tok.pos()}
	p.advance()
	l.File = p.parseSmallInt("a file index")
	l.Line = p.parseSmallInt("a line number")
	if p.tok.kind == tokInt {
		l.Col = p.parseSmallInt("a column")
		l.HasCol = true
	}
	if p.got(",") {
		if p.tok.kind != tokIdent || p.tok.text != "function_name" {
			p.errorExpected("'function_name'")
			p.skipStatement()
			return nil
		}
		p.advance()
		l.FunctionName = p.parseExpr()
		if p.got(",") {
			if p.tok.kind != tokIdent || p.tok.text != "inlined_at" {
				p.errorExpected("'inlined_at'")
				p.skipStatement()
				return nil
			}
			p.advance()
			r := &LocRef{}
			r.File = p.parseSmallInt("a file index")
			r.Line = p.parseSmallInt("a line number")
			r.Col = p.parseSmallInt("a column")
			l.InlinedAt = r
		}
	}
	p.got(";") // .loc takes no semicolon, but tolerate one
	return l
}

// Operator precedence of constant expressions, ptx-isa-9.0.txt 4.6 (C rules).
const (
	precNone = iota
	precLogOr
	precLogAnd
	precOr
	precXor
	precAnd
	precEq
	precRel
	precShift
	precAdd
	precMul
)

func binaryPrec(t token) int {
	if t.kind != tokPunct {
		return precNone
	}
	switch t.text {
	case "||":
		return precLogOr
	case "&&":
		return precLogAnd
	case "|":
		return precOr
	case "^":
		return precXor
	case "&":
		return precAnd
	case "==", "!=":
		return precEq
	case "<", ">", "<=", ">=":
		return precRel
	case "<<", ">>":
		return precShift
	case "+", "-":
		return precAdd
	case "*", "/", "%":
		return precMul
	}
	return precNone
}

// parseExpr parses a full expression including `?:`.
func (p *parser) parseExpr() Expr {
	if p.depth >= maxNesting {
		p.errorf(p.tok.pos(), "expression nested too deeply")
		return &Ident{Pos: p.tok.pos(), Name: "_"}
	}
	// No defer for the depth: this runs once per operand.
	p.depth++
	x := p.parseCond(p.parseBinary(precLogOr))
	p.depth--
	return x
}

// parseExprAfter is parseExpr when the expression's first primary, x, is
// already parsed (and p.depth < maxNesting).
func (p *parser) parseExprAfter(x Expr) Expr {
	p.depth++
	x = p.parseCond(p.parseBinaryAfter(p.parsePostfix(x), precLogOr))
	p.depth--
	return x
}

// parseCond parses the `? a : b` after the condition x, if there is one.
func (p *parser) parseCond(x Expr) Expr {
	if !p.isPunct("?") {
		return x
	}
	pos := p.tok.pos()
	p.advance()
	a := p.parseExpr()
	p.expect(":")
	b := p.parseExpr()
	return &CondExpr{Pos: pos, Cond: x, X: a, Y: b}
}

// parseBinary parses operators of precedence >= min, left-associatively.
func (p *parser) parseBinary(min int) Expr {
	return p.parseBinaryAfter(p.parseUnary(), min)
}

// parseBinaryAfter is parseBinary after its first operand x.
func (p *parser) parseBinaryAfter(x Expr, min int) Expr {
	for {
		prec := binaryPrec(p.tok)
		if prec < min || prec == precNone {
			return x
		}
		op := p.tok
		p.advance()
		y := p.parseBinary(prec + 1)
		x = &BinaryExpr{Pos: op.pos(), Op: op.text, X: x, Y: y}
	}
}

func (p *parser) parseUnary() Expr {
	if p.tok.kind == tokPunct {
		switch p.tok.text {
		case "-", "+", "!", "~":
			t := p.tok
			p.advance()
			if p.depth+1 > maxNesting {
				p.errorf(t.pos(), "expression nested too deeply")
				return &Ident{Pos: t.pos(), Name: "_"}
			}
			p.depth++
			x := p.parseUnary()
			p.depth--
			return &UnaryExpr{Pos: t.pos(), Op: t.text, X: x}
		}
	}
	return p.parsePostfix(p.parsePrimary())
}

// parsePostfix parses vector components (%tid.x), indexing (a[1]) and, in
// initializers, calls (generic(x), 0xFF00(x)).
func (p *parser) parsePostfix(x Expr) Expr {
	for {
		switch {
		case p.inOperands && p.tok.kind == tokDotWord && isComponent(p.tok.text):
			if _, ok := x.(*Ident); !ok {
				return x
			}
			x = &SelectorExpr{Pos: x.Position(), X: x, Sel: p.tok.text[1:]}
			p.advance()
		case p.inOperands && p.isWord(".unified"):
			// `ld.b32 %r0, [%r1].unified;` (9.7.9.8, .unified variables of 5.4.8)
			if _, ok := x.(*AddressExpr); !ok {
				return x
			}
			x = &SelectorExpr{Pos: x.Position(), X: x, Sel: p.tok.text[1:]}
			p.advance()
		case p.isPunct("["):
			if _, ok := x.(*Ident); !ok {
				return x
			}
			p.advance()
			idx := p.parseExpr()
			p.expect("]")
			x = &IndexExpr{Pos: x.Position(), X: x, Index: idx}
		case p.inInit && p.isPunct("("):
			switch x.(type) {
			case *Ident, *IntLit:
			default:
				return x
			}
			p.advance()
			pos := p.tok.pos()
			c := &CallExpr{Pos: x.Position(), Fun: x, Args: p.parseList(")", p.parseExpr)}
			if len(c.Args) == 0 {
				p.errorf(pos, "expected an argument, found ')'")
			}
			x = c
		default:
			return x
		}
	}
}

// isComponent reports whether w selects part of an operand: a vector
// component (`%tid.x`, `.r .g .b .a`, 5.4.2) or a video byte/half selector
// (`r2.b0`, `r3.h10`, `.b3210`, 9.7.17).
func isComponent(w string) bool {
	if len(w) == 2 {
		switch w[1] {
		case 'x', 'y', 'z', 'w', 'r', 'g', 'b', 'a':
			return true
		}
	}
	if len(w) < 3 || w[1] != 'b' && w[1] != 'h' {
		return false
	}
	for i := 2; i < len(w); i++ {
		if w[i] < '0' || w[i] > '7' {
			return false
		}
	}
	return true
}

func (p *parser) parsePrimary() Expr {
	if p.tok.kind == tokIdent { // the common case, without copying the token
		x := p.ident(p.tok.pos(), p.tok.text)
		p.advance()
		return x
	}
	t := p.tok
	switch t.kind {
	case tokDotWord: // section names as values: `.b32 .debug_abbrev`
		p.advance()
		return &Ident{Pos: t.pos(), Name: t.text}
	case tokInt:
		p.advance()
		v, _ := p.intValue(t)
		return p.intLit(IntLit{Pos: t.pos(), Text: t.text, Value: v, Unsigned: strings.HasSuffix(t.text, "U") || strings.HasSuffix(t.text, "u")})
	case tokFloat:
		p.advance()
		return p.floatLit(t)
	case tokString:
		p.advance()
		return &StringLit{Pos: t.pos(), Text: t.text, Value: unquote(t.text)}
	case tokPunct:
		switch t.text {
		case "(":
			p.advance()
			if p.tok.kind == tokDotWord && p.peek().is(")") { // cast (.s64) x, 4.6.1
				typ := p.tok.text
				p.advance()
				p.advance()
				return &CastExpr{Pos: t.pos(), Type: typ, X: p.parseUnary()}
			}
			x := p.parseExpr()
			p.expect(")")
			return &ParenExpr{Pos: t.pos(), X: x}
		case "{":
			p.advance()
			p.depth++
			b := &BraceExpr{Pos: t.pos(), Elems: p.parseList("}", p.parseBraceElem)}
			p.depth--
			return b
		case "[":
			p.advance()
			pos := p.tok.pos()
			a := &AddressExpr{Pos: t.pos(), Elems: p.parseList("]", p.parseExpr)}
			if len(a.Elems) == 0 {
				p.errorf(pos, "expected an address, found ']'")
			}
			return a
		}
	}
	p.errorExpected("an operand")
	return &Ident{Pos: t.pos(), Name: "_"}
}

// parseBraceElem parses one element of `{...}`; in initializers it may be
// `key = value` (sampler initializers, 5.3.? of ptx-isa-9.0.txt).
func (p *parser) parseBraceElem() Expr {
	if p.inInit && p.tok.kind == tokIdent && p.peek().is("=") {
		t := p.tok
		p.advance()
		p.advance()
		return &KeyValue{Pos: t.pos(), Key: t.text, Value: p.parseExpr()}
	}
	return p.parseExpr()
}

// intValue converts an integer token (4.5.1): hex 0x, octal 0, binary 0b,
// decimal, each with an optional U suffix. Values must fit in 64 bits.
func (p *parser) intValue(t token) (uint64, bool) {
	s := t.text
	if n := len(s); n > 1 && (s[n-1] == 'U' || s[n-1] == 'u') {
		s = s[:n-1]
	}
	base := 10
	digits := s
	switch {
	case len(s) > 1 && (s[1] == 'x' || s[1] == 'X') && s[0] == '0':
		base, digits = 16, s[2:]
	case len(s) > 1 && (s[1] == 'b' || s[1] == 'B') && s[0] == '0':
		base, digits = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, digits = 8, s[1:]
	}
	if digits == "" {
		p.errorf(t.pos(), "malformed integer constant '"+t.text+"'")
		return 0, false
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			p.errorf(t.pos(), "integer constant '"+t.text+"' does not fit in 64 bits")
		} else {
			p.errorf(t.pos(), "malformed integer constant '"+t.text+"'")
		}
		return 0, false
	}
	return v, true
}

// floatLit converts a float token (4.5.2): 0f/0F + 8 hex digits is an f32
// bit pattern, 0d/0D + 16 hex digits an f64 one; decimal text is an f64.
func (p *parser) floatLit(t token) Expr {
	f := &FloatLit{Pos: t.pos(), Text: t.text}
	s := t.text
	if len(s) > 1 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D') {
		single := s[1] == 'f' || s[1] == 'F'
		want := 16
		if single {
			want = 8
		}
		hex := s[2:]
		if len(hex) != want || !allHex(hex) {
			p.errorf(t.pos(), "malformed floating-point constant '"+s+"': expected "+strconv.Itoa(want)+" hexadecimal digits after '"+s[:2]+"'")
			return f
		}
		f.Bits, _ = strconv.ParseUint(hex, 16, 64)
		f.Single = single
		return f
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			p.errorf(t.pos(), "malformed floating-point constant '"+s+"'")
			return f
		}
	}
	f.Bits = math.Float64bits(v)
	return f
}

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHexDigit(s[i]) {
			return false
		}
	}
	return true
}

// unquote decodes a string literal's text (quotes included) with C escapes.
func unquote(s string) string {
	if len(s) < 2 {
		return ""
	}
	s = s[1 : len(s)-1]
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case '"', '\\', '\'':
			b.WriteByte(s[i])
		default:
			// An unknown escape keeps its backslash: Windows paths in .file
			// names ("C:\work\k.cu") must not lose theirs.
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// scratch returns an empty list for collecting expressions; nested uses get
// distinct lists. Pair each call with release.
func (p *parser) scratch() []Expr { return p.scratchExprs.get(8) }

func (p *parser) release(l []Expr) { p.scratchExprs.put(l) }

// scratchStmts and releaseStmts are scratch and release for the statements
// of a block.
func (p *parser) scratchStmts() []Stmt { return p.stmtLists.get(p.stmtHint) }

func (p *parser) releaseStmts(l []Stmt) { p.stmtLists.put(l) }

// listPool keeps emptied lists for reuse, one per nesting depth in use.
type listPool[T any] struct{ free [][]T }

// get returns an empty list, a kept one or a new one of capacity hint.
func (lp *listPool[T]) get(hint int) []T {
	n := len(lp.free)
	if n == 0 {
		return make([]T, 0, hint)
	}
	l := lp.free[n-1]
	lp.free = lp.free[:n-1]
	return l[:0]
}

// put clears l (no element stays reachable) and keeps it.
func (lp *listPool[T]) put(l []T) {
	clear(l)
	lp.free = append(lp.free, l[:0])
}

// parseConstExpr parses one constant expression from src (used by #if) and
// reports syntax errors through errf. It returns nil if there is no valid
// expression. Trailing tokens after the expression are an error.
func parseConstExpr(src tokenSource, errf func(Pos, string)) Expr {
	p := &parser{src: src}
	p.advance()
	start := p.tok
	if start.kind == tokEOF {
		errf(start.pos(), "expected an expression")
		return nil
	}
	x := p.parseExpr()
	if p.tok.kind != tokEOF {
		p.errorf(p.tok.pos(), "unexpected "+p.tok.describe()+" after expression")
	}
	if len(p.diags) > 0 {
		for _, d := range p.diags {
			errf(d.Pos, d.Msg)
		}
		return nil
	}
	return x
}
