package handlers

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/repoconfig"
)

// Label is one of the labels the app keeps true, with the colour and description it is
// created with when the repository lacks it.
type Label struct {
	Name        string
	Color       string
	Description string
}

// The default labels (docs/config.md, labels).
var (
	DefaultLabelActive    = Label{repoconfig.DefaultLabelActive, "1d76db", "A clarification is open in this issue"}
	DefaultLabelStale     = Label{repoconfig.DefaultLabelStale, "fbca04", "A clarification has waited past its SLA"}
	DefaultLabelEscalated = Label{repoconfig.DefaultLabelEscalated, "d93f0b", "A clarification needs a maintainer's decision"}
)

// labelsOf returns the three labels under the repository's names, with our colours.
func labelsOf(names repoconfig.Labels) [3]Label {
	out := [3]Label{DefaultLabelActive, DefaultLabelStale, DefaultLabelEscalated}
	out[0].Name, out[1].Name, out[2].Name = names.Active, names.Stale, names.Escalated
	return out
}

// hasOurLabel reports whether an issue carries one of the repository's Clarify labels.
func (b *Base) hasOurLabel(owner, repo string, labels []*github.Label) bool {
	names := b.Configs.Labels(owner, repo)
	return slices.ContainsFunc(labels, func(lb *github.Label) bool {
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
func (b *Base) currentLabels(ctx context.Context, client *github.Client, ref clarify.IssueRef, trig trigger, before clarify.Ledger) ([]*github.Label, error) {
	stale := trig.Kind == triggerComment && trig.Comment != nil && trig.Comment.GetID() <= before.Cursor
	if !stale {
		return labelsOn(trig.Issue), nil
	}
	if names, ok := b.labelsSet.known(ref.String()); ok {
		out := make([]*github.Label, 0, len(names))
		for _, n := range names {
			out = append(out, &github.Label{Name: github.String(n)})
		}
		return out, nil
	}
	return readLabels(ctx, client, ref)
}

// readLabels lists the labels the issue carries now.
func readLabels(ctx context.Context, client *github.Client, ref clarify.IssueRef) ([]*github.Label, error) {
	labels, err := ghtransport.AllPages(func(page int) ([]*github.Label, *github.Response, error) {
		return client.Issues.ListLabelsByIssue(ctx, ref.Owner, ref.Repo, ref.Number, &github.ListOptions{PerPage: 100, Page: page})
	})
	if err != nil {
		return nil, fmt.Errorf("list labels of %s: %w", ref.String(), err)
	}
	return labels, nil
}

// doneAlready reports whether this process's last labelling of the issue already did a
// write the plan makes: put on a label it adds, or took off one it removes. A comment typed
// while a run was labelling the issue is delivered with the labels of that moment, after
// the run, and is news to the ledger all the same; its payload then plans the run's write
// again. The issue's labels are read instead: one read rather than a write that changes
// nothing, and a label someone moved by hand since is still put right.
func (b *Base) doneAlready(ref clarify.IssueRef, p labelPlan) bool {
	names, ok := b.labelsSet.known(ref.String())
	if !ok {
		return false
	}
	for _, lb := range p.add {
		if slices.Contains(names, lb.Name) {
			return true
		}
	}
	for _, name := range p.remove {
		if !slices.Contains(names, name) {
			return true
		}
	}
	return false
}

// labelsOn returns the labels an issue carries, none for no issue.
func labelsOn(issue *github.Issue) []*github.Label {
	if issue == nil {
		return nil
	}
	return issue.Labels
}

// labelPlan is what one run does to an issue's labels. It is decided before the save, so
// that the ledger saved records the labels the app puts on without a write of its own.
type labelPlan struct {
	// add are the labels to put on; remove the names to take off.
	add    []Label
	remove []string
	// owned is the ledger's record once the plan is carried out (clarify.Ledger.Labels).
	owned []string
	// set is what labelsSet remembers once the plan is carried out: the app's own labels
	// that are wanted on the issue.
	set []string
}

// planLabels decides how the app's labels on an issue change to match the ledger l,
// starting from the labels the payload reports. A label under a default name
// (clarification:*) is the app's wherever it is. One under a name the repository chose
// (labels: {stale: needs-triage}) may be one people already use, so it is the app's only
// where the ledger records that the app put it on: the app adds it, but never takes off
// one that people put on.
func (b *Base) planLabels(ref clarify.IssueRef, ours [3]Label, current []*github.Label, l clarify.Ledger) labelPlan {
	want := map[string]bool{
		ours[0].Name: len(l.Open()) > 0,
		ours[1].Name: l.HasStatus(clarify.Stale),
		ours[2].Name: l.HasStatus(clarify.Escalated),
	}
	// GitHub compares label names without regard to case.
	have := map[string]bool{}
	for _, lb := range current {
		have[strings.ToLower(lb.GetName())] = true
	}
	// A payload can predate this process's own last labelling of the issue (a close
	// delivered before the ask's run put the label on), so a label set since is removed
	// too when it is no longer wanted; and a ledger rebuilt by this process, which has lost
	// its record, still knows the labels it put on. Adding trusts the payload alone: a
	// label someone took off by hand is put back.
	setSince := map[string]bool{}
	for _, name := range b.labelsSet.get(ref.String()) {
		setSince[name] = true
	}
	var p labelPlan
	for _, lb := range ours {
		st := labelState{want: want[lb.Name], on: have[strings.ToLower(lb.Name)], byDefault: repoconfig.IsDefaultLabel(lb.Name),
			setSince: setSince[lb.Name], recorded: slices.Contains(l.Labels, lb.Name)}
		add, remove, mine := st.move()
		if add {
			p.add = append(p.add, lb)
		}
		if remove {
			p.remove = append(p.remove, lb.Name)
		}
		if st.want && mine {
			p.set = append(p.set, lb.Name)
			if !st.byDefault {
				p.owned = append(p.owned, lb.Name)
			}
		}
	}
	// A label the app put on under a name the repository has since changed is the app's
	// to take off.
	for _, name := range l.Labels {
		if !slices.ContainsFunc(ours[:], func(lb Label) bool { return strings.EqualFold(lb.Name, name) }) {
			p.remove = append(p.remove, name)
		}
	}
	return p
}

// labelState is what decides the change of one of the app's labels on an issue.
type labelState struct {
	// want: the ledger calls for it; on: the payload shows it.
	want, on bool
	// byDefault: under a default name, so the app's wherever it is.
	byDefault bool
	// setSince: this process put it on since; recorded: the ledger records the app put it on.
	setSince, recorded bool
}

// move decides the label: whether to add it, whether to remove it, and whether it is the
// app's once that is done.
func (s labelState) move() (add, remove, mine bool) {
	mine = s.byDefault || s.setSince || s.recorded
	switch {
	case s.want && !s.on:
		return true, false, true
	case s.want || !mine:
		// On already (by the app, or by people, whose label it then stays), or not
		// wanted and not the app's to take off.
		return false, false, mine
	case s.byDefault && !s.setSince && !s.on:
		// Not on, as far as anyone knows: removing it would cost a write for a 404.
		return false, false, mine
	}
	// The app's, and no longer wanted. One the record names is removed even when the
	// payload does not show it: the record is dropped in this run's save.
	return false, true, false
}

// putOnLabels puts on the labels a plan adds, before the run posts: adding is idempotent,
// so a payload older than the last run costs at most a redundant write.
func (b *Base) putOnLabels(ctx context.Context, client *github.Client, ref clarify.IssueRef, p labelPlan) error {
	if len(p.add) == 0 {
		return nil
	}
	add := make([]string, 0, len(p.add))
	for _, lb := range p.add {
		add = append(add, lb.Name)
	}
	// A label GitHub makes on the spot is grey; the sweep colours it (ColourLabels).
	if _, _, err := client.Issues.AddLabelsToIssue(ctx, ref.Owner, ref.Repo, ref.Number, add); err != nil {
		return fmt.Errorf("add labels %v to %s: %w", add, ref.String(), err)
	}
	// Should the run fail before takeOffLabels, the next one here knows what is on.
	b.labelsSet.put(ref.String(), p.set)
	return nil
}

// takeOffLabels takes off the labels a plan removes, after the save: removing a missing
// label is a 404 we accept.
func (b *Base) takeOffLabels(ctx context.Context, client *github.Client, ref clarify.IssueRef, p labelPlan) error {
	for _, name := range p.remove {
		_, err := client.Issues.RemoveLabelForIssue(ctx, ref.Owner, ref.Repo, ref.Number, name)
		if err != nil && !ghtransport.IsStatus(err, http.StatusNotFound) {
			return fmt.Errorf("remove label %q from %s: %w", name, ref.String(), err)
		}
	}
	b.labelsSet.put(ref.String(), p.set)
	return nil
}

// GitHub makes a label that an issue is given before it exists, with this colour and no
// description.
const newLabelColour = "ededed"

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
	grey := greyLabels(labelsOf(names), issues)
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

// greyLabels returns those of ours that the issues carry as GitHub made them on first use,
// by the name GitHub spells them with (it compares names without regard to case).
func greyLabels(ours [3]Label, issues []*github.Issue) map[string]Label {
	out := map[string]Label{}
	for _, is := range issues {
		for _, g := range is.Labels {
			if g.GetDescription() != "" || !strings.EqualFold(g.GetColor(), newLabelColour) {
				// Someone made it, coloured or described: it stays as they made it.
				continue
			}
			if i := slices.IndexFunc(ours[:], func(lb Label) bool { return strings.EqualFold(lb.Name, g.GetName()) }); i >= 0 {
				out[g.GetName()] = ours[i]
			}
		}
	}
	return out
}

// labelMemory remembers the app's own labels as this process last set them on each issue.
type labelMemory struct{ m memory[[]string] }

func (l *labelMemory) get(key string) []string {
	names, _ := l.m.get(key)
	return names
}

// known returns the app's own labels as this process last set them on the issue, and
// whether it set them at all.
func (l *labelMemory) known(key string) ([]string, bool) { return l.m.get(key) }

func (l *labelMemory) put(key string, names []string) { l.m.put(key, names) }
