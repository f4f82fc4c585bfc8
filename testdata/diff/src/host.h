// host.h: the host side of the differential suite (see ../README.md).
//
// A kernel source describes its cases after its kernels:
//
//   #ifdef DIFF_HOST
//   DIFF_CASE(saxpy) {                        // case name, = <name>.json
//     int n = 1000;
//     float *x = c.in<float>("x", n, [&](size_t) { return c.rng.f32(-1, 1); });
//     float *y = c.out<float>("y", n);
//     c.launch({4, 1, 1}, {256, 1, 1}, saxpy, 2.5f, x, y, n);
//   }
//   #endif
//
// c.in: a buffer the kernel only reads ("output": false in the case file);
// c.out: a buffer the kernel writes, prefilled with a fixed byte pattern
// (0xA5) so that elements the kernel must leave alone are checked too;
// c.inout: initialized from the generator and checked after the launch.
// c.launch runs the kernel on the host (host.cpp), then records the
// buffers' final contents as the expected results. Parameters are
// described from the kernel's own parameter types, in order: pointers
// become {"kind":"ptr"} naming the buffer they point into, scalars their
// PTX type, structs {"kind":"bytes"} with their host layout (x86-64 and
// nvptx64 lay out these structs identically).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

struct Rng { // 64-bit LCG (Knuth's MMIX constants), top bits used
  u64 s = 1;
  void seed(u64 v) { s = v * 2862933555777941757ull + 3037000493ull; }
  u32 u32_() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return (u32)(s >> 32);
  }
  u32 u32v() { return u32_(); }
  u64 u64v() { return ((u64)u32_() << 32) | u32_(); }
  int i32(int lo, int hi) { // inclusive
    return (int)((s64)lo + (s64)(u32_() % (u64)((s64)hi - lo + 1)));
  }
  double unit() { return (double)(u64v() >> 11) * (1.0 / 9007199254740992.0); }
  float f32(double lo, double hi) { return (float)(lo + (hi - lo) * unit()); }
  double f64(double lo, double hi) { return lo + (hi - lo) * unit(); }
};

struct HostBuf {
  std::string name, type;
  size_t elem = 0, count = 0;
  std::vector<unsigned char> init, mem;
  bool input = false;
};

template <class T> struct PtxType;
#define PTXTYPE(T, s) template <> struct PtxType<T> { static const char *name() { return s; } };
PTXTYPE(s8, "s8") PTXTYPE(u8, "u8") PTXTYPE(short, "s16") PTXTYPE(u16, "u16")
PTXTYPE(int, "s32") PTXTYPE(u32, "u32") PTXTYPE(long, "s64") PTXTYPE(unsigned long, "u64")
PTXTYPE(s64, "s64") PTXTYPE(u64, "u64") PTXTYPE(float, "f32") PTXTYPE(double, "f64")
PTXTYPE(char, "s8") PTXTYPE(bool, "u8")
#undef PTXTYPE

struct Case {
  std::string name;
  Rng rng;
  std::vector<HostBuf *> bufs;
  std::string params_json;
  dim3 grid{1, 1, 1}, block{1, 1, 1};
  size_t dyn_shared = 0;
  std::string kernel;
  bool launched = false;

  template <class T, class G> T *in(const char *n, size_t count, G gen) {
    return add<T>(n, count, true, gen);
  }
  template <class T, class G> T *inout(const char *n, size_t count, G gen) {
    return add<T>(n, count, false, gen);
  }
  template <class T> T *out(const char *n, size_t count) {
    HostBuf *b = alloc(n, PtxType<T>::name(), sizeof(T), count, false);
    memset(b->mem.data(), 0xA5, b->mem.size());
    b->init = b->mem;
    return (T *)b->mem.data();
  }
  // A buffer of raw bytes (e.g. an array of structs): type u8.
  template <class T, class G> T *in_raw(const char *n, size_t count, G gen) {
    HostBuf *b = alloc(n, "u8", 1, count * sizeof(T), true);
    reseed(n);
    T *p = (T *)b->mem.data();
    for (size_t i = 0; i < count; i++) p[i] = gen(i);
    b->init = b->mem;
    return p;
  }
  template <class T> T *out_raw(const char *n, size_t count) {
    HostBuf *b = alloc(n, "u8", 1, count * sizeof(T), false);
    memset(b->mem.data(), 0xA5, b->mem.size());
    b->init = b->mem;
    return (T *)b->mem.data();
  }

  template <class... P, class... A>
  void launch(dim3 g, dim3 b, void (*k)(P...), A... args) {
    launch_dyn(g, b, 0, k, args...);
  }
  template <class... P, class... A>
  void launch_dyn(dim3 g, dim3 b, size_t dyn, void (*k)(P...), A... args) {
    static_assert(sizeof...(P) == sizeof...(A), "argument count");
    grid = g, block = b, dyn_shared = dyn;
    kernel = symbol_name((void *)k);
    params_json.clear();
    describe_all<P...>(args...);
    std::function<void()> body = [=]() { k(args...); };
    run_kernel(body);
    launched = true;
  }

private:
  void reseed(const char *bufname);
  HostBuf *alloc(const char *n, const char *type, size_t elem, size_t count, bool input);
  template <class T, class G> T *add(const char *n, size_t count, bool input, G gen) {
    HostBuf *b = alloc(n, PtxType<T>::name(), sizeof(T), count, input);
    reseed(n);
    T *p = (T *)b->mem.data();
    for (size_t i = 0; i < count; i++) p[i] = (T)gen(i);
    b->init = b->mem;
    return p;
  }
  static std::string symbol_name(void *fn);
  void run_kernel(const std::function<void()> &body);
  void param_ptr(const void *p);
  void param_scalar(const char *kind, const char *value, u64 bits, int bytes);
  void param_bytes(const void *p, size_t size, size_t align);

  template <class T> void describe(T v) {
    if constexpr (std::is_pointer_v<T>) {
      param_ptr((const void *)v);
    } else if constexpr (std::is_floating_point_v<T>) {
      char s[64];
      snprintf(s, sizeof s, "%.17g", (double)v);
      u64 bits = 0;
      memcpy(&bits, &v, sizeof v);
      param_scalar(PtxType<T>::name(), s, bits, sizeof v);
    } else if constexpr (std::is_integral_v<T>) {
      char s[64];
      if (std::is_signed_v<T>)
        snprintf(s, sizeof s, "%lld", (long long)v);
      else
        snprintf(s, sizeof s, "%llu", (unsigned long long)v);
      u64 bits = 0;
      memcpy(&bits, &v, sizeof v);
      param_scalar(PtxType<T>::name(), s, bits, sizeof v);
    } else {
      static_assert(std::is_trivially_copyable_v<T>, "by-value parameter");
      if constexpr (std::is_empty_v<T>) {
        unsigned char zero[sizeof(T)] = {};
        param_bytes(zero, sizeof v, alignof(T));
      } else {
        param_bytes(&v, sizeof v, alignof(T));
      }
    }
  }
  template <class... P, class... A> void describe_all(A... args) {
    (describe<P>((P)args), ...);
  }
};

struct CaseReg {
  CaseReg(const char *name, void (*fn)(Case &));
};
#define DIFF_CASE(name)                                                     \
  static void diff_case_##name(Case &c);                                    \
  static CaseReg diff_reg_##name(#name, diff_case_##name);                  \
  static void diff_case_##name(Case &c)
