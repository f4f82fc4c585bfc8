"""atom/red, named barriers, fault cases."""
import struct
from casegen import Kernel, SENT, SIZE
from model import *


def h(x):
    return (x * 0x9e3779b1) & M32


def h64(x):
    return (x * 0x9e3779b97f4a7c15 + 0x1234) & M64


def f16(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def bf16(x):
    b = f32(x)
    assert b & 0xffff == 0, x  # exactly representable
    return b >> 16


# ---------------------------------------------------------------- shared-memory staging helpers
def copy_loop(k, lbl, sym, buf, n, size, to_shared):
    """threads tid, tid+B, ... copy words between global buffer %b_buf and shared array sym"""
    t = {2: "u16", 4: "u32", 8: "u64"}[size]
    r = "%h30" if size == 2 else "%r90" if size == 4 else "%rd50"
    ld, st = ("ld.global", "st.shared") if to_shared else ("ld.shared", "st.global")
    a, b = ("%rd52", "%rd53") if to_shared else ("%rd53", "%rd52")
    return r"""	mov.u32 %r91, %tx;
{l}:
	setp.ge.u32 %p30, %r91, {n};
	@%p30 bra {l}_END;
	mul.wide.u32 %rd51, %r91, {s};
	add.u64 %rd52, %b_{buf}, %rd51;
	mov.u64 %rd53, {sym};
	add.u64 %rd53, %rd53, %rd51;
	{ld}.{t} {r}, [{a}];
	{st}.{t} [{b}], {r};
	add.u32 %r91, %r91, {B};
	bra {l};
{l}_END:
""".format(l=lbl, n=n, s=size, buf=buf, sym=sym, ld=ld, st=st, t=t, r=r, a=a, b=b, B=k.block)


# ---------------------------------------------------------------- integer atom / red
def ops32(B):
    """(ptx op, type, init, operand(t), fold) -- final value independent of the order"""
    return [
        ("add", "u32", 0x12345678, lambda t: h(t), lambda r, v: (r + v) & M32),
        ("add", "s32", 5, lambda t: (t - 100) & M32, lambda r, v: (r + v) & M32),
        ("min", "u32", 0xffffffff, lambda t: h(t) | 0x100, min),
        ("max", "u32", 7, lambda t: h(t) >> 1, max),
        ("min", "s32", 0, lambda t: h(t), lambda r, v: min(s32(r), s32(v)) & M32),
        ("max", "s32", 0x80000000, lambda t: h(t) | 0x80000000, lambda r, v: max(s32(r), s32(v)) & M32),
        ("inc", "u32", 0, lambda t: 1000, inc),
        ("inc", "u32", 0, lambda t: 99, inc),
        ("dec", "u32", 1000, lambda t: 0xffffffff, dec),
        ("dec", "u32", 0, lambda t: 9, dec),
        ("and", "b32", 0xffffffff, lambda t: ~(1 << (t % 29)) & M32, lambda r, v: r & v),
        ("or", "b32", 0x80000000, lambda t: 1 << (t % 29) if t % 3 else 0, lambda r, v: r | v),
        ("xor", "b32", 0x5a5a5a5a, lambda t: h(t), lambda r, v: r ^ v),
    ]


def ops64(B):
    return [
        ("add", "u64", 0xfffffffffffffff0, lambda t: (t * 0x100000001 + 0xffffffff) & M64, lambda r, v: (r + v) & M64),
        ("add", "u64", 3, lambda t: (t - 200) & M64, lambda r, v: (r + v) & M64),
        ("min", "u64", M64, lambda t: h64(t) | 1, min),
        ("max", "u64", 0, lambda t: h64(t) >> 3, max),
        ("min", "s64", 0, lambda t: h64(t), lambda r, v: min(s64(r), s64(v)) & M64),
        ("max", "s64", 1 << 63, lambda t: h64(t) | (1 << 63), lambda r, v: max(s64(r), s64(v)) & M64),
        ("and", "b64", M64, lambda t: ~(1 << (t % 61)) & M64, lambda r, v: r & v),
        ("or", "b64", 1, lambda t: 1 << ((t * 7) % 64) if t % 5 else 0, lambda r, v: r | v),
        ("xor", "b64", 0x0123456789abcdef, lambda t: h64(t), lambda r, v: r ^ v),
    ]


def gen_int_atomics(space, instr):
    B = 256
    O32, O64 = ops32(B), ops64(B)
    name = "%s_%s_int" % (instr, space)
    extra = ", cas.b32/.b64 (one winner of cas 0->1, counted; a cas loop adding tid), exch/cas .b32/.b64 on each " \
        "thread's own word (returned old values checked)" if instr == "atom" else ""
    k = Kernel(name, "%s.%s on %d threads: add .u32/.s32/.u64 (negative operands wrap; there is no add.s64), min/max .u32/.s32/.u64/.s64, inc/dec .u32 "
               "(bound above the count, and wrapping bounds 99/9), and/or/xor .b32/.b64%s (9.7.13.%s)"
               % (instr, space, B, extra, "5" if instr == "atom" else "6"), B,
               shared="" if space == "global" else "")
    for i, (op, t, init, f, fold) in enumerate(O32):
        k.inp("v32_%d" % i, "u32", [f(x) for x in range(B)])
    for i, (op, t, init, f, fold) in enumerate(O64):
        k.inp("v64_%d" % i, "u64", [f(x) for x in range(B)])
    n32 = len(O32) + (4 if instr == "atom" else 0)
    n64 = len(O64) + (3 if instr == "atom" else 0)
    i32, e32 = [o[2] for o in O32], []
    i64 = [o[2] for o in O64]
    for op, t, init, f, fold in O32:
        r = init
        for x in range(B):
            r = fold(r, f(x))
        e32.append(r)
    e64 = []
    for op, t, init, f, fold in O64:
        r = init
        for x in range(B):
            r = fold(r, f(x))
        e64.append(r)
    if instr == "atom":
        # cas 0->1 winner word, success counter, cas-loop word (adds tid), spare
        i32 += [0, 0, 0x1000, 0]
        e32 += [1, 1, 0x1000 + sum(range(B)), 0]
        i64 += [0, 0, 1 << 40]
        e64 += [0xfedcba9876543210, 1, (1 << 40) + sum(x * 3 for x in range(B))]
    own32i = [x * 5 for x in range(B)]
    own64i = [(x << 33) | 7 for x in range(B)]
    k.mem("m32", "u32", i32, e32)
    k.mem("m64", "u64", i64, e64)
    if instr == "atom":
        k.mem("own32", "u32", own32i, [x ^ 0xffff for x in range(B)])
        k.mem("own64", "u64", own64i, [own64i[x] if x % 2 else (x << 40) | 9 for x in range(B)])
        k.mem("cas32", "u32", own32i, [(0xa0000000 | x) if x % 3 else own32i[x] for x in range(B)])
        ox = k.out("exch32_old")
        oc = k.out("cas32_old")
        o6 = k.out("cas64_old", "u64")
        o7 = k.out("exch64_old", "u64")
    sp = space
    body = ""
    if space == "shared":
        k.shared = "\t.shared .align 8 .b64 s64w[%d];\n\t.shared .align 4 .b32 s32w[%d];\n" % (n64, n32)
        if instr == "atom":
            k.shared += "\t.shared .align 8 .b64 sown64[%d];\n\t.shared .align 4 .b32 sown32[%d];\n" \
                "\t.shared .align 4 .b32 scas32[%d];\n" % (B, B, B)
        body += copy_loop(k, "CI0", "s32w", "m32", n32, 4, True) + copy_loop(k, "CI1", "s64w", "m64", n64, 8, True)
        if instr == "atom":
            body += copy_loop(k, "CI2", "sown32", "own32", B, 4, True) + copy_loop(k, "CI3", "sown64", "own64", B, 8, True) \
                + copy_loop(k, "CI4", "scas32", "cas32", B, 4, True)
        body += "\tbar.sync 0;\n\tmov.u64 %rd20, s32w;\n\tmov.u64 %rd21, s64w;\n"
    else:
        body += "\tmov.u64 %rd20, %b_m32;\n\tmov.u64 %rd21, %b_m64;\n"
    d32 = "%r10, " if instr == "atom" else ""
    d64 = "%rd10, " if instr == "atom" else ""
    for i, (op, t, init, f, fold) in enumerate(O32):
        body += "\tld.global.u32 %%r11, [%%a_v32_%d];\n\t%s.%s.%s.%s %s[%%rd20+%d], %%r11;\n" % (i, instr, sp, op, t, d32, 4 * i)
    for i, (op, t, init, f, fold) in enumerate(O64):
        body += "\tld.global.u64 %%rd11, [%%a_v64_%d];\n\t%s.%s.%s.%s %s[%%rd21+%d], %%rd11;\n" % (i, instr, sp, op, t, d64, 8 * i)
    if instr == "atom":
        c = 4 * len(O32)
        c64 = 8 * len(O64)
        body += r"""
	atom.{sp}.cas.b32 %r12, [%rd20+{c0}], 0, 1;
	setp.eq.u32 %p1, %r12, 0;
	@%p1 atom.{sp}.add.u32 %r13, [%rd20+{c1}], 1;
	atom.{sp}.or.b32 %r12, [%rd20+{c2}], 0;
LOOP32:
	add.u32 %r13, %r12, %tx;
	atom.{sp}.cas.b32 %r14, [%rd20+{c2}], %r12, %r13;
	setp.ne.u32 %p1, %r14, %r12;
	mov.u32 %r12, %r14;
	@%p1 bra LOOP32;
	mov.b64 %rd13, 0xfedcba9876543210;
	atom.{sp}.cas.b64 %rd12, [%rd21+{d0}], 0, %rd13;
	setp.eq.u64 %p1, %rd12, 0;
	@%p1 atom.{sp}.add.u64 %rd14, [%rd21+{d1}], 1;
	atom.{sp}.add.u64 %rd12, [%rd21+{d2}], 0;
LOOP64:
	mad.lo.u64 %rd13, %tx64, 3, %rd12;
	atom.{sp}.cas.b64 %rd14, [%rd21+{d2}], %rd12, %rd13;
	setp.ne.u64 %p1, %rd14, %rd12;
	mov.u64 %rd12, %rd14;
	@%p1 bra LOOP64;
""".format(sp=sp, c0=c, c1=c + 4, c2=c + 8, d0=c64, d1=c64 + 8, d2=c64 + 16)
        if space == "shared":
            body += "\tmov.u64 %rd22, sown32;\n\tmov.u64 %rd23, sown64;\n\tmov.u64 %rd24, scas32;\n"
        else:
            body += "\tmov.u64 %rd22, %b_own32;\n\tmov.u64 %rd23, %b_own64;\n\tmov.u64 %rd24, %b_cas32;\n"
        body += r"""	mad.lo.u64 %rd22, %tx64, 4, %rd22;
	mad.lo.u64 %rd23, %tx64, 8, %rd23;
	mad.lo.u64 %rd24, %tx64, 4, %rd24;
	xor.b32 %r15, %tx, 0xffff;
	atom.{sp}.exch.b32 %r16, [%rd22], %r15;
	mul.lo.u32 %r17, %tx, 5;
	rem.u32 %r18, %tx, 3;
	setp.eq.u32 %p2, %r18, 0;
	@%p2 add.u32 %r17, %r17, 1;
	or.b32 %r19, %tx, 0xa0000000;
	atom.{sp}.cas.b32 %r20, [%rd24], %r17, %r19;
	shl.b64 %rd15, %tx64, 33;
	or.b64 %rd15, %rd15, 7;
	and.b32 %r18, %tx, 1;
	setp.eq.u32 %p2, %r18, 1;
	@%p2 add.u64 %rd15, %rd15, 1;
	shl.b64 %rd16, %tx64, 40;
	or.b64 %rd16, %rd16, 9;
	atom.{sp}.cas.b64 %rd17, [%rd23], %rd15, %rd16;
	atom.{sp}.exch.b64 %rd18, [%rd23], %rd17;
	atom.{sp}.exch.b64 %rd19, [%rd23], %rd18;
""".format(sp=sp) + k.st("exch32_old", "%r16") + k.st("cas32_old", "%r20") + k.st("cas64_old", "%rd17") + \
            k.st("exch64_old", "%rd18")
        # own64: cas (succeeds for even x) -> d=old; exch with old -> returns new-or-old; exch back
        for x in range(B):
            ox[x] = own32i[x]
            oc[x] = own32i[x]
            o6[x] = own64i[x]
            o7[x] = own64i[x] if x % 2 else (x << 40) | 9
    # own64 final: after cas (even: new), exch(old) -> holds old, exch(prev) -> holds prev (=new or old)
    if space == "shared":
        body += "\tbar.sync 0;\n" + copy_loop(k, "CO0", "s32w", "m32", n32, 4, False) + \
            copy_loop(k, "CO1", "s64w", "m64", n64, 8, False)
        if instr == "atom":
            body += copy_loop(k, "CO2", "sown32", "own32", B, 4, False) + copy_loop(k, "CO3", "sown64", "own64", B, 8, False) \
                + copy_loop(k, "CO4", "scas32", "cas32", B, 4, False)
    k.body = body
    k.write()


# ---------------------------------------------------------------- floating-point atom/red
def gen_float_atomics():
    B = 256
    k = Kernel("atom_float", "atom/red .add.f32/.f64 on global and shared with exactly representable sums; "
               "atom.global.add.f32 flushes subnormal inputs and results to sign-preserving zero, the shared "
               "one does not; f64 keeps subnormals (9.7.13.5, 9.7.13.6)", B,
               shared="\t.shared .align 4 .b32 sf[6];\n\t.shared .align 8 .b64 sd[3];\n")
    vf = [f32(0.25 * (t % 8) + 1) for t in range(B)]
    vd = [f64(t * 0.5 - 3) for t in range(B)]
    k.inp("vf", "u32", vf)
    k.inp("vd", "u64", vd)
    s_f = 0.5 + 2 * sum(0.25 * (t % 8) + 1 for t in range(B))
    s_d = sum(t * 0.5 - 3 for t in range(B))
    fi = [f32(0.5), f32(0.5), 0, 0x80000000, 0x00400000, 0x00c00000]
    di = [f64(0.25), f64(0.25), 0]
    k.mem("gf", "f32", fi, [f32(s_f), f32(s_f), 0, 0x80000000, 0, 0])
    k.mem("gd", "f64", di, [f64(0.25 + 2 * s_d), f64(0.25 + 2 * s_d), B])
    k.mem("sfo", "f32", fi, [f32(s_f), f32(s_f), B, 0x80000000 | B, 0x00400000, 0x00400000])
    k.mem("sdo", "f64", di, [f64(0.25 + 2 * s_d), f64(0.25 + 2 * s_d), B])
    OPS = r"""	atom.{sp}.add.f32 %f10, [{bf}], %f1;
	red.{sp}.add.f32 [{bf}+4], %f1;
	atom.{sp}.add.f32 %f11, [{bf}], %f1;
	red.{sp}.add.f32 [{bf}+4], %f1;
	mov.b32 %f2, 0x00000001;
	atom.{sp}.add.f32 %f12, [{bf}+8], %f2;
	mov.b32 %f3, 0x80000001;
	red.{sp}.add.f32 [{bf}+12], %f3;
	mov.b32 %f4, 0;
	atom.{sp}.add.f32 %f13, [{bf}+16], %f4;
	mov.b32 %f5, 0x80800000;
	@%p1 atom.{sp}.add.f32 %f14, [{bf}+20], %f5;
	atom.{sp}.add.f64 %fd10, [{bd}], %fd1;
	red.{sp}.add.f64 [{bd}+8], %fd1;
	atom.{sp}.add.f64 %fd11, [{bd}], %fd1;
	red.{sp}.add.f64 [{bd}+8], %fd1;
	mov.b64 %fd2, 0x0000000000000001;
	atom.{sp}.add.f64 %fd12, [{bd}+16], %fd2;
"""
    k.body = "\tld.global.f32 %f1, [%a_vf];\n\tld.global.f64 %fd1, [%a_vd];\n\tsetp.eq.u32 %p1, %tx, 0;\n" + \
        "\tmov.u64 %rd20, %b_gf;\n\tmov.u64 %rd21, %b_gd;\n" + OPS.format(sp="global", bf="%rd20", bd="%rd21") + \
        copy_loop(k, "CI0", "sf", "sfo", 6, 4, True) + copy_loop(k, "CI1", "sd", "sdo", 3, 8, True) + "\tbar.sync 0;\n" + \
        OPS.format(sp="shared", bf="sf", bd="sd") + "\tbar.sync 0;\n" + copy_loop(k, "CO0", "sf", "sfo", 6, 4, False) + \
        copy_loop(k, "CO1", "sd", "sdo", 3, 8, False)
    k.write()


def gen_half_atomics():
    B = 128
    k = Kernel("atom_half", "atom.add.noftz .f16/.bf16/.f16x2/.bf16x2 on global (and .f16/.bf16x2 on shared), "
               "red.add.noftz.bf16, subnormal sums kept, atom.cas.b16 on each thread's own halfword "
               "(9.7.13.5/6; sm_90, PTX 7.8)", B, version="7.8", target="sm_90",
               shared="\t.shared .align 4 .b16 sh[2];\n\t.shared .align 4 .b32 sw[1];\n")
    hi = [0, 0, 0x3c00, 0, 0, 0]
    he = [f16(B * 1.0), 0x0080, f16(1 - 0.5 * B), bf16(B * 1.0), 0x0080, bf16(0.5 * B)]
    wi = [0, 0]
    we = [f16(0.5 * B) | (f16(-2.0 * B) << 16), bf16(2.0 * B) | (0x0080 << 16)]
    k.mem("hw", "u16", hi, he)
    k.mem("ww", "u32", wi, we)
    k.mem("shw", "u16", [0x3c00, 0], [f16(1 + 0.25 * B), 0x0080])
    k.mem("sww", "u32", [0], [bf16(1.0 * B) | (bf16(-4.0 * B) << 16)])
    own = [t * 3 for t in range(B)]
    k.mem("own16", "u16", own, [(0xa000 | t) if t % 3 else own[t] for t in range(B)])
    od = k.out("cas16_old", "u16")
    for t in range(B):
        od[t] = own[t]
    k.body = r"""
	mov.u64 %rd20, %b_hw;
	mov.u64 %rd21, %b_ww;
	mov.b16 %h1, 0x3c00;
	atom.global.add.noftz.f16 %h10, [%rd20], %h1;
	mov.b16 %h2, 0x0001;
	atom.global.add.noftz.f16 %h11, [%rd20+2], %h2;
	mov.b16 %h3, 0xb800;
	atom.global.add.noftz.f16 %h12, [%rd20+4], %h3;
	mov.b16 %h4, 0x3f80;
	atom.global.add.noftz.bf16 %h13, [%rd20+6], %h4;
	atom.global.add.noftz.bf16 %h14, [%rd20+8], %h2;
	mov.b16 %h5, 0x3f00;
	red.global.add.noftz.bf16 [%rd20+10], %h5;
	mov.b32 %r1, 0xc0003800;
	atom.global.add.noftz.f16x2 %r10, [%rd21], %r1;
	mov.b32 %r2, 0x00014000;
	atom.global.add.noftz.bf16x2 %r11, [%rd21+4], %r2;
""" + copy_loop(k, "CI0", "sh", "shw", 2, 2, True) + copy_loop(k, "CI1", "sw", "sww", 1, 4, True) + r"""
	bar.sync 0;
	mov.b16 %h6, 0x3400;
	atom.shared.add.noftz.f16 %h15, [sh], %h6;
	atom.shared.add.noftz.f16 %h16, [sh+2], %h2;
	mov.b32 %r3, 0xc0803f80;
	atom.shared.add.noftz.bf16x2 %r12, [sw], %r3;
	bar.sync 0;
""" + copy_loop(k, "CO0", "sh", "shw", 2, 2, False) + copy_loop(k, "CO1", "sw", "sww", 1, 4, False) + r"""
	mad.lo.u64 %rd22, %tx64, 2, %b_own16;
	mul.lo.u32 %r4, %tx, 3;
	rem.u32 %r5, %tx, 3;
	setp.eq.u32 %p1, %r5, 0;
	@%p1 add.u32 %r4, %r4, 1;
	cvt.u16.u32 %h7, %r4;
	or.b32 %r6, %tx, 0xa000;
	cvt.u16.u32 %h8, %r6;
	atom.global.cas.b16 %h17, [%rd22], %h7, %h8;
""" + k.st("cas16_old", "%h17")
    k.write()


def gen_vector_atomics():
    B = 64
    k = Kernel("atom_vector", "vector atom.global .v4.f32.add, .v2.f32.add (exact sums), .v8.f16 .min/.max "
               ".noftz (per-element, 9.7.13.5; sm_90, PTX 8.1)", B, version="8.1", target="sm_90")
    fi = [0, f32(0.5), 0, f32(1), 0, 0, 0, 0]
    fe = [f32(sum(range(B))), f32(0.5 + 0.5 * sum(range(B))), f32(B), f32(1 - 0.25 * B),
          f32(0.5 * sum(range(B))), f32(-B), 0, 0]
    k.mem("vf", "f32", fi, fe)
    val = lambda t, j: ((t * (j + 3) + 5 * j) % 23) - 11 + j
    mi = [0x7c00, f16(5), f16(-30), 0x7c00, f16(-9), 0x7c00, f16(100), 0x7c00]
    ma = [0xfc00, f16(-5), f16(30), 0xfc00, f16(9), 0xfc00, f16(-100), 0xfc00]

    def fold(init, f):
        out = []
        for j in range(8):
            x = struct.unpack("<e", struct.pack("<H", init[j]))[0]
            out.append(f16(f([x] + [val(t, j) for t in range(B)])))
        return out
    k.mem("vh", "u16", mi + ma, fold(mi, min) + fold(ma, max))
    body = r"""
	mov.u64 %rd20, %b_vf;
	mov.u64 %rd21, %b_vh;
	cvt.rn.f32.u32 %f1, %tx;
	mul.f32 %f2, %f1, 0f3F000000;
	mov.f32 %f3, 0f3F800000;
	mov.f32 %f4, 0fBE800000;
	atom.global.v4.f32.add {%f10, %f11, %f12, %f13}, [%rd20], {%f1, %f2, %f3, %f4};
	mov.f32 %f5, 0fBF800000;
	atom.global.v2.f32.add {%f14, %f15}, [%rd20+16], {%f2, %f5};
"""
    for j in range(8):
        body += "\tmul.lo.u32 %%r1, %%tx, %d;\n\tadd.u32 %%r1, %%r1, %d;\n\trem.u32 %%r1, %%r1, 23;\n" \
            "\tadd.u32 %%r1, %%r1, %d;\n\tcvt.rn.f16.s32 %%h%d, %%r1;\n" % (j + 3, 5 * j, j - 11 & M32, j + 1)
    hs = ", ".join("%%h%d" % (j + 1) for j in range(8))
    ds = ", ".join("%%h%d" % (j + 11) for j in range(8))
    body += "\tatom.global.v8.f16.min.noftz {%s}, [%%rd21], {%s};\n" % (ds, hs)
    body += "\tatom.global.v8.f16.max.noftz {%s}, [%%rd21+16], {%s};\n" % (ds, hs)
    k.body = body
    k.write()


# ---------------------------------------------------------------- named barriers
def gen_bar_named():
    B = 256
    k = Kernel("bar_named", "named barriers 0-15: bar.sync with register id and count (pairs of warps, ids "
               "1-4, count 64; single warps, ids 5-12, count 32), barrier.sync 13/14 with count 128 in "
               "warp-uniform branches, bar.sync 15 (register id, no count), barrier.cta.sync.aligned 0, 256; "
               "shared-memory exchange across each barrier (9.7.13.1)", B,
               shared="".join("\t.shared .align 4 .b32 %s[256];\n" % s for s in ("sa", "sb", "sc", "sd")))
    o = [k.out(n) for n in ("pair", "warp", "half", "all1", "all2")]

    def sh(sym, idx_reg, val_reg=None):
        s = "\tmov.u64 %%rd1, %s;\n\tmul.wide.u32 %%rd2, %s, 4;\n\tadd.u64 %%rd1, %%rd1, %%rd2;\n" % (sym, idx_reg)
        if val_reg:
            return s + "\tst.shared.u32 [%%rd1], %s;\n" % val_reg
        return s + "\tld.shared.u32 %r9, [%rd1];\n"
    k.body = "\tmul.lo.u32 %r1, %tx, 0x9e3779b1;\n" + sh("sa", "%tx", "%r1") + r"""
	shr.u32 %r2, %wp, 1;
	add.u32 %r2, %r2, 1;
	mov.u32 %r3, 64;
	bar.sync %r2, %r3;
	xor.b32 %r4, %tx, 32;
""" + sh("sa", "%r4") + k.st("pair", "%r9") + "\tadd.u32 %r5, %r1, 1;\n" + sh("sb", "%tx", "%r5") + r"""
	add.u32 %r2, %wp, 5;
	bar.sync %r2, 32;
	add.u32 %r4, %ln, 1;
	and.b32 %r4, %r4, 31;
	sub.u32 %r6, %tx, %ln;
	add.u32 %r4, %r4, %r6;
""" + sh("sb", "%r4") + k.st("warp", "%r9") + "\tadd.u32 %r5, %r1, 2;\n" + sh("sc", "%tx", "%r5") + r"""
	setp.lt.u32 %p0, %wp, 4;
	@!%p0 bra UP;
	barrier.sync 13, 128;
	bra JOIN;
UP:
	barrier.cta.sync 14, 128;
JOIN:
	xor.b32 %r4, %tx, 64;
""" + sh("sc", "%r4") + k.st("half", "%r9") + "\tadd.u32 %r5, %r1, 3;\n" + sh("sd", "%tx", "%r5") + r"""
	mov.u32 %r7, 15;
	bar.sync %r7;
	sub.u32 %r4, 255, %tx;
""" + sh("sd", "%r4") + k.st("all1", "%r9") + r"""
	barrier.sync 0;
	add.u32 %r5, %r1, 4;
""" + sh("sd", "%tx", "%r5") + r"""
	barrier.cta.sync.aligned 0, 256;
	add.u32 %r4, %tx, 128;
	and.b32 %r4, %r4, 255;
""" + sh("sd", "%r4") + k.st("all2", "%r9")
    for t in range(B):
        o[0][t] = h(t ^ 32)
        o[1][t] = (h(t - t % 32 + (t % 32 + 1) % 32) + 1) & M32
        o[2][t] = (h(t ^ 64) + 2) & M32
        o[3][t] = (h(255 - t) + 3) & M32
        o[4][t] = (h((t + 128) % 256) + 4) & M32
    k.write()


def gen_bar_pc():
    B, N = 128, 8
    k = Kernel("bar_producer_consumer", "bar.arrive + bar.sync producer/consumer (manual's example): warps "
               "0-1 produce into shared memory and bar.arrive 0,128 then bar.sync 1,128; warps 2-3 bar.sync "
               "0,128, read, barrier.arrive 1,128; %d rounds (9.7.13.1)" % N, B,
               shared="\t.shared .align 4 .b32 buf[64];\n")
    o = k.out("res")
    k.body = r"""
	mov.u32 %r1, 0;            // round
	mov.u32 %r2, 0;            // consumer sum
	setp.ge.u32 %p0, %wp, 2;
	@%p0 bra CONS;
	mov.u64 %rd1, buf;
	mul.wide.u32 %rd2, %tx, 4;
	add.u64 %rd1, %rd1, %rd2;
PROD:
	mul.lo.u32 %r3, %tx, 100;
	mad.lo.u32 %r3, %r1, 7, %r3;
	st.shared.u32 [%rd1], %r3;
	bar.arrive 0, 128;
	bar.sync 1, 128;
	add.u32 %r1, %r1, 1;
	setp.lt.u32 %p1, %r1, {N};
	@%p1 bra PROD;
""".replace("{N}", str(N)) + k.st("res", "%r1") + r"""
	bra DONE;
CONS:
	sub.u32 %r4, %tx, 64;
	mov.u64 %rd1, buf;
	mul.wide.u32 %rd2, %r4, 4;
	add.u64 %rd1, %rd1, %rd2;
CLOOP:
	bar.sync 0, 128;
	ld.shared.u32 %r3, [%rd1];
	add.u32 %r2, %r2, %r3;
	barrier.arrive 1, 128;
	add.u32 %r1, %r1, 1;
	setp.lt.u32 %p1, %r1, {N};
	@%p1 bra CLOOP;
""".replace("{N}", str(N)) + k.st("res", "%r2") + "DONE:\n"
    for t in range(B):
        o[t] = N if t < 64 else sum((t - 64) * 100 + 7 * i for i in range(N))
    k.write()


def gen_bar_red():
    B = 256
    P = [((h(t) >> 7) & 1 == 1) if t < 128 else True for t in range(B)]
    k = Kernel("bar_red", "bar.red.popc.u32 / bar.red.and.pred / bar.red.or.pred over the CTA (c and !c), "
               "barrier.red with register barrier id and thread count 128 per half CTA (9.7.13.1)", B)
    k.inp("pred", "u32", [int(p) for p in P])
    o = [k.out(n) for n in ("popc_all", "popc_half", "bits")]
    k.body = r"""
	ld.global.u32 %r1, [%a_pred];
	setp.ne.u32 %p1, %r1, 0;
	setp.lt.u32 %p9, %tx, 1000;
	bar.red.popc.u32 %r10, 0, %p1;
	bar.red.and.pred %p2, 1, %p1;
	bar.red.or.pred %p3, 2, !%p1;
	bar.red.and.pred %p4, 3, %p9;
	bar.cta.red.or.pred %p5, 4, !%p9;
	shr.u32 %r2, %wp, 2;
	mov.u32 %r3, 128;
	add.u32 %r4, %r2, 5;
	barrier.red.popc.u32 %r11, %r4, %r3, !%p1;
	add.u32 %r4, %r2, 7;
	barrier.red.and.pred %p6, %r4, %r3, %p1;
	add.u32 %r4, %r2, 9;
	barrier.red.or.pred %p7, %r4, 128, !%p1;
	add.u32 %r4, %r2, 11;
	barrier.red.or.pred %p8, %r4, %r3, %p1;
""" + "".join("\tselp.u32 %%r%d, %d, 0, %%p%d;\n" % (20 + i, 1 << i, 2 + i) for i in range(7)) + \
        "".join("\tor.b32 %%r20, %%r20, %%r%d;\n" % (21 + i) for i in range(6)) + \
        k.st("popc_all", "%r10") + k.st("popc_half", "%r11") + k.st("bits", "%r20")
    for t in range(B):
        half = [P[u] for u in range(B) if u // 128 == t // 128]
        o[0][t] = sum(P)
        o[1][t] = sum(1 for p in half if not p)
        o[2][t] = sum(1 << i for i, b in enumerate([all(P), any(not p for p in P), True, False, all(half),
                                                     any(not p for p in half), any(half)]) if b)
    k.write()


# ---------------------------------------------------------------- faults
def fault(name, covers, block, body, err, version="8.0", target="sm_90"):
    k = Kernel(name, covers, block, version=version, target=target)
    k.out("o")
    k.body = body
    k.expect_error = err
    k.write()


def gen_faults():
    fault("fault_bar_deadlock", "warp 0 waits at barrier 1 and warp 1 at barrier 2 (each needs all 64 "
          "threads, which never arrive): deadlock (9.7.13.1)", 64, r"""
	setp.eq.u32 %p0, %wp, 0;
	@!%p0 bra W1;
	barrier.sync 1;
	bra DONE;
W1:
	barrier.sync 2;
DONE:
	st.global.u32 [%a_o], %tx;
""", "deadlock")
    fault("fault_collective_deadlock", "lanes 0-15 wait in vote.sync with membermask 0xffffffff while lanes "
          "16-31 wait at barrier.sync 1 for the rest of their warp: the named lanes never arrive, deadlock "
          "(9.7.13.9, 9.7.13.1)", 32, r"""
	setp.lt.u32 %p0, %ln, 16;
	@!%p0 bra HI;
	vote.sync.any.pred %p1, %p0, 0xffffffff;
	bra DONE;
HI:
	barrier.sync 1;
DONE:
	st.global.u32 [%a_o], %tx;
""", "deadlock")
    fault("fault_vote_membermask_self", "all 32 lanes execute vote.sync.ballot with membermask 0x0000ffff: "
          "lanes 16-31 are not in it (\"behavior ... undefined if the executing thread is not in the "
          "membermask\", 9.7.13.9)", 32, r"""
	setp.lt.u32 %p0, %ln, 4;
	vote.sync.ballot.b32 %r1, %p0, 0x0000ffff;
	st.global.u32 [%a_o], %r1;
""", "membermask")
    fault("fault_shfl_membermask_self", "all 32 lanes execute shfl.sync.bfly with membermask 0xffff0000: "
          "lanes 0-15 are not in it (9.7.9.6)", 32, r"""
	shfl.sync.bfly.b32 %r1, %tx, 1, 0x1f, 0xffff0000;
	st.global.u32 [%a_o], %r1;
""", "membermask")
    fault("fault_shfl_source_outside", "lanes 0-15 execute shfl.sync.idx with membermask 0x0000ffff and "
          "b = 20 (c = 0x1f, so j = 20 is in range): the source lane is not in membermask (\"results are "
          "undefined if a thread sources a register from ... a thread that is not in membermask\", 9.7.9.6)",
          32, r"""
	setp.ge.u32 %p0, %ln, 16;
	@%p0 bra DONE;
	shfl.sync.idx.b32 %r1, %tx, 20, 0x1f, 0x0000ffff;
	st.global.u32 [%a_o], %r1;
DONE:
""", "membermask")


GENS = [lambda: gen_int_atomics("global", "atom"), lambda: gen_int_atomics("shared", "atom"),
        lambda: gen_int_atomics("global", "red"), lambda: gen_int_atomics("shared", "red"),
        gen_float_atomics, gen_half_atomics, gen_vector_atomics, gen_bar_named, gen_bar_pc, gen_bar_red, gen_faults]
