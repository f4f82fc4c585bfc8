package bench

import (
	"fmt"
	"time"
)

// Goal is one of issue 7's targets judged on a run's figures.
type Goal struct {
	Name     string
	Measured bool // false: the run has no figure for it (filtered out, no native time)
	Pass     bool
	Detail   string // the figure that decides, and where it comes from
}

// The targets (issue 7).
const (
	GoalALURate    = 1.5e9 // thread-instructions/s per core, ALU-bound kernels
	GoalALUNative  = 25.0  // at most this many times the native time, ALU-bound kernels
	GoalMemoryFrac = 0.30  // of the host's memcpy bandwidth, memory-bound kernels
	GoalScaling    = 1.8   // throughput on 2 workers over 1
	GoalLaunch     = 50 * time.Microsecond
	GoalCompile    = time.Millisecond // per 10 KB of PTX
)

func isALU(class string) bool { return class == "alu-int" || class == "alu-float" }

// Per10KB is the load time per 10 KB (10240 bytes) of PTX.
func (l LoadResult) Per10KB() time.Duration { return 10 * l.PerKB() }

// worst is the least favourable figure of one goal and whose it is.
type worst struct {
	name string
	v    float64
	set  bool
}

func scale(w worst, k float64) worst { w.v *= k; return w }

// Goals judges results (one worker for the per-core and native figures),
// the native memcpy bandwidth (0: unknown) and module load times against
// the targets.
func Goals(rs []*Result, memcpyGBps float64, loads []LoadResult) []Goal {
	var out []Goal

	low := func(w *worst, name string, v float64) {
		if !w.set || v < w.v {
			*w = worst{name, v, true}
		}
	}
	high := func(w *worst, name string, v float64) {
		if !w.set || v > w.v {
			*w = worst{name, v, true}
		}
	}
	var aluRate, aluX, memFrac, scaling, launch, compile worst
	for _, r := range rs {
		if isALU(r.Class) {
			low(&aluRate, r.Name, r.ThreadRate())
			if r.Native > 0 {
				high(&aluX, r.Name, r.XNative())
			}
		}
		if r.Class == "memory" && memcpyGBps > 0 {
			low(&memFrac, r.Name, r.GBps()/memcpyGBps)
		}
		// The scaling goal is for independent CTAs: not the histogram's,
		// which contend for the same bins, nor one-CTA launches.
		if r.Scaling > 0 && r.ScaleWorkers == 2 && r.Workers == 1 && r.Class != "launch" && r.Class != "atomics" {
			low(&scaling, r.Name, r.Scaling)
		}
		if r.Class == "launch" {
			high(&launch, r.Name, float64(r.Wall))
		}
	}
	for _, l := range loads {
		// Judged on modules of 10 KB or more: the suite's own modules
		// are 1-5 KB, where fixed costs dominate (their per-KB figures
		// are reported, not judged).
		if l.Bytes >= 10240 {
			high(&compile, l.Path, float64(l.Per10KB()))
		}
	}
	add := func(name string, w worst, pass func(float64) bool, format string, why string) {
		g := Goal{Name: name, Measured: w.set}
		if w.set {
			g.Pass = pass(w.v)
			g.Detail = fmt.Sprintf(format, w.v) + " (" + w.name + ")"
		} else {
			g.Detail = why
		}
		out = append(out, g)
	}
	add("ALU >= 1.5 G thread-inst/s/core", scale(aluRate, 1e-9), func(v float64) bool { return v >= GoalALURate/1e9 },
		"min %.2f G/s", "no ALU-bound kernel run on 1 worker")
	add("ALU <= 25x native", aluX, func(v float64) bool { return v <= GoalALUNative },
		"max %.1fx", "no native time")
	add("memory >= 30% of host memcpy", scale(memFrac, 100), func(v float64) bool { return v >= GoalMemoryFrac*100 },
		"min %.1f%%", "no memory-bound kernel, or no memcpy figure")
	add("2 workers >= 1.8x of 1", scaling, func(v float64) bool { return v >= GoalScaling },
		"min %.2fx", "no scaling run (-workers 1 -scale 2)")
	add("trivial launch < 50 us", scale(launch, 1e-3), func(v float64) bool { return v < float64(GoalLaunch)/1e3 },
		"%.1f us", "the launch benchmark was not run")
	add("compile < 1 ms per 10 KB", scale(compile, 1e-6), func(v float64) bool { return v < float64(GoalCompile)/1e6 },
		"max %.2f ms/10KB", "no module of 10 KB or more loaded (-large)")
	return out
}
