// diff.h: the one header every differential kernel includes.
//
// The same kernel source is compiled twice:
//   * for the device by clang in CUDA mode (clang defines __CUDA__ and
//     __CUDA_ARCH__), giving the PTX under test;
//   * for the host as plain C++ with -DDIFF_HOST, linked with host.cpp,
//     which runs every thread of every block and writes the expected
//     outputs into the case file.
// Only what both sides can compute identically is offered here: integer
// operations, IEEE round-to-nearest float operations (+ - * / fma sqrt,
// min/max, abs, copysign) and integer atomics whose result does not depend
// on the order of the threads.
#pragma once

typedef unsigned char u8;
typedef signed char s8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long s64;

#if defined(__CUDA__)
// ---------------------------------------------------------------- device
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __noinline__ __attribute__((noinline))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __restrict__ __restrict
#include "__clang_cuda_builtin_vars.h"
#define DEVFN static __device__ __forceinline__
#define NOINLINE __device__ __noinline__
// extern __shared__ array (dynamic shared memory).
#define DYN_SHARED(T, name) extern __shared__ T name[]

DEVFN int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
DEVFN u32 __umulhi(u32 a, u32 b) { return __nvvm_mulhi_ui(a, b); }
DEVFN u64 __umul64hi(u64 a, u64 b) { return __nvvm_mulhi_ull(a, b); }
DEVFN int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
DEVFN u32 atomicAdd(u32 *p, u32 v) {
  return (u32)__nvvm_atom_add_gen_i((int *)p, (int)v);
}
DEVFN u64 atomicAdd(u64 *p, u64 v) {
  return (u64)__nvvm_atom_add_gen_ll((long long *)p, (long long)v);
}

#else
// ------------------------------------------------------------------ host
#ifndef DIFF_HOST
#error "compile kernels for the host with -DDIFF_HOST (see host.cpp)"
#endif
#define __global__
#define __device__
#define __host__
#define __constant__
// One copy per kernel function; blocks run one after another on the host,
// so a function-scope static behaves as per-block shared memory.
#define __shared__ static
#define __noinline__ __attribute__((noinline))
#define __forceinline__ inline __attribute__((always_inline))
#define __restrict__ __restrict
#define DEVFN static inline
#define NOINLINE __attribute__((noinline))
extern void *diff_dynamic_shared;
#define DYN_SHARED(T, name) T *name = (T *)diff_dynamic_shared

struct uint3 { unsigned x, y, z; };
struct dim3 { unsigned x, y, z; };
extern uint3 threadIdx, blockIdx;
extern dim3 blockDim, gridDim;
// Suspends the calling thread until every thread of the block arrives.
void __syncthreads();

DEVFN int __mulhi(int a, int b) { return (int)(((s64)a * (s64)b) >> 32); }
DEVFN u32 __umulhi(u32 a, u32 b) { return (u32)(((u64)a * (u64)b) >> 32); }
DEVFN u64 __umul64hi(u64 a, u64 b) {
  return (u64)(((unsigned __int128)a * b) >> 64);
}
// Threads run one at a time on the host: a plain read-modify-write is atomic.
template <class T> DEVFN T atomicAdd(T *p, T v) {
  T old = *p;
  *p = old + v;
  return old;
}
#endif

// --------------------------------------------------------------- common
// Bit counting: LLVM's generic intrinsics, popc/clz/brev on the device.
DEVFN int __popc(u32 x) { return __builtin_popcount(x); }
DEVFN int __popcll(u64 x) { return __builtin_popcountll(x); }
DEVFN int __clz(u32 x) { return __builtin_clzg(x, 32); }
DEVFN int __clzll(u64 x) { return __builtin_clzg(x, 64); }
DEVFN u32 __brev(u32 x) { return __builtin_bitreverse32(x); }
DEVFN u64 __brevll(u64 x) { return __builtin_bitreverse64(x); }
DEVFN int __ffs(int x) { return __builtin_ffs(x); }

// Correctly rounded on both sides: llvm.fma/sqrt/minnum/maxnum/fabs/copysign
// become fma.rn, sqrt.rn, min, max, abs, copysign on the device and IEEE
// instructions or glibc's correctly rounded fma on the host.
DEVFN float fmaf_(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
DEVFN double fma_(double a, double b, double c) { return __builtin_fma(a, b, c); }
DEVFN float sqrtf_(float x) { return __builtin_sqrtf(x); }
DEVFN double sqrt_(double x) { return __builtin_sqrt(x); }
DEVFN float fminf_(float a, float b) { return __builtin_fminf(a, b); }
DEVFN float fmaxf_(float a, float b) { return __builtin_fmaxf(a, b); }
DEVFN double fmin_(double a, double b) { return __builtin_fmin(a, b); }
DEVFN double fmax_(double a, double b) { return __builtin_fmax(a, b); }
DEVFN float fabsf_(float x) { return __builtin_fabsf(x); }
DEVFN double fabs_(double x) { return __builtin_fabs(x); }
DEVFN float copysignf_(float a, float b) { return __builtin_copysignf(a, b); }
DEVFN int imin(int a, int b) { return a < b ? a : b; }
DEVFN int imax(int a, int b) { return a > b ? a : b; }
DEVFN u32 umin(u32 a, u32 b) { return a < b ? a : b; }
DEVFN u32 umax(u32 a, u32 b) { return a > b ? a : b; }
DEVFN float int_as_float(int i) { return __builtin_bit_cast(float, i); }
DEVFN int float_as_int(float f) { return __builtin_bit_cast(int, f); }
DEVFN double ll_as_double(s64 i) { return __builtin_bit_cast(double, i); }
DEVFN s64 double_as_ll(double d) { return __builtin_bit_cast(s64, d); }

// ------------------------------------------------------ warp collectives
// shfl/vote/match/redux over a full warp. On the host every thread of the
// block exchanges through diff_warp_slots between two __syncthreads, so a
// kernel must call these uniformly: every thread of the block, in the same
// order (blockDim.x a multiple of 32). The width argument splits the warp
// into segments as CUDA's __shfl_*_sync do (c operand of shfl.sync).
#define FULL_MASK 0xffffffffu
#if defined(__CUDA__)
DEVFN int shfl_down(u32 m, int v, int d, int w = 32) {
  return __nvvm_shfl_sync_down_i32(m, v, d, ((32 - w) << 8) | 0x1f);
}
DEVFN int shfl_up(u32 m, int v, int d, int w = 32) {
  return __nvvm_shfl_sync_up_i32(m, v, d, (32 - w) << 8);
}
DEVFN int shfl_xor(u32 m, int v, int d, int w = 32) {
  return __nvvm_shfl_sync_bfly_i32(m, v, d, ((32 - w) << 8) | 0x1f);
}
DEVFN int shfl_idx(u32 m, int v, int src, int w = 32) {
  return __nvvm_shfl_sync_idx_i32(m, v, src, ((32 - w) << 8) | 0x1f);
}
DEVFN float shfl_down_f(u32 m, float v, int d, int w = 32) {
  return __nvvm_shfl_sync_down_f32(m, v, d, ((32 - w) << 8) | 0x1f);
}
DEVFN u32 ballot(u32 m, int p) { return __nvvm_vote_ballot_sync(m, p != 0); }
DEVFN int any_sync(u32 m, int p) { return __nvvm_vote_any_sync(m, p != 0); }
DEVFN int all_sync(u32 m, int p) { return __nvvm_vote_all_sync(m, p != 0); }
DEVFN u32 match_any(u32 m, u32 v) { return __nvvm_match_any_sync_i32(m, v); }
DEVFN int reduce_add(u32 m, int v) { return __nvvm_redux_sync_add(v, m); }
DEVFN int reduce_min(u32 m, int v) { return __nvvm_redux_sync_min(v, m); }
DEVFN u32 reduce_umax(u32 m, u32 v) { return __nvvm_redux_sync_umax(v, m); }
DEVFN int syncthreads_count(int p) { return __nvvm_bar0_popc(p != 0); }
DEVFN int syncthreads_and(int p) { return __nvvm_bar0_and(p != 0); }
DEVFN int syncthreads_or(int p) { return __nvvm_bar0_or(p != 0); }
#else
extern u64 diff_warp_slots[1024];
// __syncthreads_count/and/or: every thread publishes its predicate.
inline int diff_block_count(int p) {
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned n = blockDim.x * blockDim.y * blockDim.z;
  diff_warp_slots[t] = p != 0;
  __syncthreads();
  int c = 0;
  for (unsigned i = 0; i < n; i++) c += (int)diff_warp_slots[i];
  __syncthreads();
  return c;
}
inline int syncthreads_count(int p) { return diff_block_count(p); }
inline int syncthreads_and(int p) {
  return diff_block_count(p) == (int)(blockDim.x * blockDim.y * blockDim.z);
}
inline int syncthreads_or(int p) { return diff_block_count(p) != 0; }
DEVFN unsigned diff_tid() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
// Every lane publishes v; returns the 32 values of its warp.
struct WarpVals { u64 v[32]; };
inline WarpVals diff_exchange(u64 v) {
  unsigned t = diff_tid();
  diff_warp_slots[t] = v;
  __syncthreads();
  WarpVals r;
  for (int i = 0; i < 32; i++) r.v[i] = diff_warp_slots[t - t % 32 + i];
  __syncthreads();
  return r;
}
DEVFN int diff_lane() { return (int)(diff_tid() % 32); }
DEVFN int shfl_down(u32, int v, int d, int w = 32) {
  WarpVals a = diff_exchange((u32)v);
  int l = diff_lane();
  return l % w + d < w ? (int)a.v[l + d] : v;
}
DEVFN int shfl_up(u32, int v, int d, int w = 32) {
  WarpVals a = diff_exchange((u32)v);
  int l = diff_lane();
  return l % w - d >= 0 ? (int)a.v[l - d] : v;
}
DEVFN int shfl_xor(u32, int v, int d, int w = 32) {
  WarpVals a = diff_exchange((u32)v);
  int l = diff_lane(), j = l ^ d;
  return j / w == l / w ? (int)a.v[j] : v;
}
DEVFN int shfl_idx(u32, int v, int src, int w = 32) {
  WarpVals a = diff_exchange((u32)v);
  int l = diff_lane();
  return (int)a.v[l / w * w + src % w];
}
DEVFN float shfl_down_f(u32 m, float v, int d, int w = 32) {
  return int_as_float(shfl_down(m, float_as_int(v), d, w));
}
DEVFN u32 ballot(u32, int p) {
  WarpVals a = diff_exchange(p != 0);
  u32 b = 0;
  for (int i = 0; i < 32; i++) b |= (u32)a.v[i] << i;
  return b;
}
DEVFN int any_sync(u32 m, int p) { return ballot(m, p) != 0; }
DEVFN int all_sync(u32 m, int p) { return ballot(m, p) == 0xffffffffu; }
DEVFN u32 match_any(u32, u32 v) {
  WarpVals a = diff_exchange(v);
  u32 b = 0;
  for (int i = 0; i < 32; i++) b |= (u32)(a.v[i] == v) << i;
  return b;
}
DEVFN int reduce_add(u32, int v) {
  WarpVals a = diff_exchange((u32)v);
  u32 s = 0;
  for (int i = 0; i < 32; i++) s += (u32)a.v[i];
  return (int)s;
}
DEVFN int reduce_min(u32, int v) {
  WarpVals a = diff_exchange((u32)v);
  int s = (int)(u32)a.v[0];
  for (int i = 1; i < 32; i++) s = (int)(u32)a.v[i] < s ? (int)(u32)a.v[i] : s;
  return s;
}
DEVFN u32 reduce_umax(u32, u32 v) {
  WarpVals a = diff_exchange(v);
  u32 s = 0;
  for (int i = 0; i < 32; i++) s = (u32)a.v[i] > s ? (u32)a.v[i] : s;
  return s;
}
#endif

// ------------------------------------------------------------- cp.async
// Global-to-shared asynchronous copies and their group waits. The host
// copies at once (a legal completion order: the kernel waits before it
// reads).
#if defined(__CUDA__)
#define DIFF_AS3(p) ((__attribute__((address_space(3))) void *)(p))
#define DIFF_AS1(p) ((__attribute__((address_space(1))) const void *)(p))
DEVFN void cp_async4(void *s, const void *g) { __nvvm_cp_async_ca_shared_global_4(DIFF_AS3(s), DIFF_AS1(g)); }
DEVFN void cp_async8(void *s, const void *g) { __nvvm_cp_async_ca_shared_global_8(DIFF_AS3(s), DIFF_AS1(g)); }
DEVFN void cp_async16(void *s, const void *g) { __nvvm_cp_async_cg_shared_global_16(DIFF_AS3(s), DIFF_AS1(g)); }
DEVFN void cp_async_commit() { __nvvm_cp_async_commit_group(); }
#define cp_async_wait_group(n) __nvvm_cp_async_wait_group(n)
DEVFN void cp_async_wait_all() { __nvvm_cp_async_wait_all(); }
#else
DEVFN void cp_async4(void *s, const void *g) { __builtin_memcpy(s, g, 4); }
DEVFN void cp_async8(void *s, const void *g) { __builtin_memcpy(s, g, 8); }
DEVFN void cp_async16(void *s, const void *g) { __builtin_memcpy(s, g, 16); }
DEVFN void cp_async_commit() {}
#define cp_async_wait_group(n) ((void)0)
DEVFN void cp_async_wait_all() {}
#endif

// The host part of a kernel source (its cases) is written inside
// #ifdef DIFF_HOST ... #endif, after the kernels; see host.h.
#ifdef DIFF_HOST
#include "host.h"
#endif
