package app

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/delivery"
	"github.com/clarify-app/clarify/handlers/sweep"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// Setting is one key of the server configuration as an operator reads it: in docs/app.md's
// table and in `bot serve -h`, which both come from Settings so that neither drifts from
// the code's defaults.
type Setting struct {
	// Key is the dotted YAML path; Env the environment variable that overrides it, if any.
	Key, Env string
	// Default is the value when neither sets it, in Markdown (`code` for a literal value).
	Default string
	// Meaning says what it is for, in Markdown.
	Meaning string
}

// Settings lists every key of the server configuration, in config.example.yml's order.
var Settings = []Setting{
	{"server.address", "SERVER_ADDRESS", code(DefaultAddress), "listen address"},
	{"server.port", "SERVER_PORT", code(strconv.Itoa(DefaultPort)), "listen port"},
	{"github.web_url", "GITHUB_WEB_URL", code(DefaultWebURL), "GitHub's web URL"},
	{"github.v3_api_url", "GITHUB_V3_API_URL", code(DefaultV3APIURL), "REST API base URL"},
	{"github.v4_api_url", "GITHUB_V4_API_URL", code(DefaultV4APIURL), "GraphQL URL (unused for now)"},
	{"github.app.integration_id", "GITHUB_APP_INTEGRATION_ID", "required", "the App ID"},
	{"github.app.webhook_secret", "GITHUB_APP_WEBHOOK_SECRET", "required", "the webhook secret"},
	{"github.app.private_key", "GITHUB_APP_PRIVATE_KEY", "required, or the file", "the App's PEM private key (line breaks may be written `\\n`)"},
	{"github.app.private_key_file", "GITHUB_APP_PRIVATE_KEY_FILE", "none",
		"a file holding that PEM, instead of `private_key` (set one, not both; in the environment, either replaces the file's)"},
	{"clarify.app_slug", "CLARIFY_APP_SLUG", code(DefaultAppSlug), "the app's slug; its comments are `<slug>[bot]`'s"},
	{"clarify.ledger_key", "CLARIFY_LEDGER_KEY", "derived from the private key",
		"MAC key of the hidden ledger; each issue's ledger is signed with a key drawn from it and the issue"},
	{"clarify.previous_ledger_keys", "", "none", "keys that still verify ledgers after a rotation (see below)"},
	{"clarify.workers", "", code(strconv.Itoa(DefaultWorkers)), "deliveries handled at once"},
	{"clarify.handler_timeout", "", code(clarify.FormatDuration(delivery.DefaultHandlerTimeout)), "the most one delivery may take"},
	{"clarify.log_level", "CLARIFY_LOG_LEVEL", code(DefaultLogLevel), "`debug`, `info`, `warn`, `error`"},
	{"clarify.sweep_interval", "", code(clarify.FormatDuration(DefaultSweepInterval)), "how often the sweep checks every installation's deadlines (negative: never)"},
	{"clarify.sweep_budget", "", code(strconv.Itoa(sweep.DefaultSweepBudget)), "GitHub requests one sweep may spend per installation"},
	{"clarify.walk_interval", "", code(clarify.FormatDuration(sweep.DefaultReconcileEvery)),
		"how often a sweep also walks every installation for issues its deadline index does not know (a process's first sweep always walks)"},
	{"clarify.writes_per_minute", "", code(strconv.Itoa(ghtransport.DefaultWritesPerMinute)),
		"the most writes one installation sends in any minute, GitHub's secondary limit on content, each write counted from when it leaves until a minute after its answer, since GitHub counts it on arrival ([how](operations.md#when-github-fails)); more wait their turn (negative: no bound)"},
	{"clarify.writes_per_hour", "", code(strconv.Itoa(ghtransport.DefaultWritesPerHour)), "the same in any hour (negative: no bound)"},
	{"clarify.max_unverified_body_bytes", "", fmt.Sprintf("`%d` (%d MiB)", DefaultMaxUnverifiedBodyBytes, DefaultMaxUnverifiedBodyBytes>>20),
		fmt.Sprintf("bytes held at once, all connections together, for deliveries whose signature is not checked yet; at least %d (%d MiB)", MaxWebhookBody, MaxWebhookBody>>20)},
	{"clarify.redis_url", "REDIS_URL", "none (one process, state in memory)",
		"the Redis that replicas behind one webhook URL share: `redis://[:password@]host:port[/db]`, `rediss://` for TLS (see [Running replicas](#running-replicas))"},
}

// SettingsReference renders Settings as docs/app.md's Markdown table (key | environment |
// default | meaning).
func SettingsReference() string {
	var b strings.Builder
	b.WriteString("| key | environment | default | meaning |\n|---|---|---|---|\n")
	for _, s := range Settings {
		env := " " // an empty cell, as docs/app.md writes it
		if s.Env != "" {
			env = " " + code(s.Env) + " "
		}
		fmt.Fprintf(&b, "| `%s` |%s| %s | %s |\n", s.Key, env, s.Default, s.Meaning)
	}
	return b.String()
}

// WriteSettings lists every server setting with its environment variable and default,
// from the same table, so that `bot serve -h` is all an operator with a container and no
// checkout needs.
func WriteSettings(w io.Writer) {
	fmt.Fprintln(w, "\nSettings: from FILE, then the environment, which wins; config.example.yml and docs/app.md say what each is for.")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  key\tenvironment\tdefault")
	for _, s := range Settings {
		env := s.Env
		if env == "" {
			env = "-"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", s.Key, env, strings.ReplaceAll(s.Default, "`", ""))
	}
	_ = tw.Flush()
}

func code(s string) string { return "`" + s + "`" }
