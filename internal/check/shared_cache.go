package check

import (
	"sync"
	"sync/atomic"
)

// A sharedList is a short list shared like a sharedcache.Cache's values (the
// memos of an opcode and modifier combination): read without a lock, added
// to under one, its elements never changed once added.
type sharedList[T any] struct {
	mu sync.Mutex
	p  atomic.Pointer[[]T]
}

// get returns the list's elements.
func (l *sharedList[T]) get() []T {
	if p := l.p.Load(); p != nil {
		return *p
	}
	return nil
}

// add appends v, up to maxMemos elements (later ones are not kept).
func (l *sharedList[T]) add(v T) {
	l.mu.Lock()
	switch old := l.get(); {
	case len(old) >= maxMemos:
	case len(old) == 0:
		// most lists keep one element: it and the slice in one allocation
		one := &struct {
			s []T
			v [1]T
		}{}
		one.v[0] = v
		one.s = one.v[:]
		l.p.Store(&one.s)
	default:
		n := append(old[:len(old):len(old)], v)
		l.p.Store(&n)
	}
	l.mu.Unlock()
}
