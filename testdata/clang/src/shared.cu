// Static shared memory: tiled matrix multiply, block reduction, transpose.
#include "cuda_min.h"

#define TILE 16

__global__ void matmul_tiled(float *c, const float *a, const float *b, int n) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    as[ty][tx] = a[row * n + t * TILE + tx];
    bs[ty][tx] = b[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[row * n + col] = acc;
}

__global__ void block_sum(int *out, const int *in) {
  __shared__ int buf[256];
  unsigned t = threadIdx.x;
  buf[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = buf[0];
}

__global__ void transpose(float *out, const float *in, int w, int h) {
  __shared__ float tile[32][33]; // padded against bank conflicts
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  if (x < h && y < w)
    out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__shared__ double shared_scratch[64];

__device__ __noinline__ void stage(int i, double v) { shared_scratch[i & 63] = v; }

__global__ void shared_via_function(double *out) {
  stage(threadIdx.x, threadIdx.x * 0.5);
  __syncthreads();
  out[threadIdx.x] = shared_scratch[(threadIdx.x + 1) & 63];
#if PTXVM_PTX >= 60
  __nvvm_barrier_sync_cnt(1, 64);
#else
  asm volatile("bar.sync 1, 64;" ::: "memory");
#endif
  int any = __nvvm_bar0_or(out[0] > 0.0);
  int all = __nvvm_bar0_and(out[1] > 0.0);
  int cnt = __nvvm_bar0_popc(out[2] > 0.0);
  out[threadIdx.x + 64] = any + all + cnt;
}
