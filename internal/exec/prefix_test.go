package exec

import (
	"context"
	"testing"
)

// prefixKernel starts with launch-invariant ops (parameter loads, their
// cvta, %ntid and %tid copies, arithmetic on them), then a parameter whose
// register the kernel writes again later, a %ctaid copy, and a loop back to
// a label after the prefix. Each CTA's warps reuse the last CTA's frame
// (one worker, many CTAs).
const prefixKernel = `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 n, .param .u32 m) {
	.reg .u32 %n, %m, %nt, %t, %c, %i, %x, %y, %k;
	.reg .u64 %p, %g, %a;
	.reg .pred %q;
	ld.param.u64 %p, [out];
	cvta.to.global.u64 %g, %p;
	ld.param.u32 %n, [n];
	mov.u32 %nt, %ntid.x;
	mov.u32 %t, %tid.x;
	mad.lo.u32 %y, %n, 3, %t;
	ld.param.u32 %m, [m];
	mov.u32 %c, %ctaid.x;
	mad.lo.u32 %i, %c, %nt, %t;
	add.u32 %m, %m, %i;
	mov.u32 %x, %y;
	mov.u32 %k, 0;
LOOP:
	add.u32 %x, %x, %m;
	add.u32 %k, %k, 1;
	setp.lt.u32 %q, %k, 3;
	@%q bra LOOP;
	mul.wide.u32 %a, %i, 4;
	add.u64 %a, %g, %a;
	st.global.u32 [%a], %x;
	ret;
}
`

// TestPrefixSkipMatchesFullRun: prefixKernel with the invariant prefix
// skipped on reused frames and without: the same output and instruction
// counts. The prefix is the first six ops: ld.param of %m, a register
// the kernel writes again, ends it.
func TestPrefixSkipMatchesFullRun(t *testing.T) {
	setFlag(t, &prefixEnabled, true) // (set back at cleanup should a run below fail)
	const ctas, threads = 40, 64
	run := func() ([]byte, LaunchStats, int) {
		p, g := load(t, prefixKernel)
		out, _ := g.Alloc(ctas*threads*4, 0)
		var st LaunchStats
		if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{ctas, 1, 1}, Block: [3]int{threads, 1, 1},
			Params: params(p.Kernels["k"], out, 7, 1000), Workers: 1, Stats: &st}); err != nil {
			t.Fatal(err)
		}
		st.Duration = 0
		b, _ := g.Bytes(out, ctas*threads*4)
		return append([]byte(nil), b...), st, p.Kernels["k"].prefix
	}
	got, gotStats, n := run()
	prefixEnabled = false
	want, wantStats, off := run()
	prefixEnabled = true
	if n != 6 || off != 0 {
		t.Errorf("prefix %d ops (%d turned off), want 6: ld.param, cvta, ld.param, mov %%ntid, mov %%tid, mad", n, off)
	}
	if gotStats != wantStats {
		t.Errorf("stats %+v, without the skip %+v", gotStats, wantStats)
	}
	if i := firstDiff(got, want); i >= 0 {
		t.Fatalf("byte %d: %#x, without the skip %#x", i, got[i], want[i])
	}
}

// TestInvariantPrefixStops: where the prefix ends, one reason at a time.
func TestInvariantPrefixStops(t *testing.T) {
	head := `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 n) {
	.reg .u32 %n, %t, %x, %y;
	.reg .u64 %p, %g;
	.reg .pred %q;
	ld.param.u64 %p, [out];
`
	for _, c := range []struct {
		name, body string
		want       int
	}{
		{"a per-CTA special register", "mov.u32 %x, %ctaid.x;\n\tret;", 1},
		{"a register written again", "ld.param.u32 %n, [n];\n\tadd.u32 %n, %n, 1;\n\tret;", 1},
		{"a label", "L:\n\tld.param.u32 %n, [n];\n\tret;", 1},
		{"a guarded op", "setp.eq.u64 %q, %p, 0;\n\t@%q mov.u32 %x, %tid.x;\n\tret;", 1},
		{"a register read before the prefix writes it", "add.u32 %y, %x, 1;\n\tmov.u32 %x, %tid.x;\n\tret;", 1},
		{"cvta of a prefix register, then arithmetic", "cvta.to.global.u64 %g, %p;\n\tmov.u32 %t, %tid.x;\n\tshl.b32 %x, %t, 2;\n\tmov.u32 %y, %ctaid.x;\n\tret;", 4},
		{"arithmetic on a register outside it", "mov.u32 %y, %ctaid.x;\n\tadd.u32 %x, %y, 1;\n\tret;", 1},
	} {
		p, _ := load(t, head+"\t"+c.body+"\n}\n")
		if got := p.Kernels["k"].prefix; got != c.want {
			t.Errorf("%s: prefix %d ops, want %d", c.name, got, c.want)
		}
	}
}
