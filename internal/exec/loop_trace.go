package exec

import (
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"unsafe"
)

// Loop traces. A loop whose ops all have trace entries (trace.go) but for
// its branches runs as one trace, simdLoopTrace, for as many rounds as
// the warp's time slice allows: its entries are the region's ops in order
// (entry i is op start+i's), and a branch entry moves to its target's
// entry when every lane of the running mask takes it, goes on when none
// does, and stops the trace before itself when the lanes part or leave
// the region; a stop entry follows the region's last op. Without them a
// loop of straight-line traces returns to the Go loop at every branch:
// mandelbrot's escape loop is four traces and four branches a round.
//
// The converged loop (runConverged) runs one where a trace may run (every
// lane active, or register-only and wide), and a divergent group
// (runGroup) where a group trace may (register-only, the liveness sets
// known, nothing of another lane's nor a reconvergence point of the
// group's inside the region), keeping the outside lanes' live rows and
// predicates as runGroupTrace does. Counts are what the op-by-op paths
// give: every entry that ran is a warp-instruction, and a thread-
// instruction for each running lane but for branches not taken; a group's
// backward branches count towards starvationLimit, and the trace stops
// right after the one that reaches it, as runGroup does.

// loopTracesEnabled lets tests (and PTXVM_LOOPTRACE=off) compare runs with
// and without loop traces.
var loopTracesEnabled = os.Getenv("PTXVM_LOOPTRACE") != "off"

// groupLoadLoops counts divergent groups' runs of loop traces with loads,
// groupLoadRefusals those that stopped at a load that refused, while
// countGroupLoads is set (by tests: runGroupLoop runs tens of thousands of
// times a launch, and two workers would share the counters' cache line).
var (
	countGroupLoads                   bool
	groupLoadLoops, groupLoadRefusals atomic.Int64
)

// loopTrace is the trace of a loop region, ops start..end (the ops of
// backward branches' loops that overlap, merged).
type loopTrace struct {
	start, end int32
	ops        []traceOp // per op of the region, then the stop entry
	regs       bool      // register-only bodies (ownRowsOnly), none that reads memory
	// writes: the rows and predicates the region's ops write (groups keep
	// the outside lanes' values); nil when a group may not run it: its
	// bodies must be register-only or loads (groupLoadBody)
	writes *traceWrites
}

// loopState is a loop trace's part of the trace context (the assembly
// reads this layout): the first entry's address, the running lanes, and
// the counts the branch bodies keep.
type loopState struct {
	base      uintptr
	mask      uint64 // (the low 32 bits)
	notTaken  uint64 // branch entries that ran and were not taken
	backs     uint64 // backward branches taken
	backsLeft uint64 // backward branches allowed
	stopAfter uint64 // set when the last one allowed ended the trace
}

// loopSpan returns the first and last ops of f that a loop spans (the
// lowest target and the highest PC of its backward branches), or 0, -1.
func loopSpan(f *Func) (lo, hi int) {
	lo, hi = len(f.Ops), -1
	for pc := range f.Ops {
		if o := &f.Ops[pc]; o.bra && o.target >= 0 && int(o.target) <= pc {
			lo, hi = min(lo, int(o.target)), pc
		}
	}
	if hi < 0 {
		return 0, -1
	}
	return lo, hi
}

// buildLoopTraces gives the ops of every loop region of f whose ops all
// have trace entries (entries: per op from lo, from buildTraces; a zero
// body where an op has none) or are direct branches its loop trace.
func buildLoopTraces(f *Func, entries []traceOp, lo int) {
	if !loopTracesEnabled || len(entries) == 0 {
		return
	}
	bra, okBra := simdMemBody("loopBra")
	jmp, okJmp := simdMemBody("loopJmp")
	stop, okStop := simdMemBody("loopStop")
	if !okBra || !okJmp || !okStop {
		return
	}
	// branch: whether o is a branch a loop trace takes (a spin loop's
	// or a lock's keeps its own paths, yields and rounds, and so does a
	// CAS loop's)
	branch := func(o *Op) bool {
		return o.bra && o.target >= 0 && !o.lockLoop && o.cas == nil && o.lock == nil
	}
	// the loops: [target, pc] of each backward branch whose ops all have
	// entries or are such branches (an inner loop keeps its trace when
	// the loop around it has a barrier), overlapping ones merged (sorted
	// by start)
	var regions [][2]int32
	for pc := range f.Ops {
		o := &f.Ops[pc]
		if !branch(o) || o.target > int32(pc) {
			continue
		}
		ok := true
		for i := o.target; i <= int32(pc) && ok; i++ {
			ok = entries[int(i)-lo].body != 0 || branch(&f.Ops[i])
		}
		if ok {
			regions = append(regions, [2]int32{o.target, int32(pc)})
		}
	}
	slices.SortFunc(regions, func(a, b [2]int32) int { return int(a[0] - b[0]) })
	var merged [][2]int32
	for _, r := range regions {
		if n := len(merged); n > 0 && r[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], r[1])
			continue
		}
		merged = append(merged, r)
	}
	for _, r := range merged {
		lt := &loopTrace{start: r[0], end: r[1], regs: true}
		groups := true
		for pc := r[0]; pc <= r[1]; pc++ {
			o := &f.Ops[pc]
			if !branch(o) {
				lt.ops = append(lt.ops, entries[int(pc)-lo])
				lt.regs = lt.regs && ownRowsOnly(o.memTrace)
				groups = groups && (ownRowsOnly(o.memTrace) || groupLoadBody(o.memTrace))
				continue
			}
			t := traceOp{body: bra, a: ^uint64(0)}
			if o.guard == 0 {
				t.body = jmp
			} else {
				t.d = uint64(o.guard-1) * 4
				if o.neg {
					t.k = 0xffffffff
				}
			}
			if o.target >= r[0] && o.target <= r[1] {
				t.a = uint64(o.target-r[0]) * uint64(unsafe.Sizeof(traceOp{}))
				if o.target <= pc {
					t.b = 1
				}
			} else if o.guard == 0 {
				t.body = stop // (it always leaves)
			}
			lt.ops = append(lt.ops, t)
		}
		lt.ops = append(lt.ops, traceOp{body: stop})
		if groups {
			lt.writes = writesIn(f, int(r[0]), int(r[1])+1, lt.ops)
		}
		for pc := r[0]; pc <= r[1]; pc++ {
			f.Ops[pc].loop = lt
		}
	}
}

// groupLoadBody reports whether a trace body of memTrace kind only reads
// memory into the op's own destination rows (a load, a cvta's copy of
// global addresses), so that a divergent group may run it for all 32
// lanes: the outside lanes' loads write rows that runGroupLoop puts back
// where those lanes read them, and touch nothing else. An outside lane's
// address may lie anywhere: the body then refuses (outside its window,
// misaligned) and the op runs for the group alone (runGroup), which
// faults where the group's own lanes must. Stores, atomics and shuffles
// (another lane's row) are not.
func groupLoadBody(kind string) bool {
	return kind == "cvtaToGlobal" || strings.HasPrefix(kind, "ld")
}

// runLoopTrace runs loop trace lt from op pc for the lanes of mask, at most
// budget entries (at least 1: the assembly counts down to 0) and backsLeft
// backward branches, on the registers at rows with context ctx; it
// returns the entries that ran, the
// branches among them not taken, the backward branches taken, the op it
// stopped at, and whether it stopped before that op (a branch the lanes
// part at or leave the region by, a memory body that refused, the end of
// the region) rather than at the budget's end.
func runLoopTrace(rows unsafe.Pointer, lt *loopTrace, pc int32, mask uint32, budget, backsLeft int, ctx *traceCtx) (ran, notTaken, backs int, at int32, before bool) {
	if budget < 1 {
		panic("exec: runLoopTrace without a budget")
	}
	ctx.loop = loopState{base: uintptr(unsafe.Pointer(&lt.ops[0])), mask: uint64(mask), backsLeft: uint64(backsLeft)}
	i, left := simdLoopTrace(rows, &lt.ops[0], int(pc-lt.start), budget, ctx)
	before = left > 0 && ctx.loop.stopAfter == 0
	if before {
		i--
	}
	return budget - left, int(ctx.loop.notTaken), int(ctx.loop.backs), lt.start + int32(i), before
}

// runGroupLoop runs loop trace lt for the group mask from op pc for at most
// budget entries (runLoopTrace), keeping what the lanes outside the group
// read: the rows live for them and their bits of the predicates (as
// runGroupTrace). It returns ok false, having run nothing, when more rows
// written are live outside than it keeps.
func (w *Warp) runGroupLoop(f *frame, lt *loopTrace, mask uint32, pc int32, budget, backsLeft int) (ran, notTaken, backs int, at int32, before, ok bool) {
	var k outsideKept
	if !w.keepOutside(f, lt.writes, &k) {
		return 0, 0, 0, pc, false, false
	}
	var ctx *traceCtx
	if lt.regs {
		ctx = &w.frameContext(f).ctx
	} else {
		ctx = w.prepareWindows(f) // (its loads' windows)
	}
	ran, notTaken, backs, at, before = runLoopTrace(unsafe.Pointer(unsafe.SliceData(f.regs)), lt, pc, mask, budget, backsLeft, ctx)
	if countGroupLoads && !lt.regs {
		groupLoadLoops.Add(1)
		if before && at <= lt.end && !f.fn.Ops[at].bra {
			groupLoadRefusals.Add(1)
		}
	}
	w.putBackOutside(f, lt.writes, mask, &k)
	return ran, notTaken, backs, at, before, true
}
