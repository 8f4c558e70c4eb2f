package action_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
)

// TestASettleByDispatchInAWorkflowIsToldOfItsOwnOnly: every workflow of the repository
// dispatches as github-actions[bot]. Another workflow dispatches the very resolve the agent's
// job then sends with `bot resolve`, a moment before it and as an older client does, without
// a nonce: it settles the clarification, and the agent's command, which comes after, is
// refused. The agent is told so, not that its own was taken.
func TestASettleByDispatchInAWorkflowIsToldOfItsOwnOnly(t *testing.T) {
	b := newBench(t)
	b.fake.SetFile(repo, ".github/clarify.yml", verifyKeysLine(t))
	var out, errs bytes.Buffer
	if code := b.askerDoor(b.token, &out, &errs).Ask([]string{"octo/widgets#42", "@maria", "Per API key or per client IP?"}); code != 0 {
		t.Fatalf("bot ask: exit %d, %s %s", code, out.String(), errs.String())
	}
	b.comment("maria", "Per API key.")

	raw := json.RawMessage(`{"issue": 42, "action": "resolve", "id": "CLR-42-001", "decision": "per API key"}`)
	if _, _, err := b.workflow().Repositories.Dispatch(context.Background(), "octo", "widgets",
		github.DispatchRequestOptions{EventType: "clarify", ClientPayload: &raw}); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errs.Reset()
	code := b.askerDoor(b.token, &out, &errs).Resolve([]string{"octo/widgets#42", "CLR-42-001", "per API key"})
	if code != 1 || strings.TrimSpace(out.String()) != string(clarify.CodeSettled) || !strings.Contains(errs.String(), "already resolved") {
		t.Errorf("bot resolve after another workflow's: exit %d, stdout %q, stderr %q; want 1, %s and why", code, out.String(), errs.String(), clarify.CodeSettled)
	}
	if c := b.clar("CLR-42-001"); c.Status != clarify.Resolved || c.Resolution != "per API key" {
		t.Errorf("CLR-42-001 is %s with %q; want it resolved by the other workflow's command", c.Status, c.Resolution)
	}
}
