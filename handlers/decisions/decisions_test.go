package decisions

import (
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/repoconfig"
)

func TestAnOfferSettlesOnlyTheVeryTopicAfterTheWindow(t *testing.T) {
	decided := clarify.Decision{ID: "CLR-7-001", Topic: "rate limit", Decision: "Per key."}
	for name, tc := range map[string]struct {
		topic       string
		settleAfter time.Duration
		settles     bool
	}{
		"theSameTopicWithAWindowSettles": {"Rate limit", time.Hour, true},
		"anotherTopicIsAdviceAlone":      {"rate limits", time.Hour, false},
		"noWindowIsAdviceAlone":          {"rate limit", 0, false},
	} {
		t.Run(name, func(t *testing.T) {
			l := clarify.NewLedger(42)
			l.Clarifications = []clarify.Clarification{{ID: "CLR-42-001", Topic: tc.topic, Status: clarify.Pending}}
			cfg := repoconfig.DefaultDecisions()
			cfg.SettleAfter = tc.settleAfter
			got := stampOffers(l, map[string]*Offer{"round:CLR-42-001:1": {Decision: decided, ID: "CLR-42-001"}}, cfg, t0)
			p := got.Clarifications[0].Precedent
			if p == nil || p.From != decided.ID {
				t.Fatalf("precedent %+v, want one from %s", p, decided.ID)
			}
			if settles := !p.Settles.IsZero(); settles != tc.settles {
				t.Errorf("settles at %v, want settling %v", p.Settles, tc.settles)
			}
		})
	}
}
