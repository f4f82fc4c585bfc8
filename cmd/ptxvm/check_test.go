package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ok.ptx":       validPTX,
		"ok2.ptx":      validPTX,
		"semi.ptx":     missingSemicolonPTX,
		"two.ptx":      twoErrorsPTX,
		"inc/defs.ptx": ".version 7.0\n.target sm_70\n",
		"include.ptx":  "#include \"defs.ptx\"\n.entry k()\n{\n\tret;\n}\n",
		"define.ptx":   ".version VERSION\n.target sm_70\n.entry k()\n{\n\t.reg .b32 %r<COUNT>;\n\tmov.u32 %r1, 1;\n\tret;\n}\n",
		"ifdef.ptx":    ".version 7.0\n.target sm_70\n#ifdef BROKEN\nthis is not PTX\n#endif\n.entry k()\n{\n\tret;\n}\n",
		"tree/a.ptx":   validPTX,
		"tree/b/c.ptx": missingSemicolonPTX,
		"tree/notes":   "not PTX, and not named *.ptx",
	})
	p := func(name string) string { return filepath.Join(dir, filepath.FromSlash(name)) }

	tests := []struct {
		name  string
		args  []string
		stdin string
		code  int
		// diagFiles are the files named by the diagnostics, in order, one
		// entry per file (a file may have several diagnostics).
		diagFiles []string
		stdout    string // substring of stdout; "" means stdout must be empty
	}{
		{name: "valid", args: []string{p("ok.ptx")}, code: exitOK},
		{name: "valid files", args: []string{p("ok.ptx"), p("ok2.ptx")}, code: exitOK},
		{name: "verbose", args: []string{"-v", p("ok.ptx")}, code: exitOK,
			stdout: p("ok.ptx") + ": ok (PTX 7.0, sm_70, 1 kernel, 0 functions, 11 instructions)"},
		{name: "missing semicolon", args: []string{p("semi.ptx")}, code: exitErrors, diagFiles: []string{p("semi.ptx")}},
		{name: "all files reported", args: []string{p("semi.ptx"), p("ok.ptx"), p("two.ptx")}, code: exitErrors,
			diagFiles: []string{p("semi.ptx"), p("two.ptx")}},
		{name: "missing file", args: []string{p("nosuch.ptx"), p("semi.ptx")}, code: exitErrors,
			diagFiles: []string{p("nosuch.ptx"), p("semi.ptx")}},
		{name: "stdin valid", args: []string{"-"}, stdin: validPTX, code: exitOK},
		{name: "stdin error", args: []string{"-"}, stdin: missingSemicolonPTX, code: exitErrors, diagFiles: []string{"<stdin>"}},
		{name: "include without -I", args: []string{p("include.ptx")}, code: exitErrors, diagFiles: []string{p("include.ptx")}},
		{name: "include -I", args: []string{"-I", p("inc"), p("include.ptx")}, code: exitOK},
		{name: "include -Idir", args: []string{"-I" + p("inc"), p("include.ptx")}, code: exitOK},
		{name: "define", args: []string{"-D", "COUNT=2", "-DVERSION=7.0", p("define.ptx")}, code: exitOK},
		{name: "define missing", args: []string{"-D", "COUNT=2", p("define.ptx")}, code: exitErrors, diagFiles: []string{p("define.ptx")}},
		{name: "ifdef off", args: []string{p("ifdef.ptx")}, code: exitOK},
		{name: "ifdef on", args: []string{"-DBROKEN", p("ifdef.ptx")}, code: exitErrors, diagFiles: []string{p("ifdef.ptx")}},
		{name: "directory", args: []string{p("tree")}, code: exitErrors, diagFiles: []string{p("tree/b/c.ptx")}},
		{name: "directory verbose", args: []string{"-v", p("tree")}, code: exitErrors,
			diagFiles: []string{p("tree/b/c.ptx")}, stdout: p("tree/a.ptx") + ": ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := ptxvm(t, tt.stdin, append([]string{"check"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\nstderr:\n%s", code, tt.code, stderr)
			}
			if tt.stdout == "" && stdout != "" || !strings.Contains(stdout, tt.stdout) {
				t.Errorf("stdout = %q, want it to contain %q", stdout, tt.stdout)
			}
			var files []string
			for _, line := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
				if line == "" {
					continue
				}
				// A file that cannot be read has no line:col.
				m := diagLine.FindStringSubmatch(line)
				file, _, found := strings.Cut(line, ": error: ")
				switch {
				case m != nil:
					file = m[1]
				case !found:
					t.Errorf("malformed diagnostic %q", line)
					continue
				}
				if len(files) == 0 || files[len(files)-1] != file {
					files = append(files, file)
				}
			}
			if strings.Join(files, "\n") != strings.Join(tt.diagFiles, "\n") {
				t.Errorf("diagnostics name files %q, want %q\nstderr:\n%s", files, tt.diagFiles, stderr)
			}
		})
	}
}

// The diagnostics of a file are positioned, and every independent error of
// a file is reported in one run.
func TestCheckDiagnostics(t *testing.T) {
	dir := writeFiles(t, map[string]string{"semi.ptx": missingSemicolonPTX, "two.ptx": twoErrorsPTX})

	_, _, stderr := ptxvm(t, "", "check", filepath.Join(dir, "semi.ptx"))
	diags := diagnostics(t, stderr)
	if len(diags) == 0 {
		t.Fatal("no diagnostic for a missing semicolon")
	}
	// The error is noticed at the end of line 7 or at the next token.
	if m := diagLine.FindStringSubmatch(diags[0]); m != nil && m[2] != "7" && m[2] != "8" {
		t.Errorf("missing semicolon on line 7 reported as %q", diags[0])
	}

	_, _, stderr = ptxvm(t, "", "check", filepath.Join(dir, "two.ptx"))
	lines := map[string]bool{}
	for _, d := range diagnostics(t, stderr) {
		if m := diagLine.FindStringSubmatch(d); m != nil {
			lines[m[2]] = true
		}
	}
	if !lines["3"] || !lines["8"] {
		t.Errorf("want errors on lines 3 and 8, got:\n%s", stderr)
	}

	// A missing file: "name: error: reason".
	missing := filepath.Join(dir, "nosuch.ptx")
	code, _, stderr := ptxvm(t, "", "check", missing)
	if code != exitErrors || !strings.HasPrefix(stderr, missing+": error: ") {
		t.Errorf("missing file: code %d, stderr %q", code, stderr)
	}
}

// The bundled example must stay valid.
func TestCheckExamples(t *testing.T) {
	code, _, stderr := ptxvm(t, "", "check", "../../examples")
	if code != exitOK {
		t.Errorf("ptxvm check examples: exit code %d\n%s", code, stderr)
	}
}
