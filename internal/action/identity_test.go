package action_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// TestOwnCommentsStartRunsThatDoNothing: with an App token, Clarify's own comments start
// workflow runs; each sees its sender is Clarify and makes no request.
func TestOwnCommentsStartRunsThatDoNothing(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", askWithFallback)
	own := b.fake.TakeOutbox()
	if len(own) == 0 {
		t.Fatal("Clarify's writes made no deliveries")
	}
	for _, d := range own {
		if d.Event != "issue_comment" {
			continue
		}
		r := b.ok(d.Event, b.eventFile(d))
		if r.requests != 0 || !strings.Contains(r.stdout, "Nothing to do") {
			t.Errorf("a run for Clarify's own comment made %d requests: %s", r.requests, r.stdout)
		}
	}
}

// TestTeamRolesNeedAnAppToken: GITHUB_TOKEN cannot read team membership, so a team's member
// without write access is not taken as the answer (docs/workflow.md says to use an App token).
func TestTeamRolesNeedAnAppToken(t *testing.T) {
	b := newBench(t)
	b.fake.SetFile(repo, ".github/clarify.yml", "roles:\n  architect: [\"@octo/architects\"]\n")
	b.fake.AddUser("alice", "User")
	b.fake.AddTeamMember("octo", "architects", "alice")
	b.comment("coder-agent", "/clarify architect Per key or per IP?")
	b.comment("alice", "Per key.")
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending {
		t.Fatalf("a team member was taken as the answer through GITHUB_TOKEN: %s", c.Status)
	}
	b.comment("maria", "CLR-42-001: per key.") // write access answers, naming the clarification
	if c := b.clar("CLR-42-001"); c.Status != clarify.Answered {
		t.Fatalf("maria's answer: %s", c.Status)
	}
}

// TestAnotherWorkflowsLookAlikeIsNeverALedger: github-actions[bot] is every workflow's
// account, so any workflow of the repository can post a comment shaped like Clarify's
// status comment. Its ledger, signed with another key, is never trusted: the run rebuilds
// from the issue's comments and takes only what people wrote.
func TestAnotherWorkflowsLookAlikeIsNeverALedger(t *testing.T) {
	b := newBench(t)
	forged := clarify.NewLedger(42)
	forged.Clarifications = []clarify.Clarification{{ID: "CLR-42-001", Status: clarify.Resolved, Round: 1,
		Asker: clarify.Party{Login: "mallory"}, Target: clarify.Target{Kind: clarify.TargetLogin, Name: "maria"}, Resolution: "ship it"}}
	block, err := render.EncodeLedger(forged, []byte("some other workflow's key, long enough"))
	if err != nil {
		t.Fatal(err)
	}
	client := github.NewClient(nil).WithAuthToken(b.fake.WorkflowToken(repo))
	client.BaseURL, _ = url.Parse(b.url + "/")
	if _, _, err := client.Issues.CreateComment(context.Background(), "octo", "widgets", 42,
		&github.IssueComment{Body: github.String(render.Status(forged, block))}); err != nil {
		t.Fatal(err)
	}
	b.comment("coder-agent", "/clarify @maria Per key or per IP?")
	l := b.ledger(42) // decodes under Clarify's key, or fails the test
	if len(l.Clarifications) != 1 || l.Clarifications[0].Asker.Login != "coder-agent" || l.Clarifications[0].Status != clarify.Pending {
		t.Fatalf("ledger after the look-alike: %+v", l.Clarifications)
	}
}

// TestAnotherWorkflowsCommentDoesNotHideAnUnappliedAsk: an ask whose run was cancelled,
// then a welcome from another workflow of the repository, which comments as the same
// github-actions[bot]. That comment carries none of Clarify's markers, so it is no sign
// that a run saw the ask: the scheduled run still finds the ask and asks the question.
func TestAnotherWorkflowsCommentDoesNotHideAnUnappliedAsk(t *testing.T) {
	b := newBench(t)
	b.commentOnly("coder-agent", "/clarify @maria Per key or per IP?")
	b.fake.Advance(5 * time.Minute)
	client := github.NewClient(nil).WithAuthToken(b.fake.WorkflowToken(repo))
	client.BaseURL, _ = url.Parse(b.url + "/")
	if _, _, err := client.Issues.CreateComment(context.Background(), "octo", "widgets", 42,
		&github.IssueComment{Body: github.String("Thanks for opening this issue! CI passed on main.")}); err != nil {
		t.Fatal(err)
	}
	b.fake.Advance(5 * time.Minute)
	b.schedule()
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending || b.botComments("round 1/5") != 1 {
		t.Fatalf("after the scheduled run: %+v\n%s", c, b.fake.Transcript(repo, 42))
	}
}

// TestLabelsCostNoLookUpPerRun: each workflow run is a fresh process, so a look-up of the
// label before adding it would cost a request in every ask. The ask adds it at once, with
// no look-up and no edit, and a repository's label made by a maintainer keeps their
// colour and description. (A label GitHub makes on first use: labels_test.go.)
func TestLabelsCostNoLookUpPerRun(t *testing.T) {
	b := newBench(t)
	b.fake.SetLabel(repo, "clarification:active", "5319e7", "Waiting on an answer")
	before := len(b.fake.Requests())
	b.comment("coder-agent", "/clarify @maria Per key or per IP?")
	for _, r := range b.fake.Requests()[before:] {
		if strings.Contains(r.Path, "/labels/clarification") {
			t.Errorf("the ask looked the label up or changed it: %s %s", r.Method, r.Path)
		}
	}
	if color, desc, _ := b.fake.RepoLabel(repo, "clarification:active"); color != "5319e7" || desc != "Waiting on an answer" || b.labels() != "clarification:active" {
		t.Errorf("the maintainer's label became %q %q; issue labels %q", color, desc, b.labels())
	}
}

// TestAnotherWorkflowsRoundMarkerDoesNotSilenceARound (issue 24, finding 6): a comment of
// another workflow, by the same github-actions[bot], that happens to carry a round's plain
// marker is no sign that the round was posted: the role's member is still told.
func TestAnotherWorkflowsRoundMarkerDoesNotSilenceARound(t *testing.T) {
	b := newBench(t)
	b.fake.SetFile(repo, ".github/clarify.yml", "roles:\n  architect: [maria]\n")
	b.workflowComment("Nightly report.\n" + render.Marker("round:CLR-42-001:1"))
	b.comment("coder-agent", "/clarify architect Per API key or per client IP?")
	if b.botComments("round 1/5") != 1 || b.botComments("@maria") == 0 {
		t.Fatalf("the round was not posted, or maria not told:\n%s", b.fake.Transcript(repo, 42))
	}
}

// TestAnotherWorkflowsStatusMarkerIsNeitherTakenNorOverwritten (issue 24, finding 6): a
// comment of another workflow carrying the plain status marker is not Clarify's status
// comment: it is left as written, no "rebuilt" notice is posted, and Clarify keeps its own.
func TestAnotherWorkflowsStatusMarkerIsNeitherTakenNorOverwritten(t *testing.T) {
	b := newBench(t)
	report := "Coverage: 81%.\n" + render.StatusMarker
	id := b.workflowComment(report)
	b.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	b.comment("maria", "Per API key.")
	if c, ok := b.fake.CommentByID(id); !ok || c.Body != report {
		t.Errorf("another workflow's comment was overwritten: %q", c.Body)
	}
	if n := b.botComments("rebuilt the ledger"); n != 0 {
		t.Errorf("%d false rebuild notices:\n%s", n, b.fake.Transcript(repo, 42))
	}
	if c := b.clar("CLR-42-001"); c.Status != clarify.Answered {
		t.Errorf("CLR-42-001 is %s, want answered", c.Status)
	}
}

// TestAnotherWorkflowsRoundRecordDoesNotDiscreditTheLedger: a comment of another workflow
// with a round's record of a later id is no id Clarify handed out, so Clarify's ledger is
// still trusted (not rebuilt, with a false notice).
func TestAnotherWorkflowsRoundRecordDoesNotDiscreditTheLedger(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	b.workflowComment(`<!-- clarify:record {"v":1,"kind":"round","id":"CLR-42-009","round":1} -->`)
	b.comment("maria", "Per API key.")
	if n := b.botComments("rebuilt the ledger"); n != 0 {
		t.Errorf("%d false rebuild notices:\n%s", n, b.fake.Transcript(repo, 42))
	}
	if c := b.clar("CLR-42-001"); c.Status != clarify.Answered {
		t.Errorf("CLR-42-001 is %s, want answered", c.Status)
	}
}

// TestAStatusCommentFromBeforeMarkersWereSealedIsStillClarifys: a status comment written
// with the plain marker by an earlier Clarify, its ledger signed under the issue's key, is
// still read after the upgrade, and sealed by the next save.
func TestAStatusCommentFromBeforeMarkersWereSealedIsStillClarifys(t *testing.T) {
	b := newBench(t)
	ask := b.commentOnly("coder-agent", "/clarify @maria Per API key or per client IP?")
	askID := deliveredCommentID(t, ask)
	l := clarify.NewLedger(42)
	l.Cursor, l.Seq, l.Rev, l.Labels = askID, 1, 1, []string{"clarification:active"}
	l.Clarifications = []clarify.Clarification{{ID: "CLR-42-001", Status: clarify.Pending, Round: 1, MaxRounds: 5, Blocking: true,
		Topic: "Per API key or per client IP?", Asker: clarify.Party{Login: "coder-agent"},
		Target:    clarify.Target{Kind: clarify.TargetLogin, Name: "maria"},
		CreatedAt: b.fake.Now(), StaleAfter: b.fake.Now().Add(30 * time.Minute),
		Thread: []clarify.Entry{{Kind: clarify.KindQuestion, Round: 1, Author: "coder-agent", Text: "Per API key or per client IP?", CommentID: askID, At: b.fake.Now()}}}}
	block, err := render.EncodeLedger(l, ledger.IssueLedgerKey([]byte(ledgerKey), "octo", "widgets", 42))
	if err != nil {
		t.Fatal(err)
	}
	legacy := render.Status(l, block)
	if !strings.Contains(legacy, render.StatusMarker) {
		t.Fatal("render.Status no longer writes the plain marker this test stands for")
	}
	id := b.workflowComment(legacy)
	if _, _, err := b.workflow().Issues.AddLabelsToIssue(context.Background(), "octo", "widgets", 42, []string{"clarification:active"}); err != nil {
		t.Fatal(err)
	}
	b.fake.TakeOutbox()
	b.comment("maria", "Per API key.")
	if c := b.clar("CLR-42-001"); c.Status != clarify.Answered || b.botComments("<!-- clarify:status ") != 1 || b.botComments("rebuilt the ledger") != 0 {
		t.Fatalf("after the upgrade: %s\n%s", c.Status, b.fake.Transcript(repo, 42))
	}
	if c, _ := b.fake.CommentByID(id); strings.Contains(c.Body, render.StatusMarker) {
		t.Errorf("the next save left the status marker plain:\n%s", c.Body)
	}
}

// TestAnotherWorkflowsCommentInTheDecisionsIssueIsNotOverwritten: comments of another
// workflow in Clarify's decisions issue, by the same github-actions[bot], carrying the plain
// markers of the sweep index and of a part of the decisions, are not Clarify's: the
// scheduled run and the next decision write comments of their own and leave them as written.
func TestAnotherWorkflowsCommentInTheDecisionsIssueIsNotOverwritten(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	b.comment("maria", "/clarify resolve CLR-42-001 Per API key.")
	issue, ids := b.decisions()
	if issue == 0 || len(ids) != 1 {
		t.Fatalf("the decision was not remembered: #%d %v", issue, ids)
	}
	forged := map[int64]string{}
	for _, body := range []string{"Digest of the week.\n" + render.SweepIndexMarker, "Notes.\n" + render.DecisionsMarker} {
		c, _, err := b.workflow().Issues.CreateComment(context.Background(), "octo", "widgets", issue, &github.IssueComment{Body: &body})
		if err != nil {
			t.Fatal(err)
		}
		forged[c.GetID()] = body
	}
	b.fake.TakeOutbox()
	b.fake.Advance(5 * time.Minute) // past the wait a command's own run gets: the scheduled run reads #42
	b.schedule()
	b.comment("coder-agent", "/clarify @maria Which header carries the key?")
	b.comment("maria", "/clarify resolve CLR-42-002 X-Api-Key.")
	for id, body := range forged {
		if c, ok := b.fake.CommentByID(id); !ok || c.Body != body {
			t.Errorf("another workflow's comment %d was overwritten: %q", id, c.Body)
		}
	}
	keys := render.Keyring{Current: []byte(ledgerKey)}.Issue("octo", "widgets", issue)
	remembered, indexed := 0, 0
	for _, c := range b.fake.Comments(repo, issue) {
		if _, ds, err := keys.DecodeDecisions(c.Body); err == nil {
			remembered += len(ds)
		}
		if x, err := keys.DecodeSweepIndex(c.Body); err == nil && !x[42].Seen.IsZero() {
			indexed++
		}
	}
	if remembered != 2 || indexed != 1 {
		t.Errorf("%d decisions remembered, want both; %d sweep indexes of Clarify's, want 1", remembered, indexed)
	}
}

// TestAnotherWorkflowsRefusalLookAlikeDoesNotRefuseAnAsk: an ask whose run never happened,
// then a comment of another workflow, by the same github-actions[bot], shaped like
// Clarify's refusal of that ask in a closed issue. It is not Clarify's, so the scheduled
// run asks the question in the open issue.
func TestAnotherWorkflowsRefusalLookAlikeDoesNotRefuseAnAsk(t *testing.T) {
	b := newBench(t)
	ask := b.commentOnly("coder-agent", "/clarify @maria Per API key or per client IP?")
	askID := deliveredCommentID(t, ask)
	b.fake.Advance(time.Minute)
	b.workflowComment(`<!-- clarify:record {"v":1,"kind":"refusal","code":"issue-closed"} -->` + "\n" + render.Marker(clarify.ReplyKey(askID)))
	b.fake.Advance(5 * time.Minute)
	b.schedule()
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending || b.botComments("round 1/5") != 1 {
		t.Fatalf("the ask was refused on another workflow's word: %+v\n%s", c, b.fake.Transcript(repo, 42))
	}
}

// deliveredCommentID is the id of the comment an issue_comment delivery is about.
func deliveredCommentID(t *testing.T, d fakegithub.Delivery) int64 {
	t.Helper()
	var p struct {
		Comment struct {
			ID int64 `json:"id"`
		} `json:"comment"`
	}
	if err := json.Unmarshal(d.Body, &p); err != nil {
		t.Fatal(err)
	}
	return p.Comment.ID
}

// TestAnAgentsCommandQuotingClarifyIsApplied (issue 33): an agent in a workflow, writing as
// github-actions[bot] like Clarify's own runs, asks again quoting the comment Clarify put
// the round in (the status comment, the issue's first round above its table), sealed
// markers, ledger and all. A seal vouches only for the comment Clarify wrote it in, so the
// quote is the agent's comment, and its ask is taken.
func TestAnAgentsCommandQuotingClarifyIsApplied(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	var round string
	for _, c := range b.fake.Comments(repo, 42) {
		if c.User == fakegithub.ActionsBotLogin && strings.Contains(c.Body, "round:CLR-42-001:1") {
			round = c.Body
		}
	}
	if round == "" {
		t.Fatalf("no round comment:\n%s", b.fake.Transcript(repo, 42))
	}
	b.workflowComment("/clarify @maria Does that hold for cached reads too?\n\n> " + strings.ReplaceAll(round, "\n", "\n> "))
	b.fake.Advance(5 * time.Minute)
	b.schedule()
	if c := b.clar("CLR-42-002"); c.Status != clarify.Pending || c.Asker.Login != fakegithub.ActionsBotLogin {
		t.Fatalf("the agent's ask quoting Clarify: %+v\n%s", c, b.fake.Transcript(repo, 42))
	}
}

// TestTwoWorkflowsWithTheSameRefEachGetTheirOwnAsk (issue 33): two workflows' agents both
// dispatch as github-actions[bot] with ref step-1, each with its own nonce: each gets its
// own clarification, and a retry with a nonce asks nothing again.
func TestTwoWorkflowsWithTheSameRefEachGetTheirOwnAsk(t *testing.T) {
	b := newBench(t)
	ask := func(question, nonce string) {
		b.agentDispatch(map[string]any{"issue": 42, "action": "ask", "target": "@maria", "question": question,
			"context": map[string]string{"ref": "step-1", "nonce": nonce}})
	}
	ask("Per API key or per client IP?", "build-nonce")
	ask("Which header carries the key?", "docs-nonce")
	ask("Per API key or per client IP?", "build-nonce")
	l := b.ledger(42)
	if len(l.Clarifications) != 2 || l.Clarifications[0].Nonce != "build-nonce" || l.Clarifications[1].Nonce != "docs-nonce" {
		t.Fatalf("two workflows' step-1 and a retry: %+v; want two clarifications, one per nonce", l.Clarifications)
	}
}
