package exec

import (
	"math"

	"github.com/ptxvm/ptxvm/internal/ir"
)

// setp in batches (batch.go): comparisons decided for a whole batch, a run
// of lanes, or lane by lane.

// setpForms runs an integer setp p, a, b on forms without rows: each
// block where the lanes' values are a run without wrap-around, and the
// comparison is a threshold, needs only its first and last lanes.
func (r *batchRun) setpForms(o *Op) bool {
	in := o.inst
	t, ok := parseInt(o.typ)
	c, unsigned := parseIntCmp(in.Groups[".CmpOp"])
	if !ok || c == cmpNone || in.Groups[".BoolOp"] != "" || len(in.Operands) != 3 || in.Operands[0].Kind != ir.OpReg || t.bits < 32 {
		return false
	}
	var f [2]form
	for i := range f {
		a := in.Operands[1+i]
		switch a.Kind {
		case ir.OpReg:
			s := r.fn.slot[a.Reg.ID]
			if !r.hasF[s] {
				return false
			}
			f[i] = r.forms[s]
		case ir.OpImm:
			f[i] = uniformRaw(constBits(a.Imm, o.typ))
		default:
			return false
		}
	}
	p := r.fn.slot[in.Operands[0].Reg.ID]
	r.predUni[p] = -1
	signed := t.signed && !unsigned
	// a threshold on one moving operand, the other's value k
	ends := c != cmpEq && c != cmpNe && (f[0].uniform() || f[1].uniform())
	mv, k, moving := &f[0], f[1].raw(), 0
	if f[0].uniform() {
		mv, k, moving = &f[1], f[0].raw(), 1
	}
	// an equality with the value k: decided by where k lies
	eqs := (c == cmpEq || c == cmpNe) && (f[0].uniform() || f[1].uniform())
	km := k & t.mask()
	if o.guard == 0 && f[0].uniform() && f[1].uniform() {
		// both alike in every lane (%ctaid.y < H on a batch of one grid
		// row): one answer (threshold and span below take moving forms
		// only, so this fell to a compare per lane)
		res := uint32(0)
		if compareInt(f[0].raw(), f[1].raw(), t.bits, signed, c) {
			res = ^uint32(0)
		}
		r.setpAll(p, res)
		return true
	}
	if o.guard == 0 && eqs {
		// both uniform (a loop's count), or k outside the values' range
		// over the whole batch (no lane equals it): one answer
		decided, equal := mv.uniform(), mv.raw()&t.mask() == km
		if !decided {
			lo, hi, span := mv.span(t.bits, false, &r.dom)
			decided, equal = span && (km < lo || km > hi), false
		}
		if decided {
			res := uint32(0)
			if equal != (c == cmpNe) {
				res = ^uint32(0)
			}
			r.setpAll(p, res)
			return true
		}
	}
	if o.guard == 0 && ends {
		// one threshold for the whole batch, when its lanes' values run
		// through it without wrapping around
		res, ok := uint32(0), false
		if v0, st, lin := r.linear(mv); lin && int(mv.bits) == t.bits {
			res, ok = threshold(v0, st, int64(r.nb*warpSize), k, moving, t.bits, signed, c)
		}
		if !ok {
			// (any block shape: the least and greatest values decide)
			if lo, hi, span := mv.span(t.bits, signed, &r.dom); span {
				res, ok = endsAgree(lo, hi, k, moving, t.bits, signed, c)
			}
		}
		if ok {
			r.setpAll(p, res)
			return true
		}
	}
	if o.guard == 0 && !f[0].uniform() && !f[1].uniform() && f[0].c == f[1].c && f[0].bits == f[1].bits {
		// two moving operands, one the other plus a constant (a loop's
		// i + 1024 < i overflow test): where neither wraps around over
		// the batch, the values' difference is the same in every lane,
		// so their least values decide for all (spans: the values as
		// exact integers, in the comparison's order)
		lo0, _, ok0 := f[0].span(t.bits, signed, &r.dom)
		lo1, _, ok1 := f[1].span(t.bits, signed, &r.dom)
		if ok0 && ok1 {
			res := uint32(0)
			if compareInt(lo0, lo1, 64, signed, c) {
				res = ^uint32(0)
			}
			r.setpAll(p, res)
			return true
		}
	}
	// else the ends of each run decide it
	// (a moving operand without a ctaid.x term gives each warp of a CTA
	// the same lanes in every CTA: one answer per warp of the CTA)
	perWarp := (ends || eqs) && int(mv.bits) == t.bits && mv.c[3] == 0
	known := r.setpKnown[:0]
	for range r.wpc {
		known = append(known, -1)
	}
	r.setpKnown = known
	for blk := range r.nb {
		a, g := r.issue(o, blk)
		if a == 0 {
			continue
		}
		mask := g
		if o.guard != 0 {
			mask = a & g
		}
		pp := r.pred(blk, p)
		if w := r.bw[blk]; perWarp && known[w] >= 0 {
			*pp = *pp&^mask | uint32(known[w])&mask
			continue
		}
		if ends && int(mv.bits) == t.bits {
			// each run of consecutive tid.x from its two ends
			var res uint32
			ok := true
			for _, sg := range r.segs[r.bw[blk]] {
				m, ok2 := threshold(r.segFirst(mv, blk, sg), mv.c[0], int64(sg.n), k, moving, t.bits, signed, c)
				if !ok2 {
					ok = false
					break
				}
				res |= m & (uint32(1<<sg.n-1) << sg.lane)
			}
			if ok {
				*pp = *pp&^mask | res&mask
				if perWarp {
					known[r.bw[blk]] = int64(res)
				}
				continue
			}
		}
		if eqs && int(mv.bits) == t.bits {
			// each run of consecutive tid.x, value by value
			var res uint32
			for _, sg := range r.segs[r.bw[blk]] {
				res |= equalRun(r.segFirst(mv, blk, sg), mv.c[0], sg.n, km, t.mask()) << sg.lane
			}
			if c == cmpNe {
				res = ^res
			}
			*pp = *pp&^mask | res&mask
			if perWarp {
				known[r.bw[blk]] = int64(res)
			}
			continue
		}
		r.formRow(f[0], blk, &r.tmp)
		r.formRow(f[1], blk, &r.tmp2)
		var res uint32
		for i := range warpSize {
			if compareInt(r.tmp[i], r.tmp2[i], t.bits, signed, c) {
				res |= 1 << i
			}
		}
		*pp = *pp&^mask | res&mask
	}
	return true
}

// setpAll gives predicate p the answer res (all ones or none) in every
// running lane of the batch: a setp decided once for the batch.
func (r *batchRun) setpAll(p int32, res uint32) {
	for blk := range r.nb {
		if r.act[blk] != 0 {
			*r.pred(blk, p) = res
		}
	}
	r.predUni[p] = int8(res & 1)
	r.countAll()
}

// equalRun returns the values among v, v+s, ... (count of them, modulo
// mask+1) equal to k: bit i for the i-th.
func equalRun(v, s uint64, count int, k, mask uint64) uint32 {
	if s&mask == 0 {
		if (v-k)&mask == 0 {
			return uint32(1<<count - 1)
		}
		return 0
	}
	var res uint32
	for i := range count {
		if (v-k)&mask == 0 {
			res |= 1 << i
		}
		v += s
	}
	return res
}

// threshold compares (by c: not .eq or .ne) a moving operand of bits
// bits, whose values in count consecutive lanes are v, v+s, ... (before
// truncation), with the value k (moving: which operand moves): when it
// does not wrap around it moves monotonically, so where the two ends
// agree every lane does. false: the lanes must be compared one by one.
func threshold(v, s uint64, count int64, k uint64, moving, bits int, signed bool, c intCmp) (uint32, bool) {
	var a, e uint64 // the ends, in the comparison's order
	if bits == 32 {
		step := int64(int32(s))
		x := int64(uint32(v))
		lo, hi := int64(0), int64(1)<<32
		if signed {
			x, lo, hi = int64(int32(v)), -1<<31, 1<<31
		}
		y := x + (count-1)*step // (|step| < 2^31, count <= 2^13)
		if y < lo || y >= hi {
			return 0, false
		}
		a, e = uint64(x), uint64(y)
	} else {
		step := int64(s)
		if step > 1<<32 || step < -1<<32 {
			return 0, false
		}
		d := (count - 1) * step // (|d| < 2^45)
		switch x := int64(v); {
		case signed && (d > 0 && x > math.MaxInt64-d || d < 0 && x < math.MinInt64-d),
			!signed && (d > 0 && v > math.MaxUint64-uint64(d) || d < 0 && v < uint64(-d)):
			return 0, false // wraps around
		}
		a, e = v, v+uint64(d)
	}
	return endsAgree(a, e, k, moving, bits, signed, c)
}

// endsAgree compares the ends a and e of a monotonic run of values with k
// (moving: which operand they are): when both agree, every value does.
func endsAgree(a, e, k uint64, moving, bits int, signed bool, c intCmp) (uint32, bool) {
	var r0, r1 bool
	if moving == 0 {
		r0, r1 = compareInt(a, k, bits, signed, c), compareInt(e, k, bits, signed, c)
	} else {
		r0, r1 = compareInt(k, a, bits, signed, c), compareInt(k, e, bits, signed, c)
	}
	switch {
	case r0 != r1:
		return 0, false
	case r0:
		return ^uint32(0), true
	}
	return 0, true
}

// linear returns v0 and s when form f's value in lane L of the batch
// (L = 32*block + lane) is v0 + s*L in every lane, before truncation: the
// CTAs have no partial warps and f steps by s from one thread to the next
// in the order of their linear indices, across CTAs too.
func (r *batchRun) linear(f *form) (uint64, uint64, bool) {
	s, ok := r.ctaStep(f)
	if !ok || r.nb > r.wpc && f.c[3] != s*r.ctaLanes {
		return 0, 0, false
	}
	return f.base + f.c[3]*uint64(r.x0), s, true
}

// ctaStep returns s when form f steps by s from one thread of a CTA to the
// next in the order of their linear indices and the CTAs have no partial
// warps (linear within a CTA).
func (r *batchRun) ctaStep(f *form) (uint64, bool) {
	b := r.l.block
	s := f.c[0]
	return s, r.ctaLanes%warpSize == 0 && (b[1] == 1 || f.c[1] == s*uint64(b[0])) && (b[2] == 1 || f.c[2] == s*uint64(b[0]*b[1]))
}

// full reports whether every lane of the batch runs.
func (r *batchRun) full() bool { return r.lanes == uint64(r.nb*warpSize) }

// threadsRun reports whether every lane of the batch that is a thread
// runs (none waits in a split, none left): the others, a CTA's partial
// last warp's lanes that are no threads, hold nothing anyone reads, so
// register ops may run their whole-warp loops on them too.
func (r *batchRun) threadsRun() bool {
	return len(r.frames) == 0 && r.lanes == uint64(r.nb/r.wpc)*r.ctaLanes
}
