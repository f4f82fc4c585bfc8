package exec

// Control flow (9.7.12): bra, brx.idx, call, ret, exit; trap (9.7.19);
// CTA barriers (9.7.13.1).

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"unsafe"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
	"github.com/ptxvm/ptxvm/ptx"
)

func init() {
	register(lowerBra, "bra")
	register(lowerBrx, "brx")
	register(lowerRet, "ret")
	register(lowerExit, "exit")
	register(lowerTrap, "trap")
	register(lowerBar, "bar", "barrier")
	register(lowerCall, "call")
}

func lowerBra(l *lowering, in *ir.Inst, o *Op) error {
	if len(in.Operands) != 1 || in.Operands[0].Kind != ir.OpLabel {
		return l.unsupported(in, "indirect branch")
	}
	o.target = int32(in.Operands[0].Label)
	o.bra = true
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		for m := mask; m != 0; m &= m - 1 {
			f.pc[bits.TrailingZeros32(m)] = o.target
		}
	}
	return nil
}

// brx.idx index, tlist: the targets come from the .branchtargets list.
func lowerBrx(l *lowering, in *ir.Inst, o *Op) error {
	if len(in.Operands) != 2 || in.Operands[1].Kind != ir.OpName {
		return l.unsupported(in, "target list")
	}
	var targets []int32
	for _, name := range l.branchTargets(in.Operands[1].Name) {
		i, ok := l.f.IR.Labels[name]
		if !ok {
			return l.unsupported(in, "branch target "+name)
		}
		targets = append(targets, int32(i))
	}
	idx, err := l.src(in, 0)
	if err != nil {
		return err
	}
	o.a, o.aux = idx, targets
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		ts := o.aux.([]int32)
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			i := uint32(f.regs[int(o.a)*warpSize+lane])
			if int(i) >= len(ts) {
				w.fail(o, 1<<lane, FaultTrap, "brx.idx index out of range of the target list")
				return
			}
			f.pc[lane] = ts[i]
		}
	}
	return nil
}

// branchTargets expands a .branchtargets list (labels, and N<5> ranges, 11.3.1).
func (l *lowering) branchTargets(name string) []string {
	var out []string
	var walk func(b *ptx.Block)
	walk = func(b *ptx.Block) {
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *ptx.TargetList:
				if s.Name != name {
					continue
				}
				for _, t := range s.Targets {
					if i := strings.IndexByte(t, '<'); i > 0 && strings.HasSuffix(t, ">") {
						n, _ := strconv.Atoi(t[i+1 : len(t)-1])
						for k := 0; k < n; k++ {
							out = append(out, t[:i]+strconv.Itoa(k))
						}
						continue
					}
					out = append(out, t)
				}
			case *ptx.Block:
				walk(s)
			}
		}
	}
	walk(l.f.IR.Decl.Body)
	return out
}

func lowerRet(l *lowering, in *ir.Inst, o *Op) error {
	o.ends = true
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		f.active &^= mask
		f.returned |= mask
		if len(w.frames) == 1 {
			w.exitLanes(mask)
		}
	}
	return nil
}

func lowerExit(l *lowering, in *ir.Inst, o *Op) error {
	o.ends = true
	o.exec = func(w *Warp, o *Op, mask uint32) {
		w.exitLanes(mask)
		for _, f := range w.frames {
			f.active &^= mask
		}
	}
	return nil
}

func lowerTrap(l *lowering, in *ir.Inst, o *Op) error {
	o.exec = func(w *Warp, o *Op, mask uint32) { w.fail(o, mask, FaultTrap, "trap instruction") }
	return nil
}

// bar{.cta}.sync / barrier{.cta}.sync a{, b}: wait until b threads (all of
// the CTA's by default) have arrived at barrier a. Only .sync (and the
// .aligned variants) for now; .arrive and .red come with the cooperation work.
// bar/barrier{.cta}.sync/.arrive/.red (9.7.13.1): a (barrier 0..15) and b
// (thread count) as immediates or registers (read from the first lane),
// .red.popc.u32 d / .red.and|or.pred p with predicate {!}c.
func lowerBar(l *lowering, in *ir.Inst, o *Op) error {
	if hasMod(in, ".warp") {
		return lowerBarWarp(l, in, o)
	}
	if hasMod(in, ".cluster") {
		return lowerBarCluster(l, in, o)
	}
	red := ""
	for _, m := range []string{".popc", ".and", ".or"} {
		if hasMod(in, ".red") && hasMod(in, m) {
			red = m
		}
	}
	arrive := hasMod(in, ".arrive")
	if !hasMod(in, ".sync") && !arrive && red == "" {
		return l.unsupported(in, "")
	}
	ops := in.Operands
	dst, pdst := int32(-1), int32(-1)
	var predIdx int32 = -1
	predNeg := false
	if red != "" {
		if ops[0].Kind == ir.OpReg && ops[0].Reg.Type == ".pred" {
			pdst = l.f.slot[ops[0].Reg.ID]
		} else {
			d, err := l.dst(in, 0)
			if err != nil {
				return err
			}
			dst = d
		}
		p, neg, err := l.pred(in, len(ops)-1)
		if err != nil {
			return err
		}
		predIdx, predNeg = p, neg
		ops = ops[1 : len(ops)-1]
	}
	first := len(in.Operands) - len(ops) - boolInt(red != "")
	if len(ops) == 0 {
		return l.unsupported(in, "barrier operand")
	}
	a, err := l.src(in, first)
	if err != nil {
		return err
	}
	b := int32(-1)
	if len(ops) > 1 {
		if b, err = l.src(in, first+1); err != nil {
			return err
		}
	}
	if ops[0].Kind == ir.OpImm && ops[0].Imm.Uint64() > 15 {
		return &Error{in.Pos, "barrier number must be 0..15"}
	}
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		lane := bits.TrailingZeros32(mask)
		id := f.regs[int(a)*warpSize+lane]
		count := 0
		if b >= 0 {
			count = int(uint32(f.regs[int(b)*warpSize+lane]))
			if count == 0 || count%warpSize != 0 || count > w.cta.threads {
				w.fail(o, mask, FaultUndefined, fmt.Sprintf("barrier thread count %d is not a positive multiple of the warp size up to the CTA's %d threads", count, w.cta.threads))
				return
			}
		}
		if id > 15 {
			w.fail(o, mask, FaultUndefined, fmt.Sprintf("barrier number %d is not 0..15", id))
			return
		}
		if arrive {
			w.cta.arrive(int(id), mask, count, 0, nil)
			return
		}
		var pred uint32
		if predIdx >= 0 {
			pred = f.preds[predIdx]
			if predNeg {
				pred = ^pred
			}
		}
		w.cta.arrive(int(id), mask, count, pred, &barWaiter{w: w, f: f, lanes: mask, red: red, dst: dst, pdst: pdst})
	}
	return nil
}

// barrier.cluster.arrive / .wait (9.7.13.3): arrive marks the lanes'
// arrival; wait blocks until the phase they arrived in has completed, i.e.
// every non-exited thread of the cluster has arrived (cluster.go).
func lowerBarCluster(l *lowering, in *ir.Inst, o *Op) error {
	switch {
	case hasMod(in, ".arrive"):
		o.exec = func(w *Warp, o *Op, mask uint32) { w.cta.cl.arrive(w, mask) }
	case hasMod(in, ".wait"):
		o.exec = func(w *Warp, o *Op, mask uint32) {
			for m := mask; m != 0; m &= m - 1 {
				if l := bits.TrailingZeros32(m); w.clusterTarget[l] == 0 {
					w.fail(o, 1<<l, FaultUndefined, "barrier.cluster.wait without a preceding barrier.cluster.arrive")
					return
				}
			}
			if w.clusterDone(mask) {
				return
			}
			f := w.top()
			f.blocked |= mask
			w.cta.cl.wait = append(w.cta.cl.wait, barWaiter{w: w, f: f, lanes: mask})
		}
	default:
		return l.unsupported(in, "")
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// callInfo is what a call op needs: the callee, and how arguments and
// results move between the frames.
type callInfo struct {
	callee  *Func
	builtin builtin
	args    []transfer
	results []transfer
}

// transfer moves one argument or result: from a caller register or .param
// variable (a frame offset) to a callee parameter, or back.
type transfer struct {
	callerSlot  int32 // register slot, or -1
	callerFrame int64 // frame offset of a .param variable, when callerSlot < 0
	calleeSlot  int32
	calleeFrame int64
	size        uint64
}

func lowerCall(l *lowering, in *ir.Inst, o *Op) error {
	ops := in.Operands
	var results, args []ir.Operand
	i := 0
	if i < len(ops) && ops[i].Kind == ir.OpTuple && len(ops) > 1 && ops[1].Kind != ir.OpTuple {
		results = ops[i].Elems
		i++
	}
	if i >= len(ops) || ops[i].Kind != ir.OpFunc && ops[i].Kind != ir.OpReg {
		return l.unsupported(in, "call target")
	}
	if ops[i].Kind == ir.OpReg { // indirect: the callee is known per lane at run time
		target := l.reg(ops[i])
		if i+1 < len(ops) && ops[i+1].Kind == ir.OpTuple {
			args = ops[i+1].Elems
		}
		return l.lowerIndirectCall(in, o, target, args, results)
	}
	callee := l.p.funcs[ops[i].Func]
	i++
	if i < len(ops) && ops[i].Kind == ir.OpTuple {
		args = ops[i].Elems
	}
	ci, err := l.callInfo(in, callee, args, results)
	if err != nil {
		return err
	}
	o.aux = ci
	o.exec = execCall
	return nil
}

// indirectCall is the data of a call through a register: the target slot
// and, per callee met at run time, how to move arguments and results.
type indirectCall struct {
	target        int32
	args, results []ir.Operand
	l             *lowering // to build the transfers of a callee when first met
	byCallee      map[*Func]*callInfo
}

func (l *lowering) lowerIndirectCall(in *ir.Inst, o *Op, target int32, args, results []ir.Operand) error {
	ic := &indirectCall{target: target, args: args, results: results, byCallee: map[*Func]*callInfo{}}
	// Build every possible callee's transfers now: the lowering state is
	// gone at run time. Callees are the module's functions of the right arity.
	for _, f := range l.p.Module.Funcs {
		if f.Entry || len(f.Params) < len(args) || len(f.Results) != len(results) {
			continue
		}
		if ci, err := l.callInfo(in, l.p.funcs[f], args, results); err == nil {
			ic.byCallee[l.p.funcs[f]] = ci
		}
	}
	o.aux = ic
	o.exec = func(w *Warp, o *Op, mask uint32) {
		ic := o.aux.(*indirectCall)
		f := w.top()
		first := bits.TrailingZeros32(mask)
		addr := f.regs[int(ic.target)*warpSize+first]
		callee := w.cta.l.prog.funcAt(addr)
		ci := ic.byCallee[callee]
		if ci == nil {
			w.fail(o, 1<<first, FaultTrap, fmt.Sprintf("indirect call to 0x%x, which is not a function of matching signature", addr))
			return
		}
		// Lanes calling another function run the call again afterwards.
		var now uint32
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			if f.regs[int(ic.target)*warpSize+lane] == addr {
				now |= 1 << lane
			} else {
				f.pc[lane] = o.pc
			}
		}
		call := *o
		call.aux = ci
		execCall(w, &call, now)
	}
	return nil
}

// callInfo builds the transfers of a call of callee.
func (l *lowering) callInfo(in *ir.Inst, callee *Func, args, results []ir.Operand) (*callInfo, error) {
	ci := &callInfo{callee: callee}
	if !callee.IR.Defined {
		b := builtins[callee.IR.Name]
		if b == nil {
			return nil, l.unsupported(in, "call of the undefined function "+callee.IR.Name)
		}
		ci.builtin = b
	}
	mk := func(caller ir.Operand, p *ir.Param) (transfer, error) {
		t := transfer{callerSlot: -1, calleeSlot: -1}
		switch {
		case caller.Kind == ir.OpReg:
			t.callerSlot = l.reg(caller)
			t.size = 8
		case caller.Kind == ir.OpVar:
			off, ok := l.f.frameOff[caller.Var]
			if !ok {
				return t, l.unsupported(in, "argument "+caller.Var.Name)
			}
			t.callerFrame, t.size = int64(off), uint64(caller.Var.Size)
		case caller.Kind == ir.OpImm:
			t.callerSlot = l.constSlot(caller.Imm.Bits)
			t.size = 8
		default:
			return t, l.unsupported(in, "argument form")
		}
		if p == nil {
			return t, nil
		}
		if p.Reg != nil {
			t.calleeSlot = callee.slotOf(p.Reg)
		} else {
			t.calleeFrame = int64(callee.frameOffOf(p.Var))
			t.size = min(t.size, uint64(p.Var.Size))
			if t.callerSlot >= 0 {
				t.size = uint64(p.Var.Size)
			}
		}
		return t, nil
	}
	for k, a := range args {
		var p *ir.Param
		if k < len(callee.IR.Params) {
			p = callee.IR.Params[k]
		}
		t, err := mk(a, p)
		if err != nil {
			return nil, err
		}
		ci.args = append(ci.args, t)
	}
	for k, r := range results {
		var p *ir.Param
		if k < len(callee.IR.Results) {
			p = callee.IR.Results[k]
		}
		t, err := mk(r, p)
		if err != nil {
			return nil, err
		}
		ci.results = append(ci.results, t)
	}
	return ci, nil
}

func execCall(w *Warp, o *Op, mask uint32) {
	ci := o.aux.(*callInfo)
	caller := w.top()
	if ci.builtin != nil {
		args := make([][]byte, len(ci.args))
		for k := range ci.args {
			args[k] = make([]byte, 8*warpSize)
			for m := mask; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				putBits(args[k][lane*8:lane*8+8], ci.args[k].read(w, caller, lane))
			}
		}
		res := ci.builtin(w, o, mask, args)
		for k := range ci.results {
			if k < len(res) {
				for m := mask; m != 0; m &= m - 1 {
					lane := bits.TrailingZeros32(m)
					ci.results[k].writeCaller(w, caller, lane, res[k][lane])
				}
			}
		}
		return
	}
	callee := w.pushFrame(ci.callee, mask)
	callee.callOp = o
	for _, t := range ci.args { // (each to its own place in the callee's frame)
		if t.toCalleeLanes(w, caller, callee, mask) {
			continue
		}
		for m := mask; m != 0; m &= m - 1 {
			t.toCallee(w, caller, callee, bits.TrailingZeros32(m))
		}
	}
}

// read returns the caller's value of a transfer (up to 8 bytes).
func (t transfer) read(w *Warp, caller *frame, lane int) uint64 {
	if t.callerSlot >= 0 {
		return caller.regs[int(t.callerSlot)*warpSize+lane]
	}
	p := w.local[lane][caller.base+uint64(t.callerFrame):]
	return mem.Load(p[:min(8, int(t.size))])
}

func (t transfer) writeCaller(w *Warp, caller *frame, lane int, v uint64) {
	if t.callerSlot >= 0 {
		caller.regs[int(t.callerSlot)*warpSize+lane] = v
		return
	}
	putBits(w.local[lane][caller.base+uint64(t.callerFrame):][:min(8, int(t.size))], v)
}

func (t transfer) toCallee(w *Warp, caller, callee *frame, lane int) {
	if t.calleeSlot >= 0 {
		callee.regs[int(t.calleeSlot)*warpSize+lane] = t.read(w, caller, lane)
		return
	}
	dst := w.local[lane][callee.base+uint64(t.calleeFrame):][:t.size]
	if t.callerSlot >= 0 {
		putBits(dst, caller.regs[int(t.callerSlot)*warpSize+lane])
		return
	}
	moveBytes(dst, w.local[lane][caller.base+uint64(t.callerFrame):][:t.size])
}

// toCalleeLanes is toCallee of a 4- or 8-byte parameter in the callee's
// frame for the lanes of mask at once, through the lanes' local memory
// laid out at stride bytes in localBack (growLocal); false: not such a
// parameter, toCallee takes it lane by lane.
func (t transfer) toCalleeLanes(w *Warp, caller, callee *frame, mask uint32) bool {
	stride, back := w.localStride, w.localBack
	dst, src := callee.base+uint64(t.calleeFrame), caller.base+uint64(t.callerFrame)
	if t.calleeSlot >= 0 || t.size != 4 && t.size != 8 || !w.inLocalStride(dst, t.size) || t.callerSlot < 0 && !w.inLocalStride(src, t.size) {
		return false
	}
	if mask == ^uint32(0) {
		// every lane: strided over the lanes' parts, without a slice a lane
		p := unsafe.Pointer(unsafe.SliceData(back))
		var tmp lanes
		from := &tmp
		if t.callerSlot >= 0 {
			from = (*lanes)(caller.regs[int(t.callerSlot)*warpSize:])
		} else {
			if t.size == 8 {
				loadStrided[uint64](unsafe.Add(p, src), int(stride), from)
			} else {
				loadStrided[uint32](unsafe.Add(p, src), int(stride), from)
			}
		}
		if t.size == 8 {
			storeStrided[uint64](unsafe.Add(p, dst), int(stride), from)
		} else {
			storeStrided[uint32](unsafe.Add(p, dst), int(stride), from)
		}
		return true
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		d := back[uint64(l)*stride+dst:][:t.size]
		switch {
		case t.callerSlot >= 0:
			putBits(d, caller.regs[int(t.callerSlot)*warpSize+l])
		default:
			moveBytes(d, back[uint64(l)*stride+src:][:t.size])
		}
	}
	return true
}

// inLocalStride reports whether bytes [off, off+n) of every lane's local
// memory lie in its part of localBack (stride bytes a lane, growLocal).
func (w *Warp) inLocalStride(off, n uint64) bool {
	stride := w.localStride
	return stride > 0 && uint64(len(w.localBack)) >= warpSize*stride && off+n <= stride
}

// moveBytes copies src to dst (as long): a parameter's common sizes as one
// load and store, without a call of memmove per lane.
func moveBytes(dst, src []byte) {
	switch len(dst) {
	case 4:
		binary.LittleEndian.PutUint32(dst, binary.LittleEndian.Uint32(src))
	case 8:
		binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
	default:
		copy(dst, src)
	}
}

// copyResults moves a returning callee's results into the caller.
func (ci *callInfo) copyResults(w *Warp, caller, callee *frame) {
	lanes := callee.returned
	stride, back := w.localStride, w.localBack
	for _, t := range ci.results {
		// frame to frame, 4 or 8 bytes (clang's retval0): for all lanes
		// at once, through localBack at the lanes' stride (growLocal)
		dst, src := caller.base+uint64(t.callerFrame), callee.base+uint64(t.calleeFrame)
		if t.calleeSlot < 0 && t.callerSlot < 0 && (t.size == 4 || t.size == 8) && w.inLocalStride(dst, t.size) && w.inLocalStride(src, t.size) {
			for m := lanes; m != 0; m &= m - 1 {
				l := uint64(bits.TrailingZeros32(m))
				moveBytes(back[l*stride+dst:][:t.size], back[l*stride+src:][:t.size])
			}
			continue
		}
		for m := lanes; m != 0; m &= m - 1 {
			ci.copyResult(w, caller, callee, t, bits.TrailingZeros32(m))
		}
	}
}

// copyResult moves result t of a returning callee into the caller for
// lane.
func (ci *callInfo) copyResult(w *Warp, caller, callee *frame, t transfer, lane int) {
	if t.calleeSlot < 0 && t.callerSlot < 0 { // frame to frame: the bytes
		moveBytes(w.local[lane][caller.base+uint64(t.callerFrame):][:t.size], w.local[lane][callee.base+uint64(t.calleeFrame):][:t.size])
		return
	}
	var v []byte
	if t.calleeSlot >= 0 {
		buf := make([]byte, 8)
		putBits(buf, callee.regs[int(t.calleeSlot)*warpSize+lane])
		v = buf[:min(8, int(t.size))]
	} else {
		v = w.local[lane][callee.base+uint64(t.calleeFrame):][:t.size]
	}
	if t.callerSlot >= 0 {
		caller.regs[int(t.callerSlot)*warpSize+lane] = mem.Load(pad8(v))
	} else {
		copy(w.local[lane][caller.base+uint64(t.callerFrame):][:t.size], v)
	}
}

func pad8(b []byte) []byte {
	if len(b) == 1 || len(b) == 2 || len(b) == 4 || len(b) == 8 {
		return b
	}
	p := make([]byte, 8)
	copy(p, b)
	return p
}

func (f *Func) slotOf(r *ir.Reg) int32 { return f.slot[r.ID] }

func (f *Func) frameOffOf(v *ir.Var) uint64 { return f.frameOff[v] }
