package isa

import (
	_ "embed"

	"github.com/ptxvm/ptxvm/internal/isa/model"
	"strconv"
	"strings"
)

//go:embed spec/targets.tsv
var targetsTSV string

// TargetInfo is one row of spec/targets.tsv: a .target name and the PTX
// version that introduced it (ptx-isa-9.0.txt 11.1.2 and Table 63).
type TargetInfo struct {
	Name       string
	MinVersion Version
	MaxVersion Version // zero: still accepted by the newest version
	Notes      string
}

// Targets maps every .target string (architectures and platform options) to its row.
var Targets = func() map[string]TargetInfo {
	m := map[string]TargetInfo{}
	for _, line := range strings.Split(targetsTSV, "\n") {
		if line == "" || line[0] == '#' || strings.HasPrefix(line, "target\t") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 2 {
			continue
		}
		info := TargetInfo{Name: f[0], MinVersion: mustVersion(f[1])}
		if len(f) > 2 {
			info.Notes = f[2]
			// "last accepted in 8.8": renamed targets (sm_101 -> sm_110)
			if i := strings.Index(info.Notes, "last accepted in "); i >= 0 {
				info.MaxVersion = mustVersion(strings.Fields(info.Notes[i+len("last accepted in "):])[0])
			}
		}
		m[f[0]] = info
	}
	return m
}()

func mustVersion(s string) Version {
	s = strings.TrimRight(s, ").,;")
	a, b, ok := strings.Cut(s, ".")
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return Version{}
	}
	return Version{Major: uint8(x), Minor: uint8(y)}
}

// ParseTarget parses "sm_90a" or "compute_90a" into a Target.
func ParseTarget(s string) (Target, bool) {
	var num string
	switch {
	case strings.HasPrefix(s, "sm_"):
		num = s[3:]
	case strings.HasPrefix(s, "compute_"):
		num = s[8:]
	default:
		return Target{}, false
	}
	var t Target
	if n := len(num); n > 0 && (num[n-1] == 'a' || num[n-1] == 'f') {
		t.Suffix = num[n-1]
		num = num[:n-1]
	}
	sm, err := strconv.Atoi(num)
	if err != nil || sm <= 0 {
		return Target{}, false
	}
	t.SM = sm
	return t, true
}

// Family returns the architecture family of an SM number; see model.Family.
func Family(sm int) int { return model.Family(sm) }
