package ptx

// parser is a recursive-descent parser over a tokenSource. (Stub; being written.)
type parser struct {
	diags DiagnosticList
}

func newParser(filename string, src []byte, opts *ParseOptions) *parser { return &parser{} }

func (p *parser) parseModule() *Module { return &Module{} }

// parseConstExpr parses one constant expression from src (used by #if) and
// reports syntax errors through errf. It returns nil if there is no valid
// expression. Trailing tokens after the expression are an error.
func parseConstExpr(src tokenSource, errf func(Pos, string)) Expr { return nil }
