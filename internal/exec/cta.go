package exec

// A CTA: its warps, shared memory and barriers. The warps of a CTA run
// cooperatively on one goroutine (DESIGN.md decision 5): each runs until it
// blocks, finishes or uses its time slice, round robin.

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/ptxvm/ptxvm/internal/mem"
)

type cta struct {
	l        *launch
	id       [3]uint32
	shared   mem.Block
	warps    []*Warp
	threads  int // threads of the CTA
	exited   int // threads that have exited
	barriers [16]barrier
	pending  uint16     // the barriers with arrivals (threadsExited checks only those)
	cl       *cluster   // the cluster the CTA belongs to (cluster.go)
	rank     int        // %cluster_ctarank
	rng      *rand.Rand // a perturbed schedule (LaunchConfig.ScheduleSeed); nil: deterministic
	// a pack (pack.go): the number of CTAs its one warp runs, and each
	// lane's CTA (nil: the cta is one CTA)
	packed   int
	lanesCTA *[warpSize][3]uint32
}

// barrier is one of the CTA's 16 named barriers (9.7.13.1): arrivals
// counted in threads, the waiting lanes, and the .red accumulators.
type barrier struct {
	arrived  int
	expected int // 0: all non-exited threads
	waiting  []barWaiter
	popc     int
	notAll   bool // some arriving thread had a false predicate (.red.and)
	any      bool // some arriving thread had a true predicate (.red.or)
}

// barWaiter is a group of lanes of one frame waiting at a barrier, and
// where a .red result goes (dst slot, or predicate index pdst; -1: none).
type barWaiter struct {
	w         *Warp
	f         *frame
	lanes     uint32
	red       string // "", ".popc", ".and", ".or"
	dst, pdst int32
}

func (c *cta) idInts() [3]int { return [3]int{int(c.id[0]), int(c.id[1]), int(c.id[2])} }

// reuse makes a finished CTA of the same launch the CTA id, as newCTA
// would build it, keeping its allocations (a worker runs thousands).
func (c *cta) reuse(cl *cluster, rank int, id [3]uint32) *cta {
	l := c.l
	c.id, c.cl, c.rank, c.exited = id, cl, rank, 0
	// the barriers with arrivals (a completed one resets itself), keeping
	// the waiting lists' memory: every CTA would allocate them again
	for p := c.pending; p != 0; p &= p - 1 {
		b := &c.barriers[bits.TrailingZeros16(p)]
		clear(b.waiting)
		*b = barrier{waiting: b.waiting[:0]}
	}
	c.pending = 0
	c.seedSchedule()
	clear(c.shared.Data)
	for _, w := range c.warps {
		w.reset()
		w.pushFrame(l.kernel, w.alive)
	}
	return c
}

// reset returns a finished warp to the state newCTA gives it (same lanes
// and thread indices), with its buffers zeroed rather than reallocated.
func (w *Warp) reset() {
	if w.hasLocal { // most kernels have no local memory
		for l := range w.local {
			clear(w.local[l])
			clear(w.dyn[l])
		}
	}
	w.exited, w.stack, w.spins = 0, 0, 0
	if w.spMoved { // (else every lane's pointer is still at the top)
		for l := range w.sp {
			w.sp[l] = allocaTop // pushFrame's start, without its test
		}
		w.spMoved = false
	}
	w.frames = w.frames[:0]
	w.steps, w.fault, w.status, w.issued = 0, nil, warpRunnable, 0
	w.nWarp, w.nThread = 0, 0
	w.clusterTarget = [warpSize]uint32{}
}

// seedSchedule gives the CTA its random source for a perturbed schedule
// (LaunchConfig.ScheduleSeed), derived from the seed and the CTA's index.
func (c *cta) seedSchedule() {
	if s := c.l.seed; s != 0 {
		c.rng = rand.New(rand.NewPCG(s, uint64(c.id[0])|uint64(c.id[1])<<21|uint64(c.id[2])<<42))
	}
}

func newCTA(l *launch, cl *cluster, rank int, id [3]uint32) *cta {
	c := &cta{l: l, id: id, cl: cl, rank: rank}
	c.seedSchedule()
	c.shared = mem.Block{Space: mem.SpaceShared, Data: mem.HostBytes(l.prog.dynShared + l.dynShared)}
	bx, by, bz := l.block[0], l.block[1], l.block[2]
	c.threads = bx * by * bz
	nwarps := (c.threads + warpSize - 1) / warpSize
	for wi := 0; wi < nwarps; wi++ {
		w := &Warp{cta: c, id: wi}
		for lane := 0; lane < warpSize; lane++ {
			t := wi*warpSize + lane
			if t >= c.threads {
				break
			}
			w.alive |= 1 << lane
			w.tid[lane] = [3]uint32{uint32(t % bx), uint32(t / bx % by), uint32(t / (bx * by))}
		}
		w.pushFrame(l.kernel, w.alive)
		c.warps = append(c.warps, w)
	}
	return c
}

// exitLanes ends the threads of lanes (exit, or return from the kernel).
func (w *Warp) exitLanes(lanes uint32) {
	newly := lanes & w.alive &^ w.exited
	w.exited |= newly
	if newly != 0 {
		w.cta.threadsExited(bits.OnesCount32(newly))
	}
}

// threadsExited counts n more exited threads; a barrier that waits for all
// threads may complete with fewer.
func (c *cta) threadsExited(n int) {
	c.exited += n
	c.cl.exited += n
	for m := c.pending; m != 0; m &= m - 1 {
		c.checkBarrier(bits.TrailingZeros16(m))
	}
	c.cl.checkBarrier()
}

// arrive registers lanes at barrier id, expecting count threads (0: all
// the CTA's non-exited threads); pred holds the lanes whose .red predicate
// is true. A nil waiter is barrier.arrive: the lanes go on.
func (c *cta) arrive(id int, lanes uint32, count int, pred uint32, wt *barWaiter) {
	b := &c.barriers[id]
	c.pending |= 1 << id
	b.arrived += bits.OnesCount32(lanes)
	b.expected = count
	b.popc += bits.OnesCount32(pred & lanes)
	b.notAll = b.notAll || pred&lanes != lanes
	b.any = b.any || pred&lanes != 0
	if wt != nil {
		wt.f.blocked |= wt.lanes
		b.waiting = append(b.waiting, *wt)
	}
	c.checkBarrier(id)
}

func (c *cta) checkBarrier(id int) {
	b := &c.barriers[id]
	want := b.expected
	if want == 0 {
		want = c.threads - c.exited
	}
	if b.arrived < want || b.arrived == 0 {
		return
	}
	for _, wt := range b.waiting {
		for m := wt.lanes; m != 0 && wt.red != ""; m &= m - 1 { // (.red's results)
			l := bits.TrailingZeros32(m)
			switch wt.red {
			case ".popc":
				wt.f.regs[int(wt.dst)*warpSize+l] = uint64(b.popc)
			case ".and", ".or":
				v := !b.notAll
				if wt.red == ".or" {
					v = b.any
				}
				if v {
					wt.f.preds[wt.pdst] |= 1 << l
				} else {
					wt.f.preds[wt.pdst] &^= 1 << l
				}
			}
		}
		wt.f.blocked &^= wt.lanes
		if f := wt.f; c.rng == nil && f.blocked|f.syncWait|f.favor == 0 && f.rdepth == 0 && f.backs < starvationLimit {
			// every lane of the frame at one PC (enterConv checks) is what
			// run's next pick would choose, and where its group would go
			// converged again: go there now
			f.enterConv(f.active)
		}
		if wt.w.status == warpBlocked {
			wt.w.status = warpRunnable
		}
	}
	waiting := b.waiting
	clear(waiting)
	*b = barrier{waiting: waiting[:0]} // reinitialized for immediate reuse, keeping the list's memory
	c.pending &^= 1 << id
}

// blockedAt lists where the CTA's blocked warps wait.
func (c *cta) blockedAt() []string {
	var where []string
	for _, w := range c.warps {
		if w.status == warpDone || len(w.frames) == 0 {
			continue
		}
		f := w.top()
		pcs := map[int32]bool{}
		for m := f.active & (f.blocked | f.syncWait); m != 0; m &= m - 1 {
			pcs[f.pc[bits.TrailingZeros32(m)]-1] = true
		}
		var list []int
		for pc := range pcs {
			list = append(list, int(pc))
		}
		sort.Ints(list)
		for _, pc := range list {
			in := f.fn.Ops[pc].inst
			prefix := ""
			if len(c.cl.ctas) > 1 {
				prefix = fmt.Sprintf("CTA (%d,%d,%d) ", c.id[0], c.id[1], c.id[2])
			}
			where = append(where, fmt.Sprintf("%swarp %d at %s (%s)", prefix, w.id, in.Pos, in.Opcode+strings.Join(in.Mods, "")))
		}
	}
	return where
}
