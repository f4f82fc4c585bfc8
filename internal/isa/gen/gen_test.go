package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	isa "github.com/ptxvm/ptxvm/internal/isa/model"
)

const validBlock = `instr add 9.7.1.1
  syntax:
    add.type       d, a, b;
    add{.sat}.s32  d, a, b;    // .sat applies only to .s32
    .type = { .u16, .u32,
              .u16x2 };
  operands:
    d, a, b: .type
    a, b: reg imm
    d, a, b: .b32 when .u16x2
  requires:
    ptx 1.0
    target sm_10
    ptx 8.0 when .u16x2
    target sm_90 when .u16x2
`

func loadText(t *testing.T, text string) ([]*isa.Instr, []*isa.SpecialReg, []*isa.Directive, errorList) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.spec")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return load([]string{path})
}

func TestValidBlock(t *testing.T) {
	instrs, _, _, errs := loadText(t, validBlock)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	in := instrs[0]
	if len(in.Forms) != 2 || len(in.Groups) != 1 || len(in.Operands) != 3 || len(in.Requires) != 4 {
		t.Fatalf("block: %+v", in)
	}
	f := in.Forms[1]
	if len(f.Mods) != 2 || !f.Mods[0].Optional || f.Mods[0].Values[0] != ".sat" || f.Mods[1].Values[0] != ".s32" {
		t.Errorf("form 2 modifiers: %+v", f.Mods)
	}
	if g := in.Forms[0].Mods[0]; g.Group != ".type" || len(g.Values) != 3 {
		t.Errorf("group slot: %+v", g)
	}
	r := in.Requires[3]
	if r.Kind != isa.ReqTarget || r.Targets[0] != (isa.Target{SM: 90}) || r.When[0][0].Value != ".u16x2" {
		t.Errorf("conditional target: %+v", r)
	}
	src, err := emit(instrs, nil, nil)
	if err != nil || !strings.Contains(string(src), "DO NOT EDIT") {
		t.Errorf("emit: %v", err)
	}
}

func TestFormNotation(t *testing.T) {
	groups := map[string][]string{".ss": {".global", ".shared", ".shared::cta"}, ".level::cache_hint": {".L2::cache_hint"}}
	cases := []struct {
		form, mods, ops string
	}{
		{"ld{.ss}{.level::cache_hint}.shared{::cta, ::cluster}.b32 d, [a]{.unified}{, cache-policy};",
			"?.ss ?.level::cache_hint .shared|.shared::cta|.shared::cluster .b32",
			"d [a]^{.unified} ?cache-policy"},
		{"setp.eq{.ftz}.f32 p{|q}, a, {-}b;", ".eq ?.ftz .f32", "p|q a -b"},
		{"tex.1d.v4.s32.f32 d[|p], [a, {b}];", ".1d .v4 .s32 .f32", "d|p [a,b]"},
		{"call{.uni} (ret-param), func, (param-list);", "?.uni", "(ret-param) func (param-list)"},
		{"mma.sync.aligned.m8n8k4 {d0, d1}, a, b, c{, e}{, f};", ".sync .aligned .m8n8k4", "{d0,d1} a b c ?e ?f"},
		{"vadd.u32.u32.u32{.sat} d.dsel, a{.asel}, b;", ".u32 .u32 .u32 ?.sat", "d^.dsel a^{.asel} b"},
		{"tex.base.2d.v4.f32.f32 d[|p], [a, {b,} c] {, e};", ".base .2d .v4 .f32 .f32", "d|p [a,b,c] ?e"},
	}
	for _, c := range cases {
		op := c.form[:strings.IndexAny(c.form, ".{ ")]
		f, err := parseForm(strings.TrimSuffix(c.form, ";")+";", op, groups)
		if err != nil {
			t.Errorf("%s: %v", c.form, err)
			continue
		}
		var mods []string
		for _, m := range f.Mods {
			s := strings.Join(m.Values, "|")
			if m.Group != "" {
				s = m.Group
			}
			if m.Optional {
				s = "?" + s
			}
			mods = append(mods, s)
		}
		var ops []string
		for _, o := range f.Operands {
			s := strings.Join(o.Names, ",")
			switch o.Shape {
			case isa.ShapeAddress:
				s = "[" + s + "]"
			case isa.ShapeVector:
				s = "{" + s + "}"
			case isa.ShapePair:
				s = strings.Join(o.Names, "|")
			case isa.ShapeTuple:
				s = "(" + s + ")"
			}
			if o.Negate != "" {
				s = "-" + s
			}
			if o.Qualifier != "" {
				s += "^" + o.Qualifier
			}
			if o.Optional {
				s = "?" + s
			}
			ops = append(ops, s)
		}
		if got := strings.Join(mods, " "); got != c.mods {
			t.Errorf("%s: modifiers %q, want %q", c.form, got, c.mods)
		}
		if got := strings.Join(ops, " "); got != c.ops {
			t.Errorf("%s: operands %q, want %q", c.form, got, c.ops)
		}
	}
}

// TestValidation: each malformed spec gets the error naming its mistake.
func TestValidation(t *testing.T) {
	cases := []struct{ edit, want string }{
		{strings.Replace(validBlock, "ptx 1.0\n", "", 1), "no unconditional `ptx X.Y`"},
		{strings.Replace(validBlock, "    target sm_10\n", "", 1), "no unconditional `target sm_NN`"},
		{strings.Replace(validBlock, "ptx 8.0", "ptx 8.9", 1), `unknown PTX version "8.9"`},
		{strings.Replace(validBlock, "target sm_90 ", "target sm_91 ", 1), `unknown target "sm_91"`},
		{strings.Replace(validBlock, "when .u16x2\n  requires", "when .u16x3\n  requires", 1), "bad condition"},
		{strings.Replace(validBlock, "a, b: reg imm", "a, b: reg immediate", 1), `unknown operand kind "immediate"`},
		{strings.Replace(validBlock, "a, b: reg imm", "a, x: reg imm", 1), `operand "x" does not appear`},
		{strings.Replace(validBlock, "d, a, b: .type", "d, a, b: .typo", 1), `unknown type ".typo"`},
		{strings.Replace(validBlock, "add{.sat}.s32  d, a, b;", "add{.sat}.s32  d, a, b;\n    add.type d, a, b;", 1), "duplicate form"},
		{strings.Replace(validBlock, "add{.sat}.s32  d, a, b;", "add{.sat}.s32  d, a, b", 1), "not terminated by ';'"},
		{validBlock + "    .unused = { .x };\n", `unknown requirement ".unused"`},
		{strings.Replace(validBlock, "9.7.1.1", "nine", 1), `bad section "nine"`},
		{strings.Replace(validBlock, "add.type ", "sub.type ", 1), `does not start with the opcode "add"`},
		{validBlock + "\nbogus x 1\n", "expected a block header"},
		{validBlock + "    invalid \"why\"\n", "`invalid` needs a `when` condition"},
		{validBlock + "    invalid when .u16x2\n", "needs a \"message\""},
		{strings.Replace(validBlock, "    .type = { .u16, .u32,\n              .u16x2 };\n", "    .type = { .u16, .u32, .u16x2 };\n    .other = { .a };\n", 1), "group .other is never used"},
	}
	for i, c := range cases {
		_, _, _, errs := loadText(t, c.edit)
		if len(errs) == 0 {
			t.Errorf("case %d: no error, want %q", i, c.want)
			continue
		}
		if c.want != "" && !strings.Contains(strings.Join(errs, "\n"), c.want) {
			t.Errorf("case %d: errors %q, want %q", i, errs, c.want)
		}
	}
}

func TestCompoundValuesAndStrings(t *testing.T) {
	instrs, _, _, errs := loadText(t, `instr fence 9.7.13.4
  syntax:
    fence.proxy.proxykind;
    .proxykind = { .alias, .async.global };
  operands:
  requires:
    ptx 7.5
    target sm_70
    removed 8.0 when .async "gone" as "fence.proxy.async"
    deprecated 7.8 when .global as "fence.proxy.async.global" "use X"
`)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	r := instrs[0].Requires
	if r[2].Feature != "fence.proxy.async" || r[2].Message != "gone" || r[3].Feature != "fence.proxy.async.global" || r[3].Message != "use X" {
		t.Errorf("strings: %+v %+v", r[2], r[3])
	}
}

func TestSregAndDirective(t *testing.T) {
	_, sregs, dirs, errs := loadText(t, `sreg %envreg<32> 10.27
  type: .b32
  requires:
    ptx 2.1
    target sm_10

directive .maxntid 11.4.2
  syntax:
    .maxntid nx, ny, nz;
  requires:
    ptx 1.3
    target sm_10
`)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if sregs[0].Name != "%envreg" || sregs[0].Count != 32 {
		t.Errorf("sreg: %+v", sregs[0])
	}
	if dirs[0].Name != ".maxntid" || len(dirs[0].Syntax) != 1 {
		t.Errorf("directive: %+v", dirs[0])
	}
}

func TestOperandKindConditions(t *testing.T) {
	instrs, _, _, errs := loadText(t, `instr bar 9.7.13.1
  syntax:
    bar.sync a{, b};
  requires:
    ptx 1.0
    target sm_10
    target sm_20 when a:reg|b:reg
`)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	alt := instrs[0].Requires[2].When[0][1]
	if !alt.Operand || alt.Value != "b" || alt.Kind != "reg" {
		t.Errorf("b:reg parsed as %+v", alt)
	}
	_, _, _, errs = loadText(t, `instr bar 9.7.13.1
  syntax:
    bar.sync a{, b};
  requires:
    ptx 1.0
    target sm_10
    target sm_20 when a:register
`)
	if len(errs) == 0 || !strings.Contains(errs[0], "bad condition") {
		t.Errorf("unknown kind: %v", errs)
	}
}

func TestTargetConditions(t *testing.T) {
	instrs, _, _, errs := loadText(t, strings.Replace(validBlock, "    ptx 8.0 when .u16x2\n", "    ptx 8.0 when .u16x2\n    ptx 8.1 when .u16x2 target=sm_89\n", 1))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	alt := instrs[0].Requires[3].When[1][0]
	if alt.Target.SM != 89 {
		t.Errorf("target=sm_89 parsed as %+v", alt)
	}
	if _, _, _, errs := loadText(t, strings.Replace(validBlock, "    ptx 8.0 when .u16x2\n", "    ptx 8.1 when target=sm_99\n", 1)); len(errs) == 0 {
		t.Errorf("target=sm_99 accepted")
	}
}
