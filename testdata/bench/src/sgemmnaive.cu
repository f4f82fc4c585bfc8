// sgemmnaive.cu: alu-float: naive C = A * B, one thread per element, its loop reading A and B from global memory.
#include "bench.h"
KERNEL(sgemm_naive, const float *A, const float *B, float *C, u32 n) {
  u32 row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0.0f;
    for (u32 k = 0; k < n; k++) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
  }
}
#ifdef BENCH_HOST
BENCH(sgemmnaive, "alu-float")(Bench &b, bool small) {
  u32 n = small ? 64 : 256;
  auto A = b.buffer<float>("A", n * n, rand_f32(5, -1, 1));
  auto B = b.buffer<float>("B", n * n, rand_f32(6, -1, 1));
  auto C = b.buffer<float>("C", n * n, zero_init(), Check::Exact);
  b.label = std::to_string(n) + "x" + std::to_string(n);
  b.launch<sgemm_naive>(dim3(n / 16, n / 16), dim3(16, 16), A, B, C, n);
}
#endif
