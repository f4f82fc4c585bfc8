// local_array: per-thread arrays indexed with run-time values (kept in
// local memory): an insertion sort of 16 values, a small histogram, and a
// 4x4 matrix product held in a local 2D array.
#include "diff.h"

__global__ void local_array(const int *in, int *sorted, int *hist, float *mat, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v[16];
  for (int j = 0; j < 16; j++) v[j] = in[(i * 16 + j * 5) % (n * 16)];
  for (int j = 1; j < 16; j++) {
    int key = v[j], k = j - 1;
    while (k >= 0 && v[k] > key) { v[k + 1] = v[k]; k--; }
    v[k + 1] = key;
  }
  for (int j = 0; j < 16; j++) sorted[i * 16 + j] = v[j];
  int h[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int j = 0; j < 16; j++) h[(u32)v[j] % 8u]++;
  for (int j = 0; j < 8; j++) hist[i * 8 + j] = h[j];
  float m[4][4], r[4][4];
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++) m[a][b] = (float)v[(a * 4 + b + i) & 15] * 0.01f;
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++) {
      float s = 0.0f;
      for (int k = 0; k < 4; k++) s += m[a][k] * m[k][(b + i) & 3];
      r[a][b] = s;
    }
  for (int a = 0; a < 16; a++) mat[i * 16 + a] = r[a & 3][a >> 2];
}

#ifdef DIFF_HOST
DIFF_CASE(local_array) {
  int n = 100;
  int *in = c.in<int>("in", n * 16, [&](size_t) { return c.rng.i32(-500, 500); });
  int *sorted = c.out<int>("sorted", n * 16);
  int *hist = c.out<int>("hist", n * 8);
  float *mat = c.out<float>("mat", n * 16);
  c.launch({1, 1, 1}, {100, 1, 1}, local_array, in, sorted, hist, mat, n);
}
#endif
