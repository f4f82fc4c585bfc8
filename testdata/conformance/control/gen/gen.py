"""Control-flow conformance cases (PTX ISA 9.0: 9.7.12 control flow, 7 functions/ABI, 9.7.13.1
bar, 9.7.17 stack, 10 special registers). Run: python3 -B gen.py (from gen/)."""
from casegen import case, out, inp, ptr, sx, INDEX

H = ".version 8.0\n.target sm_90\n.address_size 64\n"
M32 = 0xffffffff

# every kernel: out[linear tid (+ CTA offset)] = value, via this prologue (uses %rd30, %r30)
PRO = r"""	ld.param.u64 %rd30, [out];
	cvta.to.global.u64 %rd30, %rd30;
	mov.u32 %r30, %tid.x;
	mul.wide.u32 %rd31, %r30, 4;
	add.u64 %rd30, %rd30, %rd31;
"""

# ------------------------------------------------------------ divergence
# 9.7.12.3 bra: "if (p) pc = target"; threads of a warp take different paths and all
# continue after the construct (9.5).  64 threads = two warps.
def div_ref(t):
    a = t * 3 if t & 1 else t + 1000
    if t < 16:
        b = 1 if t % 4 == 0 else 2
    else:
        b = 3 if t >= 48 else 4
    s = sum(i * i + 1 for i in range(t % 9))
    return [a, b, s, (a + b + s) & M32]
dexp = [div_ref(t) for t in range(64)]
case("divergence", "bra: if/else, nested if/else, loop with a lane-dependent trip count (0..8), bra.uni, values live across reconvergence; 2 warps (9.7.12.3, 9.5)", H + r"""
.visible .entry divergence(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<32>;
	.reg .b64 %rd<32>;
""" + PRO + r"""
	// if/else
	and.b32 %r1, %r30, 1;
	setp.eq.u32 %p0, %r1, 0;
	@%p0 bra EVEN;
	mul.lo.u32 %r2, %r30, 3;
	bra.uni ENDIF1;
EVEN:
	add.u32 %r2, %r30, 1000;
ENDIF1:
	// nested
	setp.lt.u32 %p1, %r30, 16;
	@!%p1 bra HIGH;
	and.b32 %r3, %r30, 3;
	setp.eq.u32 %p2, %r3, 0;
	@%p2 bra LOW0;
	mov.u32 %r4, 2;
	bra ENDIF2;
LOW0:
	mov.u32 %r4, 1;
	bra ENDIF2;
HIGH:
	setp.ge.u32 %p2, %r30, 48;
	selp.u32 %r4, 3, 4, %p2;
	@%p2 bra ENDIF2;
	mov.u32 %r4, 4;
ENDIF2:
	// loop: s = sum_{i < tid%9} (i*i + 1)
	rem.u32 %r5, %r30, 9;
	mov.u32 %r6, 0;
	mov.u32 %r7, 0;
LOOP:
	setp.ge.u32 %p3, %r6, %r5;
	@%p3 bra DONE;
	mad.lo.u32 %r8, %r6, %r6, 1;
	add.u32 %r7, %r7, %r8;
	add.u32 %r6, %r6, 1;
	bra LOOP;
DONE:
	mul.wide.u32 %rd1, %r30, 12;
	add.u64 %rd2, %rd30, %rd1;
	st.global.u32 [%rd2], %r2;
	st.global.u32 [%rd2+4], %r4;
	st.global.u32 [%rd2+8], %r7;
	add.u32 %r9, %r2, %r4;
	add.u32 %r9, %r9, %r7;
	st.global.u32 [%rd2+12], %r9;
	ret;
}
""", block=(64, 1, 1), params=[ptr("out")], buffers=[out("out", "u32", [v for t in dexp for v in t])])

# ------------------------------------------------------------ brx.idx
# 9.7.12.4: pc = tlist[index]; guard predicate false -> fall through.
def brx_ref(t):
    if t % 5 == 4:          # guard false: falls through to the default value
        return 99
    return [10, 20, 30, 40][t % 4]
case("brx_idx", "brx.idx with a 4-entry .branchtargets table, divergent index per lane, guarded (@p) so some lanes fall through (9.7.12.4)", H + r"""
.visible .entry brx_idx(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<32>;
	.reg .b64 %rd<32>;
""" + PRO + r"""
	and.b32 %r1, %r30, 3;
	rem.u32 %r2, %r30, 5;
	setp.ne.u32 %p0, %r2, 4;
	mov.u32 %r3, 99;
	ts: .branchtargets T0, T1, T2, T3;
	@%p0 brx.idx %r1, ts;
	bra END;
T0:
	mov.u32 %r3, 10;
	bra END;
T1:
	mov.u32 %r3, 20;
	bra END;
T2:
	mov.u32 %r3, 30;
	bra END;
T3:
	mov.u32 %r3, 40;
END:
	st.global.u32 [%rd30], %r3;
	ret;
}
""", block=(40, 1, 1), params=[ptr("out")], buffers=[out("out", "u32", [brx_ref(t) for t in range(40)])])

# ------------------------------------------------------------ direct calls
# 7.1/9.7.12.5: .param arguments are passed by value; the callee reads them with ld.param and
# writes its return parameter with st.param; the caller reads it after the call.
def call_ref(t):
    a, b, c = t, t * 7 + 1, 1000 - t
    arr = [t + 1, t + 2, t + 3, t + 4]
    return [(a + 2 * b + 3 * c) & M32, sum(arr) & M32, (t * 0x100000001 + 5) & M32,
            ((t * 0x100000001 + 5) >> 32) & M32, (arr[0] * arr[3]) & M32, (arr[1] - arr[2]) & M32,
            (t + 42) & M32]
case("call_param", "direct call with .param scalar arguments and result, by-value .align 16/.align 8 .b8[16] array arguments (v4 and scalar access), an aggregate (.b8[8]) result, a .u64 argument/result, a function with no result, nested calls (7.1, 9.7.12.5)", H + r"""
.func (.param .u32 r) lin3(.param .u32 a, .param .u32 b, .param .u32 c)
{
	.reg .b32 %r<8>;
	ld.param.u32 %r0, [a];
	ld.param.u32 %r1, [b];
	ld.param.u32 %r2, [c];
	mad.lo.u32 %r3, %r1, 2, %r0;
	mad.lo.u32 %r3, %r2, 3, %r3;
	st.param.u32 [r], %r3;
	ret;
}

.func (.param .u32 r) sum4(.param .align 16 .b8 arr[16])
{
	.reg .b32 %r<8>;
	ld.param.v4.u32 {%r0, %r1, %r2, %r3}, [arr];
	add.u32 %r4, %r0, %r1;
	add.u32 %r4, %r4, %r2;
	add.u32 %r4, %r4, %r3;
	st.param.u32 [r], %r4;
	ret;
}

.func (.param .align 4 .b8 res[8]) pair(.param .align 8 .b8 arr[16])
{
	.reg .b32 %r<8>;
	ld.param.u32 %r0, [arr];
	ld.param.u32 %r1, [arr+4];
	ld.param.u32 %r2, [arr+8];
	ld.param.u32 %r3, [arr+12];
	mul.lo.u32 %r4, %r0, %r3;
	sub.u32 %r5, %r1, %r2;
	st.param.u32 [res], %r4;
	st.param.u32 [res+4], %r5;
	ret;
}

.func (.param .u64 r) add5(.param .u64 x)
{
	.reg .b64 %rd<2>;
	ld.param.u64 %rd0, [x];
	add.u64 %rd1, %rd0, 5;
	st.param.u64 [r], %rd1;
	ret;
}

.func (.param .u32 r) plus42(.param .u32 x)
{
	.reg .b32 %r<4>;
	ld.param.u32 %r0, [x];
	{
	.param .u32 a;
	.param .u32 b;
	.param .u32 c;
	.param .u32 rr;
	st.param.u32 [a], %r0;
	mov.u32 %r2, 21;
	mov.u32 %r3, 0;
	st.param.u32 [b], %r2;
	st.param.u32 [c], %r3;
	call.uni (rr), lin3, (a, b, c);
	ld.param.u32 %r1, [rr];
	}
	st.param.u32 [r], %r1;
	ret;
}

.func store7(.param .u64 p, .param .u32 v)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd0, [p];
	ld.param.u32 %r0, [v];
	st.global.u32 [%rd0+24], %r0;
	ret;
}

.visible .entry call_param(.param .u64 out)
{
	.reg .b32 %r<32>;
	.reg .b64 %rd<32>;
	ld.param.u64 %rd30, [out];
	cvta.to.global.u64 %rd30, %rd30;
	mov.u32 %r30, %tid.x;
	mul.wide.u32 %rd31, %r30, 28;
	add.u64 %rd30, %rd30, %rd31;
	mad.lo.u32 %r1, %r30, 7, 1;
	sub.u32 %r2, 1000, %r30;
	{
	.param .u32 a;
	.param .u32 b;
	.param .u32 c;
	.param .u32 rr;
	st.param.u32 [a], %r30;
	st.param.u32 [b], %r1;
	st.param.u32 [c], %r2;
	call (rr), lin3, (a, b, c);
	ld.param.u32 %r3, [rr];
	}
	st.global.u32 [%rd30], %r3;
	add.u32 %r4, %r30, 1;
	add.u32 %r5, %r30, 2;
	add.u32 %r6, %r30, 3;
	add.u32 %r7, %r30, 4;
	{
	.param .align 16 .b8 arr[16];
	.param .u32 rr;
	st.param.v4.u32 [arr], {%r4, %r5, %r6, %r7};
	call (rr), sum4, (arr);
	ld.param.u32 %r8, [rr];
	}
	st.global.u32 [%rd30+4], %r8;
	{
	.param .align 8 .b8 arr[16];
	.param .align 4 .b8 res[8];
	st.param.u32 [arr], %r4;
	st.param.u32 [arr+4], %r5;
	st.param.u32 [arr+8], %r6;
	st.param.u32 [arr+12], %r7;
	call (res), pair, (arr);
	ld.param.u32 %r9, [res];
	ld.param.u32 %r10, [res+4];
	}
	st.global.u32 [%rd30+16], %r9;
	st.global.u32 [%rd30+20], %r10;
	cvt.u64.u32 %rd1, %r30;
	mul.lo.u64 %rd1, %rd1, 0x100000001;
	{
	.param .u64 x;
	.param .u64 rr;
	st.param.u64 [x], %rd1;
	call (rr), add5, (x);
	ld.param.u64 %rd2, [rr];
	}
	st.global.u32 [%rd30+8], %rd2;
	shr.u64 %rd3, %rd2, 32;
	st.global.u32 [%rd30+12], %rd3;
	{
	.param .u32 x;
	.param .u32 rr;
	st.param.u32 [x], %r30;
	call (rr), plus42, (x);
	ld.param.u32 %r11, [rr];
	}
	{
	.param .u64 p;
	.param .u32 v;
	st.param.u64 [p], %rd30;
	st.param.u32 [v], %r11;
	call store7, (p, v);
	}
	ret;
}
""", block=(32, 1, 1), params=[ptr("out")], buffers=[out("out", "u32", [v for t in range(32) for v in call_ref(t)])])

# ------------------------------------------------------------ .reg params
def reg_ref(t):
    x = (t * 0x10000000001 + 3) & ((1 << 64) - 1)
    return [(t * t + 9) & M32, x & M32, x >> 32, (t % 2) ^ 1]
case("reg_params", "functions with .reg parameters and results (.u32, .u64) called with registers and immediates (7.1, 9.7.12.5)", H + r"""
.func (.reg .u32 r) sqp(.reg .u32 a, .reg .u32 b)
{
	mad.lo.u32 r, a, a, b;
	ret;
}

.func (.reg .u64 r) lin64(.reg .u64 a, .reg .u64 m)
{
	mad.lo.u64 r, a, m, 3;
	ret;
}

.func (.reg .u32 q) iseven(.reg .u32 a)
{
	.reg .b32 %t;
	.reg .pred %pp;
	and.b32 %t, a, 1;
	setp.eq.u32 %pp, %t, 0;
	selp.u32 q, 1, 0, %pp;
	ret;
}

.visible .entry reg_params(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<32>;
	.reg .b64 %rd<32>;
	ld.param.u64 %rd30, [out];
	cvta.to.global.u64 %rd30, %rd30;
	mov.u32 %r30, %tid.x;
	mul.wide.u32 %rd31, %r30, 16;
	add.u64 %rd30, %rd30, %rd31;
	call (%r1), sqp, (%r30, 9);
	st.global.u32 [%rd30], %r1;
	cvt.u64.u32 %rd1, %r30;
	mov.u64 %rd2, 0x10000000001;
	call (%rd3), lin64, (%rd1, %rd2);
	st.global.u32 [%rd30+4], %rd3;
	shr.u64 %rd4, %rd3, 32;
	st.global.u32 [%rd30+8], %rd4;
	mov.u32 %r2, 0;
	call (%r3), iseven, (%r30);
	setp.ne.u32 %p0, %r3, 0;
	@%p0 mov.u32 %r2, 1;
	st.global.u32 [%rd30+12], %r2;
	ret;
}
""", block=(32, 1, 1), params=[ptr("out")], buffers=[out("out", "u32", [v for t in range(32) for v in reg_ref(t)])])

# ------------------------------------------------------------ recursion
# 7 (ABI): functions may call themselves; each activation has its own .param and .reg state.
import math
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
case("recursion", "recursive functions: factorial (.u64, n = 0..20 with .param args) and doubly recursive fibonacci (.reg args, n = 0..12) per lane, divergent depths (9.7.12.5)", H + r"""
.func (.param .u64 r) fact(.param .u32 n)
{
	.reg .pred %p;
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u32 %r0, [n];
	setp.eq.u32 %p, %r0, 0;
	@%p bra BASE;
	sub.u32 %r1, %r0, 1;
	{
	.param .u32 nn;
	.param .u64 rr;
	st.param.u32 [nn], %r1;
	call (rr), fact, (nn);
	ld.param.u64 %rd0, [rr];
	}
	cvt.u64.u32 %rd1, %r0;
	mul.lo.u64 %rd2, %rd0, %rd1;
	st.param.u64 [r], %rd2;
	ret;
BASE:
	mov.u64 %rd2, 1;
	st.param.u64 [r], %rd2;
	ret;
}

.func (.reg .u32 r) fib(.reg .u32 n)
{
	.reg .pred %p;
	.reg .b32 %a, %b, %m;
	setp.lt.u32 %p, n, 2;
	@%p mov.u32 r, n;
	@%p ret;
	sub.u32 %m, n, 1;
	call (%a), fib, (%m);
	sub.u32 %m, n, 2;
	call (%b), fib, (%m);
	add.u32 r, %a, %b;
	ret;
}

.visible .entry recursion(.param .u64 out)
{
	.reg .b32 %r<32>;
	.reg .b64 %rd<32>;
	ld.param.u64 %rd30, [out];
	cvta.to.global.u64 %rd30, %rd30;
	mov.u32 %r30, %tid.x;
	mul.wide.u32 %rd31, %r30, 16;
	add.u64 %rd30, %rd30, %rd31;
	{
	.param .u32 nn;
	.param .u64 rr;
	st.param.u32 [nn], %r30;
	call (rr), fact, (nn);
	ld.param.u64 %rd1, [rr];
	}
	st.global.u64 [%rd30], %rd1;
	rem.u32 %r1, %r30, 13;
	call (%r2), fib, (%r1);
	st.global.u32 [%rd30+8], %r2;
	ret;
}
""", block=(21, 1, 1), params=[ptr("out")],
     buffers=[out("out", "u32", [v for t in range(21) for v in
                                 (math.factorial(t) & M32, math.factorial(t) >> 32, fib(t % 13), 0)])])

# ------------------------------------------------------------ indirect calls
# 9.7.12.5: call through a register holding a function address (mov.u64 r, func), with a
# .callprototype, with a .calltargets list, and through a call table in a .global initializer
# (5.4.4: function names in initializers are their addresses).  Divergent targets per lane.
def ind_ref(t):
    f = [lambda x: x + 1, lambda x: x * 2, lambda x: x ^ 0xff]
    return [f[t % 3](t) & M32, f[(t + 1) % 3](t + 100) & M32, f[(t // 2) % 3](t * 3) & M32]
case("indirect_call", "indirect calls: function address via mov, .callprototype (param and .reg forms), .calltargets, and a function-pointer table in a .global initializer; targets differ per lane (9.7.12.5, 5.4.4)", H + r"""
.func (.param .u32 r) f0(.param .u32 x)
{
	.reg .b32 %a;
	ld.param.u32 %a, [x];
	add.u32 %a, %a, 1;
	st.param.u32 [r], %a;
	ret;
}
.func (.param .u32 r) f1(.param .u32 x)
{
	.reg .b32 %a;
	ld.param.u32 %a, [x];
	shl.b32 %a, %a, 1;
	st.param.u32 [r], %a;
	ret;
}
.func (.param .u32 r) f2(.param .u32 x)
{
	.reg .b32 %a;
	ld.param.u32 %a, [x];
	xor.b32 %a, %a, 0xff;
	st.param.u32 [r], %a;
	ret;
}

.global .align 8 .u64 ftab[3] = {f0, f1, f2};

.visible .entry indirect_call(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<32>;
	.reg .b64 %rd<32>;
	ld.param.u64 %rd30, [out];
	cvta.to.global.u64 %rd30, %rd30;
	mov.u32 %r30, %tid.x;
	mul.wide.u32 %rd31, %r30, 12;
	add.u64 %rd30, %rd30, %rd31;
	// 1: mov of function names, selected per lane, .callprototype
	rem.u32 %r1, %r30, 3;
	setp.eq.u32 %p0, %r1, 0;
	setp.eq.u32 %p1, %r1, 1;
	mov.u64 %rd1, f2;
	@%p0 mov.u64 %rd1, f0;
	@%p1 mov.u64 %rd1, f1;
	{
	.param .u32 x;
	.param .u32 rr;
	proto: .callprototype (.param .u32 _) _ (.param .u32 _);
	st.param.u32 [x], %r30;
	call (rr), %rd1, (x), proto;
	ld.param.u32 %r2, [rr];
	}
	st.global.u32 [%rd30], %r2;
	// 2: .calltargets
	add.u32 %r3, %r30, 1;
	rem.u32 %r3, %r3, 3;
	setp.eq.u32 %p0, %r3, 0;
	setp.eq.u32 %p1, %r3, 1;
	mov.u64 %rd2, f2;
	@%p0 mov.u64 %rd2, f0;
	@%p1 mov.u64 %rd2, f1;
	add.u32 %r4, %r30, 100;
	{
	.param .u32 x;
	.param .u32 rr;
	tgts: .calltargets f0, f1, f2;
	st.param.u32 [x], %r4;
	call (rr), %rd2, (x), tgts;
	ld.param.u32 %r5, [rr];
	}
	st.global.u32 [%rd30+4], %r5;
	// 3: table in .global
	shr.u32 %r6, %r30, 1;
	rem.u32 %r6, %r6, 3;
	mul.wide.u32 %rd3, %r6, 8;
	mov.u64 %rd4, ftab;
	add.u64 %rd4, %rd4, %rd3;
	ld.global.u64 %rd5, [%rd4];
	mul.lo.u32 %r7, %r30, 3;
	{
	.param .u32 x;
	.param .u32 rr;
	st.param.u32 [x], %r7;
	call (rr), %rd5, (x), ftab;
	ld.param.u32 %r8, [rr];
	}
	st.global.u32 [%rd30+8], %r8;
	ret;
}
""", block=(32, 1, 1), params=[ptr("out")], buffers=[out("out", "u32", [v for t in range(32) for v in ind_ref(t)])])

# ------------------------------------------------------------ ret / exit
# 9.7.12.6 ret: divergent returns from nested blocks; ret in an entry terminates the thread.
# 9.7.12.7 exit: ends the thread (also from inside a called function).  Output slots of
# threads that ended early keep their initial value 0xdddddddd.
D = 0xdddddddd
def clamp_ref(x):
    if x < 10:
        if x % 2 == 0:
            return 1
        return 2
    if x > 20:
        return 3
    return x * 10
def rx_ref(t):
    c = clamp_ref(t)
    if t % 4 == 3:        # exit in the kernel before any store
        return [D, D, D]
    if t % 4 == 1:        # ret from the kernel after the first store
        return [c, D, D]
    if t % 8 == 2:        # exit inside a called function after its store
        return [c, 0x100 + t, D]
    return [c, 0x100 + t, 0x200 + t]
exp = [v for t in range(32) for v in rx_ref(t)]
case("ret_exit", "ret from nested blocks of a function (divergent), ret in the kernel on some lanes, exit in a divergent path, exit inside a called function (9.7.12.6, 9.7.12.7)", H + r"""
.func (.reg .u32 r) clampf(.reg .u32 x)
{
	.reg .pred %p<3>;
	.reg .b32 %t;
	setp.lt.u32 %p0, x, 10;
	@!%p0 bra BIG;
	{
		and.b32 %t, x, 1;
		setp.eq.u32 %p1, %t, 0;
		@!%p1 bra ODD;
		{
			mov.u32 r, 1;
			ret;
		}
ODD:
		mov.u32 r, 2;
		ret;
	}
BIG:
	setp.gt.u32 %p2, x, 20;
	@%p2 mov.u32 r, 3;
	@%p2 ret;
	mul.lo.u32 r, x, 10;
	ret;
}

.func maybe_exit(.reg .u64 p, .reg .u32 x)
{
	.reg .pred %q;
	.reg .b32 %t;
	add.u32 %t, x, 0x100;
	st.global.u32 [p+4], %t;
	and.b32 %t, x, 7;
	setp.eq.u32 %q, %t, 2;
	@%q exit;
	ret;
}

.visible .entry ret_exit(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<32>;
	.reg .b64 %rd<32>;
	ld.param.u64 %rd30, [out];
	cvta.to.global.u64 %rd30, %rd30;
	mov.u32 %r30, %tid.x;
	mul.wide.u32 %rd31, %r30, 12;
	add.u64 %rd30, %rd30, %rd31;
	and.b32 %r1, %r30, 3;
	setp.eq.u32 %p0, %r1, 3;
	@%p0 bra EARLY;
	call (%r2), clampf, (%r30);
	st.global.u32 [%rd30], %r2;
	setp.eq.u32 %p1, %r1, 1;
	@%p1 ret;
	call maybe_exit, (%rd30, %r30);
	add.u32 %r3, %r30, 0x200;
	st.global.u32 [%rd30+8], %r3;
	ret;
EARLY:
	exit;
}
""", block=(32, 1, 1), params=[ptr("out")],
     buffers=[{"name": "out", "type": "u32", "count": 96, "init": ["0x%08x" % D] * 96,
               "expected": ["0x%08x" % v for v in exp], "compare": {"mode": "bits"}}])

# ------------------------------------------------------------ barriers
# 9.7.13.1 bar.sync 0: waits for all threads of the CTA; shared-memory writes before the
# barrier are visible after it.  9.7.12.7 exit: "If the exiting threads are holding up the
# barrier, the barrier is released."
N = 128
bexp = [sum(range(N)) + t for t in range(N)]
case("barrier_all", "bar.sync 0 with all 128 threads (4 warps): every thread sums all threads' shared-memory values after the barrier, then a second phase after a second barrier (9.7.13.1)", H + r"""
.visible .entry barrier_all(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<32>;
	.reg .b64 %rd<32>;
	.shared .align 4 .u32 sv[128];
""" + PRO + r"""
	mov.u64 %rd1, sv;
	mul.wide.u32 %rd2, %r30, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.shared.u32 [%rd3], %r30;
	bar.sync 0;
	mov.u32 %r1, 0;
	mov.u32 %r2, 0;
L:
	mul.wide.u32 %rd4, %r1, 4;
	add.u64 %rd5, %rd1, %rd4;
	ld.shared.u32 %r3, [%rd5];
	add.u32 %r2, %r2, %r3;
	add.u32 %r1, %r1, 1;
	setp.lt.u32 %p0, %r1, 128;
	@%p0 bra L;
	bar.sync 0;
	add.u32 %r4, %r2, %r30;
	st.shared.u32 [%rd3], %r4;
	bar.sync 0;
	ld.shared.u32 %r5, [%rd3];
	st.global.u32 [%rd30], %r5;
	ret;
}
""", block=(N, 1, 1), params=[ptr("out")], buffers=[out("out", "u32", bexp)])

# threads >= 80 exit (a whole warp and half of another); the rest barrier twice and read
# neighbours' values.
def bx_ref(t):
    if t >= 80:
        return D
    return (t + 1) % 80 * 2 + 1
case("barrier_after_exit", "bar.sync 0 after 48 of 128 threads exited (one whole warp and half of another): the barrier is released by the remaining threads (9.7.12.7, 9.7.13.1)", H + r"""
.visible .entry barrier_after_exit(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<32>;
	.reg .b64 %rd<32>;
	.shared .align 4 .u32 sv[128];
""" + PRO + r"""
	setp.ge.u32 %p0, %r30, 80;
	@%p0 exit;
	mad.lo.u32 %r1, %r30, 2, 1;
	mov.u64 %rd1, sv;
	mul.wide.u32 %rd2, %r30, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.shared.u32 [%rd3], %r1;
	bar.sync 0;
	add.u32 %r2, %r30, 1;
	rem.u32 %r2, %r2, 80;
	mul.wide.u32 %rd4, %r2, 4;
	add.u64 %rd5, %rd1, %rd4;
	ld.shared.u32 %r3, [%rd5];
	bar.sync 0;
	st.global.u32 [%rd30], %r3;
	ret;
}
""", block=(N, 1, 1), params=[ptr("out")],
     buffers=[{"name": "out", "type": "u32", "count": N, "init": ["0x%08x" % D] * N,
               "expected": ["0x%08x" % bx_ref(t) for t in range(N)], "compare": {"mode": "bits"}}])

# ------------------------------------------------------------ special registers
# 10.x: %tid, %ntid, %ctaid, %nctaid (3D), %laneid (lane within the warp), %lanemask_eq/lt/le/
# gt/ge (bit laneid; bits below; below and at; above; at and above), %warpid < %nwarpid.
# The manual does not say which threads form a warp; the suite uses CUDA's rule (consecutive
# linear thread ids x + y*ntid.x + z*ntid.x*ntid.y, 32 to a warp), so laneid = linear % 32.
G, B = (2, 3, 2), (8, 4, 2)
NT = B[0] * B[1] * B[2]
sexp = []
for cz in range(G[2]):
    for cy in range(G[1]):
        for cx in range(G[0]):
            for z in range(B[2]):
                for y in range(B[1]):
                    for x in range(B[0]):
                        lin = x + y * B[0] + z * B[0] * B[1]
                        l = lin % 32
                        sexp.append([x, y, z, B[0], B[1], B[2], cx, cy, cz, G[0], G[1], G[2], l,
                                     1 << l, (1 << l) - 1, (1 << (l + 1)) - 1,
                                     (M32 << (l + 1)) & M32, (M32 << l) & M32, 1, NT])
# output slot: linear CTA * NT + linear thread, 20 words each
SR = ["%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z", "%ctaid.x", "%ctaid.y",
      "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z", "%laneid", "%lanemask_eq",
      "%lanemask_lt", "%lanemask_le", "%lanemask_gt", "%lanemask_ge"]
body = "".join("\tmov.u32 %%r20, %s;\n\tst.global.u32 [%%rd5+%d], %%r20;\n" % (s, 4 * i) for i, s in enumerate(SR))
case("special_registers", "%tid/%ntid/%ctaid/%nctaid .x/.y/.z with grid (2,3,2) and block (8,4,2), %laneid, %lanemask_eq/lt/le/gt/ge, %warpid < %nwarpid (10.1-10.5, 10.12-10.13, 10.17-10.21)", H + r"""
.visible .entry special_registers(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<32>;
	.reg .b64 %rd<32>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	// linear CTA id and linear thread id
	mov.u32 %r1, %ctaid.z;
	mov.u32 %r2, %nctaid.y;
	mov.u32 %r3, %ctaid.y;
	mad.lo.u32 %r4, %r1, %r2, %r3;
	mov.u32 %r2, %nctaid.x;
	mov.u32 %r3, %ctaid.x;
	mad.lo.u32 %r4, %r4, %r2, %r3;
	mov.u32 %r1, %tid.z;
	mov.u32 %r2, %ntid.y;
	mov.u32 %r3, %tid.y;
	mad.lo.u32 %r5, %r1, %r2, %r3;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.u32 %r5, %r5, %r2, %r3;
	mov.u32 %r6, %ntid.x;
	mov.u32 %r7, %ntid.y;
	mul.lo.u32 %r6, %r6, %r7;
	mov.u32 %r7, %ntid.z;
	mul.lo.u32 %r6, %r6, %r7;
	mad.lo.u32 %r8, %r4, %r6, %r5;
	mul.wide.u32 %rd4, %r8, 80;
	add.u64 %rd5, %rd1, %rd4;
""" + body + r"""
	mov.u32 %r9, %warpid;
	mov.u32 %r10, %nwarpid;
	setp.lt.u32 %p0, %r9, %r10;
	selp.u32 %r11, 1, 0, %p0;
	st.global.u32 [%rd5+72], %r11;
	st.global.u32 [%rd5+76], %r6;
	ret;
}
""", grid=G, block=B, params=[ptr("out")], buffers=[out("out", "u32", [v for t in sexp for v in t])])

# ------------------------------------------------------------ alloca
# 9.7.17: alloca returns the new stack pointer (the stack grows down: a later allocation is at a
# lower address), aligned to max(immAlign, 8); stacksave reads the stack pointer; stackrestore
# sets it; allocations of a called function are released when it returns (so the stack pointer
# after the call equals the one before).  The memory is .local.
def al_ref(t):
    n = t % 8 + 1
    return [sum(k * t + 1 for k in range(n)) & M32, 1, 1, 1, 1, 1, (t * 5 + 7) & M32, 1]

ALLOCA_SRC = None
ALLOCA_PTX = ".version 7.3\n.target sm_52\n.address_size 64\n" + r"""
.func (.reg .u32 r) inner(.reg .u32 x)
{
	.reg .b64 %q<2>;
	alloca.u64 %q0, 32, 16;
	st.local.u32 [%q0+12], x;
	ld.local.u32 %q1, [%q0+12];
	cvt.u32.u64 r, %q1;
	mad.lo.u32 r, r, 5, 7;
	ret;
}

.visible .entry alloca(.param .u64 out, .param .u64 lay)
{
	.reg .pred %p<4>;
	.reg .b32 %r<32>;
	.reg .b64 %rd<32>;
	ld.param.u64 %rd30, [out];
	cvta.to.global.u64 %rd30, %rd30;
	mov.u32 %r30, %tid.x;
	mul.wide.u32 %rd31, %r30, 32;
	add.u64 %rd30, %rd30, %rd31;
	ld.param.u64 %rd29, [lay];
	cvta.to.global.u64 %rd29, %rd29;
	mul.wide.u32 %rd28, %r30, 8;
	add.u64 %rd29, %rd29, %rd28;
	stacksave.u64 %rd1;
	// n = tid%8 + 1 words: a[k] = k*tid + 1
	rem.u32 %r1, %r30, 8;
	add.u32 %r1, %r1, 1;
	mul.wide.u32 %rd2, %r1, 4;
	alloca.u64 %rd3, %rd2;
	mov.u32 %r2, 0;
L1:
	mad.lo.u32 %r3, %r2, %r30, 1;
	mul.wide.u32 %rd4, %r2, 4;
	add.u64 %rd5, %rd3, %rd4;
	st.local.u32 [%rd5], %r3;
	add.u32 %r2, %r2, 1;
	setp.lt.u32 %p0, %r2, %r1;
	@%p0 bra L1;
	mov.u32 %r2, 0;
	mov.u32 %r4, 0;
L2:
	mul.wide.u32 %rd4, %r2, 4;
	add.u64 %rd5, %rd3, %rd4;
	ld.local.u32 %r3, [%rd5];
	add.u32 %r4, %r4, %r3;
	add.u32 %r2, %r2, 1;
	setp.lt.u32 %p0, %r2, %r1;
	@%p0 bra L2;
	st.global.u32 [%rd30], %r4;
	// stacksave after alloca == ptr
	stacksave.u64 %rd6;
	setp.eq.u64 %p1, %rd6, %rd3;
	selp.u32 %r5, 1, 0, %p1;
	st.global.u32 [%rd29], %r5;
	mov.u32 %r5, 1;
	st.global.u32 [%rd30+4], %r5;
	// a second, 64-byte aligned allocation is below the first and aligned
	mov.u64 %rd7, 40;
	alloca.u64 %rd8, %rd7, 64;
	setp.lt.u64 %p1, %rd8, %rd3;
	selp.u32 %r5, 1, 0, %p1;
	st.global.u32 [%rd29+4], %r5;
	mov.u32 %r5, 1;
	st.global.u32 [%rd30+8], %r5;
	and.b64 %rd9, %rd8, 63;
	setp.eq.u64 %p1, %rd9, 0;
	selp.u32 %r5, 1, 0, %p1;
	st.global.u32 [%rd30+12], %r5;
	// the first allocation is intact
	ld.local.u32 %r6, [%rd3];
	setp.eq.u32 %p1, %r6, 1;
	selp.u32 %r5, 1, 0, %p1;
	st.global.u32 [%rd30+16], %r5;
	// stackrestore: stacksave gives the saved value again
	stackrestore.u64 %rd1;
	stacksave.u64 %rd10;
	setp.eq.u64 %p1, %rd10, %rd1;
	selp.u32 %r5, 1, 0, %p1;
	st.global.u32 [%rd30+20], %r5;
	// a call that allocates: result, and the stack pointer is unchanged afterwards
	call (%r7), inner, (%r30);
	st.global.u32 [%rd30+24], %r7;
	stacksave.u64 %rd11;
	setp.eq.u64 %p1, %rd11, %rd1;
	selp.u32 %r5, 1, 0, %p1;
	st.global.u32 [%rd30+28], %r5;
	ret;
}
"""
lay = [1, 1] * 32   # per lane: stacksave after alloca == ptr; second alloca below the first
case("alloca", "alloca (register size, default and 64-byte alignment) with ld/st.local, stacksave/stackrestore, allocation in a called function released on return (9.7.17); words 1-2 are placeholders, the stack layout is checked by alloca_layout", ALLOCA_PTX,
     block=(32, 1, 1), params=[ptr("out"), ptr("lay")],
     buffers=[out("out", "u32", [v for t in range(32) for v in al_ref(t)]), {"name": "lay", "type": "u32", "count": 64}])
case("alloca_layout", "alloca's stack layout from 9.7.17.3 Semantics: after alloca, stacksave == ptr (\"stacksave ptr\"), and a later alloca returns a lower address (\"the stack grows down\"); same kernel as alloca", ALLOCA_PTX, kernel="alloca",
     block=(32, 1, 1), params=[ptr("out"), ptr("lay")],
     buffers=[{"name": "out", "type": "u32", "count": 256}, out("lay", "u32", lay)])

rows = "\n".join("| %s | %s |" % r for r in INDEX)
with open("../README.md", "w") as f:
    f.write(open("README.template.md").read().replace("{{CASES}}", rows))
