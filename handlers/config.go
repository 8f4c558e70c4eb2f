package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/appconfig"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/repoconfig"
)

// ConfigPath is where a repository keeps its Clarify configuration; the organization's
// default lives at clarify.yml or .github/clarify.yml in its ".github" repository.
const ConfigPath = ".github/clarify.yml"

// DefaultConfigTTL is how long a loaded repository config is reused before it is asked
// for again. A file that exists is asked for conditionally (an unchanged one costs no
// rate limit); a missing one is two 404s each time, so the TTL keeps a busy installation
// from spending its hourly limit on files that are not there.
const DefaultConfigTTL = 5 * time.Minute

// RepoConfig is a repository's configuration as loaded for one run.
type RepoConfig struct {
	repoconfig.Config
	// Problem is set when the file could not be used; the defaults apply meanwhile.
	Problem *ConfigProblem
	// Fresh is true for the run that read the file from GitHub rather than the cache: only
	// that run's issue is told about a problem, not every issue while it lasts.
	Fresh bool
	// Missing says there is no file (the defaults apply), as read or as a ledger's hint says.
	Missing bool
	// file is the file's content, when hintable: the repository's own file, which parsed
	// and is small enough for a ledger to keep until the next push (configHints).
	file     string
	hintable bool
}

// ConfigProblem says which file was broken and how, for the one comment that tells the issue.
type ConfigProblem struct {
	Source, Path string
	Err          error
}

// Lines lists the problems one per line, as the parser wrote them.
func (p *ConfigProblem) Lines() []string { return repoconfig.Lines(p.Err) }

// Key identifies the problem, so the same broken file is reported once per issue.
func (p *ConfigProblem) Key() string {
	h := sha256.Sum256([]byte(p.Source + "\x00" + p.Path + "\x00" + p.Err.Error()))
	return "config:" + hex.EncodeToString(h[:8])
}

// ConfigLoader loads `.github/clarify.yml` through go-githubapp's appconfig, falling back to
// the organization's `.github` repository, and keeps each result for a short while.
type ConfigLoader struct {
	loader *appconfig.Loader
	// cache keeps each repository's config for the loader's ttl, and the last one read
	// after that, for when GitHub cannot be reached.
	cache cache[RepoConfig]
	// oneRepo says the loader reads the repository's own file only (a workflow's token
	// reaches no other repository), so that a push to the repository is the only thing that
	// can bring or change a file: a ledger's hint of what it was holds until the next (holds).
	oneRepo bool
}

// NewConfigLoader returns a loader that reuses a repository's config for ttl.
func NewConfigLoader(ttl time.Duration, now func() time.Time) *ConfigLoader {
	return newConfigLoader(ttl, now, appconfig.WithOwnerDefault(".github", []string{"clarify.yml", ConfigPath}))
}

// NewRepoConfigLoader is a ConfigLoader that reads the repository's own file only, not the
// organisation's default in its .github repository: a workflow's GITHUB_TOKEN reaches no
// other repository, so that look-up could only cost a request and answer 404.
func NewRepoConfigLoader(ttl time.Duration, now func() time.Time) *ConfigLoader {
	l := newConfigLoader(ttl, now, appconfig.WithOwnerDefault("", nil))
	l.oneRepo = true
	return l
}

func newConfigLoader(ttl time.Duration, now func() time.Time, opts ...appconfig.Option) *ConfigLoader {
	return &ConfigLoader{loader: appconfig.NewLoader([]string{ConfigPath}, opts...), cache: cache[RepoConfig]{ttl: ttl, now: now}}
}

// Load returns the repository's config. A missing file gives the defaults; a broken one
// gives the defaults and a Problem; only a failure to reach GitHub is an error.
func (l *ConfigLoader) Load(ctx context.Context, client *github.Client, owner, repo string) (RepoConfig, error) {
	cfg, fetched, err := l.cache.load(owner+"/"+repo, func() (RepoConfig, bool, error) {
		return l.read(ctx, client, owner, repo)
	})
	if !fetched {
		cfg.Fresh = false // the run that read it reports its problems, the others do not
	}
	return cfg, err
}

// maxHintedConfig is the largest config file a ledger keeps (clarify.Hints.ConfigFile): a
// repository's roles and deadlines fit many times over, and the ledger's comment stays far
// from GitHub's limit on a comment's body.
const maxHintedConfig = 2048

// hintRun is what decides whether a run may take a ledger's config hints: the hints, the
// run's payload's push, the payload's own comment (0 for none) and the newest comment
// other than the app's that the run is to apply (0 for none).
type hintRun struct {
	none            clarify.NoConfig
	file            clarify.ConfigFile
	push            clarify.Push
	trigger, newest int64
}

// holds reports whether a hint noted as of asOf still says what the repository holds for
// this run: where the loader reads one repository only, the payload showing the same push
// means nothing changed the file before the payload's comment was made, nor before those
// the hint's own run had read (Seen); a run that applies a newer comment (a run queued
// before a push, taking in replies made after it) does not take it, nor does a run of
// another push, or of none known (a sweep's run, a payload without pushed_at). In App mode
// the organization's .github repository may hold the file, which this repository's pushes
// do not move, so no hint holds there.
func (l *ConfigLoader) holds(asOf clarify.NoConfig, h hintRun) bool {
	return l.oneRepo && asOf.Pushed().Same(h.push) && h.newest <= max(asOf.Seen, h.trigger)
}

// loadAfter is Load for a run whose issue's ledger may say what the config file was as of
// a push (holds): none, and the defaults apply, or a small file, which is parsed from the
// ledger; either way without a request.
func (l *ConfigLoader) loadAfter(ctx context.Context, client *github.Client, owner, repo string, h hintRun) (RepoConfig, error) {
	if l.holds(h.none, h) {
		zerolog.Ctx(ctx).Debug().Time("pushed_at", h.push.At).Msg("No configuration file as of the repository's last push; the defaults apply")
		return RepoConfig{Config: repoconfig.Default(), Missing: true}, nil
	}
	if l.holds(h.file.AsOf, h) {
		if cfg, err := repoconfig.Parse([]byte(h.file.Content)); err == nil {
			zerolog.Ctx(ctx).Debug().Time("pushed_at", h.push.At).Msg("The configuration file is as the ledger kept it at the repository's last push")
			return RepoConfig{Config: cfg, file: h.file.Content, hintable: true}, nil
		}
	}
	return l.Load(ctx, client, owner, repo)
}

// configHints is what a ledger records, after a run loaded cfg with its payload showing
// push, of the repository's config file: the push when the file is missing (NoConfig), or
// the file's content with the push when it is small (ConfigFile), with seen, the newest
// comment read before the file was, when this run read it; was, the hint it had, kept when
// the run cannot tell more (no push known, or the hint taken); nothing where the loader
// reads more than one repository, or the file is broken or large.
func (l *ConfigLoader) configHints(was clarify.Hints, cfg RepoConfig, push clarify.Push, seen int64) (clarify.NoConfig, clarify.ConfigFile) {
	switch {
	case !l.oneRepo:
		return clarify.NoConfig{}, clarify.ConfigFile{}
	case cfg.Missing:
		return asOf(was.NoConfig, cfg, push, seen), clarify.ConfigFile{}
	case cfg.hintable:
		prev := was.ConfigFile.AsOf
		if was.ConfigFile.Content != cfg.file {
			prev = clarify.NoConfig{}
		}
		return clarify.NoConfig{}, clarify.ConfigFile{AsOf: asOf(prev, cfg, push, seen), Content: cfg.file}
	default:
		return clarify.NoConfig{}, clarify.ConfigFile{}
	}
}

// asOf is the push and comment a config hint holds as of: the run's push and seen when it
// read the file itself, was when it cannot tell more (no push known, or the same push),
// and the run's push alone otherwise.
func asOf(was clarify.NoConfig, cfg RepoConfig, push clarify.Push, seen int64) clarify.NoConfig {
	switch {
	case !push.Known():
		return was
	case cfg.Fresh:
		return clarify.NoConfigAt(push, seen)
	case was.Pushed().Same(push):
		return was
	default:
		return clarify.NoConfigAt(push, 0)
	}
}

// read fetches the repository's config from GitHub, and says whether to keep it for the
// loader's ttl (not the last one read, given back while GitHub cannot be reached).
func (l *ConfigLoader) read(ctx context.Context, client *github.Client, owner, repo string) (RepoConfig, bool, error) {
	key := owner + "/" + repo
	last, _, cached := l.cache.lookup(key)

	out := RepoConfig{Config: repoconfig.Default(), Fresh: true}
	raw, err := l.loader.LoadConfig(ctx, client, owner, repo, "")
	switch {
	case err != nil && unreachable(err):
		if cached {
			// Not the file's fault: the policy the repository chose stays in force
			// rather than falling back to the defaults, and nobody is told of a problem.
			zerolog.Ctx(ctx).Warn().Err(err).Msg("Could not read the repository config; keeping the last one read")
			last.Fresh = false
			return last, false, nil
		}
		return out, false, err
	case err != nil:
		// A remote reference that does not parse, or names a file that is not there, is
		// the user's mistake, not ours.
		out.Problem = &ConfigProblem{Source: raw.Source, Path: raw.Path, Err: err}
	case raw.IsUndefined():
		out.Missing = true
	default:
		cfg, perr := repoconfig.Parse(raw.Content)
		if perr != nil {
			out.Problem = &ConfigProblem{Source: raw.Source, Path: raw.Path, Err: perr}
		} else {
			out.Config = cfg
			// A remote reference's file lives in a repository whose pushes this one's payloads
			// do not show, so only the repository's own file is kept.
			out.file, out.hintable = string(raw.Content), !raw.IsRemote && len(raw.Content) <= maxHintedConfig
		}
	}
	if out.Problem != nil {
		out.Problem.Source = strings.TrimSuffix(out.Problem.Source, "@")
		zerolog.Ctx(ctx).Warn().Str("config_path", out.Problem.Path).Str("config_source", out.Problem.Source).
			Err(out.Problem.Err).Msg("Repository config is broken; the defaults apply")
	}
	return out, true, nil
}

// unreachable reports whether a config load failed on the way to GitHub (an API error,
// a rate limit, a timeout, a token that could not be had) rather than on the file itself.
func unreachable(err error) bool {
	var (
		api   *github.ErrorResponse
		rate  *github.RateLimitError
		abuse *github.AbuseRateLimitError
		netw  net.Error
		urlE  *url.Error
	)
	return errors.As(err, &api) || errors.As(err, &rate) || errors.As(err, &abuse) || errors.As(err, &netw) ||
		errors.As(err, &urlE) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

// Labels returns the label names last loaded for a repository, or the defaults, for the
// cheap filter that runs before any request.
func (l *ConfigLoader) Labels(owner, repo string) repoconfig.Labels {
	if c, _, ok := l.cache.lookup(owner + "/" + repo); ok {
		return c.Labels
	}
	return repoconfig.Default().Labels
}
