package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ptxvm/ptxvm/internal/litmus"
)

var litmusCommand = &command{
	name:    "litmus",
	summary: "decide which outcomes of PTX litmus tests the memory model allows",
	usage:   "litmus [-unroll N] [-explain] [-graph DIR] [-notime] [reading flags] FILE...",
	doc: `Litmus explores each PTX litmus test FILE exhaustively under the PTX memory
consistency model (chapter 8 of the PTX ISA manual): every path of every
thread, every reads-from choice, every Fence-SC order and every coherence
order, keeping the candidate executions that the axioms allow (Coherence,
Fence-SC, Atomicity, No Thin Air, SC per location, Causality). For each test
it prints, as herd does, the reachable final states (the registers and
locations the condition names), Ok or No (whether the quantified condition
holds), and

	Observation NAME Never|Always|Sometimes P N

where P and N count the allowed executions that satisfy and that do not
satisfy the condition's proposition.

Tests are in the herd format used for PTX ("PTX NAME", an init block, a
table of threads with positions such as "P0@cta 0,gpu 0", and exists,
~exists or forall); docs/litmus.md describes it and every reading of the
manual the tool chose. A directory stands for every *.litmus file below it;
"-" reads standard input.

-explain says, for an outcome the condition asks about that no allowed
execution reaches, which axiom rejects each candidate execution reaching it,
with the events in source lines. -graph DIR writes one Graphviz file per
reachable final state, with a witness execution (po, rf, co, sync edges).
-unroll bounds how many times each backward branch is taken on a path;
longer paths are cut and a warning says so.

Where the manual can be read two ways, the default is the reading its own
litmus examples support and a flag selects the other: -default-cta,
-sc-fence-patterns, -red-observation, -thin-air, -coherence, -final-value,
-alias-fence;
-bar-operands reads
two-operand barriers in the Dat3M suite's dialect (see docs/litmus.md).

Exit status: 0 if every test parsed and ran, 1 on a malformed test or an
error, 2 on a usage error.
`,
	flags: func(fs *flag.FlagSet) { new(litmusConfig).register(fs) },
}

type litmusConfig struct {
	unroll     int
	explain    bool
	graph      string
	defaultCTA string
	noTime     bool
	model      litmus.ModelOptions
	scPatterns bool
	redObs     bool
	thinAir    string
	barOps     string
	coherence  string
	finalValue string
	aliasFence string
}

func (c *litmusConfig) register(fs *flag.FlagSet) {
	fs.IntVar(&c.unroll, "unroll", litmus.DefaultUnroll, "take each backward branch at most `N` times on a path")
	fs.BoolVar(&c.explain, "explain", false, "explain why outcomes the condition asks about are forbidden")
	fs.StringVar(&c.graph, "graph", "", "write a Graphviz witness per reachable final state into `DIR`")
	fs.StringVar(&c.defaultCTA, "default-cta", "own", "placement of threads without one: `own` CTA each, or all in the same CTA")
	fs.BoolVar(&c.noTime, "notime", false, "omit the Time line (for reproducible output)")
	fs.BoolVar(&c.scPatterns, "sc-fence-patterns", true, "fence.sc counts as a release/acquire fence in 8.8's patterns (false: literal reading)")
	fs.BoolVar(&c.redObs, "red-observation", true, "a red can carry observation order through RMW chains (8.9.2; false: it cannot)")
	fs.StringVar(&c.thinAir, "thin-air", "deps", "No Thin Air (8.10.4): `deps` (rf plus syntactic dependencies acyclic) or off")
	fs.StringVar(&c.barOps, "bar-operands", "ptx", "two-operand bar.sync: `ptx` (barrier, thread count) or dat3m (instance, barrier)")
	fs.StringVar(&c.coherence, "coherence", "partial", "coherence order (8.9.6): `partial` (racy writes unrelated) or total per location")
	fs.StringVar(&c.aliasFence, "alias-fence", "alias", "fence ordering virtual aliases: `alias` (fence.proxy.alias, 8.9.5) or any proxy fence (8.6)")
	fs.StringVar(&c.finalValue, "final-value", "last", "final value of a location under partial coherence: `last` (a write coherence-after every other write, checked against the axioms) or maximal (any coherence-maximal write)")
}

func runLitmus(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var cfg litmusConfig
	fs := flag.NewFlagSet("litmus", flag.ContinueOnError)
	cfg.register(fs)
	args, code, ok := parseFlags(litmusCommand, fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(args) == 0 {
		return usageError(litmusCommand, stderr, "no files given (use - for standard input)")
	}
	if cfg.unroll < 1 {
		return usageError(litmusCommand, stderr, "-unroll must be at least 1")
	}
	var popts litmus.ParseOptions
	switch cfg.defaultCTA {
	case "own":
	case "same":
		popts.DefaultSameCTA = true
	default:
		return usageError(litmusCommand, stderr, "-default-cta must be own or same, not %q", cfg.defaultCTA)
	}
	cfg.model.SCFenceNoPatterns = !cfg.scPatterns
	cfg.model.RedNoObservation = !cfg.redObs
	switch cfg.thinAir {
	case "deps":
	case "off":
		cfg.model.NoThinAirOff = true
	default:
		return usageError(litmusCommand, stderr, "-thin-air must be deps or off, not %q", cfg.thinAir)
	}
	switch cfg.barOps {
	case "ptx":
	case "dat3m":
		cfg.model.BarDat3M = true
	default:
		return usageError(litmusCommand, stderr, "-bar-operands must be ptx or dat3m, not %q", cfg.barOps)
	}
	switch cfg.coherence {
	case "partial":
	case "total":
		cfg.model.CoTotal = true
	default:
		return usageError(litmusCommand, stderr, "-coherence must be partial or total, not %q", cfg.coherence)
	}
	switch cfg.aliasFence {
	case "alias":
	case "any":
		cfg.model.AnyAliasFence = true
	default:
		return usageError(litmusCommand, stderr, "-alias-fence must be alias or any, not %q", cfg.aliasFence)
	}
	switch cfg.finalValue {
	case "last":
	case "maximal":
		cfg.model.FinalAnyMaximal = true
	default:
		return usageError(litmusCommand, stderr, "-final-value must be last or maximal, not %q", cfg.finalValue)
	}
	files, errs := expandLitmusFiles(args)
	failed := false
	for _, err := range errs {
		fmt.Fprintf(stderr, "ptxvm litmus: %v\n", err)
		failed = true
	}
	first := true
	for _, f := range files {
		name := displayName(f)
		src, err := readInput(f, stdin)
		if err != nil {
			report(stderr, name, err)
			failed = true
			continue
		}
		t, err := litmus.ParseWith(name, string(src), popts)
		if err != nil {
			fmt.Fprintln(stderr, errorLine(err))
			failed = true
			continue
		}
		res, err := litmus.Run(t, litmus.Options{Unroll: cfg.unroll, Explain: cfg.explain, Witnesses: cfg.graph != "", Model: cfg.model})
		if err != nil {
			fmt.Fprintln(stderr, errorLine(err))
			failed = true
			continue
		}
		if !first {
			fmt.Fprintln(stdout)
		}
		first = false
		res.Write(stdout, !cfg.noTime)
		for _, e := range res.Explanations {
			fmt.Fprintln(stdout, e)
		}
		if cfg.graph != "" {
			if err := writeGraphs(cfg.graph, res); err != nil {
				fmt.Fprintf(stderr, "ptxvm litmus: %v\n", err)
				failed = true
			}
		}
	}
	if failed {
		return exitErrors
	}
	return exitOK
}

// errorLine formats a litmus error as "file:line:col: error: message".
func errorLine(err error) string {
	if e, ok := err.(*litmus.Error); ok {
		if e.Pos.Line == 0 {
			return fmt.Sprintf("%s: error: %s", e.File, e.Msg)
		}
		return fmt.Sprintf("%s:%d:%d: error: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
	}
	return "error: " + err.Error()
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.+-]+`)

// writeGraphs writes DIR/NAME-K.dot for the K-th reachable final state.
func writeGraphs(dir string, res *litmus.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	base := unsafeName.ReplaceAllString(res.Test.Name, "_")
	for k, s := range res.States {
		if s.Witness == nil {
			continue
		}
		line := res.StateLine(s)
		dot := s.Witness.DOT(res.Test.Name, line)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d.dot", base, k+1)), []byte(dot), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// expandLitmusFiles is expandFiles for *.litmus files.
func expandLitmusFiles(args []string) (files []string, errs []error) {
	for _, arg := range args {
		info, err := os.Stat(arg)
		if arg == "-" || err != nil || !info.IsDir() {
			files = append(files, arg)
			continue
		}
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".litmus") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	return files, errs
}
