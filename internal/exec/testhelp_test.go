package exec

// Helpers shared by the package's tests.

import (
	"context"
	"fmt"
	"testing"

	"github.com/ptxvm/ptxvm/internal/check"
	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/ptx"
)

// parseModule parses and checks PTX source, ready for Load (load does
// both and fails the test on an error; bdRun, which reports errors as
// values, loads the module itself).
func parseModule(src string) (*ir.Module, error) {
	m, err := ptx.Parse("t.ptx", []byte(src), nil)
	if err != nil {
		return nil, err
	}
	mod, diags := check.Build(m, check.Options{})
	if mod == nil {
		return nil, fmt.Errorf("check: %v", diags)
	}
	return mod, nil
}

// launchK launches kernel k of p on one worker, grid CTAs of block
// threads (along x), with args as its parameters (params), and fails the
// test on an error.
func launchK(t *testing.T, p *Program, grid, block int, args ...uint64) {
	t.Helper()
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{grid, 1, 1}, Block: [3]int{block, 1, 1},
		Params: params(p.Kernels["k"], args...), Workers: 1}); err != nil {
		t.Fatal(err)
	}
}
