package exec

import "sync"

// A planCache keeps, for the whole process, what lowering decides from an
// instruction's shape alone (its opcode, modifiers, types, operand count),
// shared by every program's lowering on any goroutine: the functions it
// holds must read nothing they do not own. It stops taking keys at
// planCacheLimit, so modules of made-up shapes cannot grow it without
// bound; their plans are then worked out each time.
type planCache[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V
}

// planCacheLimit bounds a planCache (the shapes in real use number a few
// thousand).
const planCacheLimit = 1 << 14

func newPlanCache[K comparable, V any]() *planCache[K, V] {
	return &planCache[K, V]{m: map[K]V{}}
}

// get returns k's plan, working it out with plan on a miss.
func (c *planCache[K, V]) get(k K, plan func() V) V {
	if v, ok := c.lookup(k); ok {
		return v
	}
	v := plan()
	c.put(k, v)
	return v
}

// lookup returns k's plan if it is kept (get without a function to make,
// for callers on hot paths).
func (c *planCache[K, V]) lookup(k K) (V, bool) {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	return v, ok
}

// put keeps v as k's plan, while there is room.
func (c *planCache[K, V]) put(k K, v V) {
	c.mu.Lock()
	if len(c.m) < planCacheLimit {
		c.m[k] = v
	}
	c.mu.Unlock()
}
