package ptx

// The printer writes a Module back as PTX in one canonical layout, close to
// what nvcc emits:
//
//   - module items one per line; a blank line around every function and
//     section and between groups of different kinds (header directives,
//     declarations, .file lines, @@DWARF lines);
//   - a single blank line wherever the source had one or more (positions
//     permitting), never right after `{` or before `}`;
//   - function parameters one per line, each directive after the header on
//     its own line, `{` and `}` on their own lines;
//   - statements indented one tab per block depth, labels at column 0,
//     `opcode.mods op, op;`;
//   - expressions without blanks around binary operators (`[%rd1+8]`, `p|q`)
//     except `%` (`a % 7`: `%7` is a register name),
//     `c ? x : y` with blanks, parentheses as written plus any needed to keep
//     the tree's meaning;
//   - comments of Module.Comments interleaved by position: on their own line
//     before the node they precede, or after the node on the same line when
//     they trailed it in the source.

import (
	"io"
	"strconv"
)

// Print writes m in canonical PTX format.
func Print(w io.Writer, m *Module) error {
	p := newPrinter(m)
	p.w = w
	p.module(m)
	p.flush()
	return p.err
}

// Format returns m in canonical PTX format.
func Format(m *Module) []byte {
	p := newPrinter(m)
	p.module(m)
	return p.buf
}

const flushSize = 64 << 10

type printer struct {
	buf     []byte
	w       io.Writer // nil: keep everything in buf
	err     error
	written bool    // something was flushed to w
	tail    [2]byte // last two bytes flushed to w

	cmts []Comment
	ci   int    // next comment to print
	file string // file of the node being printed; only its positions are compared

	lastLine int  // source line of the last thing printed; 0 when unknown
	noBlank  bool // just opened a block: no blank line may follow
}

func newPrinter(m *Module) *printer {
	p := &printer{}
	if m == nil {
		return p
	}
	p.cmts = m.Comments
	p.file = m.File
	if p.buf == nil {
		p.buf = make([]byte, 0, 4096)
	}
	return p
}

func (p *printer) flush() {
	if p.w == nil || len(p.buf) == 0 {
		return
	}
	n := len(p.buf)
	if n >= 2 {
		p.tail = [2]byte{p.buf[n-2], p.buf[n-1]}
	} else {
		p.tail = [2]byte{p.tail[1], p.buf[0]}
	}
	if p.err == nil {
		_, p.err = p.w.Write(p.buf)
	}
	p.written = true
	p.buf = p.buf[:0]
}

func (p *printer) str(s string) { p.buf = append(p.buf, s...) }
func (p *printer) byte(c byte)  { p.buf = append(p.buf, c) }
func (p *printer) int(n int)    { p.buf = strconv.AppendInt(p.buf, int64(n), 10) }

func (p *printer) indent(depth int) {
	for ; depth > 0; depth-- {
		p.buf = append(p.buf, '\t')
	}
}

// newline ends the current output line; it is where output may be flushed.
func (p *printer) newline() {
	p.buf = append(p.buf, '\n')
	if p.w != nil && len(p.buf) >= flushSize {
		p.flush()
	}
}

// blankLine writes an empty line unless at the top of the output or right
// after another empty line. It is called at the start of a line.
func (p *printer) blankLine() {
	n := len(p.buf)
	if n < 2 && !p.written {
		return // top of the output (or only an empty line so far)
	}
	last := p.tail
	if n >= 2 {
		last = [2]byte{p.buf[n-2], p.buf[n-1]}
	} else if n == 1 {
		last = [2]byte{last[1], p.buf[0]}
	}
	if last != [2]byte{'\n', '\n'} {
		p.newline()
	}
}

// known reports whether pos can be compared with comment positions: it is
// valid and in the current file (not in an included file, nor renamed by
// #line).
func (p *printer) known(pos Pos) bool { return pos.Line > 0 && pos.File == p.file }

func posLess(a, b Pos) bool { return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col }

// commentEnd is the source line on which c ends.
func commentEnd(c *Comment) int {
	n := c.Line
	for i := 0; i < len(c.Text); i++ {
		if c.Text[i] == '\n' {
			n++
		}
	}
	return n
}

// gap writes a blank line if the source had one between the last thing
// printed and line.
func (p *printer) gap(line int) {
	if p.noBlank {
		p.noBlank = false
		return
	}
	if p.lastLine > 0 && line > p.lastLine+1 {
		p.blankLine()
	}
}

// before prints the comments that precede pos, then keeps a source blank
// line before the node at pos.
func (p *printer) before(pos Pos, depth int) {
	if pos.Line <= 0 {
		p.noBlank = false
		p.lastLine = 0
		return
	}
	if pos.File != p.file {
		p.file = pos.File
		p.lastLine = 0
	}
	p.comments(pos, depth, true)
	p.gap(pos.Line)
}

// comments prints, each on its own line, the comments preceding pos, keeping
// source blank lines between them if blanks is set.
func (p *printer) comments(pos Pos, depth int, blanks bool) {
	if !p.known(pos) {
		return
	}
	for p.ci < len(p.cmts) {
		c := &p.cmts[p.ci]
		if c.File != p.file || !posLess(c.Pos, pos) {
			break
		}
		if blanks {
			p.gap(c.Line)
		}
		p.indent(depth)
		p.str(c.Text)
		p.newline()
		p.lastLine = commentEnd(c)
		p.ci++
	}
}

// trailing appends to the current line the comments that sit on source
// line `line` before next (any, if next is unknown).
func (p *printer) trailing(line int, next Pos) { p.trailingRange(line, line, next) }

// trailingRange appends the comments on source lines from..to (those of a
// node just printed on one line) before next. It stops after a // comment,
// which must end the line; the rest go before the next node.
func (p *printer) trailingRange(from, to int, next Pos) {
	if from <= 0 {
		from = to
	}
	if to <= 0 {
		return
	}
	bounded := p.known(next)
	for p.ci < len(p.cmts) {
		c := &p.cmts[p.ci]
		if c.File != p.file || c.Line < from || c.Line > to || bounded && !posLess(c.Pos, next) {
			break
		}
		p.byte(' ')
		p.str(c.Text)
		e := commentEnd(c)
		if e > p.lastLine {
			p.lastLine = e
		}
		if e > to {
			to = e // a comment starting where this one ends is on the same output line
		}
		p.ci++
		if len(c.Text) >= 2 && c.Text[1] == '/' {
			break
		}
	}
}

// rest prints the comments not printed yet.
func (p *printer) rest() {
	for ; p.ci < len(p.cmts); p.ci++ {
		c := &p.cmts[p.ci]
		if p.known(c.Pos) {
			p.gap(c.Line)
		}
		p.file = c.File
		p.str(c.Text)
		p.newline()
		p.lastLine = commentEnd(c)
	}
}

func (p *printer) lineOf(pos Pos) int {
	if p.known(pos) {
		return pos.Line
	}
	return 0
}

// Module items.

// Item groups: consecutive items of different groups, and functions and
// sections, are separated by a blank line.
const (
	groupHeader = iota
	groupDecl
	groupFile
	groupDwarf
	groupAlone
)

func itemGroup(it Item) int {
	switch it.(type) {
	case *Version, *Target, *AddressSize:
		return groupHeader
	case *FileDirective:
		return groupFile
	case *Dwarf:
		return groupDwarf
	case *Function, *Section:
		return groupAlone
	}
	return groupDecl
}

func (p *printer) module(m *Module) {
	if m == nil {
		return
	}
	prev := -1
	for i, it := range m.Items {
		g := itemGroup(it)
		if i > 0 && (g != prev || g == groupAlone) {
			p.blankLine()
		}
		prev = g
		p.before(it.Position(), 0)
		line := p.item(it)
		var next Pos
		if i+1 < len(m.Items) {
			next = m.Items[i+1].Position()
		}
		p.trailingRange(p.lineOf(it.Position()), line, next)
		p.newline()
		if line > p.lastLine || line == 0 {
			p.lastLine = line
		}
	}
	p.rest()
}

// item prints it without the final newline and returns the source line of
// its last output line (0 if unknown).
func (p *printer) item(it Item) int {
	line := p.lineOf(it.Position())
	switch it := it.(type) {
	case *Version:
		p.str(".version ")
		p.int(it.Major)
		p.byte('.')
		p.int(it.Minor)
	case *Target:
		p.str(".target ")
		for i, n := range it.Names {
			if i > 0 {
				p.str(", ")
			}
			p.str(n)
		}
	case *AddressSize:
		p.str(".address_size ")
		p.int(it.Size)
	case *VarDecl:
		p.varDecl(it)
		p.byte(';')
		return p.declEnd(it, line)
	case *Function:
		return p.function(it)
	case *FileDirective:
		p.str(".file ")
		p.int(it.Index)
		p.byte(' ')
		if it.Text != "" {
			p.str(it.Text) // keep the source's spelling of escapes
		} else {
			p.quote(it.Name)
		}
		if it.Timestamp != nil {
			p.str(", ")
			p.expr(it.Timestamp, 0)
		}
		if it.Size != nil {
			p.str(", ")
			p.expr(it.Size, 0)
		}
	case *Section:
		return p.section(it)
	case *Directive:
		p.directive(it)
		p.byte(';')
	case *Alias:
		p.str(".alias ")
		p.str(it.Name)
		p.str(", ")
		p.str(it.Target)
		p.byte(';')
	case *Dwarf:
		p.dwarf(it)
	}
	return line
}

func (p *printer) dwarf(d *Dwarf) {
	p.str("@@DWARF")
	if d.Text != "" {
		p.byte(' ')
		p.str(d.Text)
	}
}

func (p *printer) directive(d *Directive) {
	p.str(d.Name)
	for i, a := range d.Args {
		if i == 0 {
			p.byte(' ')
		} else {
			p.str(", ")
		}
		p.expr(a, 0)
	}
}

func (p *printer) attributes(attrs []Attribute) {
	if len(attrs) == 0 {
		return
	}
	p.str(".attribute(")
	for i := range attrs {
		if i > 0 {
			p.str(", ")
		}
		a := &attrs[i]
		p.str(a.Name)
		if a.Args != nil {
			p.byte('(')
			p.exprList(a.Args)
			p.byte(')')
		}
	}
	p.byte(')')
}

// varDecl prints d without the semicolon: linkage, space[bank],
// .attribute(...), .align N, .vN, type, .ptr..., declarators.
func (p *printer) varDecl(d *VarDecl) {
	sep := false
	p.word(&sep, d.Linkage)
	p.word(&sep, d.Space)
	if d.Bank != nil {
		p.byte('[')
		p.expr(d.Bank, 0)
		p.byte(']')
	}
	if len(d.Attributes) > 0 {
		p.space(&sep)
		p.attributes(d.Attributes)
	}
	if d.Align != nil {
		p.word(&sep, ".align ")
		p.expr(d.Align, levelUnary) // .align takes a unary expression
	}
	if d.Vector != 0 {
		p.word(&sep, ".v")
		p.int(d.Vector)
	}
	p.word(&sep, d.Type)
	if d.Ptr != nil {
		p.word(&sep, ".ptr")
		if d.Ptr.Space != "" {
			p.byte(' ')
			p.str(d.Ptr.Space)
		}
		if d.Ptr.Align != nil {
			p.str(" .align ")
			p.expr(d.Ptr.Align, levelUnary)
		}
	}
	for i, n := range d.Names {
		if i > 0 {
			p.str(", ")
		} else {
			p.space(&sep)
		}
		p.declarator(n)
	}
}

// word writes s, if not empty, preceded by a blank if something precedes
// it on the line (*sep).
func (p *printer) word(sep *bool, s string) {
	if s != "" {
		p.space(sep)
		p.str(s)
	}
}

// space writes the blank before a word if needed.
func (p *printer) space(sep *bool) {
	if *sep {
		p.byte(' ')
	}
	*sep = true
}

func (p *printer) declarator(n *Declarator) {
	p.str(n.Name)
	if n.Count != nil {
		p.byte('<')
		p.expr(n.Count, levelShift) // the count stops at a relational `>`
		p.byte('>')
	}
	for _, d := range n.Dims {
		p.byte('[')
		if d != nil {
			p.expr(d, 0)
		}
		p.byte(']')
	}
	if n.Init != nil {
		p.str(" = ")
		p.expr(n.Init, 0)
	}
}

// declEnd estimates the source line where d ends: that of its last
// declarator (its initializer's start), for blank-line decisions.
func (p *printer) declEnd(d *VarDecl, line int) int {
	if line == 0 || len(d.Names) == 0 {
		return line
	}
	last := d.Names[len(d.Names)-1]
	pos := last.Pos
	if last.Init != nil {
		pos = last.Init.Position()
	}
	if p.known(pos) && pos.Line > line {
		return pos.Line
	}
	return line
}

// paramList prints `(d, d)` on one line.
func (p *printer) paramList(list []*VarDecl) {
	p.byte('(')
	for i, d := range list {
		if i > 0 {
			p.str(", ")
		}
		p.varDecl(d)
	}
	p.byte(')')
}

func (p *printer) function(f *Function) int {
	line := p.lineOf(f.Pos)
	sep := false
	p.word(&sep, f.Linkage)
	p.word(&sep, f.Kind)
	if len(f.Attributes) > 0 {
		p.space(&sep)
		p.attributes(f.Attributes)
	}
	if f.HasResults {
		p.space(&sep)
		p.paramList(f.Results)
	}
	p.word(&sep, f.Name)

	// next is what follows the header: the first directive, else the body.
	var next Pos
	if len(f.Directives) > 0 {
		next = f.Directives[0].Pos
	} else if f.Body != nil {
		next = f.Body.Pos
	}
	last := line // source line of the last output line
	if f.HasParams {
		p.byte('(')
		if len(f.Params) > 0 {
			first := f.Params[0].Pos
			p.trailing(line, first)
			p.newline()
			for i, d := range f.Params {
				p.comments(d.Pos, 1, false)
				p.indent(1)
				p.varDecl(d)
				nx := next
				if i+1 < len(f.Params) {
					p.byte(',')
					nx = f.Params[i+1].Pos
				}
				p.trailing(p.lineOf(d.Pos), nx)
				p.newline()
			}
			last = 0 // the `)` line
		}
		p.byte(')')
	}
	for _, d := range f.Directives {
		p.trailing(last, d.Pos)
		p.newline()
		p.comments(d.Pos, 0, false)
		p.directive(d)
		last = p.lineOf(d.Pos)
	}
	if f.Body == nil {
		p.byte(';')
		return last
	}
	p.trailing(last, f.Body.Pos)
	p.newline()
	p.comments(f.Body.Pos, 0, false)
	return p.block(f.Body, 0)
}

// block prints `{`, the statements one level deeper and `}` at depth, and
// returns the source line of the closing brace.
func (p *printer) block(b *Block, depth int) int {
	p.indent(depth)
	p.byte('{')
	next := b.End
	if len(b.Stmts) > 0 {
		next = b.Stmts[0].Position()
	}
	p.trailing(p.lineOf(b.Pos), next)
	p.newline()
	p.noBlank = true
	p.lastLine = p.lineOf(b.Pos)
	p.stmts(b.Stmts, depth+1, b.End)
	p.noBlank = false
	p.indent(depth)
	p.byte('}')
	return p.lineOf(b.End)
}

func (p *printer) stmts(list []Stmt, depth int, end Pos) {
	for i, s := range list {
		pos := s.Position()
		d := depth
		if _, ok := s.(*Label); ok {
			d = 0
		}
		p.before(pos, d)
		line := p.stmt(s, depth)
		next := end
		if i+1 < len(list) {
			next = list[i+1].Position()
		}
		p.trailingRange(p.lineOf(pos), line, next)
		p.newline()
		if line > p.lastLine || line == 0 {
			p.lastLine = line
		}
	}
	p.comments(end, depth, true)
}

// stmt prints s (indentation included, final newline excluded) and returns
// the source line of its last output line (0 if unknown).
func (p *printer) stmt(s Stmt, depth int) int {
	line := p.lineOf(s.Position())
	switch s := s.(type) {
	case *Label:
		p.str(s.Name)
		p.byte(':')
	case *Instruction:
		p.indent(depth)
		p.instruction(s)
		return p.lastExprLine(line, s.Operands)
	case *VarDecl:
		p.indent(depth)
		p.varDecl(s)
		p.byte(';')
		return p.declEnd(s, line)
	case *Block:
		return p.block(s, depth)
	case *Loc:
		p.indent(depth)
		p.loc(s)
	case *Directive:
		p.indent(depth)
		p.directive(s)
		p.byte(';')
	case *Prototype:
		p.indent(depth)
		p.str(s.Name)
		p.str(": .callprototype")
		if s.HasResults {
			p.byte(' ')
			p.paramList(s.Results)
		}
		p.str(" _")
		if s.HasParams {
			p.byte(' ')
			p.paramList(s.Params)
		}
		for _, d := range s.Directives {
			p.byte(' ')
			p.directive(d)
		}
		p.byte(';')
	case *TargetList:
		p.indent(depth)
		p.str(s.Name)
		p.str(": ")
		p.str(s.Kind)
		for i, t := range s.Targets {
			if i == 0 {
				p.byte(' ')
			} else {
				p.str(", ")
			}
			p.str(t)
		}
		p.byte(';')
	case *SectionData:
		p.indent(depth)
		p.str(s.Type)
		if len(s.Values) > 0 {
			p.byte(' ')
			p.exprList(s.Values)
		}
		return p.lastExprLine(line, s.Values)
	case *Dwarf:
		p.indent(depth)
		p.dwarf(s)
	}
	return line
}

// lastExprLine estimates the source line where a statement starting on
// line ends: a multi-line one ends at least where its last operand starts.
func (p *printer) lastExprLine(line int, list []Expr) int {
	if n := len(list); n > 0 && line > 0 {
		if l := p.lineOf(list[n-1].Position()); l > line {
			return l
		}
	}
	return line
}

func (p *printer) instruction(in *Instruction) {
	if g := in.Guard; g != nil {
		p.byte('@')
		if g.Negate {
			p.byte('!')
		}
		p.str(g.Pred)
		p.byte(' ')
	}
	p.str(in.Opcode)
	for _, m := range in.Modifiers {
		p.str(m)
	}
	if len(in.Operands) > 0 {
		p.byte(' ')
		p.exprList(in.Operands)
	}
	p.byte(';')
}

func (p *printer) loc(l *Loc) {
	p.str(".loc ")
	p.int(l.File)
	p.byte(' ')
	p.int(l.Line)
	if l.HasCol {
		p.byte(' ')
		p.int(l.Col)
	}
	if l.FunctionName != nil {
		p.str(", function_name ")
		p.expr(l.FunctionName, 0)
	}
	if r := l.InlinedAt; r != nil {
		p.str(", inlined_at ")
		p.int(r.File)
		p.byte(' ')
		p.int(r.Line)
		p.byte(' ')
		p.int(r.Col)
	}
}

func (p *printer) section(s *Section) int {
	line := p.lineOf(s.Pos)
	p.str(".section ")
	p.str(s.Name)
	var first Pos
	if len(s.Items) > 0 {
		first = s.Items[0].Position()
	}
	p.trailing(line, first)
	p.newline()
	p.str("{")
	p.newline()
	p.noBlank = true
	p.lastLine = line
	p.stmts(s.Items, 1, Pos{})
	p.noBlank = false
	p.byte('}')
	return 0 // the closing brace's line is not recorded
}

// quote writes s as a PTX string literal, escaping what unquote decodes.
func (p *printer) quote(s string) {
	p.byte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			p.byte('\\')
			p.byte(c)
		case '\n':
			p.str(`\n`)
		case '\t':
			p.str(`\t`)
		case '\r':
			p.str(`\r`)
		case 0:
			p.str(`\0`)
		default:
			p.byte(c)
		}
	}
	p.byte('"')
}

// Expressions.

// Precedence levels, higher binds tighter (ptx-isa-9.0.txt 4.5.4, Table 4).
const (
	levelCond    = 1
	levelShift   = 9
	levelUnary   = 12
	levelPrimary = 13
)

func opPrec(op string) int {
	switch op {
	case "||":
		return 2
	case "&&":
		return 3
	case "|":
		return 4
	case "^":
		return 5
	case "&":
		return 6
	case "==", "!=":
		return 7
	case "<", ">", "<=", ">=":
		return 8
	case "<<", ">>":
		return 9
	case "+", "-":
		return 10
	case "*", "/", "%":
		return 11
	}
	return 0 // unknown operator: always parenthesized
}

func exprPrec(e Expr) int {
	switch e := e.(type) {
	case *BinaryExpr:
		return opPrec(e.Op)
	case *CondExpr:
		return levelCond
	case *UnaryExpr, *CastExpr:
		return levelUnary
	}
	return levelPrimary
}

func (p *printer) exprList(list []Expr) {
	for i, e := range list {
		if i > 0 {
			p.str(", ")
		}
		p.expr(e, 0)
	}
}

// expr prints e, parenthesized if it binds less tightly than min.
func (p *printer) expr(e Expr, min int) {
	if e == nil {
		return
	}
	if min > 0 && exprPrec(e) < min {
		p.byte('(')
		p.expr(e, 0)
		p.byte(')')
		return
	}
	switch e := e.(type) {
	case *Ident:
		p.str(e.Name)
	case *IntLit:
		if e.Text != "" {
			p.str(e.Text)
		} else {
			p.buf = strconv.AppendUint(p.buf, e.Value, 10)
			if e.Unsigned {
				p.byte('U')
			}
		}
	case *FloatLit:
		if e.Text != "" {
			p.str(e.Text)
		} else if e.Single {
			p.str("0f")
			p.hex(e.Bits, 8)
		} else {
			p.str("0d")
			p.hex(e.Bits, 16)
		}
	case *StringLit:
		if e.Text != "" {
			p.str(e.Text)
		} else {
			p.quote(e.Value)
		}
	case *UnaryExpr:
		p.str(e.Op)
		p.expr(e.X, levelUnary)
	case *CastExpr:
		p.byte('(')
		p.str(e.Type)
		p.byte(')')
		p.expr(e.X, levelUnary)
	case *BinaryExpr:
		prec := opPrec(e.Op)
		p.expr(e.X, prec)
		if e.Op == "%" {
			p.str(" % ") // `%7` would lex as a register name
		} else {
			p.str(e.Op)
		}
		p.expr(e.Y, prec+1)
	case *CondExpr:
		p.expr(e.Cond, levelCond+1)
		p.str(" ? ")
		p.expr(e.X, levelCond)
		p.str(" : ")
		p.expr(e.Y, levelCond)
	case *ParenExpr:
		p.byte('(')
		p.expr(e.X, 0)
		p.byte(')')
	case *BraceExpr:
		p.byte('{')
		p.exprList(e.Elems)
		p.byte('}')
	case *TupleExpr:
		p.byte('(')
		p.exprList(e.Elems)
		p.byte(')')
	case *AddressExpr:
		p.byte('[')
		p.exprList(e.Elems)
		p.byte(']')
	case *IndexExpr:
		p.expr(e.X, levelPrimary)
		p.byte('[')
		p.expr(e.Index, 0)
		p.byte(']')
	case *SelectorExpr:
		p.expr(e.X, levelPrimary)
		p.byte('.')
		p.str(e.Sel)
	case *CallExpr:
		p.expr(e.Fun, levelPrimary)
		p.byte('(')
		p.exprList(e.Args)
		p.byte(')')
	case *KeyValue:
		p.str(e.Key)
		p.str(" = ")
		p.expr(e.Value, 0)
	}
}

func (p *printer) hex(v uint64, digits int) {
	const hexDigits = "0123456789ABCDEF"
	for i := digits - 1; i >= 0; i-- {
		p.byte(hexDigits[v>>(uint(i)*4)&15])
	}
}
