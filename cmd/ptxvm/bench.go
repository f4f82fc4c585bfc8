package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ptxvm/ptxvm/internal/bench"
)

var benchCommand = &command{
	name:    "bench",
	summary: "time the benchmark suite against native builds of the same kernels",
	usage:   "bench [-suite DIR] [-runs N] [-workers N] [-scale N] [-native auto|tsv|off|only] [-filter RE] [-small] [-json] [-cpuprofile FILE] [-large FILE] [KERNEL...]",
	doc: `Bench runs the benchmark suite (testdata/bench, see docs/bench.md): CUDA-style
kernels compiled to PTX by clang, each also built natively for the host from
the same source. For each kernel (all, or those named, or those -filter
matches) it loads the module, runs a warm-up and -runs timed runs on fresh
buffers, checks the outputs against the native build's checksums (a wrong
answer fails the command), and prints one row:

	ms/launch    median wall time of a launch on -workers
	Gthr/s       thread-instructions per second per worker (lanes that
	             executed, as exec.LaunchStats counts them)
	Mwarp/s      warp-instructions per second per worker (millions)
	GB/s         global memory read + written per second (memory-bound
	             kernels: bytes per launch from the manifest)
	native ms    the native build's time per launch (one thread, clang++-22
	             -O2), timed in this run or, marked *, from native.tsv
	x native     ms/launch over native ms
	scale        throughput on -scale workers over -workers
	load us/KB   parse + check + load of the module per KB of PTX (median
	             of 5 loads and more up to 100 ms, after a warm-up load)
	RSS MiB      peak resident memory during the kernel (VmHWM, reset
	             before each kernel)

then the host's memcpy bandwidth, the load time of one large module, a
summary against the goals of issue 7 and, with -scale 2 on one worker,
the host's own copy (Go's) on 2 threads against 1: what the memory gives
two workers (a memory-bound kernel near it cannot scale further).

-native auto times the native builds in this run when clang++-22 is
installed (built once into the user cache directory) and otherwise reads
native.tsv; tsv always reads native.tsv; off leaves native figures out;
only prints the native timings and runs nothing in ptxvm.

Flags may come before or after the kernel names.

Timings on a shared machine are noisy: compare medians of several runs.
Exit status: 0 when every kernel ran and gave the right answer (whether or
not the goals are met), 1 on a wrong answer, a fault or a native build
failure, 2 on a usage error.
`,
	flags: func(fs *flag.FlagSet) { new(benchConfig).register(fs) },
}

type benchConfig struct {
	suite   string
	runs    int
	workers int
	scale   int
	native  string
	filter  string
	small   bool
	json    bool
	large   string
	profile string
}

func (c *benchConfig) register(fs *flag.FlagSet) {
	fs.StringVar(&c.suite, "suite", "testdata/bench", "the suite `DIR` (with suite.json, ptx/, src/, native.tsv)")
	fs.IntVar(&c.runs, "runs", 3, "timed runs per kernel after one warm-up (the median counts)")
	fs.IntVar(&c.workers, "workers", 1, "goroutines running CTAs for the main figures")
	fs.IntVar(&c.scale, "scale", 2, "also time on `N` workers for the scaling column (0: skip)")
	fs.StringVar(&c.native, "native", "auto", "native baseline: auto, tsv, off or only")
	fs.StringVar(&c.filter, "filter", "", "run only kernels whose names match `REGEXP`")
	fs.BoolVar(&c.small, "small", false, "run the small problem sizes (a quick check; no native figures)")
	fs.BoolVar(&c.json, "json", false, "print the results as one JSON object")
	fs.StringVar(&c.profile, "cpuprofile", "", "write a CPU profile of the runs to `FILE` (go tool pprof reads it)")
	fs.StringVar(&c.large, "large", "", "also time the load of this large PTX `FILE` (default: the suite's ../clang/ptx/large.sm_90a.ptx83.O3.ptx when present)")
}

func runBench(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var cfg benchConfig
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	cfg.register(fs)
	names, code, ok := parseFlags(benchCommand, fs, args, stdout, stderr)
	if !ok {
		return code
	}
	// flags may follow kernel names too (`bench copy -runs 5`), as run's
	// follow its file
	for i := 0; i < len(names); i++ {
		if strings.HasPrefix(names[i], "-") && names[i] != "-" {
			rest, code, ok := parseFlags(benchCommand, fs, names[i:], stdout, stderr)
			if !ok {
				return code
			}
			names = append(names[:i], rest...)
			i--
		}
	}
	var filter *regexp.Regexp
	switch cfg.native {
	case "auto", "tsv", "off", "only":
	default:
		return usageError(benchCommand, stderr, "-native %s: want auto, tsv, off or only", cfg.native)
	}
	switch {
	case cfg.runs < 1:
		return usageError(benchCommand, stderr, "-runs %d: must be at least 1", cfg.runs)
	case cfg.workers < 1:
		return usageError(benchCommand, stderr, "-workers %d: must be at least 1", cfg.workers)
	case cfg.scale < 0:
		return usageError(benchCommand, stderr, "-scale %d: must not be negative", cfg.scale)
	case cfg.small && cfg.native == "only":
		return usageError(benchCommand, stderr, "-native only times the full sizes; it does not go with -small")
	}
	if cfg.filter != "" {
		var err error
		if filter, err = regexp.Compile(cfg.filter); err != nil {
			return usageError(benchCommand, stderr, "-filter: %v", err)
		}
	}
	suite, err := bench.Load(cfg.suite)
	if err != nil {
		fmt.Fprintf(stderr, "ptxvm bench: %v\n", err)
		return exitErrors
	}
	selected, err := suite.Select(names, filter)
	if err != nil {
		return usageError(benchCommand, stderr, "%v", err)
	}
	if len(selected) == 0 {
		return usageError(benchCommand, stderr, "no kernel matches -filter %s", cfg.filter)
	}
	if cfg.profile != "" {
		f, err := os.Create(cfg.profile)
		if err != nil {
			fmt.Fprintf(stderr, "ptxvm bench: %v\n", err)
			return exitErrors
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "ptxvm bench: %v\n", err)
			return exitErrors
		}
		defer pprof.StopCPUProfile()
	}
	ctx := context.Background()
	var selectedNames []string
	for _, b := range selected {
		selectedNames = append(selectedNames, b.Name)
	}

	native, err := nativeBaseline(ctx, &cfg, suite, selectedNames, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "ptxvm bench: %v\n", err)
		return exitErrors
	}
	if cfg.native == "only" {
		printNative(stdout, native, selected, cfg.json)
		return exitOK
	}

	var results []*bench.Result
	var loads []bench.LoadResult
	if !cfg.json {
		fmt.Fprintf(stdout, rowFormat, "kernel", "class", "size", "ms/launch", "Gthr/s", "Mwarp/s", "GB/s", "native ms", "x native", "scale", "load us/KB", "RSS MiB")
	}
	failed := false
	for _, b := range selected {
		opts := bench.Options{Runs: cfg.runs, Workers: cfg.workers, Small: cfg.small}
		if cfg.scale != cfg.workers {
			opts.Scale = cfg.scale
		}
		r, err := bench.Measure(ctx, suite, b, opts)
		if err != nil {
			fmt.Fprintf(stderr, "FAIL %v\n", err)
			failed = true
			continue
		}
		if native != nil && !cfg.small {
			if ns, ok := native.PerLaunch[b.Name]; ok && native.Labels[b.Name] == r.Label {
				r.Native, r.NativeSource = ns, native.Source
			}
		}
		results = append(results, r)
		loads = append(loads, bench.LoadResult{Path: filepath.Join(cfg.suite, b.PTX), Bytes: r.PTXBytes, Median: r.Load})
		if !cfg.json {
			printRow(stdout, r) // as soon as its kernel is done
		}
	}

	large := cfg.large
	if large == "" {
		if p := filepath.Join(cfg.suite, "..", "clang", "ptx", "large.sm_90a.ptx83.O3.ptx"); fileExists(p) {
			large = p
		}
	}
	var largeLoad *bench.LoadResult
	if large != "" {
		lr, err := bench.MeasureLoad(large, 3)
		if err != nil {
			fmt.Fprintf(stderr, "ptxvm bench: %v\n", err)
			failed = true
		} else {
			largeLoad = &lr
			loads = append(loads, lr)
		}
	}
	memcpy := 0.0
	if native != nil {
		memcpy = native.MemcpyGBps
	}
	goals := bench.Goals(results, memcpy, loads)
	var copyScaling [2]float64 // the host's copy on 1 and 2 threads (after the kernels: not in their RSS)
	if cfg.scale == 2 && cfg.workers == 1 && len(results) > 0 {
		size := 64 << 20
		if cfg.small {
			size = 4 << 20
		}
		copyScaling[0], copyScaling[1] = bench.HostCopyScaling(size, 9)
	}
	if cfg.json {
		writeBenchJSON(stdout, &cfg, native, results, loads, goals, copyScaling)
	} else {
		printSummary(stdout, &cfg, native, results, largeLoad, goals, copyScaling)
	}
	if failed {
		return exitErrors
	}
	return exitOK
}

// nativeBaseline returns the native figures -native asks for (nil for off).
func nativeBaseline(ctx context.Context, cfg *benchConfig, suite *bench.Suite, names []string, stderr io.Writer) (*bench.Native, error) {
	if cfg.native == "off" || cfg.small && cfg.native == "tsv" {
		return nil, nil
	}
	if cfg.native == "auto" || cfg.native == "only" {
		if cfg.small {
			return nil, nil
		}
		path, err := bench.BuildHarness(ctx, cfg.suite)
		switch {
		case errors.Is(err, bench.ErrNoCompiler) && cfg.native == "auto":
			fmt.Fprintf(stderr, "ptxvm bench: %s not found: native times from %s\n", bench.Compiler, filepath.Join(cfg.suite, "native.tsv"))
		case err != nil:
			return nil, err
		default:
			n, err := bench.RunHarness(ctx, path, names, max(cfg.runs, 3))
			if err != nil {
				return nil, err
			}
			return n, n.Check(suite)
		}
	}
	n, err := bench.ReadNativeTSV(cfg.suite)
	if err != nil && cfg.native == "auto" {
		fmt.Fprintf(stderr, "ptxvm bench: no native figures: %v\n", err)
		return nil, nil
	}
	return n, err
}

// rowFormat lays out the table with fixed widths, so that rows can be
// printed one by one as kernels finish.
const rowFormat = "%-13s %-9s %-26s %9s %7s %8s %6s %10s %8s %6s %10s %7s\n"

func printRow(w io.Writer, r *bench.Result) {
	fmt.Fprintf(w, rowFormat, r.Name, r.Class, r.Label, fmt.Sprintf("%.3f", ms(r.Wall)),
		fmt.Sprintf("%.3f", r.ThreadRate()/1e9), fmt.Sprintf("%.1f", r.WarpRate()/1e6),
		optional(r.GBps(), "%.2f"), nativeMS(r), optional(r.XNative(), "%.1fx"), optional(r.Scaling, "%.2fx"),
		fmt.Sprintf("%.0f", float64(r.Load)/1e3*1024/float64(max(r.PTXBytes, 1))), fmt.Sprintf("%.0f", float64(r.PeakRSS)/(1<<20)))
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func optional(v float64, format string) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprintf(format, v)
}

func nativeMS(r *bench.Result) string {
	if r.Native <= 0 {
		return "-"
	}
	mark := ""
	if r.NativeSource == "tsv" {
		mark = "*"
	}
	if ms(r.Native) < 0.01 {
		return fmt.Sprintf("%.6f%s", ms(r.Native), mark)
	}
	return fmt.Sprintf("%.3f%s", ms(r.Native), mark)
}

func printSummary(w io.Writer, cfg *benchConfig, native *bench.Native, results []*bench.Result, large *bench.LoadResult, goals []bench.Goal, copyScaling [2]float64) {
	fmt.Fprintf(w, "\nworkers %d (scale column: %d), %d timed runs per kernel after a warm-up, medians; every output checked.\n",
		cfg.workers, cfg.scale, cfg.runs)
	for _, r := range results {
		if r.Class == "launch" {
			fmt.Fprintf(w, "launch overhead: %.2f us per launch of %s (%s)\n", float64(r.Wall)/1e3, r.Name, r.Label)
		}
	}
	if native != nil {
		src := "timed in this run"
		if native.Source == "tsv" {
			src = fmt.Sprintf("* from native.tsv, %s", native.Date)
		}
		fmt.Fprintf(w, "native: %s, %s, %s; host memcpy %.1f GB/s (read + written)\n", src, native.CPU, native.Compiler, native.MemcpyGBps)
	}
	if large != nil {
		fmt.Fprintf(w, "large module: %s, %.0f KB, load %.1f ms (%.3f ms per 10 KB)\n",
			large.Path, float64(large.Bytes)/1024, ms(large.Median), ms(large.Per10KB()))
	}
	var peak uint64
	for _, r := range results {
		peak = max(peak, r.PeakRSS)
	}
	if len(results) > 0 {
		since := results[0].PeakRSSSince
		fmt.Fprintf(w, "peak RSS %.0f MiB (VmHWM, since each %s started)\n", float64(peak)/(1<<20), since)
	}
	fmt.Fprintln(w, "goals (issue 7):")
	for _, g := range goals {
		verdict := "n/a "
		if g.Measured && g.Pass {
			verdict = "ok  "
		} else if g.Measured {
			verdict = "MISS"
		}
		fmt.Fprintf(w, "  %s %-34s %s\n", verdict, g.Name, g.Detail)
	}
	if copyScaling[0] > 0 {
		// (what the memory gives two workers)
		fmt.Fprintf(w, "host copy on 2 threads: %.2fx of 1 (%.1f and %.1f GB/s, Go's copy of %d MiB a thread)\n",
			copyScaling[1]/copyScaling[0], copyScaling[0], copyScaling[1], map[bool]int{false: 64, true: 4}[cfg.small])
	}
}

func printNative(w io.Writer, n *bench.Native, selected []*bench.Benchmark, asJSON bool) {
	if asJSON {
		writeJSON(w, map[string]any{"native": nativeJSON(n)})
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "kernel\tsize\tnative ms\t\n")
	for _, b := range selected {
		if ns, ok := n.PerLaunch[b.Name]; ok {
			fmt.Fprintf(tw, "%s\t%s\t%.6f\t\n", b.Name, n.Labels[b.Name], ms(ns))
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "host memcpy %.1f GB/s (read + written); %s, %s\n", n.MemcpyGBps, n.CPU, n.Compiler)
}

func nativeJSON(n *bench.Native) any {
	if n == nil {
		return nil
	}
	perLaunch := map[string]float64{}
	for k, v := range n.PerLaunch {
		perLaunch[k] = float64(v)
	}
	return map[string]any{"source": n.Source, "ns_per_launch": perLaunch, "memcpy_gbps": n.MemcpyGBps,
		"date": n.Date, "cpu": n.CPU, "compiler": n.Compiler}
}

func writeBenchJSON(w io.Writer, cfg *benchConfig, native *bench.Native, results []*bench.Result, loads []bench.LoadResult, goals []bench.Goal, copyScaling [2]float64) {
	type kernel struct {
		Name               string  `json:"name"`
		Class              string  `json:"class"`
		Size               string  `json:"size"`
		NsPerLaunch        float64 `json:"ns_per_launch"`
		Launches           int     `json:"launches_per_run"`
		ThreadInstructions uint64  `json:"thread_instructions"`
		WarpInstructions   uint64  `json:"warp_instructions"`
		ThreadRate         float64 `json:"thread_inst_per_s_per_core"`
		WarpRate           float64 `json:"warp_inst_per_s_per_core"`
		GBps               float64 `json:"gbps,omitempty"`
		NativeNs           float64 `json:"native_ns_per_launch,omitempty"`
		NativeSource       string  `json:"native_source,omitempty"`
		XNative            float64 `json:"x_native,omitempty"`
		ScaleWorkers       int     `json:"scale_workers,omitempty"`
		Scaling            float64 `json:"scaling,omitempty"`
		PTXBytes           int     `json:"ptx_bytes"`
		LoadNs             float64 `json:"load_ns"`
		PeakRSS            uint64  `json:"peak_rss_bytes"`
		AllocPerLaunch     uint64  `json:"go_alloc_bytes_per_launch"`
	}
	type load struct {
		Path    string  `json:"path"`
		Bytes   int     `json:"bytes"`
		LoadNs  float64 `json:"load_ns"`
		Per10KB float64 `json:"ms_per_10kb"`
	}
	type goal struct {
		Name     string `json:"name"`
		Measured bool   `json:"measured"`
		Pass     bool   `json:"pass"`
		Detail   string `json:"detail"`
	}
	out := struct {
		Suite   string   `json:"suite"`
		Workers int      `json:"workers"`
		Runs    int      `json:"runs"`
		Small   bool     `json:"small,omitempty"`
		Native  any      `json:"native"`
		Kernels []kernel `json:"kernels"`
		Loads   []load   `json:"loads"`
		Goals   []goal   `json:"goals"`
		// the host's copy on 1 and 2 threads, GB/s (HostCopyScaling)
		HostCopyGBps []float64 `json:"host_copy_gbps_1_2_threads,omitempty"`
	}{Suite: cfg.suite, Workers: cfg.workers, Runs: cfg.runs, Small: cfg.small, Native: nativeJSON(native),
		Kernels: []kernel{}, Loads: []load{}}
	if copyScaling[0] > 0 {
		out.HostCopyGBps = copyScaling[:]
	}
	for _, r := range results {
		out.Kernels = append(out.Kernels, kernel{Name: r.Name, Class: r.Class, Size: r.Label, NsPerLaunch: float64(r.Wall),
			Launches: r.Repeat, ThreadInstructions: r.ThreadInstructions, WarpInstructions: r.WarpInstructions,
			ThreadRate: r.ThreadRate(), WarpRate: r.WarpRate(), GBps: r.GBps(), NativeNs: float64(r.Native),
			NativeSource: r.NativeSource, XNative: r.XNative(), ScaleWorkers: r.ScaleWorkers, Scaling: r.Scaling,
			PTXBytes: r.PTXBytes, LoadNs: float64(r.Load), PeakRSS: r.PeakRSS, AllocPerLaunch: r.AllocPerLaunch})
	}
	for _, l := range loads {
		out.Loads = append(out.Loads, load{Path: l.Path, Bytes: l.Bytes, LoadNs: float64(l.Median), Per10KB: ms(l.Per10KB())})
	}
	for _, g := range goals {
		out.Goals = append(out.Goals, goal{g.Name, g.Measured, g.Pass, g.Detail})
	}
	writeJSON(w, out)
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
