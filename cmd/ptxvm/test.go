package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ptxvm/ptxvm/internal/casefile"
	"github.com/ptxvm/ptxvm/internal/caserun"
)

var testCommand = &command{
	name:    "test",
	summary: "run case files and check their results",
	usage:   "test [-v] [-workers N] [-schedule-seed N] [-timeout D] CASE.json|DIR...",
	doc: `Test runs each case file (JSON, format ptxvm-case/1: see the README) on
each of its PTX modules and compares the buffers with the expected contents
(or, for a case with expect_error, the launch error with the expected one).
A DIR stands for every *.json file below it, in lexical order.

It prints one line per case and module, the module path relative to the
case file's directory ("ptx_text" for an inline module):

	PASS name [module]
	FAIL name [module]: buffer y[12]: got 0x3f800000 want 0x3f800001

and last, alone on a line, "N passed, M failed". A failure's detail is the
first few differing elements, the fault (out of bounds, trap, ...), or why
the module could not be loaded. A case file that cannot be read or is not
valid counts as one failure, "FAIL FILE: invalid case file" (or "cannot
read"), and its errors are printed on standard error.

Device printf output is discarded unless -v is given; it then goes to
standard output before the case's result line.

Exit status: 0 if every case passed, 1 if any failed, 2 if a case file is
malformed (not valid JSON or not a valid case) or on a usage error.
`,
	flags: func(fs *flag.FlagSet) { new(testConfig).register(fs) },
}

type testConfig struct {
	verbose bool
	workers int
	seed    uint64
	timeout time.Duration
}

func (c *testConfig) register(fs *flag.FlagSet) {
	fs.BoolVar(&c.verbose, "v", false, "print device printf output (on standard output, before each result line)")
	fs.IntVar(&c.workers, "workers", 0, "goroutines running CTAs of a launch (0: GOMAXPROCS; 1: deterministic order)")
	fs.Uint64Var(&c.seed, "schedule-seed", 0, "perturb the order of warps and divergent lanes with seed `N` (0: the deterministic default)")
	fs.DurationVar(&c.timeout, "timeout", 0, "fail a launch that runs longer than `D` (e.g. 10s; 0: no limit)")
}

func runTest(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var cfg testConfig
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	cfg.register(fs)
	args, code, ok := parseFlags(testCommand, fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(args) == 0 {
		return usageError(testCommand, stderr, "no case files given")
	}
	if cfg.workers < 0 {
		return usageError(testCommand, stderr, "-workers %d: must not be negative", cfg.workers)
	}
	files, walkErrs := expandCaseFiles(args)
	for _, err := range walkErrs {
		fmt.Fprintf(stderr, "ptxvm test: %v\n", err)
	}
	if len(files) == 0 {
		if len(walkErrs) > 0 {
			return exitErrors
		}
		return usageError(testCommand, stderr, "no *.json case files in %s", strings.Join(args, " "))
	}

	passed, failed := 0, 0
	malformed := false
	opts := caserun.Options{Workers: cfg.workers, ScheduleSeed: cfg.seed}
	if cfg.verbose {
		opts.Printf = stdout
	}
	for _, path := range files {
		c, err := casefile.Load(path)
		if err != nil {
			failed++
			what := "invalid case file"
			var pe *os.PathError
			if errors.As(err, &pe) {
				what = "cannot read"
			} else {
				malformed = true
			}
			fmt.Fprintf(stdout, "FAIL %s: %s\n", path, what)
			fmt.Fprintln(stderr, err)
			continue
		}
		for _, r := range runCase(c, cfg.timeout, opts) {
			mod := moduleName(path, r.Module)
			if r.Pass {
				passed++
				fmt.Fprintf(stdout, "PASS %s [%s]\n", r.Case, mod)
			} else {
				failed++
				fmt.Fprintf(stdout, "FAIL %s [%s]: %s\n", r.Case, mod, oneLine(r.Detail))
			}
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	switch {
	case malformed:
		return exitUsage
	case failed > 0 || len(walkErrs) > 0:
		return exitErrors
	}
	return exitOK
}

// runCase runs c with an optional time limit per case.
func runCase(c *casefile.Case, timeout time.Duration, opts caserun.Options) []caserun.Result {
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return caserun.Run(ctx, c, opts)
}

// expandCaseFiles turns the arguments of test into case files: a directory
// stands for every *.json file below it, in lexical order; other arguments
// are kept as given, so that a missing file is reported when it is loaded.
func expandCaseFiles(args []string) (files []string, errs []error) {
	for _, arg := range args {
		info, err := os.Stat(arg)
		if err != nil || !info.IsDir() {
			files = append(files, arg)
			continue
		}
		var found []string
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".json") {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, errs
}

// moduleName is how test and run name a case's module: relative to the case
// file's directory, as the case file writes it (the quick form of run has
// no case file: the PTX file as given).
func moduleName(caseFile, module string) string {
	if module == "ptx_text" || caseFile == "" {
		return module
	}
	rel, err := filepath.Rel(filepath.Dir(caseFile), module)
	if err != nil {
		return module
	}
	return filepath.ToSlash(rel)
}

// oneLine keeps a result line on one line: a multi-line detail (a
// deadlock's list of blocked warps) is joined with " | ".
func oneLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return strings.ReplaceAll(s, "\n", " | ")
}
