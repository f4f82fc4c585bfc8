package fp

import "testing"

// Special values, signed zeros, overflow and NaN results, from IEEE 754
// sections 6 and 7 as the PTX manual adopts them (ptx-isa-9.0.txt 9.7.3).
func TestSpecialValues(t *testing.T) {
	n := int64(1<<24 + 1)
	negBig := uint64(-n) // -(2^24+1) in two's complement
	const (
		p0, n0     = 0x00000000, 0x80000000
		one, mone  = 0x3f800000, 0xbf800000
		inf, ninf  = 0x7f800000, 0xff800000
		max, nmax  = 0x7f7fffff, 0xff7fffff
		canon      = 0x7fffffff
		tiny       = 0x00000001 // 2^-149
		two        = 0x40000000
		half       = 0x3f000000
		threeHalfs = 0x3fc00000
	)
	f := F32
	tests := []struct {
		name string
		got  uint64
		want uint64
	}{
		{"+0 + -0 rn", f.Add(p0, n0, RN), p0},
		{"+0 + -0 rm", f.Add(p0, n0, RM), n0},
		{"-0 + -0 rz", f.Add(n0, n0, RZ), n0},
		{"+0 + +0 rm", f.Add(p0, p0, RM), p0},
		{"+0 - -0 rm", f.Sub(p0, n0, RM), p0},
		{"-0 - +0 rp", f.Sub(n0, p0, RP), n0},
		{"fma 0*1 + +0 rm", f.Fma(p0, one, p0, RM), p0},
		{"fma -0*1 + +0 rm", f.Fma(n0, one, p0, RM), n0},
		{"fma -0*1 + +0 rn", f.Fma(n0, one, p0, RN), p0},
		{"1 - 1 rn", f.Sub(one, one, RN), p0},
		{"1 - 1 rp", f.Sub(one, one, RP), p0},
		{"1 - 1 rm", f.Sub(one, one, RM), n0},
		{"inf - inf", f.Sub(inf, inf, RZ), canon},
		{"inf + 1", f.Add(inf, one, RZ), inf},
		{"0 * inf", f.Mul(p0, inf, RP), canon},
		{"-1 * 0", f.Mul(mone, p0, RZ), n0},
		{"0 / 0", f.Div(p0, p0, RM), canon},
		{"1 / -0", f.Div(one, n0, RZ), ninf},
		{"1 / inf", f.Div(one, inf, RZ), p0},
		{"-1 / inf", f.Div(mone, inf, RP), n0},
		{"sqrt -1", f.Sqrt(mone, RZ), canon},
		{"sqrt -0", f.Sqrt(n0, RP), n0},
		{"sqrt inf", f.Sqrt(inf, RM), inf},
		{"max + max rn", f.Add(max, max, RN), inf},
		{"max + max rz", f.Add(max, max, RZ), max},
		{"max + max rm", f.Add(max, max, RM), max},
		{"max + max rp", f.Add(max, max, RP), inf},
		{"-max - max rp", f.Sub(nmax, max, RP), nmax},
		{"-max - max rm", f.Sub(nmax, max, RM), ninf},
		{"tiny * half rn (tie to even 0)", f.Mul(tiny, half, RN), p0},
		{"tiny * half rna (tie away)", f.Mul(tiny, half, RNA), tiny},
		{"tiny * half rp", f.Mul(tiny, half, RP), tiny},
		{"tiny * 1.5 rn (tie to even 2)", f.Mul(tiny, threeHalfs, RN), 2},
		{"-tiny * half rm", f.Mul(tiny|n0, half, RM), tiny | n0},
		{"-tiny * half rz", f.Mul(tiny|n0, half, RZ), n0},
		{"fma inf*0+1", f.Fma(inf, p0, one, RN), canon},
		{"fma 1*1-1 rm", f.Fma(one, one, mone, RM), n0},
		{"fma 1*inf + -inf", f.Fma(one, inf, ninf, RZ), canon},
		{"fma 2*max - max rz", f.Fma(two, max, nmax, RZ), max},
		{"f32 NaN is canonical", f.Add(0x7fc00123, one, RZ), canon},
		{"f64 NaN payload kept, quieted", F64.Add(0x7ff0000000000123, 0x3ff0000000000000, RZ), 0x7ff8000000000123},
		{"f64 NaN payload kept rn", F64.Mul(0x3ff0000000000000, 0xfff8000000000042, RN), 0xfff8000000000042},
		{"f64 invalid is canonical", F64.Sub(0x7ff0000000000000, 0x7ff0000000000000, RN), 0x7fffffffffffffff},
		{"f16 65520 rn overflows", Convert(F16, F32, 0x477ff000, RN), 0x7c00},
		{"f16 65520 rz", Convert(F16, F32, 0x477ff000, RZ), 0x7bff},
		{"f16 -65520 rp", Convert(F16, F32, 0xc77ff000, RP), 0xfbff},
		{"f16 2^-25 rn ties to 0", Convert(F16, F32, 0x33000000, RN), 0},
		{"f16 2^-25 rna", Convert(F16, F32, 0x33000000, RNA), 1},
		{"f32 NaN to f64 keeps payload", Convert(F64, F32, 0x7fa00001, RN), 0x7ffc000020000000},
		{"f64 NaN to f32 canonical", Convert(F32, F64, 0x7ff0000000000001, RZ), canon},
		{"bf16 of 1+2^-8 rn ties even", Convert(BF16, F32, 0x3f808000, RN), 0x3f80},
		{"bf16 of 1+3*2^-8 rn ties even up", Convert(BF16, F32, 0x3f818000, RN), 0x3f82},
		{"tf32 keeps 10 fraction bits", Convert(TF32, F32, 0x3f801fff, RZ), 0x3f800000},
		{"tf32 rp", Convert(TF32, F32, 0x3f801fff, RP), 0x3f802000},
		{"2^24+1 rn", FromInt(F32, 1<<24+1, false, RN), 0x4b800000},
		{"2^24+1 rna", FromInt(F32, 1<<24+1, false, RNA), 0x4b800001},
		{"2^24+1 rp", FromInt(F32, 1<<24+1, false, RP), 0x4b800001},
		{"-(2^24+1) rm", FromInt(F32, negBig, true, RM), 0xcb800001},
		{"-(2^24+1) rz", FromInt(F32, negBig, true, RZ), 0xcb800000},
		{"u64 max rz to f64", FromInt(F64, ^uint64(0), false, RZ), 0x43efffffffffffff},
		{"u64 max rn to f64", FromInt(F64, ^uint64(0), false, RN), 0x43f0000000000000},
		{"u64 max to f16 rn is inf", FromInt(F16, ^uint64(0), false, RN), 0x7c00},
		{"u64 max to f16 rz is max", FromInt(F16, ^uint64(0), false, RZ), 0x7bff},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s = %#x, want %#x", tc.name, tc.got, tc.want)
		}
	}
}

func TestParseMode(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want Mode
		ok   bool
	}{{"", RN, true}, {".rn", RN, true}, {".rz", RZ, true}, {".rm", RM, true}, {".rp", RP, true}, {".rna", RNA, true}, {".rs", 0, false}, {".rni", 0, false}} {
		got, ok := ParseMode(tc.s)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseMode(%q) = %v, %v; want %v, %v", tc.s, got, ok, tc.want, tc.ok)
		}
		if ok && tc.s != "" && got.String() != tc.s {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
}

// Stochastic rounding (9.7.9.21 .rs): f32 1 + 2^-8 to bf16 discards the 16
// bits 0x8000; rbits 0x7fff does not carry out of them, 0x8000 does.
func TestConvertStochastic(t *testing.T) {
	for _, c := range []struct {
		name          string
		dst           Format
		v, rbits, out uint64
	}{
		{"no carry truncates", BF16, 0x3f808000, 0x7fff, 0x3f80},
		{"carry rounds away", BF16, 0x3f808000, 0x8000, 0x3f81},
		{"negative rounds away from zero", BF16, 0xbf808000, 0x8000, 0xbf81},
		{"exact values ignore rbits", BF16, 0x3f810000, 0xffff, 0x3f81},
		{"f16: 13 discarded bits", F16, 0x3f800001, 0x1fff, 0x3c01},
		{"f16: 13 discarded bits, no carry", F16, 0x3f800001, 0x1ffe, 0x3c00},
		{"carry past the largest f16 is infinity", F16, 0x477fe001, 0x1fff, 0x7c00},
		{"NaN stays NaN", F16, 0x7fc00000, 0, 0x7fff},
		{"-0 stays -0", BF16, 0x80000000, 0xffff, 0x8000},
	} {
		if got := ConvertStochastic(c.dst, F32, c.v, c.rbits); got != c.out {
			t.Errorf("%s: %#x with rbits %#x = %#x, want %#x", c.name, c.v, c.rbits, got, c.out)
		}
	}
}
