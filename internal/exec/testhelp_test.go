package exec

// Helpers shared by the package's tests.

import (
	"fmt"

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
