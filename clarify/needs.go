package clarify

import (
	"fmt"
	"strconv"
	"strings"
)

// Questions that need several people (`Needs: N`): a release freeze or a security exception
// wants two maintainers, not the first eligible reply. Such a round is answered once N
// distinct people have answered it and, for a typed answer, agree:
//   - each person's latest answer in the round counts, so a second reply replaces the first;
//   - a bot's answer never counts, and an outsider cannot answer at all (canAnswer);
//   - answers that disagree leave the round open, its SLA running as for any open question;
//   - an ask needing more people than its target names is refused (CodeNeedsTooMany).

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

// RoundAnswered reports whether c's current round has the answers it needs; disagree says
// enough people answered a typed question but not alike.
func RoundAnswered(c Clarification) (answered, disagree bool) {
	answers := RoundAnswers(c)
	if len(answers) < NeedsOf(c) {
		return false, false
	}
	if k := ExpectOf(c).Kind; k == ExpectText || k == "" {
		return true, false
	}
	for _, e := range answers[1:] {
		if e.Value != answers[0].Value {
			return false, true
		}
	}
	return true, false
}

// answerOfMany takes one person's answer to a round that needs several: it stands beside
// the others, and the round is answered once RoundAnswered says so.
func (a *applier) answerOfMany(c *Clarification, value Value) {
	if a.ev.Actor.Bot {
		a.refuse(CodeNotPermitted, a.cmd.Line, fmt.Sprintf("%s needs the answers of %d people; a bot's does not count.", c.ID, NeedsOf(*c)),
			"leave the answer to the people it is addressed to.")
		return
	}
	e := a.entry(KindAnswer, c.Round, a.cmd.Text)
	e.Value = value
	c.Thread = append(c.Thread, e)
	c.UpdatedAt = a.now
	a.react("+1")
	if ok, _ := RoundAnswered(*c); ok {
		c.Status = Answered
		c.StaleAfter = a.now.Add(a.p.SLA)
	}
}

// needsRefused refuses an ask that needs more people than its target names; a team, or a
// role with a team among its members, has a size the policy does not know, and passes.
func (a *applier) needsRefused(target Target) bool {
	if a.cmd.Needs <= 1 {
		return false
	}
	people, known := a.p.peopleOf(target)
	if !known || a.cmd.Needs <= people {
		return false
	}
	a.refuse(CodeNeedsTooMany, a.cmd.Line,
		fmt.Sprintf("`Needs: %d` asks for more people than %s names (%d).", a.cmd.Needs, target.Name, people),
		fmt.Sprintf("ask for at most %d, as in `Needs: %d`, or address a role with more people.", people, people))
	return true
}

// peopleOf is how many people t names: one for a login, a role's members; known is false for
// a team, whose members the policy does not list.
func (p Policy) peopleOf(t Target) (people int, known bool) {
	switch t.Kind {
	case TargetLogin:
		return 1, true
	case TargetRole:
		for _, m := range p.Roles[t.Name] {
			if strings.Contains(m, "/") {
				return 0, false
			}
		}
		return len(p.Roles[t.Name]), true
	}
	return 0, false
}
