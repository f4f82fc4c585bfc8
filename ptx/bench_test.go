package ptx

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// syntheticModule builds a module of about size bytes in the style of
// compiler output: declarations, arithmetic, memory, branches, .loc lines
// and a DWARF .section, so the benchmark measures the common constructs.
func syntheticModule(size int) []byte {
	var b strings.Builder
	b.WriteString(".version 8.5\n.target sm_90a, debug\n.address_size 64\n.file 1 \"kernel.cu\", 1700000000, 4096\n\n")
	for fn := 0; b.Len() < size*3/4; fn++ {
		fmt.Fprintf(&b, ".visible .entry kernel_%d(\n\t.param .u64 .ptr .global .align 4 p0,\n\t.param .u32 p1\n)\n.maxntid 256, 1, 1\n{\n", fn)
		b.WriteString("\t.reg .pred \t%p<8>;\n\t.reg .b32 \t%r<64>;\n\t.reg .f32 \t%f<64>;\n\t.reg .b64 \t%rd<32>;\n\n")
		for i := 0; i < 200; i++ {
			fmt.Fprintf(&b, "\t.loc\t1 %d 5\n", i+10)
			fmt.Fprintf(&b, "\tld.param.u64 \t%%rd%d, [p0];\n", i%32)
			fmt.Fprintf(&b, "\tmov.u32 \t%%r%d, %%tid.x;\n", i%64)
			fmt.Fprintf(&b, "\tmad.lo.s32 \t%%r%d, %%r%d, %%r%d, %d;\n", i%64, (i+1)%64, (i+2)%64, i)
			fmt.Fprintf(&b, "\tld.global.nc.v4.f32 \t{%%f1, %%f2, %%f3, %%f4}, [%%rd%d+%d];\n", i%32, 16*i)
			fmt.Fprintf(&b, "\tfma.rn.f32 \t%%f%d, %%f%d, 0f3F800000, %%f%d;\n", i%64, (i+3)%64, (i+5)%64)
			fmt.Fprintf(&b, "\tsetp.ge.s32 \t%%p%d, %%r%d, %%r%d;\n", i%8, i%64, (i+7)%64)
			fmt.Fprintf(&b, "\t@%%p%d bra \t$L__BB%d_%d;\n", i%8, fn, i)
			fmt.Fprintf(&b, "$L__BB%d_%d:\n", fn, i)
		}
		b.WriteString("\tret;\n}\n\n")
	}
	b.WriteString(".section .debug_info\n{\n")
	for b.Len() < size {
		b.WriteString(".b8 99, 117, 100, 97, 95, 107, 101, 114, 110, 101, 108, 0, 1, 2, 3, 4\n.b32 .debug_abbrev\n.b64 $L__func_begin0\n")
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

func benchmarkParse(b *testing.B, name string, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(name, src, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseSynthetic: parse throughput (MB/s) on a generated 4 MB module.
func BenchmarkParseSynthetic(b *testing.B) {
	benchmarkParse(b, "synthetic.ptx", syntheticModule(4<<20))
}

// BenchmarkParseCorpus: parse throughput on the largest compiler-generated
// module of the committed corpus.
func BenchmarkParseCorpus(b *testing.B) {
	files, _ := filepath.Glob("../testdata/clang/ptx/*.ptx")
	var best string
	var bestSize int64
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Size() > bestSize {
			best, bestSize = f, st.Size()
		}
	}
	if best == "" {
		b.Skip("no corpus")
	}
	src, err := os.ReadFile(best)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s: %d bytes", best, len(src))
	benchmarkParse(b, best, src)
}

// BenchmarkFormat: printing throughput on the synthetic module.
func BenchmarkFormat(b *testing.B) {
	src := syntheticModule(4 << 20)
	m, err := Parse("synthetic.ptx", src, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Format(m)
	}
}

func TestSyntheticModuleParses(t *testing.T) {
	if _, err := Parse("synthetic.ptx", syntheticModule(64<<10), nil); err != nil {
		t.Fatal(err)
	}
}
