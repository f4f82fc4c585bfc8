//go:build !amd64 || purego

package exec

// Without F16C loops (half_amd64.go) half.go's Go loops run.

func halfVecBinary(op string, n int) func(d, a, b *lanes)            { return nil }
func halfVecFma(n int) func(d, a, b, c *lanes)                       { return nil }
func halfVecCvt() (one func(d, a *lanes), pair func(d, a, b *lanes)) { return nil, nil }
