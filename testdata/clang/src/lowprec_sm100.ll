; fp6/fp4 and ue8m0 conversions (sm_100a, sm_120a with PTX 8.6+).
target triple = "nvptx64-nvidia-cuda"

declare i16 @llvm.nvvm.ff.to.e2m1x2.rn.satfinite(float, float)
declare i16 @llvm.nvvm.ff.to.e3m2x2.rn.relu.satfinite(float, float)
declare i16 @llvm.nvvm.ff.to.ue8m0x2.rz(float, float)
declare <2 x half> @llvm.nvvm.e2m1x2.to.f16x2.rn(i16)
declare <2 x bfloat> @llvm.nvvm.ue8m0x2.to.bf16x2(i16)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @fp4_fp6(ptr addrspace(1) %f, ptr addrspace(1) %q, ptr addrspace(1) %h, ptr addrspace(1) %bf) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pf = getelementptr <2 x float>, ptr addrspace(1) %f, i32 %tid
  %v = load <2 x float>, ptr addrspace(1) %pf, align 8
  %a = extractelement <2 x float> %v, i32 0
  %b = extractelement <2 x float> %v, i32 1
  %e2m1 = call i16 @llvm.nvvm.ff.to.e2m1x2.rn.satfinite(float %a, float %b)
  %e3m2 = call i16 @llvm.nvvm.ff.to.e3m2x2.rn.relu.satfinite(float %a, float %b)
  %sc = call i16 @llvm.nvvm.ff.to.ue8m0x2.rz(float %a, float %b)
  %pq = getelementptr i16, ptr addrspace(1) %q, i32 %tid
  %x = xor i16 %e2m1, %e3m2
  store i16 %x, ptr addrspace(1) %pq, align 2
  %hv = call <2 x half> @llvm.nvvm.e2m1x2.to.f16x2.rn(i16 %e2m1)
  %ph = getelementptr <2 x half>, ptr addrspace(1) %h, i32 %tid
  store <2 x half> %hv, ptr addrspace(1) %ph, align 4
  %bv = call <2 x bfloat> @llvm.nvvm.ue8m0x2.to.bf16x2(i16 %sc)
  %pb = getelementptr <2 x bfloat>, ptr addrspace(1) %bf, i32 %tid
  store <2 x bfloat> %bv, ptr addrspace(1) %pb, align 4
  ret void
}
