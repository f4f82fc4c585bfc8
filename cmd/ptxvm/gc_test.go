package main

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC: without GOGC in the environment the command runs at
// cliGCPercent; with one, Go's own reading of it stands.
func TestTuneGC(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	if prev := tuneGC(func(string) string { return "" }); prev != 100 {
		t.Errorf("previous setting %d, want 100", prev)
	}
	if now := debug.SetGCPercent(100); now != cliGCPercent {
		t.Errorf("GOGC %d after tuneGC, want %d", now, cliGCPercent)
	}
	if prev := tuneGC(func(k string) string {
		if k == "GOGC" {
			return "50"
		}
		return ""
	}); prev != -1 {
		t.Errorf("tuneGC changed the setting (%d) with GOGC set", prev)
	}
	if now := debug.SetGCPercent(100); now != 100 {
		t.Errorf("GOGC %d, want 100 left alone", now)
	}
}
