package wire

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

func TestDispatchPayloadBecomesTheCommentThatSaysTheSame(t *testing.T) {
	no := false
	cases := map[string]struct {
		payload DispatchPayload
		want    string
	}{
		"askLongForm": {
			DispatchPayload{Action: "ask", Target: "@maria", Question: "Per key or per IP?", Topic: "rate-limit  scope",
				Type: "security-decision", Options: []string{"per key", "per\nIP"}, Fallback: "a", Evidence: []string{"docs/limits.md"}},
			"/clarify @maria Per key or per IP?\nTopic: rate-limit scope\nType: security-decision\nOptions:\na) per key\nb) per IP\nFallback: a\nEvidence:\n- docs/limits.md",
		},
		"askNonBlockingToARole": {DispatchPayload{Action: "Ask", Target: "architect", Question: "Which DB?", Blocking: &no},
			"/clarify architect --non-blocking Which DB?"},
		"followup":        {DispatchPayload{Action: "followup", ID: "CLR-42-001", Question: "And bursts?"}, "/clarify followup CLR-42-001 And bursts?"},
		"respondByName":   {DispatchPayload{Action: "respond", ID: "CLR-42-001", Answer: "Per key."}, "/respond CLR-42-001 Per key."},
		"resolveTheOnly":  {DispatchPayload{Action: "resolve"}, "/clarify resolve"},
		"resolveDecided":  {DispatchPayload{Action: "resolve", ID: "CLR-42-001", Decision: "Per key."}, "/clarify resolve CLR-42-001 Per key."},
		"abandon":         {DispatchPayload{Action: "abandon", ID: "CLR-42-001"}, "/clarify abandon CLR-42-001"},
		"escalateWithWhy": {DispatchPayload{Action: "escalate", ID: "CLR-42-001", Reason: "No progress."}, "/clarify escalate CLR-42-001 No progress."},
		"assume": {DispatchPayload{Action: "assume", Decision: "UTC everywhere", Confidence: "high", Risk: "local\nreports"},
			"/assume UTC everywhere\nConfidence: high\nRisk: local reports"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, problem := tc.payload.Command()
			if problem != nil || got != tc.want {
				t.Fatalf("command = %q, %+v; want %q", got, problem, tc.want)
			}
			if _, err := clarify.Parse(got); err != nil {
				t.Errorf("the parser refuses the command built: %v", err)
			}
		})
	}
}

func TestIssueIsTakenOnlyAsAnIssuesNumber(t *testing.T) {
	taken := map[string]int{
		`{"issue": 42, "action": "resolve"}`:    42,
		`{"issue": "42", "action": "resolve"}`:  42,
		`{"issue": 7}`:                          7,
		`{"issue": "1234567", "action": "ask"}`: 1234567,
		`{"action": "resolve", "issue": "9"}`:   9,
	}
	for raw, want := range taken {
		if got, err := IssueOf(json.RawMessage(raw)); err != nil || got != want {
			t.Errorf("%s: issue %d, %v; want %d", raw, got, err, want)
		}
	}
	refused := []string{
		`{"issue": "042"}`, `{"issue": "+42"}`, `{"issue": " 42"}`, `{"issue": "42 "}`, `{"issue": " 7 "}`,
		`{"issue": "sweep"}`, `{"issue": "#42"}`, `{"issue": ""}`, `{"issue": 0}`, `{"issue": "0"}`,
		`{"issue": -3}`, `{"issue": "-3"}`, `{"issue": 4.5}`, `{"issue": 42.0}`, `{"issue": 4.2e1}`, `{"issue": "42.0"}`,
		`{"issue": 99999999999999999999999}`, `{"issue": true}`, `{"issue": null}`, `{"issue": [42]}`,
		`{"action": "resolve"}`, `["not", "an", "object"]`, `null`,
	}
	for _, raw := range refused {
		got, err := IssueOf(json.RawMessage(raw))
		var bad *IssueError
		if !errors.As(err, &bad) || got != 0 {
			t.Errorf("%s: issue %d, %v; want it refused", raw, got, err)
			continue
		}
		if bad.Code() != clarify.CodeBadCommand || !strings.Contains(err.Error(), "client_payload.issue") ||
			!strings.Contains(err.Error(), string(clarify.CodeBadCommand)) {
			t.Errorf("%s: refused as %q (code %s); want the field and the code of a bad dispatch named", raw, err, bad.Code())
		}
	}
	if _, err := IssueOf(json.RawMessage(`{"issue": "042"}`)); !strings.Contains(err.Error(), `"042"`) {
		t.Errorf("the refusal %q does not quote what was sent", err)
	}
}
