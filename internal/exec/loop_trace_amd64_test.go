//go:build amd64 && !purego

package exec

import (
	"strings"
	"testing"
	"unsafe"
)

// TestSIMDLoopTrace runs simdLoopTrace's branch bodies on a counting loop
// built by hand: row 1 += 1; p0 = row 1 < row 2 (unsigned); @p0 bra to
// the first entry; then the stop entry. Each case says what the manual's
// branch semantics under the running mask give: the rounds, the counts
// and where the trace stops.
func TestSIMDLoopTrace(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	add, ok1 := simdBinary("add.z32")
	addBody, ok2 := simdBodyOf(add.rk)
	setp, ok3 := simdMemBody("setp:simdLtU32")
	bra, ok4 := simdMemBody("loopBra")
	jmp, ok5 := simdMemBody("loopJmp")
	stop, ok6 := simdMemBody("loopStop")
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 {
		t.Fatal("missing bodies")
	}
	row := func(s int) uint64 { return uint64(s) * warpSize * 8 }
	entry := uint64(unsafe.Sizeof(traceOp{}))
	// the loop: entries 0-2, the stop entry 3
	loop := func(target uint64, back uint64) *loopTrace {
		return &loopTrace{start: 10, end: 12, ops: []traceOp{
			{body: addBody, d: row(1), a: row(1), k: 1},
			{body: setp, d: 0, a: row(1), b: row(2)},
			{body: bra, d: 0, a: target, b: back},
			{body: stop},
		}}
	}
	for _, c := range []struct {
		name      string
		limits    func(l int) uint64 // row 2, per lane (row 1 starts at 0)
		mask      uint32
		lt        *loopTrace
		budget    int
		backsLeft int
		// want
		ran, notTaken, backs int
		at                   int32
		before               bool
		count                uint64 // row 1 in the mask's lanes
	}{
		{"all leave together", func(int) uint64 { return 10 }, ^uint32(0), loop(0, 1), 1000, 1000,
			30, 1, 9, 13, true, 10},
		{"lanes part: stop before the branch", func(l int) uint64 { return uint64(5 + l%2) }, ^uint32(0), loop(0, 1), 1000, 1000,
			14, 0, 4, 12, true, 5},
		{"lanes outside the mask do not part it", func(l int) uint64 { return uint64(5 + 3*(l%2)) }, 0x55555555, loop(0, 1), 1000, 1000,
			15, 1, 4, 13, true, 5},
		{"the last backward branch allowed: stop after it", func(int) uint64 { return 10 }, ^uint32(0), loop(0, 1), 1000, 3,
			9, 0, 3, 10, false, 3},
		{"no backward branch left: stop before it", func(int) uint64 { return 10 }, ^uint32(0), loop(0, 1), 1000, 0,
			2, 0, 0, 12, true, 1},
		{"the budget ends mid-round", func(int) uint64 { return 10 }, ^uint32(0), loop(0, 1), 7, 1000,
			7, 0, 2, 11, false, 3},
		{"a branch out of the region taken: stop before it", func(int) uint64 { return 10 }, ^uint32(0), loop(^uint64(0), 0), 1000, 1000,
			2, 0, 0, 12, true, 1},
	} {
		rows := make([]uint64, 3*warpSize)
		for l := range warpSize {
			rows[2*warpSize+l] = c.limits(l)
		}
		preds := make([]uint32, 4)
		var ctx traceCtx
		ctx.preds = uintptr(unsafe.Pointer(&preds[0]))
		ran, notTaken, backs, at, before := runLoopTrace(unsafe.Pointer(&rows[0]), c.lt, 10, c.mask, c.budget, c.backsLeft, &ctx)
		if ran != c.ran || notTaken != c.notTaken || backs != c.backs || at != c.at || before != c.before {
			t.Errorf("%s: ran %d notTaken %d backs %d at %d before %v, want %d %d %d %d %v", c.name,
				ran, notTaken, backs, at, before, c.ran, c.notTaken, c.backs, c.at, c.before)
		}
		for l := range warpSize {
			if c.mask&(1<<l) != 0 && rows[warpSize+l] != c.count {
				t.Errorf("%s: lane %d counted %d, want %d", c.name, l, rows[warpSize+l], c.count)
				break
			}
		}
	}
	// an unguarded branch within the region: entry 0 jumps over entry 1
	// (a forward branch, no backward count) to the stop entry
	rows := make([]uint64, 3*warpSize)
	var ctx traceCtx
	preds := make([]uint32, 1)
	ctx.preds = uintptr(unsafe.Pointer(&preds[0]))
	lt := &loopTrace{start: 0, end: 1, ops: []traceOp{
		{body: jmp, a: 2 * entry},
		{body: addBody, d: row(1), a: row(1), k: 1},
		{body: stop},
	}}
	ran, notTaken, backs, at, before := runLoopTrace(unsafe.Pointer(&rows[0]), lt, 0, ^uint32(0), 100, 100, &ctx)
	if ran != 1 || notTaken != 0 || backs != 0 || at != 2 || !before || rows[warpSize] != 0 {
		t.Errorf("jump: ran %d notTaken %d backs %d at %d before %v row %d; want 1 0 0 2 true 0", ran, notTaken, backs, at, before, rows[warpSize])
	}
}

// BenchmarkLoopTraceDispatch times a loop of 36 register ops (splitmix64,
// unrolled twice) and its branch, 1000 rounds a b.N iteration: straight,
// its body as one straight-line trace per round (simdTrace, called from
// Go), and loop, the rounds in one simdLoopTrace call. The two should take
// about as long: the dispatch's indirect calls are what differ (see "Loop
// traces" in docs/engine.md).
func BenchmarkLoopTraceDispatch(b *testing.B) {
	var src strings.Builder
	src.WriteString(".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out) {\n" +
		".reg .u64 %s, %z, %a;\n.reg .u32 %i;\n.reg .pred %p;\n\tmov.u32 %i, 0;\n\tcvt.u64.u32 %s, %i;\n\tmov.u64 %a, 0;\nLOOP:\n")
	for range 2 {
		src.WriteString("\tadd.u64 %s, %s, -7046029254386353131;\n\tshr.u64 %z, %s, 30;\n\txor.b64 %z, %z, %s;\n" +
			"\tmul.lo.u64 %z, %z, -4658895280553007687;\n\tshr.u64 %a, %z, 27;\n\txor.b64 %z, %z, %a;\n" +
			"\tmul.lo.u64 %z, %z, -7723592293110705685;\n\tshr.u64 %a, %z, 31;\n\txor.b64 %a, %a, %z;\n")
		src.WriteString("\txor.b64 %s, %s, %a;\n\tadd.u64 %s, %s, 1;\n\tmul.lo.u64 %a, %a, 3;\n\tadd.u64 %a, %a, %s;\n" +
			"\txor.b64 %a, %a, %z;\n\tshr.u64 %z, %a, 7;\n\tadd.u64 %s, %s, %z;\n")
	}
	src.WriteString("\tadd.u32 %i, %i, 1;\n\tsetp.ne.u32 %p, %i, 0;\n\t@%p bra LOOP;\n\tret;\n}\n")
	p, _ := load(&testing.T{}, src.String())
	f := p.Kernels["k"]
	var lt *loopTrace
	for i := range f.Ops {
		if lt = f.Ops[i].loop; lt != nil {
			break
		}
	}
	if lt == nil || f.Ops[lt.start].trace == nil {
		b.Skip("no loop trace (no AVX2 here)")
	}
	body := f.Ops[lt.start].trace // the ops up to the branch
	rows := make([]uint64, (f.numSlots+1)*warpSize)
	preds := make([]uint32, f.numPreds+1)
	var ctx traceCtx
	ctx.preds = uintptr(unsafe.Pointer(&preds[0]))
	const rounds = 1000
	b.Run("straight", func(b *testing.B) {
		for range b.N {
			for range rounds {
				simdTrace(unsafe.Pointer(&rows[0]), &body[0], len(body), &ctx)
			}
		}
	})
	b.Run("loop", func(b *testing.B) {
		for range b.N {
			clear(rows) // (the counter starts again, and the constant row of 0: the branch is taken)
			if ran, _, _, _, _ := runLoopTrace(unsafe.Pointer(&rows[0]), lt, lt.start, ^uint32(0), rounds*(len(lt.ops)-1), 1<<40, &ctx); ran != rounds*(len(lt.ops)-1) {
				b.Fatalf("ran %d entries, want %d", ran, rounds*(len(lt.ops)-1))
			}
		}
	})
}
