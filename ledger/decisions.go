package ledger

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
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

// DecisionsKind names the decisions issue in its label's mark.
const DecisionsKind = "decisions"

// ReadDecisions reads a repository's decisions, for bot stats.
func (r Reader) ReadDecisions(ctx context.Context, client *github.Client, owner, repo string) (clarify.Memory, error) {
	book, err := r.ReadMemory(ctx, client, owner, repo)
	return book.Memory, err
}

// ReadMemory reads the repository's decisions: the label, then the issue it names.
func (r Reader) ReadMemory(ctx context.Context, client *github.Client, owner, repo string) (MemoryBook, error) {
	label, _, err := client.Issues.GetLabel(ctx, owner, repo, DecisionsLabel)
	if ghtransport.IsStatus(err, http.StatusNotFound) {
		return MemoryBook{}, nil
	}
	if err != nil {
		return MemoryBook{}, fmt.Errorf("read label %s of %s/%s: %w", DecisionsLabel, owner, repo, err)
	}
	m := IssueNumberIn.FindStringSubmatch(label.GetDescription())
	if m == nil {
		return MemoryBook{}, nil
	}
	number, _ := strconv.Atoi(m[1])
	return r.ReadMemoryIn(ctx, client, owner, repo, number, r.Marked(owner, repo, DecisionsKind, number, label.GetDescription()))
}

// ReadMemoryIn reads the decisions in the comments of issue number; none (issue 0) when
// that issue is gone or is not provably the app's. marked says it is known to be the
// app's (its label's mark, or this process made or read it so); otherwise the issue is
// read for the proof. A part that does not verify (edited by hand) is skipped and logged.
func (r Reader) ReadMemoryIn(ctx context.Context, client *github.Client, owner, repo string, number int, marked bool) (MemoryBook, error) {
	ref := clarify.IssueRef{Owner: owner, Repo: repo, Number: number}
	first, is, found, err := readDecisionsIssue(ctx, client, ref, marked)
	if err != nil || !found {
		return MemoryBook{}, err
	}
	ix, ixErr := r.Keys.Issue(owner, repo, number).DecodeDecisionsIndex(is.GetBody())
	comments, err := r.memoryComments(ctx, client, ref, first, ix, ixErr == nil)
	if err != nil {
		return MemoryBook{}, err
	}
	book := r.bookOf(ctx, ref, comments)
	if !marked && !r.OwnIssue(is, ixErr == nil || len(book.Parts) > 0 || book.SweepIndex != nil) {
		zerolog.Ctx(ctx).Warn().Int("issue", number).Str("label", DecisionsLabel).
			Msg("The label names an issue that is not provably the app's; its decisions are not read there, and the next one is written into an issue of the app's")
		return MemoryBook{}, nil
	}
	book.Unmarked = !marked
	book.Unindexed = is != nil && (ixErr != nil || !slices.Equal(ix.Parts, CommentIDs(book.Parts)) || ix.Sweep != book.SweepIndex.GetID())
	return book, nil
}

// readDecisionsIssue reads the first page of the decisions issue's comments, and the issue
// itself when it is not marked as the app's or its first page is full (its body then holds
// the index of the app's comments); found is false when the issue is gone.
func readDecisionsIssue(ctx context.Context, client *github.Client, ref clarify.IssueRef, marked bool) (first []*github.IssueComment, is *github.Issue, found bool, err error) {
	first, err = ListCommentsSince(ctx, client, ref, time.Time{}, 1)
	if Gone(err) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	if marked && len(first) < CommentsPage {
		return first, nil, true, nil
	}
	if is, _, err = client.Issues.Get(ctx, ref.Owner, ref.Repo, ref.Number); Gone(err) {
		return nil, nil, false, nil
	} else if err != nil {
		return nil, nil, false, fmt.Errorf("read the decisions issue %s: %w", ref.String(), err)
	}
	return first, is, true, nil
}

// memoryComments is the comments that may hold the memory: the first page when it is not
// full; when it is (others' comments may push the app's past it), the first page with the
// comments the index names, or every comment while there is no index yet (the next write
// makes it).
func (r Reader) memoryComments(ctx context.Context, client *github.Client, ref clarify.IssueRef, first []*github.IssueComment, ix render.DecisionsIndex, indexed bool) ([]*github.IssueComment, error) {
	switch {
	case len(first) < CommentsPage:
		return first, nil
	case indexed:
		return r.indexedComments(ctx, client, ref, first, ix)
	default:
		return ListCommentsSince(ctx, client, ref, time.Time{}, 0)
	}
}

// indexedComments is first with the comments the index names that are not on it, each read
// by its id: one request for each of the app's comments past the first page, whatever
// others posted in between. One deleted is left out.
func (r Reader) indexedComments(ctx context.Context, client *github.Client, ref clarify.IssueRef, first []*github.IssueComment, ix render.DecisionsIndex) ([]*github.IssueComment, error) {
	out := slices.Clone(first)
	for _, id := range append(slices.Clone(ix.Parts), ix.Sweep) {
		if id == 0 || slices.ContainsFunc(out, func(c *github.IssueComment) bool { return c.GetID() == id }) {
			continue
		}
		c, _, err := client.Issues.GetComment(ctx, ref.Owner, ref.Repo, id)
		if Gone(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read comment %d of the decisions issue %s: %w", id, ref.String(), err)
		}
		out = append(out, c)
	}
	SortByID(out)
	return out, nil
}

// bookOf reads the app's parts of the memory, and its sweep index, among comments.
func (r Reader) bookOf(ctx context.Context, ref clarify.IssueRef, comments []*github.IssueComment) MemoryBook {
	book := MemoryBook{Issue: ref.Number}
	byPart := map[int][]clarify.Decision{}
	keys := r.Keys.Issue(ref.Owner, ref.Repo, ref.Number)
	for _, c := range r.believe(ref, comments) {
		if r.Own(c) && strings.Contains(c.GetBody(), render.SweepIndexMarker) && book.SweepIndex == nil &&
			r.OwnBlock(c, func(body string) bool { _, err := keys.DecodeSweepIndex(body); return err == nil }) {
			book.SweepIndex = c
		}
		if !r.Own(c) || !strings.Contains(c.GetBody(), render.DecisionsMarker) {
			continue // a person's comment, or the app's answer to a command typed there
		}
		part, ds, err := r.decodeDecisions(ref, c.GetBody())
		if !r.OwnBlock(c, func(string) bool { return err == nil }) {
			continue
		}
		// Every part keeps its place, so the next write puts a part that does not verify
		// (edited by hand) right rather than shifting the others onto the wrong comments.
		book.Parts = append(book.Parts, c)
		if err != nil {
			zerolog.Ctx(ctx).Warn().Err(err).Int64(LogKeyComment, c.GetID()).Msg("Part of the decision memory not read")
			continue
		}
		// Two comments with one part's number come from two runs that both found the
		// memory just made and empty: each holds a decision of its own, and both stand.
		byPart[part] = append(byPart[part], ds...)
	}
	// A decision is told by its id and where it was made, not its id alone: a supersede
	// keeps the id of the decision it replaces (clarify.Memory.Supersede), and both stay.
	type made struct {
		id      string
		issue   int
		comment int64
	}
	seen := map[made]bool{}
	for i := range book.Parts {
		for _, d := range byPart[i] {
			if k := (made{d.ID, d.Issue, d.CommentID}); !seen[k] {
				seen[k] = true
				book.Memory.Decisions = append(book.Memory.Decisions, d)
			}
		}
	}
	return book
}

// decodeDecisions reads a part of the decision memory under the issue's keys, or
// unchecked for a reader given none (bot stats, the asker's client).
func (r Reader) decodeDecisions(ref clarify.IssueRef, body string) (int, []clarify.Decision, error) {
	if r.Unchecked {
		return render.DecodeDecisionsUnverified(body)
	}
	return r.Keys.Issue(ref.Owner, ref.Repo, ref.Number).DecodeDecisions(body)
}

// CommentIDs lists the ids of comments, in order.
func CommentIDs(comments []*github.IssueComment) []int64 {
	ids := make([]int64, len(comments))
	for i, c := range comments {
		ids[i] = c.GetID()
	}
	return ids
}

// DecisionsLabel is the label whose description names the issue holding the repository's
// decisions.
const DecisionsLabel = "clarify:decisions"

// IssueNumberIn finds the issue number a label's description stores: "… issue #N".
var IssueNumberIn = regexp.MustCompile(`issue #([0-9]+)`)

// MemoryBook is a repository's decisions as read, with the comments that hold them.
type MemoryBook struct {
	Issue  int // 0: the repository has no decisions issue yet
	Parts  []*github.IssueComment
	Memory clarify.Memory
	// SweepIndex is the app's comment there that holds bot action's sweep index
	// (handlers/sweepindex.go), nil when there is none.
	SweepIndex *github.IssueComment
	// Unmarked says the label names the issue without its mark, and Unindexed that the
	// issue's body lacks the index of these comments (an issue made before either, or
	// edited by hand): the next write puts them there (handlers/decisions_read.go).
	Unmarked, Unindexed bool
}

// Gone reports whether GitHub says an issue is not there (any more) for the installation.
func Gone(err error) bool {
	var resp *github.ErrorResponse
	if !errors.As(err, &resp) || resp.Response == nil {
		return false
	}
	return resp.Response.StatusCode == http.StatusNotFound || resp.Response.StatusCode == http.StatusGone
}
