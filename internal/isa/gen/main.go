// Command gen validates the instruction-table spec (internal/isa/spec, format
// in spec/FORMAT.md) and writes it as Go tables.
//
//	go run ./internal/isa/gen -o tables_gen.go DIR     (what go generate runs)
//	go run ./internal/isa/gen -check FILE.spec...      (validate files only)
//
// It exits 1 and prints `file:line: message` for every error it finds.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	isa "github.com/ptxvm/ptxvm/internal/isa/model"
)

func main() {
	out := flag.String("o", "", "write the Go tables to this file")
	check := flag.Bool("check", false, "only validate the given spec files")
	flag.Parse()
	var files []string
	for _, arg := range flag.Args() {
		if st, err := os.Stat(arg); err == nil && st.IsDir() {
			matches, _ := filepath.Glob(filepath.Join(arg, "*.spec"))
			files = append(files, matches...)
		} else {
			files = append(files, arg)
		}
	}
	sort.Strings(files)
	if len(flag.Args()) == 0 {
		fmt.Fprintln(os.Stderr, "usage: gen [-check] [-o file.go] DIR|FILE.spec...")
		os.Exit(2)
	}
	instrs, sregs, dirs, errs := load(files)
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(os.Stderr, e)
		}
		fmt.Fprintf(os.Stderr, "gen: %d errors\n", len(errs))
		os.Exit(1)
	}
	if *check {
		forms := 0
		for _, in := range instrs {
			forms += len(in.Forms)
		}
		fmt.Printf("ok: %d instruction blocks (%d forms), %d special registers, %d directives\n", len(instrs), forms, len(sregs), len(dirs))
		return
	}
	src, err := emit(instrs, sregs, dirs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen: formatting output:", err)
		os.Exit(1)
	}
	if *out == "" {
		os.Stdout.Write(src)
		return
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// load reads and validates every file.
func load(files []string) ([]*isa.Instr, []*isa.SpecialReg, []*isa.Directive, errorList) {
	var errs errorList
	var instrs []*isa.Instr
	var sregs []*isa.SpecialReg
	var dirs []*isa.Directive
	seenSreg := map[string]string{}
	seenDir := map[string]string{}
	for _, f := range files {
		for _, b := range readSpec(f, &errs) {
			where := fmt.Sprintf("%s:%d", b.file, b.line)
			switch b.kind {
			case "instr":
				instrs = append(instrs, buildInstr(b, &errs))
			case "sreg":
				if prev, dup := seenSreg[b.name]; dup {
					errs.add(b.file, b.line, "special register %s already described at %s", b.name, prev)
				}
				seenSreg[b.name] = where
				sregs = append(sregs, buildSreg(b, &errs))
			case "directive":
				if prev, dup := seenDir[b.name]; dup {
					errs.add(b.file, b.line, "directive %s already described at %s", b.name, prev)
				}
				seenDir[b.name] = where
				dirs = append(dirs, buildDirective(b, &errs))
			}
		}
	}
	return instrs, sregs, dirs, errs
}
