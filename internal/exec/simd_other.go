//go:build !amd64 || purego

package exec

import "unsafe"

// Without the AVX2 loops (another architecture, or the purego build tag)
// the Go loops run everywhere: see simd_amd64.go. (A variable, as there,
// so that tests can set it.)

var simdEnabled = false

func simdBinary(string) (vecBin, bool)            { return vecBin{}, false }
func simdTernary(string) func(d, a, b, c *lanes)  { return nil }
func simdCompare(string) func(a, b *lanes) uint32 { return nil }
func simdUnary(string) func(d, a *lanes)          { return nil }

func simdLoadZ8(row, regs *lanes, data *byte, adj, limit uint64) bool  { return false }
func simdLoadS8(row, regs *lanes, data *byte, adj, limit uint64) bool  { return false }
func simdLoadZ16(row, regs *lanes, data *byte, adj, limit uint64) bool { return false }
func simdLoadS16(row, regs *lanes, data *byte, adj, limit uint64) bool { return false }
func simdLoadZ32(row, regs *lanes, data *byte, adj, limit uint64) bool { return false }
func simdLoadS32(row, regs *lanes, data *byte, adj, limit uint64) bool { return false }
func simdLoad64(row, regs *lanes, data *byte, adj, limit uint64) bool  { return false }
func simdStore32(row, regs *lanes, data *byte, adj, limit uint64) bool { return false }
func simdStore64(row, regs *lanes, data *byte, adj, limit uint64) bool { return false }

// simdSelp is only called while simdEnabled, never true here.
func simdSelp(d, a, b *lanes, sel, mask uint32) { panic("exec: simdSelp without AVX2") }

func isSIMDLoop(any) bool { return false }

// simdAllSame is only called while simdEnabled, never true here.
func simdAllSame(row *lanes) bool { panic("exec: simdAllSame without AVX2") }

// simdAllBelow is only called while simdEnabled, never true here.
func simdAllBelow(row *lanes, limit uint64) bool { panic("exec: simdAllBelow without AVX2") }

// The scheduler's scans: only called while simdEnabled, never true here.
func simdWaiting(pc, rtop *[warpSize]int32) uint32 { panic("exec: simdWaiting without AVX2") }
func simdLowestPC(pc *[warpSize]int32, lanes uint32) (uint32, int32) {
	panic("exec: simdLowestPC without AVX2")
}
func simdGroupLimit(pc, rtop *[warpSize]int32, others, mask uint32, at, limit int32) int32 {
	panic("exec: simdGroupLimit without AVX2")
}

func simdBodyOf(any) (uint64, bool) { return 0, false }

// simdLoopTrace is only called for loop traces, which need simdMemBody.
func simdLoopTrace(rows unsafe.Pointer, base *traceOp, start, budget int, ctx *traceCtx) (at, left int) {
	panic("exec: simdLoopTrace without AVX2")
}

// simdTrace is only called for traces, which need simdBodyOf.
func simdTrace(rows unsafe.Pointer, ops *traceOp, n int, ctx *traceCtx) int {
	panic("exec: simdTrace without AVX2")
}

// simdSegmentTrace is only called for segments, which need simdMemBody.
func simdSegmentTrace(rows unsafe.Pointer, ops *traceOp, n int, adv *[3]uint64, nadv int, warps int) {
	panic("exec: simdSegmentTrace without AVX2")
}

// simdMemBody: no memory bodies either.
func simdMemBody(string) (uint64, bool) { return 0, false }

func simdLoadV2Z32(rows *[4]*lanes, regs *lanes, data *byte, adj, limit uint64) bool  { return false }
func simdLoadV2S32(rows *[4]*lanes, regs *lanes, data *byte, adj, limit uint64) bool  { return false }
func simdLoadV4Z32(rows *[4]*lanes, regs *lanes, data *byte, adj, limit uint64) bool  { return false }
func simdLoadV4S32(rows *[4]*lanes, regs *lanes, data *byte, adj, limit uint64) bool  { return false }
func simdLoadV2x64(rows *[4]*lanes, regs *lanes, data *byte, adj, limit uint64) bool  { return false }
func simdStoreV2x32(rows *[4]*lanes, regs *lanes, data *byte, adj, limit uint64) bool { return false }
func simdStoreV4x32(rows *[4]*lanes, regs *lanes, data *byte, adj, limit uint64) bool { return false }
func simdStoreV2x64(rows *[4]*lanes, regs *lanes, data *byte, adj, limit uint64) bool { return false }

// simdFill is only called while simdEnabled, never true here.
func simdFill(row *lanes, v uint64) { panic("exec: simdFill without AVX2") }
