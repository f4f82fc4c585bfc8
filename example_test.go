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
