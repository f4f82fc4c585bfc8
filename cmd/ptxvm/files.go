package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptxvm/ptxvm/ptx"
)

// stdinName is the file name that diagnostics use for standard input ("-").
const stdinName = "<stdin>"

// preprocessFlags are the -I and -D flags shared by check and fmt.
type preprocessFlags struct {
	includes stringList
	defines  defineMap
}

func (p *preprocessFlags) register(fs *flag.FlagSet) {
	fs.Var(&p.includes, "I", "search `dir` for #include files, after the including file's directory (repeatable)")
	fs.Var(&p.defines, "D", "define the macro `name[=value]`; the value defaults to 1 (repeatable)")
}

// parseOptions returns the ParseOptions the flags describe.
func (p *preprocessFlags) parseOptions() *ptx.ParseOptions {
	return &ptx.ParseOptions{IncludePaths: p.includes, Defines: p.defines}
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// defineMap is the repeatable -D NAME[=VALUE] flag.
type defineMap map[string]string

func (m *defineMap) String() string {
	var parts []string
	for k, v := range *m {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, ",")
}

func (m *defineMap) Set(s string) error {
	name, value, found := strings.Cut(s, "=")
	if !found {
		value = "1" // as in cc -DNAME
	}
	if !isMacroName(name) {
		return fmt.Errorf("invalid macro name %q", name)
	}
	if *m == nil {
		*m = defineMap{}
	}
	(*m)[name] = value
	return nil
}

func isMacroName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		letter := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// expandFiles turns file arguments into the list of files to process: a
// directory stands for every *.ptx file below it, in lexical order; "-"
// (standard input) and other names are kept as given, so that a missing file
// is reported when it is read. Directories that cannot be walked are returned
// as errors; the walk goes on.
func expandFiles(args []string) (files []string, errs []error) {
	for _, arg := range args {
		if arg == "-" {
			files = append(files, arg)
			continue
		}
		info, err := os.Stat(arg)
		if err != nil || !info.IsDir() {
			files = append(files, arg)
			continue
		}
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".ptx") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	return files, errs
}

// displayName is how diagnostics name the file argument arg.
func displayName(arg string) string {
	if arg == "-" {
		return stdinName
	}
	return arg
}

// readInput reads the file argument arg ("-" is standard input).
func readInput(arg string, stdin io.Reader) ([]byte, error) {
	if arg == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(arg)
}

// report prints err for the file name to w, one `file:line:col: severity:
// message` line per diagnostic, and reports whether it contained an error
// (as opposed to warnings only).
func report(w io.Writer, name string, err error) (isError bool) {
	var list ptx.DiagnosticList
	var diag *ptx.Diagnostic
	var pathErr *fs.PathError
	switch {
	case errors.As(err, &list):
		for _, d := range list {
			fmt.Fprintln(w, d.Error())
		}
		return list.HasErrors()
	case errors.As(err, &diag):
		fmt.Fprintln(w, diag.Error())
		return diag.Severity == ptx.SeverityError
	case errors.As(err, &pathErr):
		// "open x.ptx: no such file or directory" -> "x.ptx: error: no such file or directory"
		fmt.Fprintf(w, "%s: error: %v\n", pathErr.Path, pathErr.Err)
	default:
		fmt.Fprintf(w, "%s: error: %v\n", name, err)
	}
	return true
}
