package casefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// base is a valid case that the validation tests change one field at a time.
const base = `{
  "format": "ptxvm-case/1",
  "case": "t",
  "ptx_text": ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k() { ret; }\n",
  "kernel": "k",
  "grid": [2, 1, 1],
  "block": [32, 1, 1],
  "params": [
    {"kind": "u32", "value": 7},
    {"kind": "f32", "value": 2.5},
    {"kind": "ptr", "buffer": "x", "offset": 4},
    {"kind": "bytes", "size": 4, "align": 4, "data_b64": "AQIDBA=="}
  ],
  "buffers": [
    {"name": "x", "type": "f32", "count": 4, "init": [1, 2, 3, 4], "output": false},
    {"name": "y", "type": "f32", "count": 4, "expected": [1, 2, 3, 4], "compare": {"mode": "ulp", "ulp": 2}}
  ]
}`

// del removes a field in edit.
var del = &struct{}{}

// edit returns base with the value at a dotted path ("buffers.1.init.3")
// replaced by v (a JSON literal given as a string, or del).
func edit(t *testing.T, path string, v any) []byte {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(base))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	var val any
	if v != del {
		d := json.NewDecoder(strings.NewReader(v.(string)))
		d.UseNumber()
		if err := d.Decode(&val); err != nil {
			t.Fatalf("bad literal %s: %v", v, err)
		}
	}
	keys := strings.Split(path, ".")
	cur := doc
	for i, k := range keys {
		last := i == len(keys)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				if v == del {
					delete(c, k)
				} else {
					c[k] = val
				}
			}
			cur = c[k]
		case []any:
			n, _ := strconv.Atoi(k)
			if last {
				c[n] = val
			}
			cur = c[n]
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBaseIsValid(t *testing.T) {
	c, err := Parse([]byte(base), "")
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "t" || c.Kernel != "k" || c.Grid != [3]int{2, 1, 1} || c.Block != [3]int{32, 1, 1} || c.HasCluster {
		t.Errorf("case: %+v", c)
	}
	want := []Param{
		{Kind: "u32", Bits: 7, Align: 4},
		{Kind: "f32", Bits: 0x40200000, Align: 4},
		{Kind: "ptr", Buffer: "x", Offset: 4, Align: 8},
		{Kind: "bytes", Bytes: []byte{1, 2, 3, 4}, Align: 4},
	}
	if !reflect.DeepEqual(c.Params, want) {
		t.Errorf("params:\n got %+v\nwant %+v", c.Params, want)
	}
	x, y := c.Buffer("x"), c.Buffer("y")
	one2four := []byte{0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40, 0, 0, 0x80, 0x40}
	if x.Output || x.Expected != nil || !bytes.Equal(x.Init, one2four) || x.Size != 16 || x.Count != 4 || x.Checked() != true {
		t.Errorf("x: %+v", x)
	}
	if !y.Output || !bytes.Equal(y.Expected, one2four) || !bytes.Equal(y.Init, make([]byte, 16)) ||
		y.Compare != (Compare{Mode: "ulp", ULP: 2}) {
		t.Errorf("y: %+v", y)
	}
}

func TestValidation(t *testing.T) {
	tests := []struct {
		path string
		val  any
		want string
	}{
		{"format", del, `format: missing (want "ptxvm-case/1")`},
		{"format", `"ptxvm-case/2"`, `format: "ptxvm-case/2" is not supported (want "ptxvm-case/1")`},
		{"format", `1`, `format: want a string, not the number 1`},
		{"kernal", `"k"`, `kernal: unknown field`},
		{"case", `""`, `case: must not be empty`},
		{"case", `3`, `case: want a string, not the number 3`},
		{"ptx", `"a.ptx"`, `ptx_text: only one of ptx and ptx_text may be given`},
		{"ptx_text", del, `ptx: missing (give ptx or ptx_text)`},
		{"ptx_text", `""`, `ptx_text: must not be empty`},
		{"kernel", del, `kernel: missing`},
		{"kernel", `["k"]`, `kernel: want a string, not an array`},
		{"grid", del, `grid: missing (want [x, y, z])`},
		{"grid", `[1, 1]`, `grid: want [x, y, z], not 2 numbers`},
		{"grid", `"1,1,1"`, `grid: want [x, y, z], not the string "1,1,1"`},
		{"grid", `[0, 1, 1]`, `grid[0]: 0 is out of range (1 to 2147483647)`},
		{"grid", `[1, 1.5, 1]`, `grid[1]: 1.5 is not an integer`},
		{"grid", `[1, 1, 2147483648]`, `grid[2]: 2147483648 is out of range`},
		{"block", `[1, 1, -1]`, `block[2]: -1 is out of range (1 to 2147483647)`},
		{"block", `[1, "2", 1]`, `block[1]: want an integer, not the string "2"`},
		{"cluster", `[1, 0, 1]`, `cluster[1]: 0 is out of range`},
		{"dynamic_shared_bytes", `-1`, `dynamic_shared_bytes: -1 is out of range (0 to 2147483647)`},
		{"dynamic_shared_bytes", `"0"`, `dynamic_shared_bytes: want an integer`},
		{"arch", `"sm90"`, `arch: "sm90" is not a target name like "sm_90" or "sm_90a"`},
		{"arch", `"compute_90"`, `arch: "compute_90" is not a target name`},
		{"arch", `90`, `arch: want a string`},
		{"expect_error", `""`, `expect_error: must not be empty`},
		{"expect_error", `true`, `expect_error: want a string, not true`},

		{"params", `{}`, `params: want a list of parameters, not an object`},
		{"params.0", `5`, `params[0]: want an object, not the number 5`},
		{"params.0.kind", del, `params[0].kind: missing (want ptr, bytes or one of u8`},
		{"params.0.kind", `"f128"`, `params[0].kind: "f128" is not a parameter kind`},
		{"params.0.kind", `null`, `params[0].kind: want a string, not null`},
		{"params.0.vaule", `1`, `params[0].vaule: unknown field (want one of kind, value, bits)`},
		{"params.0.value", del, `params[0]: a u32 parameter needs value or bits`},
		{"params.0.value", `-1`, `params[0].value: -1 is out of range for u32 (0 to 4294967295)`},
		{"params.0.value", `4294967296`, `params[0].value: 4294967296 is out of range for u32`},
		{"params.0.value", `1.5`, `params[0].value: 1.5 is not an integer (u32 is an integer type)`},
		{"params.0.value", `"nan"`, `params[0].value: "nan" is only a value of float types, not u32`},
		{"params.0.value", `"seven"`, `params[0].value: "seven" is not a value: want a number, "nan", "inf", "-inf", "-0" or "0x" and 8 hex digits`},
		{"params.0.value", `[7]`, `params[0].value: want a number or a string, not an array`},
		{"params.0.value", `1e100001`, `params[0].value: 1e100001: exponent out of range`},
		{"params.0.bits", `"0x7"`, `params[0].bits: "0x7" has 1 hex digit, u32 needs 8`},
		{"params.0.bits", `"0x0000000000000007"`, `params[0].bits: "0x0000000000000007" has 16 hex digits, u32 needs 8`},
		{"params.0.bits", `"7"`, `params[0].bits: "7" is not a hex bit pattern (want "0x" and 8 hex digits)`},
		{"params.0.bits", `"0x0000000g"`, `params[0].bits: "0x0000000g" is not a hex bit pattern ('g' is not a hex digit)`},
		{"params.0.bits", `7`, `params[0].bits: want a string, not the number 7`},
		{"params.1.bits", `"0x1"`, `params[1].bits: "0x1" has 1 hex digit, f32 needs 8`},
		{"params.2.buffer", del, `params[2].buffer: missing (want the name of a buffer)`},
		{"params.2.buffer", `"z"`, `params[2].buffer: no buffer is named "z"`},
		{"params.2.buffer", `""`, `params[2].buffer: must not be empty`},
		{"params.2.offset", `1.5`, `params[2].offset: 1.5 is not an integer`},
		{"params.2.offset", `9223372036854775808`, `params[2].offset: 9223372036854775808 is out of range`},
		{"params.2.value", `1`, `params[2].value: unknown field (want one of kind, buffer, offset)`},
		{"params.3.size", del, `params[3].size: missing`},
		{"params.3.size", `0`, `params[3].size: 0 is out of range (1 to 65536)`},
		{"params.3.align", `3`, `params[3].align: 3 is not a power of two`},
		{"params.3.align", `0`, `params[3].align: 0 is out of range`},
		{"params.3.data_b64", `"AQID"`, `params[3].data_b64: decodes to 3 bytes, want 4`},
		{"params.3.data_b64", `"!!"`, `params[3].data_b64: not base64`},
		{"params.3.data", `""`, `params[3].data: unknown field (want one of kind, size, align, data_b64)`},

		{"buffers", `"x"`, `buffers: want a list of buffers, not the string "x"`},
		{"buffers.0", `[]`, `buffers[0]: want an object, not an array`},
		{"buffers.0.name", del, `buffers[0].name: missing`},
		{"buffers.0.name", `""`, `buffers[0].name: must not be empty`},
		{"buffers.1.name", `"x"`, `buffers[1].name: "x" is also the name of buffers[0]`},
		{"buffers.1.nmae", `"x"`, `buffers[1].nmae: unknown field`},
		{"buffers.0.type", del, `buffers[0].type: missing (want one of u8 u16`},
		{"buffers.0.type", `"f8"`, `buffers[0].type: "f8" is not an element type`},
		{"buffers.0.bytes", `16`, `buffers[0].bytes: only one of count and bytes may be given`},
		{"buffers.0.count", del, `buffers[0]: give count (elements) or bytes`},
		{"buffers.0.count", `-1`, `buffers[0].count: -1 is out of range (0 to 4294967296)`},
		{"buffers.0.count", `2147483648`, `buffers[0].count: 2147483648 f32 elements exceed the 4294967296-byte limit`},
		{"buffers.0.count", `3`, `buffers[0].init: has 4 values, want 3 (count)`},
		{"buffers.0.init", `{}`, `buffers[0].init: want an array of 4 values, not an object`},
		{"buffers.0.init_b64", `"AAAA"`, `buffers[0].init_b64: only one of init and init_b64 may be given`},
		{"buffers.1.init_b64", `"AAAA"`, `buffers[1].init_b64: decodes to 3 bytes, want 16`},
		{"buffers.0.init.3", `"0x1"`, `buffers[0].init[3]: "0x1" has 1 hex digit, f32 needs 8`},
		{"buffers.0.init.2", `"NaN"`, `buffers[0].init[2]: "NaN" is not a value`},
		{"buffers.0.init.1", `true`, `buffers[0].init[1]: want a number or a string, not true`},
		{"buffers.0.init.0", `null`, `buffers[0].init[0]: want a number or a string, not null`},
		{"buffers.1.expected.3", `"0x1"`, `buffers[1].expected[3]: "0x1" has 1 hex digit, f32 needs 8`},
		{"buffers.1.expected_b64", `"AAAA"`, `buffers[1].expected_b64: only one of expected and expected_b64 may be given`},
		{"buffers.0.expected_b64", `"AAAAAAAAAAAAAAAAAAAAAA=="`, `buffers[0].output: false (unchanged) contradicts the expected contents given`},
		{"buffers.0.output", `"no"`, `buffers[0].output: want true or false, not the string "no"`},
		{"buffers.0.compare", `{"mode": "bits"}`, `buffers[0].compare: an unchanged buffer ("output": false) is compared bitwise; remove compare`},
		{"buffers.1.expected", del, `buffers[1].compare: the buffer has no expected contents to compare`},
		{"buffers.1.compare", `[]`, `buffers[1].compare: want an object, not an array`},
		{"buffers.1.compare", `{"mode": "fuzzy"}`, `buffers[1].compare.mode: "fuzzy" is not a compare mode (want exact, bits, tolerance or ulp)`},
		{"buffers.1.compare", `{"mode": "exact", "atol": 1}`, `buffers[1].compare.atol: not used by mode "exact"`},
		{"buffers.1.compare", `{"mode": "tolerance"}`, `buffers[1].compare: mode "tolerance" needs atol and/or rtol`},
		{"buffers.1.compare", `{"mode": "tolerance", "atol": -1}`, `buffers[1].compare.atol: -1 is not a finite non-negative number`},
		{"buffers.1.compare", `{"mode": "tolerance", "rtol": 1e999}`, `buffers[1].compare.rtol: 1e999 is not a finite non-negative number`},
		{"buffers.1.compare", `{"mode": "tolerance", "atol": 1, "ulp": 1}`, `buffers[1].compare.ulp: not used by mode "tolerance"`},
		{"buffers.1.compare", `{"mode": "ulp"}`, `buffers[1].compare.ulp: missing (mode "ulp" needs it)`},
		{"buffers.1.compare", `{"mode": "ulp", "ulp": -1}`, `buffers[1].compare.ulp: -1 is out of range`},
		{"buffers.1.compare", `{"mode": "ulp", "ulp": 0.5}`, `buffers[1].compare.ulp: 0.5 is not an integer`},
		{"buffers.1.compare", `{"mode": "ulp", "ulp": 1, "kind": 1}`, `buffers[1].compare.kind: unknown field (want one of mode, atol, rtol, ulp)`},
		{"buffers.1.type", `"u32"`, `buffers[1].compare.mode: "ulp" needs a float element type, not u32`},
	}
	for _, tt := range tests {
		_, err := Parse(edit(t, tt.path, tt.val), "")
		if err == nil {
			t.Errorf("%s = %v: no error, want %q", tt.path, tt.val, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s = %v:\n got %q\nwant %q", tt.path, tt.val, err, tt.want)
		}
		var list ErrorList
		var one *Error
		if !errors.As(err, &list) || !errors.As(err, &one) {
			t.Errorf("%s: error is %T, want an ErrorList of *Error", tt.path, err)
		}
	}
}

func TestValidationAccepts(t *testing.T) {
	for _, tt := range []struct {
		path string
		val  any
	}{
		{"arch", `"sm_90a"`}, {"arch", `"sm_100f"`}, {"arch", `"sm_120"`},
		{"cluster", `[2, 1, 1]`}, {"dynamic_shared_bytes", `49152`},
		{"grid", `[1e3, 1, 1]`}, // an integral value, however written
		{"params.0.bits", `"0x0000000A"`},
		{"params.3.align", del}, {"params.3.data_b64", del}, {"params.3.data_b64", `"AQIDBA"`},
		{"buffers.0.count", del}, // with bytes below
		{"buffers.1.compare", `{"mode": "tolerance", "rtol": 1e-3}`},
		{"buffers.1.compare", `{}`},
		{"expect_error", `"trap"`},
	} {
		doc := edit(t, tt.path, tt.val)
		if tt.path == "buffers.0.count" {
			doc = bytes.Replace(doc, []byte(`"init"`), []byte(`"bytes":16,"init"`), 1)
		}
		if _, err := Parse(doc, ""); err != nil {
			t.Errorf("%s = %v: %v", tt.path, tt.val, err)
		}
	}
}

func TestRawValidation(t *testing.T) {
	for _, tt := range []struct{ doc, want string }{
		{`{`, `invalid JSON at line 1, column 2`},
		{"{\n  \"format\": \"ptxvm-case/1\",\n  \"kernel\": k\n}", `invalid JSON at line 3, column 13`},
		{`{"format": "ptxvm-case/1"} {}`, `data after the top-level value`},
		{`[]`, `want a JSON object, not an array`},
		{`{"format": "ptxvm-case/1", "kernel": "a", "kernel": "b"}`, `kernel: field appears twice in one object`},
		{`{"format": "ptxvm-case/1", "buffers": [{"name": "a", "name": "b"}]}`, `buffers[0].name: field appears twice`},
		{`{"format": "ptxvm-case/1", "ptx": []}`, `ptx: empty list (want at least one path)`},
		{`{"format": "ptxvm-case/1", "ptx": ["a.ptx", 1]}`, `ptx[1]: want a string, not the number 1`},
		{`{"format": "ptxvm-case/1", "ptx": ["a.ptx", ""]}`, `ptx[1]: must not be empty`},
		{`{"format": "ptxvm-case/1", "ptx": 5}`, `ptx: want a path or a list of paths, not the number 5`},
		{`{"format": "ptxvm-case/1", "buffers": [{"name": "a", "type": "f32", "bytes": 6}]}`, `buffers[0].bytes: 6 is not a multiple of the 4-byte size of f32`},
		{`{"format": "ptxvm-case/1", "buffers": [{"name": "a", "count": 6}]}`, `buffers[0].type: missing`},
	} {
		_, err := Parse([]byte(tt.doc), "")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s:\n got %v\nwant %q", tt.doc, err, tt.want)
		}
	}
	// Every problem is reported, in file order.
	_, err := Parse([]byte(`{"format": "ptxvm-case/1", "grid": [0, 1, 1], "block": [1, 1]}`), "")
	want := "ptx: missing (give ptx or ptx_text)\nkernel: missing\ngrid[0]: 0 is out of range (1 to 2147483647)\nblock: want [x, y, z], not 2 numbers"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestLoad(t *testing.T) {
	c, err := Load("testdata/saxpy.json")
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "saxpy_6" || !reflect.DeepEqual(c.PTX, []string{filepath.Join("testdata", "saxpy.ptx")}) {
		t.Errorf("name %q ptx %q", c.Name, c.PTX)
	}
	// The name defaults to the file's; ptx_text needs no file.
	c, err = Load("testdata/oob.json")
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "oob" || c.ExpectError != "out of bounds" || c.Params[0].Offset != 16 || c.Buffer("a").Output {
		t.Errorf("oob: %+v", c)
	}
	c, err = Load("testdata/halfscale.json")
	if err != nil {
		t.Fatal(err)
	}
	if !c.HasCluster || c.Cluster != [3]int{2, 1, 1} || c.Arch != "sm_90" || c.DynamicShared != 64 {
		t.Errorf("halfscale: %+v", c)
	}
	if s := c.Buffer("scratch"); s.Type != "b8" || s.Count != 32 || s.Checked() {
		t.Errorf("scratch: %+v", s)
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "saxpy.json")
	// Errors name the file; ptx paths are relative to it and must exist.
	doc := strings.Replace(string(edit(t, "buffers.0.init.3", `"0x1"`)), `"case":"t"`, `"case":"t","ptx":["k.ptx","k2.ptx"]`, 1)
	doc = strings.Replace(doc, `"ptx_text"`, `"ptx_text_"`, 1)
	os.WriteFile(file, []byte(doc), 0o666)
	_, err = Load(file)
	want := file + `: buffers[0].init[3]: "0x1" has 1 hex digit, f32 needs 8`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
	doc = strings.Replace(string(edit(t, "ptx_text", del)), `"case":"t"`, `"ptx":["k.ptx","k2.ptx"]`, 1)
	os.WriteFile(file, []byte(doc), 0o666)
	os.WriteFile(filepath.Join(dir, "k.ptx"), nil, 0o666)
	_, err = Load(file)
	want = file + ": ptx[1]: " + filepath.Join(dir, "k2.ptx") + ": no such file or directory"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	os.WriteFile(filepath.Join(dir, "k2.ptx"), nil, 0o666)
	c, err = Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "saxpy" || !reflect.DeepEqual(c.PTX, []string{filepath.Join(dir, "k.ptx"), filepath.Join(dir, "k2.ptx")}) {
		t.Errorf("name %q ptx %q", c.Name, c.PTX)
	}
	if _, err := Load(filepath.Join(dir, "none.json")); err == nil {
		t.Error("missing file: no error")
	}
}

// pow2 returns 2^e as a rational.
func pow2(e int) *big.Rat {
	if e >= 0 {
		return new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(e)))
	}
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(-e)))
}

// ieeeValue is the value of positive finite bits b of a binary format with
// ebits exponent and mbits mantissa bits, from the IEEE 754 definition:
// subnormal m * 2^(1-bias-mbits), normal (2^mbits + m) * 2^(e-bias-mbits).
func ieeeValue(b uint64, ebits, mbits int) *big.Rat {
	bias := 1<<(ebits-1) - 1
	e, m := int(b>>mbits), int64(b&(1<<mbits-1))
	if e == 0 {
		return new(big.Rat).Mul(new(big.Rat).SetInt64(m), pow2(1-bias-mbits))
	}
	return new(big.Rat).Mul(new(big.Rat).SetInt64(1<<mbits+m), pow2(e-bias-mbits))
}

// decimal writes r exactly as a decimal number (r must have a power-of-two
// denominator, as every binary float and midpoint does).
func decimal(r *big.Rat) string {
	d := 0
	for den := new(big.Int).Set(r.Denom()); den.Cmp(big.NewInt(1)) > 0; den.Rsh(den, 1) {
		d++
	}
	return r.FloatString(d)
}

var formats = []struct {
	typ          string
	ebits, mbits int
}{{"f16", 5, 10}, {"bf16", 8, 7}, {"f32", 8, 23}, {"f64", 11, 52}}

// checkRounding checks the rounding of the values around bits b (positive,
// finite): b itself, the midpoint to the next value up (ties to even), and
// values a little either side of it; and the same negated.
func checkRounding(t *testing.T, typ string, ebits, mbits int, b uint64, viaFloat64 bool) {
	lo := ieeeValue(b, ebits, mbits)
	var hi *big.Rat
	maxExp := uint64(1<<ebits - 1)
	if (b+1)>>mbits == maxExp { // the next value up is infinity: the midpoint is to 2^(emax+1)
		hi = pow2(1<<(ebits-1) - 1 + 1)
	} else {
		hi = ieeeValue(b+1, ebits, mbits)
	}
	mid := new(big.Rat).Add(lo, hi)
	mid.Quo(mid, big.NewRat(2, 1))
	tiny := new(big.Rat).Sub(hi, lo)
	tiny.Quo(tiny, pow2(20))
	even := b
	if b&1 == 1 {
		even = b + 1
	}
	sign := uint64(1) << (ebits + mbits)
	cases := []struct {
		r    *big.Rat
		want uint64
	}{
		{lo, b},
		{mid, even},
		{new(big.Rat).Sub(mid, tiny), b},
		{new(big.Rat).Add(mid, tiny), b + 1},
	}
	for _, c := range cases {
		for _, neg := range []bool{false, true} {
			want := c.want
			if neg {
				want |= sign
			}
			if got := roundRat(neg, c.r, ebits, mbits); got != want {
				t.Fatalf("%s: round(%s%s) = %#x, want %#x", typ, map[bool]string{true: "-"}[neg], decimal(c.r), got, want)
			}
			if c.r == mid {
				// The same through the decimal text of a case file.
				s := decimal(mid)
				if neg {
					s = "-" + s
				}
				if got, err := numberBits(s, typ); got != want || err != nil {
					t.Fatalf("%s: %s = %#x, %v, want %#x", typ, s, got, err, want)
				}
			}
			if !viaFloat64 {
				continue
			}
			// The value is exact in float64 (tiny is not, so skip those).
			f, exact := c.r.Float64()
			if !exact {
				continue
			}
			if neg {
				f = -f
			}
			if got := roundFloat64(f, typ); got != want {
				t.Fatalf("%s: roundFloat64(%v) = %#x, want %#x", typ, f, got, want)
			}
		}
	}
}

// TestRoundingExhaustive checks the rounding around every finite f16 and
// bf16 value, against values built from the format's definition.
func TestRoundingExhaustive(t *testing.T) {
	for _, f := range formats[:2] {
		maxFinite := uint64(1<<f.ebits-1)<<f.mbits - 1
		for b := uint64(0); b <= maxFinite; b++ {
			checkRounding(t, f.typ, f.ebits, f.mbits, b, true)
		}
	}
}

// TestRoundingSampled does the same for f32 and f64 at every exponent's
// ends and at random.
func TestRoundingSampled(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, f := range formats[2:] {
		maxFinite := uint64(1<<f.ebits-1)<<f.mbits - 1
		for e := uint64(0); e < 1<<f.ebits-1; e++ {
			for _, m := range []uint64{0, 1, 2, 3, 1<<f.mbits - 2, 1<<f.mbits - 1} {
				checkRounding(t, f.typ, f.ebits, f.mbits, e<<f.mbits|m, f.typ == "f32")
			}
		}
		n := 10000
		if testing.Short() {
			n = 2000
		}
		for i := 0; i < n; i++ {
			checkRounding(t, f.typ, f.ebits, f.mbits, rng.Uint64()%maxFinite, f.typ == "f32")
		}
	}
}

// TestDecimalAgainstStrconv compares the conversion of random decimal
// numbers with strconv.ParseFloat, which rounds correctly.
func TestDecimalAgainstStrconv(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 20000; i++ {
		digits := strconv.FormatUint(1e18+rng.Uint64()%9e18, 10)[:1+rng.Intn(19)]
		s := fmt.Sprintf("%s.%se%d", digits[:1], digits[1:], rng.Intn(700)-350)
		if rng.Intn(2) == 0 {
			s = "-" + s
		}
		f64, _ := strconv.ParseFloat(s, 64)
		f32, _ := strconv.ParseFloat(s, 32)
		if got, _ := numberBits(s, "f64"); got != math.Float64bits(f64) {
			t.Errorf("f64 %s = %#x, want %#x", s, got, math.Float64bits(f64))
		}
		if got, _ := numberBits(s, "f32"); got != uint64(math.Float32bits(float32(f32))) {
			t.Errorf("f32 %s = %#x, want %#x", s, got, math.Float32bits(float32(f32)))
		}
	}
}

// TestFloatValueExhaustive decodes every f16 and bf16 value and compares it
// with the format's definition.
func TestFloatValueExhaustive(t *testing.T) {
	for _, f := range formats[:2] {
		maxFinite := uint64(1<<f.ebits-1)<<f.mbits - 1
		for b := uint64(0); b < 1<<16; b++ {
			mag := b & 0x7fff
			got := floatValue(b, f.typ)
			switch {
			case mag > maxFinite+1:
				if !math.IsNaN(got) {
					t.Fatalf("%s %#x = %v, want NaN", f.typ, b, got)
				}
				continue
			case mag == maxFinite+1:
				if !math.IsInf(got, 0) || math.Signbit(got) != (b&0x8000 != 0) {
					t.Fatalf("%s %#x = %v, want an infinity", f.typ, b, got)
				}
				continue
			}
			want, _ := ieeeValue(mag, f.ebits, f.mbits).Float64()
			if b&0x8000 != 0 {
				want = -want
			}
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s %#x = %v, want %v", f.typ, b, got, want)
			}
		}
	}
}

func TestValues(t *testing.T) {
	// Midpoints written out exactly from their definitions.
	f32Top := decimal(new(big.Rat).Sub(pow2(128), pow2(103))) // between the largest f32 and 2^128
	f64Half := decimal(pow2(-1075))                           // half the smallest f64 subnormal
	tests := []struct {
		typ, lit string
		want     uint64
		err      string
	}{
		{"f32", `0.1`, 0x3dcccccd, ""},
		{"f32", `1`, 0x3f800000, ""},
		{"f32", `2.5`, 0x40200000, ""},
		{"f32", `-0`, 0x80000000, ""},
		{"f32", `-0.0e5`, 0x80000000, ""},
		{"f32", `0`, 0, ""},
		{"f32", `"-0"`, 0x80000000, ""},
		{"f32", `"nan"`, 0x7fc00000, ""},
		{"f32", `"inf"`, 0x7f800000, ""},
		{"f32", `"-inf"`, 0xff800000, ""},
		{"f32", `"0x7f800001"`, 0x7f800001, ""},
		{"f32", `"0X7F800001"`, 0x7f800001, ""},
		{"f32", f32Top, 0x7f800000, ""},                                // tie, the odd largest finite loses
		{"f32", "-" + f32Top, 0xff800000, ""},                          //
		{"f32", f32Top[:len(f32Top)-1] + "7", 0x7f7fffff, ""},          // just below the tie
		{"f32", `3.4028235e38`, 0x7f7fffff, ""},                        //
		{"f32", `1e-46`, 0, ""},                                        // below half the smallest subnormal (2^-149 = 1.4e-45)
		{"f32", `8e-46`, 1, ""},                                        // above it
		{"f32", `1e400`, 0x7f800000, ""},                               //
		{"f32", `-1e400`, 0xff800000, ""},                              //
		{"f32", `1e-400`, 0, ""},                                       //
		{"f64", `0.1`, 0x3fb999999999999a, ""},                         //
		{"f64", `5e-324`, 1, ""},                                       //
		{"f64", f64Half, 0, ""},                                        // tie to even (zero)
		{"f64", f64Half + "1", 1, ""},                                  //
		{"f64", `"nan"`, 0x7ff8000000000000, ""},                       //
		{"f64", `"-0"`, 0x8000000000000000, ""},                        //
		{"f16", `0.333333333333333333333333`, 0x3555, ""},              // 1/3: 2^-2 * (1 + 341.33/1024)
		{"f16", `0.1`, 0x2e66, ""},                                     // 2^-4 * (1 + 614.4/1024)
		{"f16", `1`, 0x3c00, ""},                                       //
		{"f16", `65504`, 0x7bff, ""},                                   // the largest f16
		{"f16", `65519.99`, 0x7bff, ""},                                //
		{"f16", `65520`, 0x7c00, ""},                                   // tie between 65504 (odd) and 2^16: overflows
		{"f16", `-65520`, 0xfc00, ""},                                  //
		{"f16", `1.00048828125`, 0x3c00, ""},                           // 1 + 2^-11: tie, to even
		{"f16", `1.00048828125000000001`, 0x3c01, ""},                  // just above: exact arithmetic, no double rounding
		{"f16", `1.00146484375`, 0x3c02, ""},                           // 1 + 3*2^-11: tie, to even
		{"f16", `5.9604644775390625e-8`, 0x0001, ""},                   // 2^-24, the smallest subnormal
		{"f16", `2.98023223876953125e-8`, 0x0000, ""},                  // 2^-25: tie, to even (zero)
		{"f16", `2.98023223876953125000001e-8`, 0x0001, ""},            //
		{"f16", `8.94069671630859375e-8`, 0x0002, ""},                  // 3*2^-25: tie between 1 and 2
		{"f16", `6.103515625e-5`, 0x0400, ""},                          // 2^-14, the smallest normal
		{"f16", `6.0975551605224609375e-5`, 0x03ff, ""},                // the largest subnormal
		{"f16", `"nan"`, 0x7e00, ""},                                   //
		{"f16", `"-inf"`, 0xfc00, ""},                                  //
		{"f16", `"0x7e01"`, 0x7e01, ""},                                //
		{"f16", `"0x7e0"`, 0, `"0x7e0" has 3 hex digits, f16 needs 4`}, //
		{"bf16", `1.00390625`, 0x3f80, ""},                             // 1 + 2^-8: tie, to even
		{"bf16", `1.00390625000001`, 0x3f81, ""},                       //
		{"bf16", `1.01171875`, 0x3f82, ""},                             // 1 + 3*2^-8: tie, to even
		{"bf16", `0.1`, 0x3dcd, ""},                                    // 2^-4 * (1 + 76.8/128)
		{"bf16", `3.3895313892515355e38`, 0x7f7f, ""},                  // the largest bf16
		{"bf16", `3.40e38`, 0x7f80, ""},                                // past the midpoint 2^128 - 2^119
		{"bf16", `"nan"`, 0x7fc0, ""},                                  //
		{"u8", `255`, 0xff, ""},                                        //
		{"u8", `256`, 0, `256 is out of range for u8 (0 to 255)`},
		{"u8", `-1`, 0, `-1 is out of range for u8 (0 to 255)`},
		{"u8", `"-0"`, 0, `"-0" is only a value of float types, not u8`},
		{"u8", `"0xff"`, 0xff, ""},
		{"s8", `-128`, 0x80, ""},
		{"s8", `127`, 0x7f, ""},
		{"s8", `-129`, 0, `-129 is out of range for s8 (-128 to 127)`},
		{"s8", `128`, 0, `128 is out of range for s8`},
		{"s16", `-1`, 0xffff, ""},
		{"b16", `-1`, 0xffff, ""},
		{"b16", `65535`, 0xffff, ""},
		{"b16", `-32768`, 0x8000, ""},
		{"b16", `65536`, 0, `65536 is out of range for b16 (-32768 to 65535)`},
		{"b16", `-32769`, 0, `out of range`},
		{"u32", `1e3`, 1000, ""},
		{"u32", `-0`, 0, ""},
		{"u32", `1.5`, 0, `1.5 is not an integer (u32 is an integer type)`},
		{"u32", `"inf"`, 0, `"inf" is only a value of float types, not u32`},
		{"u32", `"0x0000000a"`, 10, ""},
		{"u32", `"0xa"`, 0, `"0xa" has 1 hex digit, u32 needs 8`},
		{"u64", `18446744073709551615`, math.MaxUint64, ""},
		{"u64", `18446744073709551616`, 0, `out of range for u64 (0 to 18446744073709551615)`},
		{"s64", `-9223372036854775808`, 1 << 63, ""},
		{"s64", `9223372036854775808`, 0, `out of range for s64`},
		{"b64", `-1`, math.MaxUint64, ""},
		{"b64", `18446744073709551615`, math.MaxUint64, ""},
		{"s32", `-2147483648`, 0x80000000, ""},
		{"f32", `1e999999`, 0, `1e999999: exponent out of range`},
	}
	for _, tt := range tests {
		v, err := decodeTree([]byte(tt.lit))
		if err != nil {
			t.Fatalf("%s: %v", tt.lit, err)
		}
		got, err := parseValue(v, tt.typ)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s %s: got %#x, %v; want error %q", tt.typ, tt.lit, got, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("%s %s: %v", tt.typ, tt.lit, err)
		case tt.err == "" && got != tt.want:
			t.Errorf("%s %s = %#x, want %#x", tt.typ, tt.lit, got, tt.want)
		}
	}
}

// le packs element bits little-endian at the given width.
func le(size int, vals ...uint64) []byte {
	var out []byte
	for _, v := range vals {
		for i := 0; i < size; i++ {
			out = append(out, byte(v>>(8*i)))
		}
	}
	return out
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name      string
		typ       string
		cmp       Compare
		got, want uint64
		match     bool
	}{
		{"exact equal", "f32", Compare{Mode: "exact"}, 0x3f800000, 0x3f800000, true},
		{"exact differ", "f32", Compare{Mode: "exact"}, 0x3f800001, 0x3f800000, false},
		{"exact NaN payloads", "f32", Compare{Mode: "exact"}, 0x7fc00001, 0xffc00000, true},
		{"exact sNaN vs qNaN", "f32", Compare{Mode: "exact"}, 0x7f800001, 0x7fc00000, true},
		{"exact inf is not NaN", "f32", Compare{Mode: "exact"}, 0x7f800000, 0x7fc00000, false},
		{"exact -0 vs +0", "f32", Compare{Mode: "exact"}, 0x80000000, 0, false},
		{"exact f16 NaNs", "f16", Compare{Mode: "exact"}, 0x7e00, 0xfd01, true},
		{"exact bf16 NaNs", "bf16", Compare{Mode: "exact"}, 0x7fc0, 0x7f81, true},
		{"exact f64 NaNs", "f64", Compare{Mode: "exact"}, 0x7ff8000000000000, 0x7ff0000000000001, true},
		{"exact u32 is bitwise", "u32", Compare{Mode: "exact"}, 0x7fc00001, 0x7fc00000, false},
		{"exact b16 is bitwise", "b16", Compare{Mode: "exact"}, 0x7e00, 0x7e01, false},
		{"bits NaN payloads", "f32", Compare{Mode: "bits"}, 0x7fc00001, 0x7fc00000, false},
		{"bits same NaN", "f32", Compare{Mode: "bits"}, 0x7fc00000, 0x7fc00000, true},

		// tolerance: |got-want| <= atol + rtol*|want|
		{"tol atol in", "f32", Compare{Mode: "tolerance", Atol: 0.01}, 0x3f808312, 0x3f800000, true}, // 1.004
		{"tol atol out", "f32", Compare{Mode: "tolerance", Atol: 0.001}, 0x3f808312, 0x3f800000, false},
		{"tol rtol in", "f32", Compare{Mode: "tolerance", Rtol: 0.01}, 0x42c88312, 0x42c80000, true},    // 100.256 vs 100
		{"tol rtol out", "f32", Compare{Mode: "tolerance", Rtol: 0.001}, 0x42c88312, 0x42c80000, false}, // 0.256 > 0.1
		{"tol NaN NaN", "f32", Compare{Mode: "tolerance", Atol: 1}, 0x7fc00001, 0x7fc00000, true},
		{"tol NaN vs 1", "f32", Compare{Mode: "tolerance", Atol: 1e30}, 0x7fc00000, 0x3f800000, false},
		{"tol 1 vs NaN", "f32", Compare{Mode: "tolerance", Atol: 1e30}, 0x3f800000, 0x7fc00000, false},
		{"tol inf vs max", "f32", Compare{Mode: "tolerance", Atol: 1e30, Rtol: 1}, 0x7f800000, 0x7f7fffff, false},
		{"tol -inf vs inf", "f32", Compare{Mode: "tolerance", Atol: 1}, 0xff800000, 0x7f800000, false},
		{"tol -0 vs +0", "f32", Compare{Mode: "tolerance"}, 0x80000000, 0, true},
		{"tol f16", "f16", Compare{Mode: "tolerance", Atol: 1.0 / 1024}, 0x3c01, 0x3c00, true}, // 1+2^-10 vs 1
		{"tol f16 out", "f16", Compare{Mode: "tolerance", Atol: 1.0 / 2048}, 0x3c01, 0x3c00, false},
		{"tol s32 across zero", "s32", Compare{Mode: "tolerance", Atol: 10}, 5, 0xfffffffb, true}, // 5 vs -5
		{"tol s32 out", "s32", Compare{Mode: "tolerance", Atol: 9}, 5, 0xfffffffb, false},
		{"tol s32 rtol", "s32", Compare{Mode: "tolerance", Rtol: 0.5}, 0xfffffffd, 0xfffffffa, true}, // -3 vs -6: 3 <= 3
		{"tol u8", "u8", Compare{Mode: "tolerance", Atol: 5}, 250, 255, true},
		{"tol u8 out", "u8", Compare{Mode: "tolerance", Atol: 4}, 250, 255, false},
		{"tol s64 extremes", "s64", Compare{Mode: "tolerance", Atol: 1.8446744073709552e19}, 1<<63 - 1, 1 << 63, true},

		// ulp: distance in representable values
		{"ulp 2 of 2", "f32", Compare{Mode: "ulp", ULP: 2}, 0x3f800002, 0x3f800000, true},
		{"ulp 2 of 1", "f32", Compare{Mode: "ulp", ULP: 1}, 0x3f800002, 0x3f800000, false},
		{"ulp across a binade", "f32", Compare{Mode: "ulp", ULP: 1}, 0x3f7fffff, 0x3f800000, true},
		{"ulp +0 -0", "f32", Compare{Mode: "ulp", ULP: 0}, 0x80000000, 0, true},
		{"ulp across zero", "f32", Compare{Mode: "ulp", ULP: 2}, 0x80000001, 0x00000001, true},
		{"ulp across zero out", "f32", Compare{Mode: "ulp", ULP: 1}, 0x80000001, 0x00000001, false},
		{"ulp max to inf", "f32", Compare{Mode: "ulp", ULP: 1}, 0x7f800000, 0x7f7fffff, true},
		{"ulp NaN NaN", "f32", Compare{Mode: "ulp"}, 0x7fc00001, 0xffc00000, true},
		{"ulp NaN vs inf", "f32", Compare{Mode: "ulp", ULP: 1 << 40}, 0x7fc00000, 0x7f800000, false},
		{"ulp f16 across zero", "f16", Compare{Mode: "ulp", ULP: 2}, 0x8001, 0x0001, true},
		{"ulp f16 across zero out", "f16", Compare{Mode: "ulp", ULP: 1}, 0x8001, 0x0001, false},
		{"ulp bf16", "bf16", Compare{Mode: "ulp", ULP: 3}, 0x3f83, 0x3f80, true},
		{"ulp f64 -max to max", "f64", Compare{Mode: "ulp", ULP: 2 * 0x7fefffffffffffff}, 0xffefffffffffffff, 0x7fefffffffffffff, true},
		{"ulp f64 -max to max out", "f64", Compare{Mode: "ulp", ULP: 2*0x7fefffffffffffff - 1}, 0xffefffffffffffff, 0x7fefffffffffffff, false},
	}
	for _, tt := range tests {
		es := ElemSize(tt.typ)
		b := &Buffer{Name: "y", Type: tt.typ, Count: 2, Size: 2 * es, Init: make([]byte, 2*es),
			Expected: le(es, 7, tt.want), Output: true, Compare: tt.cmp}
		ms := b.Check(le(es, 7, tt.got))
		if tt.match && len(ms) != 0 {
			t.Errorf("%s: mismatches %+v, want none", tt.name, ms)
		}
		if !tt.match && (len(ms) != 1 || ms[0].Index != 1 || ms[0].Got != tt.got || ms[0].Want != tt.want) {
			t.Errorf("%s: mismatches %+v, want element 1", tt.name, ms)
		}
	}
}

func TestCheckBuffers(t *testing.T) {
	// An unchanged buffer is compared bitwise with its initial contents.
	x := &Buffer{Name: "x", Type: "f32", Count: 3, Size: 12, Init: le(4, 0x7fc00000, 1, 2), Compare: Compare{Mode: "exact"}}
	if ms := x.Check(le(4, 0x7fc00000, 1, 2)); ms != nil {
		t.Errorf("unchanged: %+v", ms)
	}
	ms := x.Check(le(4, 0x7fc00001, 1, 3))
	want := []Mismatch{
		{Index: 0, Got: 0x7fc00001, Want: 0x7fc00000, Text: "got 0x7fc00001 want 0x7fc00000"},
		{Index: 2, Got: 3, Want: 2, Text: "got 0x00000003 want 0x00000002"},
	}
	if !reflect.DeepEqual(ms, want) {
		t.Errorf("changed:\n got %+v\nwant %+v", ms, want)
	}
	// A buffer with neither expected contents nor "output": false is not checked.
	y := &Buffer{Name: "y", Type: "u8", Count: 2, Size: 2, Init: []byte{1, 2}, Output: true}
	if ms := y.Check([]byte{9, 9}); ms != nil || y.Checked() {
		t.Errorf("unchecked: %+v", ms)
	}
	// Sizes that differ are one mismatch.
	y.Expected = []byte{1, 2}
	ms = y.Check([]byte{1})
	if len(ms) != 1 || ms[0].Index != -1 || ms[0].Text != "got 1 bytes want 2" {
		t.Errorf("size: %+v", ms)
	}
	if s := FormatMismatches("y", ms, 3); s != "buffer y: got 1 bytes want 2" {
		t.Errorf("size text: %q", s)
	}
	// Element widths in the text.
	z := &Buffer{Name: "z", Type: "f16", Count: 1, Size: 2, Expected: le(2, 0x3c00), Output: true}
	if ms := z.Check(le(2, 0x3c01)); len(ms) != 1 || ms[0].Text != "got 0x3c01 want 0x3c00" {
		t.Errorf("f16: %+v", ms)
	}
}

func TestFormatMismatches(t *testing.T) {
	ms := []Mismatch{
		{Index: 12, Got: 0x3f800000, Want: 0x3f800001, Text: "got 0x3f800000 want 0x3f800001"},
		{Index: 13, Text: "got 0x00000000 want 0x00000001"},
		{Index: 40, Text: "got 0x00000002 want 0x00000001"},
		{Index: 41, Text: "got 0x00000003 want 0x00000001"},
	}
	for _, tt := range []struct {
		max  int
		want string
	}{
		{1, "buffer y[12]: got 0x3f800000 want 0x3f800001; 3 more mismatches in y"},
		{3, "buffer y[12]: got 0x3f800000 want 0x3f800001; buffer y[13]: got 0x00000000 want 0x00000001; buffer y[40]: got 0x00000002 want 0x00000001; 1 more mismatch in y"},
		{4, "buffer y[12]: got 0x3f800000 want 0x3f800001; buffer y[13]: got 0x00000000 want 0x00000001; buffer y[40]: got 0x00000002 want 0x00000001; buffer y[41]: got 0x00000003 want 0x00000001"},
		{0, "buffer y[12]: got 0x3f800000 want 0x3f800001; buffer y[13]: got 0x00000000 want 0x00000001; buffer y[40]: got 0x00000002 want 0x00000001; buffer y[41]: got 0x00000003 want 0x00000001"},
	} {
		if got := FormatMismatches("y", ms, tt.max); got != tt.want {
			t.Errorf("max %d:\n got %q\nwant %q", tt.max, got, tt.want)
		}
	}
	if got := FormatMismatches("y", nil, 3); got != "" {
		t.Errorf("none: %q", got)
	}
}

func TestParamValue(t *testing.T) {
	addr := func(name string) uint64 {
		return map[string]uint64{"x": 0x7f0000001000, "y": 0x10}[name]
	}
	for _, tt := range []struct {
		p    Param
		want []byte
	}{
		{Param{Kind: "ptr", Buffer: "x", Offset: 4}, []byte{0x04, 0x10, 0, 0, 0, 0x7f, 0, 0}},
		{Param{Kind: "ptr", Buffer: "y", Offset: -0x11}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{Param{Kind: "u16", Bits: 0xbeef}, []byte{0xef, 0xbe}},
		{Param{Kind: "s8", Bits: 0x80}, []byte{0x80}},
		{Param{Kind: "f32", Bits: 0x40200000}, []byte{0, 0, 0x20, 0x40}},
		{Param{Kind: "f64", Bits: 0x3fb999999999999a}, []byte{0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xb9, 0x3f}},
		{Param{Kind: "bf16", Bits: 0x3f80}, []byte{0x80, 0x3f}},
		{Param{Kind: "bytes", Bytes: []byte{1, 2, 3}, Align: 4}, []byte{1, 2, 3}},
	} {
		if got := tt.p.Value(addr); !bytes.Equal(got, tt.want) || tt.p.Size() != len(tt.want) {
			t.Errorf("%+v: % x (size %d), want % x", tt.p, got, tt.p.Size(), tt.want)
		}
	}
	p := Param{Kind: "bytes", Bytes: []byte{1}}
	p.Value(addr)[0] = 9
	if p.Bytes[0] != 1 {
		t.Error("Value returned the param's own bytes")
	}
	if ElemSize("bf16") != 2 || ElemSize("u64") != 8 || ElemSize("b8") != 1 || ElemSize("ptr") != 0 || ElemSize("f8") != 0 {
		t.Error("ElemSize")
	}
}

func roundTrip(t *testing.T, c *Case) {
	t.Helper()
	data, err := Write(c)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := Parse(data, "")
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if !reflect.DeepEqual(c, c2) {
		t.Errorf("round trip differs:\n%s\n got %+v\nwant %+v", data, c2, c)
		for i := range c.Buffers {
			if i < len(c2.Buffers) && !reflect.DeepEqual(c.Buffers[i], c2.Buffers[i]) {
				t.Errorf("buffer %d:\n got %+v\nwant %+v", i, c2.Buffers[i], c.Buffers[i])
			}
		}
	}
}

func TestWriteRoundTrip(t *testing.T) {
	for _, f := range []string{"testdata/saxpy.json", "testdata/halfscale.json", "testdata/oob.json"} {
		c, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, c)
	}
	c, err := Parse([]byte(base), "")
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, c)

	// Every element type with its awkward values, a large buffer (base64),
	// every compare mode, every parameter kind.
	rng := rand.New(rand.NewSource(3))
	big := make([]byte, 4*1000)
	rng.Read(big)
	c = &Case{
		Name: "all", PTX: []string{"a.ptx", "/abs/b.ptx"}, Kernel: "_Z1kPf",
		Grid: [3]int{3, 2, 1}, Block: [3]int{4, 4, 4}, Cluster: [3]int{1, 2, 1}, HasCluster: true,
		DynamicShared: 1024, Arch: "sm_100a", ExpectError: "trap",
		Buffers: []*Buffer{
			{Name: "big", Type: "f32", Count: 1000, Size: 4000, Init: big, Expected: big, Output: true,
				Compare: Compare{Mode: "tolerance", Atol: 1e-6, Rtol: 0.1}},
			{Name: "empty", Type: "u32", Count: 0, Size: 0, Init: []byte{}, Expected: []byte{}, Output: true, Compare: Compare{Mode: "exact"}},
		},
	}
	specials := map[string][]uint64{
		"f16":  {0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7e01, 0xfe00, 0x0001, 0x03ff, 0x0400, 0x7bff, 0x3555, 0x2e66},
		"bf16": {0, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0x0001, 0x7f7f, 0x3dcd},
		"f32":  {0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00000, 1, 0x7f7fffff, 0x3dcccccd, 0x00800000},
		"f64":  {0, 1 << 63, 0x7ff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001, 1, 0x7fefffffffffffff, 0x3fb999999999999a},
		"u8":   {0, 1, 0xff}, "u16": {0xffff}, "u32": {0xffffffff}, "u64": {math.MaxUint64},
		"s8": {0x80, 0x7f, 0xff}, "s16": {0x8000}, "s32": {0x80000000}, "s64": {1 << 63, math.MaxUint64},
		"b8": {0xa5}, "b16": {0xbeef}, "b32": {0xdeadbeef}, "b64": {0x0123456789abcdef},
	}
	for _, typ := range strings.Fields(typeNames) {
		vals := specials[typ]
		es := ElemSize(typ)
		for i := 0; i < 20; i++ { // random bit patterns
			vals = append(vals, rng.Uint64()&types[typ].mask())
		}
		data := le(es, vals...)
		cmp := Compare{Mode: "bits"}
		if IsFloat(typ) {
			cmp = Compare{Mode: "ulp", ULP: 4}
		}
		c.Buffers = append(c.Buffers, &Buffer{Name: "buf_" + typ, Type: typ, Count: len(vals), Size: len(data),
			Init: data, Expected: data, Output: true, Compare: cmp})
		c.Buffers = append(c.Buffers, &Buffer{Name: "in_" + typ, Type: typ, Count: len(vals), Size: len(data),
			Init: data, Compare: Compare{Mode: "exact"}})
		for _, v := range vals {
			c.Params = append(c.Params, Param{Kind: typ, Bits: v, Align: es})
		}
	}
	c.Params = append(c.Params,
		Param{Kind: "ptr", Buffer: "big", Offset: -8, Align: 8},
		Param{Kind: "bytes", Bytes: []byte{1, 2, 3, 4, 5}, Align: 16})
	roundTrip(t, c)

	c.PTX, c.PTXText = nil, ".version 8.0\n.target sm_90 // <&>\n"
	roundTrip(t, c)

	// An invalid case is not written.
	c.Buffers[0].Init = c.Buffers[0].Init[:5]
	if _, err := Write(c); err == nil || !strings.Contains(err.Error(), "buffers[0].init_b64: decodes to 5 bytes, want 4000") {
		t.Errorf("invalid case: %v", err)
	}
}

// FuzzParse: no input may panic, and a case that parses writes and parses
// back to itself.
func FuzzParse(f *testing.F) {
	f.Add([]byte(base))
	for _, name := range []string{"saxpy.json", "halfscale.json", "oob.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data, "")
		if err != nil {
			return
		}
		out, err := Write(c)
		if err != nil {
			t.Fatalf("Write: %v", err)
		}
		c2, err := Parse(out, "")
		if err != nil || !reflect.DeepEqual(c, c2) {
			t.Fatalf("round trip: %v\n%s", err, out)
		}
	})
}
