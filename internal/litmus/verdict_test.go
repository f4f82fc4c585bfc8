package litmus

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	expectRE      = regexp.MustCompile(`expect:\s*(Never|Always|Sometimes)`)
	expectTotalRE = regexp.MustCompile(`expect-total:\s*(Never|Always|Sometimes)`)
	expectMaxRE   = regexp.MustCompile(`expect-maximal:\s*(Never|Always|Sometimes)`)
)

// TestLitmusVerdicts runs every test under testdata/ that states the verdict
// the manual (or reasoning from its axioms, in the test's comment) gives.
// "expect-total: V" gives the verdict under a total coherence order
// (ModelOptions.CoTotal) where it differs from the partial one of 8.9.6.
func TestLitmusVerdicts(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.litmus")
	more, _ := filepath.Glob("testdata/*.litmus")
	files = append(files, more...)
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := expectRE.FindStringSubmatch(string(src))
		if m == nil {
			continue
		}
		n++
		t.Run(strings.TrimSuffix(strings.TrimPrefix(f, "testdata/"), ".litmus"), func(t *testing.T) {
			tt, err := Parse(f, string(src))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(tt, Options{Explain: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Observation(); got != m[1] {
				var b strings.Builder
				res.Write(&b, false)
				for _, e := range res.Explanations {
					b.WriteString(e + "\n")
				}
				t.Errorf("%s: Observation %s, want %s\n%s", f, got, m[1], b.String())
			}
			if mt := expectTotalRE.FindStringSubmatch(string(src)); mt != nil {
				res, err := Run(tt, Options{Model: ModelOptions{CoTotal: true}})
				if err != nil {
					t.Fatal(err)
				}
				if got := res.Observation(); got != mt[1] {
					t.Errorf("%s with a total coherence order: Observation %s, want %s", f, got, mt[1])
				}
			}
			if mm := expectMaxRE.FindStringSubmatch(string(src)); mm != nil {
				res, err := Run(tt, Options{Model: ModelOptions{FinalAnyMaximal: true}})
				if err != nil {
					t.Fatal(err)
				}
				if got := res.Observation(); got != mm[1] {
					t.Errorf("%s with every coherence-maximal write final: Observation %s, want %s", f, got, mm[1])
				}
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d tests with an expected verdict", n)
	}
}
