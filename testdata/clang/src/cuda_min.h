// cuda_min.h: the few CUDA declarations the corpus kernels need, so that
// clang can compile them with -nocudainc -nocudalib (no CUDA SDK).
// Thread/block index variables come from clang's own resource header.
#pragma once

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __noinline__ __attribute__((noinline))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __grid_constant__ __attribute__((grid_constant))
#define __restrict__ __restrict

#include "__clang_cuda_builtin_vars.h"

typedef __SIZE_TYPE__ size_t;
typedef unsigned long long u64;
typedef unsigned int u32;

extern "C" __device__ int printf(const char *, ...);
extern "C" __device__ void *malloc(size_t);
extern "C" __device__ void free(void *);
extern "C" __device__ __attribute__((noreturn)) void
__assertfail(const char *msg, const char *file, unsigned line,
             const char *func, size_t charsize);

#define assert(e)                                                            \
  ((e) ? (void)0                                                             \
       : __assertfail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__, 1))

static __device__ __forceinline__ void syncthreads() { __syncthreads(); }

// The generator passes the PTX ISA version as -DPTXVM_PTX=NN (e.g. 60 for
// 6.0) so sources can pick instruction forms that version has.
#ifndef PTXVM_PTX
#define PTXVM_PTX 80
#endif

// Warp-level helpers, thin wrappers over clang's NVVM builtins. Before
// PTX 6.0 there are no .sync forms: use the legacy shuffles and votes.
#define FULL_MASK 0xffffffffu
#if PTXVM_PTX >= 60
static __device__ __forceinline__ int shfl_down(u32 m, int v, int d) {
  return __nvvm_shfl_sync_down_i32(m, v, d, 0x1f);
}
static __device__ __forceinline__ float shfl_down_f(u32 m, float v, int d) {
  return __nvvm_shfl_sync_down_f32(m, v, d, 0x1f);
}
static __device__ __forceinline__ int shfl_up(u32 m, int v, int d) {
  return __nvvm_shfl_sync_up_i32(m, v, d, 0);
}
static __device__ __forceinline__ int shfl_xor(u32 m, int v, int d) {
  return __nvvm_shfl_sync_bfly_i32(m, v, d, 0x1f);
}
static __device__ __forceinline__ int shfl_idx(u32 m, int v, int l) {
  return __nvvm_shfl_sync_idx_i32(m, v, l, 0x1f);
}
static __device__ __forceinline__ u32 ballot(u32 m, int p) {
  return __nvvm_vote_ballot_sync(m, p);
}
#else
static __device__ __forceinline__ int shfl_down(u32, int v, int d) {
  return __nvvm_shfl_down_i32(v, d, 0x1f);
}
static __device__ __forceinline__ float shfl_down_f(u32, float v, int d) {
  return __nvvm_shfl_down_f32(v, d, 0x1f);
}
static __device__ __forceinline__ int shfl_up(u32, int v, int d) {
  return __nvvm_shfl_up_i32(v, d, 0);
}
static __device__ __forceinline__ int shfl_xor(u32, int v, int d) {
  return __nvvm_shfl_bfly_i32(v, d, 0x1f);
}
static __device__ __forceinline__ int shfl_idx(u32, int v, int l) {
  return __nvvm_shfl_idx_i32(v, l, 0x1f);
}
static __device__ __forceinline__ u32 ballot(u32, int p) {
  u32 r;
  asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\tvote.ballot.b32 %0, q;\n\t}"
               : "=r"(r)
               : "r"(p));
  return r;
}
#endif
static __device__ __forceinline__ unsigned lane_id() {
  return __nvvm_read_ptx_sreg_laneid();
}
