package action

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"

	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/wire"
)

// DefaultBudget is the most requests one run may make. GITHUB_TOKEN has 1,000 an hour per
// repository, shared with every other workflow: a run that needs more stops, says so and
// fails, rather than spend what the other workflows need.
const DefaultBudget = 300

// MinLedgerKey is the shortest CLARIFY_LEDGER_KEY accepted, in bytes: a shorter secret
// could be guessed, and with it anyone could write a ledger the app trusts.
const MinLedgerKey = 32

// Env is what a workflow step hands `bot action`.
type Env struct {
	// EventName and EventPath are GITHUB_EVENT_NAME and GITHUB_EVENT_PATH: the event and
	// the file holding its webhook payload (with no installation in it).
	EventName, EventPath string
	// Repository is GITHUB_REPOSITORY, OWNER/REPO: a schedule's payload names none.
	Repository string
	// APIURL is GITHUB_API_URL; Token is GITHUB_TOKEN (or an App token put there).
	APIURL, Token string
	// LedgerKey is CLARIFY_LEDGER_KEY, the MAC key of the hidden ledger.
	LedgerKey string
	// StepSummary is GITHUB_STEP_SUMMARY, the file the run's summary is appended to.
	StepSummary string
	// RunID and RunAttempt name the run in the logs, as the delivery id does in the App.
	RunID, RunAttempt string
	// RunNumber turns where a scheduled run starts when its budget cannot cover every
	// issue, so that every issue gets its turn.
	RunNumber int
	// BotSlug is CLARIFY_APP_SLUG: whose comments are the app's own, "<slug>[bot]";
	// github-actions by default, the App's slug with an App token.
	BotSlug string
	// Budget is CLARIFY_ACTION_BUDGET, the most requests this run may make.
	Budget int
	// Checks is CLARIFY_CHECKS=true: pull requests linking an issue with a blocking
	// clarification get a failing check run, which needs `checks: write` in the workflow.
	Checks bool
	// LogLevel is CLARIFY_LOG_LEVEL's: info unless set (debug shows every decision).
	LogLevel zerolog.Level
	// MirrorOnly is CLARIFY_MIRROR_ONLY=true: a repository_dispatch's run writes the
	// command's mirror and nothing else (handlers.WorkflowRun's mirrorOnly), in the job that
	// docs/workflow.yml runs outside the concurrency group.
	MirrorOnly bool
}

// EnvFrom reads the Env from the environment through getenv (os.Getenv).
func EnvFrom(getenv func(string) string) (Env, error) {
	e := Env{
		EventName: getenv("GITHUB_EVENT_NAME"), EventPath: getenv("GITHUB_EVENT_PATH"),
		Repository: getenv("GITHUB_REPOSITORY"), APIURL: getenv("GITHUB_API_URL"), Token: getenv("GITHUB_TOKEN"),
		LedgerKey: getenv("CLARIFY_LEDGER_KEY"), StepSummary: getenv("GITHUB_STEP_SUMMARY"),
		RunID: getenv("GITHUB_RUN_ID"), RunAttempt: getenv("GITHUB_RUN_ATTEMPT"), BotSlug: getenv("CLARIFY_APP_SLUG"),
		Budget: DefaultBudget,
	}
	if e.APIURL == "" {
		e.APIURL = ghtransport.DefaultAPIURL
	}
	if e.BotSlug == "" {
		e.BotSlug = wire.ActionsSlug
	}
	if !handlers.IsSlug(e.BotSlug) {
		return e, fmt.Errorf("CLARIFY_APP_SLUG (the action's app-slug input) is %q, not a slug: write it as in the app's URL, "+
			"github.com/apps/SLUG, without [bot]; with the workflow's GITHUB_TOKEN leave it out (github-actions)", e.BotSlug)
	}
	var ok bool
	if e.LogLevel, ok = app.LogLevel(getenv("CLARIFY_LOG_LEVEL")); !ok {
		return e, fmt.Errorf("CLARIFY_LOG_LEVEL is %q, not a level: write debug, info, warn or error", getenv("CLARIFY_LOG_LEVEL"))
	}
	e.RunNumber, _ = strconv.Atoi(getenv("GITHUB_RUN_NUMBER"))
	if e.Checks, ok = trueOrFalse(getenv("CLARIFY_CHECKS")); !ok {
		return e, fmt.Errorf("CLARIFY_CHECKS is %q: write true or false", getenv("CLARIFY_CHECKS"))
	}
	if e.MirrorOnly, ok = trueOrFalse(getenv("CLARIFY_MIRROR_ONLY")); !ok {
		return e, fmt.Errorf("CLARIFY_MIRROR_ONLY is %q: write true or false", getenv("CLARIFY_MIRROR_ONLY"))
	}
	if v := getenv("CLARIFY_ACTION_BUDGET"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return e, fmt.Errorf("CLARIFY_ACTION_BUDGET is %q: write a whole number of requests, 1 or more", v)
		}
		e.Budget = n
	}
	return e, nil
}

// trueOrFalse reads a switch of the action's inputs: "true", or "false" and unset for off.
func trueOrFalse(v string) (on, ok bool) {
	switch v {
	case "", "false":
		return false, true
	case "true":
		return true, true
	}
	return false, false
}

// OSEnv is EnvFrom(os.Getenv).
func OSEnv() (Env, error) { return EnvFrom(os.Getenv) }

// errNoKey is the refusal of a run without CLARIFY_LEDGER_KEY: it says how to add it.
var errNoKey = errors.New("CLARIFY_LEDGER_KEY is not set, so this run refuses to write: a ledger it signed " +
	"with no key (or a guessable one) could be forged by anyone who can comment. Make one and store it as the " +
	"repository secret, listing its public key for agents: `bot key new -config .github/clarify.yml | gh secret set " +
	"CLARIFY_LEDGER_KEY` (commit .github/clarify.yml), and pass it to the step: " +
	"`with: {ledger-key: ${{ secrets.CLARIFY_LEDGER_KEY }}}` for the action, or " +
	"`env: {CLARIFY_LEDGER_KEY: ${{ secrets.CLARIFY_LEDGER_KEY }}}` for `bot action` run directly")

// check says what is missing for a run, before any request.
func (e Env) check() (owner, repo string, err error) {
	switch u, perr := url.Parse(e.APIURL); {
	case perr != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
		return "", "", fmt.Errorf("GITHUB_API_URL is %q, not a URL such as https://api.github.com "+
			"(or https://HOST/api/v3 on GitHub Enterprise Server): the runner sets it; a step that sets it must give a whole URL", e.APIURL)
	case e.LedgerKey == "":
		return "", "", errNoKey
	case len(e.LedgerKey) < MinLedgerKey:
		return "", "", fmt.Errorf("CLARIFY_LEDGER_KEY has %d characters, fewer than %d: a short key can be guessed; "+
			"set the secret to a random value of at least %d characters (`bot key new -config .github/clarify.yml | gh secret set CLARIFY_LEDGER_KEY`)", len(e.LedgerKey), MinLedgerKey, MinLedgerKey)
	case e.Token == "":
		return "", "", errors.New("GITHUB_TOKEN is not set: pass it to the step, `env: {GITHUB_TOKEN: ${{ github.token }}}`")
	case e.EventName == "":
		return "", "", errors.New("GITHUB_EVENT_NAME is not set: bot action runs as a step of a GitHub Actions workflow")
	case e.Repository == "":
		return "", "", errors.New("GITHUB_REPOSITORY is not set: the runner sets it to OWNER/REPO; bot action runs as a step of a GitHub Actions workflow")
	}
	owner, repo, ok := clarify.ParseRepo(e.Repository)
	if !ok {
		return "", "", fmt.Errorf("GITHUB_REPOSITORY is %q, not OWNER/REPO", e.Repository)
	}
	return owner, repo, nil
}
