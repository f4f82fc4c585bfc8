package litmus

import (
	"os"
	"testing"
)

func TestDebugRun(t *testing.T) {
	f := os.Getenv("LITMUS_FILE")
	if f == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(f)
	tt, err := Parse(f, string(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(tt, Options{Explain: os.Getenv("EXPLAIN") != ""})
	if err != nil {
		t.Fatal(err)
	}
	res.Write(os.Stdout, true)
	for _, e := range res.Explanations {
		os.Stdout.WriteString(e + "\n")
	}
}
