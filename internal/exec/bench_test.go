package exec

import (
	"context"
	"encoding/binary"
	"testing"
)

// BenchmarkALU: a converged integer loop (hash mixing), reported as
// thread-instructions per second.
func BenchmarkALU(b *testing.B) { benchALU(b, 1) }

func benchALU(b *testing.B, workers int) {
	p, g := load(&testing.T{}, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	mov.u32 %r3, 0x9e3779b9;
LOOP:
	xor.b32 %r1, %r1, %r3;
	mul.lo.u32 %r1, %r1, 16777619;
	shr.u32 %r4, %r1, 13;
	xor.b32 %r1, %r1, %r4;
	add.u32 %r2, %r2, 1;
	setp.lt.u32 %p, %r2, 1000;
	@%p bra LOOP;
	ld.param.u64 %rd1, [out];
	st.global.u32 [%rd1], %r1;
	ret;
}
`)
	out, _ := g.Alloc(4, 0)
	cfg := LaunchConfig{Grid: [3]int{16, 1, 1}, Block: [3]int{256, 1, 1}, Params: params(p.Kernels["k"], out), Workers: workers}
	const perThread = 1000*7 + 6
	b.ResetTimer()
	for b.Loop() {
		if err := p.Launch(context.Background(), "k", cfg); err != nil {
			b.Fatal(err)
		}
	}
	threads := 16 * 256
	b.ReportMetric(float64(threads*perThread)*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gthreadinst/s")
}

// BenchmarkFloat: a converged f32 loop (mul, add, sub, div per step),
// reported as thread-instructions per second.
func BenchmarkFloat(b *testing.B) {
	p, g := load(&testing.T{}, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p;
	.reg .b32 %r<4>;
	.reg .f32 %f<6>;
	.reg .b64 %rd<2>;
	mov.u32 %r1, %tid.x;
	cvt.rn.f32.u32 %f1, %r1;
	mov.f32 %f2, 0f3F7FF000;
	mov.f32 %f3, 0f3C23D70A;
	mov.u32 %r2, 0;
LOOP:
	mul.rn.f32 %f1, %f1, %f2;
	add.rn.f32 %f1, %f1, %f3;
	sub.rn.f32 %f4, %f1, %f3;
	div.rn.f32 %f5, %f4, %f2;
	add.u32 %r2, %r2, 1;
	setp.lt.u32 %p, %r2, 1000;
	@%p bra LOOP;
	ld.param.u64 %rd1, [out];
	st.global.f32 [%rd1], %f5;
	ret;
}
`)
	out, _ := g.Alloc(4, 0)
	cfg := LaunchConfig{Grid: [3]int{16, 1, 1}, Block: [3]int{256, 1, 1}, Params: params(p.Kernels["k"], out), Workers: 1}
	const perThread = 1000*7 + 8
	b.ResetTimer()
	for b.Loop() {
		if err := p.Launch(context.Background(), "k", cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(16*256*perThread)*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gthreadinst/s")
}

// BenchmarkTrivialLaunch: the cost of launching an empty kernel (one CTA
// of 32 threads).
func BenchmarkTrivialLaunch(b *testing.B) {
	p, _ := load(&testing.T{}, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k()
{
	ret;
}
`)
	cfg := LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Workers: 1}
	for b.Loop() {
		if err := p.Launch(context.Background(), "k", cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkALUWorkers2: BenchmarkALU's kernel on two workers (compare the
// rate with BenchmarkALU for scaling on independent CTAs).
func BenchmarkALUWorkers2(b *testing.B) {
	benchALU(b, 2)
}

// BenchmarkSaxpy: y = a*x + y over 1M floats (memory-bound), reported in
// GB/s of global traffic (12 bytes per element).
func BenchmarkSaxpy(b *testing.B) {
	p, g := load(&testing.T{}, `.version 7.0
.target sm_70
.address_size 64
.visible .entry saxpy(.param .u64 x, .param .u64 y, .param .f32 a)
{
	.reg .b32 %r<5>;
	.reg .f32 %f<5>;
	.reg .b64 %rd<8>;
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [y];
	ld.param.f32 %f1, [a];
	mul.wide.s32 %rd3, %r4, 4;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	ld.global.f32 %f2, [%rd4];
	ld.global.f32 %f3, [%rd5];
	fma.rn.f32 %f4, %f1, %f2, %f3;
	st.global.f32 [%rd5], %f4;
	ret;
}
`)
	const n = 1 << 20
	x, _ := g.Alloc(4*n, 0)
	y, _ := g.Alloc(4*n, 0)
	k := p.Kernels["saxpy"]
	offs, size := k.ParamLayout()
	buf := make([]byte, size)
	binary.LittleEndian.PutUint64(buf[offs[0]:], x)
	binary.LittleEndian.PutUint64(buf[offs[1]:], y)
	binary.LittleEndian.PutUint32(buf[offs[2]:], 0x40000000)
	cfg := LaunchConfig{Grid: [3]int{n / 256, 1, 1}, Block: [3]int{256, 1, 1}, Params: buf, Workers: 1}
	for b.Loop() {
		if err := p.Launch(context.Background(), "saxpy", cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(12*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}
