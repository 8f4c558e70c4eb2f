package clarify

import (
	"reflect"
	"testing"
)

// TestNeedsPermissionSkipsOnlyLookupsThatCannotMatter: wherever NeedsPermission says no,
// Apply gives the same result whether the author has write access or not.
func TestNeedsPermissionSkipsOnlyLookupsThatCannotMatter(t *testing.T) {
	p := DefaultPolicy()
	base, _ := play(p,
		step{agent, "/clarify @maria Per key or per IP?", ""},
		step{agent, "/clarify @bob Which cache?", ""},
		step{bob, "Redis.", ""},
	)
	bodies := []string{
		"Per key.", "CLR-42-001: per key", "/respond per key", "/respond CLR-42-002 Memcached",
		"/clarify @maria Another?", "/clarify followup CLR-42-002 Which version?",
		"/clarify resolve CLR-42-001 per key", "/clarify resolve per key", "/clarify escalate CLR-42-001 stuck",
		"/clarify abandon CLR-42-002", "/clarify", "/clarify show CLR-42-001", "/clarify stale", "/clarify stats",
		"/assume UTC", "/clarify frob",
	}
	people := []Actor{agent, maria, bob, stranger, {Login: "lint-bot", Bot: true}}
	skipped := 0
	for _, who := range people {
		for _, body := range bodies {
			if NeedsPermission(base, p, who.Login, who.Bot, body) {
				continue
			}
			skipped++
			results := map[string]Result{}
			for _, perm := range []string{"read", "admin"} {
				a := who
				a.Permission = perm
				results[perm] = Apply(base, Event{Kind: EventComment, CommentID: 900, Actor: a, Body: body, At: t0}, p, t0)
			}
			if !reflect.DeepEqual(results["read"].Ledger, results["admin"].Ledger) || !reflect.DeepEqual(results["read"].Effects, results["admin"].Effects) {
				t.Errorf("%s: %q: skipping the permission lookup changes the outcome", who.Login, body)
			}
		}
	}
	if skipped < len(people)*len(bodies)/3 {
		t.Errorf("only %d lookups skipped: NeedsPermission saves little", skipped)
	}
}
