// Package isa is ptxvm's instruction table: every instruction form, special
// register and directive of PTX ISA 1.0-9.2, with the PTX version and target
// each needs. The data is transcribed from the PTX ISA manual into spec/*.spec
// (format: spec/FORMAT.md) and turned into the tables of tables_gen.go by
// the generator in gen/ (`go generate ./internal/isa`).
package isa

import "github.com/ptxvm/ptxvm/internal/isa/model"

//go:generate go run ./gen -o tables_gen.go spec

// The table's types, defined in package model (see there).
type (
	Version      = model.Version
	Target       = model.Target
	Instr        = model.Instr
	Form         = model.Form
	ModSlot      = model.ModSlot
	Group        = model.Group
	OperandShape = model.OperandShape
	Operand      = model.Operand
	OperandRule  = model.OperandRule
	ReqKind      = model.ReqKind
	Requirement  = model.Requirement
	Cond         = model.Cond
	Alt          = model.Alt
	SpecialReg   = model.SpecialReg
	Directive    = model.Directive
)

// Operand shapes and requirement kinds.
const (
	ShapeScalar   = model.ShapeScalar
	ShapeAddress  = model.ShapeAddress
	ShapeVector   = model.ShapeVector
	ShapePair     = model.ShapePair
	ShapeTuple    = model.ShapeTuple
	ReqPTX        = model.ReqPTX
	ReqTarget     = model.ReqTarget
	ReqDeprecated = model.ReqDeprecated
	ReqRemoved    = model.ReqRemoved
	ReqInvalid    = model.ReqInvalid
)
