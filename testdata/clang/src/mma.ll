; Tensor-core and asynchronous-copy intrinsics (sm_80+): wmma, mma.sync,
; ldmatrix, cp.async with groups. Written by hand for the ptxvm corpus.
target triple = "nvptx64-nvidia-cuda"

@tile_a = internal addrspace(3) global [512 x half] undef, align 16
@tile_b = internal addrspace(3) global [512 x half] undef, align 16

declare { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr, i32)
declare { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.b.col.stride.f16.p0(ptr, i32)
declare { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.load.c.row.stride.f32.p0(ptr, i32)
declare { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.col.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float, float, float, float, float)
declare void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0(ptr, float, float, float, float, float, float, float, float, i32)

declare { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float)
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3))
declare { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.trans.b16.p3(ptr addrspace(3))

declare void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.commit.group()
declare void @llvm.nvvm.cp.async.wait.group(i32 immarg)
declare void @llvm.nvvm.cp.async.wait.all()
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @wmma_gemm_16x16x16(ptr %a, ptr %b, ptr %c, ptr %d) {
entry:
  %fa = call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr %a, i32 16)
  %fb = call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.b.col.stride.f16.p0(ptr %b, i32 16)
  %fc = call { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.load.c.row.stride.f32.p0(ptr %c, i32 16)
  %a0 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fa, 0
  %a1 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fa, 1
  %a2 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fa, 2
  %a3 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fa, 3
  %a4 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fa, 4
  %a5 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fa, 5
  %a6 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fa, 6
  %a7 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fa, 7
  %b0 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fb, 0
  %b1 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fb, 1
  %b2 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fb, 2
  %b3 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fb, 3
  %b4 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fb, 4
  %b5 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fb, 5
  %b6 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fb, 6
  %b7 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fb, 7
  %c0 = extractvalue { float, float, float, float, float, float, float, float } %fc, 0
  %c1 = extractvalue { float, float, float, float, float, float, float, float } %fc, 1
  %c2 = extractvalue { float, float, float, float, float, float, float, float } %fc, 2
  %c3 = extractvalue { float, float, float, float, float, float, float, float } %fc, 3
  %c4 = extractvalue { float, float, float, float, float, float, float, float } %fc, 4
  %c5 = extractvalue { float, float, float, float, float, float, float, float } %fc, 5
  %c6 = extractvalue { float, float, float, float, float, float, float, float } %fc, 6
  %c7 = extractvalue { float, float, float, float, float, float, float, float } %fc, 7
  %r = call { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.col.f32.f32(<2 x half> %a0, <2 x half> %a1, <2 x half> %a2, <2 x half> %a3, <2 x half> %a4, <2 x half> %a5, <2 x half> %a6, <2 x half> %a7, <2 x half> %b0, <2 x half> %b1, <2 x half> %b2, <2 x half> %b3, <2 x half> %b4, <2 x half> %b5, <2 x half> %b6, <2 x half> %b7, float %c0, float %c1, float %c2, float %c3, float %c4, float %c5, float %c6, float %c7)
  %d0 = extractvalue { float, float, float, float, float, float, float, float } %r, 0
  %d1 = extractvalue { float, float, float, float, float, float, float, float } %r, 1
  %d2 = extractvalue { float, float, float, float, float, float, float, float } %r, 2
  %d3 = extractvalue { float, float, float, float, float, float, float, float } %r, 3
  %d4 = extractvalue { float, float, float, float, float, float, float, float } %r, 4
  %d5 = extractvalue { float, float, float, float, float, float, float, float } %r, 5
  %d6 = extractvalue { float, float, float, float, float, float, float, float } %r, 6
  %d7 = extractvalue { float, float, float, float, float, float, float, float } %r, 7
  call void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0(ptr %d, float %d0, float %d1, float %d2, float %d3, float %d4, float %d5, float %d6, float %d7, i32 16)
  ret void
}

; Stage tiles with cp.async, then ldmatrix + mma.sync from shared memory.
define ptx_kernel void @async_mma(ptr addrspace(1) %ga, ptr addrspace(1) %gb, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %off = shl i32 %tid, 3
  %off64 = zext i32 %off to i64
  %srca = getelementptr half, ptr addrspace(1) %ga, i64 %off64
  %srcb = getelementptr half, ptr addrspace(1) %gb, i64 %off64
  %dsta = getelementptr half, ptr addrspace(3) @tile_a, i32 %off
  %dstb = getelementptr half, ptr addrspace(3) @tile_b, i32 %off
  call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %dsta, ptr addrspace(1) %srca)
  call void @llvm.nvvm.cp.async.commit.group()
  call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) %dstb, ptr addrspace(1) %srcb)
  call void @llvm.nvvm.cp.async.commit.group()
  call void @llvm.nvvm.cp.async.wait.group(i32 1)
  call void @llvm.nvvm.cp.async.wait.all()
  call void @llvm.nvvm.barrier0()
  %la = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %dsta)
  %lb = call { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.trans.b16.p3(ptr addrspace(3) %dstb)
  %ia0 = extractvalue { i32, i32, i32, i32 } %la, 0
  %ia1 = extractvalue { i32, i32, i32, i32 } %la, 1
  %ia2 = extractvalue { i32, i32, i32, i32 } %la, 2
  %ia3 = extractvalue { i32, i32, i32, i32 } %la, 3
  %ib0 = extractvalue { i32, i32 } %lb, 0
  %ib1 = extractvalue { i32, i32 } %lb, 1
  %ha0 = bitcast i32 %ia0 to <2 x half>
  %ha1 = bitcast i32 %ia1 to <2 x half>
  %ha2 = bitcast i32 %ia2 to <2 x half>
  %ha3 = bitcast i32 %ia3 to <2 x half>
  %hb0 = bitcast i32 %ib0 to <2 x half>
  %hb1 = bitcast i32 %ib1 to <2 x half>
  %m = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %ha0, <2 x half> %ha1, <2 x half> %ha2, <2 x half> %ha3, <2 x half> %hb0, <2 x half> %hb1, float 0.0, float 0.0, float 0.0, float 0.0)
  %m0 = extractvalue { float, float, float, float } %m, 0
  %m1 = extractvalue { float, float, float, float } %m, 1
  %m2 = extractvalue { float, float, float, float } %m, 2
  %m3 = extractvalue { float, float, float, float } %m, 3
  %base = shl i32 %tid, 2
  %base64 = zext i32 %base to i64
  %p0 = getelementptr float, ptr addrspace(1) %out, i64 %base64
  %p1 = getelementptr float, ptr addrspace(1) %p0, i64 1
  %p2 = getelementptr float, ptr addrspace(1) %p0, i64 2
  %p3 = getelementptr float, ptr addrspace(1) %p0, i64 3
  store float %m0, ptr addrspace(1) %p0, align 16
  store float %m1, ptr addrspace(1) %p1, align 4
  store float %m2, ptr addrspace(1) %p2, align 8
  store float %m3, ptr addrspace(1) %p3, align 4
  ret void
}

; Integer, tf32 and fp8 mma.sync shapes.
declare { i32, i32, i32, i32 } @llvm.nvvm.mma.m16n8k32.row.col.satfinite.s8(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
declare { float, float, float, float } @llvm.nvvm.mma.m16n8k8.row.col.tf32(i32, i32, i32, i32, i32, i32, float, float, float, float)

define ptx_kernel void @mma_int8_tf32(ptr addrspace(1) %in, ptr addrspace(1) %iout, ptr addrspace(1) %fout) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %p = getelementptr <4 x i32>, ptr addrspace(1) %in, i64 %t64
  %v = load <4 x i32>, ptr addrspace(1) %p, align 16
  %x0 = extractelement <4 x i32> %v, i32 0
  %x1 = extractelement <4 x i32> %v, i32 1
  %x2 = extractelement <4 x i32> %v, i32 2
  %x3 = extractelement <4 x i32> %v, i32 3
  %r = call { i32, i32, i32, i32 } @llvm.nvvm.mma.m16n8k32.row.col.satfinite.s8(i32 %x0, i32 %x1, i32 %x2, i32 %x3, i32 %x1, i32 %x2, i32 0, i32 0, i32 0, i32 %tid)
  %r0 = extractvalue { i32, i32, i32, i32 } %r, 0
  %r3 = extractvalue { i32, i32, i32, i32 } %r, 3
  %s = add i32 %r0, %r3
  %q = getelementptr i32, ptr addrspace(1) %iout, i64 %t64
  store i32 %s, ptr addrspace(1) %q, align 4
  %f = call { float, float, float, float } @llvm.nvvm.mma.m16n8k8.row.col.tf32(i32 %x0, i32 %x1, i32 %x2, i32 %x3, i32 %x0, i32 %x3, float 1.0, float 2.0, float 3.0, float 4.0)
  %f0 = extractvalue { float, float, float, float } %f, 0
  %f2 = extractvalue { float, float, float, float } %f, 2
  %fs = fadd float %f0, %f2
  %fq = getelementptr float, ptr addrspace(1) %fout, i64 %t64
  store float %fs, ptr addrspace(1) %fq, align 4
  ret void
}
