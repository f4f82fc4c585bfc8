package main

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ptxvm/ptxvm/internal/casefile"
	"github.com/ptxvm/ptxvm/internal/caserun"
	"github.com/ptxvm/ptxvm/internal/exec"
)

var runCommand = &command{
	name:    "run",
	summary: "run a kernel from a case file or a PTX file, and write its buffers",
	usage: `run [-out DIR] [-npy] [-workers N] [-schedule-seed N] [-stats] [-timeout D] [-arch sm_XX] CASE.json
       ptxvm run -kernel K -grid X,Y,Z -block X,Y,Z [-shared N] [-param KIND:VALUE]...
                 [-buffer NAME:TYPE:COUNT[:fill=V|:file=PATH]]... [-out DIR] [-npy] FILE.ptx`,
	doc: `Run launches a kernel once and reports what it did. Flags may come before
or after the file argument.

With a case file (JSON, format ptxvm-case/1: see the README), each of its
modules is launched in turn, on fresh buffers. With a PTX file, the quick
form, the launch is described by flags:

	-kernel K           the .entry to launch (required)
	-grid X,Y,Z         grid dimensions in CTAs (required; "X" or "X,Y" leave
	                    the rest 1)
	-block X,Y,Z        CTA dimensions in threads (required; likewise)
	-shared N           bytes of dynamic (.extern) shared memory
	-param KIND:VALUE   the next kernel parameter, in .entry order; repeat for
	                    each. KIND is a PTX type (u8 ... u64, s8 ... s64,
	                    b8 ... b64, f16, bf16, f32, f64) with a VALUE as in
	                    case files: a number, nan, inf, -inf, -0, or a hex bit
	                    pattern 0x... (zero-extended to the type's width);
	                    ptr:NAME[+OFFSET] for the address of buffer NAME plus
	                    OFFSET bytes; bytes:ALIGN:HEX for a by-value aggregate
	                    (.param .align ALIGN .b8 p[N]) of the given bytes.
	-buffer NAME:TYPE:COUNT[:fill=V|:file=PATH]
	                    a global-memory buffer of COUNT elements of TYPE,
	                    zero-filled, or every element V, or the raw
	                    little-endian contents of file PATH (exactly
	                    COUNT elements); repeat for each buffer.
	-save-case FILE     also write the launch as a case file (no expectations)

For example

	ptxvm run -kernel saxpy -grid 4 -block 256 -param u32:1000 -param f32:2.5 \
	    -buffer x:f32:1000:fill=1 -buffer y:f32:1000:fill=0.5 \
	    -param ptr:x -param ptr:y -out out examples/saxpy.ptx

(-param and -buffer may be interleaved; parameters keep their order.)

Device printf output goes to standard output. The result goes to standard
error, one line per module:

	PASS name [module]           the case's expectations are met
	FAIL name [module]: detail   a fault (out of bounds, trap, ...), the
	                             first differing elements, or a load error
	OK name [module]             the launch succeeded; the case has no
	                             expectations (always so in the quick form)

With -out DIR, after each successful launch every buffer is written to
DIR/NAME.bin (its raw little-endian contents) and, with -npy, DIR/NAME.npy
(NumPy format 1.0, one-dimensional, dtype <f4 for f32, <f8 f64, <f2 f16,
<u4 u32 and b32, <i4 s32, |u1 u8/b8, and so on; bf16, which NumPy lacks, is
written as its raw bits, <u2: view it with ml_dtypes.bfloat16, or widen it
with (a.astype(np.uint32) << 16).view(np.float32)). When a case file has
several modules, each gets a subdirectory, DIR/MODULE/ (the module's file
name without .ptx). Characters other than letters, digits, '.', '-' and '_'
in names become '_'. Nothing is written for a launch that faulted.

Exit status: 0 if every launch succeeded and met its expectations, 1 on a
fault, a mismatch or a file that cannot be read or written, 2 if the case
file is malformed or on a usage error.
`,
	flags: func(fs *flag.FlagSet) { new(runConfig).register(fs) },
}

type runConfig struct {
	out      string
	npy      bool
	workers  int
	seed     uint64
	stats    bool
	timeout  time.Duration
	arch     string
	kernel   string
	grid     string
	block    string
	shared   int
	params   stringList // in order; interleaving with buffers does not matter
	buffers  stringList
	saveCase string
}

func (c *runConfig) register(fs *flag.FlagSet) {
	fs.StringVar(&c.out, "out", "", "write each buffer after the launch to `DIR`/NAME.bin")
	fs.BoolVar(&c.npy, "npy", false, "with -out, also write DIR/NAME.npy (NumPy format)")
	fs.IntVar(&c.workers, "workers", 0, "goroutines running CTAs (0: GOMAXPROCS; 1: deterministic order)")
	fs.BoolVar(&c.stats, "stats", false, "print one machine-readable `stats:` line per launch on standard error")
	fs.Uint64Var(&c.seed, "schedule-seed", 0, "perturb the order of warps and divergent lanes with seed `N` (0: the deterministic default)")
	fs.DurationVar(&c.timeout, "timeout", 0, "fail a launch that runs longer than `D` (e.g. 10s; 0: no limit)")
	fs.StringVar(&c.arch, "arch", "", "emulate this device (default: the case's arch, else the module's highest target)")
	fs.StringVar(&c.kernel, "kernel", "", "quick form: the .entry to launch")
	fs.StringVar(&c.grid, "grid", "", "quick form: grid dimensions `X,Y,Z`")
	fs.StringVar(&c.block, "block", "", "quick form: CTA dimensions `X,Y,Z`")
	fs.IntVar(&c.shared, "shared", 0, "quick form: dynamic shared memory in bytes")
	fs.Var(&c.params, "param", "quick form: the next kernel parameter, `KIND:VALUE` (repeatable; see above)")
	fs.Var(&c.buffers, "buffer", "quick form: a buffer `NAME:TYPE:COUNT[:fill=V|:file=PATH]` (repeatable)")
	fs.StringVar(&c.saveCase, "save-case", "", "quick form: also write the launch as a case file to `FILE`")
}

func (c *runConfig) quick() bool {
	return c.kernel != "" || c.grid != "" || c.block != "" || c.shared != 0 ||
		len(c.params) > 0 || len(c.buffers) > 0 || c.saveCase != ""
}

func runRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var cfg runConfig
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	cfg.register(fs)
	args, code, ok := parseFlags(runCommand, fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(args) > 1 {
		// Flags after the file argument.
		var rest []string
		rest, code, ok = parseFlags(runCommand, fs, args[1:], stdout, stderr)
		if !ok {
			return code
		}
		args = append(args[:1], rest...)
	}
	switch {
	case len(args) == 0:
		return usageError(runCommand, stderr, "no file given (a case file or a PTX file)")
	case len(args) > 1:
		return usageError(runCommand, stderr, "more than one file given: %s", strings.Join(args, " "))
	case cfg.workers < 0:
		return usageError(runCommand, stderr, "-workers %d: must not be negative", cfg.workers)
	case cfg.npy && cfg.out == "":
		return usageError(runCommand, stderr, "-npy needs -out DIR")
	}
	path := args[0]

	var c *casefile.Case
	caseFile := ""
	if strings.HasSuffix(path, ".json") {
		if cfg.quick() {
			return usageError(runCommand, stderr, "-kernel, -grid, -block, -shared, -param, -buffer and -save-case are for a PTX file, not a case file")
		}
		var err error
		c, err = casefile.Load(path)
		if err != nil {
			fmt.Fprintln(stderr, err)
			var pe *os.PathError
			if errors.As(err, &pe) {
				return exitErrors
			}
			return exitUsage
		}
		caseFile = path
	} else {
		var err error
		c, err = quickCase(&cfg, path)
		if err != nil {
			return usageError(runCommand, stderr, "%v", err)
		}
		if cfg.saveCase != "" {
			saved := *c
			saved.PTX = []string{pathFrom(filepath.Dir(cfg.saveCase), path)}
			data, err := casefile.Write(&saved)
			if err != nil {
				return usageError(runCommand, stderr, "%v", err)
			}
			if err := os.WriteFile(cfg.saveCase, data, 0o644); err != nil {
				fmt.Fprintf(stderr, "ptxvm run: %v\n", err)
				return exitErrors
			}
		}
	}
	if cfg.arch != "" {
		c.Arch = cfg.arch
	}
	expectations := c.ExpectError != ""
	for _, b := range c.Buffers {
		expectations = expectations || b.Checked()
	}

	opts := caserun.Options{Workers: cfg.workers, Printf: stdout, ScheduleSeed: cfg.seed}
	if cfg.stats {
		opts.Stats = func(kernel, _ string, s exec.LaunchStats) {
			fmt.Fprintf(stderr, "stats: kernel=%s ms=%.3f thread_instructions=%d warp_instructions=%d workers=%d ctas=%d batched=%d unbatched=%d segments=%d\n",
				kernel, float64(s.Duration.Microseconds())/1000, s.ThreadInstructions, s.WarpInstructions, s.Workers, s.CTAs, s.Batched, s.Unbatched, s.Segments)
		}
		opts.Loaded = func(module string, bytes int, d time.Duration) {
			name := moduleName(caseFile, module)
			if strings.ContainsAny(name, " \t=\"") {
				name = strconv.Quote(name) // (one field still)
			}
			fmt.Fprintf(stderr, "stats: module=%s bytes=%d load_ms=%.3f\n", name, bytes, float64(d.Microseconds())/1000)
		}
	}
	if isTerminal(stderr) {
		opts.Progress = func(done, total int) {
			fmt.Fprintf(stderr, "\r%d/%d CTAs", done, total)
			if done == total {
				fmt.Fprint(stderr, "\r\033[K")
			}
		}
	}
	results := runCase(c, cfg.timeout, opts)
	failed := false
	used := map[string]bool{}
	for _, r := range results {
		mod := moduleName(caseFile, r.Module)
		switch {
		case !r.Pass:
			failed = true
			fmt.Fprintf(stderr, "FAIL %s [%s]: %s\n", r.Case, mod, oneLine(r.Detail))
		case expectations:
			fmt.Fprintf(stderr, "PASS %s [%s]\n", r.Case, mod)
		default:
			fmt.Fprintf(stderr, "OK %s [%s]\n", r.Case, mod)
		}
		if cfg.out == "" || r.Buffers == nil {
			continue
		}
		dir := cfg.out
		if len(results) > 1 {
			sub := safeName(strings.TrimSuffix(filepath.Base(r.Module), ".ptx"))
			for n := 2; used[sub]; n++ {
				sub = fmt.Sprintf("%s.%d", safeName(strings.TrimSuffix(filepath.Base(r.Module), ".ptx")), n)
			}
			used[sub] = true
			dir = filepath.Join(dir, sub)
		}
		if err := writeBuffers(dir, c, r.Buffers, cfg.npy); err != nil {
			fmt.Fprintf(stderr, "ptxvm run: %v\n", err)
			failed = true
		}
	}
	if failed {
		return exitErrors
	}
	return exitOK
}

// pathFrom returns path relative to dir when both can be made absolute, so
// that a saved case file finds its module; otherwise path as given.
func pathFrom(dir, path string) string {
	absDir, err1 := filepath.Abs(dir)
	absPath, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return path
	}
	rel, err := filepath.Rel(absDir, absPath)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// writeBuffers writes each buffer of c, with its contents from bufs, to
// dir/NAME.bin and, with npy, dir/NAME.npy.
func writeBuffers(dir string, c *casefile.Case, bufs map[string][]byte, npy bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, b := range c.Buffers {
		data := bufs[b.Name]
		name := filepath.Join(dir, safeName(b.Name))
		if err := os.WriteFile(name+".bin", data, 0o644); err != nil {
			return err
		}
		if npy {
			out := append(npyHeader(b.Type, b.Count), data...)
			if err := os.WriteFile(name+".npy", out, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// safeName makes s usable as a file name: characters other than ASCII
// letters, digits, '.', '-' and '_' become '_', as does a leading '.'.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		ok := c == '_' || c == '-' || c == '.' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !ok || i == 0 && c == '.' {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}

// npyDtypes maps element types to NumPy dtype descriptors. bf16 has no
// NumPy type: its raw bits are written as <u2.
var npyDtypes = map[string]string{
	"u8": "|u1", "s8": "|i1", "b8": "|u1",
	"u16": "<u2", "s16": "<i2", "b16": "<u2", "f16": "<f2", "bf16": "<u2",
	"u32": "<u4", "s32": "<i4", "b32": "<u4", "f32": "<f4",
	"u64": "<u8", "s64": "<i8", "b64": "<u8", "f64": "<f8",
}

// npyHeader returns the header of a NumPy format 1.0 file holding a
// one-dimensional array of count elements of type typ: the magic string,
// the version, the header length and a Python dict literal padded with
// spaces and a newline so that the data starts at a multiple of 64 bytes.
func npyHeader(typ string, count int) []byte {
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }", npyDtypes[typ], count)
	const prefix = 10 // magic (6), version (2), header length (2)
	total := (prefix + len(dict) + 1 + 63) / 64 * 64
	hdr := make([]byte, 0, total)
	hdr = append(hdr, "\x93NUMPY\x01\x00"...)
	hdr = binary.LittleEndian.AppendUint16(hdr, uint16(total-prefix))
	hdr = append(hdr, dict...)
	for len(hdr) < total-1 {
		hdr = append(hdr, ' ')
	}
	return append(hdr, '\n')
}

// quickCase builds the case that the quick form's flags describe.
func quickCase(cfg *runConfig, ptxFile string) (*casefile.Case, error) {
	if cfg.kernel == "" || cfg.grid == "" || cfg.block == "" {
		return nil, fmt.Errorf("a PTX file needs -kernel, -grid and -block (or give a .json case file)")
	}
	c := &casefile.Case{Name: cfg.kernel, PTX: []string{ptxFile}, Kernel: cfg.kernel, DynamicShared: cfg.shared}
	var err error
	if c.Grid, err = parseDims("-grid", cfg.grid); err != nil {
		return nil, err
	}
	if c.Block, err = parseDims("-block", cfg.block); err != nil {
		return nil, err
	}
	if cfg.shared < 0 {
		return nil, fmt.Errorf("-shared %d: must not be negative", cfg.shared)
	}
	for _, s := range cfg.buffers {
		b, err := parseBuffer(s)
		if err != nil {
			return nil, fmt.Errorf("-buffer %s: %v", s, err)
		}
		if c.Buffer(b.Name) != nil {
			return nil, fmt.Errorf("-buffer %s: a buffer named %q is already given", s, b.Name)
		}
		c.Buffers = append(c.Buffers, b)
	}
	for _, s := range cfg.params {
		p, err := parseParam(s)
		if err != nil {
			return nil, fmt.Errorf("-param %s: %v", s, err)
		}
		if p.Kind == "ptr" && c.Buffer(p.Buffer) == nil {
			return nil, fmt.Errorf("-param %s: no -buffer is named %q", s, p.Buffer)
		}
		c.Params = append(c.Params, p)
	}
	return c, nil
}

// parseDims reads "X", "X,Y" or "X,Y,Z"; missing dimensions are 1.
func parseDims(flagName, s string) ([3]int, error) {
	d := [3]int{1, 1, 1}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return d, fmt.Errorf("%s %s: want X,Y,Z", flagName, s)
	}
	for i, p := range parts {
		n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 32)
		if err != nil || n < 1 {
			return d, fmt.Errorf("%s %s: %q is not a positive integer", flagName, s, p)
		}
		d[i] = int(n)
	}
	return d, nil
}

// parseParam reads a -param value: KIND:VALUE, ptr:NAME[+OFFSET] or
// bytes:ALIGN:HEX.
func parseParam(s string) (casefile.Param, error) {
	kind, val, ok := strings.Cut(s, ":")
	if !ok {
		return casefile.Param{}, fmt.Errorf("want KIND:VALUE")
	}
	switch kind {
	case "ptr":
		name, off, hasOff := strings.Cut(val, "+")
		p := casefile.Param{Kind: "ptr", Buffer: name, Align: 8}
		if name == "" {
			return p, fmt.Errorf("want ptr:NAME[+OFFSET]")
		}
		if hasOff {
			n, err := strconv.ParseInt(off, 0, 64)
			if err != nil {
				return p, fmt.Errorf("offset %q is not an integer", off)
			}
			p.Offset = n
		}
		return p, nil
	case "bytes":
		as, hx, ok := strings.Cut(val, ":")
		align, err := strconv.Atoi(as)
		if !ok || err != nil || align < 1 || align&(align-1) != 0 {
			return casefile.Param{}, fmt.Errorf("want bytes:ALIGN:HEX with ALIGN a power of two")
		}
		data, err := hex.DecodeString(hx)
		if err != nil || len(data) == 0 {
			return casefile.Param{}, fmt.Errorf("%q is not a non-empty string of hex byte pairs", hx)
		}
		return casefile.Param{Kind: "bytes", Bytes: data, Align: align}, nil
	}
	if casefile.ElemSize(kind) == 0 {
		return casefile.Param{}, fmt.Errorf("%q is not a parameter kind (want ptr, bytes or a PTX type such as u32, f32)", kind)
	}
	bits, err := valueBits(kind, val)
	if err != nil {
		return casefile.Param{}, err
	}
	return casefile.Param{Kind: kind, Bits: bits, Align: casefile.ElemSize(kind)}, nil
}

// parseBuffer reads a -buffer value: NAME:TYPE:COUNT[:fill=V|:file=PATH].
func parseBuffer(s string) (*casefile.Buffer, error) {
	parts := strings.SplitN(s, ":", 4)
	if len(parts) < 3 || parts[0] == "" {
		return nil, fmt.Errorf("want NAME:TYPE:COUNT[:fill=V|:file=PATH]")
	}
	name, typ := parts[0], parts[1]
	size := casefile.ElemSize(typ)
	if size == 0 {
		return nil, fmt.Errorf("%q is not an element type (want a PTX type such as u32, f32)", typ)
	}
	count, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil || count < 0 || count*int64(size) > casefile.MaxBufferBytes {
		return nil, fmt.Errorf("count %q is not an integer from 0 to %d", parts[2], casefile.MaxBufferBytes/size)
	}
	b := &casefile.Buffer{Name: name, Type: typ, Count: int(count), Size: int(count) * size,
		Output: true, Compare: casefile.Compare{Mode: "exact"}}
	if len(parts) < 4 {
		b.Init = make([]byte, b.Size)
		return b, nil
	}
	switch opt := parts[3]; {
	case strings.HasPrefix(opt, "fill="):
		bits, err := valueBits(typ, strings.TrimPrefix(opt, "fill="))
		if err != nil {
			return nil, err
		}
		elem := binary.LittleEndian.AppendUint64(nil, bits)[:size]
		b.Init = make([]byte, 0, b.Size)
		for range b.Count {
			b.Init = append(b.Init, elem...)
		}
	case strings.HasPrefix(opt, "file="):
		data, err := os.ReadFile(strings.TrimPrefix(opt, "file="))
		if err != nil {
			return nil, err
		}
		if len(data) != b.Size {
			return nil, fmt.Errorf("the file has %d bytes, %d %s elements need %d", len(data), b.Count, typ, b.Size)
		}
		b.Init = data
	default:
		return nil, fmt.Errorf("%q: want fill=VALUE or file=PATH", opt)
	}
	return b, nil
}

// valueBits converts a value as case files write it (a number, nan, inf,
// -inf, -0 or a 0x bit pattern, which may be shorter than the type's width)
// to the bits of an element of type typ. It asks the case file parser, so
// that values mean the same on the command line as in a case file.
func valueBits(typ, v string) (uint64, error) {
	size := casefile.ElemSize(typ)
	var jv any = v
	if lower := strings.ToLower(v); strings.HasPrefix(lower, "0x") {
		digits := v[2:]
		if len(digits) < 2*size {
			digits = strings.Repeat("0", 2*size-len(digits)) + digits
		}
		jv = "0x" + digits
	} else if v != "" && (v[0] == '-' || '0' <= v[0] && v[0] <= '9') && json.Valid([]byte(v)) && (v != "-0" || !casefile.IsFloat(typ)) {
		jv = json.Number(v)
	}
	doc, err := json.Marshal(map[string]any{
		"format": casefile.Format, "ptx_text": "-", "kernel": "-",
		"grid": []int{1, 1, 1}, "block": []int{1, 1, 1},
		"buffers": []any{map[string]any{"name": "v", "type": typ, "count": 1, "init": []any{jv}}},
	})
	if err != nil {
		return 0, err
	}
	c, err := casefile.Parse(doc, "")
	if err != nil {
		var list casefile.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			return 0, errors.New(list[0].Msg)
		}
		return 0, err
	}
	buf := make([]byte, 8)
	copy(buf, c.Buffers[0].Init)
	return binary.LittleEndian.Uint64(buf), nil
}

// isTerminal reports whether w is a character device (a terminal), where a
// progress line may be redrawn.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
