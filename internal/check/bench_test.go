package check

import (
	"os"
	"testing"

	"github.com/ptxvm/ptxvm/ptx"
)

// BenchmarkCheck: checking throughput (source MB/s) on the largest module of
// the compiler-generated corpus (parsing not included).
func BenchmarkCheck(b *testing.B) {
	const file = "../../testdata/clang/ptx/large.sm_80.ptx70.O3.gline.ptx"
	src, err := os.ReadFile(file)
	if err != nil {
		b.Skip(err)
	}
	m, err := ptx.Parse(file, src, &ptx.ParseOptions{DiscardComments: true})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if ds := Check(m, Options{}); ds.HasErrors() {
			b.Fatal(ds)
		}
	}
}
