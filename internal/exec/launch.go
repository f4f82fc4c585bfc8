package exec

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// LaunchConfig describes one kernel launch.
type LaunchConfig struct {
	Grid, Block   [3]int
	DynamicShared uint64
	Params        []byte    // the kernel's parameter buffer, laid out by ParamLayout
	Workers       int       // goroutines running CTAs; 0: GOMAXPROCS; 1 is deterministic
	Printf        io.Writer // where device printf writes; nil discards
	// Progress, when set, is called from the launch's goroutines as CTAs
	// finish, at most every 100 ms, with the number done and the total.
	Progress func(done, total int)
	// ScheduleSeed, when not 0, perturbs the schedule inside each CTA:
	// warps take turns in a random order with random time slices, and
	// divergent lanes of a warp run in a random order. The same seed gives
	// the same schedule (with Workers 1); a fault names the seed. 0 is the
	// deterministic default schedule.
	ScheduleSeed uint64
	// Stats, when set, receives the launch's counts when it ends.
	Stats *LaunchStats
	// Cluster gives the cluster dimensions (2.2.2): the CTAs of a cluster
	// run together and share barrier.cluster and distributed shared
	// memory. Zero: every CTA in its own implicit 1x1x1 cluster.
	Cluster [3]int
}

// LaunchStats describes a finished launch.
type LaunchStats struct {
	Duration           time.Duration // from the first CTA's start to the last one's end
	WarpInstructions   uint64        // instructions issued, counted once per warp (a warp of packed small CTAs: once; pack.go)
	ThreadInstructions uint64        // instructions executed, counted per lane (guard true)
	Workers            int
	CTAs               int
	Batched            int // CTAs run in batches (see batch.go), not warp by warp
	Unbatched          int // CTAs a batch gave back to the warp engine (run again warp by warp)
	Segments           int // streaming segments run in batches (batch_segment.go)
}

type launch struct {
	prog      *Program
	kernel    *Func
	grid      [3]int
	block     [3]int
	params    []byte
	dynShared uint64
	printf    io.Writer
	printMu   sync.Mutex
	seed      uint64
	cluster   [3]int
	explicit  bool      // launched with cluster dimensions (%is_explicit_cluster)
	start     time.Time // for %clock and %globaltimer

	warpInsts, threadInsts atomic.Uint64
	// stopAfter is the index of the first cluster that faulted (the number
	// of clusters until one does): clusters after it stop, those before it
	// run on (for a while) so that the fault reported is the first one
	stopAfter atomic.Int64
	batched   atomic.Int64 // CTAs run in batches
	unbatched atomic.Int64 // CTAs a batch gave back
	segments  atomic.Int64 // streaming segments run
	red       redLaunch    // buffered adds (atomic_buffer.go)
}

// faultGrace is how long clusters before a faulted one may still run (and
// fault first) before the launch is cancelled: the reported fault is then
// that of the lowest CTA whatever the workers' timing, without a launch
// hanging on a cluster that waits for the faulted one.
const faultGrace = 250 * time.Millisecond

// Limits of a launch (CUDA's, for every target ptxvm emulates).
const (
	MaxThreadsPerBlock = 1024
	MaxBlockZ          = 64
	MaxGridY           = 65535
	MaxGridZ           = 65535
)

// maxSharedPerBlock is the most shared memory one CTA may use on an
// architecture (CUDA's per-block limit with the opt-in attribute).
func maxSharedPerBlock(sm int) uint64 {
	switch {
	case sm >= 120:
		return 99 << 10
	case sm >= 90:
		return 227 << 10
	case sm == 86 || sm == 87 || sm == 88 || sm == 89:
		return 99 << 10
	case sm == 80:
		return 163 << 10
	case sm == 75:
		return 64 << 10
	case sm >= 70:
		return 96 << 10
	case sm >= 20:
		return 48 << 10
	}
	return 16 << 10
}

// ParamLayout returns the offset of each kernel parameter in the parameter
// buffer and the buffer's size (each parameter at its alignment, 7.1).
func (f *Func) ParamLayout() ([]uint64, uint64) {
	offs := make([]uint64, 0, len(f.IR.Params))
	for _, p := range f.IR.Params {
		if p.Var == nil {
			offs = append(offs, 0)
			continue
		}
		offs = append(offs, f.paramOff[p.Var])
	}
	return offs, f.paramSize
}

// ParamType returns the declared type of kernel parameter i (".u32", or
// ".b8" for a byte array).
func (f *Func) ParamType(i int) string {
	if i < 0 || i >= len(f.IR.Params) || f.IR.Params[i].Var == nil {
		return ""
	}
	return f.IR.Params[i].Var.Type
}

// Launch runs kernel over the grid and returns the first fault, if any.
func (p *Program) Launch(ctx context.Context, kernel string, cfg LaunchConfig) error {
	k := p.Kernels[kernel]
	if k == nil {
		return fmt.Errorf("no kernel named %q", kernel)
	}
	g, b := cfg.Grid, cfg.Block
	threads := b[0] * b[1] * b[2]
	switch {
	case g[0] < 1 || g[1] < 1 || g[2] < 1 || b[0] < 1 || b[1] < 1 || b[2] < 1:
		return &Fault{Kind: FaultLimit, Kernel: kernel, Msg: fmt.Sprintf("grid %v and block %v must be positive", g, b)}
	case threads > MaxThreadsPerBlock:
		return &Fault{Kind: FaultLimit, Kernel: kernel, Msg: fmt.Sprintf("%d threads per block exceed the limit of %d", threads, MaxThreadsPerBlock)}
	case b[2] > MaxBlockZ || g[1] > MaxGridY || g[2] > MaxGridZ || g[0] > 1<<31-1:
		return &Fault{Kind: FaultLimit, Kernel: kernel, Msg: fmt.Sprintf("grid %v or block %v exceeds the dimension limits", g, b)}
	case p.dynShared+cfg.DynamicShared > maxSharedPerBlock(p.Module.Target.SM):
		return &Fault{Kind: FaultLimit, Kernel: kernel, Msg: fmt.Sprintf("%d bytes of shared memory exceed the limit of %d per block on sm_%d",
			p.dynShared+cfg.DynamicShared, maxSharedPerBlock(p.Module.Target.SM), p.Module.Target.SM)}
	case uint64(len(cfg.Params)) < k.paramSize:
		return fmt.Errorf("kernel %s takes %d bytes of parameters, %d given", kernel, k.paramSize, len(cfg.Params))
	}
	cdim, err := k.launchShape(b, cfg.Cluster)
	if err != nil {
		return err
	}
	explicit := cdim != [3]int{}
	if !explicit {
		cdim = [3]int{1, 1, 1}
	}
	switch {
	case cdim[0] < 1 || cdim[1] < 1 || cdim[2] < 1:
		return &Fault{Kind: FaultLimit, Kernel: kernel, Msg: fmt.Sprintf("cluster %v must be positive", cdim)}
	case cdim[0]*cdim[1]*cdim[2] > MaxClusterSize:
		return &Fault{Kind: FaultLimit, Kernel: kernel, Msg: fmt.Sprintf("cluster %v has more than %d CTAs", cdim, MaxClusterSize)}
	case g[0]%cdim[0] != 0 || g[1]%cdim[1] != 0 || g[2]%cdim[2] != 0:
		return &Fault{Kind: FaultLimit, Kernel: kernel, Msg: fmt.Sprintf("grid %v is not a multiple of cluster %v", g, cdim)}
	case explicit && p.Module.Target.SM < 90:
		return &Fault{Kind: FaultLimit, Kernel: kernel, Msg: fmt.Sprintf("clusters need sm_90 or higher (the module targets sm_%d)", p.Module.Target.SM)}
	}
	l := &launch{prog: p, kernel: k, grid: g, block: b, params: cfg.Params, dynShared: cfg.DynamicShared, printf: cfg.Printf, seed: cfg.ScheduleSeed,
		cluster: cdim, explicit: explicit, start: time.Now()}
	l.red.ok = k.canBufferAdds()
	ng := [3]int{g[0] / cdim[0], g[1] / cdim[1], g[2] / cdim[2]} // clusters per dimension
	n := ng[0] * ng[1] * ng[2]
	ctasPer := cdim[0] * cdim[1] * cdim[2]
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	var first *Fault
	firstIdx := n
	// Workers take clusters in chunks (one atomic add per chunk, not a lock
	// per cluster); the chunk stays small enough to balance the load (16
	// per worker at least) and large enough that the workers seldom run
	// neighbouring CTAs at once: those often write the same cache lines (a
	// transpose's CTA rows share output lines), which then bounce between
	// the cores (transpose on 2 workers: 1.7x with chunks of 64, 1.9x with
	// 256). The clusters after the first one that faulted are not started.
	chunk := max(1, min(256, n/(workers*16)))
	// kernels of the batch shape run batches of CTAs (batch.go), on the
	// default schedule, without clusters; a worker's chunk holds whole
	// batches where there are enough CTAs for every worker
	// a batch's CTAs are consecutive in x, or in y where the grid is one
	// CTA wide (grid(1, n): batches of one CTA else)
	alongY := ng[0] == 1 && ng[1] > 1
	axis := ng[0] // CTAs in a row of the batch's axis
	if alongY {
		axis = ng[1]
	}
	guided := false
	// CTAs of a few threads each run packed, several to a warp (pack.go);
	// batches keep CTAs of 9 threads or more (a saxpy of 2^20 elements in
	// CTAs of 1, 2, 4, 8 and 16 threads: packed 4.8, 5.1, 5.0, 5.0 and
	// 5.0 ms; batched 21.3, 12.0, 7.6, 5.6 and 4.5 ms)
	pack := packFactor(k, threads, cfg.DynamicShared, cfg.ScheduleSeed, explicit)
	batched := batchEnabled && k.plan() != nil && cfg.ScheduleSeed == 0 && !explicit && ctasPer == 1 &&
		(!k.batch.pendingAtoms || bufferAddsEnabled) && !(pack > 1 && threads <= 8)
	if batched {
		pack = 1
	}
	if batched {
		// (a batch stays in one row of the grid: a chunk of several rows
		// would only balance the workers more coarsely; matmul's 16-CTA
		// rows on 2 workers scaled 1.82x in chunks of 64 CTAs, 1.95x in 16)
		chunk = max(chunk, min(batchCTAs(k, b, n), axis, (n+workers-1)/workers))
		if axis == n {
			// a 1-D grid in guided chunks (chunker): the workers stream
			// memory far apart (saxpy on 2 workers: 1.72x in chunks of one
			// batch, 1.87x in four per worker, 1.96x in two), and end
			// together (copy, 3 alternating runs: 1.57-1.83x in four
			// chunks per worker, 1.80-1.92x guided; the machine's noise)
			guided = true
		}
	}
	chunk = evenChunks(n, chunk, workers)
	chunk = (chunk + pack - 1) / pack * pack // (whole packs)
	chunks := &chunker{n: n, chunk: chunk, workers: workers, guided: guided}
	l.stopAfter.Store(int64(n))
	var grace *time.Timer
	var done atomic.Int64
	var lastReport atomic.Int64
	report := func(clusters int) {
		d := int(done.Add(int64(clusters * ctasPer)))
		if cfg.Progress == nil {
			return
		}
		now := time.Now().UnixNano()
		if last := lastReport.Load(); now-last >= int64(100*time.Millisecond) && lastReport.CompareAndSwap(last, now) || d == n*ctasPer {
			cfg.Progress(d, n*ctasPer)
		}
	}
	var wg sync.WaitGroup
	for wk := 0; wk < workers; wk++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					mu.Lock()
					first, firstIdx = &Fault{Kind: FaultInternal, Kernel: kernel,
						Msg: fmt.Sprintf("%v (a panic in ptxvm or in a callback it was given; the stack follows)\n%s", p, debug.Stack())}, -1
					mu.Unlock()
					l.stopAfter.Store(-1) // (the other workers stop)
					cancel()
				}
			}()
			counts := &instCounts{}
			var red *redBuffer
			if l.red.ok {
				red = newRedBuffer(l)
			}
			defer func() {
				if red != nil {
					red.release() // the worker's adds reach memory before the launch ends
				}
				l.warpInsts.Add(counts.warp)
				l.threadInsts.Add(counts.thread)
			}()
			var spare *cluster
			var br *batchRun
			for {
				start, end := chunks.take()
				if start >= n {
					if br != nil {
						br.flushHeld() // (batch_pending.go's keep, batch_atomic.go's heldFold)
						// (kept for the kernel's next launch; not after a
						// panic, which may leave its sums and undo log half
						// made)
						putBatchRun(br)
					}
					return
				}
				ran := 0
				// runCluster runs cluster i, or in a packed launch the pack
				// of CTAs i to i+m-1
				runCluster := func(i, m int) {
					if br != nil {
						br.flushHeld() // (the batches' sums and folds reach memory before a CTA runs here)
					}
					var cl *cluster
					if pack > 1 {
						cl = newPackCluster(l, i, m, spare)
					} else {
						id := [3]uint32{uint32(i % ng[0]), uint32(i / ng[0] % ng[1]), uint32(i / (ng[0] * ng[1]))}
						cl = newCluster(l, id, cdim, spare)
					}
					cl.index, cl.counts, cl.red = i, counts, red
					f := cl.run(ctx)
					spare = nil
					if f == nil {
						spare = cl // its CTAs serve the worker's next cluster
					}
					ran += m
					if f != nil {
						mu.Lock()
						if i < firstIdx && (first == nil || f.Kind != FaultCanceled) {
							first, firstIdx = f, i
							l.stopAfter.Store(int64(i))
							if grace == nil {
								grace = time.AfterFunc(faultGrace, cancel)
							}
						}
						mu.Unlock()
					}
				}
				for i := start; i < end; {
					if int64(i) > l.stopAfter.Load() {
						break
					}
					if batched && (br == nil || !br.strided && !br.declined) {
						// CTAs of one grid row, consecutive in x (batch.go)
						if br == nil {
							br = getBatchRun(l)
						}
						j := min(end, i+br.ctasPerBatch(), (i/axis+1)*axis)
						red.flush() // batches look allocations up on their own (atomic_buffer.go)
						br.alongY = alongY
						if br.runBatch(ctx, i%axis, j-i, uint32(i/ng[0]%ng[1]), uint32(i/(ng[0]*ng[1]))) {
							counts.warp += br.nWarp
							counts.thread += br.nThread
							l.batched.Add(int64(j - i))
							ran += j - i
							i = j
							continue
						}
						l.unbatched.Add(int64(j - i))
						for ; i < j; i++ { // again on the warp engine, which faults where it must
							if int64(i) > l.stopAfter.Load() {
								break
							}
							runCluster(i, 1)
						}
						continue
					}
					m := min(pack, end-i)
					runCluster(i, m)
					i += m
				}
				report(ran)
			}
		}()
	}
	wg.Wait()
	if grace != nil {
		grace.Stop()
	}
	if cfg.Stats != nil {
		*cfg.Stats = LaunchStats{Duration: time.Since(l.start), WarpInstructions: l.warpInsts.Load(),
			ThreadInstructions: l.threadInsts.Load(), Workers: workers, CTAs: n * ctasPer, Batched: int(l.batched.Load()),
			Unbatched: int(l.unbatched.Load()), Segments: int(l.segments.Load())}
	}
	if first != nil {
		return first
	}
	return nil
}

// chunker hands the workers a grid's n clusters in chunks, one atomic
// operation a chunk. Fixed chunks are chunk clusters. Guided chunks are a
// share of what is left, 1/(2 x workers), down to chunk: large at first,
// so the workers stream memory far apart, and small at the end, so that a
// worker the machine held up late leaves the others little to wait for.
type chunker struct {
	next              atomic.Int64
	n, chunk, workers int
	guided            bool
}

// take returns the next chunk [start, end) of clusters; start >= n when
// none is left.
func (c *chunker) take() (start, end int) {
	if !c.guided {
		start := int(c.next.Add(int64(c.chunk))) - c.chunk
		return start, min(start+c.chunk, c.n)
	}
	for {
		start := int(c.next.Load())
		if start >= c.n {
			return start, start
		}
		size := max(c.chunk, (c.n-start)/(2*c.workers))
		if c.next.CompareAndSwap(int64(start), int64(start+size)) {
			return start, min(start+size, c.n)
		}
	}
}

// evenChunks shrinks chunk so that the grid's n clusters make a number of
// chunks that the workers share evenly, where it was not: else the last
// round leaves workers idle (160 CTAs in chunks of 32 on 2 workers: 96
// against 64, at best 1.67x the speed of one; in 6 chunks of 27, 81
// against 79).
func evenChunks(n, chunk, workers int) int {
	c := (n + chunk - 1) / chunk
	if c%workers == 0 {
		return chunk
	}
	c = (c + workers - 1) / workers * workers
	return max(1, (n+c-1)/c)
}
