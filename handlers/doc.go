// Package handlers reconciles GitHub issues to their clarification ledgers: Clarify's
// go-githubapp event handlers, the scheduler that runs them, and the sweep that lets time
// act. Talking HTTP to GitHub (retries, pacing, rate limits, pagination, the client
// factory) is internal/ghtransport's job; the domain is clarify's, the Markdown render's.
//
// Infrastructure errors are wrapped with %w and returned, so a failed delivery shows as
// failed; a user's mistake is a refusal comment and the handler returns nil.
//
// # A webhook's way
//
//   - scheduler.go: the delivery is validated, claimed once across replicas (DeliveriesSeen)
//     and run detached from GitHub's request, with retries.
//   - issue_comment.go, issues.go, dispatch.go, pull_request.go: one handler per event;
//     each decodes its payload, applies the cheap filters (active.go: issues with nothing
//     open are left alone) and starts a run.
//   - run.go: one run of an issue, under its lock (locks.go): the steps below in order.
//   - snapshot.go: the comments and its ledger, read in full or only what is new
//     since this process's last run (memory.go); archive.go merges archived clarifications.
//     Then the repository's config (config.go), which hints.go may spare: what earlier runs
//     of the issue noted in its signed ledger (no config file as of the repository's last
//     push, where the decisions are), for bot action's fresh processes, noted again before
//     the save.
//   - fold.go: every comment newer than the ledger's cursor, then time, through
//     clarify.Apply and clarify.Tick; actors.go says who a commenter is (permission, teams).
//   - effects.go, post.go: what the fold asks for (round comments, pings, replies), each
//     posted once, found again by its hidden marker.
//   - save.go: the status comment, with the signed ledger, edited only when it changed;
//     guard.go: in bot action's scheduled run (Base.Concurrent without IssueGroup: the one
//     run that may share an issue with another), the save checks that the ledger did not
//     move (read just before its edit, and the comments listed after it); in every bot
//     action run, the decisions it wrote into a memory it did not just make are read back
//     and written again if another run's write dropped them.
//   - wake.go: with notify.dispatch, a repository_dispatch for each clarification the save
//     settled, once, carrying the ask's ref and state, under GitHub's 64 KB (its payload is
//     wire.WakePayload).
//   - labels.go, checks.go: labels set to match the saved ledger (ColourLabels: the sweeps,
//     the App's and the Action's, colour those GitHub made grey); the checks of the pull
//     requests that link the issue (pulllinks.go: which issues open pull requests link, so
//     that an issue none links costs no listing).
//   - decisions.go: the repository's decisions (one closed issue of the app's, named by the
//     label clarify:decisions): earlier ones offered to new questions, those people with
//     standing settle remembered, /clarify supersede, settling from precedent after a 👎
//     look; ledger/decisions.go reads them: one page of the comments, or the app's
//     own past it through the index its body keeps, whatever others post there, and
//     decisions_read.go keeps this process's note of the issue and writes the index;
//     decisions_pending.go: a lone process writes the memory at most once a minute, the
//     decisions in between waiting (and offered) until the next run past it or the sweep;
//     decisions_owed.go: the next process records those a process stopped hard (or whose
//     writes failed) left waiting, from the ledgers of the issues updated since the
//     memory's last write, before its first offer or write in the repository.
//   - dashboard.go: runs note what changed; the sweep (or bot action's run, at its end)
//     writes each noted repository's dashboard issue once (with Base.Concurrent, read
//     back and written again if another run's write dropped its rows).
//   - appissues.go: the app's own issues (the decisions, the dashboard), each named by a
//     label's description; the label is followed only to an issue provably the app's
//     (ledger/appissues.go: its
//     mark in the label, or the issue made by the app and signed, whose label markLabel
//     then gives the mark); two runs making one at once end with the label's.
//
// # Background work
//
//   - sweep.go: the issues whose deadline is due (index.go, the deadline index), a slow walk
//     of every installation's active issues, and deadlock breaks.
//   - redeliver.go: deliveries GitHub failed to deliver are asked for again.
//   - action.go: what bot action (internal/action) needs beside the handlers: one issue run
//     as the sweep visits it, whose listed commands a scheduled run's scan takes
//     (MayHaveStanding: a drive-by's cost it nothing), and a config loader for a token that
//     reaches one repository;
//     sweepindex.go: what its scheduled runs knew of each issue (updated_at, next deadline),
//     kept between runs in a comment of the decisions issue, so an idle run reads none.
//
// # Where each rule lives
//
//   - Keys: which keys sign and verify an issue's blocks is render.Keyring's; keys.go draws
//     the app's ring for an issue.
//   - Codec: the signed hidden blocks are render's (codec.go).
//   - Reader: ledger.LedgerReader (ledger/reader.go) reads an issue's ledger from its
//     comments (the app's status comment, its archives), for the runs, bot ledger, bot
//     stats and the asker's client (internal/asker) alike; ledger/people.go words it for
//     people (PeopleReader). ledger.ListCommentsSince is the one way an issue's comments
//     are listed.
//   - Trust: ledger/trust.go, LedgerReader.Trust, decides whether a ledger that verifies is
//     trusted (revision floor, sequence, cursor), for the runs and bot ledger alike;
//     ledger_trust.go logs the runs' decision.
//   - The asker's ref and state: their limits, the same ask by ref and a clarification's
//     outcome (a fallback told from a person) are clarify/asker.go's; a dispatch carries
//     them as its context (wire/dispatch.go decodes it, dispatch.go mirrors it), the
//     mirror's signed copy keeps the state.
//   - The app's login: ledger.BotLoginOf; base.go, IsSlug, what a slug may be (serve and the
//     Action); wire.ActionsSlug, the account a workflow's GITHUB_TOKEN writes as.
//   - The app's own comments: ledger/own.go (own.go asks it for the runs). From a shared account (github-actions[bot], every
//     workflow's) only a comment with a marker sealed under the key is the app's
//     (render/seal.go seals them): any other is input, like a bot's, and a marker in it
//     neither skips a post nor makes it the status comment.
//   - Standing (whose word becomes a decision of the repository, who may change one):
//     clarify/permission.go; actors.go only says what GitHub reports of an account now,
//     and never gives the app's own login (in bot action every workflow's) write access.
//   - The app's own issues: ledger/appissues.go (Marked, OwnIssue) says when a label is
//     followed.
//   - A label's colour: labels.go, greyLabels, says which of the app's labels GitHub made
//     (grey, no description) and so are the app's to colour; one a person made stays theirs.
//   - Pagination: ghtransport.AllPages (and SomePages), the one reader of GitHub's Link pagination.
//   - Rate limits: ghtransport.ReadLimit reads GitHub's signals once; the pacer holds the
//     installation (one hold, shared by replicas through the pacer store).
//   - Memory: memory.go, one bounded memory; base.go groups what Base remembers.
//   - What replicas share: shared.go lists the interfaces Redis implements
//     (internal/redisstate); config.go loads each repository's .github/clarify.yml.
package handlers
