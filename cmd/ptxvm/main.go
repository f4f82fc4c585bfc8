// Command ptxvm is the command-line interface of ptxvm, a PTX virtual machine.
//
// Usage:
//
//	ptxvm <command> [flags] [arguments]
//
// The commands are:
//
//	check    parse PTX files and report every syntax error
//	fmt      print PTX files in canonical format, or rewrite them
//	run      run a kernel from a case file or a PTX file, and write its buffers
//	test     run case files and check their results
//	bench    time the benchmark suite against native builds of the same kernels
//	litmus   decide which outcomes of PTX litmus tests the memory model allows
//	version  print the ptxvm version
//	help     print help for ptxvm or one of its commands
//
// Exit status: 0 on success, 1 when a file has errors (or cannot be read or
// written), 2 on a usage error (unknown command or flag, missing arguments).
//
// Run "ptxvm help <command>" for the flags of a command.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// Exit codes shared by every command.
const (
	exitOK     = 0 // success
	exitErrors = 1 // the input has errors, or a file could not be read or written
	exitUsage  = 2 // the command line is wrong
)

// A command is one `ptxvm <name>` subcommand. run receives the arguments
// after the command name and returns the exit code; it never calls os.Exit,
// so tests run commands in-process.
type command struct {
	name    string
	summary string // one line for the command list
	usage   string // synopsis after "usage: ptxvm "
	doc     string // what the command does, printed by "ptxvm help <name>"
	// flags registers the command's flags on fs (into a throwaway config when
	// called for help output); nil for a command without flags.
	flags func(fs *flag.FlagSet)
	run   func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands lists the subcommands in the order "ptxvm help" shows them.
var commands []*command

// init links the commands to their functions here rather than in their
// declarations, because the functions refer back to the commands (for help
// text), which Go's package initialisation would reject as a cycle.
func init() {
	checkCommand.run = runCheck
	fmtCommand.run = runFmt
	runCommand.run = runRun
	testCommand.run = runTest
	benchCommand.run = runBench
	litmusCommand.run = runLitmus
	versionCommand.run = runVersion
	helpCommand.run = runHelp
	commands = []*command{checkCommand, fmtCommand, runCommand, testCommand, benchCommand, litmusCommand, versionCommand, helpCommand}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches the command line args (without the program name).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		printUsage(stdout)
		return exitOK
	case "-version", "--version":
		return runVersion(nil, stdin, stdout, stderr)
	}
	cmd := lookup(args[0])
	if cmd == nil {
		fmt.Fprintf(stderr, "ptxvm: unknown command %q\n\n", args[0])
		printUsage(stderr)
		return exitUsage
	}
	return cmd.run(args[1:], stdin, stdout, stderr)
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `ptxvm is a PTX virtual machine: it checks and formats PTX source, and runs
kernels on the CPU (textures, surfaces, tensor cores and bulk/tensor async
copies are not there yet).

Usage:

	ptxvm <command> [flags] [arguments]

The commands are:

`)
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-8s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
A FILE argument of "-" reads standard input; a directory stands for every
*.ptx file below it. Exit status: 0 success, 1 errors in the input, 2 usage.

Use "ptxvm help <command>" for more information about a command.
`)
}

// printCommandHelp writes the synopsis, description and flags of c.
func printCommandHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "usage: ptxvm %s\n\n%s", c.usage, c.doc)
	if c.flags == nil {
		return
	}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.flags(fs)
	fmt.Fprint(w, "\nFlags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// parseFlags parses the flags of c from args. Flags come before the file
// arguments, as with the go command. It returns the remaining arguments, or
// ok == false and the exit code to return: 0 after -h (help on stdout), 2
// after a usage error (message and help on stderr).
func parseFlags(c *command, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (rest []string, code int, ok bool) {
	fs.SetOutput(io.Discard) // errors are printed below, with the help
	if err := fs.Parse(splitJoinedFlags(args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printCommandHelp(stdout, c)
			return nil, exitOK, false
		}
		fmt.Fprintf(stderr, "ptxvm %s: %v\n", c.name, err)
		printCommandHelp(stderr, c)
		return nil, exitUsage, false
	}
	return fs.Args(), exitOK, true
}

// usageError reports a wrong command line for c and returns exitUsage.
func usageError(c *command, stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "ptxvm %s: %s\n", c.name, fmt.Sprintf(format, args...))
	fmt.Fprintf(stderr, "usage: ptxvm %s\nRun 'ptxvm help %s' for details.\n", c.usage, c.name)
	return exitUsage
}

// splitJoinedFlags rewrites the C-compiler spellings -Idir and -DNAME=VALUE
// into "-I dir" and "-D NAME=VALUE", which the flag package understands.
// It stops at the first argument that is not a flag, and at "--".
func splitJoinedFlags(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" || !strings.HasPrefix(a, "-") {
			return append(out, args[i:]...)
		}
		name := strings.TrimLeft(a, "-")
		switch {
		case name == "I" || name == "D":
			// The value is the next argument, whatever it looks like.
			out = append(out, a)
			if i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
		case len(name) > 1 && (name[0] == 'I' || name[0] == 'D') && name[1] != '=':
			out = append(out, "-"+name[:1], name[1:])
		default:
			out = append(out, a)
		}
	}
	return out
}
