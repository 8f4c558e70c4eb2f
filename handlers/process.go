package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// cursorLag is how many applied-but-unsaved comments a run tolerates before it saves the
// ledger only to move its cursor: saving on every plain comment would spend a write per
// comment, and replaying a few no-op comments on the next run costs only reads.
const cursorLag = 20

// issueRef names one issue.
type issueRef struct {
	Owner, Repo string
	Number      int
}

func (r issueRef) key() string { return fmt.Sprintf("%s/%s#%d", r.Owner, r.Repo, r.Number) }

// trigger is the event that woke a run; a run also folds in any newer comment the ledger
// has not seen.
type trigger struct {
	Kind clarify.EventKind
	// Comment is the payload's comment for EventComment: its body is the one at creation,
	// which the comment list may already show edited.
	Comment *github.IssueComment
	Sender  *github.User
	At      time.Time
	// Labels are the issue's labels as the payload (or the sweep's issue list) gives them.
	Labels []*github.Label
	// Break, from the sweep, escalates one clarification to break a deadlock.
	Break *deadlockBreak
	// IssueClosed says the payload showed the issue closed; a rebuild, which sees only
	// comments, needs it to abandon what the close abandoned.
	IssueClosed bool
}

// deadlockBreak names the clarification the sweep escalates and why.
type deadlockBreak struct {
	ID, Reason string
}

// snapshot is what a run reads of an issue before it applies anything.
type snapshot struct {
	comments  []*github.IssueComment
	status    *github.IssueComment
	ledger    clarify.Ledger
	hasLedger bool
	// damaged is set when the ledger is rebuilt by folding the issue again from
	// rebuildFrom, because the status comment did not verify or was deleted.
	damaged     bool
	rebuildFrom time.Time
	// archived holds the ids of the clarifications that live in archive comments.
	archived map[string]bool
}

// hasRoundComment reports whether the app ever mirrored a round in these comments: the
// sign that a missing status comment was deleted rather than never written.
func hasRoundComment(b *Base, comments []*github.IssueComment) bool {
	for _, c := range comments {
		if b.isSelf(c.User) && render.HasMarkerPrefix(c.GetBody(), "round:") {
			return true
		}
	}
	return false
}

// posted reports whether one of the app's comments already carries the effect's marker.
func (s *snapshot) posted(b *Base, key string) bool {
	for _, c := range s.comments {
		if b.isSelf(c.User) && render.HasMarker(c.GetBody(), key) {
			return true
		}
	}
	return false
}

// run is the one path every event and every sweep takes: lock, load, fold in what is new,
// let time act, carry out the effects, save, reconcile the labels. It returns the ledger
// as saved.
func (b *Base) run(ctx context.Context, client *github.Client, ref issueRef, trig trigger) (clarify.Ledger, error) {
	unlock := b.Locks.Lock(ref.key())
	defer unlock()
	logger := zerolog.Ctx(ctx)

	cfg, err := b.Configs.Load(ctx, client, ref.Owner, ref.Repo)
	if err != nil {
		return clarify.Ledger{}, fmt.Errorf("load config of %s/%s: %w", ref.Owner, ref.Repo, err)
	}
	snap, err := b.load(ctx, client, ref)
	if err != nil {
		return clarify.Ledger{}, err
	}
	policy := cfg.Policy
	now := b.Now()

	ledger := snap.ledger
	var effects []clarify.Effect
	lookups := newActorLookups(client, ref)
	applied := 0
	for _, in := range b.events(snap, trig) {
		ev := in.event
		// The payload tells whether the issue was closed when the trigger was written (a
		// close or reopen of an issue with nothing open costs no request, so the ledger
		// alone may lag); for older comments folded in with it, the state is not known.
		ev.IssueClosed = trig.IssueClosed && trig.Comment != nil && ev.CommentID == trig.Comment.GetID()
		ev.Actor, err = lookups.actor(ctx, b, in.user, in.event.Body, ledger, policy)
		if err != nil {
			return clarify.Ledger{}, err
		}
		at := now
		if !ev.At.IsZero() && ev.At.Before(now) {
			// A comment folded in late (a catch-up, a rebuild) keeps the deadlines it
			// would have set when it was written.
			at = ev.At
		}
		res := clarify.Apply(ledger, ev, policy, at)
		logApplied(logger, in.user.GetLogin(), ev, res)
		ledger = res.Ledger
		effects = append(effects, res.Effects...)
		applied++
	}
	// Deadlines live in the ledger, so any run (an event's or the sweep's) finds what is due.
	tick := clarify.Tick(ledger, policy, now)
	ledger, effects = tick.Ledger, append(effects, tick.Effects...)
	if trig.Break != nil {
		var e clarify.Effect
		var ok bool
		if ledger, e, ok = clarify.EscalateInLedger(ledger, trig.Break.ID, trig.Break.Reason, "", 0, now); ok {
			effects = append(effects, e)
		}
	}

	if snap.damaged {
		if err := b.reportRebuild(ctx, client, ref, snap); err != nil {
			return clarify.Ledger{}, err
		}
	}
	if cfg.Problem != nil && cfg.Fresh {
		if err := b.reportConfig(ctx, client, ref, snap, cfg.Problem); err != nil {
			return clarify.Ledger{}, err
		}
	}
	if err := b.carryOut(ctx, client, ref, snap, ledger, policy, effects); err != nil {
		return clarify.Ledger{}, err
	}
	saved, err := b.save(ctx, client, ref, snap, ledger, applied)
	if err != nil {
		return clarify.Ledger{}, err
	}
	return saved, b.reconcileLabels(ctx, client, ref, labelsOf(cfg.Labels), trig.Labels, saved)
}

func logApplied(logger *zerolog.Logger, author string, ev clarify.Event, res clarify.Result) {
	e := logger.Info().Str("comment_author", author).Int64("comment_id", ev.CommentID).Str("event_kind", string(ev.Kind))
	if res.Ignored != "" {
		e.Msgf("Not applied: %s", res.Ignored)
		return
	}
	e.Msg("Applied to the ledger")
}

// reportRebuild tells the issue, once per damaged status comment, that the ledger was
// rebuilt from its comments rather than trusted.
func (b *Base) reportRebuild(ctx context.Context, client *github.Client, ref issueRef, snap *snapshot) error {
	var h [8]byte
	if snap.status != nil {
		sum := sha256.Sum256([]byte(snap.status.GetBody()))
		copy(h[:], sum[:])
	}
	key := "rebuilt:" + hex.EncodeToString(h[:])
	_, err := b.postOnce(ctx, client, ref, snap, render.Marker(key), render.Rebuilt(snap.status != nil, key))
	return err
}

// reportConfig tells the issue, once, that the repository's config is broken.
func (b *Base) reportConfig(ctx context.Context, client *github.Client, ref issueRef, snap *snapshot, p *ConfigProblem) error {
	key := p.Key()
	_, err := b.postOnce(ctx, client, ref, snap, render.Marker(key), render.ConfigProblem(p.Source, p.Path, p.Lines(), key))
	return err
}

// load reads every comment of the issue (following pagination) and the ledger from the
// app's own status comment; a look-alike in anyone else's comment is never read.
func (b *Base) load(ctx context.Context, client *github.Client, ref issueRef) (*snapshot, error) {
	snap := &snapshot{}
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	for {
		page, resp, err := client.Issues.ListComments(ctx, ref.Owner, ref.Repo, ref.Number, opts)
		if err != nil {
			return nil, fmt.Errorf("list comments of %s: %w", ref.key(), err)
		}
		snap.comments = append(snap.comments, page...)
		if resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	sort.SliceStable(snap.comments, func(i, j int) bool { return snap.comments[i].GetID() < snap.comments[j].GetID() })

	var firstOwn *github.IssueComment
	for _, c := range snap.comments {
		if !b.isSelf(c.User) {
			continue
		}
		if firstOwn == nil {
			firstOwn = c
		}
		if !render.IsStatus(c.GetBody()) {
			continue
		}
		if snap.status != nil {
			zerolog.Ctx(ctx).Warn().Int64("comment_id", c.GetID()).Msg("Second status comment found; keeping the first")
			continue
		}
		l, err := render.DecodeLedger(c.GetBody(), b.LedgerKey)
		switch {
		case errors.Is(err, render.ErrVersion):
			// Written by a newer Clarify: leave it alone rather than downgrade it.
			return nil, fmt.Errorf("ledger of %s in comment %d: %w", ref.key(), c.GetID(), err)
		case err != nil:
			// Never trusted: a ledger whose MAC does not verify was edited by hand (or
			// written under another key). It is rebuilt from the comments instead.
			zerolog.Ctx(ctx).Warn().Err(err).Int64("comment_id", c.GetID()).Msg("Status comment does not verify; rebuilding the ledger from the comments")
			snap.status, snap.damaged = c, true
			continue
		}
		snap.status, snap.ledger, snap.hasLedger = c, l, true
		archived, err := b.readArchives(snap)
		if err != nil {
			zerolog.Ctx(ctx).Warn().Err(err).Msg("An archive of the ledger is missing or does not verify; rebuilding the ledger from the comments")
			snap.ledger, snap.hasLedger, snap.damaged = clarify.Ledger{}, false, true
			continue
		}
		snap.archived = archived
	}
	if snap.archived == nil {
		snap.archived = map[string]bool{}
	}
	if !snap.hasLedger {
		snap.ledger = clarify.NewLedger(ref.Number)
	}
	if !snap.hasLedger && firstOwn != nil && (snap.damaged || hasRoundComment(b, snap.comments)) {
		// The app was at work here but its ledger is damaged or gone (the status
		// comment deleted): fold the issue again from a little before the app's first
		// comment. Every posted message carries its marker, so nothing is posted twice.
		snap.rebuildFrom = firstOwn.GetCreatedAt().Time.Add(-firstRunWindow)
		snap.hasLedger, snap.damaged = true, true
	}
	return snap, nil
}

// input is one event to fold in, with the user behind it.
type input struct {
	event clarify.Event
	user  *github.User
}

// firstRunWindow is how far back a run reaches when the issue has no ledger yet: far
// enough to take in comments whose deliveries arrive out of order or were lost around the
// first ask, not so far that installing the app replays an issue's old commands.
const firstRunWindow = 15 * time.Minute

// events lists what to fold in, oldest first: every comment newer than the ledger's cursor
// (so a lost or reordered delivery heals itself), with the trigger in its place; without a
// ledger, the comments of the last firstRunWindow before the trigger and after it.
func (b *Base) events(snap *snapshot, trig trigger) []input {
	fromComment := func(c *github.IssueComment) input {
		return input{
			event: clarify.Event{Kind: clarify.EventComment, CommentID: c.GetID(), Body: c.GetBody(), At: c.GetCreatedAt().Time},
			user:  c.User,
		}
	}
	var trigComment *github.IssueComment
	if trig.Kind == clarify.EventComment {
		trigComment = trig.Comment
	}
	newer := func(c *github.IssueComment) bool {
		if snap.damaged {
			return !c.GetCreatedAt().Time.Before(snap.rebuildFrom)
		}
		if snap.hasLedger {
			return c.GetID() > snap.ledger.Cursor
		}
		return !c.GetCreatedAt().Time.Before(trig.At.Add(-firstRunWindow))
	}
	var out []input
	placed := trigComment == nil
	for _, c := range snap.comments {
		if !newer(c) {
			continue
		}
		if !placed && c.GetID() >= trigComment.GetID() {
			// The payload's body is the one at creation; the list may show it edited.
			out = append(out, fromComment(trigComment))
			placed = true
			if c.GetID() == trigComment.GetID() {
				continue
			}
		}
		out = append(out, fromComment(c))
	}
	if !placed && (!snap.hasLedger || trigComment.GetID() > snap.ledger.Cursor) {
		out = append(out, fromComment(trigComment))
	}
	if trig.Kind != clarify.EventComment && trig.Kind != "" {
		out = append(out, input{event: clarify.Event{Kind: trig.Kind, At: trig.At}, user: trig.Sender})
	} else if snap.damaged && trig.IssueClosed {
		out = append(out, input{event: clarify.Event{Kind: clarify.EventClosed, At: trig.At}, user: trig.Sender})
	}
	return out
}

// carryOut posts and reacts as the effects say; every posted comment carries its effect's
// marker, and a marker already in one of the app's comments is not posted again.
func (b *Base) carryOut(ctx context.Context, client *github.Client, ref issueRef, snap *snapshot, l clarify.Ledger, p clarify.Policy, effects []clarify.Effect) error {
	logger := zerolog.Ctx(ctx)
	for _, e := range effects {
		if e.Kind == clarify.EffectReact {
			_, _, err := client.Reactions.CreateIssueCommentReaction(ctx, ref.Owner, ref.Repo, e.CommentID, e.Reaction)
			if isStatus(err, http.StatusNotFound) {
				// Best effort: the comment was deleted before we could acknowledge it.
				logger.Warn().Int64("comment_id", e.CommentID).Msg("Comment to react to is gone")
				continue
			}
			if err != nil {
				return fmt.Errorf("react to comment %d: %w", e.CommentID, err)
			}
			continue
		}
		if snap.posted(b, e.Key) {
			continue
		}
		body, ok := b.renderEffect(e, l, p)
		if !ok {
			logger.Error().Str("effect", string(e.Kind)).Str("clarification", e.ClarificationID).Msg("Effect names a clarification the ledger lacks")
			continue
		}
		if _, err := b.postOnce(ctx, client, ref, snap, render.Marker(e.Key), body); err != nil {
			return fmt.Errorf("%s comment: %w", e.Kind, err)
		}
	}
	return nil
}

func (b *Base) renderEffect(e clarify.Effect, l clarify.Ledger, p clarify.Policy) (string, bool) {
	switch e.Kind {
	case clarify.EffectPostRound:
		c, ok := l.Find(e.ClarificationID)
		return render.Round(c, e.Round, e.Key), ok
	case clarify.EffectEscalate:
		c, ok := l.Find(e.ClarificationID)
		return render.Escalation(c, e.Reason, p.EscalationMention, e.Key), ok
	case clarify.EffectReply:
		return render.Reply(e.Reply, l, e.Key), true
	case clarify.EffectPing:
		c, ok := l.Find(e.ClarificationID)
		return render.Ping(c, awaitedPeople(c, e.Reason, p), e.Key), ok
	case clarify.EffectTimeout:
		c, ok := l.Find(e.ClarificationID)
		return render.Timeout(c, e.Key), ok
	}
	return "", false
}

// save writes the ledger into the status comment when it changed (or its cursor lags too
// far), and creates the status comment the first time there is something to show.
func (b *Base) save(ctx context.Context, client *github.Client, ref issueRef, snap *snapshot, l clarify.Ledger, applied int) (clarify.Ledger, error) {
	if !snap.hasLedger && len(l.Clarifications) == 0 && len(l.Assumptions) == 0 {
		return l, nil
	}
	changed, err := ledgerChanged(snap.ledger, l)
	if err != nil {
		return l, err
	}
	if !changed && snap.status != nil && applied < cursorLag {
		l = snap.ledger
	}
	if changed || (snap.status != nil && l.Cursor != snap.ledger.Cursor) {
		l.Rev = snap.ledger.Rev + 1
	}
	l, block, err := b.archiveIfLarge(ctx, client, ref, snap, l, snap.archived)
	if err != nil {
		return l, fmt.Errorf("encode ledger of %s: %w", ref.key(), err)
	}
	main := mainPart(l, snap.archived)
	if block == "" {
		if block, err = render.EncodeLedger(main, b.LedgerKey); err != nil {
			return l, fmt.Errorf("encode ledger of %s: %w", ref.key(), err)
		}
	}
	body := render.Status(main, block)
	if len(body) > render.MaxCommentBytes {
		// Only open clarifications are left to fill it (archives take the settled ones):
		// refuse loudly rather than let GitHub's 422 lose the update.
		return l, fmt.Errorf("status comment of %s would be %d bytes, over %d", ref.key(), len(body), render.MaxCommentBytes)
	}
	if snap.status == nil {
		c, err := b.postOnce(ctx, client, ref, snap, render.StatusMarker, body)
		if err != nil {
			return l, fmt.Errorf("status comment: %w", err)
		}
		if c.GetBody() != body {
			// Another replica created the status comment first, from a snapshot that may
			// lack this run's events; fail so the delivery is logged, and the next event's
			// fold (its cursor is older) takes them in.
			return l, fmt.Errorf("status comment of %s was created concurrently by another replica", ref.key())
		}
		return l, nil
	}
	if snap.status.GetBody() == body {
		return l, nil
	}
	if _, _, err := client.Issues.EditComment(ctx, ref.Owner, ref.Repo, snap.status.GetID(), &github.IssueComment{Body: &body}); err != nil {
		return l, fmt.Errorf("update status comment %d on %s: %w", snap.status.GetID(), ref.key(), err)
	}
	return l, nil
}

// ledgerChanged compares two ledgers on everything but the cursor and the revision.
func ledgerChanged(a, b clarify.Ledger) (bool, error) {
	a.Cursor, a.Rev, b.Cursor, b.Rev = 0, 0, 0, 0
	ja, err := json.Marshal(a)
	if err != nil {
		return false, err
	}
	jb, err := json.Marshal(b)
	if err != nil {
		return false, err
	}
	return string(ja) != string(jb), nil
}

// reconcileLabels sets the app's labels to what the ledger says, starting from the labels
// the payload reports; adding is idempotent and removing a missing label is a 404 we
// accept, so a payload older than the last run costs at most a redundant write.
func (b *Base) reconcileLabels(ctx context.Context, client *github.Client, ref issueRef, ours [3]Label, current []*github.Label, l clarify.Ledger) error {
	open := len(l.Open()) > 0
	want := map[string]bool{
		ours[0].Name: open,
		ours[1].Name: l.HasStatus(clarify.Stale),
		ours[2].Name: l.HasStatus(clarify.Escalated),
	}
	have := map[string]bool{}
	for _, lb := range current {
		have[lb.GetName()] = true
	}
	var add []string
	for _, lb := range ours {
		switch {
		case want[lb.Name] && !have[lb.Name]:
			if err := b.ensureLabel(ctx, client, ref, lb); err != nil {
				return err
			}
			add = append(add, lb.Name)
		case !want[lb.Name] && have[lb.Name]:
			_, err := client.Issues.RemoveLabelForIssue(ctx, ref.Owner, ref.Repo, ref.Number, lb.Name)
			if err != nil && !isStatus(err, http.StatusNotFound) {
				return fmt.Errorf("remove label %q from %s: %w", lb.Name, ref.key(), err)
			}
		}
	}
	if len(add) > 0 {
		if _, _, err := client.Issues.AddLabelsToIssue(ctx, ref.Owner, ref.Repo, ref.Number, add); err != nil {
			return fmt.Errorf("add labels %v to %s: %w", add, ref.key(), err)
		}
	}
	return nil
}

// ensureLabel creates a repository label with our colour and description when it is
// missing, instead of letting GitHub create a grey one on first use.
func (b *Base) ensureLabel(ctx context.Context, client *github.Client, ref issueRef, lb Label) error {
	repo := ref.Owner + "/" + ref.Repo
	if b.labelKnown(repo, lb.Name) {
		return nil
	}
	_, _, err := client.Issues.GetLabel(ctx, ref.Owner, ref.Repo, lb.Name)
	if isStatus(err, http.StatusNotFound) {
		_, _, err = client.Issues.CreateLabel(ctx, ref.Owner, ref.Repo, &github.Label{Name: &lb.Name, Color: &lb.Color, Description: &lb.Description})
		if isStatus(err, http.StatusUnprocessableEntity) {
			err = nil // created meanwhile by someone else
		}
	}
	if err != nil {
		return fmt.Errorf("ensure label %q in %s: %w", lb.Name, repo, err)
	}
	b.setLabelKnown(repo, lb.Name)
	return nil
}

// isStatus reports whether err is a GitHub API error with the given HTTP status.
func isStatus(err error, status int) bool {
	var er *github.ErrorResponse
	return errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == status
}

// awaitedPeople lists whom a stale ping @mentions: the asker, or the target's people (a
// login, a team, or a role's members).
func awaitedPeople(c clarify.Clarification, side string, p clarify.Policy) []string {
	if side == "asker" {
		return []string{c.Asker.Login}
	}
	switch c.Target.Kind {
	case clarify.TargetRole:
		return p.Roles[c.Target.Name]
	default:
		return []string{c.Target.Name}
	}
}
