package litmus

import (
	"fmt"
	"io"
	"strings"
)

// kind is herd's word for the test's question.
func (t *Test) kind() string {
	switch t.Quant {
	case Forall:
		return "Required"
	case NotExists:
		return "Forbidden"
	}
	return "Allowed"
}

// StateLine prints state s as herd does: "P1:r0=1; P1:r1=0; x=2;".
func (r *Result) StateLine(s *State) string {
	var b strings.Builder
	for i, x := range r.Terms {
		fmt.Fprintf(&b, "%s=%s; ", r.Test.termString(x), r.Test.valueString(s.Values[i]))
	}
	return strings.TrimSpace(b.String())
}

// Write prints r in herd's format.
func (r *Result) Write(w io.Writer, withTime bool) {
	t := r.Test
	fmt.Fprintf(w, "Test %s %s\n", t.Name, t.kind())
	fmt.Fprintf(w, "States %d\n", len(r.States))
	for _, s := range r.States {
		fmt.Fprintf(w, "%s\n", r.StateLine(s))
	}
	if r.Ok {
		fmt.Fprintln(w, "Ok")
	} else {
		fmt.Fprintln(w, "No")
	}
	fmt.Fprintln(w, "Witnesses")
	fmt.Fprintf(w, "Positive: %d Negative: %d\n", r.Pos, r.Neg)
	if r.BoundHit {
		fmt.Fprintf(w, "Warning: some paths were cut by the unrolling bound (--unroll)\n")
	}
	fmt.Fprintf(w, "Condition %s\n", t.CondText)
	fmt.Fprintf(w, "Observation %s %s %d %d\n", t.Name, r.Observation(), r.Pos, r.Neg)
	if withTime {
		fmt.Fprintf(w, "Time %s %.2f\n", t.Name, r.Time.Seconds())
	}
}
