package ptx

// The abstract syntax tree of a PTX module.
//
// The tree records structure, not meaning: an instruction is an opcode, its
// dot-modifiers in source order and its operands; whether that combination is
// valid is the checker's business (internal/check, driven by internal/isa).
// The tree holds enough to print the module back faithfully (see Print); the
// only things it drops are whitespace and preprocessor directives (their
// effect is applied while parsing).

import "fmt"

// Pos is a position in a source file. Line and Col are 1-based; Col counts
// bytes. The zero Pos means "no position".
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p names a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string {
	switch {
	case !p.IsValid():
		return p.File
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Position returns p itself; embedding Pos gives every node its Position.
func (p Pos) Position() Pos { return p }

// Node is any element of the tree.
type Node interface{ Position() Pos }

// Module is one parsed PTX source file (after preprocessing).
type Module struct {
	File     string
	Items    []Item    // module-scope directives and declarations, in source order
	Comments []Comment // comments of the main file, in source order (not of included files)
}

// Comment is one // or /* */ comment, text included delimiters.
type Comment struct {
	Pos
	Text string
}

// Item is a module-scope element: *Version, *Target, *AddressSize, *VarDecl,
// *Function, *FileDirective, *Section, *Directive, *Alias or *Dwarf.
type Item interface {
	Node
	item()
}

// Stmt is an element of a function body: *Label, *Instruction, *VarDecl,
// *Block, *Loc, *Directive, *Prototype or *TargetList.
type Stmt interface {
	Node
	stmt()
}

// Version is `.version major.minor`.
type Version struct {
	Pos
	Major, Minor int
}

// Target is `.target name, ...`: architectures (sm_90a, compute_50) and
// options (texmode_unified, texmode_independent, map_f64_to_f32, debug).
type Target struct {
	Pos
	Names []string
}

// AddressSize is `.address_size 32|64`.
type AddressSize struct {
	Pos
	Size int
}

// VarDecl declares variables of one state space and type:
//
//	.extern .shared .align 16 .b8 smem[];
//	.reg .b32 %r<100>, %tmp;
//	.global .attribute(.managed) .v4 .f32 v = {1.0, 2.0, 3.0, 4.0};
//	.param .u64 .ptr .global .align 16 p   (a parameter)
//
// Parameters of .entry/.func/.callprototype are VarDecls with one Name.
type VarDecl struct {
	Pos
	Linkage    string      // "", ".extern", ".visible", ".weak" or ".common"
	Space      string      // ".reg", ".global", ".shared::cta", ".param", ".tex", ...
	Bank       Expr        // constant bank of old `.const[2]` declarations, or nil
	Attributes []Attribute // .attribute(...) contents
	Align      Expr        // `.align N` before the type, or nil
	Vector     int         // 0, or 2, 4, 8 for .v2 .v4 .v8
	Type       string      // ".u32", ".pred", ".texref", ...
	Ptr        *PtrAttr    // `.ptr .space .align N` of a kernel parameter, or nil
	Names      []*Declarator
}

// PtrAttr is the `.ptr {.space} {.align N}` attribute of a kernel pointer
// parameter (ptx-isa-9.0.txt 5.1.6.1).
type PtrAttr struct {
	Space string // "", ".global", ".const", ".local", ".shared"; or an opaque type, `.ptr .texref` (LLVM's OpenCL images)
	Align Expr   // nil when absent
}

// Attribute is one entry of `.attribute(...)`: `.managed` or `.unified(1, 2)`.
type Attribute struct {
	Pos
	Name string // ".managed", ".unified"
	Args []Expr // nil when written without parentheses
}

// Declarator is one declared name with its array dimensions, parameterized
// count or initializer.
type Declarator struct {
	Pos
	Name  string
	Count Expr   // N of `%r<N>`, or nil
	Dims  []Expr // array dimensions; a nil entry is an unsized `[]`
	Init  Expr   // initializer after `=`, or nil
}

// Function is an .entry or .func definition or declaration.
type Function struct {
	Pos
	Linkage    string // "", ".extern", ".visible", ".weak"
	Kind       string // ".entry" or ".func"
	Attributes []Attribute
	Results    []*VarDecl // return parameters; nil when HasResults is false
	HasResults bool       // a `(...)` result list was written
	Name       string
	Params     []*VarDecl
	HasParams  bool         // a `(...)` parameter list was written
	Directives []*Directive // .noreturn, .maxntid 256,1,1, .abi_preserve 8, ...
	Body       *Block       // nil for a declaration (prototype) ending in `;`
}

// Block is a `{ ... }` scope.
type Block struct {
	Pos
	Stmts []Stmt
	End   Pos // position of the closing brace
}

// Label is `name:`.
type Label struct {
	Pos
	Name string
}

// Instruction is `{@{!}pred} opcode{.mod}* operand, ...;`.
type Instruction struct {
	Pos
	Guard     *Guard
	Opcode    string   // "ld", "mma", "cp" (the first word)
	Modifiers []string // the dot-words after the opcode, in order: ".async", ".bulk", ".shared::cluster", ...; a deprecated constant bank `ld.const[2]` is "[2]"
	Operands  []Expr
}

// Guard is the predicate of `@p` or `@!p`.
type Guard struct {
	Pos
	Negate bool
	Pred   string
}

// Directive is a directive with plain operands: `.pragma "nounroll";`,
// `.maxntid 256, 1, 1`, `.noreturn`, `.abi_preserve 8`. At module scope it
// is an Item; in a body, a Stmt; after a function header, part of Function.
type Directive struct {
	Pos
	Name string // ".pragma", ".maxntid", ...
	Args []Expr
}

// Loc is `.loc file line col {, function_name label{+off} {, inlined_at file line col}}`.
type Loc struct {
	Pos
	File, Line, Col int
	HasCol          bool
	FunctionName    Expr // nil when absent
	InlinedAt       *LocRef
}

// LocRef is the `file line col` of `inlined_at`.
type LocRef struct {
	File, Line, Col int
}

// FileDirective is `.file index "name" {, timestamp, size}`.
type FileDirective struct {
	Pos
	Index     int
	Name      string // unquoted
	Text      string // the name as written, quotes included (printed as is; "" for a built tree)
	Timestamp Expr   // nil when absent
	Size      Expr   // nil when absent
}

// Section is a debugging section `.section .debug_xxx { ... }` holding
// labels and data lines (`.b8 1, 2`, `.b32 label+4`).
type Section struct {
	Pos
	Name  string
	Items []Stmt // *Label and *SectionData
}

// SectionData is one `.b8/.b16/.b32/.b64 value, ...` line of a Section.
type SectionData struct {
	Pos
	Type   string
	Values []Expr
}

// Alias is `.alias alias, aliasee;`.
type Alias struct {
	Pos
	Name, Target string
}

// Dwarf is an old-style `@@DWARF text` line, kept verbatim.
type Dwarf struct {
	Pos
	Text string // the text after @@DWARF
}

// Prototype is `name: .callprototype (ret) _ (params) directives;`.
type Prototype struct {
	Pos
	Name       string
	Results    []*VarDecl
	HasResults bool
	Params     []*VarDecl
	HasParams  bool
	Directives []*Directive
}

// TargetList is `name: .calltargets f, g;` or `name: .branchtargets L1, L2;`.
type TargetList struct {
	Pos
	Name    string
	Kind    string   // ".calltargets" or ".branchtargets"
	Targets []string // names; the range shorthand `N<5>` (N0..N4) is kept as written
}

// Expr is an operand, initializer or constant expression.
type Expr interface {
	Node
	expr()
}

// Ident is a name: a register, variable, label or function, or `_` (sink).
type Ident struct {
	Pos
	Name string
}

// IntLit is an integer constant (4.5.1), kept as written.
type IntLit struct {
	Pos
	Text     string // as written: "0x1F", "017", "0b101", "42U"
	Value    uint64 // the value as a 64-bit pattern
	Unsigned bool   // written with a U suffix
}

// FloatLit is a floating-point constant (4.5.2): 0fXXXXXXXX (f32 bits),
// 0dXXXXXXXXXXXXXXXX (f64 bits) or decimal (an f64 value).
type FloatLit struct {
	Pos
	Text   string
	Bits   uint64 // IEEE bits: of an f32 for 0f literals, of an f64 otherwise
	Single bool   // 0f/0F literal (the bits are an f32)
}

// StringLit is a string constant, as in `.pragma "nounroll"`.
type StringLit struct {
	Pos
	Text  string // as written, with quotes
	Value string // unquoted
}

// UnaryExpr is `-x`, `+x`, `!x` (also predicate negation) or `~x`.
type UnaryExpr struct {
	Pos
	Op string
	X  Expr
}

// BinaryExpr is `x op y`. Op `|` also forms predicate pairs (`p|q`).
type BinaryExpr struct {
	Pos
	Op   string
	X, Y Expr
}

// CondExpr is `c ? x : y`.
type CondExpr struct {
	Pos
	Cond, X, Y Expr
}

// ParenExpr is `(x)`.
type ParenExpr struct {
	Pos
	X Expr
}

// CastExpr is `(.s64) x` or `(.u64) x` (4.6.1).
type CastExpr struct {
	Pos
	Type string
	X    Expr
}

// BraceExpr is `{a, b, ...}`: a vector operand or an initializer list.
type BraceExpr struct {
	Pos
	Elems []Expr
}

// TupleExpr is a parenthesized list of call arguments or results: `(a, b)`.
type TupleExpr struct {
	Pos
	Elems []Expr
}

// AddressExpr is `[...]`: `[%rd1+8]`, `[var]`, `[tex, {x, y}]`.
type AddressExpr struct {
	Pos
	Elems []Expr
}

// IndexExpr is `x[i]`.
type IndexExpr struct {
	Pos
	X     Expr
	Index Expr
}

// SelectorExpr is `x.sel`: a vector component as in `%tid.x` or `%v.r`, a
// video byte/half selector as in `%r2.b0`, or `[addr].unified`.
type SelectorExpr struct {
	Pos
	X   Expr
	Sel string // without the dot: "x"
}

// CallExpr is `f(args)` in initializers: `generic(var)`, `0xFF00(var)` (mask).
type CallExpr struct {
	Pos
	Fun  Expr
	Args []Expr
}

// KeyValue is `key = value` in a sampler initializer.
type KeyValue struct {
	Pos
	Key   string
	Value Expr
}

func (*Version) item()       {}
func (*Target) item()        {}
func (*AddressSize) item()   {}
func (*VarDecl) item()       {}
func (*Function) item()      {}
func (*FileDirective) item() {}
func (*Section) item()       {}
func (*Directive) item()     {}
func (*Alias) item()         {}
func (*Dwarf) item()         {}

func (*Label) stmt()       {}
func (*Instruction) stmt() {}
func (*VarDecl) stmt()     {}
func (*Block) stmt()       {}
func (*Loc) stmt()         {}
func (*Directive) stmt()   {}
func (*Prototype) stmt()   {}
func (*TargetList) stmt()  {}
func (*SectionData) stmt() {}
func (*Dwarf) stmt()       {}

func (*Ident) expr()        {}
func (*IntLit) expr()       {}
func (*FloatLit) expr()     {}
func (*StringLit) expr()    {}
func (*UnaryExpr) expr()    {}
func (*BinaryExpr) expr()   {}
func (*CondExpr) expr()     {}
func (*ParenExpr) expr()    {}
func (*CastExpr) expr()     {}
func (*BraceExpr) expr()    {}
func (*TupleExpr) expr()    {}
func (*AddressExpr) expr()  {}
func (*IndexExpr) expr()    {}
func (*SelectorExpr) expr() {}
func (*CallExpr) expr()     {}
func (*KeyValue) expr()     {}
