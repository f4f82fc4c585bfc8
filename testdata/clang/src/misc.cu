// Assorted memory features: read-only loads, volatile, restrict, local
// arrays, address-space queries and conversions,
// special registers, sleep.
#include "cuda_min.h"

__global__ void readonly_loads(float *__restrict__ out, const float *__restrict__ in,
                               const int *__restrict__ idx) {
  int t = threadIdx.x;
  out[t] = __nvvm_ldg_f(in + t) + (float)__nvvm_ldg_i(idx + t) + in[idx[t]];
  typedef float f4 __attribute__((ext_vector_type(4)));
  f4 v = __nvvm_ldg_f4((const f4 *)in + t);
  out[t + 64] = v.x + v.y + v.z + v.w;
  out[t + 128] = __nvvm_ldu_f(in + 3);
}

__global__ void volatile_access(volatile int *flag, int *data) {
  if (threadIdx.x == 0) {
    data[0] = 1;
    __nvvm_membar_gl();
    *flag = 1;
  } else {
    int spins = 0;
    while (*flag == 0 && spins < 1000)
      ++spins;
    data[threadIdx.x] = spins;
  }
}

__global__ void local_arrays(int *out, const int *in, int k) {
  int buf[32];
  for (int i = 0; i < 32; ++i)
    buf[i] = in[i] * i;
  buf[k & 31] += 7; // dynamic index keeps the array in local memory
  int s = 0;
  for (int i = 0; i < 32; ++i)
    s += buf[(i * 5 + k) & 31];
  out[threadIdx.x] = s;
}

__shared__ int s_buf[32];
__constant__ int c_buf[32];
__device__ int g_buf[32];

__device__ __noinline__ int classify_ptr(const void *p) {
  return __nvvm_isspacep_global(p) + 2 * __nvvm_isspacep_shared(p) +
         4 * __nvvm_isspacep_local(p) + 8 * __nvvm_isspacep_const(p);
}

__global__ void address_spaces(int *out) {
  int local_var = threadIdx.x;
  s_buf[threadIdx.x % 32] = threadIdx.x;
  __syncthreads();
  const void *ps[4] = {s_buf, c_buf, g_buf, &local_var};
  out[threadIdx.x] = classify_ptr(ps[threadIdx.x & 3]);
  __attribute__((address_space(3))) int *sp = (__attribute__((address_space(3))) int *)s_buf;
  out[threadIdx.x + 32] = sp[threadIdx.x & 31];
}

__global__ void special_regs(unsigned long long *out) {
  unsigned long long t0 = __nvvm_read_ptx_sreg_clock64();
  unsigned c = __nvvm_read_ptx_sreg_clock();
  unsigned gt = (unsigned)__nvvm_read_ptx_sreg_globaltimer();
  unsigned w = __nvvm_read_ptx_sreg_warpid() + __nvvm_read_ptx_sreg_nwarpid() +
               __nvvm_read_ptx_sreg_smid() + __nvvm_read_ptx_sreg_nsmid() +
               __nvvm_read_ptx_sreg_gridid();
  unsigned masks = __nvvm_read_ptx_sreg_lanemask_eq() ^ __nvvm_read_ptx_sreg_lanemask_le() ^
                   __nvvm_read_ptx_sreg_lanemask_gt() ^ __nvvm_read_ptx_sreg_lanemask_ge();
  unsigned pm = __nvvm_read_ptx_sreg_pm0() + __nvvm_read_ptx_sreg_pm3();
#if __CUDA_ARCH__ >= 700
  __nvvm_nanosleep(100);
#endif
  out[threadIdx.x] = __nvvm_read_ptx_sreg_clock64() - t0 + c + gt + w + masks + pm;
}
