package check

import (
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/ptx"
)

// Tests of decls.go. Valid declarations come from the manual's examples
// and from the shapes nvcc, clang, GCC and the OpenCL path emit; each
// invalid one breaks one rule of the manual, cited per case.

func declSrc(version, target, items string) string {
	src := ".version " + version + "\n.target " + target + "\n"
	switch version {
	case "1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "2.0", "2.1", "2.2":
		// .address_size is PTX 2.3 (11.1.3)
	default:
		src += ".address_size 64\n"
	}
	return src + items
}

// declEntry wraps body declarations in a kernel.
func declEntry(body string) string {
	return ".visible .entry k()\n{\n" + body + "\n\tret;\n}\n"
}

func declDiags(ds ptx.DiagnosticList, sev ptx.Severity) []string {
	var out []string
	for _, d := range ds {
		if d.Severity == sev {
			out = append(out, d.Msg)
		}
	}
	return out
}

type declCase struct {
	name            string
	version, target string
	items           string
	want            string // substring of an error (invalid) or warning
}

func TestDeclarationsValid(t *testing.T) {
	cases := []declCase{
		{"5.4.1 examples", "9.0", "sm_90", `
.global .u32 loc;
.const .f32 bias[] = {-1.0, 1.0};
.global .u8 bg[4] = {0, 0, 0, 0};
` + declEntry(".reg .s32 i;\n.reg .v4 .f32 accel;\n.reg .pred p, q, r;"), ""},
		{"5.4.2 vectors", "9.0", "sm_90", `
.global .v4 .f32 V;
.shared .v2 .u16 uv;
.global .v4 .b8 v;
.global .v2 .f64 d2;
.global .v4 .f16x2 h8;
` + declEntry(".reg .v2 .b64 %pair;\n.reg .v4 .b32 %q;"), ""},
		{"5.4.3 arrays", "9.0", "sm_90", `
.shared .u8 mailbox[128];
.global .u32 index[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
.global .s32 offset[][2] = { {-1, 0}, {0, -1}, {1, 0}, {0, 1} };
` + declEntry(".local .u16 kernel[19][19];"), ""},
		{"5.4.4 initializers", "9.0", "sm_90", `
.const .f32 vals[8] = { 0.33, 0.25, 0.125 };
.global .s32 x[3][2] = { {1,2}, {3} };
.global .s32 n = 10;
.global .f32 blur_kernel[][3] = {{.05, .1, .05}, {.1, .4, .1}, {.05, .1, .05}};
.global .v2 .u32 varr[2] = { {1, 2}, {3, 4} };
.global .s32 flat[2][2] = { 1, 2, 3, 4 };
.global .u32 one = {1};
.const .u32 foo = 42;
.global .u32 bar[] = { 2, 3, 5 };
.global .u32 p1 = foo;
.global .u64 p2 = generic(foo);
.global .u64 parr[] = { generic(bar), generic(bar)+4, generic(bar)+8 };
.global .u64 p3 = bar+8;
`, ""},
		{"5.4.4 mask() in all forms, eighth byte as LLVM emits it", "7.3", "sm_80", `
.const .u32 foo = 42;
.global .u8 addr[] = {0xff(foo), 0xff00(foo), 0xff0000(foo), 0xFF000000(foo)};
.global .u8 addr2[] = {0xff(foo+4), 0xff00(foo+4)};
.global .u8 addr3[] = {0xff(generic(foo)), 0xff00(generic(foo))};
.global .u8 addr4[] = {0xff(generic(foo)+4), 0xff00(generic(foo)+4)};
.global .u8 addr5[] = { 0xFF(1000 + 546), 0xFF00(131187) };
.global .u8 addr6[] = { 0xFF00000000(foo), 0xFF0000000000(foo), 0xFF000000000000(foo), 0xFF00000000000000(foo) };
.visible .global .align 1 .u8 packed[9] = {1, 0xFF(generic(foo)), 0xFF00(generic(foo)), 0xFF0000(generic(foo)), 0xFF000000(generic(foo)), 0xFF00000000(generic(foo)), 0xFF0000000000(generic(foo)), 0xFF000000000000(generic(foo)), 0xFF00000000000000(generic(foo))};
`, ""},
		{"5.4.4 function and kernel names (PTX 3.1)", "3.1", "sm_20", `
.func fa
{
	ret;
}
.entry kern
{
	ret;
}
.global .u64 ftable[] = { fa };
.global .u64 ktable[1] = { kern };
`, ""},
		{"5.4.5 alignment", "9.0", "sm_90", `
.const .align 4 .b8 bar[8] = {0,0,0,0,2,0,0,0};
.global .align 16 .v4 .f32 a[8];
` + declEntry(".reg .align 8 .b32 %r<2>;"), ""},
		{"5.4.6 parameterized names", "9.0", "sm_90", declEntry(".reg .b32 %r<100>;\n.local .align 4 .b32 l<4>;"), ""},
		{"5.4.8 attributes", "9.0", "sm_90", `
.global .attribute(.managed) .s32 g;
.global .attribute(.unified(19,95)) .f32 f;
`, ""},
		{"5.1 function-scope spaces (clang demoted variables, call tables 9.7.12.5)", "9.0", "sm_90", `
.func f0
{
	ret;
}
` + declEntry(`.shared .align 4 .b8 demoted[64];
	.local .align 8 .b8 __local_depot0[32];
	.param .align 8 .b8 param0[16];
	.global .u64 calltbl[1] = { f0 };
	.const .u32 ctab[2] = { 1, 2 };
	{ .param .b32 retval0; }`), ""},
		{"5.1.8 .tex and 5.3 opaque types", "1.5", "sm_10", `
.tex .u32 tex_a;
.tex .u64 tex_c, tex_d;
.global .texref t;
.global .samplerref s = { addr_mode_0 = clamp_to_border, filter_mode = nearest };
.global .surfref su;
.global .texref tinit = { filter_mode = linear, addr_mode_0 = wrap, normalized_coords = 1 };
.global .samplerref socl = { addr_mode_0 = wrap, addr_mode_1 = wrap, addr_mode_2 = wrap, filter_mode = nearest, force_unnormalized_coords = 1 };
.entry k (.param .texref pt, .param .samplerref ps, .param .surfref pu, .param .u32 n)
{
	ret;
}
`, ""},
		{"5.1.6.3 .ptr", "3.1", "sm_20", `
.entry foo ( .param .u32 param1,
	.param .u32 .ptr.global.align 16 param2,
	.param .u32 .ptr.const.align 8 param3,
	.param .u32 .ptr.align 16 param4,
	.param .u64 .ptr .shared p5,
	.param .u64 .ptr .local .align 4 p6 )
{
	ret;
}
`, ""},
		{"5.1.6.4, 7.1, 11.2.2 device function parameters", "6.0", "sm_30", `
.func foo ( .reg .b32 N, .param .align 8 .b8 buffer[12] )
{
	ret;
}
.func (.reg .u32 %res) inc_ptr ( .reg .u32 %ptr, .reg .u32 %inc )
{
	ret;
}
.func (.param .u32 rval) bar(.param .u32 N, .param .align 4 .b8 numbers[])
{
	ret;
}
.weak .func (.reg .s32 %d) __cuda_sm20_div_s16 (.reg .s32 %a0, .reg .s32 %a1);
` + declEntry("proto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b8 _[]);"), ""},
		{"11.2.2 PTX 1.x .reg parameters (no ABI)", "1.4", "sm_13", `
.func (.reg .u16 %rv, .reg .u32 %r2) f (.reg .u16 %a)
{
	ret;
}
`, ""},
		{"11.2.1 kernel parameters in the body before 1.4; .v4 .b8", "1.2", "sm_11", `
.entry k
{
	.param .u32 __cudaparm_k_data;
	ret;
}
`, ""},
		{"5.1.1, 7.1.1 module-scope .reg/.local before 3.0 or without ABI", "2.3", "sm_20", `
.reg .u32 $gr0;
.local .u32 $gl0;
`, ""},
		{"module-scope .reg on sm_1x (no ABI) at 3.0", "3.0", "sm_13", ".reg .u32 $gr0;\n", ""},
		{"11.6 linkage", "9.0", "sm_90", `
.extern .global .u32 g_extern;
.extern .global .s32 array[];
.visible .global .f64 g_visible;
.weak .global .u32 g_weak = 1;
.common .global .u32 g_common;
.common .global .align 8 .b8 g_common_arr[64] = {1};
.extern .shared .align 16 .b8 smem[];
.visible .shared .align 4 .b8 vs[16];
.extern .const .align 4 .b8 ce[16];
`, ""},
		{"5.1.3.1 banked constants (PTX 1.x)", "1.4", "sm_10", ".extern .const[2] .b32 const_buffer[];\n.const[0] .f32 c0 = 1.0;\n", ""},
		{"5.2.1 .b128 from 8.3", "8.3", "sm_70", ".global .b128 w;\n" + declEntry(".reg .b128 %q<2>;"), ""},
		{"11.2.1 kernel parameters at the 4352-byte limit", "8.0", "sm_90", `
.entry big (.param .align 8 .b8 a[4344], .param .u64 p)
{
	ret;
}
`, ""},
		{"5.1.3 64 KB of constants; .extern and other banks apart", "1.4", "sm_10", `
.const .b8 c[65532];
.const .u32 t[] = {1};
.extern .const .b8 e[65536];
.const[1] .b8 b1[65536];
`, ""},
		{"11.2.1 kernel parameters up to 32764 bytes from 8.1", "8.1", "sm_90", `
.entry big (.param .align 4 .b8 a[32760], .param .u32 n, .param .texref t)
{
	ret;
}
`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := checkSrc(t, declSrc(c.version, c.target, c.items), Options{})
			if errs := declDiags(ds, ptx.SeverityError); len(errs) > 0 {
				t.Errorf("errors: %q", errs)
			}
			if ws := declDiags(ds, ptx.SeverityWarning); len(ws) > 0 {
				t.Errorf("warnings: %q", ws)
			}
		})
	}
}

func TestDeclarationsInvalid(t *testing.T) {
	cases := []declCase{
		// 5.1 state spaces
		{"5.1.2 .sreg", "9.0", "sm_90", declEntry(".sreg .u32 s;"), "'.sreg' variables cannot be declared"},
		{"5.1.1 module .reg with ABI", "3.0", "sm_20", ".reg .u32 r;\n", "'.reg' variables cannot be declared at module scope"},
		{"5.1.5 module .local with ABI", "7.0", "sm_70", ".local .u32 l;\n", "'.local' variables cannot be declared at module scope"},
		{"5.1.6 module .param", "9.0", "sm_90", ".param .u32 p;\n", "'.param' variables cannot be declared at module scope"},
		{"5.1.8 .tex in a body", "1.5", "sm_10", declEntry(".tex .u32 t;"), "'.tex' variables must be declared at module scope"},
		{"5.1.8 .tex type", "1.5", "sm_10", ".tex .f32 t;\n", "'.tex' variables must be of type .u32 or .u64"},
		{"11.2.1 kernel .reg parameter", "9.0", "sm_90", ".entry k (.reg .u32 r)\n{\n\tret;\n}\n", "kernel parameters must be declared in the '.param' state space"},
		{"11.2.2 .func .shared parameter", "9.0", "sm_90", ".func f (.shared .u32 r)\n{\n\tret;\n}\n", "function parameters must be declared in the '.reg' or '.param' state space"},
		{"11.3.3 prototype .local parameter", "9.0", "sm_90", declEntry("p: .callprototype _ (.local .b32 _);"), "function parameters must be declared in the '.reg' or '.param'"},
		{"5.1.6 .param function parameters before 2.0", "1.4", "sm_13", ".func f (.param .u32 a)\n{\n\tret;\n}\n", "requires PTX ISA .version 2.0 or later"},
		{"5.1.6 .param function parameters before sm_20", "2.0", "sm_13", ".func (.param .u32 r) f ()\n{\n\tret;\n}\n", "requires .target sm_20 or higher"},

		// 11.6 linkage
		{"11.6 .visible in a body", "9.0", "sm_90", declEntry(".visible .global .u32 g;"), "'.visible' is not allowed inside a function body"},
		{"11.6.4 .common on .shared", "9.0", "sm_90", ".common .shared .u32 s;\n", "'.common' can be used only on variables in the '.global' state space"},
		{"11.6.4 .common on an opaque type", "9.0", "sm_90", ".common .global .texref t;\n", "'.common' cannot be used on variables of opaque type"},
		{"11.6.4 .common before 5.0", "4.3", "sm_20", ".common .global .u32 g;\n", "requires PTX ISA .version 5.0 or later"},
		{"11.6.4 .common before sm_20", "5.0", "sm_13", ".common .global .u32 g;\n", "requires .target sm_20 or higher"},
		{"11.6.3 .weak before 3.1", "3.0", "sm_20", ".weak .global .u32 g;\n", "requires PTX ISA .version 3.1 or later"},
		{"5.4.4 .extern with initializer", "9.0", "sm_90", ".extern .global .u32 g = 1;\n", "an '.extern' variable cannot have an initializer"},

		// 5.2, 5.3, 5.4.1, 5.4.2 types
		{"5.2.1 unknown type", "9.0", "sm_90", ".global .u24 g;\n", "unknown type '.u24'"},
		{"5.2.3 .bf16 is not fundamental", "9.0", "sm_90", declEntry(".reg .bf16 h;"), "'.bf16' is not a fundamental type"},
		{"5.2.4.2 .u16x2 is not fundamental", "9.0", "sm_90", declEntry(".reg .u16x2 h;"), "'.u16x2' is not a fundamental type"},
		{"5.4.1 .pred outside .reg", "9.0", "sm_90", ".global .pred p;\n", "predicate variables may only be declared in the '.reg' state space"},
		{"5.4.1 .pred kernel parameter", "9.0", "sm_90", ".entry k (.param .pred p)\n{\n\tret;\n}\n", "predicate variables may only be declared in the '.reg'"},
		{"5.4.2 .v4 .f64 exceeds 128 bits", "9.0", "sm_90", ".global .v4 .f64 v;\n", "vectors cannot exceed 128 bits"},
		{"5.4.2 .v2 .b128", "9.0", "sm_90", declEntry(".reg .v2 .b128 v;"), "vectors cannot exceed 128 bits"},
		{"5.4.2 .v8 declarations", "9.0", "sm_100", declEntry(".reg .v8 .b32 v;"), "'.v8' vectors cannot be declared"},
		{"5.4.2 vector of predicates", "9.0", "sm_90", declEntry(".reg .v2 .pred v;"), "non-predicate fundamental base type"},
		{"5.2.1 .b128 before 8.3", "8.2", "sm_90", declEntry(".reg .b128 q;"), "Feature '.b128' requires PTX ISA .version 8.3 or later"},
		{"5.3 opaque type in a body", "9.0", "sm_90", declEntry(".global .texref t;"), "variables of opaque type '.texref' can be declared only at module scope"},
		{"5.3 opaque type in .const", "9.0", "sm_90", ".const .samplerref s;\n", "variables of opaque type '.samplerref'"},
		{"5.3 opaque .func parameter", "9.0", "sm_90", ".func f (.param .surfref s)\n{\n\tret;\n}\n", "variables of opaque type '.surfref'"},
		{"5.4.2 vector of opaque type", "9.0", "sm_90", ".global .v2 .texref t;\n", "non-predicate fundamental base type"},

		// 5.4.5 alignment, 5.1.3.1 banks, 5.4.8 attributes
		{"5.4.5 alignment not a power of two", "9.0", "sm_90", ".global .align 12 .b8 g[24];\n", "the .align value must be a power of two, not 12"},
		{"5.4.5 zero alignment", "9.0", "sm_90", ".global .align 0 .b8 g[24];\n", "power of two, not 0"},
		{"5.4.5 non-constant alignment", "9.0", "sm_90", ".global .align 1.5 .b8 g[24];\n", "the .align value must be an integer constant"},
		{"5.1.3.1 bank out of range", "1.4", "sm_10", ".const[11] .u32 c;\n", "the constant bank must be an integer from 0 to 10"},
		{"5.1.3.1 bank on .global", "1.4", "sm_10", ".global[1] .u32 c;\n", "a constant bank can only be given for '.const' variables"},
		{"5.4.8 .managed on .shared", "9.0", "sm_90", ".shared .attribute(.managed) .u32 s;\n", "the '.managed' attribute can only be used on variables in the '.global' state space"},
		{"5.4.8 unknown attribute", "9.0", "sm_90", ".global .attribute(.pinned) .u32 g;\n", "unknown variable attribute '.pinned'"},
		{"5.4.8 .unified arguments", "9.0", "sm_90", ".global .attribute(.unified(1)) .u32 g;\n", "takes two integer constants"},

		// 5.1.6.3 .ptr
		{"5.1.6.3 .ptr on a .func parameter", "9.0", "sm_90", ".func f (.param .u64 .ptr .global p)\n{\n\tret;\n}\n", "the '.ptr' attribute is allowed only on kernel parameters"},
		{"5.1.6.3 .ptr space", "9.0", "sm_90", ".entry k (.param .u64 .ptr .param p)\n{\n\tret;\n}\n", "the state space of '.ptr' must be .const, .global, .local or .shared"},
		{"5.1.6.3 .ptr alignment", "9.0", "sm_90", ".entry k (.param .u64 .ptr .global .align 3 p)\n{\n\tret;\n}\n", "the .ptr .align value must be a power of two"},
		{"5.1.6.3 .ptr on a float", "9.0", "sm_90", ".entry k (.param .f32 .ptr .global p)\n{\n\tret;\n}\n", "needs a pointer-sized integer parameter"},

		// 5.4.3 arrays, 5.4.6 parameterized names
		{"5.4.6 parameterized array", "9.0", "sm_90", declEntry(".reg .b32 %r<4>[2];"), "parameterized variable names cannot be arrays"},
		{"5.4.6 parameterized initializer", "9.0", "sm_90", ".global .u32 g<4> = 1;\n", "parameterized variable names cannot have initializers"},
		{"5.4.3 negative dimension", "9.0", "sm_90", ".global .u32 g[-1];\n", "negative dimension"},
		{"5.4.3 non-constant dimension", "9.0", "sm_90", ".global .u32 n;\n.global .u32 g[n];\n", "dimensions of array 'g' must be integer constants"},
		{"5.4.3 only the first dimension may be omitted", "9.0", "sm_90", ".global .u32 g[2][] = {{1}};\n", "only the first dimension of array 'g' may be omitted"},
		{"5.4.3 unsized .local array", "9.0", "sm_90", declEntry(".local .b8 buf[];"), "array 'buf' needs a size"},
		{"11.2.2 unsized parameter not last", "6.0", "sm_30", ".func f (.param .b8 a[], .param .u32 n)\n{\n\tret;\n}\n", "only the last parameter of a function can be an unsized array"},
		{"11.2.2 unsized .b32 parameter", "6.0", "sm_30", ".func f (.param .u32 n, .param .b32 a[])\n{\n\tret;\n}\n", "must be a one-dimensional '.param' array of type '.b8'"},
		{"11.2.2 unsized kernel parameter", "9.0", "sm_90", ".entry k (.param .b8 a[])\n{\n\tret;\n}\n", "only the last parameter of a .func may be unsized"},
		{"11.2.2 unsized parameter before 6.0", "5.0", "sm_30", ".func f (.param .b8 a[])\n{\n\tret;\n}\n", "Feature 'unsized array parameter' requires PTX ISA .version 6.0 or later"},
		{"11.2.2 unsized parameter before sm_30", "6.0", "sm_20", ".func f (.param .b8 a[])\n{\n\tret;\n}\n", "Feature 'unsized array parameter' requires .target sm_30 or higher"},

		// 5.4.4 initializers
		{"5.4.4 initializer in .shared", "9.0", "sm_90", ".shared .u32 s = 1;\n", "initializers are allowed only for variables in the '.const' and '.global' state spaces"},
		{"5.4.4 initializer in .local", "9.0", "sm_90", declEntry(".local .u32 l = 1;"), "initializers are allowed only for"},
		{"5.4.4 initializer in .reg", "9.0", "sm_90", declEntry(".reg .u32 r = 1;"), "initializers are allowed only for"},
		{"5.4.4 initializer of .f16", "9.0", "sm_90", ".global .f16 h = 0;\n", "initializers are not allowed for type '.f16'"},
		{"5.4.4 initializer of .f16x2", "9.0", "sm_90", ".global .f16x2 h = 0;\n", "initializers are not allowed for type '.f16x2'"},
		{"5.4.4 too many elements", "9.0", "sm_90", ".global .u32 g[2] = {1, 2, 3};\n", "too many initializers for 'g': 3 given for a dimension of 2"},
		{"5.4.4 too many rows", "9.0", "sm_90", ".global .s32 x[3][2] = { {1,2}, {3}, {4}, {5} };\n", "4 given for a dimension of 3"},
		{"5.4.4 too many in a row", "9.0", "sm_90", ".global .s32 x[3][2] = { {1,2,3} };\n", "3 given for a dimension of 2"},
		{"5.4.4 too many vector elements", "9.0", "sm_90", ".global .v2 .u32 v = {1, 2, 3};\n", "3 given for a dimension of 2"},
		{"5.4.4 flat list too long", "9.0", "sm_90", ".global .s32 x[2][2] = { 1, 2, 3, 4, 5 };\n", "5 given for 4 elements"},
		{"5.4.4 array without braces", "9.0", "sm_90", ".global .u32 g[4] = 5;\n", "its initializer must be a list in braces"},
		{"5.4.4 nesting deeper than the dimensions", "9.0", "sm_90", ".global .u32 g[2] = { {1, 2}, {3, 4} };\n", "more levels of braces than its declaration has dimensions"},
		{"5.4.4 only .global/.const variables in initializers", "9.0", "sm_90", ".shared .u32 s;\n.global .u64 p = s;\n", "only variables in the '.global' or '.const' state space may be used in initializers"},
		{"5.3 opaque variables may not appear in initializers", "9.0", "sm_90", ".global .texref t;\n.global .u64 p = t;\n", "opaque variable 't' cannot appear in an initializer"},
		{"5.4.4 labels cannot be used in initializers", "9.0", "sm_90", declEntry("L1:\n\t.global .u64 tbl[1] = { L1 };"), "labels cannot be used in initializers"},
		{"5.4.4 kernel names before 3.1", "3.0", "sm_20", ".entry kern\n{\n\tret;\n}\n.global .u64 kt = kern;\n", "Feature 'kernel function names in initializers' requires PTX ISA .version 3.1 or later"},
		{"5.4.4 .u8 address without mask()", "9.0", "sm_90", ".global .u32 g;\n.global .u8 b = g;\n", "an address can initialize an 8-bit variable only through the mask() operator"},
		{"5.4.4 mask() before 7.1", "7.0", "sm_80", ".global .u32 g;\n.global .u8 b[1] = { 0xFF(g) };\n", "Feature 'mask() operator in initializers' requires PTX ISA .version 7.1 or later"},
		{"5.4.4 mask() with an integer expression before 7.3", "7.1", "sm_80", ".global .u8 b[1] = { 0xFF(1000 + 546) };\n", "Feature 'integer constant expression in mask() operator' requires PTX ISA .version 7.3"},
		{"5.4.4 invalid mask value", "9.0", "sm_90", ".global .u32 g;\n.global .u8 b[1] = { 0xF0(g) };\n", "invalid mask() operator 0xF0"},
		{"5.4.4 invalid mask operand", "9.0", "sm_90", ".global .u32 g;\n.global .u8 b[1] = { 0xFF(g*2) };\n", "the operand of a mask() operator must be"},
		{"5.4.4 unknown initializer operator", "9.0", "sm_90", ".global .u32 g;\n.global .u64 p = shared(g);\n", "unknown operator 'shared' in initializer"},
		{"5.4.4 generic() of an expression", "9.0", "sm_90", ".global .u32 g;\n.global .u64 p = generic(g+4);\n", "the operand of generic() must be the name of a variable"},
		{"5.3 member assignment for a non-opaque type", "9.0", "sm_90", ".global .u32 g = { width = 4 };\n", "member assignments 'width = ...' initialize only"},
		{"5.3 unknown member", "9.0", "sm_90", ".global .samplerref s = { width = 4 };\n", "'width' is not a member of '.samplerref'"},
		{"5.3 invalid member value", "9.0", "sm_90", ".global .samplerref s = { filter_mode = cubic };\n", "invalid value for 'filter_mode'"},
		{"5.3 opaque initializer without members", "9.0", "sm_90", ".global .texref t = 4;\n", "is initialized with a list of member assignments"},

		// 5.1.3 constant memory
		{"5.1.3 more than 64 KB of constants", "9.0", "sm_90", ".const .b8 c[65532];\n.const .u32 t[] = {1, 2};\n", "'.const' variables take 65540 bytes, more than the 64 KB"},
		{"5.1.3 more than 64 KB, in a body", "9.0", "sm_90", ".const .f64 c[8192];\n" + declEntry(".const .u8 x;"), "65537 bytes"},
		{"5.1.3.1 more than 64 KB in bank 2", "1.4", "sm_10", ".const[2] .b32 c[16384];\n.const[2] .b32 d;\n", "more than the 64 KB (65536 bytes) of constant bank 2"},

		// 11.2.1 kernel parameter size
		{"11.2.1 over 4352 bytes before 8.1", "8.0", "sm_90", ".entry big (.param .align 8 .b8 a[4344], .param .u32 n, .param .u64 p)\n{\n\tret;\n}\n",
			"kernel parameter size 4360 exceeds the limit of 4352 bytes for PTX ISA .version 8.0"},
		{"11.2.1 over 256 bytes at 1.4", "1.4", "sm_10", ".entry big (.param .align 4 .b8 a[256], .param .u32 n)\n{\n\tret;\n}\n",
			"kernel parameter size 260 exceeds the limit of 256 bytes for PTX ISA .version 1.4"},
		{"11.2.1 over 32764 bytes", "9.0", "sm_90", ".entry big (.param .align 4 .b8 a[32764], .param .u8 n)\n{\n\tret;\n}\n",
			"kernel parameter size 32765 exceeds the limit of 32764 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := checkSrc(t, declSrc(c.version, c.target, c.items), Options{})
			errs := strings.Join(declDiags(ds, ptx.SeverityError), "\n")
			if !strings.Contains(errs, c.want) {
				t.Errorf("got %q, want %q", errs, c.want)
			}
		})
	}
}

// TestDeclarationsWarnings: constructs the manual discourages or does not
// describe, but that compilers are known to emit or that ptxas is not
// known to reject: a warning, no error.
func TestDeclarationsWarnings(t *testing.T) {
	cases := []declCase{
		// LLVM declares zero-sized aggregates (extern_weak) as `.b8 x[]`
		{"5.4.3 unsized without initializer or .extern", "9.0", "sm_90", ".global .align 4 .b8 z[];\n", "array 'z' has no size"},
		{"5.4.3 zero dimension", "9.0", "sm_90", ".global .align 1 .b8 z[0];\n", "array 'z' has a zero dimension"},
		{"11.6 .extern in a body", "9.0", "sm_90", declEntry(".extern .shared .align 16 .b8 dyn[];"), "'.extern' inside a function body"},
		{"5.1.7 sub-qualifier in a declaration", "9.0", "sm_90", ".shared::cta .u32 s;\n", "the sub-qualifier '::cta' belongs on instructions"},
		{"7.1 sub-word .reg parameter with the ABI", "9.0", "sm_90", ".func f (.reg .u16 a)\n{\n\tret;\n}\n", "'.reg' parameters must be at least 32 bits wide"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := checkSrc(t, declSrc(c.version, c.target, c.items), Options{})
			if errs := declDiags(ds, ptx.SeverityError); len(errs) > 0 {
				t.Errorf("errors: %q", errs)
			}
			if ws := strings.Join(declDiags(ds, ptx.SeverityWarning), "\n"); !strings.Contains(ws, c.want) {
				t.Errorf("warnings %q, want %q", ws, c.want)
			}
		})
	}
}
