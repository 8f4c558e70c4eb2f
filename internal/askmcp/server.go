// Package askmcp is `bot mcp`: the asker's client (internal/asker) as an MCP server, for the
// agents that speak the Model Context Protocol (Claude Code, Codex, Copilot, Cursor, VS
// Code). Four tools, each with an input schema and a structured result; a refusal or a
// failure is a tool error whose text starts with Clarify's error code. A wait never holds
// a client past its time-out: it returns the open record, and the agent calls again.
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

// Wait bounds: a client's own time-out for a tool call is about 60 s, so a wait ends before.
const (
	DefaultWaitSeconds = 45
	MaxWaitSeconds     = 50
)

// Config is what the server needs.
type Config struct {
	Client *asker.Client
	// Repo is the repository a call means when it names none (CLARIFY_REPO, else the
	// working directory's git remote); "" makes repo required.
	Repo string
	// Dispatch sends every ask as a repository_dispatch (a workflow's GITHUB_TOKEN where
	// Clarify runs as a workflow: its comments would start no run).
	Dispatch bool
	// Version is the server's version, told to the client.
	Version string
}

// AskInput is clarify_ask's arguments.
type AskInput struct {
	Issue    int      `json:"issue" jsonschema:"the issue's number"`
	Target   string   `json:"target" jsonschema:"whom to ask: @login, @org/team, or a role's name"`
	Question string   `json:"question" jsonschema:"the question"`
	Repo     string   `json:"repo,omitempty" jsonschema:"OWNER/REPO (default: CLARIFY_REPO, else the git remote of the working directory)"`
	Topic    string   `json:"topic,omitempty" jsonschema:"the topic, under which the repository's decisions are kept"`
	Options  []string `json:"options,omitempty" jsonschema:"options to choose from (a, b, ...)"`
	Fallback string   `json:"fallback,omitempty" jsonschema:"the option's letter taken if nobody answers in time"`
	Blocking *bool    `json:"blocking,omitempty" jsonschema:"whether the asker waits for the answer (default true)"`
	Ref      string   `json:"ref,omitempty" jsonschema:"your own correlation id, at most 200 characters: an ask with the ref of an open one of yours is that one"`
	State    string   `json:"state,omitempty" jsonschema:"an opaque string, at most 8 KiB, given back in the record and the wake-up; anyone who can read the issue can read it"`
	Expect   string   `json:"expect,omitempty" jsonschema:"the kind of answer it takes: yes/no, number, number 1..100, date, option or text (default); the record's value is the answer typed"`
}

// WaitInput is clarify_wait's arguments.
type WaitInput struct {
	Issue          int    `json:"issue" jsonschema:"the issue's number"`
	ID             string `json:"id" jsonschema:"the clarification's id, CLR-..."`
	Repo           string `json:"repo,omitempty" jsonschema:"OWNER/REPO (default: CLARIFY_REPO, else the git remote)"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" jsonschema:"how long to wait, at most 50 (default 45); still open then, the record comes back as it stands: call again"`
}

// StatusInput is clarify_status's arguments.
type StatusInput struct {
	Issue int    `json:"issue" jsonschema:"the issue's number"`
	ID    string `json:"id,omitempty" jsonschema:"one clarification's id (default: all of the issue's)"`
	Repo  string `json:"repo,omitempty" jsonschema:"OWNER/REPO (default: CLARIFY_REPO, else the git remote)"`
}

// DecisionsInput is clarify_decisions's arguments.
type DecisionsInput struct {
	Topic string `json:"topic,omitempty" jsonschema:"only the decisions on this topic"`
	Repo  string `json:"repo,omitempty" jsonschema:"OWNER/REPO (default: CLARIFY_REPO, else the git remote)"`
}

// Records is clarify_status's result.
type Records struct {
	Records []clarify.AskRecord `json:"records"`
}

// Decisions is clarify_decisions's result.
type Decisions struct {
	Decisions []asker.Decision `json:"decisions"`
}

// New returns the server with its four tools.
func New(cfg Config) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "clarify", Version: cfg.Version}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "clarify_ask", Description: "Ask a person or a role a question in a GitHub issue through " +
		"Clarify, and get the clarification's record (with its id) once Clarify has taken it. Look at clarify_decisions first: " +
		"the question may be decided already.", OutputSchema: outputSchema[clarify.AskRecord]()}, cfg.ask)
	mcp.AddTool(s, &mcp.Tool{Name: "clarify_wait", Description: "Wait up to timeout_seconds for a clarification to be answered " +
		"or settled; returns its record. Still open then (status pending, stale or escalated, no outcome): call again.",
		OutputSchema: outputSchema[clarify.AskRecord]()}, cfg.wait)
	mcp.AddTool(s, &mcp.Tool{Name: "clarify_status", Description: "The records of an issue's clarifications, or of one, " +
		"read from Clarify's own signed ledger.", OutputSchema: outputSchema[Records]()}, cfg.status)
	mcp.AddTool(s, &mcp.Tool{Name: "clarify_decisions", Description: "The decisions in force in the repository (topic, decision, " +
		"who decided, where), so you can look before you ask."}, cfg.decisions)
	return s
}

// issue is the issue a call means.
func (cfg Config) issue(repo string, number int) (clarify.IssueRef, error) {
	if repo == "" {
		repo = cfg.Repo
	}
	owner, name, ok := clarify.ParseRepo(repo)
	if !ok {
		return clarify.IssueRef{}, errors.New("give repo as OWNER/REPO (no default: set CLARIFY_REPO, or run in a clone of the repository)")
	}
	if number <= 0 {
		return clarify.IssueRef{}, errors.New("give issue, the issue's number")
	}
	return clarify.IssueRef{Owner: owner, Repo: name, Number: number}, nil
}

func (cfg Config) ask(ctx context.Context, _ *mcp.CallToolRequest, in AskInput) (*mcp.CallToolResult, clarify.AskRecord, error) {
	issue, err := cfg.issue(in.Repo, in.Issue)
	if err != nil {
		return nil, clarify.AskRecord{}, err
	}
	a := asker.Ask{Issue: issue, Target: in.Target, Question: in.Question, Topic: in.Topic, Options: in.Options,
		Fallback: in.Fallback, Ref: in.Ref, State: in.State, Dispatch: cfg.Dispatch}
	a.NonBlocking, a.Expect = in.Blocking != nil && !*in.Blocking, in.Expect
	rec, err := cfg.Client.Ask(ctx, a)
	return nil, rec, err
}

func (cfg Config) wait(ctx context.Context, _ *mcp.CallToolRequest, in WaitInput) (*mcp.CallToolResult, clarify.AskRecord, error) {
	issue, err := cfg.issue(in.Repo, in.Issue)
	if err != nil {
		return nil, clarify.AskRecord{}, err
	}
	secs := in.TimeoutSeconds
	if secs <= 0 {
		secs = DefaultWaitSeconds
	}
	if secs > MaxWaitSeconds {
		return nil, clarify.AskRecord{}, fmt.Errorf("timeout_seconds %d: at most %d, so that no client's time-out ends the call; call again to wait longer", secs, MaxWaitSeconds)
	}
	rec, err := cfg.Client.Wait(ctx, issue, in.ID, time.Duration(secs)*time.Second)
	if errors.Is(err, asker.ErrStillOpen) {
		err = nil // the open record, as it stands: the agent calls again
	}
	return nil, rec, err
}

func (cfg Config) status(ctx context.Context, _ *mcp.CallToolRequest, in StatusInput) (*mcp.CallToolResult, Records, error) {
	issue, err := cfg.issue(in.Repo, in.Issue)
	if err != nil {
		return nil, Records{}, err
	}
	recs, err := cfg.Client.Status(ctx, issue, in.ID)
	return nil, Records{Records: recs}, err
}

func (cfg Config) decisions(ctx context.Context, _ *mcp.CallToolRequest, in DecisionsInput) (*mcp.CallToolResult, Decisions, error) {
	issue, err := cfg.issue(in.Repo, 1)
	if err != nil {
		return nil, Decisions{}, err
	}
	ds, err := cfg.Client.Decisions(ctx, issue.Owner, issue.Repo, in.Topic)
	return nil, Decisions{Decisions: ds}, err
}
