// recursion: recursive device functions of small depth (Fibonacci, a
// recursive GCD, a recursive binary search over global memory, and mutual
// recursion), which need a real call stack.
#include "diff.h"

NOINLINE int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }
NOINLINE u32 gcd(u32 a, u32 b) { return b == 0 ? a : gcd(b, a % b); }
NOINLINE int bsearch_rec(const int *v, int lo, int hi, int key) {
  if (lo > hi) return -(lo + 1);
  int mid = lo + (hi - lo) / 2;
  if (v[mid] == key) return mid;
  if (v[mid] < key) return bsearch_rec(v, mid + 1, hi, key);
  return bsearch_rec(v, lo, mid - 1, key);
}
NOINLINE int is_odd(u32 k);
NOINLINE int is_even(u32 k) { return k == 0 ? 1 : is_odd(k - 1); }
NOINLINE int is_odd(u32 k) { return k == 0 ? 0 : is_even(k - 1); }

__global__ void recursion(const u32 *a, const int *sorted, int m, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  u32 x = a[i];
  out[i * 4] = fib((int)(x % 16));
  out[i * 4 + 1] = (int)gcd(x, a[(i * 7 + 3) % n]);
  out[i * 4 + 2] = bsearch_rec(sorted, 0, m - 1, (int)(x % 5000));
  out[i * 4 + 3] = is_even(x % 40);
}

#ifdef DIFF_HOST
DIFF_CASE(recursion) {
  int n = 160, m = 500;
  u32 *a = c.in<u32>("a", n, [&](size_t) { return c.rng.u32v() >> c.rng.i32(0, 20); });
  int prev = 0;
  int *sorted = c.in<int>("sorted", m, [&](size_t) { return prev += c.rng.i32(1, 19); });
  int *out = c.out<int>("out", n * 4);
  c.launch({2, 1, 1}, {80, 1, 1}, recursion, a, sorted, m, out, n);
}
#endif
