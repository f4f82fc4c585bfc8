//go:build amd64 && !purego

package exec

// prefetchLines asks the CPU to bring the cache lines of [p, p+n) closer
// (PREFETCHT0); n > 0. It has no effect a program could observe.
func prefetchLines(p uintptr, n uintptr)

const prefetchEnabled = true

// prefetchLinesW is prefetchLines for lines about to be written: PREFETCHW
// where the CPU has it (CPUID 0x80000001 ECX bit 8; older CPUs may fault
// on the opcode), else PREFETCHT0.
func prefetchLinesW(p uintptr, n uintptr) {
	if hasPrefetchW {
		prefetchLinesWrite(p, n)
	} else {
		prefetchLines(p, n)
	}
}

func prefetchLinesWrite(p uintptr, n uintptr)

var hasPrefetchW = func() bool {
	if maxExt, _, _, _ := cpuid(0x80000000, 0); maxExt < 0x80000001 {
		return false
	}
	_, _, c, _ := cpuid(0x80000001, 0)
	return c&(1<<8) != 0
}()
