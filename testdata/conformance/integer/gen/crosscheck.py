#!/usr/bin/env python3
"""Independent cross-check of the committed expectations with native C arithmetic.

sem.py transcribes the manual's pseudo-code in Python; this script re-derives
the arithmetic outputs a second way -- C expressions on fixed-width host types
(two's complement, __int128 for double-width products, GCC builtins for bit
counts) -- and compares them with the "expected" arrays of the committed case
files.  It needs gcc.  Run:  python3 crosscheck.py
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CT = {"u16": "uint16_t", "u32": "uint32_t", "u64": "uint64_t", "f32": "uint32_t"}

PRE = r"""
#include <stdint.h>
#include <stdio.h>
typedef __int128 i128; typedef unsigned __int128 u128;
#define S16(x) ((int16_t)(x))
#define S32(x) ((int32_t)(x))
#define S64(x) ((int64_t)(x))
#define S8(x) ((int8_t)(x))
#define M96 ((((u128)1) << 96) - 1)
static int64_t sat32(int64_t v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v; }
static uint64_t shl_(uint64_t a, uint32_t b, int n) { return b >= (uint32_t)n ? 0 : a << b; }
static uint64_t shru(uint64_t a, uint32_t b, int n) { return b >= (uint32_t)n ? 0 : a >> b; }
static int64_t shrs(int64_t a, uint32_t b, int n) { return a >> (b >= (uint32_t)n ? n - 1 : b); }
static uint32_t brev32(uint32_t a) { uint32_t r = 0; for (int i = 0; i < 32; i++) if (a & (1u << i)) r |= 1u << (31 - i); return r; }
static uint64_t brev64(uint64_t a) { return ((uint64_t)brev32((uint32_t)a) << 32) | brev32((uint32_t)(a >> 32)); }
static uint32_t clz32(uint32_t a) { return a ? __builtin_clz(a) : 32; }
static uint32_t clz64(uint64_t a) { return a ? __builtin_clzll(a) : 64; }
static uint32_t bfu(uint64_t a, int n) { return a ? (uint32_t)(n - 1 - (n == 32 ? clz32(a) : clz64(a))) : 0xffffffffu; }
static uint32_t sa(uint32_t r, int n) { return r == 0xffffffffu ? r : (uint32_t)(n - 1) - r; }
static uint32_t dp4(uint32_t a, uint32_t b, uint32_t c, int as, int bs) {
  int64_t d = (int32_t)c;
  for (int i = 0; i < 4; i++) {
    int64_t x = as ? (int64_t)S8(a >> 8 * i) : (int64_t)(uint8_t)(a >> 8 * i);
    int64_t y = bs ? (int64_t)S8(b >> 8 * i) : (int64_t)(uint8_t)(b >> 8 * i);
    d += x * y;
  }
  return (uint32_t)d;
}
static uint32_t dp2(uint32_t a, uint32_t b, uint32_t c, int as, int bs, int hi) {
  int64_t d = (int32_t)c;
  for (int i = 0; i < 2; i++) {
    int64_t x = as ? (int64_t)S16(a >> 16 * i) : (int64_t)(uint16_t)(a >> 16 * i);
    int j = i + (hi ? 2 : 0);
    int64_t y = bs ? (int64_t)S8(b >> 8 * j) : (int64_t)(uint8_t)(b >> 8 * j);
    d += x * y;
  }
  return (uint32_t)d;
}
static uint32_t shfl_(uint32_t a, uint32_t b, uint32_t n) { uint64_t v = ((uint64_t)b << 32) | a; return n >= 32 ? a : (uint32_t)((v << n) >> 32); }
static uint32_t shfr_(uint32_t a, uint32_t b, uint32_t n) { uint64_t v = ((uint64_t)b << 32) | a; return n >= 32 ? b : (uint32_t)(v >> n); }
#define LANES(a, b, w, k, EXPR) ({ uint32_t _r = 0; for (int _i = 0; _i < k; _i++) { \
    uint32_t x = ((a) >> (w * _i)) & ((1u << w) - 1), y = ((b) >> (w * _i)) & ((1u << w) - 1); \
    _r |= ((uint32_t)(EXPR) & ((1u << w) - 1)) << (w * _i); } _r; })
static int fail = 0, checked = 0;
"""

# case -> output -> C expression over the input names (raw unsigned values)
X = {}
for n, S in ((16, "S16"), (32, "S32"), (64, "S64")):
    W = {16: "int32_t", 32: "int64_t", 64: "i128"}[n]
    UW = {16: "uint32_t", 32: "uint64_t", 64: "u128"}[n]
    X["add_sub_%d" % n] = {"add_u%d" % n: "a + b", "add_s%d" % n: "%s(a) + %s(b)" % (S, S),
                           "sub_u%d" % n: "a - b", "sub_s%d" % n: "%s(a) - %s(b)" % (S, S)}
    X["mul_%d" % n] = {"mul_lo_u%d" % n: "(%s)a * b" % UW, "mul_lo_s%d" % n: "(%s)%s(a) * %s(b)" % (W, S, S),
                       "mul_hi_u%d" % n: "((%s)a * b) >> %d" % (UW, n), "mul_hi_s%d" % n: "((%s)%s(a) * %s(b)) >> %d" % (W, S, S, n)}
    X["mad_sad_%d" % n] = {"mad_lo_u%d" % n: "(%s)a * b + c" % UW, "mad_lo_s%d" % n: "(%s)%s(a) * %s(b) + %s(c)" % (W, S, S, S),
                           "mad_hi_u%d" % n: "(((%s)a * b) >> %d) + c" % (UW, n),
                           "mad_hi_s%d" % n: "(((%s)%s(a) * %s(b)) >> %d) + c" % (W, S, S, n),
                           "sad_u%d" % n: "c + (a < b ? b - a : a - b)",
                           "sad_s%d" % n: "c + (%s(a) < %s(b) ? (%s)b - a : (%s)a - b)" % (S, S, UW, UW)}
    if n < 64:
        X["mul_%d" % n].update({"mul_wide_u%d" % n: "(%s)a * b" % UW, "mul_wide_s%d" % n: "(%s)%s(a) * %s(b)" % (W, S, S)})
        X["mad_sad_%d" % n].update({"mad_wide_u%d" % n: "(%s)a * b + cw" % UW,
                                    "mad_wide_s%d" % n: "(%s)%s(a) * %s(b) + cw" % (W, S, S)})
    X["min_max_%d" % n] = {"min_u%d" % n: "a < b ? a : b", "max_u%d" % n: "a > b ? a : b",
                           "min_s%d" % n: "%s(a) < %s(b) ? a : b" % (S, S), "max_s%d" % n: "%s(a) > %s(b) ? a : b" % (S, S)}
    X.setdefault("abs_neg", {}).update({"abs_s%d" % n: "%s(a%d) < 0 ? -(%s)a%d : a%d" % (S, n, UW, n, n), "neg_s%d" % n: "-(%s)a%d" % (UW, n)})
    X.setdefault("div_rem_unsigned", {}).update({"div_u%d" % n: "a%d / b%d" % (n, n), "rem_u%d" % n: "a%d %% b%d" % (n, n)})
    for dcase in ("div_rem_signed", "div_rem_signed_negative"):
        X.setdefault(dcase, {}).update({"div_s%d" % n: "(%s)%s(a%d) / %s(b%d)" % (W, S, n, S, n),
                                            "rem_s%d" % n: "(%s)%s(a%d) %% %s(b%d)" % (W, S, n, S, n)})
    X.setdefault("shl_shr", {}).update({"shl_b%d" % n: "shl_(a%d, sh, %d)" % (n, n), "shr_b%d" % n: "shru(a%d, sh, %d)" % (n, n),
                                        "shr_u%d" % n: "shru(a%d, sh, %d)" % (n, n), "shr_s%d" % n: "shrs(%s(a%d), sh, %d)" % (S, n, n)})
    for ty, f in (("s", S), ("u", ""), ("b", "")):
        for op, c in (("eq", "=="), ("ne", "!="), ("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">="),
                      ("lo", "<"), ("ls", "<="), ("hi", ">"), ("hs", ">=")):
            if (ty == "s" and op in ("lo", "ls", "hi", "hs")) or (ty == "b" and op not in ("eq", "ne")):
                continue
            X.setdefault("setp_%d" % n, {})["setp_%s_%s%d" % (op, ty, n)] = \
                "(%s(a) %s %s(b)) ? 1 : 2" % (f, c, f)
X["add_sub_32"].update({"add_sat_s32": "sat32((int64_t)S32(a) + S32(b))", "sub_sat_s32": "sat32((int64_t)S32(a) - S32(b))",
                        "add_s32_imm": "a - 1", "sub_u32_imm": "0x7fffffffu - a"})
X["mad_sad_32"]["mad_hi_sat_s32"] = "sat32((((int64_t)S32(a) * S32(b)) >> 32) + S32(c))"
X["min_max_32"].update({"min_relu_s32": "S32(a) < S32(b) ? (S32(a) < 0 ? 0 : a) : (S32(b) < 0 ? 0 : b)",
                        "max_relu_s32": "S32(a) > S32(b) ? (S32(a) < 0 ? 0 : a) : (S32(b) < 0 ? 0 : b)"})
X["bit_count"] = {"popc_b32": "__builtin_popcount(a32)", "popc_b64": "__builtin_popcountll(a64)",
                  "clz_b32": "clz32(a32)", "clz_b64": "clz64(a64)", "brev_b32": "brev32(a32)", "brev_b64": "brev64(a64)",
                  "bfind_u32": "bfu(a32, 32)", "bfind_u64": "bfu(a64, 64)",
                  "bfind_s32": "bfu(S32(a32) < 0 ? (uint32_t)~a32 : a32, 32)", "bfind_s64": "bfu(S64(a64) < 0 ? ~a64 : a64, 64)",
                  "bfind_shiftamt_u32": "sa(bfu(a32, 32), 32)", "bfind_shiftamt_u64": "sa(bfu(a64, 64), 64)",
                  "bfind_shiftamt_s32": "sa(bfu(S32(a32) < 0 ? (uint32_t)~a32 : a32, 32), 32)",
                  "bfind_shiftamt_s64": "sa(bfu(S64(a64) < 0 ? ~a64 : a64, 64), 64)"}
X["dp4a_dp2a"] = {}
for at in "us":
    for bt in "us":
        X["dp4a_dp2a"]["dp4a_%s32_%s32" % (at, bt)] = "dp4(a, b, c, %d, %d)" % (at == "s", bt == "s")
        for m in ("lo", "hi"):
            X["dp4a_dp2a"]["dp2a_%s_%s32_%s32" % (m, at, bt)] = "dp2(a, b, c, %d, %d, %d)" % (at == "s", bt == "s", m == "hi")
X["shf"] = {"shf_l_clamp": "shfl_(a, b, c > 32 ? 32 : c)", "shf_l_wrap": "shfl_(a, b, c & 31)",
            "shf_r_clamp": "shfr_(a, b, c > 32 ? 32 : c)", "shf_r_wrap": "shfr_(a, b, c & 31)",
            "shf_l_clamp_imm16": "shfl_(a, b, 16)"}
X["mul24_mad24"] = {"mul24_lo_u32": "(uint64_t)ua * ub", "mul24_hi_u32": "((uint64_t)ua * ub) >> 16",
                    "mul24_lo_s32": "(int64_t)S32(sa) * S32(sb)", "mul24_hi_s32": "((int64_t)S32(sa) * S32(sb)) >> 16",
                    "mad24_lo_u32": "(uint64_t)ua * ub + c", "mad24_hi_u32": "(((uint64_t)ua * ub) >> 16) + c",
                    "mad24_lo_s32": "(int64_t)S32(sa) * S32(sb) + c", "mad24_hi_s32": "(((int64_t)S32(sa) * S32(sb)) >> 16) + c",
                    "mad24_hi_sat_s32": "sat32((((int64_t)S32(sa) * S32(sb)) >> 16) + S32(c))"}
X["packed_16x2"] = {"add_u16x2": "LANES(a, b, 16, 2, x + y)",
                    "min_u16x2": "LANES(a, b, 16, 2, x < y ? x : y)", "max_u16x2": "LANES(a, b, 16, 2, x > y ? x : y)",
                    "min_s16x2": "LANES(a, b, 16, 2, S16(x) < S16(y) ? x : y)", "max_s16x2": "LANES(a, b, 16, 2, S16(x) > S16(y) ? x : y)",
                    "min_relu_s16x2": "LANES(a, b, 16, 2, S16(x) < S16(y) ? (S16(x) < 0 ? 0 : x) : (S16(y) < 0 ? 0 : y))",
                    "max_relu_s16x2": "LANES(a, b, 16, 2, S16(x) > S16(y) ? (S16(x) < 0 ? 0 : x) : (S16(y) < 0 ? 0 : y))"}
X["packed_9_2"] = {"add_u8x4": "LANES(a, b, 8, 4, x + y)", "sub_s8x4": "LANES(a, b, 8, 4, x - y)",
                   "min_s8x4": "LANES(a, b, 8, 4, S8(x) < S8(y) ? x : y)", "max_u8x4": "LANES(a, b, 8, 4, x > y ? x : y)",
                   "neg_s8x4": "LANES(a, b, 8, 4, -x)",
                   "add_sat_u32": "(uint64_t)a + b > 0xffffffffu ? 0xffffffffu : a + b",
                   "add_sat_s16x2": "LANES(a, b, 16, 2, S16(x) + S16(y) > 32767 ? 32767 : S16(x) + S16(y) < -32768 ? -32768 : S16(x) + S16(y))"}
# multi-word outputs: expression per word index w (an unsigned __int128 value A, B from the 4-word inputs)
XW = {"extended_precision": {
    "add128": "(w < 4) ? (uint32_t)((A + B) >> (32 * w)) : (uint32_t)((A + B) < A)",
    "sub128": "(w < 4) ? (uint32_t)((A - B) >> (32 * w)) : (A < B ? 0xffffffffu : 0)",
    "mul64x64": "(uint32_t)(((u128)(uint64_t)A * (uint64_t)B) >> (32 * w))",
    "add128_u64": "(w < 2) ? (uint64_t)((A + B) >> (64 * w)) : (uint64_t)((A + B) < A)",
    "sub128_u64": "(w < 2) ? (uint64_t)((A - B) >> (64 * w)) : (A < B ? ~0ull : 0)",
    "add96_s32": "(uint32_t)(((A & M96) + (B & M96)) >> (32 * w))",
    "sub96_s32": "(uint32_t)(((A & M96) - (B & M96)) >> (32 * w))",
    "mad128_u64": "({ u128 P = (u128)(uint64_t)A * (uint64_t)B, S = P + ((A >> 64) | ((B >> 64) << 64)); "
                  "w < 2 ? (uint64_t)(S >> (64 * w)) : (uint64_t)(S < P); })",
}}


def main():
    src = [PRE, "int main(void) {"]
    for case, outs in sorted(list(X.items()) + list(XW.items())):
        c = json.load(open(os.path.join(HERE, "..", case + ".json")))
        bufs = {b["name"]: b for b in c["buffers"]}
        n = c["block"][0]
        src.append("{ /* %s */" % case)
        ins = [b for b in c["buffers"] if b.get("output") is False]
        for b in ins:
            src.append("static const %s in_%s[] = {%s};" % (CT[b["type"]], b["name"][3:], ",".join(x + "ull" for x in b["init"])))
        for out, expr in outs.items():
            b = bufs["out_" + out]
            words = b["count"] // n
            src.append("static const %s exp_%s[] = {%s};" % (CT[b["type"]], out, ",".join(x + "ull" for x in b["expected"])))
            src.append("for (int i = 0; i < %d; i++) {" % n)
            for ib in ins:
                nm = ib["name"][3:]
                iw = ib["count"] // n
                if iw == 1:
                    src.append("  %s %s = in_%s[i];" % (CT[ib["type"]], nm, nm))
            if case in XW:
                src.append("  u128 A = 0, B = 0; for (int j = 3; j >= 0; j--) { A = (A << 32) | in_a[4*i+j]; B = (B << 32) | in_b[4*i+j]; }")
                src.append("  for (int w = 0; w < %d; w++) { %s got = (%s)(%s); checked++;" % (words, CT[b["type"]], CT[b["type"]], expr))
                src.append("    if (got != exp_%s[i*%d+w]) { fail++; printf(\"%s %s[%%d.%%d]: c %%llx json %%llx\\n\", i, w, (unsigned long long)got, (unsigned long long)exp_%s[i*%d+w]); } }"
                           % (out, words, case, out, out, words))
            else:
                assert words == 1
                src.append("  %s got = (%s)(%s); checked++;" % (CT[b["type"]], CT[b["type"]], expr))
                src.append("  if (got != exp_%s[i]) { fail++; printf(\"%s %s[%%d]: c %%llx json %%llx\\n\", i, (unsigned long long)got, (unsigned long long)exp_%s[i]); }"
                           % (out, case, out, out))
            src.append("}")
        src.append("}")
    src.append('printf("%d values cross-checked, %d differ\\n", checked, fail); return fail != 0; }')
    d = tempfile.mkdtemp()
    cf = os.path.join(d, "x.c")
    open(cf, "w").write("\n".join(src))
    # setp outputs are p|q encoded as 1 (p) or 2 (q): the C expressions above give exactly that
    subprocess.check_call(["gcc", "-O1", "-w", "-o", os.path.join(d, "x"), cf])
    sys.exit(subprocess.call([os.path.join(d, "x")]))


if __name__ == "__main__":
    main()
