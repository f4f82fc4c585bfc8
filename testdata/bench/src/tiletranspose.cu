// tiletranspose.cu: the classic transposeCoalesced: a 32x32 tile through a
// 32x33 shared array (padded against bank conflicts), 32x8 threads per
// block, each thread moving 4 elements.
#include "bench.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

BLOCK_KERNEL(transpose_tiled, float *odata, const float *idata) {
  SHARED(float, tile, [TILE_DIM][TILE_DIM + 1]);
  PHASE
    u32 x = blockIdx.x * TILE_DIM + threadIdx.x;
    u32 y = blockIdx.y * TILE_DIM + threadIdx.y;
    u32 width = gridDim.x * TILE_DIM;
    for (u32 j = 0; j < TILE_DIM; j += BLOCK_ROWS)
      tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  END_PHASE
  SYNC;
  PHASE
    u32 x = blockIdx.y * TILE_DIM + threadIdx.x;
    u32 y = blockIdx.x * TILE_DIM + threadIdx.y;
    u32 width = gridDim.x * TILE_DIM;
    for (u32 j = 0; j < TILE_DIM; j += BLOCK_ROWS)
      odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
  END_PHASE
}

#ifdef BENCH_HOST
BENCH(tiletranspose, "memory")(Bench &b, bool small) {
  u32 n = small ? 256 : 2048;
  auto in = b.buffer<float>("in", n * n, rand_f32(21, -1, 1));
  auto out = b.buffer<float>("out", n * n, zero_init(), Check::Exact);
  b.label = std::to_string(n) + "x" + std::to_string(n);
  b.bytes = 8.0 * n * n;
  b.launch<transpose_tiled>(dim3(n / TILE_DIM, n / TILE_DIM), dim3(TILE_DIM, BLOCK_ROWS), out, in);
}
#endif
