package exec

import (
	"context"
	"os"
	"strconv"
	"testing"
)

func BenchmarkZZBatchCopy(b *testing.B) {
	src, _ := os.ReadFile("../../testdata/bench/ptx/copy.ptx")
	t := &testing.T{}
	p, g := load(t, string(src))
	k := p.Kernels["copy_u32"]
	n := 1 << 15
	if v := os.Getenv("ZZN"); v != "" {
		n = envInt("ZZN", n)
	}
	in, _ := g.Alloc(uint64(4*n), 256)
	out, _ := g.Alloc(uint64(4*n), 256)
	cfg := LaunchConfig{Grid: [3]int{n / 256, 1, 1}, Block: [3]int{256, 1, 1}, Params: params(k, in, out, uint64(n)), Workers: envInt("ZZW", 1)}
	b.ResetTimer()
	for range b.N {
		p.Launch(context.Background(), "copy_u32", cfg)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n/32), "ns/warp")
}

func envInt(k string, d int) int {
	if v := os.Getenv(k); v != "" {
		n, _ := strconv.Atoi(v)
		return n
	}
	return d
}

func BenchmarkZZBatchSaxpy(b *testing.B) {
	src, _ := os.ReadFile("../../testdata/bench/ptx/saxpy.ptx")
	t := &testing.T{}
	p, g := load(t, string(src))
	k := p.Kernels["saxpy"]
	n := envInt("ZZN", 1<<15)
	x, _ := g.Alloc(uint64(4*n), 256)
	y, _ := g.Alloc(uint64(4*n), 256)
	cfg := LaunchConfig{Grid: [3]int{n / 256, 1, 1}, Block: [3]int{256, 1, 1}, Params: params(k, uint64(n), 0x3f800000, x, y), Workers: envInt("ZZW", 1)}
	b.ResetTimer()
	for range b.N {
		p.Launch(context.Background(), "saxpy", cfg)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n/32), "ns/warp")
}

func BenchmarkZZK2(b *testing.B) {
	src, _ := os.ReadFile("/tmp/fs/k2/madd.ptx")
	t := &testing.T{}
	p, g := load(t, string(src))
	kn := os.Getenv("ZZK")
	k := p.Kernels[kn]
	n := envInt("ZZN", 1<<22)
	a, _ := g.Alloc(uint64(4*n), 256)
	bb, _ := g.Alloc(uint64(4*n), 256)
	c, _ := g.Alloc(uint64(4*n), 256)
	var cfg LaunchConfig
	switch kn {
	case "madd":
		w := 2048
		bx, by := envInt("ZZBX", 16), envInt("ZZBY", 16)
		cfg = LaunchConfig{Grid: [3]int{w / bx, n / w / by, 1}, Block: [3]int{bx, by, 1}, Params: params(k, a, bb, c, uint64(w), uint64(n/w))}
	case "vadd":
		cfg = LaunchConfig{Grid: [3]int{n / 256, 1, 1}, Block: [3]int{256, 1, 1}, Params: params(k, a, bb, c, uint64(n))}
	case "vcopy4":
		cfg = LaunchConfig{Grid: [3]int{n / 4 / 256, 1, 1}, Block: [3]int{256, 1, 1}, Params: params(k, a, c, uint64(n/4))}
	}
	cfg.Workers = 1
	var st LaunchStats
	cfg.Stats = &st
	b.ResetTimer()
	for range b.N {
		if err := p.Launch(context.Background(), kn, cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms")
	b.ReportMetric(float64(st.Batched), "batched")
}

func BenchmarkZZBr(b *testing.B) {
	src, _ := os.ReadFile("/tmp/fs/k2/br.ptx")
	t := &testing.T{}
	p, g := load(t, string(src))
	kn := os.Getenv("ZZK")
	k := p.Kernels[kn]
	n := envInt("ZZN", 1<<22)
	a, _ := g.Alloc(uint64(4*n+4), 256)
	bb, _ := g.Alloc(uint64(4*n+4), 256)
	c, _ := g.Alloc(uint64(4*n+4), 256)
	for _, buf := range []uint64{a, bb, c} {
		d, _ := g.Bytes(buf, uint64(4*n))
		for i := range d {
			d[i] = byte(i*7919 + i>>5)
		}
	}
	cfg := LaunchConfig{Grid: [3]int{n / 256, 1, 1}, Block: [3]int{256, 1, 1}, Params: params(k, a, bb, c, uint64(n))}
	cfg.Workers = 1
	var st LaunchStats
	cfg.Stats = &st
	b.ResetTimer()
	for range b.N {
		if err := p.Launch(context.Background(), kn, cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms")
	b.ReportMetric(float64(st.Batched), "batched")
}

func BenchmarkZZGemv(b *testing.B) {
	src, _ := os.ReadFile("testdata/batch/" + os.Getenv("ZZK") + ".ptx")
	t := &testing.T{}
	p, g := load(t, string(src))
	kn := os.Getenv("ZZK")
	k := p.Kernels[kn]
	n, m := 64, 65536
	A, _ := g.Alloc(uint64(4*n*m), 256)
	x, _ := g.Alloc(uint64(4*n), 256)
	y, _ := g.Alloc(uint64(4*m), 256)
	cfg := LaunchConfig{Grid: [3]int{m / 256, 1, 1}, Block: [3]int{256, 1, 1}, Params: params(k, A, x, y, uint64(n), uint64(m)), Workers: 1}
	var st LaunchStats
	cfg.Stats = &st
	b.ResetTimer()
	for range b.N {
		if err := p.Launch(context.Background(), kn, cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms")
	b.ReportMetric(float64(st.Batched), "batched")
	b.ReportMetric(float64(4*n*m)/(float64(b.Elapsed().Nanoseconds())/float64(b.N)), "GB/s")
}

func BenchmarkZZVec4(b *testing.B) {
	src, _ := os.ReadFile("/tmp/probe_repo/testdata/bench/ptx/wreduce.ptx")
	t := &testing.T{}
	p, g := load(t, string(src))
	k := p.Kernels["vec4"]
	n := envInt("ZZN", 1<<20)
	x, _ := g.Alloc(uint64(4*n), 256)
	y, _ := g.Alloc(uint64(4*n), 256)
	cfg := LaunchConfig{Grid: [3]int{n / 4 / 256, 1, 1}, Block: [3]int{256, 1, 1}, Params: params(k, x, y, uint64(n)), Workers: 1}
	b.ResetTimer()
	for range b.N {
		p.Launch(context.Background(), "vec4", cfg)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n/4/32), "ns/warp")
}
