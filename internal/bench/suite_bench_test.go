package bench

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// BenchmarkSuite times every benchmark of the suite at its full size on
// one worker (go test -bench Suite ./internal/bench; -bench Suite/saxpy for
// one). Each iteration is one run on refilled buffers (refilling is not
// timed); outputs are checked before and after. Besides ns/op it reports
// thread-instructions/s, GB/s for memory-bound kernels, and x-native: the
// time over the committed native.tsv time (this machine's, when it was
// regenerated here; `ptxvm bench` times native code in the same run).
func BenchmarkSuite(b *testing.B) {
	s, err := Load("../../testdata/bench")
	if err != nil {
		b.Fatal(err)
	}
	native, _ := ReadNativeTSV(s.Dir) // optional
	ctx := context.Background()
	for _, bm := range s.Benchmarks {
		b.Run(bm.Name, func(b *testing.B) {
			in, err := Prepare(s, bm, false)
			if err != nil {
				b.Fatal(err)
			}
			check := func() {
				in.Reset()
				if _, err := in.Run(ctx, 1); err != nil {
					b.Fatal(err)
				}
				if err := in.Verify(); err != nil {
					b.Fatal(err)
				}
			}
			check()
			var wall time.Duration
			var threadInsts uint64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				in.Reset()
				b.StartTimer()
				c, err := in.Run(ctx, 1)
				if err != nil {
					b.Fatal(err)
				}
				wall += c.Wall
				threadInsts += c.ThreadInstructions
			}
			b.StopTimer()
			check()
			launches := float64(b.N * in.Size.Repeat)
			b.ReportMetric(float64(wall.Nanoseconds())/launches, "ns/launch")
			b.ReportMetric(float64(threadInsts)/wall.Seconds()/1e9, "Gthreadinst/s")
			if in.Size.Bytes > 0 {
				b.ReportMetric(in.Size.Bytes*launches/wall.Seconds()/1e9, "GB/s")
			}
			if native != nil && native.Labels[bm.Name] == in.Size.Label && native.PerLaunch[bm.Name] > 0 {
				b.ReportMetric(float64(wall)/launches/float64(native.PerLaunch[bm.Name]), "x-native")
			}
		})
	}
}

// BenchmarkLoadLarge times parse + check + exec.Load of the large module
// the compile goal is judged on (go test -bench LoadLarge
// ./internal/bench); it reports ms per 10 KB of PTX beside ns/op.
func BenchmarkLoadLarge(b *testing.B) {
	const path = "../../testdata/clang/ptx/large.sm_90a.ptx83.O3.ptx"
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := loadModule(path, src, mem.NewGlobal(0)); err != nil {
			b.Fatal(err)
		}
	}
	perOp := float64(b.Elapsed()) / float64(b.N)
	b.ReportMetric(perOp/1e6*10*1024/float64(len(src)), "ms/10KB")
}
