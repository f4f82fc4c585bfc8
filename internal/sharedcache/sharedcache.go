// Package sharedcache keeps, for the whole process, answers worked out
// once from a key alone and never changed: what the checker finds for an
// opcode and modifier combination, what lowering decides from an
// instruction's shape. Every module's checker and every program's
// lowering share them, on any goroutine, so the values must own what they
// hold (no state of one module).
package sharedcache

import "sync"

// Limit bounds a Cache: past it new keys are not kept, so modules full of
// made-up modifiers cannot grow a cache without bound (their answers are
// worked out each time). The combinations and shapes in real use number
// a few thousand.
const Limit = 1 << 14

// initialRoom is the room a Cache's map is made with, on its first key: a
// module uses a few dozen combinations, and growing the map to that size
// one doubling at a time cost more than this (the checker's first check
// in a fresh process).
const initialRoom = 64

// A Cache maps keys to values computed once. The zero Cache is empty and
// ready.
type Cache[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V
}

// New returns an empty Cache.
func New[K comparable, V any]() *Cache[K, V] { return &Cache[K, V]{} }

// Get returns k's value, working it out with compute on a miss.
func (c *Cache[K, V]) Get(k K, compute func() V) V {
	if v, ok := c.Lookup(k); ok {
		return v
	}
	v := compute()
	c.Put(k, v)
	return v
}

// Lookup returns k's value if it is kept (Get without a function to make,
// for callers on hot paths).
func (c *Cache[K, V]) Lookup(k K) (V, bool) {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	return v, ok
}

// Put keeps v as k's value, while there is room.
func (c *Cache[K, V]) Put(k K, v V) {
	c.mu.Lock()
	if c.m == nil {
		c.m = make(map[K]V, initialRoom)
	}
	if len(c.m) < Limit {
		c.m[k] = v
	}
	c.mu.Unlock()
}
