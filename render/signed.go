package render

import (
	"fmt"
	"unicode/utf8"

	"github.com/clarify-app/clarify/clarify"
)

// maxCommentChars is the most characters GitHub takes in one comment body.
const maxCommentChars = 65536

// SignedStatus is the status comment body that holds l whole, signed under the issue's
// keys: what an operator pastes over the app's status comment (bot ledger import
// -status). The clarifications of l's archives are written into it rather than listed
// (listed again, the app would read them twice; it archives them anew at its next save),
// and the round the app created the comment with, which a file cannot give back, is left
// out. A body GitHub would refuse is an error.
func SignedStatus(l clarify.Ledger, keys IssueKeys) (string, error) {
	l.Archives, l.Head = nil, ""
	block, err := keys.EncodeLedger(l)
	if err != nil {
		return "", err
	}
	body := Status(l, block)
	if n := utf8.RuneCountInString(body); n > maxCommentChars {
		return "", fmt.Errorf("the status body would be %d characters, over the 65,536 GitHub takes in a comment: settle or drop clarifications first", n)
	}
	return body, nil
}
