// select_minmax: integer and float min/max/clamp/abs, ternary selects that
// compile to selp or branches, predicated stores, boolean logic on
// comparison results.
#include "diff.h"

DEVFN int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

__global__ void select_minmax(const int *a, const int *b, const float *f, int *out,
                              float *fout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];
  float g = f[i], h = f[(i + 1) % n];
  int *o = out + i * 10;
  o[0] = imin(x, y);
  o[1] = imax(x, y);
  o[2] = (int)umin((u32)x, (u32)y);
  o[3] = (int)umax((u32)x, (u32)y);
  o[4] = clampi(x, -1000, 1000);
  o[5] = x < 0 ? -x : x;
  o[6] = (x > y && y > 0) || x == 0 ? 1 : -1;
  s64 lx = (s64)x * 3, ly = (s64)y * 5;
  o[7] = (int)((lx < ly ? lx : ly) >> 1);
  o[8] = (x & 1) ? x : y;
  if (x > y) o[9] = x - y; // predicated store; else left untouched
  float *p = fout + i * 5;
  p[0] = fminf_(g, h);
  p[1] = fmaxf_(g, 0.5f);
  p[2] = g < h ? g : h;
  p[3] = fminf_(fmaxf_(g, -1.0f), 1.0f);
  p[4] = g > 0.0f ? g * 2.0f : -g;
}

#ifdef DIFF_HOST
DIFF_CASE(select_minmax) {
  int n = 400;
  int *a = c.in<int>("a", n, [&](size_t i) { return i % 7 == 0 ? 0 : c.rng.i32(-5000, 5000); });
  int *b = c.in<int>("b", n, [&](size_t i) { return i % 9 == 0 ? a[i] : c.rng.i32(-5000, 5000); });
  float *f = c.in<float>("f", n, [&](size_t) { return c.rng.f32(-3, 3); });
  int *out = c.out<int>("out", n * 10);
  float *fout = c.out<float>("fout", n * 5);
  c.launch({2, 1, 1}, {200, 1, 1}, select_minmax, a, b, f, out, fout, n);
}
#endif
