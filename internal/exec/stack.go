package exec

// Stack manipulation (9.7.17): alloca, stacksave, stackrestore, on the
// threads' local memory. Each thread has its own stack pointer, starting at
// allocaTop and growing down; a function's allocations are released when it
// returns.

import (
	"math/bits"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
)

func init() {
	register(lowerAlloca, "alloca")
	register(lowerStacksave, "stacksave")
	register(lowerStackrestore, "stackrestore")
}

// allocaTop is the local-memory offset where the alloca stack starts; it
// grows down from there (9.7.17.3: "the stack grows down"), away from the
// frames, which grow up from 0.
const allocaTop = 1 << 31

// growLocal gives every lane at least n bytes of local memory (doubling),
// keeping what they hold.
func (w *Warp) growLocal(n uint64) {
	stride := (max(n, 2*w.localStride) + 15) &^ 15
	back := make([]byte, warpSize*stride)
	for l := range w.local {
		part := back[uint64(l)*stride : uint64(l+1)*stride : uint64(l+1)*stride]
		copy(part, w.local[l])
		w.local[l] = part
	}
	w.localBack, w.localStride, w.hasLocal = back, stride, true
}

// localAddrs puts in w.offs the byte offset in localBack of each lane of
// mask's element of a 1-, 2-, 4- or 8-byte .local access by o, or reports false
// when a lane's is misaligned or not in its frames (the alloca stack, or
// out of bounds): the general path takes or faults those.
func (w *Warp) localAddrs(o *Op, mask uint32) bool {
	base, regs := w.localBase(o)
	n, stride := uint64(o.size), w.localStride
	if stride < n || uint64(len(w.localBack)) < warpSize*stride {
		return false
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		a := base
		if regs != nil {
			a += regs[l]
		}
		if a&(n-1) != 0 || a > stride-n {
			return false
		}
		w.offs[l] = uint64(l)*stride + a
	}
	return true
}

// loadLocal is a scalar 1-, 2-, 4- or 8-byte ld.local of type t into row
// dst for the lanes of mask, or false (nothing written) where localAddrs
// refuses. (Byte and short arrays, a per-thread histogram's counts: the
// general path lane by lane took 36x native, probe q3_loc_narrow.)
func (w *Warp) loadLocal(o *Op, mask uint32, dst *lanes, t string) bool {
	if mask == ^uint32(0) {
		return w.loadLocalAll(o, dst, t[1] == 's')
	}
	if !w.localAddrs(o, mask) {
		return false
	}
	loadLanes(dst, w.localBack, &w.offs, mask, o.size, t)
	return true
}

// storeLocal is loadLocal's st.local, from row src.
func (w *Warp) storeLocal(o *Op, mask uint32, src *lanes) bool {
	if mask == ^uint32(0) {
		return w.storeLocalAll(o, src)
	}
	if !w.localAddrs(o, mask) {
		return false
	}
	storeLanes(w.localBack, &w.offs, src, mask, o.size)
	return true
}

// localBase is a .local access's address before its register's lane
// value, and that register's row (nil: none). A generic access's is its
// offset in the local window (cvta.local's %SP: a local array's accesses
// from clang); an address outside the window is then past every lane's
// local memory, and the general path takes it.
func (w *Warp) localBase(o *Op) (uint64, *lanes) {
	f := w.top()
	base := o.addrConst
	if o.frameAddr {
		base += f.base
	}
	if o.space == mem.SpaceGeneric {
		base -= mem.LocalBase
	}
	if o.addrBase >= 0 {
		return base, (*lanes)(f.regs[int(o.addrBase)*warpSize:])
	}
	return base, nil
}

// loadLocalAll is loadLocal of 4 or 8 bytes for every lane. Unless the
// destination is the address's register (checked first then), each lane's
// offset is checked as it loads: where one is refused, the general path
// loads every lane again.
func (w *Warp) loadLocalAll(o *Op, dst *lanes, signed bool) bool {
	switch {
	case o.size == 8:
		return loadLocalAllOf[uint64](w, o, dst)
	case o.size == 4 && signed:
		return loadLocalAllOf[int32](w, o, dst)
	case o.size == 4:
		return loadLocalAllOf[uint32](w, o, dst)
	case o.size == 2 && signed:
		return loadLocalAllOf[int16](w, o, dst)
	case o.size == 2:
		return loadLocalAllOf[uint16](w, o, dst)
	case signed:
		return loadLocalAllOf[int8](w, o, dst)
	}
	return loadLocalAllOf[uint8](w, o, dst)
}

// loadLocalAllOf is loadLocalAll for elements of type T (a loop per
// width and extension: a switch per lane cost 15%).
func loadLocalAllOf[T loadElem](w *Warp, o *Op, dst *lanes) bool {
	n := uint64(unsafe.Sizeof(T(0)))
	base, regs := w.localBase(o)
	p := unsafe.Pointer(unsafe.SliceData(w.localBack))
	if regs != dst && (regs == nil || sameInLanes(regs, ^uint32(0), 0)) {
		// the same address in every lane (a local array's %SPL+k): one
		// check, then the same offset in every lane's part (storeLocalAll
		// likewise; a failed check leaves the warp to the checked loop
		// below)
		if off, ok := w.localOffset(base, regs, n); ok {
			loadStrided[T](unsafe.Add(p, off), int(w.localStride), dst)
			return true
		}
	}
	if regs == dst {
		if !w.localAddrs(o, ^uint32(0)) {
			return false
		}
		loadLocalAt[T](p, &w.offs, dst)
		return true
	}
	stride := w.localStride
	if stride < n || uint64(len(w.localBack)) < warpSize*stride {
		return false
	}
	return loadLocalChecked[T](p, base, stride, regs, dst)
}

// localOffset is lane 0's offset in its part of localBack for a whole
// warp's n-byte .local access (1, 2, 4 or 8 bytes, or a vector of them)
// (base and regs: localBase's), or false where localAddrs would refuse it
// (misaligned for n, outside the part).
func (w *Warp) localOffset(base uint64, regs *lanes, n uint64) (int, bool) {
	a := base
	if regs != nil {
		a += regs[0]
	}
	stride := w.localStride
	if stride < n || uint64(len(w.localBack)) < warpSize*stride || a&(n-1) != 0 || a > stride-n {
		return 0, false
	}
	return int(a), true
}

// loadLocalChecked is loadLocalAll's loop for elements of type T (the
// signed types sign-extend, the others zero-extend): each lane's element at base plus its
// address register's value (regs; nil: none) in its part of localBack (p,
// stride bytes per lane), or false at the first lane whose element is
// misaligned or outside its part.
func loadLocalChecked[T loadElem](p unsafe.Pointer, base, stride uint64, regs, dst *lanes) bool {
	n := uint64(unsafe.Sizeof(T(0)))
	for l := range dst {
		a := base
		if regs != nil {
			a += regs[l]
		}
		if a&(n-1) != 0 || a > stride-n {
			return false
		}
		dst[l] = uint64(*(*T)(unsafe.Add(p, uint64(l)*stride+a)))
	}
	return true
}

// loadLocalAt loads a T for every lane at offs in localBack (p), extended
// as loadLocalChecked does.
func loadLocalAt[T loadElem](p unsafe.Pointer, offs *[warpSize]uint64, dst *lanes) {
	for l, off := range offs {
		dst[l] = uint64(*(*T)(unsafe.Add(p, off)))
	}
}

// storeLocalAll is storeLocal for every lane.
func (w *Warp) storeLocalAll(o *Op, src *lanes) bool {
	switch o.size {
	case 8:
		return storeLocalAllOf[uint64](w, o, src)
	case 4:
		return storeLocalAllOf[uint32](w, o, src)
	case 2:
		return storeLocalAllOf[uint16](w, o, src)
	}
	return storeLocalAllOf[uint8](w, o, src)
}

// storeLocalAllOf is storeLocalAll of elements of type T (src's low bytes).
func storeLocalAllOf[T storeElem](w *Warp, o *Op, src *lanes) bool {
	n := uint64(unsafe.Sizeof(T(0)))
	// the same address in every lane (a local array's %SPL+k): one check,
	// then the same offset in every lane's part
	base, regs := w.localBase(o)
	if regs == nil || sameInLanes(regs, ^uint32(0), 0) {
		off, ok := w.localOffset(base, regs, n)
		if !ok {
			return false
		}
		storeStrided[T](unsafe.Add(unsafe.Pointer(unsafe.SliceData(w.localBack)), off), int(w.localStride), src)
		return true
	}
	if !w.localAddrs(o, ^uint32(0)) {
		return false
	}
	storeLocalAt[T](unsafe.Pointer(unsafe.SliceData(w.localBack)), &w.offs, src)
	return true
}

// storeLocalAt stores every lane's src, as a T (its low bytes), at offs in
// localBack (p).
func storeLocalAt[T storeElem](p unsafe.Pointer, offs *[warpSize]uint64, src *lanes) {
	for l, off := range offs {
		*(*T)(unsafe.Add(p, off)) = T(src[l])
	}
}

// localBytes returns lane's local memory [off, off+n): the frames below,
// or the alloca stack below allocaTop.
func (w *Warp) localBytes(lane int, off, n uint64) []byte {
	d := w.dyn[lane]
	if lo := allocaTop - uint64(len(d)); off >= lo && off <= allocaTop && n <= allocaTop-off {
		return d[off-lo : off-lo+n : off-lo+n]
	}
	if f := w.local[lane]; off <= uint64(len(f)) && n <= uint64(len(f))-off {
		return f[off : off+n : off+n]
	}
	return nil
}

// alloca.type ptr, size{, immAlign}: ptr is a local address.
func lowerAlloca(l *lowering, in *ir.Inst, o *Op) error {
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	size, err := l.src(in, 1)
	if err != nil {
		return err
	}
	o.d, o.a, o.imm = d, size, 8
	if len(in.Operands) > 2 && in.Operands[2].Kind == ir.OpImm {
		o.imm = in.Operands[2].Imm.Uint64()
	}
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		al := max(o.imm, 1)
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			size := f.regs[int(o.a)*warpSize+lane]
			if size > w.sp[lane] || w.sp[lane]-size < allocaTop/2 {
				w.fail(o, 1<<lane, FaultOutOfBounds, "alloca: stack overflow")
				return
			}
			w.sp[lane] = (w.sp[lane] - size) &^ (al - 1)
			w.spMoved = true
			if need := allocaTop - w.sp[lane]; uint64(len(w.dyn[lane])) < need {
				grown := make([]byte, max(need, 2*uint64(len(w.dyn[lane]))))
				copy(grown[uint64(len(grown))-uint64(len(w.dyn[lane])):], w.dyn[lane])
				w.dyn[lane], w.hasLocal = grown, true
			}
			f.regs[int(o.d)*warpSize+lane] = w.sp[lane]
		}
	}
	return nil
}

func lowerStacksave(l *lowering, in *ir.Inst, o *Op) error {
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	o.d = d
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			f.regs[int(o.d)*warpSize+lane] = w.sp[lane]
		}
	}
	return nil
}

func lowerStackrestore(l *lowering, in *ir.Inst, o *Op) error {
	a, err := l.src(in, 0)
	if err != nil {
		return err
	}
	o.a = a
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			// only within the current function's allocations
			if v := f.regs[int(o.a)*warpSize+lane]; v <= f.sp[lane] && v >= w.sp[lane] {
				w.sp[lane] = v
				w.spMoved = true
			}
		}
	}
	return nil
}

// loadLocalVec is a whole warp's vector ld.local (a called function's
// .param result, ld.param.v2 {a, b}, [retval0]) of 4- or 8-byte elements
// of type t into the rows of vec at one address in every lane: one check
// of the whole vector in lane 0's part, then each element at the same
// offset in every lane's part; false (nothing written) where the address
// differs between lanes, is misaligned for the vector, or lies outside
// the parts (the general path takes or faults those).
func (w *Warp) loadLocalVec(o *Op, regs []uint64, t string) bool {
	off, ok := w.localVecOffset(o)
	if !ok {
		return false
	}
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(w.localBack)), off)
	for k, s := range o.vec {
		if s < 0 {
			continue
		}
		q, dst := unsafe.Add(p, k*o.size), (*lanes)(regs[int(s)*warpSize:])
		switch {
		case o.size == 8:
			loadStrided[uint64](q, int(w.localStride), dst)
		case t[1] == 's':
			loadStrided[int32](q, int(w.localStride), dst)
		default:
			loadStrided[uint32](q, int(w.localStride), dst)
		}
	}
	return true
}

// storeLocalVec is loadLocalVec's st.local (st.param.v2 [func_retval0],
// {a, b}), from the rows of vec.
func (w *Warp) storeLocalVec(o *Op, regs []uint64) bool {
	off, ok := w.localVecOffset(o)
	if !ok {
		return false
	}
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(w.localBack)), off)
	for k, s := range o.vec {
		q, src := unsafe.Add(p, k*o.size), (*lanes)(regs[int(s)*warpSize:])
		if o.size == 8 {
			storeStrided[uint64](q, int(w.localStride), src)
		} else {
			storeStrided[uint32](q, int(w.localStride), src)
		}
	}
	return true
}

// localVecOffset is lane 0's offset in its part of localBack for a whole
// warp's vector .local access by o at one address in every lane, or false
// where the lanes' addresses differ, or the vector is misaligned or not
// inside the part.
func (w *Warp) localVecOffset(o *Op) (int, bool) {
	base, regs := w.localBase(o)
	if regs != nil && !sameInLanes(regs, ^uint32(0), 0) {
		return 0, false
	}
	return w.localOffset(base, regs, uint64(o.size*len(o.vec)))
}
