package exec

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"
)

const uninitPTX = `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .v2 .b32 %v;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %ctaid.x;          // written before every read
	and.b32 %r6, %r1, 1;
	setp.eq.u32 %p1, %r6, 0;
	@%p1 mov.u32 %r2, 7;            // guarded: odd CTAs keep the zero
	@%p1 bra EVEN;
	mov.u32 %r3, 5;                 // one arm only
EVEN:
	add.u32 %r5, %r4, %r2;          // %r4: never written before here
	add.u32 %r5, %r5, %r3;
	mov.u32 %r4, 1000;              // written late: a reused frame holds it
	add.u32 %r7, %r4, %r1;
	ld.param.u64 %rd1, [out];
	mul.wide.u32 %rd2, %r1, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r5;
	ret;
}
`

// TestUninitRows: the rows a reused kernel frame clears are those some path
// reads before writing (guarded writes and one-armed writes do not count),
// plus vector registers; rows written first on every path are left.
func TestUninitRows(t *testing.T) {
	p, _ := load(t, uninitPTX)
	f := p.Kernels["k"]
	if f.clearAll {
		t.Fatal("the analysis gave up on a plain kernel")
	}
	var names []string
	for _, r := range f.IR.Regs {
		if r.Type != ".pred" && slices.Contains(f.clearRows, f.slot[r.ID]) {
			names = append(names, r.Name)
		}
	}
	slices.Sort(names)
	want := []string{"%r2", "%r3", "%r4", "%v"}
	if !slices.Equal(names, want) {
		t.Errorf("cleared rows %v, want %v", names, want)
	}
}

// TestReusedFrameReadsZero: one worker runs 16 CTAs of one warp each, so
// every CTA after the first reuses the frame of the one before; reads of
// registers not written yet still see 0. Thread results: %r4 (0) + %r2
// (7 in even CTAs) + %r3 (5 in odd CTAs).
func TestReusedFrameReadsZero(t *testing.T) {
	setFlag(t, &packEnabled, false) // (one CTA a warp: each reuses the frame of the one before)
	p, g := load(t, uninitPTX)
	const ctas = 16
	out, _ := g.Alloc(4*ctas, 0)
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{ctas, 1, 1}, Block: [3]int{1, 1, 1},
		Params: params(p.Kernels["k"], out), Workers: 1}); err != nil {
		t.Fatal(err)
	}
	b, _ := g.Bytes(out, 4*ctas)
	for c := 0; c < ctas; c++ {
		want := uint32(5)
		if c%2 == 0 {
			want = 7
		}
		if got := binary.LittleEndian.Uint32(b[4*c:]); got != want {
			t.Errorf("CTA %d: %d, want %d", c, got, want)
		}
	}
}

// TestUninitGivesUpOnHugeKernels: past uninitMaxWords (blocks times
// 64-register words) the analysis is skipped and a reused frame clears
// every row; the kernel still runs.
func TestUninitGivesUpOnHugeKernels(t *testing.T) {
	var b strings.Builder
	b.WriteString(".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n")
	b.WriteString("\t.reg .pred %p;\n\t.reg .b32 %r<2000>;\n\tmov.u32 %r0, %tid.x;\n\tsetp.eq.u32 %p, %r0, 0;\n")
	for i := 1; i < 2000; i++ { // two blocks per register: 4000 blocks of 32 words
		fmt.Fprintf(&b, "\t@%%p bra L%d;\n\tadd.u32 %%r%d, %%r%d, 1;\nL%d:\n", i, i, i-1, i)
	}
	b.WriteString("\tret;\n}\n")
	p, _ := load(t, b.String())
	if f := p.Kernels["k"]; !f.clearAll {
		t.Fatalf("analysis kept for %d instructions and %d slots", len(f.Ops), f.regSlots)
	}
	p, _ = load(t, uninitPTX)
	if p.Kernels["k"].clearAll {
		t.Fatal("a small kernel's analysis was skipped")
	}
}

// TestUninitBrx: a brx.idx leads to each block of its target list, so a
// register every target writes is not cleared and one written on one
// target only is; a reused frame still reads 0 there (CTAs alternate the
// targets, one CTA a warp: out = 9 in odd CTAs, 7 + 1 in even ones).
func TestUninitBrx(t *testing.T) {
	const src = `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %ctaid.x;
	and.b32 %r2, %r1, 1;
	ts: .branchtargets A, B;
	brx.idx %r2, ts;
A:
	mov.u32 %r3, 7;
	mov.u32 %r4, 1;
	bra.uni J;
B:
	mov.u32 %r3, 9;
J:
	add.u32 %r5, %r3, %r4;
	ld.param.u64 %rd1, [out];
	mul.wide.u32 %rd2, %r1, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r5;
	ret;
}`
	setFlag(t, &packEnabled, false)
	p, g := load(t, src)
	f := p.Kernels["k"]
	if f.clearAll {
		t.Fatal("the analysis gave up on a brx.idx")
	}
	var names []string
	for _, r := range f.IR.Regs {
		if r.Type != ".pred" && slices.Contains(f.clearRows, f.slot[r.ID]) {
			names = append(names, r.Name)
		}
	}
	if !slices.Equal(names, []string{"%r4"}) {
		t.Errorf("cleared rows %v, want [%%r4]", names)
	}
	const ctas = 8
	out, _ := g.Alloc(4*ctas, 0)
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{ctas, 1, 1}, Block: [3]int{1, 1, 1},
		Params: params(f, out), Workers: 1}); err != nil {
		t.Fatal(err)
	}
	b, _ := g.Bytes(out, 4*ctas)
	for c := range ctas {
		want := uint32(9)
		if c%2 == 0 {
			want = 8
		}
		if got := binary.LittleEndian.Uint32(b[4*c:]); got != want {
			t.Errorf("CTA %d: %d, want %d", c, got, want)
		}
	}
}
