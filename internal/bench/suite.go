// Package bench runs ptxvm's benchmark suite (testdata/bench): CUDA-style
// kernels compiled to PTX by clang, each also built natively for the host
// from the same source. It loads the manifest, runs each kernel in the
// engine, checks its outputs against the checksums of the native run, and
// measures time, instruction rates, bandwidth, scaling and memory; see
// docs/bench.md.
package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Format is the manifest's format string.
const Format = "ptxvm-bench/1"

// Suite is a loaded manifest (suite.json, written by scripts/gen-bench.sh).
type Suite struct {
	Dir        string       `json:"-"` // the suite's directory: paths are relative to it
	Format     string       `json:"format"`
	Benchmarks []*Benchmark `json:"benchmarks"`
}

// Benchmark is one kernel of the suite at its two problem sizes.
type Benchmark struct {
	Name   string `json:"name"`
	Class  string `json:"class"`  // alu-int alu-float memory shared atomics divergent launch
	PTX    string `json:"ptx"`    // module, relative to the suite directory
	Kernel string `json:"kernel"` // the .entry
	Full   Size   `json:"full"`   // what ptxvm bench times
	Small  Size   `json:"small"`  // what the tests run
}

// Size is one launch configuration of a benchmark, with its expectations.
type Size struct {
	Label   string   `json:"label"` // the problem size, in words
	Grid    [3]int   `json:"grid"`
	Block   [3]int   `json:"block"`
	Repeat  int      `json:"repeat"` // launches per run
	Bytes   float64  `json:"bytes"`  // global memory read + written per launch; 0: not memory-bound
	Params  []Param  `json:"params"`
	Buffers []Buffer `json:"buffers"`
}

// Param is a kernel parameter: the address of a buffer, or a value.
type Param struct {
	Ptr  string `json:"ptr,omitempty"`  // buffer name
	Type string `json:"type,omitempty"` // u32 s32 f32
	Bits uint64 `json:"bits,omitempty"`
}

// Buffer is a global-memory buffer, filled before every run.
type Buffer struct {
	Name   string  `json:"name"`
	Type   string  `json:"type"` // u32 s32 f32
	Count  int     `json:"count"`
	Init   Init    `json:"init"`
	Check  string  `json:"check,omitempty"`  // "exact", "approx" or "" (not checked)
	Expect string  `json:"expect,omitempty"` // the checksum after one run (checksum.go)
	RTol   float64 `json:"rtol,omitempty"`   // approx: relative tolerance
}

// Size returns the buffer's size in bytes.
func (b *Buffer) Size() int { return b.Count * 4 }

// Load reads dir/suite.json and checks it.
func Load(dir string) (*Suite, error) {
	data, err := os.ReadFile(filepath.Join(dir, "suite.json"))
	if err != nil {
		return nil, err
	}
	s := &Suite{Dir: dir}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, "suite.json"), err)
	}
	if s.Format != Format {
		return nil, fmt.Errorf("%s: format %q, want %q", filepath.Join(dir, "suite.json"), s.Format, Format)
	}
	for _, b := range s.Benchmarks {
		for _, sz := range []*Size{&b.Full, &b.Small} {
			if err := sz.validate(); err != nil {
				return nil, fmt.Errorf("%s: benchmark %s (%s): %v", filepath.Join(dir, "suite.json"), b.Name, sz.Label, err)
			}
		}
	}
	return s, nil
}

func (sz *Size) validate() error {
	if sz.Repeat < 1 {
		return fmt.Errorf("repeat %d", sz.Repeat)
	}
	names := map[string]bool{}
	for _, b := range sz.Buffers {
		if b.Type != "u32" && b.Type != "s32" && b.Type != "f32" {
			return fmt.Errorf("buffer %s: type %q", b.Name, b.Type)
		}
		if b.Check != "" && b.Check != "exact" && !(b.Check == "approx" && b.Type == "f32") {
			return fmt.Errorf("buffer %s: check %q", b.Name, b.Check)
		}
		names[b.Name] = true
	}
	for i, p := range sz.Params {
		if p.Ptr != "" && !names[p.Ptr] {
			return fmt.Errorf("parameter %d: no buffer %q", i, p.Ptr)
		}
	}
	return nil
}

// Select returns the benchmarks named in names (all when empty) whose
// names match filter (any when nil), in suite order. A name that is not in
// the suite is an error.
func (s *Suite) Select(names []string, filter *regexp.Regexp) ([]*Benchmark, error) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []*Benchmark
	for _, b := range s.Benchmarks {
		if (len(names) == 0 || want[b.Name]) && (filter == nil || filter.MatchString(b.Name)) {
			out = append(out, b)
		}
		delete(want, b.Name)
	}
	if len(want) > 0 {
		var missing []string
		for n := range want {
			missing = append(missing, n)
		}
		return nil, fmt.Errorf("no benchmark named %s in the suite (have %s)", strings.Join(missing, ", "), strings.Join(s.Names(), ", "))
	}
	return out, nil
}

// Names lists the suite's benchmarks in order.
func (s *Suite) Names() []string {
	var n []string
	for _, b := range s.Benchmarks {
		n = append(n, b.Name)
	}
	return n
}
