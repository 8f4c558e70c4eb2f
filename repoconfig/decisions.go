package repoconfig

import (
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/clarify-app/clarify/clarify"
)

// Decisions is how a repository uses its memory of earlier decisions.
type Decisions struct {
	// Offer shows a new question the earlier decision on its topic, as advice.
	Offer bool
	// SettleAfter, when set, resolves a question whose topic matches a decision exactly
	// with that decision once it has waited this long unopposed.
	SettleAfter time.Duration
	// Inherit names the repository whose decisions this one takes as well as its own:
	// OrgRepository for its owner's, else "owner/name"; "" takes none.
	Inherit string
}

// OrgRepository is the repository of an organisation's shared files, whose decisions
// `decisions.inherit: true` takes.
const OrgRepository = ".github"

// decisionKeys are the keys under `decisions`.
var decisionKeys = []string{"offer", "settle_after", "inherit"}

// InheritFrom is the repository whose decisions owner/repo inherits, if any. It is never
// the repository itself: the owner's `.github` repository inherits nothing from itself.
func (d Decisions) InheritFrom(owner, repo string) (o, r string, ok bool) {
	switch d.Inherit {
	case "":
		return "", "", false
	case OrgRepository:
		o, r = owner, OrgRepository
	default:
		if o, r, ok = clarify.ParseRepo(d.Inherit); !ok {
			return "", "", false
		}
	}
	if strings.EqualFold(o, owner) && strings.EqualFold(r, repo) {
		return "", "", false
	}
	return o, r, true
}

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
	p.inherit(f["inherit"], &d.Inherit)
}

// inherit reads `decisions.inherit`: true (the owner's `.github` repository), false, or
// the owner/name of the repository whose decisions to take.
func (p *parser) inherit(n *yaml.Node, into *string) {
	const key = "decisions.inherit"
	if n == nil || !p.isScalar(n, key, "true, or a repository like octo/.github") {
		return
	}
	v := strings.TrimSpace(n.Value)
	if on, err := strconv.ParseBool(v); err == nil && n.ShortTag() == "!!bool" {
		*into = ""
		if on {
			*into = OrgRepository
		}
		return
	}
	if _, _, ok := clarify.ParseRepo(v); !ok {
		p.add(n, key, "%s is not true, false or a repository: write true (the organisation's .github repository) or owner/name, like octo/.github", quote(n.Value))
		return
	}
	*into = v
}

// dashboard reads `dashboard: true|false` into on.
func (p *parser) dashboard(n *yaml.Node, on *bool) {
	if v, ok := p.boolean(n, "dashboard"); ok {
		*on = v
	}
}
