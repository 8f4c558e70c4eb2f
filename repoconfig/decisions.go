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
	p.boolean(f["offer"], "decisions.offer", &d.Offer)
	if v := f["settle_after"]; v != nil && p.isScalar(v, "decisions.settle_after", "a duration like 72h") {
		if w, err := time.ParseDuration(strings.TrimSpace(v.Value)); err != nil || w < time.Minute {
			p.add(v, "decisions.settle_after", "%s is not a duration of 1m or more (use 72h; leave it out to never settle from precedent)", quote(v.Value))
		} else {
			d.SettleAfter = w
		}
	}
}

// dashboard reads `dashboard: true|false` into on.
func (p *parser) dashboard(n *yaml.Node, on *bool) { p.boolean(n, "dashboard", on) }

// boolean reads true or false (in any case, as YAML writes them) into v.
func (p *parser) boolean(n *yaml.Node, key string, v *bool) {
	if n == nil || !p.isScalar(n, key, "true or false") {
		return
	}
	switch strings.ToLower(n.Value) {
	case "true":
		*v = true
	case "false":
		*v = false
	default:
		p.add(n, key, "%s is not true or false", quote(n.Value))
	}
}
