package handlers

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/decisions"
	"github.com/clarify-app/clarify/handlers/labels"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// firstRunWindow is how far back a run reaches when the issue has no ledger yet: far
// enough to take in comments whose deliveries arrive out of order or were lost around the
// first ask, not so far that installing the app replays an issue's old commands.
const firstRunWindow = 15 * time.Minute

// issueRun is one run of one issue: the process it runs in, the client it runs with, the
// issue, what woke it, the repository's config, what it read of the issue (its snapshot)
// and its own state (runState). The stages of run.go are its methods.
type issueRun struct {
	// Base is the process the run belongs to: identity, mode, caches, stores.
	*Base
	client *github.Client
	// ref is the issue run: whose keys seal the app's markers in it.
	ref clarify.IssueRef
	// trig is what woke the run, as a dispatch leaves it once mirrored (dispatched).
	trig trigger
	// cfg is the repository's config, read after the snapshot (loadIssue).
	cfg RepoConfig
	snapshot
	runState
}

// snapshot is what a run read of an issue and made of it while loading (loadIssue): never
// changed after.
type snapshot struct {
	// comments are the issue's comments as listed; the run's own posts are runState's.
	comments []*github.IssueComment
	// apps maps each comment made through a GitHub App to that App (ledger/apps.go).
	apps      ledger.CommentApps
	ledger    clarify.Ledger
	hasLedger bool
	// damaged is set when the ledger is rebuilt by folding the issue again from
	// rebuildFrom, because the status comment did not verify, was deleted, or holds an
	// older ledger than one the app wrote (older says so).
	damaged     bool
	older       bool
	rebuildFrom time.Time
	// revFloor is the newest revision of the issue's ledger known to this run; the next
	// save writes above it, so that a rebuilt ledger is not itself taken for an older one.
	revFloor int64
	// archived holds the ids of the clarifications that live in archive comments.
	archived map[string]bool
	// skipTo is the newest comment this process already applied to this very ledger, with
	// no change to it, beyond its saved cursor: moving the saved cursor costs a write.
	skipTo int64
	// partial says comments holds only those since the ledger's cursor (loadRecent,
	// loadWindow).
	partial bool
	// refresh says the save moves the ledger's cursor to the newest comment applied even
	// when that alone would wait (window.go).
	refresh bool
	// readTo is the newest update among the comments read (GitHub's clock), and lastRead
	// the newest comment read: what a guarded save's read-back lists since, and how it
	// tells a comment made after the read (guard.go).
	readTo   time.Time
	lastRead int64
	// readAt is when the run began reading the issue, by its clock: its save stamps it as
	// the ledger's Read (window.go).
	readAt time.Time
}

// runState is what a run adds to what it read.
type runState struct {
	// status is the status comment: as read, then as this run saved it.
	status *github.IssueComment
	// head is the round the status comment was created with above its table, kept as
	// written on every save: as read, or the first round this run puts there.
	head string
	// posts are the comments this run posted, after comments in known.
	posts []*github.IssueComment
	// mirrors holds, by comment id, the commands that the app's mirrors of
	// repository_dispatch stand for (dispatch.go).
	mirrors map[int64]input
	// memoryWrites are this run's writes of the repository's decisions, to be read back
	// (guard.go).
	memoryWrites []decisions.Write
	// offers holds, by effect key, the earlier decision a first round offers (package decisions).
	offers map[string]*decisions.Offer
	// inherits is the repository (owner/name) whose decisions this one inherits, "" for
	// none, for a supersede to tell its decisions from the repository's own
	// (decisions/inherit.go).
	inherits string
	// folded is what the fold made of the snapshot's ledger (foldIssue): the ledger, the
	// effects, the comments applied.
	folded folded
	// plan is the labels the run decided (labelsToSave): those to take off come off last.
	plan labels.Plan
	// lookups says who the run's actors are (actors.go), asked of GitHub once a run.
	lookups *actorLookups
}

// known is every comment of the issue the run knows of: those it read, then its posts.
func (run *issueRun) known() []*github.IssueComment {
	if len(run.posts) == 0 {
		return run.comments
	}
	return append(slices.Clip(run.comments), run.posts...)
}

// applied reports whether a comment was already applied to the snapshot's ledger.
func (run *issueRun) applied(id int64) bool {
	return id <= max(run.ledger.Cursor, run.skipTo)
}

// posted reports whether one of the app's comments already carries the effect's marker.
func (run *issueRun) posted(key string) bool {
	return slices.ContainsFunc(run.known(), func(c *github.IssueComment) bool {
		if run.status != nil && c.GetID() == run.status.GetID() {
			// The status comment holds a round only in a head the ledger vouches for: a
			// rebuild writes it anew without one it cannot trust, so that round is posted.
			return render.HasMarker(run.head, key)
		}
		return run.carries(run.ref, c, render.Marker(key))
	})
}

// hasRoundComment reports whether the app ever mirrored a round in these comments: the
// sign that a missing status comment was deleted rather than never written.
func (run *issueRun) hasRoundComment() bool {
	return slices.ContainsFunc(run.known(), func(c *github.IssueComment) bool {
		return run.ownComment(run.ref, c) && render.HasMarkerPrefix(c.GetBody(), "round:")
	})
}

// load reads the issue's ledger from the app's own status comment (a look-alike in anyone
// else's comment is never read) and the comments a run needs: those newer than the
// ledger's cursor when this process remembers the issue or, in a long issue (window.go),
// when its status comment was saved lately; else all of them. A ledger whose
// revision is below floor is not trusted: it verifies, but the app has written a newer one
// since (the status comment was put back to a body from its edit history).
func (run *issueRun) load(ctx context.Context, floor int64, long bool) error {
	readAt := run.Now()
	ok, err := run.loadRecent(ctx, floor)
	if err == nil && !ok && long {
		ok, err = run.loadWindow(ctx, floor)
	}
	if err == nil && !ok {
		err = run.loadAll(ctx, floor)
	}
	if err != nil {
		return err
	}

	run.readAt = readAt
	run.refresh = long && (staleStatus(run.status, run.Now()) || !windowHolds(run.ledger))
	for _, c := range run.comments {
		if t := c.GetUpdatedAt().Time; t.After(run.readTo) {
			run.readTo = t
		}
		run.lastRead = max(run.lastRead, c.GetID())
	}
	if !run.damaged {
		run.revs.raise(run.ref.String(), run.ledger.Rev)
	}
	return nil
}

// loadAll reads every comment of the issue.
func (run *issueRun) loadAll(ctx context.Context, floor int64) error {
	apps := ledger.CommentApps{}
	comments, err := ledger.ListCommentsApps(ctx, run.client, run.ref, time.Time{}, 0, apps)
	if err != nil {
		return err
	}
	// Whatever a partial read left is read again.
	run.snapshot = snapshot{comments: comments, apps: apps, archived: map[string]bool{}, revFloor: floor}
	run.runState = runState{}

	status, extra, _ := run.reader().FindStatus(run.ref, comments)
	for _, c := range extra {
		zerolog.Ctx(ctx).Warn().Int64(LogKeyComment, c.GetID()).Msg("Second status comment found; keeping the first")
	}
	if status != nil {
		if err := run.readStatus(ctx, status); err != nil {
			return fmt.Errorf("ledger of %s in comment %d: %w", run.ref.String(), status.GetID(), err)
		}
	}
	var firstOwn *github.IssueComment
	if i := slices.IndexFunc(comments, func(c *github.IssueComment) bool { return run.ownComment(run.ref, c) }); i >= 0 {
		firstOwn = comments[i]
	}
	if !run.hasLedger {
		run.ledger = clarify.NewLedger(run.ref.Number)
	}
	if !run.hasLedger && firstOwn != nil && (run.damaged || run.hasRoundComment()) {
		// The app was at work here but its ledger is damaged or gone (the status
		// comment deleted): fold the issue again from a little before the app's first
		// comment. Every posted message carries its marker, so nothing is posted twice.
		run.rebuildFrom = firstOwn.GetCreatedAt().Time.Add(-firstRunWindow)
		run.hasLedger, run.damaged = true, true
	}
	return nil
}

// readStatus takes the ledger from the app's status comment c, with its archives; a ledger
// that does not verify marks the snapshot damaged. The only error is a ledger written by a
// newer Clarify, which is left alone rather than downgraded.
func (run *issueRun) readStatus(ctx context.Context, c *github.IssueComment) error {
	logger := zerolog.Ctx(ctx)
	run.status = c
	l, err := run.decodeLedger(run.ref, c.GetBody())
	switch {
	case errors.Is(err, render.ErrVersion):
		return err
	case err != nil:
		// Never trusted: a ledger whose MAC does not verify was edited by hand (or
		// written under another key). It is rebuilt from the comments instead.
		logger.Warn().Err(err).Int64(LogKeyComment, c.GetID()).Msg("Status comment does not verify; rebuilding the ledger from the comments")
		run.damaged = true
		return nil
	}
	if run.heldToIssue(ctx, &l, c) {
		return nil
	}
	run.ledger, run.hasLedger = l, true
	run.keepHead(c.GetBody())
	archived, err := run.readArchives()
	if err != nil {
		logger.Warn().Err(err).Msg("An archive of the ledger is missing or does not verify; rebuilding the ledger from the comments")
		run.ledger, run.hasLedger, run.damaged = clarify.Ledger{}, false, true
		return nil
	}
	run.archived = archived
	return nil
}

// loadRecent reads what a run needs of an issue this process ran before and whose status
// comment nobody has changed since: the comments since the one at the ledger's cursor
// (which hold the status comment whenever it was edited since), and, by id, the status
// comment otherwise and the ledger's archives. The cost of an event then does not grow
// with the issue's length. It returns false when the whole issue must be read: the issue
// is not remembered, or its status comment is gone, changed or damaged.
func (run *issueRun) loadRecent(ctx context.Context, floor int64) (bool, error) {
	mem, ok := run.lastRuns.get(run.ref.String())
	if !ok {
		return false, nil
	}
	rc := &recentComments{ctx: ctx, client: run.client, ref: run.ref}
	if err := rc.list(mem.cursorAt.Add(-time.Second)); err != nil { // GitHub's timestamps have whole seconds
		return false, err
	}
	status, found, err := rc.byID(mem.statusID)
	if err != nil || !found || !run.isSelf(status.User) || sha256.Sum256([]byte(status.GetBody())) != mem.statusHash {
		// Gone, or changed by someone else (another replica, or a person): read everything.
		return false, err
	}
	ok, err = run.partialSnapshot(rc, status, floor)
	if ok {
		// The comments up to mem.cursor were applied to this very ledger and changed
		// nothing in it, so they need not be applied again.
		run.skipTo = mem.cursor
	}
	return ok, err
}

// partialSnapshot takes as the run's snapshot a read of only the comments rc holds, which
// must hold every comment since the cursor of the ledger in status: false when the whole
// issue must be read (the ledger does not verify, is below floor, or an archive is missing).
func (run *issueRun) partialSnapshot(rc *recentComments, status *github.IssueComment, floor int64) (bool, error) {
	l, err := run.decodeLedger(run.ref, status.GetBody())
	if err != nil || l.Rev < floor {
		return false, nil
	}
	for _, id := range l.Archives {
		if _, found, err := rc.byID(id); err != nil || !found {
			return false, err // a missing archive: the whole read finds the ledger damaged
		}
	}
	ledger.SortByID(rc.comments)
	run.snapshot = snapshot{comments: rc.comments, apps: rc.apps, ledger: l, hasLedger: true, revFloor: floor, partial: true}
	run.runState = runState{status: status}
	run.keepHead(status.GetBody())
	if run.archived, err = run.readArchives(); err != nil {
		return false, nil
	}
	return true, nil
}

// recentComments are the comments a partial read has: those since a time, and those
// fetched by id on demand.
type recentComments struct {
	ctx      context.Context
	client   *github.Client
	ref      clarify.IssueRef
	comments []*github.IssueComment
	// apps maps each comment read that was made through a GitHub App to that App.
	apps ledger.CommentApps
}

// noted is apps, made on the first read that notes in it.
func (rc *recentComments) noted() ledger.CommentApps {
	if rc.apps == nil {
		rc.apps = ledger.CommentApps{}
	}
	return rc.apps
}

// list reads the issue's comments updated since a time.
func (rc *recentComments) list(since time.Time) error {
	comments, err := ledger.ListCommentsApps(rc.ctx, rc.client, rc.ref, since, 0, rc.noted())
	if err != nil {
		return err
	}
	rc.comments = comments
	return nil
}

// byID returns the comment of that id, read from GitHub when the list lacks it; false
// when it is gone.
func (rc *recentComments) byID(id int64) (*github.IssueComment, bool, error) {
	if i := slices.IndexFunc(rc.comments, func(c *github.IssueComment) bool { return c.GetID() == id }); i >= 0 {
		return rc.comments[i], true, nil
	}
	c, err := ledger.GetComment(rc.ctx, rc.client, rc.ref, id, rc.noted())
	if ghtransport.IsStatus(err, http.StatusNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read comment %d of %s: %w", id, rc.ref.String(), err)
	}
	rc.comments = append(rc.comments, c)
	return c, true, nil
}

// remember notes, after a run, what the next run of the issue needs to read only what is
// new: the status comment as saved, and the newest comment applied to it.
func (run *issueRun) remember(cursor int64) {
	if run.status == nil || cursor == 0 {
		run.lastRuns.forget(run.ref.String())
		return
	}
	known := run.known()
	i := slices.IndexFunc(known, func(c *github.IssueComment) bool { return c.GetID() == cursor })
	if i < 0 {
		run.lastRuns.forget(run.ref.String())
		return
	}
	run.lastRuns.put(run.ref.String(), lastRun{
		statusID:   run.status.GetID(),
		statusHash: sha256.Sum256([]byte(run.status.GetBody())),
		cursor:     cursor,
		cursorAt:   known[i].GetCreatedAt().Time,
	})
}

// lastRun is what a process remembers of an issue between runs.
type lastRun struct {
	statusID   int64
	statusHash [sha256.Size]byte
	// cursor is the newest comment applied to the ledger in the status comment, whether
	// or not the saved cursor says so (moving it would cost a write); cursorAt is when it
	// was written.
	cursor   int64
	cursorAt time.Time
}

// issueCache holds the lastRun of each issue this process ran.
type issueCache = cache[lastRun]

// revFloorOf is the newest revision of an issue's ledger this run knows of: the one this
// process last wrote or read, or the one in the status body an edit replaced (the edit's
// payload carries it, verified like any ledger), which holds after a restart too.
func (run *issueRun) revFloorOf() int64 {
	floor := run.revs.get(run.ref.String())
	for _, body := range []string{run.trig.Replaced, run.trig.Deleted.GetBody()} {
		if body == "" {
			continue
		}
		// A deleted body counts too: the rebuild it starts must save above it, or a replica
		// that saw the newer ledger would take the rebuilt one for an older one.
		if l, err := run.decodeLedger(run.ref, body); err == nil {
			floor = max(floor, l.Rev)
		}
	}
	return floor
}

// revCache remembers the newest revision of each issue's ledger this process wrote or
// read. It outlives lastRun, which is dropped whenever the status comment changes
// under the app, since that is just when it is needed.
type revCache struct{ m cache[int64] }

func (r *revCache) get(key string) int64 {
	rev, _ := r.m.get(key)
	return rev
}

func (r *revCache) raise(key string, rev int64) {
	r.m.update(key, func(old int64) int64 { return max(old, rev) })
}

// keepHead takes the head of the status comment's body when it is the one the ledger
// names.
func (run *issueRun) keepHead(body string) {
	if head := render.Head(body); render.HeadSum(head) == run.ledger.Head {
		run.head = head
	}
}

// recoverHead puts back a head edited by hand from the body the edit replaced (its
// payload carries it), which the ledger vouches for; without it the head is left out, as
// the ledger cannot vouch for what is there, and the round it held stays in the thread.
func (run *issueRun) recoverHead(ctx context.Context, replaced string) {
	if run.head != "" || run.ledger.Head == "" || run.damaged {
		return
	}
	if run.keepHead(replaced); run.head == "" {
		zerolog.Ctx(ctx).Warn().Msg("The round above the status table was edited by hand; it is left out from now on")
	}
}

// headRoom is what the head takes, or may take, of the status comment: a run before the
// status comment exists may still put a round of up to maxHead bytes above the table.
func (run *issueRun) headRoom() int {
	if run.status == nil && !run.hasLedger {
		return render.HeadRoom(maxHead)
	}
	if run.head == "" {
		return 0
	}
	return render.HeadRoom(len(run.head))
}

// lostStatus starts a rebuild when the issue has no status comment but the deletion's
// payload names the one it had: the round the status comment was created with may have
// been the app's only comment, so the app's other comments are no sign of their own. A
// deletion whose delivery was lost comes back through redelivery. A label is no such
// sign: one put on by hand on an old issue would replay commands from before the app.
func (run *issueRun) lostStatus(trig trigger) {
	if run.hasLedger || run.damaged || trig.Deleted == nil {
		return
	}
	run.rebuildFrom = trig.Deleted.GetCreatedAt().Time.Add(-firstRunWindow)
	run.hasLedger, run.damaged = true, true
}
