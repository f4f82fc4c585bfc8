package check

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/ptxvm/ptxvm/ptx"
)

// TestSharedMemosOrder: the memos shared by every checker of the process
// (gate's for each version and target, the choices' specs) give each
// module the diagnostics it gets alone: the modules of testdata/constructs
// and testdata/errors, for three targets, checked one after another and
// then at once in the reverse order, report the same.
func TestSharedMemosOrder(t *testing.T) {
	var mods []*ptx.Module
	for _, dir := range []string{"../../testdata/constructs", "../../testdata/errors"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.ptx"))
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if m, _ := ptx.Parse(p, src, &ptx.ParseOptions{DiscardComments: true}); m != nil {
				mods = append(mods, m)
			}
		}
	}
	archs := []string{"", "sm_50", "sm_90a"}
	report := func(i int) string {
		return fmt.Sprint(Check(mods[i/len(archs)], Options{Arch: archs[i%len(archs)]}))
	}
	n := len(mods) * len(archs)
	first := make([]string, n)
	for i := range n {
		first[i] = report(i)
	}
	again := make([]string, n)
	var wg sync.WaitGroup
	for i := n - 1; i >= 0; i-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			again[i] = report(i)
		}()
	}
	wg.Wait()
	for i := range n {
		if first[i] != again[i] {
			t.Errorf("%s, arch %q: alone\n%s\nthen\n%s", mods[i/len(archs)].File, archs[i%len(archs)], first[i], again[i])
		}
	}
}
