// Package ir is the checked, typed form of a PTX module: what the checker
// (internal/check) proves and the compiler (internal/compile) consumes.
// Names are resolved: every operand says whether it is a register (with
// its declared type), an immediate (evaluated), a variable, a function, a
// label (an instruction index) or a special register, and every
// instruction carries the table form it matched with the modifier chosen
// for each group.
package ir

import (
	"github.com/ptxvm/ptxvm/internal/isa"
	"github.com/ptxvm/ptxvm/ptx"
)

// Module is a checked module.
type Module struct {
	Version     isa.Version
	Target      isa.Target
	AddressSize int      // 32 or 64
	Options     []string // .target platform options: texmode_*, debug, map_f64_to_f32
	Vars        []*Var   // module-scope variables, in source order
	Funcs       []*Func  // .entry and .func, definitions and declarations, in source order
}

// Var is a variable of some state space other than .reg.
type Var struct {
	Name    string
	Space   string // ".global", ".shared", ".shared::cluster", ".const", ".local", ".param", ".tex"
	Linkage string // "", ".extern", ".visible", ".weak", ".common"
	Type    string // element type: ".u32", ".b8", ".texref", ...
	Vector  int    // 0, 2, 4, 8
	Dims    []int  // array dimensions; 0 is an unsized dimension
	Align   int    // bytes: the declared alignment, or the default (element size)
	Size    int64  // bytes; 0 for an unsized array
	Init    ptx.Expr
	Decl    *ptx.VarDecl
}

// Reg is a register: a .reg variable, one per name (each name of a
// parameterized declaration %r<100> is its own register).
type Reg struct {
	ID     int // index in Func.Regs
	Name   string
	Type   string // ".u32", ".pred", ...
	Vector int
}

// Func is an .entry or .func.
type Func struct {
	Name    string
	Entry   bool
	Linkage string
	Params  []*Param
	Results []*Param
	Decl    *ptx.Function
	Defined bool // has a body

	Regs   []*Reg         // every register the body uses, parameters of .reg space included
	Vars   []*Var         // variables declared in the body (.local, .shared, .param)
	Insts  []*Inst        // the body's instructions, nested blocks flattened
	Labels map[string]int // label -> index in Insts of the next instruction
}

// Param is a parameter or result of a function.
type Param struct {
	Reg *Reg // for .reg parameters
	Var *Var // for .param (and opaque) parameters
}

// Inst is one instruction.
type Inst struct {
	Pos      ptx.Pos
	Guard    *Operand // a predicate register (Negate set for @!p), or nil
	Opcode   string
	Mods     []string          // as written
	Block    *isa.Instr        // the table block it matched
	Form     *isa.Form         // and the form
	Groups   map[string]string // group -> chosen value (".type" -> ".u32")
	Operands []Operand
	// Types gives each operand the type its form assigns (".u32"; for a
	// pair or vector, the type of its elements), "" where the table gives
	// none; immediates take this type's encoding.
	Types []string
}

// OperandKind says what an operand is.
type OperandKind uint8

const (
	OpReg    OperandKind = iota // Reg (Component, Negate possible)
	OpImm                       // Imm
	OpSreg                      // special register Sreg (Component possible)
	OpVar                       // the address of Var, plus Offset
	OpFunc                      // Func (its address, or a call target)
	OpLabel                     // Label: an index into the function's Insts
	OpAddr                      // a memory address [Base + Offset]; texture forms have Elems
	OpVector                    // {Elems}
	OpPair                      // Elems[0] | Elems[1]
	OpTuple                     // (Elems): call arguments and results
	OpSink                      // _
	OpName                      // a prototype or .calltargets/.branchtargets label: Name
)

// Operand is one resolved operand.
type Operand struct {
	Kind      OperandKind
	Reg       *Reg
	Imm       ptx.Const
	Sreg      string // "%tid"
	Component string // "x" of %tid.x, "b0" of a video selector
	Var       *Var
	Func      *Func
	Label     int
	Name      string
	Base      *Operand // OpAddr: a register or variable, or nil for an absolute address
	Offset    int64    // OpAddr, OpVar: byte offset
	Elems     []Operand
	Negate    bool // !p or -a
}
