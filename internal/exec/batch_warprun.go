package exec

import (
	"slices"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/ir"
)

// vecRun runs the ops from pc on that regOp would each run through
// vecAll (every lane running, unguarded, a whole-warp loop, not all of
// their operands uniform), warp by warp rather than op by op: the rows
// one warp's ops pass each other stay in the first-level cache (a float4
// kernel's eight adds on the four loaded rows). It returns how many ops
// it ran, 0 when fewer than two qualify.
func (r *batchRun) vecRun(pc int32) int32 {
	if !r.threadsRun() {
		return 0
	}
	end := r.vecScan(pc, -1)
	if end-pc < 2 {
		return 0
	}
	r.vecExec(pc, end, nil)
	return end - pc
}

// vecScan returns where a run from pc ends (pc: no op qualifies); lead,
// when not -1, is a register the batch writes just before the run (a
// fused load's).
func (r *batchRun) vecScan(pc, lead int32) int32 {
	ops, plan := r.fn.Ops, r.plan
	written := r.runWritten[:0]
	if lead >= 0 {
		written = append(written, lead)
	}
	defer func() { r.runWritten = written[:0] }()
	isWritten := func(s int32) bool { return slices.Contains(written, s) }
	end := pc
loop:
	for ; int(end) < len(ops); end++ {
		o := &ops[end]
		if plan.kind[end] == bkColl {
			// a collective of whole warps (every lane runs, batch_collective.go)
			if c := o.aux.(*collOp); o.guard == 0 && c.fullMask && c.dst >= 0 && r.full() {
				written = append(written, c.dst)
				continue
			}
			break
		}
		switch plan.kind[end] {
		case bkReg:
		case bkForm:
			// (one whose operands are not all forms: regOp's)
			form := true
			for _, s := range []int32{o.a, o.b, o.c}[:o.nsrc] {
				_, isForm := r.formOf(s)
				form = form && isForm && !isWritten(s)
			}
			if form {
				break loop
			}
		default:
			break loop
		}
		d := &o.inst.Operands[0]
		if o.guard != 0 || o.vkind == vecNone || d.Kind != ir.OpReg || d.Reg == nil || d.Reg.Type == ".pred" {
			break
		}
		if s, n := r.fn.operandSlots(d); s != o.d || n != 1 || (o.pure || o.vkind == vecUnary) && r.uniformIn(o, isWritten) {
			break
		}
		written = append(written, o.d)
	}
	return end
}

// A fusedLoad is a whole-batch load of consecutive 4- or 8-byte values
// into row v, run warp by warp in front of a run (access): block b's 32
// values are at p + b*32*n.
type fusedLoad struct {
	v      int32
	p      *byte
	n      uint64
	signed bool
	pf     uintptr
}

// vecExec runs the ops pc..end-1 that vecScan found as a run, warp by
// warp, each warp's after ld's values where ld is not nil.
func (r *batchRun) vecExec(pc, end int32, ld *fusedLoad) {
	ops, plan := r.fn.Ops, r.plan
	written := r.runWritten[:0]
	if ld != nil {
		written = append(written, ld.v)
	}
	defer func() { r.runWritten = written[:0] }()
	isWritten := func(s int32) bool { return slices.Contains(written, s) }
	for i := pc; i < end; i++ {
		// the sources no earlier op of the run writes (one that a later
		// op writes is read before it, so it needs its rows too)
		for _, s := range plan.srcs[i] {
			if !isWritten(s) {
				r.materialize(s)
			}
		}
		r.countAll()
		if plan.kind[i] == bkColl {
			c := ops[i].aux.(*collOp)
			written = append(written, c.dst)
			if c.pdst >= 0 {
				r.predUni[c.pdst] = -1 // (its lanes' predicates may differ)
			}
		} else {
			written = append(written, ops[i].d)
		}
	}
	base := unsafe.Pointer(unsafe.SliceData(r.regs))
	file := r.slots * warpSize * 8
	stride := uintptr(file)
	lead := func(f unsafe.Pointer, blk int) {
		row := (*lanes)(unsafe.Add(f, int(ld.v)*warpSize*8))
		p := (*byte)(unsafe.Add(unsafe.Pointer(ld.p), uint64(blk)*warpSize*ld.n))
		switch {
		case ld.n == 8:
			batchCopy64N(row, stride, p, 1, ld.pf)
		case ld.signed:
			batchLoadS32N(row, stride, p, 1, ld.pf)
		default:
			batchLoadZ32N(row, stride, p, 1, ld.pf)
		}
	}
	if ld != nil && end-pc == 1 && plan.kind[pc] != bkColl && ld.n == 4 && !ld.signed && ops[pc].vkind == vecRR {
		// a load and one op (a reduction's add), in one tight loop: the
		// closures and the trace call cost a fifth of such a loop
		o := &ops[pc]
		p := unsafe.Pointer(ld.p)
		v, d, a, b := uintptr(ld.v)*warpSize*8, uintptr(o.d)*warpSize*8, uintptr(o.a)*warpSize*8, uintptr(o.b)*warpSize*8
		for blk := range r.nb {
			f := unsafe.Add(base, blk*file)
			batchLoadZ32N((*lanes)(unsafe.Add(f, v)), stride, (*byte)(unsafe.Add(p, uintptr(blk)*warpSize*4)), 1, ld.pf)
			o.vrr((*lanes)(unsafe.Add(f, d)), (*lanes)(unsafe.Add(f, a)), (*lanes)(unsafe.Add(f, b)))
		}
	} else if tr := r.vecTrace(pc, end); tr != nil {
		// the run as a trace (trace.go): one call per block
		for blk := range r.nb {
			f := unsafe.Add(base, blk*file)
			if ld != nil {
				lead(f, blk)
			}
			simdTrace(f, &tr[0], len(tr), nil)
		}
	} else {
		run := ops[pc:end]
		for blk := range r.nb {
			f := unsafe.Add(base, blk*file)
			if ld != nil {
				lead(f, blk)
			}
			for k := range run {
				o := &run[k]
				if plan.kind[pc+int32(k)] == bkColl {
					r.point(blk)
					o.aux.(*collOp).whole(&r.fr)
					continue
				}
				o.runVecAt(f)
			}
		}
	}
	for _, d := range written {
		r.wroteRows(d)
	}
}

// vecTrace returns the run of ops pc..end-1 as a trace of register-only
// bodies (trace.go's, with whole-warp shfl's), or nil when an op has none;
// kept per run.
func (r *batchRun) vecTrace(pc, end int32) []traceOp {
	if !tracesEnabled || !simdEnabled {
		return nil
	}
	if r.vtr == nil {
		r.vtr = make([]vecTraceRun, len(r.fn.Ops))
	}
	v := &r.vtr[pc]
	if v.end == end {
		return v.ops
	}
	v.end, v.ops = end, nil
	var tr []traceOp
	for i := pc; i < end; i++ {
		o := &r.fn.Ops[i]
		var t traceOp
		ok := false
		if r.plan.kind[i] == bkColl {
			// (a predicate destination: the body's needs a context)
			if c := o.aux.(*collOp); o.memTrace == "shfl" && c.pdst < 0 {
				t, ok = shflEntry(c)
			}
		} else {
			t, ok = vecEntry(o)
		}
		if !ok {
			return nil
		}
		tr = append(tr, t)
	}
	v.ops = tr
	return tr
}

// A vecTraceRun is vecTrace's run from one op: where it ends, its trace.
type vecTraceRun struct {
	end int32
	ops []traceOp
}

// uniformIn reports whether every operand of op o is a uniform form no op
// of the run so far (written) overwrote: regOp would compute it once.
func (r *batchRun) uniformIn(o *Op, written func(int32) bool) bool {
	for _, s := range []int32{o.a, o.b, o.c}[:max(1, o.nsrc)] {
		if f, ok := r.formOf(s); !ok || !f.uniform() || written(s) {
			return false
		}
	}
	return true
}
