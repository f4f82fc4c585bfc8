package exec

// shflRows is a whole-warp shfl.b32 with immediate b and c (every lane's
// source lane known at load) as a table for shflRow32: each 4-lane chunk
// of the result whose four sources lie within four consecutive lanes is
// one 32-byte load from the first of those lanes and one VPERMD (a shift,
// a butterfly within the chunk, a clamped end, a broadcast); the other
// chunks take their lanes one by one. Its layout is shflRow32's (the
// offsets pinned by TestShflRowLayout).
type shflRows struct {
	off  [warpSize / 4]int32     // per chunk: byte offset of its sources' first lane, -1: lane by lane
	idx  [warpSize / 4][8]uint32 // per chunk: VPERMD's dword indices (each lane's source's low half)
	lane [warpSize]uint8         // per lane: its source lane
}

func newShflRows(perm *[warpSize]uint8) *shflRows {
	t := &shflRows{lane: *perm}
	for j := range t.off {
		lo, hi := perm[4*j], perm[4*j]
		for q := 1; q < 4; q++ {
			lo, hi = min(lo, perm[4*j+q]), max(hi, perm[4*j+q])
		}
		if hi-lo > 3 {
			t.off[j] = -1
			continue
		}
		s0 := min(lo, warpSize-4)
		t.off[j] = int32(s0) * 8
		for q := range 4 {
			src := uint32(perm[4*j+q] - s0)
			t.idx[j][2*q], t.idx[j][2*q+1] = 2*src, 2*src+1
		}
	}
	return t
}

// shflRow sets d[i] to the low half of a[t.lane[i]] (d and a distinct
// rows).
func shflRow(d, a *lanes, t *shflRows) {
	if simdEnabled {
		shflRow32(d, a, t)
		return
	}
	for i, j := range t.lane {
		d[i] = a[j&(warpSize-1)] & 0xffffffff
	}
}
