"""Fault conformance cases: each launch must fail with the engine's typed fault, whose message
(internal/exec/fault.go) reads "KIND: kernel K, CTA (x,y,z), thread (x,y,z), INST at POS[: SPACE
address A (N bytes)][: MSG]".  expect_error matches the kind, the kernel and the coordinates of
the one faulting thread (never thread 0).  Run: python3 -B gen.py (from gen/)."""
import os
import sys

# the case writer is control's (../../control/gen/casegen.py), writing here
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "control", "gen"))
import casegen  # noqa: E402

casegen.OUTDIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
from casegen import case, out, inp, ptr, INDEX  # noqa: E402

H = ".version 8.0\n.target sm_90\n.address_size 64\n"

def cstr(name, s):
    b = list(s.encode()) + [0]
    return ".global .align 1 .b8 %s[%d] = {%s};" % (name, len(b), ", ".join(str(x) for x in b))

# out of bounds: a store to address 0 (no allocation there) by thread (5,0,0) only.
case("oob_store_null", "st.global to the null address by thread (5,0,0): out of bounds (5.1.2: an access must fall inside an allocation)", H + r"""
.visible .entry oob_store_null(.param .u64 out)
{
	.reg .pred %p;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.u64 %rd2, %rd1, %rd2;
	setp.eq.u32 %p, %r1, 5;
	@%p mov.u64 %rd2, 0;
	st.global.u32 [%rd2], %r1;
	ret;
}
""", block=(8, 1, 1), params=[ptr("out")], buffers=[{"name": "out", "type": "u32", "count": 8}],
     expect_error="out of bounds: kernel oob_store_null, CTA (0,0,0), thread (5,0,0)")

# out of bounds: a load one element past the end of a 16-element buffer, CTA (1,0,0) thread 3.
case("oob_load_past_end", "ld.global one element past the end of a 64-byte allocation by CTA (1,0,0) thread (3,0,0); the other threads stay in bounds", H + r"""
.visible .entry oob_load_past_end(.param .u64 in, .param .u64 out)
{
	.reg .pred %p;
	.reg .b32 %r<6>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [in];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	shl.b32 %r3, %r2, 2;
	add.u32 %r3, %r3, %r1;
	setp.eq.u32 %p, %r3, 7;
	@%p mov.u32 %r3, 16;
	mul.wide.u32 %rd2, %r3, 4;
	add.u64 %rd2, %rd1, %rd2;
	ld.global.u32 %r4, [%rd2];
	ld.param.u64 %rd3, [out];
	cvta.to.global.u64 %rd3, %rd3;
	mul.wide.u32 %rd4, %r3, 4;
	add.u64 %rd4, %rd3, %rd4;
	st.global.u32 [%rd4], %r4;
	ret;
}
""", grid=(2, 1, 1), block=(4, 1, 1), params=[ptr("in"), ptr("out")],
     buffers=[inp("in", "u32", list(range(16))), {"name": "out", "type": "u32", "count": 32}],
     expect_error="out of bounds: kernel oob_load_past_end, CTA (1,0,0), thread (3,0,0)")

# out of bounds: a store past the end of a 16-byte .shared variable? The shared window size is
# implementation-defined, so the suite only faults on global memory.

# misaligned: 5.4.4 / 9.7.9.8 "the address must be naturally aligned to a multiple of the
# access size"; thread (2,1,0) loads a .u32 at byte offset 2.
case("misaligned_load", "ld.global.u32 at an address 2 mod 4 by thread (2,1,0) of a (4,2,1) block (9.7.9.8: accesses must be naturally aligned)", H + r"""
.visible .entry misaligned_load(.param .u64 in, .param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [in];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %tid.y;
	mad.lo.u32 %r3, %r2, 4, %r1;
	mul.wide.u32 %rd2, %r3, 4;
	setp.eq.u32 %p0, %r3, 6;
	@%p0 add.u64 %rd2, %rd2, 2;
	add.u64 %rd2, %rd1, %rd2;
	ld.global.u32 %r4, [%rd2];
	ld.param.u64 %rd3, [out];
	cvta.to.global.u64 %rd3, %rd3;
	mul.wide.u32 %rd4, %r3, 4;
	add.u64 %rd4, %rd3, %rd4;
	st.global.u32 [%rd4], %r4;
	ret;
}
""", block=(4, 2, 1), params=[ptr("in"), ptr("out")],
     buffers=[inp("in", "u32", list(range(16))), {"name": "out", "type": "u32", "count": 8}],
     expect_error="misaligned: kernel misaligned_load, CTA (0,0,0), thread (2,1,0)")

case("misaligned_store_shared", "st.shared.v2.u32 (8 bytes) at an offset 4 mod 8 by thread (0,0,3) of a (1,1,4) block", H + r"""
.visible .entry misaligned_store_shared()
{
	.reg .pred %p;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	.shared .align 8 .b8 sh[64];
	mov.u32 %r1, %tid.z;
	mul.wide.u32 %rd1, %r1, 8;
	setp.eq.u32 %p, %r1, 3;
	@%p add.u64 %rd1, %rd1, 4;
	mov.u64 %rd2, sh;
	add.u64 %rd2, %rd2, %rd1;
	st.shared.v2.u32 [%rd2], {%r1, %r1};
	ret;
}
""", block=(1, 1, 4), params=[], buffers=[],
     expect_error="misaligned: kernel misaligned_store_shared, CTA (0,0,0), thread (0,0,3)")

# trap (9.7.19 trap: "Abort execution and generate an interrupt to the host CPU"), only
# thread 9 of CTA (0,1,0) executes it.
case("trap", "trap executed by thread (9,0,0) of CTA (0,1,0) only (divergent @p trap)", H + r"""
.visible .entry trap(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.y;
	setp.eq.u32 %p0, %r1, 9;
	setp.eq.and.u32 %p1, %r2, 1, %p0;
	@%p1 trap;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mul.wide.u32 %rd2, %r1, 4;
	add.u64 %rd2, %rd1, %rd2;
	st.global.u32 [%rd2], %r1;
	ret;
}
""", grid=(1, 2, 1), block=(16, 1, 1), params=[ptr("out")], buffers=[{"name": "out", "type": "u32", "count": 16}],
     expect_error="trap: kernel trap, CTA (0,1,0), thread (9,0,0)")

# brkpt (9.7.19 brkpt: "Suspends execution"); with no debugger the engine reports a trap.
case("brkpt", "brkpt executed by thread (4,0,0): reported as a trap fault (no debugger attached)", H + r"""
.visible .entry brkpt()
{
	.reg .pred %p;
	.reg .b32 %r<2>;
	mov.u32 %r1, %tid.x;
	setp.eq.u32 %p, %r1, 4;
	@%p brkpt;
	ret;
}
""", block=(8, 1, 1), expect_error="trap: kernel brkpt, CTA (0,0,0), thread (4,0,0)")

# CUDA assert: a call to the extern __assertfail(message, file, line, function, charSize)
# (the declaration nvcc emits), by thread (3,0,0) only.
ASSERT_PTX = H + cstr("msg", "x < 3") + "\n" + cstr("file", "assert.cu") + "\n" + cstr("fn", "kern") + r"""

.extern .func __assertfail
(
	.param .b64 __assertfail_param_0,
	.param .b64 __assertfail_param_1,
	.param .b32 __assertfail_param_2,
	.param .b64 __assertfail_param_3,
	.param .b64 __assertfail_param_4
)
;

.visible .entry KNAME()
{
	.reg .pred %p;
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p, %r1, 3;
	@%p bra OK;
	setp.ne.u32 %p, %r1, 3;
	@%p bra OK;
	mov.u64 %rd1, msg;
	cvta.global.u64 %rd2, %rd1;
	mov.u64 %rd3, file;
	cvta.global.u64 %rd4, %rd3;
	mov.u64 %rd5, fn;
	cvta.global.u64 %rd6, %rd5;
	mov.u32 %r2, 42;
	mov.u64 %rd7, 1;
	{
	.param .b64 param0;
	.param .b64 param1;
	.param .b32 param2;
	.param .b64 param3;
	.param .b64 param4;
	st.param.b64 [param0], %rd2;
	st.param.b64 [param1], %rd4;
	st.param.b32 [param2], %r2;
	st.param.b64 [param3], %rd6;
	st.param.b64 [param4], %rd7;
	call.uni __assertfail, (param0, param1, param2, param3, param4);
	}
OK:
	ret;
}
"""
# only thread 3 fails the assertion (threads 4..7 skip it too, so the fault is thread 3's)
case("assert_message", "CUDA assert via a call to .extern __assertfail by thread (3,0,0): a trap fault carrying message, file, line and function", ASSERT_PTX.replace("KNAME", "assert_message"),
     block=(8, 1, 1), expect_error="assertion failed: x < 3 (assert.cu:42, kern)")
case("assert_coords", "the same assertion: the fault names kind, kernel, CTA and thread (3,0,0)", ASSERT_PTX.replace("KNAME", "assert_coords"),
     grid=(2, 1, 1), block=(8, 1, 1), expect_error="trap: kernel assert_coords, CTA (0,0,0), thread (3,0,0)")

# deadlock: warp 0 waits at barrier 0, warp 1 at barrier 1; each barrier expects all 64 threads
# (9.7.13.1: with no thread count, "all threads in the CTA participate"), so neither completes.
case("deadlock_barriers", "warp 0 at bar.sync 0 and warp 1 at bar.sync 1 (both for all 64 threads): deadlock (9.7.13.1)", H + r"""
.visible .entry deadlock_barriers()
{
	.reg .pred %p;
	.reg .b32 %r<2>;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p, %r1, 32;
	@%p bra W0;
	bar.sync 1;
	bra END;
W0:
	bar.sync 0;
END:
	ret;
}
""", block=(64, 1, 1), expect_error="deadlock: kernel deadlock_barriers, CTA (0,0,0)")

# deadlock with explicit thread counts: warp 0 at bar.sync 0, 64 and warp 1 at bar.sync 1, 64;
# each barrier gets only 32 of its 64 threads.
case("deadlock_count", "warp 0 at bar.sync 0, 64 and warp 1 at bar.sync 1, 64 (each barrier gets 32 of 64 threads): deadlock (9.7.13.1)", H + r"""
.visible .entry deadlock_count()
{
	.reg .pred %p;
	.reg .b32 %r<2>;
	mov.u32 %r1, %tid.x;
	setp.ge.u32 %p, %r1, 32;
	@%p bra W1;
	bar.sync 0, 64;
	bra END;
W1:
	bar.sync 1, 64;
END:
	ret;
}
""", block=(64, 1, 1), expect_error="deadlock")

# launch limits (CUDA: at most 1024 threads per block, 227 KiB of shared memory per block on
# sm_90)
LIM = H + r"""
.visible .entry KNAME(.param .u64 out)
{
	ret;
}
"""
case("launch_1025_threads", "a launch with block (1025,1,1): more than 1024 threads per block", LIM.replace("KNAME", "launch_1025_threads"),
     block=(1025, 1, 1), params=[ptr("out")], buffers=[{"name": "out", "type": "u32", "count": 1}],
     expect_error="launch limit: kernel launch_1025_threads")
case("launch_2048_threads_3d", "a launch with block (16,16,8) = 2048 threads (each dimension within its own limit)", LIM.replace("KNAME", "launch_2048_threads_3d"),
     block=(16, 16, 8), params=[ptr("out")], buffers=[{"name": "out", "type": "u32", "count": 1}],
     expect_error="2048 threads per block exceed the limit of 1024")
case("launch_shared_limit", "dynamic_shared_bytes of 227 KiB + 1 (sm_90's limit per block is 227 KiB)", H + r"""
.extern .shared .align 16 .b8 dsm[];
.visible .entry launch_shared_limit(.param .u64 out)
{
	.reg .b32 %r;
	ld.shared.u32 %r, [dsm];
	ret;
}
""", block=(32, 1, 1), dyn=227 * 1024 + 1, params=[ptr("out")], buffers=[{"name": "out", "type": "u32", "count": 1}],
     expect_error="launch limit: kernel launch_shared_limit")
case("launch_shared_static_plus_dynamic", "200 KiB of static .shared plus 28 KiB of dynamic shared memory (228 KiB > 227 KiB)", H + r"""
.extern .shared .align 16 .b8 dsm[];
.shared .align 16 .b8 big[204800];
.visible .entry launch_shared_static_plus_dynamic(.param .u64 out)
{
	.reg .b32 %r;
	ld.shared.u32 %r, [dsm];
	st.shared.u32 [big], %r;
	ret;
}
""", block=(32, 1, 1), dyn=28 * 1024, params=[ptr("out")], buffers=[{"name": "out", "type": "u32", "count": 1}],
     expect_error="launch limit")
# and the largest allowed amount runs (a control that the limit is not off by one)
case("launch_shared_at_limit", "dynamic_shared_bytes of exactly 227 KiB: allowed; the last word is written and read back", H + r"""
.extern .shared .align 16 .b8 dsm[];
.visible .entry launch_shared_at_limit(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	mov.u32 %r0, 0x600df00d;
	st.shared.u32 [dsm+232444], %r0;
	ld.shared.u32 %r1, [dsm+232444];
	ld.param.u64 %rd0, [out];
	cvta.to.global.u64 %rd0, %rd0;
	st.global.u32 [%rd0], %r1;
	ret;
}
""", block=(1, 1, 1), dyn=227 * 1024, params=[ptr("out")], buffers=[out("out", "u32", [0x600df00d])])
case("launch_1024_threads", "block (1024,1,1): exactly the limit, runs", LIM.replace("KNAME", "launch_1024_threads"),
     block=(1024, 1, 1), params=[ptr("out")], buffers=[{"name": "out", "type": "u32", "count": 1}])

rows = "\n".join("| %s | %s |" % r for r in INDEX)
with open("../README.md", "w") as f:
    f.write(open("README.template.md").read().replace("{{CASES}}", rows))
