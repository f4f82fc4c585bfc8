; Vector types, 128-bit integers, packed half/bfloat arithmetic and atomics
; with explicit synchronization scopes and orderings.
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @vector_loads(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %p4 = getelementptr <4 x float>, ptr addrspace(1) %in, i64 %t
  %v4 = load <4 x float>, ptr addrspace(1) %p4, align 16
  %p2 = getelementptr <2 x double>, ptr addrspace(1) %in, i64 %t
  %v2 = load <2 x double>, ptr addrspace(1) %p2, align 16
  %p8 = getelementptr <8 x i16>, ptr addrspace(1) %in, i64 %t
  %v8 = load <8 x i16>, ptr addrspace(1) %p8, align 16
  %pb = getelementptr <4 x i8>, ptr addrspace(1) %in, i64 %t
  %vb = load <4 x i8>, ptr addrspace(1) %pb, align 4
  %s4 = fmul <4 x float> %v4, <float 1.0, float 2.0, float 0.5, float -1.0>
  %sh = shufflevector <4 x float> %s4, <4 x float> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  %o4 = getelementptr <4 x float>, ptr addrspace(1) %out, i64 %t
  store <4 x float> %sh, ptr addrspace(1) %o4, align 16
  %d = fadd <2 x double> %v2, <double 1.5, double 2.5>
  %o2 = getelementptr <2 x double>, ptr addrspace(1) %out, i64 %t
  store <2 x double> %d, ptr addrspace(1) %o2, align 16
  %w = add <8 x i16> %v8, <i16 1, i16 2, i16 3, i16 4, i16 5, i16 6, i16 7, i16 8>
  %o8 = getelementptr <8 x i16>, ptr addrspace(1) %out, i64 %t
  store <8 x i16> %w, ptr addrspace(1) %o8, align 16
  %b = mul <4 x i8> %vb, <i8 3, i8 3, i8 3, i8 3>
  %ob = getelementptr <4 x i8>, ptr addrspace(1) %out, i64 %t
  store <4 x i8> %b, ptr addrspace(1) %ob, align 4
  ret void
}

define <2 x i64> @vec_func(<2 x i64> %a, <4 x i32> %b) noinline {
  %bc = bitcast <4 x i32> %b to <2 x i64>
  %r = xor <2 x i64> %a, %bc
  ret <2 x i64> %r
}

define i128 @wide_math(i128 %a, i128 %b) noinline {
  %m = mul i128 %a, %b
  %s = add i128 %m, 340282366920938463463374607431768211455
  %sh = lshr i128 %s, 67
  %x = shl i128 %a, 3
  %r = or i128 %sh, %x
  ret i128 %r
}

define ptx_kernel void @int128(ptr addrspace(1) %p) {
entry:
  %a = load i128, ptr addrspace(1) %p, align 16
  %q = getelementptr i128, ptr addrspace(1) %p, i64 1
  %b = load i128, ptr addrspace(1) %q, align 16
  %r = call i128 @wide_math(i128 %a, i128 %b)
  %c = icmp ult i128 %r, %b
  %sel = select i1 %c, i128 %r, i128 -1
  %d = udiv i128 %sel, 1000000007
  store i128 %d, ptr addrspace(1) %p, align 16
  %v = call <2 x i64> @vec_func(<2 x i64> <i64 1, i64 2>, <4 x i32> <i32 3, i32 4, i32 5, i32 6>)
  %o = getelementptr <2 x i64>, ptr addrspace(1) %p, i64 2
  store <2 x i64> %v, ptr addrspace(1) %o, align 16
  ret void
}

define ptx_kernel void @packed_half(ptr addrspace(1) %h, ptr addrspace(1) %bf) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %ph = getelementptr <2 x half>, ptr addrspace(1) %h, i64 %t
  %x = load <2 x half>, ptr addrspace(1) %ph, align 4
  %y = fmul <2 x half> %x, <half 0xH3C00, half 0xH4000>
  %z = call <2 x half> @llvm.fma.v2f16(<2 x half> %x, <2 x half> %y, <2 x half> %x)
  %n = fneg <2 x half> %z
  %c = fcmp olt <2 x half> %n, %x
  %s = select <2 x i1> %c, <2 x half> %n, <2 x half> %x
  %mx = call <2 x half> @llvm.maxnum.v2f16(<2 x half> %s, <2 x half> %y)
  store <2 x half> %mx, ptr addrspace(1) %ph, align 4
  %pb = getelementptr <2 x bfloat>, ptr addrspace(1) %bf, i64 %t
  %u = load <2 x bfloat>, ptr addrspace(1) %pb, align 4
  %v = fadd <2 x bfloat> %u, <bfloat 0xR3F80, bfloat 0xR4000>
  %w = call <2 x bfloat> @llvm.fma.v2bf16(<2 x bfloat> %u, <2 x bfloat> %v, <2 x bfloat> %u)
  store <2 x bfloat> %w, ptr addrspace(1) %pb, align 4
  ret void
}
declare <2 x half> @llvm.fma.v2f16(<2 x half>, <2 x half>, <2 x half>)
declare <2 x half> @llvm.maxnum.v2f16(<2 x half>, <2 x half>)
declare <2 x bfloat> @llvm.fma.v2bf16(<2 x bfloat>, <2 x bfloat>, <2 x bfloat>)

define ptx_kernel void @scoped_atomics(ptr addrspace(1) %g, ptr addrspace(3) %s, ptr %gen) {
entry:
  %a = atomicrmw add ptr addrspace(1) %g, i32 1 syncscope("block") monotonic
  %b = atomicrmw add ptr addrspace(1) %g, i32 2 syncscope("device") acq_rel
  %c = atomicrmw xchg ptr addrspace(1) %g, i32 3 acquire
  %d = atomicrmw max ptr addrspace(3) %s, i32 %a syncscope("block") release
  %e = atomicrmw umin ptr %gen, i64 5 seq_cst
  %f = atomicrmw fadd ptr addrspace(1) %g, float 1.0 syncscope("device") monotonic
  %h = atomicrmw fadd ptr addrspace(1) %g, double 1.0 monotonic
  %i = atomicrmw fadd ptr addrspace(1) %g, half 0xH3C00 monotonic
  %j = atomicrmw add ptr addrspace(1) %g, i8 1 monotonic
  %k = atomicrmw or ptr addrspace(3) %s, i16 4 syncscope("block") monotonic
  %l = cmpxchg ptr addrspace(1) %g, i32 %b, i32 %c syncscope("block") acq_rel acquire
  %m = cmpxchg weak ptr %gen, i64 0, i64 1 seq_cst seq_cst
  %n = cmpxchg ptr addrspace(3) %s, i16 7, i16 8 monotonic monotonic
  %o = atomicrmw nand ptr addrspace(1) %g, i32 15 monotonic
  %p = atomicrmw uinc_wrap ptr addrspace(1) %g, i32 10 monotonic
  %q = atomicrmw fmax ptr addrspace(1) %g, float 2.0 monotonic
  fence syncscope("block") acq_rel
  fence syncscope("device") seq_cst
  fence release
  %ld = load atomic i32, ptr addrspace(1) %g syncscope("block") acquire, align 4
  store atomic i32 %ld, ptr addrspace(1) %g syncscope("device") release, align 4
  %ldv = load volatile i32, ptr addrspace(3) %s, align 4
  %sum = add i32 %ldv, %d
  store volatile i32 %sum, ptr addrspace(3) %s, align 4
  ret void
}
