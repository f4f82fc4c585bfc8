package exec

import (
	"context"
	"encoding/binary"
	"strings"
	"sync/atomic"
	"testing"
)

// TestBatchUndoStores: kernels that update memory in place (a[i] += 1)
// and then make a batch go back to the warp engine without a fault: a
// grid-stride loop whose lanes part at the code after it (dynUni), a
// shuffle whose warp is not whole (48-thread blocks), an add the pending
// sums cannot take (a second allocation). The warp engine then runs the
// CTAs again from the start; with the batch's stores put back first, each
// element is incremented once, as with batches off (bdDiffOn compares the
// memory), and the check below counts: every word of a holds what the
// kernel's threads add to it from zero (add: thread i of threads).
func TestBatchUndoStores(t *testing.T) {
	const partingN = 40*128*3 + 7
	for _, c := range []struct {
		name, body string
		block, n   int
		add        func(a []uint32, i, threads int)
	}{
		// the loop's lanes leave for the store after it, some warps' lanes
		// one iteration apart when n is not a multiple of 32
		{"parting", partingBody, 128, partingN, func(a []uint32, i, threads int) {
			for j := i; j < partingN; j += threads {
				a[j]++
			}
		}},
		// a[i] += 1 (a v2 store too), then a shuffle; with 48 threads a
		// block the second warp is not whole and the batch declines
		{"collective", `
	mul.wide.u32 %o, %i, 8;
	add.u64 %p, %ap, %o;
	ld.global.v2.u32 {%v, %w}, [%p];
	add.u32 %v, %v, 1;
	add.u32 %w, %w, 2;
	st.global.v2.u32 [%p], {%v, %w};
	setp.lt.u32 %q, %j, 32;
	selp.b32 %m, -1, 0xffff, %q;
	shfl.sync.down.b32 %w, %v, 1, 15, %m;
	mul.wide.u32 %o, %i, 4;
	add.u64 %p, %bp, %o;
	st.global.u32 [%p], %w;
	ret;
}`, 48, 0, func(a []uint32, i, _ int) { a[2*i]++; a[2*i+1] += 2 }},
		// a[i] += 1, then adds to two allocations (b, and a past the
		// words the threads increment): the batch's pending sums take one
		{"pending", `
	mul.wide.u32 %o, %i, 4;
	add.u64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
	red.global.add.u32 [%bp], 1;
	add.u64 %p, %ap, 65536;
	red.global.add.u32 [%p], %v;
	ret;
}`, 128, 0, func(a []uint32, i, _ int) { a[i]++; a[65536/4]++ }}, // (%v: a[i] + 1, that is 1)
		// each CTA's words apart from the others' (256 a CTA of 128
		// threads), the same second allocation
		{"cta spans", `
	mov.u32 %w, %ctaid.x;
	shl.b32 %w, %w, 8;
	add.u32 %w, %w, %j;
	mul.wide.u32 %o, %w, 4;
	add.u64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
	red.global.add.u32 [%bp], 1;
	add.u64 %p, %ap, 65536;
	red.global.add.u32 [%p], %v;
	ret;
}`, 128, 0, func(a []uint32, i, _ int) { a[i/128*256+i%128]++; a[65536/4]++ }},
		// 48-thread blocks, the shuffle's warp not whole: scalar stores
		// (whole warps' runs, the partial warp's), at a stride of 3
		// words, and at i^1 (no affine form: the lanes' offsets in one
		// window)
		{"runs", collectiveBody("mov.u32 %w, %i;"), 48, 0, func(a []uint32, i, _ int) { a[i]++ }},
		{"strided", collectiveBody("mul.lo.u32 %w, %i, 3;"), 48, 0, func(a []uint32, i, _ int) { a[3*i]++ }},
		{"lanes", collectiveBody("xor.b32 %w, %i, 1;"), 48, 0, func(a []uint32, i, _ int) { a[i^1]++ }},
		// %i through min (no form): rows of consecutive addresses, one
		// run per whole warp (lanesAccess)
		{"row runs", collectiveBody("min.u32 %w, %i, 0x7fffffff;"), 48, 0, func(a []uint32, i, _ int) { a[i]++ }},
	} {
		src := undoHead + strings.TrimPrefix(c.body, "\n")
		const ctas = 40
		words := max(4*ctas*c.block+16, c.n, 65536/4+1)
		in := bdFillBufs(bdBufs(bdWords(words, bdZero), bdWords(ctas*c.block+16, bdZero)), bdSeed(c.name))
		diff, ref := bdDiffOn(t, src, "k", bdX(ctas), bdX(c.block), in, bdArgs(bdPtr(0), bdPtr(1), bdU(uint64(c.n))), false, []int{1, 2})
		if diff != "" {
			t.Errorf("%s: %s", c.name, diff)
			continue
		}
		if ref.err != nil {
			t.Fatalf("%s: %v", c.name, ref.err)
		}
		want := make([]uint32, words)
		for i := range ctas * c.block {
			c.add(want, i, ctas*c.block)
		}
		for i, w := range want {
			if got := binary.LittleEndian.Uint32(ref.mem[0][4*i:]); got != w {
				t.Errorf("%s: a[%d] = %d, want %d", c.name, i, got, w)
				break
			}
		}
		p, _ := load(t, src)
		if pl := p.Kernels["k"].plan(); pl == nil || !pl.undo {
			t.Errorf("%s: not planned for batches that keep their stores", c.name)
		}
	}
}

// collectiveBody: a[index] += 1 with index computed by comp from %i into
// %w, then a shuffle whose membermask leaves the second warp of a 48-thread
// block partial (the batch declines there).
func collectiveBody(comp string) string {
	return `
	` + comp + `
	mul.wide.u32 %o, %w, 4;
	add.u64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
	setp.lt.u32 %q, %j, 32;
	selp.b32 %m, -1, 0xffff, %q;
	shfl.sync.down.b32 %w, %v, 1, 15, %m;
	mul.wide.u32 %o, %i, 4;
	add.u64 %p, %bp, %o;
	st.global.u32 [%p], %w;
	ret;
}`
}

// TestBatchUndoCap: a batch that would keep more than undoMaxBytes goes
// back to the warp engine before the store that passes it, with what it
// stored put back; the kernel's later batches take a quarter of its CTAs
// (batchCap) and run, and where a batch of one CTA keeps too much, the
// launch's other batches go back too. The parting kernel's memory is
// still the warp engine's.
func TestBatchUndoCap(t *testing.T) {
	src := undoHead + partingBody
	const n = 40*128*3 + 7
	in := bdFillBufs(bdBufs(bdWords(n, bdZero), bdWords(40*128+16, bdZero)), 3)
	for _, c := range []struct {
		bytes   int
		batched bool
	}{{4096, true}, {1024, false}} { // (a CTA keeps 1.5 KiB and the log's entries)
		setFlag(t, &undoMaxBytes, c.bytes)
		diff, ref := bdDiffOn(t, src, "k", bdX(40), bdX(128), in, bdArgs(bdPtr(0), bdPtr(1), bdU(n)), false, []int{1, 2})
		if diff != "" || ref.err != nil {
			t.Fatal(diff, ref.err)
		}
		var batches atomic.Int32
		afterBatchOps = func() { batches.Add(1) }
		on, err := bdRun(src, "k", bdX(40), bdX(128), in, bdArgs(bdPtr(0), bdPtr(1), bdU(n)), 1, true)
		afterBatchOps = nil
		if err != nil || on.err != nil {
			t.Fatal(err, on.err)
		}
		if c.batched && (on.stats.Batched == 0 || on.stats.Batched == 40 || batches.Load() < 4) {
			t.Errorf("a cap of %d bytes: %d CTAs batched, %d batches: want the later, smaller ones to run", c.bytes, on.stats.Batched, batches.Load())
		}
		if !c.batched && on.stats.Batched != 0 {
			t.Errorf("a cap of %d bytes: %d CTAs batched", c.bytes, on.stats.Batched)
		}
	}
}

// TestBatchSharedRankOne: a shared address naming rank 0 of the cluster
// (bit 24 set, rank+1 = 1: cluster.go) is the CTA's own memory in a
// batch as on the warp engine, so the batch does not go back (which, after
// the in-place update before it, would need the undo log it does not
// keep).
func TestBatchSharedRankOne(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b) {
	.reg .u32 %i, %t, %j, %v, %w;
	.reg .u64 %ap, %bp, %o, %p, %q;
	.shared .align 4 .b8 sh[64];
	ld.param.u64 %ap, [a];
	ld.param.u64 %bp, [b];
	mov.u32 %i, %ctaid.x;
	mov.u32 %t, %ntid.x;
	mov.u32 %j, %tid.x;
	mad.lo.u32 %i, %i, %t, %j;
	mul.wide.u32 %o, %i, 4;
	add.u64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
	st.shared.u32 [sh+8], %v;
	mov.u64 %q, 16777216;
	ld.shared.u32 %w, [%q+8];
	add.u64 %p, %bp, %o;
	st.global.u32 [%p], %w;
	ret;
}
`
	const n = 8 * 128
	in := bdFillBufs(bdBufs(bdWords(n, bdZero), bdWords(n, bdZero)), 4)
	diff, ref := bdDiffOn(t, src, "k", bdX(8), bdX(128), in, bdArgs(bdPtr(0), bdPtr(1)), true, []int{1, 2})
	if diff != "" || ref.err != nil {
		t.Fatal(diff, ref.err)
	}
	// every thread adds 1 to its zero word of a and stores it to sh[2] of
	// its CTA, whence (rank 0: its own CTA's) it reads a 1 for b
	for i := range n {
		if got := binary.LittleEndian.Uint32(ref.mem[0][4*i:]); got != 1 {
			t.Fatalf("a[%d] = %d, want 1", i, got)
		}
		if got := binary.LittleEndian.Uint32(ref.mem[1][4*i:]); got != 1 {
			t.Fatalf("b[%d] = %d, want 1", i, got)
		}
	}
}

// undoHead starts the kernels of the undo tests: k(a, b, n), %i the
// thread's index in the grid, %g a copy, %j %tid.x, %t %ntid.x.
const undoHead = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b, .param .u32 n) {
	.reg .u32 %i, %t, %j, %n, %s, %v, %w, %g, %m;
	.reg .u64 %ap, %bp, %o, %p;
	.reg .pred %q;
	ld.param.u64 %ap, [a];
	ld.param.u64 %bp, [b];
	ld.param.u32 %n, [n];
	mov.u32 %i, %ctaid.x;
	mov.u32 %t, %ntid.x;
	mov.u32 %j, %tid.x;
	mad.lo.u32 %i, %i, %t, %j;
	mov.u32 %g, %i;
`

// partingBody: a grid-stride loop of a[i] += 1 whose lanes leave for the
// store after it.
const partingBody = `	mov.u32 %s, %nctaid.x;
	mul.lo.u32 %s, %s, %t;
	setp.ge.u32 %q, %i, %n;
	@%q bra After;
L:
	mul.wide.u32 %o, %i, 4;
	add.u64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
	add.u32 %i, %i, %s;
	setp.lt.u32 %q, %i, %n;
	@%q bra L;
After:
	mul.wide.u32 %o, %g, 4;
	add.u64 %p, %bp, %o;
	st.global.u32 [%p], %i;
	ret;
}`

// TestBatchFaultAfterStore: a[i] += 1, then a load whose address depends
// on the new value: 0x10000000 past b, out of bounds, where a[i] was 0. A
// batch that faults there must put a[i] back before the warp engine runs
// its CTAs again, or the warp engine reads 2, loads within b, and the
// launch ends without the fault (as it did). Errors and memory must be the
// warp engine's; a kernel whose last op is its only store keeps nothing.
func TestBatchFaultAfterStore(t *testing.T) {
	src := undoHead + `	mul.wide.u32 %o, %i, 4;
	add.u64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
	setp.eq.u32 %q, %v, 1;
	selp.b32 %w, 0x10000000, 0, %q;
	cvt.u64.u32 %o, %w;
	add.u64 %p, %bp, %o;
	ld.global.u32 %w, [%p];
	ret;
}`
	undoFault(t, src, 2, 128, 256)
	p, _ := load(t, src)
	k := p.Kernels["k"]
	if k.plan() == nil || !k.plan().undo {
		t.Fatal("not planned for batches that keep their stores")
	}
	for pc := range k.Ops { // (loads follow the store)
		if k.plan().kind[pc] == bkStore && !k.plan().failAfter[pc] {
			t.Errorf("the store at %d: nothing that fails after it", pc)
		}
	}
	// a copy's store comes last: nothing can fail after it
	p, _ = load(t, undoHead+`	mul.wide.u32 %o, %i, 4;
	add.u64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u64 %p, %bp, %o;
	st.global.u32 [%p], %v;
	ret;
}`)
	k = p.Kernels["k"]
	for pc := range k.Ops {
		if k.plan().kind[pc] == bkStore && k.plan().failAfter[pc] {
			t.Errorf("copy: the store at %d keeps its bytes", pc)
		}
	}
}

// thread31Fault ends undoHead's kernels that update a word (%v, then 1
// where it was 0): a load 0x10000000 past b, out of bounds, in thread 31
// alone and only where %v is 1, so a run again that finds the word
// updated already (not put back) ends without the fault.
const thread31Fault = `	setp.eq.u32 %q, %v, 1;
	selp.b32 %w, 0x10000000, 0, %q;
	setp.ne.u32 %q, %j, 31;
	selp.b32 %w, 0, %w, %q;
	cvt.u64.u32 %o, %w;
	add.u64 %p, %bp, %o;
	ld.global.u32 %w, [%p];
	ret;
}`

// faultsInThread31 launches undoHead's kernel src on 2 CTAs of block
// threads (a of aWords zero words, b of 256) with and without batches and
// fails unless both runs end alike, at a fault in thread 31.
func faultsInThread31(t *testing.T, src string, aWords, block int) {
	t.Helper()
	in := bdFillBufs(bdBufs(bdWords(aWords, bdZero), bdWords(256, bdZero)), 1)
	diff, ref := bdDiff(t, src, "k", bdX(2), bdX(block), in, bdArgs(bdPtr(0), bdPtr(1), bdU(256)), false)
	if diff != "" {
		t.Fatal(diff)
	}
	if ref.err == nil || !strings.Contains(ref.err.Error(), "thread (31,0,0)") {
		t.Fatalf("error %v, want a fault in thread 31", ref.err)
	}
}

// TestBatchFaultAfterStridedStore: the in-place update of one field of an
// array of two-word structs (a[2i] += 1, lanes 8 bytes apart), then a
// store to the other field, then TestBatchFaultAfterStore's fault, in
// thread 31 alone: each strided store keeps its lanes' words in one entry,
// and the rollback puts back exactly those, last first, so the warp
// engine's run again finds the zeros it started from (a word left at 1
// would spare thread 31 its fault).
func TestBatchFaultAfterStridedStore(t *testing.T) {
	src := undoHead + `	mul.wide.u32 %o, %i, 8;
	add.u64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
	add.u32 %w, %v, 5;
	st.global.u32 [%p+4], %w;
` + thread31Fault
	faultsInThread31(t, src, 512, 128)
}

// TestBatchFaultAfterDescendingStore: a[n-1-i] += 1 (lanes going down),
// then the fault in thread 31: the batch keeps the store's range and puts
// it back, or the warp engine's run again would spare thread 31 its fault.
func TestBatchFaultAfterDescendingStore(t *testing.T) {
	src := undoHead + `	not.b32 %s, %i;
	add.u32 %s, %s, %n;
	mul.wide.u32 %o, %s, 4;
	add.u64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
` + thread31Fault
	faultsInThread31(t, src, 256, 128)
}

// TestBatchFaultAfterVectorStore: a[i] += 1 on float4-like vectors
// (ld/st.global.v4), then TestBatchFaultAfterStridedStore's fault in
// thread 31: the batch keeps each store's range (the whole batch's, when
// its vectors follow each other, else each warp's) and puts it back, or
// the warp engine's run again would spare thread 31 its fault.
func TestBatchFaultAfterVectorStore(t *testing.T) {
	for _, c := range []struct{ name, index string }{
		{"batch", ""},
		// the CTAs' vectors 256 apart: each warp's range alone
		{"warps", `	mov.u32 %s, %ctaid.x;
	shl.b32 %s, %s, 8;
	add.u32 %i, %j, %s;
`},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := undoHead + c.index + `	mul.wide.u32 %o, %i, 16;
	add.u64 %p, %ap, %o;
	ld.global.v4.u32 {%v, %w, %g, %m}, [%p];
	add.u32 %v, %v, 1;
	add.u32 %w, %w, 2;
	st.global.v4.u32 [%p], {%v, %w, %g, %m};
` + thread31Fault
			faultsInThread31(t, src, 4*512, 128)
		})
	}
}

// TestBatchStoreTails: a[3i] += 1, then more stores to the end, one of
// which (to b[i]) faults in thread 31 only where a[3i] was 0 (%o:
// 0x10000000 past b[i] there). A tail of stores that check before the
// first writes keeps nothing; here a tail store faults, so the first store
// must keep after all: the tail's check sees the fault coming, or the
// tail is not one (an address register written, or a guard set, after the
// first store). A store left unkept would leave a[3i] at 1, and the warp
// engine's run again would spare thread 31 its fault.
func TestBatchStoreTails(t *testing.T) {
	head := undoHead + `	mul.wide.u32 %o, %i, 12;
	add.u64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	setp.eq.u32 %q, %v, 1;
	selp.b32 %w, 0x10000000, 0, %q;
	setp.ne.u32 %q, %j, 31;
	selp.b32 %w, 0, %w, %q;
	shl.b32 %s, %i, 2;
	add.u32 %s, %w, %s;
	cvt.u64.u32 %o, %s;
`
	for _, c := range []struct{ name, body string }{
		// the faulting address is known at the first store: the check
		// finds it
		{"checked", `	add.u64 %o, %bp, %o;
	st.global.u32 [%p], %v;
	st.global.u32 [%p+4], %v;
	st.global.u32 [%o], %v;
	ret;
}`},
		// the last store's address register is written after the first
		{"written", `	st.global.u32 [%p], %v;
	st.global.u32 [%p+4], %v;
	add.u64 %p, %bp, %o;
	st.global.u32 [%p], %v;
	ret;
}`},
		// a store's guard is set after the first store (false in thread
		// 31 as the first runs)
		{"guarded", `	add.u64 %o, %bp, %o;
	setp.ne.u32 %q, %w, 0x10000000;
	st.global.u32 [%p], %v;
	setp.eq.u32 %q, %w, 0x10000000;
	@%q st.global.u32 [%o], %v;
	st.global.u32 [%p+4], %v;
	ret;
}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			faultsInThread31(t, head+c.body, 3*256, 128)
		})
	}
	// an array-of-structs update's stores: a tail of the first
	p, _ := load(t, undoHead+`	mul.wide.u32 %o, %i, 12;
	add.u64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
	st.global.u32 [%p+4], %v;
	st.global.u32 [%p+8], %v;
	ret;
}`)
	k := p.Kernels["k"]
	var tails [][]int32
	for pc := range k.Ops {
		if k.plan().tails[pc] != nil {
			tails = append(tails, k.plan().tails[pc])
		}
	}
	if len(tails) != 2 || len(tails[0]) != 2 || len(tails[1]) != 1 || tails[0][1] != tails[1][0] {
		t.Errorf("tails %v, want the last two stores, then the last", tails)
	}
}

// TestBatchLastStoreChecksFirst: a kernel's last store keeps nothing, so it
// checks every lane's address before it writes any: a store past the end
// of b sends the batch back with b untouched (seen from afterBatchOps,
// before any rollback), and the warp engine then faults where it must,
// with its memory. The in-place update of a before it is kept.
func TestBatchLastStoreChecksFirst(t *testing.T) {
	src := undoHead + `	mul.wide.u32 %o, %i, 4;
	add.u64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
	add.u64 %p, %bp, %o;
	add.u32 %w, %i, 1;
	st.global.u32 [%p], %w;
	ret;
}`
	undoFault(t, src, 2, 128, 200)
	bUntouched(t, src, 200)
}

// bUntouched launches undoHead's kernel src on 2 CTAs of 128 threads
// (a of 256 words, b of bWords) and fails unless the launch faults after
// at least one batch and b holds only zeros after every batch's ops.
func bUntouched(t *testing.T, src string, bWords int) {
	t.Helper()
	p, g := load(t, src)
	a, _ := g.Alloc(4*256, 0)
	b, _ := g.Alloc(uint64(4*bWords), 0)
	batches := 0
	setFlag(t, &afterBatchOps, func() {
		batches++
		bb, _ := g.Bytes(b, uint64(4*bWords))
		for i := range bWords {
			if w := binary.LittleEndian.Uint32(bb[4*i:]); w != 0 {
				t.Errorf("b[%d] = %d after the batch's ops", i, w)
				return
			}
		}
	})
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{2, 1, 1}, Block: [3]int{128, 1, 1},
		Params: params(p.Kernels["k"], a, b, 256), Workers: 1})
	if err == nil || batches == 0 {
		t.Fatalf("error %v after %d batches", err, batches)
	}
}

// TestBatchLastStoreChecksAlignment: the last store's lanes in the second
// CTA are misaligned (b + 4*i + 2*ctaid.x): the check before it must see
// that from the address form's base and steps, and the batch go back
// before the first CTA's lanes write b.
func TestBatchLastStoreChecksAlignment(t *testing.T) {
	src := undoHead + `	mul.wide.u32 %o, %i, 4;
	mov.u32 %w, %ctaid.x;
	mul.wide.u32 %p, %w, 2;
	add.u64 %o, %o, %p;
	add.u64 %p, %bp, %o;
	add.u32 %w, %i, 1;
	st.global.u32 [%p], %w;
	ret;
}`
	undoFaultKind(t, src, 2, 128, 257, "misaligned")
	bUntouched(t, src, 257) // (in bounds: only the alignment is wrong)
}

// TestBatchFaultAfterSplit: a batch runs a split's fall-through lanes to
// the join and then the taken ones, so a store on the fall-through side
// comes before the taken side's loads though no path leads from one to
// the other: it must keep its bytes (a review helper's reproduction; the
// odd lanes' load of a[0] then picks an address out of bounds only where
// lane 0's a[0] += 1 was seen, and the launch ended without the fault).
func TestBatchFaultAfterSplit(t *testing.T) {
	src := undoHead + `	and.b32 %w, %j, 1;
	setp.ne.u32 %q, %w, 0;
	@%q bra Else;
	mul.wide.u32 %o, %i, 4;
	add.u64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
	bra Join;
Else:
	ld.global.u32 %v, [%ap];
	setp.eq.u32 %q, %v, 1;
	selp.b32 %w, 0x10000000, 0, %q;
	cvt.u64.u32 %o, %w;
	add.u64 %p, %bp, %o;
	ld.global.u32 %w, [%p];
Join:
	add.u32 %m, %m, 1;
	ret;
}`
	undoFault(t, src, 1, 64, 256)
}

// undoFault launches src (undoHead's kernel: a of 256 zero words, b of
// bWords, n = 256) on grid CTAs of block threads with batches on and off,
// on one and two workers, and requires the warp engine's memory, counts
// and error: an out-of-bounds fault.
func undoFault(t *testing.T, src string, grid, block, bWords int) {
	t.Helper()
	undoFaultKind(t, src, grid, block, bWords, "out of bounds")
}

// undoFaultKind is undoFault with the fault the reference must report.
func undoFaultKind(t *testing.T, src string, grid, block, bWords int, kind string) {
	t.Helper()
	in := bdFillBufs(bdBufs(bdWords(256, bdZero), bdWords(bWords, bdZero)), 1)
	diff, ref := bdDiff(t, src, "k", bdX(grid), bdX(block), in, bdArgs(bdPtr(0), bdPtr(1), bdU(256)), false)
	if diff != "" {
		t.Fatal(diff)
	}
	if ref.err == nil || !strings.Contains(ref.err.Error(), kind) {
		t.Fatalf("error %v, want a fault: %s", ref.err, kind)
	}
}

// TestBatchScatterLeavesBatches: a grid-stride scatter (out[idx[i]] = i,
// idx a permutation)
// whose batches keep each lane's old value (a store before the loop's
// branch, which can send a batch back) runs its first batch and then the
// rest of the launch warp by warp (strided: each kept value is a read the
// warp engine's store does not wait for), with the warp engine's memory.
// The same kernel storing to consecutive words stays in batches.
func TestBatchScatterLeavesBatches(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 idx, .param .u64 out, .param .u32 n, .param .u32 mask) {
	.reg .pred %p;
	.reg .u32 %i, %t, %j, %s, %n, %m, %x;
	.reg .u64 %ip, %op, %a;
	ld.param.u64 %ip, [idx];
	ld.param.u64 %op, [out];
	ld.param.u32 %n, [n];
	ld.param.u32 %m, [mask];
	mov.u32 %i, %ctaid.x;
	mov.u32 %t, %ntid.x;
	mov.u32 %j, %tid.x;
	mad.lo.u32 %i, %i, %t, %j;
	mov.u32 %s, %nctaid.x;
	mul.lo.u32 %s, %s, %t;
	setp.ge.u32 %p, %i, %n;
	@%p bra Done;
Loop:
	mul.wide.u32 %a, %i, 4;
	add.u64 %a, %ip, %a;
	ld.global.u32 %x, [%a];
	and.b32 %x, %x, %m;
	mul.wide.u32 %a, %x, 4;
	add.u64 %a, %op, %a;
	st.global.u32 [%a], %i;
	add.u32 %i, %i, %s;
	setp.lt.u32 %p, %i, %n;
	@%p bra Loop;
Done:
	ret;
}
`
	const n, ctas = 64 * 1024, 64
	for _, c := range []struct {
		name    string
		scatter bool
	}{{"random", true}, {"in order", false}} {
		in := bdFillBufs(bdBufs(bdWords(n, bdRand), bdWords(n, bdZero)), 41)
		for i := range n { // (a permutation: no two threads store to one word)
			k := uint32(i)
			if c.scatter {
				k = uint32(i) * 40503 % n
			}
			binary.LittleEndian.PutUint32(in[0][4*i:], k)
		}
		args := bdArgs(bdPtr(0), bdPtr(1), bdU(n), bdU(n-1))
		diff, ref := bdDiffOn(t, src, "k", bdX(ctas), bdX(128), in, args, true, []int{1, 2})
		if diff != "" || ref.err != nil {
			t.Fatal(c.name, diff, ref.err)
		}
		on, err := bdRun(src, "k", bdX(ctas), bdX(128), in, args, 1, true)
		if err != nil || on.err != nil {
			t.Fatal(err, on.err)
		}
		if c.scatter && (on.stats.Batched == 0 || on.stats.Batched == ctas) || !c.scatter && on.stats.Batched != ctas {
			t.Errorf("%s: %d of %d CTAs batched", c.name, on.stats.Batched, ctas)
		}
	}
}
