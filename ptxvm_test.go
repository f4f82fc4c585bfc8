package ptxvm

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

const faulty = `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b64 %rd<2>;
	.reg .b32 %r<2>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, 7;
	st.global.u32 [%rd1+4096], %r1;
	ret;
}
`

func TestLaunchFault(t *testing.T) {
	dev := NewDevice(Options{})
	mod, err := dev.LoadModule("f.ptx", []byte(faulty))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := dev.Alloc(16)
	err = mod.Launch(context.Background(), "k", Dim3{X: 1}, Dim3{X: 1}, p)
	var f *Fault
	if !errors.As(err, &f) || f.Space != "global" || f.Addr != uint64(p)+4096 || f.Pos.Line != 10 || !strings.Contains(f.Inst, "st.global.u32") {
		t.Fatalf("want an out-of-bounds fault at line 10, got %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	dev := NewDevice(Options{})
	if _, err := dev.LoadModule("bad.ptx", []byte(".version 7.0\n.target sm_70\n.entry k() { add.s32 %r1, %r2, 1; }\n")); err == nil ||
		!strings.Contains(err.Error(), "undeclared") {
		t.Errorf("want the checker's diagnostics, got %v", err)
	}
	mod, err := dev.LoadModule("f.ptx", []byte(faulty))
	if err != nil {
		t.Fatal(err)
	}
	if err := mod.Launch(context.Background(), "k", Dim3{X: 1}, Dim3{X: 1}); err == nil {
		t.Errorf("missing parameter accepted")
	}
	if err := mod.Launch(context.Background(), "nope", Dim3{X: 1}, Dim3{X: 1}); err == nil {
		t.Errorf("unknown kernel accepted")
	}
}

func TestMemory(t *testing.T) {
	dev := NewDevice(Options{MemoryLimit: 1 << 20})
	p, err := AllocSlice(dev, []int32{-1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	got := make([]int32, 3)
	if err := ReadSlice(dev, p, got); err != nil || got[0] != -1 || got[2] != 3 {
		t.Errorf("round trip: %v %v", got, err)
	}
	q, _ := dev.Alloc(12)
	if err := dev.CopyDevice(q, p, 12); err != nil {
		t.Fatal(err)
	}
	if err := ReadSlice(dev, q, got); err != nil || got[1] != 2 {
		t.Errorf("device-to-device copy: %v %v", got, err)
	}
	if err := dev.CopyDevice(q, p, 16); err == nil {
		t.Errorf("copy past the end succeeded")
	}
	if _, err := dev.Alloc(2 << 20); err == nil {
		t.Errorf("allocation past the memory limit succeeded")
	}
	if err := dev.Free(p + 4); err == nil {
		t.Errorf("free of an inner address succeeded")
	}
}

// TestPrintf: device printf with the CUDA ABI (clang-compiled kernel).
func TestPrintf(t *testing.T) {
	src, err := os.ReadFile("testdata/clang/ptx/printf.sm_80.ptx70.O2.ptx")
	if err != nil {
		t.Skip(err)
	}
	var out bytes.Buffer
	dev := NewDevice(Options{Printf: &out, Workers: 1})
	mod, err := dev.LoadModule("printf.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	if err := mod.Launch(context.Background(), "_Z5hellov", Dim3{X: 2}, Dim3{X: 2}); err != nil {
		t.Fatal(err)
	}
	want := "Hello from block 0, thread 0\nHello from block 0, thread 1\nHello from block 1, thread 0\nHello from block 1, thread 1\n"
	if out.String() != want {
		t.Errorf("printf output:\n%q\nwant\n%q", out.String(), want)
	}
}

// TestModuleVariables: module .global and .const variables from the host,
// initialized from their declarations and persisting across launches.
func TestModuleVariables(t *testing.T) {
	dev := NewDevice(Options{})
	mod, err := dev.LoadModule("v.ptx", []byte(`.version 7.0
.target sm_70
.address_size 64
.global .align 4 .u32 counter = 5;
.const .align 4 .u32 step = 3;
.visible .entry bump()
{
	.reg .b32 %r<3>;
	ld.global.u32 %r1, [counter];
	ld.const.u32 %r2, [step];
	add.u32 %r1, %r1, %r2;
	st.global.u32 [counter], %r1;
	ret;
}
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := mod.WriteVar("step", []byte{10, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := mod.Launch(context.Background(), "bump", Dim3{X: 1}, Dim3{X: 1}); err != nil {
			t.Fatal(err)
		}
	}
	p, size, err := mod.Global("counter")
	if err != nil || size != 4 {
		t.Fatal(size, err)
	}
	got := make([]uint32, 1)
	if err := ReadSlice(dev, p, got); err != nil || got[0] != 25 {
		t.Errorf("counter = %v (%v), want 5 + 2*10", got, err)
	}
	if _, _, err := mod.Global("step"); err == nil {
		t.Errorf(".const variable has no device address")
	}
}
