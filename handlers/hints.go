package handlers

import (
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
)

// What a run learned of its repository that the next run of the same issue may take
// without asking GitHub (clarify.Hints): bot action's runs are fresh processes, each of
// which would otherwise read the config file and look the decisions' label up again. The
// hints ride in the signed ledger, so a hint in a ledger that does not verify is never
// seen; config.go says when the config's hint holds, ledger/appissues.go when the memory's does.

// pushOf is where a payload's repository says its branches stand; unknown (zero) when the
// payload carries no pushed_at, or for a sweep's run, which has no payload.
func pushOf(repo *github.Repository) clarify.Push {
	return clarify.Push{At: repo.GetPushedAt().Time, Branch: repo.GetDefaultBranch()}
}

// followHints starts this process from the memory's issue a ledger's hint names, when it
// knows none of its own and the hint carries the app's mark for that number: the decisions
// are then read there (decisions/read.go), and the label only when it is gone.
func (run *issueRun) followHints(h clarify.Hints) {
	key := run.ref.Owner + "/" + run.ref.Repo
	if _, ok := run.decisionIssues.get(key); ok || h.Memory.Issue <= 0 {
		return
	}
	if run.reader().MarkedAs(run.ref.Owner, run.ref.Repo, ledger.DecisionsKind, h.Memory.Issue, h.Memory.Mark) {
		run.decisionIssues.put(key, h.Memory.Issue)
	}
}

// noteHints records in l, the ledger the run is about to save, what the run knows: the
// config's hint (config.go) from cfg and push, the run's payload's, with the newest comment
// the snapshot read (before the config was read), and the issue that
// holds the repository's decisions as this process last found or made it (none when the
// one hinted at is gone and the label names none).
func (run *issueRun) noteHints() {
	push, l := run.trig.Push, &run.folded.ledger
	l.Hints.NoConfig, l.Hints.ConfigFile = run.configs.configHints(run.ledger.Hints, run.cfg, push, run.lastRead)
	l.Hints.Memory = clarify.MemoryHint{}
	if n, ok := run.decisionIssues.get(run.ref.Owner + "/" + run.ref.Repo); ok {
		mref := clarify.IssueRef{Owner: run.ref.Owner, Repo: run.ref.Repo, Number: n}
		l.Hints.Memory = clarify.MemoryHint{Issue: n, Mark: run.keys(mref).AppIssueMark(ledger.DecisionsKind)}
	}
}

// hintRun is what the run knows to decide on the ledger's config hints (config.go): the
// payload's push and comment, and the newest comment it is to apply that is not the app's,
// whose config must be the one in force when it was made.
func (run *issueRun) hintRun() hintRun {
	trig, bot := run.trig, run.BotLogin()
	h := hintRun{none: run.ledger.Hints.NoConfig, file: run.ledger.Hints.ConfigFile, push: trig.Push}
	if trig.Kind == triggerComment {
		h.trigger = trig.Comment.GetID()
	}
	for _, c := range run.known() {
		if c.GetID() > h.newest && run.toFold(c, trig) && !strings.EqualFold(c.GetUser().GetLogin(), bot) {
			h.newest = c.GetID()
		}
	}
	return h
}
