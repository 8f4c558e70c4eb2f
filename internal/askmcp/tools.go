package askmcp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
)

// hints are a tool's annotations: what a client may assume before it calls. Every tool
// reaches GitHub (an open world); only abandon undoes anything.
type hints struct{ readOnly, idempotent, destructive bool }

func tool(name, title, description string, h hints, schema any) *mcp.Tool {
	world := true
	return &mcp.Tool{Name: name, Title: title, Description: description, InputSchema: schema,
		Annotations: &mcp.ToolAnnotations{Title: title, ReadOnlyHint: h.readOnly, IdempotentHint: h.idempotent,
			DestructiveHint: &h.destructive, OpenWorldHint: &world}}
}

// addTools adds the eight tools: four that read or ask, three that settle, and the inbox.
func (cfg Config) addTools(s *mcp.Server) {
	addTool(s, tool("clarify_ask", "Ask a person in a GitHub issue", "Ask a person, a team or a role a question in a "+
		"GitHub issue through Clarify. Returns the clarification's record with its id once Clarify has taken the ask, or, "+
		"when it has not within 25 s, status \"posted\" with the ask's ref: find it later with clarify_status or clarify_wait "+
		"and that ref. Asking again with the same ref is the same ask. Look at clarify_decisions first.",
		hints{idempotent: true}, schemaOf[AskInput]()), cfg.ask)
	addTool(s, tool("clarify_wait", "Wait for an answer", "Wait up to timeout_seconds (at most 25) for a clarification "+
		"to be answered or settled, and return its record. Still open then (no outcome): call again. People answer in "+
		"minutes to days.", hints{readOnly: true, idempotent: true}, schemaOf[WaitInput]()), cfg.wait)
	addTool(s, tool("clarify_status", "Read clarifications", "The records of an issue's clarifications, or of one (by "+
		"id or by the ask's ref), read from Clarify's own signed ledger.", hints{readOnly: true, idempotent: true},
		schemaOf[StatusInput]()), cfg.status)
	addTool(s, tool("clarify_decisions", "Read the repository's decisions", "The decisions in force in the repository "+
		"(topic, decision, who decided, where), so you can look before you ask.", hints{readOnly: true, idempotent: true},
		schemaOf[DecisionsInput]()), cfg.decisions)
	addTool(s, tool("clarify_resolve", "Settle a clarification", "Settle an answered clarification once you have acted "+
		"on it, with the decision the repository remembers (default: the last answer). Unsettled, it is pinged as stale "+
		"and escalated to the maintainers.", hints{idempotent: true}, schemaOf[ResolveInput]()), settleTool(cfg, resolveOf))
	addTool(s, tool("clarify_followup", "Ask a follow-up", "Ask the same person the next question about a "+
		"clarification: a new round. Then wait again.", hints{}, schemaOf[FollowupInput]()), settleTool(cfg, followupOf))
	addTool(s, tool("clarify_abandon", "Withdraw a clarification", "Withdraw a clarification you no longer need: "+
		"nobody is asked any more.", hints{idempotent: true, destructive: true}, schemaOf[AbandonInput]()), settleTool(cfg, abandonOf))
	cfg.addInboxTool(s)
}

func (cfg Config) ask(ctx context.Context, _ *mcp.CallToolRequest, in AskInput) (*mcp.CallToolResult, clarify.AskRecord, error) {
	c, issue, err := cfg.call(in.Repo, in.Issue)
	if err != nil {
		return nil, clarify.AskRecord{}, err
	}
	a := asker.Ask{Issue: issue, Target: in.Target, Question: in.Question, Topic: in.Topic, Options: in.Options,
		Fallback: in.Fallback, Ref: in.Ref, State: in.State, Dispatch: cfg.Dispatch, Timeout: TakeSeconds * time.Second}
	a.NonBlocking, a.Expect, a.Needs = in.Blocking != nil && !*in.Blocking, in.Expect, in.Needs
	rec, err := c.Ask(ctx, a)
	if errors.Is(err, asker.ErrNotTaken) {
		return notTaken(fmt.Sprintf("(ref %s): find it later with clarify_status or clarify_wait with this ref", rec.Ref)), rec, nil
	}
	return nil, rec, err
}

// notTaken is the result of a command sent but not yet taken: no error (it was sent, and
// sending it again would be the same command), with words that say how to find it.
func notTaken(find string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Sent, but Clarify has not taken it yet " + find + "."}}}
}

func (cfg Config) wait(ctx context.Context, req *mcp.CallToolRequest, in WaitInput) (*mcp.CallToolResult, clarify.AskRecord, error) {
	c, issue, err := cfg.call(in.Repo, in.Issue)
	if err != nil {
		return nil, clarify.AskRecord{}, err
	}
	key, err := oneOf(issue, in.ID, in.Ref)
	if err != nil {
		return nil, clarify.AskRecord{}, err
	}
	secs := in.TimeoutSeconds
	if secs == 0 {
		secs = DefaultWaitSeconds
	}
	rec, err := cfg.waitWithProgress(ctx, req, c, issue, key, time.Duration(secs)*time.Second)
	if errors.Is(err, asker.ErrStillOpen) {
		err = nil // the open record, as it stands: the agent calls again
	}
	return nil, rec, err
}

// oneOf is the key a wait or a status reads one clarification by: its id (checked), or
// the ask's ref.
func oneOf(issue clarify.IssueRef, id, ref string) (string, error) {
	switch {
	case id != "" && ref != "":
		return "", errors.New("give id or ref, not both")
	case id != "":
		return id, asker.CheckID(issue, id)
	case ref != "":
		return ref, nil
	}
	return "", errors.New("give id (CLR-<issue>-<nnn>), or the ref of an ask that came back posted")
}

func (cfg Config) status(ctx context.Context, _ *mcp.CallToolRequest, in StatusInput) (*mcp.CallToolResult, Records, error) {
	c, issue, err := cfg.call(in.Repo, in.Issue)
	if err != nil {
		return nil, Records{}, err
	}
	key := ""
	if in.ID != "" || in.Ref != "" {
		if key, err = oneOf(issue, in.ID, in.Ref); err != nil {
			return nil, Records{}, err
		}
	}
	recs, err := c.Status(ctx, issue, key)
	return nil, Records{Records: recs}, err
}

func (cfg Config) decisions(ctx context.Context, _ *mcp.CallToolRequest, in DecisionsInput) (*mcp.CallToolResult, Decisions, error) {
	c, issue, err := cfg.call(in.Repo, 1)
	if err != nil {
		return nil, Decisions{}, err
	}
	ds, err := c.Decisions(ctx, issue.Owner, issue.Repo, in.Topic)
	return nil, Decisions{Decisions: ds}, err
}

// call is the client and the issue a call means, or why the call cannot be made.
func (cfg Config) call(repo string, number int) (*asker.Client, clarify.IssueRef, error) {
	c, err := cfg.client()
	if err != nil {
		return nil, clarify.IssueRef{}, err
	}
	issue, err := cfg.issue(repo, number)
	return c, issue, err
}

// The settling tools' arguments as the asker's Settle.
func resolveOf(in ResolveInput) (string, int, asker.Settle) {
	return in.Repo, in.Issue, asker.Settle{ID: in.ID, Kind: clarify.CmdResolve, Text: in.Decision}
}

func followupOf(in FollowupInput) (string, int, asker.Settle) {
	return in.Repo, in.Issue, asker.Settle{ID: in.ID, Kind: clarify.CmdFollowup, Text: in.Question}
}

func abandonOf(in AbandonInput) (string, int, asker.Settle) {
	return in.Repo, in.Issue, asker.Settle{ID: in.ID, Kind: clarify.CmdAbandon, Text: in.Reason}
}

// settleTool is a settling tool's handler: the command sent, the record once Clarify took
// it; not taken within TakeSeconds, the record as it stands, with words saying so.
func settleTool[In any](cfg Config, of func(In) (string, int, asker.Settle)) mcp.ToolHandlerFor[In, clarify.AskRecord] {
	return func(ctx context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, clarify.AskRecord, error) {
		repo, number, s := of(in)
		c, issue, err := cfg.call(repo, number)
		if err != nil {
			return nil, clarify.AskRecord{}, err
		}
		s.Issue, s.Dispatch, s.Timeout = issue, cfg.Dispatch, TakeSeconds*time.Second
		rec, err := c.Settle(ctx, s)
		if errors.Is(err, asker.ErrNotTaken) {
			return notTaken("(" + s.ID + "): read it with clarify_status later"), rec, nil
		}
		return nil, rec, err
	}
}
