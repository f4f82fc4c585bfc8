package exec

import (
	"testing"
)

// TestUniformMatchesLanes: the compute-once forms (uniform loads, costly
// pure ops on operands every lane shares) give what lane-by-lane execution
// gives, for uniform operands, operands that differ in one lane, and
// partial masks (a divergent half, a guarded op).
func TestUniformMatchesLanes(t *testing.T) {
	body := `
	.reg .b32 %u, %v, %w, %q1, %q2, %q3, %q4, %q5;
	.reg .f32 %fu, %fv, %fd1, %fd2, %fd3, %fd4;
	.reg .f64 %du, %dd1;
	.reg .b64 %a;
	.reg .pred %p;
	.shared .align 4 .b32 sh[32];
	mov.u32 %u, 0x12345;                // uniform
	mul.lo.u32 %v, %t, 0x9e3779b9;       // per lane
	setp.eq.u32 %p, %t, 29;
	selp.b32 %w, 7, %u, %p;              // uniform but in lane 29
	cvt.rn.f32.u32 %fu, %u;
	cvt.rn.f32.u32 %fv, %w;
	div.rn.f32 %fd1, %fu, 0f40400000;    // uniform
	div.rn.f32 %fd2, %fv, 0f40400000;    // differs in lane 29
	sqrt.rn.f32 %fd3, %fu;
	setp.lt.u32 %p, %t, 11;
	@%p sin.approx.f32 %fd4, %fu;        // guarded: 11 lanes
	cvt.rn.f64.u32 %du, %u;
	div.rn.f64 %dd1, %du, 0d4008000000000000;
	rem.u32 %q1, %u, 97;
	rem.u32 %q2, %w, 97;
	mov.u64 %a, sh;
	cvt.u32.u64 %q5, %a;
	st.shared.u32 [sh+4], %u;           // lanes read back a uniform address
	setp.lt.u32 %p, %t, 16;
	@%p bra Half;
	ld.shared.u32 %q3, [%a+4];
	bra Join;
Half:
	ld.shared.u32 %q3, [%a+4];
Join:
	ld.shared.u32 %q4, [%a+4];
	mov.b32 %q5, %fd1;
	xor.b32 %q5, %q5, %q1;
	mov.b32 %q1, %fd2;
	xor.b32 %q5, %q5, %q1;
	mov.b32 %q1, %fd3;
	xor.b32 %q5, %q5, %q1;
	mov.b32 %q1, %fd4;
	xor.b32 %q5, %q5, %q1;
	xor.b32 %q5, %q5, %q2;
	xor.b32 %q5, %q5, %q3;
	xor.b32 %q5, %q5, %q4;
	mov.b64 %a, %dd1;
	cvt.u64.u32 %res, %q5;
	xor.b64 %res, %res, %a;`
	defer func() { uniformEnabled = true }()
	uniformEnabled = true
	on := runLanes(t, "", body)
	uniformEnabled = false
	off := runLanes(t, "", body)
	if on != off {
		t.Fatalf("compute-once results differ from lane-by-lane ones:\n on  %x\n off %x", on, off)
	}
	if on[0] == on[29] {
		t.Fatalf("lane 29's operands differ, its result must too: %x", on)
	}
}
