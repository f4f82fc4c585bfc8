package exec

// Clusters (2.2.2, 11.7): the CTAs of a cluster are co-scheduled on one
// goroutine, their warps taking turns like the warps of one CTA, so they
// can wait for each other (barrier.cluster) and reach each other's shared
// memory. A launch without cluster dimensions runs every CTA in its own
// implicit 1x1x1 cluster.
//
// Distributed shared memory: a .shared::cluster address is the offset in
// the owning CTA's shared memory with the owner's rank+1 in bits 24 and up
// (mapa makes them); 0 there means the executing CTA, so every
// .shared::cta address is also the cluster address of the executing CTA's
// memory. Generic addresses carry the same value in the shared window.

import (
	"context"
	"fmt"
	"math/bits"
	"strings"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
)

// MaxClusterSize is the most CTAs a cluster may have (CUDA's non-portable
// limit; 8 is the portable one).
const MaxClusterSize = 16

// rankShift places a CTA's rank+1 in a cluster shared address.
const rankShift = 24

type cluster struct {
	l       *launch
	index   int // in the launch's order (the first fault is the lowest index's)
	id      [3]uint32
	dims    [3]int
	ctas    []*cta // by rank
	threads int
	exited  int
	// barrier.cluster: arrivals in the current phase, completed phases,
	// the lanes waiting
	arrived int
	gen     uint32
	wait    []barWaiter
	warps   []*Warp // the CTAs' warps, in rank order (run's schedule)
	// counts: the running worker's instruction counts, added to the
	// launch's once when the worker stops (workers would contend for the
	// counters' cache line after every cluster)
	counts *instCounts
	red    *redBuffer // the running worker's buffered adds (atomic_buffer.go); nil: none
}

// instCounts are instruction counts (LaunchStats).
type instCounts struct{ warp, thread uint64 }

// newCluster builds cluster id, reusing the CTAs of spare (a finished
// cluster of the same launch) when given.
func newCluster(l *launch, id [3]uint32, dims [3]int, spare *cluster) *cluster {
	var cl *cluster
	var old []*cta
	if spare != nil {
		// the spare itself is reused (its CTAs, warps and lists keep
		// their memory): the worker runs one cluster at a time
		old, cl = spare.ctas, spare
		*cl = cluster{l: l, id: id, dims: dims, ctas: old[:0], wait: spare.wait[:0], warps: spare.warps, counts: spare.counts, red: spare.red}
	} else {
		cl = &cluster{l: l, id: id, dims: dims}
	}
	for rz := 0; rz < dims[2]; rz++ {
		for ry := 0; ry < dims[1]; ry++ {
			for rx := 0; rx < dims[0]; rx++ {
				ctaid := [3]uint32{id[0]*uint32(dims[0]) + uint32(rx), id[1]*uint32(dims[1]) + uint32(ry), id[2]*uint32(dims[2]) + uint32(rz)}
				var c *cta
				if spare != nil {
					c = old[len(cl.ctas)].reuse(cl, len(cl.ctas), ctaid) // read before the append overwrites it
				} else {
					c = newCTA(l, cl, len(cl.ctas), ctaid)
				}
				cl.ctas = append(cl.ctas, c)
				cl.threads += c.threads
			}
		}
	}
	if spare == nil {
		for _, c := range cl.ctas {
			cl.warps = append(cl.warps, c.warps...)
		}
	}
	return cl
}

// run executes the cluster's CTAs to completion or to the first fault.
func (cl *cluster) run(ctx context.Context) *Fault {
	warps := cl.warps
	rng := cl.ctas[0].rng
	order := warps
	// instruction counts go to the worker's counts once, when the cluster
	// stops
	var nWarp, nThread uint64
	defer func() {
		cl.counts.warp += nWarp
		cl.counts.thread += nThread
	}()
	for rounds := 1; ; rounds++ {
		if rounds%redFlushRounds == 0 && cl.red.dirty() {
			cl.red.flush() // (atomic_buffer.go)
		}
		progress, live := false, false
		if rng != nil { // warps take turns in a random order each round
			order = append(order[:0:0], warps...)
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		for _, w := range order {
			if w.status == warpDone {
				continue
			}
			live = true
			if w.status != warpRunnable {
				continue
			}
			if err := ctx.Err(); err != nil {
				return &Fault{Kind: FaultCanceled, Kernel: cl.l.kernel.IR.Name, CTA: w.cta.idInts(), Msg: err.Error()}
			}
			if int64(cl.index) > cl.l.stopAfter.Load() { // a cluster before this one faulted
				return &Fault{Kind: FaultCanceled, Kernel: cl.l.kernel.IR.Name, CTA: w.cta.idInts(), Msg: "an earlier CTA faulted"}
			}
			w.status = w.run()
			nWarp += w.nWarp
			nThread += w.nThread
			w.nWarp, w.nThread = 0, 0
			progress = true
			if w.fault != nil {
				w.fault.Seed = cl.l.seed
				return w.fault
			}
			if w.status == warpDone {
				w.exitLanes(w.alive)
			}
		}
		if !live {
			return nil
		}
		if !progress {
			var where []string
			first := cl.ctas[0]
			for _, c := range cl.ctas {
				at := c.blockedAt()
				if len(at) > 0 && len(where) == 0 {
					first = c
				}
				where = append(where, at...)
			}
			return &Fault{Kind: FaultDeadlock, Kernel: cl.l.kernel.IR.Name, CTA: first.idInts(), Seed: cl.l.seed,
				Msg: "no thread can make progress; blocked: " + strings.Join(where, "; ")}
		}
	}
}

// arrive counts lanes of w arriving at barrier.cluster.
func (cl *cluster) arrive(w *Warp, lanes uint32) {
	for m := lanes; m != 0; m &= m - 1 {
		w.clusterTarget[bits.TrailingZeros32(m)] = cl.gen + 1
	}
	cl.arrived += bits.OnesCount32(lanes)
	cl.checkBarrier()
}

// checkBarrier completes the phase when every non-exited thread of the
// cluster has arrived, and releases the waiters it satisfies.
func (cl *cluster) checkBarrier() {
	if cl.arrived > 0 && cl.arrived >= cl.threads-cl.exited {
		cl.gen++
		cl.arrived = 0
	}
	kept := cl.wait[:0]
	for _, wt := range cl.wait {
		if wt.w.clusterDone(wt.lanes) {
			wt.f.blocked &^= wt.lanes
			if wt.w.status == warpBlocked {
				wt.w.status = warpRunnable
			}
			continue
		}
		kept = append(kept, wt)
	}
	cl.wait = kept
}

// clusterDone reports whether the phase each lane arrived in has completed.
func (w *Warp) clusterDone(lanes uint32) bool {
	for m := lanes; m != 0; m &= m - 1 {
		if w.clusterTarget[bits.TrailingZeros32(m)] > w.cta.cl.gen {
			return false
		}
	}
	return true
}

// peerShared resolves a shared address: the CTA whose memory it names and
// the offset there; ok is false for a rank outside the cluster.
func (c *cta) peerShared(addr uint64) (*cta, uint64, bool) {
	r := addr >> rankShift
	if r == 0 {
		return c, addr, true
	}
	if r > uint64(len(c.cl.ctas)) {
		return nil, 0, false
	}
	return c.cl.ctas[r-1], addr & (1<<rankShift - 1), true
}

func init() {
	register(lowerMapa, "mapa")
	register(lowerGetctarank, "getctarank")
}

// mapa{.shared::cluster}.type d, a, b: the address of a in CTA b.
func lowerMapa(l *lowering, in *ir.Inst, o *Op) error {
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	a, err := l.addrValue(in, 1)
	if err != nil {
		return err
	}
	b, err := l.src(in, 2)
	if err != nil {
		return err
	}
	width := uint64(1<<32 - 1)
	if typeOf(in) == ".u64" {
		width = ^uint64(0)
	}
	generic := spaceOf(in.Mods) == mem.SpaceGeneric
	o.exec = func(w *Warp, o *Op, mask uint32) {
		r := w.top().regs
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			rank := uint32(r[int(b)*warpSize+lane])
			if int(rank) >= len(w.cta.cl.ctas) {
				w.fail(o, 1<<lane, FaultUndefined, fmt.Sprintf("CTA rank %d is outside the cluster of %d CTAs", rank, len(w.cta.cl.ctas)))
				return
			}
			addr := r[int(a)*warpSize+lane] & width
			if generic {
				space, off := mem.Classify(addr)
				if space != mem.SpaceShared {
					w.fail(o, 1<<lane, FaultUndefined, fmt.Sprintf("mapa of 0x%x, which is not a shared memory address", addr))
					return
				}
				r[int(d)*warpSize+lane] = mem.Generic(mem.SpaceShared, off&(1<<rankShift-1)|uint64(rank+1)<<rankShift)
				continue
			}
			r[int(d)*warpSize+lane] = (addr&(1<<rankShift-1) | uint64(rank+1)<<rankShift) & width
		}
	}
	return nil
}

// getctarank{.shared::cluster}.type d, a: the rank of the CTA holding a.
func lowerGetctarank(l *lowering, in *ir.Inst, o *Op) error {
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	a, err := l.addrValue(in, 1)
	if err != nil {
		return err
	}
	generic := spaceOf(in.Mods) == mem.SpaceGeneric
	o.exec = func(w *Warp, o *Op, mask uint32) {
		r := w.top().regs
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			addr := r[int(a)*warpSize+lane]
			if generic {
				space, off := mem.Classify(addr)
				if space != mem.SpaceShared {
					w.fail(o, 1<<lane, FaultUndefined, fmt.Sprintf("getctarank of 0x%x, which is not a shared memory address", addr))
					return
				}
				addr = off
			}
			peer, _, ok := w.cta.peerShared(addr & (1<<32 - 1))
			if !ok {
				w.fail(o, 1<<lane, FaultUndefined, fmt.Sprintf("0x%x is not a shared address of the cluster", addr))
				return
			}
			r[int(d)*warpSize+lane] = uint64(peer.rank)
		}
	}
	return nil
}

// addrValue returns a slot holding operand i's value: a register, or the
// address of a variable (plus offset) as mov would give it.
func (l *lowering) addrValue(in *ir.Inst, i int) (int32, error) {
	op := in.Operands[i]
	if op.Kind == ir.OpAddr || op.Kind == ir.OpVar {
		sub := *in
		sub.Opcode = "mov"
		sub.Operands = []ir.Operand{in.Operands[0], op}
		sub.Types = nil
		return l.src(&sub, 1)
	}
	return l.src(in, i)
}
