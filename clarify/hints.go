package clarify

import "time"

// Hints are what a run learned of its repository that a later run of the same issue may
// take on trust rather than ask GitHub again: a workflow's runs are fresh processes that
// remember nothing else. They ride in the issue's signed ledger, so only the app can have
// written them; they are never a reason to save (a run that changes nothing else writes
// nothing), and each run that learns better overwrites them.
type Hints struct {
	// NoConfig says a run found no config file: until the next push, there is still none.
	NoConfig NoConfig `json:"no_config,omitzero"`
	// ConfigFile is the config file a run read, when it was small: until the next push, the
	// repository's file holds the same.
	ConfigFile ConfigFile `json:"config_file,omitzero"`
	// Memory names the issue that holds the repository's decisions.
	Memory MemoryHint `json:"memory,omitzero"`
}

// Push is where a repository's branches stand as a webhook payload shows its repository:
// pushed_at, which GitHub moves on every push to any branch (web edits and merges too), and
// the default branch, whose files are the ones read.
type Push struct {
	At     time.Time `json:"at"`
	Branch string    `json:"branch,omitempty"`
}

// Known reports whether the payload carried the repository's pushed_at: a sweep's run has
// no payload, and an empty repository has never been pushed to.
func (p Push) Known() bool { return !p.At.IsZero() }

// Same reports whether p and q are both known and the same: nothing was pushed between
// them, and the default branch is the one it was.
func (p Push) Same(q Push) bool { return p.Known() && p.At.Equal(q.At) && p.Branch == q.Branch }

// NoConfig is the repository's pushes as the payload of a run that found no config file
// showed them, and the newest comment of the issue that run had read before it looked.
// The payload's pushed_at is only as new as its own comment: a run queued before a push
// may apply replies made after it, which the hint does not vouch for (handlers/config.go).
type NoConfig struct {
	At     time.Time `json:"at"`
	Branch string    `json:"branch,omitempty"`
	// Seen is the newest comment read before the file was found missing: every comment up
	// to it was made while there was none. Zero when not known.
	Seen int64 `json:"seen,omitempty"`
}

// NoConfigAt is the hint of a run whose payload showed push and which had read the issue's
// comments up to seen before it found no file.
func NoConfigAt(push Push, seen int64) NoConfig {
	return NoConfig{At: push.At, Branch: push.Branch, Seen: seen}
}

// Pushed is the push the hint was noted at.
func (h NoConfig) Pushed() Push { return Push{At: h.At, Branch: h.Branch} }

// ConfigFile is the content of the repository's config file as a run read it, with the
// push and the comments it holds as of, as NoConfig's do for a missing file.
type ConfigFile struct {
	AsOf    NoConfig `json:"as_of"`
	Content string   `json:"content"`
}

// MemoryHint names the issue that holds the repository's decisions, with the mark that
// proves it the app's (the one its label carries), so that a later run reads the decisions
// there without looking the label up first.
type MemoryHint struct {
	Issue int    `json:"issue"`
	Mark  string `json:"mark"`
}
