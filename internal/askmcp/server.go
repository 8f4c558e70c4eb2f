// Package askmcp is `bot mcp`: the asker's client (internal/asker) as an MCP server, for the
// agents that speak the Model Context Protocol (Claude Code, Codex, Copilot, Cursor, VS
// Code). It owns the tools' names, schemas and annotations (tools.go, inputs.go), what
// guards every call (guard.go: one panic, a flood or a missing token never takes the
// server down) and the progress of a wait (progress.go). Every call returns within
// CallBudget, before a client's own time-out (60 s in the TypeScript SDK and Codex): an ask
// not taken by then comes back posted, with its ref; a wait comes back with the record as
// it stands, and the agent calls again.
package askmcp

import (
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
)

// Time bounds of a call: every call returns within CallBudget, well before a client's own
// time-out; an ask or a settle waits for Clarify to take it at most TakeSeconds, and a
// wait at most MaxWaitSeconds.
const (
	CallBudget         = 30 * time.Second
	TakeSeconds        = 25
	DefaultWaitSeconds = 25
	MaxWaitSeconds     = 25
	// MaxCalls is how many calls run at once; one more is refused at once, saying so.
	MaxCalls = 16
	// ProgressEvery is how often a wait tells a client that sent a progress token how it
	// stands: clients such as Claude Code reset their idle timer on each notification.
	ProgressEvery = 10 * time.Second
)

// Instructions are what the server tells a client about using its tools, shown to the
// model: people answer in minutes to days, so an agent's loop is ask, wait, act, settle.
const Instructions = `Clarify asks people a question in a GitHub issue and gives the answer back as data.
People answer in minutes to days, not seconds. The loop: clarify_decisions first (it may be
decided already); clarify_ask (it returns the clarification's id, or status "posted" with a
ref when Clarify has not taken it yet: find it later with clarify_status and that ref);
clarify_wait in a loop until the record has an outcome (each call returns within 25 s with
the record as it stands); act on the answer; then clarify_resolve with the decision (or
clarify_followup with the next question). A clarification nobody settles is pinged as stale
after the repository's SLA and escalated to the maintainers after two.`

// Config is what the server needs.
type Config struct {
	// Client is the asker's client; nil when it could not be built, ClientErr saying why
	// (each call then fails with that reason, and the server stays up).
	Client    *asker.Client
	ClientErr error
	// Repo is the repository a call means when it names none (CLARIFY_REPO, else the
	// working directory's git remote); "" makes repo required, and RepoErr, when set, says
	// why there is none (the remote is on another host than the API's).
	Repo    string
	RepoErr error
	// Dispatch sends every ask and settle as a repository_dispatch (a workflow's
	// GITHUB_TOKEN where Clarify runs as a workflow: its comments would start no run).
	Dispatch bool
	// Version is the server's version, told to the client.
	Version string
	// ProgressEvery overrides ProgressEvery (tests); zero: ProgressEvery.
	ProgressEvery time.Duration
}

// New returns the server with its tools, guarded (guard.go), declaring only the
// capabilities it uses: tools, with a list that never changes.
func New(cfg Config) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "clarify", Title: "Clarify", Version: cfg.Version}, &mcp.ServerOptions{
		Instructions: Instructions,
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	cfg.addTools(s)
	s.AddReceivingMiddleware(guard(MaxCalls))
	return s
}

// issue is the issue a call means.
func (cfg Config) issue(repo string, number int) (clarify.IssueRef, error) {
	if repo == "" {
		repo = cfg.Repo
	}
	owner, name, ok := clarify.ParseRepo(repo)
	if !ok && repo == "" && cfg.RepoErr != nil {
		return clarify.IssueRef{}, fmt.Errorf("give repo as OWNER/REPO: %w", cfg.RepoErr)
	}
	if !ok {
		return clarify.IssueRef{}, errors.New("give repo as OWNER/REPO (no default: set CLARIFY_REPO, or run in a clone of the repository)")
	}
	if number <= 0 {
		return clarify.IssueRef{}, errors.New("give issue, the issue's number")
	}
	return clarify.IssueRef{Owner: owner, Repo: name, Number: number}, nil
}

// client is the asker's client, or why there is none.
func (cfg Config) client() (*asker.Client, error) {
	if cfg.Client == nil {
		return nil, cfg.missing()
	}
	return cfg.Client, nil
}

// missing is the error every call gives when the server could not build its client.
func (cfg Config) missing() error {
	why := "no client"
	if cfg.ClientErr != nil {
		why = cfg.ClientErr.Error()
	}
	return errors.New("bot mcp cannot reach GitHub: " + why + ". Set it in the environment the MCP client gives bot mcp " +
		"(its env setting), then restart the server; `bot mcp --check` says what it finds")
}
