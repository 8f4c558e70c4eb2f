package clarify

import (
	"fmt"
	"strconv"
	"strings"
)

// Questions that need several people (`Needs: N`): a release freeze or a security exception
// wants two maintainers, not the first eligible reply. The rule of agreement is this one,
// here alone (docs/agents.md, Needs, says it for users); the status comment and the asker's
// record show its Tally:
//   - the N are people the question is addressed to (its login, its role's members, its
//     team's members), never its asker, never a bot, never a comment an App posted on a
//     person's behalf (it is the App's): answer_from's "or anyone with write access" does
//     not reach such a question, so the people who count are the ones needs-too-many counts;
//   - each one's latest answer in the round counts, so a second reply replaces the first;
//   - the round is answered the moment N of them have answered and no answer among theirs
//     differs (text answers never differ): one dissent holds it open, as a maintainer's "no"
//     holds a release freeze, until the dissenter changes their answer or the asker or a
//     maintainer resolves it; its SLA runs as for any open question; once answered it takes
//     no more answers (agreedByMany);
//   - it is settled by its people only: never from precedent, by its fallback on timeout,
//     or by one person's answer remembered as the repository's decision (SettlesUnattended).

// MaxNeeds is the most people an ask may need: beyond a handful, a question is a vote.
const MaxNeeds = 10

// ParseNeeds reads a `Needs:` value: a whole number from 1 to MaxNeeds.
func ParseNeeds(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > MaxNeeds {
		return 0, fmt.Errorf("%q is not a number of people from 1 to %d", strings.TrimSpace(s), MaxNeeds)
	}
	return n, nil
}

// NeedsOf is how many people's answers each round of c needs: 1 unless its ask said more.
func NeedsOf(c Clarification) int { return max(c.Needs, 1) }

// SettlesUnattended reports whether c may be settled with no person's word in its round:
// from precedent, or by its fallback on timeout. One that needs several people never is;
// an earlier decision is still offered to it, as advice.
func SettlesUnattended(c Clarification) bool { return NeedsOf(c) <= 1 }

// RoundAnswers is each person's latest answer in c's current round, in the order they first
// answered it.
func RoundAnswers(c Clarification) []Entry {
	var out []Entry
	at := map[string]int{}
	for _, e := range c.Thread {
		if e.Kind != KindAnswer || e.Round != c.Round {
			continue
		}
		who := strings.ToLower(e.Author)
		if i, ok := at[who]; ok {
			out[i] = e
			continue
		}
		at[who] = len(out)
		out = append(out, e)
	}
	return out
}

// Tally is how the current round of a question that needs several people stands.
type Tally struct {
	// Need is how many people must agree.
	Need int
	// Agree holds the most answers alike (of a tie, the value that reached it first);
	// Differ the rest. Both are each person's latest, in the order they first answered.
	Agree, Differ []Entry
}

// Answered reports whether the tally answers its round: Need agree, and none differs.
func (t Tally) Answered() bool { return len(t.Agree) >= t.Need && len(t.Differ) == 0 }

// TallyOf is the tally of c's current round.
func TallyOf(c Clarification) Tally {
	t := Tally{Need: NeedsOf(c)}
	answers := RoundAnswers(c)
	if k := ExpectOf(c).Kind; k == ExpectText || k == "" {
		t.Agree = answers
		return t
	}
	alike := map[Value]int{}
	var most Value
	for _, e := range answers {
		alike[e.Value]++
		if alike[e.Value] > alike[most] {
			most = e.Value
		}
	}
	for _, e := range answers {
		if e.Value == most {
			t.Agree = append(t.Agree, e)
		} else {
			t.Differ = append(t.Differ, e)
		}
	}
	return t
}

// RoundAnswered reports whether c's current round has the answers it needs.
func RoundAnswered(c Clarification) bool { return TallyOf(c).Answered() }

// agreedByMany reports whether c needs several people and its round was answered by them:
// it takes no more answers, even while it waits on its asker (stale, escalated).
func agreedByMany(c Clarification) bool { return NeedsOf(c) > 1 && RoundAnswered(c) }

// onlyTargetsAnswer reports whether only the people c is addressed to may answer it: under
// answer_from: targets, and for a question that needs several people, whatever it says.
func (p Policy) onlyTargetsAnswer(c Clarification) bool {
	return p.AnswerFrom == AnswerTargets || NeedsOf(c) > 1
}

// answerOfMany takes one person's answer to a round that needs several: it stands beside
// the others, and the round is answered once its tally says so.
func (a *applier) answerOfMany(c *Clarification, value Value) {
	if actor := a.ev.Actor; actor.Bot || actor.App != "" {
		problem := fmt.Sprintf("%s needs the answers of %d people; a bot's does not count.", c.ID, NeedsOf(*c))
		if !actor.Bot {
			problem = fmt.Sprintf("%s needs the answers of %d people; a comment made through the app %s counts as the app's, not as %s's.",
				c.ID, NeedsOf(*c), actor.App, actor.Login)
		}
		a.refuse(CodeNotPermitted, a.cmd.Line, problem, "leave the answer to the people it is addressed to, each in a comment of their own.")
		return
	}
	e := a.entry(KindAnswer, c.Round, a.cmd.Text)
	e.Value = value
	c.Thread = append(c.Thread, e)
	c.UpdatedAt = a.now
	a.react("+1")
	if RoundAnswered(*c) {
		c.Status = Answered
		c.StaleAfter = a.now.Add(a.p.SLA)
	}
}

// decidingAnswer is the answer that speaks for c when the one who resolved it does not: its
// last, or for a question that needs several people, its round's only when they agreed.
func decidingAnswer(c Clarification) (Entry, bool) {
	if NeedsOf(c) > 1 && !RoundAnswered(c) {
		return Entry{}, false
	}
	return lastAnswerEntry(c)
}

// needsRefused refuses an ask that needs more people than can answer it among those its
// target names; a team, or a role with a team among its members, has a size the policy does
// not know, and passes.
func (a *applier) needsRefused(target Target) bool {
	if a.cmd.Needs <= 1 {
		return false
	}
	people, known := a.p.answerers(target, a.ev.Actor.Login)
	if !known || a.cmd.Needs <= len(people) {
		return false
	}
	named := "nobody"
	if len(people) > 0 {
		named = strings.Join(people, ", ")
	}
	a.refuse(CodeNeedsTooMany, a.cmd.Line,
		fmt.Sprintf("`Needs: %d` asks for more people than can answer %s: %d (%s); the asker and bots do not count, and each person counts once.",
			a.cmd.Needs, target.Name, len(people), named),
		fmt.Sprintf("ask for at most %d, or address a role with more people.", max(len(people), 1)))
	return true
}

// answerers lists the people whose answers to a question of asker's to t can count: a
// login, or a role's members, each once, without the asker and without bots ("name[bot]");
// known is false for a team, or a role with a team, whose members the policy does not list.
func (p Policy) answerers(t Target, asker string) (people []string, known bool) {
	if t.Kind == TargetTeam {
		return nil, false
	}
	seen := map[string]bool{strings.ToLower(asker): true}
	for _, m := range p.people(t) {
		if strings.Contains(m, "/") {
			return nil, false
		}
		if key := strings.ToLower(m); !seen[key] && !IsAppLogin(key) {
			seen[key] = true
			people = append(people, m)
		}
	}
	return people, true
}
