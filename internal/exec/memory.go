package exec

// Memory instructions (9.7.9.8-9.7.9.11, 9.7.9.16-17): ld, ldu, st, cvta,
// isspacep; addresses of every state space and generic addressing.

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
)

func init() {
	register(lowerLd, "ld", "ldu")
	register(lowerSt, "st")
	register(lowerCvta, "cvta")
	register(lowerIsspacep, "isspacep")
}

// spaceKernelParam marks an op that reads the launch's parameter buffer.
const spaceKernelParam = mem.Space(100)

// address lowers an address operand into o.addrBase/addrConst/space.
func (l *lowering) address(in *ir.Inst, a ir.Operand, o *Op) error {
	o.space = spaceOf(in.Mods)
	if a.Kind != ir.OpAddr {
		return l.unsupported(in, "address form")
	}
	if len(a.Elems) > 0 {
		return l.unsupported(in, "multi-part address")
	}
	o.addrConst = uint64(a.Offset)
	if a.Base == nil {
		return nil
	}
	switch b := *a.Base; b.Kind {
	case ir.OpReg:
		o.addrBase = l.reg(b)
		if o.space == mem.SpaceParam && l.f.IR.Entry {
			o.space = spaceKernelParam
		}
		return nil
	case ir.OpVar:
		v := b.Var
		if off, ok := l.f.paramOff[v]; ok {
			o.addrConst += off
			o.space = spaceKernelParam
			return nil
		}
		if off, ok := l.f.frameOff[v]; ok {
			// function .param and .local variables live in the frame
			o.addrConst += off
			o.frameAddr = true
			if o.space == mem.SpaceGeneric {
				o.addrConst += mem.LocalBase
			} else {
				o.space = mem.SpaceLocal
			}
			return nil
		}
		addr, ok := l.p.varAddr[v]
		if !ok {
			return l.unsupported(in, "variable "+v.Name)
		}
		if o.space == mem.SpaceGeneric {
			switch v.Space {
			case ".shared", ".shared::cta":
				addr = mem.Generic(mem.SpaceShared, addr)
			case ".const":
				addr = mem.Generic(mem.SpaceConst, addr)
			}
		}
		o.addrConst += addr
		return nil
	}
	return l.unsupported(in, "address base")
}

// access returns the bytes of a lane's access of size n, or records a fault.
// laneAddr is the address op o names for lane, before space resolution.
func (w *Warp) laneAddr(o *Op, lane int) uint64 {
	addr := o.addrConst
	if o.addrBase >= 0 {
		addr += w.top().regs[int(o.addrBase)*warpSize+lane]
	}
	return addr
}

// warpWindow serves the full-mask fast path of ld and st: when op o is a
// global access (or a generic one at global addresses; not a frame
// address) whose 32 lanes all fall
// inside the warp's cached allocation, or a shared access whose lanes all
// fall inside the CTA's own shared memory, each lane aligned, it returns
// the bytes of that allocation or block and fills w.offs with each lane's
// offset into them. nil sends the op down the per-lane path, which faults
// where it must.
func (w *Warp) warpWindow(o *Op) []byte {
	data, base := w.windowOf(o)
	return w.warpWindowIn(o, data, base)
}

// warpWindowIn is warpWindow in the window data at base (windowOf's).
func (w *Warp) warpWindowIn(o *Op, data []byte, base uint64) []byte {
	if data == nil {
		return nil
	}
	n := uint64(o.size * len(o.vec)) // a power of two: the access's alignment
	if n > uint64(len(data)) {
		return nil
	}
	limit := uint64(len(data)) - n
	regs := (*lanes)(w.top().regs[int(o.addrBase)*warpSize:])
	var misaligned, over uint64
	for i, r := range regs {
		addr := r + o.addrConst
		off := addr - base // wraps to a huge value below the allocation
		misaligned |= addr & (n - 1)
		if off > limit {
			over = 1
		}
		w.offs[i] = off
	}
	if misaligned|over != 0 {
		return nil
	}
	return data
}

// stridedEnabled: full-warp accesses at evenly spaced addresses take
// warpStrided's loops (tests turn it off to compare with the lane-by-lane
// ones).
var stridedEnabled = true

// warpStrided returns where lane 0's n-byte element of a full-warp access
// by op o lies in data (the window at address base), when every lane's
// address (regs plus o.addrConst) is lane 0's plus the lane times one
// step (regs[1]-regs[0], up or down, any multiple of n: each thread's own
// struct or row), and every element is aligned and inside data: the span
// from the lowest element to the highest is checked once, and the loops
// (storeStrided, loadStrided) then go without a check per lane. false
// sends the access to the loops that check lane by lane and fault where
// they must.
func (w *Warp) warpStrided(o *Op, regs *lanes, data []byte, base, n uint64) (unsafe.Pointer, bool) {
	if !stridedEnabled || !hostLittleEndian || n > uint64(len(data)) {
		return nil, false
	}
	a0 := regs[0] + o.addrConst
	step := regs[1] - regs[0]
	if (a0|step)&(n-1) != 0 { // every lane aligned when lane 0 and the step are
		return nil, false
	}
	abs := step
	if int64(step) < 0 {
		abs = -step
	}
	limit := uint64(len(data)) - n
	if abs > limit/(warpSize-1) {
		return nil, false
	}
	span := abs * (warpSize - 1) // lane 0's offset to lane 31's, either way
	off := a0 - base             // wraps to a huge value below the window
	lo := off                    // the lowest element's offset
	if int64(step) < 0 {
		lo = off - span // (wraps to a huge value when lane 31 is below the window)
	}
	if lo > limit-span || !evenlySpaced(regs, step) {
		return nil, false
	}
	return unsafe.Pointer(&data[off]), true
}

// evenlySpaced reports whether every lane of regs holds lane 0's value
// plus the lane times step (mod 2^64).
func evenlySpaced(regs *lanes, step uint64) bool {
	// four lanes at a time, each against its own running value
	q := (*[warpSize / 4][4]uint64)(unsafe.Pointer(regs))
	a0, a1, a2, a3 := regs[0], regs[0]+step, regs[0]+2*step, regs[0]+3*step
	step4 := 4 * step
	var diff uint64
	for i := range q {
		diff |= (q[i][0] ^ a0) | (q[i][1] ^ a1) | (q[i][2] ^ a2) | (q[i][3] ^ a3)
		a0, a1, a2, a3 = a0+step4, a1+step4, a2+step4, a3+step4
	}
	return diff == 0
}

// loadElem: the element types the loops over lanes load into slots, the
// signed ones sign-extended and the others zero-extended; storeElem: the
// ones they store (a slot's low bytes).
type loadElem interface {
	uint8 | int8 | uint16 | int16 | uint32 | int32 | uint64
}

type storeElem interface {
	uint8 | uint16 | uint32 | uint64
}

// storeStrided stores every lane's src as a T (its low bytes, little
// endian: the host's, warpStrided checks) at p plus the lane times step.
func storeStrided[T storeElem](p unsafe.Pointer, step int, src *lanes) {
	for i, v := range src {
		*(*T)(unsafe.Add(p, i*step)) = T(v)
	}
}

// loadStrided loads for every lane a T at p plus the lane times step into
// dst, sign-extended for the signed types and zero-extended otherwise.
// dst may be the address row: the addresses are p and step by now.
func loadStrided[T loadElem](p unsafe.Pointer, step int, dst *lanes) {
	for i := range dst {
		dst[i] = uint64(*(*T)(unsafe.Add(p, i*step)))
	}
}

// maskWindow is warpWindow for the lanes of mask (not all): the window
// of the first one's address, and every one's offset in it in w.offs, or
// nil when one is outside it or misaligned. An access of a divergent
// branch's lanes (`if (x[i] > t) out[...] = ...`) then takes one pass
// rather than the general path lane by lane.
func (w *Warp) maskWindow(o *Op, mask uint32) []byte {
	data, base := w.windowAt(o, bits.TrailingZeros32(mask))
	n := uint64(o.size * len(o.vec)) // a power of two: the access's alignment
	if data == nil || n > uint64(len(data)) {
		return nil
	}
	limit := uint64(len(data)) - n
	regs := (*lanes)(w.top().regs[int(o.addrBase)*warpSize:])
	var bad uint64
	for m := mask; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		addr := regs[lane] + o.addrConst
		off := addr - base // wraps to a huge value below the allocation
		bad |= addr & (n - 1)
		if off > limit {
			bad = 1
		}
		w.offs[lane] = off
	}
	if bad != 0 {
		return nil
	}
	return data
}

// loadMasked is maskWindow and loadLanes in one pass, for 4-byte unsigned
// and 8-byte loads whose destination is not their address register: a
// lane outside the window or misaligned stops it (false), and the general
// path loads again, lane by lane, the lanes it loaded (the same values:
// their addresses are unchanged) and faults where it must.
func (w *Warp) loadMasked(o *Op, mask uint32, dst *lanes) bool {
	data, base := w.windowAt(o, bits.TrailingZeros32(mask))
	n := uint64(o.size)
	if data == nil || n > uint64(len(data)) {
		return false
	}
	limit := uint64(len(data)) - n
	regs := (*lanes)(w.top().regs[int(o.addrBase)*warpSize:])
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		a := regs[l] + o.addrConst
		off := a - base
		if off > limit || a&(n-1) != 0 {
			return false
		}
		if n == 4 { // (one branch the predictor always gets right)
			dst[l] = uint64(binary.LittleEndian.Uint32(data[off:]))
		} else {
			dst[l] = binary.LittleEndian.Uint64(data[off:])
		}
	}
	return true
}

// loadLanes loads, for the lanes of mask, the n-byte element of type t at
// data[offs[lane]] into dst[lane] (offsets checked: maskWindow).
func loadLanes(dst *lanes, data []byte, offs *[warpSize]uint64, mask uint32, n int, t string) {
	switch {
	case n == 4 && t[1] != 's':
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			dst[l] = uint64(binary.LittleEndian.Uint32(data[offs[l]:]))
		}
	case n == 8:
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			dst[l] = binary.LittleEndian.Uint64(data[offs[l]:])
		}
	default:
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			dst[l] = extend(mem.Load(data[offs[l]:offs[l]+uint64(n)]), t, n*8)
		}
	}
}

// storeLanes stores, for the lanes of mask, src[lane]'s n low bytes at
// data[offs[lane]] (offsets checked: maskWindow).
func storeLanes(data []byte, offs *[warpSize]uint64, src *lanes, mask uint32, n int) {
	switch n {
	case 4:
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			binary.LittleEndian.PutUint32(data[offs[l]:], uint32(src[l]))
		}
	case 8:
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			binary.LittleEndian.PutUint64(data[offs[l]:], src[l])
		}
	default:
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			mem.Store(data[offs[l]:offs[l]+uint64(n)], src[l])
		}
	}
}

// windowOf returns the memory a warp-wide access by op o would go through,
// and the address of its first byte: the allocation of lane 0's global
// address (cached per warp: kernels alternate between a few buffers, and
// a free invalidates the cache), or the CTA's shared memory; nil when the
// op has no such window.
func (w *Warp) windowOf(o *Op) ([]byte, uint64) {
	return w.windowAt(o, 0)
}

// windowAt is windowOf for the allocation of lane's address.
func (w *Warp) windowAt(o *Op, lane int) ([]byte, uint64) {
	if o.frameAddr || o.addrBase < 0 {
		return nil, 0
	}
	space := o.space
	addr := w.top().regs[int(o.addrBase)*warpSize+lane] + o.addrConst
	if space == mem.SpaceGeneric {
		// (a pointer loaded from memory: the global window when lane's
		// address is global; the loops check every lane against it)
		if sp, _ := mem.Classify(addr); sp == mem.SpaceGlobal {
			space = mem.SpaceGlobal
		}
	}
	switch space {
	case mem.SpaceGlobal:
		g := w.cta.l.prog.global
		gen := g.Gen()
		if w.gData == nil || w.gGen != gen || addr-w.gBase >= uint64(len(w.gData)) {
			if d, b, ok := w.opWindow(o, addr, gen); ok {
				// (the allocation this op used last: a sparse product's
				// loads of three arrays in turn each missed the warp's
				// last one and looked theirs up)
				w.gBase, w.gData, w.gGen = b, d, gen
				return d, b
			}
			b, d, ok := g.Find(addr)
			if !ok {
				return nil, 0
			}
			w.plainGlobal(b)
			w.gBase, w.gData, w.gGen = b, d, gen
		}
		if o.traceWin != 0 { // the op's trace window follows the allocation it uses
			w.noteWindow(o, w.gData, w.gBase, gen)
		}
		return w.gData, w.gBase
	case mem.SpaceShared:
		return w.cta.shared.Data, 0
	case mem.SpaceConst: // (the bank, from address 0: a table's lookups)
		return w.cta.l.prog.constant.Data, 0
	}
	return nil, 0
}

// opWindow returns op o's trace window (noteWindow: the allocation o
// used last, of the allocations' generation gen) when it holds addr.
func (w *Warp) opWindow(o *Op, addr, gen uint64) ([]byte, uint64, bool) {
	if o.traceWin == 0 || w.ts == nil || w.ts.gen != gen {
		return nil, 0, false
	}
	i := traceWindowIndex(o.traceWin)
	d, base := w.ts.data[i], w.ts.ctx.win[i].base
	if len(d) == 0 || addr-base >= uint64(len(d)) {
		return nil, 0, false
	}
	return d, base, true
}

// windowBytes returns the n bytes lane l0 of op o addresses when they lie,
// aligned, in the op's window (windowOf); nil sends the access down the
// general path (access), which faults where it must.
func (w *Warp) windowBytes(o *Op, l0 int, n uint64) []byte {
	if o.space == spaceKernelParam && o.addrBase < 0 && !o.frameAddr {
		// ld.param of a kernel parameter by name: the launch's buffer
		p, addr := w.cta.l.params, o.addrConst
		if addr&(n-1) != 0 || n > uint64(len(p)) || addr > uint64(len(p))-n {
			return nil
		}
		return p[addr : addr+n : addr+n]
	}
	data, base := w.windowOf(o)
	if data == nil {
		return nil
	}
	addr := w.top().regs[int(o.addrBase)*warpSize+l0] + o.addrConst
	off := addr - base
	if addr&(n-1) != 0 || n > uint64(len(data)) || off > uint64(len(data))-n {
		return nil
	}
	return data[off : off+n : off+n]
}

// loadWarp is ld's full-mask fast path for one destination row, in one
// pass of address, check and load per lane: it reports false when a lane is
// outside the window or misaligned, having loaded only lanes the per-lane
// path, which then takes over, loads again. A destination that is also the
// address register is loaded into a copy first, so that the per-lane path
// still sees the addresses.
func (w *Warp) loadWarp(o *Op, dst *lanes, t string) bool {
	data, base := w.windowOf(o)
	n := uint64(o.size)
	if n > uint64(len(data)) {
		return false
	}
	limit := uint64(len(data)) - n
	regs := (*lanes)(w.top().regs[int(o.addrBase)*warpSize:])
	w.noteStride(o, regs, data, base, n, false) // before the load: dst may be regs
	if load := simdLoads[n][b2i(t[1] == 's')]; simdEnabled && base&7 == 0 && load != nil {
		// the AVX2 loops check every lane before writing the row, so the
		// row may be the address register; a false sends the access to the
		// loops below, which stop at the first bad lane
		if load(dst, regs, &data[0], o.addrConst-base, limit) {
			return true
		}
	} else if p, ok := w.warpStrided(o, regs, data, base, n); ok {
		// (without AVX2) evenly spaced elements: one check of the span
		step := int(regs[1] - regs[0])
		switch signed := t[1] == 's'; {
		case n == 8:
			loadStrided[uint64](p, step, dst)
		case n == 4 && signed:
			loadStrided[int32](p, step, dst)
		case n == 4:
			loadStrided[uint32](p, step, dst)
		case n == 2 && signed:
			loadStrided[int16](p, step, dst)
		case n == 2:
			loadStrided[uint16](p, step, dst)
		case signed:
			loadStrided[int8](p, step, dst)
		default:
			loadStrided[uint8](p, step, dst)
		}
		return true
	}
	out := dst
	if int32(o.vec[0]) == o.addrBase {
		out = new(lanes)
	}
	// one loop per width, the switch outside them: this is the engine's
	// hottest memory path
	switch {
	case n == 4 && t[1] == 's':
		for i, r := range regs {
			addr := r + o.addrConst
			if off := addr - base; off <= limit && addr&3 == 0 {
				out[i] = uint64(int64(int32(binary.LittleEndian.Uint32(data[off:]))))
			} else {
				return false
			}
		}
	case n == 4:
		for i, r := range regs {
			addr := r + o.addrConst
			if off := addr - base; off <= limit && addr&3 == 0 {
				out[i] = uint64(binary.LittleEndian.Uint32(data[off:]))
			} else {
				return false
			}
		}
	case n == 8:
		for i, r := range regs {
			addr := r + o.addrConst
			if off := addr - base; off <= limit && addr&7 == 0 {
				out[i] = binary.LittleEndian.Uint64(data[off:])
			} else {
				return false
			}
		}
	default:
		for i, r := range regs {
			addr := r + o.addrConst
			if off := addr - base; off <= limit && addr&(n-1) == 0 {
				out[i] = extend(mem.Load(data[off:off+n]), t, o.size*8)
			} else {
				return false
			}
		}
	}
	if out != dst {
		*dst = *out
	}
	return true
}

// fillRow sets every lane of row to v.
func fillRow(row *lanes, v uint64) {
	if simdEnabled {
		simdFill(row, v)
		return
	}
	for i := range row {
		row[i] = v
	}
}

// simdLoads are the AVX2 warp-wide loads by element size and signedness
// (zero- or sign-extended to the slot; nil where there is none).
var simdLoads = [9][2]func(row, regs *lanes, data *byte, adj, limit uint64) bool{
	1: {simdLoadZ8, simdLoadS8}, 2: {simdLoadZ16, simdLoadS16}, 4: {simdLoadZ32, simdLoadS32}, 8: {simdLoad64, simdLoad64},
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// simdVectorLoad returns the AVX2 ld.v2/.v4 loop of n elements of size
// bytes of type t, or nil.
func simdVectorLoad(n, size int, t string) func(rows *[4]*lanes, regs *lanes, data *byte, adj, limit uint64) bool {
	if !simdEnabled {
		return nil
	}
	signed := t[1] == 's'
	switch {
	case n == 2 && size == 8:
		return simdLoadV2x64
	case n == 2 && size == 4 && signed:
		return simdLoadV2S32
	case n == 2 && size == 4:
		return simdLoadV2Z32
	case n == 4 && size == 4 && signed:
		return simdLoadV4S32
	case n == 4 && size == 4:
		return simdLoadV4Z32
	}
	return nil
}

// simdVectorStore returns the AVX2 st.v2/.v4 loop of n elements of size
// bytes, or nil.
func simdVectorStore(n, size int) func(rows *[4]*lanes, regs *lanes, data *byte, adj, limit uint64) bool {
	switch {
	case !simdEnabled:
		return nil
	case n == 2 && size == 8:
		return simdStoreV2x64
	case n == 2 && size == 4:
		return simdStoreV2x32
	case n == 4 && size == 4:
		return simdStoreV4x32
	}
	return nil
}

// vectorAccess runs an AVX2 ld/st.v2/.v4 loop (simdVectorLoad, ...Store)
// on op o's window with the rows of its elements (a sink's to w.sink). The
// loop checks every lane's whole vector first; false (or no window) sends
// the access to the Go loops, then to the per-lane path.
func (w *Warp) vectorAccess(o *Op, regs []uint64, write bool, loop func(rows *[4]*lanes, regs *lanes, data *byte, adj, limit uint64) bool) bool {
	data, base := w.windowOf(o)
	size := o.size * len(o.vec)
	if base&7 != 0 || len(data) < size {
		return false
	}
	w.noteStride(o, (*lanes)(regs[int(o.addrBase)*warpSize:]), data, base, uint64(size), write)
	var rows [4]*lanes
	for k, s := range o.vec {
		rows[k] = &w.sink
		if s >= 0 {
			rows[k] = (*lanes)(regs[int(s)*warpSize:])
		}
	}
	return loop(&rows, (*lanes)(regs[int(o.addrBase)*warpSize:]), &data[0], o.addrConst-base, uint64(len(data)-size))
}

// loadVectorWarp is ld.v2/.v4's full-mask fast path: every lane's vector
// inside the window (warpWindow checks the whole vector's bounds and
// alignment), element k of lane i into row o.vec[k] (a sink element, -1,
// is skipped).
func (w *Warp) loadVectorWarp(o *Op, regs []uint64, t string) bool {
	if load := simdVectorLoad(len(o.vec), o.size, t); load != nil && w.vectorAccess(o, regs, false, load) {
		return true
	}
	data := w.warpWindow(o)
	if data == nil {
		return false
	}
	n := uint64(o.size)
	for k, s := range o.vec {
		if s < 0 {
			continue
		}
		row := (*lanes)(regs[int(s)*warpSize:])
		elem := uint64(k) * n
		for i, off := range &w.offs {
			row[i] = extend(mem.Load(data[off+elem:off+elem+n]), t, o.size*8)
		}
	}
	return true
}

// storeVectorWarp is st.v2/.v4's full-mask fast path (see loadVectorWarp).
func (w *Warp) storeVectorWarp(o *Op, regs []uint64) bool {
	if store := simdVectorStore(len(o.vec), o.size); store != nil && w.vectorAccess(o, regs, true, store) {
		return true
	}
	data := w.warpWindow(o)
	if data == nil {
		return false
	}
	n := uint64(o.size)
	for k, s := range o.vec {
		row := (*lanes)(regs[int(s)*warpSize:])
		elem := uint64(k) * n
		for i, off := range &w.offs {
			mem.Store(data[off+elem:off+elem+n], row[i])
		}
	}
	return true
}

// storeWarp is st's full-mask fast path for one source row (see loadWarp).
func (w *Warp) storeWarp(o *Op, src *lanes) bool {
	data, base := w.windowOf(o)
	if len(data) < o.size { // (no window, or one too small for a lane)
		return false
	}
	regs := (*lanes)(w.top().regs[int(o.addrBase)*warpSize:])
	step := regs[1] - regs[0]
	if simdEnabled && (o.size == 4 || o.size == 8) && base&7 == 0 {
		// consecutive elements in bounds: one AVX2 pass (false for any
		// other pattern, which the loops below then check)
		limit := uint64(len(data) - o.size)
		w.noteStride(o, regs, data, base, uint64(o.size), true)
		if step == uint64(o.size) && (o.size == 4 && simdStore32(src, regs, &data[0], o.addrConst-base, limit) ||
			o.size == 8 && simdStore64(src, regs, &data[0], o.addrConst-base, limit)) {
			return true
		}
	}
	// evenly spaced elements (each thread's own struct or row): one check
	// of the whole span, then a store per lane without checks
	if p, ok := w.warpStrided(o, regs, data, base, uint64(o.size)); ok {
		switch o.size {
		case 1:
			storeStrided[uint8](p, int(step), src)
		case 2:
			storeStrided[uint16](p, int(step), src)
		case 4:
			storeStrided[uint32](p, int(step), src)
		default:
			storeStrided[uint64](p, int(step), src)
		}
		return true
	}
	if (o.size == 4 || o.size == 8) && w.storeHalves(o, regs, data, base, src) {
		return true
	}
	if data = w.warpWindowIn(o, data, base); data == nil {
		return false
	}
	offs := &w.offs
	switch o.size {
	case 4:
		for i, off := range offs {
			binary.LittleEndian.PutUint32(data[off:], uint32(src[i]))
		}
	case 8:
		for i, off := range offs {
			binary.LittleEndian.PutUint64(data[off:], src[i])
		}
	default:
		n := uint64(o.size)
		for i, off := range offs {
			mem.Store(data[off:off+n], src[i])
		}
	}
	return true
}

// storeHalves is storeWarp's store of 4- or 8-byte elements where lanes
// 0-15 and lanes 16-31 each store to consecutive elements (a 16x16 block's
// warp: two pieces of two rows): a check of each half's span, then the
// elements; false (nothing stored) for any other pattern or a half out of
// the window or misaligned. (The lane-by-lane loop behind it took an
// eighth of a 16x16 stencil's time.)
func (w *Warp) storeHalves(o *Op, regs *lanes, data []byte, base uint64, src *lanes) bool {
	n := uint64(o.size)
	if !hostLittleEndian || 16*n > uint64(len(data)) ||
		regs[1]-regs[0] != n || regs[17]-regs[16] != n {
		return false // (most stores that reach here fail at the second lane)
	}
	limit := uint64(len(data)) - 16*n
	var bad uint64
	for h := 0; h < warpSize; h += 16 {
		a := regs[h] + o.addrConst
		bad |= a & (n - 1)
		if a-base > limit {
			return false
		}
		for i := range 16 {
			bad |= regs[h+i] - regs[h] - uint64(i)*n
		}
	}
	if bad != 0 {
		return false
	}
	for h := 0; h < warpSize; h += 16 {
		p := unsafe.Pointer(&data[regs[h]+o.addrConst-base])
		if n == 4 {
			d := (*[16]uint32)(p)
			for i := range d {
				d[i] = uint32(src[h+i])
			}
		} else {
			copy((*[16]uint64)(p)[:], src[h:h+16])
		}
	}
	return true
}

// sharedByLanes reports whether every lane that names an address in space
// reaches the same bytes (not so for per-thread local and function
// parameter memory).
func sharedByLanes(space mem.Space) bool {
	switch space {
	case mem.SpaceGlobal, mem.SpaceShared, mem.SpaceConst, spaceKernelParam:
		return true
	}
	return false
}

// spaceOf returns the state space op o addresses for lane (generic
// addresses resolved).
func (w *Warp) spaceOf(o *Op, lane int) mem.Space {
	if o.space != mem.SpaceGeneric {
		return o.space
	}
	addr := o.addrConst
	if o.addrBase >= 0 {
		addr += w.top().regs[int(o.addrBase)*warpSize+lane]
	}
	space, _ := mem.Classify(addr)
	return space
}

// spanOf returns [addr, addr+n) of the memory data whose first byte is at
// base, or nil when data does not hold all of it.
func spanOf(data []byte, base, addr, n uint64) []byte {
	off := addr - base // (below base: a huge offset, refused below)
	if n > uint64(len(data)) || off > uint64(len(data))-n {
		return nil
	}
	return data[off : off+n : off+n]
}

func (w *Warp) access(o *Op, lane int, n uint64) []byte {
	return w.accessAligned(o, lane, n, n)
}

// accessAligned is access for n bytes at an address that must be a
// multiple of align.
func (w *Warp) accessAligned(o *Op, lane int, n, align uint64) []byte {
	f := w.top()
	addr := o.addrConst
	if o.addrBase >= 0 {
		addr += f.regs[int(o.addrBase)*warpSize+lane]
	}
	space := o.space
	if o.frameAddr {
		addr += f.base
	}
	switch space {
	case mem.SpaceGeneric:
		space, addr = mem.Classify(addr)
	case spaceKernelParam: // the engine's own name for a kernel parameter's space
		space = mem.SpaceParam
	}
	// (align is a power of two but for odd callers: a mask, not a division)
	if align&(align-1) == 0 && addr&(align-1) != 0 || align&(align-1) != 0 && addr%align != 0 {
		w.memFault(o, lane, &mem.Fault{Kind: mem.Misaligned, Space: space, Addr: addr, Size: int(align)}, space)
		return nil
	}
	var b []byte
	var fault *mem.Fault
	switch space {
	case mem.SpaceGlobal:
		// the allocation the warp used last usually holds the next access
		// (unless an allocation was freed since: device free)
		g := w.cta.l.prog.global
		gen := g.Gen()
		if b := spanOf(w.gData, w.gBase, addr, n); b != nil && w.gGen == gen {
			return b
		}
		// then the one before it: lanes choosing between two buffers
		// (`p = i & 1 ? a : b`) looked one of them up at every other
		// lane (probe24 q3_sel_thr, q3_loc_ptrs: a third of their time)
		if b := spanOf(w.gData2, w.gBase2, addr, n); b != nil && w.gGen2 == gen {
			w.plainGlobal(w.gBase2)
			w.gBase, w.gData, w.gGen, w.gBase2, w.gData2, w.gGen2 = w.gBase2, w.gData2, w.gGen2, w.gBase, w.gData, w.gGen
			return b
		}
		base, data, ok := g.Find(addr)
		if off := addr - base; !ok || n > uint64(len(data))-off {
			fault = &mem.Fault{Kind: mem.OutOfBounds, Space: mem.SpaceGlobal, Addr: addr, Size: int(n)}
			break
		}
		w.plainGlobal(base)
		w.gBase2, w.gData2, w.gGen2 = w.gBase, w.gData, w.gGen
		w.gBase, w.gData, w.gGen = base, data, gen
		off := addr - base
		b = data[off : off+n : off+n]
	case mem.SpaceShared: // the executing CTA's, or a peer's in the cluster (cluster.go)
		peer, off, ok := w.cta.peerShared(addr)
		if !ok {
			fault = &mem.Fault{Kind: mem.OutOfBounds, Space: mem.SpaceShared, Addr: addr, Size: int(n)}
			break
		}
		b, fault = peer.shared.Bytes(off, n)
	case mem.SpaceLocal:
		if b = w.localBytes(lane, addr, n); b == nil {
			fault = &mem.Fault{Kind: mem.OutOfBounds, Space: mem.SpaceLocal, Addr: addr, Size: int(n)}
		}
	case mem.SpaceConst:
		b, fault = w.cta.l.prog.constant.Bytes(addr, n)
	case mem.SpaceParam: // kernel parameters (generic param addresses too: cvta.param)
		pb := mem.Block{Space: mem.SpaceParam, Data: w.cta.l.params}
		b, fault = pb.Bytes(addr, n)
	default:
		fault = &mem.Fault{Kind: mem.OutOfBounds, Space: space, Addr: addr, Size: int(n)}
	}
	if fault != nil {
		w.memFault(o, lane, fault, space)
		return nil
	}
	return b
}

// dataSlots returns the destination (ld) or source (st) slots of a data
// operand: one for a scalar, one per element for a vector (-1 for `_`).
func (l *lowering) dataSlots(in *ir.Inst, i int, store bool) ([]int32, error) {
	op := in.Operands[i]
	elems := []ir.Operand{op}
	if op.Kind == ir.OpVector {
		elems = op.Elems
	}
	var slots []int32
	for k, e := range elems {
		switch {
		case e.Kind == ir.OpSink:
			slots = append(slots, -1)
		case e.Kind == ir.OpReg && e.Reg.Vector > 0 && e.Component == "" && len(elems) == 1:
			for c := 0; c < e.Reg.Vector; c++ {
				slots = append(slots, l.reg(e)+int32(c))
			}
		case store:
			sub := *in
			sub.Operands = []ir.Operand{e}
			sub.Types = []string{typeOf(in)}
			s, err := l.src(&sub, 0)
			if err != nil {
				return nil, err
			}
			slots = append(slots, s)
		case e.Kind == ir.OpReg && e.Reg.Type != ".pred":
			slots = append(slots, l.reg(e))
		default:
			return nil, l.unsupported(in, "data operand "+string(rune('0'+k)))
		}
	}
	return slots, nil
}

// extend widens a loaded value of the instruction type t to 64 bits: sign
// extension for signed types (9.4.1, Table 28), zero extension otherwise.
func extend(v uint64, t string, bitsN int) uint64 {
	if t != "" && t[1] == 's' && bitsN < 64 {
		shift := 64 - uint(bitsN)
		return uint64(int64(v<<shift) >> shift)
	}
	return v
}

func lowerLd(l *lowering, in *ir.Inst, o *Op) error {
	t := o.typ
	n := typeBits(t) / 8
	if n == 0 || n > 8 {
		return l.unsupported(in, "type "+t)
	}
	d, err := l.dataSlots(in, 0, false)
	if err != nil {
		return err
	}
	if err := l.address(in, in.Operands[1], o); err != nil {
		return err
	}
	o.vec, o.size = d, n
	o.memTrace = memTraceKind(in, o, true, t)
	total := uint64(n * len(d))
	// an address that is the same in every lane (no register, or a register
	// holding one value in all of them: uniform.go) means one access
	shared := !o.frameAddr && sharedByLanes(o.space)
	constant := shared && o.addrBase < 0
	// a scalar .local access (stack.go's loadLocal)
	// (or a generic one at a local address: stack.go's localBase)
	local := (o.space == mem.SpaceLocal || o.space == mem.SpaceGeneric) && len(o.vec) == 1 && o.vec[0] >= 0 && (n == 1 || n == 2 || n == 4 || n == 8)
	localVec := (o.space == mem.SpaceLocal || o.space == mem.SpaceGeneric) && len(o.vec) > 1 && (n == 4 || n == 8) // (stack.go's loadLocalVec)
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		if constant || shared && uniformEnabled && mask&(mask-1) != 0 &&
			sameInLanes((*lanes)(f.regs[int(o.addrBase)*warpSize:]), mask, bits.TrailingZeros32(mask)) {
			l0 := bits.TrailingZeros32(mask)
			b := w.windowBytes(o, l0, total)
			if b == nil {
				if b = w.access(o, l0, total); b == nil {
					return
				}
			}
			for k, s := range o.vec {
				if s < 0 {
					continue
				}
				v := extend(mem.Load(b[k*o.size:(k+1)*o.size]), t, o.size*8)
				row := (*lanes)(f.regs[int(s)*warpSize:])
				if mask == ^uint32(0) {
					fillRow(row, v)
					continue
				}
				for m := mask; m != 0; m &= m - 1 {
					row[bits.TrailingZeros32(m)] = v
				}
			}
			return
		}
		if local && w.loadLocal(o, mask, (*lanes)(f.regs[int(o.vec[0])*warpSize:]), t) {
			return
		}
		if mask == ^uint32(0) && len(o.vec) == 1 && o.vec[0] >= 0 &&
			w.loadWarp(o, (*lanes)(f.regs[int(o.vec[0])*warpSize:]), t) {
			return
		}
		if mask == ^uint32(0) && len(o.vec) > 1 && (localVec && w.loadLocalVec(o, f.regs, t) || w.loadVectorWarp(o, f.regs, t)) {
			return
		}
		if mask != ^uint32(0) && len(o.vec) == 1 && o.vec[0] >= 0 {
			dst := (*lanes)(f.regs[int(o.vec[0])*warpSize:])
			if o.vec[0] != o.addrBase && (o.size == 8 || o.size == 4 && t[1] != 's') {
				if w.loadMasked(o, mask, dst) {
					return
				}
			} else if data := w.maskWindow(o, mask); data != nil {
				loadLanes(dst, data, &w.offs, mask, o.size, t)
				return
			}
		}
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			b := w.access(o, lane, total)
			if b == nil {
				return
			}
			for k, s := range o.vec {
				if s >= 0 {
					f.regs[int(s)*warpSize+lane] = extend(mem.Load(b[k*o.size:(k+1)*o.size]), t, o.size*8)
				}
			}
		}
	}
	if strong(in, o) {
		o.exec = func(w *Warp, o *Op, mask uint32) {
			f := w.top()
			// a flag every lane polls (oneAddress): one load, each lane's
			// value the one it read, as if they all read at one instant
			loads, l0 := mask, bits.TrailingZeros32(mask)
			one := mask&(mask-1) != 0 && w.oneAddress(o, mask, l0)
			if one {
				loads = 1 << l0
			}
			for m := loads; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				b := w.access(o, lane, total)
				if b == nil {
					return
				}
				viaAtomics := w.spaceOf(o, lane) == mem.SpaceGlobal
				for k, s := range o.vec {
					if s < 0 {
						continue
					}
					e := b[k*o.size : (k+1)*o.size]
					var v uint64
					if viaAtomics { // (never a plain read of global memory: other workers write it)
						v = atomicLoad(e)
					} else {
						v = mem.Load(e)
					}
					v = extend(v, t, o.size*8)
					if !one {
						f.regs[int(s)*warpSize+lane] = v
						continue
					}
					for l := mask; l != 0; l &= l - 1 {
						f.regs[int(s)*warpSize+bits.TrailingZeros32(l)] = v
					}
				}
			}
		}
	}
	return nil
}

// oneAddress reports whether the lanes of mask (l0 the first) of strong
// access o (global or generic) access one and the same memory: one
// address, and not in the local window, where each lane has its own.
func (w *Warp) oneAddress(o *Op, mask uint32, l0 int) bool {
	if o.space == mem.SpaceGeneric && w.spaceOf(o, l0) == mem.SpaceLocal {
		return false
	}
	return o.addrBase < 0 || sameInLanes((*lanes)(w.top().regs[int(o.addrBase)*warpSize:]), mask, l0)
}

func lowerSt(l *lowering, in *ir.Inst, o *Op) error {
	t := o.typ
	n := typeBits(t) / 8
	if n == 0 || n > 8 {
		return l.unsupported(in, "type "+t)
	}
	if len(in.Operands) != 2 {
		return l.unsupported(in, "cache-policy operand")
	}
	s, err := l.dataSlots(in, 1, true)
	if err != nil {
		return err
	}
	if err := l.address(in, in.Operands[0], o); err != nil {
		return err
	}
	o.vec, o.size = s, n
	o.memTrace = memTraceKind(in, o, false, t)
	total := uint64(n * len(s))
	local := (o.space == mem.SpaceLocal || o.space == mem.SpaceGeneric) && len(o.vec) == 1 && (n == 1 || n == 2 || n == 4 || n == 8) // (stack.go's storeLocal)
	localVec := (o.space == mem.SpaceLocal || o.space == mem.SpaceGeneric) && len(o.vec) > 1 && (n == 4 || n == 8)                   // (stack.go's storeLocalVec)
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		if local && w.storeLocal(o, mask, (*lanes)(f.regs[int(o.vec[0])*warpSize:])) {
			return
		}
		if mask == ^uint32(0) && len(o.vec) == 1 && w.storeWarp(o, (*lanes)(f.regs[int(o.vec[0])*warpSize:])) {
			return
		}
		if mask == ^uint32(0) && len(o.vec) > 1 && (localVec && w.storeLocalVec(o, f.regs) || w.storeVectorWarp(o, f.regs)) {
			return
		}
		if mask != ^uint32(0) && len(o.vec) == 1 {
			if data := w.maskWindow(o, mask); data != nil {
				storeLanes(data, &w.offs, (*lanes)(f.regs[int(o.vec[0])*warpSize:]), mask, o.size)
				return
			}
		}
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			b := w.access(o, lane, total)
			if b == nil {
				return
			}
			for k, s := range o.vec {
				mem.Store(b[k*o.size:(k+1)*o.size], f.regs[int(s)*warpSize+lane])
			}
		}
	}
	if strong(in, o) {
		o.exec = func(w *Warp, o *Op, mask uint32) {
			f := w.top()
			for m := mask; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				b := w.access(o, lane, total)
				if b == nil {
					return
				}
				viaAtomics := w.spaceOf(o, lane) == mem.SpaceGlobal
				for k, s := range o.vec {
					e := b[k*o.size : (k+1)*o.size]
					if viaAtomics {
						atomicStore(e, f.regs[int(s)*warpSize+lane])
					} else {
						mem.Store(e, f.regs[int(s)*warpSize+lane])
					}
				}
			}
		}
	}
	return nil
}

// memTraceKind names the trace body (trace.go) of a warp-wide ld (load)
// or st of type t by op o, or "" when the op stays out of traces: a vector,
// a strong form, a space other than global or shared (or, for ld, a kernel
// parameter by name), an address without a register, or an element size
// without a body.
func memTraceKind(in *ir.Inst, o *Op, load bool, t string) string {
	if strong(in, o) || o.frameAddr {
		return ""
	}
	if load && (len(o.vec) == 2 || len(o.vec) == 4) && o.size == 4 && o.addrBase >= 0 &&
		(o.space == mem.SpaceGlobal || o.space == mem.SpaceShared) {
		// ld.v2/.v4 of 4-byte elements into consecutive rows (a float4's
		// {x, y, z, w}: clang's registers one after the other), whose
		// bodies fill the rows from the entry's first
		for k, v := range o.vec {
			if v < 0 || v != o.vec[0]+int32(k) {
				return ""
			}
		}
		return loadKind("ldV"+strconv.Itoa(len(o.vec)), 4, t)
	}
	if len(o.vec) != 1 || o.vec[0] < 0 {
		return ""
	}
	switch {
	case load && o.addrBase < 0 && (o.space == spaceKernelParam || o.space == mem.SpaceConst || o.space == mem.SpaceShared):
		// a kernel parameter by name; likewise a constant's or a shared
		// variable's element by name (a filter's weights, [w+8]), one
		// element for every lane
		return loadKind("ldParam", o.size, t)
	case o.space == mem.SpaceLocal && o.addrBase >= 0 && (o.size == 4 || o.size == 8):
		// a warp's access at one offset in every lane's local memory (a
		// local array's element in a loop; another pattern is refused)
		if !load {
			return "stLocal" + strconv.Itoa(8*o.size)
		}
		return loadKind("ldLocal", o.size, t)
	case o.addrBase < 0 || o.space != mem.SpaceGlobal && o.space != mem.SpaceShared && !(load && o.space == mem.SpaceConst):
		return "" // (.const: loads of the launch's bank, a filter's weights or a table)
	case load && (o.size == 1 || o.size == 2 || o.size == 4 || o.size == 8):
		return loadKind("ld", o.size, t)
	case !load && (o.size == 4 || o.size == 8):
		return "st" + strconv.Itoa(8*o.size)
	}
	return ""
}

// loadKind names a load body: prefix, then 64 for 8-byte elements, else
// Z or S (the element zero- or sign-extended, as type t says) and its
// bits (ldZ8, ldParamS16, ldLocal64, ldV4Z32).
func loadKind(prefix string, size int, t string) string {
	widths := [...]string{1: "8", 2: "16", 4: "32"}
	switch {
	case size == 8:
		return prefix + "64"
	case t[1] == 's':
		return prefix + "S" + widths[size]
	}
	return prefix + "Z" + widths[size]
}

// strong reports whether an ld/st is one of the strong forms (.relaxed,
// .acquire, .release, .volatile, .mmio; 8.4) on global memory or a generic
// address: those go through the host's atomics (atomic_mem.go), element by
// element, so that they are single-copy atomic and order the accesses
// around them across CTAs on different workers. Shared memory is used by
// one goroutine (the cluster's): its plain accesses already are.
func strong(in *ir.Inst, o *Op) bool {
	s := false
	for _, m := range []string{".relaxed", ".acquire", ".release", ".volatile", ".mmio"} {
		s = s || hasMod(in, m)
	}
	return s && (o.space == mem.SpaceGlobal || o.space == mem.SpaceGeneric)
}

// cvta{.to}.space.size d, a: between a space's addresses and generic ones.
func lowerCvta(l *lowering, in *ir.Inst, o *Op) error {
	space := spaceOf(in.Mods)
	toSpace := hasMod(in, ".to")
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	a, err := l.src(in, 1)
	if err != nil {
		return err
	}
	if space == mem.SpaceParam && !l.f.IR.Entry {
		// a function's .param variables live in the thread's frame: their
		// generic addresses are local ones
		space = mem.SpaceLocal
	}
	// the whole warp's conversion, which the converged loop calls directly
	whole := func(dst, src *lanes) {
		if toSpace && allBelow(src, mem.SharedBase) {
			// global addresses (all below the windows) stay as they are:
			// the common cvta.to.global of a kernel parameter
			*dst = *src
			return
		}
		for i, v := range src {
			if toSpace {
				if v >= mem.SharedBase { // below the windows: a global address, unchanged
					_, v = mem.Classify(v)
				}
			} else {
				v = mem.Generic(space, v)
			}
			dst[i] = v
		}
	}
	o.d, o.a = d, a
	o.vkind, o.vu = vecUnary, whole
	if toSpace && space == mem.SpaceGlobal {
		o.memTrace = "cvtaToGlobal" // traces copy a row of global addresses
	}
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		if mask == ^uint32(0) {
			whole((*lanes)(f.regs[int(o.d)*warpSize:]), (*lanes)(f.regs[int(o.a)*warpSize:]))
			return
		}
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			v := f.regs[int(o.a)*warpSize+lane]
			if toSpace {
				_, v = mem.Classify(v)
			} else {
				v = mem.Generic(space, v)
			}
			f.regs[int(o.d)*warpSize+lane] = v
		}
	}
	return nil
}

// allBelow reports whether every lane of row is below limit.
func allBelow(row *lanes, limit uint64) bool {
	if simdEnabled {
		return simdAllBelow(row, limit)
	}
	var top uint64
	for _, v := range row {
		top = max(top, v)
	}
	return top < limit
}

// isspacep.space p, a: whether generic address a points into space.
func lowerIsspacep(l *lowering, in *ir.Inst, o *Op) error {
	space := spaceOf(in.Mods)
	p, _, err := l.pred(in, 0)
	if err != nil {
		return err
	}
	a, err := l.src(in, 1)
	if err != nil {
		return err
	}
	o.d, o.a = p, a
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			s, _ := mem.Classify(f.regs[int(o.a)*warpSize+lane])
			// the kernel-parameter window lies inside the global one (9.7.9.19)
			if s == space || space == mem.SpaceGlobal && s == mem.SpaceParam {
				f.preds[o.d] |= 1 << lane
			} else {
				f.preds[o.d] &^= 1 << lane
			}
		}
	}
	return nil
}
