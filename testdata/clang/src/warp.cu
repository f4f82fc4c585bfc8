// Warp shuffles, votes, match and redux.
#include "cuda_min.h"

__device__ __forceinline__ int warp_reduce_sum(int v) {
  for (int off = 16; off > 0; off >>= 1)
    v += shfl_down(FULL_MASK, v, off);
  return v;
}

__device__ __forceinline__ float warp_reduce_max(float v) {
  for (int off = 16; off > 0; off >>= 1)
    v = __builtin_fmaxf(v, shfl_down_f(FULL_MASK, v, off));
  return v;
}

__global__ void reduce(int *out, float *fout, const int *in) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int s = warp_reduce_sum(v);
  float m = warp_reduce_max((float)v);
  if (lane_id() == 0) {
    __nvvm_atom_add_gen_i(out, s);
    fout[threadIdx.x / 32] = m;
  }
}

__global__ void prefix_scan(int *data) {
  int v = data[threadIdx.x];
  unsigned lane = threadIdx.x & 31;
  for (int d = 1; d < 32; d <<= 1) {
    int n = shfl_up(FULL_MASK, v, d);
    if (lane >= (unsigned)d)
      v += n;
  }
  data[threadIdx.x] = v;
}

__global__ void butterfly(int *data) {
  int v = data[threadIdx.x];
  for (int m = 1; m < 32; m <<= 1)
    { int o = shfl_xor(FULL_MASK, v, m); v = v > o ? v : o; }
  data[threadIdx.x] = v + shfl_idx(FULL_MASK, v, 0);
}

__global__ void votes(unsigned *out, const float *in) {
  bool pos = in[threadIdx.x] > 0.0f;
  unsigned b = ballot(FULL_MASK, pos);
  unsigned lt = __nvvm_read_ptx_sreg_lanemask_lt();
#if PTXVM_PTX >= 60
  int any = __nvvm_vote_any_sync(FULL_MASK, pos);
  int all = __nvvm_vote_all_sync(FULL_MASK, pos);
  int uni = __nvvm_vote_uni_sync(FULL_MASK, pos);
  out[threadIdx.x] = __builtin_popcount(b & lt) + any + 2 * all + 4 * uni;
  // Shuffle with explicit clamp and a partial mask inside a branch.
  if (threadIdx.x < 16) {
    int w = __nvvm_shfl_sync_idx_i32(0xffffu, (int)b, 3, 0xf1f);
    out[threadIdx.x + 32] = w;
  }
#else
  int any;
  asm("{ .reg .pred p, q; setp.ne.u32 p, %1, 0; vote.any.pred q, p; selp.s32 %0, 1, 0, q; }"
      : "=r"(any)
      : "r"((unsigned)pos));
  out[threadIdx.x] = __builtin_popcount(b & lt) + any;
  if (threadIdx.x < 16)
    out[threadIdx.x + 32] = __nvvm_shfl_idx_i32((int)b, 3, 0xf1f);
#endif
  out[threadIdx.x + 64] = shfl_down(FULL_MASK, (int)b, 5);
}

__global__ void match_and_redux(unsigned *out, const unsigned *keys) {
  unsigned k = keys[threadIdx.x];
#if __CUDA_ARCH__ >= 700
  unsigned peers = __nvvm_match_any_sync_i32(FULL_MASK, k);
  int pred;
  unsigned all = __nvvm_match_all_sync_i32p(FULL_MASK, k, &pred);
  unsigned act = __nvvm_activemask();
  out[threadIdx.x] = peers + all + pred + act;
  __nvvm_bar_warp_sync(FULL_MASK);
#endif
#if __CUDA_ARCH__ >= 800
  out[threadIdx.x + 32] = __nvvm_redux_sync_add(k, FULL_MASK) +
                          __nvvm_redux_sync_umin(k, FULL_MASK) +
                          __nvvm_redux_sync_max((int)k, FULL_MASK) +
                          __nvvm_redux_sync_xor(k, FULL_MASK);
#endif
}
