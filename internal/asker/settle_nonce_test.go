package asker_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
)

// dispatchAs sends a clarify repository_dispatch with login's own token, payload as an
// older client sends a settle (no context, so no nonce); GitHub delivers it with the next
// sleep of the world, like the agent's.
func (w *world) dispatchAs(login, payload string) {
	w.t.Helper()
	gh := github.NewClient(nil).WithAuthToken(w.h.Fake.PersonalToken(repo, login))
	gh.BaseURL, _ = url.Parse(w.h.GitHub.URL + "/")
	raw := json.RawMessage(payload)
	if _, _, err := gh.Repositories.Dispatch(w.t.Context(), "octo", "widgets", github.DispatchRequestOptions{EventType: "clarify", ClientPayload: &raw}); err != nil {
		w.t.Fatal(err)
	}
}

// TestASettleByDispatchIsToldOfItsOwnCommandOnly: another sender dispatches the very command
// the agent then sends with `bot resolve --dispatch`, a moment before it, and as an older
// client does, without a nonce. Clarify mirrors both; the agent is told what came of its
// own command, found by the nonce it sent, never what came of the other's.
func TestASettleByDispatchIsToldOfItsOwnCommandOnly(t *testing.T) {
	cases := map[string]struct {
		permission string
		code       int
		out        string
		// resolvedBy is whose mirror the resolution in the thread came from.
		resolvedBy string
	}{
		// A bot without write access may not settle another's clarification: its command
		// is refused, and the agent's settles it.
		"theOtherIsRefused": {permission: "read", code: 0, out: "CLR-42-001  resolved", resolvedBy: agent},
		// One with write access may: its command settles it, and the agent's comes too late.
		"theOtherSettlesFirst": {permission: "write", code: 1, out: string(clarify.CodeSettled), resolvedBy: "other-agent"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			w.h.Fake.AddUser("other-agent", "Bot")
			w.h.Fake.SetPermission(repo, "other-agent", tc.permission)
			id := w.answered()
			w.dispatchAs("other-agent", `{"issue": 42, "action": "resolve", "id": "CLR-42-001", "decision": "per API key"}`)
			code, out, errs := w.run(asker.Door.Resolve, "octo/widgets#42", id, "per API key", "--dispatch")
			if code != tc.code || !strings.HasPrefix(out, tc.out) {
				t.Errorf("bot resolve --dispatch: exit %d, stdout %q, stderr %q; want %d and %q", code, out, errs, tc.code, tc.out)
			}
			l, err := w.h.Ledger(repo, issue)
			if err != nil || len(l.Clarifications) != 1 || l.Clarifications[0].Status != clarify.Resolved {
				t.Fatalf("the ledger: %+v (%v); want %s resolved", l.Clarifications, err, id)
			}
			thread := l.Clarifications[0].Thread
			if last := thread[len(thread)-1]; last.Author != tc.resolvedBy {
				t.Errorf("the resolution came from %s's command; want %s's", last.Author, tc.resolvedBy)
			}
			if mirrors := strings.Count(w.h.Fake.Transcript(repo, issue), "via `repository_dispatch`, taken as their comment"); mirrors != 2 {
				t.Errorf("%d mirrors; want 2, one each", mirrors)
			}
		})
	}
}
