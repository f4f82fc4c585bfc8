"""Exact IEEE 754 binary floating point on bit patterns, with fractions.Fraction.

No host floating-point arithmetic is used: a finite operand is decoded to an
exact rational, the operation is carried out exactly (sqrt by integer square
root with a sticky remainder), and the exact result is rounded to the
destination format by `round_to` (round to nearest even, or the directed
modes).  Special values (NaN, infinities, signed zeros) follow IEEE 754-2008
clauses 6 and 7 and the PTX manual where it says more (min/max, .ftz, .sat,
cvt float->int).
"""
from fractions import Fraction
from math import isqrt

# name: (precision p incl. hidden bit, emin, emax, width, exponent bits)
FMT = {
    "f16": (11, -14, 15, 16, 5),
    "bf16": (8, -126, 127, 16, 8),
    "f32": (24, -126, 127, 32, 8),
    "f64": (53, -1022, 1023, 64, 11),
    # tf32 (cvt.*.tf32.f32): f32's exponent range with an 11-bit significand; only
    # round_mag/maxfinite use it, results are encoded as f32 (13 low bits zero)
    "tf32": (11, -126, 127, 32, 8),
}
QNAN = {"f16": 0x7fff, "bf16": 0x7fff, "f32": 0x7fffffff, "f64": 0x7fffffffffffffff}


class V:
    """A decoded value: kind 'nan', 'inf' or 'num'; sign 0/1; mag (Fraction >= 0)."""
    __slots__ = ("kind", "sign", "mag")

    def __init__(self, kind, sign=0, mag=Fraction(0)):
        self.kind, self.sign, self.mag = kind, sign, mag

    def val(self):
        return -self.mag if self.sign else self.mag

    def is_zero(self):
        return self.kind == "num" and self.mag == 0

    def __repr__(self):
        return "V(%s,%d,%s)" % (self.kind, self.sign, self.mag)


NAN = V("nan")


def num(x):
    """V from an exact rational (a zero from here is +0)."""
    x = Fraction(x)
    return V("num", 1 if x < 0 else 0, abs(x))


def decode(bits, t):
    p, emin, emax, w, eb = FMT[t]
    m = p - 1
    sign = bits >> (w - 1) & 1
    e = bits >> m & ((1 << eb) - 1)
    f = bits & ((1 << m) - 1)
    if e == (1 << eb) - 1:
        return V("nan") if f else V("inf", sign)
    if e == 0:
        mag = Fraction(f) * Fraction(2) ** (emin - m)
    else:
        mag = Fraction((1 << m) | f) * Fraction(2) ** (e - (emax) - m)
    return V("num", sign, mag)


def ilog2(x):
    """floor(log2(x)) of a positive Fraction."""
    n, d = x.numerator, x.denominator
    e = n.bit_length() - d.bit_length()
    if e >= 0:
        if n < d << e:
            e -= 1
    else:
        if n << -e < d:
            e -= 1
    return e


def maxfinite(t):
    p, emin, emax, w, eb = FMT[t]
    return Fraction((1 << p) - 1) * Fraction(2) ** (emax - p + 1)


def encode_exact(sign, mag, t):
    """Bits of a representable magnitude (asserts exactness)."""
    p, emin, emax, w, eb = FMT[t]
    m = p - 1
    s = sign << (w - 1)
    if mag == 0:
        return s
    e = ilog2(mag)
    if e < emin:
        f = mag / Fraction(2) ** (emin - m)
        assert f.denominator == 1 and f < (1 << m)
        return s | int(f)
    f = mag / Fraction(2) ** (e - m)
    assert f.denominator == 1 and (1 << m) <= f < (1 << p), (mag, t)
    assert e <= emax
    return s | (e + emax) << m | (int(f) - (1 << m))


def encode_inf(sign, t):
    p, emin, emax, w, eb = FMT[t]
    return sign << (w - 1) | ((1 << eb) - 1) << (p - 1)


def round_int(x, mode, sign):
    """Round a non-negative Fraction x (magnitude of a value of sign `sign`) to an integer."""
    fl = x.numerator // x.denominator
    r = x - fl
    if r == 0:
        return fl
    if mode == "rn":
        if r > Fraction(1, 2) or (r == Fraction(1, 2) and fl & 1):
            return fl + 1
        return fl
    if mode == "rz":
        return fl
    if mode == "rm":
        return fl + 1 if sign else fl
    if mode == "rp":
        return fl if sign else fl + 1
    if mode == "rna":
        return fl + 1 if r >= Fraction(1, 2) else fl
    raise ValueError(mode)


def round_mag(sign, mag, t, mode="rn"):
    """Round an exact nonzero-or-zero magnitude to format t: returns (kind, magnitude)."""
    p, emin, emax, w, eb = FMT[t]
    if mag == 0:
        return "num", Fraction(0)
    e = max(ilog2(mag), emin)
    q = Fraction(2) ** (e - p + 1)
    n = round_int(mag / q, mode, sign)
    r = n * q
    if r > maxfinite(t):
        over_inf = {"rn": True, "rna": True, "rz": False, "rm": bool(sign), "rp": not sign}[mode]
        return ("inf", None) if over_inf else ("num", maxfinite(t))
    return "num", r


def round_to(v, t, mode="rn"):
    """Bits of V v rounded to format t."""
    if v.kind == "nan":
        return QNAN[t]
    if v.kind == "inf":
        return encode_inf(v.sign, t)
    k, r = round_mag(v.sign, v.mag, t, mode)
    if k == "inf":
        return encode_inf(v.sign, t)
    return encode_exact(v.sign, r, t)


def is_sub(bits, t):
    v = decode(bits, t)
    p, emin, *_ = FMT[t]
    return v.kind == "num" and 0 < v.mag < Fraction(2) ** emin


def ftz(bits, t, on):
    """Flush a subnormal (of an f32) to a zero of the same sign when `on`."""
    if on and is_sub(bits, t):
        p, emin, emax, w, eb = FMT[t]
        return bits & (1 << (w - 1))
    return bits


def is_nan(bits, t):
    return decode(bits, t).kind == "nan"


# ---------------------------------------------------------------- exact ops
def add(a, b, mode="rn"):
    """Exact a+b as a V (zero signs per IEEE 754 6.3 for the rounding mode)."""
    if a.kind == "nan" or b.kind == "nan":
        return NAN
    if a.kind == "inf" or b.kind == "inf":
        if a.kind == "inf" and b.kind == "inf" and a.sign != b.sign:
            return NAN
        return a if a.kind == "inf" else b
    s = a.val() + b.val()
    if s == 0:
        if a.is_zero() and b.is_zero() and a.sign == b.sign:
            return V("num", a.sign)
        return V("num", 1 if mode == "rm" else 0)
    return num(s)


def neg(a):
    return V(a.kind, a.sign ^ 1, a.mag) if a.kind != "nan" else a


def mul(a, b):
    if a.kind == "nan" or b.kind == "nan":
        return NAN
    s = a.sign ^ b.sign
    if a.kind == "inf" or b.kind == "inf":
        if a.is_zero() or b.is_zero():
            return NAN
        return V("inf", s)
    return V("num", s, a.mag * b.mag)


def div(a, b):
    if a.kind == "nan" or b.kind == "nan":
        return NAN
    s = a.sign ^ b.sign
    if a.kind == "inf":
        return NAN if b.kind == "inf" else V("inf", s)
    if b.kind == "inf":
        return V("num", s)
    if b.is_zero():
        return NAN if a.is_zero() else V("inf", s)
    return V("num", s, a.mag / b.mag)


def fma(a, b, c, mode="rn"):
    """Exact a*b+c (the product is not rounded)."""
    p = mul(a, b)
    if p.kind == "nan" or c.kind == "nan":
        return NAN
    return add(p, c, mode)


def sqrt_round(a, t, mode="rn"):
    """sqrt(a) correctly rounded to t, from integer square roots (no host floats)."""
    if a.kind == "nan":
        return QNAN[t]
    if a.is_zero():
        return encode_exact(a.sign, Fraction(0), t)
    if a.sign:
        return QNAN[t]
    if a.kind == "inf":
        return encode_inf(0, t)
    p, emin, emax, w, eb = FMT[t]
    # x = a * 4^k has a root with >= p+3 integer bits; r = floor(sqrt(x)).
    # When inexact, sqrt(x) lies strictly inside (r, r+1) and every rounding
    # boundary (representable value or midpoint) is an integer there, so
    # r + 1/2 rounds exactly like the true root.
    k = (2 * (p + 3) - ilog2(a.mag)) // 2 + 1
    x = a.mag * Fraction(4) ** k
    n = x.numerator // x.denominator
    r = isqrt(n)
    exact = x.denominator == 1 and r * r == n
    mag = (Fraction(r) + (0 if exact else Fraction(1, 2))) / Fraction(2) ** k
    return round_to(V("num", 0, mag), t, mode)


def minmax(a, b, op):
    """min/max per 9.7.3.11-12 (min_num/max_num; -0 < +0)."""
    if a.kind == "nan" and b.kind == "nan":
        return NAN
    if a.kind == "nan":
        return b
    if b.kind == "nan":
        return a

    def key(v):
        if v.kind == "inf":
            return (Fraction(-1) if v.sign else Fraction(1), 2, 0)
        return (v.val(), 1, -v.sign if v.is_zero() else 0)

    def lt(x, y):
        kx, ky = key(x), key(y)
        if x.kind == "inf" or y.kind == "inf":
            ox = (-1 if x.sign else 1) if x.kind == "inf" else 0
            oy = (-1 if y.sign else 1) if y.kind == "inf" else 0
            if ox != oy:
                return ox < oy
            return False if ox else x.val() < y.val()
        if x.val() != y.val():
            return x.val() < y.val()
        return x.sign > y.sign  # -0 < +0
    if op == "min":
        return a if lt(a, b) else b
    return a if lt(b, a) else b


def compare(a, b):
    """'un' if unordered, else -1/0/1."""
    if a.kind == "nan" or b.kind == "nan":
        return "un"

    def ext(v):
        if v.kind == "inf":
            return (-1 if v.sign else 1, 0)
        return (0, v.val())
    ea, eb_ = ext(a), ext(b)
    return (ea > eb_) - (ea < eb_)


def encode_v(v, t):
    """Bits of an exactly representable V."""
    if v.kind == "nan":
        return QNAN[t]
    if v.kind == "inf":
        return encode_inf(v.sign, t)
    return encode_exact(v.sign, v.mag, t)
