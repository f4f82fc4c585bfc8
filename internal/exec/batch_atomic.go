package exec

import (
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
)

// Global atomics in batches. A kernel may hold one atom or red on global
// memory (a warp's or a block's partial sum added to a total, a counter),
// which a batch runs block after block through its handler (atomic.go),
// in the order of the warp engine on one worker (CTA after CTA, warp
// after warp), under the lanes' masks.
//
// A batch that faults, or whose launch is cancelled, runs again on the
// warp engine from the start, which is harmless for loads and stores (they
// write what they wrote) but would apply an atomic twice. So the atomic
// checks every lane's address before it updates anything, and nothing
// after it may send the batch back: it lies in no loop and in no region
// of a split (it runs once, with every group's lanes), and no load, store,
// parameter load, collective or backward branch (where a batch checks for
// cancellation) follows it.

// batchAtomic reports whether op o is an atomic a batch may run: atom or
// red of one value on global memory through a register.
func batchAtomic(o *Op) bool {
	in := o.inst
	if in.Opcode != "atom" && in.Opcode != "red" || o.space != mem.SpaceGlobal || o.frameAddr || o.addrBase < 0 {
		return false
	}
	for _, m := range in.Mods {
		switch m {
		case ".v2", ".v4", ".v8":
			return false
		}
	}
	return true
}

// atomicsOK reports whether the kernel's atomics follow the rule above.
func atomicsOK(f *Func, p *batchPlan) bool {
	a := -1
	for pc, k := range p.kind {
		if k == bkAtom {
			if a >= 0 {
				return false
			}
			a = pc
		}
	}
	if a < 0 {
		return true
	}
	for pc := range f.Ops {
		o := &f.Ops[pc]
		switch p.kind[pc] {
		case bkLoad, bkStore, bkParam, bkColl:
			if pc > a {
				return false
			}
		case bkBra:
			if pc >= a && o.target <= int32(pc) {
				return false // a loop around the atomic or after it
			}
			if pc < a && o.guard != 0 && !p.toExit[pc] && (f.ipdom[pc] < 0 || int32(a) < f.ipdom[pc]) {
				return false // in a split's region
			}
		}
	}
	return true
}

// atomic runs the atomic op o; false: a lane's address faults (nothing
// updated).
func (r *batchRun) atomic(pc int32, o *Op) bool {
	for _, s := range r.plan.srcs[pc] {
		r.materialize(s)
	}
	dst := int32(-1)
	if d := o.inst.Operands[0]; o.inst.Opcode == "atom" && d.Kind == ir.OpReg && d.Reg != nil {
		dst = r.fn.slot[d.Reg.ID]
		r.materialize(dst) // (the lanes that do not run keep their values)
	}
	n := uint64(o.size)
	one, first := true, true // every running lane at one word (first: none seen yet)
	var addr0 uint64
	for blk := range r.nb {
		addrs := r.row(blk, o.addrBase)
		for m := r.act[blk] & r.guardOf(o, blk); m != 0; m &= m - 1 {
			addr := addrs[bits.TrailingZeros32(m)] + o.addrConst
			if _, _, ok := r.window(addr, n); !ok || addr&(n-1) != 0 {
				return false
			}
			if first {
				addr0, first = addr, false
			}
			one = one && addr == addr0
		}
	}
	if ai := o.aux.(*atomInfo); one && !first && (ai.addInt32 || ai.addF32) {
		r.addOneWord(o, ai, addr0)
		if dst >= 0 {
			r.hasF[dst], r.hasR[dst], r.uniR[dst] = false, true, false
		}
		return true
	}
	for blk := range r.nb {
		a, g := r.issue(o, blk)
		if a&g != 0 {
			r.point(blk)
			o.exec(&r.w, o, a&g)
		}
	}
	if dst >= 0 {
		r.hasF[dst], r.hasR[dst], r.uniR[dst] = false, true, false
	}
	return true
}

// addOneWord runs an atom/red.add.u32/s32/f32 whose running lanes, in
// every block, name the one word at addr (a warp's or block's sum added to
// a total) as one atomic step: the lanes' adds in the warp engine's order
// (block after block, lane after lane), each lane's old value the running
// total, as atomic.go does for the lanes of one warp. An integer sum is one
// fetch-and-add; f32 adds (flushed, atomAddF32Flush) are one
// compare-and-swap, again from the new word if another worker changed it.
func (r *batchRun) addOneWord(o *Op, ai *atomInfo, addr uint64) {
	data, off, _ := r.window(addr, 4)
	p := (*uint32)(unsafe.Pointer(&data[off]))
	for blk := range r.nb {
		r.issue(o, blk)
	}
	for {
		var cur, acc uint32
		if ai.addF32 {
			cur = atomic.LoadUint32(p)
			acc = cur
		}
		var sum uint32
		for blk := range r.nb {
			a, g := r.act[blk], r.guardOf(o, blk)
			vals := r.row(blk, ai.val)
			var olds *lanes
			if ai.dst >= 0 {
				olds = r.row(blk, ai.dst)
			}
			for m := a & g; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				if ai.addF32 {
					if olds != nil {
						olds[l] = uint64(acc)
					}
					acc = uint32(atomAddF32Flush(uint64(acc), vals[l]))
					continue
				}
				if olds != nil {
					olds[l] = uint64(sum) // (made absolute below)
				}
				sum += uint32(vals[l])
			}
		}
		if ai.addF32 {
			if atomic.CompareAndSwapUint32(p, cur, acc) {
				return
			}
			continue
		}
		old := atomic.AddUint32(p, sum) - sum
		if ai.dst >= 0 {
			for blk := range r.nb {
				olds := r.row(blk, ai.dst)
				for m := r.act[blk] & r.guardOf(o, blk); m != 0; m &= m - 1 {
					l := bits.TrailingZeros32(m)
					olds[l] = ai.it.norm(uint64(old + uint32(olds[l])))
				}
			}
		}
		return
	}
}
