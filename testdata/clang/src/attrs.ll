; Linkage kinds, aliases, external declarations, kernel performance
; directives, loop pragmas, odd symbol names and parameter passing forms.
target triple = "nvptx64-nvidia-cuda"

@weak_var = weak addrspace(1) global i32 7, align 4
@common_var = common addrspace(1) global [16 x i32] zeroinitializer, align 4
@odr_var = linkonce_odr addrspace(1) global i64 99, align 8
@ext_var = external addrspace(1) global i32, align 4
@ext_const = external addrspace(4) global [4 x float], align 4
@internal_tab = internal addrspace(4) constant [4 x half] [half 0xH3C00, half 0xH4000, half 0xH4200, half 0xH7BFF], align 2
@bf_tab = internal addrspace(1) global [2 x bfloat] [bfloat 0xR3F80, bfloat 0xRC000], align 2
@dbl_tab = addrspace(4) constant [3 x double] [double 1.0, double 0x7FF0000000000000, double -0.0], align 8
; Internal names with dots are renamed by LLVM (dots are not valid in PTX
; identifiers; LLVM only renames symbols that are not externally visible).
@"name.with.dots" = internal addrspace(1) global i32 1, align 4
@"name$with$dollars" = addrspace(1) global i32 2, align 4
@0 = private addrspace(1) global i32 3, align 4
@1 = private unnamed_addr addrspace(4) constant [6 x i8] c"hi\00\01\FF\00", align 1
@ptr_to_unnamed = addrspace(1) global ptr addrspacecast (ptr addrspace(1) @0 to ptr), align 8
@struct_init = addrspace(1) global { i8, i16, i32, i64, float, double } { i8 1, i16 2, i32 3, i64 4, float 5.0, double 6.0 }, align 8
@shared_arr = addrspace(3) global [64 x float] undef, align 16
@bool_var = addrspace(1) global i1 true, align 1

declare i32 @ext_func(i32, ptr)
declare void @llvm.trap()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @real_impl(ptr %p) noinline {
  store i32 1, ptr %p, align 4
  ret void
}
@alias_impl = alias void (ptr), ptr @real_impl

define weak void @weak_func(ptr %p) noinline {
  store i32 2, ptr %p, align 4
  ret void
}

define linkonce_odr i32 @odr_func(i32 %x) noinline {
  %r = mul i32 %x, 3
  ret i32 %r
}

define internal fastcc i8 @small_ints(i1 zeroext %b, i8 signext %c, i16 zeroext %s) noinline {
  %z = zext i1 %b to i8
  %t = trunc i16 %s to i8
  %a = add i8 %z, %c
  %r = add i8 %a, %t
  ret i8 %r
}

%struct.Pair = type { i32, double }
%struct.Big = type { [9 x i32], <4 x float> }

define %struct.Pair @make_pair(i32 %a, double %b) noinline {
  %p0 = insertvalue %struct.Pair undef, i32 %a, 0
  %p1 = insertvalue %struct.Pair %p0, double %b, 1
  ret %struct.Pair %p1
}

define i32 @take_big(ptr byval(%struct.Big) align 16 %b) noinline {
  %p = getelementptr %struct.Big, ptr %b, i32 0, i32 0, i32 8
  %v = load i32, ptr %p, align 4
  ret i32 %v
}

define void @never_returns(i32 %code) noinline noreturn {
  call void @llvm.trap()
  unreachable
}

define ptx_kernel void @directives_max(ptr addrspace(1) %out) "nvvm.maxntid"="64,2,1" "nvvm.minctasm"="2" "nvvm.maxnreg"="64" {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %tid, ptr addrspace(1) %o, align 4
  ret void
}

define ptx_kernel void @directives_req(ptr addrspace(1) %out) "nvvm.reqntid"="32,4" {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %g = load i32, ptr addrspace(1) @"name.with.dots", align 4
  %h = load i32, ptr addrspace(1) @"name$with$dollars", align 4
  %s = add i32 %g, %h
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %o, align 4
  ret void
}

define ptx_kernel void @uses_everything(ptr addrspace(1) %out, ptr addrspace(3) %sh, i8 %small, i1 %flag, half %h, <2 x half> %h2, i128 %wide, ptr byval(%struct.Big) align 16 %big) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %gen = addrspacecast ptr addrspace(1) %out to ptr
  call void @alias_impl(ptr %gen)
  call void @weak_func(ptr %gen)
  %w = load i32, ptr addrspace(1) @weak_var, align 4
  %e = load i32, ptr addrspace(1) @ext_var, align 4
  %c = getelementptr [16 x i32], ptr addrspace(1) @common_var, i32 0, i32 %tid
  %cv = load i32, ptr addrspace(1) %c, align 4
  %od = load i64, ptr addrspace(1) @odr_var, align 8
  %odt = trunc i64 %od to i32
  %f = call i32 @odr_func(i32 %w)
  %x = call i32 @ext_func(i32 %e, ptr %gen)
  %sm = call fastcc i8 @small_ints(i1 %flag, i8 %small, i16 300)
  %smz = zext i8 %sm to i32
  %pr = call %struct.Pair @make_pair(i32 %x, double 2.5)
  %pa = extractvalue %struct.Pair %pr, 0
  %bg = call i32 @take_big(ptr byval(%struct.Big) align 16 %big)
  %ht = getelementptr [4 x half], ptr addrspace(4) @internal_tab, i32 0, i32 %tid
  %hv = load half, ptr addrspace(4) %ht, align 2
  %hs = fadd half %hv, %h
  %hi = fptosi half %hs to i32
  %ec = getelementptr [4 x float], ptr addrspace(4) @ext_const, i32 0, i32 %tid
  %ev = load float, ptr addrspace(4) %ec, align 4
  %ei = fptosi float %ev to i32
  %wt = trunc i128 %wide to i32
  %s0 = add i32 %w, %cv
  %s1 = add i32 %s0, %odt
  %s2 = add i32 %s1, %f
  %s3 = add i32 %s2, %smz
  %s4 = add i32 %s3, %pa
  %s5 = add i32 %s4, %bg
  %s6 = add i32 %s5, %hi
  %s7 = add i32 %s6, %ei
  %s8 = add i32 %s7, %wt
  %shp = getelementptr float, ptr addrspace(3) %sh, i32 %tid
  %shv = load float, ptr addrspace(3) %shp, align 4
  %shi = fptosi float %shv to i32
  %s9 = add i32 %s8, %shi
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s9, ptr addrspace(1) %o, align 4
  %bad = icmp eq i32 %s9, -1
  br i1 %bad, label %die, label %loop

die:
  call void @never_returns(i32 %s9)
  unreachable

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %acc.next = add i32 %acc, %i
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %s9
  br i1 %done, label %exit, label %loop, !llvm.loop !0

exit:
  store i32 %acc.next, ptr addrspace(1) %out, align 4
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.disable"}
