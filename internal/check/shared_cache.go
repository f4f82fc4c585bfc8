package check

import (
	"sync"
	"sync/atomic"
)

// sharedCache is a process-wide map from keys to values computed once and
// never changed (shared by the checkers of every module, on any
// goroutine). It stops taking new keys at sharedCacheLimit entries, so
// modules full of made-up modifiers cannot grow it without bound; their
// answers are then computed each time.
type sharedCache[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V
}

// sharedCacheLimit bounds a sharedCache (the ISA's opcode and modifier
// combinations in real use number a few thousand).
const sharedCacheLimit = 1 << 14

// sharedCacheSize is the room a sharedCache's map is made with, on its
// first key: a module uses a few dozen combinations, and growing the map
// to that size one doubling at a time cost more than this.
const sharedCacheSize = 64

func newSharedCache[K comparable, V any]() *sharedCache[K, V] {
	return &sharedCache[K, V]{}
}

// get returns k's value, computing it on a miss.
func (c *sharedCache[K, V]) get(k K, compute func() V) V {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = compute()
	c.mu.Lock()
	if c.m == nil {
		c.m = make(map[K]V, sharedCacheSize)
	}
	if len(c.m) < sharedCacheLimit {
		c.m[k] = v
	}
	c.mu.Unlock()
	return v
}

// A sharedList is a short list shared like a sharedCache's values (the
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
