package main

import "runtime/debug"

// cliGCPercent is the collector's GOGC in the command's process when the
// environment sets none. Loading a module allocates about 100 bytes per
// byte of PTX (tokens, syntax tree, checked IR, lowered ops), most of it
// garbage by the end, and with Go's default of 100 the collector ran many
// times during one load of the large module, its write barriers slowing
// the parser and checker on the way (bench's large module: 1.35-1.47 ->
// 1.01-1.16 ms per 10 KB). A kernel's device memory stays live, so the
// heap it adds is not multiplied: the suite's peak RSS per kernel did not
// change. The Go compiler raises its starting heap for the same reason.
const cliGCPercent = 400

// tuneGC sets cliGCPercent unless getenv gives a GOGC, and returns the
// previous setting (-1: left alone).
func tuneGC(getenv func(string) string) int {
	if getenv("GOGC") != "" {
		return -1
	}
	return debug.SetGCPercent(cliGCPercent)
}
