//go:build amd64 && !purego

package exec

// shflRow32 is shflRow's AVX2 loop (shfl_row_amd64.s).
//
//go:noescape
func shflRow32(d, a *lanes, t *shflRows)
