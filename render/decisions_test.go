package render

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

func TestDecisionsSpillAcrossCommentsUnderTheLimit(t *testing.T) {
	key := []byte("k")
	rng := rand.New(rand.NewPCG(1, 2))
	noise := func(n int) string { // text that compresses poorly, the worst case for room
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + rng.IntN(26))
		}
		return string(b)
	}
	var m clarify.Memory
	for i := 0; i < clarify.MaxRemembered; i++ {
		m.Record(clarify.Decision{ID: fmt.Sprintf("CLR-%d-001", i), Issue: i, Topic: noise(40), Question: noise(600), Decision: noise(1200), By: "maria"})
	}
	bodies, err := EncodeDecisions(m, key)
	if err != nil {
		t.Fatal(err)
	}
	var back []clarify.Decision
	for i, b := range bodies {
		if len(b) > maxPartBytes {
			t.Errorf("part %d is %d bytes, over %d", i, len(b), maxPartBytes)
		}
		part, ds, err := DecodeDecisions(b, key)
		if err != nil || part != i {
			t.Fatalf("part %d reads back as part %d: %v", i, part, err)
		}
		back = append(back, ds...)
	}
	t.Logf("%d decisions of incompressible text take %d comments", len(m.Decisions), len(bodies))
	if len(back) != len(m.Decisions) || back[len(back)-1].ID != m.Decisions[len(m.Decisions)-1].ID {
		t.Fatalf("read back %d decisions, want %d", len(back), len(m.Decisions))
	}
	if len(bodies) >= 100 {
		t.Errorf("%d comments: a lookup would need more than one page", len(bodies))
	}
	if r := []rune(back[0].Decision); len(r) > capMemoryDecision+len([]rune(" "+truncated)) {
		t.Errorf("a remembered decision keeps %d runes, want it capped at %d and a note", len(r), capMemoryDecision)
	}
}

func TestADecisionsPartEditedByHandIsNotTrusted(t *testing.T) {
	key := []byte("k")
	m := clarify.Memory{Decisions: []clarify.Decision{{ID: "CLR-1-001", Decision: "Per user."}}}
	bodies, err := EncodeDecisions(m, key)
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(bodies[0], decisionsOpen+"v1 ") + len(decisionsOpen) + 4
	edited := bodies[0][:at] + string(bodies[0][at]^1) + bodies[0][at+1:]
	if _, _, err := DecodeDecisions(edited, key); !errors.Is(err, ErrTampered) && !errors.Is(err, ErrMalformed) {
		t.Errorf("an edited part decodes with %v, want it refused", err)
	}
	if _, _, err := DecodeDecisions(bodies[0], []byte("other")); !errors.Is(err, ErrTampered) {
		t.Errorf("a part under another key decodes with %v, want ErrTampered", err)
	}
	if _, err := DecodeLedger(bodies[0], key); err == nil {
		t.Error("a decisions part passed for a ledger")
	}
}

// TestAnInheritedDecisionSaysWhereItWasMade: an offer from the repository this one
// inherits from links that repository's issue, up from this one's issue page, and names
// it; a settlement from it names the repository too.
func TestAnInheritedDecisionSaysWhereItWasMade(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	c := clarify.Clarification{ID: "CLR-60-001", Status: clarify.Pending, Round: 1, MaxRounds: 5, Topic: "Cache scope",
		Asker: clarify.Party{Login: "coder-agent"}, Target: clarify.Target{Kind: clarify.TargetLogin, Name: "maria"},
		Thread: []clarify.Entry{{Kind: clarify.KindQuestion, Round: 1, Text: "Which cache scope?"}}}
	d := clarify.Decision{ID: "CLR-4-001", Issue: 4, Topic: "Cache scope", Decision: "Per user.", By: "lead", At: at, CommentID: 77, Repo: "octo/.github"}
	got := RoundWithOffer(c, 1, nil, "round:CLR-60-001:1", d)
	for _, want := range []string{"**Decided before** in CLR-4-001 ([issue 4 of octo/.github](../../../octo/.github/issues/4#issuecomment-77)), by `lead`",
		`"offered":"CLR-4-001"`, `"offered_from":"octo/.github"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the round lacks %q:\n%s", want, got)
		}
	}
	d.Repo = ""
	if got := RoundWithOffer(c, 1, nil, "round:CLR-60-001:1", d); !strings.Contains(got, "([issue 4](../issues/4#issuecomment-77))") || strings.Contains(got, "offered_from") {
		t.Errorf("an own decision's offer links outside the repository:\n%s", got)
	}
	d.Repo = "octo/../../evil"
	if got := RoundWithOffer(c, 1, nil, "round:CLR-60-001:1", d); strings.Contains(got, "evil/issues") {
		t.Errorf("a repository name that is none went into a link:\n%s", got)
	}
	c.Status, c.Precedent = clarify.Resolved, &clarify.Precedent{From: "CLR-4-001", Repo: "octo/.github", Decision: "Per user.", Applied: true}
	if got := FromPrecedent(c, "precedent:CLR-60-001"); !strings.Contains(got, "takes the decision of CLR-4-001 in octo/.github:") {
		t.Errorf("the settlement does not name the repository that decided:\n%s", got)
	}
}
