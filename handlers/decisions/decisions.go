package decisions

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/appissues"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
	"github.com/clarify-app/clarify/repoconfig"
)

// A repository's decisions live in comments of one issue of the app's, closed so that it
// stays out of the way; the label DecisionsLabel stores that issue's number in its
// description. A lookup is then one read of the label and one page of the issue's
// comments (clarify.MaxRemembered keeps the memory to a few comments), whatever the
// repository's history, and never a search: GitHub's search API allows 30 requests a
// minute and lags minutes behind.

// decisionsTitle is the title of the issue the app creates for the decisions.
const decisionsTitle = "Clarify: decisions of this repository"

// TTL is how long an offer trusts the decisions this process last read or wrote:
// an offer is advice, so a decision another process made a minute ago may wait for the
// next read, and a burst of asks in one repository reads the memory once.
const TTL = time.Minute

// offerMemory is the repository's decisions for an offer: as this process read or wrote
// them less than TTL ago, else read once for every run that asks at that moment.
func offerMemory(ctx context.Context, h Host, client *github.Client, owner, repo string) (ledger.MemoryBook, error) {
	book, err := h.Caches().Book(owner+"/"+repo, func() (ledger.MemoryBook, bool, error) {
		book, err := Read(ctx, h, client, owner, repo)
		return book, err == nil, err
	})
	return withPending(ctx, h, client, book, err == nil, owner, repo), err
}

// lockedMemory reads the repository's decisions under its lock, for a change: one
// process's runs of different issues take turns, so neither loses the other's decision.
func lockedMemory(ctx context.Context, h Host, client *github.Client, ref clarify.IssueRef) (ledger.MemoryBook, func(), error) {
	unlock, err := h.Lock(ctx, "decisions:"+ref.Owner+"/"+ref.Repo)
	if err != nil {
		return ledger.MemoryBook{}, nil, fmt.Errorf("wait for the decisions of %s/%s: %w", ref.Owner, ref.Repo, err)
	}
	book, err := Read(ctx, h, client, ref.Owner, ref.Repo)
	if err != nil {
		unlock()
		return ledger.MemoryBook{}, nil, err
	}
	return book, unlock, nil
}

// rememberDecisions records the decisions people with standing made in this run in the
// repository's memory (clarify.SettledByPeople says which). It runs before the ledger is
// saved: a run that fails after it is run again from the same ledger, and recording a
// decision twice changes nothing.
func rememberDecisions(ctx context.Context, r Run, p clarify.Policy, before, after clarify.Ledger) error {
	ds, err := clarify.SettledByPeople(before, after, p, func(login string) (clarify.Actor, error) {
		return r.Actor(ctx, login)
	})
	if err != nil || len(ds) == 0 {
		return err
	}
	return noteDecisions(ctx, r, ds)
}

// recordDecisions records ds in the repository's memory and notes the write for its
// read-back (checkMemoryWrites).
func recordDecisions(ctx context.Context, h Host, client *github.Client, ref clarify.IssueRef, note func(Write), ds []clarify.Decision) error {
	book, unlock, err := lockedMemory(ctx, h, client, ref)
	if err != nil {
		return err
	}
	defer unlock()
	changed := false
	for _, d := range ds {
		changed = book.Memory.Record(d) || changed
	}
	if !changed {
		return nil
	}
	made := book.Issue == 0
	if err := writeMemory(ctx, h, client, ref, &book); err != nil {
		return err
	}
	if made {
		// No other run's write can drop what this one wrote into the memory it just made:
		// another could only have read it before its first part was there, and then made
		// a part of its own beside this one (bookOf reads both), not edited this one.
		return nil
	}
	if note == nil {
		return nil
	}
	note(Write{At: time.Now(), Issue: book.Issue,
		Kept: func(m clarify.Memory) bool {
			for _, d := range ds {
				if !slices.ContainsFunc(m.Decisions, func(x clarify.Decision) bool { return x.ID == d.ID }) {
					return false
				}
			}
			return true
		},
		Redo: func() error { return recordDecisions(ctx, h, client, ref, note, ds) }})
	return nil
}

// writeMemory writes the parts that changed, creating the decisions issue the first time
// (book then names it), and keeps the issue's index of its parts and its label's mark.
func writeMemory(ctx context.Context, h Host, client *github.Client, ref clarify.IssueRef, book *ledger.MemoryBook) error {
	if book.Issue == 0 {
		n, err := CreateIssue(ctx, h, client, ref)
		if err != nil {
			return err
		}
		*book = ledger.MemoryBook{Issue: n, Memory: book.Memory}
		h.Caches().SetIssue(ref.Owner+"/"+ref.Repo, n)
	}
	// What is offered next is what this write leaves, whether or not every part lands:
	// the decisions recorded here are in force either way once the write is retried.
	defer func() { h.Caches().SetBook(ref.Owner+"/"+ref.Repo, *book) }()
	made, err := writeParts(ctx, h, client, ref, book)
	if err != nil {
		return err
	}
	return WriteIndex(ctx, h, client, ref, book, book.SweepIndex, made)
}

// writeParts edits the parts of the memory that changed and makes those it lacks, and
// reports whether it made any.
func writeParts(ctx context.Context, h Host, client *github.Client, ref clarify.IssueRef, book *ledger.MemoryBook) (bool, error) {
	mref := clarify.IssueRef{Owner: ref.Owner, Repo: ref.Repo, Number: book.Issue}
	bodies, err := render.EncodeDecisions(book.Memory, keysOf(h, mref).Signing())
	if err != nil {
		return false, err
	}
	for len(bodies) < len(book.Parts) {
		// A memory that shrank leaves its last parts empty rather than deleting them.
		empty, err := render.EncodeDecisionsPart(len(bodies), nil, keysOf(h, mref).Signing())
		if err != nil {
			return false, err
		}
		bodies = append(bodies, empty)
	}
	made := false
	for i, body := range bodies {
		body = h.Signed(mref, body)
		if i < len(book.Parts) {
			if book.Parts[i].GetBody() == body {
				continue
			}
			if _, _, err := client.Issues.EditComment(ctx, ref.Owner, ref.Repo, book.Parts[i].GetID(), &github.IssueComment{Body: &body}); err != nil {
				return made, fmt.Errorf("write decisions of %s/%s: %w", ref.Owner, ref.Repo, err)
			}
			book.Parts[i].Body = &body
			continue
		}
		c, _, err := client.Issues.CreateComment(ctx, ref.Owner, ref.Repo, book.Issue, &github.IssueComment{Body: &body})
		if err != nil {
			return made, fmt.Errorf("write decisions of %s/%s: %w", ref.Owner, ref.Repo, err)
		}
		book.Parts, made = append(book.Parts, c), true
	}
	return made, nil
}

// CreateIssue opens the issue that holds the decisions and stores its number and
// mark in the label's description. Its first index write (WriteIndex, right after its
// first comment is made) signs its body and closes it (it is the app's memory, not work
// for anyone): GitHub makes every issue open, and closing it in that write rather than
// now saves a request in a repository's first decision.
func CreateIssue(ctx context.Context, h Host, client *github.Client, ref clarify.IssueRef) (int, error) {
	title, text := decisionsTitle, render.DecisionsIssueText()
	is, _, err := client.Issues.Create(ctx, ref.Owner, ref.Repo, &github.IssueRequest{Title: &title, Body: &text})
	if err != nil {
		return 0, fmt.Errorf("create the decisions issue of %s/%s: %w", ref.Owner, ref.Repo, err)
	}
	n := is.GetNumber()
	mref := clarify.IssueRef{Owner: ref.Owner, Repo: ref.Repo, Number: n}
	desc := h.AppIssues().Label(mref, ledger.DecisionsKind)
	stands, err := appissues.ClaimLabel(ctx, client, ref.Owner, ref.Repo, ledger.DecisionsLabel, desc, n, func(other int, desc string) (bool, error) {
		book, err := h.Reader().ReadMemoryIn(ctx, client, ref.Owner, ref.Repo, other, h.Reader().Marked(ref.Owner, ref.Repo, ledger.DecisionsKind, other, desc))
		return book.Issue != 0, err
	})
	if err != nil || stands == n {
		return n, err
	}
	appissues.MarkUnused(ctx, client, ref.Owner, ref.Repo, n, fmt.Sprintf("Clarify: unused (the decisions of this repository are in #%d)", stands))
	// Its parts are not in this run's book: the run starts over from a fresh read of them.
	return 0, fmt.Errorf("the decisions issue of %s/%s is #%d, made by another run meanwhile: %w", ref.Owner, ref.Repo, stands, ErrLedgerMoved)
}

// offersFor finds, for each first round the effects post, the earlier decision to offer; it
// reads the memory only when there is such a round and the repository wants offers.
func offersFor(ctx context.Context, r Run, from string, l clarify.Ledger, effects []clarify.Effect) (map[string]*Offer, error) {
	h := r.Host()
	if !r.Decisions().Offer {
		return nil, nil
	}
	var asks []clarify.Effect
	for _, e := range effects {
		if e.Kind == clarify.EffectPostRound && e.Round == 1 && !r.Posted(e.Key) {
			asks = append(asks, e)
		}
	}
	if len(asks) == 0 {
		return nil, nil
	}
	book, err := offerMemory(ctx, h, r.Client(), r.Ref().Owner, r.Ref().Repo)
	if err != nil {
		// Advice is best effort: a question is never held up because the memory could
		// not be read; it is asked without an offer.
		zerolog.Ctx(ctx).Warn().Err(err).Msg("Decisions not read: the new question goes without an offer")
		return nil, nil
	}
	from, inherited := decisionsOf(ctx, h, r.Client(), from)
	out := map[string]*Offer{}
	for _, e := range asks {
		c, ok := l.Find(e.ClarificationID)
		if !ok {
			continue
		}
		if d, ok := clarify.OfferAcross(book.Memory, inherited, from, c.Topic, clarify.FirstQuestion(c)); ok {
			out[e.Key] = &Offer{Decision: d, ID: c.ID}
		}
	}
	return out, nil
}

// Offer is an earlier decision offered to a new question (the clarification ID), and the
// Comment that offers it once posted (0 while not, or when it went into the status comment).
type Offer struct {
	Decision clarify.Decision
	ID       string
	Comment  int64
}

// stampOffers records in the ledger which decision each new question was offered and,
// with decisions.settle_after and the very same topic, when it settles the question.
// Only an exact topic settles anything: a near-identical question is advice alone, and so
// is any offer to a question that needs several people (clarify.SettlesUnattended).
func stampOffers(l clarify.Ledger, offers map[string]*Offer, cfg repoconfig.Decisions, now time.Time) clarify.Ledger {
	for _, o := range offers {
		for i := range l.Clarifications {
			c := &l.Clarifications[i]
			if c.ID != o.ID || c.Precedent != nil {
				continue
			}
			// An inherited decision gets the very same window for objection as one of the
			// repository's own: where it was made changes nothing of who may object here.
			p := &clarify.Precedent{From: o.Decision.ID, Repo: o.Decision.Repo, Decision: o.Decision.Decision, Value: o.Decision.ValueFor(*c), Comment: o.Comment}
			if key := clarify.NormalizeTopic(c.Topic); cfg.SettleAfter > 0 && clarify.SettlesUnattended(*c) && key != "" && key == clarify.NormalizeTopic(o.Decision.Topic) {
				p.Settles = now.Add(cfg.SettleAfter)
			}
			c.Precedent = p
		}
	}
	return l
}

// settleFromPrecedents resolves the clarifications whose precedent is due, after looking
// for a 👎 on each offer by someone who is not a bot: reactions fire no webhook, so the
// look is the only way to hear the objection.
func settleFromPrecedents(ctx context.Context, r Run, l clarify.Ledger, now time.Time) (clarify.Ledger, []clarify.Effect, error) {
	for i := range l.Clarifications {
		c := &l.Clarifications[i]
		if !c.Status.Open() || !c.Precedent.Pending() || now.Before(c.Precedent.Settles) {
			continue
		}
		id := c.Precedent.Comment
		if id == 0 {
			id = r.StatusID()
		}
		objected, err := thumbsDown(ctx, r.Client(), r.Ref(), id)
		if err != nil {
			return l, nil, err
		}
		if objected {
			p := *c.Precedent
			p.Objected = true
			c.Precedent = &p
		}
	}
	l, effects := clarify.SettleFromPrecedents(l, now)
	return l, effects, nil
}

// thumbsDown reports whether anyone who is not a bot reacted 👎 to a comment. It asks
// GitHub for the 👎 only (the content filter; go-github's call lacks it), and reads every
// page of them: a person's 👎 after a page of others' counts as much as the first.
// https://docs.github.com/rest/reactions/reactions#list-reactions-for-an-issue-comment
func thumbsDown(ctx context.Context, client *github.Client, ref clarify.IssueRef, comment int64) (bool, error) {
	if comment == 0 {
		return false, nil
	}
	rs, err := ghtransport.AllPages(func(page int) ([]*github.Reaction, *github.Response, error) {
		u := fmt.Sprintf("repos/%s/%s/issues/comments/%d/reactions?content=-1&per_page=100", ref.Owner, ref.Repo, comment)
		if page > 0 {
			u += "&page=" + strconv.Itoa(page)
		}
		req, err := client.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			return nil, nil, err
		}
		var list []*github.Reaction
		resp, err := client.Do(ctx, req, &list)
		return list, resp, err
	})
	if ghtransport.IsStatus(err, http.StatusNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read the reactions to comment %d: %w", comment, err)
	}
	for _, r := range rs {
		if r.GetContent() == "-1" && r.GetUser().GetType() != "Bot" {
			return true, nil
		}
	}
	return false, nil
}

// WithOffer is the body of a round that has an earlier decision to offer, else body.
func WithOffer(offers map[string]*Offer, e clarify.Effect, l clarify.Ledger, body string) string {
	o, ok := offers[e.Key]
	if !ok {
		return body
	}
	d := o.Decision
	c, ok := l.Find(e.ClarificationID)
	if !ok {
		return body
	}
	return render.RoundWithOffer(c, e.Round, e.Mention, e.Key, d)
}

// Supersede replaces a decision of the repository's memory as /clarify supersede asked:
// a 👍 on the command once done, or a refusal saying why not (no such decision, one
// already replaced, or one the repository inherited: inheritedSupersede).
func Supersede(ctx context.Context, r Run, inherits string, l clarify.Ledger, e clarify.Effect) error {
	h := r.Host()
	if refused, err := inheritedSupersede(ctx, r, inherits, l, e); refused || err != nil {
		return err
	}
	d := clarify.Decision{Issue: r.Ref().Number, Decision: e.Reason, By: e.Reply.To, At: h.Now(), CommentID: e.CommentID}
	problem, err := replaceDecision(ctx, r, e.ClarificationID, d)
	switch {
	case err != nil:
		return err
	case problem != "":
		reply := clarify.Reply{Kind: clarify.ReplyRefusal, Code: clarify.CodeUnknownID, To: e.Reply.To, Quote: e.Reply.Quote, Problem: problem,
			Try: "`/clarify supersede CLR-… <new decision>` names a decision in force, as a round's \"Decided before\" shows it."}
		_, err := r.PostOnce(ctx, render.Marker(e.Key), render.Reply(reply, l, e.Key))
		return err
	}
	return r.React(ctx, clarify.Effect{CommentID: e.CommentID, Reaction: "+1"})
}

// replaceDecision supersedes the decision of clarification id with d in the repository's
// memory, and notes the write for its read-back; it returns the problem when there is no
// such decision in force.
func replaceDecision(ctx context.Context, r Run, id string, d clarify.Decision) (string, error) {
	h := r.Host()
	// The decision to supersede may still wait for the memory's next write.
	if err := flushMemory(ctx, h, r.Client(), r.Ref()); err != nil {
		return "", err
	}
	book, unlock, err := lockedMemory(ctx, h, r.Client(), r.Ref())
	if err != nil {
		return "", err
	}
	defer unlock()
	changed, problem := book.Memory.Supersede(id, d)
	if problem != "" || !changed {
		return problem, nil
	}
	if err := writeMemory(ctx, h, r.Client(), r.Ref(), &book); err != nil {
		return "", err
	}
	r.NoteWrite(Write{At: time.Now(), Issue: book.Issue,
		Kept: func(m clarify.Memory) bool {
			return slices.ContainsFunc(m.Decisions, func(x clarify.Decision) bool { return x.Issue == d.Issue && x.CommentID == d.CommentID })
		},
		Redo: func() error {
			// Replaced by someone else meanwhile: their decision stands, as it would had
			// they come after.
			_, err := replaceDecision(ctx, r, id, d)
			return err
		}})
	return "", nil
}

// PrecedentsAndOffers settles in l what precedent settles now (its effects added), then
// finds the earlier decisions to offer the new questions the effects post: the run's
// ledger and effects, the offers, and the repository it inherits from.
func PrecedentsAndOffers(ctx context.Context, r Run, l clarify.Ledger, effects []clarify.Effect) (clarify.Ledger, []clarify.Effect, Offers, error) {
	l, settled, err := settleFromPrecedents(ctx, r, l, r.Host().Now())
	if err != nil {
		return l, effects, Offers{}, err
	}
	effects = append(effects, settled...)
	o := Offers{From: inheritedFrom(r.Ref(), r.Decisions())}
	o.ByKey, err = offersFor(ctx, r, o.From, l, effects)
	return l, effects, o, err
}

// Offers are what a run offers its new questions: by effect key, the earlier decision a
// first round offers, and the repository (owner/name) whose decisions this one inherits,
// "" for none.
type Offers struct {
	ByKey map[string]*Offer
	From  string
}

// Remember writes into l what each new question was offered, and into the repository's
// memory the decisions people made in this run, from before to l.
func Remember(ctx context.Context, r Run, o Offers, before clarify.Ledger, l *clarify.Ledger) error {
	*l = stampOffers(*l, o.ByKey, r.Decisions(), r.Host().Now())
	return rememberDecisions(ctx, r, r.Policy(), before, *l)
}
