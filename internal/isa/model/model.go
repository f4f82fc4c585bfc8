// Package model defines the types of ptxvm's instruction table. It is
// separate from package isa so that the generator (isa/gen), which builds
// values of these types from the spec files, does not depend on the
// generated tables it writes.
package model

// Version is a PTX ISA version, e.g. {7, 8} for 7.8.
type Version struct{ Major, Minor uint8 }

// Less reports whether v is older than w.
func (v Version) Less(w Version) bool {
	return v.Major < w.Major || v.Major == w.Major && v.Minor < w.Minor
}

// Target is a target architecture: SM 90 with Suffix 'a' is sm_90a; Suffix
// 0 means the plain (forward-compatible) target, 'f' the family target
// (ptx-isa-9.0.txt 11.1.2).
type Target struct {
	SM     int
	Suffix byte
}

// Instr is one Syntax block of the manual: an opcode's forms, modifier
// groups, operand rules and requirements. An opcode may have several.
type Instr struct {
	Opcode   string
	Section  string // manual section, e.g. "9.7.1.1" or "9.2:1.3"
	Forms    []Form
	Groups   []Group
	Operands []OperandRule
	Requires []Requirement
}

// Form is one syntax line.
type Form struct {
	Text     string    // as written in the spec
	Mods     []ModSlot // modifier slots in order
	Operands []Operand
}

// ModSlot is one position of a form's modifier sequence.
type ModSlot struct {
	Optional bool
	Group    string   // the group's name (".type"), or "" for a literal modifier
	Values   []string // the values allowed here, sub-qualifiers expanded
}

// Group is a named set of modifier values (`.type = { .u16, .u32 };`).
type Group struct {
	Name   string
	Values []string
}

// OperandShape says how an operand is written.
type OperandShape uint8

const (
	ShapeScalar  OperandShape = iota // a
	ShapeAddress                     // [a], [a, b], [tex, {x, y}]
	ShapeVector                      // {a, b, c}
	ShapePair                        // a|b
	ShapeTuple                       // (a, b): call arguments and results
)

// Operand is one operand position of a form.
type Operand struct {
	Shape    OperandShape
	Names    []string // placeholders in order (a pair has two, an address or vector one per part)
	Text     string   // as written, without the optional braces
	Optional bool     // written as {, x}
	Negate   string   // "", "-", "{-}", "{!}" or "!": negation written on the operand
	// Qualifier is a suffix as written: ".dsel" (required) or "{.unified}",
	// "{.asel}" (optional); a group name stands for one of its values.
	Qualifier    string
	PairOptional bool // a pair whose second part may be left out: d{|p}, d[|p]
}

// OperandRule gives kinds and a type to operand placeholders, when Cond holds.
type OperandRule struct {
	Names []string
	Kinds []string // reg imm pred addr label func var sink vec vec2 vec4 vec8 texref samplerref surfref
	Type  string   // ".b32", a group name (".type"), "2*.type", or ""
	When  Cond
}

// ReqKind is the kind of a Requirement.
type ReqKind uint8

const (
	ReqPTX        ReqKind = iota // introduced in a PTX version
	ReqTarget                    // needs a target
	ReqDeprecated                // deprecated from a PTX version (warning)
	ReqRemoved                   // invalid from a PTX version (and target)
	ReqInvalid                   // never valid: a combination the syntax lines cannot exclude
)

// Requirement is one line of a block's `requires:` section.
type Requirement struct {
	Kind    ReqKind
	Version Version  // ReqPTX, ReqDeprecated, ReqRemoved
	Targets []Target // ReqTarget (any of them), ReqRemoved (optional)
	When    Cond
	Feature string // name for diagnostics; "" means derived from the opcode and When
	Message string
}

// Cond is a conjunction of disjunctions: every term must have one true alternative.
type Cond [][]Alt

// Alt is one alternative of a condition term.
type Alt struct {
	Not     bool
	Value   string // a modifier value (".u16x2") or an operand placeholder
	Operand bool   // Value names an optional operand that must be present
	// Kind, with Operand, asks what the operand is written as: "reg" (a
	// register), "imm" (a constant), "sink" (`_`) or "entry" (a kernel's
	// name); written `name:kind` in the spec.
	Kind string
	// Target, when set, makes the alternative "the module's target is this
	// architecture" (any suffix); written `target=sm_89` in the spec.
	Target Target
}

// SpecialReg is a special register of chapter 10.
type SpecialReg struct {
	Name       string // "%tid", or "%envreg" with Count 32 for %envreg<32>
	Count      int
	Section    string
	Type       string // ".u32", ".v4 .u32", ...
	Components []string
	Requires   []Requirement
}

// Directive is a directive of chapter 11.
type Directive struct {
	Name     string
	Section  string
	Syntax   []string
	Requires []Requirement
}
