package exec

import (
	"context"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/fp"
)

// casAddSrc is the CUDA Programming Guide's atomicAdd for double as clang
// compiles it: each thread adds x[i] to sums[i % bins] through a 64-bit
// compare-and-swap loop. casMinSrc is a float minimum through a 32-bit
// one, with the loop's early exit (old <= v).
const casAddSrc = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 sums, .param .u32 bins) {
	.reg .pred %p<3>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<16>;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [sums];
	ld.param.u32 %r3, [bins];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mad.lo.u32 %r1, %r1, %r2, %tid.x;
	mul.wide.u32 %rd3, %r1, 8;
	add.s64 %rd3, %rd1, %rd3;
	ld.global.b64 %rd4, [%rd3];
	rem.u32 %r2, %r1, %r3;
	mul.wide.u32 %rd5, %r2, 8;
	add.s64 %rd5, %rd2, %rd5;
	ld.global.b64 %rd15, [%rd5];
LOOP:
	add.rn.f64 %rd14, %rd4, %rd15;
	FENCE
	atom.global.cas.b64 %rd6, [%rd5], %rd15, %rd14;
	setp.ne.b64 %p2, %rd15, %rd6;
	mov.b64 %rd15, %rd6;
	@%p2 bra LOOP;
	ret;
}
`

// casAddDivSrc is casAddSrc where the threads whose index is a multiple
// of 3 skip the loop: it runs in a divergent group (runGroup), the others
// waiting for it after the loop.
var casAddDivSrc = strings.Replace(strings.Replace(casAddSrc, `	ld.global.b64 %rd15, [%rd5];
LOOP:`, `	rem.u32 %r2, %r1, 3;
	setp.eq.u32 %p1, %r2, 0;
	@%p1 bra SKIP;
	rem.u32 %r2, %r1, %r3;
	ld.global.b64 %rd15, [%rd5];
LOOP:`, 1), `	@%p2 bra LOOP;
	ret;`, `	@%p2 bra LOOP;
SKIP:
	ret;`, 1)

// casAddTopSrc is casAddSrc in clang's other shape: the loop starts with
// mov old, r, and the CAS writes r.
var casAddTopSrc = strings.Replace(casAddSrc, `LOOP:
	add.rn.f64 %rd14, %rd4, %rd15;
	FENCE
	atom.global.cas.b64 %rd6, [%rd5], %rd15, %rd14;
	setp.ne.b64 %p2, %rd15, %rd6;
	mov.b64 %rd15, %rd6;
	@%p2 bra LOOP;`, `LOOP:
	mov.b64 %rd13, %rd15;
	add.rn.f64 %rd14, %rd4, %rd13;
	FENCE
	atom.global.cas.b64 %rd15, [%rd5], %rd13, %rd14;
	setp.ne.b64 %p2, %rd13, %rd15;
	@%p2 bra LOOP;`, 1)

const casMinSrc = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 mins, .param .u32 bins) {
	.reg .pred %p<4>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<9>;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [mins];
	ld.param.u32 %r4, [bins];
	mov.u32 %r5, %ctaid.x;
	mov.u32 %r6, %ntid.x;
	mad.lo.u32 %r1, %r5, %r6, %tid.x;
	mul.wide.u32 %rd6, %r1, 4;
	add.s64 %rd7, %rd1, %rd6;
	ld.global.b32 %r2, [%rd7];
	rem.u32 %r10, %r1, %r4;
	mul.wide.u32 %rd8, %r10, 4;
	add.s64 %rd3, %rd2, %rd8;
	ld.volatile.global.b32 %r11, [%rd3];
LOOP:
	setp.geu.f32 %p2, %r2, %r11;
	@%p2 bra DONE;
	fence.sc.sys;
	atom.acquire.sys.global.cas.b32 %r3, [%rd3], %r11, %r2;
	setp.ne.b32 %p3, %r3, %r11;
	mov.b32 %r11, %r3;
	@%p3 bra LOOP;
DONE:
	ret;
}
`

// TestCASLoopDetect: the loops above are CAS loops (their back edge and
// early exit marked); a spin lock (a constant compare value), a loop that
// also loads, a float compare of the words, a compare after the mov, and
// a loop with two compare-and-swaps are not.
func TestCASLoopDetect(t *testing.T) {
	loopOps := func(src string) []*Op {
		t.Helper()
		p, _ := load(t, src)
		var marked []*Op
		for i := range p.Kernels["k"].Ops {
			if o := &p.Kernels["k"].Ops[i]; o.cas != nil {
				marked = append(marked, o)
			}
		}
		return marked
	}
	if m := loopOps(strings.Replace(casAddSrc, "FENCE", "", 1)); len(m) != 1 || m[0].pc != m[0].cas.end {
		t.Fatalf("CAS add loop: %d marked ops, want its back edge", len(m))
	}
	if m := loopOps(casMinSrc); len(m) != 2 || m[0].target != m[1].cas.end+1 || m[1].pc != m[1].cas.end {
		t.Fatalf("CAS min loop: %d marked ops, want its early exit and back edge", len(m))
	}
	if !strings.Contains(casAddTopSrc, "mov.b64 %rd13, %rd15;") {
		t.Fatal("casAddTopSrc: the replacement did not apply")
	}
	if m := loopOps(strings.Replace(casAddTopSrc, "FENCE", "", 1)); len(m) != 1 || m[0].pc != m[0].cas.end {
		t.Fatalf("CAS add loop, mov at the top: %d marked ops, want its back edge", len(m))
	}
	// old read before the mov at the top: last round's value is not what
	// the compare-and-swap gets
	readFirst := strings.Replace(strings.Replace(casAddTopSrc, "FENCE", "", 1), "LOOP:\n\tmov.b64 %rd13, %rd15;",
		"LOOP:\n\tadd.u64 %rd12, %rd13, 1;\n\tmov.b64 %rd13, %rd15;", 1)
	if m := loopOps(readFirst); len(m) != 0 {
		t.Fatalf("old read before the top mov: %d ops marked, want none", len(m))
	}
	for _, c := range []struct{ name, from, to string }{
		{"spin lock", "atom.global.cas.b64 %rd6, [%rd5], %rd15, %rd14;", "atom.global.cas.b64 %rd6, [%rd5], 0, %rd14;"},
		{"load in the loop", "FENCE", "ld.global.b64 %rd13, [%rd3];"},
		{"float compare", "setp.ne.b64 %p2, %rd15, %rd6;", "setp.ne.f64 %p2, %rd15, %rd6;"},
		{"compare after the mov", "setp.ne.b64 %p2, %rd15, %rd6;\n\tmov.b64 %rd15, %rd6;", "mov.b64 %rd15, %rd6;\n\tsetp.ne.b64 %p2, %rd15, %rd6;"},
		{"two compare-and-swaps", "FENCE", "atom.global.cas.b64 %rd13, [%rd5], %rd15, %rd14;"},
		{"old written twice", "FENCE", "mov.b64 %rd15, %rd4;"},
	} {
		src := strings.Replace(strings.Replace(casAddSrc, c.from, c.to, 1), "FENCE", "", 1)
		if m := loopOps(src); len(m) != 0 {
			t.Errorf("%s: %d ops marked, want none", c.name, len(m))
		}
	}
}

// TestCASLoopsMatchDefaultSchedule: with the lane-serial CAS loops and
// without them (the default schedule's rounds), one worker ends with the
// same memory, the lane-serial loops executing fewer thread-instructions
// where lanes share words (no lane goes round more than once on one
// worker); the f64 sums, whose rounding depends on the order of the adds,
// equal fp's exact adds in thread order (CTA after CTA, lane after lane).
func TestCASLoopsMatchDefaultSchedule(t *testing.T) {
	const n, block = 1024, 128
	type result struct {
		mem   []byte
		stats LaunchStats
	}
	run := func(src string, in []byte, out []byte, bins int, fast bool) result {
		setFlag(t, &casLoopsEnabled, fast)
		setFlag(t, &batchEnabled, false) // (CAS loops run on the warp engine: batches refuse atomics in loops)
		p, g := load(t, src)
		x, _ := g.Alloc(uint64(len(in)), 0)
		xb, _ := g.Bytes(x, uint64(len(in)))
		copy(xb, in)
		s, _ := g.Alloc(uint64(len(out)), 0)
		sb, _ := g.Bytes(s, uint64(len(out)))
		copy(sb, out)
		var st LaunchStats
		if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{n / block, 1, 1}, Block: [3]int{block, 1, 1},
			Params: params(p.Kernels["k"], x, s, uint64(bins)), Workers: 1, Stats: &st}); err != nil {
			t.Fatal(err)
		}
		st.Duration = 0
		return result{append([]byte(nil), sb...), st}
	}
	for _, fence := range []string{"", "fence.sc.sys;", "top", "divergent"} {
		for _, bins := range []int{1, 3, 40} {
			x := make([]byte, 8*n)
			for i := range n {
				binary.LittleEndian.PutUint64(x[8*i:], math.Float64bits(float64(i%7-3)*1e16+float64(i)*0.1))
			}
			sums := make([]byte, 8*bins)
			want := make([]uint64, bins)
			for i := range n {
				if fence == "divergent" && i%3 == 0 {
					continue
				}
				want[i%bins] = fp.F64.Add(want[i%bins], binary.LittleEndian.Uint64(x[8*i:]), fp.RN)
			}
			src := strings.Replace(casAddSrc, "FENCE", fence, 1)
			switch fence {
			case "top": // (clang's other shape)
				src = strings.Replace(casAddTopSrc, "FENCE", "", 1)
			case "divergent":
				src = strings.Replace(casAddDivSrc, "FENCE", "", 1)
			}
			slow, fast := run(src, x, sums, bins, false), run(src, x, sums, bins, true)
			if string(slow.mem) != string(fast.mem) || bins < 40 && fast.stats.ThreadInstructions >= slow.stats.ThreadInstructions {
				t.Fatalf("add, %d bins, fence %q: fast %v %x, default %v %x", bins, fence, fast.stats, fast.mem, slow.stats, slow.mem)
			}
			for b := range bins {
				if got := binary.LittleEndian.Uint64(fast.mem[8*b:]); got != want[b] {
					t.Fatalf("add, %d bins: sum %d = %#x, want %#x", bins, b, got, want[b])
				}
			}
		}
	}
	for _, bins := range []int{1, 5} {
		x := make([]byte, 4*n)
		for i := range n {
			binary.LittleEndian.PutUint32(x[4*i:], math.Float32bits(float32((i*7919)%1000)-500))
		}
		mins := make([]byte, 4*bins)
		for b := range bins {
			binary.LittleEndian.PutUint32(mins[4*b:], math.Float32bits(1e9))
		}
		slow, fast := run(casMinSrc, x, mins, bins, false), run(casMinSrc, x, mins, bins, true)
		if string(slow.mem) != string(fast.mem) || fast.stats.ThreadInstructions > slow.stats.ThreadInstructions {
			t.Fatalf("min, %d bins: fast %v %x, default %v %x", bins, fast.stats, fast.mem, slow.stats, slow.mem)
		}
		for b := range bins {
			low := float32(1e9)
			for i := b; i < n; i += bins {
				low = min(low, math.Float32frombits(binary.LittleEndian.Uint32(x[4*i:])))
			}
			if got := math.Float32frombits(binary.LittleEndian.Uint32(fast.mem[4*b:])); got != low {
				t.Fatalf("min, %d bins: min %d = %v, want %v", bins, b, got, low)
			}
		}
	}
}
