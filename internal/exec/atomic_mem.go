package exec

// Atomic access to device memory shared between workers. CTAs run on
// several goroutines, so atom/red and the strong ld/st forms on global
// memory (and generic addresses) use the host's atomic instructions on the
// bytes of the allocation, element by element: each PTX atomic is then a
// linearizable read-modify-write of its location (8.10.3), and Go's
// sequentially consistent atomics order the plain accesses around them
// (a release store publishes the stores before it to the acquire load that
// reads it). Fences are an atomic read-modify-write of one word per
// program (Program.fenceWord), which totally orders them.
//
// Elements of 1 or 2 bytes are updated through the aligned 32-bit word
// that holds them, with compare-and-swap. Every byte slice these functions
// see lies in a backing array that is 8-byte aligned and a multiple of 8
// bytes long (mem.Global.Alloc, the CTA's shared memory), and elements are
// aligned to their size (the access faults otherwise), so that word lies
// inside the array.

import (
	"sync/atomic"
	"unsafe"
)

// wordOf returns the aligned 32-bit word holding the element at p (1 or 2
// bytes) and the element's bit offset in it (little-endian).
func wordOf(p []byte) (*uint32, uint) {
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(p)))
	shift := uint(addr&3) * 8
	return (*uint32)(unsafe.Pointer(uintptr(unsafe.Pointer(unsafe.SliceData(p))) &^ 3)), shift
}

// atomicLoad reads the little-endian element p atomically.
func atomicLoad(p []byte) uint64 {
	switch len(p) {
	case 8:
		return atomic.LoadUint64((*uint64)(unsafe.Pointer(unsafe.SliceData(p))))
	case 4:
		return uint64(atomic.LoadUint32((*uint32)(unsafe.Pointer(unsafe.SliceData(p)))))
	}
	w, shift := wordOf(p)
	return uint64(atomic.LoadUint32(w)>>shift) & (1<<(8*uint(len(p))) - 1)
}

// atomicStore writes v to the element p atomically.
func atomicStore(p []byte, v uint64) {
	switch len(p) {
	case 8:
		atomic.StoreUint64((*uint64)(unsafe.Pointer(unsafe.SliceData(p))), v)
		return
	case 4:
		atomic.StoreUint32((*uint32)(unsafe.Pointer(unsafe.SliceData(p))), uint32(v))
		return
	}
	atomicRMW(p, func(_, b, _ uint64) uint64 { return b }, v, 0)
}

// atomicRMW replaces the element p by fn(old, b, c) atomically and returns
// old. Where fn leaves the value as it is (a max below the element's
// value, a compare-and-swap that fails), the atomic load of old is the
// whole operation: no other thread can tell it from a write of the same
// value, and the cache line stays shared among the workers.
func atomicRMW(p []byte, fn func(old, b, c uint64) uint64, b, c uint64) uint64 {
	switch len(p) {
	case 8:
		addr := (*uint64)(unsafe.Pointer(unsafe.SliceData(p)))
		for {
			old := atomic.LoadUint64(addr)
			next := fn(old, b, c)
			if next == old || atomic.CompareAndSwapUint64(addr, old, next) {
				return old
			}
		}
	case 4:
		addr := (*uint32)(unsafe.Pointer(unsafe.SliceData(p)))
		for {
			old := atomic.LoadUint32(addr)
			next := uint32(fn(uint64(old), b, c))
			if next == old || atomic.CompareAndSwapUint32(addr, old, next) {
				return uint64(old)
			}
		}
	}
	w, shift := wordOf(p)
	mask := uint32(1<<(8*uint(len(p))) - 1)
	for {
		word := atomic.LoadUint32(w)
		old := uint64(word>>shift) & uint64(mask)
		next := word&^(mask<<shift) | (uint32(fn(old, b, c))&mask)<<shift
		if next == word || atomic.CompareAndSwapUint32(w, word, next) {
			return old
		}
	}
}

// atomicAddInt is atomicRMW for integer addition of 4- or 8-byte
// elements: one fetch-and-add instead of a compare-and-swap loop.
func atomicAddInt(p []byte, _ func(old, b, c uint64) uint64, b, _ uint64) uint64 {
	if len(p) == 8 {
		return atomic.AddUint64((*uint64)(unsafe.Pointer(unsafe.SliceData(p))), b) - b
	}
	return uint64(atomic.AddUint32((*uint32)(unsafe.Pointer(unsafe.SliceData(p))), uint32(b)) - uint32(b))
}
