// A deliberately large module for parser throughput benchmarks: fully
// unrolled hash rounds, sorting networks and small dense matrix products,
// instantiated for several sizes and types.
#include "cuda_min.h"

__constant__ u32 K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

__device__ __forceinline__ u32 rotr(u32 x, int n) { return (x >> n) | (x << (32 - n)); }

template <int BLOCKS>
__global__ void sha256_blocks(u32 *digest, const u32 *msg) {
  u32 h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
              0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  const u32 *m = msg + (blockIdx.x * blockDim.x + threadIdx.x) * 16 * BLOCKS;
#pragma unroll
  for (int blk = 0; blk < BLOCKS; ++blk) {
    u32 w[64];
#pragma unroll
    for (int i = 0; i < 16; ++i)
      w[i] = m[blk * 16 + i];
#pragma unroll
    for (int i = 16; i < 64; ++i) {
      u32 s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      u32 s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    u32 a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
#pragma unroll
    for (int i = 0; i < 64; ++i) {
      u32 S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      u32 ch = (e & f) ^ (~e & g);
      u32 t1 = hh + S1 + ch + K256[i] + w[i];
      u32 S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      u32 mj = (a & b) ^ (a & c) ^ (b & c);
      u32 t2 = S0 + mj;
      hh = g; g = f; f = e; e = d + t1;
      d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
#pragma unroll
  for (int i = 0; i < 8; ++i)
    digest[(blockIdx.x * blockDim.x + threadIdx.x) * 8 + i] = h[i];
}

template <typename T, int N>
__global__ void bitonic_registers(T *data) {
  T v[N];
  T *p = data + (blockIdx.x * blockDim.x + threadIdx.x) * N;
#pragma unroll
  for (int i = 0; i < N; ++i)
    v[i] = p[i];
#pragma unroll
  for (int k = 2; k <= N; k <<= 1) {
#pragma unroll
    for (int j = k >> 1; j > 0; j >>= 1) {
#pragma unroll
      for (int i = 0; i < N; ++i) {
        int l = i ^ j;
        if (l > i) {
          bool up = (i & k) == 0;
          T a = v[i], b = v[l];
          bool sw = up ? (a > b) : (a < b);
          v[i] = sw ? b : a;
          v[l] = sw ? a : b;
        }
      }
    }
  }
#pragma unroll
  for (int i = 0; i < N; ++i)
    p[i] = v[i];
}

template <typename T, int M>
__global__ void small_gemm(T *c, const T *a, const T *b) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * M * M;
  T ra[M][M], rb[M][M];
#pragma unroll
  for (int i = 0; i < M; ++i)
#pragma unroll
    for (int j = 0; j < M; ++j) {
      ra[i][j] = a[base + i * M + j];
      rb[i][j] = b[base + i * M + j];
    }
#pragma unroll
  for (int i = 0; i < M; ++i)
#pragma unroll
    for (int j = 0; j < M; ++j) {
      T acc = 0;
#pragma unroll
      for (int k = 0; k < M; ++k)
        acc += ra[i][k] * rb[k][j];
      c[base + i * M + j] = acc;
    }
}

template __global__ void sha256_blocks<1>(u32 *, const u32 *);
template __global__ void sha256_blocks<2>(u32 *, const u32 *);
template __global__ void sha256_blocks<4>(u32 *, const u32 *);
template __global__ void bitonic_registers<int, 16>(int *);
template __global__ void bitonic_registers<int, 32>(int *);
template __global__ void bitonic_registers<float, 32>(float *);
template __global__ void bitonic_registers<unsigned long long, 16>(unsigned long long *);
template __global__ void bitonic_registers<double, 16>(double *);
template __global__ void small_gemm<float, 4>(float *, const float *, const float *);
template __global__ void small_gemm<float, 8>(float *, const float *, const float *);
template __global__ void small_gemm<double, 6>(double *, const double *, const double *);
template __global__ void small_gemm<int, 8>(int *, const int *, const int *);
