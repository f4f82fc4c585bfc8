package litmus

import (
	"fmt"
	"strings"
)

// Witness is one allowed execution, kept to draw it.
type Witness struct {
	Events []string // node labels, by global index
	Thread []int    // thread of each node (-1: initial write)
	Edges  []Edge
}

// Edge is a relation edge of a witness: po, rf, co, sync (release/acquire),
// sc (Fence-SC order), bar (barrier).
type Edge struct {
	From, To int
	Kind     string
}

func (r *runner) witness(x *execution, st *state, cos []coResult) *Witness {
	w := &Witness{}
	for i, e := range x.ev {
		label := x.describeEvent(i)
		switch e.Kind {
		case EvRead:
			label = fmt.Sprintf("R %s = %s\\n%s", e.Loc.Name, r.t.valueString(e.Value), label)
		case EvWrite:
			if e.Thread >= 0 {
				label = fmt.Sprintf("W %s = %s\\n%s", e.Loc.Name, r.t.valueString(e.Value), label)
			}
		}
		w.Events = append(w.Events, label)
		w.Thread = append(w.Thread, e.Thread)
	}
	for i := range x.ev {
		// Immediate program order only.
		for j := range x.ev {
			if x.po[i].has(j) && x.ev[j].Index == x.ev[i].Index+1 {
				w.Edges = append(w.Edges, Edge{i, j, "po"})
			}
		}
		x.sw[i].each(func(j int) { w.Edges = append(w.Edges, Edge{i, j, "sync"}) })
		x.bar[i].each(func(j int) { w.Edges = append(w.Edges, Edge{i, j, "bar"}) })
		if x.sc != nil {
			x.sc[i].each(func(j int) {
				if x.ev[i].Thread != x.ev[j].Thread {
					w.Edges = append(w.Edges, Edge{i, j, "sc"})
				}
			})
		}
	}
	for _, rd := range x.reads {
		w.Edges = append(w.Edges, Edge{x.rf[rd], rd, "rf"})
	}
	for ph := range cos {
		var order [][2]int
		if v, ok := findRelevant(r.relevant, ph); ok {
			order = cos[ph].orders[st.mem[v]]
		} else {
			for _, o := range cos[ph].orders {
				order = o
				break
			}
		}
		for _, e := range order {
			w.Edges = append(w.Edges, Edge{e[0], e[1], "co"})
		}
	}
	return w
}

func findRelevant(rel []int, ph int) (int, bool) {
	for _, p := range rel {
		if p == ph {
			return ph, true
		}
	}
	return 0, false
}

var edgeStyle = map[string]string{
	"po":   `color=black`,
	"rf":   `color=red, label="rf", fontcolor=red`,
	"co":   `color=blue, label="co", fontcolor=blue`,
	"sync": `color=darkgreen, label="sync", fontcolor=darkgreen, style=bold`,
	"sc":   `color=purple, label="sc", fontcolor=purple, style=dashed`,
	"bar":  `color=orange, label="bar", fontcolor=orange, style=dashed`,
}

// DOT renders a witness in Graphviz: events as nodes grouped per thread.
func (w *Witness) DOT(name, state string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %q {\n  label=%q;\n  node [shape=box, fontname=\"monospace\"];\n", name, state)
	threads := map[int][]int{}
	maxT := -1
	for i, t := range w.Thread {
		threads[t] = append(threads[t], i)
		maxT = max(maxT, t)
	}
	for t := -1; t <= maxT; t++ {
		nodes := threads[t]
		if len(nodes) == 0 {
			continue
		}
		title := fmt.Sprintf("P%d", t)
		if t < 0 {
			title = "init"
		}
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=%q;\n", t+1, title)
		for _, i := range nodes {
			fmt.Fprintf(&b, "    e%d [label=\"%s\"];\n", i, strings.ReplaceAll(w.Events[i], `"`, `\"`))
		}
		b.WriteString("  }\n")
	}
	for _, e := range w.Edges {
		fmt.Fprintf(&b, "  e%d -> e%d [%s];\n", e.From, e.To, edgeStyle[e.Kind])
	}
	b.WriteString("}\n")
	return b.String()
}
