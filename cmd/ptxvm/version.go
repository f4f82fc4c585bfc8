package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

var versionCommand = &command{
	name:    "version",
	summary: "print the ptxvm version",
	usage:   "version",
	doc: `Version prints the version of ptxvm (the module version, or the VCS revision
of a build from a clone), the Go version that built it, and the platform.
`,
}

func runVersion(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
			printCommandHelp(stdout, versionCommand)
			return exitOK
		}
		return usageError(versionCommand, stderr, "unexpected argument %q", args[0])
	}
	fmt.Fprintf(stdout, "ptxvm %s %s %s/%s\n", buildVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return exitOK
}

// buildVersion is the main module's version as the go command stamped it:
// a release tag, a pseudo-version derived from the VCS revision, or
// "(devel)"; for "(devel)" the revision is added when the build recorded it.
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	if v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += " " + rev + modified
	}
	return v
}
