package litmus

import (
	"strings"
	"testing"
)

const mpSrc = `PTX MP
"comment"
{
x=0; flag=0;
P1:r0=0; 1:r1=0;
}
 P0@cta 0,gpu 0          | P1@cta 1, gpu 0          ;
 st.weak [x], 42         | ld.acquire.gpu %r0, flag ;
 st.release.gpu flag, 1  | ld.weak r1, [x]          ;
exists (P1:r0 == 1 /\ 1:r1 = 0)
`

func TestLitmusParseGood(t *testing.T) {
	tt, err := Parse("mp.litmus", mpSrc)
	if err != nil {
		t.Fatal(err)
	}
	if tt.Name != "MP" || tt.Comment != "comment" || len(tt.Threads) != 2 {
		t.Fatalf("got name %q comment %q threads %d", tt.Name, tt.Comment, len(tt.Threads))
	}
	p1 := tt.Threads[1]
	if p1.CTA != 1 || p1.GPU != 0 || !p1.Placed {
		t.Errorf("P1 placed at cta %d gpu %d", p1.CTA, p1.GPU)
	}
	in := p1.Code[0]
	if in.Kind != KLoad || in.Sem != SemAcquire || in.Scope != ScopeGPU || in.Dst.Name != "r0" || in.Addr.Name != "flag" {
		t.Errorf("P1 line 1 decoded as %+v", in)
	}
	if in.Pos != (Pos{8, 28}) {
		t.Errorf("P1 line 1 at %v, want 8:28", in.Pos)
	}
	if got := tt.CondString(); got != `exists (P1:r0 == 1 /\ P1:r1 == 0)` {
		t.Errorf("condition %q", got)
	}
}

func TestLitmusParseForms(t *testing.T) {
	for _, c := range []struct{ name, instr string }{
		{"volatile", "ld.volatile.global.u32 r0, [x]"},
		{"mmio", "st.mmio.relaxed.sys [x], 1"},
		{"atom-cas", "atom.global.acq_rel.gpu.cas.b32 r0, [x], 0, 1"},
		{"red", "red.release.cluster.global.add.u32 [x], 1"},
		{"fence", "fence.sc.cluster"},
		{"fence-default", "fence.gpu"},
		{"membar", "membar.sys"},
		{"proxy", "fence.proxy.alias"},
		{"mbarrier-init", "fence.mbarrier_init.release.cluster"},
		{"bar", "barrier.cta.sync.aligned 0"},
		{"bar-arrive", "bar.arrive 1, 64"},
		{"cluster-bar", "barrier.cluster.arrive.release"},
		{"guard", "@!p bra L"},
		{"setp", "setp.ne.s32 p, r0, 1"},
		{"alu", "add.s32 r1, r0, 1"},
		{"cvt", "cvt.u64.u32 r2, r0"},
		{"label", "M: ld.weak r0, x"},
	} {
		src := "PTX T\n{ x=0; }\n P0 ;\n " + c.instr + " ;\n L: ;\nexists (x == 0)\n"
		if _, err := Parse("t.litmus", src); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func TestLitmusParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"", "1:1: empty test"},
		{"LISA X\n{}\n", "1:1: expected a header"},
		{"PTX\n", "missing test name"},
		{"PTX T\n x=0;\n", "missing init block"},
		{"PTX T\n{ x=0;\n", "init block is not closed"},
		{"PTX T\n{}\n P0 ;\n frob r0, x ;\nexists (x==0)\n", `4:2: unknown instruction "frob"`},
		{"PTX T\n{}\n P0 ;\n ld.weak.gpu r0, x ;\nexists (x==0)\n", "4:2: a weak ld takes no scope"},
		{"PTX T\n{}\n P0 ;\n ld.relaxed.gpu r0 ;\nexists (x==0)\n", "4:2: ld takes 2 operands"},
		{"PTX T\n{}\n P0 ;\n bra NOWHERE ;\nexists (x==0)\n", "4:6: undefined label NOWHERE"},
		{"PTX T\n{}\n P0 ;\n st.weak x, 1 ;\n", "missing final condition"},
		{"PTX T\n{}\n P0 ;\n st.weak x, 1 ;\nexists (x == )\n", "5:14: expected a register"},
		{"PTX T\n{}\n P0 ;\n st.weak x, 1 ;\nexists (P3:r0 == 1)\n", "5:9: the condition names thread P3"},
		{"PTX T\n{}\n P0 | P1 ;\n st.weak x, 1 | | ld.weak r0, x ;\nexists (x == 1)\n", "row has 3 cells"},
		{"PTX T\n{}\n P0@cta x ;\n st.weak x, 1 ;\nexists (x == 1)\n", "bad number"},
		{"PTX T\n{}\n P0 ;\n ld.weak.foo r0, x ;\nexists (x == 1)\n", "unknown or misplaced modifier .foo"},
		{"PTX T\n{}\n P0 ;\n red.acquire.add x, 1 ;\nexists (x == 1)\n", "red cannot be .acquire"},
	} {
		_, err := Parse("t.litmus", c.src)
		if err == nil {
			t.Errorf("%q: no error, want %q", c.src, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "t.litmus:") {
			t.Errorf("%q: error %q, want it to contain %q", c.src, err, c.want)
		}
	}
}

func TestLitmusCondition(t *testing.T) {
	src := "PTX T\n{ x=0; y=0; P0:r1=x; }\n P0 | P1 ;\n st.weak x, 1 | st.weak y, 2 ;\n"
	for _, c := range []struct {
		cond string
		obs  string
	}{
		{`exists (x == 1 /\ y == 2)`, "Always"},
		{`exists (x == 1 \/ y == 0)`, "Always"},
		{`exists (~(x == 1))`, "Never"},
		{`exists (not (x == 1) \/ false)`, "Never"},
		{`forall (true)`, "Always"},
		{`exists (x != 1)`, "Never"},
		{`exists (0:r1 = x)`, "Always"},
		{`exists (P0:r1 == x /\ [y] == 2)`, "Always"},
		{`~exists (x == 2)`, "Never"},
		{`exists 0==0`, "Always"},
	} {
		tt, err := Parse("t.litmus", src+c.cond+"\n")
		if err != nil {
			t.Errorf("%s: %v", c.cond, err)
			continue
		}
		res, err := Run(tt, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Observation(); got != c.obs {
			t.Errorf("%s: %s, want %s", c.cond, got, c.obs)
		}
	}
}

// TestLitmusGolden pins the output format.
func TestLitmusGolden(t *testing.T) {
	tt, err := Parse("mp.litmus", mpSrc)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(tt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	res.Write(&b, false)
	want := `Test MP Allowed
States 3
P1:r0=0; P1:r1=0;
P1:r0=0; P1:r1=42;
P1:r0=1; P1:r1=42;
No
Witnesses
Positive: 0 Negative: 3
Condition exists (P1:r0 == 1 /\ P1:r1 == 0)
Observation MP Never 0 3
`
	if b.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", b.String(), want)
	}
}

func FuzzLitmusParse(f *testing.F) {
	f.Add(mpSrc)
	f.Add("PTX T\n{ x=0; }\n P0 ;\n L: ld.weak r0, x ;\n bne r0, 0, L ;\nexists (P0:r0 == 1)\n")
	f.Add("GPU_PTX T\n{ 0:.reg .b64 r1 = x; }\n P0 ;\n st.cg.s32 [r1], 1 ;\nScopeTree (grid (cta P0))\nexists (x=1)\n")
	f.Add("PTX A\n{ a=0; b @ generic aliases a; }\n P0 ;\n st.weak a, 1 ;\n fence.proxy.alias ;\n ld.weak r0, b ;\nforall (P0:r0 == 1)\n")
	f.Fuzz(func(t *testing.T, src string) {
		tt, err := Parse("f.litmus", src)
		if err != nil || len(src) > 400 {
			return
		}
		Run(tt, Options{Unroll: 1})
	})
}

// TestLitmusBarOperandsDat3M: "bar.sync c, a" names barrier c with a
// thread count in PTX, but barrier (c, a) in the Dat3M dialect
// (-bar-operands=dat3m). With different a, SB through the barrier is
// forbidden in the first reading and allowed in the second.
func TestLitmusBarOperandsDat3M(t *testing.T) {
	src := `PTX SB+bar2
{ x=0; y=0; }
 P0@cta 0,gpu 0    | P1@cta 0,gpu 0    ;
 st.weak x, 1      | st.weak y, 1      ;
 bar.cta.sync 1, 32 | bar.cta.sync 1, 64 ;
 ld.weak r0, y     | ld.weak r1, x     ;
exists (P0:r0 == 0 /\ P1:r1 == 0)
`
	tt, err := Parse("sb.litmus", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dat3m bool
		want  string
	}{{false, "Never"}, {true, "Sometimes"}} {
		res, err := Run(tt, Options{Model: ModelOptions{BarDat3M: c.dat3m}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Observation(); got != c.want {
			t.Errorf("BarDat3M=%v: Observation %s, want %s", c.dat3m, got, c.want)
		}
	}
}
