package caserun_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/casefile"
	"github.com/ptxvm/ptxvm/internal/caserun"
)

// TestClusterLaunch: a case's cluster reaches the launch: the kernel
// stores %cluster_nctarank, and a grid that the cluster does not divide is
// an error.
func TestClusterLaunch(t *testing.T) {
	src := `{"format": "ptxvm-case/1", "case": "c", "kernel": "k",
  "ptx_text": ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 o) { .reg .u32 %r; .reg .u64 %a; mov.u32 %r, %cluster_nctarank; ld.param.u64 %a, [o]; st.global.u32 [%a], %r; ret; }\n",
  "grid": [GRID, 1, 1], "block": [32, 1, 1], "cluster": [2, 1, 1],
  "params": [{"kind": "ptr", "buffer": "out"}],
  "buffers": [{"name": "out", "type": "u32", "count": 1, "expected": [2]}]}`
	run := func(grid string) caserun.Result {
		c, err := casefile.Parse([]byte(strings.Replace(src, "GRID", grid, 1)), ".")
		if err != nil {
			t.Fatal(err)
		}
		rs := caserun.Run(context.Background(), c, caserun.Options{Workers: 1})
		if len(rs) != 1 {
			t.Fatalf("%d results", len(rs))
		}
		return rs[0]
	}
	if r := run("4"); !r.Pass {
		t.Errorf("grid 4, cluster 2: %+v, want a pass", r)
	}
	if r := run("3"); r.Pass || !strings.Contains(r.Detail+errString(r.Err), "not a multiple of cluster") {
		t.Errorf("grid 3, cluster 2: %+v, want a failure", r)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
