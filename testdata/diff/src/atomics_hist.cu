// atomics_hist: order-independent integer atomics: a shared-memory
// histogram built with atomicAdd on shared addresses, flushed with
// atomicAdd into a global histogram, plus a global 64-bit counter and a
// per-block count. (Atomics belong to a later issue than the core engine.)
#include "diff.h"

#define BINS 64

__global__ void atomics_hist(const u32 *in, u32 *hist, u64 *total, int *per_block, int n) {
  __shared__ u32 sh[BINS];
  __shared__ int cnt;
  int t = threadIdx.x;
  for (int b = t; b < BINS; b += blockDim.x) sh[b] = 0;
  if (t == 0) cnt = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) {
    u32 v = in[i];
    atomicAdd(&sh[v % BINS], 1u);
    atomicAdd(total, (u64)v);
    if (v & 1) atomicAdd(&cnt, 1);
  }
  __syncthreads();
  for (int b = t; b < BINS; b += blockDim.x) atomicAdd(&hist[b], sh[b]);
  if (t == 0) per_block[blockIdx.x] = cnt;
}

#ifdef DIFF_HOST
DIFF_CASE(atomics_hist) {
  int n = 5000;
  u32 *in = c.in<u32>("in", n, [&](size_t) { return c.rng.u32v() >> c.rng.i32(0, 24); });
  u32 *hist = c.inout<u32>("hist", BINS, [&](size_t i) { return (u32)i; });
  u64 *total = c.inout<u64>("total", 1, [&](size_t) { return 5ull; });
  int *pb = c.out<int>("per_block", 6);
  c.launch({6, 1, 1}, {96, 1, 1}, atomics_hist, in, hist, total, pb, n);
}
#endif
