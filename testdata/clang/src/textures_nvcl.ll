; OpenCL-flavoured NVPTX (nvcl triple): independent texture mode with
; separate sampler references and image kernel parameters.
target triple = "nvptx64-nvidia-nvcl"

@sampler = addrspace(1) global i64 0, align 8

declare i64 @llvm.nvvm.texsurf.handle.internal.p1(ptr addrspace(1))
declare { float, float, float, float } @llvm.nvvm.tex.1d.v4f32.s32(i64, i64, i32)
declare { float, float, float, float } @llvm.nvvm.tex.2d.v4f32.f32(i64, i64, float, float)
declare i32 @llvm.nvvm.txq.height(i64)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @sample(i64 %img, i64 %img2, i64 %smp, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %gs = call i64 @llvm.nvvm.texsurf.handle.internal.p1(ptr addrspace(1) @sampler)
  %a = call { float, float, float, float } @llvm.nvvm.tex.1d.v4f32.s32(i64 %img, i64 %gs, i32 %tid)
  %b = call { float, float, float, float } @llvm.nvvm.tex.2d.v4f32.f32(i64 %img2, i64 %smp, float 0.5, float 0.25)
  %a0 = extractvalue { float, float, float, float } %a, 0
  %b1 = extractvalue { float, float, float, float } %b, 1
  %h = call i32 @llvm.nvvm.txq.height(i64 %img2)
  %hf = uitofp i32 %h to float
  %s = fadd float %a0, %b1
  %s2 = fadd float %s, %hf
  %p = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %s2, ptr addrspace(1) %p, align 4
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr addrspace(1) @sampler, !"sampler", i32 1}
!1 = !{ptr @sample, !"rdoimage", i32 0}
!2 = !{ptr @sample, !"rdoimage", i32 1}
!3 = !{ptr @sample, !"sampler", i32 2}
