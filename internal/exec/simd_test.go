//go:build amd64 && !purego

package exec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/fp"
)

// The AVX2 loops against the Go loops they replace, on random rows mixed
// with edge values (sign boundaries, shift counts around the widths, NaNs
// with payloads, infinities, signed zeros, subnormals) and with garbage in
// the upper halves of 32-bit lanes (a register read at another type). The
// masked forms must change only the mask's lanes; a destination may also
// be an operand.

var intEdges = []uint64{0, 1, 2, 7, 31, 32, 33, 63, 64, 65, 0x7fffffff, 0x80000000, 0xffffffff,
	0x1_0000_0000, 0xffffffff_ffffffff, 0x80000000_00000000, 0x7fffffff_ffffffff, 0xffffffff_80000000,
	0x12345678_9abcdef0, 0x00000001_00000020}

var f32Edges = []uint32{0, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
	0x7fc00001, 0xffc12345, 0x7f800001, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff,
	0x34000000, 0x4b800000, 0x3f000000, 0x00ffffff, 0x80800000}

func simdRow(r *rand.Rand, f32 bool) lanes {
	var x lanes
	for i := range x {
		switch r.IntN(4) {
		case 0:
			if f32 {
				x[i] = uint64(f32Edges[r.IntN(len(f32Edges))])
			} else {
				x[i] = intEdges[r.IntN(len(intEdges))]
			}
		case 1:
			x[i] = uint64(r.Uint32()) // normalised 32-bit
		case 2:
			x[i] = uint64(int64(int32(r.Uint32())))
		default:
			x[i] = r.Uint64()
		}
		if f32 && r.IntN(8) == 0 {
			x[i] |= uint64(r.Uint32()) << 32 // garbage above an f32
		}
	}
	return x
}

// int16Edges: 16-bit limits and their neighbours.
var int16Edges = []uint16{0, 1, 0x7fff, 0x8000, 0xffff, 0x7ffe, 0x8001, 0xfffe, 0x00ff, 0x0100}

// simdRow16 is a row of 16-bit values (limits or random) held zero-
// extended, sign-extended, or with random bits above bit 15, lane by lane.
func simdRow16(r *rand.Rand) lanes {
	var x lanes
	for i := range x {
		v := uint16(r.Uint32())
		if r.IntN(2) == 0 {
			v = int16Edges[r.IntN(len(int16Edges))]
		}
		switch r.IntN(3) {
		case 0:
			x[i] = uint64(v)
		case 1:
			x[i] = uint64(int64(int16(v)))
		default:
			x[i] = r.Uint64()&^0xffff | uint64(v)
		}
	}
	return x
}

// checkBin compares one AVX2 binary loop set with reference rr/rk loops.
func checkBin(t *testing.T, key string, got vecBin, ref func(d, a, b *lanes), refK func(d, a *lanes, k uint64), f32 bool) {
	t.Helper()
	r := rand.New(rand.NewPCG(1, uint64(len(key))))
	for round := 0; round < 300; round++ {
		a, b, old := simdRow(r, f32), simdRow(r, f32), simdRow(r, f32)
		var want, d lanes
		ref(&want, &a, &b)
		got.rr(&d, &a, &b)
		if d != want {
			t.Fatalf("%s rr: a=%x b=%x\ngot  %x\nwant %x", key, a, b, d, want)
		}
		k := b[r.IntN(warpSize)]
		if round < len(intEdges) && !f32 {
			k = intEdges[round]
		}
		refK(&want, &a, k)
		got.rk(&d, &a, k)
		if d != want {
			t.Fatalf("%s rk k=%#x: a=%x\ngot  %x\nwant %x", key, k, a, d, want)
		}
		mask := r.Uint32()
		if round%5 == 0 {
			mask = ^uint32(0)
		}
		var full lanes
		ref(&full, &a, &b)
		d = old
		got.mrr(&d, &a, &b, mask)
		for i := range d {
			w := old[i]
			if mask>>i&1 != 0 {
				w = full[i]
			}
			if d[i] != w {
				t.Fatalf("%s mrr mask %#x lane %d: got %#x want %#x", key, mask, i, d[i], w)
			}
		}
		refK(&full, &a, k)
		d = old
		got.mrk(&d, &a, k, mask)
		for i := range d {
			w := old[i]
			if mask>>i&1 != 0 {
				w = full[i]
			}
			if d[i] != w {
				t.Fatalf("%s mrk mask %#x lane %d: got %#x want %#x", key, mask, i, d[i], w)
			}
		}
		// the destination is the first operand, then the second
		ref(&want, &a, &b)
		d = a
		got.rr(&d, &d, &b)
		if d != want {
			t.Fatalf("%s rr with d = a differs", key)
		}
		d = b
		got.mrr(&d, &a, &d, ^uint32(0))
		if d != want {
			t.Fatalf("%s mrr with d = b differs", key)
		}
	}
}

func withoutSIMD(t *testing.T, f func()) {
	t.Helper()
	simdEnabled = false
	defer func() { simdEnabled = true }()
	f()
}

func TestSIMDIntLoopsMatchGo(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	seen := map[string]bool{}
	for _, op := range []string{"add", "sub", "mul", "and", "or", "xor", "shl", "shr", "min", "max", "div", "rem"} {
		for _, mode := range []string{"", ".lo", ".wide", ".hi"} {
			if mode != "" && op != "mul" {
				continue
			}
			for _, ty := range []intType{{16, false}, {16, true}, {32, false}, {32, true}, {64, false}, {64, true}} {
				key, loops := simdIntKey(op, mode, ty), vecBinary
				switch op {
				case "min", "max":
					key, loops = simdMinMaxKey(op, ty), func(op, _ string, t intType) vecBin { return vecMinMax(op, t) }
				case "div", "rem":
					key, loops = op+".u32", func(op, _ string, t intType) vecBin { return vecDivRem(op, t, nil) }
					if ty.signed {
						key = op + ".s32"
					}
					if ty.bits != 32 {
						key = ""
					}
				}
				got, ok := simdBinary(key)
				if !ok {
					continue
				}
				var ref vecBin
				withoutSIMD(t, func() { ref = loops(op, mode, ty) })
				if ref.rr == nil || ref.rk == nil {
					t.Fatalf("%s%s %v: an AVX2 loop (%s) where Go has none", op, mode, ty, key)
				}
				seen[key] = true
				checkBin(t, key, got, ref.rr, ref.rk, false)
			}
		}
	}
	for key := range simdBinaryLoops {
		if key[len(key)-3:] != "f32" && key[len(key)-3:] != "f64" && !seen[key] {
			t.Errorf("AVX2 loop %s is never chosen by vecBinary", key)
		}
	}
}

func TestSIMDF32LoopsMatchLanes(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	for _, op := range []string{"add", "sub", "mul", "div"} {
		got, ok := simdBinary(op + ".f32")
		if !ok {
			t.Fatalf("no AVX2 loop for %s.f32", op)
		}
		fn := map[string]func(a, b uint64) uint64{"add": f32Add, "sub": f32Sub, "mul": f32Mul, "div": f32Div}[op]
		ref := func(d, a, b *lanes) {
			for i := range d {
				d[i] = fn(a[i], b[i])
			}
		}
		refK := func(d, a *lanes, k uint64) {
			for i := range d {
				d[i] = fn(a[i], k)
			}
		}
		checkBin(t, op+".f32", got, ref, refK, true)
	}
}

// cancelProducts sets each f32 lane of c to minus a*b rounded to f32, so
// that an fma's single rounding shows in what is left.
func cancelProducts(a, b, c *lanes) {
	for i := range c {
		p := float64(math.Float32frombits(uint32(a[i]))) * float64(math.Float32frombits(uint32(b[i])))
		c[i] = uint64(math.Float32bits(float32(-p)))
	}
}

func TestSIMDTernaryMatchesLanes(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	refs := map[string]func(a, b, c uint64) uint64{
		"fma.f32": f32Fma,
		"mad.z32": func(a, b, c uint64) uint64 { return (a*b + c) & 0xffffffff },
		"mad.s32": func(a, b, c uint64) uint64 { return uint64(int64(int32(a*b + c))) },
		"mad.64":  func(a, b, c uint64) uint64 { return a*b + c },
	}
	r := rand.New(rand.NewPCG(2, 3))
	for key, fn := range refs {
		vec := simdTernary(key)
		if vec == nil {
			t.Fatalf("no AVX2 loop for %s", key)
		}
		f32 := key == "fma.f32"
		for round := 0; round < 500; round++ {
			a, b, c := simdRow(r, f32), simdRow(r, f32), simdRow(r, f32)
			if f32 && round%3 == 0 {
				cancelProducts(&a, &b, &c)
			}
			var d lanes
			vec(&d, &a, &b, &c)
			for i := range d {
				if w := fn(a[i], b[i], c[i]); d[i] != w {
					t.Fatalf("%s lane %d: %#x, %#x, %#x: got %#x want %#x", key, i, a[i], b[i], c[i], d[i], w)
				}
			}
		}
	}
}

func TestSIMDComparesMatchGo(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	ints := map[string]func(a, b *lanes) uint32{"eq32": eq32, "lts32": ltS32, "ltu32": ltU32,
		"eq64": eq64, "lts64": ltS64, "ltu64": ltU64, "eq16": eq16, "lts16": lt16s, "ltu16": lt16u}
	r := rand.New(rand.NewPCG(4, 5))
	for key, ref := range ints {
		vec := simdCompare(key)
		if vec == nil {
			t.Fatalf("no AVX2 comparison %s", key)
		}
		for round := 0; round < 500; round++ {
			a, b := simdRow(r, false), simdRow(r, false)
			if strings.HasSuffix(key, "16") && round%2 == 1 {
				a, b = simdRow16(r), simdRow16(r)
			}
			if round%4 == 0 {
				b = a
				b[r.IntN(warpSize)] ^= 1 << r.IntN(64)
			}
			if got, want := vec(&a, &b), ref(&a, &b); got != want {
				t.Fatalf("%s: a=%x b=%x: got %032b want %032b", key, a, b, got, want)
			}
		}
	}
	for cmp := range f32CmpCodes {
		test, err := comparison(".f32", cmp, false)
		if err != nil {
			t.Fatal(err)
		}
		checkCompare(t, "f32"+cmp, test, func(round int) (lanes, lanes) {
			a, b := simdRow(r, true), simdRow(r, true)
			if round%3 == 0 {
				b = a
			}
			return a, b
		})
	}
	// .ftz: the flushed operands' comparison (subnormals in some lanes)
	for cmp := range f32CmpCodes {
		test, err := comparison(".f32", cmp, true)
		if err != nil {
			t.Fatal(err)
		}
		checkCompare(t, "f32ftz"+cmp, test, func(int) (lanes, lanes) {
			a, b := simdRow(r, true), simdRow(r, true)
			for i := range a {
				if r.IntN(4) == 0 {
					a[i] = uint64(r.Uint32()&0x807fffff) | 1
				}
				if r.IntN(4) == 0 {
					b[i] = uint64(r.Uint32() & 0x807fffff)
				}
			}
			return a, b
		})
	}
}

// checkCompare checks the AVX2 comparison key against test, lane by
// lane, on 300 pairs of rows that rows makes (round: 0, 1, ...).
func checkCompare(t *testing.T, key string, test func(a, b uint64) bool, rows func(round int) (lanes, lanes)) {
	t.Helper()
	vec := simdCompare(key)
	if vec == nil {
		t.Fatalf("no AVX2 comparison %s", key)
	}
	for round := range 300 {
		a, b := rows(round)
		var want uint32
		for i := range a {
			if test(a[i], b[i]) {
				want |= 1 << i
			}
		}
		if got := vec(&a, &b); got != want {
			t.Fatalf("%s: a=%x b=%x: got %032b want %032b", key, a, b, got, want)
		}
	}
}

// TestSIMDMemoryMatchesLanes: the warp-wide AVX2 loads and stores against
// a lane-by-lane reference, for consecutive, reversed, uniform, strided and
// repeated, random and half-warp patterns, one lane out of bounds or
// misaligned, and a row that is also the address register.
func TestSIMDMemoryMatchesLanes(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(6, 7))
	const window = 4096
	for round := 0; round < 800; round++ {
		size := uint64(1) << (round % 4)
		data := make([]byte, window)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		base := uint64(0x10000)
		adjConst := uint64(r.IntN(4)) * size // the op's constant offset
		var regs lanes
		start := uint64(r.IntN(window/int(size)-40)) * size
		pattern := round / 4 % 9 // 8: consecutive (the default)
		for i := range regs {
			off := start + uint64(i)*size // consecutive
			switch pattern {
			case 1:
				off = start + uint64(31-i)*size // reversed
			case 2:
				off = start // all the same
			case 3:
				off = start + uint64(i%7)*size*3 // strided, repeated
			case 4:
				off = uint64(r.IntN(window/int(size)-4)) * size
			case 5:
				off = start + uint64(i%16)*size // two consecutive half-warps, alike
			case 6:
				off = start + uint64(i/16)*size*64 // two uniform half-warps
			case 7:
				off = start + uint64(i/4)*size*9 // uniform groups of four
			}
			regs[i] = base + off - adjConst
		}
		bad := -1
		if round%5 == 4 {
			bad = r.IntN(warpSize)
			if r.IntN(2) == 0 {
				regs[bad] = base + window - size + 1 - adjConst + uint64(r.IntN(64))*size // past the end
			} else {
				regs[bad]++ // misaligned
			}
		}
		limit := uint64(window) - size
		adj := adjConst - base
		laneOff := func(i int) (uint64, bool) {
			off := regs[i] + adj
			return off, off <= limit && off&(size-1) == 0
		}
		allOK := true
		for i := range regs {
			if _, ok := laneOff(i); !ok {
				allOK = false
			}
		}
		// loads
		for _, kind := range []string{"z", "s"} {
			if size == 8 && kind == "s" {
				continue
			}
			var want lanes
			for i := range want {
				off, _ := laneOff(i)
				if !allOK {
					break
				}
				switch {
				case size == 8:
					want[i] = binary.LittleEndian.Uint64(data[off:])
				case size == 4 && kind == "s":
					want[i] = uint64(int64(int32(binary.LittleEndian.Uint32(data[off:]))))
				case size == 4:
					want[i] = uint64(binary.LittleEndian.Uint32(data[off:]))
				case size == 2 && kind == "s":
					want[i] = uint64(int64(int16(binary.LittleEndian.Uint16(data[off:]))))
				case size == 2:
					want[i] = uint64(binary.LittleEndian.Uint16(data[off:]))
				case kind == "s":
					want[i] = uint64(int64(int8(data[off])))
				default:
					want[i] = uint64(data[off])
				}
			}
			load := simdLoads[size][b2i(kind == "s")]
			row := simdRow(r, false)
			before := row
			if ok := load(&row, &regs, &data[0], adj, limit); ok != allOK {
				t.Fatalf("round %d load%s%d: reported %v, want %v (bad lane %d)", round, kind, size*8, ok, allOK, bad)
			} else if ok && row != want {
				t.Fatalf("round %d load%s%d pattern %d:\ngot  %x\nwant %x", round, kind, size*8, pattern, row, want)
			} else if !ok && row != before {
				t.Fatalf("round %d: a refused load wrote the row", round)
			}
			if allOK { // the row is the address register
				alias := regs
				load(&alias, &alias, &data[0], adj, limit)
				if alias != want {
					t.Fatalf("round %d load%s%d into its address register differs", round, kind, size*8)
				}
			}
		}
		// stores: a warp of consecutive elements, else refused, untouched
		if size < 4 {
			continue // (no AVX2 stores of narrower elements)
		}
		src := simdRow(r, false)
		want := append([]byte(nil), data...)
		consecutive := true
		for i := range regs {
			if regs[i] != regs[0]+uint64(i)*size {
				consecutive = false
			}
		}
		stored := allOK && consecutive
		if stored {
			for i := range src {
				off, _ := laneOff(i)
				if size == 8 {
					binary.LittleEndian.PutUint64(want[off:], src[i])
				} else {
					binary.LittleEndian.PutUint32(want[off:], uint32(src[i]))
				}
			}
		}
		store := simdStore64
		if size == 4 {
			store = simdStore32
		}
		if ok := store(&src, &regs, &data[0], adj, limit); ok != stored {
			t.Fatalf("round %d store%d pattern %d: reported %v, want %v", round, size*8, pattern, ok, stored)
		}
		if !bytes.Equal(data, want) {
			t.Fatalf("round %d store%d pattern %d: memory differs", round, size*8, pattern)
		}
	}
}

// TestSIMDSelpMatchesLanes: selp's loop against the lane rule, with the
// destination an operand too.
func TestSIMDSelpMatchesLanes(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(8, 9))
	for round := 0; round < 300; round++ {
		a, b, old := simdRow(r, false), simdRow(r, false), simdRow(r, false)
		sel, mask := r.Uint32(), r.Uint32()
		if round%4 == 0 {
			mask = ^uint32(0)
		}
		var want lanes
		for i := range want {
			switch {
			case mask>>i&1 == 0:
				want[i] = old[i]
			case sel>>i&1 != 0:
				want[i] = a[i]
			default:
				want[i] = b[i]
			}
		}
		d := old
		simdSelp(&d, &a, &b, sel, mask)
		if d != want {
			t.Fatalf("selp sel %#x mask %#x:\ngot  %x\nwant %x", sel, mask, d, want)
		}
		if mask == ^uint32(0) {
			d = a
			simdSelp(&d, &d, &b, sel, mask)
			if d != want {
				t.Fatalf("selp with d = a differs")
			}
		}
	}
}

// TestSIMDFtzAndUnaryMatchFP: the .ftz f32 loops (inputs and results
// flushed) and sqrt/rcp.rn against internal/fp, lane by lane.
func TestSIMDFtzAndUnaryMatchFP(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	f := fp.F32
	in := func(v uint64) uint64 { return f.FlushSubnormal(v & 0xffffffff) }
	ops := map[string]func(a, b uint64) uint64{
		"add": func(a, b uint64) uint64 { return f.Add(a, b, fp.RN) },
		"sub": func(a, b uint64) uint64 { return f.Sub(a, b, fp.RN) },
		"mul": func(a, b uint64) uint64 { return f.Mul(a, b, fp.RN) },
		"div": func(a, b uint64) uint64 { return f.Div(a, b, fp.RN) },
	}
	for op, fn := range ops {
		got, ok := simdBinary(op + ".ftz.f32")
		if !ok {
			t.Fatalf("no AVX2 loop for %s.ftz.f32", op)
		}
		lane := func(a, b uint64) uint64 { return f.FlushSubnormal(fn(in(a), in(b))) }
		checkBin(t, op+".ftz.f32", got,
			func(d, a, b *lanes) {
				for i := range d {
					d[i] = lane(a[i], b[i])
				}
			},
			func(d, a *lanes, k uint64) {
				for i := range d {
					d[i] = lane(a[i], k)
				}
			}, true)
	}
	r := rand.New(rand.NewPCG(10, 11))
	fma := simdTernary("fma.ftz.f32")
	sqrt, rcp := simdUnary("sqrt.f32"), simdUnary("rcp.f32")
	if fma == nil || sqrt == nil || rcp == nil {
		t.Fatal("missing AVX2 loops")
	}
	for round := 0; round < 500; round++ {
		a, b, c := simdRow(r, true), simdRow(r, true), simdRow(r, true)
		var d lanes
		fma(&d, &a, &b, &c)
		for i := range d {
			if w := f.FlushSubnormal(f.Fma(in(a[i]), in(b[i]), in(c[i]), fp.RN)); d[i] != w {
				t.Fatalf("fma.rn.ftz.f32 %#x %#x %#x: got %#x want %#x", a[i], b[i], c[i], d[i], w)
			}
		}
		sqrt(&d, &a)
		for i := range d {
			if w := f.Sqrt(a[i]&0xffffffff, fp.RN); d[i] != w {
				t.Fatalf("sqrt.rn.f32 %#x: got %#x want %#x", a[i], d[i], w)
			}
		}
		rcp(&d, &a)
		for i := range d {
			if w := f.Div(f.One(), a[i]&0xffffffff, fp.RN); d[i] != w {
				t.Fatalf("rcp.rn.f32 %#x: got %#x want %#x", a[i], d[i], w)
			}
		}
	}
}

// TestSIMDApproxMatchesGo: rsqrt/rcp/sqrt.approx.f32 (with and without
// .ftz) against approxVecF32's Go loops, which compute in f64 and round.
// (ex2: the AVX2 loop repeats exp2Approx's operations; rounds alternate
// between simdRow's bits and values across its range.)
func TestSIMDApproxMatchesGo(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(12, 13))
	for _, op := range []string{"rsqrt", "rcp", "sqrt", "ex2", "sin", "cos", "lg2"} {
		for _, ftz := range []bool{false, true} {
			key := op + ".approx.f32"
			if ftz {
				key = op + ".approx.ftz.f32"
			}
			got := simdUnary(key)
			var want func(d, a *lanes)
			withoutSIMD(t, func() { want = approxVecF32(op, ftz) })
			if got == nil || want == nil {
				t.Fatalf("%s: missing loop", key)
			}
			if !isSIMDLoop(got) || isSIMDLoop(want) {
				t.Fatalf("%s: isSIMDLoop does not tell the loops apart", key)
			}
			for round := 0; round < 2000; round++ {
				a := simdRow(r, true)
				if round%2 == 1 { // (ex2's range: around -150..128, and its edges; sin and cos: multiples of pi/4, huge)
					for i := range a {
						a[i] = uint64(math.Float32bits(float32(r.Float64()*300 - 160)))
					}
					a[round/2%warpSize] = uint64(math.Float32bits([]float32{128, -150, -149.5, 127.99999, -126, 0.5, -0.5, 1.5,
						math.Pi / 4, 3 * math.Pi / 4, -math.Pi / 2, 1e7, 3e7, -1e20, 3e38, 2.5}[round/2%16]))
				}
				var d, w lanes
				got(&d, &a)
				want(&w, &a)
				if d != w {
					t.Fatalf("%s: a=%x\ngot  %x\nwant %x", key, a, d, w)
				}
			}
		}
	}
}

// TestSIMDAllSame: the full-mask uniform test against sameInLanes' loop.
func TestSIMDAllSame(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(14, 15))
	for round := 0; round < 300; round++ {
		var row lanes
		v := r.Uint64()
		for i := range row {
			row[i] = v
		}
		want := true
		if round%3 != 0 {
			row[r.IntN(warpSize)] ^= 1 << r.IntN(64)
			want = true
			for i := range row {
				if row[i] != row[0] {
					want = false
				}
			}
		}
		if got := simdAllSame(&row); got != want {
			t.Fatalf("row %x: got %v want %v", row, got, want)
		}
	}
}

// TestSIMDAllBelow: the unsigned all-lanes-below test against a loop, with
// values on both sides of the limit and across the sign bit.
func TestSIMDAllBelow(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(16, 17))
	for round := 0; round < 500; round++ {
		limit := []uint64{1 << 40, 1, 1 << 63, ^uint64(0), 0x1234}[round%5]
		var row lanes
		for i := range row {
			row[i] = r.Uint64N(limit | 1)
		}
		if round%2 == 1 {
			row[r.IntN(warpSize)] = []uint64{limit, limit + 1, ^uint64(0), 1 << 63}[r.IntN(4)]
		}
		want := true
		for _, v := range row {
			if v >= limit {
				want = false
			}
		}
		if got := simdAllBelow(&row, limit); got != want {
			t.Fatalf("limit %#x row %x: got %v want %v", limit, row, got, want)
		}
	}
}

// TestSIMDSchedulerScans: the scheduler's lane scans (pick's waiting
// lanes, lowestPC, groupLimit) against their Go loops, on PCs and
// reconvergence points drawn from a few values so that ties and waits are
// common.
func TestSIMDSchedulerScans(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(18, 19))
	for round := 0; round < 2000; round++ {
		f := &frame{fn: &Func{Ops: make([]Op, 40)}}
		for l := range f.pc {
			f.pc[l] = int32(r.IntN(12))
			if r.IntN(3) > 0 {
				f.rtop[l] = int32(r.IntN(14)) // 0: none; else point+1
			}
		}
		f.active, f.blocked, f.syncWait = r.Uint32(), r.Uint32()&r.Uint32(), r.Uint32()&r.Uint32()&r.Uint32()
		lanes, mask := r.Uint32(), r.Uint32()&f.active
		if round%50 == 0 {
			lanes = 0 // lowestPC of no lanes: none, at the largest PC
		}
		at := int32(r.IntN(12))
		var gotWait, gotMask, wantWait, wantMask uint32
		var gotBest, wantBest, gotLimit, wantLimit int32
		gotWait = simdWaiting(&f.pc, &f.rtop)
		gotMask, gotBest = lowestPC(f, lanes)
		gotLimit = f.groupLimit(mask, at)
		withoutSIMD(t, func() {
			for l := range f.pc {
				if f.rtop[l] == f.pc[l]+1 {
					wantWait |= 1 << l
				}
			}
			wantMask, wantBest = lowestPC(f, lanes)
			wantLimit = f.groupLimit(mask, at)
		})
		if gotWait != wantWait || gotMask != wantMask || gotBest != wantBest || gotLimit != wantLimit {
			t.Fatalf("pc %v rtop %v lanes %#x mask %#x at %d: waiting %#x/%#x lowest %#x,%d/%#x,%d limit %d/%d",
				f.pc, f.rtop, lanes, mask, at, gotWait, wantWait, gotMask, gotBest, wantMask, wantBest, gotLimit, wantLimit)
		}
	}
}

var f64Edges = []uint64{0, 1 << 63, 0x3ff0000000000000, 0xbff0000000000000, 0x7ff0000000000000,
	0xfff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001, 0xfff4000000000123, 0x7ff8dead00000000,
	0x0000000000000001, 0x800fffffffffffff, 0x0010000000000000, 0x7fefffffffffffff, 0x3fe0000000000000}

func simdRow64(r *rand.Rand) lanes {
	var x lanes
	for i := range x {
		switch r.IntN(3) {
		case 0:
			x[i] = f64Edges[r.IntN(len(f64Edges))]
		case 1:
			x[i] = math.Float64bits(r.NormFloat64() * 1e3)
		default:
			x[i] = r.Uint64()
		}
	}
	return x
}

// TestSIMDF64MatchesLanes: f64 add/sub/mul/div, fma.rn.f64 and setp.f64
// against the lane functions (Go's IEEE arithmetic, the GPU's NaN: the
// first NaN operand quieted, else the canonical NaN), on edge values,
// NaN payloads of both kinds and random bits.
func TestSIMDF64MatchesLanes(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(20, 21))
	for op, fn := range map[string]func(a, b uint64) uint64{"add": f64Add, "sub": f64Sub, "mul": f64Mul, "div": f64Div} {
		got, ok := simdBinary(op + ".f64")
		if !ok {
			t.Fatalf("no AVX2 loop for %s.f64", op)
		}
		for round := 0; round < 400; round++ {
			a, b, old := simdRow64(r), simdRow64(r), simdRow64(r)
			k := b[r.IntN(warpSize)]
			mask := r.Uint32()
			var d lanes
			got.rr(&d, &a, &b)
			for i := range d {
				if w := fn(a[i], b[i]); d[i] != w {
					t.Fatalf("%s.f64 %#x, %#x: got %#x want %#x", op, a[i], b[i], d[i], w)
				}
			}
			got.rk(&d, &a, k)
			for i := range d {
				if w := fn(a[i], k); d[i] != w {
					t.Fatalf("%s.f64 %#x, k %#x: got %#x want %#x", op, a[i], k, d[i], w)
				}
			}
			d = old
			got.mrr(&d, &a, &b, mask)
			for i := range d {
				w := old[i]
				if mask>>i&1 != 0 {
					w = fn(a[i], b[i])
				}
				if d[i] != w {
					t.Fatalf("%s.f64 masked lane %d: got %#x want %#x", op, i, d[i], w)
				}
			}
		}
	}
	fma := simdTernary("fma.f64")
	var ref func(d, a, b, c *lanes)
	withoutSIMD(t, func() { ref = fmaVec("fma", fp.F64) })
	for round := 0; round < 400; round++ {
		a, b, c := simdRow64(r), simdRow64(r), simdRow64(r)
		var d, w lanes
		fma(&d, &a, &b, &c)
		ref(&w, &a, &b, &c)
		if d != w {
			t.Fatalf("fma.rn.f64: a=%x b=%x c=%x\ngot  %x\nwant %x", a, b, c, d, w)
		}
	}
	for cmp := range f32CmpCodes {
		test, err := comparison(".f64", cmp, false)
		if err != nil {
			t.Fatalf("f64%s: %v", cmp, err)
		}
		checkCompare(t, "f64"+cmp, test, func(round int) (lanes, lanes) {
			a, b := simdRow64(r), simdRow64(r)
			if round%3 == 0 {
				b = a
			}
			return a, b
		})
	}
}

// TestSIMDVectorLoads: ld.v2/.v4's AVX2 loops against a lane-by-lane
// reference: consecutive, random and uniform vectors, one lane out of
// bounds or misaligned (refused, rows untouched), a destination that is
// the address register.
func TestSIMDVectorLoads(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(22, 23))
	const window = 8192
	for round := 0; round < 600; round++ {
		kinds := []struct {
			n, size int
			signed  bool
		}{{2, 4, false}, {2, 4, true}, {4, 4, false}, {4, 4, true}, {2, 8, false}}
		k := kinds[round%len(kinds)]
		load := simdVectorLoad(k.n, k.size, map[bool]string{true: ".s32", false: ".u32"}[k.signed])
		vsize := uint64(k.n * k.size)
		data := make([]byte, window)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		base := uint64(0x40000)
		var regs lanes
		start := uint64(r.IntN(window/int(vsize)-40)) * vsize
		for i := range regs {
			off := start + uint64(i)*vsize
			switch round / 5 % 3 {
			case 1:
				off = uint64(r.IntN(window/int(vsize))) * vsize
			case 2:
				off = start
			}
			regs[i] = base + off
		}
		ok := true
		if round%7 == 6 {
			bad := r.IntN(warpSize)
			if r.IntN(2) == 0 {
				regs[bad] = base + window - vsize + uint64(r.IntN(4)+1)*vsize
			} else {
				regs[bad] += uint64(k.size / 2)
			}
			ok = false
		}
		var want [4]lanes
		for i := range regs {
			off := regs[i] - base
			for e := 0; e < k.n && ok; e++ {
				p := off + uint64(e*k.size)
				switch {
				case k.size == 8:
					want[e][i] = binary.LittleEndian.Uint64(data[p:])
				case k.signed:
					want[e][i] = uint64(int64(int32(binary.LittleEndian.Uint32(data[p:]))))
				default:
					want[e][i] = uint64(binary.LittleEndian.Uint32(data[p:]))
				}
			}
		}
		var got [4]lanes
		for e := range got {
			got[e] = simdRow(r, false)
		}
		before := got
		rows := [4]*lanes{&got[0], &got[1], &got[2], &got[3]}
		if res := load(&rows, &regs, &data[0], -base, window-vsize); res != ok {
			t.Fatalf("round %d v%d.%d: reported %v, want %v", round, k.n, k.size*8, res, ok)
		}
		for e := 0; e < k.n; e++ {
			if ok && got[e] != want[e] || !ok && got[e] != before[e] {
				t.Fatalf("round %d v%d.%d element %d differs", round, k.n, k.size*8, e)
			}
		}
		if ok && k.size == 8 { // the address register as the first destination
			addrs := regs
			rows = [4]*lanes{&addrs, &got[1], &got[2], &got[3]}
			load(&rows, &addrs, &data[0], -base, window-vsize)
			if addrs != want[0] || got[1] != want[1] {
				t.Fatalf("round %d: loading into the address register differs", round)
			}
		}
	}
}

// TestSIMDF32MinMax: min/max.f32 against pickMinMax, lane by lane, on
// NaNs, signed zeros and equal values.
func TestSIMDFloatMinMax(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	for _, c := range []struct {
		isMax bool
		f     fp.Format
	}{{false, fp.F32}, {true, fp.F32}, {false, fp.F64}, {true, fp.F64}} {
		isMax := c.isMax
		key := "min." + c.f.String()
		if isMax {
			key = "max." + c.f.String()
		}
		got, ok := simdBinary(key)
		if !ok {
			t.Fatalf("no AVX2 loop for %s", key)
		}
		width := uint64(0xffffffff)
		// every pair of +0, -0, 1, -1, a quiet and a signalling NaN, in
		// every lane position
		special := []uint64{0, 0x80000000, 0x3f800000, 0xbf800000, 0x7fc00000, 0xff800001}
		if c.f == fp.F64 {
			width = ^uint64(0)
			special = []uint64{0, 1 << 63, 0x3ff0000000000000, 0xbff0000000000000, 0x7ff8000000000000, 0xfff0000000000001}
		}
		fn := func(a, b uint64) uint64 { return pickMinMax(c.f, isMax, a&width, b&width) }
		for x := range special {
			for y := range special {
				var a, b, d lanes
				for i := range a {
					a[i], b[i] = special[(x+i)%len(special)], special[(y+i/len(special))%len(special)]
				}
				got.rr(&d, &a, &b)
				for i := range d {
					if w := fn(a[i], b[i]); d[i] != w {
						t.Fatalf("%s(%#x, %#x) = %#x, want %#x", key, a[i], b[i], d[i], w)
					}
				}
			}
		}
		checkBin(t, key, got,
			func(d, a, b *lanes) {
				for i := range d {
					d[i] = fn(a[i], b[i])
				}
			},
			func(d, a *lanes, k uint64) {
				for i := range d {
					d[i] = fn(a[i], k)
				}
			}, c.f == fp.F32)
	}
}

// TestSIMDVectorStores: st.v2/.v4's AVX2 loops against a lane-by-lane
// reference: consecutive, random and coinciding vectors (the highest lane
// stays), one lane out of bounds or misaligned (refused, memory
// untouched).
func TestSIMDVectorStores(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(24, 25))
	const window = 8192
	for round := 0; round < 600; round++ {
		kinds := []struct{ n, size int }{{2, 4}, {4, 4}, {2, 8}}
		k := kinds[round%len(kinds)]
		store := simdVectorStore(k.n, k.size)
		vsize := uint64(k.n * k.size)
		data := make([]byte, window)
		base := uint64(0x40000)
		var regs lanes
		start := uint64(r.IntN(window/int(vsize)-40)) * vsize
		for i := range regs {
			off := start + uint64(i)*vsize
			switch round / 3 % 3 {
			case 1:
				off = uint64(r.IntN(window/int(vsize))) * vsize
			case 2:
				off = start + uint64(i%3)*vsize // coinciding vectors
			}
			regs[i] = base + off
		}
		ok := true
		if round%7 == 6 {
			bad := r.IntN(warpSize)
			if r.IntN(2) == 0 {
				regs[bad] = base + window - vsize + uint64(r.IntN(4)+1)*vsize
			} else {
				regs[bad] += uint64(k.size / 2)
			}
			ok = false
		}
		var src [4]lanes
		for e := range src {
			src[e] = simdRow(r, false)
		}
		want := make([]byte, window)
		for i := range regs {
			for e := 0; e < k.n && ok; e++ {
				p := regs[i] - base + uint64(e*k.size)
				if k.size == 8 {
					binary.LittleEndian.PutUint64(want[p:], src[e][i])
				} else {
					binary.LittleEndian.PutUint32(want[p:], uint32(src[e][i]))
				}
			}
		}
		rows := [4]*lanes{&src[0], &src[1], &src[2], &src[3]}
		if res := store(&rows, &regs, &data[0], -base, window-vsize); res != ok {
			t.Fatalf("round %d v%d.%d: reported %v, want %v", round, k.n, k.size*8, res, ok)
		}
		if !bytes.Equal(data, want) {
			t.Fatalf("round %d v%d.%d: memory differs", round, k.n, k.size*8)
		}
	}
}

// TestSIMDShfMatchesGo: the funnel shifts against shfVec's Go loops, with
// shift counts around 0, 31, 32 and beyond.
func TestSIMDShfMatchesGo(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(26, 27))
	for _, left := range []bool{false, true} {
		for _, clamp := range []bool{false, true} {
			got := shfVec(left, clamp)
			var want func(d, a, b, c *lanes)
			withoutSIMD(t, func() { want = shfVec(left, clamp) })
			if !isSIMDLoop(got) || isSIMDLoop(want) {
				t.Fatalf("left %v clamp %v: the loops are not the AVX2 and Go ones", left, clamp)
			}
			for round := 0; round < 300; round++ {
				a, b, c := simdRow(r, false), simdRow(r, false), simdRow(r, false)
				for i := range c {
					if r.IntN(2) == 0 {
						c[i] = uint64(r.IntN(70)) | uint64(r.Uint32())<<32*uint64(r.IntN(2))
					}
				}
				var d, w lanes
				got(&d, &a, &b, &c)
				want(&w, &a, &b, &c)
				if d != w {
					t.Fatalf("shf left %v clamp %v: a=%x b=%x c=%x\ngot  %x\nwant %x", left, clamp, a, b, c, d, w)
				}
			}
		}
	}
}

// TestSIMDNormMatchesGo: vecNorm's AVX2 loops (copy, zero and sign
// extension of the low half) against its Go loops.
func TestSIMDNormMatchesGo(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(28, 29))
	for _, c := range []struct{ from, to intType }{{intType{64, false}, intType{64, true}},
		{intType{32, true}, intType{64, false}}, {intType{64, false}, intType{32, true}},
		{intType{32, false}, intType{64, false}}, {intType{64, true}, intType{32, false}}} {
		got := vecNorm(c.from, c.to)
		var want func(d, a *lanes)
		withoutSIMD(t, func() { want = vecNorm(c.from, c.to) })
		if !isSIMDLoop(got) || isSIMDLoop(want) {
			t.Fatalf("%v -> %v: the loops are not the AVX2 and Go ones", c.from, c.to)
		}
		for round := 0; round < 100; round++ {
			a := simdRow(r, false)
			var d, w lanes
			got(&d, &a)
			want(&w, &a)
			if d != w {
				t.Fatalf("%v -> %v: a=%x\ngot  %x\nwant %x", c.from, c.to, a, d, w)
			}
		}
	}
}

// TestSIMDCvtMatchesGo: the AVX2 cvt loops between 32-bit integers and
// floats against the Go loops they replace, on random rows (with garbage
// above the 32-bit values), float edges, integer limits, halves (ties of
// .rni) and values just inside and past 2^31 and 2^32.
func TestSIMDCvtMatchesGo(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	extra := []uint32{0x3f000000, 0xbf000000, 0x3fc00000, 0xbfc00000, 0x40200000, 0xc0200000, 0x4effffff,
		0x4f000000, 0xcf000000, 0xcf000001, 0x4f7fffff, 0x4f800000, 0x00000001, 0x80000001, 0x3effffff,
		0xbf7fffff, 0x7fffffff, 0x80000000, 0xffffffff, 0x7fffff80, 0x7fffffc0, 0xffffff80, 0x01000001,
		// the 8- and 16-bit limits, and halves around them
		0x477fff00, 0x477fff80, 0x47800000, 0xc7000000, 0xc7000080, 0x46fffe00, 0x46ffff00, 0x437f0000,
		0x437f8000, 0x42fe0000, 0x42ff0000, 0xc3000000, 0xc3008000, 0xc3010000}
	r := rand.New(rand.NewPCG(21, 22))
	type cvt struct {
		key string
		ref func() func(d, a *lanes)
	}
	var cases []cvt
	for _, it := range []intType{{32, true}, {32, false}} {
		for _, df := range []fp.Format{fp.F32, fp.F64} {
			cases = append(cases, cvt{"int to " + df.String() + " " + int32Name(it), func() func(d, a *lanes) { return cvtInt32ToFloatVec(df, it) }})
		}
		for _, rnd := range []string{".rzi", ".rni", ".rmi", ".rpi"} {
			cases = append(cases, cvt{"f32 to " + int32Name(it) + rnd, func() func(d, a *lanes) { return cvtFloatToInt32Vec(fp.F32, it, rnd, false) }},
				cvt{"f64 to " + int32Name(it) + rnd, func() func(d, a *lanes) { return cvtFloatToInt32Vec(fp.F64, it, rnd, false) }})
		}
	}
	for _, it := range []intType{{16, true}, {16, false}, {8, true}, {8, false}} {
		for _, df := range []fp.Format{fp.F32, fp.F64} {
			cases = append(cases, cvt{"int to " + df.String() + " " + narrowName(it), func() func(d, a *lanes) { return cvtInt32ToFloatVec(df, it) }})
		}
		for _, rnd := range []string{".rzi", ".rni", ".rmi", ".rpi"} {
			cases = append(cases, cvt{"f32 to " + narrowName(it) + rnd, func() func(d, a *lanes) { return cvtFloatToInt32Vec(fp.F32, it, rnd, false) }})
		}
	}
	for _, c := range cases {
		got := c.ref()
		var ref func(d, a *lanes)
		withoutSIMD(t, func() { ref = c.ref() })
		if got == nil || ref == nil || reflect.ValueOf(got).Pointer() == reflect.ValueOf(ref).Pointer() {
			t.Fatalf("%s: no AVX2 loop, or no Go loop", c.key)
		}
		for round := 0; round < 400; round++ {
			a := simdRow(r, true)
			for i := range a {
				if r.IntN(3) == 0 {
					a[i] = uint64(extra[r.IntN(len(extra))]) | uint64(r.Uint32())<<32*uint64(r.IntN(2)) // (garbage above, or not)
				}
			}
			if strings.HasPrefix(c.key, "f64") { // f64 values: edges, and around the integer limits
				a = simdRow64(r)
				for i := range a {
					if r.IntN(2) == 0 {
						a[i] = math.Float64bits(float64(int64(r.Uint64()>>31)-1<<32) + []float64{0, 0.5, -0.5, 0.25}[r.IntN(4)])
					}
				}
			}
			var want, d lanes
			ref(&want, &a)
			got(&d, &a)
			if d != want {
				for i := range d {
					if d[i] != want[i] {
						t.Fatalf("%s lane %d: a %#x: got %#x, want %#x", c.key, i, a[i], d[i], want[i])
					}
				}
			}
			alias := a // the destination is the operand
			got(&alias, &alias)
			if alias != want {
				t.Fatalf("%s: in place differs", c.key)
			}
		}
	}
}

// TestSIMDNegAbsMatchesGo: the AVX2 neg and abs loops against negAbsVec's
// Go loops, on random rows (garbage above the f32 values included).
func TestSIMDNegAbsMatchesGo(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(51, 52))
	for _, c := range []struct {
		op  string
		f   fp.Format
		ftz bool
	}{{"neg", fp.F32, false}, {"neg", fp.F32, true}, {"abs", fp.F32, false}, {"abs", fp.F32, true},
		{"neg", fp.F64, false}, {"abs", fp.F64, false}} {
		got := negAbsVec(c.op, c.f, c.ftz)
		var want func(d, a *lanes)
		withoutSIMD(t, func() { want = negAbsVec(c.op, c.f, c.ftz) })
		if !isSIMDLoop(got) || isSIMDLoop(want) {
			t.Fatalf("%s %v ftz=%v: not an AVX2 loop and a Go one", c.op, c.f, c.ftz)
		}
		for round := 0; round < 300; round++ {
			a := simdRow(r, c.f == fp.F32)
			var d, w lanes
			got(&d, &a)
			want(&w, &a)
			if d != w {
				t.Fatalf("%s %v ftz=%v: a=%x\ngot  %x\nwant %x", c.op, c.f, c.ftz, a, d, w)
			}
		}
	}
}

// TestSIMDMoreUnaryMatchesGo: the AVX2 loops of integer neg, not and abs,
// popc, clz, brev, cvt between f32 and f64 and mad.wide against the Go
// loops they replace.
func TestSIMDMoreUnaryMatchesGo(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(71, 72))
	type unaryCase struct {
		name string
		get  func() func(d, a *lanes)
		f32  bool
	}
	var cases []unaryCase
	for _, op := range []string{"neg", "not", "abs"} {
		for _, ty := range []intType{{32, true}, {64, true}, {32, false}, {64, false}, {16, false}} {
			if op != "not" && (!ty.signed || ty.bits == 16) {
				continue
			}
			cases = append(cases, unaryCase{fmt.Sprintf("%s %v", op, ty), func() func(d, a *lanes) { return intUnaryVec(op, ty) }, false})
		}
	}
	for _, k := range []struct {
		op   string
		bits int
	}{{"popc", 32}, {"popc", 64}, {"clz", 32}, {"brev", 32}} {
		cases = append(cases, unaryCase{fmt.Sprintf("%s.b%d", k.op, k.bits), func() func(d, a *lanes) {
			return bitCountVec(k.op, intType{bits: k.bits})
		}, false})
	}
	for _, ftz := range []bool{false, true} {
		cases = append(cases,
			unaryCase{fmt.Sprintf("cvt.f64.f32 ftz=%v", ftz), func() func(d, a *lanes) { return cvtF32F64Vec(fp.F64, fp.F32, ftz, false) }, true},
			unaryCase{fmt.Sprintf("cvt.rn.f32.f64 ftz=%v", ftz), func() func(d, a *lanes) { return cvtF32F64Vec(fp.F32, fp.F64, false, ftz) }, false})
	}
	for _, c := range cases {
		got := c.get()
		var want func(d, a *lanes)
		withoutSIMD(t, func() { want = c.get() })
		if !isSIMDLoop(got) || want == nil || isSIMDLoop(want) {
			t.Fatalf("%s: not an AVX2 loop and a Go one", c.name)
		}
		for round := 0; round < 400; round++ {
			a := simdRow(r, c.f32)
			if !c.f32 && round%2 == 1 {
				a = simdRow64(r)
			}
			var d, w lanes
			got(&d, &a)
			want(&w, &a)
			if d != w {
				t.Fatalf("%s: a=%x\ngot  %x\nwant %x", c.name, a, d, w)
			}
		}
	}
	for _, signed := range []bool{false, true} {
		got := vecMadWide(signed)
		var want func(d, a, b, c *lanes)
		withoutSIMD(t, func() { want = vecMadWide(signed) })
		for round := 0; round < 300; round++ {
			a, b, c := simdRow(r, false), simdRow(r, false), simdRow64(r)
			var d, w lanes
			got(&d, &a, &b, &c)
			want(&w, &a, &b, &c)
			if d != w {
				t.Fatalf("mad.wide signed=%v: got %x, want %x", signed, d, w)
			}
		}
	}
}

// TestSIMDF64UnaryMatchesFP: sqrt.rn.f64 and rcp.rn.f64's AVX2 loops
// against internal/fp's correctly rounded operations (NaN results: the
// NaN operand quieted, else the canonical NaN), on random f64 rows with
// NaN payloads, negatives, zeros, infinities and subnormals.
func TestSIMDF64UnaryMatchesFP(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(91, 92))
	f := fp.F64
	for _, c := range []struct {
		key string
		ref func(a uint64) uint64
	}{{"sqrt.f64", func(a uint64) uint64 { return f.Sqrt(a, fp.RN) }},
		{"rcp.f64", func(a uint64) uint64 { return f.Div(f.One(), a, fp.RN) }}} {
		got := simdUnary(c.key)
		if got == nil {
			t.Fatalf("no AVX2 loop for %s", c.key)
		}
		for round := 0; round < 500; round++ {
			a := simdRow64(r)
			var d lanes
			got(&d, &a)
			for i := range d {
				if w := c.ref(a[i]); d[i] != w {
					t.Fatalf("%s(%#x) = %#x, want %#x", c.key, a[i], d[i], w)
				}
			}
		}
	}
}

// binOf lifts a lane function to reference rr and rk loops for checkBin.
func binOf(fn func(a, b uint64) uint64) (func(d, a, b *lanes), func(d, a *lanes, k uint64)) {
	return func(d, a, b *lanes) {
			for i := range d {
				d[i] = fn(a[i], b[i])
			}
		}, func(d, a *lanes, k uint64) {
			for i := range d {
				d[i] = fn(a[i], k)
			}
		}
}

// TestSIMDDirectedMatchesFP: add, sub, mul, div and fma under .rz, .rm
// and .rp (f32, f32 .ftz, f64), every form, against internal/fp's
// arithmetic in that mode (inputs and results flushed for .ftz), and the
// rounding mode is Go's again after each.
func TestSIMDDirectedMatchesFP(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	flush := func(ftz bool, v uint64) uint64 {
		if ftz {
			return fp.F32.FlushSubnormal(v)
		}
		return v
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, m := range []struct {
		name string
		mode fp.Mode
	}{{"rz", fp.RZ}, {"rm", fp.RM}, {"rp", fp.RP}} {
		mode := m.mode
		for _, f := range []string{"f32", "ftz.f32", "f64"} {
			ftz := f == "ftz.f32"
			format, width := fp.F32, uint64(0xffffffff)
			if f == "f64" {
				format, width = fp.F64, ^uint64(0)
			}
			arith := map[string]func(a, b uint64) uint64{
				"add": func(a, b uint64) uint64 { return format.Add(a, b, mode) },
				"sub": func(a, b uint64) uint64 { return format.Sub(a, b, mode) },
				"mul": func(a, b uint64) uint64 { return format.Mul(a, b, mode) },
				"div": func(a, b uint64) uint64 { return format.Div(a, b, mode) },
			}
			for op, fn := range arith {
				key := op + "." + m.name + "." + f
				got, ok := simdBinary(key)
				if !ok {
					t.Fatalf("no AVX2 loop for %s", key)
				}
				ref, refK := binOf(func(a, b uint64) uint64 {
					return flush(ftz, fn(flush(ftz, a&width), flush(ftz, b&width)))
				})
				checkBin(t, key, got, ref, refK, f != "f64")
			}
			key := "fma." + m.name + "." + f
			vec := simdTernary(key)
			if vec == nil {
				t.Fatalf("no AVX2 loop for %s", key)
			}
			for round := 0; round < 300; round++ {
				a, b, c := simdRow(r, f != "f64"), simdRow(r, f != "f64"), simdRow(r, f != "f64")
				if round%3 == 0 && f != "f64" {
					cancelProducts(&a, &b, &c)
				}
				var d lanes
				vec(&d, &a, &b, &c)
				for i := range d {
					w := flush(ftz, format.Fma(flush(ftz, a[i]&width), flush(ftz, b[i]&width), flush(ftz, c[i]&width), mode))
					if d[i] != w {
						t.Fatalf("%s lane %d: %#x, %#x, %#x: got %#x want %#x", key, i, a[i], b[i], c[i], d[i], w)
					}
				}
			}
		}
	}
	checkNearest(t, "after the loops")
}

// runtimeOne is 1 where the compiler cannot fold it into a constant.
//
//go:noinline
func runtimeOne() float64 { return 1 }

// checkNearest fails unless Go's float64 arithmetic rounds to nearest
// even: 1 + 3*2^-54 is 1 + 2^-52 to nearest (1 toward zero or down), and
// 1 + 2^-54 is 1 (1 + 2^-52 up).
func checkNearest(t *testing.T, when string) {
	t.Helper()
	one := runtimeOne()
	if got := one + 3*0x1p-54; got != 1+0x1p-52 {
		t.Fatalf("Go's 1 + 3*2^-54 %s = %v: the rounding mode leaked", when, got)
	}
	if got := one + 0x1p-54; got != 1 {
		t.Fatalf("Go's 1 + 2^-54 %s = %v: the rounding mode leaked", when, got)
	}
}

// TestSIMDRoundIntegralMatchesGo: cvt.rni/rzi/rmi/rpi.f32.f32 (.ftz too)
// and .f64.f64 against the manual's rule computed in Go (math's rounding
// of the value; f32 NaNs canonical, f64 NaNs quieted with their payload).
func TestSIMDRoundIntegralMatchesGo(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, irnd := range []string{".rni", ".rzi", ".rmi", ".rpi"} {
		for _, f := range []string{".f32.f32", ".ftz.f32.f32", ".f64.f64"} {
			vec := simdUnary("cvt" + irnd + f)
			if vec == nil {
				t.Fatalf("no AVX2 loop for cvt%s%s", irnd, f)
			}
			ref := func(v uint64) uint64 {
				if f == ".f64.f64" {
					x := math.Float64frombits(v)
					if x != x {
						return v | 1<<51
					}
					return math.Float64bits(roundInt(irnd, x))
				}
				v &= 0xffffffff
				if f == ".ftz.f32.f32" {
					v = fp.F32.FlushSubnormal(v)
				}
				x := float64(math.Float32frombits(uint32(v)))
				if x != x {
					return 0x7fffffff
				}
				return uint64(math.Float32bits(float32(roundInt(irnd, x))))
			}
			for round := 0; round < 300; round++ {
				a := simdRow(r, f != ".f64.f64")
				if round%2 == 0 { // values with fractions: halves, quarters
					for i := range a {
						x := float32(int32(r.Uint32()>>8)) / float32(uint32(1)<<r.IntN(8))
						a[i] = uint64(math.Float32bits(x))
						if f == ".f64.f64" {
							a[i] = math.Float64bits(float64(x) + float64(r.IntN(3))*0x1p-40)
						}
					}
				}
				var d lanes
				vec(&d, &a)
				for i := range d {
					if w := ref(a[i]); d[i] != w {
						t.Fatalf("cvt%s%s(%#x) = %#x, want %#x", irnd, f, a[i], d[i], w)
					}
				}
			}
		}
	}
}

// TestSIMDFtzMinMaxAndCopysign: min/max.ftz.f32 against pickMinMax of the
// flushed operands, copysign.f32/.f64 against the manual's rule (b's
// magnitude, a's sign), every form.
func TestSIMDFtzMinMaxAndCopysign(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	for _, isMax := range []bool{false, true} {
		key := map[bool]string{false: "min.ftz.f32", true: "max.ftz.f32"}[isMax]
		got, ok := simdBinary(key)
		if !ok {
			t.Fatalf("no AVX2 loop for %s", key)
		}
		ref, refK := binOf(func(a, b uint64) uint64 {
			return pickMinMax(fp.F32, isMax, fp.F32.FlushSubnormal(a&0xffffffff), fp.F32.FlushSubnormal(b&0xffffffff))
		})
		checkBin(t, key, got, ref, refK, true)
	}
	for _, c := range []struct {
		key        string
		sign, mask uint64
	}{{"copysign.f32", 0x80000000, 0xffffffff}, {"copysign.f64", 1 << 63, ^uint64(0)}} {
		got, ok := simdBinary(c.key)
		if !ok {
			t.Fatalf("no AVX2 loop for %s", c.key)
		}
		ref, refK := binOf(func(a, b uint64) uint64 { return b&c.mask&^c.sign | a&c.sign })
		checkBin(t, c.key, got, ref, refK, c.key == "copysign.f32")
	}
}

// TestSIMDBfeMatchesGo: bfe.u32, .u64 and .s32's AVX2 loops against bfe
// (the manual's rule, itself checked bit by bit in TestBfe): positions and
// lengths around the widths and up to 255, garbage above their low bytes
// and above 32-bit operands.
func TestSIMDBfeMatchesGo(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(9, 10))
	field := func() uint64 {
		v := uint64(r.IntN(70))
		switch r.IntN(4) {
		case 0:
			v = 255 - uint64(r.IntN(8))
		case 1:
			v = uint64(r.IntN(256))
		}
		if r.IntN(4) == 0 {
			v |= r.Uint64() &^ 0xff // only the low byte counts
		}
		return v
	}
	for _, ty := range []string{".u32", ".u64", ".s32"} {
		it, _ := parseInt(ty)
		vec := simdTernary("bfe" + ty)
		if vec == nil {
			t.Fatalf("no AVX2 loop for bfe%s", ty)
		}
		for round := 0; round < 2000; round++ {
			a := simdRow(r, false)
			var b, c, d lanes
			for i := range b {
				b[i], c[i] = field(), field()
			}
			vec(&d, &a, &b, &c)
			for i := range d {
				if w := bfe(it, a[i], b[i], c[i]); d[i] != w {
					t.Fatalf("bfe%s(%#x, %#x, %#x) = %#x, want %#x", ty, a[i], b[i], c[i], d[i], w)
				}
			}
		}
	}
}

// TestSIMDPrmtUniformMatchesGo: prmt's AVX2 loop for a selector the same in
// every lane against prmtDefault (the manual's rule), for every 16-bit
// selector (sign replication included), operands with garbage above their
// 32 bits.
func TestSIMDPrmtUniformMatchesGo(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	vec := simdTernary("prmt.uniform")
	if vec == nil {
		t.Fatal("no AVX2 loop prmt.uniform")
	}
	r := rand.New(rand.NewPCG(13, 14))
	var a, b, c, d lanes
	for sel := uint64(0); sel < 1<<16; sel++ {
		if sel%256 == 0 {
			for i := range a {
				a[i], b[i] = r.Uint64(), r.Uint64()
			}
		}
		for i := range c {
			c[i] = sel | r.Uint64()<<16 // only the low 16 bits select
		}
		vec(&d, &a, &b, &c)
		for i := range d {
			if want := prmtDefault(a[i], b[i], c[i]); d[i] != want {
				t.Fatalf("prmt(%#x, %#x, %#x) = %#x, want %#x", a[i], b[i], sel, d[i], want)
			}
		}
	}
}

// TestSIMDBfindMatchesGo: bfind.u32/.s32 (.shiftamt too) AVX2 loops
// against bfind (the manual's rule: the highest non-sign bit, 0xffffffff
// where there is none), on powers of two, their neighbours, 0, -1, the
// extremes and hashed bits with garbage above 32 bits.
func TestSIMDBfindMatchesGo(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(15, 16))
	for _, c := range []struct {
		key              string
		signed, shiftamt bool
	}{{"bfind.u32", false, false}, {"bfind.s32", true, false}, {"bfind.shiftamt.u32", false, true}, {"bfind.shiftamt.s32", true, true}} {
		vec := simdUnary(c.key)
		if vec == nil {
			t.Fatalf("no AVX2 loop %s", c.key)
		}
		it := intType{bits: 32, signed: c.signed}
		for round := 0; round < 200; round++ {
			var a, d lanes
			for i := range a {
				switch r.IntN(4) {
				case 0:
					a[i] = uint64(1) << r.IntN(32)
					a[i] += uint64(r.IntN(3)) - 1
				case 1:
					a[i] = []uint64{0, 0xffffffff, 0x80000000, 0x7fffffff, 1}[r.IntN(5)]
				default:
					a[i] = uint64(r.Uint32()) >> r.IntN(32)
				}
				if r.IntN(4) == 0 {
					a[i] |= r.Uint64() << 32
				}
			}
			vec(&d, &a)
			for i := range d {
				if want := bfind(it, c.shiftamt, a[i]); d[i] != want {
					t.Fatalf("%s(%#x) = %#x, want %#x", c.key, a[i], d[i], want)
				}
			}
		}
	}
}

// TestSIMDDp4aSadMatchGo: the AVX2 dp4a (every signedness of a and b) and
// sad (.u32, .s32) loops against the Go loops, on random rows (bytes at
// the types' limits, garbage above the 32-bit values), in place too.
func TestSIMDDp4aSadMatchGo(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(61, 62))
	cases := map[string]func(d, a, b, c *lanes){
		"dp4a.s32.s32": dp4aVec[int8, int8], "dp4a.s32.u32": dp4aVec[int8, uint8],
		"dp4a.u32.s32": dp4aVec[uint8, int8], "dp4a.u32.u32": dp4aVec[uint8, uint8],
	}
	withoutSIMD(t, func() {
		cases["sad.u32"] = sadVec(intType{32, false})
		cases["sad.s32"] = sadVec(intType{32, true})
	})
	for key, ref := range cases {
		got := simdTernary(key)
		if got == nil {
			t.Fatalf("no AVX2 loop for %s", key)
		}
		for round := 0; round < 300; round++ {
			a, b, c := simdRow(r, false), simdRow(r, false), simdRow(r, false)
			for i := range a {
				if r.IntN(3) == 0 {
					a[i] = uint64([]uint32{0x80808080, 0x7f7f7f7f, 0xffffffff, 0x7fffffff, 0x80000000}[r.IntN(5)])
					b[i] = uint64([]uint32{0x80808080, 0x7f7f7f7f, 0xffffffff, 0x01ff7f80, 0}[r.IntN(5)])
				}
			}
			var want, d lanes
			ref(&want, &a, &b, &c)
			got(&d, &a, &b, &c)
			for i := range d {
				if d[i] != want[i] {
					t.Fatalf("%s lane %d: %#x, %#x, %#x: got %#x, want %#x", key, i, a[i], b[i], c[i], d[i], want[i])
				}
			}
			alias := a
			got(&alias, &alias, &b, &c)
			ref(&want, &a, &b, &c)
			if alias != want {
				t.Fatalf("%s: in place differs", key)
			}
		}
	}
}
