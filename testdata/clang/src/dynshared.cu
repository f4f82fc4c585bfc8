// Dynamic (extern) shared memory, several typed views of one buffer.
#include "cuda_min.h"

extern __shared__ float dyn_smem[];

__global__ void scan_dynamic(float *out, const float *in, int n) {
  float *tmp = dyn_smem;
  int t = threadIdx.x;
  tmp[t] = t < n ? in[t] : 0.0f;
  __syncthreads();
  for (int off = 1; off < n; off <<= 1) {
    float v = t >= off ? tmp[t - off] : 0.0f;
    __syncthreads();
    tmp[t] += v;
    __syncthreads();
  }
  if (t < n)
    out[t] = tmp[t];
}

extern __shared__ __attribute__((aligned(16))) unsigned char raw_smem[];

__global__ void mixed_views(int *iout, double *dout, int nints) {
  int *ints = reinterpret_cast<int *>(raw_smem);
  double *dbls = reinterpret_cast<double *>(raw_smem + ((nints * 4 + 7) & ~7));
  int t = threadIdx.x;
  ints[t] = t * 3;
  dbls[t] = t * 0.25;
  __syncthreads();
  iout[t] = ints[(t + 1) % blockDim.x];
  dout[t] = dbls[(t + 5) % blockDim.x];
}

__global__ void histogram(unsigned *bins, const unsigned char *data, int n,
                          int nbins) {
  unsigned *local = reinterpret_cast<unsigned *>(raw_smem);
  for (int b = threadIdx.x; b < nbins; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    __nvvm_atom_add_gen_i((int *)&local[data[i] % nbins], 1);
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x)
    __nvvm_atom_add_gen_i((int *)&bins[b], (int)local[b]);
}
