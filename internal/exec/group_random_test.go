package exec

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// groupRandomKernel generates a kernel of nested if/elses on lane-dependent
// predicates, loops with per-lane trip counts (also rotated, their exit
// point inside them, with an if/else joining back above it) and early
// exits to the store of eight registers per thread: the shapes runGroup, diamonds and
// its whole-warp loops for all lanes (liveness.go) take.
func groupRandomKernel(rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString(".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out, .param .u64 log) {\n.reg .u32 %r<8>;\n.reg .u32 %t, %c<4>;\n.reg .u64 %o, %a;\n.reg .pred %p<4>, %q<2>;\n")
	b.WriteString("\tmov.u32 %t, %tid.x;\n")
	for i := 0; i < 8; i++ {
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "\tmul.lo.u32 %%r%d, %%t, %d;\n", i, rng.IntN(50)+1)
		}
	}
	lbl := 0
	reg := func() string { return fmt.Sprintf("%%r%d", rng.IntN(8)) }
	var body func(depth, n int)
	alu := func() {
		ops := []string{"add.u32", "xor.b32", "mul.lo.u32", "and.b32", "or.b32", "sub.u32"}
		q := func() string { return fmt.Sprintf("%%q%d", rng.IntN(2)) }
		switch rng.IntN(7) {
		case 4: // predicates that lanes outside a group read later (group traces)
			fmt.Fprintf(&b, "\tsetp.lt.u32 %s, %s, %s;\n", q(), reg(), reg())
		case 5:
			fmt.Fprintf(&b, "\tselp.b32 %s, %s, %s, %s;\n", reg(), reg(), reg(), q())
		case 6:
			fmt.Fprintf(&b, "\txor.pred %s, %s, %s;\n", q(), q(), q())
		case 0:
			fmt.Fprintf(&b, "\t%s %s, %s, %d;\n", ops[rng.IntN(len(ops))], reg(), reg(), rng.IntN(100))
		case 1:
			fmt.Fprintf(&b, "\tmov.u32 %s, %s;\n", reg(), reg())
		default:
			fmt.Fprintf(&b, "\t%s %s, %s, %s;\n", ops[rng.IntN(len(ops))], reg(), reg(), reg())
		}
	}
	body = func(depth, n int) {
		for k := 0; k < n; k++ {
			switch c := rng.IntN(10); {
			case c < 5 || depth > 2:
				alu()
			case c < 7: // if/else on a lane-dependent predicate
				l := lbl
				lbl += 2
				fmt.Fprintf(&b, "\tand.b32 %%c0, %%t, %d;\n\tsetp.eq.u32 %%p1, %%c0, 0;\n\t@%%p1 bra L%d;\n", 1<<rng.IntN(5), l)
				body(depth+1, rng.IntN(3)+1)
				if rng.IntN(2) == 0 {
					fmt.Fprintf(&b, "\tbra.uni L%d;\nL%d:\n", l+1, l)
					body(depth+1, rng.IntN(3)+1)
					fmt.Fprintf(&b, "L%d:\n", l+1)
				} else {
					fmt.Fprintf(&b, "L%d:\n", l)
				}
			case c < 8 && depth < 2: // a rotated loop (collatz's layout)
				// its exit point (the bra.uni) lies inside it: the lanes
				// that go on branch forward over it to the head; the
				// head's if/else joins back at the second half, above
				l := lbl
				lbl += 5
				cr := fmt.Sprintf("%%c%d", depth+1)
				fmt.Fprintf(&b, "\tand.b32 %s, %%t, %d;\n\tadd.u32 %s, %s, 1;\n\tbra.uni L%d;\nL%d:\n", cr, rng.IntN(7)+1, cr, cr, l+2, l)
				body(depth+1, rng.IntN(2)+1)
				fmt.Fprintf(&b, "L%d:\n\tsub.u32 %s, %s, 1;\n\tsetp.ne.u32 %%p2, %s, 0;\n\t@%%p2 bra L%d;\n\tbra.uni L%d;\nL%d:\n", l+1, cr, cr, cr, l+2, l+3, l+2)
				fmt.Fprintf(&b, "\tand.b32 %%c0, %%t, %d;\n\tsetp.eq.u32 %%p1, %%c0, 0;\n\t@%%p1 bra L%d;\n", 1<<rng.IntN(5), l+4)
				alu()
				fmt.Fprintf(&b, "\tbra.uni L%d;\nL%d:\n", l+1, l+4)
				alu()
				fmt.Fprintf(&b, "\tbra.uni L%d;\nL%d:\n", l, l+3)
			case c < 9: // loop with per-lane trip count
				l := lbl
				lbl++
				cr := fmt.Sprintf("%%c%d", depth+1)
				fmt.Fprintf(&b, "\tand.b32 %s, %%t, %d;\n\tadd.u32 %s, %s, 1;\nL%d:\n", cr, rng.IntN(7)+1, cr, cr, l)
				body(depth+1, rng.IntN(4)+1)
				fmt.Fprintf(&b, "\tsub.u32 %s, %s, 1;\n\tsetp.ne.u32 %%p2, %s, 0;\n\t@%%p2 bra L%d;\n", cr, cr, cr, l)
			default: // some lanes exit
				fmt.Fprintf(&b, "\tsetp.eq.u32 %%p3, %%t, %d;\n\t@%%p3 bra STORE;\n", rng.IntN(40))
			}
		}
	}
	body(0, 12)
	b.WriteString("STORE:\n\tld.param.u64 %o, [out];\n\tmul.wide.u32 %a, %t, 32;\n\tadd.u64 %o, %o, %a;\n")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&b, "\tst.global.u32 [%%o+%d], %%r%d;\n", 4*i, i)
	}
	b.WriteString("\tret;\n}\n")
	return b.String()
}

// TestGroupFastPathsRandom: 400 random divergent kernels, on 64 and 48
// threads (a partial warp), give the same registers and counts with the
// whole-warp loops run for all lanes where the rows are dead for the
// others (groupAllLanes) and without, with group traces (group_trace.go)
// and without, with loop traces (loop_trace.go) and without, and as the
// default schedule (no diamonds, no group branches, no loop traces), op
// by op.
func TestGroupFastPathsRandom(t *testing.T) {
	setFlag(t, &batchEnabled, false)
	setFlag(t, &groupAllLanes, true)
	setFlag(t, &diamondsEnabled, true)
	setFlag(t, &groupBranches, true)
	setFlag(t, &groupTracesEnabled, true)
	setFlag(t, &loopTracesEnabled, true)
	for seed := uint64(0); seed < 400; seed++ {
		src := groupRandomKernel(rand.New(rand.NewPCG(seed, 7)))
		block := 64 - 16*int(seed%2)
		run := func() ([]byte, LaunchStats) {
			p, g := load(t, src)
			out, _ := g.Alloc(uint64(block*32), 0)
			var st LaunchStats
			if err := p.Launch(t.Context(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{block, 1, 1},
				Params: params(p.Kernels["k"], out, 0), Workers: 1, Stats: &st}); err != nil {
				t.Fatal(err)
			}
			st.Duration = 0
			b, _ := g.Bytes(out, uint64(block*32))
			return append([]byte(nil), b...), st
		}
		groupAllLanes, diamondsEnabled, groupBranches = true, true, true
		a, as := run()
		loopTracesEnabled = false // (the loops' traces and branches one by one)
		e, es := run()
		loopTracesEnabled = true
		groupTracesEnabled = false // (whole-warp loops one by one)
		d, ds := run()
		groupTracesEnabled = true
		groupAllLanes = false
		b, bs := run()
		groupAllLanes, diamondsEnabled, groupBranches, loopTracesEnabled = false, false, false, false
		c, cs := run()
		groupAllLanes, diamondsEnabled, groupBranches, loopTracesEnabled = true, true, true, true
		if i := firstDiff(a, e); i >= 0 {
			t.Fatalf("seed %d: without loop traces differs at byte %d\n%s", seed, i, src)
		}
		if as != es {
			t.Fatalf("seed %d: stats %+v, without loop traces %+v", seed, as, es)
		}
		if i := firstDiff(a, b); i >= 0 {
			t.Fatalf("seed %d: all lanes differ at byte %d\n%s", seed, i, src)
		}
		if i := firstDiff(a, d); i >= 0 {
			t.Fatalf("seed %d: without group traces differs at byte %d\n%s", seed, i, src)
		}
		if i := firstDiff(a, c); i >= 0 {
			t.Fatalf("seed %d: the default schedule differs at byte %d\n%s", seed, i, src)
		}
		if as != bs || as != cs || as != ds {
			t.Fatalf("seed %d: stats %+v, masked %+v, default schedule %+v, without group traces %+v", seed, as, bs, cs, ds)
		}
	}
}
