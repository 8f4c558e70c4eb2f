package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/labels"
	"github.com/clarify-app/clarify/handlers/sweep"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// triageConfig names the stale label after one the repository's people already use.
const triageConfig = "labels:\n  stale: needs-triage\n"

// labelByHand puts a label on an issue as a person does in the UI (through the REST API,
// which the in-memory GitHub does not tell apart from the app).
func labelByHand(t *testing.T, w *driver, number int, name string) {
	t.Helper()
	url := fmt.Sprintf("%s/repos/%s/issues/%d/labels", w.h.GitHub.URL, repo, number)
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`["`+name+`"]`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+w.h.Fake.IssueToken(1))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("labelling #%d by hand: %s", number, resp.Status)
	}
}

func issueHasLabel(w *driver, number int, name string) bool {
	return slices.Contains(w.h.Fake.IssueLabels(repo, number), name)
}

func TestAConfiguredLabelThatPeopleUseIsNeverTakenOffWhereTheyPutIt(t *testing.T) {
	// Whether the clarification goes stale while the people's label is on: the app then
	// wants the label, finds it there, and must still not take it for its own.
	for name, stale := range map[string]bool{"answered": false, "staleThenAnswered": true} {
		t.Run(name, func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			w.h.Fake.SetFile(repo, ".github/clarify.yml", triageConfig)
			labelByHand(t, w, 42, "needs-triage")
			// #43 never has a clarification; a comment there still wakes the app, since it
			// carries one of the repository's Clarify labels.
			w.h.Fake.OpenIssue(repo, 43, "Crash on start", "maria")
			labelByHand(t, w, 43, "needs-triage")

			w.comment("coder-agent", "/clarify @maria Per key or per IP?")
			if stale {
				w.h.Fake.Advance(31 * time.Minute)
				if _, err := w.h.Sweep(context.Background()); err != nil {
					t.Fatal(err)
				}
				if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Stale {
					t.Fatalf("status %s, want stale", c.Status)
				}
			}
			w.comment("maria", "Per key.")
			w.comment("coder-agent", "/clarify resolve CLR-42-001 Per key.")
			d, _ := w.h.Fake.Comment(repo, 43, "maria", "Looking into it.")
			w.send(d)

			l := w.ledger()
			if c, _ := l.Find("CLR-42-001"); c.Status != clarify.Resolved {
				t.Fatalf("status %s, want resolved", c.Status)
			}
			if got := w.labels(); got != "needs-triage" {
				t.Errorf("#42 labels %q, want the people's needs-triage kept", got)
			}
			if !issueHasLabel(w, 43, "needs-triage") {
				t.Errorf("#43 lost its needs-triage to a comment: labels %v", w.h.Fake.IssueLabels(repo, 43))
			}
			if len(l.Labels) != 0 {
				t.Errorf("the ledger claims %v, which people put on", l.Labels)
			}
			w.replayAll()
		})
	}
}

func TestAConfiguredLabelTheAppPutOnIsTakenOffWhenNoLongerTrue(t *testing.T) {
	// Whether the app restarts between putting the label on and taking it off: the ledger,
	// not the process, remembers that the label is the app's.
	for name, restart := range map[string]bool{"sameProcess": false, "afterARestart": true} {
		t.Run(name, func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			w.h.Fake.SetFile(repo, ".github/clarify.yml", triageConfig)
			w.comment("coder-agent", "/clarify @maria Per key or per IP?")
			w.h.Fake.Advance(31 * time.Minute)
			if _, err := w.h.Sweep(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := w.labels(); got != "clarification:active,needs-triage" {
				t.Fatalf("labels %q once stale, want clarification:active,needs-triage", got)
			}
			if got := w.ledger().Labels; !slices.Equal(got, []string{"needs-triage"}) {
				t.Fatalf("the ledger records %v, want [needs-triage]", got)
			}
			if restart {
				w.h.Stop()
				if _, err := w.h.Start(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			w.comment("maria", "Per key.")
			if got := w.labels(); got != "clarification:active" {
				t.Errorf("labels %q once answered, want clarification:active", got)
			}
			if got := w.ledger().Labels; len(got) != 0 {
				t.Errorf("the ledger still records %v", got)
			}
			w.replayAll()
		})
	}
}

func TestALabelTheAppPutOnUnderANameTheRepositoryThenChangedIsTakenOff(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", triageConfig)
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.h.Fake.Advance(31 * time.Minute)
	if _, err := w.h.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "labels:\n  stale: waiting\n")
	// Past the config cache and to the sweep's next walk, which notices the change; not past
	// the second wait, so nothing but the config moves the label.
	w.h.Fake.Advance(sweep.DefaultReconcileEvery + time.Minute)
	if _, err := w.h.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := w.labels(); got != "clarification:active,waiting" {
		t.Errorf("labels %q, want clarification:active,waiting", got)
	}
	if got := w.ledger().Labels; !slices.Equal(got, []string{"waiting"}) {
		t.Errorf("the ledger records %v, want [waiting]", got)
	}
}

// TestACommentTypedDuringARunDoesNotMoveTheLabelAgain: GitHub builds a comment's delivery
// with the issue's labels of the moment it was typed, and delivers it whenever it does. A
// reply typed while the ask's run is putting the label on comes without it, and a comment
// typed while the resolve's run is taking it off comes with it: the label is still put on
// once and taken off once.
func TestACommentTypedDuringARunDoesNotMoveTheLabelAgain(t *testing.T) {
	const (
		addRoute    = "POST /repos/{owner}/{repo}/issues/{issue_number}/labels"
		removeRoute = "DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}"
	)
	w := &driver{t: t, h: newHarness(t)}
	typeDuring := func(route, author, body string) func() {
		var typed func()
		w.h.Fake.BeforeNext(route, func() {
			d, _ := w.h.Fake.Comment(repo, 42, author, body)
			typed = func() { w.send(d) }
		})
		return func() {
			t.Helper()
			if typed == nil {
				t.Fatalf("the run made no %s", route)
			}
			typed()
		}
	}
	answer := typeDuring(addRoute, "maria", "Per API key.")
	w.comment("coder-agent", "/clarify @maria Should the limit apply per API key or per client IP?")
	answer()
	if w.labels() != "clarification:active" {
		t.Fatalf("labels after the answer: %q", w.labels())
	}
	thanks := typeDuring(removeRoute, "maria", "Thanks, merging.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per API key.")
	thanks()
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Resolved || w.labels() != "" {
		t.Fatalf("after the resolve: %s, labels %q", c.Status, w.labels())
	}
	if n := w.h.Fake.CountRequests(addRoute); n != 1 {
		t.Errorf("the label was put on with %d requests, want 1", n)
	}
	if n := w.h.Fake.CountRequests(removeRoute); n != 1 {
		t.Errorf("the label was taken off with %d requests, want 1", n)
	}
}

// editLabelRoute is GitHub's route that changes a repository label's colour or description.
const editLabelRoute = "PATCH /repos/{owner}/{repo}/labels/{name}"

// labelEdits counts the edits of the repository's label name.
func labelEdits(w *driver, name string) int {
	n := 0
	for _, r := range w.h.Fake.Requests() {
		if r.Route == editLabelRoute && strings.HasSuffix(r.Path, "/labels/"+name) {
			n++
		}
	}
	return n
}

// wantRepoLabel fails the test unless the repository's label name has colour and
// description.
func wantRepoLabel(t *testing.T, w *driver, name, color, desc, when string) {
	t.Helper()
	if c, d, ok := w.h.Fake.RepoLabel(repo, name); !ok || c != color || d != desc {
		t.Errorf("%s: label %s is %q %q (exists %v), want %q %q", when, name, c, d, ok, color, desc)
	}
}

// TestALabelGitHubMadeIsColouredByTheSweep: the ask, the repository's first, adds
// clarification:active, which GitHub makes on the spot, grey and with no description. The
// ask's run spends nothing on it; the sweep's walk, whose listing of the labelled issues
// shows the label as GitHub made it, gives it Clarify's colour and description, once. An
// edit GitHub refuses is tried by the next walk.
func TestALabelGitHubMadeIsColouredByTheSweep(t *testing.T) {
	for name, fails := range map[string]bool{"at once": false, "after a failed edit": true} {
		t.Run(name, func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			w.comment("coder-agent", "/clarify @maria Per key or per IP?")
			if n := w.h.Fake.CountRequests(editLabelRoute); n != 0 {
				t.Errorf("the ask's run edited a label %d times", n)
			}
			wantRepoLabel(t, w, "clarification:active", "ededed", "", "after the ask")
			if fails {
				w.h.Fake.FailNext(editLabelRoute, http.StatusBadGateway, ghtransport.DefaultRetryAttempts)
				w.sweep()
				wantRepoLabel(t, w, "clarification:active", "ededed", "", "after a walk whose edit failed")
				w.h.Fake.Advance(sweep.DefaultReconcileEvery)
			}
			w.sweep()
			active := labels.DefaultLabelActive
			wantRepoLabel(t, w, active.Name, active.Color, active.Description, "after the walk")
			edits := labelEdits(w, active.Name)
			w.h.Fake.Advance(sweep.DefaultReconcileEvery)
			w.sweep()
			if n := labelEdits(w, active.Name); n != edits {
				t.Errorf("the next walk edited the coloured label again (%d edits, then %d)", edits, n)
			}
		})
	}
}

// TestALabelAPersonMadeIsNeverEditedByTheSweep: a maintainer made clarification:active
// before Clarify's first use, coloured but without a description, or described in GitHub's
// grey. Neither the ask's run nor the sweep's walks touch it.
func TestALabelAPersonMadeIsNeverEditedByTheSweep(t *testing.T) {
	for name, made := range map[string]struct{ color, desc string }{
		"coloured":  {"5319e7", ""},
		"described": {"ededed", "Waiting on an answer"},
	} {
		t.Run(name, func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			w.h.Fake.SetLabel(repo, "clarification:active", made.color, made.desc)
			w.comment("coder-agent", "/clarify @maria Per key or per IP?")
			w.sweep()
			w.h.Fake.Advance(sweep.DefaultReconcileEvery)
			w.sweep()
			if n := w.h.Fake.CountRequests(editLabelRoute); n != 0 {
				t.Errorf("the maintainer's label was edited %d times", n)
			}
			wantRepoLabel(t, w, "clarification:active", made.color, made.desc, "after two walks")
			if got := w.labels(); got != "clarification:active" {
				t.Errorf("issue labels %q, want clarification:active", got)
			}
		})
	}
}
