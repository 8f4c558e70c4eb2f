package repoconfig

import (
	"gopkg.in/yaml.v3"

	"github.com/clarify-app/clarify/clarify"
)

// relationChoices are the values of `relations`; left out, a blocking clarification shows
// in the issue's comments and labels only.
var relationChoices = []string{clarify.RelationBlockedBy, clarify.RelationSubIssue}

// relations reads `relations: blocked-by|sub-issue` into kind.
func (p *parser) relations(n *yaml.Node, kind *string) {
	if s, ok := p.choice(n, "relations", relationChoices,
		"blocked-by (the issue blocked by a decision issue) or sub-issue (the decision issue a sub-issue of it), or leave it out"); ok {
		*kind = s
	}
}
