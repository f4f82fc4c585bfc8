package check

// Calls: call sites against function signatures and prototypes, ret, and
// the ABI rules of ptx-isa-9.0.txt chapter 7 and 9.7.12.6. (Being written.)

// calls checks every call instruction of the module.
func (c *checker) calls() {}
