package check

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/ptx"
)

// TestGatingTable runs the feature-gating cases of testdata/gating/cases.tsv.
// The cases were written from the "PTX ISA Notes" and "Target ISA Notes" of
// the PTX ISA manual (ptx-isa-9.0.txt, 9.2 additions from
// ptx-isa-9.2-chapters-1-8.txt), independently of internal/isa/spec, to
// check that table's transcription.
//
// Columns (tab-separated; '#' starts a comment line):
//
//	section  feature  body  min_version  min_target  below_version  below_target  expect_substring
//
// The body goes inside `.visible .entry k() { ... }`; `\n` and `\t` in it
// stand for a newline and a tab. A body of the form
// `MODULE||ENTRY_DIRECTIVES||BODY` also places MODULE at module scope
// (before the kernel) and ENTRY_DIRECTIVES between the kernel's parameter
// list and its body. The module header is `.version V`, `.target T` and,
// for V >= 2.3 (where the directive exists), `.address_size 64`.
//
// At (min_version, min_target) the module must check without errors. At
// (below_version, min_target), unless below_version is `-`, an error must
// contain expect_substring; at (min_version, below_target), unless
// below_target is `-`, an error must contain "requires .target". Either
// error must also name the feature's opcode (the feature's first word up to
// its first '.', or the whole word for a directive or special register),
// in its message or on the source line it points at: ptxas's messages for
// a qualifier name the qualifier only.
//
// Cases listed in testdata/gating/known-failures.tsv (section and feature
// columns) are believed correct but fail against the current table; they
// are skipped with the recorded reason, and the test fails when one of
// them passes, so the list stays true.
func TestGatingTable(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "gating")
	known := readKnownFailures(t, filepath.Join(dir, "known-failures.tsv"))
	cases := readGatingCases(t, filepath.Join(dir, "cases.tsv"))
	if len(cases) == 0 {
		t.Fatal("no cases in cases.tsv")
	}
	seen := map[string]bool{}
	for _, c := range cases {
		name := c.section + " " + c.feature
		if seen[name] {
			t.Errorf("line %d: duplicate case %q", c.line, name)
		}
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			why, isKnown := known[c.section+"\t"+c.feature]
			if !isKnown {
				c.run(t)
				return
			}
			// A known failure must still fail.
			probe := &failureRecorder{}
			c.run(probe)
			if !probe.failed {
				t.Errorf("line %d: listed in known-failures.tsv but passes now: remove it", c.line)
				return
			}
			t.Skip("known failure: " + why)
		})
	}
}

type gatingCase struct {
	line                     int
	section, feature, body   string
	minVer, minTgt           string
	belowVer, belowTgt, want string
}

// reporter is the part of *testing.T that run and expect use, so that a
// known failure can be run without failing the test.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// failureRecorder is a reporter that only notes whether anything failed.
type failureRecorder struct{ failed bool }

func (r *failureRecorder) Helper()               {}
func (r *failureRecorder) Errorf(string, ...any) { r.failed = true }

func (c gatingCase) run(t reporter) {
	t.Helper()
	src := gatingModule(c.minVer, c.minTgt, c.body)
	if errs := gatingErrors(t, src); len(errs) > 0 {
		t.Errorf("line %d: at the minimum (.version %s, .target %s) want no error, got:\n\t%s\nmodule:\n%s",
			c.line, c.minVer, c.minTgt, strings.Join(errs, "\n\t"), src)
	}
	op := featureOpcode(c.feature)
	if c.belowVer != "-" {
		src := gatingModule(c.belowVer, c.minTgt, c.body)
		c.expect(t, src, ".version "+c.belowVer+", .target "+c.minTgt, c.want, op)
	}
	if c.belowTgt != "-" {
		src := gatingModule(c.minVer, c.belowTgt, c.body)
		c.expect(t, src, ".version "+c.minVer+", .target "+c.belowTgt, "requires .target", op)
	}
}

// expect reports unless some error of src contains want and names op,
// in its message or on the source line it points at.
func (c gatingCase) expect(t reporter, src, where, want, op string) {
	t.Helper()
	errs := gatingDiags(t, src)
	var matched []string
	for _, e := range errs {
		if strings.Contains(e.msg, want) {
			if strings.Contains(e.msg, op) || strings.Contains(e.line, op) {
				return
			}
			matched = append(matched, e.msg+"  (at: "+strings.TrimSpace(e.line)+")")
		}
	}
	switch {
	case len(errs) == 0:
		t.Errorf("line %d: at (%s) want an error containing %q, got none", c.line, where, want)
	case len(matched) > 0:
		t.Errorf("line %d: at (%s) the error does not name %q:\n\t%s", c.line, where, op, strings.Join(matched, "\n\t"))
	default:
		t.Errorf("line %d: at (%s) want an error containing %q, got:\n\t%s", c.line, where, want, strings.Join(msgs(errs), "\n\t"))
	}
}

// featureOpcode is the word an error about feature should name.
func featureOpcode(feature string) string {
	w := strings.Fields(feature)[0]
	if strings.HasPrefix(w, ".") {
		return w
	}
	if i := strings.IndexByte(w, '.'); i > 0 {
		return w[:i]
	}
	return w
}

func gatingModule(version, target, body string) string {
	body = strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(body)
	module, directives := "", ""
	if parts := strings.Split(body, "||"); len(parts) == 3 {
		module, directives, body = parts[0], parts[1], parts[2]
	}
	var b strings.Builder
	b.WriteString(".version " + version + "\n.target " + target + "\n")
	if v, err := strconv.ParseFloat(version, 64); err == nil && v >= 2.3 {
		b.WriteString(".address_size 64\n")
	}
	if module != "" {
		b.WriteString(module + "\n")
	}
	b.WriteString(".visible .entry k()")
	if directives != "" {
		b.WriteString(" " + directives)
	}
	b.WriteString("\n{\n" + body + "\n}\n")
	return b.String()
}

type gatingDiag struct{ msg, line string }

// gatingDiags returns the errors of src, each with the source line it
// points at.
func gatingDiags(t reporter, src string) []gatingDiag {
	t.Helper()
	m, err := ptx.Parse("gating.ptx", []byte(src), nil)
	if err != nil {
		return []gatingDiag{{msg: "parse: " + err.Error()}}
	}
	lines := strings.Split(src, "\n")
	var out []gatingDiag
	for _, d := range Check(m, Options{}) {
		if d.Severity != ptx.SeverityError {
			continue
		}
		g := gatingDiag{msg: d.Msg}
		if d.Pos.Line >= 1 && d.Pos.Line <= len(lines) {
			g.line = lines[d.Pos.Line-1]
		}
		out = append(out, g)
	}
	return out
}

func gatingErrors(t reporter, src string) []string {
	t.Helper()
	return msgs(gatingDiags(t, src))
}

func msgs(ds []gatingDiag) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.msg)
	}
	return out
}

func readGatingCases(t *testing.T, path string) []gatingCase {
	t.Helper()
	var cases []gatingCase
	for _, r := range readTSV(t, path) {
		n, f := r.line, r.fields
		if len(f) != 8 {
			t.Errorf("%s:%d: %d columns, want 8", path, n, len(f))
			continue
		}
		c := gatingCase{line: n, section: f[0], feature: f[1], body: f[2],
			minVer: f[3], minTgt: f[4], belowVer: f[5], belowTgt: f[6], want: f[7]}
		if c.belowVer != "-" && c.want == "-" {
			t.Errorf("%s:%d: below_version without expect_substring", path, n)
			continue
		}
		cases = append(cases, c)
	}
	return cases
}

// readKnownFailures maps "section\tfeature" to the recorded reason.
func readKnownFailures(t *testing.T, path string) map[string]string {
	t.Helper()
	known := map[string]string{}
	if _, err := os.Stat(path); err != nil {
		return known
	}
	for _, r := range readTSV(t, path) {
		n, f := r.line, r.fields
		if len(f) != 4 {
			t.Errorf("%s:%d: %d columns, want 4", path, n, len(f))
			continue
		}
		known[f[0]+"\t"+f[1]] = "checker says " + f[2] + "; manual: " + f[3]
	}
	return known
}

type tsvRow struct {
	line   int
	fields []string
}

// readTSV returns the tab-separated fields of the non-blank, non-comment
// lines of path, in order.
func readTSV(t *testing.T, path string) []tsvRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []tsvRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rows = append(rows, tsvRow{n, strings.Split(line, "\t")})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}
