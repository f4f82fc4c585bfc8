package casefile

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
)

// arrayLimit is the largest buffer Write spells out as an array of values;
// larger contents are written as base64.
const arrayLimit = 256

type paramJSON struct {
	Kind   string `json:"kind"`
	Value  any    `json:"value,omitempty"`
	Bits   string `json:"bits,omitempty"`
	Buffer string `json:"buffer,omitempty"`
	Offset int64  `json:"offset,omitempty"`
	Size   int    `json:"size,omitempty"`
	Align  int    `json:"align,omitempty"`
	Data   string `json:"data_b64,omitempty"`
}

type compareJSON struct {
	Mode string      `json:"mode"`
	Atol json.Number `json:"atol,omitempty"`
	Rtol json.Number `json:"rtol,omitempty"`
	ULP  *uint64     `json:"ulp,omitempty"`
}

type bufferJSON struct {
	Name        string       `json:"name"`
	Type        string       `json:"type"`
	Count       int          `json:"count"`
	Init        []any        `json:"init,omitempty"`
	InitB64     string       `json:"init_b64,omitempty"`
	Expected    *[]any       `json:"expected,omitempty"`
	ExpectedB64 string       `json:"expected_b64,omitempty"`
	Output      *bool        `json:"output,omitempty"`
	Compare     *compareJSON `json:"compare,omitempty"`
}

// Write encodes c as a case file: one top-level field per line, one line
// per parameter and per buffer. Buffers of up to 256 elements are written
// as arrays of values (floats as the shortest decimal that converts back,
// b types as hex), larger ones as base64; all-zero initial contents are
// left out. PTX paths are written as they are in c. Write checks its output
// with Parse and returns Parse's error if c is not a valid case, so that
// Parse(Write(c)) gives c back.
func Write(c *Case) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// field writes `"key": value` on its own line; Encoder adds the newline.
	first := true
	field := func(key string, v any) {
		if !first {
			buf.Truncate(buf.Len() - 1)
			buf.WriteString(",\n")
		}
		first = false
		fmt.Fprintf(&buf, "  %q: ", key)
		enc.Encode(v) // only strings, numbers and the types above: cannot fail
	}
	list := func(key string, items []any) {
		if !first {
			buf.Truncate(buf.Len() - 1)
			buf.WriteString(",\n")
		}
		first = false
		fmt.Fprintf(&buf, "  %q: [\n", key)
		for i, it := range items {
			buf.WriteString("    ")
			enc.Encode(it)
			if i < len(items)-1 {
				buf.Truncate(buf.Len() - 1)
				buf.WriteString(",\n")
			}
		}
		buf.WriteString("  ]\n")
	}
	buf.WriteString("{\n")
	field("format", Format)
	if c.Name != "" {
		field("case", c.Name)
	}
	switch {
	case c.PTXText != "":
		field("ptx_text", c.PTXText)
	case len(c.PTX) == 1:
		field("ptx", c.PTX[0])
	default:
		field("ptx", c.PTX)
	}
	field("kernel", c.Kernel)
	field("grid", c.Grid)
	field("block", c.Block)
	if c.HasCluster {
		field("cluster", c.Cluster)
	}
	if c.DynamicShared != 0 {
		field("dynamic_shared_bytes", c.DynamicShared)
	}
	if c.Arch != "" {
		field("arch", c.Arch)
	}
	if len(c.Params) > 0 {
		var items []any
		for _, p := range c.Params {
			items = append(items, paramToJSON(p))
		}
		list("params", items)
	}
	if len(c.Buffers) > 0 {
		var items []any
		for _, b := range c.Buffers {
			items = append(items, bufferToJSON(b))
		}
		list("buffers", items)
	}
	if c.ExpectError != "" {
		field("expect_error", c.ExpectError)
	}
	buf.Truncate(buf.Len() - 1)
	buf.WriteString("\n}\n")
	if _, err := Parse(buf.Bytes(), ""); err != nil {
		return nil, fmt.Errorf("casefile.Write: the case is not valid: %w", err)
	}
	return buf.Bytes(), nil
}

func paramToJSON(p Param) paramJSON {
	j := paramJSON{Kind: p.Kind}
	switch p.Kind {
	case "ptr":
		j.Buffer, j.Offset = p.Buffer, p.Offset
		if j.Buffer == "" {
			j.Buffer = " " // keep the field so that Parse names the problem
		}
	case "bytes":
		j.Size, j.Align = len(p.Bytes), p.Align
		j.Data = base64.StdEncoding.EncodeToString(p.Bytes)
	default:
		t, ok := types[p.Kind]
		if !ok {
			break
		}
		switch t.class {
		case 'u', 's':
			j.Value = formatValue(p.Bits&t.mask(), p.Kind)
		case 'f':
			if v, ok := formatValue(p.Bits&t.mask(), p.Kind).(json.Number); ok {
				j.Value = v // for readers; bits wins
			}
			j.Bits = hexBits(p.Bits&t.mask(), t.size)
		default:
			j.Bits = hexBits(p.Bits&t.mask(), t.size)
		}
	}
	return j
}

func bufferToJSON(b *Buffer) bufferJSON {
	j := bufferJSON{Name: b.Name, Type: b.Type, Count: b.Count}
	if !allZero(b.Init) {
		if arr := values(b.Init, b); arr != nil {
			j.Init = arr
		} else {
			j.InitB64 = base64.StdEncoding.EncodeToString(b.Init)
		}
	}
	if b.Expected != nil {
		if arr := values(b.Expected, b); arr != nil {
			j.Expected = &arr
		} else {
			j.ExpectedB64 = base64.StdEncoding.EncodeToString(b.Expected)
		}
	}
	if !b.Output {
		j.Output = new(bool)
	}
	switch cmp := b.Compare; cmp.Mode {
	case "", "exact":
	case "tolerance":
		j.Compare = &compareJSON{Mode: cmp.Mode,
			Atol: json.Number(strconv.FormatFloat(cmp.Atol, 'g', -1, 64)),
			Rtol: json.Number(strconv.FormatFloat(cmp.Rtol, 'g', -1, 64))}
	case "ulp":
		j.Compare = &compareJSON{Mode: cmp.Mode, ULP: &cmp.ULP}
	default:
		j.Compare = &compareJSON{Mode: cmp.Mode}
	}
	return j
}

// values spells data out as an array of b's element type, or returns nil
// when the buffer is too large for that or data has the wrong size.
func values(data []byte, b *Buffer) []any {
	es := ElemSize(b.Type)
	if b.Count > arrayLimit || es == 0 || len(data) != b.Count*es {
		return nil
	}
	arr := make([]any, b.Count)
	var tmp [8]byte
	for i := range arr {
		copy(tmp[:], data[i*es:(i+1)*es])
		arr[i] = formatValue(binary.LittleEndian.Uint64(tmp[:]), b.Type)
	}
	return arr
}

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}
