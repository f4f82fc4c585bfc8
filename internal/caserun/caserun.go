// Package caserun runs case files (../shared/case-format.md): it loads each
// listed module, makes the buffers, launches the kernel and compares the
// results. It backs `ptxvm run` and `ptxvm test`, and the conformance tests.
package caserun

import (
	"context"
	"errors"
	"fmt"
	"github.com/ptxvm/ptxvm/internal/loadgc"
	"io"
	"os"
	"strings"
	"time"

	"github.com/ptxvm/ptxvm/internal/casefile"
	"github.com/ptxvm/ptxvm/internal/check"
	"github.com/ptxvm/ptxvm/internal/exec"
	"github.com/ptxvm/ptxvm/internal/mem"
	"github.com/ptxvm/ptxvm/ptx"
)

// Options configure a run.
type Options struct {
	Workers  int                   // 0: GOMAXPROCS
	Printf   io.Writer             // device printf output; nil discards
	Progress func(done, total int) // CTAs finished, for a progress line (see exec.LaunchConfig)
	// ScheduleSeed perturbs the schedule inside CTAs (exec.LaunchConfig);
	// 0 is the deterministic default.
	ScheduleSeed uint64
	// Stats, when set, is called after each launch with its counts.
	Stats func(kernel, module string, s exec.LaunchStats)
	// Loaded, when set, is called after each module loads (parse, check
	// and exec.Load of its bytes of PTX) with how long that took.
	Loaded func(module string, bytes int, d time.Duration)
}

// Result is the outcome of one case on one module.
type Result struct {
	Case    string
	Module  string // the PTX file (or "ptx_text")
	Pass    bool
	Detail  string            // why it failed
	Err     error             // the launch error, if any
	Buffers map[string][]byte // contents after the launch
}

// Run runs c on each of its modules.
func Run(ctx context.Context, c *casefile.Case, opts Options) []Result {
	var out []Result
	if c.PTXText != "" {
		return []Result{runModule(ctx, c, "ptx_text", []byte(c.PTXText), opts)}
	}
	for _, path := range c.PTX {
		src, err := os.ReadFile(path)
		if err != nil {
			out = append(out, Result{Case: c.Name, Module: path, Detail: err.Error(), Err: err})
			continue
		}
		out = append(out, runModule(ctx, c, path, src, opts))
	}
	return out
}

// load parses, checks and loads a module, the collector running less
// often meanwhile (loadgc).
func load(name string, src []byte, arch string, g *mem.Global) (*exec.Program, error) {
	defer loadgc.Begin()()
	m, err := ptx.Parse(name, src, &ptx.ParseOptions{DiscardComments: true})
	if err != nil {
		return nil, err
	}
	mod, diags := check.Build(m, check.Options{Arch: arch})
	if mod == nil {
		return nil, diags
	}
	return exec.Load(mod, g)
}

func runModule(ctx context.Context, c *casefile.Case, name string, src []byte, opts Options) Result {
	r := Result{Case: c.Name, Module: name}
	fail := func(format string, args ...any) Result {
		r.Detail = fmt.Sprintf(format, args...)
		return r
	}
	g := mem.NewGlobal(0)
	start := time.Now()
	p, err := load(name, src, c.Arch, g)
	if err != nil {
		return fail("%v", firstLine(err))
	}
	if opts.Loaded != nil {
		opts.Loaded(name, len(src), time.Since(start))
	}
	k := p.Kernels[c.Kernel]
	if k == nil {
		return fail("no kernel %q in the module", c.Kernel)
	}
	addrs := map[string]uint64{}
	for _, b := range c.Buffers {
		a, err := g.Alloc(uint64(max(b.Size, 1)), 0)
		if err != nil {
			return fail("buffer %s: %v", b.Name, err)
		}
		data, _ := g.Bytes(a, uint64(b.Size))
		copy(data, b.Init)
		addrs[b.Name] = a
	}
	offs, size := k.ParamLayout()
	if len(c.Params) != len(offs) {
		return fail("the case gives %d parameters, kernel %s takes %d", len(c.Params), c.Kernel, len(offs))
	}
	params := make([]byte, size)
	for i, prm := range c.Params {
		v := prm.Value(func(name string) uint64 { return addrs[name] })
		end := size
		if i+1 < len(offs) {
			end = offs[i+1]
		}
		if uint64(len(v)) > end-offs[i] {
			return fail("parameter %d: %d bytes given, the kernel's parameter has %d", i, len(v), end-offs[i])
		}
		copy(params[offs[i]:], v)
	}
	var cluster [3]int // zero: no explicit cluster
	if c.HasCluster {
		cluster = c.Cluster
	}
	var stats exec.LaunchStats
	err = p.Launch(ctx, c.Kernel, exec.LaunchConfig{Stats: &stats, Grid: c.Grid, Block: c.Block, DynamicShared: uint64(c.DynamicShared),
		Params: params, Workers: opts.Workers, Printf: opts.Printf, Progress: opts.Progress,
		ScheduleSeed: opts.ScheduleSeed, Cluster: cluster})
	r.Err = err
	if opts.Stats != nil {
		opts.Stats(c.Kernel, name, stats)
	}
	if c.ExpectError != "" {
		switch {
		case err == nil:
			return fail("the launch succeeded; want an error containing %q", c.ExpectError)
		case !strings.Contains(err.Error(), c.ExpectError):
			return fail("error %q does not contain %q", err.Error(), c.ExpectError)
		}
		r.Pass = true
		return r
	}
	if err != nil {
		var f *exec.Fault
		if errors.As(err, &f) {
			return fail("%v", f)
		}
		return fail("%v", err)
	}
	r.Buffers = map[string][]byte{}
	var problems []string
	for _, b := range c.Buffers {
		data, _ := g.Bytes(addrs[b.Name], uint64(b.Size))
		r.Buffers[b.Name] = append([]byte(nil), data...)
		if !b.Checked() {
			continue
		}
		if ms := b.Check(data); len(ms) > 0 {
			problems = append(problems, casefile.FormatMismatches(b.Name, ms, 3))
		}
	}
	if len(problems) > 0 {
		return fail("%s", strings.Join(problems, "; "))
	}
	r.Pass = true
	return r
}

func firstLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}
