package repoconfig

import (
	"gopkg.in/yaml.v3"
)

// Notify is what a repository asks the app to send when a clarification settles.
type Notify struct {
	// Dispatch sends a repository_dispatch (clarify-answered, clarify-resolved,
	// clarify-fallback, clarify-abandoned) whose client_payload is the clarification's
	// record, so that an agent's workflow on repository_dispatch resumes without polling.
	Dispatch bool
}

var notifyKeys = []string{"dispatch"}

// notify reads `notify`: {dispatch: true}.
func (p *parser) notify(n *yaml.Node) Notify {
	var out Notify
	if !p.isMapping(n, "notify", "{dispatch: true}") {
		return out
	}
	f := p.fields(n, "notify", notifyKeys)
	if v, ok := p.boolean(f["dispatch"], "notify.dispatch"); ok {
		out.Dispatch = v
	}
	return out
}

// boolean reads true or false; YAML 1.1's yes, no, on and off are refused, since they read
// as text to some tools and as booleans to others.
func (p *parser) boolean(n *yaml.Node, key string) (bool, bool) {
	if n == nil || !p.isScalar(n, key, "true or false") {
		return false, false
	}
	switch n.Value {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	p.add(n, key, "%s is not true or false: write true or false", quote(n.Value))
	return false, false
}
