package check

// nameLens is the set of the lengths of a scope's names (mod 64). A
// scope's names map is asked only for a name of a length one of them
// has: registers (%r12) are mostly found from ranges, and their names
// are short where variables' and labels' are long, so most register
// lookups skip hashing the name for a map that does not hold it.
type nameLens uint64

func (l *nameLens) add(name string) { *l |= 1 << (len(name) & 63) }

func (l nameLens) has(name string) bool { return l&(1<<(len(name)&63)) != 0 }
