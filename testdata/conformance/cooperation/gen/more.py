"""vote, match, redux, elect, activemask, bar.warp.sync, collectives after exit."""
from casegen import Kernel, SENT
from model import *

FULL = 0xffffffff


def warps(n):
    return [list(range(w * 32, w * 32 + 32)) for w in range(n // 32)]


def pk(bits):
    return sum((1 << i) for i, b in enumerate(bits) if b)


# per-thread predicate pattern: warp0 all true, warp1 mixed, warp2 low half true / high half
# false, warp3 all false
def pred_of(t):
    w, l = t // 32, t % 32
    return [True, (0x0f35a0f1 >> l) & 1 == 1, l < 16, False][w]


PRED_SEL = r"""	ld.global.u32 %r1, [%a_pred];
	setp.ne.u32 %p1, %r1, 0;
"""

VOTE6 = r"""	vote.sync.all.pred %p2, %p1, {m};
	vote.sync.any.pred %p3, %p1, {m};
	vote.sync.uni.pred %p4, %p1, {m};
	vote.sync.all.pred %p5, !%p1, {m};
	vote.sync.any.pred %p6, !%p1, {m};
	vote.sync.uni.pred %p7, !%p1, {m};
	vote.sync.ballot.b32 %r2, %p1, {m};
	vote.sync.ballot.b32 %r3, !%p1, {m};
"""

PACK6 = "".join("\tselp.u32 %%r%d, %d, 0, %%p%d;\n" % (10 + i, 1 << i, 2 + i) for i in range(6)) + \
    "\tor.b32 %r10, %r10, %r11;\n\tor.b32 %r10, %r10, %r12;\n\tor.b32 %r10, %r10, %r13;\n" \
    "\tor.b32 %r10, %r10, %r14;\n\tor.b32 %r10, %r10, %r15;\n"


def vote6(preds):
    neg = {l: not p for l, p in preds.items()}
    return pk([vote("all", preds), vote("any", preds), vote("uni", preds),
               vote("all", neg), vote("any", neg), vote("uni", neg)]), vote("ballot", preds), vote("ballot", neg)


def gen_vote_sync():
    B = 128
    k = Kernel("vote_sync", "vote.sync .all/.any/.uni/.ballot with a and !a: full mask (4 warps: all "
               "true, mixed, half, all false), lanes 0-15/16-31 with 0x0000ffff/0xffff0000 in divergent "
               "branches, odd lanes with 0xaaaaaaaa from a register; ballot leaves non-members 0 (9.7.13.9)",
               B, version="6.0", target="sm_70")
    P = [pred_of(t) for t in range(B)]
    k.inp("pred", "u32", [int(p) for p in P])
    o = {n: k.out(n) for n in ["full_modes", "full_ballot", "full_nballot", "half_modes", "half_ballot",
                               "half_nballot", "odd_modes", "odd_ballot", "odd_nballot"]}
    k.body = PRED_SEL + VOTE6.format(m="0xffffffff") + PACK6 + k.st("full_modes", "%r10") + \
        k.st("full_ballot", "%r2") + k.st("full_nballot", "%r3") + r"""
	setp.lt.u32 %p0, %ln, 16;
	@!%p0 bra HI;
""" + VOTE6.format(m="0x0000ffff") + "\tbra JOIN;\nHI:\n" + VOTE6.format(m="0xffff0000") + "JOIN:\n" + PACK6 + \
        k.st("half_modes", "%r10") + k.st("half_ballot", "%r2") + k.st("half_nballot", "%r3") + r"""
	and.b32 %r5, %ln, 1;
	setp.eq.u32 %p0, %r5, 0;
	@%p0 bra EVEN;
	mov.u32 %r6, 0xaaaaaaaa;
""" + VOTE6.format(m="%r6") + PACK6 + k.st("odd_modes", "%r10") + k.st("odd_ballot", "%r2") + \
        k.st("odd_nballot", "%r3") + "EVEN:\n"
    for w in warps(B):
        groups = [("full", w), ("half", [t for t in w if t % 32 < 16]), ("half", [t for t in w if t % 32 >= 16]),
                  ("odd", [t for t in w if t % 2])]
        for g, ts in groups:
            r = vote6({t % 32: P[t] for t in ts})
            for t in ts:
                o[g + "_modes"][t], o[g + "_ballot"][t], o[g + "_nballot"][t] = r
    k.write()


VOTE6D = r"""	vote.all.pred %p2, %p1;
	vote.any.pred %p3, %p1;
	vote.uni.pred %p4, %p1;
	vote.all.pred %p5, !%p1;
	vote.any.pred %p6, !%p1;
	vote.uni.pred %p7, !%p1;
	vote.ballot.b32 %r2, %p1;
	vote.ballot.b32 %r3, !%p1;
"""


def gen_vote_deprecated():
    B = 128
    k = Kernel("vote_deprecated", "deprecated vote (no .sync) .all/.any/.uni/.ballot with a and !a over "
               "the active threads of converged warps, then again after lanes 24-31 of every warp and "
               "all odd lanes of warp 3 exited; .target sm_60 / PTX 5.0 (9.7.13.8)", B, version="5.0", target="sm_60")
    P = [pred_of(t) for t in range(B)]
    # warp 3: make odd lanes true, so the votes change when they exit
    P = [p if t < 96 else (t % 2 == 1) for t, p in enumerate(P)]
    k.inp("pred", "u32", [int(p) for p in P])
    o = {n: k.out(n) for n in ["modes", "ballot", "nballot", "x_modes", "x_ballot", "x_nballot"]}
    k.body = PRED_SEL + VOTE6D + PACK6 + k.st("modes", "%r10") + k.st("ballot", "%r2") + k.st("nballot", "%r3") + r"""
	setp.ge.u32 %p0, %ln, 24;
	@%p0 exit;
	and.b32 %r5, %tx, 0x61;
	setp.eq.u32 %p0, %r5, 0x61;
	@%p0 exit;
""" + VOTE6D + PACK6 + k.st("x_modes", "%r10") + k.st("x_ballot", "%r2") + k.st("x_nballot", "%r3")
    for w in warps(B):
        r = vote6({t % 32: P[t] for t in w})
        for t in w:
            o["modes"][t], o["ballot"][t], o["nballot"][t] = r
        alive = [t for t in w if t % 32 < 24 and not (t >= 96 and t % 2 == 1)]
        r = vote6({t % 32: P[t] for t in alive})
        for t in alive:
            o["x_modes"][t], o["x_ballot"][t], o["x_nballot"][t] = r
    k.write()


def gen_vote_deprecated_divergent():
    B = 64
    k = Kernel("vote_deprecated_divergent", "deprecated vote.ballot/.all/.any/.uni inside an if/else on "
               "lane < 16 (sm_60, PTX 5.0): only the threads of the executing branch are active (9.7.13.8: "
               "\"An inactive thread in warp will contribute a 0\")", B, version="5.0", target="sm_60")
    P = [pred_of(t) for t in range(B)]
    k.inp("pred", "u32", [int(p) for p in P])
    o = {n: k.out(n) for n in ["modes", "ballot", "nballot"]}
    k.body = PRED_SEL + r"""
	setp.lt.u32 %p0, %ln, 16;
	@!%p0 bra HI;
""" + VOTE6D + "\tbra JOIN;\nHI:\n" + VOTE6D + "JOIN:\n" + PACK6 + k.st("modes", "%r10") + \
        k.st("ballot", "%r2") + k.st("nballot", "%r3")
    for w in warps(B):
        for ts in ([t for t in w if t % 32 < 16], [t for t in w if t % 32 >= 16]):
            r = vote6({t % 32: P[t] for t in ts})
            for t in ts:
                o["modes"][t], o["ballot"][t], o["nballot"][t] = r
    k.write()


# ===================================================================== match.sync
def gen_match():
    B = 96

    def a32(t):
        w, l = t // 32, t % 32
        if w == 0:
            return (l % 5) * 0x11111111 if l < 16 else 0x77
        if w == 1:
            return 0xabcdef01
        return [0, 1, 0xffffffff][l % 3] if l % 4 else 0x80000000

    def a64(t):
        w, l = t // 32, t % 32
        if w == 0:
            return ((l % 3) << 32) | 5 if l < 16 else 0x123456789
        if w == 1:
            return 0xfedcba9876543210 if l != 7 else 0xfedcba9876543211
        return 0xdeadbeef | ((l % 2) << 63)
    k = Kernel("match_sync", "match.any.sync/match.all.sync .b32 and .b64 (64-bit values that differ only "
               "in the upper half), d|p, sinks _|p and d|_, full mask and 0x0000ffff/0xffff0000 in "
               "divergent branches (9.7.13.10)", B, version="6.0", target="sm_70")
    k.inp("a32", "u32", [a32(t) for t in range(B)])
    k.inp("a64", "u64", [a64(t) for t in range(B)])
    names = ["any32", "any64", "all32", "all64", "allp", "h_any32", "h_any64", "h_all32", "h_all64", "h_allp"]
    o = {n: k.out(n) for n in names}
    MB = r"""	match.any.sync.b32 %r10, %r1, {m};
	match.any.sync.b64 %r11, %rd1, {m};
	match.all.sync.b32 %r12|%p1, %r1, {m};
	match.all.sync.b64 %r13|%p2, %rd1, {m};
	match.all.sync.b32 _|%p3, %r1, {m};
	match.all.sync.b64 %r14|_, %rd1, {m};
"""
    PK = r"""	selp.u32 %r20, 1, 0, %p1;
	selp.u32 %r21, 2, 0, %p2;
	selp.u32 %r22, 4, 0, %p3;
	or.b32 %r20, %r20, %r21;
	or.b32 %r20, %r20, %r22;
	setp.eq.u32 %p4, %r14, %r13;
	selp.u32 %r22, 8, 0, %p4;
	or.b32 %r20, %r20, %r22;
"""
    k.body = "\tld.global.u32 %r1, [%a_a32];\n\tld.global.u64 %rd1, [%a_a64];\n" + MB.format(m="0xffffffff") + PK + \
        "".join(k.st(n, "%%r%d" % (10 + i)) for i, n in enumerate(names[:4])) + k.st("allp", "%r20") + r"""
	setp.lt.u32 %p0, %ln, 16;
	@!%p0 bra HI;
""" + MB.format(m="0x0000ffff") + "\tbra JOIN;\nHI:\n" + MB.format(m="0xffff0000") + "JOIN:\n" + PK + \
        "".join(k.st("h_" + n, "%%r%d" % (10 + i)) for i, n in enumerate(names[:4])) + k.st("h_allp", "%r20")
    for w in warps(B):
        for pre, ts in (("", w), ("h_", [t for t in w if t % 32 < 16]), ("h_", [t for t in w if t % 32 >= 16])):
            v32 = {t % 32: a32(t) for t in ts}
            v64 = {t % 32: a64(t) for t in ts}
            d32, p32 = match_all(v32)
            d64, p64 = match_all(v64)
            for t in ts:
                o[pre + "any32"][t] = match_any(v32, t % 32)
                o[pre + "any64"][t] = match_any(v64, t % 32)
                o[pre + "all32"][t] = d32
                o[pre + "all64"][t] = d64
                o[pre + "allp"][t] = pk([p32, p64, p32, True])
    k.write()


# ===================================================================== redux.sync
def gen_redux():
    B = 96

    def src(t):
        w, l = t // 32, t % 32
        if w == 0:
            return (l * 0x01234567 + 0x89) & M32
        if w == 1:
            return [0x7fffffff, 0x80000000, 0xffffffff, 0, 1, 0xfffffffe, 0x12345678, 0x80000001][l % 8]
        return (l - 20) & M32  # negative and positive small values
    ops = [("add", "u32"), ("add", "s32"), ("min", "u32"), ("min", "s32"), ("max", "u32"), ("max", "s32"),
           ("and", "b32"), ("or", "b32"), ("xor", "b32")]
    k = Kernel("redux_sync", "redux.sync .add/.min/.max .u32/.s32 and .and/.or/.xor .b32: full mask, "
               "0x0000ffff/0xffff0000 in divergent branches, lanes 0-7 alone with 0xff (min.s32, add.u32 "
               "with a register mask); add wraps to 32 bits (9.7.13.12)", B, version="7.0", target="sm_80")
    k.inp("src", "u32", [src(t) for t in range(B)])
    of = [k.out("f_%s_%s" % op) for op in ops]
    oh = [k.out("h_%s_%s" % op) for op in ops]
    oq = [k.out("q_min_s32"), k.out("q_add_u32")]
    R = lambda m, base: "".join("\tredux.sync.%s.%s %%r%d, %%r1, %s;\n" % (op, t, base + i, m) for i, (op, t) in enumerate(ops))
    k.body = "\tld.global.u32 %r1, [%a_src];\n" + R("0xffffffff", 10) + "".join(
        k.st("f_%s_%s" % op, "%%r%d" % (10 + i)) for i, op in enumerate(ops)) + r"""
	setp.lt.u32 %p0, %ln, 16;
	@!%p0 bra HI;
""" + R("0x0000ffff", 20) + "\tbra JOIN;\nHI:\n" + R("0xffff0000", 20) + "JOIN:\n" + "".join(
        k.st("h_%s_%s" % op, "%%r%d" % (20 + i)) for i, op in enumerate(ops)) + r"""
	setp.ge.u32 %p0, %ln, 8;
	@%p0 bra SKIP;
	mov.u32 %r5, 0xff;
	redux.sync.min.s32 %r30, %r1, 0xff;
	redux.sync.add.u32 %r31, %r1, %r5;
""" + k.st("q_min_s32", "%r30") + k.st("q_add_u32", "%r31") + "SKIP:\n"
    for w in warps(B):
        for outs, ts in ((of, w), (oh, [t for t in w if t % 32 < 16]), (oh, [t for t in w if t % 32 >= 16])):
            v = {t % 32: src(t) for t in ts}
            for i, (op, ty) in enumerate(ops):
                r = redux(op, ty, v)
                for t in ts:
                    outs[i][t] = r
        q = [t for t in w if t % 32 < 8]
        v = {t % 32: src(t) for t in q}
        for t in q:
            oq[0][t] = redux("min", "s32", v)
            oq[1][t] = redux("add", "u32", v)
    k.write()


def gen_redux_f32():
    B = 96
    NAN, NNAN = 0x7fc00000, 0xffc00001

    def src(t):
        w, l = t // 32, t % 32
        if w == 0:
            return [0x3f800000, 0xbf800000, 0x00000000, 0x80000000, 0x40490fdb, 0xc0490fdb, 0x00000001,
                    0x80000001, 0x7f7fffff, 0xff7fffff][l % 10] if l < 20 else f32(l * 0.25 - 2.0)
        if w == 1:
            return NAN if l == 5 else NNAN if l == 17 else f32(1.5 * (l - 9))
        return NAN if l % 2 else NNAN
    ops = [("min", False, False), ("max", False, False), ("min", True, False), ("max", True, False),
           ("min", False, True), ("max", False, True), ("min", True, True), ("max", True, True)]
    nm = lambda op, a, n: "%s%s%s" % (op, "_abs" if a else "", "_nan" if n else "")
    k = Kernel("redux_f32", "redux.sync .min/.max .f32 with .abs and .NaN: -0 < +0, NaN inputs ignored "
               "without .NaN (canonical NaN if all are NaN), canonical NaN with .NaN; full mask and lanes "
               "0-15 (sm_100a, PTX 8.6, 9.7.13.12)", B, version="8.6", target="sm_100a")
    k.inp("src", "u32", [src(t) for t in range(B)])
    of = [k.out("f_" + nm(*op), "u32", "exact") for op in ops]
    oh = [k.out("h_" + nm(*op), "u32", "exact") for op in ops]
    ins = lambda op, a, n, d, m: "\tredux.sync.%s%s%s.f32 %s, %%f1, %s;\n" % (op, ".abs" if a else "", ".NaN" if n else "", d, m)
    k.body = "\tld.global.f32 %f1, [%a_src];\n" + "".join(
        ins(*op, "%%f%d" % (10 + i), "0xffffffff") + k.st("f_" + nm(*op), "%%f%d" % (10 + i)).replace(".u32", ".f32")
        for i, op in enumerate(ops)) + "\tsetp.ge.u32 %p0, %ln, 16;\n\t@%p0 bra SKIP;\n" + "".join(
        ins(*op, "%%f%d" % (10 + i), "0x0000ffff") + k.st("h_" + nm(*op), "%%f%d" % (10 + i)).replace(".u32", ".f32")
        for i, op in enumerate(ops)) + "SKIP:\n"
    for w in warps(B):
        for outs, ts in ((of, w), (oh, [t for t in w if t % 32 < 16])):
            v = {t % 32: src(t) for t in ts}
            for i, op in enumerate(ops):
                r = redux_f32(op[0], v, op[1], op[2])
                for t in ts:
                    outs[i][t] = r
    k.write()


# ===================================================================== elect, activemask, bar.warp.sync
ELECT_OK = r"""	// %r45 = 1 if (d in membermask && p == (laneid == d) && ballot(p) == 1 << d), | 2 if _|p agrees
	elect.sync %r40|%p40, {m};
	vote.sync.ballot.b32 %r41, %p40, {m};
	mov.u32 %r42, {m};
	shr.b32 %r43, %r42, %r40;
	and.b32 %r43, %r43, 1;
	setp.eq.u32 %p43, %r43, 1;
	setp.eq.u32 %p42, %r40, %ln;
	xor.pred %p46, %p40, %p42;
	not.pred %p46, %p46;
	shl.b32 %r44, 1, %r40;
	setp.eq.u32 %p44, %r44, %r41;
	and.pred %p44, %p44, %p43;
	and.pred %p44, %p44, %p46;
	elect.sync _|%p45, {m};
	xor.pred %p45, %p45, %p42;
	not.pred %p45, %p45;
	selp.u32 %r45, 1, 0, %p44;
	selp.u32 %r46, 2, 0, %p45;
	or.b32 %r45, %r45, %r46;
"""


def gen_elect():
    B = 96
    k = Kernel("elect_sync", "elect.sync d|p and _|p with masks 0xffffffff, 0xaaaaaaaa (odd lanes, in a "
               "branch) and 0x0000ff00 (lanes 8-15 only): the leader is a member, p is true exactly for it, "
               "d is the same in all members, and _|p elects the same leader (9.7.13.14)", B, version="8.0", target="sm_90")
    o = [k.out("full"), k.out("odd"), k.out("mid")]
    # %p3 = (mask>>d)&1 && !(lane==d) ... xor p  -> true iff: d in mask and p == (lane == d)
    k.body = ELECT_OK.format(m="0xffffffff") + k.st("full", "%r45") + r"""
	and.b32 %r5, %ln, 1;
	setp.eq.u32 %p0, %r5, 0;
	@%p0 bra EVEN;
""" + ELECT_OK.format(m="0xaaaaaaaa") + k.st("odd", "%r45") + r"""
EVEN:
	setp.lt.u32 %p0, %ln, 8;
	setp.ge.u32 %p7, %ln, 16;
	or.pred %p0, %p0, %p7;
	@%p0 bra OUT;
""" + ELECT_OK.format(m="0x0000ff00") + k.st("mid", "%r45") + "OUT:\n"
    for t in range(B):
        o[0][t] = 3
        if t % 2:
            o[1][t] = 3
        if 8 <= t % 32 < 16:
            o[2][t] = 3
    k.write()


def gen_activemask():
    B = 64
    k = Kernel("activemask", "activemask in converged code, predicated (@p) on odd lanes, in the "
               "branches of an if/else (lanes < 12 / >= 12) after bar.warp.sync of the branch's lanes, and "
               "after lanes 28-31 exited (9.7.13.11)", B, version="8.0", target="sm_90")
    o = [k.out(n) for n in ("conv", "pred", "branch", "exited")]
    k.body = r"""
	bar.warp.sync 0xffffffff;
	activemask.b32 %r10;
""" + k.st("conv", "%r10") + r"""
	and.b32 %r5, %ln, 1;
	setp.eq.u32 %p1, %r5, 1;
	mov.u32 %r11, 0xcdcdcdcd;
	bar.warp.sync 0xffffffff;
	@%p1 activemask.b32 %r11;
""" + k.st("pred", "%r11") + r"""
	setp.lt.u32 %p0, %ln, 12;
	@!%p0 bra HI;
	bar.warp.sync 0x00000fff;
	activemask.b32 %r12;
	bra JOIN;
HI:
	bar.warp.sync 0xfffff000;
	activemask.b32 %r12;
JOIN:
""" + k.st("branch", "%r12") + r"""
	setp.ge.u32 %p0, %ln, 28;
	@%p0 exit;
	bar.warp.sync 0xffffffff;
	activemask.b32 %r13;
""" + k.st("exited", "%r13")
    for t in range(B):
        l = t % 32
        o[0][t] = FULL
        o[1][t] = 0xaaaaaaaa if l % 2 else SENT[4]
        o[2][t] = 0x00000fff if l < 12 else 0xfffff000
        if l < 28:
            o[3][t] = 0x0fffffff
    k.write()


def gen_bar_warp_sync():
    B = 64
    k = Kernel("bar_warp_sync", "bar.warp.sync in divergent code: even lanes (0x55555555) and odd lanes "
               "(0xaaaaaaaa, mask in a register) each exchange values through shared memory; then lanes "
               "0-15 of each warp alone (0x0000ffff) (9.7.13.2)", B, version="6.0", target="sm_70",
               shared="\t.shared .align 4 .u32 sa[64];\n\t.shared .align 4 .u32 sb[64];\n")
    o = [k.out("eo"), k.out("lo")]
    k.body = r"""
	mov.u64 %rd1, sa;
	mov.u64 %rd2, sb;
	mul.wide.u32 %rd3, %tx, 4;
	add.u64 %rd4, %rd1, %rd3;
	add.u64 %rd5, %rd2, %rd3;
	sub.u32 %r1, %tx, %ln;            // warp base
	mul.lo.u32 %r2, %tx, 0x9e3779b1;
	st.shared.u32 [%rd4], %r2;
	and.b32 %r5, %ln, 1;
	setp.eq.u32 %p0, %r5, 1;
	@%p0 bra ODD;
	bar.warp.sync 0x55555555;
	add.u32 %r6, %ln, 2;
	and.b32 %r6, %r6, 31;
	bra JOIN;
ODD:
	mov.u32 %r7, 0xaaaaaaaa;
	bar.warp.sync %r7;
	add.u32 %r6, %ln, 30;
	and.b32 %r6, %r6, 31;
JOIN:
	add.u32 %r6, %r6, %r1;
	mul.wide.u32 %rd6, %r6, 4;
	add.u64 %rd6, %rd1, %rd6;
	ld.shared.u32 %r8, [%rd6];
""" + k.st("eo", "%r8") + r"""
	setp.ge.u32 %p0, %ln, 16;
	@%p0 bra SKIP;
	add.u32 %r9, %r2, 1;
	st.shared.u32 [%rd5], %r9;
	bar.warp.sync 0x0000ffff;
	xor.b32 %r6, %ln, 15;
	add.u32 %r6, %r6, %r1;
	mul.wide.u32 %rd6, %r6, 4;
	add.u64 %rd6, %rd2, %rd6;
	ld.shared.u32 %r8, [%rd6];
""" + k.st("lo", "%r8") + "SKIP:\n"
    for t in range(B):
        l, base = t % 32, t - t % 32
        o[0][t] = h(base + ((l + 2) % 32 if l % 2 == 0 else (l + 30) % 32))
        if l < 16:
            o[1][t] = (h(base + (l ^ 15)) + 1) & M32
    k.write()


def h(x):
    return (x * 0x9e3779b1) & M32


# ===================================================================== collectives after exit
def gen_after_exit():
    B = 96

    def alive(t):
        w, l = t // 32, t % 32
        return w == 0 or (w == 1 and l < 20) or (w == 2 and l % 2 == 0)
    bsrc = []
    for t in range(B):
        w, l = t // 32, t % 32
        bsrc.append([(l + 1) % 32, (l + 1) % 20 if l < 20 else 0, (l + 2) % 32][w])
    k = Kernel("collectives_after_exit", "full-mask (0xffffffff) vote.sync all/any/uni/ballot, "
               "redux.sync add/min, match.any/all, shfl.sync.idx, elect.sync, bar.warp.sync + activemask "
               "after some lanes exited (warp 1: lanes 20-31, warp 2: odd lanes): only non-exited lanes "
               "take part (9.7.13.9/10/12/14, 9.7.9.6)", B, version="8.0", target="sm_90")
    k.inp("b", "u32", bsrc)
    names = ["vote", "ballot", "redux_add", "redux_min", "m_any", "m_all", "m_allp", "shfl", "elect", "amask"]
    o = {n: k.out(n) for n in names}
    k.body = r"""
	setp.eq.u32 %p0, %wp, 1;
	setp.ge.u32 %p1, %ln, 20;
	and.pred %p0, %p0, %p1;
	@%p0 exit;
	setp.eq.u32 %p0, %wp, 2;
	and.b32 %r1, %ln, 1;
	setp.eq.u32 %p1, %r1, 1;
	and.pred %p0, %p0, %p1;
	@%p0 exit;
	ld.global.u32 %r2, [%a_b];
	mul.lo.u32 %r3, %tx, 0x9e3779b1;
	setp.lt.u32 %p1, %ln, 20;
	vote.sync.all.pred %p2, %p1, 0xffffffff;
	vote.sync.any.pred %p3, !%p1, 0xffffffff;
	vote.sync.uni.pred %p4, %p1, 0xffffffff;
	selp.u32 %r10, 1, 0, %p2;
	selp.u32 %r11, 2, 0, %p3;
	selp.u32 %r12, 4, 0, %p4;
	or.b32 %r10, %r10, %r11;
	or.b32 %r10, %r10, %r12;
	setp.ne.u32 %p5, %tx, 1000;
	vote.sync.ballot.b32 %r13, %p5, 0xffffffff;
	add.u32 %r4, %tx, 1;
	redux.sync.add.u32 %r14, %r4, 0xffffffff;
	redux.sync.min.u32 %r15, %r3, 0xffffffff;
	rem.u32 %r5, %ln, 3;
	match.any.sync.b32 %r16, %r5, 0xffffffff;
	match.all.sync.b32 %r17|%p6, %wp, 0xffffffff;
	selp.u32 %r18, 1, 0, %p6;
	shfl.sync.idx.b32 %r19, %r3, %r2, 0x1f, 0xffffffff;
""" + ELECT_OK.format(m="0xffffffff") + r"""
	shr.b32 %r47, %r13, %r40;
	and.b32 %r47, %r47, 1;
	shl.b32 %r47, %r47, 2;
	or.b32 %r22, %r45, %r47;
	bar.warp.sync 0xffffffff;
	activemask.b32 %r21;
""" + "".join(
        k.st(n, r) for n, r in zip(names, ["%r10", "%r13", "%r14", "%r15", "%r16", "%r17", "%r18", "%r19", "%r22", "%r21"]))
    for w in warps(B):
        ts = [t for t in w if alive(t)]
        P = {t % 32: t % 32 < 20 for t in ts}
        vb = pk([vote("all", P), vote("any", {l: not p for l, p in P.items()}), vote("uni", P)])
        bal = sum(1 << (t % 32) for t in ts)
        ra = redux("add", "u32", {t % 32: t + 1 for t in ts})
        rm = redux("min", "u32", {t % 32: h(t) for t in ts})
        ma, mp = match_all({t % 32: t // 32 for t in ts})
        src = {t % 32: h(t) for t in ts}
        for t in ts:
            o["vote"][t], o["ballot"][t], o["redux_add"][t], o["redux_min"][t] = vb, bal, ra, rm
            o["m_any"][t] = match_any({u % 32: (u % 32) % 3 for u in ts}, t % 32)
            o["m_all"][t], o["m_allp"][t] = ma, int(mp)
            o["shfl"][t] = shfl("idx", t % 32, bsrc[t], 0x1f, src)[0]
            o["elect"][t] = 7
            o["amask"][t] = bal
    k.write()


import atoms  # noqa: E402

GENS = [gen_vote_sync, gen_vote_deprecated, gen_vote_deprecated_divergent, gen_match, gen_redux, gen_redux_f32,
        gen_elect, gen_activemask, gen_bar_warp_sync, gen_after_exit] + atoms.GENS
