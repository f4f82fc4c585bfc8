package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"unsafe"
)

// combineSrc: each thread applies OP (an atom or red of type TYP whose old
// value, when it has one, is read by nothing, or stored with STORE) of
// vals[i] to words[keys[i] % nwords], and nothing else.
const combineSrc = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 keys, .param .u64 vals, .param .u64 words, .param .u32 nwords, .param .u64 olds) {
	.reg .u32 %i, %t, %j, %key, %nw, %o32;
	.reg .b64 %v, %old;
	.reg .u64 %kp, %vp, %wp, %op, %a;
	ld.param.u64 %kp, [keys];
	ld.param.u64 %vp, [vals];
	ld.param.u64 %wp, [words];
	ld.param.u32 %nw, [nwords];
	ld.param.u64 %op, [olds];
	mov.u32 %i, %ctaid.x;
	mov.u32 %t, %ntid.x;
	mov.u32 %j, %tid.x;
	mad.lo.u32 %i, %i, %t, %j;
	mul.wide.u32 %a, %i, 4;
	add.u64 %a, %kp, %a;
	ld.global.u32 %key, [%a];
	rem.u32 %key, %key, %nw;
	mul.wide.u32 %a, %i, 8;
	add.u64 %a, %vp, %a;
	ld.global.u64 %v, [%a];
	mul.wide.u32 %a, %key, SIZE;
	add.u64 %a, %wp, %a;
	OP
	STORE
	ret;
}
`

// TestCombinedAtomics: max and min (signed and not), and, or and xor on 4-
// and 8-byte words, their old values unread, buffered by the warp engine
// (atomic_combine.go) and folded by batches (combineDense), on one and two
// workers, against the ops applied one by one in Go: the same words, and
// the same again with the old values stored (read: not buffered). Keys
// over 40000 words fall beyond the covered words too.
func TestCombinedAtomics(t *testing.T) {
	const n, block = 4096, 128
	r := rand.New(rand.NewPCG(8, 1))
	keys, vals := make([]byte, 4*n), make([]byte, 8*n)
	for i := range n {
		binary.LittleEndian.PutUint32(keys[4*i:], r.Uint32())
		binary.LittleEndian.PutUint64(vals[8*i:], r.Uint64()>>uint(r.IntN(64)))
	}
	for _, c := range []struct {
		op, typ string
		size    int
		apply   func(w, v uint64) uint64
	}{
		{"max", "u32", 4, func(w, v uint64) uint64 { return max(w, v&0xffffffff) }},
		{"max", "s32", 4, func(w, v uint64) uint64 { return uint64(uint32(max(int32(w), int32(v)))) }},
		{"min", "u32", 4, func(w, v uint64) uint64 { return min(w, v&0xffffffff) }},
		{"min", "s32", 4, func(w, v uint64) uint64 { return uint64(uint32(min(int32(w), int32(v)))) }},
		{"max", "u64", 8, func(w, v uint64) uint64 { return max(w, v) }},
		{"min", "s64", 8, func(w, v uint64) uint64 { return uint64(min(int64(w), int64(v))) }},
		{"and", "b32", 4, func(w, v uint64) uint64 { return w & v & 0xffffffff }},
		{"or", "b64", 8, func(w, v uint64) uint64 { return w | v }},
		{"xor", "b32", 4, func(w, v uint64) uint64 { return (w ^ v) & 0xffffffff }},
		{"xor", "b64", 8, func(w, v uint64) uint64 { return w ^ v }},
		{"exch", "b32", 4, func(_, v uint64) uint64 { return v & 0xffffffff }},
		{"exch", "b64", 8, func(_, v uint64) uint64 { return v }},
		{"inc", "u32", 4, func(w, _ uint64) uint64 { // (the limit: the immediate 37)
			if w >= 37 {
				return 0
			}
			return w + 1
		}},
		{"dec", "u32", 4, func(w, _ uint64) uint64 { // (the limit: the immediate 37)
			if w == 0 || w > 37 {
				return 37
			}
			return w - 1
		}},
	} {
		for _, nwords := range []int{1, 200, 40000} { // (40000: beyond the covered words)
			init := make([]byte, c.size*nwords)
			for i := range init {
				init[i] = byte(r.Uint32())
			}
			written := make([]map[uint64]bool, nwords) // (exch: the values each word got)
			for w := range written {
				written[w] = map[uint64]bool{}
			}
			for i := range n {
				k := binary.LittleEndian.Uint32(keys[4*i:]) % uint32(nwords)
				written[k][c.apply(0, binary.LittleEndian.Uint64(vals[8*i:]))] = true
			}
			want := make([]uint64, nwords)
			for w := range nwords {
				want[w] = wordBytes(init[c.size*w:], c.size)
			}
			for i := range n {
				k := binary.LittleEndian.Uint32(keys[4*i:]) % uint32(nwords)
				want[k] = c.apply(want[k], binary.LittleEndian.Uint64(vals[8*i:]))
			}
			mov := ""
			if c.size == 4 { // (the value's low half, in a 32-bit register)
				mov = "cvt.u32.u64 %j, %v;\n\t"
			}
			for _, form := range []string{"red", "atom", "atom stored"} {
				if form == "red" && c.op == "exch" {
					continue // (red has no exch)
				}
				op := mov + "red.global." + c.op + "." + c.typ + " [%a], VAL;"
				store := ""
				if form != "red" {
					op = mov + "atom.global." + c.op + "." + c.typ + " OLD, [%a], VAL;"
				}
				if form == "atom stored" {
					store = "mul.wide.u32 %a, %i, 8;\n\tadd.u64 %a, %op, %a;\n\tst.global.u64 [%a], %old;"
				}
				val, old := "%v", "%old"
				if c.op == "inc" || c.op == "dec" {
					val, old = "37", "%o32"
				} else if c.size == 4 {
					val, old = "%j", "%o32"
				}
				if c.size == 4 {
					store = strings.ReplaceAll(store, "st.global.u64 [%a], %old", "st.global.u32 [%a], %o32")
				}
				src := strings.NewReplacer("OP", strings.NewReplacer("VAL", val, "OLD", old).Replace(op), "STORE", store,
					"SIZE", fmt.Sprint(c.size)).Replace(combineSrc)
				for _, batch := range []bool{false, true} {
					for _, workers := range []int{1, 2} {
						var folded atomic.Int32 // (the workers' batches call it)
						afterCombineDense = func() { folded.Add(1) }
						res, err := bdRun(src, "k", bdX(n/block), bdX(block), bdInput{keys, vals, init, make([]byte, 8*n)},
							bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(uint64(nwords)), bdPtr(3)), workers, batch)
						afterCombineDense = nil
						if err != nil || res.err != nil {
							t.Fatalf("%s.%s %s: %v %v", c.op, c.typ, form, err, res.err)
						}
						// (a batch folds an unread op into a few words at once)
						if batch && workers == 1 && form != "atom stored" && nwords <= 200 && folded.Load() == 0 {
							t.Fatalf("%s.%s %s, %d words: no batch folded it", c.op, c.typ, form, nwords)
						}
						for w := range nwords {
							got := wordBytes(res.mem[2][c.size*w:], c.size)
							if c.op == "exch" && workers == 2 && (written[w][got] || len(written[w]) == 0 && got == want[w]) {
								continue // (the last write is any worker's)
							}
							if got != want[w] {
								t.Fatalf("%s.%s %s, %d words, batch %v, %d workers: word %d = %#x, want %#x",
									c.op, c.typ, form, nwords, batch, workers, w, got, want[w])
							}
						}
					}
				}
			}
		}
	}
}

func wordBytes(b []byte, size int) uint64 {
	if size == 4 {
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

// TestCombinedAtomicsSeen: warp 0's buffered atom.max to a word is seen
// by warp 1's read after bar.sync (the read puts the fold in memory), and
// a lane whose word lies past the allocation faults, naming it.
func TestCombinedAtomicsSeen(t *testing.T) {
	src := `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 x, .param .u32 bad) {
	.reg .u32 %t, %v, %bad;
	.reg .u64 %a, %o;
	.reg .pred %p;
	ld.param.u64 %a, [x];
	ld.param.u32 %bad, [bad];
	mov.u32 %t, %tid.x;
	setp.ge.u32 %p, %t, 32;
	@%p bra Wait;
	mul.lo.u32 %v, %t, 7;
	setp.eq.u32 %p, %t, %bad;
	mov.u64 %o, %a;
	@%p add.u64 %o, %o, 4096;
	red.global.max.u32 [%o], %v;
	setp.ge.u32 %p, %t, 32;
Wait:
	bar.sync 0;
	@!%p bra Done;
	ld.global.u32 %v, [%a];
	mul.wide.u32 %o, %t, 4;
	add.u64 %o, %a, %o;
	st.global.u32 [%o-124], %v;
Done:
	ret;
}
`
	for _, batch := range []bool{false, true} {
		setFlag(t, &batchEnabled, batch)
		p, g := load(t, src)
		x, _ := g.Alloc(256, 0)
		if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1},
			Params: params(p.Kernels["k"], x, 99), Workers: 1}); err != nil {
			t.Fatal(err)
		}
		b, _ := g.Bytes(x, 256)
		for l := 32; l < 64; l++ {
			if got := binary.LittleEndian.Uint32(b[4*(l-31):]); got != 31*7 {
				t.Errorf("batch %v: thread %d read %d after the barrier, want %d", batch, l, got, 31*7)
			}
		}
		err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1},
			Params: params(p.Kernels["k"], x, 5), Workers: 1})
		var f *Fault
		if !errors.As(err, &f) || f.Thread != [3]int{5, 0, 0} {
			t.Errorf("batch %v: got %v, want a fault in thread 5", batch, err)
		}
	}
}

// TestCombinedAtomicsAcrossFlushes: a CTA whose warps meet at a barrier
// 40 times, folding red.min into four words each time: the worker puts
// its folds in memory every redFlushRounds rounds and folds again after,
// and the words end at the least value (a fold kept past its flush, or
// one not applied again, would not).
func TestCombinedAtomicsAcrossFlushes(t *testing.T) {
	p, g := load(t, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 x) {
	.reg .u32 %t, %i, %v;
	.reg .u64 %a, %o;
	.reg .pred %p;
	ld.param.u64 %a, [x];
	mov.u32 %t, %tid.x;
	and.b32 %v, %t, 3;
	mul.wide.u32 %o, %v, 4;
	add.u64 %a, %a, %o;
	mov.u32 %i, 0;
Loop:
	sub.u32 %v, 1000, %i;
	add.u32 %v, %v, %t;
	red.global.min.u32 [%a], %v;
	bar.sync 0;
	add.u32 %i, %i, 1;
	setp.lt.u32 %p, %i, 40;
	@%p bra Loop;
	ret;
}
`)
	setFlag(t, &batchEnabled, false) // (the warp engine's buffers)
	x, _ := g.Alloc(16, 0)
	b, _ := g.Bytes(x, 16)
	for w := range 4 {
		binary.LittleEndian.PutUint32(b[4*w:], 5000)
	}
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{128, 1, 1},
		Params: params(p.Kernels["k"], x), Workers: 1}); err != nil {
		t.Fatal(err)
	}
	for w := range 4 {
		// thread w (w < 4) in the last round: 1000 - 39 + w
		if got := binary.LittleEndian.Uint32(b[4*w:]); got != uint32(961+w) {
			t.Errorf("word %d = %d, want %d", w, got, 961+w)
		}
	}
}

// TestCombineWord: every lane of a warp at one word, old values unread
// (simpleAtomicIntrinsics): combineWord's one fold gives what applying the
// lanes' ops to the word one after another in lane order gives, with the
// manual's rule for each op (9.7.13.5), for full and partial masks, 4- and
// 8-byte words, signed and unsigned; increments and decrements whose
// limits differ are declined.
func TestCombineWord(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	type opCase struct {
		op, typ string
		apply   func(w, v uint64) uint64
	}
	s32 := func(x uint64) int32 { return int32(uint32(x)) }
	cases := []opCase{
		{"max", ".u32", func(w, v uint64) uint64 { return max(w, v&0xffffffff) }},
		{"max", ".s32", func(w, v uint64) uint64 { return uint64(uint32(max(s32(w), s32(v)))) }},
		{"min", ".u32", func(w, v uint64) uint64 { return min(w, v&0xffffffff) }},
		{"min", ".s32", func(w, v uint64) uint64 { return uint64(uint32(min(s32(w), s32(v)))) }},
		{"max", ".s64", func(w, v uint64) uint64 { return uint64(max(int64(w), int64(v))) }},
		{"min", ".u64", func(w, v uint64) uint64 { return min(w, v) }},
		{"and", ".b32", func(w, v uint64) uint64 { return w & v & 0xffffffff }},
		{"and", ".b64", func(w, v uint64) uint64 { return w & v }},
		{"or", ".b32", func(w, v uint64) uint64 { return (w | v) & 0xffffffff }},
		{"or", ".b64", func(w, v uint64) uint64 { return w | v }},
		{"xor", ".b32", func(w, v uint64) uint64 { return (w ^ v) & 0xffffffff }},
		{"xor", ".b64", func(w, v uint64) uint64 { return w ^ v }},
		{"exch", ".b32", func(_, v uint64) uint64 { return v & 0xffffffff }},
		{"exch", ".b64", func(_, v uint64) uint64 { return v }},
		{"inc", ".u32", func(w, v uint64) uint64 {
			if w >= v&0xffffffff {
				return 0
			}
			return w + 1
		}},
		{"dec", ".u32", func(w, v uint64) uint64 {
			if w == 0 || w > v&0xffffffff {
				return v & 0xffffffff
			}
			return w - 1
		}},
	}
	for _, c := range cases {
		it, _ := parseInt(c.typ)
		if c.typ[1] == 'b' {
			it, _ = parseInt(".u" + c.typ[2:])
		}
		info := &atomInfo{fold: combineOp("."+c.op, c.typ), it: it}
		if info.fold == redAdd {
			t.Fatalf("%s%s: no combined op", c.op, c.typ)
		}
		width := uint64(it.bits / 8)
		for trial := range 200 {
			var vals lanes
			limit := uint64(r.IntN(40))
			for l := range vals {
				switch {
				case c.op == "inc" || c.op == "dec":
					vals[l] = limit
				case width == 4:
					vals[l] = uint64(r.Uint32()) >> uint(r.IntN(32))
				default:
					vals[l] = r.Uint64() >> uint(r.IntN(64))
				}
			}
			mask := ^uint32(0)
			switch trial % 3 {
			case 1:
				mask = r.Uint32() | 1<<r.IntN(32)
			case 2:
				mask = 1<<r.IntN(32) | 1<<r.IntN(32)
			}
			start := r.Uint64()
			if width == 4 {
				start &= 0xffffffff
			}
			if trial%5 == 0 && (c.op == "inc" || c.op == "dec") {
				start = limit + uint64(r.IntN(3)) // (at and above the limit)
			}
			want := start
			for m := mask; m != 0; m &= m - 1 {
				want = c.apply(want, vals[bits.TrailingZeros32(m)])
			}
			word := []uint64{start}
			if !combineWord(unsafe.Pointer(&word[0]), info, width, &vals, mask) {
				t.Fatalf("%s%s: declined lanes of one limit", c.op, c.typ)
			}
			got := word[0]
			if width == 4 {
				got &= 0xffffffff // (little-endian: the low half is the word)
			}
			if got != want {
				t.Fatalf("%s%s trial %d, mask %#x, from %#x: %#x, want %#x", c.op, c.typ, trial, mask, start, got, want)
			}
		}
		if c.op == "inc" || c.op == "dec" {
			var vals lanes
			for l := range vals {
				vals[l] = 9
			}
			vals[17] = 10
			word := []uint64{3}
			if combineWord(unsafe.Pointer(&word[0]), info, width, &vals, ^uint32(0)) || word[0] != 3 {
				t.Errorf("%s: two limits combined (word %d)", c.op, word[0])
			}
		}
	}
}

// TestFoldKind: every lane of a warp at one word, old values read (an
// atomicInc ring's tickets): foldKind's loop gives each lane the word as
// the lanes before it left it and leaves what applying them one after
// another leaves, by the manual's rule of each op (9.7.13.5), on 4- and
// 8-byte words, max and min signed and unsigned.
func TestFoldKind(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 34))
	ops := []struct {
		kind  uint8
		apply func(w, v uint64, signed bool, width int) uint64
	}{
		{redMax, func(w, v uint64, s bool, width int) uint64 {
			if s && width == 4 {
				return uint64(uint32(max(int32(w), int32(v))))
			}
			if s {
				return uint64(max(int64(w), int64(v)))
			}
			return max(w, v)
		}},
		{redMin, func(w, v uint64, s bool, width int) uint64 {
			if s && width == 4 {
				return uint64(uint32(min(int32(w), int32(v))))
			}
			if s {
				return uint64(min(int64(w), int64(v)))
			}
			return min(w, v)
		}},
		{redAnd, func(w, v uint64, _ bool, _ int) uint64 { return w & v }},
		{redOr, func(w, v uint64, _ bool, _ int) uint64 { return w | v }},
		{redXor, func(w, v uint64, _ bool, _ int) uint64 { return w ^ v }},
		{redExch, func(_, v uint64, _ bool, _ int) uint64 { return v }},
		{redInc, func(w, v uint64, _ bool, _ int) uint64 {
			if w >= v {
				return 0
			}
			return w + 1
		}},
		{redDec, func(w, v uint64, _ bool, _ int) uint64 {
			if w == 0 || w > v {
				return v
			}
			return w - 1
		}},
	}
	for _, op := range ops {
		for _, width := range []int{4, 8} {
			for _, signed := range []bool{false, true} {
				if (signed || width == 8) && (op.kind == redInc || op.kind == redDec) {
					continue // (u32 only)
				}
				norm := intType{bits: 8 * width, signed: signed}
				wmask := uint64(1)<<(8*width) - 1
				if width == 8 {
					wmask = ^uint64(0)
				}
				for trial := range 50 {
					var vals, olds lanes
					for l := range vals {
						vals[l] = r.Uint64() >> uint(r.IntN(64)) & wmask
						if op.kind == redInc || op.kind == redDec {
							vals[l] = 9 // (one limit, as a ring's)
						}
					}
					mask := ^uint32(0)
					if trial%2 == 1 {
						mask = r.Uint32() | 1
					}
					start := r.Uint64() & wmask
					want, wantOlds := start, lanes{}
					for m := mask; m != 0; m &= m - 1 {
						l := bits.TrailingZeros32(m)
						wantOlds[l] = norm.norm(want)
						want = op.apply(want, vals[l], signed, width) & wmask
					}
					var got uint64
					if width == 4 {
						got = uint64(foldKind(op.kind, signed, uint32(start), &vals, &olds, mask, norm))
					} else {
						got = foldKind(op.kind, signed, start, &vals, &olds, mask, norm)
					}
					if got != want || olds != wantOlds {
						t.Fatalf("kind %d, width %d, signed %v, mask %#x: word %#x, want %#x; olds %x, want %x",
							op.kind, width, signed, mask, got, want, olds, wantOlds)
					}
				}
			}
		}
	}
}
