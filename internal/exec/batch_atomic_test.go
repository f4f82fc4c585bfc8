package exec

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"
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
