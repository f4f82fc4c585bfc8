package bench

import (
	"context"
	"testing"
)

// TestSuiteSmall runs every benchmark of the committed suite at its small
// size and checks its outputs: a broken kernel, manifest or engine fails
// here, without timing anything.
func TestSuiteSmall(t *testing.T) {
	s, err := Load("../../testdata/bench")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range s.Benchmarks {
		t.Run(b.Name, func(t *testing.T) {
			in, err := Prepare(s, b, true)
			if err != nil {
				t.Fatal(err)
			}
			in.Reset()
			if _, err := in.Run(context.Background(), 2); err != nil {
				t.Fatal(err)
			}
			if err := in.Verify(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestVerifyCatchesWrongOutput: a changed output element is reported.
func TestVerifyCatchesWrongOutput(t *testing.T) {
	s, err := Load("../../testdata/bench")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"saxpy", "nbody"} {
		bs, err := s.Select([]string{name}, nil)
		if err != nil {
			t.Fatal(err)
		}
		in, err := Prepare(s, bs[0], true)
		if err != nil {
			t.Fatal(err)
		}
		in.Reset()
		if _, err := in.Run(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
		for i, b := range in.Size.Buffers {
			if b.Check != "" {
				data, _ := in.global.Bytes(in.addrs[i], 4)
				data[3] ^= 0x40 // the exponent of the first element
				break
			}
		}
		if err := in.Verify(); err == nil {
			t.Errorf("%s: Verify accepted a changed output", name)
		}
	}
}
