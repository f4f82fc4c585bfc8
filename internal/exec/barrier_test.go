package exec

// Named barriers (9.7.13.1): .red reductions, .arrive with thread counts,
// register operands. Expected values from the manual's Description.

import (
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// runBlock runs body in one CTA of n threads; %t is %tid.x, and each thread
// stores %res (.u32) at out[%t].
func runBlock(t *testing.T, n int, decls, body string) ([]uint32, error) {
	t.Helper()
	return runBlockOn(t, "sm_80", n, decls, body)
}

// runBlockOn is runBlock for a given target.
func runBlockOn(t *testing.T, target string, n int, decls, body string) ([]uint32, error) {
	t.Helper()
	p, g := load(t, `.version 8.0
.target `+target+`
.address_size 64
.visible .entry k(.param .u64 out) {
	.reg .u32 %t, %res;
	.reg .b64 %addr, %off;
`+decls+`
	mov.u32 %t, %tid.x;
	mov.u32 %res, 0;
`+body+`
	ld.param.u64 %addr, [out];
	mul.wide.u32 %off, %t, 4;
	add.u64 %addr, %addr, %off;
	st.global.u32 [%addr], %res;
	ret;
}
`)
	out, _ := g.Alloc(uint64(4*n), 0)
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{n, 1, 1},
		Params: params(p.Kernels["k"], out)})
	if err != nil {
		return nil, err
	}
	b, _ := g.Bytes(out, uint64(4*n))
	res := make([]uint32, n)
	for i := range res {
		res[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return res, nil
}

func TestBarrierRed(t *testing.T) {
	// 96 threads; c = (tid % 3 == 0): 32 threads true
	res, err := runBlock(t, 96, ".reg .u32 %r; .reg .pred %p, %q, %s;", `
	rem.u32 %r, %t, 3;
	setp.eq.u32 %p, %r, 0;
	bar.red.popc.u32 %res, 0, %p;
	bar.red.and.pred %q, 1, %p;
	bar.red.or.pred %s, 2, !%p;
	selp.u32 %r, 0x1000, 0, %q;
	or.b32 %res, %res, %r;
	selp.u32 %r, 0x2000, 0, %s;
	or.b32 %res, %res, %r;`)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range res {
		if v != 32|0x2000 {
			t.Fatalf("thread %d: %#x, want %#x (popc 32, and false, or true)", i, v, 32|0x2000)
		}
	}
}

// TestBarrierProducerConsumer: warp 0 produces into shared memory and
// arrives at barrier 1 (count 64); warp 1 waits there with bar.sync, then
// reads. Roles swap on barrier 2 with a register barrier number.
func TestBarrierProducerConsumer(t *testing.T) {
	res, err := runBlock(t, 64, `.reg .u32 %r, %w, %id;
	.reg .pred %p;
	.reg .b64 %sa;
	.shared .u32 buf[32];`, `
	shr.u32 %w, %t, 5;
	and.b32 %r, %t, 31;
	mov.u64 %sa, buf;
	cvt.u64.u32 %off, %r;
	shl.b64 %off, %off, 2;
	add.u64 %sa, %sa, %off;
	setp.eq.u32 %p, %w, 0;
	@!%p bra Consumer;
	mul.lo.u32 %r, %r, 7;
	st.shared.u32 [%sa], %r;
	bar.arrive 1, 64;
	mov.u32 %id, 2;
	bar.sync %id, 64;
	ld.shared.u32 %res, [%sa];
	bra Done;
Consumer:
	bar.sync 1, 64;
	ld.shared.u32 %res, [%sa];
	add.u32 %r, %res, 1000;
	st.shared.u32 [%sa], %r;
	bar.arrive 2, 64;
Done:`)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range res {
		want := uint32(i%32*7 + 1000*(1-i/32)) // warp 0 reads the consumer's update
		if i >= 32 {
			want = uint32(i % 32 * 7)
		}
		if v != want {
			t.Errorf("thread %d: %d, want %d", i, v, want)
		}
	}
}

func TestBarrierBadCount(t *testing.T) {
	_, err := runBlock(t, 64, "", `
	bar.sync 0, 48;`)
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultUndefined || !strings.Contains(f.Msg, "multiple of the warp size") {
		t.Fatalf("got %v, want an undefined-behavior fault about the count", err)
	}
}

// TestReusedCTAsDoNotAllocate: a worker's reused CTAs keep their
// barriers' waiting lists (and the rest of their memory): the heap
// allocations of a launch do not grow with its CTAs. (The warp engine's:
// the kernel would run in batches, whose register files come from a
// sync.Pool, which the race detector empties at random.)
func TestReusedCTAsDoNotAllocate(t *testing.T) {
	setFlag(t, &batchEnabled, false)
	p, _ := load(t, `.version 7.8
.target sm_90
.address_size 64
.visible .entry k() {
	.reg .u32 %t, %a;
	.shared .align 4 .b32 s[256];
	mov.u32 %t, %tid.x;
	shl.b32 %t, %t, 2;
	mov.u32 %a, s;
	add.u32 %a, %a, %t;
	st.shared.u32 [%a], %t;
	bar.sync 0;
	ld.shared.u32 %t, [s];
	bar.sync 1;
	ret;
}
`)
	allocs := func(ctas int) float64 {
		return testing.AllocsPerRun(5, func() {
			if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{ctas, 1, 1}, Block: [3]int{256, 1, 1}, Workers: 1}); err != nil {
				t.Fatal(err)
			}
		})
	}
	few, many := allocs(4), allocs(64)
	if many > few+8 {
		t.Errorf("%v allocations for 64 CTAs, %v for 4: reused CTAs allocate", many, few)
	}
}
