// switch_interp: a per-thread bytecode interpreter (a dense switch that
// clang may lower to brx.idx or a branch tree), a sparse switch, and
// fall-through cases.
#include "diff.h"

enum Op { PUSH, ADD, SUB, MUL, DUP, SWAP, SHL, XOR, NEG, JNZ, DEC, HALT };

NOINLINE int sparse(int v) {
  switch (v) {
  case -100: return 1;
  case 3: return 2;
  case 77: return 3;
  case 1000: return 4;
  case 65536: return 5;
  case 123456: return 6;
  default: return 0;
  }
}

__global__ void switch_interp(const int *prog, int plen, const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  u32 stack[8]; // unsigned: wraparound is defined
  int sp = 0, pc = 0, steps = 0;
  stack[sp++] = (u32)in[i];
  while (pc < plen && steps < 1000) {
    int op = prog[pc++];
    steps++;
    switch (op) {
    case PUSH: stack[sp++] = (u32)prog[pc++]; break;
    case ADD: sp--; stack[sp - 1] += stack[sp]; break;
    case SUB: sp--; stack[sp - 1] -= stack[sp]; break;
    case MUL: sp--; stack[sp - 1] *= stack[sp]; break;
    case DUP: stack[sp] = stack[sp - 1]; sp++; break;
    case SWAP: { u32 t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t; break; }
    case SHL: stack[sp - 1] <<= 1;
      [[fallthrough]];
    case XOR: stack[sp - 1] ^= 0x1234; break;
    case NEG: stack[sp - 1] = 0u - stack[sp - 1]; break;
    case JNZ: { int target = prog[pc++]; if (stack[sp - 1] != 0) pc = target; break; }
    case DEC: stack[sp - 1]--; break;
    case HALT: pc = plen; break;
    default: stack[sp - 1] = 0;
    }
  }
  int s = in[i] % 7;
  int k = s == 0 ? -100 : s == 1 ? 3 : s == 2 ? 77 : s == 3 ? 1000 : s == 4 ? 65536 : s == 5 ? 123456 : in[i];
  out[i * 3] = (int)stack[0];
  out[i * 3 + 1] = steps;
  out[i * 3 + 2] = sparse(k) + sparse(in[i]);
}

#ifdef DIFF_HOST
DIFF_CASE(switch_interp) {
  // acc = x; counter = (x & 15); loop: acc = acc*3 + 5 ^ ..., counter-- until 0
  static const int code[] = {
      PUSH, 0, ADD,                 // [x]
      DUP, PUSH, 15, MUL, PUSH, 7, SUB, SWAP, // [x*15-7, x]
      PUSH, 3, MUL, PUSH, 5, ADD, SHL, NEG, // loop body at pc 11: top = -((top*3+5)<<1 ^ 0x1234)
      SWAP, DEC, SWAP, // decrement the counter below
      XOR, SWAP, JNZ, 11, // loop while the counter (x*15-7, decremented) is nonzero
      HALT, 99};
  int plen = (int)(sizeof code / sizeof code[0]);
  int *prog = c.in<int>("prog", plen, [&](size_t i) { return code[i]; });
  int n = 256;
  int *in = c.in<int>("in", n, [&](size_t) { return c.rng.i32(-2000, 2000); });
  int *out = c.out<int>("out", n * 3);
  c.launch({2, 1, 1}, {128, 1, 1}, switch_interp, prog, plen, in, out, n);
}
#endif
