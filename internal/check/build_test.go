package check

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/ptx"
)

func buildSrc(t *testing.T, src string) *ir.Module {
	t.Helper()
	m, err := ptx.Parse("t.ptx", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	mod, diags := Build(m, Options{})
	if mod == nil {
		t.Fatalf("build: %v", diags)
	}
	return mod
}

func TestBuildIR(t *testing.T) {
	mod := buildSrc(t, `.version 7.0
.target sm_70, debug
.address_size 64
.global .align 8 .u32 table[4] = {1, 2, 3, 4};
.visible .entry k(.param .u64 out, .param .u32 n)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	setp.ge.u32 %p1, %r1, 4;
	@%p1 bra DONE;
	ld.global.u32 %r2, [table+8];
	mov.u64 %rd2, table;
	st.global.u32 [%rd1+-4], %r2;
DONE:
	ret;
}
`)
	if mod.Version.Major != 7 || mod.Target.SM != 70 || mod.AddressSize != 64 || len(mod.Options) != 1 || mod.Options[0] != "debug" {
		t.Errorf("module header: %+v", mod)
	}
	if len(mod.Vars) != 1 || mod.Vars[0].Size != 16 || mod.Vars[0].Align != 8 || mod.Vars[0].Dims[0] != 4 {
		t.Errorf("table: %+v", mod.Vars[0])
	}
	f := mod.Funcs[0]
	if !f.Entry || !f.Defined || len(f.Params) != 2 || f.Params[0].Var.Name != "out" {
		t.Fatalf("function: %+v", f)
	}
	if len(f.Insts) != 8 || f.Labels["DONE"] != 7 {
		t.Fatalf("insts %d, DONE at %d", len(f.Insts), f.Labels["DONE"])
	}
	ld := f.Insts[0]
	if ld.Form == nil || ld.Groups[".type"] != ".u64" || ld.Operands[0].Kind != ir.OpReg || ld.Operands[0].Reg.Name != "%rd1" || ld.Operands[0].Reg.Type != ".b64" {
		t.Errorf("ld.param: %+v", ld)
	}
	if a := ld.Operands[1]; a.Kind != ir.OpAddr || a.Base.Kind != ir.OpVar || a.Base.Var.Name != "out" {
		t.Errorf("param address: %+v", a)
	}
	if op := f.Insts[1].Operands[1]; op.Kind != ir.OpSreg || op.Sreg != "%tid" || op.Component != "x" {
		t.Errorf("%%tid.x: %+v", op)
	}
	if op := f.Insts[2].Operands[2]; op.Kind != ir.OpImm || op.Imm.Int64() != 4 {
		t.Errorf("immediate: %+v", op)
	}
	br := f.Insts[3]
	if br.Guard == nil || br.Guard.Reg.Name != "%p1" || br.Operands[0].Kind != ir.OpLabel || br.Operands[0].Label != 7 {
		t.Errorf("guarded branch: %+v", br)
	}
	if a := f.Insts[4].Operands[1]; a.Base.Var.Name != "table" || a.Offset != 8 {
		t.Errorf("[table+8]: %+v", a)
	}
	if op := f.Insts[5].Operands[1]; op.Kind != ir.OpVar || op.Var.Name != "table" {
		t.Errorf("address of table: %+v", op)
	}
	if a := f.Insts[6].Operands[0]; a.Base.Reg.Name != "%rd1" || a.Offset != -4 {
		t.Errorf("[%%rd1+-4]: %+v", a)
	}
	// one register per name, the same object at every use
	if f.Insts[0].Operands[0].Reg != f.Insts[6].Operands[0].Base.Reg {
		t.Errorf("%%rd1 resolved to two registers")
	}
	for i, r := range f.Regs {
		if r.ID != i {
			t.Errorf("register %s has ID %d at index %d", r.Name, r.ID, i)
		}
	}
}

func TestBuildRefusesInvalid(t *testing.T) {
	m, err := ptx.Parse("t.ptx", []byte(kernel("7.0", "sm_70", "add.s32 %r1, %r2, %r3;")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if mod, diags := Build(m, Options{}); mod != nil || !diags.HasErrors() {
		t.Errorf("Build of an invalid module: %v, %v", mod, diags)
	}
}

// TestBuildCorpus: every corpus module builds, and every instruction has
// its form and only resolved operands.
func TestBuildCorpus(t *testing.T) {
	var files []string
	filepath.WalkDir("../../testdata/clang/ptx", func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".ptx") {
			files = append(files, path)
		}
		return nil
	})
	for _, file := range files {
		m, err := ptx.ParseFile(file, &ptx.ParseOptions{DiscardComments: true})
		if err != nil {
			t.Fatal(err)
		}
		mod, diags := Build(m, Options{})
		if mod == nil {
			t.Errorf("%s: %v", file, diags)
			continue
		}
		for _, f := range mod.Funcs {
			for _, in := range f.Insts {
				if in.Form == nil {
					t.Errorf("%s: %s at %v has no form", file, in.Opcode, in.Pos)
				}
				for _, op := range in.Operands {
					if op.Kind == ir.OpName && op.Name == "" {
						t.Errorf("%s: unresolved operand of %s at %v", file, in.Opcode, in.Pos)
					}
				}
			}
		}
	}
}
