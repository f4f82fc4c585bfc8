#!/usr/bin/env python3
"""Generates the integer conformance suite (../*.ptx, ../*.json).

Run:  python3 gen.py      (from this directory; rewrites every case)

Expected values come only from sem.py, a transcription of the manual's
Semantics pseudo-code (ptx-isa-9.0.txt 9.7.1, 9.7.2, 9.7.6, 9.7.8, 9.7.9.7).
"""
from sem import *
from kernel import Kernel, INDEX, OUTDIR
import os
import sys

sys.dont_write_bytecode = True

E16 = [0, 1, 2, 3, 7, 0x7f, 0x80, 0xff, 0x100, 0x1234, 0x7ffe, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff]
E32 = [0, 1, 2, 3, 0xff, 0xffff, 0x10000, 0x12345678, 0x55555555, 0x7ffffffe, 0x7fffffff,
       0x80000000, 0x80000001, 0xdeadbeef, 0xfffffffe, 0xffffffff]
E64 = [0, 1, 2, 3, 0xffffffff, 0x100000000, 0x123456789abcdef0, 0x5555555555555555,
       0x7ffffffffffffffe, 0x7fffffffffffffff, 0x8000000000000000, 0x8000000000000001,
       0xdeadbeefcafebabe, 0xffffffff80000000, 0xfffffffffffffffe, 0xffffffffffffffff]
EDGE = {16: E16, 32: E32, 64: E64}
UT = {16: "u16", 32: "u32", 64: "u64"}


def grid2(E):
    """all 256 ordered pairs of the 16 edge values"""
    return [x for x in E for _ in E], [y for _ in E for y in E]


def third(E, n, k=0):
    """a deterministic third operand per vector, cycling through E"""
    return [E[(i // 16 * 3 + i % 16 * 7 + 1 + k) % len(E)] for i in range(n)]


def setp_snip(op, t, boolop=None, negc=False):
    if boolop:
        return ("setp.ne.u32 %%p2, {c}, 0;\n"
                "setp.%s.%s.%s %%p0|%%p1, {a}, {b}, %s%%p2;\n" % (op, boolop, t, "!" if negc else "")
                + PQ)
    return "setp.%s.%s %%p0|%%p1, {a}, {b};\n" % (op, t) + PQ


PQ = ("selp.u32 %t0, 1, 0, %p0;\n"
      "selp.u32 %t1, 2, 0, %p1;\n"
      "or.b32 {d}, %t0, %t1;")


def pq(p, q):
    return (1 if p else 0) | (2 if q else 0)


# =========================================================== 9.7.1.1/2 add, sub
for n in (16, 32, 64):
    t = UT[n]
    k = Kernel("add_sub_%d" % n, "add/sub .u%d/.s%d%s (9.7.1.1, 9.7.1.2)" % (n, n, ", add.sat.s32/sub.sat.s32" if n == 32 else ""))
    A, B = grid2(EDGE[n])
    k.input("a", t, A)
    k.input("b", t, B)
    for ty in ("u", "s"):
        k.output("add_%s%d" % (ty, n), t, "add.%s%d {d}, {a}, {b};" % (ty, n), lambda a, b, n=n: add(a, b, n))
        k.output("sub_%s%d" % (ty, n), t, "sub.%s%d {d}, {a}, {b};" % (ty, n), lambda a, b, n=n: sub(a, b, n))
    if n == 32:
        k.output("add_sat_s32", t, "add.sat.s32 {d}, {a}, {b};", add_sat_s32)
        k.output("sub_sat_s32", t, "sub.sat.s32 {d}, {a}, {b};", sub_sat_s32)
        k.output("add_s32_imm", t, "add.s32 {d}, {a}, -1;", lambda a, b: add(a, 0xffffffff, 32))
        k.output("sub_u32_imm", t, "sub.u32 {d}, 0x7fffffff, {a};", lambda a, b: sub(0x7fffffff, a, 32))
    k.write()

# =========================================================== 9.7.1.3 mul
for n in (16, 32, 64):
    t = UT[n]
    k = Kernel("mul_%d" % n, "mul.lo/.hi%s .u%d/.s%d (9.7.1.3)" % ("/.wide" if n < 64 else "", n, n))
    A, B = grid2(EDGE[n])
    k.input("a", t, A)
    k.input("b", t, B)
    for ty in ("u", "s"):
        for mode in ("lo", "hi"):
            k.output("mul_%s_%s%d" % (mode, ty, n), t, "mul.%s.%s%d {d}, {a}, {b};" % (mode, ty, n),
                     lambda a, b, n=n, mode=mode, sg=(ty == "s"): mul(mode, a, b, n, sg))
        if n < 64:
            k.output("mul_wide_%s%d" % (ty, n), UT[2 * n], "mul.wide.%s%d {d}, {a}, {b};" % (ty, n),
                     lambda a, b, n=n, sg=(ty == "s"): mul("wide", a, b, n, sg))
    k.write()

# =========================================================== 9.7.1.4 mad, 9.7.1.7 sad
for n in (16, 32, 64):
    t = UT[n]
    k = Kernel("mad_sad_%d" % n, "mad.lo/.hi%s%s and sad .u%d/.s%d (9.7.1.4, 9.7.1.7)"
               % ("/.wide" if n < 64 else "", ", mad.hi.sat.s32" if n == 32 else "", n, n))
    A, B = grid2(EDGE[n])
    k.input("a", t, A)
    k.input("b", t, B)
    k.input("c", t, third(EDGE[n], 256))
    if n < 64:
        k.input("cw", UT[2 * n], third(EDGE[2 * n], 256, 5))
    for ty in ("u", "s"):
        sg = ty == "s"
        for mode in ("lo", "hi"):
            k.output("mad_%s_%s%d" % (mode, ty, n), t, "mad.%s.%s%d {d}, {a}, {b}, {c};" % (mode, ty, n),
                     lambda a, b, c, *r, n=n, mode=mode, sg=sg: mad(mode, a, b, c, n, sg))
        if n < 64:
            k.output("mad_wide_%s%d" % (ty, n), UT[2 * n], "mad.wide.%s%d {d}, {a}, {b}, {cw};" % (ty, n),
                     lambda a, b, c, cw, n=n, sg=sg: mad("wide", a, b, cw, n, sg))
        k.output("sad_%s%d" % (ty, n), t, "sad.%s%d {d}, {a}, {b}, {c};" % (ty, n),
                 lambda a, b, c, *r, n=n, sg=sg: sad(a, b, c, n, sg))
    if n == 32:
        k.output("mad_hi_sat_s32", t, "mad.hi.sat.s32 {d}, {a}, {b}, {c};", lambda a, b, c, cw: mad_hi_sat_s32(a, b, c))
        C = third(EDGE[n], 256)
        sat = sum(1 for a, b, c in zip(A, B, C) if mad_hi_sat_s32(a, b, c) != mad("hi", a, b, c, 32, True))
        assert sat >= 4, sat  # the vectors do reach saturation
    k.write()

# =========================================================== 9.7.1.5/6 mul24, mad24
U24 = [0, 1, 2, 3, 0x1000, 0x10000, 0x123456, 0xabcdef, 0x7fffff, 0x800000, 0xfffffe, 0xffffff]
S24 = [u(x, 32) for x in [0, 1, -1, -2, 3, 0x1000, -0x10000, 0x123456, -0x123456, 2**23 - 1, -2**23, -2**23 + 1]]
k = Kernel("mul24_mad24", "mul24/mad24 .lo/.hi .u32/.s32, mad24.hi.sat.s32 (9.7.1.5, 9.7.1.6); inputs within 24 bits")
k.input("ua", "u32", [x for x in U24 for _ in U24])
k.input("ub", "u32", [y for _ in U24 for y in U24])
k.input("sa", "u32", [x for x in S24 for _ in S24])
k.input("sb", "u32", [y for _ in S24 for y in S24])
k.input("c", "u32", third(E32, 144))
for mode in ("lo", "hi"):
    k.output("mul24_%s_u32" % mode, "u32", "mul24.%s.u32 {d}, {ua}, {ub};" % mode,
             lambda ua, ub, sa, sb, c, mode=mode: mul24(mode, ua, ub, False))
    k.output("mul24_%s_s32" % mode, "u32", "mul24.%s.s32 {d}, {sa}, {sb};" % mode,
             lambda ua, ub, sa, sb, c, mode=mode: mul24(mode, sa, sb, True))
    k.output("mad24_%s_u32" % mode, "u32", "mad24.%s.u32 {d}, {ua}, {ub}, {c};" % mode,
             lambda ua, ub, sa, sb, c, mode=mode: mad24(mode, ua, ub, c, False))
    k.output("mad24_%s_s32" % mode, "u32", "mad24.%s.s32 {d}, {sa}, {sb}, {c};" % mode,
             lambda ua, ub, sa, sb, c, mode=mode: mad24(mode, sa, sb, c, True))
k.output("mad24_hi_sat_s32", "u32", "mad24.hi.sat.s32 {d}, {sa}, {sb}, {c};",
         lambda ua, ub, sa, sb, c: mad24("hi", sa, sb, c, True, sat=True))
k.write()

# =========================================================== 9.7.1.8/9 div, rem
def divpairs(n, signed, part):
    """ordered pairs of edge values, divisor != 0; for signed: part "nonneg" (both operands >= 0)
    or "neg" (at least one negative, MININT / -1 excluded); padded by repetition to `count`"""
    E = EDGE[n]
    P = [(x, y) for x in E for y in E if y != 0]
    if signed:
        P = [(x, y) for x, y in P if not (x == 1 << (n - 1) and y == M(n))]  # MININT / -1 overflows
        neg = lambda p: s(p[0], n) < 0 or s(p[1], n) < 0
        P = [p for p in P if neg(p) == (part == "neg")]
    return P


for sg, part in ((False, None), (True, "nonneg"), (True, "neg")):
    name = "div_rem_" + ("unsigned" if not sg else "signed" if part == "nonneg" else "signed_negative")
    desc = {None: "div/rem .u16/32/64, divisor != 0 (9.7.1.8, 9.7.1.9)",
            "nonneg": "div/rem .s16/32/64, both operands >= 0, divisor != 0 (9.7.1.8, 9.7.1.9)",
            "neg": "div/rem .s16/32/64 with a negative operand: truncation toward zero, remainder has the dividend's sign "
                   "(GPU/C behaviour; the manual calls rem of negatives machine-dependent, see README); MININT/-1 excluded"}[part]
    k = Kernel(name, desc)
    ps = {n: divpairs(n, sg, part) for n in (16, 32, 64)}
    cnt = max(len(p) for p in ps.values())
    assert cnt <= 256
    for n in (16, 32, 64):
        P = ps[n] + [ps[n][i % len(ps[n])] for i in range(cnt - len(ps[n]))]
        k.input("a%d" % n, UT[n], [p[0] for p in P])
        k.input("b%d" % n, UT[n], [p[1] for p in P])
    ty = "s" if sg else "u"
    for i, n in enumerate((16, 32, 64)):
        k.output("div_%s%d" % (ty, n), UT[n], "div.%s%d {d}, {a%d}, {b%d};" % (ty, n, n, n),
                 lambda *v, i=i, n=n, sg=sg: div(v[2 * i], v[2 * i + 1], n, sg))
        k.output("rem_%s%d" % (ty, n), UT[n], "rem.%s%d {d}, {a%d}, {b%d};" % (ty, n, n, n),
                 lambda *v, i=i, n=n, sg=sg: rem(v[2 * i], v[2 * i + 1], n, sg))
    k.write()

# division by zero: "yields an unspecified, machine-specific value" -> results not checked
k = Kernel("div_rem_by_zero", "div/rem by zero (unspecified value, 9.7.1.8 Notes) and MININT/-1: must not fault; outputs not checked")
for n in (16, 32, 64):
    k.input("a%d" % n, UT[n], EDGE[n] + [1 << (n - 1)])
    k.input("b%d" % n, UT[n], [0] * 16 + [M(n)])
for n in (16, 32, 64):
    for ty in ("u", "s"):
        for op in ("div", "rem"):
            k.output("%s_%s%d" % (op, ty, n), UT[n], "%s.%s%d {d}, {a%d}, {b%d};" % (op, ty, n, n, n), None, checked=False)
# a checked witness that the kernel ran to completion after the divisions
k.output("done", "u32", "mov.u32 {d}, 1;", lambda *v: 1)
k.write()

# =========================================================== 9.7.1.10/11 abs, neg
k = Kernel("abs_neg", "abs/neg .s16/.s32/.s64 incl. MININT (9.7.1.10, 9.7.1.11)")
for n in (16, 32, 64):
    k.input("a%d" % n, UT[n], EDGE[n])
for i, n in enumerate((16, 32, 64)):
    k.output("abs_s%d" % n, UT[n], "abs.s%d {d}, {a%d};" % (n, n), lambda *v, i=i, n=n: abs_(v[i], n))
    k.output("neg_s%d" % n, UT[n], "neg.s%d {d}, {a%d};" % (n, n), lambda *v, i=i, n=n: neg(v[i], n))
k.write()

# =========================================================== 9.7.1.12/13 min, max
for n in (16, 32, 64):
    t = UT[n]
    k = Kernel("min_max_%d" % n, "min/max .u%d/.s%d%s (9.7.1.12, 9.7.1.13)" % (n, n, ", min.relu/max.relu.s32" if n == 32 else ""))
    A, B = grid2(EDGE[n])
    k.input("a", t, A)
    k.input("b", t, B)
    for ty in ("u", "s"):
        k.output("min_%s%d" % (ty, n), t, "min.%s%d {d}, {a}, {b};" % (ty, n), lambda a, b, n=n, sg=(ty == "s"): min_(a, b, n, sg))
        k.output("max_%s%d" % (ty, n), t, "max.%s%d {d}, {a}, {b};" % (ty, n), lambda a, b, n=n, sg=(ty == "s"): max_(a, b, n, sg))
    if n == 32:
        k.output("min_relu_s32", t, "min.relu.s32 {d}, {a}, {b};", lambda a, b: min_(a, b, 32, True, True))
        k.output("max_relu_s32", t, "max.relu.s32 {d}, {a}, {b};", lambda a, b: max_(a, b, 32, True, True))
    k.write()

# =========================================================== packed .u16x2/.s16x2
P16 = [0x00000000, 0x00010001, 0xffffffff, 0x7fff8000, 0x80007fff, 0x0001ffff, 0xffff0001, 0x12345678,
       0x7fff7fff, 0x80008000, 0x00ff0100, 0xfffe0002, 0x8001fffe, 0x55aa33cc, 0x00000001, 0xdead0000]
k = Kernel("packed_16x2", "add/min/max .u16x2/.s16x2, min.relu/max.relu.s16x2 (9.7.1.1, 9.7.1.12, 9.7.1.13; sm_90)")
A, B = grid2(P16)
k.input("a", "u32", A)
k.input("b", "u32", B)
for ty in ("u", "s"):
    sg = ty == "s"
    k.output("add_%s16x2" % ty, "u32", "add.%s16x2 {d}, {a}, {b};" % ty, lambda a, b: packed(lambda x, y: add(x, y, 16), a, b, 16, 2))
    k.output("min_%s16x2" % ty, "u32", "min.%s16x2 {d}, {a}, {b};" % ty, lambda a, b, sg=sg: packed(lambda x, y: min_(x, y, 16, sg), a, b, 16, 2))
    k.output("max_%s16x2" % ty, "u32", "max.%s16x2 {d}, {a}, {b};" % ty, lambda a, b, sg=sg: packed(lambda x, y: max_(x, y, 16, sg), a, b, 16, 2))
k.output("min_relu_s16x2", "u32", "min.relu.s16x2 {d}, {a}, {b};", lambda a, b: packed(lambda x, y: min_(x, y, 16, True, True), a, b, 16, 2))
k.output("max_relu_s16x2", "u32", "max.relu.s16x2 {d}, {a}, {b};", lambda a, b: packed(lambda x, y: max_(x, y, 16, True, True), a, b, 16, 2))
k.write()

# =========================================================== 9.7.1.14-18 popc clz bfind brev
B32 = [0, 1, 2, 3, 0x80000000, 0x7fffffff, 0xffffffff, 0xfffffffe, 0x40000000, 0xc0000000, 0x00010000,
       0x0000ffff, 0x12345678, 0xdeadbeef, 0x55555555, 0xaaaaaaaa, 0x00000100, 0xbfffffff, 0x80000001, 0x0f0f0f0f] + \
      [1 << i for i in range(32)] + [u(~(1 << i), 32) for i in range(0, 32, 3)]
B64 = [0, 1, 2, 3, 1 << 63, M(63), M(64), M(64) - 1, 1 << 62, 3 << 62, 0xffffffff, 0x100000000,
       0x123456789abcdef0, 0xdeadbeefcafebabe, 0x5555555555555555, 0xaaaaaaaaaaaaaaaa, 0x80000000, 0xbfffffffffffffff,
       0x8000000000000001, 0x00000000ffff0000] + [1 << i for i in range(0, 64, 2)] + [u(~(1 << i), 64) for i in range(1, 64, 6)]
NB = min(len(B32), len(B64))
k = Kernel("bit_count", "popc, clz, brev .b32/.b64; bfind(.shiftamt) .u32/.s32/.u64/.s64 incl. zero and all-ones (9.7.1.14-16, 9.7.1.18)")
k.input("a32", "u32", B32[:NB])
k.input("a64", "u64", B64[:NB])
for i, n in enumerate((32, 64)):
    k.output("popc_b%d" % n, "u32", "popc.b%d {d}, {a%d};" % (n, n), lambda *v, i=i, n=n: popc(v[i], n))
    k.output("clz_b%d" % n, "u32", "clz.b%d {d}, {a%d};" % (n, n), lambda *v, i=i, n=n: clz(v[i], n))
    k.output("brev_b%d" % n, UT[n], "brev.b%d {d}, {a%d};" % (n, n), lambda *v, i=i, n=n: brev(v[i], n))
    for ty in ("u", "s"):
        for sa in (False, True):
            k.output("bfind%s_%s%d" % ("_shiftamt" if sa else "", ty, n), "u32",
                     "bfind%s.%s%d {d}, {a%d};" % (".shiftamt" if sa else "", ty, n, n),
                     lambda *v, i=i, n=n, sg=(ty == "s"), sa=sa: bfind(v[i], n, sg, sa))
k.write()

# =========================================================== 9.7.1.17 fns
FM = [0xffffffff, 0x00000000, 0x80000001, 0x12345678, 0xaaaaaaaa, 0x00010000, 0xf000000f, 0x55555555]
FB = [0, 1, 2, 3, 15, 16, 30, 31]
FO = [0, 1, 2, 3, -1, -2, -3, 5, -5, 16, -16, 32, -32, 33, 0x7fffffff, -0x80000000]
V = [(m, b, o) for m in FM for b in FB for o in FO][:256]
# the manual's four examples first.  ptx-isa-9.0.txt prints them with mask 0xffffffff, which contradicts
# its own Semantics (base 2, offset 1 would give 2); with mask 0xaaaaaaaa (as in NVIDIA's online manual)
# the examples agree with the pseudo-code, so that mask is used; see README.
ALL = [(m, b, o) for m in FM for b in FB[::2] for o in FO]
V = [(0xaaaaaaaa, 3, 1), (0xaaaaaaaa, 3, -1), (0xaaaaaaaa, 2, 1), (0xaaaaaaaa, 2, -1)] + \
    [x for i, x in enumerate(ALL) if (i + i // 16) % 2 == 0][:252]
k = Kernel("fns", "fns.b32 with offsets 0, +-n, beyond the mask; base 0..31 only (9.7.1.17)", target="sm_90")
k.input("mask", "u32", [v[0] for v in V])
k.input("base", "u32", [v[1] for v in V])
k.input("off", "u32", [u(v[2], 32) for v in V])
k.output("fns_b32", "u32", "fns.b32 {d}, {mask}, {base}, {off};", lambda m, b, o: fns(m, b, o))
k.write()
assert [fns(*x[:2], u(x[2], 32)) for x in V[:4]] == [3, 3, 3, 1]  # the manual's examples

# =========================================================== 9.7.1.19 bfe
A32 = [0x12345678, 0x87654321, 0xffffffff, 0x80000000]
A64 = [0x123456789abcdef0, 0xfedcba9876543210, 0xffffffffffffffff, 0x8000000000000000]
POS = [0, 1, 4, 8, 16, 24, 28, 31, 32, 33, 60, 63, 64, 255, 0x100, 0x104]
LEN = [0, 1, 4, 8, 31, 32, 33, 255, 0x100, 0x108, 64, 16]
# every (pos, len) pair once (192), with the source value rotating, plus 64 more with other sources
V = [((pi + li) % 4, p, l) for pi, p in enumerate(POS) for li, l in enumerate(LEN)]
V += [((pi + 2) % 4, p, LEN[(pi * 5 + k) % 12]) for pi, p in enumerate(POS) for k in range(4)]
k = Kernel("bfe", "bfe .u32/.s32/.u64/.s64: pos/len 0, in range, at and beyond msb, >255 (masked to 8 bits) (9.7.1.19)")
k.input("a32", "u32", [A32[v[0]] for v in V])
k.input("a64", "u64", [A64[v[0]] for v in V])
k.input("pos", "u32", [v[1] for v in V])
k.input("len", "u32", [v[2] for v in V])
for i, n in enumerate((32, 64)):
    for ty in ("u", "s"):
        k.output("bfe_%s%d" % (ty, n), UT[n], "bfe.%s%d {d}, {a%d}, {pos}, {len};" % (ty, n, n),
                 lambda a32, a64, p, l, n=n, sg=(ty == "s"): bfe(a32 if n == 32 else a64, p, l, n, sg))
k.write()

# =========================================================== 9.7.1.20 bfi
V = [((pi + li + 1) % 4, p, l) for pi, p in enumerate(POS) for li, l in enumerate(LEN)]
V += [((pi + 3) % 4, p, LEN[(pi * 7 + k) % 12]) for pi, p in enumerate(POS) for k in range(4)]
k = Kernel("bfi", "bfi .b32/.b64: pos/len 0, in range, beyond msb, >255 (9.7.1.20)")
k.input("a32", "u32", [A32[v[0]] for v in V])
k.input("b32", "u32", [A32[(v[0] + 1) % 4] ^ 0x0f0f0f0f for v in V])
k.input("a64", "u64", [A64[v[0]] for v in V])
k.input("b64", "u64", [A64[(v[0] + 1) % 4] ^ 0x0f0f0f0f0f0f0f0f for v in V])
k.input("pos", "u32", [v[1] for v in V])
k.input("len", "u32", [v[2] for v in V])
k.output("bfi_b32", "u32", "bfi.b32 {d}, {a32}, {b32}, {pos}, {len};", lambda a32, b32, a64, b64, p, l: bfi(a32, b32, p, l, 32))
k.output("bfi_b64", "u64", "bfi.b64 {d}, {a64}, {b64}, {pos}, {len};", lambda a32, b32, a64, b64, p, l: bfi(a64, b64, p, l, 64))
k.write()

# =========================================================== 9.7.1.21 szext
SA = [0x00000000, 0xffffffff, 0x12345678, 0x87654321, 0x00000080, 0x7fffffff, 0x80000000, 0x0000ff7f]
SN = [0, 1, 2, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 63, 64, 0xffffffff] + [4, 12, 20, 28, 30, 3, 5, 6, 10, 11, 13, 14, 18, 19, 21, 22]
V = [(a, b) for a in SA for b in SN]
k = Kernel("szext", "szext .clamp/.wrap .u32/.s32, N = 0..31, 32, >32 (9.7.1.21; sm_70)")
k.input("a", "u32", [v[0] for v in V])
k.input("b", "u32", [v[1] for v in V])
for mode in ("clamp", "wrap"):
    for ty in ("u", "s"):
        k.output("szext_%s_%s32" % (mode, ty), "u32", "szext.%s.%s32 {d}, {a}, {b};" % (mode, ty),
                 lambda a, b, mode=mode, sg=(ty == "s"): szext(mode, sg, a, b))
k.write()
assert szext("wrap", False, 0xffffffff, 0) == 0  # the manual's example

# =========================================================== 9.7.1.22 bmsk
BP = [0, 1, 2, 7, 16, 30, 31, 32, 33, 63, 0xffffffff, 5, 24, 29, 3, 64]
V = [(a, b) for a in BP for b in BP]
k = Kernel("bmsk", "bmsk .clamp/.wrap: position/width 0..31, 32, >32 (9.7.1.22; sm_70)")
k.input("a", "u32", [v[0] for v in V])
k.input("b", "u32", [v[1] for v in V])
for mode in ("clamp", "wrap"):
    k.output("bmsk_%s_b32" % mode, "u32", "bmsk.%s.b32 {d}, {a}, {b};" % mode, lambda a, b, mode=mode: bmsk(mode, a, b))
k.output("bmsk_wrap_imm_1_2", "u32", "bmsk.wrap.b32 {d}, 1, 2;", lambda a, b: bmsk("wrap", 1, 2))
k.write()
assert bmsk("wrap", 1, 2) == 0x6  # the manual's example

# =========================================================== 9.7.1.23/24 dp4a dp2a
DP = [0x00000000, 0x01010101, 0xffffffff, 0x80808080, 0x7f7f7f7f, 0x017f80ff, 0x12345678, 0xfedcba98,
      0x00ff00ff, 0xff00ff00, 0x80007fff, 0x7fff8000, 0x01000001, 0xdeadbeef, 0x00000080, 0x80000000]
A, B = grid2(DP)
k = Kernel("dp4a_dp2a", "dp4a and dp2a.lo/.hi with all four .u32/.s32 atype/btype mixes (9.7.1.23, 9.7.1.24; sm_61)")
k.input("a", "u32", A)
k.input("b", "u32", B)
k.input("c", "u32", third(E32, 256))
for at in ("u", "s"):
    for bt in ("u", "s"):
        k.output("dp4a_%s32_%s32" % (at, bt), "u32", "dp4a.%s32.%s32 {d}, {a}, {b}, {c};" % (at, bt),
                 lambda a, b, c, at=at, bt=bt: dp4a(a, b, c, at == "s", bt == "s"))
        for mode in ("lo", "hi"):
            k.output("dp2a_%s_%s32_%s32" % (mode, at, bt), "u32", "dp2a.%s.%s32.%s32 {d}, {a}, {b}, {c};" % (mode, at, bt),
                     lambda a, b, c, at=at, bt=bt, mode=mode: dp2a(mode, a, b, c, at == "s", bt == "s"))
k.write()

# =========================================================== 9.7.2 extended precision
W = [0, 1, 0xffffffff, 0xfffffffe, 0x80000000, 0x7fffffff, 0x12345678, 0xdeadbeef]


def words(x, k):
    return [(x >> (32 * i)) & M(32) for i in range(k)]


def join(ws):
    return sum(w << (32 * i) for i, w in enumerate(ws))


# 128-bit operand pairs: every combination of a few word patterns that makes carries ripple
V128 = []
for x in W:
    for y in W:
        V128.append(([x, 0xffffffff, 0xffffffff, x ^ 0x80000000], [y, 0, 0xffffffff, y]))
for i in range(64):
    x = (0x9e3779b97f4a7c15f39cc0605cedc834 * (i + 1)) & M(128)
    y = (0xc2b2ae3d27d4eb4f165667b19e3779f9 * (i + 7)) & M(128)
    if i % 4 == 0:
        y = M(128) - x + (i % 8)  # sums at/around 2**128
    V128.append((words(x, 4), words(y, 4)))
for i in range(128 - len(V128)):
    V128.append(([0xffffffff] * 4, words(i, 4)))
V128 = V128[:128]
def mad_cc_s32(a, b):
    """9.7.2.5/6: d = t<63..32> + c (carry-out to CC.CF); d = t<31..0> + c + CC.CF"""
    s0 = u((s(a[0], 32) * s(b[0], 32)) >> 32, 32) + a[1]
    cf = s0 >> 32
    s1 = u(s(a[2], 32) * s(b[2], 32), 32) + b[1] + cf
    return [u(s0, 32), u(s1, 32), s1 >> 32]


k = Kernel("extended_precision", "add.cc/addc/sub.cc/subc (.u32/.s32/.u64) chains of 64/96/128 bits with carry/borrow out; "
           "mad.lo.cc/madc.hi(.cc) 64x64->128 multiply (the manual's example) and 64-bit mad.cc (9.7.2)")
k.input("a", "u32", [v[0] for v in V128], words=4)
k.input("b", "u32", [v[1] for v in V128], words=4)
A4 = lambda a: join(a)
k.output("add128", "u32", """
    add.cc.u32 {d0}, {a0}, {b0};
    addc.cc.u32 {d1}, {a1}, {b1};
    addc.cc.u32 {d2}, {a2}, {b2};
    addc.cc.u32 {d3}, {a3}, {b3};
    addc.u32 {d4}, 0, 0;""", lambda a, b: words(join(a) + join(b), 5), words=5)
k.output("add96_s32", "u32", """
    add.cc.s32 {d0}, {a0}, {b0};
    addc.cc.s32 {d1}, {a1}, {b1};
    addc.s32 {d2}, {a2}, {b2};""", lambda a, b: words(join(a[:3]) + join(b[:3]), 3), words=3)
k.output("sub128", "u32", """
    sub.cc.u32 {d0}, {a0}, {b0};
    subc.cc.u32 {d1}, {a1}, {b1};
    subc.cc.u32 {d2}, {a2}, {b2};
    subc.cc.u32 {d3}, {a3}, {b3};
    subc.u32 {d4}, 0, 0;""", lambda a, b: words(join(a) - join(b), 5), words=5)
k.output("sub96_s32", "u32", """
    sub.cc.s32 {d0}, {a0}, {b0};
    subc.cc.s32 {d1}, {a1}, {b1};
    subc.s32 {d2}, {a2}, {b2};""", lambda a, b: words(join(a[:3]) - join(b[:3]), 3), words=3)
k.output("add128_u64", "u64", """
    mov.b64 %x0, {{{a0}, {a1}}};
    mov.b64 %x1, {{{a2}, {a3}}};
    mov.b64 %x2, {{{b0}, {b1}}};
    mov.b64 %x3, {{{b2}, {b3}}};
    add.cc.u64 {d0}, %x0, %x2;
    addc.cc.s64 {d1}, %x1, %x3;
    addc.u64 {d2}, 0, 0;""", lambda a, b: [x for x in [(join(a) + join(b)) & M(64), ((join(a) + join(b)) >> 64) & M(64), (join(a) + join(b)) >> 128]], words=3)
k.output("sub128_u64", "u64", """
    mov.b64 %x0, {{{a0}, {a1}}};
    mov.b64 %x1, {{{a2}, {a3}}};
    mov.b64 %x2, {{{b0}, {b1}}};
    mov.b64 %x3, {{{b2}, {b3}}};
    sub.cc.u64 {d0}, %x0, %x2;
    subc.cc.s64 {d1}, %x1, %x3;
    subc.u64 {d2}, 0, 0;""", lambda a, b: [(join(a) - join(b)) & M(64), ((join(a) - join(b)) >> 64) & M(64), ((join(a) - join(b)) >> 128) & M(64)], words=3)
# the manual's example (9.7.2.6): [r3,r2,r1,r0] = [r5,r4] * [r7,r6]
k.output("mul64x64", "u32", """
    mul.lo.u32 {d0}, {a0}, {b0};
    mul.hi.u32 {d1}, {a0}, {b0};
    mad.lo.cc.u32 {d1}, {a1}, {b0}, {d1};
    madc.hi.u32 {d2}, {a1}, {b0}, 0;
    mad.lo.cc.u32 {d1}, {a0}, {b1}, {d1};
    madc.hi.cc.u32 {d2}, {a0}, {b1}, {d2};
    addc.u32 {d3}, 0, 0;
    mad.lo.cc.u32 {d2}, {a1}, {b1}, {d2};
    madc.hi.u32 {d3}, {a1}, {b1}, {d3};""", lambda a, b: words(join(a[:2]) * join(b[:2]), 4), words=4)
# a*b + c over 128 bits with 64-bit mad.lo.cc / madc.hi, c = [b3,b2,a3,a2]
k.output("mad128_u64", "u64", """
    mov.b64 %x0, {{{a0}, {a1}}};
    mov.b64 %x1, {{{b0}, {b1}}};
    mov.b64 %x2, {{{a2}, {a3}}};
    mov.b64 %x3, {{{b2}, {b3}}};
    mad.lo.cc.u64 {d0}, %x0, %x1, %x2;
    madc.hi.cc.u64 {d1}, %x0, %x1, %x3;
    addc.u64 {d2}, 0, 0;""",
         lambda a, b: [(join(a[:2]) * join(b[:2]) + join(a[2:] + b[2:])) >> s_ & M(64) for s_ in (0, 64, 128)], words=3)
# signed 32-bit mad.hi.cc / madc.lo: d0 = hi(a0*b0) + a1 (carry), d1 = lo(a2*b2) + b1 + CF
k.output("mad_cc_s32", "u32", """
    mad.hi.cc.s32 {d0}, {a0}, {b0}, {a1};
    madc.lo.cc.s32 {d1}, {a2}, {b2}, {b1};
    addc.u32 {d2}, 0, 0;""", lambda a, b: mad_cc_s32(a, b), words=3)
k.write()

# =========================================================== 9.7.6 setp / set
CMPS = {"s": ["eq", "ne", "lt", "le", "gt", "ge"],
        "u": ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"],
        "b": ["eq", "ne"]}
for n in (16, 32, 64):
    t = UT[n]
    k = Kernel("setp_%d" % n, "setp with every integer CmpOp for .s%d/.u%d/.b%d, p|q destinations%s (9.7.6.2)"
               % (n, n, n, ", BoolOp and/or/xor with c and !c" if n == 32 else ""))
    A, B = grid2(EDGE[n])
    k.input("a", t, A)
    k.input("b", t, B)
    k.input("c", "u32", [(i * 5 // 3) & 1 for i in range(256)])
    for ty in ("s", "u", "b"):
        for op in CMPS[ty]:
            sg = ty == "s"
            k.output("setp_%s_%s%d" % (op, ty, n), "u32", setp_snip(op, "%s%d" % (ty, n)),
                     lambda a, b, c, op=op, n=n, sg=sg: pq(cmp(op, a, b, n, sg), not cmp(op, a, b, n, sg)))
    if n == 32:
        for bo in ("and", "or", "xor"):
            for op, ty in (("lt", "s"), ("hs", "u")):
                for negc in (False, True):
                    k.output("setp_%s_%s_%s32%s" % (op, bo, ty, "_notc" if negc else ""), "u32",
                             setp_snip(op, "%s32" % ty, bo, negc),
                             lambda a, b, c, op=op, bo=bo, sg=(ty == "s"), negc=negc:
                             pq(boolop(bo, cmp(op, a, b, 32, sg), (c != 0) != negc),
                                boolop(bo, not cmp(op, a, b, 32, sg), (c != 0) != negc)))
        # set: integer destination gets 0xffffffff / 0, .f32 destination 1.0f / 0
        k.output("set_lt_u32_s32", "u32", "set.lt.u32.s32 {d}, {a}, {b};",
                 lambda a, b, c: 0xffffffff if cmp("lt", a, b, 32, True) else 0)
        k.output("set_hi_s32_u32", "u32", "set.hi.s32.u32 {d}, {a}, {b};",
                 lambda a, b, c: 0xffffffff if cmp("hi", a, b, 32, False) else 0)
        k.output("set_eq_f32_b32", "u32", "set.eq.f32.b32 {d}, {a}, {b};",
                 lambda a, b, c: 0x3f800000 if a == b else 0)
        k.output("set_ge_xor_u32_s32_notc", "u32", "setp.ne.u32 %p2, {c}, 0;\nset.ge.xor.u32.s32 {d}, {a}, {b}, !%p2;",
                 lambda a, b, c: 0xffffffff if boolop("xor", cmp("ge", a, b, 32, True), c == 0) else 0)
    k.write()

# =========================================================== 9.7.6.3/4 selp slct
F32C = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x00000001, 0x80000001, 0x7f800000, 0xff800000,
        0x7fc00000, 0xffc00000, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff]
S32C = [0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x80000001, 0x12345678, 0xdeadbeef]
V = [(i, f, sc) for i in range(2) for f in F32C for sc in S32C]
k = Kernel("selp_slct", "selp .b16/.b32/.b64/.s32/.u64; slct .s32 (c>=0 incl. 0, MININT) and .f32 (+-0, subnormals with/without .ftz, +-inf, NaN) (9.7.6.3, 9.7.6.4)")
n = len(V)
k.input("a16", "u16", [0x1234 + i for i in range(n)])
k.input("b16", "u16", [0xfedc - i for i in range(n)])
k.input("a32", "u32", [0xa0000000 + i for i in range(n)])
k.input("b32", "u32", [0x0b000000 + i for i in range(n)])
k.input("a64", "u64", [0xaaaa000000000000 + i for i in range(n)])
k.input("b64", "u64", [0x5555000000000000 + i for i in range(n)])
k.input("cs", "u32", [v[2] for v in V])
k.input("cf", "f32", [v[1] for v in V])


def f32_ge0(bits, ftz):
    """c >= 0 for an f32 bit pattern; NaN -> False (b selected); -0 == 0; .ftz flushes subnormals to +-0"""
    e, m, sgn = (bits >> 23) & 0xff, bits & 0x7fffff, bits >> 31
    if e == 0xff and m:
        return False
    if e == 0 and (m == 0 or ftz):
        return True
    return sgn == 0


sel = lambda c, a, b: a if c else b
for t, w in (("b16", "16"), ("b32", "32"), ("s32", "32"), ("b64", "64"), ("u64", "64")):
    k.output("selp_%s" % t, "u%s" % w, "setp.lt.s32 %%p0, {cs}, 0;\nselp.%s {d}, {a%s}, {b%s}, %%p0;" % (t, w, w),
             lambda a16, b16, a32, b32, a64, b64, cs, cf, w=w: sel(s(cs, 32) < 0, *{"16": (a16, b16), "32": (a32, b32), "64": (a64, b64)}[w]))
for t, w in (("b16", "16"), ("u32", "32"), ("s64", "64")):
    k.output("slct_%s_s32" % t, "u%s" % w, "slct.%s.s32 {d}, {a%s}, {b%s}, {cs};" % (t, w, w),
             lambda a16, b16, a32, b32, a64, b64, cs, cf, w=w: sel(s(cs, 32) >= 0, *{"16": (a16, b16), "32": (a32, b32), "64": (a64, b64)}[w]))
    k.output("slct_%s_f32" % t, "u%s" % w, "slct.%s.f32 {d}, {a%s}, {b%s}, {cf};" % (t, w, w),
             lambda a16, b16, a32, b32, a64, b64, cs, cf, w=w: sel(f32_ge0(cf, False), *{"16": (a16, b16), "32": (a32, b32), "64": (a64, b64)}[w]))
k.output("slct_ftz_b32_f32", "u32", "slct.ftz.b32.f32 {d}, {a32}, {b32}, {cf};",
         lambda a16, b16, a32, b32, a64, b64, cs, cf: sel(f32_ge0(cf, True), a32, b32))
k.write()

# =========================================================== 9.7.8.1-5 and or xor not cnot
L16 = [0, 1, 0x8000, 0xffff, 0x1234, 0xf0f0, 0x00ff, 0x5555]
L32 = [0, 1, 0x80000000, 0xffffffff, 0x12345678, 0xf0f0f0f0, 0x0000ffff, 0x55555555]
L64 = [0, 1, 1 << 63, M(64), 0x123456789abcdef0, 0xf0f0f0f0f0f0f0f0, 0x00000000ffffffff, 0x5555555555555555]
k = Kernel("logic", "and/or/xor/not .b16/.b32/.b64 and .pred, cnot .b16/.b32/.b64 (9.7.8.1-9.7.8.5)")
k.input("a16", "u16", [x for x in L16 for _ in L16])
k.input("b16", "u16", [y for _ in L16 for y in L16])
k.input("a32", "u32", [x for x in L32 for _ in L32])
k.input("b32", "u32", [y for _ in L32 for y in L32])
k.input("a64", "u64", [x for x in L64 for _ in L64])
k.input("b64", "u64", [y for _ in L64 for y in L64])
OPS = {"and": lambda x, y: x & y, "or": lambda x, y: x | y, "xor": lambda x, y: x ^ y}
for i, n in enumerate((16, 32, 64)):
    for op, f in OPS.items():
        k.output("%s_b%d" % (op, n), UT[n], "%s.b%d {d}, {a%d}, {b%d};" % (op, n, n, n),
                 lambda *v, i=i, f=f: f(v[2 * i], v[2 * i + 1]))
    k.output("not_b%d" % n, UT[n], "not.b%d {d}, {a%d};" % (n, n), lambda *v, i=i, n=n: u(~v[2 * i], n))
    k.output("cnot_b%d" % n, UT[n], "cnot.b%d {d}, {a%d};" % (n, n), lambda *v, i=i: 1 if v[2 * i] == 0 else 0)
# predicates: p = (a32 != 0), q = (b32 != 0)
for op, f in list(OPS.items()) + [("not", None)]:
    body = "setp.ne.b32 %p0, {a32}, 0;\nsetp.ne.b32 %p1, {b32}, 0;\n"
    body += ("not.pred %p2, %p0;\n" if op == "not" else "%s.pred %%p2, %%p0, %%p1;\n" % op)
    body += "selp.u32 {d}, 1, 0, %p2;"
    k.output("%s_pred" % op, "u32", body,
             lambda a16, b16, a32, b32, a64, b64, op=op, f=f: int(not a32) if op == "not" else int(bool(f(int(a32 != 0), int(b32 != 0)))))
k.output("and_b32_imm", "u32", "and.b32 {d}, {a32}, 0x80000000;", lambda *v: v[2] & 0x80000000)
k.output("xor_b16_imm", "u16", "xor.b16 {d}, {a16}, 0x0001;", lambda *v: v[0] ^ 1)
k.write()

# =========================================================== 9.7.8.6 lop3
LUTS = [0x00, 0xff, 0x80, 0xfe, 0x40, 0x1a, 0x96, 0xe8, 0xca, 0xf0, 0xcc, 0xaa, 0x0f, 0x3c, 0x6a, 0x01, 0x7f, 0xb4]
LV = [0x00000000, 0xffffffff, 0xf0f0f0f0, 0xcccccccc, 0xaaaaaaaa, 0x12345678, 0x80000001, 0x0000ffff]
V = [(x, y, z) for i, x in enumerate(LV) for j, y in enumerate(LV) for k, z in enumerate(LV) if (i + j + k) % 2 == 0]
k = Kernel("lop3", "lop3.b32 with 18 immLut values (incl. the manual's 0x80, 0xfe, 0x40, 0x1a), and lop3.or/.and with predicate output (9.7.8.6)",
           version="8.2", target="sm_90")
k.input("a", "u32", [v[0] for v in V])
k.input("b", "u32", [v[1] for v in V])
k.input("c", "u32", [v[2] for v in V])
for lut in LUTS:
    k.output("lop3_%02x" % lut, "u32", "lop3.b32 {d}, {a}, {b}, {c}, 0x%02x;" % lut, lambda a, b, c, lut=lut: lop3(a, b, c, lut))
# .BoolOp: p = (d != 0) BoolOp q; q = (a == b) here.  Output d | p<<... kept apart: d checked above, p in its own buffer.
for bo in ("or", "and"):
    for lut in (0x3f, 0x80):
        k.output("lop3_%s_%02x_p" % (bo, lut), "u32",
                 "setp.eq.b32 %%p1, {a}, {b};\nlop3.%s.b32 %%t2|%%p0, {a}, {b}, {c}, 0x%02x, %%p1;\nand.b32 %%t2, %%t2, 0xff;\nselp.u32 %%t3, 0x100, 0, %%p0;\nor.b32 {d}, %%t2, %%t3;" % (bo, lut)
                 if lut == 0x80 else
                 "setp.eq.b32 %%p1, {a}, {b};\nlop3.%s.b32 _|%%p0, {a}, {b}, {c}, 0x%02x, %%p1;\nselp.u32 {d}, 0x100, 0, %%p0;" % (bo, lut),
                 lambda a, b, c, bo=bo, lut=lut: ((lop3(a, b, c, lut) & 0xff) if lut == 0x80 else 0) |
                 (0x100 if boolop(bo, lop3(a, b, c, lut) != 0, a == b) else 0))
k.write()
assert lop3(0xF0, 0xCC, 0xAA, 0x1A) & 0xff == (0xF0 & 0xCC | 0xAA) ^ 0xF0

# =========================================================== 9.7.8.7 shf
SH = [0, 1, 4, 8, 16, 31, 32, 33, 63, 64, 0xff, 0xffffffff, 0x80000000, 0x21, 0x1f, 0x20]
SV = [(0x12345678, 0x9abcdef0), (0xffffffff, 0x00000000), (0x00000000, 0xffffffff), (0x80000001, 0x7ffffffe),
      (0xdeadbeef, 0xdeadbeef), (0x00000001, 0x80000000), (0xcafebabe, 0x01234567), (0xffffffff, 0xffffffff)]
V = [(a, b, c) for a, b in SV for c in SH]
k = Kernel("shf", "shf.l/.r .clamp/.wrap .b32, shift 0..31, 32, >32 (9.7.8.7), incl. rotate (a == b)")
k.input("a", "u32", [v[0] for v in V])
k.input("b", "u32", [v[1] for v in V])
k.input("c", "u32", [v[2] for v in V])
for dr in ("l", "r"):
    for mode in ("clamp", "wrap"):
        k.output("shf_%s_%s" % (dr, mode), "u32", "shf.%s.%s.b32 {d}, {a}, {b}, {c};" % (dr, mode),
                 lambda a, b, c, dr=dr, mode=mode: shf(dr, mode, a, b, c))
k.output("shf_l_clamp_imm16", "u32", "shf.l.clamp.b32 {d}, {a}, {b}, 16;", lambda a, b, c: shf("l", "clamp", a, b, 16))
k.write()

# =========================================================== 9.7.8.8/9 shl shr
AMT = [0, 1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 0xffffffff]
X16 = [0x8001, 0x7fff, 0xffff, 0x1234]
X32 = [0x80000001, 0x7fffffff, 0xffffffff, 0x12345678]
X64 = [0x8000000000000001, 0x7fffffffffffffff, M(64), 0x123456789abcdef0]
V = [(i, amt) for i in range(4) for amt in AMT]
k = Kernel("shl_shr", "shl .b16/.b32/.b64, shr .b/.u/.s 16/32/64; amounts 0..N-1, N, >N, 0xffffffff (clamped to N) (9.7.8.8, 9.7.8.9)")
k.input("a16", "u16", [X16[v[0]] for v in V])
k.input("a32", "u32", [X32[v[0]] for v in V])
k.input("a64", "u64", [X64[v[0]] for v in V])
k.input("sh", "u32", [v[1] for v in V])
for i, n in enumerate((16, 32, 64)):
    k.output("shl_b%d" % n, UT[n], "shl.b%d {d}, {a%d}, {sh};" % (n, n), lambda *v, i=i, n=n: shl(v[i], v[3], n))
    for ty in ("b", "u", "s"):
        k.output("shr_%s%d" % (ty, n), UT[n], "shr.%s%d {d}, {a%d}, {sh};" % (ty, n, n),
                 lambda *v, i=i, n=n, sg=(ty == "s"): shr(v[i], v[3], n, sg))
k.output("shl_b32_imm5", "u32", "shl.b32 {d}, {a32}, 5;", lambda *v: shl(v[1], 5, 32))
k.output("shr_s32_imm31", "u32", "shr.s32 {d}, {a32}, 31;", lambda *v: shr(v[1], 31, 32, True))
k.output("shr_s64_imm40", "u64", "shr.s64 {d}, {a64}, 40;", lambda *v: shr(v[2], 40, 64, True))
k.write()

# =========================================================== 9.7.9.7 prmt
PA = [(0x33221100, 0x77665544), (0x8091a2b3, 0xc4d5e6f7), (0x7f80ff01, 0x00fe7e81), (0xdeadbeef, 0xcafebabe)]
PC = [0x3210, 0x7654, 0x4321, 0x0000, 0x7777, 0x8888, 0xffff, 0xba98, 0x1357, 0x9bdf, 0x0123, 0x5140,
      0xffff3210, 0x12340001, 0x00000002, 0xfffffff3, 0x7, 0x8c4a, 0x6e2a, 0xc840, 0xdd99, 0x0f0f, 0xf0f0, 0x4444,
      0x00010002, 0x00000001, 0x00000003, 0x00000006, 0xabcd0000, 0x89abcdef, 0x76543210, 0xfedcba98]
V = [(a, b, c) for a, b in PA for c in PC]
k = Kernel("prmt", "prmt.b32 default (copy and sign-replicate selectors) and .f4e/.b4e/.rc8/.ecl/.ecr/.rc16, all selectors, upper bits of c ignored (9.7.9.7)")
k.input("a", "u32", [v[0] for v in V])
k.input("b", "u32", [v[1] for v in V])
k.input("c", "u32", [v[2] for v in V])
k.output("prmt_b32", "u32", "prmt.b32 {d}, {a}, {b}, {c};", lambda a, b, c: prmt(None, a, b, c))
for mode in ("f4e", "b4e", "rc8", "ecl", "ecr", "rc16"):
    k.output("prmt_b32_%s" % mode, "u32", "prmt.b32.%s {d}, {a}, {b}, {c};" % mode, lambda a, b, c, mode=mode: prmt(mode, a, b, c))
k.output("prmt_b32_imm", "u32", "prmt.b32 {d}, {a}, {b}, 0x5140;", lambda a, b, c: prmt(None, a, b, 0x5140))
k.write()
assert prmt(None, 0x33221100, 0x77665544, 0x3210) == 0x33221100

# =========================================================== PTX 9.2 packed .u8x4/.s8x4, add.sat.{u32,u16x2,s16x2}
P8 = [0x00000000, 0x01010101, 0xffffffff, 0x7f7f7f7f, 0x80808080, 0x7f80ff01, 0x017f80ff, 0x12345678,
      0xfedcba98, 0x00ff00ff, 0x81817f7f, 0xc0403f01, 0x80000000, 0x0000007f, 0x7fff8000, 0xffff0001]
A, B = grid2(P8)
k = Kernel("packed_9_2", "PTX 9.2: add/sub/min/max/neg .u8x4/.s8x4 and add.sat .u32/.u16x2/.s16x2 (9.2 manual 1.3; "
           "semantics by analogy with 9.0's lane-wise .u16x2/.s16x2 text, see README)", version="9.2", target="sm_90")
k.input("a", "u32", A)
k.input("b", "u32", B)
for ty in ("u", "s"):
    sg = ty == "s"
    k.output("add_%s8x4" % ty, "u32", "add.%s8x4 {d}, {a}, {b};" % ty, lambda a, b: packed(lambda x, y: add(x, y, 8), a, b, 8, 4))
    k.output("sub_%s8x4" % ty, "u32", "sub.%s8x4 {d}, {a}, {b};" % ty, lambda a, b: packed(lambda x, y: sub(x, y, 8), a, b, 8, 4))
    k.output("min_%s8x4" % ty, "u32", "min.%s8x4 {d}, {a}, {b};" % ty, lambda a, b, sg=sg: packed(lambda x, y: min_(x, y, 8, sg), a, b, 8, 4))
    k.output("max_%s8x4" % ty, "u32", "max.%s8x4 {d}, {a}, {b};" % ty, lambda a, b, sg=sg: packed(lambda x, y: max_(x, y, 8, sg), a, b, 8, 4))
    k.output("neg_%s8x4" % ty, "u32", "neg.%s8x4 {d}, {a};" % ty, lambda a, b: packed(lambda x, y: u(-x, 8), a, 0, 8, 4))
k.output("add_sat_u32", "u32", "add.sat.u32 {d}, {a}, {b};", lambda a, b: min(a + b, M(32)))
k.output("add_sat_u16x2", "u32", "add.sat.u16x2 {d}, {a}, {b};", lambda a, b: packed(lambda x, y: min(x + y, M(16)), a, b, 16, 2))
k.output("add_sat_s16x2", "u32", "add.sat.s16x2 {d}, {a}, {b};",
         lambda a, b: packed(lambda x, y: u(clamp(s(x, 16) + s(y, 16), -2**15, 2**15 - 1), 16), a, b, 16, 2))
k.write()

# =========================================================== README (from gen/README.template.md)
rows = ["| case (.ptx + .json) | vectors | output buffers (`out_` + name) | covers |", "| --- | --- | --- | --- |"]
for name, desc, nv, outs in INDEX:
    rows.append("| %s | %d | %s | %s |" % (name, nv, ", ".join(outs), desc))
tpl = open(os.path.join(OUTDIR, "gen", "README.template.md")).read()
with open(os.path.join(OUTDIR, "README.md"), "w") as f:
    f.write(tpl.replace("{{INDEX}}", "\n".join(rows)))
