package handlers

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/labels"
	"github.com/clarify-app/clarify/repoconfig"
)

// The run's side of the app's labels: what an issue carries now, and what this process
// remembers setting. Which labels an issue should carry is package labels'.

// hasOurLabel reports whether an issue carries one of the repository's Clarify labels.
func (b *Base) hasOurLabel(owner, repo string, on []*github.Label) bool {
	names := b.configs.Labels(owner, repo)
	return slices.ContainsFunc(on, func(lb *github.Label) bool {
		n := lb.GetName()
		return n == names.Active || n == names.Stale || n == names.Escalated
	})
}

// currentLabels returns the labels the issue carries as far as the run can tell. The
// payload says, unless it predates an earlier run's labelling: a comment the ledger had
// already applied before this run (a redelivery, a replay, a run that lost the race to a
// sibling) comes with the labels of the moment it was written, and trusting them would put
// on again a label that is on, or take off again one already gone. Then what this process
// last set stands, and a process that set nothing here (a restart, another replica) reads
// the issue's labels: a read, where a stale payload would cost a write.
func (run *issueRun) currentLabels(ctx context.Context, before clarify.Ledger) ([]*github.Label, error) {
	stale := run.trig.Kind == triggerComment && run.trig.Comment != nil && run.trig.Comment.GetID() <= before.Cursor
	if !stale {
		return labelsOn(run.trig.Issue), nil
	}
	if names, ok := run.labelsSet.Known(run.ref.String()); ok {
		out := make([]*github.Label, 0, len(names))
		for _, n := range names {
			out = append(out, &github.Label{Name: github.String(n)})
		}
		return out, nil
	}
	return labels.Read(ctx, run.client, run.ref)
}

// labelsOn returns the labels an issue carries, none for no issue.
func labelsOn(issue *github.Issue) []*github.Label {
	if issue == nil {
		return nil
	}
	return issue.Labels
}

// ColourLabels gives Clarify's colour and description to those of the repository's three
// labels (names) that the issues of a sweep's listing show as GitHub made them on first
// use: its grey, no description. The listing carries each label's colour and description,
// so the sweeps see them at no extra read, and a run adding a label spends nothing on it:
// looking each label up would cost a request in every fresh process (each workflow run),
// and colouring from the add's answer a write in a repository's first lifecycle. A label
// someone made, coloured or described, stays as they made it. Each label is edited once
// per process: a listing GitHub serves from a replica the edit has not reached yet still
// shows the grey, and a second edit would change nothing. Best effort: a grey label is no
// loss, and a failed edit is tried by the next sweep.
func (b *Base) ColourLabels(ctx context.Context, client *github.Client, owner, repo string, names repoconfig.Labels, issues []*github.Issue) {
	grey := labels.Grey(labels.Of(names), issues)
	for _, name := range slices.Sorted(maps.Keys(grey)) {
		lb := grey[name]
		key := owner + "/" + repo + "\x00" + strings.ToLower(name)
		_, _, err := b.labelsColoured.load(key, func() (bool, bool, error) {
			_, _, err := client.Issues.EditLabel(ctx, owner, repo, name, &github.Label{Color: &lb.Color, Description: &lb.Description})
			return err == nil, err == nil, err
		})
		if err != nil {
			zerolog.Ctx(ctx).Warn().Err(err).Str("label", name).Msg("Label left as GitHub made it; the next sweep colours it")
		}
	}
}

// labelCache remembers the app's own labels as this process last set them on each issue.
type labelCache struct{ m cache[[]string] }

// Known returns the app's own labels as this process last set them on the issue, and
// whether it set them at all.
func (l *labelCache) Known(key string) ([]string, bool) { return l.m.get(key) }

// Put remembers the app's own labels as this process just set them on the issue.
func (l *labelCache) Put(key string, names []string) { l.m.put(key, names) }
