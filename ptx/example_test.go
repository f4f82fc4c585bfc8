package ptx_test

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/ptxvm/ptxvm/ptx"
)

const iotaPTX = `.version 7.8
.target sm_80
.address_size 64

// Each thread stores its index into out[tid].
.visible .entry iota(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<4>;

	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r1;
	ret;
}
`

// Parse a module and walk its tree: module-scope items, then the statements
// of each function body.
func ExampleParse() {
	m, err := ptx.Parse("iota.ptx", []byte(iotaPTX), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, item := range m.Items {
		switch item := item.(type) {
		case *ptx.Version:
			fmt.Printf("PTX ISA %d.%d\n", item.Major, item.Minor)
		case *ptx.Target:
			fmt.Println("target", strings.Join(item.Names, ","))
		case *ptx.Function:
			fmt.Printf("%v: %s %s, %d parameter(s)\n", item.Pos, item.Kind, item.Name, len(item.Params))
			for _, stmt := range item.Body.Stmts {
				if inst, ok := stmt.(*ptx.Instruction); ok {
					fmt.Printf("  line %d: %s%s with %d operand(s)\n",
						inst.Line, inst.Opcode, strings.Join(inst.Modifiers, ""), len(inst.Operands))
				}
			}
		}
	}
	// Output:
	// PTX ISA 7.8
	// target sm_80
	// iota.ptx:6:1: .entry iota, 1 parameter(s)
	//   line 11: ld.param.u64 with 2 operand(s)
	//   line 12: mov.u32 with 2 operand(s)
	//   line 13: mul.wide.u32 with 3 operand(s)
	//   line 14: add.s64 with 3 operand(s)
	//   line 15: st.global.u32 with 2 operand(s)
	//   line 16: ret with 0 operand(s)
}

// A source with syntax errors yields a DiagnosticList holding every error
// the parser found, each printed as file:line:col: error: message.
func ExampleParse_errors() {
	src := `.version 7.0
.target sm_70
.entry k()
{
	.reg .b32 %r<2>;
	mov.u32 %r1, 1
	ret;
	add.u32 %r1, , %r1;
}
`
	_, err := ptx.Parse("k.ptx", []byte(src), nil)
	var diags ptx.DiagnosticList
	if errors.As(err, &diags) {
		for _, d := range diags {
			fmt.Println(d)
		}
	}
	// Output:
	// k.ptx:7:2: error: expected ',' or ';' after operand, found 'ret'
	// k.ptx:8:15: error: expected an operand, found ','
}

// Format returns the canonical text of a module; comments are kept.
func ExampleFormat() {
	src := `.version 7.0 .target sm_70
.entry k ( .param .u32 n ) {
  .reg .b32 %r<2> ;   // counter
  ld.param.u32 %r1,[n] ;
  ret ; }
`
	m, err := ptx.Parse("k.ptx", []byte(src), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(ptx.Format(m)))
	// Output:
	// .version 7.0
	// .target sm_70
	//
	// .entry k(
	// 	.param .u32 n
	// )
	// {
	// 	.reg .b32 %r<2>; // counter
	// 	ld.param.u32 %r1, [n];
	// 	ret;
	// }
}

// Print writes a module, here after editing its tree: the kernel is renamed
// and an instruction is added before its final ret.
func ExamplePrint() {
	m, err := ptx.Parse("iota.ptx", []byte(iotaPTX), &ptx.ParseOptions{DiscardComments: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, item := range m.Items {
		if f, ok := item.(*ptx.Function); ok && f.Name == "iota" {
			f.Name = "iota_v2"
			body := f.Body.Stmts
			barrier := &ptx.Instruction{
				Opcode:    "bar",
				Modifiers: []string{".sync"},
				Operands:  []ptx.Expr{&ptx.IntLit{Text: "0"}},
			}
			f.Body.Stmts = append(body[:len(body)-1:len(body)-1], barrier, body[len(body)-1])
		}
	}
	if err := ptx.Print(os.Stdout, m); err != nil {
		fmt.Println(err)
	}
	// Output:
	// .version 7.8
	// .target sm_80
	// .address_size 64
	//
	// .visible .entry iota_v2(
	// 	.param .u64 out
	// )
	// {
	// 	.reg .b32 %r<2>;
	// 	.reg .b64 %rd<4>;
	//
	// 	ld.param.u64 %rd1, [out];
	// 	mov.u32 %r1, %tid.x;
	// 	mul.wide.u32 %rd2, %r1, 4;
	// 	add.s64 %rd3, %rd1, %rd2;
	// 	st.global.u32 [%rd3], %r1;
	// 	bar.sync 0;
	// 	ret;
	// }
}
