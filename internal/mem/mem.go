// Package mem is the device memory of the VM: global allocations, and the
// per-CTA shared and per-thread local memory the engine hands out, in one
// flat 64-bit generic address space (ptx-isa-9.0.txt 5.1, 6.4.1.1).
//
// Layout of the generic address space:
//
//	[GlobalBase, ...)           global allocations, with guard gaps
//	[SharedBase, +SharedSize)   the shared window: an offset into the executing CTA's shared memory
//	[LocalBase, +LocalSize)     the local window: an offset into the executing thread's local memory
//	[ConstBase, +ConstSize)     constant memory (module .const variables)
//
// Address 0 and everything not listed are invalid, so a null or wild
// pointer faults instead of reading something.
package mem

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Windows of the generic address space.
const (
	GlobalBase = 0x0000_0001_0000_0000
	SharedBase = 0x0000_7000_0000_0000
	SharedSize = 1 << 32
	LocalBase  = 0x0000_7100_0000_0000
	LocalSize  = 1 << 32
	ConstBase  = 0x0000_7200_0000_0000
	ConstSize  = 1 << 32
	ParamBase  = 0x0000_7400_0000_0000 // kernel parameters (cvta.param, PTX 7.7)
	ParamSize  = 1 << 32
)

// guard is the unmapped gap after each global allocation, so an access just
// past the end faults.
const guard = 256

// Space names a state space.
type Space uint8

const (
	SpaceGeneric Space = iota
	SpaceGlobal
	SpaceShared
	SpaceLocal
	SpaceConst
	SpaceParam
)

var spaceNames = [...]string{"generic", "global", "shared", "local", "const", "param"}

func (s Space) String() string {
	if int(s) < len(spaceNames) {
		return spaceNames[s]
	}
	return "space " + strconv.Itoa(int(s))
}

// FaultKind classifies an invalid access.
type FaultKind uint8

const (
	OutOfBounds FaultKind = iota // no object of the space holds the whole access
	Misaligned                   // the address is not a multiple of the access size
	BadFree                      // free of an address that is not an allocation's start
)

var faultNames = [...]string{"out of bounds", "misaligned", "invalid free"}

func (k FaultKind) String() string { return faultNames[k] }

// Fault describes an invalid memory access.
type Fault struct {
	Kind  FaultKind
	Space Space
	Addr  uint64
	Size  int
}

func (f *Fault) Error() string {
	return fmt.Sprintf("%s %s access of %d bytes at 0x%x", f.Kind, f.Space, f.Size, f.Addr)
}

// allocation is one global allocation.
type allocation struct {
	base uint64
	data []byte
}

// Global is the global memory of a device: allocations in the global
// window. Safe for concurrent use; data accesses themselves are not
// synchronised (the engine orders them as the memory model allows).
type Global struct {
	mu     sync.Mutex
	allocs []*allocation // sorted by base
	// snap is allocs as readers see it: a copy published after each
	// change, so Bytes takes no lock (kernels read global memory on every
	// worker at once; malloc in a kernel may change the list meanwhile)
	snap  atomic.Pointer[[]*allocation]
	gen   atomic.Uint64 // counts Frees: a cached allocation is stale when it changes
	next  uint64
	used  uint64
	limit uint64
}

// NewGlobal returns an empty global memory of at most limit bytes (0: no limit).
func NewGlobal(limit uint64) *Global {
	return &Global{next: GlobalBase, limit: limit}
}

// Alloc allocates size bytes (zeroed) aligned to align (a power of two; 256
// when 0, as cudaMalloc guarantees) and returns the address.
func (g *Global) Alloc(size, align uint64) (uint64, error) {
	if align == 0 {
		align = 256
	}
	if align&(align-1) != 0 {
		return 0, fmt.Errorf("alignment %d is not a power of two", align)
	}
	// at least 8: the engine's atomics update aligned host words of the
	// allocation, whose bytes then align as the device addresses do
	align = max(align, 8)
	if size >= SharedBase-GlobalBase || align >= SharedBase-GlobalBase {
		// (no sum below can wrap around: malloc((size_t)-1) is NULL)
		return 0, fmt.Errorf("out of device address space: %d bytes requested", size)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.limit != 0 && size > g.limit-g.used {
		return 0, fmt.Errorf("out of device memory: %d bytes requested, %d of %d in use", size, g.used, g.limit)
	}
	base := (g.next + align - 1) &^ (align - 1)
	if base+size >= SharedBase {
		return 0, fmt.Errorf("out of device address space")
	}
	data := HostBytes(size)
	if size <= commitMax {
		commitPages(data)
	}
	a := &allocation{base: base, data: data}
	g.allocs = append(g.allocs, a) // bases only grow: the list stays sorted
	g.publish()
	g.next = base + size + guard
	g.used += size
	return base, nil
}

// commitMax bounds the allocations commitPages maps at once: a larger one
// (more than a GPU would hold, with no device memory limit set) stays
// mapped page by page as kernels touch it, as it would otherwise ask the
// host for all of it.
const commitMax = 1 << 30

// commitPages writes a zero into every 4 KiB page of b, so that the
// operating system maps an allocation when it is made, as cudaMalloc
// commits device memory, and not at a kernel's first access to each
// page: the page faults counted in the kernel's time (a launch adding two
// 16 MiB arrays into a third spent 1.2 of its 4.4 ms in them).
func commitPages(b []byte) {
	for i := 0; i < len(b); i += 4096 {
		b[i] = 0
	}
}

// HostBytes returns n zeroed bytes whose backing array is 8-byte aligned
// and a whole number of 8-byte words long, so that atomic updates of the
// aligned word around any 1- or 2-byte element stay inside it.
func HostBytes(n uint64) []byte {
	words := make([]uint64, max(1, (n+7)/8))
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(words)*8)[:n]
}

// Free releases the allocation that starts at addr.
func (g *Global) Free(addr uint64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	i := sort.Search(len(g.allocs), func(i int) bool { return g.allocs[i].base >= addr })
	if i == len(g.allocs) || g.allocs[i].base != addr {
		return &Fault{Kind: BadFree, Space: SpaceGlobal, Addr: addr}
	}
	g.used -= uint64(len(g.allocs[i].data))
	g.allocs = append(g.allocs[:i], g.allocs[i+1:]...)
	g.publish()
	g.gen.Add(1)
	return nil
}

// Gen changes whenever an allocation is freed, or Invalidate is called
// (see Find's callers that cache its result).
func (g *Global) Gen() uint64 { return g.gen.Load() }

// Invalidate makes the results of Find that callers cached stale (Gen
// changes), so that they look their allocations up again.
func (g *Global) Invalidate() { g.gen.Add(1) }

// publish makes a copy of the allocation list the one readers see.
func (g *Global) publish() {
	c := append([]*allocation(nil), g.allocs...)
	g.snap.Store(&c)
}

// Bytes returns the memory [addr, addr+size) for direct access, or a fault
// if one allocation does not hold all of it.
func (g *Global) Bytes(addr, size uint64) ([]byte, *Fault) {
	if base, data, ok := g.Find(addr); ok {
		if off := addr - base; size <= uint64(len(data))-off {
			return data[off : off+size : off+size], nil
		}
	}
	return nil, &Fault{Kind: OutOfBounds, Space: SpaceGlobal, Addr: addr, Size: int(size)}
}

// Find returns the allocation holding addr (or ending at it): its base
// and contents.
func (g *Global) Find(addr uint64) (uint64, []byte, bool) {
	p := g.snap.Load()
	if p == nil {
		return 0, nil, false
	}
	as := *p
	lo, hi := 0, len(as) // the last allocation with base <= addr
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if as[m].base <= addr {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return 0, nil, false
	}
	a := as[lo-1]
	if addr-a.base > uint64(len(a.data)) { // one past the end still names it
		return 0, nil, false
	}
	return a.base, a.data, true
}

// Block is a plain memory block: one CTA's shared memory, one thread's local
// memory, the constant bank, a parameter buffer. Addresses are offsets.
type Block struct {
	Space Space
	Data  []byte
}

// Bytes returns [off, off+size) of the block, or a fault.
func (b *Block) Bytes(off, size uint64) ([]byte, *Fault) {
	if off <= uint64(len(b.Data)) && size <= uint64(len(b.Data))-off {
		return b.Data[off : off+size : off+size], nil
	}
	return nil, &Fault{Kind: OutOfBounds, Space: b.Space, Addr: off, Size: int(size)}
}

// Load reads a little-endian value of size 1, 2, 4 or 8 bytes.
func Load(p []byte) uint64 {
	switch len(p) {
	case 1:
		return uint64(p[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(p))
	case 4:
		return uint64(binary.LittleEndian.Uint32(p))
	}
	return binary.LittleEndian.Uint64(p)
}

// Store writes v as a little-endian value of len(p) bytes (1, 2, 4 or 8).
func Store(p []byte, v uint64) {
	switch len(p) {
	case 1:
		p[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(p, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(p, uint32(v))
	default:
		binary.LittleEndian.PutUint64(p, v)
	}
}

// Classify returns the space a generic address points into and the address
// within that space (an offset for shared, local and const).
func Classify(addr uint64) (Space, uint64) {
	switch {
	case addr >= SharedBase && addr < SharedBase+SharedSize:
		return SpaceShared, addr - SharedBase
	case addr >= LocalBase && addr < LocalBase+LocalSize:
		return SpaceLocal, addr - LocalBase
	case addr >= ConstBase && addr < ConstBase+ConstSize:
		return SpaceConst, addr - ConstBase
	case addr >= ParamBase && addr < ParamBase+ParamSize:
		return SpaceParam, addr - ParamBase
	}
	return SpaceGlobal, addr
}

// Generic returns the generic address of addr in space (cvta.to-generic).
func Generic(space Space, addr uint64) uint64 {
	switch space {
	case SpaceShared:
		return SharedBase + addr
	case SpaceLocal:
		return LocalBase + addr
	case SpaceConst:
		return ConstBase + addr
	case SpaceParam:
		return ParamBase + addr
	}
	return addr
}
