package appissues

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
)

// The app keeps two issues of its own in a repository, the decision memory and the
// dashboard, each named by a label whose description holds its number ("… issue #N").
// This file is how a new one is made the one the label names, and the one rule of when
// the app follows a label: only to an issue that is provably its own. Anyone who may edit
// labels (or a label-sync workflow) can point one at a person's issue or at another
// workflow's, which in bot action is written by the same github-actions[bot]; following it
// there, the app would post its memory into that issue or overwrite its body.

// Keeper keeps the app's own issues of each repository: which issue a label names, and
// the dashboard.
type Keeper struct {
	cfg  Config
	dash dashboards
}

// Config is what the app's issues need of the engine.
type Config struct {
	// Reader reads the app's issues under its keys.
	Reader func() ledger.Reader
	// Decisions reads a repository's decision memory, for the dashboard's decisions in force.
	Decisions func(ctx context.Context, client *github.Client, owner, repo string) (ledger.MemoryBook, error)
	// ReadBack says runs beside this one may overwrite its writes: each is read back
	// Settle() after it, and made again at most Attempts times in all.
	ReadBack bool
	Settle   func() time.Duration
	Attempts int
}

// New returns the keeper of the app's issues.
func New(cfg Config) *Keeper { return &Keeper{cfg: cfg} }

// appIssueWhat says what each kind of the app's issues is, in its label's description.
var appIssueWhat = map[string]string{ledger.DecisionsKind: "Clarify's decision memory", dashboardKind: "Clarify's dashboard"}

// Label is the description of the label that names ref's issue as the app's issue
// of kind: what it is, its number, and its mark.
func (k *Keeper) Label(ref clarify.IssueRef, kind string) string {
	return fmt.Sprintf("%s: issue #%d · mark %s", appIssueWhat[kind], ref.Number, k.cfg.Reader().Keys.Issue(ref.Owner, ref.Repo, ref.Number).AppIssueMark(kind))
}

// MarkLabel gives label name, which names ref's issue, proven the app's issue of kind by
// reading it, the issue's mark (a label made before marks, or edited, lacks it), followed
// by suffix: the next read of the label needs no proof from the issue. It returns the
// label's new description.
func (k *Keeper) MarkLabel(ctx context.Context, client *github.Client, ref clarify.IssueRef, name, kind, suffix string) (string, error) {
	desc := k.Label(ref, kind) + suffix
	if _, _, err := client.Issues.EditLabel(ctx, ref.Owner, ref.Repo, name, &github.Label{Description: &desc}); err != nil {
		return "", fmt.Errorf("mark label %s of %s/%s: %w", name, ref.Owner, ref.Repo, err)
	}
	return desc, nil
}

// ClaimLabel makes label name, created the first time, name issue n (desc says so), an
// issue of the app's this run just made, and returns the issue the label names after. A
// label already there names either an issue that is gone or was switched off (it is pointed
// at n), or one that another run made at the same moment (two workflow runs of different
// issues, both first to need it): alive says so, and then that one stands and is returned,
// so that every run writes into the one issue the label names.
func ClaimLabel(ctx context.Context, client *github.Client, owner, repo, name, desc string, n int, alive func(other int, desc string) (bool, error)) (int, error) {
	color := "ededed"
	_, _, err := client.Issues.CreateLabel(ctx, owner, repo, &github.Label{Name: &name, Color: &color, Description: &desc})
	if err == nil {
		return n, nil
	}
	if !ghtransport.IsStatus(err, http.StatusUnprocessableEntity) {
		return 0, fmt.Errorf("store the number of issue #%d in label %s of %s/%s: %w", n, name, owner, repo, err)
	}
	label, _, err := client.Issues.GetLabel(ctx, owner, repo, name)
	if err != nil {
		return 0, fmt.Errorf("read label %s of %s/%s: %w", name, owner, repo, err)
	}
	if m := ledger.IssueNumberIn.FindStringSubmatch(label.GetDescription()); m != nil {
		if other, _ := strconv.Atoi(m[1]); other != n {
			ok, err := alive(other, label.GetDescription())
			if err != nil || ok {
				return other, err
			}
		}
	}
	if _, _, err := client.Issues.EditLabel(ctx, owner, repo, name, &github.Label{Description: &desc}); err != nil {
		return 0, fmt.Errorf("store the number of issue #%d in label %s of %s/%s: %w", n, name, owner, repo, err)
	}
	return n, nil
}

// MarkUnused retitles (and closes) issue n, which the app made but another run's issue
// stood in for, so that nobody takes it for the one in use. Best effort: it holds nothing.
func MarkUnused(ctx context.Context, client *github.Client, owner, repo string, n int, title string) {
	closed, reason := "closed", "not_planned"
	if _, _, err := client.Issues.Edit(ctx, owner, repo, n, &github.IssueRequest{Title: &title, State: &closed, StateReason: &reason}); err != nil {
		zerolog.Ctx(ctx).Warn().Err(err).Int("issue", n).Msg("Could not mark an unused issue of the app's so")
	}
}
