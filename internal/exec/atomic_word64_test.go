package exec

// The warp loops of atomic_word64.go (atom on one 8-byte word, and
// atom.shared.add.f32) against the general per-lane path and against the
// operations worked out in Go from the manual (9.7.13.5).

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

// word64Ops are the ops TestAtomWord64Ops runs: op and type.
var word64Ops = []string{"add.f64", "add.u64", "max.u64", "min.u64", "max.s64", "min.s64",
	"and.b64", "or.b64", "xor.b64", "exch.b64", "cas.b64", "add.f32"}

// word64Variants are the kernels of one op: on global memory and on the
// CTA's shared memory (the warp loops), and the same words through
// generic addresses (which the warp loops do not take: the general path).
var word64Variants = []string{"global", "shared", "genglobal", "genshared"}

// word64Src returns the module of op's variants: 64 threads, thread t
// runs the op (guarded by bit t of mask) on word idx[t] of words (64 of
// size bytes) with vals[t] (and cs[t], cas's new value) and stores the old
// value in out[t] (a sentinel where its guard is off). The shared kernels
// copy words into shared memory first and back at the end.
func word64Src(op string, size int) string {
	r := "b64"
	if size == 4 {
		r = "b32"
	}
	var b strings.Builder
	b.WriteString(".version 8.0\n.target sm_90\n.address_size 64\n")
	for _, v := range word64Variants {
		shared := strings.HasSuffix(v, "shared")
		fmt.Fprintf(&b, `.visible .entry k%s(.param .u64 words, .param .u64 vals, .param .u64 cs, .param .u64 idx, .param .u64 out, .param .u64 mask)
{
	.reg .u32 %%t, %%k;
	.reg .u64 %%w, %%vp, %%cp, %%ip, %%op, %%m, %%a, %%e, %%x, %%sh;
	.reg .%s %%v, %%c, %%o, %%s;
	.reg .pred %%p, %%q;
	.shared .align 8 .b64 sh[64];
	ld.param.u64 %%w, [words];
	ld.param.u64 %%vp, [vals];
	ld.param.u64 %%cp, [cs];
	ld.param.u64 %%ip, [idx];
	ld.param.u64 %%op, [out];
	ld.param.u64 %%m, [mask];
	mov.u32 %%t, %%tid.x;
	mul.wide.u32 %%e, %%t, %d;
	add.u64 %%x, %%vp, %%e;
	ld.global.%s %%v, [%%x];
	add.u64 %%x, %%cp, %%e;
	ld.global.%s %%c, [%%x];
	mul.wide.u32 %%a, %%t, 4;
	add.u64 %%x, %%ip, %%a;
	ld.global.u32 %%k, [%%x];
	mul.wide.u32 %%a, %%k, %d;
	shr.b64 %%m, %%m, %%t;
	and.b64 %%m, %%m, 1;
	setp.ne.u64 %%p, %%m, 0;
	mov.u64 %%sh, sh;
	cvta.shared.u64 %%sh, %%sh;
`, v, r, size, r, r, size)
		if shared {
			fmt.Fprintf(&b, `	add.u64 %%x, %%w, %%e;
	ld.global.%s %%s, [%%x];
	mov.u64 %%x, sh;
	add.u64 %%x, %%x, %%e;
	st.shared.%s [%%x], %%s;
	bar.sync 0;
`, r, r)
		}
		space := map[string]string{"global": ".global", "shared": ".shared"}[v] // (generic: none)
		switch v {
		case "shared":
			b.WriteString("\tmov.u64 %x, sh;\n\tadd.u64 %x, %x, %a;\n")
		case "genshared":
			b.WriteString("\tadd.u64 %x, %sh, %a;\n")
		default:
			b.WriteString("\tadd.u64 %x, %w, %a;\n")
		}
		if size == 4 {
			b.WriteString("\tmov.b32 %o, 0x55555555;\n")
		} else {
			b.WriteString("\tmov.b64 %o, 0x5555555555555555;\n")
		}
		operands := "%v"
		if strings.HasPrefix(op, "cas") {
			operands = "%v, %c"
		}
		fmt.Fprintf(&b, "\t@%%p atom%s.%s %%o, [%%x], %s;\n", space, op, operands)
		fmt.Fprintf(&b, "\tadd.u64 %%x, %%op, %%e;\n\tst.global.%s [%%x], %%o;\n", r)
		if shared {
			fmt.Fprintf(&b, `	bar.sync 0;
	mov.u64 %%x, sh;
	add.u64 %%x, %%x, %%e;
	ld.shared.%s %%s, [%%x];
	add.u64 %%x, %%w, %%e;
	st.global.%s [%%x], %%s;
`, r, r)
		}
		b.WriteString("\tret;\n}\n")
	}
	return b.String()
}

// word64Model is op on one word in Go, from the manual: the new value.
// shared: f32 add keeps subnormals (on global memory it flushes them).
func word64Model(op string, shared bool, old, v, c uint64) uint64 {
	switch op {
	case "add.f64":
		return fp.F64.Add(old, v, fp.RN)
	case "add.f32":
		f := fp.F32
		if shared {
			return f.Add(old, v, fp.RN)
		}
		return f.FlushSubnormal(f.Add(f.FlushSubnormal(old), f.FlushSubnormal(v), fp.RN))
	case "add.u64", "add.s64":
		return old + v
	case "max.u64":
		return max(old, v)
	case "min.u64":
		return min(old, v)
	case "max.s64":
		return uint64(max(int64(old), int64(v)))
	case "min.s64":
		return uint64(min(int64(old), int64(v)))
	case "and.b64":
		return old & v
	case "or.b64":
		return old | v
	case "xor.b64":
		return old ^ v
	case "exch.b64":
		return v
	case "cas.b64":
		if old == v {
			return c
		}
		return old
	}
	panic(op)
}

// word64Edges are values for one op's words and operands: the extremes of
// the integer types, and for floats zeros, subnormals, infinities, NaNs
// with payloads (quiet and signalling), overflowing and cancelling sums.
func word64Edges(op string) []uint64 {
	switch op {
	case "add.f64":
		return []uint64{0, 1 << 63, 1, 0x800fffffffffffff, 0x000fffffffffffff, 0x0010000000000000, 0x8010000000000000,
			0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001, 0xfff8000deadbeef1,
			0x7ff4000000000123, 0x7fefffffffffffff, 0xffefffffffffffff, 0x3ff0000000000000, 0xbff0000000000000,
			0x3fb999999999999a, 0x3cb0000000000000, 0x0000000000000003}
	case "add.f32":
		return []uint64{0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x80800000, 0x7f800000, 0xff800000,
			0x7fc00000, 0x7f800001, 0xffc12345, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x00400000, 0x33800000}
	}
	return []uint64{0, 1, 2, 3, ^uint64(0), ^uint64(0) - 1, 1 << 63, 1<<63 - 1, 1<<63 + 1, 0xffffffff, 1 << 32}
}

// TestAtomWord64Ops: each op of word64Ops on global and shared words (the
// warp loops) and through generic addresses (the general path), 64
// threads on one worker, so in thread order: the old values and the words
// at the end, against each other and against word64Model applied in
// thread order (shared memory: warp 0's lanes in order, then warp 1's, or
// warp 1's first: the barrier before the atom may resume either first). The lanes' words: all one word (the one-word adds), pairs
// and fours of lanes, each its own, random; the guards: all lanes, some,
// one, none.
func TestAtomWord64Ops(t *testing.T) {
	r := rand.New(rand.NewPCG(641, 642))
	trials := 150
	if testing.Short() {
		trials = 8
	}
	for _, op := range word64Ops {
		size := 8
		if strings.HasSuffix(op, "f32") {
			size = 4
		}
		p, g := load(t, word64Src(op, size))
		edges := word64Edges(op)
		pick := func() uint64 {
			var v uint64
			switch r.IntN(4) {
			case 0, 1:
				v = edges[r.IntN(len(edges))]
			case 2:
				v = r.Uint64()
			default:
				v = uint64(r.IntN(4)) // (small: cas's matches)
				if op == "add.f64" {
					v = uint64(r.IntN(9)-4) * 0x3fe0000000000000 // (±0.5, 1, ...: exact, cancelling)
				}
			}
			if size == 4 {
				v &= 0xffffffff
			}
			return v
		}
		alloc := func(n int) (uint64, []byte) {
			a, err := g.Alloc(uint64(n), 0)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := g.Bytes(a, uint64(n))
			return a, b
		}
		wA, wB := alloc(64 * size)
		vA, vB := alloc(64 * size)
		cA, cB := alloc(64 * size)
		iA, iB := alloc(64 * 4)
		oA, oB := alloc(64 * size)
		get := func(b []byte, i int) uint64 {
			if size == 4 {
				return uint64(binary.LittleEndian.Uint32(b[4*i:]))
			}
			return binary.LittleEndian.Uint64(b[8*i:])
		}
		put := func(b []byte, i int, v uint64) {
			if size == 4 {
				binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
			} else {
				binary.LittleEndian.PutUint64(b[8*i:], v)
			}
		}
		sentinel := uint64(0x5555555555555555)
		if size == 4 {
			sentinel = 0x55555555
		}
		for trial := range trials {
			var words, vals, cs [64]uint64
			var idx [64]int
			for i := range 64 {
				words[i], vals[i], cs[i] = pick(), pick(), pick()
			}
			k0 := r.IntN(64)
			for i := range idx {
				switch trial % 6 {
				case 0:
					idx[i] = k0 // every lane on one word
				case 1:
					idx[i] = i % 4
				case 2:
					idx[i] = i
				case 3:
					idx[i] = r.IntN(3)
				case 4:
					idx[i] = i / 2
				default:
					idx[i] = r.IntN(64)
				}
			}
			mask := ^uint64(0)
			switch trial / 6 % 5 {
			case 1:
				mask = r.Uint64()
			case 2:
				mask = 1 << r.IntN(64)
			case 3:
				mask = 0x5555555555555555 << r.IntN(2)
			case 4:
				mask = 0xffffffff << (32 * r.IntN(2))
			}
			if trial == trials-1 {
				mask = 0
			}
			var results [4][2][64]uint64 // words, olds
			for vi, v := range word64Variants {
				shared := strings.HasSuffix(v, "shared")
				for i := range 64 {
					put(wB, i, words[i])
					put(vB, i, vals[i])
					put(cB, i, cs[i])
					binary.LittleEndian.PutUint32(iB[4*i:], uint32(idx[i]))
				}
				clear(oB)
				if err := p.Launch(context.Background(), "k"+v, LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1},
					Params: params(p.Kernels["k"+v], wA, vA, cA, iA, oA, mask), Workers: 1}); err != nil {
					t.Fatalf("%s %s: %v", op, v, err)
				}
				for i := range 64 {
					results[vi][0][i], results[vi][1][i] = get(wB, i), get(oB, i)
				}
				// the model in thread order, or (after a barrier, which may
				// resume the second warp first) with the warps swapped
				var want, wantOld [64]uint64
				for _, first := range []int{0, 32} {
					want = words
					for i := range wantOld {
						wantOld[i] = sentinel
					}
					for j := range 64 {
						i := (j + first) % 64
						if mask>>i&1 != 0 {
							wantOld[i] = want[idx[i]]
							want[idx[i]] = word64Model(op, shared, want[idx[i]], vals[i], cs[i])
						}
					}
					if results[vi][0] == want && results[vi][1] == wantOld || !shared {
						break
					}
				}
				if results[vi][0] != want || results[vi][1] != wantOld {
					for i := range 64 {
						if results[vi][1][i] != wantOld[i] {
							t.Errorf("%s %s trial %d: thread %d (word %d, value %#x): old value %#x, want %#x", op, v, trial, i, idx[i], vals[i], results[vi][1][i], wantOld[i])
						}
						if results[vi][0][i] != want[i] {
							t.Errorf("%s %s trial %d: word %d is %#x, want %#x", op, v, trial, i, results[vi][0][i], want[i])
						}
					}
					t.FailNow()
				}
			}
			// the warp loops against the general path on the same space
			if results[0] != results[2] || results[1] != results[3] {
				t.Fatalf("%s trial %d: the warp loops and the general path differ", op, trial)
			}
		}
	}
}

// TestAtomWord64Faults: a lane of a warp whose 64-bit atom (or shared f32
// add) leaves the allocation (shared memory), or is misaligned, faults at
// that lane's address as before; the lanes before it are applied, the
// lanes after it are not.
func TestAtomWord64Faults(t *testing.T) {
	for _, c := range []struct{ op, space, typ string }{
		{"add", "global", "f64"}, {"max", "global", "u64"}, {"or", "global", "b64"},
		{"cas", "global", "b64"}, {"add", "global", "u64"}, {"xor", "global", "b64"}, {"exch", "global", "b64"},
		{"add", "shared", "f64"}, {"min", "shared", "s64"}, {"exch", "shared", "b64"}, {"add", "shared", "f32"},
	} {
		size, r := 8, "b64"
		if c.typ == "f32" {
			size, r = 4, "b32"
		}
		operands := "%v"
		if c.op == "cas" {
			operands = "0, %v"
		}
		base := "%w"
		if c.space == "shared" {
			base = "sh"
		}
		src := fmt.Sprintf(`.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 bad, .param .u32 lane)
{
	.reg .pred %%p;
	.reg .b32 %%t, %%l;
	.reg .%s %%v, %%o;
	.reg .b64 %%w, %%a, %%x, %%bad;
	.shared .align 8 .b64 sh[32];
	mov.u32 %%t, %%tid.x;
	ld.param.u64 %%w, [x];
	ld.param.u32 %%l, [lane];
	ld.param.u64 %%bad, [bad];
	mul.wide.u32 %%a, %%t, %d;
	mov.u64 %%x, %s;
	add.u64 %%x, %%x, %%a;
	setp.eq.u32 %%p, %%t, %%l;
	@%%p add.u64 %%x, %%x, %%bad;   // one lane's address moves
	mov.%s %%v, 1;
	atom.%s.%s.%s %%o, [%%x], %s;
	bar.sync 0;
	ld.%s.%s %%o, [%%x];
	add.u64 %%a, %%w, %%a;
	st.global.%s [%%a], %%o;
	ret;
}
`, r, size, base, r, c.space, c.op, c.typ, operands, c.space, r, r)
		p, g := load(t, src)
		x, _ := g.Alloc(uint64(8*32), 0)
		for _, f := range []struct {
			name string
			bad  uint64
			kind FaultKind
		}{
			{"out of bounds", 1 << 20, FaultOutOfBounds},
			{"misaligned", 2, FaultMisaligned},
			{"misaligned by 4", 4, FaultMisaligned},
		} {
			if f.bad == 4 && size == 4 {
				continue
			}
			b, _ := g.Bytes(x, 8*32)
			clear(b)
			cfg := LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Params: params(p.Kernels["k"], x, f.bad, 17), Workers: 1}
			err := p.Launch(context.Background(), "k", cfg)
			want := x + uint64(17*size) + f.bad
			if c.space == "shared" {
				want = uint64(17*size) + f.bad // (the address in the shared window)
			}
			var fl *Fault
			if !errors.As(err, &fl) || fl.Kind != f.kind || fl.Thread != [3]int{17, 0, 0} || fl.Addr != want {
				t.Fatalf("%s.%s.%s %s: got %v, want a %v fault at thread 17, address %#x", c.op, c.space, c.typ, f.name, err, f.kind, want)
			}
			if c.space == "shared" {
				continue // (the fault ends the launch before the copy out)
			}
			for i := range 32 {
				v := binary.LittleEndian.Uint64(b[8*i:])
				if size == 4 {
					v = uint64(binary.LittleEndian.Uint32(b[4*i:]))
				}
				applied := v != 0
				if applied != (i < 17) {
					t.Fatalf("%s.%s.%s %s: lane %d's word is %#x (applied: %v)", c.op, c.space, c.typ, f.name, i, v, applied)
				}
			}
		}
	}
}

// TestAtomWord64AcrossWorkers: CTAs on four workers hitting a few global
// 64-bit words (and every lane one word) lose no update and return a
// consistent sequence of old values: adds of 1 (u64 and f64) return each
// count below the total once, exchanges return every value but the
// word's last exactly once (with the first word's value), and the
// commutative ops end at their fold (and a 32-bit max, whose loop
// shares minMaxWord64's shape, at the largest thread id).
func TestAtomWord64AcrossWorkers(t *testing.T) {
	p, g := load(t, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 buf, .param .u64 out) {
	.reg .b32 %t, %b;
	.reg .b64 %a, %o, %v, %g, %e, %x, %o1, %o2, %o3, %o4, %o5;
	ld.param.u64 %a, [buf];
	ld.param.u64 %o, [out];
	mov.u32 %t, %tid.x;
	mov.u32 %b, %ctaid.x;
	mad.lo.u32 %b, %b, 64, %t;       // global thread id
	cvt.u64.u32 %g, %b;
	and.b32 %t, %b, 3;
	mul.wide.u32 %e, %t, 8;          // one of four words per op
	add.u64 %x, %a, %e;
	atom.global.add.u64 %o1, [%x], 1;
	atom.global.add.f64 %o2, [%x+32], 0d3FF0000000000000;
	add.u64 %v, %g, 1;
	atom.global.exch.b64 %o3, [%x+64], %v;
	mul.lo.u64 %v, %g, 0x9e3779b97f4a7c15;
	atom.global.max.s64 %o4, [%x+96], %v;
	atom.global.min.u64 %o4, [%x+128], %v;
	atom.global.xor.b64 %o4, [%x+160], %v;
	and.b32 %t, %b, 63;
	shl.b64 %v, 1, %t;
	atom.global.or.b64 %o4, [%x+192], %v;
	not.b64 %v, %v;
	atom.global.and.b64 %o4, [%x+224], %v;
	atom.global.add.f64 %o5, [%a+256], 0d3FF0000000000000;  // every lane one word
	atom.global.max.u32 %t, [%a+264], %b;                    // (and a 32-bit max)
	mul.lo.u64 %g, %g, 32;
	add.u64 %o, %o, %g;
	st.global.v2.u64 [%o], {%o1, %o2};
	st.global.v2.u64 [%o+16], {%o3, %o5};
	ret;
}
`)
	const ctas, threads = 64, 64
	n := ctas * threads
	buf, _ := g.Alloc(272, 0)
	out, _ := g.Alloc(uint64(32*n), 0)
	bb, _ := g.Bytes(buf, 272)
	for k := range 4 {
		binary.LittleEndian.PutUint64(bb[128+8*k:], ^uint64(0))
		binary.LittleEndian.PutUint64(bb[224+8*k:], ^uint64(0))
		binary.LittleEndian.PutUint64(bb[96+8*k:], 1<<63)
	}
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{ctas, 1, 1}, Block: [3]int{threads, 1, 1},
		Params: params(p.Kernels["k"], buf, out), Workers: 4}); err != nil {
		t.Fatal(err)
	}
	ob, _ := g.Bytes(out, uint64(32*n))
	word := func(i int) uint64 { return binary.LittleEndian.Uint64(bb[8*i:]) }
	for k := range 4 {
		var cnt, fcnt, ex []uint64
		wantMax, wantMin, wantXor, wantOr, wantAnd := uint64(1<<63), ^uint64(0), uint64(0), uint64(0), ^uint64(0)
		for th := k; th < n; th += 4 {
			cnt = append(cnt, binary.LittleEndian.Uint64(ob[32*th:]))
			fcnt = append(fcnt, uint64(math.Float64frombits(binary.LittleEndian.Uint64(ob[32*th+8:]))))
			ex = append(ex, binary.LittleEndian.Uint64(ob[32*th+16:]))
			v := uint64(th) * 0x9e3779b97f4a7c15
			wantMax = uint64(max(int64(wantMax), int64(v)))
			wantMin = min(wantMin, v)
			wantXor ^= v
			wantOr |= 1 << (th & 63)
			wantAnd &^= 1 << (th & 63)
		}
		slices.Sort(cnt)
		slices.Sort(fcnt)
		ex = append(ex, word(8+k))
		slices.Sort(ex)
		for i := range cnt {
			if cnt[i] != uint64(i) || fcnt[i] != uint64(i) {
				t.Fatalf("word %d: the %d-th old counts are %d (u64) and %d (f64), want %d", k, i, cnt[i], fcnt[i], i)
			}
			if want := uint64(k + 4*(i-1) + 1); i > 0 && ex[i] != want || i == 0 && ex[0] != 0 {
				t.Fatalf("word %d: exchanged values %v..., not each thread's once", k, ex[:min(8, len(ex))])
			}
		}
		got := []uint64{word(k), word(4 + k), word(12 + k), word(16 + k), word(20 + k), word(24 + k), word(28 + k)}
		want := []uint64{uint64(n / 4), math.Float64bits(float64(n / 4)), wantMax, wantMin, wantXor, wantOr, wantAnd}
		if !slices.Equal(got, want) {
			t.Errorf("word %d: add.u64, add.f64, max.s64, min.u64, xor, or, and end at %#x, want %#x", k, got, want)
		}
	}
	var total []uint64
	for th := range n {
		total = append(total, uint64(math.Float64frombits(binary.LittleEndian.Uint64(ob[32*th+24:]))))
	}
	slices.Sort(total)
	for i, v := range total {
		if v != uint64(i) {
			t.Fatalf("one word's f64 adds: the %d-th old value is %d", i, v)
		}
	}
	if got := word(32); got != math.Float64bits(float64(n)) {
		t.Errorf("one word's f64 sum %#x, want %v", got, n)
	}
	if got := binary.LittleEndian.Uint32(bb[264:]); got != uint32(n-1) {
		t.Errorf("max.u32 %d, want %d", got, n-1)
	}
}
