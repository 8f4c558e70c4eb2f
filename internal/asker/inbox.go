package asker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// An inbox is every open question that waits on one person or team, across repositories:
// candidate issues come from GitHub's search by Clarify's active label (inbox_search.go),
// and what each question is, and whom it waits on, only from Clarify's own verified ledger
// of each issue, read as status reads it. A label anyone with triage access can set;
// the ledger only Clarify can write.

// InboxQuery says whose inbox, over which repositories.
type InboxQuery struct {
	// For is whom the questions wait on: "@login" or "login", "@org/team" or "org/team";
	// empty, the token's own account (GET /user).
	For string
	// Org searches the organisation's repositories; Repos the repositories named
	// (OWNER/REPO); neither, the repositories the token's installation reaches.
	Org   string
	Repos []string
}

// InboxItem is one question in an inbox.
type InboxItem struct {
	// Issue is OWNER/REPO#N; URL its web page.
	Issue  string `json:"issue"`
	ID     string `json:"id"`
	Topic  string `json:"topic,omitempty"`
	Asker  string `json:"asker"`
	Target string `json:"target"`
	// Via says how it reaches whom the inbox is for: "login", "team org/t", "role
	// architect", "role architect, team org/t".
	Via      string `json:"via"`
	Status   string `json:"status"`
	Round    int    `json:"round"`
	Question string `json:"question,omitempty"`
	// WaitingSince is when its current round was asked; StaleAt when Clarify pings it as
	// stale (absent once escalated).
	WaitingSince time.Time `json:"waiting_since"`
	StaleAt      time.Time `json:"stale_at,omitzero"`
	// AnswerWith is the command that answers it, typed in the issue.
	AnswerWith string `json:"answer_with"`
	URL        string `json:"url"`
}

// Inbox is the questions that wait on For, oldest first, and what could not be read.
type Inbox struct {
	For       string      `json:"for"`
	Scope     string      `json:"scope"`
	Questions []InboxItem `json:"questions"`
	// Notes say plainly what the inbox could not see: a team whose members the token may not
	// read, an issue whose ledger does not verify, a search GitHub answered incomplete.
	Notes []string `json:"notes,omitempty"`
}

// whom is whose inbox it is: a login, or a team "org/slug".
type whom struct{ login, team string }

func (w whom) String() string {
	if w.team != "" {
		return "@" + w.team
	}
	return "@" + w.login
}

// Inbox lists every open question awaiting q.For across q's repositories, oldest first:
// those whose target (a login, a team, a role's members) reaches For and that wait on their
// target (pending, stale while unanswered, or escalated). Answered ones wait on their
// asker and are not listed; nor are the questions For asked.
func (c *Client) Inbox(ctx context.Context, q InboxQuery) (Inbox, error) {
	who, err := c.whom(ctx, q.For)
	if err != nil {
		return Inbox{}, err
	}
	sc, err := c.scope(ctx, q)
	if err != nil {
		return Inbox{}, err
	}
	run := &inboxRun{c: c, who: who, members: map[string]bool{}, out: Inbox{For: who.String(), Scope: sc.String(), Questions: []InboxItem{}}}
	issues, err := c.candidates(ctx, sc, run)
	if err != nil {
		return Inbox{}, err
	}
	for _, issue := range issues {
		if err := run.issue(ctx, issue); err != nil {
			return Inbox{}, err
		}
	}
	slices.SortStableFunc(run.out.Questions, func(a, b InboxItem) int {
		return cmp.Or(a.WaitingSince.Compare(b.WaitingSince), cmp.Compare(a.Issue, b.Issue), cmp.Compare(a.ID, b.ID))
	})
	return run.out, nil
}

// whom reads For, or asks GitHub whose the token is.
func (c *Client) whom(ctx context.Context, of string) (whom, error) {
	name := strings.TrimPrefix(strings.TrimSpace(of), "@")
	if org, slug, ok := strings.Cut(name, "/"); ok {
		if org == "" || slug == "" || strings.Contains(slug, "/") {
			return whom{}, fmt.Errorf("--for %q: write a team as @org/team", of)
		}
		return whom{team: strings.ToLower(name)}, nil
	}
	if name != "" {
		return whom{login: name}, nil
	}
	u, _, err := c.gh.Users.Get(ctx, "")
	switch {
	case ghtransport.IsStatus(err, http.StatusForbidden), ghtransport.IsStatus(err, http.StatusUnauthorized):
		return whom{}, errors.New("this token is no person's (an App's or a workflow's), so whose inbox it is is not known: " +
			"give --for @login or --for @org/team")
	case err != nil:
		return whom{}, fmt.Errorf("read whose the token is (GET /user): %w", err)
	}
	return whom{login: u.GetLogin()}, nil
}

// inboxRun is one inbox being gathered: the team memberships looked up once each.
type inboxRun struct {
	c       *Client
	who     whom
	members map[string]bool
	out     Inbox
}

// note says plainly what the inbox could not see.
func (r *inboxRun) note(format string, args ...any) {
	r.out.Notes = append(r.out.Notes, fmt.Sprintf(format, args...))
}

// issue reads the issue's verified ledger and takes its questions that wait on r.who. A
// ledger that is missing or does not verify is noted and skipped: nothing else is believed.
func (r *inboxRun) issue(ctx context.Context, issue clarify.IssueRef) error {
	cfg, err := r.c.repoConfig(ctx, issue.Owner, issue.Repo)
	if err != nil {
		r.note("%s: %v", issue, err)
		return nil
	}
	snap, err := r.c.read(ctx, issue, readOpts{enough: func(clarify.Ledger) bool { return true }})
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		r.note("%s: not read, so not listed: %v", issue, err)
		return nil
	case !snap.ok:
		return nil // labelled, but Clarify has written no ledger there
	}
	for _, cl := range snap.ledger.Clarifications {
		if !waitsOnTarget(cl) || strings.EqualFold(cl.Asker.Login, r.who.login) {
			continue
		}
		if via := r.reaches(ctx, cl.Target, cfg.Policy.Roles); via != "" {
			r.out.Questions = append(r.out.Questions, r.item(issue, cl, via))
		}
	}
	return nil
}

// waitsOnTarget reports whether cl waits on its target: pending, stale before an answer,
// or escalated (the target may still answer).
func waitsOnTarget(cl clarify.Clarification) bool {
	side := clarify.WaitingOn(cl)
	return side == clarify.SideTarget || side == clarify.SideMaintainers
}

// item is cl as an inbox lists it.
func (r *inboxRun) item(issue clarify.IssueRef, cl clarify.Clarification, via string) InboxItem {
	since := cl.CreatedAt
	for _, e := range cl.Thread {
		if e.Kind == clarify.KindQuestion && e.Round == cl.Round {
			since = e.At
		}
	}
	rec := r.c.record(issue, cl)
	return InboxItem{Issue: issue.String(), ID: cl.ID, Topic: cl.Topic, Asker: cl.Asker.Login, Target: targetName(cl.Target),
		Via: via, Status: string(cl.Status), Round: cl.Round, Question: rec.Question, WaitingSince: since, StaleAt: cl.StaleAfter,
		AnswerWith: clarify.FormatCommand(clarify.Command{Kind: clarify.CmdRespond, ID: cl.ID, Text: "<answer>"}), URL: rec.URL}
}

// targetName is a target as people type it: @login, @org/team, or the role's name.
func targetName(t clarify.Target) string {
	if t.Kind == clarify.TargetRole {
		return t.Name
	}
	return "@" + strings.TrimPrefix(t.Name, "@")
}

// reaches says how t reaches r.who ("" when it does not): the login itself, a team the
// login is in, the team itself, or a role listing any of those (roles are the repository's).
func (r *inboxRun) reaches(ctx context.Context, t clarify.Target, roles map[string][]string) string {
	switch t.Kind {
	case clarify.TargetLogin, clarify.TargetTeam:
		return r.handle(ctx, t.Name)
	case clarify.TargetRole:
		for _, m := range roleMembers(roles, t.Name) {
			switch via := r.handle(ctx, m); via {
			case "":
			case "login":
				return "role " + t.Name
			default:
				return "role " + t.Name + ", " + via
			}
		}
	}
	return ""
}

// roleMembers are the members of role in roles, the role found in any case, as the app
// finds it.
func roleMembers(roles map[string][]string, role string) []string {
	if m, ok := roles[role]; ok {
		return m
	}
	for name, m := range roles {
		if strings.EqualFold(name, role) {
			return m
		}
	}
	return nil
}

// handle says how one handle (a login, or "org/team") reaches r.who: "login", "team
// org/t", or "".
func (r *inboxRun) handle(ctx context.Context, h string) string {
	h = strings.TrimPrefix(h, "@")
	team := strings.Contains(h, "/")
	switch {
	case r.who.team != "":
		if team && strings.EqualFold(h, r.who.team) {
			return "team " + strings.ToLower(h)
		}
	case !team:
		if strings.EqualFold(h, r.who.login) {
			return "login"
		}
	case r.member(ctx, strings.ToLower(h)):
		return "team " + strings.ToLower(h)
	}
	return ""
}

// member reports whether r.who's login is an active member of team, looked up once
// (GET /orgs/{org}/teams/{team_slug}/memberships/{username}). A token that may not read
// the team is said plainly, once, and its questions are not listed: nothing is assumed.
// A 404 is no membership: GitHub answers so for a team the token cannot see, too.
// https://docs.github.com/en/rest/teams/members#get-team-membership-for-a-user
func (r *inboxRun) member(ctx context.Context, team string) bool {
	if m, ok := r.members[team]; ok {
		return m
	}
	org, slug, _ := strings.Cut(team, "/")
	ms, _, err := r.c.gh.Teams.GetTeamMembershipBySlug(ctx, org, slug, r.who.login)
	switch {
	case err == nil:
		r.members[team] = ms.GetState() == "active"
	case ghtransport.IsStatus(err, http.StatusNotFound):
		r.members[team] = false
	default:
		r.members[team] = false
		r.note("@%s: this token may not read the team's members (%v), so its questions are not listed; "+
			"a token that can read the organisation's teams (read:org) lists them", team, shortErr(err))
	}
	return r.members[team]
}

// shortErr is GitHub's answer in a few words: its status and message.
func shortErr(err error) string {
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return fmt.Sprintf("%d %s", er.Response.StatusCode, er.Message)
	}
	return err.Error()
}
