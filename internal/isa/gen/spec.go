package main

// Reading spec files: blocks, their sections and lines (spec/FORMAT.md).

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	isa "github.com/ptxvm/ptxvm/internal/isa/model"
)

// block is one instr/sreg/directive block as read from a file.
type block struct {
	kind    string // "instr", "sreg", "directive"
	name    string
	section string
	file    string
	line    int

	syntax     []srcLine // forms and group definitions, joined
	operands   []srcLine
	requires   []srcLine
	typ        string   // sreg: type:
	components []string // sreg: components:
}

type srcLine struct {
	line int
	text string
}

// errorList collects positioned errors.
type errorList []string

func (e *errorList) add(file string, line int, format string, args ...any) {
	*e = append(*e, fmt.Sprintf("%s:%d: %s", file, line, fmt.Sprintf(format, args...)))
}

// readSpec splits a spec file into blocks.
func readSpec(path string, errs *errorList) []*block {
	data, err := os.ReadFile(path)
	if err != nil {
		errs.add(path, 0, "%v", err)
		return nil
	}
	var blocks []*block
	var cur *block
	section := ""
	var pending *srcLine // a syntax line being joined until ';' or '};'
	for i, raw := range strings.Split(string(data), "\n") {
		n := i + 1
		text := raw
		if j := strings.IndexByte(text, '#'); j >= 0 {
			text = text[:j]
		}
		trimmed := strings.TrimSpace(text)
		if trimmed == "" {
			continue
		}
		indented := text[0] == ' ' || text[0] == '\t'
		if !indented {
			if pending != nil {
				errs.add(path, pending.line, "syntax line not terminated by ';'")
				pending = nil
			}
			f := strings.Fields(trimmed)
			switch f[0] {
			case "instr", "sreg", "directive":
				if len(f) != 3 {
					errs.add(path, n, "block header must be `%s NAME SECTION`", f[0])
					cur = nil
					continue
				}
				cur = &block{kind: f[0], name: f[1], section: f[2], file: path, line: n}
				blocks = append(blocks, cur)
				section = ""
			default:
				errs.add(path, n, "expected a block header (instr, sreg, directive), found %q", f[0])
				cur = nil
			}
			continue
		}
		if cur == nil {
			errs.add(path, n, "line outside a block")
			continue
		}
		if key, rest, ok := strings.Cut(trimmed, ":"); ok && isSectionKey(key) && (rest == "" || cur.kind == "sreg") {
			if pending != nil {
				errs.add(path, pending.line, "syntax line not terminated by ';'")
				pending = nil
			}
			section = key
			switch key {
			case "type":
				cur.typ = strings.TrimSpace(rest)
				section = ""
			case "components":
				cur.components = strings.Fields(rest)
				section = ""
			}
			continue
		}
		switch section {
		case "syntax":
			if pending != nil {
				pending.text += " " + trimmed
			} else {
				pending = &srcLine{n, trimmed}
			}
			body := stripLineComment(pending.text)
			if strings.HasSuffix(body, ";") && braceDepth(body) == 0 {
				cur.syntax = append(cur.syntax, srcLine{pending.line, body})
				pending = nil
			}
		case "operands":
			cur.operands = append(cur.operands, srcLine{n, trimmed})
		case "requires":
			cur.requires = append(cur.requires, srcLine{n, trimmed})
		default:
			errs.add(path, n, "line before any section (syntax:, operands:, requires:)")
		}
	}
	if pending != nil {
		errs.add(path, pending.line, "syntax line not terminated by ';'")
	}
	return blocks
}

func isSectionKey(k string) bool {
	switch k {
	case "syntax", "operands", "requires", "type", "components":
		return true
	}
	return false
}

// stripLineComment removes a trailing `// comment` from a syntax line.
func stripLineComment(s string) string {
	if i := strings.Index(s, "//"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

func braceDepth(s string) int {
	d := 0
	for _, c := range s {
		switch c {
		case '{', '[':
			d++
		case '}', ']':
			d--
		}
	}
	return d
}

// ptxVersions are the PTX ISA versions that exist (ptx-isa-9.0.txt 13, plus 9.1 and 9.2).
var ptxVersions = map[string]bool{}

func init() {
	for _, v := range []string{"1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "2.0", "2.1", "2.2", "2.3",
		"3.0", "3.1", "3.2", "4.0", "4.1", "4.2", "4.3", "5.0", "6.0", "6.1", "6.2", "6.3", "6.4", "6.5",
		"7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "8.0", "8.1", "8.2", "8.3", "8.4",
		"8.5", "8.6", "8.7", "8.8", "9.0", "9.1", "9.2"} {
		ptxVersions[v] = true
	}
}

// smNumbers are the architectures of ptx-isa-9.0.txt 11.1.2 (and older ones).
var smNumbers = map[int]bool{10: true, 11: true, 12: true, 13: true, 20: true, 21: true, 30: true, 32: true,
	35: true, 37: true, 50: true, 52: true, 53: true, 60: true, 61: true, 62: true, 70: true, 72: true,
	75: true, 80: true, 86: true, 87: true, 88: true, 89: true, 90: true, 100: true, 101: true, 103: true,
	110: true, 120: true, 121: true}

func parseVersion(s string) (isa.Version, bool) {
	if !ptxVersions[s] {
		return isa.Version{}, false
	}
	a, b, _ := strings.Cut(s, ".")
	x, _ := strconv.Atoi(a)
	y, _ := strconv.Atoi(b)
	return isa.Version{Major: uint8(x), Minor: uint8(y)}, true
}

func parseTarget(s string) (isa.Target, bool) {
	if !strings.HasPrefix(s, "sm_") {
		return isa.Target{}, false
	}
	num := s[3:]
	var suffix byte
	if n := len(num); n > 0 && (num[n-1] == 'a' || num[n-1] == 'f') {
		suffix = num[n-1]
		num = num[:n-1]
	}
	sm, err := strconv.Atoi(num)
	if err != nil || !smNumbers[sm] {
		return isa.Target{}, false
	}
	return isa.Target{SM: sm, Suffix: suffix}, true
}
