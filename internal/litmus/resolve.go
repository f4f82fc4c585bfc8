package litmus

import "sort"

// resolve settles what every identifier names, applies register
// initialisations, checks branch targets, places unplaced threads and
// resolves the condition.
func (p *parser) resolve() {
	t := p.t
	for _, r := range p.pending {
		if r.thread >= len(t.Threads) {
			// An initialisation for a thread the table does not have (the
			// Dat3M suite has such lines) sets nothing.
			continue
		}
		th := t.Threads[r.thread]
		v := r.num
		if r.loc != "" {
			v = addrOf(t.locByName[r.loc])
		}
		th.RegInit[r.reg] = v
		th.regs[r.reg] = true
	}
	// Addresses first: a name in an address that is not a register of the
	// thread is a location (declared on first use, initially 0).
	for _, th := range t.Threads {
		for _, in := range th.Code {
			if in.Addr.Kind == OMemLoc {
				if th.regs[in.Addr.Name] {
					in.Addr.Kind = OMemReg
				} else {
					p.declare(in.Addr.Name, 0, in.Addr.Pos)
				}
			}
		}
	}
	// Values: a name that is not a register of the thread but is a
	// location stands for the location's address.
	fix := func(th *Thread, o *Operand) {
		if o.Kind != OReg || th.regs[o.Name] {
			return
		}
		if l, ok := t.locByName[o.Name]; ok {
			*o = Operand{Kind: OImm, Imm: addrOf(l), Name: o.Name, Pos: o.Pos}
		}
	}
	for _, th := range t.Threads {
		for _, in := range th.Code {
			for i := range in.Src {
				fix(th, &in.Src[i])
			}
			fix(th, &in.BarID)
			for i := range in.BarMore {
				fix(th, &in.BarMore[i])
			}
			if in.Kind == KBranch {
				if _, ok := th.Labels[in.Target]; !ok {
					p.fail(in.Dst.Pos, "undefined label %s in %s", in.Target, th.Name)
				}
			}
		}
	}
	p.place()

	t.Cond = p.resolveExpr(p.rawCond)
	t.CondText = t.CondString()
	if p.rawFilter != nil {
		t.Filter = p.resolveExpr(p.rawFilter)
	}
	for _, r := range p.rawLocs {
		t.Observed = append(t.Observed, p.resolveTerm(r, false))
	}
	// Initial values live in physical locations: an alias without its own
	// value takes the value of the location it aliases.
	sort.SliceStable(t.Locs, func(i, j int) bool { return t.Locs[i].index < t.Locs[j].index })
}

// place gives every thread a CTA, cluster and GPU. Unplaced threads get
// a CTA (and cluster) of their own on GPU 0 (docs/litmus.md); a missing
// cluster means each CTA is its own cluster; a missing GPU is GPU 0.
func (p *parser) place() {
	for _, th := range p.t.Threads {
		if th.GPU < 0 {
			th.GPU = 0
		}
		if th.CTA < 0 {
			if p.opts.DefaultSameCTA {
				th.CTA = 0
			} else {
				th.CTA = 100000 + th.Index
			}
		}
		if th.Cluster < 0 {
			th.Cluster = -1 - th.CTA // its own cluster, named by its CTA
		}
	}
}

// sameCTA, sameCluster and sameGPU compare thread positions.
func sameGPU(a, b *Thread) bool     { return a.GPU == b.GPU }
func sameCluster(a, b *Thread) bool { return a.GPU == b.GPU && a.Cluster == b.Cluster }
func sameCTA(a, b *Thread) bool     { return sameCluster(a, b) && a.CTA == b.CTA || a == b }

// inScope reports whether scope s of an operation of thread a includes
// thread b (8.5).
func inScope(s Scope, a, b *Thread) bool {
	switch s {
	case ScopeCTA:
		return sameCTA(a, b)
	case ScopeCluster:
		return sameCluster(a, b)
	case ScopeGPU:
		return sameGPU(a, b)
	case ScopeSys:
		return true
	}
	return false
}
