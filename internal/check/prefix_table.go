package check

// prefixTable maps the prefixes of parameterized register names (%r of
// %r<100>) to their declarations in one scope. Every register operand is
// looked up by its prefix (splitIndex), and a scope declares a few
// prefixes (%r, %rd, %p, %f): a list compared in order costs less than
// hashing, up to prefixTableList of them; past that a map takes the rest,
// so a module of made-up prefixes stays linear.
type prefixTable[T any] struct {
	list []prefixEntry[T]
	more map[string][]T
}

type prefixEntry[T any] struct {
	prefix string
	decls  []T
}

const prefixTableList = 8

// add appends d to prefix's declarations.
func (t *prefixTable[T]) add(prefix string, d T) {
	for i := range t.list {
		if t.list[i].prefix == prefix {
			t.list[i].decls = append(t.list[i].decls, d)
			return
		}
	}
	if len(t.list) < prefixTableList {
		t.list = append(t.list, prefixEntry[T]{prefix, []T{d}})
		return
	}
	if t.more == nil {
		t.more = map[string][]T{}
	}
	t.more[prefix] = append(t.more[prefix], d)
}

// get returns prefix's declarations, in the order they were added (the
// table's own slice: an element changed through it stays changed).
func (t *prefixTable[T]) get(prefix string) []T {
	for i := range t.list {
		if t.list[i].prefix == prefix {
			return t.list[i].decls
		}
	}
	return t.more[prefix]
}

// empty reports whether the table holds no declaration.
func (t *prefixTable[T]) empty() bool { return len(t.list) == 0 }
