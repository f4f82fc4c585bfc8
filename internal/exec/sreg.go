package exec

// Special registers (chapter 10), filled per lane when a frame starts.

import "time"

func (w *Warp) fillSreg(fn *Func, slot int32, row []uint64) {
	ref := fn.sregOf[slot]
	l := w.cta.l
	comp := componentIndex(ref.comp)
	nwarps := uint64((w.cta.threads + warpSize - 1) / warpSize)
	for lane := range row {
		var v uint64
		switch ref.name {
		case "%tid":
			v = uint64(w.tid[lane][comp])
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
		case "%laneid":
			v = uint64(lane)
		case "%warpid":
			v = uint64(w.id)
		case "%nwarpid":
			v = nwarps
		case "%lanemask_eq":
			v = 1 << lane
		case "%lanemask_lt":
			v = 1<<lane - 1
		case "%lanemask_le":
			v = 1<<(lane+1) - 1
		case "%lanemask_gt":
			v = uint64(^uint32(0) << (lane + 1))
		case "%lanemask_ge":
			v = uint64(^uint32(0) << lane)
		case "%clock", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi":
			// nanoseconds on the monotonic clock since the launch began
			// (plus its wall-clock start for %globaltimer): they never go
			// back, and advance as the kernel runs
			v = uint64(time.Since(l.start).Nanoseconds())
			if ref.name != "%clock" && ref.name != "%clock64" {
				v += uint64(l.start.UnixNano())
			}
			if ref.name == "%clock" || ref.name == "%globaltimer_lo" {
				v &= 0xffffffff
			} else if ref.name == "%globaltimer_hi" {
				v >>= 32
			}
		case "%dynamic_smem_size":
			v = l.dynShared
		case "%total_smem_size", "%aggr_smem_size":
			v = l.prog.dynShared + l.dynShared
		}
		row[lane] = v
	}
}
