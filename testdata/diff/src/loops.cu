// loops: data-dependent trip counts (including zero), nested loops with
// break and continue, while and do-while, a grid-stride loop over more
// elements than threads, and a loop-carried float recurrence.
#include "diff.h"

__global__ void loops(const int *cnt, const u32 *data, u32 *out, float *fout, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  // grid-stride: every element of data[0..m) squared-ish
  for (int j = i; j < m; j += stride) out[n * 4 + j] = data[j] * data[j] + (u32)j;
  if (i >= n) return;
  int c = cnt[i]; // 0..40
  u32 acc = 0;
  for (int j = 0; j < c; j++) {
    if (j % 3 == 2) continue;
    for (int k = 0; k <= j; k++) {
      acc = acc * 31 + data[(i + j * 7 + k) % m];
      if ((acc & 0xff) == 0x42) break;
    }
  }
  out[i * 4] = acc;
  u32 v = data[i % m] | 1, steps = 0;
  while (v != 1 && steps < 500) { // Collatz-like, bounded
    v = (v & 1) ? (v >> 1) ^ 0xedb88320u : v >> 1;
    steps++;
  }
  out[i * 4 + 1] = steps;
  int d = 0;
  u32 w = (u32)c;
  do {
    d += (int)(w & 3);
    w >>= 2;
  } while (w);
  out[i * 4 + 2] = (u32)d;
  float x = (float)(c + 1) * 0.125f;
  float s = 0.0f;
#pragma unroll 4
  for (int j = 0; j < 37; j++) s = s * 0.5f + x / (float)(j + 1);
  fout[i] = s;
  out[i * 4 + 3] = (u32)c * 3u;
}

#ifdef DIFF_HOST
DIFF_CASE(loops) {
  int n = 300, m = 2000;
  int *cnt = c.in<int>("cnt", n, [&](size_t i) { return i % 10 == 0 ? 0 : c.rng.i32(0, 40); });
  u32 *data = c.in<u32>("data", m, [&](size_t) { return c.rng.u32v(); });
  u32 *out = c.out<u32>("out", n * 4 + m);
  float *fout = c.out<float>("fout", n);
  c.launch({3, 1, 1}, {128, 1, 1}, loops, cnt, data, out, fout, n, m);
}
#endif
