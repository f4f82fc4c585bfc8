; Narrow floating-point conversions: fp8 (e4m3/e5m2, sm_89+), fp6/fp4 and
; ue8m0 scale factors (sm_100a/sm_120a), and cvt with relu/satfinite.
target triple = "nvptx64-nvidia-cuda"

declare i16 @llvm.nvvm.ff.to.e4m3x2.rn(float, float)
declare i16 @llvm.nvvm.ff.to.e5m2x2.rn.relu(float, float)
declare i16 @llvm.nvvm.f16x2.to.e4m3x2.rn(<2 x half>)
declare <2 x half> @llvm.nvvm.e4m3x2.to.f16x2.rn(i16)
declare <2 x half> @llvm.nvvm.e5m2x2.to.f16x2.rn.relu(i16)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @fp8_convert(ptr addrspace(1) %f, ptr addrspace(1) %q, ptr addrspace(1) %h) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pf = getelementptr <2 x float>, ptr addrspace(1) %f, i32 %tid
  %v = load <2 x float>, ptr addrspace(1) %pf, align 8
  %a = extractelement <2 x float> %v, i32 0
  %b = extractelement <2 x float> %v, i32 1
  %p = call i16 @llvm.nvvm.ff.to.e4m3x2.rn(float %a, float %b)
  %r = call i16 @llvm.nvvm.ff.to.e5m2x2.rn.relu(float %b, float %a)
  %pq = getelementptr i16, ptr addrspace(1) %q, i32 %tid
  %x = xor i16 %p, %r
  store i16 %x, ptr addrspace(1) %pq, align 2
  %ph = getelementptr <2 x half>, ptr addrspace(1) %h, i32 %tid
  %hv = load <2 x half>, ptr addrspace(1) %ph, align 4
  %c = call i16 @llvm.nvvm.f16x2.to.e4m3x2.rn(<2 x half> %hv)
  %back = call <2 x half> @llvm.nvvm.e4m3x2.to.f16x2.rn(i16 %c)
  %back2 = call <2 x half> @llvm.nvvm.e5m2x2.to.f16x2.rn.relu(i16 %r)
  %sum = fadd <2 x half> %back, %back2
  store <2 x half> %sum, ptr addrspace(1) %ph, align 4
  ret void
}
