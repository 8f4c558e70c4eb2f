package ledger

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// UncheckedNote is what a reader for people (bot ledger, bot stats) says when no key was
// given: the ledger printed may have been written by anyone.
const UncheckedNote = "MAC not checked: no ledger key given"

// PeopleReader reads ledgers for people through a person's token (bot ledger, bot
// export, bot stats): the app's Reader, with its notes written for them.
type PeopleReader struct {
	Reader
	// Slug is the app's slug, named when an issue holds no status comment of its login.
	Slug string
	// Notes takes what a person should know beside the ledger (stderr).
	Notes io.Writer
	// Hint says what to do about a refusal (ghtransport.TokenHint).
	Hint func(error) string
}

// NewPeopleReader reads as the app of that slug does, under keys; with no key given it
// reads unchecked.
func NewPeopleReader(slug string, keys render.Keyring, notes io.Writer, hint func(error) string) PeopleReader {
	return PeopleReader{Reader: Reader{Bot: BotLoginOf(slug), Keys: keys, Unchecked: !keys.Given()}, Slug: slug, Notes: notes, Hint: hint}
}

// NoteUnchecked tells the person when the ledgers are read without a key.
func (p PeopleReader) NoteUnchecked() {
	if p.Unchecked && len(p.Public) == 0 {
		fmt.Fprintln(p.Notes, UncheckedNote)
	}
}

// ReadIssue reads an issue's whole ledger as the app does: from the first status comment
// of the app's own account, with the clarifications of the archive comments it lists
// merged in. A missing archive or one that does not verify is an error, as it makes the
// app rebuild the ledger.
func (p PeopleReader) ReadIssue(ctx context.Context, client *github.Client, ref clarify.IssueRef) (clarify.Ledger, error) {
	got, err := p.Read(ctx, client, ref.Owner, ref.Repo, ref.Number)
	if got.Lookalikes > 0 {
		fmt.Fprintf(p.Notes, "ignored %s that look like a status comment but are not by %s\n", render.Counted(got.Lookalikes, "comment"), p.Bot)
	}
	switch {
	case errors.Is(err, ErrNoStatus):
		return clarify.Ledger{}, fmt.Errorf("%s has no status comment by %s: Clarify has asked nothing there yet, or the app's slug is not %q (-app, CLARIFY_APP_SLUG)",
			ref, p.Bot, p.Slug)
	case got.Status == nil && err != nil: // the comments could not be listed
		return clarify.Ledger{}, fmt.Errorf("%w%s", err, p.Hint(err))
	}
	if got.CursorFrom != 0 && err == nil {
		fmt.Fprintf(p.Notes, "the ledger's cursor, comment %d, is past the issue's newest comment: read as %d, as the app does\n", got.CursorFrom, got.Ledger.Cursor)
	}
	p.NoteUnchecked()
	return got.Ledger, err
}

// ReadFileBody reads the ledger in a status comment's body that read returns (a file's),
// for the issue written in issue (OWNER/REPO#N), or "" for none.
func (p PeopleReader) ReadFileBody(read func() ([]byte, error), issue string) (clarify.Ledger, clarify.IssueRef, error) {
	var ref clarify.IssueRef
	if issue != "" {
		var ok bool
		if ref, ok = clarify.ParseIssueRef(issue); !ok {
			return clarify.Ledger{}, ref, fmt.Errorf("-issue %q: write OWNER/REPO#N", issue)
		}
	}
	body, err := read()
	if err != nil {
		return clarify.Ledger{}, ref, err
	}
	p.NoteUnchecked()
	l, err := p.ReadBody(string(body), ref.Owner, ref.Repo, ref.Number)
	return l, ref, err
}

// Digest reads the ledgers of a repository's issues updated since a time and prints
// their digest (bot stats), each issue whose ledger cannot be read named in the notes.
func (p PeopleReader) Digest(ctx context.Context, client *github.Client, w io.Writer, owner, repo string, from time.Time) error {
	issues, err := ListUpdated(ctx, client, owner, repo, from)
	if err != nil {
		return fmt.Errorf("%w%s", err, p.Hint(err))
	}
	p.NoteUnchecked()
	failed := 0
	ledgers := p.ReadIssues(ctx, client, owner, repo, issues, func(number int, err error) {
		failed++
		fmt.Fprintf(p.Notes, "%s/%s#%d: %v%s\n", owner, repo, number, err, p.Hint(err))
	})
	title := fmt.Sprintf("%s/%s since %s", owner, repo, from.UTC().Format("2006-01-02"))
	fmt.Fprint(w, render.Stats(title, clarify.Summarize(ledgers...)))
	if mem, err := p.ReadDecisions(ctx, client, owner, repo); err != nil {
		fmt.Fprintf(p.Notes, "the decisions of %s/%s could not be read: %v\n", owner, repo, err)
	} else {
		fmt.Fprint(w, render.DecisionCounts(mem))
	}
	fmt.Fprintf(w, "\n%d issue(s) updated since then, %d with clarifications", len(issues), len(ledgers))
	if failed > 0 {
		fmt.Fprintf(w, ", %d whose ledger could not be read (see above)", failed)
	}
	fmt.Fprintln(w, ".")
	return nil
}
