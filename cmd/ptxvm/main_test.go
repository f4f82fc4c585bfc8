package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// validPTX is a small complete module: a kernel with a parameter, a guarded
// branch and memory accesses.
const validPTX = `// add one to every element
.version 7.0
.target sm_70
.address_size 64

.visible .entry inc(.param .u64 p, .param .u32 n)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;

	mov.u32 %r1, %tid.x;
	ld.param.u32 %r2, [n];
	setp.ge.u32 %p1, %r1, %r2;
	@%p1 bra DONE;
	ld.param.u64 %rd1, [p];
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	ld.global.u32 %r3, [%rd3];
	add.u32 %r3, %r3, 1;
	st.global.u32 [%rd3], %r3;
DONE:
	ret;
}
`

// missingSemicolonPTX lacks the ';' after the mov on line 7.
const missingSemicolonPTX = `.version 7.0
.target sm_70

.entry k()
{
	.reg .b32 %r<2>;
	mov.u32 %r1, 1
	ret;
}
`

// twoErrorsPTX has independent errors on lines 3 and 8.
const twoErrorsPTX = `.version 7.0
.target sm_70
bogus words here;

.entry k()
{
	.reg .b32 %r<2>;
	add.u32 %r1, , %r1;
	ret;
}
`

// diagLine matches one diagnostic: file:line:col: error: message.
var diagLine = regexp.MustCompile(`^(.+):(\d+):(\d+): error: \S.*$`)

// ptxvm runs the CLI in-process with the given standard input.
func ptxvm(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// writeFiles creates files (name -> content) under a new temporary
// directory and returns the directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// diagnostics returns the lines of stderr, failing unless each is a
// well-formed error diagnostic.
func diagnostics(t *testing.T, stderr string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	if stderr == "" {
		lines = nil
	}
	for _, l := range lines {
		if !diagLine.MatchString(l) {
			t.Errorf("not a file:line:col: error: diagnostic: %q", l)
		}
	}
	return lines
}

func TestDispatch(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string // substring expected on stdout ("" = must be empty)
		stderr     string // substring expected on stderr ("" = must be empty)
		stdoutSome bool   // stdout may hold anything when stdout is ""
	}{
		{name: "no args", args: nil, code: exitUsage, stderr: "ptxvm <command>"},
		{name: "unknown command", args: []string{"frobnicate"}, code: exitUsage, stderr: `unknown command "frobnicate"`},
		{name: "help", args: []string{"help"}, code: exitOK, stdout: "ptxvm help <command>"},
		{name: "-h", args: []string{"-h"}, code: exitOK, stdout: "The commands are"},
		{name: "--help", args: []string{"--help"}, code: exitOK, stdout: "The commands are"},
		{name: "help check", args: []string{"help", "check"}, code: exitOK, stdout: "usage: ptxvm check"},
		{name: "help fmt", args: []string{"help", "fmt"}, code: exitOK, stdout: "-w\t"},
		{name: "help version", args: []string{"help", "version"}, code: exitOK, stdout: "usage: ptxvm version"},
		{name: "help unknown", args: []string{"help", "frob"}, code: exitUsage, stderr: `unknown command "frob"`},
		{name: "help too many", args: []string{"help", "check", "fmt"}, code: exitUsage, stderr: "too many arguments"},
		{name: "check -h", args: []string{"check", "-h"}, code: exitOK, stdout: "usage: ptxvm check"},
		{name: "fmt -help", args: []string{"fmt", "-help"}, code: exitOK, stdout: "usage: ptxvm fmt"},
		{name: "check bad flag", args: []string{"check", "-frob", "x.ptx"}, code: exitUsage, stderr: "flag provided but not defined: -frob"},
		{name: "fmt bad flag", args: []string{"fmt", "-q", "x.ptx"}, code: exitUsage, stderr: "usage: ptxvm fmt"},
		{name: "check no files", args: []string{"check"}, code: exitUsage, stderr: "no files given"},
		{name: "fmt no files", args: []string{"fmt", "-l"}, code: exitUsage, stderr: "no files given"},
		{name: "fmt -w stdin", args: []string{"fmt", "-w", "-"}, code: exitUsage, stderr: "cannot use -w with standard input"},
		{name: "bad define", args: []string{"check", "-D", "1X=2", "x.ptx"}, code: exitUsage, stderr: `invalid macro name "1X"`},
		{name: "version", args: []string{"version"}, code: exitOK, stdout: "ptxvm "},
		{name: "--version", args: []string{"--version"}, code: exitOK, stdout: "ptxvm "},
		{name: "version extra", args: []string{"version", "x"}, code: exitUsage, stderr: `unexpected argument "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := ptxvm(t, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			check := func(stream, got, want string) {
				if want == "" && got != "" {
					t.Errorf("unexpected %s: %q", stream, got)
				}
				if !strings.Contains(got, want) {
					t.Errorf("%s does not contain %q:\n%s", stream, want, got)
				}
			}
			check("stdout", stdout, tt.stdout)
			check("stderr", stderr, tt.stderr)
		})
	}
}

// Every command is listed by "ptxvm help" and has a help page.
func TestHelpCoversCommands(t *testing.T) {
	_, list, _ := ptxvm(t, "", "help")
	for _, c := range commands {
		if !strings.Contains(list, "\t"+c.name+" ") {
			t.Errorf("ptxvm help does not list %s", c.name)
		}
		code, page, _ := ptxvm(t, "", "help", c.name)
		if code != exitOK || !strings.HasPrefix(page, "usage: ptxvm "+c.name) {
			t.Errorf("ptxvm help %s: code %d, page %q", c.name, code, page)
		}
	}
}

func TestSplitJoinedFlags(t *testing.T) {
	tests := []struct{ in, want []string }{
		{nil, nil},
		{[]string{"-Iinc", "a.ptx"}, []string{"-I", "inc", "a.ptx"}},
		{[]string{"-DN=4", "-DFOO", "-"}, []string{"-D", "N=4", "-D", "FOO", "-"}},
		{[]string{"--Iinc"}, []string{"-I", "inc"}},
		{[]string{"-I", "-Dweird", "a.ptx"}, []string{"-I", "-Dweird", "a.ptx"}}, // a value is left alone
		{[]string{"-D=X", "-w"}, []string{"-D=X", "-w"}},                         // already flag=value
		{[]string{"a.ptx", "-Iinc"}, []string{"a.ptx", "-Iinc"}},                 // flags end at the first file
		{[]string{"-l", "--", "-Dfile.ptx"}, []string{"-l", "--", "-Dfile.ptx"}}, // and at --
	}
	for _, tt := range tests {
		if got := splitJoinedFlags(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitJoinedFlags(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDefineFlag(t *testing.T) {
	var m defineMap
	for _, s := range []string{"A", "B=2", "C=", "D=x=y", "_e9=1"} {
		if err := m.Set(s); err != nil {
			t.Fatalf("Set(%q): %v", s, err)
		}
	}
	want := defineMap{"A": "1", "B": "2", "C": "", "D": "x=y", "_e9": "1"}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got %v, want %v", m, want)
	}
	for _, bad := range []string{"", "=1", "9A", "A-B=1", "A B"} {
		if err := m.Set(bad); err == nil {
			t.Errorf("Set(%q) succeeded, want an error", bad)
		}
	}
}
