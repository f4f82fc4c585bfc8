// bitops: shifts by variable and constant amounts (logical and arithmetic,
// 32 and 64 bit), and/or/xor/not, rotates, popc, clz, brev, ffs, byte swap,
// bit-field extract and insert written in C.
#include "diff.h"

__global__ void bitops(const u32 *a, const u32 *b, u32 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  u32 x = a[i], y = b[i];
  u32 s = y & 31;
  int sx = (int)x;
  u32 *o = out + i * 20;
  o[0] = x << s;
  o[1] = x >> s;
  o[2] = (u32)(sx >> s);
  o[3] = (x << 7) | (x >> 25);
  o[4] = s ? (x >> s) | (x << (32 - s)) : x;
  o[5] = x & y;
  o[6] = x | ~y;
  o[7] = x ^ (y >> 3);
  o[8] = (u32)__popc(x) + ((u32)__popc(y) << 8);
  o[9] = (u32)__clz(x >> (y & 15)) | ((u32)__clz(y & 0xff) << 8);
  o[10] = __brev(x);
  o[11] = (u32)__ffs((int)(x & 0xfff000u));
  o[12] = __builtin_bswap32(x);
  o[13] = (x >> 5) & 0x3ff;                       // field extract
  o[14] = (x & ~(0xffu << 12)) | ((y & 0xff) << 12); // field insert
  o[15] = (u32)((sx << 3) >> 11);                 // signed field extract
  u64 w = ((u64)x << 32) | y;
  o[16] = (u32)(w >> (s + 1));
  o[17] = (u32)((s64)w >> (32 + (y & 7)));
  o[18] = (u32)__popcll(w ^ (w << 17)) + ((u32)__clzll(w >> (y & 63)) << 8);
  o[19] = (u32)(__brevll(w) >> 16);
}

#ifdef DIFF_HOST
DIFF_CASE(bitops) {
  int n = 300; // not a multiple of the block size
  u32 *a = c.in<u32>("a", n, [&](size_t i) { return i % 17 == 0 ? 0u : c.rng.u32v(); });
  u32 *b = c.in<u32>("b", n, [&](size_t i) { return i % 13 == 0 ? 0u : c.rng.u32v(); });
  u32 *out = c.out<u32>("out", n * 20 + 20);
  c.launch({3, 1, 1}, {112, 1, 1}, bitops, a, b, out, n);
}
#endif
