//go:build amd64 && !purego

#include "textflag.h"

// func prefetchLines(p uintptr, n uintptr)
// PREFETCHT0 for each 64-byte line of [p, p+n); n > 0. A prefetch never
// faults, whatever the address.
TEXT ·prefetchLines(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	ADDQ AX, CX
	ANDQ $-64, AX
loop:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	CMPQ AX, CX
	JB   loop
	RET

// func prefetchLinesWrite(p uintptr, n uintptr)
// PREFETCHW for each 64-byte line of [p, p+n); n > 0: the lines arrive
// ready to be written.
TEXT ·prefetchLinesWrite(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	ADDQ AX, CX
	ANDQ $-64, AX
loopw:
	BYTE $0x0f; BYTE $0x0d; BYTE $0x08 // PREFETCHW (AX)
	ADDQ $64, AX
	CMPQ AX, CX
	JB   loopw
	RET
