// warp collectives: a shfl.down tree whose lane 0 adds the warp's sum to a
// total (nothing may follow the atomic in a batch), a butterfly of f32 maxima
// every lane stores, and ballot and any of a per-lane predicate
#include "batch.h"
DEVFN u32 shfl_down(u32 v, u32 d) { return (u32)__nvvm_shfl_sync_down_i32(0xffffffffu, (int)v, (int)d, 31); }
DEVFN float shfl_xor_f(float v, u32 d) { return __nvvm_shfl_sync_bfly_f32(0xffffffffu, v, (int)d, 31); }
KERNEL(warpreduce, const u32 *in, u32 *total, const float *x, float *mx, u32 *votes, u32 k) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  u32 v = in[i];
  for (u32 d = 16; d > 0; d >>= 1) v += shfl_down(v, d);
  float m = x[i];
  for (u32 d = 1; d < 32; d <<= 1) m = fmaxf(m, shfl_xor_f(m, d));
  mx[i] = m;
  u32 b = __nvvm_vote_ballot_sync(0xffffffffu, (in[i] & 7) < k);
  u32 a = __nvvm_vote_any_sync(0xffffffffu, in[i] % 97 == k);
  if ((threadIdx.x & 31) == 0) {
    votes[2 * (i / 32)] = b;
    votes[2 * (i / 32) + 1] = a;
    atomicAdd(total, v);
  }
}
