package check

import (
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/ptx"
)

// Tests of calls.go. Valid modules follow the manual's examples and the
// shapes real compilers emit; each invalid one breaks one rule of the
// manual (sections cited per case).

func module(version, target, items string) string {
	return ".version " + version + "\n.target " + target + "\n.address_size 64\n" + items
}

func warningsOf(ds ptx.DiagnosticList) []string {
	var out []string
	for _, d := range ds {
		if d.Severity == ptx.SeverityWarning {
			out = append(out, d.Msg)
		}
	}
	return out
}

// Definitions shared by the cases.
const callDefs = `
.func init
{
	ret;
}
.func (.reg .u32 %res) inc_ptr (.reg .u32 %ptr, .reg .u32 %inc)
{
	add.u32 %res, %ptr, %inc;
	ret;
}
.func (.reg .s32 out) bar (.reg .s32 x, .param .align 8 .b8 y[12])
{
	.reg .b32 c;
	ld.param.b8 c, [y+8];
	add.s32 out, x, c;
	ret;
}
.func (.param .u32 rval) varsum (.param .u32 N, .param .align 4 .b8 numbers[])
{
	.reg .b32 %r1;
	ld.param.u32 %r1, [N];
	st.param.u32 [rval], %r1;
	ret;
}
.func (.param .b32 r) sum (.param .b32 a, .param .b32 b)
{
	.reg .b32 %r<4>;
	ld.param.b32 %r1, [a];
	ld.param.b32 %r2, [b];
	add.s32 %r3, %r1, %r2;
	st.param.b32 [r], %r3;
	ret;
}
.func die (.param .b32 code) .noreturn
{
	trap;
}
.global .u64 gvar;
.global .u64 jmptbl[2] = { sum, sum };
`

// kernelWith wraps body in a kernel after callDefs.
func kernelWith(body string) string {
	return module("9.0", "sm_90", callDefs+`
.visible .entry k (.param .u64 out)
{
	.reg .b32 %r<10>;
	.reg .s32 %x, %out;
	.reg .b64 %rd<10>;
	.reg .pred %p;
	`+body+`
	ret;
}
`)
}

func TestCallsValid(t *testing.T) {
	cases := map[string]string{
		// 7.1: scalar arguments in registers and constants, register results
		"reg params (7.1)": kernelWith(`call (%r1), inc_ptr, (%r1, 4);
	call init;
	call.uni init;
	@%p call (%r2), inc_ptr, (%r1, -1);`),
		// 7.1: a structure passed in a .param byte array, a scalar in a register
		"byte array by value (7.1)": kernelWith(`{
	.param .b8 .align 8 py[12];
	st.param.b64 [py+0], %rd1;
	call (%out), bar, (%x, py);
	}`),
		// 11.2.2: the unsized trailing .b8 array passed, then left out
		"unsized trailing array (11.2.2)": kernelWith(`{
	.param .u32 N;
	.param .align 4 .b8 numbers[8];
	.param .u32 rval;
	st.param.u32 [N], 2;
	call (rval), varsum, (N, numbers);
	call (rval), varsum, (N);
	}`),
		// nvcc/clang layout: .param arguments and result in a callseq block;
		// .reg variables and constants for .param scalars (7.1)
		"param args (nvcc, clang)": kernelWith(`{ // callseq 0, 0
	.param .b32 param0;
	st.param.b32 [param0], %r1;
	.param .b32 param1;
	st.param.b32 [param1], %r3;
	.param .b32 retval0;
	call.uni (retval0),
	sum,
	(
	param0,
	param1
	);
	ld.param.b32 %r4, [retval0];
	} // callseq 0
	call (%r5), sum, (%r1, 7);`),
		// 7.1: a .param variable may be passed for a .reg parameter
		"param arg for reg param (7.1)": kernelWith(`{
	.param .b32 a;
	st.param.b32 [a], %r1;
	call (%r2), inc_ptr, (a, 1);
	}`),
		// 9.7.12.5: indirect calls with a prototype, a .calltargets list and
		// a call table; `call fptr, fproto;` without arguments
		"indirect (9.7.12.5, 11.3)": kernelWith(`mov.u64 %rd1, sum;
	Fproto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);
	Fnone: .callprototype _ ;
	Fdie: .callprototype _ (.param .b32 _) .noreturn;
	Ftgt: .calltargets sum, sum;
	{
	.param .b32 a;
	.param .b32 b;
	.param .b32 r;
	call (r), %rd1, (a, b), Fproto;
	call.uni (r), %rd1, (a, b), Ftgt;
	call (r), %rd1, (a, b), jmptbl;
	}
	mov.u64 %rd2, init;
	call %rd2, Fnone;
	call.uni %rd2, Fnone;
	mov.u64 %rd3, die;
	@%p call %rd3, (%r1), Fdie;`),
		// 11.4.6: calling a .noreturn function; ret and exit in a kernel
		"noreturn call, exit (11.4.6, 9.7.12.7)": kernelWith(`@%p call die, (3);
	@%p exit;`),
		// 11.2.3: the manual's .alias example
		"alias (11.2.3)": module("6.3", "sm_30", `
.visible .func foo(.param .u32 p)
{
	ret;
}
.visible .func bar(.param .u32 p);
.alias bar, foo;
.entry test()
{
	{
	.param .u32 p;
	call foo, (p);
	}
	{
	.param .u32 p;
	call bar, (p);
	}
	ret;
}
`),
		// 7.1: a prototype followed by its definition; recursion
		"prototype then definition, recursion (7.1)": module("9.0", "sm_90", `
.visible .func (.param .b32 func_retval0) fact (.param .b32 fact_param_0);
.func empty;
.visible .entry k ()
{
	.reg .b32 %r<3>;
	{
	.param .b32 param0;
	.param .b32 retval0;
	call.uni (retval0), fact, (param0);
	}
	call empty;
	call empty, ();
	ret;
}
.visible .func (.param .b32 func_retval0) fact (.param .b32 fact_param_0)
{
	.reg .b32 %r<4>;
	ld.param.b32 %r1, [fact_param_0];
	{
	.param .b32 param0;
	st.param.b32 [param0], %r1;
	.param .b32 retval0;
	call.uni (retval0), fact, (param0);
	ld.param.b32 %r2, [retval0];
	}
	st.param.b32 [func_retval0], %r2;
	ret;
}
.func empty ()
{
	ret;
}
`),
		// clang: .extern declarations of vprintf and the .noreturn
		// __assertfail, and a .weak function declared, then defined
		"clang extern and weak": module("8.0", "sm_90", `
.extern .func (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.extern .func __assertfail
(
	.param .b64 __assertfail_param_0,
	.param .b64 __assertfail_param_1,
	.param .b32 __assertfail_param_2,
	.param .b64 __assertfail_param_3,
	.param .b64 __assertfail_param_4
)
.noreturn;
.weak .func (.param .b64 func_retval0) _Z3maxPKdi
(
	.param .b64 _Z3maxPKdi_param_0,
	.param .b32 _Z3maxPKdi_param_1
)
;
.visible .entry k (.param .u64 k_param_0)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<5>;
	{ // callseq 0, 0
	.param .b64 param0;
	st.param.b64 [param0], %rd1;
	.param .b64 param1;
	st.param.b64 [param1], 0;
	.param .b32 retval0;
	call.uni (retval0), vprintf, (param0, param1);
	ld.param.b32 %r1, [retval0];
	} // callseq 0
	{ // callseq 1, 0
	.param .b64 param0;
	.param .b32 param1;
	.param .b64 retval0;
	call.uni (retval0), _Z3maxPKdi, (param0, param1);
	}
	{ // callseq 2, 0
	.param .b64 param0;
	.param .b64 param1;
	.param .b32 param2;
	.param .b64 param3;
	.param .b64 param4;
	st.param.b64 [param4], 1;
	st.param.b32 [param2], 6;
	call.uni __assertfail, (param0, param1, param2, param3, param4);
	} // callseq 2
	ret;
}
.weak .func (.param .b64 func_retval0) _Z3maxPKdi
(
	.param .b64 _Z3maxPKdi_param_0,
	.param .b32 _Z3maxPKdi_param_1
)
{
	.reg .b64 %rd<2>;
	st.param.b64 [func_retval0], %rd1;
	ret;
}
`),
		// CUDA Dynamic Parallelism: the kernel's address goes to a runtime
		// function; the kernel itself is not called (9.7.9.1 mov, 5.4.4)
		"dynamic parallelism": module("6.0", "sm_35", `
.extern .func (.param .b64 func_retval0) cudaGetParameterBufferV2
(
	.param .b64 cudaGetParameterBufferV2_param_0,
	.param .align 4 .b8 cudaGetParameterBufferV2_param_1[12],
	.param .align 4 .b8 cudaGetParameterBufferV2_param_2[12],
	.param .b32 cudaGetParameterBufferV2_param_3
)
;
.extern .func (.param .b32 func_retval0) cudaLaunchDeviceV2
(
	.param .b64 cudaLaunchDeviceV2_param_0,
	.param .b64 cudaLaunchDeviceV2_param_1
)
;
.visible .entry child (.param .u32 n)
{
	ret;
}
.visible .entry parent ()
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<4>;
	mov.u64 %rd1, child;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd1;
	.param .align 4 .b8 param1[12];
	st.param.b32 [param1+0], 1;
	.param .align 4 .b8 param2[12];
	.param .b32 param3;
	.param .b64 retval0;
	call.uni (retval0), cudaGetParameterBufferV2, (param0, param1, param2, param3);
	ld.param.b64 %rd2, [retval0];
	}
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd2;
	.param .b64 param1;
	.param .b32 retval0;
	call.uni (retval0), cudaLaunchDeviceV2, (param0, param1);
	ld.param.b32 %r1, [retval0];
	}
	ret;
}
`),
		// GCC's nvptx back end: `.param.u32 %value_in` style names, a
		// .callprototype inside the call's block
		"gcc nvptx": module("3.1", "sm_30", `
.visible .func (.param.u32 %value_out) foo (.param.u32 %in_ar0, .param.u64 %in_ar1);
.visible .func (.param.u32 %value_out) foo (.param.u32 %in_ar0, .param.u64 %in_ar1)
{
	.reg.u32 %value;
	.reg.u32 %ar0;
	ld.param.u32 %ar0, [%in_ar0];
	mov.u32 %value, %ar0;
	st.param.u32 [%value_out], %value;
	ret;
}
.visible .entry main (.param.u64 %in_ar0)
{
	.reg.u32 %r22;
	.reg.u64 %r23;
	.reg.u64 %r24;
	{
	.param.u32 %value_in;
	.param.u32 %out_arg1;
	st.param.u32 [%out_arg1], %r22;
	.param.u64 %out_arg2;
	st.param.u64 [%out_arg2], %r23;
	call (%value_in), foo, (%out_arg1, %out_arg2);
	ld.param.u32 %r22, [%value_in];
	}
	mov.u64 %r24, foo;
	{
	.param.u32 %value_in;
	.param.u32 %out_arg1;
	.param.u64 %out_arg2;
	$LCT0:
	.callprototype ( .param.u32 _) _ (.param.u32 _, .param.u64 _);
	call (%value_in), %r24, (%out_arg1, %out_arg2), $LCT0;
	ld.param.u32 %r22, [%value_in];
	}
	ret;
}
`),
		// 7.1.1: PTX 1.x on sm_1x returns several values in registers
		"PTX 1.x multiple results (7.1.1)": `.version 1.4
.target sm_13
.func (.reg .u32 %lo, .reg .u32 %hi) split (.reg .u32 %a, .reg .u32 %b)
{
	mov.u32 %lo, %a;
	mov.u32 %hi, %b;
	ret;
}
.entry k
{
	.reg .u32 %r<4>;
	call.uni (%r1, %r2), split, (%r3, %r3);
	exit;
}
`,
		// nvcc of the PTX 1.x era: module-scope argument and return
		// registers (%ra<17>, %rv<5>), the callee's formals named alike
		"nvcc PTX 1.x register passing": `.version 1.4
.target sm_13
.reg .u32 %ra<17>;
.reg .f32 %fa<17>;
.reg .u32 %rv<5>;
.func (.reg .u32 %rv1) _Z3fooif (.reg .u32 %ra1, .reg .f32 %fa2)
{
	mov.s32 %rv1, %ra1;
	ret;
}
.entry _Z6kernelPi (.param .u32 __cudaparm__Z6kernelPi_out)
{
	.reg .u32 %r<5>;
	.reg .f32 %f<2>;
	mov.s32 %ra1, %r3;
	mov.f32 %fa2, %f1;
	call.uni (%rv1), _Z3fooif, (%ra1, %fa2);
	mov.s32 %r4, %rv1;
	exit;
}
`,
		// nvcc (Open64) of the PTX 2.x era: one .param variable per
		// argument at function scope, reused by every call
		"nvcc PTX 2.x param passing": module("2.3", "sm_20", `
.func (.param .s32 __cudaretf__Z3addii) _Z3addii (.param .s32 __cudaparmf1__Z3addii, .param .s32 __cudaparmf2__Z3addii)
{
	.reg .u32 %r<4>;
	ld.param.s32 %r1, [__cudaparmf1__Z3addii];
	ld.param.s32 %r2, [__cudaparmf2__Z3addii];
	add.s32 %r3, %r1, %r2;
	st.param.s32 [__cudaretf__Z3addii], %r3;
	ret;
}
.entry _Z6kernelPi (.param .u64 __cudaparm__Z6kernelPi_out)
{
	.reg .u32 %r<4>;
	.param .s32 __cudaparma1__Z3addii;
	.param .s32 __cudaparma2__Z3addii;
	.param .s32 __cudareta__Z3addii;
	st.param.s32 [__cudaparma1__Z3addii], %r1;
	st.param.s32 [__cudaparma2__Z3addii], %r2;
	call.uni (__cudareta__Z3addii), _Z3addii, (__cudaparma1__Z3addii, __cudaparma2__Z3addii);
	ld.param.s32 %r3, [__cudareta__Z3addii];
	call.uni (__cudareta__Z3addii), _Z3addii, (__cudaparma1__Z3addii, __cudaparma2__Z3addii);
	exit;
}
`),
		// 7.1.1: "PTX continues to support multiple return registers for
		// sm_1x targets", also from PTX 2.0 on
		"PTX 2.0 sm_1x multiple results (7.1.1)": `.version 2.0
.target sm_13
.func (.reg .u32 %lo, .reg .u32 %hi) split ()
{
	ret;
}
`,
		// 11.2.2 with 11.3.3: an unsized trailing array in a prototype
		"unsized array in a prototype": kernelWith(`Fv: .callprototype (.param .b32 _) _ (.param .b32 _, .param .align 4 .b8 _[]);
	{
	.param .b32 r;
	.param .align 4 .b8 va[8];
	call (r), %rd1, (%r1, va), Fv;
	call (r), %rd1, (2), Fv;
	}`),
		// 9.7.12.6: ret in a function with a return parameter
		"ret with return parameter (9.7.12.6)": module("9.0", "sm_90", `
.func (.param .b32 r) f ()
{
	.reg .pred %p;
	st.param.b32 [r], 1;
	@%p ret;
	ret.uni;
}
`),
	}
	for name, src := range cases {
		if errs := errorsOf(checkSrc(t, src, Options{})); len(errs) > 0 {
			t.Errorf("%s: unexpected errors %q", name, errs)
		}
	}
}

func TestCallsInvalid(t *testing.T) {
	cases := []struct{ name, src, want string }{
		// 9.7.12.5 / 11.2.1: a kernel is launched, not called
		{"call a kernel", module("9.0", "sm_90", `
.entry kern ()
{
	ret;
}
.entry k ()
{
	call kern;
	ret;
}
`), "'kern' is a kernel (.entry) and cannot be called"},
		// 7.1: arguments must match the formal parameters in number
		{"too many arguments", kernelWith(`call (%r1), inc_ptr, (%r1, 4, 5);`), "call to 'inc_ptr': 3 arguments given, 'inc_ptr' takes 2"},
		{"too few arguments", kernelWith(`call (%r1), inc_ptr, (%r1);`), "call to 'inc_ptr': 1 argument given, 'inc_ptr' takes 2"},
		{"no argument list", kernelWith(`call (%r1), inc_ptr;`), "call to 'inc_ptr': 0 arguments given, 'inc_ptr' takes 2"},
		// 11.2.2: only an unsized trailing .b8 array may be left out
		{"sized array left out", kernelWith(`call (%out), bar, (%x);`), "call to 'bar': 1 argument given, 'bar' takes 2"},
		{"missing result", kernelWith(`call inc_ptr, (%r1, 4);`), "call to 'inc_ptr': 0 results given, 'inc_ptr' has 1 return parameter"},
		{"extra result", kernelWith(`call (%r1), init;`), "call to 'init': 1 result given, 'init' has 0 return parameters"},
		// 7.1: arguments are .param or .reg variables or constants
		{"global variable argument", kernelWith(`call (%r1), sum, (gvar, 1);`), "argument 1 of call to 'sum' ('gvar') is a .global variable"},
		{"address argument", kernelWith(`call (%r1), sum, ([%rd1], 1);`), "argument 1 of call to 'sum' must be a .reg or .param variable or a constant"},
		{"constant result", kernelWith(`call (1), sum, (%r1, 1);`), "result of call to 'sum' is a constant"},
		// 7.1: a .param byte-array parameter takes a .param array of
		// matching size and alignment
		{"register for byte array", kernelWith(`call (%out), bar, (%x, %r1);`), "parameter 'y' is a .param array"},
		{"constant for byte array", kernelWith(`call (%out), bar, (%x, 0);`), "argument 2 of call to 'bar' is a constant; parameter 'y' is a .param array"},
		{"array size", kernelWith(`{
	.param .align 8 .b8 py[16];
	call (%out), bar, (%x, py);
	}`), "argument 2 of call to 'bar' ('py') is 16 bytes, parameter 'y' is 12 bytes"},
		{"array alignment", kernelWith(`{
	.param .align 4 .b8 py[12];
	call (%out), bar, (%x, py);
	}`), "alignment of argument 2 of call to 'bar' ('py', .align 4) does not match parameter 'y' (.align 8)"},
		{"array for scalar", kernelWith(`{
	.param .align 4 .b8 pa[4];
	call (%r1), sum, (pa, 1);
	}`), "argument 1 of call to 'sum' ('pa') is an array; parameter 'a' is a scalar"},
		// 7.1: "must have type and size that match"
		{"argument size", kernelWith(`call (%r1), inc_ptr, (%rd1, 4);`), "argument 1 of call to 'inc_ptr' ('%rd1') is 64 bits, parameter '%ptr' is 32 bits"},
		{"result size", kernelWith(`call (%rd1), inc_ptr, (%r1, 4);`), "result of call to 'inc_ptr' ('%rd1') is 64 bits, return parameter '%res' is 32 bits"},
		// 9.7.12.5: direct calls name a function; indirect calls a register
		// and a prototype or target list
		{"direct call with prototype", kernelWith(`Fp: .callprototype _ ;
	call init, Fp;`), "direct call to 'init' cannot name a prototype or call-target list ('Fp')"},
		{"indirect call without prototype", kernelWith(`call %rd1, (%r1);`), "indirect call through register '%rd1' needs a .callprototype or .calltargets operand"},
		{"call through a label", kernelWith(`L1:
	call %rd1, L1;`), "call through 'L1' which is not a .callprototype or .calltargets label"},
		{"call through a function", kernelWith(`call %rd1, init;`), "call through 'init' which is not a .callprototype or .calltargets label"},
		{"call through branchtargets", kernelWith(`L1:
	L2:
	Bt: .branchtargets L1, L2;
	call %rd1, Bt;`), "call through 'Bt' which is not a .callprototype or .calltargets label"},
		{"call a variable", kernelWith(`call gvar;`), "call target 'gvar' is a .global variable"},
		{"call a label", kernelWith(`L1:
	call L1;`), "call target 'L1' is a label, not a function"},
		{"call table in shared", kernelWith(`{
	.shared .u64 tbl[2];
	call %rd1, tbl;
	}`), "call table 'tbl' is a .shared variable"},
		// 11.3.3: the call operands are checked against the prototype
		{"prototype arity", kernelWith(`Fp: .callprototype (.param .b32 _) _ (.param .b32 _);
	call (%r1), %rd1, (%r2, %r3), Fp;`), "call through 'Fp': 2 arguments given, 'Fp' takes 1"},
		{"prototype results", kernelWith(`Fp: .callprototype _ (.param .b32 _);
	call (%r1), %rd1, (%r2), Fp;`), "call through 'Fp': 1 result given, 'Fp' has 0 return parameters"},
		{"calltargets arity", kernelWith(`Ft: .calltargets sum;
	call (%r1), %rd1, (%r2), Ft;`), "call through 'Ft': 1 argument given, 'Ft' takes 2"},
		// 11.3.2: .calltargets lists functions of one signature
		{"calltargets kernel", module("9.0", "sm_90", `
.entry kern ()
{
	ret;
}
.entry k ()
{
	Ft: .calltargets kern;
	ret;
}
`), "'kern' in .calltargets is a kernel (.entry), not a function"},
		{"calltargets label", kernelWith(`L1:
	Ft: .calltargets L1;`), "'L1' in .calltargets is a label, not a function"},
		{"calltargets signatures", kernelWith(`Ft: .calltargets sum, inc_ptr;`), "'inc_ptr' in .calltargets 'Ft' does not have the signature of 'sum'"},
		// 11.4.6, 11.2.2, 11.3.3: .noreturn excludes return parameters
		{"noreturn with result", module("9.0", "sm_90", `
.func (.param .b32 r) f () .noreturn;
`), ".noreturn cannot be specified on function 'f', which has return parameters"},
		{"noreturn prototype with result", kernelWith(`Fp: .callprototype (.param .b32 _) _ .noreturn;`), ".noreturn cannot be specified on .callprototype 'Fp'"},
		{"noreturn kernel", module("9.0", "sm_90", `
.entry k () .noreturn
{
	ret;
}
`), ".noreturn can only be specified on device functions"},
		// 11.2.1: kernels have no return parameters
		{"kernel result", module("9.0", "sm_90", `
.entry (.param .b32 r) k ()
{
	ret;
}
`), "kernel 'k' cannot have return parameters"},
		// 7.1.1: one return value from PTX 2.0 on sm_20
		{"two results on sm_20", module("2.3", "sm_20", `
.func (.reg .u32 a, .reg .u32 b) f ()
{
	ret;
}
`), "function 'f' has 2 return parameters; PTX ISA 2.0 and later on sm_20 and higher allow at most one"},
		// 7.1: declaration and definition agree
		{"definition differs", module("9.0", "sm_90", `
.func (.param .b32 r) f (.param .b32 a);
.func (.param .b32 r) f (.param .b64 a)
{
	ret;
}
`), "declaration of 'f' does not match its earlier declaration at t.ptx:5:1"},
		{"parameter count differs", module("9.0", "sm_90", `
.func f (.param .b32 a);
.func f (.param .b32 a, .param .b32 b);
`), "declaration of 'f' does not match its earlier declaration"},
		{"space differs", module("9.0", "sm_90", `
.func f (.param .b32 a);
.func f (.reg .b32 a);
`), "declaration of 'f' does not match its earlier declaration"},
		{"alignment differs", module("9.0", "sm_90", `
.func f (.param .align 8 .b8 a[16]);
.func f (.param .align 4 .b8 a[16]);
`), "declaration of 'f' does not match its earlier declaration"},
		{"array size differs", module("9.0", "sm_90", `
.func f (.param .align 8 .b8 a[16]);
.func f (.param .align 8 .b8 a[8]);
`), "declaration of 'f' does not match its earlier declaration"},
		{"entry then func", module("9.0", "sm_90", `
.entry f ();
.func f ();
`), "declaration of 'f' does not match its earlier declaration"},
		{"defined twice", module("9.0", "sm_90", `
.func f ()
{
	ret;
}
.func f ()
{
	ret;
}
`), "function 'f' is already defined at t.ptx:5:1"},
		// 11.2.3: .alias rules
		{"aliasee not defined", module("6.3", "sm_30", `
.func foo (.param .u32 p);
.func bar (.param .u32 p);
.alias bar, foo;
`), "'foo' in .alias must be defined in this module"},
		{"aliasee weak", module("6.3", "sm_30", `
.weak .func foo (.param .u32 p)
{
	ret;
}
.func bar (.param .u32 p);
.alias bar, foo;
`), "'foo' has .weak linkage and cannot be aliased"},
		{"aliasee kernel", module("6.3", "sm_30", `
.entry foo (.param .u32 p)
{
	ret;
}
.func bar (.param .u32 p);
.alias bar, foo;
`), "'foo' in .alias is a kernel (.entry)"},
		{"alias with body", module("6.3", "sm_30", `
.func foo (.param .u32 p)
{
	ret;
}
.func bar (.param .u32 p)
{
	ret;
}
.alias bar, foo;
`), "alias 'bar' is defined at t.ptx:9:1; an alias must be a function declaration without body"},
		{"alias prototype", module("6.3", "sm_30", `
.func foo (.param .u32 p)
{
	ret;
}
.func bar (.param .u64 p);
.alias bar, foo;
`), "prototype of alias 'bar' (at t.ptx:9:1) does not match 'foo'"},
		{"alias given twice", module("6.3", "sm_30", `
.func foo (.param .u32 p)
{
	ret;
}
.func bar (.param .u32 p);
.alias bar, foo;
.alias bar, foo;
`), "'bar' is already an alias of 'foo'"},
		{"alias arity at call", module("6.3", "sm_30", `
.func foo (.param .u32 p)
{
	ret;
}
.func bar (.param .u32 p);
.alias bar, foo;
.entry k ()
{
	call bar;
	ret;
}
`), "call to 'bar': 0 arguments given, 'bar' takes 1"},
	}
	for _, c := range cases {
		errs := errorsOf(checkSrc(t, c.src, Options{}))
		if !strings.Contains(strings.Join(errs, "\n"), c.want) {
			t.Errorf("%s: got %q, want %q", c.name, errs, c.want)
		}
		// one mistake, one message
		if len(errs) > 1 {
			t.Errorf("%s: %d errors: %q", c.name, len(errs), errs)
		}
	}
}

// TestCallsWarnings: what the manual requires but ptxas may not enforce is
// a warning, not an error.
func TestCallsWarnings(t *testing.T) {
	cases := []struct{ name, src, want string }{
		// 7.1: "A function must be declared or defined prior to being called."
		{"call before declaration", module("9.0", "sm_90", `
.entry k ()
{
	call later;
	ret;
}
.func later ()
{
	ret;
}
`), "'later' is called before its declaration"},
		// 11.2.3: "Identifier fAlias is a function declaration without body."
		{"alias without prototype", module("6.3", "sm_30", `
.func foo (.param .u32 p)
{
	ret;
}
.alias bar, foo;
`), "alias 'bar' has no prototype"},
	}
	for _, c := range cases {
		ds := checkSrc(t, c.src, Options{})
		if errs := errorsOf(ds); len(errs) > 0 {
			t.Errorf("%s: unexpected errors %q", c.name, errs)
		}
		if w := strings.Join(warningsOf(ds), "\n"); !strings.Contains(w, c.want) {
			t.Errorf("%s: got warnings %q, want %q", c.name, w, c.want)
		}
	}
}
