"""Cases for cvt to and from the packed narrow float formats (5.2.3, 9.7.9.21):
e4m3x2, e5m2x2 (8-bit), e2m3x2, e3m2x2 (6-bit in a byte), e2m1x2 (4-bit).
Called from gen.py's build() with its own random seed.  Expected values from
exact rationals only: every code of a format is decoded from the manual's
definition, and a conversion to the format is rounded twice, by the binary
rule (round(x / ulp) to even) and by a search for the nearest representable
value (a tie to the even code); the two must agree.
"""
from fractions import Fraction

import ieee as F
from ieee import decode as D
from kernel import Kernel


class Ambiguous(Exception):
    """The manual leaves this result open; the vector is not used in that case."""


# name: (exponent bits, mantissa bits, bias, specials)
#   "ieee": the all-ones exponent is infinity (f == 0) or NaN (e5m2)
#   "nanonly": no infinity; only S.1111.111 is NaN (e4m3: 0x7f, 0xff)
#   "finite": no infinity, no NaN (e2m3, e3m2, e2m1)
NF = {
    "e4m3": (4, 3, 7, "nanonly"),
    "e5m2": (5, 2, 15, "ieee"),
    "e2m3": (2, 3, 1, "finite"),
    "e3m2": (3, 2, 3, "finite"),
    "e2m1": (2, 1, 1, "finite"),
}
# where the element sits in the packed register: bits per slot
SLOT = {"e4m3": 8, "e5m2": 8, "e2m3": 8, "e3m2": 8, "e2m1": 4}
TWO = Fraction(2)


def width(t):
    e, m, _, _ = NF[t]
    return 1 + e + m


def ndecode(code, t):
    """V of a code of narrow format t (5.2.3)."""
    e, m, bias, kind = NF[t]
    s = code >> (e + m) & 1
    ef = code >> m & ((1 << e) - 1)
    f = code & ((1 << m) - 1)
    top = (1 << e) - 1
    if kind == "ieee" and ef == top:
        return F.V("nan") if f else F.V("inf", s)
    if kind == "nanonly" and ef == top and f == (1 << m) - 1:
        return F.V("nan")
    if ef == 0:
        mag = Fraction(f) * TWO ** (1 - bias - m)
    else:
        mag = Fraction((1 << m) | f) * TWO ** (ef - bias - m)
    return F.V("num", s, mag)


def table(t):
    """Sorted finite non-negative magnitudes of t and {magnitude: positive code}."""
    code = {}
    for c in range(1 << (width(t) - 1)):
        v = ndecode(c, t)
        if v.kind == "num":
            assert v.mag not in code, (t, c)
            code[v.mag] = c
    return sorted(code), code


TAB = {t: table(t) for t in NF}
MAXN = {t: TAB[t][0][-1] for t in NF}
assert MAXN == {"e4m3": 448, "e5m2": 57344, "e2m3": Fraction(15, 2), "e3m2": 28, "e2m1": 6}, MAXN
assert TAB["e2m1"][0] == [0, Fraction(1, 2), 1, Fraction(3, 2), 2, 3, 4, 6]
NEG0 = {t: 1 << (width(t) - 1) for t in NF}


def round_binary(mag, t):
    """.rn of a magnitude <= MAX_NORM: round(mag / ulp) with ties to even."""
    e, m, bias, _ = NF[t]
    if mag == 0:
        return Fraction(0)
    ex = max(F.ilog2(mag), 1 - bias)
    q = TWO ** (ex - m)
    return F.round_int(mag / q, "rn", 0) * q


def round_search(mag, t):
    """.rn of a magnitude <= MAX_NORM: the nearest value; a tie goes to the even code."""
    L, code = TAB[t]
    best = min(L, key=lambda x: (abs(x - mag), code[x] & 1))
    return best


def narrow(t, relu=False):
    """cvt.rn.satfinite{.relu}.<t> of one source value (a V): the code of t.
    .satfinite: |x| > MAX_NORM (infinity included) -> sign-preserved MAX_NORM; NaN -> NaN
    (e4m3, e5m2: returns None, see build_nan) or +MAX_NORM (e2m1, e2m3, e3m2).
    .relu: a negative result -> +0."""
    L, code = TAB[t]
    S = NEG0[t]

    def f(v):
        if v.kind == "nan":
            if NF[t][3] == "finite":
                return code[MAXN[t]]
            return None
        if v.kind == "inf" or v.mag > MAXN[t]:
            r = MAXN[t]
        else:
            r = round_binary(v.mag, t)
            assert r == round_search(v.mag, t), (t, v)
        if v.sign and r == 0:
            if v.mag != 0:
                raise Ambiguous("sign of a negative value that rounds to zero")
            if relu:
                raise Ambiguous(".relu of -0")
        if v.sign and relu:
            return 0
        return code[r] | (S if v.sign else 0)
    return f


def widen(t, dt, relu=False):
    """cvt.rn{.relu}.<dt>x2.<t>x2 of one code: exact (every value of t is a dt value)."""
    def f(c):
        v = ndecode(c, t)
        if v.kind == "nan":
            return F.QNAN[dt]
        if relu and v.sign:
            if v.kind == "num" and v.mag == 0:
                raise Ambiguous(".relu of -0")
            return 0
        r = F.encode_v(v, dt)
        assert F.decode(r, dt).kind == v.kind and (v.kind != "num" or D(r, dt).mag == v.mag)
        return r
    return f


def pack2(t, hi, lo):
    return hi << SLOT[t] | lo


# ------------------------------------------------------------ source values
P = {"f32": 24, "f16": 11}


def sbits(st, sign, mag):
    return F.encode_exact(sign, mag, st)


def edge_scalars(t, st):
    """Every value of t, every midpoint between neighbours (ties), the source values one
    source ulp above and below each midpoint, and values at and beyond MAX_NORM; both signs."""
    L, code = TAB[t]
    e, m, bias, kind = NF[t]
    mags = list(L[1:])                              # exact values (+0 and -0 separately)
    mids = [(x + y) / 2 for x, y in zip(L, L[1:])]
    top = MAXN[t] + TWO ** (F.ilog2(MAXN[t]) - m - 1)   # where .rn without saturation would leave MAX_NORM
    mids.append(top)
    out = []
    for s in (0, 1):
        out += [sbits(st, s, x) for x in mags]
        for x in mids:
            b = sbits(st, s, x)
            out += [b, b + 1, b - 1]                # on, just above and just below the tie
        mx = F.encode_exact(s, F.maxfinite(st), st)
        out += [sbits(st, s, MAXN[t]) + 1, mx, F.encode_inf(s, st)]
        if 2 * MAXN[t] <= F.maxfinite(st):
            out.append(sbits(st, s, 2 * MAXN[t]))
    out.append(0)
    return out


def rand_scalar(R, t, st):
    e, m, bias, kind = NF[t]
    p = P[st]
    ex = R.randint(1 - bias - m - 3, min(F.ilog2(MAXN[t]) + 2, F.FMT[st][2]))
    mant = (1 << (p - 1)) | R.getrandbits(p - 1)
    if R.random() < 0.3:   # few significant bits: ties and exact values
        mant = (1 << (p - 1)) | (R.getrandbits(m + 2) << (p - m - 3))
    v = F.V("num", R.getrandbits(1), Fraction(mant) * TWO ** (ex - p + 1))
    return F.round_to(v, st)   # f16: may round (a source value need not be exact)


def usable(t, st, relu_too=True):
    fs = [narrow(t), narrow(t, relu=True)]

    def ok(b):
        try:
            for f in fs:
                f(D(b, st))
            return True
        except Ambiguous:
            return False
    return ok


def split_pairs(S, R, n):
    """Vectors (a, b) from a scalar list: a takes the first half, b the second half
    shuffled; padded by the caller to a multiple of 2n."""
    h = len(S) // 2
    a, b = S[:h], S[h:]
    R.shuffle(b)
    return [(a[i:i + n], b[i:i + n]) for i in range(0, h, n)]


def fill(S, R, t, st, ok, n):
    """Pad S with random source values to a multiple of 2n, at least 2n."""
    while len(S) % (2 * n) or not S:
        x = rand_scalar(R, t, st)
        if ok(x):
            S.append(x)
    return S


# ------------------------------------------------------------ kernels
def target(t):
    return ("8.0", "sm_90") if t in ("e4m3", "e5m2") else ("8.6", "sm_100a")


def out_narrow(k, t, src, relu, name=None):
    """Output of cvt.rn.satfinite{.relu}.<t>x2.<src>: from f32 a, b or from f16x2 h."""
    r = ".relu" if relu else ""
    f = narrow(t, relu)
    dty = "b8" if t == "e2m1" else "b16"
    if src == "f32":
        snip = "cvt.rn.satfinite%s.%sx2.f32 {d}, {a}, {b};" % (r, t)
        fn = lambda a, b, f=f: pack2(t, f(D(a, "f32")), f(D(b, "f32")))
    else:
        snip = "cvt.rn.satfinite%s.%sx2.f16x2 {d}, {h};" % (r, t)
        fn = lambda h, f=f: pack2(t, f(D(h >> 16, "f16")), f(D(h & 0xffff, "f16")))
    k.output(name or "rn_satfinite%s" % r.replace(".", "_"), dty, snip, fn)


def build_from_f32(R):
    n = 256
    for t in NF:
        for st in (("f32", "f16") if t in ("e4m3", "e5m2") else ("f32",)):
            ok = usable(t, st)
            S = [x for x in edge_scalars(t, st) if ok(x)]
            if NF[t][3] == "finite":      # NaN -> +MAX_NORM (e4m3/e5m2 NaNs: cvt_f8x2_nan)
                S += [0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff] if st == "f32" else []
            chunk = n if len(S) > n // 2 else n // 2     # e2m1: 128 vectors
            S = fill(S, R, t, st, ok, chunk)
            parts = split_pairs(S, R, chunk)
            version, tgt = target(t)
            for i, (a, b) in enumerate(parts):
                name = "cvt_%sx2_from_%s%s" % (t, "f32" if st == "f32" else "f16x2",
                                              "_%d" % (i + 1) if len(parts) > 1 else "")
                what = ("every value, every tie (to the even code), one source ulp either side of each tie, "
                        "beyond MAX_NORM, +-inf%s, random" % (", NaN -> +MAX_NORM" if NF[t][3] == "finite" else "")
                        if i == 0 else "continued: ties, near ties, beyond MAX_NORM, random")
                if st == "f32":
                    k = Kernel(name, "cvt.rn.satfinite{.relu}.%sx2.f32 d, a, b (a to the upper %s): %s; "
                               "-0 and results rounding to -0 left out"
                               % (t, "4 bits" if t == "e2m1" else "byte", what), version=version, target=tgt)
                    k.input("a", "f32", a)
                    k.input("b", "f32", b)
                else:
                    k = Kernel(name, "cvt.rn.satfinite{.relu}.%sx2.f16x2 d, a (the upper half to the upper byte): %s; "
                               "-0 and results rounding to -0 left out" % (t, what), version=version, target=tgt)
                    k.input("h", "f16x2", [x << 16 | y for x, y in zip(a, b)])
                for relu in (False, True):
                    out_narrow(k, t, st, relu)
                k.write("narrow")


# NaN results of e4m3/e5m2 (.satfinite keeps NaN, .relu makes it canonical): the manual
# does not say which NaN encoding (or sign), so the snippet replaces a NaN byte by 0x7f
# with integer instructions and the expected byte is 0x7f.
NANTEST = {"e4m3": "setp.eq.u32 %p{p}, %t1, 127;", "e5m2": "setp.gt.u32 %p{p}, %t1, 124;"}


def canon_snippet(t, instr):
    L = [instr,
         "cvt.u32.u16 %t0, {d};",
         "and.b32 %t1, %t0, 127;",
         NANTEST[t].format(p=0),
         "and.b32 %t2, %t0, 65280;",
         "or.b32 %t2, %t2, 127;",
         "selp.b32 %t0, %t2, %t0, %p0;",
         "shr.u32 %t1, %t0, 8;",
         "and.b32 %t1, %t1, 127;",
         NANTEST[t].format(p=1),
         "and.b32 %t2, %t0, 255;",
         "or.b32 %t2, %t2, 32512;",
         "selp.b32 %t0, %t2, %t0, %p1;",
         "cvt.u16.u32 {d}, %t0;"]
    return "\n".join(L)


def build_nan(R):
    n32 = [0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff, 0xffffffff, 0x7fc00001, 0x7f8fffff]
    n16 = [0x7e00, 0xfe00, 0x7c01, 0xfc01, 0x7fff, 0xffff, 0x7e01, 0x7d00]
    o32 = [0x3f800000, 0xbf800000, 0x43e00000, 0xc3fa0000, 0x47600000, 0x7f800000, 0xff800000, 0x3a800000, 0x00000000,
           0x43e80000, 0xc7700000, 0x37800000]   # 1, -1, 448, -500, 57344, +-inf, 2^-10, 0, 464, -61440, 2^-16
    o16 = [0x3c00, 0xbc00, 0x5f00, 0xdfd0, 0x7b00, 0x7c00, 0xfc00, 0x1400, 0x0000, 0x5f40, 0xfb80, 0x0100]
    A, B, H = [], [], []
    for i, x in enumerate(n32):
        for j in range(8):
            y = n32[(i + j) % 8] if j < 2 else o32[(i * 3 + j) % len(o32)]
            y16 = n16[(i + j) % 8] if j < 2 else o16[(i * 5 + j) % len(o16)]
            if j & 1:
                A.append(y)
                B.append(x)
                H.append(y16 << 16 | n16[i])
            else:
                A.append(x)
                B.append(y)
                H.append(n16[i] << 16 | y16)

    def lane(t, relu, v):
        r = narrow(t, relu)(v)
        return 0x7f if r is None else r
    k = Kernel("cvt_f8x2_nan", "cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32,f16x2} with NaN inputs (quiet, signalling, "
               "negative, payloads) beside ordinary values; a NaN byte of the result is replaced by 0x7f before "
               "the compare (any e4m3/e5m2 NaN encoding is accepted)")
    k.input("a", "f32", A)
    k.input("b", "f32", B)
    k.input("h", "f16x2", H)
    for t in ("e4m3", "e5m2"):
        for relu in (False, True):
            r = ".relu" if relu else ""
            k.output("%s_f32%s" % (t, r.replace(".", "_")), "b16",
                     canon_snippet(t, "cvt.rn.satfinite%s.%sx2.f32 {d}, {a}, {b};" % (r, t)),
                     lambda a, b, h, t=t, relu=relu: lane(t, relu, D(a, "f32")) << 8 | lane(t, relu, D(b, "f32")))
            k.output("%s_f16x2%s" % (t, r.replace(".", "_")), "b16",
                     canon_snippet(t, "cvt.rn.satfinite%s.%sx2.f16x2 {d}, {h};" % (r, t)),
                     lambda a, b, h, t=t, relu=relu: lane(t, relu, D(h >> 16, "f16")) << 8 | lane(t, relu, D(h & 0xffff, "f16")))
    k.write("narrow")


def build_neg_zero(R):
    """-0 sources (exact: -0 in every format); without .relu only."""
    nz = 0x80000000
    o32 = [nz, 0, 0x3f800000, 0xbf800000, 0x40000000, 0xc0c00000, 0x3f000000, 0xbf000000]
    A = [nz] * 8 + o32
    B = o32 + [nz] * 8
    o16 = [0x8000, 0x0000, 0x3c00, 0xbc00, 0x4000, 0xc600, 0x3800, 0xb800]   # the same values in f16
    H = [0x8000 << 16 | y for y in o16] + [y << 16 | 0x8000 for y in o16]
    k = Kernel("cvt_narrow_neg_zero", "cvt.rn.satfinite.{e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2}.f32 and "
               ".{e4m3x2,e5m2x2}.f16x2 of -0 (exact: -0), beside other values; no .relu", version="8.6", target="sm_100a")
    k.input("a", "f32", A)
    k.input("b", "f32", B)
    k.input("h", "f16x2", H)
    for t in NF:
        f = narrow(t)
        k.output("%s_f32" % t, "b8" if t == "e2m1" else "b16", "cvt.rn.satfinite.%sx2.f32 {d}, {a}, {b};" % t,
                 lambda a, b, h, t=t, f=f: pack2(t, f(D(a, "f32")), f(D(b, "f32"))))
        if t in ("e4m3", "e5m2"):
            k.output("%s_f16x2" % t, "b16", "cvt.rn.satfinite.%sx2.f16x2 {d}, {h};" % t,
                     lambda a, b, h, t=t, f=f: pack2(t, f(D(h >> 16, "f16")), f(D(h & 0xffff, "f16"))))
    k.write("narrow")


def widen_inputs(relu):
    """Per format the packed source of 256 vectors: the upper element runs through every
    code, the lower element through a permutation of them (e2m1x2: all 256 pairs).
    With .relu, -0 is replaced by the smallest negative subnormal."""
    ins = {}
    for t in NF:
        nb = width(t)
        ncode = 1 << nb
        v = []
        for i in range(256):
            hi = i % ncode
            lo = (i * 167 + 89 + i // ncode * 7) % ncode if t != "e2m1" else i & 15
            if t == "e2m1":
                hi = i >> 4
            if relu:
                hi = NEG0[t] | 1 if hi == NEG0[t] else hi
                lo = NEG0[t] | 1 if lo == NEG0[t] else lo
            v.append(pack2(t, hi, lo))
        for lane in (0, 1):
            seen = {x >> (SLOT[t] * lane) & ((1 << SLOT[t]) - 1) for x in v}
            assert len(seen) == ncode - (1 if relu else 0), (t, lane, len(seen))
        ins[t] = v
    return ins


def build_widen(R):
    for dt, version, tgt in (("f16", "8.6", "sm_100a"), ("bf16", "9.2", "sm_100a")):
        for relu in (False, True):
            r = ".relu" if relu else ""
            ins = widen_inputs(relu)
            k = Kernel("cvt_%sx2_from_narrow%s" % (dt, r.replace(".", "_")),
                       "cvt.rn%s.%sx2.{e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2} d, a (exact; the upper element to the upper "
                       "half): every code in both elements%s" % (r, dt, ", -0 left out" if relu else ""),
                       version=version, target=tgt)
            names = list(NF)
            for t in names:
                k.input(t, "b8" if t == "e2m1" else "b16", ins[t])
            for j, t in enumerate(names):
                f = widen(t, dt, relu)
                mask = (1 << SLOT[t]) - 1
                k.output("%s%s" % (t, r.replace(".", "_")), dt + "x2", "cvt.rn%s.%sx2.%sx2 {d}, {%s};" % (r, dt, t, t),
                         lambda *xs, j=j, t=t, f=f, mask=mask: f(xs[j] >> SLOT[t]) << 16 | f(xs[j] & mask))
            k.write("narrow")


def build(R):
    build_from_f32(R)
    build_nan(R)
    build_neg_zero(R)
    build_widen(R)
