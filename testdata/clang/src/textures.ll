; Texture and surface references (.texref/.surfref module variables) and
; bindless handles passed as kernel parameters; managed memory.
target triple = "nvptx64-nvidia-cuda"

@tex_ref = addrspace(1) global i64 0, align 8
@surf_ref = addrspace(1) global i64 0, align 8
@managed_counter = addrspace(1) global i32 0, align 4

declare i64 @llvm.nvvm.texsurf.handle.internal.p1(ptr addrspace(1))
declare { float, float, float, float } @llvm.nvvm.tex.unified.1d.v4f32.s32(i64, i32)
declare { float, float, float, float } @llvm.nvvm.tex.unified.2d.v4f32.f32(i64, float, float)
declare { i32, i32, i32, i32 } @llvm.nvvm.tex.unified.3d.v4s32.f32(i64, float, float, float)
declare i32 @llvm.nvvm.suld.2d.i32.trap(i64, i32, i32)
declare void @llvm.nvvm.sust.b.2d.i32.trap(i64, i32, i32, i32)
declare i32 @llvm.nvvm.txq.width(i64)
declare i32 @llvm.nvvm.suq.height(i64)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @through_refs(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %th = call i64 @llvm.nvvm.texsurf.handle.internal.p1(ptr addrspace(1) @tex_ref)
  %sh = call i64 @llvm.nvvm.texsurf.handle.internal.p1(ptr addrspace(1) @surf_ref)
  %t = call { float, float, float, float } @llvm.nvvm.tex.unified.1d.v4f32.s32(i64 %th, i32 %tid)
  %t0 = extractvalue { float, float, float, float } %t, 0
  %t3 = extractvalue { float, float, float, float } %t, 3
  %s = fadd float %t0, %t3
  %w = call i32 @llvm.nvvm.txq.width(i64 %th)
  %wf = sitofp i32 %w to float
  %r = fadd float %s, %wf
  %p = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %r, ptr addrspace(1) %p, align 4
  %v = call i32 @llvm.nvvm.suld.2d.i32.trap(i64 %sh, i32 %tid, i32 0)
  %v1 = add i32 %v, 1
  call void @llvm.nvvm.sust.b.2d.i32.trap(i64 %sh, i32 %tid, i32 1, i32 %v1)
  %hh = call i32 @llvm.nvvm.suq.height(i64 %sh)
  %m = atomicrmw add ptr addrspace(1) @managed_counter, i32 %hh monotonic
  ret void
}

define ptx_kernel void @bindless(i64 %tex, i64 %tex3d, ptr addrspace(1) %out, float %u, float %v) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = call { float, float, float, float } @llvm.nvvm.tex.unified.2d.v4f32.f32(i64 %tex, float %u, float %v)
  %a = extractvalue { float, float, float, float } %t, 0
  %b = extractvalue { float, float, float, float } %t, 1
  %q = call { i32, i32, i32, i32 } @llvm.nvvm.tex.unified.3d.v4s32.f32(i64 %tex3d, float %u, float %v, float 0.5)
  %q2 = extractvalue { i32, i32, i32, i32 } %q, 2
  %qf = sitofp i32 %q2 to float
  %s = fadd float %a, %b
  %s2 = fadd float %s, %qf
  %p = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %s2, ptr addrspace(1) %p, align 4
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr addrspace(1) @tex_ref, !"texture", i32 1}
!1 = !{ptr addrspace(1) @surf_ref, !"surface", i32 1}
!2 = !{ptr addrspace(1) @managed_counter, !"managed", i32 1}
