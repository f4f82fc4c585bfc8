package exec

// The performance-tuning directives that constrain a launch (11.4):
// .maxntid and .reqntid bound and fix the CTA shape, .reqnctapercluster
// fixes the cluster shape (and supplies it when the launch gives none),
// .explicitcluster requires cluster dimensions, .maxclusterrank bounds the
// cluster size. CUDA refuses launches that break them; so does ptxvm.

import (
	"fmt"

	"github.com/ptxvm/ptxvm/ptx"
)

// launchShape checks the kernel's directives against a launch and returns
// the cluster dimensions to use (zero: none given).
func (k *Func) launchShape(block, cluster [3]int) ([3]int, error) {
	if k.IR.Decl == nil {
		return cluster, nil
	}
	fault := func(format string, args ...any) error {
		return &Fault{Kind: FaultLimit, Kernel: k.IR.Name, Msg: fmt.Sprintf(format, args...)}
	}
	for _, d := range k.IR.Decl.Directives {
		dims := [3]int{1, 1, 1}
		for i, e := range d.Args {
			if i >= 3 {
				break
			}
			c, err := ptx.EvalConst(e)
			if err != nil {
				return cluster, fault("%s: %v", d.Name, err)
			}
			dims[i] = int(c.Bits)
		}
		n := dims[0] * dims[1] * dims[2]
		switch d.Name {
		case ".maxntid":
			if t := block[0] * block[1] * block[2]; t > n {
				return cluster, fault("%d threads per block exceed the kernel's .maxntid %d", t, n)
			}
		case ".reqntid":
			if block != dims {
				return cluster, fault("block %v is not the kernel's .reqntid %v", block, dims)
			}
		case ".reqnctapercluster":
			switch {
			case cluster == [3]int{}:
				cluster = dims
			case cluster != dims:
				return cluster, fault("cluster %v is not the kernel's .reqnctapercluster %v", cluster, dims)
			}
		}
	}
	for _, d := range k.IR.Decl.Directives { // with the cluster shape settled
		switch {
		case d.Name == ".explicitcluster" && cluster == [3]int{}:
			return cluster, fault("the kernel is .explicitcluster: the launch must give cluster dimensions")
		case d.Name == ".maxclusterrank" && len(d.Args) == 1:
			c, err := ptx.EvalConst(d.Args[0])
			if err != nil {
				return cluster, fault("%s: %v", d.Name, err)
			}
			if n := cluster[0] * cluster[1] * cluster[2]; n > int(c.Bits) {
				return cluster, fault("a cluster of %d CTAs exceeds the kernel's .maxclusterrank %d", n, c.Bits)
			}
		}
	}
	return cluster, nil
}
