package isa

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// readList reads the non-comment lines of a spec list file; the first
// tab-separated field of each.
func readList(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		field, _, _ := strings.Cut(line, "\t")
		out = append(out, field)
	}
	return out
}

// exempt lists the sections and keywords that need no block
// (spec/exempt.tsv); the coverage tests skip exactly those and fail when one
// gets a block, so the list stays true.
func exempt(t *testing.T) map[string]bool {
	m := map[string]bool{}
	for _, s := range readList(t, "spec/exempt.tsv") {
		m[s] = true
	}
	return m
}

// TestKeywordsCovered: every reserved instruction keyword of Table 2
// (ptx-isa-9.0.txt 4.3.2) is the opcode of an instruction block.
func TestKeywordsCovered(t *testing.T) {
	gaps := exempt(t)
	for _, kw := range readList(t, "spec/keywords.txt") {
		has := len(Lookup(kw)) > 0
		switch {
		case !has && !gaps[kw]:
			t.Errorf("reserved keyword %q has no instruction block", kw)
		case has && gaps[kw]:
			t.Errorf("%q is covered now: remove it from spec/exempt.tsv", kw)
		}
	}
}

// TestSectionsCovered: every leaf section of 9.7, 10 and 11 in the manual's
// table of contents has a block (an instr block at or below it for 9.7, an
// sreg block for 10, a directive block for 11).
func TestSectionsCovered(t *testing.T) {
	sections := readList(t, "spec/sections.tsv")
	covered := map[string]bool{}
	mark := func(sec string) {
		for s := sec; s != ""; {
			covered[s] = true
			i := strings.LastIndexByte(s, '.')
			if i < 0 {
				break
			}
			s = s[:i]
		}
	}
	for _, in := range Instrs {
		mark(in.Section)
	}
	for _, r := range SpecialRegs {
		mark(r.Section)
	}
	for _, d := range Directives {
		mark(d.Section)
	}
	gaps := exempt(t)
	for i, s := range sections {
		leaf := i+1 == len(sections) || !strings.HasPrefix(sections[i+1], s+".")
		if !leaf {
			continue
		}
		switch {
		case !covered[s] && !gaps[s]:
			t.Errorf("section %s has no block", s)
		case covered[s] && gaps[s]:
			t.Errorf("section %s is covered now: remove it from spec/exempt.tsv", s)
		}
	}
}

// TestRequirementsWellFormed: every block states when it was introduced and
// which target it needs (the generator checks this too; this guards the
// generated file against hand edits).
func TestRequirementsWellFormed(t *testing.T) {
	for _, in := range Instrs {
		var ptx, target bool
		for _, r := range in.Requires {
			ptx = ptx || r.Kind == ReqPTX && r.When == nil
			target = target || r.Kind == ReqTarget && r.When == nil
		}
		if !ptx || !target {
			t.Errorf("%s (%s): missing base requirement", in.Opcode, in.Section)
		}
	}
}

func TestLookupSpecialReg(t *testing.T) {
	if len(SpecialRegs) == 0 {
		t.Skip("no special registers in the spec yet")
	}
	if r := LookupSpecialReg("%tid"); r == nil {
		t.Errorf("%%tid not found")
	}
	if r := LookupSpecialReg("%envreg31"); r == nil || r.Name != "%envreg" {
		t.Errorf("%%envreg31 not found")
	}
	if r := LookupSpecialReg("%envreg32"); r != nil {
		t.Errorf("%%envreg32 must not exist (%%envreg<32> is 0..31)")
	}
}
