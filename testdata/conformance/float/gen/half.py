"""Cases for half precision (9.7.4), mixed precision (9.7.5), the min/max modifiers,
testp, setp on halves (9.7.7.2), cvt to and from f16/bf16/tf32, directed rcp and
div.ftz.  Called from gen.py's build(); expected values from ieee.py only (exact
rationals, explicit rounding), with the manual's rules applied here.
"""
from fractions import Fraction

import ieee as F
from ieee import decode as D
from kernel import Kernel


class Ambiguous(Exception):
    """The manual leaves this result open; the vector is not used in that case."""


W = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
P = {t: F.FMT[t][0] for t in W}
EMIN = {t: F.FMT[t][1] for t in W}
EMAX = {t: F.FMT[t][2] for t in W}
SIGN = {t: 1 << (W[t] - 1) for t in W}
SNAN = {"f16": 0x7d00, "bf16": 0x7f81, "f32": 0x7f800001, "f64": 0x7ff0000000000001}


def fb(t, s, m, e):
    """Bits of (-1)^s * m * 2^e (must be exact in t)."""
    return F.encode_exact(s, Fraction(m) * Fraction(2) ** e, t)


def ONE(t):
    return fb(t, 0, 1, 0)


def MAXB(t):
    return F.encode_exact(0, F.maxfinite(t), t)


def INF(t):
    return F.encode_inf(0, t)


def MINSUB(t):
    return 1


def MINNORM(t):
    return fb(t, 0, 1, EMIN[t])


# ------------------------------------------------------------ semantics
def flush(bits, t, on):
    return F.ftz(bits, t, on)


def finish(v, t, mode="rn", ftz=False, sat=False, relu=False):
    """Round the exact V v to t, then the .ftz flush, .sat clamp, .relu clamp of the result."""
    r = F.round_to(v, t, mode)
    if ftz:
        if v.kind == "num" and 0 < v.mag < Fraction(2) ** EMIN[t] and not F.is_sub(r, t) and r & ~SIGN[t]:
            raise Ambiguous("ftz of a result that rounds up to the smallest normal")
        r = F.ftz(r, t, True)
    x = D(r, t)
    if sat:
        if x.kind == "nan":
            return 0
        if x.is_zero() and x.sign:
            raise Ambiguous(".sat of -0")
        if x.sign:
            return 0
        if x.kind == "inf" or x.mag > 1:
            return ONE(t)
    if relu:
        if x.kind == "nan":
            return F.QNAN[t]
        if x.is_zero() and x.sign:
            raise Ambiguous(".relu of -0")
        if x.sign:
            return 0
    return r


def arith(t, op, mode="rn", ftz=False, sat=False, relu=False):
    def f(*xs):
        v = [D(flush(x, t, ftz), t) for x in xs]
        if op == "add":
            e = F.add(v[0], v[1], mode)
        elif op == "sub":
            e = F.add(v[0], F.neg(v[1]), mode)
        elif op == "mul":
            e = F.mul(v[0], v[1])
        elif op == "div":
            e = F.div(v[0], v[1])
        elif op == "fma":
            e = F.fma(v[0], v[1], v[2], mode)
        else:
            raise ValueError(op)
        return finish(e, t, mode, ftz, sat, relu)
    return f


def rcp(t, mode, ftz=False):
    return lambda a: arith(t, "div", mode, ftz)(ONE(t), a)


def x2(f):
    """Lane-wise f on packed pairs: lane 0 is bits 0-15, lane 1 bits 16-31."""
    def g(*xs):
        return f(*[x & 0xffff for x in xs]) | f(*[x >> 16 for x in xs]) << 16
    return g


def absneg(t, op, ftz=False):
    def f(a):
        a = flush(a, t, ftz)
        if F.is_nan(a, t):
            return F.QNAN[t]  # "NaN inputs yield an unspecified NaN": compared as any NaN
        return a & ~SIGN[t] if op == "abs" else a ^ SIGN[t]
    return f


def minmax(t, op, nan=False, xorsign=False, ftz=False, abs3=False, fa_rule=False):
    """min/max per the pseudo-code of 9.7.3.11-12 and 9.7.4.7-8 (-0 < +0).
    abs3: the three-input .abs; fa_rule: the f16x2 max pseudo-code sets the xorsign
    sign only when fA is not NaN, the text when d is not NaN: vectors where the two
    differ are ambiguous."""
    def two(x, y):
        if x.kind == "nan" or y.kind == "nan":
            if nan or (x.kind == "nan" and y.kind == "nan"):
                return F.NAN
            return y if x.kind == "nan" else x
        return F.minmax(x, y, op)

    def f(a, b, c=None):
        S = SIGN[t]
        a, b = flush(a, t, ftz), flush(b, t, ftz)
        xs = (a ^ b) & S
        fa_nan = F.is_nan(a, t)
        if xorsign or abs3:
            a, b = a & ~S, b & ~S
        d = two(D(a, t), D(b, t))
        if c is not None:
            c = flush(c, t, ftz)
            if abs3:
                c &= ~S
            d = two(d, D(c, t))
        r = F.encode_v(d, t)
        if xorsign and d.kind != "nan":
            if fa_rule and fa_nan:
                raise Ambiguous("f16x2 max .xorsign with a NaN in a")
            r = (r & ~S) | xs
        return r
    return f


CMPS = ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]


def cmp_test(op, c):
    if op == "num":
        return c != "un"
    if op == "nan":
        return c == "un"
    if c == "un":
        return op.endswith("u")
    return {"eq": c == 0, "ne": c != 0, "lt": c < 0, "le": c <= 0, "gt": c > 0, "ge": c >= 0}[op[:2]]


def setp1(t, op, ftz=False):
    return lambda a, b: 1 if cmp_test(op, F.compare(D(flush(a, t, ftz), t), D(flush(b, t, ftz), t))) else 0


def setp2(t, op, ftz=False):
    s = setp1(t, op, ftz)
    return lambda a, b: s(a & 0xffff, b & 0xffff) | s(a >> 16, b >> 16) << 1


def testp(t, op):
    def f(a):
        x = D(a, t)
        return int({"finite": x.kind == "num", "infinite": x.kind == "inf", "number": x.kind != "nan",
                    "notanumber": x.kind == "nan", "normal": x.kind == "num" and not F.is_sub(a, t),
                    "subnormal": F.is_sub(a, t)}[op])
    return f


def mixed(at, op, mode, sat=False):
    """9.7.5: d = convert(a) + c, convert(a) - c, convert(a)*convert(b) + c; convert() to f32 is exact."""
    def f(a, b, c):
        x, y, z = D(a, at), D(b, at), D(c, "f32")
        if op == "add":
            e = F.add(x, z, mode)
        elif op == "sub":
            e = F.add(x, F.neg(z), mode)
        else:
            e = F.fma(x, y, z, mode)
        return finish(e, "f32", mode, False, sat)
    return f


def round_tf32(v, mode):
    """Round V v to tf32 (11-bit significand, f32 exponent range, subnormals); f32 bits."""
    if v.kind == "nan":
        return F.QNAN["f32"]
    if v.kind == "inf":
        return F.encode_inf(v.sign, "f32")
    k, r = F.round_mag(v.sign, v.mag, "tf32", mode)
    if k == "inf":
        return F.encode_inf(v.sign, "f32")
    return F.encode_exact(v.sign, r, "f32")


def cvtf(dt, at, mode, relu=False, satfinite=False, sat=False):
    """cvt float -> float (9.7.9.21): round with mode; .satfinite: |input| > MAX_NORM (inf
    included) gives sign-preserved MAX_NORM, NaN stays NaN; .relu: negative -> +0, NaN ->
    canonical NaN; .sat: clamp to [0, 1], NaN -> +0."""
    ft = "f32" if dt == "tf32" else dt

    def f(a):
        x = D(a, at)
        mx = F.maxfinite(dt)
        if satfinite and x.kind != "nan" and (x.kind == "inf" or x.mag > mx):
            r = F.encode_exact(x.sign, mx, ft)
        elif dt == "tf32":
            r = round_tf32(x, mode)
        else:
            r = F.round_to(x, dt, mode)
        return finish(D(r, ft), ft, "rn", False, sat, relu)
    return f


INT = {"s16": (16, True), "u16": (16, False), "s32": (32, True), "u32": (32, False),
       "s64": (64, True), "u64": (64, False)}


def f2i(dt, at, irnd):
    bits, signed = INT[dt]

    def f(a):
        x = D(a, at)
        if x.kind == "nan":
            return 0 if at != "f64" and bits != 64 else 1 << (bits - 1)
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        if x.kind == "inf":
            v = lo if x.sign else hi
        else:
            n = F.round_int(x.mag, irnd[:2], x.sign)
            v = max(lo, min(hi, -n if x.sign else n))
        return v & ((1 << bits) - 1)
    return f


def i2f(dt, at, mode):
    bits, signed = INT[at]

    def f(a):
        a &= (1 << bits) - 1
        v = a - (1 << bits) if signed and a >> (bits - 1) else a
        return F.round_to(F.num(v), dt, mode)
    return f


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


# ------------------------------------------------------------ values
H16 = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
       0x3c01, 0x6800, 0x3555, 0x4248]
B16 = [0x0000, 0x8000, 0x3f80, 0xbf80, 0x0001, 0x807f, 0x0080, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0,
       0x3f81, 0x4380, 0x3eab, 0xbb80]
# for min/max/setp: a signalling NaN and a negative NaN instead of the last two
H16M = H16[:14] + [SNAN["f16"], 0xfe00]
B16M = B16[:14] + [SNAN["bf16"], 0xffc0]
E32 = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x00000001, 0x807fffff, 0x00800000, 0x80800001,
       0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x3f800001, 0x4b800000, 0xb3800000]
E32M = E32[:13] + [0x7f800001, 0xffc00000, 0x3f800001]
E64 = [0x0000000000000000, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
       0x0000000000000001, 0x800fffffffffffff, 0x0010000000000000, 0x8010000000000001,
       0x7fefffffffffffff, 0xffefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000,
       0x7ff8000000000000, 0x3ff0000000000001, 0x4340000000000000, 0xbca0000000000000]
EDGE = {"f16": H16, "bf16": B16, "f32": E32, "f64": E64}
EDGEM = {"f16": H16M, "bf16": B16M, "f32": E32M}


def pairs(E):
    return [a for a in E for _ in E], [b for _ in E for b in E]


def third(E, n=256):
    return [E[(i * 7 + i // 16) % len(E)] for i in range(n)]


def rv(R, t, e, sign=None):
    """A random value with exponent e (a random subnormal below the normal range)."""
    p, emin, emax = P[t], EMIN[t], EMAX[t]
    s = R.getrandbits(1) if sign is None else sign
    e = min(e, emax)
    if e < emin:
        return fb(t, s, R.randrange(1, 1 << (p - 1)), emin - p + 1)
    m = (1 << (p - 1)) | R.getrandbits(p - 1)
    if R.random() < 0.25:  # few significant bits: more exact results and ties
        m = (1 << (p - 1)) | (R.getrandbits(3) << (p - 4))
    return fb(t, s, m, e - (p - 1))


def half_vectors(t, R, n):
    """(a, b, c): ties for add/mul/fma, overflow, subnormal and zero results, specials, random."""
    p, emin, emax, S = P[t], EMIN[t], EMAX[t], SIGN[t]
    A, B, C = [], [], []
    one, mx, inf, mn = ONE(t), MAXB(t), INF(t), MINNORM(t)

    def v(a, b, c=0):
        A.append(a)
        B.append(b)
        C.append(c)
    for s in (0, 1):
        v(fb(t, s, 1, 0), fb(t, s, 1, -p), one)                       # 1 + half ulp: tie -> 1
        v(fb(t, s, (1 << (p - 1)) + 1, -(p - 1)), fb(t, s, 1, -p))     # tie -> up (even)
        v(fb(t, s, 1, 0), fb(t, s, (1 << (p - 1)) + 1, -p - (p - 1)))  # just above the tie
        v(fb(t, s, 1, 0), fb(t, 1 - s, 1, -p - 1))                    # tie below 1
        v(fb(t, s, 3, 0), fb(t, s, 1, -p + 1))
        v(mx | s * S, fb(t, s, 1, emax - p))       # max + half ulp: tie, odd -> overflow
        v(mx | s * S, fb(t, s, 1, emax - p - 1))   # max + quarter ulp -> max
        v(mx | s * S, mx | s * S, mx ^ S ^ s * S)  # max + max; fma: max*max - max
        v(fb(t, s, 1, emax), fb(t, 0, 1, 1), mx ^ S ^ s * S)  # 2^emax * 2 overflows; fma: 2^(emax+1) - max
    for a, b in ((0, 0), (S, S), (0, S), (S, 0), (one, one | S), (one | S, one)):
        v(a, b, S)
    v(mn, 1 | S, S)             # largest subnormal
    v(3, 1 | S, 0)              # 2 min subnormals
    v(fb(t, 0, 3, emin - 1), fb(t, 1, 1, emin), one)  # half of min normal
    v(SNAN[t], one, one)
    v(one, SNAN[t], SNAN[t])
    v(inf, inf | S, one)
    v(inf, 0, one)
    v(0, one | S, S)            # fma: -0 + -0 = -0
    v(one, one, one | S)        # fma: 1 - 1 = +0
    v(fb(t, 0, 1, -p), one, one)  # fma: tie
    # products: underflow ties and subnormal results
    for k in range(1, p + 2):
        v(mn, fb(t, 0, 1, -k), fb(t, 1, 1, emin - p + 1) if k & 1 else 0)
        v(fb(t, 1, 3, emin), fb(t, 0, 1, -k), 0)
    # exact product ties: odd significands whose product has p+1 bits
    h = (p + 2) // 2
    cnt = 0
    while cnt < 12:
        ma, mb = R.randrange(1 << (h - 1), 1 << h) | 1, R.randrange(1 << (h - 1), 1 << h) | 1
        if (ma * mb).bit_length() == p + 1:
            v(fb(t, R.getrandbits(1), ma, R.randint(-4, 0)), fb(t, R.getrandbits(1), mb, R.randint(-4, 0)), 0)
            cnt += 1
    # fma: the product is the rounding error of a rounded product
    for _ in range(12):
        a, b = rv(R, t, R.randint(-4, 4)), rv(R, t, R.randint(-4, 4))
        v(a, b, F.round_to(F.mul(D(a, t), D(b, t)), t) ^ S)
    lo, hi = (-20, 10) if t == "f16" else (-80, 80)
    while len(A) < n:
        e = R.randint(lo, hi)
        a = rv(R, t, e)
        b = rv(R, t, e - R.randint(0, p + 3)) if R.random() < 0.5 else rv(R, t, R.randint(lo, hi) // 2)
        c = rv(R, t, e + R.randint(-8, 8))
        v(a, b, c)
    return A[:n], B[:n], C[:n]


def pack(lo, hi):
    return [x | y << 16 for x, y in zip(lo, hi)]


# ------------------------------------------------------------ kernels
def nm(s):
    return s.replace(".", "_").strip("_")


def out_setp1(k, name, t, instr, fn):
    k.output(name, "u32", "%s %%p0, {a}, {b};\nselp.u32 {d}, 1, 0, %%p0;" % instr, fn)


def build_half_arith(R):
    for t in ("f16", "bf16"):
        ftzs = ("", ".ftz") if t == "f16" else ("",)
        # ---- edge pairs and rounding vectors
        for kind in ("edges", "round"):
            if kind == "edges":
                a, b = pairs(EDGE[t])
                c = third(EDGE[t])
                what = "all pairs of 16 edge values, a third edge operand"
            else:
                a, b, c = half_vectors(t, R, 224)
                what = "ties, overflow, subnormal and signed-zero results, fused products, random"
            k = Kernel("%s_arith_%s" % (t, kind), "add/sub/mul/fma.rn%s.%s: %s" % ("{.ftz}" if t == "f16" else "", t, what))
            k.input("a", t, a)
            k.input("b", t, b)
            k.input("c", t, c)
            k.output("add", t, "add.%s {d}, {a}, {b};" % t, lambda x, y, z: arith(t, "add")(x, y))
            for z in ftzs:
                k.output(nm("add_rn" + z), t, "add.rn%s.%s {d}, {a}, {b};" % (z, t), lambda x, y, _, z=z: arith(t, "add", ftz=bool(z))(x, y))
                k.output(nm("sub_rn" + z), t, "sub.rn%s.%s {d}, {a}, {b};" % (z, t), lambda x, y, _, z=z: arith(t, "sub", ftz=bool(z))(x, y))
                k.output(nm("mul_rn" + z), t, "mul.rn%s.%s {d}, {a}, {b};" % (z, t), lambda x, y, _, z=z: arith(t, "mul", ftz=bool(z))(x, y))
                k.output(nm("fma_rn" + z), t, "fma.rn%s.%s {d}, {a}, {b}, {c};" % (z, t), arith(t, "fma", ftz=bool(z)))
            if kind == "edges":
                for z in ftzs:
                    for op in ("neg", "abs"):
                        k.output(nm(op + z), t, "%s%s.%s {d}, {a};" % (op, z, t), lambda x, y, _, op=op, z=z: absneg(t, op, bool(z))(x))
            k.write("half")
        # ---- .sat (f16) and .relu: vectors whose result is -0 are left out
        a, b = pairs(EDGE[t])
        c = third(EDGE[t])
        ra, rb, rc = half_vectors(t, R, 160)
        # values around [0, 1] for .sat
        sa = [fb(t, R.getrandbits(1), R.randrange(1 << (P[t] - 1), 1 << P[t]), -P[t] - R.randint(-1, 3)) for _ in range(64)]
        sb = [fb(t, R.getrandbits(1), R.randrange(1 << (P[t] - 1), 1 << P[t]), -P[t] - R.randint(-1, 3)) for _ in range(64)]
        sc = [fb(t, R.getrandbits(1), R.randrange(1 << (P[t] - 1), 1 << P[t]), -P[t] - R.randint(-1, 3)) for _ in range(64)]
        a, b, c = a + ra + sa, b + rb + sb, c + rc + sc
        outs = []
        if t == "f16":
            for z in ("", ".ftz"):
                zz = bool(z)
                outs += [(nm("add_sat" + z), "add%s.sat.f16 {d}, {a}, {b};" % z, lambda x, y, _, zz=zz: arith(t, "add", ftz=zz, sat=True)(x, y)),
                         (nm("sub_rn_sat" + z), "sub.rn%s.sat.f16 {d}, {a}, {b};" % z, lambda x, y, _, zz=zz: arith(t, "sub", ftz=zz, sat=True)(x, y)),
                         (nm("mul_rn_sat" + z), "mul.rn%s.sat.f16 {d}, {a}, {b};" % z, lambda x, y, _, zz=zz: arith(t, "mul", ftz=zz, sat=True)(x, y)),
                         (nm("fma_rn_sat" + z), "fma.rn%s.sat.f16 {d}, {a}, {b}, {c};" % z, arith(t, "fma", ftz=zz, sat=True)),
                         (nm("fma_rn_relu" + z), "fma.rn%s.relu.f16 {d}, {a}, {b}, {c};" % z, arith(t, "fma", ftz=zz, relu=True))]
        else:
            outs += [("fma_rn_relu", "fma.rn.relu.bf16 {d}, {a}, {b}, {c};", arith(t, "fma", relu=True))]
        # keep at most 256 vectors, edge pairs first
        a, b, c = filt((a, b, c), [o[2] for o in outs])
        a, b, c = a[:256], b[:256], c[:256]
        k = Kernel("%s_sat_relu" % t if t == "f16" else "bf16_fma_relu",
                   ("add/sub/mul/fma{.ftz}.sat.f16 (clamp to [0,1], NaN -> +0) and fma.rn{.ftz}.relu.f16 (negative -> +0, NaN -> NaN)"
                    if t == "f16" else "fma.rn.relu.bf16 (negative -> +0, NaN -> NaN)") + "; vectors with a -0 result left out")
        k.input("a", t, a)
        k.input("b", t, b)
        k.input("c", t, c)
        for name, snip, fn in outs:
            k.output(name, t, snip, fn)
        k.write("half")
    # ---- packed: lane 0 the edge pairs, lane 1 rounding vectors
    for t in ("f16", "bf16"):
        tt = t + "x2"
        a0, b0 = pairs(EDGE[t])
        c0 = third(EDGE[t])
        a1, b1, c1 = half_vectors(t, R, 256)
        A, B, C = pack(a0, a1), pack(b0, b1), pack(c0, c1)
        k = Kernel("%s_arith" % tt, "add/sub/mul/fma.rn%s.%s, neg, abs: lane 0 edge pairs, lane 1 rounding vectors"
                   % ("{.ftz}" if t == "f16" else "", tt))
        k.input("a", tt, A)
        k.input("b", tt, B)
        k.input("c", tt, C)
        ftzs = ("", ".ftz") if t == "f16" else ("",)
        k.output("add", tt, "add.%s {d}, {a}, {b};" % tt, lambda x, y, _: x2(arith(t, "add"))(x, y))
        for z in ftzs:
            zz = bool(z)
            k.output(nm("add_rn" + z), tt, "add.rn%s.%s {d}, {a}, {b};" % (z, tt), lambda x, y, _, zz=zz: x2(arith(t, "add", ftz=zz))(x, y))
            k.output(nm("sub_rn" + z), tt, "sub.rn%s.%s {d}, {a}, {b};" % (z, tt), lambda x, y, _, zz=zz: x2(arith(t, "sub", ftz=zz))(x, y))
            k.output(nm("mul_rn" + z), tt, "mul.rn%s.%s {d}, {a}, {b};" % (z, tt), lambda x, y, _, zz=zz: x2(arith(t, "mul", ftz=zz))(x, y))
            k.output(nm("fma_rn" + z), tt, "fma.rn%s.%s {d}, {a}, {b}, {c};" % (z, tt), x2(arith(t, "fma", ftz=zz)))
            for op in ("neg", "abs"):
                k.output(nm(op + z), tt, "%s%s.%s {d}, {a};" % (op, z, tt), lambda x, y, _, op=op, zz=zz: x2(absneg(t, op, zz))(x))
        k.write("half")
        # sat / relu packed
        outs = []
        if t == "f16":
            outs += [("add_sat", "add.sat.f16x2 {d}, {a}, {b};", lambda x, y, _: x2(arith(t, "add", sat=True))(x, y)),
                     ("mul_rn_ftz_sat", "mul.rn.ftz.sat.f16x2 {d}, {a}, {b};", lambda x, y, _: x2(arith(t, "mul", ftz=True, sat=True))(x, y)),
                     ("fma_rn_sat", "fma.rn.sat.f16x2 {d}, {a}, {b}, {c};", x2(arith(t, "fma", sat=True))),
                     ("fma_rn_relu", "fma.rn.relu.f16x2 {d}, {a}, {b}, {c};", x2(arith(t, "fma", relu=True)))]
        else:
            outs += [("fma_rn_relu", "fma.rn.relu.bf16x2 {d}, {a}, {b}, {c};", x2(arith(t, "fma", relu=True)))]
        A2, B2, C2 = filt((A, B, C), [o[2] for o in outs])
        k = Kernel("%s_sat_relu" % tt, "%s on packed pairs; vectors with a -0 result left out" % ", ".join(o[1].split()[0] for o in outs))
        k.input("a", tt, A2)
        k.input("b", tt, B2)
        k.input("c", tt, C2)
        for name, snip, fn in outs:
            k.output(name, tt, snip, fn)
        k.write("half")


def build_minmax(R):
    # f16, bf16, f16x2, bf16x2
    for t in ("f16", "bf16"):
        a, b = pairs(EDGEM[t])
        k = Kernel("min_max_%s" % t, "min/max{%s.NaN}{.xorsign.abs}.%s on all pairs of 16 edge values (NaN, -0 < +0)"
                   % (".ftz}{" if t == "f16" else "", t))
        k.input("a", t, a)
        k.input("b", t, b)
        mods = ["", ".NaN", ".xorsign.abs", ".NaN.xorsign.abs"]
        if t == "f16":
            mods += [".ftz", ".ftz.NaN", ".ftz.xorsign.abs"]
        for op in ("min", "max"):
            for m in mods:
                k.output(nm(op + m), t, "%s%s.%s {d}, {a}, {b};" % (op, m, t),
                         minmax(t, op, nan=".NaN" in m, xorsign=".xorsign" in m, ftz=".ftz" in m))
        k.write("minmax")
    for t in ("f16", "bf16"):
        tt = t + "x2"
        a0, b0 = pairs(EDGEM[t])
        # lane 1: the pairs in another order
        a1 = [EDGEM[t][(i * 5 + 3) % 16] for i in range(256)]
        b1 = [EDGEM[t][(i * 11 + i // 16) % 16] for i in range(256)]
        mods = ["", ".NaN", ".xorsign.abs", ".NaN.xorsign.abs"]
        if t == "f16":
            mods += [".ftz", ".ftz.NaN.xorsign.abs"]
        fns = []
        for op in ("min", "max"):
            for m in mods:
                fns.append((nm(op + m), "%s%s.%s {d}, {a}, {b};" % (op, m, tt),
                            x2(minmax(t, op, nan=".NaN" in m, xorsign=".xorsign" in m, ftz=".ftz" in m,
                                      fa_rule=(op == "max" and tt == "f16x2")))))
        A, B = filt((pack(a0, a1), pack(b0, b1)), [f[2] for f in fns])
        k = Kernel("min_max_%s" % tt, "min/max{.NaN}{.xorsign.abs}.%s lane-wise on edge pairs%s" %
                   (tt, "; max.xorsign.abs with a NaN in a left out (pseudo-code and text differ)" if tt == "f16x2" else ""))
        k.input("a", tt, A)
        k.input("b", tt, B)
        for name, snip, fn in fns:
            k.output(name, tt, snip, fn)
        k.write("minmax")
    # f32: .NaN, .xorsign.abs, .ftz
    t = "f32"
    a, b = pairs(E32M)
    k = Kernel("min_max_f32_modifiers", "min/max{.ftz}{.NaN}{.xorsign.abs}.f32 on all pairs of 16 edge values")
    k.input("a", t, a)
    k.input("b", t, b)
    for op in ("min", "max"):
        for m in (".NaN", ".xorsign.abs", ".NaN.xorsign.abs", ".ftz.NaN", ".ftz.xorsign.abs", ".ftz.NaN.xorsign.abs"):
            k.output(nm(op + m), t, "%s%s.f32 {d}, {a}, {b};" % (op, m),
                     minmax(t, op, nan=".NaN" in m, xorsign=".xorsign" in m, ftz=".ftz" in m))
    k.write("minmax")
    # three inputs
    c = [E32M[(i * 5 + 3) % 16] for i in range(256)]
    k = Kernel("min_max3_f32", "min/max{.ftz}{.NaN}{.abs}.f32 d, a, b, c (three inputs, sm_100) on edge triples",
               version="8.8", target="sm_100")
    k.input("a", t, a)
    k.input("b", t, b)
    k.input("c", t, c)
    for op in ("min", "max"):
        for m in ("", ".NaN", ".abs", ".ftz", ".NaN.abs", ".ftz.NaN.abs"):
            k.output(nm(op + "3" + m), t, "%s%s.f32 {d}, {a}, {b}, {c};" % (op, m),
                     minmax(t, op, nan=".NaN" in m, abs3=".abs" in m, ftz=".ftz" in m))
    k.write("minmax")
    # f64: close values, equal values, NaN kinds
    t = "f64"
    A, B = [], []
    for _ in range(40):
        x = rv(R, t, R.randint(-30, 30))
        y = x + R.choice((1, -1)) if x & 0xfffffffffffff not in (0, 0xfffffffffffff) else x
        A.append(x)
        B.append(y)
        A.append(x)
        B.append(x ^ (SIGN[t] if R.random() < 0.5 else 0))
    for x, y in ((SNAN[t], 0), (0, SNAN[t]), (0xfff8000000000000, SIGN[t]), (SNAN[t], 0xfff8000000000000),
                 (0, SIGN[t]), (SIGN[t], 0), (1, SIGN[t] | 1), (E64[10], E64[8]), (E64[11], E64[9])):
        A.append(x)
        B.append(y)
    k = Kernel("min_max_f64_close", "min/max.f64 on neighbouring values, x vs -x, signed zeros, NaN kinds")
    k.input("a", t, A)
    k.input("b", t, B)
    for op in ("min", "max"):
        k.output(op, t, "%s.f64 {d}, {a}, {b};" % op, minmax(t, op))
    k.write("minmax")


def build_testp(R):
    v32 = E32 + [0x7f800001, 0xffc00000, 0x007fffff, 0x00000002, 0x80000001, 0x00800001, 0xff7fffff, 0x80800000]
    v64 = E64 + [0x7ff0000000000001, 0xfff8000000000000, 0x000fffffffffffff, 0x0000000000000002,
                 0x8000000000000001, 0x0010000000000001, 0xffefffffffffffff, 0x8010000000000000]
    k = Kernel("testp_f32_f64", "testp.{finite,infinite,number,notanumber,normal,subnormal}.{f32,f64} (zeros are normal)")
    k.input("a", "f32", v32)
    k.input("b", "f64", v64)
    for t, reg in (("f32", "a"), ("f64", "b")):
        for op in ("finite", "infinite", "number", "notanumber", "normal", "subnormal"):
            k.output("%s_%s" % (op, t), "u32", "testp.%s.%s %%p0, {%s};\nselp.u32 {d}, 1, 0, %%p0;" % (op, t, reg),
                     lambda x, y, t=t, op=op: testp(t, op)(x if t == "f32" else y))
    k.write("compare")


def build_setp(R):
    for t in ("f16", "bf16"):
        a, b = pairs(EDGEM[t])
        k = Kernel("setp_%s" % t, "setp.CmpOp%s.%s, all 14 comparisons, on all pairs of 16 edge values" % ("{.ftz}" if t == "f16" else "", t))
        k.input("a", t, a)
        k.input("b", t, b)
        for op in CMPS:
            out_setp1(k, op, t, "setp.%s.%s" % (op, t), setp1(t, op))
        if t == "f16":
            for op in CMPS:
                out_setp1(k, op + "_ftz", t, "setp.%s.ftz.%s" % (op, t), setp1(t, op, True))
        k.write("compare")
    for t in ("f16", "bf16"):
        tt = t + "x2"
        a0, b0 = pairs(EDGEM[t])
        a1 = [EDGEM[t][(i * 5 + 3) % 16] for i in range(256)]
        b1 = [EDGEM[t][(i * 11 + i // 16) % 16] for i in range(256)]
        k = Kernel("setp_%s" % tt, "setp.CmpOp%s.%s p|q (p: lane 0, q: lane 1) stored as p | q<<1, edge pairs in both lanes"
                   % ("{.ftz}" if t == "f16" else "", tt))
        k.input("a", tt, pack(a0, a1))
        k.input("b", tt, pack(b0, b1))
        for z in (("", ".ftz") if t == "f16" else ("",)):
            for op in CMPS:
                k.output(nm(op + z), "u32", "setp.%s%s.%s %%p0|%%p1, {a}, {b};\nselp.u32 %%t0, 1, 0, %%p0;\n"
                         "selp.u32 %%t1, 2, 0, %%p1;\nor.b32 {d}, %%t0, %%t1;" % (op, z, tt), setp2(t, op, bool(z)))
        k.write("compare")


def build_mixed(R):
    for at in ("f16", "bf16"):
        p = P[at]
        # edges: every half edge value against every f32 edge value
        a = [x for x in EDGE[at] for _ in E32]
        c = [y for _ in EDGE[at] for y in E32]
        b = third(EDGE[at])
        rA, rB, rC = [], [], []
        one16 = ONE(at)

        def v(x, y, z):
            rA.append(x)
            rB.append(y)
            rC.append(z)
        for s in (0, 1):
            v(fb(at, s, 1, 0), one16, fb("f32", s, 1, -24))             # 1 + 2^-24: tie -> 1
            v(fb(at, s, 1, 0), one16, fb("f32", 1 - s, 1, -25))         # tie below 1
            v(fb(at, s, 3, 0), one16, fb("f32", s, 1, -22))             # 3 + ulp/2: tie -> 4 - ulp... even
            v(1 | s << 15, one16, fb("f32", s, 1, 0))                  # min subnormal + 1
            v(fb(at, s, 1, 0), fb(at, 0, 1, -12), fb("f32", s, 3, 23))  # fma: product 2^-12 against 1.5*2^24
            v(MAXB(at) | s << 15, MAXB(at), fb("f32", s, 1, 127))       # fma: large product + big c
            v(fb(at, s, 1, 0), fb(at, 0, 1, 0), F.encode_exact(s, F.maxfinite("f32"), "f32"))  # max + 1
            v(fb(at, s, 1, EMAX[at]), MAXB(at), F.encode_exact(s, F.maxfinite("f32"), "f32"))  # overflow (bf16)
        v(one16, one16, fb("f32", 1, 1, 0))              # 1 - 1 = +0, -0 under .rm
        v(0x8000, one16, 0x80000000)                     # -0 + -0
        v(0, 0x8000, 0x80000000)                         # fma: -0 + -0
        v(SNAN[at], one16, 0x3f800000)
        v(one16, one16, 0x7f800001)
        # fma ties: a product of exactly half an ulp of c (odd significand), or just off it
        while len(rA) < 48:
            ec = R.randint(-16, 16)
            j = (ec - 1) // 2
            sg = R.getrandbits(1)
            z = fb("f32", sg, (1 << 23) | R.getrandbits(23) | 1, ec)      # ulp(c) = 2^ec
            v(fb(at, sg, 1, j), fb(at, 0, 1, ec - 1 - j), z)             # product = ulp(c)/2
            v(fb(at, sg, 3, j - 1), fb(at, 0, 1, ec - 1 - j), z)         # 3/4 ulp(c)
            v(fb(at, 1 - sg, 1, j), fb(at, 0, 1, ec - 1 - j), z)         # -ulp(c)/2
        lo, hi = (-16, 14) if at == "f16" else (-60, 60)
        while len(rA) < 224:
            e = R.randint(lo, hi)
            x = rv(R, at, e)
            y = rv(R, at, R.randint(lo, hi) // 2)
            z = rv(R, "f32", e + R.randint(-30, 4) if R.random() < 0.5 else e + R.randint(-4, 30))
            v(x, y, z)
        sat = [mixed(at, "add", "rn", True), mixed(at, "sub", "rz", True), mixed(at, "fma", "rn", True),
               mixed(at, "fma", "rm", True)]
        rA, rB, rC = filt((rA, rB, rC), sat)
        for kind, (A, B, C) in (("edges", (a, b, c)), ("round", (rA, rB, rC))):
            k = Kernel("mixed_f32_%s_%s" % (at, kind),
                       "add/sub{.rnd}%s.f32.%s d, a, c and fma.rnd%s.f32.%s d, a, b, c (9.7.5): %s" %
                       ("{.sat}" if kind == "round" else "", at, "{.sat}" if kind == "round" else "", at,
                        "every %s edge value against every f32 edge value" % at if kind == "edges" else
                        "ties, overflow, fused products, signed zeros, random; -0 results left out"),
                       version="8.6", target="sm_100")
            k.input("a", at, A)
            k.input("b", at, B)
            k.input("c", "f32", C)
            k.output("add", "f32", "add.f32.%s {d}, {a}, {c};" % at, mixed(at, "add", "rn"))
            for m in ("rn", "rz", "rm", "rp"):
                k.output("add_" + m, "f32", "add.%s.f32.%s {d}, {a}, {c};" % (m, at), mixed(at, "add", m))
                k.output("sub_" + m, "f32", "sub.%s.f32.%s {d}, {a}, {c};" % (m, at), mixed(at, "sub", m))
                k.output("fma_" + m, "f32", "fma.%s.f32.%s {d}, {a}, {b}, {c};" % (m, at), mixed(at, "fma", m))
            if kind == "round":
                k.output("add_rn_sat", "f32", "add.rn.sat.f32.%s {d}, {a}, {c};" % at, sat[0])
                k.output("sub_rz_sat", "f32", "sub.rz.sat.f32.%s {d}, {a}, {c};" % at, sat[1])
                k.output("fma_rn_sat", "f32", "fma.rn.sat.f32.%s {d}, {a}, {b}, {c};" % at, sat[2])
                k.output("fma_rm_sat", "f32", "fma.rm.sat.f32.%s {d}, {a}, {b}, {c};" % at, sat[3])
            k.write("mixed")


def f32_cvt_values(R):
    s = [0x00000000, 0x80000000, 0x3f800000, 0x3f801000, 0x3f803000, 0x3f801001, 0x477fe000, 0x477ff000,
         0x477fefff, 0x47800000, 0x33800000, 0x33000000, 0x33000001, 0x33c00000, 0x38800000, 0x387fc000,
         0x7f800000, 0xff800000, 0x7fc00000, 0x3eaaaaab, 0xc2f6e979, 0x3f808000, 0x3f818000, 0x3f808001,
         0x7f7fffff, 0x7f7f8000, 0x00000001, 0x3fc00000, 0xbf801000, 0x477fe001, 0x387fe000, 0x34000000,
         0x7f7f7fff, 0x7f7ff000, 0x7f7fefff, 0x477ff001, 0x007fffff, 0x00400000, 0x00008000, 0x00010000,
         0x00018000, 0x00800000, 0x3f7ff000, 0x3f7ff800, 0x7f800001, 0x3f802000, 0x3f800fff, 0x33000000 | 0x7fffff]
    s += [x ^ 0x80000000 for x in s]
    while len(s) < 160:
        r = R.random()
        e = R.randint(-27, 17) if r < 0.5 else R.randint(-135, 127)
        s.append(rv(R, "f32", e))
    return s


def build_cvt_half(R):
    s = f32_cvt_values(R)
    k = Kernel("cvt_half_from_f32", "cvt.{rn,rz}{.satfinite}.{f16,bf16}.f32, cvt.{rm,rp}.{f16,bf16}.f32: ties, overflow, subnormals",
               version="8.1", target="sm_90")
    k.input("a", "f32", s)
    for dt in ("f16", "bf16"):
        for m in ("rn", "rz", "rm", "rp"):
            k.output("%s_%s" % (m, dt), dt, "cvt.%s.%s.f32 {d}, {a};" % (m, dt), cvtf(dt, "f32", m))
        for m in ("rn", "rz"):
            k.output("%s_satfinite_%s" % (m, dt), dt, "cvt.%s.satfinite.%s.f32 {d}, {a};" % (m, dt), cvtf(dt, "f32", m, satfinite=True))
    k.write("cvt_half")
    # .relu (vectors with a -0 result left out)
    fns = [cvtf(dt, "f32", m, relu=True, satfinite=sf) for dt in ("f16", "bf16") for m in ("rn", "rz") for sf in (False, True)]
    s2 = filt((s,), fns + [cvtf("f16", "f32", "rn", sat=True)])[0]
    k = Kernel("cvt_half_relu", "cvt.{rn,rz}.relu{.satfinite}.{f16,bf16}.f32 (negative -> +0, NaN -> NaN) and cvt.rn.sat.f16.f32; -0 results left out",
               version="8.1", target="sm_90")
    k.input("a", "f32", s2)
    for dt in ("f16", "bf16"):
        for m in ("rn", "rz"):
            for sf in ("", ".satfinite"):
                k.output(nm("%s_relu%s_%s" % (m, sf, dt)), dt, "cvt.%s.relu%s.%s.f32 {d}, {a};" % (m, sf, dt),
                         cvtf(dt, "f32", m, relu=True, satfinite=bool(sf)))
    k.output("rn_sat_f16", "f16", "cvt.rn.sat.f16.f32 {d}, {a};", cvtf("f16", "f32", "rn", sat=True))
    k.write("cvt_half")
    # packed: a -> upper half, b -> lower half
    b = s[len(s) // 2:] + s[:len(s) // 2]
    k = Kernel("cvt_x2_from_f32", "cvt.{rn,rz}{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a to the upper half, b to the lower",
               version="8.1", target="sm_90")
    outs = []
    for dt in ("f16", "bf16"):
        for m in ("rn", "rz"):
            for sf in ("", ".satfinite"):
                outs.append((nm("%s%s_%sx2" % (m, sf, dt)), dt + "x2", "cvt.%s%s.%sx2.f32 {d}, {a}, {b};" % (m, sf, dt),
                             lambda x, y, dt=dt, m=m, sf=sf: cvtf(dt, "f32", m, satfinite=bool(sf))(x) << 16 |
                             cvtf(dt, "f32", m, satfinite=bool(sf))(y)))
        outs.append(("rn_relu_%sx2" % dt, dt + "x2", "cvt.rn.relu.%sx2.f32 {d}, {a}, {b};" % dt,
                     lambda x, y, dt=dt: cvtf(dt, "f32", "rn", relu=True)(x) << 16 | cvtf(dt, "f32", "rn", relu=True)(y)))
    A, B = filt((s, b), [o[3] for o in outs])
    k.input("a", "f32", A)
    k.input("b", "f32", B)
    for o in outs:
        k.output(*o)
    k.write("cvt_half")
    # tf32
    k = Kernel("cvt_tf32", "cvt.rna{.satfinite}.tf32.f32, cvt.{rn,rz}{.satfinite}.tf32.f32 (.b32 with 13 low bits zero)",
               version="8.6", target="sm_100")
    k.input("a", "f32", s)
    k.output("rna", "tf32", "cvt.rna.tf32.f32 {d}, {a};", cvtf("tf32", "f32", "rna"))
    k.output("rna_satfinite", "tf32", "cvt.rna.satfinite.tf32.f32 {d}, {a};", cvtf("tf32", "f32", "rna", satfinite=True))
    for m in ("rn", "rz"):
        k.output(m, "tf32", "cvt.%s.tf32.f32 {d}, {a};" % m, cvtf("tf32", "f32", m))
        k.output(m + "_satfinite", "tf32", "cvt.%s.satfinite.tf32.f32 {d}, {a};" % m, cvtf("tf32", "f32", m, satfinite=True))
    k.write("cvt_half")
    # f64 -> f16/bf16: ties off by less than an f32 ulp (rounding through f32 is wrong)
    d = []
    for x in (1 + Fraction(1, 2 ** 11), 1 + Fraction(1, 2 ** 11) + Fraction(1, 2 ** 40), 1 + Fraction(1, 2 ** 11) - Fraction(1, 2 ** 40),
              1 + Fraction(1, 2 ** 8), 1 + Fraction(1, 2 ** 8) + Fraction(1, 2 ** 40), 1 + Fraction(1, 2 ** 8) - Fraction(1, 2 ** 40),
              1 + Fraction(3, 2 ** 11), 1 + Fraction(3, 2 ** 8), Fraction(65504), Fraction(65520), Fraction(65520) - Fraction(1, 2 ** 30),
              Fraction(65536), F.maxfinite("bf16"), F.maxfinite("bf16") + Fraction(2) ** 119, F.maxfinite("bf16") + Fraction(2) ** 119 - Fraction(2) ** 90,
              Fraction(2) ** 128, Fraction(2) ** 1000, Fraction(2) ** -24, Fraction(2) ** -25, Fraction(2) ** -25 + Fraction(2) ** -60,
              Fraction(3, 2) * Fraction(2) ** -24, Fraction(2) ** -14 - Fraction(2) ** -26, Fraction(2) ** -133, Fraction(2) ** -134,
              Fraction(2) ** -134 + Fraction(2) ** -170, Fraction(2) ** -126, Fraction(2) ** -1000, Fraction(1, 3), Fraction(2, 3), 100):
        for sg in (0, 1):
            d.append(F.round_to(F.num(x), "f64") | sg << 63)
    d += [0, SIGN["f64"], INF("f64"), INF("f64") | SIGN["f64"], 0x7ff8000000000000, SNAN["f64"], 1, 1 | SIGN["f64"],
          MAXB("f64"), 0x000fffffffffffff]
    while len(d) < 128:
        d.append(rv(R, "f64", R.randint(-30, 20) if R.random() < 0.5 else R.randint(-140, 130)))
    k = Kernel("cvt_half_from_f64", "cvt.{rn,rz,rm,rp}.{f16,bf16}.f64: one rounding from f64 (not through f32), overflow, subnormals")
    k.input("a", "f64", d)
    for dt in ("f16", "bf16"):
        for m in ("rn", "rz", "rm", "rp"):
            k.output("%s_%s" % (m, dt), dt, "cvt.%s.%s.f64 {d}, {a};" % (m, dt), cvtf(dt, "f64", m))
    k.write("cvt_half")
    # f16 <-> bf16 and halves -> f32/f64 (exact)
    h = H16 + [SNAN["f16"], 0xfe00, 0x03ff, 0x8001, 0x0200, 0x5bff, 0x3bff, 0x7800]
    bb = B16 + [SNAN["bf16"], 0xffc0, 0x007f, 0x8001, 0x0040, 0x477f, 0x3f7f, 0x4700]
    while len(h) < 96:
        h.append(R.getrandbits(16))
        bb.append(R.getrandbits(16))
    k = Kernel("cvt_half_to_float", "cvt.{f32,f64}.{f16,bf16} (exact), cvt.{rn,rz,rm,rp}.bf16.f16 and .f16.bf16")
    k.input("h", "f16", h)
    k.input("bb", "bf16", bb)
    k.output("f32_f16", "f32", "cvt.f32.f16 {d}, {h};", lambda x, y: F.encode_v(D(x, "f16"), "f32"))
    k.output("f64_f16", "f64", "cvt.f64.f16 {d}, {h};", lambda x, y: F.encode_v(D(x, "f16"), "f64"))
    k.output("f32_bf16", "f32", "cvt.f32.bf16 {d}, {bb};", lambda x, y: F.encode_v(D(y, "bf16"), "f32"))
    k.output("f64_bf16", "f64", "cvt.f64.bf16 {d}, {bb};", lambda x, y: F.encode_v(D(y, "bf16"), "f64"))
    for m in ("rn", "rz", "rm", "rp"):
        k.output(m + "_bf16_f16", "bf16", "cvt.%s.bf16.f16 {d}, {h};" % m, lambda x, y, m=m: F.round_to(D(x, "f16"), "bf16", m))
        k.output(m + "_f16_bf16", "f16", "cvt.%s.f16.bf16 {d}, {bb};" % m, lambda x, y, m=m: F.round_to(D(y, "bf16"), "f16", m))
    k.write("cvt_half")


def build_cvt_int_half(R):
    v32 = [0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x80000001, 2048, 2049, 2051, 2050, 4097, 4098, 4099, 65504,
           65519, 65520, 65521, 65535, 65536, 0xffff0020, 0xffff0010, 0xffff000f, 0xffff0011, 256, 257, 259, 258,
           0xfffffeff, 0xfffffefd, 0x01010000, 0x01018000, 0x01008000, 0x01008001, 0xff7f8000, 0xff7f7fff,
           0xfffff7ff, 0xfffff7fd, 0x12345678, 0x87654321]
    while len(v32) < 64:
        v32.append(R.getrandbits(32) >> R.randint(0, 31))
    v64 = [x | (0xffffffff00000000 if x >> 31 else 0) for x in v32[:40]]
    v64[3] = 1 << 63
    v64[4] = (1 << 64) - 1
    v64[5] = 0xff7f800000000000
    v64[6] = (0xff80 << 48) + (1 << 40)
    while len(v64) < 64:
        v64.append(R.getrandbits(64) >> R.randint(0, 63))
    v16 = [x & 0xffff for x in v32]
    k = Kernel("cvt_int_to_half", "cvt.{rn,rz,rm,rp}.{f16,bf16}.{s16,u16,s32,u32,s64,u64}: ties, overflow to inf or max")
    k.input("a", "u32", v32)
    k.input("l", "u64", v64)
    k.input("s", "u16", v16)
    for dt in ("f16", "bf16"):
        for m in ("rn", "rz", "rm", "rp"):
            for at, reg in (("s32", "a"), ("u32", "a"), ("s64", "l"), ("u64", "l"), ("s16", "s"), ("u16", "s")):
                if at in ("s16", "u16") and dt == "bf16" and m in ("rz", "rp"):
                    continue
                k.output("%s_%s_%s" % (m, dt, at), dt, "cvt.%s.%s.%s {d}, {%s};" % (m, dt, at, reg),
                         lambda x, y, z, dt=dt, m=m, at=at, reg=reg: i2f(dt, at, m)({"a": x, "l": y, "s": z}[reg]))
    k.write("cvt_half")
    # f16/bf16 -> integers
    h = [0x0000, 0x8000, 0x3800, 0x3e00, 0x4100, 0xb800, 0xbe00, 0xc100, 0x3400, 0x3a00, 0x3c00, 0xbc00, 0x7bff,
         0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x0001, 0x8001, 0x7800, 0xf800, 0x77ff, 0xf7ff, 0x5bfc, 0xdbfc,
         0x63ff, 0x3bff, 0x3c01, 0xbc01, 0x5bff, 0x57ff]
    bb = [0x0000, 0x8000, 0x3f00, 0x3fc0, 0x4020, 0xbf00, 0xbfc0, 0xc020, 0x3e80, 0x3f40, 0x3f80, 0xbf80, 0x7f7f,
          0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x0001, 0x8001, 0x4f00, 0xcf00, 0x4f80, 0xcf80, 0x5f00, 0xdf00,
          0x5f80, 0xdf80, 0x46ff, 0x477f, 0x4780, 0xc700]
    while len(h) < 64:
        h.append(rv(R, "f16", R.randint(-3, 15)))
        bb.append(rv(R, "bf16", R.randint(-3, 66)))
    k = Kernel("cvt_half_to_int", "cvt.{rni,rzi,rmi,rpi}.{s16,u16,s32,u32,s64,u64}.{f16,bf16}: ties, clamping, NaN")
    k.input("h", "f16", h)
    k.input("bb", "bf16", bb)
    for at, reg in (("f16", "h"), ("bf16", "bb")):
        for dt in ("s32", "u32", "s64", "u64", "s16", "u16"):
            for irnd in ("rni", "rzi", "rmi", "rpi"):
                k.output("%s_%s_%s" % (irnd, dt, at), dt, "cvt.%s.%s.%s {d}, {%s};" % (irnd, dt, at, reg),
                         lambda x, y, dt=dt, at=at, irnd=irnd: f2i(dt, at, irnd)(x if at == "f16" else y))
    k.write("cvt_half")


def build_rcp_div(R):
    for t in ("f32", "f64"):
        p, emin, emax, S = P[t], EMIN[t], EMAX[t], SIGN[t]
        L = [0, S, INF(t), INF(t) | S, F.QNAN[t], SNAN[t], ONE(t), ONE(t) | S, MAXB(t), MAXB(t) | S, 1, 1 | S, 2, 3,
             MINNORM(t) - 1, MINNORM(t), MINNORM(t) | S, fb(t, 0, 1, emin - 1), fb(t, 0, 1, emin - 2), fb(t, 0, 3, emin - 2),
             fb(t, 0, 1, emax), fb(t, 1, 1, emax), fb(t, 0, 1, emax - 1), fb(t, 0, 3, emax - 2), fb(t, 0, 3, emax - 1),
             fb(t, 0, (1 << p) - 1, emax - p), fb(t, 0, (1 << (p - 1)) + 1, emax - (p - 1)), fb(t, 0, 3, 0), fb(t, 1, 3, 0),
             fb(t, 0, 5, 0), fb(t, 0, 7, -2), fb(t, 0, (1 << p) - 1, -p), fb(t, 0, (1 << (p - 1)) + 1, -(p - 1))]
        while len(L) < 128:
            r = R.random()
            if r < 0.2:
                L.append(rv(R, t, R.randint(emax - 3, emax)))      # reciprocal near or below the normal range
            elif r < 0.3:
                L.append(rv(R, t, emin - R.randint(1, p)))         # subnormal: reciprocal may overflow
            else:
                L.append(rv(R, t, R.randint(-40, 40)))
        outs = [("rcp_" + m, "rcp.%s.%s {d}, {a};" % (m, t), rcp(t, m)) for m in ("rn", "rz", "rm", "rp")]
        if t == "f32":
            outs += [("rcp_%s_ftz" % m, "rcp.%s.ftz.f32 {d}, {a};" % m, rcp(t, m, True)) for m in ("rn", "rz", "rm", "rp")]
        L = filt((L,), [o[2] for o in outs])[0]
        k = Kernel("rcp_%s_rounding" % t, "rcp.{rn,rz,rm,rp}%s.%s: specials, subnormal inputs and results, overflow, random"
                   % ("{.ftz}" if t == "f32" else "", t))
        k.input("a", t, L)
        for name, snip, fn in outs:
            k.output(name, t, snip, fn)
        k.write("arith")
    # div.ftz.f32 around the subnormal range
    t = "f32"
    E = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x3f800000, 0xbf800000,
         0x34000000, 0x4b000000, 0x7f7fffff, 0x7f800000, 0x7fc00000]
    a, b = pairs(E)
    outs = [("div_rn", "div.rn.f32 {d}, {a}, {b};", arith(t, "div", "rn")),
            ("div_rn_ftz", "div.rn.ftz.f32 {d}, {a}, {b};", arith(t, "div", "rn", True))]
    outs += [("div_%s_ftz" % m, "div.%s.ftz.f32 {d}, {a}, {b};" % m, arith(t, "div", m, True)) for m in ("rz", "rm", "rp")]
    # quotients just below the smallest normal
    for _ in range(31):
        x = rv(R, t, R.randint(-20, 20), sign=0)
        q = fb(t, R.getrandbits(1), R.randrange(1 << 22, 1 << 23), EMIN[t] - 23)   # subnormal
        a.append(F.round_to(F.mul(D(x, t), D(q, t)), t))
        b.append(x)
    a, b = filt((a, b), [o[2] for o in outs])
    k = Kernel("div_f32_ftz", "div.{rn,rz,rm,rp}.ftz.f32: subnormal operands flushed (0/sub is NaN), subnormal quotients flushed")
    k.input("a", t, a[:256])
    k.input("b", t, b[:256])
    for name, snip, fn in outs:
        k.output(name, t, snip, fn)
    k.write("arith")


def build(R):
    build_half_arith(R)
    build_minmax(R)
    build_testp(R)
    build_setp(R)
    build_mixed(R)
    build_cvt_half(R)
    build_cvt_int_half(R)
    build_rcp_div(R)
