package exec

// mbarrier (9.7.13.15): phases, arrive/test_wait/try_wait with state and
// parity, expect_tx/complete_tx, arrive_drop, pending_count, and faults for
// uses the manual calls undefined.

import (
	"errors"
	"strings"
	"testing"
)

func TestMbarrierPhases(t *testing.T) {
	// 64 threads write shared words, arrive, spin on test_wait, then read
	// their neighbour's word; a second phase uses try_wait.parity 1
	res, err := runBlockOn(t, "sm_90", 64, `.reg .b64 %st, %sa, %na;
	.reg .u32 %v, %n;
	.reg .pred %p;
	.shared .align 8 .b64 bar;
	.shared .u32 data[64];`, `
	setp.eq.u32 %p, %t, 0;
	@%p mbarrier.init.shared.b64 [bar], 64;
	bar.sync 0;
	mov.u64 %sa, data;
	mul.wide.u32 %off, %t, 4;
	add.u64 %sa, %sa, %off;
	add.u32 %v, %t, 500;
	st.shared.u32 [%sa], %v;
	mbarrier.arrive.shared.b64 %st, [bar];
Wait0:
	mbarrier.test_wait.shared.b64 %p, [bar], %st;
	@!%p bra Wait0;
	add.u32 %n, %t, 1;
	and.b32 %n, %n, 63;
	mov.u64 %na, data;
	mul.wide.u32 %off, %n, 4;
	add.u64 %na, %na, %off;
	ld.shared.u32 %res, [%na];
	mbarrier.arrive.shared.b64 %st, [bar];
Wait1:
	mbarrier.try_wait.parity.shared.b64 %p, [bar], 1;
	@!%p bra Wait1;
	mbarrier.test_wait.parity.shared.b64 %p, [bar], 0; // phase 2 is current: parity 0 incomplete
	selp.u32 %v, 0x10000, 0, %p;
	or.b32 %res, %res, %v;`)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range res {
		if want := uint32((i+1)%64 + 500); v != want {
			t.Errorf("thread %d: %#x, want %#x", i, v, want)
		}
	}
}

func TestMbarrierTx(t *testing.T) {
	// one thread: init 1; arrive.expect_tx 16 leaves tx 16 pending (phase
	// incomplete); complete_tx 16 completes it. pending_count of a
	// noComplete arrive on a fresh count-3 object is 3.
	res, err := runBlockOn(t, "sm_90", 32, `.reg .b64 %st;
	.reg .u32 %v;
	.reg .pred %p, %q, %z;
	.shared .align 8 .b64 bar;
	.shared .align 8 .b64 bar2;`, `
	setp.eq.u32 %z, %t, 0;
	@!%z bra Done;
	mbarrier.init.shared.b64 [bar], 1;
	mbarrier.arrive.expect_tx.shared.b64 %st, [bar], 16;
	mbarrier.test_wait.shared.b64 %p, [bar], %st;
	mbarrier.complete_tx.shared.b64 [bar], 16;
	mbarrier.test_wait.shared.b64 %q, [bar], %st;
	selp.u32 %res, 1, 0, %p;
	selp.u32 %v, 2, 0, %q;
	or.b32 %res, %res, %v;
	mbarrier.init.shared.b64 [bar2], 3;
	mbarrier.arrive.noComplete.shared.b64 %st, [bar2], 1;
	mbarrier.pending_count.b64 %v, %st;
	shl.b32 %v, %v, 4;
	or.b32 %res, %res, %v;
Done:`)
	if err != nil {
		t.Fatal(err)
	}
	if res[0] != 2|3<<4 {
		t.Errorf("got %#x, want %#x (incomplete, then complete; pending 3)", res[0], 2|3<<4)
	}
}

func TestMbarrierFaults(t *testing.T) {
	for _, c := range []struct{ name, body, msg string }{
		{"uninitialized", `
	mbarrier.arrive.shared.b64 %st, [bar];`, "not initialized"},
		{"noComplete completes", `
	setp.eq.u32 %p, %t, 0;
	@%p mbarrier.init.shared.b64 [bar], 1;
	@%p mbarrier.arrive.noComplete.shared.b64 %st, [bar], 1;`, ".noComplete"},
		{"count 0", `
	mbarrier.init.shared.b64 [bar], 0;`, "outside [1, 2^20-1]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := runBlock(t, 32, `.reg .b64 %st;
	.reg .pred %p;
	.shared .align 8 .b64 bar;`, c.body)
			var f *Fault
			if !errors.As(err, &f) || f.Kind != FaultUndefined || !strings.Contains(f.Msg, c.msg) {
				t.Errorf("got %v, want an undefined-behavior fault containing %q", err, c.msg)
			}
		})
	}
}

// TestCpAsyncMbarrierArrive: with .noinc the copy's arrive counts toward
// the expected 2 (with the thread's own arrive); without it, it does not.
func TestCpAsyncMbarrierArrive(t *testing.T) {
	res, err := runBlockOn(t, "sm_90", 32, `.reg .b64 %st;
	.reg .u32 %v;
	.reg .pred %p, %q, %z;
	.shared .align 8 .b64 bar;`, `
	setp.eq.u32 %z, %t, 0;
	@!%z bra Done;
	mbarrier.init.shared.b64 [bar], 2;
	cp.async.mbarrier.arrive.shared.b64 [bar];
	mbarrier.arrive.shared.b64 %st, [bar];
	mbarrier.test_wait.shared.b64 %p, [bar], %st; // 1 of 2 arrivals: incomplete
	cp.async.mbarrier.arrive.noinc.shared.b64 [bar];
	mbarrier.test_wait.shared.b64 %q, [bar], %st; // 2 of 2: complete
	selp.u32 %res, 1, 0, %p;
	selp.u32 %v, 2, 0, %q;
	or.b32 %res, %res, %v;
Done:`)
	if err != nil {
		t.Fatal(err)
	}
	if res[0] != 2 {
		t.Errorf("got %#x, want 2", res[0])
	}
}
