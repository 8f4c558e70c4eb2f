package app

import (
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v4"
	"github.com/palantir/go-githubapp/githubapp"

	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/handlers/delivery"
	"github.com/clarify-app/clarify/handlers/sweep"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/internal/redisstate"
	"github.com/clarify-app/clarify/ledger"
)

// Defaults of the app's own settings; config.example.yml documents each.
const (
	DefaultAddress       = "127.0.0.1"
	DefaultPort          = 8080
	DefaultV3APIURL      = ghtransport.DefaultAPIURL
	DefaultV4APIURL      = "https://api.github.com/graphql"
	DefaultWebURL        = "https://github.com"
	DefaultAppSlug       = ledger.DefaultAppSlug
	DefaultWorkers       = 8
	DefaultLogLevel      = "info"
	DefaultSweepInterval = time.Minute
	// DefaultMaxUnverifiedBodyBytes holds two of GitHub's largest deliveries and many
	// ordinary ones (a few kB each) at once.
	DefaultMaxUnverifiedBodyBytes = 64 << 20
	// MaxWebhookBody is GitHub's payload cap; GitHub never sends more, so more is refused.
	MaxWebhookBody = 25 << 20
)

// Config is the whole configuration of `bot serve`.
type Config struct {
	Server  ServerConfig     `yaml:"server"`
	Github  githubapp.Config `yaml:"github"`
	Clarify ClarifyConfig    `yaml:"clarify"`
	// Retry tunes the retries of GitHub's transient faults; tests shorten its waits.
	Retry ghtransport.RetryOptions `yaml:"-"`
	// PaceMinute is how long the pacer's minute lasts; harnesses shorten it. PaceSpacing,
	// if set, is the least time between two writes of an installation (to compare with
	// the limits).
	PaceMinute  time.Duration `yaml:"-"`
	PaceSpacing time.Duration `yaml:"-"`
	// PrivateKeyFile is github.app.private_key_file (GITHUB_APP_PRIVATE_KEY_FILE), a file
	// holding the PEM. go-githubapp's struct has no field for it, so it lives here and
	// LoadConfig reads the key from it into Github.App.PrivateKey.
	PrivateKeyFile string `yaml:"-"`

	// problems are what FromEnv and LoadConfig found unusable; Validate reports them with
	// its own, so that an operator sees every mistake at once.
	problems []error
}

// ServerConfig is where the app listens.
type ServerConfig struct {
	Address string `yaml:"address"`
	Port    int    `yaml:"port"`
}

// ClarifyConfig holds the app's own settings.
type ClarifyConfig struct {
	// AppSlug is the app's slug as registered; its comments come from "<slug>[bot]".
	AppSlug string `yaml:"app_slug"`
	// LedgerKey keys the MAC of the hidden ledger; empty derives it from the private key.
	LedgerKey string `yaml:"ledger_key"`
	// PreviousLedgerKeys still verify ledgers signed before a rotation of ledger_key.
	PreviousLedgerKeys []string `yaml:"previous_ledger_keys"`
	// Workers bounds the deliveries handled at once; one issue is always one at a time.
	Workers int `yaml:"workers"`
	// HandlerTimeout bounds one delivery's run, which is detached from GitHub's request.
	HandlerTimeout time.Duration `yaml:"handler_timeout"`
	// LogLevel is zerolog's level name: debug, info, warn or error.
	LogLevel string `yaml:"log_level"`
	// SweepInterval is how often every installation's deadlines are checked; 0 = default,
	// negative = never (an external scheduler runs the sweep instead).
	SweepInterval time.Duration `yaml:"sweep_interval"`
	// SweepBudget bounds the GitHub requests one sweep spends per installation.
	SweepBudget int `yaml:"sweep_budget"`
	// WalkInterval is how often a sweep also walks every installation for issues its
	// deadline index does not know; 0 = default.
	WalkInterval time.Duration `yaml:"walk_interval"`
	// WritesPerMinute and WritesPerHour bound each installation's writes in any minute and
	// any hour; 0 = GitHub's limit, negative = no bound.
	WritesPerMinute int `yaml:"writes_per_minute"`
	WritesPerHour   int `yaml:"writes_per_hour"`
	// MaxUnverifiedBodyBytes bounds the bytes held, all connections together, for
	// deliveries whose signature is not checked yet; anyone can send those.
	MaxUnverifiedBodyBytes int64 `yaml:"max_unverified_body_bytes"`
	// RedisURL is the Redis that replicas behind one webhook URL share (issue leases, write
	// pacing, the sweep's lease, the deadline index, deliveries seen); empty keeps all of
	// it in this process, which is all one replica needs.
	RedisURL string `yaml:"redis_url"`
}

// LoadConfig reads a config file strictly (an unknown key is an error), applies the
// environment over it, fills defaults, reads the private key file if one is named, and
// validates the result. Every problem found is in the error, each naming its key.
func LoadConfig(path string) (Config, error) {
	var c Config
	var errs []error
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return c, err
		}
		for _, err := range decodeFile(b, &c) {
			errs = append(errs, fmt.Errorf("%s: %w", path, err))
		}
	}
	c.FromEnv()
	c.Defaults()
	c.LoadPrivateKey()
	return c, errors.Join(append(errs, c.Validate())...)
}

// FromEnv overrides the file with the environment: go-githubapp's GITHUB_* names,
// GITHUB_APP_PRIVATE_KEY_FILE, and CLARIFY_* and SERVER_* for the rest. A variable that
// does not parse is kept for Validate to report, never skipped in silence.
func (c *Config) FromEnv() {
	// go-githubapp drops a GITHUB_APP_INTEGRATION_ID it cannot parse and keeps the file's:
	// looked at again here so that a typo stops the start.
	c.Github.SetValuesFromEnv("")
	if s, ok := os.LookupEnv("GITHUB_APP_INTEGRATION_ID"); ok {
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			c.problems = append(c.problems, fmt.Errorf("GITHUB_APP_INTEGRATION_ID=%q is not a number: it is the App ID from the app's settings page", s))
		}
	}
	// The key and the key file are one setting spelt two ways: either, in the environment,
	// replaces whichever the file gave.
	key, file, err := ledger.PrivateKeyEnv()
	switch {
	case err != nil:
		c.problems = append(c.problems, err)
	case key != "":
		c.PrivateKeyFile = ""
	case file != "":
		c.PrivateKeyFile = file
		c.Github.App.PrivateKey = ""
	}
	str := func(key string, v *string) {
		if s, ok := os.LookupEnv(key); ok {
			*v = s
		}
	}
	str("SERVER_ADDRESS", &c.Server.Address)
	if s, ok := os.LookupEnv("SERVER_PORT"); ok {
		n, err := strconv.Atoi(s)
		if err != nil {
			c.problems = append(c.problems, fmt.Errorf("SERVER_PORT=%q is not a port number", s))
		} else {
			c.Server.Port = n
		}
	}
	str("CLARIFY_APP_SLUG", &c.Clarify.AppSlug)
	str("CLARIFY_LEDGER_KEY", &c.Clarify.LedgerKey)
	str("CLARIFY_LOG_LEVEL", &c.Clarify.LogLevel)
	// The name Probot's cluster mode and most hosting platforms give a Redis add-on.
	str("REDIS_URL", &c.Clarify.RedisURL)
}

// Defaults fills what was left empty.
func (c *Config) Defaults() {
	def := func(v *string, d string) {
		if *v == "" {
			*v = d
		}
	}
	def(&c.Server.Address, DefaultAddress)
	if c.Server.Port == 0 {
		c.Server.Port = DefaultPort
	}
	def(&c.Github.V3APIURL, DefaultV3APIURL)
	def(&c.Github.V4APIURL, DefaultV4APIURL)
	def(&c.Github.WebURL, DefaultWebURL)
	def(&c.Clarify.AppSlug, DefaultAppSlug)
	def(&c.Clarify.LogLevel, DefaultLogLevel)
	if c.Clarify.Workers == 0 {
		c.Clarify.Workers = DefaultWorkers
	}
	if c.Clarify.HandlerTimeout == 0 {
		c.Clarify.HandlerTimeout = delivery.DefaultHandlerTimeout
	}
	if c.Clarify.SweepInterval == 0 {
		c.Clarify.SweepInterval = DefaultSweepInterval
	}
	if c.Clarify.WritesPerMinute == 0 {
		c.Clarify.WritesPerMinute = ghtransport.DefaultWritesPerMinute
	}
	if c.Clarify.WritesPerHour == 0 {
		c.Clarify.WritesPerHour = ghtransport.DefaultWritesPerHour
	}
	if c.Clarify.SweepBudget == 0 {
		c.Clarify.SweepBudget = sweep.DefaultSweepBudget
	}
	if c.Clarify.WalkInterval == 0 {
		c.Clarify.WalkInterval = sweep.DefaultReconcileEvery
	}
	if c.Clarify.MaxUnverifiedBodyBytes == 0 {
		c.Clarify.MaxUnverifiedBodyBytes = DefaultMaxUnverifiedBodyBytes
	}
}

// LoadPrivateKey reads the key file when one is named, and turns a PEM whose line breaks
// arrived as literal \n (a common way to squeeze a key into one environment variable)
// back into the PEM GitHub issued, so that it parses.
func (c *Config) LoadPrivateKey() {
	if c.PrivateKeyFile != "" {
		key, err := ledger.ReadPrivateKey(c.PrivateKeyFile)
		switch {
		case errors.Is(err, ledger.ErrEmptyKeyFile):
			c.problems = append(c.problems, fmt.Errorf("github.app.private_key_file (GITHUB_APP_PRIVATE_KEY_FILE) %q is empty", c.PrivateKeyFile))
			return
		case err != nil:
			c.problems = append(c.problems, fmt.Errorf("github.app.private_key_file (GITHUB_APP_PRIVATE_KEY_FILE): %w", err))
			return
		}
		c.Github.App.PrivateKey = key
	}
	c.Github.App.PrivateKey = ledger.UnescapePEM(c.Github.App.PrivateKey)
}

// Validate refuses a config the app cannot run safely with, naming each key at fault and
// its environment variable, all at once.
func (c *Config) Validate() error {
	v := &problems{errs: append([]error(nil), c.problems...)}
	c.validateGitHub(v)
	c.validateServer(v)
	c.validateClarify(v)
	c.validateLimits(v)
	return errors.Join(v.errs...)
}

// problems gathers what Validate finds, so that every mistake is reported at once.
type problems struct{ errs []error }

func (v *problems) bad(format string, args ...any) {
	v.errs = append(v.errs, fmt.Errorf(format, args...))
}

// validateGitHub checks what the app needs to be GitHub's app: its secret, id, key and URLs.
func (c *Config) validateGitHub(v *problems) {
	if c.Github.App.WebhookSecret == "" {
		// go-githubapp skips the signature check when the secret is empty: anyone
		// could then drive the app, so it does not start.
		v.bad("github.app.webhook_secret (GITHUB_APP_WEBHOOK_SECRET) is required")
	}
	if c.Github.App.IntegrationID <= 0 {
		v.bad("github.app.integration_id (GITHUB_APP_INTEGRATION_ID) is required: the App ID from the app's settings page")
	}
	if c.PrivateKeyFile == "" || c.Github.App.PrivateKey != "" { // an unreadable file is reported already
		source := "github.app.private_key (GITHUB_APP_PRIVATE_KEY)"
		if c.PrivateKeyFile != "" {
			source = fmt.Sprintf("github.app.private_key_file (GITHUB_APP_PRIVATE_KEY_FILE) %q", c.PrivateKeyFile)
		}
		if problem := privateKeyProblem(c.Github.App.PrivateKey); problem != "" {
			v.bad("%s %s", source, problem)
		}
	}
	for _, u := range []struct{ key, env, value, example string }{
		{"github.web_url", "GITHUB_WEB_URL", c.Github.WebURL, DefaultWebURL},
		{"github.v3_api_url", "GITHUB_V3_API_URL", c.Github.V3APIURL, DefaultV3APIURL},
		{"github.v4_api_url", "GITHUB_V4_API_URL", c.Github.V4APIURL, DefaultV4APIURL},
	} {
		if p, err := url.Parse(u.value); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			v.bad("%s (%s) %q is not an http(s) URL, e.g. %s", u.key, u.env, u.value, u.example)
		}
	}
}

// validateServer checks where the webhook server listens.
func (c *Config) validateServer(v *problems) {
	if a := c.Server.Address; strings.Contains(a, ":") && net.ParseIP(a) == nil {
		v.bad("server.address (SERVER_ADDRESS) %q holds a port: put the port in server.port (SERVER_PORT)", a)
	}
	if c.Server.Port < 1 || c.Server.Port > 65535 {
		v.bad("server.port (SERVER_PORT) %d is not a port (1 to 65535)", c.Server.Port)
	}
}

// validateClarify checks the app's identity, keys and workers.
func (c *Config) validateClarify(v *problems) {
	if !handlers.IsSlug(c.Clarify.AppSlug) {
		v.bad("clarify.app_slug (CLARIFY_APP_SLUG) %q is not a slug: write it as in the app's URL, github.com/apps/SLUG, without [bot]", c.Clarify.AppSlug)
	}
	for i, k := range c.Clarify.PreviousLedgerKeys {
		if k == "" {
			v.bad("clarify.previous_ledger_keys[%d] is empty", i)
		}
	}
	if c.Clarify.Workers < 1 {
		v.bad("clarify.workers must be at least 1, not %d", c.Clarify.Workers)
	}
}

// validateLimits checks how the app runs: its bounds on time, requests and memory, its
// log level and its Redis.
func (c *Config) validateLimits(v *problems) {
	if c.Clarify.HandlerTimeout <= 0 {
		v.bad("clarify.handler_timeout must be positive, not %s", c.Clarify.HandlerTimeout)
	}
	if _, ok := LogLevel(c.Clarify.LogLevel); !ok || c.Clarify.LogLevel == "" {
		v.bad("clarify.log_level (CLARIFY_LOG_LEVEL) %q is not a level: use debug, info, warn or error", c.Clarify.LogLevel)
	}
	if c.Clarify.SweepBudget < 1 {
		v.bad("clarify.sweep_budget must be at least 1, not %d", c.Clarify.SweepBudget)
	}
	if c.Clarify.WalkInterval < 0 {
		v.bad("clarify.walk_interval must be positive, not %s", c.Clarify.WalkInterval)
	}
	if c.Clarify.MaxUnverifiedBodyBytes < MaxWebhookBody {
		// Below GitHub's cap, the largest deliveries would be refused every time.
		v.bad("clarify.max_unverified_body_bytes must be at least %d (GitHub's 25 MiB payload cap), not %d",
			MaxWebhookBody, c.Clarify.MaxUnverifiedBodyBytes)
	}
	if c.Clarify.RedisURL != "" {
		// Never quoted: the URL may hold Redis's password.
		if err := redisstate.CheckURL(c.Clarify.RedisURL); err != nil {
			v.bad("clarify.redis_url (REDIS_URL) is not a Redis URL: %v; write redis://[:password@]host:port[/db], or rediss:// for TLS", err)
		}
	}
}

// privateKeyProblem says in plain words what keeps key from being the App's RSA private
// key, or "" when it parses. It never quotes the key: the message goes to logs.
func privateKeyProblem(key string) string {
	trimmed := strings.TrimSpace(key)
	switch {
	case trimmed == "":
		return "is required: the PEM file generated on the app's settings page, whole, or name that file in github.app.private_key_file (GITHUB_APP_PRIVATE_KEY_FILE)"
	case !strings.Contains(trimmed, "-----BEGIN") && !strings.ContainsAny(trimmed, "\n ") && looksLikePath(trimmed):
		return fmt.Sprintf("holds a file path (%q), not a key: name the file in github.app.private_key_file (GITHUB_APP_PRIVATE_KEY_FILE) instead", trimmed)
	case !strings.Contains(trimmed, "-----BEGIN"):
		return "is not a PEM key: it should start with -----BEGIN RSA PRIVATE KEY-----, as the file GitHub gives you does"
	}
	block, _ := pem.Decode([]byte(trimmed))
	switch {
	case block == nil && strings.Contains(trimmed, `\n`):
		return `has \n escapes where line breaks belong, which are undone only in a key written wholly on one line: give the PEM with its line breaks`
	case block == nil:
		return "is not a whole PEM block: its line breaks may have been lost on the way (keep them, or write each as \\n), or the -----END line is missing"
	case block.Type != "RSA PRIVATE KEY" && block.Type != "PRIVATE KEY":
		return fmt.Sprintf("holds a PEM %q, not the App's RSA private key: generate a private key on the app's settings page", block.Type)
	}
	if _, err := jwt.ParseRSAPrivateKeyFromPEM([]byte(trimmed)); err != nil {
		return fmt.Sprintf("does not parse as an RSA private key (%v): generate a private key on the app's settings page", err)
	}
	return ""
}

// looksLikePath tells a file path put where the key belongs from other garbage, so that
// the message can say which setting the path was meant for.
func looksLikePath(s string) bool {
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "~") || strings.HasSuffix(s, ".pem") {
		return true
	}
	_, err := os.Stat(s)
	return err == nil
}

// LedgerKeyBytes returns the ledger MAC key (ledger.KeySource.Current).
func (c *Config) LedgerKeyBytes() []byte { return c.keySource().Current() }

// PreviousLedgerKeys returns the keys that still verify ledgers, never sign them
// (ledger.KeySource.PreviousKeys).
func (c *Config) PreviousLedgerKeys() [][]byte { return c.keySource().PreviousKeys() }

// keySource is what the config draws the ledger keys from.
func (c *Config) keySource() ledger.KeySource {
	return ledger.KeySource{LedgerKey: c.Clarify.LedgerKey, Previous: c.Clarify.PreviousLedgerKeys,
		PrivateKey: c.Github.App.PrivateKey, WebhookSecret: c.Github.App.WebhookSecret}
}
