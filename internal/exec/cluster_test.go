package exec

// The implicit one-CTA cluster: barrier.cluster, mapa, getctarank.

import (
	"errors"
	"strings"
	"testing"
)

func TestBarrierCluster(t *testing.T) {
	// every thread writes its word, arrives, waits, and reads its
	// neighbour's; twice, to check the barrier reinitializes
	res, err := runBlockOn(t, "sm_90", 96, `.reg .b64 %sa, %na;
	.reg .u32 %v, %n;
	.shared .u32 data[96];`, `
	mov.u64 %sa, data;
	mul.wide.u32 %off, %t, 4;
	add.u64 %sa, %sa, %off;
	st.shared.u32 [%sa], %t;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	add.u32 %n, %t, 1;
	rem.u32 %n, %n, 96;
	mov.u64 %na, data;
	mul.wide.u32 %off, %n, 4;
	add.u64 %na, %na, %off;
	ld.shared.u32 %v, [%na];
	barrier.cluster.arrive.release;
	barrier.cluster.wait.acquire;
	add.u32 %v, %v, 1000;
	st.shared.u32 [%sa], %v;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	ld.shared.u32 %res, [%na];`)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range res {
		// thread n's second value is (n+1)%96 + 1000
		if want := uint32((i+2)%96 + 1000); v != want {
			t.Errorf("thread %d: %d, want %d", i, v, want)
		}
	}
}

func TestMapaGetctarank(t *testing.T) {
	res, err := runBlockOn(t, "sm_90", 32, `.reg .b32 %a, %d, %r;
	.shared .u32 sh[4];`, `
	mov.u32 %a, sh;
	add.u32 %a, %a, 8;
	mapa.shared::cluster.u32 %d, %a, 0;
	getctarank.shared::cluster.u32 %r, %d;
	sub.u32 %res, %d, %a; // 0: the same address
	shl.b32 %r, %r, 8;
	or.b32 %res, %res, %r;`)
	if err != nil {
		t.Fatal(err)
	}
	if res[0] != 0 {
		t.Errorf("got %#x, want 0", res[0])
	}
	_, err = runBlockOn(t, "sm_90", 32, `.reg .b32 %a, %d;
	.shared .u32 sh[4];`, `
	mov.u32 %a, sh;
	mapa.shared::cluster.u32 %d, %a, 1;`)
	var f *Fault
	if !errors.As(err, &f) || !strings.Contains(f.Msg, "outside the cluster") {
		t.Errorf("mapa to rank 1: got %v, want a fault", err)
	}
}

// TestNoOpSync: griddepcontrol and setmaxnreg run and change nothing.
func TestNoOpSync(t *testing.T) {
	res, err := runBlockOn(t, "sm_90a", 128, "", `
	griddepcontrol.launch_dependents;
	griddepcontrol.wait;
	setmaxnreg.inc.sync.aligned.u32 64;
	add.u32 %res, %t, 1;`)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range res {
		if v != uint32(i+1) {
			t.Fatalf("thread %d: %d", i, v)
		}
	}
}
