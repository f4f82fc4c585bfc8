//go:build amd64 && !purego

package exec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// TestBatchRowLoops checks the batch's AVX2 row loops against the rule
// they implement, element by element: 32-bit values zero- or
// sign-extended into 64-bit slots and back (the low halves), 64-bit
// values copied, over rows a register file apart.
func TestBatchRowLoops(t *testing.T) {
	if !simdSupported() {
		t.Skip("no AVX2")
	}
	r := rand.New(rand.NewPCG(3, 4))
	const rows, file = 5, 7 * warpSize // 5 rows, 7 slots a file apart
	mem32 := make([]byte, rows*warpSize*4)
	mem64 := make([]byte, rows*warpSize*8)
	for i := range mem32 {
		mem32[i] = byte(r.Uint32())
	}
	for i := range mem64 {
		mem64[i] = byte(r.Uint32())
	}
	regs := make([]uint64, rows*file)
	row := func(b int) *lanes { return (*lanes)(regs[b*file:]) }
	fill := func() {
		for i := range regs {
			regs[i] = r.Uint64()
		}
	}
	stride := uintptr(file * 8)
	for _, signed := range []bool{false, true} {
		fill()
		if signed {
			batchLoadS32N(row(0), stride, &mem32[0], rows, 0)
		} else {
			batchLoadZ32N(row(0), stride, &mem32[0], rows, 0)
		}
		for b := range rows {
			for i := range warpSize {
				v := binary.LittleEndian.Uint32(mem32[(b*warpSize+i)*4:])
				want := uint64(v)
				if signed {
					want = uint64(int64(int32(v)))
				}
				if got := row(b)[i]; got != want {
					t.Fatalf("load32 signed %v: row %d lane %d: %#x, want %#x", signed, b, i, got, want)
				}
			}
		}
	}
	for _, stream := range []string{"", "loop"} { // (plain; batchStoreNT32N)
		fill()
		out := mem.HostBytes(uint64(len(mem32))) // (8-byte aligned; 32 for the streaming stores)
		if stream != "" {
			out = mem.HostBytes(uint64(len(mem32) + 32))
			out = out[(32-uintptr(unsafe.Pointer(&out[0]))&31)&31:][:len(mem32)]
		}
		switch stream {
		case "":
			batchStore32N(&out[0], row(0), stride, rows, 0)
		default:
			batchStoreNT32N(&out[0], row(0), stride, rows)
		}
		for b := range rows {
			for i := range warpSize {
				if got, want := binary.LittleEndian.Uint32(out[(b*warpSize+i)*4:]), uint32(row(b)[i]); got != want {
					t.Fatalf("store32 (streaming %q): row %d lane %d: %#x, want %#x", stream, b, i, got, want)
				}
			}
		}
	}
	fill()
	batchCopy64N(row(0), stride, &mem64[0], rows, 0)
	out64 := make([]byte, len(mem64))
	batchStore64N(&out64[0], row(0), stride, rows, 0)
	nt64 := mem.HostBytes(uint64(len(mem64) + 32))
	nt64 = nt64[(32-uintptr(unsafe.Pointer(&nt64[0]))&31)&31:][:len(mem64)]
	batchStoreNT64N(&nt64[0], row(0), stride, rows)
	if !bytes.Equal(nt64, out64) {
		t.Fatal("store64: the streaming loop stored other bytes")
	}
	for b := range rows {
		for i := range warpSize {
			want := binary.LittleEndian.Uint64(mem64[(b*warpSize+i)*8:])
			if got := row(b)[i]; got != want {
				t.Fatalf("copy64: row %d lane %d: %#x, want %#x", b, i, got, want)
			}
		}
	}
	if string(out64) != string(mem64) {
		t.Fatal("store64 did not give back what copy64 loaded")
	}
	for _, c := range [][2]uint64{{0, 1}, {1 << 63, 16}, {^uint64(0) - 40, 3}, {12345, ^uint64(7)}} {
		var got lanes
		batchIota(&got, c[0], c[1])
		for i := range got {
			if want := c[0] + uint64(i)*c[1]; got[i] != want {
				t.Fatalf("iota %#x step %#x: lane %d: %#x, want %#x", c[0], c[1], i, got[i], want)
			}
		}
	}
	// segments: n slots from a lane on
	for _, n := range []int{4, 8, 16, 28} {
		fill()
		lane := 4
		before := *row(0)
		batchLoadZ32s(&row(0)[lane], &mem32[0], n)
		for i := range warpSize {
			want := before[i] // (the other lanes keep their values)
			if i >= lane && i < lane+n {
				want = uint64(binary.LittleEndian.Uint32(mem32[4*(i-lane):]))
			}
			if got := row(0)[i]; got != want {
				t.Fatalf("load32s %d: lane %d: %#x, want %#x", n, i, got, want)
			}
		}
		seg := make([]byte, 4*n+8)
		batchStore32s(&seg[0], &row(0)[lane], n)
		for k := range n {
			if got, want := binary.LittleEndian.Uint32(seg[4*k:]), uint32(row(0)[lane+k]); got != want {
				t.Fatalf("store32s %d: element %d: %#x, want %#x", n, k, got, want)
			}
		}
		if binary.LittleEndian.Uint64(seg[4*n:]) != 0 {
			t.Fatalf("store32s %d wrote past its %d elements", n, n)
		}
	}
	// v4 vectors: lane i's element k to and from row k
	fill()
	vec := make([]byte, rows*warpSize*16)
	for i := range vec {
		vec[i] = byte(r.Uint32())
	}
	batchLoadV4Z32N(row(0), (*lanes)(regs[2*warpSize:]), (*lanes)(regs[4*warpSize:]), (*lanes)(regs[6*warpSize:]), stride, &vec[0], rows, 0)
	for b := range rows {
		for i := range warpSize {
			for k := range 4 {
				want := uint64(binary.LittleEndian.Uint32(vec[((b*warpSize+i)*4+k)*4:]))
				if got := regs[b*file+2*k*warpSize+i]; got != want {
					t.Fatalf("loadV4: block %d lane %d element %d: %#x, want %#x", b, i, k, got, want)
				}
			}
		}
	}
	for i := range regs { // upper halves that the store must ignore
		regs[i] |= r.Uint64() << 32
	}
	back := make([]byte, len(vec))
	batchStoreV4x32N(&back[0], row(0), (*lanes)(regs[2*warpSize:]), (*lanes)(regs[4*warpSize:]), (*lanes)(regs[6*warpSize:]), stride, rows, 0)
	if string(back) != string(vec) {
		t.Fatal("storeV4 did not give back what loadV4 loaded")
	}
	// chunks: a gather, eight consecutive values, one value for eight
	offs := make([]uint32, warpSize)
	for i := range offs {
		offs[i] = uint32(i * 13 % 60 * 4)
	}
	var got lanes
	for i := range 8 {
		offs[8+i] = uint32(40 + 4*i)
		offs[16+i] = 12
	}
	kinds := []uint8{0, 1, 2, 0}
	batchChunks32(&got, &vec[0], &offs[0], &kinds[0])
	for i := range got {
		if want := uint64(binary.LittleEndian.Uint32(vec[offs[i]:])); got[i] != want {
			t.Fatalf("chunks: lane %d: %#x, want %#x", i, got[i], want)
		}
	}
	// chunks of 3 warps in 4 CTAs, each CTA's memory 96 bytes on, rows 5
	// rows apart: each warp's offsets and kinds (a gather, consecutive,
	// one value, per chunk), each CTA's memory
	const wpc, ctas, cta, gap = 3, 4, 96, 5
	woffs := make([]uint32, wpc*warpSize)
	wkinds := make([]uint8, wpc*4)
	for w := range wpc {
		for c := range 4 {
			k := uint8((w + c) % 3)
			wkinds[4*w+c] = k
			for j := range 8 {
				i := w*warpSize + 8*c + j
				switch k {
				case 0:
					woffs[i] = uint32(r.IntN(40) * 4)
				case 1:
					woffs[i] = uint32(4*w + 4*j)
				case 2:
					woffs[i] = uint32(8 * (w + c))
				}
			}
		}
	}
	many := make([]uint64, ctas*wpc*gap*warpSize)
	batchChunks32N((*lanes)(many), gap*warpSize*8, &vec[0], cta, &woffs[0], &wkinds[0], wpc, ctas)
	for c := range ctas {
		for w := range wpc {
			row := many[(c*wpc+w)*gap*warpSize:]
			for i := range warpSize {
				want := uint64(binary.LittleEndian.Uint32(vec[c*cta+int(woffs[w*warpSize+i]):]))
				if row[i] != want {
					t.Fatalf("chunksN: CTA %d warp %d lane %d: %#x, want %#x", c, w, i, row[i], want)
				}
			}
		}
	}
	// the same with every chunk of one kind, of 4-byte values
	// (batchChunks32NK) and of 8-byte ones (batchChunks64NK: a tile of
	// f64, each CTA's memory 512 bytes on): eight consecutive values from
	// each chunk's own offset, or one value; the prefetching loops give
	// what the plain ones give
	const cta64 = 512
	vec64 := make([]byte, ctas*cta64)
	for i := range vec64 {
		vec64[i] = byte(r.Uint32())
	}
	type chunkLoad func(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, bcast bool, wpc, ctas int, pf uintptr)
	type chunkStore func(dst *byte, dstStride uintptr, row *lanes, rowStride uintptr, offs *uint32, wpc, ctas int)
	// value reads the element of size bytes at b
	value := func(b []byte, size int) uint64 {
		if size == 4 {
			return uint64(binary.LittleEndian.Uint32(b))
		}
		return binary.LittleEndian.Uint64(b)
	}
	// chunkOffsets gives each warp's four chunks a first offset below
	// slots elements and its eight lanes that offset (bcast) or the
	// eight elements from it
	chunkOffsets := func(size, slots int, bcast bool) {
		for w := range wpc {
			for c := range 4 {
				first := uint32(r.IntN(slots) * size)
				for j := range 8 {
					woffs[w*warpSize+8*c+j] = first
					if !bcast {
						woffs[w*warpSize+8*c+j] = first + uint32(size*j)
					}
				}
			}
		}
	}
	for _, e := range []struct {
		name         string // of the loops: batchChunks<name>, ...
		size, stride int    // element and CTA-to-CTA bytes
		storeSlots   int    // stores' first offsets are below this many elements
		mem          []byte // what the loads read
		load, loadPF chunkLoad
		store        chunkStore
	}{
		{"32NK", 4, cta, 16, vec, batchChunks32NK, batchChunks32NKPF, batchStoreChunks32NK},
		{"64NK", 8, cta64, 32, vec64, batchChunks64NK, batchChunks64NKPF, batchStoreChunks64NK},
	} {
		for _, bcast := range []bool{false, true} {
			chunkOffsets(e.size, 56, bcast)
			clear(many)
			e.load((*lanes)(many), gap*warpSize*8, &e.mem[0], uintptr(e.stride), &woffs[0], bcast, wpc, ctas, 0)
			plain := slices.Clone(many)
			clear(many)
			e.loadPF((*lanes)(many), gap*warpSize*8, &e.mem[0], uintptr(e.stride), &woffs[0], bcast, wpc, ctas, 4096)
			if !slices.Equal(plain, many) {
				t.Fatalf("batchChunks%sPF (broadcast %v) differs from batchChunks%[1]s", e.name, bcast)
			}
			for c := range ctas {
				for w := range wpc {
					row := many[(c*wpc+w)*gap*warpSize:]
					for i := range warpSize {
						want := value(e.mem[c*e.stride+int(woffs[w*warpSize+i]):], e.size)
						if row[i] != want {
							t.Fatalf("batchChunks%s (broadcast %v): CTA %d warp %d lane %d: %#x, want %#x", e.name, bcast, c, w, i, row[i], want)
						}
					}
				}
			}
		}
		// stores by chunks of eight consecutive elements
		// (batchStoreChunks32NK, 64NK), a 4-byte element the low half of
		// its slot: each CTA's memory gets, in lane order, what a loop
		// over the lanes stores (chunks of different warps overlap, so
		// the later one's elements win)
		chunkOffsets(e.size, e.storeSlots, false)
		for i := range many {
			many[i] = r.Uint64()
		}
		got := make([]byte, ctas*e.stride)
		want := make([]byte, ctas*e.stride)
		e.store(&got[0], uintptr(e.stride), (*lanes)(many), gap*warpSize*8, &woffs[0], wpc, ctas)
		for c := range ctas {
			for w := range wpc {
				row := many[(c*wpc+w)*gap*warpSize:]
				for i := range warpSize {
					var b [8]byte
					binary.LittleEndian.PutUint64(b[:], row[i])
					copy(want[c*e.stride+int(woffs[w*warpSize+i]):][:e.size], b[:])
				}
			}
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("batchStoreChunks%s: the memory differs from lane-by-lane stores", e.name)
		}
	}
}

// TestStreamStoreChoice: a batch's store streams (streamStore) to an
// aligned range of an allocation of streamMin bytes or more that no load
// of the batch read and no undo log keeps, and to nothing else;
// streamRange leaves out the undo log.
func TestStreamStoreChoice(t *testing.T) {
	if !simdSupported() {
		t.Skip("no AVX2")
	}
	setFlag(t, &simdEnabled, true)
	big, small := mem.HostBytes(streamMin), mem.HostBytes(streamMin/2)
	r := &batchRun{plan: &batchPlan{}}
	const start, total = 0x1000, 0x1000
	for _, c := range []struct {
		name  string
		data  []byte
		off   uint64
		reads [][2]uint64
		undo  bool
		want  bool
	}{
		{"fresh", big, 0, nil, false, true},
		{"a load read below and above it", big, 0, [][2]uint64{{0, start}, {start + total, 0x3000}}, false, true},
		{"a load read into it", big, 0, [][2]uint64{{0, start + 1}}, false, false},
		{"a load read from its end", big, 0, [][2]uint64{{start + total - 4, 0x3000}}, false, false},
		{"a small allocation", small, 0, nil, false, false},
		{"misaligned", big, 4, nil, false, false},
		{"an undo log", big, 0, nil, true, false},
	} {
		r.readRanges, r.plan.undo = c.reads, c.undo
		if got := r.streamStore(c.data, c.off, start, total); got != c.want {
			t.Errorf("%s: streamStore %v, want %v", c.name, got, c.want)
		}
		// a store that keeps nothing (a segment's last) streams by the
		// other rules alone, undo log or not
		if got, want := r.streamRange(c.data, c.off, start, total), c.want || c.undo; got != want {
			t.Errorf("%s: streamRange %v, want %v", c.name, got, want)
		}
	}
}

// TestStreamedStoresReadBack: a batched kernel over 8 MiB arrays whose
// stores may stream (streamStore) reads back what it stored, in the same
// thread right after the store, and its results are the arithmetic's:
// out[i] = in[i], out2[i] = out[i] + 1 (modulo the element's width), for
// elements of 1, 2, 4 and 8 bytes (the first two must not take the 4- and
// 8-byte streaming loops), on one worker and on two; with 4- and 8-byte
// elements the batches run segments whose last store streams.
func TestStreamedStoresReadBack(t *testing.T) {
	if !simdSupported() {
		t.Skip("no AVX2")
	}
	setFlag(t, &batchEnabled, true)
	setFlag(t, &streamEnabled, true)
	for _, c := range []struct {
		typ, reg string
		size     uint64
	}{{"u8", "u32", 1}, {"u16", "u32", 2}, {"u32", "u32", 4}, {"u64", "u64", 8}} {
		src := fmt.Sprintf(`.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out, .param .u64 out2) {
	.reg .u32 %%r<4>;
	.reg .%[2]s %%d<2>;
	.reg .u64 %%a<8>;
	ld.param.u64 %%a0, [in];
	ld.param.u64 %%a1, [out];
	ld.param.u64 %%a2, [out2];
	mov.u32 %%r0, %%ctaid.x;
	mov.u32 %%r1, %%ntid.x;
	mov.u32 %%r2, %%tid.x;
	mad.lo.u32 %%r3, %%r0, %%r1, %%r2;
	mul.wide.u32 %%a3, %%r3, %[3]d;
	add.u64 %%a4, %%a0, %%a3;
	add.u64 %%a5, %%a1, %%a3;
	add.u64 %%a6, %%a2, %%a3;
	ld.global.%[1]s %%d0, [%%a4];
	st.global.%[1]s [%%a5], %%d0;
	ld.global.%[1]s %%d1, [%%a5];
	add.%[2]s %%d1, %%d1, 1;
	st.global.%[1]s [%%a6], %%d1;
	ret;
}`, c.typ, c.reg, c.size)
		n := streamMin / c.size
		mask := ^uint64(0) >> (64 - 8*c.size)
		elem := func(b []byte, i uint64) uint64 {
			var w [8]byte
			copy(w[:], b[i*c.size:(i+1)*c.size])
			return binary.LittleEndian.Uint64(w[:])
		}
		for _, workers := range []int{1, 2} {
			p, g := load(t, src)
			in, _ := g.Alloc(n*c.size, 0)
			out, _ := g.Alloc(n*c.size, 0)
			out2, _ := g.Alloc(n*c.size, 0)
			b, _ := g.Bytes(in, n*c.size)
			for i := range n {
				var w [8]byte
				binary.LittleEndian.PutUint64(w[:], i*0x9e3779b97f4a7c15)
				copy(b[i*c.size:], w[:c.size])
			}
			var st LaunchStats
			segs, streams := segmentRuns.Load(), segmentStreams.Load()
			if err := p.Launch(t.Context(), "k", LaunchConfig{Grid: [3]int{int(n / 256), 1, 1}, Block: [3]int{256, 1, 1},
				Params: params(p.Kernels["k"], in, out, out2), Workers: workers, Stats: &st}); err != nil {
				t.Fatal(err)
			}
			if st.Batched == 0 {
				t.Fatalf("%s, workers %d: no batch ran", c.typ, workers)
			}
			// (as streaming segments, batch_segment.go, warp by warp, each
			// warp reading back its own streamed rows)
			if ran := segmentRuns.Load() > segs; ran != segmentsEnabled {
				t.Fatalf("%s, workers %d: segments ran %v", c.typ, workers, ran)
			}
			// (their last store, to out2, streams where it is of 4 or 8
			// bytes: nothing after it can send the batch back, so it keeps
			// nothing; the store to out, read back, keeps its bytes and
			// does not)
			if streamed := segmentStreams.Load() > streams; streamed != (c.size >= 4 && segmentsEnabled) {
				t.Fatalf("%s, workers %d: segments streamed %v", c.typ, workers, streamed)
			}
			o, _ := g.Bytes(out, n*c.size)
			o2, _ := g.Bytes(out2, n*c.size)
			for i := range n {
				v := i * 0x9e3779b97f4a7c15 & mask
				if got := elem(o, i); got != v {
					t.Fatalf("%s, workers %d: out[%d] = %#x, want %#x", c.typ, workers, i, got, v)
				}
				if got := elem(o2, i); got != (v+1)&mask {
					t.Fatalf("%s, workers %d: out2[%d] = %#x, want %#x", c.typ, workers, i, got, (v+1)&mask)
				}
			}
		}
	}
}
