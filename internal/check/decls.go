package check

// Declaration rules: which state spaces may be declared where, initializers,
// alignment, vectors, parameters (ptx-isa-9.0.txt 5.1, 5.4, 7). (Being written.)

// declarations checks every variable declaration of the module.
func (c *checker) declarations() {}
