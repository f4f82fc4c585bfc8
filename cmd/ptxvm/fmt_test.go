package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/ptx"
)

// canonical returns the canonical format of src, failing on parse errors.
func canonical(t *testing.T, src string) string {
	t.Helper()
	m, err := ptx.Parse("x.ptx", []byte(src), nil)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return string(ptx.Format(m))
}

// readFile returns the content of path, failing if it cannot be read.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fmt prints the canonical text, which parses, and formatting it again
// changes nothing.
func TestFmtStdout(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.ptx": validPTX})
	code, out, stderr := ptxvm(t, "", "fmt", filepath.Join(dir, "a.ptx"))
	if code != exitOK || stderr != "" {
		t.Fatalf("exit code %d, stderr:\n%s", code, stderr)
	}
	if out != canonical(t, validPTX) {
		t.Errorf("fmt output differs from ptx.Format:\n%s", out)
	}
	if _, err := ptx.Parse("out.ptx", []byte(out), nil); err != nil {
		t.Errorf("formatted text does not parse: %v\n%s", err, out)
	}
	if !strings.Contains(out, "// add one to every element") {
		t.Errorf("comment lost:\n%s", out)
	}
	code, again, _ := ptxvm(t, out, "fmt", "-")
	if code != exitOK || again != out {
		t.Errorf("fmt is not idempotent: code %d\nfirst:\n%s\nsecond:\n%s", code, out, again)
	}
}

// Several files are printed one after the other, in argument order.
func TestFmtStdoutMultiple(t *testing.T) {
	other := strings.Replace(validPTX, "inc", "inc2", 1)
	dir := writeFiles(t, map[string]string{"a.ptx": validPTX, "b.ptx": other})
	code, out, stderr := ptxvm(t, "", "fmt", filepath.Join(dir, "b.ptx"), filepath.Join(dir, "a.ptx"))
	if code != exitOK {
		t.Fatalf("exit code %d, stderr:\n%s", code, stderr)
	}
	if want := canonical(t, other) + canonical(t, validPTX); out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestFmtList(t *testing.T) {
	formatted := canonical(t, validPTX)
	if formatted == validPTX {
		t.Fatal("test needs validPTX to be non-canonical")
	}
	dir := writeFiles(t, map[string]string{"messy.ptx": validPTX, "clean.ptx": formatted})
	code, out, stderr := ptxvm(t, "", "fmt", "-l", dir)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit code %d, stderr:\n%s", code, stderr)
	}
	if want := filepath.Join(dir, "messy.ptx") + "\n"; out != want {
		t.Errorf("fmt -l printed %q, want %q", out, want)
	}
	if got := readFile(t, filepath.Join(dir, "messy.ptx")); got != validPTX {
		t.Error("fmt -l changed a file")
	}
	code, out, _ = ptxvm(t, validPTX, "fmt", "-l", "-")
	if code != exitOK || out != "<stdin>\n" {
		t.Errorf("fmt -l -: code %d, output %q", code, out)
	}
}

func TestFmtWrite(t *testing.T) {
	formatted := canonical(t, validPTX)
	dir := writeFiles(t, map[string]string{"messy.ptx": validPTX, "clean.ptx": formatted, "bad.ptx": missingSemicolonPTX})
	messy, clean, bad := filepath.Join(dir, "messy.ptx"), filepath.Join(dir, "clean.ptx"), filepath.Join(dir, "bad.ptx")
	if err := os.Chmod(messy, 0o640); err != nil {
		t.Fatal(err)
	}
	cleanInfo, err := os.Stat(clean)
	if err != nil {
		t.Fatal(err)
	}

	code, out, stderr := ptxvm(t, "", "fmt", "-w", "-l", messy, clean, bad)
	if code != exitErrors {
		t.Errorf("exit code %d, want %d (bad.ptx has errors)", code, exitErrors)
	}
	if want := messy + "\n"; out != want {
		t.Errorf("fmt -w -l printed %q, want %q", out, want)
	}
	for _, d := range diagnostics(t, stderr) {
		if !strings.HasPrefix(d, bad+":") {
			t.Errorf("unexpected diagnostic %q", d)
		}
	}
	if got := readFile(t, messy); got != formatted {
		t.Errorf("messy.ptx not rewritten:\n%s", got)
	}
	if got := readFile(t, bad); got != missingSemicolonPTX {
		t.Errorf("fmt -w changed a file with syntax errors:\n%s", got)
	}
	if info, err := os.Stat(messy); err != nil || runtime.GOOS != "windows" && info.Mode().Perm() != 0o640 {
		t.Errorf("permissions not kept: %v %v", info.Mode(), err)
	}
	if info, err := os.Stat(clean); err != nil || !info.ModTime().Equal(cleanInfo.ModTime()) {
		t.Errorf("an already formatted file was rewritten")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("temporary files left behind: %v", entries)
	}

	// Now everything valid is formatted.
	code, out, _ = ptxvm(t, "", "fmt", "-l", messy, clean)
	if code != exitOK || out != "" {
		t.Errorf("after fmt -w, fmt -l: code %d, output %q", code, out)
	}
}

// -w on a symbolic link rewrites the file it points to and keeps the link.
func TestFmtWriteSymlink(t *testing.T) {
	dir := writeFiles(t, map[string]string{"real.ptx": validPTX})
	link := filepath.Join(dir, "link.ptx")
	if err := os.Symlink("real.ptx", link); err != nil {
		t.Skip("symlinks not available:", err)
	}
	if code, _, stderr := ptxvm(t, "", "fmt", "-w", link); code != exitOK {
		t.Fatalf("exit code %d\n%s", code, stderr)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", info.Mode(), err)
	}
	if got := readFile(t, filepath.Join(dir, "real.ptx")); got != canonical(t, validPTX) {
		t.Errorf("target not rewritten:\n%s", got)
	}
}

// -w leaves alone a file whose formatting would expand preprocessor lines.
func TestFmtWritePreprocessor(t *testing.T) {
	src := "#define N 4\n" + strings.Replace(validPTX, "%r<4>", "%r<N>", 1)
	dir := writeFiles(t, map[string]string{"pp.ptx": src})
	path := filepath.Join(dir, "pp.ptx")
	code, _, stderr := ptxvm(t, "", "fmt", "-w", path)
	if code != exitErrors || !strings.Contains(stderr, path+": error: ") {
		t.Errorf("exit code %d, stderr %q", code, stderr)
	}
	if got := readFile(t, path); got != src {
		t.Errorf("file changed:\n%s", got)
	}
	// Printing the expanded module is fine.
	code, out, stderr := ptxvm(t, "", "fmt", path)
	if code != exitOK || !strings.Contains(out, "%r<4>") {
		t.Errorf("fmt: code %d, stderr %q, output:\n%s", code, stderr, out)
	}
}

func TestFmtErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bad.ptx": twoErrorsPTX, "ok.ptx": validPTX})
	bad, ok := filepath.Join(dir, "bad.ptx"), filepath.Join(dir, "ok.ptx")

	// Errors: diagnostics on stderr, nothing printed for that file, the
	// other files still formatted.
	code, out, stderr := ptxvm(t, "", "fmt", bad, ok)
	if code != exitErrors {
		t.Errorf("exit code %d, want %d", code, exitErrors)
	}
	if out != canonical(t, validPTX) {
		t.Errorf("stdout should hold only ok.ptx formatted:\n%s", out)
	}
	if diags := diagnostics(t, stderr); len(diags) < 2 {
		t.Errorf("want every diagnostic, got:\n%s", stderr)
	}

	missing := filepath.Join(dir, "nosuch.ptx")
	code, out, stderr = ptxvm(t, "", "fmt", missing)
	if code != exitErrors || out != "" || !strings.HasPrefix(stderr, missing+": error: ") {
		t.Errorf("missing file: code %d, stdout %q, stderr %q", code, out, stderr)
	}

	code, out, stderr = ptxvm(t, missingSemicolonPTX, "fmt", "-")
	if code != exitErrors || out != "" || !strings.HasPrefix(stderr, "<stdin>:") {
		t.Errorf("stdin: code %d, stdout %q, stderr %q", code, out, stderr)
	}
}

func TestFmtDiff(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.ptx": validPTX})
	path := filepath.Join(dir, "a.ptx")
	code, out, stderr := ptxvm(t, "", "fmt", "-d", path)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit code %d, stderr:\n%s", code, stderr)
	}
	if !strings.HasPrefix(out, "diff "+path+".orig "+path+"\n--- "+path+".orig\n+++ "+path+"\n@@ -") {
		t.Errorf("bad diff header:\n%s", out)
	}
	// Applying the diff to the file gives the formatted text.
	if got, want := applyDiff(t, validPTX, out), canonical(t, validPTX); got != want {
		t.Errorf("patched file:\n%s\nwant:\n%s", got, want)
	}
	// No diff for a formatted file.
	code, out, _ = ptxvm(t, canonical(t, validPTX), "fmt", "-d", "-")
	if code != exitOK || out != "" {
		t.Errorf("formatted input: code %d, diff %q", code, out)
	}
}

func TestUsesPreprocessor(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"", false},
		{validPTX, false},
		{"#include \"x.ptx\"\n", true},
		{".version 7.0\n  #define N 1\n", true},
		{"\t#if 0\n#endif\n", true},
		{"// #define N 1\n", false},
		{"/* \n#define N 1\n*/\n", false},
		{"/* x */ #define N 1\n", true},
		{"/* x */\n#define N 1\n", true},
		{".pragma \"#define\";\n", false},
		{".pragma \"abc\n#define N 1\n", true}, // an unterminated string ends at the newline
		{".pragma \"a\\\"b\"; // \"\n#if 1\n", true},
		{"mov.u32 %r1, 1; # not at line start\n", false},
	}
	for _, tt := range tests {
		if got := usesPreprocessor([]byte(tt.src)); got != tt.want {
			t.Errorf("usesPreprocessor(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

// applyDiff applies a unified diff of one file, as written by
// writeUnifiedDiff, to src.
func applyDiff(t *testing.T, src, diff string) string {
	t.Helper()
	old := splitLines([]byte(src))
	var out bytes.Buffer
	next := 0 // index of the next line of old to copy
	lines := strings.SplitAfter(diff, "\n")
	for len(lines) > 0 && !strings.HasPrefix(lines[0], "@@") {
		lines = lines[1:] // the header
	}
	for i, l := range lines {
		if l == "" {
			continue
		}
		switch l[0] {
		case '@': // @@ -start[,len] +start[,len] @@
			spec := strings.Fields(l)[1][1:]
			startStr, _, _ := strings.Cut(spec, ",")
			start, err := strconv.Atoi(startStr)
			if err != nil {
				t.Fatalf("bad hunk header %q", l)
			}
			if strings.HasSuffix(spec, ",0") {
				start++ // an empty range is named by the line before it
			}
			for ; next < start-1; next++ {
				out.Write(old[next])
			}
		case ' ':
			out.Write(old[next])
			next++
		case '-':
			next++
		case '+':
			text := l[1:]
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\\") {
				text = strings.TrimSuffix(text, "\n")
			}
			out.WriteString(text)
		case '\\':
		default:
			t.Fatalf("bad diff line %q", l)
		}
	}
	for ; next < len(old); next++ {
		out.Write(old[next])
	}
	return out.String()
}
