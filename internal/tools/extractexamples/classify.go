package main

import (
	"regexp"
	"strings"
)

// The heuristics that decide a block's kind and completeness.
//
// The block (without its header line) is stripped of comments and split into
// statements: text up to a `;`, a label, a `{ ... }` scope, or a function
// (header plus body). Braces inside a statement that is not a function
// header (vector operands, initializers) stay part of the statement. Each
// statement is then recognized by its first word: a known opcode root
// (optionally after a guard @p / @!p and labels), a known directive, or a
// label. A block none of whose statements is recognized, or with more than
// a third unrecognized, is kind "other". Otherwise the kind follows from the
// top-level statements:
//
//   - module-only items (.version .target .address_size .file .section
//     .alias, .entry/.func definitions or declarations, anything with a
//     linkage directive .visible .extern .weak .common)
//   - body-only statements (instructions, labels, { } blocks, .reg .local
//     .param declarations, .loc, .callprototype/.calltargets/.branchtargets)
//   - either (.global .const .shared .tex declarations, .pragma)
//
// module-only items and no body-only statements give "module"; body-only
// statements and no module-only items give "body"; both, with every
// module-only item before every body-only statement, give "mixed" (the body
// starts on the line of the first statement after the last module-only
// item); only "either" statements give "module".
//
// A table-row example of the 3.1 text whose // comment contains code lost
// its line breaks and gets expect=garbled. Preprocessor lines are skipped. A block is incomplete if, outside comments, it contains an elision ("...",
// "…", ".."), an angle-bracket placeholder (<name>; %r<100> is fine), grammar
// braces ({.opt} after a word, or "{ .a, .b }" alternatives after `=`), an
// unrecognized statement, unbalanced braces, or text after the last `;` or
// `}`.

var opcodes = map[string]bool{}

func init() {
	for _, op := range strings.Fields(`
		abs activemask add addc alloca and applypriority atom bar barrier bfe bfi bfind bmsk bra brev
		brkpt brx call clusterlaunchcontrol clz cnot copysign cos cp createpolicy cvt cvta discard div
		dp2a dp4a elect ex2 exit fence fma fns getctarank griddepcontrol isspacep istypep ld ldmatrix
		ldu lg2 lop3 mad mad24 madc mapa match max mbarrier membar min mma mov movmatrix mul mul24
		multimem nanosleep neg not or pmevent popc prefetch prefetchu prmt rcp red redux rem ret rsqrt
		sad selp set setmaxnreg setp shf shfl shl shr sin slct sqrt st stackrestore stacksave stmatrix
		sub subc suld suq sured sust szext tanh tcgen05 tensormap testp tex tld4 trap txq vabsdiff
		vabsdiff2 vabsdiff4 vadd vadd2 vadd4 vavrg2 vavrg4 vmad vmax vmax2 vmax4 vmin vmin2 vmin4 vote
		vset vset2 vset4 vshl vshr vsub vsub2 vsub4 wgmma wmma xor`) {
		opcodes[op] = true
	}
}

// Directive classes.
var (
	moduleDirectives = set(".version", ".target", ".address_size", ".file", ".section", ".alias",
		".entry", ".func", ".visible", ".extern", ".weak", ".common")
	bodyDirectives = set(".b8", ".b16", ".b32", ".b64", ".reg", ".local", ".param", ".loc", ".callprototype", ".calltargets",
		".branchtargets", ".maxnreg", ".maxntid", ".reqntid", ".minnctapersm", ".maxnctapersm",
		".noreturn", ".pragma", ".sreg")
	eitherDirectives = set(".global", ".const", ".shared", ".tex", ".pragma")
)

func set(xs ...string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// stmt is one top-level statement or item.
type stmt struct {
	text      string
	startLine int // 1-based line in the block text (header included)
	endLine   int
	class     string // "module", "body", "either", "unknown"
}

var (
	guardRE         = regexp.MustCompile(`^@!?[%$\w]+\s*`)
	labelRE         = regexp.MustCompile(`^[$%\w]+\s*:`)
	wordRE          = regexp.MustCompile(`^[a-z][a-z0-9_]*`)
	dirRE           = regexp.MustCompile(`^\.[a-z_][a-z0-9_]*`)
	angleRE         = regexp.MustCompile(`<[A-Za-z_]`)
	lineDirectiveRE = regexp.MustCompile(`^\.(version|target|address_size|file|loc)\b`)
	listingRE       = regexp.MustCompile(`^(\s*[a-z][\w.:]*\s*(\([^()]*\))?\s*\n)*\s*[a-z][\w.:]*\s*(\([^()]*\))?\s*$`)
	commentRE       = regexp.MustCompile(`//.*`)
	codeInCommentRE = regexp.MustCompile(`\b[a-z][a-z0-9]*(\.[a-z0-9_]+)+\s+[^;]*;|\.(entry|func|pragma|loc|global|callprototype)\b`)
	ppLineRE        = regexp.MustCompile(`(?m)^[ \t]*#.*$`)
	spacedDotsRE    = regexp.MustCompile(`\.[ \t]+\.[ \t]+\.`)
	optBraceRE      = regexp.MustCompile(`[A-Za-z0-9_}]\{\.[a-z]|=\s*\{\s*\.[a-z]`)
)

// stripComments blanks out comments, keeping line breaks and columns.
func stripComments(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '"':
			for i++; i < len(b) && b[i] != '"' && b[i] != '\n'; i++ {
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			for ; i < len(b); i++ {
				if b[i] == '*' && i+1 < len(b) && b[i+1] == '/' {
					b[i], b[i+1] = ' ', ' '
					i++
					break
				}
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
		}
	}
	return string(b)
}

// splitStmts splits code (comments stripped) into top-level statements and
// reports every statement at any depth through inner.
func splitStmts(code string, inner func(text string)) (top []stmt, rest string, balanced bool) {
	balanced = true
	var cur strings.Builder
	curStart := 0
	line := 1
	depth := 0         // scope depth ({ } blocks and function bodies)
	var scopeTop []int // for each open scope: index in top of its owner at depth 0, or -1
	stmtBraces := 0    // braces inside the current statement
	flush := func(end int) {
		t := strings.TrimSpace(cur.String())
		cur.Reset()
		if t == "" {
			return
		}
		inner(t)
		if depth == 0 {
			top = append(top, stmt{text: t, startLine: curStart, endLine: end})
		}
	}
	for i := 0; i < len(code); i++ {
		c := code[i]
		if c == '\n' {
			line++
			cur.WriteByte(' ')
			continue
		}
		if strings.TrimSpace(cur.String()) == "" && c != ' ' && c != '\t' {
			curStart = line
			if strings.HasPrefix(code[i:], "@@DWARF") || lineDirectiveRE.MatchString(code[i:]) {
				// A statement without `;` that ends at the end of the line.
				j := strings.IndexByte(code[i:], '\n')
				if j < 0 {
					j = len(code) - i
				}
				cur.WriteString(code[i : i+j])
				flush(line)
				i += j - 1
				continue
			}
		}
		switch {
		case c == '{' && stmtBraces == 0 && opensScope(cur.String()):
			head := strings.TrimSpace(cur.String())
			if head != "" {
				// A function or section header: the item is the whole thing.
				inner(head)
				if depth == 0 {
					top = append(top, stmt{text: head, startLine: curStart, endLine: line})
					scopeTop = append(scopeTop, len(top)-1)
				} else {
					scopeTop = append(scopeTop, -1)
				}
			} else {
				if depth == 0 {
					top = append(top, stmt{text: "{", startLine: line, endLine: line})
					scopeTop = append(scopeTop, len(top)-1)
				} else {
					scopeTop = append(scopeTop, -1)
				}
			}
			cur.Reset()
			depth++
		case c == '{':
			stmtBraces++
			cur.WriteByte(c)
		case c == '}' && stmtBraces > 0:
			stmtBraces--
			cur.WriteByte(c)
		case c == '}':
			flush(line)
			if depth == 0 {
				balanced = false
				continue
			}
			depth--
			if k := scopeTop[len(scopeTop)-1]; k >= 0 {
				top[k].endLine = line
			}
			scopeTop = scopeTop[:len(scopeTop)-1]
		case c == ';':
			flush(line)
		case c == ':' && isLabelSoFar(cur.String()) && (i+1 >= len(code) || code[i+1] != ':'):
			cur.WriteByte(c)
			// A label ends a statement unless a directive follows
			// (name: .callprototype / .calltargets / .branchtargets).
			j := i + 1
			for j < len(code) && (code[j] == ' ' || code[j] == '\t' || code[j] == '\n') {
				j++
			}
			if j < len(code) && code[j] == '.' {
				continue
			}
			flush(line)
		default:
			cur.WriteByte(c)
		}
	}
	if depth != 0 || stmtBraces != 0 {
		balanced = false
	}
	rest = strings.TrimSpace(cur.String())
	if rest != "" && depth == 0 {
		top = append(top, stmt{text: rest, startLine: curStart, endLine: line})
	}
	return top, rest, balanced
}

func isLabelSoFar(s string) bool {
	t := strings.TrimSpace(s)
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c == '_' || c == '$' || c == '%' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// opensScope reports whether a `{` after the statement text so far opens a
// scope (a block, function body or section) rather than a brace operand.
func opensScope(sofar string) bool {
	t := strings.TrimSpace(sofar)
	if t == "" {
		return true
	}
	if guardRE.MatchString(t) && strings.TrimSpace(guardRE.ReplaceAllString(t, "")) == "" {
		return true // @p { ... } is not PTX, but treat it as a scope
	}
	for _, w := range strings.Fields(strings.NewReplacer("(", " ( ", ")", " ) ").Replace(t)) {
		if w == ".entry" || w == ".func" || w == ".section" {
			return true
		}
	}
	return false
}

// classOf classifies one statement.
func classOf(t string) string {
	for {
		t = strings.TrimSpace(t)
		if m := labelRE.FindString(t); m != "" && !strings.HasPrefix(t, "@") {
			rest := strings.TrimSpace(t[len(m):])
			if rest == "" {
				return "body"
			}
			if strings.HasPrefix(rest, ":") {
				return "unknown"
			}
			t = rest
			continue
		}
		break
	}
	if strings.HasPrefix(t, "@@DWARF") {
		return "module"
	}
	if strangeOpcode(t) != "" {
		return "body"
	}
	if m := guardRE.FindString(t); m != "" {
		t = strings.TrimSpace(t[len(m):])
		if w := wordRE.FindString(t); w != "" && opcodes[w] {
			return "body"
		}
		return "unknown"
	}
	if t == "{" {
		return "body"
	}
	if d := dirRE.FindString(t); d != "" {
		// The class of a declaration is that of its most specific directive.
		cls := ""
		for _, w := range strings.Fields(strings.NewReplacer("(", " ", ")", " ", "[", " ").Replace(t)) {
			if !strings.HasPrefix(w, ".") {
				continue
			}
			if i := strings.Index(w, "::"); i > 0 {
				w = w[:i]
			}
			switch {
			case moduleDirectives[w]:
				return "module"
			case bodyDirectives[w] && cls == "":
				cls = "body"
			case eitherDirectives[w] && cls == "":
				cls = "either"
			}
		}
		if cls != "" {
			return cls
		}
		return "unknown"
	}
	if w := wordRE.FindString(t); w != "" && opcodes[w] {
		rest := t[len(w):]
		if rest == "" || rest[0] == '.' || rest[0] == ' ' {
			return "body"
		}
	}
	return "unknown"
}

// instrLikeRE matches an instruction with an unknown opcode: a word with
// at least one dot-modifier, then operands without `=`.
var instrLikeRE = regexp.MustCompile(`^(@!?[%$\w]+\s*)?[a-z][a-z0-9_]*(\.[A-Za-z0-9_:]+)+(\s+[^=]*)?$`)

// strangeOpcode returns the opcode of an instruction-like statement whose
// opcode is not a PTX opcode (a misspelling such as "se1p"), or "".
func strangeOpcode(t string) string {
	t = strings.TrimSpace(t)
	for {
		m := labelRE.FindString(t)
		if m == "" || strings.HasPrefix(t, "@") {
			break
		}
		t = strings.TrimSpace(t[len(m):])
	}
	if !instrLikeRE.MatchString(t) {
		return ""
	}
	t = strings.TrimSpace(guardRE.ReplaceAllString(t, ""))
	w := wordRE.FindString(t)
	if opcodes[w] {
		return ""
	}
	return w
}

// classify sets b.kind, b.complete, b.expect, b.bodyFrom and b.note.
func classify(b *block) {
	code := stripComments(b.text)
	// The header comment is line 1; blank it (it is a comment anyway).
	var notes []string
	incomplete := func(why string) {
		b.complete = false
		notes = append(notes, why)
	}
	b.complete = true
	missingSemi := false

	switch {
	case strings.Contains(code, "..."), strings.Contains(code, "…"), spacedDotsRE.MatchString(code):
		incomplete("elision")
	case strings.Contains(code, ".."):
		incomplete("elision (..)")
	}
	// Preprocessor lines (#define, #include, ...; ptx-isa-9.0.txt 4.1) are
	// valid PTX source but not statements.
	code = ppLineRE.ReplaceAllStringFunc(code, func(s string) string { return strings.Repeat(" ", len(s)) })
	// Elided parts are not statements.
	code = spacedDotsRE.ReplaceAllStringFunc(code, func(s string) string { return strings.Repeat(" ", len(s)) })
	code = strings.NewReplacer("...", "   ", "…", " ", "..", "  ").Replace(code)

	var all []string
	top, rest, balanced := splitStmts(code, func(t string) { all = append(all, t) })
	if rest != "" {
		all = append(all, rest)
	}
	known, unknown := 0, 0
	var firstUnknown string
	for _, t := range all {
		if w := strangeOpcode(t); w != "" {
			notes = append(notes, "unknown opcode "+w)
		}
		if classOf(t) == "unknown" {
			unknown++
			if firstUnknown == "" {
				firstUnknown = t
			}
		} else {
			known++
		}
	}
	if !strings.Contains(code, ";") && listingRE.MatchString(strings.SplitN(code, "\n", 2)[1]) {
		b.kind = "other"
		b.complete = false
		b.expect = "-"
		b.note = "instruction-name listing, not PTX"
		return
	}
	exampleLead := strings.HasPrefix(b.lead, "Example")
	if known == 0 || unknown*3 > len(all) && !exampleLead {
		b.kind = "other"
		b.complete = false
		b.expect = "-"
		b.note = "not PTX"
		return
	}

	if angleRE.MatchString(strings.ReplaceAll(code, "<<", "")) {
		incomplete("placeholder <...>")
	}
	if optBraceRE.MatchString(code) {
		incomplete("grammar braces {.opt}")
	}
	if unknown > 0 {
		if len(firstUnknown) > 40 {
			firstUnknown = firstUnknown[:40] + "…"
		}
		incomplete("unrecognized statement: " + firstUnknown)
	}
	if !balanced {
		incomplete("unbalanced braces")
	}
	if rest != "" {
		if classOf(rest) == "body" && b.complete {
			missingSemi = true
		} else {
			incomplete("unterminated statement")
		}
	}

	// Kind.
	firstBody, lastModule := -1, -1
	for i, s := range top {
		switch classOf(s.text) {
		case "module":
			lastModule = i
		case "body":
			if firstBody < 0 {
				firstBody = i
			}
		}
	}
	switch {
	case lastModule < 0 && firstBody < 0:
		b.kind = "module"
	case lastModule < 0:
		b.kind = "body"
	case firstBody < 0:
		b.kind = "module"
	case firstBody > lastModule:
		b.kind = "mixed"
		b.bodyFrom = top[lastModule+1].startLine
		if top[lastModule].endLine >= b.bodyFrom {
			notes = append(notes, "cannot split module and body parts by line")
			b.kind = "module"
		}
	default:
		b.kind = "module"
		notes = append(notes, "body statements precede module-level items")
	}
	b.expect = "parse"
	if b.lead == tableRowLead {
		for _, c := range commentRE.FindAllString(b.text, -1) {
			if codeInCommentRE.MatchString(c) {
				b.expect = "garbled"
				notes = append([]string{"garbled by the text conversion: the line breaks of the table cell are lost, so a // comment runs over the statements after it"}, notes...)
				break
			}
		}
	}
	if missingSemi {
		b.expect = "manual-error"
		notes = append([]string{"manual-error: missing ';' after the last instruction"}, notes...)
	}
	b.note = strings.Join(notes, "; ")
}
