package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchArgs make a quick run: small sizes, one timed run, no scaling run,
// no native build, and a small module for the load figure.
var benchArgs = []string{"-suite", "../../testdata/bench", "-small", "-runs", "1", "-scale", "0",
	"-native", "off", "-large", "../../examples/saxpy.ptx"}

func TestBenchOneKernel(t *testing.T) {
	var stdout, stderr bytes.Buffer
	// (-scale 2: the scaling column, and the host's copy on 2 threads)
	code := run(append(append([]string{"bench"}, benchArgs...), "-scale", "2", "saxpy"), nil, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"kernel", "saxpy", "n=16384", "goals (issue 7):", "large module: ../../examples/saxpy.ptx", "host copy on 2 threads: "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "hash") {
		t.Errorf("ran a kernel that was not asked for:\n%s", out)
	}
}

// TestBenchCPUProfile: -cpuprofile writes a profile pprof reads (a
// gzip-compressed protocol buffer), and an unwritable path is an error.
func TestBenchCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	var stdout, stderr bytes.Buffer
	code := run(append(append([]string{"bench"}, benchArgs...), "-cpuprofile", path, "saxpy"), nil, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Fatalf("profile of %d bytes does not start as gzip: % x", len(data), data[:min(len(data), 8)])
	}
	stderr.Reset()
	code = run(append(append([]string{"bench"}, benchArgs...), "-cpuprofile", filepath.Join(t.TempDir(), "no", "such", "dir"), "saxpy"), nil, &stdout, &stderr)
	if code != exitErrors || !strings.Contains(stderr.String(), "no such file") {
		t.Fatalf("unwritable profile: exit %d, stderr %q", code, stderr.String())
	}
}

// TestBenchFlagsAfterNames: flags may follow kernel names.
func TestBenchFlagsAfterNames(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := append([]string{"bench", "trivial"}, benchArgs...)
	code := run(append(args, "-json"), nil, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	var got struct {
		Kernels []struct {
			Name string `json:"name"`
		} `json:"kernels"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("%v:\n%s", err, stdout.String())
	}
	if len(got.Kernels) != 1 || got.Kernels[0].Name != "trivial" {
		t.Fatalf("kernels %+v, want trivial alone", got.Kernels)
	}
}

func TestBenchJSONFilter(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(append(append([]string{"bench"}, benchArgs...), "-json", "-filter", "^triv"), nil, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	var got struct {
		Kernels []struct {
			Name               string  `json:"name"`
			ThreadInstructions uint64  `json:"thread_instructions"`
			NsPerLaunch        float64 `json:"ns_per_launch"`
		} `json:"kernels"`
		Goals []struct {
			Name     string `json:"name"`
			Measured bool   `json:"measured"`
		} `json:"goals"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("%v:\n%s", err, stdout.String())
	}
	if len(got.Kernels) != 1 || got.Kernels[0].Name != "trivial" || got.Kernels[0].ThreadInstructions == 0 {
		t.Errorf("kernels = %+v, want trivial with its counts", got.Kernels)
	}
	if len(got.Goals) != 6 {
		t.Errorf("%d goals, want 6", len(got.Goals))
	}
}

func TestBenchUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-native", "sometimes"}, "-native sometimes: want auto, tsv, off or only"},
		{[]string{"-runs", "0"}, "-runs 0: must be at least 1"},
		{[]string{"-workers", "0"}, "-workers 0: must be at least 1"},
		{[]string{"-scale", "-1"}, "-scale -1: must not be negative"},
		{[]string{"-filter", "("}, "-filter: error parsing regexp"},
		{[]string{"-filter", "^nothing$"}, "no kernel matches -filter ^nothing$"},
		{[]string{"-suite", "../../testdata/bench", "nosuchkernel"}, "no benchmark named nosuchkernel"},
		{[]string{"-small", "-native", "only"}, "-native only times the full sizes"},
		{[]string{"-bogus"}, "flag provided but not defined: -bogus"},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"bench", "-suite", "../../testdata/bench"}, tc.args...)
		if code := run(args, nil, &stdout, &stderr); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", tc.args, code, exitUsage)
		}
		if !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: stderr lacks %q:\n%s", tc.args, tc.want, stderr.String())
		}
	}
}

func TestBenchMissingSuite(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"bench", "-suite", t.TempDir()}, nil, &stdout, &stderr); code != exitErrors {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitErrors, stderr.String())
	}
}
