package action

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/handlers/sweep"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/wire"
)

// Options are what a caller other than main tunes.
type Options struct {
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// SettleDelay is how long a save waits before reading its edit back (handlers.Base);
	// zero is handlers.DefaultSettleDelay, negative none.
	SettleDelay time.Duration
	// Retry tunes the retries of GitHub's transient faults; tests shorten its waits.
	Retry ghtransport.RetryOptions
	// PaceMinute is how long the write pacer's minute lasts (zero: a minute); tests
	// shorten it.
	PaceMinute time.Duration
	// Stdout takes the workflow commands (::error::); Stderr the log.
	Stdout, Stderr io.Writer
}

// Exit codes of Run.
const (
	ExitOK     = 0
	ExitFailed = 1
	// ExitRefused is a run that could not start: a setting missing or wrong.
	ExitRefused = 2
)

// errBudget is the run's request budget spent.
var errBudget = errors.New("request budget of this run spent")

// Outcome is what one run did, for the summary and the tests.
type Outcome struct {
	// What names the event and what it was about ("issue_comment on o/r#12").
	What string
	// Requests and Writes count the requests made and those that were not reads.
	Requests, Writes int
	// Issues counts the issues a scheduled run visited; Deferred those its budget left;
	// Unchanged those it left unread, as its sweep index knew them, with nothing due.
	Issues, Deferred, Unchanged int
	// Note says why nothing was done, when nothing was.
	Note string
	// Notice is why the run could not be done and need not be: shown as a notice, exit 0.
	Notice string
	Err    error
}

// Run applies the event a workflow step was started for, and returns the process's exit
// code, having written an ::error:: annotation and the step's summary.
func Run(ctx context.Context, env Env, opts Options) int {
	out := run(ctx, env, opts)
	out.Err = reachHint(env.APIURL, out.Err)
	return report(env, opts, out)
}

// Refuse reports a run that cannot start because a setting is wrong (EnvFrom's error), as
// Run reports the other settings: the same ::error:: line and summary, exit ExitRefused.
func Refuse(env Env, opts Options, err error) int {
	return report(env, opts, Outcome{What: env.EventName, Err: err})
}

// readEvent reads the event's payload, naming GITHUB_EVENT_PATH when it cannot.
func readEvent(path string) ([]byte, error) {
	if path == "" {
		return nil, errors.New("GITHUB_EVENT_PATH is not set: the runner sets it to the file holding the event's payload; " +
			"bot action runs as a step of a GitHub Actions workflow")
	}
	payload, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("GITHUB_EVENT_PATH, the event's payload, cannot be read: %w", err)
	}
	if !json.Valid(payload) {
		return nil, fmt.Errorf("GITHUB_EVENT_PATH, the event's payload, is not JSON: %s: the runner writes the webhook payload there; "+
			"a step that sets GITHUB_EVENT_PATH must name such a file", path)
	}
	return payload, nil
}

// reachHint adds to an error that GitHub could not be reached (no such host, connection
// refused or cut) where the run looked for it, as the server's check at start does.
func reachHint(apiURL string, err error) error {
	var op *net.OpError
	var dns *net.DNSError
	if err == nil || !errors.As(err, &op) && !errors.As(err, &dns) {
		return err
	}
	return fmt.Errorf("cannot reach GitHub at %s: check GITHUB_API_URL and the network: %w", apiURL, err)
}

func run(ctx context.Context, env Env, opts Options) Outcome {
	owner, repo, err := env.check()
	if errors.Is(err, errNoKey) && (env.EventName == "pull_request" || env.EventName == "pull_request_target") {
		if env.EventName == "pull_request" && fromFork(env.EventPath) {
			return Outcome{What: env.EventName, Notice: forkNotice}
		}
		return Outcome{What: env.EventName, Notice: sameRepoNotice}
	}
	if err != nil {
		return Outcome{What: env.EventName, Err: err}
	}
	if env.MirrorOnly && env.EventName != "repository_dispatch" {
		return Outcome{What: env.EventName, Note: "Nothing to do: with mirror-only, a run writes the mirror of a " +
			"repository_dispatch and nothing else; the job in the issue's concurrency group takes " + env.EventName + "."}
	}
	r := newRunner(env, opts)
	if sweeps(env.EventName) {
		return r.sweep(ctx, owner, repo)
	}
	h, ok := r.handlers[env.EventName]
	if !ok {
		return Outcome{What: env.EventName, Note: fmt.Sprintf("Clarify takes no %s events: nothing to do. "+
			"Run it on issue_comment, issues, pull_request (or pull_request_target), repository_dispatch, schedule and workflow_dispatch.", env.EventName)}
	}
	payload, err := readEvent(env.EventPath)
	if err != nil {
		return Outcome{What: env.EventName, Err: err}
	}
	out := Outcome{What: describe(env.EventName, owner, repo, payload)}
	out.Err = handlers.RunAgain(ctx, func() error {
		return h.Handle(r.ctx(ctx), env.EventName, r.deliveryID(payload), payload)
	})
	r.base.FlushDashboards(r.ctx(ctx))
	return r.finish(out)
}

// runner is one run's handlers and client, and what it spent.
type runner struct {
	env      Env
	base     *handlers.Base
	handlers map[string]githubapp.EventHandler
	clients  tokenClients
	count    *counter
	logger   zerolog.Logger
}

func newRunner(env Env, opts Options) *runner {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	stderr := opts.Stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	count := &counter{budget: int64(env.Budget)}
	cc := githubapp.NewClientCreator(env.APIURL, graphqlURL(env.APIURL), 0, nil,
		githubapp.WithClientUserAgent("clarify-action"),
		githubapp.WithClientTimeout(2*time.Minute),
		// As the App's: retries outermost, so that every attempt is counted and paced.
		githubapp.WithClientMiddleware(ghtransport.RetryTransient(opts.Retry), count.middleware, (&ghtransport.Pacer{Minute: opts.PaceMinute}).Middleware()))
	clients := tokenClients{ClientCreator: cc, token: env.Token}
	// No lock is shared with other runs: runs of different issues write the repository's
	// decisions and dashboard at once, and the scheduled run, in a concurrency group of its
	// own, may run an issue while an event's run does; the workflow's group holds an issue's
	// event runs to one at a time, so only the scheduled run checks the issue's saves.
	base := handlers.NewBase(handlers.Options{Clients: clients, AppSlug: env.BotSlug, LedgerKey: []byte(env.LedgerKey), Now: now,
		Mode:        handlers.WorkflowRun(sweeps(env.EventName), env.Checks, env.MirrorOnly),
		SettleDelay: opts.SettleDelay, OneRepo: env.BotSlug == wire.ActionsSlug})
	return &runner{
		env: env, base: base, clients: clients, count: count,
		logger: zerolog.New(stderr).Level(env.LogLevel).With().Timestamp().Str("run", env.RunID).Logger(),
		handlers: map[string]githubapp.EventHandler{
			"issue_comment": &handlers.IssueComment{Base: base},
			"issues":        &handlers.Issues{Base: base},
			"pull_request":  &handlers.PullRequest{Base: base},
			// The same payload, run with the base repository's secrets and token, for a fork's
			// pull request too: Clarify only reads a pull request, never checks out its code.
			"pull_request_target": &handlers.PullRequest{Base: base},
			"repository_dispatch": &handlers.Dispatch{Base: base},
		},
	}
}

// sweep is a scheduled run: the sweep of its repository (sweep.Repository).
func (r *runner) sweep(ctx context.Context, owner, repo string) Outcome {
	out := Outcome{What: fmt.Sprintf("%s sweep of %s/%s", r.env.EventName, owner, repo)}
	ctx = ghtransport.WithInstallation(r.ctx(ctx), 0)
	client, err := r.clients.NewInstallationClient(0)
	if err == nil {
		s := &sweep.Repository{Base: r.base, RunNumber: r.env.RunNumber, Spent: r.count.all.Load, Budget: r.count.budget}
		var st sweep.RepoStats
		st, err = s.Run(ctx, client, owner, repo)
		out.Issues, out.Deferred, out.Unchanged = st.Issues, st.Deferred, st.Unchanged
		r.base.FlushDashboards(ctx)
	}
	out.Err = err
	out = r.finish(out)
	switch {
	case out.Err == nil && out.Issues == 0 && out.Unchanged > 0:
		out.Note = fmt.Sprintf("Nothing to do: the %d issues with open clarifications are unchanged since the last scheduled run, and none is due.", out.Unchanged)
	case out.Err == nil && out.Issues == 0:
		out.Note = "Nothing to do: no issue has an open clarification or a command no run applied."
	}
	return out
}

// sweeps says whether a run of event is the repository's sweep (a scheduled or manual run)
// rather than an event's run of one issue.
func sweeps(event string) bool { return event == "schedule" || event == "workflow_dispatch" }

func (r *runner) ctx(ctx context.Context) context.Context { return r.logger.WithContext(ctx) }

// deliveryID stands where the App has the delivery's GUID, which a redelivery keeps: the
// run's id, which a re-run of the run keeps too (a new attempt), so that a command sent
// through repository_dispatch is mirrored once however often its run is re-run. Outside a
// workflow (no GITHUB_RUN_ID) the payload's digest stands for it.
func (r *runner) deliveryID(payload []byte) string {
	if r.env.RunID != "" {
		return "run-" + r.env.RunID
	}
	sum := sha256.Sum256(payload)
	return "event-" + hex.EncodeToString(sum[:12])
}

func (r *runner) finish(out Outcome) Outcome {
	out.Requests, out.Writes = int(r.count.all.Load()), int(r.count.writes.Load())
	if out.Err == nil && out.Writes == 0 {
		out.Note = "Nothing to do: nothing called for a change."
	}
	return out
}

// tokenClients hands every handler the workflow's token client: there is no installation
// and no App key in a workflow.
type tokenClients struct {
	githubapp.ClientCreator
	token string
}

// NewInstallationClient returns the token's client, whatever installation the payload
// names (none: a workflow's payload carries no installation).
func (t tokenClients) NewInstallationClient(int64) (*github.Client, error) {
	return t.NewTokenClient(t.token)
}

// NewAppClient refuses: a workflow has no App credentials.
func (t tokenClients) NewAppClient() (*github.Client, error) {
	return nil, errors.New("a workflow has no GitHub App credentials")
}

// counter counts a run's requests and refuses those past its budget.
type counter struct {
	budget      int64
	all, writes atomic.Int64
}

func (c *counter) middleware(next http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		if c.budget > 0 && c.all.Load() >= c.budget {
			return nil, fmt.Errorf("%s %s: %w (%d requests)", req.Method, req.URL.Path, errBudget, c.budget)
		}
		c.all.Add(1)
		if req.Method != http.MethodGet && req.Method != http.MethodHead {
			c.writes.Add(1)
		}
		return next.RoundTrip(req)
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

// RoundTrip calls the function.
func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// graphqlURL is the GraphQL endpoint beside a REST API URL (unused by Clarify, but the
// client creator wants one): api.github.com/graphql, or HOST/api/graphql on GHES.
func graphqlURL(api string) string {
	api = strings.TrimSuffix(api, "/")
	if strings.HasSuffix(api, "/api/v3") {
		return strings.TrimSuffix(api, "/v3") + "/graphql"
	}
	return api + "/graphql"
}

// forkNotice is the answer to a fork's pull_request run, which GitHub starts without the
// repository's secrets: the key is missing by design, not by the maintainer's mistake.
const forkNotice = "a pull request from a fork: GitHub passes no secrets (CLARIFY_LEDGER_KEY) to its run, so " +
	"this run does nothing; its check comes from the next run that has the key (a comment on the pull request " +
	"or an issue it links, or the scheduled run)."

// sameRepoNotice is the answer to a pull_request run from a branch of the repository
// itself without the key: Dependabot's runs get no Actions secrets, only Dependabot's.
const sameRepoNotice = "a pull request run without CLARIFY_LEDGER_KEY, so this run does nothing. Runs that Dependabot " +
	"starts get no Actions secrets (only Dependabot secrets: add CLARIFY_LEDGER_KEY there too for their checks); " +
	"any other means the repository has no CLARIFY_LEDGER_KEY secret (Settings → Secrets and variables → Actions). " +
	"The check comes from the next run that has the key (a comment on the pull request or an issue it links, or the scheduled run)."

// fromFork says whether a pull_request payload's head branch lives in another repository
// than its base (a fork). A payload that does not decode is not a fork's: the key is asked for.
func fromFork(path string) bool {
	raw, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	type repoOf struct {
		Repo struct {
			FullName string `json:"full_name"`
		} `json:"repo"`
	}
	var p struct {
		PullRequest struct {
			Head repoOf `json:"head"`
			Base repoOf `json:"base"`
		} `json:"pull_request"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return false
	}
	head, base := p.PullRequest.Head.Repo.FullName, p.PullRequest.Base.Repo.FullName
	// A head repository deleted since is null: still not the base's.
	return base != "" && !strings.EqualFold(head, base)
}

// describe names the event and its issue for the summary.
func describe(event, owner, repo string, payload []byte) string {
	var p struct {
		Action string `json:"action"`
	}
	_ = json.Unmarshal(payload, &p) // a payload that does not decode is the handler's to refuse
	what := event
	if p.Action != "" {
		what += "." + p.Action
	}
	if n := handlers.EventIssue(payload); n > 0 {
		return fmt.Sprintf("%s on %s/%s#%d", what, owner, repo, n)
	}
	return fmt.Sprintf("%s on %s/%s", what, owner, repo)
}
