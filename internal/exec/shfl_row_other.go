//go:build !amd64 || purego

package exec

// Without AVX2 shflRow takes its Go loop: simdEnabled is false.

func shflRow32(d, a *lanes, t *shflRows) { panic("unreachable") }
