package ghexpr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Values are JSON's, as encoding/json decodes them into an any: nil, bool, float64,
// string, []any and map[string]any. An object filter's result is a filtered array.
type filtered []any

// Eval computes the expression's value in ctx, whose keys are the contexts (github, env,
// inputs, …). A name ctx does not hold is an error, as GitHub refuses an unknown context.
func (e *Expr) Eval(ctx map[string]any) (any, error) { return e.root.eval(ctx) }

// If evaluates a job's or a step's `if:` as GitHub does: the condition may be written with
// or without ${{ }}, and runs the job when its value is truthy. A job with no needs has
// succeeded so far, so the implied success() && is true and left out.
func If(cond string, ctx map[string]any) (bool, error) {
	s := strings.TrimSpace(cond)
	if inner, ok := strings.CutPrefix(s, "${{"); ok && strings.HasSuffix(inner, "}}") && !strings.Contains(inner[:len(inner)-2], "${{") {
		s = inner[:len(inner)-2]
	}
	e, err := Parse(s)
	if err != nil {
		return false, err
	}
	v, err := e.Eval(ctx)
	return Truthy(v), err
}

// Interpolate replaces each ${{ expression }} of s by its value as a string.
func Interpolate(s string, ctx map[string]any) (string, error) {
	var out strings.Builder
	for {
		before, rest, ok := strings.Cut(s, "${{")
		out.WriteString(before)
		if !ok {
			return out.String(), nil
		}
		src, after, closed := strings.Cut(rest, "}}")
		if !closed {
			return "", fmt.Errorf("ghexpr: unclosed ${{ in %q", s)
		}
		e, err := Parse(src)
		if err != nil {
			return "", err
		}
		v, err := e.Eval(ctx)
		if err != nil {
			return "", err
		}
		out.WriteString(String(v))
		s = after
	}
}

func (l literal) eval(map[string]any) (any, error) { return l.v, nil }

func (c contextName) eval(ctx map[string]any) (any, error) {
	if v, ok := lookup(ctx, c.name); ok {
		return v, nil
	}
	return nil, fmt.Errorf("ghexpr: unrecognized named-value: %q", c.name)
}

func (n not) eval(ctx map[string]any) (any, error) {
	v, err := n.x.eval(ctx)
	return !Truthy(v), err
}

func (l logical) eval(ctx map[string]any) (any, error) {
	var v any
	for _, a := range l.args {
		var err error
		if v, err = a.eval(ctx); err != nil {
			return nil, err
		}
		if Truthy(v) != l.and {
			break // && stops at its first falsy operand, || at its first truthy one
		}
	}
	return v, nil
}

func (b binary) eval(ctx map[string]any) (any, error) {
	l, err := b.l.eval(ctx)
	if err != nil {
		return nil, err
	}
	r, err := b.r.eval(ctx)
	if err != nil {
		return nil, err
	}
	switch b.op {
	case "==":
		return equal(l, r), nil
	case "!=":
		return !equal(l, r), nil
	case "<":
		return compare(l, r) < 0, nil
	case ">":
		return compare(l, r) > 0, nil
	case "<=":
		return equal(l, r) || compare(l, r) < 0, nil
	}
	return equal(l, r) || compare(l, r) > 0, nil // >=
}

func (x index) eval(ctx map[string]any) (any, error) {
	of, err := x.of.eval(ctx)
	if err != nil {
		return nil, err
	}
	var key any
	if !x.star {
		if key, err = x.key.eval(ctx); err != nil {
			return nil, err
		}
	}
	if f, ok := of.(filtered); ok {
		out := filtered{}
		for _, item := range f {
			out = append(out, x.pick(item, key)...)
		}
		return out, nil
	}
	picked := x.pick(of, key)
	switch {
	case x.star:
		return filtered(picked), nil
	case len(picked) == 0:
		return nil, nil // a missing property is null
	}
	return picked[0], nil
}

// pick is what x's key (or *) selects in v: nothing when v has no such member.
func (x index) pick(v, key any) []any {
	switch v := v.(type) {
	case map[string]any:
		if x.star {
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			out := make([]any, len(keys))
			for i, k := range keys {
				out[i] = v[k]
			}
			return out
		}
		if m, ok := lookup(v, String(key)); ok {
			return []any{m}
		}
	case []any:
		if x.star {
			return slices.Clone(v)
		}
		if f, isNum := key.(float64); isNum && f >= 0 && f == math.Trunc(f) && int(f) < len(v) {
			return []any{v[int(f)]}
		}
	case filtered:
		return x.pick([]any(v), key)
	}
	return nil
}

// lookup finds a property by name, ignoring case as GitHub's contexts do.
func lookup(m map[string]any, name string) (any, bool) {
	if v, ok := m[name]; ok {
		return v, true
	}
	for k, v := range m {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return nil, false
}

// Truthy is GitHub's truthiness: null, false, 0, NaN and ” are falsy; arrays and objects
// are truthy, even empty.
func Truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case float64:
		return v != 0 && !math.IsNaN(v)
	case string:
		return v != ""
	}
	return true
}

// String converts a value as GitHub does where a string is wanted: null is ”, numbers
// in decimal, arrays 'Array' and objects 'Object'.
func String(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case bool:
		return strconv.FormatBool(v)
	case float64:
		// At most 15 decimals, without trailing zeros.
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', 15, 64), 64)
		return strconv.FormatFloat(r, 'f', -1, 64)
	case string:
		return v
	case map[string]any:
		return "Object"
	}
	return "Array"
}

// number converts a value as GitHub's loose comparisons do: null is 0, true 1, a string
// its number (” is 0, anything else not a number NaN), arrays and objects NaN.
func number(v any) float64 {
	switch v := v.(type) {
	case nil:
		return 0
	case bool:
		if v {
			return 1
		}
		return 0
	case float64:
		return v
	case string:
		s := strings.TrimSpace(v)
		if s == "" {
			return 0
		}
		if f, err := parseNumber(s); err == nil {
			return f
		}
	}
	return math.NaN()
}

type kind int

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

func kindOf(v any) kind {
	switch v.(type) {
	case nil:
		return kNull
	case bool:
		return kBool
	case float64:
		return kNumber
	case string:
		return kString
	case map[string]any:
		return kObject
	}
	return kArray
}

// coerce brings two values to one kind where GitHub does: a number and a string compare
// as numbers, and null or a boolean becomes a number beside anything else.
func coerce(l, r any) (any, any) {
	lk, rk := kindOf(l), kindOf(r)
	switch {
	case lk == rk:
		return l, r
	case lk == kNumber && rk == kString, lk == kString && rk == kNumber:
		return number(l), number(r)
	case lk == kNull || lk == kBool:
		return coerce(number(l), r)
	case rk == kNull || rk == kBool:
		return coerce(l, number(r))
	}
	return l, r
}

func equal(l, r any) bool {
	l, r = coerce(l, r)
	if kindOf(l) != kindOf(r) {
		return false
	}
	switch l := l.(type) {
	case nil:
		return true
	case bool:
		return l == r.(bool)
	case float64:
		return l == r.(float64) // NaN equals nothing
	case string:
		return upper(l) == upper(r.(string))
	}
	return sameInstance(l, r) // arrays and objects: only the same one
}

// compare orders two values: -1, 1, or 0 when neither is less (equal, NaN, or kinds
// that do not order).
func compare(l, r any) int {
	l, r = coerce(l, r)
	switch l := l.(type) {
	case float64:
		if r, ok := r.(float64); ok && !math.IsNaN(l) && !math.IsNaN(r) {
			return cmpOrdered(l, r)
		}
	case string:
		if r, ok := r.(string); ok {
			return strings.Compare(upper(l), upper(r))
		}
	case bool:
		if r, ok := r.(bool); ok && l != r {
			return map[bool]int{true: 1, false: -1}[l]
		}
	}
	return 0
}

func cmpOrdered(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func sameInstance(l, r any) bool {
	lv, rv := reflect.ValueOf(l), reflect.ValueOf(r)
	if lv.Kind() != rv.Kind() || lv.Kind() != reflect.Map && lv.Kind() != reflect.Slice {
		return false
	}
	return lv.UnsafePointer() == rv.UnsafePointer() && (lv.Kind() == reflect.Map || lv.Len() == rv.Len())
}

// upper folds case for comparison as GitHub does (upper case, except the dotless ı).
func upper(s string) string {
	return strings.Map(func(r rune) rune {
		if r == 'ı' {
			return r
		}
		return []rune(strings.ToUpper(string(r)))[0]
	}, s)
}

// toJSON writes v as GitHub's toJSON does: indented by two spaces.
func toJSON(v any) (string, error) {
	if f, ok := v.(filtered); ok {
		v = []any(f)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}
