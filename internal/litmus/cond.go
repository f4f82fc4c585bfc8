package litmus

import (
	"fmt"
	"strconv"
	"strings"
)

// rawTerm is a condition term before names are resolved.
type rawTerm struct {
	thread int // -1: not a register
	name   string
	num    int64
	isNum  bool
	pos    Pos
}

// rawCmp is an ExprCmp whose terms are not resolved yet.
type rawCmp struct {
	op   string
	l, r rawTerm
}

func (c *rawCmp) exprString(*Test) string { return "?" }

// condParser parses the condition section.
type condParser struct {
	p    *parser
	toks []tok
	i    int
}

func (c *condParser) peek() tok { return c.toks[c.i] }
func (c *condParser) next() tok {
	t := c.toks[c.i]
	if t.kind != tEOF {
		c.i++
	}
	return t
}

func (c *condParser) expect(s string) tok {
	t := c.next()
	if t.text != s {
		c.p.fail(t.pos, "expected %q, found %s", s, describe(t))
	}
	return t
}

func describe(t tok) string {
	if t.kind == tEOF {
		return "end of file"
	}
	return strconv.Quote(t.text)
}

func (p *parser) parseCondition(line int) {
	s := p.scannerAt(line)
	var toks []tok
	for {
		t := s.next()
		toks = append(toks, t)
		if t.kind == tEOF {
			break
		}
	}
	c := &condParser{p: p, toks: toks}
	seen := false
	for c.peek().kind != tEOF {
		t := c.next()
		text := t.text
		if strings.EqualFold(text, "scopeTree") {
			text = "scopeTree"
		}
		switch text {
		case "locations":
			c.expect("[")
			for c.peek().text != "]" {
				if c.peek().kind == tEOF {
					p.fail(t.pos, "\"locations [\" is not closed")
				}
				if c.peek().text == ";" {
					c.next()
					continue
				}
				p.rawLocs = append(p.rawLocs, c.term())
			}
			c.next()
		case "filter":
			p.t.FilterPos = t.pos
			p.rawFilter = c.expr()
		case "scopeTree", "scopes":
			if c.peek().text == ":" {
				c.next()
			}
			c.scopeTree()
		case "exists", "forall", "~":
			if seen {
				p.fail(t.pos, "a test has one final condition")
			}
			seen = true
			switch t.text {
			case "exists":
				p.t.Quant = Exists
			case "forall":
				p.t.Quant = Forall
			default:
				if k := c.next(); k.text != "exists" {
					p.fail(k.pos, "expected \"exists\" after \"~\", found %s", describe(k))
				}
				p.t.Quant = NotExists
			}
			start := c.peek().pos
			p.rawCond = c.expr()
			p.condStart = start
		case "cond":
			// some generators write "cond exists ..."; ignore the word
		default:
			p.fail(t.pos, "unexpected %s in the condition (expected exists, ~exists, forall, locations or filter)", describe(t))
		}
	}
	if !seen {
		p.fail(toks[0].pos, "missing final condition (exists, ~exists or forall)")
	}
}

// scopeTree reads herd's "(device (cta P0 P1) (cta P2))" placement.
func (c *condParser) scopeTree() {
	cta, cluster, gpu := 0, 0, 0
	var walk func(level string)
	walk = func(level string) {
		open := c.expect("(")
		kw := c.next()
		if kw.kind != tIdent {
			c.p.fail(kw.pos, "expected a scope name after \"(\"")
		}
		for {
			t := c.peek()
			switch {
			case t.text == "(":
				walk(kw.text)
			case t.text == ")":
				c.next()
				switch strings.ToLower(kw.text) {
				case "cta", "block", "work_group", "workgroup":
					cta++
				case "cluster":
					cluster++
				case "device", "gpu", "kernel", "grid":
					gpu++
				}
				return
			case t.kind == tIdent && (t.text[0] == 'P' || t.text[0] == 'T'):
				c.next()
				n, err := strconv.Atoi(t.text[1:])
				if err != nil || n >= len(c.p.t.Threads) {
					c.p.fail(t.pos, "unknown thread %s in scope tree", t.text)
				}
				th := c.p.t.Threads[n]
				th.Placed = true
				th.CTA, th.Cluster, th.GPU = cta+1000*gpu, cluster, gpu
			case t.kind == tEOF:
				c.p.fail(open.pos, "scope tree is not closed")
			default:
				c.next()
			}
		}
	}
	walk("")
}

func (c *condParser) expr() Expr {
	l := c.and()
	for c.peek().text == "\\/" || c.peek().text == "||" {
		c.next()
		l = &ExprOr{l, c.and()}
	}
	return l
}

func (c *condParser) and() Expr {
	l := c.unary()
	for c.peek().text == "/\\" || c.peek().text == "&&" {
		c.next()
		l = &ExprAnd{l, c.unary()}
	}
	return l
}

func (c *condParser) unary() Expr {
	t := c.peek()
	switch {
	case t.text == "~" || t.text == "!" || t.text == "not":
		c.next()
		return &ExprNot{c.unary()}
	case t.text == "(":
		c.next()
		e := c.expr()
		c.expect(")")
		return e
	case t.text == "true":
		c.next()
		return &ExprConst{true}
	case t.text == "false":
		c.next()
		return &ExprConst{false}
	}
	l := c.term()
	op := c.next()
	switch op.text {
	case "=", "==":
		op.text = "=="
	case "!=", "<>":
		op.text = "!="
	default:
		c.p.fail(op.pos, "expected \"==\" or \"!=\" after %s, found %s", l.name, describe(op))
	}
	r := c.term()
	return &rawCmp{op.text, l, r}
}

func (c *condParser) term() rawTerm {
	t := c.next()
	switch {
	case t.kind == tNum && c.peek().text == ":":
		c.next()
		n, _ := strconv.Atoi(t.text)
		r := c.next()
		if r.kind != tIdent {
			c.p.fail(r.pos, "expected a register after \"%s:\"", t.text)
		}
		return rawTerm{thread: n, name: regName(r.text), pos: t.pos}
	case t.kind == tIdent && c.peek().text == ":" && len(t.text) > 1 && (t.text[0] == 'P' || t.text[0] == 'T'):
		n, err := strconv.Atoi(t.text[1:])
		if err != nil {
			c.p.fail(t.pos, "bad thread name %q", t.text)
		}
		c.next()
		r := c.next()
		if r.kind != tIdent {
			c.p.fail(r.pos, "expected a register after \"%s:\"", t.text)
		}
		return rawTerm{thread: n, name: regName(r.text), pos: t.pos}
	case t.kind == tNum:
		n, err := parseInt(t.text)
		if err != nil {
			c.p.fail(t.pos, "bad number %q", t.text)
		}
		return rawTerm{thread: -1, num: n, isNum: true, pos: t.pos}
	case t.text == "[":
		r := c.next()
		c.expect("]")
		if r.kind != tIdent {
			c.p.fail(r.pos, "expected a location name inside [ ]")
		}
		return rawTerm{thread: -1, name: r.text, pos: r.pos}
	case t.kind == tIdent:
		return rawTerm{thread: -1, name: t.text, pos: t.pos}
	}
	c.p.fail(t.pos, "expected a register (P0:r0), a location or a number, found %s", describe(t))
	return rawTerm{}
}

// resolveExpr turns raw comparisons into ExprCmp. A bare name on the left
// of a comparison is the final value of that location; on the right it is
// the location's address when the left side is a register or location and
// the name is not a register (herd's convention for pointers).
func (p *parser) resolveExpr(e Expr) Expr {
	switch x := e.(type) {
	case *ExprAnd:
		return &ExprAnd{p.resolveExpr(x.L), p.resolveExpr(x.R)}
	case *ExprOr:
		return &ExprOr{p.resolveExpr(x.L), p.resolveExpr(x.R)}
	case *ExprNot:
		return &ExprNot{p.resolveExpr(x.X)}
	case *rawCmp:
		return &ExprCmp{Op: x.op, L: p.resolveTerm(x.l, false), R: p.resolveTerm(x.r, true)}
	}
	return e
}

func (p *parser) resolveTerm(r rawTerm, rhs bool) Term {
	if r.thread >= 0 {
		if r.thread >= len(p.t.Threads) {
			p.fail(r.pos, "the condition names thread P%d but the test has %d threads", r.thread, len(p.t.Threads))
		}
		return Term{Thread: r.thread, Reg: r.name}
	}
	if r.isNum {
		return Term{Thread: -1, Const: r.num}
	}
	l, ok := p.t.locByName[r.name]
	if !ok {
		l = p.declare(r.name, 0, r.pos)
	}
	if rhs {
		return Term{Thread: -1, Loc: l, Const: addrOf(l), IsAddr: true}
	}
	return Term{Thread: -1, Loc: l}
}

// String forms for output.

func (e *ExprAnd) exprString(t *Test) string {
	return wrap(e.L, t, true) + " /\\ " + wrap(e.R, t, true)
}
func (e *ExprOr) exprString(t *Test) string {
	return wrap(e.L, t, false) + " \\/ " + wrap(e.R, t, false)
}
func (e *ExprNot) exprString(t *Test) string { return "~" + wrap(e.X, t, true) }
func (e *ExprConst) exprString(*Test) string {
	if e.V {
		return "true"
	}
	return "false"
}
func (e *ExprCmp) exprString(t *Test) string {
	return t.termString(e.L) + " " + e.Op + " " + t.termString(e.R)
}

func wrap(e Expr, t *Test, inAnd bool) string {
	switch e.(type) {
	case *ExprOr:
		return "(" + e.exprString(t) + ")"
	case *ExprAnd:
		if !inAnd {
			return "(" + e.exprString(t) + ")"
		}
	}
	return e.exprString(t)
}

func (t *Test) termString(x Term) string {
	switch {
	case x.isReg():
		return fmt.Sprintf("P%d:%s", x.Thread, x.Reg)
	case x.isLoc():
		return x.Loc.Name
	case x.IsAddr:
		return x.Loc.Name
	}
	return strconv.FormatInt(x.Const, 10)
}

// valueString prints a value, naming location addresses.
func (t *Test) valueString(v int64) string {
	if l := t.locAt(v); l != nil {
		return l.Name
	}
	return strconv.FormatInt(v, 10)
}

// CondString is the final condition as herd prints it.
func (t *Test) CondString() string {
	return t.Quant.String() + " (" + t.Cond.exprString(t) + ")"
}

// state is what a final condition can look at: the final registers of
// every thread and the final value of every physical location.
type state struct {
	regs []map[string]int64
	mem  []int64 // by physical location
}

func (s *state) term(x Term) int64 {
	switch {
	case x.isReg():
		return s.regs[x.Thread][x.Reg]
	case x.isLoc():
		return s.mem[x.Loc.Phys]
	}
	return x.Const
}

func eval(e Expr, s *state) bool {
	switch x := e.(type) {
	case *ExprAnd:
		return eval(x.L, s) && eval(x.R, s)
	case *ExprOr:
		return eval(x.L, s) || eval(x.R, s)
	case *ExprNot:
		return !eval(x.X, s)
	case *ExprConst:
		return x.V
	case *ExprCmp:
		eq := s.term(x.L) == s.term(x.R)
		if x.Op == "!=" {
			return !eq
		}
		return eq
	}
	return false
}

// termsOf lists the register and location terms of e, in order.
func termsOf(e Expr, out []Term) []Term {
	switch x := e.(type) {
	case *ExprAnd:
		return termsOf(x.R, termsOf(x.L, out))
	case *ExprOr:
		return termsOf(x.R, termsOf(x.L, out))
	case *ExprNot:
		return termsOf(x.X, out)
	case *ExprCmp:
		for _, y := range []Term{x.L, x.R} {
			if !y.isConst() {
				out = append(out, y)
			}
		}
	}
	return out
}
