//go:build !amd64 || purego

package exec

// Without AVX2 (batch_amd64.go) loadRun and storeRun take their Go loops:
// simdEnabled is false.

func batchLoadZ32N(row *lanes, stride uintptr, src *byte, n int, pf uintptr) { panic("unreachable") }
func batchLoadS32N(row *lanes, stride uintptr, src *byte, n int, pf uintptr) { panic("unreachable") }
func batchStore32N(dst *byte, row *lanes, stride uintptr, n int, pf uintptr) { panic("unreachable") }
func batchCopy64N(row *lanes, stride uintptr, src *byte, n int, pf uintptr)  { panic("unreachable") }
func batchStoreNT32N(dst *byte, row *lanes, stride uintptr, n int)           { panic("unreachable") }
func batchStoreNT64N(dst *byte, row *lanes, stride uintptr, n int)           { panic("unreachable") }
func batchStore64N(dst *byte, row *lanes, stride uintptr, n int, pf uintptr) { panic("unreachable") }
func batchSFence()                                                           { panic("unreachable") }
func batchLoadZ32s(dst *uint64, src *byte, n int)                            { panic("unreachable") }
func batchStore32s(dst *byte, src *uint64, n int)                            { panic("unreachable") }
func batchIota(row *lanes, v, step uint64)                                   { panic("unreachable") }
func batchLoadV4Z32N(r0, r1, r2, r3 *lanes, stride uintptr, src *byte, n int, pf uintptr) {
	panic("unreachable")
}
func batchStoreV4x32N(dst *byte, r0, r1, r2, r3 *lanes, stride uintptr, n int, pf uintptr) {
	panic("unreachable")
}
func batchChunks32(row *lanes, base *byte, offs *uint32, kinds *uint8) { panic("unreachable") }
func batchChunks32N(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, kinds *uint8, wpc, ctas int) {
	panic("unreachable")
}

func batchChunks32NK(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, bcast bool, wpc, ctas int, pf uintptr) {
	panic("unreachable")
}

func batchChunks64NK(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, bcast bool, wpc, ctas int, pf uintptr) {
	panic("unreachable")
}

func batchStoreChunks32NK(dst *byte, dstStride uintptr, row *lanes, rowStride uintptr, offs *uint32, wpc, ctas int) {
	panic("unreachable")
}

func batchStoreChunks64NK(dst *byte, dstStride uintptr, row *lanes, rowStride uintptr, offs *uint32, wpc, ctas int) {
	panic("unreachable")
}

func batchChunks32NKPF(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, bcast bool, wpc, ctas int, pf uintptr) {
	panic("unreachable")
}

func batchChunks64NKPF(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, bcast bool, wpc, ctas int, pf uintptr) {
	panic("unreachable")
}
