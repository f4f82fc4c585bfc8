// divergent_loops: loops whose trip counts differ between the lanes of a
// warp, so that lanes leave at different iterations and the rest run on
// as a divergent group: an escape-time loop on floats whose count and last
// values live on after it, Euclid's algorithm with a selected term in its
// body, and nested loops with early exits whose results mix values from
// before, inside and after the divergence.
#include "diff.h"

__global__ void escape_f32(const float *cx, const float *cy, int *count, float *zx_out, float *zy_out, int n,
                           int max_iter) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x0 = cx[i], y0 = cy[i];
  float zx = 0.0f, zy = 0.0f, m = 0.0f;
  int k = 0;
  while (k < max_iter) {
    float x2 = zx * zx, y2 = zy * zy;
    m = x2 + y2;
    if (m > 4.0f) break;
    zy = 2.0f * zx * zy + y0;
    zx = x2 - y2 + x0;
    k++;
  }
  count[i] = k * 16 + (m > 2.0f ? 1 : 0);
  zx_out[i] = zx;
  zy_out[i] = zy;
}

__global__ void gcd_steps(const unsigned *a, const unsigned *b, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], steps = 0, mix = x ^ y;
  while (y != 0) {
    unsigned r = x % y;
    mix += (r & 1) ? r : (x >> 3);
    bool big = r > 1000;
    mix ^= big ? 0x9e3779b9u : steps;
    x = y;
    y = r;
    steps++;
  }
  out[2 * i] = x;
  out[2 * i + 1] = steps * 0x10001u + mix;
}

__global__ void nested_early(const int *a, int *out, int n) {
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (i >= n) return;
  int v = a[i];
  int before = v * 3 + t;
  int acc = 0, last = 0;
  for (int j = 0; j < (v & 15) + 1; j++) {
    int w = v + j * 7;
    for (int k = 0; k < (w & 7); k++) {
      w = w * 5 + k;
      if ((w & 63) == 17) break;
      acc += w & 255;
    }
    last = w;
    if (acc > 3000 + t) break;
  }
  out[i] = before + acc * 2 + (last & 1023);
}

#ifdef DIFF_HOST
DIFF_CASE(escape_f32) {
  int n = 1000;
  float *cx = c.in<float>("cx", n, [&](size_t) { return c.rng.f32(-2.0, 0.6); });
  float *cy = c.in<float>("cy", n, [&](size_t) { return c.rng.f32(-1.2, 1.2); });
  int *count = c.out<int>("count", n);
  float *zx = c.out<float>("zx", n);
  float *zy = c.out<float>("zy", n);
  c.launch({4, 1, 1}, {256, 1, 1}, escape_f32, cx, cy, count, zx, zy, n, 200);
}

DIFF_CASE(gcd_steps) {
  int n = 700;
  unsigned *a = c.in<unsigned>("a", n, [&](size_t) { return (unsigned)c.rng.i32(0, 1 << 30); });
  unsigned *b = c.in<unsigned>("b", n, [&](size_t i) { return i % 9 == 0 ? 0u : (unsigned)c.rng.i32(1, 1 << 20); });
  unsigned *out = c.out<unsigned>("out", 2 * n);
  c.launch({3, 1, 1}, {256, 1, 1}, gcd_steps, a, b, out, n);
}

DIFF_CASE(nested_early) {
  int n = 500;
  int *a = c.in<int>("a", n, [&](size_t) { return c.rng.i32(-5000, 5000); });
  int *out = c.out<int>("out", n);
  c.launch({2, 1, 1}, {256, 1, 1}, nested_early, a, out, n);
}
#endif
