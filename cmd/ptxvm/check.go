package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ptxvm/ptxvm/internal/check"
	"github.com/ptxvm/ptxvm/ptx"
)

var checkCommand = &command{
	name:    "check",
	summary: "check PTX files as ptxas would and report every error",
	usage:   "check [-v] [-arch sm_XX] [-syntax] [-I dir] [-D name[=value]] FILE...",
	doc: `Check preprocesses, parses and validates each FILE and prints every error
and warning it finds, one per line, as

	file:line:col: error: message
	file:line:col: warning: message

It reports syntax errors, then checks the module against the PTX ISA manual:
the module header (.version, .target, .address_size), every instruction
against the instruction table (opcode, modifiers, operand count), whether
the module's .version and .target allow each instruction, modifier, special
register and directive it uses (in ptxas's words: "Feature 'redux.sync'
requires PTX ISA .version 7.0 or later"), deprecated and removed forms
(warnings and errors), and names: undeclared registers and variables,
undefined labels, redeclarations. Operand types are not checked yet.

-arch checks for a given device, as ptxas --gpu-name does: features are
gated against that architecture, and a module whose .target needs a newer
one is an error. -syntax stops after parsing.

The parser recovers after an error and goes on, so one run reports as many
errors as it can, for all files. Nothing is printed for a valid file (use -v).

A FILE of "-" reads standard input (named <stdin> in messages); a directory
stands for every *.ptx file below it. A file that cannot be read is reported
as "file: error: reason".

Exit status: 0 if every file is valid, 1 if any has errors or cannot be
read, 2 on a usage error.
`,
	flags: func(fs *flag.FlagSet) { new(checkConfig).register(fs) },
}

type checkConfig struct {
	pre        preprocessFlags
	verbose    bool
	arch       string
	syntaxOnly bool
}

func (c *checkConfig) register(fs *flag.FlagSet) {
	c.pre.register(fs)
	fs.BoolVar(&c.verbose, "v", false, "print a one-line summary of each valid file")
	fs.StringVar(&c.arch, "arch", "", "check for this architecture (sm_XX), as ptxas --gpu-name does")
	fs.BoolVar(&c.syntaxOnly, "syntax", false, "only parse: report syntax errors, skip the semantic checks")
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var cfg checkConfig
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	cfg.register(fs)
	args, code, ok := parseFlags(checkCommand, fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(args) == 0 {
		return usageError(checkCommand, stderr, "no files given (use - for standard input)")
	}

	files, walkErrs := expandFiles(args)
	failed := false
	for _, err := range walkErrs {
		report(stderr, "", err)
		failed = true
	}
	opts := cfg.pre.parseOptions()
	opts.DiscardComments = true
	for _, arg := range files {
		name := displayName(arg)
		src, err := readInput(arg, stdin)
		if err != nil {
			report(stderr, name, err)
			failed = true
			continue
		}
		m, err := ptx.Parse(name, src, opts)
		if err != nil && report(stderr, name, err) {
			failed = true
			continue
		}
		if !cfg.syntaxOnly {
			if diags := check.Check(m, check.Options{Arch: cfg.arch}); len(diags) > 0 && report(stderr, name, diags) {
				failed = true
				continue
			}
		}
		if cfg.verbose {
			fmt.Fprintf(stdout, "%s: ok (%s)\n", name, summarize(m))
		}
	}
	if failed {
		return exitErrors
	}
	return exitOK
}

// summarize describes m in a few words: "PTX 7.0, sm_70, 1 kernel, 2
// functions, 17 instructions".
func summarize(m *ptx.Module) string {
	var parts []string
	var kernels, funcs, insts int
	for _, it := range m.Items {
		switch it := it.(type) {
		case *ptx.Version:
			parts = append(parts, fmt.Sprintf("PTX %d.%d", it.Major, it.Minor))
		case *ptx.Target:
			parts = append(parts, strings.Join(it.Names, ","))
		case *ptx.Function:
			if it.Body == nil {
				continue // a declaration
			}
			if it.Kind == ".entry" {
				kernels++
			} else {
				funcs++
			}
			insts += countInstructions(it.Body)
		}
	}
	parts = append(parts,
		plural(kernels, "kernel"), plural(funcs, "function"), plural(insts, "instruction"))
	return strings.Join(parts, ", ")
}

func countInstructions(b *ptx.Block) int {
	n := 0
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ptx.Instruction:
			n++
		case *ptx.Block:
			n += countInstructions(s)
		}
	}
	return n
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
