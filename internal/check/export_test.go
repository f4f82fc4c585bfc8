package check

// resetSharedCaches empties the checker's process-wide caches, so that a
// benchmark can time the first check of a module in a fresh process.
func resetSharedCaches() {
	sharedForms = newSharedCache[string, []formShape]()
	sharedChoices = newSharedCache[choiceKey, []choice]()
}
