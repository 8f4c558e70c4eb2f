package handlers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// A question that needs several people is settled by them alone (clarify/needs.go), through
// the webhook server: neither precedent, nor its fallback, nor one person's answer remembered
// as the repository's decision stands in for them; one dissent holds it, and the status
// comment says so.

// quorumConfig is releaseRole's configuration with a day's SLA and settling from precedent
// after 2h, so that a sweep past the window settles what precedent may.
const quorumConfig = "roles:\n  release: [maria, ana, ben]\nanswer_from: targets\nsla: 24h\ndecisions:\n  settle_after: 2h\n"

// quorumWorld is a world with releaseRole's people and, unless empty, that configuration.
func quorumWorld(t *testing.T, config string) *driver {
	w := &driver{t: t, h: newHarness(t)}
	releaseRole(w)
	if config != "" {
		w.h.Fake.SetFile(repo, ".github/clarify.yml", config)
	}
	return w
}

// TestPrecedentNeverSettlesAQuestionThatNeedsTwo: maria alone decided "Release freeze" in
// #42; the same topic asked of the release role with `Needs: 2` in #60 is offered her
// decision, and after the window, with no answer at all, it still waits for two people.
func TestPrecedentNeverSettlesAQuestionThatNeedsTwo(t *testing.T) {
	w := quorumWorld(t, quorumConfig)
	w.comment("coder-agent", "/clarify @maria Freeze the release for the migration?\nTopic: Release freeze")
	w.comment("maria", "Yes, freeze it.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001")
	w.h.Fake.OpenIssue(repo, 60, "Migrate the billing tables", "maria")
	w.commentOn(60, "coder-agent", "/clarify release Freeze the release for the migration?\nTopic: Release freeze\nNeeds: 2")
	if !strings.Contains(w.botText(60), "Decided before") {
		t.Fatalf("no offer of maria's decision in #60:\n%s", w.botText(60))
	}
	w.h.Fake.Advance(2*time.Hour + time.Minute)
	w.sweep()
	if c := w.statusOf(60, "CLR-60-001"); c.Status != clarify.Pending || c.Resolution != "" {
		t.Fatalf("after the window CLR-60-001 is %s with %q, want pending: it needs two people and none answered", c.Status, c.Resolution)
	}
	if n := w.botCommentsOn(60, "Resolved from precedent"); n != 0 {
		t.Errorf("%d announcements of a resolution from precedent, want none", n)
	}
}

// TestAFallbackNeverSettlesAQuestionThatNeedsTwo: one of two answers, then two SLA periods
// of silence: the question is escalated to the maintainers, not settled by its fallback,
// and the ping says so.
func TestAFallbackNeverSettlesAQuestionThatNeedsTwo(t *testing.T) {
	w := quorumWorld(t, quorumConfig)
	w.comment("coder-agent", "/clarify release Freeze the release?\nOptions:\na) freeze\nb) ship\nFallback: b\nNeeds: 2")
	w.comment("maria", "a")
	w.h.Fake.Advance(24*time.Hour + time.Minute)
	w.sweep()
	if strings.Contains(w.botText(42), "the fallback **b)** is taken") {
		t.Errorf("the ping promises the fallback:\n%s", w.botText(42))
	}
	w.h.Fake.Advance(24*time.Hour + time.Minute)
	w.sweep()
	c, _ := w.ledger().Find("CLR-42-001")
	if c.Status != clarify.Escalated || c.Resolution != "" {
		t.Fatalf("after two SLA periods CLR-42-001 is %s with %q, want escalated: one of two answered", c.Status, c.Resolution)
	}
	if len(w.ledger().Assumptions) != 0 {
		t.Errorf("assumptions logged: %+v", w.ledger().Assumptions)
	}
}

// TestOnePersonsAnswerIsNotTheDecisionOfAQuestionThatNeedsTwo: the asker resolves a
// question that needs two with one answer in: it is settled for the asker, but maria's
// answer alone is not remembered as the repository's decision.
func TestOnePersonsAnswerIsNotTheDecisionOfAQuestionThatNeedsTwo(t *testing.T) {
	w := quorumWorld(t, "")
	w.comment("coder-agent", "/clarify release Freeze the release?\nTopic: Release freeze\nNeeds: 2")
	w.comment("maria", "Yes, freeze it.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Resolved {
		t.Fatalf("CLR-42-001 is %s, want resolved by its asker", c.Status)
	}
	if _, m := w.memory(); len(m.Decisions) != 0 {
		t.Errorf("one of two answers remembered as the repository's decision: %+v", m.Decisions)
	}
}

// TestOneDissentHoldsAQuestionThatNeedsTwo: maria and ana say yes, ben says no: the round
// stays open, the status comment says two agree and ben's dissent holds it, and the record
// has no answer yet; ben's change of mind answers it.
func TestOneDissentHoldsAQuestionThatNeedsTwo(t *testing.T) {
	w := quorumWorld(t, "")
	w.comment("coder-agent", "/clarify release Freeze the release?\nExpect: yes/no\nNeeds: 2")
	w.comment("maria", "Yes.")
	w.comment("ben", "No, not this week.")
	if body := w.statusBody(); !strings.Contains(body, "2 answers differ, 2 must agree: maria: Yes.; ben: No, not this week.") {
		t.Fatalf("after a yes and a no:\n%s", body)
	}
	w.comment("ana", "Yes, freeze it.")
	c, _ := w.ledger().Find("CLR-42-001")
	if c.Status != clarify.Pending {
		t.Fatalf("after two yes and one no: %s, want pending: a dissent holds it", c.Status)
	}
	if body := w.statusBody(); !strings.Contains(body, "2 of 2 agree: maria, ana; 1 differs: ben: No, not this week. · a dissent holds it") {
		t.Fatalf("the status line after two yes and one no:\n%s", body)
	}
	if rec := clarify.AskRecordOf(42, c); rec.Answer != "" || rec.Value != "" || rec.Outcome != "" || len(rec.Answers) != 3 {
		t.Errorf("the record while a dissent holds it: %+v", rec)
	}
	w.comment("ben", "/respond CLR-42-001 yes, fine")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered || string(clarify.AskRecordOf(42, c).Value) != "true" {
		t.Fatalf("after ben's change of mind: %s", c.Status)
	}
}

// TestNeedsCountsThePeopleWhoCanAnswer: the asker and a bot are no people to answer, so a
// role of four names holds two, and `Needs: 3` is refused.
func TestNeedsCountsThePeopleWhoCanAnswer(t *testing.T) {
	w := quorumWorld(t, "roles:\n  release: [maria, ana, coder-agent, \"lint-bot[bot]\"]\n")
	w.comment("coder-agent", "/clarify release Freeze the release?\nNeeds: 3")
	if n := w.botComments("needs-too-many"); n != 1 || w.botComments("round 1/") != 0 {
		t.Fatalf("%d refusals with needs-too-many, want 1:\n%s", n, w.h.Fake.Transcript(repo, 42))
	}
	if n := w.botComments("can answer release: 2 (maria, ana)"); n != 1 {
		t.Errorf("%d refusals naming the two who can answer, want 1", n)
	}
}

// TestAWriterOutsideTheTargetIsNotOneOfTheN: under the default answer_from, a write
// collaborator outside the role may answer a question of one, but is not one of the two
// a question that needs two waits for: the same people needs-too-many counts.
func TestAWriterOutsideTheTargetIsNotOneOfTheN(t *testing.T) {
	w := quorumWorld(t, "roles:\n  release: [maria, ana, ben]\n")
	w.h.Fake.AddUser("wendy", "User")
	w.h.Fake.SetPermission(repo, "wendy", "write")
	w.comment("coder-agent", "/clarify release Freeze the release?\nExpect: yes/no\nNeeds: 2")
	w.comment("maria", "Yes.")
	w.comment("wendy", "/respond CLR-42-001 yes")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Pending || len(clarify.RoundAnswers(c)) != 1 {
		t.Fatalf("after maria's answer and a writer's outside the role: %s, %d answers", c.Status, len(clarify.RoundAnswers(c)))
	}
	if n := w.botComments("needs the answers of 2 of release"); n != 1 {
		t.Errorf("%d refusals telling wendy who answers, want 1", n)
	}
}

// TestACommentThroughAnAppIsTheAppsNotThePersons: ana's answer made through another App on
// her behalf is that App's: refused, and not one of the two, whether its delivery comes or
// the comment is read from the issue's list by the next run.
func TestACommentThroughAnAppIsTheAppsNotThePersons(t *testing.T) {
	for _, delivered := range []bool{true, false} {
		w := &driver{t: t, h: newHarness(t)}
		releaseRole(w)
		w.comment("coder-agent", "/clarify release Freeze the release?\nExpect: yes/no\nNeeds: 2")
		w.comment("maria", "Yes.")
		d, _ := w.h.Fake.CommentThroughApp(repo, 42, "ana", "helper-app", "/respond CLR-42-001 yes")
		if delivered {
			w.send(d)
		} else {
			w.comment("drive-by", "any news?")
		}
		c, _ := w.ledger().Find("CLR-42-001")
		if c.Status != clarify.Pending || len(clarify.RoundAnswers(c)) != 1 {
			t.Fatalf("delivered %v: after maria's answer and ana's through an App: %s, %d answers", delivered, c.Status, len(clarify.RoundAnswers(c)))
		}
		if n := w.botComments("made through the app helper-app counts as the app's"); n != 1 {
			t.Errorf("delivered %v: %d refusals saying the App's comment does not count, want 1", delivered, n)
		}
		w.comment("ana", "/respond CLR-42-001 yes")
		if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered {
			t.Errorf("delivered %v: after ana's own answer: %s", delivered, c.Status)
		}
	}
}

// TestAQuestionTwoAgreedOnTakesNoMoreAnswers: once maria and ana agree, ben's "no" while
// it waits on its asker (stale) is refused and changes nothing: the record still holds
// their answer.
func TestAQuestionTwoAgreedOnTakesNoMoreAnswers(t *testing.T) {
	w := quorumWorld(t, "roles:\n  release: [maria, ana, ben]\nanswer_from: targets\n")
	w.comment("coder-agent", "/clarify release Freeze the release?\nExpect: yes/no\nNeeds: 2")
	w.comment("maria", "Yes.")
	w.comment("ana", "Yes, freeze it.")
	w.h.Fake.Advance(31 * time.Minute)
	w.sweep()
	w.comment("ben", "/respond CLR-42-001 no")
	c, _ := w.ledger().Find("CLR-42-001")
	rec := clarify.AskRecordOf(42, c)
	if c.Status != clarify.Stale || len(clarify.RoundAnswers(c)) != 2 || rec.Outcome != clarify.OutcomeAnswered || string(rec.Value) != "true" {
		t.Fatalf("after ben's late no: %s, %d answers, record %+v", c.Status, len(clarify.RoundAnswers(c)), rec)
	}
	if n := w.botComments("a later answer does not change it"); n != 1 {
		t.Errorf("%d refusals of ben's late answer, want 1", n)
	}
}
