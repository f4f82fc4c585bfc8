// convert: int <-> float conversions with C semantics (truncation toward
// zero for float -> int, round-to-nearest-even for int -> float), all
// in-range; 64-bit sources and destinations; f32 <-> f64; integer
// narrowing and sign/zero extension through 8- and 16-bit types.
#include "diff.h"

__global__ void convert(const float *f, const double *d, const int *iv, const s64 *lv,
                        u32 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = f[i];    // |x| < 2e9
  double y = d[i];   // |y| < 9e18
  int k = iv[i];
  s64 l = lv[i];
  u32 *o = out + i * 24;
  o[0] = (u32)(int)x;
  o[1] = (u32)(fabsf_(x));        // float -> u32, in range
  o[2] = (u32)(s64)(x * 1000.0f); // float -> s64
  o[3] = (u32)((s64)(x * 1000.0f) >> 32);
  o[4] = (u32)float_as_int((float)k);           // s32 -> f32 rounding
  o[5] = (u32)float_as_int((float)(u32)k);      // u32 -> f32
  o[6] = (u32)float_as_int((float)l);           // s64 -> f32
  o[7] = (u32)float_as_int((float)(u64)l);      // u64 -> f32
  double dl = (double)l, dul = (double)(u64)l;  // s64/u64 -> f64
  o[8] = (u32)double_as_ll(dl);
  o[9] = (u32)(double_as_ll(dl) >> 32);
  o[10] = (u32)(double_as_ll(dul) >> 32) ^ (u32)double_as_ll(dul);
  s64 t = (s64)y;                               // f64 -> s64
  o[11] = (u32)t;
  o[12] = (u32)(t >> 32);
  o[13] = (u32)(int)(y * 1e-10);                // f64 -> s32
  o[14] = (u32)float_as_int((float)y);          // f64 -> f32 rounding
  o[15] = (u32)float_as_int((float)(y * 1e-330 * 1e300)); // to f32 subnormal/zero
  double xd = (double)x;                        // f32 -> f64 exact
  o[16] = (u32)(double_as_ll(xd) >> 29);
  o[17] = (u32)(int)(s8)k;                      // narrowing, sign extension
  o[18] = (u32)(u8)k;
  o[19] = (u32)(int)(short)(k >> 3);
  o[20] = (u32)(u16)(k * 3);
  o[21] = (u32)(int)(s8)((s8)k + (s8)(k >> 8)); // 8-bit wraparound
  o[22] = (u32)(x != 0.0f) + 2u * (u32)(bool)(k & 0x100);
  o[23] = (u32)(u64)(fabs_(y) * 1.5); // f64 -> u64 above 2^63 sometimes
}

#ifdef DIFF_HOST
DIFF_CASE(convert) {
  int n = 384;
  float *f = c.in<float>("f", n, [&](size_t i) {
    if (i % 11 == 0) return (float)c.rng.i32(-20, 20) + 0.5f; // halves
    return c.rng.f32(-2e9, 2e9) / (float)(1 << c.rng.i32(0, 20));
  });
  double *d = c.in<double>("d", n, [&](size_t) { return c.rng.f64(-9e18, 9e18) / (double)(1 << c.rng.i32(0, 30)); });
  int *iv = c.in<int>("iv", n, [&](size_t i) {
    return i % 5 == 0 ? (int)(16777217 + 2 * c.rng.i32(0, 1000)) : (int)c.rng.u32v();
  });
  s64 *lv = c.in<s64>("lv", n, [&](size_t i) {
    return i % 3 == 0 ? (s64)c.rng.i32(-100000, 100000) : (s64)c.rng.u64v();
  });
  u32 *out = c.out<u32>("out", n * 24);
  c.launch({3, 1, 1}, {128, 1, 1}, convert, f, d, iv, lv, out, n);
}
#endif
