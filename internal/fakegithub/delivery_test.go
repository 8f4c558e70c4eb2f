package fakegithub

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-github/v60/github"
)

// parseEvent validates nothing; it decodes a delivery as go-githubapp would.
func parseEvent(t *testing.T, d Delivery) any {
	t.Helper()
	ev, err := github.ParseWebHook(d.Event, d.Body)
	if err != nil {
		t.Fatalf("ParseWebHook(%s): %v", d.Event, err)
	}
	return ev
}

func TestDeliverySignatureAndHeaders(t *testing.T) {
	f := newFixture(t)
	d, _ := f.s.Comment(testRepo, 42, "alice", "Which timezone?")
	secret := []byte("s3cret")
	req, err := d.Request("http://app.example/api/github/hook", secret)
	if err != nil {
		t.Fatal(err)
	}
	payload, err := github.ValidatePayload(req, secret)
	if err != nil {
		t.Fatalf("ValidatePayload: %v", err)
	}
	if !bytes.Equal(payload, d.Body) {
		t.Error("validated payload differs from the body")
	}
	if github.WebHookType(req) != "issue_comment" || github.DeliveryID(req) != d.ID {
		t.Errorf("event %q delivery %q", github.WebHookType(req), github.DeliveryID(req))
	}
	for h, want := range map[string]string{
		"Content-Type":                           "application/json",
		"X-GitHub-Hook-ID":                       "470000001",
		"X-GitHub-Hook-Installation-Target-Type": "integration",
		"X-GitHub-Hook-Installation-Target-ID":   "4242",
	} {
		if got := req.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	if !strings.HasPrefix(req.Header.Get("User-Agent"), "GitHub-Hookshot/") || !strings.HasPrefix(req.Header.Get("X-Hub-Signature"), "sha1=") {
		t.Errorf("headers = %v", req.Header)
	}

	// The sha1 signature alone validates too (go-github falls back to it).
	req, _ = d.Request("http://app.example/hook", secret)
	req.Header.Del("X-Hub-Signature-256")
	if _, err := github.ValidatePayload(req, secret); err != nil {
		t.Errorf("sha1 signature: %v", err)
	}
	req, _ = d.Request("http://app.example/hook", secret)
	if _, err := github.ValidatePayload(req, []byte("wrong")); err == nil {
		t.Error("a wrong secret validated")
	}
}

func TestIssueCommentPayload(t *testing.T) {
	f := newFixture(t)
	f.client.Issues.AddLabelsToIssue(f.ctx, "octo", "widgets", 42, []string{"clarification:active"})
	d, id := f.s.Comment(testRepo, 42, "alice", "Which timezone? <!-- hidden -->")
	ev, ok := parseEvent(t, d).(*github.IssueCommentEvent)
	if !ok {
		t.Fatalf("parsed as %T", parseEvent(t, d))
	}
	checks := map[string][2]any{
		"action":                   {ev.GetAction(), "created"},
		"issue.number":             {ev.GetIssue().GetNumber(), 42},
		"issue.title":              {ev.GetIssue().GetTitle(), "Pick a timezone"},
		"issue.state":              {ev.GetIssue().GetState(), "open"},
		"issue.comments":           {ev.GetIssue().GetComments(), 1},
		"issue.user":               {ev.GetIssue().GetUser().GetLogin(), "alice"},
		"issue.labels":             {len(ev.GetIssue().Labels), 1},
		"issue.label name":         {ev.GetIssue().Labels[0].GetName(), "clarification:active"},
		"issue.html_url":           {ev.GetIssue().GetHTMLURL(), "https://github.com/octo/widgets/issues/42"},
		"comment.id":               {ev.GetComment().GetID(), id},
		"comment.body":             {ev.GetComment().GetBody(), "Which timezone? <!-- hidden -->"},
		"comment.user":             {ev.GetComment().GetUser().GetLogin(), "alice"},
		"comment.user.type":        {ev.GetComment().GetUser().GetType(), "User"},
		"comment.association":      {ev.GetComment().GetAuthorAssociation(), "COLLABORATOR"},
		"comment.created_at":       {ev.GetComment().GetCreatedAt().Time.Equal(DefaultStart), true},
		"repository.full_name":     {ev.GetRepo().GetFullName(), "octo/widgets"},
		"repository.owner":         {ev.GetRepo().GetOwner().GetLogin(), "octo"},
		"repository.default":       {ev.GetRepo().GetDefaultBranch(), "main"},
		"sender":                   {ev.GetSender().GetLogin(), "alice"},
		"installation.id":          {ev.GetInstallation().GetID(), int64(1)},
		"installation.node_id":     {ev.GetInstallation().GetNodeID() != "", true},
		"organization":             {ev.GetOrganization().GetLogin(), "octo"},
		"changes (created has no)": {ev.Changes == nil, true},
	}
	for name, c := range checks {
		if c[0] != c[1] {
			t.Errorf("%s = %v, want %v", name, c[0], c[1])
		}
	}
	checkRawCommentPayload(t, d.Body)

	d = f.s.EditComment(testRepo, id, "alice", "Which timezone, UTC or local?")
	ev = parseEvent(t, d).(*github.IssueCommentEvent)
	if ev.GetAction() != "edited" || ev.GetChanges().GetBody().GetFrom() != "Which timezone? <!-- hidden -->" || ev.GetComment().GetBody() != "Which timezone, UTC or local?" {
		t.Errorf("edited: %+v", ev)
	}
	d = f.s.DeleteComment(testRepo, id, "alice")
	ev = parseEvent(t, d).(*github.IssueCommentEvent)
	if ev.GetAction() != "deleted" || ev.GetComment().GetID() != id || ev.GetIssue().GetComments() != 0 {
		t.Errorf("deleted: %+v", ev)
	}
}

// checkRawCommentPayload wants body, a comment delivery whose comment holds
// "<!-- hidden -->", unescaped as GitHub sends it and with the comment's fields that
// go-github's types do not show.
func checkRawCommentPayload(t *testing.T, body []byte) {
	t.Helper()
	// GitHub does not HTML-escape payloads.
	if !bytes.Contains(body, []byte("<!-- hidden -->")) {
		t.Error("the body was HTML-escaped")
	}
	var raw map[string]json.RawMessage
	json.Unmarshal(body, &raw)
	var comment map[string]json.RawMessage
	json.Unmarshal(raw["comment"], &comment)
	for _, k := range []string{"url", "html_url", "issue_url", "node_id", "reactions", "performed_via_github_app"} {
		if _, ok := comment[k]; !ok {
			t.Errorf("comment has no %q", k)
		}
	}
}

func TestIssuesPayload(t *testing.T) {
	f := newFixture(t)
	d := f.s.OpenIssueWithBody(testRepo, 7, "New issue", "bob", "Details")
	ev := parseEvent(t, d).(*github.IssuesEvent)
	if ev.GetAction() != "opened" || ev.GetIssue().GetNumber() != 7 || ev.GetIssue().GetBody() != "Details" || ev.GetSender().GetLogin() != "bob" || ev.GetInstallation().GetID() != 1 {
		t.Errorf("opened: %+v", ev)
	}
	f.s.Advance(5 * 60e9)
	ev = parseEvent(t, f.s.CloseIssue(testRepo, 7, "alice")).(*github.IssuesEvent)
	if ev.GetAction() != "closed" || ev.GetIssue().GetState() != "closed" || ev.GetIssue().GetClosedAt().IsZero() || ev.GetIssue().GetStateReason() != "completed" {
		t.Errorf("closed: %+v", ev.GetIssue())
	}
	ev = parseEvent(t, f.s.ReopenIssue(testRepo, 7, "alice")).(*github.IssuesEvent)
	if ev.GetAction() != "reopened" || ev.GetIssue().GetState() != "open" || ev.GetIssue().ClosedAt != nil {
		t.Errorf("reopened: %+v", ev.GetIssue())
	}
	if f.s.IssueState(testRepo, 7) != "open" {
		t.Error("state not kept")
	}
	defer func() {
		if recover() == nil {
			t.Error("reopening an open issue did not panic")
		}
	}()
	f.s.ReopenIssue(testRepo, 7, "alice")
}

func TestDeliveryIDsAreUnique(t *testing.T) {
	f := newFixture(t)
	seen := map[string]bool{}
	for i := 0; i < 50; i++ {
		d, _ := f.s.Comment(testRepo, 42, "alice", "x")
		if seen[d.ID] || len(d.ID) != 36 {
			t.Fatalf("delivery id %q repeated or not GUID-shaped", d.ID)
		}
		seen[d.ID] = true
	}
}

func TestSend(t *testing.T) {
	f := newFixture(t)
	var got []string
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := github.ValidatePayload(r, []byte("s3cret")); err != nil {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		got = append(got, github.DeliveryID(r))
		w.WriteHeader(http.StatusAccepted)
	}))
	defer hook.Close()

	d, _ := f.s.Comment(testRepo, 42, "alice", "hi")
	if status, err := Send(f.ctx, hook.Client(), hook.URL, []byte("s3cret"), d); err != nil || status != http.StatusAccepted {
		t.Errorf("Send: %d %v", status, err)
	}
	if status, err := f.s.Deliver(f.ctx, nil, hook.URL, d); err != nil || status != http.StatusAccepted {
		t.Errorf("Deliver: %d %v", status, err)
	}
	status, err := Send(f.ctx, nil, hook.URL, []byte("wrong"), d)
	if status != http.StatusUnauthorized || err == nil || !strings.Contains(err.Error(), "bad signature") {
		t.Errorf("rejected delivery: %d %v, want 401 and an error quoting the answer", status, err)
	}
	if len(got) != 2 || got[0] != d.ID {
		t.Errorf("received %v", got)
	}
}

func TestReadRecorded(t *testing.T) {
	f := newFixture(t)
	d, _ := f.s.Comment(testRepo, 42, "alice", "recorded")
	req, _ := d.Request("http://app.example/api/github/hook", []byte("s3cret"))
	var buf bytes.Buffer
	if err := req.Write(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRecorded(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != d.ID || got.Event != d.Event || !bytes.Equal(got.Body, d.Body) || got.HookID != HookID || got.AppID != testAppID {
		t.Errorf("read back %+v", got)
	}

	// A hand-written recording without Content-Length, with LF line ends.
	hand := "POST /api/github/hook HTTP/1.1\nHost: app\nX-GitHub-Event: issues\nX-GitHub-Delivery: abc-123\nContent-Type: application/json\n\n{\"action\":\"opened\"}\n\n"
	got, err = ReadRecorded(strings.NewReader(hand))
	if err != nil || got.Event != "issues" || got.ID != "abc-123" || string(got.Body) != `{"action":"opened"}` {
		t.Errorf("hand-written: %+v %v", got, err)
	}

	bad := map[string]string{
		"noEvent":   "POST / HTTP/1.1\nX-GitHub-Delivery: x\n\n{}",
		"noID":      "POST / HTTP/1.1\nX-GitHub-Event: issues\n\n{}",
		"notJSON":   "POST / HTTP/1.1\nX-GitHub-Event: issues\nX-GitHub-Delivery: x\n\nhello",
		"notHTTP":   `{"action":"opened"}`,
		"emptyFile": "",
	}
	for name, in := range bad {
		if _, err := ReadRecorded(strings.NewReader(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestIngestSeedsAnotherServer(t *testing.T) {
	src := newFixture(t)
	src.client.Issues.AddLabelsToIssue(src.ctx, "octo", "widgets", 42, []string{"bug"})
	d1, id := src.s.Comment(testRepo, 42, "alice", "first")
	d2 := src.s.EditComment(testRepo, id, "alice", "first, edited")
	botComment, _, err := src.client.Issues.CreateComment(src.ctx, "octo", "widgets", 42, &github.IssueComment{Body: github.String("status")})
	if err != nil {
		t.Fatal(err)
	}
	d3 := src.s.TakeOutbox()[0]

	dst := New(Options{AppID: testAppID})
	ingestAll(t, dst, d1, d2, d3)
	got := dst.Comments(testRepo, 42)
	if len(got) != 2 || got[0].ID != id || got[0].Body != "first, edited" || got[1].ID != botComment.GetID() || got[1].UserType != "Bot" {
		t.Errorf("comments = %+v", got)
	}
	if labels := dst.IssueLabels(testRepo, 42); len(labels) != 1 || labels[0] != "bug" {
		t.Errorf("labels = %v", labels)
	}
	// Ids stay monotonic past the ingested ones, and the app can use the fake right away.
	srv := httptest.NewServer(dst)
	defer srv.Close()
	c := tokenClient(t, srv.URL, dst.IssueToken(1))
	nc, _, err := c.Issues.CreateComment(src.ctx, "octo", "widgets", 42, &github.IssueComment{Body: github.String("new")})
	if err != nil || nc.GetID() <= botComment.GetID() {
		t.Errorf("new comment %v %v", nc.GetID(), err)
	}

	// Deleted and closed bring the state along.
	del := src.s.DeleteComment(testRepo, id, "alice")
	closed := src.s.CloseIssue(testRepo, 42, "alice")
	ingestAll(t, dst, del, closed)
	if len(dst.Comments(testRepo, 42)) != 2 || dst.IssueState(testRepo, 42) != "closed" {
		t.Errorf("after deleted+closed: %d comments, state %s", len(dst.Comments(testRepo, 42)), dst.IssueState(testRepo, 42))
	}
}

// ingestAll has dst ingest each delivery, failing t on the first it refuses.
func ingestAll(t *testing.T, dst *Server, ds ...Delivery) {
	t.Helper()
	for _, d := range ds {
		if err := dst.Ingest(d.Event, d.Body); err != nil {
			t.Fatalf("Ingest %s: %v", d.ID, err)
		}
	}
}

func TestIngestRefusesAPayloadWithoutRepositoryOrNotJSON(t *testing.T) {
	dst := New(Options{AppID: testAppID})
	if err := dst.Ingest("issue_comment", []byte(`{"action":"created"}`)); err == nil {
		t.Error("a payload without repository was ingested")
	}
	if err := dst.Ingest("issue_comment", []byte(`nope`)); err == nil {
		t.Error("a payload that is not JSON was ingested")
	}
}

func TestIngestRecordedFile(t *testing.T) {
	f := newFixture(t)
	d, _ := f.s.Comment(testRepo, 42, "alice", "from the wire")
	req, _ := d.Request("http://app/hook", []byte("s3cret"))
	var buf bytes.Buffer
	req.Write(&buf)
	rec, err := ReadRecorded(io.MultiReader(&buf))
	if err != nil {
		t.Fatal(err)
	}
	dst := New(Options{})
	if err := dst.Ingest(rec.Event, rec.Body); err != nil {
		t.Fatal(err)
	}
	if c := dst.Comments(testRepo, 42); len(c) != 1 || c[0].Body != "from the wire" {
		t.Errorf("comments = %+v", c)
	}
}
