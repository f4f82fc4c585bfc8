package ptx

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// corpusFiles lists every complete PTX module under testdata, except the
// malformed ones (testdata/errors) and the manual's snippets (testdata/manual,
// checked by TestManualExamples).
func corpusFiles(t testing.TB) []string {
	var files []string
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "errors", "manual", "include":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".ptx") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestCorpus: every module of the corpus parses without diagnostics, prints
// to a module that parses to an equal tree (round trip), and printing is
// idempotent.
func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	if len(files) == 0 {
		t.Fatal("no corpus files found under testdata")
	}
	for _, file := range files {
		t.Run(strings.TrimPrefix(file, "../testdata/"), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			checkRoundTrip(t, file, src, &ParseOptions{IncludePaths: []string{filepath.Dir(file)}})
		})
	}
}

// checkRoundTrip asserts parse(src) succeeds, parse(print(m)) == m and
// print is idempotent.
func checkRoundTrip(t *testing.T, name string, src []byte, opts *ParseOptions) {
	t.Helper()
	m, err := Parse(name, src, opts)
	if err != nil {
		t.Fatalf("parse: %v", firstLines(err.Error(), 10))
	}
	out := Format(m)
	m2, err := Parse(name, out, opts)
	if err != nil {
		t.Fatalf("re-parse of printed module: %v\n--- printed:\n%s", firstLines(err.Error(), 10), firstLines(string(out), 40))
	}
	if d := DiffModules(m, m2); d != "" {
		t.Fatalf("round trip changed the tree: %s", d)
	}
	if out2 := Format(m2); !bytes.Equal(out, out2) {
		t.Fatalf("fmt is not idempotent:\n%s", firstDiff(out, out2))
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}

// firstDiff shows the first differing line of a and b.
func firstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return "line " + strconv.Itoa(i+1) + ":\n- " + la[i] + "\n+ " + lb[i]
		}
	}
	return "lengths differ: " + strconv.Itoa(len(la)) + " vs " + strconv.Itoa(len(lb)) + " lines"
}
