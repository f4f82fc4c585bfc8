package exec

// Warp collectives in batches: shfl.sync, vote.sync and redux.sync (the
// collectives with a whole-warp form, collOp.whole) run in a batch when
// each warp at one runs it with all 32 lanes, every guard true and every
// membermask 0xffffffff. That is the warp engine's fast path too (wholeWarp):
// the group is complete at once, and its results are whole's, computed from
// the warp's registers. A warp reduction (a loop of shfl.down and adds) or
// a ballot then costs a batch one pass of whole per warp.
//
// A warp with lanes elsewhere (waiting at the exit, in another group of a
// split, not threads of the CTA) would make the collective wait for them,
// or fault (collective.go); the batch declines then, and the worker runs
// the batch's CTAs, and the rest of the launch's, on the warp engine.

// batchCollective reports whether a batch may run collective op o.
func batchCollective(o *Op) bool {
	c, ok := o.aux.(*collOp)
	return ok && c.sync && c.whole != nil && wholeCollectives
}

// collectivesOK reports whether no collective lies in the region of a
// branch that parts the lanes of a warp (one on a predicate that differs
// between lanes, not one to the exit): its warps would never be whole.
func collectivesOK(f *Func, p *batchPlan, uniform []bool) bool {
	for c := range f.Ops {
		if p.kind[c] != bkColl {
			continue
		}
		for pc := range c {
			if o := &f.Ops[pc]; splitsAround(f, p, int32(pc), int32(c)) && !uniform[o.guard-1] {
				return false
			}
		}
	}
	return true
}

// collective runs collective op o in every block with running lanes; it
// reports false when one of them is not whole (see above), with nothing
// written.
func (r *batchRun) collective(pc int32, o *Op) bool {
	c := o.aux.(*collOp)
	some := false // a block does not run it (its lanes wait elsewhere)
	for blk := range r.nb {
		a := r.act[blk]
		if a == 0 {
			some = true
			continue
		}
		if a != ^uint32(0) || r.guardOf(o, blk) != a {
			return false
		}
	}
	r.materializeSrcs(pc)
	if !c.fullMask { // (its register is one of srcs: written out above)
		for blk := range r.nb {
			if r.act[blk] == 0 {
				continue
			}
			for _, m := range r.row(blk, c.mask) {
				if uint32(m) != ^uint32(0) {
					return false
				}
			}
		}
	}
	if c.dst >= 0 && some {
		r.materialize(c.dst) // (the blocks that do not run it keep their values)
	}
	for blk := range r.nb {
		if a, _ := r.issue(o, blk); a != 0 {
			r.point(blk)
			c.whole(&r.fr)
		}
	}
	if c.dst >= 0 {
		r.wroteRows(c.dst)
	}
	if c.pdst >= 0 {
		r.predUni[c.pdst] = -1
	}
	return true
}
