// batch.h: the header of the batch executor's differential test kernels
// (internal/exec/batch_diff_test.go). Device-only, the approach of
// testdata/bench/src/bench.h: clang's CUDA builtin variables (threadIdx,
// blockIdx, blockDim, gridDim read %tid, %ctaid, %ntid, %nctaid through
// __nvvm_read_ptx_sreg_*), no CUDA headers, no libdevice.
#pragma once

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef int s32;
typedef unsigned long long u64;
typedef long long s64;
typedef unsigned long size_t;

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#include "__clang_cuda_builtin_vars.h"

#define KERNEL(name, ...) extern "C" __global__ void name(__VA_ARGS__)
#define DEVFN static __device__ __inline__ __attribute__((always_inline))

DEVFN float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
DEVFN double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
DEVFN float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
DEVFN float fminf(float a, float b) { return __builtin_fminf(a, b); }
DEVFN float sqrtf(float x) { return __builtin_sqrtf(x); }
DEVFN double sqrt(double x) { return __builtin_sqrt(x); }
DEVFN double fabs(double x) { return __builtin_fabs(x); }
DEVFN u32 atomicAdd(u32 *p, u32 v) { return (u32)__nvvm_atom_add_gen_i((int *)p, (int)v); }
DEVFN float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
