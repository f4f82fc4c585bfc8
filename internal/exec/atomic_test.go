package exec

// atom on the half, packed, vector and b16 forms (9.7.13.5), one lane on a
// shared variable or global scratch memory; expected values worked out by
// hand.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/fp"
)

func TestAtomForms(t *testing.T) {
	for _, c := range []struct {
		name, decls, body string
		want              uint64
	}{
		// 1.0 + 2^-24 (the smallest f16 subnormal, kept by .noftz) rounds to
		// 1.0; the old value comes back; memory then holds 1.0 again and
		// a second add of 1.0 makes 2.0 (0x4000)
		{"add.noftz.f16", ".reg .b16 %h, %o; .shared .b16 s;", `
	mov.b16 %h, 0x3c00;
	st.shared.b16 [s], %h;
	mov.b16 %h, 0x0001;
	atom.shared.add.noftz.f16 %o, [s], %h;
	mov.b16 %h, 0x3c00;
	atom.shared.add.noftz.f16 %o, [s], %h;
	ld.shared.b16 %h, [s];
	cvt.u64.u16 %res, %h;`, 0x4000},
		// subnormal + subnormal stays subnormal with .noftz: 2 * 2^-24
		{"add.noftz.f16 keeps subnormals", ".reg .b16 %h, %o; .shared .b16 s;", `
	mov.b16 %h, 0x0001;
	st.shared.b16 [s], %h;
	atom.shared.add.noftz.f16 %o, [s], %h;
	ld.shared.b16 %h, [s];
	cvt.u64.u16 %res, %h;`, 0x0002},
		// f16x2 {lo 1.0, hi 2.0} + {lo 0.5, hi -2.0} = {1.5, +0}
		{"add.noftz.f16x2", ".reg .b32 %a, %o; .shared .b32 s;", `
	mov.b32 %a, 0x40003c00;
	st.shared.b32 [s], %a;
	mov.b32 %a, 0xc0003800;
	atom.shared.add.noftz.f16x2 %o, [s], %a;
	ld.shared.b32 %a, [s];
	cvt.u64.u32 %res, %a;`, 0x00003e00},
		{"add.noftz.bf16x2 returns the old value", ".reg .b32 %a, %o; .shared .b32 s;", `
	mov.b32 %a, 0x3f803f80;
	st.shared.b32 [s], %a;
	atom.shared.add.noftz.bf16x2 %o, [s], %a;
	cvt.u64.u32 %res, %o;`, 0x3f803f80},
		{"cas.b16 swaps on a match", ".reg .b16 %h, %o; .shared .b16 s;", `
	mov.b16 %h, 7;
	st.shared.b16 [s], %h;
	atom.shared.cas.b16 %o, [s], 7, 9;
	atom.shared.cas.b16 %o, [s], 7, 11; // no match: stays 9
	ld.shared.b16 %h, [s];
	cvt.u64.u16 %res, %h;`, 9},
		// atom.add.f32: shared keeps subnormals, global flushes them
		{"add.f32 on shared keeps subnormals", ".reg .f32 %f, %o; .reg .b32 %b; .shared .f32 s;", `
	mov.b32 %f, 1;
	st.shared.f32 [s], %f;
	atom.shared.add.f32 %o, [s], %f;
	ld.shared.b32 %b, [s];
	cvt.u64.u32 %res, %b;`, 2},
		{"add.f32 on global flushes subnormals", ".reg .f32 %f, %o; .reg .b32 %b;", `
	mov.b32 %f, 1;
	st.global.f32 [%g], %f;
	atom.global.add.f32 %o, [%g], %f;
	ld.global.b32 %b, [%g];
	cvt.u64.u32 %res, %b;`, 0},
		// v4.f32 add: {1,2,3,4} + {10,20,30,40}; element 2 of the result
		{"global.v4.f32.add", ".reg .f32 %a<4>, %o<4>; .reg .b32 %b;", `
	mov.f32 %a0, 0f3F800000;
	mov.f32 %a1, 0f40000000;
	mov.f32 %a2, 0f40400000;
	mov.f32 %a3, 0f40800000;
	st.global.v4.f32 [%g], {%a0, %a1, %a2, %a3};
	mov.f32 %a0, 0f41200000;
	mov.f32 %a1, 0f41A00000;
	mov.f32 %a2, 0f41F00000;
	mov.f32 %a3, 0f42200000;
	atom.global.v4.f32.add {%o0, %o1, %o2, %o3}, [%g], {%a0, %a1, %a2, %a3};
	ld.global.b32 %b, [%g+8];
	cvt.u64.u32 %res, %b;`, 0x42040000}, // 33.0
		// v8.f16.max: element 5 of max({k}, {7-k}) is max(5, 2) = 5.0 (0x4500)
		{"global.v8.f16.max", ".reg .b16 %h<8>, %d<8>, %r16;", `
	mov.b16 %h0, 0x0000; mov.b16 %h1, 0x3c00; mov.b16 %h2, 0x4000; mov.b16 %h3, 0x4200;
	mov.b16 %h4, 0x4400; mov.b16 %h5, 0x4500; mov.b16 %h6, 0x4600; mov.b16 %h7, 0x4700;
	st.global.v4.b16 [%g], {%h0, %h1, %h2, %h3};
	st.global.v4.b16 [%g+8], {%h4, %h5, %h6, %h7};
	atom.global.v8.f16.max.noftz {%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7}, [%g], {%h7, %h6, %h5, %h4, %h3, %h2, %h1, %h0};
	ld.global.b16 %r16, [%g+10];
	cvt.u64.u16 %res, %r16;`, 0x4500},
	} {
		t.Run(c.name, func(t *testing.T) {
			// lane 0 works alone; %g is scratch global memory in the output
			// buffer, past lane 0's result (the other lanes store theirs
			// after reconverging)
			body := "\tld.param.u64 %g, [out];\n\tadd.u64 %g, %g, 128;\n" +
				"\tsetp.eq.u32 %p0, %t, 0;\n\t@!%p0 bra Skip;\n" + c.body + "\nSkip:"
			res := runLanesOn(t, "sm_90", c.decls+"\n\t.reg .pred %p0;\n\t.reg .b64 %g;", body)
			if res[0] != c.want {
				t.Errorf("got %#x, want %#x", res[0], c.want)
			}
		})
	}
}

// TestAtomicWindowFaults: a global atom whose lanes go through the warp's
// cached allocation still faults, at the right lane and address, for a
// lane past the allocation's end or misaligned; the lanes before it have
// done their update.
func TestAtomicWindowFaults(t *testing.T) {
	p, g := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 bad, .param .u32 lane)
{
	.reg .pred %p;
	.reg .b32 %r<4>;
	.reg .b64 %rd<6>;
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [x];
	ld.param.u32 %r2, [lane];
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	setp.eq.u32 %p, %r1, %r2;
	ld.param.u64 %rd4, [bad];
	@%p add.s64 %rd3, %rd3, %rd4;   // one lane's address moves
	atom.global.add.u32 %r3, [%rd3], 1;
	ret;
}
`)
	x, _ := g.Alloc(4*32, 0)
	for _, c := range []struct {
		name string
		bad  uint64
		kind FaultKind
	}{
		{"out of bounds", 4 * 32, FaultOutOfBounds},
		{"misaligned", 2, FaultMisaligned},
	} {
		b, _ := g.Bytes(x, 4*32)
		clear(b)
		cfg := LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Params: params(p.Kernels["k"], x, c.bad, 17), Workers: 1}
		err := p.Launch(context.Background(), "k", cfg)
		var f *Fault
		if !errors.As(err, &f) || f.Kind != c.kind || f.Thread != [3]int{17, 0, 0} || f.Addr != x+17*4+c.bad {
			t.Fatalf("%s: got %v, want a %v fault at thread 17, address %#x", c.name, err, c.kind, x+17*4+c.bad)
		}
		for i := 0; i < 17; i++ {
			if v := binary.LittleEndian.Uint32(b[4*i:]); v != 1 {
				t.Fatalf("%s: lane %d's counter is %d, want 1", c.name, i, v)
			}
		}
	}
}

// TestAtomicAddReturnsOld: atom.add on 32-bit integers by a whole warp,
// in global and in shared memory, returns each lane the value before its
// own add: with every lane adding 3 to one counter, the old values are 0,
// 3, ..., 93 in some order and the counter ends at 96; with -5 (s32) the
// old values are 0, -5, ..., -155 (compared after widening with
// cvt.s64.s32, which reads the row). The counters' addresses are in
// registers (the warp-wide path); the shared counter is copied out.
func TestAtomicAddReturnsOld(t *testing.T) {
	for _, c := range []struct {
		typ, space string
		inc        int64
	}{{"u32", "global", 3}, {"s32", "global", -5}, {"u32", "shared", 3}, {"s32", "shared", -5}} {
		counter, copyOut := "%rd1", ""
		if c.space == "shared" { // thread 0 copies the shared counter out
			counter, copyOut = "%rd6", "@%p st.global.u32 [%rd1], %r3;"
		}
		p, g := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 ctr, .param .u64 out)
{
	.reg .pred %p;
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	.shared .align 4 .b32 sctr;
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [ctr];
	ld.param.u64 %rd2, [out];
	mov.u64 %rd6, sctr;                 // the shared counter's address, in a register
	atom.`+c.space+`.add.`+c.typ+` %r2, [`+counter+`], `+fmt.Sprint(c.inc)+`;
	cvt.s64.s32 %rd3, %r2;
	mul.wide.u32 %rd4, %r1, 8;
	add.u64 %rd5, %rd2, %rd4;
	st.global.u64 [%rd5], %rd3;
	bar.sync 0;
	ld.shared.u32 %r3, [sctr];
	setp.eq.u32 %p, %r1, 0;
	`+copyOut+`
	ret;
}
`)
		ctr, _ := g.Alloc(4, 0)
		out, _ := g.Alloc(8*32, 0)
		launchK(t, p, 1, 32, ctr, out)
		b, _ := g.Bytes(out, 8*32)
		seen := map[int64]bool{}
		for i := 0; i < 32; i++ {
			seen[int64(binary.LittleEndian.Uint64(b[8*i:]))] = true
		}
		for k := int64(0); k < 32; k++ {
			if !seen[k*c.inc] {
				t.Errorf("%s %s: no lane got the old value %d", c.space, c.typ, k*c.inc)
			}
		}
		cb, _ := g.Bytes(ctr, 4)
		if got, want := int32(binary.LittleEndian.Uint32(cb)), int32(32*c.inc); got != want {
			t.Errorf("%s %s: counter %d, want %d", c.space, c.typ, got, want)
		}
	}
}

// TestAtomAddF32Flush: global atom.add.f32's element operation against
// internal/fp's (flush the inputs, add rounding to nearest, flush the
// sum), on random bits and edges: subnormals, zeros, infinities, NaNs with
// payloads, sums that overflow or cancel.
func TestAtomAddF32Flush(t *testing.T) {
	f := fp.F32
	r := rand.New(rand.NewPCG(101, 102))
	edges := []uint64{0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x80800000, 0x7f800000, 0xff800000,
		0x7fc00000, 0x7f800001, 0xffc12345, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x00800001}
	pick := func() uint64 {
		if r.IntN(2) == 0 {
			return edges[r.IntN(len(edges))]
		}
		return uint64(r.Uint32()) | uint64(r.Uint32())<<32*uint64(r.IntN(2))
	}
	for i := 0; i < 200000; i++ {
		old, b := pick(), pick()
		want := f.FlushSubnormal(f.Add(f.FlushSubnormal(old&0xffffffff), f.FlushSubnormal(b&0xffffffff), fp.RN))
		if got := atomAddF32Flush(old, b); got != want {
			t.Fatalf("atom.add.f32(%#x, %#x) = %#x, want %#x", old, b, got, want)
		}
	}
}

// TestAtomAddF32WholeWarp: a full warp's atom.global.add.f32, lanes in
// order (one worker: lane order is the serialization): even lanes add to
// one word, odd lanes to the next, each getting the word's value before
// its own addition; values include subnormals (flushed) and a NaN.
func TestAtomAddF32WholeWarp(t *testing.T) {
	p, g := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 sums, .param .u64 vals, .param .u64 olds)
{
	.reg .b32 %r<6>;
	.reg .f32 %f<3>;
	.reg .b64 %rd<10>;
	ld.param.u64 %rd1, [sums];
	ld.param.u64 %rd2, [vals];
	ld.param.u64 %rd3, [olds];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd4, %r1, 4;
	add.s64 %rd5, %rd2, %rd4;
	ld.global.f32 %f1, [%rd5];
	and.b32 %r2, %r1, 1;
	mul.wide.u32 %rd6, %r2, 4;
	add.s64 %rd7, %rd1, %rd6;
	atom.global.add.f32 %f2, [%rd7], %f1;
	add.s64 %rd8, %rd3, %rd4;
	st.global.f32 [%rd8], %f2;
	ret;
}
`)
	vals := make([]uint32, 32)
	for i := range vals {
		vals[i] = math.Float32bits(float32(i)*1.25 - 7)
	}
	vals[3], vals[6], vals[9], vals[20] = 0x00000001, 0x807fffff, 0x7fc00000, 0x00800000
	sums, _ := g.Alloc(8, 0)
	vb, _ := g.Alloc(128, 0)
	ob, _ := g.Alloc(128, 0)
	sb, _ := g.Bytes(sums, 8)
	binary.LittleEndian.PutUint32(sb, 0x3f800000)
	binary.LittleEndian.PutUint32(sb[4:], 0x00000005) // a subnormal start: flushed
	bb, _ := g.Bytes(vb, 128)
	for i, v := range vals {
		binary.LittleEndian.PutUint32(bb[4*i:], v)
	}
	launchK(t, p, 1, 32, sums, vb, ob)
	acc := [2]uint64{0x3f800000, 0x00000005}
	out, _ := g.Bytes(ob, 128)
	for i, v := range vals {
		old := acc[i&1]
		// (9.7.13.5: subnormal inputs and results flushed; round to nearest)
		f := fp.F32
		acc[i&1] = f.FlushSubnormal(f.Add(f.FlushSubnormal(old), f.FlushSubnormal(uint64(v)), fp.RN))
		if got := binary.LittleEndian.Uint32(out[4*i:]); uint64(got) != old {
			t.Errorf("lane %d: old value %#x, want %#x", i, got, old)
		}
	}
	for k := range acc {
		if got := binary.LittleEndian.Uint32(sb[4*k:]); uint64(got) != acc[k] {
			t.Errorf("word %d: %#x, want %#x", k, got, acc[k])
		}
	}
}

// TestAtomicAddOneWord: every lane of a warp adding to one word (atom.add
// .u32 on global and shared memory, .f32 on global, a guarded one for the
// even lanes, red): the word ends at the sum, and each lane's old value
// is the running total of the lanes before it, in lane order and warp
// order (one worker, one CTA, nothing blocking: warp 0 runs to its end
// before warp 1), as performing
// the adds one by one gives; f32 subnormal addends count as zero (9.7.13.5).
func TestAtomicAddOneWord(t *testing.T) {
	p, g := load(t, `.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 words, .param .u64 out) {
	.reg .u32 %t, %v, %o1, %o2, %o3, %o4;
	.reg .f32 %fv, %fo;
	.reg .u64 %w, %o, %a;
	.reg .pred %p;
	.shared .align 4 .b32 sh;
	ld.param.u64 %w, [words];
	ld.param.u64 %o, [out];
	mov.u32 %t, %tid.x;
	mad.lo.u32 %v, %t, 3, 1;
	atom.global.add.u32 %o1, [%w], %v;
	atom.shared.add.u32 %o2, [sh], %v;
	cvt.rn.f32.u32 %fv, %v;
	mul.f32 %fv, %fv, 0f3DCCCCCD;
	setp.eq.u32 %p, %t, 0;
	@%p mov.b32 %fv, 0x00000005;
	atom.global.add.f32 %fo, [%w+4], %fv;
	mov.b32 %o3, %fo;
	and.b32 %o4, %t, 1;
	setp.eq.u32 %p, %o4, 0;
	mov.u32 %o4, 0;
	@%p atom.global.add.u32 %o4, [%w+8], %v;
	red.global.add.u32 [%w+12], %v;
	mul.wide.u32 %a, %t, 16;
	add.u64 %o, %o, %a;
	st.global.v4.u32 [%o], {%o1, %o2, %o3, %o4};
	ret;
}
`)
	words, _ := g.Alloc(16, 0)
	out, _ := g.Alloc(64*16, 0)
	launchK(t, p, 1, 64, words, out)
	ob, _ := g.Bytes(out, 64*16)
	wb, _ := g.Bytes(words, 16)
	var sum, shSum, even uint32 // (shared memory starts zeroed)
	var fsum float32
	for th := 0; th < 64; th++ {
		v := uint32(th*3 + 1)
		fv := float32(v) * math.Float32frombits(0x3DCCCCCD)
		if th == 0 {
			fv = 0 // a subnormal addend to a zero word: flushed
		}
		got := func(k int) uint32 { return binary.LittleEndian.Uint32(ob[16*th+4*k:]) }
		if got(0) != sum || got(1) != shSum || got(2) != math.Float32bits(fsum) {
			t.Fatalf("thread %d: old values %d, %d, %#x; want %d, %d, %#x", th, got(0), got(1), got(2), sum, shSum, math.Float32bits(fsum))
		}
		wantEven := uint32(0)
		if th%2 == 0 {
			wantEven = even
			even += v
		}
		if got(3) != wantEven {
			t.Fatalf("thread %d: guarded add's old value %d, want %d", th, got(3), wantEven)
		}
		sum += v
		shSum += v
		fsum += fv
	}
	if w := binary.LittleEndian.Uint32(wb); w != sum {
		t.Errorf("u32 word %d, want %d", w, sum)
	}
	if w := binary.LittleEndian.Uint32(wb[4:]); w != math.Float32bits(fsum) {
		t.Errorf("f32 word %#x, want %#x", w, math.Float32bits(fsum))
	}
	if w := binary.LittleEndian.Uint32(wb[8:]); w != even {
		t.Errorf("guarded word %d, want %d", w, even)
	}
	if w := binary.LittleEndian.Uint32(wb[12:]); w != sum {
		t.Errorf("red word %d, want %d", w, sum)
	}
}

// TestAtomWordOps: atom.max/.min (.u32, .s32), .cas, .and, .or, .xor,
// .exch, .inc and .dec on 32-bit global and shared words, four words per
// op (threads on all four, then every thread on the first: one step for
// a warp's lanes, foldWord), 64 threads in thread order: the old values
// and the words at the end against the same updates in Go.
func TestAtomWordOps(t *testing.T) {
	for _, kmask := range []int{3, 0} {
		atomWordOps(t, kmask)
	}
}

// atomWordOps is TestAtomWordOps with thread t on word t&kmask of its op's
// four.
func atomWordOps(t *testing.T, kmask int) {
	ops := []string{"max.u32", "min.s32", "max.s32", "min.u32", "cas.b32", "and.b32", "or.b32", "xor.b32", "exch.b32", "inc.u32", "dec.u32"}
	nw := 4 * len(ops) // words per space
	var b strings.Builder
	fmt.Fprintf(&b, `.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 words, .param .u64 out) {
	.reg .u32 %%t, %%v, %%k, %%c, %%n, %%o, %%s, %%lim;
	.reg .u64 %%w, %%out, %%a, %%wa, %%sa, %%oa;
	.reg .pred %%p;
	.shared .align 4 .b32 sh[%d];
	ld.param.u64 %%w, [words];
	ld.param.u64 %%out, [out];
	mov.u32 %%t, %%tid.x;
	mul.lo.u32 %%v, %%t, 0x9e3779b9;
	xor.b32 %%v, %%v, 0x5bd1e995;
	and.b32 %%k, %%t, %d;
	mul.wide.u32 %%a, %%k, 4;
	add.u64 %%wa, %%w, %%a;
	mov.u64 %%sa, sh;
	add.u64 %%sa, %%sa, %%a;
	and.b32 %%c, %%v, 3;
	shr.b32 %%n, %%v, 2;
	and.b32 %%n, %%n, 3;
	and.b32 %%lim, %%v, 15;
	mul.wide.u32 %%oa, %%t, %d;
	add.u64 %%oa, %%out, %%oa;
`, nw, kmask, 8*len(ops))
	for s, space := range []string{"global", "shared"} {
		for j, op := range ops {
			addr := fmt.Sprintf("[%%wa+%d]", 16*j)
			if space == "shared" {
				addr = fmt.Sprintf("[%%sa+%d]", 16*j)
			}
			switch {
			case op == "cas.b32":
				fmt.Fprintf(&b, "\tatom.%s.%s %%o, %s, %%c, %%n;\n", space, op, addr)
			case op == "inc.u32" || op == "dec.u32":
				fmt.Fprintf(&b, "\tatom.%s.%s %%o, %s, %%lim;\n", space, op, addr)
			default:
				fmt.Fprintf(&b, "\tatom.%s.%s %%o, %s, %%v;\n", space, op, addr)
			}
			fmt.Fprintf(&b, "\tst.global.u32 [%%oa+%d], %%o;\n", 4*(s*len(ops)+j))
		}
	}
	fmt.Fprintf(&b, `	bar.sync 0;
	setp.ge.u32 %%p, %%t, %d;
	@%%p ret;
	mul.wide.u32 %%a, %%t, 4;
	mov.u64 %%sa, sh;
	add.u64 %%sa, %%sa, %%a;
	ld.shared.u32 %%s, [%%sa];
	add.u64 %%oa, %%out, %%a;
	st.global.u32 [%%oa+%d], %%s;
	ret;
}
`, nw, 64*8*len(ops))
	p, g := load(t, b.String())
	words, _ := g.Alloc(uint64(4*nw), 0)
	outSize := uint64(64*8*len(ops) + 4*nw)
	out, _ := g.Alloc(outSize, 0)
	wb, _ := g.Bytes(words, uint64(4*nw))
	want := [2][]uint32{make([]uint32, nw), make([]uint32, nw)} // global, shared (zeroed)
	for i := range nw {
		w := uint32(i*0x2468ace1) ^ 0x13579bdf
		if ops[i/4] == "cas.b32" || ops[i/4] == "inc.u32" || ops[i/4] == "dec.u32" {
			w = uint32(i % 4) // small words: compare-and-swap, wrapping counters
		}
		binary.LittleEndian.PutUint32(wb[4*i:], w)
		want[0][i] = w
	}
	launchK(t, p, 1, 64, words, out)
	ob, _ := g.Bytes(out, outSize)
	for th := range 64 {
		v := uint32(th)*0x9e3779b9 ^ 0x5bd1e995
		k := th & kmask
		c, n, lim := v&3, v>>2&3, v&15
		for s := range 2 {
			for j, op := range ops {
				w := &want[s][4*j+k]
				old := *w
				switch op {
				case "max.u32":
					*w = max(*w, v)
				case "min.s32":
					*w = uint32(min(int32(*w), int32(v)))
				case "max.s32":
					*w = uint32(max(int32(*w), int32(v)))
				case "min.u32":
					*w = min(*w, v)
				case "cas.b32":
					if *w == c {
						*w = n
					}
				case "and.b32":
					*w &= v
				case "or.b32":
					*w |= v
				case "xor.b32":
					*w ^= v
				case "exch.b32":
					*w = v
				case "inc.u32":
					if *w >= lim {
						*w = 0
					} else {
						*w++
					}
				case "dec.u32":
					if *w == 0 || *w > lim {
						*w = lim
					} else {
						*w--
					}
				}
				if got := binary.LittleEndian.Uint32(ob[8*len(ops)*th+4*(s*len(ops)+j):]); got != old {
					t.Fatalf("words %#x: thread %d, %s atom.%s: old value %#x, want %#x", kmask, th, []string{"global", "shared"}[s], op, got, old)
				}
			}
		}
	}
	for i := range nw {
		if got := binary.LittleEndian.Uint32(wb[4*i:]); got != want[0][i] {
			t.Errorf("words %#x: global word %d (%s): %#x, want %#x", kmask, i, ops[i/4], got, want[0][i])
		}
		if got := binary.LittleEndian.Uint32(ob[64*8*len(ops)+4*i:]); got != want[1][i] {
			t.Errorf("words %#x: shared word %d (%s): %#x, want %#x", kmask, i, ops[i/4], got, want[1][i])
		}
	}
}

// TestAtomicSharedAddLanes: a warp's atom.shared.add.s32 to 16 words, two
// lanes a word (addSharedInt32Lanes): each lane's old value, sign-extended
// (.s32), is its word's running total in lane and warp order, and the
// words end at their sums; with the old values unread, the same sums. A
// lane past the CTA's shared memory faults, naming that thread, with the
// lanes before it done.
func TestAtomicSharedAddLanes(t *testing.T) {
	const src = `.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 bad) {
	.reg .u32 %t, %v, %bin, %o, %x, %bad;
	.reg .u64 %out, %a, %hb;
	.reg .pred %p;
	.shared .align 4 .b32 h[16];
	ld.param.u64 %out, [out];
	ld.param.u32 %bad, [bad];
	mov.u32 %t, %tid.x;
	mul.lo.u32 %bin, %t, 7;
	and.b32 %bin, %bin, 15;
	setp.eq.u32 %p, %t, %bad;
	@%p mov.u32 %bin, 1000;
	shl.b32 %bin, %bin, 2;
	mov.u64 %hb, h;
	cvt.u64.u32 %a, %bin;
	add.u64 %a, %hb, %a;
	mul.lo.u32 %v, %t, 5;
	sub.s32 %v, 100, %v;
	ATOM
	mul.wide.u32 %a, %t, 4;
	add.u64 %a, %out, %a;
	st.global.u32 [%a], %o;
	bar.sync 0;
	setp.ge.u32 %p, %t, 16;
	@%p bra Done;
	shl.b32 %bin, %t, 2;
	cvt.u64.u32 %a, %bin;
	add.u64 %a, %hb, %a;
	ld.shared.u32 %o, [%a];
	mul.wide.u32 %a, %t, 4;
	add.u64 %a, %out, %a;
	st.global.u32 [%a+256], %o;
Done:
	ret;
}
`
	for _, read := range []bool{true, false} {
		atom := "atom.shared.add.s32 %o, [%a], %v;"
		if !read {
			atom = "atom.shared.add.s32 %x, [%a], %v;\n\tmov.u32 %o, 0;" // (%x: read by nothing)
		}
		p, g := load(t, strings.Replace(src, "ATOM", atom, 1))
		out, _ := g.Alloc(4*80, 0)
		launchK(t, p, 1, 64, out, 1<<20)
		ob, _ := g.Bytes(out, 4*80)
		var h [16]int32
		for th := range 64 {
			bin, v := th*7&15, int32(100-5*th)
			if got := int32(binary.LittleEndian.Uint32(ob[4*th:])); read && got != h[bin] || !read && got != 0 {
				t.Fatalf("read %v: thread %d's old value %d, want %d", read, th, got, h[bin])
			}
			h[bin] += v
		}
		for b := range 16 {
			if got := int32(binary.LittleEndian.Uint32(ob[256+4*b:])); got != h[b] {
				t.Fatalf("read %v: word %d = %d, want %d", read, b, got, h[b])
			}
		}
	}
	// thread 37 (warp 1, lane 5) adds past the 64 bytes of h
	p, g := load(t, strings.Replace(src, "ATOM", "atom.shared.add.s32 %o, [%a], %v;", 1))
	out, _ := g.Alloc(4*80, 0)
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1},
		Params: params(p.Kernels["k"], out, 37), Workers: 1})
	var f *Fault
	if !errors.As(err, &f) || f.Thread != [3]int{37, 0, 0} || f.Space != "shared" {
		t.Fatalf("got %v, want a shared-memory fault in thread 37", err)
	}
}

// TestAtomicsAtVariables: atomics at a variable's address alone
// ([s_max], [g_count]: no address register) reach their window as those
// through a register do: a block's shared max, min, or, xor, inc and add
// at single words, every lane or the lanes of a guard, old values unread
// (folded into one step per warp) and read (lane by lane), and a module
// .global counter; the results match Go's, over 3 CTAs of 96 threads.
func TestAtomicsAtVariables(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.global .align 4 .u32 g_count;
.visible .entry k(.param .u64 x, .param .u64 out)
{
	.shared .align 4 .u32 s_max;
	.shared .align 4 .u32 s_min;
	.shared .align 4 .u32 s_or;
	.shared .align 4 .u32 s_xor;
	.shared .align 4 .u32 s_inc;
	.shared .align 4 .u32 s_add;
	.shared .align 4 .u32 s_seen;
	.reg .pred %p<4>;
	.reg .b32 %r<24>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra Wait;
	st.shared.u32 [s_max], 0;
	st.shared.u32 [s_min], -1;
	st.shared.u32 [s_or], 0;
	st.shared.u32 [s_xor], 0;
	st.shared.u32 [s_inc], 0;
	st.shared.u32 [s_add], 0;
	st.shared.u32 [s_seen], 0;
Wait:
	bar.sync 0;
	mad.lo.u32 %r3, %r2, 96, %r1;
	mul.wide.u32 %rd3, %r3, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r4, [%rd4];
	atom.shared.max.u32 %r5, [s_max], %r4;
	atom.shared.min.u32 %r6, [s_min], %r4;
	and.b32 %r20, %r4, 31;
	shl.b32 %r7, 1, %r20;                   // (one bit a lane: the or does not fill up)
	atom.shared.or.b32 %r8, [s_or], %r7;
	atom.shared.xor.b32 %r9, [s_xor], %r4;
	atom.shared.inc.u32 %r10, [s_inc], 7;
	setp.gt.u32 %p2, %r4, 0x80000000;
	@%p2 atom.shared.add.u32 %r11, [s_add], 1;
	atom.shared.add.u32 %r12, [s_seen], 1;   // (read: each thread's own ticket)
	atom.global.add.u32 %r13, [g_count], 3;
	bar.sync 0;
	add.s64 %rd5, %rd2, %rd3;
	st.global.u32 [%rd5+1152], %r12;        // (the tickets, past the CTAs' words)
	@%p1 bra Done;
	mul.wide.u32 %rd6, %r2, 24;
	add.s64 %rd7, %rd2, %rd6;
	ld.shared.u32 %r14, [s_max];
	ld.shared.u32 %r15, [s_min];
	ld.shared.u32 %r16, [s_or];
	ld.shared.u32 %r17, [s_xor];
	ld.shared.u32 %r18, [s_inc];
	ld.shared.u32 %r19, [s_add];
	st.global.v2.u32 [%rd7], {%r14, %r15};
	st.global.v2.u32 [%rd7+8], {%r16, %r17};
	st.global.v2.u32 [%rd7+16], {%r18, %r19};
Done:
	ret;
}`
	const ctas, block = 3, 96
	p, g := load(t, src)
	r := rand.New(rand.NewPCG(3, 9))
	vals := make([]uint32, ctas*block)
	xb := make([]byte, 4*len(vals))
	for i := range vals {
		vals[i] = r.Uint32()
		binary.LittleEndian.PutUint32(xb[4*i:], vals[i])
	}
	x, _ := g.Alloc(uint64(len(xb)), 0)
	xm, _ := g.Bytes(x, uint64(len(xb)))
	copy(xm, xb)
	out, _ := g.Alloc(1152+4*ctas*block, 0)
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{ctas, 1, 1}, Block: [3]int{block, 1, 1},
		Params: params(p.Kernels["k"], x, out), Workers: 1}); err != nil {
		t.Fatal(err)
	}
	ob, _ := g.Bytes(out, 1152+4*ctas*block)
	for c := range ctas {
		mx, mn, or, xor, inc, add := uint32(0), ^uint32(0), uint32(0), uint32(0), uint32(0), uint32(0)
		tickets := map[uint32]bool{}
		for _, v := range vals[c*block : (c+1)*block] {
			mx, mn, or, xor = max(mx, v), min(mn, v), or|1<<(v&31), xor^v
			if inc >= 7 { // (9.7.13.5: atom.inc wraps to 0 at the limit)
				inc = 0
			} else {
				inc++
			}
			if v > 0x80000000 {
				add++
			}
		}
		for i := range block {
			tickets[binary.LittleEndian.Uint32(ob[1152+4*(c*block+i):])] = true
		}
		got := make([]uint32, 6)
		for k := range got {
			got[k] = binary.LittleEndian.Uint32(ob[24*c+4*k:])
		}
		if want := []uint32{mx, mn, or, xor, inc, add}; !slices.Equal(got, want) {
			t.Errorf("CTA %d: max, min, or, xor, inc, add = %#x, want %#x", c, got, want)
		}
		for i := range uint32(block) {
			if !tickets[i] {
				t.Errorf("CTA %d: no thread got ticket %d", c, i)
			}
		}
	}
	gv := p.varAddr[p.Module.Vars[0]]
	gb, _ := g.Bytes(gv, 4)
	if c := binary.LittleEndian.Uint32(gb); c != 3*ctas*block {
		t.Errorf("g_count = %d, want %d", c, 3*ctas*block)
	}
}
