package litmus

import "math/bits"

// bitset is a set of small integers (event indices).
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) has(i int) bool { return b[i>>6]&(1<<uint(i&63)) != 0 }
func (b bitset) set(i int)      { b[i>>6] |= 1 << uint(i&63) }
func (b bitset) clear() {
	for i := range b {
		b[i] = 0
	}
}

// or adds o to b and reports whether b changed.
func (b bitset) or(o bitset) bool {
	changed := false
	for i, w := range o {
		if b[i]|w != b[i] {
			b[i] |= w
			changed = true
		}
	}
	return changed
}

func (b bitset) intersects(o bitset) bool {
	for i, w := range o {
		if b[i]&w != 0 {
			return true
		}
	}
	return false
}

func (b bitset) empty() bool {
	for _, w := range b {
		if w != 0 {
			return false
		}
	}
	return true
}

// each calls f for every member, in increasing order.
func (b bitset) each(f func(i int)) {
	for wi, w := range b {
		for w != 0 {
			t := bits.TrailingZeros64(w)
			f(wi*64 + t)
			w &= w - 1
		}
	}
}

// relation is a binary relation over n events: row i holds the j with i->j.
type relation []bitset

func newRelation(n int) relation {
	r := make(relation, n)
	words := (n + 63) / 64
	backing := make([]uint64, n*words)
	for i := range r {
		r[i] = backing[i*words : (i+1)*words]
	}
	return r
}

func (r relation) copyFrom(o relation) {
	for i := range r {
		copy(r[i], o[i])
	}
}

// close makes r transitive (Warshall's algorithm on bit rows).
func (r relation) close() {
	for k := range r {
		rk := r[k]
		for i := range r {
			if r[i].has(k) {
				r[i].or(rk)
			}
		}
	}
}
