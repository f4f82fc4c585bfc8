// a block sum in shared memory: a tree over the block's 128 slots (a
// constant size: clang unrolls it) with a barrier per level, thread 0
// writing the block's sum from buf[0] (a variable's own address), and
// adding it to a total (the kernel's one global atomic)
#include "batch.h"
#define B 128
KERNEL(blockreduce, const u32 *in, u32 *partial, u32 *total, u32 n) {
  __attribute__((shared)) u32 buf[B];
  u32 tid = threadIdx.x, i = blockIdx.x * B + tid;
  buf[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (u32 s = B / 2; s > 0; s >>= 1) {
    if (tid < s) buf[tid] += buf[tid + s];
    __syncthreads();
  }
  if (tid == 0) {
    partial[blockIdx.x] = buf[0];
    atomicAdd(total, buf[0]);
  }
}
