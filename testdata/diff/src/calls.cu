// calls: non-inlined device functions with many scalar parameters of
// mixed types, pointer parameters (to global and to a local variable),
// 64-bit and float returns, and a call chain three deep.
#include "diff.h"

NOINLINE s64 mix(int a, u32 b, s64 c, float d, double e, short f, u8 g) {
  return (s64)a * 3 + (s64)b - c + (s64)(d * 4.0f) + (s64)(e * 8.0) + f * g;
}

NOINLINE void accumulate(int *acc, const int *src, int len) {
  for (int j = 0; j < len; j++) *acc += src[j] * (j + 1);
}

NOINLINE float level3(float x) { return x * x - 1.0f; }
NOINLINE float level2(float x, int k) { return level3(x + (float)k) * 0.5f; }
NOINLINE float level1(float x, int k) { return level2(x, k) - level2(-x, k + 1); }

__global__ void calls(const int *a, const float *f, s64 *out, float *fout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i];
  float y = f[i];
  out[i * 2] = mix(x, (u32)x * 7u, (s64)x << 20, y, (double)y * 3.0, (short)(x >> 4), (u8)x);
  int acc = x;
  accumulate(&acc, a + (i / 8) * 8, 8 < n - (i / 8) * 8 ? 8 : n - (i / 8) * 8);
  out[i * 2 + 1] = acc;
  fout[i] = level1(y, x & 7);
}

#ifdef DIFF_HOST
DIFF_CASE(calls) {
  int n = 260;
  int *a = c.in<int>("a", n, [&](size_t) { return c.rng.i32(-30000, 30000); });
  float *f = c.in<float>("f", n, [&](size_t) { return c.rng.f32(-10, 10); });
  s64 *out = c.out<s64>("out", n * 2);
  float *fout = c.out<float>("fout", n);
  c.launch({3, 1, 1}, {96, 1, 1}, calls, a, f, out, fout, n);
}
#endif
