package exec

// The implicit one-CTA cluster: barrier.cluster, mapa, getctarank.

import (
	"context"
	"encoding/binary"
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
	// in the implicit cluster, mapa to rank 0 names the same memory
	res, err := runBlockOn(t, "sm_90", 32, `.reg .b32 %a, %d, %r, %v;
	.shared .u32 sh[4];`, `
	mov.u32 %a, sh;
	add.u32 %a, %a, 8;
	st.shared.u32 [%a], 77;
	mapa.shared::cluster.u32 %d, %a, 0;
	ld.shared::cluster.u32 %v, [%d];
	getctarank.shared::cluster.u32 %r, %d;
	shl.b32 %r, %r, 8;
	or.b32 %res, %v, %r;`)
	if err != nil {
		t.Fatal(err)
	}
	if res[0] != 77 {
		t.Errorf("got %#x, want 77 (rank 0)", res[0])
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

// TestClusterDSMEM: a grid of 4 CTAs in clusters of 2x1x1. Each CTA
// writes its %ctaid.x into its shared word, the cluster synchronizes,
// and each CTA reads its peer's word through mapa (generic and
// shared::cluster forms), plus the cluster registers.
func TestClusterDSMEM(t *testing.T) {
	p, g := load(t, `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out) {
	.reg .u32 %t, %c, %rank, %peer, %v, %w, %x, %n;
	.reg .b64 %a, %o, %ga, %gp;
	.reg .b32 %sa, %pa;
	.reg .pred %e;
	.shared .u32 word;
	mov.u32 %t, %tid.x;
	mov.u32 %c, %ctaid.x;
	mov.u32 %rank, %cluster_ctarank;
	xor.b32 %peer, %rank, 1;
	setp.eq.u32 %e, %t, 0;
	@%e st.shared.u32 [word], %c;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	mov.u32 %sa, word;
	mapa.shared::cluster.u32 %pa, %sa, %peer;
	ld.shared::cluster.u32 %v, [%pa];
	mov.u64 %ga, word;
	cvta.shared.u64 %ga, %ga;
	mapa.u64 %gp, %ga, %peer;
	ld.u32 %w, [%gp];
	getctarank.u64 %x, %gp;
	mov.u32 %n, %cluster_nctarank;
	mad.lo.u32 %v, %v, 16, %w;
	mad.lo.u32 %v, %v, 16, %x;
	mad.lo.u32 %v, %v, 16, %n;
	mov.u32 %x, %clusterid.x;
	mad.lo.u32 %v, %v, 16, %x;
	selp.u32 %x, 1, 0, %is_explicit_cluster;
	mad.lo.u32 %v, %v, 16, %x;
	barrier.cluster.arrive;
	barrier.cluster.wait; // no CTA exits while its peer may still read
	ld.param.u64 %o, [out];
	mul.wide.u32 %a, %c, 4;
	add.u64 %o, %o, %a;
	@%e st.global.u32 [%o], %v;
	ret;
}
`)
	out, _ := g.Alloc(16, 0)
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{4, 1, 1}, Block: [3]int{64, 1, 1},
		Cluster: [3]int{2, 1, 1}, Params: params(p.Kernels["k"], out), Workers: 2}); err != nil {
		t.Fatal(err)
	}
	b, _ := g.Bytes(out, 16)
	for c := 0; c < 4; c++ {
		got := binary.LittleEndian.Uint32(b[4*c:])
		peer := c ^ 1
		// peer's word twice, the peer's rank, 2 CTAs, cluster c/2, explicit
		want := uint32(peer<<20 | peer<<16 | (c%2^1)<<12 | 2<<8 | c/2<<4 | 1)
		if got != want {
			t.Errorf("CTA %d: %#x, want %#x", c, got, want)
		}
	}
	// a grid that is not a multiple of the cluster is a launch error
	err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{3, 1, 1}, Block: [3]int{64, 1, 1},
		Cluster: [3]int{2, 1, 1}, Params: params(p.Kernels["k"], out)})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultLimit {
		t.Errorf("grid 3 with cluster 2: %v, want a launch limit fault", err)
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
