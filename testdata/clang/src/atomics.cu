// Atomic read-modify-write operations, scopes, memory orders and fences.
#include "cuda_min.h"

__device__ int g_counter;
__device__ unsigned long long g_ticket;
__device__ float g_fsum;
__device__ double g_dsum;

__global__ void basic_atomics(int *p, unsigned *u, float *f) {
  int t = threadIdx.x;
  __nvvm_atom_add_gen_i(p, 1);
  __nvvm_atom_xchg_gen_i(p + 1, t);
  __nvvm_atom_min_gen_i(p + 2, t);
  __nvvm_atom_max_gen_i(p + 3, t);
  __nvvm_atom_min_gen_ui(u, (unsigned)t);
  __nvvm_atom_max_gen_ui(u + 1, (unsigned)t);
  __nvvm_atom_and_gen_i(p + 4, ~t);
  __nvvm_atom_or_gen_i(p + 5, t);
  __nvvm_atom_xor_gen_i(p + 6, t);
  __nvvm_atom_inc_gen_ui(u + 2, 100u);
  __nvvm_atom_dec_gen_ui(u + 3, 100u);
  __nvvm_atom_cas_gen_i(p + 7, 0, t);
  __nvvm_atom_add_gen_f(f, 1.5f);
  __nvvm_atom_add_gen_i(&g_counter, 2);
  __nvvm_atom_add_gen_ll((long long *)&g_ticket, 1LL);
  __nvvm_atom_add_gen_f(&g_fsum, f[t]);
}

// Generic CAS loop: atomic multiply.
__device__ __noinline__ float atomic_mul(float *addr, float v) {
  int *ia = (int *)addr;
  int old = *ia, assumed;
  do {
    assumed = old;
    old = __nvvm_atom_cas_gen_i(ia, assumed,
                                __builtin_bit_cast(int, __builtin_bit_cast(float, assumed) * v));
  } while (assumed != old);
  return __builtin_bit_cast(float, old);
}

__global__ void cas_loop(float *p, float v) { atomic_mul(p + threadIdx.x % 4, v); }

// C11-style builtins give orderings and scopes; acquire/release orderings
// need sm_70.
// 8-byte alignment even where the host ABI (i386) aligns long long to 4.
typedef long long aligned_ll __attribute__((aligned(8)));

__global__ void ordered(int *flag, int *data, aligned_ll *big) {
#if __CUDA_ARCH__ >= 700
  if (threadIdx.x == 0) {
    __atomic_store_n(data, 123, __ATOMIC_RELAXED);
    __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
  } else {
    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0)
      ;
  }
  __atomic_fetch_add(big, 5LL, __ATOMIC_SEQ_CST);
  __atomic_fetch_sub(big + 1, 1LL, __ATOMIC_ACQ_REL);
  int expected = 0;
  __atomic_compare_exchange_n(data + 1, &expected, 7, false, __ATOMIC_ACQ_REL,
                              __ATOMIC_ACQUIRE);
  __scoped_atomic_fetch_add(data + 2, 1, __ATOMIC_RELAXED,
                            __MEMORY_SCOPE_WRKGRP);
  __scoped_atomic_fetch_or(data + 3, 4, __ATOMIC_RELEASE,
                           __MEMORY_SCOPE_DEVICE);
  __scoped_atomic_fetch_max(data + 4, (int)threadIdx.x, __ATOMIC_RELAXED,
                            __MEMORY_SCOPE_SYSTEM);
  __scoped_atomic_exchange_n(data + 5, 9, __ATOMIC_ACQUIRE,
                             __MEMORY_SCOPE_WRKGRP);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  __scoped_atomic_thread_fence(__ATOMIC_ACQ_REL, __MEMORY_SCOPE_WRKGRP);
#else
  __atomic_fetch_add(big, 5LL, __ATOMIC_RELAXED);
  __scoped_atomic_fetch_add(data + 2, 1, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
#endif
}

__global__ void fences(int *p) {
  p[0] = 1;
  __nvvm_membar_cta();
  p[1] = 2;
  __nvvm_membar_gl();
  p[2] = 3;
  __nvvm_membar_sys();
  volatile int *vp = p;
  vp[3] = vp[4] + 1;
}

__global__ void shared_atomics(int *out) {
  __shared__ int s_count;
  __shared__ unsigned long long s_max;
  if (threadIdx.x == 0) {
    s_count = 0;
    s_max = 0;
  }
  __syncthreads();
  __nvvm_atom_add_gen_i(&s_count, 1);
  __nvvm_atom_max_gen_ull(&s_max, (unsigned long long)threadIdx.x << 33);
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = s_count + (int)(s_max >> 33);
}

// sm_60+: scoped atomic builtins and double-precision add.
__global__ void scoped_nvvm(int *p, double *d) {
#if __CUDA_ARCH__ >= 600
  __nvvm_atom_cta_add_gen_i(p, 1);
  __nvvm_atom_sys_add_gen_i(p + 1, 1);
  __nvvm_atom_cta_cas_gen_i(p + 2, 0, 1);
  __nvvm_atom_add_gen_d(d, 0.5);
  __nvvm_atom_add_gen_d(&g_dsum, d[1]);
#endif
}
