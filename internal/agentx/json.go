package agentx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"
)

// Path is where AgentX keeps an issue's ledger file, relative to the repository's root.
func Path(issue int) string {
	return filepath.Join(".agentx", "state", "clarifications", fmt.Sprintf("issue-%d.json", issue))
}

// Parse reads a ledger file. Unknown lists the fields it holds that neither the format
// nor Clarify defines ("clarifications[0].priority"): they are not kept, and a caller
// should say so rather than lose them in silence.
func Parse(data []byte) (f File, unknown []string, err error) {
	if err := json.Unmarshal(data, &f); err != nil {
		return File{}, nil, fmt.Errorf("not an AgentX ledger file: %w", err)
	}
	var tree any
	if err := json.Unmarshal(data, &tree); err != nil {
		return File{}, nil, err
	}
	unknown = unknownFields(tree, reflect.TypeFor[File](), "")
	sort.Strings(unknown)
	return f, unknown, nil
}

// Marshal writes f as AgentX does: indented by two spaces, ending in a newline. "<", ">"
// and "&" stay as they are: the file is read by people and agents, not put in HTML.
func Marshal(f File) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// unknownFields walks a decoded JSON tree beside the Go type it was decoded into, and
// names the object keys that type has no field for. Keys match as encoding/json matches
// them, in any case.
func unknownFields(v any, t reflect.Type, path string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	switch v := v.(type) {
	case map[string]any:
		if t.Kind() != reflect.Struct || t == reflect.TypeFor[time.Time]() {
			return nil // a type error, which Unmarshal reported already
		}
		for key, val := range v {
			field, ok := fieldByJSONName(t, key)
			if !ok {
				out = append(out, join(path, key))
				continue
			}
			out = append(out, unknownFields(val, field.Type, join(path, key))...)
		}
	case []any:
		if t.Kind() != reflect.Slice {
			return nil
		}
		for i, el := range v {
			out = append(out, unknownFields(el, t.Elem(), fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	return out
}

func fieldByJSONName(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		if f.IsExported() && name != "-" && strings.EqualFold(name, key) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
