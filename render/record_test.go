package render

import (
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

func TestEveryMessageCarriesARecordAnAgentCanRead(t *testing.T) {
	rich := richLedger()
	resolved, _ := rich.Find("CLR-42-005")
	resolved.Resolution = "Per key --> <!-- not a comment & \"quoted\""
	bodies := map[string]Record{
		Round(rich.Clarifications[0], 1, nil, "k"): {V: 1, Kind: "round", ID: "CLR-42-001", Round: 1, Status: "pending",
			Asker: "bot-agent", Target: "architect"},
		Reply(clarify.Reply{Kind: clarify.ReplyRefusal, Code: clarify.CodeNotAwaiting, Problem: "no"}, rich, "k"): {V: 1,
			Kind: "refusal", Code: "not-awaiting"},
		Reply(clarify.Reply{Kind: clarify.ReplyShow, ID: "CLR-42-005"}, clarify.Ledger{Clarifications: []clarify.Clarification{resolved}}, "k"): {
			V: 1, Kind: "show", ID: "CLR-42-005", Round: resolved.Round, Status: string(resolved.Status),
			Asker: resolved.Asker.Login, Target: resolved.Target.Name, Decision: resolved.Resolution},
	}
	for body, want := range bodies {
		got, ok := ReadRecord(body)
		if !ok {
			t.Fatalf("no record in:\n%s", body)
		}
		if got.Kind != want.Kind || got.ID != want.ID || got.Round != want.Round || got.Status != want.Status ||
			got.Code != want.Code || got.Decision != want.Decision || got.Asker != want.Asker || got.Target != want.Target {
			t.Errorf("record %+v, want %+v", got, want)
		}
	}
	status, ok := ReadRecord(Status(rich, goldenBlock))
	if !ok || status.Kind != "status" || len(status.Open) != 4 {
		t.Errorf("status record %+v, want the 4 open clarifications", status)
	}
}
