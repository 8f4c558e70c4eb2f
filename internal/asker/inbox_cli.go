package asker

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

const inboxSummary = "List every open question awaiting you, a login or a team, oldest first."

const inboxDetails = `Lists every open question that waits on you (the token's account), or on --for's login or
team, across repositories: a question to that login, to a team the login is in, or to a
role of the repository's .github/clarify.yml that lists either. Each with its issue, id,
topic, asker, status, round, since when it waits, when it goes stale, and the command
that answers it; oldest first. Where: --org's repositories, the --repo ones, or else the
repositories of the token's installation. Issues are found by GitHub's search for
Clarify's active label; what they ask is read only from Clarify's own verified records.
Exits 0, with an empty list when nothing waits; what could not be seen (a team whose
members the token may not read) is said on stderr, or in --json's notes.`

// Inbox runs `inbox`.
func (d Door) Inbox(args []string) int {
	c := d.flags("inbox", inboxSummary, "inbox [flags] [--for @LOGIN|@ORG/TEAM] [--org ORG | --repo OWNER/REPO ...]", inboxDetails).withJSON()
	var q InboxQuery
	var repos stringList
	c.Flags.StringVar(&q.For, "for", "", "whose inbox: @login or @org/team (default: the token's own account)")
	c.Flags.StringVar(&q.Org, "org", "", "the organisation whose repositories are searched")
	c.Flags.Var(&repos, "repo", "a repository searched, OWNER/REPO (repeatable)")
	pos, err := c.Parse(args, d.Stdout)
	if err == nil && len(pos) > 0 {
		err = c.Usagef("inbox takes no arguments: give --for, --org or --repo")
	}
	if err == nil && q.Org != "" && len(repos) > 0 {
		err = c.Usagef("give --org or --repo, not both")
	}
	if err != nil {
		return d.exit("inbox", err)
	}
	q.Repos = repos
	cl, _, err := d.client(c)
	if err != nil {
		return d.exit("inbox", err)
	}
	ctx, stop := signalContext()
	defer stop()
	in, err := cl.Inbox(ctx, q)
	if err != nil {
		return d.exit("inbox", err)
	}
	if *c.json {
		enc := json.NewEncoder(d.Stdout)
		enc.SetIndent("", "  ")
		return d.exit("inbox", enc.Encode(in))
	}
	for _, n := range in.Notes {
		fmt.Fprintf(d.Stderr, "%s inbox: %s\n", d.Prog, n)
	}
	fmt.Fprint(d.Stdout, inboxText(in, cl.now()))
	return 0
}

// inboxText is an inbox for people: a line a question, then what it asks and how to answer.
func inboxText(in Inbox, now time.Time) string {
	if len(in.Questions) == 0 {
		return fmt.Sprintf("Nothing waits on %s in %s.\n", in.For, in.Scope)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d waiting on %s in %s, oldest first:\n", len(in.Questions), in.For, in.Scope)
	for _, q := range in.Questions {
		fmt.Fprintf(&b, "\n%s  %s  %s  round %d  waiting %s (since %s)", q.Issue, q.ID, q.Status, q.Round,
			now.Sub(q.WaitingSince).Round(time.Minute), q.WaitingSince.UTC().Format("2006-01-02 15:04 UTC"))
		if !q.StaleAt.IsZero() {
			fmt.Fprintf(&b, "  stale at %s", q.StaleAt.UTC().Format("2006-01-02 15:04 UTC"))
		}
		fmt.Fprintf(&b, "\n  %s → %s (%s)\n", q.Asker, q.Target, q.Via)
		for _, f := range []struct{ name, text string }{{"topic", q.Topic}, {"question", q.Question},
			{"answer", q.AnswerWith + " in " + q.URL}} {
			if f.text != "" {
				fmt.Fprintf(&b, "  %s: %s\n", f.name, strings.Join(strings.Fields(f.text), " "))
			}
		}
	}
	return b.String()
}
