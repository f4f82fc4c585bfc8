package exec

// Buffered adds (atomic_buffer.go): the results a kernel's threads must
// see (9.7.13.5 red, 8 Memory Consistency Model), worked out from the
// kernels' meaning, on one and two workers.

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// histoSrc: a grid-stride histogram, bins[keys[k] % nbins] += keys[k] >> 16
// (add of width w: .u32 or .u64), through op ("red" or "atom" with an
// unread result, on .global or, op ending in "gen", a generic address).
func histoSrc(op, typ string) string {
	space := ".global"
	if s, ok := strings.CutSuffix(op, "gen"); ok {
		op, space = s, ""
	}
	dst := ""
	if op == "atom" {
		dst = "%old, "
	}
	wide, shift, vt := "cvt.u64.u32 %v, %v32;", "3", ".u64"
	switch typ {
	case ".u32":
		wide, shift, vt = "mov.b32 %v, %v32;", "2", ".u32"
	case ".f32": // key * 2^-20, 24 significant bits: sums rounded, in an order
		wide, shift, vt = "cvt.rn.f32.u32 %v, %key; mul.rn.f32 %v, %v, 0f35800000;", "2", ".f32"
	case ".f32int": // key >> 16: integer sums, exact in every order
		wide, shift, vt, typ = "cvt.rn.f32.u32 %v, %v32;", "2", ".f32", ".f32"
	}
	return strings.NewReplacer("OP", op, "SPACE", space, "DST", dst, "TYP", typ, "VT", vt, "WIDE", wide, "SHIFT", shift).Replace(`.version 8.0
.target sm_90
.address_size 64
.visible .entry histo(.param .u64 keys, .param .u64 bins, .param .u32 n, .param .u32 nbins) {
	.reg .u32 %k, %stride, %n, %nb, %key, %bin, %v32, %t, %j;
	.reg VT %v, %old;
	.reg .u64 %kp, %bp, %a;
	.reg .pred %p;
	ld.param.u64 %kp, [keys];
	ld.param.u64 %bp, [bins];
	ld.param.u32 %n, [n];
	ld.param.u32 %nb, [nbins];
	mov.u32 %stride, %nctaid.x;
	mov.u32 %t, %ntid.x;
	mul.lo.u32 %stride, %stride, %t;
	mov.u32 %k, %ctaid.x;
	mov.u32 %j, %tid.x;
	mad.lo.u32 %k, %k, %t, %j;
	setp.ge.u32 %p, %k, %n;
	@%p bra Done;
Loop:
	mul.wide.u32 %a, %k, 4;
	add.u64 %a, %kp, %a;
	ld.global.u32 %key, [%a];
	rem.u32 %bin, %key, %nb;
	shr.u32 %v32, %key, 16;
	WIDE
	mul.wide.u32 %a, %bin, 1;
	shl.b64 %a, %a, SHIFT;
	add.u64 %a, %bp, %a;
	OPSPACE.addTYP DST[%a], %v;
	add.u32 %k, %k, %stride;
	setp.lt.u32 %p, %k, %n;
	@%p bra Loop;
Done:
	ret;
}
`)
}

func TestBufferedAddsHistogram(t *testing.T) {
	for _, c := range []struct {
		op, typ string
		nbins   int
	}{
		{"red", ".u32", 256}, {"atom", ".u32", 256}, {"red", ".u64", 256}, {"atom", ".u64", 7},
		{"redgen", ".u32", 256}, {"atomgen", ".u64", 100},
		// more words than a worker's deltas cover (redWords): most lanes
		// miss them, and the covered words move
		{"red", ".u32", 3 * redWords}, {"atom", ".u64", 3 * redWords},
	} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s%s/%d bins/%d workers", c.op, c.typ, c.nbins, workers), func(t *testing.T) {
				p, g, k := loadBuffered(t, histoSrc(c.op, c.typ), "histo")
				const n = 1 << 17
				w := uint64(4)
				if c.typ == ".u64" {
					w = 8
				}
				keys, _ := g.Alloc(4*n, 0)
				bins, _ := g.Alloc(w*uint64(c.nbins), 0)
				kb, _ := g.Bytes(keys, 4*n)
				want := make([]uint64, c.nbins)
				rng := rand.New(rand.NewPCG(1, 2))
				for i := range n {
					key := rng.Uint32()
					binary.LittleEndian.PutUint32(kb[4*i:], key)
					want[key%uint32(c.nbins)] += uint64(key >> 16)
				}
				err := p.Launch(context.Background(), "histo", LaunchConfig{Grid: [3]int{64, 1, 1}, Block: [3]int{128, 1, 1},
					Params: params(k, keys, bins, n, uint64(c.nbins)), Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				bb, _ := g.Bytes(bins, w*uint64(c.nbins))
				for i, x := range want {
					got := binary.LittleEndian.Uint64(append(append([]byte{}, bb[uint64(i)*w:uint64(i+1)*w]...), make([]byte, 8-w)...))
					if w == 4 {
						x = uint64(uint32(x))
					}
					if got != x {
						t.Fatalf("bins[%d] = %d, want %d", i, got, x)
					}
				}
			})
		}
	}
}

// atomBuffered says whether k's adds are buffered: the kernel allows it
// (redSafe) and it has an atom or red whose adds may be.
func atomBuffered(k *Func) bool {
	if !k.canBufferAdds() {
		return false
	}
	for i := range k.Ops {
		if ai, ok := k.Ops[i].aux.(*atomInfo); ok && ai.buffer {
			return true
		}
	}
	return false
}

// loadBuffered loads src and returns its kernel entry too, failing the
// test unless that kernel's adds are buffered.
func loadBuffered(t *testing.T, src, entry string) (*Program, *mem.Global, *Func) {
	t.Helper()
	p, g := load(t, src)
	k := p.Kernels[entry]
	if !atomBuffered(k) {
		t.Fatalf("kernel %s: the adds are not buffered", entry)
	}
	return p, g, k
}

// runBuffered launches kernel k of src on one 256-byte buffer (zeroed,
// then init written at its start) and returns the buffer.
func runBuffered(t *testing.T, src string, grid, block, workers int, init ...uint32) []byte {
	t.Helper()
	p, g, k := loadBuffered(t, src, "k")
	buf, _ := g.Alloc(256, 0)
	b, _ := g.Bytes(buf, 256)
	for i, v := range init {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{grid, 1, 1}, Block: [3]int{block, 1, 1},
		Params: params(k, buf), Workers: workers}); err != nil {
		t.Fatal(err)
	}
	return b
}

const bufferedHeader = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 buf) {
	.reg .u32 %t, %v, %w;
	.reg .u64 %a, %b, %o;
	.reg .pred %p;
	ld.param.u64 %a, [buf];
	mov.u32 %t, %tid.x;
`

// TestBufferedAddsFloat: f32 adds keep their order. On one worker a
// histogram of fractional values (whose rounding depends on the order)
// ends with the same bits as with buffering off, which adds one by one
// as the lanes run; on two, integer-valued adds (exact in every order) end
// with their sums.
func TestBufferedAddsFloat(t *testing.T) {
	const n, nbins = 1 << 16, 200
	run := func(typ string, workers int, buffered bool) []byte {
		setFlag(t, &bufferAddsEnabled, buffered)
		p, g, k := loadBuffered(t, histoSrc("atom", typ), "histo")
		keys, _ := g.Alloc(4*n, 0)
		bins, _ := g.Alloc(4*nbins, 0)
		kb, _ := g.Bytes(keys, 4*n)
		rng := rand.New(rand.NewPCG(3, 4))
		for i := range n {
			binary.LittleEndian.PutUint32(kb[4*i:], rng.Uint32())
		}
		if err := p.Launch(context.Background(), "histo", LaunchConfig{Grid: [3]int{24, 1, 1}, Block: [3]int{96, 1, 1},
			Params: params(k, keys, bins, n, nbins), Workers: workers}); err != nil {
			t.Fatal(err)
		}
		b, _ := g.Bytes(bins, 4*nbins)
		if typ == ".f32int" {
			want := make([]float64, nbins)
			for i := range n {
				key := binary.LittleEndian.Uint32(kb[4*i:])
				want[key%nbins] += float64(key >> 16)
			}
			for i, x := range want {
				if got := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])); float64(got) != x {
					t.Fatalf("%d workers: bins[%d] = %v, want %v", workers, i, got, x)
				}
			}
		}
		return b
	}
	if on, off := run(".f32", 1, true), run(".f32", 1, false); !bytes.Equal(on, off) {
		t.Error("f32 sums differ from those of adds one by one")
	}
	run(".f32int", 2, true)
}

// TestBufferedAddsSeenByTheAdder: a thread that adds to a word and then
// reads it sees its add (coherence, 8.8 axioms): lane l adds 5 to word l
// (l < 8), reads it back and stores it in word l+8.
func TestBufferedAddsSeenByTheAdder(t *testing.T) {
	b := runBuffered(t, bufferedHeader+`
	setp.ge.u32 %p, %t, 8;
	@%p bra Done;
	mul.wide.u32 %o, %t, 4;
	add.u64 %b, %a, %o;
	red.global.add.u32 [%b], 5;
	ld.global.u32 %v, [%b];
	st.global.u32 [%b+32], %v;
Done:
	ret;
}
`, 1, 32, 1, 10, 20, 30, 40, 50, 60, 70, 80)
	for l := range 8 {
		if got, want := binary.LittleEndian.Uint32(b[4*(l+8):]), uint32(10*(l+1)+5); got != want {
			t.Errorf("lane %d read %d, want %d", l, got, want)
		}
	}
}

// TestBufferedAddsSeenAfterBarrier: the adds of warp 0's 32 threads to
// word 0 are seen by warp 1 after bar.sync (9.7.13.4: the barrier orders
// the CTA's memory accesses), and both warps' adds of 1 to word 1 total
// 64 after the launch.
func TestBufferedAddsSeenAfterBarrier(t *testing.T) {
	b := runBuffered(t, bufferedHeader+`
	red.global.add.u32 [%a+4], 1;
	setp.ge.u32 %p, %t, 32;
	@%p bra Wait;
	red.global.add.u32 [%a], %t;
Wait:
	bar.sync 0;
	@!%p bra Done;
	ld.global.u32 %v, [%a];
	mul.wide.u32 %o, %t, 4;
	add.u64 %b, %a, %o;
	st.global.u32 [%b-120], %v;
Done:
	ret;
}
`, 1, 64, 1)
	if got := binary.LittleEndian.Uint32(b[4:]); got != 64 {
		t.Errorf("word 1 = %d, want 64", got)
	}
	// the threads of warp 1 store to words 2..33: each read 0+1+...+31
	for l := 32; l < 64; l++ {
		if got := binary.LittleEndian.Uint32(b[4*(l-30):]); got != 496 {
			t.Errorf("thread %d read %d after the barrier, want 496", l, got)
		}
	}
}

// TestBufferedAddsKeepWidthOrder: adds of two widths to one word do not
// commute (the 32-bit add does not carry into the high half): thread 0
// adds 0xffffffff as .u32, then 1 as .u64, to a zero word, in that order:
// 0x1_0000_0000 (the other order would leave 0).
func TestBufferedAddsKeepWidthOrder(t *testing.T) {
	b := runBuffered(t, bufferedHeader+`
	setp.ne.u32 %p, %t, 0;
	@%p bra Done;
	red.global.add.u32 [%a+8], 0xffffffff;
	mov.u64 %o, 1;
	red.global.add.u64 [%a+8], %o;
Done:
	ret;
}
`, 1, 32, 1)
	if got := binary.LittleEndian.Uint64(b[8:]); got != 1<<32 {
		t.Errorf("word = %#x, want 0x100000000", got)
	}
}

// TestBufferedAddsReachWaitingCTA: CTA 1 waits (ld.volatile, no fence) for
// CTA 0's add to a word of one allocation before it sets a flag in
// another, which CTA 0 waits for after its add: ends only if CTA 0's
// worker puts its add in memory while CTA 0 waits (redFlushRounds).
func TestBufferedAddsReachWaitingCTA(t *testing.T) {
	p, g, k := loadBuffered(t, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 buf, .param .u64 flag) {
	.reg .u32 %t, %v;
	.reg .u64 %a, %f;
	.reg .pred %p;
	ld.param.u64 %a, [buf];
	ld.param.u64 %f, [flag];
	mov.u32 %t, %tid.x;
	setp.ne.u32 %p, %t, 0;
	@%p bra Done;
	mov.u32 %t, %ctaid.x;
	setp.ne.u32 %p, %t, 0;
	@%p bra Consumer;
	red.global.add.u32 [%a], 7;
Wait:
	ld.volatile.global.u32 %v, [%f];
	setp.eq.u32 %p, %v, 0;
	@%p bra Wait;
	bra Done;
Consumer:
	ld.volatile.global.u32 %v, [%a];
	setp.eq.u32 %p, %v, 0;
	@%p bra Consumer;
	st.volatile.global.u32 [%f], %v;
Done:
	ret;
}
`, "k")
	buf, _ := g.Alloc(4, 0)
	flag, _ := g.Alloc(4, 0)
	done := make(chan error, 1)
	go func() {
		done <- p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{2, 1, 1}, Block: [3]int{32, 1, 1},
			Params: params(k, buf, flag), Workers: 2})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := g.Bytes(flag, 4); binary.LittleEndian.Uint32(b) != 7 {
			t.Errorf("flag = %d, want 7", binary.LittleEndian.Uint32(b))
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the CTAs still wait for each other")
	}
}

// TestBufferedAddsFault: a lane past the allocation faults with its
// address, and the adds before it reach memory.
func TestBufferedAddsFault(t *testing.T) {
	p, g := load(t, bufferedHeader+`
	mul.wide.u32 %o, %t, 4;
	add.u64 %b, %a, %o;
	red.global.add.u32 [%b], 1;
	ret;
}
`)
	k := p.Kernels["k"]
	buf, _ := g.Alloc(64, 0) // 16 words: lanes 16.. are past it
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
		Params: params(k, buf), Workers: 1})
	var f *Fault
	if !errors.As(err, &f) || f.Addr != buf+64 {
		t.Fatalf("err = %v, want a fault at %#x", err, buf+64)
	}
	b, _ := g.Bytes(buf, 64)
	for i := range 16 {
		if got := binary.LittleEndian.Uint32(b[4*i:]); got != 1 {
			t.Errorf("word %d = %d, want 1", i, got)
		}
	}
}

// TestBufferedAddsVariableAndShared: adds at a .global variable's own
// address (no register: every lane's address is the variable's), and
// generic adds to a .shared variable (not global memory: not buffered,
// read after bar.sync): 40 CTAs of 96 threads add 3 each to the global
// counter and 1 each to their CTA's shared one, which thread 0 then adds
// to word 0 of the buffer.
func TestBufferedAddsVariableAndShared(t *testing.T) {
	for _, workers := range []int{1, 2} {
		p, g, k := loadBuffered(t, `.version 8.0
.target sm_90
.address_size 64
.global .u32 counter;
.visible .entry k(.param .u64 buf) {
	.reg .u32 %t, %v;
	.reg .u64 %a, %s;
	.reg .pred %p;
	.shared .u32 sc;
	ld.param.u64 %a, [buf];
	mov.u32 %t, %tid.x;
	setp.ne.u32 %p, %t, 0;
	@%p bra Add;
	st.shared.u32 [sc], 0;
Add:
	bar.sync 0;
	red.global.add.u32 [counter], 3;
	cvta.shared.u64 %s, sc;
	red.add.u32 [%s], 1;
	bar.sync 0;
	@%p bra Done;
	ld.shared.u32 %v, [sc];
	red.global.add.u32 [%a], %v;
Done:
	ret;
}
`, "k")
		buf, _ := g.Alloc(4, 0)
		if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{40, 1, 1}, Block: [3]int{96, 1, 1},
			Params: params(k, buf), Workers: workers}); err != nil {
			t.Fatal(err)
		}
		b, _ := g.Bytes(buf, 4)
		c, _, err := p.GlobalVar("counter")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := binary.LittleEndian.Uint32(b), uint32(40*96); got != want {
			t.Errorf("%d workers: shared counts total %d, want %d", workers, got, want)
		}
		if got, want := binary.LittleEndian.Uint32(c), uint32(3*40*96); got != want {
			t.Errorf("%d workers: counter = %d, want %d", workers, got, want)
		}
	}
}

// TestBufferedAddsRefused: what may not buffer: a kernel with a fence or a
// release (a release store, a release red), an atom whose old value is
// read, an operation other than add (max). (Adds through a generic address
// and f32 adds do buffer: TestBufferedAddsHistogram, TestBufferedAddsFloat.)
func TestBufferedAddsRefused(t *testing.T) {
	for name, body := range map[string]string{
		"fence":       "red.global.add.u32 [%a], 1; membar.gl;",
		"release":     "red.global.add.u32 [%a], 1; st.release.gpu.global.u32 [%a+4], 1;",
		"old read":    "atom.global.add.u32 %v, [%a], 1; st.global.u32 [%a+4], %v;",
		"max":         "red.global.max.u32 [%a], 1;",
		"release red": "red.release.gpu.global.add.u32 [%a], 1;",
	} {
		p, _ := load(t, bufferedHeader+body+"\n\tret;\n}\n")
		if atomBuffered(p.Kernels["k"]) {
			t.Errorf("%s: buffered", name)
		}
	}
}

// TestBufferedFloatRetry: a word another worker changes between the
// chains and the compare-and-swap takes its chain again from the new
// value, in order; the other words keep theirs.
func TestBufferedFloatRetry(t *testing.T) {
	f := math.Float32bits
	data := make([]byte, 16)
	binary.LittleEndian.PutUint32(data[0:], f(1))
	binary.LittleEndian.PutUint32(data[4:], f(10))
	rb := &redSlot{t: &redTarget{size: 16, width: 4, float: true}, data: data, d32: make([]uint32, redWords),
		base: make([]uint32, redWords), seen: make([]bool, redWords), min: 0, max: 1}
	// word 0: + 2^24, + 1; word 1: + 0.5
	for _, e := range []struct {
		i int
		v float32
	}{{0, 1 << 24}, {1, 0.5}, {0, 1}} {
		rb.log = append(rb.log, uint64(e.i)<<32|uint64(f(e.v)))
	}
	setFlag(t, &redBeforeCAS, func() {
		binary.LittleEndian.PutUint32(data[0:], f(3)) // another worker's add of 2
		redBeforeCAS = nil
	})
	rb.flush()
	// from 3: 3 + 2^24 rounds (a tie) to the even 2^24 + 4, and + 1 again
	// to 2^24 + 4 (from 1 it would be 2^24, and 2^24)
	if got := math.Float32frombits(binary.LittleEndian.Uint32(data[0:])); got != 1<<24+4 {
		t.Errorf("word 0 = %v, want %v", got, float32(1<<24+4))
	}
	if got := math.Float32frombits(binary.LittleEndian.Uint32(data[4:])); got != 10.5 {
		t.Errorf("word 1 = %v, want 10.5", got)
	}
	if len(rb.log) != 0 || rb.dirty() {
		t.Error("the log is not empty after the flush")
	}
}

// TestBufferedAddsEdges: a 64-bit add to a 4-byte variable faults (not a
// buffered add past the allocation); an atom whose old value a .func
// returns is not buffered (the caller reads it: 32 lanes adding 1 to one
// word get 0..31 in some order); a batch's atomic at the address
// 0xffff_ffff_ffff_ffff faults like the warp engine.
func TestBufferedAddsEdges(t *testing.T) {
	p, _ := load(t, `.version 8.0
.target sm_90
.address_size 64
.global .u32 c;
.visible .entry k() {
	.reg .u64 %one;
	mov.u64 %one, 1;
	red.global.add.u64 [c], %one;
	ret;
}
`)
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Workers: 1})
	var f *Fault
	if !errors.As(err, &f) {
		t.Errorf("a u64 add to a u32 variable: %v, want a fault", err)
	}

	p, g := load(t, `.version 8.0
.target sm_90
.address_size 64
.func (.reg .u32 res) f(.reg .u64 p) {
	atom.global.add.u32 res, [p], 1;
	ret;
}
.visible .entry k(.param .u64 buf, .param .u64 out) {
	.reg .u32 %v, %t;
	.reg .u64 %a, %o, %x;
	ld.param.u64 %a, [buf];
	ld.param.u64 %o, [out];
	call (%v), f, (%a);
	mov.u32 %t, %tid.x;
	mul.wide.u32 %x, %t, 4;
	add.u64 %o, %o, %x;
	st.global.u32 [%o], %v;
	ret;
}
`)
	buf, _ := g.Alloc(4, 0)
	out, _ := g.Alloc(4*32, 0)
	launchK(t, p, 1, 32, buf, out)
	ob, _ := g.Bytes(out, 4*32)
	seen := map[uint32]bool{}
	for l := range 32 {
		seen[binary.LittleEndian.Uint32(ob[4*l:])] = true
	}
	for v := range uint32(32) {
		if !seen[v] {
			t.Fatalf("no lane got the old value %d: % x", v, ob)
		}
	}

	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p) {
	.reg .u64 %a;
	ld.param.u64 %a, [p];
	red.release.gpu.global.add.u32 [%a], 1;
	ret;
}
`
	for _, batch := range []bool{true, false} {
		res, err := bdRun(src, "k", bdX(4), bdX(64), bdInput{}, bdArgs(bdU(^uint64(0))), 1, batch)
		if err != nil || !errors.As(res.err, &f) {
			t.Errorf("batches %v: %v %v, want a fault", batch, err, res.err)
		}
	}
}

// TestBufferedAddsTwoAllocations: u32 counts into one allocation and f32
// or u32 sums into another (k-means' update), both red, on one and two
// workers: the counts and the sums (integers, exact in any order) are
// right.
func TestBufferedAddsTwoAllocations(t *testing.T) {
	setFlag(t, &batchEnabled, false) // (the warp engine's buffers: batches keep sums of their own)
	// the sums as f32 (another kind: they go to memory as they run) or
	// as u32 (the kind buffered: each warp's adds to sums, outside the
	// buffered allocation, take their own allocation's window)
	for _, kind := range []string{"f32", "u32"} {
		conv := "cvt.rn.f32.u32 %f, %v;"
		if kind == "u32" {
			conv = "mov.b32 %f, %v;"
		}
		src := `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 keys, .param .u64 counts, .param .u64 sums) {
	.reg .u32 %i, %t, %key, %bin, %v;
	.reg .b32 %f;
	.reg .u64 %kp, %cp, %sp, %a;
	ld.param.u64 %kp, [keys];
	ld.param.u64 %cp, [counts];
	ld.param.u64 %sp, [sums];
	mov.u32 %i, %ctaid.x;
	mov.u32 %t, %ntid.x;
	mov.u32 %v, %tid.x;
	mad.lo.u32 %i, %i, %t, %v;
	mul.wide.u32 %a, %i, 4;
	add.u64 %a, %kp, %a;
	ld.global.u32 %key, [%a];
	and.b32 %bin, %key, 15;
	mul.wide.u32 %a, %bin, 4;
	add.u64 %cp, %cp, %a;
	add.u64 %sp, %sp, %a;
	red.global.add.u32 [%cp], 1;
	shr.u32 %v, %key, 28;
	` + conv + `
	red.global.add.` + kind + ` [%sp], %f;
	ret;
}
`
		for _, workers := range []int{1, 2} {
			p, g, k := loadBuffered(t, src, "k")
			const n = 1 << 16
			keys, _ := g.Alloc(4*n, 0)
			counts, _ := g.Alloc(64, 0)
			sums, _ := g.Alloc(64, 0)
			kb, _ := g.Bytes(keys, 4*n)
			var wantC, wantU [16]uint32
			var wantS [16]float32
			rng := rand.New(rand.NewPCG(5, 6))
			for i := range n {
				key := rng.Uint32()
				binary.LittleEndian.PutUint32(kb[4*i:], key)
				wantC[key&15]++
				wantS[key&15] += float32(key >> 28)
				wantU[key&15] += key >> 28
			}
			if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{n / 128, 1, 1}, Block: [3]int{128, 1, 1},
				Params: params(k, keys, counts, sums), Workers: workers}); err != nil {
				t.Fatal(err)
			}
			cb, _ := g.Bytes(counts, 64)
			sb, _ := g.Bytes(sums, 64)
			for b := range 16 {
				if got := binary.LittleEndian.Uint32(cb[4*b:]); got != wantC[b] {
					t.Fatalf("%s, %d workers: counts[%d] = %d, want %d", kind, workers, b, got, wantC[b])
				}
				got := binary.LittleEndian.Uint32(sb[4*b:])
				if kind == "f32" && math.Float32frombits(got) != wantS[b] || kind == "u32" && got != wantU[b] {
					t.Fatalf("%s, %d workers: sums[%d] = %#x, want %v or %d", kind, workers, b, got, wantS[b], wantU[b])
				}
			}
		}
	}
}

// TestBufferedAddsKindsOnOneWord: a warp's u32 adds and then its u64
// adds to one word, from registers: the u64 adds must not overtake the
// buffered u32 ones (32 * 0xffffffff to the low half, then 32: a carry
// into the high half).
func TestBufferedAddsKindsOnOneWord(t *testing.T) {
	setFlag(t, &batchEnabled, false) // (the warp engine's buffers: batches keep sums of their own)
	for _, workers := range []int{1, 2} {
		b := runBuffered(t, bufferedHeader+`
	mov.u32 %v, 0xffffffff;
	red.global.add.u32 [%a+8], %v;
	mov.u64 %o, 1;
	red.global.add.u64 [%a+8], %o;
	ret;
}
`, 1, 32, workers)
		if got := binary.LittleEndian.Uint64(b[8:]); got != 1<<32 {
			t.Errorf("%d workers: word = %#x, want 0x100000000", workers, got)
		}
	}
}

// TestBufferedAddsTargets: a launch buffers adds to the first
// redMaxTargets allocations its adds reach, each worker in the slot of the
// launch's target for that allocation; adds to a further allocation, or
// outside global memory, get no slot (they go to memory as they run).
func TestBufferedAddsTargets(t *testing.T) {
	p, g := load(t, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k() { ret; }
`)
	var allocs []uint64
	for range redMaxTargets + 2 {
		a, _ := g.Alloc(64, 0)
		allocs = append(allocs, a)
	}
	l := &launch{prog: p}
	one, two := newRedBuffer(l), newRedBuffer(l)
	for i, a := range allocs {
		s := one.slotOf(a+4*uint64(i%3), 4, false, redAdd, false, 0)
		if i >= redMaxTargets {
			if s != nil {
				t.Fatalf("allocation %d got a slot past the %d targets", i, redMaxTargets)
			}
			continue
		}
		if s != &one.slots[i] || s.t.base != a || l.red.targets[i].Load() != s.t {
			t.Fatalf("allocation %d: slot %p, want slots[%d] for its target", i, s, i)
		}
	}
	// the other worker meets the targets in another order: the same slots
	for i := redMaxTargets - 1; i >= 0; i-- {
		if s := two.slotOf(allocs[i]+60, 4, false, redAdd, false, 0); s != &two.slots[i] || s.t != l.red.targets[i].Load() {
			t.Fatalf("second worker, allocation %d: not slots[%d]", i, i)
		}
		if s := one.slotOf(allocs[i]+8, 4, false, redAdd, false, 0); s != &one.slots[i] {
			t.Fatalf("allocation %d again: not slots[%d]", i, i)
		}
	}
	if s := one.slotOf(0x10, 4, false, redAdd, false, 0); s != nil || !l.red.holds(allocs[2]+63) || l.red.holds(allocs[redMaxTargets]) {
		t.Fatal("an address outside the targets held, or one inside not")
	}
	one.release()
	two.release()
}

// TestBufferedAddsManyTargets: one warp-engine launch adding to six
// allocations (a ring's counts, budgets debited, and more: the first four
// buffered, two as they run), on one and two workers: every sum right.
func TestBufferedAddsManyTargets(t *testing.T) {
	setFlag(t, &batchEnabled, false) // (the warp engine's buffers: batches keep sums of their own)
	var b strings.Builder
	b.WriteString(`.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 keys, .param .u64 a0, .param .u64 a1, .param .u64 a2, .param .u64 a3, .param .u64 a4, .param .u64 a5) {
	.reg .u32 %i, %t, %key, %bin, %v;
	.reg .u64 %kp, %p, %a;
	ld.param.u64 %kp, [keys];
	mov.u32 %i, %ctaid.x;
	mov.u32 %t, %ntid.x;
	mov.u32 %v, %tid.x;
	mad.lo.u32 %i, %i, %t, %v;
	mul.wide.u32 %a, %i, 4;
	add.u64 %a, %kp, %a;
	ld.global.u32 %key, [%a];
`)
	for j := range 6 {
		fmt.Fprintf(&b, `	shr.u32 %%bin, %%key, %d;
	and.b32 %%bin, %%bin, 15;
	mul.wide.u32 %%a, %%bin, 4;
	ld.param.u64 %%p, [a%d];
	add.u64 %%p, %%p, %%a;
	add.u32 %%v, %%key, %d;
	red.global.add.u32 [%%p], %%v;
`, 4*j, j, j)
	}
	b.WriteString("\tret;\n}\n")
	for _, workers := range []int{1, 2} {
		p, g, k := loadBuffered(t, b.String(), "k")
		const n = 1 << 15
		keys, _ := g.Alloc(4*n, 0)
		kb, _ := g.Bytes(keys, 4*n)
		var want [6][16]uint32
		rng := rand.New(rand.NewPCG(9, 4))
		for i := range n {
			key := rng.Uint32()
			binary.LittleEndian.PutUint32(kb[4*i:], key)
			for j := range 6 {
				want[j][key>>(4*j)&15] += key + uint32(j)
			}
		}
		args := []uint64{keys}
		for range 6 {
			a, _ := g.Alloc(64, 0)
			args = append(args, a)
		}
		if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{n / 128, 1, 1}, Block: [3]int{128, 1, 1},
			Params: params(k, args...), Workers: workers}); err != nil {
			t.Fatal(err)
		}
		for j := range 6 {
			got, _ := g.Bytes(args[1+j], 64)
			for bin := range 16 {
				if v := binary.LittleEndian.Uint32(got[4*bin:]); v != want[j][bin] {
					t.Fatalf("%d workers: allocation %d bin %d = %d, want %d", workers, j, bin, v, want[j][bin])
				}
			}
		}
	}
}

// TestBufferedAddsSecondTargetSeen: warp 0's adds to a second buffered
// allocation (the first one took the first target) are seen by warp 1
// after bar.sync: its read meets the allocation and puts that target's
// deltas in memory first.
func TestBufferedAddsSecondTargetSeen(t *testing.T) {
	p, g, k := loadBuffered(t, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 y) {
	.reg .u32 %t, %v;
	.reg .u64 %a, %b, %o;
	.reg .pred %p;
	ld.param.u64 %a, [x];
	ld.param.u64 %b, [y];
	mov.u32 %t, %tid.x;
	red.global.add.u32 [%a], 1;
	setp.ge.u32 %p, %t, 32;
	@%p bra Wait;
	red.global.add.u32 [%b], %t;
Wait:
	bar.sync 0;
	@!%p bra Done;
	ld.global.u32 %v, [%b];
	mul.wide.u32 %o, %t, 4;
	add.u64 %o, %a, %o;
	st.global.u32 [%o-120], %v;
Done:
	ret;
}
`, "k")
	for _, workers := range []int{1, 2} {
		x, _ := g.Alloc(256, 0)
		y, _ := g.Alloc(64, 0)
		if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1},
			Params: params(k, x, y), Workers: workers}); err != nil {
			t.Fatal(err)
		}
		b, _ := g.Bytes(x, 256)
		if got := binary.LittleEndian.Uint32(b); got != 64 {
			t.Errorf("%d workers: x[0] = %d, want 64", workers, got)
		}
		// warp 1 stores to words 2..33 what it read: 0+1+...+31
		for l := 32; l < 64; l++ {
			if got := binary.LittleEndian.Uint32(b[4*(l-30):]); got != 496 {
				t.Errorf("%d workers: thread %d read %d after the barrier, want 496", workers, l, got)
			}
		}
	}
}
