package action_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/handlers/labels"
)

// labelEdits are the requests since before that edited a repository label.
func (b *bench) labelEdits(before int) []string {
	var out []string
	for _, r := range b.fake.Requests()[before:] {
		if r.Route == "PATCH /repos/{owner}/{repo}/labels/{name}" {
			out = append(out, r.Path)
		}
	}
	return out
}

// wantLabel fails the test unless the repository's label name has colour and description.
func (b *bench) wantLabel(name, color, desc, when string) {
	b.t.Helper()
	if c, d, ok := b.fake.RepoLabel(repo, name); !ok || c != color || d != desc {
		b.t.Errorf("%s: label %s is %q %q (exists %v), want %q %q", when, name, c, d, ok, color, desc)
	}
}

// colouredByNextRun runs a scheduled run and fails the test unless it made one label edit,
// which gave the label Clarify's colour and description.
func (b *bench) colouredByNextRun(want labels.Label, run string) {
	b.t.Helper()
	before := len(b.fake.Requests())
	b.schedule()
	b.wantLabel(want.Name, want.Color, want.Description, "after "+run)
	if edits := b.labelEdits(before); len(edits) != 1 || !strings.HasSuffix(edits[0], "/"+want.Name) {
		b.t.Errorf("%s made the label edits %v, want one of %s", run, edits, want.Name)
	}
}

// TestALabelGitHubMadeIsColouredByTheScheduledRun: in a repository's first lifecycle the
// ask's run adds clarification:active, which GitHub makes on the spot, grey and with no
// description. The ask spends nothing on it; the next scheduled run, whose listing of the
// labelled issues shows the label as GitHub made it, gives it Clarify's colour and
// description, once. So does the run after a question went stale for the stale label.
func TestALabelGitHubMadeIsColouredByTheScheduledRun(t *testing.T) {
	b := newBench(t)
	before := len(b.fake.Requests())
	b.comment("coder-agent", "/clarify @maria Per key or per IP?")
	if edits := b.labelEdits(before); len(edits) != 0 {
		t.Errorf("the ask's run edited labels: %v", edits)
	}
	b.wantLabel("clarification:active", "ededed", "", "after the ask")

	b.colouredByNextRun(labels.DefaultLabelActive, "the scheduled run after the ask")

	// Past the SLA: the next run marks the question stale and puts on the stale label,
	// which GitHub makes grey; the run after it colours that one, and only that one.
	b.fake.Advance(31 * time.Minute)
	b.schedule()
	if got := b.labels(); got != "clarification:active,clarification:stale" {
		t.Fatalf("labels %q once stale", got)
	}
	b.fake.Advance(time.Minute)
	b.colouredByNextRun(labels.DefaultLabelStale, "the scheduled run after the stale one")
}

// TestALabelAPersonMadeIsNeverEdited: a maintainer made clarification:active before
// Clarify's first use, coloured but without a description, or described in GitHub's grey.
// Neither the ask nor the scheduled runs touch it.
func TestALabelAPersonMadeIsNeverEdited(t *testing.T) {
	for name, made := range map[string]struct{ color, desc string }{
		"coloured":  {"5319e7", ""},
		"described": {"ededed", "Waiting on an answer"},
	} {
		t.Run(name, func(t *testing.T) {
			b := newBench(t)
			b.fake.SetLabel(repo, "clarification:active", made.color, made.desc)
			b.comment("coder-agent", "/clarify @maria Per key or per IP?")
			b.schedule()
			b.fake.Advance(time.Minute)
			b.schedule()
			if edits := b.labelEdits(0); len(edits) != 0 {
				t.Errorf("the maintainer's label was edited: %v", edits)
			}
			b.wantLabel("clarification:active", made.color, made.desc, "after two scheduled runs")
			if got := b.labels(); got != "clarification:active" {
				t.Errorf("issue labels %q, want clarification:active", got)
			}
		})
	}
}
