// Half precision (_Float16), bfloat16 (__bf16) and packed half2 arithmetic.
#include "cuda_min.h"

typedef _Float16 half;
typedef _Float16 half2 __attribute__((ext_vector_type(2)));
typedef __bf16 bf16;
typedef __bf16 bf162 __attribute__((ext_vector_type(2)));

__global__ void half_scalar(half *out, const half *a, const half *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  half x = a[i], y = b[i];
  half r = x * y + x;
  r = r - y / x;
  r = x < y ? r : -r;
  out[i] = r;
}

__global__ void half_fma_convert(float *fout, half *hout, const float *in) {
  int t = threadIdx.x;
  half h = (half)in[t];
  half k = (half)0.1f;
  half r = __builtin_fmaf16(h, k, (half)1.0f);
  fout[t] = (float)r + (float)(half)(double)in[t + 1];
  hout[t] = (half)(int)t + (half)(unsigned short)(t * 3);
  hout[t + 32] = (half)65504.0f; // largest finite half
}

__global__ void half2_ops(half2 *out, const half2 *a, const half2 *b) {
  int t = threadIdx.x;
  half2 x = a[t], y = b[t];
  half2 r = x * y + x;
  r = r - y;
  out[t] = r.yx;
}

__global__ void half_compare(int *out, const half *a) {
  int t = threadIdx.x;
  half x = a[t];
  out[t] = (x > (half)0.5f) + 2 * (x != x) + 4 * (x == (half)0);
}

__global__ void bfloat(bf16 *out, const bf16 *a, const float *f) {
  int t = threadIdx.x;
  bf16 x = a[t];
  bf16 y = (bf16)f[t];
  out[t] = x * y + (bf16)1.0f;
  out[t + 64] = (bf16)((float)x - (float)y);
}

__global__ void bfloat2(bf162 *out, const bf162 *a, const bf162 *b) {
  int t = threadIdx.x;
  out[t] = a[t] * b[t] + a[t];
}
