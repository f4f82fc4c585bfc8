// transpose.cu: memory-bound, a naive out-of-place transpose of a square
// f32 matrix (coalesced reads, strided writes), 32x8 thread blocks.
#include "bench.h"

KERNEL(transpose_naive, const float *in, float *out, u32 n) {
  u32 x = blockIdx.x * blockDim.x + threadIdx.x;
  u32 y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) out[x * n + y] = in[y * n + x];
}

#ifdef BENCH_HOST
BENCH(transpose, "memory")(Bench &b, bool small) {
  u32 n = small ? 128 : 2048;
  auto in = b.buffer<float>("in", n * n, rand_f32(4, -1, 1));
  auto out = b.buffer<float>("out", n * n, zero_init(), Check::Exact);
  b.label = std::to_string(n) + "x" + std::to_string(n);
  b.bytes = 8.0 * n * n;
  b.launch<transpose_naive>(dim3(n / 32, n / 8), dim3(32, 8), in, out, n);
}
#endif
