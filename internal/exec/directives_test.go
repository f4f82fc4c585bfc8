package exec

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestLaunchDirectives: .maxntid, .reqntid, .reqnctapercluster,
// .explicitcluster and .maxclusterrank constrain launches (11.4).
func TestLaunchDirectives(t *testing.T) {
	for _, c := range []struct {
		name, dirs       string
		block, cluster   [3]int
		grid             int
		want             string // "" : the launch succeeds
		wantClusterRanks uint32
	}{
		{"maxntid ok", ".maxntid 128, 1, 1", [3]int{128, 1, 1}, [3]int{}, 2, "", 1},
		{"maxntid exceeded", ".maxntid 64", [3]int{128, 1, 1}, [3]int{}, 2, ".maxntid 64", 0},
		{"reqntid mismatch", ".reqntid 32, 2", [3]int{64, 1, 1}, [3]int{}, 2, ".reqntid", 0},
		{"reqntid ok", ".reqntid 32, 2", [3]int{32, 2, 1}, [3]int{}, 2, "", 1},
		{"reqnctapercluster supplies the cluster", ".reqnctapercluster 2, 1, 1", [3]int{32, 1, 1}, [3]int{}, 4, "", 2},
		{"reqnctapercluster mismatch", ".reqnctapercluster 2, 1, 1", [3]int{32, 1, 1}, [3]int{4, 1, 1}, 4, ".reqnctapercluster", 0},
		{"explicitcluster without one", ".explicitcluster", [3]int{32, 1, 1}, [3]int{}, 2, ".explicitcluster", 0},
		{"maxclusterrank exceeded", ".maxclusterrank 2", [3]int{32, 1, 1}, [3]int{4, 1, 1}, 4, ".maxclusterrank 2", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, g := load(t, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out) `+c.dirs+` {
	.reg .u32 %r;
	.reg .b64 %a;
	mov.u32 %r, %cluster_nctarank;
	ld.param.u64 %a, [out];
	st.global.u32 [%a], %r;
	ret;
}
`)
			out, _ := g.Alloc(4, 0)
			err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{c.grid, 1, 1}, Block: c.block,
				Cluster: c.cluster, Params: params(p.Kernels["k"], out), Workers: 1}) // every thread stores the same word
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				b, _ := g.Bytes(out, 4)
				if uint32(b[0]) != c.wantClusterRanks {
					t.Errorf("%%cluster_nctarank = %d, want %d", b[0], c.wantClusterRanks)
				}
				return
			}
			var f *Fault
			if !errors.As(err, &f) || f.Kind != FaultLimit || !strings.Contains(f.Msg, c.want) {
				t.Errorf("got %v, want a launch-limit fault mentioning %q", err, c.want)
			}
		})
	}
}
