package repoconfig

import (
	"crypto/ed25519"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// want is one expected problem: its exact line and key, and a part of its message, which is
// the part that tells the maintainer what to write instead.
type want struct {
	line int
	key  string
	says string
}

// refusals are files Parse must refuse, with every problem it must report, in order.
var refusals = map[string]struct {
	in   string
	want []want
}{
	"unknownKeyNamesItsLine": {"sla: 1h\nslaa: 2h\n",
		[]want{{2, "slaa", `unknown key: did you mean "sla"?`}}},
	"unknownNestedKeyNamesItsLine": {"max_rounds:\n  blocking: 3\n  nonblocking: 4\n",
		[]want{{3, "max_rounds.nonblocking", `did you mean "non_blocking"? The keys under max_rounds are blocking, non_blocking`}}},
	"unknownKeyWithoutNearMatchListsTheKeys": {"colour: red\n",
		[]want{{1, "colour", "remove it, or use one of the keys: roles, routes, max_rounds"}}},
	"unknownKeyInLabelsNamesItsLine": {"labels:\n  open: x\n",
		[]want{{2, "labels.open", "the keys under labels: active, stale, escalated"}}},
	"repeatedKeyIsRefused": {"sla: 1h\nmax_per_issue: 1\nsla: 2h\n",
		[]want{{3, "sla", "appears twice (first on line 1): keep one"}}},
	"listAtTheTopIsRefused": {"- sla: 30m\n",
		[]want{{1, "", `the file must hold keys and values, like "sla: 30m"`}}},
	"textAtTheTopIsRefused": {"hello\n",
		[]want{{1, "", `like "sla: 30m", and it holds "hello"`}}},
	"secondDocumentIsRefused": {"sla: 1h\n---\nsla: 2h\n",
		[]want{{2, "", "remove this --- and what follows"}}},
	"aliasIsRefused": {"max_rounds:\n  blocking: &n 3\n  non_blocking: *n\n",
		[]want{{3, "max_rounds.non_blocking", "aliases (*n) are not supported: write the value out here"}}},
	"complexKeyIsRefused": {"? [a, b]\n: 1\n",
		[]want{{1, "", "a key must be a plain name, and this is a list: write name: value"}}},
	"oddKeyIsQuotedInTheProblem": {"\"sla; x\": 1\n",
		[]want{{1, `"sla; x"`, "unknown key"}}},

	"tabIndentNamesItsLine": {"sla: 30m\nroles:\n\tarchitect: [alice]\n",
		[]want{{3, "", "indent with spaces"}}},
	"unquotedAtSignNamesItsLine": {"sla: 30m\nescalation:\n  mention: [@maria]\n",
		[]want{{3, "", `in quotes, like "@octo/architects"`}}},
	"unclosedBracketNamesItsLine": {"sla: 30m\npriority: [architect, engineer\nmax_per_issue: 1\n",
		[]want{{2, "", "close the [ or { opened on this line"}}},
	"badIndentNamesItsLine": {"roles:\n  architect: [alice]\n engineer: [bob]\n",
		[]want{{3, "", "check this line's indentation"}}},
	"syntaxErrorOnTheFirstLineNamesLineOne": {"sla: 30m: x\nmax_per_issue: 1\n",
		[]want{{1, "", `put a value that contains ": " in quotes`}}},
	"unclosedQuoteNamesItsLine": {"sla: 30m\nlabels:\n  active: \"open\n  stale: old\n",
		[]want{{3, "", "close the quote opened on this line"}}},
	"multiLineQuoteBeforeAnErrorDoesNotMislead": {"labels:\n  active: \"a\n    b\"\nsla: 30m\nroles:\n  a: [x]\n b: [y]\n",
		[]want{{7, "", "check this line's indentation"}}},
	"undefinedAliasNamesItsLine": {"sla: 30m\nmax_per_issue: *one\n",
		[]want{{2, "", "anchors and aliases are not supported"}}},

	"stringWhereListExpectedIsRefused": {"priority: engineer\n",
		[]want{{1, "priority", "expected a list, and this is \"engineer\": write [engineer]"}}},
	"teamWhereListExpectedSuggestsQuotes": {"escalation:\n  mention: \"@octo/maintainers\"\n",
		[]want{{2, "escalation.mention", `write ["@octo/maintainers"]`}}},
	"listWhereDurationExpectedIsRefused": {"sla: [30m]\n",
		[]want{{1, "sla", "expected a duration like 30m or 2h, and this is a list"}}},
	"numberWhereMappingExpectedIsRefused": {"max_rounds: 5\n",
		[]want{{1, "max_rounds", "write max_rounds: {blocking: 5, non_blocking: 6}"}}},
	"listWhereRolesExpectedIsRefused": {"roles:\n  - architect\n",
		[]want{{2, "roles", `write roles: {architect: [alice, "@octo/architects"]}`}}},
	"quotedNumberIsRefused": {"max_per_issue: \"1\"\n",
		[]want{{1, "max_per_issue", "write a whole number of 0 or more (0 for no quota, 1 for one clarification per issue) without quotes"}}},
	"fractionIsRefused": {"max_rounds:\n  blocking: 2.5\n",
		[]want{{2, "max_rounds.blocking", "2.5 is not a whole number from 1 to 50"}}},
	"wordWhereNumberExpectedIsRefused": {"max_rounds:\n  non_blocking: five\n",
		[]want{{2, "max_rounds.non_blocking", `"five" is not a whole number from 1 to 50`}}},
	"hugeNumberIsRefused": {"max_per_issue: 99999999999\n",
		[]want{{1, "max_per_issue", "99999999999 is too large"}}},
	"emptyListEntryIsRefused": {"priority:\n  - architect\n  -\n",
		[]want{{3, "priority", "this entry is empty: remove it, or write a name in it"}}},
	"listInsideAListIsRefused": {"require: [[type]]\n",
		[]want{{1, "require", "expected a name in this list, and this is a list: write [type, options, fallback]"}}},

	"slaWithoutUnitIsRefused": {"sla: 30\n",
		[]want{{1, "sla", `"30" is not a duration (use 30m, 2h)`}}},
	"slaInWordsIsRefused": {"sla: 30 minutes\n",
		[]want{{1, "sla", `"30 minutes" is not a duration (use 30m, 2h)`}}},
	"slaInDaysIsRefused": {"sla: 2d\n",
		[]want{{1, "sla", "a duration has no days, so write hours, like 48h"}}},
	"slaBelowAMinuteIsRefused": {"sla: 30s\n",
		[]want{{1, "sla", `"30s" is too short: write 1m or more`}}},
	"slaAboveThirtyDaysIsRefused": {"sla: 721h\n",
		[]want{{1, "sla", "write at most 720h (30 days)"}}},
	"zeroRoundsIsRefused": {"max_rounds:\n  blocking: 0\n",
		[]want{{2, "max_rounds.blocking", "0 is too small: write a whole number from 1 to 50"}}},
	"tooManyRoundsIsRefused": {"max_rounds:\n  non_blocking: 51\n",
		[]want{{2, "max_rounds.non_blocking", "51 is too large: write a whole number from 1 to 50"}}},
	"negativeQuotaIsRefused": {"max_per_issue: -1\n",
		[]want{{1, "max_per_issue", "-1 is too small: write a whole number of 0 or more"}}},
	"answerFromTypoIsRefused": {"answer_from: target\n",
		[]want{{1, "answer_from", `did you mean "targets"? Write targets_and_write (the targets and anyone with write access) or targets`}}},
	"relationsUnknownIsRefused": {"relations: true\n",
		[]want{{1, "relations", `"true" is not a choice: write blocked-by (the issue blocked by a decision issue) or sub-issue`}}},
	"inheritOfAnOwnerAloneIsRefused": {"decisions:\n  inherit: octo\n",
		[]want{{2, "decisions.inherit", `"octo" is not true, false or a repository: write true (the organisation's .github repository) or owner/name, like octo/.github`}}},
	"inheritOfAPathIsRefused": {"decisions:\n  inherit: octo/..\n",
		[]want{{2, "decisions.inherit", `"octo/.." is not true, false or a repository`}}},
	"inheritOfAnIssueIsRefused": {"decisions:\n  inherit: octo/.github#4\n",
		[]want{{2, "decisions.inherit", `"octo/.github#4" is not true, false or a repository`}}},
	"inheritQuotedTrueIsRefused": {"decisions:\n  inherit: \"yes\"\n",
		[]want{{2, "decisions.inherit", `"yes" is not true, false or a repository`}}},
	"inheritAsAListIsRefused": {"decisions:\n  inherit: [octo/.github]\n",
		[]want{{2, "decisions.inherit", "expected true, or a repository like octo/.github, and this is a list"}}},
	"relationsTypoIsRefused": {"relations: blocked_by\n",
		[]want{{1, "relations", `did you mean "blocked-by"?`}}},
	"answerFromUnknownIsRefused": {"answer_from: anyone\n",
		[]want{{1, "answer_from", `"anyone" is not a choice: write targets_and_write`}}},
	"requireUnknownFieldIsRefused": {"require: [type, evidence]\n",
		[]want{{1, "require", `"evidence" is not a field an ask can carry: write any of type, options, fallback, topic`}}},
	"requireFallbackWithoutOptionsIsRefused": {"require:\n  - type\n  - fallback\n",
		[]want{{3, "require", "write [options, fallback]"}}},
	"requireTwiceIsRefused": {"require: [type, type]\n",
		[]want{{1, "require", `"type" is listed twice (first on line 1): list it once`}}},

	"loginWithSpaceIsRefused": {"roles:\n  architect: [alice, \"bob smith\"]\n",
		[]want{{2, "roles.architect", `"bob smith" is not a login or a team: it has a space`}}},
	"loginWithDoubleHyphenIsRefused": {"roles:\n  architect:\n    - al--ice\n",
		[]want{{3, "roles.architect", "has two hyphens in a row"}}},
	"loginTooLongIsRefused": {"escalation:\n  mention: [" + strings.Repeat("a", 40) + "]\n",
		[]want{{2, "escalation.mention", "is 40 characters long, and GitHub allows at most 39"}}},
	"teamWithBadSlugIsRefused": {"roles:\n  architect: [\"@octo/arch itects\"]\n",
		[]want{{2, "roles.architect", `its team has a space`}}},
	"teamWithBadOrgIsRefused": {"escalation:\n  mention: [\"@-octo/maintainers\"]\n",
		[]want{{2, "escalation.mention", "its organization starts or ends with a hyphen"}}},
	"roleNameWithAtIsRefused": {"roles:\n  \"@architect\": [alice]\n",
		[]want{{2, "roles", `"@architect" is not a role name: it starts with @, which a role name is written without`}}},
	"roleNameWithSpaceIsRefused": {"roles:\n  lead architect: [alice]\n",
		[]want{{2, "roles", "a role name (like a login) has only letters, digits and hyphens. Write a name like architect"}}},
	"roleRepeatedInAnotherCaseIsRefused": {"roles:\n  architect: [alice]\n  Architect: [bob]\n",
		[]want{{3, "roles.Architect", "appears twice (first on line 2): keep one"}}},
	"memberListedTwiceIsRefused": {"roles:\n  architect: [alice, \"@Alice\"]\n",
		[]want{{2, "roles.architect", `"@Alice" is listed twice (first on line 2)`}}},
	"routeToUnknownRoleIsRefused": {"roles:\n  architect: [alice]\n  engineer: [coder-agent]\nroutes:\n  engineer: [archtect]\n",
		[]want{{5, "routes.engineer", `did you mean "architect"? The roles are architect, engineer. Write "@archtect" if you mean the person`}}},
	"routeListingARoleTwiceIsRefused": {"roles:\n  architect: [alice]\nroutes:\n  architect:\n    - architect\n    - \"@architect\"\n",
		[]want{{6, "routes.architect", `"@architect" is listed twice (first on line 5)`}}},
	"routeFromUnknownRoleIsRefused": {"roles:\n  architect: [alice]\nroutes:\n  tester: [architect]\n",
		[]want{{4, "routes", `"tester" is not one of the roles: the roles are architect`}}},
	"routeToBadLoginIsRefused": {"routes:\n  engineer: [\"@al_ice\"]\n",
		[]want{{2, "routes.engineer", `Write a role like architect, a person like "@alice"`}}},
	"routeCheckedAgainstRolesWrittenAfterIt": {"routes:\n  engineer: [pm]\nroles:\n  engineer: [bob]\n",
		[]want{{2, "routes.engineer", `"pm" is not one of the roles`}}},
	"priorityOfUnknownRoleIsRefusedWithRoles": {"roles:\n  architect: [alice]\npriority: [architect, enginer]\n",
		[]want{{3, "priority", `"enginer" is not one of the roles: the roles are architect`}}},
	"priorityTwiceIsRefused": {"priority: [architect, engineer, architect]\n",
		[]want{{1, "priority", `"architect" is listed twice`}}},
	"tooManyMentionsAreRefused": {"escalation:\n  mention:\n" + mentionLines(31),
		[]want{{33, "escalation.mention", "mention a team (@org/team) instead"}}},

	"labelTooLongIsRefused": {"labels:\n  active: " + strings.Repeat("x", 51) + "\n",
		[]want{{2, "labels.active", "is 51 characters long, and GitHub allows at most 50: write a shorter name"}}},
	"emptyLabelIsRefused": {"labels:\n  stale: \"\"\n",
		[]want{{2, "labels.stale", "a label name cannot be empty: write one, or remove the line to keep clarification:stale"}}},
	"labelWithSpaceAroundIsRefused": {"labels:\n  stale: \" old\"\n",
		[]want{{2, "labels.stale", "write the name without it"}}},
	"labelWithLineBreakIsRefused": {"labels:\n  stale: \"a\\nb\"\n",
		[]want{{2, "labels.stale", "write the name on one line"}}},
	"sameLabelTwiceIsRefused": {"labels:\n  active: waiting\n  stale: Waiting\n",
		[]want{{3, "labels.stale", `"Waiting" is also the active label: give each label its own name`}}},
	"labelTakingADefaultNameIsRefused": {"labels:\n  active: clarification:escalated\n",
		[]want{{2, "labels.active", "is the default escalated label: give each label its own name, or set labels.escalated too"}}},

	"oldMacLineBreaksCountAsLines": {"sla: 1h\rsla: 2h\r",
		[]want{{2, "sla", "appears twice (first on line 1)"}}},
	"windowsLineBreaksCountAsLines": {"sla: 1h\r\nroles:\r\n\tarchitect: [alice]\r\n",
		[]want{{3, "", "indent with spaces"}}},
	"invalidUTF8NamesItsLine": {"# notes\nsla: 1h\nlabels:\n  active: \xff\n",
		[]want{{4, "", "the file must be UTF-8 text"}}},
	"tooLargeIsRefused": {"# " + strings.Repeat("x", MaxSize) + "\n",
		[]want{{0, "", "more than the 65536 (64 KiB) a config may have"}}},
	"everyProblemIsReported": {"sla: 30\nmax_rounds:\n  blocking: 0\n  nonblocking: 2\nanswer_from: all\n",
		[]want{
			{1, "sla", "is not a duration"},
			{3, "max_rounds.blocking", "too small"},
			{4, "max_rounds.nonblocking", "unknown key"},
			{5, "answer_from", "is not a choice"},
		}},
}

// mentionLines writes n distinct logins as the items of a block list.
func mentionLines(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("    - m" + strings.Repeat("x", i) + "\n")
	}
	return b.String()
}

func TestParseRefuses(t *testing.T) {
	for name, tc := range refusals {
		t.Run(name, func(t *testing.T) {
			cfg, err := Parse([]byte(tc.in))
			checkRefusal(t, tc.in, cfg, err, tc.want)
		})
	}
}

// checkRefusal asserts that Parse gave the defaults and exactly the wanted problems.
func checkRefusal(t *testing.T, in string, cfg Config, err error, wants []want) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Parse(%q) error = %v, want an *Error", in, err)
	}
	if !reflect.DeepEqual(cfg, Default()) {
		t.Errorf("Parse(%q) config = %+v, want Default() whenever there is a problem", in, cfg)
	}
	if len(e.Problems) != len(wants) {
		t.Fatalf("Parse(%q) problems:\n%s\nwant %d problems", in, list(e.Problems), len(wants))
	}
	for i, w := range wants {
		p := e.Problems[i]
		if p.Line != w.line || p.Key != w.key || !strings.Contains(p.Message, w.says) {
			t.Errorf("problem %d = %s\nwant line %d, key %q, a message with %q", i, p, w.line, w.key, w.says)
		}
		if strings.Contains(p.Message, "; ") || strings.Contains(p.Message, "\n") {
			t.Errorf("problem %d message %q holds \"; \" or a line break, which garble the joined error", i, p.Message)
		}
	}
}

func list(problems []Problem) string {
	var b strings.Builder
	for _, p := range problems {
		b.WriteString("  " + p.String() + "\n")
	}
	return b.String()
}

// full is what testdata/full.yml holds.
func full() Config {
	return Config{
		Policy: clarify.Policy{
			MaxRoundsBlocking:    3,
			MaxRoundsNonBlocking: 4,
			SLA:                  2 * time.Hour,
			Roles: map[string][]string{
				"architect":       {"alice", "@octo/architects"},
				"engineer":        {"coder-agent", "coder-agent[bot]"},
				"product-manager": {"pm-bot"},
			},
			Priority:          []string{"product-manager", "architect", "engineer"},
			EscalationMention: []string{"maria", "octo/maintainers"},
			MaxPerIssue:       1,
			Routes: map[string][]string{
				"engineer":  {"architect", "product-manager", "maria"},
				"architect": {"product-manager"},
			},
			AnswerFrom: clarify.AnswerTargets,
			Require:    []string{"type", "options", "fallback"},
		},
		Notify:     Notify{Dispatch: true},
		Labels:     Labels{Active: "clarify: open", Stale: "clarify: stale", Escalated: "clarify: escalated"},
		Decisions:  Decisions{Offer: false, SettleAfter: 72 * time.Hour, Inherit: "octo/.github"},
		Dashboard:  true,
		Relations:  clarify.RelationBlockedBy,
		VerifyKeys: render.VerifyKeys{mustVerifyKey("ed25519:hAMhwyyLPPLJvPO/mqTw/6T1SoT4hoOWkLsgpK02LCk=")},
	}
}

func TestParseAccepts(t *testing.T) {
	cases := map[string]struct {
		in   string
		want func(c *Config) // changes from Default()
	}{
		"emptyFileIsDefaults":          {"", func(*Config) {}},
		"onlyCommentsIsDefaults":       {"# roles:\n#   architect: [alice]\n", func(*Config) {}},
		"documentMarkerOnlyIsDefaults": {"---\n", func(*Config) {}},
		"emptyMappingIsDefaults":       {"{}\n", func(*Config) {}},
		"trailingEmptyDocumentIsFine":  {"sla: 1h\n---\n", func(c *Config) { c.Policy.SLA = time.Hour }},
		"emptyKeysKeepTheirDefaults":   {"sla:\nlabels:\nmax_rounds:\n  blocking:\nescalation:\n", func(*Config) {}},
		"slaAcceptsAnyGoDuration":      {"sla: 1h30m\n", func(c *Config) { c.Policy.SLA = 90 * time.Minute }},
		"slaAtItsBoundsIsAccepted":     {"sla: 720h\n", func(c *Config) { c.Policy.SLA = 720 * time.Hour }},
		"oneLabelKeepsTheOthers": {"labels:\n  stale: waiting-too-long\n", func(c *Config) {
			c.Labels.Stale = "waiting-too-long"
		}},
		"noQuotaIsZero":                          {"max_per_issue: 0\n", func(*Config) {}},
		"inheritTrueIsTheOwnersGithubRepository": {"decisions:\n  inherit: true\n", func(c *Config) { c.Decisions.Inherit = OrgRepository }},
		"inheritFalseIsNone":                     {"decisions:\n  inherit: false\n", func(*Config) {}},
		"inheritNamesARepository":                {"decisions:\n  inherit: octo/policies\n", func(c *Config) { c.Decisions.Inherit = "octo/policies" }},
		"inheritLeftEmptyIsNone":                 {"decisions:\n  inherit:\n", func(*Config) {}},
		"hardCapIsOne":                           {"max_per_issue: 1\n", func(c *Config) { c.Policy.MaxPerIssue = 1 }},
		"membersAreNormalised": {"roles:\n  architect: [\"@alice\", octo/architects, \"@octo/leads\", \"agent[bot]\"]\n", func(c *Config) {
			c.Policy.Roles = map[string][]string{"architect": {"alice", "@octo/architects", "@octo/leads", "agent[bot]"}}
		}},
		"roleWithoutMembersIsKept": {"roles:\n  architect:\n  engineer: []\n", func(c *Config) {
			c.Policy.Roles = map[string][]string{"architect": {}, "engineer": {}}
		}},
		"mentionsKeepTeamsWithoutAt": {"escalation:\n  mention: [\"@maria\", \"@octo/maintainers\", octo/leads]\n", func(c *Config) {
			c.Policy.EscalationMention = []string{"maria", "octo/maintainers", "octo/leads"}
		}},
		"routesResolveLikeACommand": {"roles:\n  architect: [alice]\n  engineer: [bob]\nroutes:\n  engineer: [\"@architect\", \"@carol\", \"@octo/leads\"]\n", func(c *Config) {
			c.Policy.Roles = map[string][]string{"architect": {"alice"}, "engineer": {"bob"}}
			c.Policy.Routes = map[string][]string{"engineer": {"architect", "carol", "@octo/leads"}}
		}},
		"routesWithoutRolesTakeBareNames": {"routes:\n  engineer: [architect, \"@carol\"]\n", func(c *Config) {
			c.Policy.Routes = map[string][]string{"engineer": {"architect", "carol"}}
		}},
		"priorityWithoutRolesTakesAnyRoleName": {"priority: [lead, engineer]\n", func(c *Config) {
			c.Policy.Priority = []string{"lead", "engineer"}
		}},
		"numbersInOtherBasesAreAccepted": {"max_rounds:\n  blocking: 0x0a\n", func(c *Config) { c.Policy.MaxRoundsBlocking = 10 }},
		"answerFromTargets":              {"answer_from: targets\n", func(c *Config) { c.Policy.AnswerFrom = clarify.AnswerTargets }},
		"fullExampleParses":              {readFile(t, "testdata/full.yml"), func(c *Config) { *c = full() }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatalf("Parse(%q) error:\n%s", tc.in, err)
			}
			want := Default()
			tc.want(&want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Parse(%q)\n got %+v\nwant %+v", tc.in, got, want)
			}
		})
	}
}

func TestBrokenExampleReportsEveryProblem(t *testing.T) {
	in := readFile(t, "testdata/broken.yml")
	cfg, err := Parse([]byte(in))
	checkRefusal(t, in, cfg, err, []want{
		{3, "roles.architect", "write [alice]"},
		{4, "roles.engineer", `"al ice" is not a login or a team`},
		{6, "routes.engineer", `did you mean "architect"?`},
		{7, "routes", `"tester" is not one of the roles`},
		{9, "max_rounds.blocking", "write a whole number from 1 to 50"},
		{10, "max_rounds.nonblocking", `did you mean "non_blocking"?`},
		{11, "sla", "(use 30m, 2h)"},
		{12, "priority", `"product-manager" is not one of the roles`},
		{14, "labels.active", "is the default stale label"},
		{15, "answer_from", "write targets_and_write"},
		{16, "max_per_issue", "write a whole number of 0 or more"},
		{17, "require", "write any of type, options, fallback, topic"},
	})
}

func TestErrorText(t *testing.T) {
	_, err := Parse([]byte("roles:\n  architect: [alice]\nmax_per_issue: 1\nsla: \"30\"\n"))
	if got, want := err.Error(), `line 4: sla: "30" is not a duration (use 30m, 2h)`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	_, err = Parse([]byte("sla: 30\nmax_per_issue: -1\n"))
	want := `line 1: sla: "30" is not a duration (use 30m, 2h); line 2: max_per_issue: -1 is too small: write a whole number of 0 or more (0 for no quota, 1 for one clarification per issue)`
	if got := err.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got := (Problem{Message: "too large"}).String(); got != "too large" {
		t.Errorf("a problem without line or key renders as %q", got)
	}
}

func TestManyProblemsAreSummedUp(t *testing.T) {
	in := "priority:\n" + strings.Repeat("  - architect\n", 101)
	_, err := Parse([]byte(in))
	var e *Error
	if !errors.As(err, &e) || len(e.Problems) != maxProblems+1 {
		t.Fatalf("Parse(100 repeated entries) = %v, want %d problems and a summary", err, maxProblems)
	}
	last := e.Problems[maxProblems]
	if want := (Problem{Line: 33, Message: "70 more problems from this line on are not listed: fix the ones above and check the file again"}); last != want {
		t.Errorf("summary = %#v, want %#v", last, want)
	}
}

func TestDefault(t *testing.T) {
	d := Default()
	if !reflect.DeepEqual(d.Policy, clarify.DefaultPolicy()) {
		t.Errorf("Default().Policy = %+v, want clarify.DefaultPolicy()", d.Policy)
	}
	if d.Labels != (Labels{"clarification:active", "clarification:stale", "clarification:escalated"}) {
		t.Errorf("Default().Labels = %+v", d.Labels)
	}
	d.Policy.Priority[0] = "changed"
	if Default().Policy.Priority[0] == "changed" {
		t.Error("Default() shares its Priority slice between calls")
	}
}

// TestReferenceCoversEveryKey keeps docs/config.md's table, doc.go and the full example in step
// with the keys the parser knows.
func TestReferenceCoversEveryKey(t *testing.T) {
	var keys []string
	for _, k := range topKeys {
		switch k {
		case "max_rounds":
			keys = append(keys, prefixed(k, maxRoundsKeys)...)
		case "escalation":
			keys = append(keys, prefixed(k, escalationKeys)...)
		case "labels":
			keys = append(keys, prefixed(k, labelKeys)...)
		case "notify":
			keys = append(keys, prefixed(k, notifyKeys)...)
		case "decisions":
			keys = append(keys, prefixed(k, decisionKeys)...)
		default:
			keys = append(keys, k)
		}
	}
	var documented []string
	for _, r := range reference {
		documented = append(documented, r.key)
	}
	if !reflect.DeepEqual(documented, keys) {
		t.Errorf("reference lists %v, want every key in order: %v", documented, keys)
	}
	ref, doc, example := Reference(), readFile(t, "doc.go"), readFile(t, "testdata/full.yml")
	for _, k := range keys {
		if !strings.Contains(ref, "| `"+k+"` |") {
			t.Errorf("Reference() has no row for %s", k)
		}
		if !strings.Contains(doc, "//\t"+k+" ") {
			t.Errorf("doc.go does not document %s", k)
		}
		leaf := k[strings.LastIndex(k, ".")+1:]
		if !strings.Contains(example, leaf+":") {
			t.Errorf("testdata/full.yml does not set %s", k)
		}
	}
	if !strings.HasPrefix(ref, "| key | default | meaning |\n|---|---|---|\n") {
		t.Errorf("Reference() does not start with the table's header:\n%s", ref)
	}
}

func prefixed(prefix string, keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = prefix + "." + k
	}
	return out
}

func readFile(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestNotifyDispatchTakesOnlyTrueOrFalse(t *testing.T) {
	cfg, err := Parse([]byte("notify:\n  dispatch: true\n"))
	if err != nil || !cfg.Notify.Dispatch {
		t.Fatalf("notify.dispatch: true gives %+v, %v; want Dispatch on", cfg.Notify, err)
	}
	for in, problem := range map[string]want{
		"sla: 1h\nnotify:\n  dispatch: yes\n":   {3, "notify.dispatch", "write true or false"},
		"notify: true\n":                        {1, "notify", "write notify: {dispatch: true}"},
		"notify:\n  dispatch: true\n  web: 1\n": {3, "notify.web", "unknown key"},
	} {
		cfg, err := Parse([]byte(in))
		checkRefusal(t, in, cfg, err, []want{problem})
	}
}

func mustVerifyKey(s string) ed25519.PublicKey {
	pub, err := render.ParseVerifyKey(s)
	if err != nil {
		panic(err)
	}
	return pub
}

// TestInheritFromNamesTheDecidingRepository: true is the owner's .github repository, a
// name is that repository, and a repository never inherits from itself.
func TestInheritFromNamesTheDecidingRepository(t *testing.T) {
	cases := map[string]struct {
		inherit, owner, repo string
		o, r                 string
		ok                   bool
	}{
		"noneInheritsNothing":           {"", "octo", "widgets", "", "", false},
		"trueIsTheOwnersGithub":         {OrgRepository, "octo", "widgets", "octo", ".github", true},
		"aNameIsThatRepository":         {"acme/policies", "octo", "widgets", "acme", "policies", true},
		"theGithubRepositoryItself":     {OrgRepository, "octo", ".github", "", "", false},
		"itselfByNameInAnyCase":         {"Octo/Widgets", "octo", "widgets", "", "", false},
		"aMalformedNameInheritsNothing": {"octo", "octo", "widgets", "", "", false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o, r, ok := Decisions{Inherit: tc.inherit}.InheritFrom(tc.owner, tc.repo)
			if o != tc.o || r != tc.r || ok != tc.ok {
				t.Errorf("InheritFrom(%s/%s) with %q = %s/%s %v, want %s/%s %v", tc.owner, tc.repo, tc.inherit, o, r, ok, tc.o, tc.r, tc.ok)
			}
		})
	}
}
