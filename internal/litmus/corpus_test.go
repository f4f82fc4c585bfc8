package litmus

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLitmusCorpus runs the independent corpus in testdata/litmus (written
// by another engineer from the manual) and compares Observation verdicts
// with its index, expected.tsv.
func TestLitmusCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "litmus")
	f, err := os.Open(filepath.Join(dir, "expected.tsv"))
	if err != nil {
		t.Skip("no corpus:", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			first = false
			if strings.HasPrefix(line, "path") {
				continue
			}
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 2 || strings.HasPrefix(line, "#") {
			continue
		}
		rel, want := cols[0], cols[1]
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil {
				t.Fatal(err)
			}
			tt, err := Parse(rel, string(src))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(tt, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Observation(); got != want {
				var b strings.Builder
				res.Write(&b, false)
				t.Errorf("Observation %s, want %s (%s)\n%s", got, want, strings.Join(cols[2:], " "), b.String())
			}
		})
	}
}

// TestLitmusCorpusAmbiguous runs the corpus's ambiguous tests under both
// readings: the default must give reading A's verdict, and the flags for
// the other reading reading B's.
func TestLitmusCorpusAmbiguous(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "litmus")
	data, err := os.ReadFile(filepath.Join(dir, "ambiguous.tsv"))
	if err != nil {
		t.Skip("no corpus:", err)
	}
	alt := ModelOptions{SCFenceNoPatterns: true, RedNoObservation: true, NoThinAirOff: true}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		cols := strings.Split(line, "\t")
		if i == 0 || len(cols) < 5 {
			continue
		}
		rel := cols[0]
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil {
				t.Fatal(err)
			}
			tt, err := Parse(rel, string(src))
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				m    ModelOptions
				want string
			}{{ModelOptions{}, cols[2]}, {alt, cols[4]}} {
				res, err := Run(tt, Options{Model: c.m})
				if err != nil {
					t.Fatal(err)
				}
				if got := res.Observation(); got != c.want {
					t.Errorf("with %+v: Observation %s, want %s", c.m, got, c.want)
				}
			}
		})
	}
}
