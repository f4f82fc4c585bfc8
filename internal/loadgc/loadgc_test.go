package loadgc

import (
	"runtime/debug"
	"testing"
)

// gcPercent reads the setting (SetGCPercent returns it; set it back).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestBeginEnd: a load runs at Percent and puts the setting back; loads
// that overlap keep Percent until the last ends; an end called twice
// counts once; with GOGC in the environment nothing changes.
func TestBeginEnd(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	defer func(g func(string) string) { getenv = g }(getenv)
	getenv = func(string) string { return "" }
	end := Begin()
	if p := gcPercent(); p != Percent {
		t.Fatalf("during a load GOGC %d, want %d", p, Percent)
	}
	end()
	if p := gcPercent(); p != 150 {
		t.Fatalf("after a load GOGC %d, want 150 back", p)
	}
	a, b := Begin(), Begin()
	a()
	a()
	if p := gcPercent(); p != Percent {
		t.Fatalf("one of two loads ended (twice): GOGC %d, want %d", p, Percent)
	}
	b()
	if p := gcPercent(); p != 150 {
		t.Fatalf("both loads ended: GOGC %d, want 150", p)
	}
	getenv = func(k string) string {
		if k == "GOGC" {
			return "50"
		}
		return ""
	}
	end = Begin()
	if p := gcPercent(); p != 150 {
		t.Fatalf("with GOGC set, a load changed GOGC to %d", p)
	}
	end()
}
