package appissues

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// The dashboard is one issue of the app's, opted into with `dashboard: true`, that lists
// the repository's open clarifications and decisions in force. It is found by the number
// the label DashboardLabel stores, never by search or title (search lags minutes behind,
// and a title anyone can copy). Runs note what changed; the sweep writes each noted
// repository's dashboard once, so a burst of events in a minute costs one edit, and an
// unchanged body none. A dashboard a person closed stays closed until someone reopens it
// (the most common complaint about Renovate's is that it reopens); one deleted is
// recreated once, and deleted again it is taken as a no.

// DashboardLabel is the label whose description names the repository's dashboard issue.
const DashboardLabel = "clarify:dashboard"

// dashboardKind names the dashboard in its label's mark.
const dashboardKind = "dashboard"

// The marks the label's description carries after the number.
const (
	dashboardRecreated = " (recreated)"
	dashboardOff       = "Clarify's dashboard: off, deleted twice"
)

// dashboards holds, per repository, the issues whose open clarifications changed since
// its dashboard was last written.
type dashboards struct {
	mu      sync.Mutex
	pending map[string]*dashPending
}

type dashPending struct {
	client      *github.Client
	owner, repo string
	issues      map[int][]render.DashRow
}

// NoteDashboard remembers an issue's open clarifications for its repository's dashboard,
// when the run changed them or the decisions.
func (k *Keeper) NoteDashboard(client *github.Client, ref clarify.IssueRef, on bool, before, saved clarify.Ledger, effects []clarify.Effect) {
	rows := render.DashRows(saved)
	superseded := slices.ContainsFunc(effects, func(e clarify.Effect) bool { return e.Kind == clarify.EffectSupersede })
	if !on || (slices.Equal(rows, render.DashRows(before)) && !superseded) {
		return
	}
	k.dash.mu.Lock()
	defer k.dash.mu.Unlock()
	if k.dash.pending == nil {
		k.dash.pending = map[string]*dashPending{}
	}
	key := ref.Owner + "/" + ref.Repo
	p := k.dash.pending[key]
	if p == nil {
		p = &dashPending{owner: ref.Owner, repo: ref.Repo, issues: map[int][]render.DashRow{}}
		k.dash.pending[key] = p
	}
	p.client = client
	p.issues[ref.Number] = rows
}

// FlushDashboards writes the dashboard of every repository noted since the last flush; a
// repository whose write fails is noted again for the next.
func (k *Keeper) FlushDashboards(ctx context.Context) {
	k.dash.mu.Lock()
	pending := k.dash.pending
	k.dash.pending = nil
	k.dash.mu.Unlock()
	for _, p := range pending {
		if err := k.flushDashboard(ctx, p); err != nil {
			zerolog.Ctx(ctx).Error().Err(err).Str("repository", p.owner+"/"+p.repo).Msg("Dashboard not updated")
			k.dash.mu.Lock()
			if k.dash.pending == nil {
				k.dash.pending = map[string]*dashPending{}
			}
			if k.dash.pending[p.owner+"/"+p.repo] == nil {
				k.dash.pending[p.owner+"/"+p.repo] = p
			}
			k.dash.mu.Unlock()
		}
	}
}

// flushDashboard renders one repository's dashboard and writes it when it changed. With
// ReadBack (workflow runs of different issues at once, each writing the dashboard from its
// own read), it reads its write back after Settle and writes again when
// another run's write dropped this one's rows.
func (k *Keeper) flushDashboard(ctx context.Context, p *dashPending) error {
	for try := 1; ; try++ {
		n, err := k.writeDashboard(ctx, p)
		switch {
		case errors.Is(err, errDashboardMoved) && try < k.cfg.Attempts:
			continue
		case err != nil || n == 0 || !k.cfg.ReadBack:
			return err
		}
		if kept, err := k.dashboardKept(ctx, p, n); err != nil || kept {
			return err
		}
		if try == k.cfg.Attempts {
			return fmt.Errorf("the dashboard of %s/%s was overwritten %d times by other runs", p.owner, p.repo, try)
		}
		zerolog.Ctx(ctx).Warn().Int("issue", n).Msg("Another run wrote the dashboard from the same read; writing it again")
	}
}

// writeDashboard renders the dashboard and writes it when it changed; it returns the
// dashboard issue it edited (0 when it edited none).
func (k *Keeper) writeDashboard(ctx context.Context, p *dashPending) (int, error) {
	is, desc, stop, err := k.findDashboard(ctx, p.client, p.owner, p.repo)
	if err != nil || stop {
		return 0, err
	}
	key := k.dashboardKey(p.owner, p.repo)
	var state render.Dashboard
	if is != nil {
		// A body edited by hand no longer verifies: the state starts again from what
		// this flush knows, and each issue's next run puts its rows back.
		state, _ = render.DecodeDashboard(is.GetBody(), key)
	}
	for n, rows := range p.issues {
		state.Put(n, rows)
	}
	book, err := k.cfg.Decisions(ctx, p.client, p.owner, p.repo)
	if err != nil {
		return 0, err
	}
	body, err := render.DashboardBody(state, book.Memory.InForceNewestFirst(), key)
	if err != nil {
		return 0, err
	}
	if is == nil {
		// Made with the rows in it; a twin made at the same moment is settled there.
		return 0, k.createDashboard(ctx, p.client, p.owner, p.repo, body, desc != "")
	}
	if is.GetBody() == body {
		return 0, nil
	}
	_, _, err = p.client.Issues.Edit(ctx, p.owner, p.repo, is.GetNumber(), &github.IssueRequest{Body: &body})
	if err != nil {
		return 0, fmt.Errorf("edit the dashboard of %s/%s: %w", p.owner, p.repo, err)
	}
	return is.GetNumber(), nil
}

// dashboardKept reads dashboard issue n back Settle after this run wrote it, and says
// whether it still shows the rows this run wrote. A failed read takes the write as standing.
func (k *Keeper) dashboardKept(ctx context.Context, p *dashPending, n int) (bool, error) {
	if err := ghtransport.Sleep(ctx, k.cfg.Settle()); err != nil {
		return false, err
	}
	is, _, err := p.client.Issues.Get(ctx, p.owner, p.repo, n)
	if err != nil {
		zerolog.Ctx(ctx).Warn().Err(err).Int("issue", n).Msg("Could not read the dashboard back; taking the write as standing")
		return true, nil
	}
	state, err := render.DecodeDashboard(is.GetBody(), k.dashboardKey(p.owner, p.repo))
	if err != nil {
		return false, nil
	}
	for issue, rows := range p.issues {
		if !render.SameRows(state.Of(issue), rows) {
			return false, nil
		}
	}
	return true, nil
}

// findDashboard returns the dashboard issue to edit; nil and stop false when one must be
// created (desc is then the label's description, "" when there is no label); stop when
// the repository's people closed it, or deleted it twice.
func (k *Keeper) findDashboard(ctx context.Context, client *github.Client, owner, repo string) (is *github.Issue, desc string, stop bool, err error) {
	label, _, err := client.Issues.GetLabel(ctx, owner, repo, DashboardLabel)
	if ghtransport.IsStatus(err, http.StatusNotFound) {
		return nil, "", false, nil
	}
	if err != nil {
		return nil, "", false, fmt.Errorf("read label %s of %s/%s: %w", DashboardLabel, owner, repo, err)
	}
	desc = label.GetDescription()
	m := ledger.IssueNumberIn.FindStringSubmatch(desc)
	if desc == dashboardOff || m == nil {
		return nil, desc, desc == dashboardOff, nil
	}
	n, _ := strconv.Atoi(m[1])
	is, _, err = client.Issues.Get(ctx, owner, repo, n)
	switch {
	case ledger.Gone(err) && strings.HasSuffix(desc, dashboardRecreated):
		off := dashboardOff
		_, _, err := client.Issues.EditLabel(ctx, owner, repo, DashboardLabel, &github.Label{Description: &off})
		return nil, desc, true, err
	case ledger.Gone(err):
		return nil, desc, false, nil
	case err != nil:
		return nil, desc, false, fmt.Errorf("read the dashboard of %s/%s: %w", owner, repo, err)
	case !k.ownDashboard(owner, repo, is, desc):
		// Someone else's issue: never written into. A new dashboard is made, as if none
		// had been, and the label is pointed at it.
		zerolog.Ctx(ctx).Warn().Int("issue", n).Str("label", DashboardLabel).
			Msg("The label names an issue that is not provably the app's; it is left alone, and a dashboard of the app's is made")
		return nil, "", false, nil
	case is.GetState() == "closed":
		return nil, desc, true, nil // the app never closes it: a person did
	case !k.cfg.Reader().Marked(owner, repo, dashboardKind, n, desc):
		// Proven the app's by its body: the label is given the mark, so that the next
		// flush takes the issue for the app's without that proof.
		var recreated string
		if strings.HasSuffix(desc, dashboardRecreated) {
			recreated = dashboardRecreated
		}
		desc, err = k.MarkLabel(ctx, client, clarify.IssueRef{Owner: owner, Repo: repo, Number: n}, DashboardLabel, dashboardKind, recreated)
	}
	return is, desc, false, err
}

// dashboardKey is the key that signs a repository's dashboard state (the key of its issue 0:
// the state is the repository's, whichever issue holds it).
func (k *Keeper) dashboardKey(owner, repo string) []byte {
	return ledger.IssueLedgerKey(k.cfg.Reader().Keys.Current, owner, repo, 0)
}

// ownDashboard reports whether is, named by the label's description desc, is provably the
// app's dashboard (ownIssue): the label's mark, or a body the app signed.
func (k *Keeper) ownDashboard(owner, repo string, is *github.Issue, desc string) bool {
	signed := k.cfg.Reader().Marked(owner, repo, dashboardKind, is.GetNumber(), desc)
	if !signed {
		_, err := render.DecodeDashboard(is.GetBody(), k.dashboardKey(owner, repo))
		signed = err == nil
	}
	return k.cfg.Reader().OwnIssue(is, signed)
}

// createDashboard opens the dashboard issue with its body and stores its number. When
// another run made one at the same moment, that one stands: ours is marked unused, and
// errDashboardMoved says to write into theirs.
func (k *Keeper) createDashboard(ctx context.Context, client *github.Client, owner, repo, body string, recreated bool) error {
	title := render.DashboardTitle
	is, _, err := client.Issues.Create(ctx, owner, repo, &github.IssueRequest{Title: &title, Body: &body})
	if err != nil {
		return fmt.Errorf("create the dashboard of %s/%s: %w", owner, repo, err)
	}
	n := is.GetNumber()
	desc := k.Label(clarify.IssueRef{Owner: owner, Repo: repo, Number: n}, dashboardKind)
	if recreated {
		desc += dashboardRecreated
	}
	stands, err := ClaimLabel(ctx, client, owner, repo, DashboardLabel, desc, n, func(other int, desc string) (bool, error) {
		is, _, err := client.Issues.Get(ctx, owner, repo, other)
		if ledger.Gone(err) {
			return false, nil
		}
		return err == nil && k.ownDashboard(owner, repo, is, desc) && is.GetState() == "open", err
	})
	if err != nil || stands == n {
		return err
	}
	MarkUnused(ctx, client, owner, repo, n, fmt.Sprintf("Clarify: unused (the dashboard of this repository is #%d)", stands))
	return errDashboardMoved
}

// errDashboardMoved says the dashboard was made or written by another run meanwhile.
var errDashboardMoved = errors.New("the dashboard was written by another run meanwhile")
