package exec

// Differential tests of the batch executor (batch*.go) against the warp
// engine: every kernel runs on fresh, identical memory with batchEnabled
// false and true, on 1 and on 2 workers, and the two runs must agree on
// every byte of every buffer, on the instruction counts and on the error
// (nil, or a *Fault with the same text). TestBatchDiffKernels takes
// CUDA-style kernels compiled by clang (testdata/batch: src/*.cu, gen.sh,
// the committed *.ptx); TestBatchDiffRandom generates PTX kernels of the
// batch executor's subset directly.

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// bdBuf is one global buffer of a differential case: its size in bytes and
// its contents (bdRand, bdF32, bdF64 or bdZero).
type bdBuf struct {
	size int
	fill int
}

const (
	bdRand = iota // pseudo-random bytes
	bdF32         // f32 values, mostly in [-8, 8), some special ones
	bdF64         // f64 values, likewise
	bdZero
)

// bdArg is one kernel parameter: the address of buffer buf plus val (a
// byte offset, to misalign it), or, when buf is -1, the scalar val (its
// low bytes, as many as the parameter has).
type bdArg struct {
	buf int
	val uint64
}

// Shorthands for the table of bdCases.
func bdPtr(i int) bdArg                { return bdArg{buf: i} }
func bdPtrOff(i int, off uint64) bdArg { return bdArg{buf: i, val: off} }
func bdU(v uint64) bdArg               { return bdArg{buf: -1, val: v} }
func bdF(v float32) bdArg              { return bdU(uint64(math.Float32bits(v))) }
func bdD(v float64) bdArg              { return bdU(math.Float64bits(v)) }
func bdArgs(a ...bdArg) []bdArg        { return a }
func bdB(n int, fill int) bdBuf        { return bdBuf{size: n, fill: fill} }
func bdWords(n int, fill int) bdBuf    { return bdB(4*n, fill) }
func bdDwords(n int, fill int) bdBuf   { return bdB(8*n, fill) }
func bdBufs(b ...bdBuf) []bdBuf        { return b }
func bdX(x int) [3]int                 { return [3]int{x, 1, 1} }
func bdXY(x, y int) [3]int             { return [3]int{x, y, 1} }
func bdDims(x, y, z int) [3]int        { return [3]int{x, y, z} }

// bdAddrOf is the value of parameter a when the buffers lie at base.
func bdAddrOf(base []uint64, a bdArg) uint64 {
	if a.buf < 0 {
		return a.val
	}
	return base[a.buf] + a.val
}

// bdCase is one launch of a kernel of testdata/batch.
type bdCase struct {
	name        string
	kernel      string // testdata/batch/<kernel>.ptx, entry <kernel>
	grid, block [3]int
	bufs        []bdBuf
	args        []bdArg
	// eligible: the batch executor must run it (LaunchStats.Batched > 0
	// with batchEnabled). The others may run either way.
	eligible bool
	fault    bool // the launch must fault
	// oneWorker: compare on one worker only (f32 atomics: the order of
	// the adds, which two workers change from run to run, decides the bits)
	oneWorker bool
	// refused: the plan must refuse the kernel (both runs are then the
	// warp engine's, and the case pins the refusal)
	refused bool
	// check, when set, checks the launch's memory against values worked
	// out independently ("" when right)
	check func(in bdInput, mem [][]byte) string
}

// bdResult is what one launch left: the error, every buffer, the counts.
type bdResult struct {
	err   error
	mem   [][]byte
	stats LaunchStats
}

// bdInput is the memory a launch starts from: one byte slice per buffer.
type bdInput [][]byte

// bdFillBufs makes the initial contents of bufs from seed.
func bdFillBufs(bufs []bdBuf, seed uint64) bdInput {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	specials32 := []uint32{0, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
		0x7f800001, 0xffc00001, 0x00000001, 0x807fffff, 0x7f7fffff, 0x00800000}
	specials64 := []uint64{0, 1 << 63, 0x3ff0000000000000, 0xbff0000000000000, 0x7ff0000000000000,
		0xfff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001, 0xfff8000000000001, 1,
		0x800fffffffffffff, 0x7fefffffffffffff, 0x0010000000000000}
	in := make(bdInput, len(bufs))
	for i, b := range bufs {
		d := make([]byte, b.size)
		switch b.fill {
		case bdRand:
			for j := 0; j < len(d); j += 8 {
				var w [8]byte
				binary.LittleEndian.PutUint64(w[:], r.Uint64())
				copy(d[j:], w[:])
			}
		case bdF32:
			for j := 0; j+4 <= len(d); j += 4 {
				v := math.Float32bits(float32(r.IntN(1<<16)-1<<15) / 4096)
				if r.IntN(8) == 0 {
					v = specials32[r.IntN(len(specials32))]
				}
				binary.LittleEndian.PutUint32(d[j:], v)
			}
		case bdF64:
			for j := 0; j+8 <= len(d); j += 8 {
				v := math.Float64bits(float64(r.Int64N(1<<40)-1<<39) / (1 << 36))
				if r.IntN(8) == 0 {
					v = specials64[r.IntN(len(specials64))]
				}
				binary.LittleEndian.PutUint64(d[j:], v)
			}
		}
		in[i] = d
	}
	return in
}

// bdRun loads src into a fresh global memory holding the buffers of in,
// launches entry with batchEnabled set to batch (and packing off), and
// returns what the launch left. It parses and loads src afresh for every
// launch, so that no launch sees another's caches.
func bdRun(src, entry string, grid, block [3]int, in bdInput, args []bdArg, workers int, batch bool) (bdResult, error) {
	return bdLaunch(src, entry, grid, block, in, args, workers, batch, false)
}

// bdLaunch is bdRun with packEnabled set to pack too.
func bdLaunch(src, entry string, grid, block [3]int, in bdInput, args []bdArg, workers int, batch, pack bool) (bdResult, error) {
	mod, err := parseModule(src)
	if err != nil {
		return bdResult{}, err
	}
	g := mem.NewGlobal(0)
	p, err := Load(mod, g)
	if err != nil {
		return bdResult{}, err
	}
	k := p.Kernels[entry]
	if k == nil {
		return bdResult{}, fmt.Errorf("no kernel %s", entry)
	}
	base := make([]uint64, len(in))
	for i, d := range in {
		a, err := g.Alloc(uint64(max(len(d), 1)), 0)
		if err != nil {
			return bdResult{}, err
		}
		b, _ := g.Bytes(a, uint64(len(d)))
		copy(b, d)
		base[i] = a
	}
	vals := make([]uint64, len(args))
	for i, a := range args {
		vals[i] = bdAddrOf(base, a)
	}
	old, oldPack := batchEnabled, packEnabled
	// (packing off by default: the warp engine's reference runs one CTA a
	// warp, and LaunchStats counts warps alike)
	batchEnabled, packEnabled = batch, pack
	defer func() { batchEnabled, packEnabled = old, oldPack }()
	var res bdResult
	res.err = p.Launch(context.Background(), entry, LaunchConfig{Grid: grid, Block: block,
		Params: params(k, vals...), Workers: workers, Stats: &res.stats})
	for i, d := range in {
		b, _ := g.Bytes(base[i], uint64(len(d)))
		res.mem = append(res.mem, append([]byte(nil), b...))
	}
	return res, nil
}

// bdCompare returns how got (batchEnabled) differs from want (the warp
// engine), or "" when it does not. Memory and counts are compared when
// the launch did not fault (after a fault, which other CTAs ran depends
// on the schedule).
func bdCompare(want, got bdResult) string {
	es := func(err error) string {
		if err == nil {
			return "<nil>"
		}
		return err.Error()
	}
	if es(want.err) != es(got.err) {
		return fmt.Sprintf("error %q, warp engine %q", es(got.err), es(want.err))
	}
	if want.err != nil {
		var fw, fg *Fault
		if errors.As(want.err, &fw) != errors.As(got.err, &fg) {
			return fmt.Sprintf("error %T, warp engine %T", got.err, want.err)
		}
		return ""
	}
	for i := range want.mem {
		if !bytes.Equal(want.mem[i], got.mem[i]) {
			j := 0
			for j < len(want.mem[i]) && want.mem[i][j] == got.mem[i][j] {
				j++
			}
			n := 0
			for k := range want.mem[i] {
				if want.mem[i][k] != got.mem[i][k] {
					n++
				}
			}
			lo := j &^ 7
			hi := min(lo+16, len(want.mem[i]))
			return fmt.Sprintf("buffer %d: %d bytes differ, the first at byte %d: % x, warp engine % x",
				i, n, j, got.mem[i][lo:hi], want.mem[i][lo:hi])
		}
	}
	if want.stats.WarpInstructions != got.stats.WarpInstructions ||
		want.stats.ThreadInstructions != got.stats.ThreadInstructions || want.stats.CTAs != got.stats.CTAs {
		return fmt.Sprintf("counts: %d warp, %d thread instructions, %d CTAs; warp engine %d, %d, %d",
			got.stats.WarpInstructions, got.stats.ThreadInstructions, got.stats.CTAs,
			want.stats.WarpInstructions, want.stats.ThreadInstructions, want.stats.CTAs)
	}
	return ""
}

// bdDiff runs src both ways on 1 and 2 workers and returns the first
// difference ("" when none) and the reference result (the warp engine's
// on 1 worker). mustBatch: the batched run of a launch that does not
// fault must report Batched > 0.
func bdDiff(t *testing.T, src, entry string, grid, block [3]int, in bdInput, args []bdArg, mustBatch bool) (string, bdResult) {
	t.Helper()
	return bdDiffOn(t, src, entry, grid, block, in, args, mustBatch, []int{1, 2})
}

// bdSame is bdDiff for a launch that must not fail: it fails the test
// (what names the launch) where the runs differ or the warp engine's
// launch fails, and returns the warp engine's result.
func bdSame(t *testing.T, what, src, entry string, grid, block [3]int, in bdInput, args []bdArg, mustBatch bool) bdResult {
	t.Helper()
	diff, ref := bdDiff(t, src, entry, grid, block, in, args, mustBatch)
	if diff != "" {
		t.Fatalf("%s: %s", what, diff)
	}
	if ref.err != nil {
		t.Fatalf("%s: %v", what, ref.err)
	}
	return ref
}

// bdDiffOn is bdDiff on the given worker counts.
func bdDiffOn(t *testing.T, src, entry string, grid, block [3]int, in bdInput, args []bdArg, mustBatch bool, workerCounts []int) (string, bdResult) {
	t.Helper()
	var ref bdResult
	for _, workers := range workerCounts {
		off, err := bdRun(src, entry, grid, block, in, args, workers, false)
		if err != nil {
			return fmt.Sprintf("load: %v", err), ref
		}
		on, err := bdRun(src, entry, grid, block, in, args, workers, true)
		if err != nil {
			return fmt.Sprintf("load: %v", err), ref
		}
		if workers == 1 {
			ref = off
		}
		if off.stats.Batched != 0 {
			return fmt.Sprintf("%d workers: %d CTAs batched with batchEnabled false", workers, off.stats.Batched), ref
		}
		if d := bdCompare(off, on); d != "" {
			return fmt.Sprintf("%d workers: %s", workers, d), ref
		}
		if mustBatch && on.err == nil && on.stats.Batched == 0 {
			return fmt.Sprintf("%d workers: not batched (LaunchStats.Batched 0)", workers), ref
		}
	}
	return "", ref
}

// bdSeed derives a buffer seed from a case's name.
func bdSeed(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// bdCases: the kernels of testdata/batch and their launches. n is not a
// multiple of the block size where the kernel has a bound; blocks of 100,
// 48, 33 and 30 threads leave the last warp partial.
func bdCases() []bdCase {
	const r, f, d, z = bdRand, bdF32, bdF64, bdZero
	return []bdCase{
		{name: "copy_u32", kernel: "copy_u32", grid: bdX(8), block: bdX(128),
			bufs: bdBufs(bdWords(1000, r), bdWords(1000, z)), args: bdArgs(bdU(1000), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "copy_u32/block100", kernel: "copy_u32", grid: bdX(10), block: bdX(100),
			bufs: bdBufs(bdWords(1000, r), bdWords(1000, r)), args: bdArgs(bdU(1000), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "copy_u32/block48", kernel: "copy_u32", grid: bdX(21), block: bdX(48),
			bufs: bdBufs(bdWords(1000, r), bdWords(1000, r)), args: bdArgs(bdU(1000), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "copy_u32/one_thread", kernel: "copy_u32", grid: bdX(1), block: bdX(1),
			bufs: bdBufs(bdWords(1, r), bdWords(1, r)), args: bdArgs(bdU(1), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "copy_u32/n0", kernel: "copy_u32", grid: bdX(3), block: bdX(64),
			bufs: bdBufs(bdWords(4, r), bdWords(4, r)), args: bdArgs(bdU(0), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "copy_u32/large", kernel: "copy_u32", grid: bdX(40), block: bdX(256),
			bufs: bdBufs(bdWords(10000, r), bdWords(10000, r)), args: bdArgs(bdU(10000), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "copy_u32/block1024", kernel: "copy_u32", grid: bdX(3), block: bdX(1024),
			bufs: bdBufs(bdWords(3000, r), bdWords(3000, r)), args: bdArgs(bdU(3000), bdPtr(0), bdPtr(1)), eligible: true},
		// (a) n past the end of the buffers: the guard lets lanes read past
		// the allocation
		{name: "copy_u32/fault_oob_load", kernel: "copy_u32", grid: bdX(9), block: bdX(128),
			bufs: bdBufs(bdWords(1000, r), bdWords(1100, r)), args: bdArgs(bdU(1100), bdPtr(0), bdPtr(1)), fault: true},
		{name: "copy_u32/fault_oob_store", kernel: "copy_u32", grid: bdX(9), block: bdX(128),
			bufs: bdBufs(bdWords(1100, r), bdWords(1000, r)), args: bdArgs(bdU(1100), bdPtr(0), bdPtr(1)), fault: true},
		{name: "copy_u32/fault_oob_block100", kernel: "copy_u32", grid: bdX(11), block: bdX(100),
			bufs: bdBufs(bdWords(1037, r), bdWords(1100, r)), args: bdArgs(bdU(1100), bdPtr(0), bdPtr(1)), fault: true},
		// (b) misaligned pointers
		{name: "copy_u32/fault_misaligned_load", kernel: "copy_u32", grid: bdX(4), block: bdX(64),
			bufs: bdBufs(bdWords(260, r), bdWords(256, r)), args: bdArgs(bdU(256), bdPtrOff(0, 2), bdPtr(1)), fault: true},
		{name: "copy_u32/fault_misaligned_store", kernel: "copy_u32", grid: bdX(4), block: bdX(64),
			bufs: bdBufs(bdWords(256, r), bdWords(260, r)), args: bdArgs(bdU(256), bdPtr(0), bdPtrOff(1, 2)), fault: true},
		{name: "copy_u32/fault_null", kernel: "copy_u32", grid: bdX(2), block: bdX(64),
			bufs: bdBufs(bdWords(128, r), bdWords(128, r)), args: bdArgs(bdU(128), bdU(0), bdPtr(1)), fault: true},
		{name: "copy_u64", kernel: "copy_u64", grid: bdX(13), block: bdX(64),
			bufs: bdBufs(bdDwords(777, r), bdDwords(777, r)), args: bdArgs(bdU(777), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "copy_u64/fault_misaligned", kernel: "copy_u64", grid: bdX(2), block: bdX(64),
			bufs: bdBufs(bdDwords(130, r), bdDwords(128, r)), args: bdArgs(bdU(128), bdPtrOff(0, 4), bdPtr(1)), fault: true},
		{name: "vecadd_f32", kernel: "vecadd_f32", grid: bdX(20), block: bdX(256),
			bufs: bdBufs(bdWords(5000, f), bdWords(5000, f), bdWords(5000, r)), args: bdArgs(bdU(5000), bdPtr(0), bdPtr(1), bdPtr(2)), eligible: true},
		{name: "vecadd_f32/block96", kernel: "vecadd_f32", grid: bdX(53), block: bdX(96),
			bufs: bdBufs(bdWords(5000, f), bdWords(5000, f), bdWords(5000, r)), args: bdArgs(bdU(5000), bdPtr(0), bdPtr(1), bdPtr(2)), eligible: true},
		{name: "saxpy_fma", kernel: "saxpy_fma", grid: bdX(24), block: bdX(128),
			bufs: bdBufs(bdWords(3000, f), bdWords(3000, f)), args: bdArgs(bdU(3000), bdF(2.5), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "saxpy_fma/fault_oob", kernel: "saxpy_fma", grid: bdX(24), block: bdX(128),
			bufs: bdBufs(bdWords(3000, f), bdWords(2990, f)), args: bdArgs(bdU(3000), bdF(-0.75), bdPtr(0), bdPtr(1)), fault: true},
		{name: "hash_u32", kernel: "hash_u32", grid: bdX(16), block: bdX(256),
			bufs: bdBufs(bdWords(4096, r), bdWords(4096, r)), args: bdArgs(bdU(4096), bdU(0xdeadbeef), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "hash_u32/block33", kernel: "hash_u32", grid: bdX(125), block: bdX(33),
			bufs: bdBufs(bdWords(4096, r), bdWords(4096, r)), args: bdArgs(bdU(4096), bdU(12345), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "gridstride_f32", kernel: "gridstride_f32", grid: bdX(7), block: bdX(128),
			bufs: bdBufs(bdWords(10000, f), bdWords(10000, f)), args: bdArgs(bdU(10000), bdF(1.5), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "gridstride_f32/block100", kernel: "gridstride_f32", grid: bdX(3), block: bdX(100),
			bufs: bdBufs(bdWords(4321, f), bdWords(4321, f)), args: bdArgs(bdU(4321), bdF(-3), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "gridstride_f32/short", kernel: "gridstride_f32", grid: bdX(4), block: bdX(64),
			bufs: bdBufs(bdWords(50, f), bdWords(50, f)), args: bdArgs(bdU(50), bdF(0.5), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "gridstride_f32/fault_oob", kernel: "gridstride_f32", grid: bdX(5), block: bdX(64),
			bufs: bdBufs(bdWords(2000, f), bdWords(1900, f)), args: bdArgs(bdU(2000), bdF(2), bdPtr(0), bdPtr(1)), fault: true},
		{name: "gridstride_u32", kernel: "gridstride_u32", grid: bdX(5), block: bdX(256),
			bufs: bdBufs(bdWords(12345, r), bdWords(12345, r)), args: bdArgs(bdU(12345), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "gridstride_u32/block48", kernel: "gridstride_u32", grid: bdX(13), block: bdX(48),
			bufs: bdBufs(bdWords(6000, r), bdWords(6000, r)), args: bdArgs(bdU(6000), bdPtr(0), bdPtr(1)), eligible: true},
		// (every row of the grid stores the same values at the same words:
		// on two workers those stores race, same values or not)
		{name: "gridstride_u32/grid2d", kernel: "gridstride_u32", grid: bdXY(4, 3), block: bdX(64),
			bufs: bdBufs(bdWords(3000, r), bdWords(3000, r)), args: bdArgs(bdU(3000), bdPtr(0), bdPtr(1)), eligible: true, oneWorker: true},
		// img2d, signed_diff and stencil3 combine their two bounds with
		// or.pred before the guard's branch
		{name: "img2d/16x16", kernel: "img2d", grid: bdXY(7, 5), block: bdXY(16, 16),
			bufs: bdBufs(bdWords(100*70, f), bdWords(100*70, r)), args: bdArgs(bdU(100), bdU(70), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "img2d/32x8", kernel: "img2d", grid: bdXY(4, 9), block: bdXY(32, 8),
			bufs: bdBufs(bdWords(100*70, f), bdWords(100*70, r)), args: bdArgs(bdU(100), bdU(70), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "img2d/8x4", kernel: "img2d", grid: bdXY(13, 18), block: bdXY(8, 4),
			bufs: bdBufs(bdWords(100*70, f), bdWords(100*70, r)), args: bdArgs(bdU(100), bdU(70), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "img2d/10x10", kernel: "img2d", grid: bdXY(4, 1), block: bdXY(10, 10),
			bufs: bdBufs(bdWords(37*3, f), bdWords(37*3, r)), args: bdArgs(bdU(37), bdU(3), bdPtr(0), bdPtr(1)), eligible: true},
		// exact grids: every lane in every batch, so the 16x16 and 8x4
		// stores go by chunks of eight words (batchStoreChunks32NK)
		{name: "img2d/16x16_exact", kernel: "img2d", grid: bdXY(7, 5), block: bdXY(16, 16),
			bufs: bdBufs(bdWords(112*80, f), bdWords(112*80, r)), args: bdArgs(bdU(112), bdU(80), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "img2d/8x4_exact", kernel: "img2d", grid: bdXY(13, 18), block: bdXY(8, 4),
			bufs: bdBufs(bdWords(104*72, f), bdWords(104*72, r)), args: bdArgs(bdU(104), bdU(72), bdPtr(0), bdPtr(1)), eligible: true},
		// lanes choosing between two buffers (window's second entry)
		{name: "select2", kernel: "select2", grid: bdX(40), block: bdX(256),
			bufs: bdBufs(bdWords(10000, r), bdWords(10000, r), bdWords(10000, r), bdWords(10000, r)),
			args: bdArgs(bdU(10000), bdPtr(0), bdPtr(1), bdPtr(2), bdPtr(3)), eligible: true},
		{name: "select2/fault_oob", kernel: "select2", grid: bdX(40), block: bdX(256),
			bufs: bdBufs(bdWords(10000, r), bdWords(9000, r), bdWords(10000, r), bdWords(10000, r)),
			args: bdArgs(bdU(10000), bdPtr(0), bdPtr(1), bdPtr(2), bdPtr(3)), fault: true},
		{name: "img2d64/16x16_exact", kernel: "img2d64", grid: bdXY(7, 5), block: bdXY(16, 16),
			bufs: bdBufs(bdDwords(112*80, d), bdDwords(112*80, r)), args: bdArgs(bdU(112), bdU(80), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "img2d64/8x4", kernel: "img2d64", grid: bdXY(13, 18), block: bdXY(8, 4),
			bufs: bdBufs(bdDwords(100*70, d), bdDwords(100*70, r)), args: bdArgs(bdU(100), bdU(70), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "img2d/fault_oob", kernel: "img2d", grid: bdXY(7, 5), block: bdXY(16, 16),
			bufs: bdBufs(bdWords(100*69, f), bdWords(100*70, r)), args: bdArgs(bdU(100), bdU(70), bdPtr(0), bdPtr(1)), fault: true},
		{name: "block3d/4x4x4", kernel: "block3d", grid: bdDims(2, 3, 1), block: bdDims(4, 4, 4),
			bufs: bdBufs(bdWords(6*64, r)), args: bdArgs(bdPtr(0)), eligible: true},
		{name: "block3d/5x3x2", kernel: "block3d", grid: bdDims(3, 2, 2), block: bdDims(5, 3, 2),
			bufs: bdBufs(bdWords(12*30, r)), args: bdArgs(bdPtr(0)), eligible: true},
		{name: "block3d/8x8x2", kernel: "block3d", grid: bdDims(1, 1, 3), block: bdDims(8, 8, 2),
			bufs: bdBufs(bdWords(3*128, r)), args: bdArgs(bdPtr(0)), eligible: true},
		{name: "block3d/fault_oob", kernel: "block3d", grid: bdDims(2, 2, 2), block: bdDims(3, 5, 7),
			bufs: bdBufs(bdWords(8*105-1, r)), args: bdArgs(bdPtr(0)), fault: true},
		{name: "scatter", kernel: "scatter", grid: bdX(8), block: bdX(128),
			bufs: bdBufs(bdWords(1000, r), bdWords(3000, r)), args: bdArgs(bdU(1000), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "scatter/fault_oob", kernel: "scatter", grid: bdX(8), block: bdX(128),
			bufs: bdBufs(bdWords(1000, r), bdWords(2990, r)), args: bdArgs(bdU(1000), bdPtr(0), bdPtr(1)), fault: true},
		{name: "bytes_u8", kernel: "bytes_u8", grid: bdX(24), block: bdX(128),
			bufs: bdBufs(bdB(3001, r), bdB(3001, r)), args: bdArgs(bdU(3001), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "bytes_u8/fault_oob", kernel: "bytes_u8", grid: bdX(24), block: bdX(128),
			bufs: bdBufs(bdB(3001, r), bdB(3000, r)), args: bdArgs(bdU(3001), bdPtr(0), bdPtr(1)), fault: true},
		{name: "shorts_u16", kernel: "shorts_u16", grid: bdX(20), block: bdX(100),
			bufs: bdBufs(bdB(4000, r), bdB(4000, r), bdB(4000, r)), args: bdArgs(bdU(2000), bdPtr(0), bdPtr(1), bdPtr(2)), eligible: true},
		{name: "shorts_u16/fault_misaligned", kernel: "shorts_u16", grid: bdX(20), block: bdX(100),
			bufs: bdBufs(bdB(4002, r), bdB(4002, r), bdB(4000, r)), args: bdArgs(bdU(2000), bdPtr(0), bdPtrOff(1, 1), bdPtr(2)), fault: true},
		{name: "signed_diff", kernel: "signed_diff", grid: bdX(8), block: bdX(128),
			bufs: bdBufs(bdWords(1000, r), bdWords(1000, r)), args: bdArgs(bdU(1000), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "signed_diff/block48", kernel: "signed_diff", grid: bdX(21), block: bdX(48),
			bufs: bdBufs(bdWords(1000, r), bdWords(1000, r)), args: bdArgs(bdU(1000), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "stencil3", kernel: "stencil3", grid: bdX(33), block: bdX(64),
			bufs: bdBufs(bdWords(2049, f), bdWords(2049, r)), args: bdArgs(bdU(2049), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "index64", kernel: "index64", grid: bdX(12), block: bdX(256),
			bufs: bdBufs(bdDwords(3000, r), bdDwords(3000, r)), args: bdArgs(bdU(3000), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "index64/fault_oob", kernel: "index64", grid: bdX(12), block: bdX(256),
			bufs: bdBufs(bdDwords(3000, r), bdDwords(3000, r)), args: bdArgs(bdU(3001), bdPtr(0), bdPtr(1)), fault: true},
		{name: "relu_max", kernel: "relu_max", grid: bdX(32), block: bdX(128),
			bufs: bdBufs(bdWords(4000, f), bdWords(4000, f), bdWords(4000, r), bdWords(4000, r)),
			args: bdArgs(bdU(4000), bdPtr(0), bdPtr(1), bdPtr(2), bdPtr(3)), eligible: true},
		{name: "dmath", kernel: "dmath", grid: bdX(24), block: bdX(64),
			bufs: bdBufs(bdDwords(1500, d), bdDwords(1500, r)), args: bdArgs(bdU(1500), bdD(-1.25), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "dmath/block100", kernel: "dmath", grid: bdX(15), block: bdX(100),
			bufs: bdBufs(bdDwords(1500, d), bdDwords(1500, r)), args: bdArgs(bdU(1450), bdD(3.0e-300), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "inplace", kernel: "inplace", grid: bdX(10), block: bdX(256),
			bufs: bdBufs(bdWords(2500, r), bdWords(2500, f)), args: bdArgs(bdU(2500), bdPtr(0), bdPtr(1)), eligible: true},
		{name: "two_stores", kernel: "two_stores", grid: bdX(10), block: bdX(128),
			bufs: bdBufs(bdWords(1234, r), bdWords(1234, r), bdDwords(1235, r)),
			args: bdArgs(bdU(1234), bdPtr(0), bdPtr(1), bdPtr(2)), eligible: true},
		{name: "two_stores/fault_second", kernel: "two_stores", grid: bdX(10), block: bdX(128),
			bufs: bdBufs(bdWords(1234, r), bdWords(1234, r), bdDwords(1234, r)),
			args: bdArgs(bdU(1234), bdPtr(0), bdPtr(1), bdPtr(2)), fault: true},
		{name: "griddim", kernel: "griddim", grid: bdX(17), block: bdX(64),
			bufs: bdBufs(bdWords(17*64, r)), args: bdArgs(bdPtr(0)), eligible: true},
		{name: "griddim/grid2d", kernel: "griddim", grid: bdXY(9, 3), block: bdX(32),
			bufs: bdBufs(bdWords(9*32, r)), args: bdArgs(bdPtr(0)), eligible: true},
		{name: "convert", kernel: "convert", grid: bdX(8), block: bdX(128),
			bufs: bdBufs(bdWords(1000, f), bdWords(1000, r), bdWords(1000, r), bdWords(1000, r), bdDwords(1000, r)),
			args: bdArgs(bdU(1000), bdPtr(0), bdPtr(1), bdPtr(2), bdPtr(3), bdPtr(4)), eligible: true},
		{name: "mixed_width", kernel: "mixed_width", grid: bdX(16), block: bdX(64),
			bufs: bdBufs(bdB(999, r), bdB(2*999, r), bdWords(999, r), bdDwords(999, r)),
			args: bdArgs(bdU(999), bdPtr(0), bdPtr(1), bdPtr(2), bdPtr(3)), eligible: true},
		// loops whose trip count every lane of a warp shares: not batches
		// (batch.go: loops are where the warp engine's traces win)
		{name: "gemv", kernel: "gemv", grid: bdX(8), block: bdX(128),
			bufs: bdBufs(bdWords(37*1000, f), bdWords(37, f), bdWords(1000, z)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(37), bdU(1000)), refused: true},
		{name: "gemv/many", kernel: "gemv", grid: bdX(64), block: bdX(128), // (after the first batch, warp by warp)
			bufs: bdBufs(bdWords(21*8000, f), bdWords(21, f), bdWords(8000, z)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(21), bdU(8000)), refused: true},
		{name: "gemv/n4", kernel: "gemv", grid: bdX(40), block: bdX(96),
			bufs: bdBufs(bdWords(4*3800, f), bdWords(4, f), bdWords(3800, z)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(4), bdU(3800)), refused: true},
		{name: "gemv/n0", kernel: "gemv", grid: bdX(4), block: bdX(64),
			bufs: bdBufs(bdWords(4, f), bdWords(4, f), bdWords(256, r)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(0), bdU(256)), refused: true},
		{name: "gemv/fault", kernel: "gemv", grid: bdX(8), block: bdX(128),
			bufs: bdBufs(bdWords(37*990, f), bdWords(37, f), bdWords(1000, z)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(37), bdU(1000)), fault: true},
		{name: "gemvt", kernel: "gemvt", grid: bdX(300), block: bdX(64),
			bufs: bdBufs(bdWords(13*19000, f), bdWords(13, f), bdWords(19000, z)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(13), bdU(19000)), refused: true},
		// barriers in a loop over shared tiles (a uniform trip count)
		{name: "tiled", kernel: "tiled", grid: bdXY(4, 4), block: bdXY(8, 8),
			bufs: bdBufs(bdWords(32*32, f), bdWords(32*32, f), bdWords(32*32, z)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(32)), eligible: true},
		{name: "tiled/many", kernel: "tiled", grid: bdXY(24, 24), block: bdXY(8, 8),
			bufs: bdBufs(bdWords(192*192, f), bdWords(192*192, f), bdWords(192*192, z)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(192)), eligible: true},
		// (n 0: the CTAs of each grid row store to the same words of C, a
		// race between workers: one worker)
		{name: "tiled/n0", kernel: "tiled", grid: bdXY(2, 2), block: bdXY(8, 8),
			bufs: bdBufs(bdWords(4, f), bdWords(4, f), bdWords(256, r)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(0)), eligible: true, oneWorker: true},
		// shared memory read at a variable's own address, one global
		// atomic (a total), warp collectives
		{name: "blockreduce", kernel: "blockreduce", grid: bdX(40), block: bdX(128),
			bufs: bdBufs(bdWords(5000, r), bdWords(40, z), bdWords(1, r)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(5000)), eligible: true},
		{name: "blockreduce/many", kernel: "blockreduce", grid: bdX(1000), block: bdX(128),
			bufs: bdBufs(bdWords(128000, r), bdWords(1000, z), bdWords(1, r)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdU(127990)), eligible: true},
		// the total past the end of its buffer: every thread 0 faults at the
		// atomic, which the batch checks before it adds anything
		{name: "blockreduce/fault", kernel: "blockreduce", grid: bdX(40), block: bdX(128),
			bufs: bdBufs(bdWords(5000, r), bdWords(40, z), bdWords(1, r)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtrOff(2, 4), bdU(5000)), fault: true},
		{name: "warpreduce", kernel: "warpreduce", grid: bdX(50), block: bdX(64),
			bufs: bdBufs(bdWords(3200, r), bdWords(1, r), bdWords(3200, f), bdWords(3200, z), bdWords(200, z)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdPtr(3), bdPtr(4), bdU(3)), eligible: true},
		{name: "warpreduce/many", kernel: "warpreduce", grid: bdX(600), block: bdX(256),
			bufs: bdBufs(bdWords(153600, r), bdWords(1, r), bdWords(153600, f), bdWords(153600, z), bdWords(9600, z)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdPtr(3), bdPtr(4), bdU(5)), eligible: true},
		// a partial warp (48 threads a block): the collectives' warps are not
		// whole, the batch declines, and the warp engine faults (a shfl
		// reads a lane that is not a thread)
		{name: "warpreduce/block48", kernel: "warpreduce", grid: bdX(10), block: bdX(48),
			bufs: bdBufs(bdWords(480, r), bdWords(1, r), bdWords(480, f), bdWords(480, z), bdWords(40, z)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdPtr(3), bdPtr(4), bdU(3)), fault: true},
		{name: "fatomic", kernel: "fatomic", grid: bdX(70), block: bdX(96),
			bufs: bdBufs(bdWords(6700, f), bdWords(16, f)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdU(6700), bdU(16)), eligible: true, oneWorker: true},
		// every lane's add at one word: one atomic step for the batch
		{name: "fatomic/one", kernel: "fatomic", grid: bdX(70), block: bdX(96),
			bufs: bdBufs(bdWords(6700, f), bdWords(1, f)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdU(6700), bdU(1)), eligible: true, oneWorker: true},
		{name: "fatomic/many", kernel: "fatomic", grid: bdX(70), block: bdX(96),
			bufs: bdBufs(bdWords(6700, f), bdWords(300, f)),
			args: bdArgs(bdPtr(0), bdPtr(1), bdU(6700), bdU(300)), eligible: true, oneWorker: true},
		{name: "histo", kernel: "histo", grid: bdX(60), block: bdX(128),
			bufs: bdBufs(bdWords(7600, r), bdWords(256, r)), args: bdArgs(bdPtr(0), bdPtr(1), bdU(7600), bdU(256)), eligible: true},
		{name: "histo/7", kernel: "histo", grid: bdX(60), block: bdX(128),
			bufs: bdBufs(bdWords(7600, r), bdWords(7, r)), args: bdArgs(bdPtr(0), bdPtr(1), bdU(7600), bdU(7)), eligible: true},
		{name: "histo/300", kernel: "histo", grid: bdX(60), block: bdX(128),
			bufs: bdBufs(bdWords(7600, r), bdWords(300, r)), args: bdArgs(bdPtr(0), bdPtr(1), bdU(7600), bdU(300)), eligible: true},
		{name: "histo/fault", kernel: "histo", grid: bdX(60), block: bdX(128),
			bufs: bdBufs(bdWords(7600, r), bdWords(200, r)), args: bdArgs(bdPtr(0), bdPtr(1), bdU(7600), bdU(256)), fault: true},
		{name: "histo/misaligned", kernel: "histo", grid: bdX(60), block: bdX(128),
			bufs: bdBufs(bdWords(7600, r), bdWords(257, r)), args: bdArgs(bdPtr(0), bdPtrOff(1, 2), bdU(7600), bdU(256)), fault: true},
		{name: "fatomic/misaligned", kernel: "fatomic", grid: bdX(70), block: bdX(96),
			bufs: bdBufs(bdWords(6700, f), bdWords(17, f)),
			args: bdArgs(bdPtr(0), bdPtrOff(1, 2), bdU(6700), bdU(16)), fault: true, oneWorker: true},
		// grid-stride loops whose lanes leave for the code after them: each
		// warp's lanes leave together (n a multiple of 32), some warps one
		// iteration later than others, or (n not a multiple of 32) one
		// warp's lanes part, and the batch goes back to the warp engine
		{name: "gsreduce", kernel: "gsreduce", grid: bdX(40), block: bdX(128),
			bufs: bdBufs(bdWords(40*128*5, r), bdWords(1, r)), args: bdArgs(bdPtr(0), bdPtr(1), bdU(40*128*5)), eligible: true},
		{name: "gsreduce/uneven", kernel: "gsreduce", grid: bdX(40), block: bdX(128),
			bufs: bdBufs(bdWords(20000, r), bdWords(1, r)), args: bdArgs(bdPtr(0), bdPtr(1), bdU(20000)), eligible: true},
		{name: "gsreduce/parts", kernel: "gsreduce", grid: bdX(40), block: bdX(128),
			bufs: bdBufs(bdWords(20001, r), bdWords(1, r)), args: bdArgs(bdPtr(0), bdPtr(1), bdU(20001))},
		// (the loads past the input's end read the total first, which other
		// workers add to: one worker)
		{name: "gsreduce/fault", kernel: "gsreduce", grid: bdX(40), block: bdX(128),
			bufs: bdBufs(bdWords(19000, r), bdWords(1, r)), args: bdArgs(bdPtr(0), bdPtr(1), bdU(20000)), fault: true, oneWorker: true},
		{name: "gspartial", kernel: "gspartial", grid: bdX(30), block: bdX(96),
			bufs: bdBufs(bdWords(30*96*7+64, f), bdWords(30*96, z)), args: bdArgs(bdPtr(0), bdPtr(1), bdU(30*96*7+64)), eligible: true},
		{name: "gspartial/short", kernel: "gspartial", grid: bdX(30), block: bdX(96),
			bufs: bdBufs(bdWords(1000, f), bdWords(30*96, z)), args: bdArgs(bdPtr(0), bdPtr(1), bdU(1000))},
		// each CTA's accesses consecutive, the CTAs' chunks apart; the last
		// CTA's chunk past the input's end
		{name: "chunked", kernel: "chunked", grid: bdX(50), block: bdX(256),
			bufs: bdBufs(bdWords(50*1024, r), bdWords(50*512, r)), args: bdArgs(bdPtr(0), bdPtr(1)), eligible: true},
		{name: "chunked/fault", kernel: "chunked", grid: bdX(50), block: bdX(256),
			bufs: bdBufs(bdWords(50*1024-100, r), bdWords(50*512, r)), args: bdArgs(bdPtr(0), bdPtr(1)), fault: true},
		{name: "ctaloop", kernel: "ctaloop", grid: bdX(300), block: bdX(64),
			bufs: bdBufs(bdWords(300*64, z)), args: bdArgs(bdPtr(0), bdU(3)), refused: true, check: ctaloopCheck(64, 3)},
		{name: "ctaloop/block100", kernel: "ctaloop", grid: bdX(13), block: bdX(100),
			bufs: bdBufs(bdWords(1300, z)), args: bdArgs(bdPtr(0), bdU(0)), refused: true, check: ctaloopCheck(100, 0)},
	}
}

// ctaloopCheck: ctaloop.cu's meaning, thread i of CTA c with block
// threads: acc = i, then acc = acc*1664525 + j for j below c%5 + n, in
// 32-bit arithmetic.
func ctaloopCheck(block int, n uint32) func(bdInput, [][]byte) string {
	return func(_ bdInput, mem [][]byte) string {
		for i := 0; 4*i < len(mem[0]); i++ {
			acc := uint32(i)
			for j := range uint32(i/block)%5 + n {
				acc = acc*1664525 + j
			}
			if got := binary.LittleEndian.Uint32(mem[0][4*i:]); got != acc {
				return fmt.Sprintf("thread %d: %d, want %d", i, got, acc)
			}
		}
		return ""
	}
}

// TestBatchDiffKernels: the clang-compiled kernels of testdata/batch, each
// launch with batchEnabled false and true, on 1 and 2 workers.
func TestBatchDiffKernels(t *testing.T) {
	srcs := map[string]string{}
	for _, c := range bdCases() {
		t.Run(c.name, func(t *testing.T) {
			src, ok := srcs[c.kernel]
			if !ok {
				b, err := os.ReadFile("testdata/batch/" + c.kernel + ".ptx")
				if err != nil {
					t.Fatal(err)
				}
				src = string(b)
				srcs[c.kernel] = src
			}
			if c.refused {
				if p, _ := load(t, src); p.Kernels[c.kernel].plan() != nil {
					t.Fatalf("%s: planned for batches", c.kernel)
				}
			}
			in := bdFillBufs(c.bufs, bdSeed(c.name))
			workers := []int{1, 2}
			if c.oneWorker {
				workers = workers[:1]
			}
			diff, ref := bdDiffOn(t, src, c.kernel, c.grid, c.block, in, c.args, c.eligible, workers)
			if diff != "" {
				t.Fatal(diff)
			}
			var f *Fault
			switch {
			case c.fault && !errors.As(ref.err, &f):
				t.Fatalf("got %v, want a fault", ref.err)
			case !c.fault && ref.err != nil:
				t.Fatalf("launch: %v", ref.err)
			}
			if c.check != nil {
				if msg := c.check(in, ref.mem); msg != "" {
					t.Fatal(msg)
				}
			}
		})
	}
}

// bdGen writes one random kernel of the batch executor's subset.
type bdGen struct {
	r        *rand.Rand
	b        strings.Builder
	nr, nrd  int      // %r and %rd registers used
	nf       int      // %f registers used
	i32, i64 []string // registers holding values, by kind
	f32      []string
}

func (g *bdGen) emit(format string, a ...any) {
	g.b.WriteString("\t")
	fmt.Fprintf(&g.b, format, a...)
	g.b.WriteString("\n")
}

func (g *bdGen) newR() string  { g.nr++; return fmt.Sprintf("%%r%d", g.nr) }
func (g *bdGen) newRD() string { g.nrd++; return fmt.Sprintf("%%rd%d", g.nrd) }
func (g *bdGen) newF() string  { g.nf++; return fmt.Sprintf("%%f%d", g.nf) }

func bdPick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

// recent picks one of the last few values of pool, mostly the newest
// ones, so that the stores depend on long chains.
func (g *bdGen) recent(pool []string) string {
	if g.r.IntN(3) == 0 {
		return bdPick(g.r, pool)
	}
	return pool[len(pool)-1-g.r.IntN(min(3, len(pool)))]
}

// imm32 is a random 32-bit immediate: small, negative, large, or an edge.
func (g *bdGen) imm32() string {
	switch g.r.IntN(5) {
	case 0:
		return fmt.Sprint(g.r.IntN(16))
	case 1:
		return fmt.Sprint(-1 - g.r.IntN(1000))
	case 2:
		return fmt.Sprint(int32(g.r.Uint32()))
	case 3:
		return bdPick(g.r, []string{"-1", "2147483647", "-2147483648", "0x80000000", "0xffffffff", "65536", "-65536", "0x9e3779b9"})
	}
	return fmt.Sprint(g.r.IntN(100000))
}

func (g *bdGen) opnd32() string {
	if g.r.IntN(3) == 0 {
		return g.imm32()
	}
	return g.recent(g.i32)
}

func (g *bdGen) immF32() string {
	if g.r.IntN(6) == 0 {
		return bdPick(g.r, []string{"0f7F800000", "0fFF800000", "0f00000001", "0f80000000", "0f7F7FFFFF", "0f3F800000"})
	}
	return fmt.Sprintf("0f%08X", math.Float32bits(float32(g.r.IntN(20001)-10000)/256))
}

// alu emits one random arithmetic instruction on the pools.
func (g *bdGen) alu() {
	r := g.r
	switch k := r.IntN(20); {
	case k < 9: // 32-bit integer
		d := g.newR()
		a := g.recent(g.i32)
		switch r.IntN(12) {
		case 0:
			g.emit("add.s32 %s, %s, %s;", d, a, g.opnd32())
		case 1:
			g.emit("sub.s32 %s, %s, %s;", d, g.opnd32(), a)
		case 2:
			g.emit("mul.lo.s32 %s, %s, %s;", d, a, g.opnd32())
		case 3:
			g.emit("mul.lo.u32 %s, %s, %s;", d, a, g.opnd32())
		case 4:
			g.emit("mad.lo.s32 %s, %s, %s, %s;", d, a, g.opnd32(), g.opnd32())
		case 5:
			g.emit("and.b32 %s, %s, %s;", d, a, g.opnd32())
		case 6:
			g.emit("xor.b32 %s, %s, %s;", d, a, g.opnd32())
		case 7:
			g.emit("or.b32 %s, %s, %s;", d, a, g.opnd32())
		case 8:
			g.emit("shl.b32 %s, %s, %d;", d, a, r.IntN(32))
		case 9:
			g.emit("%s %s, %s, %d;", bdPick(r, []string{"shr.u32", "shr.s32"}), d, a, r.IntN(32))
		case 10: // a shift amount from a register: may be 32 or more
			g.emit("%s %s, %s, %s;", bdPick(r, []string{"shl.b32", "shr.u32", "shr.s32"}), d, a, g.recent(g.i32))
		case 11:
			g.emit("mad.lo.u32 %s, %s, %s, %s;", d, g.opnd32(), a, g.recent(g.i32))
		}
		g.i32 = append(g.i32, d)
	case k < 13: // 64-bit integer
		d := g.newRD()
		switch r.IntN(7) {
		case 0:
			g.emit("mul.wide.u32 %s, %s, %s;", d, g.recent(g.i32), g.opnd32())
		case 1:
			g.emit("mul.wide.s32 %s, %s, %s;", d, g.recent(g.i32), g.opnd32())
		case 2:
			g.emit("cvt.u64.u32 %s, %s;", d, g.recent(g.i32))
		case 3:
			g.emit("cvt.s64.s32 %s, %s;", d, g.recent(g.i32))
		case 4:
			g.emit("add.s64 %s, %s, %s;", d, g.recent(g.i64), g.recent(g.i64))
		case 5:
			g.emit("%s %s, %s, %d;", bdPick(r, []string{"shl.b64", "shr.u64", "shr.s64"}), d, g.recent(g.i64), r.IntN(64))
		case 6:
			g.emit("xor.b64 %s, %s, %d;", d, g.recent(g.i64), r.Int64())
		}
		g.i64 = append(g.i64, d)
		if r.IntN(2) == 0 { // back to 32 bits
			d32 := g.newR()
			g.emit("cvt.u32.u64 %s, %s;", d32, d)
			g.i32 = append(g.i32, d32)
		}
	case k < 18: // f32
		d := g.newF()
		fo := func() string {
			if r.IntN(4) == 0 {
				return g.immF32()
			}
			return g.recent(g.f32)
		}
		switch r.IntN(6) {
		case 0:
			g.emit("add.rn.f32 %s, %s, %s;", d, g.recent(g.f32), fo())
		case 1:
			g.emit("sub.f32 %s, %s, %s;", d, fo(), g.recent(g.f32))
		case 2:
			g.emit("mul.rn.f32 %s, %s, %s;", d, g.recent(g.f32), fo())
		case 3:
			g.emit("fma.rn.f32 %s, %s, %s, %s;", d, g.recent(g.f32), fo(), fo())
		case 4:
			g.emit("cvt.rn.f32.s32 %s, %s;", d, g.recent(g.i32))
		case 5:
			g.emit("cvt.rn.f32.u32 %s, %s;", d, g.recent(g.i32))
		}
		g.f32 = append(g.f32, d)
	default: // f32 to integer: a conversion or the bits
		d := g.newR()
		if r.IntN(2) == 0 {
			g.emit("cvt.rzi.s32.f32 %s, %s;", d, g.recent(g.f32))
		} else {
			g.emit("mov.b32 %s, %s;", d, g.recent(g.f32))
		}
		g.i32 = append(g.i32, d)
	}
}

// bdRandKernel is one generated kernel with its launch.
type bdRandKernel struct {
	src, desc   string
	grid, block [3]int
	bufs        []bdBuf
	args        []bdArg
}

// bdGenKernel writes a kernel over params in0, in1 (inputs), out0, out1
// (one store each), n (the bound), c (a u32) and s (an f32): a global
// index (2-D when the grid or the block is), the guard, random
// arithmetic, 1-3 loads and 1-2 stores, at the index or at index*k+c
// (scattered; out of bounds or misaligned now and then), sometimes in a
// grid-stride loop.
func bdGenKernel(r *rand.Rand) bdRandKernel { return bdGenKernelTiny(r, false) }

// bdGenKernelTiny is bdGenKernel, with tiny: CTAs of 1 to 16 threads in
// grids of up to 300 CTAs (the packs of pack.go).
func bdGenKernelTiny(r *rand.Rand, tiny bool) bdRandKernel {
	var k bdRandKernel
	g := &bdGen{r: r}
	// the launch
	gx, gy := 1+r.IntN(40), 1
	if r.IntN(4) == 0 {
		gy = 1 + r.IntN(4)
		gx = 1 + r.IntN(max(1, 40/gy))
	}
	bx, by := 1+r.IntN(256), 1
	switch r.IntN(6) {
	case 0:
		s := bdPick(r, [][2]int{{16, 16}, {32, 8}, {8, 4}, {10, 10}, {3, 7}, {64, 2}, {1, 32}})
		bx, by = s[0], s[1]
	case 1:
		by = 1 + r.IntN(8)
		bx = 1 + r.IntN(256/by)
	}
	if tiny {
		gx, gy = 1+r.IntN(300), 1
		if r.IntN(3) == 0 {
			gy = 1 + r.IntN(5)
		}
		bx, by = 1+r.IntN(16), 1
		if r.IntN(3) == 0 {
			by = 1 + r.IntN(4)
			bx = 1 + r.IntN(16/by)
		}
	}
	k.grid, k.block = [3]int{gx, gy, 1}, [3]int{bx, by, 1}
	threads := gx * gy * bx * by
	loop := r.IntN(5) == 0
	var n int
	switch {
	case loop:
		n = threads/2 + r.IntN(3*threads+8)
	case r.IntN(4) == 0:
		n = threads
	default:
		n = 1 + r.IntN(threads)
	}

	g.b.WriteString(".version 7.0\n.target sm_80\n.address_size 64\n")
	g.b.WriteString(".visible .entry k(.param .u64 in0, .param .u64 in1, .param .u64 out0, .param .u64 out1,\n")
	g.b.WriteString("\t.param .u32 n, .param .u32 c, .param .f32 s)\n{\n")
	g.b.WriteString("\t.reg .pred %p<4>;\n\t.reg .b32 %r<400>;\n\t.reg .b64 %rd<400>;\n\t.reg .f32 %f<400>;\n")
	base := map[string]string{}
	for _, p := range []string{"in0", "in1", "out0", "out1"} {
		d := g.newRD()
		g.emit("ld.param.u64 %s, [%s];", d, p)
		if r.IntN(2) == 0 {
			d2 := g.newRD()
			g.emit("cvta.to.global.u64 %s, %s;", d2, d)
			d = d2
		}
		base[p] = d
	}
	rn, rc, fs := g.newR(), g.newR(), g.newF()
	g.emit("ld.param.u32 %s, [n];", rn)
	g.emit("ld.param.u32 %s, [c];", rc)
	g.emit("ld.param.f32 %s, [s];", fs)
	sreg := func(name string) string {
		d := g.newR()
		g.emit("mov.u32 %s, %%%s;", d, name)
		return d
	}
	ctax, ntidx, tidx := sreg("ctaid.x"), sreg("ntid.x"), sreg("tid.x")
	idx := g.newR()
	g.emit("mad.lo.s32 %s, %s, %s, %s;", idx, ctax, ntidx, tidx)
	g.i32 = append(g.i32, rn, rc, ctax, ntidx, tidx)
	var stride string
	if gy > 1 || by > 1 {
		ctay, ntidy, tidy, nctax := sreg("ctaid.y"), sreg("ntid.y"), sreg("tid.y"), sreg("nctaid.x")
		row, width, col := g.newR(), g.newR(), idx
		g.emit("mad.lo.s32 %s, %s, %s, %s;", row, ctay, ntidy, tidy)
		g.emit("mul.lo.s32 %s, %s, %s;", width, nctax, ntidx)
		idx = g.newR()
		g.emit("mad.lo.s32 %s, %s, %s, %s;", idx, row, width, col)
		g.i32 = append(g.i32, ctay, tidy, row)
		if loop {
			nctay := sreg("nctaid.y")
			stride = g.newR()
			g.emit("mul.lo.s32 %s, %s, %s;", stride, width, ntidy)
			g.emit("mul.lo.s32 %s, %s, %s;", stride, stride, nctay)
		}
	} else if loop {
		nctax := sreg("nctaid.x")
		stride = g.newR()
		g.emit("mul.lo.s32 %s, %s, %s;", stride, ntidx, nctax)
	}
	g.f32 = append(g.f32, fs)
	g.emit("setp.ge.u32 %%p1, %s, %s;", idx, rn)
	g.emit("@%%p1 bra DONE;")
	if loop {
		g.b.WriteString("LOOP:\n")
	}
	g.i32 = append(g.i32, idx)
	id64 := g.newRD()
	g.emit("cvt.u64.u32 %s, %s;", id64, idx)
	g.i64 = append(g.i64, id64, base["in0"])

	// the highest element index k*idx+c each buffer is accessed at, in
	// elements of 8 bytes (the widest), to size the buffers
	maxK := map[string]int{"in0": 1, "in1": 1, "out0": 1, "out1": 1}
	// addr returns an address in buffer p for an access of w bytes: at
	// the index mostly, at index*k+c now and then (c < 0: out of bounds
	// for the first threads), for a load sometimes at any value (out of
	// bounds but for small ones, or masked to 0..1023), rarely misaligned.
	// A store's element index is an injective function of the index, so
	// no two threads store to the same bytes (the order of racing stores
	// is no part of the comparison).
	addr := func(p string, w int, store bool) string {
		i := idx
		switch x := r.IntN(40); {
		case x < 26:
		case x < 38 || store:
			kk := 1 + r.IntN(3)
			c := r.IntN(4)
			if r.IntN(16) == 0 {
				c = -1 - r.IntN(2)
			}
			maxK[p] = max(maxK[p], kk)
			i = g.newR()
			g.emit("mad.lo.s32 %s, %s, %d, %d;", i, idx, kk, c)
		default:
			i = g.newR()
			if r.IntN(2) == 0 {
				g.emit("and.b32 %s, %s, %d;", i, g.recent(g.i32), 1023)
			} else {
				g.emit("mov.b32 %s, %s;", i, g.recent(g.i32))
			}
		}
		o, a := g.newRD(), g.newRD()
		g.emit("%s %s, %s, %d;", bdPick(r, []string{"mul.wide.u32", "mul.wide.u32", "mul.wide.s32"}), o, i, w)
		g.emit("add.s64 %s, %s, %s;", a, base[p], o)
		off := 0
		if r.IntN(10) == 0 {
			off = w * bdPick(r, []int{-1, 1, 2, 3})
		}
		if r.IntN(80) == 0 && w > 1 {
			off += 1 + r.IntN(w-1) // misaligned
		}
		if off != 0 {
			return fmt.Sprintf("[%s+%d]", a, off)
		}
		return "[" + a + "]"
	}
	load := func() {
		p := bdPick(r, []string{"in0", "in1"})
		switch x := r.IntN(10); {
		case x < 5:
			t := bdPick(r, []string{"u32", "s32", "b32", "u8", "s8", "u16", "s16", "nc.u32"})
			w := map[string]int{"u32": 4, "s32": 4, "b32": 4, "u8": 1, "s8": 1, "u16": 2, "s16": 2, "nc.u32": 4}[t]
			d := g.newR()
			g.emit("ld.global.%s %s, %s;", t, d, addr(p, w, false))
			g.i32 = append(g.i32, d)
		case x < 8:
			d := g.newF()
			g.emit("ld.global.%s %s, %s;", bdPick(r, []string{"f32", "nc.f32"}), d, addr(p, 4, false))
			g.f32 = append(g.f32, d)
		default:
			d := g.newRD()
			g.emit("ld.global.u64 %s, %s;", d, addr(p, 8, false))
			g.i64 = append(g.i64, d)
		}
	}
	// in place (a[i] = f(a[i])): out0 is loaded at the index and stored
	// at the same address, with the same width, by the same thread
	var inplace, inplaceType string
	store := func(p string) {
		if p == "out0" && inplace != "" {
			v := g.recent(g.i32)
			if inplaceType == "f32" {
				v = g.recent(g.f32)
			}
			g.emit("st.global.%s %s, %s;", inplaceType, inplace, v)
			return
		}
		switch x := r.IntN(10); {
		case x < 5:
			t := bdPick(r, []string{"u32", "b32", "u8", "u16", "s32"})
			w := map[string]int{"u32": 4, "b32": 4, "s32": 4, "u8": 1, "u16": 2}[t]
			g.emit("st.global.%s %s, %s;", t, addr(p, w, true), g.recent(g.i32))
		case x < 8:
			g.emit("st.global.f32 %s, %s;", addr(p, 4, true), g.recent(g.f32))
		default:
			g.emit("st.global.u64 %s, %s;", addr(p, 8, true), g.recent(g.i64))
		}
	}

	nloads, nstores := 1+r.IntN(3), 1+r.IntN(2)
	nops := 4 + r.IntN(20)
	if r.IntN(4) == 0 {
		inplaceType = bdPick(r, []string{"u32", "f32", "u16", "u8"})
		w := map[string]int{"u32": 4, "f32": 4, "u16": 2, "u8": 1}[inplaceType]
		o, a := g.newRD(), g.newRD()
		g.emit("mul.wide.u32 %s, %s, %d;", o, idx, w)
		g.emit("add.s64 %s, %s, %s;", a, base["out0"], o)
		inplace = "[" + a + "]"
		if inplaceType == "f32" {
			d := g.newF()
			g.emit("ld.global.f32 %s, %s;", d, inplace)
			g.f32 = append(g.f32, d)
		} else {
			d := g.newR()
			g.emit("ld.global.%s %s, %s;", inplaceType, d, inplace)
			g.i32 = append(g.i32, d)
		}
	}
	for range nloads {
		for range r.IntN(3) {
			g.alu()
		}
		load()
	}
	for range nops {
		g.alu()
	}
	store("out0")
	if nstores == 2 {
		for range 1 + r.IntN(4) {
			g.alu()
		}
		store("out1")
	}
	if loop {
		g.emit("add.s32 %s, %s, %s;", idx, idx, stride)
		g.emit("setp.lt.u32 %%p2, %s, %s;", idx, rn)
		g.emit("@%%p2 bra LOOP;")
	}
	g.b.WriteString("DONE:\n\tret;\n}\n")
	k.src = g.b.String()

	// buffers: room for index*k+c (c <= 3) at 8 bytes, and at least
	// 1024 elements for the masked random indices; now and then an input
	// is one element short, so that the last lanes read past it
	size := func(p string) int {
		s := max((maxK[p]*n+4)*8, 1024*8)
		if r.IntN(25) == 0 {
			s = max(1, n*4-4)
		}
		return s
	}
	k.bufs = []bdBuf{bdB(size("in0"), bdRand), bdB(size("in1"), bdRand), bdB(size("out0"), bdRand), bdB(size("out1"), bdRand)}
	c, sf := r.Uint32(), float32(r.IntN(2001)-1000)/64
	k.args = bdArgs(bdPtr(0), bdPtr(1), bdPtr(2), bdPtr(3), bdU(uint64(n)), bdU(uint64(c)), bdF(sf))
	k.desc = fmt.Sprintf("grid %v, block %v, buffers of %d, %d, %d, %d bytes, n %d, c %#x, s %v",
		k.grid, k.block, k.bufs[0].size, k.bufs[1].size, k.bufs[2].size, k.bufs[3].size, n, c, sf)
	return k
}

// TestBatchDiffRandom: random kernels of the batch executor's subset, each
// launched with batchEnabled false and true, on 1 worker.
func TestBatchDiffRandom(t *testing.T) {
	count := 300
	if testing.Short() {
		count = 60
	}
	r := rand.New(rand.NewPCG(2024, 7))
	faults, loops := 0, 0
	for i := range count {
		k := bdGenKernel(r)
		in := bdFillBufs(k.bufs, uint64(i)+1)
		// (one worker: a thread's store at idx*k+c may land in a buffer
		// that other threads load from, and on two workers the outcome of
		// such a race depends on timing)
		diff, ref := bdDiffOn(t, k.src, "k", k.grid, k.block, in, k.args, true, []int{1})
		if diff != "" {
			t.Fatalf("kernel %d (%s): %s\n%s", i, k.desc, diff, k.src)
		}
		if ref.err != nil {
			var f *Fault
			if !errors.As(ref.err, &f) {
				t.Fatalf("kernel %d: %v\n%s", i, ref.err, k.src)
			}
			faults++
		}
		if strings.Contains(k.src, "LOOP:") {
			loops++
		}
	}
	t.Logf("%d kernels: %d fault, %d grid-stride loops", count, faults, loops)
	if faults == 0 || faults > count/2 {
		t.Errorf("%d of %d kernels fault: the generator's mix is off", faults, count)
	}
}
