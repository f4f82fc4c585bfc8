package exec

import (
	"fmt"
	"strings"
	"testing"
)

// aluLanesDecls are the registers opMatchesLanes's bodies use: %x, %y
// (.b32), %h, %i (.b16, zero-extended from %x and %y), %j (.b16,
// sign-extended from %x), %w, %v (.b64), destinations %d? (.b32), %g?
// (.b16) and %e? (.b64).
const aluLanesDecls = ".reg .b32 %x, %y, %d1, %d2, %d3, %lm, %s; .reg .b16 %h, %i, %j, %g1, %g2, %g3; " +
	".reg .b64 %w, %v, %e1, %e2, %e3; .reg .pred %p, %lq;"

// aluSetup puts hashed bits (from seed) in %x and %y, then special's pairs
// over them (one per lane from lane 0), and derives %h, %i, %j, %w, %v.
func aluSetup(seed uint32, special [][2]string) string {
	s := fmt.Sprintf(`
	mul.lo.u32 %%x, %%t, %#x;
	xor.b32 %%x, %%x, 0x5bd1e995;
	mul.lo.u32 %%y, %%x, 0x01000193;
	shr.u32 %%s, %%y, 7;
	xor.b32 %%y, %%y, %%s;
`, seed)
	for i, v := range special {
		s += fmt.Sprintf("\tsetp.eq.u32 %%p, %%t, %d;\n\t@%%p mov.b32 %%x, %s;\n\t@%%p mov.b32 %%y, %s;\n", i, v[0], v[1])
	}
	return s + `	cvt.u16.u32 %h, %x;
	cvt.u16.u32 %i, %y;
	cvt.s16.s32 %j, %x;
	mov.b64 %w, {%x, %y};
	mul.lo.u32 %s, %x, 0x2545f491;
	mov.b64 %v, {%y, %s};
`
}

// opMatchesLanes runs op (destination %d?, %g? or %e?, "?" standing for
// 1, 2, 3) after setup: on the whole warp between two warp loops (a
// trace where the host has them), on the warp's two halves at different
// instructions (a masked warp loop where the op has one) and on at most
// three lanes at a time (inLaneGroups: the per-lane path), and fails at
// the first lane whose results differ.
func opMatchesLanes(t *testing.T, setup, op string) {
	t.Helper()
	opMatchesLanesIn(t, aluLanesDecls, setup, op)
}

// opMatchesLanesIn is opMatchesLanes with decls for aluLanesDecls.
func opMatchesLanesIn(t *testing.T, decls, setup, op string) {
	t.Helper()
	fold := "xor.b32 %d2, %d1, %d2;\n\txor.b32 %d3, %d1, %d3;\n\tor.b32 %d1, %d2, %d3;\n\tcvt.u64.u32 %res, %d1;"
	switch {
	case strings.Contains(op, "%e?"):
		fold = "xor.b64 %e2, %e1, %e2;\n\txor.b64 %e3, %e1, %e3;\n\tor.b64 %res, %e2, %e3;"
	case strings.Contains(op, "%g?"):
		fold = "xor.b16 %g2, %g1, %g2;\n\txor.b16 %g3, %g1, %g3;\n\tor.b16 %g1, %g2, %g3;\n\tcvt.u64.u16 %res, %g1;"
	}
	at := func(k string) string { return strings.ReplaceAll(op, "?", k) }
	groups := func(stmts string) string { // (each statement guarded)
		s := ""
		for _, st := range strings.Split(stmts, ";\n\t") {
			s += inLaneGroups(st)
		}
		return s
	}
	body := setup + `	and.b32 %lm, %t, 7;
	` + at("1") + `;
	xor.b32 %lm, %lm, 3;
	setp.lt.u32 %p, %t, 16;
	@%p bra A;
	` + at("2") + `;
	bra J;
A:
	` + at("2") + `;
J:
` + groups(at("3")) + "\t" + fold
	for l, v := range runLanes(t, decls, body) {
		if v != 0 {
			t.Fatalf("%s lane %d: converged, divergent and per-lane results differ by %#x", op, l, v)
		}
	}
}

// mulSpecial are operand pairs at the 16- and 32-bit limits.
var mulSpecial = [][2]string{
	{"0x00008000", "0x00008000"}, {"0x00007fff", "0x00008000"}, {"0x0000ffff", "0x0000ffff"},
	{"0xffff8000", "0x00007fff"}, {"0x80000000", "0x80000000"}, {"0x7fffffff", "0xffffffff"},
	{"0xffffffff", "0xffffffff"}, {"0x00000000", "0x12345678"}, {"0x00010001", "0xffff0001"},
	{"0x0000ff00", "0x00000100"},
}

// TestMulNarrowVecMatchesLanes: the warp loops of mul.wide, mul.hi and
// mul.lo on .u16/.s16 (the pixel code's "(u32)byte << 8" is
// mul.wide.u16 by 256) and on .u32/.s32, registers and immediates, give
// what the per-lane path (mulMode) gives, 16-bit registers held zero- and
// sign-extended.
func TestMulNarrowVecMatchesLanes(t *testing.T) {
	var ops []string
	for _, ty := range []string{"u16", "s16"} {
		for _, b := range []string{"%i", "256", "-3", "0x8000", "65535", "-32768"} {
			for _, a := range []string{"%h", "%j"} {
				ops = append(ops, "mul.wide."+ty+" %d?, "+a+", "+b, "mul.hi."+ty+" %g?, "+a+", "+b,
					"mul.lo."+ty+" %g?, "+a+", "+b)
			}
		}
	}
	for _, ty := range []string{"u32", "s32"} {
		for _, b := range []string{"%y", "256", "-3", "0x80000000"} {
			ops = append(ops, "mul.wide."+ty+" %e?, %x, "+b, "mul.hi."+ty+" %d?, %x, "+b, "mul.lo."+ty+" %d?, %x, "+b)
		}
	}
	for _, seed := range []uint32{0x9e3779b9, 0x85ebca6b} {
		setup := aluSetup(seed, mulSpecial)
		for _, op := range ops {
			opMatchesLanes(t, setup, op)
		}
	}
}

// TestPackUnpackVecMatchesLanes: mov's two-element pack and unpack (the
// whole-warp row loops, and the trace bodies where the host has them),
// with .b64 and .b32 halves, a sink or a scratch register for one half
// (clang's { .reg .b32 tmp; mov.b64 {tmp, %r}, %rd; }), and a destination
// that is also the source, give what the per-lane path gives.
func TestPackUnpackVecMatchesLanes(t *testing.T) {
	ops := []string{
		// unpack: the high half, the low half, both (fold both into %e?)
		"mov.b64 {_, %d?}, %w", "mov.b64 {%d?, _}, %w", "mov.b64 {%s, %d?}, %v",
		"mov.b64 {%d?, %s}, %v", "mov.b32 {_, %g?}, %x", "mov.b32 {%g?, _}, %y", "mov.b32 {%h, %g?}, %y",
		// pack
		"mov.b64 %e?, {%x, %y}", "mov.b64 %e?, {%y, %y}", "mov.b32 %d?, {%h, %i}", "mov.b32 %d?, {%j, %h}",
		"mov.b64 %e?, {%x, 7}",
	}
	for _, seed := range []uint32{0x9e3779b9, 0x85ebca6b} {
		setup := aluSetup(seed, mulSpecial)
		for _, op := range ops {
			opMatchesLanes(t, setup, op)
		}
		// a destination that is the source, both halves written: the
		// results folded into one .b64
		opMatchesLanes(t, setup, "mov.b64 %e?, %w;\n\tmov.b64 {%e?, %d?}, %e?;\n\tmov.b64 %e?, {%d?, %e?}")
	}
}

// TestLocalUniformMatchesLanes: ld.local and st.local of 4 and 8 bytes at
// addresses that are the same in every lane (clang's %SPL+k: one check,
// then a strided loop), at lane-varying ones, and at ones where a single
// lane differs (the load's strided loop gives way part way), into the
// address's own register too, give what the per-lane path gives; a store
// by the whole warp leaves what stores lane by lane leave.
func TestLocalUniformMatchesLanes(t *testing.T) {
	decls := aluLanesDecls + " .local .align 8 .b8 depot[64]; .local .align 8 .b8 other[64]; .reg .b64 %sp, %so, %q, %a;"
	setup := aluSetup(0x9e3779b9, mulSpecial) + `	mov.u64 %sp, depot;
	mov.u64 %so, other;
	st.local.u32 [%sp], %x;
	st.local.u32 [%sp+4], %y;
	st.local.u64 [%sp+8], %w;
	st.local.u64 [%sp+16], %v;
	st.local.u32 [%sp+24], %s;
	st.local.u32 [%sp+28], %x;
	and.b32 %lm, %t, 3;
	mul.wide.u32 %q, %lm, 8;
	add.u64 %q, %q, %sp;
	setp.eq.u32 %p, %t, 30;
	mov.u64 %a, %sp;
	@%p add.u64 %a, %a, 8;
`
	for _, op := range []string{
		"ld.local.u32 %d?, [%sp+4]", "ld.local.s32 %e?, [%sp+4]", "ld.local.u64 %e?, [%sp+16]", "ld.local.b32 %d?, [%sp]",
		"ld.local.u32 %d?, [%q+4]", "ld.local.s32 %e?, [%q]", "ld.local.u64 %e?, [%q]",
		"ld.local.u32 %d?, [%a+4]", "ld.local.s32 %e?, [%a]", "ld.local.u64 %e?, [%a+8]",
		"mov.u64 %e?, %sp;\n\tld.local.u64 %e?, [%e?+16]", "mov.u64 %e?, %a;\n\tld.local.u64 %e?, [%e?+8]",
	} {
		opMatchesLanesIn(t, decls, setup, op)
	}
	// stores: the whole warp's to depot, lane by lane to other, then both
	// read back lane by lane
	for _, st := range []string{"st.local.u32 [%A+4], %y", "st.local.u64 [%A+16], %w", "st.local.u32 [%B+4], %y",
		"st.local.u64 [%B+8], %w", "st.local.u32 [%C], %x", "st.local.u64 [%C+8], %v"} {
		at := func(base string) string {
			r := strings.NewReplacer("%A", base, "%B", map[string]string{"%sp": "%q", "%so": "%q"}[base],
				"%C", map[string]string{"%sp": "%a", "%so": "%a"}[base])
			return r.Replace(st)
		}
		// %q and %a point into depot: the per-lane copy goes to other at
		// the same offset
		body := setup + "\tsub.u64 %v, %so, %sp;\n\tld.local.u64 %e1, [%sp+8];\n\tst.local.u64 [%so+8], %e1;\n" +
			"\tld.local.u64 %e1, [%sp];\n\tst.local.u64 [%so], %e1;\n\tld.local.u64 %e1, [%sp+16];\n\tst.local.u64 [%so+16], %e1;\n" +
			"\tld.local.u64 %e1, [%sp+24];\n\tst.local.u64 [%so+24], %e1;\n" +
			"\t" + at("%sp") + ";\n" +
			"\tadd.u64 %q, %q, %v;\n\tadd.u64 %a, %a, %v;\n" +
			inLaneGroups(strings.ReplaceAll(at("%so"), "%so", "%so")) +
			"\tmov.b64 %res, 0;\n"
		for off := 0; off < 32; off += 8 {
			body += inLaneGroups(fmt.Sprintf("ld.local.u64 %%e1, [%%sp+%d]", off)) +
				inLaneGroups(fmt.Sprintf("ld.local.u64 %%e2, [%%so+%d]", off)) +
				"\txor.b64 %e1, %e1, %e2;\n\tor.b64 %res, %res, %e1;\n"
		}
		for l, v := range runLanes(t, decls, body) {
			if v != 0 {
				t.Fatalf("%s lane %d: whole-warp and per-lane stores differ by %#x", st, l, v)
			}
		}
	}
}
