// sgemm32.cu: shared: C = A * B with 32x32 shared tiles and 1024-thread blocks.
#include "bench.h"
#define T 32
BLOCK_KERNEL(sgemm32, const float *A, const float *B, float *C, u32 n) {
  SHARED(float, As, [T][T]);
  SHARED(float, Bs, [T][T]);
  PER_THREAD(float, acc);
  PHASE L(acc) = 0.0f; END_PHASE
  for (u32 t = 0; t < n / T; t++) {
    PHASE
      u32 row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
      As[threadIdx.y][threadIdx.x] = A[row * n + t * T + threadIdx.x];
      Bs[threadIdx.y][threadIdx.x] = B[(t * T + threadIdx.y) * n + col];
    END_PHASE
    SYNC;
    PHASE
      float s = L(acc);
#pragma unroll
      for (u32 k = 0; k < T; k++) s += As[threadIdx.y][k] * Bs[k][threadIdx.x];
      L(acc) = s;
    END_PHASE
    SYNC;
  }
  PHASE C[(blockIdx.y * T + threadIdx.y) * n + blockIdx.x * T + threadIdx.x] = L(acc); END_PHASE
}
#ifdef BENCH_HOST
BENCH(sgemm32, "shared")(Bench &b, bool small) {
  u32 n = small ? 64 : 256;
  auto A = b.buffer<float>("A", n * n, rand_f32(5, -1, 1));
  auto B = b.buffer<float>("B", n * n, rand_f32(6, -1, 1));
  auto C = b.buffer<float>("C", n * n, zero_init(), Check::Exact);
  b.label = std::to_string(n) + "x" + std::to_string(n);
  b.launch<sgemm32>(dim3(n / T, n / T), dim3(T, T), A, B, C, n);
}
#endif
