package exec

// Warp collectives (9.7.9.6 shfl.sync, 9.7.13.2 bar.warp.sync, 9.7.13.8-14
// vote, match.sync, redux.sync, elect.sync) and the deprecated shfl/vote.
//
// A .sync collective makes each executing lane wait until every non-exited
// lane named in its membermask has executed a collective with the same
// qualifiers and the same membermask; the lanes need not be at the same
// instruction. An arriving lane records its inputs (frame.arr) and waits
// (frame.syncWait, which pick skips); when a group is complete its results
// are computed from the recorded inputs and written to each lane's own
// destinations. Lanes that are not threads of the CTA count as exited.
// Lanes whose guard predicate is false arrive without contributing (the
// manual: "predicated active" threads take part in the operation; shfl's
// Semantics let others read such a lane, getting an unpredictable value,
// which ptxvm reports), unless their membermask leaves them out.
// Where the manual calls a use undefined, the launch fails with a fault:
// a lane not in its own membermask, lanes that wait on each other at
// collectives of different kinds or masks, a shfl reading a lane that does
// not take part. The deprecated non-.sync forms act on the lanes that
// execute them together.

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/ptxvm/ptxvm/internal/fp"
	"github.com/ptxvm/ptxvm/internal/ir"
)

func init() {
	register(lowerShfl, "shfl")
	register(lowerVote, "vote")
	register(lowerMatch, "match")
	register(lowerRedux, "redux")
	register(lowerElect, "elect")
}

// FaultUndefined is a use the manual leaves undefined, reported rather
// than given an invented result.
const FaultUndefined FaultKind = "undefined behavior"

// collOp is a collective instruction after lowering.
type collOp struct {
	key     string // opcode and modifiers: arrivals match on it and the mask
	sync    bool
	mask    int32   // membermask slot (.sync forms)
	ins     []int32 // value inputs, read at arrival
	predIn  int32   // predicate input index, -1: none
	predNeg bool
	dst     int32 // value destination slot, -1: none
	pdst    int32 // predicate destination index, -1: none
	// finish computes the results of a complete group; contrib are the
	// lanes of the group whose guard was true
	finish func(w *Warp, f *frame, o *Op, group, contrib uint32)
	// whole, where the collective has one, computes finish's results for
	// a group of all 32 lanes, every one contributing, from the registers
	// (wholeWarp)
	whole func(f *frame)
	// part, where the collective has one, computes finish's results for
	// one group of a full warp whose membermasks split it into groups,
	// every lane contributing, from the registers (partition)
	part func(f *frame, group uint32)
	// fullMask: the membermask is the immediate 0xffffffff
	fullMask bool
	// shfl: a shfl with immediate b and c, the table of its trace body
	// (trace.go), or nil
	shfl *shflTable
}

// shflTable is what the trace body of a whole-warp shfl with immediate b
// and c reads (simdgen's traceShfl; TestTraceLayouts pins it): per 4-lane
// chunk of the result, the byte offset in the source row of its 4
// consecutive source lanes, or -1; every lane's source lane; the lanes
// whose source is valid; whether the shfl has a predicate destination.
type shflTable struct {
	chunk   [warpSize / 4]int32
	lane    [warpSize]uint8
	pvals   uint32
	hasPred uint32
}

func newShflTable(perm *[warpSize]uint8, pvals uint32) *shflTable {
	t := &shflTable{lane: *perm, pvals: pvals}
	for j := range t.chunk {
		src := perm[4*j]
		t.chunk[j] = int32(src) * 8
		for q := 1; q < 4; q++ {
			if perm[4*j+q] != src+uint8(q) {
				t.chunk[j] = -1
			}
		}
	}
	return t
}

// arrival is what a lane brought to a collective.
type arrival struct {
	op      *Op
	mask    uint32
	in      [3]uint64
	pred    bool
	contrib bool
}

// lowerCollective fills the common parts of a collective and its exec.
func (l *lowering) lowerCollective(in *ir.Inst, o *Op, c *collOp, maskIdx int) error {
	c.key = in.Opcode + strings.Join(in.Mods, "")
	c.sync = hasMod(in, ".sync")
	if c.sync {
		if maskIdx >= len(in.Operands) {
			return l.unsupported(in, "membermask")
		}
		s, err := l.src(in, maskIdx)
		if err != nil {
			return err
		}
		c.mask = s
	}
	if m := in.Operands[min(maskIdx, len(in.Operands)-1)]; c.sync && m.Kind == ir.OpImm && uint32(m.Imm.Uint64()) == ^uint32(0) {
		c.fullMask = true
	}
	o.aux, o.collective = c, true
	o.exec = execCollective
	return nil
}

// execCollective is the exec of every collective: mask holds the lanes
// whose guard is true; w.issued all lanes at the instruction.
func execCollective(w *Warp, o *Op, mask uint32) {
	c := o.aux.(*collOp)
	f := w.top()
	r := f.regs
	if f.arr == nil {
		f.arr = new([warpSize]arrival)
	}
	lanes := w.issued
	if !c.sync {
		for m := lanes; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			f.arr[l] = c.record(w, f, o, l, lanes, mask&(1<<l) != 0)
		}
		c.finish(w, f, o, lanes, mask)
		return
	}
	if c.wholeWarp(w, f, lanes, mask) || c.partition(w, f, lanes, mask) {
		return
	}
	for m := lanes; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		mm := uint32(r[int(c.mask)*warpSize+l])
		if mm&(1<<l) == 0 && mask&(1<<l) == 0 {
			continue // predicated off and not a member: not part of it
		}
		if mm&(1<<l) == 0 {
			w.fail(o, 1<<l, FaultUndefined, fmt.Sprintf("lane %d is not in its membermask 0x%08x", l, mm))
			return
		}
		f.arr[l] = c.record(w, f, o, l, mm, mask&(1<<l) != 0)
		f.syncWait |= 1 << l
	}
	w.completeSync(f)
}

// wholeCollectives lets tests compare the fast path with the general one.
var wholeCollectives = true

// wholeWarp is a .sync collective's fast path: when every lane of a full
// warp executes it with its guard true, none waits at another collective,
// and every membermask is 0xffffffff, the group is complete at once and
// has every lane contributing, so the results are finish's for that group
// (no lane can be missing or disagree), computed by whole straight from the
// registers. It reports whether it ran.
func (c *collOp) wholeWarp(w *Warp, f *frame, issued, mask uint32) bool {
	if issued != ^uint32(0) || mask != issued {
		return false
	}
	return c.runWhole(w, f)
}

// runWhole runs whole for warp w's frame f, all of whose lanes execute the
// collective with their guards true, when the rest of wholeWarp's
// conditions hold; it reports whether it ran. (The converged loop calls it
// too.)
func (c *collOp) runWhole(w *Warp, f *frame) bool {
	if !wholeCollectives || c.whole == nil || !c.sync || f.syncWait != 0 || w.alive != ^uint32(0) || w.exited != 0 {
		return false
	}
	if !c.fullMask {
		for _, m := range (*lanes)(f.regs[int(c.mask)*warpSize:]) {
			if uint32(m) != ^uint32(0) {
				return false
			}
		}
	}
	c.whole(f)
	return true
}

// partition is a .sync collective's fast path for a full warp whose
// membermasks split it into groups (the masks of __match_any_sync, given
// to __reduce_add_sync): when every lane executes it with its guard true,
// none waits at another collective, and every lane's membermask holds the
// lane and is the membermask of each of its members, each group is
// complete at once with every member contributing, so its results are
// finish's for that group, computed by part from the registers. It
// reports whether it ran.
func (c *collOp) partition(w *Warp, f *frame, issued, mask uint32) bool {
	if !wholeCollectives || c.part == nil || issued != ^uint32(0) || mask != issued || f.syncWait != 0 ||
		w.alive != ^uint32(0) || w.exited != 0 {
		return false
	}
	masks := (*lanes)(f.regs[int(c.mask)*warpSize:])
	for left := ^uint32(0); left != 0; {
		// (no member of an earlier group can be in g: its mask is that
		// group, which lacks the lane g was read from)
		g := uint32(masks[bits.TrailingZeros32(left)])
		if g&(left&-left) == 0 {
			return false // not the lane itself
		}
		for m := g; m != 0; m &= m - 1 {
			if uint32(masks[bits.TrailingZeros32(m)]) != g {
				return false
			}
		}
		left &^= g
	}
	for left := ^uint32(0); left != 0; {
		g := uint32(masks[bits.TrailingZeros32(left)])
		c.part(f, g)
		left &^= g
	}
	return true
}

func (c *collOp) record(w *Warp, f *frame, o *Op, l int, mm uint32, contrib bool) arrival {
	a := arrival{op: o, mask: mm, contrib: contrib}
	for i, s := range c.ins {
		a.in[i] = f.regs[int(s)*warpSize+l]
	}
	if c.predIn >= 0 {
		a.pred = f.preds[c.predIn]&(1<<l) != 0 != c.predNeg
	}
	return a
}

// completeSync finishes every waiting group whose lanes have all arrived;
// it reports whether any lane was released.
func (w *Warp) completeSync(f *frame) bool {
	gone := w.exited | ^w.alive
	released := false
	for pending := f.syncWait; pending != 0; {
		l := bits.TrailingZeros32(pending)
		a := f.arr[l]
		need := a.mask &^ gone
		if need&^f.syncWait != 0 { // someone has not arrived yet
			pending &^= need | 1<<l
			continue
		}
		c := a.op.aux.(*collOp)
		var contrib uint32
		for m := need; m != 0; m &= m - 1 {
			j := bits.TrailingZeros32(m)
			b := f.arr[j]
			if b.op.aux.(*collOp).key != c.key || b.mask != a.mask {
				w.fail(a.op, 1<<l, FaultUndefined, fmt.Sprintf(
					"lane %d waits at %s with membermask 0x%08x while lane %d, in that mask, waits at %s (%s) with membermask 0x%08x",
					l, c.key, a.mask, j, b.op.inst.Pos, b.op.aux.(*collOp).key, b.mask))
				return false
			}
			if b.contrib {
				contrib |= 1 << j
			}
		}
		c.finish(w, f, a.op, need, contrib)
		if w.fault != nil {
			return false
		}
		f.syncWait &^= need
		pending &^= need
		released = true
	}
	return released
}

// Results go to each lane's own destinations (lanes of a group may be at
// different instructions with the same qualifiers).

func setValue(f *frame, j int, v uint64) {
	c := f.arr[j].op.aux.(*collOp)
	if c.dst >= 0 {
		f.regs[int(c.dst)*warpSize+j] = v
	}
}

func setPred(f *frame, j int, v bool) {
	c := f.arr[j].op.aux.(*collOp)
	if c.pdst < 0 {
		return
	}
	if v {
		f.preds[c.pdst] |= 1 << j
	} else {
		f.preds[c.pdst] &^= 1 << j
	}
}

// dstPair lowers d or d|p destinations: a value slot and a predicate.
func (l *lowering) dstPair(in *ir.Inst, c *collOp) error {
	c.dst, c.pdst = -1, -1
	d := in.Operands[0]
	elems := []ir.Operand{d}
	if d.Kind == ir.OpPair {
		elems = d.Elems
	}
	for _, e := range elems {
		switch {
		case e.Kind == ir.OpSink:
		case e.Kind == ir.OpReg && e.Reg.Type == ".pred":
			c.pdst = l.f.slot[e.Reg.ID]
		case e.Kind == ir.OpReg:
			c.dst = l.reg(e)
		default:
			return l.unsupported(in, "destination operand form")
		}
	}
	return nil
}

// shfl{.sync}.mode.b32 d[|p], a, b, c{, membermask} (9.7.9.6 Semantics).
func lowerShfl(l *lowering, in *ir.Inst, o *Op) error {
	c := &collOp{predIn: -1}
	if err := l.dstPair(in, c); err != nil {
		return err
	}
	for i := 1; i <= 3; i++ {
		s, err := l.src(in, i)
		if err != nil {
			return err
		}
		c.ins = append(c.ins, s)
	}
	mode := in.Groups[".mode"]
	for _, m := range []string{".up", ".down", ".bfly", ".idx"} {
		if mode == "" && hasMod(in, m) {
			mode = m
		}
	}
	c.finish = func(w *Warp, f *frame, o *Op, group, contrib uint32) {
		for m := contrib; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			a := f.arr[lane]
			bval, cval := int(a.in[1]&31), int(a.in[2]&31)
			segmask := int(a.in[2] >> 8 & 31)
			maxLane := lane&segmask | cval&^segmask
			minLane := lane & segmask
			var j int
			var pval bool
			switch mode {
			case ".up":
				j = lane - bval
				pval = j >= maxLane
			case ".down":
				j = lane + bval
				pval = j <= maxLane
			case ".bfly":
				j = lane ^ bval
				pval = j <= maxLane
			default: // .idx
				j = minLane | bval&^segmask
				pval = j <= maxLane
			}
			if !pval {
				j = lane
			}
			if contrib&(1<<j) == 0 {
				w.fail(o, 1<<lane, FaultUndefined, fmt.Sprintf(
					"lane %d reads lane %d, which does not take part (exited, not in membermask 0x%08x, or predicated off)", lane, j, group))
				return
			}
			setValue(f, lane, f.arr[j].in[0]&0xffffffff)
			setPred(f, lane, pval)
		}
	}
	kind := map[string]int{".up": 0, ".down": 1, ".bfly": 2}[mode]
	if mode != ".up" && mode != ".down" && mode != ".bfly" {
		kind = 3 // .idx
	}
	// source lane and predicate of each lane (finish's rule)
	source := func(lane int, b, cc uint64) (int, bool) {
		bval, cval := int(b&31), int(cc&31)
		segmask := int(cc >> 8 & 31)
		maxLane := lane&segmask | cval&^segmask
		var j int
		var pval bool
		switch kind {
		case 0: // .up
			j = lane - bval
			pval = j >= maxLane
		case 1: // .down
			j = lane + bval
			pval = j <= maxLane
		case 2: // .bfly
			j = lane ^ bval
			pval = j <= maxLane
		default: // .idx
			j = lane&segmask | bval&^segmask
			pval = j <= maxLane
		}
		if !pval {
			j = lane
		}
		return j, pval
	}
	if b, cc := in.Operands[2], in.Operands[3]; b.Kind == ir.OpImm && cc.Kind == ir.OpImm {
		// b and c are immediates: every lane's source is known now
		var perm [warpSize]uint8
		var pvals uint32
		for lane := range perm {
			j, p := source(lane, b.Imm.Uint64(), cc.Imm.Uint64())
			perm[lane] = uint8(j)
			if p {
				pvals |= 1 << lane
			}
		}
		c.shfl = newShflTable(&perm, pvals)
		rows := newShflRows(&perm)
		c.whole = func(f *frame) {
			// by chunks of four lanes (shfl_row.go), in place through a
			// copy (shflRow's rows are distinct)
			a := (*lanes)(f.regs[int(c.ins[0])*warpSize:])
			if c.dst >= 0 && c.dst != c.ins[0] {
				shflRow((*lanes)(f.regs[int(c.dst)*warpSize:]), a, rows)
			} else if c.dst >= 0 {
				var out lanes
				shflRow(&out, a, rows)
				*a = out
			}
			if c.pdst >= 0 {
				f.preds[c.pdst] = pvals
			}
		}
		if err := l.lowerCollective(in, o, c, 4); err != nil {
			return err
		}
		if c.fullMask && c.dst >= 0 && c.dst != c.ins[0] && wholeCollectives {
			o.memTrace = "shfl" // (in place, the body would read what it wrote)
			if c.pdst >= 0 {
				c.shfl.hasPred = 1
			}
		}
		return nil
	}
	c.whole = func(f *frame) {
		a := (*lanes)(f.regs[int(c.ins[0])*warpSize:])
		b := (*lanes)(f.regs[int(c.ins[1])*warpSize:])
		cc := (*lanes)(f.regs[int(c.ins[2])*warpSize:])
		var out lanes
		var pvals uint32
		if kind == 3 {
			// .idx (a source lane in a register: __shfl_sync(v, lane)),
			// source's rule without a call per lane
			for lane := range out {
				segmask, cval := int(cc[lane]>>8&31), int(cc[lane]&31)
				j := lane&segmask | int(b[lane]&31)&^segmask
				if j <= lane&segmask|cval&^segmask {
					pvals |= 1 << lane
				} else {
					j = lane
				}
				out[lane] = a[j] & 0xffffffff
			}
		} else {
			for lane := range out {
				j, p := source(lane, b[lane], cc[lane])
				if p {
					pvals |= 1 << lane
				}
				out[lane] = a[j] & 0xffffffff
			}
		}
		if c.dst >= 0 {
			*(*lanes)(f.regs[int(c.dst)*warpSize:]) = out
		}
		if c.pdst >= 0 {
			f.preds[c.pdst] = pvals
		}
	}
	return l.lowerCollective(in, o, c, 4)
}

// vote{.sync}.mode.pred d, {!}a{, membermask}; vote{.sync}.ballot.b32 d,
// {!}a{, membermask} (9.7.13.8-9).
func lowerVote(l *lowering, in *ir.Inst, o *Op) error {
	c := &collOp{dst: -1, pdst: -1}
	mode := in.Groups[".mode"]
	for _, m := range []string{".all", ".any", ".uni", ".ballot"} {
		if mode == "" && hasMod(in, m) {
			mode = m
		}
	}
	d := in.Operands[0]
	switch {
	case d.Kind == ir.OpReg && d.Reg.Type == ".pred":
		c.pdst = l.f.slot[d.Reg.ID]
	case d.Kind == ir.OpSink:
	default:
		s, err := l.dst(in, 0)
		if err != nil {
			return err
		}
		c.dst = s
	}
	p, neg, err := l.pred(in, 1)
	if err != nil {
		return err
	}
	c.predIn, c.predNeg = p, neg
	c.finish = func(w *Warp, f *frame, o *Op, group, contrib uint32) {
		var ballot uint32
		for m := contrib; m != 0; m &= m - 1 {
			j := bits.TrailingZeros32(m)
			if f.arr[j].pred {
				ballot |= 1 << j
			}
		}
		var res bool
		switch mode {
		case ".all":
			res = ballot == contrib
		case ".any":
			res = ballot != 0
		case ".uni":
			res = ballot == 0 || ballot == contrib
		}
		for m := contrib; m != 0; m &= m - 1 {
			j := bits.TrailingZeros32(m)
			if mode == ".ballot" {
				setValue(f, j, uint64(ballot))
			} else {
				setPred(f, j, res)
			}
		}
	}
	c.whole = func(f *frame) {
		ballot := f.preds[c.predIn]
		if c.predNeg {
			ballot = ^ballot
		}
		var res bool
		switch mode { // (finish's rule, contrib all lanes)
		case ".all":
			res = ballot == ^uint32(0)
		case ".any":
			res = ballot != 0
		case ".uni":
			res = ballot == 0 || ballot == ^uint32(0)
		}
		switch {
		case mode == ".ballot" && c.dst >= 0:
			fillRow((*lanes)(f.regs[int(c.dst)*warpSize:]), uint64(ballot))
		case mode != ".ballot" && c.pdst >= 0:
			f.preds[c.pdst] = 0
			if res {
				f.preds[c.pdst] = ^uint32(0)
			}
		}
	}
	return l.lowerCollective(in, o, c, 2)
}

// match.{any,all}.sync.type d[|p], a, membermask (9.7.13.10).
func lowerMatch(l *lowering, in *ir.Inst, o *Op) error {
	c := &collOp{predIn: -1}
	if err := l.dstPair(in, c); err != nil {
		return err
	}
	s, err := l.src(in, 1)
	if err != nil {
		return err
	}
	c.ins = []int32{s}
	width := uint64(math.MaxUint32)
	if typeOf(in) == ".b64" {
		width = math.MaxUint64
	}
	all := hasMod(in, ".all")
	// groups sets the results of the lanes of group (contributing, every
	// one) by their values in src
	groups := func(f *frame, src *lanes, group uint32) {
		var d *lanes
		if c.dst >= 0 {
			d = (*lanes)(f.regs[int(c.dst)*warpSize:])
		}
		for left := group; left != 0; {
			v := src[bits.TrailingZeros32(left)] & width
			var same uint32
			for i, x := range src { // (branch-free: the keys are data)
				z := x&width ^ v
				same |= uint32((z|-z)>>63^1) << i
			}
			same &= left
			left &^= same
			r, eq := uint64(same), true
			if all {
				eq = same == group
				r = uint64(group)
				if !eq {
					r = 0
				}
			}
			for k := same; k != 0 && d != nil; k &= k - 1 {
				d[bits.TrailingZeros32(k)] = r
			}
			if c.pdst >= 0 && eq {
				f.preds[c.pdst] |= same
			} else if c.pdst >= 0 {
				f.preds[c.pdst] &^= same
			}
		}
	}
	c.whole = func(f *frame) { groups(f, (*lanes)(f.regs[int(s)*warpSize:]), ^uint32(0)) }
	c.part = func(f *frame, group uint32) { groups(f, (*lanes)(f.regs[int(s)*warpSize:]), group) }
	c.finish = func(w *Warp, f *frame, o *Op, group, contrib uint32) {
		// the lanes by groups of one value: each group found once, from
		// the lanes no earlier group took (a warp's few keys: a few passes)
		for left := contrib; left != 0; {
			v := f.arr[bits.TrailingZeros32(left)].in[0] & width
			var same uint32
			for k := left; k != 0; k &= k - 1 {
				i := bits.TrailingZeros32(k)
				if f.arr[i].in[0]&width == v {
					same |= 1 << i
				}
			}
			left &^= same
			for k := same; k != 0; k &= k - 1 {
				j := bits.TrailingZeros32(k)
				if all {
					eq := same == contrib
					d := uint64(0)
					if eq {
						d = uint64(contrib)
					}
					setValue(f, j, d)
					setPred(f, j, eq)
				} else {
					setValue(f, j, uint64(same))
				}
			}
		}
	}
	return l.lowerCollective(in, o, c, 2)
}

// redux.sync.op{.abs}{.NaN}.type dst, src, membermask (9.7.13.12).
func lowerRedux(l *lowering, in *ir.Inst, o *Op) error {
	c := &collOp{predIn: -1, pdst: -1}
	d, err := l.dst(in, 0)
	if err != nil {
		return err
	}
	c.dst = d
	s, err := l.src(in, 1)
	if err != nil {
		return err
	}
	c.ins = []int32{s}
	op := in.Groups[".op"]
	t := typeOf(in)
	abs, nan := hasMod(in, ".abs"), hasMod(in, ".NaN")
	var combine func(x, y uint64) uint64
	switch {
	case t == ".f32" && (op == ".min" || op == ".max"):
		combine = reduxFloat(op == ".max", abs, nan)
	case op == ".add":
		combine = func(x, y uint64) uint64 { return (x + y) & 0xffffffff }
	case op == ".and":
		combine = func(x, y uint64) uint64 { return x & y }
	case op == ".or":
		combine = func(x, y uint64) uint64 { return x | y }
	case op == ".xor":
		combine = func(x, y uint64) uint64 { return x ^ y }
	case (op == ".min" || op == ".max") && (t == ".u32" || t == ".s32"):
		isMax, signed := op == ".max", t == ".s32"
		combine = func(x, y uint64) uint64 {
			less := x < y
			if signed {
				less = int32(x) < int32(y)
			}
			if less != isMax {
				return x
			}
			return y
		}
	default:
		return l.unsupported(in, "")
	}
	c.finish = func(w *Warp, f *frame, o *Op, group, contrib uint32) {
		if contrib == 0 {
			return
		}
		first := bits.TrailingZeros32(contrib)
		acc := f.arr[first].in[0] & 0xffffffff
		if abs && t == ".f32" {
			acc &^= 1 << 31
		}
		for m := contrib & (contrib - 1); m != 0; m &= m - 1 {
			acc = combine(acc, f.arr[bits.TrailingZeros32(m)].in[0]&0xffffffff)
		}
		if t == ".s32" {
			acc = uint64(int64(int32(acc)))
		}
		for m := contrib; m != 0; m &= m - 1 {
			setValue(f, bits.TrailingZeros32(m), acc)
		}
	}
	c.part = func(f *frame, group uint32) { // (finish's fold, over the group's lanes in order)
		a := (*lanes)(f.regs[int(c.ins[0])*warpSize:])
		first := bits.TrailingZeros32(group)
		acc := a[first] & 0xffffffff
		if abs && t == ".f32" {
			acc &^= 1 << 31
		}
		for m := group & (group - 1); m != 0; m &= m - 1 {
			acc = combine(acc, a[bits.TrailingZeros32(m)]&0xffffffff)
		}
		if t == ".s32" {
			acc = uint64(int64(int32(acc)))
		}
		d := (*lanes)(f.regs[int(c.dst)*warpSize:])
		for m := group; m != 0; m &= m - 1 {
			d[bits.TrailingZeros32(m)] = acc
		}
	}
	c.whole = func(f *frame) { // (finish's fold, over every lane in order)
		a := (*lanes)(f.regs[int(c.ins[0])*warpSize:])
		acc := a[0] & 0xffffffff
		if abs && t == ".f32" {
			acc &^= 1 << 31
		}
		for _, v := range a[1:] {
			acc = combine(acc, v&0xffffffff)
		}
		if t == ".s32" {
			acc = uint64(int64(int32(acc)))
		}
		fillRow((*lanes)(f.regs[int(c.dst)*warpSize:]), acc)
	}
	return l.lowerCollective(in, o, c, 2)
}

// reduxFloat is redux.sync.min/max.f32: +0 > -0; .abs takes magnitudes;
// NaNs are ignored unless .NaN (then any NaN gives the canonical NaN); all
// NaNs give the canonical NaN.
func reduxFloat(isMax, abs, nan bool) func(x, y uint64) uint64 {
	f := fp.F32
	return func(x, y uint64) uint64 {
		if abs {
			y = f.Abs(y)
		}
		if nan && (f.IsNaN(x) || f.IsNaN(y)) {
			return f.CanonicalNaN()
		}
		return pickMinMax(f, isMax, x, y)
	}
}

// elect.sync d|p, membermask (9.7.13.14): the lowest predicated-active lane
// of the group leads.
func lowerElect(l *lowering, in *ir.Inst, o *Op) error {
	c := &collOp{predIn: -1}
	if err := l.dstPair(in, c); err != nil {
		return err
	}
	c.finish = func(w *Warp, f *frame, o *Op, group, contrib uint32) {
		if contrib == 0 {
			return
		}
		leader := bits.TrailingZeros32(contrib)
		for m := contrib; m != 0; m &= m - 1 {
			j := bits.TrailingZeros32(m)
			setValue(f, j, uint64(leader))
			setPred(f, j, j == leader)
		}
	}
	return l.lowerCollective(in, o, c, 1)
}

// bar.warp.sync membermask (9.7.13.2): the wait alone.
func lowerBarWarp(l *lowering, in *ir.Inst, o *Op) error {
	c := &collOp{predIn: -1, dst: -1, pdst: -1}
	c.finish = func(w *Warp, f *frame, o *Op, group, contrib uint32) {}
	return l.lowerCollective(in, o, c, 0)
}
