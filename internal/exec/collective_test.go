package exec

// Warp collectives, with expected values worked out from the manual's
// Semantics (9.7.9.6, 9.7.13.2, 9.7.13.9-14). Kernels run one warp of 32
// threads; %t is %tid.x (= %laneid) and %res is stored per lane.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

// bothCollectivePaths runs a test with the whole-warp fast path of
// collectives and without it (the general path the expected values hold
// for too).
func bothCollectivePaths(t *testing.T, test func(t *testing.T)) {
	t.Run("whole", test)
	wholeCollectives = false
	defer func() { wholeCollectives = true }()
	t.Run("general", test)
}

func TestShflSync(t *testing.T) { bothCollectivePaths(t, testShflSync) }

func testShflSync(t *testing.T) {
	for _, c := range []struct {
		name, body string
		want       func(lane int) uint64
	}{
		{"down by 1 with clamp 31: the last lane keeps its value, p false", `
	shfl.sync.down.b32 %r|%p, %t, 1, 31, 0xffffffff;
	selp.u32 %s, 0x100, 0, %p;
	or.b32 %r, %r, %s;
	cvt.u64.u32 %res, %r;`, func(l int) uint64 {
			if l == 31 {
				return 31
			}
			return uint64(l+1) | 0x100
		}},
		{"up by 2", `
	shfl.sync.up.b32 %r|%p, %t, 2, 0, 0xffffffff;
	selp.u32 %s, 0x100, 0, %p;
	or.b32 %r, %r, %s;
	cvt.u64.u32 %res, %r;`, func(l int) uint64 {
			if l < 2 {
				return uint64(l)
			}
			return uint64(l-2) | 0x100
		}},
		{"bfly by 5", `
	shfl.sync.bfly.b32 %r, %t, 5, 31, 0xffffffff;
	cvt.u64.u32 %res, %r;`, func(l int) uint64 { return uint64(l ^ 5) }},
		// segments of 8 lanes (segmask 0x18 in c[12:8] = 0b11000): idx 3
		// reads lane 3 of each segment
		{"idx in segments of 8", `
	shfl.sync.idx.b32 %r, %t, 3, 0x1807, 0xffffffff;
	cvt.u64.u32 %res, %r;`, func(l int) uint64 { return uint64(l&^7 | 3) }},
		{"butterfly reduction sums all lanes", `
	mov.u32 %r, %t;
	shfl.sync.bfly.b32 %s, %r, 16, 31, 0xffffffff;
	add.u32 %r, %r, %s;
	shfl.sync.bfly.b32 %s, %r, 8, 31, 0xffffffff;
	add.u32 %r, %r, %s;
	shfl.sync.bfly.b32 %s, %r, 4, 31, 0xffffffff;
	add.u32 %r, %r, %s;
	shfl.sync.bfly.b32 %s, %r, 2, 31, 0xffffffff;
	add.u32 %r, %r, %s;
	shfl.sync.bfly.b32 %s, %r, 1, 31, 0xffffffff;
	add.u32 %r, %r, %s;
	cvt.u64.u32 %res, %r;`, func(int) uint64 { return 496 }},
		// the two halves reach different shfl instructions with the same
		// qualifiers and mask: they exchange with each other
		{"divergent halves at different instructions", `
	setp.lt.u32 %p, %t, 16;
	@%p bra A;
	add.u32 %s, %t, 100;
	shfl.sync.idx.b32 %r, %s, 0, 31, 0xffffffff;
	bra J;
A:
	add.u32 %s, %t, 200;
	shfl.sync.idx.b32 %r, %s, 31, 31, 0xffffffff;
J:
	cvt.u64.u32 %res, %r;`, func(l int) uint64 {
			if l < 16 {
				return 131 // lane 31's %s
			}
			return 200 // lane 0's %s
		}},
		// lanes 16-31 exit: the others complete without them
		{"exited lanes are left out", `
	setp.ge.u32 %p, %t, 16;
	@%p exit;
	shfl.sync.bfly.b32 %r, %t, 1, 31, 0xffffffff;
	cvt.u64.u32 %res, %r;`, func(l int) uint64 {
			if l >= 16 {
				return 0
			}
			return uint64(l ^ 1)
		}},
		// b and c in registers, b different in every lane: idx with c = 31
		// (no segments) reads lane b; then down by a lane's own count, in
		// segments of 16 (c = 0x100f: segmask 0b10000, clamp 15)
		{"b and c from registers", `
	mul.lo.u32 %s, %t, 7;
	and.b32 %s, %s, 31;
	mov.u32 %r, 31;
	mul.lo.u32 %q, %t, 3;
	shfl.sync.idx.b32 %r, %q, %s, %r, 0xffffffff;
	and.b32 %s, %t, 3;
	mov.u32 %q, 0x100f;
	shfl.sync.down.b32 %s|%p, %r, %s, %q, 0xffffffff;
	selp.u32 %q, 0x10000, 0, %p;
	or.b32 %r, %s, %q;
	cvt.u64.u32 %res, %r;`, func(l int) uint64 {
			first := func(k int) uint64 { return uint64((k * 7 & 31) * 3) } // %r of lane k after idx
			// down by l&3 within the lane's 16-lane segment: lane j = l+(l&3)
			// if it stays at or below the segment's last lane (l|15)
			j := l + l&3
			if j <= l|15 {
				return first(j) | 0x10000
			}
			return first(l)
		}},
		// the deprecated form acts on the lanes executing together
		{"deprecated shfl", `
	shfl.down.b32 %r, %t, 4, 31;
	cvt.u64.u32 %res, %r;`, func(l int) uint64 {
			if l+4 > 31 {
				return uint64(l)
			}
			return uint64(l + 4)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			target := "sm_70"
			if strings.Contains(c.body, "shfl.down") {
				target = "sm_60"
			}
			res := runLanesOnVersion(t, "6.4", target, ".reg .b32 %r, %s, %q; .reg .pred %p;", c.body)
			for l, v := range res {
				if v != c.want(l) {
					t.Errorf("lane %d: got %#x, want %#x", l, v, c.want(l))
				}
			}
		})
	}
}

func TestVoteMatchReduxElect(t *testing.T) { bothCollectivePaths(t, testVoteMatchReduxElect) }

func testVoteMatchReduxElect(t *testing.T) {
	for _, c := range []struct {
		name, target, body string
		want               func(lane int) uint64
	}{
		{"ballot of odd lanes", "sm_70", `
	and.b32 %r, %t, 1;
	setp.ne.u32 %p, %r, 0;
	vote.sync.ballot.b32 %r, %p, 0xffffffff;
	cvt.u64.u32 %res, %r;`, func(int) uint64 { return 0xaaaaaaaa }},
		{"all/any/uni in two half-warp groups", "sm_70", `
	setp.lt.u32 %p, %t, 16;
	selp.u32 %m, 0x0000ffff, 0xffff0000, %p;
	setp.lt.u32 %q, %t, 20; // true in the whole low half, mixed in the high half
	vote.sync.all.pred %p, %q, %m;
	vote.sync.any.pred %q, %q, %m;
	selp.u32 %r, 1, 0, %p;
	selp.u32 %s, 2, 0, %q;
	or.b32 %r, %r, %s;
	cvt.u64.u32 %res, %r;`, func(l int) uint64 { return 3 &^ uint64(l/16) }},
		{"match.any groups equal values", "sm_70", `
	and.b32 %r, %t, 3;
	match.any.sync.b32 %r, %r, 0xffffffff;
	cvt.u64.u32 %res, %r;`, func(l int) uint64 { return 0x11111111 << uint(l&3) }},
		{"match.any on 32 bits of sign- and zero-extended registers", "sm_70", `
	and.b32 %r, %t, 1;
	setp.eq.u32 %p, %r, 0;
	mov.b32 %r, 0xffffffff; // odd lanes: the word, zero-extended
	@%p sub.s32 %r, 0, 1; // even lanes: -1, sign-extended in the slot
	match.any.sync.b32 %r, %r, 0xffffffff;
	cvt.u64.u32 %res, %r;`, func(int) uint64 { return 0xffffffff }},
		{"match.all with differing values", "sm_70", `
	and.b32 %r, %t, 1;
	match.all.sync.b32 %r|%p, %r, 0xffffffff;
	selp.u32 %s, 0x100, 0, %p;
	or.b32 %r, %r, %s;
	cvt.u64.u32 %res, %r;`, func(int) uint64 { return 0 }},
		{"match.all with equal values in a partial mask", "sm_70", `
	setp.lt.u32 %p, %t, 8;
	@!%p bra Done;
	match.all.sync.b32 %r|%p, 7, 0xff;
	selp.u32 %s, 0x100, 0, %p;
	or.b32 %r, %r, %s;
	cvt.u64.u32 %res, %r;
Done:`, func(l int) uint64 {
			if l < 8 {
				return 0x1ff
			}
			return 0
		}},
		{"redux add", "sm_80", `
	redux.sync.add.u32 %r, %t, 0xffffffff;
	cvt.u64.u32 %res, %r;`, func(int) uint64 { return 496 }},
		{"redux min.s32 of -lane", "sm_80", `
	neg.s32 %r, %t;
	redux.sync.min.s32 %r, %r, 0xffffffff;
	cvt.s64.s32 %res, %r;`, func(int) uint64 { return uint64(0xffffffffffffffe1) }}, // -31
		{"redux xor", "sm_80", `
	redux.sync.xor.b32 %r, %t, 0x0000000f;
	cvt.u64.u32 %res, %r;`, nil},
		// groups of a partition of the warp (the partition fast path)
		{"warp-aggregated add: redux over match.any's groups", "sm_80", `
	rem.u32 %r, %t, 3;
	match.any.sync.b32 %m, %r, 0xffffffff;
	redux.sync.add.u32 %r, %t, %m;
	cvt.u64.u32 %res, %r;`, func(l int) uint64 {
			sum := 0
			for j := l % 3; j < 32; j += 3 {
				sum += j
			}
			return uint64(sum)
		}},
		{"redux min.s32 over quarter-warp masks", "sm_80", `
	shr.u32 %s, %t, 3;
	shl.b32 %s, %s, 3;
	shl.b32 %m, 0xff, %s;
	rem.u32 %r, %t, 5;
	mul.lo.s32 %r, %r, %t;
	sub.s32 %r, 40, %r;
	redux.sync.min.s32 %r, %r, %m;
	cvt.s64.s32 %res, %r;`, func(l int) uint64 {
			low := 1 << 30
			for j := l &^ 7; j < l&^7+8; j++ {
				low = min(low, 40-j%5*j)
			}
			return uint64(int64(low))
		}},
		{"match.all over half-warp masks", "sm_70", `
	setp.lt.u32 %p, %t, 16;
	selp.u32 %m, 0x0000ffff, 0xffff0000, %p;
	and.b32 %r, %t, 1;
	@%p mov.u32 %r, 7;
	match.all.sync.b32 %r|%p, %r, %m;
	selp.u32 %s, 0x10000, 0, %p;
	or.b32 %r, %r, %s;
	cvt.u64.u32 %res, %r;`, func(l int) uint64 {
			if l < 16 {
				return 0x1ffff
			}
			return 0
		}},
		{"match.any within half-warp masks", "sm_70", `
	setp.lt.u32 %p, %t, 16;
	selp.u32 %m, 0x0000ffff, 0xffff0000, %p;
	and.b32 %r, %t, 3;
	match.any.sync.b32 %r, %r, %m;
	cvt.u64.u32 %res, %r;`, func(l int) uint64 { return 0x1111 << uint(l%4) << uint(16*(l/16)) }},
		{"elect the lowest lane of the mask", "sm_90", `
	elect.sync %r|%p, 0xfffffff0;
	selp.u32 %s, 0x100, 0, %p;
	or.b32 %r, %r, %s;
	cvt.u64.u32 %res, %r;`, nil},
		{"bar.warp.sync in divergent code", "sm_70", `
	setp.lt.u32 %p, %t, 16;
	@%p bra A;
	bar.warp.sync 0xffffffff;
	mov.u32 %r, 1;
	bra J;
A:
	bar.warp.sync 0xffffffff;
	mov.u32 %r, 2;
J:
	cvt.u64.u32 %res, %r;`, func(l int) uint64 { return 2 - uint64(l/16) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := c.body
			if c.want == nil { // the cases where only some lanes execute
				body = "\tsetp.lt.u32 %q, %t, 4;\n\t@!%q bra Skip;\n" + body + "\nSkip:"
				if strings.Contains(c.name, "elect") {
					body = "\tsetp.ge.u32 %q, %t, 4;\n\t@!%q bra Skip;\n" + c.body + "\nSkip:"
				}
			}
			res := runLanesOnVersion(t, "8.0", c.target, ".reg .b32 %r, %s, %m; .reg .pred %p, %q;", body)
			for l, v := range res {
				want := uint64(0)
				switch {
				case c.want != nil:
					want = c.want(l)
				case strings.Contains(c.name, "xor"): // lanes 0-3: 0^1^2^3
					if l < 4 {
						want = 0
					}
				case strings.Contains(c.name, "elect"): // lanes 4-31 take part; 4 leads
					if l >= 4 {
						want = 4
						if l == 4 {
							want |= 0x100
						}
					}
				}
				if v != want {
					t.Errorf("lane %d: got %#x, want %#x", l, v, want)
				}
			}
		})
	}
}

// TestCollectiveFaults: the uses the manual calls undefined are faults.
func TestCollectiveFaults(t *testing.T) {
	for _, c := range []struct {
		name, body, msg string
		kind            FaultKind
	}{
		{"lane not in its membermask", `
	vote.sync.any.pred %p, %p, 0x1;`, "is not in its membermask", FaultUndefined},
		{"halves wait on each other at different collectives", `
	setp.lt.u32 %p, %t, 16;
	@%p bra A;
	vote.sync.all.pred %p, %p, 0xffffffff;
	bra J;
A:
	vote.sync.any.pred %p, %p, 0xffffffff;
J:`, "waits at", FaultUndefined},
		{"shfl reads a lane outside the mask", `
	setp.lt.u32 %p, %t, 16;
	@%p shfl.sync.down.b32 %r, %t, 1, 31, 0x0000ffff;`, "reads lane 16", FaultUndefined},
		// lanes 16-31 wait at a CTA barrier that lanes 0-15 never reach
		// while lanes 0-15 wait for them at a full-mask vote
		{"collective and barrier deadlock", `
	setp.lt.u32 %p, %t, 16;
	@%p bra A;
	bar.sync 0;
	bra J;
A:
	vote.sync.any.pred %p, %p, 0xffffffff;
J:`, "no thread can make progress", FaultDeadlock},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := `.version 8.0
.target sm_70
.address_size 64
.visible .entry k() {
	.reg .u32 %t, %r;
	.reg .pred %p;
	mov.u32 %t, %tid.x;
` + c.body + `
	ret;
}
`
			p, _ := load(t, src)
			err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}})
			var f *Fault
			if !errors.As(err, &f) {
				t.Fatalf("got %v, want a fault", err)
			}
			if f.Kind != c.kind || !strings.Contains(f.Msg, c.msg) {
				t.Errorf("got %v, want %s containing %q", err, c.kind, c.msg)
			}
		})
	}
}

// TestCollectivePartialWarp: lanes beyond the block count as exited.
func TestCollectivePartialWarp(t *testing.T) {
	p, g := load(t, `.version 8.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out) {
	.reg .u32 %t, %r;
	.reg .b64 %a;
	.reg .pred %p;
	mov.u32 %t, %tid.x;
	setp.ne.u32 %p, %t, 100;
	vote.sync.ballot.b32 %r, %p, 0xffffffff;
	ld.param.u64 %a, [out];
	st.global.u32 [%a], %r;
	ret;
}
`)
	out, _ := g.Alloc(4, 0)
	if err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{20, 1, 1},
		Params: params(p.Kernels["k"], out)}); err != nil {
		t.Fatal(err)
	}
	b, _ := g.Bytes(out, 4)
	if got := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24; got != 0xfffff {
		t.Errorf("ballot = %#x, want 0xfffff (20 lanes)", got)
	}
}

// TestShflWholeMatchesRule: the whole-warp shfl with immediate b and c
// (a lane loop, or block copies where the sources form few runs), and
// with b and c in registers (b differing between lanes), against
// the manual's rule (9.7.9.6: maxLane, minLane and the source lane j from
// b and c, a lane's own value where j is out of range), for every mode
// and assorted b and c, on a row whose 32-bit values carry garbage above
// them (the result is the low 32 bits).
func TestShflWholeMatchesRule(t *testing.T) {
	t.Run("AVX2", func(t *testing.T) {
		if !simdEnabled {
			t.Skip("no AVX2 on this host")
		}
		shflWholeMatchesRule(t)
	})
	setFlag(t, &simdEnabled, false)
	t.Run("Go", func(t *testing.T) { shflWholeMatchesRule(t) })
}

// TestShflRowLayout pins the offsets shfl_row_amd64.s reads.
func TestShflRowLayout(t *testing.T) {
	var r shflRows
	if unsafe.Offsetof(r.off) != 0 || unsafe.Offsetof(r.idx) != 32 || unsafe.Offsetof(r.lane) != 288 {
		t.Fatalf("shflRows layout: off %d idx %d lane %d", unsafe.Offsetof(r.off), unsafe.Offsetof(r.idx), unsafe.Offsetof(r.lane))
	}
}

// shflWholeMatchesRule checks every shift or lane b, with segment masks
// (c's bits 8-12) of 0, 4, 8 and 16 lanes.
func shflWholeMatchesRule(t *testing.T) {
	var bcs [][2]uint32
	for b := range uint32(32) {
		for _, c := range []uint32{31, 0, 0x1807, 0x100f, 0x181f, 0x1c03, 0x1e01} {
			bcs = append(bcs, [2]uint32{b, c})
		}
	}
	for _, mode := range []string{"up", "down", "bfly", "idx"} {
		for _, inRegs := range []bool{false, true} {
			for _, bc := range bcs {
				b, c := bc[0], bc[1]
				operands := fmt.Sprintf("%d, %d", b, c)
				if inRegs { // (each lane's own b: b + 7*lane; c the same in every lane)
					operands = "%b, %c"
				}
				p, _ := load(t, fmt.Sprintf(`.version 7.8
.target sm_90
.address_size 64
.visible .entry k() {
	.reg .b32 %%a, %%d, %%b, %%c;
	.reg .pred %%p;
	shfl.sync.%s.b32 %%d|%%p, %%a, %s, 0xffffffff;
	ret;
}
`, mode, operands))
				fn := p.Kernels["k"]
				o := &fn.Ops[0]
				co, ok := o.aux.(*collOp)
				if !ok || co.whole == nil {
					t.Fatalf("shfl.%s: no whole-warp form", mode)
				}
				f := &frame{fn: fn, regs: make([]uint64, fn.numSlots*warpSize), preds: make([]uint32, fn.numPreds)}
				a := (*lanes)(f.regs[int(co.ins[0])*warpSize:])
				for l := range a {
					a[l] = uint64(l)*0x9e3779b97f4a7c15 ^ 0x5bd1e995
				}
				laneB := func(lane int) uint32 { return b }
				if inRegs {
					laneB = func(lane int) uint32 { return b + 7*uint32(lane) + 0x40 } // (bits above 5 ignored)
					for l := range warpSize {
						f.regs[int(co.ins[1])*warpSize+l] = uint64(laneB(l))
						f.regs[int(co.ins[2])*warpSize+l] = uint64(c)
					}
				}
				co.whole(f)
				d := (*lanes)(f.regs[int(co.dst)*warpSize:])
				for lane := range d {
					j, pval := shflRule(mode, lane, laneB(lane), c)
					if want := a[j] & 0xffffffff; d[lane] != want {
						t.Fatalf("shfl.%s b=%d c=%#x (registers %v) lane %d: %#x, want lane %d's %#x", mode, laneB(lane), c, inRegs, lane, d[lane], j, want)
					}
					if got := f.preds[co.pdst]>>lane&1 != 0; got != pval {
						t.Fatalf("shfl.%s b=%d c=%#x (registers %v) lane %d: p %v, want %v", mode, laneB(lane), c, inRegs, lane, got, pval)
					}
				}
			}
		}
	}
}

// shflRule is 9.7.9.6's rule: lane's source lane j (its own where j is out
// of range) and predicate for shfl mode with b and c.
func shflRule(mode string, lane int, b, c uint32) (int, bool) {
	bval, cval, segmask := int(b&31), int(c&31), int(c>>8&31)
	maxLane := lane&segmask | cval&^segmask
	minLane := lane & segmask
	var j int
	var pval bool
	switch mode {
	case "up":
		j = lane - bval
		pval = j >= maxLane
	case "down":
		j = lane + bval
		pval = j <= maxLane
	case "bfly":
		j = lane ^ bval
		pval = j <= maxLane
	case "idx":
		j = minLane | bval&^segmask
		pval = j <= maxLane
	}
	if !pval {
		j = lane
	}
	return j, pval
}

// TestCollectivePartitionDeclines: membermasks that do not split the warp
// into groups (overlapping masks; a lane outside its own) leave the
// partition fast path to the general one: both paths end alike.
func TestCollectivePartitionDeclines(t *testing.T) {
	for _, masks := range []string{
		`selp.u32 %m, 0x0000ffff, 0xffffffff, %p;`, // lanes 16-31 name lanes 0-15 too
		`selp.u32 %m, 0x0000ffff, 0x0000ffff, %p;`, // lanes 16-31 outside their mask
		`selp.u32 %m, 0x0000ffff, 0xfffe0000, %p;`, // lane 16 outside its mask
		`selp.u32 %m, 0xffffffff, 0xffff0000, %p;`, // lanes 0-15 name lanes 16-31, which do not name them
	} {
		run := func() string {
			src := `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out) {
	.reg .u32 %t, %r, %m;
	.reg .u64 %a, %o;
	.reg .pred %p;
	mov.u32 %t, %tid.x;
	setp.lt.u32 %p, %t, 16;
	` + masks + `
	redux.sync.add.u32 %r, %t, %m;
	ld.param.u64 %a, [out];
	mul.wide.u32 %o, %t, 4;
	add.u64 %a, %a, %o;
	st.global.u32 [%a], %r;
	ret;
}
`
			p, g := load(t, src)
			out, _ := g.Alloc(4*32, 0)
			err := p.Launch(context.Background(), "k", LaunchConfig{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
				Params: params(p.Kernels["k"], out)})
			b, _ := g.Bytes(out, 4*32)
			return fmt.Sprint(err, b)
		}
		whole := run()
		wholeCollectives = false
		general := run()
		wholeCollectives = true
		if whole != general {
			t.Errorf("%s: fast path %s, general path %s", masks, whole, general)
		}
	}
}
