// matmul.cu: shared memory and barriers, C = A * B for square f32
// matrices with 16x16 tiles staged through shared memory (two barriers per
// tile). Products and sums are separate mul and add (-ffp-contract=off), in
// the same order on both sides.
#include "bench.h"

#define TILE 16

BLOCK_KERNEL(matmul_tiled, const float *A, const float *B, float *C, u32 n) {
  SHARED(float, As, [TILE][TILE]);
  SHARED(float, Bs, [TILE][TILE]);
  PER_THREAD(float, acc);
  PHASE
    L(acc) = 0.0f;
  END_PHASE
  for (u32 t = 0; t < n / TILE; t++) {
    PHASE
      u32 row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
      As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
      Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    END_PHASE
    SYNC;
    PHASE
      float s = L(acc);
      for (u32 k = 0; k < TILE; k++) s += As[threadIdx.y][k] * Bs[k][threadIdx.x];
      L(acc) = s;
    END_PHASE
    SYNC;
  }
  PHASE
    C[(blockIdx.y * TILE + threadIdx.y) * n + blockIdx.x * TILE + threadIdx.x] = L(acc);
  END_PHASE
}

#ifdef BENCH_HOST
BENCH(matmul, "shared")(Bench &b, bool small) {
  u32 n = small ? 64 : 256;
  auto A = b.buffer<float>("A", n * n, rand_f32(5, -1, 1));
  auto B = b.buffer<float>("B", n * n, rand_f32(6, -1, 1));
  auto C = b.buffer<float>("C", n * n, zero_init(), Check::Exact);
  b.label = std::to_string(n) + "x" + std::to_string(n);
  b.launch<matmul_tiled>(dim3(n / TILE, n / TILE), dim3(TILE, TILE), A, B, C, n);
}
#endif
