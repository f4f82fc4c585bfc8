package isa

// byOpcode indexes Instrs by opcode.
var byOpcode = func() map[string][]*Instr {
	m := make(map[string][]*Instr)
	for i := range Instrs {
		in := &Instrs[i]
		m[in.Opcode] = append(m[in.Opcode], in)
	}
	return m
}()

// Lookup returns the instruction blocks of an opcode ("add", "cp"), or nil.
func Lookup(opcode string) []*Instr { return byOpcode[opcode] }

// LookupSpecialReg returns the special register named name ("%tid",
// "%envreg3"), or nil.
func LookupSpecialReg(name string) *SpecialReg {
	for i := range SpecialRegs {
		r := &SpecialRegs[i]
		if r.Count == 0 {
			if r.Name == name {
				return r
			}
			continue
		}
		// %envreg<32>: %envreg0 .. %envreg31
		if len(name) > len(r.Name) && name[:len(r.Name)] == r.Name {
			n := 0
			for _, c := range name[len(r.Name):] {
				if c < '0' || c > '9' {
					n = -1
					break
				}
				n = n*10 + int(c-'0')
			}
			if n >= 0 && n < r.Count {
				return r
			}
		}
	}
	return nil
}

// LookupDirective returns the directive named name (".maxntid"), or nil.
func LookupDirective(name string) *Directive {
	for i := range Directives {
		if Directives[i].Name == name {
			return &Directives[i]
		}
	}
	return nil
}
