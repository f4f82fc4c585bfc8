// barrier_red: __syncthreads_count/and/or (bar.red.popc/and/or) over
// data-dependent predicates, in a loop, with a block that is not a multiple
// of the warp size.
#include "diff.h"

__global__ void barrier_red(const int *x, int *count, int *all, int *any, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  int c = 0, a = 0, o = 0;
  for (int k = 0; k < 3; k++) {
    c += syncthreads_count(v > k * 100);
    a = a * 2 + syncthreads_and(v > -900 + k * 10);
    o = o * 2 + syncthreads_or(v == 500 + k);
  }
  if (i < n) {
    count[i] = c;
    all[i] = a;
    any[i] = o;
  }
}

#ifdef DIFF_HOST
DIFF_CASE(barrier_red) {
  int n = 700;
  int *x = c.in<int>("x", n, [&](size_t) { return c.rng.i32(-1000, 1000); });
  int *cnt = c.out<int>("count", n);
  int *all = c.out<int>("all", n);
  int *any = c.out<int>("any", n);
  c.launch({5, 1, 1}, {150, 1, 1}, barrier_red, x, cnt, all, any, n);
}
#endif
