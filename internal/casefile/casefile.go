// Package casefile reads, validates and writes ptxvm case files (format
// "ptxvm-case/1", described in case-format.md): one kernel launch, the
// buffers and parameters it gets, and what it must produce.
//
// Load and Parse check every field and report each problem with the field's
// path ("saxpy.json: buffers[1].init[3]: ..."); a Case that they return is
// complete and consistent, so its users need not check it again.
package casefile

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Format is the value of a case file's "format" field.
const Format = "ptxvm-case/1"

// Case is one validated case file.
type Case struct {
	Name          string   // "case"; Load defaults it to the file's base name without ".json"
	PTX           []string // module paths, resolved against the case file's directory
	PTXText       string   // "ptx_text", when it stands instead of PTX
	Kernel        string
	Grid, Block   [3]int
	Cluster       [3]int // valid when HasCluster
	HasCluster    bool
	DynamicShared int    // "dynamic_shared_bytes"
	Arch          string // "" means the module's highest target
	Params        []Param
	Buffers       []*Buffer
	ExpectError   string // "" when the launch must succeed
}

// Param is one kernel parameter, in .entry order.
type Param struct {
	Kind   string // "ptr", "bytes" or an element type ("u32", "f16", ...)
	Bits   uint64 // scalars: the value, little-endian in the kind's width
	Buffer string // ptr: the buffer it points into
	Offset int64  // ptr: bytes past the buffer's start
	Bytes  []byte // bytes: the aggregate's contents
	Align  int    // bytes: the declared alignment; otherwise the natural one
}

// Buffer is one global-memory allocation made before the launch.
type Buffer struct {
	Name     string
	Type     string // element type
	Count    int    // elements
	Size     int    // bytes: Count * ElemSize(Type)
	Init     []byte // initial contents, little-endian, len Size (zeros when absent)
	Expected []byte // contents after the launch; nil when not given
	Output   bool   // false: the buffer must be unchanged ("output": false)
	Compare  Compare
}

// Compare says how a buffer's contents are compared with Expected.
type Compare struct {
	Mode string  // "exact" (the default), "bits", "tolerance" or "ulp"
	Atol float64 // tolerance: |got-want| <= Atol + Rtol*|want|
	Rtol float64
	ULP  uint64 // ulp: the largest distance in units in the last place
}

// Checked reports whether the buffer's contents are checked after the launch.
func (b *Buffer) Checked() bool { return !b.Output || b.Expected != nil }

// Buffer returns the buffer with the given name, or nil.
func (c *Case) Buffer(name string) *Buffer {
	for _, b := range c.Buffers {
		if b.Name == name {
			return b
		}
	}
	return nil
}

// Size returns the parameter's size in bytes.
func (p *Param) Size() int {
	switch p.Kind {
	case "ptr":
		return 8
	case "bytes":
		return len(p.Bytes)
	}
	return ElemSize(p.Kind)
}

// Value returns the little-endian bytes of the parameter: for ptr, the
// 8-byte address of its buffer (from addr) plus its offset; for a scalar,
// its bits in the kind's width; for bytes, a copy of its contents.
func (p *Param) Value(addr func(buffer string) uint64) []byte {
	switch p.Kind {
	case "ptr":
		return binary.LittleEndian.AppendUint64(nil, addr(p.Buffer)+uint64(p.Offset))
	case "bytes":
		return append([]byte(nil), p.Bytes...)
	}
	b := binary.LittleEndian.AppendUint64(nil, p.Bits)
	return b[:ElemSize(p.Kind)]
}

// Error is one problem in a case file.
type Error struct {
	File  string // the case file, when known
	Field string // the field's path, e.g. "buffers[1].init[3]"; "" for the whole file
	Msg   string
}

func (e *Error) Error() string {
	s := e.Msg
	if e.Field != "" {
		s = e.Field + ": " + s
	}
	if e.File != "" {
		s = e.File + ": " + s
	}
	return s
}

// ErrorList is every problem found in one case file, in file order. Load
// and Parse return one when a file is not valid.
type ErrorList []*Error

func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Unwrap lets errors.As find the individual errors.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// maxErrors bounds how many problems one file reports.
const maxErrors = 20

// Limits on sizes a case file may declare, so that a malformed file cannot
// make Load allocate without bound.
const (
	MaxBufferBytes = 1 << 32
	MaxParamBytes  = 1 << 16
	maxDim         = math.MaxInt32
)

// Load reads and validates the case file at path. Relative ptx paths are
// resolved against the file's directory and must exist; a missing "case"
// name defaults to the file's base name without ".json". Errors name path.
func Load(path string) (*Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := parse(data, filepath.Dir(path), path)
	if err != nil {
		return nil, err
	}
	if c.Name == "" {
		c.Name = strings.TrimSuffix(filepath.Base(path), ".json")
	}
	var errs ErrorList
	for i, p := range c.PTX {
		if _, err := os.Stat(p); err != nil {
			msg := err.Error()
			var pe *os.PathError
			if errors.As(err, &pe) {
				msg = pe.Err.Error()
			}
			errs = append(errs, &Error{File: path, Field: indexPath("ptx", i), Msg: fmt.Sprintf("%s: %s", p, msg)})
		}
	}
	if errs != nil {
		return nil, errs
	}
	return c, nil
}

// Parse decodes and validates a case file's contents. Relative ptx paths are
// joined to dir (unless dir is ""); Parse does not look at the file system.
func Parse(data []byte, dir string) (*Case, error) {
	return parse(data, dir, "")
}

func parse(data []byte, dir, file string) (*Case, error) {
	p := &parser{file: file}
	tree, err := decodeTree(data)
	if err != nil {
		var fe *Error
		if !errors.As(err, &fe) {
			fe = &Error{Msg: err.Error()}
		}
		fe.File = file
		return nil, ErrorList{fe}
	}
	c := p.parseCase(tree, dir)
	if p.errs != nil {
		return nil, p.errs
	}
	return c, nil
}

type parser struct {
	file string
	errs ErrorList
}

func (p *parser) errorf(field, format string, args ...any) {
	if len(p.errs) < maxErrors {
		p.errs = append(p.errs, &Error{File: p.file, Field: field, Msg: fmt.Sprintf(format, args...)})
	}
}

// fields checks that o is an object with only the given keys and returns it.
func (p *parser) fields(v any, path string, keys ...string) *object {
	o, ok := v.(*object)
	if !ok {
		p.errorf(path, "want an object, not %s", describe(v))
		return nil
	}
	for _, k := range o.keys {
		if !contains(keys, k) {
			p.errorf(fieldPath(path, k), "unknown field (want one of %s)", strings.Join(keys, ", "))
		}
	}
	return o
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) str(v any, path string) (string, bool) {
	s, ok := v.(string)
	if !ok {
		p.errorf(path, "want a string, not %s", describe(v))
	}
	return s, ok
}

func (p *parser) nonEmpty(v any, path string) (string, bool) {
	s, ok := p.str(v, path)
	if ok && s == "" {
		p.errorf(path, "must not be empty")
		return "", false
	}
	return s, ok
}

// integer reads an integral JSON number in [lo, hi].
func (p *parser) integer(v any, path string, lo, hi int64) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		p.errorf(path, "want an integer, not %s", describe(v))
		return 0, false
	}
	r, err := numberRat(string(n))
	if err != nil {
		p.errorf(path, "%v", err)
		return 0, false
	}
	if !r.IsInt() {
		p.errorf(path, "%s is not an integer", n)
		return 0, false
	}
	if !r.Num().IsInt64() || r.Num().Int64() < lo || r.Num().Int64() > hi {
		p.errorf(path, "%s is out of range (%d to %d)", n, lo, hi)
		return 0, false
	}
	return r.Num().Int64(), true
}

// real reads a finite non-negative JSON number.
func (p *parser) real(v any, path string) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		p.errorf(path, "want a number, not %s", describe(v))
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || f < 0 || math.IsInf(f, 0) {
		p.errorf(path, "%s is not a finite non-negative number", n)
		return 0, false
	}
	return f, true
}

func (p *parser) dims(v any, path string) ([3]int, bool) {
	var d [3]int
	a, ok := v.([]any)
	if !ok || len(a) != 3 {
		if ok {
			p.errorf(path, "want [x, y, z], not %d numbers", len(a))
		} else {
			p.errorf(path, "want [x, y, z], not %s", describe(v))
		}
		return d, false
	}
	good := true
	for i, x := range a {
		n, ok := p.integer(x, indexPath(path, i), 1, maxDim)
		d[i] = int(n)
		good = good && ok
	}
	return d, good
}

func (p *parser) b64(v any, path string, size int) ([]byte, bool) {
	s, ok := p.str(v, path)
	if !ok {
		return nil, false
	}
	data, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		var err2 error
		data, err2 = base64.RawStdEncoding.DecodeString(s)
		if err2 != nil {
			p.errorf(path, "not base64: %v", err)
			return nil, false
		}
	}
	if len(data) != size {
		p.errorf(path, "decodes to %d bytes, want %d", len(data), size)
		return nil, false
	}
	return data, true
}

var archRE = regexp.MustCompile(`^sm_[1-9][0-9]{1,2}[af]?$`)

func (p *parser) parseCase(tree any, dir string) *Case {
	o, ok := tree.(*object)
	if !ok {
		p.errorf("", "want a JSON object, not %s", describe(tree))
		return nil
	}
	f, ok := o.get("format")
	if !ok {
		p.errorf("format", "missing (want %q)", Format)
		return nil
	}
	if s, ok := p.str(f, "format"); !ok {
		return nil
	} else if s != Format {
		p.errorf("format", "%q is not supported (want %q)", s, Format)
		return nil
	}
	o = p.fields(o, "", "format", "case", "ptx", "ptx_text", "kernel", "grid", "block", "cluster",
		"dynamic_shared_bytes", "arch", "params", "buffers", "expect_error")
	c := &Case{}
	if v, ok := o.get("case"); ok {
		c.Name, _ = p.nonEmpty(v, "case")
	}
	ptx, hasPTX := o.get("ptx")
	text, hasText := o.get("ptx_text")
	switch {
	case hasPTX && hasText:
		p.errorf("ptx_text", "only one of ptx and ptx_text may be given")
	case hasText:
		c.PTXText, _ = p.nonEmpty(text, "ptx_text")
	case hasPTX:
		c.PTX = p.ptxPaths(ptx, dir)
	default:
		p.errorf("ptx", "missing (give ptx or ptx_text)")
	}
	if v, ok := o.get("kernel"); ok {
		c.Kernel, _ = p.nonEmpty(v, "kernel")
	} else {
		p.errorf("kernel", "missing")
	}
	for _, d := range []struct {
		name string
		dst  *[3]int
	}{{"grid", &c.Grid}, {"block", &c.Block}, {"cluster", &c.Cluster}} {
		if v, ok := o.get(d.name); ok {
			*d.dst, _ = p.dims(v, d.name)
		} else if d.name != "cluster" {
			p.errorf(d.name, "missing (want [x, y, z])")
		}
	}
	_, c.HasCluster = o.get("cluster")
	if v, ok := o.get("dynamic_shared_bytes"); ok {
		n, _ := p.integer(v, "dynamic_shared_bytes", 0, math.MaxInt32)
		c.DynamicShared = int(n)
	}
	if v, ok := o.get("arch"); ok {
		if s, ok := p.str(v, "arch"); ok {
			if archRE.MatchString(s) {
				c.Arch = s
			} else {
				p.errorf("arch", "%q is not a target name like \"sm_90\" or \"sm_90a\"", s)
			}
		}
	}
	if v, ok := o.get("buffers"); ok {
		c.Buffers = p.buffers(v, "buffers")
	}
	if v, ok := o.get("params"); ok {
		c.Params = p.params(v, "params", c)
	}
	if v, ok := o.get("expect_error"); ok {
		c.ExpectError, _ = p.nonEmpty(v, "expect_error")
	}
	return c
}

func (p *parser) ptxPaths(v any, dir string) []string {
	var list []any
	switch v := v.(type) {
	case string:
		list = []any{v}
	case []any:
		if len(v) == 0 {
			p.errorf("ptx", "empty list (want at least one path)")
		}
		list = v
	default:
		p.errorf("ptx", "want a path or a list of paths, not %s", describe(v))
	}
	var out []string
	for i, x := range list {
		path := "ptx"
		if _, isList := v.([]any); isList {
			path = indexPath("ptx", i)
		}
		s, ok := p.nonEmpty(x, path)
		if !ok {
			continue
		}
		if dir != "" && !filepath.IsAbs(s) {
			s = filepath.Join(dir, s)
		}
		out = append(out, s)
	}
	return out
}

func (p *parser) params(v any, path string, c *Case) []Param {
	a, ok := v.([]any)
	if !ok {
		p.errorf(path, "want a list of parameters, not %s", describe(v))
		return nil
	}
	var out []Param
	for i, x := range a {
		pp := indexPath(path, i)
		o, ok := x.(*object)
		if !ok {
			p.errorf(pp, "want an object, not %s", describe(x))
			continue
		}
		kv, ok := o.get("kind")
		if !ok {
			p.errorf(fieldPath(pp, "kind"), "missing (want ptr, bytes or one of %s)", typeNames)
			continue
		}
		kind, ok := p.str(kv, fieldPath(pp, "kind"))
		if !ok {
			continue
		}
		prm := Param{Kind: kind}
		switch {
		case kind == "ptr":
			p.fields(o, pp, "kind", "buffer", "offset")
			prm.Align = 8
			if bv, ok := o.get("buffer"); !ok {
				p.errorf(fieldPath(pp, "buffer"), "missing (want the name of a buffer)")
			} else if name, ok := p.nonEmpty(bv, fieldPath(pp, "buffer")); ok {
				if c.Buffer(name) == nil {
					p.errorf(fieldPath(pp, "buffer"), "no buffer is named %q", name)
				}
				prm.Buffer = name
			}
			if ov, ok := o.get("offset"); ok {
				prm.Offset, _ = p.integer(ov, fieldPath(pp, "offset"), math.MinInt64, math.MaxInt64)
			}
		case kind == "bytes":
			p.fields(o, pp, "kind", "size", "align", "data_b64")
			size := int64(0)
			if sv, ok := o.get("size"); !ok {
				p.errorf(fieldPath(pp, "size"), "missing")
			} else {
				size, _ = p.integer(sv, fieldPath(pp, "size"), 1, MaxParamBytes)
			}
			prm.Align = 1
			if av, ok := o.get("align"); ok {
				n, ok := p.integer(av, fieldPath(pp, "align"), 1, MaxParamBytes)
				if ok && n&(n-1) != 0 {
					p.errorf(fieldPath(pp, "align"), "%d is not a power of two", n)
				}
				prm.Align = int(n)
			}
			prm.Bytes = make([]byte, size)
			if dv, ok := o.get("data_b64"); ok && size > 0 {
				if data, ok := p.b64(dv, fieldPath(pp, "data_b64"), int(size)); ok {
					prm.Bytes = data
				}
			}
		case types[kind].size != 0:
			p.fields(o, pp, "kind", "value", "bits")
			prm.Align = ElemSize(kind)
			vv, hasValue := o.get("value")
			bv, hasBits := o.get("bits")
			if hasValue {
				b, err := parseValue(vv, kind)
				if err != nil {
					p.errorf(fieldPath(pp, "value"), "%v", err)
				}
				prm.Bits = b
			}
			if hasBits {
				if s, ok := p.str(bv, fieldPath(pp, "bits")); ok {
					b, err := parseHex(s, kind)
					if err != nil {
						p.errorf(fieldPath(pp, "bits"), "%v", err)
					}
					prm.Bits = b
				}
			}
			if !hasValue && !hasBits {
				p.errorf(pp, "a %s parameter needs value or bits", kind)
			}
		default:
			p.errorf(fieldPath(pp, "kind"), "%q is not a parameter kind (want ptr, bytes or one of %s)", kind, typeNames)
			continue
		}
		out = append(out, prm)
	}
	return out
}

func (p *parser) buffers(v any, path string) []*Buffer {
	a, ok := v.([]any)
	if !ok {
		p.errorf(path, "want a list of buffers, not %s", describe(v))
		return nil
	}
	var out []*Buffer
	seen := map[string]int{}
	for i, x := range a {
		bp := indexPath(path, i)
		o := p.fields(x, bp, "name", "type", "count", "bytes", "init", "init_b64",
			"expected", "expected_b64", "output", "compare")
		if o == nil {
			continue
		}
		b := &Buffer{Output: true, Compare: Compare{Mode: "exact"}}
		if nv, ok := o.get("name"); !ok {
			p.errorf(fieldPath(bp, "name"), "missing")
		} else if name, ok := p.nonEmpty(nv, fieldPath(bp, "name")); ok {
			if j, dup := seen[name]; dup {
				p.errorf(fieldPath(bp, "name"), "%q is also the name of buffers[%d]", name, j)
			}
			seen[name] = i
			b.Name = name
		}
		cv, hasCount := o.get("count")
		sv, hasBytes := o.get("bytes")
		tv, hasType := o.get("type")
		typeOK := false
		if hasType {
			if s, ok := p.str(tv, fieldPath(bp, "type")); ok {
				if types[s].size == 0 {
					p.errorf(fieldPath(bp, "type"), "%q is not an element type (want one of %s)", s, typeNames)
				} else {
					b.Type, typeOK = s, true
				}
			}
		} else if hasBytes && !hasCount {
			b.Type, typeOK = "b8", true // a raw allocation
		} else {
			p.errorf(fieldPath(bp, "type"), "missing (want one of %s)", typeNames)
		}
		sizeOK := false
		switch {
		case hasCount && hasBytes:
			p.errorf(fieldPath(bp, "bytes"), "only one of count and bytes may be given")
		case hasCount:
			if n, ok := p.integer(cv, fieldPath(bp, "count"), 0, MaxBufferBytes); ok && typeOK {
				b.Count, b.Size = int(n), int(n)*ElemSize(b.Type)
				sizeOK = b.Size <= MaxBufferBytes
				if !sizeOK {
					p.errorf(fieldPath(bp, "count"), "%d %s elements exceed the %d-byte limit", n, b.Type, MaxBufferBytes)
				}
			}
		case hasBytes:
			if n, ok := p.integer(sv, fieldPath(bp, "bytes"), 0, MaxBufferBytes); ok && typeOK {
				es := int64(ElemSize(b.Type))
				if n%es != 0 {
					p.errorf(fieldPath(bp, "bytes"), "%d is not a multiple of the %d-byte size of %s", n, es, b.Type)
				} else {
					b.Count, b.Size, sizeOK = int(n/es), int(n), true
				}
			}
		default:
			p.errorf(bp, "give count (elements) or bytes")
		}
		if !sizeOK || !typeOK {
			// The contents cannot be checked against an unknown size.
			out = append(out, b)
			continue
		}
		b.Init = p.contents(o, bp, "init", b)
		if b.Init == nil {
			b.Init = make([]byte, b.Size)
		}
		b.Expected = p.contents(o, bp, "expected", b)
		if ov, ok := o.get("output"); ok {
			out, ok := ov.(bool)
			if !ok {
				p.errorf(fieldPath(bp, "output"), "want true or false, not %s", describe(ov))
			} else {
				b.Output = out
				if !out && b.Expected != nil {
					p.errorf(fieldPath(bp, "output"), "false (unchanged) contradicts the expected contents given")
				}
			}
		}
		if cv, ok := o.get("compare"); ok {
			b.Compare = p.compare(cv, fieldPath(bp, "compare"), b)
		}
		out = append(out, b)
	}
	return out
}

// contents reads key (an array of values) or key_b64 into len b.Size bytes;
// nil when neither is given.
func (p *parser) contents(o *object, bp, key string, b *Buffer) []byte {
	av, hasArray := o.get(key)
	bv, hasB64 := o.get(key + "_b64")
	switch {
	case hasArray && hasB64:
		p.errorf(fieldPath(bp, key+"_b64"), "only one of %s and %s_b64 may be given", key, key)
	case hasB64:
		data, _ := p.b64(bv, fieldPath(bp, key+"_b64"), b.Size)
		if data == nil {
			data = make([]byte, b.Size)
		}
		return data
	case hasArray:
		path := fieldPath(bp, key)
		a, ok := av.([]any)
		if !ok {
			p.errorf(path, "want an array of %d values, not %s", b.Count, describe(av))
			return make([]byte, b.Size)
		}
		if len(a) != b.Count {
			p.errorf(path, "has %d values, want %d (count)", len(a), b.Count)
			return make([]byte, b.Size)
		}
		es := ElemSize(b.Type)
		data := make([]byte, b.Size)
		var tmp [8]byte
		for i, x := range a {
			bits, err := parseValue(x, b.Type)
			if err != nil {
				p.errorf(indexPath(path, i), "%v", err)
				continue
			}
			binary.LittleEndian.PutUint64(tmp[:], bits)
			copy(data[i*es:], tmp[:es])
		}
		return data
	}
	return nil
}

func (p *parser) compare(v any, path string, b *Buffer) Compare {
	cmp := Compare{Mode: "exact"}
	o := p.fields(v, path, "mode", "atol", "rtol", "ulp")
	if o == nil {
		return cmp
	}
	if !b.Output {
		p.errorf(path, "an unchanged buffer (\"output\": false) is compared bitwise; remove compare")
	} else if b.Expected == nil {
		p.errorf(path, "the buffer has no expected contents to compare")
	}
	if mv, ok := o.get("mode"); ok {
		if s, ok := p.str(mv, fieldPath(path, "mode")); ok {
			cmp.Mode = s
		}
	}
	allowed := map[string][]string{"exact": nil, "bits": nil, "tolerance": {"atol", "rtol"}, "ulp": {"ulp"}}
	keys, ok := allowed[cmp.Mode]
	if !ok {
		p.errorf(fieldPath(path, "mode"), "%q is not a compare mode (want exact, bits, tolerance or ulp)", cmp.Mode)
		return cmp
	}
	for _, k := range []string{"atol", "rtol", "ulp"} {
		if _, ok := o.get(k); ok && !contains(keys, k) {
			p.errorf(fieldPath(path, k), "not used by mode %q", cmp.Mode)
		}
	}
	switch cmp.Mode {
	case "tolerance":
		av, hasA := o.get("atol")
		rv, hasR := o.get("rtol")
		if !hasA && !hasR {
			p.errorf(path, "mode \"tolerance\" needs atol and/or rtol")
		}
		if hasA {
			cmp.Atol, _ = p.real(av, fieldPath(path, "atol"))
		}
		if hasR {
			cmp.Rtol, _ = p.real(rv, fieldPath(path, "rtol"))
		}
	case "ulp":
		if !IsFloat(b.Type) {
			p.errorf(fieldPath(path, "mode"), "\"ulp\" needs a float element type, not %s", b.Type)
		}
		if uv, ok := o.get("ulp"); !ok {
			p.errorf(fieldPath(path, "ulp"), "missing (mode \"ulp\" needs it)")
		} else {
			n, _ := p.integer(uv, fieldPath(path, "ulp"), 0, math.MaxInt64)
			cmp.ULP = uint64(n)
		}
	}
	return cmp
}
