// int_arith: 32-bit integer add/sub/mul, division and remainder by
// constants (positive, negative, powers of two) and by run-time divisors of
// both signs, unsigned division, mul.hi, mul24-style products.
#include "diff.h"

__global__ void int_arith(const int *a, const int *b, int *out, u32 *uout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i]; // |x| <= 1e6, y != 0, |y| <= 5000
  int *o = out + i * 16;
  o[0] = x + y;
  o[1] = x - 3 * y;
  o[2] = (x % 4096) * y;
  o[3] = x / 7;
  o[4] = x / -3;
  o[5] = x % 5;
  o[6] = x % -9;
  o[7] = x / 16;    // arithmetic shift with rounding toward zero
  o[8] = x % 32;
  o[9] = x / y;
  o[10] = x % y;
  o[11] = __mulhi(x * 1021, y * 977);
  o[12] = -x / (y | 1);
  o[13] = (x ^ y) % 1000003;
  o[14] = (x / 100) * (x / 100) - (y << 3);
  o[15] = x < 0 ? -x : x;
  u32 ux = (u32)x * 2654435761u, uy = (u32)y | 1u;
  u32 *u = uout + i * 6;
  u[0] = ux / uy;
  u[1] = ux % uy;
  u[2] = ux / 10u;
  u[3] = ux % 1000u;
  u[4] = __umulhi(ux, 0x9e3779b9u);
  u[5] = ux * ux + uy;
}

#ifdef DIFF_HOST
DIFF_CASE(int_arith) {
  int n = 500;
  int *a = c.in<int>("a", n, [&](size_t) { return c.rng.i32(-1000000, 1000000); });
  int *b = c.in<int>("b", n, [&](size_t) {
    int v = c.rng.i32(-5000, 5000);
    return v == 0 ? 7 : v;
  });
  int *out = c.out<int>("out", n * 16 + 16);
  u32 *uout = c.out<u32>("uout", n * 6 + 6);
  c.launch({4, 1, 1}, {128, 1, 1}, int_arith, a, b, out, uout, n);
}
#endif
