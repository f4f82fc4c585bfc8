#!/usr/bin/env python3
"""Generates the cooperation conformance suite (../*.ptx, ../*.json, ../README.md).

Run:  python3 -B gen.py      (from this directory; rewrites every case)

Expected values come from model.py (the manual's Semantics/Description, PTX ISA 9.0) and the
per-case Python below, which replays what each thread of the kernel does; nothing is taken
from an emulator run.
"""
import os
import sys

sys.dont_write_bytecode = True
from casegen import Kernel, INDEX, OUTDIR, SENT
from model import *

FULL = 0xffffffff


def warps(n):
    return [list(range(w * 32, w * 32 + 32)) for w in range(n // 32)]


def h(x):
    return (x * 0x9e3779b1) & M32  # per-thread test value: distinct for tid < 2^32


def pbits(outp, tid, k, p):
    if outp[tid] == SENT[4]:
        outp[tid] = 0
    if p:
        outp[tid] |= 1 << k


# ===================================================================== shfl.sync, all modes
def gen_shfl_modes():
    B = 128
    k = Kernel("shfl_modes", "shfl.sync .up/.down/.bfly/.idx, full membermask: b in and out of "
               "range (b[4:0] used), clamps c[4:0], segment masks c[12:8], d|p, b/c/membermask in "
               "registers, per-thread b (9.7.9.6)", B, version="6.0", target="sm_70")
    bv = [(t * 7 + 3) % 45 for t in range(B)]  # per-thread b, some >= 32
    k.inp("b", "u32", bv)
    cfg = [  # (mode, b, c)   b/c None: from register
        ("up", 1, 0), ("up", 5, 0), ("up", 33, 0), ("up", 0, 0), ("up", 3, 4),
        ("down", 1, 0x1f), ("down", 7, 0x1f), ("down", 40, 0x1f), ("down", 3, 0x0f), ("down", 31, 0x1f),
        ("bfly", 1, 0x1f), ("bfly", 16, 0x1f), ("bfly", 0x25, 0x1f), ("bfly", 3, 0x0f), ("bfly", 31, 0),
        ("idx", 0, 0x1f), ("idx", 31, 0x1f), ("idx", 45, 0x1f), ("idx", 20, 0x0f), ("idx", 0xffffffff, 0x1f),
        ("up", 2, 0x1800), ("down", 2, 0x1807), ("bfly", 4, 0x1c03), ("idx", 5, 0x1c03), ("idx", 0x17, 0x100f),
        ("up", 1, 0x1f1f), ("idx", 3, 0x1f00), ("down", 1, 0x0800 | 0x1f),
        ("idx", None, 0x1f), ("down", None, 0x101f), ("bfly", None, 0x1f), ("up", None, 0x0c00),
    ]
    assert len(cfg) <= 32
    pout = k.out("p")
    outs = [k.out("d%02d_%s" % (i, m)) for i, (m, b, c) in enumerate(cfg)]
    body = ("\tld.global.u32 %r5, [%a_b];\n\tmul.lo.u32 %r1, %tx, 0x9e3779b1;\n"
            "\tmov.u32 %r7, 0xffffffff;\n\tmov.u32 %r4, 0;\n")
    for i, (m, b, c) in enumerate(cfg):
        bs = "%r5" if b is None else ("%d" % b if b < 0x80000000 else "0x%x" % b)
        if b is None:
            body += "\tmov.u32 %%r6, 0x%x;\n" % c
            cs, ms = "%r6", "%r7"
        else:
            cs, ms = "0x%x" % c, "0xffffffff"
        body += "\tshfl.sync.%s.b32 %%r2|%%p1, %%r1, %s, %s, %s;\n" % (m, bs, cs, ms)
        body += k.st("d%02d_%s" % (i, m), "%r2")
        body += "\tselp.u32 %%r3, %d, 0, %%p1;\n\tor.b32 %%r4, %%r4, %%r3;\n" % (1 << i)
    body += k.st("p", "%r4")
    k.body = body
    for w in warps(B):
        src = {t % 32: h(t) for t in w}
        for t in w:
            for i, (m, b, c) in enumerate(cfg):
                d, p = shfl(m, t % 32, bv[t] if b is None else b, c, src)
                outs[i][t] = d
                pbits(pout, t, i, p)
    k.write()


# ===================================================================== shfl.sync, partial masks
def gen_shfl_partial():
    B = 64
    k = Kernel("shfl_partial", "shfl.sync with partial membermasks in divergent code: lanes 0-15 "
               "with 0x0000ffff and lanes 16-31 with 0xffff0000 (idx/down/up/bfly, 16-lane segments "
               "via c=0x100f/0x1000), lanes 0-7 alone (0xff), odd lanes 0xaaaaaaaa vs even lanes "
               "0x55555555 (9.7.9.6)", B, version="6.0", target="sm_70")
    bidx = [(t % 32 & 16) | ((t * 5 + 3) & 15) for t in range(B)]
    bq = [(t * 3) % 8 for t in range(B)]
    bodd = [((t % 32) * 3 + 2) % 32 | 1 for t in range(B)]
    k.inp("bidx", "u32", bidx)
    k.inp("bq", "u32", bq)
    k.inp("bodd", "u32", bodd)
    names = ["h_idx", "h_down", "h_up", "h_bfly", "h_idx_seg", "q_bfly", "oe", "p"]
    o = {n: k.out(n) for n in names}
    k.body = r"""
	mul.lo.u32 %r1, %tx, 0x9e3779b1;
	ld.global.u32 %r2, [%a_bidx];
	ld.global.u32 %r3, [%a_bq];
	ld.global.u32 %r4, [%a_bodd];
	mov.u32 %r30, 0;
	setp.lt.u32 %p0, %ln, 16;
	@!%p0 bra HI;
	shfl.sync.idx.b32 %r10|%p1, %r1, %r2, 0x1f, 0x0000ffff;
	shfl.sync.down.b32 %r11|%p2, %r1, 3, 0x100f, 0x0000ffff;
	shfl.sync.up.b32 %r12|%p3, %r1, 4, 0x1000, 0x0000ffff;
	shfl.sync.bfly.b32 %r13|%p4, %r1, 9, 0x1f, 0x0000ffff;
	shfl.sync.idx.b32 %r14|%p5, %r1, 0x17, 0x100f, 0x0000ffff;
	bra JOIN;
HI:
	mov.u32 %r20, 0xffff0000;
	shfl.sync.idx.b32 %r10|%p1, %r1, %r2, 0x1f, %r20;
	shfl.sync.down.b32 %r11|%p2, %r1, 3, 0x100f, %r20;
	shfl.sync.up.b32 %r12|%p3, %r1, 4, 0x1000, %r20;
	shfl.sync.bfly.b32 %r13|%p4, %r1, 9, 0x1f, %r20;
	shfl.sync.idx.b32 %r14|%p5, %r1, 0x17, 0x100f, %r20;
JOIN:
""" + "".join(k.st(n, "%%r%d" % (10 + i)) for i, n in enumerate(names[:5])) + "".join(
        "\tselp.u32 %%r31, %d, 0, %%p%d;\n\tor.b32 %%r30, %%r30, %%r31;\n" % (1 << i, i + 1) for i in range(5)) + r"""
	setp.ge.u32 %p0, %ln, 8;
	@%p0 bra SKIPQ;
	shfl.sync.bfly.b32 %r15|%p6, %r1, %r3, 0x1f, 0xff;
	selp.u32 %r31, 32, 0, %p6;
	or.b32 %r30, %r30, %r31;
""" + k.st("q_bfly", "%r15") + r"""
SKIPQ:
	and.b32 %r5, %ln, 1;
	setp.eq.u32 %p0, %r5, 1;
	@%p0 bra ODD;
	shfl.sync.up.b32 %r16|%p7, %r1, 2, 0, 0x55555555;
	bra JOIN2;
ODD:
	shfl.sync.idx.b32 %r16|%p7, %r1, %r4, 0x1f, 0xaaaaaaaa;
JOIN2:
	selp.u32 %r31, 64, 0, %p7;
	or.b32 %r30, %r30, %r31;
""" + k.st("oe", "%r16") + k.st("p", "%r30")
    for w in warps(B):
        lo = {t % 32: h(t) for t in w if t % 32 < 16}
        hi = {t % 32: h(t) for t in w if t % 32 >= 16}
        q = {t % 32: h(t) for t in w if t % 32 < 8}
        ev = {t % 32: h(t) for t in w if t % 2 == 0}
        od = {t % 32: h(t) for t in w if t % 2 == 1}
        for t in w:
            l = t % 32
            src = lo if l < 16 else hi
            res = [shfl("idx", l, bidx[t], 0x1f, src), shfl("down", l, 3, 0x100f, src),
                   shfl("up", l, 4, 0x1000, src), shfl("bfly", l, 9, 0x1f, src),
                   shfl("idx", l, 0x17, 0x100f, src)]
            for i, (d, p) in enumerate(res):
                o[names[i]][t] = d
                pbits(o["p"], t, i, p)
            if l < 8:
                d, p = shfl("bfly", l, bq[t], 0x1f, q)
                o["q_bfly"][t] = d
                pbits(o["p"], t, 5, p)
            d, p = shfl("up", l, 2, 0, ev) if l % 2 == 0 else shfl("idx", l, bodd[t], 0x1f, od)
            o["oe"][t] = d
            pbits(o["p"], t, 6, p)
    k.write()


# ===================================================================== deprecated shfl
def gen_shfl_deprecated():
    B = 64
    k = Kernel("shfl_deprecated", "deprecated shfl (no .sync) .up/.down/.bfly/.idx with d|p and "
               "plain d, converged warps, .target sm_60 / PTX 5.0 (9.7.9.5)", B, version="5.0", target="sm_60")
    cfg = [("up", 1, 0), ("up", 34, 0), ("down", 2, 0x1f), ("down", 4, 0x1807), ("bfly", 0x10, 0x1f),
           ("bfly", 6, 0x0f), ("idx", 7, 0x1f), ("idx", 0x2a, 0x1c03)]
    pout = k.out("p")
    outs = [k.out("d%d_%s" % (i, m)) for i, (m, b, c) in enumerate(cfg)]
    body = "\tmul.lo.u32 %r1, %tx, 0x9e3779b1;\n\tmov.u32 %r4, 0;\n"
    for i, (m, b, c) in enumerate(cfg):
        if i % 2:
            body += "\tshfl.%s.b32 %%r2|%%p1, %%r1, %d, 0x%x;\n" % (m, b, c)
            body += "\tselp.u32 %%r3, %d, 0, %%p1;\n\tor.b32 %%r4, %%r4, %%r3;\n" % (1 << i)
        else:
            body += "\tshfl.%s.b32 %%r2, %%r1, %d, 0x%x;\n" % (m, b, c)
        body += k.st("d%d_%s" % (i, m), "%r2")
    body += k.st("p", "%r4")
    k.body = body
    for w in warps(B):
        src = {t % 32: h(t) for t in w}
        for t in w:
            pout[t] = 0
            for i, (m, b, c) in enumerate(cfg):
                d, p = shfl(m, t % 32, b, c, src)
                outs[i][t] = d
                if i % 2:
                    pbits(pout, t, i, p)
    k.write()


GENS = [gen_shfl_modes, gen_shfl_partial, gen_shfl_deprecated]

if __name__ == "__main__":
    import more
    GENS += more.GENS
    for g in GENS:
        g()
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "README.template.md")) as f:
        tpl = f.read()
    rows = "\n".join("| `%s` | %s |" % (n, c) for n, c in INDEX)
    with open(os.path.join(OUTDIR, "README.md"), "w") as f:
        f.write(tpl.replace("{{CASES}}", rows))
    print("wrote %d cases" % len(INDEX))
