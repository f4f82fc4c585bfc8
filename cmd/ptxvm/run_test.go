package main

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// f32s returns the little-endian bytes of vs as float32.
func f32s(vs ...float32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

// readBin reads a file that run wrote, failing the test if it is missing.
func readBin(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var npyDict = regexp.MustCompile(`^\{'descr': '([<|][a-z][1-8])', 'fortran_order': False, 'shape': \((\d+),\), \} *\n$`)

// checkNPY checks that path is a NumPy 1.0 file with the given dtype and
// element count whose data are bin.
func checkNPY(t *testing.T, path, dtype, count string, bin []byte) {
	t.Helper()
	b := readBin(t, path)
	if len(b) < 10 || string(b[:8]) != "\x93NUMPY\x01\x00" {
		t.Fatalf("%s: no NumPy 1.0 magic: %q", path, b[:min(len(b), 10)])
	}
	n := int(binary.LittleEndian.Uint16(b[8:10]))
	if 10+n > len(b) || (10+n)%64 != 0 {
		t.Fatalf("%s: header length %d: data at %d, not a multiple of 64 within %d bytes", path, n, 10+n, len(b))
	}
	m := npyDict.FindStringSubmatch(string(b[10 : 10+n]))
	if m == nil || m[1] != dtype || m[2] != count {
		t.Errorf("%s: header %q, want dtype %s, shape (%s,)", path, b[10:10+n], dtype, count)
	}
	if !bytes.Equal(b[10+n:], bin) {
		t.Errorf("%s: data differ from the .bin file", path)
	}
}

func TestRunCaseFile(t *testing.T) {
	dir := caseDir(t)
	out := t.TempDir()
	code, stdout, stderr := ptxvm(t, "", "run", "-out", out, "-npy", filepath.Join(dir, "pass.json"))
	if code != exitOK || stdout != "" || stderr != "PASS saxpy_pass [saxpy.ptx]\n" {
		t.Fatalf("code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	wantX := f32s(1, 2, 3, 4, float32(math.NaN()), -1.5)
	binary.LittleEndian.PutUint32(wantX[16:], 0x7fc00000) // the case's "nan"
	wantY := f32s(3, 6, 7.5, 0, 0, -3.5)
	x := readBin(t, filepath.Join(out, "x.bin"))
	y := readBin(t, filepath.Join(out, "y.bin"))
	if !bytes.Equal(x, wantX) {
		t.Errorf("x.bin = %x, want %x", x, wantX)
	}
	// y[4] = 2.5*nan + 7 is some NaN; compare the rest bitwise.
	if len(y) != 24 || !math.IsNaN(float64(math.Float32frombits(binary.LittleEndian.Uint32(y[16:])))) {
		t.Errorf("y.bin = %x: want 24 bytes with a NaN at y[4]", y)
	} else {
		copy(y[16:20], wantY[16:20])
		if !bytes.Equal(y, wantY) {
			t.Errorf("y.bin = %x, want %x", y, wantY)
		}
	}
	checkNPY(t, filepath.Join(out, "x.npy"), "<f4", "6", x)
	checkNPY(t, filepath.Join(out, "y.npy"), "<f4", "6", readBin(t, filepath.Join(out, "y.bin")))

	// Flags after the file; several modules write subdirectories.
	out2 := t.TempDir()
	code, _, stderr = ptxvm(t, "", "run", filepath.Join(dir, "two", "both.json"), "-out", out2)
	if code != exitOK || stderr != "PASS both [../saxpy.ptx]\nPASS both [saxpy2.ptx]\n" {
		t.Fatalf("two modules: code %d, stderr:\n%s", code, stderr)
	}
	for _, sub := range []string{"saxpy", "saxpy2"} {
		if got := readBin(t, filepath.Join(out2, sub, "x.bin")); !bytes.Equal(got, wantX) {
			t.Errorf("%s/x.bin = %x", sub, got)
		}
		if _, err := os.Stat(filepath.Join(out2, sub, "x.npy")); err == nil {
			t.Errorf("%s/x.npy written without -npy", sub)
		}
	}
}

func TestRunOutcomes(t *testing.T) {
	dir := caseDir(t)
	p := func(name string) string { return filepath.Join(dir, filepath.FromSlash(name)) }
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // exactly
		stderr string // prefix; "" means empty
	}{
		{name: "mismatch", args: []string{p("fail.json")}, code: exitErrors,
			stderr: "FAIL saxpy_fail [saxpy.ptx]: buffer y[2]: got 0x40f00000 want 0x40e80000\n"},
		{name: "expected error", args: []string{p("err.json")}, code: exitOK, stderr: "PASS oob [ptx_text]\n"},
		{name: "wrong error", args: []string{p("errwrong.json")}, code: exitErrors,
			stderr: `FAIL oob [ptx_text]: error "out of bounds: kernel oob, CTA (0,0,0), thread (0,0,0)`},
		{name: "printf", args: []string{"-workers", "1", p("hello.json")}, code: exitOK,
			stdout: "hi 0\nhi 1\n", stderr: "OK hello [hello.ptx]\n"},
		{name: "malformed", args: []string{p("bad/bad.json")}, code: exitUsage, stderr: p("bad/bad.json") + ": kernel: missing"},
		{name: "missing", args: []string{p("nope.json")}, code: exitErrors, stderr: "open " + p("nope.json")},
		{name: "quick flags with case file", args: []string{"-kernel", "k", p("pass.json")}, code: exitUsage,
			stderr: "ptxvm run: -kernel, -grid"},
		{name: "npy without out", args: []string{"-npy", p("pass.json")}, code: exitUsage, stderr: "ptxvm run: -npy needs -out"},
		{name: "no file", args: nil, code: exitUsage, stderr: "ptxvm run: no file given"},
		{name: "two files", args: []string{p("pass.json"), p("fail.json")}, code: exitUsage, stderr: "ptxvm run: more than one file"},
		{name: "bad flag after file", args: []string{p("pass.json"), "-frob"}, code: exitUsage,
			stderr: "ptxvm run: flag provided but not defined: -frob"},
		{name: "help", args: []string{"-h"}, code: exitOK, stdout: "usage: ptxvm run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := ptxvm(t, "", append([]string{"run"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			if tt.name == "help" {
				if !strings.HasPrefix(stdout, tt.stdout) || !strings.Contains(stdout, "-buffer NAME:TYPE:COUNT") {
					t.Errorf("help:\n%s", stdout)
				}
				return
			}
			if stdout != tt.stdout {
				t.Errorf("stdout %q, want %q", stdout, tt.stdout)
			}
			if tt.stderr == "" && stderr != "" || !strings.HasPrefix(stderr, tt.stderr) {
				t.Errorf("stderr %q, want prefix %q", stderr, tt.stderr)
			}
		})
	}
}

func TestRunQuick(t *testing.T) {
	dir := caseDir(t)
	ptxFile := filepath.Join(dir, "saxpy.ptx")
	xFile := filepath.Join(dir, "x.raw")
	if err := os.WriteFile(xFile, f32s(1, 2, 3, 4, 5), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	saved := filepath.Join(dir, "saved", "quick.json")
	if err := os.Mkdir(filepath.Dir(saved), 0o755); err != nil {
		t.Fatal(err)
	}
	// Flags both before and after the file; -param and -buffer interleaved.
	code, stdout, stderr := ptxvm(t, "", "run", "-kernel", "saxpy", "-grid", "2", "-block", "4,1,1",
		"-param", "u32:5", "-param", "f32:2",
		"-buffer", "x:f32:5:file="+xFile, "-param", "ptr:x",
		ptxFile,
		"-buffer", "y:f32:6:fill=0x3f800000", "-param", "ptr:y+4", "-buffer", "z:u16:3",
		"-out", out, "-npy", "-save-case", saved)
	if code != exitOK || stdout != "" || stderr != "OK saxpy ["+ptxFile+"]\n" {
		t.Fatalf("code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	// y[1:6] = 2*x + 1; y[0] untouched.
	wantY := f32s(1, 3, 5, 7, 9, 11)
	if y := readBin(t, filepath.Join(out, "y.bin")); !bytes.Equal(y, wantY) {
		t.Errorf("y.bin = %x, want %x", y, wantY)
	}
	checkNPY(t, filepath.Join(out, "y.npy"), "<f4", "6", wantY)
	checkNPY(t, filepath.Join(out, "z.npy"), "<u2", "3", make([]byte, 6))

	// The saved case runs the same launch.
	code, stdout, stderr = ptxvm(t, "", "test", saved)
	if code != exitOK || stdout != "PASS saxpy [../saxpy.ptx]\n1 passed, 0 failed\n" {
		t.Errorf("test of the saved case: code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	// A fault: exit 1, the fault on stderr, nothing written.
	out2 := t.TempDir()
	code, _, stderr = ptxvm(t, "", "run", "-kernel", "saxpy", "-grid", "1", "-block", "1",
		"-param", "u32:1", "-param", "f32:1", "-buffer", "x:f32:2", "-param", "ptr:x+8", "-param", "ptr:x",
		"-out", out2, ptxFile)
	if code != exitErrors || !strings.HasPrefix(stderr, "FAIL saxpy ["+ptxFile+"]: out of bounds: kernel saxpy, CTA (0,0,0), thread (0,0,0)") {
		t.Errorf("fault: code %d, stderr:\n%s", code, stderr)
	}
	if entries, _ := os.ReadDir(out2); len(entries) != 0 {
		t.Errorf("files written after a fault: %v", entries)
	}

	// Printf from the quick form goes to stdout.
	code, stdout, _ = ptxvm(t, "", "run", "-kernel", "hello", "-grid", "1", "-block", "3", "-workers", "1", filepath.Join(dir, "hello.ptx"))
	if code != exitOK || stdout != "hi 0\nhi 1\nhi 2\n" {
		t.Errorf("printf: code %d, stdout %q", code, stdout)
	}
}

func TestRunQuickErrors(t *testing.T) {
	dir := caseDir(t)
	ptxFile := filepath.Join(dir, "saxpy.ptx")
	base := []string{"run", "-kernel", "saxpy", "-grid", "1", "-block", "1"}
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no kernel", []string{"run", "-grid", "1", "-block", "1", ptxFile}, "needs -kernel, -grid and -block"},
		{"bad grid", []string{"run", "-kernel", "k", "-grid", "1,0", "-block", "1", ptxFile}, `-grid 1,0: "0" is not a positive integer`},
		{"four dims", []string{"run", "-kernel", "k", "-grid", "1,1,1,1", "-block", "1", ptxFile}, "-grid 1,1,1,1: want X,Y,Z"},
		{"param kind", append(base, "-param", "i32:1", ptxFile), `-param i32:1: "i32" is not a parameter kind`},
		{"param value", append(base, "-param", "u8:300", ptxFile), "-param u8:300: 300 is out of range"},
		{"param not a value", append(base, "-param", "f32:abc", ptxFile), `-param f32:abc: "abc" is not a value`},
		{"param no colon", append(base, "-param", "5", ptxFile), "-param 5: want KIND:VALUE"},
		{"ptr unknown", append(base, "-param", "ptr:q", ptxFile), `-param ptr:q: no -buffer is named "q"`},
		{"ptr offset", append(base, "-buffer", "q:u8:1", "-param", "ptr:q+z", ptxFile), `-param ptr:q+z: offset "z" is not an integer`},
		{"bytes align", append(base, "-param", "bytes:3:00", ptxFile), "want bytes:ALIGN:HEX"},
		{"bytes hex", append(base, "-param", "bytes:4:0g", ptxFile), `"0g" is not a non-empty string of hex byte pairs`},
		{"buffer form", append(base, "-buffer", "x:f32", ptxFile), "-buffer x:f32: want NAME:TYPE:COUNT"},
		{"buffer type", append(base, "-buffer", "x:float:4", ptxFile), `"float" is not an element type`},
		{"buffer count", append(base, "-buffer", "x:f32:-1", ptxFile), `count "-1" is not an integer`},
		{"buffer option", append(base, "-buffer", "x:f32:4:zero", ptxFile), `"zero": want fill=VALUE or file=PATH`},
		{"buffer fill", append(base, "-buffer", "x:s8:4:fill=nan", ptxFile), `"nan" is only a value of float types`},
		{"buffer file size", append(base, "-buffer", "x:f32:4:file="+ptxFile, ptxFile), "the file has"},
		{"buffer twice", append(base, "-buffer", "x:f32:4", "-buffer", "x:u8:1", ptxFile), `a buffer named "x" is already given`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := ptxvm(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("code %d, stderr:\n%s\nwant %q", code, stderr, tt.stderr)
			}
		})
	}
	// A missing PTX file is a failed run, not a usage error.
	code, _, stderr := ptxvm(t, "", append(base, filepath.Join(dir, "nope.ptx"))...)
	if code != exitErrors || !strings.Contains(stderr, "no such file") {
		t.Errorf("missing PTX file: code %d, stderr:\n%s", code, stderr)
	}
}

func TestValueBits(t *testing.T) {
	tests := []struct {
		typ, v string
		want   uint64
	}{
		{"u32", "7", 7},
		{"u32", "0x10", 0x10},
		{"u64", "0xFFFFFFFFFFFFFFFF", math.MaxUint64},
		{"s8", "-1", 0xff},
		{"s32", "-0", 0},
		{"f32", "-0", 0x80000000},
		{"f32", "1.5", 0x3fc00000},
		{"f32", "nan", 0x7fc00000},
		{"f64", "-inf", 0xfff0000000000000},
		{"f16", "1.5", 0x3e00},
		{"bf16", "1", 0x3f80},
		{"f32", "1e-50", 0},
	}
	for _, tt := range tests {
		got, err := valueBits(tt.typ, tt.v)
		if err != nil || got != tt.want {
			t.Errorf("valueBits(%s, %s) = %#x, %v; want %#x", tt.typ, tt.v, got, err, tt.want)
		}
	}
	for _, bad := range [][2]string{{"u8", "256"}, {"u32", "-1"}, {"u32", "1.5"}, {"f32", ""}, {"u16", "0x12345"}, {"f32", "+1"}} {
		if got, err := valueBits(bad[0], bad[1]); err == nil {
			t.Errorf("valueBits(%s, %q) = %#x, want an error", bad[0], bad[1], got)
		}
	}
}

func TestNPYHeader(t *testing.T) {
	for typ, dtype := range npyDtypes {
		for _, count := range []int{0, 1, 12345678901} {
			h := npyHeader(typ, count)
			n := int(binary.LittleEndian.Uint16(h[8:10]))
			if len(h)%64 != 0 || 10+n != len(h) || h[len(h)-1] != '\n' {
				t.Errorf("%s: header of %d bytes, length field %d", typ, len(h), n)
			}
			m := npyDict.FindStringSubmatch(string(h[10:]))
			if m == nil || m[1] != dtype {
				t.Errorf("%s: header %q", typ, h[10:])
			}
		}
	}
	if len(npyDtypes) != 16 {
		t.Errorf("%d dtypes, want one for each of the 16 element types", len(npyDtypes))
	}
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{"y": "y", "a/b": "a_b", "..": "_.", ".x": "_x", "ok-1.2_z": "ok-1.2_z", "": "_", "é": "__"} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRunStats: -stats prints one stats line per launch with the counts,
// after one per module with its size and load time.
func TestRunStats(t *testing.T) {
	dir := caseDir(t)
	ptxFile := filepath.Join(dir, "saxpy.ptx")
	code, _, stderr := ptxvm(t, "", "run", "-stats", "-workers", "1", "-kernel", "saxpy", "-grid", "2", "-block", "4",
		"-param", "u32:5", "-param", "f32:2", "-param", "ptr:x", "-param", "ptr:y",
		"-buffer", "x:f32:5:fill=1", "-buffer", "y:f32:5", ptxFile)
	if code != exitOK || !regexp.MustCompile(`(?m)^stats: kernel=saxpy ms=[0-9.]+ thread_instructions=[1-9][0-9]* warp_instructions=[1-9][0-9]* workers=1 ctas=2 batched=[0-9]+ unbatched=[0-9]+ segments=[0-9]+$`).MatchString(stderr) {
		t.Fatalf("code %d, stderr:\n%s", code, stderr)
	}
	info, err := os.Stat(ptxFile)
	if err != nil {
		t.Fatal(err)
	}
	load := regexp.MustCompile(`(?m)^stats: module=(\S+) bytes=([0-9]+) load_ms=([0-9]+\.[0-9]{3})$`).FindStringSubmatch(stderr)
	if load == nil || load[1] != ptxFile || load[2] != strconv.FormatInt(info.Size(), 10) || strings.Index(stderr, load[0]) > strings.Index(stderr, "stats: kernel=") {
		t.Fatalf("no load line for %s (%d bytes) before the launch's; stderr:\n%s", ptxFile, info.Size(), stderr)
	}
}
