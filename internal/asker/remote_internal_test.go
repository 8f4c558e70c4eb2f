package asker

import "testing"

// TestARemoteKeepsItsHost: every form of a GitHub remote's URL gives its host with the
// repository: an https port is the web host's and stays, an ssh port is ssh's and goes.
func TestARemoteKeepsItsHost(t *testing.T) {
	for url, want := range map[string]string{
		"https://github.com/octo/widgets.git":            "github.com/octo/widgets",
		"https://token@github.com/octo/widgets":          "github.com/octo/widgets",
		"git@github.com:octo/widgets.git":                "github.com/octo/widgets",
		"ssh://git@ssh.github.com:443/octo/widgets.git":  "ssh.github.com/octo/widgets",
		"git@ghe.example.com:octo/widgets.git":           "ghe.example.com/octo/widgets",
		"https://ghe.example.com:8443/octo/widgets.git/": "ghe.example.com:8443/octo/widgets",
		"octocorp.ghe.com:octo/my.repo":                  "octocorp.ghe.com/octo/my.repo",
		"/srv/git/widgets.git":                           "",
	} {
		if got := repoOfRemote(url); got != want {
			t.Errorf("repoOfRemote(%q) = %q, want %q", url, got, want)
		}
	}
}
