package main

import (
	"fmt"
	"io"
)

// benchCommand is being built (issue 7); the helper that owns this file
// replaces this placeholder.
var benchCommand = &command{
	name:    "bench",
	summary: "time the benchmark suite against native builds of the same kernels",
	usage:   "bench [flags] [KERNEL...]",
	doc:     "Bench is not built yet.\n",
}

func runBench(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "ptxvm bench: unsupported: not built yet")
	return exitErrors
}
