"""Generates the float conformance suite (../*.ptx, ../*.json, ../README.md).

Every expected value is computed by ieee.py from the operands' bit patterns
with exact rational arithmetic and explicit rounding; see ../README.md.
Run: cd testdata/conformance/float/gen && python3 -B gen.py
"""
import os
import random
from fractions import Fraction

import half
import narrow
import ieee as F
from ieee import decode as D
from kernel import Kernel, INDEX, OUTDIR

W = {"f32": 32, "f64": 64}
HALF = Fraction(1, 2)


class Ambiguous(Exception):
    """The manual leaves this result open; the vector is not used for this output."""


# ------------------------------------------------------------ semantics
def fin(bits, t, ftz):
    return F.ftz(bits, t, ftz)


def fout(v, t, mode, ftz, sat=False):
    """Round exact V v to t; then .ftz flush and .sat clamp of the result."""
    r = F.round_to(v, t, mode)
    if ftz and v.kind == "num" and 0 < v.mag < Fraction(2) ** -126 and not F.is_sub(r, t) and r & 0x7fffffff:
        raise Ambiguous("ftz of a result that rounds up to the smallest normal")
    r = F.ftz(r, t, ftz)
    if sat:
        x = D(r, t)
        if x.kind == "nan":
            return 0
        if x.is_zero() and x.sign:
            raise Ambiguous(".sat of -0")
        if x.sign:
            return 0
        if x.kind == "inf" or x.mag > 1:
            return F.encode_exact(0, Fraction(1), t)
    return r


def op_add(t, mode="rn", ftz=False, sat=False, sub=False):
    def f(a, b):
        x, y = D(fin(a, t, ftz), t), D(fin(b, t, ftz), t)
        return fout(F.add(x, F.neg(y) if sub else y, mode), t, mode, ftz, sat)
    return f


def op_mul(t, mode="rn", ftz=False, sat=False):
    return lambda a, b: fout(F.mul(D(fin(a, t, ftz), t), D(fin(b, t, ftz), t)), t, mode, ftz, sat)


def op_div(t, mode="rn", ftz=False):
    return lambda a, b: fout(F.div(D(fin(a, t, ftz), t), D(fin(b, t, ftz), t)), t, mode, ftz)


def op_fma(t, mode="rn", ftz=False, sat=False):
    return lambda a, b, c: fout(F.fma(D(fin(a, t, ftz), t), D(fin(b, t, ftz), t), D(fin(c, t, ftz), t), mode),
                                t, mode, ftz, sat)


def op_rcp(t, mode="rn", ftz=False):
    one = F.encode_exact(0, Fraction(1), t)
    return lambda a: op_div(t, mode, ftz)(one, a)


def op_sqrt(t, mode="rn", ftz=False):
    def f(a):
        x = D(fin(a, t, ftz), t)
        r = F.sqrt_round(x, t, mode)
        return F.ftz(r, t, ftz)  # a root of a normal is normal; of a subnormal: normal
    return f


def op_rsqrt(t):
    def f(a):
        x = D(a, t)
        return F.sqrt_round(V1(1 / x.mag), t)
    return f


def V1(m):
    return F.V("num", 0, Fraction(m))


def op_minmax(t, op, ftz=False):
    def f(a, b):
        r = F.minmax(D(fin(a, t, ftz), t), D(fin(b, t, ftz), t), op)
        return F.encode_v(r, t)
    return f


def op_absneg(t, op, ftz=False):
    w = W[t]

    def f(a):
        a = fin(a, t, ftz)
        if F.is_nan(a, t):
            return F.QNAN[t]
        return a & ~(1 << (w - 1)) if op == "abs" else a ^ (1 << (w - 1))
    return f


def op_copysign(t):
    w = W[t]
    return lambda a, b: (b & ~(1 << (w - 1))) | (a & (1 << (w - 1)))


CMPS = ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]


def cmp_test(op, c):
    if op == "num":
        return c != "un"
    if op == "nan":
        return c == "un"
    if c == "un":
        return op.endswith("u")
    base = op[:2]
    return {"eq": c == 0, "ne": c != 0, "lt": c < 0, "le": c <= 0, "gt": c > 0, "ge": c >= 0}[base]


def op_setp(t, op, ftz=False):
    def f(a, b):
        r = cmp_test(op, F.compare(D(fin(a, t, ftz), t), D(fin(b, t, ftz), t)))
        return (1 if r else 0) | (0 if r else 2)
    return f


# float -> integer (9.7.9.21)
INT = {"s16": (16, True), "u16": (16, False), "s32": (32, True), "u32": (32, False),
       "s64": (64, True), "u64": (64, False)}


def op_f2i(dt, at, irnd, ftz=False):
    bits, signed = INT[dt]
    mode = irnd[:2]  # rni -> rn ...

    def f(a):
        x = D(fin(a, at, ftz), at)
        if x.kind == "nan":
            # 9.7.9.21: 0 if the source is not .f64 and the destination is not 64-bit,
            # else 1 << (BitWidth(dst) - 1)
            return 0 if at != "f64" and bits != 64 else 1 << (bits - 1)
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        if x.kind == "inf":
            v = lo if x.sign else hi
        else:
            n = F.round_int(x.mag, mode, x.sign)
            v = -n if x.sign else n
            v = max(lo, min(hi, v))
        return v & ((1 << bits) - 1)
    return f


def op_i2f(dt, at, frnd):
    bits, signed = INT[at]

    def f(a):
        v = a - (1 << bits) if signed and a >> (bits - 1) else a
        return F.round_to(F.num(v), dt, frnd)
    return f


def op_f2f(dt, at, frnd=None, irnd=None, ftz=False, sat=False):
    """cvt between f32/f64 (frnd) or same-size integer rounding (irnd); .ftz applies to f32 sides."""
    def f(a):
        x = D(F.ftz(a, at, ftz and at == "f32"), at)
        if irnd:
            if x.kind == "num":
                n = F.round_int(x.mag, irnd[:2], x.sign)
                x = F.V("num", x.sign, Fraction(n))
            return fout(x, dt, "rn", ftz and dt == "f32", sat)
        return fout(x, dt, frnd or "rn", ftz and dt == "f32", sat)
    return f


def op_set_f32(t, op):
    one = F.encode_exact(0, Fraction(1), "f32")
    return lambda a, b: one if op_setp(t, op)(a, b) & 1 else 0


def op_set_u32(t, op):
    return lambda a, b: 0xffffffff if op_setp(t, op)(a, b) & 1 else 0


# ------------------------------------------------------------ values
def fbits(t, sign, mant, exp):
    """Bits of (-1)^sign * mant * 2^exp, which must be exactly representable."""
    return F.encode_exact(sign, Fraction(mant) * Fraction(2) ** exp, t)


E32 = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x00000001, 0x807fffff, 0x00800000, 0x80800001,
       0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x3f800001, 0x4b800000, 0xb3800000]
E64 = [0x0000000000000000, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
       0x0000000000000001, 0x800fffffffffffff, 0x0010000000000000, 0x8010000000000001,
       0x7fefffffffffffff, 0xffefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000,
       0x7ff8000000000000, 0x3ff0000000000001, 0x4340000000000000, 0xbca0000000000000]
EDGE = {"f32": E32, "f64": E64}
SNAN = {"f32": 0x7f800001, "f64": 0x7ff0000000000001}
P = {"f32": 24, "f64": 53}
EMIN = {"f32": -126, "f64": -1022}
EMAX = {"f32": 127, "f64": 1023}


def pairs(E):
    return [a for a in E for _ in E], [b for _ in E for b in E]


def rand_val(R, t, elo, ehi, sign=None):
    p = P[t]
    s = R.getrandbits(1) if sign is None else sign
    m = (1 << (p - 1)) | R.getrandbits(p - 1)
    if R.random() < 0.25:  # few significant bits
        m = (1 << (p - 1)) | (R.getrandbits(6) << (p - 7))
    return fbits(t, s, m, R.randint(elo, ehi) - (p - 1))


def ulp_exp(t, bits):
    """Exponent of the ulp of a normal value."""
    x = D(bits, t)
    return F.ilog2(x.mag) - (P[t] - 1)


def add_round_vectors(t, R, n=224):
    """Halfway cases, cancellation, overflow, subnormal results, signed-zero results."""
    p, A, B = P[t], [], []

    def v(a, b):
        A.append(a)
        B.append(b)
    one = fbits(t, 0, 1, 0)
    # ties: 1 + half ulp (to even: down), (1+ulp) + half ulp (to even: up), and just above
    for s in (0, 1):
        v(fbits(t, s, 1, 0), fbits(t, s, 1, -p))
        v(fbits(t, s, (1 << (p - 1)) + 1, -(p - 1)), fbits(t, s, 1, -p))
        v(fbits(t, s, 1, 0), fbits(t, s, (1 << (p - 1)) + 1, -p - (p - 1)))
        v(fbits(t, s, 1, 0), fbits(t, 1 - s, 1, -p - 1))   # 1 - quarter-ulp-of-1 ... tie below 1
        v(fbits(t, s, 3, 0), fbits(t, s, 1, -p + 1))       # 3 + ulp(2)/2: tie -> even
    # overflow: max + half ulp of max (tie, odd -> up -> inf), max + quarter ulp (stays max)
    mx = F.encode_exact(0, F.maxfinite(t), t)
    top = EMAX[t] - (p - 1)
    for s in (0, 1):
        v(mx | s << (W[t] - 1), fbits(t, s, 1, top - 1))
        v(mx | s << (W[t] - 1), fbits(t, s, 1, top - 2))
        v(mx | s << (W[t] - 1), mx | s << (W[t] - 1))
    # signed zeros
    z, nz = 0, 1 << (W[t] - 1)
    for a, b in ((z, z), (nz, nz), (z, nz), (nz, z), (one, one | nz), (one | nz, one)):
        v(a, b)
    # subnormal results, and results at the subnormal/normal boundary
    mn = fbits(t, 0, 1, EMIN[t])
    sub1 = fbits(t, 0, 1, EMIN[t] - (p - 1))
    v(mn, sub1 | nz)                  # largest subnormal
    v(mn | nz, sub1)
    v(sub1 * 3, sub1 | nz)            # 3 - 1 = 2 min subnormals
    v(fbits(t, 0, (1 << (p - 1)) + 1, EMIN[t] - (p - 1)), mn | nz)   # exact subnormal
    v(fbits(t, 0, 3, EMIN[t] - 1), fbits(t, 1, 1, EMIN[t]))  # 1.5mn - mn = 0.5 mn
    # sNaN, inf - inf
    v(SNAN[t], one)
    v(one, SNAN[t])
    inf = F.encode_inf(0, t)
    v(inf, inf | nz)
    v(inf | nz, inf)
    v(inf, mx)
    # random pairs with close exponents (cancellation and rounding)
    while len(A) < n:
        e = R.randint(-40, 40)
        a = rand_val(R, t, e, e)
        b = rand_val(R, t, e - R.randint(0, p + 3), e)
        if R.random() < 0.5:
            a, b = b, a
        v(a, b)
    return A, B


def mul_round_vectors(t, R, n=224):
    p, A, B = P[t], [], []

    def v(a, b):
        A.append(a)
        B.append(b)
    # exact ties: products of two odd significands with p+1 bits
    h = (p + 2) // 2
    cnt = 0
    while cnt < 40:
        ma = R.randrange(1 << (h - 1), 1 << h) | 1
        mb = R.randrange(1 << (h - 1), 1 << h) | 1
        if (ma * mb).bit_length() == p + 1:
            s = R.getrandbits(1)
            v(fbits(t, s, ma, R.randint(-20, 0)), fbits(t, R.getrandbits(1), mb, R.randint(-20, 0)))
            cnt += 1
    emin, emax = EMIN[t], EMAX[t]
    # underflow: exact subnormal, ties at the bottom, total underflow
    v(fbits(t, 0, 1, emin // 2), fbits(t, 0, 1, emin // 2 - 10))
    v(fbits(t, 0, 1, (emin - p) // 2), fbits(t, 0, 1, emin - p - (emin - p) // 2))      # 2^(emin-p): half of min sub: tie -> 0
    v(fbits(t, 0, 3, (emin - p) // 2 - 1), fbits(t, 1, 1, emin - p - (emin - p) // 2))  # 1.5*2^(emin-p) -> min sub
    v(fbits(t, 0, 5, (emin - p) // 2 - 2), fbits(t, 0, 1, emin - p - (emin - p) // 2))  # 1.25*... -> min sub
    v(fbits(t, 0, 3, (emin - p) // 2 - 2), fbits(t, 0, 1, emin - p - (emin - p) // 2))  # 0.75 -> min sub
    v(fbits(t, 1, 1, emin), fbits(t, 0, 1, -p - 5))                                      # -> -0
    v(fbits(t, 0, 1, emin), fbits(t, 0, 1, -(p - 1)))                                    # min sub exact
    # overflow
    v(fbits(t, 0, 1, emax), fbits(t, 0, 1, 1))
    v(fbits(t, 1, 1, emax), fbits(t, 0, 1, 1))
    mx = F.encode_exact(0, F.maxfinite(t), t)
    v(mx, fbits(t, 0, (1 << (p - 1)) + 1, -(p - 1)))
    v(mx, fbits(t, 0, 1, 0))
    # signed zeros and infinities
    nz = 1 << (W[t] - 1)
    inf = F.encode_inf(0, t)
    for a, b in ((0, nz), (nz, nz), (nz, fbits(t, 0, 3, 0)), (inf, 0), (inf | nz, fbits(t, 0, 1, emin - p + 1)),
                 (SNAN[t], 0)):
        v(a, b)
    while len(A) < n:
        v(rand_val(R, t, -60, 60), rand_val(R, t, -60, 60))
    return A, B


def div_vectors(t, R, n=224):
    p, A, B = P[t], [], []

    def v(a, b):
        A.append(a)
        B.append(b)
    emin = EMIN[t]
    one = fbits(t, 0, 1, 0)
    nz = 1 << (W[t] - 1)
    inf = F.encode_inf(0, t)
    sub1 = fbits(t, 0, 1, emin - p + 1)
    # exact quotients
    for _ in range(30):
        q = rand_val(R, t, -10, 10)
        b = fbits(t, R.getrandbits(1), R.randrange(1, 1 << 8) | 1, R.randint(-5, 5))
        a = F.round_to(F.mul(D(q, t), D(b, t)), t)
        if F.mul(D(q, t), D(b, t)).mag == D(a, t).mag:
            v(a, b)
    for a, b in ((one, fbits(t, 0, 3, 0)), (fbits(t, 0, 6, 0), fbits(t, 0, 3, 0)), (one, fbits(t, 0, 1, 2)),
                 (sub1, fbits(t, 0, 1, 1)),          # half min sub: tie -> 0
                 (sub1 * 3, fbits(t, 0, 1, 1)),      # 1.5 min sub -> 2 min sub (even)
                 (sub1 * 5, fbits(t, 0, 1, 1)),      # 2.5 -> 2
                 (sub1 * 7, fbits(t, 1, 1, 2)),      # -1.75 -> -2
                 (fbits(t, 0, 1, emin), fbits(t, 0, 1, 10)),
                 (one, F.encode_exact(0, F.maxfinite(t), t)),      # subnormal result
                 (F.encode_exact(0, F.maxfinite(t), t), fbits(t, 0, 1, -1)),   # overflow
                 (one, sub1),                        # overflow
                 (sub1, F.encode_exact(0, F.maxfinite(t), t)),     # underflow to 0
                 (0, 0), (nz, one), (one, nz), (0, nz), (inf, inf), (inf, nz), (fbits(t, 1, 1, 0), inf),
                 (one, 0), (SNAN[t], one), (inf | nz, fbits(t, 0, 3, 0))):
        v(a, b)
    while len(A) < n:
        v(rand_val(R, t, -60, 60), rand_val(R, t, -60, 60))
    return A, B


def unary_vectors(t, R, n=192):
    """Inputs for sqrt/rcp: specials, perfect squares, powers of two, subnormals, randoms."""
    p, emin = P[t], EMIN[t]
    nz = 1 << (W[t] - 1)
    inf = F.encode_inf(0, t)
    mx = F.encode_exact(0, F.maxfinite(t), t)
    L = [0, nz, inf, inf | nz, F.QNAN[t], SNAN[t], fbits(t, 1, 1, 0), fbits(t, 1, 1, emin - p + 1), mx,
         fbits(t, 0, 1, emin - p + 1), fbits(t, 0, 1, emin - p + 2), fbits(t, 0, 3, emin - p + 1),
         F.encode_exact(0, Fraction(2) ** emin - Fraction(2) ** (emin - p + 1), t), fbits(t, 0, 1, emin),
         fbits(t, 0, 1, EMAX[t]), fbits(t, 0, 3, EMAX[t] - 1), fbits(t, 0, 2, 0), fbits(t, 0, 3, 0)]
    for k in range(1, 20):
        m = R.randrange(1, 1 << ((p - 1) // 2))
        L.append(F.round_to(F.num(Fraction(m * m) * Fraction(4) ** R.randint(-8, 8)), t))
    for e in (-3, -2, -1, 1, 2, 3, 20, -20):
        L.append(fbits(t, 0, 1, e))
    while len(L) < n:
        L.append(rand_val(R, t, -80, 80, sign=0 if R.random() < 0.9 else 1))
    return L


def fma_vectors(t, R, n=192):
    p, A, B, C = P[t], [], [], []
    emin, emax = EMIN[t], EMAX[t]

    def v(a, b, c):
        A.append(a)
        B.append(b)
        C.append(c)
    nz = 1 << (W[t] - 1)
    mx = F.encode_exact(0, F.maxfinite(t), t)
    one = fbits(t, 0, 1, 0)
    # the product is the exact error of a rounded product: a*b - round(a*b)
    for _ in range(24):
        a, b = rand_val(R, t, -20, 20), rand_val(R, t, -20, 20)
        r = F.round_to(F.mul(D(a, t), D(b, t)), t)
        v(a, b, r ^ nz)
    # product overflows but the sum is finite: max*2 - max = max
    v(mx, fbits(t, 0, 1, 1), mx | nz)
    v(mx | nz, fbits(t, 0, 1, 1), mx)
    v(fbits(t, 0, 1, emax), fbits(t, 0, 1, 1), fbits(t, 1, 3, emax - 1))
    # product underflows below the smallest subnormal but contributes to the sum
    v(fbits(t, 0, 1, emin), fbits(t, 0, 1, -p - 3), fbits(t, 0, 1, emin - p + 1))
    v(fbits(t, 0, 1, emin // 2), fbits(t, 0, 1, emin // 2 - p - 10), one)   # 1 + tiny -> 1
    # a*b + c with c = -a*b exactly: +0 (rn), and -0 + -0
    v(one, one, one | nz)
    v(nz, one, nz)
    v(0, one | nz, nz)
    v(0, one, nz)
    # a * b exact tie against c: 1 + 2^-p (tie), with and without a sticky bit from the product
    v(fbits(t, 0, 1, -p), one, one)
    v(fbits(t, 0, (1 << (p - 1)) + 1, -p - (p - 1)), one, one)
    v(fbits(t, 0, (1 << (p - 1)) - 1, -p - (p - 1)), one, one)
    # specials
    inf = F.encode_inf(0, t)
    for a, b, c in ((inf, 0, one), (inf, one, inf | nz), (inf, one, one), (one, one, inf | nz), (SNAN[t], one, one),
                    (one, one, F.QNAN[t]), (0, inf, F.QNAN[t])):
        v(a, b, c)
    while len(A) < n:
        e = R.randint(-30, 30)
        a, b = rand_val(R, t, e, e), rand_val(R, t, -10, 10)
        c = rand_val(R, t, e - 5, e + 15)
        v(a, b, c)
    return A, B, C


def double_rounding_fma_f32(R, n=32):
    """f32 fma vectors where rounding the exact result to f64 first, then to f32,
    gives a different (wrong) f32 than rounding once."""
    A, B, C = [], [], []
    tries = 0
    while len(A) < n:
        tries += 1
        assert tries < 10000
        # c = f32 with an odd significand, ulp(c) = 2^ec; a*b = ulp(c)/2 * (1 - 2^-2k): just
        # below half an ulp, by less than f64 can hold next to c, so f64 rounding makes a tie
        mc = (1 << 23) | R.getrandbits(23) | 1
        ec = R.randint(-40, 40)
        k = R.randint(15, 22)
        c = fbits("f32", R.getrandbits(1), mc, ec)
        a = fbits("f32", R.getrandbits(1), (1 << 23) + (1 << (23 - k)), ec - 1 - 23)
        b = fbits("f32", 0, (1 << 23) - (1 << (23 - k)), -23)
        ex = F.fma(D(a, "f32"), D(b, "f32"), D(c, "f32"))
        once = F.round_to(ex, "f32")
        twice = F.round_to(D(F.round_to(ex, "f64"), "f64"), "f32")
        if once != twice:
            A.append(a)
            B.append(b)
            C.append(c)
    return A, B, C


# ------------------------------------------------------------ kernels
def snippet_setp(op, t, ftz=False):
    return ("setp.%s%s.%s %%p0|%%p1, {a}, {b};\nselp.u32 %%t0, 1, 0, %%p0;\nselp.u32 %%t1, 2, 0, %%p1;\n"
            "or.b32 {d}, %%t0, %%t1;" % (op, ".ftz" if ftz else "", t))


def build():
    R = random.Random(20250611)
    for t in ("f32", "f64"):
        ft = (False, True) if t == "f32" else (False,)
        sfx = "" if t == "f64" else ""

        def fz(x):
            return ".ftz" if x else ""

        # ---- add/sub: edge pairs
        k = Kernel("add_sub_%s_edges" % t, "add/sub.%s on all pairs of 16 edge values" % t)
        a, b = pairs(EDGE[t])
        k.input("a", t, a)
        k.input("b", t, b)
        for z in ft:
            k.output("add_rn%s" % fz(z).replace(".", "_"), t, "add.rn%s.%s {d}, {a}, {b};" % (fz(z), t), op_add(t, ftz=z))
            k.output("sub_rn%s" % fz(z).replace(".", "_"), t, "sub.rn%s.%s {d}, {a}, {b};" % (fz(z), t), op_add(t, ftz=z, sub=True))
        k.output("add", t, "add.%s {d}, {a}, {b};" % t, op_add(t))
        k.write("arith")
        # ---- add/sub: rounding
        k = Kernel("add_sub_%s_round" % t, "add/sub.%s: ties, cancellation, overflow, subnormal and zero results" % t)
        a, b = add_round_vectors(t, R)
        k.input("a", t, a)
        k.input("b", t, b)
        for z in ft:
            k.output("add_rn%s" % fz(z).replace(".", "_"), t, "add.rn%s.%s {d}, {a}, {b};" % (fz(z), t), op_add(t, ftz=z))
            k.output("sub_rn%s" % fz(z).replace(".", "_"), t, "sub.rn%s.%s {d}, {a}, {b};" % (fz(z), t), op_add(t, ftz=z, sub=True))
        k.write("arith")
        ADD_V = (a, b)
        # ---- mul
        for nm, (a, b), d in (("edges", pairs(EDGE[t]), "all pairs of 16 edge values"),
                              ("round", mul_round_vectors(t, R), "ties, underflow, overflow, signed zeros, random")):
            k = Kernel("mul_%s_%s" % (t, nm), "mul.%s: %s" % (t, d))
            k.input("a", t, a)
            k.input("b", t, b)
            for z in ft:
                k.output("mul_rn%s" % fz(z).replace(".", "_"), t, "mul.rn%s.%s {d}, {a}, {b};" % (fz(z), t), op_mul(t, ftz=z))
            k.output("mul", t, "mul.%s {d}, {a}, {b};" % t, op_mul(t))
            k.write("arith")
            MUL_V = (a, b)
        # ---- div
        for nm, (a, b), d in (("edges", pairs(EDGE[t]), "all pairs of 16 edge values"),
                              ("round", div_vectors(t, R), "exact quotients, subnormal ties, overflow, specials, random")):
            k = Kernel("div_%s_%s" % (t, nm), "div.rn.%s: %s" % (t, d))
            k.input("a", t, a)
            k.input("b", t, b)
            for z in ft:
                k.output("div_rn%s" % fz(z).replace(".", "_"), t, "div.rn%s.%s {d}, {a}, {b};" % (fz(z), t), op_div(t, ftz=z))
            k.write("arith")
            DIV_V = (a, b)
        # ---- sqrt, rcp
        u = unary_vectors(t, R)
        k = Kernel("sqrt_rcp_%s" % t, "sqrt.rn and rcp.rn.%s: specials, subnormals, perfect squares, random" % t)
        k.input("a", t, u)
        for z in ft:
            k.output("sqrt_rn%s" % fz(z).replace(".", "_"), t, "sqrt.rn%s.%s {d}, {a};" % (fz(z), t), op_sqrt(t, ftz=z))
            k.output("rcp_rn%s" % fz(z).replace(".", "_"), t, "rcp.rn%s.%s {d}, {a};" % (fz(z), t), op_rcp(t, ftz=z))
        k.write("arith")
        # ---- fma / mad
        Ea, Eb = pairs(EDGE[t])
        Ec = [EDGE[t][(i * 7 + i // 16) % 16] for i in range(256)]
        for nm, (a, b, c), d in (("edges", (Ea, Eb, Ec), "edge pairs with a third edge operand"),
                                 ("round", fma_vectors(t, R), "fused vs separately rounded, overflowing products, ties, random")):
            k = Kernel("fma_%s_%s" % (t, nm), "fma.rn/mad.rn.%s: %s" % (t, d))
            k.input("a", t, a)
            k.input("b", t, b)
            k.input("c", t, c)
            for z in ft:
                k.output("fma_rn%s" % fz(z).replace(".", "_"), t, "fma.rn%s.%s {d}, {a}, {b}, {c};" % (fz(z), t), op_fma(t, ftz=z))
            k.output("mad_rn", t, "mad.rn.%s {d}, {a}, {b}, {c};" % t, op_fma(t))
            k.write("arith")
            FMA_V = (a, b, c)
        if t == "f32":
            a, b, c = double_rounding_fma_f32(R)
            k = Kernel("fma_f32_double_rounding", "fma.rn.f32 where rounding to f64 first, then to f32, is wrong")
            k.input("a", t, a)
            k.input("b", t, b)
            k.input("c", t, c)
            k.output("fma_rn", t, "fma.rn.f32 {d}, {a}, {b}, {c};", op_fma(t))
            k.output("mad_rn_ftz", t, "mad.rn.ftz.f32 {d}, {a}, {b}, {c};", op_fma(t, ftz=True))
            k.write("arith")
        # ---- min/max/abs/neg/copysign
        k = Kernel("min_max_%s" % t, "min/max.%s on all pairs of 16 edge values (NaN, -0 < +0)" % t)
        a, b = pairs(EDGE[t])
        k.input("a", t, a)
        k.input("b", t, b)
        for z in ft:
            for op in ("min", "max"):
                k.output("%s%s" % (op, fz(z).replace(".", "_")), t, "%s%s.%s {d}, {a}, {b};" % (op, fz(z), t), op_minmax(t, op, z))
        k.output("copysign", t, "copysign.%s {d}, {a}, {b};" % t, op_copysign(t), compare={"mode": "bits"})
        k.write("minmax")
        k = Kernel("abs_neg_%s" % t, "abs/neg.%s on edge values" % t)
        k.input("a", t, EDGE[t] + [SNAN[t], EDGE[t][5] ^ (1 << (W[t] - 1)), EDGE[t][4] ^ (1 << (W[t] - 1))])
        for z in ft:
            for op in ("abs", "neg"):
                k.output("%s%s" % (op, fz(z).replace(".", "_")), t, "%s%s.%s {d}, {a};" % (op, fz(z), t), op_absneg(t, op, z))
        k.write("minmax")
        # ---- setp / set / selp
        k = Kernel("setp_%s" % t, "setp.CmpOp.%s, all 14 comparisons, on all pairs of 16 edge values" % t)
        a, b = pairs(EDGE[t])
        k.input("a", t, a)
        k.input("b", t, b)
        for op in CMPS:
            k.output(op, "u32", snippet_setp(op, t), op_setp(t, op))
        k.write("compare")
        if t == "f32":
            k = Kernel("setp_f32_ftz", "setp.CmpOp.ftz.f32 on all pairs of 16 edge values (subnormals compare as zero)")
            k.input("a", t, a)
            k.input("b", t, b)
            for op in CMPS:
                k.output(op, "u32", snippet_setp(op, t, True), op_setp(t, op, True))
            k.write("compare")
        k = Kernel("set_selp_%s" % t, "set.CmpOp.{f32,u32}.%s and selp.%s on edge pairs" % (t, t))
        k.input("a", t, a)
        k.input("b", t, b)
        for op in ("lt", "equ", "ne", "nan", "geu"):
            k.output("set_%s_f32" % op, "f32", "set.%s.f32.%s {d}, {a}, {b};" % (op, t), op_set_f32(t, op))
            k.output("set_%s_u32" % op, "u32", "set.%s.u32.%s {d}, {a}, {b};" % (op, t), op_set_u32(t, op))
        k.output("selp_gtu", t, "setp.gtu.%s %%p0, {a}, {b};\nselp.%s {d}, {a}, {b}, %%p0;" % (t, t),
                 lambda x, y: x if op_setp(t, "gtu")(x, y) & 1 else y, compare={"mode": "bits"})
        k.write("compare")

        # ---- directed rounding (pending numerics work)
        dirs = ("rz", "rm", "rp")
        k = Kernel("add_mul_%s_directed" % t, "add/sub/mul.{rz,rm,rp}.%s (directed rounding)" % t)
        k.input("a", t, ADD_V[0])
        k.input("b", t, ADD_V[1])
        for m in dirs:
            k.output("add_" + m, t, "add.%s.%s {d}, {a}, {b};" % (m, t), op_add(t, m))
            k.output("sub_" + m, t, "sub.%s.%s {d}, {a}, {b};" % (m, t), op_add(t, m, sub=True))
            k.output("mul_" + m, t, "mul.%s.%s {d}, {a}, {b};" % (m, t), op_mul(t, m))
        if t == "f32":
            k.output("add_rz_ftz", t, "add.rz.ftz.f32 {d}, {a}, {b};", op_add(t, "rz", True))
        k.write("directed")
        k = Kernel("div_%s_directed" % t, "div/rcp.{rz,rm,rp}.%s (directed rounding)" % t)
        k.input("a", t, DIV_V[0])
        k.input("b", t, DIV_V[1])
        for m in dirs:
            k.output("div_" + m, t, "div.%s.%s {d}, {a}, {b};" % (m, t), op_div(t, m))
            k.output("rcp_" + m, t, "rcp.%s.%s {d}, {b};" % (m, t), lambda a, b, m=m: op_rcp(t, m)(b))
        k.write("directed")
        k = Kernel("sqrt_%s_directed" % t, "sqrt.{rz,rm,rp}.%s (directed rounding)" % t)
        k.input("a", t, u)
        for m in dirs:
            k.output("sqrt_" + m, t, "sqrt.%s.%s {d}, {a};" % (m, t), op_sqrt(t, m))
        k.write("directed")
        k = Kernel("fma_%s_directed" % t, "fma.{rz,rm,rp}.%s (directed rounding; exact zero is -0 under .rm)" % t)
        k.input("a", t, FMA_V[0])
        k.input("b", t, FMA_V[1])
        k.input("c", t, FMA_V[2])
        for m in dirs:
            k.output("fma_" + m, t, "fma.%s.%s {d}, {a}, {b}, {c};" % (m, t), op_fma(t, m))
        k.write("directed")

    build_sat(R)
    build_cvt(R)
    build_approx(R)
    build_f16(R)
    half.build(random.Random(20250612))
    narrow.build(random.Random(20250613))


def filt(vectors, fns):
    """Drops the vectors for which some expected value is Ambiguous."""
    keep = []
    for v in zip(*vectors):
        try:
            for f in fns:
                f(*v)
            keep.append(v)
        except Ambiguous:
            pass
    return [list(x) for x in zip(*keep)]


def build_sat(R):
    t = "f32"
    fns = [op_add(t, sat=True), op_add(t, sat=True, sub=True), op_mul(t, sat=True), op_fma(t, sat=True),
           op_add(t, ftz=True, sat=True)]
    one = fbits(t, 0, 1, 0)
    base = [0x3f000000, 0x3f400000, 0x3f800000, 0xbf000000, 0x40000000, 0x7f800000, 0xff800000, 0x7fc00000,
            0x00000001, 0x3f7fffff, 0x00800000, 0x33800000, 0xc0000000, 0x3e800000, 0x7f7fffff, 0xbf7fffff]
    a, b = pairs(base)
    c = [base[(i * 5 + 3) % 16] for i in range(256)]
    a, b, c = filt((a, b, c), [lambda x, y, z, f=f: f(x, y) for f in fns[:3] + fns[4:]] + [fns[3]])
    k = Kernel("arith_sat_f32", "add/sub/mul/fma/mad .sat.f32: clamp to [0,1], NaN -> +0")
    k.input("a", t, a)
    k.input("b", t, b)
    k.input("c", t, c)
    k.output("add_sat", t, "add.sat.f32 {d}, {a}, {b};", lambda x, y, z: fns[0](x, y))
    k.output("sub_rn_sat", t, "sub.rn.sat.f32 {d}, {a}, {b};", lambda x, y, z: fns[1](x, y))
    k.output("mul_rn_sat", t, "mul.rn.sat.f32 {d}, {a}, {b};", lambda x, y, z: fns[2](x, y))
    k.output("fma_rn_sat", t, "fma.rn.sat.f32 {d}, {a}, {b}, {c};", fns[3])
    k.output("mad_rn_sat", t, "mad.rn.sat.f32 {d}, {a}, {b}, {c};", fns[3])
    k.output("add_rn_ftz_sat", t, "add.rn.ftz.sat.f32 {d}, {a}, {b};", lambda x, y, z: fns[4](x, y))
    k.write("sat")
    del one


def build_cvt(R):
    # ---- float -> int
    for at in ("f32", "f64"):
        p = P[at]
        vals = []
        for x in (0, HALF, Fraction(3, 2), Fraction(5, 2), Fraction(7, 2), Fraction(1, 4), Fraction(3, 4), 1, 2,
                  Fraction(1001, 1000), Fraction(-1, 1000), Fraction(2 ** 20 + 1, 2), 100):
            for s in (0, 1):
                vals.append(F.round_to(F.num(x), at) ^ s << (W[at] - 1))
        for e in (15, 16, 31, 32, 63, 64):
            for x in (Fraction(2) ** e, Fraction(2) ** e + Fraction(2) ** (e - p + 1), Fraction(2) ** e - Fraction(2) ** (e - p)):
                for sg in (0, 1):
                    vals.append(F.round_to(V1(x), at) | sg << (W[at] - 1))
        for x in (Fraction(2 ** 15) - HALF, Fraction(2 ** 16) - HALF, Fraction(2 ** 31) - HALF, Fraction(2 ** 15) + HALF):
            for s in (0, 1):
                vals.append(F.round_to(F.num(x), at) ^ s << (W[at] - 1))
        nz = 1 << (W[at] - 1)
        vals += [F.encode_inf(0, at), F.encode_inf(1, at), EDGE[at][4], EDGE[at][4] | nz, EDGE[at][5],
                 F.encode_exact(0, F.maxfinite(at), at), F.encode_exact(1, F.maxfinite(at), at)]
        while len(vals) < 128:
            vals.append(rand_val(R, at, -3, 66))
        k = Kernel("cvt_%s_to_int" % at, "cvt.{rni,rzi,rmi,rpi}{.ftz}.{s16,u16,s32,u32,s64,u64}.%s: ties, saturation" % at)
        k.input("a", at, vals)
        for dt in ("s32", "u32", "s64", "u64", "s16", "u16"):
            for irnd in ("rni", "rzi", "rmi", "rpi"):
                if dt in ("s16", "u16") and irnd in ("rmi", "rpi"):
                    continue
                k.output("%s_%s" % (irnd, dt), dt, "cvt.%s.%s.%s {d}, {a};" % (irnd, dt, at), op_f2i(dt, at, irnd))
        if at == "f32":
            k.output("rni_ftz_s32", "s32", "cvt.rni.ftz.s32.f32 {d}, {a};", op_f2i("s32", at, "rni", True))
            k.output("rpi_ftz_u32", "u32", "cvt.rpi.ftz.u32.f32 {d}, {a};", op_f2i("u32", at, "rpi", True))
            k.output("rmi_ftz_s64", "s64", "cvt.rmi.ftz.s64.f32 {d}, {a};", op_f2i("s64", at, "rmi", True))
        k.write("cvt")
    # NaN inputs to float->int: the manual's rule depends on source and destination widths
    k = Kernel("cvt_nan_to_int", "cvt.rzi/rni int.{f32,f64} of NaN: 0, or 1 << (width-1) from f64 or to 64-bit")
    k.input("a", "f32", [0x7fc00000, 0xffc00000, 0x7f800001, 0x7fffffff])
    k.input("b", "f64", [0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0x7fffffffffffffff])
    for at, reg in (("f32", "a"), ("f64", "b")):
        for dt in ("s32", "u32", "s64", "u64", "s16"):
            snip = "cvt.rzi.%s.%s {d}, {%s};" % (dt, at, reg)
            k.output("rzi_%s_%s" % (dt, at), dt, snip,
                     (lambda x, y, dt=dt, at=at: op_f2i(dt, at, "rzi")(x if at == "f32" else y)))
    k.write("cvt")
    # ---- int -> float
    v32 = [0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x80000001, 1 << 24, (1 << 24) + 1, (1 << 24) + 3,
           (1 << 25) + 2, (1 << 25) + 6, (1 << 24) - 1, 0xfeffffff, 0xff000001, 0xff000003, 0xffffff7f, 0xffffff80,
           0xffffff81, 0x7fffffc0, 0x7fffffbf, 0x7fffffff - 64, 0x12345678, 0x87654321]
    while len(v32) < 64:
        v32.append(R.getrandbits(32) >> R.randint(0, 31))
    k = Kernel("cvt_int32_to_float", "cvt.rn.{f32,f64}.{s32,u32}: rounding near 2^24, 2^31, 2^32")
    k.input("a", "u32", v32)
    for dt in ("f32", "f64"):
        for at in ("s32", "u32"):
            k.output("%s_%s" % (dt, at), dt, "cvt.rn.%s.%s {d}, {a};" % (dt, at), op_i2f(dt, at, "rn"))
    k.write("cvt")
    v64 = [0, 1, (1 << 64) - 1, (1 << 63) - 1, 1 << 63, (1 << 63) + 1, 1 << 53, (1 << 53) + 1, (1 << 53) + 3,
           (1 << 54) + 2, (1 << 54) + 6, (1 << 53) - 1, (1 << 24) + 1, (1 << 24) + 3,
           (1 << 63) + (1 << 39), (1 << 63) + (1 << 39) + 1, (1 << 63) + (1 << 40) + (1 << 39),
           (1 << 63) + (1 << 10), (1 << 63) + (1 << 10) + 1, (1 << 63) + (1 << 11) + (1 << 10),
           (1 << 64) - (1 << 10), (1 << 64) - (1 << 10) - 1, (1 << 64) - (1 << 39), (1 << 64) - (1 << 39) - 1,
           (1 << 64) - (1 << 11), (1 << 62) + (1 << 38) + 1, (1 << 62) + (1 << 38), (1 << 62) + (1 << 9) + 1,
           (1 << 64) - (1 << 53), 0xfff0000000000001, 0xffffffffff7fffff, 0xffffff7fffffffff, 0xffffff8000000000,
           0xffffff8000000001, 0xfffffffffffffc00, 0xfffffffffffffbff, 0x8000008000000001, 0x8000000000000401,
           0x0020000000000001, 0x0020000000000003, 0x123456789abcdef1]
    while len(v64) < 96:
        v64.append(R.getrandbits(64) >> R.randint(0, 63))
    k = Kernel("cvt_int64_to_float", "cvt.rn.{f32,f64}.{s64,u64}: rounding near 2^24, 2^53, 2^63, 2^64 (no double rounding)")
    k.input("a", "u64", v64)
    for dt in ("f32", "f64"):
        for at in ("s64", "u64"):
            k.output("%s_%s" % (dt, at), dt, "cvt.rn.%s.%s {d}, {a};" % (dt, at), op_i2f(dt, at, "rn"))
    k.write("cvt")
    k = Kernel("cvt_int_to_float_sat", "cvt.rn.sat.{f32,f64}.{s32,u32}: .sat clamps a floating-point result to [0,1]")
    k.input("a", "u32", v32)
    for dt, at in (("f32", "s32"), ("f32", "u32"), ("f64", "s32")):
        k.output("sat_%s_%s" % (dt, at), dt, "cvt.rn.sat.%s.%s {d}, {a};" % (dt, at),
                 lambda x, dt=dt, at=at: fout(D(op_i2f(dt, at, "rn")(x), dt), dt, "rn", False, True))
    k.write("cvt")
    v16 = [0, 1, 0xffff, 0x7fff, 0x8000, 0x8001, 0x1234, 0xfedc]
    k = Kernel("cvt_int16_to_float", "cvt.rn.{f32,f64}.{s16,u16}")
    k.input("a", "u16", v16)
    for dt in ("f32", "f64"):
        for at in ("s16", "u16"):
            k.output("%s_%s" % (dt, at), dt, "cvt.rn.%s.%s {d}, {a};" % (dt, at), op_i2f(dt, at, "rn"))
    k.write("cvt")
    # ---- f64 -> f32 and f32 -> f64
    nz = 1 << 63
    d = []
    for x in (1 + Fraction(1, 2 ** 24), 1 + Fraction(3, 2 ** 24), 1 + Fraction(1, 2 ** 24) + Fraction(1, 2 ** 52),
              1 + Fraction(1, 2 ** 24) - Fraction(1, 2 ** 53), Fraction(1, 3), Fraction(2, 3),
              F.maxfinite("f32"), F.maxfinite("f32") + Fraction(2) ** 103, F.maxfinite("f32") + Fraction(2) ** 103 - Fraction(2) ** 74,
              Fraction(2) ** 128, Fraction(2) ** -126, Fraction(2) ** -126 - Fraction(2) ** -150,   # rounds up to min normal
              Fraction(2) ** -149, Fraction(2) ** -150, Fraction(2) ** -150 + Fraction(2) ** -180, Fraction(3, 2) * Fraction(2) ** -149,
              Fraction(2) ** -160, Fraction(2) ** -130 + Fraction(2) ** -151, Fraction(5, 4) * Fraction(2) ** -140,
              HALF, Fraction(3, 4), Fraction(1, 4), Fraction(3, 2), Fraction(5, 2), Fraction(9, 8), 100):
        for s in (0, 1):
            d.append(F.round_to(V1(x), "f64") | s << 63)
    d += [0, nz, F.encode_inf(0, "f64"), F.encode_inf(1, "f64"), 0x7ff8000000000000, 0x7ff0000000000001, 1, 1 | nz,
          0x7fefffffffffffff, 0x000fffffffffffff]
    while len(d) < 96:
        d.append(rand_val(R, "f64", -160, 140))
    k = Kernel("cvt_f64_to_f32", "cvt.rn{.ftz}{.sat}.f32.f64 and cvt.{rni,rzi,rmi,rpi}{.sat}.f64.f64: rounding, overflow, subnormals")
    fns = [op_f2f("f32", "f64", "rn", sat=True), op_f2f("f64", "f64", irnd="rni", sat=True),
           op_f2f("f32", "f64", "rn", ftz=True), op_f2f("f32", "f64", "rz", ftz=True)]
    d = filt((d,), fns)[0]
    k.input("a", "f64", d)
    k.output("rn", "f32", "cvt.rn.f32.f64 {d}, {a};", op_f2f("f32", "f64", "rn"))
    k.output("rn_ftz", "f32", "cvt.rn.ftz.f32.f64 {d}, {a};", op_f2f("f32", "f64", "rn", ftz=True))
    k.output("rn_sat", "f32", "cvt.rn.sat.f32.f64 {d}, {a};", fns[0])
    for irnd in ("rni", "rzi", "rmi", "rpi"):
        k.output(irnd + "_f64", "f64", "cvt.%s.f64.f64 {d}, {a};" % irnd, op_f2f("f64", "f64", irnd=irnd))
    k.output("rni_sat_f64", "f64", "cvt.rni.sat.f64.f64 {d}, {a};", fns[1])
    k.write("cvt")
    # directed f64->f32 and int->float
    k = Kernel("cvt_f64_to_f32_directed", "cvt.{rz,rm,rp}.f32.f64 (directed rounding)")
    k.input("a", "f64", d)
    for m in ("rz", "rm", "rp"):
        k.output(m, "f32", "cvt.%s.f32.f64 {d}, {a};" % m, op_f2f("f32", "f64", m))
    k.output("rz_ftz", "f32", "cvt.rz.ftz.f32.f64 {d}, {a};", op_f2f("f32", "f64", "rz", ftz=True))
    k.write("directed")
    k = Kernel("cvt_int_to_float_directed", "cvt.{rz,rm,rp}.{f32,f64}.{s64,u64} (directed rounding)")
    k.input("a", "u64", v64)
    for m in ("rz", "rm", "rp"):
        for dt, at in (("f32", "s64"), ("f32", "u64"), ("f64", "s64"), ("f64", "u64")):
            k.output("%s_%s_%s" % (m, dt, at), dt, "cvt.%s.%s.%s {d}, {a};" % (m, dt, at), op_i2f(dt, at, m))
    k.write("directed")
    # f32 -> f64 (exact), f32 -> f32 integer rounding, .sat, .ftz
    s = []
    for x in (0, HALF, Fraction(3, 2), Fraction(5, 2), Fraction(1, 4), Fraction(3, 4), 1, Fraction(7, 8),
              Fraction(2 ** 23 + 1, 2), Fraction(2 ** 22 + 1, 2), Fraction(2 ** 23 - 1, 2), 2 ** 24, 12345, Fraction(1, 3)):
        for sg in (0, 1):
            s.append(F.round_to(V1(x), "f32") | sg << 31)
    s += [0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff,
          0x00800000, 0x7f7fffff, 0xff7fffff]
    while len(s) < 64:
        s.append(rand_val(R, "f32", -130, 30))
    fns = [op_f2f("f32", "f32", irnd=i, sat=True) for i in ("rni", "rzi")] + \
          [op_f2f("f32", "f32", sat=True), op_f2f("f32", "f32", ftz=True, sat=True), op_f2f("f64", "f32", sat=True),
           op_f2f("f32", "f32", irnd="rzi", ftz=True, sat=True)]
    s = filt((s,), fns)[0]
    k = Kernel("cvt_f32_to_f64_f32", "cvt{.ftz}{.sat}.f64.f32, cvt.{rni,rzi,rmi,rpi}{.ftz}{.sat}.f32.f32, cvt{.ftz}.sat.f32.f32")
    k.input("a", "f32", s)
    k.output("f64", "f64", "cvt.f64.f32 {d}, {a};", op_f2f("f64", "f32"))
    k.output("ftz_f64", "f64", "cvt.ftz.f64.f32 {d}, {a};", op_f2f("f64", "f32", ftz=True))
    for irnd in ("rni", "rzi", "rmi", "rpi"):
        k.output(irnd, "f32", "cvt.%s.f32.f32 {d}, {a};" % irnd, op_f2f("f32", "f32", irnd=irnd))
        k.output(irnd + "_ftz", "f32", "cvt.%s.ftz.f32.f32 {d}, {a};" % irnd, op_f2f("f32", "f32", irnd=irnd, ftz=True))
    k.output("rni_sat", "f32", "cvt.rni.sat.f32.f32 {d}, {a};", fns[0])
    k.output("rzi_ftz_sat", "f32", "cvt.rzi.ftz.sat.f32.f32 {d}, {a};", op_f2f("f32", "f32", irnd="rzi", ftz=True, sat=True))
    k.output("sat", "f32", "cvt.sat.f32.f32 {d}, {a};", fns[2])
    k.output("ftz_sat", "f32", "cvt.ftz.sat.f32.f32 {d}, {a};", fns[3])
    k.output("sat_f64", "f64", "cvt.sat.f64.f32 {d}, {a};", fns[4])
    k.write("cvt")


def build_approx(R):
    t = "f32"
    a, b = [], []
    while len(a) < 128:
        x, y = rand_val(R, t, -60, 60, sign=R.getrandbits(1)), rand_val(R, t, -60, 60, sign=R.getrandbits(1))
        a.append(x)
        b.append(y)
    k = Kernel("approx_f32", "div.approx/div.full/rcp.approx/sqrt.approx/rsqrt.approx.f32 within the manual's error bounds (normal range)")
    k.input("a", t, a)
    k.input("b", t, b)
    k.output("div_approx", t, "div.approx.f32 {d}, {a}, {b};", op_div(t), compare={"mode": "ulp", "ulp": 2})
    k.output("div_full", t, "div.full.f32 {d}, {a}, {b};", op_div(t), compare={"mode": "ulp", "ulp": 2})
    k.output("rcp_approx", t, "rcp.approx.f32 {d}, {b};", lambda x, y: op_rcp(t)(y), compare={"mode": "ulp", "ulp": 1})
    k.output("sqrt_approx", t, "abs.f32 {d}, {a};\nsqrt.approx.f32 {d}, {d};",
             lambda x, y: op_sqrt(t)(x & 0x7fffffff), compare={"mode": "ulp", "ulp": 2})
    k.output("rsqrt_approx", t, "abs.f32 {d}, {a};\nrsqrt.approx.f32 {d}, {d};",
             lambda x, y: op_rsqrt(t)(x & 0x7fffffff), compare={"mode": "ulp", "ulp": 2})
    k.write("approx")


def build_f16(R):
    h = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
         0x3c01, 0x6800, 0x3555, 0x4248]
    a, b = pairs(h)
    c = [h[(i * 7 + i // 16) % 16] for i in range(256)]
    k = Kernel("f16_arith_directed", "add/sub/mul/fma.rn.f16 on edge pairs (half precision, pending numerics work)")
    k.input("a", "f16", a)
    k.input("b", "f16", b)
    k.input("c", "f16", c)
    t = "f16"
    k.output("add_rn", t, "add.rn.f16 {d}, {a}, {b};", lambda x, y, z: op_add(t)(x, y))
    k.output("sub_rn", t, "sub.rn.f16 {d}, {a}, {b};", lambda x, y, z: op_add(t, sub=True)(x, y))
    k.output("mul_rn", t, "mul.rn.f16 {d}, {a}, {b};", lambda x, y, z: op_mul(t)(x, y))
    k.output("fma_rn", t, "fma.rn.f16 {d}, {a}, {b}, {c};", op_fma(t))
    k.write("directed")
    # conversions f32 <-> f16, bf16
    s = [0x00000000, 0x80000000, 0x3f800000, 0x3f801000, 0x3f803000, 0x3f801001, 0x477fe000, 0x477ff000,
         0x477fefff, 0x47800000, 0x33800000, 0x33000000, 0x33000001, 0x33c00000, 0x38800000, 0x387fc000,
         0x7f800000, 0xff800000, 0x7fc00000, 0x3eaaaaab, 0xc2f6e979, 0x3f808000, 0x3f818000, 0x3f808001,
         0x7f7fffff, 0x7f7f8000, 0x00000001, 0x3fc00000, 0xbf801000, 0x477fe001, 0x387fe000, 0x34000000]
    k = Kernel("cvt_f16_directed", "cvt.{rn,rz}.f16.f32, cvt.rn.bf16.f32, cvt.f32.f16 (half precision, pending numerics work)",
               version="8.0", target="sm_90")
    k.input("a", "f32", s)
    k.input("h", "f16", (h * 2))
    k.output("rn_f16", "f16", "cvt.rn.f16.f32 {d}, {a};", lambda x, y: F.round_to(D(x, "f32"), "f16", "rn"))
    k.output("rz_f16", "f16", "cvt.rz.f16.f32 {d}, {a};", lambda x, y: F.round_to(D(x, "f32"), "f16", "rz"))
    k.output("rn_bf16", "bf16", "cvt.rn.bf16.f32 {d}, {a};", lambda x, y: F.round_to(D(x, "f32"), "bf16", "rn"))
    k.output("f32_f16", "f32", "cvt.f32.f16 {d}, {h};", lambda x, y: F.encode_v(D(y, "f16"), "f32"))
    k.output("f64_f16", "f64", "cvt.f64.f16 {d}, {h};", lambda x, y: F.encode_v(D(y, "f16"), "f64"))
    k.write("directed")


README_GROUPS = [
    ("arith", "Arithmetic: add, sub, mul, div, fma.rn/mad.rn, sqrt.rn, rcp (9.7.3.3-9.7.3.8, 9.7.3.13, 9.7.3.15)"),
    ("minmax", "min, max, abs, neg, copysign (9.7.3.2, 9.7.3.9-9.7.3.12, 9.7.4.7-9.7.4.8)"),
    ("compare", "testp, setp, set, selp with float operands (9.7.3.1, 9.7.6.1-9.7.6.3, 9.7.7.2)"),
    ("cvt", "cvt between integers, f32 and f64 (9.7.9.21)"),
    ("approx", "Approximate forms, compared within the manual's error bounds"),
    ("sat", "Arithmetic .sat (9.7.3 summary; add/sub/mul/fma/mad .sat.f32)"),
    ("directed", "Directed rounding and the first f16 cases (*_directed): .rz/.rm/.rp, f16/bf16"),
    ("half", "Half precision: add, sub, mul, fma, neg, abs on f16, bf16, f16x2, bf16x2 (9.7.4.1-9.7.4.6)"),
    ("mixed", "Mixed precision: add, sub, fma .f32.f16 / .f32.bf16 (9.7.5)"),
    ("cvt_half", "cvt to and from f16, bf16, f16x2, bf16x2, tf32 (9.7.9.21)"),
    ("narrow", "cvt to and from the packed narrow formats e4m3x2, e5m2x2, e2m3x2, e3m2x2, e2m1x2 (5.2.3, 9.7.9.21)"),
]


def write_readme():
    tpl = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "README.template.md")).read()
    L = []
    assert {g for g, *_ in INDEX} <= {g for g, _ in README_GROUPS}
    for g, title in README_GROUPS:
        L.append("### " + title)
        L.append("")
        L.append("| case | vectors | outputs | what |")
        L.append("|---|---|---|---|")
        for grp, name, desc, n, outs in INDEX:
            if grp == g:
                L.append("| `%s` | %d | %s | %s |" % (name, n, ", ".join("`%s`" % o for o in outs), desc))
        L.append("")
    with open(os.path.join(OUTDIR, "README.md"), "w") as f:
        f.write(tpl.replace("{{INDEX}}", "\n".join(L).rstrip() + "\n"))


if __name__ == "__main__":
    for fn in os.listdir(OUTDIR):
        if fn.endswith((".ptx", ".json")):
            os.remove(os.path.join(OUTDIR, fn))
    build()
    write_readme()
    print("%d cases" % len(INDEX))
