package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Native holds the native baseline: time per launch of each kernel built
// for the host from the same source (one thread, clang++-22 -O2), and the
// host's memcpy bandwidth.
type Native struct {
	Source     string // "run": timed in this run; "tsv": read from native.tsv
	PerLaunch  map[string]time.Duration
	Labels     map[string]string // problem size of each kernel's timing
	Checksums  map[string]string // "run" only: the harness's "buf=sum,..." per kernel
	MemcpyGBps float64           // read + written bytes per second / 1e9
	Date       string
	CPU        string
	Compiler   string
}

// Compiler is the host compiler the harness is built with; HostFlags its
// flags (scripts/gen-bench.sh uses the same).
const Compiler = "clang++-22"

var HostFlags = []string{"-std=c++20", "-O2", "-ffp-contract=off", "-DBENCH_HOST", "-Wall", "-Wno-unknown-attributes"}

// ErrNoCompiler: clang++-22 is not installed, so native code cannot be
// timed in this run.
var ErrNoCompiler = errors.New(Compiler + " not found")

// ReadNativeTSV reads the committed baseline, dir/native.tsv.
func ReadNativeTSV(dir string) (*Native, error) {
	path := filepath.Join(dir, "native.tsv")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	n := &Native{Source: "tsv", PerLaunch: map[string]time.Duration{}, Labels: map[string]string{}}
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "kernel\t") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 7 {
			return nil, fmt.Errorf("%s:%d: %d fields, want 7", path, i+1, len(f))
		}
		ns, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: ns_per_launch %q", path, i+1, f[2])
		}
		n.Date, n.CPU, n.Compiler = f[4], f[5], f[6]
		if f[0] == "host_memcpy" {
			if n.MemcpyGBps, err = strconv.ParseFloat(f[3], 64); err != nil {
				return nil, fmt.Errorf("%s:%d: gbps %q", path, i+1, f[3])
			}
			continue
		}
		n.PerLaunch[f[0]] = time.Duration(ns)
		n.Labels[f[0]] = f[1]
	}
	return n, nil
}

// BuildHarness compiles the native harness from dir/src into a cache
// directory keyed by the sources and flags, and returns its path; a cached
// build is reused. ErrNoCompiler when clang++-22 is missing.
func BuildHarness(ctx context.Context, dir string) (string, error) {
	cxx, err := exec.LookPath(Compiler)
	if err != nil {
		return "", ErrNoCompiler
	}
	src := filepath.Join(dir, "src")
	entries, err := os.ReadDir(src)
	if err != nil {
		return "", err
	}
	// (FNV, not crypto/sha256: a cache key needs no cryptography, and
	// linking crypto put a 32 MiB entropy buffer in ptxvm's bss, whose
	// pointer bitmap every garbage collection's root scan walks)
	h := fnv.New64a()
	fmt.Fprintln(h, cxx, strings.Join(HostFlags, " "))
	var cus []string
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", e.Name(), len(data))
		h.Write(data)
		if strings.HasSuffix(e.Name(), ".cu") {
			cus = append(cus, e.Name())
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	out := filepath.Join(cache, "ptxvm-bench", hex.EncodeToString(h.Sum(nil)), "harness")
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return "", err
	}
	args := append(slices.Clone(HostFlags), "-x", "c++")
	args = append(args, cus...)
	args = append(args, "-x", "c++", "harness.cpp", "-o", out+".tmp")
	cmd := exec.CommandContext(ctx, cxx, args...)
	cmd.Dir = src
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the native harness: %v\n%s", err, msg)
	}
	return out, os.Rename(out+".tmp", out)
}

// RunHarness times the named kernels (all when none) natively with the
// harness at path, runs timed runs each, and measures memcpy bandwidth.
func RunHarness(ctx context.Context, path string, names []string, runs int) (*Native, error) {
	n := &Native{Source: "run", PerLaunch: map[string]time.Duration{}, Labels: map[string]string{},
		Checksums: map[string]string{}, Date: time.Now().UTC().Format("2006-01-02"), CPU: cpuModel()}
	args := append([]string{"time", "-runs", strconv.Itoa(max(runs, 1))}, names...)
	out, err := exec.CommandContext(ctx, path, args...).Output()
	if err != nil {
		return nil, fmt.Errorf("native harness: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("native harness: bad line %q", sc.Text())
		}
		ns, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			return nil, fmt.Errorf("native harness: bad line %q", sc.Text())
		}
		n.PerLaunch[f[0]] = time.Duration(ns)
		n.Labels[f[0]] = f[1]
		n.Checksums[f[0]] = f[4]
	}
	out, err = exec.CommandContext(ctx, path, "memcpy", "-runs", "5").Output()
	if err != nil {
		return nil, fmt.Errorf("native harness memcpy: %v", err)
	}
	f := strings.Split(strings.TrimSpace(string(out)), "\t")
	if len(f) != 4 {
		return nil, fmt.Errorf("native harness memcpy: bad output %q", out)
	}
	if n.MemcpyGBps, err = strconv.ParseFloat(f[3], 64); err != nil {
		return nil, fmt.Errorf("native harness memcpy: bad output %q", out)
	}
	if v, err := exec.CommandContext(ctx, Compiler, "--version").Output(); err == nil {
		n.Compiler, _, _ = strings.Cut(string(v), "\n")
	}
	return n, nil
}

// Check compares the native run's outputs with the manifest's
// expectations: a difference means suite.json is stale (regenerate it with
// scripts/gen-bench.sh) or the host build is broken.
func (n *Native) Check(s *Suite) error {
	var bad []string
	for _, b := range s.Benchmarks {
		got, ok := n.Checksums[b.Name]
		if !ok {
			continue
		}
		if got2 := n.Labels[b.Name]; got2 != b.Full.Label {
			bad = append(bad, fmt.Sprintf("%s: native size %q, suite.json %q", b.Name, got2, b.Full.Label))
			continue
		}
		sums := map[string]string{}
		for _, kv := range strings.Split(got, ",") {
			k, v, _ := strings.Cut(kv, "=")
			sums[k] = v
		}
		for _, buf := range b.Full.Buffers {
			if buf.Check != "" && !matches(buf.Check, sums[buf.Name], buf.Expect, buf.RTol) {
				bad = append(bad, fmt.Sprintf("%s: native %s %s, suite.json %s", b.Name, buf.Name, sums[buf.Name], buf.Expect))
			}
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("the native build disagrees with suite.json (run scripts/gen-bench.sh): %s", strings.Join(bad, "; "))
	}
	return nil
}

// cpuModel is the first "model name" of /proc/cpuinfo.
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
