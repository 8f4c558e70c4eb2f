package action_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/internal/action"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// decisions reads the repository's decision memory as a reader would find it: the issue
// the label clarify:decisions names, and the decisions in github-actions[bot]'s signed
// parts there.
func (b *bench) decisions() (issue int, ids []string) {
	b.t.Helper()
	_, desc, ok := b.fake.RepoLabel(repo, ledger.DecisionsLabel)
	if !ok {
		return 0, nil
	}
	m := regexp.MustCompile(`issue #([0-9]+)`).FindStringSubmatch(desc)
	if m == nil {
		b.t.Fatalf("label %s names no issue: %q", ledger.DecisionsLabel, desc)
	}
	issue, _ = strconv.Atoi(m[1])
	for _, c := range b.fake.Comments(repo, issue) {
		if c.User != fakegithub.ActionsBotLogin || !strings.Contains(c.Body, render.DecisionsMarker) {
			continue
		}
		_, ds, err := render.DecodeDecisions(c.Body, ledger.IssueLedgerKey([]byte(ledgerKey), "octo", "widgets", issue))
		if err != nil {
			b.t.Fatalf("a part of the memory in #%d does not verify: %v", issue, err)
		}
		for _, d := range ds {
			ids = append(ids, d.ID)
		}
	}
	sort.Strings(ids)
	return issue, ids
}

// isMemoryComment says whether the comment an edit's path names is in issue n.
func (b *bench) isMemoryComment(n int, path string) bool {
	id, err := strconv.ParseInt(path[strings.LastIndex(path, "/")+1:], 10, 64)
	if err != nil {
		return false
	}
	for _, c := range b.fake.Comments(repo, n) {
		if c.ID == id {
			return true
		}
	}
	return false
}

// askAndAnswer asks in issue n (opened here) and has maria answer, each its own run.
func (b *bench) askAndAnswer(n int, topic string) {
	b.t.Helper()
	b.fake.OpenIssue(repo, n, "Issue "+strconv.Itoa(n), "maria")
	for _, c := range []struct{ author, body string }{
		{"coder-agent", "/clarify @maria Topic: " + topic + "\nShould " + topic + " be per key or per IP?"},
		{"maria", "Per key."},
	} {
		d, _ := b.fake.Comment(repo, n, c.author, c.body)
		b.ok("issue_comment", b.eventFile(d))
	}
}

// TestTwoResolvesAtOnceKeepBothDecisions: two workflow runs of two issues (two
// concurrency groups) resolve at the same moment, each writing the repository's decision
// memory from its own read. The second write, from a read older than the first write, is
// held until the first has landed. Both decisions must be in the memory afterwards, and
// the memory in one issue: the first decisions of a repository (both runs make the memory
// issue) and later ones (both edit the same part).
func TestTwoResolvesAtOnceKeepBothDecisions(t *testing.T) {
	cases := map[string]struct {
		earlier bool
		// hold is the request of run A held until run B has made the same one.
		method, suffix string
	}{
		"the repository's first decisions": {method: http.MethodPost, suffix: "/labels"},
		"later decisions":                  {earlier: true, method: http.MethodPatch, suffix: ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := newBench(t)
			b.settle = 150 * time.Millisecond
			want := []string{"CLR-50-001", "CLR-51-001"}
			if tc.earlier {
				b.askAndAnswer(60, "Earlier")
				d, _ := b.fake.Comment(repo, 60, "coder-agent", "/clarify resolve CLR-60-001 Per key.")
				b.ok("issue_comment", b.eventFile(d))
				want = append([]string{"CLR-60-001"}, want...)
			}
			memoryBefore, _ := b.decisions()
			b.askAndAnswer(50, "Cache scope")
			b.askAndAnswer(51, "Quota scope")
			inMemory := func(r *http.Request) bool {
				if tc.method == http.MethodPost {
					return r.Method == http.MethodPost && r.URL.Path == "/repos/octo/widgets/labels"
				}
				// An edit of a comment of the memory issue: its part.
				return r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/repos/octo/widgets/issues/comments/") &&
					b.isMemoryComment(memoryBefore, r.URL.Path)
			}
			dA, _ := b.fake.Comment(repo, 50, "coder-agent", "/clarify resolve CLR-50-001 Per key.")
			dB, _ := b.fake.Comment(repo, 51, "coder-agent", "/clarify resolve CLR-51-001 Per key.")
			b.heldAtOnce(inMemory, dA, dB)
			sort.Strings(want)
			issue, got := b.decisions()
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("the memory in #%d holds %v, want %v", issue, got, want)
			}
			for _, n := range b.fake.Issues(repo) {
				if n != issue && strings.HasPrefix(b.fake.IssueTitle(repo, n), "Clarify: decisions") {
					t.Errorf("#%d is titled as the decisions issue too, but the label names #%d", n, issue)
				}
			}
		})
	}
}

// TestADecisionStandsWhenItsReadBackFails: the resolve writes the repository's first
// decision, but GitHub fails the read of the memory back (after the transport's retries).
// The write was taken, so the run goes on and exits 0, and the decision is remembered.
func TestADecisionStandsWhenItsReadBackFails(t *testing.T) {
	const listComments = "GET /repos/{owner}/{repo}/issues/{issue_number}/comments"
	b := newBench(t)
	b.askAndAnswer(50, "Cache scope")
	d, _ := b.fake.Comment(repo, 50, "coder-agent", "/clarify resolve CLR-50-001 Per key.")
	b.fake.PassNext(listComments, 1) // the issue's own comments
	b.fake.FailNext(listComments, 502, ghtransport.DefaultRetryAttempts)
	r := b.run("issue_comment", b.eventFile(d))
	if r.code != action.ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stdout)
	}
	if _, ids := b.decisions(); strings.Join(ids, ",") != "CLR-50-001" {
		t.Fatalf("the memory holds %v, want the decision the resolve wrote", ids)
	}
}

// TestARepositorysFirstDecisionMakesItsMemoryInFourWrites: the resolve that makes a
// repository's decision memory opens its issue, names it in the label, posts the first
// part and then, in one edit, signs the index of that part into the issue's body and
// closes the issue (GitHub opens every new issue; its create takes no state). Afterwards
// the issue is closed and its index names the part.
func TestARepositorysFirstDecisionMakesItsMemoryInFourWrites(t *testing.T) {
	b := newBench(t)
	b.askAndAnswer(50, "Cache scope")
	before := len(b.fake.Requests())
	d, _ := b.fake.Comment(repo, 50, "coder-agent", "/clarify resolve CLR-50-001 Per key.")
	b.ok("issue_comment", b.eventFile(d))
	issue, ids := b.decisions()
	if issue == 0 || strings.Join(ids, ",") != "CLR-50-001" {
		t.Fatalf("the memory in #%d holds %v, want CLR-50-001", issue, ids)
	}
	var writes []string
	for _, r := range b.fake.Requests()[before:] {
		if r.Method != http.MethodGet && !strings.Contains(r.Path, "/issues/50/") && !strings.HasPrefix(r.Path, "/repos/octo/widgets/issues/comments/") {
			writes = append(writes, r.Method+" "+r.Path)
		}
	}
	want := []string{
		"POST /repos/octo/widgets/issues",
		"POST /repos/octo/widgets/labels",
		"POST /repos/octo/widgets/issues/" + strconv.Itoa(issue) + "/comments",
		"PATCH /repos/octo/widgets/issues/" + strconv.Itoa(issue),
	}
	if strings.Join(writes, "\n") != strings.Join(want, "\n") {
		t.Errorf("the memory was made with\n%s\nwant\n%s", strings.Join(writes, "\n"), strings.Join(want, "\n"))
	}
	if st := b.fake.IssueState(repo, issue); st != "closed" {
		t.Errorf("the decisions issue #%d is %s, want closed", issue, st)
	}
	ix, err := render.Keyring{Current: []byte(ledgerKey)}.Issue("octo", "widgets", issue).DecodeDecisionsIndex(b.fake.IssueBody(repo, issue))
	parts := b.fake.Comments(repo, issue)
	if err != nil || len(parts) != 1 || len(ix.Parts) != 1 || ix.Parts[0] != parts[0].ID {
		t.Errorf("the index in #%d's body is %+v (%v), want the one part %v", issue, ix, err, parts)
	}
}

// TestTwoFirstPartsBothStand: run A makes the repository's decision memory, and run B,
// resolving another issue at the same moment, finds it through the label before A's first
// part is there, so B posts a first part of its own, after A's. A made the memory and does
// not read it back; the memory as Clarify reads it must still hold both decisions.
func TestTwoFirstPartsBothStand(t *testing.T) {
	b := newBench(t)
	b.settle = 100 * time.Millisecond
	b.askAndAnswer(50, "Cache scope")
	b.askAndAnswer(51, "Quota scope")
	memory := "/repos/octo/widgets/issues/52/comments" // the next issue made: A's memory
	tokenA, tokenB := b.fake.WorkflowToken(repo), b.fake.WorkflowToken(repo)
	label := "/repos/octo/widgets/labels"
	b.sequence([]hold{
		{req: req{tokenB, http.MethodGet, label + "/" + ledger.DecisionsLabel}, until: "A claimed"},
		{req: req{tokenA, http.MethodPost, memory}, until: "B read"},
		{req: req{tokenB, http.MethodPost, memory}, until: "A posted"},
	}, []signal{
		{req{tokenA, http.MethodPost, label}, "A claimed"},
		{req{tokenB, http.MethodGet, memory}, "B read"},
		{req{tokenA, http.MethodPost, memory}, "A posted"},
	})
	dA, _ := b.fake.Comment(repo, 50, "coder-agent", "/clarify resolve CLR-50-001 Per key.")
	dB, _ := b.fake.Comment(repo, 51, "coder-agent", "/clarify resolve CLR-51-001 Per key.")
	envA, envB := b.env("issue_comment", b.eventFile(dA)), b.env("issue_comment", b.eventFile(dB))
	envA.Token, envB.Token = tokenA, tokenB
	b.runBoth(envA, envB)
	client := github.NewClient(nil).WithAuthToken(b.token)
	client.BaseURL, _ = url.Parse(b.url + "/")
	reader := ledger.Reader{Bot: fakegithub.ActionsBotLogin, Keys: render.Keyring{Current: []byte(ledgerKey)}}
	m, err := reader.ReadDecisions(context.Background(), client, "octo", "widgets")
	var ids []string
	for _, d := range m.Decisions {
		ids = append(ids, d.ID)
	}
	sort.Strings(ids)
	if err != nil || strings.Join(ids, ",") != "CLR-50-001,CLR-51-001" {
		t.Fatalf("the memory reads %v (%v), want both decisions:\n%s", ids, err, b.fake.Transcript(repo, 52))
	}
}
