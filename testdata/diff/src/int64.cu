// int64: 64-bit add/sub/mul, division and remainder (signed and unsigned,
// by constants and run-time values), shifts, mul.hi, mixed 32/64-bit
// widening and narrowing, comparisons.
#include "diff.h"

__global__ void int64_ops(const s64 *a, const s64 *b, const int *c32, s64 *out, u64 *uout,
                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s64 x = a[i], y = b[i]; // |x| < 2^61, y != 0, |y| < 2^40
  int k = c32[i];
  s64 *o = out + i * 12;
  o[0] = x + y;
  o[1] = x - (y << 2);
  o[2] = (x >> 30) * (y >> 10);
  o[3] = x / y;
  o[4] = x % y;
  o[5] = x / 1000000007;
  o[6] = x % -12345;
  o[7] = x / (s64)k;
  o[8] = (s64)k * (s64)(k ^ 0x5555); // mul.wide.s32
  o[9] = x >> (k & 63);
  o[10] = (s64)(int)x + (s64)(short)(y >> 3); // narrowing + sign extension
  o[11] = (x < y) + 2 * (x == y) + 4 * (x >= 0) + 8 * ((u64)x > (u64)y);
  u64 ux = (u64)x * 0x9e3779b97f4a7c15ull, uy = (u64)y | 1;
  u64 *u = uout + i * 8;
  u[0] = ux / uy;
  u[1] = ux % uy;
  u[2] = ux / 10;
  u[3] = ux % 3600;
  u[4] = __umul64hi(ux, 0xc2b2ae3d27d4eb4full);
  u[5] = ux << (k & 63);
  u[6] = ux >> (k & 63);
  u[7] = (u64)(u32)k * (u64)(u32)(k + 77777); // mul.wide.u32
}

#ifdef DIFF_HOST
DIFF_CASE(int64) {
  int n = 256;
  s64 *a = c.in<s64>("a", n, [&](size_t) { return (s64)(c.rng.u64v() >> 2) - (1ll << 61); });
  s64 *b = c.in<s64>("b", n, [&](size_t) {
    s64 v = (s64)(c.rng.u64v() >> 23) - (1ll << 40);
    if (c.rng.i32(0, 3) == 0) v >>= 30;
    return v == 0 ? 3 : v;
  });
  int *k = c.in<int>("k", n, [&](size_t) {
    int v = c.rng.i32(-70000, 70000);
    return v == 0 ? -5 : v;
  });
  s64 *out = c.out<s64>("out", n * 12);
  u64 *uout = c.out<u64>("uout", n * 8);
  c.launch({2, 1, 1}, {128, 1, 1}, int64_ops, a, b, k, out, uout, n);
}
#endif
