package ptx

// Structural comparison of trees, for round-trip tests (parse, print, parse)
// and for tools that rewrite modules. Positions (every Pos field, Block.End,
// Module.File) are ignored; comments are compared by text, in order.

import (
	"fmt"
	"strconv"
	"strings"
)

// EqualModules reports whether a and b have the same tree, ignoring
// positions and file names and comparing comments by text only. A nil list
// equals an empty one, except for Attribute.Args, where nil means "written
// without parentheses".
func EqualModules(a, b *Module) bool {
	var d differ
	return d.module(a, b)
}

// DiffModules describes the first difference between a and b found in tree
// order, as a path and the two values (`Items[2].Body.Stmts[7].Operands[1]:
// IntLit.Text: "1" vs "2"`), or returns "" if EqualModules(a, b).
func DiffModules(a, b *Module) string {
	d := differ{explain: true}
	if d.module(a, b) {
		return ""
	}
	var s strings.Builder
	for i := len(d.path) - 1; i >= 0; i-- {
		s.WriteString(d.path[i])
		if i > 0 && !strings.HasPrefix(d.path[i-1], "[") {
			s.WriteByte('.')
		}
	}
	if s.Len() > 0 {
		s.WriteString(": ")
	}
	s.WriteString(d.msg)
	return s.String()
}

// differ compares trees. Every method returns false at the first
// difference; with explain set, the leaf records what differs and each
// level records where (path, innermost first), so the success path does no
// allocation.
type differ struct {
	explain bool
	msg     string
	path    []string
}

func (d *differ) fail(msg string) bool {
	if d.explain {
		d.msg = msg
	}
	return false
}

// in records that the difference lies under field name; it returns false.
func (d *differ) in(name string) bool {
	if d.explain {
		d.path = append(d.path, name)
	}
	return false
}

// at records that the difference lies at index i of the current list.
func (d *differ) at(i int) bool {
	if d.explain {
		d.path = append(d.path, "["+strconv.Itoa(i)+"]")
	}
	return false
}

func (d *differ) str(field, a, b string) bool {
	if a == b {
		return true
	}
	return d.fail(field + ": " + strconv.Quote(a) + " vs " + strconv.Quote(b))
}

func (d *differ) num(field string, a, b int) bool {
	if a == b {
		return true
	}
	return d.fail(field + ": " + strconv.Itoa(a) + " vs " + strconv.Itoa(b))
}

func (d *differ) u64(field string, a, b uint64) bool {
	if a == b {
		return true
	}
	return d.fail(field + ": " + strconv.FormatUint(a, 10) + " vs " + strconv.FormatUint(b, 10))
}

func (d *differ) flag(field string, a, b bool) bool {
	if a == b {
		return true
	}
	return d.fail(field + ": " + strconv.FormatBool(a) + " vs " + strconv.FormatBool(b))
}

func (d *differ) length(field string, a, b int) bool {
	if a == b {
		return true
	}
	d.fail("length " + strconv.Itoa(a) + " vs " + strconv.Itoa(b))
	return d.in(field)
}

// typeName names a node's type for messages: "Ident", "<nil>".
func typeName(n any) string {
	s := fmt.Sprintf("%T", n)
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

func nilString(isNil bool) string {
	if isNil {
		return "nil"
	}
	return "present"
}

func (d *differ) kinds(a, b any) bool {
	return d.fail("node type: " + typeName(a) + " vs " + typeName(b))
}

// eachEqual compares two lists element by element with eq, recording the
// field and index of the first difference.
func eachEqual[T any](d *differ, field string, a, b []T, eq func(x, y T) bool) bool {
	if len(a) != len(b) {
		return d.length(field, len(a), len(b))
	}
	for i := range a {
		if !eq(a[i], b[i]) {
			d.at(i)
			return d.in(field)
		}
	}
	return true
}

func (d *differ) strs(field string, a, b []string) bool {
	if len(a) != len(b) {
		return d.length(field, len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			d.fail(strconv.Quote(a[i]) + " vs " + strconv.Quote(b[i]))
			d.at(i)
			return d.in(field)
		}
	}
	return true
}

func (d *differ) module(a, b *Module) bool {
	if a == nil || b == nil {
		if a == b {
			return true
		}
		return d.fail("module: " + nilString(a == nil) + " vs " + nilString(b == nil))
	}
	return eachEqual(d, "Items", a.Items, b.Items, d.item) &&
		eachEqual(d, "Comments", a.Comments, b.Comments, func(x, y Comment) bool { return d.str("Text", x.Text, y.Text) })
}

func (d *differ) item(a, b Item) bool {
	if a == nil || b == nil {
		if a == nil && b == nil {
			return true
		}
		return d.kinds(a, b)
	}
	ob := b // b is shadowed by its asserted type below
	switch a := a.(type) {
	case *Version:
		b, ok := b.(*Version)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.num("Version.Major", a.Major, b.Major) && d.num("Version.Minor", a.Minor, b.Minor)
	case *Target:
		b, ok := b.(*Target)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.strs("Names", a.Names, b.Names)
	case *AddressSize:
		b, ok := b.(*AddressSize)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.num("AddressSize.Size", a.Size, b.Size)
	case *VarDecl:
		b, ok := b.(*VarDecl)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.varDecl(a, b)
	case *Function:
		b, ok := b.(*Function)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.function(a, b)
	case *FileDirective:
		b, ok := b.(*FileDirective)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.num("FileDirective.Index", a.Index, b.Index) &&
			d.str("FileDirective.Name", a.Name, b.Name) &&
			d.field("Timestamp", a.Timestamp, b.Timestamp) &&
			d.field("Size", a.Size, b.Size)
	case *Section:
		b, ok := b.(*Section)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("Section.Name", a.Name, b.Name) && d.stmts("Items", a.Items, b.Items)
	case *Directive:
		b, ok := b.(*Directive)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.directive(a, b)
	case *Alias:
		b, ok := b.(*Alias)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("Alias.Name", a.Name, b.Name) && d.str("Alias.Target", a.Target, b.Target)
	case *Dwarf:
		b, ok := b.(*Dwarf)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("Dwarf.Text", a.Text, b.Text)
	}
	return d.fail("unknown item type " + typeName(a))
}

func (d *differ) stmts(field string, a, b []Stmt) bool {
	return eachEqual(d, field, a, b, d.stmt)
}

func (d *differ) stmt(a, b Stmt) bool {
	if a == nil || b == nil {
		if a == nil && b == nil {
			return true
		}
		return d.kinds(a, b)
	}
	ob := b // b is shadowed by its asserted type below
	switch a := a.(type) {
	case *Label:
		b, ok := b.(*Label)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("Label.Name", a.Name, b.Name)
	case *Instruction:
		b, ok := b.(*Instruction)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.instruction(a, b)
	case *VarDecl:
		b, ok := b.(*VarDecl)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.varDecl(a, b)
	case *Block:
		b, ok := b.(*Block)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.stmts("Stmts", a.Stmts, b.Stmts)
	case *Loc:
		b, ok := b.(*Loc)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.loc(a, b)
	case *Directive:
		b, ok := b.(*Directive)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.directive(a, b)
	case *Prototype:
		b, ok := b.(*Prototype)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("Prototype.Name", a.Name, b.Name) &&
			d.flag("Prototype.HasResults", a.HasResults, b.HasResults) &&
			d.params("Results", a.Results, b.Results) &&
			d.flag("Prototype.HasParams", a.HasParams, b.HasParams) &&
			d.params("Params", a.Params, b.Params) &&
			d.directives(a.Directives, b.Directives)
	case *TargetList:
		b, ok := b.(*TargetList)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("TargetList.Name", a.Name, b.Name) &&
			d.str("TargetList.Kind", a.Kind, b.Kind) &&
			d.strs("Targets", a.Targets, b.Targets)
	case *SectionData:
		b, ok := b.(*SectionData)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("SectionData.Type", a.Type, b.Type) && d.exprs("Values", a.Values, b.Values)
	case *Dwarf:
		b, ok := b.(*Dwarf)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("Dwarf.Text", a.Text, b.Text)
	}
	return d.fail("unknown statement type " + typeName(a))
}

func (d *differ) instruction(a, b *Instruction) bool {
	if a.Guard != nil || b.Guard != nil {
		if a.Guard == nil || b.Guard == nil {
			return d.fail("Guard: " + guardString(a.Guard) + " vs " + guardString(b.Guard))
		}
		if a.Guard.Negate != b.Guard.Negate || a.Guard.Pred != b.Guard.Pred {
			return d.fail("Guard: " + guardString(a.Guard) + " vs " + guardString(b.Guard))
		}
	}
	return d.str("Instruction.Opcode", a.Opcode, b.Opcode) &&
		d.strs("Modifiers", a.Modifiers, b.Modifiers) &&
		d.exprs("Operands", a.Operands, b.Operands)
}

func guardString(g *Guard) string {
	switch {
	case g == nil:
		return "none"
	case g.Negate:
		return "@!" + g.Pred
	}
	return "@" + g.Pred
}

func (d *differ) loc(a, b *Loc) bool {
	if !d.num("Loc.File", a.File, b.File) || !d.num("Loc.Line", a.Line, b.Line) ||
		!d.flag("Loc.HasCol", a.HasCol, b.HasCol) || !d.num("Loc.Col", a.Col, b.Col) ||
		!d.field("FunctionName", a.FunctionName, b.FunctionName) {
		return false
	}
	x, y := a.InlinedAt, b.InlinedAt
	if x == nil || y == nil {
		if x == y {
			return true
		}
		return d.fail("InlinedAt: " + locRefString(x) + " vs " + locRefString(y))
	}
	if *x != *y {
		return d.fail("InlinedAt: " + locRefString(x) + " vs " + locRefString(y))
	}
	return true
}

func locRefString(r *LocRef) string {
	if r == nil {
		return "none"
	}
	return strconv.Itoa(r.File) + " " + strconv.Itoa(r.Line) + " " + strconv.Itoa(r.Col)
}

func (d *differ) directive(a, b *Directive) bool {
	return d.str("Directive.Name", a.Name, b.Name) && d.exprs("Args", a.Args, b.Args)
}

func (d *differ) directives(a, b []*Directive) bool {
	return eachEqual(d, "Directives", a, b, d.directive)
}

func (d *differ) function(a, b *Function) bool {
	if !d.str("Function.Linkage", a.Linkage, b.Linkage) ||
		!d.str("Function.Kind", a.Kind, b.Kind) ||
		!d.attributes(a.Attributes, b.Attributes) ||
		!d.flag("Function.HasResults", a.HasResults, b.HasResults) ||
		!d.params("Results", a.Results, b.Results) ||
		!d.str("Function.Name", a.Name, b.Name) ||
		!d.flag("Function.HasParams", a.HasParams, b.HasParams) ||
		!d.params("Params", a.Params, b.Params) ||
		!d.directives(a.Directives, b.Directives) {
		return false
	}
	if a.Body == nil || b.Body == nil {
		if a.Body == b.Body {
			return true
		}
		return d.fail("Body: " + bodyString(a.Body) + " vs " + bodyString(b.Body))
	}
	if !d.stmts("Stmts", a.Body.Stmts, b.Body.Stmts) {
		return d.in("Body")
	}
	return true
}

func bodyString(b *Block) string {
	if b == nil {
		return "none (declaration)"
	}
	return "present"
}

func (d *differ) params(field string, a, b []*VarDecl) bool {
	if len(a) != len(b) {
		return d.length(field, len(a), len(b))
	}
	for i := range a {
		if a[i] == nil || b[i] == nil {
			if a[i] == b[i] {
				continue
			}
			d.fail("parameter: " + nilString(a[i] == nil) + " vs " + nilString(b[i] == nil))
		} else if d.varDecl(a[i], b[i]) {
			continue
		}
		d.at(i)
		return d.in(field)
	}
	return true
}

func (d *differ) attributes(a, b []Attribute) bool {
	if len(a) != len(b) {
		return d.length("Attributes", len(a), len(b))
	}
	for i := range a {
		x, y := &a[i], &b[i]
		ok := d.str("Attribute.Name", x.Name, y.Name)
		if ok && (x.Args == nil) != (y.Args == nil) {
			ok = d.fail("Attribute.Args: " + argsString(x.Args) + " vs " + argsString(y.Args))
		}
		if ok && !d.exprs("Args", x.Args, y.Args) {
			ok = false
		}
		if !ok {
			d.at(i)
			return d.in("Attributes")
		}
	}
	return true
}

func argsString(args []Expr) string {
	if args == nil {
		return "no parentheses"
	}
	return strconv.Itoa(len(args)) + " arguments"
}

func (d *differ) varDecl(a, b *VarDecl) bool {
	if !d.str("VarDecl.Linkage", a.Linkage, b.Linkage) ||
		!d.str("VarDecl.Space", a.Space, b.Space) ||
		!d.field("Bank", a.Bank, b.Bank) ||
		!d.attributes(a.Attributes, b.Attributes) ||
		!d.field("Align", a.Align, b.Align) ||
		!d.num("VarDecl.Vector", a.Vector, b.Vector) ||
		!d.str("VarDecl.Type", a.Type, b.Type) {
		return false
	}
	if a.Ptr != nil || b.Ptr != nil {
		if a.Ptr == nil || b.Ptr == nil {
			return d.fail("Ptr: " + ptrString(a.Ptr) + " vs " + ptrString(b.Ptr))
		}
		if !d.str("PtrAttr.Space", a.Ptr.Space, b.Ptr.Space) || !d.field("Align", a.Ptr.Align, b.Ptr.Align) {
			return d.in("Ptr")
		}
	}
	if len(a.Names) != len(b.Names) {
		return d.length("Names", len(a.Names), len(b.Names))
	}
	for i := range a.Names {
		if !d.declarator(a.Names[i], b.Names[i]) {
			d.at(i)
			return d.in("Names")
		}
	}
	return true
}

func ptrString(p *PtrAttr) string {
	if p == nil {
		return "none"
	}
	return ".ptr"
}

func (d *differ) declarator(a, b *Declarator) bool {
	if a == nil || b == nil {
		if a == b {
			return true
		}
		return d.fail("declarator: " + nilString(a == nil) + " vs " + nilString(b == nil))
	}
	if !d.str("Declarator.Name", a.Name, b.Name) || !d.field("Count", a.Count, b.Count) {
		return false
	}
	if len(a.Dims) != len(b.Dims) {
		return d.length("Dims", len(a.Dims), len(b.Dims))
	}
	for i := range a.Dims {
		if !d.expr(a.Dims[i], b.Dims[i]) {
			d.at(i)
			return d.in("Dims")
		}
	}
	return d.field("Init", a.Init, b.Init)
}

// field compares the expressions of a named field, nil included.
func (d *differ) field(name string, a, b Expr) bool {
	if d.expr(a, b) {
		return true
	}
	return d.in(name)
}

func (d *differ) exprs(field string, a, b []Expr) bool {
	return eachEqual(d, field, a, b, d.expr)
}

func (d *differ) expr(a, b Expr) bool {
	if a == nil || b == nil {
		if a == nil && b == nil {
			return true
		}
		return d.kinds(a, b)
	}
	ob := b // b is shadowed by its asserted type below
	switch a := a.(type) {
	case *Ident:
		b, ok := b.(*Ident)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("Ident.Name", a.Name, b.Name)
	case *IntLit:
		b, ok := b.(*IntLit)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("IntLit.Text", a.Text, b.Text) &&
			d.u64("IntLit.Value", a.Value, b.Value) &&
			d.flag("IntLit.Unsigned", a.Unsigned, b.Unsigned)
	case *FloatLit:
		b, ok := b.(*FloatLit)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("FloatLit.Text", a.Text, b.Text) &&
			d.u64("FloatLit.Bits", a.Bits, b.Bits) &&
			d.flag("FloatLit.Single", a.Single, b.Single)
	case *StringLit:
		b, ok := b.(*StringLit)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("StringLit.Text", a.Text, b.Text) && d.str("StringLit.Value", a.Value, b.Value)
	case *UnaryExpr:
		b, ok := b.(*UnaryExpr)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("UnaryExpr.Op", a.Op, b.Op) && d.field("X", a.X, b.X)
	case *BinaryExpr:
		b, ok := b.(*BinaryExpr)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("BinaryExpr.Op", a.Op, b.Op) && d.field("X", a.X, b.X) && d.field("Y", a.Y, b.Y)
	case *CondExpr:
		b, ok := b.(*CondExpr)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.field("Cond", a.Cond, b.Cond) && d.field("X", a.X, b.X) && d.field("Y", a.Y, b.Y)
	case *ParenExpr:
		b, ok := b.(*ParenExpr)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.field("X", a.X, b.X)
	case *CastExpr:
		b, ok := b.(*CastExpr)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("CastExpr.Type", a.Type, b.Type) && d.field("X", a.X, b.X)
	case *BraceExpr:
		b, ok := b.(*BraceExpr)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.exprs("Elems", a.Elems, b.Elems)
	case *TupleExpr:
		b, ok := b.(*TupleExpr)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.exprs("Elems", a.Elems, b.Elems)
	case *AddressExpr:
		b, ok := b.(*AddressExpr)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.exprs("Elems", a.Elems, b.Elems)
	case *IndexExpr:
		b, ok := b.(*IndexExpr)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.field("X", a.X, b.X) && d.field("Index", a.Index, b.Index)
	case *SelectorExpr:
		b, ok := b.(*SelectorExpr)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.field("X", a.X, b.X) && d.str("SelectorExpr.Sel", a.Sel, b.Sel)
	case *CallExpr:
		b, ok := b.(*CallExpr)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.field("Fun", a.Fun, b.Fun) && d.exprs("Args", a.Args, b.Args)
	case *KeyValue:
		b, ok := b.(*KeyValue)
		if !ok {
			return d.kinds(a, ob)
		}
		return d.str("KeyValue.Key", a.Key, b.Key) && d.field("Value", a.Value, b.Value)
	}
	return d.fail("unknown expression type " + typeName(a))
}
