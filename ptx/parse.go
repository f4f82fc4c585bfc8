package ptx

import "os"

// ParseOptions configures Parse. The zero value (or nil) is ready to use.
type ParseOptions struct {
	// IncludePaths are searched, in order, for `#include "file"` after the
	// directory of the including file.
	IncludePaths []string
	// Defines are predefined object-like macros, as from -DNAME=VALUE.
	Defines map[string]string
	// ReadFile reads included files; nil means os.ReadFile.
	ReadFile func(name string) ([]byte, error)
	// DiscardComments drops comments instead of recording them in Module.Comments.
	DiscardComments bool
}

// Parse parses one PTX source file. It returns the module it could build and,
// if anything was wrong, a DiagnosticList holding every error found (the
// parser recovers at the next statement and goes on). It never panics.
func Parse(filename string, src []byte, opts *ParseOptions) (*Module, error) {
	if opts == nil {
		opts = &ParseOptions{}
	}
	p := newParser(filename, src, opts)
	m := p.parseModule()
	if len(p.diags) > 0 {
		p.diags.Sort()
		if p.diags.HasErrors() {
			return m, p.diags
		}
	}
	return m, nil
}

// ParseFile reads and parses the named file.
func ParseFile(filename string, opts *ParseOptions) (*Module, error) {
	read := os.ReadFile
	if opts != nil && opts.ReadFile != nil {
		read = opts.ReadFile
	}
	src, err := read(filename)
	if err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &ParseOptions{}
	}
	return Parse(filename, src, opts)
}
