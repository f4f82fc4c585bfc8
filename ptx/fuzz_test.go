package ptx

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// FuzzParse: no input may panic or hang the parser; an input that parses
// must print to a module that parses to an equal tree, and printing must be
// idempotent. Crashers found by `go test -fuzz FuzzParse` are kept in
// testdata/fuzz/FuzzParse and run as regression tests by plain `go test`.
func FuzzParse(f *testing.F) {
	seeds := corpusFiles(f)
	errs, _ := filepath.Glob("../testdata/errors/*.ptx")
	for _, file := range append(seeds, errs...) {
		src, err := os.ReadFile(file)
		if err == nil && len(src) <= 16<<10 {
			f.Add(src)
		}
	}
	f.Add(syntheticModule(2 << 10))
	noFiles := &ParseOptions{ReadFile: func(string) ([]byte, error) { return nil, fs.ErrNotExist }}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := Parse("fuzz.ptx", src, noFiles)
		if m == nil {
			t.Fatal("Parse returned no module")
		}
		if where := nilNode(m); where != "" {
			t.Fatalf("the tree holds a nil node at %s", where)
		}
		if err != nil {
			if _, ok := err.(DiagnosticList); !ok {
				t.Fatalf("error is %T, not a DiagnosticList", err)
			}
			return
		}
		out := Format(m)
		m2, err := Parse("fuzz.ptx", out, noFiles)
		if err != nil {
			t.Fatalf("printed module does not parse: %v\n--- printed:\n%s", err, out)
		}
		if d := DiffModules(m, m2); d != "" {
			t.Fatalf("round trip changed the tree: %s\n--- printed:\n%s", d, out)
		}
		if out2 := Format(m2); !bytes.Equal(out, out2) {
			t.Fatalf("fmt is not idempotent:\n%s", firstDiff(out, out2))
		}
	})
}

// nilNode returns where m holds a nil item or statement (a partial module
// must still be walkable), or "".
func nilNode(m *Module) string {
	var inBlock func(b *Block) string
	inBlock = func(b *Block) string {
		for i, s := range b.Stmts {
			switch s := s.(type) {
			case nil:
				return "statement " + strconv.Itoa(i)
			case *VarDecl:
				if s == nil {
					return "statement " + strconv.Itoa(i)
				}
			case *Block:
				if s == nil {
					return "block " + strconv.Itoa(i)
				}
				if w := inBlock(s); w != "" {
					return w
				}
			}
		}
		return ""
	}
	for i, it := range m.Items {
		switch it := it.(type) {
		case nil:
			return "item " + strconv.Itoa(i)
		case *VarDecl:
			if it == nil {
				return "item " + strconv.Itoa(i)
			}
		case *Function:
			if it == nil {
				return "item " + strconv.Itoa(i)
			}
			if it.Body != nil {
				if w := inBlock(it.Body); w != "" {
					return it.Name + ": " + w
				}
			}
		}
	}
	return ""
}
