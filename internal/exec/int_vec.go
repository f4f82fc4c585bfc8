package exec

// Whole-warp loops for the most common integer instructions: when every
// lane executes (the converged fast path's usual case), one call runs the
// operation over the 32 register slots with no per-lane indirect call, and
// a second loop normalizes the results to the type's width. The per-lane
// closures in alu.go stay the reference and serve partial masks; the
// results are the same (TestVecMatchesScalar).

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/ptxvm/ptxvm/internal/fp"
	"github.com/ptxvm/ptxvm/internal/ir"
	"github.com/ptxvm/ptxvm/internal/sharedcache"
)

type lanes = [warpSize]uint64

// maskedMinLanes: a partial mask of fewer lanes runs the scalar function
// lane by lane rather than the masked warp loop (about as fast for so few,
// and it keeps the scalar path in use: the tests compare the two).
const maskedMinLanes = 4

// A vecBin is an integer operation's whole-warp loops: rr for two register
// rows, rk (nil where there is none) for a uniform second operand.
type vecBin struct {
	rr func(d, a, b *lanes)
	rk func(d, a *lanes, k uint64)
	// the same over the lanes of a partial mask (nil: lane by lane through
	// the scalar function)
	mrr func(d, a, b *lanes, mask uint32)
	mrk func(d, a *lanes, k uint64, mask uint32)
}

// vecBinary returns the warp loops for op on type t (zero vecBin where there
// are none). Results are normalised as the scalar forms leave them: 32-bit
// bit operations and unsigned results zero-extended, signed arithmetic
// sign-extended.
func vecBinary(op, mode string, t intType) vecBin {
	k := intVecKey{op, mode, t, simdEnabled}
	if v, ok := intVecPlans.Lookup(k); ok {
		return v
	}
	v := planVecBinary(op, mode, t)
	intVecPlans.Put(k, v)
	return v
}

// intVecKey: vecBinary's answer is one per operation, mode and type (and
// whether the AVX2 loops are on), kept for the process (intVecPlans).
type intVecKey struct {
	op, mode string
	t        intType
	simd     bool
}

var intVecPlans = sharedcache.New[intVecKey, vecBin]()

// planVecBinary works out vecBinary's answer.
func planVecBinary(op, mode string, t intType) vecBin {
	if t.bits == 16 {
		return vecBinary16(op, mode, t)
	}
	if v, ok := simdBinary(simdIntKey(op, mode, t)); ok {
		return v
	}
	if op == "mul" && mode == ".hi" {
		switch {
		case t.bits == 32 && t.signed:
			return vecBin{rr: vecMulHiS32, rk: vecMulHiS32K}
		case t.bits == 32:
			return vecBin{rr: vecMulHiU32, rk: vecMulHiU32K}
		case t.bits == 64 && !t.signed:
			return vecBin{rr: vecMulHiU64, rk: vecMulHiU64K}
		}
		return vecBin{}
	}
	if op == "mul" && mode == ".wide" && t.bits == 32 {
		if t.signed {
			return vecBin{vecMulWideS32, vecMulWideS32K, vecMulWideS32M, vecMulWideS32KM}
		}
		return vecBin{vecMulWideU32, vecMulWideU32K, vecMulWideU32M, vecMulWideU32KM}
	}
	if op == "mul" && mode != "" && mode != ".lo" || op == "shl" && t.signed { // shl has bit types only
		return vecBin{}
	}
	switch {
	case t.bits == 32 && t.signed && (op == "add" || op == "sub" || op == "mul"):
		switch op {
		case "add":
			return vecBin{vecAddS32, vecAddS32K, vecAddS32M, vecAddS32KM}
		case "sub":
			return vecBin{vecSubS32, vecSubS32K, vecSubS32M, vecSubS32KM}
		default:
			return vecBin{vecMulS32, vecMulS32K, vecMulS32M, vecMulS32KM}
		}
	case t.bits == 32:
		switch op {
		case "add":
			return vecBin{vecAddZ32, vecAddZ32K, vecAddZ32M, vecAddZ32KM}
		case "sub":
			return vecBin{vecSubZ32, vecSubZ32K, vecSubZ32M, vecSubZ32KM}
		case "mul":
			return vecBin{vecMulZ32, vecMulZ32K, vecMulZ32M, vecMulZ32KM}
		case "and":
			return vecBin{vecAndZ32, vecAndZ32K, vecAndZ32M, vecAndZ32KM}
		case "or":
			return vecBin{vecOrZ32, vecOrZ32K, vecOrZ32M, vecOrZ32KM}
		case "xor":
			return vecBin{vecXorZ32, vecXorZ32K, vecXorZ32M, vecXorZ32KM}
		case "shl":
			return vecBin{vecShlZ32, vecShlZ32K, vecShlZ32M, vecShlZ32KM}
		case "shr":
			if t.signed {
				return vecBin{vecShrS32, vecShrS32K, vecShrS32M, vecShrS32KM}
			}
			return vecBin{vecShrZ32, vecShrZ32K, vecShrZ32M, vecShrZ32KM}
		}
	case t.bits == 64:
		switch op {
		case "add":
			return vecBin{vecAdd, vecAdd64K, nil, vecAdd64KM}
		case "sub":
			return vecBin{vecSub, vecSub64K, nil, vecSub64KM}
		case "mul":
			return vecBin{vecMul, vecMul64K, nil, vecMul64KM}
		case "and":
			return vecBin{vecAnd, vecAnd64K, nil, vecAnd64KM}
		case "or":
			return vecBin{vecOr, vecOr64K, nil, vecOr64KM}
		case "xor":
			return vecBin{vecXor, vecXor64K, nil, vecXor64KM}
		case "shl":
			return vecBin{vecShl64, vecShl64K, vecShl64M, vecShl64KM}
		case "shr":
			if t.signed {
				return vecBin{vecShrS64, vecShrS64K, vecShrS64M, vecShrS64KM}
			}
			return vecBin{vecShrU64, vecShrU64K, vecShrU64M, vecShrU64KM}
		}
	}
	return vecBin{}
}

// vecBinary16 is vecBinary for 16-bit types: the AVX2 loops where the
// host has them (simdgen computes the same), else the 32-bit loop, then
// the result's low 16 bits extended as t's registers hold them (t.norm). A
// 16-bit operand is held extended to 64 bits, so its low 32 bits are the
// 32-bit operand of the same value: sums, differences, products, bit
// operations and left shifts agree in their low 16 bits. A right shift
// brings the upper bits down, and a register may hold a 16-bit value
// extended either way (a mov.b16 zero-extends, an .s16 op sign-extends),
// so shr extends its operand as t first: then shr.s32 and shr.u32 (counts
// clamped at 32) shift in the sign or zeros as shr.s16 and shr.u16 do.
// Only full warps take it: the extension runs over every lane.
func vecBinary16(op, mode string, t intType) vecBin {
	if op == "mul" && (mode == ".wide" || mode == ".hi") {
		if v, ok := simdBinary(simdIntKey(op, mode, t)); ok {
			return v
		}
		return vecMul16(mode == ".hi", t.signed)
	}
	if op == "mul" && mode != "" && mode != ".lo" {
		return vecBin{}
	}
	switch op {
	case "add", "sub", "mul", "and", "or", "xor", "shl", "shr":
	default:
		return vecBin{}
	}
	if v, ok := simdBinary(simdIntKey(op, mode, t)); ok { // the same in AVX2 (simdgen's intOps)
		return v
	}
	v := vecBinary(op, mode, intType{bits: 32, signed: t.signed})
	if v.rr == nil || v.rk == nil {
		return vecBin{}
	}
	ext := vecNormNarrow(intType{bits: 32}, t)
	if op == "shr" {
		return vecBin{
			rr: func(d, a, b *lanes) {
				var x lanes
				ext(&x, a)
				v.rr(d, &x, b)
				ext(d, d)
			},
			rk: func(d, a *lanes, k uint64) {
				var x lanes
				ext(&x, a)
				v.rk(d, &x, k)
				ext(d, d)
			},
		}
	}
	return vecBin{
		rr: func(d, a, b *lanes) { v.rr(d, a, b); ext(d, d) },
		rk: func(d, a *lanes, k uint64) { v.rk(d, a, k); ext(d, d) },
	}
}

// simdIntKey names op's AVX2 loops (simdBinary), or "".
func simdIntKey(op, mode string, t intType) string {
	switch {
	case op == "mul" && mode == ".wide" && t.bits == 32 && t.signed:
		return "mulwide.s32"
	case op == "mul" && mode == ".wide" && t.bits == 32:
		return "mulwide.u32"
	case op == "mul" && mode == ".hi" && t.bits == 32 && t.signed:
		return "mulhi.s32"
	case op == "mul" && mode == ".hi" && t.bits == 32:
		return "mulhi.u32"
	case op == "mul" && (mode == ".wide" || mode == ".hi") && t.bits == 16:
		if t.signed {
			return "mul" + mode[1:] + ".s16"
		}
		return "mul" + mode[1:] + ".u16"
	case op == "mul" && mode != "" && mode != ".lo", op == "shl" && t.signed:
		return ""
	case t.bits == 16 && t.signed && (op == "add" || op == "sub" || op == "mul" || op == "shr"):
		return op + ".s16"
	case t.bits == 16 && !t.signed:
		return op + ".z16"
	case t.bits == 32 && t.signed && (op == "add" || op == "sub" || op == "mul" || op == "shr"):
		return op + ".s32"
	case t.bits == 32 && !t.signed:
		return op + ".z32"
	case t.bits == 64 && op == "shr" && !t.signed:
		return "shr.u64"
	case t.bits == 64 && op != "shr":
		return op + ".64"
	}
	return ""
}

// vecMul16 is mul.wide (hi false) or mul.hi of .u16 or .s16 (signed)
// operands: each operand's low 16 bits extended as the type says, their
// product (which fits in 32 bits) whole for .wide (as the 32-bit type
// extends it), or its bits 16-31 extended as the 16-bit type for .hi:
// what mulMode computes.
func vecMul16(hi, signed bool) vecBin {
	ext := func(v uint64) int64 {
		if signed {
			return int64(int16(v))
		}
		return int64(uint16(v))
	}
	res := func(p int64) uint64 {
		switch {
		case !hi:
			return uint64(p) // (the 32-bit type's extension of itself)
		case signed:
			return uint64(int64(int16(p >> 16)))
		}
		return uint64(uint16(p >> 16))
	}
	return vecBin{
		rr: func(d, a, b *lanes) {
			for i := range d {
				d[i] = res(ext(a[i]) * ext(b[i]))
			}
		},
		rk: func(d, a *lanes, k uint64) {
			y := ext(k)
			for i := range d {
				d[i] = res(ext(a[i]) * y)
			}
		},
	}
}

func vecAdd(d, a, b *lanes) {
	for i := range d {
		d[i] = a[i] + b[i]
	}
}

func vecSub(d, a, b *lanes) {
	for i := range d {
		d[i] = a[i] - b[i]
	}
}

func vecMul(d, a, b *lanes) {
	for i := range d {
		d[i] = a[i] * b[i]
	}
}

func vecAnd(d, a, b *lanes) {
	for i := range d {
		d[i] = a[i] & b[i]
	}
}

func vecOr(d, a, b *lanes) {
	for i := range d {
		d[i] = a[i] | b[i]
	}
}

func vecXor(d, a, b *lanes) {
	for i := range d {
		d[i] = a[i] ^ b[i]
	}
}

func vecZext32(d *lanes) {
	for i := range d {
		d[i] &= 0xffffffff
	}
}

func vecSext32(d *lanes) {
	for i := range d {
		d[i] = uint64(int64(int32(d[i])))
	}
}

// binaryVec is binary with whole-warp loops for full masks: vec.rk when the
// second operand is an immediate (one stream fewer), else vec.rr.
func (l *lowering) binaryVec(in *ir.Inst, o *Op, fn func(a, b uint64) uint64, vec vecBin) error {
	if err := l.binary(in, o, fn); err != nil || vec.rr == nil {
		return err
	}
	if b := in.Operands[2]; b.Kind == ir.OpImm && vec.rk != nil {
		t := ""
		if len(in.Types) > 2 {
			t = in.Types[2]
		}
		o.vkind, o.vrk, o.mrk, o.k = vecK, vec.rk, vec.mrk, constBits(b.Imm, t)
		o.exec = binaryKExec
		return nil
	}
	o.vkind, o.vrr, o.mrr = vecRR, vec.rr, vec.mrr
	o.exec = binaryRRExec
	return nil
}

// binaryKExec runs a binaryVec op with an immediate: the whole-warp loop
// vrk, its masked form mrk for a partial mask of enough lanes, else the
// lane function.
func binaryKExec(w *Warp, o *Op, mask uint32) {
	r := w.top().regs
	dd, aa := int(o.d)*warpSize, int(o.a)*warpSize
	switch {
	case mask == ^uint32(0):
		o.vrk((*lanes)(r[dd:dd+warpSize]), (*lanes)(r[aa:aa+warpSize]), o.k)
	case o.mrk != nil && bits.OnesCount32(mask) >= maskedMinLanes:
		o.mrk((*lanes)(r[dd:dd+warpSize]), (*lanes)(r[aa:aa+warpSize]), o.k, mask)
	default:
		binaryExec(w, o, mask)
	}
}

// binaryRRExec is binaryKExec for two registers (vrr, mrr).
func binaryRRExec(w *Warp, o *Op, mask uint32) {
	r := w.top().regs
	dd, aa, bb := int(o.d)*warpSize, int(o.a)*warpSize, int(o.b)*warpSize
	switch {
	case mask == ^uint32(0):
		o.vrr((*lanes)(r[dd:dd+warpSize]), (*lanes)(r[aa:aa+warpSize]), (*lanes)(r[bb:bb+warpSize]))
	case o.mrr != nil && bits.OnesCount32(mask) >= maskedMinLanes:
		o.mrr((*lanes)(r[dd:dd+warpSize]), (*lanes)(r[aa:aa+warpSize]), (*lanes)(r[bb:bb+warpSize]), mask)
	default:
		binaryExec(w, o, mask)
	}
}

// vecCompare returns a whole-warp integer comparison giving the lane mask
// of true results, or nil (then setp compares lane by lane).
func vecCompare(t, cmp string) func(a, b *lanes) uint32 {
	it, ok := parseInt(t)
	// (16 bits: a byte's value in a .u16 register, as clang compares u8
	// data; parseInt reads .bf16 as a .b type too)
	short := t == ".u16" || t == ".s16" || t == ".b16"
	if !ok || !short && it.bits != 32 && it.bits != 64 {
		return nil
	}
	signed := it.signed
	switch cmp {
	case ".lo", ".ls", ".hi", ".hs":
		signed = false
	}
	var lt, eq func(a, b *lanes) uint32
	var ltKey string // the AVX2 ones' (simdCompare)
	switch {
	case short && signed:
		lt, eq, ltKey = lt16s, eq16, "lts16"
	case short:
		lt, eq, ltKey = lt16u, eq16, "ltu16"
	case it.bits == 32 && signed:
		lt, eq, ltKey = ltS32, eq32, "lts32"
	case it.bits == 32:
		lt, eq, ltKey = ltU32, eq32, "ltu32"
	case signed:
		lt, eq, ltKey = ltS64, eq64, "lts64"
	default:
		lt, eq, ltKey = ltU64, eq64, "ltu64"
	}
	if s := simdCompare(ltKey); ltKey != "" && s != nil {
		lt, eq = s, simdCompare("eq"+ltKey[3:])
	}
	switch cmp {
	case ".eq":
		return eq
	case ".ne":
		return func(a, b *lanes) uint32 { return ^eq(a, b) }
	case ".lt", ".lo":
		return lt
	case ".ge", ".hs":
		return func(a, b *lanes) uint32 { return ^lt(a, b) }
	case ".gt", ".hi":
		return func(a, b *lanes) uint32 { return lt(b, a) }
	case ".le", ".ls":
		return func(a, b *lanes) uint32 { return ^lt(b, a) }
	}
	return nil
}

// lt16u, lt16s and eq16 compare the low 16 bits of each lane, zero- or
// sign-extended, as the lane rule reads them.
func lt16u(a, b *lanes) uint32 {
	var r uint32
	for i := range a {
		if uint16(a[i]) < uint16(b[i]) {
			r |= 1 << i
		}
	}
	return r
}

func lt16s(a, b *lanes) uint32 {
	var r uint32
	for i := range a {
		if int16(a[i]) < int16(b[i]) {
			r |= 1 << i
		}
	}
	return r
}

func eq16(a, b *lanes) uint32 {
	var r uint32
	for i := range a {
		if uint16(a[i]) == uint16(b[i]) {
			r |= 1 << i
		}
	}
	return r
}

// setpTrace names the trace body of setp on type t with operator cmp
// (see vecCompare and vecFloatCompare, whose AVX2 comparisons the bodies
// are): setp:NAME, or setp:NAMEN for the complemented mask, and whether
// the operands swap; ok is false where no AVX2 comparison serves.
func setpTrace(t, cmp string, ftz bool) (key string, swap, ok bool) {
	if !simdEnabled {
		return "", false, false
	}
	if f, _, isFloat := floatType(t); isFloat {
		if t != ".f32" && t != ".f64" || len(cmp) < 3 {
			return "", false, false
		}
		name := "simdCmpF32"
		switch {
		case f == fp.F64:
			name = "simdCmpF64"
		case ftz:
			name = "simdCmpFtzF32"
		}
		name += strings.ToUpper(cmp[1:2]) + cmp[2:]
		if _, ok := simdMemBody("setp:" + name); !ok {
			return "", false, false
		}
		return "setp:" + name, false, true
	}
	it, isInt := parseInt(t)
	// (16 bits: .u16, .s16 and .b16 only, as in vecCompare: parseInt reads
	// .bf16 as a .b type too, though floatType took it above)
	short := t == ".u16" || t == ".s16" || t == ".b16"
	if !isInt || !short && it.bits != 32 && it.bits != 64 {
		return "", false, false
	}
	signed := it.signed
	switch cmp {
	case ".lo", ".ls", ".hi", ".hs":
		signed = false
	}
	size := map[int]string{16: "16", 32: "32", 64: "64"}[it.bits]
	lt := "simdLtU" + size
	if signed {
		lt = "simdLtS" + size
	}
	eq := "simdEq" + size
	var name string
	neg := false
	switch cmp {
	case ".eq":
		name = eq
	case ".ne":
		name, neg = eq, true
	case ".lt", ".lo":
		name = lt
	case ".ge", ".hs":
		name, neg = lt, true
	case ".gt", ".hi":
		name, swap = lt, true
	case ".le", ".ls":
		name, swap, neg = lt, true, true
	default:
		return "", false, false
	}
	key = "setp:" + name
	if neg {
		key += "N"
	}
	if _, ok := simdMemBody(key); !ok {
		return "", false, false
	}
	return key, swap, true
}

func ltU32(a, b *lanes) uint32 {
	var r uint32
	for i := range a {
		if uint32(a[i]) < uint32(b[i]) {
			r |= 1 << i
		}
	}
	return r
}

func ltS32(a, b *lanes) uint32 {
	var r uint32
	for i := range a {
		if int32(a[i]) < int32(b[i]) {
			r |= 1 << i
		}
	}
	return r
}

func ltU64(a, b *lanes) uint32 {
	var r uint32
	for i := range a {
		if a[i] < b[i] {
			r |= 1 << i
		}
	}
	return r
}

func ltS64(a, b *lanes) uint32 {
	var r uint32
	for i := range a {
		if int64(a[i]) < int64(b[i]) {
			r |= 1 << i
		}
	}
	return r
}

func eq32(a, b *lanes) uint32 {
	var r uint32
	for i := range a {
		if uint32(a[i]) == uint32(b[i]) {
			r |= 1 << i
		}
	}
	return r
}

func eq64(a, b *lanes) uint32 {
	var r uint32
	for i := range a {
		if a[i] == b[i] {
			r |= 1 << i
		}
	}
	return r
}

// vecMad returns the warp loop of mad.lo (a*b+c in the type's width), or
// nil.
func vecMad(mode string, sat bool, t intType) func(d, a, b, c *lanes) {
	if mode == ".wide" && !sat && t.bits == 32 {
		return vecMadWide(t.signed)
	}
	if sat || mode != "" && mode != ".lo" || t.bits != 16 && t.bits != 32 && t.bits != 64 {
		return nil
	}
	body := func(d, a, b, c *lanes) {
		for i := range d {
			d[i] = a[i]*b[i] + c[i]
		}
	}
	switch {
	case t.bits == 64:
		if v := simdTernary("mad.64"); v != nil {
			return v
		}
		return body
	case t.bits == 16: // the low 16 bits, extended as t's registers hold them
		ext := vecNormNarrow(intType{bits: 64}, t)
		return func(d, a, b, c *lanes) { body(d, a, b, c); ext(d, d) }
	case t.signed:
		if v := simdTernary("mad.s32"); v != nil {
			return v
		}
		return func(d, a, b, c *lanes) { body(d, a, b, c); vecSext32(d) }
	}
	if v := simdTernary("mad.z32"); v != nil {
		return v
	}
	return func(d, a, b, c *lanes) { body(d, a, b, c); vecZext32(d) }
}

// vecMadWide is mad.wide.s32/u32's warp loop: the 64-bit product of the
// low halves (sign- or zero-extended) plus c.
func vecMadWide(signed bool) func(d, a, b, c *lanes) {
	if signed {
		if v := simdTernary("madwide.s32"); v != nil {
			return v
		}
		return func(d, a, b, c *lanes) {
			for i := range d {
				d[i] = uint64(int64(int32(a[i]))*int64(int32(b[i]))) + c[i]
			}
		}
	}
	if v := simdTernary("madwide.u32"); v != nil {
		return v
	}
	return func(d, a, b, c *lanes) {
		for i := range d {
			d[i] = uint64(uint32(a[i]))*uint64(uint32(b[i])) + c[i]
		}
	}
}

// intUnaryVec is the warp loop of neg (signed types), not and abs (signed)
// on 32- or 64-bit integers, or of not on 16 bits, or nil: the lane functions' results, 32-bit
// ones normalised as they leave them (neg and abs sign-extended, not
// zero-extended whatever the type).
func intUnaryVec(op string, t intType) func(d, a *lanes) {
	if op == "not" && t.bits == 16 {
		if v := simdUnary("not.16"); v != nil {
			return v
		}
		return func(d, a *lanes) {
			for i, v := range a {
				d[i] = ^v & 0xffff
			}
		}
	}
	if t.bits != 32 && t.bits != 64 || op != "not" && !t.signed {
		return nil
	}
	key := op + ".64"
	switch {
	case t.bits == 32 && op == "not":
		key = "not.32"
	case t.bits == 32:
		key = op + ".s32"
	case op == "abs":
		key = "abs.s64"
	}
	if v := simdUnary(key); v != nil {
		return v
	}
	return func(d, a *lanes) {
		for i, v := range a {
			switch op {
			case "neg":
				d[i] = t.norm(-v)
			case "not": // (zero-extended, as the lane function leaves it)
				d[i] = ^v & t.mask()
			default: // abs
				if t.signedVal(v) < 0 {
					v = -v
				}
				d[i] = t.norm(v)
			}
		}
	}
}

// bitCountVec is the warp loop of popc, clz or brev on 32- or 64-bit
// values (AVX2 for popc on both, clz and brev on 32 bits), or nil: the
// lane functions' results.
func bitCountVec(op string, t intType) func(d, a *lanes) {
	if t.bits != 32 && t.bits != 64 {
		return nil
	}
	if v := simdUnary(fmt.Sprintf("%s.%d", op, t.bits)); v != nil {
		return v
	}
	mask, shift := t.mask(), uint(64-t.bits)
	switch op {
	case "popc":
		return func(d, a *lanes) {
			for i, v := range a {
				d[i] = uint64(bits.OnesCount64(v & mask))
			}
		}
	case "clz":
		return func(d, a *lanes) {
			for i, v := range a {
				d[i] = uint64(bits.LeadingZeros64(v&mask) - int(shift))
			}
		}
	case "brev":
		return func(d, a *lanes) {
			for i, v := range a {
				d[i] = bits.Reverse64(v) >> shift
			}
		}
	}
	return nil
}

// ternaryVec is ternary with a whole-warp loop for full masks.
func (l *lowering) ternaryVec(in *ir.Inst, o *Op, fn func(a, b, c uint64) uint64, vec func(d, a, b, c *lanes)) error {
	if err := l.ternary(in, o, fn); err != nil || vec == nil {
		return err
	}
	o.vkind, o.vt, o.exec = vecTern, vec, ternaryVecExec
	return nil
}

// ternaryVecExec runs a ternaryVec op: the whole-warp loop vt on a full
// mask, into the warp's scratch row for a partial mask of enough lanes,
// else the lane function.
func ternaryVecExec(w *Warp, o *Op, mask uint32) {
	r := w.top().regs
	dd, aa, bb, cc := int(o.d)*warpSize, int(o.a)*warpSize, int(o.b)*warpSize, int(o.c)*warpSize
	a, b, c := (*lanes)(r[aa:aa+warpSize]), (*lanes)(r[bb:bb+warpSize]), (*lanes)(r[cc:cc+warpSize])
	switch {
	case mask == ^uint32(0):
		o.vt((*lanes)(r[dd:dd+warpSize]), a, b, c)
	case bits.OnesCount32(mask) >= maskedMinLanes:
		o.vt(&w.scratch, a, b, c)
		copyLanes((*lanes)(r[dd:dd+warpSize]), &w.scratch, mask)
	default:
		ternaryExec(w, o, mask)
	}
}

// vecNorm returns a warp loop applying norm after narrowing to from: the
// moves and integer-to-integer conversions (d = to.norm(from.norm(a))).
func vecNorm(from, to intType) func(d, a *lanes) {
	if from.bits < 32 || to.bits < 32 {
		return vecNormNarrow(from, to)
	}
	switch {
	case from.bits == 64 && to.bits == 64:
		if v := simdUnary("copy.64"); v != nil {
			return v
		}
		return func(d, a *lanes) { *d = *a }
	case from.bits == 32 && from.signed && to.bits == 64, to.bits == 32 && to.signed:
		if v := simdUnary("sext.32"); v != nil {
			return v
		}
		return func(d, a *lanes) {
			for i := range d {
				d[i] = uint64(int64(int32(a[i])))
			}
		}
	}
	if v := simdUnary("zext.32"); v != nil {
		return v
	}
	return func(d, a *lanes) { // zero extension or truncation to 32 bits
		for i := range d {
			d[i] = a[i] & 0xffffffff
		}
	}
}

// vecNormNarrow is vecNorm where a type has 8 or 16 bits: to.norm of
// from.norm, which is one extension of the low bits. Narrowing (to no
// wider than from) extends from to's width as to's signedness says;
// widening zero-extends an unsigned source, and sign-extends a signed one
// to 64 bits, or to 32 bits and zero-extends from there for an unsigned
// 32-bit destination.
func vecNormNarrow(from, to intType) func(d, a *lanes) {
	key := ""
	switch {
	case to.bits <= from.bits && !to.signed:
		key = fmt.Sprintf("ext.z%d", to.bits)
	case to.bits <= from.bits:
		key = fmt.Sprintf("ext.s%d", to.bits)
	case !from.signed:
		key = fmt.Sprintf("ext.z%d", from.bits)
	case to.signed || to.bits == 64:
		key = fmt.Sprintf("ext.s%d", from.bits)
	case to.bits == 32:
		key = fmt.Sprintf("ext.s%dz32", from.bits)
	}
	if v := simdUnary(key); v != nil {
		return v
	}
	return func(d, a *lanes) {
		for i, v := range a {
			d[i] = to.norm(from.norm(v))
		}
	}
}

// unaryVec is unary with a whole-warp loop for full masks.
func (l *lowering) unaryVec(in *ir.Inst, o *Op, fn func(a uint64) uint64, vec func(d, a *lanes)) error {
	if err := l.unary(in, o, fn); err != nil || vec == nil {
		return err
	}
	o.vkind, o.vu, o.exec = vecUnary, vec, unaryVecExec
	return nil
}

// unaryVecExec runs a unaryVec op as ternaryVecExec does.
func unaryVecExec(w *Warp, o *Op, mask uint32) {
	r := w.top().regs
	dd, aa := int(o.d)*warpSize, int(o.a)*warpSize
	switch {
	case mask == ^uint32(0):
		o.vu((*lanes)(r[dd:dd+warpSize]), (*lanes)(r[aa:aa+warpSize]))
	case bits.OnesCount32(mask) >= maskedMinLanes:
		o.vu(&w.scratch, (*lanes)(r[aa:aa+warpSize]))
		copyLanes((*lanes)(r[dd:dd+warpSize]), &w.scratch, mask)
	default:
		unaryExec(w, o, mask)
	}
}

// copyLanes copies the lanes of mask from src to d: an op on some lanes
// (a divergent branch's) runs its whole-warp loop into the warp's scratch
// row and takes those lanes, cheaper than a call of the op's function per
// lane once a few lanes run (the loops compute and cannot fault, so the
// other lanes' values do no harm).
func copyLanes(d, src *lanes, mask uint32) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		d[i] = src[i]
	}
}
