package handlers_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// The offer of an earlier decision settles a new question unless a person reacts 👎 to it
// in the window. Reactions fire no webhook, so the app reads them; a 👎 past the first
// page of reactions must count as much as the first one.

// TestAThumbsDownPastTheFirstPageOfReactionsCancelsTheSettlement: 120 people react 👍 and
// 120 bot accounts 👎 to the offer before maria's 👎, the 241st reaction.
func TestAThumbsDownPastTheFirstPageOfReactionsCancelsTheSettlement(t *testing.T) {
	w, offer := precedentWorld(t)
	for i := range 120 {
		fan, bot := fmt.Sprintf("fan-%d", i), fmt.Sprintf("lint-%d[bot]", i)
		w.h.Fake.AddUser(fan, "User")
		w.h.Fake.AddUser(bot, "Bot")
		w.h.Fake.React(repo, offer, fan, "+1")
		w.h.Fake.React(repo, offer, bot, "-1")
	}
	w.h.Fake.React(repo, offer, "maria", "-1")
	w.h.Fake.Advance(2*time.Hour + time.Minute)
	w.sweep()
	if c := w.statusOf(60, "CLR-60-001"); c.Status != clarify.Pending || c.Precedent == nil || !c.Precedent.Objected {
		t.Errorf("after maria's 👎, the 241st reaction, CLR-60-001 is %s (precedent %+v), want pending and the objection recorded", c.Status, c.Precedent)
	}
}

// TestBotsThumbsDownStillDoNotCancelTheSettlement is the guard: 150 bot accounts' 👎 are
// no person's objection; the offer settles the question after the window.
func TestBotsThumbsDownStillDoNotCancelTheSettlement(t *testing.T) {
	w, offer := precedentWorld(t)
	for i := range 150 {
		bot := fmt.Sprintf("lint-%d[bot]", i)
		w.h.Fake.AddUser(bot, "Bot")
		w.h.Fake.React(repo, offer, bot, "-1")
	}
	w.h.Fake.Advance(2*time.Hour + time.Minute)
	w.sweep()
	if c := w.statusOf(60, "CLR-60-001"); c.Status != clarify.Resolved {
		t.Errorf("with only bots' 👎, CLR-60-001 is %s after the window, want resolved from precedent", c.Status)
	}
}
