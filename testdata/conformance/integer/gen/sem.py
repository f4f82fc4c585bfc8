"""Reference semantics for the integer conformance suite.

Every function here is a transcription of the Semantics pseudo-code (and the
Notes) of the PTX ISA 9.0 manual, ptx-isa-9.0.txt, section given in each
docstring.  Values are Python ints holding the raw bit pattern of a register
(always in 0 .. 2**n-1); helpers s()/u() convert between the raw pattern and
the signed / unsigned reading.  Nothing here was derived by running ptxvm.
"""

def M(n):
    return (1 << n) - 1


def u(v, n):
    """raw bit pattern (mod 2**n)"""
    return v & M(n)


def s(v, n):
    """signed reading of an n-bit pattern"""
    v &= M(n)
    return v - (1 << n) if v >> (n - 1) else v


def clamp(v, lo, hi):
    return lo if v < lo else hi if v > hi else v


def val(v, n, signed):
    return s(v, n) if signed else u(v, n)


# ---------------------------------------------------------------- 9.7.1.1/2
def add(a, b, n):
    return u(a + b, n)


def sub(a, b, n):
    return u(a - b, n)


def add_sat_s32(a, b):
    # 9.7.1.1 Notes: .sat limits result to MININT..MAXINT for the size of the operation
    return u(clamp(s(a, 32) + s(b, 32), -2**31, 2**31 - 1), 32)


def sub_sat_s32(a, b):
    return u(clamp(s(a, 32) - s(b, 32), -2**31, 2**31 - 1), 32)


# ---------------------------------------------------------------- 9.7.1.3/4
def mul(mode, a, b, n, signed):
    """t = a*b; d = t (.wide, 2n bits), t<2n-1..n> (.hi), t<n-1..0> (.lo)"""
    t = val(a, n, signed) * val(b, n, signed)
    if mode == "wide":
        return u(t, 2 * n)
    if mode == "hi":
        return u(t >> n, n)  # Python >> on negative ints is floor: two's complement bits
    return u(t, n)


def mad(mode, a, b, c, n, signed):
    if mode == "wide":
        return u(mul("wide", a, b, n, signed) + c, 2 * n)
    return u(mul(mode, a, b, n, signed) + c, n)


def mad_hi_sat_s32(a, b, c):
    hi = (s(a, 32) * s(b, 32)) >> 32  # signed t<63..32>
    return u(clamp(hi + s(c, 32), -2**31, 2**31 - 1), 32)


# ---------------------------------------------------------------- 9.7.1.5/6
def mul24(mode, a, b, signed):
    """t = a*b (48-bit product of 24-bit values); .hi: t<47..16>, .lo: t<31..0>"""
    va, vb = val(a, 32, signed), val(b, 32, signed)
    lim = (-2**23, 2**23 - 1) if signed else (0, 2**24 - 1)
    assert lim[0] <= va <= lim[1] and lim[0] <= vb <= lim[1], "only 24-bit inputs are tested"
    t = va * vb
    return u(t >> 16, 32) if mode == "hi" else u(t, 32)


def mad24(mode, a, b, c, signed, sat=False):
    p = mul24(mode, a, b, signed)
    if sat:
        return u(clamp(s(p, 32) + s(c, 32), -2**31, 2**31 - 1), 32)
    return u(p + c, 32)


# ---------------------------------------------------------------- 9.7.1.7
def sad(a, b, c, n, signed):
    va, vb = val(a, n, signed), val(b, n, signed)
    return u(c + ((vb - va) if va < vb else (va - vb)), n)


# ---------------------------------------------------------------- 9.7.1.8/9
def div(a, b, n, signed):
    va, vb = val(a, n, signed), val(b, n, signed)
    assert vb != 0
    q = abs(va) // abs(vb)  # truncation toward zero (see README)
    if (va < 0) != (vb < 0):
        q = -q
    return u(q, n)


def rem(a, b, n, signed):
    va, vb = val(a, n, signed), val(b, n, signed)
    q = s(div(a, b, n, signed), n) if signed else div(a, b, n, signed)
    return u(va - q * vb, n)


# ---------------------------------------------------------------- 9.7.1.10-13
def abs_(a, n):
    return u(abs(s(a, n)), n)


def neg(a, n):
    return u(-s(a, n), n)


def min_(a, b, n, signed, relu=False):
    va, vb = val(a, n, signed), val(b, n, signed)
    r = va if va < vb else vb
    if relu:
        r = max(r, 0)
    return u(r, n)


def max_(a, b, n, signed, relu=False):
    va, vb = val(a, n, signed), val(b, n, signed)
    r = va if va > vb else vb
    if relu:
        r = max(r, 0)
    return u(r, n)


def lanes(x, w, k):
    return [(x >> (w * i)) & M(w) for i in range(k)]


def pack(ls, w):
    r = 0
    for i, v in enumerate(ls):
        r |= (v & M(w)) << (w * i)
    return r


def packed(op, a, b, w, k):
    """.u16x2/.s16x2 (w=16,k=2) and 9.2 .u8x4/.s8x4 (w=8,k=4): lane-wise op"""
    return pack([op(x, y) for x, y in zip(lanes(a, w, k), lanes(b, w, k))], w)


# ---------------------------------------------------------------- 9.7.1.14-18
def popc(a, n):
    return bin(u(a, n)).count("1")


def clz(a, n):
    return n - u(a, n).bit_length()


def bfind(a, n, signed, shiftamt):
    msb = n - 1
    a = u(a, n)
    if signed and (a >> msb) & 1:
        a = u(~a, n)
    d = 0xffffffff
    for i in range(msb, -1, -1):
        if (a >> i) & 1:
            d = i
            break
    if shiftamt and d != 0xffffffff:
        d = msb - d
    return d


def fns(mask, base, offset):
    offset = s(offset, 32)
    assert 0 <= base <= 31  # "Operand base must be <= 31, otherwise behavior is undefined."
    bit = lambda p: (mask >> p) & 1
    d = 0xffffffff
    if offset == 0:
        if bit(base) == 1:
            d = base
    else:
        pos = base
        count = abs(offset) - 1
        inc = 1 if offset > 0 else -1
        while 0 <= pos < 32:
            if bit(pos) == 1:
                if count == 0:
                    d = pos
                    break
                count -= 1
            pos += inc
    return d


def brev(a, n):
    return int(format(u(a, n), "0%db" % n)[::-1], 2)


# ---------------------------------------------------------------- 9.7.1.19-22
def bfe(a, b, c, n, signed):
    msb = n - 1
    pos = b & 0xff
    ln = c & 0xff
    bit = lambda i: (a >> i) & 1
    if not signed or ln == 0:
        sbit = 0
    else:
        sbit = bit(min(pos + ln - 1, msb))
    d = 0
    for i in range(msb + 1):
        d |= (bit(pos + i) if (i < ln and pos + i <= msb) else sbit) << i
    return d


def bfi(a, b, c, d, n):
    msb = n - 1
    pos = c & 0xff
    ln = d & 0xff
    f = b
    i = 0
    while i < ln and pos + i <= msb:
        f = (f & ~(1 << (pos + i))) | (((a >> i) & 1) << (pos + i))
        i += 1
    return u(f, n)


def szext(mode, signed, a, b):
    b1 = b & 0x1f
    too_large = b >= 32 and mode == "clamp"
    mask = 0 if too_large else u(M(32) << b1, 32)
    sign_pos = (b1 - 1) & 0x1f
    if b1 == 0 or too_large or not signed:
        sign_bit = 0
    else:
        sign_bit = (a >> sign_pos) & 1
    return u((a & ~mask) | (mask if sign_bit else 0), 32)


def bmsk(mode, a, b):
    a1 = a & 0x1f
    mask0 = u(M(32) << a1, 32)
    b1 = b & 0x1f
    sm = a1 + b1
    mask1 = u(M(32) << sm, 32)
    sum_overflow = sm >= 32
    pos_overflow = width_overflow = False
    if mode == "clamp":
        if a >= 32:
            pos_overflow = True
            mask0 = 0
        if b >= 32:
            width_overflow = True
    if sum_overflow or pos_overflow or width_overflow:
        mask1 = 0
    elif b1 == 0:
        mask1 = M(32)
    return u(mask0 & ~mask1, 32)


# ---------------------------------------------------------------- 9.7.1.23/24
def ext(x, w, k, signed):
    return [val(v, w, signed) for v in lanes(x, w, k)]


def dp4a(a, b, c, asigned, bsigned):
    va, vb = ext(a, 8, 4, asigned), ext(b, 8, 4, bsigned)
    d = c
    for i in range(4):
        d += va[i] * vb[i]
    return u(d, 32)


def dp2a(mode, a, b, c, asigned, bsigned):
    va, vb = ext(a, 16, 2, asigned), ext(b, 8, 4, bsigned)
    sel = 0 if mode == "lo" else 2
    d = c
    for i in range(2):
        d += va[i] * vb[sel + i]
    return u(d, 32)


# ---------------------------------------------------------------- 9.7.6
CMP_SIGNED = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y,
              "lt": lambda x, y: x < y, "le": lambda x, y: x <= y,
              "gt": lambda x, y: x > y, "ge": lambda x, y: x >= y,
              "lo": lambda x, y: x < y, "ls": lambda x, y: x <= y,
              "hi": lambda x, y: x > y, "hs": lambda x, y: x >= y}


def cmp(op, a, b, n, signed):
    return CMP_SIGNED[op](val(a, n, signed), val(b, n, signed))


def boolop(op, t, c):
    if op is None:
        return t
    return {"and": t and c, "or": t or c, "xor": t != c}[op]


# ---------------------------------------------------------------- 9.7.8
def lop3(a, b, c, lut):
    d = 0
    for i in range(32):
        idx = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1)
        d |= ((lut >> idx) & 1) << i
    return d


def shf(direction, mode, a, b, c):
    n = min(c, 32) if mode == "clamp" else c & 0x1f
    cat = (b << 32) | a  # [b, a]
    if direction == "l":
        return u((cat << n) >> 32, 32)
    return u(cat >> n, 32)


def shl(a, b, n):
    return u(a << min(b, n), n)  # Notes: shift amounts > N are clamped to N


def shr(a, b, n, signed):
    return u(val(a, n, signed) >> min(b, n), n)


# ---------------------------------------------------------------- 9.7.9.7 prmt
PRMT_TABLE = {  # mode -> selector -> [d.b0, d.b1, d.b2, d.b3] source bytes
    "f4e": [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
    "b4e": [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
    "rc8": [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
    "ecl": [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
    "ecr": [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
    "rc16": [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
}


def prmt(mode, a, b, c):
    tmp64 = (b << 32) | a
    byte = lambda i: (tmp64 >> (8 * i)) & 0xff
    d = 0
    for k in range(4):
        if mode is None:
            sel = (c >> (4 * k)) & 0xf
            v = byte(sel & 7)
            if sel & 8:
                v = 0xff if v & 0x80 else 0
        else:
            v = byte(PRMT_TABLE[mode][c & 3][k])
        d |= v << (8 * k)
    return d
