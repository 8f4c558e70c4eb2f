package clarify

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// parseCase is one comment body and what Parse makes of it. A case with a problem expects a
// *ParseError whose Problem and Try contain the given substrings and whose Line is line.
type parseCase struct {
	body    string
	want    Command
	problem string
	try     string
	line    string
}

// parseCases is shared with FuzzParse, which seeds its corpus with these bodies.
var parseCases = map[string]parseCase{
	// Plain replies.
	"emptyBodyIsAnEmptyPlainReply": {
		body: "",
		want: Command{},
	},
	"plainReplyKeepsItsWords": {
		body: "  Use UTC everywhere.\n\nThe reports can convert.  ",
		want: Command{Text: "Use UTC everywhere.\n\nThe reports can convert."},
	},
	"plainReplyTakesTheFirstIDItNames": {
		body: "About clr-42-3: yes.\nNot CLR-42-001.",
		want: Command{ID: "CLR-42-003", Text: "About clr-42-3: yes.\nNot CLR-42-001."},
	},
	"idInCodeIsNotTheReplysID": {
		body: "```\nCLR-42-001\n```\nI meant CLR-42-2.",
		want: Command{ID: "CLR-42-002", Text: "```\nCLR-42-001\n```\nI meant CLR-42-2."},
	},
	"idInQuoteIsNotTheReplysID": {
		body: "> Re CLR-42-001\n\nYes, do it.",
		want: Command{Text: "Yes, do it."},
	},
	"idGluedToAWordIsNotAnID": {
		body: "XCLR-42-1 and CLR-42-1x and CLR-42",
		want: Command{Text: "XCLR-42-1 and CLR-42-1x and CLR-42"},
	},
	"emailReplyQuotingTheThreadIsPlainReply": {
		body: "Yes, UTC.\r\n\r\nOn Mon, 1 Jan 2024 at 10:00, clarify-bot wrote:\r\n> /clarify @architect Which timezone?\r\n> Options:\r\n> a) UTC\r\n>\r\n> > /respond CLR-42-001 local\r\n",
		want: Command{Text: "Yes, UTC."},
	},
	"quotedCommandIsNotACommand": {
		body: "> /clarify @architect Which database should the cache use?",
		want: Command{},
	},
	"nestedQuotedCommandsAreNotCommands": {
		body: "> > /respond yes\n>> /assume UTC\n  > /clarify stats",
		want: Command{},
	},
	"htmlCommentIsNotPartOfTheReply": {
		body: "Yes<!-- internal note -->, UTC.",
		want: Command{Text: "Yes, UTC."},
	},
	"otherSlashLinesAreText": {
		body: "/cc @alice\n/lgtm\n/usr/bin/env bash",
		want: Command{Text: "/cc @alice\n/lgtm\n/usr/bin/env bash"},
	},
	"commandWordGluedToPunctuationIsText": {
		body: "/clarify: what does this do?\n/clarifying /respond-later",
		want: Command{Text: "/clarify: what does this do?\n/clarifying /respond-later"},
	},

	// Where a command can be.
	"commandInFenceIsIgnored": {
		body: "```\n/clarify @architect Which database should the cache use?\n```",
		want: Command{Text: "```\n/clarify @architect Which database should the cache use?\n```"},
	},
	"commandInTildeFenceIsIgnored": {
		body: "~~~ text\n/respond yes\n~~~",
		want: Command{Text: "~~~ text\n/respond yes\n~~~"},
	},
	"shorterClosingFenceLeavesTheCommandInside": {
		body: "````\n```\n/respond no\n````\n/respond yes",
		want: Command{Kind: CmdRespond, Line: "/respond yes", Text: "yes"},
	},
	"longerClosingFenceClosesTheFence": {
		body: "```\n/respond no\n`````\n/respond yes",
		want: Command{Kind: CmdRespond, Line: "/respond yes", Text: "yes"},
	},
	"commandInUnclosedFenceIsIgnored": {
		body: "Example:\n```sh\n/respond yes",
		want: Command{Text: "Example:\n```sh\n/respond yes"},
	},
	"commandInIndentedCodeIsIgnored": {
		body: "Type this:\n\n    /respond yes",
		want: Command{Text: "Type this:\n\n    /respond yes"},
	},
	"tabIndentedCommandIsIgnored": {
		body: "\t/respond yes",
		want: Command{Text: "/respond yes"},
	},
	"commandIndentedUpToThreeSpacesCounts": {
		body: "   /respond yes",
		want: Command{Kind: CmdRespond, Line: "/respond yes", Text: "yes"},
	},
	"commandHiddenInMultiLineHTMLCommentIsIgnored": {
		body: "Thanks!\n<!--\n/clarify @architect Which database should the cache use?\n-->",
		want: Command{Text: "Thanks!"},
	},
	"commandHiddenInUnclosedHTMLCommentIsIgnored": {
		body: "Thanks! <!-- draft\n/respond yes",
		want: Command{Text: "Thanks!"},
	},
	"commandAfterHTMLCommentCounts": {
		body: "<!-- issue template -->\n/respond yes",
		want: Command{Kind: CmdRespond, Line: "/respond yes", Text: "yes"},
	},
	"quotedCommandAfterCommentInQuoteIsIgnored": {
		body: "> <!-- x\n> --> /respond yes",
		want: Command{},
	},
	"commentOpenerInCodeSpanIsLiteral": {
		body: "/respond escape `<!--` in titles\nthen done",
		want: Command{Kind: CmdRespond, Line: "/respond escape `<!--` in titles", Text: "escape `<!--` in titles\nthen done"},
	},
	"commandWordIsCaseInsensitive": {
		body: "/RESPOND Yes",
		want: Command{Kind: CmdRespond, Line: "/RESPOND Yes", Text: "Yes"},
	},
	"quotedSecondCommandDoesNotCount": {
		body: "/respond yes\n> /clarify @architect Which database should the cache use?",
		want: Command{Kind: CmdRespond, Line: "/respond yes", Text: "yes"},
	},
	"twoCommandsAreRefused": {
		body:    "/clarify @architect Which database should the cache use?\n/respond yes",
		problem: "one command per comment",
		try:     "separate comments, one with `/clarify @architect Which database should the cache use?` and another with `/respond yes`",
		line:    "/respond yes",
	},

	// Asking.
	"askWithTarget": {
		body: "/clarify @architect Which database should the cache use?",
		want: Command{Kind: CmdAsk, Line: "/clarify @architect Which database should the cache use?", Target: "architect", Text: "Which database should the cache use?"},
	},
	"askCommandWordInAnyCase": {
		body: "/Clarify @architect Which database?",
		want: Command{Kind: CmdAsk, Line: "/Clarify @architect Which database?", Target: "architect", Text: "Which database?"},
	},
	"askToATeam": {
		body: "/clarify @my-org/backend_team Which database?",
		want: Command{Kind: CmdAsk, Line: "/clarify @my-org/backend_team Which database?", Target: "my-org/backend_team", Text: "Which database?"},
	},
	"askTargetMayEndInAColon": {
		body: "/clarify @alice: Which database?",
		want: Command{Kind: CmdAsk, Line: "/clarify @alice: Which database?", Target: "alice", Text: "Which database?"},
	},
	"nonBlockingAfterTheTarget": {
		body: "/clarify @architect --non-blocking Which database?",
		want: Command{Kind: CmdAsk, Line: "/clarify @architect --non-blocking Which database?", Target: "architect", NonBlocking: true, Text: "Which database?"},
	},
	"nonBlockingBeforeTheTarget": {
		body: "/clarify --non-blocking @architect Which database?",
		want: Command{Kind: CmdAsk, Line: "/clarify --non-blocking @architect Which database?", Target: "architect", NonBlocking: true, Text: "Which database?"},
	},
	"nonblockingAsOneWord": {
		body: "/clarify @architect --NonBlocking Which database?",
		want: Command{Kind: CmdAsk, Line: "/clarify @architect --NonBlocking Which database?", Target: "architect", NonBlocking: true, Text: "Which database?"},
	},
	"askQuestionContinuesOnTheFollowingLines": {
		body: "Hi team,\n/clarify @architect Which database?\nWe need persistence.\n\n```sql\nSELECT 1;\n\n```\n> an old quote\n<!-- hidden -->\nThanks",
		want: Command{Kind: CmdAsk, Line: "/clarify @architect Which database?", Target: "architect",
			Text: "Which database?\nWe need persistence.\n\n```sql\nSELECT 1;\n\n```\nThanks"},
	},
	"askQuestionOnlyInTheBody": {
		body: "/clarify @architect\n\nWhich database?",
		want: Command{Kind: CmdAsk, Line: "/clarify @architect", Target: "architect", Text: "Which database?"},
	},
	"longFormAskWithOptionsAndFallback": {
		body: "/clarify @architect --non-blocking Which database should the cache use?\r\n" +
			"Topic: cache storage\r\n" +
			"Type: mutually-exclusive-requirements\r\n" +
			"Options:\r\n" +
			"a) Postgres, which we run already\r\n" +
			"b) Redis\r\n" +
			"c) Both\r\n" +
			"Fallback: a\r\n" +
			"Evidence: the spec asks for persistence\r\n" +
			"- docs/spec.md section 3\r\n" +
			"* load test: 2k req/s\r\n" +
			"\r\n" +
			"The cache must survive restarts.\r\n",
		want: Command{Kind: CmdAsk, Line: "/clarify @architect --non-blocking Which database should the cache use?", Target: "architect", NonBlocking: true,
			Text:     "Which database should the cache use?\n\nThe cache must survive restarts.",
			Topic:    "cache storage",
			Type:     "mutually-exclusive-requirements",
			Options:  []Option{{"a", "Postgres, which we run already"}, {"b", "Redis"}, {"c", "Both"}},
			Fallback: "a",
			Evidence: []string{"the spec asks for persistence", "docs/spec.md section 3", "load test: 2k req/s"},
		},
	},
	"optionsInOtherSpellings": {
		body: "/clarify @architect Which database?\nOptions:\n- a) Postgres\n  b. Redis\n(c) Both\n\nFallback: (B)",
		want: Command{Kind: CmdAsk, Line: "/clarify @architect Which database?", Target: "architect", Text: "Which database?",
			Options: []Option{{"a", "Postgres"}, {"b", "Redis"}, {"c", "Both"}}, Fallback: "b"},
	},
	"optionsOnTheOptionsLine": {
		body: "/clarify @architect Which zone?\nOptions: a) UTC b) local time\nFallback: a) UTC",
		want: Command{Kind: CmdAsk, Line: "/clarify @architect Which zone?", Target: "architect", Text: "Which zone?",
			Options: []Option{{"a", "UTC"}, {"b", "local time"}}, Fallback: "a"},
	},
	"optionTextContinuesOnAnIndentedLine": {
		body: "/clarify @architect Which zone?\nOptions:\na) UTC,\n   everywhere\nb) local\nSo which one?",
		want: Command{Kind: CmdAsk, Line: "/clarify @architect Which zone?", Target: "architect", Text: "Which zone?\nSo which one?",
			Options: []Option{{"a", "UTC, everywhere"}, {"b", "local"}}},
	},
	"fieldNamesAreCaseInsensitiveAndMayBeBold": {
		body: "/clarify @security Can we log tokens?\nTOPIC: logging\n**Type:** Security_Decision\n__Evidence__: audit finding 12",
		want: Command{Kind: CmdAsk, Line: "/clarify @security Can we log tokens?", Target: "security", Text: "Can we log tokens?",
			Topic: "logging", Type: "security-decision", Evidence: []string{"audit finding 12"}},
	},
	"fieldsInsideCodeAreQuestionText": {
		body: "/clarify @architect Is this config right?\n```yaml\nType: whatever\nOptions:\n```",
		want: Command{Kind: CmdAsk, Line: "/clarify @architect Is this config right?", Target: "architect", Text: "Is this config right?\n```yaml\nType: whatever\nOptions:\n```"},
	},
	"evidenceItemsStopAtABlankLine": {
		body: "/clarify @architect Which zone?\nEvidence:\n- one\n- two\n\n- not evidence",
		want: Command{Kind: CmdAsk, Line: "/clarify @architect Which zone?", Target: "architect", Text: "Which zone?\n\n- not evidence",
			Evidence: []string{"one", "two"}},
	},
	"evidenceItemsStopAtAnotherField": {
		body: "/clarify @architect Which zone?\nEvidence:\n- one\nTopic: time\n- not evidence",
		want: Command{Kind: CmdAsk, Line: "/clarify @architect Which zone?", Target: "architect", Text: "Which zone?\n- not evidence",
			Topic: "time", Evidence: []string{"one"}},
	},
	"askWithoutAQuestionIsRefused": {
		body:    "/clarify @architect",
		problem: "the question is empty",
		try:     "`/clarify @architect Which database should the cache use?`",
		line:    "/clarify @architect",
	},
	"askWithOnlyFieldsIsRefused": {
		body:    "/clarify @architect\nTopic: cache",
		problem: "the question is empty",
		try:     "`/clarify @architect Which database should the cache use?`",
		line:    "/clarify @architect",
	},
	"bareWordBeforeTheQuestionIsLeftToApplyAsARole": {
		body: "/clarify Which database should the cache use?",
		want: Command{Kind: CmdAsk, Line: "/clarify Which database should the cache use?", Target: "Which", BareTarget: true, Text: "database should the cache use?"},
	},
	"nonBlockingBeforeABareRole": {
		body: "/clarify --non-blocking architect Which database?",
		want: Command{Kind: CmdAsk, Line: "/clarify --non-blocking architect Which database?", Target: "architect", BareTarget: true, NonBlocking: true, Text: "Which database?"},
	},
	"askToARoleWithoutAt": {
		body: "/clarify architect Which database?",
		want: Command{Kind: CmdAsk, Line: "/clarify architect Which database?", Target: "architect", BareTarget: true, Text: "Which database?"},
	},
	"bareRoleMayEndInAColonAndTakeFlags": {
		body: "/clarify Architect: --non-blocking Which database?",
		want: Command{Kind: CmdAsk, Line: "/clarify Architect: --non-blocking Which database?", Target: "Architect", BareTarget: true, NonBlocking: true, Text: "Which database?"},
	},
	"bareRoleWithTheQuestionOnlyInTheBody": {
		body: "/clarify architect\n\nWhich database?",
		want: Command{Kind: CmdAsk, Line: "/clarify architect", Target: "architect", BareTarget: true, Text: "Which database?"},
	},
	"bareRoleWithOnlyFieldsHasAnEmptyQuestion": {
		body:    "/clarify architect\nTopic: cache",
		problem: "the question is empty",
		try:     "`/clarify architect Which database should the cache use?`",
		line:    "/clarify architect",
	},
	"questionStartingWithNoPossibleTargetIsRefused": {
		body:    "/clarify What's the cache for?",
		problem: "an ask needs a target right after `/clarify`: a configured role by its name, a person as `@login` or a team as `@org/team`.",
		try:     "`/clarify architect Which database should the cache use?`, or `/clarify @alice",
		line:    "/clarify What's the cache for?",
	},
	"nonBlockingWithNoPossibleTargetIsRefused": {
		body:    "/clarify --non-blocking (urgent) Which database?",
		problem: "an ask needs a target",
		try:     "`/clarify architect Which database should the cache use?`",
		line:    "/clarify --non-blocking (urgent) Which database?",
	},
	"teamWithoutAtIsRefusedWithTheAtForm": {
		body:    "/clarify my-org/backend Which database?",
		problem: "a team is addressed with @",
		try:     "`/clarify @my-org/backend Which database should the cache use?`",
		line:    "/clarify my-org/backend Which database?",
	},
	"targetWithDoubleHyphenIsRefused": {
		body:    "/clarify @bad--name Which database?",
		problem: "`@bad--name` is not a target",
		try:     "`/clarify architect Which database should the cache use?`",
		line:    "/clarify @bad--name Which database?",
	},
	"bareAtSignIsRefused": {
		body:    "/clarify @ Which database?",
		problem: "`@` is not a target",
		try:     "@my-org/backend",
		line:    "/clarify @ Which database?",
	},
	"loginLongerThan39IsRefused": {
		body:    "/clarify @" + strings.Repeat("a", 40) + " Which database?",
		problem: "is not a target",
		try:     "`/clarify architect Which database should the cache use?`",
		line:    "/clarify @" + strings.Repeat("a", 40) + " Which database?",
	},
	"teamWithoutSlugIsRefused": {
		body:    "/clarify @my-org/ Which database?",
		problem: "`@my-org/` is not a target",
		try:     "`/clarify architect Which database should the cache use?`",
		line:    "/clarify @my-org/ Which database?",
	},
	"unknownFlagIsRefused": {
		body:    "/clarify @architect --urgent Which database?",
		problem: "`--urgent` is not an option",
		try:     "`/clarify architect --non-blocking Which database should the cache use?`",
		line:    "/clarify @architect --urgent Which database?",
	},
	"unknownTypeIsRefused": {
		body:    "/clarify @architect Which database?\nType: preference",
		problem: "`Type: preference` is not a type",
		try:     "`Type: mutually-exclusive-requirements`, `Type: missing-external-data` or `Type: security-decision`",
		line:    "/clarify @architect Which database?",
	},
	"emptyTypeIsRefused": {
		body:    "/clarify @architect Which database?\nType:",
		problem: "is not a type",
		try:     "`Type: security-decision`",
		line:    "/clarify @architect Which database?",
	},
	"fallbackNamingMissingOptionIsRefused": {
		body:    "/clarify @architect Which database?\nOptions:\na) Postgres\nb) Redis\nFallback: c",
		problem: "`Fallback: c` does not name one of the options (a, b)",
		try:     "`Fallback: a`",
		line:    "/clarify @architect Which database?",
	},
	"fallbackWithoutOptionsIsRefused": {
		body:    "/clarify @architect Which database?\nFallback: a",
		problem: "the question has no `Options:`",
		try:     "`Fallback: a`",
		line:    "/clarify @architect Which database?",
	},
	"optionsOutOfOrderAreRefused": {
		body:    "/clarify @architect Which database?\nOptions:\na) Postgres\nc) Redis",
		problem: "`c)` is out of order",
		try:     "`a) Use Postgres`, `b) Use Redis`",
		line:    "/clarify @architect Which database?",
	},
	"repeatedOptionKeyIsRefused": {
		body:    "/clarify @architect Which database?\nOptions:\na) Postgres\na) Redis",
		problem: "`a)` is out of order",
		try:     "`a) Use Postgres`, `b) Use Redis`",
		line:    "/clarify @architect Which database?",
	},
	"optionWithoutTextIsRefused": {
		body:    "/clarify @architect Which database?\nOptions:\na) Postgres\nb)",
		problem: "option `b)` has no text",
		try:     "`b) Use Postgres`",
		line:    "/clarify @architect Which database?",
	},
	"optionsListingNothingAreRefused": {
		body:    "/clarify @architect Which database?\nOptions:\nAny idea?",
		problem: "`Options:` lists no options",
		try:     "`a) Use Postgres`",
		line:    "/clarify @architect Which database?",
	},
	"inlineOptionsNotStartingWithAAreRefused": {
		body:    "/clarify @architect Which database?\nOptions: Postgres or Redis",
		problem: "`Options: Postgres or Redis` does not start with option `a)`",
		try:     "`a) Use Postgres`",
		line:    "/clarify @architect Which database?",
	},
	"evidenceListingNothingIsRefused": {
		body:    "/clarify @architect Which database?\nEvidence:\n\nsee above",
		problem: "`Evidence:` lists nothing",
		try:     "`Evidence: the spec says UTC (docs/spec.md)`",
		line:    "/clarify @architect Which database?",
	},
	"emptyTopicIsRefused": {
		body:    "/clarify @architect Which database?\nTopic:",
		problem: "`Topic:` is empty",
		try:     "`Topic: cache storage`",
		line:    "/clarify @architect Which database?",
	},
	"repeatedFieldIsRefused": {
		body:    "/clarify @architect Which database?\nTopic: cache\ntopic: storage",
		problem: "`Topic:` appears twice",
		try:     "`Topic: cache storage`",
		line:    "/clarify @architect Which database?",
	},

	// Subcommands.
	"bareClarifyLists": {
		body: "/clarify",
		want: Command{Kind: CmdList, Line: "/clarify"},
	},
	"clarifyListLists": {
		body: "/clarify list",
		want: Command{Kind: CmdList, Line: "/clarify list"},
	},
	"clarifyStale": {
		body: "/clarify stale",
		want: Command{Kind: CmdStale, Line: "/clarify stale"},
	},
	"clarifyStats": {
		body: "/clarify stats",
		want: Command{Kind: CmdStats, Line: "/clarify stats"},
	},
	"showNormalisesTheID": {
		body: "/clarify show clr-42-7",
		want: Command{Kind: CmdShow, Line: "/clarify show clr-42-7", ID: "CLR-42-007"},
	},
	"subcommandsAreCaseInsensitive": {
		body: "/CLARIFY Show CLR-42-7",
		want: Command{Kind: CmdShow, Line: "/CLARIFY Show CLR-42-7", ID: "CLR-42-007"},
	},
	"showWithoutAnIDIsRefused": {
		body:    "  /clarify show  ",
		problem: "`/clarify show` needs the id of a clarification",
		try:     "`/clarify show CLR-42-001`",
		line:    "/clarify show",
	},
	"showWithMalformedIDIsRefused": {
		body:    "/clarify show CLR-42",
		problem: "`CLR-42` is not a clarification id",
		try:     "`/clarify show CLR-42-001`",
		line:    "/clarify show CLR-42",
	},
	"escalateWithAReason": {
		body: "/clarify escalate CLR-42-001 We keep going round in circles.\nBoth sides repeat themselves.",
		want: Command{Kind: CmdEscalate, Line: "/clarify escalate CLR-42-001 We keep going round in circles.", ID: "CLR-42-001", Text: "We keep going round in circles.\nBoth sides repeat themselves."},
	},
	"escalateWithoutAReason": {
		body: "/clarify escalate CLR-42-001",
		want: Command{Kind: CmdEscalate, Line: "/clarify escalate CLR-42-001", ID: "CLR-42-001"},
	},
	"escalateWithoutAnIDIsRefused": {
		body:    "/clarify escalate nobody answers",
		problem: "`nobody` is not a clarification id",
		try:     "`/clarify escalate CLR-42-001 We keep going round in circles`",
		line:    "/clarify escalate nobody answers",
	},
	"abandonTakesAPunctuatedID": {
		body: "/clarify abandon (CLR-42-1).",
		want: Command{Kind: CmdAbandon, Line: "/clarify abandon (CLR-42-1).", ID: "CLR-42-001"},
	},
	"abandonWithoutAnIDIsRefused": {
		body:    "/clarify abandon",
		problem: "`/clarify abandon` needs the id of a clarification",
		try:     "`/clarify abandon CLR-42-001`",
		line:    "/clarify abandon",
	},
	"resolveWithIDAndDecision": {
		body: "/clarify resolve CLR-42-001: Store timestamps in UTC.\n\nReports convert on display.",
		want: Command{Kind: CmdResolve, Line: "/clarify resolve CLR-42-001: Store timestamps in UTC.", ID: "CLR-42-001", Text: "Store timestamps in UTC.\n\nReports convert on display."},
	},
	"resolveWithDecisionOnly": {
		body: "/clarify resolve Store timestamps in UTC.",
		want: Command{Kind: CmdResolve, Line: "/clarify resolve Store timestamps in UTC.", Text: "Store timestamps in UTC."},
	},
	"resolveWithNothing": {
		body: "/clarify resolve",
		want: Command{Kind: CmdResolve, Line: "/clarify resolve"},
	},
	"resolveWithMalformedIDIsRefused": {
		body:    "/clarify resolve CLR-42-x use UTC",
		problem: "`CLR-42-x` is not a clarification id",
		try:     "`/clarify resolve CLR-42-001 Store all timestamps in UTC`",
		line:    "/clarify resolve CLR-42-x use UTC",
	},
	"followupWithAQuestion": {
		body: "/clarify followup clr-42-1 Does that hold for cached reads too?\nThey go through Redis.",
		want: Command{Kind: CmdFollowup, Line: "/clarify followup clr-42-1 Does that hold for cached reads too?", ID: "CLR-42-001", Text: "Does that hold for cached reads too?\nThey go through Redis."},
	},
	"followupTakesTheLongForm": {
		body: "/clarify follow-up CLR-42-001 Which TTL then?\nTopic: cache TTL\nOptions:\na) 1 minute\nb) 1 hour\nFallback: b\nEvidence: p95 staleness budget is 5 min",
		want: Command{Kind: CmdFollowup, Line: "/clarify follow-up CLR-42-001 Which TTL then?", ID: "CLR-42-001", Text: "Which TTL then?", Topic: "cache TTL",
			Options: []Option{{"a", "1 minute"}, {"b", "1 hour"}}, Fallback: "b", Evidence: []string{"p95 staleness budget is 5 min"}},
	},
	"followupWithoutAnIDIsRefused": {
		body:    "/clarify followup Does that hold for cached reads too?",
		problem: "`Does` is not a clarification id",
		try:     "`/clarify followup CLR-42-001 Does that hold for cached reads too?`",
		line:    "/clarify followup Does that hold for cached reads too?",
	},
	"followupWithoutAQuestionIsRefused": {
		body:    "/clarify followup CLR-42-1",
		problem: "`/clarify followup` needs a question",
		try:     "`/clarify followup CLR-42-001 Does that hold for cached reads too?`",
		line:    "/clarify followup CLR-42-1",
	},
	"unknownWordFollowedByMoreIsLeftToApply": {
		body: "/clarify frob CLR-42-001",
		want: Command{Kind: CmdAsk, Line: "/clarify frob CLR-42-001", Target: "frob", BareTarget: true, Text: "CLR-42-001"},
	},
	"unknownSingleWordIsAnUnknownSubcommand": {
		body:    "/clarify help",
		problem: "`help` is not a `/clarify` subcommand, and no question follows it.",
		try:     "the subcommands are `list`, `show`, `stale`, `stats`, `followup`, `resolve`, `escalate`, `abandon`, `supersede`, `undo`",
		line:    "/clarify help",
	},
	"roleWithoutAQuestionSaysWhatToType": {
		body:    "/clarify architect",
		problem: "no question follows it",
		try:     "to ask, put the question after the role, `@login` or `@org/team`: `/clarify architect Which database should the cache use?`",
		line:    "/clarify architect",
	},
	"mistypedSingleSubcommandSuggestsTheNearestOne": {
		body:    "/clarify stast",
		problem: "Did you mean `stats`?",
		try:     "`followup`",
		line:    "/clarify stast",
	},

	// Answering.
	"respondWithAnAnswer": {
		body: "/respond Use UTC.",
		want: Command{Kind: CmdRespond, Line: "/respond Use UTC.", Text: "Use UTC."},
	},
	"respondNamingAnID": {
		body: "/respond clr-42-1: Use UTC.",
		want: Command{Kind: CmdRespond, Line: "/respond clr-42-1: Use UTC.", ID: "CLR-42-001", Text: "Use UTC."},
	},
	"respondAnswerContinuesInTheBody": {
		body: "/respond CLR-42-001\nUse UTC.\n> Which zone?\n\n```go\nt.UTC()\n```",
		want: Command{Kind: CmdRespond, Line: "/respond CLR-42-001", ID: "CLR-42-001", Text: "Use UTC.\n\n```go\nt.UTC()\n```"},
	},
	"respondWithoutAnAnswerIsRefused": {
		body:    "/respond",
		problem: "`/respond` needs an answer",
		try:     "`/respond CLR-42-001 Store all timestamps in UTC.`",
		line:    "/respond",
	},
	"respondWithOnlyAnIDIsRefused": {
		body:    "/respond CLR-42-001\n> the question",
		problem: "`/respond` needs an answer",
		try:     "`/respond CLR-42-001 Store all timestamps in UTC.`",
		line:    "/respond CLR-42-001",
	},
	"respondWithMalformedIDIsRefused": {
		body:    "/respond CLR-42 yes",
		problem: "`CLR-42` is not a clarification id",
		try:     "`/respond CLR-42-001 Store all timestamps in UTC.`",
		line:    "/respond CLR-42 yes",
	},

	// Assumptions.
	"assumeWithConfidenceAndRisk": {
		body: "/assume Store timestamps in UTC\nconfidence: high\nRISK: local reports shift by the offset\nThe spec is silent.",
		want: Command{Kind: CmdAssume, Line: "/assume Store timestamps in UTC", Text: "Store timestamps in UTC\nThe spec is silent.",
			Confidence: "high", Risk: "local reports shift by the offset"},
	},
	"assumeDecisionInTheBody": {
		body: "/assume\nStore timestamps in UTC",
		want: Command{Kind: CmdAssume, Line: "/assume", Text: "Store timestamps in UTC"},
	},
	"assumeKeepsAnIDInTheDecision": {
		body: "/assume CLR-42-001 is moot: we store UTC",
		want: Command{Kind: CmdAssume, Line: "/assume CLR-42-001 is moot: we store UTC", Text: "CLR-42-001 is moot: we store UTC"},
	},
	"assumeWithoutADecisionIsRefused": {
		body:    "/assume\nConfidence: low",
		problem: "`/assume` needs the decision",
		try:     "`/assume Store all timestamps in UTC`",
		line:    "/assume",
	},
	"assumeWithConfidenceTwiceIsRefused": {
		body:    "/assume UTC\nConfidence: low\nConfidence: high",
		problem: "`Confidence:` appears twice",
		try:     "`Confidence: medium`",
		line:    "/assume UTC",
	},
	"assumeWithRiskTwiceIsRefused": {
		body:    "/assume UTC\nRisk: a\nRisk: b",
		problem: "`Risk:` appears twice",
		try:     "`Risk: ",
		line:    "/assume UTC",
	},
}

func TestParse(t *testing.T) {
	for name, tc := range parseCases {
		t.Run(name, func(t *testing.T) {
			got, err := Parse(tc.body)
			if tc.problem == "" {
				if err != nil {
					t.Fatalf("Parse(%q) failed: %v", tc.body, err)
				}
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("Parse(%q)\n got %#v\nwant %#v", tc.body, got, tc.want)
				}
				return
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) = %#v, %v; want a *ParseError", tc.body, got, err)
			}
			if !strings.Contains(pe.Problem, tc.problem) {
				t.Errorf("Problem = %q, want it to contain %q", pe.Problem, tc.problem)
			}
			if !strings.Contains(pe.Try, tc.try) {
				t.Errorf("Try = %q, want it to contain %q", pe.Try, tc.try)
			}
			if pe.Line != tc.line {
				t.Errorf("Line = %q, want %q", pe.Line, tc.line)
			}
			if !reflect.DeepEqual(got, Command{}) {
				t.Errorf("a refused command came back as %#v, want the zero Command", got)
			}
		})
	}
}

func TestNormalizeID(t *testing.T) {
	tests := map[string]struct {
		in     string
		want   string
		wantOK bool
	}{
		"lowerCaseIsPaddedAndUpperCased": {"clr-42-1", "CLR-42-001", true},
		"canonicalStaysAsItIs":           {"CLR-42-001", "CLR-42-001", true},
		"longSequenceIsNotCut":           {"CLR-7-1234", "CLR-7-1234", true},
		"leadingZerosAreDropped":         {"Clr-042-0001", "CLR-42-001", true},
		"surroundingSpaceIsIgnored":      {"  CLR-1-2\n", "CLR-1-002", true},
		"emptyIsNotAnID":                 {"", "", false},
		"missingSequence":                {"CLR-42", "", false},
		"emptySequence":                  {"CLR-42-", "", false},
		"emptyIssue":                     {"CLR--1", "", false},
		"issueZero":                      {"CLR-0-1", "", false},
		"sequenceZero":                   {"CLR-1-000", "", false},
		"letters":                        {"CLR-a-1", "", false},
		"trailingLetters":                {"CLR-1-1x", "", false},
		"prefixGluedToAWord":             {"XCLR-1-1", "", false},
		"extraPart":                      {"CLR-1-1-1", "", false},
		"signedNumber":                   {"CLR-+1-1", "", false},
		"tooLongForAnyIssue":             {"CLR-1234567890-1", "", false},
		"spacesInside":                   {"CLR 1 1", "", false},
		"otherPrefix":                    {"ABC-1-1", "", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := NormalizeID(tc.in)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("NormalizeID(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func TestEmailAttributionIsNotPartOfTheReply(t *testing.T) {
	cases := map[string]struct{ body, want string }{
		"attributionBeforeTheQuoteIsDropped": {
			"Per key.\n\nOn Mon, Jan 5, 2026 at 9:00 AM clarify[bot] <notifications@github.com> wrote:\n\n> Clarification needed\n> /clarify @maria x\n",
			"Per key."},
		"aSentenceThatMerelyEndsInWroteStays": {
			"On Monday the team wrote:\nper key, as agreed.", "On Monday the team wrote:\nper key, as agreed."},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := Parse(tc.body)
			if err != nil || c.Kind != CmdNone || c.Text != tc.want {
				t.Errorf("Parse = %q (%v), want plain reply %q", c.Text, err, tc.want)
			}
		})
	}
}
