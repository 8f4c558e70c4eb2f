package handlers

import (
	"context"

	"github.com/clarify-app/clarify/handlers/relations"
)

// relate shows the issue's blocking clarifications in GitHub's own model as the
// repository's relations: says (handlers/relations), into the folded ledger l before the
// save that records it. A repository that never set it, with nothing recorded, costs no
// request; one that unset it still has its edges taken off as their clarifications settle.
func (run *issueRun) relate(ctx context.Context) error {
	l := &run.folded.ledger
	if run.cfg.Relations == "" && len(l.Relations) == 0 {
		return nil
	}
	keys := run.keys(run.ref)
	env := relations.Env{Work: run.ref, Bot: run.BotLogin(), Seal: keys.Seal, Sealed: keys.Sealed, TakenOff: run.trig.TakenOff,
		RepliesHere: run.mode.relaysDecisionReplies()}
	return relations.Keep(ctx, run.client, env, run.cfg.Relations, l)
}
