// double_arith: f64 add/sub/mul/div, fma, sqrt, min/max, abs, a Horner
// polynomial and a Newton iteration, f64 comparisons, denormal results.
#include "diff.h"

NOINLINE double horner(double x, const double *k, int deg) {
  double r = k[deg];
  for (int j = deg - 1; j >= 0; j--) r = r * x + k[j];
  return r;
}

__global__ void double_arith(const double *a, const double *b, const double *k, double *out,
                             int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = a[i], y = b[i];
  double *o = out + i * 12;
  o[0] = x + y;
  o[1] = x * y - 0.25;
  o[2] = x / y;
  o[3] = fma_(x, y, -x);
  o[4] = sqrt_(x * x + y * y);
  o[5] = fmin_(x, y) + fmax_(x, -y);
  o[6] = fabs_(x - y);
  o[7] = horner(x / 100.0, k, 7);
  double r = 1.0; // Newton iteration for 1/|y|
  double ay = fabs_(y) + 0.5;
  for (int it = 0; it < 6; it++) r = r * (2.0 - ay * r);
  o[8] = r;
  o[9] = x * 1e-300 * 1e-10; // denormal
  o[10] = (x < y) ? x : (x == y ? 0.5 : y);
  o[11] = (double)(float)x; // f64 -> f32 -> f64 rounding
}

#ifdef DIFF_HOST
DIFF_CASE(double_arith) {
  int n = 400;
  double *a = c.in<double>("a", n, [&](size_t) { return c.rng.f64(-100, 100); });
  double *b = c.in<double>("b", n, [&](size_t i) { return i % 9 == 0 ? a[i] : c.rng.f64(-3, 3); });
  double *k = c.in<double>("k", 8, [&](size_t) { return c.rng.f64(-2, 2); });
  double *out = c.out<double>("out", n * 12);
  c.launch({4, 1, 1}, {100, 1, 1}, double_arith, a, b, k, out, n);
}
#endif
