package ptx

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// errorMarker is the `// ERROR "substring"` convention of testdata/errors
// (see its README): the line must get a diagnostic containing the substring.
var errorMarker = regexp.MustCompile(`// ERROR "([^"]*)"`)

// TestErrorCorpus parses every malformed module of testdata/errors and checks
// that each marked line gets its diagnostic and no other line gets one.
func TestErrorCorpus(t *testing.T) {
	files, _ := filepath.Glob("../testdata/errors/*.ptx")
	if len(files) == 0 {
		t.Skip("no error corpus yet")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := map[int]string{}
			for i, line := range strings.Split(string(src), "\n") {
				if m := errorMarker.FindStringSubmatch(line); m != nil {
					want[i+1] = m[1]
				}
			}
			allowExtra := strings.Contains(string(src), "// ALLOW-EXTRA")
			_, err = ParseFile(file, &ParseOptions{IncludePaths: []string{"../testdata/errors"}})
			if err == nil {
				t.Fatalf("parsed without error; want errors on lines %v", keys(want))
			}
			diags, ok := err.(DiagnosticList)
			if !ok {
				t.Fatalf("error is %T, not a DiagnosticList: %v", err, err)
			}
			got := map[int][]string{}
			for _, d := range diags {
				if d.Pos.File == file {
					got[d.Pos.Line] = append(got[d.Pos.Line], d.Msg)
				}
			}
			for line, sub := range want {
				found := false
				for _, msg := range got[line] {
					found = found || strings.Contains(msg, sub)
				}
				if !found {
					t.Errorf("line %d: want a diagnostic containing %q, got %q", line, sub, got[line])
				}
			}
			if !allowExtra {
				for line, msgs := range got {
					if _, ok := want[line]; !ok {
						t.Errorf("line %d: unexpected diagnostics %q", line, msgs)
					}
				}
			}
		})
	}
}

func keys(m map[int]string) []int {
	var k []int
	for i := range m {
		k = append(k, i)
	}
	return k
}
