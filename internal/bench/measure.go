package bench

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// Options configure Measure.
type Options struct {
	Runs    int  // timed runs after one warm-up; the median counts (0: 3)
	Workers int  // goroutines for the main figures (0: 1, the deterministic engine)
	Scale   int  // also time on this many workers for the scaling ratio (0: skip)
	Small   bool // the small problem sizes (tests)
}

func (o Options) runs() int    { return cmp0(o.Runs, 3) }
func (o Options) workers() int { return cmp0(o.Workers, 1) }

func cmp0(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// Result is one benchmark's figures. Times are per launch; instruction
// counts are the engine's (exec.LaunchStats), per launch.
type Result struct {
	Name, Class, Label string
	PTXBytes           int
	Load               time.Duration // median parse + check + load of the module
	Repeat             int           // launches per run
	Workers            int
	Wall               time.Duration   // median wall time per launch on Workers
	Walls              []time.Duration // every timed run's, per launch
	ThreadInstructions uint64
	WarpInstructions   uint64
	CTAs               int
	Bytes              float64 // global memory moved per launch (0: not memory-bound)

	ScaleWorkers int
	ScaleWall    time.Duration // median per launch on ScaleWorkers
	Scaling      float64       // throughput on ScaleWorkers / on Workers

	PeakRSS        uint64 // VmHWM during the benchmark, bytes
	PeakRSSSince   string // "benchmark" (reset before it) or "process" (could not reset)
	AllocPerLaunch uint64 // Go heap bytes allocated per launch (runtime.MemStats)

	Native       time.Duration // native time per launch; 0: unknown
	NativeSource string        // "run" (timed in this run) or "tsv" (native.tsv)
}

// ThreadRate is thread-instructions per second per worker.
func (r *Result) ThreadRate() float64 { return rate(r.ThreadInstructions, r.Wall, r.Workers) }

// WarpRate is warp-instructions per second per worker.
func (r *Result) WarpRate() float64 { return rate(r.WarpInstructions, r.Wall, r.Workers) }

func rate(n uint64, d time.Duration, workers int) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds() / float64(workers)
}

// GBps is global memory bandwidth in GB/s (10^9 bytes read + written per
// second); 0 for kernels that are not memory-bound.
func (r *Result) GBps() float64 {
	if r.Bytes == 0 || r.Wall <= 0 {
		return 0
	}
	return r.Bytes / r.Wall.Seconds() / 1e9
}

// XNative is ptxvm's time over the native time (0: no native time).
func (r *Result) XNative() float64 {
	if r.Native <= 0 {
		return 0
	}
	return float64(r.Wall) / float64(r.Native)
}

// Measure runs benchmark b: load (timed), a checked warm-up, Runs timed
// runs on Workers, then the same on Scale workers. Every run starts from
// freshly filled buffers (not timed), and the outputs are checked after the
// first and the last run: a wrong answer is an error.
func Measure(ctx context.Context, s *Suite, b *Benchmark, opts Options) (*Result, error) {
	// the module's loads first: their garbage is collected and given back
	// before the kernel's peak RSS is reset and its runs are timed
	load, err := loadTime(s, b, 5)
	if err != nil {
		return nil, err
	}
	runtime.GC()
	debug.FreeOSMemory()
	since := "benchmark"
	if !resetPeakRSS() {
		since = "process"
	}
	in, err := Prepare(s, b, opts.Small)
	if err != nil {
		return nil, err
	}
	r := &Result{Name: b.Name, Class: b.Class, Label: in.Size.Label, PTXBytes: in.PTXBytes, Repeat: in.Size.Repeat,
		Workers: opts.workers(), Bytes: in.Size.Bytes, PeakRSSSince: since, Load: load}

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	walls, c, err := timeRuns(ctx, in, r.Workers, opts.runs())
	if err != nil {
		return nil, err
	}
	runtime.ReadMemStats(&after)
	launches := uint64(opts.runs()+1) * uint64(in.Size.Repeat)
	r.AllocPerLaunch = (after.TotalAlloc - before.TotalAlloc) / launches
	r.Walls, r.Wall = walls, median(walls)
	r.ThreadInstructions = c.ThreadInstructions / uint64(in.Size.Repeat)
	r.WarpInstructions = c.WarpInstructions / uint64(in.Size.Repeat)
	r.CTAs = c.CTAs / in.Size.Repeat

	if opts.Scale > 0 {
		walls, _, err := timeRuns(ctx, in, opts.Scale, opts.runs())
		if err != nil {
			return nil, err
		}
		r.ScaleWorkers, r.ScaleWall = opts.Scale, median(walls)
		r.Scaling = float64(r.Wall) / float64(r.ScaleWall)
	}
	r.PeakRSS = peakRSS()
	return r, nil
}

// timeRuns does a checked warm-up and n timed runs on workers, each on
// refilled buffers, checks the last, and returns the wall time per launch
// of each timed run and the counts of the last.
func timeRuns(ctx context.Context, in *Instance, workers, n int) ([]time.Duration, Counts, error) {
	var walls []time.Duration
	var c Counts
	for i := 0; i <= n; i++ {
		in.Reset()
		var err error
		if c, err = in.Run(ctx, workers); err != nil {
			return nil, c, err
		}
		if i == 0 || i == n {
			if err := in.Verify(); err != nil {
				return nil, c, err
			}
		}
		if i > 0 {
			walls = append(walls, c.Wall/time.Duration(in.Size.Repeat))
		}
	}
	return walls, c, nil
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// loadTime is the median time of n parse + check + load runs of b's module.
func loadTime(s *Suite, b *Benchmark, n int) (time.Duration, error) {
	lr, err := MeasureLoad(s.Dir+"/"+b.PTX, n)
	return lr.Median, err
}

// loadMinTime and loadMaxRuns: a small module's load takes 0.1-0.5 ms,
// where a few runs' median moved with every hiccup of a shared host (and
// with the collector's cycles, which fall on one load in several), so
// MeasureLoad loads it again until this much time is spent, up to this
// many times.
const (
	loadMinTime = 100 * time.Millisecond
	loadMaxRuns = 1000
)

// LoadResult is the compile cost of one module.
type LoadResult struct {
	Path   string
	Bytes  int
	Median time.Duration // parse + check + load
}

// PerKB is the load time per 1024 bytes of PTX.
func (l LoadResult) PerKB() time.Duration {
	if l.Bytes == 0 {
		return 0
	}
	return time.Duration(float64(l.Median) * 1024 / float64(l.Bytes))
}

// MeasureLoad times loads (parse, check, exec.Load) of the PTX file at
// path, n of them and as many more as fit in loadMinTime, and returns the
// median. Like a kernel's runs, they follow a warm-up load, and a
// collection first frees what came before (a benchmark's buffers), whose
// sweeping would otherwise fall on the loads.
func MeasureLoad(path string, n int) (LoadResult, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return LoadResult{}, err
	}
	lr := LoadResult{Path: path, Bytes: len(src)}
	runtime.GC()
	if _, err := loadModule(path, src, mem.NewGlobal(0)); err != nil {
		return lr, fmt.Errorf("%s: %v", path, err)
	}
	var ts []time.Duration
	var total time.Duration
	for len(ts) < max(n, 1) || total < loadMinTime && len(ts) < loadMaxRuns {
		start := time.Now()
		if _, err := loadModule(path, src, mem.NewGlobal(0)); err != nil {
			return lr, fmt.Errorf("%s: %v", path, err)
		}
		ts = append(ts, time.Since(start))
		total += ts[len(ts)-1]
	}
	lr.Median = median(ts)
	return lr, nil
}
