package ptx

import (
	"strings"
	"testing"
)

func eqParse(t *testing.T, name, src string) *Module {
	t.Helper()
	m, err := Parse(name, []byte(src), nil)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return m
}

func TestEqualIgnoresPositions(t *testing.T) {
	a := eqParse(t, "a.ptx", ptRichSource)
	// The canonical form moves nearly every node, and a different file name
	// changes every Pos.File.
	b := eqParse(t, "other.ptx", string(Format(a)))
	if !EqualModules(a, b) {
		t.Fatalf("not equal after formatting: %s", DiffModules(a, b))
	}
	// Comments compare by text only.
	b.Comments[0].Pos = Pos{Line: 99, Col: 7}
	if d := DiffModules(a, b); d != "" {
		t.Errorf("comment position changed equality: %s", d)
	}
	// Block.End is a position too.
	b.Items[ptKernIndex].(*Function).Body.End = Pos{}
	if !EqualModules(a, b) {
		t.Error("Block.End changed equality")
	}
	if !EqualModules(a, a) || DiffModules(a, a) != "" {
		t.Error("module not equal to itself")
	}
	if !EqualModules(nil, nil) || EqualModules(a, nil) || EqualModules(nil, a) {
		t.Error("nil module handling")
	}
	if !EqualModules(&Module{}, &Module{Items: []Item{}, Comments: []Comment{}}) {
		t.Error("nil and empty lists differ")
	}
}

// Indexes into ptRichSource's items.
const (
	ptFileIndex    = 4  // .file 2 "dir..."
	ptDwarfIndex   = 5  // @@DWARF
	ptSmemIndex    = 6  // .extern .shared .align 16 .b8 smem[];
	ptVIndex       = 7  // .global .attribute(.managed) ... v = {...}
	ptBankIndex    = 8  // .const[2]
	ptOffsetIndex  = 9  // offset[][2]
	ptGpIndex      = 10 // gp = generic(offset)+8
	ptSampIndex    = 12 // samplerref with key = value
	ptCexprIndex   = 13 // cexpr, c2
	ptAliasIndex   = 14
	ptPragmaIndex  = 15
	ptFooIndex     = 16 // .func (.param .b32 r) foo(...) .noreturn;
	ptBarIndex     = 17 // .func .attribute(.unified(0xAB, 0xCD)) bar()
	ptKernIndex    = 19
	ptSectionIndex = 20
)

func ptKern(m *Module) []Stmt { return m.Items[ptKernIndex].(*Function).Body.Stmts }
func ptKernIns(m *Module, i int) *Instruction {
	return ptKern(m)[i].(*Instruction)
}
func ptInit(m *Module, item, name int) Expr {
	return m.Items[item].(*VarDecl).Names[name].Init
}

func TestEqualDetectsDifferences(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(m *Module)
		want   string // a substring of DiffModules
	}{
		{"version", func(m *Module) { m.Items[0].(*Version).Minor = 1 }, "Items[0]: Version.Minor: 0 vs 1"},
		{"target", func(m *Module) { m.Items[1].(*Target).Names[1] = "texmode_unified" }, `Items[1].Names[1]: "debug" vs "texmode_unified"`},
		{"target count", func(m *Module) { m.Items[1].(*Target).Names = m.Items[1].(*Target).Names[:1] }, "Names: length 2 vs 1"},
		{"address size", func(m *Module) { m.Items[2].(*AddressSize).Size = 32 }, "AddressSize.Size: 64 vs 32"},
		{"item count", func(m *Module) { m.Items = m.Items[:3] }, "Items: length 21 vs 3"},
		{"item type", func(m *Module) { m.Items[0] = &AddressSize{Size: 64} }, "Items[0]: node type: Version vs AddressSize"},
		{"file name", func(m *Module) { m.Items[ptFileIndex].(*FileDirective).Name = "x.cu" }, "FileDirective.Name"},
		{"file index", func(m *Module) { m.Items[ptFileIndex].(*FileDirective).Index = 3 }, "FileDirective.Index"},
		{"file timestamp", func(m *Module) { m.Items[3].(*FileDirective).Timestamp = nil }, "Items[3].Timestamp: node type: IntLit vs <nil>"},
		{"file size", func(m *Module) { m.Items[3].(*FileDirective).Size.(*IntLit).Text = "1" }, "Items[3].Size: IntLit.Text"},
		{"dwarf", func(m *Module) { m.Items[ptDwarfIndex].(*Dwarf).Text = ".byte 1" }, "Dwarf.Text"},
		{"linkage", func(m *Module) { m.Items[ptSmemIndex].(*VarDecl).Linkage = ".weak" }, "VarDecl.Linkage"},
		{"space", func(m *Module) { m.Items[ptSmemIndex].(*VarDecl).Space = ".shared::cta" }, "VarDecl.Space"},
		{"align", func(m *Module) { m.Items[ptSmemIndex].(*VarDecl).Align = nil }, "Items[6].Align: node type: IntLit vs <nil>"},
		{"dims", func(m *Module) { m.Items[ptSmemIndex].(*VarDecl).Names[0].Dims[0] = &IntLit{Text: "4", Value: 4} }, "Items[6].Names[0].Dims[0]: node type: <nil> vs IntLit"},
		{"dim count", func(m *Module) { m.Items[ptSmemIndex].(*VarDecl).Names[0].Dims = nil }, "Dims: length 1 vs 0"},
		{"declarator name", func(m *Module) { m.Items[ptSmemIndex].(*VarDecl).Names[0].Name = "s" }, "Declarator.Name"},
		{"bank", func(m *Module) { m.Items[ptBankIndex].(*VarDecl).Bank.(*IntLit).Value = 3 }, "Items[8].Bank: IntLit.Value: 2 vs 3"},
		{"attribute name", func(m *Module) { m.Items[ptVIndex].(*VarDecl).Attributes[0].Name = ".unified" }, "Items[7].Attributes[0]: Attribute.Name"},
		{"attribute parens", func(m *Module) { m.Items[ptVIndex].(*VarDecl).Attributes[0].Args = []Expr{} }, "Attribute.Args: no parentheses vs 0 arguments"},
		{"attribute args", func(m *Module) {
			m.Items[ptBarIndex].(*Function).Attributes[0].Args[1].(*IntLit).Text = "0xCE"
		}, "Items[17].Attributes[0].Args[1]: IntLit.Text"},
		{"vector", func(m *Module) { m.Items[ptVIndex].(*VarDecl).Vector = 2 }, "VarDecl.Vector: 4 vs 2"},
		{"type", func(m *Module) { m.Items[ptVIndex].(*VarDecl).Type = ".f64" }, "VarDecl.Type"},
		{"float text", func(m *Module) { ptInit(m, ptVIndex, 0).(*BraceExpr).Elems[2].(*FloatLit).Text = "0f3F800001" }, "Init.Elems[2]: FloatLit.Text"},
		{"float bits", func(m *Module) { ptInit(m, ptVIndex, 0).(*BraceExpr).Elems[2].(*FloatLit).Bits++ }, "FloatLit.Bits"},
		{"float single", func(m *Module) { ptInit(m, ptVIndex, 0).(*BraceExpr).Elems[2].(*FloatLit).Single = false }, "FloatLit.Single"},
		{"brace count", func(m *Module) {
			b := ptInit(m, ptVIndex, 0).(*BraceExpr)
			b.Elems = b.Elems[1:]
		}, "Items[7].Names[0].Init.Elems: length 4 vs 3"},
		{"unary op", func(m *Module) {
			ptInit(m, ptOffsetIndex, 0).(*BraceExpr).Elems[0].(*BraceExpr).Elems[0].(*UnaryExpr).Op = "~"
		}, "Init.Elems[0].Elems[0]: UnaryExpr.Op"},
		{"binary op", func(m *Module) { ptInit(m, ptGpIndex, 0).(*BinaryExpr).Op = "-" }, "Init: BinaryExpr.Op"},
		{"call fun", func(m *Module) { ptInit(m, ptGpIndex, 0).(*BinaryExpr).X.(*CallExpr).Fun.(*Ident).Name = "mask" }, "Init.X.Fun: Ident.Name"},
		{"call args", func(m *Module) { ptInit(m, ptGpIndex, 0).(*BinaryExpr).X.(*CallExpr).Args = nil }, "Init.X.Args: length 1 vs 0"},
		{"key", func(m *Module) { ptInit(m, ptSampIndex, 0).(*BraceExpr).Elems[1].(*KeyValue).Key = "addr_mode_1" }, "KeyValue.Key"},
		{"key value", func(m *Module) {
			ptInit(m, ptSampIndex, 0).(*BraceExpr).Elems[1].(*KeyValue).Value.(*Ident).Name = "linear"
		}, "Elems[1].Value: Ident.Name"},
		{"cond", func(m *Module) { ptInit(m, ptCexprIndex, 0).(*CondExpr).Y = &IntLit{Text: "6", Value: 6} }, "Init.Y: node type: UnaryExpr vs IntLit"},
		{"cast", func(m *Module) { ptInit(m, ptCexprIndex, 0).(*CondExpr).Y.(*UnaryExpr).X.(*CastExpr).Type = ".u64" }, "Init.Y.X: CastExpr.Type"},
		{"int unsigned", func(m *Module) { ptInit(m, ptCexprIndex, 0).(*CondExpr).X.(*UnaryExpr).X.(*IntLit).Unsigned = false }, "IntLit.Unsigned: true vs false"},
		{"paren dropped", func(m *Module) {
			c := ptInit(m, ptCexprIndex, 0).(*CondExpr)
			sub := c.Cond.(*BinaryExpr)
			sub.Y = sub.Y.(*ParenExpr).X
		}, "Init.Cond.Y: node type: ParenExpr vs BinaryExpr"},
		{"second declarator", func(m *Module) { m.Items[ptCexprIndex].(*VarDecl).Names[1].Name = "c3" }, "Items[13].Names[1]: Declarator.Name"},
		{"alias", func(m *Module) { m.Items[ptAliasIndex].(*Alias).Target = "bar" }, "Alias.Target"},
		{"alias name", func(m *Module) { m.Items[ptAliasIndex].(*Alias).Name = "x" }, "Alias.Name"},
		{"module directive", func(m *Module) {
			m.Items[ptPragmaIndex].(*Directive).Args[0].(*StringLit).Value = "unroll"
		}, "Items[15].Args[0]: StringLit.Value"},
		{"string text", func(m *Module) {
			m.Items[ptPragmaIndex].(*Directive).Args[0].(*StringLit).Text = `"x"`
		}, "StringLit.Text"},
		{"function linkage", func(m *Module) { m.Items[ptKernIndex].(*Function).Linkage = "" }, "Function.Linkage"},
		{"function kind", func(m *Module) { m.Items[ptKernIndex].(*Function).Kind = ".func" }, "Function.Kind"},
		{"function name", func(m *Module) { m.Items[ptKernIndex].(*Function).Name = "k2" }, "Function.Name"},
		{"has results", func(m *Module) { m.Items[ptBarIndex].(*Function).HasResults = true }, "Function.HasResults"},
		{"has params", func(m *Module) { m.Items[ptBarIndex].(*Function).HasParams = false }, "Function.HasParams"},
		{"results", func(m *Module) { m.Items[ptFooIndex].(*Function).Results[0].Type = ".b64" }, "Items[16].Results[0]: VarDecl.Type"},
		{"params", func(m *Module) { m.Items[ptFooIndex].(*Function).Params[1].Align.(*IntLit).Text = "8" }, "Items[16].Params[1].Align: IntLit.Text"},
		{"param count", func(m *Module) { m.Items[ptFooIndex].(*Function).Params = nil }, "Params: length 2 vs 0"},
		{"ptr", func(m *Module) { m.Items[ptKernIndex].(*Function).Params[0].Ptr = nil }, "Params[0]: Ptr: .ptr vs none"},
		{"ptr space", func(m *Module) { m.Items[ptKernIndex].(*Function).Params[0].Ptr.Space = ".shared" }, "Params[0].Ptr: PtrAttr.Space"},
		{"ptr align", func(m *Module) { m.Items[ptKernIndex].(*Function).Params[1].Ptr.Align = nil }, "Params[1].Ptr.Align: node type: IntLit vs <nil>"},
		{"function directive", func(m *Module) {
			m.Items[ptKernIndex].(*Function).Directives[0].Args[2].(*IntLit).Text = "2"
		}, "Items[19].Directives[0].Args[2]: IntLit.Text"},
		{"directive name", func(m *Module) { m.Items[ptFooIndex].(*Function).Directives[0].Name = ".maxnreg" }, "Directives[0]: Directive.Name"},
		{"body", func(m *Module) { m.Items[ptBarIndex].(*Function).Body = nil }, "Items[17]: Body: present vs none (declaration)"},
		{"stmt count", func(m *Module) {
			f := m.Items[ptKernIndex].(*Function)
			f.Body.Stmts = f.Body.Stmts[:3]
		}, "Items[19].Body.Stmts: length 24 vs 3"},
		{"stmt type", func(m *Module) { ptKern(m)[0] = &Label{Name: "x"} }, "Body.Stmts[0]: node type: VarDecl vs Label"},
		{"count", func(m *Module) { ptKern(m)[0].(*VarDecl).Names[0].Count.(*IntLit).Value = 4 }, "Stmts[0].Names[0].Count: IntLit.Value: 3 vs 4"},
		{"loc file", func(m *Module) { ptKern(m)[3].(*Loc).File = 2 }, "Loc.File"},
		{"loc line", func(m *Module) { ptKern(m)[3].(*Loc).Line = 2 }, "Loc.Line"},
		{"loc col", func(m *Module) { ptKern(m)[3].(*Loc).Col = 2 }, "Loc.Col"},
		{"loc hascol", func(m *Module) { ptKern(m)[5].(*Loc).HasCol = true }, "Loc.HasCol"},
		{"loc function", func(m *Module) { ptKern(m)[4].(*Loc).FunctionName = nil }, "Stmts[4].FunctionName: node type: BinaryExpr vs <nil>"},
		{"loc inlined", func(m *Module) { ptKern(m)[4].(*Loc).InlinedAt.Col = 8 }, "InlinedAt: 1 20 7 vs 1 20 8"},
		{"loc inlined nil", func(m *Module) { ptKern(m)[4].(*Loc).InlinedAt = nil }, "InlinedAt: 1 20 7 vs none"},
		{"opcode", func(m *Module) { ptKernIns(m, 6).Opcode = "mul" }, "Instruction.Opcode"},
		{"modifiers", func(m *Module) { ptKernIns(m, 6).Modifiers[0] = ".s32" }, `Stmts[6].Modifiers[0]: ".u32" vs ".s32"`},
		{"modifier count", func(m *Module) { ptKernIns(m, 6).Modifiers = nil }, "Modifiers: length 1 vs 0"},
		{"selector", func(m *Module) { ptKernIns(m, 6).Operands[1].(*SelectorExpr).Sel = "y" }, "Operands[1]: SelectorExpr.Sel"},
		{"selector base", func(m *Module) { ptKernIns(m, 6).Operands[1].(*SelectorExpr).X.(*Ident).Name = "%ntid" }, "Operands[1].X: Ident.Name"},
		{"pred pair", func(m *Module) { ptKernIns(m, 7).Operands[0].(*BinaryExpr).Y.(*Ident).Name = "%p3" }, "Stmts[7].Operands[0].Y: Ident.Name"},
		{"guard negate", func(m *Module) { ptKernIns(m, 8).Guard.Negate = false }, "Guard: @!%p1 vs @%p1"},
		{"guard pred", func(m *Module) { ptKernIns(m, 8).Guard.Pred = "%p2" }, "Guard: @!%p1 vs @!%p2"},
		{"guard nil", func(m *Module) { ptKernIns(m, 8).Guard = nil }, "Guard: @!%p1 vs none"},
		{"address", func(m *Module) {
			ptKernIns(m, 10).Operands[1].(*AddressExpr).Elems[0].(*BinaryExpr).Y.(*IntLit).Text = "16"
		}, "Operands[1].Elems[0].Y: IntLit.Text"},
		{"address count", func(m *Module) { ptKernIns(m, 13).Operands[1].(*AddressExpr).Elems = nil }, "Operands[1].Elems: length 2 vs 0"},
		{"operand count", func(m *Module) { ptKernIns(m, 13).Operands = nil }, "Stmts[13].Operands: length 2 vs 0"},
		{"index", func(m *Module) { ptKernIns(m, 14).Operands[1].(*IndexExpr).Index.(*IntLit).Text = "2" }, "Operands[1].Index: IntLit.Text"},
		{"index base", func(m *Module) { ptKernIns(m, 14).Operands[1].(*IndexExpr).X.(*Ident).Name = "w" }, "Operands[1].X: Ident.Name"},
		{"paren inner", func(m *Module) {
			ptKernIns(m, 12).Operands[2].(*CastExpr).X.(*ParenExpr).X.(*UnaryExpr).X.(*IntLit).Value = 2
		}, "Operands[2].X.X.X: IntLit.Value"},
		{"stmt directive", func(m *Module) { ptKern(m)[15].(*Directive).Args = nil }, "Stmts[15].Args: length 1 vs 0"},
		{"stmt dwarf", func(m *Module) { ptKern(m)[16].(*Dwarf).Text = "" }, "Stmts[16]: Dwarf.Text"},
		{"nested block", func(m *Module) {
			ptKern(m)[17].(*Block).Stmts[3].(*Instruction).Operands[0].(*TupleExpr).Elems[0].(*Ident).Name = "r"
		}, "Body.Stmts[17].Stmts[3].Operands[0].Elems[0]: Ident.Name"},
		{"tuple count", func(m *Module) {
			ptKern(m)[17].(*Block).Stmts[3].(*Instruction).Operands[2].(*TupleExpr).Elems = nil
		}, "Operands[2].Elems: length 2 vs 0"},
		{"label", func(m *Module) { ptKern(m)[18].(*Label).Name = "L" }, "Stmts[18]: Label.Name"},
		{"prototype name", func(m *Module) { ptKern(m)[19].(*Prototype).Name = "q" }, "Prototype.Name"},
		{"prototype results", func(m *Module) { ptKern(m)[19].(*Prototype).HasResults = false }, "Prototype.HasResults"},
		{"prototype params", func(m *Module) {
			ptKern(m)[19].(*Prototype).Params[1].Names[0].Dims[0].(*IntLit).Text = "16"
		}, "Stmts[19].Params[1].Names[0].Dims[0]: IntLit.Text"},
		{"prototype directives", func(m *Module) { ptKern(m)[19].(*Prototype).Directives = nil }, "Directives: length 1 vs 0"},
		{"prototype has params", func(m *Module) { ptKern(m)[20].(*Prototype).HasParams = true }, "Prototype.HasParams"},
		{"target list kind", func(m *Module) { ptKern(m)[21].(*TargetList).Kind = ".branchtargets" }, "TargetList.Kind"},
		{"target list name", func(m *Module) { ptKern(m)[21].(*TargetList).Name = "t" }, "TargetList.Name"},
		{"target list", func(m *Module) { ptKern(m)[22].(*TargetList).Targets[1] = "L4" }, `Stmts[22].Targets[1]: "L3" vs "L4"`},
		{"section name", func(m *Module) { m.Items[ptSectionIndex].(*Section).Name = ".debug_loc" }, "Section.Name"},
		{"section items", func(m *Module) { m.Items[ptSectionIndex].(*Section).Items = nil }, "Items[20].Items: length 6 vs 0"},
		{"section data type", func(m *Module) { m.Items[ptSectionIndex].(*Section).Items[0].(*SectionData).Type = ".b64" }, "SectionData.Type"},
		{"section data", func(m *Module) {
			m.Items[ptSectionIndex].(*Section).Items[5].(*SectionData).Values[1].(*UnaryExpr).Op = "~"
		}, "Items[20].Items[5].Values[1]: UnaryExpr.Op"},
		{"section label", func(m *Module) { m.Items[ptSectionIndex].(*Section).Items[3].(*Label).Name = "x" }, "Items[20].Items[3]: Label.Name"},
		{"comment text", func(m *Module) { m.Comments[1].Text = "// other" }, `Comments[1]: Text: "// trailing comment" vs "// other"`},
		{"comment count", func(m *Module) { m.Comments = m.Comments[:1] }, "Comments: length 2 vs 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := eqParse(t, "a.ptx", ptRichSource)
			b := eqParse(t, "a.ptx", ptRichSource)
			tt.mutate(b)
			if EqualModules(a, b) {
				t.Fatal("EqualModules = true after mutation")
			}
			d := DiffModules(a, b)
			if !strings.Contains(d, tt.want) {
				t.Fatalf("DiffModules = %q, want it to contain %q", d, tt.want)
			}
			// Symmetric: the reverse comparison also fails.
			if EqualModules(b, a) {
				t.Fatal("EqualModules(b, a) = true")
			}
		})
	}
}

func TestEqualHandBuilt(t *testing.T) {
	mk := func(x Expr) *Module {
		return &Module{Items: []Item{&Directive{Name: ".pragma", Args: []Expr{x}}}}
	}
	pairs := []struct {
		a, b Expr
		want string
	}{
		{&TupleExpr{Elems: []Expr{&Ident{Name: "a"}}}, &ParenExpr{X: &Ident{Name: "a"}}, "node type: TupleExpr vs ParenExpr"},
		{&BraceExpr{}, &AddressExpr{}, "node type: BraceExpr vs AddressExpr"},
		{&CondExpr{Cond: &Ident{Name: "a"}, X: &Ident{Name: "b"}, Y: &Ident{Name: "c"}},
			&CondExpr{Cond: &Ident{Name: "x"}, X: &Ident{Name: "b"}, Y: &Ident{Name: "c"}}, "Items[0].Args[0].Cond: Ident.Name"},
		{&CondExpr{Cond: &Ident{Name: "a"}, X: &Ident{Name: "b"}, Y: &Ident{Name: "c"}},
			&CondExpr{Cond: &Ident{Name: "a"}, X: &Ident{Name: "x"}, Y: &Ident{Name: "c"}}, "Args[0].X: Ident.Name"},
		{&IntLit{Text: "1", Value: 1}, &IntLit{Text: "1", Value: 2}, "IntLit.Value: 1 vs 2"},
		{&KeyValue{Key: "k", Value: &Ident{Name: "v"}}, &KeyValue{Key: "k", Value: nil}, "Args[0].Value: node type: Ident vs <nil>"},
		{&CallExpr{Fun: &Ident{Name: "f"}}, &CallExpr{Fun: &Ident{Name: "f"}, Args: []Expr{}}, ""},
		{&BinaryExpr{Op: "+", X: &Ident{Name: "a"}, Y: &Ident{Name: "b"}, Pos: Pos{Line: 3}},
			&BinaryExpr{Op: "+", X: &Ident{Name: "a", Pos: Pos{File: "z", Line: 9, Col: 9}}, Y: &Ident{Name: "b"}}, ""},
	}
	for _, p := range pairs {
		d := DiffModules(mk(p.a), mk(p.b))
		if p.want == "" {
			if d != "" || !EqualModules(mk(p.a), mk(p.b)) {
				t.Errorf("want equal, got %q", d)
			}
			continue
		}
		if !strings.Contains(d, p.want) {
			t.Errorf("DiffModules = %q, want %q", d, p.want)
		}
	}
	// Nil entries in lists.
	a := &Module{Items: []Item{nil}}
	if !EqualModules(a, &Module{Items: []Item{nil}}) {
		t.Error("nil items differ")
	}
	if d := DiffModules(a, &Module{Items: []Item{&Version{}}}); !strings.Contains(d, "node type: <nil> vs Version") {
		t.Errorf("nil item: %q", d)
	}
}

// BenchmarkEqualModules: comparison throughput on the synthetic 4 MB module.
func BenchmarkEqualModules(b *testing.B) {
	src := syntheticModule(4 << 20)
	m1, err := Parse("a.ptx", src, nil)
	if err != nil {
		b.Fatal(err)
	}
	m2, _ := Parse("b.ptx", src, nil)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if !EqualModules(m1, m2) {
			b.Fatal("not equal")
		}
	}
}

func TestEqualNilPointers(t *testing.T) {
	m := &Module{}
	if d := DiffModules(nil, m); d != "module: nil vs present" {
		t.Errorf("DiffModules(nil, m) = %q", d)
	}
	fa := &Function{Kind: ".func", Params: []*VarDecl{nil}}
	fb := &Function{Kind: ".func", Params: []*VarDecl{{Space: ".param", Type: ".b32"}}}
	d := DiffModules(&Module{Items: []Item{fa}}, &Module{Items: []Item{fb}})
	if d != "Items[0].Params[0]: parameter: nil vs present" {
		t.Errorf("nil parameter: %q", d)
	}
	va := &VarDecl{Space: ".reg", Type: ".b32", Names: []*Declarator{{Name: "a"}}}
	vb := &VarDecl{Space: ".reg", Type: ".b32", Names: []*Declarator{nil}}
	d = DiffModules(&Module{Items: []Item{va}}, &Module{Items: []Item{vb}})
	if d != "Items[0].Names[0]: declarator: present vs nil" {
		t.Errorf("nil declarator: %q", d)
	}
}
