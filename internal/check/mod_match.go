package check

// Matching an instruction's modifiers to a form's modifier slots. A fresh
// process matches each new opcode and modifier combination against every
// form of its opcode, and most forms fail: a failure allocates nothing.

import (
	"strings"

	"github.com/ptxvm/ptxvm/internal/isa"
)

// matchMods reports whether mods fill the slots: in order, each optional
// slot taken at most once; compound values (`.async.global`) take several
// modifiers. If the written order differs from the manual's, any order is
// accepted as long as each modifier fills a distinct slot and every
// required slot is filled. It writes the value chosen for each slot to
// chosen (len(slots) long; "" for an optional slot left empty).
func matchMods(slots []isa.ModSlot, mods []string, chosen []string) bool {
	// every required slot takes at least one modifier, in either order
	required := 0
	for i := range slots {
		if !slots[i].Optional {
			required++
		}
	}
	if required > len(mods) || !requiredWritten(slots, mods) {
		return false
	}
	m := inOrder{slots: slots, mods: mods, chosen: chosen}
	if m.match(0, 0) {
		return true
	}
	clear(chosen)
	return matchAnyOrder(slots, mods, chosen)
}

// requiredWritten is false when a required slot whose values are all one
// word (".u32", not ".async.global") has none of them among mods: in
// either order such a slot takes one modifier equal to a value. Most
// forms an instruction does not fit fail here, before any search.
func requiredWritten(slots []isa.ModSlot, mods []string) bool {
	if containsString(mods, "") { // (an empty modifier could join words)
		return true
	}
next:
	for i := range slots {
		s := &slots[i]
		if s.Optional {
			continue
		}
		for _, v := range s.Values {
			if containsString(mods, v) {
				continue next
			}
		}
		for _, v := range s.Values {
			if len(v) > 0 && strings.IndexByte(v[1:], '.') >= 0 {
				continue next // a compound value may be written in words
			}
		}
		return false
	}
	return true
}

// inOrder is the in-order search: slots[i:] taking mods[j:]. A form's
// optional slots can each be skipped or not, so the same (i, j) is reached
// along many paths: failed remembers the ones that cannot fit.
type inOrder struct {
	slots  []isa.ModSlot
	mods   []string
	chosen []string
	failed [24]uint32 // bit j of failed[i]: slots[i:] cannot take mods[j:]
}

// match writes chosen[i:] only when it succeeds.
func (m *inOrder) match(i, j int) bool {
	if i == len(m.slots) {
		return j == len(m.mods)
	}
	memo := i < len(m.failed) && j < 32
	if memo && m.failed[i]&(1<<j) != 0 {
		return false
	}
	s := &m.slots[i]
	if s.Optional && m.match(i+1, j) {
		m.chosen[i] = ""
		return true
	}
	if j < len(m.mods) {
		for _, v := range s.Values {
			if n := prefixLen(v, m.mods[j:]); n > 0 && m.match(i+1, j+n) {
				m.chosen[i] = v
				return true
			}
		}
	}
	if memo {
		m.failed[i] |= 1 << j
	}
	return false
}

// prefixLen returns how many modifiers at the start of mods spell v, or 0.
func prefixLen(v string, mods []string) int {
	n := 0
	for rest := v; rest != ""; n++ {
		if n >= len(mods) || !strings.HasPrefix(rest, mods[n]) {
			return 0
		}
		rest = rest[len(mods[n]):]
		if rest != "" && rest[0] != '.' {
			return 0
		}
	}
	return n
}

// matchAnyOrder gives each modifier a distinct slot that has it as a
// value, the first such slot that lets the rest fit, and requires every
// required slot filled.
func matchAnyOrder(slots []isa.ModSlot, mods []string, chosen []string) bool {
	if len(mods) > 16 { // bound the search on absurd input
		return false
	}
	// a modifier no slot has as a value fits nowhere: no search
	for _, m := range mods {
		if !anySlotHas(slots, m) {
			return false
		}
	}
	return assignAnyOrder(slots, mods, chosen)
}

func anySlotHas(slots []isa.ModSlot, m string) bool {
	for i := range slots {
		if containsString(slots[i].Values, m) {
			return true
		}
	}
	return false
}

// assignAnyOrder is matchAnyOrder's search: mods[0] takes the first free
// slot with its value from which the rest can be assigned.
func assignAnyOrder(slots []isa.ModSlot, mods []string, chosen []string) bool {
	if len(mods) == 0 {
		for j := range slots {
			if !slots[j].Optional && chosen[j] == "" {
				return false
			}
		}
		return true
	}
	for j := range slots {
		if chosen[j] != "" || !containsString(slots[j].Values, mods[0]) {
			continue
		}
		chosen[j] = mods[0]
		if assignAnyOrder(slots, mods[1:], chosen) {
			return true
		}
		chosen[j] = ""
	}
	return false
}
