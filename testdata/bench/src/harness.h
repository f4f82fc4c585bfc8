// harness.h: how a benchmark source describes its launch (host build only).
//
// After its kernels, each src/<k>.cu has, inside #ifdef BENCH_HOST,
//
//   BENCH(name, "class") (Bench &b, bool small) {
//     auto x = b.buffer<float>("x", n, rand_f32(1, -1, 1));
//     auto y = b.buffer<float>("y", n, rand_f32(2, -1, 1), Check::Exact);
//     b.label = "n=...";  b.bytes = 12.0 * n;
//     b.launch<saxpy>(dim3(n / 256), dim3(256), n, 2.5f, x, y);
//   }
//
// small selects the reduced problem that `go test` runs. The same
// description gives the native run (harness.cpp) and, through the suite
// manifest (suite.json), ptxvm's launch: buffers are filled from the same
// seeded generator on both sides, and the checked buffers' checksums are
// the expected outputs.
#pragma once
#include <functional>
#include <string>
#include <vector>

enum class Check { None, Exact, Approx };

// How a buffer is filled before every run; see fill() in harness.cpp and
// internal/bench/init.go, which must agree bit for bit.
struct Init {
  const char *kind; // "zero", "u32" or "f32"
  u64 seed;
  u32 mod, add;     // u32: value % mod (mod 0: any) + add
  double lo, hi;    // f32: uniform in [lo, hi)
};
inline Init zero_init() { return {"zero", 0, 0, 0, 0, 0}; }
inline Init rand_u32(u64 seed, u32 mod = 0, u32 add = 0) { return {"u32", seed, mod, add, 0, 0}; }
inline Init rand_f32(u64 seed, double lo, double hi) { return {"f32", seed, 0, 0, lo, hi}; }

struct BufferSpec {
  std::string name, type;
  size_t count, elem;
  Init init;
  Check check;
  std::vector<u64> data; // 8-byte aligned storage
  unsigned char *bytes() { return (unsigned char *)data.data(); }
};

template <class T> struct Buf {
  int index;
  T *ptr;
};
template <class T> const char *ptx_type();
template <> inline const char *ptx_type<u32>() { return "u32"; }
template <> inline const char *ptx_type<s32>() { return "s32"; }
template <> inline const char *ptx_type<float>() { return "f32"; }

struct Param {
  std::string type; // PTX type, or "ptr"
  u64 bits;
  int buffer; // for "ptr"
};

struct Bench {
  std::string label;   // the problem size, for tables
  double bytes = 0;    // global memory bytes read + written per repeat (0: not memory-bound)
  double rtol = 1e-4;  // relative tolerance of Check::Approx buffers
  std::string entry;   // the PTX kernel
  dim3 grid, block;
  u32 repeat = 1;      // launches per run (many-small-launch kernels)
  std::vector<BufferSpec> buffers;
  std::vector<Param> params;
  std::function<void()> launch_once;

  template <class T> Buf<T> buffer(const char *name, size_t count, Init init, Check check = Check::None) {
    BufferSpec s{name, ptx_type<T>(), count, sizeof(T), init, check, {}};
    s.data.assign((count * sizeof(T) + 7) / 8, 0);
    buffers.push_back(std::move(s));
    return Buf<T>{(int)buffers.size() - 1, (T *)buffers.back().bytes()};
  }

  // launch records the launch for the manifest and keeps a closure that
  // runs it natively (K is the struct KERNEL/BLOCK_KERNEL made).
  template <class K, class... A> void launch(dim3 g, dim3 b, A... a) {
    entry = K::entry;
    grid = g;
    block = b;
    params.clear();
    (add_param(a), ...);
    launch_once = [=] { K::launch(g, b, unwrap(a)...); };
  }

private:
  template <class T> static T *unwrap(Buf<T> b) { return b.ptr; }
  template <class T> static T unwrap(T v) { return v; }
  template <class T> void add_param(Buf<T> b) { params.push_back({"ptr", 0, b.index}); }
  void add_param(u32 v) { params.push_back({"u32", v, -1}); }
  void add_param(s32 v) { params.push_back({"s32", (u32)v, -1}); }
  void add_param(float v) { params.push_back({"f32", __builtin_bit_cast(u32, v), -1}); }
};

struct BenchInfo {
  const char *name, *klass, *file;
  void (*setup)(Bench &, bool small);
};
std::vector<BenchInfo> &bench_registry();
struct BenchRegistrar {
  BenchRegistrar(BenchInfo i) { bench_registry().push_back(i); }
};
#define BENCH(name, klass)                                                     \
  static void name##_setup(Bench &, bool);                                     \
  static BenchRegistrar name##_registrar({#name, klass, __FILE__, name##_setup}); \
  static void name##_setup
