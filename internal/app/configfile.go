package app

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/clarify-app/clarify/clarify"
)

// decodeFile decodes a config file into c and returns every problem in it, each naming its
// YAML path and line. The tree is checked against Config's fields before decoding because
// yaml.v3's own errors name Go types ("field worker not found in type app.ClarifyConfig")
// and stop at the first unknown key, which an operator can do nothing with.
func decodeFile(b []byte, c *Config) []error {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return []error{err} // a syntax error: yaml.v3 names the line
	}
	if len(doc.Content) == 0 {
		return nil // an empty file, or only comments: an empty config
	}
	root := doc.Content[0]
	var errs []error
	// go-githubapp's struct has no private_key_file: it is taken out of github.app before
	// the check and the decoding, which would refuse it.
	if v := takeKey(root, "github", "app", "private_key_file"); v != nil {
		if v.Kind != yaml.ScalarNode {
			errs = append(errs, fmt.Errorf("github.app.private_key_file (line %d) should be a file name", v.Line))
		} else {
			c.PrivateKeyFile = v.Value
		}
	}
	errs = append(errs, checkNode(root, reflect.TypeFor[Config](), "")...)
	// Decoded even after problems, so that Validate does not add "required" for keys the
	// file did set; yaml.v3's own complaint is wanted only when the check found none.
	if err := doc.Decode(c); err != nil && len(errs) == 0 {
		errs = append(errs, err)
	}
	if c.PrivateKeyFile != "" && c.Github.App.PrivateKey != "" {
		errs = append(errs, fmt.Errorf("github.app.private_key and github.app.private_key_file are both set: keep one"))
	}
	return errs
}

// takeKey removes the last key of path from the mapping the rest of path leads to, and
// returns its value; nil when it is not there.
func takeKey(n *yaml.Node, path ...string) *yaml.Node {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != path[0] {
			continue
		}
		if len(path) > 1 {
			return takeKey(n.Content[i+1], path[1:]...)
		}
		v := n.Content[i+1]
		n.Content = append(n.Content[:i:i], n.Content[i+2:]...)
		return v
	}
	return nil
}

func resolve(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode {
		return n.Alias
	}
	return n
}

var durationType = reflect.TypeFor[time.Duration]()

// checkNode checks n against t, the type it decodes into, and says what is wrong in the
// file's words: the dotted YAML path, the line, and the value.
func checkNode(n *yaml.Node, t reflect.Type, path string) []error {
	n = resolve(n)
	if n.Tag == "!!null" {
		return nil // decodes to the zero value, which Defaults fills
	}
	at := problemAt(n, path)
	switch {
	case t == durationType:
		return checkDuration(n, at)
	case t.Kind() == reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return at(" should be a mapping of %s, not %s", strings.Join(yamlKeys(t), ", "), shape(n))
		}
		return checkMapping(n, t, path)
	case t.Kind() == reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return at(" should be a list, not %s", shape(n))
		}
		var errs []error
		for i, item := range n.Content {
			errs = append(errs, checkNode(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i))...)
		}
		return errs
	}
	return checkScalar(n, t, at)
}

// nodeProblem writes what is wrong with one node, after its path and line.
type nodeProblem func(format string, args ...any) []error

// problemAt is the problem writer of the node n at path ("the file" for the top).
func problemAt(n *yaml.Node, path string) nodeProblem {
	where := path
	if where == "" {
		where = "the file"
	}
	return func(format string, args ...any) []error {
		return []error{fmt.Errorf("%s (line %d)"+format, append([]any{where, n.Line}, args...)...)}
	}
}

// checkDuration checks a duration, and marks it a string for the decoder.
func checkDuration(n *yaml.Node, at nodeProblem) []error {
	if n.Kind != yaml.ScalarNode {
		return at(" should be a duration such as 90s or 2m, not %s", shape(n))
	}
	if _, err := time.ParseDuration(n.Value); err != nil {
		// A bare number would be nanoseconds to Go: a mistake, refused rather than obeyed.
		if _, numErr := strconv.ParseFloat(n.Value, 64); numErr == nil {
			return at(": %s needs a unit, e.g. %ss (units: ms, s, m, h)", n.Value, n.Value)
		}
		return at(": %q is not a duration; write e.g. 90s, 2m or 1h30m", n.Value)
	}
	// "0" is a number to yaml.v3, which decodes no number into a Duration; as a
	// string it reaches time.ParseDuration like "90s" does.
	n.Tag = "!!str"
	return nil
}

// checkScalar checks a single value by decoding it into a t.
func checkScalar(n *yaml.Node, t reflect.Type, at nodeProblem) []error {
	if n.Kind != yaml.ScalarNode {
		return at(" should be a single value, not %s", shape(n))
	}
	isInt := t.Kind() == reflect.Int || t.Kind() == reflect.Int64
	// A number in quotes (as templates often write it) is still the number: yaml.v3 alone
	// would refuse "7" for an integer.
	if isInt && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		if _, err := strconv.ParseInt(n.Value, 10, 64); err == nil {
			n.Tag, n.Style = "!!int", 0
		}
	}
	if err := n.Decode(reflect.New(t).Interface()); err != nil {
		if isInt {
			return at(": %q is not a whole number", n.Value)
		}
		return at(": %q cannot be read as a %s", n.Value, t.Kind())
	}
	return nil
}

// checkMapping checks each key of a mapping against the struct t.
func checkMapping(n *yaml.Node, t reflect.Type, path string) []error {
	fields := map[string]reflect.Type{}
	for i := range t.NumField() {
		if name := yamlName(t.Field(i)); name != "" {
			fields[name] = t.Field(i).Type
		}
	}
	var errs []error
	firstLine := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Tag == "!!merge" { // `<<: *anchor` brings in another mapping's keys
			errs = append(errs, checkNode(v, t, path)...)
			continue
		}
		key := joinPath(path, k.Value)
		ft, ok := fields[k.Value]
		if !ok {
			errs = append(errs, unknownKey(key, k.Line, k.Value, yamlKeys(t)))
			continue
		}
		if first, seen := firstLine[k.Value]; seen {
			errs = append(errs, fmt.Errorf("%s (line %d) is set again; it was first set at line %d", key, k.Line, first))
			continue
		}
		firstLine[k.Value] = k.Line
		errs = append(errs, checkNode(v, ft, key)...)
	}
	return errs
}

// unknownKey names the key and where it is, and the setting most likely meant.
func unknownKey(key string, line int, name string, known []string) error {
	if guess := clarify.Nearest(name, known, 2); guess != "" {
		return fmt.Errorf("%s (line %d) is not a setting; did you mean %s?", key, line, guess)
	}
	return fmt.Errorf("%s (line %d) is not a setting; the settings there are %s", key, line, strings.Join(known, ", "))
}

// yamlName is the key a field is read from, as yaml.v3 reads it; "" for a field the file
// cannot set.
func yamlName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	switch name {
	case "-":
		return ""
	case "":
		return strings.ToLower(f.Name)
	}
	return name
}

func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		if name := yamlName(t.Field(i)); name != "" {
			keys = append(keys, name)
		}
	}
	return keys
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func shape(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", n.Value)
}
