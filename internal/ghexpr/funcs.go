package ghexpr

import (
	"encoding/json"
	"fmt"
	"strings"
)

// function is one of GitHub's functions; max < 0 takes any number of arguments.
type function struct {
	min, max int
	do       func(args []any) (any, error)
}

// functions are GitHub's, by lower-case name (function names ignore case). hashFiles is
// left out: it reads the runner's workspace, which an evaluation here does not have.
var functions = map[string]function{
	"contains":   {2, 2, fnContains},
	"startswith": {2, 2, func(a []any) (any, error) { return strings.HasPrefix(upper(String(a[0])), upper(String(a[1]))), nil }},
	"endswith":   {2, 2, func(a []any) (any, error) { return strings.HasSuffix(upper(String(a[0])), upper(String(a[1]))), nil }},
	"format":     {1, -1, fnFormat},
	"join":       {1, 2, fnJoin},
	"tojson":     {1, 1, func(a []any) (any, error) { return toJSON(a[0]) }},
	"fromjson":   {1, 1, fnFromJSON},
	// A job with no needs: nothing before it failed or was cancelled.
	"success":   {0, 0, func([]any) (any, error) { return true, nil }},
	"always":    {0, 0, func([]any) (any, error) { return true, nil }},
	"failure":   {0, 0, func([]any) (any, error) { return false, nil }},
	"cancelled": {0, 0, func([]any) (any, error) { return false, nil }},
}

func (c call) eval(ctx map[string]any) (any, error) {
	args := make([]any, len(c.args))
	for i, a := range c.args {
		v, err := a.eval(ctx)
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	return c.fn.do(args)
}

// fnContains: an array holds an item equal to the value; anything else, as a string,
// holds the value's string, ignoring case.
func fnContains(a []any) (any, error) {
	switch search := a[0].(type) {
	case []any:
		return hasEqual(search, a[1]), nil
	case filtered:
		return hasEqual(search, a[1]), nil
	}
	return strings.Contains(upper(String(a[0])), upper(String(a[1]))), nil
}

func hasEqual(items []any, v any) bool {
	for _, it := range items {
		if equal(it, v) {
			return true
		}
	}
	return false
}

// fnFormat replaces {N} by argument N; {{ and }} stand for braces.
func fnFormat(a []any) (any, error) {
	f := String(a[0])
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		switch {
		case strings.HasPrefix(f[i:], "{{"), strings.HasPrefix(f[i:], "}}"):
			b.WriteByte(f[i])
			i++
		case f[i] == '{':
			end := strings.IndexByte(f[i:], '}')
			var n int
			if end < 0 || !isIndex(f[i+1:i+end], &n) || n+1 >= len(a) {
				return nil, fmt.Errorf("ghexpr: format %q: bad or missing argument at %d", f, i)
			}
			b.WriteString(String(a[n+1]))
			i += end
		case f[i] == '}':
			return nil, fmt.Errorf("ghexpr: format %q: lone } at %d", f, i)
		default:
			b.WriteByte(f[i])
		}
	}
	return b.String(), nil
}

func isIndex(s string, n *int) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !isDigit(c) {
			return false
		}
		*n = *n*10 + int(c-'0')
	}
	return true
}

// fnJoin joins an array's items as strings with the separator (',' by default); any other
// value is its own string.
func fnJoin(a []any) (any, error) {
	sep := ","
	if len(a) > 1 {
		sep = String(a[1])
	}
	var items []any
	switch v := a[0].(type) {
	case []any:
		items = v
	case filtered:
		items = v
	default:
		return String(v), nil
	}
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = String(it)
	}
	return strings.Join(parts, sep), nil
}

func fnFromJSON(a []any) (any, error) {
	var v any
	if err := json.Unmarshal([]byte(String(a[0])), &v); err != nil {
		return nil, fmt.Errorf("ghexpr: fromJSON: %w", err)
	}
	return v, nil
}
