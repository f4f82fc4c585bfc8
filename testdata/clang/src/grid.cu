// 2D/3D grids and blocks, launch bounds, cluster dimensions, grid_constant.
#include "cuda_min.h"

__global__ void index2d(float *img, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    img[y * w + x] = (float)(x ^ y) / (float)(gridDim.x * gridDim.y);
}

__global__ void stencil3d(float *out, const float *in, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1)
    return;
  long long sx = 1, sy = nx, sz = (long long)nx * ny;
  long long i = x * sx + y * sy + z * sz;
  out[i] = -6.0f * in[i] + in[i - sx] + in[i + sx] + in[i - sy] + in[i + sy] +
           in[i - sz] + in[i + sz];
}

__global__ void dims(unsigned *out) {
  unsigned linear_block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned linear_thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
  out[linear_block * nthreads + linear_thread] =
      gridDim.z * 1000000 + blockDim.z * 1000 + warpSize;
}

__global__ void __launch_bounds__(256, 4) bounded(int *p) { p[threadIdx.x] *= 2; }
__global__ void __launch_bounds__(1024) bounded_max(int *p) { p[threadIdx.x] += 1; }

struct Params {
  float scale;
  int n;
  float table[16];
};
__global__ void grid_const(__grid_constant__ const Params p, float *out) {
  const Params *pp = &p; // taking the address forces the param space
  out[threadIdx.x] = pp->table[threadIdx.x % 16] * pp->scale + (float)pp->n;
}

#if __CUDA_ARCH__ >= 900
__global__ void cluster_sregs(unsigned *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      __nvvm_read_ptx_sreg_cluster_ctarank() + __nvvm_read_ptx_sreg_clusterid_x() +
      __nvvm_read_ptx_sreg_cluster_nctaid_x() + __nvvm_read_ptx_sreg_nclusterid_y();
}
__global__ void __launch_bounds__(128, 1, 8) bounded_cluster(int *p) {
  p[threadIdx.x] = __nvvm_is_explicit_cluster();
  __nvvm_barrier_cluster_arrive();
  __nvvm_barrier_cluster_wait();
}
#endif
