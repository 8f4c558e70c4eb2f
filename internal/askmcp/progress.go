package askmcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
)

// waitWithProgress waits as asker.Client.Wait does; when the call carries a progress token,
// it waits in steps of the progress interval and tells the client after each how the
// clarification stands, so that a client that resets its idle timer on progress keeps the
// call alive.
func (cfg Config) waitWithProgress(ctx context.Context, req *mcp.CallToolRequest, c *asker.Client, issue clarify.IssueRef, key string, timeout time.Duration) (clarify.AskRecord, error) {
	token := req.Params.GetProgressToken()
	if token == nil {
		return c.Wait(ctx, issue, key, timeout)
	}
	every := cfg.ProgressEvery
	if every <= 0 {
		every = ProgressEvery
	}
	start := time.Now()
	for {
		left := timeout - time.Since(start)
		rec, err := c.Wait(ctx, issue, key, min(every, left))
		if !errors.Is(err, asker.ErrStillOpen) && !errors.Is(err, asker.ErrNotTaken) || left <= every {
			return rec, err
		}
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token,
			Progress: time.Since(start).Seconds(), Total: timeout.Seconds(), Message: progressMessage(rec)})
	}
}

// progressMessage says how an open clarification stands, for a person watching the client:
// "CLR-42-001 pending: waiting on maria since 14:02 UTC (3 min)".
func progressMessage(r clarify.AskRecord) string {
	if r.Status == clarify.StatusPosted {
		return cmp.Or(r.ID, "ref "+r.Ref) + ": Clarify has not taken the ask yet"
	}
	since := r.UpdatedAt
	if since.IsZero() {
		since = r.CreatedAt
	}
	msg := fmt.Sprintf("%s %s: waiting on %s", r.ID, r.Status, r.Target)
	if !since.IsZero() {
		msg += " since " + since.UTC().Format("2006-01-02 15:04 UTC")
	}
	return msg
}
