package exec

import (
	"sort"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/isa"
)

// notYet lists the opcodes of the instruction table the engine has no
// lowerer for, and the work that brings them. Loading a module that uses
// one fails with "unsupported: <instruction>". The test fails when an
// opcode gains a lowerer (remove it here) or the table gains an opcode
// (decide where it goes), so the list stays true.
var notYet = map[string]string{
	"clusterlaunchcontrol": "cooperation", "multimem": "cooperation",
	"tex": "textures", "tld4": "textures", "txq": "textures", "istypep": "textures",
	"suld": "surfaces", "sust": "surfaces", "sured": "surfaces", "suq": "surfaces",
	"wmma": "tensor cores", "mma": "tensor cores", "ldmatrix": "tensor cores", "stmatrix": "tensor cores",
	"movmatrix": "tensor cores", "wgmma": "tensor cores", "tcgen05": "tensor cores", "tensormap": "tensor maps",
	"vabsdiff": "video", "vadd": "video", "vsub": "video", "vmad": "video", "vmax": "video", "vmin": "video",
	"vset": "video", "vshl": "video", "vshr": "video", "vabsdiff2": "video", "vabsdiff4": "video",
	"vadd2": "video", "vadd4": "video", "vavrg2": "video", "vavrg4": "video", "vmax2": "video", "vmax4": "video",
	"vmin2": "video", "vmin4": "video", "vset2": "video", "vset4": "video", "vsub2": "video", "vsub4": "video",
}

func TestLowererCoverage(t *testing.T) {
	var missing, stale []string
	seen := map[string]bool{}
	for _, in := range isa.Instrs {
		if seen[in.Opcode] {
			continue
		}
		seen[in.Opcode] = true
		_, has := lowerers[in.Opcode]
		_, listed := notYet[in.Opcode]
		switch {
		case !has && !listed:
			missing = append(missing, in.Opcode)
		case has && listed:
			stale = append(stale, in.Opcode)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	if len(missing) > 0 {
		t.Errorf("opcodes with no lowerer and not in notYet: %s", strings.Join(missing, " "))
	}
	if len(stale) > 0 {
		t.Errorf("opcodes in notYet that have a lowerer now (remove them): %s", strings.Join(stale, " "))
	}
}
