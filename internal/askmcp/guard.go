package askmcp

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// guard is the middleware around every request the server receives: a tool call runs
// within CallBudget, at most max of them at once (one more is refused at once, saying so),
// and a panic in one becomes that call's error, so that one input never takes the server,
// and every call in flight, down.
func guard(max int) mcp.Middleware {
	slots := make(chan struct{}, max)
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			select {
			case slots <- struct{}{}:
				defer func() { <-slots }()
			default:
				return toolError(fmt.Sprintf("busy: %d calls are running, the most bot mcp takes at once; call again when one has returned", max)), nil
			}
			defer func() {
				if p := recover(); p != nil {
					fmt.Fprintf(os.Stderr, "bot mcp: %s panicked: %v\n%s", toolName(req), p, debug.Stack())
					res, err = toolError(fmt.Sprintf("internal error in %s (%v): the server is still up; this is a bug of Clarify's", toolName(req), p)), nil
				}
			}()
			ctx, cancel := context.WithTimeout(ctx, CallBudget)
			defer cancel()
			return next(ctx, method, req)
		}
	}
}

// toolError is a tool call's result that reports a failure to the model.
func toolError(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// toolName is the name of the tool a request calls, for messages.
func toolName(req mcp.Request) string {
	if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
		return p.Name
	}
	return "a tool call"
}
