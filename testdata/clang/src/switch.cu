// Switch statements: dense (jump table), sparse, nested, in loops.
#include "cuda_min.h"

__device__ __noinline__ int dense(int op, int a, int b) {
  switch (op) {
  case 0: return a + b;
  case 1: return a - b;
  case 2: return a * b;
  case 3: return b ? a / b : 0;
  case 4: return a & b;
  case 5: return a | b;
  case 6: return a ^ b;
  case 7: return a << (b & 31);
  case 8: return a >> (b & 31);
  case 9: return a < b;
  case 10: return -a;
  case 11: return ~b;
  default: return 0;
  }
}

__device__ __noinline__ float sparse(int code, float x) {
  switch (code) {
  case -100: return x;
  case 3: return x * 3.0f;
  case 1000: return x + 1000.0f;
  case 65536: return -x;
  case 0x7fffffff: return 0.0f;
  default: return x * 0.5f;
  }
}

// A tiny bytecode interpreter: switch inside a loop.
__global__ void interpret(int *stack_out, const unsigned char *code, int len) {
  int stack[16];
  int sp = 0, pc = 0;
  while (pc < len) {
    unsigned char ins = code[pc++];
    switch (ins) {
    case 0: stack[sp++] = code[pc++]; break;
    case 1: --sp; stack[sp - 1] += stack[sp]; break;
    case 2: --sp; stack[sp - 1] *= stack[sp]; break;
    case 3: stack[sp] = stack[sp - 1]; ++sp; break;
    case 4: --sp; break;
    case 5: stack[sp - 1] = -stack[sp - 1]; break;
    case 6: if (stack[sp - 1] == 0) pc += code[pc]; else ++pc; break;
    case 7: pc = code[pc]; break;
    case 8: stack[sp - 1] = (int)threadIdx.x; break;
    default: pc = len; break;
    }
    if (sp >= 16 || sp < 0)
      break;
  }
  stack_out[threadIdx.x] = sp > 0 ? stack[sp - 1] : 0;
}

__global__ void dispatch(int *out, float *fout, const int *ops, const int *codes) {
  int t = threadIdx.x;
  out[t] = dense(ops[t], t, t + 3);
  fout[t] = sparse(codes[t], (float)t);
  switch (t % 4) {
  case 0:
    switch (t % 3) {
    case 0: out[t] += 1; break;
    case 1: out[t] += 2; // fallthrough
    default: out[t] += 3;
    }
    break;
  case 2: out[t] *= 2; break;
  }
}
