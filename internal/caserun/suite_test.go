package caserun_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptxvm/ptxvm/internal/casefile"
	"github.com/ptxvm/ptxvm/internal/caserun"
)

// The suite test runs every case file of the committed suites through the
// case runner and compares the outcome with testdata/known-failures.tsv.
//
// The list is a ratchet, not a specification: it records which (case,
// module) pairs the engine fails today, so that the test catches both a
// regression (an unlisted pair that fails) and progress (a listed pair that
// now passes, which must then be removed from the list). It was generated
// from the engine's state, which is the point of a ratchet; regenerate it
// after a change that fixes cases with
//
//	go test ./internal/caserun -run TestSuite -update-known-failures
//
// and review the diff: lines may only disappear unless a failure is
// deliberate (a case that needs a later feature), with its reason.

var updateKnown = flag.Bool("update-known-failures", false, "rewrite testdata/known-failures.tsv from the current results")

// suiteDirs are the directories (relative to the repository root) whose
// *.json case files the suite runs: the differential and conformance suites,
// and the case format's examples (which are real launches too).
var suiteDirs = []string{"testdata/diff", "testdata/conformance", "internal/casefile/testdata"}

const knownFailuresFile = "testdata/known-failures.tsv"

// outcome is one (case file, module) result, with paths relative to the
// repository root in slash form.
type outcome struct {
	file, module string
	pass         bool
	detail       string
}

type key struct{ file, module string }

func TestSuite(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files := suiteFiles(t, root)
	rel := func(p string) string {
		r, err := filepath.Rel(root, p)
		if err != nil {
			return filepath.ToSlash(p)
		}
		return filepath.ToSlash(r)
	}

	// Case files run concurrently, each launch with two workers, bounded
	// by GOMAXPROCS; the results are reported in file order.
	start := time.Now()
	results := runFiles(t, root, files, rel, 0)
	t.Logf("%d case files in %v", len(files), time.Since(start).Round(time.Millisecond))
	var all []outcome
	for _, r := range results {
		all = append(all, r...)
	}
	known, reasons := readKnown(t, filepath.Join(root, knownFailuresFile))
	if *updateKnown {
		writeKnown(t, filepath.Join(root, knownFailuresFile), all, reasons)
		return
	}

	passed, failed := 0, 0
	seen := map[key]bool{}
	for _, o := range all {
		k := key{o.file, o.module}
		seen[k] = true
		_, listed := known[k]
		switch {
		case o.pass:
			passed++
			if listed {
				t.Errorf("%s [%s]: passes but is listed in %s; remove it", o.file, o.module, knownFailuresFile)
			}
		default:
			failed++
			if !listed {
				t.Errorf("%s [%s]: %s", o.file, o.module, o.detail)
			}
		}
	}
	for k := range known {
		if !seen[k] {
			t.Errorf("%s lists %s [%s], which the suite no longer has", knownFailuresFile, k.file, k.module)
		}
	}
	t.Logf("%d passed, %d failed (%d listed as known failures)", passed, failed, len(known))
}

// suiteFiles lists the suite's case files, sorted.
func suiteFiles(t *testing.T, root string) []string {
	var files []string
	for _, d := range suiteDirs {
		err := filepath.WalkDir(filepath.Join(root, d), func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && strings.HasSuffix(path, ".json") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("no case files found")
	}
	return files
}

// runFiles runs case files concurrently, each launch with two workers,
// bounded by GOMAXPROCS; results come back in file order.
func runFiles(t *testing.T, root string, files []string, rel func(string) string, seed uint64) [][]outcome {
	results := make([][]outcome, len(files))
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2))
	var wg sync.WaitGroup
	for i, path := range files {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = runFileSeed(t, root, path, rel, seed)
		}()
	}
	wg.Wait()
	return results
}

// runFile runs one case file; a malformed file is a failure of the test.
func runFile(t *testing.T, root, path string, rel func(string) string) []outcome {
	return runFileSeed(t, root, path, rel, 0)
}

func runFileSeed(t *testing.T, root, path string, rel func(string) string, seed uint64) []outcome {
	c, err := casefile.Load(path)
	if err != nil {
		t.Errorf("%v", err)
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var out []outcome
	for _, r := range caserun.Run(ctx, c, caserun.Options{Workers: 2, ScheduleSeed: seed}) {
		mod := r.Module
		if mod != "ptx_text" {
			mod = rel(mod)
		}
		detail := strings.ReplaceAll(r.Detail, root+string(filepath.Separator), "") // no absolute paths in the list
		out = append(out, outcome{file: rel(path), module: mod, pass: r.Pass, detail: detail})
	}
	return out
}

// readKnown reads the known-failures list: tab-separated case file, module
// and reason, '#' comments and blank lines ignored.
func readKnown(t *testing.T, path string) (map[key]bool, map[key]string) {
	known := map[key]bool{}
	reasons := map[key]string{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return known, reasons
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.SplitN(line, "\t", 3)
		if len(cols) < 2 {
			t.Fatalf("%s:%d: want case<TAB>module<TAB>reason", path, n)
		}
		k := key{cols[0], cols[1]}
		if known[k] {
			t.Errorf("%s:%d: %s [%s] listed twice", path, n, k.file, k.module)
		}
		known[k] = true
		if len(cols) == 3 {
			reasons[k] = cols[2]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return known, reasons
}

// writeKnown rewrites the list from the failures in all, keeping the
// reasons of pairs that were already listed and using the failure's detail
// (shortened) for new ones.
func writeKnown(t *testing.T, path string, all []outcome, reasons map[key]string) {
	var b strings.Builder
	b.WriteString(`# Known failures of the case suites (testdata/diff, testdata/conformance,
# internal/casefile/testdata):
# case file, module, reason; tab-separated, paths relative to the repository root.
# This list is a ratchet, recorded from the engine's results: TestSuite in
# internal/caserun fails when an unlisted pair fails and when a listed pair
# passes. Regenerate with
#	go test ./internal/caserun -run TestSuite -update-known-failures
`)
	n := 0
	for _, o := range all {
		if o.pass {
			continue
		}
		reason, ok := reasons[key{o.file, o.module}]
		if !ok {
			reason = shorten(o.detail)
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\n", o.file, o.module, reason)
		n++
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d known failures", path, n)
}

// shorten makes a failure detail fit on one line of the list: its first
// clause (the first mismatching buffer), at most 160 bytes.
func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, "; "); i >= 0 {
		s = s[:i] + "; ..."
	}
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	if s == "" {
		s = "fails"
	}
	return s
}

// TestSuiteSeeds runs the suite under five perturbed schedules: every case
// that passes with the default schedule must pass with each (the suites
// hold no schedule-dependent results).
func TestSuiteSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files := suiteFiles(t, root)
	rel := func(p string) string {
		r, _ := filepath.Rel(root, p)
		return filepath.ToSlash(r)
	}
	known, _ := readKnown(t, filepath.Join(root, knownFailuresFile))
	for seed := uint64(1); seed <= 5; seed++ {
		start := time.Now()
		n := 0
		for _, rs := range runFiles(t, root, files, rel, seed) {
			for _, o := range rs {
				n++
				if !o.pass && !known[key{o.file, o.module}] {
					t.Errorf("schedule seed %d: %s [%s]: %s", seed, o.file, o.module, o.detail)
				}
			}
		}
		t.Logf("schedule seed %d: %d runs in %v", seed, n, time.Since(start).Round(time.Millisecond))
	}
}
