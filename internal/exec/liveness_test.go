package exec

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// groupLanesKernels: odd lanes run a loop (add is a whole-warp loop)
// adding 7 to a register five times while even lanes branch to SKIP, then
// each thread stores that register. In waits the even lanes wait at the
// loop's reconvergence point and read %r5 there, which the loop writes;
// in runnable they sit at SKIP above it (an else side) and read it too;
// in killed they write %r6 before reading it, so the loop's writes of %r6
// may go to every lane; in guarded a guarded mov writes %r5 for some of
// them first.
var groupLanesKernels = ".version 7.0\n.target sm_70\n.address_size 64\n" +
	groupLanesKernel("waits", "%r5", "SKIP:") +
	groupLanesKernel("runnable", "%r5", "bra.uni OUT;\nSKIP:\n\tadd.u32 %r6, %r5, 100;\n\tmov.u32 %r5, %r6;") +
	groupLanesKernel("killed", "%r6", "bra.uni OUT;\nSKIP:\n\tadd.u32 %r6, %r1, 1000;") +
	groupLanesKernel("guarded", "%r5", "SKIP:\n\tsetp.lt.u32 %p2, %r1, 16;\n\t@%p2 mov.u32 %r5, 9;")

// groupLanesKernel is one of groupLanesKernels: the loop on reg, then
// after (from the loop's exit to OUT, the store).
func groupLanesKernel(name, reg, after string) string {
	return `.visible .entry ` + name + `(.param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 ` + reg + `, %r1;
	and.b32 %r2, %r1, 1;
	setp.eq.u32 %p1, %r2, 0;
	@%p1 bra SKIP;
	mov.u32 %r3, 0;
LOOP:
	add.u32 ` + reg + `, ` + reg + `, 7;
	add.u32 %r3, %r3, 1;
	setp.lt.u32 %p2, %r3, 5;
	@%p2 bra LOOP;
	` + after + `
OUT:
	ld.param.u64 %rd1, [out];
	mul.wide.u32 %rd2, %r1, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], ` + reg + `;
	ret;
}
`
}

// TestGroupAllLanes: a divergent group's whole-warp loops that run for
// every lane (liveness.go) leave the values the other lanes read next
// alone, with the results the masked path gives and Go's.
func TestGroupAllLanes(t *testing.T) {
	for _, c := range []struct {
		kernel string
		want   func(tid uint32) uint32
	}{
		{"waits", func(tid uint32) uint32 { return tid + 35*(tid%2) }},
		{"runnable", func(tid uint32) uint32 {
			if tid%2 == 1 {
				return tid + 35
			}
			return tid + 100
		}},
		{"killed", func(tid uint32) uint32 {
			if tid%2 == 1 {
				return tid + 35
			}
			return tid + 1000
		}},
		{"guarded", func(tid uint32) uint32 {
			if tid < 16 {
				return 9
			}
			return tid + 35*(tid%2)
		}},
	} {
		for _, all := range []bool{true, false} {
			groupAllLanes = all
			p, g := load(t, groupLanesKernels)
			out, _ := g.Alloc(4*64, 0)
			if err := p.Launch(context.Background(), c.kernel, LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1},
				Params: params(p.Kernels[c.kernel], out), Workers: 1}); err != nil {
				t.Fatal(err)
			}
			b, _ := g.Bytes(out, 4*64)
			for tid := range uint32(64) {
				if got, want := binary.LittleEndian.Uint32(b[4*tid:]), c.want(tid); got != want {
					t.Errorf("%s (all lanes %v): out[%d] = %d, want %d", c.kernel, all, tid, got, want)
					break
				}
			}
		}
		groupAllLanes = true
	}
}

// TestLivenessSets: the rows live on entry to ops of the waits and killed
// kernels, by hand: at SKIP the even lanes read %r5 and %r1 (waits); in
// killed SKIP writes %r6 before anything reads it, and the loop reads %r3
// and %r6 at its head.
func TestLivenessSets(t *testing.T) {
	p, _ := load(t, groupLanesKernels)
	for _, c := range []struct {
		kernel, at string // the op's label (the first op after it)
		live       []string
	}{
		{"waits", "SKIP", []string{"%r1", "%r5"}},
		{"waits", "LOOP", []string{"%r1", "%r3", "%r5"}},
		{"killed", "SKIP", []string{"%r1"}},
		{"killed", "LOOP", []string{"%r1", "%r3", "%r6"}},
		{"killed", "OUT", []string{"%r1", "%r6"}},
		// a guarded write kills nothing
		{"guarded", "SKIP", []string{"%r1", "%r5"}},
	} {
		f := p.Kernels[c.kernel]
		ls := f.liveness()
		if ls == nil {
			t.Fatalf("%s: no liveness", c.kernel)
		}
		pc := labelPC(t, f, c.at)
		var got []string
		for _, r := range f.IR.Regs {
			if r.Type == ".pred" {
				continue
			}
			s := f.slot[r.ID]
			if ls.in[pc*ls.words+int(s)/64]&(1<<(s%64)) != 0 {
				got = append(got, r.Name)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.live) {
			t.Errorf("%s at %s: live %v, want %v", c.kernel, c.at, got, c.live)
		}
	}
}

// labelPC returns the PC of the op at label (the instruction after it).
func labelPC(t *testing.T, f *Func, label string) int {
	t.Helper()
	i, ok := f.IR.Labels[label]
	if !ok {
		t.Fatalf("no label %s", label)
	}
	for pc := range f.Ops {
		if f.Ops[pc].inst == f.IR.Insts[i] {
			return pc
		}
	}
	t.Fatalf("no op at %s", label)
	return 0
}

// TestLivenessVisits: blocks laid out against the order they run in (each
// branches to the one above it) cost the worklist a few visits per op,
// where sweeps in PC order took one sweep per block (4.5 s at 32000 ops).
// %r1 and %r2 are read before any write: live from the entry on.
func TestLivenessVisits(t *testing.T) {
	const blocks = 2000
	var b strings.Builder
	b.WriteString(".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out) {\n.reg .u32 %r<4>;\n.reg .u64 %rd<2>;\n")
	fmt.Fprintf(&b, "\tbra.uni B%d;\n", blocks-1)
	b.WriteString("B0:\n\tld.param.u64 %rd1, [out];\n\tst.global.u32 [%rd1], %r1;\n\tret;\n")
	for i := 1; i < blocks; i++ {
		fmt.Fprintf(&b, "B%d:\n\tadd.u32 %%r2, %%r2, 1;\n\tbra.uni B%d;\n", i, i-1)
	}
	b.WriteString("}\n")
	p, _ := load(t, b.String())
	f := p.Kernels["k"]
	ls, visits := livenessVisits(f)
	if ls == nil {
		t.Fatal("no liveness")
	}
	if visits > 4*len(f.Ops) { // (3 per op measured here)
		t.Errorf("%d visits for %d ops", visits, len(f.Ops))
	}
	for _, r := range f.IR.Regs {
		s := f.slot[r.ID]
		live := ls.in[int(s)/64]&(1<<(s%64)) != 0
		if want := r.Name == "%r1" || r.Name == "%r2"; live != want {
			t.Errorf("%s live at the entry: %v, want %v", r.Name, live, want)
		}
	}
}
