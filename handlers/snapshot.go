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
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// firstRunWindow is how far back a run reaches when the issue has no ledger yet: far
// enough to take in comments whose deliveries arrive out of order or were lost around the
// first ask, not so far that installing the app replays an issue's old commands.
const firstRunWindow = 15 * time.Minute

// issueRun is one run of an issue: what it read of the issue (its snapshot) and its own
// state (runState).
type issueRun struct {
	snapshot
	runState
}

// snapshot is what a run read of an issue and made of it while loading (loadIssue): never
// changed after.
type snapshot struct {
	// ref is the issue read: whose keys seal the app's markers in it.
	ref clarify.IssueRef
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
	memoryWrites []memoryWrite
	// offers holds, by effect key, the earlier decision a first round offers (decisions.go).
	offers map[string]*offer
	// inherits is the repository (owner/name) whose decisions this one inherits, "" for
	// none, for a supersede to tell its decisions from the repository's own
	// (decisions_inherit.go).
	inherits string
	// lookups says who the run's actors are (actors.go), asked of GitHub once a run.
	lookups *actorLookups
}

// known is every comment of the issue the run knows of: those it read, then its posts.
func (s *issueRun) known() []*github.IssueComment {
	if len(s.posts) == 0 {
		return s.comments
	}
	return append(slices.Clip(s.comments), s.posts...)
}

// applied reports whether a comment was already applied to the snapshot's ledger.
func (s *issueRun) applied(id int64) bool {
	return id <= max(s.ledger.Cursor, s.skipTo)
}

// posted reports whether one of the app's comments already carries the effect's marker.
func (s *issueRun) posted(b *Base, ref clarify.IssueRef, key string) bool {
	return slices.ContainsFunc(s.known(), func(c *github.IssueComment) bool {
		if s.status != nil && c.GetID() == s.status.GetID() {
			// The status comment holds a round only in a head the ledger vouches for: a
			// rebuild writes it anew without one it cannot trust, so that round is posted.
			return render.HasMarker(s.head, key)
		}
		return b.carries(ref, c, render.Marker(key))
	})
}

// hasRoundComment reports whether the app ever mirrored a round in these comments: the
// sign that a missing status comment was deleted rather than never written.
func (s *issueRun) hasRoundComment(b *Base, ref clarify.IssueRef) bool {
	return slices.ContainsFunc(s.known(), func(c *github.IssueComment) bool {
		return b.ownComment(ref, c) && render.HasMarkerPrefix(c.GetBody(), "round:")
	})
}

// load reads the issue's ledger from the app's own status comment (a look-alike in anyone
// else's comment is never read) and the comments a run needs: those newer than the
// ledger's cursor when this process remembers the issue or, in a long issue (window.go),
// when its status comment was saved lately; else all of them. A ledger whose
// revision is below floor is not trusted: it verifies, but the app has written a newer one
// since (the status comment was put back to a body from its edit history).
func (b *Base) load(ctx context.Context, client *github.Client, ref clarify.IssueRef, floor int64, long bool) (*issueRun, error) {
	readAt := b.Now()
	snap, ok, err := b.loadRecent(ctx, client, ref, floor)
	if err == nil && !ok && long {
		snap, ok, err = b.loadWindow(ctx, client, ref, floor)
	}
	if err == nil && !ok {
		snap, err = b.loadAll(ctx, client, ref, floor)
	}
	if err != nil {
		return nil, err
	}
	snap.ref, snap.readAt = ref, readAt
	snap.refresh = long && (staleStatus(snap.status, b.Now()) || !windowHolds(snap.ledger))
	for _, c := range snap.comments {
		if t := c.GetUpdatedAt().Time; t.After(snap.readTo) {
			snap.readTo = t
		}
		snap.lastRead = max(snap.lastRead, c.GetID())
	}
	if !snap.damaged {
		b.revs.raise(ref.String(), snap.ledger.Rev)
	}
	return snap, nil
}

// loadAll reads every comment of the issue.
func (b *Base) loadAll(ctx context.Context, client *github.Client, ref clarify.IssueRef, floor int64) (*issueRun, error) {
	apps := ledger.CommentApps{}
	comments, err := ledger.ListCommentsApps(ctx, client, ref, time.Time{}, 0, apps)
	if err != nil {
		return nil, err
	}
	snap := &issueRun{snapshot: snapshot{comments: comments, apps: apps, archived: map[string]bool{}, revFloor: floor}}
	status, extra, _ := b.reader().FindStatus(ref, comments)
	for _, c := range extra {
		zerolog.Ctx(ctx).Warn().Int64(LogKeyComment, c.GetID()).Msg("Second status comment found; keeping the first")
	}
	if status != nil {
		if err := b.readStatus(ctx, ref, snap, status); err != nil {
			return nil, fmt.Errorf("ledger of %s in comment %d: %w", ref.String(), status.GetID(), err)
		}
	}
	var firstOwn *github.IssueComment
	if i := slices.IndexFunc(comments, func(c *github.IssueComment) bool { return b.ownComment(ref, c) }); i >= 0 {
		firstOwn = comments[i]
	}
	if !snap.hasLedger {
		snap.ledger = clarify.NewLedger(ref.Number)
	}
	if !snap.hasLedger && firstOwn != nil && (snap.damaged || snap.hasRoundComment(b, ref)) {
		// The app was at work here but its ledger is damaged or gone (the status
		// comment deleted): fold the issue again from a little before the app's first
		// comment. Every posted message carries its marker, so nothing is posted twice.
		snap.rebuildFrom = firstOwn.GetCreatedAt().Time.Add(-firstRunWindow)
		snap.hasLedger, snap.damaged = true, true
	}
	return snap, nil
}

// readStatus takes the ledger from the app's status comment c, with its archives; a ledger
// that does not verify marks the snapshot damaged. The only error is a ledger written by a
// newer Clarify, which is left alone rather than downgraded.
func (b *Base) readStatus(ctx context.Context, ref clarify.IssueRef, snap *issueRun, c *github.IssueComment) error {
	logger := zerolog.Ctx(ctx)
	snap.status = c
	l, err := b.decodeLedger(ref, c.GetBody())
	switch {
	case errors.Is(err, render.ErrVersion):
		return err
	case err != nil:
		// Never trusted: a ledger whose MAC does not verify was edited by hand (or
		// written under another key). It is rebuilt from the comments instead.
		logger.Warn().Err(err).Int64(LogKeyComment, c.GetID()).Msg("Status comment does not verify; rebuilding the ledger from the comments")
		snap.damaged = true
		return nil
	}
	if b.heldToIssue(ctx, ref, snap, &l, c) {
		return nil
	}
	snap.ledger, snap.hasLedger = l, true
	snap.keepHead(c.GetBody())
	archived, err := b.readArchives(ref, snap)
	if err != nil {
		logger.Warn().Err(err).Msg("An archive of the ledger is missing or does not verify; rebuilding the ledger from the comments")
		snap.ledger, snap.hasLedger, snap.damaged = clarify.Ledger{}, false, true
		return nil
	}
	snap.archived = archived
	return nil
}

// loadRecent reads what a run needs of an issue this process ran before and whose status
// comment nobody has changed since: the comments since the one at the ledger's cursor
// (which hold the status comment whenever it was edited since), and, by id, the status
// comment otherwise and the ledger's archives. The cost of an event then does not grow
// with the issue's length. It returns false when the whole issue must be read: the issue
// is not remembered, or its status comment is gone, changed or damaged.
func (b *Base) loadRecent(ctx context.Context, client *github.Client, ref clarify.IssueRef, floor int64) (*issueRun, bool, error) {
	mem, ok := b.lastRuns.get(ref.String())
	if !ok {
		return nil, false, nil
	}
	rc := &recentComments{ctx: ctx, client: client, ref: ref}
	if err := rc.list(mem.cursorAt.Add(-time.Second)); err != nil { // GitHub's timestamps have whole seconds
		return nil, false, err
	}
	status, found, err := rc.byID(mem.statusID)
	if err != nil || !found || !b.isSelf(status.User) || sha256.Sum256([]byte(status.GetBody())) != mem.statusHash {
		// Gone, or changed by someone else (another replica, or a person): read everything.
		return nil, false, err
	}
	snap, ok, err := b.partialSnapshot(ref, rc, status, floor)
	if ok {
		// The comments up to mem.cursor were applied to this very ledger and changed
		// nothing in it, so they need not be applied again.
		snap.skipTo = mem.cursor
	}
	return snap, ok, err
}

// partialSnapshot is the snapshot of a read of only the comments rc holds, which must hold
// every comment since the cursor of the ledger in status: false when the whole issue must
// be read (the ledger does not verify, is below floor, or an archive is missing).
func (b *Base) partialSnapshot(ref clarify.IssueRef, rc *recentComments, status *github.IssueComment, floor int64) (*issueRun, bool, error) {
	l, err := b.decodeLedger(ref, status.GetBody())
	if err != nil || l.Rev < floor {
		return nil, false, nil
	}
	for _, id := range l.Archives {
		if _, found, err := rc.byID(id); err != nil || !found {
			return nil, false, err // a missing archive: the whole read finds the ledger damaged
		}
	}
	ledger.SortByID(rc.comments)
	snap := &issueRun{snapshot: snapshot{comments: rc.comments, apps: rc.apps, ledger: l, hasLedger: true, revFloor: floor, partial: true},
		runState: runState{status: status}}
	snap.keepHead(status.GetBody())
	if snap.archived, err = b.readArchives(ref, snap); err != nil {
		return nil, false, nil
	}
	return snap, true, nil
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
func (b *Base) remember(ref clarify.IssueRef, snap *issueRun, cursor int64) {
	if snap.status == nil || cursor == 0 {
		b.lastRuns.forget(ref.String())
		return
	}
	known := snap.known()
	i := slices.IndexFunc(known, func(c *github.IssueComment) bool { return c.GetID() == cursor })
	if i < 0 {
		b.lastRuns.forget(ref.String())
		return
	}
	b.lastRuns.put(ref.String(), lastRun{
		statusID:   snap.status.GetID(),
		statusHash: sha256.Sum256([]byte(snap.status.GetBody())),
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

// revFloor is the newest revision of an issue's ledger this run knows of: the one this
// process last wrote or read, or the one in the status body an edit replaced (the edit's
// payload carries it, verified like any ledger), which holds after a restart too.
func (b *Base) revFloor(ref clarify.IssueRef, trig trigger) int64 {
	floor := b.revs.get(ref.String())
	for _, body := range []string{trig.Replaced, trig.Deleted.GetBody()} {
		if body == "" {
			continue
		}
		// A deleted body counts too: the rebuild it starts must save above it, or a replica
		// that saw the newer ledger would take the rebuilt one for an older one.
		if l, err := b.decodeLedger(ref, body); err == nil {
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
func (s *issueRun) keepHead(body string) {
	if head := render.Head(body); render.HeadSum(head) == s.ledger.Head {
		s.head = head
	}
}

// recoverHead puts back a head edited by hand from the body the edit replaced (its
// payload carries it), which the ledger vouches for; without it the head is left out, as
// the ledger cannot vouch for what is there, and the round it held stays in the thread.
func (s *issueRun) recoverHead(ctx context.Context, replaced string) {
	if s.head != "" || s.ledger.Head == "" || s.damaged {
		return
	}
	if s.keepHead(replaced); s.head == "" {
		zerolog.Ctx(ctx).Warn().Msg("The round above the status table was edited by hand; it is left out from now on")
	}
}

// headRoom is what the head takes, or may take, of the status comment: a run before the
// status comment exists may still put a round of up to maxHead bytes above the table.
func (s *issueRun) headRoom() int {
	if s.status == nil && !s.hasLedger {
		return render.HeadRoom(maxHead)
	}
	if s.head == "" {
		return 0
	}
	return render.HeadRoom(len(s.head))
}

// lostStatus starts a rebuild when the issue has no status comment but the deletion's
// payload names the one it had: the round the status comment was created with may have
// been the app's only comment, so the app's other comments are no sign of their own. A
// deletion whose delivery was lost comes back through redelivery. A label is no such
// sign: one put on by hand on an old issue would replay commands from before the app.
func (s *issueRun) lostStatus(trig trigger) {
	if s.hasLedger || s.damaged || trig.Deleted == nil {
		return
	}
	s.rebuildFrom = trig.Deleted.GetCreatedAt().Time.Add(-firstRunWindow)
	s.hasLedger, s.damaged = true, true
}
