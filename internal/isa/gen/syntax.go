package main

// Parsing the manual's syntax notation: forms (`add{.sat}.s32 d, a, b;`)
// and group definitions (`.type = { .u16, .u32 };`).

import (
	"fmt"
	"strings"

	isa "github.com/ptxvm/ptxvm/internal/isa/model"
)

// isGroupDef reports whether a syntax line defines groups.
func isGroupDef(s string) bool {
	return strings.HasPrefix(s, ".") && strings.Contains(s, "=")
}

// parseGroupDef parses `.a = .b = { .v1, .v2{::x, ::y} };`.
func parseGroupDef(s string) (names []string, values []string, err error) {
	s = strings.TrimSuffix(strings.TrimSpace(s), ";")
	parts := strings.Split(s, "=")
	last := strings.TrimSpace(parts[len(parts)-1])
	for _, p := range parts[:len(parts)-1] {
		name := strings.TrimSpace(p)
		if !isWord(name) {
			return nil, nil, fmt.Errorf("bad group name %q", name)
		}
		names = append(names, name)
	}
	if !strings.HasPrefix(last, "{") || !strings.HasSuffix(last, "}") {
		return nil, nil, fmt.Errorf("group values must be written { .v1, .v2 }")
	}
	for _, v := range splitTop(last[1:len(last)-1], ',') {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		exp, err := expandValue(v)
		if err != nil {
			return nil, nil, err
		}
		values = append(values, exp...)
	}
	if len(values) == 0 {
		return nil, nil, fmt.Errorf("group has no values")
	}
	return names, values, nil
}

// isWord reports whether s is `.word` (word chars and `::`).
func isWord(s string) bool {
	if len(s) < 2 || s[0] != '.' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == ':' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return !strings.HasSuffix(s, ":")
}

// isCompound reports whether s is one or more dot-words written together,
// as group values like `.async.global` (two modifiers in a row).
func isCompound(s string) bool {
	if !strings.HasPrefix(s, ".") {
		return false
	}
	for _, w := range strings.Split(s[1:], ".") {
		if !isWord("." + w) {
			return false
		}
	}
	return true
}

// expandValue expands `.shared{::cta, ::cluster}` into its values.
func expandValue(v string) ([]string, error) {
	i := strings.IndexByte(v, '{')
	if i < 0 {
		if !isCompound(v) {
			return nil, fmt.Errorf("bad modifier value %q", v)
		}
		return []string{v}, nil
	}
	base := v[:i]
	if !isWord(base) || !strings.HasSuffix(v, "}") {
		return nil, fmt.Errorf("bad modifier value %q", v)
	}
	out := []string{base}
	for _, sub := range strings.Split(v[i+1:len(v)-1], ",") {
		sub = strings.TrimSpace(sub)
		if !strings.HasPrefix(sub, "::") || !isWord("."+sub[2:]) {
			return nil, fmt.Errorf("bad sub-qualifier %q in %q", sub, v)
		}
		out = append(out, base+sub)
	}
	return out, nil
}

// splitTop splits s at sep outside any (), [] or {}.
func splitTop(s string, sep byte) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case sep:
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// parseForm parses one syntax form against the block's groups.
func parseForm(s, opcode string, groups map[string][]string) (isa.Form, error) {
	f := isa.Form{Text: s}
	body := strings.TrimSpace(strings.TrimSuffix(s, ";"))
	if !strings.HasPrefix(body, opcode) {
		return f, fmt.Errorf("form does not start with the opcode %q", opcode)
	}
	rest := body[len(opcode):]
	// The modifier region: `.x`, `{...}` parts up to the first blank at depth 0.
	end := 0
	depth := 0
	for end < len(rest) {
		c := rest[end]
		if depth == 0 && (c == ' ' || c == '\t') {
			break
		}
		if c == '{' {
			depth++
		} else if c == '}' {
			depth--
		}
		end++
	}
	mods, err := parseMods(rest[:end], false, groups)
	if err != nil {
		return f, err
	}
	f.Mods = mods
	ops := strings.TrimSpace(rest[end:])
	if ops != "" {
		f.Operands, err = parseOperands(ops)
		if err != nil {
			return f, err
		}
	}
	return f, nil
}

// parseMods parses a modifier region such as `{.sat}.s32` or
// `.shared{::cta, ::cluster}{.level::cache_hint}`.
func parseMods(s string, optional bool, groups map[string][]string) ([]isa.ModSlot, error) {
	var slots []isa.ModSlot
	for i := 0; i < len(s); {
		switch s[i] {
		case '{':
			j := matchBrace(s, i)
			if j < 0 {
				return nil, fmt.Errorf("unbalanced '{' in %q", s)
			}
			inner, err := parseMods(s[i+1:j], true, groups)
			if err != nil {
				return nil, err
			}
			slots = append(slots, inner...)
			i = j + 1
		case '.':
			j := i + 1
			for j < len(s) && s[j] != '.' && s[j] != '{' {
				j++
			}
			word := s[i:j]
			if !isWord(word) {
				return nil, fmt.Errorf("bad modifier %q", word)
			}
			// `.word{::x, ::y}`: sub-qualifiers of a literal
			if j < len(s) && s[j] == '{' && j+1 < len(s) && s[j+1] == ':' {
				k := matchBrace(s, j)
				if k < 0 {
					return nil, fmt.Errorf("unbalanced '{' in %q", s)
				}
				vals, err := expandValue(s[i : k+1])
				if err != nil {
					return nil, err
				}
				slots = append(slots, isa.ModSlot{Optional: optional, Values: vals})
				i = k + 1
				continue
			}
			if vals, ok := groups[word]; ok {
				slots = append(slots, isa.ModSlot{Optional: optional, Group: word, Values: vals})
			} else {
				slots = append(slots, isa.ModSlot{Optional: optional, Values: []string{word}})
			}
			i = j
		default:
			return nil, fmt.Errorf("unexpected %q in modifiers %q", s[i], s)
		}
	}
	return slots, nil
}

func matchBrace(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// parseOperands parses the operand list of a form.
func parseOperands(s string) ([]isa.Operand, error) {
	var out []isa.Operand
	for _, piece := range splitTop(s, ',') {
		piece = strings.TrimSpace(piece)
		if piece == "" {
			return nil, fmt.Errorf("empty operand in %q", s)
		}
		// Trailing optional operands `x{, y}{, z}` and qualifiers `[a]{.unified}`.
		var tail []isa.Operand
		qual := ""
		for strings.HasSuffix(piece, "}") {
			open := lastTopBrace(piece)
			if open <= 0 {
				break
			}
			inner := strings.TrimSpace(piece[open+1 : len(piece)-1])
			switch {
			case strings.HasPrefix(inner, ","):
				ops, err := parseOperands(strings.TrimSpace(inner[1:]))
				if err != nil {
					return nil, err
				}
				for i := range ops {
					ops[i].Optional = true
				}
				tail = append(ops, tail...)
			case strings.HasPrefix(inner, ".") && isWord(inner):
				qual = "{" + inner + "}"
			case strings.HasPrefix(inner, "|"):
				// d{|p}: an optional second part of a pair
				name := strings.TrimSpace(inner[1:])
				if !isName(name) {
					return nil, fmt.Errorf("bad operand %q", piece)
				}
				op, err := parseOperand(strings.TrimSpace(piece[:open]))
				if err != nil {
					return nil, err
				}
				op.Shape = isa.ShapePair
				op.Names = append(op.Names, name)
				op.Text = strings.TrimSpace(piece[:open]) + "|" + name
				op.PairOptional = true
				out = append(out, op)
				out = append(out, tail...)
				piece = ""
			default:
				goto done
			}
			if piece == "" {
				break
			}
			piece = strings.TrimSpace(piece[:open])
		}
	done:
		if piece == "" {
			continue
		}
		if piece == "" && len(tail) > 0 {
			out = append(out, tail...)
			continue
		}
		op, err := parseOperand(piece)
		if err != nil {
			return nil, err
		}
		if qual != "" {
			op.Qualifier = qual
		}
		out = append(out, op)
		out = append(out, tail...)
	}
	return out, nil
}

// lastTopBrace returns the index of the '{' matching the final '}'.
func lastTopBrace(s string) int {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case '}':
			depth++
		case '{':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// parseOperand parses one operand: a, -a, {-}a, [a], [a, {b, c}], {a, b}, a|b.
func parseOperand(s string) (isa.Operand, error) {
	op := isa.Operand{Text: s}
	for _, neg := range []string{"{-}", "{!}", "-", "!"} {
		if strings.HasPrefix(s, neg) {
			op.Negate = neg
			s = strings.TrimSpace(s[len(neg):])
			break
		}
	}
	switch {
	case strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")"):
		op.Shape = isa.ShapeTuple
		names, err := operandNames(s[1 : len(s)-1])
		if err != nil {
			return op, err
		}
		op.Names = names
	case strings.HasSuffix(s, "]") && strings.Contains(s, "[|"):
		// d[|p]: the texture instructions' optional predicate part
		a, b, _ := strings.Cut(strings.TrimSuffix(s, "]"), "[|")
		if !isName(a) || !isName(b) {
			return op, fmt.Errorf("bad operand %q", s)
		}
		op.Shape = isa.ShapePair
		op.Names = []string{a, b}
		op.PairOptional = true
	case strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]"):
		op.Shape = isa.ShapeAddress
		names, err := operandNames(s[1 : len(s)-1])
		if err != nil {
			return op, err
		}
		op.Names = names
	case strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}"):
		op.Shape = isa.ShapeVector
		names, err := operandNames(s[1 : len(s)-1])
		if err != nil {
			return op, err
		}
		op.Names = names
	case strings.Contains(s, "|"):
		op.Shape = isa.ShapePair
		a, b, _ := strings.Cut(s, "|")
		a, b = strings.TrimSpace(a), strings.TrimSpace(b)
		if !isName(a) || !isName(b) {
			return op, fmt.Errorf("bad operand pair %q", s)
		}
		op.Names = []string{a, b}
	default:
		// a required suffix: d.dsel
		if i := strings.IndexByte(s, '.'); i > 0 && isWord(s[i:]) {
			op.Qualifier = s[i:]
			s = s[:i]
		}
		if !isName(s) {
			return op, fmt.Errorf("bad operand %q", s)
		}
		op.Names = []string{s}
	}
	return op, nil
}

// operandNames lists the placeholder names inside an address or vector,
// which may nest one vector: `tex, {x, y}`.
func operandNames(s string) ([]string, error) {
	var names []string
	for _, part := range splitTop(s, ',') {
		part = strings.TrimSpace(part)
		// `{b,} c`: an optional element b before c (texture operands)
		if strings.HasPrefix(part, "{") {
			if j := strings.Index(part, ",}"); j > 0 {
				names = append(names, strings.TrimSpace(part[1:j]))
				part = strings.TrimSpace(part[j+2:])
			}
		}
		if strings.HasPrefix(part, "{") && strings.HasSuffix(part, "}") {
			inner, err := operandNames(part[1 : len(part)-1])
			if err != nil {
				return nil, err
			}
			names = append(names, inner...)
			continue
		}
		// `a+imm`-style parts name their pieces
		for _, p := range strings.FieldsFunc(part, func(r rune) bool { return r == '+' || r == ' ' }) {
			if !isName(p) {
				return nil, fmt.Errorf("bad operand part %q", part)
			}
			names = append(names, p)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("empty operand %q", s)
	}
	return names, nil
}

// isName reports whether s is a placeholder: letters, digits, _ and -, or `_`.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s[0] != '-'
}
