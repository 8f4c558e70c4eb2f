package handlers

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// actorLookups answers who an actor is for one run, asking GitHub at most once per login
// and only when the answer can matter; team memberships are shared between runs for
// membershipTTL.
type actorLookups struct {
	client  *github.Client
	ref     clarify.IssueRef
	perms   map[string]string
	members *membershipCache
	// flight shares a permission lookup between runs that make it at the same moment.
	flight *cache[permission]
	// self is the app's own login. In bot action it is github-actions[bot], the account
	// every workflow of the repository writes as, some of them started by outsiders: a
	// comment of that account that is not the app's own is a bot's without write access,
	// whatever GitHub says the workflow token may do.
	self string
	// bots says, by login in lower case, whether GitHub reports the account as a bot.
	bots map[string]bool
}

func newActorLookups(client *github.Client, ref clarify.IssueRef, m *caches, self string) *actorLookups {
	return &actorLookups{client: client, ref: ref, perms: map[string]string{}, members: &m.members,
		flight: &m.permissions, self: self, bots: map[string]bool{}}
}

// permission is GitHub's answer for one login's permission on a repository.
type permission struct {
	level string
	// bot and typed say whether GitHub reported the account as a bot, when it did.
	bot, typed bool
}

// actor describes the author of an event. Permissions are looked up only for a command or
// when something in the ledger awaits an answer: a plain comment in a quiet issue costs
// no request.
func (a *actorLookups) actor(ctx context.Context, b *Base, u *github.User, body string, l clarify.Ledger, p clarify.Policy) (clarify.Actor, error) {
	act := clarify.Actor{Login: u.GetLogin(), Bot: u.GetType() == "Bot", Self: b.reader().OwnsBy(a.ref, u, body)}
	if act.Self || act.Login == "" {
		return act, nil
	}
	a.bots[strings.ToLower(act.Login)] = act.Bot
	if clarify.NeedsPermission(l, p, act.Login, act.Bot, body) {
		perm, err := a.permission(ctx, act.Login)
		if err != nil {
			return act, err
		}
		act.Permission = perm
	}
	if clarify.NeedsTeams(l, p, act.Login, act.Bot, body) {
		act.Teams = a.teams(ctx, l, p, act.Login)
	}
	return act, nil
}

// teams looks up the actor's membership of the teams the open clarifications are
// addressed to; none are looked up when no open clarification names a team.
func (a *actorLookups) teams(ctx context.Context, l clarify.Ledger, p clarify.Policy, login string) map[string]bool {
	teams := p.TargetTeams(l)
	if len(teams) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, t := range teams {
		out[t] = a.member(ctx, t, login)
	}
	return out
}

func (a *actorLookups) permission(ctx context.Context, login string) (string, error) {
	if strings.EqualFold(login, a.self) {
		return "none", nil
	}
	if strings.EqualFold(login, a.ref.Owner) {
		// The account that owns a repository administers it (an organisation's name is no
		// person's login), so its answer needs no look-up.
		return "admin", nil
	}
	if p, ok := a.perms[login]; ok {
		return p, nil
	}
	key := a.ref.Owner + "/" + a.ref.Repo + "\x00" + strings.ToLower(login)
	p, _, err := a.flight.load(key, func() (permission, bool, error) {
		p, err := a.ask(ctx, login)
		return p, false, err
	})
	if err != nil {
		return "", err
	}
	if p.typed {
		a.bots[strings.ToLower(login)] = p.bot
	}
	a.perms[login] = p.level
	return p.level, nil
}

// ask asks GitHub for login's permission: none when GitHub knows no such collaborator.
func (a *actorLookups) ask(ctx context.Context, login string) (permission, error) {
	lvl, _, err := a.client.Repositories.GetPermissionLevel(ctx, a.ref.Owner, a.ref.Repo, login)
	switch {
	case ghtransport.IsStatus(err, http.StatusNotFound):
		return permission{level: "none"}, nil
	case err != nil:
		return permission{}, fmt.Errorf("permission of %s on %s/%s: %w", login, a.ref.Owner, a.ref.Repo, err)
	}
	p := permission{level: lvl.GetPermission()}
	if u := lvl.GetUser(); u != nil {
		p.bot, p.typed = u.GetType() == "Bot", true
	}
	return p, nil
}

// now is what GitHub reports now of login, for clarify's rule of who speaks for the
// repository (clarify.Policy.HasStanding): a bot seen in this run costs no request, since
// no bot has standing; anyone else's permission is looked up (once a run).
func (a *actorLookups) now(ctx context.Context, login string) (clarify.Actor, error) {
	act := clarify.Actor{Login: login, Self: strings.EqualFold(login, a.self), Bot: a.bots[strings.ToLower(login)]}
	if act.Self || act.Bot || login == "" {
		return act, nil
	}
	perm, err := a.permission(ctx, login)
	act.Permission, act.Bot = perm, a.bots[strings.ToLower(login)]
	return act, err
}

// member reports whether login is an active member of the team "org/slug". A failed
// look-up counts as not a member (fail closed), is logged, and is not remembered: an app
// without the organization members permission cannot see teams.
func (a *actorLookups) member(ctx context.Context, team, login string) bool {
	org, slug, _ := strings.Cut(team, "/")
	// The runs of a burst that ask about one person at the same moment share the look-up.
	m, _, err := a.members.load(strings.ToLower(team+"\x00"+login), func() (bool, bool, error) {
		ms, _, err := a.client.Teams.GetTeamMembershipBySlug(ctx, org, slug, login)
		switch {
		case err == nil:
			return ms.GetState() == "active", true, nil
		case ghtransport.IsStatus(err, http.StatusNotFound):
			return false, true, nil
		default:
			return false, false, err
		}
	})
	if err != nil {
		zerolog.Ctx(ctx).Warn().Err(err).Str("team", team).Msg("Team membership look-up failed; treating as not a member")
		return false
	}
	return m
}

// membershipTTL is how long a team membership is trusted once looked up: a drive-by
// thread of comments replayed by the next runs must not cost a request per comment and
// team, and a change of membership takes effect within minutes.
const membershipTTL = 10 * time.Minute

// membershipCache remembers team memberships across runs and issues, each for
// membershipTTL (newCaches sets it).
type membershipCache = cache[bool]
