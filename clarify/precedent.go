package clarify

import (
	"fmt"
	"strings"
	"time"
)

// Precedent is an earlier decision offered to a clarification, and, when the repository
// settles from precedent (decisions.settle_after) and the topic matched exactly, when it
// settles the clarification unless someone objects first.
type Precedent struct {
	// From is the clarification whose decision was offered.
	From string `json:"from"`
	// Repo is the repository (owner/name) that made the decision when it was inherited
	// (Decision.Repo); "" for one of this repository's own.
	Repo     string `json:"repo,omitempty"`
	Decision string `json:"decision"`
	// Value is the decision's typed value as an answer to this clarification
	// (Decision.ValueFor): shown with the offer, and the resolution's when it settles.
	Value Value `json:"value,omitempty"`
	// Settles is when the decision resolves the clarification; zero: advice only.
	Settles time.Time `json:"settles,omitzero"`
	// Comment is the comment that offered it (0: the status comment, which the issue's
	// first round lives in), whose 👎 objects.
	Comment int64 `json:"comment,omitempty"`
	// Objected says someone who is not a bot commented, or reacted 👎 to the offer, before
	// it settled; Applied that it settled; Undone that /clarify undo reopened it.
	Objected bool `json:"objected,omitempty"`
	Applied  bool `json:"applied,omitempty"`
	Undone   bool `json:"undone,omitempty"`
}

// precedentPrefix starts the resolution entry of a clarification settled from precedent,
// so that it is never remembered as a decision of its own (no chains of precedent).
const precedentPrefix = "precedent: "

// Source names the decision the precedent took: its clarification, and where it was
// made when another repository made it ("CLR-3-001 in octo/.github").
func (p Precedent) Source() string {
	if p.Repo == "" {
		return p.From
	}
	return p.From + " in " + p.Repo
}

// Pending reports whether the precedent may still settle its clarification.
func (p *Precedent) Pending() bool {
	return p != nil && !p.Settles.IsZero() && !p.Objected && !p.Applied && !p.Undone
}

// objectToPrecedents records an objection of a person's comment to every offer that
// could still settle a clarification of the issue: any comment says someone is looking.
func (a *applier) objectToPrecedents() {
	for i := range a.l.Clarifications {
		if c := &a.l.Clarifications[i]; c.Status.Open() && c.Precedent.Pending() {
			c.Precedent.Objected = true
		}
	}
}

// EffectPrecedent announces a clarification resolved from precedent, with how to undo it.
const EffectPrecedent EffectKind = "precedent"

// SettleFromPrecedents resolves each open clarification whose precedent is due and
// unopposed with the earlier decision; the handlers look for 👎 reactions first, since
// reactions fire no webhook.
func SettleFromPrecedents(l Ledger, now time.Time) (Ledger, []Effect) {
	var effects []Effect
	for i := range l.Clarifications {
		c := &l.Clarifications[i]
		if !c.Status.Open() || !c.Precedent.Pending() || now.Before(c.Precedent.Settles) || !SettlesUnattended(*c) {
			continue
		}
		p := *c.Precedent
		p.Applied = true
		c.Precedent = &p
		settle(c, Resolved, p.Decision, Entry{Kind: KindResolution, Round: c.Round, At: now,
			Text: precedentPrefix + p.Decision + " (from " + p.Source() + ")", Value: p.Value}, now)
		effects = append(effects, Effect{Kind: EffectPrecedent, Key: "precedent:" + c.ID, ClarificationID: c.ID})
	}
	return l, effects
}

// undo reopens a clarification resolved from precedent: as it stood, waiting on its target.
func (a *applier) undo() {
	c, ok := a.named()
	if !ok {
		return
	}
	if c.Status != Resolved || c.Precedent == nil || !c.Precedent.Applied || c.Precedent.Undone {
		a.refuse(CodeSettled, a.cmd.Line, fmt.Sprintf("%s was not resolved from precedent, so there is nothing to undo.", c.ID),
			fmt.Sprintf("`/clarify show %s` shows how it stands.", c.ID))
		return
	}
	if !a.canSettle(*c) && !a.p.addressedTo(*c, a.ev.Actor) {
		a.refuse(CodeNotPermitted, a.cmd.Line, fmt.Sprintf("only the two sides of %s and people with write access can undo it.", c.ID),
			"ask the asker or a maintainer.")
		return
	}
	p := *c.Precedent
	p.Undone = true
	c.Precedent = &p
	c.Status, c.Resolution, c.ResolvedAt, c.UpdatedAt = Pending, "", time.Time{}, a.now
	c.StaleAfter = a.now.Add(a.p.SLA)
	c.Thread = append(c.Thread, a.entry(KindNote, c.Round, "resolution from precedent undone by "+a.ev.Actor.Login))
	a.react("+1")
}

// precedentDeadline is when a clarification's precedent settles it, if it still may.
func precedentDeadline(c Clarification) (time.Time, bool) {
	if !c.Status.Open() || !c.Precedent.Pending() {
		return time.Time{}, false
	}
	return c.Precedent.Settles, true
}

// fromPrecedent reports whether a resolution entry is a settlement from precedent.
func fromPrecedent(e Entry) bool { return strings.HasPrefix(e.Text, precedentPrefix) }

// PrecedentCounts counts how the earlier decisions offered to clarifications fared:
// offered, accepted (resolved by a person with the decision offered, or its typed value),
// resolved from precedent, objected to, and undone. The reversals are what tells a good
// automation rate from one nobody contests.
type PrecedentCounts struct {
	Offered       int `json:"offered"`
	Accepted      int `json:"accepted"`
	FromPrecedent int `json:"from_precedent"`
	Objected      int `json:"objected"`
	Undone        int `json:"undone"`
}

func (pc *PrecedentCounts) add(c Clarification) {
	p := c.Precedent
	if p == nil {
		return
	}
	pc.Offered++
	switch {
	case p.Applied:
		pc.FromPrecedent++
	case c.Status == Resolved && (sameText(c.Resolution, p.Decision) || p.Value != "" && LastValue(c) == p.Value):
		// A typed question resolved with the value offered took the offer, in whatever words.
		pc.Accepted++
	}
	if p.Objected {
		pc.Objected++
	}
	if p.Undone {
		pc.Undone++
	}
}

// precedentCommand carries out the commands on the repository's decisions: supersede one,
// or undo a resolution drawn from one.
func (a *applier) precedentCommand() {
	if a.cmd.Kind == CmdUndo {
		a.undo()
		return
	}
	a.supersede()
}
