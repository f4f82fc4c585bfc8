// reduce_shared: per-block tree reductions in shared memory with
// __syncthreads between steps: a float sum (fixed association order, so
// exact), an integer max, and a 64-bit sum, each block writing its result.
#include "diff.h"

#define BLOCK 256

__global__ void reduce_shared(const float *x, const int *y, float *fsum, int *imax_out,
                              s64 *lsum, int n) {
  __shared__ float sf[BLOCK];
  __shared__ int si[BLOCK];
  __shared__ s64 sl[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * (BLOCK * 2) + t;
  float a = 0.0f;
  int m = -2147483647 - 1;
  s64 l = 0;
  if (i < n) { a = x[i]; m = y[i]; l = (s64)y[i] * 1000003; }
  if (i + BLOCK < n) {
    a += x[i + BLOCK];
    m = imax(m, y[i + BLOCK]);
    l += (s64)y[i + BLOCK] * 1000003;
  }
  sf[t] = a;
  si[t] = m;
  sl[t] = l;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) {
      sf[t] += sf[t + s];
      si[t] = imax(si[t], si[t + s]);
      sl[t] += sl[t + s];
    }
    __syncthreads();
  }
  if (t == 0) {
    fsum[blockIdx.x] = sf[0];
    imax_out[blockIdx.x] = si[0];
    lsum[blockIdx.x] = sl[0];
  }
}

#ifdef DIFF_HOST
DIFF_CASE(reduce_shared) {
  int n = 3000; // 6 blocks of 512 elements, the last one partial
  float *x = c.in<float>("x", n, [&](size_t) { return c.rng.f32(-1, 1); });
  int *y = c.in<int>("y", n, [&](size_t) { return c.rng.i32(-1000000, 1000000); });
  int nb = (n + 2 * BLOCK - 1) / (2 * BLOCK);
  float *fs = c.out<float>("fsum", nb);
  int *im = c.out<int>("imax", nb);
  s64 *ls = c.out<s64>("lsum", nb);
  c.launch({(unsigned)nb, 1, 1}, {BLOCK, 1, 1}, reduce_shared, x, y, fs, im, ls, n);
}
#endif
