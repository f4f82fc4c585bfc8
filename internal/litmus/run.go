package litmus

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Options control Run.
type Options struct {
	// Unroll bounds how many times each backward branch may be taken on a
	// path; longer paths are cut (herd's -unroll). 0 means DefaultUnroll.
	Unroll int
	// Explain collects, for a forbidden outcome the condition asks about,
	// why each candidate execution reaching it is rejected.
	Explain bool
	// Witnesses keeps one allowed execution per final state (for graphs).
	Witnesses bool
	// MaxExplain bounds the explained candidates (0: 8).
	MaxExplain int
	// Model selects the alternative readings of the manual.
	Model ModelOptions
}

// ModelOptions select, where the manual can be read two ways, the reading
// that is not the default (docs/litmus.md lists the sentences).
type ModelOptions struct {
	// SCFenceNoPatterns: fence.sc is not a release or acquire memory
	// fence in the patterns of 8.8; it synchronizes only through Fence-SC
	// order. Default: it is (it is the stronger fence, 9.7.13.4).
	SCFenceNoPatterns bool
	// RedNoObservation: a red cannot be the atomic operation Z of
	// observation order (8.9.2 item 2), since it is not a read operation
	// (Table 20). Default: it can (it is an atomic operation).
	RedNoObservation bool
	// NoThinAirOff drops the syntactic-dependency formalisation of No Thin
	// Air (8.10.4); values still come only from writes of the program.
	NoThinAirOff bool
	// BarDat3M reads a two-operand "bar.sync c, a" as the Dat3M suite
	// does (c and a together name the barrier) rather than as PTX's
	// "bar.sync a, b" (barrier a, b threads). Three operands "c, a, q"
	// (q the quorum) are always read the Dat3M way: PTX has no such form.
	BarDat3M bool
	// CoTotal makes coherence order a total order of the writes of each
	// location (herd-style models). Default: the partial order of 8.9.6,
	// which relates only morally strong writes (in either direction) and
	// writes ordered by causality, closed under transitivity; racy writes
	// stay unrelated (reading 4 of docs/litmus.md).
	CoTotal bool
	// FinalAnyMaximal: with the partial coherence order, every
	// coherence-maximal write of a location gives a possible final value.
	// Default: the final value is that of a write coherence-after every
	// other write of the location; where several writes are maximal, the
	// order is extended to put one of them after all the others, and that
	// write gives a final value only if the extended order still satisfies
	// the axioms (the rule of the published formal model's verdicts,
	// reading 4 of docs/litmus.md).
	FinalAnyMaximal bool
	// AnyAliasFence: between virtual aliases any proxy fence on the base
	// causality path orders the accesses (8.6: "they require a proxy
	// fence"). Default: an alias proxy fence (8.9.5 item 3).
	AnyAliasFence bool
}

// DefaultUnroll is the default bound on backward branches.
const DefaultUnroll = 2

// Result is the outcome of running one test.
type Result struct {
	Test     *Test
	States   []*State // reachable final states, sorted
	Pos, Neg int64    // allowed executions satisfying / not satisfying the proposition
	Ok       bool     // the quantified condition holds
	BoundHit bool     // some path was cut by the unrolling bound
	Time     time.Duration
	// Candidates counts the candidate executions examined (paths x rf x
	// Fence-SC orders), for benchmarks.
	Candidates int64

	Explanations []string
	Terms        []Term // what a state shows, in order
}

// State is one reachable final state.
type State struct {
	Values  []int64 // one per Result.Terms
	Count   int64   // allowed executions ending in it
	Sat     bool    // it satisfies the proposition
	Witness *Witness
}

// Observation is herd's verdict: Never, Always or Sometimes.
func (r *Result) Observation() string {
	switch {
	case r.Pos == 0:
		return "Never"
	case r.Neg == 0:
		return "Always"
	}
	return "Sometimes"
}

// runner holds the state of one Run.
type runner struct {
	t      *Test
	opts   Options
	res    *Result
	states map[string]*State
	paths  [][]*path

	relevant []int // physical locations the states or filter look at
	initVal  []int64
	suffixW  []map[pv]bool  // suffixW[i]: every write some path of threads i.. makes
	groups   [][][]*path    // per thread, paths with the same needs and writes
	byWrite  []map[pv][]int // per thread: the groups writing a value
	explain  map[string][]string
	explainN int
	target   func(s *state) bool
}

// Run explores t and returns its result.
func Run(t *Test, opts Options) (*Result, error) {
	start := time.Now()
	if opts.Unroll <= 0 {
		opts.Unroll = DefaultUnroll
	}
	if opts.MaxExplain <= 0 {
		opts.MaxExplain = 8
	}
	r := &runner{t: t, opts: opts, res: &Result{Test: t}, states: map[string]*State{}, explain: map[string][]string{}}
	if err := r.computePaths(); err != nil {
		return nil, err
	}
	r.setupTerms()
	choice := make([]*path, len(t.Threads))
	r.combine(0, choice)
	for _, s := range r.states {
		r.res.States = append(r.res.States, s)
	}
	sort.Slice(r.res.States, func(i, j int) bool {
		return r.stateLine(r.res.States[i]) < r.stateLine(r.res.States[j])
	})
	switch t.Quant {
	case Exists:
		r.res.Ok = r.res.Pos > 0
	case NotExists:
		r.res.Ok = r.res.Pos == 0
	case Forall:
		r.res.Ok = r.res.Neg == 0
	}
	if opts.Explain {
		r.finishExplain()
	}
	r.res.Time = time.Since(start)
	return r.res, nil
}

// computePaths finds the value each read may return by fixpoint: start
// from the initial values, run every thread's program with reads returning
// any value some write may produce, and repeat until no new value appears.
// Values flow through at most as many writes as one execution has, which
// bounds the rounds (a value derived through more writes than that cannot
// be read in any execution).
func (r *runner) computePaths() error {
	t := r.t
	domain := make([][]int64, t.nPhys)
	initVal := make([]int64, t.nPhys)
	for _, l := range t.Locs {
		if initVal[l.Phys] == 0 {
			initVal[l.Phys] = l.Init
		}
	}
	for ph := range domain {
		domain[ph] = []int64{initVal[ph]}
	}
	for round := 0; ; round++ {
		r.paths = make([][]*path, len(t.Threads))
		maxWrites := 0
		next := make([][]int64, t.nPhys)
		for ph := range next {
			next[ph] = []int64{initVal[ph]}
		}
		for i, th := range t.Threads {
			ps, hit, err := threadPaths(t, th, domain, r.opts.Unroll, r.opts.Model)
			if err != nil {
				return err
			}
			r.res.BoundHit = r.res.BoundHit || hit
			r.paths[i] = ps
			mw := 0
			for _, p := range ps {
				mw = max(mw, len(p.writes))
				for _, w := range p.writes {
					next[w.phys] = append(next[w.phys], w.val)
				}
			}
			maxWrites += mw
		}
		same := true
		for ph := range next {
			slices.Sort(next[ph])
			next[ph] = slices.Compact(next[ph])
			if !slices.Equal(next[ph], domain[ph]) {
				same = false
			}
		}
		if same || round > maxWrites+1 {
			return nil
		}
		for ph := range next {
			if len(next[ph]) > 64 {
				return &Error{File: t.File, Msg: "more than 64 possible values for one location; the test is too large"}
			}
		}
		domain = next
	}
}

// setupTerms decides what a state shows: the condition's registers and
// locations, then herd's "locations" list.
func (r *runner) setupTerms() {
	t := r.t
	var terms []Term
	terms = termsOf(t.Cond, terms)
	terms = append(terms, t.Observed...)
	seen := map[string]bool{}
	var regs, locs []Term
	for _, x := range terms {
		k := t.termString(x)
		if seen[k] {
			continue
		}
		seen[k] = true
		if x.isReg() {
			regs = append(regs, x)
		} else {
			locs = append(locs, x)
		}
	}
	sort.SliceStable(regs, func(i, j int) bool {
		if regs[i].Thread != regs[j].Thread {
			return regs[i].Thread < regs[j].Thread
		}
		return regs[i].Reg < regs[j].Reg
	})
	sort.SliceStable(locs, func(i, j int) bool { return locs[i].Loc.Name < locs[j].Loc.Name })
	r.res.Terms = append(regs, locs...)
	phs := map[int]bool{}
	for _, x := range r.res.Terms {
		if x.isLoc() {
			phs[x.Loc.Phys] = true
		}
	}
	if t.Filter != nil {
		for _, x := range termsOf(t.Filter, nil) {
			if x.isLoc() {
				phs[x.Loc.Phys] = true
			}
		}
	}
	for ph := range phs {
		r.relevant = append(r.relevant, ph)
	}
	sort.Ints(r.relevant)
	switch t.Quant {
	case Forall:
		r.target = func(s *state) bool { return !eval(t.Cond, s) }
	default:
		r.target = func(s *state) bool { return eval(t.Cond, s) }
	}
}

func (r *runner) stateLine(s *State) string {
	var b strings.Builder
	for i, x := range r.res.Terms {
		fmt.Fprintf(&b, "%s=%s; ", r.t.termString(x), r.t.valueString(s.Values[i]))
	}
	return strings.TrimSpace(b.String())
}

// combine chooses one path per thread. It keeps the reads of the chosen
// paths whose value no chosen write provides yet (a read is provided for by
// the initial value, a program-order-earlier write of its thread, or a
// write of another thread's path) and drops the choice as soon as one of
// them cannot be provided by any path of the threads still to choose. This
// prunes most combinations before any reads-from choice.
func (r *runner) combine(i int, choice []*path) {
	if i == 0 {
		r.initVal = newExecutionLite(r.t)
		n := len(choice)
		r.suffixW = make([]map[pv]bool, n+1)
		r.suffixW[n] = map[pv]bool{}
		for t := n - 1; t >= 0; t-- {
			m := map[pv]bool{}
			for k := range r.suffixW[t+1] {
				m[k] = true
			}
			for _, p := range r.paths[t] {
				for _, w := range p.writes {
					m[w] = true
				}
			}
			r.suffixW[t] = m
		}
		// Paths with the same needs and writes are interchangeable for the
		// pruning: check each group once.
		r.groups = make([][][]*path, n)
		for t, ps := range r.paths {
			idx := map[string]int{}
			for _, p := range ps {
				p.prepare(r.initVal)
				k := fmt.Sprint(p.needs, "|", p.writes)
				g, ok := idx[k]
				if !ok {
					g = len(r.groups[t])
					idx[k] = g
					r.groups[t] = append(r.groups[t], nil)
				}
				r.groups[t][g] = append(r.groups[t][g], p)
			}
		}
		r.byWrite = make([]map[pv][]int, n)
		for t, gs := range r.groups {
			r.byWrite[t] = map[pv][]int{}
			for g, ps := range gs {
				for _, w := range ps[0].writes {
					l := r.byWrite[t][w]
					if len(l) == 0 || l[len(l)-1] != g {
						r.byWrite[t][w] = append(l, g)
					}
				}
			}
		}
		r.combineRec(0, choice, nil)
		return
	}
}

type need struct {
	thread int
	v      pv
}

func (r *runner) combineRec(i int, choice []*path, pending []need) {
	if i == len(choice) {
		if len(pending) == 0 {
			r.candidate(choice)
		}
		return
	}
	later := r.suffixW[i+1]
	buf := make([]need, 0, len(pending)+8)
	// A pending read no later thread can provide for must be provided for
	// by this thread: only groups writing its value qualify.
	var only []int
	restricted := false
	for _, nd := range pending {
		if !later[nd.v] {
			only, restricted = r.byWrite[i][nd.v], true
			break
		}
	}
	ng := len(r.groups[i])
	if restricted {
		ng = len(only)
	}
next:
	for gi := 0; gi < ng; gi++ {
		g := gi
		if restricted {
			g = only[gi]
		}
		group := r.groups[i][g]
		p := group[0]
		buf = buf[:0]
		for _, nd := range pending {
			if p.writes1(nd.v) {
				continue
			}
			if !later[nd.v] {
				continue next
			}
			buf = append(buf, nd)
		}
		for _, v := range p.needs {
			ok := false
			for _, q := range choice[:i] {
				if q.writes1(v) {
					ok = true
					break
				}
			}
			if ok {
				continue
			}
			if !later[v] {
				continue next
			}
			buf = append(buf, need{i, v})
		}
		pend := append([]need(nil), buf...)
		for _, q := range group {
			choice[i] = q
			r.combineRec(i+1, choice, pend)
		}
	}
}

// writes1 reports whether p writes v.
func (p *path) writes1(v pv) bool {
	for _, w := range p.writes {
		if w == v {
			return true
		}
	}
	return false
}

// prepare computes the write set of p and the reads of p that neither the
// initial value nor an earlier write of p provides.
func (p *path) prepare(initVal []int64) {
	if p.prepared {
		return
	}
	p.prepared = true
	seen := map[pv]bool{}
	for _, ev := range p.events {
		v := pv{ev.Phys, ev.Value}
		switch {
		case ev.Kind == EvWrite:
			seen[v] = true
		case ev.Kind == EvRead && initVal[ev.Phys] != ev.Value && !seen[v]:
			p.needs = append(p.needs, v)
		}
	}
}

// candidate explores the executions of one choice of paths.
func (r *runner) candidate(choice []*path) {
	t := r.t
	// Every value read must be written by someone (or be initial).
	avail := map[pv]bool{}
	x0 := newExecutionLite(t)
	for ph, v := range x0 {
		avail[pv{ph, v}] = true
	}
	for _, p := range choice {
		for _, w := range p.writes {
			avail[w] = true
		}
	}
	for _, p := range choice {
		for _, ev := range p.events {
			if ev.Kind == EvRead && !avail[pv{ev.Phys, ev.Value}] {
				return
			}
		}
	}
	x := newExecution(t, choice)
	if x.deadlock {
		return // some thread waits forever at a barrier
	}
	x.redNoObs = r.opts.Model.RedNoObservation
	x.coTotal = r.opts.Model.CoTotal
	x.finalAnyMax = r.opts.Model.FinalAnyMaximal
	x.anyAliasFence = r.opts.Model.AnyAliasFence
	x.rf = make([]int, x.n)
	for {
		r.chooseRF(x, choice, 0)
		if !x.nextBarChoice() {
			break
		}
	}
}

// newExecutionLite returns the initial value of each physical location.
func newExecutionLite(t *Test) []int64 {
	v := make([]int64, t.nPhys)
	seen := make([]bool, t.nPhys)
	for _, l := range t.Locs {
		if !seen[l.Phys] || v[l.Phys] == 0 {
			v[l.Phys] = l.Init
			seen[l.Phys] = true
		}
	}
	return v
}

// chooseRF picks the write each read reads from: one of the same physical
// location with the value the path assumed. A thread never reads from its
// own program-order-later writes (that contradicts Causality at once).
func (r *runner) chooseRF(x *execution, choice []*path, k int) {
	if k == len(x.reads) {
		r.withRF(x, choice)
		return
	}
	rd := x.reads[k]
	er := x.ev[rd]
	for _, w := range x.writes[er.Phys] {
		ew := x.ev[w]
		if ew.Value != er.Value || x.po[rd].has(w) || w == x.rmw[rd] {
			continue
		}
		x.rf[rd] = w
		r.chooseRF(x, choice, k+1)
	}
}

// withRF checks a reads-from choice and enumerates Fence-SC orders.
func (r *runner) withRF(x *execution, choice []*path) {
	if r.opts.Model.NoThinAirOff {
		// skip 8.10.4's formalisation
	} else if cyc := x.noThinAir(); cyc != nil {
		r.res.Candidates++
		r.reject(x, choice, &violation{"No Thin Air (8.10.4)", cyc, "reads-from and dependencies form a cycle"})
		return
	}
	x.computeObs()
	// Fence-SC order: an orientation of every morally strong pair of
	// fence.sc of different threads (pairs within a thread follow program
	// order, which the Fence-SC axiom enforces).
	var pairs [][2]int
	for i, f := range x.scF {
		for _, g := range x.scF[i+1:] {
			if x.ev[f].Thread != x.ev[g].Thread && x.ms[f].has(g) {
				pairs = append(pairs, [2]int{f, g})
			}
		}
	}
	if len(pairs) > 20 {
		pairs = pairs[:20]
	}
	if len(x.scF) > 0 {
		if x.sc == nil {
			x.sc = newRelation(x.n)
		}
	} else {
		x.sc = nil
	}
	for mask := 0; mask < 1<<len(pairs); mask++ {
		if x.sc != nil {
			for i := range x.sc {
				x.sc[i].clear()
			}
			for _, f := range x.scF {
				for _, g := range x.scF {
					if x.po[f].has(g) {
						x.sc[f].set(g)
					}
				}
			}
			for i, p := range pairs {
				if mask&(1<<uint(i)) != 0 {
					x.sc[p[1]].set(p[0])
				} else {
					x.sc[p[0]].set(p[1])
				}
			}
		}
		r.res.Candidates++
		x.computeCause()
		if v := x.checkFenceSC(); v != nil {
			// A Fence-SC order that contradicts causality: the same execution
			// with the other orientation is examined too; nothing to explain.
			continue
		}
		if v := x.checkRfCause(); v != nil {
			r.reject(x, choice, v)
			continue
		}
		r.withCause(x, choice)
	}
}

// withCause enumerates coherence orders per location and records the
// allowed executions.
func (r *runner) withCause(x *execution, choice []*path) {
	t := r.t
	keep := r.opts.Witnesses || r.opts.Explain
	cos := make([]coResult, t.nPhys)
	for ph := 0; ph < t.nPhys; ph++ {
		cos[ph] = x.coherence(ph, keep)
		if cos[ph].total == 0 {
			r.reject(x, choice, cos[ph].fail)
			return
		}
	}
	regs := make([]map[string]int64, len(choice))
	for i, p := range choice {
		regs[i] = p.regs
	}
	factor := int64(1)
	isRel := map[int]bool{}
	for _, ph := range r.relevant {
		isRel[ph] = true
	}
	for ph := 0; ph < t.nPhys; ph++ {
		if !isRel[ph] {
			factor *= cos[ph].total
		}
	}
	st := &state{regs: regs, mem: make([]int64, t.nPhys)}
	var reached bool
	var walk func(i int, count int64)
	walk = func(i int, count int64) {
		if i == len(r.relevant) {
			if t.Filter != nil && !eval(t.Filter, st) {
				return
			}
			r.record(x, st, count, cos)
			if r.target(st) {
				reached = true
			}
			return
		}
		ph := r.relevant[i]
		vals := make([]int64, 0, len(cos[ph].count))
		for v := range cos[ph].count {
			vals = append(vals, v)
		}
		slices.Sort(vals)
		for _, v := range vals {
			st.mem[ph] = v
			walk(i+1, count*cos[ph].count[v])
		}
	}
	walk(0, factor)
	if r.opts.Explain && !reached {
		r.explainCo(x, choice, cos)
	}
}

// record adds count executions ending in state st.
func (r *runner) record(x *execution, st *state, count int64, cos []coResult) {
	vals := make([]int64, len(r.res.Terms))
	for i, term := range r.res.Terms {
		vals[i] = st.term(term)
	}
	key := fmt.Sprint(vals)
	s, ok := r.states[key]
	if !ok {
		s = &State{Values: vals, Sat: eval(r.t.Cond, st)}
		r.states[key] = s
		if r.opts.Witnesses {
			s.Witness = r.witness(x, st, cos)
		}
	}
	s.Count += count
	if s.Sat {
		r.res.Pos += count
	} else {
		r.res.Neg += count
	}
}
