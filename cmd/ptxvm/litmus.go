package main

import (
	"fmt"
	"io"
)

// litmusCommand is being built (issue 8); the helper that owns this file
// replaces this placeholder.
var litmusCommand = &command{
	name:    "litmus",
	summary: "decide which outcomes of PTX litmus tests the memory model allows",
	usage:   "litmus [flags] FILE...",
	doc:     "Litmus is not built yet.\n",
}

func runLitmus(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "ptxvm litmus: unsupported: not built yet")
	return exitErrors
}
