package exec

// cp.async (9.7.9.25.3): global to shared copies, src-size zero fill,
// ignore-src, completion by wait_group/wait_all.

import "testing"

func TestCpAsync(t *testing.T) {
	// each lane copies out[lane] (8 bytes, = lane*8+... as written below)
	// into shared memory, waits, and reads its neighbour's word
	res := runLanesOn(t, "sm_80", `.reg .b64 %g, %s, %v;
	.reg .u32 %n;
	.shared .align 16 .b64 buf[32];`, `
	ld.param.u64 %g, [out];
	mul.wide.u32 %off, %t, 8;
	add.u64 %g, %g, %off;
	cvt.u64.u32 %v, %t;
	add.u64 %v, %v, 1000;
	st.global.u64 [%g], %v;
	mov.u64 %s, buf;
	add.u64 %s, %s, %off;
	cp.async.ca.shared.global [%s], [%g], 8;
	cp.async.commit_group;
	cp.async.wait_group 0;
	bar.sync 0;
	add.u32 %n, %t, 1;
	and.b32 %n, %n, 31;
	mul.wide.u32 %off, %n, 8;
	mov.u64 %s, buf;
	add.u64 %s, %s, %off;
	ld.shared.u64 %res, [%s];`)
	for l, v := range res {
		if want := uint64((l+1)%32 + 1000); v != want {
			t.Errorf("lane %d: %d, want %d", l, v, want)
		}
	}
}

func TestCpAsyncZeroFill(t *testing.T) {
	// src-size 3 of cp-size 8 keeps 3 bytes of 0x1122334455667788 and
	// zero-fills the rest; ignore-src true gives zeros
	res := runLanesOn(t, "sm_80", `.reg .b64 %g, %s, %v;
	.reg .pred %p;
	.shared .align 16 .b64 buf[2];`, `
	ld.param.u64 %g, [out];
	add.u64 %g, %g, 128;
	setp.eq.u32 %p, %t, 0;
	@!%p bra Skip;
	mov.b64 %v, 0x1122334455667788;
	st.global.u64 [%g], %v;
	mov.u64 %s, buf;
	cp.async.ca.shared.global [%s], [%g], 8, 3;
	cp.async.ca.shared.global [%s+8], [%g], 8, %p;
	cp.async.wait_all;
	ld.shared.u64 %res, [%s];
	ld.shared.u64 %v, [%s+8];
	or.b64 %res, %res, %v;
Skip:`)
	if res[0] != 0x334455667788&0xffffff {
		t.Errorf("got %#x, want %#x", res[0], 0x667788)
	}
}
