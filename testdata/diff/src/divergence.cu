// divergence: if/else on thread and block indices, nested divergent
// branches, early return of some threads, per-thread loop trip counts with
// break inside a divergent region, and divergent calls.
#include "diff.h"

NOINLINE int odd_path(int x, int t) {
  if (t & 2) return x * 3 + t;
  return x - t;
}

__global__ void divergence(const int *a, int *out, int n) {
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (i >= n) return;
  int x = a[i];
  if ((t % 5) == 4) { // early exit of every fifth thread
    out[i] = -1;
    return;
  }
  int r;
  if (t & 1) {
    r = odd_path(x, t);
    if (x > 0) r += 100;
    else r -= 100;
  } else if (t % 4 == 0) {
    r = 0;
    for (int j = 0; j < (t & 31); j++) {
      r += x >> (j & 7);
      if (r > 100000) break;
    }
  } else {
    switch (t & 12) {
    case 0: r = x; break;
    case 4: r = -x; break;
    case 8: r = x * x % 977; break;
    default: r = 7;
    }
  }
  if (blockIdx.x == 1 && t < 40) r ^= 0x5a5a;
  int lane = t & 31;
  if (lane < 16) {
    if (lane < 8) r += 1;
    else r += 2;
  } else {
    r += 3;
  }
  out[i] = r;
}

#ifdef DIFF_HOST
DIFF_CASE(divergence) {
  int n = 450;
  int *a = c.in<int>("a", n, [&](size_t) { return c.rng.i32(-20000, 20000); });
  int *out = c.out<int>("out", n + 50);
  c.launch({4, 1, 1}, {128, 1, 1}, divergence, a, out, n);
}
#endif
