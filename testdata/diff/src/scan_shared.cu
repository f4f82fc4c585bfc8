// scan_shared: a Hillis-Steele inclusive prefix sum per block in
// double-buffered shared memory (barriers inside a loop), the block totals,
// and an exclusive scan derived from it.
#include "diff.h"

#define SB 256

__global__ void scan_shared(const int *in, int *incl, int *excl, int *totals, int n) {
  __shared__ int buf[2][SB];
  int t = threadIdx.x;
  int g = blockIdx.x * SB + t;
  int pout = 0, pin = 1;
  buf[pout][t] = g < n ? in[g] : 0;
  __syncthreads();
  for (int off = 1; off < SB; off <<= 1) {
    pout = 1 - pout;
    pin = 1 - pout;
    int v = buf[pin][t];
    if (t >= off) v += buf[pin][t - off];
    buf[pout][t] = v;
    __syncthreads();
  }
  if (g < n) {
    incl[g] = buf[pout][t];
    excl[g] = t ? buf[pout][t - 1] : 0;
  }
  if (t == SB - 1) totals[blockIdx.x] = buf[pout][t];
}

#ifdef DIFF_HOST
DIFF_CASE(scan_shared) {
  int n = 1200;
  int *in = c.in<int>("in", n, [&](size_t) { return c.rng.i32(-1000, 1000); });
  int nb = (n + SB - 1) / SB;
  int *incl = c.out<int>("incl", n);
  int *excl = c.out<int>("excl", n);
  int *tot = c.out<int>("totals", nb);
  c.launch({(unsigned)nb, 1, 1}, {SB, 1, 1}, scan_shared, in, incl, excl, tot, n);
}
#endif
