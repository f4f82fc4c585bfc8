// sgemmreg.cu: shared: C = A * B with 64x64 block tiles through shared memory and a 4x4 tile of C per thread in registers (the register-tiled sgemm).
#include "bench.h"
// 64x64 block tile, 16x16 threads, each a 4x4 micro-tile, k-tile 16
#define BT 64
#define KT 16
BLOCK_KERNEL(sgemmreg, const float *A, const float *B, float *C, u32 n) {
  SHARED(float, As, [KT][BT]);
  SHARED(float, Bs, [KT][BT]);
#ifdef __CUDA__
  float acc[16];
#define ACC(r, c) acc[(r) * 4 + (c)]
#else
  static float acc[1024][16];
#define ACC(r, c) acc[_i][(r) * 4 + (c)]
#endif
  PHASE for (int q = 0; q < 16; q++) ACC(q / 4, q % 4) = 0.0f; END_PHASE
  for (u32 kt = 0; kt < n; kt += KT) {
    PHASE
      u32 tid = threadIdx.y * 16 + threadIdx.x;
      for (u32 q = 0; q < 4; q++) {
        u32 e = tid + q * 256, r = e / KT, c = e % KT; // A tile: 64 rows x 16 cols
        As[c][r] = A[(blockIdx.y * BT + r) * n + kt + c];
        u32 rb = e / BT, cb = e % BT; // B tile: 16 rows x 64 cols
        Bs[rb][cb] = B[(kt + rb) * n + blockIdx.x * BT + cb];
      }
    END_PHASE
    SYNC;
    PHASE
#pragma unroll
      for (u32 k = 0; k < KT; k++) {
        float a[4], bb[4];
#pragma unroll
        for (u32 q = 0; q < 4; q++) { a[q] = As[k][threadIdx.y * 4 + q]; bb[q] = Bs[k][threadIdx.x * 4 + q]; }
#pragma unroll
        for (u32 r = 0; r < 4; r++)
#pragma unroll
          for (u32 c = 0; c < 4; c++) ACC(r, c) += a[r] * bb[c];
      }
    END_PHASE
    SYNC;
  }
  PHASE
    for (u32 r = 0; r < 4; r++)
      for (u32 c = 0; c < 4; c++)
        C[(blockIdx.y * BT + threadIdx.y * 4 + r) * n + blockIdx.x * BT + threadIdx.x * 4 + c] = ACC(r, c);
  END_PHASE
}
#ifdef BENCH_HOST
BENCH(sgemmreg, "shared")(Bench &b, bool small) {
  u32 n = small ? 64 : 256;
  auto A = b.buffer<float>("A", n * n, rand_f32(5, -1, 1));
  auto B = b.buffer<float>("B", n * n, rand_f32(6, -1, 1));
  auto C = b.buffer<float>("C", n * n, zero_init(), Check::Exact);
  b.label = std::to_string(n) + "x" + std::to_string(n);
  b.launch<sgemmreg>(dim3(n / BT, n / BT), dim3(16, 16), A, B, C, n);
}
#endif
