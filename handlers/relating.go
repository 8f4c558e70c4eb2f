package handlers

import (
	"context"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/relations"
)

// relate shows the issue's blocking clarifications in GitHub's own model as the
// repository's relations: says (handlers/relations), into the folded ledger l before the
// save that records it. A repository that never set it, with nothing recorded, costs no
// request; one that unset it still has its edges taken off as their clarifications settle.
func (b *Base) relate(ctx context.Context, client *github.Client, ref clarify.IssueRef, cfg RepoConfig, trig trigger, l *clarify.Ledger) error {
	if cfg.Relations == "" && len(l.Relations) == 0 {
		return nil
	}
	keys := b.keys(ref)
	env := relations.Env{Work: ref, Bot: b.BotLogin(), Seal: keys.Seal, Sealed: keys.Sealed, TakenOff: trig.TakenOff,
		RepliesHere: b.mode.relaysDecisionReplies()}
	return relations.Keep(ctx, client, env, cfg.Relations, l)
}
