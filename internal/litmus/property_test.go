package litmus

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// genOp is one operation of a generated test.
type genOp struct {
	kind  string // ld st fence atom
	sem   string // weak relaxed acquire release acq_rel sc
	scope string // cta gpu sys
	loc   string
	val   int
}

func (o genOp) text(reg string) string {
	sc := ""
	if o.sem != "weak" {
		sc = "." + o.scope
	}
	switch o.kind {
	case "ld":
		return fmt.Sprintf("ld.%s%s %s, %s", o.sem, sc, reg, o.loc)
	case "st":
		return fmt.Sprintf("st.%s%s %s, %d", o.sem, sc, o.loc, o.val)
	case "atom":
		return fmt.Sprintf("atom.%s%s.add %s, %s, %d", o.sem, sc, reg, o.loc, o.val)
	}
	return fmt.Sprintf("fence.%s%s", o.sem, sc)
}

var scopeOrder = []string{"cta", "gpu", "sys"}

// strengthen returns a copy of o made stronger in one way, or false.
func strengthen(o genOp, rng *rand.Rand) (genOp, bool) {
	var opts []genOp
	wider := func(s string) string {
		for i, x := range scopeOrder[:2] {
			if x == s {
				return scopeOrder[i+1]
			}
		}
		return ""
	}
	if o.sem != "weak" {
		if w := wider(o.scope); w != "" {
			p := o
			p.scope = w
			opts = append(opts, p)
		}
	}
	p := o
	switch {
	case o.kind == "ld" && o.sem == "weak", o.kind == "st" && o.sem == "weak":
		p.sem, p.scope = "relaxed", scopeOrder[rng.Intn(3)]
		opts = append(opts, p)
	case o.kind == "ld" && o.sem == "relaxed":
		p.sem = "acquire"
		opts = append(opts, p)
	case o.kind == "st" && o.sem == "relaxed":
		p.sem = "release"
		opts = append(opts, p)
	case o.kind == "atom" && o.sem == "relaxed":
		p.sem = []string{"acquire", "release"}[rng.Intn(2)]
		opts = append(opts, p)
	case o.kind == "atom" && (o.sem == "acquire" || o.sem == "release"):
		p.sem = "acq_rel"
		opts = append(opts, p)
	case o.kind == "fence" && o.sem == "acq_rel":
		p.sem = "sc"
		opts = append(opts, p)
	}
	if len(opts) == 0 {
		return o, false
	}
	return opts[rng.Intn(len(opts))], true
}

func genTest(threads [][]genOp, ctas []int) string {
	var b strings.Builder
	b.WriteString("PTX gen\n{ x=0; y=0; }\n")
	var heads []string
	for i := range threads {
		heads = append(heads, fmt.Sprintf("P%d@cta %d,gpu 0", i, ctas[i]))
	}
	b.WriteString(strings.Join(heads, " | ") + " ;\n")
	rows := 0
	for _, th := range threads {
		rows = max(rows, len(th))
	}
	var locs []string
	for r := 0; r < rows; r++ {
		var cells []string
		for i, th := range threads {
			c := ""
			if r < len(th) {
				reg := fmt.Sprintf("r%d", r)
				c = th[r].text(reg)
				if th[r].kind == "ld" || th[r].kind == "atom" {
					locs = append(locs, fmt.Sprintf("P%d:%s", i, reg))
				}
			}
			cells = append(cells, c)
		}
		b.WriteString(strings.Join(cells, " | ") + " ;\n")
	}
	locs = append(locs, "x", "y")
	b.WriteString("locations [" + strings.Join(locs, "; ") + "]\nexists (true)\n")
	return b.String()
}

func statesOf(t *testing.T, src string) map[string]bool {
	tt, err := Parse("gen.litmus", src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	res, err := Run(tt, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	out := map[string]bool{}
	for _, s := range res.States {
		out[res.StateLine(s)] = true
	}
	return out
}

// TestLitmusStrengthening checks on random small tests that making one
// operation stronger (weak -> relaxed -> acquire/release, a wider scope,
// fence.acq_rel -> fence.sc) never adds an allowed final state.
func TestLitmusStrengthening(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	iters := 120
	if testing.Short() {
		iters = 30
	}
	for it := 0; it < iters; it++ {
		nth := 2 + rng.Intn(2)
		threads := make([][]genOp, nth)
		ctas := make([]int, nth)
		for i := range threads {
			ctas[i] = rng.Intn(2)
			n := 2 + rng.Intn(3)
			for j := 0; j < n; j++ {
				o := genOp{loc: []string{"x", "y"}[rng.Intn(2)], val: 1 + rng.Intn(2), scope: scopeOrder[rng.Intn(3)]}
				switch k := rng.Intn(10); {
				case k < 4:
					o.kind, o.sem = "ld", []string{"weak", "relaxed", "acquire"}[rng.Intn(3)]
				case k < 8:
					o.kind, o.sem = "st", []string{"weak", "relaxed", "release"}[rng.Intn(3)]
				case k < 9:
					o.kind, o.sem = "atom", []string{"relaxed", "acquire", "release", "acq_rel"}[rng.Intn(4)]
				default:
					o.kind, o.sem = "fence", []string{"acq_rel", "sc"}[rng.Intn(2)]
				}
				if o.sem == "weak" {
					o.scope = ""
				}
				threads[i] = append(threads[i], o)
			}
		}
		ti := rng.Intn(nth)
		oi := rng.Intn(len(threads[ti]))
		strong, ok := strengthen(threads[ti][oi], rng)
		if !ok {
			continue
		}
		weakSrc := genTest(threads, ctas)
		old := threads[ti][oi]
		threads[ti][oi] = strong
		strongSrc := genTest(threads, ctas)
		threads[ti][oi] = old
		weak, str := statesOf(t, weakSrc), statesOf(t, strongSrc)
		for s := range str {
			if !weak[s] {
				t.Fatalf("strengthening %q to %q adds state %s\nweak test:\n%s\nstrong test:\n%s", old.text("r"), strong.text("r"), s, weakSrc, strongSrc)
			}
		}
	}
}
