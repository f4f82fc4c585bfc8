package exec

// Special registers (chapter 10), filled per lane when a frame starts.

import "time"

func (w *Warp) fillSreg(ref *sregRef, row []uint64) {
	comp := ref.ci
	switch ref.name { // the registers that differ between lanes
	case "%tid":
		for lane := range row {
			row[lane] = uint64(w.tid[lane][comp])
		}
		return
	case "%laneid":
		for lane := range row {
			row[lane] = uint64(w.laneID(lane))
		}
		return
	case "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt", "%lanemask_ge":
		for lane := range row {
			row[lane] = laneMask(ref.name, w.laneID(lane))
		}
		return
	case "%ctaid", "%clusterid": // (a pack's lanes are threads of different CTAs, each its own cluster)
		if w.cta.lanesCTA != nil {
			for lane := range row {
				row[lane] = uint64(w.cta.lanesCTA[lane][comp])
			}
			return
		}
	}
	fillRow((*lanes)(row), w.uniformSreg(ref.name, comp))
}

// laneID is %laneid of lane's thread: the lane, or in a pack (pack.go)
// the thread's index in its CTA, whose threads one warp holds.
func (w *Warp) laneID(lane int) int {
	if c := w.cta; c.packed > 0 {
		return lane % (c.threads / c.packed)
	}
	return lane
}

// laneMask is the value of %lanemask_eq/lt/le/gt/ge for lane.
func laneMask(name string, lane int) uint64 {
	switch name {
	case "%lanemask_eq":
		return 1 << lane
	case "%lanemask_lt":
		return 1<<lane - 1
	case "%lanemask_le":
		return 1<<(lane+1) - 1
	case "%lanemask_gt":
		return uint64(^uint32(0) << (lane + 1))
	}
	return uint64(^uint32(0) << lane) // %lanemask_ge
}

// uniformSreg is the value of a special register that every lane of the
// warp reads alike.
func (w *Warp) uniformSreg(name string, comp int) uint64 {
	l := w.cta.l
	var v uint64
	switch name {
	case "%ntid":
		v = uint64(l.block[comp])
	case "%ctaid":
		v = uint64(w.cta.id[comp])
	case "%nctaid":
		v = uint64(l.grid[comp])
	case "%clusterid":
		v = uint64(w.cta.cl.id[comp])
	case "%nclusterid":
		v = uint64(l.grid[comp] / l.cluster[comp])
	case "%cluster_ctaid":
		v = uint64(int(w.cta.id[comp]) % l.cluster[comp])
	case "%cluster_nctaid":
		v = uint64(l.cluster[comp])
	case "%cluster_ctarank":
		v = uint64(w.cta.rank)
	case "%cluster_nctarank": // (frames start while the cluster is built)
		v = uint64(l.cluster[0] * l.cluster[1] * l.cluster[2])
	case "%smid", "%gridid":
		v = 0 // one SM; one grid
	case "%nsmid":
		v = 1
	case "%warpid":
		v = uint64(w.id)
	case "%nwarpid":
		v = uint64((w.cta.threads + warpSize - 1) / warpSize)
	case "%clock", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi":
		// nanoseconds on the monotonic clock since the launch began
		// (plus its wall-clock start for %globaltimer): they never go
		// back, and advance as the kernel runs
		v = uint64(time.Since(l.start).Nanoseconds())
		if name != "%clock" && name != "%clock64" {
			v += uint64(l.start.UnixNano())
		}
		if name == "%clock" || name == "%globaltimer_lo" {
			v &= 0xffffffff
		} else if name == "%globaltimer_hi" {
			v >>= 32
		}
	case "%dynamic_smem_size":
		v = l.dynShared
	case "%total_smem_size", "%aggr_smem_size":
		v = l.prog.dynShared + l.dynShared
	}
	return v
}
