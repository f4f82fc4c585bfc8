// assert, trap, breakpoint, unreachable and noreturn paths.
#include "cuda_min.h"

__global__ void checked_div(int *out, const int *a, const int *b) {
  int t = threadIdx.x;
  assert(b[t] != 0);
  assert(t < 1024 && "thread index out of range");
  out[t] = a[t] / b[t];
}

__device__ __attribute__((noreturn)) __noinline__ void fail(int code) {
  printf("fatal error %d\n", code);
  __builtin_trap();
}

__global__ void guarded(int *p, int n) {
  if (n < 0)
    fail(n);
  if (p == nullptr)
    __builtin_trap();
  if (n == 12345)
    asm volatile("brkpt;");
  p[threadIdx.x] = n;
}

__device__ __noinline__ int classify(int k) {
  switch (k & 3) {
  case 0: return 10;
  case 1: return 20;
  case 2: return 30;
  case 3: return 40;
  }
  __builtin_unreachable();
}

__global__ void unreachable_paths(int *out) {
  out[threadIdx.x] = classify(threadIdx.x);
  unsigned t = threadIdx.x;
  __builtin_assume(t < 512);
  if (__builtin_expect(out[t] == 7, 0))
    __nvvm_exit();
}
