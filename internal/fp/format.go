// Package fp is ptxvm's exact floating-point arithmetic: the binary formats
// PTX names (f64, f32, tf32, f16, bf16), the rounding modes it names (.rn,
// .rz, .rm, .rp, .rna) and the operations whose results the ISA defines as
// correctly rounded (add, sub, mul, fma, div, sqrt, cvt). Values travel as
// bit patterns in a uint64; the slow paths compute the exact result with
// math/big and round it once, the fast paths use Go's own round-to-nearest
// operations where they are exactly the same thing.
//
// Manual: ptx-isa-9.0.txt 5.2 (types), 6.5 (rounding modifiers), 9.7.3
// (floating-point instructions), 9.7.9.21 (cvt).
package fp

import "fmt"

// Format is an IEEE 754 style binary format: a sign bit, Exp exponent bits
// and Man fraction bits, with infinities and NaNs at the top exponent.
type Format struct {
	Exp  int // exponent field width
	Man  int // fraction field width (precision is Man+1)
	Kind Kind
	// Pad is the number of zero bits below the fraction in the storage
	// container (tf32 is an f32 with its 13 low fraction bits ignored).
	Pad int
}

// Kind says how a format uses its top exponent (5.2.3).
type Kind uint8

const (
	IEEE    Kind = iota // infinities and NaNs at the top exponent
	NaNOnly             // no infinities; only the all-ones pattern is NaN (e4m3)
	Finite              // no infinities and no NaNs (e2m3, e3m2, e2m1)
)

// The formats of 5.2.1 and 5.2.3.
var (
	E4M3 = Format{Exp: 4, Man: 3, Kind: NaNOnly}
	E5M2 = Format{Exp: 5, Man: 2}
	E2M3 = Format{Exp: 2, Man: 3, Kind: Finite}
	E3M2 = Format{Exp: 3, Man: 2, Kind: Finite}
	E2M1 = Format{Exp: 2, Man: 1, Kind: Finite}

	F64  = Format{Exp: 11, Man: 52}
	F32  = Format{Exp: 8, Man: 23}
	F16  = Format{Exp: 5, Man: 10}
	BF16 = Format{Exp: 8, Man: 7}
	TF32 = Format{Exp: 8, Man: 10, Pad: 13}
)

// String returns the PTX type name without the dot ("f32").
func (f Format) String() string {
	switch f {
	case F64:
		return "f64"
	case F32:
		return "f32"
	case F16:
		return "f16"
	case BF16:
		return "bf16"
	case TF32:
		return "tf32"
	case E4M3:
		return "e4m3"
	case E5M2:
		return "e5m2"
	case E2M3:
		return "e2m3"
	case E3M2:
		return "e3m2"
	case E2M1:
		return "e2m1"
	}
	return fmt.Sprintf("e%dm%d", f.Exp, f.Man)
}

// native reports which Go float type holds the format exactly: 64 for f64,
// 32 for f32, 0 for the others.
func (f Format) native() int {
	switch {
	case f.Man == 52 && f.Exp == 11:
		return 64
	case f.Man == 23 && f.Exp == 8 && f.Pad == 0 && f.Kind == IEEE:
		return 32
	}
	return 0
}

// Width is the storage width in bits.
func (f Format) Width() int { return 1 + f.Exp + f.Man + f.Pad }

func (f Format) bias() int { return 1<<(f.Exp-1) - 1 }
func (f Format) emin() int { return 1 - f.bias() } // exponent of the smallest normal
func (f Format) emax() int {
	if f.Kind != IEEE { // the top exponent holds numbers
		return int(f.expMask()) - f.bias()
	}
	return f.bias()
}
func (f Format) expMask() uint64 { return 1<<f.Exp - 1 }
func (f Format) manMask() uint64 { return 1<<f.Man - 1 }
func (f Format) signBit() uint64 { return 1 << (f.Exp + f.Man + f.Pad) }

// fields splits a bit pattern (tf32's ignored low bits dropped).
func (f Format) fields(v uint64) (neg bool, exp uint64, man uint64) {
	v >>= f.Pad
	return v>>(f.Exp+f.Man)&1 != 0, v >> f.Man & f.expMask(), v & f.manMask()
}

func (f Format) pack(neg bool, exp, man uint64) uint64 {
	v := exp<<f.Man | man
	if neg {
		v |= 1 << (f.Exp + f.Man)
	}
	return v << f.Pad
}

// IsNaN reports whether v is a NaN of the format.
func (f Format) IsNaN(v uint64) bool {
	_, e, m := f.fields(v)
	switch f.Kind {
	case NaNOnly:
		return e == f.expMask() && m == f.manMask()
	case Finite:
		return false
	}
	return e == f.expMask() && m != 0
}

// IsInf reports whether v is an infinity.
func (f Format) IsInf(v uint64) bool {
	_, e, m := f.fields(v)
	return f.Kind == IEEE && e == f.expMask() && m == 0
}

// HasNaN reports whether the format encodes NaNs.
func (f Format) HasNaN() bool { return f.Kind != Finite }

// IsZero reports whether v is +0 or -0.
func (f Format) IsZero(v uint64) bool {
	_, e, m := f.fields(v)
	return e == 0 && m == 0
}

// IsSubnormal reports whether v is a nonzero subnormal.
func (f Format) IsSubnormal(v uint64) bool {
	_, e, m := f.fields(v)
	return e == 0 && m != 0
}

// Signbit reports whether the sign bit of v is set.
func (f Format) Signbit(v uint64) bool { return v&f.signBit() != 0 }

// Zero returns a zero of the given sign.
func (f Format) Zero(neg bool) uint64 { return f.pack(neg, 0, 0) }

// Inf returns an infinity of the given sign (IEEE formats only).
func (f Format) Inf(neg bool) uint64 { return f.pack(neg, f.expMask(), 0) }

// MaxFinite returns the largest finite magnitude with the given sign.
func (f Format) MaxFinite(neg bool) uint64 {
	switch f.Kind {
	case NaNOnly:
		return f.pack(neg, f.expMask(), f.manMask()-1)
	case Finite:
		return f.pack(neg, f.expMask(), f.manMask())
	}
	return f.pack(neg, f.expMask()-1, f.manMask())
}

// One returns +1.0.
func (f Format) One() uint64 { return f.pack(false, uint64(f.bias()), 0) }

// CanonicalNaN is the NaN the GPU generates: all exponent and fraction bits
// set, sign clear (0x7fffffff for f32, 0x7fff for f16 and bf16; the manual
// names 0x7fffffff00000000 only for the f64 approximations).
// (For e4m3 it is the only NaN, 0x7f; formats without NaNs have none and
// return their largest finite value.)
func (f Format) CanonicalNaN() uint64 {
	if f.Kind == Finite {
		return f.MaxFinite(false)
	}
	return f.pack(false, f.expMask(), f.manMask())
}

// Quiet returns a NaN with its quiet bit (the top fraction bit) set.
func (f Format) Quiet(v uint64) uint64 {
	if f.Kind != IEEE {
		return v
	}
	return v | 1<<(f.Man-1+f.Pad)
}

// FlushSubnormal returns a zero of the same sign for a subnormal (.ftz).
func (f Format) FlushSubnormal(v uint64) uint64 {
	if f.IsSubnormal(v) {
		return f.Zero(f.Signbit(v))
	}
	return v
}

// Neg flips the sign bit (also of NaNs, as neg does).
func (f Format) Neg(v uint64) uint64 { return v ^ f.signBit() }

// Abs clears the sign bit.
func (f Format) Abs(v uint64) uint64 { return v &^ f.signBit() }
