// Package check is the semantic checker: it validates a parsed PTX module
// against the rules of the PTX ISA manual and the instruction table of
// internal/isa, and reports positioned diagnostics in ptxas's words.
//
// What it checks today: the module header (.version, .target,
// .address_size), every instruction against its table forms (opcode,
// modifiers, operand count), feature gating by PTX version and target for
// instructions, special registers and directives, and symbols (undeclared
// names, undefined labels, redeclarations). Operand types (9.4) and the typed
// IR output come next.
package check

import (
	"fmt"

	"github.com/ptxvm/ptxvm/internal/isa"
	"github.com/ptxvm/ptxvm/ptx"
)

// Options configures Check.
type Options struct {
	// Arch checks the module for this device, as ptxas --gpu-name does
	// ("sm_90a"); empty means the module's own .target.
	Arch string
}

// Check validates m and returns its diagnostics, errors and warnings, in
// source order.
func Check(m *ptx.Module, opts Options) ptx.DiagnosticList {
	c := &checker{mod: m, opts: opts}
	c.run()
	return c.diags
}

// A matchedInst is an instruction and the form it was accepted in.
type matchedInst struct {
	in *ptx.Instruction
	m  match
	// specs: its operands' specs (the builder takes their types)
	specs *choiceSpecs
	// namesFrom, namesTo: the names it uses, names.used[namesFrom:namesTo]
	namesFrom, namesTo int32
}

// run performs every check, in order, and sorts the diagnostics.
func (c *checker) run() {
	c.header()
	c.symbols()
	c.declarations()
	c.calls()
	c.diags.Sort()
}

type checker struct {
	mod     *ptx.Module
	opts    Options
	diags   ptx.DiagnosticList
	version isa.Version // the module's .version
	target  isa.Target  // the architecture features are checked against
	hasTgt  bool
	// matched records the accepted form of each instruction, in the
	// order checked, for Build (builder.matchOf); nil when only checking
	matched []matchedInst
	// forms caches formsFor per opcode and modifier list
	forms map[string][]formMatch
	// matchBuf: checkInstruction's candidates, a buffer reused from one
	// instruction to the next
	matchBuf []match
	// keyBuf: checkInstruction's combination key (formsFor)
	keyBuf []byte
	// names: the symbols of the names the instruction at hand uses
	// (and, for Build, those of the instructions accepted before it)
	names nameMemo
}

func (c *checker) errorf(pos ptx.Pos, format string, args ...any) {
	c.diags = append(c.diags, &ptx.Diagnostic{Pos: pos, Severity: ptx.SeverityError, Msg: fmt.Sprintf(format, args...)})
}

func (c *checker) warnf(pos ptx.Pos, format string, args ...any) {
	c.diags = append(c.diags, &ptx.Diagnostic{Pos: pos, Severity: ptx.SeverityWarning, Msg: fmt.Sprintf(format, args...)})
}

// versionString formats v as the manual writes it.
func versionString(v isa.Version) string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }
