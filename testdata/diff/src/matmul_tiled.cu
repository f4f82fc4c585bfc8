// matmul_tiled: C = A * B with 16x16 shared-memory tiles, 2D blocks and
// grid, bounds-checked tile loads for sizes that are not multiples of 16,
// and an explicit fma in the inner product. Also a naive (no shared
// memory) float matmul with separate multiply and add.
#include "diff.h"

#define TILE 16

__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (col < N && k0 + ty < K) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc = fmaf_(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

__global__ void matmul_naive(const float *A, const float *B, float *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; k++) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

#ifdef DIFF_HOST
DIFF_CASE(matmul_tiled) {
  int M = 45, N = 38, K = 53;
  float *A = c.in<float>("A", M * K, [&](size_t) { return c.rng.f32(-1, 1); });
  float *B = c.in<float>("B", K * N, [&](size_t) { return c.rng.f32(-1, 1); });
  float *C = c.out<float>("C", M * N);
  c.launch({(unsigned)(N + TILE - 1) / TILE, (unsigned)(M + TILE - 1) / TILE, 1}, {TILE, TILE, 1},
           matmul_tiled, A, B, C, M, N, K);
}
DIFF_CASE(matmul_naive) {
  int M = 33, N = 50, K = 41;
  float *A = c.in<float>("A", M * K, [&](size_t) { return c.rng.f32(-2, 2); });
  float *B = c.in<float>("B", K * N, [&](size_t) { return c.rng.f32(-2, 2); });
  float *C = c.out<float>("C", M * N);
  c.launch({4, 5, 1}, {16, 8, 1}, matmul_naive, A, B, C, M, N, K);
}
#endif
