package check

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptxvm/ptxvm/ptx"
)

// FuzzCheck: the checker never panics or hangs on any module the parser
// accepts (or partially builds). Crashers are kept in testdata/fuzz/FuzzCheck.
func FuzzCheck(f *testing.F) {
	for _, dir := range []string{"../../testdata/constructs", "../../testdata/errors"} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(path) == ".ptx" {
				if src, err := os.ReadFile(path); err == nil && len(src) < 16<<10 {
					f.Add(src)
				}
			}
			return nil
		})
	}
	noFiles := &ptx.ParseOptions{ReadFile: func(string) ([]byte, error) { return nil, fs.ErrNotExist }, DiscardComments: true}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, _ := ptx.Parse("fuzz.ptx", src, noFiles)
		if m == nil {
			return
		}
		for _, arch := range []string{"", "sm_90a"} {
			for _, d := range Check(m, Options{Arch: arch}) {
				if d.Msg == "" {
					t.Fatalf("empty diagnostic at %v", d.Pos)
				}
			}
		}
	})
}
