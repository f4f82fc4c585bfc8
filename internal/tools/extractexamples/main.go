// Command extractexamples extracts the example code blocks of the PTX ISA
// manual (the text files in ../shared/spec, see its README.md) into
// testdata/manual, for ptx/manual_test.go.
//
// Run it from the module root:
//
//	go run ./internal/tools/extractexamples [-spec DIR] [-out DIR] [-v]
//
// It rewrites DIR/<source>/*.ptx and DIR/manifest.tsv (default DIR is
// testdata/manual); files it no longer produces are removed.
//
// # Sources and how examples are found
//
//   - ptx-isa-9.0.txt (source "9.0"): code is in ``` fences. Each fenced block
//     is paired with the nearest non-blank line before it outside any fence
//     (its "lead"). Blocks led by "Syntax", "Syntax (predefined)" or
//     "Semantics" are grammar or pseudo-code and are not extracted; every
//     other block is (examples proper are led by "Examples", "Example",
//     "Example 1:", ...; the rest are inline snippets such as "This can be
//     written in PTX as", pseudo-code and layout formulas, which usually end
//     up as kind "other"). A block led by "(continued from previous page)" is
//     the continuation of the previous block across a PDF page break and is
//     appended to it (so a continued Syntax block stays skipped).
//   - ptx-isa-9.2-chapters-1-8.txt (source "9.2"): no fences. Code is found as
//     runs of blank-line separated paragraphs whose lines all look like code
//     (see looksLikeCode), led by the last prose line before them. Blocks
//     whose whitespace-free text equals (or is contained in) a 9.0 block are
//     duplicates and are dropped, so 9.2 contributes only what 9.0 lacks.
//   - ptx-isa-3.1.txt (source "3.1"): a PDF-to-text conversion that flattens
//     the instruction tables. Three forms are extracted: ``` fences (as for
//     9.0; a fence whose first line is "Examples" counts as led by it), table
//     rows "Examples<TAB>code" with their continuation lines starting with a
//     TAB (the cell text is joined; <pre> tags are removed), and unfenced code
//     paragraphs as for 9.2. Duplicates of 9.0 blocks are dropped. Much of
//     this text is damaged (lost line breaks, "11" for "//", split tokens);
//     such blocks get expect=garbled. The instruction tables have no
//     headings: an example is named after the nearest instruction row above
//     it ("add<TAB>Add two values.").
//   - ptx-isa-9.0-section-9.7.9-data-movement.md and
//     ptx-isa-9.0-section-9.7.16-tcgen05.md (source "9.0md"): the same
//     sections as in ptx-isa-9.0.txt, so only blocks not found there are
//     kept: not as a substring of a 9.0 block (whitespace removed), and not
//     as a near duplicate (60% of the lines, whitespace removed, occur in the
//     9.0 blocks of the same section; the renderings differ in spacing and a
//     few typos).
//
// Section numbers come from heading lines "N.N.N[.] Title" outside fences
// (markdown "### N.N. [Title](...)" in the .md files); a heading is accepted
// only if its number sorts after the current one, which rejects numbered
// text and the table of contents.
//
// The text of a block is kept as written except for undoing artifacts of
// the PDF conversion: a line starting with "↪" (a wrapped line) is joined to
// the previous one (directly if the break was after "-", "_", "." or ":",
// i.e. inside a word, else with a blank; "↳", "↔" and "→" likewise),
// markdown escapes (\_ \( \) \$ \* \[ \] \< \> \#) lose
// their backslash, HTML <pre>, </pre> and <code> tags are removed, and
// trailing blanks are trimmed.
//
// # Output
//
// Each block is written to <out>/<source>/<section>-<slug>-<n>.ptx, where n
// counts the extracted blocks of the section (and slug), with a first line
// "// from <file> section <section> (<name>), example <n>".
//
// manifest.tsv has one row per file with the columns
//
//	file      path relative to <out>
//	source    9.0, 9.2, 3.1 or 9.0md
//	section   section number
//	kind      module: parse as is; body: parse wrapped in a kernel (see
//	          ptx/manual_test.go); mixed: lines before body_from are
//	          module-level, the rest is wrapped in a kernel; other: not PTX
//	          (C, pseudo-code, grammar, formulas, litmus tables)
//	complete  yes, or no when the block has elisions ("...", "…", ".."),
//	          placeholders (<...>, {.opt} grammar), or an unterminated
//	          statement; only complete PTX blocks are expected to parse
//	expect    parse, manual-error (the manual's text is invalid PTX by its
//	          own grammar; note says why), garbled (damaged by the text
//	          conversion; note says how) or "-" (not a test: other or
//	          incomplete)
//	body_from for mixed: the 1-based line of the .ptx file where the body
//	          part starts; empty otherwise
//	note      free text
//
// Kind and completeness are decided by heuristics (classify); the table
// overrides below corrects them where the heuristics are wrong, and records
// manual errors. Everything is deterministic: rerunning gives the same files.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// block is one extracted code block.
type block struct {
	source  string // "9.0", "9.2", "3.1", "9.0md"
	srcFile string
	line    int    // 1-based line of the block's first code line in srcFile
	section string // "9.7.1.1"
	title   string // section title
	lead    string // the prose line leading the block
	text    string
	skip    bool // a Syntax/Semantics block (kept only for continuation merging)

	// filled by classify / overrides
	rel      string
	n        int
	kind     string
	complete bool
	expect   string
	bodyFrom int
	note     string
}

func main() {
	specDir := flag.String("spec", "", "directory holding the manual text files (default ../shared/spec or /work/shared/spec)")
	outDir := flag.String("out", "testdata/manual", "output directory")
	verbose := flag.Bool("v", false, "print every block with its classification")
	flag.Parse()
	if *specDir == "" {
		for _, d := range []string{"../shared/spec", "/work/shared/spec"} {
			if _, err := os.Stat(filepath.Join(d, "ptx-isa-9.0.txt")); err == nil {
				*specDir = d
				break
			}
		}
		if *specDir == "" {
			fatalf("cannot find the spec directory; use -spec")
		}
	}
	read := func(name string) []string {
		b, err := os.ReadFile(filepath.Join(*specDir, name))
		if err != nil {
			fatalf("%v", err)
		}
		return strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	}

	var all []*block
	v90 := fenced("9.0", "ptx-isa-9.0.txt", read("ptx-isa-9.0.txt"), false)
	all = append(all, v90...)
	seen := newDedup(v90)
	dups := map[string]int{}
	add := func(bs []*block) {
		for _, b := range bs {
			if seen.has(b) {
				dups[b.source]++
				continue
			}
			all = append(all, b)
		}
	}
	add(unfenced("9.2", "ptx-isa-9.2-chapters-1-8.txt", read("ptx-isa-9.2-chapters-1-8.txt")))
	var md []*block
	md = append(md, fenced("9.0md", "ptx-isa-9.0-section-9.7.9-data-movement.md", read("ptx-isa-9.0-section-9.7.9-data-movement.md"), true)...)
	md = append(md, fenced("9.0md", "ptx-isa-9.0-section-9.7.16-tcgen05.md", read("ptx-isa-9.0-section-9.7.16-tcgen05.md"), true)...)
	for _, b := range md {
		if nearDup(b, v90) {
			dups[b.source]++
			continue
		}
		add([]*block{b})
	}
	add(v31(read("ptx-isa-3.1.txt")))

	// Number the blocks per source and section, classify, apply overrides.
	count := map[string]int{}
	used := map[string]bool{}
	for _, b := range all {
		name, slug := sectionName(b.title)
		key := b.source + "\x00" + b.section + "\x00" + slug
		count[key]++
		b.n = count[key]
		b.rel = fmt.Sprintf("%s/%s-%s-%d.ptx", b.source, b.section, slug, b.n)
		if used[b.rel] {
			fatalf("duplicate file name %s", b.rel)
		}
		used[b.rel] = true
		header := fmt.Sprintf("// from %s section %s (%s), example %d", b.srcFile, b.section, name, b.n)
		b.text = header + "\n" + b.text
		classify(b)
	}
	applied := map[string]bool{}
	for _, b := range all {
		if o, ok := overrides[strings.TrimSuffix(b.rel, ".ptx")]; ok {
			applied[strings.TrimSuffix(b.rel, ".ptx")] = true
			o.apply(b)
		}
		if b.kind == "other" || !b.complete {
			if b.expect == "parse" {
				b.expect = "-"
			}
		}
	}
	for k := range overrides {
		if !applied[k] {
			fmt.Fprintf(os.Stderr, "warning: override %s matches no block\n", k)
		}
	}

	if err := write(*outDir, all); err != nil {
		fatalf("%v", err)
	}

	// Summary.
	type stat struct{ n, complete, parse int }
	kinds := map[string]*stat{}
	var keys []string
	for _, b := range all {
		k := b.source + " " + b.kind
		if kinds[k] == nil {
			kinds[k] = &stat{}
			keys = append(keys, k)
		}
		s := kinds[k]
		s.n++
		if b.complete {
			s.complete++
		}
		if b.expect == "parse" {
			s.parse++
		}
		if *verbose {
			fmt.Printf("== %s  kind=%s complete=%v expect=%s body_from=%d lead=%q note=%q\n%s\n", b.rel, b.kind, b.complete, b.expect, b.bodyFrom, b.lead, b.note, b.text)
		}
	}
	sort.Strings(keys)
	fmt.Fprintf(os.Stderr, "%d blocks written to %s (duplicates dropped: %v)\n", len(all), *outDir, dups)
	for _, k := range keys {
		s := kinds[k]
		fmt.Fprintf(os.Stderr, "  %-14s %4d blocks, %4d complete, %4d expected to parse\n", k, s.n, s.complete, s.parse)
	}
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "extractexamples: "+format+"\n", args...)
	os.Exit(1)
}

// ---------------------------------------------------------------------------
// Sections

var (
	headingRE   = regexp.MustCompile("^([0-9]+(?:\\.[0-9]+)+)\\.?\\s+([A-Za-z`%@{._].*)$")
	mdHeadingRE = regexp.MustCompile(`^#+\s+([0-9]+(?:\.[0-9]+)*)\.?\s+(.*)$`)
	mdLinkRE    = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// sectionTracker follows the heading lines of a file.
type sectionTracker struct {
	num   string
	title string
	md    bool
}

// feed inspects a line outside code and reports whether it is a heading.
func (s *sectionTracker) feed(line string) bool {
	var num, title string
	if s.md {
		m := mdHeadingRE.FindStringSubmatch(line)
		if m == nil {
			return false
		}
		num = m[1]
		title = mdLinkRE.ReplaceAllString(m[2], "$1")
		if i := strings.Index(title, "[]("); i >= 0 {
			title = title[:i]
		}
	} else {
		if strings.Contains(line, "\t") || len(line) > 160 {
			return false
		}
		m := headingRE.FindStringSubmatch(line)
		if m == nil {
			return false
		}
		num, title = m[1], m[2]
	}
	if s.num != "" && !sectionLess(s.num, num) {
		return false
	}
	s.num, s.title = num, strings.TrimSpace(title)
	return true
}

func sectionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, _ := strconv.Atoi(as[i])
		y, _ := strconv.Atoi(bs[i])
		if x != y {
			return x < y
		}
	}
	return len(as) < len(bs)
}

// sectionName gives the short name of a section for the header comment
// (the instruction name for instruction sections) and its file-name slug.
func sectionName(title string) (name, slug string) {
	name = strings.ReplaceAll(title, "`", "")
	if i := strings.LastIndex(name, ": "); i >= 0 {
		name = name[i+2:]
	}
	name = strings.TrimSpace(name)
	if name == "" {
		name = "untitled"
	}
	first := name
	if i := strings.IndexAny(first, ",/"); i > 0 {
		first = first[:i]
	}
	switch strings.TrimSpace(first) {
	case "{}":
		first = "braces"
	case "@":
		first = "predicated"
	}
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(first) {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(c)
		default:
			dash = true
		}
	}
	slug = b.String()
	if len(slug) > 40 {
		slug = slug[:40]
		if i := strings.LastIndexByte(slug, '-'); i > 20 {
			slug = slug[:i]
		}
		slug = strings.TrimRight(slug, "-_")
	}
	if slug == "" {
		slug = "x"
	}
	return name, slug
}

// ---------------------------------------------------------------------------
// Extraction

// skipLead reports whether a block led by lead is grammar or semantics.
func skipLead(lead string) bool {
	switch strings.TrimSuffix(strings.TrimSpace(lead), ":") {
	case "Syntax", "Syntax (predefined)", "Semantics":
		return true
	}
	return false
}

// grammarArea tracks whether the text is inside the Syntax or Semantics part
// of an instruction description: such a part starts at a "Syntax" or
// "Semantics" line and ends at the next part label (Description, Notes,
// Examples, ...). Sub-headings inside it ("Integer type:", "Atomic
// operation with vector type:") lead further grammar blocks.
func grammarArea(in bool, line string) bool {
	switch strings.TrimSuffix(line, ":") {
	case "Syntax", "Syntax (predefined)", "Semantics":
		return true
	case "Description", "Notes", "PTX ISA Notes", "Target ISA Notes", "Examples", "Example",
		"Deprecation Note":
		return false
	}
	return in
}

const continued = "(continued from previous page)"

// fenced extracts the ``` blocks of a file.
func fenced(source, file string, lines []string, md bool) []*block {
	var out []*block
	sec := &sectionTracker{md: md}
	lead := ""
	grammar := false // inside a Syntax or Semantics part
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) != "```" {
			if t := strings.TrimSpace(l); t != "" {
				if sec.feed(l) {
					lead = ""
					grammar = false
				} else {
					lead = t
					grammar = grammarArea(grammar, t)
				}
			}
			continue
		}
		start := i + 1
		j := start
		for j < len(lines) && strings.TrimSpace(lines[j]) != "```" {
			j++
		}
		body := lines[start:min(j, len(lines))]
		i = j
		thisLead := lead
		// 3.1 puts the "Examples" label inside the fence.
		if len(body) > 0 && strings.TrimSpace(body[0]) == "Examples" {
			thisLead = "Examples"
			body = body[1:]
			start++
		}
		text := clean(body)
		if (thisLead == continued || thisLead == "(continues on next page)") && len(out) > 0 {
			prev := out[len(out)-1]
			prev.text = strings.TrimRight(prev.text, "\n") + "\n" + text
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		out = append(out, &block{source: source, srcFile: file, line: start + 1,
			section: sec.num, title: sec.title, lead: thisLead, text: text, skip: grammar || skipLead(thisLead)})
	}
	var kept []*block
	for _, b := range out {
		if !b.skip {
			kept = append(kept, b)
		}
	}
	return kept
}

var (
	exampleLabelRE = regexp.MustCompile(`^Examples?( \d+)?:?$`)
	opcodeLineRE   = regexp.MustCompile(`^(@!?[%\w]+\s+)?[a-z][a-z0-9_]*(\.[A-Za-z0-9_:]+)*(\s|;|$)`)
	labelLineRE    = regexp.MustCompile(`^[$%\w]+:`)
)

// looksLikeCode reports whether a line of an unfenced file looks like PTX
// (or C-like pseudo-code) rather than prose.
func looksLikeCode(l string) bool {
	if strings.TrimSpace(l) == "" {
		return false
	}
	if l[0] == ' ' || l[0] == '\t' {
		// Indented lines are code, except indented bullet text.
		t := strings.TrimSpace(l)
		return !strings.HasPrefix(t, "•") && !strings.HasPrefix(t, "- ")
	}
	t := strings.TrimSpace(l)
	switch {
	case exampleLabelRE.MatchString(t):
		return false
	case strings.HasPrefix(t, "//"), strings.HasPrefix(t, "/*"),
		strings.HasPrefix(t, "{"), strings.HasPrefix(t, "}"),
		strings.HasPrefix(t, "@"), strings.HasPrefix(t, "#"):
		return true
	case strings.HasPrefix(t, "."):
		// A directive: .reg .b32 r; .entry foo (...
		return len(t) > 1 && t[1] >= 'a' && t[1] <= 'z'
	case labelLineRE.MatchString(t):
		return !strings.Contains(t, ": ") || strings.ContainsAny(t, ";{}")
	case opcodeLineRE.MatchString(t):
		return strings.ContainsAny(t, ";{}") || strings.HasSuffix(t, ",")
	}
	return false
}

// unfenced extracts code paragraphs from a file without fences.
func unfenced(source, file string, lines []string) []*block {
	var out []*block
	sec := &sectionTracker{}
	lead := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !looksLikeCode(l) || (i > 0 && strings.TrimSpace(lines[i-1]) != "") {
			if t := strings.TrimSpace(l); t != "" {
				if sec.feed(l) {
					lead = ""
				} else {
					lead = t
				}
			}
			continue
		}
		// A paragraph starting with a code line: take it and following
		// code paragraphs while every line of them looks like code.
		start := i
		end := i
		for {
			j := end
			for j < len(lines) && strings.TrimSpace(lines[j]) != "" && looksLikeCode(lines[j]) {
				j++
			}
			if j < len(lines) && strings.TrimSpace(lines[j]) != "" {
				// The paragraph has a non-code line: stop before it.
				break
			}
			end = j
			for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
				j++
			}
			if j >= len(lines) || !looksLikeCode(lines[j]) || headingRE.MatchString(lines[j]) {
				break
			}
			end = j
		}
		if end == start {
			if t := strings.TrimSpace(l); t != "" {
				lead = t
			}
			continue
		}
		i = end - 1
		text := clean(lines[start:end])
		if skipLead(lead) || !strings.ContainsAny(stripComments(text), ";{") {
			// Flattened tables (one cell per line) look like lists of
			// directives; real code has a `;` or a brace.
			continue
		}
		out = append(out, &block{source: source, srcFile: file, line: start + 1,
			section: sec.num, title: sec.title, lead: lead, text: text})
	}
	return out
}

var preTagRE = regexp.MustCompile(`</?(pre|code|i|b)>`)

const tableRowLead = "Examples (table row)"

// v31 extracts the examples of the PTX ISA 3.1 text.
func v31(lines []string) []*block {
	const file = "ptx-isa-3.1.txt"
	out := fenced("3.1", file, lines, false)

	// Table rows "Examples<TAB>...", and unfenced code paragraphs; both
	// outside fences.
	var outside []string // lines with fenced parts blanked
	in := false
	for _, l := range lines {
		if strings.TrimSpace(l) == "```" {
			in = !in
			outside = append(outside, "")
			continue
		}
		if in {
			outside = append(outside, "")
		} else {
			outside = append(outside, l)
		}
	}
	sec := &sectionTracker{}
	secAt := make([]struct{ num, title string }, len(outside))
	for i, l := range outside {
		sec.feed(l)
		secAt[i].num, secAt[i].title = sec.num, sec.title
	}
	for i := 0; i < len(outside); i++ {
		l := outside[i]
		if !strings.HasPrefix(l, "Examples\t") {
			continue
		}
		cells := []string{strings.TrimPrefix(l, "Examples\t")}
		j := i + 1
		for j < len(outside) && strings.HasPrefix(outside[j], "\t") {
			cells = append(cells, outside[j])
			j++
		}
		var rows []string
		for _, c := range cells {
			c = preTagRE.ReplaceAllString(c, "")
			// Cells of one row are separated by tabs; the text of an
			// example cell was split at arbitrary points, so join them.
			parts := strings.Split(c, "\t")
			row := strings.TrimSpace(strings.Join(parts, ""))
			if row != "" {
				rows = append(rows, row)
			}
		}
		text := clean(rows)
		if strings.TrimSpace(text) != "" {
			out = append(out, &block{source: "3.1", srcFile: file, line: i + 1, section: secAt[i].num,
				title: secAt[i].title, lead: tableRowLead, text: text})
		}
		i = j - 1
	}
	for _, b := range unfenced("3.1", file, outside) {
		if strings.Contains(b.text, "\t") {
			continue // table residue
		}
		out = append(out, b)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].line < out[j].line })

	// Instruction tables have no headings of their own: name an example
	// after the instruction row ("add<TAB>Add two values.") above it.
	for _, b := range out {
		if !strings.HasPrefix(b.lead, "Examples") {
			continue
		}
		for i := b.line - 2; i >= 0 && i > b.line-200; i-- {
			if headingRE.MatchString(lines[i]) && !strings.Contains(lines[i], "\t") {
				break
			}
			if m := instrRowRE.FindStringSubmatch(lines[i]); m != nil && m[1] != "notes" {
				b.title += ": " + m[1]
				break
			}
		}
	}
	return out
}

// instrRowRE matches the first row of an instruction table of the 3.1 text.
var instrRowRE = regexp.MustCompile(`^([a-z][a-z0-9_.]*)\t+[A-Z]`)

var mdEscapeRE = regexp.MustCompile(`\\([_()$*\[\]<>#])`)

// clean undoes the PDF/markdown conversion artifacts of a block's lines.
func clean(lines []string) string {
	var out []string
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		l = mdEscapeRE.ReplaceAllString(l, "$1")
		l = preTagRE.ReplaceAllString(l, "")
		if t := strings.TrimSpace(l); len(out) > 0 && strings.IndexAny(t, "↪↳↔→") == 0 {
			_, size := utf8.DecodeRuneInString(t)
			t = strings.TrimSpace(t[size:])
			prev := out[len(out)-1]
			if strings.HasSuffix(prev, "-") || strings.HasSuffix(prev, "_") ||
				strings.HasSuffix(prev, ".") || strings.HasSuffix(prev, ":") {
				out[len(out)-1] = prev + t // the line was broken inside a word
			} else {
				out[len(out)-1] = prev + " " + t
			}
			continue
		}
		out = append(out, l)
	}
	// Drop leading and trailing blank lines.
	for len(out) > 0 && strings.TrimSpace(out[0]) == "" {
		out = out[1:]
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}

// dedup finds blocks already extracted from ptx-isa-9.0.txt.
type dedup struct{ all string }

func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
}

func newDedup(bs []*block) *dedup {
	var b strings.Builder
	for _, x := range bs {
		b.WriteString("\x00")
		b.WriteString(squeeze(x.text))
	}
	return &dedup{all: b.String() + "\x00"}
}

func (d *dedup) has(b *block) bool {
	s := squeeze(b.text)
	return s == "" || strings.Contains(d.all, s)
}

// nearDup reports whether most lines of b (60% of its non-blank lines,
// compared with fuzzy) occur in the blocks of ref of the same section: the .md
// files render the same sections as ptx-isa-9.0.txt with small differences
// (spacing, page breaks, a few different typos).
func nearDup(b *block, ref []*block) bool {
	have := map[string]bool{}
	for _, r := range ref {
		if r.section != b.section {
			continue
		}
		for _, l := range strings.Split(r.text, "\n") {
			have[fuzzy(l)] = true
		}
	}
	n, found := 0, 0
	for _, l := range strings.Split(b.text, "\n") {
		l = fuzzy(l)
		if l == "" {
			continue
		}
		n++
		if have[l] {
			found++
		}
	}
	return n > 0 && found*10 >= n*6
}

// fuzzy normalizes a line for nearDup: blanks removed, lower case, and the
// digits the PDF text confuses with letters (1 for l, 0 for O) mapped to them.
func fuzzy(l string) string {
	return strings.NewReplacer("1", "l", "0", "o").Replace(strings.ToLower(squeeze(l)))
}

// ---------------------------------------------------------------------------
// Output

func write(dir string, bs []*block) error {
	want := map[string]bool{}
	var man bytes.Buffer
	man.WriteString("file\tsource\tsection\tkind\tcomplete\texpect\tbody_from\tnote\n")
	for _, b := range bs {
		p := filepath.Join(dir, filepath.FromSlash(b.rel))
		want[p] = true
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(b.text+"\n"), 0o644); err != nil {
			return err
		}
		complete := "no"
		if b.complete {
			complete = "yes"
		}
		bodyFrom := ""
		if b.kind == "mixed" {
			bodyFrom = strconv.Itoa(b.bodyFrom)
		}
		note := strings.NewReplacer("\t", " ", "\n", " ").Replace(b.note)
		fmt.Fprintf(&man, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", b.rel, b.source, b.section, b.kind, complete, b.expect, bodyFrom, note)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.tsv"), man.Bytes(), 0o644); err != nil {
		return err
	}
	// Remove stale example files.
	return filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !info.IsDir() && strings.HasSuffix(p, ".ptx") && !want[p] {
			return os.Remove(p)
		}
		return nil
	})
}
