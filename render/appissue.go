package render

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// The app's own issues (the decision memory, the dashboard) are named by a label whose
// description anyone who may edit labels can change. The description carries, beside the
// number, a mark only the app can make for that very issue; and the decisions issue's body
// holds a signed index of the app's comments there, so they are found without listing
// what everyone else posted.

// appIssueMarkBytes is how much of the MAC the mark keeps: 96 bits, well within a label
// description's 100 characters, and past any guessing through GitHub's API.
const appIssueMarkBytes = 12

// AppIssueMark is the mark a label's description carries for the issue the app made for
// kind ("decisions", "dashboard"), under the issue's signing key: copied to another issue's
// number, it does not verify.
func (k IssueKeys) AppIssueMark(kind string) string {
	key := k.Signing()
	if key == nil {
		return ""
	}
	return hex.EncodeToString(sign(key, []byte("clarify app issue\x00"+kind))[:appIssueMarkBytes])
}

// IsAppIssueMark reports whether mark is the app's for kind in this issue, under any of the
// issue's keys (a rotation keeps marks made before it).
func (k IssueKeys) IsAppIssueMark(kind, mark string) bool {
	sum, err := hex.DecodeString(mark)
	if err != nil || len(sum) != appIssueMarkBytes {
		return false
	}
	for _, key := range k.bound {
		if macEqual(sum, sign(key, []byte("clarify app issue\x00"+kind))[:appIssueMarkBytes]) {
			return true
		}
	}
	return false
}

// DecisionsIndex is what the decisions issue's body says of the app's comments there: the
// parts of the memory in order, and the comment of bot action's sweep index (0: none).
type DecisionsIndex struct {
	V     int     `json:"v"`
	Parts []int64 `json:"parts,omitempty"`
	Sweep int64   `json:"sweep,omitempty"`
}

// decisionsIndexOpen opens the signed block of the decisions issue's index.
const decisionsIndexOpen = "<!-- clarify:decisions-index "

// DecisionsIssueBody is the body of the issue that holds a repository's decisions, with the
// index of the app's comments there signed under the issue's key.
func DecisionsIssueBody(ix DecisionsIndex, key []byte) (string, error) {
	ix.V = 1
	js, err := json.Marshal(ix)
	if err != nil {
		return "", fmt.Errorf("render: encode the decisions index: %w", err)
	}
	block, err := sealJSON(decisionsIndexOpen, js, key)
	if err != nil {
		return "", err
	}
	return DecisionsIssueText() + "\n" + block + "\n", nil
}

// DecodeDecisionsIndex reads the index in the decisions issue's body, under the issue's
// keys; an issue made before the index, or a body edited by hand, has none.
func (k IssueKeys) DecodeDecisionsIndex(body string) (DecisionsIndex, error) {
	var first error
	for _, key := range k.bound {
		js, err := openJSON(decisionsIndexOpen, body, key)
		if err != nil {
			if first == nil {
				first = err // the current key's, the one that matters
			}
			continue
		}
		var ix DecisionsIndex
		if err := json.Unmarshal(js, &ix); err != nil {
			return DecisionsIndex{}, fmt.Errorf("%w: json: %v", ErrMalformed, err)
		}
		if ix.V != 1 {
			return DecisionsIndex{}, fmt.Errorf("%w: the decisions index says version %d", ErrVersion, ix.V)
		}
		return ix, nil
	}
	if first == nil {
		first = errNoKey
	}
	return DecisionsIndex{}, first
}
