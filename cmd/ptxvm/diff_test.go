package main

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"x\n", "x\n", ""},
		{"", "a\n", "@@ -0,0 +1 @@\n+a\n"},
		{"a\n", "", "@@ -1 +0,0 @@\n-a\n"},
		{"a\nb\nc\n", "a\nB\nc\n", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"a\nb", "a\nb\n", "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		// Changes far apart make two hunks; near ones share one.
		{
			"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
			"1\nX\n3\n4\n5\n6\n7\n8\n9\n10\n11\nY\n",
			"@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+Y\n",
		},
		{
			"1\n2\n3\n4\n5\n6\n7\n8\n9\n",
			"1\nX\n3\n4\n5\n6\n7\nY\n9\n",
			"@@ -1,9 +1,9 @@\n 1\n-2\n+X\n 3\n 4\n 5\n 6\n 7\n-8\n+Y\n 9\n",
		},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		writeUnifiedDiff(&buf, "a", "b", []byte(tt.a), []byte(tt.b))
		want := tt.want
		if want != "" {
			want = "diff a b\n--- a\n+++ b\n" + want
		}
		if got := buf.String(); got != want {
			t.Errorf("diff %q %q:\ngot:\n%s\nwant:\n%s", tt.a, tt.b, got, want)
		}
		if got := applyDiff(t, tt.a, buf.String()); got != tt.b {
			t.Errorf("applying the diff of %q to %q gives %q", tt.b, tt.a, got)
		}
	}
}

// diffLines returns a correct and minimal edit script: compare with the
// longest common subsequence on random small inputs.
func TestDiffLinesMinimal(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	gen := func() []byte {
		var s strings.Builder
		for n := r.Intn(12); n > 0; n-- {
			s.WriteString(string(rune('a'+r.Intn(4))) + "\n")
		}
		if r.Intn(4) == 0 {
			s.WriteString("z") // no final newline
		}
		return []byte(s.String())
	}
	for range 5000 {
		A, B := gen(), gen()
		a, b := splitLines(A), splitLines(B)
		var gotA, gotB []byte
		kept := 0
		var ia, ib int
		for _, l := range diffLines(a, b) {
			if l.a != ia || l.b != ib {
				t.Fatalf("%q -> %q: line %+v at a=%d b=%d", A, B, l, ia, ib)
			}
			if l.kind != '+' {
				gotA = append(gotA, l.text...)
				ia++
			}
			if l.kind != '-' {
				gotB = append(gotB, l.text...)
				ib++
			}
			if l.kind == ' ' {
				kept++
			}
		}
		if !bytes.Equal(gotA, A) || !bytes.Equal(gotB, B) {
			t.Fatalf("%q -> %q: the script does not rebuild both sides", A, B)
		}
		if want := lcsLen(a, b); kept != want {
			t.Fatalf("%q -> %q: keeps %d lines, the LCS has %d", A, B, kept, want)
		}
		var buf bytes.Buffer
		writeUnifiedDiff(&buf, "a", "b", A, B)
		if got := applyDiff(t, string(A), buf.String()); got != string(B) {
			t.Fatalf("%q -> %q: applying the diff gives %q\n%s", A, B, got, buf.String())
		}
	}
}

func lcsLen(a, b [][]byte) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if bytes.Equal(a[i], b[j]) {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

// Very different large inputs fall back to one replacement, quickly.
func TestDiffLinesLarge(t *testing.T) {
	var a, b []byte
	for i := range 50000 {
		a = append(a, strings.Repeat("x", i%7)+"\n"...)
		b = append(b, strings.Repeat("y", i%5)+"\n"...)
	}
	var buf bytes.Buffer
	writeUnifiedDiff(&buf, "a", "b", a, b)
	if got := applyDiff(t, string(a), buf.String()); got != string(b) {
		t.Error("applying the diff does not give b")
	}
}
