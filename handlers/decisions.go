package handlers

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
)

// A repository's decisions live in comments of one issue of the app's, closed so that it
// stays out of the way; the label DecisionsLabel stores that issue's number in its
// description. A lookup is then one read of the label and one page of the issue's
// comments (clarify.MaxRemembered keeps the memory to a few comments), whatever the
// repository's history, and never a search: GitHub's search API allows 30 requests a
// minute and lags minutes behind.

// decisionsTitle is the title of the issue the app creates for the decisions.
const decisionsTitle = "Clarify: decisions of this repository"

// decisionsTTL is how long an offer trusts the decisions this process last read or wrote:
// an offer is advice, so a decision another process made a minute ago may wait for the
// next read, and a burst of asks in one repository reads the memory once.
const decisionsTTL = time.Minute

// offerMemory is the repository's decisions for an offer: as this process read or wrote
// them less than decisionsTTL ago, else read once for every run that asks at that moment.
func (b *Base) offerMemory(ctx context.Context, client *github.Client, owner, repo string) (ledger.MemoryBook, error) {
	book, _, err := b.decisionBooks.load(owner+"/"+repo, func() (ledger.MemoryBook, bool, error) {
		book, err := b.readMemory(ctx, client, owner, repo)
		return book, err == nil, err
	})
	return b.withPending(ctx, client, book, err == nil, owner, repo), err
}

// lockedMemory reads the repository's decisions under its lock, for a change: one
// process's runs of different issues take turns, so neither loses the other's decision.
func (b *Base) lockedMemory(ctx context.Context, client *github.Client, ref clarify.IssueRef) (ledger.MemoryBook, func(), error) {
	unlock, err := b.Locks.Lock(ctx, "decisions:"+ref.Owner+"/"+ref.Repo)
	if err != nil {
		return ledger.MemoryBook{}, nil, fmt.Errorf("wait for the decisions of %s/%s: %w", ref.Owner, ref.Repo, err)
	}
	book, err := b.readMemory(ctx, client, ref.Owner, ref.Repo)
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
func (run *issueRun) rememberDecisions(ctx context.Context, p clarify.Policy, before, after clarify.Ledger) error {
	lookups := run.lookups
	if lookups == nil {
		lookups = newActorLookups(run.client, run.ref, &run.caches, run.BotLogin())
	}
	ds, err := clarify.SettledByPeople(before, after, p, func(login string) (clarify.Actor, error) {
		return lookups.now(ctx, login)
	})
	if err != nil || len(ds) == 0 {
		return err
	}
	return run.noteDecisions(ctx, ds)
}

// recordDecisions records ds in the repository's memory and notes the write for its
// read-back (checkMemoryWrites).
func (b *Base) recordDecisions(ctx context.Context, client *github.Client, ref clarify.IssueRef, snap *issueRun, ds []clarify.Decision) error {
	book, unlock, err := b.lockedMemory(ctx, client, ref)
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
	if err := b.writeMemory(ctx, client, ref, &book); err != nil {
		return err
	}
	if made {
		// No other run's write can drop what this one wrote into the memory it just made:
		// another could only have read it before its first part was there, and then made
		// a part of its own beside this one (bookOf reads both), not edited this one.
		return nil
	}
	snap.memoryWrites = append(snap.memoryWrites, memoryWrite{at: time.Now(), issue: book.Issue,
		kept: func(m clarify.Memory) bool {
			for _, d := range ds {
				if !slices.ContainsFunc(m.Decisions, func(x clarify.Decision) bool { return x.ID == d.ID }) {
					return false
				}
			}
			return true
		},
		redo: func() error { return b.recordDecisions(ctx, client, ref, snap, ds) }})
	return nil
}

// writeMemory writes the parts that changed, creating the decisions issue the first time
// (book then names it), and keeps the issue's index of its parts and its label's mark.
func (b *Base) writeMemory(ctx context.Context, client *github.Client, ref clarify.IssueRef, book *ledger.MemoryBook) error {
	if book.Issue == 0 {
		n, err := b.createMemoryIssue(ctx, client, ref)
		if err != nil {
			return err
		}
		*book = ledger.MemoryBook{Issue: n, Memory: book.Memory}
		b.decisionIssues.put(ref.Owner+"/"+ref.Repo, n)
	}
	// What is offered next is what this write leaves, whether or not every part lands:
	// the decisions recorded here are in force either way once the write is retried.
	defer func() { b.decisionBooks.put(ref.Owner+"/"+ref.Repo, *book) }()
	made, err := b.writeParts(ctx, client, ref, book)
	if err != nil {
		return err
	}
	return b.indexMemory(ctx, client, ref, book, book.SweepIndex, made)
}

// writeParts edits the parts of the memory that changed and makes those it lacks, and
// reports whether it made any.
func (b *Base) writeParts(ctx context.Context, client *github.Client, ref clarify.IssueRef, book *ledger.MemoryBook) (bool, error) {
	mref := clarify.IssueRef{Owner: ref.Owner, Repo: ref.Repo, Number: book.Issue}
	bodies, err := render.EncodeDecisions(book.Memory, b.keys(mref).Signing())
	if err != nil {
		return false, err
	}
	for len(bodies) < len(book.Parts) {
		// A memory that shrank leaves its last parts empty rather than deleting them.
		empty, err := render.EncodeDecisionsPart(len(bodies), nil, b.keys(mref).Signing())
		if err != nil {
			return false, err
		}
		bodies = append(bodies, empty)
	}
	made := false
	for i, body := range bodies {
		body = b.signed(mref, body)
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

// createMemoryIssue opens the issue that holds the decisions and stores its number and
// mark in the label's description. Its first index write (indexMemory, right after its
// first comment is made) signs its body and closes it (it is the app's memory, not work
// for anyone): GitHub makes every issue open, and closing it in that write rather than
// now saves a request in a repository's first decision.
func (b *Base) createMemoryIssue(ctx context.Context, client *github.Client, ref clarify.IssueRef) (int, error) {
	title, text := decisionsTitle, render.DecisionsIssueText()
	is, _, err := client.Issues.Create(ctx, ref.Owner, ref.Repo, &github.IssueRequest{Title: &title, Body: &text})
	if err != nil {
		return 0, fmt.Errorf("create the decisions issue of %s/%s: %w", ref.Owner, ref.Repo, err)
	}
	n := is.GetNumber()
	mref := clarify.IssueRef{Owner: ref.Owner, Repo: ref.Repo, Number: n}
	desc := b.appIssues.Label(mref, ledger.DecisionsKind)
	stands, err := appissues.ClaimLabel(ctx, client, ref.Owner, ref.Repo, ledger.DecisionsLabel, desc, n, func(other int, desc string) (bool, error) {
		book, err := b.reader().ReadMemoryIn(ctx, client, ref.Owner, ref.Repo, other, b.reader().Marked(ref.Owner, ref.Repo, ledger.DecisionsKind, other, desc))
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
func (run *issueRun) offersFor(ctx context.Context, l clarify.Ledger, effects []clarify.Effect) (map[string]*offer, error) {
	if !run.cfg.Decisions.Offer {
		return nil, nil
	}
	var asks []clarify.Effect
	for _, e := range effects {
		if e.Kind == clarify.EffectPostRound && e.Round == 1 && !run.posted(e.Key) {
			asks = append(asks, e)
		}
	}
	if len(asks) == 0 {
		return nil, nil
	}
	book, err := run.offerMemory(ctx, run.client, run.ref.Owner, run.ref.Repo)
	if err != nil {
		// Advice is best effort: a question is never held up because the memory could
		// not be read; it is asked without an offer.
		zerolog.Ctx(ctx).Warn().Err(err).Msg("Decisions not read: the new question goes without an offer")
		return nil, nil
	}
	from, inherited := run.inheritedMemory(ctx)
	out := map[string]*offer{}
	for _, e := range asks {
		c, ok := l.Find(e.ClarificationID)
		if !ok {
			continue
		}
		if d, ok := clarify.OfferAcross(book.Memory, inherited, from, c.Topic, clarify.FirstQuestion(c)); ok {
			out[e.Key] = &offer{decision: d, id: c.ID}
		}
	}
	return out, nil
}

// offer is an earlier decision offered to a new question, and the comment that offers it
// once posted (0 while not, or when it went into the status comment).
type offer struct {
	decision clarify.Decision
	id       string
	comment  int64
}

// stampOffers records in the ledger which decision each new question was offered and,
// with decisions.settle_after and the very same topic, when it settles the question.
// Only an exact topic settles anything: a near-identical question is advice alone, and so
// is any offer to a question that needs several people (clarify.SettlesUnattended).
func stampOffers(l clarify.Ledger, snap *issueRun, cfg RepoConfig, now time.Time) clarify.Ledger {
	for _, o := range snap.offers {
		for i := range l.Clarifications {
			c := &l.Clarifications[i]
			if c.ID != o.id || c.Precedent != nil {
				continue
			}
			// An inherited decision gets the very same window for objection as one of the
			// repository's own: where it was made changes nothing of who may object here.
			p := &clarify.Precedent{From: o.decision.ID, Repo: o.decision.Repo, Decision: o.decision.Decision, Value: o.decision.ValueFor(*c), Comment: o.comment}
			if key := clarify.NormalizeTopic(c.Topic); cfg.Decisions.SettleAfter > 0 && clarify.SettlesUnattended(*c) && key != "" && key == clarify.NormalizeTopic(o.decision.Topic) {
				p.Settles = now.Add(cfg.Decisions.SettleAfter)
			}
			c.Precedent = p
		}
	}
	return l
}

// settleFromPrecedents resolves the clarifications whose precedent is due, after looking
// for a 👎 on each offer by someone who is not a bot: reactions fire no webhook, so the
// look is the only way to hear the objection.
func (run *issueRun) settleFromPrecedents(ctx context.Context, l clarify.Ledger, now time.Time) (clarify.Ledger, []clarify.Effect, error) {
	for i := range l.Clarifications {
		c := &l.Clarifications[i]
		if !c.Status.Open() || !c.Precedent.Pending() || now.Before(c.Precedent.Settles) {
			continue
		}
		id := c.Precedent.Comment
		if id == 0 && run.status != nil {
			id = run.status.GetID()
		}
		objected, err := thumbsDown(ctx, run.client, run.ref, id)
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

// withOffer is the body of a round that has an earlier decision to offer, else body.
func (run *issueRun) withOffer(e clarify.Effect, l clarify.Ledger, body string) string {
	o, ok := run.offers[e.Key]
	if !ok {
		return body
	}
	d := o.decision
	c, ok := l.Find(e.ClarificationID)
	if !ok {
		return body
	}
	return render.RoundWithOffer(c, e.Round, e.Mention, e.Key, d)
}

// supersede replaces a decision of the repository's memory as /clarify supersede asked:
// a 👍 on the command once done, or a refusal saying why not (no such decision, one
// already replaced, or one the repository inherited: inheritedSupersede).
func (run *issueRun) supersede(ctx context.Context, l clarify.Ledger, e clarify.Effect) error {
	if refused, err := run.inheritedSupersede(ctx, l, e); refused || err != nil {
		return err
	}
	d := clarify.Decision{Issue: run.ref.Number, Decision: e.Reason, By: e.Reply.To, At: run.Now(), CommentID: e.CommentID}
	problem, err := run.replaceDecision(ctx, e.ClarificationID, d)
	switch {
	case err != nil:
		return err
	case problem != "":
		r := clarify.Reply{Kind: clarify.ReplyRefusal, Code: clarify.CodeUnknownID, To: e.Reply.To, Quote: e.Reply.Quote, Problem: problem,
			Try: "`/clarify supersede CLR-… <new decision>` names a decision in force, as a round's \"Decided before\" shows it."}
		_, err := run.postOnce(ctx, render.Marker(e.Key), render.Reply(r, l, e.Key))
		return err
	}
	return react(ctx, run.client, run.ref, clarify.Effect{CommentID: e.CommentID, Reaction: "+1"})
}

// replaceDecision supersedes the decision of clarification id with d in the repository's
// memory, and notes the write for its read-back; it returns the problem when there is no
// such decision in force.
func (run *issueRun) replaceDecision(ctx context.Context, id string, d clarify.Decision) (string, error) {
	// The decision to supersede may still wait for the memory's next write.
	if err := run.flushMemory(ctx, run.client, run.ref); err != nil {
		return "", err
	}
	book, unlock, err := run.lockedMemory(ctx, run.client, run.ref)
	if err != nil {
		return "", err
	}
	defer unlock()
	changed, problem := book.Memory.Supersede(id, d)
	if problem != "" || !changed {
		return problem, nil
	}
	if err := run.writeMemory(ctx, run.client, run.ref, &book); err != nil {
		return "", err
	}
	run.memoryWrites = append(run.memoryWrites, memoryWrite{at: time.Now(), issue: book.Issue,
		kept: func(m clarify.Memory) bool {
			return slices.ContainsFunc(m.Decisions, func(x clarify.Decision) bool { return x.Issue == d.Issue && x.CommentID == d.CommentID })
		},
		redo: func() error {
			// Replaced by someone else meanwhile: their decision stands, as it would had
			// they come after.
			_, err := run.replaceDecision(ctx, id, d)
			return err
		}})
	return "", nil
}

// precedentsAndOffers settles what precedent settles now, then finds the earlier decisions
// to offer the new questions the effects post.
func (run *issueRun) precedentsAndOffers(ctx context.Context) error {
	f := &run.folded
	l, settled, err := run.settleFromPrecedents(ctx, f.ledger, run.Now())
	if err != nil {
		return err
	}
	f.ledger, f.effects = l, append(f.effects, settled...)
	run.inherits = inheritedFrom(run.ref, run.cfg)
	run.offers, err = run.offersFor(ctx, f.ledger, f.effects)
	return err
}

// rememberOffersAndDecisions writes into the ledger what each new question was offered,
// and into the repository's memory the decisions people made in this run.
func (run *issueRun) rememberOffersAndDecisions(ctx context.Context) error {
	l := &run.folded.ledger
	*l = stampOffers(*l, run, run.cfg, run.Now())
	return run.rememberDecisions(ctx, run.cfg.Policy, run.ledger, *l)
}
