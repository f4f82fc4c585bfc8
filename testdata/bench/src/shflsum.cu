// shflsum.cu: atomics: a warp-shuffle tree sum (shfl.sync.down) and one global atomic add per warp.
#include "bench.h"
// warp-shuffle tree sum per warp, one atomic per warp
BLOCK_KERNEL(shfl_sum, const u32 *in, u32 *total, u32 n) {
  PER_THREAD(u32, v);
  PER_THREAD(u32, t);
  PHASE
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    L(v) = i < n ? in[i] * 3u + 1u : 0u;
  END_PHASE
  for (u32 off = 16; off > 0; off >>= 1) {
    PHASE
#ifdef __CUDA__
      L(t) = __nvvm_shfl_sync_down_i32(0xffffffffu, L(v), off, 31);
#else
      L(t) = (_i % 32) + off < 32 ? v[_i + off] : v[_i];
#endif
    END_PHASE
    PHASE L(v) += L(t); END_PHASE
  }
  PHASE
    if ((threadIdx.x & 31) == 0) atomic_add(total, L(v));
  END_PHASE
}
#ifdef BENCH_HOST
BENCH(shflsum, "atomics")(Bench &b, bool small) {
  u32 n = small ? 1u << 14 : 1u << 22;
  auto in = b.buffer<u32>("in", n, rand_u32(3));
  auto tot = b.buffer<u32>("total", 1, zero_init(), Check::Exact);
  b.label = "n=" + std::to_string(n);
  b.bytes = 4.0 * n;
  b.launch<shfl_sum>(dim3(n / 256), dim3(256), in, tot, n);
}
#endif
