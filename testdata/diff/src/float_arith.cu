// float_arith: f32 add/sub/mul/div with round-to-nearest, explicit fma,
// sqrt, abs, neg, min/max, copysign, comparisons producing selects, and
// denormal results (no flush to zero). No multiply-add is fused unless the
// source calls fmaf_ (both sides compile with -ffp-contract=off).
#include "diff.h"

__global__ void float_arith(const float *a, const float *b, const float *c, float *out,
                            int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i], z = c[i];
  float *o = out + i * 16;
  o[0] = x + y;
  o[1] = x - y * 3.0f;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = fmaf_(x, y, z);
  o[5] = x * y + z; // two roundings
  o[6] = sqrtf_(fabsf_(x));
  o[7] = fminf_(x, y);
  o[8] = fmaxf_(x, z);
  o[9] = copysignf_(y, x);
  o[10] = -x * 0.1f;
  o[11] = 1.0f / (z + 7.5f);
  o[12] = (x * 1e-30f) * 1e-8f; // denormal range
  o[13] = (x + y) * (x - y) / (z * z + 1.0f);
  o[14] = x > y ? x - y : y * 0.5f;
  o[15] = fmaf_(-x, x, fmaf_(y, y, z));
  flags[i] = (x < y) | (x <= z) << 1 | (x == y) << 2 | (x != z) << 3 | (o[3] > 1.0f) << 4;
}

#ifdef DIFF_HOST
DIFF_CASE(float_arith) {
  int n = 600;
  float *a = c.in<float>("a", n, [&](size_t) { return c.rng.f32(-100, 100); });
  float *b = c.in<float>("b", n, [&](size_t i) {
    return i % 10 == 3 ? a[i] : c.rng.f32(-50, 50); // some equal pairs
  });
  float *z = c.in<float>("c", n, [&](size_t) { return c.rng.f32(-1000, 1000); });
  float *out = c.out<float>("out", n * 16);
  int *flags = c.out<int>("flags", n);
  c.launch({5, 1, 1}, {128, 1, 1}, float_arith, a, b, z, out, flags, n);
}
#endif
