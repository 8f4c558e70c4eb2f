package labels

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/google/go-github/v60/github"

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

// Of returns the three labels under the repository's names, with our colours.
func Of(names repoconfig.Labels) [3]Label {
	out := [3]Label{DefaultLabelActive, DefaultLabelStale, DefaultLabelEscalated}
	out[0].Name, out[1].Name, out[2].Name = names.Active, names.Stale, names.Escalated
	return out
}

// Read lists the labels the issue carries now.
func Read(ctx context.Context, client *github.Client, ref clarify.IssueRef) ([]*github.Label, error) {
	labels, err := ghtransport.AllPages(func(page int) ([]*github.Label, *github.Response, error) {
		return client.Issues.ListLabelsByIssue(ctx, ref.Owner, ref.Repo, ref.Number, &github.ListOptions{PerPage: 100, Page: page})
	})
	if err != nil {
		return nil, fmt.Errorf("list labels of %s: %w", ref.String(), err)
	}
	return labels, nil
}

// DoneAlready reports whether this process's last labelling of the issue already did a
// write the plan makes: put on a label it adds, or took off one it removes. A comment typed
// while a run was labelling the issue is delivered with the labels of that moment, after
// the run, and is news to the ledger all the same; its payload then plans the run's write
// again. The issue's labels are read instead: one read rather than a write that changes
// nothing, and a label someone moved by hand since is still put right.
func DoneAlready(cache Cache, ref clarify.IssueRef, p Plan) bool {
	names, ok := cache.Known(ref.String())
	if !ok {
		return false
	}
	for _, lb := range p.Add {
		if slices.Contains(names, lb.Name) {
			return true
		}
	}
	for _, name := range p.Remove {
		if !slices.Contains(names, name) {
			return true
		}
	}
	return false
}

// Plan is what one run does to an issue's labels. It is decided before the save, so
// that the ledger saved records the labels the app puts on without a write of its own.
type Plan struct {
	// Add are the labels to put on; Remove the names to take off.
	Add    []Label
	Remove []string
	// Owned is the ledger's record once the plan is carried out (clarify.Ledger.Labels).
	Owned []string
	// Set is what Cache remembers once the plan is carried out: the app's own labels
	// that are wanted on the issue.
	Set []string
}

// Decide decides how the app's labels on an issue change to match the ledger l,
// starting from the labels the payload reports. A label under a default name
// (clarification:*) is the app's wherever it is. One under a name the repository chose
// (labels: {stale: needs-triage}) may be one people already use, so it is the app's only
// where the ledger records that the app put it on: the app adds it, but never takes off
// one that people put on.
func Decide(cache Cache, ref clarify.IssueRef, ours [3]Label, current []*github.Label, l clarify.Ledger) Plan {
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
	set, _ := cache.Known(ref.String())
	for _, name := range set {
		setSince[name] = true
	}
	var p Plan
	for _, lb := range ours {
		st := labelState{want: want[lb.Name], on: have[strings.ToLower(lb.Name)], byDefault: repoconfig.IsDefaultLabel(lb.Name),
			setSince: setSince[lb.Name], recorded: slices.Contains(l.Labels, lb.Name)}
		add, remove, mine := st.move()
		if add {
			p.Add = append(p.Add, lb)
		}
		if remove {
			p.Remove = append(p.Remove, lb.Name)
		}
		if st.want && mine {
			p.Set = append(p.Set, lb.Name)
			if !st.byDefault {
				p.Owned = append(p.Owned, lb.Name)
			}
		}
	}
	// A label the app put on under a name the repository has since changed is the app's
	// to take off.
	for _, name := range l.Labels {
		if !slices.ContainsFunc(ours[:], func(lb Label) bool { return strings.EqualFold(lb.Name, name) }) {
			p.Remove = append(p.Remove, name)
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

// PutOn puts on the labels a plan adds, before the run posts: adding is idempotent,
// so a payload older than the last run costs at most a redundant write.
func PutOn(ctx context.Context, client *github.Client, cache Cache, ref clarify.IssueRef, p Plan) error {
	if len(p.Add) == 0 {
		return nil
	}
	add := make([]string, 0, len(p.Add))
	for _, lb := range p.Add {
		add = append(add, lb.Name)
	}
	// A label GitHub makes on the spot is grey; the sweeps colour it (Grey).
	if _, _, err := client.Issues.AddLabelsToIssue(ctx, ref.Owner, ref.Repo, ref.Number, add); err != nil {
		return fmt.Errorf("add labels %v to %s: %w", add, ref.String(), err)
	}
	// Should the run fail before TakeOff, the next one here knows what is on.
	cache.Put(ref.String(), p.Set)
	return nil
}

// TakeOff takes off the labels a plan removes, after the save: removing a missing
// label is a 404 we accept.
func TakeOff(ctx context.Context, client *github.Client, cache Cache, ref clarify.IssueRef, p Plan) error {
	for _, name := range p.Remove {
		_, err := client.Issues.RemoveLabelForIssue(ctx, ref.Owner, ref.Repo, ref.Number, name)
		if err != nil && !ghtransport.IsStatus(err, http.StatusNotFound) {
			return fmt.Errorf("remove label %q from %s: %w", name, ref.String(), err)
		}
	}
	cache.Put(ref.String(), p.Set)
	return nil
}

// Cache remembers the app's own labels as this process last set them on each issue.
type Cache interface {
	// Known returns the labels last set on the issue, and whether any were set at all.
	Known(issue string) ([]string, bool)
	Put(issue string, names []string)
}

// GitHub makes a label that an issue is given before it exists, with this colour and no
// description.
const newLabelColour = "ededed"

// Grey returns those of ours that the issues carry as GitHub made them on first use,
// by the name GitHub spells them with (it compares names without regard to case).
func Grey(ours [3]Label, issues []*github.Issue) map[string]Label {
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
