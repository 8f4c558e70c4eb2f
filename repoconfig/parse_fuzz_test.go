package repoconfig

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// FuzzParse checks what must hold for any file: Parse never panics; a refusal is always an
// *Error with at least one problem, each on a line of the file, with the defaults beside
// it; and an accepted file gives values within their documented ranges that survive being
// written out and read again.
func FuzzParse(f *testing.F) {
	for _, tc := range refusals {
		if len(tc.in) <= MaxSize {
			f.Add(tc.in)
		}
	}
	f.Add(readFile(f, "testdata/full.yml"))
	f.Add(readFile(f, "testdata/broken.yml"))
	f.Add("roles:\n  a: [b]\nroutes:\n  a: [a, \"@c\", \"@o/t\"]\npriority: [a]\n")
	f.Fuzz(func(t *testing.T, in string) {
		cfg, err := Parse([]byte(in))
		if err != nil {
			checkError(t, in, cfg, err)
			return
		}
		checkSensible(t, in, cfg)
		out := encode(t, cfg)
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(%q) was accepted, but its config written out is refused:\n%s\n%v", in, out, err)
		}
		if !reflect.DeepEqual(again, cfg) {
			t.Fatalf("Parse(%q) = %+v\nwritten out:\n%s\nreads back as %+v", in, cfg, out, again)
		}
	})
}

func checkError(t *testing.T, in string, cfg Config, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || len(e.Problems) == 0 {
		t.Fatalf("Parse(%q) error = %#v, want an *Error with problems", in, err)
	}
	if !reflect.DeepEqual(cfg, Default()) {
		t.Fatalf("Parse(%q) refused the file but returned %+v, not Default()", in, cfg)
	}
	// At most one line per line break of any kind YAML knows, and the one after the last.
	lines := 1
	for _, r := range in {
		if strings.ContainsRune("\r\n\u0085\u2028\u2029", r) {
			lines++
		}
	}
	for _, p := range e.Problems {
		if p.Message == "" || p.Line < 0 || p.Line > lines+1 {
			t.Fatalf("Parse(%q) problem %#v: no message, or a line outside the file's %d", in, p, lines)
		}
		if p.Line == 0 && len(in) <= MaxSize {
			t.Fatalf("Parse(%q) problem %q has no line", in, p)
		}
		if strings.ContainsAny(p.String(), "\n\r") {
			t.Fatalf("Parse(%q) problem %q spans lines", in, p)
		}
	}
	if !slices.IsSortedFunc(e.Problems, func(a, b Problem) int { return a.Line - b.Line }) {
		t.Fatalf("Parse(%q) problems are not sorted by line: %v", in, e.Problems)
	}
}

// checkSensible asserts the ranges and forms the package documents.
func checkSensible(t *testing.T, in string, cfg Config) {
	t.Helper()
	fail := func(what string) { t.Fatalf("Parse(%q) accepted %s: %+v", in, what, cfg) }
	checkSensibleLimits(cfg.Policy, fail)
	checkSensibleLabels(cfg.Labels, fail)
	checkSensibleRoles(cfg.Policy, fail)
	checkSensibleRoutes(cfg.Policy, fail)
	if i := cfg.Decisions.Inherit; i != "" && i != OrgRepository {
		if _, _, ok := clarify.ParseRepo(i); !ok {
			fail("decisions.inherit of no repository")
		}
	}
}

// checkSensibleLimits fails for rounds, an SLA or a quota out of range, or an unknown
// answer_from or required field.
func checkSensibleLimits(p clarify.Policy, fail func(string)) {
	if p.MaxRoundsBlocking < minRounds || p.MaxRoundsBlocking > maxRounds ||
		p.MaxRoundsNonBlocking < minRounds || p.MaxRoundsNonBlocking > maxRounds {
		fail("rounds out of range")
	}
	if p.SLA < minSLA || p.SLA > maxSLA {
		fail("an SLA out of range")
	}
	if p.MaxPerIssue < 0 {
		fail("a negative quota")
	}
	if !slices.Contains(answerFromChoices, p.AnswerFrom) {
		fail("an unknown answer_from")
	}
	for _, r := range p.Require {
		if !slices.Contains(requireChoices, r) {
			fail("an unknown required field")
		}
	}
}

// checkSensibleLabels fails for a label name GitHub refuses or two labels of one name.
func checkSensibleLabels(l Labels, fail func(string)) {
	for _, s := range []string{l.Active, l.Stale, l.Escalated} {
		if s == "" || utf8.RuneCountInString(s) > maxLabelLen {
			fail("a label name that GitHub refuses")
		}
	}
	if strings.EqualFold(l.Active, l.Stale) || strings.EqualFold(l.Active, l.Escalated) || strings.EqualFold(l.Stale, l.Escalated) {
		fail("two labels of one name")
	}
}

// checkSensibleRoles fails for a bad role name, role member or escalation mention.
func checkSensibleRoles(p clarify.Policy, fail func(string)) {
	for role, members := range p.Roles {
		if roleNameProblem(role) != "" {
			fail("a bad role name")
		}
		for _, m := range members {
			if h, why := parseHandle(m); why != "" || h.Team() != strings.HasPrefix(m, "@") {
				fail("a member that is not a login without @ or an @org/team")
			}
		}
	}
	for _, m := range p.EscalationMention {
		if _, why := parseHandle(m); why != "" || strings.HasPrefix(m, "@") {
			fail("a mention that is not a login or org/team without @")
		}
	}
}

// checkSensibleRoutes fails for a route from an unknown role or to a bad target, or a
// priority naming a role that is not configured.
func checkSensibleRoutes(p clarify.Policy, fail func(string)) {
	for asker, targets := range p.Routes {
		if _, ok := p.Roles[asker]; p.Roles != nil && !ok {
			fail("a route from an unknown role")
		}
		for _, tg := range targets {
			if _, why := parseHandle(tg); why != "" {
				fail("a route to a bad target")
			}
		}
	}
	for _, r := range p.Priority {
		if _, ok := p.Roles[r]; p.Roles != nil && !ok && !slices.Equal(p.Priority, clarify.DefaultPriority) {
			fail("a priority of an unknown role")
		}
	}
}

// orNull is s, or YAML's null for "", which a key takes for absent.
func orNull(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// encodeDecisions writes d out as the file's `decisions` mapping.
func encodeDecisions(d Decisions) map[string]any {
	dm := map[string]any{"offer": d.Offer}
	if d.SettleAfter > 0 {
		dm["settle_after"] = d.SettleAfter.String()
	}
	switch d.Inherit {
	case "":
	case OrgRepository:
		dm["inherit"] = true
	default:
		dm["inherit"] = d.Inherit
	}
	return dm
}

// encode writes cfg out as a config file, leaving out what is at its default.
func encode(t *testing.T, cfg Config) []byte {
	t.Helper()
	p, d := cfg.Policy, Default()
	m := map[string]any{}
	if p.Roles != nil {
		m["roles"] = p.Roles
	}
	if p.Routes != nil {
		routes := map[string][]string{}
		for asker, targets := range p.Routes {
			routes[asker] = []string{}
			for _, tg := range targets {
				// A login is stored without its @, but a bare name is a role when roles are given.
				if _, isRole := p.Roles[tg]; p.Roles != nil && !isRole && !strings.HasPrefix(tg, "@") {
					tg = "@" + tg
				}
				routes[asker] = append(routes[asker], tg)
			}
		}
		m["routes"] = routes
	}
	m["max_rounds"] = map[string]int{"blocking": p.MaxRoundsBlocking, "non_blocking": p.MaxRoundsNonBlocking}
	m["sla"] = p.SLA.String()
	if !slices.Equal(p.Priority, d.Policy.Priority) {
		m["priority"] = p.Priority
	}
	if p.EscalationMention != nil {
		m["escalation"] = map[string][]string{"mention": p.EscalationMention}
	}
	m["labels"] = map[string]string{"active": cfg.Labels.Active, "stale": cfg.Labels.Stale, "escalated": cfg.Labels.Escalated}
	m["notify"] = map[string]bool{"dispatch": cfg.Notify.Dispatch}
	m["answer_from"] = p.AnswerFrom
	m["max_per_issue"] = p.MaxPerIssue
	if p.Require != nil {
		m["require"] = p.Require
	}
	m["decisions"] = encodeDecisions(cfg.Decisions)
	m["dashboard"] = cfg.Dashboard
	m["relations"] = orNull(cfg.Relations)
	if cfg.VerifyKeys != nil {
		var keys []string
		for _, k := range cfg.VerifyKeys {
			keys = append(keys, render.FormatVerifyKey(k))
		}
		m["verify_keys"] = keys
	}
	out, err := yaml.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
