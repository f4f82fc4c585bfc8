// Package ptxvm is the host API of the PTX virtual machine: load PTX
// modules onto a Device, allocate and copy memory, and launch kernels,
// with the concepts of the CUDA driver API in Go form.
//
//	dev := ptxvm.NewDevice(ptxvm.Options{})
//	mod, err := dev.LoadModule("saxpy.ptx", src)
//	x, _ := ptxvm.AllocSlice(dev, xs)
//	err = mod.Launch(ctx, "saxpy", ptxvm.Dim3{X: 4}, ptxvm.Dim3{X: 256}, n, a, x, y)
//
// Every error from a launch that faults is a *Fault (errors.As) naming the
// kernel, CTA, thread, PTX source position, instruction and, for memory
// faults, the address and state space. A failure of the engine itself (a
// bug of ptxvm) is a *Fault of kind "internal error" with the Go panic and
// its stack, not a crash of the process.
package ptxvm

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/ptxvm/ptxvm/internal/check"
	"github.com/ptxvm/ptxvm/internal/exec"
	"github.com/ptxvm/ptxvm/internal/mem"
	"github.com/ptxvm/ptxvm/ptx"
)

// Options configure a Device.
type Options struct {
	Arch        string    // emulated architecture, "sm_90"; "" uses each module's .target
	MemoryLimit uint64    // bytes of device memory; 0: no limit
	Workers     int       // goroutines running CTAs; 0: GOMAXPROCS
	Printf      io.Writer // where device printf writes; nil discards
	// ScheduleSeed, when not 0, perturbs the order in which warps and
	// divergent lanes run inside each CTA (for finding races); a fault
	// names the seed. 0 is the deterministic default schedule.
	ScheduleSeed uint64
}

// Device is one emulated GPU: its memory and loaded modules.
type Device struct {
	opts   Options
	global *mem.Global
	mu     sync.Mutex
}

// NewDevice returns a device with empty memory.
func NewDevice(opts Options) *Device {
	return &Device{opts: opts, global: mem.NewGlobal(opts.MemoryLimit)}
}

// DevicePtr is a device address.
type DevicePtr uint64

// Dim3 is a grid or block size; zero components count as 1.
type Dim3 struct{ X, Y, Z int }

func (d Dim3) array() [3]int {
	return [3]int{max(d.X, 1), max(d.Y, 1), max(d.Z, 1)}
}

// Fault is a runtime fault of a kernel.
type Fault = exec.Fault

// Module is a loaded PTX module.
type Module struct {
	dev  *Device
	prog *exec.Program
}

// LoadModule parses, checks and loads PTX source. A module with errors is
// refused with its diagnostics (a ptx.DiagnosticList).
func (d *Device) LoadModule(name string, src []byte) (*Module, error) {
	m, err := ptx.Parse(name, src, &ptx.ParseOptions{DiscardComments: true})
	if err != nil {
		return nil, err
	}
	mod, diags := check.Build(m, check.Options{Arch: d.opts.Arch})
	if mod == nil {
		return nil, diags
	}
	p, err := exec.Load(mod, d.global)
	if err != nil {
		return nil, err
	}
	return &Module{dev: d, prog: p}, nil
}

// Alloc allocates size bytes of zeroed device memory, its pages mapped
// now (as cudaMalloc commits them), not at a kernel's first access.
func (d *Device) Alloc(size uint64) (DevicePtr, error) {
	a, err := d.global.Alloc(max(size, 1), 0)
	return DevicePtr(a), err
}

// Free releases memory from Alloc.
func (d *Device) Free(p DevicePtr) error { return d.global.Free(uint64(p)) }

// CopyToDevice copies src to device memory at dst.
func (d *Device) CopyToDevice(dst DevicePtr, src []byte) error {
	b, f := d.global.Bytes(uint64(dst), uint64(len(src)))
	if f != nil {
		return f
	}
	copy(b, src)
	return nil
}

// CopyFromDevice copies device memory at src into dst.
func (d *Device) CopyFromDevice(dst []byte, src DevicePtr) error {
	b, f := d.global.Bytes(uint64(src), uint64(len(dst)))
	if f != nil {
		return f
	}
	copy(dst, b)
	return nil
}

// CopyDevice copies n bytes of device memory from src to dst.
func (d *Device) CopyDevice(dst, src DevicePtr, n uint64) error {
	from, f := d.global.Bytes(uint64(src), n)
	if f != nil {
		return f
	}
	to, f := d.global.Bytes(uint64(dst), n)
	if f != nil {
		return f
	}
	copy(to, from)
	return nil
}

// Memset fills n bytes at p with v.
func (d *Device) Memset(p DevicePtr, v byte, n uint64) error {
	b, f := d.global.Bytes(uint64(p), n)
	if f != nil {
		return f
	}
	for i := range b {
		b[i] = v
	}
	return nil
}

// Number is a Go numeric type with a device representation.
type Number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// AllocSlice allocates device memory holding a copy of s.
func AllocSlice[T Number](d *Device, s []T) (DevicePtr, error) {
	b, err := binary.Append(nil, binary.LittleEndian, s)
	if err != nil {
		return 0, err
	}
	p, err := d.Alloc(uint64(len(b)))
	if err != nil {
		return 0, err
	}
	return p, d.CopyToDevice(p, b)
}

// ReadSlice copies len(s) elements from device memory at p into s.
func ReadSlice[T Number](d *Device, p DevicePtr, s []T) error {
	b := make([]byte, binary.Size(s))
	if err := d.CopyFromDevice(b, p); err != nil {
		return err
	}
	_, err := binary.Decode(b, binary.LittleEndian, s)
	return err
}

// Launch runs a kernel over grid x block threads with dynamic shared memory
// of 0 bytes. Arguments are marshalled per the PTX ABI: Go integers and
// floats as the parameter's declared type (converted to its width), a
// DevicePtr as an address, a []byte as a by-value aggregate.
func (m *Module) Launch(ctx context.Context, kernel string, grid, block Dim3, args ...any) error {
	return m.LaunchShared(ctx, kernel, grid, block, 0, args...)
}

// LaunchShared is Launch with dynamic shared memory.
func (m *Module) LaunchShared(ctx context.Context, kernel string, grid, block Dim3, dynShared uint64, args ...any) error {
	return m.launch(ctx, kernel, grid, block, dynShared, nil, args)
}

// LaunchStats are the measurements of one launch: its wall time and the
// instructions it executed (the figures `ptxvm run -stats` prints).
type LaunchStats = exec.LaunchStats

// LaunchWithStats is LaunchShared that also returns the launch's
// measurements.
func (m *Module) LaunchWithStats(ctx context.Context, kernel string, grid, block Dim3, dynShared uint64, args ...any) (LaunchStats, error) {
	var st LaunchStats
	err := m.launch(ctx, kernel, grid, block, dynShared, &st, args)
	return st, err
}

func (m *Module) launch(ctx context.Context, kernel string, grid, block Dim3, dynShared uint64, stats *LaunchStats, args []any) error {
	k := m.prog.Kernels[kernel]
	if k == nil {
		return fmt.Errorf("no kernel %q in the module", kernel)
	}
	offs, size := k.ParamLayout()
	if len(args) != len(offs) {
		return fmt.Errorf("kernel %s takes %d parameters, %d given", kernel, len(offs), len(args))
	}
	buf := make([]byte, size)
	for i, a := range args {
		end := size
		if i+1 < len(offs) {
			end = offs[i+1]
		}
		slot := buf[offs[i]:end]
		if err := marshal(slot, k.ParamType(i), a); err != nil {
			return fmt.Errorf("parameter %d of %s: %w", i, kernel, err)
		}
	}
	return m.prog.Launch(ctx, kernel, exec.LaunchConfig{Grid: grid.array(), Block: block.array(), DynamicShared: dynShared,
		Params: buf, Workers: m.dev.opts.Workers, Printf: m.dev.opts.Printf,
		ScheduleSeed: m.dev.opts.ScheduleSeed, Stats: stats})
}

// Global returns the device address and size of a module-scope .global
// variable (like cuModuleGetGlobal); read and write it with the Copy
// methods.
func (m *Module) Global(name string) (DevicePtr, uint64, error) {
	b, addr, err := m.prog.GlobalVar(name)
	if err != nil {
		return 0, 0, err
	}
	if addr == 0 {
		return 0, 0, fmt.Errorf("%s is a .const variable: use ReadVar and WriteVar", name)
	}
	return DevicePtr(addr), uint64(len(b)), nil
}

// ReadVar copies a module-scope .global or .const variable into dst.
func (m *Module) ReadVar(name string, dst []byte) error {
	b, _, err := m.prog.GlobalVar(name)
	if err != nil {
		return err
	}
	if len(dst) > len(b) {
		return fmt.Errorf("%s has %d bytes, %d asked", name, len(b), len(dst))
	}
	copy(dst, b)
	return nil
}

// WriteVar copies src into a module-scope .global or .const variable; the
// values persist across launches.
func (m *Module) WriteVar(name string, src []byte) error {
	b, _, err := m.prog.GlobalVar(name)
	if err != nil {
		return err
	}
	if len(src) > len(b) {
		return fmt.Errorf("%s has %d bytes, %d given", name, len(b), len(src))
	}
	copy(b, src)
	return nil
}

// marshal writes a Go value as a parameter of PTX type t into slot.
func marshal(slot []byte, t string, a any) error {
	var bits uint64
	switch v := a.(type) {
	case DevicePtr:
		bits = uint64(v)
	case []byte:
		if len(v) > len(slot) {
			return fmt.Errorf("%d bytes for a %d-byte parameter", len(v), len(slot))
		}
		copy(slot, v)
		return nil
	case float32:
		bits = uint64(math.Float32bits(v))
		if t == ".f64" {
			bits = math.Float64bits(float64(v))
		}
	case float64:
		bits = math.Float64bits(v)
		if t == ".f32" {
			bits = uint64(math.Float32bits(float32(v)))
		}
	case int:
		bits = uint64(v)
	case int8:
		bits = uint64(v)
	case int16:
		bits = uint64(v)
	case int32:
		bits = uint64(v)
	case int64:
		bits = uint64(v)
	case uint:
		bits = uint64(v)
	case uint8:
		bits = uint64(v)
	case uint16:
		bits = uint64(v)
	case uint32:
		bits = uint64(v)
	case uint64:
		bits = v
	default:
		return fmt.Errorf("unsupported argument type %T", a)
	}
	for i := 0; i < len(slot) && i < 8; i++ {
		slot[i] = byte(bits >> (8 * i))
	}
	return nil
}
