package check

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/isa"
)

// TestMatchModsSameAnswers: matchMods answers as the plain search it
// replaced (refMatchMods: no early rejections) for every form of the
// table, given modifier lists made of the form's own values (in order,
// shuffled, with one left out or one of another form's added).
func TestMatchModsSameAnswers(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var all []string
	for i := range isa.Instrs {
		for _, f := range isa.Instrs[i].Forms {
			for _, s := range f.Mods {
				all = append(all, s.Values...)
			}
		}
	}
	tried, matched := 0, 0
	for i := range isa.Instrs {
		forms := isa.Instrs[i].Forms
		for fi := range forms {
			for try := 0; try < 12; try++ {
				// modifiers from one form, tried against every form of the block
				var mods []string
				for _, s := range forms[fi].Mods {
					if len(s.Values) > 0 && (!s.Optional || rng.Intn(2) == 0) {
						v := s.Values[rng.Intn(len(s.Values))]
						mods = append(mods, splitWords(v)...)
					}
				}
				switch try % 4 {
				case 1:
					rng.Shuffle(len(mods), func(a, b int) { mods[a], mods[b] = mods[b], mods[a] })
				case 2:
					if len(mods) > 0 {
						mods = slices.Delete(mods, 0, 1)
					}
				case 3:
					mods = append(mods, all[rng.Intn(len(all))])
				}
				for gi := range forms {
					want, wantOK := refMatchMods(forms[gi].Mods, mods)
					got := make([]string, len(forms[gi].Mods))
					ok := matchMods(forms[gi].Mods, mods, got)
					tried++
					if ok {
						matched++
					}
					if ok != wantOK || ok && !slices.Equal(got, want) {
						t.Fatalf("%s %v: got %q %v, want %q %v", forms[gi].Text, mods, got, ok, want, wantOK)
					}
				}
			}
		}
	}
	t.Logf("%d of %d matched", matched, tried)
	if matched == 0 || matched == tried {
		t.Fatalf("%d of %d matched: the lists test nothing", matched, tried)
	}
}

// splitWords splits a compound value (".async.global") into its modifiers.
func splitWords(v string) []string {
	var out []string
	for v != "" {
		i := strings.IndexByte(v[1:], '.') + 1
		if i == 0 {
			i = len(v)
		}
		out, v = append(out, v[:i]), v[i:]
	}
	return out
}

// refMatchMods is matchMods as first written: the in-order search, then
// the any-order one, with nothing rejected early.
func refMatchMods(slots []isa.ModSlot, mods []string) ([]string, bool) {
	chosen := make([]string, len(slots))
	var inOrder func(slots []isa.ModSlot, mods, chosen []string) bool
	inOrder = func(slots []isa.ModSlot, mods, chosen []string) bool {
		if len(slots) == 0 {
			return len(mods) == 0
		}
		s := slots[0]
		if s.Optional && inOrder(slots[1:], mods, chosen[1:]) {
			chosen[0] = ""
			return true
		}
		for _, v := range s.Values {
			if n := prefixLen(v, mods); n > 0 && inOrder(slots[1:], mods[n:], chosen[1:]) {
				chosen[0] = v
				return true
			}
		}
		return false
	}
	if inOrder(slots, mods, chosen) {
		return chosen, true
	}
	clear(chosen)
	if len(mods) > 16 {
		return nil, false
	}
	var assign func(i int) bool
	assign = func(i int) bool {
		if i == len(mods) {
			for j, s := range slots {
				if !s.Optional && chosen[j] == "" {
					return false
				}
			}
			return true
		}
		for j, s := range slots {
			if chosen[j] != "" {
				continue
			}
			for _, v := range s.Values {
				if v == mods[i] {
					chosen[j] = v
					if assign(i + 1) {
						return true
					}
					chosen[j] = ""
					break
				}
			}
		}
		return false
	}
	if assign(0) {
		return chosen, true
	}
	return nil, false
}
