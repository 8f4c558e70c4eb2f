package handlers_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
	"github.com/clarify-app/clarify/wire"
)

// trickyState is a state an agent might send: non-ASCII, quotes, an HTML comment's end,
// markup, and a base64 blob (from seed) that does not compress; n bytes long.
func trickyState(seed string, n int) string {
	s := "sess-é漢字👍 \"quoted\" 'single' --> <!-- <b>&amp;</b> \\n \x01 blob="
	var blob []byte
	for h := sha256.Sum256([]byte(seed)); len(s)+base64.StdEncoding.EncodedLen(len(blob)) < n; h = sha256.Sum256(h[:]) {
		blob = append(blob, h[:]...)
	}
	return (s + base64.StdEncoding.EncodeToString(blob))[:n]
}

// byRef finds the clarification an asker opened under ref the way the asker's client does,
// without the app's key: the ledger of the app's status comment, read unverified, and the
// hidden record of the app's round comment for it. It returns the clarification (zero when
// none), and the ref the round's record names.
func (w *driver) byRef(asker, ref string) (clarify.Clarification, string) {
	w.t.Helper()
	_, body := w.statusComment()
	l, err := render.DecodeLedgerUnverified(body)
	if err != nil {
		w.t.Fatal(err)
	}
	var found clarify.Clarification
	for _, c := range l.Clarifications {
		if c.Ref == ref && strings.EqualFold(c.Asker.Login, asker) {
			found = c
		}
	}
	for _, c := range w.h.Fake.Comments(repo, 42) {
		for _, rec := range render.ReadRecords(c.Body) {
			if c.User == "clarify[bot]" && rec.Kind == render.RecordRound && rec.ID == found.ID {
				return found, rec.Ref
			}
		}
	}
	return found, ""
}

// wantByRef checks that coder-agent finds id under ref, in the ledger and in the record of
// its round, with state kept whole.
func (w *driver) wantByRef(ref, id, state string) {
	w.t.Helper()
	c, roundRef := w.byRef("coder-agent", ref)
	if c.ID != id || roundRef != ref || c.State != state {
		w.t.Fatalf("by ref %q: id %s, round record ref %q, state kept %v; want %s", ref, c.ID, roundRef, c.State == state, id)
	}
}

// wakeContexts reads the wake-ups GitHub received, verbatim, as "event id" and the context
// sent with each, and checks each against GitHub's limits for a client_payload.
func (w *driver) wakeContexts() ([]string, []map[string]string) {
	w.t.Helper()
	var sent []string
	var contexts []map[string]string
	for _, d := range w.h.Fake.Dispatches(repo) {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(d.ClientPayload, &top); err != nil {
			w.t.Fatal(err)
		}
		if len(top) > 10 || len(d.ClientPayload) >= 64<<10 {
			w.t.Errorf("wake-up client_payload has %d top-level keys and %d bytes; GitHub allows 10 and under 64 KB", len(top), len(d.ClientPayload))
		}
		var p struct {
			ID      string            `json:"id"`
			Context map[string]string `json:"context"`
		}
		if err := json.Unmarshal(d.ClientPayload, &p); err != nil {
			w.t.Fatal(err)
		}
		sent, contexts = append(sent, d.EventType+" "+p.ID), append(contexts, p.Context)
	}
	return sent, contexts
}

// askBoth has coder-agent ask once through a comment with a Ref: line, once through a
// dispatch with ref and state; it returns the comment's id.
func (w *driver) askBoth(dispatchRef, state string) int64 {
	id := w.comment("coder-agent", "/clarify @maria Per API key or per client IP?\nRef: comment-step-1")
	w.dispatch("coder-agent", map[string]any{"issue": 42, "action": "ask", "target": "@maria", "question": "Which header carries the key?",
		"context": map[string]any{"ref": dispatchRef, "state": state}})
	return id
}

// TestAskerRefAndStateInAppMode: an agent asks through a comment with a Ref: line and
// through a dispatch with ref and state; it finds each id by its ref; maria answers; each
// wake-up carries the ask's ref and state byte for byte. A retried ask of either kind is
// asked once, with no comment, and every redelivery changes nothing.
func TestAskerRefAndStateInAppMode(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
	state := trickyState("state", clarify.MaxStateBytes)
	dispatchRef := `run 981 "é" --> step/3`
	w.askBoth(dispatchRef, state)

	w.wantByRef("comment-step-1", "CLR-42-001", "")
	w.wantByRef(dispatchRef, "CLR-42-002", state)
	if n := w.botComments("blob="); n != 0 {
		t.Errorf("%d of the app's comments show the state:\n%s", n, w.h.Fake.Transcript(repo, 42))
	}

	// The retried step asks again, both ways: the same ids, nothing new in the thread.
	comments := len(w.h.Fake.Comments(repo, 42))
	retry := w.askBoth(dispatchRef, state)
	if l := w.ledger(); len(l.Clarifications) != 2 || len(w.h.Fake.Comments(repo, 42)) != comments+1 {
		t.Fatalf("after the retries: %d clarifications, %d new comments (want 2, and only the retried comment):\n%s",
			len(l.Clarifications), len(w.h.Fake.Comments(repo, 42))-comments, w.h.Fake.Transcript(repo, 42))
	}
	if got := w.h.Fake.Comments(repo, 42)[comments].Reactions["+1"]; w.h.Fake.Comments(repo, 42)[comments].ID != retry || len(got) != 1 {
		t.Errorf("the retried comment ask got +1 from %v, want the app's one", got)
	}

	w.comment("maria", "/respond CLR-42-001 Per API key.")
	w.comment("maria", "/respond CLR-42-002 X-Api-Key.")
	sent, contexts := w.wakeContexts()
	if got := strings.Join(sent, ", "); got != "clarify-answered CLR-42-001, clarify-answered CLR-42-002" {
		t.Fatalf("wake-ups %s", got)
	}
	if c := contexts[0]; c["ref"] != "comment-step-1" || len(c) != 1 {
		t.Errorf("first wake-up's context %v, want ref comment-step-1 and no state", c)
	}
	if c := contexts[1]; c["ref"] != dispatchRef || c["state"] != state {
		t.Errorf("second wake-up's ref %q; state back byte for byte: %v", c["ref"], c["state"] == state)
	}
	w.replayAll()
}

// TestAskerRefOrStateTooLongIsRefused: a ref over 200 characters or a state over 8 KiB is
// refused with the code too-long, whichever way it comes; nothing is asked, and the
// refusal neither repeats the state nor loses the ask's ref when that was fine.
func TestAskerRefOrStateTooLongIsRefused(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	longRef := strings.Repeat("r", clarify.MaxRefRunes+1)
	w.dispatch("coder-agent", map[string]any{"issue": 42, "action": "ask", "target": "@maria", "question": "Per key?",
		"context": map[string]any{"ref": "step-9", "state": trickyState("state", clarify.MaxStateBytes+1)}})
	w.dispatch("coder-agent", map[string]any{"issue": 42, "action": "ask", "target": "@maria", "question": "Per key?",
		"context": map[string]any{"ref": longRef}})
	w.comment("coder-agent", "/clarify @maria Per key?\nRef: "+longRef)
	w.dispatch("coder-agent", map[string]any{"issue": 42, "action": "resolve", "id": "CLR-42-001", "context": map[string]any{"ref": "x"}})

	var refs, codes []string
	for _, c := range w.h.Fake.Comments(repo, 42) {
		rec, ok := render.ReadRecord(c.Body)
		if c.User != "clarify[bot]" || !ok {
			continue
		}
		if rec.Kind != "refusal" {
			t.Errorf("the app wrote a %s comment, want refusals only:\n%s", rec.Kind, c.Body)
		}
		if strings.Contains(c.Body, "blob=") {
			t.Errorf("a refusal repeats the state:\n%.400s", c.Body)
		}
		refs, codes = append(refs, rec.Ref), append(codes, rec.Code)
	}
	if got, want := strings.Join(codes, " "), "too-long too-long too-long unknown-command"; got != want {
		t.Errorf("refusal codes %q, want %q:\n%s", got, want, w.h.Fake.Transcript(repo, 42))
	}
	if got, want := strings.Join(refs, ","), "step-9,,,"; got != want {
		t.Errorf("refusal refs %q, want %q: the ask's ref when it was fine, never one over its limit", got, want)
	}
	if _, body := w.statusCommentOrNone(); body != "" {
		if l, err := render.DecodeLedgerUnverified(body); err != nil || len(l.Clarifications) != 0 {
			t.Errorf("after refusals only, the ledger holds %+v (%v)", l.Clarifications, err)
		}
	}
	w.replayAll()
}

// statusCommentOrNone is statusComment, or "" when the app wrote none.
func (w *driver) statusCommentOrNone() (int64, string) {
	for _, c := range w.h.Fake.Comments(repo, 42) {
		if c.User == "clarify[bot]" && render.IsStatus(c.Body) {
			return c.ID, c.Body
		}
	}
	return 0, ""
}

// TestAsksWithFullStatesKeepTheLedgerWithinGitHubsLimit: asks with 8 KiB of incompressible
// state each fill the status comment; the ask that would overflow it is refused (no-room)
// and changes nothing, the status comment stays under GitHub's limit throughout, and once
// the earlier asks settle (and are archived) new ones fit again, every state kept whole.
func TestAsksWithFullStatesKeepTheLedgerWithinGitHubsLimit(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	states := map[string]string{}
	ask := func(i int) {
		ref := fmt.Sprintf("step-%d", i)
		states[ref] = trickyState(ref, clarify.MaxStateBytes)
		w.dispatch("coder-agent", map[string]any{"issue": 42, "action": "ask", "target": "@maria", "question": fmt.Sprintf("Question %d?", i),
			"context": map[string]any{"ref": ref, "state": states[ref]}})
		if _, body := w.statusComment(); len(body) > render.MaxCommentBytes {
			t.Fatalf("after ask %d the status comment is %d bytes", i, len(body))
		}
	}
	for i := 1; i <= 10; i++ {
		ask(i)
	}
	taken := len(w.ledger().Clarifications)
	if taken < 3 || taken == 10 || w.botComments("Error code: `no-room`") != 10-taken {
		t.Fatalf("%d of 10 asks taken and %d refused with no-room; want some of each, every one accounted for:\n%s",
			taken, w.botComments("Error code: `no-room`"), w.h.Fake.Transcript(repo, 42))
	}
	t.Logf("asks with 8 KiB of incompressible state that fit one issue at once: %d", taken)
	for i := 1; i <= taken; i++ {
		w.comment("coder-agent", fmt.Sprintf("/clarify abandon CLR-42-%03d", i))
	}
	for i := 11; i <= 10+taken; i++ {
		ask(i)
	}
	l := w.ledger()
	if len(l.Archives) == 0 {
		t.Fatalf("the settled asks were not archived to make room:\n%s", w.h.Fake.Transcript(repo, 42))
	}
	kept := 0
	for _, c := range w.wholeLedger() {
		if c.Ref != "" && c.State == states[c.Ref] {
			kept++
		}
	}
	if kept != 2*taken {
		t.Errorf("%d clarifications keep their state whole across the status comment and its archives, want %d", kept, 2*taken)
	}
}

// wholeLedger is every clarification of #42, read as the asker's client reads them without
// the app's key: the status comment's ledger and the app's archive comments.
func (w *driver) wholeLedger() []clarify.Clarification {
	w.t.Helper()
	var all []clarify.Clarification
	for _, c := range w.h.Fake.Comments(repo, 42) {
		if c.User != "clarify[bot]" {
			continue
		}
		if l, err := render.DecodeArchiveUnverified(c.Body); err == nil {
			all = append(all, l.Clarifications...)
		}
	}
	_, body := w.statusComment()
	l, err := render.DecodeLedgerUnverified(body)
	if err != nil {
		w.t.Fatal(err)
	}
	return append(all, l.Clarifications...)
}

// TestWakeUpWithAFullStateAndALongAnswerFitsGitHubsLimit: a state and an answer of markup
// (which takes six bytes a character in JSON) would pass GitHub's 64 KB in a wake-up; the
// answer is shortened there, the state is not, and GitHub takes the wake-up.
func TestWakeUpWithAFullStateAndALongAnswerFitsGitHubsLimit(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
	state := strings.Repeat("<>&", clarify.MaxStateBytes/3) + "é"
	w.dispatch("coder-agent", map[string]any{"issue": 42, "action": "ask", "target": "@maria", "question": "Which header?",
		"context": map[string]any{"ref": "step-1", "state": state}})
	answer := "Use X-Api-Key. " + strings.Repeat("<", clarify.MaxEntryText)
	w.comment("maria", answer)
	sent := w.h.Fake.Dispatches(repo)
	if len(sent) != 1 {
		t.Fatalf("%d wake-ups sent, want the one GitHub takes:\n%s", len(sent), w.h.Fake.Transcript(repo, 42))
	}
	var p wire.WakePayload
	if err := json.Unmarshal(sent[0].ClientPayload, &p); err != nil || p.Context == nil || p.Context.State != state {
		t.Fatalf("the wake-up lost the state (%v)", err)
	}
	cut := strings.TrimSuffix(p.Answer, "…")
	if cut == p.Answer || !strings.HasPrefix(answer, cut) || len(cut) < 1000 {
		t.Errorf("answer in the wake-up: %d of %d bytes (payload %d bytes); want its start, marked as cut", len(p.Answer), len(answer), len(sent[0].ClientPayload))
	}
}
