package handlers

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/render"
)

// Reading the repository's decisions. The label names the issue; the app follows it only
// to an issue that is provably its own (appissues.go), never into someone else's. The
// decisions issue is closed but anyone can still comment there (GitHub lets an app comment
// on no locked issue, so it is left unlocked): the app's comments are found on the first
// page of the issue's comments, or, when others have filled it, through the index the
// issue's body keeps of them, so a lookup costs the same whatever others post there.

// decisionsKind names the decisions issue in its label's mark.
const decisionsKind = "decisions"

// readMemory reads the repository's decisions as the app's reader does, from the issue
// this process last found holding them (a read of its comments), or, the first time or
// once that issue is gone, through the label that names it.
func (b *Base) readMemory(ctx context.Context, client *github.Client, owner, repo string) (memoryBook, error) {
	key := owner + "/" + repo
	if n, ok := b.decisionIssues.get(key); ok {
		book, err := b.reader().readMemoryIn(ctx, client, owner, repo, n, true)
		if err != nil || book.issue != 0 {
			return book, err
		}
		b.decisionIssues.forget(key) // deleted: the label may name a new one
	}
	book, err := b.reader().readMemory(ctx, client, owner, repo)
	if err == nil && book.issue != 0 {
		b.decisionIssues.put(key, book.issue)
	}
	return book, err
}

// ReadDecisions reads a repository's decisions, for bot stats.
func (r LedgerReader) ReadDecisions(ctx context.Context, client *github.Client, owner, repo string) (clarify.Memory, error) {
	book, err := r.readMemory(ctx, client, owner, repo)
	return book.memory, err
}

// readMemory reads the repository's decisions: the label, then the issue it names.
func (r LedgerReader) readMemory(ctx context.Context, client *github.Client, owner, repo string) (memoryBook, error) {
	label, _, err := client.Issues.GetLabel(ctx, owner, repo, DecisionsLabel)
	if ghtransport.IsStatus(err, http.StatusNotFound) {
		return memoryBook{}, nil
	}
	if err != nil {
		return memoryBook{}, fmt.Errorf("read label %s of %s/%s: %w", DecisionsLabel, owner, repo, err)
	}
	m := issueNumberIn.FindStringSubmatch(label.GetDescription())
	if m == nil {
		return memoryBook{}, nil
	}
	number, _ := strconv.Atoi(m[1])
	return r.readMemoryIn(ctx, client, owner, repo, number, r.marked(owner, repo, decisionsKind, number, label.GetDescription()))
}

// readMemoryIn reads the decisions in the comments of issue number; none (issue 0) when
// that issue is gone or is not provably the app's. marked says it is known to be the
// app's (its label's mark, or this process made or read it so); otherwise the issue is
// read for the proof. A part that does not verify (edited by hand) is skipped and logged.
func (r LedgerReader) readMemoryIn(ctx context.Context, client *github.Client, owner, repo string, number int, marked bool) (memoryBook, error) {
	ref := issueRef{Owner: owner, Repo: repo, Number: number}
	first, is, found, err := readDecisionsIssue(ctx, client, ref, marked)
	if err != nil || !found {
		return memoryBook{}, err
	}
	ix, ixErr := r.Keys.Issue(owner, repo, number).DecodeDecisionsIndex(is.GetBody())
	comments, err := r.memoryComments(ctx, client, ref, first, ix, ixErr == nil)
	if err != nil {
		return memoryBook{}, err
	}
	book := r.bookOf(ctx, ref, comments)
	if !marked && !r.ownIssue(is, ixErr == nil || len(book.parts) > 0 || book.sweepIndex != nil) {
		zerolog.Ctx(ctx).Warn().Int("issue", number).Str("label", DecisionsLabel).
			Msg("The label names an issue that is not provably the app's; its decisions are not read there, and the next one is written into an issue of the app's")
		return memoryBook{}, nil
	}
	book.unmarked = !marked
	book.unindexed = is != nil && (ixErr != nil || !slices.Equal(ix.Parts, commentIDs(book.parts)) || ix.Sweep != book.sweepIndex.GetID())
	return book, nil
}

// readDecisionsIssue reads the first page of the decisions issue's comments, and the issue
// itself when it is not marked as the app's or its first page is full (its body then holds
// the index of the app's comments); found is false when the issue is gone.
func readDecisionsIssue(ctx context.Context, client *github.Client, ref issueRef, marked bool) (first []*github.IssueComment, is *github.Issue, found bool, err error) {
	first, err = listComments(ctx, client, ref, time.Time{}, 1)
	if gone(err) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	if marked && len(first) < commentsPage {
		return first, nil, true, nil
	}
	if is, _, err = client.Issues.Get(ctx, ref.Owner, ref.Repo, ref.Number); gone(err) {
		return nil, nil, false, nil
	} else if err != nil {
		return nil, nil, false, fmt.Errorf("read the decisions issue %s: %w", ref.key(), err)
	}
	return first, is, true, nil
}

// memoryComments is the comments that may hold the memory: the first page when it is not
// full; when it is (others' comments may push the app's past it), the first page with the
// comments the index names, or every comment while there is no index yet (the next write
// makes it).
func (r LedgerReader) memoryComments(ctx context.Context, client *github.Client, ref issueRef, first []*github.IssueComment, ix render.DecisionsIndex, indexed bool) ([]*github.IssueComment, error) {
	switch {
	case len(first) < commentsPage:
		return first, nil
	case indexed:
		return r.indexedComments(ctx, client, ref, first, ix)
	default:
		return listComments(ctx, client, ref, time.Time{}, 0)
	}
}

// indexedComments is first with the comments the index names that are not on it, each read
// by its id: one request for each of the app's comments past the first page, whatever
// others posted in between. One deleted is left out.
func (r LedgerReader) indexedComments(ctx context.Context, client *github.Client, ref issueRef, first []*github.IssueComment, ix render.DecisionsIndex) ([]*github.IssueComment, error) {
	out := slices.Clone(first)
	for _, id := range append(slices.Clone(ix.Parts), ix.Sweep) {
		if id == 0 || slices.ContainsFunc(out, func(c *github.IssueComment) bool { return c.GetID() == id }) {
			continue
		}
		c, _, err := client.Issues.GetComment(ctx, ref.Owner, ref.Repo, id)
		if gone(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read comment %d of the decisions issue %s: %w", id, ref.key(), err)
		}
		out = append(out, c)
	}
	sortByID(out)
	return out, nil
}

// bookOf reads the app's parts of the memory, and its sweep index, among comments.
func (r LedgerReader) bookOf(ctx context.Context, ref issueRef, comments []*github.IssueComment) memoryBook {
	book := memoryBook{issue: ref.Number}
	byPart := map[int][]clarify.Decision{}
	keys := r.Keys.Issue(ref.Owner, ref.Repo, ref.Number)
	for _, c := range r.believe(ref, comments) {
		if r.own(c) && strings.Contains(c.GetBody(), render.SweepIndexMarker) && book.sweepIndex == nil &&
			r.ownBlock(c, func(body string) bool { _, err := keys.DecodeSweepIndex(body); return err == nil }) {
			book.sweepIndex = c
		}
		if !r.own(c) || !strings.Contains(c.GetBody(), render.DecisionsMarker) {
			continue // a person's comment, or the app's answer to a command typed there
		}
		part, ds, err := r.decodeDecisions(ref, c.GetBody())
		if !r.ownBlock(c, func(string) bool { return err == nil }) {
			continue
		}
		// Every part keeps its place, so the next write puts a part that does not verify
		// (edited by hand) right rather than shifting the others onto the wrong comments.
		book.parts = append(book.parts, c)
		if err != nil {
			zerolog.Ctx(ctx).Warn().Err(err).Int64(LogKeyComment, c.GetID()).Msg("Part of the decision memory not read")
			continue
		}
		// Two comments with one part's number come from two runs that both found the
		// memory just made and empty: each holds a decision of its own, and both stand.
		byPart[part] = append(byPart[part], ds...)
	}
	seen := map[string]bool{}
	for i := range book.parts {
		for _, d := range byPart[i] {
			if !seen[d.ID] {
				seen[d.ID] = true
				book.memory.Decisions = append(book.memory.Decisions, d)
			}
		}
	}
	return book
}

// decodeDecisions reads a part of the decision memory under the issue's keys, or
// unchecked for a reader given none (bot stats, the asker's client).
func (r LedgerReader) decodeDecisions(ref issueRef, body string) (int, []clarify.Decision, error) {
	if r.Unchecked {
		return render.DecodeDecisionsUnverified(body)
	}
	return r.Keys.Issue(ref.Owner, ref.Repo, ref.Number).DecodeDecisions(body)
}

// commentIDs lists the ids of comments, in order.
func commentIDs(comments []*github.IssueComment) []int64 {
	ids := make([]int64, len(comments))
	for i, c := range comments {
		ids[i] = c.GetID()
	}
	return ids
}

// indexMemory writes into the decisions issue's body the index of the app's comments there
// (book's parts, and sweep, its sweep index's comment), closing the issue, and stamps the label with the
// issue's mark, each when the book says it lacks it or made asks for it (a comment was
// just made there).
func (b *Base) indexMemory(ctx context.Context, client *github.Client, ref issueRef, book *memoryBook, sweep *github.IssueComment, made bool) error {
	mref := issueRef{Owner: ref.Owner, Repo: ref.Repo, Number: book.issue}
	if made || book.unindexed {
		body, err := render.DecisionsIssueBody(render.DecisionsIndex{Parts: commentIDs(book.parts), Sweep: sweep.GetID()}, b.keys(mref).Signing())
		if err != nil {
			return err
		}
		// The write closes the issue too: a new one is still open, and one a person
		// reopened goes back out of the way.
		closed, reason := "closed", "not_planned"
		if _, _, err := client.Issues.Edit(ctx, ref.Owner, ref.Repo, book.issue, &github.IssueRequest{Body: &body, State: &closed, StateReason: &reason}); err != nil {
			return fmt.Errorf("write the index of the decisions issue %s: %w", mref.key(), err)
		}
		book.unindexed = false
	}
	if book.unmarked {
		if _, err := b.markLabel(ctx, client, mref, DecisionsLabel, decisionsKind, ""); err != nil {
			return err
		}
		book.unmarked = false
	}
	return nil
}
