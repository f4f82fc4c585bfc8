package mem

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestGlobal(t *testing.T) {
	g := NewGlobal(1024)
	a, err := g.Alloc(100, 0)
	if err != nil || a < GlobalBase || a%256 != 0 {
		t.Fatalf("alloc: 0x%x %v", a, err)
	}
	b, _ := g.Alloc(8, 0)
	if b < a+100+guard {
		t.Errorf("no guard gap between allocations: 0x%x after 0x%x", b, a)
	}
	if _, f := g.Bytes(a, 100); f != nil {
		t.Errorf("whole allocation: %v", f)
	}
	if _, f := g.Bytes(a+96, 8); f == nil || f.Kind != OutOfBounds {
		t.Errorf("access past the end: %v", f)
	}
	if _, f := g.Bytes(0, 4); f == nil {
		t.Errorf("null access succeeded")
	}
	if _, err := g.Alloc(2000, 0); err == nil {
		t.Errorf("allocation past the limit succeeded")
	}
	if err := g.Free(a + 4); err == nil {
		t.Errorf("free of an inner address succeeded")
	}
	if err := g.Free(a); err != nil {
		t.Fatal(err)
	}
	if _, f := g.Bytes(a, 4); f == nil {
		t.Errorf("access after free succeeded")
	}
}

func TestWindows(t *testing.T) {
	for _, c := range []struct {
		space Space
		off   uint64
	}{{SpaceShared, 16}, {SpaceLocal, 0}, {SpaceConst, 1 << 20}, {SpaceGlobal, GlobalBase + 8}} {
		s, off := Classify(Generic(c.space, c.off))
		if s != c.space || off != c.off {
			t.Errorf("%v 0x%x: classified as %v 0x%x", c.space, c.off, s, off)
		}
	}
}

func TestLoadStore(t *testing.T) {
	p := make([]byte, 8)
	for _, n := range []int{1, 2, 4, 8} {
		Store(p[:n], 0x1122334455667788)
		want := uint64(0x1122334455667788) & (1<<(8*uint(n)) - 1)
		if n == 8 {
			want = 0x1122334455667788
		}
		if got := Load(p[:n]); got != want {
			t.Errorf("%d bytes: 0x%x, want 0x%x", n, got, want)
		}
	}
}

// TestAllocCommits: an allocation's pages are mapped when it is made (the
// resident set grows by its size), not at a kernel's first access, whose
// time would count the faults. Linux only (/proc/self/status).
func TestAllocCommits(t *testing.T) {
	rss := func() int64 {
		b, err := os.ReadFile("/proc/self/status")
		if err != nil {
			t.Skip("no /proc/self/status")
		}
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) == 3 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				return kb << 10
			}
		}
		t.Skip("no VmRSS")
		return 0
	}
	g := NewGlobal(0)
	const size = 128 << 20
	runtime.GC()
	before := rss()
	addr, err := g.Alloc(size, 0)
	if err != nil {
		t.Fatal(err)
	}
	if grew := rss() - before; grew < size*3/4 {
		t.Errorf("the resident set grew by %d bytes for an allocation of %d", grew, size)
	}
	if err := g.Free(addr); err != nil {
		t.Fatal(err)
	}
}

// TestAllocTooLarge: sizes whose sums would wrap around 64 bits, or that
// pass the device address space or the memory limit, are errors (a
// kernel's malloc((size_t)-1) gets NULL); none panics.
func TestAllocTooLarge(t *testing.T) {
	g := NewGlobal(0)
	for _, size := range []uint64{^uint64(0), ^uint64(0) - 255, SharedBase, SharedBase - GlobalBase} {
		if addr, err := g.Alloc(size, 0); err == nil {
			t.Errorf("Alloc(%#x) = %#x, want an error", size, addr)
		}
	}
	if _, err := g.Alloc(16, ^uint64(0)/2+1); err == nil {
		t.Error("an alignment of 2^63: no error")
	}
	lim := NewGlobal(1 << 20)
	if _, err := lim.Alloc(1<<19, 0); err != nil {
		t.Fatal(err)
	}
	for _, size := range []uint64{1<<19 + 1, ^uint64(0) - (1 << 18)} {
		if _, err := lim.Alloc(size, 0); err == nil || !strings.Contains(err.Error(), "out of device memory") && !strings.Contains(err.Error(), "address space") {
			t.Errorf("Alloc(%#x) with 2^19 of 2^20 in use: %v", size, err)
		}
	}
	if _, err := lim.Alloc(1<<19, 0); err != nil {
		t.Errorf("the rest of the limit: %v", err)
	}
}
