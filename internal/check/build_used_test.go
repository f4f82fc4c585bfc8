package check

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/ptx"
)

// buildFromScopes is Build with the checker's names withheld: the
// builder resolves every name in its own scopes (builder.name).
func buildFromScopes(m *ptx.Module) *ir.Module {
	c := &checker{mod: m, matched: []matchedInst{}}
	c.run()
	if c.diags.HasErrors() {
		return nil
	}
	for i := range c.matched {
		c.matched[i].namesFrom, c.matched[i].namesTo = 0, 0
	}
	b := &builder{c: c, vars: map[string]*ir.Var{}, funcs: map[string]*ir.Func{}}
	return b.module()
}

// TestUsedNamesSameIR: the builder makes the same IR from the names the
// checker found (usedOperand) as from its own scopes.
func TestUsedNamesSameIR(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/bench/ptx/*.ptx")
	more, _ := filepath.Glob("../../testdata/clang/ptx/*sm_80*.ptx")
	files = append(files, more...)
	mods := map[string]*ptx.Module{}
	for _, file := range files {
		m, err := ptx.ParseFile(file, &ptx.ParseOptions{DiscardComments: true})
		if err != nil {
			t.Fatal(err)
		}
		mods[file] = m
	}
	// a label named as a variable (the builder's scopes take the
	// variable), shadowed names, a range past rangeRegsMax, guards, a
	// range of variables (the builder declares one variable, named as
	// its prefix) whose first name is a module variable's
	m, err := ptx.Parse("t.ptx", []byte(`.version 7.0
.target sm_70
.address_size 64
.global .u32 L1;
.global .u32 g0;
.func f(.reg .b32 x)
{
	.reg .pred %p<3>;
	.reg .b32 %r<70000>;
	.reg .b32 y;
	.local .b32 g<4>;
	mov.u32 %r1, g0;
	mov.u32 %r2, g1;
	mov.u32 %r69999, L1;
	@%p1 bra L1;
	{
		.reg .b32 y;
		add.u32 y, x, %r5;
		@!%p2 add.u32 %r5, y, %r69999;
	}
	mov.u32 y, %r69999;
L1:
	ret;
}
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	mods["t.ptx"] = m
	for file, m := range mods {
		want := buildFromScopes(m)
		got, diags := Build(m, Options{})
		if got == nil || want == nil {
			t.Errorf("%s: %v", file, diags)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the IR differs from the one built from the builder's scopes", file)
		}
	}
}
