// loop_shapes: loops that run as one trace (the engine's loop traces):
// converged counting loops with an unrolled body, loops whose exit test
// sits in the middle with continue and break, loops reading shared and
// global memory, a do-while of per-lane trip counts whose many results
// live on after it (more than a divergent group keeps around a trace), a
// loop inside a loop with a barrier, and loops leaving by return.
#include "diff.h"

__global__ void unrolled_mix(unsigned *out, int rounds) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long s = i * 0x9E3779B97F4A7C15ull, acc = 0;
  for (int r = 0; r < rounds; r++) {
    s += 0x9E3779B97F4A7C15ull;
    unsigned long long z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    acc ^= z ^ (z >> 31);
  }
  out[2 * i] = (unsigned)acc;
  out[2 * i + 1] = (unsigned)(acc >> 32);
}

__global__ void mid_exit(const int *a, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], k = 0, odd = 0, sum = 0;
  while (true) {
    k++;
    if (x & 1) {
      odd++;
      x = x * 3 + 1;
      if (odd > 40) break;
      continue;
    }
    x >>= 1;
    sum += x & 7;
    if (x <= 1 || k > 300) break;
  }
  out[i] = k * 65536 + odd * 256 + (sum & 255);
}

__global__ void shared_scan_loop(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  float acc = 0.0f, w = 1.0f;
  for (int j = 0; j <= t % 37; j++) {
    acc += tile[(t + j * 7) & 255] * w;
    w *= 0.75f;
  }
  if (i < n) out[i] = acc;
}

__global__ void many_live(const unsigned *a, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = a[i], r0 = v, r1 = v ^ 0x55u, r2 = v * 3u, r3 = v + 7u, r4 = v >> 2, r5 = ~v;
  int trips = (v % 23) + 1;
  do {
    r0 += r1;
    r1 ^= r2 << 1;
    r2 += r3 * 5u;
    r3 ^= r4 >> 3;
    r4 += r5;
    r5 = r5 * 1103515245u + 12345u;
  } while (--trips > 0);
  out[6 * i] = r0;
  out[6 * i + 1] = r1;
  out[6 * i + 2] = r2;
  out[6 * i + 3] = r3;
  out[6 * i + 4] = r4;
  out[6 * i + 5] = r5;
}

__global__ void inner_in_barrier_loop(const unsigned *a, unsigned *out) {
  __shared__ unsigned sh[128];
  unsigned t = threadIdx.x, s = a[blockIdx.x * blockDim.x + t];
  for (int round = 0; round < 12; round++) {
    unsigned k = (s & 7) + 1;
    do {
      s = s * 5u + k;
      k--;
    } while (k != 0);
    sh[t] = s;
    __syncthreads();
    s ^= sh[(t + 1) & 127];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + t] = s;
}

__global__ void early_return(const int *a, int *out, int n, int limit) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i];
  for (int k = 0; k < limit; k++) {
    x = x * 7 + k;
    if ((x & 0xff) == 0x2a) {
      out[i] = -k;
      return;
    }
    x ^= x >> 5;
  }
  out[i] = x;
}

#ifdef DIFF_HOST
DIFF_CASE(unrolled_mix) {
  unsigned *out = c.out<unsigned>("out", 2 * 512);
  c.launch({2, 1, 1}, {256, 1, 1}, unrolled_mix, out, 37);
}

DIFF_CASE(mid_exit) {
  int n = 700;
  int *a = c.in<int>("a", n, [&](size_t) { return c.rng.i32(1, 1 << 20); });
  int *out = c.out<int>("out", n);
  c.launch({3, 1, 1}, {256, 1, 1}, mid_exit, a, out, n);
}

DIFF_CASE(shared_scan_loop) {
  int n = 500;
  float *in = c.in<float>("in", n, [&](size_t) { return c.rng.f32(-1.0, 1.0); });
  float *out = c.out<float>("out", n);
  c.launch({2, 1, 1}, {256, 1, 1}, shared_scan_loop, in, out, n);
}

DIFF_CASE(many_live) {
  int n = 600;
  unsigned *a = c.in<unsigned>("a", n, [&](size_t) { return (unsigned)c.rng.i32(0, 1 << 30); });
  unsigned *out = c.out<unsigned>("out", 6 * n);
  c.launch({3, 1, 1}, {256, 1, 1}, many_live, a, out, n);
}

DIFF_CASE(inner_in_barrier_loop) {
  unsigned *a = c.in<unsigned>("a", 3 * 128, [&](size_t) { return (unsigned)c.rng.i32(0, 1 << 30); });
  unsigned *out = c.out<unsigned>("out", 3 * 128);
  c.launch({3, 1, 1}, {128, 1, 1}, inner_in_barrier_loop, a, out);
}

DIFF_CASE(early_return) {
  int n = 640;
  int *a = c.in<int>("a", n, [&](size_t) { return c.rng.i32(-100000, 100000); });
  int *out = c.out<int>("out", n);
  c.launch({3, 1, 1}, {256, 1, 1}, early_return, a, out, n, 500);
}
#endif
