// Command simdgen writes the AVX2 whole-warp loops of internal/exec: the
// assembly (simd_amd64.s) and the Go declarations and lookup table that
// name them (simd_table_amd64.go).
//
//	go run ./simdgen -s simd_amd64.s -go simd_table_amd64.go   (go generate)
//
// A register row is 32 lanes of 64 bits (256 bytes), so every loop is eight
// straight-line chunks of one 256-bit register (four lanes). The values are
// those of the Go loops they stand in for (int_vec_ops.go, float_view.go);
// simd_test.go compares every function here with them.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"math"
	"math/bits"
	"os"
	"sort"
	"strings"
)

// An intOp is an integer operation on one element type.
type intOp struct {
	name string   // table key, e.g. "add.z32"
	fn   string   // Go function name stem, e.g. "addZ32"
	body bodyFunc // one chunk's computation
	// kprep writes how the immediate k (in AX, from the frame) becomes Y13.
	kprep string
}

// roundingControls: MXCSR words giving PTX's .rz, .rm and .rp (rounding
// control bits 13-14: 3 toward zero, 1 down, 2 up) with every exception
// masked, as Go runs. A loop under one loads it after its prologue and
// loads Go's own word (0x1f80, round to nearest even) back before it
// returns, so the mode never leaks out of the loop or the trace body. x86's
// IEEE operations round correctly in every mode, as 9.7.3 requires of
// .rz/.rm/.rp.
var roundingControls = []struct {
	mod, sym string
	word     uint32
}{{"rz", "mxcsrrz", 0x7f80}, {"rm", "mxcsrrm", 0x3f80}, {"rp", "mxcsrrp", 0x5f80}}

// rounded renames ops (add, sub, mul, div on f32, f32 .ftz or f64) for
// the rounding modifier mod: "add.f32" becomes "add.rz.f32", addF32
// addRzF32.
func rounded(ops []intOp, mod string) []intOp {
	var out []intOp
	for _, o := range ops {
		op, rest, _ := strings.Cut(o.name, ".")
		o.name = op + "." + mod + "." + rest
		o.fn = op + strings.ToUpper(mod[:1]) + mod[1:] + o.fn[len(op):]
		out = append(out, o)
	}
	return out
}

// A bodyFunc writes one chunk's computation: the a chunk is in ya, the b
// chunk at memory operand mb (or the broadcast immediate in Y13 when mb is
// "Y13"), yt and yu are scratch registers, j is the chunk (to read a
// again); the result goes to ya.
type bodyFunc func(w *writer, ya, yt, yu, mb string, j int)

// kprep forms.
const (
	kQ = "VMOVQ AX, X13\n\tVPBROADCASTQ X13, Y13"
	kD = "VMOVQ AX, X13\n\tVPBROADCASTD X13, Y13"
	// an f32 immediate in every lane
	kF = "VMOVQ AX, X13\n\tVBROADCASTSS X13, Y13"
	// a shift count is the immediate's low 32 bits, zero-extended
	kCount = "MOVL AX, AX\n\tVMOVQ AX, X13\n\tVPBROADCASTQ X13, Y13"
)

type writer struct{ b bytes.Buffer }

func (w *writer) f(format string, args ...any) { fmt.Fprintf(&w.b, "\t"+format+"\n", args...) }

// sext32 sign-extends the low 32 bits of each 64-bit lane of y (AVX2 has no
// 64-bit arithmetic shift): the sign, shifted up and spread by a 32-bit
// arithmetic shift, is blended into the upper halves.
func sext32(w *writer, y, t string) {
	w.f("VPSLLQ $32, %s, %s", y, t)
	w.f("VPSRAD $31, %s, %s", t, t)
	w.f("VPBLENDD $0xAA, %s, %s, %s", t, y, y)
}

// addC32 adds the third operand's row (the lane's 32-bit c, at CX) to
// ya's 32-bit sums and extends them to the slot: signed, or zero (yt
// scratch).
func addC32(w *writer, ya, yt string, j int, signed bool) {
	w.f("VPADDD %d(CX), %s, %s", 32*j, ya, ya)
	if signed {
		sext32(w, ya, yt)
	} else {
		zext32(w, ya)
	}
}

// zext32 clears the upper halves (Y15 holds 0x00000000ffffffff per lane).
func zext32(w *writer, y string) { w.f("VPAND Y15, %s, %s", y, y) }

func simple(insn string, post func(w *writer, y, t string)) bodyFunc {
	return func(w *writer, ya, yt, _, mb string, _ int) {
		w.f("%s %s, %s, %s", insn, mb, ya, ya)
		if post != nil {
			post(w, ya, yt)
		}
	}
}

func postZ(w *writer, y, _ string) { zext32(w, y) }
func postS(w *writer, y, t string) { sext32(w, y, t) }

// postZ16 and postS16 extend a lane's low 16 bits, zero or sign.
func postZ16(w *writer, y, _ string) { w.f("VPAND low16v<>(SB), %s, %s", y, y) }
func postS16(w *writer, y, t string) {
	w.f("VPSLLD $16, %s, %s", y, y)
	w.f("VPSRAD $16, %s, %s", y, y)
	sext32(w, y, t)
}

// count puts the shift count (the b lane's low 32 bits) in yt.
func count(w *writer, yt, mb string) string {
	if mb == "Y13" {
		return "Y13" // kCount has zero-extended it
	}
	w.f("VPAND %s, Y15, %s", mb, yt)
	return yt
}

// kZ16 and kS16: the immediate's low 16 bits, zero- or sign-extended.
const (
	kZ16 = "MOVWQZX AX, AX\n\tVMOVQ AX, X13\n\tVPBROADCASTQ X13, Y13"
	kS16 = "MOVWQSX AX, AX\n\tVMOVQ AX, X13\n\tVPBROADCASTQ X13, Y13"
)

// mul16 is mul.wide (hi false) or mul.hi of .u16 or .s16 (signed) lanes.
func mul16(signed, hi bool) bodyFunc {
	ext := func(w *writer, y string) {
		if signed {
			w.f("VPSLLD $16, %s, %s", y, y)
			w.f("VPSRAD $16, %s, %s", y, y)
		} else {
			w.f("VPAND low16v<>(SB), %s, %s", y, y)
		}
	}
	return func(w *writer, ya, yt, yu, mb string, _ int) {
		ext(w, ya)
		if mb != "Y13" { // (kprep extended the immediate)
			w.f("VMOVDQU %s, %s", mb, yu)
			ext(w, yu)
			mb = yu
		}
		if !signed {
			w.f("VPMULUDQ %s, %s, %s", mb, ya, ya)
			if hi {
				w.f("VPSRLQ $16, %s, %s", ya, ya)
			}
			return
		}
		w.f("VPMULDQ %s, %s, %s", mb, ya, ya)
		if hi {
			w.f("VPSRAD $16, %s, %s", ya, ya)
			sext32(w, ya, yt)
		}
	}
}

func intOps() []intOp {
	var ops []intOp
	for _, k := range []struct {
		key, fn string
		post    func(w *writer, y, t string)
	}{{"z32", "Z32", postZ}, {"s32", "S32", postS}} {
		for _, o := range []struct{ op, insn string }{{"add", "VPADDD"}, {"sub", "VPSUBD"}, {"mul", "VPMULLD"}} {
			ops = append(ops, intOp{o.op + "." + k.key, o.op + k.fn, simple(o.insn, k.post), kD})
		}
	}
	for _, o := range []struct{ op, insn string }{{"and", "VPAND"}, {"or", "VPOR"}, {"xor", "VPXOR"}} {
		ops = append(ops, intOp{o.op + ".z32", o.op + "Z32", simple(o.insn, postZ), kD})
		ops = append(ops, intOp{o.op + ".64", o.op + "64", simple(o.insn, nil), kQ})
	}
	ops = append(ops,
		intOp{name: "div.u32", fn: "divU32", body: divRem(false, false), kprep: kD},
		intOp{name: "rem.u32", fn: "remU32", body: divRem(true, false), kprep: kD},
		intOp{name: "div.s32", fn: "divS32", body: divRem(false, true), kprep: kD},
		intOp{name: "rem.s32", fn: "remS32", body: divRem(true, true), kprep: kD},
	)
	// min and max: 32-bit lanes compare their low halves; 64-bit ones
	// select by a signed compare (unsigned: after flipping the sign bits)
	ops = append(ops,
		intOp{name: "min.s32", fn: "minS32", body: simple("VPMINSD", postS), kprep: kD},
		intOp{name: "max.s32", fn: "maxS32", body: simple("VPMAXSD", postS), kprep: kD},
		intOp{name: "min.z32", fn: "minZ32", body: simple("VPMINUD", postZ), kprep: kD},
		intOp{name: "max.z32", fn: "maxZ32", body: simple("VPMAXUD", postZ), kprep: kD},
		// 16 bits (a byte image's sorting network, narrowed by clang): the
		// low words compared, the result extended as the type is
		intOp{name: "min.u16", fn: "minU16", body: simple("VPMINUW", postZ16), kprep: kZ16},
		intOp{name: "max.u16", fn: "maxU16", body: simple("VPMAXUW", postZ16), kprep: kZ16},
		intOp{name: "min.s16", fn: "minS16", body: simple("VPMINSW", postS16), kprep: kS16},
		intOp{name: "max.s16", fn: "maxS16", body: simple("VPMAXSW", postS16), kprep: kS16},
		intOp{name: "min.s64", fn: "minS64", body: select64(false, false), kprep: kQ},
		intOp{name: "max.s64", fn: "maxS64", body: select64(true, false), kprep: kQ},
		intOp{name: "min.u64", fn: "minU64", body: select64(false, true), kprep: kQ},
		intOp{name: "max.u64", fn: "maxU64", body: select64(true, true), kprep: kQ},
		// mul.hi: the 64-bit product of the low halves, shifted down
		intOp{name: "mulhi.u32", fn: "mulHiU32", body: func(w *writer, ya, yt, _, mb string, _ int) {
			w.f("VPMULUDQ %s, %s, %s", mb, ya, ya)
			w.f("VPSRLQ $32, %s, %s", ya, ya)
		}, kprep: kQ},
		intOp{name: "mulhi.s32", fn: "mulHiS32", body: func(w *writer, ya, yt, _, mb string, _ int) {
			w.f("VPMULDQ %s, %s, %s", mb, ya, ya)
			w.f("VPSRLQ $32, %s, %s", ya, ya)
			sext32(w, ya, yt)
		}, kprep: kQ},
	)
	// 16-bit lanes: the 32-bit operation, then the low 16 bits extended
	// (zero for .z16, sign for .s16); a right shift extends its operand
	// first, since the bits above 16 would come down (int_vec.go's
	// vecBinary16)
	post16 := map[string]func(w *writer, y, t string){
		"z16": func(w *writer, y, _ string) { w.f("VPAND low16v<>(SB), %s, %s", y, y) },
		"s16": func(w *writer, y, t string) {
			w.f("VPSLLD $16, %s, %s", y, y)
			w.f("VPSRAD $16, %s, %s", y, y)
			sext32(w, y, t)
		},
	}
	for _, k := range []string{"z16", "s16"} {
		post, fn := post16[k], strings.ToUpper(k[:1])+k[1:]
		for _, o := range []struct{ op, insn string }{{"add", "VPADDD"}, {"sub", "VPSUBD"}, {"mul", "VPMULLD"}} {
			ops = append(ops, intOp{o.op + "." + k, o.op + fn, simple(o.insn, post), kD})
		}
	}
	for _, o := range []struct{ op, insn string }{{"and", "VPAND"}, {"or", "VPOR"}, {"xor", "VPXOR"}} {
		ops = append(ops, intOp{o.op + ".z16", o.op + "Z16", simple(o.insn, post16["z16"]), kD})
	}
	ops = append(ops,
		intOp{"shl.z16", "shlZ16", func(w *writer, ya, yt, _, mb string, _ int) {
			c := count(w, yt, mb)
			w.f("VPSLLVQ %s, %s, %s", c, ya, ya)
			post16["z16"](w, ya, yt)
		}, kCount},
		intOp{"shr.z16", "shrZ16", func(w *writer, ya, yt, _, mb string, _ int) {
			post16["z16"](w, ya, yt)
			c := count(w, yt, mb)
			w.f("VPSRLVQ %s, %s, %s", c, ya, ya)
		}, kCount},
		intOp{"shr.s16", "shrS16", func(w *writer, ya, yt, _, mb string, _ int) {
			post16["s16"](w, ya, yt)
			w.f("VPSRAVD %s, %s, %s", mb, ya, ya)
			sext32(w, ya, yt)
		}, kD},
	)
	ops = append(ops,
		intOp{"add.64", "add64", simple("VPADDQ", nil), kQ},
		intOp{"sub.64", "sub64", simple("VPSUBQ", nil), kQ},
		// mul.lo of 64-bit lanes (AVX2 multiplies 32-bit halves only): the
		// low product plus the two cross products shifted up; the high
		// halves' product falls outside the low 64 bits
		intOp{"mul.64", "mul64", func(w *writer, ya, yt, y3, mb string, _ int) {
			w.f("VPSRLQ $32, %s, %s", ya, yt)
			w.f("VPMULUDQ %s, %s, %s", mb, yt, yt)
			if strings.HasPrefix(mb, "Y") {
				w.f("VPSRLQ $32, %s, %s", mb, y3)
			} else {
				// a shift by an immediate reads a register only: its
				// memory form is AVX-512's (EVEX), which AVX2 hosts lack
				w.f("VMOVDQU %s, %s", mb, y3)
				w.f("VPSRLQ $32, %s, %s", y3, y3)
			}
			w.f("VPMULUDQ %s, %s, %s", ya, y3, y3)
			w.f("VPADDQ %s, %s, %s", y3, yt, yt)
			w.f("VPSLLQ $32, %s, %s", yt, yt)
			w.f("VPMULUDQ %s, %s, %s", mb, ya, ya)
			w.f("VPADDQ %s, %s, %s", yt, ya, ya)
		}, kQ},
		// mul.wide: the low 32 bits of each lane multiplied into 64
		intOp{"mulwide.s32", "mulWideS32", simple("VPMULDQ", nil), kQ},
		intOp{"mulwide.u32", "mulWideU32", simple("VPMULUDQ", nil), kQ},
		// mul.wide and mul.hi of 16-bit lanes: the low 16 bits of each
		// operand extended (zero for .u16, sign for .s16; the immediate
		// once, in kprep) and multiplied into 64 bits, where the product
		// fits in 32; .hi keeps its bits 16-31, extended as .u16/.s16
		intOp{"mulwide.u16", "mulWideU16", mul16(false, false), kZ16},
		intOp{"mulwide.s16", "mulWideS16", mul16(true, false), kS16},
		intOp{"mulhi.u16", "mulHiU16", mul16(false, true), kZ16},
		intOp{"mulhi.s16", "mulHiS16", mul16(true, true), kS16},
		// a count of 32 or more shifts every bit out, as Go's shifts do
		intOp{"shl.z32", "shlZ32", func(w *writer, ya, yt, _, mb string, _ int) {
			c := count(w, yt, mb)
			w.f("VPSLLVQ %s, %s, %s", c, ya, ya)
			zext32(w, ya)
		}, kCount},
		intOp{"shr.z32", "shrZ32", func(w *writer, ya, yt, _, mb string, _ int) {
			c := count(w, yt, mb)
			zext32(w, ya)
			w.f("VPSRLVQ %s, %s, %s", c, ya, ya)
		}, kCount},
		// VPSRAVD fills with the sign for a count of 32 or more, as Go does
		intOp{"shr.s32", "shrS32", func(w *writer, ya, yt, _, mb string, _ int) {
			w.f("VPSRAVD %s, %s, %s", mb, ya, ya)
			sext32(w, ya, yt)
		}, kD},
		intOp{"shl.64", "shl64", func(w *writer, ya, yt, _, mb string, _ int) {
			c := count(w, yt, mb)
			w.f("VPSLLVQ %s, %s, %s", c, ya, ya)
		}, kCount},
		intOp{"shr.u64", "shrU64", func(w *writer, ya, yt, _, mb string, _ int) {
			c := count(w, yt, mb)
			w.f("VPSRLVQ %s, %s, %s", c, ya, ya)
		}, kCount},
	)
	return ops
}

// nanFix64 leaves in ops[0] the result r, or for lanes where r is NaN the
// GPU's NaN (internal/fp's NaNResult: the first NaN operand, quieted,
// else the canonical NaN). ops are the operands' registers in order; all
// are overwritten. It tests r first and skips the fix when no lane is NaN.
// A blend's taken operand may be memory, so the steps blend on "ordered"
// (VCMPPD predicate 7); m is scratch.
func nanFix64(w *writer, ops []string, r, m, label string) {
	w.f("VCMPPD $3, %s, %s, %s", r, r, m)
	w.f("VPTEST %s, %s", m, m)
	w.f("JNZ %s_nan", label)
	w.f("VMOVDQA %s, %s", r, ops[0])
	w.f("JMP %s_done", label)
	fmt.Fprintf(&w.b, "%s_nan:\n", label)
	acc := "canon64v<>(SB)" // from the last operand back: op ordered ? acc : quiet(op)
	for i := len(ops) - 1; i >= 0; i-- {
		w.f("VCMPPD $7, %s, %s, %s", ops[i], ops[i], m)
		w.f("VPOR quiet64v<>(SB), %s, %s", ops[i], ops[i])
		w.f("VBLENDVPD %s, %s, %s, %s", m, acc, ops[i], ops[i])
		acc = ops[i]
	}
	w.f("VCMPPD $7, %s, %s, %s", r, r, m)
	w.f("VBLENDVPD %s, %s, %s, %s", m, r, ops[0], ops[0]) // the result where not NaN
	fmt.Fprintf(&w.b, "%s_done:\n", label)
}

// f64Body is an f64 add, sub, mul or div (nanFix64's NaN; Y14, f32's
// canonical NaN, unused here, is scratch).
func f64Body(insn string) bodyFunc {
	return func(w *writer, ya, yt, yu, mb string, j int) {
		w.f("VMOVDQU %s, %s", mb, yu) // (also the immediate in Y13, kept)
		w.f("%s %s, %s, %s", insn, yu, ya, yt)
		nanFix64(w, []string{ya, yu}, yt, "Y14", fmt.Sprintf("c%d", j))
	}
}

// approxIn starts an f32 transcendental's chunk: the four f32 values in
// the lanes' low halves (flushed with ftz) widened to f64 in ya.
func approxIn(w *writer, ya, yt string, ftz bool) {
	if ftz {
		flushF32(w, ya, yt)
	}
	w.f("VMOVDQU evens<>(SB), %s", yt)
	w.f("VPERMD %s, %s, %s", ya, yt, ya)
	w.f("VCVTPS2PD X%s, %s", ya[1:], ya)
}

// approxOut ends it: the f64 results in ya rounded to f32, the canonical
// NaN in the lanes Y8 marks, zero-extended (and flushed with ftz).
func approxOut(w *writer, ya, yt string, ftz bool) {
	xa := "X" + ya[1:]
	w.f("VCVTPD2PSY %s, %s", ya, xa)
	w.f("VMOVDQU evens<>(SB), Y10")
	w.f("VPERMD Y8, Y10, Y8")
	w.f("VBLENDVPS X8, X14, %s, %s", xa, xa)
	w.f("VPMOVZXDQ %s, %s", xa, ya)
	if ftz {
		flushF32(w, ya, yt)
	}
}

// approxOutAgain is approxOut for unaryInterleaved's bodies, which keep
// no mask: the lanes whose result is the canonical NaN are found in chunk
// j's operand again (its f32 values in the rows' low halves; flushing
// keeps NaNs and infinities): NaNs (VCMPPS unordered), or NaNs and
// infinities (exponent all ones) with inf. t and s are free by then.
func approxOutAgain(w *writer, r chunkSet, j int, inf, ftz bool) {
	w.f("VMOVDQU %d(SI), %s", 32*j, r.t)
	if inf {
		w.f("VPAND expmask32<>(SB), %s, %s", r.t, r.t)
		w.f("VPCMPEQD expmask32<>(SB), %s, %s", r.t, r.t)
	} else {
		w.f("VCMPPS $3, %s, %s, %s", r.t, r.t, r.t)
	}
	approxOutMask(w, r, r.t, ftz)
}

// approxOutMask ends an interleaved approx body: the f64 results in a
// rounded to f32, the canonical NaN in the lanes whose low half of mask m
// is set, zero-extended (and flushed with ftz); s and t are free.
func approxOutMask(w *writer, r chunkSet, m string, ftz bool) {
	xa := "X" + r.a[1:]
	w.f("VCVTPD2PSY %s, %s", r.a, xa)
	w.f("VMOVDQU evens<>(SB), %s", r.s)
	w.f("VPERMD %s, %s, %s", m, r.s, m)
	w.f("VBLENDVPS X%s, X14, %s, %s", m[1:], xa, xa)
	w.f("VPMOVZXDQ %s, %s", xa, r.a)
	if ftz {
		flushF32(w, r.a, r.t)
	}
}

// divApprox32 is div.approx.f32 (quirk) or div.full.f32, with .ftz or
// not (see its registration).
func divApprox32(quirk, ftz bool) bodyFunc {
	return func(w *writer, ya, yt, yu, mb string, j int) {
		var tmp []string // the scratch registers of Y8-Y11 other than yu
		for k := 8; k < 12; k++ {
			if r := fmt.Sprintf("Y%d", k); r != yu {
				tmp = append(tmp, r)
			}
		}
		t0, t1, t2 := tmp[0], tmp[1], tmp[2]
		w.f("VMOVDQU %s, %s", mb, yu)
		if ftz {
			flushF32(w, ya, yt)
			flushF32(w, yu, yt)
		}
		w.f("VMOVDQU evens<>(SB), %s", yt)
		w.f("VPERMD %s, %s, %s", ya, yt, ya)
		w.f("VPERMD %s, %s, %s", yu, yt, yu)
		w.f("VCVTPS2PD X%s, %s", ya[1:], ya)
		w.f("VCVTPS2PD X%s, %s", yu[1:], yu)
		w.f("VDIVPD %s, %s, %s", yu, ya, yt)
		if quirk {
			w.f("VANDPD abs64v<>(SB), %s, %s", yu, t0)
			w.f("VCMPPD $14, two126v<>(SB), %s, %s", t0, t1) // |b| > 2^126
			w.f("VCMPPD $1, two128v<>(SB), %s, %s", t0, t0)  // |b| < 2^128
			w.f("VANDPD %s, %s, %s", t1, t0, t0)
			w.f("VCMPPD $7, %s, %s, %s", ya, ya, t1) // a not NaN
			w.f("VANDPD %s, %s, %s", t1, t0, t0)
			w.f("VXORPD %s, %s, %s", ya, yu, t1)
			w.f("VANDPD sign64v<>(SB), %s, %s", t1, t1) // the quotient's sign
			w.f("VBLENDVPD %s, %s, %s, %s", t0, t1, yt, yt)
			w.f("VANDPD abs64v<>(SB), %s, %s", ya, t2)
			w.f("VCMPPD $0, inf64v<>(SB), %s, %s", t2, t2) // a infinite
			w.f("VANDPD %s, %s, %s", t0, t2, t2)
			w.f("VBLENDVPD %s, canon64v<>(SB), %s, %s", t2, yt, yt) // (a NaN: canonical below)
		}
		w.f("VCVTPD2PSY %s, X%s", yt, ya[1:])
		w.f("VPMOVZXDQ X%s, %s", ya[1:], ya)
		canonF32(w, ya, yt)
		if ftz {
			flushF32(w, ya, yt)
		}
	}
}

// floatMinMax is min or max on f32 or f64 lanes (internal/exec's
// pickMinMax): x86's MIN/MAX gives b when either operand is NaN, so a NaN
// b is replaced by a; equal operands (+0 and -0 among them) take a|b for
// min and a&b for max, so that -0 orders below +0; a NaN result (both
// operands NaN) becomes the canonical NaN. Y14 is scratch (f32: reloaded).
func floatMinMax(isMax, f64 bool) bodyFunc {
	return func(w *writer, ya, yt, yu, mb string, j int) {
		sfx := "PS"
		if f64 {
			sfx = "PD"
		}
		insn, join := "VMIN"+sfx, "VPOR"
		if isMax {
			insn, join = "VMAX"+sfx, "VPAND"
		}
		w.f("VMOVDQU %s, %s", mb, yu)
		w.f("%s %s, %s, %s", insn, yu, ya, yt)
		w.f("VCMP%s $3, %s, %s, Y14", sfx, yu, yu)
		w.f("VBLENDV%s Y14, %s, %s, %s", sfx, ya, yt, yt)
		w.f("VCMP%s $0, %s, %s, Y14", sfx, yu, ya)
		w.f("%s %s, %s, %s", join, ya, yu, yu)
		w.f("VBLENDV%s Y14, %s, %s, %s", sfx, yu, yt, ya)
		if f64 {
			w.f("VCMPPD $3, %s, %s, Y14", ya, ya)
			w.f("VBLENDVPD Y14, canon64v<>(SB), %s, %s", ya, ya)
		} else {
			w.f("VPBROADCASTD canonf32<>(SB), Y14")
			canonF32(w, ya, yt)
		}
	}
}

func f64Ops() []intOp {
	var ops []intOp
	for _, o := range []struct{ op, insn string }{{"add", "VADDPD"}, {"sub", "VSUBPD"}, {"mul", "VMULPD"}, {"div", "VDIVPD"}} {
		ops = append(ops, intOp{name: o.op + ".f64", fn: o.op + "F64", kprep: kQ, body: f64Body(o.insn)})
	}
	return ops
}

// divRem is div or rem on 32-bit lanes, through f64: a and b convert
// exactly, and the truncated f64 quotient of 32-bit integers is the
// integer quotient (its fractional part, when not zero, is at least 1/|b|,
// far more than the division's rounding error). The lanes' four low
// halves are packed into 128 bits (VPERMD with evens); Y14 (the canonical
// NaN, unused by integer loops) holds the lanes whose divisor is zero:
// div gives all ones there; rem gives a - q*b = a by itself. The most
// negative s32 over -1 converts out of range to 0x80000000, itself: the
// wrapped quotient, and remainder 0.
func divRem(rem, signed bool) bodyFunc {
	return func(w *writer, ya, yt, yu, mb string, j int) {
		xa, xt, xu := "X"+ya[1:], "X"+yt[1:], "X"+yu[1:]
		w.f("VMOVDQU evens<>(SB), %s", yt)
		w.f("VPERMD %s, %s, %s", ya, yt, ya)
		w.f("VPERMD %s, %s, %s", mb, yt, yu)
		w.f("VPXOR Y14, Y14, Y14")
		w.f("VPCMPEQD %s, Y14, Y14", yu)
		if signed {
			w.f("VCVTDQ2PD %s, %s", xa, ya)
			w.f("VCVTDQ2PD %s, %s", xu, yt)
			w.f("VDIVPD %s, %s, %s", yt, ya, ya)
			w.f("VCVTTPD2DQY %s, %s", ya, xa)
		} else { // unsigned through signed: flip the sign bit, add 2^31 back
			w.f("VPXOR bias32v<>(SB), %s, %s", ya, ya)
			w.f("VCVTDQ2PD %s, %s", xa, ya)
			w.f("VADDPD two31v<>(SB), %s, %s", ya, ya)
			w.f("VPXOR bias32v<>(SB), %s, %s", yu, yt)
			w.f("VCVTDQ2PD %s, %s", xt, yt)
			w.f("VADDPD two31v<>(SB), %s, %s", yt, yt)
			w.f("VDIVPD %s, %s, %s", yt, ya, ya)
			w.f("VROUNDPD $3, %s, %s", ya, ya)
			w.f("VSUBPD two31v<>(SB), %s, %s", ya, ya)
			w.f("VCVTTPD2DQY %s, %s", ya, xa)
			w.f("VPXOR bias32v<>(SB), %s, %s", ya, ya)
		}
		if rem {
			w.f("VPMULLD %s, %s, %s", xu, xa, xt) // q*b
			w.f("VMOVDQU evens<>(SB), %s", ya)
			w.f("VPERMD %d(SI), %s, %s", 32*j, ya, yu) // a again
			w.f("VPSUBD %s, %s, %s", xt, xu, xa)
		} else {
			w.f("VPOR X14, %s, %s", xa, xa)
		}
		if signed {
			w.f("VPMOVSXDQ %s, %s", xa, ya)
		} else {
			w.f("VPMOVZXDQ %s, %s", xa, ya)
		}
	}
}

// select64 is min or max on 64-bit lanes: yt = b, yu = (b > a), then a
// where b is greater for min (b for max), else the other.
func select64(isMax, unsigned bool) bodyFunc {
	return func(w *writer, ya, yt, yu, mb string, _ int) {
		w.f("VMOVDQU %s, %s", mb, yt)
		if unsigned {
			// a's sign flipped in place and back around the compare
			w.f("VPBROADCASTQ bias64<>(SB), %s", yu)
			w.f("VPXOR %s, %s, %s", yu, ya, ya)
			w.f("VPXOR %s, %s, %s", yu, yt, yu)
			w.f("VPCMPGTQ %s, %s, %s", ya, yu, yu)
			w.f("VPBROADCASTQ bias64<>(SB), %s", yt)
			w.f("VPXOR %s, %s, %s", yt, ya, ya)
			w.f("VMOVDQU %s, %s", mb, yt)
		} else {
			w.f("VPCMPGTQ %s, %s, %s", ya, yt, yu)
		}
		if isMax {
			w.f("VBLENDVPD %s, %s, %s, %s", yu, yt, ya, ya)
		} else {
			w.f("VBLENDVPD %s, %s, %s, %s", yu, ya, yt, ya)
		}
	}
}

// f32 view ops: the f32 value sits in the low half of each lane; the upper
// halves compute 0 op 0 (or garbage), which the final mask clears. A NaN
// result becomes the canonical NaN (Y14).
func f32Body(insn string) bodyFunc {
	return func(w *writer, ya, yt, _, mb string, _ int) {
		w.f("%s %s, %s, %s", insn, mb, ya, ya)
		canonF32(w, ya, yt)
	}
}

func canonF32(w *writer, ya, yt string) {
	w.f("VCMPPS $3, %s, %s, %s", ya, ya, yt)
	w.f("VBLENDVPS %s, Y14, %s, %s", yt, ya, ya)
	zext32(w, ya)
}

func f32Ops() []intOp {
	return []intOp{
		{"add.f32", "addF32", f32Body("VADDPS"), kF},
		{"sub.f32", "subF32", f32Body("VSUBPS"), kF},
		{"mul.f32", "mulF32", f32Body("VMULPS"), kF},
		{"div.f32", "divF32", f32Body("VDIVPS"), kF},
	}
}

// prmtUniform writes prmt.b32's default mode with the same selector c in
// every lane (an immediate; bits.go's prmtDefault): c's four nibbles,
// from lane 0 of the c row, become a VPSHUFB control picking bytes of the
// qword {b, a} (the upper four bytes zero) and a mask of the result bytes
// whose nibble's msb asks for the picked byte's sign replicated instead.
func (g *gen) prmtUniform() {
	name := "simdPrmtUniform"
	g.keyedTer["prmt.uniform"] = name
	g.ternarySetup(name, "", func(w *writer) {
		w.f("MOVQ (CX), AX")
		w.f("MOVQ $0x8080808000000000, R9") // control: indices in the low 4 bytes
		w.f("XORQ R10, R10")                // sign mask
		for k := 0; k < 4; k++ {
			w.f("MOVQ AX, BX")
			if k > 0 {
				w.f("SHRQ $%d, BX", 4*k)
			}
			w.f("ANDQ $7, BX")
			if k > 0 {
				w.f("SHLQ $%d, BX", 8*k)
			}
			w.f("ORQ BX, R9")
			w.f("MOVQ AX, BX")
			w.f("SHRQ $%d, BX", 4*k+3)
			w.f("ANDQ $1, BX")
			w.f("NEGQ BX")
			w.f("ANDQ $0xff, BX")
			if k > 0 {
				w.f("SHLQ $%d, BX", 8*k)
			}
			w.f("ORQ BX, R10")
		}
		w.f("XORL BX, BX")
		w.f("VMOVQ R9, X13")
		w.f("VPBROADCASTQ X13, Y13")
		w.f("VPADDB oddqword8<>(SB), Y13, Y13")
		w.f("VMOVQ R10, X12")
		w.f("VPBROADCASTQ X12, Y12")
		w.f("VPXOR Y14, Y14, Y14")
	}, func(w *writer, ya, yb, yt string, j int) {
		zext32(w, ya)
		w.f("VPSLLQ $32, %s, %s", yb, yb)
		w.f("VPOR %s, %s, %s", yb, ya, ya)
		w.f("VPSHUFB Y13, %s, %s", ya, yt)  // the picked bytes
		w.f("VPCMPGTB %s, Y14, %s", yt, ya) // their signs, replicated
		w.f("VPBLENDVB Y12, %s, %s, %s", ya, yt, ya)
	})
}

// fmaF32 is fma.f32: a*b+c rounded once, NaN results the canonical NaN.
func fmaF32(w *writer, ya, yb, yt string, j int) {
	w.f("VFMADD213PS %d(CX), %s, %s", 32*j, yb, ya)
	canonF32(w, ya, yt)
}

// fmaFtzF32 is fma.ftz.f32: fmaF32 on flushed inputs, the result flushed.
func fmaFtzF32(w *writer, ya, yb, yt string, j int) {
	w.f("VMOVDQU %d(CX), Y12", 32*j)
	flushF32(w, ya, yt)
	flushF32(w, yb, yt)
	flushF32(w, "Y12", yt)
	w.f("VFMADD213PS Y12, %s, %s", yb, ya)
	flushF32(w, ya, yt)
	canonF32(w, ya, yt)
}

// fmaF64 is fma.f64: a*b+c rounded once; NaN results as f64Body's, over
// a, b and c (c in Y12, Y13 scratch: a ternary loop has no mask or k).
func fmaF64(w *writer, ya, yb, yt string, j int) {
	w.f("VMOVDQU %d(CX), Y12", 32*j)
	w.f("VMOVDQA %s, %s", ya, yt)
	w.f("VFMADD213PD Y12, %s, %s", yb, yt)
	nanFix64(w, []string{ya, yb, "Y12"}, yt, "Y13", fmt.Sprintf("f%d", j))
}

// flushF32 is .ftz on an input or result: a subnormal (exponent bits
// zero) keeps only its sign (9.7.3, subnormal numbers).
func flushF32(w *writer, y, t string) {
	w.f("VPAND expmask32<>(SB), %s, %s", y, t)
	w.f("VPCMPEQD zero32<>(SB), %s, %s", t, t)
	w.f("VPAND absmask32<>(SB), %s, %s", t, t)
	w.f("VPANDN %s, %s, %s", y, t, y)
}

// f32FtzOps: add/sub/mul/div.rn.ftz.f32, inputs and result flushed.
func f32FtzOps() []intOp {
	var kp writer
	kp.f("%s", kF)
	flushF32(&kp, "Y13", "Y8")
	kprep := strings.TrimSpace(kp.b.String())
	var ops []intOp
	for _, o := range []struct{ op, insn string }{{"add", "VADDPS"}, {"sub", "VSUBPS"}, {"mul", "VMULPS"}, {"div", "VDIVPS"}} {
		insn := o.insn
		ops = append(ops, intOp{name: o.op + ".ftz.f32", fn: o.op + "FtzF32", kprep: kprep,
			body: func(w *writer, ya, yt, yu, mb string, _ int) {
				flushF32(w, ya, yt)
				b := mb
				if mb != "Y13" { // the immediate was flushed once, in kprep
					w.f("VMOVDQU %s, %s", mb, yu)
					flushF32(w, yu, yt)
					b = yu
				}
				w.f("%s %s, %s, %s", insn, b, ya, ya)
				flushF32(w, ya, yt)
				canonF32(w, ya, yt)
			}})
	}
	return ops
}

func chunkRegs(j int) (string, string) { return fmt.Sprintf("Y%d", j%4), fmt.Sprintf("Y%d", 4+j%4) }

// prologue loads the constants every function may use.
func prologue(w *writer) {
	w.f("VPBROADCASTQ lowmask<>(SB), Y15")
	w.f("VPBROADCASTD canonf32<>(SB), Y14")
}

// maskPrep: Y12 = the lane mask in every lane, for masked stores.
func maskPrep(w *writer, off int) {
	w.f("MOVL mask+%d(FP), AX", off)
	w.f("VMOVQ AX, X12")
	w.f("VPBROADCASTQ X12, Y12")
}

// store writes chunk j's result; a masked store blends it into the old
// destination under the lanes' bits (moved to each lane's sign bit by
// shifting left by 63-lane). The old value is read after the operands, so
// a destination that is also an operand is right.
func store(w *writer, j int, y, t string, masked bool) {
	off := 32 * j
	if masked {
		old := fmt.Sprintf("Y%d", 8+j%4)
		w.f("VPSLLVQ lanesign<>+%d(SB), Y12, %s", off, t)
		w.f("VMOVDQU %d(DI), %s", off, old)
		w.f("VBLENDVPD %s, %s, %s, %s", t, y, old, y)
	}
	w.f("VMOVDQU %s, %d(DI)", y, off)
}

type decl struct{ name, sig string }

type gen struct {
	s      writer
	decls  []decl
	table  map[string][4]string // key -> rr, rk, mrr, mrk
	bodies []string             // the loops with a body (g.body), by index
	// memBodies: the trace's memory-access bodies (traceMemory), by
	// access kind, with their index among bodies
	memBodies map[string]int
	compares  []compareBody // the comparisons (g.compare), for setp in traces
	// keyedUn, keyedTer: loops by key (keyedUnary, keyedTernary)
	keyedUn, keyedTer map[string]string
}

type compareBody struct {
	name string
	body func(w *writer, ya, yt string, off int)
}

// body ends the function begun (its operands loaded: DI = d, SI = a,
// DX = b or AX = the immediate, CX = c) with a jump to NAME_b, and begins
// NAME_b, the rest of the loop, which ends in RET: the function returns
// to its caller, and simdTrace can CALL the body directly. A body uses
// AX, CX, DX, SI, DI and the vector registers only.
func (g *gen) body(name string) {
	g.s.f("JMP ·%s_b(SB)", name)
	fmt.Fprintf(&g.s.b, "\nTEXT ·%s_b(SB), NOSPLIT|NOFRAME, $0-0\n", name)
	g.decls = append(g.decls, decl{name + "_b", "()"})
	g.bodies = append(g.bodies, name)
}

// trace writes simdTrace, which runs a list of loops' bodies: each entry
// is the body's code address (simdBodyAddr reads them from the table),
// the byte offsets of the rows d, a, b and c from rows, and the immediate.
// Memory bodies (traceMemory) also read the entry (R13) and the warp's
// windows (R8); one that refuses its access moves the count of entries
// left, itself included, from R11 to BX and sets R11 to 1, which ends the
// loop: the trace returns how many entries ran. The other bodies leave BX,
// R8 and R11-R13 alone.
func (g *gen) trace() {
	w := &g.s
	for i, b := range g.bodies {
		fmt.Fprintf(&w.b, "DATA simdbodies<>+%d(SB)/8, $·%s_b(SB)\n", 8*i, b)
	}
	fmt.Fprintf(&w.b, "GLOBL simdbodies<>(SB), RODATA, $%d\n", 8*len(g.bodies))
	g.decls = append(g.decls, decl{"simdBodyAddr", "(i int) uint64"})
	g.text("simdBodyAddr", 16)
	w.f("MOVQ i+0(FP), AX")
	w.f("LEAQ simdbodies<>(SB), CX")
	w.f("MOVQ (CX)(AX*8), AX")
	w.f("MOVQ AX, ret+8(FP)")
	w.f("RET")
	g.decls = append(g.decls, decl{"simdTrace", "(rows unsafe.Pointer, ops *traceOp, n int, ctx *traceCtx) int"})
	g.text("simdTrace", 40)
	w.f("MOVQ rows+0(FP), R12")
	w.f("MOVQ ops+8(FP), R13")
	w.f("MOVQ n+16(FP), R11")
	w.f("MOVQ ctx+24(FP), R8")
	w.f("XORL BX, BX")
	traceDispatch(g)
	w.f("MOVQ n+16(FP), AX")
	w.f("SUBQ BX, AX")
	w.f("MOVQ AX, ret+32(FP)")
	w.f("RET")
}

// segmentTrace writes simdSegmentTrace, which runs a streaming segment's
// trace (internal/exec's batch_segment.go) for warps warps in turn: after
// each warp's run it adds each advance's step to the k of the entry at its
// byte offset (the segment bodies' addresses move on to the next warp's
// elements). An advance {offset, step, table} with a table adds the
// table's next word instead and moves the table on (warps of 2-D blocks,
// whose rows lie apart). The trace's bodies never stop it; nadv is at
// least 1.
func (g *gen) segmentTrace() {
	w := &g.s
	g.decls = append(g.decls, decl{"simdSegmentTrace", "(rows unsafe.Pointer, ops *traceOp, n int, adv *[3]uint64, nadv int, warps int)"})
	g.text("simdSegmentTrace", 48)
	w.f("MOVQ rows+0(FP), R12")
	g.s.b.WriteString("warp:\n")
	w.f("MOVQ ops+8(FP), R13")
	w.f("MOVQ n+16(FP), R11")
	w.f("XORL BX, BX")
	traceDispatch(g)
	w.f("MOVQ adv+24(FP), SI")
	w.f("MOVQ nadv+32(FP), CX")
	w.f("MOVQ ops+8(FP), DI")
	g.s.b.WriteString("advance:\n")
	w.f("MOVQ 0(SI), AX")  // the entry's k: byte offset from ops
	w.f("MOVQ 8(SI), DX")  // the step
	w.f("MOVQ 16(SI), R9") // the table of steps, or 0
	w.f("TESTQ R9, R9")
	w.f("JZ fixed")
	w.f("MOVQ (R9), DX")
	w.f("ADDQ $8, 16(SI)")
	g.s.b.WriteString("fixed:\n")
	w.f("ADDQ DX, (DI)(AX*1)")
	w.f("ADDQ $24, SI")
	w.f("DECQ CX")
	w.f("JNZ advance")
	w.f("DECQ warps+40(FP)")
	w.f("JNZ warp")
	w.f("RET")
}

// traceMemory writes the memory-access bodies of traces: a warp-wide ld
// (1-, 2-, 4-, 8-byte elements, zero- or sign-extended) or st (4, 8 bytes)
// through one of the warp's windows (a traceWindow: data pointer, length,
// address of the first byte, and for prefetching the last row and step),
// picked by the entry's c field (a byte offset from R8). Every lane's
// bounds and alignment are checked before anything is read or written, as
// in memory(); a refused access (a lane outside the window, misaligned, or
// an empty window) ends the trace (see trace) and leaves every row and
// byte as it was, so the op runs again on the Go path, which faults where
// it must. Loads of global memory (the P variants) also prefetch the row
// two steps ahead when lane 0's step repeats (stride.go's rule, on
// offsets); stores to global memory (also P) take consecutive rows only.
func (g *gen) traceMemory() {
	for _, m := range accessKinds {
		for _, pf := range []bool{false, true} {
			key := m.key
			if pf {
				key += "P"
			}
			g.traceBody(key, func(w *writer) { g.traceAccess(m.size, m.load, m.widen, pf) })
		}
	}
	// ld.param of a kernel parameter by name: one element at the entry's
	// constant offset in the parameter window, in every lane
	for _, m := range []struct {
		name, move string
		size       int
	}{{"ldParamZ8", "MOVBQZX", 1}, {"ldParamS8", "MOVBQSX", 1}, {"ldParamZ16", "MOVWQZX", 2},
		{"ldParamS16", "MOVWQSX", 2}, {"ldParamZ32", "MOVL", 4}, {"ldParamS32", "MOVLQSX", 4}, {"ldParam64", "MOVQ", 8}} {
		g.traceBody(m.name, func(w *writer) {
			w.f("MOVQ 32(R13), CX")
			w.f("ADDQ R8, CX")
			w.f("MOVQ 8(CX), R10")
			w.f("CMPQ R10, $%d", m.size)
			w.f("JCS fail")
			w.f("SUBQ $%d, R10", m.size)
			w.f("CMPQ AX, R10")
			w.f("JHI fail") // past the end
			if m.size > 1 {
				w.f("TESTQ $%d, AX", m.size-1)
				w.f("JNZ fail") // misaligned
			}
			w.f("MOVQ 0(CX), R9")
			w.f("%s (R9)(AX*1), R10", m.move)
			w.f("VMOVQ R10, X0")
			w.f("VPBROADCASTQ X0, Y0")
			for j := 0; j < 8; j++ {
				w.f("VMOVDQU Y0, %d(DI)", 32*j)
			}
		})
	}
	// ld/st.local of a warp at one offset in every lane's local memory (the
	// local window: the lanes' memories, n bytes each, one after the
	// other): every lane's address alike, aligned and inside a lane's n
	// bytes, then each lane's element n bytes on from the last; any other
	// access is refused (the Go path takes or faults it)
	for _, m := range []struct {
		key, move string
		size      int
		load      bool
	}{{"ldLocalZ32", "MOVL", 4, true}, {"ldLocalS32", "MOVLQSX", 4, true}, {"ldLocal64", "MOVQ", 8, true},
		{"stLocal32", "MOVL", 4, false}, {"stLocal64", "MOVQ", 8, false}} {
		g.traceBody(m.key, func(w *writer) {
			traceWindowAt(w, m.size) // the local window (n: a lane's bytes)
			lanesTest(w, "BX", sameSetup, sameTest)
			w.f("CMPL BX, $0xffffffff")
			w.f("JNE fail")
			w.f("ADDQ (SI), AX") // the offset in every lane's memory
			w.f("TESTQ $%d, AX", m.size-1)
			w.f("JNZ fail")
			w.f("MOVQ R10, BX")
			w.f("SUBQ $%d, BX", m.size)
			w.f("CMPQ AX, BX")
			w.f("JHI fail")
			w.f("MOVQ 0(CX), R9")
			w.f("ADDQ AX, R9") // lane 0's element
			for l := 0; l < 32; l++ {
				if m.load {
					w.f("%s (R9), BX", m.move)
					w.f("MOVQ BX, %d(DI)", 8*l)
				} else {
					w.f("MOVQ %d(DX), BX", 8*l)
					w.f("%s BX, (R9)", m.move)
				}
				if l < 31 {
					w.f("ADDQ R10, R9")
				}
			}
			w.f("XORL BX, BX")
		})
	}
	// ld.v2/.v4 of 4-byte elements in traces, into consecutive rows (the
	// entry's d, then the rows after it): every lane's vector checked in
	// the window (aligned to its size), then each lane's elements, zero- or
	// sign-extended; a lane outside refuses the whole access
	for _, v := range []struct {
		key, move string
		n         int
	}{{"ldV2Z32", "MOVL", 2}, {"ldV2S32", "MOVLQSX", 2}, {"ldV4Z32", "MOVL", 4}, {"ldV4S32", "MOVLQSX", 4}} {
		g.traceBody(v.key, func(w *writer) {
			size := 4 * v.n
			traceWindowAt(w, size)
			traceOffsetBounds(w, size)
			w.f("MOVQ AX, CX") // adj (checkOffsets takes AX)
			checkOffsets(w, size)
			for l := 0; l < 32; l++ {
				w.f("MOVQ %d(SI), AX", 8*l)
				w.f("ADDQ CX, AX")
				for e := 0; e < v.n; e++ {
					w.f("%s %d(R9)(AX*1), BX", v.move, 4*e)
					w.f("MOVQ BX, %d(DI)", 256*e+8*l)
				}
			}
			w.f("XORL BX, BX")
		})
	}
	// mul.hi.u64 in traces: each lane's 128-bit product by MULQ, its high
	// half kept (a scalar multiply a lane measured faster than the four
	// 32-bit products and carries of AVX2); b a row, or the entry's k
	for _, k := range []bool{false, true} {
		key := "mulhiU64"
		if k {
			key += "K"
		}
		g.traceBody(key, func(w *writer) {
			if k {
				w.f("MOVQ AX, CX")
			} else {
				w.f("MOVQ DX, R9")
			}
			for l := 0; l < 32; l++ {
				w.f("MOVQ %d(SI), AX", 8*l)
				if k {
					w.f("MULQ CX")
				} else {
					w.f("MULQ %d(R9)", 8*l)
				}
				w.f("MOVQ DX, %d(DI)", 8*l)
			}
		})
	}
	// cvta.to.global of generic addresses that are all global ones (below
	// the windows: unchanged, a copy); any other lane is refused
	g.traceBody("cvtaToGlobal", func(w *writer) {
		w.f("MOVQ $%#x, AX", sharedBase-1)
		w.f("VMOVQ AX, X12")
		w.f("VPBROADCASTQ X12, Y12")
		w.f("VPBROADCASTQ bias64<>(SB), Y13")
		w.f("VPXOR Y13, Y12, Y12")
		w.f("VPXOR Y11, Y11, Y11")
		for j := 0; j < 8; j++ {
			w.f("VMOVDQU %d(SI), Y%d", 32*j, j)
			w.f("VPXOR Y13, Y%d, Y8", j)
			w.f("VPCMPGTQ Y12, Y8, Y9")
			w.f("VPOR Y9, Y11, Y11")
		}
		w.f("VPTEST Y11, Y11")
		w.f("JNZ fail")
		for j := 0; j < 8; j++ {
			w.f("VMOVDQU Y%d, %d(DI)", j, 32*j)
		}
	})
}

// traceSetp writes the bodies of setp in traces: a comparison (one of
// g.compare's, on the rows a and b: SI, DX), its mask complemented or not
// (key setp:NAME or, for the integer ones, setp:NAMEN), stored to the
// predicate at byte offset d (the entry's field) from the frame's
// predicates, whose address the context holds after the windows
// (traceCtx.preds).
func (g *gen) traceSetp() {
	for _, c := range g.compares {
		for _, neg := range []bool{false, true} {
			if neg && strings.HasPrefix(c.name, "simdCmp") {
				continue // float operators come in complementary pairs
			}
			key := "setp:" + c.name
			if neg {
				key += "N"
			}
			name := "simdTraceSetp" + strings.TrimPrefix(c.name, "simd")
			if neg {
				name += "N"
			}
			g.beginTraceBody(key, name)
			w := &g.s
			prologue(w)
			w.f("VPXOR Y11, Y11, Y11")
			w.f("XORQ R9, R9")
			compareMask(w, c.body, "R9")
			if neg {
				w.f("NOTL R9")
			}
			w.f("MOVQ %d(R8), R10", ctxPreds)
			w.f("MOVQ 8(R13), AX")
			w.f("MOVL R9, (R10)(AX*1)")
			w.f("VZEROUPPER")
			w.f("RET")
		}
	}
}

// traceSelp writes the body of selp in traces: d = a where the predicate
// (at byte offset c from the frame's predicates, complemented by XOR with
// the entry's k) is set, else b; every lane (a trace runs whole warps).
func (g *gen) traceSelp() {
	g.beginTraceBody("selp", "simdTraceSelp")
	w := &g.s
	w.f("MOVQ %d(R8), R10", ctxPreds)
	loadPred(w, 32, "R9")
	w.f("XORQ AX, R9") // AX: the entry's k
	w.f("VMOVQ R9, X13")
	w.f("VPBROADCASTQ X13, Y13")
	for j := 0; j < 8; j++ {
		ya, yt := chunkRegs(j)
		w.f("VMOVDQU %d(DX), %s", 32*j, ya)
		w.f("VPSLLVQ lanesign<>+%d(SB), Y13, %s", 32*j, yt)
		w.f("VBLENDVPD %s, %d(SI), %s, %s", yt, 32*j, ya, ya)
		w.f("VMOVDQU %s, %d(DI)", ya, 32*j)
	}
	w.f("VZEROUPPER")
	w.f("RET")
}

// tracePack writes the bodies of mov's two-element pack and unpack in
// traces (alu.go's pack and unpack), for elements of 32 bits (a .b64) and
// 16 (a .b32): key pack:W, d = a's low W bits | b's low W bits << W; key
// unpack:W, d = a's low W bits and b = the W bits above them, zero-extended
// (chunk by chunk, each read before either is written: a destination may
// be the source; d's row, then b's, as the elements go); unpack:Wlo and
// unpack:Whi, one of the two (the other element a sink), to d.
func (g *gen) tracePack() {
	for _, wd := range []int{32, 16} {
		maskw := func(w *writer) {
			if wd == 32 {
				w.f("VPBROADCASTQ lowmask<>(SB), Y15")
			} else {
				w.f("VMOVDQU low16v<>(SB), Y15")
			}
		}
		g.beginTraceBody(fmt.Sprintf("pack:%d", wd), fmt.Sprintf("simdTracePack%d", wd))
		w := &g.s
		maskw(w)
		for j := 0; j < 8; j++ {
			w.f("VPAND %d(SI), Y15, Y0", 32*j)
			w.f("VPAND %d(DX), Y15, Y1", 32*j)
			w.f("VPSLLQ $%d, Y1, Y1", wd)
			w.f("VPOR Y1, Y0, Y0")
			w.f("VMOVDQU Y0, %d(DI)", 32*j)
		}
		w.f("VZEROUPPER")
		w.f("RET")
		for _, part := range []string{"", "lo", "hi"} {
			g.beginTraceBody(fmt.Sprintf("unpack:%d%s", wd, part), fmt.Sprintf("simdTraceUnpack%d%s", wd, strings.ToUpper(part)))
			maskw(w)
			for j := 0; j < 8; j++ {
				w.f("VMOVDQU %d(SI), Y0", 32*j)
				if part != "hi" {
					w.f("VPAND Y15, Y0, Y1")
				}
				if part != "lo" {
					w.f("VPSRLQ $%d, Y0, Y2", wd)
					w.f("VPAND Y15, Y2, Y2")
				}
				switch part {
				case "":
					w.f("VMOVDQU Y1, %d(DI)", 32*j)
					w.f("VMOVDQU Y2, %d(DX)", 32*j)
				case "lo":
					w.f("VMOVDQU Y1, %d(DI)", 32*j)
				default:
					w.f("VMOVDQU Y2, %d(DI)", 32*j)
				}
			}
			w.f("VZEROUPPER")
			w.f("RET")
		}
	}
}

// tracePredLogic writes the bodies of and, or and xor on predicates in
// traces (key predlogic:OP; not is an and of a negated operand with
// itself): the predicates at byte offsets a and b (the entry's fields)
// from the frame's predicates, each XORed with its half of the entry's k
// (the low half for a, the high one for b: all ones for a negated
// operand), combined and stored at offset d.
func (g *gen) tracePredLogic() {
	for _, op := range []string{"and", "or", "xor"} {
		g.beginTraceBody("predlogic:"+op, "simdTracePred"+strings.ToUpper(op[:1])+op[1:])
		w := &g.s
		w.f("MOVQ %d(R8), R10", ctxPreds)
		loadPred(w, 16, "R9")
		w.f("XORL AX, R9") // AX: the entry's k
		loadPred(w, 24, "DX")
		w.f("SHRQ $32, AX")
		w.f("XORL AX, DX")
		w.f("%sL DX, R9", strings.ToUpper(op))
		w.f("MOVQ 8(R13), DX")
		w.f("MOVL R9, (R10)(DX*1)")
		w.f("RET")
	}
}

// traceShfl writes the body of a whole-warp shfl.sync with immediate b
// and c in traces (key shfl): the entry's k points at its table
// (internal/exec's shflTable): per 4-lane chunk of the destination row,
// the byte offset in the source row of 4 consecutive source lanes (one
// unaligned 256-bit move), or -1 and the chunk's 4 source lanes one by
// one; the result is each source's low 32 bits. With a predicate
// destination (the table says), the lanes with a valid source go to the
// predicate at the entry's byte offset c.
func (g *gen) traceShfl() {
	g.traceBody("shfl", func(w *writer) {
		w.f("MOVQ AX, R9")
		prologue(w)
		for j := 0; j < 8; j++ {
			w.f("MOVLQSX %d(R9), AX", 4*j)
			w.f("TESTQ AX, AX")
			w.f("JS s%d_lanes", j)
			w.f("VMOVDQU (SI)(AX*1), Y0")
			zext32(w, "Y0")
			w.f("VMOVDQU Y0, %d(DI)", 32*j)
			w.f("JMP s%d_done", j)
			fmt.Fprintf(&w.b, "s%d_lanes:\n", j)
			for q := 0; q < 4; q++ {
				w.f("MOVBQZX %d(R9), AX", 32+4*j+q)
				w.f("MOVL (SI)(AX*8), CX")
				w.f("MOVQ CX, %d(DI)", 8*(4*j+q))
			}
			fmt.Fprintf(&w.b, "s%d_done:\n", j)
		}
		w.f("MOVL 68(R9), CX")
		w.f("TESTL CX, CX")
		w.f("JZ s_nopred")
		w.f("MOVL 64(R9), AX")
		w.f("MOVQ %d(R8), R10", ctxPreds)
		w.f("MOVQ 32(R13), CX")
		w.f("MOVL AX, (R10)(CX*1)")
		g.s.b.WriteString("s_nopred:\n")
	})
}

// traceDispatch writes a trace's loop over its entries from R13 (R11 of
// them, R12 the rows): each entry's body is called with its rows' addresses
// and immediate, then the next. Four copies of the call, the entries in
// turn, each calling from its own site: with one indirect CALL seeing a
// loop's entries round after round, simdLoopTrace ran 1.6x slower
// (BenchmarkLoopTraceDispatch), as if its targets were mispredicted.
func traceDispatch(g *gen) {
	w := &g.s
	for u := 0; u < 4; u++ {
		fmt.Fprintf(&g.s.b, "next%d:\n", u)
		w.f("MOVQ 0(R13), R10")
		w.f("MOVQ 8(R13), DI")
		w.f("ADDQ R12, DI")
		w.f("MOVQ 16(R13), SI")
		w.f("ADDQ R12, SI")
		w.f("MOVQ 24(R13), DX")
		w.f("ADDQ R12, DX")
		w.f("MOVQ 32(R13), CX")
		w.f("ADDQ R12, CX")
		w.f("MOVQ 40(R13), AX")
		w.f("CALL R10")
		w.f("ADDQ $48, R13")
		w.f("DECQ R11")
		w.f("JZ done")
	}
	w.f("JMP next0")
	g.s.b.WriteString("done:\n")
}

// loopTrace writes simdLoopTrace, which runs a loop's trace (internal/
// exec's loop_trace.go): entry i is op start+i's, so a branch moves R13 to
// its target's entry, and a stop entry follows the region's last op. It
// starts at entry start and runs budget entries at most, as simdTrace's
// loop does (a body that stops moves the entries left, itself included,
// to BX and sets R11 to 1); it returns the index of the entry R13 points
// at after the last one ran and BX. It also writes the branch bodies:
//
//   - loopBra (a guarded branch): the lanes of the context's mask whose
//     predicate (byte offset d, XORed with k) is set take it; none: the
//     next entry (counted in the context's notTaken); all, to a target in
//     the region (a: its entry's byte offset from the first): R13 moves
//     there; otherwise (the lanes part, or leave the region: a = -1) the
//     body stops before the branch;
//   - loopJmp: an unguarded branch to a target in the region;
//   - loopStop: stops before its entry (an op the trace leaves to the
//     caller, or the end of the region).
//
// A branch to an earlier entry (b = 1) counts in the context's backs and
// takes one of its backsLeft: at the last one it jumps and stops after
// (stopAfter set), none left, it stops before.
func (g *gen) loopTrace() {
	w := &g.s
	g.decls = append(g.decls, decl{"simdLoopTrace", "(rows unsafe.Pointer, base *traceOp, start, budget int, ctx *traceCtx) (at, left int)"})
	g.text("simdLoopTrace", 56)
	w.f("MOVQ rows+0(FP), R12")
	w.f("MOVQ base+8(FP), R13")
	w.f("MOVQ start+16(FP), AX")
	w.f("IMULQ $48, AX")
	w.f("ADDQ AX, R13")
	w.f("MOVQ budget+24(FP), R11")
	w.f("MOVQ ctx+32(FP), R8")
	w.f("XORL BX, BX")
	traceDispatch(g)
	w.f("MOVQ R13, AX")
	w.f("SUBQ base+8(FP), AX")
	w.f("XORL DX, DX")
	w.f("MOVQ $48, CX")
	w.f("DIVQ CX")
	w.f("MOVQ AX, at+40(FP)")
	w.f("MOVQ BX, left+48(FP)")
	w.f("RET")

	jump := func(w *writer) {
		w.f("MOVQ 16(R13), AX")
		w.f("CMPQ AX, $-1")
		w.f("JEQ stop")
		w.f("CMPQ 24(R13), $0")
		w.f("JEQ jump")
		w.f("CMPQ %d(R8), $0", ctxLoop+32)
		w.f("JEQ stop")
		w.f("INCQ %d(R8)", ctxLoop+24)
		w.f("DECQ %d(R8)", ctxLoop+32)
		w.f("JNZ jump")
		// the last backward branch allowed: jump, then end the loop
		w.f("MOVQ $1, %d(R8)", ctxLoop+40)
		w.f("LEAQ -1(R11), BX")
		w.f("MOVQ $1, R11")
		g.s.b.WriteString("jump:\n")
		w.f("ADDQ %d(R8), AX", ctxLoop)
		w.f("LEAQ -48(AX), R13")
		w.f("RET")
		g.s.b.WriteString("stop:\n")
		w.f("MOVQ R11, BX")
		w.f("MOVQ $1, R11")
		w.f("RET")
	}
	g.beginTraceBody("loopBra", "simdTraceLoopBra")
	w.f("MOVQ %d(R8), R10", ctxPreds)
	loadPred(w, 8, "R9")
	w.f("XORL 40(R13), R9")
	w.f("MOVL %d(R8), R10", ctxLoop+8)
	w.f("ANDL R10, R9")
	w.f("JZ nottaken")
	w.f("CMPL R9, R10")
	w.f("JNE stop")
	jump(w)
	g.s.b.WriteString("nottaken:\n")
	w.f("INCQ %d(R8)", ctxLoop+16)
	w.f("RET")

	g.beginTraceBody("loopJmp", "simdTraceLoopJmp")
	jump(w)

	g.beginTraceBody("loopStop", "simdTraceLoopStop")
	w.f("MOVQ R11, BX")
	w.f("MOVQ $1, R11")
	w.f("RET")
}

// loadPred loads into reg the predicate at the byte offset the entry's
// field at off holds, from the frame's predicates (R10).
func loadPred(w *writer, off int, reg string) {
	w.f("MOVQ %d(R13), %s", off, reg)
	w.f("MOVL (R10)(%s*1), %s", reg, reg)
}

// ctxPreds is traceCtx.preds' offset: after 64 windows of 40 bytes.
const ctxPreds = 64 * 40

// ctxLoop is traceCtx.loop's offset (a loopState: base, mask, notTaken,
// backs, backsLeft, stopAfter; 8 bytes each), after the predicates.
const ctxLoop = ctxPreds + 8

// sharedBase is internal/mem's SharedBase: generic addresses below it are
// global ones.
const sharedBase = 0x0000_7000_0000_0000

// traceBody writes a trace-only body (traceMemory's conventions) named
// simdTrace + key: code, then a successful return, and the refusal at
// fail.
func (g *gen) traceBody(key string, code func(w *writer)) {
	g.beginTraceBody(key, "simdTrace"+strings.ToUpper(key[:1])+key[1:])
	w := &g.s
	code(w)
	w.f("VZEROUPPER")
	w.f("RET")
	g.s.b.WriteString("fail:\n")
	w.f("MOVQ R11, BX")
	w.f("MOVQ $1, R11")
	w.f("VZEROUPPER")
	w.f("RET")
}

// beginTraceBody starts the trace-only body name (NAME_b), which traces
// find by key (simdMemBodies).
func (g *gen) beginTraceBody(key, name string) {
	g.memBodies[key] = len(g.bodies)
	g.bodies = append(g.bodies, name)
	g.decls = append(g.decls, decl{name + "_b", "()"})
	fmt.Fprintf(&g.s.b, "\nTEXT ·%s_b(SB), NOSPLIT|NOFRAME, $0-0\n", name)
}

// segmentBodies writes the trace bodies of a streaming segment's loads and
// stores (internal/exec's batch_segment.go): the warp's 32 consecutive
// elements at the entry's k, an address the segment's planning checked
// for the whole batch and sets before each warp, into or from row d
// (segLdZ32, segLdS32: 4-byte elements widened; segLd64; segSt32 stores
// each value's low 4 bytes; segSt64; the NT stores, to a 32-byte aligned
// k, are non-temporal, and the segment fences once after its last warp).
// They do not check or refuse anything.
func (g *gen) segmentBodies() {
	for _, m := range []struct {
		key      string
		size     int
		load, nt bool
		widen    string
	}{{"segLdZ8", 1, true, false, "VPMOVZXBQ"}, {"segLdS8", 1, true, false, "VPMOVSXBQ"},
		{"segLdZ16", 2, true, false, "VPMOVZXWQ"}, {"segLdS16", 2, true, false, "VPMOVSXWQ"},
		{"segLdZ32", 4, true, false, "VPMOVZXDQ"}, {"segLdS32", 4, true, false, "VPMOVSXDQ"}, {"segLd64", 8, true, false, ""},
		{"segSt8", 1, false, false, ""}, {"segSt16", 2, false, false, ""},
		{"segSt32", 4, false, false, ""}, {"segSt64", 8, false, false, ""},
		{"segStNT32", 4, false, true, ""}, {"segStNT64", 8, false, true, ""}} {
		g.beginTraceBody(m.key, "simdTrace"+strings.ToUpper(m.key[:1])+m.key[1:])
		w := &g.s
		switch {
		case m.nt && m.size == 4: // two rows' halves narrowed to one register
			for j := 0; j < 4; j++ {
				w.f("VMOVDQU %d(DI), Y0", 64*j)
				w.f("VMOVDQU %d(DI), Y1", 64*j+32)
				w.f("VSHUFPS $0x88, Y1, Y0, Y0")
				w.f("VPERMQ $0xD8, Y0, Y0")
				w.f("VMOVNTDQ Y0, %d(AX)", 32*j)
			}
		case m.nt:
			for j := 0; j < 8; j++ {
				w.f("VMOVDQU %d(DI), Y%d", 32*j, j)
				w.f("VMOVNTDQ Y%d, %d(AX)", j, 32*j)
			}
		case !m.load && m.size < 4:
			narrowStore(w, m.size)
		default:
			moveConsecutive(w, m.size, m.load, m.widen, "DI", "DI")
		}
		w.f("VZEROUPPER")
		w.f("RET")
	}
	// a warp of two 16-lane rows (16-wide 2-D blocks): lanes 0-15 at k,
	// lanes 16-31 at k plus the entry's c (which the dispatch gave the
	// rows' base, R12, as it gives every row operand)
	for _, m := range []struct {
		key   string
		size  int
		load  bool
		widen string
	}{{"segLdZ32H", 4, true, "VPMOVZXDQ"}, {"segLdS32H", 4, true, "VPMOVSXDQ"}, {"segLd64H", 8, true, ""},
		{"segSt32H", 4, false, ""}, {"segSt64H", 8, false, ""}} {
		g.beginTraceBody(m.key, "simdTrace"+strings.ToUpper(m.key[:1])+m.key[1:])
		w := &g.s
		w.f("MOVQ CX, R9")
		w.f("SUBQ R12, R9")
		w.f("ADDQ AX, R9")
		moveHalves(w, m.size, m.load, m.widen)
		w.f("VZEROUPPER")
		w.f("RET")
	}
	// a warp's elements a constant step apart (any step: pairs, an array
	// of structs' fields, a reversed array, a transposed matrix's
	// column): lane i's at k + i*step, the step in the entry's a (which
	// the dispatch gave R12 too), one element at a time
	for _, m := range []struct {
		key, move string
		size      int
		load      bool
	}{{"segLdZ8X", "MOVBQZX", 1, true}, {"segLdS8X", "MOVBQSX", 1, true}, {"segLdZ16X", "MOVWQZX", 2, true},
		{"segLdS16X", "MOVWQSX", 2, true}, {"segLdZ32X", "MOVL", 4, true}, {"segLdS32X", "MOVLQSX", 4, true},
		{"segLd64X", "MOVQ", 8, true}, {"segSt8X", "MOVB", 1, false}, {"segSt16X", "MOVW", 2, false},
		{"segSt32X", "MOVL", 4, false}, {"segSt64X", "MOVQ", 8, false}} {
		g.beginTraceBody(m.key, "simdTrace"+strings.ToUpper(m.key[:1])+m.key[1:])
		w := &g.s
		w.f("MOVQ SI, R9")
		w.f("SUBQ R12, R9")
		for i := 0; i < 32; i++ {
			if m.load {
				w.f("%s (AX), R8", m.move)
				w.f("MOVQ R8, %d(DI)", 8*i)
			} else {
				w.f("MOVQ %d(DI), R8", 8*i)
				w.f("%s R8, (AX)", m.move)
			}
			if i < 31 {
				w.f("ADDQ R9, AX")
			}
		}
		w.f("RET")
	}
	// their non-temporal stores (both halves 32-byte aligned)
	for _, size := range []int{4, 8} {
		key := fmt.Sprintf("segStNT%dH", 8*size)
		g.beginTraceBody(key, "simdTrace"+strings.ToUpper(key[:1])+key[1:])
		w := &g.s
		w.f("MOVQ CX, R9")
		w.f("SUBQ R12, R9")
		w.f("ADDQ AX, R9")
		n := 32 / size // 32-byte stores of the 16 lanes' elements: 2 or 4 a half
		for j := 0; j < 2*(16/n); j++ {
			base, h := "AX", j
			if j >= 16/n {
				base, h = "R9", j-16/n
			}
			if size == 4 { // two rows' halves narrowed to one register
				w.f("VMOVDQU %d(DI), Y0", 64*j)
				w.f("VMOVDQU %d(DI), Y1", 64*j+32)
				w.f("VSHUFPS $0x88, Y1, Y0, Y0")
				w.f("VPERMQ $0xD8, Y0, Y0")
			} else {
				w.f("VMOVDQU %d(DI), Y0", 32*j)
			}
			w.f("VMOVNTDQ Y0, %d(%s)", 32*h, base)
		}
		w.f("VZEROUPPER")
		w.f("RET")
	}
	// a float2's: lane i's 8 bytes at k+8i, element 0 in row d (DI),
	// element 1 in row a (SI), zero-extended: four lanes' 64-bit slots at
	// a time, their low and high halves
	g.vectorSegmentBodies("segLdV2Z32", "segStV2x32", func(w *writer, load bool) {
		if load {
			w.f("VPCMPEQD Y15, Y15, Y15")
			w.f("VPSRLQ $32, Y15, Y15") // the low halves
		}
		for q := 0; q < 8; q++ {
			if load {
				w.f("VMOVDQU %d(AX), Y0", 32*q)
				w.f("VPAND Y15, Y0, Y1")
				w.f("VMOVDQU Y1, %d(DI)", 32*q)
				w.f("VPSRLQ $32, Y0, Y2")
				w.f("VMOVDQU Y2, %d(SI)", 32*q)
			} else {
				w.f("VMOVDQU %d(DI), Y0", 32*q)
				w.f("VMOVDQU %d(SI), Y1", 32*q)
				w.f("VPSLLQ $32, Y1, Y1")
				w.f("VPBLENDD $0xAA, Y1, Y0, Y0") // (the odd 4-byte halves from Y1)
				w.f("VMOVDQU Y0, %d(AX)", 32*q)
			}
		}
	})
	// a double2's (or any pair of 8-byte elements): lane i's 16 bytes at
	// k+16i, element 0 in row d (DI), element 1 in row a (SI): four lanes'
	// pairs (two registers) unpacked and put in lane order
	g.vectorSegmentBodies("segLdV2x64", "segStV2x64", func(w *writer, load bool) {
		for q := 0; q < 8; q++ {
			if load {
				w.f("VMOVDQU %d(AX), Y0", 64*q)    // e0 e1 of lanes 4q, 4q+1
				w.f("VMOVDQU %d(AX), Y1", 64*q+32) // of lanes 4q+2, 4q+3
				w.f("VPUNPCKLQDQ Y1, Y0, Y2")      // element 0: lanes 0 2 1 3
				w.f("VPUNPCKHQDQ Y1, Y0, Y3")      // element 1
				w.f("VPERMQ $0xD8, Y2, Y2")
				w.f("VPERMQ $0xD8, Y3, Y3")
				w.f("VMOVDQU Y2, %d(DI)", 32*q)
				w.f("VMOVDQU Y3, %d(SI)", 32*q)
			} else {
				w.f("VMOVDQU %d(DI), Y2", 32*q)
				w.f("VMOVDQU %d(SI), Y3", 32*q)
				w.f("VPERMQ $0xD8, Y2, Y2") // lanes 0 2 1 3
				w.f("VPERMQ $0xD8, Y3, Y3")
				w.f("VPUNPCKLQDQ Y3, Y2, Y0") // lanes 0, 1: e0 e1 e0 e1
				w.f("VPUNPCKHQDQ Y3, Y2, Y1") // lanes 2, 3
				w.f("VMOVDQU Y0, %d(AX)", 64*q)
				w.f("VMOVDQU Y1, %d(AX)", 64*q+32)
			}
		}
	})
	// a uchar4's: lane i's 4 bytes at k+4i, byte e in row d, a, b or c
	// (DI, SI, DX, CX; zero-extended): four lanes' dwords a register,
	// shifted and masked apart, or masked, shifted and or-ed together
	// and narrowed to dwords
	g.vectorSegmentBodies("segLdV4Z8", "segStV4x8", func(w *writer, load bool) {
		w.f("VPCMPEQD Y15, Y15, Y15")
		w.f("VPSRLQ $56, Y15, Y15") // 0xff in each 8-byte slot
		for q := 0; q < 8; q++ {
			if load {
				w.f("VPMOVZXDQ %d(AX), Y4", 16*q)
				for e, r := range []string{"DI", "SI", "DX", "CX"} {
					y := fmt.Sprintf("Y%d", e)
					if e == 0 {
						w.f("VPAND Y15, Y4, %s", y)
					} else {
						w.f("VPSRLQ $%d, Y4, %s", 8*e, y)
						w.f("VPAND Y15, %s, %s", y, y)
					}
					w.f("VMOVDQU %s, %d(%s)", y, 32*q, r)
				}
				continue
			}
			for e, r := range []string{"DI", "SI", "DX", "CX"} {
				y := fmt.Sprintf("Y%d", e)
				w.f("VPAND %d(%s), Y15, %s", 32*q, r, y)
				if e > 0 {
					w.f("VPSLLQ $%d, %s, %s", 8*e, y, y)
					w.f("VPOR %s, Y0, Y0", y)
				}
			}
			w.f("VPERMILPS $0x88, Y0, Y0") // the low halves of the four slots
			w.f("VPERMQ $0x08, Y0, Y0")
			w.f("VMOVDQU X0, %d(AX)", 16*q)
		}
	})
	// a float4's: lane i's 16 bytes at k+16i, element e in row d, a, b or
	// c (DI, SI, DX, CX; zero-extended), four lanes at a time through a
	// 4x4 transpose of 64-bit slots
	rows := []string{"DI", "SI", "DX", "CX"}
	g.vectorSegmentBodies("segLdV4Z32", "segStV4x32", func(w *writer, load bool) {
		for q := 0; q < 8; q++ {
			for e, r := range rows {
				if load {
					w.f("VPMOVZXDQ %d(AX), Y%d", 64*q+16*e, e)
				} else {
					w.f("VMOVDQU %d(%s), Y%d", 32*q, r, e)
				}
			}
			transpose4(w)
			for e, r := range rows {
				if load {
					w.f("VMOVDQU Y%d, %d(%s)", e, 32*q, r)
				} else { // the low halves of the four slots
					w.f("VPERMILPS $0x88, Y%d, Y%d", e, e)
					w.f("VPERMQ $0x08, Y%d, Y%d", e, e)
					w.f("VMOVDQU X%d, %d(AX)", e, 64*q+16*e)
				}
			}
		}
	})
}

// vectorSegmentBodies writes a vector access's two segment bodies, the
// load (key ld) and the store (key st), their moves written by move.
func (g *gen) vectorSegmentBodies(ld, st string, move func(w *writer, load bool)) {
	for _, load := range []bool{true, false} {
		key := st
		if load {
			key = ld
		}
		g.beginTraceBody(key, "simdTrace"+strings.ToUpper(key[:1])+key[1:])
		move(&g.s, load)
		g.s.f("VZEROUPPER")
		g.s.f("RET")
	}
}

// narrowStore writes a segment's store of row DI's 32 values' low size
// bytes (1 or 2) to the consecutive elements at AX: the values narrowed to
// 4 bytes (the low halves of two registers' slots), masked to size bytes
// and packed, which cannot saturate then, twice for bytes; VPERMQ puts
// the packs' 128-bit halves back in lane order.
func narrowStore(w *writer, size int) {
	w.f("VPCMPEQD Y15, Y15, Y15")
	w.f("VPSRLD $16, Y15, Y15")        // 0xffff in each 4-byte element
	words := func(row int, y string) { // lanes row*16 .. +15 as words in y
		for h := 0; h < 2; h++ {
			a, b := fmt.Sprintf("Y%d", 2*h), fmt.Sprintf("Y%d", 2*h+1)
			w.f("VMOVDQU %d(DI), %s", 128*row+64*h, a)
			w.f("VMOVDQU %d(DI), %s", 128*row+64*h+32, b)
			w.f("VSHUFPS $0x88, %s, %s, %s", b, a, a)
			w.f("VPERMQ $0xD8, %s, %s", a, a)
			w.f("VPAND Y15, %s, %s", a, a)
		}
		w.f("VPACKUSDW Y2, Y0, %s", y)
		w.f("VPERMQ $0xD8, %s, %s", y, y)
	}
	if size == 2 {
		words(0, "Y4")
		w.f("VMOVDQU Y4, 0(AX)")
		words(1, "Y4")
		w.f("VMOVDQU Y4, 32(AX)")
		return
	}
	words(0, "Y4")
	words(1, "Y5")
	w.f("VPCMPEQD Y15, Y15, Y15")
	w.f("VPSRLW $8, Y15, Y15") // 0x00ff in each 2-byte element
	w.f("VPAND Y15, Y4, Y4")
	w.f("VPAND Y15, Y5, Y5")
	w.f("VPACKUSWB Y5, Y4, Y4")
	w.f("VPERMQ $0xD8, Y4, Y4")
	w.f("VMOVDQU Y4, 0(AX)")
}

// transpose4 transposes the 4x4 64-bit slots of Y0-Y3 (Y4-Y7 scratch): Y0
// then holds the first slots of Y0-Y3, Y1 the second, and so on.
func transpose4(w *writer) {
	w.f("VPUNPCKLQDQ Y1, Y0, Y4")
	w.f("VPUNPCKHQDQ Y1, Y0, Y5")
	w.f("VPUNPCKLQDQ Y3, Y2, Y6")
	w.f("VPUNPCKHQDQ Y3, Y2, Y7")
	w.f("VPERM2I128 $0x20, Y6, Y4, Y0")
	w.f("VPERM2I128 $0x31, Y6, Y4, Y2")
	w.f("VPERM2I128 $0x20, Y7, Y5, Y1")
	w.f("VPERM2I128 $0x31, Y7, Y5, Y3")
}

// traceWindowAt starts a trace body on the window its entry names (CX,
// from R8 and the entry's c): R10 its length, refused (fail) where it is
// shorter than size bytes (an empty window).
func traceWindowAt(w *writer, size int) {
	w.f("MOVQ 32(R13), CX")
	w.f("ADDQ R8, CX") // CX: the window
	w.f("MOVQ 8(CX), R10")
	w.f("CMPQ R10, $%d", size)
	w.f("JCS fail")
}

// traceOffsetBounds follows traceWindowAt for an access of size bytes a
// lane at the entry's address row plus AX: AX becomes adj (address + adj =
// offset in the window), R9 the data, and checkOffsets' operands are set
// (Y15 adj, Y13 the bias, Y14 the highest offset, biased).
func traceOffsetBounds(w *writer, size int) {
	w.f("SUBQ $%d, R10", size) // the highest offset of an element
	w.f("SUBQ 16(CX), AX")     // adj: address + adj = offset
	w.f("MOVQ 0(CX), R9")      // the data
	w.f("VMOVQ AX, X15")
	w.f("VPBROADCASTQ X15, Y15")
	w.f("VPBROADCASTQ bias64<>(SB), Y13")
	w.f("VMOVQ R10, X14")
	w.f("VPBROADCASTQ X14, Y14")
	w.f("VPXOR Y13, Y14, Y14")
}

// lanesTest writes the test of every lane of the row at SI: setup, then
// test(y, offset) leaving each chunk's lanes all ones where they pass (in
// y, one of Y0-Y3), ANDed in Y9; mask gets the bytes' sign bits (all ones:
// every lane passed).
func lanesTest(w *writer, mask string, setup func(w *writer), test func(w *writer, y string, off int)) {
	setup(w)
	w.f("VPCMPEQQ Y9, Y9, Y9")
	for j := 0; j < 8; j++ {
		y := fmt.Sprintf("Y%d", j%4)
		test(w, y, 32*j)
		w.f("VPAND %s, Y9, Y9", y)
	}
	w.f("VPMOVMSKB Y9, %s", mask)
}

// traceAccess writes one memory body (traceMemory). Entry: DI = the
// destination row (ld), DX = the source row (st), SI = the address row,
// AX = the constant part of the address, R13 = the entry, R8 = the
// windows, R11 = the entries left. It uses AX, BX (zero again on return
// unless refusing), CX, DX, R9, R10 and the vector registers.
func (g *gen) traceAccess(size int, load bool, widen string, prefetch bool) {
	w := &g.s
	traceWindowAt(w, size)
	traceOffsetBounds(w, size)
	// the lanes' offsets in Y0-Y7, checked
	checkOffsets(w, size)
	if prefetch && load {
		g.stridePrefetch(size)
	}
	consecutiveTest(w, size, "R9", load)
	w.f("CMPL BX, $0xffffffff")
	switch {
	case load:
		w.f("JEQ consecutive")
		// one element for the whole warp (a loop over an array that every
		// thread reads alike): read once, written to every lane
		w.f("VPMOVMSKB Y11, BX")
		w.f("CMPL BX, $0xffffffff")
		w.f("JNE scattered")
		broadcast := map[int]string{1: "VPBROADCASTB", 2: "VPBROADCASTW", 4: "VPBROADCASTD"}[size]
		if size < 8 {
			w.f("%s (AX), X9", broadcast)
			w.f("%s X9, Y9", widen)
		} else {
			w.f("VPBROADCASTQ (AX), Y9")
		}
		for j := 0; j < 8; j++ {
			w.f("VMOVDQU Y9, %d(DI)", 32*j)
		}
		w.f("XORL BX, BX")
		w.f("VZEROUPPER")
		w.f("RET")
		g.s.b.WriteString("consecutive:\n")
	case prefetch:
		// a global row that is not consecutive goes to the Go loop, which
		// measured faster on a strided row (transpose: 54 against 62 ms)
		w.f("JNE fail")
	default:
		w.f("JNE scattered")
	}
	moveConsecutive(w, size, load, widen, "DI", "DX")
	w.f("XORL BX, BX")
	if load || !prefetch {
		w.f("VZEROUPPER")
		w.f("RET")
		g.s.b.WriteString("scattered:\n")
	}
	if load {
		// DX (the unused b row) takes the data pointer
		w.f("MOVQ R9, DX")
		g.scattered(size, widen, "DX", [4]string{"AX", "BX", "CX", "R10"})
		w.f("XORL BX, BX")
	} else if !prefetch {
		// lane by lane in lane order: of lanes writing one element, the
		// highest lane's value stays, as in the Go loop
		move := map[int]string{4: "MOVL", 8: "MOVQ"}[size]
		for j := 0; j < 8; j++ {
			x, y := fmt.Sprintf("X%d", j), fmt.Sprintf("Y%d", j)
			w.f("VEXTRACTI128 $1, %s, X9", y)
			for l, src := range []string{x, x, "X9", "X9"} {
				if l%2 == 0 {
					w.f("VMOVQ %s, CX", src)
				} else {
					w.f("VPEXTRQ $1, %s, CX", src)
				}
				w.f("%s %d(DX), BX", move, 8*(4*j+l))
				w.f("%s BX, (R9)(CX*1)", move)
			}
		}
		w.f("XORL BX, BX")
	}
}

// stridePrefetch writes a global load body's prefetch (lane offsets in
// Y0-Y7, the window in CX, its data in R9): step = lane 0's offset less
// the last one; a repeated step of at least 256 bytes either way, a row of
// at most 512 bytes, and the row two steps ahead inside the window: its
// lines are prefetched (stride.go's rule, on offsets). It uses AX, BX, R10
// and X8.
func (g *gen) stridePrefetch(size int) {
	w := &g.s
	w.f("VMOVQ X0, AX")
	w.f("MOVQ AX, R10")
	w.f("SUBQ 24(CX), R10")
	w.f("MOVQ AX, 24(CX)")
	w.f("CMPQ R10, 32(CX)")
	w.f("JEQ pf_same")
	w.f("MOVQ R10, 32(CX)")
	w.f("JMP pf_done")
	g.s.b.WriteString("pf_same:\n")
	w.f("LEAQ 255(R10), BX")
	w.f("CMPQ BX, $511")
	w.f("JCS pf_done")
	w.f("VEXTRACTI128 $1, Y7, X8")
	w.f("VPEXTRQ $1, X8, BX")
	w.f("SUBQ AX, BX")
	w.f("ADDQ $%d, BX", size) // the row's span
	w.f("CMPQ BX, $512")
	w.f("JHI pf_done")
	w.f("LEAQ (AX)(R10*2), AX") // the row two steps ahead
	w.f("MOVQ 8(CX), R10")
	w.f("CMPQ AX, R10")
	w.f("JCC pf_done")
	w.f("SUBQ AX, R10")
	w.f("CMPQ BX, R10")
	w.f("JHI pf_done")
	w.f("ADDQ R9, AX")
	w.f("ADDQ AX, BX")
	w.f("ANDQ $-64, AX")
	g.s.b.WriteString("pf_loop:\n")
	w.f("PREFETCHT0 (AX)")
	w.f("ADDQ $64, AX")
	w.f("CMPQ AX, BX")
	w.f("JCS pf_loop")
	g.s.b.WriteString("pf_done:\n")
}

func (g *gen) text(name string, frame int) {
	fmt.Fprintf(&g.s.b, "\nTEXT ·%s(SB), NOSPLIT, $0-%d\n", name, frame)
}

func (g *gen) binary(o intOp) { g.binaryRC(o, "") }

// binaryRC writes o's four loops under the MXCSR word rc ("": Go's).
func (g *gen) binaryRC(o intOp, rc string) {
	var names [4]string
	for form := 0; form < 4; form++ {
		k, masked := form%2 == 1, form >= 2
		name := "simd" + strings.ToUpper(o.fn[:1]) + o.fn[1:]
		sig := "(d, a, b *lanes"
		frame := 24
		if k {
			name += "K"
			sig = "(d, a *lanes, k uint64"
		}
		if masked {
			name += "M"
			sig += ", mask uint32"
			frame += 4
		}
		sig += ")"
		names[form] = name
		g.decls = append(g.decls, decl{name, sig})
		g.text(name, frame)
		w := &g.s
		w.f("MOVQ d+0(FP), DI")
		w.f("MOVQ a+8(FP), SI")
		if k {
			w.f("MOVQ k+16(FP), AX")
		} else {
			w.f("MOVQ b+16(FP), DX")
		}
		if !masked { // the body, which traces call too (simdTrace)
			g.body(name)
		}
		if k {
			w.f(o.kprep)
		}
		prologue(w)
		if masked {
			maskPrep(w, 24)
		}
		setRounding(w, rc)
		for j := 0; j < 8; j++ {
			ya, yt := chunkRegs(j)
			w.f("VMOVDQU %d(SI), %s", 32*j, ya)
			mb := "Y13"
			if !k {
				mb = fmt.Sprintf("%d(DX)", 32*j)
			}
			o.body(w, ya, yt, fmt.Sprintf("Y%d", 8+j%4), mb, j)
			store(w, j, ya, yt, masked)
		}
		resetRounding(w, rc)
		w.f("VZEROUPPER")
		w.f("RET")
	}
	g.table[o.name] = names
}

// unary writes a d = op(a) loop.
func (g *gen) unary(name string, body func(w *writer, ya, yt string)) {
	w := g.unaryHead(name)
	prologue(w)
	for j := 0; j < 8; j++ {
		ya, yt := chunkRegs(j)
		w.f("VMOVDQU %d(SI), %s", 32*j, ya)
		body(w, ya, yt)
		store(w, j, ya, yt, false)
	}
	w.f("VZEROUPPER")
	w.f("RET")
}

// setRounding loads the MXCSR word rc ("" for none: Go's own stays).
func setRounding(w *writer, rc string) {
	if rc != "" {
		w.f("VLDMXCSR %s<>(SB)", rc)
	}
}

// resetRounding loads Go's MXCSR word back after a loop under rc.
func resetRounding(w *writer, rc string) {
	if rc != "" {
		w.f("VLDMXCSR mxcsrrn<>(SB)")
	}
}

// ternary writes an rrr loop: fma.rn.f32 and mad.lo on 32 bits.
func (g *gen) ternary(name string, body func(w *writer, ya, yb, yt string, j int)) {
	g.ternaryRC(name, "", body)
}

// keyedTernary writes a ternary loop under the MXCSR word rc that
// simdTernary finds by key (the generated simdKeyedTernary).
func (g *gen) keyedTernary(key, name, rc string, body func(w *writer, ya, yb, yt string, j int)) {
	g.keyedTer[key] = name
	g.ternaryRC(name, rc, body)
}

// chunkSet is the registers one chunk's body takes in
// unaryInterleaved: its value a, temporary t and scratch s, z and c (a
// body that needs fewer leaves z and c unused).
type chunkSet struct{ a, t, s, z, c string }

// interleave4 runs four chunks at a time on three registers each (a, t,
// s); interleave3 three on five (Y14 holds the canonical NaN, Y15 is
// free: these bodies have no use for lowmask).
var (
	interleave4 = []chunkSet{{"Y0", "Y4", "Y8", "", ""}, {"Y1", "Y5", "Y9", "", ""},
		{"Y2", "Y6", "Y10", "", ""}, {"Y3", "Y7", "Y11", "", ""}}
	interleave3 = []chunkSet{{"Y0", "Y3", "Y6", "Y9", "Y12"}, {"Y1", "Y4", "Y7", "Y10", "Y13"},
		{"Y2", "Y5", "Y8", "Y11", "Y15"}}
)

// unaryInterleaved writes a unary loop that runs len(regs) chunks at a
// time, their bodies' instructions interleaved one for one: independent
// chains in the out-of-order window where one long chain of f64
// multiply-adds (the approx functions' polynomials) would leave it
// waiting on latencies. body writes chunk j's code on its registers (and
// Y14, the canonical NaN) and may read the chunk's operand again at
// j*32(SI): each chunk stores its result, at its own offset, after its
// last read, so a destination that is also the operand is right.
func (g *gen) unaryInterleaved(name string, regs []chunkSet, body func(w *writer, r chunkSet, j int)) {
	w := g.unaryHead(name)
	w.f("VPBROADCASTD canonf32<>(SB), Y14")
	for j := 0; j < 8; j += len(regs) {
		var parts [][]string
		longest := 0
		for k, r := range regs[:min(len(regs), 8-j)] {
			var s writer
			s.f("VMOVDQU %d(SI), %s", 32*(j+k), r.a)
			body(&s, r, j+k)
			s.f("VMOVDQU %s, %d(DI)", r.a, 32*(j+k))
			lines := strings.SplitAfter(s.b.String(), "\n")
			parts, longest = append(parts, lines), max(longest, len(lines))
		}
		for i := range longest {
			for _, p := range parts {
				if i < len(p) {
					w.b.WriteString(p[i])
				}
			}
		}
	}
	w.f("VZEROUPPER")
	w.f("RET")
}

// unaryHead declares unary loop name, (d, a *lanes), and starts its body
// (the loops' code is the body, which traces call too), d in DI and a in
// SI.
func (g *gen) unaryHead(name string) *writer {
	g.decls = append(g.decls, decl{name, "(d, a *lanes)"})
	g.text(name, 16)
	w := &g.s
	w.f("MOVQ d+0(FP), DI")
	w.f("MOVQ a+8(FP), SI")
	g.body(name)
	return w
}

// keyedUnary writes a unary loop that simdUnary finds by key (the
// generated simdKeyedUnary).
func (g *gen) keyedUnary(key, name string, body func(w *writer, ya, yt string)) {
	g.keyedUn[key] = name
	g.unary(name, body)
}

// ternaryRC writes an rrr loop under the MXCSR word rc ("": none).
func (g *gen) ternaryRC(name, rc string, body func(w *writer, ya, yb, yt string, j int)) {
	g.ternarySetup(name, rc, nil, body)
}

// ternarySetup is ternaryRC with setup, when not nil, written after the
// prologue (in the body, which traces call too) to prepare what every
// chunk uses.
func (g *gen) ternarySetup(name, rc string, setup func(w *writer), body func(w *writer, ya, yb, yt string, j int)) {
	g.decls = append(g.decls, decl{name, "(d, a, b, c *lanes)"})
	g.text(name, 32)
	w := &g.s
	w.f("MOVQ d+0(FP), DI")
	w.f("MOVQ a+8(FP), SI")
	w.f("MOVQ b+16(FP), DX")
	w.f("MOVQ c+24(FP), CX")
	g.body(name)
	prologue(w)
	setRounding(w, rc)
	if setup != nil {
		setup(w)
	}
	for j := 0; j < 8; j++ {
		ya, yt := chunkRegs(j)
		yb := fmt.Sprintf("Y%d", 8+j%4)
		w.f("VMOVDQU %d(SI), %s", 32*j, ya)
		w.f("VMOVDQU %d(DX), %s", 32*j, yb)
		body(w, ya, yb, yt, j)
		store(w, j, ya, yt, false)
	}
	resetRounding(w, rc)
	w.f("VZEROUPPER")
	w.f("RET")
}

// compare writes a loop that returns the lanes (bit i for lane i) where the
// test holds. body leaves each lane's result in the sign bit of yt's
// 64-bit lanes.
func (g *gen) compare(name string, body func(w *writer, ya, yt string, off int)) {
	g.compares = append(g.compares, compareBody{name, body})
	g.decls = append(g.decls, decl{name, "(a, b *lanes) uint32"})
	g.text(name, 20)
	w := &g.s
	w.f("MOVQ a+0(FP), SI")
	w.f("MOVQ b+8(FP), DX")
	prologue(w)
	w.f("VPXOR Y11, Y11, Y11")
	w.f("XORQ BX, BX")
	compareMask(w, body, "BX")
	w.f("MOVL BX, ret+16(FP)")
	w.f("VZEROUPPER")
	w.f("RET")
}

// compareMask ORs into acc (zero) the lanes' bits of a comparison's
// results: body leaves all ones in yt for the true lanes of chunk j, whose
// bits are 4j to 4j+3. It uses AX.
func compareMask(w *writer, body func(w *writer, ya, yt string, off int), acc string) {
	for j := 0; j < 8; j++ {
		ya, yt := chunkRegs(j)
		body(w, ya, yt, 32*j)
		w.f("VMOVMSKPD %s, AX", yt)
		if j > 0 {
			w.f("SHLQ $%d, AX", 4*j)
		}
		w.f("ORQ AX, %s", acc)
	}
}

// memory writes the warp-wide ld/st loops for 4- and 8-byte elements
// (loadWarp, storeWarp): lane i's offset into the window is regs[i]+adj;
// every lane must be at most limit (the window's length less the size)
// and aligned, else they report false before touching anything. A warp of
// consecutive elements (offset i*size from lane 0's) is moved in one go;
// other loads go four lanes at a time (scatteredLoad); other stores report
// false, and the Go loop stores them.
func (g *gen) memory() {
	for _, m := range accessKinds {
		name := map[string]string{"ldZ8": "simdLoadZ8", "ldS8": "simdLoadS8", "ldZ16": "simdLoadZ16",
			"ldS16": "simdLoadS16", "ldZ32": "simdLoadZ32", "ldS32": "simdLoadS32", "ld64": "simdLoad64",
			"st32": "simdStore32", "st64": "simdStore64"}[m.key]
		g.decls = append(g.decls, decl{name, "(row, regs *lanes, data *byte, adj, limit uint64) bool"})
		g.text(name, 41)
		w := &g.s
		w.f("MOVQ row+0(FP), DI")
		w.f("MOVQ regs+8(FP), SI")
		w.f("MOVQ data+16(FP), DX")
		checkLanes(w, m.size)
		consecutiveTest(w, m.size, "DX", false)
		w.f("CMPL BX, $0xffffffff")
		if m.load {
			w.f("JNE scattered")
		} else {
			// stores: only a warp of consecutive elements; the Go loop
			// takes the others (groups of four lanes here measured slower
			// on a strided row: transpose about 5%)
			w.f("JNE fail")
		}
		moveConsecutive(w, m.size, m.load, m.widen, "DI", "DI")
		w.f("VZEROUPPER")
		w.f("MOVB $1, ret+40(FP)")
		w.f("RET")
		if m.load {
			g.s.b.WriteString("scattered:\n")
			g.scatteredLoad(m.size, m.widen)
			w.f("VZEROUPPER")
			w.f("MOVB $1, ret+40(FP)")
			w.f("RET")
		}
		g.s.b.WriteString("fail:\n")
		w.f("VZEROUPPER")
		w.f("MOVB $0, ret+40(FP)")
		w.f("RET")
	}
}

// checkLanes writes the bounds and alignment check of a warp-wide access
// of align bytes per lane (regs in SI, adj and limit in the frame): the
// lanes' offsets end in Y0-Y7, and any lane past limit or misaligned
// jumps to fail.
func checkLanes(w *writer, align int) {
	w.f("VPBROADCASTQ adj+24(FP), Y15")
	w.f("VPBROADCASTQ bias64<>(SB), Y13")
	w.f("VPBROADCASTQ limit+32(FP), Y14")
	w.f("VPXOR Y13, Y14, Y14")
	checkOffsets(w, align)
}

// checkOffsets is checkLanes once adj is in every lane of Y15, the bias
// (bias64) in Y13 and the limit, biased, in Y14; it uses AX.
func checkOffsets(w *writer, align int) {
	w.f("MOVQ $%d, AX", align-1)
	w.f("VMOVQ AX, X12")
	w.f("VPBROADCASTQ X12, Y12")
	w.f("VPXOR Y11, Y11, Y11")
	// Y11: any lane out of bounds or misaligned
	for j := 0; j < 8; j++ {
		y := fmt.Sprintf("Y%d", j)
		w.f("VPADDQ %d(SI), Y15, %s", 32*j, y)
		w.f("VPXOR Y13, %s, Y8", y)
		w.f("VPCMPGTQ Y14, Y8, Y8")
		w.f("VPAND Y12, %s, Y9", y)
		w.f("VPOR Y8, Y11, Y11")
		w.f("VPOR Y9, Y11, Y11")
	}
	w.f("VPTEST Y11, Y11")
	w.f("JNZ fail")
}

// accessKinds are the warp-wide ld/st the AVX2 routines move: the
// element size, load or store, and for narrower loads the extension to 64
// bits; key names them (memory() and traceMemory()).
var accessKinds = []struct {
	key   string
	size  int
	load  bool
	widen string
}{{"ldZ8", 1, true, "VPMOVZXBQ"}, {"ldS8", 1, true, "VPMOVSXBQ"},
	{"ldZ16", 2, true, "VPMOVZXWQ"}, {"ldS16", 2, true, "VPMOVSXWQ"},
	{"ldZ32", 4, true, "VPMOVZXDQ"}, {"ldS32", 4, true, "VPMOVSXDQ"}, {"ld64", 8, true, ""},
	{"st32", 4, false, ""}, {"st64", 8, false, ""}}

// consecutiveTest leaves in BX the byte mask of the lanes whose offset
// (Y0-Y7) is lane 0's plus i*size (all ones: a consecutive row), and in
// AX lane 0's element (data + its offset); with uniform, Y11 holds all
// ones in the lanes at lane 0's offset. It uses Y8-Y10.
func consecutiveTest(w *writer, size int, data string, uniform bool) {
	w.f("VPBROADCASTQ X0, Y9")
	w.f("VPCMPEQQ Y10, Y10, Y10")
	if uniform {
		w.f("VPCMPEQQ Y11, Y11, Y11")
	}
	for j := 0; j < 8; j++ {
		w.f("VPADDQ stride%d<>+%d(SB), Y9, Y8", size, 32*j)
		w.f("VPCMPEQQ Y%d, Y8, Y8", j)
		w.f("VPAND Y8, Y10, Y10")
		if uniform {
			w.f("VPCMPEQQ Y%d, Y9, Y8", j)
			w.f("VPAND Y8, Y11, Y11")
		}
	}
	w.f("VMOVQ X0, AX")
	w.f("ADDQ %s, AX", data) // lane 0's element
	w.f("VPMOVMSKB Y10, BX")
}

// moveConsecutive moves a consecutive row between memory at AX and the row
// at dst (a load) or src (a store).
func moveConsecutive(w *writer, size int, load bool, widen, dst, src string) {
	for j := 0; j < 8; j++ {
		y := fmt.Sprintf("Y%d", j)
		switch {
		case load && size < 8: // four elements widened to a register
			w.f("%s %d(AX), %s", widen, 4*size*j, y)
			w.f("VMOVDQU %s, %d(%s)", y, 32*j, dst)
		case load:
			w.f("VMOVDQU %d(AX), %s", 32*j, y)
			w.f("VMOVDQU %s, %d(%s)", y, 32*j, dst)
		case size == 4:
			w.f("VMOVDQU evens<>(SB), Y8")
			w.f("VPERMD %d(%s), Y8, %s", 32*j, src, y)
			w.f("VMOVDQU X%d, %d(AX)", j, 16*j)
		default:
			w.f("VMOVDQU %d(%s), %s", 32*j, src, y)
			w.f("VMOVDQU %s, %d(AX)", y, 32*j)
		}
	}
}

// moveHalves is moveConsecutive for 4- and 8-byte elements of row DI
// whose lanes 0-15 lie at AX and lanes 16-31 at R9.
func moveHalves(w *writer, size int, load bool, widen string) {
	for j := 0; j < 8; j++ {
		y, base, h := fmt.Sprintf("Y%d", j), "AX", j
		if j >= 4 {
			base, h = "R9", j-4
		}
		switch {
		case load && size < 8:
			w.f("%s %d(%s), %s", widen, 4*size*h, base, y)
			w.f("VMOVDQU %s, %d(DI)", y, 32*j)
		case load:
			w.f("VMOVDQU %d(%s), %s", 32*h, base, y)
			w.f("VMOVDQU %s, %d(DI)", y, 32*j)
		case size == 4:
			w.f("VMOVDQU evens<>(SB), Y8")
			w.f("VPERMD %d(DI), Y8, %s", 32*j, y)
			w.f("VMOVDQU X%d, %d(%s)", j, 16*h, base)
		default:
			w.f("VMOVDQU %d(DI), %s", 32*j, y)
			w.f("VMOVDQU %s, %d(%s)", y, 32*h, base)
		}
	}
}

// vectorLoads writes the warp-wide ld.v2/.v4 of 4- and 8-byte elements:
// rows holds the destination row of each element (a scratch row for a
// sink); the whole vector of every lane is checked (checkLanes), then each
// lane's elements are read in lane order (a destination that is also the
// address register is written only after its lane's address is read).
func (g *gen) vectorLoads() {
	for _, v := range []struct {
		name    string
		n, size int
		move    string
	}{{"simdLoadV2Z32", 2, 4, "MOVL"}, {"simdLoadV2S32", 2, 4, "MOVLQSX"}, {"simdLoadV4Z32", 4, 4, "MOVL"},
		{"simdLoadV4S32", 4, 4, "MOVLQSX"}, {"simdLoadV2x64", 2, 8, "MOVQ"}} {
		w, dst := g.vectorAccessHead(v.name, v.n, v.size)
		for i := 0; i < 32; i++ {
			w.f("MOVQ %d(SI), AX", 8*i)
			w.f("ADDQ CX, AX")
			for k, r := range dst {
				w.f("%s %d(DX)(AX*1), BX", v.move, k*v.size)
				w.f("MOVQ BX, %d(%s)", 8*i, r)
			}
		}
		g.vectorAccessTail()
	}
	// st.v2/.v4: the same, storing (aligned vectors either coincide or
	// are apart, so lane order leaves the highest lane's elements, as the
	// Go loop's element order does)
	for _, v := range []struct {
		name     string
		n, size  int
		load, st string
	}{{"simdStoreV2x32", 2, 4, "MOVQ", "MOVL"}, {"simdStoreV4x32", 4, 4, "MOVQ", "MOVL"}, {"simdStoreV2x64", 2, 8, "MOVQ", "MOVQ"}} {
		w, src := g.vectorAccessHead(v.name, v.n, v.size)
		for i := 0; i < 32; i++ {
			w.f("MOVQ %d(SI), AX", 8*i)
			w.f("ADDQ CX, AX")
			for k, r := range src {
				w.f("%s %d(%s), BX", v.load, 8*i, r)
				w.f("%s BX, %d(DX)(AX*1)", v.st, k*v.size)
			}
		}
		g.vectorAccessTail()
	}
}

// vectorAccessHead starts a vector ld/st loop name of n elements of size
// bytes: the element rows in R9-R12 (returned), the address row in SI,
// the data in DX, every lane checked, adj in CX.
func (g *gen) vectorAccessHead(name string, n, size int) (*writer, []string) {
	g.decls = append(g.decls, decl{name, "(rows *[4]*lanes, regs *lanes, data *byte, adj, limit uint64) bool"})
	g.text(name, 41)
	w := &g.s
	w.f("MOVQ rows+0(FP), R8")
	rows := []string{"R9", "R10", "R11", "R12"}[:n]
	for k, r := range rows {
		w.f("MOVQ %d(R8), %s", 8*k, r)
	}
	w.f("MOVQ regs+8(FP), SI")
	w.f("MOVQ data+16(FP), DX")
	checkLanes(w, n*size)
	w.f("VZEROUPPER")
	w.f("MOVQ adj+24(FP), CX")
	return w, rows
}

// vectorAccessTail ends it: true, or false from the check's fail.
func (g *gen) vectorAccessTail() {
	w := &g.s
	w.f("MOVB $1, ret+40(FP)")
	w.f("RET")
	g.s.b.WriteString("fail:\n")
	w.f("VZEROUPPER")
	w.f("MOVB $0, ret+40(FP)")
	w.f("RET")
}

// scatteredLoad writes the load of a row whose lanes are not consecutive
// (offsets in Y0-Y7): four lanes (one register of offsets) at a time,
// consecutive elements read together, one element for all four read once,
// others lane by lane.
func (g *gen) scatteredLoad(size int, widen string) {
	g.scattered(size, widen, "DX", [4]string{"R8", "R9", "R10", "R11"})
}

// scattered is scatteredLoad with the data pointer in register data and
// four scratch registers t (t[1] also takes the chunk's comparison mask).
func (g *gen) scattered(size int, widen, data string, t [4]string) {
	w := &g.s
	move := map[string]string{"": "MOVQ", "VPMOVZXDQ": "MOVL", "VPMOVSXDQ": "MOVLQSX", "VPMOVZXWQ": "MOVWQZX",
		"VPMOVSXWQ": "MOVWQSX", "VPMOVZXBQ": "MOVBQZX", "VPMOVSXBQ": "MOVBQSX"}[widen]
	broadcast := map[int]string{1: "VPBROADCASTB", 2: "VPBROADCASTW", 4: "VPBROADCASTD"}[size]
	for j := 0; j < 8; j++ {
		y, x := fmt.Sprintf("Y%d", j), fmt.Sprintf("X%d", j)
		w.f("VMOVQ %s, %s", x, t[0])
		w.f("VPBROADCASTQ %s, Y8", x)
		w.f("VPADDQ stride%d<>(SB), Y8, Y9", size)
		w.f("VPCMPEQQ %s, Y9, Y9", y)
		w.f("VPMOVMSKB Y9, %s", t[1])
		w.f("CMPL %s, $0xffffffff", t[1])
		w.f("JNE c%d_apart", j)
		if size < 8 {
			w.f("%s (%s)(%s*1), Y9", widen, data, t[0])
		} else {
			w.f("VMOVDQU (%s)(%s*1), Y9", data, t[0])
		}
		w.f("VMOVDQU Y9, %d(DI)", 32*j)
		w.f("JMP c%d_done", j)
		fmt.Fprintf(&g.s.b, "c%d_apart:\n", j)
		w.f("VPCMPEQQ %s, Y8, Y9", y)
		w.f("VPMOVMSKB Y9, %s", t[1])
		w.f("CMPL %s, $0xffffffff", t[1])
		w.f("JNE c%d_lanes", j)
		if size < 8 {
			w.f("%s (%s)(%s*1), X9", broadcast, data, t[0])
			w.f("%s X9, Y9", widen)
		} else {
			w.f("VPBROADCASTQ (%s)(%s*1), Y9", data, t[0])
		}
		w.f("VMOVDQU Y9, %d(DI)", 32*j)
		w.f("JMP c%d_done", j)
		fmt.Fprintf(&g.s.b, "c%d_lanes:\n", j)
		w.f("VPEXTRQ $1, %s, %s", x, t[1])
		w.f("VEXTRACTI128 $1, %s, X9", y)
		w.f("VMOVQ X9, %s", t[2])
		w.f("VPEXTRQ $1, X9, %s", t[3])
		for l, r := range t {
			w.f("%s (%s)(%s*1), %s", move, data, r, r)
			w.f("MOVQ %s, %d(DI)", r, 32*j+8*l)
		}
		fmt.Fprintf(&g.s.b, "c%d_done:\n", j)
	}
}

// allLanes writes a test that holds when every lane of row passes: setup
// prepares constants (Y8, Y10), test leaves all ones in y for the lanes of
// the chunk at off that pass; the result is the bool at ret.
func (g *gen) allLanes(name, sig string, frame int, ret string, setup func(w *writer), test func(w *writer, y string, off int)) {
	g.decls = append(g.decls, decl{name, sig})
	g.text(name, frame)
	w := &g.s
	w.f("MOVQ row+0(FP), SI")
	lanesTest(w, "AX", setup, test)
	w.f("CMPL AX, $0xffffffff")
	w.f("SETEQ %s", ret)
	w.f("VZEROUPPER")
	w.f("RET")
}

// fill writes simdFill, a row of one value in 256-bit stores (a whole-warp
// loop reading the row then forwards from them; after 64-bit stores it
// would wait for them to drain).
func (g *gen) fill() {
	g.decls = append(g.decls, decl{"simdFill", "(row *lanes, v uint64)"})
	g.text("simdFill", 16)
	w := &g.s
	w.f("MOVQ row+0(FP), DI")
	w.f("VPBROADCASTQ v+8(FP), Y0")
	for j := 0; j < 8; j++ {
		w.f("VMOVDQU Y0, %d(DI)", 32*j)
	}
	w.f("VZEROUPPER")
	w.f("RET")
}

// allSame writes the test of uniform.go's sameInLanes for a full mask
// (every lane of row holds lane 0's value), and allBelow the test that
// every lane of row is below limit, unsigned (cvta.to's rows of global
// addresses).
func (g *gen) allSame() {
	g.allLanes("simdAllSame", "(row *lanes) bool", 9, "ret+8(FP)", sameSetup, sameTest)
}

// sameSetup and sameTest are lanesTest's test of a row whose lanes all
// hold lane 0's value.
func sameSetup(w *writer)                   { w.f("VPBROADCASTQ (SI), Y8") }
func sameTest(w *writer, y string, off int) { w.f("VPCMPEQQ %d(SI), Y8, %s", off, y) }

func (g *gen) allBelow() {
	g.allLanes("simdAllBelow", "(row *lanes, limit uint64) bool", 17, "ret+16(FP)",
		func(w *writer) {
			w.f("VPBROADCASTQ bias64<>(SB), Y10")
			w.f("VPBROADCASTQ limit+8(FP), Y8")
			w.f("VPXOR Y10, Y8, Y8")
		},
		func(w *writer, y string, off int) {
			w.f("VPXOR %d(SI), Y10, %s", off, y)
			w.f("VPCMPGTQ %s, Y8, %s", y, y) // limit > lane
		})
}

// expand32 puts in y, for the eight lanes of chunk k, all ones where the
// lane's bit of the mask broadcast in ym is set.
func expand32(w *writer, ym, y string, k int) {
	w.f("VPAND lanebit32<>+%d(SB), %s, %s", 32*k, ym, y)
	w.f("VPCMPEQD lanebit32<>+%d(SB), %s, %s", 32*k, y, y)
}

// hmin32 leaves the minimum of the eight int32 in y in every element of y
// (t scratch).
func hmin32(w *writer, y, t string) {
	x, xt := "X"+y[1:], "X"+t[1:]
	w.f("VEXTRACTI128 $1, %s, %s", y, xt)
	w.f("VPMINSD %s, %s, %s", xt, x, x)
	w.f("VPSHUFD $0x4E, %s, %s", x, xt)
	w.f("VPMINSD %s, %s, %s", xt, x, x)
	w.f("VPSHUFD $0xB1, %s, %s", x, xt)
	w.f("VPMINSD %s, %s, %s", xt, x, x)
	w.f("VPBROADCASTD %s, %s", x, y)
}

// scheduler writes the lane scans of the divergent scheduler (warp.go's
// pick, lowestPC and groupLimit) over the 32 int32 PCs and reconvergence
// tops of a frame: four registers of eight lanes each.
func (g *gen) scheduler() {
	w := &g.s
	// simdWaiting: the lanes whose reconvergence point (rtop-1) is their PC
	g.decls = append(g.decls, decl{"simdWaiting", "(pc, rtop *[warpSize]int32) uint32"})
	g.text("simdWaiting", 20)
	w.f("MOVQ pc+0(FP), SI")
	w.f("MOVQ rtop+8(FP), DX")
	w.f("VPBROADCASTD one32i<>(SB), Y8")
	w.f("XORQ BX, BX")
	for k := 0; k < 4; k++ {
		w.f("VPADDD %d(SI), Y8, Y0", 32*k)
		w.f("VPCMPEQD %d(DX), Y0, Y0", 32*k)
		w.f("VMOVMSKPS Y0, AX")
		if k > 0 {
			w.f("SHLL $%d, AX", 8*k)
		}
		w.f("ORL AX, BX")
	}
	w.f("MOVL BX, ret+16(FP)")
	w.f("VZEROUPPER")
	w.f("RET")

	// simdLowestPC: the lowest PC among lanes, and the lanes at it
	g.decls = append(g.decls, decl{"simdLowestPC", "(pc *[warpSize]int32, lanes uint32) (mask uint32, best int32)"})
	g.text("simdLowestPC", 24)
	w.f("MOVQ pc+0(FP), SI")
	w.f("MOVL lanes+8(FP), AX")
	w.f("VMOVQ AX, X12")
	w.f("VPBROADCASTD X12, Y12")
	w.f("VPBROADCASTD maxint32<>(SB), Y13")
	for k := 0; k < 4; k++ {
		y := fmt.Sprintf("Y%d", k)
		expand32(w, "Y12", "Y8", k)
		w.f("VBLENDVPS Y8, %d(SI), Y13, %s", 32*k, y)
	}
	w.f("VPMINSD Y1, Y0, Y4")
	w.f("VPMINSD Y2, Y4, Y4")
	w.f("VPMINSD Y3, Y4, Y4")
	hmin32(w, "Y4", "Y5")
	w.f("XORQ BX, BX")
	for k := 0; k < 4; k++ {
		w.f("VPCMPEQD Y4, Y%d, Y%d", k, k)
		w.f("VMOVMSKPS Y%d, AX", k)
		if k > 0 {
			w.f("SHLL $%d, AX", 8*k)
		}
		w.f("ORL AX, BX")
	}
	w.f("ANDL lanes+8(FP), BX")
	w.f("MOVL BX, mask+16(FP)")
	w.f("VMOVD X4, AX")
	w.f("MOVL AX, best+20(FP)")
	w.f("VZEROUPPER")
	w.f("RET")

	// simdGroupLimit: the lowest of limit, the PCs above at of the lanes
	// of others, and the reconvergence points above at of the lanes of mask
	g.decls = append(g.decls, decl{"simdGroupLimit", "(pc, rtop *[warpSize]int32, others, mask uint32, at, limit int32) int32"})
	g.text("simdGroupLimit", 36)
	w.f("MOVQ pc+0(FP), SI")
	w.f("MOVQ rtop+8(FP), DX")
	w.f("MOVL others+16(FP), AX")
	w.f("VMOVQ AX, X12")
	w.f("VPBROADCASTD X12, Y12")
	w.f("MOVL mask+20(FP), AX")
	w.f("VMOVQ AX, X11")
	w.f("VPBROADCASTD X11, Y11")
	w.f("MOVL at+24(FP), AX")
	w.f("VMOVQ AX, X10")
	w.f("VPBROADCASTD X10, Y10")
	w.f("MOVL limit+28(FP), AX")
	w.f("VMOVQ AX, X9")
	w.f("VPBROADCASTD X9, Y9") // the running minimum
	w.f("VPBROADCASTD maxint32<>(SB), Y13")
	w.f("VPBROADCASTD one32i<>(SB), Y14")
	for k := 0; k < 4; k++ {
		// others' PCs above at
		w.f("VMOVDQU %d(SI), Y0", 32*k)
		expand32(w, "Y12", "Y1", k)
		w.f("VPCMPGTD Y10, Y0, Y2")
		w.f("VPAND Y2, Y1, Y1")
		w.f("VBLENDVPS Y1, Y0, Y13, Y0")
		w.f("VPMINSD Y0, Y9, Y9")
		// the group's reconvergence points above at
		w.f("VMOVDQU %d(DX), Y0", 32*k)
		w.f("VPSUBD Y14, Y0, Y0")
		expand32(w, "Y11", "Y1", k)
		w.f("VPCMPGTD Y10, Y0, Y2")
		w.f("VPAND Y2, Y1, Y1")
		w.f("VBLENDVPS Y1, Y0, Y13, Y0")
		w.f("VPMINSD Y0, Y9, Y9")
	}
	hmin32(w, "Y9", "Y5")
	w.f("VMOVD X9, AX")
	w.f("MOVL AX, ret+32(FP)")
	w.f("VZEROUPPER")
	w.f("RET")
}

// selp writes selp's loop: d = a where sel has the lane's bit, else b,
// for the lanes of mask (the others keep d).
func (g *gen) selp() {
	g.decls = append(g.decls, decl{"simdSelp", "(d, a, b *lanes, sel, mask uint32)"})
	g.text("simdSelp", 32)
	w := &g.s
	w.f("MOVQ d+0(FP), DI")
	w.f("MOVQ a+8(FP), SI")
	w.f("MOVQ b+16(FP), DX")
	w.f("MOVL sel+24(FP), AX")
	w.f("VMOVQ AX, X13")
	w.f("VPBROADCASTQ X13, Y13")
	maskPrep(w, 28)
	for j := 0; j < 8; j++ {
		ya, yt := chunkRegs(j)
		w.f("VMOVDQU %d(DX), %s", 32*j, ya)
		w.f("VPSLLVQ lanesign<>+%d(SB), Y13, %s", 32*j, yt)
		w.f("VBLENDVPD %s, %d(SI), %s, %s", yt, 32*j, ya, ya)
		store(w, j, ya, yt, true)
	}
	w.f("VZEROUPPER")
	w.f("RET")
}

// f32 compares: setp's operators as VCMPPS predicates (ordered ones false
// on NaN, the u forms true; 9.7.3.x Tables 23 and 24).
var f32Preds = map[string]int{"eq": 0, "lt": 1, "le": 2, "nan": 3, "neu": 4, "geu": 5, "gtu": 6,
	"num": 7, "equ": 8, "ltu": 9, "leu": 10, "ne": 12, "ge": 13, "gt": 14}

func main() {
	sOut := flag.String("s", "", "the assembly file to write")
	goOut := flag.String("go", "", "the Go declarations file to write")
	flag.Parse()
	if *sOut == "" || *goOut == "" {
		fmt.Fprintln(os.Stderr, "usage: simdgen -s FILE.s -go FILE.go")
		os.Exit(2)
	}
	g := &gen{table: map[string][4]string{}, memBodies: map[string]int{}, keyedUn: map[string]string{}, keyedTer: map[string]string{}}
	g.s.b.WriteString(`// Code generated by simdgen; DO NOT EDIT.

//go:build amd64 && !purego

#include "textflag.h"

DATA lowmask<>+0(SB)/8, $0x00000000ffffffff
GLOBL lowmask<>(SB), RODATA|NOPTR, $8
DATA mxcsrrn<>+0(SB)/4, $0x1f80
GLOBL mxcsrrn<>(SB), RODATA|NOPTR, $4
DATA canonf32<>+0(SB)/4, $0x7fffffff
GLOBL canonf32<>(SB), RODATA|NOPTR, $4
DATA bias32<>+0(SB)/4, $0x80000000
GLOBL bias32<>(SB), RODATA|NOPTR, $4
DATA bias64<>+0(SB)/8, $0x8000000000000000
GLOBL bias64<>(SB), RODATA|NOPTR, $8
`)
	for i := 0; i < 32; i++ {
		fmt.Fprintf(&g.s.b, "DATA lanesign<>+%d(SB)/8, $%d\n", 8*i, 63-i)
	}
	g.s.b.WriteString("GLOBL lanesign<>(SB), RODATA|NOPTR, $256\n")
	for _, n := range []int{1, 2, 4, 8} {
		for i := 0; i < 32; i++ {
			fmt.Fprintf(&g.s.b, "DATA stride%d<>+%d(SB)/8, $%d\n", n, 8*i, n*i)
		}
		fmt.Fprintf(&g.s.b, "GLOBL stride%d<>(SB), RODATA|NOPTR, $256\n", n)
	}
	for i, v := range []int{0, 2, 4, 6, 0, 2, 4, 6} {
		fmt.Fprintf(&g.s.b, "DATA evens<>+%d(SB)/4, $%d\n", 4*i, v)
	}
	g.s.b.WriteString("GLOBL evens<>(SB), RODATA|NOPTR, $32\n")
	for _, c := range []struct {
		name string
		v    uint32
	}{{"expmask32", 0x7f800000}, {"absmask32", 0x7fffffff}, {"zero32", 0}} {
		for i := 0; i < 8; i++ {
			fmt.Fprintf(&g.s.b, "DATA %s<>+%d(SB)/4, $%#x\n", c.name, 4*i, c.v)
		}
		fmt.Fprintf(&g.s.b, "GLOBL %s<>(SB), RODATA|NOPTR, $32\n", c.name)
	}
	g.s.b.WriteString("DATA one32<>+0(SB)/4, $0x3f800000\nGLOBL one32<>(SB), RODATA|NOPTR, $4\n")
	for i := 0; i < 32; i++ {
		fmt.Fprintf(&g.s.b, "DATA lanebit32<>+%d(SB)/4, $%#x\n", 4*i, uint32(1)<<i)
	}
	g.s.b.WriteString("GLOBL lanebit32<>(SB), RODATA|NOPTR, $128\n")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&g.s.b, "DATA bias32v<>+%d(SB)/4, $0x80000000\n", 4*i)
	}
	g.s.b.WriteString("GLOBL bias32v<>(SB), RODATA|NOPTR, $32\n")
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&g.s.b, "DATA two31v<>+%d(SB)/8, $0x41e0000000000000\n", 8*i)
	}
	g.s.b.WriteString("GLOBL two31v<>(SB), RODATA|NOPTR, $32\n")
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&g.s.b, "DATA two52v<>+%d(SB)/8, $0x4330000000000000\n", 8*i)
		fmt.Fprintf(&g.s.b, "DATA maxu32v<>+%d(SB)/8, $0x41efffffffe00000\n", 8*i)
	}
	g.s.b.WriteString("GLOBL two52v<>(SB), RODATA|NOPTR, $32\nGLOBL maxu32v<>(SB), RODATA|NOPTR, $32\n")
	g.s.b.WriteString("DATA two31f<>+0(SB)/4, $0x4f000000\nGLOBL two31f<>(SB), RODATA|NOPTR, $4\n")
	// the narrow integer types' least and greatest values as f32
	// (cvt to 8- and 16-bit integers)
	for _, n := range narrowInts {
		fmt.Fprintf(&g.s.b, "DATA lo%sf<>+0(SB)/4, $%#x\nGLOBL lo%sf<>(SB), RODATA|NOPTR, $4\n", n.name, math.Float32bits(n.lo), n.name)
		fmt.Fprintf(&g.s.b, "DATA hi%sf<>+0(SB)/4, $%#x\nGLOBL hi%sf<>(SB), RODATA|NOPTR, $4\n", n.name, math.Float32bits(n.hi), n.name)
	}
	// exp2Approx's constants (approx_math.go), four of each
	exp2Coef := []float64{0x1.0000000000000p+0, 0x1.62e42fefa39efp-1, 0x1.ebfbdff82c58fp-3, 0x1.c6b08d704a0c0p-5,
		0x1.3b2ab6fba4e77p-7, 0x1.5d87fe78a6731p-10, 0x1.430912f86c787p-13, 0x1.ffcbfc588b0c7p-17,
		0x1.62c0223a5c824p-20, 0x1.b5253d395e7c4p-24, 0x1.e4cf5158b8ecap-28, 0x1.e8cac7351bb25p-32,
		0x1.c3bd650fc2986p-36, 0x1.816193166d0f9p-40}
	vec64 := func(name string, bits uint64) {
		for i := 0; i < 4; i++ {
			fmt.Fprintf(&g.s.b, "DATA %s<>+%d(SB)/8, $%#x\n", name, 8*i, bits)
		}
		fmt.Fprintf(&g.s.b, "GLOBL %s<>(SB), RODATA|NOPTR, $32\n", name)
	}
	for k, c := range exp2Coef {
		vec64(fmt.Sprintf("exp2c%d", k), math.Float64bits(c))
	}
	vec64("m200v", math.Float64bits(-200))
	vec64("p200v", math.Float64bits(200))
	vec64("bias1023v", 1023)
	// sinCosApprox's constants (approx_math.go)
	sinCoef := []float64{0x1.0000000000000p+0, -0x1.5555555555555p-3, 0x1.1111111111111p-7,
		-0x1.a01a01a01a01ap-13, 0x1.71de3a556c734p-19, -0x1.ae64567f544e4p-26, 0x1.6124613a86d09p-33,
		-0x1.ae7f3e733b81fp-41}
	cosCoef := []float64{0x1.0000000000000p+0, -0x1.0000000000000p-1, 0x1.5555555555555p-5,
		-0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-16, -0x1.27e4fb7789f5cp-22, 0x1.1eed8eff8d898p-29,
		-0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-45}
	for k, c := range sinCoef {
		vec64(fmt.Sprintf("sinc%d", k), math.Float64bits(c))
	}
	for k, c := range cosCoef {
		vec64(fmt.Sprintf("cosc%d", k), math.Float64bits(c))
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"pio2av", 0x1.921fb54000000p+0}, {"pio2bv", 0x1.10b4611000000p-30}, {"pio2cv", 0x1.4c4c6628b80dcp-59},
		{"twooverpiv", 0x1.45f306dc9c883p-1}, {"m1v", -1}, {"p1v", 1}, {"quarterv", 0.25}, {"fourv", 4},
		{"onev64", 1}, {"twov64", 2}, {"threev64", 3}, {"inf64v", math.Inf(1)}} {
		vec64(c.name, math.Float64bits(c.v))
	}
	// log2Approx's constants (approx_math.go)
	lg2Coef := []float64{0x1.0000000000000p+0, 0x1.5555555555555p-2, 0x1.999999999999ap-3,
		0x1.2492492492492p-3, 0x1.c71c71c71c71cp-4, 0x1.745d1745d1746p-4, 0x1.3b13b13b13b14p-4,
		0x1.1111111111111p-4, 0x1.e1e1e1e1e1e1ep-5, 0x1.af286bca1af28p-5, 0x1.8618618618618p-5,
		0x1.642c8590b2164p-5}
	for k, c := range lg2Coef {
		vec64(fmt.Sprintf("lg2c%d", k), math.Float64bits(c))
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"twooverln2v", 0x1.71547652b82fep+1}, {"sqrt2v", 0x1.6a09e667f3bcdp+0}, {"halfv64", 0.5},
		{"bias1023fv", 1023}, {"neginf64v", math.Inf(-1)}} {
		vec64(c.name, math.Float64bits(c.v))
	}
	vec64("expfield64v", 0x7ff)
	vec64("mant64v", 1<<52-1)
	vec64("abs64v", 1<<63-1)
	vec64("clzbase", 1054)
	vec64("bit31v", 1<<31)
	vec64("two126v", math.Float64bits(0x1p126))
	vec64("two128v", math.Float64bits(0x1p128))
	vec64("thirtytwo", 32)
	bytes32 := func(name string, b func(i int) byte) {
		for i := 0; i < 32; i++ {
			fmt.Fprintf(&g.s.b, "DATA %s<>+%d(SB)/1, $%d\n", name, i, b(i))
		}
		fmt.Fprintf(&g.s.b, "GLOBL %s<>(SB), RODATA|NOPTR, $32\n", name)
	}
	bytes32("popcnib", func(i int) byte { return byte(bits.OnesCount8(uint8(i % 16))) })
	bytes32("lownib", func(int) byte { return 0x0f })
	bytes32("hinib", func(int) byte { return 0xf0 })
	bytes32("revnib", func(i int) byte { return bits.Reverse8(uint8(i%16)) >> 4 })
	// the low four bytes of each 8-byte lane in reverse order, the upper
	// four zero (VPSHUFB: an index with its top bit set gives 0)
	bytes32("brevbytes", func(i int) byte {
		if i%8 >= 4 {
			return 0x80
		}
		return byte(i/8*8 + 3 - i%8)
	})
	vec64("sign64v", 1<<63)
	vec64("low8v", 0xff)
	// 8 added to the byte indices of the odd qwords of each 128-bit lane
	// (VPSHUFB indexes within 16 bytes)
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&g.s.b, "DATA oddqword8<>+%d(SB)/8, $%#x\n", 8*i, uint64(0x0808080808080808)*uint64(i%2))
	}
	g.s.b.WriteString("GLOBL oddqword8<>(SB), RODATA|NOPTR, $32\n")
	vec64("one64v", 1)
	vec64("thirtyone", 31)
	vec64("abs32v", 0x7fffffff)
	vec64("sign32v", 0x80000000)
	vec64("low16v", 0xffff)
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&g.s.b, "DATA quiet64v<>+%d(SB)/8, $0x0008000000000000\n", 8*i)
		fmt.Fprintf(&g.s.b, "DATA canon64v<>+%d(SB)/8, $0x7fffffffffffffff\n", 8*i)
	}
	g.s.b.WriteString("GLOBL quiet64v<>(SB), RODATA|NOPTR, $32\nGLOBL canon64v<>(SB), RODATA|NOPTR, $32\n")
	g.s.b.WriteString("DATA shfclamp<>+0(SB)/4, $32\nGLOBL shfclamp<>(SB), RODATA|NOPTR, $4\n")
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&g.s.b, "DATA shfwrap<>+%d(SB)/8, $31\n", 8*i)
	}
	g.s.b.WriteString("GLOBL shfwrap<>(SB), RODATA|NOPTR, $32\n")
	g.s.b.WriteString("DATA maxint32<>+0(SB)/4, $0x7fffffff\nGLOBL maxint32<>(SB), RODATA|NOPTR, $4\n")
	g.s.b.WriteString("DATA one32i<>+0(SB)/4, $1\nGLOBL one32i<>(SB), RODATA|NOPTR, $4\n")
	g.s.b.WriteString("DATA one64<>+0(SB)/8, $0x3ff0000000000000\nGLOBL one64<>(SB), RODATA|NOPTR, $8\n")
	g.s.b.WriteString(`
// func cpuid(eax, ecx uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eax+0(FP), AX
	MOVL ecx+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func xgetbv0() uint32
TEXT ·xgetbv0(SB), NOSPLIT, $0-4
	MOVL $0, CX
	XGETBV
	MOVL AX, ret+0(FP)
	RET
`)
	for _, o := range intOps() {
		g.binary(o)
	}
	for _, o := range f32Ops() {
		g.binary(o)
	}
	for _, o := range f32FtzOps() {
		g.binary(o)
	}
	for _, o := range f64Ops() {
		g.binary(o)
	}
	// add, sub, mul and div under .rz, .rm and .rp: the loops above
	// under another MXCSR rounding control
	for _, rc := range roundingControls {
		fmt.Fprintf(&g.s.b, "DATA %s<>+0(SB)/4, $%#x\nGLOBL %s<>(SB), RODATA|NOPTR, $4\n", rc.sym, rc.word, rc.sym)
		for _, ops := range [][]intOp{f32Ops(), f32FtzOps(), f64Ops()} {
			for _, o := range rounded(ops, rc.mod) {
				g.binaryRC(o, rc.sym)
			}
		}
	}
	g.binary(intOp{name: "min.f32", fn: "minF32", kprep: kF, body: floatMinMax(false, false)})
	g.binary(intOp{name: "max.f32", fn: "maxF32", kprep: kF, body: floatMinMax(true, false)})
	// div.approx.f32 and div.full.f32 (.ftz too): a/b in f64, rounded to
	// f32 (approxFn), NaN results the canonical NaN; div.approx's quirk for
	// 2^126 < |b| < 2^128: a zero of the quotient's sign, NaN for an
	// infinite a (9.7.3.8)
	for _, v := range []struct {
		name, fn   string
		quirk, ftz bool
	}{{"divapprox.f32", "divApproxF32", true, false}, {"divapprox.ftz.f32", "divApproxFtzF32", true, true},
		{"divfull.f32", "divFullF32", false, false}, {"divfull.ftz.f32", "divFullFtzF32", false, true}} {
		g.binary(intOp{name: v.name, fn: v.fn, kprep: kF, body: divApprox32(v.quirk, v.ftz)})
	}
	// min and max .ftz.f32: floatMinMax on flushed operands (its result,
	// one of them or the canonical NaN, needs no flush)
	var kf writer
	kf.f("%s", kF)
	flushF32(&kf, "Y13", "Y8")
	for _, isMax := range []bool{false, true} {
		op := map[bool]string{false: "min", true: "max"}[isMax]
		minMax := floatMinMax(isMax, false)
		g.binary(intOp{name: op + ".ftz.f32", fn: op + "FtzF32", kprep: strings.TrimSpace(kf.b.String()),
			body: func(w *writer, ya, yt, yu, mb string, j int) {
				flushF32(w, ya, yt)
				if mb != "Y13" { // the immediate was flushed once, in kprep
					w.f("VMOVDQU %s, %s", mb, yu)
					flushF32(w, yu, yt)
					mb = yu
				}
				minMax(w, ya, yt, yu, mb, j)
			}})
	}
	// copysign d, a, b: b's magnitude with a's sign (bits only: NaNs too)
	for _, f := range []string{"32", "64"} {
		abs, sign := "abs"+f+"v<>(SB)", "sign"+f+"v<>(SB)"
		g.binary(intOp{name: "copysign.f" + f, fn: "copysignF" + f, kprep: kQ,
			body: func(w *writer, ya, yt, yu, mb string, j int) {
				w.f("VMOVDQU %s, %s", mb, yu)
				w.f("VPAND %s, %s, %s", abs, yu, yu)
				w.f("VPAND %s, %s, %s", sign, ya, ya)
				w.f("VPOR %s, %s, %s", yu, ya, ya)
			}})
	}
	g.binary(intOp{name: "min.f64", fn: "minF64", kprep: kQ, body: floatMinMax(false, true)})
	g.binary(intOp{name: "max.f64", fn: "maxF64", kprep: kQ, body: floatMinMax(true, true)})
	g.ternary("simdFmaF64", fmaF64)
	g.ternary("simdFmaFtzF32", fmaFtzF32)
	// fma under .rz, .rm and .rp: the same bodies under another MXCSR
	// rounding control (mad with a rounding modifier is fma)
	for _, rc := range roundingControls {
		m := strings.ToUpper(rc.mod[:1]) + rc.mod[1:]
		g.keyedTernary("fma."+rc.mod+".f32", "simdFma"+m+"F32", rc.sym, fmaF32)
		g.keyedTernary("fma."+rc.mod+".ftz.f32", "simdFma"+m+"FtzF32", rc.sym, fmaFtzF32)
		g.keyedTernary("fma."+rc.mod+".f64", "simdFma"+m+"F64", rc.sym, fmaF64)
	}
	// bfe (bits.go's bfe, 9.7.8.9): pos = b[7:0], len = c[7:0]. Unsigned:
	// a shifted right by pos (64-bit shifts: a count of 64 or more gives
	// 0), masked to its low len bits ((1 << len) - 1, all ones for len of
	// 64 or more); the field is what lies below the width anyway. .s32:
	// the sign bit s = min(pos+len-1, 31) moved to bit 31, then an
	// arithmetic shift right by 31-s+pos (32 or more fills with the sign);
	// 0 for len 0.
	bfeLen := func(w *writer, j int) {
		w.f("VMOVDQU %d(CX), Y12", 32*j)
		w.f("VPAND low8v<>(SB), Y12, Y12")
	}
	for _, v := range []struct {
		key, name string
		narrow    bool
	}{{"bfe.u32", "simdBfeU32", true}, {"bfe.u64", "simdBfeU64", false}} {
		narrow := v.narrow
		g.keyedTernary(v.key, v.name, "", func(w *writer, ya, yb, yt string, j int) {
			if narrow {
				zext32(w, ya)
			}
			w.f("VPAND low8v<>(SB), %s, %s", yb, yb)
			w.f("VPSRLVQ %s, %s, %s", yb, ya, ya)
			bfeLen(w, j)
			w.f("VMOVDQU one64v<>(SB), Y13")
			w.f("VPSLLVQ Y12, Y13, Y12")
			w.f("VPCMPEQQ Y13, Y13, Y13")
			w.f("VPADDQ Y13, Y12, Y12")
			w.f("VPAND Y12, %s, %s", ya, ya)
		})
	}
	g.keyedTernary("bfe.s32", "simdBfeS32", "", func(w *writer, ya, yb, yt string, j int) {
		w.f("VPAND low8v<>(SB), %s, %s", yb, yb) // pos
		bfeLen(w, j)                             // len
		w.f("VPADDQ %s, Y12, %s", yb, yt)
		w.f("VPCMPEQQ Y13, Y13, Y13")
		w.f("VPADDQ Y13, %s, %s", yt, yt) // pos+len-1
		w.f("VPMINUD thirtyone<>(SB), %s, %s", yt, yt)
		w.f("VMOVDQU thirtyone<>(SB), Y13")
		w.f("VPSUBD %s, Y13, %s", yt, yt) // 31-s
		w.f("VPSLLVD %s, %s, %s", yt, ya, ya)
		w.f("VPADDD %s, %s, %s", yb, yt, yt) // 31-s+pos
		w.f("VPSRAVD %s, %s, %s", yt, ya, ya)
		w.f("VPXOR Y13, Y13, Y13")
		w.f("VPCMPEQQ Y13, Y12, Y12") // len 0
		w.f("VPANDN %s, Y12, %s", ya, ya)
		sext32(w, ya, yt)
	})
	g.prmtUniform()
	// cvt.rni, .rzi, .rmi and .rpi between equal float types: the value
	// rounded to an integral one in its own format (VROUND's immediate: 0
	// to nearest even, 1 down, 2 up, 3 toward zero). An f64 NaN comes out
	// quieted with its payload, as fp's NaNResult gives; f32 NaNs become
	// the canonical NaN. Integral values are never subnormal, so .ftz only
	// flushes the input.
	for _, r := range []struct {
		mod string
		imm int
	}{{"rni", 0}, {"rmi", 1}, {"rpi", 2}, {"rzi", 3}} {
		imm, m := r.imm, strings.ToUpper(r.mod[:1])+r.mod[1:]
		g.keyedUnary("cvt."+r.mod+".f32.f32", "simdCvt"+m+"F32", func(w *writer, ya, yt string) {
			w.f("VROUNDPS $%d, %s, %s", imm, ya, ya)
			canonF32(w, ya, yt)
		})
		g.keyedUnary("cvt."+r.mod+".ftz.f32.f32", "simdCvt"+m+"FtzF32", func(w *writer, ya, yt string) {
			flushF32(w, ya, yt)
			w.f("VROUNDPS $%d, %s, %s", imm, ya, ya)
			canonF32(w, ya, yt)
		})
		g.keyedUnary("cvt."+r.mod+".f64.f64", "simdCvt"+m+"F64", func(w *writer, ya, yt string) {
			w.f("VROUNDPD $%d, %s, %s", imm, ya, ya)
		})
	}
	// mov and integer cvt between 32- and 64-bit types (vecNorm): a copy,
	// or the low half zero- or sign-extended
	g.unary("simdCopy64", func(w *writer, ya, yt string) {})
	g.unary("simdZext32", func(w *writer, ya, yt string) { zext32(w, ya) })
	g.unary("simdSext32", func(w *writer, ya, yt string) { sext32(w, ya, yt) })
	// integer cvt from or to 8- and 16-bit types (vecNorm): the low k
	// bits zero-extended, sign-extended to 64 bits, or sign-extended to
	// 32 and zero-extended from there
	for _, k := range []int{8, 16} {
		g.keyedUnary(fmt.Sprintf("ext.z%d", k), fmt.Sprintf("simdZext%d", k), func(w *writer, ya, yt string) {
			w.f("VPAND low%dv<>(SB), %s, %s", k, ya, ya)
		})
		g.keyedUnary(fmt.Sprintf("ext.s%d", k), fmt.Sprintf("simdSext%d", k), func(w *writer, ya, yt string) {
			w.f("VPSLLD $%d, %s, %s", 32-k, ya, ya)
			w.f("VPSRAD $%d, %s, %s", 32-k, ya, ya)
			sext32(w, ya, yt)
		})
		g.keyedUnary(fmt.Sprintf("ext.s%dz32", k), fmt.Sprintf("simdSext%dZext32", k), func(w *writer, ya, yt string) {
			w.f("VPSLLD $%d, %s, %s", 32-k, ya, ya)
			w.f("VPSRAD $%d, %s, %s", 32-k, ya, ya)
			zext32(w, ya)
		})
		if k == 16 { // not.b16: the complement's low 16 bits (not has no .b8)
			// cvt.f32.f16 and cvt.rn.f16.f32 with F16C (half_amd64.go asks
			// for them only where the CPU has it): the four lanes' values
			// (a half in bits 0-15, a float32 in bits 0-31) gathered into
			// the low quarter, converted, and zero-extended again; a NaN
			// half made the canonical 0x7fff, as half.go's lane function
			g.keyedUnary("cvt.f32.f16", "simdCvtF32F16", func(w *writer, ya, yt string) {
				xa := "X" + ya[1:]
				w.f("VPAND low16v<>(SB), %s, %s", ya, ya)
				w.f("VMOVDQU evens<>(SB), Y8")
				w.f("VPERMD %s, Y8, %s", ya, ya)
				w.f("VPACKUSDW %s, %s, %s", xa, xa, xa) // (values below 0x10000: no saturation)
				w.f("VCVTPH2PS %s, %s", xa, xa)
				w.f("VPMOVZXDQ %s, %s", xa, ya)
			})
			g.keyedUnary("cvt.rn.f16.f32", "simdCvtRnF16F32", func(w *writer, ya, yt string) {
				xa := "X" + ya[1:]
				w.f("VMOVDQU evens<>(SB), Y8")
				w.f("VPERMD %s, Y8, %s", ya, ya)
				w.f("VCVTPS2PH $0, %s, %s", xa, xa)
				w.f("VPCMPEQD Y9, Y9, Y9")
				w.f("VPSRLW $1, X9, X9")      // 0x7fff
				w.f("VPSRLW $10, X9, X10")    // 0x001f
				w.f("VPSLLW $10, X10, X10")   // 0x7c00
				w.f("VPAND X9, %s, X11", xa)  // the magnitudes
				w.f("VPCMPGTW X10, X11, X11") // the NaNs
				w.f("VPBLENDVB X11, X9, %s, %s", xa, xa)
				w.f("VPMOVZXWQ %s, %s", xa, ya)
			})
			g.keyedUnary("not.16", "simdNot16", func(w *writer, ya, yt string) {
				w.f("VPANDN low16v<>(SB), %s, %s", ya, ya)
			})
		}
	}
	// sqrt.rn.f32 and rcp.rn.f32: IEEE square root and 1/x, rounded once
	g.unary("simdSqrtF32", func(w *writer, ya, yt string) {
		w.f("VSQRTPS %s, %s", ya, ya)
		canonF32(w, ya, yt)
	})
	// rsqrt/rcp/sqrt.approx.f32: approxVecF32's computation in f64
	// (square root and division each rounded there) rounded to f32
	for _, a := range []struct{ name, op string }{{"Rsqrt", "rsqrt"}, {"Rcp", "rcp"}, {"Sqrt", "sqrt"}} {
		for _, ftz := range []bool{false, true} {
			name := "simd" + a.name + "ApproxF32"
			if ftz {
				name = "simd" + a.name + "ApproxFtzF32"
			}
			op := a.op
			g.unary(name, func(w *writer, ya, yt string) {
				xa := "X" + ya[1:]
				if ftz {
					flushF32(w, ya, yt)
				}
				w.f("VMOVDQU evens<>(SB), %s", yt)
				w.f("VPERMD %s, %s, %s", ya, yt, ya)
				w.f("VCVTPS2PD %s, %s", xa, ya)
				if op != "rcp" {
					w.f("VSQRTPD %s, %s", ya, ya)
				}
				if op != "sqrt" {
					w.f("VBROADCASTSD one64<>(SB), %s", yt)
					w.f("VDIVPD %s, %s, %s", ya, yt, ya)
				}
				w.f("VCVTPD2PSY %s, %s", ya, xa)
				w.f("VPMOVZXDQ %s, %s", xa, ya)
				canonF32(w, ya, yt)
				if ftz {
					flushF32(w, ya, yt)
				}
			})
		}
	}
	// cvt between 32-bit integers and floats (cvt.go's warp loops): .rn
	// from integers (u32 through f64, exact there, then rounded once);
	// to integers rounded by .rzi/.rni/.rmi/.rpi (VROUNDPS, exact), then
	// saturated, NaN to 0: s32 from the truncating conversion's
	// 0x80000000, flipped to 0x7fffffff at or above 2^31 and cleared for
	// NaN; u32 in f64, clamped to [0, 2^32-1] (NaN to 0 by VMAXPD's
	// operand order) and truncated, its integer read from the mantissa
	// after adding 2^52
	g.unary("simdCvtF32S32", func(w *writer, ya, yt string) {
		xa := "X" + ya[1:]
		w.f("VMOVDQU evens<>(SB), %s", yt)
		w.f("VPERMD %s, %s, %s", ya, yt, ya)
		w.f("VCVTDQ2PS %s, %s", xa, xa)
		w.f("VPMOVZXDQ %s, %s", xa, ya)
	})
	// from 8- and 16-bit integers (a pixel's channel): the low dword
	// zero- or sign-extended from the type's width (a register of the
	// type may hold either extension), then as from s32 (exact)
	for _, n := range narrowInts {
		bits := 8
		if strings.HasSuffix(n.name, "16") {
			bits = 16
		}
		ext := func(w *writer, ya string) {
			w.f("VPSLLD $%d, %s, %s", 32-bits, ya, ya)
			if n.name[0] == 'S' {
				w.f("VPSRAD $%d, %s, %s", 32-bits, ya, ya)
			} else {
				w.f("VPSRLD $%d, %s, %s", 32-bits, ya, ya)
			}
		}
		g.keyedUnary("cvt.f32."+strings.ToLower(n.name), "simdCvtF32"+n.name, func(w *writer, ya, yt string) {
			xa := "X" + ya[1:]
			ext(w, ya)
			w.f("VMOVDQU evens<>(SB), %s", yt)
			w.f("VPERMD %s, %s, %s", ya, yt, ya)
			w.f("VCVTDQ2PS %s, %s", xa, xa)
			w.f("VPMOVZXDQ %s, %s", xa, ya)
		})
		g.keyedUnary("cvt.f64."+strings.ToLower(n.name), "simdCvtF64"+n.name, func(w *writer, ya, yt string) {
			xa := "X" + ya[1:]
			ext(w, ya)
			w.f("VMOVDQU evens<>(SB), %s", yt)
			w.f("VPERMD %s, %s, %s", ya, yt, ya)
			w.f("VCVTDQ2PD %s, %s", xa, ya)
		})
	}
	g.unary("simdCvtF32U32", func(w *writer, ya, yt string) {
		xa := "X" + ya[1:]
		w.f("VPAND Y15, %s, %s", ya, ya)
		w.f("VPOR two52v<>(SB), %s, %s", ya, ya)
		w.f("VSUBPD two52v<>(SB), %s, %s", ya, ya)
		w.f("VCVTPD2PSY %s, %s", ya, xa)
		w.f("VPMOVZXDQ %s, %s", xa, ya)
	})
	g.unary("simdCvtF64S32", func(w *writer, ya, yt string) {
		xa := "X" + ya[1:]
		w.f("VMOVDQU evens<>(SB), %s", yt)
		w.f("VPERMD %s, %s, %s", ya, yt, ya)
		w.f("VCVTDQ2PD %s, %s", xa, ya)
	})
	g.unary("simdCvtF64U32", func(w *writer, ya, yt string) {
		w.f("VPAND Y15, %s, %s", ya, ya)
		w.f("VPOR two52v<>(SB), %s, %s", ya, ya)
		w.f("VSUBPD two52v<>(SB), %s, %s", ya, ya)
	})
	// from f64: the same in f64 (VROUNDPD), NaN to 1 << 31 (s32: the
	// truncating conversion's own 0x80000000; u32: blended in)
	for _, rnd := range []struct {
		name string
		imm  int
	}{{"Rzi", -1}, {"Rni", 0}, {"Rmi", 1}, {"Rpi", 2}} {
		mod := strings.ToLower(rnd.name)
		g.keyedUnary("cvt."+mod+".s32.f64", "simdCvtS32F64"+rnd.name, func(w *writer, ya, yt string) {
			xt := "X" + yt[1:]
			if rnd.imm >= 0 {
				w.f("VROUNDPD $%d, %s, %s", rnd.imm, ya, ya)
			}
			w.f("VCVTTPD2DQY %s, %s", ya, xt)
			w.f("VCMPPD $13, two31v<>(SB), %s, Y8", ya) // x >= 2^31
			w.f("VMOVDQU evens<>(SB), Y9")
			w.f("VPERMD Y8, Y9, Y8")
			w.f("VPXOR X8, %s, %s", xt, xt)
			w.f("VPMOVSXDQ %s, %s", xt, ya)
		})
		g.keyedUnary("cvt."+mod+".u32.f64", "simdCvtU32F64"+rnd.name, func(w *writer, ya, yt string) {
			if rnd.imm >= 0 {
				w.f("VROUNDPD $%d, %s, %s", rnd.imm, ya, ya)
			}
			w.f("VCMPPD $3, %s, %s, Y8", ya, ya) // NaN
			w.f("VXORPD %s, %s, %s", yt, yt, yt)
			w.f("VMAXPD %s, %s, %s", yt, ya, ya)
			w.f("VMINPD maxu32v<>(SB), %s, %s", ya, ya)
			w.f("VROUNDPD $3, %s, %s", ya, ya)
			w.f("VADDPD two52v<>(SB), %s, %s", ya, ya)
			w.f("VPAND Y15, %s, %s", ya, ya)
			w.f("VBLENDVPD Y8, bit31v<>(SB), %s, %s", ya, ya)
		})
	}
	for _, rnd := range []struct {
		name string
		imm  int // VROUNDPS's mode; -1: none (truncation)
	}{{"Rzi", -1}, {"Rni", 0}, {"Rmi", 1}, {"Rpi", 2}} {
		g.unary("simdCvtS32F32"+rnd.name, func(w *writer, ya, yt string) {
			xa, xt := "X"+ya[1:], "X"+yt[1:]
			w.f("VMOVDQU evens<>(SB), %s", yt)
			w.f("VPERMD %s, %s, %s", ya, yt, ya)
			if rnd.imm >= 0 {
				w.f("VROUNDPS $%d, %s, %s", rnd.imm, xa, xa)
			}
			w.f("VCVTTPS2DQ %s, %s", xa, xt)
			w.f("VBROADCASTSS two31f<>(SB), X12")
			w.f("VCMPPS $13, X12, %s, X13", xa) // x >= 2^31
			w.f("VPXOR X13, %s, %s", xt, xt)
			w.f("VCMPPS $3, %s, %s, X13", xa, xa) // NaN
			w.f("VPANDN %s, X13, %s", xt, xt)
			w.f("VPMOVSXDQ %s, %s", xt, ya)
		})
		// to 8- and 16-bit integers: rounded, clamped to the type's range
		// in f32 (NaN to the least value by VMAXPS's operand order, then to
		// 0 by its mask), truncated; the slot sign-extended (the unsigned
		// types' values are not negative)
		for _, n := range narrowInts {
			g.keyedUnary("cvt."+strings.ToLower(rnd.name)+"."+strings.ToLower(n.name)+".f32", "simdCvt"+n.name+"F32"+rnd.name, func(w *writer, ya, yt string) {
				xa, xt := "X"+ya[1:], "X"+yt[1:]
				w.f("VMOVDQU evens<>(SB), %s", yt)
				w.f("VPERMD %s, %s, %s", ya, yt, ya)
				if rnd.imm >= 0 {
					w.f("VROUNDPS $%d, %s, %s", rnd.imm, xa, xa)
				}
				w.f("VCMPPS $3, %s, %s, X13", xa, xa) // NaN
				w.f("VBROADCASTSS lo%sf<>(SB), X12", n.name)
				w.f("VMAXPS X12, %s, %s", xa, xa)
				w.f("VBROADCASTSS hi%sf<>(SB), X12", n.name)
				w.f("VMINPS X12, %s, %s", xa, xa)
				w.f("VCVTTPS2DQ %s, %s", xa, xt)
				w.f("VPANDN %s, X13, %s", xt, xt)
				w.f("VPMOVSXDQ %s, %s", xt, ya)
			})
		}
		g.unary("simdCvtU32F32"+rnd.name, func(w *writer, ya, yt string) {
			xa := "X" + ya[1:]
			w.f("VMOVDQU evens<>(SB), %s", yt)
			w.f("VPERMD %s, %s, %s", ya, yt, ya)
			if rnd.imm >= 0 {
				w.f("VROUNDPS $%d, %s, %s", rnd.imm, xa, xa)
			}
			w.f("VCVTPS2PD %s, %s", xa, ya)
			w.f("VXORPD %s, %s, %s", yt, yt, yt)
			w.f("VMAXPD %s, %s, %s", yt, ya, ya)
			w.f("VMINPD maxu32v<>(SB), %s, %s", ya, ya)
			w.f("VROUNDPD $3, %s, %s", ya, ya)
			w.f("VADDPD two52v<>(SB), %s, %s", ya, ya)
			w.f("VPAND Y15, %s, %s", ya, ya)
		})
	}
	// ex2.approx.f32 (with .ftz: inputs and results flushed): exp2Approx
	// in approx_math.go, operation for operation, in f64, rounded to f32;
	// NaN inputs give the canonical NaN. Four chunks at a time
	// (unaryInterleaved): the degree-13 polynomial is one long chain.
	for _, ftz := range []bool{false, true} {
		name := "simdEx2ApproxF32"
		if ftz {
			name = "simdEx2ApproxFtzF32"
		}
		g.unaryInterleaved(name, interleave4, func(w *writer, r chunkSet, j int) {
			xt := "X" + r.t[1:]
			approxIn(w, r.a, r.t, ftz)
			w.f("VMAXPD m200v<>(SB), %s, %s", r.a, r.a) // (NaN lanes: approxOutAgain)
			w.f("VMINPD p200v<>(SB), %s, %s", r.a, r.a)
			w.f("VROUNDPD $0, %s, %s", r.a, r.t)    // n
			w.f("VSUBPD %s, %s, %s", r.t, r.a, r.a) // f
			w.f("VMOVDQU exp2c13<>(SB), %s", r.s)
			for k := 12; k >= 0; k-- {
				w.f("VFMADD213PD exp2c%d<>(SB), %s, %s", k, r.a, r.s) // s = s*f + c
			}
			w.f("VCVTPD2DQY %s, %s", r.t, xt)
			w.f("VPMOVSXDQ %s, %s", xt, r.t)
			w.f("VPADDQ bias1023v<>(SB), %s, %s", r.t, r.t)
			w.f("VPSLLQ $52, %s, %s", r.t, r.t) // 2^n
			w.f("VMULPD %s, %s, %s", r.t, r.s, r.a)
			approxOutAgain(w, r, j, false, ftz)
		})
	}
	// sin/cos.approx.f32 (with .ftz: inputs and results flushed):
	// sinCosApprox in approx_math.go, operation for operation, in f64,
	// rounded to f32; NaN and infinite inputs give the canonical NaN. Three
	// chunks at a time (unaryInterleaved), as ex2.
	for _, v := range []struct {
		name     string
		cos, ftz bool
	}{{"simdSinApproxF32", false, false}, {"simdSinApproxFtzF32", false, true},
		{"simdCosApproxF32", true, false}, {"simdCosApproxFtzF32", true, true}} {
		g.unaryInterleaved(v.name, interleave3, func(w *writer, r chunkSet, j int) {
			approxIn(w, r.a, r.t, v.ftz) // x
			// (NaN and infinite lanes: approxOutAgain)
			w.f("VMULPD twooverpiv<>(SB), %s, %s", r.a, r.t)
			w.f("VROUNDPD $0, %s, %s", r.t, r.t) // k
			for _, p := range []string{"pio2av", "pio2bv", "pio2cv"} {
				w.f("VMULPD %s<>(SB), %s, %s", p, r.t, r.s)
				w.f("VSUBPD %s, %s, %s", r.s, r.a, r.a)
			}
			w.f("VMAXPD m1v<>(SB), %s, %s", r.a, r.a)
			w.f("VMINPD p1v<>(SB), %s, %s", r.a, r.a) // r
			w.f("VMULPD quarterv<>(SB), %s, %s", r.t, r.s)
			w.f("VROUNDPD $1, %s, %s", r.s, r.s)
			w.f("VMULPD fourv<>(SB), %s, %s", r.s, r.s)
			w.f("VSUBPD %s, %s, %s", r.s, r.t, r.t) // q = k mod 4
			w.f("VMULPD %s, %s, %s", r.a, r.a, r.z) // r2
			w.f("VMOVDQU sinc7<>(SB), %s", r.s)
			for k := 6; k >= 0; k-- {
				w.f("VFMADD213PD sinc%d<>(SB), %s, %s", k, r.z, r.s)
			}
			w.f("VMULPD %s, %s, %s", r.a, r.s, r.s) // sin r
			w.f("VMOVDQU cosc8<>(SB), %s", r.c)
			for k := 7; k >= 0; k-- {
				w.f("VFMADD213PD cosc%d<>(SB), %s, %s", k, r.z, r.c)
			}
			// q odd: the other function; the sign flips for q >= 2 (sin)
			// or q of 1 and 2 (cos). r and r2 are dead: z and a hold the
			// masks, then s or c the sign's
			w.f("VCMPPD $0, onev64<>(SB), %s, %s", r.t, r.z)
			w.f("VCMPPD $0, threev64<>(SB), %s, %s", r.t, r.a)
			w.f("VORPD %s, %s, %s", r.a, r.z, r.z)
			sign := r.s
			if v.cos {
				w.f("VBLENDVPD %s, %s, %s, %s", r.z, r.s, r.c, r.a)
				w.f("VCMPPD $0, onev64<>(SB), %s, %s", r.t, r.s)
				w.f("VCMPPD $0, twov64<>(SB), %s, %s", r.t, r.c)
				w.f("VORPD %s, %s, %s", r.c, r.s, r.s)
			} else {
				w.f("VBLENDVPD %s, %s, %s, %s", r.z, r.c, r.s, r.a)
				w.f("VCMPPD $13, twov64<>(SB), %s, %s", r.t, r.s)
			}
			w.f("VANDPD sign64v<>(SB), %s, %s", sign, sign)
			w.f("VXORPD %s, %s, %s", sign, r.a, r.a)
			approxOutAgain(w, r, j, true, v.ftz)
		})
	}
	// lg2.approx.f32 (with .ftz: inputs and results flushed):
	// log2Approx in approx_math.go, operation for operation, in f64,
	// rounded to f32; zeros give -Inf, +Inf +Inf, NaN and negative inputs
	// the canonical NaN. Three chunks at a time (unaryInterleaved), as ex2.
	for _, ftz := range []bool{false, true} {
		name := "simdLg2ApproxF32"
		if ftz {
			name = "simdLg2ApproxFtzF32"
		}
		g.unaryInterleaved(name, interleave3, func(w *writer, r chunkSet, j int) {
			approxIn(w, r.a, r.t, ftz) // x
			w.f("VPSRLQ $52, %s, %s", r.a, r.t)
			w.f("VPAND expfield64v<>(SB), %s, %s", r.t, r.t)
			w.f("VPOR two52v<>(SB), %s, %s", r.t, r.t)
			w.f("VSUBPD two52v<>(SB), %s, %s", r.t, r.t)
			w.f("VSUBPD bias1023fv<>(SB), %s, %s", r.t, r.t) // e
			w.f("VPAND mant64v<>(SB), %s, %s", r.a, r.s)
			w.f("VPOR onev64<>(SB), %s, %s", r.s, r.s) // m in [1, 2)
			w.f("VCMPPD $14, sqrt2v<>(SB), %s, %s", r.s, r.z)
			w.f("VMULPD halfv64<>(SB), %s, %s", r.s, r.c)
			w.f("VBLENDVPD %s, %s, %s, %s", r.z, r.c, r.s, r.s)
			w.f("VANDPD onev64<>(SB), %s, %s", r.z, r.c)
			w.f("VADDPD %s, %s, %s", r.c, r.t, r.t)
			w.f("VSUBPD onev64<>(SB), %s, %s", r.s, r.z)
			w.f("VADDPD onev64<>(SB), %s, %s", r.s, r.c)
			w.f("VDIVPD %s, %s, %s", r.c, r.z, r.z) // s
			w.f("VMULPD %s, %s, %s", r.z, r.z, r.c) // s2
			w.f("VMOVDQU lg2c11<>(SB), %s", r.s)
			for k := 10; k >= 0; k-- {
				w.f("VFMADD213PD lg2c%d<>(SB), %s, %s", k, r.c, r.s)
			}
			w.f("VMULPD %s, %s, %s", r.z, r.s, r.s)
			w.f("VMULPD twooverln2v<>(SB), %s, %s", r.s, r.s)
			w.f("VADDPD %s, %s, %s", r.s, r.t, r.a)
			// the special lanes, from x again (in t): zeros -Inf, +Inf
			// +Inf, NaN and negative x the canonical NaN (z's mask)
			w.f("VMOVDQU %d(SI), %s", 32*j, r.t)
			approxIn(w, r.t, r.s, ftz)
			w.f("VXORPD %s, %s, %s", r.s, r.s, r.s)
			w.f("VCMPPD $0, %s, %s, %s", r.s, r.t, r.z)
			w.f("VBLENDVPD %s, neginf64v<>(SB), %s, %s", r.z, r.a, r.a)
			w.f("VCMPPD $0, inf64v<>(SB), %s, %s", r.t, r.z)
			w.f("VBLENDVPD %s, inf64v<>(SB), %s, %s", r.z, r.a, r.a)
			w.f("VCMPPD $3, %s, %s, %s", r.t, r.t, r.z)
			w.f("VCMPPD $1, %s, %s, %s", r.s, r.t, r.c) // x < 0
			w.f("VORPD %s, %s, %s", r.c, r.z, r.z)
			approxOutMask(w, r, r.z, ftz)
		})
	}
	// neg and abs: the sign bit flipped or cleared (f32: of the low half,
	// zero-extended; .ftz flushes a subnormal input first)
	for _, v := range []struct {
		name, op, mask string
		ftz, f64       bool
	}{{"simdNegF32", "VPXOR", "bias32v", false, false}, {"simdNegFtzF32", "VPXOR", "bias32v", true, false},
		{"simdAbsF32", "VPAND", "absmask32", false, false}, {"simdAbsFtzF32", "VPAND", "absmask32", true, false},
		{"simdNegF64", "VPXOR", "sign64v", false, true}, {"simdAbsF64", "VPAND", "abs64v", false, true}} {
		g.unary(v.name, func(w *writer, ya, yt string) {
			if v.ftz {
				flushF32(w, ya, yt)
			}
			w.f("%s %s<>(SB), %s, %s", v.op, v.mask, ya, ya)
			if !v.f64 {
				zext32(w, ya)
			}
		})
	}
	// integer neg, not and abs (32-bit results normalised: neg and abs
	// sign-extended, not zero-extended)
	g.unary("simdNegS32", func(w *writer, ya, yt string) {
		w.f("VPXOR %s, %s, %s", yt, yt, yt)
		w.f("VPSUBD %s, %s, %s", ya, yt, ya)
		sext32(w, ya, yt)
	})
	g.unary("simdNeg64", func(w *writer, ya, yt string) {
		w.f("VPXOR %s, %s, %s", yt, yt, yt)
		w.f("VPSUBQ %s, %s, %s", ya, yt, ya)
	})
	g.unary("simdNot32", func(w *writer, ya, yt string) { w.f("VPANDN Y15, %s, %s", ya, ya) })
	g.unary("simdNot64", func(w *writer, ya, yt string) {
		w.f("VPCMPEQQ %s, %s, %s", yt, yt, yt)
		w.f("VPXOR %s, %s, %s", yt, ya, ya)
	})
	g.unary("simdAbsS32", func(w *writer, ya, yt string) {
		w.f("VPABSD %s, %s", ya, ya)
		sext32(w, ya, yt)
	})
	g.unary("simdAbsS64", func(w *writer, ya, yt string) {
		w.f("VPXOR %s, %s, %s", yt, yt, yt)
		w.f("VPSUBQ %s, %s, Y8", ya, yt)       // -a
		w.f("VPCMPGTQ %s, %s, %s", ya, yt, yt) // a < 0
		w.f("VBLENDVPD %s, Y8, %s, %s", yt, ya, ya)
	})
	// cvt.f64.f32 (exact; NaNs quieted, their payload kept) and
	// cvt.rn.f32.f64 (rounded to nearest, NaN results the canonical NaN),
	// with .ftz flushing the f32 input or result
	for _, ftz := range []bool{false, true} {
		suffix := ""
		if ftz {
			suffix = "Ftz"
		}
		g.unary("simdCvtF64F32"+suffix, func(w *writer, ya, yt string) {
			if ftz {
				flushF32(w, ya, yt)
			}
			w.f("VMOVDQU evens<>(SB), %s", yt)
			w.f("VPERMD %s, %s, %s", ya, yt, ya)
			w.f("VCVTPS2PD X%s, %s", ya[1:], ya)
		})
		g.unary("simdCvtF32F64"+suffix, func(w *writer, ya, yt string) {
			w.f("VCVTPD2PSY %s, X%s", ya, ya[1:])
			w.f("VPMOVZXDQ X%s, %s", ya[1:], ya)
			canonF32(w, ya, yt)
			if ftz {
				flushF32(w, ya, yt)
			}
		})
	}
	// popc: per byte from a table of nibble counts (VPSHUFB), summed per
	// lane (VPSADBW); .b32 counts the low half only
	for _, wide := range []bool{false, true} {
		key, name := "popc.32", "simdPopc32"
		if wide {
			key, name = "popc.64", "simdPopc64"
		}
		g.keyedUnary(key, name, func(w *writer, ya, yt string) {
			if !wide {
				w.f("VPAND Y15, %s, %s", ya, ya)
			}
			w.f("VMOVDQU popcnib<>(SB), Y8")
			w.f("VMOVDQU lownib<>(SB), Y9")
			w.f("VPSRLW $4, %s, %s", ya, yt)
			w.f("VPAND Y9, %s, %s", yt, yt)
			w.f("VPAND Y9, %s, %s", ya, ya)
			w.f("VPSHUFB %s, Y8, %s", ya, ya)
			w.f("VPSHUFB %s, Y8, %s", yt, yt)
			w.f("VPADDB %s, %s, %s", yt, ya, ya)
			w.f("VPXOR %s, %s, %s", yt, yt, yt)
			w.f("VPSADBW %s, %s, %s", yt, ya, ya)
		})
	}
	// clz.b32: 31 less the exponent of the low half as an f64 (exact:
	// 2^52 + x less 2^52), 32 for zero
	g.keyedUnary("clz.32", "simdClz32", func(w *writer, ya, yt string) {
		w.f("VPAND Y15, %s, %s", ya, ya)
		w.f("VPOR two52v<>(SB), %s, %s", ya, ya)
		w.f("VSUBPD two52v<>(SB), %s, %s", ya, ya)
		w.f("VPSRLQ $52, %s, %s", ya, ya) // 1023 + e, or 0 for zero
		w.f("VMOVDQU clzbase<>(SB), %s", yt)
		w.f("VPSUBQ %s, %s, %s", ya, yt, yt) // 1054 - (1023 + e) = 31 - e
		w.f("VPXOR Y8, Y8, Y8")
		w.f("VPCMPEQQ Y8, %s, Y8", ya)
		w.f("VBLENDVPD Y8, thirtytwo<>(SB), %s, %s", yt, ya)
	})
	// bfind on 32 bits (int_misc.go's bfind): a negative .s32 value's
	// complement; the exponent of the low half as an f64 (clz's trick) is
	// the highest set bit's position, 31 less it with .shiftamt, and a
	// zero has none (0xffffffff: Y15's low half)
	for _, v := range []struct {
		key, name        string
		signed, shiftamt bool
	}{{"bfind.u32", "simdBfindU32", false, false}, {"bfind.s32", "simdBfindS32", true, false},
		{"bfind.shiftamt.u32", "simdBfindShiftU32", false, true}, {"bfind.shiftamt.s32", "simdBfindShiftS32", true, true}} {
		signed, shiftamt := v.signed, v.shiftamt
		g.keyedUnary(v.key, v.name, func(w *writer, ya, yt string) {
			if signed {
				w.f("VPSRAD $31, %s, %s", ya, yt)
				w.f("VPXOR %s, %s, %s", yt, ya, ya)
			}
			w.f("VPAND Y15, %s, %s", ya, ya)
			w.f("VPOR two52v<>(SB), %s, %s", ya, ya)
			w.f("VSUBPD two52v<>(SB), %s, %s", ya, ya)
			w.f("VPSRLQ $52, %s, %s", ya, ya) // 1023 + e, or 0 for zero
			w.f("VPXOR Y8, Y8, Y8")
			w.f("VPCMPEQQ Y8, %s, Y8", ya)
			if shiftamt {
				w.f("VMOVDQU clzbase<>(SB), %s", yt)
				w.f("VPSUBQ %s, %s, %s", ya, yt, yt) // 1054 - (1023 + e) = 31 - e
			} else {
				w.f("VPSUBQ bias1023v<>(SB), %s, %s", ya, yt)
			}
			w.f("VBLENDVPD Y8, Y15, %s, %s", yt, ya)
		})
	}
	// brev.b32: each byte's bits reversed (two nibble tables), the four
	// bytes of the low half in reverse order, the upper half zero
	g.keyedUnary("brev.32", "simdBrev32", func(w *writer, ya, yt string) {
		w.f("VMOVDQU lownib<>(SB), Y9")
		w.f("VPSRLW $4, %s, %s", ya, yt)
		w.f("VPAND Y9, %s, %s", yt, yt)
		w.f("VPAND Y9, %s, %s", ya, ya)
		w.f("VMOVDQU revnib<>(SB), Y8")
		w.f("VPSHUFB %s, Y8, %s", ya, ya) // low nibble reversed, to the high nibble
		w.f("VPSLLW $4, %s, %s", ya, ya)
		w.f("VPAND hinib<>(SB), %s, %s", ya, ya)
		w.f("VPSHUFB %s, Y8, %s", yt, yt) // high nibble reversed, to the low nibble
		w.f("VPOR %s, %s, %s", yt, ya, ya)
		w.f("VPSHUFB brevbytes<>(SB), %s, %s", ya, ya)
	})
	// sqrt.rn.f64 and rcp.rn.f64: IEEE square root and 1/x; NaN results
	// as f64Body's (the NaN operand quieted, else the canonical NaN)
	for _, v := range []struct {
		key, name string
		rcp       bool
	}{{"sqrt.f64", "simdSqrtF64", false}, {"rcp.f64", "simdRcpF64", true}} {
		chunk := 0
		g.keyedUnary(v.key, v.name, func(w *writer, ya, yt string) {
			if v.rcp {
				w.f("VBROADCASTSD one64<>(SB), %s", yt)
				w.f("VDIVPD %s, %s, %s", ya, yt, yt)
			} else {
				w.f("VSQRTPD %s, %s", ya, yt)
			}
			nanFix64(w, []string{ya}, yt, "Y14", fmt.Sprintf("c%d", chunk))
			chunk++
		})
	}
	g.unary("simdRcpF32", func(w *writer, ya, yt string) {
		w.f("VBROADCASTSS one32<>(SB), %s", yt)
		w.f("VDIVPS %s, %s, %s", ya, yt, ya)
		canonF32(w, ya, yt)
	})
	g.ternary("simdFmaF32", fmaF32)
	// shf: the funnel of b (upper half) and a (lower) shifted by c, masked
	// to 31 (wrap) or limited to 32 (clamp); the upper half of the left
	// shift, the lower half of the right one
	for _, v := range []struct {
		name        string
		left, clamp bool
	}{{"simdShfLWrap", true, false}, {"simdShfRWrap", false, false}, {"simdShfLClamp", true, true}, {"simdShfRClamp", false, true}} {
		g.ternary(v.name, func(w *writer, ya, yb, yt string, j int) {
			w.f("VPSLLQ $32, %s, %s", yb, yb)
			w.f("VPBLENDD $0x55, %s, %s, %s", ya, yb, ya) // b:a
			w.f("VMOVDQU %d(CX), %s", 32*j, yt)
			if v.clamp {
				w.f("VPBROADCASTD shfclamp<>(SB), Y12")
				w.f("VPMINUD Y12, %s, %s", yt, yt)
				w.f("VPAND Y15, %s, %s", yt, yt)
			} else {
				w.f("VPAND shfwrap<>(SB), %s, %s", yt, yt)
			}
			if v.left {
				w.f("VPSLLVQ %s, %s, %s", yt, ya, ya)
				w.f("VPSRLQ $32, %s, %s", ya, ya)
			} else {
				w.f("VPSRLVQ %s, %s, %s", yt, ya, ya)
				zext32(w, ya)
			}
		})
	}
	g.ternary("simdMadZ32", func(w *writer, ya, yb, yt string, j int) {
		w.f("VPMULLD %s, %s, %s", yb, ya, ya)
		w.f("VPADDD %d(CX), %s, %s", 32*j, ya, ya)
		zext32(w, ya)
	})
	g.ternary("simdMadS32", func(w *writer, ya, yb, yt string, j int) {
		w.f("VPMULLD %s, %s, %s", yb, ya, ya)
		w.f("VPADDD %d(CX), %s, %s", 32*j, ya, ya)
		sext32(w, ya, yt)
	})
	// mad.lo of 64-bit lanes: mul.64's low product and cross products
	// (above), plus c
	g.ternary("simdMad64", func(w *writer, ya, yb, yt string, j int) {
		w.f("VPSRLQ $32, %s, %s", ya, yt)
		w.f("VPMULUDQ %s, %s, %s", yb, yt, yt)
		w.f("VPSRLQ $32, %s, Y12", yb)
		w.f("VPMULUDQ %s, Y12, Y12", ya)
		w.f("VPADDQ Y12, %s, %s", yt, yt)
		w.f("VPSLLQ $32, %s, %s", yt, yt)
		w.f("VPMULUDQ %s, %s, %s", yb, ya, ya)
		w.f("VPADDQ %s, %s, %s", yt, ya, ya)
		w.f("VPADDQ %d(CX), %s, %s", 32*j, ya, ya)
	})
	// dp4a (an int8 dot product): each lane's four bytes of a and of b
	// widened to 16 bits (sign or zero, by type), VPMADDWD's two sums of
	// two products per lane (exact: at most 2 * 255 * 255) added, plus c,
	// modulo 2^32; .s32 unless both types are .u32
	for _, v := range []struct{ key, name, a, b string }{
		{"dp4a.s32.s32", "simdDp4aSS", "VPMOVSXBW", "VPMOVSXBW"}, {"dp4a.s32.u32", "simdDp4aSU", "VPMOVSXBW", "VPMOVZXBW"},
		{"dp4a.u32.s32", "simdDp4aUS", "VPMOVZXBW", "VPMOVSXBW"}, {"dp4a.u32.u32", "simdDp4aUU", "VPMOVZXBW", "VPMOVZXBW"}} {
		g.keyedTernary(v.key, v.name, "", func(w *writer, ya, yb, yt string, j int) {
			w.f("VMOVDQU evens<>(SB), Y12")
			w.f("VPERMD %s, Y12, %s", ya, ya)
			w.f("VPERMD %s, Y12, %s", yb, yb)
			w.f("%s X%s, %s", v.a, ya[1:], ya)
			w.f("%s X%s, %s", v.b, yb[1:], yb)
			w.f("VPMADDWD %s, %s, %s", yb, ya, ya)
			w.f("VPSRLQ $32, %s, %s", ya, yt)
			w.f("VPADDD %s, %s, %s", yt, ya, ya)
			addC32(w, ya, yt, j, v.key != "dp4a.u32.u32")
		})
	}
	// sad.u32/s32: c + |a - b| (the greater minus the lesser), modulo 2^32
	for _, v := range []struct{ key, name, max, min string }{
		{"sad.u32", "simdSadU32", "VPMAXUD", "VPMINUD"}, {"sad.s32", "simdSadS32", "VPMAXSD", "VPMINSD"}} {
		g.keyedTernary(v.key, v.name, "", func(w *writer, ya, yb, yt string, j int) {
			w.f("%s %s, %s, %s", v.max, yb, ya, yt)
			w.f("%s %s, %s, %s", v.min, yb, ya, ya)
			w.f("VPSUBD %s, %s, %s", ya, yt, ya)
			addC32(w, ya, yt, j, v.key != "sad.u32")
		})
	}
	// mad.wide.u32/s32: the 64-bit product of the low halves plus c
	g.ternary("simdMadWideU32", func(w *writer, ya, yb, yt string, j int) {
		w.f("VPMULUDQ %s, %s, %s", yb, ya, ya)
		w.f("VPADDQ %d(CX), %s, %s", 32*j, ya, ya)
	})
	g.ternary("simdMadWideS32", func(w *writer, ya, yb, yt string, j int) {
		w.f("VPMULDQ %s, %s, %s", yb, ya, ya)
		w.f("VPADDQ %d(CX), %s, %s", 32*j, ya, ya)
	})
	// integer compares: a 32-bit result in a lane's low half is moved to
	// its sign bit; unsigned order is signed order after flipping the sign
	g.compare("simdEq32", func(w *writer, ya, yt string, off int) {
		w.f("VMOVDQU %d(SI), %s", off, ya)
		w.f("VPXOR %d(DX), %s, %s", off, ya, ya)
		w.f("VPSLLQ $32, %s, %s", ya, ya)
		w.f("VPCMPEQQ Y11, %s, %s", ya, yt)
	})
	g.compare("simdLtS32", func(w *writer, ya, yt string, off int) {
		w.f("VMOVDQU %d(DX), %s", off, ya)
		w.f("VPCMPGTD %d(SI), %s, %s", off, ya, yt)
		w.f("VPSLLQ $32, %s, %s", yt, yt)
	})
	g.compare("simdLtU32", func(w *writer, ya, yt string, off int) {
		w.f("VPBROADCASTD bias32<>(SB), Y10")
		w.f("VPXOR %d(DX), Y10, %s", off, ya)
		w.f("VPXOR %d(SI), Y10, %s", off, yt)
		w.f("VPCMPGTD %s, %s, %s", yt, ya, yt)
		w.f("VPSLLQ $32, %s, %s", yt, yt)
	})
	// 16-bit compares (setp .u16/.s16/.b16): a row holds its value zero-
	// or sign-extended, either way, so only the low 16 bits count: shifted
	// to the top of the lane for eq and signed order, masked to 0..0xffff
	// (non-negative 64-bit values) for unsigned order
	g.compare("simdEq16", func(w *writer, ya, yt string, off int) {
		w.f("VMOVDQU %d(SI), %s", off, ya)
		w.f("VPXOR %d(DX), %s, %s", off, ya, ya)
		w.f("VPSLLQ $48, %s, %s", ya, ya)
		w.f("VPCMPEQQ Y11, %s, %s", ya, yt)
	})
	g.compare("simdLtS16", func(w *writer, ya, yt string, off int) {
		w.f("VMOVDQU %d(DX), %s", off, ya)
		w.f("VMOVDQU %d(SI), %s", off, yt)
		w.f("VPSLLQ $48, %s, %s", ya, ya)
		w.f("VPSLLQ $48, %s, %s", yt, yt)
		w.f("VPCMPGTQ %s, %s, %s", yt, ya, yt)
	})
	g.compare("simdLtU16", func(w *writer, ya, yt string, off int) {
		w.f("VMOVDQU low16v<>(SB), Y10")
		w.f("VPAND %d(DX), Y10, %s", off, ya)
		w.f("VPAND %d(SI), Y10, %s", off, yt)
		w.f("VPCMPGTQ %s, %s, %s", yt, ya, yt)
	})
	g.compare("simdEq64", func(w *writer, ya, yt string, off int) {
		w.f("VMOVDQU %d(SI), %s", off, ya)
		w.f("VPCMPEQQ %d(DX), %s, %s", off, ya, yt)
	})
	g.compare("simdLtS64", func(w *writer, ya, yt string, off int) {
		w.f("VMOVDQU %d(DX), %s", off, ya)
		w.f("VPCMPGTQ %d(SI), %s, %s", off, ya, yt)
	})
	g.compare("simdLtU64", func(w *writer, ya, yt string, off int) {
		w.f("VPBROADCASTQ bias64<>(SB), Y10")
		w.f("VPXOR %d(DX), Y10, %s", off, ya)
		w.f("VPXOR %d(SI), Y10, %s", off, yt)
		w.f("VPCMPGTQ %s, %s, %s", yt, ya, yt)
	})
	var preds []string
	for p := range f32Preds {
		preds = append(preds, p)
	}
	sort.Strings(preds)
	for _, p := range preds { // f64: the same predicates, a lane per 64 bits
		name := "simdCmpF64" + strings.ToUpper(p[:1]) + p[1:]
		imm := f32Preds[p]
		g.compare(name, func(w *writer, ya, yt string, off int) {
			w.f("VMOVDQU %d(SI), %s", off, ya)
			w.f("VCMPPD $%d, %d(DX), %s, %s", imm, off, ya, yt)
		})
	}
	f32cmp := map[string]string{}
	for _, p := range preds {
		name := "simdCmpF32" + strings.ToUpper(p[:1]) + p[1:]
		f32cmp[p] = name
		imm := f32Preds[p]
		g.compare(name, func(w *writer, ya, yt string, off int) {
			w.f("VMOVDQU %d(SI), %s", off, ya)
			w.f("VCMPPS $%d, %d(DX), %s, %s", imm, off, ya, yt)
			w.f("VPSLLQ $32, %s, %s", yt, yt)
		})
	}
	// setp.ftz.f32: the same on flushed operands (b in Y10)
	for _, p := range preds {
		name := "simdCmpFtzF32" + strings.ToUpper(p[:1]) + p[1:]
		imm := f32Preds[p]
		g.compare(name, func(w *writer, ya, yt string, off int) {
			w.f("VMOVDQU %d(SI), %s", off, ya)
			w.f("VMOVDQU %d(DX), Y10", off)
			flushF32(w, ya, yt)
			flushF32(w, "Y10", yt)
			w.f("VCMPPS $%d, Y10, %s, %s", imm, ya, yt)
			w.f("VPSLLQ $32, %s, %s", yt, yt)
		})
	}

	g.traceMemory()
	g.segmentBodies()
	g.traceSetp()
	g.traceSelp()
	g.tracePack()
	g.tracePredLogic()
	g.traceShfl()
	g.loopTrace() // (before trace, which lists the bodies)
	g.trace()
	g.segmentTrace()
	g.memory()
	g.vectorLoads()
	g.selp()
	g.allSame()
	g.allBelow()
	g.fill()
	g.scheduler()

	// the Go side
	var gb bytes.Buffer
	gb.WriteString("// Code generated by simdgen; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\npackage exec\n\nimport \"unsafe\"\n\n")
	gb.WriteString("func cpuid(eax, ecx uint32) (a, b, c, d uint32)\nfunc xgetbv0() uint32\n\n")
	for _, d := range g.decls {
		fmt.Fprintf(&gb, "//go:noescape\nfunc %s%s\n\n", d.name, d.sig)
	}
	var keys []string
	for k := range g.table {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	gb.WriteString("// simdBinaryLoops: the binary loops by operation and element kind.\nvar simdBinaryLoops = map[string]vecBin{\n")
	for _, k := range keys {
		n := g.table[k]
		fmt.Fprintf(&gb, "%q: {%s, %s, %s, %s},\n", k, n[0], n[1], n[2], n[3])
	}
	gb.WriteString("}\n\n// simdBodies: the loops simdTrace can run, in its table's order.\nvar simdBodies = []any{\n")
	for _, b := range g.bodies {
		if strings.HasPrefix(b, "simdTrace") {
			b += "_b" // a memory body: no loop outside traces
		}
		fmt.Fprintf(&gb, "%s,\n", b)
	}
	gb.WriteString("}\n\n// simdMemBodies: the trace's memory-access bodies by kind.\nvar simdMemBodies = map[string]uint64{\n")
	var mkeys []string
	for k := range g.memBodies {
		mkeys = append(mkeys, k)
	}
	sort.Strings(mkeys)
	for _, k := range mkeys {
		fmt.Fprintf(&gb, "%q: %d,\n", k, g.memBodies[k])
	}
	gb.WriteString("}\n\n// simdF32Compares: setp.f32's comparisons by operator.\nvar simdF32Compares = map[string]func(a, b *lanes) uint32{\n")
	for _, p := range preds {
		fmt.Fprintf(&gb, "%q: %s,\n", "."+p, f32cmp[p])
	}
	gb.WriteString("}\n\n// simdF64Compares: setp.f64's comparisons by operator.\nvar simdF64Compares = map[string]func(a, b *lanes) uint32{\n")
	for _, p := range preds {
		fmt.Fprintf(&gb, "%q: simdCmpF64%s,\n", "."+p, strings.ToUpper(p[:1])+p[1:])
	}
	gb.WriteString("}\n\n// simdF32FtzCompares: setp.ftz.f32's comparisons by operator.\nvar simdF32FtzCompares = map[string]func(a, b *lanes) uint32{\n")
	for _, p := range preds {
		fmt.Fprintf(&gb, "%q: simdCmpFtzF32%s,\n", "."+p, strings.ToUpper(p[:1])+p[1:])
	}
	keyed := func(title string, m map[string]string) {
		gb.WriteString(title)
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			fmt.Fprintf(&gb, "%q: %s,\n", k, m[k])
		}
	}
	keyed("}\n\n// simdKeyedUnary: unary loops by operation (simdUnary).\nvar simdKeyedUnary = map[string]func(d, a *lanes){\n", g.keyedUn)
	keyed("}\n\n// simdKeyedTernary: ternary loops by operation (simdTernary).\nvar simdKeyedTernary = map[string]func(d, a, b, c *lanes){\n", g.keyedTer)
	gb.WriteString("}\n")
	src, err := format.Source(gb.Bytes())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*sOut, g.s.b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*goOut, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// narrowInts are the 8- and 16-bit integer types, with their least and
// greatest values (cvt's clamps).
var narrowInts = []struct {
	name   string
	lo, hi float32
}{{"S8", -128, 127}, {"U8", 0, 255}, {"S16", -32768, 32767}, {"U16", 0, 65535}}
