package check

import (
	"os"
	"testing"

	"github.com/ptxvm/ptxvm/ptx"
)

// BenchmarkCheckCold times check.Build of a small module as a fresh
// process's first load pays it: every process-wide cache of the checker
// is emptied before each check.
func BenchmarkCheckCold(b *testing.B) {
	for _, name := range []string{"copy", "hash", "mandelbrot", "sgemmreg"} {
		file := "../../testdata/bench/ptx/" + name + ".ptx"
		src, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		m, err := ptx.Parse(file, src, &ptx.ParseOptions{DiscardComments: true})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				resetSharedCaches()
				if _, ds := Build(m, Options{}); ds.HasErrors() {
					b.Fatal(ds)
				}
			}
		})
	}
}
