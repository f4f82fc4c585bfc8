package exec

import "math/bits"

// Calls under independent thread scheduling. A call's lanes run in the
// callee's frame, on top of the warp's frame stack, until all of them
// return; the caller's other lanes, and the callee's lanes that returned,
// wait. Where those lanes hold what the callee's lanes wait for (a spin
// lock taken in a function and released by its caller after the return,
// a lane spinning in a call for a flag a lane outside it sets), a GPU
// with independent thread scheduling lets them go on (PTX ISA 9.0,
// section 3.3's independent thread scheduling, as in the manual's
// starvation-free algorithms); here the warp takes turns: a callee that
// stayed on top for callSlices time slices is set aside (suspendCall)
// while lanes outside it could run, and comes back when the caller has
// nothing left to run or its own turn ends (resumeCall).

// callSlices is how many time slices a call's frame (or a caller with a
// suspended call) runs on top before the other side gets its turn.
const callSlices = 4

// rotateCalls, at the start of a time slice, gives the other side its
// turn when the top frame has had callSlices slices.
func (w *Warp) rotateCalls() {
	f := w.top()
	if f.topSlices++; f.topSlices < callSlices {
		return
	}
	f.topSlices = 0
	if len(f.suspended) > 0 {
		w.resumeCall(f)
		return
	}
	if f.callOp == nil { // (the kernel's frame)
		return
	}
	caller := w.frames[len(w.frames)-2]
	outside := caller.active &^ caller.inCall &^ f.active &^ f.returned &^ w.exited
	if f.returned != 0 || outside != 0 {
		w.suspendCall()
	}
}

// suspendCall sets the top frame, a call, aside in its caller: the lanes
// that returned leave it now (results copied, allocations released), the
// others stay in it and wait in the caller as inCall. Its variables stay
// where they are: local memory is per lane, and a lane inside the call
// makes no other call until it returns, so the frames the caller's other
// lanes push meanwhile, at the same offsets or not, are in other lanes'
// memory.
func (w *Warp) suspendCall() {
	n := len(w.frames)
	f, caller := w.frames[n-1], w.frames[n-2]
	f.active &^= w.exited
	if f.returned != 0 {
		if ci, ok := f.callOp.aux.(*callInfo); ok {
			ci.copyResults(w, caller, f)
		}
		for m := f.returned; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			w.sp[l] = f.sp[l]
		}
		caller.inCall &^= f.returned // (when set aside before)
		f.returned = 0
	}
	caller.inCall |= f.active
	caller.suspended = append(caller.suspended, f)
	caller.topSlices = 0
	w.frames = w.frames[:n-1]
}

// resumeCall puts f's oldest suspended call back on top.
func (w *Warp) resumeCall(f *frame) {
	s := f.suspended[0]
	f.suspended = append(f.suspended[:0], f.suspended[1:]...)
	s.topSlices = 0
	w.frames = append(w.frames, s)
}

// runnable returns the lanes pick could run without releasing any that
// wait at a reconvergence point.
func (f *frame) runnable() uint32 {
	cand := f.candidates()
	return cand &^ f.waitingLanes()
}
