//go:build !amd64 || purego

package exec

// Without the assembly, prefetching is left to the CPU.
func prefetchLines(p uintptr, n uintptr)  {}
func prefetchLinesW(p uintptr, n uintptr) {}

const prefetchEnabled = false
