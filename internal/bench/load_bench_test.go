package bench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ptxvm/ptxvm/internal/check"
	"github.com/ptxvm/ptxvm/internal/exec"
	"github.com/ptxvm/ptxvm/internal/loadgc"
	"github.com/ptxvm/ptxvm/internal/mem"
	"github.com/ptxvm/ptxvm/ptx"
)

// BenchmarkLoadPhases times the three phases of a load (parse, check,
// exec.Load) apart, on a 1 KB, a 3 KB, a 29 KB and the 690 KB module, each
// with ms per 10 KB of PTX beside ns/op (go test -run X -bench LoadPhases
// ./internal/bench). Each phase runs on the previous one's result, made
// once; the loads run at loadgc's setting, as the command's do.
func BenchmarkLoadPhases(b *testing.B) {
	for _, path := range []string{
		"../../testdata/bench/ptx/copy.ptx",
		"../../testdata/bench/ptx/hash.ptx",
		"../../testdata/bench/ptx/sgemmreg.ptx",
		"../../testdata/clang/ptx/large.sm_90a.ptx83.O3.ptx",
	} {
		src, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		name := filepath.Base(path)
		per10KB := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed())/float64(b.N)/1e6*10240/float64(len(src)), "ms/10KB")
		}
		b.Run(name+"/parse", func(b *testing.B) {
			b.ReportAllocs()
			defer loadgc.Begin()()
			for b.Loop() {
				if _, err := ptx.Parse(path, src, &ptx.ParseOptions{DiscardComments: true}); err != nil {
					b.Fatal(err)
				}
			}
			per10KB(b)
		})
		m, err := ptx.Parse(path, src, &ptx.ParseOptions{DiscardComments: true})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/check", func(b *testing.B) {
			b.ReportAllocs()
			defer loadgc.Begin()()
			for b.Loop() {
				if mod, diags := check.Build(m, check.Options{}); mod == nil {
					b.Fatal(diags)
				}
			}
			per10KB(b)
		})
		mod, diags := check.Build(m, check.Options{})
		if mod == nil {
			b.Fatal(diags)
		}
		b.Run(name+"/lower", func(b *testing.B) {
			b.ReportAllocs()
			defer loadgc.Begin()()
			for b.Loop() {
				if _, err := exec.Load(mod, mem.NewGlobal(0)); err != nil {
					b.Fatal(err)
				}
			}
			per10KB(b)
		})
	}
}
