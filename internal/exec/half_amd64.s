//go:build amd64 && !purego

#include "textflag.h"

// Whole-warp loops of add, sub, mul and fma.rn on .f16 and .f16x2 lanes
// with F16C (half_amd64.go says when they run and why they round as
// half.go's lane functions do). Each lane is a uint64 holding one half in
// bits 0-15 (.f16; the bits above are ignored) or two in bits 0-31
// (.f16x2); results are zero-extended. NaN results are the canonical NaN
// 0x7fff.

// hevens: VPERMD's indices of the low doublewords of four quadwords.
DATA hevens<>+0(SB)/4, $0
DATA hevens<>+4(SB)/4, $2
DATA hevens<>+8(SB)/4, $4
DATA hevens<>+12(SB)/4, $6
DATA hevens<>+16(SB)/4, $0
DATA hevens<>+20(SB)/4, $2
DATA hevens<>+24(SB)/4, $4
DATA hevens<>+28(SB)/4, $6
GLOBL hevens<>(SB), RODATA|NOPTR, $32

DATA hlow16<>+0(SB)/4, $0x0000ffff
GLOBL hlow16<>(SB), RODATA|NOPTR, $4

// hnan: the canonical NaN and the magnitude mask (0x7fff); hinf: 0x7c00.
DATA hnan<>+0(SB)/2, $0x7fff
GLOBL hnan<>(SB), RODATA|NOPTR, $2
DATA hinf<>+0(SB)/2, $0x7c00
GLOBL hinf<>(SB), RODATA|NOPTR, $2

DATA habs64<>+0(SB)/8, $0x7fffffffffffffff
GLOBL habs64<>(SB), RODATA|NOPTR, $8

// HSETUP loads the constants: Y15 the indices, X14 the 16-bit mask, X13
// 0x7fff and X12 0x7c00 in every word, Y11 the float64 magnitude mask.
#define HSETUP \
	VMOVDQU hevens<>(SB), Y15; \
	VPBROADCASTD hlow16<>(SB), X14; \
	VPBROADCASTW hnan<>(SB), X13; \
	VPBROADCASTW hinf<>(SB), X12; \
	VBROADCASTSD habs64<>(SB), Y11

// LOAD1 converts the halves of the eight lanes at src (one a lane) to
// eight float32s in y (t a scratch register; x and t the XMM halves of y
// and of t).
#define LOAD1(src, y, x, t, tx) \
	VPERMD 0(src), Y15, y; \
	VPERMD 32(src), Y15, t; \
	VPAND X14, x, x; \
	VPAND X14, tx, tx; \
	VPACKUSDW tx, x, x; \
	VCVTPH2PS x, y

// LOAD2 converts the halves of the four lanes at src (two a lane) to eight
// float32s in y.
#define LOAD2(src, y, x) \
	VPERMD 0(src), Y15, y; \
	VCVTPH2PS x, y

// ROUND rounds the eight float32s in Y0 to halves in X0, NaNs canonical
// (X4 scratch).
#define ROUND \
	VCVTPS2PH $0, Y0, X0; \
	VPAND X13, X0, X4; \
	VPCMPGTW X12, X4, X4; \
	VPBLENDVB X4, X13, X0, X0

// STORE1 writes the eight halves in X0 to the eight lanes at DI.
#define STORE1 \
	VPMOVZXWQ X0, Y1; \
	VPSRLDQ $8, X0, X0; \
	VPMOVZXWQ X0, Y0; \
	VMOVDQU Y1, 0(DI); \
	VMOVDQU Y0, 32(DI)

// STORE2 writes the eight halves in X0 to the four lanes at DI.
#define STORE2 \
	VPMOVZXDQ X0, Y0; \
	VMOVDQU Y0, 0(DI)

// BIN1 and BIN2 are the loops of a binary operation (op: Y0 = Y0 op Y2).
#define BIN1(op) \
	HSETUP; \
	MOVQ $4, CX; \
	loop:; \
	LOAD1(SI, Y0, X0, Y1, X1); \
	LOAD1(DX, Y2, X2, Y3, X3); \
	op Y2, Y0, Y0; \
	ROUND; \
	STORE1; \
	ADDQ $64, SI; \
	ADDQ $64, DX; \
	ADDQ $64, DI; \
	DECQ CX; \
	JNZ loop; \
	VZEROUPPER; \
	RET

#define BIN2(op) \
	HSETUP; \
	MOVQ $8, CX; \
	loop:; \
	LOAD2(SI, Y0, X0); \
	LOAD2(DX, Y2, X2); \
	op Y2, Y0, Y0; \
	ROUND; \
	STORE2; \
	ADDQ $32, SI; \
	ADDQ $32, DX; \
	ADDQ $32, DI; \
	DECQ CX; \
	JNZ loop; \
	VZEROUPPER; \
	RET

// func halfAddVec1(d, a, b *lanes)
TEXT ·halfAddVec1(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	BIN1(VADDPS)

// func halfSubVec1(d, a, b *lanes)
TEXT ·halfSubVec1(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	BIN1(VSUBPS)

// func halfMulVec1(d, a, b *lanes)
TEXT ·halfMulVec1(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	BIN1(VMULPS)

// func halfAddVec2(d, a, b *lanes)
TEXT ·halfAddVec2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	BIN2(VADDPS)

// func halfSubVec2(d, a, b *lanes)
TEXT ·halfSubVec2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	BIN2(VSUBPS)

// func halfMulVec2(d, a, b *lanes)
TEXT ·halfMulVec2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	BIN2(VMULPS)

// FMA4 computes a*b + c in float64 on the four float32s (exact halves) in
// xa, xb, xc, and rounds the sum to float32 by round-to-odd into xd: the
// nearest-even float32 when exact, else the float32 toward zero with its
// last bit set. Rounding that to a half (24 >= 11+2 bits) is the half
// nearest the float64 sum. Scratch: Y5-Y10.
#define FMA4(xa, xb, xc, xd) \
	VCVTPS2PD xa, Y5; \
	VCVTPS2PD xb, Y6; \
	VCVTPS2PD xc, Y7; \
	VMULPD Y6, Y5, Y5; \
	VADDPD Y7, Y5, Y5; \
	VCVTPD2PSY Y5, xd; \
	VCVTPS2PD xd, Y6; \
	VCMPPD $4, Y6, Y5, Y7; \
	VANDPD Y11, Y5, Y8; \
	VANDPD Y11, Y6, Y9; \
	VCMPPD $0x1e, Y8, Y9, Y10; \
	VPERMD Y7, Y15, Y7; \
	VPERMD Y10, Y15, Y10; \
	VPADDD X10, xd, xd; \
	VPSRLD $31, X7, X7; \
	VPOR X7, xd, xd

// FMA8 is FMA4 on the eight float32s in Y0, Y2, Y3, the result in Y0
// (X1 and Y4 scratch besides FMA4's).
#define FMA8 \
	FMA4(X0, X2, X3, X1); \
	VEXTRACTF128 $1, Y0, X0; \
	VEXTRACTF128 $1, Y2, X2; \
	VEXTRACTF128 $1, Y3, X3; \
	FMA4(X0, X2, X3, X4); \
	VINSERTF128 $1, X4, Y1, Y0

// func halfFmaVec1(d, a, b, c *lanes)
TEXT ·halfFmaVec1(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ c+24(FP), BX
	HSETUP
	MOVQ $4, CX
fma1:
	LOAD1(BX, Y3, X3, Y1, X1)
	LOAD1(DX, Y2, X2, Y1, X1)
	LOAD1(SI, Y0, X0, Y1, X1)
	FMA8
	ROUND
	STORE1
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, BX
	ADDQ $64, DI
	DECQ CX
	JNZ fma1
	VZEROUPPER
	RET

// func halfFmaVec2(d, a, b, c *lanes)
TEXT ·halfFmaVec2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ c+24(FP), BX
	HSETUP
	MOVQ $8, CX
fma2:
	LOAD2(BX, Y3, X3)
	LOAD2(DX, Y2, X2)
	LOAD2(SI, Y0, X0)
	FMA8
	ROUND
	STORE2
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, BX
	ADDQ $32, DI
	DECQ CX
	JNZ fma2
	VZEROUPPER
	RET

// CVT8 converts the float32s in bits 0-31 of the eight lanes at SI to
// halves in X0, rounded to nearest even, NaNs canonical (Y1 scratch).
#define CVT8 \
	VPERMD 0(SI), Y15, Y0; \
	VPERMD 32(SI), Y15, Y1; \
	VINSERTF128 $1, X1, Y0, Y0; \
	ROUND

// func halfCvtPairVec(d, a, b *lanes): cvt.rn.f16x2.f32 d, a, b: a's half
// in bits 16-31, b's in bits 0-15.
TEXT ·halfCvtPairVec(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), DX
	MOVQ b+16(FP), SI
	HSETUP
	MOVQ $4, CX
cvt2:
	CVT8
	VMOVDQA X0, X6
	XCHGQ SI, DX
	CVT8
	XCHGQ SI, DX
	VPUNPCKLWD X0, X6, X1
	VPUNPCKHWD X0, X6, X2
	VPMOVZXDQ X1, Y1
	VPMOVZXDQ X2, Y2
	VMOVDQU Y1, 0(DI)
	VMOVDQU Y2, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	DECQ CX
	JNZ cvt2
	VZEROUPPER
	RET

