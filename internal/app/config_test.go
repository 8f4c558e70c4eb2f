package app_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-app/clarify/handlers/delivery"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/repoconfig"
)

// testKey is a PEM private key as GitHub issues them (PKCS#1, 2048 bits), made once.
var testKey = sync.OnceValues(func() (*rsa.PrivateKey, string) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return k, string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}))
})

func testPEM() string { _, p := testKey(); return p }

// withRequiredEnv sets the three required settings to usable values.
func withRequiredEnv(t *testing.T) {
	t.Helper()
	t.Setenv("GITHUB_APP_WEBHOOK_SECRET", "s")
	t.Setenv("GITHUB_APP_INTEGRATION_ID", "7")
	t.Setenv("GITHUB_APP_PRIVATE_KEY", testPEM())
}

func TestConfigRefusesToStartWithoutAWebhookSecret(t *testing.T) {
	t.Setenv("GITHUB_APP_WEBHOOK_SECRET", "")
	_, err := app.LoadConfig(writeConfig(t, "github:\n  app:\n    integration_id: 7\n    private_key: x\n"))
	if err == nil || !strings.Contains(err.Error(), "webhook_secret") {
		t.Fatalf("err = %v, want a refusal naming webhook_secret", err)
	}
}

func TestConfigIsStrictAndTheEnvironmentWins(t *testing.T) {
	if _, err := app.LoadConfig(writeConfig(t, "server:\n  prot: 9000\n")); err == nil || !strings.Contains(err.Error(), "prot") {
		t.Errorf("an unknown key must be an error, got %v", err)
	}
	t.Setenv("GITHUB_APP_WEBHOOK_SECRET", "from-env")
	t.Setenv("GITHUB_V3_API_URL", "http://127.0.0.1:9/")
	t.Setenv("SERVER_PORT", "9090")
	t.Setenv("GITHUB_APP_PRIVATE_KEY", testPEM())
	c, err := app.LoadConfig(writeConfig(t, "github:\n  app:\n    integration_id: 7\n    private_key: x\n    webhook_secret: from-file\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Github.App.WebhookSecret != "from-env" || c.Github.V3APIURL != "http://127.0.0.1:9/" || c.Server.Port != 9090 {
		t.Errorf("environment did not override the file: %+v", c.Server)
	}
	if c.Server.Address != app.DefaultAddress || c.Clarify.AppSlug != app.DefaultAppSlug || c.Clarify.Workers != app.DefaultWorkers ||
		c.Clarify.MaxUnverifiedBodyBytes != app.DefaultMaxUnverifiedBodyBytes {
		t.Errorf("defaults not applied: %+v %+v", c.Server, c.Clarify)
	}
	if len(c.LedgerKeyBytes()) == 0 || bytes.Equal(c.LedgerKeyBytes(), []byte("from-env")) {
		t.Error("the default ledger key is derived from the secret, not the secret itself")
	}
}

func TestExampleConfigLoads(t *testing.T) {
	b, err := os.ReadFile("../../config.example.yml")
	if err != nil {
		t.Fatal(err)
	}
	path := writeConfig(t, strings.Replace(strings.Replace(string(b), `webhook_secret: ""`, `webhook_secret: "s"`, 1),
		"integration_id: 0", "integration_id: 1", 1))
	t.Setenv("GITHUB_APP_PRIVATE_KEY", testPEM())
	if _, err := app.LoadConfig(path); err != nil {
		t.Fatalf("config.example.yml does not load: %v", err)
	}
}

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTheConfigPageDocumentsEveryRepositoryKey: docs/config.md holds the table of keys
// the parser knows, as repoconfig.Reference() renders it.
func TestTheConfigPageDocumentsEveryRepositoryKey(t *testing.T) {
	b, err := os.ReadFile("../../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), repoconfig.Reference()) {
		t.Error("docs/config.md lacks repoconfig.Reference(): paste the table of keys again")
	}
}

// TestEveryServerKeyIsDocumented: an operator reads config.example.yml and the table of
// docs/app.md, so a key missing from either is a setting nobody knows about.
func TestEveryServerKeyIsDocumented(t *testing.T) {
	page, err := os.ReadFile("../../docs/app.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("../../config.example.yml")
	if err != nil {
		t.Fatal(err)
	}
	keys := append(yamlPaths(reflect.TypeFor[app.Config](), ""), "github.app.private_key_file")
	for _, key := range keys {
		if strings.HasPrefix(key, "github.oauth.") {
			continue // go-githubapp's OAuth settings: accepted, unused by Clarify
		}
		if !strings.Contains(string(page), "`"+key+"`") {
			t.Errorf("docs/app.md's table lacks `%s`", key)
		}
		leaf := key[strings.LastIndex(key, ".")+1:]
		if !strings.Contains(string(example), "  "+leaf+":") {
			t.Errorf("config.example.yml lacks %s", key)
		}
	}
	// app.Settings is what `bot serve -h` prints and docs/app.md's table: it must hold
	// every key, and nothing that is not one.
	var listed []string
	for _, s := range app.Settings {
		listed = append(listed, s.Key)
	}
	var settable []string
	for _, key := range keys {
		if !strings.HasPrefix(key, "github.oauth.") {
			settable = append(settable, key)
		}
	}
	slices.Sort(listed)
	slices.Sort(settable)
	if !slices.Equal(listed, settable) {
		t.Errorf("app.Settings lists %v;\nthe config has %v", listed, settable)
	}
	if !strings.Contains(string(page), app.SettingsReference()) {
		t.Errorf("docs/app.md's server configuration table is not app.SettingsReference(); put this one in its place:\n%s", app.SettingsReference())
	}
}

// TestEveryEnvironmentVariableOfTheHelpIsRead: `bot serve -h` and docs/app.md name each
// setting's variable from app.Settings; setting it must change that setting.
func TestEveryEnvironmentVariableOfTheHelpIsRead(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "app.pem")
	if err := os.WriteFile(keyFile, []byte(testPEM()), 0o600); err != nil {
		t.Fatal(err)
	}
	samples := map[string]struct {
		value string
		read  func(app.Config) string
	}{
		"SERVER_ADDRESS":              {"0.0.0.0", func(c app.Config) string { return c.Server.Address }},
		"SERVER_PORT":                 {"9090", func(c app.Config) string { return strconv.Itoa(c.Server.Port) }},
		"GITHUB_WEB_URL":              {"https://ghe.example", func(c app.Config) string { return c.Github.WebURL }},
		"GITHUB_V3_API_URL":           {"https://ghe.example/api/v3/", func(c app.Config) string { return c.Github.V3APIURL }},
		"GITHUB_V4_API_URL":           {"https://ghe.example/api/graphql", func(c app.Config) string { return c.Github.V4APIURL }},
		"GITHUB_APP_INTEGRATION_ID":   {"4711", func(c app.Config) string { return strconv.FormatInt(c.Github.App.IntegrationID, 10) }},
		"GITHUB_APP_WEBHOOK_SECRET":   {"another-secret", func(c app.Config) string { return c.Github.App.WebhookSecret }},
		"GITHUB_APP_PRIVATE_KEY":      {testPEM(), func(c app.Config) string { return c.Github.App.PrivateKey }},
		"GITHUB_APP_PRIVATE_KEY_FILE": {keyFile, func(c app.Config) string { return c.PrivateKeyFile }},
		"CLARIFY_APP_SLUG":            {"my-clarify", func(c app.Config) string { return c.Clarify.AppSlug }},
		"CLARIFY_LEDGER_KEY":          {"a-ledger-key", func(c app.Config) string { return c.Clarify.LedgerKey }},
		"CLARIFY_LOG_LEVEL":           {"debug", func(c app.Config) string { return c.Clarify.LogLevel }},
		"REDIS_URL":                   {"redis://redis.internal:6379/0", func(c app.Config) string { return c.Clarify.RedisURL }},
	}
	for _, s := range app.Settings {
		if s.Env == "" {
			continue
		}
		t.Run(s.Env, func(t *testing.T) {
			sample, ok := samples[s.Env]
			if !ok {
				t.Fatalf("no sample value for %s (%s): add one here", s.Env, s.Key)
			}
			t.Setenv("GITHUB_APP_WEBHOOK_SECRET", "s")
			t.Setenv("GITHUB_APP_INTEGRATION_ID", "7")
			if s.Env != "GITHUB_APP_PRIVATE_KEY_FILE" {
				t.Setenv("GITHUB_APP_PRIVATE_KEY", testPEM())
			}
			t.Setenv(s.Env, sample.value)
			c, err := app.LoadConfig("")
			if err != nil {
				t.Fatal(err)
			}
			if got := sample.read(c); got != sample.value {
				t.Errorf("%s=%q gave %s = %q", s.Env, sample.value, s.Key, got)
			}
		})
	}
}

// yamlPaths lists the dotted keys a config file can set.
func yamlPaths(t reflect.Type, prefix string) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if !f.IsExported() || name == "-" || name == "" {
			continue
		}
		if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeFor[time.Duration]() {
			out = append(out, yamlPaths(f.Type, prefix+name+".")...)
			continue
		}
		out = append(out, prefix+name)
	}
	return out
}

func TestConfigDurationsReadAsGoDurations(t *testing.T) {
	withRequiredEnv(t)
	c, err := app.LoadConfig(writeConfig(t, "clarify:\n  handler_timeout: 2m\n  sweep_interval: 1h30s\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Clarify.HandlerTimeout != 2*time.Minute || c.Clarify.SweepInterval != time.Hour+30*time.Second {
		t.Errorf("handler_timeout %v, sweep_interval %v: want 2m0s and 1h0m30s", c.Clarify.HandlerTimeout, c.Clarify.SweepInterval)
	}
	c, err = app.LoadConfig(writeConfig(t, "clarify:\n  sweep_interval: 0\n"))
	if err != nil || c.Clarify.SweepInterval != app.DefaultSweepInterval {
		t.Errorf("sweep_interval: 0 gave %v, %v; want the default", c.Clarify.SweepInterval, err)
	}
	// A bare number would be nanoseconds: a mistake, refused rather than obeyed, for
	// every duration key.
	for _, key := range []string{"handler_timeout", "sweep_interval"} {
		t.Run(key, func(t *testing.T) {
			for body, want := range map[string]string{
				"clarify:\n  " + key + ": 60\n":   "clarify." + key + " (line 2): 60 needs a unit, e.g. 60s",
				"clarify:\n  " + key + ": -1\n":   "clarify." + key + " (line 2): -1 needs a unit, e.g. -1s",
				"clarify:\n  " + key + ": soon\n": "clarify." + key + ` (line 2): "soon" is not a duration`,
			} {
				if _, err := app.LoadConfig(writeConfig(t, body)); err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("%q: err = %v, want %q", body, err, want)
				}
			}
		})
	}
}

func TestQuotedNumbersAreNumbers(t *testing.T) {
	withRequiredEnv(t)
	os.Unsetenv("GITHUB_APP_INTEGRATION_ID") // t.Setenv above restores it
	c, err := app.LoadConfig(writeConfig(t, "server:\n  port: '9000'\ngithub:\n  app:\n    integration_id: \"42\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Server.Port != 9000 || c.Github.App.IntegrationID != 42 {
		t.Errorf("port %d, integration_id %d; want 9000 and 42", c.Server.Port, c.Github.App.IntegrationID)
	}
}

func TestEmptyConfigFileMeansDefaults(t *testing.T) {
	withRequiredEnv(t)
	c, err := app.LoadConfig(writeConfig(t, "# nothing set here\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Clarify.HandlerTimeout != delivery.DefaultHandlerTimeout || c.Server.Port != app.DefaultPort {
		t.Errorf("defaults not applied: %+v %+v", c.Server, c.Clarify)
	}
}

// TestOperatorMistakesAreRefusedNamingTheirKey: each mistake stops the start with a
// message that names the key (its YAML path and line, or the environment variable).
func TestOperatorMistakesAreRefusedNamingTheirKey(t *testing.T) {
	cases := map[string]struct {
		file string
		env  map[string]string
		want string
	}{
		"misspeltKeyNamesPathLineAndGuess": {file: "clarify:\n  workers: 4\n  worker: 4\n",
			want: "clarify.worker (line 3) is not a setting; did you mean workers?"},
		"misspeltSectionNamesGuess":   {file: "servr:\n  port: 1\n", want: "servr (line 1) is not a setting; did you mean server?"},
		"unknownKeyListsTheKnownOnes": {file: "clarify:\n  colour: blue\n", want: "clarify.colour (line 2) is not a setting; the settings there are app_slug, ledger_key"},
		"keyInTheWrongSection":        {file: "github:\n  app:\n    slug: x\n", want: "github.app.slug (line 3) is not a setting"},
		"keySetTwice":                 {file: "clarify:\n  workers: 4\n  workers: 5\n", want: "clarify.workers (line 3) is set again; it was first set at line 2"},
		"portNotANumber":              {file: "server:\n  port: 80a\n", want: `server.port (line 2): "80a" is not a whole number`},
		"sectionNotAMapping":          {file: "clarify: fast\n", want: `clarify (line 1) should be a mapping of app_slug`},
		"listWhereAValueBelongs":      {file: "clarify:\n  app_slug: [a, b]\n", want: "clarify.app_slug (line 2) should be a single value, not a list"},
		"portOutOfRange":              {file: "server:\n  port: 70000\n", want: "server.port (SERVER_PORT) 70000 is not a port"},
		"addressWithAPort":            {file: "server:\n  address: 0.0.0.0:8080\n", want: `server.address (SERVER_ADDRESS) "0.0.0.0:8080" holds a port`},
		"serverPortEnvNotANumber":     {env: map[string]string{"SERVER_PORT": "80a"}, want: `SERVER_PORT="80a" is not a port number`},
		"integrationIDEnvNotANumber":  {env: map[string]string{"GITHUB_APP_INTEGRATION_ID": "7a"}, want: `GITHUB_APP_INTEGRATION_ID="7a" is not a number`},
		"apiURLWithoutScheme": {env: map[string]string{"GITHUB_V3_API_URL": "api.github.com"},
			want: `github.v3_api_url (GITHUB_V3_API_URL) "api.github.com" is not an http(s) URL`},
		"unknownLogLevel": {env: map[string]string{"CLARIFY_LOG_LEVEL": "verbose"},
			want: `clarify.log_level (CLARIFY_LOG_LEVEL) "verbose" is not a level`},
		"slugWithBot":      {file: "clarify:\n  app_slug: clarify[bot]\n", want: `clarify.app_slug (CLARIFY_APP_SLUG) "clarify[bot]" is not a slug`},
		"negativeTimeout":  {file: "clarify:\n  handler_timeout: -1s\n", want: "clarify.handler_timeout must be positive, not -1s"},
		"tinyBodyBudget":   {file: "clarify:\n  max_unverified_body_bytes: 1000\n", want: "clarify.max_unverified_body_bytes must be at least 26214400"},
		"emptyPreviousKey": {file: "clarify:\n  previous_ledger_keys: [old, \"\"]\n", want: "clarify.previous_ledger_keys[1] is empty"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			withRequiredEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			_, err := app.LoadConfig(writeConfig(t, tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant one containing %q", err, tc.want)
			}
		})
	}
}

func TestEveryProblemIsReportedAtOnce(t *testing.T) {
	t.Setenv("SERVER_PORT", "80a")
	t.Setenv("GITHUB_APP_INTEGRATION_ID", "seven")
	path := writeConfig(t, "server:\n  address: 0.0.0.0\nclarify:\n  worker: 4\n  sweep_interval: 60\n  handler_timeout: 120\n")
	_, err := app.LoadConfig(path)
	if err == nil {
		t.Fatal("a config with six mistakes loaded")
	}
	want := []string{
		path + ": clarify.worker (line 4) is not a setting; did you mean workers?",
		path + ": clarify.sweep_interval (line 5): 60 needs a unit",
		path + ": clarify.handler_timeout (line 6): 120 needs a unit",
		`SERVER_PORT="80a" is not a port number`,
		`GITHUB_APP_INTEGRATION_ID="seven" is not a number`,
		"github.app.webhook_secret (GITHUB_APP_WEBHOOK_SECRET) is required",
		"github.app.private_key (GITHUB_APP_PRIVATE_KEY) is required",
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error lacks %q:\n%v", w, err)
		}
	}
}

// TestPrivateKeyMistakesAreNamedPlainly: a key that cannot sign the App's JWT stops the
// start, saying what is wrong with it, and never quoting it.
func TestPrivateKeyMistakesAreNamedPlainly(t *testing.T) {
	key, good := testKey()
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	pub := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&key.PublicKey)}))
	lines := strings.Split(good, "\n")
	corrupt := strings.Join(append([]string{lines[0], "bm90IGEga2V5"}, lines[2:]...), "\n")

	cases := map[string]struct {
		key  string
		want string // "" when the key is accepted
		// sameKey: the key as GitHub gave it, written another way, which must draw the
		// same ledger key.
		sameKey bool
	}{
		"asGitHubGivesIt":       {key: good, sameKey: true},
		"pkcs8":                 {key: string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8}))},
		"newlinesEscaped":       {key: strings.ReplaceAll(good, "\n", `\n`), sameKey: true},
		"windowsLineEndings":    {key: strings.ReplaceAll(good, "\n", "\r\n"), sameKey: true},
		"empty":                 {key: "", want: "github.app.private_key (GITHUB_APP_PRIVATE_KEY) is required"},
		"aPathInsteadOfTheKey":  {key: "/etc/clarify/app.pem", want: `holds a file path ("/etc/clarify/app.pem"), not a key: name the file in github.app.private_key_file`},
		"garbage":               {key: "hunter2", want: "is not a PEM key: it should start with -----BEGIN RSA PRIVATE KEY-----"},
		"lineBreaksLost":        {key: strings.ReplaceAll(good, "\n", " "), want: "is not a whole PEM block"},
		"escapesMixedWithBreak": {key: strings.Replace(good, "\n", `\n`, 3), want: `has \n escapes where line breaks belong`},
		"aPublicKey":            {key: pub, want: `holds a PEM "PUBLIC KEY", not the App's RSA private key`},
		"corrupted":             {key: corrupt, want: "does not parse as an RSA private key"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			withRequiredEnv(t)
			t.Setenv("GITHUB_APP_PRIVATE_KEY", tc.key)
			c, err := app.LoadConfig("")
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("the key was refused: %v", err)
			case tc.sameKey && !bytes.Equal(c.LedgerKeyBytes(), configWithKey(good).LedgerKeyBytes()):
				t.Error("the same key, written another way, draws another ledger key")
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("err = %v\nwant one containing %q", err, tc.want)
			case tc.want != "" && strings.Contains(err.Error(), lines[1]):
				t.Errorf("the message quotes the key: %v", err)
			}
		})
	}
}

func configWithKey(key string) *app.Config {
	var c app.Config
	c.Github.App.PrivateKey = key
	return &c
}

func TestPrivateKeyFromAFile(t *testing.T) {
	dir := t.TempDir()
	keyPath := filepath.Join(dir, "app.pem")
	if err := os.WriteFile(keyPath, []byte(testPEM()), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("fromTheConfigFile", func(t *testing.T) {
		withRequiredEnv(t)
		t.Setenv("GITHUB_APP_PRIVATE_KEY", "")
		c, err := app.LoadConfig(writeConfig(t, "github:\n  app:\n    private_key_file: "+keyPath+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if c.Github.App.PrivateKey != testPEM() {
			t.Error("the key was not read from github.app.private_key_file")
		}
	})
	t.Run("fromTheEnvironmentOverTheFilesKey", func(t *testing.T) {
		withRequiredEnv(t)
		t.Setenv("GITHUB_APP_PRIVATE_KEY", "")
		t.Setenv("GITHUB_APP_PRIVATE_KEY_FILE", keyPath)
		c, err := app.LoadConfig(writeConfig(t, "github:\n  app:\n    private_key: not-this-one\n"))
		if err != nil {
			t.Fatal(err)
		}
		if c.Github.App.PrivateKey != testPEM() {
			t.Error("GITHUB_APP_PRIVATE_KEY_FILE did not replace the file's private_key")
		}
	})
	empty := filepath.Join(dir, "empty.pem")
	notAKey := filepath.Join(dir, "notes.txt")
	for path, body := range map[string]string{empty: "\n", notAKey: "the key is on the wiki\n"} {
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for name, tc := range map[string]struct {
		file string
		env  map[string]string // over withRequiredEnv, which sets GITHUB_APP_PRIVATE_KEY
		want string
	}{
		"missingFile": {env: map[string]string{"GITHUB_APP_PRIVATE_KEY": "", "GITHUB_APP_PRIVATE_KEY_FILE": filepath.Join(dir, "nope.pem")},
			want: "github.app.private_key_file (GITHUB_APP_PRIVATE_KEY_FILE): open " + filepath.Join(dir, "nope.pem") + ": no such file"},
		"emptyFile": {env: map[string]string{"GITHUB_APP_PRIVATE_KEY": "", "GITHUB_APP_PRIVATE_KEY_FILE": empty},
			want: `github.app.private_key_file (GITHUB_APP_PRIVATE_KEY_FILE) "` + empty + `" is empty`},
		"notAKey": {env: map[string]string{"GITHUB_APP_PRIVATE_KEY": "", "GITHUB_APP_PRIVATE_KEY_FILE": notAKey},
			want: `github.app.private_key_file (GITHUB_APP_PRIVATE_KEY_FILE) "` + notAKey + `" is not a PEM key`},
		"bothInTheFile": {env: map[string]string{"GITHUB_APP_PRIVATE_KEY": ""},
			file: "github:\n  app:\n    private_key: x\n    private_key_file: " + keyPath + "\n",
			want: "github.app.private_key and github.app.private_key_file are both set: keep one"},
		"bothInTheEnvironment": {env: map[string]string{"GITHUB_APP_PRIVATE_KEY_FILE": keyPath},
			want: "GITHUB_APP_PRIVATE_KEY and GITHUB_APP_PRIVATE_KEY_FILE are both set: keep one"},
	} {
		t.Run(name, func(t *testing.T) {
			withRequiredEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			_, err := app.LoadConfig(writeConfig(t, tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant one containing %q", err, tc.want)
			}
		})
	}
}

// TestLedgerKeySurvivesMovingThePrivateKey: the ledger key is drawn from the private key,
// so moving the key from YAML to the environment or a file, which changes only the
// whitespace around it, must leave every ledger verifying.
func TestLedgerKeySurvivesMovingThePrivateKey(t *testing.T) {
	asEnv := strings.TrimSpace(testPEM()) // $(cat app.pem) drops the last line break
	asFile := testPEM()                   // a file keeps it
	if !bytes.Equal(configWithKey(asEnv).LedgerKeyBytes(), configWithKey(asFile).LedgerKeyBytes()) {
		t.Error("the same key from the environment and from a file draws two ledger keys")
	}
	// Before, the key's text was hashed exactly as given: what such a version signed with
	// must still verify, so that the upgrade re-signs ledgers instead of rebuilding them.
	m := hmac.New(sha256.New, []byte(asFile))
	m.Write([]byte("clarify ledger key v2"))
	before := m.Sum(nil)
	found := false
	for _, k := range configWithKey(asFile).PreviousLedgerKeys() {
		found = found || bytes.Equal(k, before)
	}
	if !found {
		t.Error("ledgers signed with the key drawn from the key's exact text no longer verify")
	}
}
