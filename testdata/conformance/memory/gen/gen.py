"""Memory conformance cases (PTX ISA 9.0: 9.7.9 data movement, 5 state spaces,
6.4 addressing, 9.4.1 operand sizes). Run: python3 -B gen.py (from gen/)."""
from casegen import case, out, inp, ptr, unchecked, sx, le, INDEX
import struct

H = ".version 8.0\n.target sm_90\n.address_size 64\n"
M64 = (1 << 64) - 1

# --------------------------------------------------------------------- mov
# 9.7.9.3: d = a; d = &avar; d = &avar+imm.  9.7.9.4: pack d = a.x | (a.y << n) ...,
# unpack {d.x, d.y} = {a[0..n-1], a[n..2n-1]}; '_' sinks an element.
gv = [11, 22, 33, 44]
e32 = [0xdeadbeef, 0xdeadbeef, -5, 0x1234 | (0xabcd << 16), 0xcdef, 0x89ab, 0x3fc00000, 1,
       0x44 | 0x33 << 8 | 0x22 << 16 | 0x11 << 24, 0x56, 0x34]  # {c0..c3} = bytes of 0x44332211, packed reversed
e64 = [0x0123456789abcdef, 0x89abcdef | 0x01234567 << 32, 0x76543210, 0xfedcba98,
       0x1111 | 0x2222 << 16 | 0x3333 << 32 | 0x4444 << 48, gv[0], gv[2], gv[3], M64, 0xfedcba98,
       0x3ff8000000000000]
case("mov", "mov: immediates, registers, .f32/.f64/.pred, pack/unpack {a,b}/{a,b,c,d} to .b16/.b32/.b64 with sink, address of a .global variable (var, var+imm, var[i]) (9.7.9.3, 9.7.9.4)", H + r"""
.global .align 4 .u32 gv[4] = {11, 22, 33, 44};

.visible .entry mov(.param .u64 o32, .param .u64 o64)
{
	.reg .pred %p<3>;
	.reg .b8 %c<4>;
	.reg .b16 %h<8>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;
	.reg .f32 %f<2>;
	.reg .f64 %fd<2>;
	ld.param.u64 %rd14, [o32];
	cvta.to.global.u64 %rd14, %rd14;
	ld.param.u64 %rd15, [o64];
	cvta.to.global.u64 %rd15, %rd15;
	mov.u32 %r0, 0xdeadbeef;
	st.global.u32 [%rd14+0], %r0;
	mov.u32 %r1, %r0;
	st.global.u32 [%rd14+4], %r1;
	mov.s32 %r2, -5;
	st.global.s32 [%rd14+8], %r2;
	mov.b16 %h0, 0x1234;
	mov.b16 %h1, 0xabcd;
	mov.b32 %r3, {%h0, %h1};
	st.global.u32 [%rd14+12], %r3;
	mov.b32 %r4, 0x89abcdef;
	mov.b32 {%h2, %h3}, %r4;
	cvt.u32.u16 %r5, %h2;
	st.global.u32 [%rd14+16], %r5;
	cvt.u32.u16 %r5, %h3;
	st.global.u32 [%rd14+20], %r5;
	mov.f32 %f0, 0f3FC00000;
	mov.f32 %f1, %f0;
	mov.b32 %r6, %f1;
	st.global.u32 [%rd14+24], %r6;
	setp.eq.u32 %p0, %r0, %r1;
	mov.pred %p1, %p0;
	selp.u32 %r7, 1, 0, %p1;
	st.global.u32 [%rd14+28], %r7;
	mov.b32 %r8, 0x44332211;
	mov.b32 {%c0, %c1, %c2, %c3}, %r8;
	mov.b32 %r8, {%c3, %c2, %c1, %c0};
	st.global.u32 [%rd14+32], %r8;
	mov.b16 %h4, 0x3456;
	mov.b16 {%c0, %c1}, %h4;
	cvt.u32.u8 %r9, %c0;
	st.global.u32 [%rd14+36], %r9;
	cvt.u32.u8 %r9, %c1;
	st.global.u32 [%rd14+40], %r9;

	mov.u64 %rd0, 0x0123456789abcdef;
	st.global.u64 [%rd15+0], %rd0;
	mov.b32 %r10, 0x89abcdef;
	mov.b32 %r11, 0x01234567;
	mov.b64 %rd1, {%r10, %r11};
	st.global.u64 [%rd15+8], %rd1;
	mov.b64 %rd2, 0xfedcba9876543210;
	mov.b64 {%r12, %r13}, %rd2;
	cvt.u64.u32 %rd3, %r12;
	st.global.u64 [%rd15+16], %rd3;
	cvt.u64.u32 %rd3, %r13;
	st.global.u64 [%rd15+24], %rd3;
	mov.b16 %h4, 0x1111;
	mov.b16 %h5, 0x2222;
	mov.b16 %h6, 0x3333;
	mov.b16 %h7, 0x4444;
	mov.b64 %rd4, {%h4, %h5, %h6, %h7};
	st.global.u64 [%rd15+32], %rd4;
	mov.u64 %rd5, gv;
	ld.global.u32 %r14, [%rd5];
	cvt.u64.u32 %rd6, %r14;
	st.global.u64 [%rd15+40], %rd6;
	mov.u64 %rd5, gv+8;
	ld.global.u32 %r14, [%rd5];
	cvt.u64.u32 %rd6, %r14;
	st.global.u64 [%rd15+48], %rd6;
	mov.u64 %rd5, gv[3];
	ld.global.u32 %r14, [%rd5];
	cvt.u64.u32 %rd6, %r14;
	st.global.u64 [%rd15+56], %rd6;
	mov.s64 %rd7, -1;
	st.global.u64 [%rd15+64], %rd7;
	mov.b64 {_, %r15}, %rd2;
	cvt.u64.u32 %rd8, %r15;
	st.global.u64 [%rd15+72], %rd8;
	mov.f64 %fd0, 0d3FF8000000000000;
	mov.b64 %rd9, %fd0;
	st.global.u64 [%rd15+80], %rd9;
	ret;
}
""", params=[ptr("out32"), ptr("out64")], buffers=[out("out32", "u32", e32), out("out64", "u64", e64)])

# ----------------------------------------------------------- ld/st widths
# 9.7.9.8 ld: "A destination register wider than the specified type may be used. The value
# loaded is sign-extended ... for signed integers, and is zero-extended ... for unsigned and
# bit-size types" (Table 28).  9.7.9.11 st: "The lower n bits corresponding to the
# instruction-type width are stored" (Table 27, chop).  Memory is little-endian.
src = [0x81, 0x02, 0x83, 0x84, 0xf5, 0x06, 0x07, 0x88, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x90]
loads = [  # (ptx type, dst reg width, byte offset, signed?)
    ("u8", 32, 0), ("s8", 32, 0), ("b8", 32, 0), ("s8", 64, 0), ("u8", 64, 0), ("s8", 16, 0),
    ("u8", 16, 0), ("s8", 32, 1), ("u16", 32, 2), ("s16", 32, 2), ("b16", 32, 2), ("s16", 64, 2),
    ("u16", 64, 2), ("s16", 32, 8), ("u32", 64, 4), ("s32", 64, 4), ("b32", 64, 4), ("s32", 32, 4),
    ("u64", 64, 8), ("s64", 64, 8), ("b64", 64, 8), ("u32", 32, 12)]
L = []
exp_ld = []
for i, (t, w, off) in enumerate(loads):
    n = int(t[1:]) // 8
    v = le(src, off, n)
    if t[0] == "s":
        v = sx(v, 8 * n)
    exp_ld.append(v & ((1 << w) - 1))
    reg = {16: "%h0", 32: "%r0", 64: "%rd0"}[w]
    L.append("\tld.global.%s %s, [%%rd10+%d];" % (t, reg, off))
    if w == 16:
        L.append("\tcvt.u64.u16 %rd0, %h0;")
    elif w == 32:
        L.append("\tcvt.u64.u32 %rd0, %r0;")
    L.append("\tst.global.u64 [%%rd11+%d], %%rd0;" % (8 * i))
# stores: (type, source reg, value, byte offset)
stores = [("u8", "%r1", 0x12345678, 0), ("b8", "%h1", 0xabcd, 1), ("u16", "%r1", 0x12345678, 2),
          ("s16", "%rd1", 0x1122334455667788, 4), ("s8", "%rd1", 0x1122334455667788, 6),
          ("u8", "%h1", 0xabcd, 7), ("u32", "%rd1", 0x1122334455667788, 8), ("b32", "%r1", 0x12345678, 12),
          ("u64", "%rd1", 0x1122334455667788, 16), ("s64", "%rd1", 0x1122334455667788, 24)]
dst = [0] * 32
for t, reg, v, off in stores:
    n = int(t[1:]) // 8
    dst[off:off + n] = list((v & ((1 << (8 * n)) - 1)).to_bytes(n, "little"))
    L.append("\tst.global.%s [%%rd12+%d], %s;" % (t, off, reg))
case("ld_st_widths", "ld.global .u8/.s8/.b8/.u16/.s16/.b16/.u32/.s32/.b32/.u64/.s64/.b64 into 16/32/64-bit registers (sign/zero extension, Table 28); st of the low bits of wider registers (Table 27) (9.4.1, 9.7.9.8, 9.7.9.11)", H + r"""
.visible .entry ld_st_widths(.param .u64 src, .param .u64 ld, .param .u64 st)
{
	.reg .b16 %h<2>;
	.reg .b32 %r<2>;
	.reg .b64 %rd<16>;
	ld.param.u64 %rd10, [src];
	cvta.to.global.u64 %rd10, %rd10;
	ld.param.u64 %rd11, [ld];
	cvta.to.global.u64 %rd11, %rd11;
	ld.param.u64 %rd12, [st];
	cvta.to.global.u64 %rd12, %rd12;
	mov.b32 %r1, 0x12345678;
	mov.b16 %h1, 0xabcd;
	mov.b64 %rd1, 0x1122334455667788;
""" + "\n".join(L) + "\n\tret;\n}\n",
     params=[ptr("src"), ptr("ld"), ptr("st")],
     buffers=[inp("src", "u8", src), out("ld", "u64", exp_ld), out("st", "u8", dst)])

# ------------------------------------------------------- state spaces
# 5.1.5 shared (per CTA, shared by its threads; bar.sync orders), 5.1.4 local (per thread),
# 5.1.3 const (initialized, read-only), 5.2.3 initializers. Block of 4 threads.
ctab = [0x05050505, 0x06060606, 0x07070707, 0x08080808, 0x1122334455667788]
exp = []
for t in range(4):
    exp += [((t + 1) % 4) * 3 + 1,        # shared, written by the neighbour thread
            t + 100,                      # local u32
            ctab[t],                      # const table
            (t * 0x10001) & 0xffffffff]   # local u64 low word (written as u64)
    exp += [0x55667788, 0x11223344]       # const u64 split in two words
case("state_spaces", "ld/st in .shared (static, bar.sync between threads), .local (per thread), .const (initialized u32 table and u64) (5.1, 9.7.9.8, 9.7.9.11)", H + r"""
.const .align 8 .u32 ctab[4] = {0x05050505, 0x06060606, 0x07070707, 0x08080808};
.const .align 8 .u64 cwide = 0x1122334455667788;

.visible .entry state_spaces(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	.shared .align 8 .b8 sh[64];
	.local .align 8 .b8 loc[32];
	ld.param.u64 %rd0, [out];
	cvta.to.global.u64 %rd0, %rd0;
	mov.u32 %r0, %tid.x;
	mul.wide.u32 %rd1, %r0, 24;
	add.u64 %rd0, %rd0, %rd1;
	// shared: sh[tid] = 3*tid+1; neighbour reads
	mad.lo.u32 %r1, %r0, 3, 1;
	mul.wide.u32 %rd2, %r0, 4;
	mov.u64 %rd3, sh;
	add.u64 %rd4, %rd3, %rd2;
	st.shared.u32 [%rd4], %r1;
	bar.sync 0;
	add.u32 %r2, %r0, 1;
	and.b32 %r2, %r2, 3;
	mul.wide.u32 %rd5, %r2, 4;
	add.u64 %rd6, %rd3, %rd5;
	ld.shared.u32 %r3, [%rd6];
	st.global.u32 [%rd0+0], %r3;
	// local
	add.u32 %r4, %r0, 100;
	st.local.u32 [loc+4], %r4;
	mul.lo.u32 %r5, %r0, 0x10001;
	cvt.u64.u32 %rd7, %r5;
	st.local.u64 [loc+16], %rd7;
	ld.local.u32 %r6, [loc+4];
	st.global.u32 [%rd0+4], %r6;
	// const
	mov.u64 %rd8, ctab;
	add.u64 %rd8, %rd8, %rd2;
	ld.const.u32 %r7, [%rd8];
	st.global.u32 [%rd0+8], %r7;
	ld.local.u64 %rd9, [loc+16];
	cvt.u32.u64 %r8, %rd9;
	st.global.u32 [%rd0+12], %r8;
	ld.const.v2.u32 {%r9, %r10}, [cwide];
	st.global.v2.u32 [%rd0+16], {%r9, %r10};
	ret;
}
""", block=(4, 1, 1), params=[ptr("out")], buffers=[out("out", "u32", exp)])

# ------------------------------------------------------- kernel params
# 5.1.6.1 kernel parameters: ld.param reads them; by-value aggregates as .align N .b8 arrays.
agg = bytes(range(0x40, 0x40 + 24))
import base64
pexp = [0xfe, sx(0xfe, 8) & M64, 0xbeef, sx(0x8001, 16) & M64, (-7) & M64, 0x0123456789abcdef,
        0x40490fdb, 0x400921fb54442d18, le(agg, 4, 4), le(agg, 8, 8), agg[23], le(agg, 16, 2),
        le(agg, 0, 8), le(agg, 8, 8)]
case("params", "ld.param of kernel parameters .u8/.s8/.u16/.s16/.s32/.u64/.f32/.f64 and of a by-value .align 8 .b8 [24] aggregate at several offsets and widths incl. ld.param.v2 (5.1.6.1, 9.7.9.8)", H + r"""
.visible .entry params(
	.param .u8 pu8,
	.param .u16 pu16,
	.param .s32 ps32,
	.param .u64 pu64,
	.param .f32 pf32,
	.param .f64 pf64,
	.param .align 8 .b8 agg[24],
	.param .u64 out)
{
	.reg .b16 %h<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<16>;
	.reg .f32 %f<2>;
	.reg .f64 %fd<2>;
	ld.param.u64 %rd15, [out];
	cvta.to.global.u64 %rd15, %rd15;
	ld.param.u8 %rd0, [pu8];
	st.global.u64 [%rd15+0], %rd0;
	ld.param.s8 %rd0, [pu8];
	st.global.u64 [%rd15+8], %rd0;
	ld.param.u16 %h0, [pu16];
	cvt.u64.u16 %rd0, %h0;
	st.global.u64 [%rd15+16], %rd0;
	ld.param.s16 %rd0, [ps32];
	st.global.u64 [%rd15+24], %rd0;
	ld.param.s32 %r0, [ps32+0];
	cvt.s64.s32 %rd0, %r0;
	st.global.u64 [%rd15+32], %rd0;
	ld.param.u64 %rd0, [pu64];
	st.global.u64 [%rd15+40], %rd0;
	ld.param.f32 %f0, [pf32];
	mov.b32 %r1, %f0;
	cvt.u64.u32 %rd0, %r1;
	st.global.u64 [%rd15+48], %rd0;
	ld.param.f64 %fd0, [pf64];
	mov.b64 %rd0, %fd0;
	st.global.u64 [%rd15+56], %rd0;
	ld.param.u32 %r2, [agg+4];
	cvt.u64.u32 %rd0, %r2;
	st.global.u64 [%rd15+64], %rd0;
	ld.param.u64 %rd0, [agg+8];
	st.global.u64 [%rd15+72], %rd0;
	ld.param.u8 %rd0, [agg+23];
	st.global.u64 [%rd15+80], %rd0;
	ld.param.u16 %rd0, [agg+16];
	st.global.u64 [%rd15+88], %rd0;
	ld.param.v2.u64 {%rd1, %rd2}, [agg];
	st.global.u64 [%rd15+96], %rd1;
	st.global.u64 [%rd15+104], %rd2;
	ret;
}
""", params=[{"kind": "u8", "bits": "0xfe"}, {"kind": "u16", "bits": "0xbeef"},
             {"kind": "s32", "bits": "0xfff98001"}, {"kind": "u64", "bits": "0x0123456789abcdef"},
             {"kind": "f32", "bits": "0x40490fdb"}, {"kind": "f64", "bits": "0x400921fb54442d18"},
             {"kind": "bytes", "size": 24, "align": 8, "data_b64": base64.b64encode(agg).decode()},
             ptr("out")],
     buffers=[out("out", "u64", pexp[:3] + [sx(0x8001, 16) & M64, sx(0xfff98001, 32) & M64] + pexp[5:])])

# ------------------------------------------------------------ vectors
# 9.7.9.8/9.7.9.11: .v2/.v4 move consecutive elements; a vector access is aligned to its
# full size (5.4.4: "Vectors ... aligned to a multiple of their overall size").
vin = [0x10000000 + i * 0x01010101 for i in range(16)]
vexp = [0] * 32
# v4.u32 from vin[0..3] -> out[0..3]; v2.u32 from vin[4..5] -> out[4..5] swapped
vexp[0:4] = vin[0:4]
vexp[4], vexp[5] = vin[5], vin[4]
# v2.u64 of vin[8..11] -> out[8..11]
vexp[8:12] = vin[8:12]
# v4.u16 of low 8 bytes of vin[12..13] -> stored as 4 u32 zero-extended
b = b"".join(x.to_bytes(4, "little") for x in vin)
vexp[12:16] = [le(b, 48 + 2 * i, 2) for i in range(4)]
# v4.u8 -> st.v4.u8 into out bytes 64..67 = bytes of vin[14] reversed
vexp[16] = int.from_bytes(bytes(reversed(vin[14].to_bytes(4, "little"))), "little")
# shared round trip with v4.u32 then v2.u64 reading the same bytes
vexp[20:24] = [vin[0] ^ 0xffffffff, vin[1] ^ 0xffffffff, vin[2] ^ 0xffffffff, vin[3] ^ 0xffffffff]
# v4 with immediate-free sinks? st.v2.f32 of two floats
vexp[24:26] = [0x3f800000, 0xc0000000]
case("vectors", "ld/st .v2/.v4 of .u8/.u16/.u32/.u64/.f32 in .global and .shared, element order (9.7.9.8, 9.7.9.11, 5.4.4)", H + r"""
.visible .entry vectors(.param .u64 in, .param .u64 out)
{
	.reg .b16 %h<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.reg .f32 %f<2>;
	.shared .align 16 .b8 vs[16];
	ld.param.u64 %rd6, [in];
	cvta.to.global.u64 %rd6, %rd6;
	ld.param.u64 %rd7, [out];
	cvta.to.global.u64 %rd7, %rd7;
	ld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%rd6];
	st.global.v4.u32 [%rd7], {%r0, %r1, %r2, %r3};
	ld.global.v2.u32 {%r4, %r5}, [%rd6+16];
	st.global.v2.u32 [%rd7+16], {%r5, %r4};
	ld.global.v2.u64 {%rd0, %rd1}, [%rd6+32];
	st.global.v2.u64 [%rd7+32], {%rd0, %rd1};
	ld.global.v4.u16 {%h0, %h1, %h2, %h3}, [%rd6+48];
	cvt.u32.u16 %r4, %h0;
	cvt.u32.u16 %r5, %h1;
	cvt.u32.u16 %r6, %h2;
	cvt.u32.u16 %r7, %h3;
	st.global.v4.u32 [%rd7+48], {%r4, %r5, %r6, %r7};
	ld.global.v4.u8 {%r4, %r5, %r6, %r7}, [%rd6+56];
	st.global.v4.u8 [%rd7+64], {%r7, %r6, %r5, %r4};
	not.b32 %r0, %r0;
	not.b32 %r1, %r1;
	not.b32 %r2, %r2;
	not.b32 %r3, %r3;
	st.shared.v4.u32 [vs], {%r0, %r1, %r2, %r3};
	ld.shared.v2.u64 {%rd2, %rd3}, [vs];
	st.global.v2.u64 [%rd7+80], {%rd2, %rd3};
	mov.f32 %f0, 0f3F800000;
	mov.f32 %f1, 0fC0000000;
	st.global.v2.f32 [%rd7+96], {%f0, %f1};
	ret;
}
""", params=[ptr("in"), ptr("out")], buffers=[inp("in", "u32", vin), out("out", "u32", vexp)])

# ------------------------------------------------------- address forms
# 6.4.1 addresses as operands: [reg], [reg+imm], [reg+-imm] (negative offset), [var],
# [var+imm], [imm]?? (not used), and array elements a[i] as addresses (6.4.1.1).
arr = [100 + i for i in range(8)]
aexp = [arr[0], arr[3], arr[2], arr[0], arr[5], arr[6], arr[7], arr[4]]
case("address_forms", "address operands [reg], [reg+imm], [reg+-imm], [var], [var+imm], var[i] with .global and .shared variables, stores through each form (6.4.1)", H + r"""
.global .align 4 .u32 garr[8] = {100, 101, 102, 103, 104, 105, 106, 107};

.visible .entry address_forms(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.shared .align 4 .u32 sarr[8];
	ld.param.u64 %rd7, [out];
	cvta.to.global.u64 %rd7, %rd7;
	mov.u64 %rd0, garr;
	ld.global.u32 %r0, [%rd0];
	st.global.u32 [%rd7], %r0;
	ld.global.u32 %r0, [%rd0+12];
	st.global.u32 [%rd7+4], %r0;
	add.u64 %rd1, %rd0, 16;
	ld.global.u32 %r0, [%rd1+-8];
	st.global.u32 [%rd7+8], %r0;
	ld.global.u32 %r0, [garr];
	st.global.u32 [%rd7+12], %r0;
	ld.global.u32 %r0, [garr+20];
	st.global.u32 [%rd7+16], %r0;
	ld.global.u32 %r0, [garr+24];
	st.shared.u32 [sarr+4], %r0;
	ld.shared.u32 %r1, [sarr+4];
	st.global.u32 [%rd7+20], %r1;
	mov.u64 %rd2, sarr;
	ld.global.u32 %r0, [garr+28];
	st.shared.u32 [%rd2+8], %r0;
	ld.shared.u32 %r1, [sarr+8];
	st.global.u32 [%rd7+24], %r1;
	ld.global.u32 %r0, [%rd1];
	add.u64 %rd3, %rd7, 32;
	st.global.u32 [%rd3+-4], %r0;
	ret;
}
""", params=[ptr("out")], buffers=[out("out", "u32", aexp)])

# ------------------------------------------------------- cvta / isspacep
# 9.7.9.20 cvta: generic <-> space; 9.7.9.19 isspacep; 6.4.1/5.1 generic addressing: "A generic
# address maps to global memory unless it falls within the window for const, local, or shared
# memory. The .param window is contained within the .global window."  isspacep.global returns 1
# for kernel parameters.  Each probed address gives bits: global 1, shared 2, local 4, const 8,
# param 16.
spaces = {"global": 1, "shared": 2, "local": 4, "const": 8, "param": 16}

def probe(regs):
    p = ""
    for i, v in enumerate(regs):
        p += "\tmov.u32 %r9, 0;\n"
        for s, bit in spaces.items():
            p += "\tisspacep.%s %%p0, %s;\n\tselp.u32 %%r8, %d, 0, %%p0;\n\tor.b32 %%r9, %%r9, %%r8;\n" % (s, v, bit)
        p += "\tst.global.u32 [%%rd0+%d], %%r9;\n" % (4 * i)
    return p

iexp = [1, 2, 4, 8]
# round trips: value read through generic after cvta.X and through X after cvta.to.X
rexp = [0xa1a1a1a1, 0xb2b2b2b2, 0xc3c3c3c3, 0xd4d4d4d4,
        0xa1a1a1a1, 0xb2b2b2b2, 0xc3c3c3c3, 0xd4d4d4d4, 0x0f0f0f0f, 0xb2b2b2b2, 0x0e0e0e0e]
case("cvta_isspacep", "cvta.{global,shared,local,const} of variables and registers, generic ld/st through the result, cvta.to.* back to each space, isspacep.{global,shared,local,const,param} on each kind of address (9.7.9.19, 9.7.9.20, 6.4.1)", H + r"""
.global .align 4 .u32 gw = 0xa1a1a1a1;
.const .align 4 .u32 cw = 0xd4d4d4d4;

.visible .entry cvta_isspacep(.param .u64 out, .param .u64 out2)
{
	.reg .pred %p<2>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<16>;
	.shared .align 4 .u32 sw;
	.local .align 4 .u32 lw;
	ld.param.u64 %rd0, [out];
	cvta.to.global.u64 %rd0, %rd0;
	ld.param.u64 %rd9, [out2];
	cvta.to.global.u64 %rd9, %rd9;
	mov.u32 %r0, 0xb2b2b2b2;
	st.shared.u32 [sw], %r0;
	mov.u32 %r0, 0xc3c3c3c3;
	st.local.u32 [lw], %r0;
	cvta.global.u64 %rd1, gw;
	mov.u64 %rd10, sw;
	cvta.shared.u64 %rd2, %rd10;
	cvta.local.u64 %rd3, lw;
	mov.u64 %rd11, cw;
	cvta.const.u64 %rd4, %rd11;
""" + probe(["%rd1", "%rd2", "%rd3", "%rd4"]) + r"""
	ld.u32 %r1, [%rd1];
	st.global.u32 [%rd9+0], %r1;
	ld.u32 %r1, [%rd2];
	st.global.u32 [%rd9+4], %r1;
	ld.u32 %r1, [%rd3];
	st.global.u32 [%rd9+8], %r1;
	ld.u32 %r1, [%rd4];
	st.global.u32 [%rd9+12], %r1;
	cvta.to.global.u64 %rd6, %rd1;
	ld.global.u32 %r1, [%rd6];
	st.global.u32 [%rd9+16], %r1;
	cvta.to.shared.u64 %rd6, %rd2;
	ld.shared.u32 %r1, [%rd6];
	st.global.u32 [%rd9+20], %r1;
	cvta.to.local.u64 %rd6, %rd3;
	ld.local.u32 %r1, [%rd6];
	st.global.u32 [%rd9+24], %r1;
	cvta.to.const.u64 %rd6, %rd4;
	ld.const.u32 %r1, [%rd6];
	st.global.u32 [%rd9+28], %r1;
	mov.u32 %r2, 0x0f0f0f0f;
	st.u32 [%rd3], %r2;
	ld.local.u32 %r1, [lw];
	st.global.u32 [%rd9+32], %r1;
	cvta.shared.u64 %rd7, sw;
	ld.u32 %r1, [%rd7];
	st.global.u32 [%rd9+36], %r1;
	mov.u32 %r2, 0x0e0e0e0e;
	st.u32 [%rd2], %r2;
	ld.shared.u32 %r1, [sw];
	st.global.u32 [%rd9+40], %r1;
	ret;
}
""", params=[ptr("out"), ptr("out2")],
     buffers=[out("out", "u32", iexp), out("out2", "u32", rexp)])

# cvta.param (PTX 7.7, sm_70): generic address of a kernel parameter; isspacep.param and
# isspacep.global are both 1 on it (9.7.9.19), shared/local/const 0.
case("cvta_param", "cvta.param of a kernel parameter, isspacep on it (param and global true), generic ld through it, cvta.to.param back (9.7.9.19, 9.7.9.20)", H + r"""
.visible .entry cvta_param(.param .u32 pw, .param .u64 out, .param .u64 out2)
{
	.reg .pred %p<2>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<16>;
	ld.param.u64 %rd0, [out];
	cvta.to.global.u64 %rd0, %rd0;
	ld.param.u64 %rd9, [out2];
	cvta.to.global.u64 %rd9, %rd9;
	cvta.param.u64 %rd5, pw;
""" + probe(["%rd5"]) + r"""
	ld.u32 %r1, [%rd5];
	st.global.u32 [%rd9+0], %r1;
	cvta.to.param.u64 %rd6, %rd5;
	ld.param.u32 %r1, [%rd6];
	st.global.u32 [%rd9+4], %r1;
	ret;
}
""", params=[{"kind": "u32", "bits": "0xe5e5e5e5"}, ptr("out"), ptr("out2")],
     buffers=[out("out", "u32", [16 | 1]), out("out2", "u32", [0xe5e5e5e5, 0xe5e5e5e5])])

# ----------------------------------------------- module-scope initializers
# 5.4.4/5.2.3 initializers: scalars, arrays (missing trailing elements are zero), nested braces
# for multi-dimensional arrays (row-major), .b8 arrays, generic(var) and var addresses (and
# var+offset) in .global .u64 initializers (5.4.4: "variable names ... in initializers evaluate to
# their address; generic(var) to the generic address").
gexp = [0xcafef00d,               # gs
        1, 2, 3, 0, 0,            # ga[5] = {1,2,3}
        11, 12, 13, 21, 22, 23,   # g2[2][3]
        0x44332211,               # gb .b8 {0x11,0x22,0x33,0x44}
        0xff, 7, 0,               # g8 .u8 {255, 7}; g8[2] zero; (read as u8)
        0xdeadbeef, 0xffffffff,   # g64 low, high (= 0xffffffffdeadbeef as .s64 -0x21524111)
        1, 21, 3, 0x3f800000, 0xbeef]  # through pointers: *pa, *(g2+8+4) = g2[1][0], *(pg(generic)+8), gf, g16
gval64 = (-0x21524111) & M64
assert gval64 == 0xffffffffdeadbeef
case("globals_init", "module .global variables with initializers: scalar, array with implicit zeros, nested braces, .b8/.u8 arrays, .s64, .f32, .u16, and .u64 pointers initialized with var, var+imm and generic(var) (5.4.4)", ".version 8.0\n.target sm_90\n.address_size 64\n" + r"""
.global .align 4 .u32 gs = 0xcafef00d;
.global .align 4 .u32 ga[5] = {1, 2, 3};
.global .align 4 .u32 g2[2][3] = {{11, 12, 13}, {21, 22, 23}};
.global .align 4 .b8 gb[4] = {0x11, 0x22, 0x33, 0x44};
.global .align 1 .u8 g8[3] = {255, 7};
.global .align 8 .s64 g64 = -559038737;
.global .align 4 .f32 gf = 0f3F800000;
.global .align 2 .u16 g16 = 0xbeef;
.global .align 8 .u64 pa = ga;
.global .align 8 .u64 pg2 = g2+8;
.global .align 8 .u64 pg = generic(ga);

.visible .entry globals_init(.param .u64 out)
{
	.reg .b16 %h<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd0, [out];
	cvta.to.global.u64 %rd0, %rd0;
	ld.global.u32 %r0, [gs];
	st.global.u32 [%rd0+0], %r0;
	ld.global.u32 %r0, [ga];
	st.global.u32 [%rd0+4], %r0;
	ld.global.u32 %r0, [ga+4];
	st.global.u32 [%rd0+8], %r0;
	ld.global.u32 %r0, [ga+8];
	st.global.u32 [%rd0+12], %r0;
	ld.global.u32 %r0, [ga+12];
	st.global.u32 [%rd0+16], %r0;
	ld.global.u32 %r0, [ga+16];
	st.global.u32 [%rd0+20], %r0;
	ld.global.v2.u32 {%r0, %r1}, [g2];
	st.global.v2.u32 [%rd0+24], {%r0, %r1};
	ld.global.u32 %r0, [g2+8];
	st.global.u32 [%rd0+32], %r0;
	ld.global.u32 %r0, [g2+12];
	st.global.u32 [%rd0+36], %r0;
	ld.global.u32 %r0, [g2+16];
	st.global.u32 [%rd0+40], %r0;
	ld.global.u32 %r0, [g2+20];
	st.global.u32 [%rd0+44], %r0;
	ld.global.u32 %r0, [gb];
	st.global.u32 [%rd0+48], %r0;
	ld.global.u8 %r0, [g8];
	st.global.u32 [%rd0+52], %r0;
	ld.global.u8 %r0, [g8+1];
	st.global.u32 [%rd0+56], %r0;
	ld.global.u8 %r0, [g8+2];
	st.global.u32 [%rd0+60], %r0;
	ld.global.u64 %rd1, [g64];
	st.global.u64 [%rd0+64], %rd1;
	ld.global.u64 %rd2, [pa];
	ld.global.u32 %r0, [%rd2];
	st.global.u32 [%rd0+72], %r0;
	ld.global.u64 %rd2, [pg2];
	ld.global.u32 %r0, [%rd2+4];
	st.global.u32 [%rd0+76], %r0;
	ld.global.u64 %rd2, [pg];
	ld.u32 %r0, [%rd2+8];
	st.global.u32 [%rd0+80], %r0;
	ld.global.u32 %r0, [gf];
	st.global.u32 [%rd0+84], %r0;
	ld.global.u16 %h0, [g16];
	cvt.u32.u16 %r0, %h0;
	st.global.u32 [%rd0+88], %r0;
	ret;
}
""", params=[ptr("out")], buffers=[out("out", "u32", gexp)])

# ------------------------------------------------------- dynamic shared
# 5.1.5 / CUDA: an .extern .shared array of unspecified size is the dynamic shared memory of
# the launch (dynamic_shared_bytes), shared by the CTA; %dynamic_smem_size (10.36) is its size.
N = 64
dexp = [(N - 1 - t) * 7 + 3 for t in range(N)] + [N * 4] * N
case("dynamic_shared", "dynamic shared memory (.extern .shared .b8 []) of dynamic_shared_bytes with 64 threads: write, bar.sync, read reversed; %dynamic_smem_size (5.1.5, 10.36)", H + r"""
.extern .shared .align 16 .b8 dsm[];

.visible .entry dynamic_shared(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd0, [out];
	cvta.to.global.u64 %rd0, %rd0;
	mov.u32 %r0, %tid.x;
	mad.lo.u32 %r1, %r0, 7, 3;
	mov.u64 %rd1, dsm;
	mul.wide.u32 %rd2, %r0, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.shared.u32 [%rd3], %r1;
	bar.sync 0;
	sub.u32 %r2, 63, %r0;
	mul.wide.u32 %rd4, %r2, 4;
	add.u64 %rd5, %rd1, %rd4;
	ld.shared.u32 %r3, [%rd5];
	add.u64 %rd6, %rd0, %rd2;
	st.global.u32 [%rd6], %r3;
	mov.u32 %r4, %dynamic_smem_size;
	st.global.u32 [%rd6+256], %r4;
	ret;
}
""", block=(N, 1, 1), dyn=N * 4, params=[ptr("out")], buffers=[out("out", "u32", dexp)])

# ------------------------------------------------------- nc / ldu / prmt
# 9.7.9.9 ld.global.nc and 9.7.9.10 ldu load like ld.global (read-only data); 9.7.9.7 prmt
# default mode: each selector nibble picks byte b[n&7] of {b,a} (a is bytes 0..3, b bytes 4..7)
# and, when the nibble's msb is set, replicates that byte's sign bit.
nin = [0x11223344, 0x8899aabb, 0x55667788, 0xccddeeff]
def prmt(a, b, c):
    by = list(a.to_bytes(4, "little")) + list(b.to_bytes(4, "little"))
    d = 0
    for i in range(4):
        s = (c >> (4 * i)) & 0xf
        v = by[s & 7]
        if s & 8:
            v = 0xff if v & 0x80 else 0
        d |= v << (8 * i)
    return d
sels = [0x3210, 0x7654, 0x0123, 0x4567, 0x1111, 0x8888, 0xf0e5, 0x9c0d]
nexp = [nin[0], nin[1], nin[2] | nin[3] << 32, nin[3]] 
pexp2 = [prmt(nin[0], nin[1], s) for s in sels]
L = []
for i, s in enumerate(sels):
    L.append("\tprmt.b32 %%r5, %%r0, %%r1, 0x%x;\n\tst.global.u32 [%%rd2+%d], %%r5;" % (s, 4 * i))
case("nc_ldu_prmt", "ld.global.nc (.u32, .v2, .u64), ldu.global (.u32, .v2.u32); prmt.b32 default mode selectors incl. sign replication (9.7.9.7, 9.7.9.9, 9.7.9.10)", H + r"""
.visible .entry nc_ldu_prmt(.param .u64 in, .param .u64 out, .param .u64 pout)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd0, [in];
	cvta.to.global.u64 %rd0, %rd0;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	ld.param.u64 %rd2, [pout];
	cvta.to.global.u64 %rd2, %rd2;
	ld.global.nc.u32 %r0, [%rd0];
	st.global.u32 [%rd1], %r0;
	ldu.global.u32 %r1, [%rd0+4];
	st.global.u32 [%rd1+8], %r1;
	ld.global.nc.u64 %rd3, [%rd0+8];
	st.global.u64 [%rd1+16], %rd3;
	ld.global.nc.v2.u32 {%r2, %r3}, [%rd0+8];
	st.global.v2.u32 [%rd1+32], {%r2, %r3};
	ldu.global.v2.u32 {%r2, %r3}, [%rd0];
	st.global.v2.u32 [%rd1+40], {%r2, %r3};
	ld.global.nc.L1::no_allocate.u32 %r4, [%rd0+12];
	st.global.u32 [%rd1+24], %r4;
""" + "\n".join(L) + "\n\tret;\n}\n",
     params=[ptr("in"), ptr("out"), ptr("pout")],
     buffers=[inp("in", "u32", nin),
              out("out", "u32", [nin[0], 0, nin[1], 0, nin[2], nin[3], nin[3], 0, nin[2], nin[3], nin[0], nin[1]]),
              out("pout", "u32", pexp2)])

# ------------------------------------------------------------ README
rows = "\n".join("| %s | %s |" % r for r in INDEX)
with open("../README.md", "w") as f:
    f.write(open("README.template.md").read().replace("{{CASES}}", rows))
