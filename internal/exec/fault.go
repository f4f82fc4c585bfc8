package exec

import (
	"fmt"

	"github.com/ptxvm/ptxvm/ptx"
)

// FaultKind classifies a runtime fault.
type FaultKind string

const (
	FaultOutOfBounds FaultKind = "out of bounds"
	FaultMisaligned  FaultKind = "misaligned"
	FaultTrap        FaultKind = "trap"
	FaultDeadlock    FaultKind = "deadlock"
	FaultCanceled    FaultKind = "canceled"
	FaultLimit       FaultKind = "launch limit"
	// FaultInternal: the engine itself failed (a Go panic in a worker, a
	// bug of ptxvm): the launch returns it, with the panic and its stack,
	// rather than end the process
	FaultInternal FaultKind = "internal error"
)

// Fault is a runtime error of a kernel: which thread, where, and what. It
// is the error Launch returns (use errors.As).
type Fault struct {
	Kind   FaultKind
	Kernel string
	CTA    [3]int
	Thread [3]int
	Pos    ptx.Pos // source position of the faulting instruction
	Inst   string  // the instruction, as opcode and modifiers
	Space  string  // memory faults: the state space
	Addr   uint64  // memory faults: the address
	Size   int     // memory faults: the access size
	Msg    string  // details (a deadlock's blocked warps, a trap's message)
	Seed   uint64  // the launch's ScheduleSeed (0: the default schedule)
}

func (f *Fault) Error() string {
	s := fmt.Sprintf("%s: kernel %s, CTA (%d,%d,%d), thread (%d,%d,%d)", f.Kind, f.Kernel,
		f.CTA[0], f.CTA[1], f.CTA[2], f.Thread[0], f.Thread[1], f.Thread[2])
	if f.Inst != "" {
		s += fmt.Sprintf(", %s at %s", f.Inst, f.Pos)
	}
	if f.Space != "" {
		s += fmt.Sprintf(": %s address 0x%x (%d bytes)", f.Space, f.Addr, f.Size)
	}
	if f.Msg != "" {
		s += ": " + f.Msg
	}
	if f.Seed != 0 {
		s += fmt.Sprintf(" (schedule seed %d)", f.Seed)
	}
	return s
}
