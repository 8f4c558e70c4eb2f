package repoconfig

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// Decisions is how a repository uses its memory of earlier decisions.
type Decisions struct {
	// Offer shows a new question the earlier decision on its topic, as advice.
	Offer bool
}

// decisionKeys are the keys under `decisions`.
var decisionKeys = []string{"offer"}

// DefaultDecisions offers earlier decisions: advice that leaves the question open costs a
// maintainer nothing, and saves asking again what was settled last week.
func DefaultDecisions() Decisions { return Decisions{Offer: true} }

// decisions reads `decisions` into d when the file has it.
func (p *parser) decisions(n *yaml.Node, d *Decisions) {
	if n == nil || !p.isMapping(n, "decisions", "{offer: false}") {
		return
	}
	f := p.fields(n, "decisions", decisionKeys)
	if v := f["offer"]; v != nil && p.isScalar(v, "decisions.offer", "true or false") {
		switch strings.ToLower(v.Value) {
		case "true":
			d.Offer = true
		case "false":
			d.Offer = false
		default:
			p.add(v, "decisions.offer", "%s is not true or false", quote(v.Value))
		}
	}
}
