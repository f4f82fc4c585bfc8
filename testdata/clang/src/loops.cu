// Loop shapes: counted, while, do-while, nested, early exit, unroll pragmas.
#include "cuda_min.h"

__global__ void saxpy_loop(float *y, const float *x, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void collatz(int *steps, const unsigned *start, int n) {
  int i = threadIdx.x;
  if (i >= n)
    return;
  unsigned v = start[i];
  int s = 0;
  while (v != 1 && s < 1000) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    ++s;
  }
  steps[i] = s;
}

__global__ void find_first(int *res, const int *data, int n, int key) {
  int i = 0;
  do {
    if (data[i] == key)
      break;
    ++i;
  } while (i < n);
  *res = i == n ? -1 : i;
}

__global__ void nested(float *out, const float *m, int rows, int cols) {
  float acc = 0.0f;
  for (int r = 0; r < rows; ++r) {
    if (r == (int)threadIdx.x)
      continue;
    for (int c = 0; c < cols; ++c) {
      float v = m[r * cols + c];
      if (v < 0.0f)
        break;
      acc += v;
    }
  }
  out[threadIdx.x] = acc;
}

__global__ void unrolled(float *out, const float *in) {
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    acc += in[threadIdx.x * 8 + k] * (float)(k + 1);
  out[threadIdx.x] = acc;
}

__global__ void not_unrolled(int *out, const int *in, int n) {
  int acc = 0;
#pragma unroll 1
  for (int k = 0; k < n; ++k)
    acc += in[k] * k;
  out[0] = acc;
}

__global__ void partly_unrolled(int *out, const int *in, int n) {
  int acc = 0;
#pragma unroll 4
  for (int k = 0; k < n; ++k)
    acc ^= in[k] + k;
  out[1] = acc;
}

__global__ void count_down(long long *out, long long n) {
  long long acc = 1;
  for (long long k = n; k > 0; k -= 3)
    acc = acc * 31 + k;
  out[threadIdx.x] = acc;
}
