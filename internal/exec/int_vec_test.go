package exec

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/fp"
)

// TestVecMatchesScalar: each instruction with a whole-warp loop gives the
// same results converged (the loop) as when the warp runs it divergent:
// two groups of 15 lanes (the masked loops) and one of 2 lanes (the
// per-lane closures of alu.go), for every operation and type the loops
// cover, on hashed operands and shift amounts from 0 to past the width.
func TestVecMatchesScalar(t *testing.T) {
	for _, op := range []string{"add", "sub", "mul.lo", "mul.wide", "mul.hi", "min", "max", "div", "rem", "and", "or", "xor", "shl", "shr", "mad.lo",
		"shf.l.wrap", "shf.r.wrap", "shf.l.clamp", "shf.r.clamp"} {
		for _, ty := range []string{"u32", "s32", "u64", "s64", "u16", "s16"} {
			if ty[1:] == "16" && op != "min" && op != "max" {
				continue // (16-bit loops: min and max, a byte image's sorting network)
			}
			if strings.HasPrefix(op, "shf") && ty != "u32" {
				continue // funnel shifts are .b32 only
			}
			if op == "mul.wide" && ty[1:] == "64" {
				continue // .wide takes 16- and 32-bit operands
			}
			typ := "." + ty
			if op == "and" || op == "or" || op == "xor" || op == "shl" || strings.HasPrefix(op, "shf") {
				typ = ".b" + ty[1:] // the bit operations take .b types
			}
			dtyp := typ // the destinations' type
			if op == "mul.wide" {
				dtyp = "." + ty[:1] + "64"
			}
			for round := 0; round < 5; round++ { // rounds 3 and 4: immediate second operands
				res := runLanes(t, ".reg .b64 %x, %y, %z, %r1, %r2; .reg .pred %p; .reg .u32 %n, %m;"+
					".reg "+typ+" %a, %b, %c; .reg "+dtyp+" %d1, %d2;", fmt.Sprintf(`
	cvt.u64.u32 %%x, %%t;
	mul.lo.u64 %%x, %%x, 0x9e3779b97f4a7c15;
	add.u64 %%x, %%x, %d;
	mul.lo.u64 %%y, %%x, 0xbf58476d1ce4e5b9;
	xor.b64 %%z, %%x, %%y;
	cvt.%s.u64 %%a, %%x;
	cvt.%s.u64 %%b, %%y;
	cvt.%s.u64 %%c, %%z;
	mul.lo.u32 %%n, %%t, 3;            // shift amounts 0..93
	%s
	and.b32 %%m, %%t, 15;               // lanes 0 and 16: too few for the masked loop
	setp.eq.u32 %%p, %%m, 0;
	@%%p bra S;
	setp.lt.u32 %%p, %%t, 16;
	@%%p bra A;
	%s
	bra J;
A:
	%s
	bra J;
S:
	%s
J:
	cvt.u64.%s %%r1, %%d1;
	cvt.u64.%s %%r2, %%d2;
	xor.b64 %%res, %%r1, %%r2;`, round*7919, tyOf(typ), tyOf(typ), tyOf(typ),
					vecOp(op, typ, "%d1", round), vecOp(op, typ, "%d2", round), vecOp(op, typ, "%d2", round), vecOp(op, typ, "%d2", round), tyOf(dtyp), tyOf(dtyp)))
				for l, v := range res {
					if v != 0 {
						t.Fatalf("%s%s lane %d: converged and divergent results differ by %#x", op, typ, l, v)
					}
				}
			}
		}
	}
}

// tyOf maps a .bNN type to the unsigned type cvt accepts.
func tyOf(typ string) string {
	if typ[1] == 'b' {
		return "u" + typ[2:]
	}
	return typ[1:]
}

// vecOp writes one instruction of the test into register d; from round 3
// on, the second operand is an immediate (shift amounts below and beyond
// 32).
func vecOp(op, typ, d string, round int) string {
	imm := []string{"0x9e3779b9", "-7"}[round%2]
	shift := []string{"5", "37"}[round%2]
	switch {
	case strings.HasPrefix(op, "shf"):
		return op + typ + " " + d + ", %a, %b, %n;"
	case (op == "shl" || op == "shr") && round >= 3:
		return op + typ + " " + d + ", %a, " + shift + ";"
	case op == "shl" || op == "shr":
		return op + typ + " " + d + ", %a, %n;"
	case op == "mad.lo":
		return op + typ + " " + d + ", %a, %b, %c;"
	case round >= 3:
		return op + typ + " " + d + ", %a, " + imm + ";"
	}
	return op + typ + " " + d + ", %a, %b;"
}

// TestFloatFastMatchesFP: the f32/f64 per-lane fast functions and warp
// loops agree with internal/fp (checked there against math/big) on random
// and special operands, NaN results as the GPU's.
func TestFloatFastMatchesFP(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	special32 := []uint64{0, 0x80000000, 1, 0x7f7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x3f800000, 0x00800000}
	special64 := []uint64{0, 1 << 63, 1, 0x7fefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000001, 0x3ff0000000000000}
	for _, f := range []fp.Format{fp.F32, fp.F64} {
		for _, op := range []string{"add", "sub", "mul", "div"} {
			scalar, vec := floatPair(op, f)
			ref := map[string]func(a, b uint64, m fp.Mode) uint64{"add": f.Add, "sub": f.Sub, "mul": f.Mul, "div": f.Div}[op]
			special := special32
			if f == fp.F64 {
				special = special64
			}
			for round := 0; round < 200; round++ {
				var d, a, b lanes
				for i := range a {
					if f == fp.F32 {
						a[i], b[i] = uint64(r.Uint32()), uint64(r.Uint32())
					} else {
						a[i], b[i] = r.Uint64(), r.Uint64()
					}
					if round%2 == 0 {
						a[i], b[i] = special[r.IntN(len(special))], special[r.IntN(len(special))]
					}
				}
				vec.rr(&d, &a, &b)
				for i := range a {
					want := ref(a[i], b[i], fp.RN)
					if d[i] != want || scalar(a[i], b[i]) != want {
						t.Fatalf("%v %s(%#x, %#x): warp %#x, lane %#x, want %#x", f, op, a[i], b[i], d[i], scalar(a[i], b[i]), want)
					}
				}
				if vec.rk == nil && f == fp.F32 && !hostLittleEndian {
					continue // a big-endian host has only the row loop for f32
				}
				var dk lanes // the uniform-operand loop, with b[0] in every lane
				vec.rk(&dk, &a, b[0])
				for i := range a {
					if want := ref(a[i], b[0], fp.RN); dk[i] != want {
						t.Fatalf("%v %s(%#x, uniform %#x): warp %#x, want %#x", f, op, a[i], b[0], dk[i], want)
					}
				}
				// the masked loops: the lanes of the mask get the result,
				// the others keep their value
				mask := r.Uint32()
				var dm, dmk lanes
				for i := range dm {
					dm[i], dmk[i] = uint64(i), uint64(i)
				}
				vec.mrr(&dm, &a, &b, mask)
				vec.mrk(&dmk, &a, b[0], mask)
				for i := range a {
					want, wantK := uint64(i), uint64(i)
					if mask>>i&1 != 0 {
						want, wantK = ref(a[i], b[i], fp.RN), ref(a[i], b[0], fp.RN)
					}
					if dm[i] != want || dmk[i] != wantK {
						t.Fatalf("%v %s lane %d, mask %#x: masked %#x / %#x, want %#x / %#x", f, op, i, mask, dm[i], dmk[i], want, wantK)
					}
				}
			}
		}
	}
}

// TestVecCompareMatchesScalar: the whole-warp comparisons agree with the
// per-lane tests of comparison() for every integer type and operator
// (16-bit ones on values with bits above 16 too: the slot of a .u16
// register need not be zero there).
func TestVecCompareMatchesScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	edges := []uint64{0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 1 << 32, 1<<63 - 1, 1 << 63, ^uint64(0), 0xffffffff_00000000,
		0x7fff, 0x8000, 0xffff, 0x1_0000, 0xffff_8000, 0x20} // (16-bit limits, bits above them)
	n := 0
	for _, ty := range []string{".bf16", ".f16", ".f32", ".f64"} { // (float types: vecFloatCompare's; .bf16 parses as a .b type)
		if vecCompare(ty, ".lt") != nil {
			t.Fatalf("setp.lt%s: an integer warp loop", ty)
		}
		if key, _, ok := setpTrace(ty, ".lt", false); ok && (ty == ".bf16" || ty == ".f16") {
			t.Fatalf("setp.lt%s: trace body %s", ty, key) // (f32 and f64 have theirs)
		}
	}
	for _, ty := range []string{".u16", ".s16", ".b16", ".u32", ".s32", ".b32", ".u64", ".s64", ".b64"} {
		for _, cmp := range []string{".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs"} {
			scalar, err := comparison(ty, cmp, false)
			if err != nil {
				continue // not an operator of this type
			}
			vec := vecCompare(ty, cmp)
			if vec == nil {
				t.Fatalf("setp%s%s: no warp loop", cmp, ty)
			}
			n++
			for round := 0; round < 40; round++ {
				var a, b lanes
				for i := range a {
					a[i], b[i] = r.Uint64(), r.Uint64()
					if round%2 == 0 {
						a[i], b[i] = edges[r.IntN(len(edges))], edges[r.IntN(len(edges))]
					}
				}
				got := vec(&a, &b)
				for i := range a {
					if want := scalar(a[i], b[i]); (got>>i&1 == 1) != want {
						t.Fatalf("setp%s%s(%#x, %#x) = %v, want %v", cmp, ty, a[i], b[i], !want, want)
					}
				}
				// the masked f32 comparison: the lanes of the mask only
				if masked := f32CompareMasked(ty, cmp, false); masked != nil {
					mask := r.Uint32()
					got := masked(&a, &b, mask)
					for i := range a {
						want := mask>>i&1 == 1 && scalar(a[i], b[i])
						if got>>i&1 == 1 != want {
							t.Fatalf("masked setp%s%s(%#x, %#x), lane %d of %#x: %v, want %v", cmp, ty, a[i], b[i], i, mask, !want, want)
						}
					}
				} else if ty == ".f32" {
					t.Fatalf("setp%s.f32: no masked comparison", cmp)
				}
			}
		}
	}
	if n < 30 {
		t.Errorf("only %d type/operator pairs checked", n)
	}
}

// TestVecMadFmaMatch: mad.lo's warp loop agrees with mulMode plus the
// add; fma's agrees with internal/fp.
func TestVecMadFmaMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, ty := range []intType{{32, false}, {32, true}, {64, false}, {64, true}} {
		vec := vecMad("", false, ty)
		wide := intType{bits: min(64, 2*ty.bits), signed: ty.signed}
		var d, a, b, c lanes
		for round := 0; round < 20; round++ {
			for i := range a {
				a[i], b[i], c[i] = r.Uint64(), r.Uint64(), r.Uint64()
			}
			vec(&d, &a, &b, &c)
			for i := range d {
				if want := ty.norm(mulMode(ty, wide, "", a[i], b[i]) + c[i]); d[i] != want {
					t.Fatalf("mad.lo %v(%#x, %#x, %#x) = %#x, want %#x", ty, a[i], b[i], c[i], d[i], want)
				}
			}
		}
	}
	for _, f := range []fp.Format{fp.F32, fp.F64} {
		vec := fmaVec("fma", f)
		var d, a, b, c lanes
		for round := 0; round < 50; round++ {
			for i := range a {
				a[i], b[i], c[i] = r.Uint64(), r.Uint64(), r.Uint64()
				if f == fp.F32 {
					a[i], b[i], c[i] = a[i]&0xffffffff, b[i]&0xffffffff, c[i]&0xffffffff
				}
			}
			vec(&d, &a, &b, &c)
			for i := range d {
				want := f.Fma(a[i], b[i], c[i], fp.RN)
				if f.IsNaN(want) && f.IsNaN(d[i]) {
					continue
				}
				if d[i] != want {
					t.Fatalf("fma %v(%#x, %#x, %#x) = %#x, want %#x", f, a[i], b[i], c[i], d[i], want)
				}
			}
		}
	}
}

// TestVecNormMatches: the move/conversion warp loops agree with
// to.norm(from.norm(a)) for every pair of 32/64-bit integer types.
func TestVecNormMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	types := []intType{{32, false}, {32, true}, {64, false}, {64, true}}
	for _, from := range types {
		for _, to := range types {
			vec := vecNorm(from, to)
			var d, a lanes
			for i := range a {
				a[i] = r.Uint64()
			}
			a[0], a[1] = 0x80000000, 0xffffffff_7fffffff
			vec(&d, &a)
			for i := range d {
				if want := to.norm(from.norm(a[i])); d[i] != want {
					t.Fatalf("%v -> %v (%#x) = %#x, want %#x", from, to, a[i], d[i], want)
				}
			}
		}
	}
}

// TestVecFloatCompareMatchesScalar: the whole-warp f32/f64 comparisons
// agree with comparison() for every operator, NaNs and signed zeros
// included.
func TestVecFloatCompareMatchesScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	sp := map[string][]uint64{
		".f32": {0, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 1},
		".f64": {0, 1 << 63, 0x3ff0000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 1},
	}
	for _, ty := range []string{".f32", ".f64"} {
		for _, cmp := range []string{".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".equ", ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan"} {
			scalar, err := comparison(ty, cmp, false)
			if err != nil {
				t.Fatal(err)
			}
			vec := vecFloatCompare(ty, cmp, false)
			for round := 0; round < 40; round++ {
				var a, b lanes
				for i := range a {
					a[i], b[i] = sp[ty][r.IntN(len(sp[ty]))], sp[ty][r.IntN(len(sp[ty]))]
					if round%2 == 1 && ty == ".f32" {
						a[i], b[i] = uint64(r.Uint32()), uint64(r.Uint32())
					} else if round%2 == 1 {
						a[i], b[i] = r.Uint64(), r.Uint64()
					}
				}
				got := vec(&a, &b)
				for i := range a {
					if want := scalar(a[i], b[i]); (got>>i&1 == 1) != want {
						t.Fatalf("setp%s%s(%#x, %#x) = %v, want %v", cmp, ty, a[i], b[i], !want, want)
					}
				}
				// the masked f32 comparison: the lanes of the mask only
				if masked := f32CompareMasked(ty, cmp, false); masked != nil {
					mask := r.Uint32()
					got := masked(&a, &b, mask)
					for i := range a {
						want := mask>>i&1 == 1 && scalar(a[i], b[i])
						if got>>i&1 == 1 != want {
							t.Fatalf("masked setp%s%s(%#x, %#x), lane %d of %#x: %v, want %v", cmp, ty, a[i], b[i], i, mask, !want, want)
						}
					}
				} else if ty == ".f32" {
					t.Fatalf("setp%s.f32: no masked comparison", cmp)
				}
			}
		}
	}
}

// TestVecResultsNormalized: the warp loops leave results as the per-lane
// handlers do, zero-extended (sign-extended for signed types) in the
// 64-bit slot, which TestVecMatchesScalar cannot see through PTX (every
// consumer reads only the type's width).
func TestVecResultsNormalized(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, op := range []string{"add", "sub", "mul", "and", "or", "xor", "shl", "shr"} {
		for _, ty := range []intType{{32, false}, {32, true}, {64, false}, {64, true}} {
			vec := vecBinary(op, "", ty)
			if vec.rr == nil {
				continue
			}
			want := ty
			if op == "and" || op == "or" || op == "xor" { // bit types: zero-extended
				want.signed = false
			}
			var d, dk, a, b lanes
			k := r.Uint64() & 127
			for i := range a {
				a[i], b[i] = r.Uint64(), r.Uint64()&127
			}
			vec.rr(&d, &a, &b)
			for i := range d {
				if d[i] != want.norm(d[i]) {
					t.Fatalf("%s %v: %#x is not normalized", op, ty, d[i])
				}
			}
			// the uniform-operand form equals the row form with a row of k
			if vec.rk == nil {
				t.Fatalf("%s %v: no uniform-operand form", op, ty)
			}
			for i := range b {
				b[i] = k
			}
			vec.rr(&d, &a, &b)
			vec.rk(&dk, &a, k)
			if d != dk {
				t.Fatalf("%s %v: uniform form %#x, row form %#x", op, ty, dk, d)
			}
			// the masked forms write the lanes of the mask and no others
			mask := r.Uint32()
			check := func(form string, masked func(dm *lanes)) {
				var dm lanes
				for i := range dm {
					dm[i] = uint64(i)
				}
				masked(&dm)
				for i := range dm {
					want := uint64(i)
					if mask>>i&1 != 0 {
						want = d[i]
					}
					if dm[i] != want {
						t.Fatalf("%s %v lane %d, mask %#x: %s %#x, want %#x", op, ty, i, mask, form, dm[i], want)
					}
				}
			}
			if vec.mrr != nil {
				check("masked form", func(dm *lanes) { vec.mrr(dm, &a, &b, mask) })
			}
			check("masked uniform form", func(dm *lanes) { vec.mrk(dm, &a, k, mask) })
		}
	}
}

// TestApproxVecMatchesLanes: the f32 .approx warp loops (rsqrt, rcp,
// sqrt, with and without .ftz) give what the per-lane path gives, on
// inputs including zeros, subnormals, negatives, infinities and NaN: the
// converged warp runs the loop, the divergent halves the lane functions.
func TestApproxVecMatchesLanes(t *testing.T) {
	for _, op := range []string{"rsqrt.approx.f32", "rsqrt.approx.ftz.f32", "rcp.approx.f32", "rcp.approx.ftz.f32",
		"sqrt.approx.f32", "sqrt.approx.ftz.f32"} {
		res := runLanes(t, ".reg .b32 %x, %d1, %d2, %r1, %r2; .reg .b64 %t64; .reg .pred %p; .reg .b32 %special;", `
	// lanes 0-7 take special values, the others pseudo-random bits
	mul.lo.u32 %x, %t, 0x9e3779b9;
	xor.b32 %x, %x, 0x5bd1e995;
	setp.eq.u32 %p, %t, 0;
	@%p mov.b32 %x, 0x00000000;
	setp.eq.u32 %p, %t, 1;
	@%p mov.b32 %x, 0x80000000;
	setp.eq.u32 %p, %t, 2;
	@%p mov.b32 %x, 0x00000001;     // smallest subnormal
	setp.eq.u32 %p, %t, 3;
	@%p mov.b32 %x, 0x807fffff;     // negative subnormal
	setp.eq.u32 %p, %t, 4;
	@%p mov.b32 %x, 0x7f800000;
	setp.eq.u32 %p, %t, 5;
	@%p mov.b32 %x, 0xff800000;
	setp.eq.u32 %p, %t, 6;
	@%p mov.b32 %x, 0x7fc12345;
	setp.eq.u32 %p, %t, 7;
	@%p mov.b32 %x, 0x7f7fffff;
	`+op+` %d1, %x;
	setp.lt.u32 %p, %t, 16;
	@%p bra A;
	`+op+` %d2, %x;
	bra J;
A:
	`+op+` %d2, %x;
J:
	xor.b32 %r1, %d1, %d2;
	cvt.u64.u32 %res, %r1;`)
		for l, v := range res {
			if v != 0 {
				t.Fatalf("%s lane %d: converged and divergent results differ by %#x", op, l, v)
			}
		}
	}
}

// TestCvtVecMatchesLanes: the cvt warp loops (32-bit integers to f32/f64,
// f32 to 32-bit integers with .rzi, .rni, .rmi, .rpi; AVX2 where the host
// has it) give what the per-lane conversions
// give, on special values (zeros, subnormals, infinities, NaN, the
// integer limits and just past them) and hashed bits: converged runs the
// loop, the divergent halves the masked loop, groups of three lanes the
// per-lane path.
func TestCvtVecMatchesLanes(t *testing.T) {
	special := []string{"0x00000000", "0x80000000", "0x00000001", "0x807fffff", "0x7f800000", "0xff800000",
		"0x7fc00000", "0x4f000000", "0xcf000000", "0x4f800000", "0xcf000001", "0x3f7fffff", "0xbf7fffff",
		"0x7fffffff", "0xffffffff", "0x4effffff", "0x3f000000", "0xbf000000", "0x3fc00000", "0x40200000",
		"0xc0200000", "0x4f7fffff", "0x80000001", "0xbf7fffff"}
	ops := []string{"cvt.rn.f32.s32 %d?, %x", "cvt.rn.f32.u32 %d?, %x", "cvt.rn.f64.s32 %e?, %x", "cvt.rn.f64.u32 %e?, %x"}
	for _, rnd := range []string{".rzi", ".rni", ".rmi", ".rpi"} {
		for _, ty := range []string{".s32", ".u32"} {
			ops = append(ops, "cvt"+rnd+ty+".f32 %d?, %x", "cvt"+rnd+".ftz"+ty+".f32 %d?, %x")
		}
	}
	for _, op := range ops {
		unaryMatchesLanes(t, special, op)
	}
}

// unaryMatchesLanes runs op (its destination %d? .b32, %e? .b64 or %g?
// .b16; its source %x, or %h (%x's low 16 bits) or %w (%x as f64)) after
// %x is set to hashed bits with special's values over them (one per lane
// from lane 0): on the whole warp (a warp loop), on its two halves (the
// masked loop) and on at most three lanes at a time (inLaneGroups: the
// per-lane path), and fails at the first lane whose results differ.
func unaryMatchesLanes(t *testing.T, special []string, op string) {
	t.Helper()
	fold := "xor.b32 %d2, %d1, %d2;\n\txor.b32 %d3, %d1, %d3;\n\tor.b32 %d1, %d2, %d3;\n\tcvt.u64.u32 %res, %d1;"
	switch {
	case strings.Contains(op, "%e?"):
		fold = "xor.b64 %e2, %e1, %e2;\n\txor.b64 %e3, %e1, %e3;\n\tor.b64 %res, %e2, %e3;"
	case strings.Contains(op, "%g?"):
		fold = "xor.b16 %g2, %g1, %g2;\n\txor.b16 %g3, %g1, %g3;\n\tor.b16 %g1, %g2, %g3;\n\tcvt.u64.u16 %res, %g1;"
	}
	body := `
	mul.lo.u32 %x, %t, 0x9e3779b9;
	xor.b32 %x, %x, 0x5bd1e995;
`
	for i, v := range special {
		body += fmt.Sprintf("\tsetp.eq.u32 %%p, %%t, %d;\n\t@%%p mov.b32 %%x, %s;\n", i, v)
	}
	body += `	cvt.u16.u32 %h, %x;
	cvt.f64.f32 %w, %x;
	` + strings.ReplaceAll(op, "?", "1") + `;
	setp.lt.u32 %p, %t, 16;
	@%p bra A;
	` + strings.ReplaceAll(op, "?", "2") + `;
	bra J;
A:
	` + strings.ReplaceAll(op, "?", "2") + `;
J:
` + inLaneGroups(strings.ReplaceAll(op, "?", "3")) + "\t" + fold
	res := runLanes(t, ".reg .b32 %x, %d1, %d2, %d3, %lm; .reg .b16 %h, %g1, %g2, %g3; .reg .b64 %w, %e1, %e2, %e3; .reg .pred %p, %lq;", body)
	for l, v := range res {
		if v != 0 {
			t.Fatalf("%s lane %d: converged, divergent and per-lane results differ by %#x", op, l, v)
		}
	}
}

// lanesDecls are the registers convergedMatchesLanes's bodies use.
const lanesDecls = ".reg .b32 %x, %y, %z, %d1, %d2, %d3, %lm; .reg .b64 %w, %v, %u, %e1, %e2, %e3; .reg .pred %p, %q, %lq;"

// convergedMatchesLanes runs "inst dst, args" after setup on a full warp
// (the converged path: a warp loop where there is one), again with the
// warp split in two halves at different instructions (a masked warp loop
// where the op has one), and again on at most three lanes at a time
// (inLaneGroups: the per-lane path), and fails at the first lane whose
// results differ. dst is %d1/%d2/%d3 (.b32) or, with wide, %e1/%e2/%e3
// (.b64).
func convergedMatchesLanes(t *testing.T, setup, inst, args string, wide bool) {
	t.Helper()
	d1, d2, d3, fold := "%d1", "%d2", "%d3", "xor.b32 %d2, %d1, %d2;\n\txor.b32 %d3, %d1, %d3;\n\tor.b32 %d1, %d2, %d3;\n\tcvt.u64.u32 %res, %d1;"
	if wide {
		d1, d2, d3, fold = "%e1", "%e2", "%e3", "xor.b64 %e2, %e1, %e2;\n\txor.b64 %e3, %e1, %e3;\n\tor.b64 %res, %e2, %e3;"
	}
	body := setup + inst + " " + d1 + ", " + args + `;
	setp.lt.u32 %p, %t, 16;
	@%p bra A;
	` + inst + " " + d2 + ", " + args + `;
	bra J;
A:
	` + inst + " " + d2 + ", " + args + `;
J:
` + inLaneGroups(inst+" "+d3+", "+args) + "\t" + fold
	for l, v := range runLanesOnVersion(t, "7.8", "sm_90", lanesDecls, body) {
		if v != 0 {
			t.Fatalf("%s lane %d: converged, divergent and per-lane results differ by %#x", inst, l, v)
		}
	}
}

// inLaneGroups runs stmt on at most three lanes at a time (those of equal
// %t mod 11, guarded: %lm and %lq), so that an op takes its per-lane path
// (a masked warp loop needs maskedMinLanes lanes).
func inLaneGroups(stmt string) string {
	s := "\trem.u32 %lm, %t, 11;\n"
	for k := range 11 {
		s += fmt.Sprintf("\tsetp.eq.u32 %%lq, %%lm, %d;\n\t@%%lq %s;\n", k, stmt)
	}
	return s
}

// hashedSetup puts hashed bits in %x, then special values (one per lane
// from lane 0) over them.
func hashedSetup(special []string) string {
	s := `
	mul.lo.u32 %x, %t, 0x9e3779b9;
	xor.b32 %x, %x, 0x5bd1e995;
`
	for i, v := range special {
		s += fmt.Sprintf("\tsetp.eq.u32 %%p, %%t, %d;\n\t@%%p mov.b32 %%x, %s;\n", i, v)
	}
	return s
}

// TestTranscendentalVecMatchesLanes: the warp loops of the f32 .approx
// transcendentals (ex2, lg2, sin, cos, tanh, with and without .ftz; AVX2
// where the host has it) give what the per-lane path gives (approxFn under
// floatMods), on special values (zeros, subnormals, infinities, NaN, the
// edges of ex2's range, multiples of pi, huge arguments) and hashed bits.
func TestTranscendentalVecMatchesLanes(t *testing.T) {
	special := []string{"0x00000000", "0x80000000", "0x00000001", "0x807fffff", "0x7f800000", "0xff800000",
		"0x7fc00000", "0x3f800000", "0xbf800000", "0x43000000", "0x42ffffff", "0xc3150000", "0xc3160000",
		"0xc2fc0000", "0x40490fdb", "0xc0490fdb", "0x3fc90fdb", "0x4e6e6b28", "0x7f7fffff", "0xff7fffff",
		"0x3effffff", "0x41200000", "0xc1200000", "0x34000000", "0x4b000001", "0xcafebabe"}
	for _, op := range []string{"ex2", "lg2", "sin", "cos", "tanh"} {
		for _, ftz := range []string{"", ".ftz"} {
			if op == "tanh" && ftz != "" {
				continue // (tanh has no .ftz form)
			}
			convergedMatchesLanes(t, hashedSetup(special), op+".approx"+ftz+".f32", "%x", false)
		}
	}
}

// TestNegAbsVecMatchesLanes: the warp loops of neg and abs (f32 with and
// without .ftz, f64) give what the per-lane path gives (fp.Neg, fp.Abs
// under floatMods), NaNs, zeros, subnormals and infinities included.
func TestNegAbsVecMatchesLanes(t *testing.T) {
	special := []string{"0x00000000", "0x80000000", "0x00000001", "0x807fffff", "0x7f800000", "0xff800000",
		"0x7fc00000", "0xffc12345", "0x7f800001", "0x3f800000", "0x00800000", "0x80800000"}
	for _, inst := range []string{"neg.f32", "neg.ftz.f32", "abs.f32", "abs.ftz.f32"} {
		convergedMatchesLanes(t, hashedSetup(special), inst, "%x", false)
	}
	// f64: the bits twice (f64 NaNs, subnormals, infinities), and a subnormal
	wide := hashedSetup(special) + "\tmov.b64 %w, {%x, %x};\n\tsetp.eq.u32 %p, %t, 20;\n\t@%p mov.b64 %w, 0x000fffffffffffff;\n"
	for _, inst := range []string{"neg.f64", "abs.f64"} {
		convergedMatchesLanes(t, wide, inst, "%w", true)
	}
}

// TestMoreVecMatchesLanes: the warp loops of integer neg, not and abs,
// popc, clz, brev, mad.wide, cvt between f32 and f64 (.ftz too), selp and
// div.approx/div.full.f32 give what the
// per-lane paths give, on special values (integer limits, float zeros,
// subnormals, infinities, NaNs with payloads) and hashed bits.
func TestMoreVecMatchesLanes(t *testing.T) {
	special := []string{"0x00000000", "0x80000000", "0x7fffffff", "0xffffffff", "0x00000001", "0x807fffff",
		"0x7f800000", "0xff800000", "0x7fc00000", "0x7f800001", "0xffc12345", "0x3f800000", "0x00800000"}
	for _, c := range []struct{ inst, dt, at string }{
		{"neg.s32", "b32", "b32"}, {"not.b32", "b32", "b32"}, {"abs.s32", "b32", "b32"},
		{"neg.s64", "b64", "b64"}, {"not.b64", "b64", "b64"}, {"abs.s64", "b64", "b64"},
		{"cvt.f64.f32", "b64", "b32"}, {"cvt.ftz.f64.f32", "b64", "b32"},
		{"cvt.rn.f32.f64", "b32", "b64"}, {"cvt.rn.ftz.f32.f64", "b32", "b64"},
		{"mad.wide.u32", "b64", "b32"}, {"mad.wide.s32", "b64", "b32"}, {"selp.b64", "b64", "b64"},
		{"popc.b32", "b32", "b32"}, {"popc.b64", "b32", "b64"}, {"clz.b32", "b32", "b32"}, {"clz.b64", "b32", "b64"},
		{"brev.b32", "b32", "b32"}, {"brev.b64", "b64", "b64"},
		{"cvt.rzi.s32.f64", "b32", "b64"}, {"cvt.rni.s32.f64", "b32", "b64"}, {"cvt.rmi.u32.f64", "b32", "b64"},
		{"cvt.rpi.u32.f64", "b32", "b64"}, {"cvt.rzi.u32.f64", "b32", "b64"}, {"cvt.rpi.s32.f64", "b32", "b64"},
		{"div.approx.f32", "b32", "b32"}, {"div.approx.ftz.f32", "b32", "b32"},
		{"div.full.f32", "b32", "b32"}, {"div.full.ftz.f32", "b32", "b32"},
	} {
		body := hashedSetup(special)
		// 64-bit operands: the bits next to a hashed word (f64 NaNs,
		// subnormals, infinities where the word is one of the specials)
		body += "\tmul.lo.u32 %y, %x, 0x01000193;\n\tmov.b64 %w, {%y, %x};\n"
		src := map[string]string{"b32": "%x", "b64": "%w"}[c.at]
		args := src
		switch {
		case strings.HasPrefix(c.inst, "mad.wide"):
			args = "%x, %y, %w"
		case strings.HasSuffix(c.inst, ".f64") && strings.HasPrefix(c.inst, "cvt.r"):
			// f64 inputs: NaN, infinities, the limits of s32 and u32 and
			// just past them, halves (ties), tiny values
			for i, v := range []string{"0x7ff8000000000000", "0x7ff0000000000000", "0xfff0000000000000",
				"0x41dfffffffc00000", "0x41e0000000000000", "0xc1e0000000000000", "0xc1e0000000200000",
				"0x41efffffffe00000", "0x41f0000000000000", "0x3fe0000000000000", "0xbfe0000000000000",
				"0x4004000000000000", "0xc004000000000000", "0x0000000000000001", "0x8000000000000001",
				"0x41efffffffffffff", "0xbff0000000000000", "0x4197d78400000000"} {
				body += fmt.Sprintf("\tsetp.eq.u32 %%p, %%t, %d;\n\t@%%p mov.b64 %%w, %s;\n", i, v)
			}
		case strings.HasPrefix(c.inst, "div"):
			// divisors: the specials again (lanes 13-25: 2^126 <= |b|
			// <= 2^128 and beyond, for div.approx's quirk), hashed bits
			args = "%x, %z"
			body += "\tmov.b32 %z, %y;\n"
			for i, v := range []string{"0x7f000000", "0xff000000", "0x7e800000", "0x7e800001", "0x7f7fffff",
				"0x7f800000", "0x00000000", "0x80000000", "0x7fc00000", "0x00000001", "0x3f800000", "0xbf800000", "0x7effffff"} {
				body += fmt.Sprintf("\tsetp.eq.u32 %%p, %%t, %d;\n\t@%%p mov.b32 %%z, %s;\n", i+13, v)
			}
			body += "\tsetp.lt.u32 %p, %t, 13;\n\t@%p mov.b32 %z, 0x7f000000;\n"
		case strings.HasPrefix(c.inst, "selp"):
			args = "%w, %v, %q"
			body += "\tmov.b64 %v, {%x, %y};\n\tand.b32 %z, %x, 5;\n\tsetp.ne.u32 %q, %z, 0;\n"
		}
		convergedMatchesLanes(t, body, c.inst, args, c.dt == "b64")
	}
}

// TestMovSregMatchesLanes: mov from a special register gives the same
// values converged (the row copy) as in divergent halves (lane by lane).
func TestMovSregMatchesLanes(t *testing.T) {
	for _, sr := range []string{"%tid.x", "%ntid.x", "%ctaid.x", "%laneid", "%warpid", "%lanemask_lt", "%lanemask_ge", "%nctaid.x"} {
		res := runLanes(t, ".reg .b32 %d1, %d2; .reg .pred %p;", `
	mov.u32 %d1, `+sr+`;
	setp.lt.u32 %p, %t, 16;
	@%p bra A;
	mov.u32 %d2, `+sr+`;
	bra J;
A:
	mov.u32 %d2, `+sr+`;
J:
	xor.b32 %d1, %d1, %d2;
	cvt.u64.u32 %res, %d1;`)
		for l, v := range res {
			if v != 0 {
				t.Fatalf("mov.u32 from %s, lane %d: converged and divergent values differ by %#x", sr, l, v)
			}
		}
	}
}

// TestLop3Lut: every lut and random operands against the manual's rule
// bit by bit (9.7.8.6: bit i of d is bit a_i<<2 | b_i<<1 | c_i of immLut,
// where F(0xF0, 0xCC, 0xAA) = immLut), and the converged loops of lop3 and
// prmt against the lanes.
func TestLop3Lut(t *testing.T) {
	r := rand.New(rand.NewPCG(81, 82))
	for lut := uint64(0); lut < 256; lut++ {
		if got := lop3Lut(lut, 0xF0, 0xCC, 0xAA); got&0xff != lut {
			t.Fatalf("lop3Lut(%#x, 0xF0, 0xCC, 0xAA) = %#x: low byte not the lut", lut, got)
		}
		for k := 0; k < 20; k++ {
			a, b, c := r.Uint64(), r.Uint64(), r.Uint64()
			var want uint64
			for i := uint(0); i < 32; i++ {
				idx := (a>>i&1)<<2 | (b>>i&1)<<1 | c>>i&1
				want |= (lut >> idx & 1) << i
			}
			if got := lop3Lut(lut, a, b, c); got != want {
				t.Fatalf("lop3Lut(%#x, %#x, %#x, %#x) = %#x, want %#x", lut, a, b, c, got, want)
			}
		}
	}
	// prmt's generic form, converged against the lanes, selectors hashed
	// (sign replication included)
	threeHashed := `
	mul.lo.u32 %x, %t, 0x9e3779b9;
	xor.b32 %y, %x, 0x5bd1e995;
	mul.lo.u32 %z, %y, 0x01000193;
`
	convergedMatchesLanes(t, threeHashed, "prmt.b32", "%x, %y, %z", false)
	for _, lut := range []string{"0x96", "0xe8", "0x1e", "0x00", "0xff", "0x6a"} {
		convergedMatchesLanes(t, threeHashed, "lop3.b32", "%x, %y, %z, "+lut, false)
	}
}

// TestBfe: bfe against the manual's rule bit by bit (9.7.8.9: d[i] =
// a[pos+i] for i < len and pos+i <= msb, else the sign bit, which is
// a[min(pos+len-1, msb)] for .s and a non-zero len, else 0) for every type,
// positions and lengths 0..255 around the widths, random a; and the
// converged loop against the lanes.
func TestBfe(t *testing.T) {
	r := rand.New(rand.NewPCG(111, 112))
	ref := func(it intType, a, b, c uint64) uint64 {
		msb := uint64(it.bits - 1)
		pos, ln := b&0xff, c&0xff
		var sbit uint64
		if it.signed && ln != 0 {
			sbit = a >> min(pos+ln-1, msb) & 1
		}
		var d uint64
		for i := uint64(0); i <= msb; i++ {
			bit := sbit
			if i < ln && pos+i <= msb {
				bit = a >> (pos + i) & 1
			}
			d |= bit << i
		}
		return it.norm(d)
	}
	edges := []uint64{0, 1, 2, 7, 8, 15, 16, 30, 31, 32, 33, 62, 63, 64, 65, 127, 200, 255, 256, 257, 0x1ff}
	for _, it := range []intType{{32, false}, {32, true}, {64, false}, {64, true}} {
		for i := 0; i < 100000; i++ {
			a := r.Uint64()
			b, c := edges[r.IntN(len(edges))], edges[r.IntN(len(edges))]
			if r.IntN(2) == 0 {
				b, c = r.Uint64(), r.Uint64()
			}
			if got, want := bfe(it, a, b, c), ref(it, a, b, c); got != want {
				t.Fatalf("bfe %v a=%#x pos=%#x len=%#x: %#x, want %#x", it, a, b, c, got, want)
			}
		}
	}
	convergedMatchesLanes(t, `
	mul.lo.u32 %x, %t, 0x9e3779b9;
	xor.b32 %y, %x, 0x5bd1e995;
	and.b32 %y, %y, 63;
	mul.lo.u32 %z, %x, 0x01000193;
	and.b32 %z, %z, 63;
`, "bfe.s32", "%x, %y, %z", false)
}

// TestBfi: bfi against the manual's rule bit by bit (9.7.8.10: b with
// bits pos..pos+len-1, as far as the width reaches, taken from a's low
// bits) for both widths, around the widths and at random.
func TestBfi(t *testing.T) {
	r := rand.New(rand.NewPCG(121, 122))
	ref := func(it intType, a, b, c, d uint64) uint64 {
		pos, ln := c&0xff, d&0xff
		f := b & it.mask()
		for k := uint64(0); k < ln && pos+k < uint64(it.bits); k++ {
			f = f&^(1<<(pos+k)) | (a>>k&1)<<(pos+k)
		}
		return f
	}
	edges := []uint64{0, 1, 2, 7, 8, 15, 16, 30, 31, 32, 33, 62, 63, 64, 65, 127, 200, 255, 256, 257, 0x1ff}
	for _, it := range []intType{{32, false}, {64, false}} {
		for i := 0; i < 100000; i++ {
			a, b := r.Uint64(), r.Uint64()
			c, d := edges[r.IntN(len(edges))], edges[r.IntN(len(edges))]
			if r.IntN(2) == 0 {
				c, d = r.Uint64(), r.Uint64()
			}
			if got, want := bfi(it, a, b, c, d), ref(it, a, b, c, d); got != want {
				t.Fatalf("bfi %v a=%#x b=%#x pos=%#x len=%#x: %#x, want %#x", it, a, b, c, d, got, want)
			}
		}
	}
}

// TestCvtNarrowIntVecMatchesLanes: integer cvt from or to 8- and 16-bit
// types converged (the extension loops) against the lanes, for every
// pair of widths and signedness, on hashed bits and the limits of each
// width.
func TestCvtNarrowIntVecMatchesLanes(t *testing.T) {
	special := []string{"0x00000000", "0xffffffff", "0x0000007f", "0x00000080", "0x000000ff", "0x00000100",
		"0x00007fff", "0x00008000", "0x0000ffff", "0x00010000", "0x7fffffff", "0x80000000", "0xffffff80", "0xffff8000"}
	setup := hashedSetup(special) + "\tmul.lo.u32 %y, %x, 0x01000193;\n\tmov.b64 %w, {%x, %y};\n"
	types := []string{"u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64"}
	bits := map[byte]int{'8': 8, '1': 16, '3': 32, '6': 64}
	for _, dt := range types {
		for _, st := range types {
			db, sb := bits[dt[1]], bits[st[1]]
			if db >= 32 && sb >= 32 {
				continue // (vecNorm's wide cases are TestMoreVecMatchesLanes's)
			}
			src := "%x"
			if sb == 64 {
				src = "%w"
			}
			convergedMatchesLanes(t, setup, "cvt."+dt+"."+st, src, db == 64)
			// and all 64 bits of each lane's slot, which PTX reads only
			// through the type's width, against the lane rule
			from, _ := parseInt("." + st)
			to, _ := parseInt("." + dt)
			loop := vecNormNarrow(from, to)
			r := rand.New(rand.NewPCG(uint64(db), uint64(sb)))
			for round := 0; round < 20; round++ {
				var d, a lanes
				for i := range a {
					a[i] = r.Uint64() >> (r.Uint64() % 64)
				}
				loop(&d, &a)
				for i := range a {
					if want := to.norm(from.norm(a[i])); d[i] != want {
						t.Fatalf("cvt.%s.%s lane %d of %#x: slot %#x, want %#x", dt, st, i, a[i], d[i], want)
					}
				}
			}
		}
	}
}

// TestCvt64VecMatchesLanes: cvt between 64-bit integers and f32/f64
// converged (Go warp loops) against the lanes (internal/fp's conversions):
// values that round to nearest even at 2^24 and 2^53, the limits of
// s64/u64 and just past them, NaN, infinities, subnormals, hashed bits.
func TestCvt64VecMatchesLanes(t *testing.T) {
	wide := []string{"0x0000000001000001", "0x0000000001000003", "0x0020000000000001", "0x0020000000000003",
		"0x7fffffffffffffff", "0x8000000000000000", "0xffffffffffffffff", "0x8000000000000001",
		"0x7ff8000000000000", "0x7ff0000000000000", "0xfff0000000000000", "0x43e0000000000000",
		"0xc3e0000000000000", "0x43f0000000000000", "0x43efffffffffffff", "0xc3e0000000000001",
		"0x0000000000000001", "0x3fe0000000000000", "0xbfe8000000000000", "0x4330000000000001",
		"0x00000100007fffff", "0xffffff0000000080", "0x000000005f000000", "0x00000000df000000",
		"0x000000005f800000", "0x00000000ff800000", "0x000000007fc00000", "0x0000000080000001"}
	setup := hashedSetup(nil) + "\tmul.lo.u32 %y, %x, 0x01000193;\n\tmov.b64 %w, {%y, %x};\n"
	for i, v := range wide {
		setup += fmt.Sprintf("\tsetp.eq.u32 %%p, %%t, %d;\n\t@%%p mov.b64 %%w, %s;\n", i, v)
	}
	setup += "\tcvt.u32.u64 %x, %w;\n" // the low words as f32 operands
	for _, inst := range []string{"cvt.rn.f32.s64", "cvt.rn.f32.u64", "cvt.rn.f64.s64", "cvt.rn.f64.u64"} {
		convergedMatchesLanes(t, setup, inst, "%w", strings.Contains(inst, "f64"))
	}
	for _, irnd := range []string{".rzi", ".rni", ".rmi", ".rpi"} {
		for _, it := range []string{"s64", "u64"} {
			convergedMatchesLanes(t, setup, "cvt"+irnd+"."+it+".f64", "%w", true)
			convergedMatchesLanes(t, setup, "cvt"+irnd+"."+it+".f32", "%x", true)
			convergedMatchesLanes(t, setup, "cvt"+irnd+".ftz."+it+".f32", "%x", true)
		}
	}
}

// TestInt16VecMatchesLanes: 16-bit add, sub, mul.lo, mad.lo, bit
// operations and shifts converged (the 32-bit loops, then the extension)
// against the lanes, with operands held extended both ways (mov.b16 zero-
// extends, cvt.s16 sign-extends) and each result shifted right again as
// .s16 and .u16, which reads the bits above 16 that the first result's
// register holds.
func TestInt16VecMatchesLanes(t *testing.T) {
	special := []string{"0x00000000", "0x0000ffff", "0x00008000", "0x00007fff", "0xffff8000", "0x00000001",
		"0x0000fffe", "0x00000010", "0x00000011", "0x00000020"}
	decls := lanesDecls + " .reg .b16 %ha, %hb, %hc, %h1, %h2, %s1, %s2;"
	setup := hashedSetup(special) + `
	mul.lo.u32 %y, %x, 0x01000193;
	mov.b32 {%ha, %hc}, %x;
	cvt.s16.s32 %hb, %y;
	and.b32 %z, %y, 31;
`
	for _, c := range []struct{ inst, args string }{
		{"add.s16", "%ha, %hb"}, {"add.u16", "%hb, 7"}, {"sub.s16", "%hb, %ha"}, {"sub.u16", "%ha, -3"},
		{"mul.lo.s16", "%ha, %hb"}, {"mul.lo.u16", "%hb, 300"}, {"mad.lo.s16", "%ha, %hb, %hc"}, {"mad.lo.u16", "%hb, 3, %ha"},
		{"and.b16", "%ha, %hb"}, {"or.b16", "%hb, 0x8001"}, {"xor.b16", "%ha, %hb"},
		{"shl.b16", "%hb, %z"}, {"shl.b16", "%ha, 9"},
		{"shr.s16", "%ha, %z"}, {"shr.s16", "%ha, 3"}, {"shr.u16", "%hb, %z"}, {"shr.u16", "%hb, 4"},
	} {
		for _, after := range []string{"shr.s16", "shr.u16"} {
			body := setup + c.inst + " %h1, " + c.args + `;
	` + after + ` %s1, %h1, 5;
	setp.lt.u32 %p, %t, 16;
	@%p bra A;
	` + c.inst + " %h2, " + c.args + `;
	bra J;
A:
	` + c.inst + " %h2, " + c.args + `;
J:
	` + after + ` %s2, %h2, 5;
	xor.b16 %h1, %h1, %h2;
	xor.b16 %s1, %s1, %s2;
	mov.b32 %d1, {%h1, %s1};
	cvt.u64.u32 %res, %d1;`
			for l, v := range runLanesOnVersion(t, "7.8", "sm_90", decls, body) {
				if v != 0 {
					t.Fatalf("%s %s then %s, lane %d: converged and divergent results differ by %#x", c.inst, c.args, after, l, v)
				}
			}
		}
	}
}

// TestDivRem64VecMatchesLanes: div and rem on s64 and u64 converged (Go
// warp loops) against the lanes: zero divisors, -1, the most negative
// value, hashed operands.
func TestDivRem64VecMatchesLanes(t *testing.T) {
	setup := hashedSetup(nil) + "\tmul.lo.u32 %y, %x, 0x01000193;\n\tmov.b64 %w, {%y, %x};\n\tshr.u64 %v, %w, 29;\n"
	for i, p := range [][2]string{{"5", "0"}, {"0x8000000000000000", "-1"}, {"-7", "2"}, {"7", "-2"}, {"-1", "-1"},
		{"0xffffffffffffffff", "3"}, {"0x8000000000000000", "0"}, {"12345678901234", "1000"}, {"0", "0"}} {
		setup += fmt.Sprintf("\tsetp.eq.u32 %%p, %%t, %d;\n\t@%%p mov.b64 %%w, %s;\n\t@%%p mov.b64 %%v, %s;\n", i, p[0], p[1])
	}
	for _, inst := range []string{"div.s64", "div.u64", "rem.s64", "rem.u64"} {
		convergedMatchesLanes(t, setup, inst, "%w, %v", true)
		convergedMatchesLanes(t, setup, inst, "%w, 1000", true)
		convergedMatchesLanes(t, setup, inst, "%w, -1", true)
	}
}

// TestPackUnpackWholeWarp: mov packing and unpacking (2 and 4 elements,
// a sink, a register packed twice) on a full warp against split halves.
func TestPackUnpackWholeWarp(t *testing.T) {
	decls := lanesDecls + " .reg .b16 %h<4>; .reg .b32 %r<4>;"
	setup := hashedSetup(nil) + "\tmul.lo.u32 %y, %x, 0x01000193;\n\tmov.b64 %w, {%y, %x};\n"
	for _, c := range []struct{ inst, post string }{
		{"mov.b64 %e1, {%x, %y}", "mov.b64 %res, %e1;"},
		{"mov.b64 {%r0, %r1}, %w", "xor.b32 %r0, %r0, 0x5bd1e995;\n\tmov.b64 %res, {%r0, %r1};"},
		{"mov.b64 {%r0, _}, %w", "mov.b64 %res, {%r0, %r0};"},
		{"mov.b32 {%h0, %h1}, %x", "mov.b32 %r2, {%h1, %h0};\n\tmov.b64 %res, {%r2, %y};"},
		{"mov.b64 {%h0, %h1, %h2, %h3}, %w", "mov.b64 %res, {%h3, %h1, %h0, %h2};"},
		{"mov.b64 %e1, {%x, %x}", "mov.b64 %res, %e1;"},
	} {
		body := setup + c.inst + ";\n\t" + c.post + `
	mov.b64 %e2, %res;
	setp.lt.u32 %p, %t, 16;
	@%p bra B;
	` + c.inst + `;
	bra J;
B:
	` + c.inst + `;
J:
	` + c.post + `
	xor.b64 %res, %res, %e2;`
		for l, v := range runLanesOnVersion(t, "7.8", "sm_90", decls, body) {
			if v != 0 {
				t.Fatalf("%s; %s lane %d: whole-warp and split results differ by %#x", c.inst, c.post, l, v)
			}
		}
	}
}

// TestPredLogicInTraces: and, or, xor and not on predicates (negated
// operands, a destination that is an operand) between AVX2 ops, so that
// traces run them, against split halves (the Go path).
func TestPredLogicInTraces(t *testing.T) {
	setup := hashedSetup(nil) + `
	mul.lo.u32 %y, %x, 0x01000193;
	setp.lt.u32 %p, %x, %y;
	setp.gt.s32 %q, %x, %y;
`
	for _, inst := range []string{"and.pred %p, %p, %q", "or.pred %q, !%p, %q", "xor.pred %p, %q, !%p",
		"not.pred %p, %q", "and.pred %q, !%q, !%p", "not.pred %p, !%p", "or.pred %p, %p, 1"} {
		// add, the op, selp: one trace where the whole warp runs it
		body := setup + "\tadd.u32 %z, %x, 1;\n\t" + inst + ";\n\tselp.b32 %d1, %x, %z, %p;\n\tselp.b32 %d1, %d1, %y, %q;\n"
		for l, v := range runLanesOnVersion(t, "7.8", "sm_90", lanesDecls, body+`
	setp.lt.u32 %p, %x, %y;
	setp.gt.s32 %q, %x, %y;
	setp.lt.u32 %p, %t, 16;
	@%p bra A;
	setp.lt.u32 %p, %x, %y;
	`+inst+`;
	bra J;
A:
	setp.lt.u32 %p, %x, %y;
	`+inst+`;
J:
	selp.b32 %d2, %x, %z, %p;
	selp.b32 %d2, %d2, %y, %q;
	xor.b32 %d1, %d1, %d2;
	cvt.u64.u32 %res, %d1;`) {
			if v != 0 {
				t.Fatalf("%s lane %d: the trace and the split halves differ by %#x", inst, l, v)
			}
		}
	}
}

// TestCvtSmallIntVecMatchesLanes: the cvt warp loops between floats and
// 8- and 16-bit integers (a pixel's cvt.rn.f32.u16 and cvt.rzi.u16.f32),
// whole and masked, give what the per-lane conversions give, on the types' limits, halves
// just inside and past them, zeros, subnormals, infinities, NaN and
// hashed bits; from .f64 too (the same values widened).
func TestCvtSmallIntVecMatchesLanes(t *testing.T) {
	special := []string{"0x477fff00", "0x477fff80", "0x47800000", "0x477ffe80", "0xc7000000", "0xc7000080",
		"0xc7000100", "0x46fffe00", "0x46ffff00", "0x47000000", "0x437f0000", "0x437f8000", "0x43800000",
		"0x42ff0000", "0x43000000", "0xc3000000", "0xc3008000", "0xc3010000", "0xbf000000", "0x3f000000",
		"0x3fc00000", "0x40200000", "0x7fc00000", "0x7f800000", "0xff800000", "0x80000001", "0x00000000", "0x80000000"}
	var ops []string
	for _, ty := range []string{".u16", ".s16", ".u8", ".s8"} {
		ops = append(ops, "cvt.rn.f32"+ty+" %d?, %h", "cvt.rn.f64"+ty+" %e?, %h")
		for _, rnd := range []string{".rzi", ".rni", ".rmi", ".rpi"} {
			ops = append(ops, "cvt"+rnd+ty+".f32 %g?, %x", "cvt"+rnd+".ftz"+ty+".f32 %g?, %x", "cvt"+rnd+ty+".f64 %g?, %w")
		}
	}
	for _, op := range ops {
		unaryMatchesLanes(t, special, op)
	}
}

// TestDp4aSadVecMatchesLanes: dp4a (every signedness of a and b) and sad
// (.u32, .s32) warp loops give what the per-lane path gives, on bytes at
// the types' limits and hashed bits.
func TestDp4aSadVecMatchesLanes(t *testing.T) {
	triples := [][3]string{
		{"0x80808080", "0x7f7f7f7f", "0x7fffffff"}, // -128 * 127, an overflowing c
		{"0xffffffff", "0xffffffff", "0xffffffff"},
		{"0x80000000", "0x7fffffff", "0x00000001"}, // sad's extremes
		{"0x7fffffff", "0x80000000", "0xffffffff"},
		{"0x00000000", "0xffffffff", "0x80000000"},
		{"0x01ff7f80", "0x80017fff", "0x00000000"},
	}
	for _, seed := range []uint32{0x9e3779b9, 0x85ebca6b} {
		setup := pairsSetup(seed, triples)
		for _, ty := range []string{".s32.s32", ".s32.u32", ".u32.s32", ".u32.u32"} {
			convergedMatchesLanes(t, setup, "dp4a"+ty, "%x, %y, %z", false)
		}
		convergedMatchesLanes(t, setup, "sad.u32", "%x, %y, %z", false)
		convergedMatchesLanes(t, setup, "sad.s32", "%x, %y, %z", false)
	}
}

// TestSetp16VecMatchesLanes: setp on .u16, .s16 and .b16 (the AVX2
// comparisons where the host has them, else the Go loops) converged,
// in split halves (the masked path) and on at most three lanes at a time
// (the per-lane tests) give the same predicates, for every operator,
// register and immediate operands (16-bit limits, -1), with a second
// predicate and .and/.or/.xor with a predicate (negated too); operands
// held zero-extended (mov.b16) and sign-extended (cvt.s16), and lanes whose
// two operands have equal low 16 bits held extended differently.
func TestSetp16VecMatchesLanes(t *testing.T) {
	special := []string{"0x00000000", "0x0000ffff", "0x00008000", "0x00007fff", "0xffff8000", "0x00000001",
		"0x0000fffe", "0x0000000f", "0x00000010", "0x80008001", "0x7fff7fff", "0xffffffff"}
	decls := lanesDecls + ` .reg .b16 %ha, %hb, %hc; .reg .pred %p1, %p2, %p3, %q1, %q2, %q3, %c;`
	setup := hashedSetup(special) + `
	mul.lo.u32 %y, %x, 0x01000193;
	mov.b32 {%ha, %hc}, %x;
	cvt.s16.s32 %hb, %y;
	and.b32 %z, %t, 3;
	setp.eq.u32 %c, %z, 0;
	@%c cvt.s16.s32 %hb, %x;
	setp.eq.u32 %c, %z, 1;
	@%c mov.b16 %hb, %ha;
	and.b32 %z, %x, 0x40;
	setp.ne.u32 %c, %z, 0;
`
	n := 0
	for _, ty := range []string{".u16", ".s16", ".b16"} {
		for _, cmp := range []string{".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs"} {
			if _, err := comparison(ty, cmp, false); err != nil {
				continue
			}
			if ty == ".b16" && cmp != ".eq" && cmp != ".ne" || ty == ".s16" && cmp[1] == 'l' && cmp[2] != 't' && cmp[2] != 'e' ||
				ty == ".s16" && cmp[1] == 'h' {
				continue // (the manual's .b types take eq and ne; lo, ls, hi and hs unsigned types)
			}
			for _, args := range []string{"%ha, %hb", "%hb, %ha", "%hb, %hb", "%ha, 15", "%hb, -1", "%ha, 0x8000", "%hb, 0x7fff", "%hb, 0"} {
				for _, form := range []string{"%p?", "%p?|%q?", ".and %p?, ARGS, %c", ".or %p?|%q?, ARGS, !%c", ".xor %p?|%q?, ARGS, %c"} {
					var inst string
					if strings.HasPrefix(form, ".") {
						op, rest, _ := strings.Cut(form, " ")
						inst = "setp" + cmp + op + ty + " " + strings.ReplaceAll(rest, "ARGS", args)
					} else {
						inst = "setp" + cmp + ty + " " + form + ", " + args
					}
					at := func(k string) string { return strings.ReplaceAll(inst, "?", k) }
					body := setup + `
	setp.ne.u32 %q1, %t, %t;
	setp.ne.u32 %q2, %t, %t;
	setp.ne.u32 %q3, %t, %t;
	` + at("1") + `;
	setp.lt.u32 %p, %t, 16;
	@%p bra A;
	` + at("2") + `;
	bra J;
A:
	` + at("2") + `;
J:
` + inLaneGroups(at("3")) + `
	selp.b32 %d1, 1, 0, %p1;
	selp.b32 %d2, 1, 0, %p2;
	selp.b32 %d3, 1, 0, %p3;
	selp.b32 %y, 2, 0, %q1;
	or.b32 %d1, %d1, %y;
	selp.b32 %y, 2, 0, %q2;
	or.b32 %d2, %d2, %y;
	selp.b32 %y, 2, 0, %q3;
	or.b32 %d3, %d3, %y;
	xor.b32 %d2, %d1, %d2;
	xor.b32 %d3, %d1, %d3;
	or.b32 %d1, %d2, %d3;
	cvt.u64.u32 %res, %d1;`
					n++
					for l, v := range runLanesOnVersion(t, "7.8", "sm_90", decls, body) {
						if v != 0 {
							t.Fatalf("%s, lane %d: converged, divergent and per-lane predicates differ by %#x", inst, l, v)
						}
					}
				}
			}
		}
	}
	if n < 400 {
		t.Errorf("only %d setp forms checked", n)
	}
}
