// warp_collectives: warp-level reductions and scans with shfl.sync, votes,
// match and redux, as CUDA code writes them (__shfl_down_sync and friends,
// through diff.h), plus a block reduction built on them. Every thread of
// the block runs every collective (the host side needs that; see diff.h).
#include "diff.h"

#define BLOCK 128

__global__ void warp_ops(const int *x, const float *xf, int *wsum, int *scan, int *wmax,
                         int *bcast, float *fsum, u32 *bal, int *votes, u32 *match,
                         int *redux, int n) {
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  int v = i < n ? x[i] : 0;
  float f = i < n ? xf[i] : 0.0f;
  int s = v; // lane 0 ends with the warp's sum
  for (int d = 16; d > 0; d >>= 1) s += shfl_down(FULL_MASK, s, d);
  int sc = v; // inclusive scan
  for (int d = 1; d < 32; d <<= 1) {
    int y = shfl_up(FULL_MASK, sc, d);
    if ((t & 31) >= d) sc += y;
  }
  int m = v; // every lane ends with the warp's maximum
  for (int d = 16; d > 0; d >>= 1) m = imax(m, shfl_xor(FULL_MASK, m, d));
  int b = shfl_idx(FULL_MASK, v, 5, 8); // lane 5 of each 8-lane segment
  float fs = f; // float sums within 16-lane segments, a fixed order
  for (int d = 8; d > 0; d >>= 1) fs += shfl_down_f(FULL_MASK, fs, d, 16);
  u32 bl = ballot(FULL_MASK, v & 1);
  int vt = any_sync(FULL_MASK, v > 900000) | all_sync(FULL_MASK, v > -900000) << 1;
  u32 mt = match_any(FULL_MASK, (u32)v & 7);
  int rd = reduce_add(FULL_MASK, v) ^ reduce_min(FULL_MASK, v) ^ (int)reduce_umax(FULL_MASK, (u32)v);
  if (i < n) {
    wsum[i] = s;
    scan[i] = sc;
    wmax[i] = m;
    bcast[i] = b;
    fsum[i] = fs;
    bal[i] = bl;
    votes[i] = vt;
    match[i] = mt;
    redux[i] = rd;
  }
}

// block_reduce: each warp reduces with shuffles, warp 0 reduces the warps'
// sums from shared memory.
__global__ void block_reduce(const int *x, int *out, int n) {
  __shared__ int partial[BLOCK / 32];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  int v = i < n ? x[i] : 0;
  for (int d = 16; d > 0; d >>= 1) v += shfl_xor(FULL_MASK, v, d);
  if ((t & 31) == 0) partial[t >> 5] = v;
  __syncthreads();
  int w = t < BLOCK / 32 ? partial[t] : 0;
  for (int d = 16; d > 0; d >>= 1) w += shfl_down(FULL_MASK, w, d);
  if (t == 0) out[blockIdx.x] = w;
}

#ifdef DIFF_HOST
DIFF_CASE(warp_ops) {
  int n = 500; // 4 blocks, the last one partly past n
  int *x = c.in<int>("x", n, [&](size_t) { return c.rng.i32(-1000000, 1000000); });
  float *xf = c.in<float>("xf", n, [&](size_t) { return c.rng.f32(-1, 1); });
  int *ws = c.out<int>("wsum", n);
  int *sc = c.out<int>("scan", n);
  int *wm = c.out<int>("wmax", n);
  int *bc = c.out<int>("bcast", n);
  float *fs = c.out<float>("fsum", n);
  u32 *bl = c.out<u32>("ballot", n);
  int *vt = c.out<int>("votes", n);
  u32 *mt = c.out<u32>("match", n);
  int *rd = c.out<int>("redux", n);
  unsigned nb = (n + BLOCK - 1) / BLOCK;
  c.launch({nb, 1, 1}, {BLOCK, 1, 1}, warp_ops, x, xf, ws, sc, wm, bc, fs, bl, vt, mt, rd, n);
}

DIFF_CASE(block_reduce) {
  int n = 1000;
  int *x = c.in<int>("x", n, [&](size_t) { return c.rng.i32(-1000, 1000); });
  unsigned nb = (n + BLOCK - 1) / BLOCK;
  int *out = c.out<int>("out", nb);
  c.launch({nb, 1, 1}, {BLOCK, 1, 1}, block_reduce, x, out, n);
}
#endif
