// Package exec runs checked PTX: it lowers the IR of internal/ir to flat op
// arrays (Load) and interprets them over a grid of CTAs (Launch), with the
// scheduling model of docs/engine.md.
package exec

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
	"github.com/ptxvm/ptxvm/ptx"
)

// Program is a module loaded for execution on one device.
type Program struct {
	Module  *ir.Module
	Kernels map[string]*Func
	funcs   map[*ir.Func]*Func

	global *mem.Global
	// Addresses of module-scope variables: absolute for .global, offsets
	// into the const block for .const, into each CTA's shared memory for
	// .shared.
	varAddr      map[*ir.Var]uint64
	constant     mem.Block
	sharedStatic uint64        // bytes of static shared memory (module and function scope)
	fenceWord    atomic.Uint64 // fences read-modify-write it (atomic_mem.go)
	dynShared    uint64        // offset of dynamic shared memory (.extern .shared arrays)
}

// Func is a lowered function.
type Func struct {
	IR       *ir.Func
	Ops      []Op
	numSlots int     // register slots, 32 lanes each
	regSlots int     // the first slots, those of the function's registers (the rest are constant rows)
	numPreds int     // predicate registers
	slot     []int32 // IR register ID -> slot, or predicate index for .pred registers
	consts   []constSlot
	// reuseConsts: the consts a reused frame fills again (predicates,
	// which the reuse clears, and special registers that differ between
	// CTAs)
	reuseConsts []constSlot
	ipdom       []int32 // per op: the reconvergence point of a branch (-1: none / function exit)

	frameSize uint64             // per-thread bytes of .local and .param variables declared in the body and params
	frameOff  map[*ir.Var]uint64 // offsets in the frame
	paramSize uint64             // kernel: bytes of the parameter buffer
	paramOff  map[*ir.Var]uint64 // kernel: offsets of parameters in it
	sregOf    map[int32]*sregRef // slots holding special registers
	// frameConsts hold addresses of frame variables: their offset plus the
	// frame's base, filled when the frame starts.
	frameConsts []constSlot
	// regPool recycles register files of finished frames (cleared when
	// reused): CTAs come and go by the thousand in a launch
	regPool sync.Pool
	// clearRows: the register slots a reused frame clears (uninit.go);
	// clearAll: all of them
	clearRows []int32
	clearAll  bool
	// prefix: the leading ops a reused kernel frame skips (prefix.go)
	prefix int
	// batch: how batches run the kernel (batch.go); nil: not of the shape.
	// Made at the kernel's first launch (plan), as a CUDA driver loads a
	// module's kernels lazily: a module's load does not pay for kernels
	// it never launches (a third of the large module's exec.Load).
	batch     *batchPlan
	batchOnce sync.Once
	// redSafe: the kernel may buffer adds (atomic_buffer.go); made with
	// the batch plan at the first launch (canBufferAdds)
	redSafe bool
	// packable: a launch's CTAs may share a warp (pack.go); made with
	// the batch plan (canPack)
	packable bool
	// batchRuns: register files of finished launches' batches, one per
	// worker that ran them (a sync.Pool lost them to collections: a
	// worker then built a new file of up to batchBytes, faulting its
	// pages in, inside the launch; copy on 2 workers scaled 1.57-1.91x
	// from run to run, 1.77-1.90x with the collector off)
	batchRuns keptList[*batchRun]
	// batchCap bounds the CTAs of a batch of the kernel (0: none), set
	// when one would have kept more than undoMaxBytes (batch_undo.go)
	batchCap atomic.Int32
	// live: per op, the register rows live on entry (liveness.go), made
	// when a divergent group first needs them
	liveOnce sync.Once
	live     *liveSets
	// groupSingles: the setp, selp and predicate ops that are traces of
	// one for divergent groups; groupTr: per op, the group trace that
	// starts there, made at the first group's need (group_trace.go)
	groupSingles []groupSingle
	groupOnce    sync.Once
	groupTr      []*traceWrites
}

// constSlot is a slot holding an immediate in every lane.
type constSlot struct {
	slot int32
	bits uint64
	sreg *sregRef // the special register of a sregMarker slot
}

// vecKind says which whole-warp loop of an Op the converged path calls.
type vecKind uint8

const (
	vecNone  vecKind = iota
	vecK             // vrk(d, a, k)
	vecRR            // vrr(d, a, b)
	vecUnary         // vu(d, a)
	vecTern          // vt(d, a, b, c)
)

// execFunc runs an op for the lanes of mask.
type execFunc = func(w *Warp, o *Op, mask uint32)

// vecLoop returns the op's whole-warp loop (the one vkind names), or nil.
func (o *Op) vecLoop() any {
	switch o.vkind {
	case vecK:
		return o.vrk
	case vecRR:
		return o.vrr
	case vecUnary:
		return o.vu
	case vecTern:
		return o.vt
	}
	return nil
}

// vecRows returns the slots of the rows the op's whole-warp loop takes:
// d and a, then b and c where its kind has them.
func (o *Op) vecRows() []int32 {
	switch o.vkind {
	case vecNone:
		return nil
	case vecRR:
		return []int32{o.d, o.a, o.b}
	case vecTern:
		return []int32{o.d, o.a, o.b, o.c}
	}
	return []int32{o.d, o.a}
}

// wrap replaces the op's exec with wrapper(exec). The converged path then
// calls exec, not the op's whole-warp loop, so that the wrapper runs.
func (o *Op) wrap(wrapper func(inner execFunc) execFunc) {
	o.exec = wrapper(o.exec)
	o.vkind = vecNone
}

// Op is one lowered instruction.
type Op struct {
	exec execFunc // runs the op for the lanes of mask
	// lane, where set, runs the op for lane i of frame f alone, as exec
	// with that one lane would, without its mask loop (register ops:
	// unary, binary, ternary, setp, selp); a CAS loop's lanes, which go
	// round one at a time, run it (casloop.go). A wrapper that adds to
	// what exec does must clear it.
	lane  func(f *frame, o *Op, i int)
	guard int32 // predicate index + 1; 0: unguarded
	neg   bool  // guard is @!p
	// Operand slots (or predicate indices), by position.
	d, a, b, c int32
	vec        []int32 // vector operand slots
	target     int32   // branch target op
	size       int     // access size in bytes
	space      mem.Space
	addrBase   int32  // address base register slot, -1: none
	addrConst  uint64 // constant part of the address (variable address + offset)
	frameAddr  bool   // addrConst is a frame offset (function .param/.local variables)
	imm        uint64
	aux        any // op-specific data (call targets, ...)
	inst       *ir.Inst
	typ        string // typeOf(inst), once: the lowerers read it, and the batch engine's accesses at run time
	pc         int32
	plain      bool // see isPlain
	defFirst   bool // definesFirst[opcode], once (the analyses of uninit.go, prefix.go, liveness.go ask per op)
	// pure: the op writes only slot d, from its nsrc source slots a, b, c
	// alone (the unary/binary/ternary helpers; uniform.go)
	pure bool
	nsrc int8
	// vkind names the op's full-mask warp loop, which runConverged calls
	// directly: vrk (with the immediate k as its second operand), vrr, vu
	// or vt; vecNone when the op has none or its exec must run
	vkind vecKind
	vrr   func(d, a, b *lanes)
	vrk   func(d, a *lanes, k uint64)
	vu    func(d, a *lanes)
	vt    func(d, a, b, c *lanes)
	// the register ops' lane functions (unary, binary, ternary: their exec
	// and lane read them) and the masked forms of vrr and vrk (binaryVec)
	fn1 func(a uint64) uint64
	fn2 func(a, b uint64) uint64
	fn3 func(a, b, c uint64) uint64
	mrr func(d, a, b *lanes, mask uint32)
	mrk func(d, a *lanes, k uint64, mask uint32)
	// trace: this op and the AVX2 loops after it, run in one call by the
	// converged loop (trace.go)
	trace []traceOp
	k     uint64
	// loop: the loop trace of the region this op lies in (loop_trace.go)
	loop *loopTrace
	// memTrace names the trace body of a warp-wide ld/st that traces may
	// include (trace.go; "" for none), traceWin the byte offset of its
	// window in Warp.tw; traceMem: this op's trace has memory bodies
	memTrace   string
	traceWin   uint64
	traceMem   bool
	traceRegs  bool        // its trace reads and writes only the lanes' own registers and predicates (ownRowsOnly)
	bra        bool        // a direct branch: uniform outcomes stay on the converged fast path
	lockLoop   bool        // a backward branch whose loop tries to take a lock (lockLoops)
	dia        *diamond    // a guarded direct branch's if/else of register-only ops (diamond.go)
	cas        *casLoop    // the CAS loop this back edge closes, or that this branch leaves early (casloop.go)
	lock       *lockRegion // the spin lock this back edge closes (lockloop.go)
	collective bool        // a warp collective: runs even when every guard is false (collective.go)
	ends       bool        // ret or exit: the lanes that run it leave the frame, their PCs unread
}

// Error is a load-time error: an unsupported instruction or a module the
// engine cannot lay out.
type Error struct {
	Pos ptx.Pos
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Pos, e.Msg) }

// Load lowers a checked module and allocates its global variables in g.
func Load(m *ir.Module, g *mem.Global) (*Program, error) {
	p := &Program{Module: m, Kernels: map[string]*Func{}, funcs: map[*ir.Func]*Func{}, global: g, varAddr: map[*ir.Var]uint64{}}
	p.constant.Space = mem.SpaceConst
	if err := p.layoutVars(); err != nil {
		return nil, err
	}
	for _, f := range m.Funcs {
		p.funcs[f] = &Func{IR: f}
		p.prepare(p.funcs[f])
	}
	for _, f := range m.Funcs {
		if !f.Defined {
			continue
		}
		if err := p.lower(p.funcs[f]); err != nil {
			return nil, err
		}
		if f.Entry {
			p.Kernels[f.Name] = p.funcs[f]
		}
	}
	return p, nil
}

func align(x, a uint64) uint64 {
	if a <= 1 {
		return x
	}
	return (x + a - 1) &^ (a - 1)
}

// layoutVars places module-scope variables and writes their initializers.
func (p *Program) layoutVars() error {
	var constSize, shared uint64
	var dyn []*ir.Var
	for _, v := range p.Module.Vars {
		size, al := uint64(v.Size), uint64(max(1, v.Align))
		switch v.Space {
		case ".global":
			if v.Linkage == ".extern" {
				return &Error{v.Decl.Pos, "unsupported: .extern .global variable '" + v.Name + "' (no linker yet)"}
			}
			addr, err := p.global.Alloc(max(size, 1), max(al, 8))
			if err != nil {
				return err
			}
			p.varAddr[v] = addr
		case ".const":
			constSize = align(constSize, al)
			p.varAddr[v] = constSize
			constSize += size
		case ".shared", ".shared::cta":
			if v.Size == 0 && v.Linkage == ".extern" {
				dyn = append(dyn, v)
				continue
			}
			shared = align(shared, al)
			p.varAddr[v] = shared
			shared += size
		case ".tex":
			// texture references: handled by the texture unit (not yet)
		}
	}
	// Function-scope .shared variables are static too (one per CTA).
	for _, f := range p.Module.Funcs {
		for _, v := range f.Vars {
			if v.Space == ".shared" || v.Space == ".shared::cta" {
				al := uint64(max(1, v.Align))
				shared = align(shared, al)
				p.varAddr[v] = shared
				shared += uint64(v.Size)
			}
		}
	}
	p.sharedStatic = shared
	p.dynShared = align(shared, 16)
	for _, v := range dyn {
		p.varAddr[v] = p.dynShared
	}
	p.constant.Data = make([]byte, constSize)
	for _, v := range p.Module.Vars {
		if v.Init == nil {
			continue
		}
		var dst []byte
		switch v.Space {
		case ".global":
			b, f := p.global.Bytes(p.varAddr[v], uint64(v.Size))
			if f != nil {
				return f
			}
			dst = b
		case ".const":
			dst = p.constant.Data[p.varAddr[v] : p.varAddr[v]+uint64(v.Size)]
		default:
			continue
		}
		if err := p.initialize(v, dst); err != nil {
			return err
		}
	}
	return nil
}

// initialize writes a variable's initializer (5.4.4) into dst: scalars,
// nested braces flattened in order, addresses of variables (offset in their
// space, or generic with generic()) and functions.
func (p *Program) initialize(v *ir.Var, dst []byte) error {
	elem := len(dst)
	if n := elemCount(v); n > 0 {
		elem = len(dst) / n
	}
	var vals []ptx.Expr
	var flatten func(e ptx.Expr)
	flatten = func(e ptx.Expr) {
		if b, ok := e.(*ptx.BraceExpr); ok {
			for _, x := range b.Elems {
				flatten(x)
			}
			return
		}
		vals = append(vals, e)
	}
	flatten(v.Init)
	for i, e := range vals {
		if (i+1)*elem > len(dst) {
			break
		}
		bits, err := p.initValue(v, e)
		if err != nil {
			return err
		}
		putBits(dst[i*elem:(i+1)*elem], bits)
	}
	return nil
}

// elemCount is the number of scalar elements of a variable.
func elemCount(v *ir.Var) int {
	n := 1
	if v.Vector > 0 {
		n = v.Vector
	}
	for _, d := range v.Dims {
		n *= max(d, 1)
	}
	return n
}

func (p *Program) initValue(v *ir.Var, e ptx.Expr) (uint64, error) {
	if c, err := ptx.EvalConst(e); err == nil {
		return constBits(c, v.Type), nil
	}
	// an address: var, var+off, generic(var), generic(var)+off
	off := int64(0)
	if b, ok := e.(*ptx.BinaryExpr); ok && (b.Op == "+" || b.Op == "-") {
		c, err := ptx.EvalConst(b.Y)
		if err != nil {
			return 0, &Error{e.Position(), "unsupported initializer"}
		}
		off = c.Int64()
		if b.Op == "-" {
			off = -off
		}
		e = b.X
	}
	generic := false
	if c, ok := e.(*ptx.CallExpr); ok {
		if id, ok := c.Fun.(*ptx.Ident); ok && id.Name == "generic" && len(c.Args) == 1 {
			generic, e = true, c.Args[0]
		} else {
			return 0, &Error{e.Position(), "unsupported: mask() initializers"}
		}
	}
	id, ok := e.(*ptx.Ident)
	if !ok {
		return 0, &Error{e.Position(), "unsupported initializer"}
	}
	for _, w := range p.Module.Vars {
		if w.Name != id.Name {
			continue
		}
		addr := p.varAddr[w]
		if generic && w.Space == ".const" {
			addr = mem.Generic(mem.SpaceConst, addr)
		}
		return addr + uint64(off), nil
	}
	for i, f := range p.Module.Funcs {
		if f.Name == id.Name {
			return funcAddr(i), nil
		}
	}
	return 0, &Error{e.Position(), "unsupported initializer"}
}

// codeBase is where functions have their addresses: not a data window, so
// a load from a function pointer faults.
const codeBase = 0x0000_7300_0000_0000

func funcAddr(i int) uint64 { return codeBase + uint64(i)*16 }

// funcAt returns the function at a code address, or nil.
func (p *Program) funcAt(addr uint64) *Func {
	if addr < codeBase || (addr-codeBase)%16 != 0 {
		return nil
	}
	i := (addr - codeBase) / 16
	if i >= uint64(len(p.Module.Funcs)) {
		return nil
	}
	return p.funcs[p.Module.Funcs[i]]
}

// constBits encodes a constant as a value of type t (the operand's type).
func constBits(c ptx.Const, t string) uint64 {
	switch t {
	case ".f32":
		switch c.Kind {
		case ptx.ConstF32:
			return c.Bits & 0xffffffff
		case ptx.ConstF64:
			return uint64(math.Float32bits(float32(c.Float64())))
		default:
			if c.Kind == ptx.ConstU64 {
				return uint64(math.Float32bits(float32(c.Uint64())))
			}
			return uint64(math.Float32bits(float32(c.Int64())))
		}
	case ".f64":
		switch c.Kind {
		case ptx.ConstF32, ptx.ConstF64:
			return math.Float64bits(c.Float64())
		case ptx.ConstU64:
			return math.Float64bits(float64(c.Uint64()))
		default:
			return math.Float64bits(float64(c.Int64()))
		}
	}
	if c.Kind == ptx.ConstF64 && t != "" && t[1] != 'b' {
		// a decimal float for an integer operand: not valid PTX; the checker
		// lets bit types take float bits
		return c.Bits
	}
	return c.Bits
}

// putBits stores the low len(dst) bytes of v, little-endian.
func putBits(dst []byte, v uint64) {
	switch len(dst) { // (a parameter's common sizes in one store)
	case 4:
		binary.LittleEndian.PutUint32(dst, uint32(v))
		return
	case 8:
		binary.LittleEndian.PutUint64(dst, v)
		return
	}
	for i := range dst {
		if i < 8 {
			dst[i] = byte(v >> (8 * i))
		} else {
			dst[i] = 0
		}
	}
}

// GlobalVar returns the bytes of a module-scope .global or .const variable
// (for the host to read and write, as cuModuleGetGlobal allows), and for a
// .global variable its device address.
func (p *Program) GlobalVar(name string) ([]byte, uint64, error) {
	for _, v := range p.Module.Vars {
		if v.Name != name {
			continue
		}
		switch v.Space {
		case ".global":
			b, f := p.global.Bytes(p.varAddr[v], uint64(v.Size))
			if f != nil {
				return nil, 0, f
			}
			return b, p.varAddr[v], nil
		case ".const":
			off := p.varAddr[v]
			return p.constant.Data[off : off+uint64(v.Size)], 0, nil
		}
		return nil, 0, fmt.Errorf("variable %s is in %s, not .global or .const", name, v.Space)
	}
	return nil, 0, fmt.Errorf("no module-scope variable %q", name)
}

// keptList keeps values for reuse, up to keptMax of them; unlike a
// sync.Pool's, a collection does not drop them.
type keptList[T any] struct {
	mu    sync.Mutex
	items []T
}

// keptMax bounds a keptList: more than the workers a launch may have at
// once on the machines ptxvm runs on keep no more.
const keptMax = 64

// get takes a kept value, or reports false.
func (k *keptList[T]) get() (T, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	var v T
	if n := len(k.items); n > 0 {
		v = k.items[n-1]
		k.items = k.items[:n-1]
		return v, true
	}
	return v, false
}

// put keeps v, unless keptMax values are kept.
func (k *keptList[T]) put(v T) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.items) < keptMax {
		k.items = append(k.items, v)
	}
}
