package litmus

import "fmt"

// Pos is a position in a litmus file: 1-based line and column (in bytes).
type Pos struct{ Line, Col int }

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Error is a malformed-test error at a position of a file.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// Test is one parsed litmus test.
type Test struct {
	File    string
	Arch    string // "PTX" or "GPU_PTX"
	Name    string
	Comment string

	Locs      []*Location // every memory location name, in order of appearance
	locByName map[string]*Location
	nPhys     int // number of physical locations (aliases share one)

	Threads []*Thread

	Quant     Quantifier
	Cond      Expr   // the proposition of the final condition
	CondText  string // the condition as written, normalised to one line
	Observed  []Term // herd's "locations [...]": extra things to show in states
	Filter    Expr   // herd's "filter": executions failing it are dropped (nil: none)
	FilterPos Pos
}

// Quantifier is the quantifier of the final condition.
type Quantifier int

const (
	Exists    Quantifier = iota // exists P
	NotExists                   // ~exists P
	Forall                      // forall P
)

func (q Quantifier) String() string {
	switch q {
	case NotExists:
		return "~exists"
	case Forall:
		return "forall"
	}
	return "exists"
}

// Proxy is the method of memory access of an operation (8.6).
type Proxy int

const (
	ProxyGeneric Proxy = iota
	ProxyTexture
	ProxySurface
	ProxyConstant
	ProxyAsync
	ProxyAlias // only as the kind of a proxy fence: fence.proxy.alias
)

var proxyNames = [...]string{"generic", "texture", "surface", "constant", "async", "alias"}

func (p Proxy) String() string { return proxyNames[p] }

// Location is a memory location as the test names it: a virtual address.
// Names declared as aliases of one another share Phys (8.2.2).
type Location struct {
	Name string
	Init int64
	Phys int
	// Virt names the virtual address: a name declared as a texture,
	// surface or constant view of another ("b @ constant aliases a") is the
	// same address through another proxy; a generic alias is a distinct
	// virtual address of the same physical location (8.2.2).
	Virt   int
	Shared bool // declared in .shared (informative; see docs/litmus.md)
	Pos    Pos
	index  int // position in Test.Locs, also the address encoding
}

// Thread is one column of the thread table.
type Thread struct {
	Index   int    // the N of PN
	Name    string // "P0"
	CTA     int
	Cluster int
	GPU     int
	Placed  bool // the header gave a position
	Pos     Pos

	RegInit map[string]int64 // initial register values (addresses encoded)
	Code    []*Instr
	Labels  map[string]int // label -> index in Code
	regs    map[string]bool
}

// Instr is one decoded instruction of a thread.
type Instr struct {
	Pos  Pos
	Text string // as written, trimmed
	Line int

	Guard    string // predicate register guarding the instruction, "" if none
	GuardNeg bool

	Kind   InstrKind
	Opcode string // base opcode as written (ld, st, atom, add, ...)

	// Memory operations.
	Sem   Sem
	Scope Scope
	Proxy Proxy   // access method (ld/st/atom: generic; tld: texture...)
	RMW   RMWOp   // atom/red operation
	Addr  Operand // address operand
	Dst   Operand // destination register (ld, atom, ALU, setp)
	Dst2  Operand // second destination of setp p|q
	Src   []Operand

	// Fences.
	FenceSem     Sem   // SemSC, SemAcqRel, SemAcquire, SemRelease; SemNone for proxy fences
	FenceProxy   Proxy // for proxy fences: the proxy kind ordered with the generic one
	IsProxyFence bool

	// Barriers.
	BarKind BarKind
	BarID   Operand
	// BarMore holds the operands after the first: PTX's thread count, or
	// in the Dat3M dialect the logical barrier and the quorum (see
	// ModelOptions.BarDat3M).
	BarMore []Operand

	// ALU and branches.
	ALU    string // mov add sub mul and or xor shl shr not neg selp min max rem div
	Cmp    string // setp/branch comparison: eq ne lt le gt ge (lo ls hi hs mapped)
	Target string // branch label
}

// InstrKind classifies instructions by their effect in the model.
type InstrKind int

const (
	KNop InstrKind = iota
	KLoad
	KStore
	KAtom // atom: read-modify-write with a result
	KRed  // red: read-modify-write without acquire patterns (8.11)
	KFence
	KBarrier
	KALU
	KSetp
	KBranch // conditional when Cmp != "" or Guard != ""
	KExit
)

// Sem is the memory-ordering strength of an operation (8.4).
type Sem int

const (
	SemNone Sem = iota
	SemWeak
	SemRelaxed
	SemAcquire
	SemRelease
	SemAcqRel
	SemSC // fences only
)

var semNames = [...]string{"", "weak", "relaxed", "acquire", "release", "acq_rel", "sc"}

func (s Sem) String() string { return semNames[s] }

// Scope is the scope of a strong operation (8.5).
type Scope int

const (
	ScopeNone Scope = iota
	ScopeCTA
	ScopeCluster
	ScopeGPU
	ScopeSys
)

var scopeNames = [...]string{"", "cta", "cluster", "gpu", "sys"}

func (s Scope) String() string { return scopeNames[s] }

// RMWOp is the operation of atom and red.
type RMWOp int

const (
	RMWNone RMWOp = iota
	RMWAdd
	RMWSub
	RMWInc
	RMWDec
	RMWExch
	RMWCas
	RMWAnd
	RMWOr
	RMWXor
	RMWMin
	RMWMax
)

// BarKind is the flavour of a barrier instruction (8.9.4 items 2 and 3).
type BarKind int

const (
	BarSync          BarKind = iota // bar.sync, bar.red, barrier.sync: arrive and wait
	BarArrive                       // bar.arrive: arrive only
	BarClusterArrive                // barrier.cluster.arrive
	BarClusterWait                  // barrier.cluster.wait
)

// OperandKind says what an operand denotes.
type OperandKind int

const (
	ONone   OperandKind = iota
	OReg                // a register
	OImm                // an integer constant (or the address of a location)
	OMemLoc             // [x]: the location x
	OMemReg             // [r]: the location whose address register r holds (+Off)
	OLabel
)

// Operand is one operand of an instruction.
type Operand struct {
	Kind OperandKind
	Name string // register, location or label name
	Imm  int64
	Off  int64
	Pos  Pos
}

// Expr is a proposition of the final condition.
type Expr interface{ exprString(t *Test) string }

type (
	// ExprAnd, ExprOr, ExprNot and ExprConst combine propositions.
	ExprAnd   struct{ L, R Expr }
	ExprOr    struct{ L, R Expr }
	ExprNot   struct{ X Expr }
	ExprConst struct{ V bool }
	// ExprCmp compares two terms: Op is "==" or "!=".
	ExprCmp struct {
		Op   string
		L, R Term
	}
)

// Term is a value named in a condition: a register of a thread, the final
// value of a location, or a constant.
type Term struct {
	Thread int    // thread index for a register, -1 otherwise
	Reg    string // register name
	Loc    *Location
	Const  int64
	IsAddr bool // Const is the address of a location (printed by name)
}

func (t Term) isReg() bool   { return t.Thread >= 0 }
func (t Term) isLoc() bool   { return t.Thread < 0 && t.Loc != nil && !t.IsAddr }
func (t Term) isConst() bool { return t.Thread < 0 && (t.Loc == nil || t.IsAddr) }
