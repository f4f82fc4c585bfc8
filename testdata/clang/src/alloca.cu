// Dynamic stack allocation (alloca; clang refuses VLAs in device code): needs
// PTX ISA 7.3 and sm_52, so older targets are expected to be refused.
#include "cuda_min.h"

__device__ __noinline__ int use_dynamic_stack(int n) {
  int *p = (int *)__builtin_alloca(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    p[i] = i * i;
  int s = 0;
  for (int i = n - 1; i >= 0; i -= 2)
    s += p[i];
  return s;
}

__global__ void dynamic_stack(int *out, int n) { out[threadIdx.x] = use_dynamic_stack(n); }

__device__ __noinline__ double two_allocas(int n, int m) {
  double *a = (double *)__builtin_alloca(n * sizeof(double));
  char *b = (char *)__builtin_alloca_with_align(m, 128);
  for (int i = 0; i < n; ++i)
    a[i] = i * 0.5;
  for (int i = 0; i < m; ++i)
    b[i] = (char)i;
  return a[n / 2] + b[m - 1];
}

__global__ void allocas(double *out, int n, int m) { out[threadIdx.x] = two_allocas(n, m); }
