package exec

import (
	"fmt"
	"testing"
)

// boundHead starts the bounded-loop kernels: i = ctaid.x*ntid.x + tid.x,
// s = nctaid.x*ntid.x, and the guard i < n before the loop.
const boundHead = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n) {
	.reg .u32 %%i, %%t, %%j, %%n, %%s, %%v, %%w;
	.reg .u64 %%ap, %%bp, %%cp, %%o, %%p, %%q64, %%i64, %%s64, %%n64, %%x;
	.reg .f32 %%f<4>;
	.reg .pred %%q;
	ld.param.u64 %%ap, [a];
	ld.param.u64 %%bp, [b];
	ld.param.u64 %%cp, [c];
	ld.param.u32 %%n, [n];
	mov.u32 %%i, %%ctaid.x;
	mov.u32 %%t, %%ntid.x;
	mov.u32 %%j, %%tid.x;
	mad.lo.u32 %%i, %%i, %%t, %%j;
	mov.u32 %%s, %%nctaid.x;
	mul.lo.u32 %%s, %%s, %%t;
	setp.ge.%s %%q, %%i, %%n;
	@%%q bra Done;
%s
Done:
	ret;
}`

// TestBoundedLoops: grid-stride loops whose trip test bounds their
// accesses (batch_loopbound.go) store without keeping what they overwrite
// once a batch proves that no later trip can fail; others keep it. Every
// run must give the warp engine's memory, counts and errors, also where a
// later trip faults (a wrong proof would leave a[i] += 1 applied twice
// when the batch goes back).
func TestBoundedLoops(t *testing.T) {
	// gridsaxpy's loop: an unsigned test, indices widened unsigned
	saxpy := `L:
	mul.wide.u32 %o, %i, 4;
	add.s64 %p, %ap, %o;
	ld.global.f32 %f1, [%p];
	add.s64 %x, %bp, %o;
	ld.global.f32 %f2, [%x];
	add.rn.f32 %f3, %f1, %f2;
	st.global.f32 [%x], %f3;
	add.s32 %i, %i, %s;
	setp.lt.u32 %q, %i, %n;
	@%q bra L;`
	// nvcc's: a signed test, indices widened signed, three arrays
	add3 := `L:
	mul.wide.s32 %o, %i, 4;
	add.s64 %p, %ap, %o;
	ld.global.f32 %f1, [%p];
	add.s64 %x, %bp, %o;
	ld.global.f32 %f2, [%x];
	add.rn.f32 %f3, %f1, %f2;
	add.s64 %x, %cp, %o;
	st.global.f32 [%x], %f3;
	add.s32 %i, %i, %s;
	setp.lt.s32 %q, %i, %n;
	@%q bra L;`
	// a size_t index: 64 bits, shifted
	wide := `	cvt.u64.u32 %i64, %i;
	cvt.u64.u32 %s64, %s;
	cvt.u64.u32 %n64, %n;
L:
	shl.b64 %o, %i64, 2;
	add.s64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 7;
	st.global.u32 [%p], %v;
	add.s64 %i64, %i64, %s64;
	setp.lt.u64 %q, %i64, %n64;
	@%q bra L;`
	// the test reversed (n > i), an increment in place
	gt := `L:
	mul.wide.u32 %o, %i, 4;
	add.s64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
	add.u32 %i, %i, %s;
	setp.gt.u32 %q, %n, %i;
	@%q bra L;`
	// a pointer bumped each trip: its base is not invariant
	bump := `	mul.wide.u32 %o, %i, 4;
	add.s64 %p, %ap, %o;
	mul.wide.u32 %q64, %s, 4;
L:
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
	add.s64 %p, %p, %q64;
	add.u32 %i, %i, %s;
	setp.lt.u32 %q, %i, %n;
	@%q bra L;`
	// a store after the loop could send the batch back
	after := `L:
	mul.wide.u32 %o, %i, 4;
	add.s64 %p, %ap, %o;
	ld.global.u32 %v, [%p];
	add.u32 %v, %v, 1;
	st.global.u32 [%p], %v;
	add.u32 %i, %i, %s;
	setp.lt.u32 %q, %i, %n;
	@%q bra L;
	mov.u32 %w, %ctaid.x;
	mad.lo.u32 %w, %w, %t, %j;
	mul.wide.u32 %o, %w, 4;
	add.s64 %x, %bp, %o;
	st.global.u32 [%x], %i;`
	const ctas, block = 8, 128
	const words = 8 * ctas * block
	for _, c := range []struct {
		name, cmp, body string
		n               int
		proves, faults  bool
	}{
		{"saxpy", "u32", saxpy, words, true, false},
		{"saxpy, n not a multiple of 32", "u32", saxpy, words - 37, true, false},
		{"add3", "s32", add3, words, true, false},
		{"size_t", "u32", wide, words, true, false},
		{"gt", "u32", gt, words, true, false},
		// later trips run past the arrays: no proof, and the fault
		{"saxpy past the end", "u32", saxpy, 4 * words, false, true},
		{"gt past the end", "u32", gt, 4 * words, false, true},
		// a first trip (a do-while's) at indices past n: no proof, as
		// the trip's accesses after its store are not bounded by n
		{"past n now", "u32", "\tadd.u32 %i, %i, %n;\n" + saxpy, words / 2, false, false},
		{"bump", "u32", bump, words, false, false},
		{"after", "u32", after, words, false, false},
	} {
		src := fmt.Sprintf(boundHead, c.cmp, c.body)
		in := bdFillBufs(bdBufs(bdWords(words, bdRand), bdWords(words, bdRand), bdWords(words, bdRand)), bdSeed(c.name))
		for _, segments := range []bool{true, false} {
			setFlag(t, &segmentsEnabled, segments)
			before := boundedProofs.Load()
			diff, ref := bdDiffOn(t, src, "k", bdX(ctas), bdX(block), in, bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(uint64(c.n))), !c.faults, []int{1, 2})
			if diff != "" {
				t.Fatalf("%s (segments %v): %s", c.name, segments, diff)
			}
			if faulted := ref.err != nil; faulted != c.faults {
				t.Fatalf("%s: faulted %v (%v), want %v", c.name, faulted, ref.err, c.faults)
			}
			if proved := boundedProofs.Load() > before; proved != c.proves {
				t.Fatalf("%s (segments %v): a batch proved its loop bounded: %v, want %v", c.name, segments, proved, c.proves)
			}
		}
	}
}
