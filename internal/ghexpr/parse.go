package ghexpr

import (
	"fmt"
	"slices"
	"strings"
)

// node is a parsed expression: eval computes its value in a context.
type node interface {
	eval(ctx map[string]any) (any, error)
}

type (
	literal struct{ v any }
	// contextName is a top-level name: github, env, inputs…
	contextName struct{ name string }
	// index is x.name, x['name'], x[0], x.* or x[*].
	index struct {
		of   node
		key  node // nil for *
		star bool
	}
	not    struct{ x node }
	binary struct {
		op   string
		l, r node
	}
	logical struct {
		and  bool
		args []node
	}
	call struct {
		fn   function
		args []node
	}
)

// Expr is a parsed expression.
type Expr struct {
	root node
	src  string
}

// Parse reads an expression (without its ${{ }}).
func Parse(src string) (*Expr, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	root, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, fmt.Errorf("ghexpr: at %d: unexpected %q", t.pos, t.text)
	}
	return &Expr{root: root, src: src}, nil
}

type parser struct {
	toks []token
	at   int
}

func (p *parser) peek() token { return p.toks[p.at] }

func (p *parser) next() token {
	t := p.toks[p.at]
	if t.kind != tokEOF {
		p.at++
	}
	return t
}

// accept consumes the operator op when it comes next.
func (p *parser) accept(op string) bool {
	if t := p.peek(); t.kind == tokOp && t.text == op {
		p.at++
		return true
	}
	return false
}

func (p *parser) expect(op string) error {
	if !p.accept(op) {
		t := p.peek()
		return fmt.Errorf("ghexpr: at %d: want %q, have %q", t.pos, op, t.text)
	}
	return nil
}

// or and and gather their operands: && binds tighter than ||.
func (p *parser) or() (node, error)  { return p.logical(false, "||", p.and) }
func (p *parser) and() (node, error) { return p.logical(true, "&&", p.equality) }

func (p *parser) logical(and bool, op string, operand func() (node, error)) (node, error) {
	first, err := operand()
	if err != nil {
		return nil, err
	}
	args := []node{first}
	for p.accept(op) {
		x, err := operand()
		if err != nil {
			return nil, err
		}
		args = append(args, x)
	}
	if len(args) == 1 {
		return first, nil
	}
	return logical{and: and, args: args}, nil
}

func (p *parser) equality() (node, error) { return p.binaries(p.comparison, "==", "!=") }

func (p *parser) comparison() (node, error) { return p.binaries(p.unary, "<", "<=", ">", ">=") }

func (p *parser) binaries(operand func() (node, error), ops ...string) (node, error) {
	l, err := operand()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tokOp || !slices.Contains(ops, t.text) {
			return l, nil
		}
		p.next()
		r, err := operand()
		if err != nil {
			return nil, err
		}
		l = binary{op: t.text, l: l, r: r}
	}
}

func (p *parser) unary() (node, error) {
	if p.accept("!") {
		x, err := p.unary()
		return not{x}, err
	}
	return p.postfix()
}

// postfix reads a primary and its dereferences.
func (p *parser) postfix() (node, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.accept("."):
			t := p.next()
			switch {
			case t.kind == tokOp && t.text == "*":
				x = index{of: x, star: true}
			case t.kind == tokIdent:
				x = index{of: x, key: literal{t.text}}
			default:
				return nil, fmt.Errorf("ghexpr: at %d: want a property name after '.', have %q", t.pos, t.text)
			}
		case p.accept("["):
			if p.accept("*") {
				x = index{of: x, star: true}
			} else {
				k, err := p.or()
				if err != nil {
					return nil, err
				}
				x = index{of: x, key: k}
			}
			if err := p.expect("]"); err != nil {
				return nil, err
			}
		default:
			return x, nil
		}
	}
}

func (p *parser) primary() (node, error) {
	t := p.next()
	switch t.kind {
	case tokNumber:
		return literal{t.num}, nil
	case tokString:
		return literal{t.text}, nil
	case tokIdent:
		return p.ident(t)
	case tokOp:
		if t.text == "(" {
			x, err := p.or()
			if err != nil {
				return nil, err
			}
			return x, p.expect(")")
		}
	}
	return nil, fmt.Errorf("ghexpr: at %d: unexpected %q", t.pos, t.text)
}

// ident is a keyword, a function call or a context's name.
func (p *parser) ident(t token) (node, error) {
	switch t.text {
	case "true":
		return literal{true}, nil
	case "false":
		return literal{false}, nil
	case "null":
		return literal{nil}, nil
	}
	if !p.accept("(") {
		return contextName{t.text}, nil
	}
	fn, ok := functions[strings.ToLower(t.text)]
	if !ok {
		return nil, fmt.Errorf("ghexpr: at %d: unknown function %s", t.pos, t.text)
	}
	var args []node
	for !p.accept(")") {
		if len(args) > 0 {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
		a, err := p.or()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
	}
	if len(args) < fn.min || fn.max >= 0 && len(args) > fn.max {
		return nil, fmt.Errorf("ghexpr: at %d: %s takes %d to %d arguments, not %d", t.pos, t.text, fn.min, fn.max, len(args))
	}
	return call{fn: fn, args: args}, nil
}
