package repoconfig

import (
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Decisions is how a repository uses its memory of earlier decisions.
type Decisions struct {
	// Offer shows a new question the earlier decision on its topic, as advice.
	Offer bool
	// SettleAfter, when set, resolves a question whose topic matches a decision exactly
	// with that decision once it has waited this long unopposed.
	SettleAfter time.Duration
}

// decisionKeys are the keys under `decisions`.
var decisionKeys = []string{"offer", "settle_after"}

// DefaultDecisions offers earlier decisions: advice that leaves the question open costs a
// maintainer nothing, and saves asking again what was settled last week.
func DefaultDecisions() Decisions { return Decisions{Offer: true} }

// decisions reads `decisions` into d when the file has it.
func (p *parser) decisions(n *yaml.Node, d *Decisions) {
	if n == nil || !p.isMapping(n, "decisions", "{offer: false}") {
		return
	}
	f := p.fields(n, "decisions", decisionKeys)
	if v, ok := p.boolean(f["offer"], "decisions.offer"); ok {
		d.Offer = v
	}
	if v := f["settle_after"]; v != nil && p.isScalar(v, "decisions.settle_after", "a duration like 72h") {
		if w, err := time.ParseDuration(strings.TrimSpace(v.Value)); err != nil || w < time.Minute {
			p.add(v, "decisions.settle_after", "%s is not a duration of 1m or more (use 72h; leave it out to never settle from precedent)", quote(v.Value))
		} else {
			d.SettleAfter = w
		}
	}
}

// dashboard reads `dashboard: true|false` into on.
func (p *parser) dashboard(n *yaml.Node, on *bool) {
	if v, ok := p.boolean(n, "dashboard"); ok {
		*on = v
	}
}
