package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ptxvm/ptxvm/ptx"
)

var fmtCommand = &command{
	name:    "fmt",
	summary: "print PTX files in canonical format, or rewrite them (-w)",
	usage:   "fmt [-l] [-w] [-d] [-I dir] [-D name[=value]] FILE...",
	doc: `Fmt parses each FILE and prints it in the canonical PTX format of
ptx.Format: one statement per line, instructions indented by a tab,
canonical spacing, comments kept. Output for several files is concatenated.
Formatting is idempotent: formatting formatted text changes nothing.

With -w, -l or -d the formatted text is not printed; instead

	-w  rewrites each file whose formatting differs, in place. The new text
	    goes to a temporary file in the same directory that is then renamed
	    over the original, so an interrupted run never leaves a truncated
	    file; a symbolic link is followed, not replaced.
	-l  prints the name of each file whose formatting differs.
	-d  prints a unified diff from each file to its formatted text.

A file with syntax errors is never formatted or rewritten: its diagnostics
are printed (file:line:col: error: message) and the exit status is 1.
Preprocessor directives (#include, #define, #if, ...) are expanded while
parsing, so -w refuses to rewrite a file that uses them; print it instead.

A FILE of "-" reads standard input (not with -w); a directory stands for
every *.ptx file below it.

Exit status: 0 on success (also when -l lists files), 1 if any file has
errors or cannot be read or written, 2 on a usage error.
`,
	flags: func(fs *flag.FlagSet) { new(fmtConfig).register(fs) },
}

type fmtConfig struct {
	pre   preprocessFlags
	write bool
	list  bool
	diff  bool
}

func (c *fmtConfig) register(fs *flag.FlagSet) {
	fs.BoolVar(&c.diff, "d", false, "print a unified diff of the formatting changes instead of the formatted text")
	fs.BoolVar(&c.list, "l", false, "list files whose formatting differs from ptxvm fmt's")
	fs.BoolVar(&c.write, "w", false, "write the result to (the source) file instead of standard output")
	c.pre.register(fs)
}

func runFmt(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var cfg fmtConfig
	fs := flag.NewFlagSet("fmt", flag.ContinueOnError)
	cfg.register(fs)
	args, code, ok := parseFlags(fmtCommand, fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(args) == 0 {
		return usageError(fmtCommand, stderr, "no files given (use - for standard input)")
	}
	for _, a := range args {
		if a == "-" && cfg.write {
			return usageError(fmtCommand, stderr, "cannot use -w with standard input")
		}
	}

	files, walkErrs := expandFiles(args)
	failed := false
	for _, err := range walkErrs {
		report(stderr, "", err)
		failed = true
	}
	for _, arg := range files {
		if !formatFile(&cfg, arg, stdin, stdout, stderr) {
			failed = true
		}
	}
	if failed {
		return exitErrors
	}
	return exitOK
}

// formatFile formats one file argument as cfg says and reports success.
func formatFile(cfg *fmtConfig, arg string, stdin io.Reader, stdout, stderr io.Writer) bool {
	name := displayName(arg)
	src, err := readInput(arg, stdin)
	if err != nil {
		report(stderr, name, err)
		return false
	}
	m, err := ptx.Parse(name, src, cfg.pre.parseOptions())
	if err != nil && report(stderr, name, err) {
		return false
	}
	out := ptx.Format(m)

	// The printer must produce PTX that parses; check before anything is
	// written so that a printer bug can never replace a valid file with an
	// invalid one. The output is already preprocessed: parse it plainly.
	if _, err := ptx.Parse(name+" (formatted)", out, &ptx.ParseOptions{DiscardComments: true}); err != nil {
		fmt.Fprintf(stderr, "%s: error: internal error: the formatted text does not parse (please report this bug; the file was not changed):\n", name)
		report(stderr, name, err)
		return false
	}

	if !cfg.write && !cfg.list && !cfg.diff {
		if _, err := stdout.Write(out); err != nil {
			fmt.Fprintf(stderr, "ptxvm fmt: %v\n", err)
			return false
		}
		return true
	}
	if bytes.Equal(src, out) {
		return true
	}
	if cfg.list {
		fmt.Fprintln(stdout, name)
	}
	if cfg.diff {
		writeUnifiedDiff(stdout, name+".orig", name, src, out)
	}
	if cfg.write {
		if usesPreprocessor(src) {
			fmt.Fprintf(stderr, "%s: error: not rewritten: the file uses preprocessor directives, which formatting would expand\n", name)
			return false
		}
		if err := replaceFile(arg, out); err != nil {
			report(stderr, name, err)
			return false
		}
	}
	return true
}

// replaceFile atomically replaces the contents of the file at path (following
// symbolic links) with data, keeping its permission bits: it writes a
// temporary file next to the target and renames it over the target.
func replaceFile(path string, data []byte) (err error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	info, err := os.Stat(target)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".ptxvm-fmt-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(info.Mode().Perm()); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), target)
}

// usesPreprocessor reports whether src has a preprocessor line: a '#' that
// is the first non-blank character of a line, outside comments and strings
// (the same rule as the lexer's).
func usesPreprocessor(src []byte) bool {
	lineStart := true
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			continue
		case c == '#' && lineStart:
			return true
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
			continue // lineStart is set again by the newline
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			// A block comment counts as blank space, like in C; a newline
			// inside it starts a line.
			for i += 2; i < len(src) && !(src[i] == '*' && i+1 < len(src) && src[i+1] == '/'); i++ {
				if src[i] == '\n' {
					lineStart = true
				}
			}
			i++ // at the '/' of "*/"
			continue
		case c == '"':
			// Stop before a newline: an unterminated string ends there.
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
				if src[i] == '"' {
					break
				}
				if src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n' {
					i++
				}
			}
		}
		lineStart = false
	}
	return false
}
