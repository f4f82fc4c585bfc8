package bench

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// resetPeakRSS asks Linux to restart the process's peak resident set size
// (VmHWM) from the current one ("5" to /proc/self/clear_refs), so that the
// peak read after a benchmark is that benchmark's. It reports whether the
// kernel allowed it; when not, peaks are since the process started.
func resetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// peakRSS returns VmHWM from /proc/self/status in bytes (0 when it cannot
// be read: not Linux).
func peakRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "VmHWM:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(line), " kB"), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}
