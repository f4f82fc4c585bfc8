// Device function calls: noinline helpers, several parameter kinds,
// recursion and mutual recursion, variadic device functions.
#include "cuda_min.h"

__device__ __noinline__ int clamp_i(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}
__device__ __noinline__ float lerp(float a, float b, float t) {
  return a + t * (b - a);
}
__device__ __noinline__ void write_pair(int *p, long long a, short b) {
  p[0] = (int)a;
  p[1] = b;
}
__device__ __noinline__ bool is_odd(unsigned v) { return v & 1; }
__device__ __noinline__ void nothing() {}

__device__ __noinline__ unsigned long long factorial(unsigned n) {
  return n <= 1 ? 1ull : n * factorial(n - 1);
}
__device__ __noinline__ int fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
__device__ __noinline__ unsigned ackermann(unsigned m, unsigned n) {
  if (m == 0)
    return n + 1;
  if (n == 0)
    return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}
__device__ bool is_even_r(unsigned n);
__device__ __noinline__ bool is_odd_r(unsigned n) {
  return n == 0 ? false : is_even_r(n - 1);
}
__device__ __noinline__ bool is_even_r(unsigned n) {
  return n == 0 ? true : is_odd_r(n - 1);
}

// Recursion over a local array (forces a stack frame).
__device__ __noinline__ void quicksort(int *a, int lo, int hi) {
  if (lo >= hi)
    return;
  int p = a[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (a[i] < p)
      ++i;
    while (a[j] > p)
      --j;
    if (i <= j) {
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
      ++i;
      --j;
    }
  }
  quicksort(a, lo, j);
  quicksort(a, i, hi);
}

__device__ __noinline__ int sum_varargs(int n, ...) {
  __builtin_va_list ap;
  __builtin_va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += __builtin_va_arg(ap, int);
  __builtin_va_end(ap);
  return s;
}

__global__ void call_everything(int *out, float *fout, const int *in) {
  int t = threadIdx.x;
  out[t] = clamp_i(in[t], -10, 10);
  fout[t] = lerp(fout[t], 1.0f, 0.25f);
  write_pair(out + 64 + 2 * t, (long long)in[t] << 2, (short)t);
  if (is_odd(t))
    nothing();
  out[128 + t] = (int)factorial(t % 20) + fib(t % 12) + ackermann(2, t % 3) +
                 is_even_r(t) + sum_varargs(3, t, t + 1, t + 2);
  int local[16];
  for (int k = 0; k < 16; ++k)
    local[k] = in[(t * 7 + k * 13) % 64];
  quicksort(local, 0, 15);
  out[256 + t] = local[t % 16];
}
