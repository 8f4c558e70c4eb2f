package setup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v4"
	"github.com/google/go-github/v60/github"
	"gopkg.in/yaml.v3"

	"github.com/clarify-app/clarify/internal/app"
)

// KeyPath is where the private key goes for a config written at configPath: beside it,
// named after it, so that two configs in one directory keep two keys. It names the key
// the way configPath is named (relative or absolute), which is how the config refers to it.
func KeyPath(configPath string) string {
	base := strings.TrimSuffix(filepath.Base(configPath), filepath.Ext(configPath))
	return filepath.Join(filepath.Dir(configPath), base+".private-key.pem")
}

// checkFiles refuses to start when a file would be overwritten, or cannot be written.
func (f *Flow) checkFiles() error {
	for _, p := range []string{f.opts.ConfigPath, f.keyPath} {
		st, err := os.Stat(p)
		switch {
		case err == nil && st.IsDir():
			return fmt.Errorf("%s is a directory", p)
		case err == nil && !f.opts.Force:
			return fmt.Errorf("%s exists: bot setup does not overwrite it, since it may hold another app's credentials; name another file with -o, or pass -force", p)
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return err
		}
	}
	dir := filepath.Dir(f.opts.ConfigPath)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("the directory of %s does not exist", f.opts.ConfigPath)
	}
	return nil
}

// fileConfig is the part of app.Config that bot setup writes; `bot serve` fills in the rest
// from its defaults.
type fileConfig struct {
	Github struct {
		WebURL   string `yaml:"web_url,omitempty"`
		V3APIURL string `yaml:"v3_api_url,omitempty"`
		V4APIURL string `yaml:"v4_api_url,omitempty"`
		App      struct {
			IntegrationID  int64  `yaml:"integration_id"`
			WebhookSecret  string `yaml:"webhook_secret"`
			PrivateKeyFile string `yaml:"private_key_file"`
		} `yaml:"app"`
	} `yaml:"github"`
	Clarify struct {
		AppSlug string `yaml:"app_slug"`
	} `yaml:"clarify"`
}

// write writes the key, then the config that names it: a config is never left naming a
// key that is not there. The key is written first because GitHub hands it over only once.
func (f *Flow) write(cfg *github.AppConfig) error {
	if err := writeSecret(f.keyPath, []byte(strings.TrimSpace(cfg.GetPEM())+"\n"), f.opts.Force); err != nil {
		return fmt.Errorf("writing the private key: %w; it is kept nowhere else", err)
	}
	var fc fileConfig
	if strings.TrimSuffix(f.opts.WebURL, "/") != strings.TrimSuffix(app.DefaultWebURL, "/") {
		fc.Github.WebURL = f.opts.WebURL
	}
	if f.opts.APIURL != app.DefaultV3APIURL {
		fc.Github.V3APIURL = f.opts.APIURL
		fc.Github.V4APIURL = graphQLURL(f.opts.APIURL)
	}
	fc.Github.App.IntegrationID = cfg.GetID()
	fc.Github.App.WebhookSecret = cfg.GetWebhookSecret()
	fc.Github.App.PrivateKeyFile = f.keyPath
	fc.Clarify.AppSlug = cfg.GetSlug()
	body, err := yaml.Marshal(&fc)
	if err != nil {
		return err
	}
	header := fmt.Sprintf(`# Clarify: configuration of `+"`bot serve -c %s`"+`, written by `+"`bot setup`"+` on %s
# for the GitHub App %q (%s). It holds the app's webhook secret: keep it private.
# private_key_file is read from the directory bot serve runs in, when it is relative.
# Every other setting takes its default; config.example.yml documents them all.
`, filepath.Base(f.opts.ConfigPath), time.Now().UTC().Format(time.DateOnly), cfg.GetName(), cfg.GetHTMLURL())
	if err := writeSecret(f.opts.ConfigPath, append([]byte(header), body...), f.opts.Force); err != nil {
		return fmt.Errorf("writing the config: %w (the private key is in %s)", err, f.keyPath)
	}
	return nil
}

// graphQLURL is the GraphQL endpoint beside a REST API URL: GitHub Enterprise Server has
// /api/graphql beside /api/v3/.
func graphQLURL(v3 string) string {
	if strings.HasSuffix(v3, "/api/v3/") {
		return strings.TrimSuffix(v3, "v3/") + "graphql"
	}
	return v3 + "graphql"
}

// writeSecret writes a file that only its owner may read. Without force it never replaces
// a file, even one created since the start.
func writeSecret(path string, data []byte, force bool) error {
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	file, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		return err
	}
	// A file that existed keeps its mode through O_TRUNC.
	if err := file.Chmod(0o600); err != nil {
		file.Close()
		return err
	}
	if _, err := file.Write(data); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}

// checkKey makes sure pemText is an RSA private key, parsed as `bot serve` will parse it to
// sign the app's JWT.
func checkKey(pemText string) error {
	_, err := jwt.ParseRSAPrivateKeyFromPEM([]byte(pemText))
	return err
}
