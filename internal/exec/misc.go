package exec

// Instructions without a visible effect in this engine, and the ones that
// stop a thread: memory fences (9.7.13.4: the engine runs each CTA's
// threads on one goroutine, and global atomics hold the program's atomic
// lock; a fence takes that lock too, which orders the fencing thread's
// earlier accesses before any other CTA's later atomic), cache hints
// (prefetch, applypriority, discard, createpolicy: no effect on values),
// nanosleep, pmevent; brkpt stops the kernel with a fault.

import (
	"github.com/ptxvm/ptxvm/internal/ir"
)

func init() {
	register(lowerFence, "membar", "fence")
	register(lowerNop, "prefetch", "prefetchu", "applypriority", "nanosleep", "pmevent")
	// griddepcontrol (9.7.13.13): a launch has no dependent or prerequisite
	// grids here, so launch_dependents signals no one and wait has nothing
	// to wait for. setmaxnreg changes a register budget the
	// engine does not have (9.7.19.5).
	register(lowerNop, "griddepcontrol", "setmaxnreg")
	register(lowerBrkpt, "brkpt")
	register(lowerDiscard, "discard")
	register(lowerCreatepolicy, "createpolicy")
	register(lowerActivemask, "activemask")
}

func lowerFence(l *lowering, in *ir.Inst, o *Op) error {
	// proxy fences (fence.proxy.*, fence.mbarrier_init, fence.op_restrict)
	// order accesses between the generic and the async proxies; here async
	// copies and mbarrier updates happen in program order when they
	// execute, so every fence is the same full fence
	o.exec = func(w *Warp, o *Op, mask uint32) {
		w.cta.l.prog.fenceWord.Add(1) // a sequentially consistent RMW: see atomic_mem.go
	}
	return nil
}

func lowerNop(l *lowering, in *ir.Inst, o *Op) error {
	o.exec = func(w *Warp, o *Op, mask uint32) {}
	return nil
}

func lowerBrkpt(l *lowering, in *ir.Inst, o *Op) error {
	o.exec = func(w *Warp, o *Op, mask uint32) { w.fail(o, mask, FaultTrap, "brkpt (no debugger attached)") }
	return nil
}

// discard makes the contents of a cache line undefined: leaving them as
// they are is one allowed outcome.
func lowerDiscard(l *lowering, in *ir.Inst, o *Op) error { return lowerNop(l, in, o) }

// createpolicy writes an opaque cache-policy value: any 64-bit value does.
func lowerCreatepolicy(l *lowering, in *ir.Inst, o *Op) error {
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	o.d = d
	o.exec = func(w *Warp, o *Op, mask uint32) {
		r := w.top().regs
		for i := 0; i < warpSize; i++ {
			if mask&(1<<i) != 0 {
				r[int(o.d)*warpSize+i] = 0
			}
		}
	}
	return nil
}

// activemask.b32 d: the lanes executing the instruction together (9.7.13.11).
func lowerActivemask(l *lowering, in *ir.Inst, o *Op) error {
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	o.d = d
	o.exec = func(w *Warp, o *Op, mask uint32) {
		r := w.top().regs
		for i := 0; i < warpSize; i++ {
			if mask&(1<<i) != 0 {
				r[int(o.d)*warpSize+i] = uint64(mask)
			}
		}
	}
	return nil
}
