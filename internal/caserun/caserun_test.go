package caserun_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/casefile"
	"github.com/ptxvm/ptxvm/internal/caserun"
)

// TestClusterLaunchRefused: a launch with a cluster of more than one CTA
// is reported unsupported, not run as if the CTAs were independent.
func TestClusterLaunchRefused(t *testing.T) {
	c := &casefile.Case{Name: "c", Kernel: "k", Grid: [3]int{2, 1, 1}, Block: [3]int{32, 1, 1},
		Cluster: [3]int{2, 1, 1}, HasCluster: true,
		PTXText: ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n"}
	rs := caserun.Run(context.Background(), c, caserun.Options{Workers: 1})
	if len(rs) != 1 || rs[0].Pass || !strings.Contains(rs[0].Detail, "unsupported: a launch with cluster") {
		t.Fatalf("got %+v, want an unsupported result", rs)
	}
	c.Cluster = [3]int{1, 1, 1}
	if rs := caserun.Run(context.Background(), c, caserun.Options{Workers: 1}); !rs[0].Pass {
		t.Errorf("a 1x1x1 cluster: %+v, want a pass", rs[0])
	}
}
