package ptxvm_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/ptxvm/ptxvm"
)

// Example runs the bundled saxpy kernel: y = a*x + y.
func Example() {
	src, err := os.ReadFile("examples/saxpy.ptx")
	if err != nil {
		log.Fatal(err)
	}
	dev := ptxvm.NewDevice(ptxvm.Options{})
	mod, err := dev.LoadModule("saxpy.ptx", src)
	if err != nil {
		log.Fatal(err)
	}
	const n = 5
	x, _ := ptxvm.AllocSlice(dev, []float32{1, 2, 3, 4, 5})
	y, _ := ptxvm.AllocSlice(dev, []float32{10, 10, 10, 10, 10})
	if err := mod.Launch(context.Background(), "saxpy", ptxvm.Dim3{X: 1}, ptxvm.Dim3{X: 32}, uint32(n), float32(2), x, y); err != nil {
		log.Fatal(err)
	}
	out := make([]float32, n)
	if err := ptxvm.ReadSlice(dev, y, out); err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
	// Output: [12 14 16 18 20]
}

// ExampleModule_LaunchWithStats counts what a launch executed: saxpy over 5
// elements in one warp. Every lane runs the 6 instructions before the
// branch and the final ret; the 27 lanes past n take the branch (its guard
// is true only there); the 5 others run the 12 instructions of the body:
// 32*6 + 27 + 5*12 + 32 = 311 thread instructions, issued as 20 warp
// instructions (the lanes meet again at ret).
func ExampleModule_LaunchWithStats() {
	src, err := os.ReadFile("examples/saxpy.ptx")
	if err != nil {
		log.Fatal(err)
	}
	dev := ptxvm.NewDevice(ptxvm.Options{Workers: 1})
	mod, err := dev.LoadModule("saxpy.ptx", src)
	if err != nil {
		log.Fatal(err)
	}
	x, _ := ptxvm.AllocSlice(dev, []float32{1, 2, 3, 4, 5})
	y, _ := ptxvm.AllocSlice(dev, []float32{10, 10, 10, 10, 10})
	st, err := mod.LaunchWithStats(context.Background(), "saxpy", ptxvm.Dim3{X: 1}, ptxvm.Dim3{X: 32}, 0, uint32(5), float32(2), x, y)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.ThreadInstructions, st.WarpInstructions, st.CTAs)
	// Output: 311 20 1
}
