package isa

import "testing"

// TestSatisfies: the a/f target rules of ptx-isa-9.0.txt 11.1.2.
func TestSatisfies(t *testing.T) {
	cases := []struct {
		target, req string
		want        bool
	}{
		{"sm_80", "sm_70", true}, {"sm_70", "sm_80", false}, {"sm_90a", "sm_90", true},
		{"sm_100f", "sm_90", true}, {"sm_90", "sm_90a", false}, {"sm_90a", "sm_90a", true},
		{"sm_100a", "sm_90a", false}, // arch-specific features do not carry forward
		{"sm_100f", "sm_100f", true}, {"sm_100a", "sm_100f", true}, {"sm_103a", "sm_100f", true},
		{"sm_103f", "sm_100f", true}, {"sm_100", "sm_100f", false}, {"sm_120f", "sm_100f", false},
		{"sm_100f", "sm_103f", false}, {"sm_110f", "sm_101f", true}, {"sm_101a", "sm_110f", false},
	}
	for _, c := range cases {
		tg, ok1 := ParseTarget(c.target)
		rq, ok2 := ParseTarget(c.req)
		if !ok1 || !ok2 {
			t.Fatalf("parse %s %s", c.target, c.req)
		}
		if got := tg.Satisfies(rq); got != c.want {
			t.Errorf("%s satisfies %s = %v, want %v", c.target, c.req, got, c.want)
		}
	}
}

func TestTargetsTable(t *testing.T) {
	for name, v := range map[string]Version{"sm_10": {Major: 1}, "sm_90a": {Major: 8}, "sm_100f": {Major: 8, Minor: 8}, "sm_120": {Major: 8, Minor: 7}} {
		info, ok := Targets[name]
		if !ok {
			t.Errorf("%s missing from targets.tsv", name)
			continue
		}
		if info.MinVersion != v {
			t.Errorf("%s introduced in %v, want %v", name, info.MinVersion, v)
		}
	}
}
