package ptx

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

// fakeFS is a ReadFile over a map; it records the names asked for.
type fakeFS struct {
	files map[string]string
	asked []string
}

func (f *fakeFS) read(name string) ([]byte, error) {
	f.asked = append(f.asked, name)
	if s, ok := f.files[name]; ok {
		return []byte(s), nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// pp runs src (named file) through the preprocessor and returns the tokens
// and the errors, formatted as "pos: msg".
func pp(file, src string, opts *ParseOptions) ([]token, []string) {
	var errs []string
	errf := func(pos Pos, msg string) { errs = append(errs, pos.String()+": "+msg) }
	s := newPreprocessor(newLexer(file, []byte(src), errf, nil), opts, errf)
	var toks []token
	for i := 0; i < 100000; i++ {
		t := s.next()
		if t.kind == tokEOF {
			// Reading on after the end must keep giving EOF, silently.
			if t2 := s.next(); t2.kind != tokEOF {
				errs = append(errs, "token after EOF: "+t2.text)
			}
			break
		}
		toks = append(toks, t)
	}
	return toks, errs
}

func texts(toks []token) string {
	s := make([]string, len(toks))
	for i, t := range toks {
		s[i] = t.text
	}
	return strings.Join(s, " ")
}

// lexTexts is what the lexer alone makes of src, for expected outputs.
func lexTexts(src string) string {
	lx := newLexer("x", []byte(src), nil, nil)
	var toks []token
	for t := lx.next(); t.kind != tokEOF; t = lx.next() {
		toks = append(toks, t)
	}
	return texts(toks)
}

func TestPreprocessOutput(t *testing.T) {
	tests := []struct {
		name, src, want string
		errs            []string // substrings, in order
	}{
		{"no directives", "add.u32 %r1, %r2, 0x1F;", "add .u32 %r1 , %r2 , 0x1F ;", nil},
		{"object macro", "#define N 4\nadd.u32 %r1, %r2, N;", "add .u32 %r1 , %r2 , 4 ;", nil},
		{"manual example", "#define CNT1 (8*12) // Number of cooperating threads\nbar.cta.sync 1, CNT1;", "bar .cta .sync 1 , ( 8 * 12 ) ;", nil},
		{"block comment in define", "#define N /* four */ 4 /* end */\nN", "4", nil},
		{"empty body", "#define E\na E b", "a b", nil},
		{"continuation", "#define X 1 + \\\n  2\nX", "1 + 2", nil},
		{"nested object", "#define A B+1\n#define B 2\nA", "2 + 1", nil},
		{"self reference", "#define foo foo a\nfoo", "foo a", nil},
		{"mutual recursion", "#define a b\n#define b a\na b", "a b", nil},
		{"function macro", "#define ADD(d, a, b) add.s32 d, a, b;\nADD(%r1, %r2, 5)", "add .s32 %r1 , %r2 , 5 ;", nil},
		{"nested parens in args", "#define F(a, b) [a|b]\nF((1, 2), g(3))", "[ ( 1 , 2 ) | g ( 3 ) ]", nil},
		{"name without parens", "#define f(x) <x>\nf + f;", "f + f ;", nil},
		{"parens on next line", "#define f(x) <x>\nf\n(1)", "< 1 >", nil},
		{"zero parameters", "#define Z() z\nZ() Z", "z Z", nil},
		{"empty argument", "#define F(x) [x]\nF()", "[ ]", nil},
		{"object macro with parens", "#define O (x)\nO", "( x )", nil},
		{"argument pre-expansion", "#define N 4\n#define F(x) x x\nF(N)", "4 4", nil},
		{"rescan takes following tokens", "#define f(x) x+1\n#define g f\ng(2)", "2 + 1", nil},
		{"blue paint survives args", "#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)", "2 * 9 * g", nil},
		{"variadic", "#define V(a, ...) a: __VA_ARGS__\nV(1, 2, 3) V(4)", "1 : 2 , 3 4 :", nil},
		{"variadic only", "#define V(...) <__VA_ARGS__>\nV() V(a,b)", "< > < a , b >", nil},
		{"paste idents", "#define CAT(a, b) a ## b\nCAT(%r, 1) CAT(x, 2)", "%r1 x2", nil},
		{"paste dot word", "#define V(n) .v##n\nld.global V(4).f32", "ld .global .v4 .f32", nil},
		{"paste in object macro", "#define R %r ## 7\nR", "%r7", nil},
		{"paste chain", "#define C3(a, b, c) a##b##c\nC3(x, 1, y) C3(, , z) C3(,,)", "x1y z", nil},
		{"paste placemarker", "#define P(a, b) [a##b]\nP(, 5) P(4, ) P(,)", "[ 5 ] [ 4 ] [ ]", nil},
		{"paste multi-token args", "#define P(a, b) a##b\nP(1 2, 3 4)", "1 23 4", nil},
		{"paste invalid", "#define P(a, b) a##b\nP(+, -)", "+ -", []string{"2:1: pasting \"+\" and \"-\" does not give a valid token"}},
		{"paste not pre-expanded", "#define N 4\n#define P(a) a##1 a\nP(N)", "N1 4", nil},
		{"stringize", "#define S(x) #x\n.pragma S(nounroll);", `.pragma "nounroll" ;`, nil},
		{"stringize spacing", "#define S(x) # x\nS(a+b  c (d))", `"a+b c (d)"`, nil},
		{"stringize escapes", "#define S(x) #x\nS(\"a\\\"b\" c)", `"\"a\\\"b\" c"`, nil},
		{"stringize empty", "#define S(x) #x\nS()", `""`, nil},
		{"hash in object macro is plain", "#define H # x\nH", "# x", nil},
		{"dot word macro", "#define SPACE global\nld.SPACE.u32 %r1, [a];", "ld .global .u32 %r1 , [ a ] ;", nil},
		{"dot word parameter", "#define LD(sp, t) ld.sp.t\nLD(shared, b32)", "ld .shared .b32", nil},
		{"dot word chain", "#define T U\n#define U u64\ncvt.T", "cvt .u64", nil},
		{"dot word bad expansion", "#define E\nld.E.u32", "ld .E .u32", []string{"2:3: macro E used after '.' must expand to a word"}},
		{"dot word bad argument", "#define F(t) add.t\nF(1)", "add 1", []string{"2:1: argument for .t in macro F must start with a word"}},
		{"percent names not macros", "#define r1 x\n%r1 r1", "%r1 x", nil},
		{"undef", "#define N 1\nN\n#undef N\nN", "1 N", nil},
		{"undef unknown is fine", "#undef NOPE\nx", "x", nil},
		{"identical redefinition", "#define N (1 + 2)\n#define N (1 + 2)\nN", "( 1 + 2 )", nil},
		{"different redefinition", "#define N 1\n#define N 2\nN", "2", []string{"2:9: macro N redefined (previous definition at 1:9)"}},
		{"redefinition spacing differs", "#define N a+b\n#define N a + b\nN", "a + b", []string{"macro N redefined"}},
		{"too many args", "#define F(a) a\nF(1, 2) x", "x", []string{"2:1: macro F takes 1 argument, but 2 given"}},
		{"too few args", "#define F(a, b) a\nF(1) x", "x", []string{"2:1: macro F takes 2 arguments, but 1 given"}},
		{"args to zero-param macro", "#define Z() z\nZ(1)", "", []string{"macro Z takes 0 arguments, but 1 given"}},
		{"unterminated args", "#define F(a) a\nx F(1, (2)", "x", []string{"2:3: unterminated argument list invoking macro F"}},
		{"directive inside args", "#define F(a) [a]\nF(1\n#ifdef F\n+2\n#else\n+3\n#endif\n)", "[ 1 + 2 ]", nil},
		{"define without name", "#define\nx", "x", []string{"1:1: #define requires a macro name"}},
		{"define non-identifier", "#define 3 x\n#define .u32 y\n#define %r z\nx", "x", []string{"1:9: macro name must be an identifier, not '3'", "2:9: macro name must be an identifier", "3:9: macro name must be an identifier"}},
		{"define defined", "#define defined 1", "", []string{`"defined" cannot be used as a macro name`}},
		{"bad parameter", "#define F(1) x\n#define G(a b) x\n#define H(a, a) x\n#define I(a,", "", []string{"1:11: expected a parameter name in macro F", "2:13: expected ',' or ')' in the parameters of macro G", "3:14: duplicate macro parameter a", "4:1: expected a parameter name in macro I"}},
		{"hash without parameter", "#define F(a) #b\n#define G(a) a #", "", []string{"1:14: '#' is not followed by a macro parameter", "2:16: '#' is not followed by a macro parameter"}},
		{"paste at ends", "#define F ## a\n#define G a ##", "", []string{"1:11: '##' cannot be at either end of a macro body", "2:13: '##' cannot be at either end"}},
		{"undef without name", "#undef\n#undef 3\n#undef A B", "", []string{"1:1: #undef requires a macro name", "2:1: #undef requires a macro name", "3:10: extra tokens after #undef A"}},
		{"null directive", "#\n# // just a comment\n  #  \nx", "x", nil},
		{"invalid directive", "#!x\n", "", []string{"1:1: invalid preprocessor directive"}},
		{"unknown directive", "#pragma once\n#warning w\nx", "x", []string{"1:1: unknown preprocessor directive #pragma", "2:1: unknown preprocessor directive #warning"}},
		{"error directive", "x\n  #error stop  here  \ny", "x y", []string{"2:3: #error stop  here"}},
		{"error directive comments", "#error a /* b */ c \"//\" // d\n", "", []string{`1:1: #error a   c "//"`}},
		{"unterminated comment in directive", "#define X 1 /* a\nb */\n", "b * /", []string{"1:13: comment in a preprocessor line must end on that line"}},
		{"string macro", "#define P \"nounroll\"\n.pragma P;", `.pragma "nounroll" ;`, nil},

		// Conditionals.
		{"if true", "#if 1\na\n#else\nb\n#endif\nc", "a c", nil},
		{"if false", "#if 0\na\n#else\nb\n#endif\nc", "b c", nil},
		{"elif chain", "#if 0\na\n#elif 0\nb\n#elif 2\nc\n#elif 1\nd\n#else\ne\n#endif", "c", nil},
		{"elif none taken", "#if 0\na\n#elif 0\nb\n#else\ne\n#endif", "e", nil},
		{"elif after taken not evaluated", "#if 1\na\n#elif 1/0\nb\n#endif", "a", nil},
		{"skipped elif not evaluated", "#if 1\na\n#elif 1/0\nb\n#elif junk (\nc\n#endif", "a", nil},
		{"ifdef", "#define D\n#ifdef D\na\n#endif\n#ifdef U\nb\n#endif", "a", nil},
		{"ifndef", "#define D\n#ifndef D\na\n#endif\n#ifndef U\nb\n#endif", "b", nil},
		{"nested", "#if 1\n#if 0\na\n#else\nb\n#endif\n#endif", "b", nil},
		{"nested in skipped", "#if 0\n#if 1\na\n#else\nb\n#endif\nc\n#else\nd\n#endif", "d", nil},
		{"skipped directives ignored", "#if 0\n#define A 1\n#include \"nope\"\n#error no\n#line x\n#endif\nA", "A", nil},
		{"skipped lexical junk", "#if 0\n'` \\ @ \"unterminated\n#endif\nx", "x", nil},
		{"skipped unknown directive", "#if 0\n#pragma x\n#endif\n", "", []string{"2:1: unknown preprocessor directive #pragma"}},
		{"skipped unterminated comment", "#if 0\n/* open\n#endif\n", "", []string{"2:1: comment not terminated", "1:1: unterminated #if"}},
		{"defined", "#define D\n#if defined D && defined(D) && !defined U && !defined(U)\nyes\n#endif", "yes", nil},
		{"macro in if", "#define N 4\n#if N * 2 == 8\nyes\n#endif", "yes", nil},
		{"function macro in if", "#define SQ(x) ((x) * (x))\n#if SQ(3) > 8\nyes\n#endif", "yes", nil},
		{"unknown names are 0", "#if UNKNOWN || %r1 || WARP_SZ\na\n#else\nb\n#endif", "b", nil},
		{"empty macro in if", "#define E\n#if E 1\na\n#endif", "a", nil},
		{"ptx typing in if", "#if -1 < 0U\na\n#else\nb\n#endif\n#if (.s64)0xFFFFFFFFFFFFFFFF < 0\nc\n#endif", "b c", nil},
		{"if float", "#if 1.5\na\n#endif", "", []string{"1:5: #if expression must be an integer"}},
		{"if division by zero", "#if 1 / 0\na\n#endif\nb", "b", []string{"division by zero"}},
		{"if syntax error", "#if 1 +\na\n#endif\nb", "b", []string{"1:8: expected an operand"}},
		{"if empty", "#if\na\n#endif\n#if 0\n#elif\n#endif", "", []string{"1:1: #if with no expression", "5:1: #elif with no expression"}},
		{"defined without name", "#if defined\n#endif\n#if defined(X\n#endif", "", []string{`1:5: operator "defined" requires a macro name`, `3:5: missing ')' after "defined"`}},
		{"ifdef without name", "#ifdef\na\n#endif\n#ifndef 3\nb\n#endif", "", []string{"1:1: #ifdef requires a macro name", "4:1: #ifndef requires a macro name"}},
		{"ifdef extra", "#ifdef A B\n#endif", "", []string{"1:10: extra tokens after #ifdef A"}},
		{"else without if", "#else\nx", "x", []string{"1:1: #else without #if"}},
		{"elif without if", "#elif 1\nx", "x", []string{"1:1: #elif without #if"}},
		{"endif without if", "x\n#endif", "x", []string{"2:1: #endif without #if"}},
		{"double else taken", "#if 1\na\n#else\nb\n#else\nc\n#endif", "a", []string{"5:1: #else after #else"}},
		{"double else skipped", "#if 0\na\n#else\nb\n#else\nc\n#endif", "b", []string{"5:1: #else after #else"}},
		{"elif after else", "#if 0\na\n#else\nb\n#elif 1\nc\n#endif", "b", []string{"5:1: #elif after #else"}},
		{"unterminated if", "x\n  #if 1\ny", "x y", []string{"2:3: unterminated #if"}},
		{"unterminated skipped", "#ifdef X\ny\n#if 1", "", []string{"1:1: unterminated #ifdef"}},
		{"unterminated nested", "#ifndef A\n#if 1\n", "", []string{"1:1: unterminated #ifndef", "2:1: unterminated #if"}},
		{"endif comment", "#if 1\na\n#endif // done\n#if 0\n#else junk\nb\n#endif junk", "a b", nil},

		// #line, line markers, #file.
		{"bad line", "#line\n#line x\n#line 0\n#line 5 x\n#line 5 \"f\" 3\n#line 99999999999", "", []string{
			"1:1: #line requires a line number", "2:7: #line requires a line number", "3:7: #line requires a line number",
			"4:9: #line: expected a file name string", "5:13: extra tokens after #line", "f:5:7: #line requires a line number"}},
		{"bad file", "#file\n#file 3\n", "", []string{"1:1: #file expects a file name string", "2:1: #file expects"}},
	}
	for _, tc := range tests {
		toks, errs := pp("", tc.src, nil)
		if got := texts(toks); got != tc.want {
			t.Errorf("%s: got tokens %q; want %q", tc.name, got, tc.want)
		}
		checkErrs(t, tc.name, errs, tc.errs)
	}
}

func checkErrs(t *testing.T, name string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: got errors %q; want %d: %q", name, got, len(want), want)
		return
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("%s: error %d is %q; want it to contain %q", name, i, got[i], want[i])
		}
	}
}

// The examples of C99 6.10.3.5, in PTX-lexable form.
func TestPreprocessCStandardExamples(t *testing.T) {
	src := `#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
`
	want := lexTexts(`f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { "hello", "" };`)
	toks, errs := pp("", src, nil)
	if got := texts(toks); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	checkErrs(t, "C examples", errs, nil)

	src = `#define hash_hash # ## #
#define mkstr(a) # a
#define in_between(a) mkstr(a)
#define join(c, d) in_between(c hash_hash d)
char p[] = join(x, y);
`
	toks, errs = pp("", src, nil)
	if got, want := texts(toks), `char p [ ] = "x ## y" ;`; got != want {
		t.Errorf("hash_hash: got %q; want %q", got, want)
	}
	checkErrs(t, "hash_hash", errs, nil)
}

func TestPreprocessPositions(t *testing.T) {
	src := "#define N 4\n" + // 1
		"#define F(a) a + N\n" + // 2
		"x N\n" + // 3
		"  F(y)\n" + // 4
		"#if 1\n" + // 5
		"z\n" + // 6
		"#endif\n" + // 7
		"#define L \\\n 1\n" + // 8-9
		"w\n" + // 10
		"#line 100 \"gen.ptx\"\n" + // 11
		"a\n" + // gen 100
		"#line 7\n" + // gen 101
		"b\n" + // gen 7
		"# 20 \"other.cu\" 1 3\n" + // gen 8
		"c\n" + // other 20
		"#file \"renamed.ptx\"\n" + // other 21
		"d\n" // renamed 22
	toks, errs := pp("k.ptx", src, nil)
	checkErrs(t, "positions", errs, nil)
	want := []string{
		"x k.ptx:3:1", "4 k.ptx:3:3",
		"y k.ptx:4:3", "+ k.ptx:4:3", "4 k.ptx:4:3",
		"z k.ptx:6:1", "w k.ptx:10:1",
		"a gen.ptx:100:1", "b gen.ptx:7:1", "c other.cu:20:1", "d renamed.ptx:22:1",
	}
	var got []string
	for _, tk := range toks {
		got = append(got, tk.text+" "+tk.pos().String())
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %q\nwant %q", got, want)
	}

	// Errors of directive operands point into the directive line.
	_, errs = pp("k.ptx", "#define F(a) a\n  #if F(1) / 0\n#endif\n", nil)
	checkErrs(t, "if position", errs, []string{"k.ptx:2:"})
	_, errs = pp("k.ptx", "#define A 1 ' 2\n", nil)
	checkErrs(t, "lexer error in directive", errs, []string{"k.ptx:1:13: unexpected character '''"})
	_, errs = pp("k.ptx", "#line 50 \"g.ptx\"\n\n'\n", nil)
	checkErrs(t, "lexer error after #line", errs, []string{"g.ptx:51:1: unexpected character"})
}

func TestPreprocessDefinesOption(t *testing.T) {
	opts := &ParseOptions{Defines: map[string]string{"N": "4", "SQ(x)": "((x)*(x))", "E": "", "S": "global"}}
	toks, errs := pp("k.ptx", "N SQ(N) [E] ld.S\n#ifdef E\nyes\n#endif", opts)
	checkErrs(t, "defines", errs, nil)
	if got, want := texts(toks), "4 ( ( 4 ) * ( 4 ) ) [ ] ld .global yes"; got != want {
		t.Errorf("got %q; want %q", got, want)
	}
	_, errs = pp("k.ptx", "x", &ParseOptions{Defines: map[string]string{"3": "x"}})
	checkErrs(t, "bad define", errs, []string{"<command line>:1:1: macro name must be an identifier"})
	// A redefinition in the source of a -D macro is reported at the source.
	_, errs = pp("k.ptx", "#define N 5\n", opts)
	checkErrs(t, "redefine", errs, []string{"k.ptx:1:9: macro N redefined (previous definition at <command line>:1:1)"})
}

func TestPreprocessInclude(t *testing.T) {
	fsys := &fakeFS{files: map[string]string{
		"dir/a.h":       "dir_a",
		"inc/a.h":       "inc_a",
		"inc2/a.h":      "inc2_a",
		"inc2/only2.h":  "only2",
		"dir/sub/b.h":   "b1\n#include \"c.h\"\nb2",
		"dir/sub/c.h":   "sub_c",
		"dir/c.h":       "dir_c",
		"dir/def.h":     "#define FROM_H 42\n",
		"dir/open.h":    "#if 1\nopen\n",
		"dir/close.h":   "#endif\n",
		"dir/err.h":     "ok\n  `\n",
		"dir/mac.h":     "M(",
		"/abs/x.h":      "abs_x",
		"dir/guard1.h":  "#ifndef G1\n#define G1\ng1\n#include \"guard2.h\"\n#endif\n",
		"dir/guard2.h":  "#ifndef G2\n#define G2\ng2\n#include \"guard1.h\"\n#endif\n",
		"dir/cycle1.h":  "#include \"cycle2.h\"\n",
		"dir/cycle2.h":  "#include \"cycle1.h\"\n",
		"dir/self.h":    "s\n#include \"self.h\"\n",
		"dir/comment.h": "// not recorded\nk",
	}}
	opts := &ParseOptions{IncludePaths: []string{"inc", "inc2"}, ReadFile: fsys.read}
	tests := []struct {
		name, src, want string
		errs            []string
	}{
		{"quoted: own dir first", `#include "a.h"`, "dir_a", nil},
		{"angled: include paths first", `#include <a.h>`, "inc_a", nil},
		{"include path order", "#include \"only2.h\"\n#include <only2.h>", "only2 only2", nil},
		{"nested relative to includer", "x\n#include \"sub/b.h\"\ny", "x b1 sub_c b2 y", nil},
		{"absolute", `#include "/abs/x.h"`, "abs_x", nil},
		{"macros cross files", "#include \"def.h\"\nFROM_H", "42", nil},
		{"computed include", "#define H \"a.h\"\n#define A <a.h>\n#include H\n#include A", "dir_a inc_a", nil},
		{"not found", "#include \"nope.h\"\nx", "x", []string{`dir/main.ptx:1:1: include file "nope.h" not found`}},
		{"bad syntax", "#include\n#include nope\n#include \"a.h\" extra\n#include <a.h", "dir_a", []string{
			`1:1: #include expects "FILENAME" or <FILENAME>`, `2:1: #include expects`, "3:16: extra tokens after #include", `4:1: #include expects`}},
		{"conditionals do not span files", "#include \"open.h\"\n#include \"close.h\"\n", "open", []string{
			"dir/open.h:1:1: unterminated #if", "dir/close.h:1:1: #endif without #if"}},
		{"errors carry the included name", "#include \"err.h\"", "ok", []string{"dir/err.h:2:3: unexpected character '`'"}},
		{"invocation cannot span files", "#define M(x) x\n#include \"mac.h\"\n1)", "1 )", []string{"dir/mac.h:1:1: unterminated argument list invoking macro M"}},
		{"guarded mutual includes", "#include \"guard1.h\"\n#include \"guard2.h\"\nend", "g1 g2 end", nil},
		{"skipped include", "#if 0\n#include \"nope.h\"\n#endif\nx", "x", nil},
		{"comments of includes", "#include \"comment.h\"", "k", nil},
	}
	for _, tc := range tests {
		toks, errs := pp("dir/main.ptx", tc.src, opts)
		if got := texts(toks); got != tc.want {
			t.Errorf("%s: got tokens %q; want %q", tc.name, got, tc.want)
		}
		checkErrs(t, tc.name, errs, tc.errs)
	}

	// Positions of included tokens name the included file.
	toks, _ := pp("dir/main.ptx", "#include \"sub/b.h\"", opts)
	var pos []string
	for _, tk := range toks {
		pos = append(pos, tk.pos().String())
	}
	if got, want := strings.Join(pos, " "), "dir/sub/b.h:1:1 dir/sub/c.h:1:1 dir/sub/b.h:3:1"; got != want {
		t.Errorf("include positions %q; want %q", got, want)
	}

	// The search order, as asked of ReadFile.
	fsys.asked = nil
	pp("dir/main.ptx", "#include \"only2.h\"\n#include <a.h>", opts)
	if got, want := strings.Join(fsys.asked, " "), "dir/only2.h inc/only2.h inc2/only2.h inc/a.h"; got != want {
		t.Errorf("search order %q; want %q", got, want)
	}
	fsys.asked = nil
	pp("dir/main.ptx", "#include <nope.h>", opts)
	if got, want := strings.Join(fsys.asked, " "), "inc/nope.h inc2/nope.h dir/nope.h"; got != want {
		t.Errorf("angled search order %q; want %q", got, want)
	}

	// Cycles are reported once, with the cycle.
	for _, src := range []string{`#include "cycle1.h"`, `#include "self.h"`} {
		_, errs := pp("dir/main.ptx", src, opts)
		if len(errs) != 1 || !strings.Contains(errs[0], "#include cycle: ") {
			t.Errorf("%s: errors %q; want one cycle error", src, errs)
			continue
		}
		if strings.Contains(src, "self") && !strings.HasSuffix(errs[0], "#include cycle: dir/self.h -> dir/self.h") {
			t.Errorf("self include: %q", errs[0])
		}
		if strings.Contains(src, "cycle1") && !strings.HasSuffix(errs[0], "dir/cycle1.h -> dir/cycle2.h -> dir/cycle1.h") &&
			!strings.HasSuffix(errs[0], "dir/cycle2.h -> dir/cycle1.h -> dir/cycle2.h") {
			t.Errorf("cycle: %q", errs[0])
		}
	}

	// A deep chain without a cycle hits the depth limit.
	deep := map[string]string{}
	for i := 0; i < 70; i++ {
		deep[fmt.Sprintf("d%d.h", i)] = fmt.Sprintf("#include \"d%d.h\"\n", i+1)
	}
	_, errs := pp("main.ptx", `#include "d0.h"`, &ParseOptions{ReadFile: (&fakeFS{files: deep}).read})
	checkErrs(t, "deep", errs, []string{"d63.h:1:1: #include nested more than 64 levels deep"})

	// Read errors other than "not found" are reported.
	bad := func(string) ([]byte, error) { return nil, errors.New("disk on fire") }
	_, errs = pp("main.ptx", `#include "a.h"`, &ParseOptions{ReadFile: bad})
	checkErrs(t, "read error", errs, []string{`main.ptx:1:1: cannot read include file "a.h": disk on fire`})
}

// The filter must cost nothing per token when nothing is defined.
func TestPreprocessNoAllocs(t *testing.T) {
	src := []byte(strings.Repeat("add.u32 %r1, %r2, 0x1F; // c\nld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n", 200))
	lx := newLexer("k.ptx", src, nil, nil)
	s := newPreprocessor(lx, &ParseOptions{}, nil)
	allocs := testing.AllocsPerRun(5, func() {
		lx.off, lx.line, lx.lineStart = 0, 1, 0
		for s.next().kind != tokEOF {
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per pass; want 0", allocs)
	}
}

func BenchmarkPreprocessPassThrough(b *testing.B) {
	src := []byte(strings.Repeat("\tadd.u32 \t%r1, %r2, 0x1F; // comment\n\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n", 5000))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		s := newPreprocessor(newLexer("k.ptx", src, nil, nil), &ParseOptions{}, nil)
		for s.next().kind != tokEOF {
		}
	}
}

func BenchmarkPreprocessMacros(b *testing.B) {
	src := []byte("#define ADD(d, a, b) add.u32 d, a, b;\n#define T f32\n" +
		strings.Repeat("\tADD(%r1, %r2, 0x1F) // comment\n\tld.global.v4.T {%f1, %f2, %f3, %f4}, [%rd1+16];\n", 5000))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		s := newPreprocessor(newLexer("k.ptx", src, nil, nil), &ParseOptions{}, nil)
		for s.next().kind != tokEOF {
		}
	}
}

// Through the parser.
func TestPreprocessParse(t *testing.T) {
	src := `.version 8.0
.target sm_90
.address_size 64
#define N 16
#define SPACE global
#if N > 8
.SPACE .u32 big[N * 2];
#else
.SPACE .u32 small[N];
#endif
`
	m, err := Parse("k.ptx", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Items) != 4 {
		t.Fatalf("got %d items; want 4", len(m.Items))
	}
	d, ok := m.Items[3].(*VarDecl)
	if !ok || d.Space != ".global" || len(d.Names) != 1 || d.Names[0].Name != "big" || len(d.Names[0].Dims) != 1 {
		t.Fatalf("item 3 is %#v", m.Items[3])
	}
	c, err := EvalConst(d.Names[0].Dims[0])
	if err != nil || c != S64Const(32) {
		t.Errorf("dimension = %v, %v; want 32", c, err)
	}
	if p := d.Names[0].Dims[0].Position(); p.Line != 7 {
		t.Errorf("dimension at %v; want line 7", p)
	}

	// Defines, includes and errors through Parse.
	fsys := &fakeFS{files: map[string]string{"lib/h.ptx": ".global .u32 fromh;\n"}}
	_, err = Parse("lib/k.ptx", []byte("#include \"h.ptx\"\n#if X\n"), &ParseOptions{ReadFile: fsys.read, Defines: map[string]string{"X": "1"}})
	var dl DiagnosticList
	if !errors.As(err, &dl) || len(dl) != 1 || dl[0].Msg != "unterminated #if" || dl[0].Pos.String() != "lib/k.ptx:2:1" {
		t.Errorf("got %v; want one unterminated #if at lib/k.ptx:2:1", err)
	}
	m, err = Parse("k.ptx", []byte(".version 8.0\n#ifdef X\n.target sm_90\n#endif\n"), &ParseOptions{Defines: map[string]string{"X": "1"}})
	if err != nil || len(m.Items) != 2 {
		t.Errorf("Defines through Parse: %v, %d items", err, len(m.Items))
	}
	_, err = Parse("k.ptx", []byte("#if 1 +\n#endif\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "k.ptx:1:") {
		t.Errorf("#if syntax error through Parse: %v", err)
	}
}

// BenchmarkPreprocessLexerOnly is the baseline for BenchmarkPreprocessPassThrough.
func BenchmarkPreprocessLexerOnly(b *testing.B) {
	src := []byte(strings.Repeat("\tadd.u32 \t%r1, %r2, 0x1F; // comment\n\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n", 5000))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		lx := newLexer("k.ptx", src, nil, nil)
		for lx.next().kind != tokEOF {
		}
	}
}

func TestPreprocessLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("#define a0 x x\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "#define a%d a%d a%d\n", i, i-1, i-1)
	}
	b.WriteString("a40\n#define after 1\nafter\n")
	var errs []string
	errf := func(pos Pos, msg string) { errs = append(errs, pos.String()+": "+msg) }
	s := newPreprocessor(newLexer("k.ptx", []byte(b.String()), errf, nil), nil, errf)
	s.(*preprocessor).budget = 5000 // as if maxExpansionTokens were 5000
	n := 0
	for s.next().kind != tokEOF {
		n++
	}
	checkErrs(t, "exponential", errs, []string{"k.ptx:42:1: macro expansion produces more than"})
	if n > 5000 {
		t.Errorf("%d tokens", n)
	}

	src := "#define F(x) x\n" + strings.Repeat("F(", 1000) + "1" + strings.Repeat(")", 1000)
	toks, errs := pp("k.ptx", src, nil)
	if len(errs) == 0 || !strings.Contains(errs[0], "macro arguments nested too deeply") {
		t.Errorf("deep nesting: %d tokens, errors %q", len(toks), errs)
	}
}

// FuzzPreprocess: no input may panic or hang the preprocessor.
func FuzzPreprocess(f *testing.F) {
	f.Add("#define F(a, ...) a ## __VA_ARGS__ #a\nF(x, y, z) F()\n#if F(1) > 0\n#elif\n#endif")
	f.Add("#define S(x) #x\n#define C(a,b) a##b\nC(S(1),.v) ld.C(x,y)\n#include \"a.h\"\n#line 3 \"f\"\n# 4\n#file \"g\"")
	f.Add("#ifdef X\n#else\n#else\n#endif\n#endif\n#if defined(X) || defined Y\n#error e\n#pragma p")
	f.Add("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)\n#define x x\nx")
	files := map[string]string{"a.h": "#include \"a.h\"\n#define A(x) x A\n", "b.h": "#if 1\n"}
	read := func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
	f.Fuzz(func(t *testing.T, src string) {
		opts := &ParseOptions{ReadFile: read, Defines: map[string]string{"D(x)": "x+1"}}
		errf := func(Pos, string) {}
		s := newPreprocessor(newLexer("k.ptx", []byte(src), errf, nil), opts, errf)
		s.(*preprocessor).budget = 1 << 16
		for n := 0; s.next().kind != tokEOF; n++ {
			if n > 1<<20 {
				t.Fatal("no end of file")
			}
		}
	})
}

// BenchmarkPreprocessOneMacro: ordinary code in a file that defines a macro.
func BenchmarkPreprocessOneMacro(b *testing.B) {
	src := []byte("#define N 16\n" + strings.Repeat("\tadd.u32 \t%r1, %r2, 0x1F; // comment\n\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+N];\n", 5000))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		s := newPreprocessor(newLexer("k.ptx", src, nil, nil), &ParseOptions{}, nil)
		for s.next().kind != tokEOF {
		}
	}
}
