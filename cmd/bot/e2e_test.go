package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/render"
)

const repo = "octo/widgets"

func newHarness(t *testing.T) *Harness {
	t.Helper()
	var logs io.Writer = io.Discard
	if testing.Verbose() {
		logs = os.Stderr
	}
	h, err := NewHarness(logs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	h.Fake.AddInstallation(1, "octo", repo)
	h.Fake.AddUser("maria", "User")
	h.Fake.SetPermission(repo, "maria", "write")
	h.Fake.AddUser("coder-agent", "Bot")
	h.Fake.AddUser("drive-by", "User")
	h.Fake.SetPermission(repo, "drive-by", "read")
	h.Fake.OpenIssue(repo, 42, "Rate-limit the public API", "maria")
	return h
}

// world records every delivery sent, so a test can send them all again.
type world struct {
	t    *testing.T
	h    *Harness
	sent []fakegithub.Delivery
}

func (w *world) send(d fakegithub.Delivery) int {
	w.t.Helper()
	st, err := w.h.Deliver(context.Background(), d)
	if err != nil {
		w.t.Fatal(err)
	}
	w.sent = append(w.sent, d)
	return st
}

func (w *world) comment(author, body string) int64 {
	w.t.Helper()
	d, id := w.h.Fake.Comment(repo, 42, author, body)
	if st := w.send(d); st != http.StatusOK {
		w.t.Fatalf("delivery of %s's comment answered %d, want 200", author, st)
	}
	return id
}

// ledger reads the ledger from the app's status comment, as the app does.
func (w *world) ledger() clarify.Ledger {
	w.t.Helper()
	var found []fakegithub.Comment
	for _, c := range w.h.Fake.Comments(repo, 42) {
		if c.User == "clarify[bot]" && render.IsStatus(c.Body) {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		w.t.Fatalf("want exactly one status comment, found %d", len(found))
	}
	l, err := render.DecodeLedger(found[0].Body, w.h.Config.LedgerKeyBytes())
	if err != nil {
		w.t.Fatal(err)
	}
	return l
}

func (w *world) botComments(contains string) int {
	n := 0
	for _, c := range w.h.Fake.Comments(repo, 42) {
		if c.User == "clarify[bot]" && strings.Contains(c.Body, contains) {
			n++
		}
	}
	return n
}

func (w *world) labels() string { return strings.Join(w.h.Fake.IssueLabels(repo, 42), ",") }

// replayAll sends every delivery again with the same delivery ids and asserts that
// nothing in the in-memory GitHub changed: GitHub redelivers with the same id.
func (w *world) replayAll() {
	w.t.Helper()
	before := w.h.Fake.Fingerprint()
	for _, d := range append([]fakegithub.Delivery(nil), w.sent...) {
		w.send(d)
	}
	if after := w.h.Fake.Fingerprint(); after != before {
		w.t.Errorf("replaying every delivery changed the issue:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

func TestAskAnswerFollowupResolve(t *testing.T) {
	w := &world{t: t, h: newHarness(t)}
	ask := w.comment("coder-agent", "/clarify @maria Should the limit apply per API key or per client IP?\nOptions:\na) per API key\nb) per client IP\nFallback: a")

	if got := w.botComments("Clarification needed · CLR-42-001 · round 1/5 · blocking"); got != 1 {
		t.Fatalf("round 1 mirrored %d times, want once", got)
	}
	if got := w.labels(); got != "clarification:active" {
		t.Errorf("labels after ask = %q, want clarification:active", got)
	}
	if color, desc, ok := w.h.Fake.RepoLabel(repo, "clarification:active"); !ok || color != "1d76db" || desc == "" {
		t.Errorf("repository label = %q %q %v, want it created with our colour and a description", color, desc, ok)
	}
	l := w.ledger()
	c, ok := l.Find("CLR-42-001")
	if !ok || c.Status != clarify.Pending || c.Round != 1 || c.Asker.Login != "coder-agent" || c.Target.Name != "maria" || len(c.Options) != 2 || c.Fallback != "a" {
		t.Fatalf("after ask: %+v", c)
	}
	if c.Thread[0].CommentID != ask {
		t.Errorf("question entry records comment %d, want %d", c.Thread[0].CommentID, ask)
	}

	answer := w.comment("maria", "Per API key: anonymous calls are blocked at the gateway.")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered || c.Thread[1].Kind != clarify.KindAnswer || c.Thread[1].CommentID != answer {
		t.Fatalf("after answer: %+v", c)
	}
	if r := reactionsOn(w.h, answer); r != "+1:clarify[bot]" {
		t.Errorf("reaction on the answer = %q, want +1 by the app", r)
	}
	if w.botComments("Clarification needed") != 1 {
		t.Error("an answer typed as a reply must not be copied into a comment")
	}

	w.comment("coder-agent", "/clarify followup CLR-42-001 Which limit per key: 100 or 1000 a minute?")
	if got := w.botComments("CLR-42-001 · round 2/5"); got != 1 {
		t.Fatalf("round 2 mirrored %d times, want once", got)
	}
	w.comment("maria", "1000 a minute, bursts of 100.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per key, 1000/min, bursts of 100.")

	c, _ = w.ledger().Find("CLR-42-001")
	if c.Status != clarify.Resolved || c.Round != 2 || c.Resolution != "Per key, 1000/min, bursts of 100." {
		t.Fatalf("after resolve: %+v", c)
	}
	kinds := []clarify.EntryKind{}
	for _, e := range c.Thread {
		kinds = append(kinds, e.Kind)
	}
	if fmt.Sprint(kinds) != "[question answer question answer resolution]" {
		t.Errorf("thread = %v", kinds)
	}
	if got := w.labels(); got != "" {
		t.Errorf("labels after resolve = %q, want none", got)
	}
	if n := w.botComments(render.StatusMarker); n != 1 {
		t.Errorf("%d status comments, want 1 edited in place", n)
	}
	for _, r := range w.h.Fake.Requests() {
		if r.Unhandled {
			t.Errorf("the app called a route the in-memory GitHub does not serve: %s %s", r.Method, r.Path)
		}
	}
	w.replayAll()
}

func reactionsOn(h *Harness, id int64) string {
	for _, c := range h.Fake.Comments(repo, 42) {
		if c.ID != id {
			continue
		}
		var out []string
		for content, who := range c.Reactions {
			out = append(out, content+":"+strings.Join(who, ","))
		}
		return strings.Join(out, ";")
	}
	return "(no such comment)"
}

func TestBadDeliveriesChangeNothing(t *testing.T) {
	h := newHarness(t)
	d, _ := h.Fake.Comment(repo, 42, "coder-agent", "/clarify @maria Which database?")
	before := h.Fake.Fingerprint()

	post := func(body []byte, header func(http.Header)) int {
		req, err := d.Request(h.HookURL(), h.Secret)
		if err != nil {
			t.Fatal(err)
		}
		if body != nil {
			req, _ = http.NewRequest(http.MethodPost, h.HookURL(), bytes.NewReader(body))
			for k, v := range must(d.Request(h.HookURL(), h.Secret)).Header {
				req.Header[k] = v
			}
		}
		header(req.Header)
		resp, err := h.AppServer.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h.App.Scheduler.Wait()
		return resp.StatusCode
	}
	sign := func(body []byte) string { return signature(h.Secret, body) }
	malformed := []byte(`{"action":"created","issue":`)

	cases := map[string]struct {
		body   []byte
		header func(http.Header)
		want   int
	}{
		"missingSignatureIsUnauthorized": {nil, func(hd http.Header) { hd.Del("X-Hub-Signature-256"); hd.Del("X-Hub-Signature") }, http.StatusUnauthorized},
		"wrongSignatureIsUnauthorized":   {nil, func(hd http.Header) { hd.Set("X-Hub-Signature-256", "sha256="+strings.Repeat("0", 64)) }, http.StatusUnauthorized},
		"signatureByAnotherSecretIsUnauthorized": {nil, func(hd http.Header) {
			hd.Set("X-Hub-Signature-256", signature([]byte("not-the-secret"), d.Body))
		}, http.StatusUnauthorized},
		"malformedJSONIsBadRequest":    {malformed, func(hd http.Header) { hd.Set("X-Hub-Signature-256", sign(malformed)) }, http.StatusBadRequest},
		"missingEventTypeIsBadRequest": {nil, func(hd http.Header) { hd.Del("X-GitHub-Event") }, http.StatusBadRequest},
		"unhandledEventIsAccepted":     {nil, func(hd http.Header) { hd.Set("X-GitHub-Event", "star") }, http.StatusAccepted},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := post(tc.body, tc.header); got != tc.want {
				t.Errorf("status = %d, want %d", got, tc.want)
			}
			if after := h.Fake.Fingerprint(); after != before {
				t.Errorf("the issue changed:\n%s", after)
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestIneligibleRepliesMoveNothing(t *testing.T) {
	w := &world{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	before := w.ledger()
	w.h.Fake.ResetRequests()

	w.comment("drive-by", "Per IP, obviously.")          // a drive-by commenter
	w.comment("drive-by", "CLR-42-001: per IP!")         // naming the id does not make them eligible
	w.comment("coder-agent", "I think per key is right") // the asker's own remark is no answer
	w.h.Fake.AddUser("other-bot", "Bot")
	w.comment("other-bot", "Per key.") // another bot's plain reply

	if got := w.ledger(); got.Clarifications[0].Status != clarify.Pending || len(got.Clarifications[0].Thread) != len(before.Clarifications[0].Thread) {
		t.Errorf("an ineligible reply moved the ledger: %+v", got.Clarifications[0])
	}
	if got := writes(w.h); len(got) != 0 {
		t.Errorf("an ineligible reply made the app write: %v", got)
	}
}

// writes lists the app's writes since the request log was last reset.
func writes(h *Harness) []string {
	var out []string
	for _, r := range h.Fake.Requests() {
		if r.Method != http.MethodGet && !strings.Contains(r.Route, "access_tokens") {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}

func TestCommandsOnlyFromNewUnquotedText(t *testing.T) {
	w := &world{t: t, h: newHarness(t)}
	cases := []string{
		"> /clarify @maria quoted from an e-mail reply",
		"```\n/clarify @maria inside a code block\n```",
		"<!-- /clarify @maria inside an HTML comment -->",
	}
	for _, body := range cases {
		w.comment("coder-agent", body)
	}
	_, id := w.h.Fake.Comment(repo, 42, "coder-agent", "Just a note.")
	w.send(w.h.Fake.EditComment(repo, id, "coder-agent", "/clarify @maria added by an edit"))
	for _, c := range w.h.Fake.Comments(repo, 42) {
		if c.User == "clarify[bot]" {
			t.Fatalf("the app commented although no new comment held a command:\n%s", c.Body)
		}
	}
	if labels := w.labels(); labels != "" {
		t.Errorf("labels = %q", labels)
	}
}

func TestLookAlikeLedgerInSomeoneElsesCommentIsIgnored(t *testing.T) {
	w := &world{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	forged := strings.Replace(w.h.Fake.Comments(repo, 42)[2].Body, "pending", "resolved", -1)
	if !render.IsStatus(forged) {
		t.Fatal("test setup: expected to copy the status comment")
	}
	w.comment("maria", forged) // maria pastes a status comment look-alike
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status == clarify.Resolved {
		t.Fatal("a look-alike ledger in a user's comment was read")
	}
}

func TestLedgerFoundPastTheFirstPage(t *testing.T) {
	w := &world{t: t, h: newHarness(t)}
	for i := 0; i < 130; i++ { // more than one page of 100 before the ask
		w.h.Fake.Comment(repo, 42, "drive-by", fmt.Sprintf("chatter %d", i))
	}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	for i := 0; i < 120; i++ {
		w.h.Fake.Comment(repo, 42, "drive-by", fmt.Sprintf("more chatter %d", i))
	}
	w.comment("maria", "Per key.")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered {
		t.Fatalf("status = %s, want answered: the status comment sits on page 2", c.Status)
	}
	if n := w.botComments(render.StatusMarker); n != 1 {
		t.Errorf("%d status comments, want 1", n)
	}
}

func TestConcurrentDeliveriesForOneIssueApplyOneAtATime(t *testing.T) {
	h := newHarness(t)
	var ds []fakegithub.Delivery
	for i := 0; i < 6; i++ {
		d, _ := h.Fake.Comment(repo, 42, "coder-agent", fmt.Sprintf("/clarify @maria --non-blocking question %d?", i))
		ds = append(ds, d)
	}
	var wg sync.WaitGroup
	for _, d := range ds {
		wg.Add(1)
		go func(d fakegithub.Delivery) {
			defer wg.Done()
			if st, err := fakegithub.Send(context.Background(), h.AppServer.Client(), h.HookURL(), h.Secret, d); err != nil || st != http.StatusOK {
				t.Errorf("send: %d %v", st, err)
			}
		}(d)
	}
	wg.Wait()
	h.App.Scheduler.Wait()
	w := &world{t: t, h: h}
	l := w.ledger()
	if len(l.Clarifications) != 6 {
		t.Fatalf("%d clarifications, want 6", len(l.Clarifications))
	}
	for i, c := range l.Clarifications {
		if want := fmt.Sprintf("question %d?", i); c.Thread[0].Text != want {
			t.Errorf("%s holds %q, want %q: the fold applies comments in order", c.ID, c.Thread[0].Text, want)
		}
		if got := w.botComments("Clarification needed · " + c.ID + " ·"); got != 1 {
			t.Errorf("%s mirrored %d times", c.ID, got)
		}
	}
}

func TestClosingAbandonsReopeningRevivesNothing(t *testing.T) {
	w := &world{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.send(w.h.Fake.CloseIssue(repo, 42, "maria"))
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Abandoned {
		t.Fatalf("after close: %s", c.Status)
	}
	if got := w.labels(); got != "" {
		t.Errorf("labels after close = %q", got)
	}
	w.send(w.h.Fake.ReopenIssue(repo, 42, "maria"))
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Abandoned {
		t.Fatalf("after reopen: %s", c.Status)
	}
	w.replayAll()
}

func TestRefusalSaysWhatToType(t *testing.T) {
	w := &world{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify frobnicate CLR-42-001")
	w.comment("maria", "/respond Per key.")
	if n := w.botComments("> /clarify frobnicate CLR-42-001"); n != 1 {
		t.Errorf("refusal of the unknown command posted %d times, want once, quoting it", n)
	}
	if n := w.botComments("/respond Per key."); n != 1 {
		t.Errorf("a /respond with nothing awaiting got %d refusals, want 1", n)
	}
	w.replayAll()
}

func TestRecordedDeliveries(t *testing.T) {
	files, _ := filepath.Glob("testdata/deliveries/*.http")
	if len(files) == 0 {
		t.Fatal("no recorded deliveries under testdata/deliveries")
	}
	h, err := NewHarness(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	touched := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := playRecorded(context.Background(), h, f, b, touched); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	var out bytes.Buffer
	printWorld(&out, h, touched)
	if !strings.Contains(out.String(), "Clarification needed · CLR-") {
		t.Errorf("the recorded ask was not mirrored:\n%s", out.String())
	}
}

func TestDemoReplayPrintsTheIssue(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"replay"}, &out, &errs); code != 0 {
		t.Fatalf("replay exited %d: %s", code, errs.String())
	}
	for _, want := range []string{"CLR-42-001 · round 1/5", "CLR-42-001 · round 2/5", "resolved", "POST /repos/{owner}/{repo}/issues/{issue_number}/comments"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("replay output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestAskAfterReopenIsTaken(t *testing.T) {
	w := &world{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.send(w.h.Fake.CloseIssue(repo, 42, "maria"))
	w.send(w.h.Fake.ReopenIssue(repo, 42, "maria"))
	w.comment("coder-agent", "/clarify @maria Per key or per IP, now that it is reopened?")
	if c, ok := w.ledger().Find("CLR-42-002"); !ok || c.Status != clarify.Pending {
		t.Fatalf("an ask in the reopened issue was not taken: %+v", c)
	}
	if got := w.labels(); got != "clarification:active" {
		t.Errorf("labels %q", got)
	}
}
