package clarify

// The kinds of edge a blocking clarification shows as in GitHub's own model
// (docs/organisations.md#relations): the work issue blocked by a decision issue, or the
// decision issue a sub-issue of the work issue.
const (
	RelationBlockedBy = "blocked-by"
	RelationSubIssue  = "sub-issue"
)

// Relation is the decision issue the app opened for a blocking clarification, and the edge
// that ties the work issue to it. The ledger keeps it from the ask until the decision issue
// is closed, so that no run opens a second one and none leaves an edge behind.
type Relation struct {
	// Clarification is the CLR id the decision issue stands for.
	Clarification string `json:"clr"`
	// Kind is RelationBlockedBy or RelationSubIssue.
	Kind string `json:"kind"`
	// Issue is the decision issue's number and ID its database id, which GitHub's routes
	// for edges take; 0 when GitHub has no such edges here (the clarification is not tried
	// again).
	Issue int   `json:"issue,omitempty"`
	ID    int64 `json:"id,omitempty"`
	// Linked says the edge is on, as far as the app knows: added, and not taken off.
	Linked bool `json:"linked,omitempty"`
}

// RelationOf returns the index of the relation recorded for the clarification id, or -1.
func (l Ledger) RelationOf(id string) int {
	for i, r := range l.Relations {
		if r.Clarification == id {
			return i
		}
	}
	return -1
}
