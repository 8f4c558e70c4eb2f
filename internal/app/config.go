package app

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/palantir/go-githubapp/githubapp"
	"gopkg.in/yaml.v3"

	"github.com/clarify-app/clarify/handlers"
)

// Defaults of the app's own settings; config.example.yml documents each.
const (
	DefaultAddress       = "127.0.0.1"
	DefaultPort          = 8080
	DefaultV3APIURL      = "https://api.github.com/"
	DefaultV4APIURL      = "https://api.github.com/graphql"
	DefaultWebURL        = "https://github.com"
	DefaultAppSlug       = "clarify"
	DefaultWorkers       = 8
	DefaultLogLevel      = "info"
	DefaultSweepInterval = time.Minute
	// MaxWebhookBody is GitHub's payload cap; GitHub never sends more, so more is refused.
	MaxWebhookBody = 25 << 20
)

// Config is the whole configuration of `bot serve`.
type Config struct {
	Server  ServerConfig     `yaml:"server"`
	Github  githubapp.Config `yaml:"github"`
	Clarify ClarifyConfig    `yaml:"clarify"`
	// Retry tunes the retries of GitHub's transient faults; tests shorten its waits.
	Retry handlers.RetryOptions `yaml:"-"`
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
	// WritesPerMinute paces each installation's writes; 0 = default, negative = unpaced.
	WritesPerMinute int `yaml:"writes_per_minute"`
}

// LoadConfig reads a config file strictly (an unknown key is an error), applies the
// environment over it, fills defaults and validates the result.
func LoadConfig(path string) (Config, error) {
	var c Config
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return c, err
		}
		if err := decodeStrict(b, &c); err != nil {
			return c, fmt.Errorf("%s: %w", path, err)
		}
	}
	c.FromEnv()
	c.Defaults()
	return c, c.Validate()
}

// decodeStrict decodes YAML into c, refusing keys c does not have, so a misspelt key is
// an error instead of a default silently in force. An empty file is an empty config.
func decodeStrict(b []byte, c *Config) error {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// FromEnv overrides the file with the environment: go-githubapp's GITHUB_* names, and
// CLARIFY_* and SERVER_* for the rest.
func (c *Config) FromEnv() {
	c.Github.SetValuesFromEnv("")
	str := func(key string, v *string) {
		if s, ok := os.LookupEnv(key); ok {
			*v = s
		}
	}
	str("SERVER_ADDRESS", &c.Server.Address)
	if s, ok := os.LookupEnv("SERVER_PORT"); ok {
		if n, err := strconv.Atoi(s); err == nil {
			c.Server.Port = n
		}
	}
	str("CLARIFY_APP_SLUG", &c.Clarify.AppSlug)
	str("CLARIFY_LEDGER_KEY", &c.Clarify.LedgerKey)
	str("CLARIFY_LOG_LEVEL", &c.Clarify.LogLevel)
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
		c.Clarify.HandlerTimeout = handlers.DefaultHandlerTimeout
	}
	if c.Clarify.SweepInterval == 0 {
		c.Clarify.SweepInterval = DefaultSweepInterval
	}
	if c.Clarify.WritesPerMinute == 0 {
		c.Clarify.WritesPerMinute = handlers.DefaultWritesPerMinute
	}
	if c.Clarify.SweepBudget == 0 {
		c.Clarify.SweepBudget = handlers.DefaultSweepBudget
	}
}

// Validate refuses a config the app cannot run safely with.
func (c *Config) Validate() error {
	var errs []error
	if c.Github.App.WebhookSecret == "" {
		// go-githubapp skips the signature check when the secret is empty: anyone
		// could then drive the app, so it does not start.
		errs = append(errs, errors.New("github.app.webhook_secret (GITHUB_APP_WEBHOOK_SECRET) is required"))
	}
	if c.Github.App.IntegrationID == 0 {
		errs = append(errs, errors.New("github.app.integration_id (GITHUB_APP_INTEGRATION_ID) is required"))
	}
	if c.Github.App.PrivateKey == "" {
		errs = append(errs, errors.New("github.app.private_key (GITHUB_APP_PRIVATE_KEY) is required"))
	}
	if c.Server.Port < 1 || c.Server.Port > 65535 {
		errs = append(errs, fmt.Errorf("server.port %d is not a port", c.Server.Port))
	}
	if c.Clarify.SweepBudget < 1 {
		errs = append(errs, fmt.Errorf("clarify.sweep_budget must be at least 1, not %d", c.Clarify.SweepBudget))
	}
	if c.Clarify.Workers < 1 {
		errs = append(errs, fmt.Errorf("clarify.workers must be at least 1, not %d", c.Clarify.Workers))
	}
	return errors.Join(errs...)
}

// LedgerKeyBytes returns the ledger MAC key: the configured one, or one derived from the
// app's private key. Never from the webhook secret: every status comment publishes a
// ledger and its MAC, and a key a fast function draws from a guessable secret would let
// anyone test guesses of that secret offline, then sign deliveries.
func (c *Config) LedgerKeyBytes() []byte {
	if c.Clarify.LedgerKey != "" {
		return []byte(c.Clarify.LedgerKey)
	}
	m := hmac.New(sha256.New, []byte(c.Github.App.PrivateKey))
	m.Write([]byte("clarify ledger key v2"))
	return m.Sum(nil)
}

// PreviousLedgerKeys returns the keys that still verify ledgers (never sign them): the
// configured previous keys, for a rotation without a rebuild notice in every issue, and
// the key earlier versions drew from the webhook secret, so that an upgrade re-signs each
// ledger at its next save instead of rebuilding it.
func (c *Config) PreviousLedgerKeys() [][]byte {
	var out [][]byte
	for _, k := range c.Clarify.PreviousLedgerKeys {
		out = append(out, []byte(k))
	}
	m := hmac.New(sha256.New, []byte(c.Github.App.WebhookSecret))
	m.Write([]byte("clarify ledger key v1"))
	return append(out, m.Sum(nil))
}
