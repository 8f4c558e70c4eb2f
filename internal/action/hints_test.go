package action_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// What a workflow's runs of one issue keep in its ledger so that they do not ask GitHub
// again: that the repository had no config file as of its last push, and which issue holds
// its decisions.

const (
	configRoute = "GET /repos/octo/widgets/contents/.github/clarify.yml"
	labelRoute  = "GET /repos/octo/widgets/labels/" + ledger.DecisionsLabel
)

// step has author comment in issue n and runs the workflow for it, with edits changing the
// event file's payload first; it returns the routes the run asked for.
func (b *bench) step(n int, author, body string, edits ...func(payload map[string]any)) []string {
	b.t.Helper()
	d, _ := b.fake.Comment(repo, n, author, body)
	path := b.eventFile(d, edits...)
	before := len(b.fake.Requests())
	b.ok("issue_comment", path)
	var routes []string
	for _, r := range b.fake.Requests()[before:] {
		routes = append(routes, r.Method+" "+r.Path)
	}
	return routes
}

// count is how often route is among routes.
func count(routes []string, route string) int {
	n := 0
	for _, r := range routes {
		if r == route {
			n++
		}
	}
	return n
}

// TestARepositoryWithoutConfigIsReadOnceALifecycle: the ask's run finds no config file; the
// answer's and the resolve's, whose payloads show nothing pushed since, read none, and the
// lifecycle ends as with the defaults.
func TestARepositoryWithoutConfigIsReadOnceALifecycle(t *testing.T) {
	b := newBench(t)
	for i, s := range []struct{ author, body string }{
		{"coder-agent", askWithFallback},
		{"maria", "Per API key."},
		{"coder-agent", "/clarify resolve CLR-42-001 Per API key."},
	} {
		routes := b.step(42, s.author, s.body)
		want := 0
		if i == 0 {
			want = 1 // the ask's
		}
		if count(routes, configRoute) != want {
			t.Fatalf("run %d (%q) read the config %d times, want %d:\n%s", i+1, s.body, count(routes, configRoute), want, strings.Join(routes, "\n"))
		}
	}
	if c := b.clar("CLR-42-001"); c.Status != clarify.Resolved {
		t.Fatalf("CLR-42-001 is %s, want resolved", c.Status)
	}
}

// narrowed is a config that lets only a question's target answer it.
const narrowed = "answer_from: targets\n"

// TestAConfigFileIsReadOnceUntilAPush: the ask's run reads a small config file that lets
// only the target answer, and the ledger keeps it; the next run, whose payload shows no push
// since, reads no file and still applies it (bob, with write access, answers nothing). A
// push that lifts the rule is read by the first run after it, and bob's reply then answers.
// A file larger than the ledger keeps is read by every run.
func TestAConfigFileIsReadOnceUntilAPush(t *testing.T) {
	b := newBench(t)
	b.withBob()
	b.fake.SetFile(repo, ".github/clarify.yml", narrowed)
	if routes := b.step(42, "coder-agent", askWithFallback); count(routes, configRoute) != 1 {
		t.Fatalf("the ask read the config %d times, want 1:\n%s", count(routes, configRoute), strings.Join(routes, "\n"))
	}
	if got := b.ledger(42).Hints.ConfigFile.Content; got != narrowed {
		t.Fatalf("the ledger keeps the file as %q, want %q", got, narrowed)
	}
	routes := b.step(42, "bob", "/respond CLR-42-001 Per client IP.")
	if count(routes, configRoute) != 0 || b.clar("CLR-42-001").Status != clarify.Pending {
		t.Fatalf("with nothing pushed, bob's reply: %d config reads, %s; want 0 and pending:\n%s",
			count(routes, configRoute), b.clar("CLR-42-001").Status, strings.Join(routes, "\n"))
	}
	b.fake.Advance(time.Minute)
	b.fake.SetFile(repo, ".github/clarify.yml", "# the defaults\n")
	routes = b.step(42, "bob", "/respond CLR-42-001 Per client IP.")
	if count(routes, configRoute) != 1 || b.clar("CLR-42-001").Status != clarify.Answered {
		t.Fatalf("after a push, bob's reply: %d config reads, %s; want 1 and answered:\n%s",
			count(routes, configRoute), b.clar("CLR-42-001").Status, strings.Join(routes, "\n"))
	}

	large := newBench(t)
	large.fake.SetFile(repo, ".github/clarify.yml", narrowed+"# "+strings.Repeat("x", 2100)+"\n")
	large.step(42, "coder-agent", askWithFallback)
	if routes := large.step(42, "maria", "Per API key."); count(routes, configRoute) != 1 {
		t.Fatalf("a large file was read %d times by the answer, want 1", count(routes, configRoute))
	}
}

// withBob adds bob, who has write access: on the defaults, his reply answers a question
// addressed to maria.
func (b *bench) withBob() {
	b.fake.AddUser("bob", "User")
	b.fake.SetPermission(repo, "bob", "write")
}

// TestAConfigPushedAfterTheAskTakesEffectAtTheAnswer: the ask's run finds no config file;
// then one is pushed that lets only the target answer. The next run's payload shows the
// push, so it reads the file, and bob's reply (write access, not the target) answers
// nothing; on the defaults it would have answered maria's question.
func TestAConfigPushedAfterTheAskTakesEffectAtTheAnswer(t *testing.T) {
	b := newBench(t)
	b.withBob()
	b.step(42, "coder-agent", askWithFallback)
	b.fake.Advance(time.Minute)
	b.fake.SetFile(repo, ".github/clarify.yml", narrowed)
	routes := b.step(42, "bob", "/respond CLR-42-001 Per client IP.")
	if count(routes, configRoute) != 1 {
		t.Fatalf("the answer's run read the config %d times after a push, want 1:\n%s", count(routes, configRoute), strings.Join(routes, "\n"))
	}
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending {
		t.Fatalf("CLR-42-001 is %s after bob's reply, want pending: only maria may answer now", c.Status)
	}
}

// TestARunQueuedBeforeAConfigPushAppliesLaterRepliesUnderIt: the ask's run finds no config
// file. A comment's run is queued (its payload shows the repository's pushes as they were);
// then a config that lets only the target answer is pushed, and bob (write access, not the
// target) replies. The queued run, which applies bob's reply too, reads the file although
// its payload shows no push since the hint: bob's reply was made after the push, so it
// answers nothing, as the first run after the push finds.
func TestARunQueuedBeforeAConfigPushAppliesLaterRepliesUnderIt(t *testing.T) {
	b := newBench(t)
	b.withBob()
	b.step(42, "coder-agent", askWithFallback)
	b.fake.Advance(time.Minute)
	queued := b.eventFile(b.commentOnly("coder-agent", "Waiting for maria."))
	b.fake.Advance(time.Minute)
	b.fake.SetFile(repo, ".github/clarify.yml", narrowed)
	b.fake.Advance(time.Minute)
	b.commentOnly("bob", "/respond CLR-42-001 Per client IP.")
	before := len(b.fake.Requests())
	b.ok("issue_comment", queued)
	var routes []string
	for _, r := range b.fake.Requests()[before:] {
		routes = append(routes, r.Method+" "+r.Path)
	}
	if count(routes, configRoute) != 1 {
		t.Fatalf("the queued run read the config %d times, want 1:\n%s", count(routes, configRoute), strings.Join(routes, "\n"))
	}
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending {
		t.Fatalf("CLR-42-001 is %s after bob's reply, made after the push, want pending: only maria may answer now", c.Status)
	}
}

// TestAPayloadWithoutPushedAtReadsTheConfig: a payload whose repository carries no
// pushed_at (an empty repository's is null) tells nothing of pushes: the run reads the file,
// also when the ask's payload lacked it too.
func TestAPayloadWithoutPushedAtReadsTheConfig(t *testing.T) {
	for name, edit := range map[string]func(map[string]any){
		"without pushed_at": func(p map[string]any) { delete(p["repository"].(map[string]any), "pushed_at") },
		"pushed_at null":    func(p map[string]any) { p["repository"].(map[string]any)["pushed_at"] = nil },
	} {
		for _, askToo := range []bool{false, true} {
			b := newBench(t)
			var askEdits []func(map[string]any)
			if askToo {
				askEdits = append(askEdits, edit)
			}
			b.step(42, "coder-agent", askWithFallback, askEdits...)
			routes := b.step(42, "maria", "Per API key.", edit)
			if count(routes, configRoute) != 1 {
				t.Fatalf("a payload %s (the ask's too: %v): the run read the config %d times, want 1:\n%s", name, askToo, count(routes, configRoute), strings.Join(routes, "\n"))
			}
		}
	}
}

// TestAHintAloneWritesNothing: a run that learns only a hint (no config file as of the
// payload's push, where the ask's payload showed no push) and changes nothing else writes
// nothing: the hint waits for the next save.
func TestAHintAloneWritesNothing(t *testing.T) {
	b := newBench(t)
	b.step(42, "coder-agent", askWithFallback, func(p map[string]any) { delete(p["repository"].(map[string]any), "pushed_at") })
	if h := b.ledger(42).Hints.NoConfig; h.Pushed().Known() {
		t.Fatalf("the ask's payload showed no push, yet the ledger holds %+v", h)
	}
	routes := b.step(42, "coder-agent", "Waiting for maria.")
	for _, r := range routes {
		if !strings.HasPrefix(r, "GET ") {
			t.Fatalf("a run that learned only a hint wrote %s:\n%s", r, strings.Join(routes, "\n"))
		}
	}
	if count(routes, configRoute) != 1 {
		t.Fatalf("the run read the config %d times, want 1", count(routes, configRoute))
	}
}

// TestAForgedHintIsNotFollowed: the status comment's ledger rewritten to say the repository
// has no config file as of its last push, which would put the defaults in force and let
// bob answer maria's question. Signed with Clarify's key, as only Clarify can, the hint is
// followed; signed with any other key, the ledger does not verify, is rebuilt from the
// comments, and the config is read.
func TestAForgedHintIsNotFollowed(t *testing.T) {
	for name, tc := range map[string]struct {
		key          string
		reads        int
		wantAnswered bool
	}{
		"signed with Clarify's key": {ledgerKey, 0, true},
		"signed with another key":   {"another-key-of-at-least-forty-characters!", 1, false},
	} {
		t.Run(name, func(t *testing.T) {
			b := newBench(t)
			b.withBob()
			b.fake.SetFile(repo, ".github/clarify.yml", narrowed)
			b.step(42, "coder-agent", askWithFallback)
			b.plantNoConfigHint(42, ledger.IssueLedgerKey([]byte(tc.key), "octo", "widgets", 42))
			routes := b.step(42, "bob", "/respond CLR-42-001 Per client IP.")
			if count(routes, configRoute) != tc.reads {
				t.Fatalf("the answer's run read the config %d times, want %d:\n%s", count(routes, configRoute), tc.reads, strings.Join(routes, "\n"))
			}
			if answered := b.clar("CLR-42-001").Status == clarify.Answered; answered != tc.wantAnswered {
				t.Fatalf("bob's reply answered: %v, want %v", answered, tc.wantAnswered)
			}
		})
	}
}

// plantNoConfigHint rewrites issue n's status comment, as another workflow writing as
// github-actions[bot] could, with its ledger saying that there was no config file as of the
// repository's push now, signed under key; no run is started for the edit.
func (b *bench) plantNoConfigHint(n int, key []byte) {
	b.t.Helper()
	var status fakegithub.Comment
	for _, c := range b.fake.Comments(repo, n) {
		if c.User == fakegithub.ActionsBotLogin && render.IsStatus(c.Body) {
			status = c
		}
	}
	l := b.ledger(n)
	l.Hints.NoConfig = clarify.NoConfigAt(b.push(), 0)
	block, err := render.EncodeLedger(l, key)
	if err != nil {
		b.t.Fatal(err)
	}
	start := strings.LastIndex(status.Body, "<!-- clarify:ledger ")
	end := start + strings.Index(status.Body[start:], "-->") + len("-->")
	b.fake.EditComment(repo, status.ID, fakegithub.ActionsBotLogin, status.Body[:start]+block+status.Body[end:])
}

// push is where the repository's branches stand, as the next payload will show them.
func (b *bench) push() clarify.Push {
	b.t.Helper()
	r, _, err := b.workflow().Repositories.Get(context.Background(), "octo", "widgets")
	if err != nil {
		b.t.Fatal(err)
	}
	return clarify.Push{At: r.GetPushedAt().Time, Branch: r.GetDefaultBranch()}
}

// TestTheResolveReadsTheMemoryTheAskFound: the ask's run found the repository's decisions
// through the label; the resolve's run goes to that issue straight away, without looking
// the label up, and records the decision there.
func TestTheResolveReadsTheMemoryTheAskFound(t *testing.T) {
	b := newBench(t)
	b.lifecycle(42, "CLR-42-001")
	memory, _ := b.decisions()
	b.fake.OpenIssue(repo, 44, "Cache the schema", "maria")
	if routes := b.step(44, "coder-agent", askWithFallback); count(routes, labelRoute) != 1 {
		t.Fatalf("the ask's run looked the label up %d times, want 1 (its offer reads the memory)", count(routes, labelRoute))
	}
	b.step(44, "maria", "Per API key.")
	routes := b.step(44, "coder-agent", "/clarify resolve CLR-44-001 Per API key.")
	if count(routes, labelRoute) != 0 {
		t.Fatalf("the resolve's run looked the label up though the ask found #%d:\n%s", memory, strings.Join(routes, "\n"))
	}
	if issue, ids := b.decisions(); issue != memory || !slices.Contains(ids, "CLR-44-001") {
		t.Fatalf("the memory is #%d with %v, want #%d with CLR-44-001", issue, ids, memory)
	}
}

// TestAMemoryIssueDeletedAfterTheAskIsFoundAgainByTheLabel: the ask's run found the
// decisions in one issue, which is then deleted; another issue's resolve makes a new one,
// which the label names. The first issue's resolve tries the issue its ledger names, finds
// it gone, follows the label to the new one and records its decision beside the other's.
func TestAMemoryIssueDeletedAfterTheAskIsFoundAgainByTheLabel(t *testing.T) {
	b := newBench(t)
	b.lifecycle(42, "CLR-42-001")
	first, _ := b.decisions()
	b.fake.OpenIssue(repo, 44, "Cache the schema", "maria")
	b.step(44, "coder-agent", askWithFallback)
	b.step(44, "maria", "Per API key.")
	b.fake.DeleteIssue(repo, first, "maria")
	b.fake.OpenIssue(repo, 46, "Cache the tokens", "maria")
	b.lifecycle(46, "CLR-46-001")
	second, _ := b.decisions()
	if second == first {
		t.Fatalf("the label still names the deleted #%d", first)
	}
	routes := b.step(44, "coder-agent", "/clarify resolve CLR-44-001 Per API key.")
	if count(routes, "GET /repos/octo/widgets/issues/"+strconv.Itoa(first)+"/comments") != 1 || count(routes, labelRoute) != 1 {
		t.Fatalf("the resolve's run did not try #%d, then the label:\n%s", first, strings.Join(routes, "\n"))
	}
	if issue, ids := b.decisions(); issue != second || !slices.Contains(ids, "CLR-44-001") || !slices.Contains(ids, "CLR-46-001") {
		t.Fatalf("the memory is #%d with %v, want #%d with CLR-44-001 and CLR-46-001", issue, ids, second)
	}
	if h := b.ledger(44).Hints.Memory; h.Issue != second {
		t.Fatalf("#44's ledger names #%d as the memory, want #%d", h.Issue, second)
	}
}

// lifecycle asks, answers and resolves in issue n, each its own run.
func (b *bench) lifecycle(n int, id string) {
	b.t.Helper()
	b.step(n, "coder-agent", askWithFallback)
	b.step(n, "maria", "Per API key: anonymous calls are blocked at the gateway.")
	b.step(n, "coder-agent", "/clarify resolve "+id+" Per API key.")
	if c, ok := b.ledger(n).Find(id); !ok || c.Status != clarify.Resolved {
		b.t.Fatalf("%s not resolved: %+v", id, c)
	}
}
