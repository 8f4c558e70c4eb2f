package repoconfig

import (
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// maxLabelLen is GitHub's limit on a label's name, in characters.
const maxLabelLen = 50

// parseHandle reads a login or a team as the config writes it, with or without "@".
func parseHandle(s string) (clarify.Handle, string) {
	return clarify.ParseHandle(strings.TrimPrefix(s, "@"))
}

func isAlnum(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}
