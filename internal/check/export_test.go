package check

import "github.com/ptxvm/ptxvm/internal/sharedcache"

// resetSharedCaches empties the checker's process-wide caches, so that a
// benchmark can time the first check of a module in a fresh process.
func resetSharedCaches() {
	sharedForms = sharedcache.New[string, []formShape]()
	sharedChoices = sharedcache.New[choiceKey, []choice]()
}
