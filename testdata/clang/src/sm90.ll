; Hopper-era features (sm_90/sm_90a): mbarriers, TMA bulk tensor copies,
; clusters and distributed shared memory, elect.sync, setmaxnreg,
; griddepcontrol, proxy fences, stmatrix, and wgmma issued via inline asm.
target triple = "nvptx64-nvidia-cuda"

@mbar = internal addrspace(3) global i64 undef, align 8
@smem = internal addrspace(3) global [4096 x i8] undef, align 128

declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3))
declare void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7), ptr addrspace(3), ptr, i32, i32, i16, i64, i1, i1, i32)
declare void @llvm.nvvm.cp.async.bulk.commit.group()
declare void @llvm.nvvm.cp.async.bulk.wait.group(i32)
declare { i32, i1 } @llvm.nvvm.elect.sync(i32)
declare void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32)
declare void @llvm.nvvm.setmaxnreg.dec.sync.aligned.u32(i32)
declare void @llvm.nvvm.griddepcontrol.wait()
declare void @llvm.nvvm.griddepcontrol.launch.dependents()
declare void @llvm.nvvm.fence.proxy.async.shared_cta()
declare void @llvm.nvvm.fence.proxy.async()
declare ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3), i32)
declare i32 @llvm.nvvm.getctarank.shared.cluster(ptr addrspace(3))
declare void @llvm.nvvm.barrier.cluster.arrive()
declare void @llvm.nvvm.barrier.cluster.wait()
declare void @llvm.nvvm.barrier.cluster.arrive.relaxed.aligned()
declare void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3), i32, i32, i32, i32)
declare void @llvm.nvvm.wgmma.fence.sync.aligned()
declare void @llvm.nvvm.wgmma.commit_group.sync.aligned()
declare void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
declare void @llvm.nvvm.barrier0()

define ptx_kernel void @tma_load(ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %tmap, ptr addrspace(1) %out, i32 %x, i32 %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %init, label %sync

init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @mbar, i32 1)
  call void @llvm.nvvm.fence.proxy.async.shared_cta()
  %dst = addrspacecast ptr addrspace(3) @smem to ptr addrspace(7)
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dst, ptr addrspace(3) @mbar, ptr %tmap, i32 %x, i32 %y, i16 0, i64 0, i1 false, i1 false, i32 0)
  ; Expect 4096 bytes of transaction on the barrier (inline asm form).
  call void asm sideeffect "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "r,r"(ptr addrspace(3) @mbar, i32 4096)
  br label %sync

sync:
  call void @llvm.nvvm.barrier0()
  ; Spin on the phase parity with labels inside the asm block.
  call void asm sideeffect "{\0A\09.reg .pred done;\0AWAIT_${:uid}:\0A\09mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\0A\09@!done bra WAIT_${:uid};\0A}", "r,r"(ptr addrspace(3) @mbar, i32 0)
  %p = getelementptr i8, ptr addrspace(3) @smem, i32 %tid
  %v = load i8, ptr addrspace(3) %p, align 1
  %q = getelementptr i8, ptr addrspace(1) %out, i32 %tid
  store i8 %v, ptr addrspace(1) %q, align 1
  ret void
}

define ptx_kernel void @cluster_dsmem(ptr addrspace(1) %out) "nvvm.cluster_dim"="2,1,1" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %rank = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %slot = getelementptr i32, ptr addrspace(3) @smem, i32 %tid
  store i32 %rank, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier.cluster.arrive()
  call void @llvm.nvvm.barrier.cluster.wait()
  %peer = xor i32 %rank, 1
  %remote = call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) %slot, i32 %peer)
  %rv = load i32, ptr addrspace(7) %remote, align 4
  %who = call i32 @llvm.nvvm.getctarank.shared.cluster(ptr addrspace(3) %slot)
  %sum = add i32 %rv, %who
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %sum, ptr addrspace(1) %o, align 4
  call void @llvm.nvvm.barrier.cluster.arrive.relaxed.aligned()
  call void @llvm.nvvm.barrier.cluster.wait()
  ret void
}

define ptx_kernel void @warp_specialized(ptr addrspace(1) %out) "nvvm.maxntid"="384" {
entry:
  call void @llvm.nvvm.griddepcontrol.wait()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %wg = lshr i32 %tid, 7
  %producer = icmp eq i32 %wg, 0
  br i1 %producer, label %prod, label %cons

prod:
  call void @llvm.nvvm.setmaxnreg.dec.sync.aligned.u32(i32 40)
  %e = call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1)
  %leader = extractvalue { i32, i1 } %e, 1
  br i1 %leader, label %lead, label %done

lead:
  call void @llvm.nvvm.cp.async.bulk.commit.group()
  call void @llvm.nvvm.cp.async.bulk.wait.group(i32 0)
  br label %done

cons:
  call void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32 232)
  call void @llvm.nvvm.wgmma.fence.sync.aligned()
  %acc = call { float, float, float, float } asm sideeffect "{\0A\09.reg .pred p;\0A\09setp.ne.b32 p, $6, 0;\0A\09wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0, $1, $2, $3}, $4, $5, p, 1, 1, 0, 1;\0A}", "=f,=f,=f,=f,l,l,r,0,1,2,3"(i64 1, i64 2, i32 1, float 0.0, float 0.0, float 0.0, float 0.0)
  call void @llvm.nvvm.wgmma.commit_group.sync.aligned()
  call void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64 0)
  %a0 = extractvalue { float, float, float, float } %acc, 0
  %a3 = extractvalue { float, float, float, float } %acc, 3
  %s = fadd float %a0, %a3
  %o = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %s, ptr addrspace(1) %o, align 4
  %b = bitcast float %s to i32
  %sl = getelementptr i32, ptr addrspace(3) @smem, i32 %tid
  call void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %sl, i32 %b, i32 %b, i32 %tid, i32 %tid)
  br label %done

done:
  call void @llvm.nvvm.fence.proxy.async()
  call void @llvm.nvvm.griddepcontrol.launch.dependents()
  ret void
}
