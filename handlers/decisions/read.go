package decisions

import (
	"context"
	"fmt"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// Read reads the repository's decisions as the app's reader does, from the issue
// this process last found holding them (a read of its comments), or, the first time or
// once that issue is gone, through the label that names it.
func Read(ctx context.Context, h Host, client *github.Client, owner, repo string) (ledger.MemoryBook, error) {
	key := owner + "/" + repo
	if n, ok := h.Caches().Issue(key); ok {
		book, err := h.Reader().ReadMemoryIn(ctx, client, owner, repo, n, true)
		if err != nil || book.Issue != 0 {
			return book, err
		}
		h.Caches().ForgetIssue(key) // deleted: the label may name a new one
	}
	book, err := h.Reader().ReadMemory(ctx, client, owner, repo)
	if err == nil && book.Issue != 0 {
		h.Caches().SetIssue(key, book.Issue)
	}
	return book, err
}

// WriteIndex writes into the decisions issue's body the index of the app's comments there
// (book's parts, and sweep, its sweep index's comment), closing the issue, and stamps the label with the
// issue's mark, each when the book says it lacks it or made asks for it (a comment was
// just made there).
func WriteIndex(ctx context.Context, h Host, client *github.Client, ref clarify.IssueRef, book *ledger.MemoryBook, sweep *github.IssueComment, made bool) error {
	mref := clarify.IssueRef{Owner: ref.Owner, Repo: ref.Repo, Number: book.Issue}
	if made || book.Unindexed {
		body, err := render.DecisionsIssueBody(render.DecisionsIndex{Parts: ledger.CommentIDs(book.Parts), Sweep: sweep.GetID()}, keysOf(h, mref).Signing())
		if err != nil {
			return err
		}
		// The write closes the issue too: a new one is still open, and one a person
		// reopened goes back out of the way.
		closed, reason := "closed", "not_planned"
		if _, _, err := client.Issues.Edit(ctx, ref.Owner, ref.Repo, book.Issue, &github.IssueRequest{Body: &body, State: &closed, StateReason: &reason}); err != nil {
			return fmt.Errorf("write the index of the decisions issue %s: %w", mref.String(), err)
		}
		book.Unindexed = false
	}
	if book.Unmarked {
		if _, err := h.AppIssues().MarkLabel(ctx, client, mref, ledger.DecisionsLabel, ledger.DecisionsKind, ""); err != nil {
			return err
		}
		book.Unmarked = false
	}
	return nil
}
