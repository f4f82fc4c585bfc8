package main

// Building table entries from blocks, validating as we go: every rule of
// spec/FORMAT.md that can be checked mechanically is checked here.

import (
	"fmt"
	"strconv"
	"strings"

	isa "github.com/ptxvm/ptxvm/internal/isa/model"
)

var operandKinds = map[string]bool{"reg": true, "imm": true, "pred": true, "addr": true, "label": true,
	"func": true, "var": true, "sink": true, "vec": true, "vec2": true, "vec4": true, "vec8": true,
	"texref": true, "samplerref": true, "surfref": true}

// fundamentalTypes are the type words an operand line may name directly.
var fundamentalTypes = map[string]bool{}

func init() {
	for _, t := range strings.Fields(`.pred .b1 .b4 .b8 .b16 .b32 .b64 .b128 .u8 .u16 .u32 .u64 .s8 .s16 .s32 .s64
		.f16 .f16x2 .bf16 .bf16x2 .tf32 .f32 .f32x2 .f64 .u16x2 .s16x2 .u8x4 .s8x4 .e4m3 .e5m2 .e2m3 .e3m2 .e2m1
		.e4m3x2 .e5m2x2 .e2m3x2 .e3m2x2 .e2m1x2 .e4m3x4 .e5m2x4 .e2m3x4 .e3m2x4 .e2m1x4 .ue8m0 .ue8m0x2 .ue4m3
		.s4 .u4 .s2 .u2 .texref .samplerref .surfref .v2 .v4 .v8`) {
		fundamentalTypes[t] = true
	}
}

func buildInstr(b *block, errs *errorList) *isa.Instr {
	in := &isa.Instr{Opcode: b.name, Section: b.section}
	if !validSection(b.section) {
		errs.add(b.file, b.line, "bad section %q (want 9.7.1.1, 9.2:1.3 or 3.1:8.7.3.1)", b.section)
	}
	if len(b.syntax) == 0 {
		errs.add(b.file, b.line, "instr %s: no syntax: forms", b.name)
	}
	// Groups first: forms refer to them.
	groups := map[string][]string{}
	groupLine := map[string]int{}
	for _, l := range b.syntax {
		if !isGroupDef(l.text) {
			continue
		}
		names, values, err := parseGroupDef(l.text)
		if err != nil {
			errs.add(b.file, l.line, "%v", err)
			continue
		}
		for _, n := range names {
			if _, dup := groups[n]; dup {
				errs.add(b.file, l.line, "group %s defined twice", n)
				continue
			}
			groups[n] = values
			groupLine[n] = l.line
			in.Groups = append(in.Groups, isa.Group{Name: n, Values: values})
		}
	}
	used := map[string]bool{}
	seenForm := map[string]int{}
	placeholders := map[string]bool{}
	optionalOps := map[string]bool{}
	values := map[string]bool{}
	for _, l := range b.syntax {
		if isGroupDef(l.text) {
			continue
		}
		f, err := parseForm(l.text, b.name, groups)
		if err != nil {
			errs.add(b.file, l.line, "%v", err)
			continue
		}
		key := strings.Join(strings.Fields(f.Text), " ")
		if prev, dup := seenForm[key]; dup {
			errs.add(b.file, l.line, "duplicate form (also on line %d)", prev)
		}
		seenForm[key] = l.line
		for _, s := range f.Mods {
			if s.Group != "" {
				used[s.Group] = true
			}
			for _, v := range s.Values {
				values[v] = true
				if strings.Count(v, ".") > 1 { // a compound value: its words count too
					for _, w := range strings.Split(v[1:], ".") {
						values["."+w] = true
					}
				}
			}
		}
		for _, op := range f.Operands {
			if q := strings.Trim(op.Qualifier, "{}"); q != "" {
				if _, ok := groups[q]; ok {
					used[q] = true
					for _, v := range groups[q] {
						values[v] = true
					}
				} else {
					values[q] = true
				}
			}
			for _, n := range op.Names {
				placeholders[n] = true
				if op.Optional {
					optionalOps[n] = true
				}
			}
		}
		in.Forms = append(in.Forms, f)
	}
	for n := range groups {
		if !used[n] && !usedAsType(b, n) {
			errs.add(b.file, groupLine[n], "group %s is never used by a form or an operand type", n)
		}
	}
	for _, l := range b.operands {
		r, ok := parseOperandRule(l, b, groups, placeholders, values, errs)
		if ok {
			in.Operands = append(in.Operands, r)
		}
	}
	in.Requires = buildRequires(b, values, placeholders, errs)
	return in
}

// usedAsType reports whether a group is named as an operand type.
func usedAsType(b *block, g string) bool {
	for _, l := range b.operands {
		_, spec, _ := strings.Cut(l.text, ":")
		for _, w := range strings.Fields(spec) {
			if w == g || strings.HasSuffix(w, "*"+g) {
				return true
			}
		}
	}
	return false
}

func validSection(s string) bool {
	if src, sec, ok := strings.Cut(s, ":"); ok {
		if src != "9.2" && src != "3.1" {
			return false
		}
		s = sec
	}
	for _, p := range strings.Split(s, ".") {
		if _, err := strconv.Atoi(p); err != nil {
			return false
		}
	}
	return true
}

// parseOperandRule parses `NAMES: SPEC [when COND]`.
func parseOperandRule(l srcLine, b *block, groups map[string][]string, placeholders, values map[string]bool, errs *errorList) (isa.OperandRule, bool) {
	var r isa.OperandRule
	namesText, spec, ok := strings.Cut(l.text, ":")
	if !ok {
		errs.add(b.file, l.line, "operand line must be `names: spec`")
		return r, false
	}
	for _, n := range strings.Split(namesText, ",") {
		n = strings.TrimSpace(n)
		n = strings.TrimSuffix(strings.TrimPrefix(n, "["), "]")
		if !placeholders[n] {
			errs.add(b.file, l.line, "operand %q does not appear in any form", n)
			continue
		}
		r.Names = append(r.Names, n)
	}
	spec, cond, hasCond := strings.Cut(spec, " when ")
	if hasCond {
		c, ok := parseCond(cond, values, placeholders)
		if !ok {
			errs.add(b.file, l.line, "bad condition %q: each alternative must be a modifier value of this block, !value, or an operand", strings.TrimSpace(cond))
		}
		r.When = c
	}
	for _, w := range strings.Fields(spec) {
		switch {
		case operandKinds[w]:
			r.Kinds = append(r.Kinds, w)
		case strings.HasPrefix(w, "."), strings.HasPrefix(w, "2*."), strings.HasPrefix(w, "4*."):
			if r.Type != "" {
				errs.add(b.file, l.line, "two types (%s and %s)", r.Type, w)
			}
			t := strings.TrimPrefix(strings.TrimPrefix(w, "2*"), "4*")
			if _, isGroup := groups[t]; !isGroup && !fundamentalTypes[t] {
				errs.add(b.file, l.line, "unknown type %q (not a fundamental type or a group of this block)", w)
			}
			r.Type = w
		default:
			errs.add(b.file, l.line, "unknown operand kind %q", w)
		}
	}
	return r, len(r.Names) > 0
}

// operandConditionKinds are the kinds a `name:kind` condition may ask about.
var operandConditionKinds = map[string]bool{"reg": true, "imm": true, "sink": true, "entry": true}

// parseCond parses a condition against the block's modifier values and operands.
func parseCond(s string, values, placeholders map[string]bool) (isa.Cond, bool) {
	var c isa.Cond
	ok := true
	for _, term := range strings.Fields(s) {
		var alts []isa.Alt
		for _, a := range strings.Split(term, "|") {
			alt := isa.Alt{}
			if strings.HasPrefix(a, "!") {
				alt.Not = true
				a = a[1:]
			}
			if t, isTarget := strings.CutPrefix(a, "target="); isTarget {
				tg, valid := parseTarget(t)
				if !valid {
					ok = false
				}
				alt.Value, alt.Target = a, tg
				alts = append(alts, alt)
				continue
			}
			if name, kind, isKind := strings.Cut(a, ":"); isKind && kind != "" && !strings.HasPrefix(a, ".") {
				alt.Value, alt.Kind, alt.Operand = name, kind, true
				if !placeholders[name] || !operandConditionKinds[kind] {
					ok = false
				}
				alts = append(alts, alt)
				continue
			}
			alt.Value = a
			switch {
			case values[a]:
			case placeholders[a] && !strings.HasPrefix(a, "."):
				alt.Operand = true
			default:
				ok = false
			}
			alts = append(alts, alt)
		}
		c = append(c, alts)
	}
	return c, ok && len(c) > 0
}

// buildRequires parses the requires: lines of any block kind.
func buildRequires(b *block, values, placeholders map[string]bool, errs *errorList) []isa.Requirement {
	var reqs []isa.Requirement
	basePTX, baseTarget := false, false
	for _, l := range b.requires {
		r := isa.Requirement{}
		text, strs, err := splitStrings(l.text)
		if err != nil {
			errs.add(b.file, l.line, "%v", err)
		}
		// Quoted strings come last: `as "NAME"` and a "message", in either order.
		for _, s := range strs {
			if s.as {
				r.Feature = s.text
			} else {
				r.Message = s.text
			}
		}
		text, cond, hasCond := strings.Cut(text, " when ")
		if hasCond {
			c, ok := parseCond(cond, values, placeholders)
			if !ok {
				errs.add(b.file, l.line, "bad condition %q: each alternative must be a modifier value of this block, !value, or an operand", strings.TrimSpace(cond))
			}
			r.When = c
		}
		f := strings.Fields(text)
		if len(f) == 1 && f[0] == "invalid" {
			if !hasCond {
				errs.add(b.file, l.line, "`invalid` needs a `when` condition")
			}
			if r.Message == "" {
				errs.add(b.file, l.line, "`invalid` needs a \"message\" saying why")
			}
			r.Kind = isa.ReqInvalid
			reqs = append(reqs, r)
			continue
		}
		if len(f) < 2 {
			errs.add(b.file, l.line, "requirement must be `ptx X.Y`, `target sm_NN`, `deprecated X.Y`, `removed X.Y [target sm_NN]` or `invalid when COND \"message\"`")
			continue
		}
		switch f[0] {
		case "ptx", "deprecated", "removed":
			v, ok := parseVersion(f[1])
			if !ok {
				errs.add(b.file, l.line, "unknown PTX version %q", f[1])
			}
			r.Version = v
			r.Kind = map[string]isa.ReqKind{"ptx": isa.ReqPTX, "deprecated": isa.ReqDeprecated, "removed": isa.ReqRemoved}[f[0]]
			rest := f[2:]
			if f[0] == "removed" && len(rest) == 2 && rest[0] == "target" {
				r.Targets = parseTargets(rest[1], b, l, errs)
				rest = nil
			}
			if len(rest) > 0 {
				errs.add(b.file, l.line, "unexpected %q", strings.Join(rest, " "))
			}
			if f[0] == "ptx" && !hasCond {
				basePTX = true
			}
		case "target":
			r.Kind = isa.ReqTarget
			if len(f) != 2 {
				errs.add(b.file, l.line, "unexpected %q", strings.Join(f[2:], " "))
			}
			r.Targets = parseTargets(f[1], b, l, errs)
			if !hasCond {
				baseTarget = true
			}
		default:
			errs.add(b.file, l.line, "unknown requirement %q", f[0])
			continue
		}
		reqs = append(reqs, r)
	}
	if !basePTX {
		errs.add(b.file, b.line, "%s %s: no unconditional `ptx X.Y` requirement", b.kind, b.name)
	}
	if !baseTarget {
		errs.add(b.file, b.line, "%s %s: no unconditional `target sm_NN` requirement", b.kind, b.name)
	}
	return reqs
}

type quoted struct {
	text string
	as   bool // preceded by `as`
}

// splitStrings cuts the quoted strings (each optionally preceded by `as`)
// off the end of a requirement line.
func splitStrings(line string) (string, []quoted, error) {
	i := strings.IndexByte(line, '"')
	if i < 0 {
		return line, nil, nil
	}
	head, rest := line[:i], line[i:]
	var out []quoted
	as := false
	if h := strings.TrimRight(head, " \t"); strings.HasSuffix(h, " as") {
		as = true
		head = strings.TrimSuffix(h, " as")
	}
	for rest != "" {
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, "as ") {
			as = true
			rest = strings.TrimSpace(rest[3:])
		}
		s, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return head, out, fmt.Errorf("bad quoted string in %q", line)
		}
		text, _ := strconv.Unquote(s)
		out = append(out, quoted{text, as})
		as = false
		rest = rest[len(s):]
	}
	return head, out, nil
}

func parseTargets(s string, b *block, l srcLine, errs *errorList) []isa.Target {
	var ts []isa.Target
	for _, t := range strings.Split(s, "|") {
		tg, ok := parseTarget(t)
		if !ok {
			errs.add(b.file, l.line, "unknown target %q", t)
			continue
		}
		ts = append(ts, tg)
	}
	return ts
}

func buildSreg(b *block, errs *errorList) *isa.SpecialReg {
	r := &isa.SpecialReg{Name: b.name, Section: b.section, Type: b.typ, Components: b.components}
	if i := strings.IndexByte(b.name, '<'); i >= 0 && strings.HasSuffix(b.name, ">") {
		n, err := strconv.Atoi(b.name[i+1 : len(b.name)-1])
		if err != nil || n <= 0 {
			errs.add(b.file, b.line, "bad register count in %q", b.name)
		}
		r.Name, r.Count = b.name[:i], n
	}
	if !strings.HasPrefix(r.Name, "%") && r.Name != "WARP_SZ" {
		errs.add(b.file, b.line, "special register name must start with %%: %q", b.name)
	}
	if b.typ == "" {
		errs.add(b.file, b.line, "sreg %s: no type:", b.name)
	}
	for _, t := range strings.Fields(b.typ) {
		if !fundamentalTypes[t] {
			errs.add(b.file, b.line, "sreg %s: unknown type %q", b.name, t)
		}
	}
	vals := map[string]bool{}
	for _, t := range strings.Fields(b.typ) {
		vals[t] = true
	}
	for _, c := range b.components {
		vals[c] = true
	}
	for _, t := range []string{".u32", ".u64", ".s32", ".b32", ".b64"} {
		vals[t] = true
	}
	r.Requires = buildRequires(b, vals, nil, errs)
	if len(b.syntax) > 0 || len(b.operands) > 0 {
		errs.add(b.file, b.line, "sreg blocks take only type:, components: and requires:")
	}
	return r
}

func buildDirective(b *block, errs *errorList) *isa.Directive {
	d := &isa.Directive{Name: b.name, Section: b.section}
	if !strings.HasPrefix(b.name, ".") && !strings.HasPrefix(b.name, "@@") {
		errs.add(b.file, b.line, "directive name must start with '.': %q", b.name)
	}
	for _, l := range b.syntax {
		d.Syntax = append(d.Syntax, l.text)
	}
	// Conditions of directives name words of their syntax lines.
	vals := map[string]bool{}
	for _, l := range b.syntax {
		for _, w := range strings.FieldsFunc(l.text, func(r rune) bool { return strings.ContainsRune(" ,;{}()[]=\"", r) }) {
			vals[w] = true
			if strings.HasPrefix(w, ".") {
				for _, sub := range strings.Split(w[1:], ".") {
					vals["."+sub] = true
				}
			}
		}
	}
	d.Requires = buildRequires(b, vals, vals, errs)
	return d
}
