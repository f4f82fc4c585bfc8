"""Re-derives part of the committed expectations a second, independent way.

Host IEEE double arithmetic (Python floats, correctly rounded + - * / and
math.sqrt) for the .rn results of add, sub, mul, div, sqrt, rcp on f64; for
f32 the same on the operands widened to double, then rounded to single with
struct (the double result is exact or rounded once, and 53 >= 2*24+2 makes
the second rounding harmless).  int -> float conversions use Python's
correctly rounded int -> float (and struct for f32 from an exact double, or
from the nearest-even rounding via Fraction when the value is not exact in
double).  f16: add, sub, mul (.rn, .ftz) of f16 and f16x2 lanes on the operands
widened to double (exact: f16 sums and products need at most 41 bits), and
cvt.rn.f16.{f32,f64}, cvt.f32.f16, rounded or widened by struct's "e" format
(IEEE binary16, round to nearest even from a double).
Prints the number of differences (expected: 0).
"""
import glob
import json
import math
import os
import struct
from fractions import Fraction

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def tof(h, t):
    v = int(h, 16)
    if t == "f16":
        return struct.unpack("<e", struct.pack("<H", v))[0]
    return struct.unpack("<f", struct.pack("<I", v))[0] if t == "f32" else struct.unpack("<d", struct.pack("<Q", v))[0]


def tob(x, t):
    try:
        if t == "f16":
            return struct.unpack("<H", struct.pack("<e", x))[0]
        return struct.unpack("<I", struct.pack("<f", x))[0] if t == "f32" else struct.unpack("<Q", struct.pack("<d", x))[0]
    except OverflowError:  # struct refuses to round a finite double to inf
        if t == "f16":
            return 0x7c00 if x > 0 else 0xfc00
        return 0x7f800000 if x > 0 else 0xff800000


def ftz(x, t, on):
    if on and t in ("f32", "f16") and x != 0 and abs(x) < 2.0 ** (-126 if t == "f32" else -14):
        return math.copysign(0.0, x)
    return x


def f32_of_int(n):
    """Nearest-even f32 of an integer without double rounding."""
    if n == 0:
        return 0.0
    s, m = (-1 if n < 0 else 1), abs(n)
    e = m.bit_length() - 24
    if e > 0:
        q, r = divmod(m, 1 << e)
        h = 1 << (e - 1)
        if r > h or (r == h and q & 1):
            q += 1
        m = q << e
    return s * float(m)


BIN = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y}


def div(x, y):
    if y == 0:
        if x == 0 or math.isnan(x):
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)
    return x / y


def sqrt(x):
    if math.isnan(x) or x < 0:
        return math.nan
    return math.sqrt(x)  # sqrt(-0.0) = -0.0


def main():
    diffs = checked = 0
    for path in sorted(glob.glob(os.path.join(HERE, "*.json"))):
        c = json.load(open(path))
        B = {b["name"]: b for b in c["buffers"]}
        for b in c["buffers"]:
            nm = b["name"]
            if not nm.startswith("out_") or "expected" not in b:
                continue
            op = nm[4:]
            parts = op.split("_")
            t = b["type"]
            fn = None
            if c["case"].startswith(("add_sub_", "mul_", "div_")) and not c["case"].endswith("directed") \
                    and parts[0] in ("add", "sub", "mul", "div") and (len(parts) == 1 or parts[1] == "rn"):
                on = "ftz" in parts
                f2 = BIN.get(parts[0], div)
                fn = lambda i, f2=f2, on=on: ftz(f2(ftz(tof(B["in_a"]["init"][i], t), t, on),
                                                   ftz(tof(B["in_b"]["init"][i], t), t, on)), t, on)
            elif c["case"] in ("f16_arith_edges", "f16_arith_round", "f16x2_arith") \
                    and parts[0] in ("add", "sub", "mul") and (len(parts) == 1 or parts[1] == "rn"):
                on = "ftz" in parts
                f2 = BIN[parts[0]]
                fn = lambda i, f2=f2, on=on: ftz(f2(ftz(tof(B["in_a"]["init"][i], t), t, on),
                                                   ftz(tof(B["in_b"]["init"][i], t), t, on)), t, on)
            elif c["case"] in ("cvt_half_from_f32", "cvt_half_from_f64") and op == "rn_f16":
                at = B["in_a"]["type"]
                fn = lambda i, at=at: tof(B["in_a"]["init"][i], at)
            elif c["case"] == "cvt_half_to_float" and op == "f32_f16":
                fn = lambda i: tof(B["in_h"]["init"][i], "f16")
            elif c["case"].startswith("sqrt_rcp_") and parts[1] == "rn":
                on = "ftz" in parts
                f1 = sqrt if parts[0] == "sqrt" else (lambda x: div(1.0, x))
                fn = lambda i, f1=f1, on=on: ftz(f1(ftz(tof(B["in_a"]["init"][i], t), t, on)), t, on)
            elif c["case"].startswith("cvt_int") and c["case"].endswith("to_float"):
                at = parts[1]
                bits = int(at[1:])

                def fn(i, at=at, bits=bits):
                    v = int(B["in_a"]["init"][i], 16)
                    if at[0] == "s" and v >> (bits - 1):
                        v -= 1 << bits
                    return f32_of_int(v) if t == "f32" else float(v)
            if fn is None:
                continue
            for i, want in enumerate(b["expected"]):
                got = fn(i)
                w = int(want, 16)
                checked += 1
                if math.isnan(got):
                    ok = math.isnan(tof(want, t))
                else:
                    ok = tob(got, t) == w
                if not ok:
                    diffs += 1
                    print("DIFF %s %s[%d]: crosscheck %r, committed %s" % (c["case"], nm, i, got, want))
    print("%d values cross-checked, %d differences" % (checked, diffs))


if __name__ == "__main__":
    main()
