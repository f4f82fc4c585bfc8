package exec

// Functions of the CUDA device runtime that compilers call but PTX does not
// define: vprintf, malloc, free, __assertfail.

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strings"

	"github.com/ptxvm/ptxvm/internal/mem"
)

// builtin runs a runtime function for the lanes of mask; args[k][8*lane:]
// holds argument k of each lane; it returns results[k][lane].
type builtin func(w *Warp, o *Op, mask uint32, args [][]byte) [][]uint64

var builtins = map[string]builtin{
	"malloc":       builtinMalloc,
	"free":         builtinFree,
	"vprintf":      builtinVprintf,
	"__assertfail": builtinAssertfail,
}

func arg(args [][]byte, k, lane int) uint64 {
	if k >= len(args) {
		return 0
	}
	return mem.Load(args[k][lane*8 : lane*8+8])
}

func builtinMalloc(w *Warp, o *Op, mask uint32, args [][]byte) [][]uint64 {
	res := make([]uint64, warpSize)
	for m := mask; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		addr, err := w.cta.l.prog.global.Alloc(arg(args, 0, lane), 16)
		if err != nil {
			addr = 0 // malloc returns NULL when the heap is exhausted
		}
		res[lane] = addr
	}
	return [][]uint64{res}
}

func builtinFree(w *Warp, o *Op, mask uint32, args [][]byte) [][]uint64 {
	for m := mask; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		if p := arg(args, 0, lane); p != 0 {
			if err := w.cta.l.prog.global.Free(p); err != nil {
				w.fail(o, 1<<lane, FaultOutOfBounds, "free of an address malloc did not return")
				return nil
			}
		}
	}
	return nil
}

// cString reads a NUL-terminated string at a generic address.
func (w *Warp) cString(o *Op, lane int, addr uint64) string {
	var b strings.Builder
	for i := uint64(0); i < 4096; i++ {
		p := w.read(o, lane, addr+i, 1)
		if p == nil || p[0] == 0 {
			break
		}
		b.WriteByte(p[0])
	}
	return b.String()
}

// read returns n bytes at a generic address for lane, or nil after a fault.
func (w *Warp) read(o *Op, lane int, addr, n uint64) []byte {
	probe := *o
	probe.addrBase, probe.addrConst, probe.space, probe.frameAddr = -1, addr, mem.SpaceGeneric, false
	return w.accessUnaligned(&probe, lane, n)
}

// accessUnaligned is access without the alignment rule (for runtime calls
// that read strings and argument buffers byte by byte).
func (w *Warp) accessUnaligned(o *Op, lane int, n uint64) []byte {
	space, addr := mem.Classify(o.addrConst)
	var b []byte
	var fault *mem.Fault
	switch space {
	case mem.SpaceGlobal:
		b, fault = w.cta.l.prog.global.Bytes(addr, n)
		w.plainGlobal(addr)
	case mem.SpaceShared:
		b, fault = w.cta.shared.Bytes(addr, n)
	case mem.SpaceLocal:
		if b = w.localBytes(lane, addr, n); b == nil {
			fault = &mem.Fault{Kind: mem.OutOfBounds, Space: mem.SpaceLocal, Addr: addr, Size: int(n)}
		}
	case mem.SpaceConst:
		b, fault = w.cta.l.prog.constant.Bytes(addr, n)
	}
	if fault != nil {
		w.memFault(o, lane, fault, space)
		return nil
	}
	return b
}

// builtinVprintf implements the CUDA printf ABI: vprintf(format, args)
// where args points to the arguments packed at their natural alignment.
func builtinVprintf(w *Warp, o *Op, mask uint32, args [][]byte) [][]uint64 {
	out := w.cta.l.printf
	for m := mask; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		format := w.cString(o, lane, arg(args, 0, lane))
		text := w.formatPrintf(o, lane, format, arg(args, 1, lane))
		if w.fault != nil {
			return nil
		}
		if out != nil {
			w.cta.l.print(out, text)
		}
	}
	return [][]uint64{make([]uint64, warpSize)} // the number of arguments; 0 is fine
}

func (w *Warp) formatPrintf(o *Op, lane int, format string, argp uint64) string {
	var b bytes.Buffer
	next := func(size uint64) uint64 {
		argp = (argp + size - 1) &^ (size - 1)
		p := w.read(o, lane, argp, size)
		argp += size
		if p == nil {
			return 0
		}
		return mem.Load(p)
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0123456789.*", format[j]) >= 0 {
			j++
		}
		long := 0
		for j < len(format) && strings.IndexByte("hlLzjt", format[j]) >= 0 {
			if format[j] == 'l' || format[j] == 'L' || format[j] == 'z' || format[j] == 'j' || format[j] == 't' {
				long++
			}
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		flags := format[i+1 : j]
		flags = strings.TrimRight(flags, "hlLzjt")
		verb := format[j]
		i = j
		switch verb {
		case '%':
			b.WriteByte('%')
		case 'd', 'i':
			if long > 0 {
				fmt.Fprintf(&b, "%"+flags+"d", int64(next(8)))
			} else {
				fmt.Fprintf(&b, "%"+flags+"d", int32(next(4)))
			}
		case 'u', 'x', 'X', 'o':
			v := next(4)
			if long > 0 {
				argp -= 4
				v = next(8)
			}
			goVerb := string(verb)
			if verb == 'u' {
				goVerb = "d"
			}
			fmt.Fprintf(&b, "%"+flags+goVerb, v)
		case 'c':
			fmt.Fprintf(&b, "%c", rune(byte(next(4))))
		case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
			x := math.Float64frombits(next(8)) // C promotes floats to double
			goVerb := string(verb)
			if verb == 'F' {
				goVerb = "f"
			}
			if verb == 'a' || verb == 'A' {
				goVerb = "x"
			}
			fmt.Fprintf(&b, "%"+flags+goVerb, x)
		case 's':
			fmt.Fprintf(&b, "%"+flags+"s", w.cString(o, lane, next(8)))
		case 'p':
			fmt.Fprintf(&b, "0x%x", next(8))
		default:
			b.WriteString(format[i-len(flags)-1 : i+1])
		}
	}
	return b.String()
}

// builtinAssertfail is CUDA's assert: a fault carrying the message.
func builtinAssertfail(w *Warp, o *Op, mask uint32, args [][]byte) [][]uint64 {
	lane := bits.TrailingZeros32(mask)
	msg := w.cString(o, lane, arg(args, 0, lane))
	file := w.cString(o, lane, arg(args, 1, lane))
	line := arg(args, 2, lane)
	fn := w.cString(o, lane, arg(args, 3, lane))
	w.fail(o, mask, FaultTrap, fmt.Sprintf("assertion failed: %s (%s:%d, %s)", msg, file, uint32(line), fn))
	return nil
}

// print writes text to out under the launch's lock (a writer that panics
// leaves it unlocked for the other workers).
func (l *launch) print(out io.Writer, text string) {
	l.printMu.Lock()
	defer l.printMu.Unlock()
	out.Write([]byte(text))
}
