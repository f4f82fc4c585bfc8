//go:build amd64 && !purego

#include "textflag.h"

// LANE sets d's lane R10 to the low half of a's lane t.lane[R10].
#define LANE \
	MOVBQZX 288(DX)(R10*1), R8; \
	MOVL (SI)(R8*8), R9; \
	MOVQ R9, (DI)(R10*8)

// func shflRow32(d, a *lanes, t *shflRows)
// t: off [8]int32 at 0, idx [8][8]uint32 at 32, lane [32]uint8 at 288.
TEXT ·shflRow32(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ t+16(FP), DX
	VPCMPEQD Y15, Y15, Y15
	VPSRLQ $32, Y15, Y15 // the low halves
	XORQ CX, CX          // the chunk
chunk:
	MOVQ CX, BX
	SHLQ $5, BX // its 32 bytes, of the result and of idx
	MOVLQSX (DX)(CX*4), AX
	TESTQ AX, AX
	JS lanes
	VMOVDQU (SI)(AX*1), Y0
	VMOVDQU 32(DX)(BX*1), Y1
	VPERMD Y0, Y1, Y0
	VPAND Y15, Y0, Y0
	VMOVDQU Y0, (DI)(BX*1)
	JMP next
lanes:
	MOVQ CX, R10
	SHLQ $2, R10 // its first lane
	LANE
	INCQ R10
	LANE
	INCQ R10
	LANE
	INCQ R10
	LANE
next:
	INCQ CX
	CMPQ CX, $8
	JLT chunk
	VZEROUPPER
	RET
