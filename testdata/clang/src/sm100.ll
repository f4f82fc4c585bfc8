; Blackwell tensor memory (sm_100a): tcgen05 alloc/dealloc, ld/st, cp,
; shift, commit, wait, fences; tcgen05.mma issued via inline asm; st.bulk.
target triple = "nvptx64-nvidia-cuda"

@tmem_slot = internal addrspace(3) global i32 undef, align 4
@mbar = internal addrspace(3) global i64 undef, align 8
@stage = internal addrspace(3) global [8192 x i8] undef, align 1024

declare void @llvm.nvvm.tcgen05.alloc.shared.cg1(ptr addrspace(3), i32)
declare void @llvm.nvvm.tcgen05.dealloc.cg1(ptr addrspace(6), i32)
declare void @llvm.nvvm.tcgen05.relinq.alloc.permit.cg1()
declare void @llvm.nvvm.tcgen05.commit.shared.cg1(ptr addrspace(3))
declare void @llvm.nvvm.tcgen05.wait.ld()
declare void @llvm.nvvm.tcgen05.wait.st()
declare void @llvm.nvvm.tcgen05.fence.before.thread.sync()
declare void @llvm.nvvm.tcgen05.fence.after.thread.sync()
declare void @llvm.nvvm.tcgen05.shift.down.cg1(ptr addrspace(6))
declare void @llvm.nvvm.tcgen05.cp.128x256b.cg1(ptr addrspace(6), i64)
declare <4 x i32> @llvm.nvvm.tcgen05.ld.32x32b.x4(ptr addrspace(6), i1)
declare <8 x i32> @llvm.nvvm.tcgen05.ld.16x256b.x2(ptr addrspace(6), i1)
declare void @llvm.nvvm.tcgen05.st.32x32b.x4(ptr addrspace(6), <4 x i32>, i1)
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare void @llvm.nvvm.st.bulk.shared.cta(ptr addrspace(3), i64, i64)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

define ptx_kernel void @tensor_memory(ptr addrspace(1) %out, i64 %adesc, i64 %bdesc) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = lshr i32 %tid, 5
  %w0 = icmp eq i32 %warp, 0
  br i1 %w0, label %alloc, label %wait_alloc

alloc:
  call void @llvm.nvvm.tcgen05.alloc.shared.cg1(ptr addrspace(3) @tmem_slot, i32 128)
  call void @llvm.nvvm.tcgen05.relinq.alloc.permit.cg1()
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @mbar, i32 1)
  call void @llvm.nvvm.st.bulk.shared.cta(ptr addrspace(3) @stage, i64 1024, i64 0)
  br label %wait_alloc

wait_alloc:
  call void @llvm.nvvm.tcgen05.fence.before.thread.sync()
  call void @llvm.nvvm.barrier0()
  call void @llvm.nvvm.tcgen05.fence.after.thread.sync()
  %taddr = load i32, ptr addrspace(3) @tmem_slot, align 4
  %tptr = inttoptr i32 %taddr to ptr addrspace(6)
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %issue, label %consume

issue:
  call void @llvm.nvvm.tcgen05.cp.128x256b.cg1(ptr addrspace(6) %tptr, i64 %adesc)
  ; D[tmem] (+)= A[smem desc] * B[smem desc], f16 inputs, f32 accumulate.
  call void asm sideeffect "{\0A\09.reg .pred acc;\0A\09setp.ne.b32 acc, $4, 0;\0A\09tcgen05.mma.cta_group::1.kind::f16 [$0], $1, $2, $3, acc;\0A}", "r,l,l,r,r"(i32 %taddr, i64 %adesc, i64 %bdesc, i32 136314896, i32 0)
  call void @llvm.nvvm.tcgen05.commit.shared.cg1(ptr addrspace(3) @mbar)
  br label %consume

consume:
  call void asm sideeffect "{\0A\09.reg .pred p;\0ALAB_WAIT_${:uid}:\0A\09mbarrier.try_wait.parity.shared::cta.b64 p, [$0], 0;\0A\09@p bra.uni DONE_${:uid};\0A\09bra.uni LAB_WAIT_${:uid};\0ADONE_${:uid}:\0A}", "r"(ptr addrspace(3) @mbar)
  call void @llvm.nvvm.tcgen05.fence.after.thread.sync()
  %v = call <4 x i32> @llvm.nvvm.tcgen05.ld.32x32b.x4(ptr addrspace(6) %tptr, i1 false)
  %v8 = call <8 x i32> @llvm.nvvm.tcgen05.ld.16x256b.x2(ptr addrspace(6) %tptr, i1 true)
  call void @llvm.nvvm.tcgen05.wait.ld()
  %e0 = extractelement <4 x i32> %v, i32 0
  %e7 = extractelement <8 x i32> %v8, i32 7
  %s = add i32 %e0, %e7
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %o, align 4
  %v2 = add <4 x i32> %v, <i32 1, i32 1, i32 1, i32 1>
  call void @llvm.nvvm.tcgen05.st.32x32b.x4(ptr addrspace(6) %tptr, <4 x i32> %v2, i1 false)
  call void @llvm.nvvm.tcgen05.wait.st()
  call void @llvm.nvvm.tcgen05.shift.down.cg1(ptr addrspace(6) %tptr)
  call void @llvm.nvvm.barrier0()
  br i1 %w0, label %free, label %exit

free:
  call void @llvm.nvvm.tcgen05.dealloc.cg1(ptr addrspace(6) %tptr, i32 128)
  br label %exit

exit:
  ret void
}
