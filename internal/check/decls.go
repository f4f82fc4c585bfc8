package check

// Declaration rules: which state spaces may be declared where, linkage,
// types and vectors, alignment, array dimensions, initializers, kernel and
// device-function parameters (ptx-isa-9.0.txt 5.1, 5.3, 5.4, 7.1, 11.2,
// 11.6; ptx-isa-3.1.txt for the rules of old versions).
//
// Where the manual is clear but real compiler output is known to differ
// (LLVM's zero-sized arrays, the eighth mask() byte), the checker follows
// the compilers and says so in a comment.

import (
	"fmt"
	"strings"

	"github.com/ptxvm/ptxvm/internal/isa"
	"github.com/ptxvm/ptxvm/ptx"
)

// declCtx is where a declaration appears.
type declCtx int

const (
	ctxModule      declCtx = iota
	ctxBody                // a function body or a nested block in it
	ctxEntryParam          // a kernel (.entry) parameter
	ctxFuncParam           // a .func input parameter
	ctxFuncResult          // a .func return parameter
	ctxProtoParam          // a .callprototype input parameter
	ctxProtoResult         // a .callprototype return parameter
)

func (x declCtx) isParam() bool { return x >= ctxEntryParam }

// isDeviceParam reports whether x is a parameter or result of a device
// function or prototype (the .reg-or-.param rule of 11.2.2 and 7.1).
func (x declCtx) isDeviceParam() bool { return x >= ctxFuncParam }

// declKind is what a name declared in the module or a function denotes,
// for the initializer rules of 5.4.4.
type declKind int

const (
	declVarSym declKind = iota
	declFuncSym
	declEntrySym
	declLabelSym
)

type declSym struct {
	kind  declKind
	space string // variables: the state space without sub-qualifier
	typ   string // variables: the type
}

type declScope struct {
	parent *declScope
	names  map[string]declSym
}

func newDeclScope(parent *declScope) *declScope {
	return &declScope{parent: parent, names: map[string]declSym{}}
}

func (s *declScope) lookup(name string) (declSym, bool) {
	for ; s != nil; s = s.parent {
		if sym, ok := s.names[name]; ok {
			return sym, true
		}
	}
	return declSym{}, false
}

// addVars records the names of d (the first declaration of a name wins;
// redeclarations are the symbols pass's business).
func (s *declScope) addVars(d *ptx.VarDecl) {
	space, _ := splitSpace(d.Space)
	for _, dl := range d.Names {
		if _, dup := s.names[dl.Name]; !dup && dl.Count == nil {
			s.names[dl.Name] = declSym{kind: declVarSym, space: space, typ: d.Type}
		}
	}
}

// typeSizes are the fundamental types (5.2.1, Table 8) with their sizes in
// bytes; .pred has no addressable size.
var typeSizes = map[string]int64{
	".s8": 1, ".s16": 2, ".s32": 4, ".s64": 8,
	".u8": 1, ".u16": 2, ".u32": 4, ".u64": 8,
	".f16": 2, ".f16x2": 4, ".f32": 4, ".f64": 8,
	".b8": 1, ".b16": 2, ".b32": 4, ".b64": 8, ".b128": 16,
	".pred": 0,
}

// opaqueTypes are the texture, sampler and surface types (5.3).
var opaqueTypes = map[string]bool{".texref": true, ".samplerref": true, ".surfref": true}

// nonFundamental are the alternate floating-point formats and packed types
// that 5.2.3 and 5.2.4 say "cannot be used as fundamental types".
var nonFundamental = map[string]string{
	".bf16": ".b16", ".bf16x2": ".b32", ".tf32": ".b32", ".e4m3": ".b8", ".e5m2": ".b8",
	".e2m1": ".b8", ".e2m3": ".b8", ".e3m2": ".b8", ".ue8m0": ".b8", ".ue4m3": ".b8",
	".e4m3x2": ".b16", ".e5m2x2": ".b16", ".e2m3x2": ".b16", ".e3m2x2": ".b16", ".ue8m0x2": ".b16",
	".e2m1x2": ".b8", ".e4m3x4": ".b32", ".e5m2x4": ".b32", ".e2m3x4": ".b32", ".e3m2x4": ".b32",
	".e2m1x4": ".b16", ".f32x2": ".b64", ".u16x2": ".b32", ".s16x2": ".b32",
}

// opaqueMembers are the named members of the opaque types that static
// initializers may assign (5.3, Tables 10 and 11, both texturing modes).
var opaqueMembers = map[string]map[string]bool{
	".texref": set("width", "height", "depth", "channel_data_type", "channel_order", "normalized_coords",
		"filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2", "array_size", "num_mipmap_levels", "num_samples"),
	".samplerref": set("force_unnormalized_coords", "filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2"),
	".surfref":    set("width", "height", "depth", "channel_data_type", "channel_order", "array_size", "memory_layout"),
}

// memberValues are the enumerated values of sampler members (Tables 10, 11).
var memberValues = map[string]map[string]bool{
	"filter_mode": set("nearest", "linear"),
	"addr_mode_0": set("wrap", "mirror", "clamp_ogl", "clamp_to_edge", "clamp_to_border"),
	"addr_mode_1": set("wrap", "mirror", "clamp_ogl", "clamp_to_edge", "clamp_to_border"),
	"addr_mode_2": set("wrap", "mirror", "clamp_ogl", "clamp_to_edge", "clamp_to_border"),
}

// maskValues are the mask() operators of 5.4.4. The manual lists the first
// seven (bytes 0 to 6); LLVM emits all eight bytes of a 64-bit address,
// 0xFF00000000000000 included, so the eighth is accepted as well.
var maskValues = map[uint64]bool{
	0xFF: true, 0xFF00: true, 0xFF0000: true, 0xFF000000: true, 0xFF00000000: true,
	0xFF0000000000: true, 0xFF000000000000: true, 0xFF00000000000000: true,
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// splitSpace splits ".shared::cta" into ".shared" and "::cta".
func splitSpace(space string) (string, string) {
	if i := strings.Index(space, "::"); i >= 0 {
		return space[:i], space[i:]
	}
	return space, ""
}

// declarations checks every variable declaration of the module.
func (c *checker) declarations() {
	mod := newDeclScope(nil)
	for _, it := range c.mod.Items {
		switch it := it.(type) {
		case *ptx.VarDecl:
			mod.addVars(it)
		case *ptx.Function:
			kind := declFuncSym
			if it.Kind == ".entry" {
				kind = declEntrySym
			}
			if _, dup := mod.names[it.Name]; !dup {
				mod.names[it.Name] = declSym{kind: kind}
			}
		case *ptx.Alias:
			if _, dup := mod.names[it.Name]; !dup {
				mod.names[it.Name] = declSym{kind: declFuncSym}
			}
		}
	}
	for _, it := range c.mod.Items {
		switch it := it.(type) {
		case *ptx.VarDecl:
			c.checkVarDecl(it, ctxModule, mod, false)
		case *ptx.Function:
			c.functionDecls(it, mod)
		}
	}
	c.constSize()
}

// constSize: "Constant memory is restricted in size, currently limited to
// 64 KB which can be used to hold statically-sized constant variables"
// (5.1.3); before PTX 2.2 each of the banks 0 to 10 was 64 KB (5.1.3.1).
// Sizes are summed without alignment padding, so the total is never
// overestimated.
func (c *checker) constSize() {
	var banks [11]int64
	var first [11]ptx.Pos
	add := func(d *ptx.VarDecl) {
		if space, _ := splitSpace(d.Space); space != ".const" || d.Linkage == ".extern" {
			return
		}
		bank := int64(0)
		if d.Bank != nil {
			n, ok := constInt(d.Bank)
			if !ok || n < 0 || n > 10 {
				return
			}
			bank = n
		}
		for _, dl := range d.Names {
			if n, ok := staticSize(d, dl); ok && n > 0 {
				if banks[bank] == 0 {
					first[bank] = dl.Pos
				}
				banks[bank] += n
			}
		}
	}
	var walk func(b *ptx.Block)
	walk = func(b *ptx.Block) {
		for _, st := range b.Stmts {
			switch st := st.(type) {
			case *ptx.VarDecl:
				add(st)
			case *ptx.Block:
				walk(st)
			}
		}
	}
	for _, it := range c.mod.Items {
		switch it := it.(type) {
		case *ptx.VarDecl:
			add(it)
		case *ptx.Function:
			if it.Body != nil {
				walk(it.Body)
			}
		}
	}
	for bank, n := range banks {
		if n > 64<<10 {
			where := "constant memory"
			if bank > 0 {
				where = fmt.Sprintf("constant bank %d", bank)
			}
			c.errorf(first[bank], "'.const' variables take %d bytes, more than the 64 KB (65536 bytes) of %s", n, where)
		}
	}
}

// staticSize returns the size in bytes of one declared variable: an
// unsized first dimension takes its extent from the initializer.
func staticSize(d *ptx.VarDecl, dl *ptx.Declarator) (int64, bool) {
	elem, ok := typeSizes[d.Type]
	if !ok || elem == 0 || dl.Count != nil {
		return 0, false
	}
	if d.Vector > 0 {
		elem *= int64(d.Vector)
	}
	size := elem
	inner := int64(1) // elements per top-level initializer entry
	for i, e := range dl.Dims {
		if e == nil {
			if i > 0 {
				return 0, false
			}
			continue
		}
		n, ok := constInt(e)
		if !ok || n < 0 {
			return 0, false
		}
		size *= n
		if i > 0 {
			inner *= n
		}
		if size > 1<<40 {
			return size, true
		}
	}
	if len(dl.Dims) > 0 && dl.Dims[0] == nil {
		b, ok := dl.Init.(*ptx.BraceExpr)
		if !ok {
			return 0, false
		}
		n := int64(len(b.Elems))
		if len(b.Elems) > 0 && len(dl.Dims) > 1 {
			if _, nested := b.Elems[0].(*ptx.BraceExpr); !nested && inner > 0 {
				n = (n + inner - 1) / inner // a flat (brace-elided) list
			}
		}
		size *= n
	}
	return size, true
}

// functionDecls checks a function's parameter lists and the declarations of
// its body.
func (c *checker) functionDecls(f *ptx.Function, mod *declScope) {
	// Kernels with return parameters and the number of return parameters
	// are checked with the signatures in calls.go.
	entry := f.Kind == ".entry"
	resCtx, parCtx := ctxFuncResult, ctxFuncParam
	if entry {
		parCtx = ctxEntryParam
	}
	c.paramList(f.Results, resCtx)
	c.paramList(f.Params, parCtx)
	if entry {
		c.kernelParamSize(f)
	}
	if f.Body == nil {
		return
	}
	fs := newDeclScope(mod)
	for _, p := range f.Results {
		fs.addVars(p)
	}
	for _, p := range f.Params {
		fs.addVars(p)
	}
	collectLabels(fs, f.Body)
	c.blockDecls(f.Body, fs)
}

func (c *checker) paramList(params []*ptx.VarDecl, ctx declCtx) {
	for i, p := range params {
		c.checkVarDecl(p, ctx, nil, i == len(params)-1)
	}
}

// collectLabels records every label and directive label of a body in the
// function scope (labels are function-wide, 4.3.1).
func collectLabels(fs *declScope, b *ptx.Block) {
	for _, st := range b.Stmts {
		switch st := st.(type) {
		case *ptx.Label:
			fs.names[st.Name] = declSym{kind: declLabelSym}
		case *ptx.Block:
			collectLabels(fs, st)
		}
	}
}

func (c *checker) blockDecls(b *ptx.Block, parent *declScope) {
	s := newDeclScope(parent)
	for _, st := range b.Stmts {
		if d, ok := st.(*ptx.VarDecl); ok {
			s.addVars(d)
		}
	}
	for _, st := range b.Stmts {
		switch st := st.(type) {
		case *ptx.VarDecl:
			c.checkVarDecl(st, ctxBody, s, false)
		case *ptx.Block:
			c.blockDecls(st, s)
		case *ptx.Prototype:
			c.paramList(st.Results, ctxProtoResult)
			c.paramList(st.Params, ctxProtoParam)
		}
	}
}

// checkVarDecl checks one declaration in its context; s resolves the names
// of initializers (nil for parameters, which have none); last says whether
// a parameter is the last of its list.
func (c *checker) checkVarDecl(d *ptx.VarDecl, ctx declCtx, s *declScope, last bool) {
	space, sub := splitSpace(d.Space)
	c.checkSpace(d, space, sub, ctx)
	c.checkLinkage(d, space, ctx)
	c.checkType(d, space, ctx)
	if d.Align != nil {
		c.checkAlign(d.Align, d.Pos, ".align")
	}
	if d.Bank != nil {
		// 5.1.3.1: banks 0 to 10 of the (deprecated) banked constant space.
		if space != ".const" {
			c.errorf(d.Pos, "a constant bank can only be given for '.const' variables")
		} else if n, ok := constInt(d.Bank); !ok || n < 0 || n > 10 {
			c.errorf(d.Pos, "the constant bank must be an integer from 0 to 10")
		}
	}
	c.checkAttributes(d, space)
	if d.Ptr != nil {
		c.checkPtr(d, ctx)
	}
	for _, dl := range d.Names {
		c.checkDeclarator(d, dl, space, ctx, s, last)
	}
}

// checkSpace: which state spaces may be declared where (5.1, Table 7; 7.1;
// 11.2.1, 11.2.2).
func (c *checker) checkSpace(d *ptx.VarDecl, space, sub string, ctx declCtx) {
	if space == ".sreg" {
		c.errorf(d.Pos, "special registers are predefined: '.sreg' variables cannot be declared")
		return
	}
	if sub != "" {
		// 5.1.6, 5.1.7 define ::entry, ::func, ::cta and ::cluster as
		// sub-qualifiers of instructions; declarations name the space alone.
		c.warnf(d.Pos, "the sub-qualifier '%s' belongs on instructions; declare the variable in '%s'", sub, space)
	}
	switch ctx {
	case ctxModule:
		switch space {
		case ".reg", ".local":
			// 5.1.1, 5.1.5, 7.1.1: PTX 3.0 and later disallow module-scoped
			// .reg and .local variables with the ABI (sm_20 and higher);
			// older versions silently disable the ABI.
			if !c.version.Less(isa.Version{Major: 3}) && (!c.hasTgt || c.target.SM >= 20) {
				c.errorf(d.Pos, "'%s' variables cannot be declared at module scope with the ABI (PTX ISA .version 3.0 and later, .target sm_20 and higher)", space)
			}
		case ".param":
			c.errorf(d.Pos, "'.param' variables cannot be declared at module scope")
		}
	case ctxBody:
		if space == ".tex" {
			// 5.1.8: ".tex variables are required to be defined in the global scope".
			c.errorf(d.Pos, "'.tex' variables must be declared at module scope")
		}
	case ctxEntryParam:
		if space != ".param" {
			c.errorf(d.Pos, "kernel parameters must be declared in the '.param' state space, not '%s'", space)
		}
	default: // device function and prototype parameters
		switch space {
		case ".reg":
			// 7.1: "When using the ABI, .reg state space parameters must be
			// at least 32-bits in size" (sub-word objects are promoted).
			// Not known to be an error in ptxas, so a warning.
			if n, ok := typeSizes[d.Type]; ok && n*int64(max(d.Vector, 1)) < 4 && c.abi() {
				c.warnf(d.Pos, "'.reg' parameters must be at least 32 bits wide with the ABI (.target sm_20 and higher); '%s' is narrower", d.Type)
			}
		case ".param":
			if ctx == ctxFuncParam || ctx == ctxFuncResult {
				// 5.1.6: .param device function parameters: PTX 2.0, sm_20.
				const feature = ".param state space for device function parameters"
				if c.version.Less(isa.Version{Major: 2}) {
					c.errorf(d.Pos, "Feature '%s' requires PTX ISA .version 2.0 or later", feature)
				}
				if c.hasTgt && c.target.SM < 20 {
					c.errorf(d.Pos, "Feature '%s' requires .target sm_20 or higher", feature)
				}
			}
		default:
			c.errorf(d.Pos, "function parameters must be declared in the '.reg' or '.param' state space, not '%s'", space)
		}
	}
}

// abi reports whether the module is compiled with the ABI: PTX 2.0 and
// later on sm_20 and higher (5.1.6, 7.1.1, 11.2.2).
func (c *checker) abi() bool {
	return !c.version.Less(isa.Version{Major: 2}) && c.hasTgt && c.target.SM >= 20
}

// checkLinkage: the linking directives of 11.6.
func (c *checker) checkLinkage(d *ptx.VarDecl, space string, ctx declCtx) {
	if d.Linkage == "" {
		return
	}
	if ctx == ctxBody {
		// 11.6 declares symbols visible across modules: module-scope
		// declarations. Whether ptxas accepts a block-scope .extern (as C
		// does) is not stated, so that one is only a warning.
		if d.Linkage == ".extern" {
			c.warnf(d.Pos, "'.extern' inside a function body; linking directives apply to module-scope declarations")
		} else {
			c.errorf(d.Pos, "'%s' is not allowed inside a function body; linking directives apply to module-scope declarations", d.Linkage)
		}
	}
	if d.Linkage == ".common" {
		// 11.6.4: "only on variables with .global storage ... not on symbols with opaque type".
		if space != ".global" {
			c.errorf(d.Pos, "'.common' can be used only on variables in the '.global' state space")
		} else if opaqueTypes[d.Type] {
			c.errorf(d.Pos, "'.common' cannot be used on variables of opaque type '%s'", d.Type)
		}
	}
	c.gateDirective(d.Linkage, d.Pos) // .weak: PTX 3.1; .common: PTX 5.0, sm_20
}

// checkType: fundamental and opaque types, predicates, vectors (5.2, 5.3,
// 5.4.1, 5.4.2, 5.1.8).
func (c *checker) checkType(d *ptx.VarDecl, space string, ctx declCtx) {
	size, fundamental := typeSizes[d.Type]
	opaque := opaqueTypes[d.Type]
	switch {
	case fundamental || opaque:
	case nonFundamental[d.Type] != "":
		c.errorf(d.Pos, "'%s' is not a fundamental type and cannot be used in a declaration; use '%s'", d.Type, nonFundamental[d.Type])
		return
	default:
		c.errorf(d.Pos, "unknown type '%s' in declaration", d.Type)
		return
	}
	if d.Type == ".pred" && space != ".reg" {
		c.errorf(d.Pos, "predicate variables may only be declared in the '.reg' state space")
	}
	if d.Type == ".b128" {
		c.gateDirective(".b128", d.Pos)
	}
	if space == ".tex" && d.Type != ".u32" && d.Type != ".u64" {
		c.errorf(d.Pos, "'.tex' variables must be of type .u32 or .u64")
	}
	if opaque {
		// 5.3: "Variable definition within global (module) scope and in
		// kernel entry parameter lists"; at module scope in .global, as
		// kernel parameters in .param.
		ok := ctx == ctxModule && space == ".global" || ctx == ctxEntryParam && space == ".param"
		if !ok {
			c.errorf(d.Pos, "variables of opaque type '%s' can be declared only at module scope in '.global' or as kernel parameters", d.Type)
		}
	}
	switch d.Vector {
	case 0:
	case 2, 4:
		if d.Type == ".pred" || opaque {
			c.errorf(d.Pos, "vectors must have a non-predicate fundamental base type, not '%s'", d.Type)
		} else if size*int64(d.Vector) > 16 {
			c.errorf(d.Pos, "vector '.v%d %s' is %d bits: vectors cannot exceed 128 bits", d.Vector, d.Type, size*int64(d.Vector)*8)
		}
	default:
		// 5.4.2: .v2 and .v4 only; .v8 is an ld/st qualifier (9.7.9), not a type.
		c.errorf(d.Pos, "'.v%d' vectors cannot be declared: vector variables are .v2 or .v4", d.Vector)
	}
}

// checkAlign: "The alignment value byte-count must be a power of two" (5.4.5;
// 5.1.6.3 for .ptr).
func (c *checker) checkAlign(e ptx.Expr, pos ptx.Pos, what string) {
	v, err := ptx.EvalConst(e)
	if err != nil || !v.IsInt() {
		c.errorf(pos, "the %s value must be an integer constant", what)
		return
	}
	n := v.Uint64()
	if v.Kind == ptx.ConstS64 && v.Int64() <= 0 || n == 0 || n&(n-1) != 0 {
		c.errorf(pos, "the %s value must be a power of two, not %s", what, v)
	}
}

// checkAttributes: .managed and .unified only on .global variables (5.4.8).
func (c *checker) checkAttributes(d *ptx.VarDecl, space string) {
	for _, a := range d.Attributes {
		switch a.Name {
		case ".managed":
			if a.Args != nil {
				c.errorf(a.Pos, "the '.managed' attribute takes no arguments")
			}
		case ".unified":
			if len(a.Args) != 2 {
				c.errorf(a.Pos, "the '.unified' attribute takes two integer constants, .unified(uuid1, uuid2)")
			} else {
				for _, x := range a.Args {
					if v, err := ptx.EvalConst(x); err != nil || !v.IsInt() {
						c.errorf(a.Pos, "the arguments of '.unified' must be integer constants")
						break
					}
				}
			}
		default:
			c.errorf(a.Pos, "unknown variable attribute '%s'", a.Name)
			continue
		}
		if space != ".global" {
			c.errorf(a.Pos, "the '%s' attribute can only be used on variables in the '.global' state space", a.Name)
		}
	}
}

// checkPtr: the .ptr kernel parameter attribute (5.1.6.3).
func (c *checker) checkPtr(d *ptx.VarDecl, ctx declCtx) {
	if ctx != ctxEntryParam {
		c.errorf(d.Pos, "the '.ptr' attribute is allowed only on kernel parameters")
		return
	}
	switch d.Type {
	case ".u32", ".u64", ".b32", ".b64", ".s32", ".s64":
	default:
		c.errorf(d.Pos, "the '.ptr' attribute needs a pointer-sized integer parameter (.u32 or .u64), not '%s'", d.Type)
	}
	switch d.Ptr.Space {
	case "", ".const", ".global", ".local", ".shared":
	case ".texref", ".samplerref", ".surfref":
		// not in the manual: LLVM writes `.param .u64 .ptr .texref p` for
		// OpenCL image and sampler handles (sm_30 and higher)
	default:
		c.errorf(d.Pos, "the state space of '.ptr' must be .const, .global, .local or .shared, not '%s'", d.Ptr.Space)
	}
	if d.Ptr.Align != nil {
		c.checkAlign(d.Ptr.Align, d.Pos, ".ptr .align")
	}
}

// checkDeclarator checks one declared name: parameterized names (5.4.6),
// array dimensions (5.4.3), unsized arrays (5.4.3, 11.2.2) and the
// initializer (5.4.4).
func (c *checker) checkDeclarator(d *ptx.VarDecl, dl *ptx.Declarator, space string, ctx declCtx, s *declScope, last bool) {
	if dl.Count != nil {
		// 5.4.6: "Array variables cannot be declared this way, nor are
		// initializers permitted." (The count itself is checked by symbols.)
		if len(dl.Dims) > 0 {
			c.errorf(dl.Pos, "parameterized variable names cannot be arrays")
		}
		if dl.Init != nil {
			c.errorf(dl.Pos, "parameterized variable names cannot have initializers")
		}
		return
	}
	dims := make([]int64, len(dl.Dims)) // -1: unsized
	for i, e := range dl.Dims {
		if e == nil {
			dims[i] = -1
			if i > 0 {
				c.errorf(dl.Pos, "only the first dimension of array '%s' may be omitted", dl.Name)
			}
			continue
		}
		n, ok := constInt(e)
		switch {
		case !ok:
			c.errorf(dl.Pos, "the dimensions of array '%s' must be integer constants", dl.Name)
			n = 0
		case n < 0:
			c.errorf(dl.Pos, "array '%s' has a negative dimension (%d)", dl.Name, n)
			n = 0
		case n == 0:
			// not forbidden in words; LLVM writes [0] for zero-sized parameters
			c.warnf(dl.Pos, "array '%s' has a zero dimension", dl.Name)
		}
		dims[i] = n
	}
	if len(dims) > 0 && dims[0] == -1 && dl.Init == nil {
		c.unsizedArray(d, dl, space, ctx, last)
	}
	if dl.Init != nil {
		c.checkInit(d, dl, space, dims, s)
	}
}

// unsizedArray: an array without its first dimension needs an initializer
// (5.4.3), or is an external declaration (11.6.1: dynamic shared memory,
// old constant banks), or is the last .param .b8 parameter of a function
// (11.2.2; PTX 6.0, sm_30).
func (c *checker) unsizedArray(d *ptx.VarDecl, dl *ptx.Declarator, space string, ctx declCtx, last bool) {
	switch {
	case d.Linkage == ".extern":
	case ctx == ctxFuncParam || ctx == ctxProtoParam:
		if !last {
			c.errorf(dl.Pos, "only the last parameter of a function can be an unsized array")
			return
		}
		if space != ".param" || d.Type != ".b8" || len(dl.Dims) != 1 {
			c.errorf(dl.Pos, "an unsized array parameter must be a one-dimensional '.param' array of type '.b8'")
		}
		const feature = "unsized array parameter"
		if c.version.Less(isa.Version{Major: 6}) {
			c.errorf(dl.Pos, "Feature '%s' requires PTX ISA .version 6.0 or later", feature)
		}
		if c.hasTgt && c.target.SM < 30 {
			c.errorf(dl.Pos, "Feature '%s' requires .target sm_30 or higher", feature)
		}
	case ctx.isParam():
		c.errorf(dl.Pos, "parameter '%s' needs an array size: only the last parameter of a .func may be unsized", dl.Name)
	case space == ".global" || space == ".shared" || space == ".const":
		// LLVM declares zero-sized aggregates as `.b8 name[]` without
		// .extern (extern_weak declarations); whether ptxas accepts them
		// is unknown, so this is a warning.
		c.warnf(dl.Pos, "array '%s' has no size, no initializer and no '.extern'", dl.Name)
	default:
		c.errorf(dl.Pos, "array '%s' needs a size: only initialized and '.extern' arrays may omit the first dimension", dl.Name)
	}
}

// checkInit: the initializer rules of 5.4.4 and 5.3.
func (c *checker) checkInit(d *ptx.VarDecl, dl *ptx.Declarator, space string, dims []int64, s *declScope) {
	pos := dl.Init.Position()
	switch {
	case d.Linkage == ".extern":
		c.errorf(pos, "an '.extern' variable cannot have an initializer")
		return
	case space != ".global" && space != ".const":
		// "variable initialization is supported only for constant and
		// global state spaces" (5.4.4; Table 7).
		c.errorf(pos, "initializers are allowed only for variables in the '.const' and '.global' state spaces")
		return
	case d.Type == ".f16" || d.Type == ".f16x2" || d.Type == ".pred":
		c.errorf(pos, "initializers are not allowed for type '%s'", d.Type)
		return
	}
	if opaqueTypes[d.Type] {
		c.opaqueInit(d, dl)
		return
	}
	if _, ok := typeSizes[d.Type]; !ok {
		return // reported by checkType
	}
	shape := dims
	if d.Vector > 0 {
		shape = append(append([]int64{}, dims...), int64(d.Vector))
	}
	c.initShape(dl.Init, shape, dl.Name)
	c.initValues(dl.Init, d, s)
}

// opaqueInit: opaque variables are initialized with `{ member = value, ... }`
// naming members of the type (5.3, Tables 10 and 11).
func (c *checker) opaqueInit(d *ptx.VarDecl, dl *ptx.Declarator) {
	b, ok := dl.Init.(*ptx.BraceExpr)
	if !ok || len(dl.Dims) > 0 {
		c.errorf(dl.Init.Position(), "a '%s' variable is initialized with a list of member assignments { member = value, ... }", d.Type)
		return
	}
	for _, e := range b.Elems {
		kv, ok := e.(*ptx.KeyValue)
		if !ok {
			c.errorf(e.Position(), "a '%s' variable is initialized with a list of member assignments { member = value, ... }", d.Type)
			continue
		}
		if !opaqueMembers[d.Type][kv.Key] {
			c.errorf(kv.Pos, "'%s' is not a member of '%s'", kv.Key, d.Type)
			continue
		}
		if vals := memberValues[kv.Key]; vals != nil {
			if id, ok := kv.Value.(*ptx.Ident); !ok || !vals[id.Name] {
				c.errorf(kv.Pos, "invalid value for '%s'", kv.Key)
			}
		}
	}
}

// initShape checks that the brace nesting of an initializer matches the
// declaration's shape (array dimensions, then the vector length; -1 for
// an unsized first dimension) and that no list is longer than its
// dimension (5.4.4: "the nesting matches the dimensionality of the
// declaration"; incomplete lists are allowed). A flat list for a
// multi-dimensional array (C's brace elision) is accepted with its total
// count checked.
func (c *checker) initShape(e ptx.Expr, shape []int64, name string) {
	b, isList := e.(*ptx.BraceExpr)
	if len(shape) == 0 {
		if isList {
			if len(b.Elems) == 1 { // `= {1}` for a scalar, as C allows
				c.initShape(b.Elems[0], nil, name)
				return
			}
			c.errorf(e.Position(), "initializer of '%s' has more levels of braces than its declaration has dimensions", name)
		}
		return
	}
	if !isList {
		c.errorf(e.Position(), "'%s' is an array or vector: its initializer must be a list in braces", name)
		return
	}
	lists := 0
	for _, x := range b.Elems {
		if _, ok := x.(*ptx.BraceExpr); ok {
			lists++
		}
	}
	if lists == 0 && len(shape) > 1 {
		// brace elision: a flat list of all elements
		total := int64(1)
		for _, n := range shape {
			if n < 0 {
				return
			}
			total *= n
			if total > 1<<40 {
				return
			}
		}
		if int64(len(b.Elems)) > total {
			c.errorf(e.Position(), "too many initializers for '%s': %d given for %d elements", name, len(b.Elems), total)
		}
		return
	}
	if shape[0] >= 0 && int64(len(b.Elems)) > shape[0] {
		c.errorf(e.Position(), "too many initializers for '%s': %d given for a dimension of %d", name, len(b.Elems), shape[0])
	}
	if lists < len(b.Elems) && len(shape) > 1 {
		return // lists mixed with elided elements: not checked further
	}
	for _, x := range b.Elems {
		c.initShape(x, shape[1:], name)
	}
}

// initValues checks the values of an initializer: names must be variables
// in .global or .const or functions (never labels or opaque variables),
// and the generic() and mask() operators (5.4.4).
func (c *checker) initValues(e ptx.Expr, d *ptx.VarDecl, s *declScope) {
	if b, ok := e.(*ptx.BraceExpr); ok {
		for _, x := range b.Elems {
			c.initValues(x, d, s)
		}
		return
	}
	addr, mask := c.initExpr(e, s, false)
	// "Variables that hold addresses ... should be of type .u8 or .u32 or
	// .u64. Type .u8 is allowed only if the mask() operator is used."
	if addr && !mask && typeSizes[d.Type] == 1 {
		c.errorf(e.Position(), "an address can initialize an 8-bit variable only through the mask() operator")
	}
}

// initExpr checks one initializer value and reports whether it uses the
// address of a symbol and whether it applies mask().
func (c *checker) initExpr(e ptx.Expr, s *declScope, inMask bool) (addr, mask bool) {
	switch e := e.(type) {
	case *ptx.Ident:
		return c.initName(e, s), false
	case *ptx.ParenExpr:
		return c.initExpr(e.X, s, inMask)
	case *ptx.UnaryExpr:
		return c.initExpr(e.X, s, inMask)
	case *ptx.CastExpr:
		return c.initExpr(e.X, s, inMask)
	case *ptx.BinaryExpr:
		a1, m1 := c.initExpr(e.X, s, inMask)
		a2, m2 := c.initExpr(e.Y, s, inMask)
		return a1 || a2, m1 || m2
	case *ptx.CondExpr:
		a1, m1 := c.initExpr(e.Cond, s, inMask)
		a2, m2 := c.initExpr(e.X, s, inMask)
		a3, m3 := c.initExpr(e.Y, s, inMask)
		return a1 || a2 || a3, m1 || m2 || m3
	case *ptx.KeyValue:
		c.errorf(e.Pos, "member assignments '%s = ...' initialize only .texref, .samplerref and .surfref variables", e.Key)
	case *ptx.BraceExpr:
		c.errorf(e.Pos, "unexpected list in braces inside an initializer value")
	case *ptx.CallExpr:
		return c.initCall(e, s, inMask)
	}
	return false, false
}

// initName checks a name used in an initializer; it reports whether the
// name is a variable or function (an address).
func (c *checker) initName(id *ptx.Ident, s *declScope) bool {
	sym, ok := s.lookup(id.Name)
	if !ok {
		return false // undeclared names are reported by the symbols pass
	}
	switch sym.kind {
	case declLabelSym:
		c.errorf(id.Pos, "labels cannot be used in initializers ('%s')", id.Name)
		return false
	case declEntrySym:
		// 5.4.4: kernel function names as initializers from PTX 3.1.
		if c.version.Less(isa.Version{Major: 3, Minor: 1}) {
			c.errorf(id.Pos, "Feature 'kernel function names in initializers' requires PTX ISA .version 3.1 or later")
		}
	case declVarSym:
		switch {
		case opaqueTypes[sym.typ] || sym.space == ".tex":
			// 5.3: "Opaque variables may not appear in initializers".
			c.errorf(id.Pos, "opaque variable '%s' cannot appear in an initializer", id.Name)
		case sym.space != ".global" && sym.space != ".const":
			c.errorf(id.Pos, "only variables in the '.global' or '.const' state space may be used in initializers; '%s' is in '%s'", id.Name, sym.space)
		}
	}
	return true
}

// initCall checks generic(var) and the mask() operators (5.4.4).
func (c *checker) initCall(e *ptx.CallExpr, s *declScope, inMask bool) (addr, mask bool) {
	switch fun := e.Fun.(type) {
	case *ptx.Ident:
		if fun.Name != "generic" {
			c.errorf(e.Pos, "unknown operator '%s' in initializer", fun.Name)
			return false, false
		}
		if len(e.Args) != 1 {
			c.errorf(e.Pos, "generic() takes one variable name")
			return false, false
		}
		id, ok := e.Args[0].(*ptx.Ident)
		if !ok {
			c.errorf(e.Pos, "the operand of generic() must be the name of a variable")
			return false, false
		}
		c.initName(id, s)
		return true, false
	case *ptx.IntLit:
		if inMask {
			c.errorf(e.Pos, "mask() operators cannot be nested")
		}
		if c.version.Less(isa.Version{Major: 7, Minor: 1}) {
			c.errorf(e.Pos, "Feature 'mask() operator in initializers' requires PTX ISA .version 7.1 or later")
		}
		if !maskValues[fun.Value] {
			c.errorf(e.Pos, "invalid mask() operator %s: the mask selects one byte (0xFF, 0xFF00, ..., 0xFF00000000000000)", fun.Text)
		}
		if len(e.Args) != 1 {
			c.errorf(e.Pos, "the mask() operator takes one operand")
			return false, true
		}
		arg := e.Args[0]
		if v, err := ptx.EvalConst(arg); err == nil {
			if !v.IsInt() {
				c.errorf(e.Pos, "the operand of a mask() operator must be an integer constant expression or a variable's address")
			} else if c.version.Less(isa.Version{Major: 7, Minor: 3}) {
				c.errorf(e.Pos, "Feature 'integer constant expression in mask() operator' requires PTX ISA .version 7.3 or later")
			}
			return false, true
		}
		if !isSymbolExpr(arg) {
			c.errorf(e.Pos, "the operand of a mask() operator must be an integer constant expression or a variable's address")
			return false, true
		}
		c.initExpr(arg, s, true)
		return true, true
	}
	c.errorf(e.Pos, "invalid operator in initializer")
	return false, false
}

// isSymbolExpr reports whether e is `var`, `generic(var)`, or either plus
// or minus an integer constant: the symbol expressions mask() accepts.
func isSymbolExpr(e ptx.Expr) bool {
	switch e := e.(type) {
	case *ptx.ParenExpr:
		return isSymbolExpr(e.X)
	case *ptx.Ident:
		return true
	case *ptx.CallExpr:
		id, ok := e.Fun.(*ptx.Ident)
		return ok && id.Name == "generic"
	case *ptx.BinaryExpr:
		if e.Op != "+" && e.Op != "-" {
			return false
		}
		if v, err := ptx.EvalConst(e.Y); err == nil && v.IsInt() {
			return isSymbolExpr(e.X)
		}
		if v, err := ptx.EvalConst(e.X); err == nil && v.IsInt() && e.Op == "+" {
			return isSymbolExpr(e.Y)
		}
	}
	return false
}

// kernelParamSize: the size of a kernel's normal (non-opaque) parameters,
// laid out in order with their alignment, against the limit of the PTX
// version (11.2.1: 256 bytes from 1.4, 4352 from 1.5, 32764 from 8.1).
func (c *checker) kernelParamSize(f *ptx.Function) {
	var limit int64
	switch {
	case c.version.Less(isa.Version{Major: 1, Minor: 5}):
		limit = 256
	case c.version.Less(isa.Version{Major: 8, Minor: 1}):
		limit = 4352
	default:
		limit = 32764
	}
	var off int64
	for _, p := range f.Params {
		size, align, ok := paramLayout(p)
		if !ok {
			return // an unknown type or dimension, reported elsewhere
		}
		if size == 0 {
			continue
		}
		off = (off+align-1)/align*align + size
		if off > 1<<40 {
			break
		}
	}
	if off > limit {
		c.errorf(f.Pos, "kernel parameter size %d exceeds the limit of %d bytes for PTX ISA .version %s", off, limit, versionString(c.version))
	}
}

// paramLayout returns the size and alignment of a parameter; opaque
// parameters have size 0. The default alignment is the element size, or
// the whole vector's size for vectors (5.4.5).
func paramLayout(p *ptx.VarDecl) (size, align int64, ok bool) {
	if opaqueTypes[p.Type] {
		return 0, 1, true
	}
	elem, known := typeSizes[p.Type]
	if !known || elem == 0 {
		return 0, 1, known
	}
	if p.Vector > 0 {
		elem *= int64(p.Vector)
	}
	align = elem
	if p.Align != nil {
		if n, ok := constInt(p.Align); ok && n > 0 && n&(n-1) == 0 {
			align = n
		}
	}
	size = elem
	for _, dl := range p.Names {
		for _, e := range dl.Dims {
			if e == nil {
				return 0, align, true
			}
			n, ok := constInt(e)
			if !ok || n < 0 {
				return 0, 1, false
			}
			size *= n
			if size > 1<<40 {
				return size, align, true
			}
		}
	}
	return size, align, true
}
