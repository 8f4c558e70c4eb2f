package repoconfig

import (
	"fmt"
	"strings"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// The labels the app keeps true unless a repository names its own.
const (
	DefaultLabelActive    = "clarification:active"
	DefaultLabelStale     = "clarification:stale"
	DefaultLabelEscalated = "clarification:escalated"
)

// IsDefaultLabel reports whether name is one of the default label names, which are the
// app's alone; any other name may be one people already use.
func IsDefaultLabel(name string) bool {
	return strings.EqualFold(name, DefaultLabelActive) || strings.EqualFold(name, DefaultLabelStale) ||
		strings.EqualFold(name, DefaultLabelEscalated)
}

// MaxSize is the largest config file Parse reads, in bytes (64 KiB).
const MaxSize = 64 << 10

// Labels are the names of the labels the app keeps true.
type Labels struct {
	Active, Stale, Escalated string
}

// Config is a repository's Clarify configuration.
type Config struct {
	Policy    clarify.Policy
	Labels    Labels
	Notify    Notify
	Decisions Decisions
	// Dashboard keeps one issue of the app's listing the repository's clarifications.
	Dashboard bool
	// Relations shows each blocking clarification in GitHub's own model too, as a decision
	// issue and an edge of kind clarify.RelationBlockedBy or clarify.RelationSubIssue;
	// empty: not at all.
	Relations string
	// VerifyKeys are the public keys askers believe Clarify's workflow by (verify_keys):
	// given, Clarify runs as a workflow there and writes as github-actions[bot].
	VerifyKeys render.VerifyKeys
}

// DefaultLabels returns clarification:active, clarification:stale and clarification:escalated.
func DefaultLabels() Labels {
	return Labels{Active: DefaultLabelActive, Stale: DefaultLabelStale, Escalated: DefaultLabelEscalated}
}

// Default returns the configuration of a repository without a config file.
func Default() Config {
	return Config{Policy: clarify.DefaultPolicy(), Labels: DefaultLabels(), Decisions: DefaultDecisions()}
}

// Parse reads a config file strictly: an unknown key, a wrong type or an invalid value is a
// Problem with its line. An empty file, or one with only comments, gives Default(). On any
// problem it returns Default() and an *Error listing every problem, so a half-valid file
// never half-applies.
func Parse(b []byte) (Config, error) {
	if len(b) > MaxSize {
		return Default(), &Error{Problems: []Problem{{Message: fmt.Sprintf(
			"the file has %d bytes, more than the %d (64 KiB) a config may have: list teams (@org/team) instead of long lists of logins",
			len(b), MaxSize)}}}
	}
	root, problems := decode(b)
	if len(problems) > 0 {
		return Default(), newError(problems)
	}
	p := &parser{}
	cfg := p.config(root)
	if len(p.problems) > 0 {
		return Default(), newError(p.problems)
	}
	return cfg, nil
}
