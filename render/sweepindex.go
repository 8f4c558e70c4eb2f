package render

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// SweepIndexMarker marks the app's comment, in its decisions issue, that holds what bot
// action's scheduled runs knew of each issue they ran.
const SweepIndexMarker = "<!-- clarify:sweep-index -->"

const sweepIndexOpen = "<!-- clarify:sweep "

// Swept is what a scheduled run knew of an issue after running it: a later run that lists
// the issue with the same updated_at, before Due, has nothing to do in it.
type Swept struct {
	// Seen is the issue's updated_at as the run listed it, just before it read the issue.
	Seen time.Time `json:"seen"`
	// Due is the issue's next deadline as the run saved it; zero for none.
	Due time.Time `json:"due,omitzero"`
}

type sweepIndex struct {
	V      int           `json:"v"`
	Issues map[int]Swept `json:"issues"`
}

// EncodeSweepIndex is the body of the comment holding issues' index, signed under key. An
// index too big for a comment keeps the newest issues that fit: one left out is only read
// again by the next run.
func EncodeSweepIndex(issues map[int]Swept, key []byte) (string, error) {
	nums := make([]int, 0, len(issues))
	for n := range issues {
		nums = append(nums, n)
	}
	slices.Sort(nums)
	slices.Reverse(nums)
	for len(nums) > 0 {
		kept := make(map[int]Swept, len(nums))
		for _, n := range nums {
			kept[n] = issues[n]
		}
		body, err := sweepIndexBody(kept, key)
		if err != nil || len(body) <= MaxCommentBytes {
			return body, err
		}
		nums = nums[:len(nums)*9/10]
	}
	return sweepIndexBody(nil, key)
}

func sweepIndexBody(issues map[int]Swept, key []byte) (string, error) {
	return sealedComment(sweepIndexOpen, SweepIndexMarker, "Clarify's scheduled runs (`bot action`) note here what they "+
		"last saw of each issue with an open clarification, so that a run reads only the issues that changed or fall due. "+
		"An edit by hand is detected and ignored.", sweepIndex{V: 1, Issues: issues}, key)
}

// DecodeSweepIndex reads the index a comment body holds, under the issue's current key.
func (k IssueKeys) DecodeSweepIndex(body string) (map[int]Swept, error) {
	js, err := openJSON(sweepIndexOpen, body, k.Signing())
	if err != nil {
		return nil, err
	}
	var x sweepIndex
	if err := json.Unmarshal(js, &x); err != nil {
		return nil, fmt.Errorf("%w: json: %v", ErrMalformed, err)
	}
	if x.V != 1 {
		return nil, fmt.Errorf("%w: the sweep index says version %d", ErrVersion, x.V)
	}
	return x.Issues, nil
}
