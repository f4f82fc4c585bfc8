package ptx

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Helpers for building trees by hand (no positions).

func ptID(name string) *Ident   { return &Ident{Name: name} }
func ptNum(text string) *IntLit { return &IntLit{Text: text} }
func ptBin(op string, x, y Expr) *BinaryExpr {
	return &BinaryExpr{Op: op, X: x, Y: y}
}
func ptUn(op string, x Expr) *UnaryExpr { return &UnaryExpr{Op: op, X: x} }
func ptParen(x Expr) *ParenExpr         { return &ParenExpr{X: x} }
func ptAddr(elems ...Expr) *AddressExpr { return &AddressExpr{Elems: elems} }
func ptBrace(elems ...Expr) *BraceExpr  { return &BraceExpr{Elems: elems} }
func ptNames(ns ...string) []*Declarator {
	var ds []*Declarator
	for _, n := range ns {
		ds = append(ds, &Declarator{Name: n})
	}
	return ds
}
func ptIns(op string, mods []string, operands ...Expr) *Instruction {
	return &Instruction{Opcode: op, Modifiers: mods, Operands: operands}
}
func ptMods(ms ...string) []string { return ms }

func ptCheckFormat(t *testing.T, m *Module, want string) {
	t.Helper()
	got := string(Format(m))
	if got != want {
		t.Errorf("Format mismatch\n--- got:\n%s\n--- want:\n%s", got, want)
	}
	var b bytes.Buffer
	if err := Print(&b, m); err != nil {
		t.Fatalf("Print: %v", err)
	}
	if b.String() != got {
		t.Errorf("Print and Format differ:\n%s\n---\n%s", b.String(), got)
	}
}

// body wraps statements in a kernel so they can be printed.
func ptBody(stmts ...Stmt) *Module {
	return &Module{Items: []Item{&Function{Kind: ".entry", Name: "k", HasParams: true, Body: &Block{Stmts: stmts}}}}
}

func ptBodyText(lines string) string { return ".entry k()\n{\n" + lines + "}\n" }

func TestPrintHeader(t *testing.T) {
	m := &Module{Items: []Item{
		&Version{Major: 9, Minor: 0},
		&Target{Names: []string{"sm_90a", "debug"}},
		&AddressSize{Size: 64},
	}}
	ptCheckFormat(t, m, ".version 9.0\n.target sm_90a, debug\n.address_size 64\n")
}

func TestPrintVarDecls(t *testing.T) {
	tests := []struct {
		d    *VarDecl
		want string
	}{
		{&VarDecl{Linkage: ".extern", Space: ".shared", Align: ptNum("16"), Type: ".b8",
			Names: []*Declarator{{Name: "smem", Dims: []Expr{nil}}}},
			".extern .shared .align 16 .b8 smem[];"},
		{&VarDecl{Space: ".reg", Type: ".b32", Names: []*Declarator{{Name: "%r", Count: ptNum("100")}, {Name: "%tmp"}}},
			".reg .b32 %r<100>, %tmp;"},
		{&VarDecl{Linkage: ".visible", Space: ".global",
			Attributes: []Attribute{{Name: ".managed"}, {Name: ".unified", Args: []Expr{ptNum("19"), ptNum("95")}}},
			Align:      ptNum("8"), Vector: 4, Type: ".f32",
			Names: []*Declarator{{Name: "v", Init: ptBrace(&FloatLit{Text: "1.0"}, &FloatLit{Text: "0f3F800000"})}}},
			".visible .global .attribute(.managed, .unified(19, 95)) .align 8 .v4 .f32 v = {1.0, 0f3F800000};"},
		{&VarDecl{Space: ".const", Bank: ptNum("2"), Type: ".u32", Names: ptNames("c")},
			".const[2] .u32 c;"},
		{&VarDecl{Space: ".global", Type: ".s32", Names: []*Declarator{{Name: "off", Dims: []Expr{nil, ptNum("2")},
			Init: ptBrace(ptBrace(ptUn("-", ptNum("1")), ptNum("0")), ptBrace(ptNum("0"), ptUn("-", ptNum("1"))))}}},
			".global .s32 off[][2] = {{-1, 0}, {0, -1}};"},
		{&VarDecl{Space: ".global", Type: ".samplerref", Names: []*Declarator{{Name: "s",
			Init: ptBrace(&KeyValue{Key: "addr_mode_0", Value: ptID("clamp_to_border")}, &KeyValue{Key: "filter_mode", Value: ptID("nearest")})}}},
			".global .samplerref s = {addr_mode_0 = clamp_to_border, filter_mode = nearest};"},
		{&VarDecl{Space: ".global", Type: ".u64", Names: []*Declarator{{Name: "p",
			Init: ptBin("+", &CallExpr{Fun: ptID("generic"), Args: []Expr{ptID("foo")}}, ptNum("8"))}}},
			".global .u64 p = generic(foo)+8;"},
		{&VarDecl{Space: ".global", Type: ".u8", Names: []*Declarator{{Name: "m", Dims: []Expr{nil},
			Init: ptBrace(&CallExpr{Fun: ptNum("0xFF00"), Args: []Expr{ptBin("+", ptID("foo"), ptNum("4"))}})}}},
			".global .u8 m[] = {0xFF00(foo+4)};"},
		{&VarDecl{Space: ".local", Type: ".u16", Names: []*Declarator{{Name: "k", Dims: []Expr{ptNum("19"), ptNum("19")}}}},
			".local .u16 k[19][19];"},
		{&VarDecl{Space: ".shared::cta", Vector: 2, Type: ".u16", Names: ptNames("uv")},
			".shared::cta .v2 .u16 uv;"},
		// Expressions that the grammar restricts are parenthesized.
		{&VarDecl{Space: ".reg", Align: ptBin("*", ptNum("4"), ptNum("2")), Type: ".b32", Names: []*Declarator{{Name: "%q", Count: ptBin("<", ptNum("1"), ptNum("2"))}}},
			".reg .align (4*2) .b32 %q<(1<2)>;"},
	}
	for _, tt := range tests {
		m := &Module{Items: []Item{tt.d}}
		ptCheckFormat(t, m, tt.want+"\n")
	}
}

func TestPrintFunctions(t *testing.T) {
	ptParam := func(typ, name string) *VarDecl {
		return &VarDecl{Space: ".param", Type: typ, Names: ptNames(name)}
	}
	kern := &Function{
		Linkage: ".visible", Kind: ".entry", Name: "kern", HasParams: true,
		Params: []*VarDecl{
			{Space: ".param", Type: ".u64", Ptr: &PtrAttr{Space: ".global", Align: ptNum("16")}, Names: ptNames("p")},
			{Space: ".param", Type: ".u64", Ptr: &PtrAttr{Align: ptNum("8")}, Names: ptNames("q")},
			{Space: ".param", Type: ".u64", Ptr: &PtrAttr{}, Names: ptNames("r")},
			{Space: ".param", Align: ptNum("16"), Type: ".b8", Names: []*Declarator{{Name: "s", Dims: []Expr{ptNum("16")}}}},
		},
		Directives: []*Directive{
			{Name: ".maxntid", Args: []Expr{ptNum("256"), ptNum("1"), ptNum("1")}},
			{Name: ".noreturn"},
		},
		Body: &Block{Stmts: []Stmt{ptIns("ret", nil)}},
	}
	decl := &Function{
		Linkage: ".extern", Kind: ".func", HasResults: true, Results: []*VarDecl{ptParam(".b32", "r")},
		Name: "foo", HasParams: true, Params: []*VarDecl{ptParam(".b32", "a"), ptParam(".f64", "b")},
	}
	attr := &Function{
		Kind: ".func", Attributes: []Attribute{{Name: ".unified", Args: []Expr{ptNum("0xAB"), ptNum("0xCD")}}},
		Name: "bar", HasParams: true, Body: &Block{},
	}
	bare := &Function{Kind: ".entry", Name: "old", Body: &Block{Stmts: []Stmt{
		&VarDecl{Space: ".param", Type: ".b32", Names: ptNames("x")},
		ptIns("exit", nil),
	}}}
	noret := &Function{Kind: ".func", Name: "die", HasResults: true, Results: []*VarDecl{}, Directives: []*Directive{{Name: ".noreturn"}}}
	m := &Module{Items: []Item{kern, decl, attr, bare, noret}}
	want := `.visible .entry kern(
	.param .u64 .ptr .global .align 16 p,
	.param .u64 .ptr .align 8 q,
	.param .u64 .ptr r,
	.param .align 16 .b8 s[16]
)
.maxntid 256, 1, 1
.noreturn
{
	ret;
}

.extern .func (.param .b32 r) foo(
	.param .b32 a,
	.param .f64 b
);

.func .attribute(.unified(0xAB, 0xCD)) bar()
{
}

.entry old
{
	.param .b32 x;
	exit;
}

.func () die
.noreturn;
`
	ptCheckFormat(t, m, want)
}

func TestPrintStatements(t *testing.T) {
	m := ptBody(
		&VarDecl{Space: ".reg", Type: ".pred", Names: []*Declarator{{Name: "%p", Count: ptNum("3")}}},
		&Loc{File: 1, Line: 10, Col: 5, HasCol: true},
		&Loc{File: 1, Line: 11},
		&Loc{File: 1, Line: 9, Col: 3, HasCol: true, FunctionName: ptBin("+", ptID("info_string0"), ptNum("16")), InlinedAt: &LocRef{File: 1, Line: 21, Col: 3}},
		ptIns("mov", ptMods(".u32"), ptID("%r1"), &SelectorExpr{X: ptID("%tid"), Sel: "x"}),
		ptIns("setp", ptMods(".lt", ".s32"), ptBin("|", ptID("%p1"), ptID("%p2")), ptID("%r1"), ptUn("-", ptNum("1"))),
		&Instruction{Guard: &Guard{Negate: true, Pred: "%p1"}, Opcode: "bra", Modifiers: ptMods(".uni"), Operands: []Expr{ptID("$L__BB0_2")}},
		&Instruction{Guard: &Guard{Pred: "%p2"}, Opcode: "exit"},
		ptIns("ld", ptMods(".global", ".v2", ".u32"), ptBrace(ptID("%r2"), ptID("%r3")), ptAddr(ptBin("+", ptID("%rd1"), ptNum("8")))),
		ptIns("st", ptMods(".local", ".u32"), ptAddr(ptBin("+", ptID("stack"), ptUn("-", ptNum("4")))), ptID("%r4")),
		ptIns("tex", ptMods(".2d", ".v4", ".f32", ".s32"), ptBrace(ptID("%f1"), ptID("%f2"), ptID("%f3"), ptID("%f4")), ptAddr(ptID("tex"), ptBrace(ptID("%r1"), ptID("%r2")))),
		ptIns("mov", ptMods(".u32"), ptID("%r5"), &IndexExpr{X: ptID("arr"), Index: ptNum("3")}),
		&Directive{Name: ".pragma", Args: []Expr{&StringLit{Text: `"nounroll"`, Value: "nounroll"}}},
		&Block{Stmts: []Stmt{
			&VarDecl{Space: ".param", Type: ".b32", Names: ptNames("param0")},
			ptIns("call", ptMods(".uni"), &TupleExpr{Elems: []Expr{ptID("retval0")}}, ptID("foo"), &TupleExpr{Elems: []Expr{ptID("param0"), ptID("x")}}),
			&Block{Stmts: []Stmt{&Label{Name: "inner"}, ptIns("ret", nil)}},
		}},
		&Label{Name: "$L__BB0_2"},
		&Prototype{Name: "p1", HasParams: true, Params: []*VarDecl{{Space: ".param", Type: ".f32", Names: ptNames("_")}}},
		&Prototype{Name: "p2"},
		&Prototype{Name: "p3", HasResults: true, Results: []*VarDecl{{Space: ".param", Type: ".b32", Names: ptNames("_")}},
			HasParams: true, Params: []*VarDecl{
				{Space: ".param", Type: ".b32", Names: ptNames("_")},
				{Space: ".param", Type: ".b8", Names: []*Declarator{{Name: "_", Dims: []Expr{ptNum("12")}}}},
			},
			Directives: []*Directive{{Name: ".abi_preserve", Args: []Expr{ptNum("8")}}}},
		&Prototype{Name: "p4", HasParams: true, Params: []*VarDecl{}, Directives: []*Directive{{Name: ".noreturn"}}},
		&TargetList{Name: "ct", Kind: ".calltargets", Targets: []string{"foo", "bar"}},
		&TargetList{Name: "bt", Kind: ".branchtargets", Targets: []string{"L1"}},
		&Dwarf{Text: ".byte 0x00"},
		ptIns("ret", nil),
	)
	want := ptBodyText(`	.reg .pred %p<3>;
	.loc 1 10 5
	.loc 1 11
	.loc 1 9 3, function_name info_string0+16, inlined_at 1 21 3
	mov.u32 %r1, %tid.x;
	setp.lt.s32 %p1|%p2, %r1, -1;
	@!%p1 bra.uni $L__BB0_2;
	@%p2 exit;
	ld.global.v2.u32 {%r2, %r3}, [%rd1+8];
	st.local.u32 [stack+-4], %r4;
	tex.2d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tex, {%r1, %r2}];
	mov.u32 %r5, arr[3];
	.pragma "nounroll";
	{
		.param .b32 param0;
		call.uni (retval0), foo, (param0, x);
		{
inner:
			ret;
		}
	}
$L__BB0_2:
	p1: .callprototype _ (.param .f32 _);
	p2: .callprototype _;
	p3: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b8 _[12]) .abi_preserve 8;
	p4: .callprototype _ () .noreturn;
	ct: .calltargets foo, bar;
	bt: .branchtargets L1;
	@@DWARF .byte 0x00
	ret;
`)
	ptCheckFormat(t, m, want)
}

func TestPrintModuleItems(t *testing.T) {
	m := &Module{Items: []Item{
		&Version{Major: 2, Minor: 3},
		&Target{Names: []string{"sm_20"}},
		&FileDirective{Index: 1, Name: "kernel.cu", Timestamp: ptNum("1339013327"), Size: ptNum("64118")},
		&FileDirective{Index: 2, Name: "C:\\dir\\\"q\"\n\t\r\x00.cu"},
		&Dwarf{Text: ".byte 0x2b, 0x00"},
		&Dwarf{},
		&VarDecl{Space: ".global", Type: ".u32", Names: ptNames("g")},
		&Alias{Name: "a", Target: "foo"},
		&Directive{Name: ".pragma", Args: []Expr{&StringLit{Value: "x\"y"}}},
		&Section{Name: ".debug_info", Items: []Stmt{
			&SectionData{Type: ".b32", Values: []Expr{ptNum("11430")}},
			&SectionData{Type: ".b8", Values: []Expr{ptNum("2"), ptNum("0")}},
			&Label{Name: "info_label1"},
			&SectionData{Type: ".b32", Values: []Expr{ptBin("+", ptID(".debug_loc"), ptNum("0x4"))}},
			&SectionData{Type: ".b64", Values: []Expr{ptBin("-", ptID("L2"), ptID("L1"))}},
		}},
		&Section{Name: ".debug_str"},
		&VarDecl{Space: ".global", Type: ".u32", Names: ptNames("h")},
	}}
	want := `.version 2.3
.target sm_20

.file 1 "kernel.cu", 1339013327, 64118
.file 2 "C:\\dir\\\"q\"\n\t\r\0.cu"

@@DWARF .byte 0x2b, 0x00
@@DWARF

.global .u32 g;
.alias a, foo;
.pragma "x\"y";

.section .debug_info
{
	.b32 11430
	.b8 2, 0
info_label1:
	.b32 .debug_loc+0x4
	.b64 L2-L1
}

.section .debug_str
{
}

.global .u32 h;
`
	ptCheckFormat(t, m, want)
}

func TestPrintExpressions(t *testing.T) {
	a, b, c := ptID("a"), ptID("b"), ptID("c")
	tests := []struct {
		e    Expr
		want string
	}{
		{ptBin("+", a, ptBin("*", b, c)), "a+b*c"},
		{ptBin("*", ptBin("+", a, b), c), "(a+b)*c"},
		{ptBin("-", ptBin("-", a, b), c), "a-b-c"},
		{ptBin("-", a, ptBin("-", b, c)), "a-(b-c)"},
		{ptBin("-", a, ptParen(ptBin("-", b, c))), "a-(b-c)"},
		{ptParen(ptParen(a)), "((a))"},
		{ptBin("||", ptBin("&&", a, b), ptBin("|", b, ptBin("^", c, ptBin("&", a, b)))), "a&&b||b|c^a&b"},
		{ptBin("&", ptBin("==", a, b), ptBin("<", b, c)), "a==b&b<c"},
		{ptBin("==", ptBin("&", a, b), c), "(a&b)==c"},
		{ptBin("<<", ptBin("+", a, b), ptBin(">>", b, c)), "a+b<<(b>>c)"},
		{ptBin("%", a, ptUn("-", b)), "a % -b"},
		{ptBin("%", ptNum("100"), ptNum("7")), "100 % 7"},
		{ptBin("-", a, ptUn("-", ptNum("1"))), "a--1"},
		{ptUn("-", ptBin("+", a, b)), "-(a+b)"},
		{ptUn("~", ptUn("!", a)), "~!a"},
		{ptUn("-", &CastExpr{Type: ".s64", X: a}), "-(.s64)a"},
		{&CastExpr{Type: ".u64", X: ptBin("+", a, b)}, "(.u64)(a+b)"},
		{ptBin("+", &CastExpr{Type: ".u64", X: a}, b), "(.u64)a+b"},
		{&CondExpr{Cond: a, X: b, Y: c}, "a ? b : c"},
		{&CondExpr{Cond: &CondExpr{Cond: a, X: b, Y: c}, X: b, Y: c}, "(a ? b : c) ? b : c"},
		{&CondExpr{Cond: a, X: &CondExpr{Cond: a, X: b, Y: c}, Y: &CondExpr{Cond: a, X: b, Y: c}}, "a ? a ? b : c : a ? b : c"},
		{ptBin("+", &CondExpr{Cond: a, X: b, Y: c}, a), "(a ? b : c)+a"},
		{&CondExpr{Cond: ptBin("||", a, b), X: ptBin("+", a, b), Y: c}, "a||b ? a+b : c"},
		{ptUn("-", &CondExpr{Cond: a, X: b, Y: c}), "-(a ? b : c)"},
		{&SelectorExpr{X: ptID("%ctaid"), Sel: "y"}, "%ctaid.y"},
		{&IntLit{Value: 42}, "42"},
		{&IntLit{Value: 7, Unsigned: true}, "7U"},
		{&IntLit{Text: "0b101", Value: 5}, "0b101"},
		{&FloatLit{Bits: 0x3F800000, Single: true}, "0f3F800000"},
		{&FloatLit{Bits: 0x3FF0000000000000}, "0d3FF0000000000000"},
		{&FloatLit{Text: ".5e3"}, ".5e3"},
		{&StringLit{Value: "a\\b"}, `"a\\b"`},
		{&CallExpr{Fun: ptID("f"), Args: []Expr{}}, "f()"},
		{ptBin("?", a, b), "a?b"}, // unknown operators print as given
	}
	for _, tt := range tests {
		m := ptBody(ptIns("op", nil, tt.e))
		ptCheckFormat(t, m, ptBodyText("\top "+tt.want+";\n"))
	}
}

func TestPrintEmpty(t *testing.T) {
	if got := Format(nil); len(got) != 0 {
		t.Errorf("Format(nil) = %q", got)
	}
	if got := Format(&Module{}); len(got) != 0 {
		t.Errorf("Format(empty) = %q", got)
	}
	m := &Module{Comments: []Comment{{Pos: Pos{Line: 1, Col: 1}, Text: "// only"}}}
	ptCheckFormat(t, m, "// only\n")
}

type ptFailWriter struct{ n int }

func (w *ptFailWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("disk full")
}

func TestPrintWriterError(t *testing.T) {
	m := &Module{Items: []Item{&Version{Major: 9}}}
	w := &ptFailWriter{}
	if err := Print(w, m); err == nil || err.Error() != "disk full" {
		t.Errorf("Print error = %v, want disk full", err)
	}
	// A large module flushes in pieces; the first error stops further writes.
	big := ptBigModule(20000)
	w = &ptFailWriter{}
	if err := Print(w, big); err == nil {
		t.Error("Print on failing writer: no error")
	}
	if w.n != 1 {
		t.Errorf("%d writes after an error, want 1", w.n)
	}
}

// bigModule is a kernel of n instructions (with comments, to exercise
// flushing around comments and blank lines).
func ptBigModule(n int) *Module {
	var src strings.Builder
	src.WriteString(".version 9.0\n.target sm_90\n.address_size 64\n\n.entry k()\n{\n")
	for i := 0; i < n; i++ {
		src.WriteString("\tadd.s32 %r1, %r2, 1; // c\n")
		if i%7 == 0 {
			src.WriteString("\n// block\n\n")
		}
	}
	src.WriteString("}\n")
	m, err := Parse("big.ptx", []byte(src.String()), nil)
	if err != nil {
		panic(err)
	}
	return m
}

func TestPrintLargeMatchesFormat(t *testing.T) {
	m := ptBigModule(30000)
	var b bytes.Buffer
	if err := Print(&b, m); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), Format(m)) {
		t.Fatal("Print and Format differ on a large module")
	}
}

// parseOK parses src or fails the test.
func ptParse(t *testing.T, name, src string) *Module {
	t.Helper()
	m, err := Parse(name, []byte(src), nil)
	if err != nil {
		t.Fatalf("parse %s: %v\n%s", name, err, src)
	}
	return m
}

// TestFormatComments checks where comments land, exactly.
func TestFormatComments(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"leading and trailing",
			"// top\n.version 9.0 // v\n.target sm_90 /* t */ /* u */\n",
			"// top\n.version 9.0 // v\n.target sm_90 /* t */ /* u */\n"},
		{"blank line kept once",
			"// a\n\n\n\n// b\n.version 9.0\n\n\n.target sm_90\n",
			"// a\n\n// b\n.version 9.0\n\n.target sm_90\n"},
		{"statements",
			".entry k()\n{ // open\n\t// before\n  add.s32 %r1, %r2, 3; // after\n\tret; /* r */\n  // end\n} // close\n// eof\n",
			".entry k()\n{ // open\n\t// before\n\tadd.s32 %r1, %r2, 3; // after\n\tret; /* r */\n\t// end\n} // close\n// eof\n"},
		{"inside a statement goes after it or before the next",
			".entry k()\n{\n\tadd.s32 /* a */ %r1, // b\n\t\t%r2, /* c */ 3;\n\tret;\n}\n",
			".entry k()\n{\n\tadd.s32 %r1, %r2, 3; /* a */ // b\n\t/* c */\n\tret;\n}\n"},
		{"two statements on a line",
			".entry k()\n{\n\tmov.u32 %r1, 1; /* x */ mov.u32 %r2, 2; // y\n}\n",
			".entry k()\n{\n\tmov.u32 %r1, 1; /* x */\n\tmov.u32 %r2, 2; // y\n}\n"},
		{"labels and nested blocks",
			".entry k()\n{\n// l\n$L1: // at label\n\t{ // inner\n\t// first\n\tret;\n\t// last\n\t} // after\n}\n",
			".entry k()\n{\n// l\n$L1: // at label\n\t{ // inner\n\t\t// first\n\t\tret;\n\t\t// last\n\t} // after\n}\n"},
		{"parameters",
			".entry foo ( // hdr\n .param .u32 a, // first\n // own line\n .param .u32 b // last\n // pointer\n) // close\n.maxntid 1, 1, 1 // dir\n{ ret; }\n",
			".entry foo( // hdr\n\t.param .u32 a, // first\n\t// own line\n\t.param .u32 b // last\n)\n// pointer\n// close\n.maxntid 1, 1, 1 // dir\n{\n\tret;\n}\n"},
		{"declaration",
			".func f(.param .b32 a) // c\n; // d\n.global .u32 g;\n",
			".func f(\n\t.param .b32 a // c\n);\n\n// d\n.global .u32 g;\n"},
		{"section",
			".section .debug_str { // s\ninfo: // lab\n.b8 95 // _\n.b8 0\n// tail\n}\n",
			".section .debug_str // s\n{\ninfo: // lab\n\t.b8 95 // _\n\t.b8 0\n}\n// tail\n"},
		{"multi-line block comment",
			"/* a\n   b */\n.version 9.0 /* c\nd */\n\n.target sm_90\n",
			"/* a\n   b */\n.version 9.0 /* c\nd */\n\n.target sm_90\n"},
		{"no blank after open or before close",
			".entry k()\n{\n\n\tret;\n\n}\n",
			".entry k()\n{\n\tret;\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := ptParse(t, "c.ptx", tt.src)
			got := string(Format(m))
			if got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			ptRoundTrip(t, tt.src)
		})
	}
}

// checkRoundTrip: parse -> Format -> parse gives an equal tree, and Format
// is a fixed point from then on.
func ptRoundTrip(t *testing.T, src string) {
	t.Helper()
	m1 := ptParse(t, "a.ptx", src)
	out1 := Format(m1)
	m2, err := Parse("b.ptx", out1, nil)
	if err != nil {
		t.Fatalf("formatted output does not parse: %v\n%s", err, out1)
	}
	if d := DiffModules(m1, m2); d != "" {
		t.Fatalf("round trip changed the tree: %s\n--- formatted:\n%s", d, out1)
	}
	out2 := Format(m2)
	if !bytes.Equal(out1, out2) {
		t.Fatalf("Format is not idempotent\n--- first:\n%s\n--- second:\n%s", out1, out2)
	}
}

// ptRichSource uses every node type of the tree.
const ptRichSource = `// header comment
.version 9.0
.target sm_90a, debug
.address_size 64

.file 1 "kernel.cu", 1700000000, 4096
.file 2 "dir\\x \"q\".cu"

@@DWARF .byte 0x2b, 0x00

.extern .shared .align 16 .b8 smem[];
.global .attribute(.managed) .align 8 .v4 .f32 v = {1.0, 2.0, 0f3F800000, 0d3FF0000000000000};
.const[2] .u32 banked;
.global .s32 offset[][2] = {{-1, 0}, {0, -1}};
.global .u64 gp = generic(offset)+8;
.global .u8 masks[] = {0xFF(gp), 0xFF00(gp+4)};
.global .samplerref samp = {addr_mode_0 = clamp_to_border, filter_mode = nearest};
.global .u32 cexpr = (1+2)*3-(4>>1) ? ~5U : -(.s64)6, c2 = 1<2==0&&!3||4 % 2^1|0&1;
.alias fooAlias, foo;
.pragma "nounroll";

.func (.param .b32 r) foo(.param .b32 a, .param .align 16 .b8 buf[16]) .noreturn;
.func .attribute(.unified(0xAB, 0xCD)) bar() { ret; }
.entry old { .param .b32 x; exit; }

.visible .entry kern(
	.param .u64 .ptr .global .align 16 p,
	.param .u64 .ptr.align 8 q,
	.param .u32 n
)
.maxntid 256, 1, 1
.minnctapersm 2
{
	.reg .pred %p<3>;
	.reg .b32 %r<10>, %tmp;
	.local .align 4 .b8 stack[32];
	.loc 1 10 5
	.loc 1 11 3, function_name $L__info_string0+4, inlined_at 1 20 7
	.loc 1 12
	mov.u32 %r1, %tid.x;
	setp.lt.s32 %p1|%p2, %r1, -1;
	@!%p1 bra.uni $L__BB0_2;
	@%p2 exit;
	ld.global.v2.u32 {%r2, %r3}, [%rd1+8];
	ld.global.u32 %r4, [stack+-4];
	add.s32 %r5, %r4, (.s64)(-1);
	tex.2d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tex, {%r1, %r2}];
	mov.u32 %r6, v[1];
	.pragma "nounroll";
	@@DWARF .4byte 0x00
	{
		.reg .b32 t;
		.param .b32 param0;
		st.param.b32 [param0+0], %r1;
		call.uni (retval0), foo, (param0, stack);
		{ ret; }
	}
$L__BB0_2:
	proto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b8 _[12]) .abi_preserve 8;
	proto2: .callprototype _ ;
	tgts: .calltargets foo, bar;
	btgts: .branchtargets $L__BB0_2, L3;
	ret;
}

.section .debug_info
{
	.b32 11430
	.b8 2, 0
	.b32 .debug_abbrev
info_label1:
	.b32 info_label1+12
	.b64 L2-L1, -1
}
// trailing comment
`

func TestRoundTripRich(t *testing.T) {
	ptRoundTrip(t, ptRichSource)
}

func TestRoundTripSnippets(t *testing.T) {
	snippets := []string{
		".version 7.0\n.target sm_70\n.address_size 64\n",
		".entry k() { .reg .b32 %r<2>; mov.b32 %r1, 0x7fffffff; ret; }",
		".entry k() { add.f32 %f1, %f2, 0F3F800000; add.f64 %fd1, %fd2, 0D3FF0000000000000; add.f64 %fd1, %fd2, 1.5e-3; }",
		".entry k() { mov.u64 %rd1, 017; mov.u64 %rd1, 0b1011; mov.u64 %rd2, 42U; }",
		".global .u32 a = (1), b = ((2+3))*4;",
		".global .u32 x = 1 ? 2 : 3 ? 4 : 5;",
		".global .u32 x = (1 ? 2 : 3) ? 4 : 5;",
		".global .s64 x = -(-42), y = - -42, z = +1;",
		".global .u64 t[] = {generic(a)+4, a-b, 0xFF(generic(foo)+4)};",
		".entry k() { L1: L2: ret; }",
		".entry k() { mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f5,%f6,%f7,%f8}; }",
		".entry k() { cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4]; }",
		".entry k() { @%p1 call (%r1), %rd1, (%r2), proto; call.uni foo, (); }",
		".func (.param .b32 r) f() { st.param.b32 [r], 1; ret; }",
		".entry k() { { { { ret; } } } }",
		"\n\n// only comments\n\n/* block */\n",
		".entry k() {\n\tmov.u32 %r1, 1;\n\n\n\tmov.u32 %r2, 2; // x\n\n\tret;\n}\n",
		".extern .func (.param .b32 r) ext(.param .b32 a);\n.weak .func w();\n.common .global .u32 c;\n",
		".entry k(.param .texref t, .param .samplerref s, .param .surfref f) { ret; }",
		".global .texref tex1;\n.global .samplerref smp = { filter_mode = linear, addr_mode_1 = wrap };\n",
		".entry k() .reqntid 32, 1, 1 .maxnreg 64 .explicitcluster .reqnctapercluster 2, 1, 1 .maxclusterrank 8 .blocksareclusters { ret; }",
		".func f() .noreturn .abi_preserve 8 .abi_preserve_control 4;",
		"@@DWARF .section .debug_pubnames, \"\", @progbits\n@@DWARF .4byte .debug_info\n",
		".section .debug_abbrev {\n.b8 1 // code\n.b8 17 // tag\n}\n.section .debug_loc { }\n",
		".entry k() { .shared .align 8 .b8 buf[1024]; .reg .v4 .f32 %v; mov.f32 %f1, %v.x; mov.f32 %f2, %v.a; }",
		".entry k() { ld.param.u32 %r1, [p+4]; ld.u32 %r2, [%r1+-4]; ld.u32 %r3, [%r1+(4*2)]; }",
		".entry k() { ld.const[2].b32 %r1, [const_buffer+4]; ld.global.f32 d, [ugbl].unified; ld.b32 %r0, [%r1].unified; }",
		".entry k() { vadd.u32.u32.u32.add %r1, %r2.b0, %r3.h1, %r4; vadd2.s32.s32.u32.sat %r1.h0, %r2.h10, %r3.h32, %r1; }",
		".entry k() { tn: .branchtargets N<5>; brx.idx.uni %r1, tn; N0: N1: N2: N3: N4: ret; }",
		".entry k() { @!%p1 bra.uni L; L: mov.b32 %r1, 100 % 7; mov.b32 %r1, 0x10 % 0x3; }",
	}
	for _, src := range snippets {
		ptRoundTrip(t, src)
	}
}

// The canonical form of ptRichSource is a fixed point already; this pins the
// layout of a whole module.
func TestFormatRichGolden(t *testing.T) {
	m := ptParse(t, "rich.ptx", ptRichSource)
	got := string(Format(m))
	want := ptRichGolden
	if got != want {
		t.Errorf("got:\n%s", got)
	}
}

const ptRichGolden = `// header comment
.version 9.0
.target sm_90a, debug
.address_size 64

.file 1 "kernel.cu", 1700000000, 4096
.file 2 "dir\\x \"q\".cu"

@@DWARF .byte 0x2b, 0x00

.extern .shared .align 16 .b8 smem[];
.global .attribute(.managed) .align 8 .v4 .f32 v = {1.0, 2.0, 0f3F800000, 0d3FF0000000000000};
.const[2] .u32 banked;
.global .s32 offset[][2] = {{-1, 0}, {0, -1}};
.global .u64 gp = generic(offset)+8;
.global .u8 masks[] = {0xFF(gp), 0xFF00(gp+4)};
.global .samplerref samp = {addr_mode_0 = clamp_to_border, filter_mode = nearest};
.global .u32 cexpr = (1+2)*3-(4>>1) ? ~5U : -(.s64)6, c2 = 1<2==0&&!3||4 % 2^1|0&1;
.alias fooAlias, foo;
.pragma "nounroll";

.func (.param .b32 r) foo(
	.param .b32 a,
	.param .align 16 .b8 buf[16]
)
.noreturn;

.func .attribute(.unified(0xAB, 0xCD)) bar()
{
	ret;
}

.entry old
{
	.param .b32 x;
	exit;
}

.visible .entry kern(
	.param .u64 .ptr .global .align 16 p,
	.param .u64 .ptr .align 8 q,
	.param .u32 n
)
.maxntid 256, 1, 1
.minnctapersm 2
{
	.reg .pred %p<3>;
	.reg .b32 %r<10>, %tmp;
	.local .align 4 .b8 stack[32];
	.loc 1 10 5
	.loc 1 11 3, function_name $L__info_string0+4, inlined_at 1 20 7
	.loc 1 12
	mov.u32 %r1, %tid.x;
	setp.lt.s32 %p1|%p2, %r1, -1;
	@!%p1 bra.uni $L__BB0_2;
	@%p2 exit;
	ld.global.v2.u32 {%r2, %r3}, [%rd1+8];
	ld.global.u32 %r4, [stack+-4];
	add.s32 %r5, %r4, (.s64)(-1);
	tex.2d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tex, {%r1, %r2}];
	mov.u32 %r6, v[1];
	.pragma "nounroll";
	@@DWARF .4byte 0x00
	{
		.reg .b32 t;
		.param .b32 param0;
		st.param.b32 [param0+0], %r1;
		call.uni (retval0), foo, (param0, stack);
		{
			ret;
		}
	}
$L__BB0_2:
	proto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b8 _[12]) .abi_preserve 8;
	proto2: .callprototype _;
	tgts: .calltargets foo, bar;
	btgts: .branchtargets $L__BB0_2, L3;
	ret;
}

.section .debug_info
{
	.b32 11430
	.b8 2, 0
	.b32 .debug_abbrev
info_label1:
	.b32 info_label1+12
	.b64 L2-L1, -1
}
// trailing comment
`

// TestCommentsAnywhere inserts comments and blank lines at random places
// between tokens and checks that formatting keeps every comment, in order,
// and is a fixed point after one pass.
func TestCommentsAnywhere(t *testing.T) {
	sources := []string{ptRichSource, bodyOfSnippets()}
	iters := []int{300, 300}
	// Corpus modules without preprocessor lines (a comment must not land in one).
	for _, file := range corpusFiles(t) {
		src, err := os.ReadFile(file)
		if err != nil || bytes.IndexByte(src, '#') >= 0 || len(src) > 32<<10 {
			continue
		}
		if _, err := Parse(file, src, nil); err == nil {
			sources = append(sources, string(src))
			iters = append(iters, 4)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for k, src := range sources {
		// Offsets where a comment may go: blanks and line ends outside strings.
		var spots []int
		inStr, dwarf := false, false // @@DWARF lines end at the newline: leave them alone
		for i := 0; i < len(src); i++ {
			switch c := src[i]; {
			case c == '@' && strings.HasPrefix(src[i:], "@@DWARF"):
				dwarf = true
			case c == '\n' && dwarf:
				dwarf = false
			case dwarf:
			case !inStr && strings.HasPrefix(src[i:], "//"):
				if n := strings.IndexByte(src[i:], '\n'); n >= 0 {
					i += n
				} else {
					i = len(src)
				}
			case !inStr && strings.HasPrefix(src[i:], "/*"):
				if n := strings.Index(src[i:], "*/"); n >= 0 {
					i += n + 1
				} else {
					i = len(src)
				}
			case c == '"' && (i == 0 || src[i-1] != '\\'):
				inStr = !inStr
			case !inStr && (c == ' ' || c == '\n' || c == '\t'):
				spots = append(spots, i)
			}
		}
		for iter := 0; iter < iters[k]; iter++ {
			var b strings.Builder
			last := 0
			for _, at := range spots {
				if rng.IntN(6) != 0 {
					continue
				}
				b.WriteString(src[last:at])
				last = at
				switch rng.IntN(4) {
				case 0:
					b.WriteString(" /* c" + strconv.Itoa(at) + " */ ")
				case 1:
					b.WriteString(" // l" + strconv.Itoa(at) + "\n")
				case 2:
					b.WriteString("\n\n")
				case 3:
					b.WriteString(" /* multi\nline */")
				}
			}
			b.WriteString(src[last:])
			ptRoundTrip(t, b.String())
		}
	}
}

func bodyOfSnippets() string {
	return `.version 9.0
.target sm_90
.address_size 64
.func (.param .b32 r) f(.param .b32 a) .noreturn;
.entry k(.param .u64 p) .maxntid 32, 1, 1 {
	.reg .b32 %r<4>;
	L1: @%p1 bra L1;
	{ .param .b32 x; call.uni (x), f, (x); }
	proto: .callprototype _ (.param .b32 _);
	ret;
}
.section .debug_str { s0: .b8 95, 0 .b32 s0+1 }
`
}

// Nodes from included files and after #line have positions in other files;
// comments are placed by the positions of nodes of their own file.
func TestFormatCommentsPreprocessed(t *testing.T) {
	files := map[string]string{"inc.ptx": "// not recorded\n.global .u32 fromInc; // nor this\n.global .u32 fromInc2;\n"}
	src := `// top
.version 9.0
#define N 4
// after define
#include "inc.ptx"
// after include
.global .u32 a[N]; // a
#line 100 "other.cu"
// after line
.global .u32 b; // b
#line 3 "x.ptx"
.global .u32 c; // c
`
	opts := &ParseOptions{ReadFile: func(n string) ([]byte, error) { return []byte(files[n]), nil }}
	m, err := Parse("x.ptx", []byte(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := `// top
.version 9.0

.global .u32 fromInc;
.global .u32 fromInc2;
// after define

// after include
.global .u32 a[4]; // a
// after line
.global .u32 b; // b
.global .u32 c; // c
`
	if got := string(Format(m)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// BenchmarkFormatComments: printing throughput on a module with a comment on
// every line (as nvcc's debug sections have).
func BenchmarkFormatComments(b *testing.B) {
	m := ptBigModule(100000)
	size := len(Format(m))
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		Format(m)
	}
}

// BenchmarkPrint: printing to a writer (buffered in pieces) on the
// synthetic module.
func BenchmarkPrint(b *testing.B) {
	src := syntheticModule(4 << 20)
	m, err := Parse("synthetic.ptx", src, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Print(io.Discard, m); err != nil {
			b.Fatal(err)
		}
	}
}
