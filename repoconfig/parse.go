package repoconfig

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/clarify-app/clarify/clarify"
)

// The keys of each level of the file, in the order Reference lists them.
var (
	topKeys        = []string{"roles", "routes", "max_rounds", "sla", "priority", "escalation", "labels", "answer_from", "max_per_issue", "require", "notify", "decisions", "dashboard", "relations", "verify_keys"}
	maxRoundsKeys  = []string{"blocking", "non_blocking"}
	escalationKeys = []string{"mention"}
	labelKeys      = []string{"active", "stale", "escalated"}
)

// The values some keys may take.
var (
	answerFromChoices = []string{clarify.AnswerTargetsAndWrite, clarify.AnswerTargets}
	requireChoices    = []string{"type", "options", "fallback", "topic"}
)

// Ranges of the numeric keys.
const (
	minRounds      = 1
	maxRounds      = 50
	minSLA         = time.Minute
	maxSLA         = 720 * time.Hour
	maxMentions    = 30 // render mentions at most this many maintainers in an escalation
	maxQuotedRunes = 40 // a value quoted back in a message is clipped to this
)

// parser walks the node tree of a config file, building the Config and collecting every
// problem on the way rather than stopping at the first.
type parser struct {
	problems []Problem
}

// add records a problem about node n (its line) under key.
func (p *parser) add(n *yaml.Node, key, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.problems = append(p.problems, Problem{Line: line, Key: key, Message: fmt.Sprintf(format, args...)})
}

// config reads the root node (nil for an empty file) into a Config.
func (p *parser) config(root *yaml.Node) Config {
	cfg := Default()
	if root == nil || isNull(root) {
		return cfg
	}
	if root.Kind != yaml.MappingNode {
		p.add(root, "", `the file must hold keys and values, like "sla: 30m", and it holds %s`, describe(root))
		return cfg
	}
	f := p.fields(root, "", topKeys)
	pol := &cfg.Policy

	// Roles first: routes and priority are checked against them, wherever they are in the file.
	roles, rolesGiven := p.roles(f["roles"])
	if rolesGiven {
		pol.Roles = roles
	}
	if n := f["routes"]; n != nil {
		pol.Routes = p.routes(n, roles, rolesGiven)
	}
	if n := f["max_rounds"]; n != nil {
		p.maxRounds(n, pol)
	}
	if d, ok := p.duration(f["sla"], "sla"); ok {
		pol.SLA = d
	}
	if n := f["priority"]; n != nil {
		pol.Priority = p.priority(n, roles, rolesGiven)
	}
	if n := f["escalation"]; n != nil {
		p.escalation(n, pol)
	}
	if l, ok := p.labelsIn(f["labels"]); ok {
		cfg.Labels = l
	}
	if s, ok := p.choice(f["answer_from"], "answer_from", answerFromChoices,
		"targets_and_write (the targets and anyone with write access) or targets (the targets only)"); ok {
		pol.AnswerFrom = s
	}
	if v, ok := p.integer(f["max_per_issue"], "max_per_issue", 0, math.MaxInt32,
		"a whole number of 0 or more (0 for no quota, 1 for one clarification per issue)"); ok {
		pol.MaxPerIssue = v
	}
	if n := f["require"]; n != nil {
		pol.Require = p.require(n)
	}
	if n := f["notify"]; n != nil {
		cfg.Notify = p.notify(n)
	}
	p.decisions(f["decisions"], &cfg.Decisions)
	p.dashboard(f["dashboard"], &cfg.Dashboard)
	p.relations(f["relations"], &cfg.Relations)
	cfg.VerifyKeys = p.verifyKeys(f["verify_keys"])
	return cfg
}

// labelsIn reads `labels`, when the file gives it as a mapping.
func (p *parser) labelsIn(n *yaml.Node) (Labels, bool) {
	if n == nil || !p.isMapping(n, "labels", "{active: clarification:active}") {
		return Labels{}, false
	}
	return p.labels(p.fields(n, "labels", labelKeys)), true
}

// maxRounds reads `max_rounds` into pol, each of its keys over its default.
func (p *parser) maxRounds(n *yaml.Node, pol *clarify.Policy) {
	if !p.isMapping(n, "max_rounds", "{blocking: 5, non_blocking: 6}") {
		return
	}
	rounds := p.fields(n, "max_rounds", maxRoundsKeys)
	want := fmt.Sprintf("a whole number from %d to %d", minRounds, maxRounds)
	if v, ok := p.integer(rounds["blocking"], "max_rounds.blocking", minRounds, maxRounds, want); ok {
		pol.MaxRoundsBlocking = v
	}
	if v, ok := p.integer(rounds["non_blocking"], "max_rounds.non_blocking", minRounds, maxRounds, want); ok {
		pol.MaxRoundsNonBlocking = v
	}
}

// escalation reads `escalation` into pol.
func (p *parser) escalation(n *yaml.Node, pol *clarify.Policy) {
	if !p.isMapping(n, "escalation", `{mention: [maria, "@octo/maintainers"]}`) {
		return
	}
	if m := p.fields(n, "escalation", escalationKeys)["mention"]; m != nil {
		pol.EscalationMention = p.mentions(m)
	}
}

// entry is one key and its value in a mapping.
type entry struct{ key, val *yaml.Node }

// entries lists the pairs of mapping n whose key is a plain name, reporting the others and
// any name that repeats (ignoring case when fold is set).
func (p *parser) entries(n *yaml.Node, path string, fold bool) []entry {
	var out []entry
	first := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.add(k, path, "a key must be a plain name, and this is %s: write name: value", describe(k))
			continue
		}
		name := k.Value
		if fold {
			name = strings.ToLower(name)
		}
		if line, dup := first[name]; dup {
			p.add(k, join(path, keyName(k.Value)), "appears twice (first on line %d): keep one", line)
			continue
		}
		first[name] = k.Line
		out = append(out, entry{k, v})
	}
	return out
}

// fields reads a mapping with a fixed set of keys: an unknown key is a problem, and a key
// left empty counts as absent.
func (p *parser) fields(n *yaml.Node, path string, known []string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	for _, e := range p.entries(n, path, false) {
		if !slices.Contains(known, e.key.Value) {
			p.add(e.key, join(path, keyName(e.key.Value)), "unknown key: %s", keysHint(e.key.Value, path, known))
			continue
		}
		if !isNull(e.val) {
			out[e.key.Value] = e.val
		}
	}
	return out
}

// keysHint suggests the key meant by a misspelled one and lists the keys of its level.
func keysHint(key, path string, known []string) string {
	under := ""
	if path != "" {
		under = " under " + path
	}
	if s := clarify.Nearest(key, known, 2); s != "" {
		return fmt.Sprintf("did you mean %q? The keys%s are %s", s, under, strings.Join(known, ", "))
	}
	return fmt.Sprintf("remove it, or use one of the keys%s: %s", under, strings.Join(known, ", "))
}

// roles reads `roles`; given reports whether the file has a usable mapping there, so that
// routes and priority are checked against it.
func (p *parser) roles(n *yaml.Node) (roles map[string][]string, given bool) {
	if n == nil || !p.isMapping(n, "roles", `{architect: [alice, "@octo/architects"]}`) {
		return nil, false
	}
	roles = map[string][]string{}
	for _, e := range p.entries(n, "roles", true) {
		name := e.key.Value
		if why := roleNameProblem(name); why != "" {
			p.add(e.key, "roles", "%s is not a role name: it %s. Write a name like architect or product-manager", quote(name), why)
		}
		key := "roles." + keyName(name)
		members := []string{}
		seen := map[string]int{}
		for _, item := range p.list(e.val, key, `[alice, "@octo/architects"]`) {
			h, why := parseHandle(item.Value)
			if why != "" {
				p.add(item, key, `%s is not a login or a team: it %s. Write a login like alice, or a team like "@octo/architects"`, quote(item.Value), why)
				continue
			}
			m := h.Login
			if h.Team() {
				m = "@" + h.Org + "/" + h.Slug
			}
			if p.repeated(item, key, m, seen) {
				continue
			}
			members = append(members, m)
		}
		roles[name] = members
	}
	return roles, true
}

// roleNameProblem says why name cannot be a role, or "". A role is addressed as @name in a
// command, so it follows the rules of a login.
func roleNameProblem(name string) string {
	switch {
	case strings.HasPrefix(name, "@"):
		return "starts with @, which a role name is written without"
	case strings.Contains(name, "/"):
		return "has a /, and a team is a member of a role, not a role"
	}
	if why := clarify.LoginProblem(name); why != "" {
		return strings.Replace(why, "GitHub allows", "a role name (like a login) has", 1)
	}
	return ""
}

// routes reads `routes`: asker role → the targets it may ask.
func (p *parser) routes(n *yaml.Node, roles map[string][]string, rolesGiven bool) map[string][]string {
	if !p.isMapping(n, "routes", "{engineer: [architect, product-manager]}") {
		return nil
	}
	routes := map[string][]string{}
	for _, e := range p.entries(n, "routes", false) {
		asker := e.key.Value
		if why := roleNameProblem(asker); why != "" {
			p.add(e.key, "routes", "%s is not a role name: it %s. The keys of routes are the roles of askers", quote(asker), why)
		} else if _, ok := roles[asker]; rolesGiven && !ok {
			p.add(e.key, "routes", "%s is not one of the roles: %s", quote(asker), rolesHint(asker, roles))
		}
		key := "routes." + keyName(asker)
		targets := []string{}
		seen := map[string]int{}
		for _, item := range p.list(e.val, key, `[architect, "@alice"]`) {
			t, ok := p.target(item, key, roles, rolesGiven)
			if !ok || p.repeated(item, key, t, seen) {
				continue
			}
			targets = append(targets, t)
		}
		routes[asker] = targets
	}
	return routes
}

// target reads one target of a route, resolved the way a command resolves `@name`: a
// configured role first, then a team, then a login. A bare name must be a role when roles
// are given, so a misspelled role is caught rather than taken for a person's login.
func (p *parser) target(item *yaml.Node, key string, roles map[string][]string, rolesGiven bool) (string, bool) {
	v := item.Value
	name := strings.TrimPrefix(v, "@")
	if _, ok := roles[name]; ok {
		return name, true
	}
	if strings.HasPrefix(v, "@") || strings.Contains(v, "/") {
		h, why := parseHandle(v)
		if why != "" {
			p.add(item, key, `%s is not a role, login or team: it %s. Write a role like architect, a person like "@alice" or a team like "@octo/architects"`, quote(v), why)
			return "", false
		}
		if h.Team() {
			return "@" + h.Org + "/" + h.Slug, true
		}
		return h.Login, true
	}
	if rolesGiven {
		hint := rolesHint(v, roles)
		if clarify.LoginProblem(v) == "" {
			hint += fmt.Sprintf(`. Write "@%s" if you mean the person`, v)
		}
		p.add(item, key, "%s is not one of the roles: %s", quote(v), hint)
		return "", false
	}
	if why := roleNameProblem(v); why != "" {
		p.add(item, key, `%s is not a role or a login: it %s. Write a role like architect or a person like "@alice"`, quote(v), why)
		return "", false
	}
	return v, true
}

// priority reads `priority`: role names, highest first.
func (p *parser) priority(n *yaml.Node, roles map[string][]string, rolesGiven bool) []string {
	out := []string{}
	seen := map[string]int{}
	for _, item := range p.list(n, "priority", "[product-manager, architect, engineer]") {
		v := item.Value
		if why := roleNameProblem(v); why != "" {
			p.add(item, "priority", "%s is not a role name: it %s. List role names, highest first, like [product-manager, architect, engineer]", quote(v), why)
			continue
		}
		if _, ok := roles[v]; rolesGiven && !ok {
			p.add(item, "priority", "%s is not one of the roles: %s", quote(v), rolesHint(v, roles))
			continue
		}
		if p.repeated(item, "priority", v, seen) {
			continue
		}
		out = append(out, v)
	}
	return out
}

// mentions reads `escalation.mention`: logins without @, teams as "org/team".
func (p *parser) mentions(n *yaml.Node) []string {
	const key = "escalation.mention"
	out := []string{}
	seen := map[string]int{}
	for _, item := range p.list(n, key, `[maria, "@octo/maintainers"]`) {
		h, why := parseHandle(item.Value)
		if why != "" {
			p.add(item, key, `%s is not a login or a team: it %s. Write a login like maria, or a team like "@octo/maintainers"`, quote(item.Value), why)
			continue
		}
		m := h.Login
		if h.Team() {
			m = h.Org + "/" + h.Slug
		}
		if p.repeated(item, key, m, seen) {
			continue
		}
		if len(out) == maxMentions {
			p.add(item, key, "lists more than %d logins and teams, and an escalation mentions at most %d: mention a team (@org/team) instead", maxMentions, maxMentions)
			break
		}
		out = append(out, m)
	}
	return out
}

// labels reads the label names over the defaults; the three must stay distinct (GitHub
// compares label names without regard to case).
func (p *parser) labels(f map[string]*yaml.Node) Labels {
	l := DefaultLabels()
	slots := []struct {
		key  string
		name *string
	}{{"active", &l.Active}, {"stale", &l.Stale}, {"escalated", &l.Escalated}}
	for i, s := range slots {
		n := f[s.key]
		if n == nil {
			continue
		}
		key := "labels." + s.key
		v, ok := p.text(n, key, "a label name like clarification:"+s.key)
		if !ok {
			continue
		}
		switch {
		case v == "":
			p.add(n, key, "a label name cannot be empty: write one, or remove the line to keep %s", *s.name)
			continue
		case utf8.RuneCountInString(v) > maxLabelLen:
			p.add(n, key, "%s is %d characters long, and GitHub allows at most %d: write a shorter name", quote(v), utf8.RuneCountInString(v), maxLabelLen)
			continue
		case strings.TrimFunc(v, unicode.IsSpace) != v:
			p.add(n, key, "%s starts or ends with a space: write the name without it", quote(v))
			continue
		case strings.IndexFunc(v, unicode.IsControl) >= 0:
			p.add(n, key, "%s has a control character (a line break or a tab): write the name on one line", quote(v))
			continue
		}
		for _, other := range slots[:i] {
			if strings.EqualFold(v, *other.name) {
				p.add(n, key, "%s is also the %s label: give each label its own name", quote(v), other.key)
			}
		}
		for _, other := range slots[i+1:] {
			if f[other.key] == nil && strings.EqualFold(v, *other.name) {
				p.add(n, key, "%s is the default %s label: give each label its own name, or set labels.%s too", quote(v), other.key, other.key)
			}
		}
		*s.name = v
	}
	return l
}

// require reads `require`: the fields every ask must carry.
func (p *parser) require(n *yaml.Node) []string {
	out := []string{}
	seen := map[string]int{}
	var fallback *yaml.Node
	for _, item := range p.list(n, "require", "[type, options, fallback]") {
		v := item.Value
		if !slices.Contains(requireChoices, v) {
			p.add(item, "require", "%s is not a field an ask can carry: %s", quote(v), didYouMean(v, requireChoices, "write any of "+strings.Join(requireChoices, ", ")))
			continue
		}
		if p.repeated(item, "require", v, seen) {
			continue
		}
		if v == "fallback" {
			fallback = item
		}
		out = append(out, v)
	}
	if fallback != nil && !slices.Contains(out, "options") {
		p.add(fallback, "require", "fallback names one of the options, so requiring it needs options too: write [options, fallback]")
	}
	return out
}

// repeated reports (as a problem) whether v, compared without regard to case, was seen
// already in this list, and remembers it otherwise.
func (p *parser) repeated(item *yaml.Node, key, v string, seen map[string]int) bool {
	k := strings.ToLower(v)
	if line, ok := seen[k]; ok {
		p.add(item, key, "%s is listed twice (first on line %d): list it once", quote(item.Value), line)
		return true
	}
	seen[k] = item.Line
	return false
}

// integer reads a whole number in [min, max]; want describes what to write. A nil node is
// absent and reads as not ok without a problem.
func (p *parser) integer(n *yaml.Node, key string, min, max int, want string) (int, bool) {
	if n == nil || !p.isScalar(n, key, want) {
		return 0, false
	}
	var v int
	switch n.ShortTag() {
	case "!!int":
		if err := n.Decode(&v); err != nil {
			p.add(n, key, "%s is too large: write %s", describe(n), want)
			return 0, false
		}
	case "!!str":
		if _, err := strconv.Atoi(strings.TrimSpace(n.Value)); err == nil {
			p.add(n, key, "%s is in quotes, which makes it text: write %s without quotes", quote(n.Value), want)
			return 0, false
		}
		fallthrough
	default:
		p.add(n, key, "%s is not %s", describe(n), want)
		return 0, false
	}
	switch {
	case v < min:
		p.add(n, key, "%d is too small: write %s", v, want)
		return 0, false
	case v > max:
		p.add(n, key, "%d is too large: write %s", v, want)
		return 0, false
	}
	return v, true
}

// duration reads a Go duration within [minSLA, maxSLA].
func (p *parser) duration(n *yaml.Node, key string) (time.Duration, bool) {
	if n == nil || !p.isScalar(n, key, "a duration like 30m or 2h") {
		return 0, false
	}
	v := strings.TrimSpace(n.Value)
	d, err := time.ParseDuration(v)
	switch {
	case err != nil && v != "" && (strings.HasSuffix(v, "d") || strings.HasSuffix(v, "days")):
		p.add(n, key, "%s is not a duration: a duration has no days, so write hours, like 48h", quote(n.Value))
	case err != nil:
		p.add(n, key, "%s is not a duration (use 30m, 2h)", quote(n.Value))
	case d < minSLA:
		p.add(n, key, "%s is too short: write %s or more, like 30m", quote(n.Value), clarify.FormatDuration(minSLA))
	case d > maxSLA:
		p.add(n, key, "%s is too long: write at most %s (30 days)", quote(n.Value), clarify.FormatDuration(maxSLA))
	default:
		return d, true
	}
	return 0, false
}

// choice reads one of choices; want describes them.
func (p *parser) choice(n *yaml.Node, key string, choices []string, want string) (string, bool) {
	if n == nil {
		return "", false
	}
	v, ok := p.text(n, key, want)
	if !ok {
		return "", false
	}
	if !slices.Contains(choices, v) {
		p.add(n, key, "%s is not a choice: %s", quote(v), didYouMean(v, choices, "write "+want))
		return "", false
	}
	return v, true
}

// text reads a scalar as text: a label may well be 2024 or yes.
func (p *parser) text(n *yaml.Node, key, want string) (string, bool) {
	if !p.isScalar(n, key, want) {
		return "", false
	}
	return n.Value, true
}

// list reads a list of names: its items that are plain values, reporting the others. A nil
// or empty node is an empty list.
func (p *parser) list(n *yaml.Node, key, example string) []*yaml.Node {
	if n == nil || isNull(n) || p.isAlias(n, key) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		if n.Kind == yaml.ScalarNode {
			example = "[" + flowScalar(n.Value) + "]"
		}
		p.add(n, key, "expected a list, and this is %s: write %s", describe(n), example)
		return nil
	}
	var out []*yaml.Node
	for _, item := range n.Content {
		switch {
		case p.isAlias(item, key):
		case item.Kind != yaml.ScalarNode:
			p.add(item, key, "expected a name in this list, and this is %s: write %s", describe(item), example)
		case isNull(item):
			p.add(item, key, "this entry is empty: remove it, or write a name in it")
		default:
			out = append(out, item)
		}
	}
	return out
}

// isMapping reports whether n holds keys and values, reporting it otherwise.
func (p *parser) isMapping(n *yaml.Node, key, example string) bool {
	if p.isAlias(n, key) {
		return false
	}
	if n.Kind != yaml.MappingNode {
		p.add(n, key, "expected keys and values, and this is %s: write %s: %s", describe(n), key[strings.LastIndex(key, ".")+1:], example)
		return false
	}
	return true
}

// isScalar reports whether n is one plain value, reporting it otherwise.
func (p *parser) isScalar(n *yaml.Node, key, want string) bool {
	if p.isAlias(n, key) {
		return false
	}
	if n.Kind != yaml.ScalarNode {
		p.add(n, key, "expected %s, and this is %s", want, describe(n))
		return false
	}
	return true
}

// isAlias reports (as a problem) whether n is an alias (*name): the value it stands for is
// written elsewhere in the file, out of the reader's sight.
func (p *parser) isAlias(n *yaml.Node, key string) bool {
	if n.Kind != yaml.AliasNode {
		return false
	}
	p.add(n, key, "aliases (*%s) are not supported: write the value out here", n.Value)
	return true
}

// isNull reports whether n is an empty value (nothing, ~ or null).
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// describe names what a node holds, for "expected X, and this is Y".
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a set of keys and values"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	switch n.ShortTag() {
	case "!!null":
		return "empty"
	case "!!int", "!!float", "!!bool":
		if strings.IndexFunc(n.Value, unicode.IsControl) < 0 {
			return clip(n.Value) // a number reads better unquoted: "2.5 is not a whole number"
		}
	}
	return quote(n.Value)
}

// quote quotes a value from the file for a message, clipped so one long value cannot bury
// the others.
func quote(s string) string {
	return strconv.Quote(clip(s))
}

func clip(s string) string {
	if utf8.RuneCountInString(s) <= maxQuotedRunes {
		return s
	}
	return string([]rune(s)[:maxQuotedRunes]) + "…"
}

// flowScalar writes s as an item of a YAML flow list, quoted when it must be.
func flowScalar(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !isAlnum(r) && r != '-' && r != '_' }) < 0 {
		return s
	}
	return quote(s)
}

// rolesHint suggests the role meant and lists the configured ones.
func rolesHint(name string, roles map[string][]string) string {
	if len(roles) == 0 {
		return "roles names none"
	}
	names := make([]string, 0, len(roles))
	for r := range roles {
		names = append(names, r)
	}
	slices.Sort(names)
	return didYouMean(name, names, "the roles are "+strings.Join(names, ", "))
}

// didYouMean puts `did you mean "x"? ` before rest when a choice is close to s.
func didYouMean(s string, choices []string, rest string) string {
	if c := clarify.Nearest(s, choices, 2); c != "" {
		return fmt.Sprintf("did you mean %q? %s", c, strings.ToUpper(rest[:1])+rest[1:])
	}
	return rest
}

// keyName writes a key from the file into a Problem's Key: as it is when it is a plain name,
// quoted (and clipped) when it holds anything that could garble the message.
func keyName(s string) string {
	if s != "" && len(s) <= maxQuotedRunes && strings.IndexFunc(s, func(r rune) bool {
		return !isAlnum(r) && r != '-' && r != '_' && r != '[' && r != ']'
	}) < 0 {
		return s
	}
	return quote(s)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
