package action_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/action"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/wire"
)

// wakeUps lists the dispatches sent in the repository as "event id status round".
func (b *bench) wakeUps() []string {
	var out []string
	for _, d := range b.fake.Dispatches(repo) {
		var p wire.WakePayload
		if err := json.Unmarshal(d.ClientPayload, &p); err != nil {
			b.t.Fatalf("client_payload %s: %v", d.ClientPayload, err)
		}
		if d.Sender != fakegithub.ActionsBotLogin {
			b.t.Errorf("dispatch sent by %s, want the workflow's token", d.Sender)
		}
		out = append(out, fmt.Sprintf("%s %s %s %d", d.EventType, p.ID, p.Status, p.Round))
	}
	return out
}

func (b *bench) wantWakeUps(t *testing.T, want ...string) {
	t.Helper()
	if got := b.wakeUps(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("dispatches sent: %q\nwant %q", got, want)
	}
}

// TestWakeUpOncePerSettlingTransition: with notify.dispatch on, an answer, a resolution, an
// abandon and a fallback each send one repository_dispatch with the record, and no
// re-run, replay or scheduled run sends it again.
func TestWakeUpOncePerSettlingTransition(t *testing.T) {
	b := newBench(t)
	b.fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
	b.comment("coder-agent", askWithFallback)
	b.wantWakeUps(t)
	d, _ := b.fake.Comment(repo, 42, "maria", "Per API key.")
	answer := b.eventFile(d)
	b.ok("issue_comment", answer)
	b.ok("issue_comment", answer) // the run re-run
	b.schedule()
	b.wantWakeUps(t, "clarify-answered CLR-42-001 answered 1")
	var p wire.WakePayload
	if err := json.Unmarshal(b.fake.Dispatches(repo)[0].ClientPayload, &p); err != nil ||
		p != (wire.WakePayload{V: 1, Issue: 42, ID: "CLR-42-001", Status: "answered", Round: 1, Asker: "coder-agent",
			Target: "maria", Key: "CLR-42-001/1/answered/1", Answer: "Per API key."}) {
		t.Errorf("client_payload = %+v, %v", p, err)
	}
	b.comment("coder-agent", "/clarify followup CLR-42-001 Per key: 100 or 1000 a minute?")
	b.comment("maria", "1000.")
	b.comment("coder-agent", "/clarify resolve CLR-42-001 1000 a minute per key.")
	b.comment("coder-agent", "/clarify @maria Which header carries the key?")
	b.comment("coder-agent", "/clarify abandon CLR-42-002")
	b.comment("coder-agent", "/clarify @maria May anonymous calls pass?\nOptions:\na) no\nb) yes\nFallback: a")
	b.fake.Advance(31 * time.Minute)
	b.schedule()
	b.fake.Advance(31 * time.Minute)
	b.schedule()
	b.schedule()
	b.wantWakeUps(t,
		"clarify-answered CLR-42-001 answered 1",
		"clarify-answered CLR-42-001 answered 2",
		"clarify-resolved CLR-42-001 resolved 2",
		"clarify-abandoned CLR-42-002 abandoned 1",
		"clarify-fallback CLR-42-003 resolved 1")
	var fb wire.WakePayload
	if err := json.Unmarshal(b.fake.Dispatches(repo)[4].ClientPayload, &fb); err != nil || fb.Decision == "" {
		t.Errorf("the fallback's client_payload has no decision: %+v, %v", fb, err)
	}
}

// TestNoWakeUpWithoutTheSetting: the dispatches are opt-in.
func TestNoWakeUpWithoutTheSetting(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", askWithFallback)
	b.comment("maria", "Per API key.")
	b.wantWakeUps(t)
}

// TestWakeUpWhenTheReadBackOfTheSaveFails: the answer's save is edited in, but GitHub
// fails every read of it back (after the transport's own retries, and after the save's one
// read more). The edit stands, so the run goes on to the wake-up and exits 0; a run that
// stopped there would leave the next one to find the answer saved and send nothing, and
// the waiting agent would never be woken.
func TestWakeUpWhenTheReadBackOfTheSaveFails(t *testing.T) {
	const getComment = "GET /repos/{owner}/{repo}/issues/comments/{comment_id}"
	for _, tc := range []struct {
		name  string
		fails int
	}{
		{"firstReadBackFails", ghtransport.DefaultRetryAttempts},
		{"bothReadBacksFail", 2 * ghtransport.DefaultRetryAttempts},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t)
			b.fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
			b.comment("coder-agent", askWithFallback)
			d, _ := b.fake.Comment(repo, 42, "maria", "Per API key.")
			b.fake.PassNext(getComment, 1) // the read just before the edit
			b.fake.FailNext(getComment, 502, tc.fails)
			r := b.run("issue_comment", b.eventFile(d))
			if r.code != action.ExitOK || b.clar("CLR-42-001").Status != clarify.Answered {
				t.Fatalf("exit %d, %+v: %s", r.code, b.clar("CLR-42-001"), r.stdout)
			}
			b.wantWakeUps(t, "clarify-answered CLR-42-001 answered 1")
			b.schedule()
			b.wantWakeUps(t, "clarify-answered CLR-42-001 answered 1")
		})
	}
}
