package main

import (
	"fmt"
	"io"
)

var helpCommand = &command{
	name:    "help",
	summary: "print help for ptxvm or one of its commands",
	usage:   "help [command]",
	doc: `Help prints the list of commands, or the usage, description and flags of
one command.
`,
}

func runHelp(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	switch len(args) {
	case 0:
		printUsage(stdout)
		return exitOK
	case 1:
		c := lookup(args[0])
		if c == nil {
			fmt.Fprintf(stderr, "ptxvm help: unknown command %q\nRun 'ptxvm help' for the list of commands.\n", args[0])
			return exitUsage
		}
		printCommandHelp(stdout, c)
		return exitOK
	}
	return usageError(helpCommand, stderr, "too many arguments")
}
