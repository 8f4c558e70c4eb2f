package clarify

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"
)

// Decision is one settled answer a repository remembers: what was asked, what a person
// decided, who, when and where, and whether a later decision has replaced it.
type Decision struct {
	// ID is the clarification the decision settled (CLR-<issue>-<seq>).
	ID       string    `json:"id"`
	Issue    int       `json:"issue"`
	Topic    string    `json:"topic,omitempty"`
	Question string    `json:"question,omitempty"`
	Decision string    `json:"decision"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
	// CommentID is the comment that settled it, for a link to where it was made.
	CommentID int64 `json:"comment_id,omitempty"`
	// Expect is what the settled question expected (Clarification.Expect), and Value the
	// decision's typed value by it, absent when it has none (decisions_typed.go).
	Expect string `json:"expect,omitempty"`
	Value  Value  `json:"value,omitempty"`
	// SupersededBy names the clarification whose decision replaced this one; a superseded
	// decision is never offered again (an agent that finds an old answer must not reuse it).
	SupersededBy string `json:"superseded_by,omitempty"`
	// Repo is the repository that made the decision, as owner/name, set only on a
	// decision offered from the repository this one inherits from (OfferAcross); a
	// repository's memory never stores it, since what it remembers it decided itself.
	Repo string `json:"repo,omitempty"`
}

// InForce reports whether the decision still stands.
func (d Decision) InForce() bool { return d.SupersededBy == "" }

// Memory is a repository's decisions, oldest first.
type Memory struct {
	Decisions []Decision `json:"decisions"`
}

// MaxRemembered bounds the decisions a repository keeps, so that reading them costs a
// bounded number of requests whatever the repository's history; past it the oldest
// superseded ones go first, then the oldest of all.
const MaxRemembered = 2000

// Record adds d and supersedes each decision in force on the same topic that decided
// otherwise. It reports whether anything changed: recording a decision twice (a retry, a
// rebuild of its issue) changes nothing.
func (m *Memory) Record(d Decision) bool {
	for _, x := range m.Decisions {
		if x.ID == d.ID {
			return false
		}
	}
	if key := NormalizeTopic(d.Topic); key != "" {
		for i := range m.Decisions {
			x := &m.Decisions[i]
			if x.InForce() && NormalizeTopic(x.Topic) == key && !sameText(x.Decision, d.Decision) {
				x.SupersededBy = d.ID
			}
		}
	}
	m.Decisions = append(m.Decisions, d)
	m.trim()
	return true
}

// trim keeps at most MaxRemembered decisions, dropping superseded ones before any in force.
func (m *Memory) trim() {
	for over := len(m.Decisions) - MaxRemembered; over > 0; over-- {
		drop := 0
		for i, x := range m.Decisions {
			if !x.InForce() {
				drop = i
				break
			}
		}
		m.Decisions = append(m.Decisions[:drop], m.Decisions[drop+1:]...)
	}
}

// Offer returns the newest decision in force that a new question matches: the same
// normalised topic, else a near-identical normalised question. Title similarity is a
// weak hint that misleads (tools that offer fuzzy duplicates are known for irrelevant
// links), so nothing looser than that is offered.
func (m Memory) Offer(topic, question string) (Decision, bool) {
	return OfferAcross(m, Memory{}, "", topic, question)
}

// OfferAcross is Offer over a repository's own decisions and those it inherits from the
// repository from (owner/name). A topic match beats a near-identical question wherever it
// was made; on the same footing the repository's own decision wins, since what it decided
// for itself is what it meant to set the organisation's aside for. An inherited decision
// comes back with Repo set to from, so that the offer says where it was made.
func OfferAcross(own, inherited Memory, from, topic, question string) (Decision, bool) {
	key := NormalizeTopic(topic)
	byTopic := func(x Decision) bool { return key != "" && NormalizeTopic(x.Topic) == key }
	byQuestion := func(x Decision) bool { return NearIdentical(x.Question, question) }
	for _, match := range []func(Decision) bool{byTopic, byQuestion} {
		if d, ok := own.newest(match); ok {
			return d, true
		}
		if d, ok := inherited.newest(match); ok {
			d.Repo = from
			return d, true
		}
	}
	return Decision{}, false
}

// newest is the newest decision in force that match takes.
func (m Memory) newest(match func(Decision) bool) (Decision, bool) {
	for i := len(m.Decisions) - 1; i >= 0; i-- {
		if x := m.Decisions[i]; x.InForce() && match(x) {
			return x, true
		}
	}
	return Decision{}, false
}

// InForceNewestFirst lists the decisions that still stand, the newest first.
func (m Memory) InForceNewestFirst() []Decision {
	var out []Decision
	for _, x := range m.Decisions {
		if x.InForce() {
			out = append(out, x)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.After(out[j].At) })
	return out
}

// SettledByPeople lists the decisions the repository keeps of the clarifications that
// after settles and before had not: those a person with standing made (remembered). A
// fallback taken on timeout, or a settlement from precedent, is no decision of anyone's,
// so it is never remembered as one. who says what GitHub reports now of a login.
func SettledByPeople(before, after Ledger, p Policy, who func(login string) (Actor, error)) ([]Decision, error) {
	var out []Decision
	for _, c := range after.Clarifications {
		if c.Status != Resolved {
			continue
		}
		if old, ok := before.Find(c.ID); ok && old.Status == Resolved {
			continue
		}
		e, ok := resolutionEntry(c)
		if !ok || strings.HasPrefix(e.Text, timeoutPrefix) || fromPrecedent(e) {
			continue
		}
		d, ok, err := remembered(c, e, p, who)
		if err != nil {
			return out, err
		}
		if ok {
			d.Issue = after.Issue
			out = append(out, d)
		}
	}
	return out, nil
}

// decider is who made a decision: the asker who settles takes the answer they were given
// (an agent's resolve says what a person answered), anyone else decides themselves.
func decider(c Clarification, resolution Entry) string {
	if !strings.EqualFold(resolution.Author, c.Asker.Login) {
		return resolution.Author
	}
	if a, ok := lastAnswerEntry(c); ok {
		return a.Author
	}
	return resolution.Author
}

// timeoutPrefix starts the resolution entry of a fallback taken on timeout (tick.go).
const timeoutPrefix = "timeout_assumed: "

func resolutionEntry(c Clarification) (Entry, bool) {
	for i := len(c.Thread) - 1; i >= 0; i-- {
		if c.Thread[i].Kind == KindResolution {
			return c.Thread[i], true
		}
	}
	return Entry{}, false
}

// FirstQuestion is the question a clarification was opened with.
func FirstQuestion(c Clarification) string {
	for _, e := range c.Thread {
		if e.Kind == KindQuestion {
			return e.Text
		}
	}
	return ""
}

// NormalizeTopic folds case, spacing and punctuation away: "Cache: per-user?" and
// "cache per user" are one topic.
func NormalizeTopic(s string) string {
	return strings.Join(words(s), " ")
}

// NearIdentical reports whether two questions say the same once normalised: equal, or,
// for questions of six words or more, one word added, dropped or changed (or two swapped).
func NearIdentical(a, b string) bool {
	wa, wb := words(a), words(b)
	if len(wa) == 0 || len(wb) == 0 {
		return false
	}
	if strings.Join(wa, " ") == strings.Join(wb, " ") {
		return true
	}
	return min(len(wa), len(wb)) >= 6 && wordDistance(wa, wb) <= 1
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

func sameText(a, b string) bool { return NormalizeTopic(a) == NormalizeTopic(b) }

// wordDistance is EditDistance over words: each distinct word becomes one byte. Past 256
// distinct words the questions are too long to call near-identical on one word.
func wordDistance(a, b []string) int {
	code := map[string]byte{}
	spell := func(ws []string) (string, bool) {
		out := make([]byte, len(ws))
		for i, w := range ws {
			c, ok := code[w]
			if !ok {
				if len(code) == 256 {
					return "", false
				}
				c = byte(len(code))
				code[w] = c
			}
			out[i] = c
		}
		return string(out), true
	}
	sa, okA := spell(a)
	sb, okB := spell(b)
	if !okA || !okB {
		return len(a) + len(b)
	}
	return EditDistance(sa, sb)
}

// EffectSupersede replaces a decision in the repository's memory: ClarificationID names
// the decision, Reason is the new one, Reply.To who decided. The memory is the handlers'
// to read, so whether the decision exists is theirs to answer.
const EffectSupersede EffectKind = "supersede"

// supersede checks who may replace a decision (MayChangeDecisions): someone who asked in
// this issue, or once had write access, has no say over what another issue decided.
func (a *applier) supersede() {
	if a.cmd.Text == "" {
		a.refuse(CodeBadCommand, a.cmd.Line, "a supersede needs the new decision after the id.",
			fmt.Sprintf("`/clarify supersede %s <new decision>`", a.cmd.ID))
		return
	}
	if !MayChangeDecisions(a.ev.Actor) {
		a.refuse(CodeNotPermitted, a.cmd.Line, "only a person with write access can replace a decision of the repository.",
			"to set it aside for your own question, answer or resolve that question as usual; ask a maintainer to supersede it.")
		return
	}
	a.effects = append(a.effects, Effect{Kind: EffectSupersede, Key: fmt.Sprintf("supersede:%d", a.ev.CommentID),
		ClarificationID: a.cmd.ID, Reason: a.cmd.Text, CommentID: a.ev.CommentID, Reply: Reply{To: a.ev.Actor.Login, Quote: a.cmd.Line}})
}

// Supersede replaces the decision in force of clarification id with d, which keeps the
// id (the command names it again for a later change); it returns the problem when there
// is none to replace. Doing it again for the same command (d.Issue and d.CommentID)
// changes nothing.
func (m *Memory) Supersede(id string, d Decision) (changed bool, problem string) {
	var found *Decision
	for i := range m.Decisions {
		x := &m.Decisions[i]
		if d.CommentID != 0 && x.Issue == d.Issue && x.CommentID == d.CommentID {
			return false, ""
		}
		if x.ID == id && (found == nil || x.InForce()) {
			found = x
		}
	}
	switch {
	case found == nil:
		return false, fmt.Sprintf("there is no decision %s in this repository's memory.", id)
	case !found.InForce():
		return false, fmt.Sprintf("the decision of %s was already superseded by %s.", id, found.SupersededBy)
	}
	d.ID, d.Topic, d.Question = id, found.Topic, found.Question
	d.Expect, d.Value = found.Expect, found.revisedValue(d.Decision)
	found.SupersededBy = fmt.Sprintf("%s, revised in #%d", id, d.Issue)
	m.Decisions = append(m.Decisions, d)
	m.trim()
	return true, ""
}
