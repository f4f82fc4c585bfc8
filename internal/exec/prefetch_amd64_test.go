//go:build amd64 && !purego

package exec

import (
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestPrefetchW: PREFETCHW is used exactly where the kernel reports the
// CPU has it (Linux calls the CPUID bit 3dnowprefetch), and both prefetch
// routines run over a buffer, including a span that ends mid-line.
func TestPrefetchW(t *testing.T) {
	if info, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		want := false
		for _, f := range strings.Fields(string(info)) {
			want = want || f == "3dnowprefetch"
		}
		if hasPrefetchW != want {
			t.Errorf("hasPrefetchW = %v, /proc/cpuinfo says %v", hasPrefetchW, want)
		}
	}
	buf := make([]byte, 4096)
	p := uintptr(unsafe.Pointer(&buf[0]))
	prefetchLines(p+3, 1000)
	prefetchLinesW(p+64, 129)
	prefetchLinesW(p, 1)
}
