// Package repoconfig parses and validates a repository's `.github/clarify.yml` (or the
// organization default in its `.github` repository) into a clarify.Policy and label names.
//
// Contract: pure. No I/O, no clock; the caller fetches the file and hands over its bytes.
// A broken file must never stop the app, so Parse never half-applies one: on any problem it
// returns Default() together with an *Error that lists every problem found, each with its
// line, the key it is about and a message telling the maintainer what to write instead. The
// caller shows that in one comment and carries on with the defaults.
//
// Parsing is strict: an unknown key, a value of the wrong type (a string where a list is
// expected) or a value out of range is a problem, never silently ignored, because a typo in a
// key would otherwise look like a setting that "does not work". The file is read as a tree of
// yaml.v3 nodes rather than decoded into structs so that every problem keeps its line. A key
// left empty (`sla:` with nothing after it) counts as absent and keeps its default, so a
// template with its entries commented out is valid. Anchors and aliases are refused: they
// hide the value from the reader of the file and could expand without bound.
//
// # Keys
//
// Every key is optional; Reference renders this list as the Markdown table docs/config.md shows.
//
//	roles                    default: none
//	    A role name mapped to its members: logins ("alice", or "@alice"; a GitHub App as
//	    "name[bot]") and teams ("@org/team"). An asker's role comes from here.
//	routes                   default: none, anyone may ask anyone
//	    An asker's role mapped to the targets it may ask. A bare name is a role (it must be one
//	    of roles, when roles is given); "@alice" is a person; "@org/team" a team.
//	max_rounds.blocking      default: 5 (1 to 50)
//	    Rounds of question and answer before a blocking clarification escalates.
//	max_rounds.non_blocking  default: 6 (1 to 50)
//	    The same for a non-blocking clarification.
//	sla                      default: 30m (a Go duration from 1m to 720h)
//	    How long a question may wait before it goes stale; a second wait resolves it with its
//	    fallback, or escalates it.
//	priority                 default: [product-manager, architect, engineer]
//	    Roles, highest first, used to break a deadlock; with roles given, each must be one.
//	escalation.mention       default: none (at most 30)
//	    Logins and teams @mentioned when a clarification escalates.
//	labels.active            default: clarification:active
//	labels.stale             default: clarification:stale
//	labels.escalated         default: clarification:escalated
//	    The labels kept true while any clarification is open, stale or escalated: at most 50
//	    characters each (GitHub's limit) and three distinct names.
//	answer_from              default: targets_and_write
//	    Who may answer: "targets_and_write" (the target and anyone with write access) or
//	    "targets" (the target only).
//	max_per_issue            default: 0 (no quota)
//	    Clarifications one issue may have; 1 is the one-clarification hard cap.
//	require                  default: none
//	    Fields every ask must carry: any of type, options, fallback, topic (fallback names one
//	    of the options, so it needs options too).
//	notify.dispatch          default: false
//	    true sends a repository_dispatch (clarify-answered, clarify-resolved,
//	    clarify-fallback, clarify-abandoned) with the clarification's record when one settles.
//	decisions.offer          default: true
//	    Offer a new question the repository's earlier decision on the same topic (or a
//	    near-identical question) as advice in its round comment.
//	decisions.settle_after   default: none (never; a duration of 1m or more)
//	    Resolve a question whose topic matches a decision exactly with it once it has
//	    waited this long, unless someone who is not a bot comments or reacts 👎 first.
//	decisions.inherit        default: false
//	    true takes the decisions of the owner's .github repository too, or owner/name another
//	    repository's; the repository's own decision on a topic wins over an inherited one.
//	dashboard                default: false
//	    Keep one issue of the app's listing the repository's escalated, stale and open
//	    clarifications and its decisions in force.
//	relations                default: none
//	    blocked-by or sub-issue: each blocking clarification also opens a decision issue
//	    that the issue is blocked by (or that is its sub-issue), closed with the decision.
//	verify_keys              default: none
//	    Where Clarify runs as a workflow: the public keys ("ed25519:BASE64", from bot key
//	    public) its comments are signed under, which askers believe it by.
//
// # What the Policy holds
//
// Logins are stored without a leading @, teams in Policy.Roles and Policy.Routes as
// "@org/team" and in Policy.EscalationMention as "org/team" (the renderer adds the @ when it
// mentions). Role names are kept as written.
package repoconfig
