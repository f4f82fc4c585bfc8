package litmus

import (
	"os"
	"testing"
)

func benchFile(b *testing.B, file string) {
	src, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	tt, err := Parse(file, string(src))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var cands int64
	for i := 0; i < b.N; i++ {
		res, err := Run(tt, Options{})
		if err != nil {
			b.Fatal(err)
		}
		cands = res.Candidates
	}
	b.ReportMetric(float64(cands), "candidates")
}

// BenchmarkLitmus times bigger tests: IRIW (4 threads), 2+2W, IRIW with
// two writes per writer, a six-thread release/acquire chain, a ticket lock
// with spin loops.
func BenchmarkLitmus(b *testing.B) {
	for _, c := range []struct{ name, file string }{
		{"IRIW-sc", "testdata/variants/IRIW-sc.litmus"},
		{"2+2W-sc", "testdata/variants/2+2W-sc.litmus"},
		{"IRIW-sc-2W", "testdata/bench/iriw-sc-x2.litmus"},
		{"Chain6", "testdata/bench/chain6.litmus"},
		{"Ticketlock", "testdata/format/ticketlock.litmus"},
	} {
		b.Run(c.name, func(b *testing.B) { benchFile(b, c.file) })
	}
}
