//go:build amd64 && !purego

package exec

// The AVX2 forms of a batch's contiguous loads and stores (batch_amd64.s):
// n rows stride bytes apart (a batch's blocks; n = 1 for one warp's row,
// as loadRun and storeRun use them when simdEnabled) and n*32 consecutive
// values in memory (n > 0), prefetching the lines pf bytes after those
// they access (prefetches never fault).

//go:noescape
func batchLoadZ32N(row *lanes, stride uintptr, src *byte, n int, pf uintptr)

//go:noescape
func batchLoadS32N(row *lanes, stride uintptr, src *byte, n int, pf uintptr)

//go:noescape
func batchStore32N(dst *byte, row *lanes, stride uintptr, n int, pf uintptr)

//go:noescape
func batchStoreNT32N(dst *byte, row *lanes, stride uintptr, n int)

//go:noescape
func batchStoreNT64N(dst *byte, row *lanes, stride uintptr, n int)

// batchSFence orders the non-temporal stores before it (a segment's,
// whose bodies do not fence) before the stores and loads after it.
func batchSFence()

//go:noescape
func batchCopy64N(row *lanes, stride uintptr, src *byte, n int, pf uintptr)

//go:noescape
func batchStore64N(dst *byte, row *lanes, stride uintptr, n int, pf uintptr)

// The same for n slots from dst/src on (n a positive multiple of 4).

//go:noescape
func batchLoadZ32s(dst *uint64, src *byte, n int)

//go:noescape
func batchStore32s(dst *byte, src *uint64, n int)

// batchIota sets row[i] = v + i*step.
//
//go:noescape
func batchIota(row *lanes, v, step uint64)

// The v4 forms of the row loops: 32 lanes' 16-byte vectors of four
// 32-bit values to and from four rows per block.

//go:noescape
func batchLoadV4Z32N(r0, r1, r2, r3 *lanes, stride uintptr, src *byte, n int, pf uintptr)

//go:noescape
func batchStoreV4x32N(dst *byte, r0, r1, r2, r3 *lanes, stride uintptr, n int, pf uintptr)

// batchChunks32 sets row by chunks of eight lanes: kinds[c] 0 gathers
// each lane's uint32 at base+offs[i] (zero-extended), 1 loads eight
// consecutive values, 2 loads one for all eight.
//
//go:noescape
func batchChunks32(row *lanes, base *byte, offs *uint32, kinds *uint8)

// batchChunks32N is batchChunks32 for ctas CTAs of wpc warps: warp w of
// CTA c sets the row at row + (c*wpc+w)*rowStride bytes from base +
// c*baseStride, with offs[32w:] and kinds[4w:].
//
//go:noescape
func batchChunks32N(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, kinds *uint8, wpc, ctas int)

// batchChunks32NK is batchChunks32N for a plan whose chunks are all of
// one kind, without a branch on each: eight consecutive values each
// (bcast false), or one value for all eight (bcast true); pf unused.
//
//go:noescape
func batchChunks32NK(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, bcast bool, wpc, ctas int, pf uintptr)

// batchChunks32NKPF is batchChunks32NK whose chunks of eight consecutive
// values prefetch the line pf bytes on (the next batch's: global memory;
// shared memory's chunks, a tile's, need none).
//
//go:noescape
func batchChunks32NKPF(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, bcast bool, wpc, ctas int, pf uintptr)

// batchChunks64NK is batchChunks32NK for 8-byte values: eight
// consecutive uint64s a chunk, or one for all eight.
//
//go:noescape
func batchChunks64NK(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, bcast bool, wpc, ctas int, pf uintptr)

// batchChunks64NKPF is batchChunks64NK prefetching as batchChunks32NKPF.
//
//go:noescape
func batchChunks64NKPF(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, bcast bool, wpc, ctas int, pf uintptr)

// batchStoreChunks32NK stores, for ctas CTAs of wpc warps, each warp's
// row (warp w of CTA c: row + (c*wpc+w)*rowStride bytes) by chunks of
// eight lanes, each chunk's low halves as eight consecutive uint32 values
// at dst + c*dstStride + offs[32w+8k] (batchChunks32NK's plan, every chunk
// consecutive), in lane order.
//
//go:noescape
func batchStoreChunks32NK(dst *byte, dstStride uintptr, row *lanes, rowStride uintptr, offs *uint32, wpc, ctas int)

// batchStoreChunks64NK is batchStoreChunks32NK for 8-byte values (each
// chunk's eight slots whole).
//
//go:noescape
func batchStoreChunks64NK(dst *byte, dstStride uintptr, row *lanes, rowStride uintptr, offs *uint32, wpc, ctas int)
