//go:build !amd64 || purego

package exec

// Without F16C loops (half_amd64.go) half.go's Go loops run.

func halfVecKind(op string, n int) uint8       { return 0 }
func halfVecRun(kind uint8, d, a, b *lanes)    { panic("exec: halfVecRun without F16C") }
func halfVecFma(n int) func(d, a, b, c *lanes) { return nil }
func halfVecCvt() func(d, a *lanes)            { return nil }
func halfVecWiden() func(d, a *lanes)          { return nil }
