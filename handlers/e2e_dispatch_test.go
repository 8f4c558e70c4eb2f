package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/wire"
)

// dispatch sends a "clarify" repository_dispatch from sender with the given client_payload.
func (w *driver) dispatch(sender string, payload any) {
	w.t.Helper()
	if st := w.send(w.h.Fake.Dispatch(repo, sender, wire.DispatchEventType, payload)); st != http.StatusOK {
		w.t.Fatalf("dispatch from %s answered %d, want 200", sender, st)
	}
}

// mirrors lists the app's mirrors of dispatches in #42.
func (w *driver) mirrors() []fakegithub.Comment {
	var out []fakegithub.Comment
	for _, c := range w.h.Fake.Comments(repo, 42) {
		if c.User == "clarify[bot]" && strings.Contains(c.Body, "via `repository_dispatch`") {
			out = append(out, c)
		}
	}
	return out
}

func TestAgentAsksAndResolvesThroughDispatch(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.dispatch("coder-agent", wire.DispatchPayload{Issue: 42, Action: "ask", Target: "@maria",
		Question: "Should the limit apply per API key or per client IP?", Topic: "rate-limit scope",
		Options: []string{"per API key", "per client IP"}, Fallback: "a"})

	w.wantDispatchedAskMirrored()
	if got := w.labels(); got != "clarification:active" {
		t.Errorf("labels = %q, want clarification:active", got)
	}

	w.comment("maria", "Per API key: anonymous calls are blocked at the gateway.")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered {
		t.Fatalf("after maria's answer: %s", c.Status)
	}

	w.dispatch("coder-agent", map[string]any{"issue": "42", "action": "resolve", "id": "CLR-42-001", "decision": "Per API key."})
	c, _ := w.ledger().Find("CLR-42-001")
	if c.Status != clarify.Resolved || c.Resolution != "Per API key." {
		t.Fatalf("after the dispatched resolve: %s %q", c.Status, c.Resolution)
	}
	if got := w.labels(); got != "" {
		t.Errorf("labels after resolve = %q, want none", got)
	}
	if n := len(w.mirrors()); n != 2 {
		t.Errorf("%d mirrors, want 2 (ask and resolve)", n)
	}
	w.noUnhandledRequests()
	// GitHub redelivers with the same GUID: nothing is posted or applied twice.
	w.replayAll()
}

// wantDispatchedAskMirrored asserts that coder-agent's dispatched ask was mirrored once as
// a comment naming the sender, went out as round 1 (which alone notifies maria), and was recorded
// as CLR-42-001 with its topic, options and fallback and the mirror as its comment.
func (w *driver) wantDispatchedAskMirrored() {
	t := w.t
	t.Helper()
	mirrors := w.mirrors()
	if len(mirrors) != 1 {
		t.Fatalf("%d mirrors of the ask, want 1", len(mirrors))
	}
	if !strings.HasPrefix(mirrors[0].Body, "@coder-agent via `repository_dispatch`") || strings.Contains(mirrors[0].Body, "@maria") {
		t.Errorf("the mirror should name the sender and leave the ask's target to the round, posted once the label is on:\n%s", mirrors[0].Body)
	}
	if got := w.botComments("Clarification needed · CLR-42-001 · round 1/5 · blocking"); got != 1 {
		t.Fatalf("round 1 mirrored %d times, want once", got)
	}
	if got := w.botComments("@maria"); got != 1 {
		t.Errorf("%d comments of the app mention @maria, want one: the round", got)
	}
	c, ok := w.ledger().Find("CLR-42-001")
	if !ok || c.Status != clarify.Pending || c.Asker.Login != "coder-agent" || c.Target.Name != "maria" ||
		c.Topic != "rate-limit scope" || len(c.Options) != 2 || c.Fallback != "a" {
		t.Fatalf("after the dispatched ask: %+v", c)
	}
	if c.Thread[0].CommentID != mirrors[0].ID {
		t.Errorf("the question records comment %d, want the mirror %d", c.Thread[0].CommentID, mirrors[0].ID)
	}
}

func TestDispatchIsHeldToTheChecksOfAComment(t *testing.T) {
	t.Run("anOutsiderIsIgnoredAsTheirCommentWouldBe", func(t *testing.T) {
		w := &driver{t: t, h: newHarness(t)}
		w.comment("drive-by", "/clarify @maria Per key or per IP?")
		w.dispatch("drive-by", wire.DispatchPayload{Issue: 42, Action: "ask", Target: "@maria", Question: "Per key or per IP?"})
		w.dispatch("drive-by", wire.DispatchPayload{Issue: 42, Action: "frobnicate"})
		if n := w.botComments(""); n != 0 {
			t.Errorf("the app wrote %d comments for a drive-by, want none:\n%s", n, w.h.Fake.Transcript(repo, 42))
		}
		if got := writes(w.h); len(got) != 0 {
			t.Errorf("writes for a drive-by: %v", got)
		}
	})
	t.Run("aClosedIssueTakesNoNewClarification", func(t *testing.T) {
		w := &driver{t: t, h: newHarness(t)}
		w.send(w.h.Fake.CloseIssue(repo, 42, "maria"))
		w.dispatch("coder-agent", wire.DispatchPayload{Issue: 42, Action: "ask", Target: "@maria", Question: "Per key?"})
		if len(w.mirrors()) != 1 || w.botComments("@coder-agent: this issue is closed") != 1 {
			t.Errorf("want the mirror and the refusal a comment gets:\n%s", w.h.Fake.Transcript(repo, 42))
		}
		w.replayAll()
	})
	t.Run("routesApplyToTheSender", func(t *testing.T) {
		w := &driver{t: t, h: newHarness(t)}
		w.h.Fake.SetFile(repo, ".github/clarify.yml", "roles:\n  engineer: [coder-agent]\n  architect: [maria]\nroutes:\n  engineer: [product-manager]\n")
		w.dispatch("coder-agent", wire.DispatchPayload{Issue: 42, Action: "ask", Target: "architect", Question: "Which database?"})
		if w.botComments("@coder-agent:") != 1 || w.botComments("Clarification needed") != 0 {
			t.Errorf("want the route's refusal, as a comment gets:\n%s", w.h.Fake.Transcript(repo, 42))
		}
	})
}

func TestDispatchThatIsNoCommandIsRefusedInTheIssue(t *testing.T) {
	cases := map[string]struct {
		payload any
		want    string
	}{
		"unknownAction":     {map[string]any{"issue": 42, "action": "frobnicate"}, "`frobnicate` is not an action of a `clarify` dispatch"},
		"noAction":          {map[string]any{"issue": 42}, "a `clarify` dispatch needs an `action`"},
		"askWithoutTarget":  {wire.DispatchPayload{Issue: 42, Action: "ask", Question: "Per key?"}, "a `ask` dispatch needs `target`"},
		"followupWithoutId": {wire.DispatchPayload{Issue: 42, Action: "followup", Question: "And bursts?"}, "a `followup` dispatch needs `id`"},
		"unknownField":      {map[string]any{"issue": 42, "action": "ask", "target": "@maria", "questoin": "Per key?"}, "`questoin` is not a field"},
		"wrongType":         {map[string]any{"issue": 42, "action": "ask", "target": "@maria", "question": "Per key?", "options": "a, b"}, "`options` must be a JSON array"},
		"settleWithARef": {map[string]any{"issue": 42, "action": "resolve", "id": "CLR-42-001", "context": map[string]any{"ref": "step-3", "nonce": "n1"}},
			"`context.ref` and `context.state` belong to an `ask` dispatch"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			w.dispatch("coder-agent", tc.payload)
			if n := w.botComments("@coder-agent: " + tc.want); n != 1 {
				t.Errorf("want one refusal saying %q:\n%s", tc.want, w.h.Fake.Transcript(repo, 42))
			}
			if n := len(w.mirrors()); n != 0 {
				t.Errorf("%d mirrors of a payload that is no command, want none", n)
			}
			w.replayAll()
		})
	}
	t.Run("aMalformedCommandGetsTheParsersRefusal", func(t *testing.T) {
		w := &driver{t: t, h: newHarness(t)}
		w.dispatch("coder-agent", wire.DispatchPayload{Issue: 42, Action: "ask", Target: "@maria", Question: "Per key?", Type: "vibes"})
		if len(w.mirrors()) != 1 || w.botComments("is not a type Clarify knows") != 1 {
			t.Errorf("want the mirror and the parser's refusal:\n%s", w.h.Fake.Transcript(repo, 42))
		}
	})
	t.Run("noIssueIsLoggedAndDropped", func(t *testing.T) {
		w := &driver{t: t, h: newHarness(t)}
		w.dispatch("coder-agent", map[string]any{"action": "ask", "target": "@maria", "question": "Per key?"})
		w.dispatch("coder-agent", map[string]any{"issue": 4242, "action": "ask", "target": "@maria", "question": "Per key?"})
		w.dispatch("coder-agent", map[string]any{"issue": "forty-two", "action": "ask", "target": "@maria", "question": "Per key?"})
		if got := writes(w.h); len(got) != 0 {
			t.Errorf("writes for dispatches naming no issue: %v", got)
		}
	})
	t.Run("anIssueWrittenLooselyIsLoggedAndDropped", func(t *testing.T) {
		var logs strings.Builder
		w := &driver{t: t, h: newHarnessLogging(t, &logs, nil)}
		for _, issue := range []any{"042", "+42", " 42", "42 ", 42.5, -42, "sweep"} {
			w.dispatch("coder-agent", map[string]any{"issue": issue, "action": "ask", "target": "@maria", "question": "Per key?"})
		}
		if got := writes(w.h); len(got) != 0 {
			t.Errorf("writes for dispatches whose issue is no issue's number as written: %v", got)
		}
		if n := strings.Count(logs.String(), "unknown-command"); n != 7 {
			t.Errorf("%d log lines name the code of a bad dispatch, want 7:\n%s", n, logs.String())
		}
		w.dispatch("coder-agent", map[string]any{"issue": "42", "action": "ask", "target": "@maria", "question": "Per key?"})
		if len(w.mirrors()) != 1 {
			t.Errorf("the same dispatch with issue \"42\" was not taken:\n%s", w.h.Fake.Transcript(repo, 42))
		}
	})
	t.Run("anotherEventTypeIsNotOurs", func(t *testing.T) {
		w := &driver{t: t, h: newHarness(t)}
		w.h.Fake.ResetRequests()
		if st := w.send(w.h.Fake.Dispatch(repo, "coder-agent", "deploy", map[string]any{"issue": 42, "action": "ask"})); st != http.StatusOK {
			t.Fatalf("answered %d", st)
		}
		if n := len(w.h.Fake.Requests()); n != 0 {
			t.Errorf("%d requests for another event type, want none", n)
		}
	})
}

// TestAMirrorLeftUnappliedIsFoldedInAsTheSenders: a run that posted the mirror and then
// failed leaves the command in the issue; the next event's fold takes it as the sender's.
func TestAMirrorLeftUnappliedIsFoldedInAsTheSenders(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	// Every run of the dispatch fails after the mirror, at the status comment: the mirror
	// goes through, then each of the 4 runs tries the status comment 3 times.
	w.h.Fake.PassNext(postCommentRoute, 1)
	w.h.Fake.FailNext(postCommentRoute, http.StatusInternalServerError, 4*3)
	w.dispatch("coder-agent", wire.DispatchPayload{Issue: 42, Action: "ask", Target: "@maria", Question: "Per key or per IP?"})
	if len(w.mirrors()) != 1 || w.botComments("Clarification needed") != 0 {
		t.Fatalf("want the mirror and nothing else:\n%s", w.h.Fake.Transcript(repo, 42))
	}
	// A command passes the cheap filter of an issue the app has not labelled yet.
	w.comment("maria", "/respond Per key.")
	c, ok := w.ledger().Find("CLR-42-001")
	if !ok || c.Asker.Login != "coder-agent" || c.Status != clarify.Answered {
		t.Fatalf("the mirror should have been folded in as coder-agent's ask, then answered: %+v", c)
	}
	if len(w.mirrors()) != 1 {
		t.Errorf("%d mirrors, want 1", len(w.mirrors()))
	}
}
