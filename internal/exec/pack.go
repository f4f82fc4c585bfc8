package exec

// Packed CTAs: a launch whose CTAs have at most 16 threads (CUDA by
// Example's julia<<<grid, 1>>>, add<<<N, 1>>>) gave each CTA a warp of its
// own, and the warp engine paid a whole warp's dispatch for each op of one
// to a few lanes (probe z_julia: 0.22 G thread-instructions/s). When the
// kernel's threads never meet those of another CTA's warp lanes could see
// (no shared memory, no barrier, no warp collective: packable), one warp
// runs the threads of up to 32/threads consecutive CTAs instead, lane
// c*threads+t being thread t of the pack's c-th CTA. The CTAs are
// independent, so running them as one warp's lanes is a valid schedule
// (2.2.1: CTAs run in any order, concurrently or in series); each lane
// reads its own CTA's %ctaid and %laneid, and a fault names the lane's CTA.
//
// What a pack changes besides speed: LaunchStats counts a packed warp's
// instruction once (WarpInstructions), not once per CTA; and where several
// CTAs of one pack fault, the fault reported is the one the warp meets
// first, which need not be the lowest CTA's.

import (
	"strings"

	"github.com/ptxvm/ptxvm/internal/ir"
)

// packEnabled lets tests compare runs with and without packing.
var packEnabled = true

// packFactor is how many CTAs of a launch one warp runs: warpSize/threads
// when the launch may pack (1 otherwise).
func packFactor(k *Func, threads int, dynShared uint64, seed uint64, explicit bool) int {
	if !packEnabled || !k.canPack() || seed != 0 || explicit || dynShared != 0 || threads > warpSize/2 {
		return 1
	}
	return warpSize / threads
}

// packable says whether the threads of kernel fn, and of the functions it
// calls, only meet other threads through global memory: then the CTAs of
// a launch may share a warp. Shared memory, barriers, warp collectives and
// the warp-level matrix and asynchronous-copy families are the ways a
// thread reaches the rest of its CTA or warp; special registers other than
// those a lane can be given its own value of are refused too.
func packable(fn *ir.Func) bool {
	return everyInst(fn, func(in *ir.Inst) bool {
		switch in.Opcode {
		case "bar", "barrier", "mbarrier", "shfl", "vote", "match", "redux", "elect", "activemask",
			"cp", "wmma", "mma", "ldmatrix", "stmatrix", "movmatrix", "wgmma", "tcgen05", "setmaxnreg",
			"getctarank", "mapa", "clusterlaunchcontrol":
			return false
		}
		for _, m := range in.Mods {
			if strings.HasPrefix(m, ".shared") || strings.HasPrefix(m, ".async") {
				return false
			}
		}
		return packableOperands(in.Operands)
	})
}

// packSregs are the special registers a lane of a packed warp reads as a
// thread of its own CTA (fillSreg), or that every CTA of a launch reads
// alike.
var packSregs = map[string]bool{
	"%tid": true, "%ntid": true, "%ctaid": true, "%nctaid": true, "%laneid": true, "%warpid": true, "%nwarpid": true,
	"%lanemask_eq": true, "%lanemask_lt": true, "%lanemask_le": true, "%lanemask_gt": true, "%lanemask_ge": true,
	"%clock": true, "%clock64": true, "%globaltimer": true, "%globaltimer_lo": true, "%globaltimer_hi": true,
	"%smid": true, "%nsmid": true, "%gridid": true, "%clusterid": true, "%nclusterid": true,
	"%cluster_ctaid": true, "%cluster_nctaid": true, "%cluster_ctarank": true, "%cluster_nctarank": true,
	"%is_explicit_cluster": true,
}

// packableOperands refuses operands that name shared variables or special
// registers outside packSregs.
func packableOperands(ops []ir.Operand) bool {
	for i := range ops {
		if !packableOperand(&ops[i]) {
			return false
		}
	}
	return true
}

// packableOperand is packableOperands for one operand (by pointer: an
// Operand is large).
func packableOperand(a *ir.Operand) bool {
	switch {
	case a.Kind == ir.OpSreg && !packSregs[a.Sreg]:
		return false
	case a.Var != nil && strings.HasPrefix(a.Var.Space, ".shared"):
		return false
	case a.Base != nil && !packableOperand(a.Base):
		return false
	}
	return packableOperands(a.Elems)
}

// everyInst reports whether ok holds for every instruction of fn and of
// the functions it calls; a call through a register, or to a function
// with no body other than vprintf and __assertfail, fails it.
func everyInst(fn *ir.Func, ok func(in *ir.Inst) bool) bool {
	seen := map[*ir.Func]bool{}
	var walk func(fn *ir.Func) bool
	walk = func(fn *ir.Func) bool {
		if seen[fn] {
			return true
		}
		seen[fn] = true
		for _, in := range fn.Insts {
			if !ok(in) {
				return false
			}
			if in.Opcode != "call" {
				continue
			}
			var callee *ir.Func
			for i := range in.Operands {
				if op := &in.Operands[i]; op.Kind == ir.OpFunc {
					callee = op.Func
					break
				} else if op.Kind == ir.OpReg {
					return false // through a register
				}
			}
			switch {
			case callee == nil:
				return false
			case !callee.Defined:
				if callee.Name != "vprintf" && callee.Name != "__assertfail" {
					return false
				}
			case !walk(callee):
				return false
			}
		}
		return true
	}
	return walk(fn)
}

// newPackCluster builds the cluster that runs the launch's CTAs first to
// first+m-1 (linear indices, x fastest) as the lanes of one warp, reusing
// spare (a finished pack of the same launch) when given.
func newPackCluster(l *launch, first, m int, spare *cluster) *cluster {
	var c *cta
	var cl *cluster
	if spare != nil && spare.ctas[0].packed == m {
		cl, c = spare, spare.ctas[0]
		*cl = cluster{l: l, dims: [3]int{1, 1, 1}, ctas: cl.ctas, wait: spare.wait[:0], warps: spare.warps, counts: spare.counts, red: spare.red}
		c.setPackIDs(first)
		c.reuse(cl, 0, c.lanesCTA[0])
	} else {
		cl = &cluster{l: l, dims: [3]int{1, 1, 1}}
		c = newPackCTA(l, cl, first, m)
		cl.ctas = []*cta{c}
		cl.warps = c.warps
	}
	cl.id = c.id
	cl.threads = c.threads
	return cl
}

// newPackCTA builds the cta of a pack: one warp whose lane c*threads+t is
// thread t of CTA first+c.
func newPackCTA(l *launch, cl *cluster, first, m int) *cta {
	bx, by := l.block[0], l.block[1]
	nt := bx * by * l.block[2]
	c := &cta{l: l, cl: cl, packed: m, threads: m * nt, lanesCTA: new([warpSize][3]uint32)}
	c.setPackIDs(first)
	c.id = c.lanesCTA[0]
	w := &Warp{cta: c}
	for lane := 0; lane < c.threads; lane++ {
		t := lane % nt
		w.alive |= 1 << lane
		w.tid[lane] = [3]uint32{uint32(t % bx), uint32(t / bx % by), uint32(t / (bx * by))}
	}
	w.pushFrame(l.kernel, w.alive)
	c.warps = []*Warp{w}
	return c
}

// setPackIDs gives each lane of the pack's warp the index of its CTA, the
// pack's first being CTA first (stepping through the grid x fastest: a
// division a lane took two fifths of a packed vector add's time).
func (c *cta) setPackIDs(first int) {
	g := c.l.grid
	nt := c.threads / c.packed
	id := [3]uint32{uint32(first % g[0]), uint32(first / g[0] % g[1]), uint32(first / (g[0] * g[1]))}
	if int(id[0])+c.packed <= g[0] { // (the pack in one row of the grid)
		ids := c.lanesCTA[:c.packed*nt]
		if nt == 1 { // (the nested loop below cost a packed vector add 7%)
			for k := range ids {
				ids[k] = [3]uint32{id[0] + uint32(k), id[1], id[2]}
			}
			return
		}
		for k := range c.packed {
			for t := range nt {
				ids[k*nt+t] = [3]uint32{id[0] + uint32(k), id[1], id[2]}
			}
		}
		return
	}
	lane := 0
	for range c.packed {
		for range nt {
			c.lanesCTA[lane] = id
			lane++
		}
		if id[0]++; int(id[0]) == g[0] {
			if id[0], id[1] = 0, id[1]+1; int(id[1]) == g[1] {
				id[1], id[2] = 0, id[2]+1
			}
		}
	}
}

// laneCTA is the index of the CTA whose thread lane l of w is.
func (w *Warp) laneCTA(l int) [3]uint32 {
	if c := w.cta; c.lanesCTA != nil {
		return c.lanesCTA[l]
	}
	return w.cta.id
}
