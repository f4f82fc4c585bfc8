package exec

// Whole-warp loops of div and rem on 32-bit integers, with the lane
// functions' results (alu.go): a zero divisor gives all ones (div) or the
// dividend (rem), 9.7.1.6 and 9.7.1.7 leave them unspecified; the most
// negative s32 divided by -1 wraps to itself, with remainder 0.

func divU32(a, b uint32) uint32 {
	if b == 0 {
		return ^uint32(0)
	}
	return a / b
}

func remU32(a, b uint32) uint32 {
	if b == 0 {
		return a
	}
	return a % b
}

func divS32(a, b int32) int32 {
	switch b {
	case 0:
		return -1
	case -1:
		return -a
	}
	return a / b
}

func remS32(a, b int32) int32 {
	switch b {
	case 0:
		return a
	case -1:
		return 0
	}
	return a % b
}

func vecDivU32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(divU32(uint32(a[i]), uint32(b[i])))
	}
}

func vecDivU32K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = uint64(divU32(uint32(a[i]), uint32(k)))
	}
}

func vecRemU32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(remU32(uint32(a[i]), uint32(b[i])))
	}
}

func vecRemU32K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = uint64(remU32(uint32(a[i]), uint32(k)))
	}
}

func vecDivS32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(int64(divS32(int32(a[i]), int32(b[i]))))
	}
}

func vecDivS32K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = uint64(int64(divS32(int32(a[i]), int32(k))))
	}
}

func vecRemS32(d, a, b *lanes) {
	for i := range d {
		d[i] = uint64(int64(remS32(int32(a[i]), int32(b[i]))))
	}
}

func vecRemS32K(d, a *lanes, k uint64) {
	for i := range d {
		d[i] = uint64(int64(remS32(int32(a[i]), int32(k))))
	}
}

// vecDivRem returns the loops of div or rem on t (32 or 64 bits), or a zero
// vecBin; on 64 bits they run lane, the op's scalar function, per lane.
func vecDivRem(op string, t intType, lane func(a, b uint64) uint64) vecBin {
	if t.bits == 64 {
		return lanewise(lane)
	}
	if t.bits != 32 {
		return vecBin{}
	}
	key := op + ".u32"
	if t.signed {
		key = op + ".s32"
	}
	if v, ok := simdBinary(key); ok {
		return v
	}
	switch key {
	case "div.u32":
		return vecBin{rr: vecDivU32, rk: vecDivU32K}
	case "rem.u32":
		return vecBin{rr: vecRemU32, rk: vecRemU32K}
	case "div.s32":
		return vecBin{rr: vecDivS32, rk: vecDivS32K}
	}
	return vecBin{rr: vecRemS32, rk: vecRemS32K}
}

// lanewise is the loops of a binary op that has no faster form: fn per
// lane.
func lanewise(fn func(a, b uint64) uint64) vecBin {
	return vecBin{
		rr: func(d, a, b *lanes) {
			for i := range d {
				d[i] = fn(a[i], b[i])
			}
		},
		rk: func(d, a *lanes, k uint64) {
			for i := range d {
				d[i] = fn(a[i], k)
			}
		},
	}
}
