package litmus

// violation says which axiom rejects a candidate execution and why: the
// events of the offending cycle or pair (global indices), in order.
type violation struct {
	axiom  string // "Causality (8.10.6)", ...
	events []int
	why    string
}

// noThinAir checks 8.10.4 in its usual formalisation: reads-from together
// with the address, data and control dependencies of each thread is
// acyclic. It returns the cycle, if any.
func (x *execution) noThinAir() []int {
	// Graph: rf edges W -> R, dep edges R -> E within a thread.
	n := x.n
	state := make([]int8, n) // 0 new, 1 on stack, 2 done
	stack := []int{}
	var cycle []int
	var visit func(i int) bool
	succ := func(i int, f func(j int) bool) bool {
		e := x.ev[i]
		if e.Kind == EvWrite {
			for _, r := range x.reads {
				if x.rf[r] == i && f(r) {
					return true
				}
			}
			return false
		}
		if e.Kind == EvRead && e.Thread >= 0 {
			th := e.Thread
			for j := x.first[th]; j < n && x.ev[j].Thread == th; j++ {
				if x.ev[j].Deps&(1<<uint(e.Index)) != 0 && f(j) {
					return true
				}
			}
		}
		return false
	}
	visit = func(i int) bool {
		state[i] = 1
		stack = append(stack, i)
		found := succ(i, func(j int) bool {
			if state[j] == 1 {
				for k := len(stack) - 1; k >= 0; k-- {
					if stack[k] == j {
						cycle = append([]int(nil), stack[k:]...)
						break
					}
				}
				return true
			}
			return state[j] == 0 && visit(j)
		})
		stack = stack[:len(stack)-1]
		state[i] = 2
		return found
	}
	for _, r := range x.reads {
		if state[r] == 0 && visit(r) {
			return cycle
		}
	}
	return nil
}

// checkRfCause checks the first half of the Causality axiom (8.10.6): a
// read cannot read from a write that it precedes in causality order.
func (x *execution) checkRfCause() *violation {
	for _, r := range x.reads {
		w := x.rf[r]
		if x.cause[r].has(w) {
			return &violation{"Causality (8.10.6)", []int{r, w},
				"the read precedes the write it reads from in causality order"}
		}
	}
	return nil
}

// checkFenceSC checks 8.10.2: if F1 precedes F2 in causality order they
// are ordered the same way in Fence-SC order; with F2 before F1 in Fence-SC
// order, base causality would contain a cycle through them.
func (x *execution) checkFenceSC() *violation {
	if x.sc == nil {
		return nil
	}
	for _, f := range x.scF {
		for _, g := range x.scF {
			if x.sc[f].has(g) && x.cb[g].has(f) {
				return &violation{"Fence-SC (8.10.2)", []int{g, f},
					"the first fence precedes the second in causality order but follows it in Fence-SC order"}
			}
		}
	}
	return nil
}

// coResult is what the coherence orders of one physical location allow.
type coResult struct {
	// count: final value -> number of valid coherence orders in which a
	// write of that value is coherence-maximal (with the total order: the
	// last write). With the partial order (reading 4 of docs/litmus.md)
	// several maximal writes may give one order several final values.
	count  map[int64]int64
	orders map[int64][][2]int // final value -> the co edges of one valid order (for graphs)
	fail   *violation         // why no order is valid (when count is empty)
	total  int64
	// failByLast: for a final value no valid order reaches, the first
	// violation of an order ending with it (for --explain).
	failByLast map[int64]*violation
}

// coherence enumerates the coherence orders of physical location ph (the
// initial write first, 8.2.6) and keeps those satisfying Coherence
// (8.10.1), the second half of Causality (8.10.6), Atomicity (8.10.3) and
// SC per location (8.10.5): partial orders (8.9.6) by default, total
// orders with ModelOptions.CoTotal.
func (x *execution) coherence(ph int, keepOrders bool) coResult {
	if !x.coTotal {
		return x.coherencePartial(ph, keepOrders)
	}
	return x.coherenceTotal(ph, keepOrders)
}

// coherenceTotal enumerates the total coherence orders of location ph.
func (x *execution) coherenceTotal(ph int, keepOrders bool) coResult {
	ws := x.writes[ph] // ws[0] is the initial write
	init := ws[0]
	res := coResult{count: map[int64]int64{}}
	if keepOrders {
		res.orders = map[int64][][2]int{}
		res.failByLast = map[int64]*violation{}
	}
	k := len(ws)
	idx := make(map[int]int, k)
	for i, w := range ws {
		idx[w] = i
	}
	// before[i] has j: write ws[i] must precede ws[j].
	before := make([]uint64, k)
	mustBefore := func(a, b int, why *violation) *violation {
		if a == b {
			return nil
		}
		if b == init {
			return why
		}
		before[idx[a]] |= 1 << uint(idx[b])
		return nil
	}
	for _, a := range ws[1:] {
		for _, b := range ws[1:] {
			if a != b && x.cause[a].has(b) {
				// Coherence: W precedes W' in causality order.
				mustBefore(a, b, nil)
			}
		}
	}
	for _, m := range x.mems[ph] {
		if x.ev[m].Kind != EvRead {
			continue
		}
		w0 := x.rf[m]
		for _, w := range ws[1:] {
			if w != w0 && x.cause[w].has(m) {
				// Causality: W precedes R, so R cannot read from a write
				// that precedes W in coherence order.
				if v := mustBefore(w, w0, &violation{"Causality (8.10.6)", []int{w, m, w0},
					"the write precedes the read in causality order, so the read cannot take its value from a write that precedes that write in coherence order"}); v != nil {
					res.fail = v
					return res
				}
			}
		}
	}
	if k-1 > 12 {
		res.fail = &violation{"limit", nil, "more than 12 writes to one location"}
		return res
	}
	order := make([]int, 0, k)
	order = append(order, init)
	placed := uint64(1)
	pos := make([]int, x.n)
	var firstFail *violation
	var rec func()
	rec = func() {
		if len(order) == k {
			for i, w := range order {
				pos[w] = i
			}
			if v := x.checkOrder(ph, func(a, b int) bool { return pos[a] < pos[b] }); v != nil {
				if firstFail == nil {
					firstFail = v
				}
				last := x.ev[order[k-1]].Value
				if keepOrders && res.failByLast[last] == nil {
					res.failByLast[last] = v
				}
				return
			}
			last := x.ev[order[k-1]].Value
			res.count[last]++
			res.total++
			if keepOrders {
				if _, ok := res.orders[last]; !ok {
					edges := make([][2]int, 0, k-1)
					for i := 1; i < k; i++ {
						edges = append(edges, [2]int{order[i-1], order[i]})
					}
					res.orders[last] = edges
				}
			}
			return
		}
		for i := 1; i < k; i++ {
			if placed&(1<<uint(i)) != 0 {
				continue
			}
			// Every write that must precede ws[i] is placed.
			ok := true
			for j := 1; j < k; j++ {
				if before[j]&(1<<uint(i)) != 0 && placed&(1<<uint(j)) == 0 {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			placed |= 1 << uint(i)
			order = append(order, ws[i])
			rec()
			order = order[:len(order)-1]
			placed &^= 1 << uint(i)
		}
	}
	rec()
	if res.total == 0 {
		res.fail = firstFail
		if res.fail == nil {
			res.fail = &violation{"Coherence (8.10.1)", nil, "causality order between the writes is cyclic"}
		}
	}
	return res
}

// coherencePartial enumerates the partial coherence orders of location ph
// (8.9.6): "Two overlapping write operations are related in coherence
// order if they are morally strong or if they are related in causality
// order. Two overlapping writes are unrelated in coherence order if they
// are in a data-race." The order is the transitive closure of the initial
// write before every other write (8.2.6), the causality-ordered pairs in
// causality direction (8.10.1) and one orientation of each morally strong
// pair; each orientation choice gives one order, and a pair already
// related by transitivity is not chosen again. Racy pairs stay unrelated
// unless transitivity relates them (a transitive order must). The
// final value is that of a write coherence-after every other write: where
// several writes are maximal, each in turn is put after all the others and
// gives a final value if the extended order satisfies the axioms (with
// ModelOptions.FinalAnyMaximal: every maximal write, unchecked).
func (x *execution) coherencePartial(ph int, keepOrders bool) coResult {
	ws := x.writes[ph] // ws[0] is the initial write
	res := coResult{count: map[int64]int64{}}
	if keepOrders {
		res.orders = map[int64][][2]int{}
		res.failByLast = map[int64]*violation{}
	}
	k := len(ws)
	if k > 64 {
		res.fail = &violation{"limit", nil, "more than 63 writes to one location"}
		return res
	}
	idx := make(map[int]int, k)
	for i, w := range ws {
		idx[w] = i
	}
	// reach[i] has j: ws[i] precedes ws[j] in coherence order (closed).
	reach := make([]uint64, k)
	add := func(a, b int) {
		nb := uint64(1)<<uint(b) | reach[b]
		for i := range reach {
			if i == a || reach[i]&(1<<uint(a)) != 0 {
				reach[i] |= nb
			}
		}
	}
	for i := 1; i < k; i++ {
		add(0, i)
	}
	for i, a := range ws[1:] {
		for j, b := range ws[1:] {
			if a != b && x.cause[a].has(b) {
				// Coherence (8.10.1): W precedes W' in causality order.
				add(i+1, j+1)
			}
		}
	}
	for i := range reach {
		if reach[i]&(1<<uint(i)) != 0 {
			res.fail = &violation{"Coherence (8.10.1)", nil, "causality order between the writes is cyclic"}
			return res
		}
	}
	// Causality (8.10.6): if W precedes R in causality order, R does not
	// read from a write W' that precedes W in coherence order. Each such
	// (W', W) pair must stay unordered that way.
	type pair struct {
		from, to int // index of W' and W
		v        *violation
	}
	var never []pair
	for _, m := range x.mems[ph] {
		if x.ev[m].Kind != EvRead {
			continue
		}
		w0 := x.rf[m]
		for _, w := range ws[1:] {
			if w != w0 && x.cause[w].has(m) {
				never = append(never, pair{idx[w0], idx[w], &violation{"Causality (8.10.6)", []int{w, m, w0},
					"the write precedes the read in causality order, so the read cannot take its value from a write that precedes that write in coherence order"}})
			}
		}
	}
	broken := func() *violation {
		for _, p := range never {
			if reach[p.from]&(1<<uint(p.to)) != 0 {
				return p.v
			}
		}
		return nil
	}
	if v := broken(); v != nil {
		res.fail = v
		return res
	}
	// The morally strong pairs to orient.
	var pairs [][2]int
	for i := 1; i < k; i++ {
		for j := i + 1; j < k; j++ {
			if x.ms[ws[i]].has(ws[j]) {
				pairs = append(pairs, [2]int{i, j})
			}
		}
	}
	coBefore := func(a, b int) bool { return reach[idx[a]]&(1<<uint(idx[b])) != 0 }
	var firstFail *violation
	saved := make([][]uint64, len(pairs)+1)
	for i := range saved {
		saved[i] = make([]uint64, k)
	}
	var rec func(p int)
	ext := make([]uint64, k)
	leaf := func() {
		v := x.checkOrder(ph, coBefore)
		if v != nil && firstFail == nil {
			firstFail = v
		}
		var maxima []int
		for i := range reach {
			if reach[i] == 0 {
				maxima = append(maxima, i)
			}
		}
		seen := map[int64]bool{}
		for _, i := range maxima {
			val := x.ev[ws[i]].Value
			if seen[val] {
				continue
			}
			vi := v
			if vi == nil && len(maxima) > 1 && !x.finalAnyMax {
				// The final value is that of a write coherence-after
				// every other write: put ws[i] after the other maximal
				// writes (it has no successor, so the result is closed)
				// and check the axioms again.
				copy(ext, reach)
				for j := range reach {
					if j != i {
						reach[j] |= 1 << uint(i)
					}
				}
				vi = broken()
				if vi == nil {
					vi = x.checkOrder(ph, coBefore)
				}
				if vi == nil && keepOrders {
					if _, ok := res.orders[val]; !ok {
						res.orders[val] = hasse(ws, reach)
					}
				}
				copy(reach, ext)
			}
			if vi != nil {
				if keepOrders && res.failByLast[val] == nil {
					res.failByLast[val] = vi
				}
				continue
			}
			seen[val] = true
			res.count[val]++
			if keepOrders {
				if _, ok := res.orders[val]; !ok {
					res.orders[val] = hasse(ws, reach)
				}
			}
		}
		if v == nil {
			res.total++
		}
	}
	rec = func(p int) {
		if p == len(pairs) {
			leaf()
			return
		}
		a, b := pairs[p][0], pairs[p][1]
		if reach[a]&(1<<uint(b)) != 0 || reach[b]&(1<<uint(a)) != 0 {
			rec(p + 1)
			return
		}
		copy(saved[p], reach)
		for _, e := range [2][2]int{{a, b}, {b, a}} {
			add(e[0], e[1])
			if v := broken(); v != nil {
				if firstFail == nil {
					firstFail = v
				}
			} else {
				rec(p + 1)
			}
			copy(reach, saved[p])
		}
	}
	rec(0)
	if res.total == 0 {
		res.fail = firstFail
		if res.fail == nil {
			res.fail = &violation{"Coherence (8.10.1)", nil, "no coherence order is allowed"}
		}
	}
	return res
}

// hasse returns the covering edges of the closed order reach over ws.
func hasse(ws []int, reach []uint64) [][2]int {
	var edges [][2]int
	for i := range reach {
		for j := range reach {
			if reach[i]&(1<<uint(j)) == 0 {
				continue
			}
			direct := true
			for m := range reach {
				if reach[i]&(1<<uint(m)) != 0 && reach[m]&(1<<uint(j)) != 0 {
					direct = false
					break
				}
			}
			if direct {
				edges = append(edges, [2]int{ws[i], ws[j]})
			}
		}
	}
	return edges
}

// checkOrder checks one coherence order of location ph, given as coBefore
// (write a precedes write b): Atomicity and SC per location.
func (x *execution) checkOrder(ph int, coBefore func(a, b int) bool) *violation {
	ws := x.writes[ph]
	// Atomicity of RMW (8.10.3): no morally strong write between the write
	// an atomic reads from and the atomic's own write.
	for _, m := range x.mems[ph] {
		w := x.rmw[m]
		if w < 0 {
			continue
		}
		w0 := x.rf[m]
		for _, o := range ws[1:] {
			if o != w && o != w0 && x.ms[m].has(o) && x.ms[o].has(w) && coBefore(w0, o) && coBefore(o, w) {
				return &violation{"Atomicity (8.10.3)", []int{m, o, w},
					"a morally strong write comes between the write the atomic reads from and the atomic's own write in coherence order"}
			}
		}
	}
	// SC per location (8.10.5): program order between operations on the
	// same address, with the morally strong relations in communication
	// order, is acyclic.
	ms := x.mems[ph]
	adj := func(a int, f func(b int) bool) bool {
		ea := x.ev[a]
		for _, b := range ms {
			if a == b {
				continue
			}
			eb := x.ev[b]
			edge := false
			switch {
			case x.po[a].has(b) && ea.Loc.Virt == eb.Loc.Virt:
				edge = true
			case !x.ms[a].has(b):
			case ea.Kind == EvWrite && eb.Kind == EvRead:
				edge = x.rf[b] == a
			case ea.Kind == EvWrite && eb.Kind == EvWrite:
				edge = coBefore(a, b)
			case ea.Kind == EvRead && eb.Kind == EvWrite:
				edge = coBefore(x.rf[a], b)
			}
			if edge && f(b) {
				return true
			}
		}
		return false
	}
	if cyc := findCycle(ms, adj); cyc != nil {
		return &violation{"SC per location (8.10.5)", cyc,
			"program order and morally strong communication order form a cycle"}
	}
	return nil
}

// findCycle returns a cycle of the graph (nodes, adj), or nil.
func findCycle(nodes []int, adj func(a int, f func(b int) bool) bool) []int {
	state := map[int]int8{}
	var stack, cycle []int
	var visit func(i int) bool
	visit = func(i int) bool {
		state[i] = 1
		stack = append(stack, i)
		found := adj(i, func(j int) bool {
			switch state[j] {
			case 1:
				for k := len(stack) - 1; k >= 0; k-- {
					if stack[k] == j {
						cycle = append([]int(nil), stack[k:]...)
						break
					}
				}
				return true
			case 0:
				return visit(j)
			}
			return false
		})
		stack = stack[:len(stack)-1]
		state[i] = 2
		return found
	}
	for _, i := range nodes {
		if state[i] == 0 && visit(i) {
			return cycle
		}
	}
	return nil
}
