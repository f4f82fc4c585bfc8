package model

import "strconv"

func (t Target) String() string {
	s := "sm_" + strconv.Itoa(t.SM)
	if t.Suffix != 0 {
		s += string(t.Suffix)
	}
	return s
}

// Family returns the architecture family of an SM number (Table 62 of
// ptx-isa-9.0.txt 11.1.2): sm_100 and sm_103 are the sm_10x family, sm_110
// and sm_101 (renamed sm_110) the sm_11x family, sm_120 and sm_121 sm_12x.
func Family(sm int) int {
	if sm == 101 {
		return 11
	}
	return sm / 10
}

// Satisfies reports whether code for target t may use a feature that
// requires req (11.1.2): a plain sm_NN requirement is met by any target of
// that or a later architecture (the onion-layer model); sm_NNa only by
// sm_NNa itself; sm_NNf by f- or a-targets of the same family and of
// architecture NN or later.
func (t Target) Satisfies(req Target) bool {
	switch req.Suffix {
	case 'a':
		return t.SM == req.SM && t.Suffix == 'a'
	case 'f':
		return t.Suffix != 0 && Family(t.SM) == Family(req.SM) && t.SM >= req.SM
	}
	return t.SM >= req.SM
}
