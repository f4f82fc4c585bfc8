// include/defs.h -- included (twice) by preprocessor.ptx.
// Covers: an include guard, object-like and function-like macros, a macro
// continued over two lines with backslash-newline, and a nested #include
// that must be found relative to this file's directory (include/limits.h).
#ifndef DEFS_H
#define DEFS_H

#include "limits.h"

#define ELEM_BYTES 4
#define OFFSET(i) ((i) * ELEM_BYTES)
#define ADD3(d, a, b, c) add.s32 d, a, b; add.s32 d, d, c
#define STORE(addr, val) \
	st.global.u32 [addr], val

#endif // DEFS_H
