// bench.h: the one header every benchmark kernel includes.
//
// Each kernel source is compiled twice from the same text:
//   * for the device by clang in CUDA mode (__CUDA__ defined), giving the
//     PTX that ptxvm runs (ptx/<source>.ptx);
//   * for the host as plain C++ with -DBENCH_HOST -O2, linked with
//     harness.cpp, giving the native baseline and the expected outputs.
//
// Two kinds of kernel, so that the host build is as fast as a plain C++
// loop (see ../README.md, "A fair native baseline"):
//
//   KERNEL(name, params...)        threads never wait for each other: the
//       host runs the body as an inlined function inside nested loops
//       over blocks and threads.
//   BLOCK_KERNEL(name, params...)  threads meet at barriers: the body is
//       written as PHASE ... END_PHASE blocks separated by SYNC, in
//       block-uniform control flow. The host runs each phase as a loop over
//       the block's threads; values a thread keeps across a barrier are
//       PER_THREAD and read as L(name) (an array indexed by the thread on
//       the host, a register on the device).
#pragma once

typedef unsigned char u8;
typedef unsigned int u32;
typedef int s32;
typedef unsigned long long u64;

#if defined(__CUDA__)
// ---------------------------------------------------------------- device
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#include "__clang_cuda_builtin_vars.h"
#define DEVFN static __device__ __inline__ __attribute__((always_inline))

#define KERNEL(name, ...) extern "C" __global__ void name(__VA_ARGS__)
#define BLOCK_KERNEL(name, ...) extern "C" __global__ void name(__VA_ARGS__)
#define PHASE {
#define END_PHASE }
#define SYNC __syncthreads()
#define SHARED(T, name, dims) __shared__ T name dims
#define PER_THREAD(T, name) T name
#define L(name) name

DEVFN float rsqrt_approx(float x) { return __nvvm_rsqrt_approx_f(x); }
DEVFN float ex2_approx(float x) { return __nvvm_ex2_approx_f(x); }
DEVFN float sin_approx(float x) { return __nvvm_sin_approx_f(x); }
DEVFN u32 atomic_add(u32 *p, u32 v) {
  return (u32)__nvvm_atom_add_gen_i((int *)p, (int)v);
}

#else
// ------------------------------------------------------------------ host
#ifndef BENCH_HOST
#error "compile kernels for the host with -DBENCH_HOST (see harness.cpp)"
#endif
#include <math.h>

struct uint3 { u32 x, y, z; };
struct dim3 {
  u32 x, y, z;
  dim3(u32 x_ = 1, u32 y_ = 1, u32 z_ = 1) : x(x_), y(y_), z(z_) {}
};
// The coordinates of one thread; the CUDA names below read them.
struct Thread { uint3 tid, bid; dim3 bdim, gdim; };
#define threadIdx (_t.tid)
#define blockIdx (_t.bid)
#define blockDim (_t.bdim)
#define gridDim (_t.gdim)
#define DEVFN static inline __attribute__((always_inline))

// The body is an always-inlined function called from the launch loops in
// the same translation unit, so the optimiser sees one loop nest: the
// thread coordinates are loop counters, not memory.
#define KERNEL(name, ...)                                                      \
  DEVFN void name##_thread(const Thread &_t, __VA_ARGS__);                     \
  struct name {                                                                \
    static constexpr const char *entry = #name;                                \
    template <class... A> static void launch(dim3 g, dim3 b, A... a) {         \
      for (u32 bz = 0; bz < g.z; bz++)                                         \
        for (u32 by = 0; by < g.y; by++)                                       \
          for (u32 bx = 0; bx < g.x; bx++)                                     \
            for (u32 tz = 0; tz < b.z; tz++)                                   \
              for (u32 ty = 0; ty < b.y; ty++)                                 \
                for (u32 tx = 0; tx < b.x; tx++) {                             \
                  const Thread t = {{tx, ty, tz}, {bx, by, bz}, b, g};         \
                  name##_thread(t, a...);                                      \
                }                                                              \
    }                                                                          \
  };                                                                           \
  DEVFN void name##_thread(const Thread &_t, __VA_ARGS__)

// One block: a phase loops over its threads (x fastest), _i is the linear
// thread index that L() uses.
struct Block { uint3 bid; dim3 bdim, gdim; };
#define BLOCK_KERNEL(name, ...)                                                \
  DEVFN void name##_block(const Block &_b, __VA_ARGS__);                       \
  struct name {                                                                \
    static constexpr const char *entry = #name;                                \
    template <class... A> static void launch(dim3 g, dim3 b, A... a) {         \
      for (u32 bz = 0; bz < g.z; bz++)                                         \
        for (u32 by = 0; by < g.y; by++)                                       \
          for (u32 bx = 0; bx < g.x; bx++) {                                   \
            const Block blk = {{bx, by, bz}, b, g};                            \
            name##_block(blk, a...);                                           \
          }                                                                    \
    }                                                                          \
  };                                                                           \
  DEVFN void name##_block(const Block &_b, __VA_ARGS__)
#define PHASE                                                                  \
  for (u32 _tz = 0; _tz < _b.bdim.z; _tz++)                                    \
    for (u32 _ty = 0; _ty < _b.bdim.y; _ty++)                                  \
      for (u32 _tx = 0; _tx < _b.bdim.x; _tx++) {                              \
        const u32 _i = (_tz * _b.bdim.y + _ty) * _b.bdim.x + _tx;              \
        const Thread _t = {{_tx, _ty, _tz}, _b.bid, _b.bdim, _b.gdim};         \
        (void)_i, (void)_t;
#define END_PHASE }
#define SYNC ((void)0)
// One block at a time: shared memory is the block function's own array.
#define SHARED(T, name, dims) T name dims
#define PER_THREAD(T, name) T name[1024]
#define L(name) name[_i]

// The host has one thread: a plain read-modify-write is atomic.
DEVFN u32 atomic_add(u32 *p, u32 v) {
  u32 old = *p;
  *p = old + v;
  return old;
}
// rsqrt.approx on the device; the correctly rounded quotient on the host
// (the results differ in the last bits: n-body is checked with a tolerance).
DEVFN float rsqrt_approx(float x) { return 1.0f / sqrtf(x); }
// ex2.approx and sin.approx on the device; libm's on the host (checked
// with a tolerance)
DEVFN float ex2_approx(float x) { return exp2f(x); }
DEVFN float sin_approx(float x) { return sinf(x); }
#endif

#ifdef BENCH_HOST
#include "harness.h"
#endif
