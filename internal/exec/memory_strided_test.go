package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unsafe"
)

// Full-warp ld/st whose lanes' addresses step by one stride (warpStrided)
// must store, load and fault exactly as the lane-by-lane loops do.

// TestWarpStridedCheck: warpStrided accepts a row of lane addresses
// exactly when every lane is lane 0's plus the lane times one step, every
// element aligned and inside the window, and then points at lane 0's.
func TestWarpStridedCheck(t *testing.T) {
	setFlag(t, &stridedEnabled, true)
	if !hostLittleEndian {
		t.Skip("the strided loops are for little-endian hosts")
	}
	const base = 0x1_0000_1000
	data := make([]byte, 4096)
	rng := rand.New(rand.NewSource(1))
	want := func(regs *lanes, c, n uint64) (uint64, bool) {
		for i, r := range regs {
			a := r + c
			if r != regs[0]+uint64(i)*(regs[1]-regs[0]) || a%n != 0 || a < base || a-base > uint64(len(data))-n {
				return 0, false
			}
		}
		return regs[0] + c - base, true
	}
	var w Warp
	steps := []int64{0, 1, 2, 4, 8, 12, 16, 24, 64, 128, 132, 136, 512, 4096, 1 << 40, -1 << 63}
	for try := 0; try < 20000; try++ {
		n := uint64(1) << rng.Intn(4)
		step := uint64(steps[rng.Intn(len(steps))])
		if rng.Intn(2) == 0 {
			step = -step
		}
		if rng.Intn(8) == 0 {
			step = uint64(rng.Intn(300)) - 150
		}
		start := base + uint64(rng.Intn(len(data)+200)) - 100
		if rng.Intn(4) == 0 {
			start = uint64(rng.Int63()) // far outside, or wrapping
		}
		var regs lanes
		for i := range regs {
			regs[i] = start + uint64(i)*step
		}
		switch rng.Intn(4) {
		case 0: // one lane off the progression
			regs[rng.Intn(warpSize)] += uint64(rng.Intn(17)) - 8
		case 1: // a lane bit flipped high up
			regs[rng.Intn(warpSize)] ^= 1 << (32 + rng.Intn(32))
		}
		c := uint64(rng.Intn(33)) - 16
		o := &Op{addrConst: c}
		p, ok := w.warpStrided(o, &regs, data, base, n)
		off, wantOK := want(&regs, c, n)
		if ok != wantOK {
			t.Fatalf("n %d, start %#x, step %d, const %d, regs %#x: ok %v, want %v", n, start, int64(step), int64(c), regs, ok, wantOK)
		}
		if ok && p != unsafe.Pointer(&data[off]) {
			t.Fatalf("n %d, start %#x, step %d: pointer at offset %d, want %d", n, start, int64(step), uintptr(p)-uintptr(unsafe.Pointer(&data[0])), off)
		}
	}
	// the edges exactly: lane 31's element ending at the window's end, and
	// one byte further; lane 0 (or 31, going down) at offset 0, one below
	for _, n := range []uint64{1, 2, 4, 8} {
		for _, s := range []uint64{n, 16, 128} {
			var up, down lanes
			for i := range up {
				up[i] = base + uint64(len(data)) - n - 31*s + uint64(i)*s
				down[i] = base + 31*s - uint64(i)*s
			}
			for _, c := range []struct {
				regs  *lanes
				delta uint64
				ok    bool
			}{{&up, 0, true}, {&up, n, false}, {&down, 0, true}, {&down, -n, false}} {
				if _, ok := w.warpStrided(&Op{addrConst: c.delta}, c.regs, data, base, n); ok != c.ok {
					t.Errorf("n %d stride %d, rows %#x..%#x + %d: ok %v, want %v", n, s, c.regs[0], c.regs[31], int64(c.delta), ok, c.ok)
				}
			}
		}
	}
}

// stridedKernel is a kernel of one warp whose lane i accesses the n-byte
// element at x + start + 8 + i*stride, lane `lane` moved on by `bad`: a
// store of a value of the lane's own (st), or a load, sign-extending or
// not, into a register (own: the address's) copied to out[i] (ld).
func stridedKernel(n int, load, signed, own bool) string {
	t := map[int]string{1: "8", 2: "16", 4: "32", 8: "64"}[n]
	var access string
	switch {
	case !load:
		src := map[int]string{1: "%h", 2: "%h", 4: "%r3", 8: "%rd7"}[n]
		access = fmt.Sprintf("st.global.b%s [%%rd6+8], %s;", t, src)
	case own:
		ty := "u" + t
		if signed {
			ty = "s" + t
		}
		access = fmt.Sprintf("ld.global.%s %%rd6, [%%rd6+8];\n\tst.global.u64 [%%rd9], %%rd6;", ty)
	default:
		ty := "u" + t
		if signed {
			ty = "s" + t
		}
		access = fmt.Sprintf("ld.global.%s %%rd8, [%%rd6+8];\n\tst.global.u64 [%%rd9], %%rd8;", ty)
	}
	return `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 start, .param .u64 stride, .param .u32 lane, .param .u64 bad, .param .u64 out)
{
	.reg .pred %p;
	.reg .b16 %h;
	.reg .b32 %r<4>;
	.reg .b64 %rd<12>;
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [start];
	ld.param.u64 %rd3, [stride];
	ld.param.u32 %r2, [lane];
	ld.param.u64 %rd4, [bad];
	ld.param.u64 %rd10, [out];
	cvt.u64.u32 %rd5, %r1;
	mul.lo.u64 %rd6, %rd5, %rd3;
	add.s64 %rd6, %rd6, %rd2;
	add.s64 %rd6, %rd6, %rd1;
	setp.eq.u32 %p, %r1, %r2;
	@%p add.s64 %rd6, %rd6, %rd4;
	mul.lo.u64 %rd7, %rd5, 0x0102030405060708;
	xor.b64 %rd7, %rd7, 0x8877665544332211;
	cvt.u32.u64 %r3, %rd7;
	cvt.u16.u64 %h, %rd7;
	mul.wide.u32 %rd9, %r1, 8;
	add.s64 %rd9, %rd9, %rd10;
	` + access + `
	ret;
}
`
}

// stridedCase is one launch of stridedKernel.
type stridedCase struct {
	n                 int
	load, signed, own bool
	start, stride     uint64
	lane              uint32
	bad               uint64
}

func (c stridedCase) String() string {
	return fmt.Sprintf("n %d load %v signed %v own %v start %d stride %d lane %d bad %d",
		c.n, c.load, c.signed, c.own, int64(c.start), int64(c.stride), c.lane, int64(c.bad))
}

const stridedBuf = 40 * 512 // x's bytes

// xByte is x's byte i before a launch.
func xByte(i int) byte { return byte(i*7 + 3) }

// run launches c on a fresh program, returning x's and out's bytes
// afterwards, x's address and the launch's error.
func (c stridedCase) run(t *testing.T) (xb, ob []byte, x uint64, err error) {
	t.Helper()
	p, g := load(t, stridedKernel(c.n, c.load, c.signed, c.own))
	out, _ := g.Alloc(8*warpSize, 0)
	x, _ = g.Alloc(stridedBuf, 1<<16) // (far above out: a lane below x faults)
	xb, _ = g.Bytes(x, stridedBuf)
	for i := range xb {
		xb[i] = xByte(i)
	}
	ob, _ = g.Bytes(out, 8*warpSize)
	for i := range ob {
		ob[i] = 0xee
	}
	err = p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{warpSize, 1, 1},
		Params: params(p.Kernels["k"], x, c.start, c.stride, uint64(c.lane), c.bad, out), Workers: 1})
	return xb, ob, x, err
}

// model is what c must do: x's and out's bytes afterwards, and the
// faulting lane (-1: none), its kind and address.
func (c stridedCase) model(x uint64) (xb, ob []byte, lane int, kind FaultKind, addr uint64) {
	xb, ob = make([]byte, stridedBuf), make([]byte, 8*warpSize)
	for i := range xb {
		xb[i] = xByte(i)
	}
	for i := range ob {
		ob[i] = 0xee
	}
	n := uint64(c.n)
	var row [warpSize]uint64
	for i := range warpSize {
		a := x + c.start + 8 + uint64(i)*c.stride
		if uint32(i) == c.lane {
			a += c.bad
		}
		off := a - x
		switch {
		case a%n != 0:
			return xb, ob, i, FaultMisaligned, a
		case off > stridedBuf-n:
			return xb, ob, i, FaultOutOfBounds, a
		}
		v := uint64(i)*0x0102030405060708 ^ 0x8877665544332211
		if !c.load {
			for k := range n {
				xb[off+k] = byte(v >> (8 * k))
			}
			continue
		}
		var w uint64
		for k := range n {
			w |= uint64(xb[off+k]) << (8 * k)
		}
		if c.signed && n < 8 {
			w = uint64(int64(w<<(64-8*n)) >> (64 - 8*n))
		}
		row[i] = w
	}
	if c.load {
		for i, w := range row {
			binary.LittleEndian.PutUint64(ob[8*i:], w)
		}
	}
	return xb, ob, -1, "", 0
}

// stridedCases lists the launches: strides up and down (and zero) for
// every size, rows running past either end of x from lane 0, 15 or 31
// on, misaligned rows and strides, one lane moved off the row.
func stridedCases() []stridedCase {
	var cs []stridedCase
	buf, far := uint64(stridedBuf), uint64(1)<<40
	for _, n := range []int{1, 2, 4, 8} {
		type kind struct{ load, signed, own bool }
		kinds := []kind{{}, {load: true}, {load: true, signed: true}, {load: true, own: true}}
		if n < 8 {
			kinds = append(kinds, kind{true, true, true})
		}
		for _, k := range kinds {
			add := func(start, stride uint64, lane uint32, bad uint64) {
				cs = append(cs, stridedCase{n, k.load, k.signed, k.own, start, stride, lane, bad})
			}
			un := uint64(n)
			for _, s := range []uint64{0, un, 2 * un, 4, 8, 12, 16, 24, 40, 64, 128, 136, 256, 512, 1024, 2048} {
				if s%un != 0 {
					continue
				}
				add(0, s, 99, 0)          // up from x
				add(31*s+un, -s, 99, 0)   // down to x
				add(8*s+2*un, s, 99, 0)   // another start
				add(32*s+8*un, -s, 99, 0) // down from further up
				if s < un {
					continue
				}
				for _, l := range []uint64{0, 15, 31} {
					// lane l the first past x's end, or the first below x
					add(stridedBuf-l*s-8, s, 99, 0)
					add((l-1)*s-8, -s, 99, 0)
					// lane l alone moved past the end, below x, or misaligned
					add(0, s, uint32(l), stridedBuf)
					add(31*s, -s, uint32(l), 0-buf)
					add(0, s, uint32(l), 1)
					if n > 1 {
						add(0, s, uint32(l), un/2)
					}
				}
			}
			if n > 1 {
				add(1, un, 99, 0)      // every lane misaligned
				add(0, un+un/2, 99, 0) // lane 1 misaligned
				add(64, -(un + un/2), 99, 0)
			}
			add(0, far, 99, 0)   // lane 1 far past x
			add(0, 0-far, 99, 0) // lane 1 far below x
		}
	}
	return cs
}

// TestWarpStridedAccess runs stridedCases on the warp engine with the
// strided loops and without (the lane-by-lane loops), AVX2 on and off,
// and checks each against the model: the bytes of memory, the loaded
// values, and the fault's thread, kind and address.
func TestWarpStridedAccess(t *testing.T) {
	setFlag(t, &batchEnabled, false)
	setFlag(t, &tracesEnabled, false)
	simdOn := simdEnabled
	cases := stridedCases()
	if testing.Short() {
		cases = cases[:len(cases)/4]
	}
	for _, simd := range []bool{false, true} {
		if simd && !simdOn {
			continue
		}
		setFlag(t, &simdEnabled, simd)
		for _, c := range cases {
			var results [2]string
			for i, strided := range []bool{false, true} {
				setFlag(t, &stridedEnabled, strided)
				xb, ob, x, err := c.run(t)
				wx, wo, lane, kind, addr := c.model(x)
				if lane < 0 && err != nil {
					t.Fatalf("simd %v strided %v, %v: %v, want no fault", simd, strided, c, err)
				}
				if lane >= 0 {
					var f *Fault
					if !errors.As(err, &f) || f.Kind != kind || f.Thread != [3]int{lane, 0, 0} || f.Addr != addr {
						t.Fatalf("simd %v strided %v, %v: %v, want a %v fault at thread %d, address %#x", simd, strided, c, err, kind, lane, addr)
					}
				}
				if i := firstDiff(xb, wx); i >= 0 {
					t.Fatalf("simd %v strided %v, %v: x byte %d is %#x, want %#x", simd, strided, c, i, xb[i], wx[i])
				}
				if i := firstDiff(ob, wo); i >= 0 {
					t.Fatalf("simd %v strided %v, %v: out byte %d (lane %d) is %#x, want %#x", simd, strided, c, i, i/8, ob[i], wo[i])
				}
				results[i] = fmt.Sprint(err)
			}
			if results[0] != results[1] {
				t.Fatalf("simd %v, %v: error %q with the strided loops, %q without", simd, c, results[1], results[0])
			}
		}
	}
}

// TestWarpStridedShared: a warp's strided stores and loads in shared
// memory (the CTA's window) up and down, and a row past its end faults
// at its first lane outside, the lanes before it stored.
func TestWarpStridedShared(t *testing.T) {
	setFlag(t, &batchEnabled, false)
	setFlag(t, &tracesEnabled, false)
	src := `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 start, .param .u64 stride)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<12>;
	.shared .align 8 .b8 sh[4096];
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [start];
	ld.param.u64 %rd3, [stride];
	mov.u64 %rd4, sh;
	cvt.u64.u32 %rd5, %r1;
	mul.lo.u64 %rd6, %rd5, %rd3;
	add.s64 %rd6, %rd6, %rd2;
	add.s64 %rd6, %rd6, %rd4;
	add.u32 %r2, %r1, 1000;
	st.shared.u32 [%rd6], %r2;
	add.s64 %rd7, %rd6, 4;
	st.shared.u32 [%rd7], %r1;
	ld.shared.u64 %rd8, [%rd6];
	mul.wide.u32 %rd9, %r1, 8;
	add.s64 %rd9, %rd9, %rd1;
	st.global.u64 [%rd9], %rd8;
	ret;
}
`
	for _, strided := range []bool{false, true} {
		setFlag(t, &stridedEnabled, strided)
		for _, c := range []struct{ start, stride uint64 }{{0, 8}, {0, 128}, {31 * 128, 1<<64 - 128}, {8, 24}} {
			p, g := load(t, src)
			out, _ := g.Alloc(8*warpSize, 0)
			err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{warpSize, 1, 1},
				Params: params(p.Kernels["k"], out, c.start, c.stride), Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			ob, _ := g.Bytes(out, 8*warpSize)
			for i := range uint64(warpSize) {
				if got, want := binary.LittleEndian.Uint64(ob[8*i:]), i<<32|(i+1000); got != want {
					t.Fatalf("strided %v, start %d stride %d: lane %d loaded %#x, want %#x", strided, c.start, int64(c.stride), i, got, want)
				}
			}
		}
		// lane 20 the first past the end
		p, g := load(t, src)
		out, _ := g.Alloc(8*warpSize, 0)
		err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{warpSize, 1, 1},
			Params: params(p.Kernels["k"], out, 4096-20*200, 200), Workers: 1})
		var f *Fault
		if !errors.As(err, &f) || f.Kind != FaultOutOfBounds || f.Thread != [3]int{20, 0, 0} || !strings.Contains(err.Error(), "shared") {
			t.Fatalf("strided %v: %v, want an out-of-bounds shared fault at thread 20", strided, err)
		}
	}
}
