// Global and constant variables with initializers, including pointers to
// other globals, pointers into arrays, strings and aggregates.
#include "cuda_min.h"

__device__ int g_scalar = 42;
__device__ int g_zero;
__device__ long long g_big = -1234567890123LL;
__device__ float g_float = 3.25f;
__device__ double g_double = -0.1;
__device__ short g_shorts[5] = {1, -2, 3, -4, 5};
__device__ unsigned char g_bytes[7] = {0, 1, 2, 0xfe, 0xff};
__device__ float g_matrix[2][3] = {{1, 2, 3}, {4, 5, 6}};
__device__ char g_text[] = "global text\twith\ttabs";
__device__ int g_uninit_array[1000];

__constant__ float c_coeffs[8] = {0.5f, 0.25f, 0.125f, 1e-20f, -0.0f, 1e20f, 2.0f, 3.0f};
__constant__ double c_dcoeffs[3] = {1.0 / 3.0, 2.718281828459045, 1e-300};
__constant__ int c_lut[256];

// Pointers to other globals, and into the middle of arrays.
__device__ int *g_ptr = &g_scalar;
__device__ int *g_ptr_mid = &g_uninit_array[10];
__device__ const float *g_cptr = &c_coeffs[2];
__device__ float *g_ptrs[3] = {&g_float, &g_matrix[1][0], nullptr};
__constant__ const char *c_names[] = {"alpha", "beta", "gamma", "delta"};

// A struct that mixes small fields and a pointer: emitted as a byte
// array whose pointer bytes are written with address expressions.
struct Record {
  char tag;
  short id;
  int *target;
  float weight;
  const char *label;
};
__device__ Record g_records[2] = {{'a', 1, &g_scalar, 0.5f, "first"},
                                  {'b', 2, &g_zero, 1.5f, "second"}};

struct Packed {
  unsigned char kind;
  double value;
} __attribute__((packed));
__device__ Packed g_packed = {7, 6.5};

static __device__ int s_private_counter = 5;
__device__ const int g_readonly = 99;

__global__ void read_globals(float *fout, int *iout, const char **sout) {
  int t = threadIdx.x;
  fout[t] = c_coeffs[t & 7] * g_float + (float)c_dcoeffs[t % 3] +
            g_matrix[t & 1][t % 3] + *g_ptrs[t & 1] + *g_cptr;
  iout[t] = *g_ptr + g_ptr_mid[t] + g_shorts[t % 5] + g_bytes[t % 7] +
            c_lut[t & 255] + g_text[t % 20] + g_records[t & 1].id +
            *g_records[t & 1].target + (int)g_packed.value + g_readonly;
  sout[t] = t & 1 ? c_names[t & 3] : g_records[t & 1].label;
  s_private_counter += t;
  g_uninit_array[t] = s_private_counter + (int)g_big;
}

__global__ void write_globals(int v) {
  g_zero = v;
  g_scalar += v;
  g_ptr = &g_uninit_array[v & 511];
  g_double = v * 0.5;
}
