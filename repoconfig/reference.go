package repoconfig

import (
	"fmt"
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// keyDoc documents one key of the file, for Reference.
type keyDoc struct {
	key, def, meaning string
}

// reference lists every key, in the order of topKeys; its defaults come from the constants
// the parser uses, so the table cannot drift from the code.
var reference = []keyDoc{
	{"roles", "none",
		`Role name → its members: logins (` + "`alice`" + `; a GitHub App as ` + "`name[bot]`" + `) and teams (` + "`\"@org/team\"`" + `). An asker's role comes from here.`},
	{"routes", "none: anyone may ask anyone",
		`Asker role → the targets it may ask. A bare name is a role (one of ` + "`roles`" + `, when given); ` + "`\"@alice\"`" + ` is a person, ` + "`\"@org/team\"`" + ` a team.`},
	{"max_rounds.blocking", fmt.Sprint(clarify.DefaultMaxRoundsBlocking),
		fmt.Sprintf("Rounds of question and answer before a blocking clarification escalates (%d to %d).", minRounds, maxRounds)},
	{"max_rounds.non_blocking", fmt.Sprint(clarify.DefaultMaxRoundsNonBlocking),
		fmt.Sprintf("The same for a non-blocking clarification (%d to %d).", minRounds, maxRounds)},
	{"sla", clarify.FormatDuration(clarify.DefaultSLA),
		fmt.Sprintf("How long a question may wait before it goes stale; a second wait resolves it with its fallback, or escalates it. A Go duration (`30m`, `2h`) from %s to %s.", clarify.FormatDuration(minSLA), clarify.FormatDuration(maxSLA))},
	{"priority", "[" + strings.Join(clarify.DefaultPriority, ", ") + "]",
		"Roles, highest first, used to break a deadlock. With `roles` given, each must be one of them."},
	{"escalation.mention", "none",
		fmt.Sprintf("Logins and teams @mentioned when a clarification escalates (at most %d).", maxMentions)},
	{"labels.active", DefaultLabelActive,
		fmt.Sprintf("Label kept on an issue while any clarification is open. Each label: at most %d characters, and the three distinct.", maxLabelLen)},
	{"labels.stale", DefaultLabelStale, "Label kept while any clarification is stale."},
	{"labels.escalated", DefaultLabelEscalated, "Label kept while any clarification is escalated."},
	{"answer_from", clarify.AnswerTargetsAndWrite,
		"Who may answer: `" + clarify.AnswerTargetsAndWrite + "` (the target, and anyone with write access) or `" + clarify.AnswerTargets + "` (the target only). A question that needs several people (`Needs:`) takes its target's answers only, either way."},
	{"max_per_issue", "0",
		"Clarifications one issue may have; `0` is no quota, `1` the one-clarification hard cap (a further ask is refused and pointed to `/assume`)."},
	{"require", "none",
		"Fields every ask must carry: any of `" + strings.Join(requireChoices, "`, `") + "` (`fallback` names one of the options, so it needs `options` too)."},
	{"notify.dispatch", "false",
		"`true` sends a `repository_dispatch` (`clarify-answered`, `clarify-resolved`, `clarify-fallback`, `clarify-abandoned`) with the clarification's record as `client_payload` whenever one settles, so that an agent's workflow resumes without polling."},
	{"decisions.offer", "true",
		"Offer a new question the repository's earlier decision on the same topic (or a near-identical question) as advice in its round comment; `false` turns it off."},
	{"decisions.settle_after", "none: never",
		"A Go duration of `1m` or more: a question whose topic matches a decision in force exactly is resolved with it once it has waited this long, unless someone who is not a bot comments or reacts 👎 to the offer first (never one that needs several people); `/clarify undo CLR-…` reopens it."},
	{"decisions.inherit", "false",
		"`true` takes the decisions of the organisation's `" + OrgRepository + "` repository as well as this repository's own; `owner/name` names another repository to take them from. An offer says where a decision was made, the repository's own decision on a topic wins, and an inherited one settles a question only after the same `settle_after` window for objection; only someone with write access on the deciding repository supersedes it, there ([Inherited decisions](organisations.md#inherited-decisions))."},
	{"dashboard", "false",
		"`true` keeps one issue of the app's listing the repository's escalated, stale and open clarifications and its decisions in force; closed by a person, it stays closed until reopened."},
	{"relations", "none",
		"`" + clarify.RelationBlockedBy + "` or `" + clarify.RelationSubIssue + "`: each blocking clarification also opens a decision issue, named for the question and linking back, that the issue is blocked by (or that is its sub-issue), so that GitHub's sidebar, Projects and whatever reads issue dependencies show the issue as waiting; the edge comes off and the decision issue closes with the decision when the clarification settles ([Relations](organisations.md#relations))."},
	{"verify_keys", "none",
		"Where Clarify runs as a workflow: the public keys (`ed25519:BASE64`, the line `bot key public` prints) its comments are signed under; an asker believes github-actions[bot]'s comments only with a signature under one of them, and finds from them that Clarify writes as github-actions[bot] here. List the new key beside the old while rotating ([the workflow](workflow.md#the-ledger-key)). Without it, or with another key than the workflow signs with, the asker's client stops at once with `cannot-verify` (exit 6) and the line to add ([the client](asking.md#asking-from-anywhere-bot-ask-bot-wait-bot-status-bot-mcp))."},
}

// Reference renders every key of the config file as a Markdown table (key | default |
// meaning), for docs/config.md.
func Reference() string {
	var b strings.Builder
	b.WriteString("| key | default | meaning |\n|---|---|---|\n")
	for _, k := range reference {
		def := k.def
		if def != "none" && !strings.HasPrefix(def, "none:") {
			def = "`" + def + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", k.key, def, k.meaning)
	}
	return b.String()
}
