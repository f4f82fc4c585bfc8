package exec

// atom and red (9.7.13.5-6): scalar integer, f32/f64, f16/bf16 and packed
// f16x2/bf16x2 (.noftz), cas.b16, and the vector forms (.v2/.v4/.v8 of
// f32, f16, bf16, f16x2, bf16x2; each element atomic on its own, as the
// manual says). Global memory is shared by the CTAs running on every
// worker, so global atomics hold the program's atomic lock; shared memory
// belongs to one CTA, whose warps run on one goroutine, so its atomics need
// no lock. The .sem and .scope qualifiers are satisfied by this: every
// atomic is sequentially consistent. Not yet: .b128.

import (
	"math"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/fp"
	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
)

func init() {
	register(lowerAtom, "atom", "red")
}

func lowerAtom(l *lowering, in *ir.Inst, o *Op) error {
	t := typeOf(in)
	op := in.Groups[".op"]
	if op == "" {
		for _, m := range []string{".add", ".min", ".max", ".inc", ".dec", ".and", ".or", ".xor", ".exch", ".cas"} {
			if hasMod(in, m) {
				op = m
			}
		}
	}
	vec := 1
	for _, v := range []struct {
		m string
		n int
	}{{".v2", 2}, {".v4", 4}, {".v8", 8}} {
		if hasMod(in, v.m) {
			vec = v.n
		}
	}
	n := typeBits(t) / 8
	if op == "" || n != 2 && n != 4 && n != 8 {
		return l.unsupported(in, "")
	}
	ops := in.Operands
	var dsts []int32 // destination slot per element (-1: none)
	if in.Opcode == "atom" {
		slots, err := l.dataSlots(in, 0, false)
		if err != nil {
			return err
		}
		dsts = slots
		ops = ops[1:]
	} else {
		for range vec {
			dsts = append(dsts, -1)
		}
	}
	if err := l.address(in, ops[0], o); err != nil {
		return err
	}
	base := len(in.Operands) - len(ops)
	bs, err := l.dataSlots(in, base+1, true)
	if err != nil {
		return err
	}
	if len(bs) != vec || len(dsts) != vec {
		return l.unsupported(in, "vector operand")
	}
	c := int32(-1)
	if op == ".cas" {
		if c, err = l.src(in, base+2); err != nil {
			return err
		}
	}
	it, isInt := parseInt(t)
	apply := atomicOp(op, t, it, isInt)
	if apply == nil {
		return l.unsupported(in, "")
	}
	// atom.add.f32 on global memory flushes subnormal inputs and results
	// (9.7.13.5: "Current implementation of atom.add.f32 on global memory
	// flushes ..."; on shared memory it does not)
	var applyGlobal func(old, b, c uint64) uint64
	if t == ".f32" && op == ".add" {
		applyGlobal = func(old, b, _ uint64) uint64 { return atomAddF32Flush(old, b) }
	}
	rmw := atomicRMW
	if op == ".add" && (t == ".u32" || t == ".s32" || t == ".u64" || t == ".s64") {
		rmw = atomicAddInt
	}
	o.c, o.size = c, n
	addInt32 := op == ".add" && vec == 1 && (t == ".u32" || t == ".s32")
	addF32 := op == ".add" && vec == 1 && t == ".f32"
	addF64 := op == ".add" && vec == 1 && t == ".f64"
	addInt64 := op == ".add" && vec == 1 && t == ".u64" // (no .s64 add: 9.7.13.5)
	// the other ops on one 32-bit integer, and every op on one 8-byte word
	// (atomic_words.go, atomic_word64.go): a function of their own per
	// lane; every lane at one word in one step (fold: apply, .add.f64 on
	// the host's float64)
	word32 := atomicWord32(op, n, vec, it, isInt, apply)
	word64 := atomicWord64(op, t, n, vec, it, isInt, apply)
	fold := apply
	if t == ".f64" && op == ".add" {
		fold = f64AddOp
	}
	unread := oldUnread(l.f.IR, in)
	// kind: combineOp's op on one integer (redAdd: none), which every lane
	// at one word runs in a loop of its own (foldKind), buffered (combine)
	// and folded into one step where old values are unread (fold)
	kind := uint8(redAdd)
	if vec == 1 {
		kind = combineOp(op, t)
	}
	info := &atomInfo{val: bs[0], dst: dsts[0], addInt32: addInt32, addF32: addF32, addF64: addF64, addInt64: addInt64, it: it,
		buffer: unread && bufferableAdd(in, o, op, t, vec), unread: unread}
	if unread && bufferableSite(in, o, vec) {
		info.combine = kind // (atomic_combine.go)
	}
	var unreadFold *atomInfo // (wordLanes' combineWord)
	if unread && (o.space == mem.SpaceGlobal || o.space == mem.SpaceShared) && !o.frameAddr && !hasSemantics(in) {
		info.fold = kind
		if kind != redAdd {
			unreadFold = info
		}
	}
	o.aux = info
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		size := uint64(o.size * vec)
		lookup := o.space == mem.SpaceGlobal || o.space == mem.SpaceShared
		// lane: the lane whose address finds the window
		lane := 0
		if (info.buffer || info.combine != redAdd) && w.cta.l.red.ok && bufferAddsEnabled { // (atomic_buffer.go)
			var bypass bool
			if mask, bypass = w.bufferAdds(o, info, mask); mask == 0 {
				return
			}
			if bypass {
				// the lanes outside the launch's buffered allocation (adds
				// to another array of the same kind): the window of the
				// lowest of them, unless it lies in the buffered allocation
				// (misaligned there: access faults), whose lookup would
				// end buffering
				lane = bits.TrailingZeros32(mask)
				lookup = lookup && o.addrBase >= 0 && !w.cta.l.red.holds(f.regs[int(o.addrBase)*warpSize+lane]+o.addrConst)
			}
		}
		// a global op's lanes inside the warp's cached allocation, or a
		// shared op's inside the CTA's own shared memory (and aligned),
		// reach it directly; the others take access, which finds their
		// memory or faults
		var win []byte
		var winBase, winLimit uint64
		if lookup {
			if data, base := w.atomWindow(o, lane); uint64(len(data)) >= size && base&7 == 0 {
				win, winBase, winLimit = data, base, uint64(len(data))-size
			}
		}
		// the lanes' address registers, or zeros for a variable's address
		// alone ([counter]: o.addrConst is all of it)
		addrRow := &zeroLanes
		if o.addrBase >= 0 {
			addrRow = (*lanes)(f.regs[int(o.addrBase)*warpSize:])
		}
		if win != nil && (addInt32 || addF32) {
			// atom/red.add on 32-bit integers and .f32 in global or the
			// CTA's shared memory, the common cases: one fetch-and-add
			// (global f32: compare-and-swap loop; shared: a plain update)
			// per lane on the window's word, as long as the lanes stay in
			// the window (the general loop below takes over at the first
			// that does not, and faults there if it must)
			addrs, vals := addrRow, (*lanes)(f.regs[int(bs[0])*warpSize:])
			var olds *lanes
			if dsts[0] >= 0 && !info.unread { // (a destination nobody reads keeps its values)
				olds = (*lanes)(f.regs[int(dsts[0])*warpSize:])
			}
			if l0 := bits.TrailingZeros32(mask); mask&(mask-1) != 0 && sameInLanes(addrs, mask, l0) {
				// every lane at one word (a counter, a sum): the lanes'
				// adds in lane order as one atomic step, a valid order of
				// theirs, each lane's old value the running total
				if off := addrs[l0] + o.addrConst - winBase; off <= winLimit && off&3 == 0 {
					p := (*uint32)(unsafe.Pointer(&win[off]))
					switch {
					case addF32 && o.space == mem.SpaceShared:
						addF32SharedUniform(p, vals, olds, mask)
					case addF32:
						addF32Uniform(p, vals, olds, mask)
					case o.space == mem.SpaceShared:
						addInt32Uniform(p, vals, olds, mask, it, false)
					default:
						addInt32Uniform(p, vals, olds, mask, it, true)
					}
					mask = 0
				}
			}
			if o.space == mem.SpaceShared && !addF32 {
				mask = addSharedInt32Lanes(win[:winLimit+4], addrs, vals, olds, o.addrConst-winBase, mask, it)
			}
			for ; mask != 0; mask &= mask - 1 {
				lane := bits.TrailingZeros32(mask)
				off := addrs[lane] + o.addrConst - winBase
				if off > winLimit || off&3 != 0 {
					break
				}
				b, p := uint32(vals[lane]), (*uint32)(unsafe.Pointer(&win[off]))
				var old uint64
				switch {
				case addF32 && o.space == mem.SpaceShared: // (shared f32 keeps subnormals)
					old = uint64(*p)
					*p = uint32(f32Add(old, uint64(b)))
				case addF32:
					old = casAddF32(p, b)
				case o.space == mem.SpaceShared: // the cluster's goroutine alone: a plain update
					old = it.norm(uint64(*p))
					*p += b
				default:
					old = it.norm(uint64(atomic.AddUint32(p, b) - b))
				}
				if olds != nil {
					olds[lane] = old
				}
			}
		}
		if win != nil && (word32 != nil || word64 != nil) {
			// the lanes' words in the window, without a call of the op's
			// function per lane (the general loop below takes over at the
			// first lane outside it, and faults there if it must)
			addrs, vals := addrRow, (*lanes)(f.regs[int(bs[0])*warpSize:])
			var olds, cs *lanes
			if dsts[0] >= 0 && !info.unread { // (a destination nobody reads keeps its values)
				olds = (*lanes)(f.regs[int(dsts[0])*warpSize:])
			}
			if o.c >= 0 {
				cs = (*lanes)(f.regs[int(o.c)*warpSize:])
			}
			global := o.space == mem.SpaceGlobal
			if word32 != nil {
				mask = wordLanes(win, winBase, winLimit, o.addrConst, addrs, vals, cs, olds, mask, word32, fold, kind, it.signed, unreadFold, it, global)
			} else {
				mask = wordLanes(win, winBase, winLimit, o.addrConst, addrs, vals, cs, olds, mask, word64, fold, kind, it.signed, unreadFold, intType{bits: 64}, global)
			}
		}
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			// shared memory belongs to one goroutine (the cluster's): plain
			// updates are atomic there; global memory needs the host's
			// atomics (atomic_mem.go)
			global := o.space == mem.SpaceGlobal || w.spaceOf(o, lane) == mem.SpaceGlobal
			shared := !global
			var p []byte
			if win != nil {
				if off := addrRow[lane] + o.addrConst - winBase; off <= winLimit && off&(size-1) == 0 {
					p = win[off : off+size : off+size]
				}
			}
			if p == nil {
				if p = w.access(o, lane, size); p == nil {
					return
				}
			}
			fn := apply
			if applyGlobal != nil && global {
				fn = applyGlobal
			}
			var cv uint64
			if o.c >= 0 {
				cv = f.regs[int(o.c)*warpSize+lane]
			}
			for k := range vec {
				e := p[k*o.size : (k+1)*o.size]
				var old uint64
				if shared {
					old = mem.Load(e)
					mem.Store(e, fn(old, f.regs[int(bs[k])*warpSize+lane], cv))
				} else {
					old = rmw(e, fn, f.regs[int(bs[k])*warpSize+lane], cv)
				}
				if dsts[k] >= 0 {
					if isInt {
						old = it.norm(old)
					}
					f.regs[int(dsts[k])*warpSize+lane] = old
				}
			}
		}
	}
	return nil
}

// atomInfo is what batches need of an atom or red (batch_atomic.go): its
// first value's and destination's slots (-1: none), and whether it is an
// add of one 32- or 64-bit integer, f32 or f64; buffer: its adds may be
// buffered (atomic_buffer.go); unread: no instruction reads its old value.
type atomInfo struct {
	val, dst         int32
	addInt32, addF32 bool
	addF64, addInt64 bool
	buffer, unread   bool
	it               intType
	// combine: the buffered op of a max, min, and, or, xor, exch, inc or
	// dec whose old value no instruction reads (atomic_combine.go; redAdd:
	// none); fold: the same op where a warp's lanes at one global or
	// shared word fold into one step (combineWord)
	combine, fold uint8
}

// atomicOp returns the new memory value from the old one and the operands.
func atomicOp(op, t string, it intType, isInt bool) func(old, b, c uint64) uint64 {
	if f, lanes, ok := floatType(t); ok {
		w := uint(f.Width())
		emask := uint64(1)<<w - 1
		if f == fp.F64 {
			emask = ^uint64(0)
		}
		var elem func(x, y uint64) uint64
		switch op {
		case ".add": // round to nearest even; .noftz keeps subnormals
			elem = func(x, y uint64) uint64 { return f.Add(x, y, fp.RN) }
		case ".min", ".max":
			isMax := op == ".max"
			elem = func(x, y uint64) uint64 { return pickMinMax(f, isMax, x, y) }
		case ".exch":
			return func(_, b, _ uint64) uint64 { return b }
		default:
			return nil
		}
		return func(old, b, _ uint64) uint64 {
			var r uint64
			for k := uint(0); k < uint(lanes); k++ {
				r |= elem(old>>(k*w)&emask, b>>(k*w)&emask) << (k * w)
			}
			return r
		}
	}
	if t == ".b16" && op == ".cas" { // atom.cas.b16
		return func(old, b, c uint64) uint64 {
			if old&0xffff == b&0xffff {
				return c & 0xffff
			}
			return old
		}
	}
	if !isInt {
		return nil
	}
	less := func(a, b uint64) bool {
		if it.signed {
			return it.signedVal(a) < it.signedVal(b)
		}
		return a&it.mask() < b&it.mask()
	}
	switch op {
	case ".add":
		return func(old, b, _ uint64) uint64 { return it.norm(old + b) }
	case ".min":
		return func(old, b, _ uint64) uint64 {
			if less(b, old) {
				return b
			}
			return old
		}
	case ".max":
		return func(old, b, _ uint64) uint64 {
			if less(old, b) {
				return b
			}
			return old
		}
	case ".inc": // ((old >= b) ? 0 : old+1)
		return func(old, b, _ uint64) uint64 {
			if old&it.mask() >= b&it.mask() {
				return 0
			}
			return old + 1
		}
	case ".dec": // ((old == 0) || (old > b)) ? b : old-1
		return func(old, b, _ uint64) uint64 {
			if old&it.mask() == 0 || old&it.mask() > b&it.mask() {
				return b
			}
			return old - 1
		}
	case ".and":
		return func(old, b, _ uint64) uint64 { return old & b }
	case ".or":
		return func(old, b, _ uint64) uint64 { return old | b }
	case ".xor":
		return func(old, b, _ uint64) uint64 { return old ^ b }
	case ".exch":
		return func(_, b, _ uint64) uint64 { return b }
	case ".cas":
		return func(old, b, c uint64) uint64 {
			if old&it.mask() == b&it.mask() {
				return c
			}
			return old
		}
	}
	return nil
}

// addInt32Uniform adds the values of mask's lanes to the word at p in one
// step (a fetch-and-add of their sum with global, a plain update in the
// cluster's own shared memory), and gives each lane the word as it was
// before its own add, in lane order.
func addInt32Uniform(p *uint32, vals, olds *lanes, mask uint32, it intType, global bool) {
	var sum uint32
	for m := mask; m != 0; m &= m - 1 {
		sum += uint32(vals[bits.TrailingZeros32(m)])
	}
	var old uint32
	if global {
		old = atomic.AddUint32(p, sum) - sum
	} else {
		old = *p
		*p += sum
	}
	if olds == nil {
		return
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		olds[l] = it.norm(uint64(old))
		old += uint32(vals[l])
	}
}

// addF32Uniform is atom.add.f32 of mask's lanes on the global word at p:
// the lanes' adds in lane order (atomAddF32Flush each), stored with one
// compare-and-swap, again from the new word if another worker changed it.
func addF32Uniform(p *uint32, vals, olds *lanes, mask uint32) {
	for {
		cur := atomic.LoadUint32(p)
		acc := uint64(cur)
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			if olds != nil {
				olds[l] = acc
			}
			acc = atomAddF32Flush(acc, uint64(uint32(vals[l])))
		}
		if atomic.CompareAndSwapUint32(p, cur, uint32(acc)) {
			return
		}
	}
}

// atomAddF32Flush is atom.add.f32 on global memory: subnormal inputs and
// results flushed to zeros of their sign (fp.F32.FlushSubnormal), the sum
// rounded to nearest even.
func atomAddF32Flush(old, b uint64) uint64 {
	sum := math.Float32frombits(ftzBits32(uint32(old))) + math.Float32frombits(ftzBits32(uint32(b)))
	return uint64(ftzBits32(uint32(nan32(math.Float32bits(sum)))))
}

// ftzBits32 flushes the f32 subnormal with bits v to a zero of its sign.
func ftzBits32(v uint32) uint32 {
	if v&0x7f800000 == 0 {
		return v & 0x80000000
	}
	return v
}

// atomicWord32 returns the function that runs atom/red op (not .add) on
// one 32-bit integer at p with operands b and c and returns the old value,
// or nil where it does not serve: max, min and cas in loops of their own,
// the others through apply (atomicOp's) on the word itself, without the
// general path's per-lane slices and calls. A global word
// takes the host's atomics (fetch-and-op for .and, .or and .exch, else a
// compare-and-swap only where the word changes); shared memory belongs to
// the cluster's goroutine.
func atomicWord32(op string, n, vec int, it intType, isInt bool, apply func(old, b, c uint64) uint64) func(p *uint32, b, c uint32, global bool) uint32 {
	switch {
	case vec != 1 || n != 4 || !isInt || op == ".add":
		return nil
	case op == ".max" || op == ".min": // (through apply's calls a per-bucket max/min kernel ran 20% slower)
		isMax, signed := op == ".max", it.signed
		return func(p *uint32, b, _ uint32, global bool) uint32 { return minMaxWord32(p, b, isMax, signed, global) }
	case op == ".cas":
		return casWord32
	}
	fetch := map[string]func(*uint32, uint32) uint32{".and": atomic.AndUint32, ".or": atomic.OrUint32, ".exch": atomic.SwapUint32}[op]
	return func(p *uint32, b, c uint32, global bool) uint32 {
		switch {
		case !global:
			old := *p
			*p = uint32(apply(uint64(old), uint64(b), uint64(c)))
			return old
		case fetch != nil:
			return fetch(p, b)
		}
		for {
			old := atomic.LoadUint32(p)
			next := uint32(apply(uint64(old), uint64(b), uint64(c)))
			if next == old || atomic.CompareAndSwapUint32(p, old, next) {
				return old
			}
		}
	}
}

// minMaxWord32 is atom.max (isMax) or .min of b on the 32-bit integer at
// p, signed or not, and returns the old value; a global word (atomic) is
// written only where b replaces it.
func minMaxWord32(p *uint32, b uint32, isMax, signed, global bool) uint32 {
	for {
		var old uint32 // (a global word's plain read would race with another worker's write)
		if global {
			old = atomic.LoadUint32(p)
		} else {
			old = *p
		}
		less := old < b // (old before b: a max replaces it)
		if signed {
			less = int32(old) < int32(b)
		}
		if less != isMax || old == b {
			return old
		}
		if !global {
			*p = b
			return old
		}
		if atomic.CompareAndSwapUint32(p, old, b) {
			return old
		}
	}
}

// casWord32 is atom.cas of the 32-bit word at p with b and c, and returns
// the old value; a global word (atomic) is written only where it equals b.
func casWord32(p *uint32, b, c uint32, global bool) uint32 {
	if !global {
		old := *p
		if old == b {
			*p = c
		}
		return old
	}
	for {
		old := atomic.LoadUint32(p)
		if old != b || atomic.CompareAndSwapUint32(p, b, c) {
			return old
		}
	}
}

// casAddF32 is atom.add.f32 on the global word at p (atomAddF32Flush, in
// a compare-and-swap loop); it returns the old value.
func casAddF32(p *uint32, b uint32) uint64 {
	for {
		old := atomic.LoadUint32(p)
		if atomic.CompareAndSwapUint32(p, old, uint32(atomAddF32Flush(uint64(old), uint64(b)))) {
			return uint64(old)
		}
	}
}

// addSharedInt32Lanes is atom/red.add.u32/s32 on the CTA's shared memory
// sh for the lanes of mask, in lane order, each word at addrs[lane]+adj: a
// plain update (the cluster's goroutine alone reaches it), each lane's old
// value to olds (nil: unread). It stops at the first lane whose word lies
// outside sh or is misaligned and returns that lane and those after it
// (the general path faults there).
func addSharedInt32Lanes(sh []byte, addrs, vals, olds *lanes, adj uint64, mask uint32, it intType) uint32 {
	limit := uint64(len(sh)) - 4
	for ; mask != 0; mask &= mask - 1 {
		lane := bits.TrailingZeros32(mask)
		off := addrs[lane] + adj
		if off > limit || off&3 != 0 {
			return mask
		}
		p := (*uint32)(unsafe.Pointer(&sh[off]))
		if olds != nil {
			olds[lane] = it.norm(uint64(*p))
		}
		*p += uint32(vals[lane])
	}
	return 0
}

// atomWindow is windowAt for an atomic, whose address may also be a
// variable's alone (no address register: [counter], a block's shared
// maximum): the CTA's shared memory, or the global allocation holding it.
func (w *Warp) atomWindow(o *Op, lane int) ([]byte, uint64) {
	if o.addrBase >= 0 || o.frameAddr {
		return w.windowAt(o, lane)
	}
	switch o.space {
	case mem.SpaceShared:
		return w.cta.shared.Data, 0
	case mem.SpaceGlobal:
		if base, data, ok := w.cta.l.prog.global.Find(o.addrConst); ok {
			w.plainGlobal(base)
			return data, base
		}
	}
	return nil, 0
}
