package decisions

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
	"github.com/clarify-app/clarify/repoconfig"
)

// A repository may take its organisation's decisions as well as its own
// (decisions.inherit, docs/organisations.md#inherited-decisions). The deciding repository
// keeps them in its own memory, as any repository does; the inheriting one only reads it,
// through the same cache as its own, and never writes it: what was decided there is
// changed there, by someone with write access there.

// inheritedFrom is the repository (owner/name) whose decisions ref's repository inherits,
// or "" for none.
func inheritedFrom(ref clarify.IssueRef, cfg repoconfig.Decisions) string {
	o, r, ok := cfg.InheritFrom(ref.Owner, ref.Repo)
	if !ok {
		return ""
	}
	return o + "/" + r
}

// decisionsOf is the decisions of the repository from (owner/name, "" for none) that a
// repository inherits, as this process last read them less than TTL ago, else read once for
// every run that asks at that moment, and from which repository (""). Advice is best
// effort: an inherited repository that cannot be read (gone, outside the installation,
// GitHub failing) is logged and left out, and never holds up the question.
func decisionsOf(ctx context.Context, h Host, client *github.Client, from string) (string, clarify.Memory) {
	o, r, ok := clarify.ParseRepo(from)
	if !ok {
		return "", clarify.Memory{}
	}
	book, err := h.Caches().Book(from, func() (ledger.MemoryBook, bool, error) {
		book, err := Read(ctx, h, client, o, r)
		return book, err == nil, err
	})
	if err != nil {
		zerolog.Ctx(ctx).Warn().Err(err).Str("inherited_from", from).Msg("Inherited decisions not read: the new question goes without them")
		return "", clarify.Memory{}
	}
	// Not the owed decisions' repair: that writes the deciding repository's memory, which
	// is that repository's runs' to do. Its pending decisions and the replicas' are reads.
	return from, withPending(ctx, h, client, book, false, o, r).Memory
}

// inheritedSupersede refuses a supersede of a decision that the repository inherited, not
// made: only someone with write access where it was decided replaces it, there. It reports
// whether it refused; a decision the repository made itself under the same id is its own
// to replace, as usual.
func inheritedSupersede(ctx context.Context, r Run, inherits string, l clarify.Ledger, e clarify.Effect) (bool, error) {
	h := r.Host()
	from, inherited := decisionsOf(ctx, h, r.Client(), inherits)
	if from == "" || !holds(inherited, e.ClarificationID) {
		return false, nil
	}
	own, err := offerMemory(ctx, h, r.Client(), r.Ref().Owner, r.Ref().Repo)
	if err != nil {
		return false, err
	}
	if holds(own.Memory, e.ClarificationID) {
		return false, nil
	}
	reply := clarify.Reply{Kind: clarify.ReplyRefusal, Code: clarify.CodeNotPermitted, To: e.Reply.To, Quote: e.Reply.Quote,
		Problem: fmt.Sprintf("%s was decided in %s, whose decisions this repository inherits: only someone with write access there replaces it, with `/clarify supersede %s …` in one of its issues.",
			e.ClarificationID, from, e.ClarificationID),
		Try: "to set it aside here, answer or resolve your own question as usual: this repository's own decision on the topic then wins over the inherited one."}
	_, err = r.PostOnce(ctx, render.Marker(e.Key), render.Reply(reply, l, e.Key))
	return true, err
}

// holds reports whether the memory has a decision of clarification id, in force or not.
func holds(m clarify.Memory, id string) bool {
	return slices.ContainsFunc(m.Decisions, func(d clarify.Decision) bool { return d.ID == id })
}
