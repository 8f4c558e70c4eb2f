package clarify

import (
	"slices"
	"testing"
)

// scanCases are comment bodies and the lines scanBody makes of them, each written as
// "<kind>|<text>" with t for text, c for code and q for quote.
var scanCases = map[string]struct {
	body string
	want []string
}{
	"plainTextLinesAreText": {
		body: "Hello\n/respond yes",
		want: []string{"t|Hello", "t|/respond yes"},
	},
	"blankLinesAreEmptyText": {
		body: "a\n  \nb",
		want: []string{"t|a", "t|", "t|b"},
	},
	"backtickFenceWithInfoStringIsCode": {
		body: "```go\nfmt.Println()\n```\nafter",
		want: []string{"c|```go", "c|fmt.Println()", "c|```", "t|after"},
	},
	"tildeFenceIsCode": {
		body: "~~~ text\n/respond yes\n~~~\nafter",
		want: []string{"c|~~~ text", "c|/respond yes", "c|~~~", "t|after"},
	},
	"tildeFenceInfoStringMayHoldBackticks": {
		body: "~~~ a`b\nx\n~~~",
		want: []string{"c|~~~ a`b", "c|x", "c|~~~"},
	},
	"backtickInfoStringWithBacktickIsNotAFence": {
		body: "``` a`b\nx",
		want: []string{"t|``` a`b", "t|x"},
	},
	"longerClosingFenceCloses": {
		body: "```\nx\n`````\nafter",
		want: []string{"c|```", "c|x", "c|`````", "t|after"},
	},
	"shorterClosingFenceDoesNotClose": {
		body: "````\n```\nx\n````\nafter",
		want: []string{"c|````", "c|```", "c|x", "c|````", "t|after"},
	},
	"otherFenceCharacterDoesNotClose": {
		body: "~~~\n```\nx\n~~~\nafter",
		want: []string{"c|~~~", "c|```", "c|x", "c|~~~", "t|after"},
	},
	"fenceFollowedByTextDoesNotClose": {
		body: "```\n``` not closed\nx",
		want: []string{"c|```", "c|``` not closed", "c|x"},
	},
	"unclosedFenceRunsToTheEnd": {
		body: "text\n```\n/respond yes\n\n> quote",
		want: []string{"t|text", "c|```", "c|/respond yes", "c|", "c|> quote"},
	},
	"fenceMayBeIndentedUpToThreeSpaces": {
		body: "   ```\nx\n   ```",
		want: []string{"c|   ```", "c|x", "c|   ```"},
	},
	"fenceIndentedFourIsNotAFenceAfterText": {
		body: "para\n    ```\nx",
		want: []string{"t|para", "t|    ```", "t|x"},
	},
	"indentedCodeAtStart": {
		body: "    /respond yes\nafter",
		want: []string{"c|    /respond yes", "t|after"},
	},
	"indentedCodeAfterBlankLine": {
		body: "Example:\n\n    /respond yes\n\n    more\nafter",
		want: []string{"t|Example:", "t|", "c|    /respond yes", "t|", "c|    more", "t|after"},
	},
	"indentedLineContinuingParagraphIsText": {
		body: "para\n    CLR-42-001",
		want: []string{"t|para", "t|    CLR-42-001"},
	},
	"tabIndentIsCode": {
		body: "\t/respond yes",
		want: []string{"c|\t/respond yes"},
	},
	"quoteLinesAreQuotes": {
		body: "> a\n  > b\n>> c\n> > d\nafter",
		want: []string{"q|> a", "q|  > b", "q|>> c", "q|> > d", "t|after"},
	},
	"fenceInsideQuoteStaysQuote": {
		body: "> ```\n> /respond yes\n/respond no",
		want: []string{"q|> ```", "q|> /respond yes", "t|/respond no"},
	},
	"htmlCommentOnOneLineIsRemoved": {
		body: "a <!-- x --> b",
		want: []string{"t|a  b"},
	},
	"htmlCommentSpanningLinesJoinsWhatIsAround": {
		body: "a <!-- x\n/respond yes\nz --> b\nc",
		want: []string{"t|a  b", "t|c"},
	},
	"lineThatIsOnlyACommentIsDropped": {
		body: "a\n<!-- x -->\nb",
		want: []string{"t|a", "t|b"},
	},
	"unclosedHTMLCommentRunsToTheEnd": {
		body: "a <!-- x\n/respond yes\n```",
		want: []string{"t|a "},
	},
	"twoCommentsOnALine": {
		body: "a<!-- x -->b<!-- y -->c",
		want: []string{"t|abc"},
	},
	"shortestCommentIsEmpty": {
		body: "a<!-->b",
		want: []string{"t|ab"},
	},
	"htmlCommentInCodeSpanIsLiteral": {
		body: "use `<!--` here\nnext",
		want: []string{"t|use `<!--` here", "t|next"},
	},
	"htmlCommentAfterUnmatchedBacktickIsAComment": {
		body: "a ` b <!-- x --> c",
		want: []string{"t|a ` b  c"},
	},
	"htmlCommentInFenceIsLiteral": {
		body: "```\n<!--\n```\n/respond yes",
		want: []string{"c|```", "c|<!--", "c|```", "t|/respond yes"},
	},
	"htmlCommentInIndentedCodeIsLiteral": {
		body: "    <!--\n/respond yes",
		want: []string{"c|    <!--", "t|/respond yes"},
	},
	"fenceInsideHTMLCommentIsHidden": {
		body: "<!--\n```\n-->\n/respond yes",
		want: []string{"t|/respond yes"},
	},
	"quoteWhoseCommentEndsOnTheNextLineStaysQuote": {
		body: "> <!-- x\n> --> /respond yes",
		want: []string{"q|>  /respond yes"},
	},
	"crlfAndLoneCRAreLineEndings": {
		body: "a\r\nb\rc\r\n",
		want: []string{"t|a", "t|b", "t|c", "t|"},
	},
}

func TestScanBody(t *testing.T) {
	for name, tc := range scanCases {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, l := range scanBody(tc.body) {
				got = append(got, string("tcq"[l.kind])+"|"+l.text)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("scanBody(%q)\n got %q\nwant %q", tc.body, got, tc.want)
			}
		})
	}
}

func TestIndentWidth(t *testing.T) {
	tests := map[string]struct {
		line string
		want int
	}{
		"noIndent":             {"x", 0},
		"spacesCount":          {"   x", 3},
		"tabStopsAtFour":       {"\tx", 4},
		"spacesThenTabStopAt4": {"  \tx", 4},
		"tabAfterFourSpaces":   {"    \tx", 8},
		"blankLineIsAllIndent": {"  ", 2},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := indentWidth(tc.line); got != tc.want {
				t.Errorf("indentWidth(%q) = %d, want %d", tc.line, got, tc.want)
			}
		})
	}
}
