package ptx

import (
	"fmt"
	"sort"
	"strings"
)

// Severity says whether a Diagnostic is an error or a warning.
type Severity int

const (
	SeverityError Severity = iota
	SeverityWarning
)

func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// Diagnostic is one positioned message about the source.
type Diagnostic struct {
	Pos      Pos
	Severity Severity
	Msg      string
}

// Error formats d as `file:line:col: error: message`.
func (d *Diagnostic) Error() string {
	return fmt.Sprintf("%s: %s: %s", d.Pos, d.Severity, d.Msg)
}

// DiagnosticList is a list of diagnostics; as an error it prints one per line.
type DiagnosticList []*Diagnostic

func (l DiagnosticList) Error() string {
	var b strings.Builder
	for i, d := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.Error())
	}
	return b.String()
}

// HasErrors reports whether l contains at least one error (not only warnings).
func (l DiagnosticList) HasErrors() bool {
	for _, d := range l {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Sort orders l by file, line and column, keeping the order of equal positions.
func (l DiagnosticList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}
