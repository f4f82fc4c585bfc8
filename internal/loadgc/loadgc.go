// Package loadgc runs Go's collector less often while a module loads.
//
// Loading a module (parse, check, lower) allocates about 100 bytes per
// byte of PTX, nearly all of it garbage by the end, and at Go's default
// GOGC of 100 the collector ran many times during one load of the large
// benchmark module, its write barriers slowing the parser and checker on
// the way. Begin raises GOGC to Percent for the load; the end function it
// returns puts back the setting in force before. Kernels run under the
// process's own setting: a kernel's freed device buffers are garbage, and
// at 400 the heap could grow to five times the largest live heap between
// collections.
//
// The command line's loads use it (internal/caserun, internal/bench); the
// Go API (package ptxvm) does not change a host program's collector.
package loadgc

import (
	"os"
	"runtime/debug"
	"sync"
)

// Percent is the GOGC of a load. go test -bench LoadLarge ./internal/bench,
// four alternating pairs on the project's AVX2-only host: 1.28-1.61 ms per
// 10 KB at GOGC=100, 1.01-1.35 at 400.
const Percent = 400

var (
	mu     sync.Mutex
	loads  int // loads in progress (concurrent ones share the setting)
	before int // the setting Begin replaced
)

// getenv is os.Getenv (tests replace it).
var getenv = os.Getenv

// Begin raises the collector's GOGC to Percent, unless the environment
// sets GOGC (the user's choice stands), and returns the function that
// ends the load. Loads may overlap: the first raises the setting, the
// last one to end puts it back.
func Begin() (end func()) {
	if getenv("GOGC") != "" {
		return func() {}
	}
	mu.Lock()
	if loads == 0 {
		before = debug.SetGCPercent(Percent)
	}
	loads++
	mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			mu.Lock()
			if loads--; loads == 0 {
				debug.SetGCPercent(before)
			}
			mu.Unlock()
		})
	}
}
