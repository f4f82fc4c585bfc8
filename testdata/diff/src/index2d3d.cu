// index2d3d: 2D and 3D thread blocks and grids, every built-in index
// (threadIdx/blockIdx/blockDim/gridDim .x/.y/.z), bounds checks on
// non-multiple extents, and row-major 2D/3D addressing.
#include "diff.h"

__global__ void index2d(const float *img, float *out, u32 *ids, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float l = img[y * w + (x > 0 ? x - 1 : x)], r = img[y * w + (x + 1 < w ? x + 1 : x)];
  float u = img[(y > 0 ? y - 1 : y) * w + x], d = img[(y + 1 < h ? y + 1 : y) * w + x];
  out[y * w + x] = (l + r + u + d) * 0.25f - img[y * w + x];
  ids[y * w + x] = (blockIdx.x << 24) | (blockIdx.y << 16) | (threadIdx.y << 8) | threadIdx.x;
}

__global__ void index3d(u32 *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  u32 tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  u32 bid = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  u32 *o = out + ((z * ny + y) * nx + x) * 3;
  o[0] = bid * (blockDim.x * blockDim.y * blockDim.z) + tid;
  o[1] = (gridDim.x << 20) | (gridDim.y << 10) | gridDim.z;
  o[2] = (blockDim.x << 20) | (blockDim.y << 10) | blockDim.z;
}

#ifdef DIFF_HOST
DIFF_CASE(index2d) {
  int w = 75, h = 29;
  float *img = c.in<float>("img", w * h, [&](size_t) { return c.rng.f32(0, 255); });
  float *out = c.out<float>("out", w * h);
  u32 *ids = c.out<u32>("ids", w * h);
  c.launch({5, 4, 1}, {16, 8, 1}, index2d, img, out, ids, w, h);
}
DIFF_CASE(index3d) {
  int nx = 13, ny = 11, nz = 5;
  u32 *out = c.out<u32>("out", nx * ny * nz * 3);
  c.launch({2, 3, 3}, {8, 4, 2}, index3d, out, nx, ny, nz);
}
#endif
