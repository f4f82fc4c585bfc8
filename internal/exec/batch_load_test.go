package exec

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// batchConstLoads reads a .const table (9.0 5.1.3, the constant state
// space: read-only for a launch) at a uniform address, at a parameter's
// index (uniform too; past the table's 32 bytes it faults), at a per-lane
// index, and, for odd threads only, at a guarded load:
// out[i] = in[i]*ctab[1] + ctab[i%8] + ctab[k] (+ ctab[7-i%8] when i is
// odd).
const batchConstLoads = `.version 7.0
.target sm_70
.address_size 64
.const .align 4 .u32 ctab[8] = {3, 5, 7, 11, 13, 17, 19, 23};
.visible .entry k(.param .u64 out, .param .u64 in, .param .u32 n, .param .u32 k)
{
	.reg .pred %p<3>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [in];
	ld.param.u32 %r1, [n];
	ld.param.u32 %r2, [k];
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %ntid.x;
	mov.u32 %r5, %tid.x;
	mad.lo.s32 %r6, %r3, %r4, %r5;
	setp.ge.u32 %p1, %r6, %r1;
	@%p1 bra DONE;
	mul.wide.u32 %rd3, %r6, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %r7, [%rd4];
	ld.const.u32 %r8, [ctab+4];
	mul.lo.u32 %r7, %r7, %r8;
	and.b32 %r9, %r6, 7;
	mul.wide.u32 %rd5, %r9, 4;
	mov.u64 %rd6, ctab;
	add.s64 %rd7, %rd6, %rd5;
	ld.const.u32 %r10, [%rd7];
	add.u32 %r7, %r7, %r10;
	mul.wide.u32 %rd8, %r2, 4;
	add.s64 %rd9, %rd6, %rd8;
	ld.const.u32 %r11, [%rd9];
	add.u32 %r7, %r7, %r11;
	and.b32 %r12, %r6, 1;
	setp.eq.u32 %p2, %r12, 1;
	sub.u32 %r13, 7, %r9;
	mul.wide.u32 %rd10, %r13, 4;
	add.s64 %rd11, %rd6, %rd10;
	mov.u32 %r14, 0;
	@%p2 ld.const.u32 %r14, [%rd11];
	add.u32 %r7, %r7, %r14;
	add.s64 %rd4, %rd1, %rd3;
	st.global.u32 [%rd4], %r7;
DONE:
	ret;
}
`

// TestBatchSinkLoad: a scalar load into the sink (ld.const, ld.global _)
// checks its address and writes nothing; a batch must not take it (it
// indexed a register row -1).
func TestBatchSinkLoad(t *testing.T) {
	for _, load := range []string{"ld.const.u32 _, [tab];", "ld.global.u32 _, [%p];", "ld.const.u32 _, [%q];"} {
		src := `.version 8.0
.target sm_90
.address_size 64
.const .align 4 .u32 tab[4] = {1, 2, 3, 4};
.visible .entry k(.param .u64 a, .param .u64 b, .param .u32 n)
{
	.reg .u32 %i, %t, %j;
	.reg .u64 %ap, %o, %p, %q;
	ld.param.u64 %ap, [a];
	mov.u32 %i, %ctaid.x;
	mov.u32 %t, %ntid.x;
	mov.u32 %j, %tid.x;
	mad.lo.u32 %i, %i, %t, %j;
	mul.wide.u32 %o, %i, 4;
	add.u64 %p, %ap, %o;
	and.b64 %q, %o, 12;
	` + load + `
	st.global.u32 [%p], %i;
	ret;
}
`
		in := bdFillBufs(bdBufs(bdWords(256, bdZero), bdWords(4, bdZero)), 1)
		ref := bdSame(t, load, src, "k", bdX(2), bdX(128), in, bdArgs(bdPtr(0), bdPtr(1), bdU(256)), false)
		for i := range 256 {
			if got := binary.LittleEndian.Uint32(ref.mem[0][4*i:]); got != uint32(i) {
				t.Fatalf("%s: a[%d] = %d", load, i, got)
			}
		}
	}
}

// TestBatchConstLoads: .const loads run in batches, with the warp engine's
// results, and an index past the table faults as there.
func TestBatchConstLoads(t *testing.T) {
	ctab := []uint32{3, 5, 7, 11, 13, 17, 19, 23}
	for _, c := range []struct {
		name        string
		ctas, block int
		n           int
		k           uint64
		fault       bool
	}{
		{"one", 3, 64, 170, 2, false},
		{"many", 300, 128, 38390, 7, false},
		{"past the table", 4, 64, 256, 8, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			words := c.ctas * c.block
			in := bdFillBufs(bdBufs(bdWords(words, bdZero), bdWords(words, bdRand)), bdSeed(c.name))
			diff, ref := bdDiff(t, batchConstLoads, "k", bdX(c.ctas), bdX(c.block), in, bdArgs(bdPtr(0), bdPtr(1), bdU(uint64(c.n)), bdU(c.k)), !c.fault)
			if diff != "" {
				t.Fatal(diff)
			}
			if c.fault {
				if ref.err == nil || !strings.Contains(ref.err.Error(), "out of bounds") {
					t.Fatalf("error %v, want an out-of-bounds fault", ref.err)
				}
				return
			}
			if ref.err != nil {
				t.Fatal(ref.err)
			}
			for i := range words {
				want := uint32(0)
				if i < c.n {
					x := binary.LittleEndian.Uint32(in[1][4*i:])
					want = x*ctab[1] + ctab[i%8] + ctab[c.k]
					if i%2 == 1 {
						want += ctab[7-i%8]
					}
				}
				if got := binary.LittleEndian.Uint32(ref.mem[0][4*i:]); got != want {
					t.Fatalf("out[%d] = %d, want %d", i, got, want)
				}
			}
		})
	}
}

// batch32BitShared stages a block's 256 words through shared memory at
// 32-bit addresses, as nvcc writes them (mov.u32 %r, tile; add.s32):
// thread t writes its word at tile + off + t*step and reads tile[255-t]
// back. Step 4 and off 0 reverse each block (out[i] = in[i-t+255-t]);
// step -4 and off 1020 (a negative step) write tile[255-t], so out = in;
// step 0x20000000 makes the 32-bit addresses wrap (out of bounds).
const batch32BitShared = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in, .param .u32 step, .param .u32 off)
{
	.reg .b32 %r<14>;
	.reg .b64 %rd<8>;
	.shared .align 4 .b32 tile[256];
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [in];
	ld.param.u32 %r10, [step];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	shl.b32 %r3, %r2, 8;
	add.s32 %r3, %r3, %r1;
	mul.wide.u32 %rd3, %r3, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %r4, [%rd4];
	mov.u32 %r5, tile;
	ld.param.u32 %r12, [off];
	mul.lo.s32 %r6, %r1, %r10;
	add.s32 %r7, %r5, %r6;
	add.s32 %r7, %r7, %r12;
	st.shared.u32 [%r7], %r4;
	bar.sync 0;
	sub.s32 %r8, 255, %r1;
	shl.b32 %r8, %r8, 2;
	add.s32 %r9, %r5, %r8;
	ld.shared.u32 %r11, [%r9];
	add.s64 %rd5, %rd1, %rd3;
	st.global.u32 [%rd5], %r11;
	ret;
}
`

// TestBatch32BitSharedAddresses: 32-bit shared addresses run in batches as
// forms (addrForm widens them: a tiled matmul written so ran 7.5x slower
// lane by lane), with Go's and the warp engine's results; addresses that
// wrap around 2^32 fault as on the warp engine.
func TestBatch32BitSharedAddresses(t *testing.T) {
	for _, c := range []struct {
		name      string
		step, off uint64
		fault     bool
	}{{"words", 4, 0, false}, {"backwards", 0xfffffffc, 1020, false}, {"wrapping", 0x20000000, 0, true}} {
		const ctas = 40
		in := bdFillBufs(bdBufs(bdWords(ctas*256, bdZero), bdWords(ctas*256, bdRand)), bdSeed(c.name))
		diff, ref := bdDiff(t, batch32BitShared, "k", bdX(ctas), bdX(256), in, bdArgs(bdPtr(0), bdPtr(1), bdU(c.step), bdU(c.off)), !c.fault)
		if diff != "" {
			t.Fatalf("%s: %s", c.name, diff)
		}
		if c.fault {
			if ref.err == nil || !strings.Contains(ref.err.Error(), "out of bounds") {
				t.Fatalf("%s: error %v, want an out-of-bounds fault", c.name, ref.err)
			}
			continue
		}
		if ref.err != nil {
			t.Fatal(ref.err)
		}
		for i := range ctas * 256 {
			j := i - i%256 + 255 - i%256 // (reversed)
			if c.off != 0 {
				j = i
			}
			want := binary.LittleEndian.Uint32(in[1][4*j:])
			if got := binary.LittleEndian.Uint32(ref.mem[0][4*i:]); got != want {
				t.Fatalf("%s: out[%d] = %#x, want %#x", c.name, i, got, want)
			}
		}
	}
	// the shared load took the gather path of forms (a plan for its op, made
	// with the AVX2 loops only), not the lanes' rows
	if !simdEnabled {
		return
	}
	p, g := load(t, batch32BitShared)
	k := p.Kernels["k"]
	out, _ := g.Alloc(4*256*8, 0)
	in, _ := g.Alloc(4*256*8, 0)
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{8, 1, 1}, Block: [3]int{256, 1, 1},
		Params: params(k, out, in, 4, 0), Workers: 1}); err != nil {
		t.Fatal(err)
	}
	r, ok := k.batchRuns.get()
	if !ok {
		t.Fatal("no batch register file kept after the launch")
	}
	for pc := range k.Ops {
		if o := &k.Ops[pc]; o.inst.Opcode == "ld" && o.space == mem.SpaceShared && (r.gplans == nil || r.gplans[pc] == nil) {
			t.Errorf("ld.shared at %d: no gather plan (lane by lane)", pc)
		}
	}
}
