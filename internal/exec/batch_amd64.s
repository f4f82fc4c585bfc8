//go:build amd64 && !purego

#include "textflag.h"

// The loops' shared parts. Each function below loads its arguments into
// the registers its comment names, then runs them; a macro's labels are
// the function's (labels are per TEXT), so two functions may use one.

// STORE8Y stores Y0..Y7 to 256 consecutive bytes from DI on.
#define STORE8Y \
	VMOVDQU Y0, 0(DI); \
	VMOVDQU Y1, 32(DI); \
	VMOVDQU Y2, 64(DI); \
	VMOVDQU Y3, 96(DI); \
	VMOVDQU Y4, 128(DI); \
	VMOVDQU Y5, 160(DI); \
	VMOVDQU Y6, 192(DI); \
	VMOVDQU Y7, 224(DI)

// ROWS32N(EXT) is batchLoadZ32N's loop, EXT its widening (VPMOVZXDQ or
// VPMOVSXDQ): CX blocks of 32 uint32 values from SI on to rows from DI
// on, DX bytes apart, prefetching R8 bytes after SI.
#define ROWS32N(EXT) \
loop: \
	PREFETCHT0 0(SI)(R8*1); \
	PREFETCHT0 64(SI)(R8*1); \
	EXT 0(SI), Y0; \
	EXT 16(SI), Y1; \
	EXT 32(SI), Y2; \
	EXT 48(SI), Y3; \
	EXT 64(SI), Y4; \
	EXT 80(SI), Y5; \
	EXT 96(SI), Y6; \
	EXT 112(SI), Y7; \
	STORE8Y; \
	ADDQ $128, SI; \
	ADDQ DX, DI; \
	DECQ CX; \
	JNZ loop

// COPY256N(MEM, ROW) copies CX blocks of 256 bytes from SI to DI, one of
// them memory (MEM: consecutive blocks, prefetched R8 bytes on), the
// other rows DX bytes apart (ROW).
#define COPY256N(MEM, ROW) \
loop: \
	PREFETCHT0 0(MEM)(R8*1); \
	PREFETCHT0 64(MEM)(R8*1); \
	PREFETCHT0 128(MEM)(R8*1); \
	PREFETCHT0 192(MEM)(R8*1); \
	VMOVDQU 0(SI), Y0; \
	VMOVDQU 32(SI), Y1; \
	VMOVDQU 64(SI), Y2; \
	VMOVDQU 96(SI), Y3; \
	VMOVDQU 128(SI), Y4; \
	VMOVDQU 160(SI), Y5; \
	VMOVDQU 192(SI), Y6; \
	VMOVDQU 224(SI), Y7; \
	STORE8Y; \
	ADDQ $256, MEM; \
	ADDQ DX, ROW; \
	DECQ CX; \
	JNZ loop

// NARROW8(A, B, YA, YB, DST) stores the low halves of the four slots at
// A and the four at B as eight consecutive uint32 values to DST (YA, YB
// scratch).
#define NARROW8(A, B, YA, YB, DST) \
	VMOVDQU A, YA; \
	VMOVDQU B, YB; \
	VSHUFPS $0x88, YB, YA, YA; \
	VPERMQ $0xD8, YA, YA; \
	VMOVDQU YA, DST

// PACK4(Y, X, DST) stores the low halves of Y's four slots, as four
// consecutive uint32 values, to DST (X: Y's low half).
#define PACK4(Y, X, DST) \
	VPERMILPS $0x88, Y, Y; \
	VPERMQ $0x08, Y, Y; \
	VMOVDQU X, DST

// TRANSPOSE4 transposes the 4x4 64-bit slots of Y0..Y3 (Y4..Y7 scratch):
// Y0 then holds the first slots of Y0..Y3, Y1 the second, and so on.
#define TRANSPOSE4 \
	VPUNPCKLQDQ Y1, Y0, Y4; \
	VPUNPCKHQDQ Y1, Y0, Y5; \
	VPUNPCKLQDQ Y3, Y2, Y6; \
	VPUNPCKHQDQ Y3, Y2, Y7; \
	VPERM2I128 $0x20, Y6, Y4, Y0; \
	VPERM2I128 $0x31, Y6, Y4, Y2; \
	VPERM2I128 $0x20, Y7, Y5, Y1; \
	VPERM2I128 $0x31, Y7, Y5, Y3

// CONSEC8(OFF) sets eight slots of the row at DI+2*OFF from the eight
// consecutive uint32 values at SI plus the offset at DX+OFF (zero-
// extended; AX, Y3, Y4 scratch).
#define CONSEC8(OFF) \
	MOVLQZX (OFF)(DX), AX; \
	VPMOVZXDQ (SI)(AX*1), Y3; \
	VPMOVZXDQ 16(SI)(AX*1), Y4; \
	VMOVDQU Y3, (2*OFF)(DI); \
	VMOVDQU Y4, (2*OFF+32)(DI)

// PFCHUNK(OFF) prefetches the line R8 bytes after the chunk at SI plus
// the offset at DX+OFF (AX, CX scratch).
#define PFCHUNK(OFF) \
	MOVLQZX (OFF)(DX), AX; \
	LEAQ (SI)(AX*1), CX; \
	PREFETCHT0 (CX)(R8*1)

// CONSEC8PF(OFF) is CONSEC8 prefetching the line R8 bytes after the
// values.
#define CONSEC8PF(OFF) \
	PFCHUNK(OFF); \
	CONSEC8(OFF)

// BCAST8(OFF) sets eight slots of the row at DI+2*OFF to the uint32 at SI
// plus the offset at DX+OFF (zero-extended; AX, X0, Y3 scratch).
#define BCAST8(OFF) \
	MOVLQZX (OFF)(DX), AX; \
	MOVLQZX (SI)(AX*1), AX; \
	VMOVQ AX, X0; \
	VPBROADCASTQ X0, Y3; \
	VMOVDQU Y3, (2*OFF)(DI); \
	VMOVDQU Y3, (2*OFF+32)(DI)

// CONSEC64(OFF) sets eight slots of the row at DI+2*OFF to the eight
// consecutive uint64s at SI plus the offset at DX+OFF (AX, Y3, Y4
// scratch).
#define CONSEC64(OFF) \
	MOVLQZX (OFF)(DX), AX; \
	VMOVDQU (SI)(AX*1), Y3; \
	VMOVDQU 32(SI)(AX*1), Y4; \
	VMOVDQU Y3, (2*OFF)(DI); \
	VMOVDQU Y4, (2*OFF+32)(DI)

// CONSEC64PF(OFF) is CONSEC64 prefetching the line R8 bytes after the
// values.
#define CONSEC64PF(OFF) \
	PFCHUNK(OFF); \
	CONSEC64(OFF)

// BCAST64(OFF) sets eight slots of the row at DI+2*OFF to the uint64 at
// SI plus the offset at DX+OFF (AX, Y3 scratch).
#define BCAST64(OFF) \
	MOVLQZX (OFF)(DX), AX; \
	VPBROADCASTQ (SI)(AX*1), Y3; \
	VMOVDQU Y3, (2*OFF)(DI); \
	VMOVDQU Y3, (2*OFF+32)(DI)

// CHUNKSNK(CONSEC, BCAST) is batchChunks32NK's and batchChunks64NK's body:
// every chunk of each warp's plan by CONSEC (the PF ones prefetching pf
// bytes on, from R8), or by BCAST (bcast true), CTA after CTA.
#define CHUNKSNK(CONSEC, BCAST) \
	MOVQ row+0(FP), DI; \
	MOVQ rowStride+8(FP), R9; \
	MOVQ base+16(FP), SI; \
	MOVQ baseStride+24(FP), R10; \
	MOVQ offs+32(FP), DX; \
	MOVBQZX bcast+40(FP), BX; \
	MOVQ wpc+48(FP), R11; \
	MOVQ ctas+56(FP), R12; \
	MOVQ pf+64(FP), R8; \
	TESTQ R12, R12; \
	JZ   kdone; \
	TESTQ R11, R11; \
	JZ   kdone; \
kctas: \
	MOVQ R11, R13; \
kwarp: \
	TESTQ BX, BX; \
	JNZ  kbcast; \
	CONSEC(0); \
	CONSEC(32); \
	CONSEC(64); \
	CONSEC(96); \
	JMP  knext; \
kbcast: \
	BCAST(0); \
	BCAST(32); \
	BCAST(64); \
	BCAST(96); \
knext: \
	ADDQ $128, DX; \
	ADDQ R9, DI; \
	DECQ R13; \
	JNZ  kwarp; \
	MOVQ R11, AX; \
	SHLQ $7, AX; \
	SUBQ AX, DX; \
	ADDQ R10, SI; \
	DECQ R12; \
	JNZ  kctas; \
kdone: \
	VZEROUPPER; \
	RET

// CHUNKS32 is batchChunks32's loop: the four chunks of eight lanes of the
// row at DI, kinds from R8, offsets from DX, memory at SI (CX, AX, Y0..Y4
// scratch).
#define CHUNKS32 \
	MOVQ $4, CX; \
chunk: \
	MOVBQZX (R8), AX; \
	CMPQ AX, $1; \
	JEQ consec; \
	CMPQ AX, $2; \
	JEQ bcast; \
	VMOVDQU (DX), Y1; \
	VPCMPEQD Y2, Y2, Y2; \
	VPXOR Y0, Y0, Y0; \
	VPGATHERDD Y2, (SI)(Y1*1), Y0; \
	VPMOVZXDQ X0, Y3; \
	VEXTRACTI128 $1, Y0, X4; \
	VPMOVZXDQ X4, Y4; \
	VMOVDQU Y3, 0(DI); \
	VMOVDQU Y4, 32(DI); \
	JMP next; \
consec: \
	CONSEC8(0); \
	JMP next; \
bcast: \
	BCAST8(0); \
next: \
	ADDQ $32, DX; \
	ADDQ $64, DI; \
	INCQ R8; \
	DECQ CX; \
	JNZ chunk

// STCHUNK8(OFF) stores the low halves of the eight slots of the row at
// DI+2*OFF as eight consecutive uint32 values at SI plus the offset at
// DX+OFF (AX, Y0, Y1 scratch).
#define STCHUNK8(OFF) \
	MOVLQZX (OFF)(DX), AX; \
	NARROW8((2*OFF)(DI), (2*OFF+32)(DI), Y0, Y1, (SI)(AX*1))

// STCHUNK64(OFF) stores the eight slots of the row at DI+2*OFF as eight
// consecutive uint64 values at SI plus the offset at DX+OFF (AX, Y0, Y1
// scratch).
#define STCHUNK64(OFF) \
	MOVLQZX (OFF)(DX), AX; \
	VMOVDQU (2*OFF)(DI), Y0; \
	VMOVDQU (2*OFF+32)(DI), Y1; \
	VMOVDQU Y0, (SI)(AX*1); \
	VMOVDQU Y1, 32(SI)(AX*1)

// STORECHUNKSNK(STCHUNK) is batchStoreChunks32NK's and 64NK's body: ctas
// CTAs of wpc warps, each warp's four chunks by STCHUNK, CTA after CTA,
// warp after warp (lane order).
#define STORECHUNKSNK(STCHUNK) \
	MOVQ dst+0(FP), SI; \
	MOVQ dstStride+8(FP), R10; \
	MOVQ row+16(FP), DI; \
	MOVQ rowStride+24(FP), R9; \
	MOVQ offs+32(FP), DX; \
	MOVQ wpc+40(FP), R11; \
	MOVQ ctas+48(FP), R12; \
	TESTQ R12, R12; \
	JZ   sdone; \
	TESTQ R11, R11; \
	JZ   sdone; \
sctas: \
	MOVQ R11, R13; \
swarp: \
	STCHUNK(0); \
	STCHUNK(32); \
	STCHUNK(64); \
	STCHUNK(96); \
	ADDQ $128, DX; \
	ADDQ R9, DI; \
	DECQ R13; \
	JNZ  swarp; \
	MOVQ R11, AX; \
	SHLQ $7, AX; \
	SUBQ AX, DX; \
	ADDQ R10, SI; \
	DECQ R12; \
	JNZ  sctas; \
sdone: \
	VZEROUPPER; \
	RET

// func batchLoadZ32N(row *lanes, stride uintptr, src *byte, n int, pf uintptr)
// n rows stride bytes apart, each of 32 consecutive uint32 values from
// src on, zero-extended; it prefetches the lines pf bytes after those it
// reads.
TEXT ·batchLoadZ32N(SB), NOSPLIT, $0-40
	MOVQ row+0(FP), DI
	MOVQ stride+8(FP), DX
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ pf+32(FP), R8
	ROWS32N(VPMOVZXDQ)
	VZEROUPPER
	RET

// func batchLoadS32N(row *lanes, stride uintptr, src *byte, n int, pf uintptr)
// batchLoadZ32N sign-extending.
TEXT ·batchLoadS32N(SB), NOSPLIT, $0-40
	MOVQ row+0(FP), DI
	MOVQ stride+8(FP), DX
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ pf+32(FP), R8
	ROWS32N(VPMOVSXDQ)
	VZEROUPPER
	RET

// func batchStore32N(dst *byte, row *lanes, stride uintptr, n int, pf uintptr)
// n rows stride bytes apart, their low halves to consecutive memory.
TEXT ·batchStore32N(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ row+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ pf+32(FP), R8
loop:
	PREFETCHT0 0(DI)(R8*1)
	PREFETCHT0 64(DI)(R8*1)
	NARROW8(0(SI), 32(SI), Y0, Y1, 0(DI))
	NARROW8(64(SI), 96(SI), Y2, Y3, 32(DI))
	NARROW8(128(SI), 160(SI), Y4, Y5, 64(DI))
	NARROW8(192(SI), 224(SI), Y6, Y7, 96(DI))
	ADDQ $128, DI
	ADDQ DX, SI
	DECQ CX
	JNZ loop
	VZEROUPPER
	RET

// func batchCopy64N(row *lanes, stride uintptr, src *byte, n int, pf uintptr)
// n rows stride bytes apart from consecutive 256-byte blocks.
TEXT ·batchCopy64N(SB), NOSPLIT, $0-40
	MOVQ row+0(FP), DI
	MOVQ stride+8(FP), DX
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ pf+32(FP), R8
	COPY256N(SI, DI)
	VZEROUPPER
	RET

// func batchStore64N(dst *byte, row *lanes, stride uintptr, n int, pf uintptr)
// n rows stride bytes apart to consecutive 256-byte blocks.
TEXT ·batchStore64N(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ row+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ pf+32(FP), R8
	COPY256N(DI, SI)
	VZEROUPPER
	RET

// func batchLoadZ32s(dst *uint64, src *byte, n int)
// n consecutive uint32 values (n a positive multiple of 4), zero-extended.
TEXT ·batchLoadZ32s(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $2, CX
loop:
	VPMOVZXDQ 0(SI), Y0
	VMOVDQU Y0, 0(DI)
	ADDQ $16, SI
	ADDQ $32, DI
	DECQ CX
	JNZ loop
	VZEROUPPER
	RET

// func batchStore32s(dst *byte, src *uint64, n int)
// the low halves of n slots (n a positive multiple of 4) as consecutive
// uint32 values.
TEXT ·batchStore32s(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $2, CX
loop:
	VMOVDQU 0(SI), Y0
	PACK4(Y0, X0, 0(DI))
	ADDQ $32, SI
	ADDQ $16, DI
	DECQ CX
	JNZ loop
	VZEROUPPER
	RET

// func batchIota(row *lanes, v, step uint64)
// row[i] = v + i*step (modulo 2^64).
TEXT ·batchIota(SB), NOSPLIT, $0-24
	MOVQ row+0(FP), DI
	MOVQ v+8(FP), AX
	MOVQ step+16(FP), DX
	// Y0 = v, v+s, v+2s, v+3s (built in registers: reading back four
	// 8-byte stores as one 32-byte load would stall); Y1 = 4s in every lane
	VMOVQ AX, X0
	ADDQ DX, AX
	VPINSRQ $1, AX, X0, X0
	ADDQ DX, AX
	VMOVQ AX, X2
	ADDQ DX, AX
	VPINSRQ $1, AX, X2, X2
	VINSERTI128 $1, X2, Y0, Y0
	VMOVDQU Y0, 0(DI)
	SHLQ $2, DX
	VMOVQ DX, X1
	VPBROADCASTQ X1, Y1
	VPADDQ Y1, Y0, Y2
	VMOVDQU Y2, 32(DI)
	VPADDQ Y1, Y2, Y2
	VMOVDQU Y2, 64(DI)
	VPADDQ Y1, Y2, Y2
	VMOVDQU Y2, 96(DI)
	VPADDQ Y1, Y2, Y2
	VMOVDQU Y2, 128(DI)
	VPADDQ Y1, Y2, Y2
	VMOVDQU Y2, 160(DI)
	VPADDQ Y1, Y2, Y2
	VMOVDQU Y2, 192(DI)
	VPADDQ Y1, Y2, Y2
	VMOVDQU Y2, 224(DI)
	VZEROUPPER
	RET

// func batchLoadV4Z32N(r0, r1, r2, r3 *lanes, stride uintptr, src *byte, n int, pf uintptr)
// n blocks of 32 consecutive 16-byte vectors of four uint32 values: lane
// i's element k, zero-extended, into row rk (the rows stride bytes apart
// from block to block): per four lanes, four loads of one lane's vector
// each and a 4x4 transpose of 64-bit slots. It prefetches the lines pf
// bytes after those it reads.
TEXT ·batchLoadV4Z32N(SB), NOSPLIT, $0-64
	MOVQ r0+0(FP), DI
	MOVQ r1+8(FP), R10
	MOVQ r2+16(FP), R11
	MOVQ r3+24(FP), R12
	MOVQ stride+32(FP), DX
	MOVQ src+40(FP), SI
	MOVQ n+48(FP), CX
	MOVQ pf+56(FP), R8
block:
	XORQ R13, R13
quad:
	PREFETCHT0 0(SI)(R8*1)
	VPMOVZXDQ 0(SI), Y0
	VPMOVZXDQ 16(SI), Y1
	VPMOVZXDQ 32(SI), Y2
	VPMOVZXDQ 48(SI), Y3
	TRANSPOSE4
	VMOVDQU Y0, (DI)(R13*1)
	VMOVDQU Y1, (R10)(R13*1)
	VMOVDQU Y2, (R11)(R13*1)
	VMOVDQU Y3, (R12)(R13*1)
	ADDQ $64, SI
	ADDQ $32, R13
	CMPQ R13, $256
	JNE quad
	ADDQ DX, DI
	ADDQ DX, R10
	ADDQ DX, R11
	ADDQ DX, R12
	DECQ CX
	JNZ block
	VZEROUPPER
	RET

// func batchStoreV4x32N(dst *byte, r0, r1, r2, r3 *lanes, stride uintptr, n int, pf uintptr)
// The inverse of batchLoadV4Z32N: lane i's 16-byte vector from the low
// halves of its slots in rows r0..r3.
TEXT ·batchStoreV4x32N(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), SI
	MOVQ r0+8(FP), DI
	MOVQ r1+16(FP), R10
	MOVQ r2+24(FP), R11
	MOVQ r3+32(FP), R12
	MOVQ stride+40(FP), DX
	MOVQ n+48(FP), CX
	MOVQ pf+56(FP), R8
sblock:
	XORQ R13, R13
squad:
	PREFETCHT0 0(SI)(R8*1)
	VMOVDQU (DI)(R13*1), Y0
	VMOVDQU (R10)(R13*1), Y1
	VMOVDQU (R11)(R13*1), Y2
	VMOVDQU (R12)(R13*1), Y3
	TRANSPOSE4
	PACK4(Y0, X0, 0(SI))
	PACK4(Y1, X1, 16(SI))
	PACK4(Y2, X2, 32(SI))
	PACK4(Y3, X3, 48(SI))
	ADDQ $64, SI
	ADDQ $32, R13
	CMPQ R13, $256
	JNE squad
	ADDQ DX, DI
	ADDQ DX, R10
	ADDQ DX, R11
	ADDQ DX, R12
	DECQ CX
	JNZ sblock
	VZEROUPPER
	RET

// func batchChunks32(row *lanes, base *byte, offs *uint32, kinds *uint8)
// row by chunks of eight lanes, each as kinds[c] says: 0 a gather of
// the uint32 values at base+offs[i], zero-extended, 1 eight consecutive
// uint32 values from base+offs[8c], 2 one value (at base+offs[8c]) in
// all eight lanes.
TEXT ·batchChunks32(SB), NOSPLIT, $0-32
	MOVQ row+0(FP), DI
	MOVQ base+8(FP), SI
	MOVQ offs+16(FP), DX
	MOVQ kinds+24(FP), R8
	CHUNKS32
	VZEROUPPER
	RET

// func batchChunks32N(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, kinds *uint8, wpc, ctas int)
// batchChunks32 for ctas CTAs of wpc warps each: warp w of CTA c sets
// the row at row + (c*wpc+w)*rowStride from base + c*baseStride, with
// offs[32w:] and kinds[4w:] (the same for every CTA).
TEXT ·batchChunks32N(SB), NOSPLIT, $0-64
	MOVQ row+0(FP), DI
	MOVQ rowStride+8(FP), R9
	SUBQ $256, R9 // (a warp's four chunks advance DI by 256)
	MOVQ base+16(FP), SI
	MOVQ baseStride+24(FP), R10
	MOVQ offs+32(FP), DX
	MOVQ kinds+40(FP), R8
	MOVQ wpc+48(FP), R11
	MOVQ ctas+56(FP), R12
	TESTQ R12, R12
	JZ   ndone
	TESTQ R11, R11
	JZ   ndone
nctas:
	MOVQ R11, R13
nwarp:
	CHUNKS32
	ADDQ R9, DI
	DECQ R13
	JNZ  nwarp
	// the next CTA: the same offsets and kinds, its own shared memory
	MOVQ R11, AX
	SHLQ $7, AX
	SUBQ AX, DX
	MOVQ R11, AX
	SHLQ $2, AX
	SUBQ AX, R8
	ADDQ R10, SI
	DECQ R12
	JNZ  nctas
ndone:
	VZEROUPPER
	RET

// func batchChunks32NK(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, bcast bool, wpc, ctas int, pf uintptr)
// batchChunks32N for a plan whose chunks are all of one kind: eight
// consecutive values (bcast false) or one for all eight (bcast true);
// a CTA's offsets are 128 bytes a warp, the next CTA's the same (pf
// unused: batchChunks32NKPF prefetches).
TEXT ·batchChunks32NK(SB), NOSPLIT, $0-72
	CHUNKSNK(CONSEC8, BCAST8)

// func batchChunks32NKPF(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, bcast bool, wpc, ctas int, pf uintptr)
// batchChunks32NK whose consecutive chunks prefetch the line pf bytes
// after each.
TEXT ·batchChunks32NKPF(SB), NOSPLIT, $0-72
	CHUNKSNK(CONSEC8PF, BCAST8)

// func batchChunks64NK(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, bcast bool, wpc, ctas int, pf uintptr)
TEXT ·batchChunks64NK(SB), NOSPLIT, $0-72
	CHUNKSNK(CONSEC64, BCAST64)

// func batchChunks64NKPF(row *lanes, rowStride uintptr, base *byte, baseStride uintptr, offs *uint32, bcast bool, wpc, ctas int, pf uintptr)
TEXT ·batchChunks64NKPF(SB), NOSPLIT, $0-72
	CHUNKSNK(CONSEC64PF, BCAST64)

// func batchStoreChunks32NK(dst *byte, dstStride uintptr, row *lanes, rowStride uintptr, offs *uint32, wpc, ctas int)
// batchChunks32NK's stores: for ctas CTAs of wpc warps, warp w of CTA c
// stores the row at row + (c*wpc+w)*rowStride, each chunk of eight lanes
// as eight consecutive uint32 values at dst + c*dstStride + offs[32w+8k],
// CTA after CTA, warp after warp, chunk after chunk (lane order).
TEXT ·batchStoreChunks32NK(SB), NOSPLIT, $0-56
	STORECHUNKSNK(STCHUNK8)

// func batchStoreChunks64NK(dst *byte, dstStride uintptr, row *lanes, rowStride uintptr, offs *uint32, wpc, ctas int)
// batchStoreChunks32NK for 8-byte values.
TEXT ·batchStoreChunks64NK(SB), NOSPLIT, $0-56
	STORECHUNKSNK(STCHUNK64)

// func batchStoreNT32N(dst *byte, row *lanes, stride uintptr, n int)
// batchStore32N with non-temporal stores (dst 32-byte aligned): lines
// written whole go to memory without being read first; SFENCE orders
// them before the caller's later stores and atomics.
TEXT ·batchStoreNT32N(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ row+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ n+24(FP), CX
ntloop:
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VSHUFPS $0x88, Y1, Y0, Y0
	VPERMQ $0xD8, Y0, Y0
	VMOVNTDQ Y0, 0(DI)
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VSHUFPS $0x88, Y3, Y2, Y2
	VPERMQ $0xD8, Y2, Y2
	VMOVNTDQ Y2, 32(DI)
	VMOVDQU 128(SI), Y4
	VMOVDQU 160(SI), Y5
	VSHUFPS $0x88, Y5, Y4, Y4
	VPERMQ $0xD8, Y4, Y4
	VMOVNTDQ Y4, 64(DI)
	VMOVDQU 192(SI), Y6
	VMOVDQU 224(SI), Y7
	VSHUFPS $0x88, Y7, Y6, Y6
	VPERMQ $0xD8, Y6, Y6
	VMOVNTDQ Y6, 96(DI)
	ADDQ $128, DI
	ADDQ DX, SI
	DECQ CX
	JNZ ntloop
	SFENCE
	VZEROUPPER
	RET

// func batchStoreNT64N(dst *byte, row *lanes, stride uintptr, n int)
// batchStore64N with non-temporal stores (dst 32-byte aligned), as
// batchStoreNT32N.
TEXT ·batchStoreNT64N(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ row+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ n+24(FP), CX
ntloop64:
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VMOVNTDQ Y0, 0(DI)
	VMOVNTDQ Y1, 32(DI)
	VMOVNTDQ Y2, 64(DI)
	VMOVNTDQ Y3, 96(DI)
	VMOVDQU 128(SI), Y4
	VMOVDQU 160(SI), Y5
	VMOVDQU 192(SI), Y6
	VMOVDQU 224(SI), Y7
	VMOVNTDQ Y4, 128(DI)
	VMOVNTDQ Y5, 160(DI)
	VMOVNTDQ Y6, 192(DI)
	VMOVNTDQ Y7, 224(DI)
	ADDQ $256, DI
	ADDQ DX, SI
	DECQ CX
	JNZ ntloop64
	SFENCE
	VZEROUPPER
	RET

// func batchSFence()
TEXT ·batchSFence(SB), NOSPLIT, $0-0
	SFENCE
	RET
