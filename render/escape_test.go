package render

import (
	"strings"
	"testing"
)

func TestInline(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"plainTextIsUnchanged":             {"Use UTC everywhere", "Use UTC everywhere"},
		"commentDelimitersBecomeEntities":  {"a --> b <!-- c --!> d", "a --&gt; b &lt;!-- c --!&gt; d"},
		"forgedMarkerCannotOpen":           {StatusMarker, "&lt;!-- clarify:status --&gt;"},
		"pipeIsEscapedForTables":           {"a | b", `a \| b`},
		"escapedPipeStaysEscaped":          {`a \| b`, `a \\\| b`},
		"backticksCannotOpenCode":          {"`x`", "\\`x\\`"},
		"emphasisAndLinksShowAsTyped":      {"*a* _b_ [c](d) ~e~", `\*a\* \_b\_ \[c\](d) \~e\~`},
		"newlinesBecomeSpaces":             {"one\ntwo\r\nthree\rfour\u2028five", "one two three four five"},
		"mentionGetsAZeroWidthSpace":       {"ask @alice", "ask @\u200balice"},
		"teamMentionGetsAZeroWidthSpace":   {"@acme/platform", "@\u200bacme/platform"},
		"loneAtSignIsLeftAlone":            {"a @ b", "a @ b"},
		"issueReferenceIsBroken":           {"see #12 and acme/app#3", "see #\u200b12 and acme/app#\u200b3"},
		"ghReferenceIsBroken":              {"GH-7, gh-8", "GH-\u200b7, gh-\u200b8"},
		"ghInsideAWordIsBrokenToo":         {"SIGH-1", "SIGH-\u200b1"},
		"hashWithoutDigitIsLeftAlone":      {"C# and #tag", "C# and #tag"},
		"typedEntityShowsAsTyped":          {"&lt; &copy; & AT&T", "&amp;lt; &amp;copy; & AT&amp;T"},
		"controlCharactersAreDropped":      {"a\x00b\x1bc\u0085d", "abc d"},
		"bidiOverridesAreDropped":          {"a\u202Eb\u2066c\u2069", "abc"},
		"unicodeIsKept":                    {"漢字 😀 שלום e\u0301", "漢字 😀 שלום e\u0301"},
		"invalidUTF8IsReplaced":            {"a\xffb", "a\uFFFDb"},
		"surroundingWhitespaceIsTrimmed":   {"  \n x \n ", "x"},
		"zeroWidthSpaceAlreadyTypedIsKept": {"@\u200bx", "@\u200bx"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Inline(tc.in); got != tc.want {
				t.Errorf("Inline(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestQuote(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"oneLine":                           {"Use UTC", "> Use UTC"},
		"everyLineIsPrefixed":               {"a\nb\r\nc\rd\u2028e", "> a\n> b\n> c\n> d\n> e"},
		"blankLinesStayInsideTheQuote":      {"a\n\n \nb", "> a\n>\n>\n> b"},
		"outerBlankLinesAreTrimmed":         {"\n\na\n\n", "> a"},
		"typedQuoteMarkerCannotNest":        {"> a", "> &gt; a"},
		"markdownIsKept":                    {"**a** `b` | c", "> **a** `b` | c"},
		"commentCannotOpen":                 {"<!-- x -->", "> &lt;!-- x --&gt;"},
		"mentionAndReferenceAreNeutral":     {"@bob #9", "> @\u200bbob #\u200b9"},
		"indentationIsKept":                 {"    code", ">     code"},
		"emptyTextIsAnEmptyQuote":           {"", ">"},
		"lineSeparatorCannotEscapeTheQuote": {"a\u2029b\u0085c", "> a\n> b\n> c"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Quote(tc.in); got != tc.want {
				t.Errorf("Quote(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestCapsCutUserTextAndSaySo(t *testing.T) {
	long := strings.Repeat("é", 50)
	if got, want := inline(long, 10), strings.Repeat("é", 10)+" "+truncated; got != want {
		t.Errorf("inline cap: %q, want %q", got, want)
	}
	if got := inline(long, 50); got != long {
		t.Errorf("text exactly at the cap was cut: %q", got)
	}
	if got, want := quote("a\nb\nc", 3), "> a\n> b "+truncated; got != want {
		t.Errorf("quote cap: %q, want %q", got, want)
	}
}

func TestProseKeepsCodeSpansAndNeutralisesTheRest(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"commandInCodeIsCopyable": {
			"Try `/clarify @architect <question>`", "Try `/clarify @architect <question>`",
		},
		"mentionOutsideCodeIsNeutral": {
			"@bob cannot answer `CLR-1-001`", "@\u200bbob cannot answer `CLR-1-001`",
		},
		"commentDelimiterInsideCodeIsBroken": {
			"unknown `<!-- clarify:msg x -->`", "unknown `<\u200b!-- clarify:msg x --\u200b>`",
		},
		"overlappingDelimitersInsideCodeAreBroken": {
			"`<!--->` `--!>`", "`<\u200b!---\u200b>` `--!\u200b>`",
		},
		"flagsInsideCodeAreKept": {
			"`/clarify @architect --non-blocking <question>`", "`/clarify @architect --non-blocking <question>`",
		},
		"unmatchedBacktickRunIsText": {
			"```@bob` ", "```@\u200bbob`",
		},
		"escapedBacktickDoesNotOpenCode": {
			"\\`@bob`", "\\`@\u200bbob`",
		},
		"doubleBacktickSpanClosesOnlyOnDouble": {
			"``a ` @b`` @c", "``a ` @b`` @\u200bc",
		},
		"htmlOutsideCodeBecomesEntities": {
			"<b>x</b>", "&lt;b&gt;x&lt;/b&gt;",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := prose(tc.in); got != tc.want {
				t.Errorf("prose(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestMarker(t *testing.T) {
	tests := map[string]struct{ key, want string }{
		"appKeyIsWrittenAsIs":                {"round:CLR-42-001:2", "<!-- clarify:msg round:CLR-42-001:2 -->"},
		"commentCloserIsPercentEncoded":      {"x --> y", "<!-- clarify:msg x%20--%3E%20y -->"},
		"percentIsEncodedSoKeysStayDistinct": {"a%20b", "<!-- clarify:msg a%2520b -->"},
		"emptyKeyStillMakesAMarker":          {"", "<!-- clarify:msg % -->"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Marker(tc.key); got != tc.want {
				t.Errorf("Marker(%q) = %q, want %q", tc.key, got, tc.want)
			}
		})
	}
}

func TestHasMarkerMatchesOnlyItsOwnKey(t *testing.T) {
	body := "hello\n\n" + Marker("round:CLR-42-001:1") + "\n"
	tests := map[string]struct {
		key  string
		want bool
	}{
		"sameKey":            {"round:CLR-42-001:1", true},
		"keyPrefixOfAnother": {"round:CLR-42-001", false},
		"longerKey":          {"round:CLR-42-001:10", false},
		"otherKey":           {"reply:1", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := HasMarker(body, tc.key); got != tc.want {
				t.Errorf("HasMarker(%q) = %v, want %v", tc.key, got, tc.want)
			}
		})
	}
	if !IsStatus(Status(richLedger(), "")) || IsStatus(body) {
		t.Error("IsStatus must tell the status comment from a message")
	}
}

// User text echoed anywhere can never produce a marker render or the handlers look for.
func TestUserTextCannotForgeAMarker(t *testing.T) {
	key := "round:CLR-42-001:1"
	l := hostileLedger()
	l.Clarifications[0].Topic = Marker(key) + StatusMarker
	l.Clarifications[0].Thread[0].Text = Marker(key)
	for name, body := range map[string]string{
		"inline": Inline(Marker(key)),
		"quote":  Quote(Marker(key)),
		"prose":  prose(Marker(key)),
		"round":  Round(l.Clarifications[0], 1, nil, "other"),
	} {
		if HasMarker(body, key) || IsStatus(body) {
			t.Errorf("%s: user text produced a live marker: %q", name, body)
		}
	}
}
