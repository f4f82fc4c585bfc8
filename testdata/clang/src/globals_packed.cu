// Packed aggregates holding pointers at unaligned offsets: PTX can only
// initialize these byte-wise with mask()ed address expressions (PTX 7.1+).
#include "cuda_min.h"

__device__ int target_a = 1;
__device__ int target_b[16];
__constant__ float target_c[4] = {1, 2, 3, 4};

struct PackedPtr {
  unsigned char kind;
  int *where;
  unsigned short n;
} __attribute__((packed));

__device__ PackedPtr g_packed_ptrs[2] = {{1, &target_a, 3},
                                         {2, &target_b[7], 4}};

struct Mixed {
  short s;
  const float *f;
  char c[3];
  int *i;
} __attribute__((packed));

__constant__ Mixed c_mixed = {-2, &target_c[1], {'x', 'y', 'z'}, &target_a};

__global__ void use_packed(int *out, float *fout) {
  int t = threadIdx.x;
  out[t] = *g_packed_ptrs[t & 1].where + g_packed_ptrs[t & 1].n + *c_mixed.i;
  fout[t] = *c_mixed.f + c_mixed.c[t % 3];
}
