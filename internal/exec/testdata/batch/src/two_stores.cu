// two stores per thread into different buffers, one of them shifted
#include "batch.h"
KERNEL(two_stores, u32 n, const u32 *in, u32 *out1, u64 *out2) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    u32 v = in[i];
    out1[i] = v + 1;
    out2[i + 1] = (u64)v * v;
  }
}
