// stencil.cu: shared memory and barriers, a radius-4 1-D f32 stencil: each
// block stages its 256 inputs plus a halo of 4 on each side in shared
// memory, waits, then each thread sums 9 weighted neighbours. The input
// has n + 8 elements (the halo of the ends included).
#include "bench.h"

#define RADIUS 4
#define SBLOCK 256

BLOCK_KERNEL(stencil1d, const float *in, float *out) {
  SHARED(float, tile, [SBLOCK + 2 * RADIUS]);
  PHASE
    u32 g = blockIdx.x * SBLOCK + threadIdx.x;
    tile[threadIdx.x + RADIUS] = in[g + RADIUS];
    if (threadIdx.x < RADIUS) {
      tile[threadIdx.x] = in[g];
      tile[threadIdx.x + SBLOCK + RADIUS] = in[g + SBLOCK + RADIUS];
    }
  END_PHASE
  SYNC;
  PHASE
    const float w[2 * RADIUS + 1] = {0.02f, 0.05f, 0.1f, 0.2f, 0.26f, 0.2f, 0.1f, 0.05f, 0.02f};
    float s = 0.0f;
    for (u32 k = 0; k <= 2 * RADIUS; k++) s += w[k] * tile[threadIdx.x + k];
    out[blockIdx.x * SBLOCK + threadIdx.x] = s;
  END_PHASE
}

#ifdef BENCH_HOST
BENCH(stencil, "shared")(Bench &b, bool small) {
  u32 n = small ? 1u << 14 : 1u << 22;
  auto in = b.buffer<float>("in", n + 2 * RADIUS, rand_f32(8, -1, 1));
  auto out = b.buffer<float>("out", n, zero_init(), Check::Exact);
  b.label = "n=" + std::to_string(n);
  b.bytes = 8.0 * n;
  b.launch<stencil1d>(dim3(n / SBLOCK), dim3(SBLOCK), in, out);
}
#endif
