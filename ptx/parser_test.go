package ptx

import (
	"math"
	"strings"
	"testing"
)

func parseOK(t *testing.T, src string) *Module {
	t.Helper()
	m, err := Parse("t.ptx", []byte(src), nil)
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return m
}

// body parses statements inside a kernel and returns them.
func body(t *testing.T, stmts string) []Stmt {
	t.Helper()
	m := parseOK(t, ".version 9.0\n.target sm_90\n.entry k()\n{\n"+stmts+"\n}\n")
	return m.Items[2].(*Function).Body.Stmts
}

func instr(t *testing.T, s string) *Instruction {
	t.Helper()
	stmts := body(t, s)
	if len(stmts) != 1 {
		t.Fatalf("%q: got %d statements", s, len(stmts))
	}
	in, ok := stmts[0].(*Instruction)
	if !ok {
		t.Fatalf("%q: got %T", s, stmts[0])
	}
	return in
}

func TestModuleHeader(t *testing.T) {
	m := parseOK(t, ".version 7.8\n.target sm_90a, texmode_independent, debug\n.address_size 32\n")
	v := m.Items[0].(*Version)
	if v.Major != 7 || v.Minor != 8 {
		t.Errorf("version = %d.%d", v.Major, v.Minor)
	}
	if got := strings.Join(m.Items[1].(*Target).Names, ","); got != "sm_90a,texmode_independent,debug" {
		t.Errorf("target = %s", got)
	}
	if m.Items[2].(*AddressSize).Size != 32 {
		t.Errorf("address size")
	}
	if m.Items[0].Position() != (Pos{File: "t.ptx", Line: 1, Col: 1}) {
		t.Errorf("pos = %v", m.Items[0].Position())
	}
}

func TestInstructionShape(t *testing.T) {
	in := instr(t, "@!%p1 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];")
	if in.Guard == nil || !in.Guard.Negate || in.Guard.Pred != "%p1" {
		t.Errorf("guard = %+v", in.Guard)
	}
	if in.Opcode != "cp" {
		t.Errorf("opcode %q", in.Opcode)
	}
	want := []string{".async", ".bulk", ".tensor", ".2d", ".shared::cluster", ".global", ".mbarrier::complete_tx::bytes"}
	if strings.Join(in.Modifiers, " ") != strings.Join(want, " ") {
		t.Errorf("modifiers = %q", in.Modifiers)
	}
	if len(in.Operands) != 3 {
		t.Fatalf("operands = %d", len(in.Operands))
	}
	a := in.Operands[1].(*AddressExpr)
	if len(a.Elems) != 2 || len(a.Elems[1].(*BraceExpr).Elems) != 2 {
		t.Errorf("tensor address operand: %#v", a)
	}
}

func TestOperands(t *testing.T) {
	in := instr(t, "setp.lt.s32 %p|%q, %tid.x, a[2];")
	pair := in.Operands[0].(*BinaryExpr)
	if pair.Op != "|" || pair.X.(*Ident).Name != "%p" || pair.Y.(*Ident).Name != "%q" {
		t.Errorf("pair = %#v", pair)
	}
	sel := in.Operands[1].(*SelectorExpr)
	if sel.X.(*Ident).Name != "%tid" || sel.Sel != "x" {
		t.Errorf("selector = %#v", sel)
	}
	idx := in.Operands[2].(*IndexExpr)
	if idx.X.(*Ident).Name != "a" || idx.Index.(*IntLit).Value != 2 {
		t.Errorf("index = %#v", idx)
	}

	in = instr(t, "ld.global.f32 %f1, [%rd4+-4];")
	add := in.Operands[1].(*AddressExpr).Elems[0].(*BinaryExpr)
	if add.Op != "+" || add.Y.(*UnaryExpr).Op != "-" || add.Y.(*UnaryExpr).X.(*IntLit).Value != 4 {
		t.Errorf("[%%rd4+-4] = %#v", add)
	}

	in = instr(t, "mov.b64 %rd1, {%r1, _};")
	if v := in.Operands[1].(*BraceExpr); v.Elems[1].(*Ident).Name != "_" {
		t.Errorf("sink = %#v", v)
	}
}

func TestCallForms(t *testing.T) {
	in := instr(t, "call.uni (retval0), vprintf, (param0, param1);")
	if len(in.Operands) != 3 {
		t.Fatalf("operands = %d", len(in.Operands))
	}
	if r := in.Operands[0].(*TupleExpr); len(r.Elems) != 1 {
		t.Errorf("results = %#v", r)
	}
	if a := in.Operands[2].(*TupleExpr); len(a.Elems) != 2 {
		t.Errorf("args = %#v", a)
	}
	in = instr(t, "call f;")
	if len(in.Operands) != 1 || in.Operands[0].(*Ident).Name != "f" {
		t.Errorf("call f: %#v", in.Operands)
	}
	in = instr(t, "call (%r1), %rd1, (%r2), proto;")
	if len(in.Operands) != 4 || in.Operands[3].(*Ident).Name != "proto" {
		t.Errorf("indirect call: %#v", in.Operands)
	}
	in = instr(t, "call f, ();")
	if a := in.Operands[1].(*TupleExpr); len(a.Elems) != 0 {
		t.Errorf("empty args: %#v", a)
	}
}

func TestLabelsAndDirectives(t *testing.T) {
	stmts := body(t, `L1: L2: add.s32 %r1, %r1, 1;
proto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .align 8 .b8 _[16]);
tgts: .calltargets f, g;
bt: .branchtargets L1, L2;
.pragma "nounroll";
.loc 1 20 7, function_name $L__info_string0+4, inlined_at 1 9 3
{ .reg .b32 t; }`)
	if len(stmts) != 9 {
		t.Fatalf("got %d statements", len(stmts))
	}
	if stmts[0].(*Label).Name != "L1" || stmts[1].(*Label).Name != "L2" {
		t.Errorf("labels: %#v %#v", stmts[0], stmts[1])
	}
	pr := stmts[3].(*Prototype)
	if pr.Name != "proto" || !pr.HasResults || len(pr.Params) != 2 || len(pr.Params[1].Names[0].Dims) != 1 {
		t.Errorf("prototype: %#v", pr)
	}
	if tl := stmts[4].(*TargetList); tl.Kind != ".calltargets" || len(tl.Targets) != 2 {
		t.Errorf("calltargets: %#v", tl)
	}
	if tl := stmts[5].(*TargetList); tl.Kind != ".branchtargets" || tl.Targets[1] != "L2" {
		t.Errorf("branchtargets: %#v", tl)
	}
	if d := stmts[6].(*Directive); d.Name != ".pragma" || d.Args[0].(*StringLit).Value != "nounroll" {
		t.Errorf("pragma: %#v", d)
	}
	l := stmts[7].(*Loc)
	if l.File != 1 || l.Line != 20 || l.Col != 7 || !l.HasCol || l.InlinedAt == nil || *l.InlinedAt != (LocRef{1, 9, 3}) {
		t.Errorf("loc: %#v", l)
	}
	if b := stmts[8].(*Block); len(b.Stmts) != 1 {
		t.Errorf("block: %#v", b)
	}
}

func TestDeclarations(t *testing.T) {
	m := parseOK(t, `.version 9.0
.target sm_90
.extern .shared .align 16 .b8 smem[];
.visible .global .attribute(.managed) .align 8 .v4 .f32 v[2][3] = {{1.0, 2.0}, {3.0}}, w;
.global .u64 p[] = {generic(arr)+4, 0xFF00(foo), arr+8};
.global .samplerref s = { addr_mode_0 = clamp_to_border, filter_mode = nearest };
.const[2] .u32 banked;
.visible .func (.param .b32 r) f(.param .u64 .ptr .global .align 16 a, .reg .b32 %x, .param .b8 rest[]) .noreturn .abi_preserve 8;
.entry k .maxntid 256, 1 .reqnctapercluster 2, 1, 1 .explicitcluster { .reg .b32 %r<100>; }
`)
	d := m.Items[2].(*VarDecl)
	if d.Linkage != ".extern" || d.Space != ".shared" || d.Align.(*IntLit).Value != 16 || d.Type != ".b8" || d.Names[0].Dims[0] != nil {
		t.Errorf("extern shared: %#v", d)
	}
	v := m.Items[3].(*VarDecl)
	if v.Linkage != ".visible" || v.Attributes[0].Name != ".managed" || v.Vector != 4 || len(v.Names) != 2 || len(v.Names[0].Dims) != 2 {
		t.Errorf("vector decl: %#v", v)
	}
	if init := v.Names[0].Init.(*BraceExpr); len(init.Elems) != 2 || len(init.Elems[1].(*BraceExpr).Elems) != 1 {
		t.Errorf("nested init: %#v", init)
	}
	p := m.Items[4].(*VarDecl).Names[0].Init.(*BraceExpr)
	if c := p.Elems[0].(*BinaryExpr).X.(*CallExpr); c.Fun.(*Ident).Name != "generic" {
		t.Errorf("generic(): %#v", c)
	}
	if c := p.Elems[1].(*CallExpr); c.Fun.(*IntLit).Value != 0xFF00 {
		t.Errorf("mask(): %#v", c)
	}
	s := m.Items[5].(*VarDecl).Names[0].Init.(*BraceExpr)
	if kv := s.Elems[1].(*KeyValue); kv.Key != "filter_mode" || kv.Value.(*Ident).Name != "nearest" {
		t.Errorf("sampler init: %#v", kv)
	}
	if b := m.Items[6].(*VarDecl); b.Bank.(*IntLit).Value != 2 {
		t.Errorf("bank: %#v", b)
	}
	f := m.Items[7].(*Function)
	if f.Kind != ".func" || !f.HasResults || f.Body != nil || len(f.Params) != 3 || len(f.Directives) != 2 {
		t.Fatalf("func decl: %#v", f)
	}
	if pa := f.Params[0]; pa.Ptr == nil || pa.Ptr.Space != ".global" || pa.Ptr.Align.(*IntLit).Value != 16 || pa.Align != nil {
		t.Errorf(".ptr param: %#v %#v", pa, pa.Ptr)
	}
	k := m.Items[8].(*Function)
	if k.HasParams || len(k.Directives) != 3 || len(k.Directives[0].Args) != 2 || k.Directives[2].Name != ".explicitcluster" {
		t.Errorf("entry directives: %#v", k.Directives)
	}
	if r := k.Body.Stmts[0].(*VarDecl).Names[0]; r.Name != "%r" || r.Count.(*IntLit).Value != 100 {
		t.Errorf("parameterized name: %#v", r)
	}
}

func TestConstants(t *testing.T) {
	cases := []struct {
		text     string
		value    uint64
		unsigned bool
	}{
		{"42", 42, false}, {"0x1F", 31, false}, {"0X1fU", 31, true}, {"017", 15, false},
		{"0b101", 5, false}, {"0B11U", 3, true}, {"0", 0, false}, {"18446744073709551615", math.MaxUint64, false},
	}
	for _, c := range cases {
		in := instr(t, "mov.u64 %rd1, "+c.text+";")
		l := in.Operands[1].(*IntLit)
		if l.Value != c.value || l.Unsigned != c.unsigned || l.Text != c.text {
			t.Errorf("%s: got %d unsigned=%v", c.text, l.Value, l.Unsigned)
		}
	}
	floats := []struct {
		text   string
		bits   uint64
		single bool
	}{
		{"0f3F800000", 0x3F800000, true}, {"0F7FC00000", 0x7FC00000, true},
		{"0d3FF0000000000000", 0x3FF0000000000000, false}, {"1.5", math.Float64bits(1.5), false},
		{".05", math.Float64bits(0.05), false}, {"1e10", math.Float64bits(1e10), false}, {"2.5E-3", math.Float64bits(2.5e-3), false},
	}
	for _, c := range floats {
		in := instr(t, "mov.f32 %f1, "+c.text+";")
		l := in.Operands[1].(*FloatLit)
		if l.Bits != c.bits || l.Single != c.single {
			t.Errorf("%s: bits %#x single=%v", c.text, l.Bits, l.Single)
		}
	}
}

func TestExpressionPrecedence(t *testing.T) {
	// 4.6: C precedence and left associativity.
	in := instr(t, "mov.u32 %r1, 1 + 2 * 3 - 4 << 1 | 1 ? (.s64) -2 : ~0;")
	c := in.Operands[1].(*CondExpr)
	or := c.Cond.(*BinaryExpr)
	if or.Op != "|" {
		t.Fatalf("top op %q", or.Op)
	}
	shl := or.X.(*BinaryExpr)
	if shl.Op != "<<" {
		t.Fatalf("shift %q", shl.Op)
	}
	sub := shl.X.(*BinaryExpr)
	if sub.Op != "-" || sub.X.(*BinaryExpr).Op != "+" || sub.X.(*BinaryExpr).Y.(*BinaryExpr).Op != "*" {
		t.Errorf("arith tree wrong: %#v", sub)
	}
	if cast := c.X.(*CastExpr); cast.Type != ".s64" || cast.X.(*UnaryExpr).Op != "-" {
		t.Errorf("cast: %#v", c.X)
	}
}

func TestSectionAndDwarf(t *testing.T) {
	m := parseOK(t, `.version 7.5
.target sm_75, debug
@@DWARF .byte 0x2b, 0x00
.section .debug_info
{
.b32 $L__end-$L__begin
$L__begin:
.b8 1, -11, 0
.b32 .debug_abbrev+4
.b64 $L__func_begin0
$L__end:
}
.file 1 "k.cu", 1339013327, 64118
`)
	if dw := m.Items[2].(*Dwarf); dw.Text != ".byte 0x2b, 0x00" {
		t.Errorf("dwarf: %q", dw.Text)
	}
	s := m.Items[3].(*Section)
	if s.Name != ".debug_info" || len(s.Items) != 6 {
		t.Fatalf("section: %#v", s)
	}
	if d := s.Items[2].(*SectionData); d.Type != ".b8" || len(d.Values) != 3 {
		t.Errorf("data: %#v", d)
	}
	if d := s.Items[3].(*SectionData); d.Values[0].(*BinaryExpr).X.(*Ident).Name != ".debug_abbrev" {
		t.Errorf("section ref: %#v", d.Values[0])
	}
	f := m.Items[4].(*FileDirective)
	if f.Index != 1 || f.Name != "k.cu" || f.Timestamp.(*IntLit).Value != 1339013327 || f.Size.(*IntLit).Value != 64118 {
		t.Errorf("file: %#v", f)
	}
}

func TestOldSyntax(t *testing.T) {
	// PTX 1.x: body-declared parameters, $-registers, .tex, banked const.
	m := parseOK(t, `.version 1.4
.target sm_13, map_f64_to_f32
.tex .u32 t;
.entry _Z1kPf
{
	.reg .u32 $r<4>;
	.param .u32 __cudaparm__Z1kPf_p;
	ld.param.u32 $r1, [__cudaparm__Z1kPf_p];
	tex.1d.v4.s32.s32 {$r1, $r2, $r3, $r4}, [t, {$r1}];
	exit;
$LDWend__Z1kPf:
}
`)
	if f := m.Items[3].(*Function); f.HasParams || len(f.Body.Stmts) != 6 {
		t.Errorf("old entry: %#v", f)
	}
	// GCC nvptx writes `.param.u32` with no blank between the words.
	m = parseOK(t, ".version 3.1\n.target sm_30\n.visible .func (.param.u32 %value_out) main (.param.u32 %in_ar0);\n")
	if f := m.Items[2].(*Function); f.Results[0].Type != ".u32" || f.Params[0].Names[0].Name != "%in_ar0" {
		t.Errorf("gcc style: %#v", f)
	}
}

func TestDiagnostics(t *testing.T) {
	cases := []struct {
		src  string
		want []string // "line:col: substring"
	}{
		{".version 9.0\n.target sm_90\n.entry k()\n{\n\tadd.s32 %r1, %r2 %r3;\n\tmov.u32 %r1, 0x;\n\tret\n}\n",
			[]string{"5:19: expected ',' or ';'", "6:15: malformed integer", "8:1: expected ';' after 'ret'"}},
		{".version 9.0\n.entry k()\n{\n\tmov.f32 %f1, 0f3F80;\n", []string{"3:1: '{' is not closed", "4:15: expected 8 hexadecimal digits"}},
		{"\x00.version 9.0\n", []string{"1:1: unexpected character '\\x00'"}},
		{".version 9.0\n.bogus 1;\n.target sm_90\n", []string{"2:1: expected a directive"}},
		{".version 9.0\n\"abc\n", []string{"2:1: string not terminated", "2:1: expected a directive"}},
		{"/* open", []string{"1:1: comment not terminated"}},
	}
	for _, c := range cases {
		_, err := Parse("t.ptx", []byte(c.src), nil)
		if err == nil {
			t.Errorf("%q: no error", c.src)
			continue
		}
		list := err.(DiagnosticList)
		var got []string
		for _, d := range list {
			got = append(got, strings.TrimPrefix(d.Error(), "t.ptx:"))
		}
		for _, w := range c.want {
			lc, sub, _ := strings.Cut(w, ": ")
			found := false
			for _, g := range got {
				found = found || strings.HasPrefix(g, lc+": error: ") && strings.Contains(g, sub)
			}
			if !found {
				t.Errorf("%q: want %q among\n%s", c.src, w, strings.Join(got, "\n"))
			}
		}
	}
}

// TestRecovery: one bad statement does not hide later errors or later items.
func TestRecovery(t *testing.T) {
	src := ".version 9.0\n.target sm_90\n.entry a()\n{\n\tadd.s32 %r1,, %r2;\n\tmov.u32 %r1, 1;\n\tsub.s32 %r1 %r2;\n}\n.entry b()\n{\n\tret;\n}\n"
	m, err := Parse("t.ptx", []byte(src), nil)
	if err == nil || len(err.(DiagnosticList)) != 2 {
		t.Fatalf("want 2 errors, got %v", err)
	}
	if len(m.Items) != 4 || m.Items[3].(*Function).Name != "b" {
		t.Errorf("items after errors: %d", len(m.Items))
	}
	if stmts := m.Items[2].(*Function).Body.Stmts; len(stmts) != 1 {
		t.Errorf("good statement between bad ones was lost: %d statements", len(stmts))
	}
}

func TestDeepNestingNoCrash(t *testing.T) {
	src := ".version 9.0\n.entry k()\n{\n\tmov.u32 %r1, " + strings.Repeat("(", 100000) + "1;\n}\n"
	if _, err := Parse("t.ptx", []byte(src), nil); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("want nesting error, got %v", err)
	}
	src = ".version 9.0\n.entry k()\n" + strings.Repeat("{", 100000)
	if _, err := Parse("t.ptx", []byte(src), nil); err == nil {
		t.Errorf("want error for unclosed blocks")
	}
}

func TestVideoSelectors(t *testing.T) {
	// 9.7.17: byte and half-word selectors on video instruction operands.
	in := instr(t, "vsub2.s32.s32.s32.sat r1.h0, r2.h10, r3.b3210, r1;")
	for i, want := range []string{"h0", "h10", "b3210"} {
		if sel := in.Operands[i].(*SelectorExpr); sel.Sel != want {
			t.Errorf("operand %d: sel %q, want %q", i, sel.Sel, want)
		}
	}
	// In a .section a name followed by a .b8 line is not a selector.
	m := parseOK(t, ".version 7.5\n.section .debug_str\n{\n.b64 $L__a\n.b8 0\n}\n")
	if s := m.Items[1].(*Section); len(s.Items) != 2 {
		t.Errorf("section items: %d", len(s.Items))
	}
}

func TestBankAndUnified(t *testing.T) {
	// 5.1.3.1: deprecated banked constant access keeps its bank among the modifiers.
	in := instr(t, "ld.const[2].b32 %r1, [const_buffer+4];")
	if strings.Join(in.Modifiers, "") != ".const[2].b32" {
		t.Errorf("modifiers %q", in.Modifiers)
	}
	// An address operand qualified with .unified (9.7.9.8).
	in = instr(t, "ld.b32 %r0, [%r1].unified;")
	if sel := in.Operands[1].(*SelectorExpr); sel.Sel != "unified" {
		t.Errorf("unified: %#v", in.Operands[1])
	}
	// prefetch's first operand is an address, not a bank.
	in = instr(t, "prefetch.global.L2 [2];")
	if len(in.Modifiers) != 2 || len(in.Operands) != 1 {
		t.Errorf("prefetch: %q %#v", in.Modifiers, in.Operands)
	}
	// 11.3.1: label range shorthand in .branchtargets.
	stmts := body(t, "tn: .branchtargets N<5>, L;")
	if tl := stmts[0].(*TargetList); strings.Join(tl.Targets, ",") != "N<5>,L" {
		t.Errorf("targets %q", tl.Targets)
	}
}

func TestPrototypeWithoutSemicolon(t *testing.T) {
	// CUDA 3.x nvcc writes forward declarations with no ';' (ptx-isa-3.1.txt .func).
	m := parseOK(t, ".version 2.1\n.target sm_20\n.func (.param .s32 r) f (.param .s32 a)\n\n.visible .func g\n.entry k\n{\n\tret;\n}\n")
	if len(m.Items) != 5 {
		t.Fatalf("items: %d", len(m.Items))
	}
	for i := 2; i < 4; i++ {
		if f := m.Items[i].(*Function); f.Body != nil {
			t.Errorf("item %d: %s has a body", i, f.Name)
		}
	}
	if m.Items[4].(*Function).Body == nil {
		t.Errorf("entry lost its body")
	}
}

func TestTrailingNULs(t *testing.T) {
	parseOK(t, ".version 7.0\n.target sm_70\n\x00\x00")
	if _, err := Parse("t.ptx", []byte(".version 7.0\n\x00.target sm_70\n"), nil); err == nil {
		t.Errorf("a NUL before the end must be an error")
	}
}

func TestPtrOpaque(t *testing.T) {
	// LLVM writes OpenCL image parameters as `.param .u64 .ptr .texref img`.
	m := parseOK(t, ".version 7.0\n.target sm_70, texmode_independent\n.entry k(.param .u64 .ptr .texref img, .param .u64 .ptr .samplerref s)\n{\n\tret;\n}\n")
	f := m.Items[2].(*Function)
	if f.Params[0].Ptr == nil || f.Params[0].Ptr.Space != ".texref" || f.Params[1].Ptr.Space != ".samplerref" {
		t.Errorf("params: %#v %#v", f.Params[0].Ptr, f.Params[1].Ptr)
	}
}

func TestFileNameEscapes(t *testing.T) {
	src := ".version 7.0\n.target sm_70\n.file 1 \"C:\\work\\k.cu\"\n.file 2 \"a\\\"b\\\\c\"\n"
	m := parseOK(t, src)
	if f := m.Items[2].(*FileDirective); f.Name != `C:\work\k.cu` {
		t.Errorf("unknown escapes must keep their backslash: %q", f.Name)
	}
	if f := m.Items[3].(*FileDirective); f.Name != `a"b\c` {
		t.Errorf("known escapes: %q", f.Name)
	}
	if out := string(Format(m)); !strings.Contains(out, `.file 1 "C:\work\k.cu"`) {
		t.Errorf("fmt changed the file name:\n%s", out)
	}
}
