package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// The warp-wide ld/st paths (warpWindow, loadWarp, storeWarp and the
// uniform-address load) must give the per-lane results and faults.

const warpMemKernel = `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 y, .param .u64 z, .param .u32 stride)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<12>;
	.reg .f32 %f<4>;
	.shared .align 8 .b8 sh[2048];
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [y];
	ld.param.u64 %rd9, [z];
	ld.param.u32 %r5, [stride];
	mul.lo.u32 %r6, %r1, %r5;        // lane * stride: the access pattern
	mul.wide.u32 %rd3, %r6, 4;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	ld.global.s32 %r2, [%rd4];       // sign-extending 4-byte load
	ld.global.u32 %r3, [%rd5];       // from the other buffer: the warp's cache moves
	ld.global.u32 %r7, [%rd2+4];     // a uniform address
	add.s32 %r4, %r2, %r3;
	add.s32 %r4, %r4, %r7;
	mov.u64 %rd6, sh;
	mul.wide.u32 %rd7, %r1, 8;
	add.s64 %rd10, %rd6, %rd7;
	cvt.s64.s32 %rd11, %r4;
	st.shared.u64 [%rd10], %rd11;
	bar.sync 0;
	xor.b32 %r0, %r1, 31;             // read another lane's shared slot
	mul.wide.u32 %rd7, %r0, 8;
	add.s64 %rd10, %rd6, %rd7;
	ld.shared.u64 %rd11, [%rd10];
	st.global.u32 [%rd5], %r4;
	mul.wide.u32 %rd7, %r1, 8;
	add.s64 %rd10, %rd9, %rd7;
	st.global.u64 [%rd10], %rd11;
	ret;
}
`

func TestWarpMemoryPaths(t *testing.T) {
	p, g := load(t, warpMemKernel)
	const n = 64
	x, _ := g.Alloc(4*n*2, 0)
	y, _ := g.Alloc(4*n*2, 0)
	z, _ := g.Alloc(8*n, 0)
	xs, ys := make([]byte, 4*n*2), make([]byte, 4*n*2)
	for i := 0; i < n*2; i++ {
		binary.LittleEndian.PutUint32(xs[4*i:], uint32(-1000+i*7))
		binary.LittleEndian.PutUint32(ys[4*i:], uint32(5*i+1))
	}
	for _, stride := range []uint32{1, 2} { // contiguous and strided lanes
		bx, _ := g.Bytes(x, 4*n*2)
		by, _ := g.Bytes(y, 4*n*2)
		copy(bx, xs)
		copy(by, ys)
		cfg := LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{n, 1, 1}, Params: params(p.Kernels["k"], x, y, z, uint64(stride)), Workers: 1}
		if err := p.Launch(context.Background(), "k", cfg); err != nil {
			t.Fatal(err)
		}
		gotY, _ := g.Bytes(y, 4*n*2)
		gotZ, _ := g.Bytes(z, 8*n)
		sum := func(tid int) int32 {
			i := tid * int(stride)
			return int32(-1000+i*7) + int32(5*i+1) + 6 // y[1] = 6
		}
		for tid := 0; tid < n; tid++ {
			i := tid * int(stride)
			if got := int32(binary.LittleEndian.Uint32(gotY[4*i:])); got != sum(tid) {
				t.Fatalf("stride %d thread %d: y = %d, want %d", stride, tid, got, sum(tid))
			}
			// the slot of the thread whose tid differs in the low 5 bits
			other := tid ^ 31
			if got := int64(binary.LittleEndian.Uint64(gotZ[8*tid:])); got != int64(sum(other)) {
				t.Fatalf("stride %d thread %d: z = %d, want %d", stride, tid, got, sum(other))
			}
		}
	}
}

// TestWarpMemoryFaults: a full warp whose lane 17 is out of bounds or
// misaligned faults at that lane, as the per-lane path reports it.
func TestWarpMemoryFaults(t *testing.T) {
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
	st.global.u32 [%rd3], %r1;
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
		cfg := LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Params: params(p.Kernels["k"], x, c.bad, 17), Workers: 1}
		err := p.Launch(context.Background(), "k", cfg)
		var f *Fault
		if !errors.As(err, &f) || f.Kind != c.kind || f.Thread != [3]int{17, 0, 0} || f.Addr != x+17*4+c.bad {
			t.Fatalf("%s: got %v, want a %v fault at thread 17, address %#x", c.name, err, c.kind, x+17*4+c.bad)
		}
	}
	// a load into its own address register, lane 17 out of bounds: the
	// fault names the address the lane computed, not a loaded value
	pa, ga := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 bad)
{
	.reg .pred %p;
	.reg .b32 %r<4>;
	.reg .b64 %rd<6>;
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [x];
	mul.wide.u32 %rd2, %r1, 8;
	add.s64 %rd3, %rd1, %rd2;
	setp.eq.u32 %p, %r1, 17;
	ld.param.u64 %rd4, [bad];
	@%p add.s64 %rd3, %rd3, %rd4;
	ld.global.u64 %rd3, [%rd3];
	ret;
}
`)
	xa, _ := ga.Alloc(8*32, 0)
	for _, bad := range []uint64{8 * 32, 4} {
		err := pa.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Params: params(pa.Kernels["k"], xa, bad), Workers: 1})
		var f *Fault
		if !errors.As(err, &f) || f.Thread != [3]int{17, 0, 0} || f.Addr != xa+17*8+bad {
			t.Fatalf("aliased load, offset %d: got %v, want a fault at thread 17, address %#x", bad, err, xa+17*8+bad)
		}
	}
	// a uniform address out of bounds faults at the first lane
	p2, g2 := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 x)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [x];
	ld.global.u32 %r1, [%rd1+4096];
	ret;
}
`)
	x2, _ := g2.Alloc(16, 0)
	err := p2.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Params: params(p2.Kernels["k"], x2), Workers: 1})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultOutOfBounds || f.Thread != [3]int{0, 0, 0} || f.Addr != x2+4096 {
		t.Fatalf("uniform load: got %v, want an out-of-bounds fault at thread 0, address %#x", err, x2+4096)
	}
}

// TestWarpVectorMemory: full-warp ld/st of .v2/.v4 vectors give every
// lane its own elements, sink elements are skipped, and a lane whose
// vector is misaligned or runs past the allocation faults there.
func TestWarpVectorMemory(t *testing.T) {
	p, g := load(t, `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 y, .param .u64 bad)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	.reg .pred %p;
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [y];
	mul.wide.u32 %rd3, %r1, 16;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	setp.eq.u32 %p, %r1, 9;
	ld.param.u64 %rd9, [bad];
	@%p add.s64 %rd4, %rd4, %rd9;      // lane 9 may be moved off
	ld.global.v4.u32 {%r2, %r3, _, %r5}, [%rd4];
	ld.global.v2.u64 {%rd6, %rd7}, [%rd4];
	add.u32 %r2, %r2, %r5;
	st.global.v4.u32 [%rd5], {%r5, %r3, %r2, 7};
	add.s64 %rd5, %rd5, 512;
	st.global.v2.u64 [%rd5], {%rd7, %rd6};
	ret;
}
`)
	const n = 32
	x, _ := g.Alloc(16*n, 0)
	y, _ := g.Alloc(16*n*2, 0)
	bx, _ := g.Bytes(x, 16*n)
	for i := 0; i < 4*n; i++ {
		binary.LittleEndian.PutUint32(bx[4*i:], uint32(1000+i))
	}
	cfg := LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{n, 1, 1}, Params: params(p.Kernels["k"], x, y, 0), Workers: 1}
	if err := p.Launch(context.Background(), "k", cfg); err != nil {
		t.Fatal(err)
	}
	by, _ := g.Bytes(y, 16*n*2)
	for l := 0; l < n; l++ {
		e := func(k int) uint32 { return uint32(1000 + 4*l + k) } // lane l's element k
		want := []uint32{e(3), e(1), e(0) + e(3), 7}
		for k, w := range want {
			if got := binary.LittleEndian.Uint32(by[16*l+4*k:]); got != w {
				t.Fatalf("lane %d: v4 element %d = %d, want %d", l, k, got, w)
			}
		}
		lo := uint64(e(0)) | uint64(e(1))<<32
		hi := uint64(e(2)) | uint64(e(3))<<32
		if got := binary.LittleEndian.Uint64(by[512+16*l:]); got != hi {
			t.Fatalf("lane %d: v2.u64 element 0 = %#x, want %#x", l, got, hi)
		}
		if got := binary.LittleEndian.Uint64(by[512+16*l+8:]); got != lo {
			t.Fatalf("lane %d: v2.u64 element 1 = %#x, want %#x", l, got, lo)
		}
	}
	for _, c := range []struct {
		bad  uint64
		kind FaultKind
	}{{8, FaultMisaligned}, {16 * n, FaultOutOfBounds}} {
		cfg.Params = params(p.Kernels["k"], x, y, c.bad)
		err := p.Launch(context.Background(), "k", cfg)
		var f *Fault
		if !errors.As(err, &f) || f.Kind != c.kind || f.Thread != [3]int{9, 0, 0} || f.Addr != x+9*16+c.bad {
			t.Fatalf("offset %d: got %v, want a %v fault at thread 9, address %#x", c.bad, err, c.kind, x+9*16+c.bad)
		}
	}
}

// maskedKernel: the odd lanes (a divergent branch) load x[lane*stride]
// (.s16, .u32 and .u64 elements at the same index) and store their sum at
// y[lane*stride] as .u32 and .b16; the even lanes do nothing.
const maskedKernel = `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 y, .param .u32 stride)
{
	.reg .b32 %r<8>;
	.reg .b16 %h;
	.reg .b64 %rd<12>;
	.reg .pred %p;
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 1;
	setp.eq.u32 %p, %r2, 0;
	@%p bra Done;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [y];
	ld.param.u32 %r5, [stride];
	mul.lo.u32 %r6, %r1, %r5;
	mul.wide.u32 %rd3, %r6, 8;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.s16 %r3, [%rd4];
	ld.global.u32 %r4, [%rd4];
	ld.global.u64 %rd5, [%rd4];
	cvt.u32.u64 %r7, %rd5;
	add.s32 %r3, %r3, %r4;
	add.s32 %r3, %r3, %r7;
	add.s64 %rd6, %rd2, %rd3;
	st.global.u32 [%rd6], %r3;
	cvt.u16.u32 %h, %r3;
	st.global.b16 [%rd6+4], %h;
Done:
	ret;
}
`

// TestMaskedLoadStore: loads and stores of some lanes (maskWindow, on the
// warp engine) give each lane its element, sign-extended or not, and
// leave the others' memory alone; a lane past the buffer faults at its
// own address.
func TestMaskedLoadStore(t *testing.T) {
	setFlag(t, &batchEnabled, false)
	p, g := load(t, maskedKernel)
	k := p.Kernels["k"]
	run := func(stride, xWords uint64) (uint64, []byte, []byte, error) {
		x, _ := g.Alloc(8*xWords, 0)
		y, _ := g.Alloc(8*32*stride, 0)
		xb, _ := g.Bytes(x, 8*xWords)
		yb, _ := g.Bytes(y, 8*32*stride)
		for i := range xWords {
			binary.LittleEndian.PutUint64(xb[8*i:], 0x1_0000_0000*(i+1)+0xfff0+i) // low half: a negative s16
		}
		for i := range yb {
			yb[i] = 0xee
		}
		err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
			Params: params(k, x, y, stride), Workers: 1})
		return x, xb, yb, err
	}
	for _, stride := range []uint64{1, 3} {
		_, xb, yb, err := run(stride, 32*stride)
		if err != nil {
			t.Fatal(err)
		}
		for lane := range uint64(32) {
			at := 8 * lane * stride
			got32, got16 := binary.LittleEndian.Uint32(yb[at:]), binary.LittleEndian.Uint16(yb[at+4:])
			if lane%2 == 0 {
				if got32 != 0xeeeeeeee || got16 != 0xeeee {
					t.Errorf("stride %d: even lane %d wrote %#x %#x", stride, lane, got32, got16)
				}
				continue
			}
			v := binary.LittleEndian.Uint64(xb[at:])
			want := uint32(int32(int16(v))) + uint32(v) + uint32(v)
			if got32 != want || got16 != uint16(want) || yb[at+6] != 0xee || yb[at+7] != 0xee {
				t.Errorf("stride %d: lane %d stored % x, want %#x %#x and two bytes left alone", stride, lane, yb[at:at+8], want, uint16(want))
			}
		}
	}
	// x holds 20 elements: lane 21 is the first odd lane past them
	x, _, _, err := run(1, 20)
	var f *Fault
	if !errors.As(err, &f) || f.Addr != x+8*21 {
		t.Fatalf("err = %v, want a fault at %#x", err, x+8*21)
	}
}

// TestParamVectorMisaligned: a vector load of kernel parameters at an
// address its size does not divide faults as misaligned in the .param
// space (it panicked naming the engine's own space).
func TestParamVectorMisaligned(t *testing.T) {
	p, _ := load(t, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 y) {
	.reg .u32 %w, %w2;
	ld.param.v2.u32 {%w, %w2}, [y+4];
	ret;
}
`)
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
		Params: params(p.Kernels["k"], 1, 2), Workers: 1})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultMisaligned || f.Space != mem.SpaceParam.String() {
		t.Fatalf("err = %v, want a misaligned access in .param", err)
	}
}

// TestConstTableLookups: per-lane loads from a constant table at
// addresses in registers (a CRC's c_crc[(c ^ b) & 0xff]), of every width,
// signed and not, for the whole warp and for some lanes, against the
// table's bytes; and a lookup past the bank faults.
func TestConstTableLookups(t *testing.T) {
	var table [64]byte
	for i := range table {
		table[i] = byte(i*37 + 11)
	}
	init := make([]string, len(table))
	for i, b := range table {
		init[i] = strconv.Itoa(int(b))
	}
	src := `.version 7.8
.target sm_90
.address_size 64
.const .align 8 .b8 tab[64] = {` + strings.Join(init, ", ") + `};
.visible .entry k(.param .u64 out, .param .u32 past) {
	.reg .u32 %t, %i, %m, %past, %w4, %s4;
	.reg .b16 %h2, %g2, %b1, %c1;
	.reg .u64 %o, %a, %tb, %w8, %x;
	.reg .pred %p;
	ld.param.u64 %o, [out];
	ld.param.u32 %past, [past];
	mov.u32 %t, %tid.x;
	mul.lo.u32 %i, %t, 7;
	and.b32 %m, %i, 56; // an 8-aligned offset below 64
	add.u32 %m, %m, %past;
	mov.u64 %tb, tab;
	cvt.u64.u32 %a, %m;
	add.u64 %a, %tb, %a;
	ld.const.u64 %w8, [%a];
	ld.const.u32 %w4, [%a+4];
	ld.const.s32 %s4, [%a];
	ld.const.u16 %h2, [%a+2];
	ld.const.s16 %g2, [%a+6];
	ld.const.u8 %b1, [%a+1];
	ld.const.s8 %c1, [%a+7];
	setp.lt.u32 %p, %t, 5; // a few lanes: the masked path
	@%p ld.const.u32 %w4, [%a];
	mul.wide.u32 %x, %t, 32;
	add.u64 %o, %o, %x;
	st.global.u64 [%o], %w8;
	st.global.u32 [%o+8], %w4;
	st.global.u32 [%o+12], %s4;
	st.global.u16 [%o+16], %h2;
	st.global.u16 [%o+18], %g2;
	st.global.u16 [%o+20], %b1;
	st.global.u16 [%o+22], %c1;
	ret;
}
`
	for _, batch := range []bool{true, false} { // (the batch engine's lookups, the warp engine's)
		setFlag(t, &batchEnabled, batch)
		constLookups(t, src, table[:])
	}
	p, g := load(t, src)
	out, _ := g.Alloc(32*32, 0)
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
		Params: params(p.Kernels["k"], out, uint64(64)), Workers: 1})
	if err == nil || !strings.Contains(err.Error(), "out of bounds") {
		t.Fatalf("a lookup past the bank: error %v", err)
	}
}

// constLookups runs TestConstTableLookups's kernel and checks its output.
func constLookups(t *testing.T, src string, table []byte) {
	t.Helper()
	p, g := load(t, src)
	out, _ := g.Alloc(32*32, 0)
	launchK(t, p, 1, 32, out, uint64(0))
	ob, _ := g.Bytes(out, 32*32)
	le := binary.LittleEndian
	for th := range 32 {
		m := th * 7 & 56
		r := ob[32*th:]
		w4 := le.Uint32(table[m+4:])
		if th < 5 {
			w4 = le.Uint32(table[m:])
		}
		want := []uint64{le.Uint64(table[m:]), uint64(w4), uint64(le.Uint32(table[m:])),
			uint64(le.Uint16(table[m+2:])), uint64(le.Uint16(table[m+6:])), uint64(table[m+1]), uint64(uint16(int8(table[m+7])))}
		got := []uint64{le.Uint64(r), uint64(le.Uint32(r[8:])), uint64(le.Uint32(r[12:])),
			uint64(le.Uint16(r[16:])), uint64(le.Uint16(r[18:])), uint64(le.Uint16(r[20:])), uint64(le.Uint16(r[22:]))}
		for k := range want {
			if got[k] != want[k] {
				t.Fatalf("batches %v, thread %d, load %d: %#x, want %#x", batchEnabled, th, k, got[k], want[k])
			}
		}
	}
}

// TestGenericLocalAccesses: generic ld/st at local addresses (clang's
// cvta.local %SP for a per-thread array indexed at run time), 4 and 8
// bytes, every lane and some lanes, and a generic load whose lanes address
// local memory and global memory by turns, against values computed here.
func TestGenericLocalAccesses(t *testing.T) {
	p, g := load(t, `.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 glob) {
	.local .align 8 .b8 depot[64];
	.reg .u32 %t, %k, %v, %i, %r<6>;
	.reg .u64 %SP, %SPL, %a, %o, %gl, %x, %w, %mix;
	.reg .pred %p, %q;
	ld.param.u64 %o, [out];
	ld.param.u64 %gl, [glob];
	mov.u64 %SPL, depot;
	cvta.local.u64 %SP, %SPL;
	mov.u32 %t, %tid.x;
	mov.u32 %k, 0;
L:
	mad.lo.u32 %v, %t, 16, %k;
	mul.wide.u32 %a, %k, 4;
	add.u64 %a, %SP, %a;
	st.u32 [%a], %v;
	add.u32 %k, %k, 1;
	setp.lt.u32 %p, %k, 8;
	@%p bra L;
	setp.lt.u32 %q, %t, 5;
	and.b32 %i, %t, 7;
	mul.wide.u32 %a, %i, 4;
	add.u64 %a, %SP, %a;
	mov.u32 %v, 99;
	@%q st.u32 [%a], %v; // some lanes
	add.u32 %i, %t, 3;
	and.b32 %i, %i, 7;
	mul.wide.u32 %a, %i, 4;
	add.u64 %a, %SP, %a;
	ld.u32 %r1, [%a];
	@%q ld.u32 %r2, [%SP+4];
	cvt.u64.u32 %w, %t;
	shl.b64 %w, %w, 40;
	or.b64 %w, %w, 7;
	st.u64 [%SP+32], %w;
	ld.u64 %x, [%SP+32];
	cvt.u32.u64 %r3, %x;
	shr.u64 %x, %x, 40;
	cvt.u32.u64 %r4, %x;
	and.b32 %i, %t, 1;
	setp.eq.u32 %p, %i, 0;
	mul.wide.u32 %a, %t, 4;
	add.u64 %mix, %gl, %a; // odd lanes: global memory
	@%p add.u64 %mix, %SP, 8; // even lanes: local depot[2]
	ld.u32 %r5, [%mix];
	mul.wide.u32 %a, %t, 24;
	add.u64 %o, %o, %a;
	st.global.u32 [%o], %r1;
	st.global.u32 [%o+4], %r2;
	st.global.u32 [%o+8], %r3;
	st.global.u32 [%o+12], %r4;
	st.global.u32 [%o+16], %r5;
	ret;
}
`)
	out, _ := g.Alloc(32*24, 0)
	glob, _ := g.Alloc(32*4, 0)
	gb, _ := g.Bytes(glob, 32*4)
	for i := range 32 {
		binary.LittleEndian.PutUint32(gb[4*i:], uint32(1000+i))
	}
	launchK(t, p, 1, 32, out, glob)
	ob, _ := g.Bytes(out, 32*24)
	for th := range 32 {
		arr := make([]uint32, 8)
		for k := range arr {
			arr[k] = uint32(th*16 + k)
		}
		if th < 5 {
			arr[th&7] = 99
		}
		want := []uint32{arr[(th+3)&7], 0, 7, uint32(th), uint32(1000 + th)}
		if th < 5 {
			want[1] = arr[1]
		}
		if th%2 == 0 {
			want[4] = arr[2]
		}
		for k, w := range want {
			if got := binary.LittleEndian.Uint32(ob[24*th+4*k:]); got != w {
				t.Fatalf("thread %d, value %d: %d, want %d", th, k, got, w)
			}
		}
	}
}

// TestGenericGlobalWindow: generic ld/st through pointers read from
// memory (an array of row pointers), every lane and some lanes, where the
// lanes' pointers are global, or global and shared by turns (the global
// window cannot take those), against values computed here.
func TestGenericGlobalWindow(t *testing.T) {
	p, g := load(t, `.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 ptrs, .param .u64 out, .param .u32 mixed) {
	.shared .align 4 .b32 sh[33];
	.reg .u32 %t, %v, %r<4>, %mixed, %i;
	.reg .u64 %pp, %o, %a, %p, %s;
	.reg .pred %q, %m;
	ld.param.u64 %pp, [ptrs];
	ld.param.u64 %o, [out];
	ld.param.u32 %mixed, [mixed];
	mov.u32 %t, %tid.x;
	mul.wide.u32 %a, %t, 8;
	add.u64 %a, %pp, %a;
	ld.global.u64 %p, [%a]; // a global pointer per lane
	and.b32 %i, %t, 1;
	setp.ne.u32 %m, %i, 0;
	setp.ne.u32 %q, %mixed, 0;
	and.pred %m, %m, %q;
	mov.u64 %s, sh;
	cvta.shared.u64 %s, %s;
	mul.wide.u32 %a, %t, 4;
	add.u64 %s, %s, %a;
	@%m mov.u64 %p, %s; // odd lanes: their shared word, when mixed
	mad.lo.u32 %v, %t, 3, 5;
	st.u32 [%p+4], %v;
	ld.u32 %r1, [%p];
	ld.u32 %r2, [%p+4];
	setp.lt.u32 %q, %t, 6;
	mov.u32 %r3, 77;
	@%q ld.u32 %r3, [%p];
	mul.wide.u32 %a, %t, 12;
	add.u64 %o, %o, %a;
	st.global.u32 [%o], %r1;
	st.global.u32 [%o+4], %r2;
	st.global.u32 [%o+8], %r3;
	ret;
}
`)
	for _, mixed := range []uint64{0, 1} {
		rows, _ := g.Alloc(32*16, 0)
		ptrs, _ := g.Alloc(32*8, 0)
		out, _ := g.Alloc(32*12, 0)
		rb, _ := g.Bytes(rows, 32*16)
		pb, _ := g.Bytes(ptrs, 32*8)
		for i := range 32 {
			binary.LittleEndian.PutUint32(rb[16*i:], uint32(500+i))
			binary.LittleEndian.PutUint64(pb[8*i:], rows+uint64(16*((i*7)%32))) // rows in another order
		}
		launchK(t, p, 1, 32, ptrs, out, mixed)
		ob, _ := g.Bytes(out, 32*12)
		for th := range 32 {
			first := uint32(500 + (th*7)%32) // the row's word
			shared := mixed == 1 && th%2 == 1
			if shared {
				first = 0 // (shared memory starts zeroed; the lane stored into the next word)
			}
			want := []uint32{first, uint32(th*3 + 5), 77}
			if th < 6 {
				want[2] = first
			}
			for k, w := range want {
				if got := binary.LittleEndian.Uint32(ob[12*th+4*k:]); got != w {
					t.Fatalf("mixed %d, thread %d, value %d: %d, want %d", mixed, th, k, got, w)
				}
			}
		}
	}
}

// TestStrongLoadsOneAddress: ld.volatile and ld.relaxed/.acquire where
// every lane reads one word (global, a global variable's address, a
// generic address of global memory; shared) give every lane that word;
// where the lanes' addresses differ, or name each lane's own local memory
// (a .local variable, a register or generic address of it), every lane
// reads its own.
func TestStrongLoadsOneAddress(t *testing.T) {
	p, g := load(t, `.version 7.8
.target sm_90
.address_size 64
.global .align 4 .u32 flag = 41;
.visible .entry k(.param .u64 buf, .param .u64 out) {
	.local .align 4 .u32 mine;
	.shared .align 4 .u32 sh;
	.reg .u32 %t, %r<12>;
	.reg .u64 %b, %o, %a, %l, %gl, %lr;
	.reg .pred %p;
	ld.param.u64 %b, [buf];
	ld.param.u64 %o, [out];
	mov.u32 %t, %tid.x;
	st.local.u32 [mine], %t;
	setp.eq.u32 %p, %t, 3;
	@%p st.shared.u32 [sh], 77;
	bar.sync 0;
	ld.volatile.global.u32 %r0, [%b];
	ld.relaxed.gpu.global.u32 %r1, [flag];
	mul.wide.u32 %a, %t, 4;
	add.u64 %a, %b, %a;
	ld.acquire.gpu.global.u32 %r2, [%a+4]; // each lane its own word
	ld.volatile.shared.u32 %r3, [sh];
	ld.volatile.local.u32 %r4, [mine]; // each lane's own
	mov.u64 %l, mine;
	cvta.local.u64 %l, %l;
	ld.volatile.u32 %r5, [%l]; // generic, each lane's own
	cvta.global.u64 %gl, %b;
	ld.volatile.u32 %r6, [%gl]; // generic, one global word
	mov.u64 %lr, mine;
	ld.volatile.local.u32 %r8, [%lr]; // a register's .local address: each lane's own
	mov.u32 %r9, 0;
	mov.u32 %r10, 0;
	mov.u32 %r11, 0;
	setp.lt.u32 %p, %t, 7;
	mov.u32 %r7, 5;
	@%p ld.volatile.global.u32 %r7, [%b]; // some lanes
	mul.wide.u32 %a, %t, 48;
	add.u64 %o, %o, %a;
	st.global.v4.u32 [%o], {%r0, %r1, %r2, %r3};
	st.global.v4.u32 [%o+16], {%r4, %r5, %r6, %r7};
	st.global.v4.u32 [%o+32], {%r8, %r9, %r10, %r11};
	ret;
}
`)
	buf, _ := g.Alloc(4*40, 0)
	bb, _ := g.Bytes(buf, 4*40)
	for i := range 40 {
		binary.LittleEndian.PutUint32(bb[4*i:], uint32(1000+i))
	}
	out, _ := g.Alloc(32*48, 0)
	launchK(t, p, 1, 32, buf, out)
	ob, _ := g.Bytes(out, 32*48)
	for th := range 32 {
		want := []uint32{1000, 41, uint32(1001 + th), 77, uint32(th), uint32(th), 1000, 5, uint32(th), 0, 0, 0}
		if th < 7 {
			want[7] = 1000
		}
		for k, w := range want {
			if got := binary.LittleEndian.Uint32(ob[48*th+4*k:]); got != w {
				t.Fatalf("thread %d, load %d: %d, want %d", th, k, got, w)
			}
		}
	}
}

// TestLanesAlternatingBuffers: each lane loads from one of two buffers
// (odd lanes b, even lanes a, at its thread index), so the per-lane path
// finds the other allocation at every other lane and keeps both
// (accessAligned's second window). Values come back right, and lane 17,
// past b's 16 elements, faults at its address though b is the window kept
// from lane 15, rather than reading the memory after it.
func TestLanesAlternatingBuffers(t *testing.T) {
	p, g := load(t, `.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 out)
{
	.reg .u32 %t, %x, %v;
	.reg .u64 %pa, %pb, %o, %y, %q;
	.reg .pred %odd;
	ld.param.u64 %pa, [a];
	ld.param.u64 %pb, [b];
	ld.param.u64 %o, [out];
	mov.u32 %t, %tid.x;
	and.b32 %x, %t, 1;
	setp.eq.u32 %odd, %x, 1;
	selp.b64 %q, %pb, %pa, %odd;
	mul.wide.u32 %y, %t, 4;
	add.u64 %q, %q, %y;
	ld.global.u32 %v, [%q];
	add.u64 %o, %o, %y;
	st.global.u32 [%o], %v;
	ret;
}`)
	a, _ := g.Alloc(64*4, 0)
	b, _ := g.Alloc(16*4, 0)
	ab, _ := g.Bytes(a, 64*4)
	bb, _ := g.Bytes(b, 16*4)
	for i := range 64 {
		binary.LittleEndian.PutUint32(ab[4*i:], uint32(1000+i))
	}
	for i := range 16 {
		binary.LittleEndian.PutUint32(bb[4*i:], uint32(2000+i))
	}
	out, _ := g.Alloc(64*4, 0)
	launchK(t, p, 1, 16, a, b, out)
	ob, _ := g.Bytes(out, 16*4)
	for i := range 16 {
		want := uint32(1000 + i)
		if i%2 == 1 {
			want = uint32(2000 + i)
		}
		if got := binary.LittleEndian.Uint32(ob[4*i:]); got != want {
			t.Fatalf("thread %d: %d, want %d", i, got, want)
		}
	}
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
		Params: params(p.Kernels["k"], a, b, out), Workers: 1})
	var f *Fault
	if !errors.As(err, &f) || f.Thread != [3]int{17, 0, 0} || f.Addr != b+17*4 {
		t.Fatalf("32 threads: %v, want a fault of thread 17 at %#x", err, b+17*4)
	}
}
