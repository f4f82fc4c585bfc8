package litmus

import (
	"fmt"
	"maps"
)

// EventKind classifies the events of an execution.
type EventKind int

const (
	EvWrite EventKind = iota
	EvRead
	EvFence
	EvBarrier
)

// Event is one operation of a path: a read or write (an atom or red is a
// read and a write linked by RMW), a fence or a barrier.
type Event struct {
	Kind   EventKind
	Thread int // -1 for the initial writes
	Index  int // position in its thread's path (program order)
	Instr  *Instr
	Loc    *Location // virtual address (nil for fences, barriers, and initial writes)
	Phys   int       // physical location (-1 for fences and barriers)
	Value  int64     // value read or written

	Sem    Sem
	Scope  Scope
	Proxy  Proxy
	Strong bool // 8.4: relaxed, acquire, release, acq_rel, volatile, mmio, or a memory fence
	Acq    bool // acquire operation, or a fence usable in an acquire pattern
	Rel    bool // release operation, or a fence usable in a release pattern
	SC     bool // fence.sc (and membar)
	Red    bool // read half of a red: no acquire patterns (8.11)
	RMW    int  // index in the thread of the other half of an atom/red, -1 if none

	ProxyFence bool
	FenceProxy Proxy

	BarKind   BarKind
	BarID     int64
	BarID2    int64 // Dat3M dialect: the logical barrier (second operand)
	BarQuorum int64 // Dat3M dialect: the quorum (third operand), 0 if none
	BarInst   int   // how many times this thread used this barrier before

	Deps uint64 // thread-local indices of the reads this event depends on (addr, data, ctrl)
}

// path is one run of a thread's program under chosen read values.
type path struct {
	events []Event
	regs   map[string]int64
	writes []pv // (physical location, value) pairs it writes

	prepared bool
	needs    []pv // reads not provided for by the initial value or an earlier write of the path
}

type pv struct {
	phys int
	val  int64
}

// maxThreadEvents bounds the events of one path: dependencies are 64-bit
// masks over them.
const maxThreadEvents = 64

// pathState is the state of one thread during path enumeration.
type pathState struct {
	pc       int
	regs     map[string]int64
	taint    map[string]uint64
	ctrl     uint64
	events   []Event
	back     map[int]int // backward branches taken, per instruction
	barCount map[[3]int64]int
	reads    int
}

func (s *pathState) clone() *pathState {
	c := *s
	c.regs = maps.Clone(s.regs)
	c.taint = maps.Clone(s.taint)
	c.back = maps.Clone(s.back)
	c.barCount = maps.Clone(s.barCount)
	c.events = append([]Event(nil), s.events...)
	return &c
}

// pathEnum enumerates the paths of one thread.
type pathEnum struct {
	t        *Test
	th       *Thread
	domain   [][]int64 // values a read of each physical location may return
	unroll   int
	out      []*path
	hitBound bool
	err      error
	limit    int
	scNoPat  bool // fence.sc forms no release/acquire patterns
	barDat3M bool // two-operand bar.sync is Dat3M's (instance, barrier)
}

// threadPaths returns every path of th when reads return values from
// domain, with backward branches taken at most unroll times each.
func threadPaths(t *Test, th *Thread, domain [][]int64, unroll int, mo ModelOptions) ([]*path, bool, error) {
	e := &pathEnum{t: t, th: th, domain: domain, unroll: unroll, limit: 200000, scNoPat: mo.SCFenceNoPatterns, barDat3M: mo.BarDat3M}
	s := &pathState{regs: maps.Clone(th.RegInit), taint: map[string]uint64{}, back: map[int]int{}, barCount: map[[3]int64]int{}}
	e.run(s)
	return e.out, e.hitBound, e.err
}

func (e *pathEnum) fail(in *Instr, format string, args ...any) {
	if e.err == nil {
		e.err = &Error{File: e.t.File, Pos: in.Pos, Msg: fmt.Sprintf(format, args...)}
	}
}

func (e *pathEnum) val(s *pathState, o Operand) (int64, uint64) {
	switch o.Kind {
	case OImm:
		return o.Imm, 0
	case OReg:
		return s.regs[o.Name], s.taint[o.Name]
	}
	return 0, 0
}

// addr resolves the address operand of in to a location, or nil when a
// register holds something that is not the address of a location.
func (e *pathEnum) addr(s *pathState, in *Instr) (*Location, uint64) {
	switch in.Addr.Kind {
	case OMemLoc:
		l := e.t.locByName[in.Addr.Name]
		if in.Addr.Off != 0 {
			e.fail(in, "address offsets are not supported ([%s+%d])", in.Addr.Name, in.Addr.Off)
			return nil, 0
		}
		return l, 0
	case OMemReg:
		v := s.regs[in.Addr.Name] + in.Addr.Off
		tn := s.taint[in.Addr.Name]
		l := e.t.locAt(v)
		if l == nil && tn == 0 {
			e.fail(in, "register %s does not hold the address of a location (it holds %d)", in.Addr.Name, v)
		}
		return l, tn
	}
	return nil, 0
}

func cmp(op string, a, b int64) bool {
	switch op {
	case "eq":
		return a == b
	case "ne":
		return a != b
	case "lt":
		return a < b
	case "le":
		return a <= b
	case "gt":
		return a > b
	case "ge":
		return a >= b
	}
	return false
}

func (e *pathEnum) set(s *pathState, o Operand, v int64, taint uint64) {
	if o.Kind == OReg {
		s.regs[o.Name] = v
		s.taint[o.Name] = taint
	}
}

func (e *pathEnum) emit(s *pathState, ev Event) int {
	ev.Thread = e.th.Index
	ev.Index = len(s.events)
	ev.RMW = -1
	s.events = append(s.events, ev)
	return ev.Index
}

// memEvent fills the attributes shared by reads and writes of in.
func memEvent(in *Instr, kind EventKind, l *Location, v int64) Event {
	ev := Event{Kind: kind, Instr: in, Loc: l, Phys: l.Phys, Value: v, Sem: in.Sem, Scope: in.Scope, Proxy: in.Proxy}
	ev.Strong = in.Sem != SemWeak
	switch in.Sem {
	case SemAcquire:
		ev.Acq = kind == EvRead
	case SemRelease:
		ev.Rel = kind == EvWrite
	case SemAcqRel:
		ev.Acq = kind == EvRead
		ev.Rel = kind == EvWrite
	}
	return ev
}

func rmwValue(op RMWOp, old, b, c int64) (int64, bool) {
	switch op {
	case RMWAdd:
		return old + b, true
	case RMWSub:
		return old - b, true
	case RMWInc:
		if b != -1 && uint64(old) >= uint64(b) {
			return 0, true
		}
		return old + 1, true
	case RMWDec:
		if old == 0 || b != -1 && uint64(old) > uint64(b) {
			return b, true
		}
		return old - 1, true
	case RMWExch:
		return b, true
	case RMWCas:
		if old == b {
			return c, true
		}
		return 0, false // a failed cas does not write (Table 20)
	case RMWAnd:
		return old & b, true
	case RMWOr:
		return old | b, true
	case RMWXor:
		return old ^ b, true
	case RMWMin:
		return min(old, b), true
	case RMWMax:
		return max(old, b), true
	}
	return old, false
}

func aluValue(op string, a, b, c int64) int64 {
	switch op {
	case "mov":
		return a
	case "not":
		return ^a
	case "neg":
		return -a
	case "abs":
		if a < 0 {
			return -a
		}
		return a
	case "add":
		return a + b
	case "sub":
		return a - b
	case "mul":
		return a * b
	case "mad":
		return a*b + c
	case "div":
		if b == 0 {
			return 0
		}
		return a / b
	case "rem":
		if b == 0 {
			return 0
		}
		return a % b
	case "and":
		return a & b
	case "or":
		return a | b
	case "xor":
		return a ^ b
	case "shl":
		return a << uint(b&63)
	case "shr":
		return a >> uint(b&63)
	case "min":
		return min(a, b)
	case "max":
		return max(a, b)
	}
	return 0
}

// run executes from s, forking at every read.
func (e *pathEnum) run(s *pathState) {
	code := e.th.Code
	for s.pc < len(code) {
		if e.err != nil {
			return
		}
		if len(s.events) >= maxThreadEvents-2 {
			e.fail(code[s.pc], "thread %s has more than %d events; lower --unroll", e.th.Name, maxThreadEvents-2)
			return
		}
		in := code[s.pc]
		if in.Guard != "" {
			// The guard is a control dependency of everything after it.
			s.ctrl |= s.taint[in.Guard]
			g := s.regs[in.Guard] != 0
			if g == in.GuardNeg {
				if in.Kind != KBranch {
					s.pc++
					continue
				}
				s.pc++
				continue
			}
		}
		switch in.Kind {
		case KNop:
		case KExit:
			s.pc = len(code)
			continue
		case KALU:
			var vals [3]int64
			var tn uint64
			for i, o := range in.Src {
				v, t := e.val(s, o)
				vals[i] = v
				tn |= t
			}
			var v int64
			if in.ALU == "selp" {
				if vals[2] != 0 {
					v = vals[0]
				} else {
					v = vals[1]
				}
			} else {
				v = aluValue(in.ALU, vals[0], vals[1], vals[2])
			}
			e.set(s, in.Dst, v, tn)
		case KSetp:
			a, ta := e.val(s, in.Src[0])
			b, tb := e.val(s, in.Src[1])
			r := cmp(in.Cmp, a, b)
			e.set(s, in.Dst, b2i(r), ta|tb)
			e.set(s, in.Dst2, b2i(!r), ta|tb)
		case KBranch:
			taken := true
			if in.Cmp != "" {
				a, ta := e.val(s, in.Src[0])
				b, tb := e.val(s, in.Src[1])
				s.ctrl |= ta | tb
				taken = cmp(in.Cmp, a, b)
			}
			if taken {
				target := e.th.Labels[in.Target]
				if target <= s.pc {
					s.back[s.pc]++
					if s.back[s.pc] > e.unroll {
						e.hitBound = true
						return // the path is cut: herd's -unroll semantics
					}
				}
				s.pc = target
				continue
			}
		case KFence:
			ev := Event{Kind: EvFence, Instr: in, Phys: -1, Scope: in.Scope, Sem: in.FenceSem}
			if in.IsProxyFence {
				ev.ProxyFence = true
				ev.FenceProxy = in.FenceProxy
			} else {
				ev.Strong = true
				ev.SC = in.FenceSem == SemSC
				// fence.sc is also a release and acquire fence for 8.8's
				// patterns unless --sc-fence-patterns=false.
				sc := in.FenceSem == SemSC && !e.scNoPat
				ev.Acq = sc || in.FenceSem == SemAcqRel || in.FenceSem == SemAcquire
				ev.Rel = sc || in.FenceSem == SemAcqRel || in.FenceSem == SemRelease
			}
			ev.Deps = s.ctrl
			e.emit(s, ev)
		case KBarrier:
			id, tn := e.val(s, in.BarID)
			s.ctrl |= tn
			class := int64(0)
			if in.BarKind == BarClusterArrive {
				class, id = 1, 0
			} else if in.BarKind == BarClusterWait {
				class, id = 2, 0
			}
			// PTX: "bar.sync a{, b}", b the thread count (not modelled).
			// Dat3M dialect (-bar-operands=dat3m, or any three-operand
			// form, which PTX does not have): "bar.sync c{, a{, q}}",
			// synchronizing when c and a agree, q the quorum.
			var id2, quorum int64
			if len(in.BarMore) == 2 || (e.barDat3M && len(in.BarMore) == 1) {
				v, tn := e.val(s, in.BarMore[0])
				s.ctrl |= tn
				id2 = v
				if len(in.BarMore) == 2 {
					q, tq := e.val(s, in.BarMore[1])
					s.ctrl |= tq
					quorum = q
				}
			}
			key := [3]int64{class, id, id2}
			ev := Event{Kind: EvBarrier, Instr: in, Phys: -1, BarKind: in.BarKind, BarID: id, BarID2: id2, BarQuorum: quorum, BarInst: s.barCount[key], Deps: s.ctrl}
			s.barCount[key]++
			e.emit(s, ev)
		case KLoad, KStore, KAtom, KRed:
			l, at := e.addr(s, in)
			if l == nil {
				return // an impossible path: a garbage address from a read
			}
			deps := at | s.ctrl
			if in.Kind == KStore {
				v, vt := e.val(s, in.Src[0])
				ev := memEvent(in, EvWrite, l, v)
				ev.Deps = deps | vt
				e.emit(s, ev)
				break
			}
			if s.reads >= 64 {
				e.fail(in, "too many reads in one path")
				return
			}
			for _, v := range e.domain[l.Phys] {
				c := s.clone()
				ev := memEvent(in, EvRead, l, v)
				ev.Deps = deps
				ev.Red = in.Kind == KRed
				if ev.Red {
					ev.Acq = false
				}
				ri := e.emit(c, ev)
				c.reads++
				rbit := uint64(1) << uint(ri)
				if in.Kind == KLoad {
					e.set(c, in.Dst, v, rbit)
				} else {
					var b, cc int64
					var bt, ct uint64
					b, bt = e.val(c, in.Src[0])
					if len(in.Src) > 1 {
						cc, ct = e.val(c, in.Src[1])
					}
					nv, writes := rmwValue(in.RMW, v, b, cc)
					if in.Kind == KAtom {
						e.set(c, in.Dst, v, rbit)
					}
					if writes {
						w := memEvent(in, EvWrite, l, nv)
						w.Deps = deps | bt | ct
						if in.RMW != RMWExch {
							w.Deps |= rbit // the value written depends on the value read
						}
						wi := e.emit(c, w)
						c.events[ri].RMW = wi
						c.events[wi].RMW = ri
					}
				}
				c.pc++
				e.run(c)
				if e.err != nil || len(e.out) > e.limit {
					if e.err == nil {
						e.fail(in, "more than %d paths in thread %s", e.limit, e.th.Name)
					}
					return
				}
			}
			return
		}
		s.pc++
	}
	p := &path{events: s.events, regs: s.regs}
	for _, ev := range s.events {
		if ev.Kind == EvWrite {
			p.writes = append(p.writes, pv{ev.Phys, ev.Value})
		}
	}
	e.out = append(e.out, p)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
