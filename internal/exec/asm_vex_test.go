package exec

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// vectorOperand matches an X or Y register operand.
var vectorOperand = regexp.MustCompile(`\b[XY](1[0-5]|[0-9])\b`)

// immShift matches a shift by an immediate whose source is in memory.
var immShift = regexp.MustCompile(`^VPS(LL|RL|RA)(W|D|Q|DQ)\s+\$[^,]+,\s*[^,]*\(`)

// avx2Mnemonics are the vector instructions the package's assembly uses,
// all in AVX, AVX2, FMA or F16C (the CPU features simd_amd64.go checks).
// The Go assembler picks an EVEX (AVX-512) encoding where only that can
// express the operands, and an AVX2 host faults on it (SIGILL), so a new
// instruction is checked against the manual before it joins this list.
var avx2Mnemonics = map[string]bool{}

func init() {
	for _, op := range strings.Fields(`
		VADDPD VADDPS VANDPD VBLENDVPD VBLENDVPS VBROADCASTSD VBROADCASTSS
		VCMPPD VCMPPS VCVTDQ2PD VCVTDQ2PS VCVTPD2DQY VCVTPD2PSY VCVTPH2PS
		VCVTPS2PD VCVTPS2PH VCVTTPD2DQY VCVTTPS2DQ VDIVPD VDIVPS
		VEXTRACTF128 VEXTRACTI128 VFMADD213PD VFMADD213PS VINSERTF128
		VINSERTI128 VLDMXCSR VMAXPD VMAXPS VMINPD VMINPS VMOVD VMOVDQA
		VMOVDQU VMOVMSKPD VMOVMSKPS VMOVNTDQ VMOVQ VMULPD VMULPS VORPD VPABSD
		VPACKUSDW VPACKUSWB VPADDB VPADDD VPADDQ VPAND VPANDN VPBLENDD VPBLENDVB
		VPBROADCASTB VPBROADCASTD VPBROADCASTQ VPBROADCASTW VPCMPEQD
		VPCMPEQQ VPCMPGTB VPCMPGTD VPCMPGTQ VPCMPGTW VPERM2I128 VPERMD
		VPERMILPS VPERMQ VPEXTRQ VPGATHERDD VPINSRQ VPMADDWD VPMAXSD
		VPMAXSW VPMAXUD VPMAXUW VPMINSD VPMINSW VPMINUD VPMINUW VPMOVMSKB
		VPMOVSXBQ VPMOVSXBW VPMOVSXDQ VPMOVSXWQ VPMOVZXBQ VPMOVZXBW
		VPMOVZXDQ VPMOVZXWQ VPMULDQ VPMULLD VPMULUDQ VPOR VPSADBW VPSHUFB
		VPSHUFD VPSLLD VPSLLQ VPSLLVD VPSLLVQ VPSLLW VPSRAD VPSRAVD VPSRLD
		VPSRLDQ VPSRLQ VPSRLVQ VPSRLW VPSUBD VPSUBQ VPTEST VPUNPCKHQDQ
		VPUNPCKHWD VPUNPCKLQDQ VPUNPCKLWD VPXOR VROUNDPD VROUNDPS VSHUFPS
		VSQRTPD VSQRTPS VSUBPD VSUBPS VXORPD VZEROUPPER`) {
		avx2Mnemonics[op] = true
	}
}

// macroHead matches a macro definition's parameter list.
var macroHead = regexp.MustCompile(`#define\s+\w+\(([^)]*)\)`)

// TestAssemblyIsAllVEX fails on an instruction of the package's
// assembly that touches a vector register and is:
//   - AVX-512 (EVEX): simdMul64's VPSRLQ $32, 0(DX), Y8 was one, and
//     faulted with SIGILL on AVX2 hosts;
//   - legacy SSE (no V prefix, such as MOVQ AX, X0): our routines leave
//     the Y registers' upper halves set until their VZEROUPPER, and on
//     some x86 hosts a legacy SSE instruction in that state costs a state
//     transition or a merge with the upper half. One MOVQ AX, X0 in the
//     chunk loads' broadcast made matmul 10x slower (274 against 28 ms a
//     launch) on a 2-core AMD EPYC VM.
func TestAssemblyIsAllVEX(t *testing.T) {
	files, err := filepath.Glob("*_amd64.s")
	if err != nil || len(files) == 0 {
		t.Fatalf("no assembly found (%v)", err)
	}
	checked := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// macro parameters (EXT in ROWS32N(EXT)) stand for VEX
		// instructions the macro's users pass in; their uses are skipped
		params := map[string]bool{}
		for _, m := range macroHead.FindAllStringSubmatch(string(src), -1) {
			for _, p := range strings.Split(m[1], ",") {
				params[strings.TrimSpace(p)] = true
			}
		}
		for i, line := range strings.Split(string(src), "\n") {
			code, _, _ := strings.Cut(line, "//")
			// a macro's lines end with a backslash and may hold several
			// instructions separated by semicolons
			code = strings.TrimSuffix(strings.TrimSpace(code), "\\")
			for _, inst := range strings.Split(code, ";") {
				fields := strings.Fields(inst)
				if len(fields) < 2 || strings.HasSuffix(fields[0], ":") || fields[0] == "#define" || fields[0] == "TEXT" || fields[0] == "DATA" || fields[0] == "GLOBL" ||
					strings.Contains(fields[0], "(") || params[fields[0]] {
					continue
				}
				if !vectorOperand.MatchString(strings.Join(fields[1:], " ")) {
					continue
				}
				checked++
				switch op := fields[0]; {
				case !strings.HasPrefix(op, "V"):
					t.Errorf("%s:%d: legacy SSE instruction on a vector register: %s (use its VEX form)", f, i+1, strings.TrimSpace(inst))
				case !avx2Mnemonics[op]:
					t.Errorf("%s:%d: %s is not in the AVX, AVX2, FMA and F16C set this package may use (AVX-512 instructions fault on AVX2 hosts); if it is one of those, add it to avx2Mnemonics", f, i+1, op)
				case immShift.MatchString(strings.TrimSpace(inst)):
					t.Errorf("%s:%d: a shift by an immediate of a memory operand is AVX-512's (EVEX) form, an illegal instruction on AVX2 hosts: %s (load the operand first)", f, i+1, strings.TrimSpace(inst))
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d vector instructions checked: the scan lost the assembly", checked)
	}
}
