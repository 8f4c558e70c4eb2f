package setup

import (
	"net/http"
	"os"
	"strings"
	"testing"
)

// TestSetupRegistersFromADirectoryWithoutAppYml: run where there is no app.yml (an
// installed binary, the container), bot setup posts the app.yml built into the binary and
// writes the config and the key as from a checkout.
func TestSetupRegistersFromADirectoryWithoutAppYml(t *testing.T) {
	g := newGitHub(t)
	opts := g.options(t)
	opts.ManifestPath = ""
	t.Chdir(t.TempDir())
	f, srv := startFlow(t, opts)
	status, page := get(t, srv.URL+"/")
	if status != http.StatusOK || attr(page, `name="manifest" value="`) == "" {
		t.Fatalf("start page: %d\n%s", status, page)
	}
	back := clickThrough(t, srv.URL+"/")
	if status, page := get(t, back); status != http.StatusOK || !strings.Contains(page, "Registered Clarify") {
		t.Fatalf("callback: %d\n%s", status, page)
	}
	res, done, err := f.Outcome()
	if !done || err != nil {
		t.Fatalf("outcome: done %v, %v", done, err)
	}
	registered := g.manifests.Apps()[0]
	want, err := parseManifest(checkoutManifest(t), "app.yml")
	if err != nil {
		t.Fatal(err)
	}
	perms, _ := want["default_permissions"].(map[string]any)
	same := len(perms) == len(registered.Permissions)
	for k, v := range perms {
		same = same && registered.Permissions[k] == v
	}
	if registered.Name != want.name() || strings.Join(registered.Events, ",") != strings.Join(want.events(), ",") || !same {
		t.Errorf("registered %q for %v with %v, want the checkout's app.yml: %q for %v with %v",
			registered.Name, registered.Events, registered.Permissions, want.name(), want.events(), perms)
	}
	checkWritten(t, g, opts, res, registered)
}

// TestAppYmlBesideTheBinaryWins: an app.yml in the working directory is the manifest, over
// the one built in.
func TestAppYmlBesideTheBinaryWins(t *testing.T) {
	g := newGitHub(t)
	opts := g.options(t)
	opts.ManifestPath = ""
	ours := strings.Replace(string(checkoutManifest(t)), "\nname: Clarify\n", "\nname: Clarify for octo\n", 1)
	t.Chdir(t.TempDir())
	if err := os.WriteFile("app.yml", []byte(ours), 0o644); err != nil {
		t.Fatal(err)
	}
	_, srv := startFlow(t, opts)
	clickThrough(t, srv.URL+"/")
	if apps := g.manifests.Apps(); len(apps) != 1 || apps[0].Name != "Clarify for octo" {
		t.Errorf("registered %+v, want the app.yml of the working directory, named Clarify for octo", apps)
	}
}

// checkoutManifest is the repository's app.yml, read before a test leaves the package's
// directory.
var checkoutManifestText, checkoutManifestErr = os.ReadFile("../../app.yml")

func checkoutManifest(t *testing.T) []byte {
	t.Helper()
	if checkoutManifestErr != nil {
		t.Fatal(checkoutManifestErr)
	}
	return checkoutManifestText
}
