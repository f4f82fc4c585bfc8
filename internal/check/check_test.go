package check

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/isa"
	"github.com/ptxvm/ptxvm/ptx"
)

// kernel builds a module with the given header and kernel body.
func kernel(version, target, body string) string {
	return ".version " + version + "\n.target " + target + "\n.address_size 64\n.visible .entry k()\n{\n" + body + "\n}\n"
}

func checkSrc(t *testing.T, src string, opts Options) ptx.DiagnosticList {
	t.Helper()
	m, err := ptx.Parse("t.ptx", []byte(src), nil)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	return Check(m, opts)
}

// errorsOf returns the error messages (not warnings) of ds.
func errorsOf(ds ptx.DiagnosticList) []string {
	var out []string
	for _, d := range ds {
		if d.Severity == ptx.SeverityError {
			out = append(out, d.Msg)
		}
	}
	return out
}

// TestGating: features at exactly the version and target the manual names
// are accepted, one step below rejected with ptxas's message. Expected
// values are from the instructions' PTX ISA Notes / Target ISA Notes in
// ptx-isa-9.0.txt.
func TestGating(t *testing.T) {
	cases := []struct {
		name             string
		body             string
		version, target  string // the minimum the manual gives
		lowVer, lowTgt   string // one step below
		wantVer, wantTgt string // substrings of the two errors
	}{
		{"redux.sync (9.7.13.12)", ".reg .b32 %r<3>;\n\tredux.sync.add.s32 %r1, %r2, 0xffffffff;",
			"7.0", "sm_80", "6.5", "sm_75",
			"Feature 'redux.sync' requires PTX ISA .version 7.0 or later", "Feature 'redux.sync' requires .target sm_80 or higher"},
		{"add.u16x2 (9.7.1.1)", ".reg .b32 %r<3>;\n\tadd.u16x2 %r1, %r2, %r1;",
			"8.0", "sm_90", "7.8", "sm_89",
			"requires PTX ISA .version 8.0 or later", "requires .target sm_90 or higher"},
		{"activemask (9.7.13.11)", ".reg .b32 %r<3>;\n\tactivemask.b32 %r1;",
			"6.2", "sm_30", "6.1", "sm_20",
			"requires PTX ISA .version 6.2 or later", "requires .target sm_30 or higher"},
		{"elect.sync (9.7.13.14)", ".reg .b32 %r<3>;\n\t.reg .pred %p;\n\telect.sync %r1|%p, 0xffffffff;",
			"8.0", "sm_90", "7.8", "sm_89",
			"requires PTX ISA .version 8.0 or later", "requires .target sm_90 or higher"},
		{"setmaxnreg (9.7.19.5)", "setmaxnreg.inc.sync.aligned.u32 240;",
			"8.0", "sm_90a", "7.8", "sm_90",
			"requires PTX ISA .version 8.0 or later", "requires .target sm_90a"},
		{"dp4a (9.7.1.23)", ".reg .b32 %r<4>;\n\tdp4a.u32.u32 %r1, %r2, %r3, %r1;",
			"5.0", "sm_61", "4.3", "sm_60",
			"requires PTX ISA .version 5.0 or later", "requires .target sm_61 or higher"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if errs := errorsOf(checkSrc(t, kernel(c.version, c.target, c.body), Options{})); len(errs) > 0 {
				t.Errorf("at the minimum (%s, %s): %q", c.version, c.target, errs)
			}
			errs := strings.Join(errorsOf(checkSrc(t, kernel(c.lowVer, c.target, c.body), Options{})), "\n")
			if !strings.Contains(errs, c.wantVer) {
				t.Errorf(".version %s: got %q, want %q", c.lowVer, errs, c.wantVer)
			}
			errs = strings.Join(errorsOf(checkSrc(t, kernel(c.version, c.lowTgt, c.body), Options{})), "\n")
			if !strings.Contains(errs, c.wantTgt) {
				t.Errorf(".target %s: got %q, want %q", c.lowTgt, errs, c.wantTgt)
			}
		})
	}
}

// TestArchOption: -arch gates features against the given device.
func TestArchOption(t *testing.T) {
	src := kernel("7.0", "sm_70", ".reg .b32 %r<3>;\n\tadd.s32 %r1, %r2, %r1;")
	if errs := errorsOf(checkSrc(t, src, Options{Arch: "sm_80"})); len(errs) > 0 {
		t.Errorf("sm_70 code for sm_80: %q", errs)
	}
	if errs := errorsOf(checkSrc(t, src, Options{Arch: "sm_60"})); len(errs) == 0 {
		t.Errorf("sm_70 code for sm_60: no error")
	}
	src = kernel("7.0", "sm_80", ".reg .b32 %r<3>;\n\tredux.sync.add.s32 %r1, %r2, 0xffffffff;")
	if errs := strings.Join(errorsOf(checkSrc(t, src, Options{Arch: "sm_75"})), "\n"); !strings.Contains(errs, "requires .target sm_80") {
		t.Errorf("redux.sync for sm_75: %q", errs)
	}
}

func TestHeader(t *testing.T) {
	cases := []struct{ src, want string }{
		{".target sm_70\n", "must begin with a .version"},
		{".version 9.3\n.target sm_90\n", "unsupported .version 9.3"},
		{".version 10.0\n.target sm_90\n", "unsupported .version 10.0"},
		{".version 6.6\n.target sm_70\n", "unknown PTX ISA .version 6.6"},
		{".version 7.0\n", "must have a .target"},
		{".version 7.0\n.target sm_99\n", "unknown target 'sm_99'"},
		{".version 7.0\n.target sm_90\n", "Target 'sm_90' requires PTX ISA .version 7.8 or later"},
		{".version 7.8\n.target sm_90a\n", "Target 'sm_90a' requires PTX ISA .version 8.0 or later"},
		{".version 7.0\n.target sm_70, sm_75\n", "more than one target architecture"},
		{".version 7.0\n.target sm_70, texmode_unified, texmode_independent\n", "only one texturing mode"},
		{".version 2.2\n.target sm_20\n.address_size 64\n", "'.address_size' requires PTX ISA .version 2.3"},
		{".version 7.0\n.target sm_70\n.address_size 48\n", ".address_size must be 32 or 64"},
	}
	for _, c := range cases {
		errs := strings.Join(errorsOf(checkSrc(t, c.src, Options{})), "\n")
		if !strings.Contains(errs, c.want) {
			t.Errorf("%q: got %q, want %q", c.src, errs, c.want)
		}
	}
	if errs := errorsOf(checkSrc(t, ".version 9.2\n.target sm_100f\n.address_size 64\n", Options{})); len(errs) > 0 {
		t.Errorf("valid header: %q", errs)
	}
}

func TestInstructionForms(t *testing.T) {
	cases := []struct{ body, want string }{
		{".reg .b32 %r<3>;\n\tfrobnicate.b32 %r1, %r2;", "unknown instruction 'frobnicate'"},
		{".reg .b32 %r<3>;\n\tadd.s33 %r1, %r2, %r1;", "unknown modifier '.s33' for instruction 'add'"},
		{".reg .b32 %r<3>;\n\tadd.s32 %r1, %r2;", "wrong number of operands for 'add.s32' (2 given)"},
		{".reg .b32 %r<3>;\n\tadd.sat.s16 %r1, %r2, %r1;", "invalid combination of modifiers in 'add.sat.s16'"},
		{".reg .b32 %r<3>;\n\t.reg .b64 %rd1;\n\tld.global.u32 %r1, %rd1;", "operands of 'ld.global.u32' do not fit its syntax"},
	}
	for _, c := range cases {
		errs := strings.Join(errorsOf(checkSrc(t, kernel("9.0", "sm_90", c.body), Options{})), "\n")
		if !strings.Contains(errs, c.want) {
			t.Errorf("%q: got %q, want %q", c.body, errs, c.want)
		}
	}
	// add.sat.u32 is new in PTX 9.2 (ptx-isa-9.2-chapters-1-8.txt 1.3).
	errs := strings.Join(errorsOf(checkSrc(t, kernel("9.0", "sm_90", ".reg .b32 %r<3>;\n\tadd.sat.u32 %r1, %r2, %r1;"), Options{})), "\n")
	if !strings.Contains(errs, "requires PTX ISA .version 9.2") {
		t.Errorf("add.sat.u32 at 9.0: %q", errs)
	}
	// Modifier order different from the manual's Syntax line is accepted
	// (the manual's own examples do this, e.g. wmma.load.a.sync.aligned.m16n16k16.row.f16).
	ok := ".reg .b64 %rd<3>;\n\t.reg .b32 %r<3>;\n\tld.v2.global.u32 {%r1, %r2}, [%rd1];"
	if errs := errorsOf(checkSrc(t, kernel("7.0", "sm_70", ok), Options{})); len(errs) > 0 {
		t.Errorf("reordered modifiers: %q", errs)
	}
}

func TestSymbols(t *testing.T) {
	cases := []struct{ body, want string }{
		{".reg .b32 %r<3>;\n\tadd.s32 %r1, %r3, %r1;", "undeclared identifier '%r3'"},
		{".reg .b32 %r<3>;\n\tbra L_missing;", "undeclared label 'L_missing'"},
		{".reg .b32 %r1;\n\t.reg .b32 %r1;", "'%r1' is already declared"},
		{".reg .b32 %r1;\n\t@%p1 add.s32 %r1, %r1, 1;", "undeclared predicate '%p1'"},
		{"L1:\n\tret;\nL1:\n\tret;", "'L1' is already declared"},
		{".reg .b32 %r<2>;\n\t{ .reg .b32 %t; }\n\tadd.s32 %r1, %t, 1;", "undeclared identifier '%t'"},
	}
	for _, c := range cases {
		errs := strings.Join(errorsOf(checkSrc(t, kernel("7.0", "sm_70", c.body), Options{})), "\n")
		if !strings.Contains(errs, c.want) {
			t.Errorf("%q: got %q, want %q", c.body, errs, c.want)
		}
	}
	valid := []string{
		// parameterized names cover %r0..%r99; %r010 would be another name
		".reg .b32 %r<100>;\n\tadd.s32 %r99, %r0, %r42;",
		// labels are function-wide, also from and into nested blocks
		"bra L2;\n\t{ L2: ret; }",
		// special registers and their components
		".reg .b32 %r<2>;\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r0, %laneid;",
		// a name from an enclosing block
		".reg .b32 %r<2>;\n\t{ .reg .b32 %t;\n\tadd.s32 %t, %r1, 1; }",
	}
	for _, body := range valid {
		if errs := errorsOf(checkSrc(t, kernel("7.0", "sm_70", body), Options{})); len(errs) > 0 {
			t.Errorf("%q: %q", body, errs)
		}
	}
}

func TestDeprecatedAndRemoved(t *testing.T) {
	// 9.7.13.8: vote without .sync is deprecated from PTX 6.0 and not
	// supported on sm_70 and higher from PTX 6.4.
	body := ".reg .pred %p<3>;\n\tvote.all.pred %p1, %p2;"
	ds := checkSrc(t, kernel("6.0", "sm_60", body), Options{})
	if ds.HasErrors() || len(ds) == 0 || ds[0].Severity != ptx.SeverityWarning {
		t.Errorf("vote at 6.0/sm_60: want a warning only, got %v", ds)
	}
	if errs := errorsOf(checkSrc(t, kernel("6.4", "sm_70", body), Options{})); len(errs) == 0 {
		t.Errorf("vote at 6.4/sm_70: want an error")
	}
}

// TestCorpusChecks: every valid module of the committed corpora (compiler
// output and hand-written constructs) passes the checker with no error.
func TestCorpusChecks(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../testdata/clang/ptx", "../../testdata/constructs", "../../examples", "../../testdata/diff/ptx", "../../testdata/conformance"} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".ptx") && !strings.Contains(path, "/include/") {
				files = append(files, path)
			}
			return nil
		})
	}
	if len(files) < 400 {
		t.Fatalf("only %d corpus files found", len(files))
	}
	for _, f := range files {
		m, err := ptx.ParseFile(f, &ptx.ParseOptions{IncludePaths: []string{filepath.Dir(f)}, DiscardComments: true})
		if err != nil {
			t.Errorf("%s: parse: %v", f, err)
			continue
		}
		if errs := errorsOf(Check(m, Options{})); len(errs) > 0 {
			t.Errorf("%s: %d errors, first: %s", f, len(errs), errs[0])
		}
	}
}

// TestOperandTypes: register operands against instruction types, 9.4
// Table 26 (exact) and Tables 27/28 (ld, st, cvt may use wider registers).
func TestOperandTypes(t *testing.T) {
	decls := ".reg .b32 %b<3>;\n\t.reg .s32 %r<3>;\n\t.reg .u16 %h<3>;\n\t.reg .f32 %f<3>;\n\t.reg .f64 %fd<3>;\n\t.reg .b64 %rd<3>;\n\t.reg .pred %p<3>;\n\t.shared .u32 sv;\n\t.global .u32 gv;\n\t"
	bad := []struct{ body, want string }{
		{"add.s32 %r1, %rd1, 1;", "register '%rd1' is .b64, operand must be .s32"},
		{"add.f32 %f1, %r1, %f2;", "register '%r1' is .s32, operand must be .f32"},
		{"add.s32 %r1, %f1, %r2;", "register '%f1' is .f32, operand must be .s32"},
		{"mul.wide.s32 %r1, %r1, %r2;", "register '%r1' is .s32, operand must be .s64"},
		{"setp.eq.s32 %r1, %r1, %r2;", "register '%r1' is .s32, operand must be .pred"},
		{"ld.global.f32 %fd1, [%rd1];", "register '%fd1' is .f64, operand must be .f32"},
		{"ld.global.u32 %h1, [%rd1];", "register '%h1' is .u16, operand must be .u32"},
		{"ld.global.u32 %r1, [sv];", "'sv' is a .shared variable, not .global"},
		{"st.shared.u32 [gv+4], %r1;", "'gv' is a .global variable, not .shared"},
	}
	for _, c := range bad {
		errs := strings.Join(errorsOf(checkSrc(t, kernel("7.0", "sm_70", decls+c.body), Options{})), "\n")
		if !strings.Contains(errs, c.want) {
			t.Errorf("%q: got %q, want %q", c.body, errs, c.want)
		}
	}
	good := []string{
		"add.f32 %f1, %b1, %f2;",             // bit-size agrees with any type of its size
		"add.u32 %r1, %r1, %b1;",             // signed and unsigned agree
		"mul.wide.s32 %rd1, %r1, %r2;",       // the destination is twice as wide
		"ld.global.u8 %r1, [%rd1];",          // 9.4.1: wider destination for ld
		"st.global.u16 [%rd1], %r1;",         // and wider source for st
		"cvt.u32.u16 %r1, %h1;",              // cvt types per operand
		"ld.global.v2.f32 {%f1, %f2}, [gv];", // vector elements of the load type
		"ld.u32 %r1, [sv];",                  // generic addressing names any variable
		"setp.eq.s32 %p1|%p2, %r1, %r2;",
		"selp.b32 %r1, %r1, 7, %p1;",
		"shl.b64 %rd1, %rd1, %r1;", // shift amount is .u32
	}
	for _, body := range good {
		if errs := errorsOf(checkSrc(t, kernel("7.0", "sm_70", decls+body), Options{})); len(errs) > 0 {
			t.Errorf("%q: %q", body, errs)
		}
	}
}

// TestInvalidCombination: combinations the manual rules out in prose
// (9.7.1.3: ".wide is supported only for 16- and 32-bit integer types").
func TestInvalidCombination(t *testing.T) {
	body := ".reg .b64 %rd<3>;\n\tmul.wide.u64 %rd1, %rd2, %rd1;"
	errs := strings.Join(errorsOf(checkSrc(t, kernel("7.0", "sm_70", body), Options{})), "\n")
	if !strings.Contains(errs, "invalid use of 'mul.wide.u64'") || !strings.Contains(errs, "16- and 32-bit") {
		t.Errorf("mul.wide.u64: %q", errs)
	}
}

// TestDirectiveGating: directive features from chapter 11's PTX ISA Notes.
func TestDirectiveGating(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{".noreturn needs 6.4 (11.4.6)", ".version 6.3\n.target sm_70\n.func f() .noreturn\n{\n\tret;\n}\n", "requires PTX ISA .version 6.4"},
		{".loc function_name needs 7.2 (11.5.4)", ".version 7.1\n.target sm_80\n.file 1 \"a.cu\"\n.entry k()\n{\n\t.loc 1 2 3, function_name $L__s, inlined_at 1 4 5\n\tret;\n}\n.section .debug_str\n{\n$L__s:\n.b8 0\n}\n", "requires PTX ISA .version 7.2"},
		{".file timestamp needs 3.2 (11.5.3)", ".version 3.1\n.target sm_30\n.file 1 \"a.cu\", 123, 456\n", "requires PTX ISA .version 3.2"},
		{".managed needs sm_30 (5.4.8)", ".version 4.0\n.target sm_20\n.global .attribute(.managed) .u32 g;\n", "requires .target sm_30"},
		{"label inside .section needs 7.2 (11.5.2)", ".version 7.1\n.target sm_80\n.section .debug_str\n{\nL1:\n.b8 0\n}\n", "requires PTX ISA .version 7.2"},
	}
	for _, c := range cases {
		errs := strings.Join(errorsOf(checkSrc(t, c.src, Options{})), "\n")
		if !strings.Contains(errs, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, errs, c.want)
		}
	}
	ok := ".version 7.2\n.target sm_80\n.file 1 \"a.cu\", 123, 456\n.func f() .noreturn\n{\n\tret;\n}\n.section .debug_str\n{\nL1:\n.b8 0\n}\n"
	if errs := errorsOf(checkSrc(t, ok, Options{})); len(errs) > 0 {
		t.Errorf("at the minimum versions: %q", errs)
	}
}

func TestImmediateOperands(t *testing.T) {
	body := ".reg .b32 %r<3>;\n\tadd.s32 5, %r1, %r2;"
	errs := strings.Join(errorsOf(checkSrc(t, kernel("7.0", "sm_70", body), Options{})), "\n")
	if !strings.Contains(errs, "operand 'd' cannot be an immediate") {
		t.Errorf("immediate destination: %q", errs)
	}
	// 4.5: integer constants stand for predicates.
	for _, ok := range []string{".reg .b32 %r<3>;\n\tadd.s32 %r1, %r2, 5;", "bar.sync 0;", "nanosleep.u32 100;",
		".reg .b32 %r<3>;\n\t.reg .pred %p;\n\tsetp.eq.and.u32 %p, %r1, %r2, 1;"} {
		if errs := errorsOf(checkSrc(t, kernel("7.0", "sm_70", ok), Options{})); len(errs) > 0 {
			t.Errorf("%q: %q", ok, errs)
		}
	}
}

// TestOptionalOperandChoice: when some optional operands are left out, each
// choice of the written ones is tried (9.7.9.25.4.1 cp.async.bulk takes
// `{, ctaMask} {, cache-policy}`: one operand may be either).
func TestOptionalOperandChoice(t *testing.T) {
	decls := ".reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n\t.reg .b16 %rs<2>;\n\t"
	for _, body := range []string{
		"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r1], [%rd1], 16, [%r2], %rd2;",
		"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd1], 16, [%r2], %rs1;",
	} {
		if errs := errorsOf(checkSrc(t, kernel("8.0", "sm_90", decls+body), Options{})); len(errs) > 0 {
			t.Errorf("%q: %q", body, errs)
		}
	}
	// a 64-bit register is neither a .b16 ctaMask nor, without .L2::cache_hint, a cache-policy
	bad := "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd1], 16, [%r2], %rd2;"
	if errs := errorsOf(checkSrc(t, kernel("8.0", "sm_90", decls+bad), Options{})); len(errs) == 0 {
		t.Errorf("%q: no error", bad)
	}
}

// TestVariableOperands: a variable's name where a register or constant is
// required is an error; where the form takes an address (mov, cvta) it is not.
func TestVariableOperands(t *testing.T) {
	decls := ".reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n\t.shared .u32 sv;\n\t"
	errs := strings.Join(errorsOf(checkSrc(t, kernel("7.0", "sm_70", decls+"add.s32 %r1, sv, 1;"), Options{})), "\n")
	if !strings.Contains(errs, "'sv' is a .shared variable, operand 'a' must be a register or constant") {
		t.Errorf("add with a variable: %q", errs)
	}
	for _, ok := range []string{"mov.u64 %rd1, sv;", "cvta.shared.u64 %rd1, sv;", "mov.u32 %r1, sv;"} {
		if errs := errorsOf(checkSrc(t, kernel("7.0", "sm_70", decls+ok), Options{})); len(errs) > 0 {
			t.Errorf("%q: %q", ok, errs)
		}
	}
}

// TestGateMemo: gate keeps its findings per opcode, modifiers and form,
// with the questions about operands they depended on. Two mov.u64 with
// the same modifiers, one taking a kernel's address (PTX ISA 3.1, sm_35:
// 9.7.9.1 mov), in either order, for .target sm_30: the one that takes
// the address is reported, on its own line, and the other is not.
func TestGateMemo(t *testing.T) {
	plain := "mov.u64 %rd1, %rd2;"
	addr := "mov.u64 %rd1, k;"
	for _, order := range [][2]string{{plain, addr}, {addr, plain}} {
		src := kernel("3.1", "sm_30", ".reg .b64 %rd<3>;\n\t"+order[0]+"\n\t"+order[1]+"\n\t"+order[0])
		var lines []int
		for _, d := range checkSrc(t, src, Options{}) {
			if d.Severity == ptx.SeverityError {
				if !strings.Contains(d.Msg, "taking the address of a kernel") {
					t.Errorf("%v", d)
				}
				lines = append(lines, d.Pos.Line)
			}
		}
		want := []int{8}
		if order[0] == addr {
			want = []int{7, 9}
		}
		if fmt.Sprint(lines) != fmt.Sprint(want) {
			t.Errorf("%q then %q: errors on lines %v, want %v", order[0], order[1], lines, want)
		}
	}
}

// TestSpecMemo: spec keeps its answers per opcode, modifiers, form and
// name, with the optional operands whose presence they depended on. No
// rule of today's tables asks about presence (FORMAT.md allows it), so
// the block here is made up: d is .u32, or .u64 when c is present.
func TestSpecMemo(t *testing.T) {
	in := &isa.Instr{Opcode: "x", Operands: []isa.OperandRule{
		{Names: []string{"d"}, Type: ".u32"},
		{Names: []string{"d"}, Type: ".u64", When: isa.Cond{{{Value: "c", Operand: true}}}},
	}}
	form := &isa.Form{}
	c := &checker{}
	pin := &ptx.Instruction{Opcode: "x"}
	memos := &formMemos{}
	for _, present := range []bool{false, true, false, true} {
		m := match{memos: memos, instr: in, form: form, present: placeholders{"a"}}
		if present {
			m.present = append(m.present, "c")
		}
		want := ".u32"
		if present {
			want = ".u64"
		}
		if got := c.spec(pin, m, "d").typ; got != want {
			t.Errorf("c present %v: d is %q, want %q", present, got, want)
		}
	}
	// one placeholder, two answers (c absent, c present), each kept once
	if len(memos.specs) != 1 || len(memos.specs[0].memos) != 2 {
		t.Errorf("kept %+v, want one name with two memos", memos.specs)
	}
}

// TestAddressForms: 6.4.1 (Addresses as Operands) lists [var], [reg],
// [reg+immOff], [var+immOff], [immAddr] and var[immOff]; a sum of two
// names, or any other operator, is an error (the builder used to keep the
// first name of [var+reg] and drop the register).
func TestAddressForms(t *testing.T) {
	decls := ".reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n\t.reg .v2 .b64 %v;\n\t.shared .align 4 .u32 sv[16];\n\t"
	for _, ok := range []string{
		"ld.shared.u32 %r1, [sv];", "ld.shared.u32 %r1, [%rd1];", "ld.shared.u32 %r1, [%rd1+8];",
		"ld.shared.u32 %r1, [%rd1+-8];", "ld.shared.u32 %r1, [%rd1-4];", "ld.shared.u32 %r1, [sv+12];",
		"ld.shared.u32 %r1, [sv+4*3];", "ld.shared.u32 %r1, [64];", "ld.shared.u32 %r1, sv[2];",
		"ld.shared.u32 %r1, [%r2];", "ld.shared.u32 %r1, [%v.y+8];",
	} {
		if errs := errorsOf(checkSrc(t, kernel("7.0", "sm_70", decls+ok), Options{})); len(errs) > 0 {
			t.Errorf("%q: %q", ok, errs)
		}
	}
	for _, bad := range []string{
		"ld.shared.u32 %r1, [sv+%rd1];", "st.shared.u32 [sv+%r2], %r1;", "ld.shared.u32 %r1, [%rd1+%rd2];",
		"ld.shared.u32 %r1, [sv*2];", "ld.shared.u32 %r1, [%rd1+8+%rd2];", "ld.shared.u32 %r1, [8+%rd1];",
	} {
		errs := strings.Join(errorsOf(checkSrc(t, kernel("7.0", "sm_70", decls+bad), Options{})), "\n")
		if !strings.Contains(errs, "an address is [var], [reg], [reg+imm], [var+imm] or [imm]") {
			t.Errorf("%q: %q", bad, errs)
		}
	}
}
