package askmcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clarify-app/clarify/internal/manual"
)

// Listed is the tools as the server lists them to a client (tools/list), read through an
// in-memory connection: their names, titles, descriptions, annotations and schemas as a
// client gets them.
func Listed(ctx context.Context) ([]*mcp.Tool, error) {
	ct, st := mcp.NewInMemoryTransports()
	ss, err := New(Config{}).Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "manual", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	return list.Tools, nil
}

// Manual writes the tools' reference in Markdown: for each tool, its name, title,
// description and annotations, and its input's and its result's fields, from the schemas
// it is listed with; snapshots names the folder of their full JSON, relative to the page.
func Manual(w io.Writer, tools []*mcp.Tool, snapshots string) error {
	results := map[string]string{} // a result's schema, as JSON: the first tool that has it
	for _, t := range tools {
		fmt.Fprintf(w, "## %s\n\n**%s**. %s\n\n", t.Name, manual.Escape(t.Title), manual.Escape(t.Description))
		fmt.Fprintf(w, "Annotations: %s. Its schemas as listed: [%s.json](%s/%s.json).\n\n", hintsOf(t.Annotations), t.Name, snapshots, t.Name)
		for _, part := range []struct {
			what   string
			schema any
		}{{"Input", t.InputSchema}, {"Result", t.OutputSchema}} {
			var s node
			if err := remarshal(part.schema, &s); err != nil {
				return fmt.Errorf("%s: %s schema: %w", t.Name, part.what, err)
			}
			if b, _ := json.Marshal(part.schema); part.what == "Result" {
				if first, ok := results[string(b)]; ok {
					fmt.Fprintf(w, "Result: the same as [%s's](#%s).\n\n", first, first)
					continue
				}
				results[string(b)] = t.Name
			}
			var rows [][]string
			s.rows("", &rows)
			fmt.Fprintf(w, "%s:\n\n", part.what)
			if len(rows) == 0 {
				fmt.Fprint(w, "no fields.\n\n")
				continue
			}
			manual.Table(w, []string{"field", "type", "required", "limits", "what it is"}, rows)
		}
	}
	return nil
}

// hintsOf says a tool's annotations in words.
func hintsOf(a *mcp.ToolAnnotations) string {
	if a == nil {
		return "none"
	}
	yes := func(name string, b bool) string {
		if b {
			return "`" + name + "`"
		}
		return "not `" + name + "`"
	}
	return strings.Join([]string{yes("readOnlyHint", a.ReadOnlyHint), yes("idempotentHint", a.IdempotentHint),
		yes("destructiveHint", a.DestructiveHint != nil && *a.DestructiveHint),
		yes("openWorldHint", a.OpenWorldHint != nil && *a.OpenWorldHint)}, ", ")
}

// node is the part of a JSON schema the reference shows.
type node struct {
	Type        any              `json:"type"`
	Description string           `json:"description"`
	Properties  map[string]*node `json:"properties"`
	Required    []string         `json:"required"`
	Items       *node            `json:"items"`
	Enum        []any            `json:"enum"`
	Minimum     *float64         `json:"minimum"`
	Maximum     *float64         `json:"maximum"`
	MinLength   *int             `json:"minLength"`
	MaxLength   *int             `json:"maxLength"`
	MaxItems    *int             `json:"maxItems"`
	Pattern     string           `json:"pattern"`
}

// rows adds a row per field of n, its fields' fields after it (a.b, a[].b).
func (n *node) rows(prefix string, rows *[][]string) {
	names := slices.Sorted(maps.Keys(n.Properties))
	for _, name := range names {
		f := n.Properties[name]
		path := prefix + name
		req := ""
		if slices.Contains(n.Required, name) {
			req = "yes"
		}
		*rows = append(*rows, []string{manual.Code(path), manual.Cell(f.kind()), req, f.limits(), manual.Cell(f.Description)})
		switch {
		case f.Properties != nil:
			f.rows(path+".", rows)
		case f.Items != nil && f.Items.Properties != nil:
			f.Items.rows(path+"[].", rows)
		}
	}
}

// kind is n's type in words: "integer", "array of string", "boolean or null".
func (n *node) kind() string {
	var types []string
	switch t := n.Type.(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && s != "null" {
				types = append(types, s)
			}
		}
	}
	for i, t := range types {
		if t == "array" && n.Items != nil {
			types[i] = "array of " + n.Items.kind()
		}
	}
	return strings.Join(types, " or ")
}

// limits are n's bounds, pattern and values, as the schema states them, as a table's cell.
func (n *node) limits() string {
	var l []string
	if n.Minimum != nil {
		l = append(l, "≥ "+strconv.FormatFloat(*n.Minimum, 'f', -1, 64))
	}
	if n.Maximum != nil {
		l = append(l, "≤ "+strconv.FormatFloat(*n.Maximum, 'f', -1, 64))
	}
	switch {
	case n.MinLength != nil && *n.MinLength == 1:
		l = append(l, "not empty")
	case n.MinLength != nil:
		l = append(l, fmt.Sprintf("at least %d characters", *n.MinLength))
	}
	if n.MaxLength != nil {
		l = append(l, fmt.Sprintf("at most %d characters", *n.MaxLength))
	}
	if n.MaxItems != nil {
		l = append(l, fmt.Sprintf("at most %d items", *n.MaxItems))
	}
	if n.Pattern != "" {
		l = append(l, "matches "+manual.Code(n.Pattern))
	}
	if len(n.Enum) > 0 {
		l = append(l, manual.Cell(fmt.Sprintf("one of %v", n.Enum)))
	}
	return strings.Join(l, "; ")
}

// remarshal reads v, a schema as listed (JSON decoded as any), into out.
func remarshal(v any, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
