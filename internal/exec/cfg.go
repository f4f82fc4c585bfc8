package exec

// Reconvergence points: the immediate post-dominator of each branch, where
// lanes that diverged there meet again (docs/engine.md; DESIGN.md decision 4).

import "slices"

// successors lists where control goes after op i; len(ops) stands for the
// function's exit.
func successors(f *Func, i int, out []int32) []int32 {
	o := &f.Ops[i]
	n := int32(len(f.Ops))
	next := int32(i + 1)
	if next > n {
		next = n
	}
	switch o.inst.Opcode {
	case "bra":
		if o.guard != 0 {
			return append(out, o.target, next)
		}
		return append(out, o.target)
	case "brx":
		if ts, ok := o.aux.([]int32); ok {
			out = append(out, ts...)
		}
		if o.guard != 0 {
			out = append(out, next)
		}
		return out
	case "ret", "exit", "trap":
		if o.guard != 0 {
			return append(out, n, next)
		}
		return append(out, n)
	}
	return append(out, next)
}

// A flowGraph is a function's control-flow graph as flat lists: node i's
// successors are succTo[succAt[i]:succAt[i+1]] and its predecessors
// predFrom[predAt[i]:predAt[i+1]]; node len(f.Ops) is the function's exit.
type flowGraph struct {
	succAt, succTo, predAt, predFrom []int32
}

func newFlowGraph(f *Func) *flowGraph {
	n := len(f.Ops)
	g := &flowGraph{succAt: make([]int32, n+2)}
	nPred := make([]int32, n+2)
	for i := range n {
		g.succAt[i] = int32(len(g.succTo))
		g.succTo = successors(f, i, g.succTo)
		for _, s := range g.succTo[g.succAt[i]:] {
			nPred[s+1]++
		}
	}
	g.succAt[n], g.succAt[n+1] = int32(len(g.succTo)), int32(len(g.succTo))
	for i := 1; i < len(nPred); i++ {
		nPred[i] += nPred[i-1]
	}
	g.predAt = slices.Clone(nPred) // starts; nPred: next free place
	g.predFrom = make([]int32, len(g.succTo))
	for i := range n {
		for _, s := range g.succTo[g.succAt[i]:g.succAt[i+1]] {
			g.predFrom[nPred[s]] = int32(i)
			nPred[s]++
		}
	}
	return g
}

func (g *flowGraph) succ(i int32) []int32 { return g.succTo[g.succAt[i]:g.succAt[i+1]] }
func (g *flowGraph) pred(i int32) []int32 { return g.predFrom[g.predAt[i]:g.predAt[i+1]] }

// postDominators returns, for every op, its immediate post-dominator (-1
// when it is the function's exit), by the iterative algorithm of Cooper,
// Harvey and Kennedy on the reversed control-flow graph.
func postDominators(f *Func) []int32 {
	n := len(f.Ops)
	exit := n
	g := newFlowGraph(f)
	// Postorder of the reversed graph from the exit.
	order := make([]int32, 0, n+1)
	index := make([]int32, n+1)
	for i := range index {
		index[i] = -1
	}
	type frame struct{ node, next int32 }
	stack := make([]frame, 1, n+1)
	stack[0] = frame{int32(exit), 0}
	visited := make([]bool, n+1)
	visited[exit] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if ps := g.pred(top.node); int(top.next) < len(ps) {
			p := ps[top.next]
			top.next++
			if !visited[p] {
				visited[p] = true
				stack = append(stack, frame{p, 0})
			}
			continue
		}
		index[top.node] = int32(len(order))
		order = append(order, top.node)
		stack = stack[:len(stack)-1]
	}
	ipdom := make([]int32, n+1)
	for i := range ipdom {
		ipdom[i] = -1
	}
	ipdom[exit] = int32(exit)
	intersect := func(a, b int32) int32 {
		for a != b {
			for index[a] < index[b] {
				a = ipdom[a]
			}
			for index[b] < index[a] {
				b = ipdom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for k := len(order) - 1; k >= 0; k-- { // reverse postorder
			node := order[k]
			if int(node) == exit {
				continue
			}
			newIdom := int32(-1)
			for _, s := range g.succ(node) {
				if ipdom[s] == -1 {
					continue
				}
				if newIdom == -1 {
					newIdom = s
				} else {
					newIdom = intersect(s, newIdom)
				}
			}
			if newIdom != -1 && ipdom[node] != newIdom {
				ipdom[node] = newIdom
				changed = true
			}
		}
	}
	out := make([]int32, n)
	for i := 0; i < n; i++ {
		if ipdom[i] == int32(exit) || ipdom[i] < 0 {
			out[i] = -1
		} else {
			out[i] = ipdom[i]
		}
	}
	return out
}
