"""Python models of the warp/CTA cooperation instructions, transcribed from the PTX ISA 9.0
manual (ptx-isa-9.0.txt).  A warp is modelled as {lane: value} for the lanes taking part."""
import struct

M32 = 0xffffffff
M64 = (1 << 64) - 1


def shfl(mode, lane, b, c, src):
    """9.7.9.6 shfl.sync / 9.7.9.5 shfl Semantics.  src: {lane: a} of the lanes in membermask.
    Returns (d, p).  Raises if the computed lane is not a member (results undefined)."""
    bval, cval, seg = b & 31, c & 31, (c >> 8) & 31
    maxl = (lane & seg) | (cval & ~seg & 31)
    minl = lane & seg
    if mode == "up":
        j = lane - bval
        pv = j >= maxl
    elif mode == "down":
        j = lane + bval
        pv = j <= maxl
    elif mode == "bfly":
        j = lane ^ bval
        pv = j <= maxl
    else:
        j = minl | (bval & ~seg & 31)
        pv = j <= maxl
    if not pv:
        j = lane
    if j not in src:
        raise ValueError("lane %d would read lane %d outside the membermask (undefined)" % (lane, j))
    return src[j], pv


def vote(mode, preds):
    """9.7.13.9 vote.sync over {lane: pred} of the non-exited lanes in membermask."""
    v = list(preds.values())
    if mode == "all":
        return all(v)
    if mode == "any":
        return any(v)
    if mode == "uni":
        return all(v) or not any(v)
    return sum(1 << l for l, p in preds.items() if p)  # ballot


def match_any(vals, lane):
    return sum(1 << l for l, v in vals.items() if v == vals[lane])


def match_all(vals):
    """(d, p): d = mask of the lanes if all equal else 0"""
    same = len(set(vals.values())) == 1
    return (sum(1 << l for l in vals) if same else 0), same


def s32(x):
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def s64(x):
    x &= M64
    return x - (1 << 64) if x >> 63 else x


def redux(op, t, vals):
    v = list(vals.values())
    if op == "add":
        return sum(v) & M32
    if op in ("min", "max"):
        key = s32 if t == "s32" else (lambda x: x)
        f = min if op == "min" else max
        return f(v, key=key) & M32
    r = 0 if op != "and" else M32
    for x in v:
        r = r & x if op == "and" else r | x if op == "or" else r ^ x
    return r


CNAN = 0x7fffffff  # canonical NaN (manual 9.7.13.12 "canonical NaN"; 0x7fffffff per 8.x fp notes)


def isnan32(b):
    return (b & 0x7f800000) == 0x7f800000 and (b & 0x7fffff) != 0


def f32key(b):
    """total order on non-NaN f32 bit patterns with -0 < +0 (redux.sync: '+0.0 > -0.0')"""
    return -(b & 0x7fffffff) - 1 if b >> 31 else b


def redux_f32(op, vals, absq=False, nanq=False):
    v = [(x & 0x7fffffff) if absq else x for x in vals.values()]
    if any(isnan32(x) for x in v):
        if nanq:
            return CNAN
        v = [x for x in v if not isnan32(x)]
        if not v:
            return CNAN
    return (min if op == "min" else max)(v, key=f32key)


def f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def inc(r, s):
    return 0 if r >= s else r + 1


def dec(r, s):
    return s if (r == 0 or r > s) else r - 1
