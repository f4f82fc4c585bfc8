//go:build amd64 && !purego

package exec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// TestSIMDTraceMemoryBodies runs each memory body of traces alone and
// before another body (simdTrace) on random rows against the lane rule:
// when every lane's element lies, aligned, in the window, a load writes
// each lane's element, zero- or sign-extended, and a store writes each
// lane's value in lane order (global stores: consecutive rows only);
// otherwise the body refuses, the trace reports the ops before it, and no
// row or byte changes. A P load also records lane 0's offset and step.
func TestSIMDTraceMemoryBodies(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(11, 12))
	const window = 4096
	const base = uint64(0x20000)
	rowOff := func(i int) uint64 { return uint64(i) * warpSize * 8 }
	taken, refused := map[string]int{}, map[string]int{}
	for round := 0; round < 3000; round++ {
		kinds := []string{"ldZ8", "ldS8", "ldZ16", "ldS16", "ldZ32", "ldS32", "ld64", "st32", "st64"}
		kind := kinds[round%len(kinds)]
		global := round/len(kinds)%2 == 1
		key := kind
		if global {
			key += "P"
		}
		body, ok := simdMemBody(key)
		if !ok {
			t.Fatalf("no body %s", key)
		}
		load := kind[:2] == "ld"
		size := map[string]uint64{"8": 1, "16": 2, "32": 4, "64": 8}[kind[len(kind)-2:]]
		if kind[len(kind)-1] == '8' && kind[len(kind)-2] != '6' {
			size = 1
		}
		signed := kind[2] == 'S'
		data := onHeap(make([]byte, window))
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		n := uint64(window)
		if round%37 == 36 {
			n = size - 1 // a window too short for one element (0: none yet)
		}
		k := uint64(r.IntN(4)) * size // the op's constant offset
		start := uint64(r.IntN(window/int(size)-40)) * size
		pattern := round / 18 % 8
		// rows: 0 destination, 1 addresses, 2 source, 3 and 4: a following
		// op (xor with 0: a copy of row 3 into row 4)
		rows := make([]uint64, 5*warpSize)
		for i := range rows {
			rows[i] = r.Uint64()
		}
		addr := (*lanes)(rows[rowOff(1)/8:])
		for i := range addr {
			off := start + uint64(i)*size
			switch pattern {
			case 1:
				off = start // uniform
			case 2:
				off = start + uint64(31-i)*size
			case 3:
				off = uint64(r.IntN(window/int(size)-1)) * size
			case 4:
				off = start + uint64(i/2)*size // two lanes per element
			case 5:
				off = start + uint64(i%16)*size // two consecutive half-warps alike (a 16-wide tile)
			case 6:
				off = start + uint64(i/16)*size*8 // two uniform half-warps
			case 7:
				if i >= 16 { // a consecutive half, then a uniform one
					off = start + 20*size
				}
			}
			addr[i] = base + off - k
		}
		if round%5 == 4 {
			bad := r.IntN(warpSize)
			if r.IntN(2) == 0 {
				addr[bad] = base + window - size + 1 - k + uint64(r.IntN(64))*size
			} else {
				addr[bad]++
			}
		}
		dst := 0
		if load && round%11 == 10 {
			dst = 1 // the destination is the address row
		}
		offs := make([]uint64, warpSize)
		take := n >= size
		consecutive := true
		for i := range addr {
			offs[i] = addr[i] + k - base
			if offs[i] > n-size || offs[i]%size != 0 || n < size {
				take = false
			}
			if offs[i] != offs[0]+uint64(i)*size {
				consecutive = false
			}
		}
		if !load && global && !consecutive {
			take = false
		}
		// the expected outcome
		wantRows := append([]uint64(nil), rows...)
		wantData := append([]byte(nil), data...)
		if take {
			for i := range addr {
				o := offs[i]
				if load {
					var v uint64
					switch size {
					case 1:
						v = uint64(data[o])
						if signed {
							v = uint64(int64(int8(v)))
						}
					case 2:
						v = uint64(binary.LittleEndian.Uint16(data[o:]))
						if signed {
							v = uint64(int64(int16(v)))
						}
					case 4:
						v = uint64(binary.LittleEndian.Uint32(data[o:]))
						if signed {
							v = uint64(int64(int32(v)))
						}
					default:
						v = binary.LittleEndian.Uint64(data[o:])
					}
					wantRows[int(rowOff(dst)/8)+i] = v
				} else {
					src := rows[int(rowOff(2)/8)+i]
					if size == 4 {
						binary.LittleEndian.PutUint32(wantData[o:], uint32(src))
					} else {
						binary.LittleEndian.PutUint64(wantData[o:], src)
					}
				}
			}
			copy(wantRows[rowOff(4)/8:rowOff(5)/8], rows[rowOff(3)/8:rowOff(4)/8])
		}
		var ctx traceCtx
		win := ctx.win[:2]
		win[1] = traceWindow{data: uintptr(unsafe.Pointer(&data[0])), n: n, base: base, last: uint64(r.IntN(window)), step: 0}
		if r.IntN(2) == 0 {
			win[1].step = offs[0] - win[1].last // the step repeats: a prefetch
		}
		before := win[1]
		op := traceOp{body: body, a: rowOff(1), c: traceWindowOffset(1), k: k}
		if load {
			op.d = rowOff(dst)
		} else {
			op.b = rowOff(2)
		}
		xorBody, ok := simdBodyOf(simdXor64K)
		if !ok {
			t.Fatal("no body for xor.b64")
		}
		ops := []traceOp{op, {body: xorBody, d: rowOff(4), a: rowOff(3), k: 0}} // a copy
		done := simdTrace(unsafe.Pointer(&rows[0]), &ops[0], len(ops), &ctx)
		if want := map[bool]int{true: 2, false: 0}[take]; done != want {
			t.Fatalf("round %d %s pattern %d: %d ops ran, want %d", round, key, pattern, done, want)
		}
		for i := range rows {
			if rows[i] != wantRows[i] {
				t.Fatalf("round %d %s pattern %d: row %d lane %d: %#x, want %#x", round, key, pattern, i/warpSize, i%warpSize, rows[i], wantRows[i])
			}
		}
		if take {
			taken[key]++
		} else {
			refused[key]++
		}
		if !bytes.Equal(data, wantData) {
			t.Fatalf("round %d %s pattern %d: memory differs", round, key, pattern)
		}
		wantWin := before
		if take && global && load {
			wantWin.last, wantWin.step = offs[0], offs[0]-before.last
		}
		if win[1] != wantWin || win[0] != (traceWindow{}) {
			t.Fatalf("round %d %s: window %+v, want %+v", round, key, win[1], wantWin)
		}
	}
	for key := range simdMemBodies {
		if strings.HasPrefix(key, "ldParam") || key == "cvtaToGlobal" || strings.HasPrefix(key, "setp:") || key == "selp" ||
			strings.HasPrefix(key, "predlogic:") || key == "shfl" || strings.HasPrefix(key, "pack:") || strings.HasPrefix(key, "unpack:") ||
			strings.Contains(key, "Local") || strings.HasPrefix(key, "mulhi") || strings.HasPrefix(key, "ldV") || strings.HasPrefix(key, "loop") || strings.HasPrefix(key, "seg") {
			continue // TestSIMDTraceParamAndCvta, TestSIMDTraceSetp, TestSIMDTraceSelp, TestSIMDTracePredLogic, TestSIMDTraceShfl, TestSIMDTracePack, TestSIMDTraceLocal, TestSIMDTraceMulHi, TestSIMDTraceVectorLoads, TestSIMDLoopTrace, TestSIMDSegmentBodies
		}
		if taken[key] < 10 || refused[key] < 10 {
			t.Errorf("%s: %d rounds taken, %d refused: too few", key, taken[key], refused[key])
		}
	}
}

// TestSIMDTraceParamAndCvta: the bodies of ld.param by name (an element
// at the entry's offset in the parameter window, extended, in every lane;
// refused past the end or misaligned, or in an empty window) and of
// cvta.to.global (a copy when every lane is below mem.SharedBase, else
// refused), each followed by another op: both run, or neither.
func TestSIMDTraceParamAndCvta(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(31, 32))
	rowOff := func(i int) uint64 { return uint64(i) * warpSize * 8 }
	xorBody, _ := simdBodyOf(simdXor64K)
	taken, refused := map[string]int{}, map[string]int{}
	for round := 0; round < 2000; round++ {
		rows := make([]uint64, 5*warpSize)
		for i := range rows {
			rows[i] = r.Uint64()
		}
		wantRows := append([]uint64(nil), rows...)
		var ctx traceCtx
		var key string
		var op traceOp
		var keep []byte // the parameters, alive until the trace has run
		take := false
		if round%3 == 0 {
			key = "cvtaToGlobal"
			a := (*lanes)(rows[rowOff(1)/8:])
			for i := range a {
				a[i] = r.Uint64N(mem.SharedBase)
				if r.IntN(4) == 0 {
					a[i] = mem.SharedBase - 1 - uint64(r.IntN(3))
				}
			}
			if round%2 == 0 {
				a[r.IntN(warpSize)] = mem.SharedBase + uint64(r.IntN(3))*0x1000_0000_0000 + uint64(r.IntN(9))
			}
			copy(wantRows[rowOff(1)/8:rowOff(2)/8], a[:])
			take = true
			for i := range a {
				take = take && a[i] < mem.SharedBase
			}
			dst := 0
			if round%4 == 3 {
				dst = 1 // in place
			}
			if take {
				copy(wantRows[rowOff(dst)/8:rowOff(dst+1)/8], a[:])
			}
			op = traceOp{d: rowOff(dst), a: rowOff(1)}
		} else {
			kinds := []struct {
				key    string
				size   int
				signed bool
			}{{"ldParamZ8", 1, false}, {"ldParamS8", 1, true}, {"ldParamZ16", 2, false}, {"ldParamS16", 2, true},
				{"ldParamZ32", 4, false}, {"ldParamS32", 4, true}, {"ldParam64", 8, false}}
			m := kinds[r.IntN(len(kinds))]
			key = m.key
			params := onHeap(make([]byte, r.IntN(48)))
			for i := range params {
				params[i] = byte(r.Uint32())
			}
			k := uint64(r.IntN(len(params) + 9))
			if r.IntN(2) == 0 {
				k &^= uint64(m.size - 1)
			}
			take = len(params) >= m.size && k <= uint64(len(params)-m.size) && k%uint64(m.size) == 0
			if take {
				var v uint64
				for b := m.size - 1; b >= 0; b-- {
					v = v<<8 | uint64(params[k+uint64(b)])
				}
				if m.signed {
					v = uint64(int64(v<<(64-8*m.size)) >> (64 - 8*m.size))
				}
				for i := 0; i < warpSize; i++ {
					wantRows[int(rowOff(0)/8)+i] = v
				}
			}
			if len(params) > 0 {
				ctx.win[paramWindow] = traceWindow{data: uintptr(unsafe.Pointer(&params[0])), n: uint64(len(params))}
			}
			op = traceOp{d: rowOff(0), c: traceWindowOffset(paramWindow), k: k}
			keep = params
		}
		body, ok := simdMemBody(key)
		if !ok {
			t.Fatalf("no body %s", key)
		}
		op.body = body
		if take {
			copy(wantRows[rowOff(4)/8:rowOff(5)/8], rows[rowOff(3)/8:rowOff(4)/8])
			taken[key]++
		} else {
			refused[key]++
		}
		ops := []traceOp{op, {body: xorBody, d: rowOff(4), a: rowOff(3)}}
		done := simdTrace(unsafe.Pointer(&rows[0]), &ops[0], len(ops), &ctx)
		runtime.KeepAlive(keep)
		if want := map[bool]int{true: 2, false: 0}[take]; done != want {
			t.Fatalf("round %d %s: %d ops ran, want %d", round, key, done, want)
		}
		for i := range rows {
			if rows[i] != wantRows[i] {
				t.Fatalf("round %d %s: row %d lane %d: %#x, want %#x", round, key, i/warpSize, i%warpSize, rows[i], wantRows[i])
			}
		}
	}
	for key := range simdMemBodies {
		if (strings.HasPrefix(key, "ldParam") || key == "cvtaToGlobal") && (taken[key] < 10 || refused[key] < 10) {
			t.Errorf("%s: %d rounds taken, %d refused: too few", key, taken[key], refused[key])
		}
	}
}

// TestSIMDTraceSetp: setp's trace bodies (setpTrace's choice of body and
// operand order) store to the predicate the mask the Go loops compute
// (vecCompare, vecFloatCompare without AVX2), and nothing else, for every
// operator of every type that has one (f32 with .ftz too); the op after
// them runs too.
func TestSIMDTraceSetp(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(41, 42))
	rowOff := func(i int) uint64 { return uint64(i) * warpSize * 8 }
	xorBody, _ := simdBodyOf(simdXor64K)
	intOps := []string{".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs"}
	floatOps := []string{".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".equ", ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan"}
	used := map[string]bool{}
	for _, ty := range []string{".s32", ".u32", ".b32", ".s64", ".u64", ".b64", ".f32", ".f64", ".s16", ".u16", ".b16"} {
		ops := intOps
		if ty[1] == 'f' {
			ops = floatOps
		}
		ftzs := []bool{false}
		if ty == ".f32" {
			ftzs = append(ftzs, true)
		}
		for _, ftz := range ftzs {
			for _, cmp := range ops {
				if ty[1] == 'b' && cmp != ".eq" && cmp != ".ne" {
					continue
				}
				key, swap, ok := setpTrace(ty, cmp, ftz)
				if !ok {
					t.Fatalf("setp%s%s: no trace body", cmp, ty)
				}
				used[key] = true
				body, _ := simdMemBody(key)
				var ref func(a, b *lanes) uint32
				withoutSIMD(t, func() {
					if ref = vecCompare(ty, cmp); ref == nil {
						ref = vecFloatCompare(ty, cmp, ftz)
					}
				})
				for round := 0; round < 200; round++ {
					rows := make([]uint64, 5*warpSize)
					for i := range rows {
						rows[i] = r.Uint64()
					}
					a, b := (*lanes)(rows[rowOff(1)/8:]), (*lanes)(rows[rowOff(2)/8:])
					*a, *b = simdRow(r, ty == ".f32"), simdRow(r, ty == ".f32")
					if ty == ".f64" {
						*a, *b = simdRow64(r), simdRow64(r)
					}
					if strings.HasSuffix(ty, "16") && round%4 != 0 {
						*a, *b = simdRow16(r), simdRow16(r)
					}
					for i := range a {
						switch r.IntN(4) {
						case 0:
							b[i] = a[i] // equal operands
						case 1:
							if strings.HasSuffix(ty, "16") {
								// equal low 16 bits, held sign-extended
								b[i] = a[i]&0xffff ^ uint64(int64(int16(a[i])))&^0xffff
							}
						}
					}
					want := ref(a, b)
					preds := onHeap(make([]uint32, 4))
					for i := range preds {
						preds[i] = r.Uint32()
					}
					wantPreds := append([]uint32(nil), preds...)
					wantPreds[2] = want
					var ctx traceCtx
					ctx.preds = uintptr(unsafe.Pointer(&preds[0]))
					op := traceOp{body: body, d: 2 * 4, a: rowOff(1), b: rowOff(2)}
					if swap {
						op.a, op.b = op.b, op.a
					}
					wantRows := append([]uint64(nil), rows...)
					copy(wantRows[rowOff(4)/8:rowOff(5)/8], rows[rowOff(3)/8:rowOff(4)/8])
					ops := []traceOp{op, {body: xorBody, d: rowOff(4), a: rowOff(3)}}
					if done := simdTrace(unsafe.Pointer(&rows[0]), &ops[0], len(ops), &ctx); done != 2 {
						t.Fatalf("setp%s%s: %d ops ran", cmp, ty, done)
					}
					runtime.KeepAlive(preds)
					for i := range preds {
						if preds[i] != wantPreds[i] {
							t.Fatalf("setp%s%s round %d: predicate %d = %#x, want %#x", cmp, ty, round, i, preds[i], wantPreds[i])
						}
					}
					for i := range rows {
						if rows[i] != wantRows[i] {
							t.Fatalf("setp%s%s round %d: row %d changed", cmp, ty, round, i/warpSize)
						}
					}
				}
			}
		}
	}
	for key := range simdMemBodies {
		if strings.HasPrefix(key, "setp:") && !used[key] {
			t.Errorf("%s: no setp uses it", key)
		}
	}
}

// TestSIMDTraceSelp: selp's trace body writes a where the predicate (its
// complement when the entry's k is all ones) has the lane's bit, b
// elsewhere, in every lane, and the op after it runs.
func TestSIMDTraceSelp(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(61, 62))
	rowOff := func(i int) uint64 { return uint64(i) * warpSize * 8 }
	body, ok := simdMemBody("selp")
	if !ok {
		t.Fatal("no selp body")
	}
	xorBody, _ := simdBodyOf(simdXor64K)
	for round := 0; round < 500; round++ {
		rows := make([]uint64, 5*warpSize)
		for i := range rows {
			rows[i] = r.Uint64()
		}
		preds := onHeap([]uint32{r.Uint32(), r.Uint32(), r.Uint32()})
		neg := uint64(0)
		if round%2 == 1 {
			neg = 0xffffffff
		}
		dst := 0
		if round%3 == 2 {
			dst = 1 // d is a
		}
		want := append([]uint64(nil), rows...)
		sel := preds[1] ^ uint32(neg)
		for i := 0; i < warpSize; i++ {
			v := rows[int(rowOff(2)/8)+i]
			if sel&(1<<i) != 0 {
				v = rows[int(rowOff(1)/8)+i]
			}
			want[int(rowOff(dst)/8)+i] = v
		}
		copy(want[rowOff(4)/8:rowOff(5)/8], rows[rowOff(3)/8:rowOff(4)/8])
		var ctx traceCtx
		ctx.preds = uintptr(unsafe.Pointer(&preds[0]))
		ops := []traceOp{{body: body, d: rowOff(dst), a: rowOff(1), b: rowOff(2), c: 1 * 4, k: neg},
			{body: xorBody, d: rowOff(4), a: rowOff(3)}}
		if done := simdTrace(unsafe.Pointer(&rows[0]), &ops[0], len(ops), &ctx); done != 2 {
			t.Fatalf("round %d: %d ops ran", round, done)
		}
		runtime.KeepAlive(preds)
		for i := range rows {
			if rows[i] != want[i] {
				t.Fatalf("round %d: row %d lane %d: %#x, want %#x", round, i/warpSize, i%warpSize, rows[i], want[i])
			}
		}
	}
}

// TestSIMDTracePredLogic: the and, or and xor bodies on predicates store
// (a ^ na) op (b ^ nb) to d (the negations from the entry's k), change no
// other predicate or row, and the op after them runs; d may be an operand.
func TestSIMDTracePredLogic(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(71, 72))
	rowOff := func(i int) uint64 { return uint64(i) * warpSize * 8 }
	xorBody, _ := simdBodyOf(simdXor64K)
	for _, op := range []string{"and", "or", "xor"} {
		body, ok := simdMemBody("predlogic:" + op)
		if !ok {
			t.Fatalf("no predlogic:%s body", op)
		}
		for round := 0; round < 200; round++ {
			rows := make([]uint64, 2*warpSize)
			for i := range rows {
				rows[i] = r.Uint64()
			}
			preds := onHeap([]uint32{r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32()})
			a, b, d := r.IntN(4), r.IntN(4), r.IntN(4)
			var na, nb uint32
			if r.IntN(2) == 0 {
				na = ^uint32(0)
			}
			if r.IntN(2) == 0 {
				nb = ^uint32(0)
			}
			x, y := preds[a]^na, preds[b]^nb
			res := map[string]uint32{"and": x & y, "or": x | y, "xor": x ^ y}[op]
			want := append([]uint32(nil), preds...)
			want[d] = res
			wantRows := append([]uint64(nil), rows...)
			copy(wantRows[rowOff(1)/8:], rows[:warpSize])
			var ctx traceCtx
			ctx.preds = uintptr(unsafe.Pointer(&preds[0]))
			ops := []traceOp{{body: body, d: uint64(d) * 4, a: uint64(a) * 4, b: uint64(b) * 4, k: uint64(na) | uint64(nb)<<32},
				{body: xorBody, d: rowOff(1), a: rowOff(0)}}
			if done := simdTrace(unsafe.Pointer(&rows[0]), &ops[0], len(ops), &ctx); done != 2 {
				t.Fatalf("%s round %d: %d ops ran", op, round, done)
			}
			runtime.KeepAlive(preds)
			for i := range preds {
				if preds[i] != want[i] {
					t.Fatalf("%s round %d (a %d ^ %#x, b %d ^ %#x, d %d): predicate %d = %#x, want %#x", op, round, a, na, b, nb, d, i, preds[i], want[i])
				}
			}
			for i := range rows {
				if rows[i] != wantRows[i] {
					t.Fatalf("%s round %d: row %d lane %d changed", op, round, i/warpSize, i%warpSize)
				}
			}
		}
	}
}

// TestSIMDTraceShfl: the shfl trace body gives what the whole-warp shfl
// (c.whole, checked against the manual's rule in TestShflWholeMatchesRule)
// gives, for every mode and assorted b and c, with and without a
// predicate destination, changes nothing else, and the op after it runs.
func TestSIMDTraceShfl(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	body, ok := simdMemBody("shfl")
	if !ok {
		t.Fatal("no shfl body")
	}
	xorBody, _ := simdBodyOf(simdXor64K)
	r := rand.New(rand.NewPCG(91, 92))
	for _, mode := range []string{"up", "down", "bfly", "idx"} {
		for _, bc := range [][2]uint32{{1, 31}, {2, 0}, {4, 31}, {8, 31}, {16, 31}, {5, 31}, {3, 0x1807}, {1, 0x100f}, {0, 31}, {31, 31}} {
			for _, dst := range []string{"%d|%p", "%d"} {
				p, _ := load(t, fmt.Sprintf(`.version 7.8
.target sm_90
.address_size 64
.visible .entry k() {
	.reg .b32 %%a, %%d, %%x, %%y;
	.reg .pred %%p;
	shfl.sync.%s.b32 %s, %%a, %d, %d, 0xffffffff;
	xor.b32 %%y, %%x, 1;
	ret;
}
`, mode, dst, bc[0], bc[1]))
				fn := p.Kernels["k"]
				o := &fn.Ops[0]
				co := o.aux.(*collOp)
				if o.memTrace != "shfl" || len(o.trace) == 0 {
					t.Fatalf("shfl.%s %s: not in a trace", mode, dst)
				}
				f := &frame{fn: fn, regs: make([]uint64, fn.numSlots*warpSize), preds: onHeap([]uint32{r.Uint32(), r.Uint32()})}
				for i := range f.regs {
					f.regs[i] = r.Uint64()
				}
				want := &frame{fn: fn, regs: append([]uint64(nil), f.regs...), preds: append([]uint32(nil), f.preds...)}
				co.whole(want)
				var ctx traceCtx
				ctx.preds = uintptr(unsafe.Pointer(&f.preds[0]))
				// the shfl, then a row copy the trace must still run
				e, _ := memEntry(fn, o, new(uint64))
				if e.body != body {
					t.Fatalf("shfl.%s: the entry's body is not the shfl body", mode)
				}
				x, y := fn.slot[fn.IR.Regs[2].ID], fn.slot[fn.IR.Regs[3].ID] // %x, %y
				ops := []traceOp{e, {body: xorBody, d: uint64(y) * warpSize * 8, a: uint64(x) * warpSize * 8}}
				copy(want.regs[int(y)*warpSize:int(y+1)*warpSize], f.regs[int(x)*warpSize:int(x+1)*warpSize])
				if done := simdTrace(unsafe.Pointer(&f.regs[0]), &ops[0], len(ops), &ctx); done != 2 {
					t.Fatalf("shfl.%s: %d ops ran", mode, done)
				}
				runtime.KeepAlive(f.preds)
				for i := range f.regs {
					if f.regs[i] != want.regs[i] {
						t.Fatalf("shfl.%s b=%d c=%#x %s: row %d lane %d: %#x, want %#x", mode, bc[0], bc[1], dst, i/warpSize, i%warpSize, f.regs[i], want.regs[i])
					}
				}
				for i := range f.preds {
					if f.preds[i] != want.preds[i] {
						t.Fatalf("shfl.%s b=%d c=%#x %s: predicate %d = %#x, want %#x", mode, bc[0], bc[1], dst, i, f.preds[i], want.preds[i])
					}
				}
			}
		}
	}
}

// TestSIMDTraceLocal runs the local memory bodies of traces (a warp's
// ld/st.local at one offset in every lane's memory, the lanes' memories n
// bytes each one after the other) alone and before another body on random
// rows against the lane rule: where every lane's address is alike,
// aligned and inside a lane's n bytes, a load writes each lane's element
// (zero- or sign-extended) and a store each lane's value to its own
// memory; otherwise the body refuses, the trace reports no op run, and no
// row or byte changes.
func TestSIMDTraceLocal(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(13, 14))
	rowOff := func(i int) uint64 { return uint64(i) * warpSize * 8 }
	taken, refused := map[string]int{}, map[string]int{}
	for round := 0; round < 2000; round++ {
		kinds := []string{"ldLocalZ32", "ldLocalS32", "ldLocal64", "stLocal32", "stLocal64"}
		key := kinds[round%len(kinds)]
		body, ok := simdMemBody(key)
		if !ok {
			t.Fatalf("no body %s", key)
		}
		load := key[:2] == "ld"
		size := uint64(4)
		if strings.HasSuffix(key, "64") {
			size = 8
		}
		stride := uint64(16 * (1 + r.IntN(8))) // bytes per lane
		mem := onHeap(make([]byte, warpSize*stride))
		for i := range mem {
			mem[i] = byte(r.Uint32())
		}
		n := stride
		if round%41 == 40 {
			n = 0 // no local memory
		}
		k := uint64(r.IntN(3)) * size
		off := uint64(r.IntN(int(stride/size))) * size // lane 0's offset
		rows := make([]uint64, 5*warpSize)
		for i := range rows {
			rows[i] = r.Uint64()
		}
		addr := (*lanes)(rows[rowOff(1)/8:])
		for i := range addr {
			addr[i] = off - k
		}
		switch round / 5 % 6 {
		case 1:
			addr[r.IntN(warpSize)] += size // one lane elsewhere
		case 2:
			for i := range addr {
				addr[i]++ // misaligned
			}
		case 3:
			for i := range addr {
				addr[i] = stride - size + size - k // past a lane's bytes
			}
		}
		take := n >= size
		for i := range addr {
			o := addr[i] + k
			if addr[i] != addr[0] || o%size != 0 || o > n-size || n < size {
				take = false
			}
		}
		wantRows := append([]uint64(nil), rows...)
		wantMem := append([]byte(nil), mem...)
		if take {
			o := addr[0] + k
			for l := range warpSize {
				at := uint64(l)*stride + o
				if load {
					var v uint64
					if size == 4 {
						v = uint64(binary.LittleEndian.Uint32(mem[at:]))
						if key == "ldLocalS32" {
							v = uint64(int64(int32(v)))
						}
					} else {
						v = binary.LittleEndian.Uint64(mem[at:])
					}
					wantRows[int(rowOff(0)/8)+l] = v
				} else if size == 4 {
					binary.LittleEndian.PutUint32(wantMem[at:], uint32(rows[int(rowOff(2)/8)+l]))
				} else {
					binary.LittleEndian.PutUint64(wantMem[at:], rows[int(rowOff(2)/8)+l])
				}
			}
			copy(wantRows[rowOff(4)/8:rowOff(5)/8], rows[rowOff(3)/8:rowOff(4)/8])
		}
		var ctx traceCtx
		ctx.win[localWindow] = traceWindow{data: uintptr(unsafe.Pointer(&mem[0])), n: n}
		op := traceOp{body: body, a: rowOff(1), c: traceWindowOffset(localWindow), k: k}
		if load {
			op.d = rowOff(0)
		} else {
			op.b = rowOff(2)
		}
		xorBody, ok := simdBodyOf(simdXor64K)
		if !ok {
			t.Fatal("no body for xor.b64")
		}
		ops := []traceOp{op, {body: xorBody, d: rowOff(4), a: rowOff(3), k: 0}}
		done := simdTrace(unsafe.Pointer(&rows[0]), &ops[0], len(ops), &ctx)
		runtime.KeepAlive(mem)
		if want := map[bool]int{true: 2, false: 0}[take]; done != want {
			t.Fatalf("round %d %s: %d ops ran, want %d", round, key, done, want)
		}
		for i := range rows {
			if rows[i] != wantRows[i] {
				t.Fatalf("round %d %s: row %d lane %d: %#x, want %#x", round, key, i/warpSize, i%warpSize, rows[i], wantRows[i])
			}
		}
		if !bytes.Equal(mem, wantMem) {
			t.Fatalf("round %d %s: memory differs", round, key)
		}
		if take {
			taken[key]++
		} else {
			refused[key]++
		}
	}
	for key, n := range taken {
		if n < 50 || refused[key] < 50 {
			t.Errorf("%s: %d rounds taken, %d refused: too few", key, n, refused[key])
		}
	}
	if len(taken) != 5 {
		t.Errorf("bodies taken: %v", taken)
	}
}

// TestSIMDTraceMulHi: the trace bodies of mul.hi.u64 (b a row, or the
// entry's k) give each lane the high half of its 128-bit product
// (bits.Mul64), and the trace goes on to the next body; in place too (the
// destination is an operand's row).
func TestSIMDTraceMulHi(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(15, 16))
	rowOff := func(i int) uint64 { return uint64(i) * warpSize * 8 }
	xorBody, ok := simdBodyOf(simdXor64K)
	if !ok {
		t.Fatal("no body for xor.b64")
	}
	for round := 0; round < 200; round++ {
		k := round%2 == 1
		key := map[bool]string{false: "mulhiU64", true: "mulhiU64K"}[k]
		body, ok := simdMemBody(key)
		if !ok {
			t.Fatalf("no body %s", key)
		}
		rows := make([]uint64, 5*warpSize)
		for i := range rows {
			rows[i] = r.Uint64() >> (r.IntN(4) * 16)
		}
		kv := r.Uint64()
		dst := 0
		if round%5 == 4 {
			dst = 1 // in place: the destination is a's row
		}
		want := append([]uint64(nil), rows...)
		for l := range warpSize {
			b := rows[int(rowOff(2)/8)+l]
			if k {
				b = kv
			}
			want[int(rowOff(dst)/8)+l], _ = bits.Mul64(rows[int(rowOff(1)/8)+l], b)
		}
		copy(want[rowOff(4)/8:rowOff(5)/8], rows[rowOff(3)/8:rowOff(4)/8])
		op := traceOp{body: body, d: rowOff(dst), a: rowOff(1), k: kv}
		if !k {
			op.b = rowOff(2)
		}
		ops := []traceOp{op, {body: xorBody, d: rowOff(4), a: rowOff(3), k: 0}}
		var ctx traceCtx
		if done := simdTrace(unsafe.Pointer(&rows[0]), &ops[0], len(ops), &ctx); done != 2 {
			t.Fatalf("round %d %s: %d ops ran", round, key, done)
		}
		for i := range rows {
			if rows[i] != want[i] {
				t.Fatalf("round %d %s: row %d lane %d: %#x, want %#x", round, key, i/warpSize, i%warpSize, rows[i], want[i])
			}
		}
	}
}

// TestSIMDTraceVectorLoads: the trace bodies of ld.v2/.v4 of 4-byte
// elements into consecutive rows: where every lane's vector lies, aligned
// to its size, in the window, each lane's elements go to the rows d, d+1,
// ... zero- or sign-extended, and the trace goes on; otherwise the body
// refuses and no row changes.
func TestSIMDTraceVectorLoads(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 on this host")
	}
	r := rand.New(rand.NewPCG(17, 18))
	const window = 4096
	const base = uint64(0x40000)
	rowOff := func(i int) uint64 { return uint64(i) * warpSize * 8 }
	taken, refused := map[string]int{}, map[string]int{}
	xorBody, ok := simdBodyOf(simdXor64K)
	if !ok {
		t.Fatal("no body for xor.b64")
	}
	for round := 0; round < 2000; round++ {
		keys := []string{"ldV2Z32", "ldV2S32", "ldV4Z32", "ldV4S32"}
		key := keys[round%len(keys)]
		body, ok := simdMemBody(key)
		if !ok {
			t.Fatalf("no body %s", key)
		}
		n := int(key[3] - '0')
		size := uint64(4 * n)
		signed := key[4] == 'S'
		data := onHeap(make([]byte, window))
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		wlen := uint64(window)
		if round%37 == 36 {
			wlen = size - 1
		}
		k := uint64(r.IntN(3)) * size
		// rows: 0-3 the destination, 4 addresses, 5 and 6: a following copy
		rows := make([]uint64, 7*warpSize)
		for i := range rows {
			rows[i] = r.Uint64()
		}
		addr := (*lanes)(rows[rowOff(4)/8:])
		start := uint64(r.IntN(window/int(size)-40)) * size
		for i := range addr {
			off := start + uint64(i)*size
			switch round / 4 % 4 {
			case 1:
				off = start
			case 2:
				off = uint64(r.IntN(window/int(size))) * size
			}
			addr[i] = base + off - k
		}
		switch round / 16 % 5 {
		case 3:
			addr[r.IntN(warpSize)] += 4 // a lane misaligned for the vector
		case 4:
			addr[r.IntN(warpSize)] = base + window - size + 4 - k // past the window
		}
		take := wlen >= size
		for i := range addr {
			o := addr[i] + k - base
			if o%size != 0 || o > wlen-size || wlen < size {
				take = false
			}
		}
		want := append([]uint64(nil), rows...)
		if take {
			for l := range warpSize {
				o := addr[l] + k - base
				for e := range n {
					v := uint64(binary.LittleEndian.Uint32(data[o+4*uint64(e):]))
					if signed {
						v = uint64(int64(int32(v)))
					}
					want[int(rowOff(e)/8)+l] = v
				}
			}
			copy(want[rowOff(6)/8:rowOff(7)/8], rows[rowOff(5)/8:rowOff(6)/8])
		}
		var ctx traceCtx
		ctx.win[5] = traceWindow{data: uintptr(unsafe.Pointer(&data[0])), n: wlen, base: base}
		op := traceOp{body: body, d: rowOff(0), a: rowOff(4), c: traceWindowOffset(5), k: k}
		ops := []traceOp{op, {body: xorBody, d: rowOff(6), a: rowOff(5), k: 0}}
		done := simdTrace(unsafe.Pointer(&rows[0]), &ops[0], len(ops), &ctx)
		runtime.KeepAlive(data)
		if w := map[bool]int{true: 2, false: 0}[take]; done != w {
			t.Fatalf("round %d %s: %d ops ran, want %d", round, key, done, w)
		}
		for i := range rows {
			if rows[i] != want[i] {
				t.Fatalf("round %d %s: row %d lane %d: %#x, want %#x", round, key, i/warpSize, i%warpSize, rows[i], want[i])
			}
		}
		if take {
			taken[key]++
		} else {
			refused[key]++
		}
	}
	for _, key := range []string{"ldV2Z32", "ldV2S32", "ldV4Z32", "ldV4S32"} {
		if taken[key] < 50 || refused[key] < 50 {
			t.Errorf("%s: %d rounds taken, %d refused: too few", key, taken[key], refused[key])
		}
	}
}

// heapSink makes the buffers whose addresses the tests hand the assembly
// as integers (traceCtx's windows and predicates) live on the heap: one
// left on the stack moves when the stack grows before the call (the race
// detector's larger frames made TestSIMDTraceSetp read a stale copy once
// traceCtx grew to 64 windows), and the integer does not follow it.
var heapSink []any

func onHeap[T any](s []T) []T {
	heapSink = append(heapSink[:0], s)
	return s
}
