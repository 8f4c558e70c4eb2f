package clarify

import (
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Thresholds of Similar. A rephrasing keeps most of a question's word pairs; a short question
// has too few pairs for that to say much, so its words are compared as a set, which also
// catches a short question said in another order.
const (
	similarBigrams     = 0.8
	similarShortWords  = 0.85
	shortQuestionWords = 10
)

// trivialWords carry no question: greetings, politeness, nagging and articles.
var trivialWords = map[string]bool{
	"please": true, "pls": true, "plz": true, "kindly": true, "again": true, "just": true,
	"still": true, "also": true, "hi": true, "hello": true, "hey": true, "thanks": true,
	"thx": true, "sorry": true, "ok": true, "okay": true, "ping": true, "bump": true,
	"reminder": true, "friendly": true, "so": true, "um": true, "uh": true,
	"a": true, "an": true, "the": true,
}

// synonyms maps words that ask the same thing onto one of them.
var synonyms = map[string]string{"what": "which"}

// negations turn a question into its opposite: two questions are only ever the same when
// they have as many of them.
var negations = map[string]bool{
	"not": true, "no": true, "never": true, "without": true, "nor": true, "neither": true,
	"none": true, "nobody": true, "nothing": true,
}

// contractions are spelled out before punctuation goes, so "can't" and "cannot" meet.
var contractions = strings.NewReplacer(
	"can't", "can not", "can’t", "can not", "cannot", "can not",
	"won't", "will not", "won’t", "will not",
	"n't", " not", "n’t", " not",
)

// Similar reports whether two questions are the same question asked again: equal after
// normalising (lower case, punctuation and markdown removed, whitespace collapsed, trivial words
// like "please"/"again" dropped), or highly similar: Jaccard similarity of word bigrams ≥ 0.8,
// or, for short questions (at most 10 words), of word sets ≥ 0.85 with at least one word pair
// in common, so that "should the API call the worker" is not "should the worker call the API".
// Two questions that differ in their numbers ("100" against "1000" requests) or in how many
// negations they hold ("should we cache" against "should we not cache") are never similar.
// Symmetric. Empty strings, and questions with no words left after normalising, are never
// similar.
func Similar(a, b string) bool {
	wa, wb := questionWords(a), questionWords(b)
	if len(wa) == 0 || len(wb) == 0 {
		return false
	}
	if slices.Equal(wa, wb) {
		return true
	}
	if countNegations(wa) != countNegations(wb) || !maps.Equal(numberWords(wa), numberWords(wb)) {
		return false
	}
	ba, bb := bigrams(wa), bigrams(wb)
	if len(ba) > 0 && len(bb) > 0 && jaccard(ba, bb) >= similarBigrams {
		return true
	}
	if len(wa) <= shortQuestionWords && len(wb) <= shortQuestionWords {
		return jaccard(wordSet(wa), wordSet(wb)) >= similarShortWords && shared(ba, bb) > 0
	}
	return false
}

// RepeatsEarlier reports whether question repeats an earlier question of c (any round).
func RepeatsEarlier(c Clarification, question string) bool {
	for _, e := range c.Thread {
		if e.Kind == KindQuestion && Similar(e.Text, question) {
			return true
		}
	}
	return false
}

// BouncedBack returns the open clarification that asks the asker of a new ask something
// similar from the opposite direction: an open clarification whose asker is the new ask's
// target and whose target is the new ask's asker (askerLogin, with the role the policy gives
// it), holding a question similar to question. Sides are matched by login, by membership of
// a role, or by role when both sides have one (a team matches an asker whose role lists the
// team). An ask from the same login as the open clarification's asker is a repeat, not a
// bounce, and is never returned. The oldest such clarification wins.
func BouncedBack(l Ledger, p Policy, askerLogin string, target Target, question string) (Clarification, bool) {
	asker := Party{Login: askerLogin, Role: p.RoleOf(askerLogin)}
	for _, c := range l.Clarifications {
		if !c.Status.Open() || strings.EqualFold(c.Asker.Login, askerLogin) {
			continue
		}
		if p.partyIs(c.Asker, target) && p.partyIs(asker, c.Target) && RepeatsEarlier(c, question) {
			return c, true
		}
	}
	return Clarification{}, false
}

// EscalateInLedger marks the clarification id escalated with reason, written by author
// (empty for the app itself) from comment commentID (0 for none), and returns the new ledger
// and the EffectEscalate that calls the maintainers (Key "escalate:<id>:<round>"), or no
// effect (Kind empty) when they were called in this round already. It is false, with l
// returned as it was, when id is unknown, no longer open, or already escalated: the
// maintainers are never called twice for the same thing. l is never modified.
func EscalateInLedger(l Ledger, id, reason, author string, commentID int64, now time.Time) (Ledger, Effect, bool) {
	i := slices.IndexFunc(l.Clarifications, func(c Clarification) bool { return c.ID == id })
	if i < 0 || !l.Clarifications[i].Status.Open() || l.Clarifications[i].Status == Escalated {
		return l, Effect{}, false
	}
	if reason == "" {
		reason = "escalated"
	}
	out := l.Clone()
	e, announce := escalateClarification(&out.Clarifications[i], reason, author, commentID, now)
	if !announce {
		e = Effect{}
	}
	return out, e, true
}

// partyIs reports whether party is (one of) the people target names.
func (p Policy) partyIs(party Party, t Target) bool {
	switch t.Kind {
	case TargetRole:
		return party.Role == t.Name || p.isMember(t.Name, party.Login)
	case TargetLogin:
		if strings.EqualFold(party.Login, t.Name) {
			return true
		}
		return party.Role != "" && party.Role == p.RoleOf(t.Name)
	case TargetTeam:
		return party.Role != "" && p.isMember(party.Role, "@"+t.Name)
	}
	return false
}

// isMember reports whether role lists member (a login, or a team written with or without @).
func (p Policy) isMember(role, member string) bool {
	member = strings.TrimPrefix(member, "@")
	for _, m := range p.roleMembers(role) {
		if strings.EqualFold(strings.TrimPrefix(m, "@"), member) {
			return true
		}
	}
	return false
}

// questionWords normalises a question into its words: markdown links reduced to their text,
// lower case, contractions spelled out, mentions and clarification ids dropped (they say whom
// and where, not what), punctuation and markdown marks removed, trivial words dropped, plurals
// folded into the singular.
func questionWords(s string) []string {
	s = contractions.Replace(strings.ToLower(linkText(s)))
	var raw []string
	for _, tok := range strings.Fields(s) {
		if strings.HasPrefix(tok, "@") || firstID(tok) != "" {
			continue
		}
		// Apostrophes join ("what's" is one word); every other mark separates
		// ("rate_limit", "per-key", "**key**").
		tok = strings.NewReplacer("'", "", "’", "", "‘", "").Replace(tok)
		raw = append(raw, strings.FieldsFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })...)
	}
	var words []string
	for i := 0; i < len(raw); i++ {
		w := raw[i]
		if w == "thank" && i+1 < len(raw) && raw[i+1] == "you" {
			i++
			continue
		}
		if trivialWords[w] || w == "thank" {
			continue
		}
		if s, ok := synonyms[w]; ok {
			w = s
		}
		words = append(words, singular(w))
	}
	return words
}

// linkText replaces markdown links and images, [text](url) and ![alt](url), by their text.
func linkText(s string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(s, '[')
		if open < 0 {
			break
		}
		mid := strings.Index(s[open:], "](")
		if mid < 0 {
			break
		}
		mid += open
		end := strings.IndexByte(s[mid:], ')')
		if end < 0 {
			break
		}
		end += mid
		if nested := strings.IndexByte(s[open+1:mid], '['); nested >= 0 {
			// "[x [text](url)": the link starts at the last '[' before "](".
			b.WriteString(s[:open+1])
			s = s[open+1:]
			continue
		}
		b.WriteString(strings.TrimSuffix(s[:open], "!"))
		b.WriteString(" " + s[open+1:mid] + " ")
		s = s[end+1:]
	}
	b.WriteString(s)
	return b.String()
}

// singular folds a plain English plural into its singular ("reports", "policies"), enough
// for two phrasings of one question to meet; both sides are folded the same way.
func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

func countNegations(words []string) int {
	n := 0
	for _, w := range words {
		if negations[w] {
			n++
		}
	}
	return n
}

// numberWords is the set of words holding a digit ("100", "v2", "ipv6").
func numberWords(words []string) map[string]bool {
	set := map[string]bool{}
	for _, w := range words {
		if strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			set[w] = true
		}
	}
	return set
}

func wordSet(words []string) map[string]bool {
	set := make(map[string]bool, len(words))
	for _, w := range words {
		set[w] = true
	}
	return set
}

func bigrams(words []string) map[string]bool {
	set := map[string]bool{}
	for i := 0; i+1 < len(words); i++ {
		set[words[i]+" "+words[i+1]] = true
	}
	return set
}

// jaccard is |a ∩ b| / |a ∪ b|; 0 for two empty sets.
func jaccard(a, b map[string]bool) float64 {
	common := shared(a, b)
	union := len(a) + len(b) - common
	if union == 0 {
		return 0
	}
	return float64(common) / float64(union)
}

func shared(a, b map[string]bool) int {
	n := 0
	for k := range a {
		if b[k] {
			n++
		}
	}
	return n
}
