package main

// override corrects the heuristic classification of one block. Empty fields
// leave the heuristic value.
type override struct {
	kind     string // module, body, mixed, other
	complete string // "yes" or "no"
	expect   string // parse, manual-error, garbled
	bodyFrom int
	note     string // replaces the note
}

func (o override) apply(b *block) {
	if o.kind != "" {
		b.kind = o.kind
	}
	switch o.complete {
	case "yes":
		b.complete = true
	case "no":
		b.complete = false
	}
	if o.expect != "" {
		b.expect = o.expect
	}
	if o.bodyFrom != 0 {
		b.bodyFrom = o.bodyFrom
	}
	if o.note != "" {
		b.note = o.note
	}
	if b.kind != "other" && b.expect == "-" && b.complete {
		b.expect = "parse"
	}
}

// Shorthands for the common corrections.
func manualError(why string) override {
	return override{complete: "yes", expect: "manual-error", note: "manual-error: " + why}
}

func garbledText(why string) override {
	return override{complete: "yes", expect: "garbled", note: "garbled by the text conversion: " + why}
}

// overrides is keyed by the output file name without ".ptx". A manual error
// is recorded only where the text is invalid by the manual's own grammar
// (and the same text is in every rendering we have), not because a parser
// rejects it; damage done by the PDF-to-text conversion (digits for
// letters, lost or extra blanks, table cells run together) is "garbled".
var overrides = map[string]override{
	// ptx-isa-9.0.txt
	"9.0/9.7.8.2-or-1":                                  manualError("missing ',' between the operands in 'or.b32 mask mask, 0x00010001' and missing ';'"),
	"9.0/9.7.9.9-ld-global-nc-1":                        manualError("'.' instead of ',' after the vector operand in '{%reg0, %reg1, %reg2, %reg3}. [a]' (also in the .md rendering)"),
	"9.0/9.7.9.19-isspacep-1":                           manualError("missing ',' in 'isspacep.shared::cluster ishrdany sptr' (also in the .md rendering)"),
	"9.0/9.7.9.21-cvt-1":                                manualError("type '.f3 2' for '.f32' in 'cvt.rz.relu.satfinite.bf16.f3 2 b, f' (also in the .md rendering); missing ';' after 'cvt.bf16.bf16.rpi b1, b2', 'cvt.bf16.f16.rz b, f' and 'cvt.bf16.u64.rz b, u'"),
	"9.0/9.7.9.25.4.1-cp-async-bulk-1":                  manualError("stray '}' in 'cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint} [dstMem], ...'"),
	"9.0/9.7.12.2-predicated-1":                         manualError("missing ';' after '@!p div.f32 ratio,x,y'"),
	"9.0/9.7.13.4-membar-1":                             garbledText("blanks around the dots of the opcodes ('membar . gl;', 'fence . sc . cta;')"),
	"9.0/9.7.13.18-clusterlaunchcontrol-query_cancel-1": manualError("blank instead of '.' in 'clusterlaunchcontrol.query_cancel.is_canceled pred.b128 p, handle' and missing ',' in '{xdim, ydim, zdim, ignr} handle'"),
	"9.0/9.7.14.4.5-wmma-mma-1":                         manualError("missing ',' between declarators in '.reg .b32 a<8> b<8> c<8> d<8>;' and in '.reg .b32 a, b, c<2> d<2>', which also lacks its ';'"),
	"9.0/9.7.14.5.14-mma-1":                             manualError("missing ',' between declarators and missing ';' in '.reg .f16x2 %Ra<2> %Rb<2> %Rc<4> %Rd<4>' (twice)"),
	"9.0/9.7.14.6.3-mma-sp-1":                           manualError("missing ',' between declarators and missing ';' in '.reg .f16x2 %Ra<2> %Rb<2> %Rc<4> %Rd<4>' (twice)"),
	"9.0/9.7.15.5.2-wgmma-mma_async-2":                  manualError("missing ';' after '.reg .b32 bf16a<40>'"),
	"9.0/9.7.16.10.9.2-tcgen05-mma-sp-1":                manualError("'.collector::a:fill' with a single ':' (the grammar has '.collector::a::fill'; also in the .md rendering)"),
	"9.0/9.7.16.10.9.3-tcgen05-mma-ws-1":                manualError("'.collector::b2:use' with a single ':' (the grammar has '::use')"),

	// ptx-isa-9.2-chapters-1-8.txt
	"9.2/8.8-release-and-acquire-patterns-1": {kind: "other", note: "prose list with inline instructions"},
	"9.2/8.8-release-and-acquire-patterns-2": {kind: "other", note: "prose list with inline instructions"},

	// ptx-isa-3.1.txt
	"3.1/7.2-variadic-functions-2":                  garbledText("'%va end' for '%va_end'"),
	"3.1/8.7.3-sqrt-1":                              garbledText("table cells run together ('t.approx.ftz', 'sqrt.rn.f64r,x;')"),
	"3.1/8.7.4-set-1":                               garbledText("the text of the Notes cell runs into the example"),
	"3.1/8.7.4-soto-1":                              garbledText("'p q' for 'p|q' in 'setp.lt.and.s32 p q,a,b,r;' (the table is headed 'soto' for 'setp')"),
	"3.1/10.2-specifying-kernel-entry-points-and-1": manualError("'.entry cta_fft' has no body (the grammar is '.entry kernel-name kernel-body'); the 9.0 manual has the same line in an elided example"),
}
