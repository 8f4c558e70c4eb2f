package clarify_test

import (
	"slices"
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

// TestCompareIDsOrdersByIssueThenSequence: the one order of clarification ids, which the
// ledger, its archives and `bot ledger` all sort by.
func TestCompareIDsOrdersByIssueThenSequence(t *testing.T) {
	tests := map[string]struct {
		a, b string
		want int
	}{
		"sameIssueBySequence":           {"CLR-42-002", "CLR-42-010", -1},
		"thousandthAfterNineHundredth":  {"CLR-42-1000", "CLR-42-999", 1},
		"lowerIssueFirst":               {"CLR-9-500", "CLR-10-001", -1},
		"equal":                         {"CLR-42-001", "CLR-42-001", 0},
		"wellFormedBeforeMalformed":     {"CLR-42-001", "CLR-x-1", -1},
		"malformedAfterWellFormed":      {"junk", "CLR-1-001", 1},
		"malformedInPlainStringOrder":   {"abc", "abd", -1},
		"unpaddedSequenceStillNumbered": {"CLR-42-7", "CLR-42-010", -1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := clarify.CompareIDs(tc.a, tc.b); sign(got) != tc.want {
				t.Errorf("CompareIDs(%q, %q) = %d, want sign %d", tc.a, tc.b, got, tc.want)
			}
		})
	}
	ids := []string{"CLR-42-1000", "CLR-7-003", "CLR-42-999", "CLR-42-001"}
	slices.SortFunc(ids, clarify.CompareIDs)
	if want := []string{"CLR-7-003", "CLR-42-001", "CLR-42-999", "CLR-42-1000"}; !slices.Equal(ids, want) {
		t.Errorf("sorted = %v, want %v", ids, want)
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}
