// Package litmus decides which outcomes of PTX litmus tests the PTX memory
// consistency model (chapter 8 of the PTX ISA manual) allows.
//
// A test is parsed (Parse) into a Test: an init block, one program per
// thread with its position in the thread hierarchy, and a final condition.
// Run explores it exhaustively: every control-flow path of every thread
// under every value its reads may return (bounded by an unrolling limit),
// every reads-from choice, every Fence-SC order and every coherence order,
// and keeps the candidate executions that the axioms of 8.10 allow. The
// result lists the reachable final states and the herd-style verdict.
//
// The pipeline is parse -> paths (per thread, paths.go) -> candidate
// executions (enumerate.go) -> relations and axioms (model.go) -> output
// (output.go, explain.go, graph.go). docs/litmus.md describes the accepted
// format and every reading of the manual this package chose.
package litmus
