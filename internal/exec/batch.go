package exec

import (
	"os"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
)

// Batches (issue 7, memory-bound kernels). Most of a memory-bound kernel's
// instructions compute indices and addresses: blockIdx.x*blockDim.x +
// threadIdx.x, widened, scaled and added to a pointer. The warp engine
// computes each of them for 32 lanes at a time, per warp, per CTA, and
// pays the CTA's setup too, which keeps such kernels far below the host's
// copy bandwidth. A kernel of a simple shape instead runs a batch of CTAs
// (consecutive in x, in one row of the grid) op by op:
//
//   - a register whose lanes hold an affine function of the thread and
//     CTA indices (base + c0*tid.x + c1*tid.y + c2*tid.z + c3*ctaid.x,
//     modulo the register's width) is kept as that function, a form, and
//     the integer ops that keep it affine (mov, add, sub, neg, not, mul.lo
//     and mad.lo and shl by a uniform value, mul.wide and widening cvt
//     when no lane's value wraps) compute the form once for the batch
//     (batch_form.go);
//   - a load or store whose address is a form is one checked pass over
//     the whole batch where the lanes' addresses are consecutive, else one
//     check per run of consecutive lanes (batch_memory.go); setp on forms
//     is decided from the ends of such runs or from a form's range
//     (batch_compare.go);
//   - every other op runs warp by warp through its usual handler (its
//     whole-warp loop where every lane runs), on a register file per warp
//     that holds rows like a frame's (forms are written out into rows when
//     such an op reads them).
//
// The shape: a kernel with one ret or exit, and no op other than
// register-only ones (the pure ops, setp, selp, cvta, predicate logic),
// ld.param of its parameters, weak ld/st.global and ld/st.shared of
// scalars and vectors (through a register or at a variable's address),
// barriers of the whole CTA (barriersOK), warp collectives of whole warps
// (batch_collective.go), global atomics (batch_atomic.go), mov from %tid,
// %ntid, %ctaid, %nctaid and %laneid, and branches. A guarded branch with
// the exit on one side and as its reconvergence point parts lanes by
// sending them to the exit (a bounds guard, a grid-stride loop's end);
// they wait there, as in the warp engine, and run it with the rest of
// their warp at the end. Any other guarded branch must split lanes into a
// region that only runs forward to its reconvergence point
// (forwardRegion), or branch on a predicate every lane of a warp holds
// alike (batch_uniform.go), or split whole warps when it runs (dynUni):
// its lanes run as groups one after the other (each with its lanes'
// masks) until all meet at that point. A loop must access global memory
// at addresses that differ between lanes: the warp engine's traces run
// loops of arithmetic faster.
//
// The result is the one the warp engine gives: running the threads of a
// batch's CTAs op by op is an interleaving of them, one of the executions
// the memory model allows (the lanes of one CTA meet at barriers that all
// of them reach together; the atomics run in the warp engine's order on
// one worker), and for a kernel without races it writes the same memory. The instruction counts are the same
// (a warp issues an op when a lane of it is at the op), except that a
// warp whose lanes spin in a loop for starvationLimit backward branches
// while others wait at the exit counts the exit once, not twice (the warp
// engine releases the waiting lanes then). A batch that faults is run
// again CTA by CTA by the warp engine, which reports the fault as it
// would have (the stores the batch made before the fault stay, as stores
// of CTAs before a faulting one do).

// batchEnabled lets tests (and PTXVM_BATCH=off) compare runs with and
// without batches.
var batchEnabled = os.Getenv("PTXVM_BATCH") != "off"

// batchKind says how a batch runs an op.
type batchKind uint8

const (
	bkReg   batchKind = iota // register-only: its handler, warp by warp
	bkForm                   // an integer op that may keep a form
	bkParam                  // ld.param of a kernel parameter by name
	bkLoad                   // ld.global
	bkStore                  // st.global
	bkBra                    // a branch
	bkExit                   // ret or exit
	bkBar                    // bar.sync / barrier.sync of a whole CTA
	bkColl                   // a warp collective of whole warps (batch_collective.go)
	bkAtom                   // the global atomic (batch_atomic.go)
)

// batchPlan is a kernel's plan for batches: how each op runs.
type batchPlan struct {
	kind []batchKind
	// srcs: per op, the register slots it reads (forms are written out
	// into rows before a bkReg op runs)
	srcs [][]int32
	// sext: per bkForm op with a 32-bit result, whether the engine keeps
	// that result sign-extended in its slot (probed from the handler)
	sext []bool
	// form: per bkForm op, what it computes on forms
	form []formInfo
	exit int32 // the exit op
	// toExit: per guarded branch, the exit is on one side and its
	// reconvergence point (lanes that take that side leave)
	toExit []bool
	// viaBra: per branch to the exit, its fall-through side reaches the
	// exit through an unguarded bra (whose issues the leaving lanes count)
	viaBra []bool
	// dynUni: per guarded branch, it must split whole warps when it runs
	// (above)
	dynUni []bool
	// readsFirst, readsLast: per op writing a register, the first and last
	// op reading that register (anywhere; -1: none); inside a split
	// a form op may still write a form when every read lies between it
	// and the split's reconvergence point (the other groups' lanes never
	// read the value)
	readsFirst, readsLast []int32
	// slotFirst, slotLast: per register slot, the first and last op
	// reading it (-1: none)
	slotFirst, slotLast []int32
	// pendingAtoms: every atomic adds to the batch's pending sums
	// (batch_pending.go), free of atomicsOK's rule
	pendingAtoms bool
	// undo: a batch keeps what its global stores overwrite (batch_undo.go);
	// failAfter: per op, an op that can send the batch back may follow it
	undo      bool
	failAfter []bool
	// tails: per global store that failAfter marks, the global stores
	// that alone can send the batch back after it (storeTails), or nil
	tails [][]int32
	// bounded: per global store that failAfter marks, the loop whose trip
	// test bounds every access after it, or nil (batch_loopbound.go)
	bounded []*boundedLoop
	// volatileLd: per op, an ld.volatile.global, which loads lane by lane
	// through the host's atomics (batch_memory.go's volatileLoad)
	volatileLd []bool
}

// batchSregs are the special registers a batch computes as forms (%laneid
// as rows: 0 to 31 in every warp).
var batchSregs = map[string]bool{"%tid": true, "%ntid": true, "%ctaid": true, "%nctaid": true, "%laneid": true}

// plan returns the kernel's batch plan, made on the first call (nil: the
// kernel is not of the shape, or is not a kernel).
func (f *Func) plan() *batchPlan {
	f.batchOnce.Do(func() {
		if f.IR.Entry {
			// (what a launch asks of a kernel is made at its first, as
			// the batch plan: redSafe before planBatch, which asks)
			f.redSafe = redSafe(f.IR)
			f.packable = packable(f.IR)
			f.batch = planBatch(f)
		}
	})
	return f.batch
}

// canBufferAdds reports redSafe for kernel f (made at its first launch).
func (f *Func) canBufferAdds() bool {
	f.plan()
	return f.redSafe
}

// canPack reports packable for kernel f (made at its first launch).
func (f *Func) canPack() bool {
	f.plan()
	return f.packable
}

// planBatch returns f's batch plan, or nil when f is not of the shape.
func planBatch(f *Func) *batchPlan {
	if !f.IR.Entry || len(f.frameConsts) > 0 {
		return nil
	}
	p := &batchPlan{kind: make([]batchKind, len(f.Ops)), srcs: make([][]int32, len(f.Ops)),
		sext: make([]bool, len(f.Ops)), form: make([]formInfo, len(f.Ops)), exit: -1}
	for _, ref := range f.sregOf {
		if !batchSregs[ref.name] {
			return nil
		}
	}
	for pc := range f.Ops {
		o := &f.Ops[pc]
		in := o.inst
		if o.collective {
			if !batchCollective(o) {
				return nil
			}
			p.kind[pc], p.srcs[pc] = bkColl, regSources(f, in)
			continue
		}
		switch {
		case batchAtomic(o):
			p.kind[pc], p.srcs[pc] = bkAtom, regSources(f, in)
			continue
		case o.ends:
			if p.exit >= 0 || o.guard != 0 {
				return nil
			}
			p.kind[pc], p.exit = bkExit, int32(pc)
			continue
		case in.Opcode == "bra":
			if !o.bra {
				return nil
			}
			p.kind[pc] = bkBra
			continue
		case in.Opcode == "ld" && o.space == spaceKernelParam && o.addrBase < 0 && !o.frameAddr:
			if len(o.vec) > 4 || o.size > 8 {
				return nil
			}
			p.kind[pc] = bkParam
			continue
		case (in.Opcode == "bar" || in.Opcode == "barrier") && hasMod(in, ".sync") && len(in.Operands) == 1 &&
			in.Operands[0].Kind == ir.OpImm && o.guard == 0 && !hasMod(in, ".warp") && !hasMod(in, ".cluster") &&
			!hasMod(in, ".red") && !hasMod(in, ".arrive"):
			p.kind[pc] = bkBar
			continue
		case in.Opcode == "ld" || in.Opcode == "st":
			// (.const: scalar loads of the launch's read-only constant bank)
			constLoad := o.space == mem.SpaceConst && in.Opcode == "ld" && len(o.vec) == 1
			// a scalar ld.volatile.global (a flag read once, a copy through
			// a volatile pointer): lane by lane, single-copy atomic, in a
			// kernel without loops (a spin on a flag that a CTA of the same
			// batch sets would never end in a batch's lockstep)
			volatileLd := in.Opcode == "ld" && o.space == mem.SpaceGlobal && len(o.vec) == 1 && hasMod(in, ".volatile") &&
				!hasMod(in, ".relaxed") && !hasMod(in, ".acquire") && !hasMod(in, ".mmio") && !hasLoop(f)
			if o.space != mem.SpaceGlobal && o.space != mem.SpaceShared && !constLoad || hasMod(in, ".volatile") && o.space != mem.SpaceShared && !volatileLd ||
				o.frameAddr || len(o.vec) == 3 || len(o.vec) > 4 ||
				o.size > 8 || o.size*len(o.vec) > 16 || strong(in, o) && !volatileLd || typeOf(in) == ".b128" {
				return nil
			}
			if volatileLd {
				if p.volatileLd == nil {
					p.volatileLd = make([]bool, len(f.Ops))
				}
				p.volatileLd[pc] = true
			}
			for _, v := range o.vec {
				if v < 0 && (in.Opcode == "st" || len(o.vec) == 1) {
					return nil // (a scalar load into the sink _: not modelled)
				}
			}
			p.kind[pc] = bkLoad
			if in.Opcode == "st" {
				p.kind[pc] = bkStore
			}
			continue
		}
		if !o.plain || (!o.pure && !registerOnlyBatch(o)) {
			return nil
		}
		// special registers only through mov (a form)
		for _, a := range in.Operands {
			if a.Kind == ir.OpSreg && (in.Opcode != "mov" || !batchSregs[a.Sreg]) {
				return nil
			}
		}
		p.kind[pc] = bkReg
		if fi, ok := formOf(in); ok && o.pure {
			p.kind[pc], p.form[pc] = bkForm, fi
		}
		p.srcs[pc] = regSources(f, in)
		if o.pure { // (a special register's slot: a mov's source)
			for _, s := range []int32{o.a, o.b, o.c}[:o.nsrc] {
				if f.sregOf[s] != nil {
					p.srcs[pc] = append(p.srcs[pc], s)
				}
			}
		}
	}
	if p.exit < 0 {
		return nil
	}
	// a guarded branch either parts lanes by sending some to the exit,
	// where they wait for the rest, or splits them until they meet again
	// at its reconvergence point (batch_run.go's frames): in a region that
	// only runs forward, or on a predicate every lane of a warp holds
	// alike (batch_uniform.go), which splits only whole warps
	p.toExit = make([]bool, len(f.Ops))
	p.viaBra = make([]bool, len(f.Ops))
	for pc := range f.Ops {
		o := &f.Ops[pc]
		if p.kind[pc] == bkBra && o.guard != 0 {
			// (clang's `@p bra BODY; bra.uni EXIT; BODY: ...` for `if (p)
			// {...} return;`: the lanes that fall through go to the exit
			// by one more branch)
			next := int(pc + 1)
			p.viaBra[pc] = next < len(f.Ops) && p.kind[next] == bkBra && f.Ops[next].guard == 0 && f.Ops[next].target == p.exit &&
				o.target != p.exit
			p.toExit[pc] = (o.target == p.exit || int32(pc+1) == p.exit || p.viaBra[pc]) && f.ipdom[pc] == p.exit
			p.viaBra[pc] = p.viaBra[pc] && p.toExit[pc]
		}
	}
	uniform, varies := uniformPreds(f, p)
	if !barriersOK(f, p, uniform) || !collectivesOK(f, p, uniform) {
		return nil
	}
	// any other guarded branch splits lanes into a region that only runs
	// forward, or whole warps (a predicate every lane of a warp holds
	// alike), or, where neither is known at load, it must split whole
	// warps when it runs (dynUni: a grid-stride loop whose lanes leave
	// for the code after it; batch_run.go's split declines otherwise)
	p.dynUni = make([]bool, len(f.Ops))
	for pc := range f.Ops {
		o := &f.Ops[pc]
		if p.kind[pc] != bkBra || o.guard == 0 || p.toExit[pc] {
			continue
		}
		r := f.ipdom[pc]
		if r < 0 || int(r) >= len(f.Ops) {
			return nil
		}
		if !forwardRegion(f, p, int32(pc)) && !uniform[o.guard-1] {
			if !wholeWarpRegion(f, p, int32(pc)) {
				return nil
			}
			p.dynUni[pc] = true
		}
	}
	p.pendingAtoms = pendingAtomsOK(f, p)
	if !p.pendingAtoms && !atomicsOK(f, p) { // (after dynUni: such a branch may send a batch back)
		return nil
	}
	// loops: only those whose body accesses global memory at addresses
	// that differ between lanes and that lanes leave for the exit or the
	// code after them (a grid-stride loop) or that hold a barrier (a
	// tiled kernel's loop over its tiles); the warp engine's traces run
	// other loops faster (hash, nbody and transcend ran 1.2-1.8x slower in
	// batches, a naive sgemm 1.5x)
	for pc := range f.Ops {
		o := &f.Ops[pc]
		if p.kind[pc] != bkBra || o.target > int32(pc) {
			continue
		}
		memory, kind := false, false
		for i := o.target; i <= int32(pc); i++ {
			k := p.kind[i]
			memory = memory || (k == bkLoad || k == bkStore) && f.Ops[i].addrBase >= 0 && varies[f.Ops[i].addrBase]
			kind = kind || k == bkBar || p.toExit[i] || p.dynUni[i]
		}
		if !memory || !kind {
			return nil
		}
	}
	if !probeSext(f, p) {
		return nil
	}
	p.readRanges(f)
	p.undo, p.failAfter = undoStores(f, p), failsAfter(f, p)
	p.tails = storeTails(f, p)
	p.bounded = boundedLoops(f, p)
	return p
}

// readRanges fills slotFirst and slotLast, and readsFirst and readsLast
// for the ops that write one register (forms, parameters).
func (p *batchPlan) readRanges(f *Func) {
	first := make([]int32, f.numSlots)
	last := make([]int32, f.numSlots)
	for s := range first {
		first[s], last[s] = -1, -1
	}
	for pc := range f.Ops {
		for _, s := range regSources(f, f.Ops[pc].inst) {
			if first[s] < 0 {
				first[s] = int32(pc)
			}
			last[s] = int32(pc)
		}
		if o := &f.Ops[pc]; o.pure { // (a special register's slot)
			for _, s := range []int32{o.a, o.b, o.c}[:o.nsrc] {
				if s >= 0 && int(s) < f.numSlots {
					if first[s] < 0 {
						first[s] = int32(pc)
					}
					last[s] = int32(pc)
				}
			}
		}
	}
	p.slotFirst, p.slotLast = first, last
	p.readsFirst = make([]int32, len(f.Ops))
	p.readsLast = make([]int32, len(f.Ops))
	for pc := range f.Ops {
		o := &f.Ops[pc]
		d := int32(-1)
		switch p.kind[pc] {
		case bkForm:
			d = o.d
		case bkParam:
			if len(o.vec) == 1 {
				d = o.vec[0]
			}
		}
		p.readsFirst[pc], p.readsLast[pc] = -1, -1
		if d >= 0 && int(d) < f.numSlots {
			p.readsFirst[pc], p.readsLast[pc] = first[d], last[d]
		}
	}
}

// localIn reports whether the register op pc writes is read only after
// it and before join (so a form may stand for its value in every lane).
func (p *batchPlan) localIn(pc, join int32) bool {
	f, l := p.readsFirst[pc], p.readsLast[pc]
	return f < 0 || f > pc && l < join
}

// barriersOK reports whether every barrier is one that all of each CTA's
// threads reach together, running: it lies in no region of a branch on a
// predicate that differs between lanes (uniform: a predicate every lane of
// a CTA holds alike, as batch_uniform.go finds, the values derived from
// %tid and %laneid being the only ones that differ), not after a branch
// lanes leave by for the exit (those lanes wait at the exit without having
// exited), and not in a loop.
func barriersOK(f *Func, p *batchPlan, uniform []bool) bool {
	uni := func(o *Op) bool { return o.guard == 0 || uniform[o.guard-1] }
	for b := range f.Ops {
		if p.kind[b] != bkBar {
			continue
		}
		for pc := range f.Ops {
			o := &f.Ops[pc]
			if p.kind[pc] != bkBra {
				continue
			}
			if t := int(o.target); t <= pc && t <= b && b <= pc { // a loop around it
				if !uni(o) {
					return false
				}
				for i := t; i <= pc; i++ {
					if p.toExit[i] {
						return false
					}
				}
			}
			if p.toExit[pc] && pc < b {
				return false
			}
			if !uni(o) && splitsAround(f, p, int32(pc), int32(b)) {
				return false // in a split's region
			}
		}
	}
	return true
}

// splitsAround reports whether the guarded branch at pc, when it parts
// lanes other than by sending them to the exit, leaves op x in the region
// its groups run apart (after pc, before its reconvergence point).
func splitsAround(f *Func, p *batchPlan, pc, x int32) bool {
	o := &f.Ops[pc]
	return p.kind[pc] == bkBra && o.guard != 0 && !p.toExit[pc] && pc < x && (f.ipdom[pc] < 0 || x < f.ipdom[pc])
}

// forwardRegion reports whether the guarded branch at pc splits lanes
// into a region that only runs forward to its reconvergence point: a
// forward target, a point before the exit, and no exit and no backward
// branch in between. (The warp engine pushes the point on the lanes'
// reconvergence stacks at each split and pops it when they meet, so in
// such a region every split's lanes meet again at its point, all
// together. A batch's frames nest, one per split: they do not model lanes
// that wait at one point for the splits of a loop whose lanes leave at
// different iterations towards a point other than the exit. Nested splits
// that meet at the same point (an else-if chain) nest as frames with one
// join: the inner one's groups arrive there first and pop it, and the
// outer one's next group runs from its target; each group runs its ops
// once, as on the warp engine, where they wait for that point once.)
func forwardRegion(f *Func, p *batchPlan, pc int32) bool {
	o := &f.Ops[pc]
	r := f.ipdom[pc]
	if r <= pc || r == p.exit || int(r) >= len(f.Ops) || o.target <= pc || o.target > r {
		return false
	}
	for i := pc + 1; i < r; i++ {
		q := &f.Ops[i]
		if p.kind[i] == bkExit || p.kind[i] == bkBra && (q.target <= i || q.target > r) {
			return false
		}
		if p.kind[i] == bkBra && q.guard != 0 && f.ipdom[i] > r {
			// a nested split meeting past the point (at it: above)
			return false
		}
	}
	return true
}

// wholeWarpRegion reports whether the guarded branch at pc may split whole
// warps without help: what its lanes run apart (its loop's body for a
// backward branch, else up to its reconvergence point) holds no exit, no
// branch to it, no barrier, collective or atomic.
func wholeWarpRegion(f *Func, p *batchPlan, pc int32) bool {
	o := &f.Ops[pc]
	lo, hi := min(o.target, pc+1), f.ipdom[pc]
	for i := lo; i < hi; i++ {
		switch p.kind[i] {
		case bkExit, bkBar, bkColl, bkAtom:
			return false
		case bkBra:
			if p.toExit[i] || f.Ops[i].target == p.exit {
				return false
			}
		}
	}
	return true
}

// registerOnlyBatch: registerOnly without its special-register test (the
// plan checks those itself), plus cvta.
func registerOnlyBatch(o *Op) bool {
	switch o.inst.Opcode {
	case "setp", "selp":
		return true
	case "and", "or", "xor", "not":
		return typeOf(o.inst) == ".pred"
	case "cvta":
		return o.vkind == vecUnary
	}
	return false
}

// regSources returns the register slots an instruction reads (not
// predicates: those live in their own array).
func regSources(f *Func, in *ir.Inst) []int32 {
	var out []int32
	var walk func(a *ir.Operand)
	walk = func(a *ir.Operand) {
		if a.Kind == ir.OpReg && a.Reg != nil && a.Reg.Type != ".pred" {
			s, n := f.operandSlots(a)
			for k := range int32(n) {
				out = append(out, s+k)
			}
		}
		if a.Base != nil {
			walk(a.Base)
		}
		for k := range a.Elems {
			walk(&a.Elems[k])
		}
	}
	for i := range in.Operands {
		if i == 0 && in.Opcode != "st" && in.Opcode != "red" {
			continue // the destination (a store's and red's first operand is their address)
		}
		walk(&in.Operands[i])
	}
	return out
}

// regDests returns the register slots an instruction writes (not
// predicates), a store's and red's none.
func regDests(f *Func, in *ir.Inst) []int32 {
	if len(in.Operands) == 0 || in.Opcode == "st" || in.Opcode == "red" {
		return nil
	}
	var out []int32
	var walk func(a *ir.Operand)
	walk = func(a *ir.Operand) {
		if a.Kind == ir.OpReg && a.Reg != nil && a.Reg.Type != ".pred" {
			s, n := f.operandSlots(a)
			for k := range int32(n) {
				out = append(out, s+k)
			}
		}
		for k := range a.Elems {
			walk(&a.Elems[k])
		}
	}
	walk(&in.Operands[0])
	return out
}

// formKind is what a form op computes.
type formKind uint8

const (
	fMov formKind = iota
	fAdd
	fSub
	fNeg
	fNot
	fShl
	fMul // .lo
	fMad // .lo
	fMulWide
	fCvt
	fMin // with a uniform operand on one side of every value (formOp)
	fMax
)

// formInfo is a form op, decoded once.
type formInfo struct {
	op      formKind
	bits    int  // the result's width
	signed  bool // mul.wide, cvt: the source is signed
	widen   bool // cvt from 32 to 64 bits
	srcBits int  // cvt: the source's width
}

// formOf decodes an instruction a form may pass through: an integer op of
// 32 or 64 bits, unguarded, without saturation, carry or high halves.
func formOf(in *ir.Inst) (formInfo, bool) {
	t := typeOf(in)
	it, ok := parseInt(t)
	if !ok || it.bits != 32 && it.bits != 64 || in.Guard != nil || len(in.Mods) == 0 {
		return formInfo{}, false
	}
	for _, m := range in.Mods {
		switch m {
		case ".sat", ".cc", ".hi", ".ftz", ".relu":
			return formInfo{}, false
		}
	}
	fi := formInfo{bits: it.bits}
	switch in.Opcode {
	case "mov":
		fi.op = fMov
		ok = len(in.Operands) == 2 && in.Operands[1].Kind != ir.OpVector && in.Operands[0].Kind == ir.OpReg
	case "add", "sub", "shl":
		fi.op = map[string]formKind{"add": fAdd, "sub": fSub, "shl": fShl}[in.Opcode]
		ok = len(in.Operands) == 3
	case "neg":
		fi.op, ok = fNeg, t[1] == 's'
	case "not":
		fi.op = fNot // (-x - 1)
	case "mul":
		switch {
		case hasMod(in, ".lo"):
			fi.op = fMul
		case hasMod(in, ".wide") && it.bits == 32:
			fi.op, fi.bits, fi.signed = fMulWide, 64, it.signed
		default:
			ok = false
		}
	case "mad":
		fi.op, ok = fMad, hasMod(in, ".lo")
	case "min", "max":
		// (a clamped index, max(i-1, 0): the form itself or the bound
		// where every value of the batch lies on one side of it)
		fi.op, fi.signed = fMin, it.signed
		if in.Opcode == "max" {
			fi.op = fMax
		}
		ok = len(in.Operands) == 3
	case "cvt":
		d, a, ok2 := cvtIntTypes(in)
		fi.op, fi.bits, fi.signed, fi.srcBits, ok = fCvt, d.bits, a.signed, a.bits, ok2
		fi.widen = a.bits == 32 && d.bits == 64
	default:
		ok = false
	}
	return fi, ok
}

// probeSext finds, for each form op with a 32-bit result, how its handler
// leaves a result in the slot (sign- or zero-extended), by running it on
// operands whose result has bit 31 set, given both zero- and
// sign-extended; an op whose handler does neither the same way for both
// runs on rows (bkReg). It reports false when an op cannot be probed.
func probeSext(f *Func, p *batchPlan) (ok bool) {
	defer func() {
		// a handler that needs more than a frame's registers (none of the
		// form ops should): no batches for the kernel, not a failed load
		if recover() != nil {
			ok = false
		}
	}()
	probed := false
	for pc := range f.Ops {
		probed = probed || p.kind[pc] == bkForm && p.form[pc].bits == 32
	}
	if !probed {
		return true // (a Warp and a register file are 10 KB and more to allocate)
	}
	w := &Warp{}
	fr := &frame{fn: f, regs: make([]uint64, f.numSlots*warpSize), preds: make([]uint32, f.numPreds)}
	w.frames = []*frame{fr}
	for _, c := range f.consts {
		if c.slot >= 0 {
			fill := c.bits
			if fill == sregMarker {
				fill = 0
			}
			fillRow((*lanes)(fr.regs[int(c.slot)*warpSize:]), fill)
		}
	}
	probes := []uint32{0xffffffff, 0x80000000, 0x7fffffff, 0x40000000, 0x12345678, 0xfedcba98, 1, 3}
	for pc := range f.Ops {
		o := &f.Ops[pc]
		if p.kind[pc] != bkForm {
			continue
		}
		if p.form[pc].bits != 32 {
			continue // (64-bit results need no extension)
		}
		decided, sext := false, false
		for _, v := range probes {
			var got [2]uint64
			ext := 2
			if f.sregOf[o.a] != nil {
				ext = 1 // a special register's row is always zero-extended
			}
			for e := range ext {
				x := uint64(v)
				if e == 1 {
					x = uint64(int64(int32(v)))
				}
				for _, s := range []int32{o.a, o.b, o.c}[:o.nsrc] {
					if int(s) < f.regSlots || f.sregOf[s] != nil {
						fillRow((*lanes)(fr.regs[int(s)*warpSize:]), x)
					}
				}
				o.exec(w, o, ^uint32(0))
				got[e] = fr.regs[int(o.d)*warpSize]
			}
			if ext == 1 {
				got[1] = got[0]
			}
			if got[0] != got[1] {
				break // the result depends on the operands' upper halves
			}
			if uint32(got[0])&0x80000000 == 0 {
				continue
			}
			switch got[0] >> 32 {
			case 0:
				decided, sext = true, false
			case 0xffffffff:
				decided, sext = true, true
			}
			break
		}
		if !decided {
			p.kind[pc] = bkReg
			continue
		}
		p.sext[pc] = sext
	}
	return true
}

// hasLoop reports whether a function has a backward branch.
func hasLoop(f *Func) bool {
	for pc := range f.Ops {
		if o := &f.Ops[pc]; o.inst.Opcode == "bra" && o.target <= int32(pc) || o.inst.Opcode == "brx" {
			return true
		}
	}
	return false
}
