package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/fp"
)

// TestBatchFloatAtomicOneWord: atom.global.add.f32 of every thread to one
// word (addOneF32 in batches), its old values left unread or (warp engine
// only) stored, against the
// rule of 9.7.13.5 applied in the warp engine's order on one worker (CTA
// after CTA, lane after lane): subnormal inputs and results flushed to
// zeros of their sign, the sum rounded to nearest even, a NaN result the
// canonical 0x7fffffff.
func TestBatchFloatAtomicOneWord(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry fone(.param .u64 x, .param .u64 sum, .param .u64 out, .param .u32 n) {
	.reg .u32 %i, %t, %j, %n;
	.reg .f32 %v, %o;
	.reg .u64 %xp, %sp, %op, %a;
	.reg .pred %p;
	ld.param.u64 %xp, [x];
	ld.param.u64 %sp, [sum];
	ld.param.u64 %op, [out];
	ld.param.u32 %n, [n];
	mov.u32 %i, %ctaid.x;
	mov.u32 %t, %ntid.x;
	mov.u32 %j, %tid.x;
	mad.lo.u32 %i, %i, %t, %j;
	setp.ge.u32 %p, %i, %n;
	@%p bra Done;
	mul.wide.u32 %a, %i, 4;
	add.u64 %xp, %xp, %a;
	add.u64 %op, %op, %a;
	ld.global.f32 %v, [%xp];
	atom.global.add.f32 %o, [%sp], %v;
	STORE
Done:
	ret;
}
`
	flush := func(b uint32) uint32 {
		if b&0x7f800000 == 0 {
			return b & 0x80000000
		}
		return b
	}
	add := func(a, b uint32) uint32 {
		r := math.Float32bits(math.Float32frombits(flush(a)) + math.Float32frombits(flush(b)))
		if r&0x7fffffff > 0x7f800000 {
			return 0x7fffffff
		}
		return flush(r)
	}
	f := math.Float32bits
	const n = 150 // three CTAs of 64 threads, the last one partial
	for _, c := range []struct {
		name  string
		sum   uint32
		first []uint32 // the first inputs
		rest  uint32   // the others' input (0: i/8 - 9 for thread i)
	}{
		// a negative subnormal sum (-1e-39) flushes to -0, which adding
		// -0 keeps (+0 would not); the subnormal starting value too
		{"negative zero", 0x80000001, []uint32{f(-1.5e-38), f(1.4e-38)}, 0x80000000},
		// the starting value flushed: 0x00800000, not 0x00800001
		{"subnormal start", 0x00000001, []uint32{0x00800000}, 0x80000000},
		// a subnormal input adds as a zero: 0x00800000, not 0x00800005
		{"subnormal input", 0x00800000, []uint32{0x00000005}, 0x80000000},
		// Inf then -Inf: NaN, canonical, which stays
		{"nan", f(1), []uint32{f(3), 0x7f800000, f(5), 0xff800000, f(7)}, 0},
		{"plain", f(0.1), nil, 0},
	} {
		x := make([]byte, 4*n)
		for i := range n {
			v := c.rest
			switch {
			case i < len(c.first):
				v = c.first[i]
			case v == 0:
				v = f(float32(i)/8 - 9)
			}
			binary.LittleEndian.PutUint32(x[4*i:], v)
		}
		sum, wantOld := c.sum, make([]uint32, n)
		for i := range n {
			wantOld[i] = sum
			sum = add(sum, binary.LittleEndian.Uint32(x[4*i:]))
		}
		for _, store := range []bool{true, false} {
			s := strings.Replace(src, "STORE", "st.global.f32 [%op], %o;", 1)
			if !store {
				s = strings.Replace(src, "STORE", "", 1)
			}
			sb := make([]byte, 4)
			binary.LittleEndian.PutUint32(sb, c.sum)
			in := bdInput{x, sb, make([]byte, 4*n)}
			for _, batch := range []bool{false, true} {
				res, err := bdRun(s, "fone", bdX(3), bdX(64), in, bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(n)), 1, batch)
				if err != nil || res.err != nil {
					t.Fatalf("%s: %v %v", c.name, err, res.err)
				}
				if batch && !store && res.stats.Batched == 0 {
					t.Fatalf("%s: not batched", c.name) // (a store after the atomic keeps the kernel out of batches)
				}
				if got := binary.LittleEndian.Uint32(res.mem[1]); got != sum {
					t.Errorf("%s (store %v, batch %v): sum %#x, want %#x", c.name, store, batch, got, sum)
				}
				for i := 0; store && i < n; i++ {
					if got := binary.LittleEndian.Uint32(res.mem[2][4*i:]); got != wantOld[i] {
						t.Fatalf("%s (batch %v): thread %d's old value %#x, want %#x", c.name, batch, i, got, wantOld[i])
					}
				}
			}
		}
	}
}

// TestBatchPendingAdds: grid-stride histograms whose adds (red, atom with
// its old value unread; 32 and 64 bits) lie in the loop run in batches as
// pending sums (batch_pending.go) and end as on the warp engine; bins
// past the words the sums cover, a bin past the buffer and a misaligned
// buffer send the batches back to the warp engine, which gives the same
// memory or fault.
func TestBatchPendingAdds(t *testing.T) {
	const n = 6000
	for _, c := range []struct {
		op, typ     string
		nbins, have int    // bins the keys name, and the buffer holds
		off         uint64 // the buffer's misalignment
		batched     bool
	}{
		{"red", ".u32", 256, 256, 0, true},
		{"atom", ".u32", 7, 7, 0, true},
		{"red", ".u64", 300, 300, 0, true},
		{"atom", ".u64", 5, 5, 0, true},
		{"red", ".u32", 3 * redWords, 3 * redWords, 0, false},
		{"red", ".u32", 256, 200, 0, false},
		{"atom", ".u32", 256, 257, 2, false},
	} {
		name := fmt.Sprintf("%s%s/%d/%d/%d", c.op, c.typ, c.nbins, c.have, c.off)
		src := histoSrc(c.op, c.typ)
		w := 4
		if c.typ == ".u64" {
			w = 8
		}
		in := bdFillBufs(bdBufs(bdWords(n, bdRand), bdB(w*c.have+8, bdZero)), bdSeed(name))
		args := bdArgs(bdPtr(0), bdPtrOff(1, c.off), bdU(n), bdU(uint64(c.nbins)))
		diff, ref := bdDiff(t, src, "histo", bdX(12), bdX(96), in, args, c.batched)
		if diff != "" {
			t.Fatalf("%s: %s", name, diff)
		}
		var f *Fault
		if fault := c.have < c.nbins || c.off != 0; fault != errors.As(ref.err, &f) {
			t.Fatalf("%s: err %v, want a fault: %v", name, ref.err, fault)
		}
	}
}

// TestBatchPendingDropped: a batch that goes back to the warp engine after
// some of its adds (a lane's bin past the buffer) leaves no sums behind:
// the next launch of the kernel, whose batches reuse the first one's
// state, counts each key once.
func TestBatchPendingDropped(t *testing.T) {
	p, g := load(t, histoSrc("red", ".u32"))
	k := p.Kernels["histo"]
	const n, nbins = 3000, 64
	keys, _ := g.Alloc(4*n, 0)
	bins, _ := g.Alloc(4*nbins, 0)
	kb, _ := g.Bytes(keys, 4*n)
	want := make([]uint32, nbins)
	for i := range n {
		key := uint32(i*7919) | uint32(i%5)<<16
		binary.LittleEndian.PutUint32(kb[4*i:], key)
		want[key%nbins] += key >> 16
	}
	launch := func(nb uint64) (LaunchStats, error) {
		var st LaunchStats
		err := p.Launch(context.Background(), "histo", LaunchConfig{Grid: [3]int{8, 1, 1}, Block: [3]int{64, 1, 1},
			Params: params(k, keys, bins, n, nb), Workers: 1, Stats: &st})
		return st, err
	}
	// 80 bins in a buffer of 64: the lanes of bins 64..79 fault
	if _, err := launch(80); err == nil {
		t.Fatal("no fault for bins past the buffer")
	}
	bb, _ := g.Bytes(bins, 4*nbins)
	clear(bb)
	st, err := launch(nbins)
	if err != nil {
		t.Fatal(err)
	}
	if st.Batched == 0 {
		t.Fatal("not batched")
	}
	for i, x := range want {
		if got := binary.LittleEndian.Uint32(bb[4*i:]); got != x {
			t.Fatalf("bins[%d] = %d, want %d", i, got, x)
		}
	}
}

// TestBatchPendingReadBack: a thread that adds to its word and then loads
// it sees its add (the batch, whose load would not, goes back to the warp
// engine; a load before the add has looked the allocation up already):
// out[i] = init[i] + 5.
func TestBatchPendingReadBack(t *testing.T) {
	const src = `.version 8.0
.target sm_90
.address_size 64
.visible .entry rb(.param .u64 a, .param .u64 out) {
	.reg .u32 %i, %t, %j, %v, %w;
	.reg .u64 %ap, %op, %o;
	ld.param.u64 %ap, [a];
	ld.param.u64 %op, [out];
	mov.u32 %i, %ctaid.x;
	mov.u32 %t, %ntid.x;
	mov.u32 %j, %tid.x;
	mad.lo.u32 %i, %i, %t, %j;
	mul.wide.u32 %o, %i, 4;
	add.u64 %ap, %ap, %o;
	add.u64 %op, %op, %o;
	ld.global.u32 %w, [%ap];
	red.global.add.u32 [%ap], 5;
	ld.global.u32 %v, [%ap];
	sub.u32 %v, %v, %w;
	add.u32 %v, %v, %w;
	st.global.u32 [%op], %v;
	ret;
}
`
	const n = 4 * 64
	in := bdFillBufs(bdBufs(bdWords(n, bdRand), bdWords(n, bdZero)), 7)
	ref := bdSame(t, "launch", src, "rb", bdX(4), bdX(64), in, bdArgs(bdPtr(0), bdPtr(1)), false)
	// (the batched runs' memory is ref's: bdDiff compares it)
	for i := range n {
		want := binary.LittleEndian.Uint32(in[0][4*i:]) + 5
		if got := binary.LittleEndian.Uint32(ref.mem[1][4*i:]); got != want {
			t.Fatalf("thread %d read %d, want %d", i, got, want)
		}
	}
}

// batchAtomicWordsSrc adds each thread's x[i] to word i % bins of sum.
const batchAtomicWordsSrc = `.version 8.0
.target sm_90
.address_size 64
.visible .entry fsum(.param .u64 x, .param .u64 sum, .param .u32 n, .param .u32 bins) {
	.reg .u32 %i, %t, %j, %n, %b;
	.reg .f64 %v, %o;
	.reg .u64 %xp, %sp, %a;
	.reg .pred %p;
	ld.param.u64 %xp, [x];
	ld.param.u64 %sp, [sum];
	ld.param.u32 %n, [n];
	ld.param.u32 %b, [bins];
	mov.u32 %i, %ctaid.x;
	mov.u32 %t, %ntid.x;
	mov.u32 %j, %tid.x;
	mad.lo.u32 %i, %i, %t, %j;
	setp.ge.u32 %p, %i, %n;
	@%p bra Done;
	mul.wide.u32 %a, %i, 8;
	add.u64 %xp, %xp, %a;
	ld.global.f64 %v, [%xp];
	rem.u32 %j, %i, %b;
	mul.wide.u32 %a, %j, 8;
	add.u64 %sp, %sp, %a;
	atom.global.add.f64 %o, [%sp], %v;
Done:
	ret;
}
`

// TestBatchF64AtomicWords: atom.global.add.f64 of every thread to one of
// a few words (addWordsF64 in batches), old values unread, against
// 9.7.13.5's add applied in the warp engine's order on one worker (CTA
// after CTA, lane after lane), each sum rounded to nearest even (fp's
// exact add): inputs whose sums round differently in another order, and
// NaNs, whose payload the first one keeps (quieted). On two workers,
// integer-valued inputs give exact sums in any order.
func TestBatchF64AtomicWords(t *testing.T) {
	src := batchAtomicWordsSrc
	const n = 1000 // eight CTAs of 128 threads, the last one partial
	for _, c := range []struct {
		name    string
		bins    int
		workers int
		x       func(i int) float64
		nan     map[int]uint64 // inputs replaced by these bits
	}{
		{"one word", 1, 1, func(i int) float64 { return float64(i%7-3)*1e16 + float64(i)*0.1 }, nil},
		{"five words", 5, 1, func(i int) float64 { return math.Ldexp(float64(i%11)+0.3, i%60-30) }, nil},
		{"nan payloads", 3, 1, func(i int) float64 { return float64(i) * 0.7 },
			map[int]uint64{10: 0x7ff0000000000123, 13: 0xfff8000000000456, 40: 0x7ff0000000000001}},
		{"infinities", 2, 1, func(i int) float64 { return float64(i) }, map[int]uint64{7: 0x7ff0000000000000, 9: 0xfff0000000000000}},
		{"two workers, integers", 7, 2, func(i int) float64 { return float64(i*i%1000 - 400) }, nil},
	} {
		x := make([]byte, 8*n)
		for i := range n {
			v := math.Float64bits(c.x(i))
			if b, ok := c.nan[i]; ok {
				v = b
			}
			binary.LittleEndian.PutUint64(x[8*i:], v)
		}
		want := make([]uint64, c.bins)
		for i := range want {
			want[i] = math.Float64bits(0.5) // the words' starting value
		}
		for i := range n {
			want[i%c.bins] = fp.F64.Add(want[i%c.bins], binary.LittleEndian.Uint64(x[8*i:]), fp.RN)
		}
		sums := make([]byte, 8*c.bins)
		for i := range c.bins {
			binary.LittleEndian.PutUint64(sums[8*i:], math.Float64bits(0.5))
		}
		for _, batch := range []bool{false, true} {
			res, err := bdRun(src, "fsum", bdX(8), bdX(128), bdInput{x, sums}, bdArgs(bdPtr(0), bdPtr(1), bdU(n), bdU(uint64(c.bins))), c.workers, batch)
			if err != nil || res.err != nil {
				t.Fatalf("%s: %v %v", c.name, err, res.err)
			}
			if batch && res.stats.Batched == 0 {
				t.Fatalf("%s: not batched", c.name)
			}
			for w := range c.bins {
				if got := binary.LittleEndian.Uint64(res.mem[1][8*w:]); got != want[w] {
					t.Errorf("%s (batch %v): word %d %#x (%g), want %#x (%g)", c.name, batch, w, got,
						math.Float64frombits(got), want[w], math.Float64frombits(want[w]))
				}
			}
		}
	}
}

// TestBatchU64AtomicWords: atom.global.add.u64 (the only 64-bit integer
// add: 9.7.13.5), .acq_rel, of every thread to one of a few words
// (addWords64's fetch-and-add per word), the sums modulo 2^64 with carries out of the
// low halves and negative values, on one and two workers, batched and
// not.
func TestBatchU64AtomicWords(t *testing.T) {
	const n = 1000
	for _, c := range []struct {
		typ           string
		bins, workers int
	}{{".u64", 1, 1}, {".u64", 6, 2}, {".u64", 3, 1}, {".u64", 256, 2}} {
		src := strings.ReplaceAll(batchAtomicWordsSrc, ".f64", c.typ)
		// (.acq_rel keeps the adds out of batch_pending.go's sums, which
		// take relaxed unread integer adds)
		src = strings.Replace(src, "atom.global", "atom.acq_rel.gpu.global", 1)
		x := make([]byte, 8*n)
		want := make([]uint64, c.bins)
		for i := range n {
			v := uint64(0xfffffff0) + uint64(i)*0x100000001 // carries out of bit 31
			if c.bins%3 == 0 && i%3 == 0 {
				v = -v
			}
			binary.LittleEndian.PutUint64(x[8*i:], v)
			want[i%c.bins] += v
		}
		for _, batch := range []bool{false, true} {
			res, err := bdRun(src, "fsum", bdX(8), bdX(128), bdInput{x, make([]byte, 8*c.bins)},
				bdArgs(bdPtr(0), bdPtr(1), bdU(n), bdU(uint64(c.bins))), c.workers, batch)
			if err != nil || res.err != nil {
				t.Fatalf("%s: %v %v", c.typ, err, res.err)
			}
			if batch && res.stats.Batched == 0 {
				t.Fatalf("%s: not batched", c.typ)
			}
			for w := range c.bins {
				if got := binary.LittleEndian.Uint64(res.mem[1][8*w:]); got != want[w] {
					t.Fatalf("%s, %d bins (batch %v): word %d %#x, want %#x", c.typ, c.bins, batch, w, got, want[w])
				}
			}
		}
	}
}

// TestBatchPendingKept: a batch's sums join the worker's held sums
// (keep): added to them where they are for the same words, moved there
// when none are held, and for other words only after the held ones reach
// memory (commit), which then holds exactly their sums.
func TestBatchPendingKept(t *testing.T) {
	for _, width := range []uint64{4, 8} {
		mem := make([]byte, 2*redWords*width)
		mk := func(lo uint64, words map[int]uint64) batchPending {
			pd := batchPending{data: mem, base: 0x1000, width: width, lo: lo, first: redWords, last: -1,
				d32: make([]uint32, redWords), d64: make([]uint64, redWords)}
			for i, v := range words {
				if width == 4 {
					pd.d32[i] = uint32(v)
				} else {
					pd.d64[i] = v
				}
				pd.first, pd.last = min(pd.first, i), max(pd.last, i)
			}
			return pd
		}
		word := func(i uint64) uint64 {
			if width == 4 {
				return uint64(binary.LittleEndian.Uint32(mem[4*i:]))
			}
			return binary.LittleEndian.Uint64(mem[8*i:])
		}
		var held batchPending
		a := mk(0, map[int]uint64{3: 5, 9: 1})
		a.keep(&held)
		if a.data != nil || held.data == nil || held.first != 3 || held.last != 9 {
			t.Fatalf("width %d: the first sums were not moved to held: %+v", width, held)
		}
		b := mk(0, map[int]uint64{9: 2, 12: 7})
		b.keep(&held)
		if held.first != 3 || held.last != 12 || word(9) != 0 {
			t.Fatalf("width %d: sums for the same words: held [%d, %d], memory %d", width, held.first, held.last, word(9))
		}
		for i := range redWords {
			if width == 4 && b.d32[i] != 0 || width == 8 && b.d64[i] != 0 {
				t.Fatalf("width %d: the batch's word %d not cleared", width, i)
			}
		}
		c := mk(redWords*width, map[int]uint64{0: 4}) // other words: held's reach memory first
		c.keep(&held)
		if word(3) != 5 || word(9) != 3 || word(12) != 7 || word(redWords) != 0 {
			t.Fatalf("width %d: memory after other words' sums: %d %d %d %d", width, word(3), word(9), word(12), word(redWords))
		}
		held.commit()
		if word(redWords) != 4 || word(9) != 3 {
			t.Fatalf("width %d: memory after the last commit: %d %d", width, word(redWords), word(9))
		}
	}
}

// TestBatchPendingManyBatches: a histogram of 4096 bins over many batches
// (their sums held by the worker between them, keep) ends as on the warp
// engine, on one worker and two, 32- and 64-bit adds; and a lane past the
// buffer in a late CTA faults there, with the earlier batches' adds in
// memory as the warp engine leaves them. One bin: every lane of a warp at
// one word (its sum, then one add). 65536 bins: sparse sums, whose words
// the later batches list (addPendingListed) for keep.
func TestBatchPendingManyBatches(t *testing.T) {
	for _, typ := range []string{".u32", ".u64"} {
		w := 4
		if typ == ".u64" {
			w = 8
		}
		// (65536 bins and 2.5 keys a thread: about 17000 words a batch,
		// more than the list holds, touchedCap)
		for _, c := range []struct{ nbins, have, n int }{{4096, 4096, 19200}, {4096, 4095, 19200}, {1, 1, 19200},
			{65536, 65536, 19200}, {65536, 65536, 48000}} {
			nbins, have, n := c.nbins, c.have, c.n
			in := bdFillBufs(bdBufs(bdWords(n, bdRand), bdB(w*have, bdZero)), 31)
			args := bdArgs(bdPtr(0), bdPtr(1), bdU(uint64(n)), bdU(uint64(nbins)))
			diff, ref := bdDiffOn(t, histoSrc("red", typ), "histo", bdX(200), bdX(96), in, args, have == nbins, []int{1, 2})
			if diff != "" {
				t.Fatalf("%s bins %d have %d: %s", typ, nbins, have, diff)
			}
			if (ref.err != nil) != (have < nbins) {
				t.Fatalf("%s bins %d have %d: err %v", typ, nbins, have, ref.err)
			}
		}
	}
}

// TestBatchIdempotentAtomics: a kernel with several max, min, and and or
// atomics whose old values no one reads (a bounding box) runs in batches
// (atomicsOK), as on the warp engine, on one worker and two; where the
// last one's index runs past its buffer, the batch that applied the
// earlier ones goes back and the warp engine, applying them again, leaves
// the same memory and faults; an add among them keeps the kernel out of
// batches.
func TestBatchIdempotentAtomics(t *testing.T) {
	const tmpl = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 box, .param .u64 bits, .param .u32 n, .param .u32 nb)
{
	.reg .pred %p;
	.reg .b32 %r<16>;
	.reg .b64 %rd<10>;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [box];
	ld.param.u64 %rd3, [bits];
	ld.param.u32 %r1, [n];
	ld.param.u32 %r9, [nb];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.u32 %r5, %r2, %r3, %r4;
	setp.ge.u32 %p, %r5, %r1;
	@%p bra Done;
	mul.wide.u32 %rd4, %r5, 4;
	add.s64 %rd5, %rd1, %rd4;
	ld.global.u32 %r6, [%rd5];
	and.b32 %r7, %r6, 7;            // one of 8 boxes
	mul.wide.u32 %rd6, %r7, 8;
	add.s64 %rd7, %rd2, %rd6;
	atom.global.max.s32 %r10, [%rd7], %r6;
	atom.global.min.s32 %r11, [%rd7+4], %r6;
	rem.u32 %r7, %r5, %r9;          // a word of bits
	mul.wide.u32 %rd8, %r7, 4;
	add.s64 %rd9, %rd3, %rd8;
	OR
	atom.global.and.b32 %r12, [%rd9+1024], %r6;
Done:
	ret;
}`
	const n = 20000
	for _, c := range []struct {
		name, or string
		nb       uint64
		batched  bool
	}{
		{"box", "atom.global.or.b32 %r13, [%rd9], %r6;", 256, true},
		{"past the buffer", "atom.global.or.b32 %r13, [%rd9], %r6;", 300, false},
		{"an add", "atom.global.add.u32 %r13, [%rd9], %r6;", 256, false},
	} {
		src := strings.Replace(tmpl, "OR", c.or, 1)
		bits := bdB(2048, bdRand)
		in := bdFillBufs(bdBufs(bdWords(n, bdRand), bdB(64, bdRand), bits), 9)
		args := bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(n), bdU(c.nb))
		diff, ref := bdDiffOn(t, src, "k", bdX((n+127)/128), bdX(128), in, args, c.batched, []int{1, 2})
		if diff != "" {
			t.Fatal(c.name, diff)
		}
		if (ref.err != nil) != (c.nb > 256) {
			t.Fatalf("%s: err %v", c.name, ref.err)
		}
		on, err := bdRun(src, "k", bdX((n+127)/128), bdX(128), in, args, 1, true)
		if err != nil {
			t.Fatal(err)
		}
		if c.name == "an add" && on.stats.Batched != 0 {
			t.Errorf("%s: %d CTAs batched", c.name, on.stats.Batched)
		}
	}
}

// TestBatchHeldFolds: max, min, and and or atomics (old values unread) on
// 4096 words over many batches, which the worker holds from batch to batch
// (heldFold), end as on the warp engine, on one worker and two, for 32-
// and 64-bit types; a kernel with two of them on one allocation (which
// apply one before the other takes the slot) too; and a key past the
// buffer in a late CTA faults there, with the earlier batches' folds in
// memory as the warp engine leaves them.
func TestBatchHeldFolds(t *testing.T) {
	const tmpl = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 w, .param .u32 n, .param .u32 nb)
{
	.reg .pred %p;
	.reg .b32 %r<12>;
	.reg .b64 %rd<10>;
	.reg .b64 %v<4>;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [w];
	ld.param.u32 %r1, [n];
	ld.param.u32 %r9, [nb];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.u32 %r5, %r2, %r3, %r4;
	setp.ge.u32 %p, %r5, %r1;
	@%p bra Done;
	mul.wide.u32 %rd4, %r5, 8;
	add.s64 %rd5, %rd1, %rd4;
	ld.global.u64 %v1, [%rd5];
	cvt.u32.u64 %r6, %v1;
	rem.u32 %r7, %r6, %r9;
	mul.wide.u32 %rd6, %r7, SZ;
	add.s64 %rd7, %rd2, %rd6;
	ATOMS
Done:
	ret;
}`
	const n = 40000
	for _, c := range []struct {
		name, atoms string
		size        int
	}{
		{"max.s32", "cvt.u32.u64 %r8, %v1; atom.global.max.s32 %r10, [%rd7], %r8;", 4},
		{"min.u32", "cvt.u32.u64 %r8, %v1; atom.global.min.u32 %r10, [%rd7], %r8;", 4},
		{"and.b32", "cvt.u32.u64 %r8, %v1; atom.global.and.b32 %r10, [%rd7], %r8;", 4},
		{"or.b64", "atom.global.or.b64 %v2, [%rd7], %v1;", 8},
		{"max.s64", "atom.global.max.s64 %v2, [%rd7], %v1;", 8},
		{"min.u64 and max.u64", "atom.global.min.u64 %v2, [%rd7], %v1; atom.global.max.u64 %v3, [%rd7+32768], %v1;", 8},
	} {
		src := strings.NewReplacer("ATOMS", c.atoms, "SZ", fmt.Sprint(c.size)).Replace(tmpl)
		words := uint64(65536 / c.size)                // (the buffer's)
		for _, nb := range []uint64{4096, words + 8} { // (the second: keys past the buffer)
			in := bdFillBufs(bdBufs(bdDwords(n, bdRand), bdB(65536, bdRand)), 19)
			args := bdArgs(bdPtr(0), bdPtr(1), bdU(n), bdU(nb))
			diff, ref := bdDiffOn(t, src, "k", bdX((n+127)/128), bdX(128), in, args, nb == 4096, []int{1, 2})
			if diff != "" {
				t.Fatal(c.name, nb, diff)
			}
			if (ref.err != nil) != (nb > 4096) {
				t.Fatalf("%s %d: err %v", c.name, nb, ref.err)
			}
		}
	}
}
