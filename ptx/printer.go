package ptx

import "io"

// Print writes m in canonical PTX format. (Stub; being written.)
func Print(w io.Writer, m *Module) error { return nil }

// Format returns m in canonical PTX format.
func Format(m *Module) []byte { return nil }
