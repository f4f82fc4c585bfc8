package litmus

import (
	"fmt"
	"sort"
	"strings"
)

// describeEvent names an event by its source: "P0 line 12: st.release.gpu
// flag, 1", or "the initial write x=0".
func (x *execution) describeEvent(i int) string {
	e := x.ev[i]
	if e.Thread < 0 {
		return fmt.Sprintf("the initial write %s=%s", x.physName(e.Phys), x.t.valueString(e.Value))
	}
	s := fmt.Sprintf("P%d line %d: %s", e.Thread, e.Instr.Line, e.Instr.Text)
	if e.RMW >= 0 && e.Instr.Kind != KLoad {
		if e.Kind == EvRead {
			s += " (its read)"
		} else {
			s += " (its write)"
		}
	}
	return s
}

func (x *execution) physName(ph int) string {
	for _, l := range x.t.Locs {
		if l.Phys == ph {
			return l.Name
		}
	}
	return "?"
}

// rfSummary lists what each read reads from.
func (x *execution) rfSummary() []string {
	var out []string
	for _, r := range x.reads {
		e := x.ev[r]
		out = append(out, fmt.Sprintf("%s reads %s from %s", x.describeEvent(r), x.t.valueString(e.Value), x.describeEvent(x.rf[r])))
	}
	return out
}

// regState is the register part of a candidate's state, as a state line.
func (r *runner) regKey(choice []*path) string {
	var b strings.Builder
	for _, term := range r.res.Terms {
		if term.isReg() {
			fmt.Fprintf(&b, "%s=%s; ", r.t.termString(term), r.t.valueString(choice[term.Thread].regs[term.Reg]))
		}
	}
	return strings.TrimSpace(b.String())
}

// couldReach reports whether a candidate with these registers could end in
// a target state for some final memory values.
func (r *runner) couldReach(x *execution, choice []*path) bool {
	regs := make([]map[string]int64, len(choice))
	for i, p := range choice {
		regs[i] = p.regs
	}
	st := &state{regs: regs, mem: make([]int64, r.t.nPhys)}
	var walk func(i int) bool
	walk = func(i int) bool {
		if i == len(r.relevant) {
			return r.target(st)
		}
		ph := r.relevant[i]
		for _, w := range x.writes[ph] {
			st.mem[ph] = x.ev[w].Value
			if walk(i + 1) {
				return true
			}
		}
		return false
	}
	return walk(0)
}

// reject records why a candidate is rejected, when --explain asks and the
// candidate could have reached the outcome of interest.
func (r *runner) reject(x *execution, choice []*path, v *violation) {
	if !r.opts.Explain || v == nil || r.explainN >= 4*r.opts.MaxExplain || !r.couldReach(x, choice) {
		return
	}
	r.addExplain(r.regKey(choice), x, v)
}

func (r *runner) addExplain(key string, x *execution, v *violation) {
	r.explainN++
	var b strings.Builder
	for _, s := range x.rfSummary() {
		fmt.Fprintf(&b, "    %s\n", s)
	}
	if x.sc != nil {
		for _, f := range x.scF {
			for _, g := range x.scF {
				if x.sc[f].has(g) && x.ev[f].Thread != x.ev[g].Thread {
					fmt.Fprintf(&b, "    with Fence-SC order %s before %s\n", x.describeEvent(f), x.describeEvent(g))
				}
			}
		}
	}
	fmt.Fprintf(&b, "    rejected by %s: %s:\n", v.axiom, v.why)
	for i, e := range v.events {
		arrow := "      "
		if i > 0 {
			arrow = "   -> "
		}
		fmt.Fprintf(&b, "    %s%s\n", arrow, x.describeEvent(e))
	}
	r.explain[key] = append(r.explain[key], b.String())
}

// explainCo explains an allowed candidate that cannot reach the outcome
// because of its final memory: the coherence orders that would give the
// needed final values are rejected.
func (r *runner) explainCo(x *execution, choice []*path, cos []coResult) {
	if !r.couldReach(x, choice) || r.explainN >= 4*r.opts.MaxExplain {
		return
	}
	for _, ph := range r.relevant {
		vals := make([]int64, 0, len(cos[ph].failByLast))
		for v := range cos[ph].failByLast {
			vals = append(vals, v)
		}
		sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
		for _, v := range vals {
			if _, ok := cos[ph].count[v]; ok {
				continue
			}
			f := cos[ph].failByLast[v]
			r.addExplain(r.regKey(choice), x, &violation{f.axiom, f.events,
				fmt.Sprintf("no coherence order of %s with final value %s is allowed; %s", x.physName(ph), r.t.valueString(v), f.why)})
		}
	}
}

// finishExplain writes the explanations: when the outcome of interest (the
// proposition for exists and ~exists, its negation for forall) is never
// reached, why each candidate execution that could reach it is rejected.
func (r *runner) finishExplain() {
	res := r.res
	reached := res.Pos > 0
	what := "satisfying the condition"
	if r.t.Quant == Forall {
		reached = res.Neg > 0
		what = "violating the condition"
	}
	if reached {
		res.Explanations = append(res.Explanations, fmt.Sprintf("An outcome %s is allowed (see States).", what))
		return
	}
	if len(r.explain) == 0 {
		res.Explanations = append(res.Explanations, fmt.Sprintf("No candidate execution reaches an outcome %s: no path of the threads produces it.", what))
		return
	}
	keys := make([]string, 0, len(r.explain))
	for k := range r.explain {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		list := r.explain[k]
		head := fmt.Sprintf("Forbidden outcome %s (%d candidate execution(s) shown):", k, min(len(list), r.opts.MaxExplain))
		if k == "" {
			head = fmt.Sprintf("Forbidden outcome (%d candidate execution(s) shown):", min(len(list), r.opts.MaxExplain))
		}
		var b strings.Builder
		b.WriteString(head + "\n")
		for i, s := range list {
			if i == r.opts.MaxExplain {
				break
			}
			fmt.Fprintf(&b, "  candidate %d:\n%s", i+1, s)
		}
		res.Explanations = append(res.Explanations, strings.TrimRight(b.String(), "\n"))
	}
}
