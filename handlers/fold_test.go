package handlers

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
)

var foldT0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

func comment(id int64, login string, at time.Time, body string) *github.IssueComment {
	return &github.IssueComment{ID: &id, Body: &body, User: &github.User{Login: &login}, CreatedAt: &github.Timestamp{Time: at}}
}

// eventsOf is what a run of b's woken by trig, with snap read, folds.
func eventsOf(b *Base, snap *issueRun, trig trigger) []input {
	snap.Base, snap.trig = b, trig
	return snap.events()
}

func TestEventsListsWhatIsNewOldestFirst(t *testing.T) {
	b := NewBase(Options{AppSlug: "clarify"})
	withCursor := func(cursor int64) *issueRun {
		l := clarify.NewLedger(42)
		l.Cursor = cursor
		return &issueRun{snapshot: snapshot{ledger: l, hasLedger: true}}
	}
	c1 := comment(101, "maria", foldT0.Add(-20*time.Minute), "old")
	c2 := comment(102, "coder-agent", foldT0.Add(-10*time.Minute), "/clarify @maria Per key?")
	c3 := comment(103, "maria", foldT0, "Per key, edited since")
	trig3 := trigger{Kind: triggerComment, Comment: comment(103, "maria", foldT0, "Per key."), At: foldT0, IssueClosed: true}

	cases := map[string]struct {
		snap *issueRun
		trig trigger
		// listLacksTrigger drops the trigger's comment from the list, as when GitHub
		// delivers a comment before its list shows it.
		listLacksTrigger bool
		want             []string // kind:id:body of each input
	}{
		"withoutLedgerOnlyTheFirstRunWindowBeforeTheTrigger": {
			snap: &issueRun{},
			trig: trig3,
			want: []string{"comment:102:/clarify @maria Per key?", "comment:103:Per key."},
		},
		"withLedgerEveryCommentAfterTheCursor": {
			snap: withCursor(100),
			trig: trigger{Kind: triggerTick, At: foldT0},
			want: []string{"comment:101:old", "comment:102:/clarify @maria Per key?", "comment:103:Per key, edited since"},
		},
		"theTriggerKeepsThePayloadBodyInItsPlace": {
			snap: withCursor(101),
			trig: trig3,
			want: []string{"comment:102:/clarify @maria Per key?", "comment:103:Per key."},
		},
		"aTriggerMissingFromTheListGoesLast": {
			snap: withCursor(101),
			trig: trig3, listLacksTrigger: true,
			want: []string{"comment:102:/clarify @maria Per key?", "comment:103:Per key."},
		},
		"aTriggerAtOrBeforeTheCursorIsNotReplayed": {
			snap: withCursor(103),
			trig: trig3,
			want: nil,
		},
		"anIssueEventComesAfterTheComments": {
			snap: withCursor(102),
			trig: trigger{Kind: triggerIssue, Event: clarify.EventClosed, At: foldT0},
			want: []string{"comment:103:Per key, edited since", "closed:0:"},
		},
		"aRebuildOfAClosedIssueClosesItAgain": {
			snap: &issueRun{snapshot: snapshot{damaged: true, hasLedger: true, rebuildFrom: foldT0.Add(-time.Minute), ledger: clarify.NewLedger(42)}},
			trig: trigger{Kind: triggerTick, At: foldT0, IssueClosed: true},
			want: []string{"comment:103:Per key, edited since", "closed:0:"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tc.snap.comments = []*github.IssueComment{c1, c2, c3}
			if tc.listLacksTrigger {
				tc.snap.comments = tc.snap.comments[:2]
			}
			var got []string
			for _, in := range eventsOf(b, tc.snap, tc.trig) {
				got = append(got, string(in.event.Kind)+":"+strconv.FormatInt(in.event.CommentID, 10)+":"+in.event.Body)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("events = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestEventsMarksOnlyTheTriggerWithTheIssueState(t *testing.T) {
	b := NewBase(Options{AppSlug: "clarify"})
	snap := &issueRun{snapshot: snapshot{comments: []*github.IssueComment{
		comment(102, "coder-agent", foldT0, "/clarify @maria Per key?"),
		comment(103, "maria", foldT0, "Per key."),
	}}}
	trig := trigger{Kind: triggerComment, Comment: comment(103, "maria", foldT0, "Per key."), At: foldT0, IssueClosed: true}
	ins := eventsOf(b, snap, trig)
	if len(ins) != 2 || ins[0].event.IssueClosed || !ins[1].event.IssueClosed {
		t.Fatalf("IssueClosed should be set on the trigger alone: %+v", ins)
	}
}

func TestFold(t *testing.T) {
	p := clarify.DefaultPolicy()
	actors := map[string]clarify.Actor{
		"coder-agent": {Login: "coder-agent", Bot: true, Permission: "read"},
		"maria":       {Login: "maria", Permission: "write"},
	}
	actorOf := func(in input, _ clarify.Ledger) (clarify.Actor, error) { return actors[in.user.GetLogin()], nil }
	in := func(id int64, login string, at time.Time, body string) input {
		return commentInput(comment(id, login, at, body))
	}
	ask := in(101, "coder-agent", foldT0, "/clarify @maria Per key or per IP?")
	answer := in(102, "maria", foldT0.Add(time.Minute), "Per key.")

	cases := map[string]struct {
		ins         []input
		now         time.Time
		trig        trigger
		wantStatus  clarify.Status
		wantApplied int
		wantEffects []clarify.EffectKind
	}{
		"askThenAnswer": {
			ins: []input{ask, answer}, now: foldT0.Add(2 * time.Minute), trig: trigger{Kind: triggerComment},
			wantStatus: clarify.Answered, wantApplied: 2, wantEffects: []clarify.EffectKind{clarify.EffectPostRound, clarify.EffectReact},
		},
		"aLateAskKeepsItsOwnDeadlineSoTimeActsAtOnce": {
			ins: []input{ask}, now: foldT0.Add(31 * time.Minute), trig: trigger{Kind: triggerTick},
			wantStatus: clarify.Stale, wantApplied: 1, wantEffects: []clarify.EffectKind{clarify.EffectPostRound, clarify.EffectPing},
		},
		"aBreakEscalatesAfterTime": {
			ins: []input{ask}, now: foldT0.Add(time.Minute), trig: trigger{Kind: triggerBreak, Break: deadlockBreak{ID: "CLR-42-001", Reason: "deadlock"}},
			wantStatus: clarify.Escalated, wantApplied: 1, wantEffects: []clarify.EffectKind{clarify.EffectPostRound, clarify.EffectEscalate},
		},
		"aBreakNamingNothingOpenChangesNothing": {
			ins: []input{ask}, now: foldT0.Add(time.Minute), trig: trigger{Kind: triggerBreak, Break: deadlockBreak{ID: "CLR-42-009", Reason: "deadlock"}},
			wantStatus: clarify.Pending, wantApplied: 1, wantEffects: []clarify.EffectKind{clarify.EffectPostRound},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f, err := fold(context.Background(), clarify.NewLedger(42), tc.ins, folding{policy: p, now: tc.now, actorOf: actorOf}, tc.trig)
			if err != nil {
				t.Fatal(err)
			}
			c, ok := f.ledger.Find("CLR-42-001")
			if !ok || c.Status != tc.wantStatus {
				t.Errorf("CLR-42-001 = %v (found %v), want %s", c.Status, ok, tc.wantStatus)
			}
			if f.applied != tc.wantApplied {
				t.Errorf("applied = %d, want %d", f.applied, tc.wantApplied)
			}
			var kinds []clarify.EffectKind
			for _, e := range f.effects {
				kinds = append(kinds, e.Kind)
			}
			if !slices.Equal(kinds, tc.wantEffects) {
				t.Errorf("effects = %v, want %v", kinds, tc.wantEffects)
			}
		})
	}
}

func TestFoldStopsAtTheFirstFailedLookup(t *testing.T) {
	boom := errors.New("permission look-up failed")
	calls := 0
	actorOf := func(input, clarify.Ledger) (clarify.Actor, error) { calls++; return clarify.Actor{}, boom }
	ins := []input{commentInput(comment(101, "maria", foldT0, "/respond x")), commentInput(comment(102, "maria", foldT0, "/respond y"))}
	env := folding{policy: clarify.DefaultPolicy(), now: foldT0, actorOf: actorOf}
	if _, err := fold(context.Background(), clarify.NewLedger(42), ins, env, trigger{}); !errors.Is(err, boom) || calls != 1 {
		t.Fatalf("fold = %v after %d look-ups, want the look-up's error after 1", err, calls)
	}
}

func TestFoldRefusesWhatTheLedgerHasNoRoomFor(t *testing.T) {
	actorOf := func(in input, _ clarify.Ledger) (clarify.Actor, error) {
		return clarify.Actor{Login: in.user.GetLogin(), Permission: "write"}, nil
	}
	oneOpenAtMost := func(l clarify.Ledger) bool { return len(l.Open()) <= 1 }
	ins := []input{
		commentInput(comment(101, "coder-agent", foldT0, "/clarify @maria First question?")),
		commentInput(comment(102, "coder-agent", foldT0, "/clarify @maria Second question?")),
		commentInput(comment(103, "coder-agent", foldT0, "/clarify resolve CLR-42-001 Decided.")),
		commentInput(comment(104, "coder-agent", foldT0, "/clarify @maria Third question?")),
	}
	env := folding{policy: clarify.DefaultPolicy(), now: foldT0, actorOf: actorOf, roomFor: oneOpenAtMost}
	f, err := fold(context.Background(), clarify.NewLedger(42), ins, env, trigger{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range f.effects {
		got = append(got, string(e.Kind)+":"+strconv.FormatInt(e.CommentID, 10)+e.ClarificationID)
	}
	// The resolve (103) is taken with no effect of its own: the status table shows it.
	want := []string{"round:101CLR-42-001", "reply:102", "round:104CLR-42-002"}
	if !slices.Equal(got, want) {
		t.Errorf("effects %q, want %q: the second ask refused, the resolve taken, the third ask taken", got, want)
	}
	if c, _ := f.ledger.Find("CLR-42-001"); c.Status != clarify.Resolved {
		t.Errorf("CLR-42-001 is %s, want resolved", c.Status)
	}
	if f.ledger.Cursor != 104 || len(f.ledger.Clarifications) != 2 {
		t.Errorf("cursor %d with %d clarifications, want 104 and 2", f.ledger.Cursor, len(f.ledger.Clarifications))
	}
}
