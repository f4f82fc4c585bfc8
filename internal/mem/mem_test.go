package mem

import "testing"

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
