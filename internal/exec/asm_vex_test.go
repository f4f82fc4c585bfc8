package exec

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// vectorOperand matches an X or Y register operand.
var vectorOperand = regexp.MustCompile(`\b[XY](1[0-5]|[0-9])\b`)

// macroHead matches a macro definition's parameter list.
var macroHead = regexp.MustCompile(`#define\s+\w+\(([^)]*)\)`)

// TestAssemblyIsAllVEX fails on a legacy-SSE instruction (one without the
// V prefix, such as MOVQ AX, X0) touching a vector register in the
// package's assembly. Our routines leave the upper halves of the Y
// registers set until their VZEROUPPER, and on some x86 hosts a legacy
// SSE instruction in that state costs a state transition or a merge with
// the upper half: one MOVQ AX, X0 in the chunk loads' broadcast made
// matmul 10x slower (274 against 28 ms a launch) on a 2-core AMD EPYC VM.
func TestAssemblyIsAllVEX(t *testing.T) {
	files, err := filepath.Glob("*_amd64.s")
	if err != nil || len(files) == 0 {
		t.Fatalf("no assembly found (%v)", err)
	}
	checked := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// macro parameters (EXT in ROWS32N(EXT)) stand for VEX
		// instructions the macro's users pass in; their uses are skipped
		params := map[string]bool{}
		for _, m := range macroHead.FindAllStringSubmatch(string(src), -1) {
			for _, p := range strings.Split(m[1], ",") {
				params[strings.TrimSpace(p)] = true
			}
		}
		for i, line := range strings.Split(string(src), "\n") {
			code, _, _ := strings.Cut(line, "//")
			// a macro's lines end with a backslash and may hold several
			// instructions separated by semicolons
			code = strings.TrimSuffix(strings.TrimSpace(code), "\\")
			for _, inst := range strings.Split(code, ";") {
				fields := strings.Fields(inst)
				if len(fields) < 2 || strings.HasSuffix(fields[0], ":") || fields[0] == "#define" || fields[0] == "TEXT" || fields[0] == "DATA" || fields[0] == "GLOBL" ||
					strings.Contains(fields[0], "(") || params[fields[0]] {
					continue
				}
				if !vectorOperand.MatchString(strings.Join(fields[1:], " ")) {
					continue
				}
				checked++
				if !strings.HasPrefix(fields[0], "V") {
					t.Errorf("%s:%d: legacy SSE instruction on a vector register: %s (use its VEX form)", f, i+1, strings.TrimSpace(inst))
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d vector instructions checked: the scan lost the assembly", checked)
	}
}
