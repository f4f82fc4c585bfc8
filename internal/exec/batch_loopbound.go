package exec

import (
	"math"
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
)

// Bounded loops (batch_undo.go's keeps). A grid-stride loop's store keeps
// what it overwrites because a load or store of a later trip could send
// the batch back: gridsaxpy's y[i] = a*x[i] + y[i] copied all of y into
// the undo log, a fifth of its time. Yet the loop's own test bounds
// every later trip's index: in
//
//	L: ...; off = i * 4 (mul.wide); p = y + off; ld [p]; st [p], v;
//	   i += s; setp.lt p2, i, n; @p2 bra L
//
// a trip runs only with i < n, so its accesses lie in [y, y + 4n) when i
// only grows (a signed test: i >= 0 now and i + s cannot pass 2^31). When
// that range is in one window, aligned, for every access of the loop,
// when the batch first reaches one of its stores, no later trip can fail,
// and nothing after the loop can (a straight line to the exit): the
// stores keep nothing from then on in this batch.

// boundedProofs counts the batches that proved a bounded loop (tests).
var boundedProofs atomic.Int64

// boundedLoop is a loop boundedLoops recognised: its trip test bounds the
// addresses of its accesses.
type boundedLoop struct {
	iv         int32  // the index's slot (written once in the loop, by the add)
	bits       int    // its width
	signed     bool   // the trip test compares signed
	step       int32  // the add's other operand's slot, -1: stepImm
	stepImm    uint64 //
	bound      int32  // the test's bound's slot, -1: boundImm
	boundImm   uint64 //
	accesses   []boundedAccess
	head, last int32 // the loop's first op and its back edge
}

// boundedAccess is an access of a bounded loop at base + scale*index +
// konst, size bytes.
type boundedAccess struct {
	base        int32  // a 64-bit slot the loop does not write
	scale, size uint64 //
	konst       uint64 // the op's addrConst
	sext        bool   // a 32-bit index widened signed (mul.wide.s32)
}

// boundedLoops returns, per global store that failAfter marks, the loop
// whose test bounds every access after it (nil: none): a loop that is one
// straight line up to its back edge, which lanes leave for a straight
// line to the exit, whose only ops that can send a batch back are global
// loads and stores at an invariant base plus a multiple of the index, and
// whose index is written once, after them, by an add of an invariant
// step, then compared (setp.lt, or .gt reversed) with an invariant bound
// for the back edge.
func boundedLoops(f *Func, p *batchPlan) []*boundedLoop {
	var out []*boundedLoop
	var found []*boundedLoop
	for pc, k := range p.kind {
		if k != bkStore || !p.failAfter[pc] || f.Ops[pc].space != mem.SpaceGlobal {
			continue
		}
		var l *boundedLoop
		for _, c := range found {
			if c.head <= int32(pc) && int32(pc) < c.last {
				l = c
			}
		}
		if l == nil {
			if l = boundLoop(f, p, int32(pc)); l == nil {
				continue
			}
			found = append(found, l)
		}
		if out == nil {
			out = make([]*boundedLoop, len(f.Ops))
		}
		out[pc] = l
	}
	return out
}

// boundLoop returns the bounded loop store pc lies in (boundedLoops), or
// nil.
func boundLoop(f *Func, p *batchPlan, pc int32) *boundedLoop {
	ops := f.Ops
	last := int32(-1)
	for j := pc + 1; j < int32(len(ops)); j++ {
		if p.kind[j] == bkBra {
			last = j
			break
		}
	}
	if last < 0 || ops[last].guard == 0 || ops[last].neg || ops[last].target > pc || !p.toExit[last] {
		return nil
	}
	head := ops[last].target
	// one straight line: no branch in it before the back edge, none into
	// it but to its head; from the back edge on a straight line of
	// register ops to the exit
	for j := range ops {
		if p.kind[j] != bkBra {
			continue
		}
		if t := ops[j].target; int32(j) != last && (head <= int32(j) && int32(j) < last || head < t && t <= last) {
			return nil
		}
	}
	for j := last + 1; j != p.exit; j++ {
		if int(j) >= len(ops) || p.kind[j] != bkReg && p.kind[j] != bkForm {
			return nil
		}
	}
	// writers of each slot in the loop
	writes := map[int32][]int32{}
	for j := head; j < last; j++ {
		for _, d := range regDests(f, ops[j].inst) {
			writes[d] = append(writes[d], j)
		}
	}
	invariant := func(s int32) bool { return len(writes[s]) == 0 }
	// operand i of op j: its slot, or an immediate
	operand := func(j int32, i int) (slot int32, imm uint64, ok bool) {
		in := ops[j].inst
		if i >= len(in.Operands) {
			return 0, 0, false
		}
		switch a := in.Operands[i]; a.Kind {
		case ir.OpReg:
			return f.slot[a.Reg.ID], 0, true
		case ir.OpImm:
			return -1, constBits(a.Imm, ops[j].typ), true
		}
		return 0, 0, false
	}
	// the trip test: the back edge's predicate, written once in the loop
	// by setp.lt (or .gt with the operands reversed)
	l := &boundedLoop{head: head, last: last}
	var test int32 = -1
	for j := head; j < last; j++ {
		in := ops[j].inst
		if in.Opcode == "setp" && len(in.Operands) >= 1 && in.Operands[0].Kind == ir.OpReg && f.slot[in.Operands[0].Reg.ID] == ops[last].guard-1 {
			if test >= 0 {
				return nil
			}
			test = j
		}
	}
	if test < 0 {
		return nil
	}
	tin := ops[test].inst
	c, unsigned := parseIntCmp(tin.Groups[".CmpOp"])
	t, ok := parseInt(ops[test].typ)
	if !ok || t.bits != 32 && t.bits != 64 || tin.Groups[".BoolOp"] != "" || len(tin.Operands) != 3 || c != cmpLt && c != cmpGt {
		return nil
	}
	l.bits, l.signed = t.bits, t.signed && !unsigned
	ivAt, boundAt := 1, 2
	if c == cmpGt {
		ivAt, boundAt = 2, 1
	}
	iv, _, ok1 := operand(test, ivAt)
	bound, boundImm, ok2 := operand(test, boundAt)
	if !ok1 || !ok2 || iv < 0 || bound >= 0 && !invariant(bound) {
		return nil
	}
	l.iv, l.bound, l.boundImm = iv, bound, boundImm
	// the index: written once, by an add of an invariant step before the
	// test, after every access
	w := writes[iv]
	if len(w) != 1 || w[0] > test {
		return nil
	}
	add := w[0]
	if fi := p.form[add]; p.kind[add] != bkForm || fi.op != fAdd || fi.bits != l.bits {
		return nil
	}
	a, _, okA := operand(add, 1)
	b, bImm, okB := operand(add, 2)
	switch {
	case okA && okB && a == iv && (b < 0 || invariant(b)):
		l.step, l.stepImm = b, bImm
	case okA && okB && b == iv && a >= 0 && invariant(a):
		l.step = a
	default:
		return nil
	}
	// the accesses, and no other op that can send the batch back
	for j := head; j < last; j++ {
		switch p.kind[j] {
		case bkLoad, bkStore:
		case bkReg, bkForm:
			continue
		default:
			return nil
		}
		o := &ops[j]
		if o.space != mem.SpaceGlobal || j > add || o.addrBase < 0 {
			return nil
		}
		acc, ok := boundAccess(f, p, j, iv, l.bits, writes, operand)
		if !ok {
			return nil
		}
		l.accesses = append(l.accesses, acc)
	}
	return l
}

// boundAccess derives access j's address as base + scale*index (an add
// of an invariant base and the index scaled by mul.wide, shl or mul.lo,
// both in the loop before it).
func boundAccess(f *Func, p *batchPlan, j, iv int32, ivBits int, writes map[int32][]int32,
	operand func(j int32, i int) (int32, uint64, bool)) (boundedAccess, bool) {
	o := &f.Ops[j]
	acc := boundedAccess{size: uint64(o.size * len(o.vec)), konst: o.addrConst}
	// (the loop is a straight line: the last write before an op is the
	// one it reads)
	reaching := func(s, at int32) int32 {
		def := int32(-1)
		for _, w := range writes[s] {
			if w < at {
				def = w
			}
		}
		return def
	}
	sum := reaching(o.addrBase, j)
	if sum < 0 {
		return acc, false
	}
	if fi := p.form[sum]; p.kind[sum] != bkForm || fi.op != fAdd || fi.bits != 64 {
		return acc, false
	}
	x, _, okX := operand(sum, 1)
	y, _, okY := operand(sum, 2)
	if !okX || !okY || x < 0 || y < 0 {
		return acc, false
	}
	off := y
	if len(writes[x]) != 0 {
		x, off = y, x
	}
	scaled := reaching(off, sum)
	if len(writes[x]) != 0 || scaled < 0 {
		return acc, false
	}
	acc.base = x
	fi := p.form[scaled]
	if p.kind[scaled] != bkForm {
		return acc, false
	}
	src, _, okS := operand(scaled, 1)
	k0, kImm, okK := operand(scaled, 2)
	if !okS || !okK || k0 >= 0 || src != iv {
		return acc, false
	}
	switch {
	case fi.op == fMulWide && ivBits == 32:
		acc.scale, acc.sext = kImm, fi.signed
	case fi.op == fShl && fi.bits == 64 && ivBits == 64 && kImm < 64:
		acc.scale = 1 << kImm
	case fi.op == fMul && fi.bits == 64 && ivBits == 64:
		acc.scale = kImm
	default:
		return acc, false
	}
	return acc, acc.scale > 0
}

// loopBounded reports whether store pc lies in a bounded loop whose
// later trips this batch has proved cannot fail (proved once per batch,
// at the first of its stores to ask).
func (r *batchRun) loopBounded(pc int32) bool {
	if r.plan.bounded == nil || r.plan.bounded[pc] == nil || len(r.frames) > 0 {
		return false // (a split's other groups run code after the join later)
	}
	l := r.plan.bounded[pc]
	if i := slices.Index(r.boundTried, l); i >= 0 {
		return r.boundOK[i]
	}
	ok := r.proveBound(l)
	r.boundTried, r.boundOK = append(r.boundTried, l), append(r.boundOK, ok)
	if ok {
		boundedProofs.Add(1)
	}
	return ok
}

// proveBound checks, with the batch's values now, that every later trip
// of loop l accesses memory in one window, aligned (boundedLoops).
func (r *batchRun) proveBound(l *boundedLoop) bool {
	uni := func(s int32, imm uint64) (uint64, bool) {
		if s < 0 {
			return imm, true
		}
		f, ok := r.formOf(s)
		return f.raw(), ok && f.uniform()
	}
	n, okN := uni(l.bound, l.boundImm)
	step, okS := uni(l.step, l.stepImm)
	ivf, okI := r.formOf(l.iv)
	if !okN || !okS || !okI || int(ivf.bits) != l.bits {
		return false
	}
	mask := uint64(math.MaxUint64) >> (64 - l.bits)
	n, step = n&mask, step&mask
	// the values this trip and the later ones run with: [lo, n) as exact
	// integers, when the values now lie below n (this trip's accesses
	// after the store count too, and its index passed no test of this
	// loop in a first trip)
	lo := uint64(0)
	min, max, ok := ivf.span(l.bits, l.signed, &r.dom)
	min, max = min&mask, max&mask
	if !ok || max >= n {
		return false
	}
	if l.signed {
		// a non-negative bound, a positive step that carries no value
		// below n past the greatest signed value, from values at 0 or
		// above now
		half := uint64(1) << (l.bits - 1)
		if n >= half || step == 0 || step >= half || n+step > half || min >= half {
			return false
		}
		lo = min
	}
	// (so lo <= max < n: n-1 is an index of this trip or a later one)
	for _, a := range l.accesses {
		if a.sext && !l.signed && n > 1<<31 {
			return false // (an index past 2^31 would widen negative)
		}
		bf, ok := r.formOf(a.base)
		if !ok || !bf.uniform() || bf.bits != 64 && bf.bits != 0 { // (0: a raw value, uniformOp's)
			return false
		}
		hiHi, hiOff := bits.Mul64(a.scale, n-1)
		loOff := a.scale * lo
		start := bf.raw() + a.konst + loOff
		end := bf.raw() + a.konst + hiOff + a.size
		if hiHi != 0 || end < start || start < bf.raw()+a.konst || (bf.raw()+a.konst|a.scale)&(a.size-1) != 0 {
			return false
		}
		if _, _, in := r.window(start, end-start); !in {
			return false
		}
	}
	return true
}
