package exec

import (
	"context"
	"encoding/binary"
	"sync"
	"testing"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// TestAtomicElements: each element size at each aligned offset reads,
// writes and updates exactly its own bytes, little-endian.
func TestAtomicElements(t *testing.T) {
	for _, size := range []int{1, 2, 4, 8} {
		for off := 0; off+size <= 16; off += size {
			buf := mem.HostBytes(16)
			for i := range buf {
				buf[i] = byte(0xa0 + i)
			}
			want := append([]byte(nil), buf...)
			e := buf[off : off+size]
			var old uint64
			for i := size - 1; i >= 0; i-- {
				old = old<<8 | uint64(want[off+i])
			}
			if got := atomicLoad(e); got != old {
				t.Fatalf("size %d offset %d: load %#x, want %#x", size, off, got, old)
			}
			add := func(o, b, _ uint64) uint64 { return o + b }
			if got := atomicRMW(e, add, 1, 0); got != old {
				t.Fatalf("size %d offset %d: RMW returned %#x, want %#x", size, off, got, old)
			}
			next := old + 1
			for i := 0; i < size; i++ {
				want[off+i] = byte(next >> (8 * i))
			}
			if string(buf) != string(want) {
				t.Fatalf("size %d offset %d: after RMW % x, want % x", size, off, buf, want)
			}
			atomicStore(e, 0x0102030405060708)
			for i := 0; i < size; i++ {
				want[off+i] = byte(uint64(0x0102030405060708) >> (8 * i))
			}
			if string(buf) != string(want) {
				t.Fatalf("size %d offset %d: after store % x, want % x", size, off, buf, want)
			}
		}
	}
}

// TestAtomicConcurrent: goroutines updating the two halves of one word,
// and whole words, lose no update.
func TestAtomicConcurrent(t *testing.T) {
	buf := mem.HostBytes(16)
	const workers, n = 4, 20000
	var wg sync.WaitGroup
	add := func(o, b, _ uint64) uint64 { return o + b }
	for g := 0; g < workers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < n; i++ {
				atomicRMW(buf[0:2], add, 1, 0)
				atomicRMW(buf[2:4], add, 2, 0)
				atomicRMW(buf[4:8], add, 3, 0)
				atomicRMW(buf[8:16], add, 1<<33, 0)
			}
		}()
	}
	wg.Wait()
	// the halves wrap modulo 2^16 without carrying into each other
	if got, want := binary.LittleEndian.Uint16(buf[0:]), uint16(workers*n%65536); got != want {
		t.Errorf("low half: %d, want %d", got, want)
	}
	if got, want := binary.LittleEndian.Uint16(buf[2:]), uint16(2*workers*n%65536); got != want {
		t.Errorf("high half: %d, want %d", got, want)
	}
	if got := binary.LittleEndian.Uint32(buf[4:]); got != 3*workers*n {
		t.Errorf("word: %d, want %d", got, 3*workers*n)
	}
	if got := binary.LittleEndian.Uint64(buf[8:]); got != workers*n<<33 {
		t.Errorf("double word: %d, want %d", got, uint64(workers*n)<<33)
	}
}

// TestAtomicsAcrossWorkers: CTAs on two workers adding to one counter of
// each size, and to the two f16 halves of one word, lose no update.
func TestAtomicsAcrossWorkers(t *testing.T) {
	p, g := load(t, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 buf) {
	.reg .b64 %a, %old;
	.reg .b32 %r;
	.reg .b16 %h, %one;
	ld.param.u64 %a, [buf];
	atom.global.add.u32 %r, [%a], 1;
	atom.global.add.u64 %old, [%a+8], 3;
	mov.b16 %one, 0x3c00;                 // 1.0 in f16
	atom.global.add.noftz.f16 %h, [%a+16], %one;
	atom.global.add.noftz.f16 %h, [%a+18], %one;
	red.global.add.u32 [%a+20], 5;
	ret;
}
`)
	buf, _ := g.Alloc(24, 0)
	const ctas, threads = 32, 64 // 2048 adds: every f16 sum up to 2048 is exact
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{ctas, 1, 1}, Block: [3]int{threads, 1, 1},
		Params: params(p.Kernels["k"], buf), Workers: 2}); err != nil {
		t.Fatal(err)
	}
	b, _ := g.Bytes(buf, 24)
	n := uint64(ctas * threads)
	if got := uint64(binary.LittleEndian.Uint32(b[0:])); got != n {
		t.Errorf("u32 counter %d, want %d", got, n)
	}
	if got := binary.LittleEndian.Uint64(b[8:]); got != 3*n {
		t.Errorf("u64 counter %d, want %d", got, 3*n)
	}
	for _, off := range []int{16, 18} { // 2048.0 in f16 is 0x6800
		if got := binary.LittleEndian.Uint16(b[off:]); got != 0x6800 {
			t.Errorf("f16 counter at %d: %#x, want 0x6800 (2048.0)", off, got)
		}
	}
	if got := uint64(binary.LittleEndian.Uint32(b[20:])); got != 5*n {
		t.Errorf("red counter %d, want %d", got, 5*n)
	}
}
