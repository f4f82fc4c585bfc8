package exec

// mbarrier (9.7.13.15): the opaque 64-bit object lives in shared memory,
// encoded as
//
//	bits 0-19  pending arrival count
//	bits 20-39 expected arrival count
//	bits 40-61 tx-count (22-bit two's complement)
//	bit  62    parity of the current phase
//	bit  63    set while the object is initialized
//
// A state token returned by arrive holds the phase parity and the pending
// count before the arrive (bits 62 and 0-19; bit 63 set). test_wait and
// try_wait are valid only for the current or the immediately preceding
// phase, so the parity decides. try_wait returns at once (its time limit is
// system-dependent); programs loop on it. Misuse the manual calls
// undefined (an uninitialized object, counts out of range, a .noComplete
// arrive that completes the phase, an address outside shared memory) is a
// fault. cp.async.mbarrier.arrive arrives at once, as every cp.async is
// complete when it executes (async.go).

import (
	"fmt"
	"math/bits"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/mem"
)

func init() {
	register(lowerMbarrier, "mbarrier")
}

const (
	mbValid  = 1 << 63
	mbParity = 1 << 62
	mbMax    = 1<<20 - 1
)

type mbState struct {
	pending, expected uint64
	tx                int64
	parity            bool
}

func mbDecode(v uint64) mbState {
	tx := int64(v>>40&(1<<22-1)) << 42 >> 42
	return mbState{pending: v & mbMax, expected: v >> 20 & mbMax, tx: tx, parity: v&mbParity != 0}
}

func (s mbState) encode() uint64 {
	v := uint64(mbValid) | s.pending | s.expected<<20 | uint64(s.tx)&(1<<22-1)<<40
	if s.parity {
		v |= mbParity
	}
	return v
}

// mbOp is one lane's operation on an object; it returns the state token
// or the predicate result, and an error message for undefined uses.
type mbOp func(s *mbState, a, b uint64) (uint64, string)

func lowerMbarrier(l *lowering, in *ir.Inst, o *Op) error {
	ops := in.Operands
	var fn mbOp
	addrIdx, dst, pdst, arg := 0, int32(-1), int32(-1), int32(-1)
	noComplete := hasMod(in, ".noComplete")
	srcAt := func(i int) (int32, error) {
		if i < len(ops) {
			return l.src(in, i)
		}
		return -1, nil
	}
	var err error
	switch {
	case hasMod(in, ".pending_count"): // count, state
		return l.unary(in, o, func(state uint64) uint64 { return state & mbMax })
	case hasMod(in, ".init"):
		if arg, err = srcAt(1); err != nil {
			return err
		}
		fn = func(s *mbState, count, _ uint64) (uint64, string) {
			count &= 0xffffffff
			if count < 1 || count > mbMax {
				return 0, fmt.Sprintf("mbarrier.init count %d is outside [1, 2^20-1]", count)
			}
			*s = mbState{pending: count, expected: count}
			return 0, ""
		}
	case hasMod(in, ".inval"):
		fn = nil
	case hasMod(in, ".arrive"), hasMod(in, ".arrive_drop"):
		addrIdx = 1
		if ops[0].Kind != ir.OpSink {
			if dst, err = l.dst(in, 0); err != nil {
				return err
			}
		}
		if arg, err = srcAt(2); err != nil {
			return err
		}
		drop, expectTx := hasMod(in, ".arrive_drop"), hasMod(in, ".expect_tx")
		fn = func(s *mbState, a, _ uint64) (uint64, string) {
			count, tx := uint64(1), int64(0)
			if arg >= 0 {
				if expectTx {
					tx = int64(a & 0xffffffff)
				} else {
					count = a & 0xffffffff
				}
			}
			if count < 1 || count > mbMax {
				return 0, fmt.Sprintf("arrive count %d is outside [1, 2^20-1]", count)
			}
			token := uint64(mbValid) | s.pending
			if s.parity {
				token |= mbParity
			}
			s.tx += tx
			if drop {
				if s.expected < count {
					return 0, "arrive_drop below an expected count of 0"
				}
				s.expected -= count
			}
			if s.pending < count {
				return 0, fmt.Sprintf("arrive count %d exceeds the %d pending arrivals", count, s.pending)
			}
			s.pending -= count
			if s.complete() && noComplete {
				return 0, ".noComplete arrive completed the phase"
			}
			return token, ""
		}
	case hasMod(in, ".expect_tx"), hasMod(in, ".complete_tx"):
		if arg, err = srcAt(1); err != nil {
			return err
		}
		sign := int64(1)
		if hasMod(in, ".complete_tx") {
			sign = -1
		}
		fn = func(s *mbState, a, _ uint64) (uint64, string) {
			s.tx += sign * int64(a&0xffffffff)
			if s.tx > mbMax || s.tx < -mbMax {
				return 0, fmt.Sprintf("tx-count %d is outside [-(2^20-1), 2^20-1]", s.tx)
			}
			s.complete()
			return 0, ""
		}
	case hasMod(in, ".test_wait"), hasMod(in, ".try_wait"):
		addrIdx = 1
		if ops[0].Kind == ir.OpReg && ops[0].Reg.Type == ".pred" {
			pdst = l.f.slot[ops[0].Reg.ID]
		}
		if arg, err = srcAt(2); err != nil {
			return err
		}
		parity := hasMod(in, ".parity")
		fn = func(s *mbState, a, _ uint64) (uint64, string) {
			want := a&mbParity != 0 // the state token's phase
			if parity {
				want = a&1 != 0
			}
			if want != s.parity { // that phase is the preceding one: complete
				return 1, ""
			}
			return 0, ""
		}
	default:
		return l.unsupported(in, "")
	}
	if err := l.address(in, ops[addrIdx], o); err != nil {
		return err
	}
	o.a = arg
	o.exec = func(w *Warp, o *Op, mask uint32) {
		f := w.top()
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			p := w.access(o, lane, 8)
			if p == nil {
				return
			}
			if sp := w.spaceOf(o, lane); sp != mem.SpaceShared {
				w.fail(o, 1<<lane, FaultUndefined, "mbarrier object outside shared memory ("+sp.String()+")")
				return
			}
			v := mem.Load(p)
			if fn == nil { // inval
				mem.Store(p, 0)
				continue
			}
			if v&mbValid == 0 && !hasMod(o.inst, ".init") {
				w.fail(o, 1<<lane, FaultUndefined, "mbarrier object is not initialized")
				return
			}
			s := mbDecode(v)
			var a uint64
			if o.a >= 0 {
				a = f.regs[int(o.a)*warpSize+lane]
			}
			r, msg := fn(&s, a, 0)
			if msg != "" {
				w.fail(o, 1<<lane, FaultUndefined, msg)
				return
			}
			mem.Store(p, s.encode())
			if dst >= 0 {
				f.regs[int(dst)*warpSize+lane] = r
			}
			if pdst >= 0 {
				if r != 0 {
					f.preds[pdst] |= 1 << lane
				} else {
					f.preds[pdst] &^= 1 << lane
				}
			}
		}
	}
	return nil
}

// complete moves to the next phase when no arrivals and no transactions
// are pending (9.7.13.15.6); it reports whether it did.
func (s *mbState) complete() bool {
	if s.pending != 0 || s.tx != 0 {
		return false
	}
	s.parity = !s.parity
	s.pending = s.expected
	return true
}

// lowerMbarrierCheck checks, at run time, that [addr] holds an initialized
// mbarrier object in shared memory.
func lowerMbarrierCheck(l *lowering, in *ir.Inst, o *Op) error {
	if err := l.address(in, in.Operands[0], o); err != nil {
		return err
	}
	o.exec = func(w *Warp, o *Op, mask uint32) {
		for m := mask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			p := w.access(o, lane, 8)
			if p == nil {
				return
			}
			if w.spaceOf(o, lane) != mem.SpaceShared || mem.Load(p)&mbValid == 0 {
				w.fail(o, 1<<lane, FaultUndefined, "no initialized mbarrier object in shared memory at this address")
				return
			}
		}
	}
	return nil
}
