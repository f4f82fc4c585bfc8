package casefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// object is a decoded JSON object that remembers its key order, so that
// errors come out in the order the file was written.
type object struct {
	keys []string
	vals map[string]any
}

func (o *object) get(key string) (any, bool) {
	v, ok := o.vals[key]
	return v, ok
}

// decodeTree decodes one JSON document into *object, []any, string,
// json.Number, bool and nil values. Numbers stay as text so that they can be
// converted exactly; a key written twice in one object is an error (the
// standard decoder would silently keep the last).
func decodeTree(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readValue(dec, "")
	var fe *Error
	if errors.As(err, &fe) {
		return nil, fe
	}
	if err != nil {
		return nil, syntaxError(data, dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("data after the top-level value")
		}
		return nil, syntaxError(data, dec, err)
	}
	return v, nil
}

func readValue(dec *json.Decoder, path string) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	switch d {
	case '{':
		o := &object{vals: map[string]any{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key := kt.(string) // the decoder only yields strings here
			if _, dup := o.vals[key]; dup {
				return nil, &Error{Field: fieldPath(path, key), Msg: "field appears twice in one object"}
			}
			v, err := readValue(dec, fieldPath(path, key))
			if err != nil {
				return nil, err
			}
			o.keys = append(o.keys, key)
			o.vals[key] = v
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return o, nil
	case '[':
		a := []any{}
		for dec.More() {
			v, err := readValue(dec, fmt.Sprintf("%s[%d]", path, len(a)))
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return a, nil
	}
	return nil, fmt.Errorf("unexpected %q", rune(d))
}

// syntaxError gives a decoding error the line and column it happened at.
func syntaxError(data []byte, dec *json.Decoder, err error) error {
	// The decoder's offset is where the bad token starts (SyntaxError.Offset
	// from Token is relative to the decoder's buffer, not the input).
	off := dec.InputOffset()
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Errorf("invalid JSON at line %d, column %d: %v", line, col, err)
}

func fieldPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func indexPath(path string, i int) string {
	return fmt.Sprintf("%s[%d]", path, i)
}

// describe names the JSON kind of v for error messages.
func describe(v any) string {
	switch v := v.(type) {
	case *object:
		return "an object"
	case []any:
		return "an array"
	case string:
		return fmt.Sprintf("the string %q", v)
	case json.Number:
		return "the number " + string(v)
	case bool:
		return fmt.Sprintf("%v", v)
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}
