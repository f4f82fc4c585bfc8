// cp_async: a double-buffered pipeline that streams tiles of a global
// array into shared memory with cp.async (16-byte .cg copies, 8- and 4-byte
// .ca copies), commit groups and wait_group 1 / wait_all, and reduces each
// column of tiles.
#include "diff.h"

#define BLOCK 64
#define TILE (BLOCK * 4) // floats per tile: 16 bytes per thread

__global__ void cp_async_pipeline(const float *x, const int *y, const s64 *z, float *colsum,
                                  int *ysum, s64 *zsum, int ntiles) {
  __shared__ __attribute__((aligned(16))) float buf[2][TILE];
  __shared__ int ybuf[BLOCK];
  __shared__ s64 zbuf[BLOCK];
  int t = threadIdx.x;
  const float *base = x + (u64)blockIdx.x * ntiles * TILE;
  cp_async16(&buf[0][t * 4], base + t * 4);
  cp_async_commit();
  float acc[4] = {0, 0, 0, 0};
  for (int k = 0; k < ntiles; k++) {
    if (k + 1 < ntiles) cp_async16(&buf[(k + 1) & 1][t * 4], base + (k + 1) * TILE + t * 4);
    cp_async_commit();
    cp_async_wait_group(1); // tile k has landed
    __syncthreads();
    for (int j = 0; j < 4; j++) acc[j] += buf[k & 1][((t + 1) % BLOCK) * 4 + j];
    __syncthreads();
  }
  cp_async4(&ybuf[t], y + blockIdx.x * BLOCK + t);
  cp_async8(&zbuf[t], z + blockIdx.x * BLOCK + t);
  cp_async_wait_all();
  __syncthreads();
  int i = blockIdx.x * BLOCK + t;
  colsum[i] = acc[0] + acc[1] + acc[2] + acc[3];
  ysum[i] = ybuf[t] + ybuf[BLOCK - 1 - t];
  zsum[i] = zbuf[t] - zbuf[(t + 5) % BLOCK];
}

#ifdef DIFF_HOST
DIFF_CASE(cp_async_pipeline) {
  int blocks = 3, ntiles = 5;
  int n = blocks * ntiles * TILE;
  float *x = c.in<float>("x", n, [&](size_t) { return c.rng.f32(-1, 1); });
  int *y = c.in<int>("y", blocks * BLOCK, [&](size_t) { return c.rng.i32(-100000, 100000); });
  s64 *z = c.in<s64>("z", blocks * BLOCK, [&](size_t) { return (s64)c.rng.i32(-100000, 100000) * 77777; });
  float *cs = c.out<float>("colsum", blocks * BLOCK);
  int *ys = c.out<int>("ysum", blocks * BLOCK);
  s64 *zs = c.out<s64>("zsum", blocks * BLOCK);
  c.launch({(unsigned)blocks, 1, 1}, {BLOCK, 1, 1}, cp_async_pipeline, x, y, z, cs, ys, zs, ntiles);
}
#endif
