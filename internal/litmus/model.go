package litmus

// This file holds one candidate execution and the relations of chapter 8
// over it. Events are numbered globally: first one initial write per
// physical location (8.2.6), then each thread's events in program order.

// execution is a candidate execution under construction: fixed paths, then
// a reads-from choice, then a Fence-SC order; coherence orders are chosen
// per location at the end (coherence.go).
type execution struct {
	t             *Test
	redNoObs      bool // a red cannot carry observation order (ModelOptions)
	coTotal       bool // coherence order is total per location (ModelOptions)
	anyAliasFence bool // any proxy fence orders virtual aliases (ModelOptions)
	finalAnyMax   bool // every coherence-maximal write gives a final value (ModelOptions)
	ev            []*Event
	n             int
	threads       []*Thread
	first         []int // first global index of each thread's events

	// Static relations (depend on the paths only).
	po    relation // program order
	ms    relation // morally strong (8.7)
	rmw   []int    // read half -> write half of an atom/red, -1 otherwise
	relW  []bitset // A -> the writes W such that (A, W) is a release pattern (8.8)
	acqR  []bitset // B -> the reads R such that (R, B) is an acquire pattern (8.8)
	bar   relation // barrier synchronization (8.9.4 items 2 and 3)
	insts []*barInstance
	// barChoice picks, per instance with a quorum, which arrivals come
	// first (see setBar); deadlock: no complete execution (computeBarriers).
	barChoice []int
	deadlock  bool
	reads     []int
	writes    [][]int // per physical location, initial write first
	mems      [][]int // per physical location, every memory event (initial write first)
	scF       []int   // fence.sc events
	alias     []int   // fence.proxy.alias events
	pfence    []int   // other proxy fences

	// Per reads-from choice.
	rf  []int    // read -> write it reads from (global indices)
	obs relation // observation order (8.9.2), write -> read
	sw  relation // release/acquire synchronization (8.9.4 item 4)

	// Per Fence-SC order.
	sc    relation // Fence-SC order (8.9.3)
	cb    relation // base causality order (8.9.5), transitive
	cause relation // causality order (8.9.5), over memory events
}

func newExecution(t *Test, paths []*path) *execution {
	x := &execution{t: t, threads: t.Threads}
	// Initial writes.
	initVal := make([]int64, t.nPhys)
	seen := make([]bool, t.nPhys)
	for _, l := range t.Locs {
		if !seen[l.Phys] || initVal[l.Phys] == 0 {
			initVal[l.Phys] = l.Init
			seen[l.Phys] = true
		}
	}
	for ph := 0; ph < t.nPhys; ph++ {
		x.ev = append(x.ev, &Event{Kind: EvWrite, Thread: -1, Index: -1, Phys: ph, Value: initVal[ph], RMW: -1})
	}
	for _, p := range paths {
		x.first = append(x.first, len(x.ev))
		for i := range p.events {
			x.ev = append(x.ev, &p.events[i])
		}
	}
	x.n = len(x.ev)
	x.computeStatic()
	return x
}

func (x *execution) global(th, idx int) int { return x.first[th] + idx }

func (x *execution) thread(e *Event) *Thread {
	if e.Thread < 0 {
		return nil
	}
	return x.threads[e.Thread]
}

func isMem(e *Event) bool { return e.Kind == EvRead || e.Kind == EvWrite }

// morallyStrong implements 8.7: program order or mutually inclusive strong
// scopes; the same proxy; for two memory operations, complete overlap,
// which needs the same virtual address (8.2.1: operations overlap when
// they "specify the same virtual address").
func (x *execution) morallyStrong(a, b *Event) bool {
	if a == b || a.Thread < 0 || b.Thread < 0 {
		return false
	}
	if a.Kind == EvBarrier || b.Kind == EvBarrier || a.ProxyFence || b.ProxyFence {
		return false
	}
	if a.Thread != b.Thread {
		ta, tb := x.thread(a), x.thread(b)
		if !a.Strong || !b.Strong || !inScope(a.Scope, ta, tb) || !inScope(b.Scope, tb, ta) {
			return false
		}
	}
	pa, pb := ProxyGeneric, ProxyGeneric
	if isMem(a) {
		pa = a.Proxy
	}
	if isMem(b) {
		pb = b.Proxy
	}
	if pa != pb {
		return false
	}
	if isMem(a) && isMem(b) && a.Loc.Virt != b.Loc.Virt {
		return false
	}
	return true
}

func (x *execution) computeStatic() {
	n := x.n
	x.po = newRelation(n)
	x.ms = newRelation(n)
	x.bar = newRelation(n)
	x.rmw = make([]int, n)
	x.relW = make([]bitset, n)
	x.acqR = make([]bitset, n)
	x.writes = make([][]int, x.t.nPhys)
	x.mems = make([][]int, x.t.nPhys)
	for i, e := range x.ev {
		x.rmw[i] = -1
		if e.Kind == EvRead && e.RMW >= 0 {
			x.rmw[i] = x.global(e.Thread, e.RMW)
		}
		switch e.Kind {
		case EvWrite:
			x.writes[e.Phys] = append(x.writes[e.Phys], i)
			x.mems[e.Phys] = append(x.mems[e.Phys], i)
		case EvRead:
			x.reads = append(x.reads, i)
			x.mems[e.Phys] = append(x.mems[e.Phys], i)
		case EvFence:
			switch {
			case e.SC:
				x.scF = append(x.scF, i)
			case e.ProxyFence && e.FenceProxy == ProxyAlias:
				x.alias = append(x.alias, i)
			case e.ProxyFence:
				x.pfence = append(x.pfence, i)
			}
		}
	}
	for i, a := range x.ev {
		for j, b := range x.ev {
			if i == j {
				continue
			}
			if a.Thread >= 0 && a.Thread == b.Thread && a.Index < b.Index {
				x.po[i].set(j)
			}
			if x.morallyStrong(a, b) {
				x.ms[i].set(j)
			}
		}
	}
	// Release patterns (8.8): a release operation on M, possibly followed
	// in program order by a strong write on M; or a release (or acq_rel,
	// or sc) fence followed by a strong write.
	for i, a := range x.ev {
		if !a.Rel || a.Thread < 0 {
			continue
		}
		var s bitset
		for j, w := range x.ev {
			if w.Kind != EvWrite || w.Thread != a.Thread {
				continue
			}
			switch {
			case a.Kind == EvWrite && (j == i || x.po[i].has(j) && w.Strong && w.Loc.Virt == a.Loc.Virt):
			case a.Kind == EvFence && x.po[i].has(j) && w.Strong:
			default:
				continue
			}
			if s == nil {
				s = newBitset(n)
			}
			s.set(j)
		}
		x.relW[i] = s
	}
	// Acquire patterns: an acquire operation on M, possibly preceded by a
	// strong read on M; or a strong read followed by an acquire fence. The
	// read half of a red is not a read operation (Table 20, 8.11).
	for j, b := range x.ev {
		if !b.Acq || b.Thread < 0 {
			continue
		}
		var s bitset
		for i, r := range x.ev {
			if r.Kind != EvRead || r.Thread != b.Thread || r.Red {
				continue
			}
			switch {
			case b.Kind == EvRead && (i == j || x.po[i].has(j) && r.Strong && r.Loc.Virt == b.Loc.Virt):
			case b.Kind == EvFence && x.po[i].has(j) && r.Strong:
			default:
				continue
			}
			if s == nil {
				s = newBitset(n)
			}
			s.set(i)
		}
		x.acqR[j] = s
	}
	x.computeBarriers()
}

// barInstance is one barrier instance: the k-th use of a barrier by the
// threads of one CTA (or, for barrier.cluster, of one cluster).
type barInstance struct {
	cluster bool
	evs     []int // global indices of the participating events
	quorum  int64 // Dat3M dialect: threads needed to complete it, 0 if all
}

// computeBarriers groups barrier events into instances, detects deadlock
// and sets x.bar for the first arrival choice.
func (x *execution) computeBarriers() {
	x.insts = nil
	instOf := make([]int, x.n)
	for i, a := range x.ev {
		instOf[i] = -1
		if a.Kind != EvBarrier {
			continue
		}
		cl := a.BarKind == BarClusterArrive || a.BarKind == BarClusterWait
		for k, in := range x.insts {
			b := x.ev[in.evs[0]]
			if in.cluster != cl || a.BarInst != b.BarInst {
				continue
			}
			if cl && sameCluster(x.thread(a), x.thread(b)) ||
				!cl && a.BarID == b.BarID && a.BarID2 == b.BarID2 && sameCTA(x.thread(a), x.thread(b)) {
				instOf[i] = k
				in.evs = append(in.evs, i)
				if a.BarQuorum > in.quorum {
					in.quorum = a.BarQuorum
				}
				break
			}
		}
		if instOf[i] < 0 {
			instOf[i] = len(x.insts)
			x.insts = append(x.insts, &barInstance{cluster: cl, evs: []int{i}, quorum: a.BarQuorum})
		}
	}
	if len(x.insts) == 0 {
		return
	}
	// Deadlock: a bar.sync (or barrier.cluster.wait) does not return
	// before its instance completes, so a thread that waits on instance I
	// and later uses instance J needs I to complete before J can. A cycle
	// among instances, or a quorum larger than the threads that arrive,
	// means some thread never proceeds: no complete execution.
	m := len(x.insts)
	next := make([]bitset, m)
	for k := range next {
		next[k] = newBitset(m)
	}
	for th := range x.threads {
		lo := x.first[th]
		hi := x.n
		if th+1 < len(x.first) {
			hi = x.first[th+1]
		}
		waiting := -1
		for i := lo; i < hi; i++ {
			e := x.ev[i]
			if e.Kind != EvBarrier {
				continue
			}
			if waiting >= 0 && waiting != instOf[i] {
				next[waiting].set(instOf[i])
			}
			if e.BarKind == BarSync || e.BarKind == BarClusterWait {
				waiting = instOf[i]
			}
		}
	}
	for _, in := range x.insts {
		if in.quorum > int64(len(in.evs)) {
			x.deadlock = true
		}
	}
	// Transitive closure, then look for an instance reaching itself.
	for k := 0; k < m; k++ {
		for i := 0; i < m; i++ {
			if next[i].has(k) {
				next[i].or(next[k])
			}
		}
	}
	for i := 0; i < m; i++ {
		if next[i].has(i) {
			x.deadlock = true
		}
	}
	x.barChoice = make([]int, m)
	x.setBar()
}

// setBar sets x.bar from x.barChoice. In an instance with a quorum q
// smaller than the threads that arrive (Dat3M dialect), x.barChoice picks
// which q arrive first (the i-th q-subset); those complete it and every
// participant waits for them, later arrivals pass at once. Otherwise every
// arrival synchronizes with every waiting participant: a bar.sync with
// every other bar.sync of its instance, a bar.arrive with the bar.syncs
// only (8.9.4 item 2); the k-th barrier.cluster.arrive with the k-th
// barrier.cluster.wait of every thread of the cluster (item 3).
func (x *execution) setBar() {
	for i := range x.bar {
		x.bar[i].clear()
	}
	for k, in := range x.insts {
		first := in.evs
		if in.quorum > 0 && in.quorum < int64(len(in.evs)) {
			first = subset(in.evs, int(in.quorum), x.barChoice[k])
		}
		for _, i := range first {
			a := x.ev[i]
			for _, j := range in.evs {
				b := x.ev[j]
				if a.Thread == b.Thread {
					continue
				}
				switch a.BarKind {
				case BarSync, BarArrive:
					if b.BarKind == BarSync {
						x.bar[i].set(j)
					}
				case BarClusterArrive:
					if b.BarKind == BarClusterWait {
						x.bar[i].set(j)
					}
				}
			}
		}
	}
}

// nextBarChoice advances x.barChoice to the next combination of arrival
// choices; false when all have been tried.
func (x *execution) nextBarChoice() bool {
	for k, in := range x.insts {
		if in.quorum <= 0 || in.quorum >= int64(len(in.evs)) {
			continue
		}
		x.barChoice[k]++
		if x.barChoice[k] < binom(len(in.evs), int(in.quorum)) {
			x.setBar()
			return true
		}
		x.barChoice[k] = 0
	}
	return false
}

func binom(n, k int) int {
	r := 1
	for i := 0; i < k; i++ {
		r = r * (n - i) / (i + 1)
	}
	return r
}

// subset returns the idx-th k-element subset of s (in lexicographic order
// of positions).
func subset(s []int, k, idx int) []int {
	var out []int
	for i := 0; i < len(s) && len(out) < k; i++ {
		c := binom(len(s)-i-1, k-len(out)-1)
		if idx < c {
			out = append(out, s[i])
		} else {
			idx -= c
		}
	}
	return out
}

// computeObs derives observation order and release/acquire
// synchronization from the reads-from choice x.rf.
func (x *execution) computeObs() {
	n := x.n
	if x.obs == nil {
		x.obs = newRelation(n)
		x.sw = newRelation(n)
	} else {
		for i := range x.obs {
			x.obs[i].clear()
			x.sw[i].clear()
		}
	}
	// 8.9.2: W precedes R if they are morally strong and R reads W, or
	// through atomic operations: W -> Z (read half) and Z (write half) -> R.
	for _, r := range x.reads {
		w := x.rf[r]
		if x.ms[w].has(r) {
			x.obs[w].set(r)
		}
	}
	for changed := true; changed; {
		changed = false
		for w := range x.obs {
			row := x.obs[w]
			if row.empty() {
				continue
			}
			row.each(func(z int) {
				if x.redNoObs && x.ev[z].Red {
					return
				}
				if zw := x.rmw[z]; zw >= 0 && x.obs[w].or(x.obs[zw]) {
					changed = true
				}
			})
		}
	}
	// 8.9.4 item 4: a release pattern synchronizes with an acquire pattern
	// if a write of the first precedes a read of the second in observation
	// order and the first operation of one and the last of the other are
	// morally strong.
	reach := newBitset(n)
	for a := range x.ev {
		if x.relW[a] == nil {
			continue
		}
		reach.clear()
		x.relW[a].each(func(w int) { reach.or(x.obs[w]) })
		if reach.empty() {
			continue
		}
		for b := range x.ev {
			if x.acqR[b] != nil && x.ms[a].has(b) && x.ev[a].Thread != x.ev[b].Thread && reach.intersects(x.acqR[b]) {
				x.sw[a].set(b)
			}
		}
	}
}

// computeCause builds base causality from program order and the
// synchronizes relations, then causality order over memory events.
func (x *execution) computeCause() {
	n := x.n
	if x.cb == nil {
		x.cb = newRelation(n)
		x.cause = newRelation(n)
	}
	for i := range x.cb {
		copy(x.cb[i], x.po[i])
		x.cb[i].or(x.sw[i])
		x.cb[i].or(x.bar[i])
		if x.sc != nil {
			x.cb[i].or(x.sc[i])
		}
		x.cause[i].clear()
	}
	x.cb.close()
	// Proxy-preserved base causality, then causality (8.9.5): X precedes Y
	// if X ppbc Y, or X precedes some Z in observation order and Z ppbc Y.
	for ph := range x.mems {
		ms := x.mems[ph]
		for _, a := range ms {
			for _, b := range ms {
				if a != b && x.ppbc(a, b) {
					x.cause[a].set(b)
				}
			}
		}
		for _, a := range ms {
			if x.ev[a].Kind != EvWrite {
				continue
			}
			x.obs[a].each(func(z int) { x.cause[a].or(x.cause[z]) })
		}
	}
}

// ppbc implements proxy-preserved base causality order (8.9.5) between two
// memory events of one physical location: the same address through the
// generic proxy; the same address and proxy within one CTA; or, through
// proxy fences of the non-generic sides, and for virtual aliases an alias
// proxy fence, along the base causality path.
func (x *execution) ppbc(a, b int) bool {
	ea, eb := x.ev[a], x.ev[b]
	if ea.Thread < 0 || eb.Thread < 0 {
		return false
	}
	if ea.Loc.Virt == eb.Loc.Virt {
		if !x.cb[a].has(b) {
			return false
		}
		if ea.Proxy == ProxyGeneric && eb.Proxy == ProxyGeneric {
			return true
		}
		if ea.Proxy == eb.Proxy && sameCTA(x.thread(ea), x.thread(eb)) {
			return true
		}
	}
	from := x.proxyEnds(a, true)
	to := x.proxyEnds(b, false)
	for _, f := range from {
		for _, g := range to {
			if ea.Loc.Virt == eb.Loc.Virt {
				if f == g || x.cb[f].has(g) {
					return true
				}
				continue
			}
			for _, al := range x.alias {
				if (f == al || x.cb[f].has(al)) && (al == g || x.cb[al].has(g)) {
					return true
				}
			}
			if x.anyAliasFence {
				// 8.6's reading: any proxy fence on the path orders
				// virtual aliases.
				for _, al := range x.pfence {
					if (f == al || x.cb[f].has(al)) && (al == g || x.cb[al].has(g)) {
						return true
					}
				}
			}
		}
	}
	return false
}

// proxyEnds returns where a base causality path from (src) or to (!src)
// memory event i may start or end: i itself for the generic proxy, else
// the proxy fences for i's proxy in i's CTA that follow (precede) it.
func (x *execution) proxyEnds(i int, src bool) []int {
	e := x.ev[i]
	if e.Proxy == ProxyGeneric {
		return []int{i}
	}
	var out []int
	for _, f := range x.pfence {
		ef := x.ev[f]
		if ef.FenceProxy != e.Proxy || !sameCTA(x.thread(ef), x.thread(e)) {
			continue
		}
		if src && x.cb[i].has(f) || !src && x.cb[f].has(i) {
			out = append(out, f)
		}
	}
	return out
}
