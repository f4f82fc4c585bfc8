package bench

import (
	"context"
	"encoding/binary"
	"fmt"
	"github.com/ptxvm/ptxvm/internal/loadgc"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ptxvm/ptxvm/internal/check"
	"github.com/ptxvm/ptxvm/internal/exec"
	"github.com/ptxvm/ptxvm/internal/mem"
	"github.com/ptxvm/ptxvm/ptx"
)

// Instance is a benchmark loaded into its own device memory at one size,
// ready to run again and again.
type Instance struct {
	Bench    *Benchmark
	Size     *Size
	PTXBytes int           // the module's source size
	LoadTime time.Duration // one parse + check + load of the module

	prog   *exec.Program
	global *mem.Global
	addrs  []uint64 // per buffer
	init   [][]byte // per buffer, its initial contents
	params []byte
}

// Prepare loads b's module and allocates its buffers at the full or small
// size.
func Prepare(s *Suite, b *Benchmark, small bool) (*Instance, error) {
	sz := &b.Full
	if small {
		sz = &b.Small
	}
	src, err := os.ReadFile(filepath.Join(s.Dir, b.PTX))
	if err != nil {
		return nil, err
	}
	in := &Instance{Bench: b, Size: sz, PTXBytes: len(src), global: mem.NewGlobal(0)}
	start := time.Now()
	in.prog, err = loadModule(b.PTX, src, in.global)
	in.LoadTime = time.Since(start)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", b.Name, err)
	}
	k := in.prog.Kernels[b.Kernel]
	if k == nil {
		return nil, fmt.Errorf("%s: no kernel %q in %s", b.Name, b.Kernel, b.PTX)
	}
	index := map[string]int{}
	for i := range sz.Buffers {
		buf := &sz.Buffers[i]
		data, err := fill(buf)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", b.Name, err)
		}
		a, err := in.global.Alloc(uint64(max(len(data), 1)), 0)
		if err != nil {
			return nil, fmt.Errorf("%s: buffer %s: %v", b.Name, buf.Name, err)
		}
		index[buf.Name] = i
		in.addrs = append(in.addrs, a)
		in.init = append(in.init, data)
	}
	offs, size := k.ParamLayout()
	if len(offs) != len(sz.Params) {
		return nil, fmt.Errorf("%s: the manifest gives %d parameters, kernel %s takes %d", b.Name, len(sz.Params), b.Kernel, len(offs))
	}
	in.params = make([]byte, size)
	for i, p := range sz.Params {
		bits := p.Bits
		if p.Ptr != "" {
			bits = in.addrs[index[p.Ptr]]
		}
		end := size
		if i+1 < len(offs) {
			end = offs[i+1]
		}
		var word [8]byte
		binary.LittleEndian.PutUint64(word[:], bits)
		copy(in.params[offs[i]:end], word[:])
	}
	return in, nil
}

// loadModule parses, checks and loads PTX source, as ptxvm.LoadModule does.
func loadModule(name string, src []byte, g *mem.Global) (*exec.Program, error) {
	defer loadgc.Begin()() // (as the command's loads run: caserun)
	m, err := ptx.Parse(name, src, &ptx.ParseOptions{DiscardComments: true})
	if err != nil {
		return nil, err
	}
	mod, diags := check.Build(m, check.Options{})
	if mod == nil {
		return nil, diags
	}
	return exec.Load(mod, g)
}

// Reset refills every buffer with its initial contents.
func (in *Instance) Reset() {
	for i, a := range in.addrs {
		dst, _ := in.global.Bytes(a, uint64(len(in.init[i])))
		copy(dst, in.init[i])
	}
}

// Counts are what one run did.
type Counts struct {
	Wall               time.Duration // around the Launch calls
	ThreadInstructions uint64
	WarpInstructions   uint64
	CTAs               int
}

// Run launches the kernel Size.Repeat times on workers goroutines (0:
// GOMAXPROCS) and returns the totals. It does not refill the buffers
// (Reset).
func (in *Instance) Run(ctx context.Context, workers int) (Counts, error) {
	var c Counts
	var st exec.LaunchStats
	cfg := exec.LaunchConfig{Grid: in.Size.Grid, Block: in.Size.Block, Params: in.params, Workers: workers, Stats: &st}
	for range in.Size.Repeat {
		start := time.Now()
		err := in.prog.Launch(ctx, in.Bench.Kernel, cfg)
		c.Wall += time.Since(start)
		if err != nil {
			return c, fmt.Errorf("%s: %v", in.Bench.Name, err)
		}
		c.ThreadInstructions += st.ThreadInstructions
		c.WarpInstructions += st.WarpInstructions
		c.CTAs += st.CTAs
	}
	return c, nil
}

// Verify compares every checked buffer with its expected checksum; call it
// after one run on freshly reset buffers. A wrong answer is an error naming
// the buffers.
func (in *Instance) Verify() error {
	var bad []string
	for i, b := range in.Size.Buffers {
		if b.Check == "" {
			continue
		}
		data, _ := in.global.Bytes(in.addrs[i], uint64(len(in.init[i])))
		if got := checksum(b.Check, data); !matches(b.Check, got, b.Expect, b.RTol) {
			bad = append(bad, fmt.Sprintf("%s: checksum %s, want %s", b.Name, got, b.Expect))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s (%s): WRONG OUTPUT: %s", in.Bench.Name, in.Size.Label, strings.Join(bad, "; "))
	}
	return nil
}
