package exec

import (
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// A loop that steps every lane's address by the same large distance per
// iteration (a grid-stride loop: i += gridDim.x * blockDim.x) misses the
// cache on every warp-wide load: the warp runs its whole loop before the
// next warp starts, so its rows lie far apart, and the CPU's own stride
// prefetchers cannot see the pattern, because one machine instruction of
// the engine performs the loads of every op and warp. So the engine keeps,
// per warp and load op, lane 0's last address and step, and once a step
// repeats it prefetches the row two steps ahead: the lines arrive while
// the warp runs the rest of the loop. Prefetching changes no value, and a
// wrong guess costs only time.

// strideSlots is how many load ops a warp tracks (by pc, direct-mapped).
const strideSlots = 16

// strideMin is the smallest step worth a prefetch: shorter steps stay
// inside lines that the previous rows brought in, or that the CPU's
// sequential prefetchers fetch.
const strideMin = 256

// maxPrefetchSpan bounds the row a prefetch covers (a consecutive row of
// 8-byte elements is 256 bytes; scattered lanes are not prefetched).
const maxPrefetchSpan = 512

type strideState struct {
	last, step uint64
}

// noteStride records the row a warp-wide access by op o is about to touch
// (lane addresses regs plus o.addrConst, size bytes each, inside data,
// which starts at address base) and prefetches the row two steps ahead
// when the step repeats; write: the access is a store.
func (w *Warp) noteStride(o *Op, regs *lanes, data []byte, base, size uint64, write bool) {
	if !prefetchEnabled || o.space != mem.SpaceGlobal {
		return
	}
	off, span, ok := w.strides[o.pc&(strideSlots-1)].next(regs[0]+o.addrConst, regs[warpSize-1]-regs[0]+size, base, uint64(len(data)))
	if !ok {
		return
	}
	p := uintptr(unsafe.Pointer(&data[off]))
	if write {
		prefetchLinesW(p, uintptr(span))
	} else {
		prefetchLines(p, uintptr(span))
	}
}

// next records a row starting at address a0 and spanning span bytes (lane
// 31's end minus lane 0's start; huge when the lanes run backwards), and
// returns where the row two steps ahead lies in a window of n bytes at
// address base, when the step has repeated, is at least strideMin either
// way, the row is at most maxPrefetchSpan long and lies in the window.
func (e *strideState) next(a0, span, base, n uint64) (off, size uint64, ok bool) {
	step := a0 - e.last
	e.last = a0
	if step != e.step {
		e.step = step
		return 0, 0, false
	}
	if step+strideMin-1 < 2*strideMin-1 || span > maxPrefetchSpan {
		return 0, 0, false
	}
	off = a0 + 2*step - base
	if off >= n || span > n-off {
		return 0, 0, false
	}
	return off, span, true
}
