//go:build amd64 && !purego

package exec

// prefetchLines asks the CPU to bring the cache lines of [p, p+n) closer
// (PREFETCHT0); n > 0. It has no effect a program could observe.
func prefetchLines(p uintptr, n uintptr)

const prefetchEnabled = true

// prefetchLinesW is prefetchLines for lines about to be written
// (PREFETCHW).
func prefetchLinesW(p uintptr, n uintptr)
