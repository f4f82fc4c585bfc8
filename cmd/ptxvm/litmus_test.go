package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const litmusMP = `PTX MP-rel-acq
"message passing with release/acquire at gpu scope, threads in different CTAs"
{
x=0; flag=0;
P0:r0=0; P1:r0=0; P1:r1=0;
}
 P0@cta 0,gpu 0          | P1@cta 1,gpu 0           ;
 st.weak x, 42           | ld.acquire.gpu r0, flag  ;
 st.release.gpu flag, 1  | ld.weak r1, x            ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
`

func runLitmusCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"litmus"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestLitmusCLIOutput(t *testing.T) {
	code, out, errs := runLitmusCLI(t, litmusMP, "-notime", "-")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	want := `Test MP-rel-acq Allowed
States 3
P1:r0=0; P1:r1=0;
P1:r0=0; P1:r1=42;
P1:r0=1; P1:r1=42;
No
Witnesses
Positive: 0 Negative: 3
Condition exists (P1:r0 == 1 /\ P1:r1 == 0)
Observation MP-rel-acq Never 0 3
`
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	code, out, _ = runLitmusCLI(t, litmusMP, "-")
	if code != exitOK || !strings.Contains(out, "\nTime MP-rel-acq ") {
		t.Errorf("no Time line by default:\n%s", out)
	}
}

func TestLitmusCLIExitCodes(t *testing.T) {
	if code, _, _ := runLitmusCLI(t, ""); code != exitUsage {
		t.Errorf("no files: exit %d, want %d", code, exitUsage)
	}
	if code, _, _ := runLitmusCLI(t, "", "-bogus", "x"); code != exitUsage {
		t.Errorf("bad flag: exit %d, want %d", code, exitUsage)
	}
	if code, _, _ := runLitmusCLI(t, "", "-default-cta", "maybe", "-"); code != exitUsage {
		t.Errorf("bad -default-cta: exit %d, want %d", code, exitUsage)
	}
	code, out, errs := runLitmusCLI(t, "PTX T\n{}\n P0 ;\n frob r0, x ;\nexists (x == 0)\n", "-")
	if code != exitErrors || out != "" || !strings.HasPrefix(errs, "<stdin>:4:2: error: unknown instruction") {
		t.Errorf("malformed test: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, errs := runLitmusCLI(t, "", "no-such-file.litmus"); code != exitErrors || !strings.Contains(errs, "no-such-file.litmus") {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
	if code, out, _ := runLitmusCLI(t, "", "-h"); code != exitOK || !strings.Contains(out, "usage: ptxvm litmus") {
		t.Errorf("-h: exit %d, output %q", code, out)
	}
}

func TestLitmusCLIExplainAndGraph(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runLitmusCLI(t, litmusMP, "-notime", "-explain", "-graph", dir, "-")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"Forbidden outcome P1:r0=1; P1:r1=0;", "rejected by Causality (8.10.6)", "P0 line 8: st.weak x, 42"} {
		if !strings.Contains(out, want) {
			t.Errorf("explanation lacks %q:\n%s", want, out)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.dot"))
	if len(files) != 3 {
		t.Fatalf("%d graphs, want one per state (3)", len(files))
	}
	dot, _ := os.ReadFile(files[0])
	for _, want := range []string{"digraph", "subgraph cluster_", "label=\"rf\"", "label=\"co\""} {
		if !strings.Contains(string(dot), want) {
			t.Errorf("graph lacks %q:\n%s", want, dot)
		}
	}
}

func TestLitmusCLIDirectory(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.litmus"), []byte(litmusMP), 0o644)
	os.WriteFile(filepath.Join(dir, "b.litmus"), []byte(strings.Replace(litmusMP, "ld.acquire.gpu", "ld.relaxed.gpu", 1)), 0o644)
	os.WriteFile(filepath.Join(dir, "ignored.txt"), []byte("junk"), 0o644)
	code, out, errs := runLitmusCLI(t, "", "-notime", dir)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "Observation MP-rel-acq Never 0 3") || !strings.Contains(out, "Observation MP-rel-acq Sometimes") {
		t.Errorf("output:\n%s", out)
	}
}

func TestLitmusCLIReadingFlags(t *testing.T) {
	src := strings.NewReplacer("st.weak x, 42           |", "st.weak x, 42           |",
		"st.release.gpu flag, 1  |", "fence.sc.gpu            |").Replace(litmusMP)
	src = strings.Replace(src, " | ld.weak r1, x            ;", " | ld.weak r1, x            ;\n st.relaxed.gpu flag, 1 | ;", 1)
	_, out, errs := runLitmusCLI(t, src, "-notime", "-")
	if !strings.Contains(out, "Observation MP-rel-acq Never") {
		t.Fatalf("default reading:\n%s%s", out, errs)
	}
	_, out, _ = runLitmusCLI(t, src, "-notime", "-sc-fence-patterns=false", "-")
	if !strings.Contains(out, "Observation MP-rel-acq Sometimes") {
		t.Errorf("-sc-fence-patterns=false:\n%s", out)
	}
}

// Two racy weak writes of x, each followed by a read of x in its own
// thread that sees the other thread's write: the partial coherence order
// of 8.9.6 leaves the writes unrelated, a total order cannot satisfy both
// reads (Causality, 8.10.6).
const litmusCoWRRace = `PTX CoWR-race
{
x=0;
}
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak x, 2   ;
 ld.weak r0, x  | ld.weak r0, x  ;
exists (P0:r0 == 2 /\ P1:r0 == 1)
`

func TestLitmusCLICoherenceFlag(t *testing.T) {
	_, out, errs := runLitmusCLI(t, litmusCoWRRace, "-notime", "-")
	if !strings.Contains(out, "Observation CoWR-race Sometimes") {
		t.Fatalf("default (partial coherence):\n%s%s", out, errs)
	}
	_, out, _ = runLitmusCLI(t, litmusCoWRRace, "-notime", "-coherence=total", "-")
	if !strings.Contains(out, "Observation CoWR-race Never") {
		t.Errorf("-coherence=total:\n%s", out)
	}
	if code, _, _ := runLitmusCLI(t, "", "-coherence", "maybe", "-"); code != exitUsage {
		t.Errorf("bad -coherence: exit %d, want %d", code, exitUsage)
	}
}

// P0 reads P1's racy write after its own: the final value of x comes from
// a write coherence-after every other write, and only P1's may be put
// last, so x ends at 2; with -final-value=maximal it may end at 1.
const litmusCoWRFinal = `PTX CoWR-final
{
x=0;
}
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak x, 2   ;
 ld.weak r0, x  |                ;
exists (P0:r0 == 2 /\ x == 1)
`

func TestLitmusCLIFinalValueFlag(t *testing.T) {
	_, out, errs := runLitmusCLI(t, litmusCoWRFinal, "-notime", "-")
	if !strings.Contains(out, "Observation CoWR-final Never") {
		t.Fatalf("default (-final-value=last):\n%s%s", out, errs)
	}
	_, out, _ = runLitmusCLI(t, litmusCoWRFinal, "-notime", "-final-value=maximal", "-")
	if !strings.Contains(out, "Observation CoWR-final Sometimes") {
		t.Errorf("-final-value=maximal:\n%s", out)
	}
	if code, _, _ := runLitmusCLI(t, "", "-final-value", "first", "-"); code != exitUsage {
		t.Errorf("bad -final-value: exit %d, want %d", code, exitUsage)
	}
}

// A write and a read of one physical location through two generic virtual
// aliases, with a constant proxy fence between them: 8.9.5 item 3 asks for
// an alias proxy fence (default), 8.6 for "a proxy fence" (-alias-fence=any).
const litmusAliasOtherFence = `PTX alias-other-fence
{
a=0;
b aliases a;
}
 P0@cta 0,gpu 0        ;
 st.weak a, 42         ;
 fence.proxy.constant  ;
 ld.weak r0, b         ;
exists (P0:r0 != 42)
`

func TestLitmusCLIAliasFenceFlag(t *testing.T) {
	_, out, errs := runLitmusCLI(t, litmusAliasOtherFence, "-notime", "-")
	if !strings.Contains(out, "Observation alias-other-fence Sometimes") {
		t.Fatalf("default (-alias-fence=alias):\n%s%s", out, errs)
	}
	_, out, _ = runLitmusCLI(t, litmusAliasOtherFence, "-notime", "-alias-fence=any", "-")
	if !strings.Contains(out, "Observation alias-other-fence Never") {
		t.Errorf("-alias-fence=any:\n%s", out)
	}
	if code, _, _ := runLitmusCLI(t, "", "-alias-fence", "none", "-"); code != exitUsage {
		t.Errorf("bad -alias-fence: exit %d, want %d", code, exitUsage)
	}
}
