package clarify

// Who speaks for the repository: whose word becomes one of its decisions, and who may
// change them. Both rules live here and nowhere else; the handlers only say what GitHub
// reports of an account (its type, its permission now).
//
// Anyone who may ask may settle their own question, but a settled question is the
// repository's decision only when a person with standing made it. A bot account, or
// anyone reading the repository, asks and settles for itself alone: were its word
// remembered, any account able to comment could plant the answer the next agent is given
// (and, with decisions.settle_after, settled with).

// HasStanding reports whether what a is remembered as the repository's decision when they
// settle a question or answer one: a person (not a bot account) with write access, as
// GitHub reports it now, or a person the repository's configuration lists in a role. The
// config is committed by people with write access, so a role's logins are people they chose
// to answer for the repository; a team is not enough, since the asker picks which team to
// address and its membership is the organization's, not the repository's.
func (p Policy) HasStanding(a Actor) bool {
	if a.Bot || a.Self || a.Login == "" {
		return false
	}
	return a.CanWrite() || p.RoleOf(a.Login) != ""
}

// standing is HasStanding for login, asking who (what GitHub reports of it now) only when
// the configuration does not already say: a login a role lists that is not an app's is a
// person the repository chose, whatever their permission, so no look-up is spent on it.
func (p Policy) standing(login string, who func(login string) (Actor, error)) (bool, error) {
	if login != "" && !IsAppLogin(login) && p.RoleOf(login) != "" {
		return true, nil
	}
	a, err := who(login)
	if err != nil {
		return false, err
	}
	return p.HasStanding(a), nil
}

// MayChangeDecisions reports whether a may replace a decision of the repository (`/clarify
// supersede`): a person with write access, as GitHub reports it for this very comment, never
// as remembered from an earlier one (write access can be taken away).
func MayChangeDecisions(a Actor) bool {
	return !a.Bot && !a.Self && a.CanWrite()
}

// remembered is the decision the repository keeps of c, settled by resolution, when a
// person with standing made it; who says what GitHub reports now of a login. A resolver
// with standing decides in their own words; otherwise the decision is the last answer's,
// in its author's words, if that author has standing: the resolver's words are theirs
// alone and are never put in the mouth of the person who answered.
func remembered(c Clarification, resolution Entry, p Policy, who func(login string) (Actor, error)) (Decision, bool, error) {
	d := Decision{ID: c.ID, Topic: c.Topic, Question: FirstQuestion(c), At: c.ResolvedAt}
	resolverStands, err := p.standing(resolution.Author, who)
	if err != nil {
		return Decision{}, false, err
	}
	if resolverStands {
		d.Decision, d.By, d.CommentID = c.Resolution, decider(c, resolution), resolution.CommentID
		d.Expect, d.Value = c.Expect, resolution.Value
		return d, true, nil
	}
	answer, ok := decidingAnswer(c)
	if !ok {
		return Decision{}, false, nil
	}
	if stands, err := p.standing(answer.Author, who); err != nil || !stands {
		return Decision{}, false, err
	}
	// The answer is read again by the round that settled, whose Expect is the one kept.
	d.Decision, d.By, d.CommentID = answer.Text, answer.Author, answer.CommentID
	d.Expect, d.Value = c.Expect, valueIn(c, answer.Text)
	return d, true, nil
}

// lastAnswerEntry is the last answer in c's thread.
func lastAnswerEntry(c Clarification) (Entry, bool) {
	for i := len(c.Thread) - 1; i >= 0; i-- {
		if c.Thread[i].Kind == KindAnswer {
			return c.Thread[i], true
		}
	}
	return Entry{}, false
}
