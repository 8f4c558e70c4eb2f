package askmcp

import (
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clarify-app/clarify/clarify"
)

// outputSchema is the schema of a tool's result T as the SDK would infer it, except that a
// typed answer's value (clarify.Value: a string in Go, written as the JSON it holds, a
// boolean, a number, a date or an option) is any JSON: inferred from its Go type, the SDK
// would refuse every result that carries one.
func outputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		// Written out, not {}: an empty schema is written as `true`, which the TypeScript
		// SDK's client refuses in a tool's list.
		reflect.TypeFor[clarify.Value](): {Types: []string{"boolean", "number", "string", "object"},
			Description: "the answer's typed value: a boolean, a number, a date (YYYY-MM-DD) or an option {key, text}"},
	}})
	if err != nil {
		panic(err) // T is one of this package's result types, which always have a schema
	}
	return s
}

// addTool adds a tool whose result is Out, with Out's output schema (outputSchema).
func addTool[In, Out any](s *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	t.OutputSchema = outputSchema[Out]()
	mcp.AddTool(s, t, h)
}
