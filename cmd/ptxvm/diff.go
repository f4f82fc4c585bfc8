package main

import (
	"bytes"
	"fmt"
	"io"
)

// diffContext is the number of unchanged lines shown around a change.
const diffContext = 3

// maxDiffEdits bounds the work of the line diff: past this many inserted and
// deleted lines, the differing middle of the files is shown as one
// replacement instead of a minimal edit script.
const maxDiffEdits = 2000

// A diffLine is one line of an edit script: kind ' ' (kept), '-' (deleted
// from a) or '+' (inserted from b). a and b are the 0-based indexes of the
// line in each file, or of the next line there for a line missing from it.
type diffLine struct {
	kind byte
	a, b int
	text []byte
}

// writeUnifiedDiff writes a unified diff (diff -u format) from a to b, with
// the given names in its header. It writes nothing when a and b are equal.
func writeUnifiedDiff(w io.Writer, nameA, nameB string, a, b []byte) {
	edits := diffLines(splitLines(a), splitLines(b))
	header := false
	for i := 0; i < len(edits); {
		for i < len(edits) && edits[i].kind == ' ' {
			i++
		}
		if i == len(edits) {
			break
		}
		// A hunk runs from diffContext lines before its first change to
		// diffContext lines after its last; changes separated by at most
		// 2*diffContext kept lines share a hunk.
		start := max(i-diffContext, 0)
		end := i
		for {
			for end < len(edits) && edits[end].kind != ' ' {
				end++
			}
			next := end
			for next < len(edits) && edits[next].kind == ' ' {
				next++
			}
			if next == len(edits) || next-end > 2*diffContext {
				break
			}
			end = next
		}
		stop := min(end+diffContext, len(edits))
		if !header {
			fmt.Fprintf(w, "diff %s %s\n--- %s\n+++ %s\n", nameA, nameB, nameA, nameB)
			header = true
		}
		writeHunk(w, edits[start:stop])
		i = stop
	}
}

func writeHunk(w io.Writer, hunk []diffLine) {
	var lenA, lenB int
	for _, l := range hunk {
		if l.kind != '+' {
			lenA++
		}
		if l.kind != '-' {
			lenB++
		}
	}
	fmt.Fprintf(w, "@@ -%s +%s @@\n", hunkRange(hunk[0].a, lenA), hunkRange(hunk[0].b, lenB))
	for _, l := range hunk {
		w.Write([]byte{l.kind})
		w.Write(l.text)
		if !bytes.HasSuffix(l.text, []byte("\n")) {
			io.WriteString(w, "\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange formats the 0-based start and length of a hunk side the way
// GNU diff does: 1-based, ",len" left out when it is 1, and an empty range
// named by the line before it.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits s after each newline; a last line without one is kept.
func splitLines(s []byte) [][]byte {
	var lines [][]byte
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n') + 1
		if i == 0 {
			i = len(s)
		}
		lines = append(lines, s[:i])
		s = s[i:]
	}
	return lines
}

// diffLines returns an edit script turning a into b: the common prefix and
// suffix are kept, and the middle is diffed with Myers' O(ND) algorithm.
func diffLines(a, b [][]byte) []diffLine {
	pre := 0
	for pre < len(a) && pre < len(b) && bytes.Equal(a[pre], b[pre]) {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && bytes.Equal(a[len(a)-1-suf], b[len(b)-1-suf]) {
		suf++
	}
	var edits []diffLine
	for i := 0; i < pre; i++ {
		edits = append(edits, diffLine{' ', i, i, a[i]})
	}
	edits = append(edits, myers(a[pre:len(a)-suf], b[pre:len(b)-suf], pre, pre)...)
	for i := 0; i < suf; i++ {
		ia, ib := len(a)-suf+i, len(b)-suf+i
		edits = append(edits, diffLine{' ', ia, ib, a[ia]})
	}
	return edits
}

// myers diffs a and b, whose first lines have indexes offA and offB in their
// files, with Myers' algorithm: for each edit distance d it keeps the
// furthest-reaching x of every diagonal k = x-y in [-d, d] (-1 when no path of
// d edits stays inside the grid), then walks those back from (n, m).
func myers(a, b [][]byte, offA, offB int) []diffLine {
	n, m := len(a), len(b)
	limit := min(n+m, maxDiffEdits)
	// step picks the last move onto diagonal k at distance d > 0, given the
	// furthest x of the diagonals at distance d-1: down from k+1 (an
	// insertion) or right from k-1 (a deletion). It returns the x after the
	// move, or -1 when neither move stays inside the grid.
	step := func(prev func(k int) int, d, k int) (x int, down bool) {
		x = -1
		if k > -d {
			if xr := prev(k - 1); xr >= 0 && xr < n {
				x = xr + 1
			}
		}
		if k < d {
			if xd := prev(k + 1); xd >= 0 && xd-(k+1) < m && xd >= x {
				x, down = xd, true
			}
		}
		return x, down
	}

	v := make([]int, 2*limit+1) // v[k+limit]
	var trace [][]int           // trace[d][k+d]: v[k] after distance d
	found := false
	for d := 0; d <= limit && !found; d++ {
		prev := func(k int) int { return v[k+limit] }
		for k := -d; k <= d; k += 2 {
			x := 0
			if d > 0 {
				x, _ = step(prev, d, k)
			}
			if x >= 0 {
				for x < n && x-k < m && bytes.Equal(a[x], b[x-k]) {
					x++
				}
				found = found || x == n && x-k == m
			}
			v[k+limit] = x
		}
		trace = append(trace, append([]int(nil), v[limit-d:limit+d+1]...))
	}
	if !found {
		// Too different to be worth a minimal script: replace everything.
		var edits []diffLine
		for i := range a {
			edits = append(edits, diffLine{'-', offA + i, offB, a[i]})
		}
		for j := range b {
			edits = append(edits, diffLine{'+', offA + n, offB + j, b[j]})
		}
		return edits
	}

	// Walk back from (n, m), collecting the script in reverse.
	var rev []diffLine
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		prev := func(k int) int { return trace[d-1][k+d-1] }
		mx, down := step(prev, d, x-y) // x where the move landed
		for x > mx {                   // the snake after the move
			x--
			y--
			rev = append(rev, diffLine{' ', offA + x, offB + y, a[x]})
		}
		if down {
			y--
			rev = append(rev, diffLine{'+', offA + x, offB + y, b[y]})
		} else {
			x--
			rev = append(rev, diffLine{'-', offA + x, offB + y, a[x]})
		}
	}
	for x > 0 {
		x--
		y--
		rev = append(rev, diffLine{' ', offA + x, offB + y, a[x]})
	}
	edits := make([]diffLine, len(rev))
	for i, l := range rev {
		edits[len(rev)-1-i] = l
	}
	return edits
}
