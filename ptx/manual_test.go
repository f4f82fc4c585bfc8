package ptx

// TestManualExamples parses the example code blocks of the PTX ISA manual,
// extracted into testdata/manual by internal/tools/extractexamples (see the
// column documentation at the top of that program). Every block the manifest
// marks complete=yes and expect=parse must parse, wrapped according to its
// kind, and Format's output must parse again.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const manualDir = "../testdata/manual"

// manualExample is one row of testdata/manual/manifest.tsv.
type manualExample struct {
	file, source, section, kind string
	complete                    bool
	expect                      string
	bodyFrom                    int
	note                        string
}

func readManualManifest(t *testing.T) []manualExample {
	t.Helper()
	f, err := os.Open(filepath.Join(manualDir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []manualExample
	col := map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Split(sc.Text(), "\t")
		if n == 1 {
			for i, name := range fields {
				col[name] = i
			}
			for _, name := range []string{"file", "source", "section", "kind", "complete", "expect", "body_from", "note"} {
				if _, ok := col[name]; !ok {
					t.Fatalf("manifest.tsv: no column %q", name)
				}
			}
			continue
		}
		get := func(name string) string {
			if i := col[name]; i < len(fields) {
				return fields[i]
			}
			return ""
		}
		r := manualExample{
			file: get("file"), source: get("source"), section: get("section"), kind: get("kind"),
			complete: get("complete") == "yes", expect: get("expect"), note: get("note"),
		}
		if s := get("body_from"); s != "" {
			r.bodyFrom, err = strconv.Atoi(s)
			if err != nil {
				t.Fatalf("manifest.tsv:%d: bad body_from %q", n, s)
			}
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// Wrapper text for examples that are statements of a function body.
const (
	manualPrologue = ".version 9.0\n.target sm_100a\n.address_size 64\n"
	manualEntry    = ".entry __example() {\n"
	manualEpilogue = "\n}\n"
)

// wrapManualExample returns the source to parse for an example and, for each
// line of that source (index line-1), the line of the example file it came
// from (0 for wrapper lines).
func wrapManualExample(kind string, src []byte, bodyFrom int) ([]byte, []int) {
	lines := strings.SplitAfter(string(src), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out bytes.Buffer
	var lineMap []int
	addWrapper := func(s string) {
		out.WriteString(s)
		for range strings.Count(s, "\n") {
			lineMap = append(lineMap, 0)
		}
	}
	addLines := func(from, to int) { // 1-based, inclusive
		for i := from; i <= to && i <= len(lines); i++ {
			out.WriteString(lines[i-1])
			lineMap = append(lineMap, i)
		}
	}
	switch kind {
	case "module":
		return src, nil
	case "body":
		addWrapper(manualPrologue + manualEntry)
		addLines(1, len(lines))
	case "mixed":
		addLines(1, bodyFrom-1)
		addWrapper("\n" + manualEntry)
		addLines(bodyFrom, len(lines))
	}
	if b := out.Bytes(); len(b) > 0 && b[len(b)-1] != '\n' {
		out.WriteByte('\n')
	}
	addWrapper(manualEpilogue)
	return out.Bytes(), lineMap
}

// describeManualError formats a parse error with positions mapped back to
// the example file.
func describeManualError(err error, path string, lineMap []int) string {
	var list DiagnosticList
	if !errors.As(err, &list) {
		return err.Error()
	}
	var b strings.Builder
	for _, d := range list {
		line := d.Pos.Line
		where := fmt.Sprintf("%s:%d:%d", path, line, d.Pos.Col)
		if lineMap != nil {
			switch {
			case line >= 1 && line <= len(lineMap) && lineMap[line-1] > 0:
				where = fmt.Sprintf("%s:%d:%d", path, lineMap[line-1], d.Pos.Col)
			default:
				where = fmt.Sprintf("%s:(wrapper line %d):%d", path, line, d.Pos.Col)
			}
		}
		fmt.Fprintf(&b, "%s: %s: %s\n", where, d.Severity, d.Msg)
	}
	return b.String()
}

func TestManualExamples(t *testing.T) {
	rows := readManualManifest(t)
	var tested, failed, formatFailed, skipOther, skipIncomplete, manualErrors, garbled, manualErrorsParsed int
	var parsedManualErrors []string
	for _, r := range rows {
		switch {
		case r.kind == "other":
			skipOther++
			continue
		case !r.complete:
			skipIncomplete++
			continue
		case r.expect == "manual-error":
			manualErrors++
			// Not a failure either way, but an invalid example that parses
			// may point at a parser that is too lenient (or a wrong mark).
			src, err := os.ReadFile(filepath.Join(manualDir, r.file))
			if err != nil {
				t.Error(err)
				continue
			}
			wrapped, _ := wrapManualExample(r.kind, src, r.bodyFrom)
			if _, err := Parse(r.file, wrapped, nil); err == nil {
				manualErrorsParsed++
				parsedManualErrors = append(parsedManualErrors, r.file+" ("+r.note+")")
			}
			continue
		case r.expect == "garbled":
			garbled++
			continue
		case r.expect != "parse":
			t.Errorf("%s: unknown expect value %q", r.file, r.expect)
			continue
		}
		tested++
		r := r
		ok := t.Run(r.file, func(t *testing.T) {
			path := filepath.Join(manualDir, r.file)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if r.kind != "module" && r.kind != "body" && r.kind != "mixed" {
				t.Fatalf("unknown kind %q", r.kind)
			}
			wrapped, lineMap := wrapManualExample(r.kind, src, r.bodyFrom)
			m, err := Parse(path, wrapped, nil)
			if err != nil {
				t.Fatalf("does not parse (kind %s):\n%s", r.kind, describeManualError(err, path, lineMap))
			}
			out := Format(m)
			if out == nil {
				return // printer not written yet
			}
			if _, err := Parse(path+" (formatted)", out, nil); err != nil {
				formatFailed++
				t.Fatalf("formatted output does not parse:\n%s\nformatted output:\n%s", describeManualError(err, "(formatted)", nil), out)
			}
		})
		if !ok {
			failed++
		}
	}
	t.Logf("manual examples: %d rows; %d tested (%d failed, %d of them after formatting); skipped: %d not PTX, %d incomplete, %d manual errors (%d of which parse anyway), %d garbled by text extraction",
		len(rows), tested, failed, formatFailed, skipOther, skipIncomplete, manualErrors, manualErrorsParsed, garbled)
	for _, f := range parsedManualErrors {
		t.Logf("manual-error example parses anyway: %s", f)
	}
}
