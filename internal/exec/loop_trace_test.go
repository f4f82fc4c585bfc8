package exec

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
)

// loopTraceKernels: loops that loop traces run (loop_trace.go), with what
// each exercises.
var loopTraceKernels = []struct{ name, src string }{
	// mandelbrot's layout (clang's): the escape test branches back to a
	// block laid out above the head, and the exit test leaves from the
	// middle. Trip counts up to 3000 per lane: a group goes round more
	// than starvationLimit times while the lanes that left wait, and the
	// warps use up many time slices inside the loop.
	{"escape", `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in) {
	.reg .u32 %t, %n, %lim, %x, %y, %z;
	.reg .u64 %o, %a;
	.reg .pred %p<3>;
	mov.u32 %t, %tid.x;
	mov.u32 %x, %ctaid.x;
	mad.lo.u32 %t, %x, 64, %t;
	mul.lo.u32 %lim, %t, 97;
	rem.u32 %lim, %lim, 3000;
	mov.u32 %n, 0;
	mov.u32 %x, %t;
	mov.u32 %y, 7;
	bra.uni HEAD;
BACK:
	setp.lt.u32 %p2, %z, 40000;
	@%p2 bra HEAD;
	bra.uni DONE;
HEAD:
	setp.ge.u32 %p0, %n, %lim;
	@%p0 bra DONE;
	mul.lo.u32 %z, %x, 3;
	add.u32 %z, %z, %y;
	and.b32 %z, %z, 65535;
	setp.gt.u32 %p1, %z, 70000;
	@%p1 bra BACK;
	add.u32 %n, %n, 1;
	xor.b32 %x, %x, %z;
	add.u32 %y, %y, %n;
	bra.uni BACK;
DONE:
	ld.param.u64 %o, [out];
	mul.wide.u32 %a, %t, 8;
	add.u64 %o, %o, %a;
	st.global.u32 [%o], %n;
	st.global.u32 [%o+4], %x;
	ret;
}`},
	// a sparse row's walk (spmv's): per-lane trip counts, a load at the
	// lane's pointer and a gather through the loaded value; the lanes
	// that leave wait at DONE while a group runs the loop trace, its loads
	// reading for them too (groupLoadBody)
	{"gather", strings.Replace(gatherSrc, "LEAVE", "", 1)},
	// the same, but a lane that leaves sets its pointer to 0 first: the
	// group's loads then refuse (address 0 lies outside every window) and
	// run for the group alone, op by op, every round
	{"gatherrefuse", strings.Replace(gatherSrc, "LEAVE", "\tselp.b64 %a, 0, %a, %p0;\n", 1)},
	// the even lanes loop, then take a ticket; the odd ones take theirs
	// at once, laid out after the loop: they run when the loop's group
	// has gone round starvationLimit times (warp.go's pick), so they get
	// the first tickets (a CTA's own counter: the same order on two
	// workers)
	{"starve", `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in) {
	.reg .u32 %t, %c, %i, %x, %tk;
	.reg .u64 %o, %q, %a;
	.reg .pred %p<2>;
	mov.u32 %t, %tid.x;
	ld.param.u64 %q, [in];
	mov.u32 %c, %ctaid.x;
	mul.wide.u32 %a, %c, 4;
	add.u64 %q, %q, %a;
	and.b32 %c, %t, 1;
	setp.eq.u32 %p0, %c, 1;
	@%p0 bra ELSE;
	mov.u32 %i, 0;
	mov.u32 %x, %t;
LOOP:
	mul.lo.u32 %x, %x, 1103515245;
	add.u32 %x, %x, 12345;
	add.u32 %i, %i, 1;
	setp.lt.u32 %p1, %i, 3000;
	@%p1 bra LOOP;
	atom.global.add.u32 %tk, [%q], 1;
	bra.uni JOIN;
ELSE:
	mov.u32 %x, 0;
	atom.global.add.u32 %tk, [%q], 1;
JOIN:
	ld.param.u64 %o, [out];
	mov.u32 %c, %ctaid.x;
	mad.lo.u32 %c, %c, 64, %t;
	mul.wide.u32 %a, %c, 8;
	add.u64 %o, %o, %a;
	st.global.u32 [%o], %tk;
	st.global.u32 [%o+4], %x;
	ret;
}`},
	// an inner loop of per-lane trip counts inside an outer loop with a
	// barrier (which no trace takes): the inner loop has its own trace
	{"barrier", `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in) {
	.reg .u32 %t, %i, %k, %s, %c;
	.reg .u64 %o, %a;
	.reg .pred %p<3>;
	.shared .u32 sh[64];
	mov.u32 %t, %tid.x;
	mov.u32 %s, 0;
	mov.u32 %i, 0;
OUTER:
	and.b32 %k, %t, 7;
	add.u32 %k, %k, %i;
	add.u32 %k, %k, 1;
INNER:
	mul.lo.u32 %s, %s, 5;
	add.u32 %s, %s, %k;
	sub.u32 %k, %k, 1;
	setp.ne.u32 %p1, %k, 0;
	@%p1 bra INNER;
	mov.u32 %c, sh;
	mad.lo.u32 %c, %t, 4, %c;
	st.shared.u32 [%c], %s;
	bar.sync 0;
	add.u32 %i, %i, 1;
	setp.lt.u32 %p0, %i, 40;
	@%p0 bra OUTER;
	ld.param.u64 %o, [out];
	mov.u32 %c, %ctaid.x;
	mad.lo.u32 %c, %c, 64, %t;
	mul.wide.u32 %a, %c, 8;
	add.u64 %o, %o, %a;
	st.global.u32 [%o], %s;
	st.global.u32 [%o+4], %i;
	ret;
}`},
	// a converged loop that loads global memory: its first load refuses
	// (no window yet) and runs on the Go path, which installs the window
	{"loads", `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in) {
	.reg .u32 %t, %i, %s, %v, %j;
	.reg .u64 %o, %p, %a;
	.reg .pred %p<2>;
	mov.u32 %t, %tid.x;
	mov.u32 %s, 0;
	mov.u32 %i, 0;
	ld.param.u64 %p, [in];
LOOP:
	mad.lo.u32 %j, %i, 32, %t;
	and.b32 %j, %j, 1023;
	mul.wide.u32 %a, %j, 4;
	add.u64 %a, %p, %a;
	ld.global.u32 %v, [%a];
	add.u32 %s, %s, %v;
	xor.b32 %s, %s, %i;
	add.u32 %i, %i, 1;
	setp.lt.u32 %p0, %i, 700;
	@%p0 bra LOOP;
	ld.param.u64 %o, [out];
	mov.u32 %j, %ctaid.x;
	mad.lo.u32 %j, %j, 64, %t;
	mul.wide.u32 %a, %j, 8;
	add.u64 %o, %o, %a;
	st.global.u32 [%o], %s;
	ret;
}`},
	// nested loops: a uniform outer loop around an inner loop of per-lane
	// trip counts with an if/else (a diamond) inside, one region
	{"nested", `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in) {
	.reg .u32 %t, %i, %k, %s, %c;
	.reg .u64 %o, %a;
	.reg .pred %p<4>;
	mov.u32 %t, %tid.x;
	mov.u32 %s, 1;
	mov.u32 %i, 0;
OUTER:
	rem.u32 %k, %t, 7;
	add.u32 %k, %k, %i;
	and.b32 %k, %k, 15;
INNER:
	setp.eq.u32 %p1, %k, 0;
	@%p1 bra NEXT;
	and.b32 %c, %k, 1;
	setp.eq.u32 %p2, %c, 0;
	@%p2 bra EVEN;
	mul.lo.u32 %s, %s, 3;
	bra.uni JOIN;
EVEN:
	add.u32 %s, %s, %k;
JOIN:
	sub.u32 %k, %k, 1;
	bra.uni INNER;
NEXT:
	add.u32 %i, %i, 1;
	setp.lt.u32 %p0, %i, 300;
	@%p0 bra OUTER;
	ld.param.u64 %o, [out];
	mov.u32 %c, %ctaid.x;
	mad.lo.u32 %c, %c, 64, %t;
	mul.wide.u32 %a, %c, 8;
	add.u64 %o, %o, %a;
	st.global.u32 [%o], %s;
	st.global.u32 [%o+4], %i;
	ret;
}`},
}

// gatherSrc is the gather kernels' source; LEAVE stands for what a lane
// does before it leaves the loop.
const gatherSrc = `
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in) {
	.reg .u32 %t, %c, %n, %s, %v, %w, %lim;
	.reg .u64 %o, %a, %b, %base, %off;
	.reg .pred %p<3>;
	mov.u32 %t, %tid.x;
	mov.u32 %c, %ctaid.x;
	mad.lo.u32 %t, %c, 64, %t;
	ld.param.u64 %base, [in];
	cvta.to.global.u64 %base, %base;
	mul.lo.u32 %lim, %t, 37;
	rem.u32 %lim, %lim, 700;
	mul.wide.u32 %off, %t, 4;
	add.u64 %a, %base, %off;
	mov.u32 %n, 0;
	mov.u32 %s, 0;
LOOP:
	setp.ge.u32 %p0, %n, %lim;
LEAVE	@%p0 bra DONE;
	ld.global.u32 %v, [%a];
	and.b32 %w, %v, 1020;
	cvt.u64.u32 %off, %w;
	add.u64 %b, %base, %off;
	ld.global.u32 %w, [%b];
	add.u32 %s, %s, %w;
	xor.b32 %s, %s, %v;
	add.u64 %a, %a, 4;
	add.u32 %n, %n, 1;
	bra.uni LOOP;
DONE:
	ld.param.u64 %o, [out];
	mul.wide.u32 %b, %t, 8;
	add.u64 %o, %o, %b;
	st.global.u32 [%o], %s;
	st.global.u32 [%o+4], %n;
	ret;
}`

// TestLoopTraces: the loops above give the same memory and counts with
// loop traces and without (the traces and branches one by one), on one
// worker and on two, for full warps and a partial one.
func TestLoopTraces(t *testing.T) {
	setFlag(t, &batchEnabled, false)
	setFlag(t, &loopTracesEnabled, true)
	setFlag(t, &countGroupLoads, true)
	for _, k := range loopTraceKernels {
		for _, block := range []int{64, 40} {
			for _, workers := range []int{1, 2} {
				run := func() ([]byte, LaunchStats) {
					p, g := load(t, k.src)
					if loopTracesEnabled && simdEnabled && !hasLoopTrace(p.Kernels["k"]) {
						t.Fatalf("%s: no loop trace", k.name)
					}
					out, _ := g.Alloc(4*64*8, 0)
					in, _ := g.Alloc(4096, 0)
					b, _ := g.Bytes(in, 4096)
					for i := 0; i < 1024; i++ {
						binary.LittleEndian.PutUint32(b[4*i:], uint32(i*2654435761))
					}
					var st LaunchStats
					if err := p.Launch(t.Context(), "k", LaunchConfig{Grid: [3]int{4, 1, 1}, Block: [3]int{block, 1, 1},
						Params: params(p.Kernels["k"], out, in), Workers: workers, Stats: &st}); err != nil {
						t.Fatal(err)
					}
					st.Duration = 0
					o, _ := g.Bytes(out, 4*64*8)
					return append([]byte(nil), o...), st
				}
				name := fmt.Sprintf("%s block %d workers %d", k.name, block, workers)
				loopTracesEnabled = true
				loads, refusals := groupLoadLoops.Load(), groupLoadRefusals.Load()
				a, as := run()
				if simdEnabled && strings.HasPrefix(k.name, "gather") {
					// the groups ran the loop with its loads; with the
					// outside pointers 0, the loads refused in most
					// rounds (a round or two refuse anyway: a global
					// window is set where a load first takes the Go path;
					// a partial warp's lanes that are no threads hold 0)
					ran, refused := groupLoadLoops.Load() > loads, groupLoadRefusals.Load()-refusals > 100
					if !ran || block == 64 && refused != (k.name == "gatherrefuse") {
						t.Fatalf("%s: group loop traces with loads ran %v, refused often %v", name, ran, refused)
					}
				}
				loopTracesEnabled = false
				b, bs := run()
				loopTracesEnabled = true
				if i := firstDiff(a, b); i >= 0 {
					t.Fatalf("%s: memory differs at byte %d", name, i)
				}
				if as != bs {
					t.Fatalf("%s: stats %+v, without loop traces %+v", name, as, bs)
				}
			}
		}
	}
}

// hasLoopTrace reports whether an op of f has a loop trace.
func hasLoopTrace(f *Func) bool {
	for i := range f.Ops {
		if f.Ops[i].loop != nil {
			return true
		}
	}
	return false
}
