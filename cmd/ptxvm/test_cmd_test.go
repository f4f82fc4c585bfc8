package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// saxpyCase is a case file for examples/saxpy.ptx (copied next to it as
// saxpy.ptx) with y's expected contents given by EXPECTED.
const saxpyCase = `{
  "format": "ptxvm-case/1",
  "case": "NAME",
  "ptx": "saxpy.ptx",
  "kernel": "saxpy",
  "grid": [1, 1, 1],
  "block": [8, 1, 1],
  "params": [
    {"kind": "u32", "value": 6},
    {"kind": "f32", "value": 2.5},
    {"kind": "ptr", "buffer": "x"},
    {"kind": "ptr", "buffer": "y"}
  ],
  "buffers": [
    {"name": "x", "type": "f32", "count": 6, "output": false, "init": [1, 2, 3, 4, "nan", -1.5]},
    {"name": "y", "type": "f32", "count": 6, "init": [0.5, 1, 0, -10, 7, 0.25],
     "expected": EXPECTED}
  ]
}
`

// saxpyWant is y after the launch: 2.5*x + y.
const saxpyWant = `[3, 6, 7.5, 0, "nan", -3.5]`

// oobCase stores past the end of its buffer and expects the fault.
const oobCase = `{
  "format": "ptxvm-case/1",
  "case": "oob",
  "ptx_text": ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry oob(.param .u64 p)\n{\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tst.global.u32 [%rd2], 1;\n\tret;\n}\n",
  "kernel": "oob",
  "grid": [1, 1, 1],
  "block": [1, 1, 1],
  "params": [{"kind": "ptr", "buffer": "a", "offset": 16}],
  "buffers": [{"name": "a", "type": "u32", "count": 4, "output": false}],
  "expect_error": "EXPECT"
}
`

// helloPTX prints "hi <tid>" from each thread with the CUDA printf ABI.
const helloPTX = `.version 7.0
.target sm_70
.address_size 64

.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.global .align 1 .b8 fmt[7] = {104, 105, 32, 37, 100, 10, 0};

.visible .entry hello()
{
	.local .align 8 .b8 __local_depot0[8];
	.reg .b32 %r<3>;
	.reg .b64 %rd<6>;

	mov.u64 %rd1, __local_depot0;
	cvta.local.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	st.local.u32 [%rd1], %r1;
	mov.u64 %rd3, fmt;
	cvta.global.u64 %rd4, %rd3;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd4;
	.param .b64 param1;
	st.param.b64 [param1], %rd2;
	.param .b32 retval0;
	call.uni (retval0), vprintf, (param0, param1);
	ld.param.b32 %r2, [retval0];
	}
	ret;
}
`

// caseDir writes the test cases to a new directory:
//
//	saxpy.ptx            examples/saxpy.ptx
//	pass.json            saxpy, passes
//	fail.json            saxpy, y[2] expected wrong
//	err.json             an out-of-bounds store, expected
//	errwrong.json        the same, expecting a different error
//	two/both.json        saxpy on two modules (../saxpy.ptx and saxpy2.ptx)
//	bad/bad.json         malformed: no kernel
//	hello.ptx, hello.json  device printf
func caseDir(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "saxpy.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	saxpy := func(name, expected string) string {
		return strings.NewReplacer("NAME", name, "EXPECTED", expected).Replace(saxpyCase)
	}
	both := strings.Replace(saxpy("both", saxpyWant), `"ptx": "saxpy.ptx"`, `"ptx": ["../saxpy.ptx", "saxpy2.ptx"]`, 1)
	return writeFiles(t, map[string]string{
		"saxpy.ptx":      string(src),
		"two/saxpy2.ptx": string(src),
		"pass.json":      saxpy("saxpy_pass", saxpyWant),
		"fail.json":      saxpy("saxpy_fail", `[3, 6, 7.25, 0, "nan", -3.5]`),
		"err.json":       strings.Replace(oobCase, "EXPECT", "out of bounds", 1),
		"errwrong.json":  strings.Replace(oobCase, "EXPECT", "misaligned", 1),
		"two/both.json":  both,
		"bad/bad.json":   strings.Replace(saxpy("bad", saxpyWant), `"kernel": "saxpy",`, "", 1),
		"hello.ptx":      helloPTX,
		"hello.json": `{"format": "ptxvm-case/1", "ptx": "hello.ptx", "kernel": "hello",
			"grid": [1, 1, 1], "block": [2, 1, 1], "params": [], "buffers": []}`,
	})
}

func TestTestCommand(t *testing.T) {
	dir := caseDir(t)
	p := func(name string) string { return filepath.Join(dir, filepath.FromSlash(name)) }
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // the lines of stdout (see matchLines)
		stderr string   // substring of stderr; "" means empty
	}{
		{name: "pass", args: []string{p("pass.json")}, code: exitOK,
			stdout: []string{"PASS saxpy_pass [saxpy.ptx]", "1 passed, 0 failed"}},
		{name: "fail", args: []string{p("pass.json"), p("fail.json")}, code: exitErrors,
			stdout: []string{
				"PASS saxpy_pass [saxpy.ptx]",
				"FAIL saxpy_fail [saxpy.ptx]: buffer y[2]: got 0x40f00000 want 0x40e80000",
				"1 passed, 1 failed",
			}},
		{name: "expect_error", args: []string{p("err.json")}, code: exitOK,
			stdout: []string{"PASS oob [ptx_text]", "1 passed, 0 failed"}},
		{name: "wrong error", args: []string{"-workers", "1", p("errwrong.json")}, code: exitErrors,
			stdout: []string{`FAIL oob [ptx_text]: error "out of bounds: kernel oob, CTA (0,0,0), thread (0,0,0), st.global.u32 at ptx_text:9:2...`,
				"0 passed, 1 failed"}},
		{name: "two modules", args: []string{p("two/both.json")}, code: exitOK,
			stdout: []string{"PASS both [../saxpy.ptx]", "PASS both [saxpy2.ptx]", "2 passed, 0 failed"}},
		{name: "malformed", args: []string{p("bad/bad.json"), p("pass.json")}, code: exitUsage,
			stdout: []string{"FAIL " + p("bad/bad.json") + ": invalid case file", "PASS saxpy_pass [saxpy.ptx]", "1 passed, 1 failed"},
			stderr: p("bad/bad.json") + ": kernel: missing"},
		{name: "missing file", args: []string{p("nope.json")}, code: exitErrors,
			stdout: []string{"FAIL " + p("nope.json") + ": cannot read", "0 passed, 1 failed"},
			stderr: "no such file"},
		{name: "directory", args: []string{p("two"), p("err.json")}, code: exitOK,
			stdout: []string{"PASS both [../saxpy.ptx]", "PASS both [saxpy2.ptx]", "PASS oob [ptx_text]", "3 passed, 0 failed"}},
		{name: "printf discarded", args: []string{p("hello.json")}, code: exitOK,
			stdout: []string{"PASS hello [hello.ptx]", "1 passed, 0 failed"}},
		{name: "printf -v", args: []string{"-v", "-workers", "1", p("hello.json")}, code: exitOK,
			stdout: []string{"hi 0", "hi 1", "PASS hello [hello.ptx]", "1 passed, 0 failed"}},
		{name: "no args", args: nil, code: exitUsage, stderr: "no case files given"},
		{name: "empty dir", args: []string{t.TempDir()}, code: exitUsage, stderr: "no *.json case files"},
		{name: "negative workers", args: []string{"-workers", "-1", p("pass.json")}, code: exitUsage, stderr: "must not be negative"},
		{name: "bad flag", args: []string{"-frob", p("pass.json")}, code: exitUsage, stderr: "usage: ptxvm test"},
		{name: "help", args: []string{"-h"}, code: exitOK, stdout: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := ptxvm(t, "", append([]string{"test"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			if tt.name == "help" {
				if !strings.HasPrefix(stdout, "usage: ptxvm test") {
					t.Errorf("help: %q", stdout)
				}
				return
			}
			var lines []string
			if stdout != "" {
				lines = strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			}
			if !matchLines(lines, tt.stdout) {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout, strings.Join(tt.stdout, "\n"))
			}
			if tt.stderr == "" && stderr != "" || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q, want %q", stderr, tt.stderr)
			}
		})
	}
}

// The committed example case files pass.
func TestTestExamples(t *testing.T) {
	code, stdout, stderr := ptxvm(t, "", "test", filepath.Join("..", "..", "internal", "casefile", "testdata", "saxpy.json"))
	if code != exitOK || !strings.HasSuffix(stdout, "1 passed, 0 failed\n") {
		t.Errorf("code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// matchLines reports whether got are the lines want, where a want line
// ending in "..." only needs to be a prefix of its got line (for engine
// details that may change, such as a fault's address).
func matchLines(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i, w := range want {
		if p, ok := strings.CutSuffix(w, "..."); ok {
			if !strings.HasPrefix(got[i], p) {
				return false
			}
		} else if got[i] != w {
			return false
		}
	}
	return true
}
