package action_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"
)

// release is what a test's GitHub serves at /<repo>/releases/download/<tag>/<file> (repo
// clarify-app/clarify unless set): files by tag and name, or a status other than 200 for a file.
type release struct {
	repo   string
	files  map[string]map[string][]byte
	status map[string]int

	mu   sync.Mutex
	seen []string
}

// newRelease serves assets as the release tag's files with a checksums.txt that sha256sum
// would write for them.
func newRelease(tag string, assets map[string][]byte) *release {
	r := &release{repo: "clarify-app/clarify", files: map[string]map[string][]byte{}, status: map[string]int{}}
	r.add(tag, assets)
	return r
}

func (r *release) add(tag string, assets map[string][]byte) {
	files := map[string][]byte{}
	var sums strings.Builder
	for name, body := range assets {
		files[name] = body
		sum := sha256.Sum256(body)
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	files["checksums.txt"] = []byte(sums.String())
	r.files[tag] = files
}

// set serves body as the tag's file name without changing checksums.txt: a tampered or
// unlisted asset.
func (r *release) set(tag, name string, body []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.files[tag][name] = body
}

func (r *release) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, req.URL.Path)
	prefix := "/" + r.repo + "/releases/download/"
	tag, name, ok := strings.Cut(strings.TrimPrefix(req.URL.Path, prefix), "/")
	if !strings.HasPrefix(req.URL.Path, prefix) || !ok {
		http.NotFound(w, req)
		return
	}
	if code := r.status[name]; code != 0 {
		http.Error(w, http.StatusText(code), code)
		return
	}
	body, found := r.files[tag][name]
	if !found {
		http.NotFound(w, req)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write(body)
}

func (r *release) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}

// installRun is what a user sees of one run of the install step.
type installRun struct {
	code   int
	out    string // stdout and stderr: the step's log and its annotations
	output string // $GITHUB_OUTPUT
	temp   string // $RUNNER_TEMP
	// gh is what the step asked of the GitHub CLI, a call a line.
	gh string
}

// installed is the binary the step left for the run step, or nil.
func (run installRun) installed(t *testing.T) []byte {
	t.Helper()
	body, err := os.ReadFile(filepath.Join(run.temp, "clarify-bot"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// runInstall runs scripts/action-install.sh as a runner would for the action
// clarify-app/clarify checked out at ref (runInstallOf).
func runInstall(t *testing.T, srv *httptest.Server, ref string, env ...string) installRun {
	t.Helper()
	return runInstallOf(t, srv, "clarify-app/clarify", ref, env...)
}

// fakeGh is the GitHub CLI as the install step meets it on a hosted runner: it notes each
// call in $FAKE_GH_LOG, and an attestation verifies unless $FAKE_GH_REFUSES says why not.
const fakeGh = `#!/bin/sh
printf '%s\n' "$*" >>"$FAKE_GH_LOG"
if [ -n "$FAKE_GH_REFUSES" ]; then echo "$FAKE_GH_REFUSES" >&2; exit 1; fi
`

// runInstallOf runs scripts/action-install.sh as a runner would for the action repo checked
// out at ref, against srv as GitHub, with the GitHub CLI (fakeGh) on the PATH; env adds or
// overrides variables (RUNNER_OS=Linux and RUNNER_ARCH=X64 unless given; a PATH without gh).
func runInstallOf(t *testing.T, srv *httptest.Server, repo, ref string, env ...string) installRun {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	run := installRun{temp: filepath.Join(dir, "_temp")}
	owner, name, _ := strings.Cut(repo, "/")
	actionPath := filepath.Join(dir, "_actions", owner, name, ref)
	outputFile := filepath.Join(dir, "github_output")
	ghBin, ghLog := filepath.Join(dir, "gh-bin"), filepath.Join(dir, "gh.log")
	for _, d := range []string{run.temp, actionPath, ghBin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ghBin, "gh"), []byte(fakeGh), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "action-install.sh"))
	// Only what a runner sets: none of the environment this test runs in (maybe a real job).
	cmd.Env = append([]string{
		"PATH=" + ghBin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"FAKE_GH_LOG=" + ghLog,
		"HOME=" + dir,
		"GITHUB_ACTION_PATH=" + actionPath,
		"GITHUB_SERVER_URL=" + srv.URL,
		"GITHUB_OUTPUT=" + outputFile,
		"RUNNER_TEMP=" + run.temp,
		"RUNNER_OS=Linux",
		"RUNNER_ARCH=X64",
	}, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		run.code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	run.out = out.String()
	if b, err := os.ReadFile(outputFile); err == nil {
		run.output = string(b)
	}
	if b, err := os.ReadFile(ghLog); err == nil {
		run.gh = string(b)
	}
	return run
}

func serve(t *testing.T, r *release) *httptest.Server {
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv
}

func hexSum(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

var linuxBinary = []byte("#!/bin/sh\necho clarify v1.2.3 \"$@\"\n")

// TestInstallRunsTheReleasesVerifiedBinary: an action at a release tag gets that release's
// binary, verified, executable, where the run step runs it, and says installed=true.
func TestInstallRunsTheReleasesVerifiedBinary(t *testing.T) {
	t.Parallel()
	rel := newRelease("v1.2.3", map[string][]byte{"clarify_linux_amd64": linuxBinary, "clarify_linux_arm64": []byte("arm")})
	run := runInstall(t, serve(t, rel), "v1.2.3")
	if run.code != 0 || run.output != "installed=true\n" {
		t.Fatalf("exit %d, $GITHUB_OUTPUT %q, want 0 and installed=true; log:\n%s", run.code, run.output, run.out)
	}
	if got := run.installed(t); !bytes.Equal(got, linuxBinary) {
		t.Fatalf("$RUNNER_TEMP/clarify-bot is %q, want the release's clarify_linux_amd64", got)
	}
	said, err := exec.Command(filepath.Join(run.temp, "clarify-bot"), "action").Output()
	if err != nil || string(said) != "clarify v1.2.3 action\n" {
		t.Errorf("running the installed binary: %q, %v", said, err)
	}
	if !strings.Contains(run.out, hexSum(linuxBinary)) {
		t.Errorf("the log does not name the verified sha256:\n%s", run.out)
	}
	entries, _ := os.ReadDir(run.temp)
	if len(entries) != 1 {
		t.Errorf("$RUNNER_TEMP holds %d entries, want only clarify-bot", len(entries))
	}
}

// TestInstallRefusesATamperedBinary: an asset whose sha256 is not checksums.txt's fails the
// step with both hashes and leaves nothing to run, and no fallback to a build.
func TestInstallRefusesATamperedBinary(t *testing.T) {
	t.Parallel()
	rel := newRelease("v1.2.3", map[string][]byte{"clarify_linux_amd64": linuxBinary})
	tampered := []byte("#!/bin/sh\necho owned\n")
	rel.set("v1.2.3", "clarify_linux_amd64", tampered)
	run := runInstall(t, serve(t, rel), "v1.2.3")
	if run.code == 0 {
		t.Fatalf("exit 0 for a tampered binary; log:\n%s", run.out)
	}
	want := "::error::clarify_linux_amd64 of v1.2.3 does not match checksums.txt: expected sha256 " +
		hexSum(linuxBinary) + ", got " + hexSum(tampered)
	if !strings.Contains(run.out, want) {
		t.Errorf("log:\n%s\nwant %q", run.out, want)
	}
	assertNothingInstalled(t, run)
}

// TestInstallRefusesAnAssetChecksumsTxtDoesNotList: no line for the asset is no verification.
func TestInstallRefusesAnAssetChecksumsTxtDoesNotList(t *testing.T) {
	t.Parallel()
	rel := newRelease("v1.2.3", map[string][]byte{"clarify_linux_arm64": []byte("arm")})
	rel.set("v1.2.3", "clarify_linux_amd64", linuxBinary)
	run := runInstall(t, serve(t, rel), "v1.2.3")
	if run.code == 0 || !strings.Contains(run.out, "::error::checksums.txt of v1.2.3 has no line for clarify_linux_amd64") {
		t.Errorf("exit %d; log:\n%s", run.code, run.out)
	}
	assertNothingInstalled(t, run)
}

// TestInstallFailsWhenGitHubKeepsFailing: a 5xx after curl's retries is an error, not a
// reason to build something else.
func TestInstallFailsWhenGitHubKeepsFailing(t *testing.T) {
	t.Parallel()
	rel := newRelease("v1.2.3", map[string][]byte{"clarify_linux_amd64": linuxBinary})
	rel.status["clarify_linux_amd64"] = http.StatusBadGateway
	run := runInstall(t, serve(t, rel), "v1.2.3")
	if run.code == 0 || !strings.Contains(run.out, "::error::downloading ") || !strings.Contains(run.out, "(HTTP 502)") {
		t.Errorf("exit %d; log:\n%s", run.code, run.out)
	}
	tries := 0
	for _, p := range rel.requests() {
		if strings.HasSuffix(p, "/clarify_linux_amd64") {
			tries++
		}
	}
	t.Logf("the asset was asked for %d times", tries)
	if tries < 2 {
		t.Errorf("the asset was asked for %d times, want retries", tries)
	}
	assertNothingInstalled(t, run)
}

// TestInstallVerifiesWithShasumWhereSha256sumIsMissing: a macOS runner has shasum and no
// sha256sum; the check is the same there, a tampered binary refused all the same.
func TestInstallVerifiesWithShasumWhereSha256sumIsMissing(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	for _, tool := range []string{"bash", "curl", "awk", "cut", "mktemp", "rm", "mv", "chmod", "shasum"} {
		found, err := exec.LookPath(tool)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		if err := os.Symlink(found, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	path := "PATH=" + bin
	rel := newRelease("v1.2.3", map[string][]byte{"clarify_darwin_arm64": linuxBinary})
	srv := serve(t, rel)
	run := runInstall(t, srv, "v1.2.3", path, "RUNNER_OS=macOS", "RUNNER_ARCH=ARM64")
	if run.code != 0 || run.output != "installed=true\n" || !bytes.Equal(run.installed(t), linuxBinary) {
		t.Fatalf("exit %d, $GITHUB_OUTPUT %q; log:\n%s", run.code, run.output, run.out)
	}
	rel.set("v1.2.3", "clarify_darwin_arm64", []byte("tampered"))
	run = runInstall(t, srv, "v1.2.3", path, "RUNNER_OS=macOS", "RUNNER_ARCH=ARM64")
	if run.code == 0 || !strings.Contains(run.out, "got "+hexSum([]byte("tampered"))) {
		t.Errorf("tampered: exit %d; log:\n%s", run.code, run.out)
	}
	assertNothingInstalled(t, run)
}

func assertNothingInstalled(t *testing.T, run installRun) {
	t.Helper()
	if got := run.installed(t); got != nil {
		t.Errorf("$RUNNER_TEMP/clarify-bot exists (%q) after a failed install", got)
	}
	if strings.Contains(run.output, "installed=") {
		t.Errorf("$GITHUB_OUTPUT %q after a failed install, want nothing (the job stops)", run.output)
	}
	if entries, _ := os.ReadDir(run.temp); len(entries) != 0 {
		t.Errorf("$RUNNER_TEMP keeps %d entries after a failed install", len(entries))
	}
}

// TestInstallBuildsFromSourceWithoutARelease: a tag with no release (or no asset) says so
// and lets the build steps run.
func TestInstallBuildsFromSourceWithoutARelease(t *testing.T) {
	t.Parallel()
	srv := serve(t, newRelease("v1.0.0", map[string][]byte{"clarify_linux_amd64": linuxBinary}))
	run := runInstall(t, srv, "v1.2.3")
	if run.code != 0 || run.output != "installed=false\n" {
		t.Fatalf("exit %d, $GITHUB_OUTPUT %q, want 0 and installed=false; log:\n%s", run.code, run.output, run.out)
	}
	if !strings.Contains(run.out, "::notice::Clarify v1.2.3 has no release asset checksums.txt (HTTP 404): building it from source instead") {
		t.Errorf("log:\n%s", run.out)
	}
	if run.installed(t) != nil {
		t.Error("a binary was installed without a release")
	}
}

// TestInstallBuildsABranchOrCommitFromSource: @main or @<sha> is not a release: no request,
// installed=false, and a notice.
func TestInstallBuildsABranchOrCommitFromSource(t *testing.T) {
	t.Parallel()
	for _, ref := range []string{"main", "69d2f3d0c1a2b3c4d5e6f708192a3b4c5d6e7f80", "v1.2"} {
		rel := newRelease("v1.2.3", map[string][]byte{"clarify_linux_amd64": linuxBinary})
		run := runInstall(t, serve(t, rel), ref)
		if run.code != 0 || run.output != "installed=false\n" {
			t.Errorf("%s: exit %d, $GITHUB_OUTPUT %q; log:\n%s", ref, run.code, run.output, run.out)
		}
		want := fmt.Sprintf("::notice::Clarify at ref %q is not a release: building it from source instead", ref)
		if !strings.Contains(run.out, want) {
			t.Errorf("%s: log:\n%s\nwant %q", ref, run.out, want)
		}
		if seen := rel.requests(); len(seen) != 0 {
			t.Errorf("%s: GitHub was asked for %v", ref, seen)
		}
	}
}

// TestInstallVersionInputOverridesTheRef: the version input picks the release, whatever ref
// the action was checked out at; one that is no release tag is refused before any request.
func TestInstallVersionInputOverridesTheRef(t *testing.T) {
	t.Parallel()
	rel := newRelease("v1.2.3", map[string][]byte{"clarify_linux_amd64": linuxBinary})
	older := []byte("v1.0.0 binary")
	rel.add("v1.0.0", map[string][]byte{"clarify_linux_amd64": older})
	srv := serve(t, rel)
	for _, ref := range []string{"main", "v1.2.3"} {
		run := runInstall(t, srv, ref, "CLARIFY_VERSION=v1.0.0")
		if run.code != 0 || run.output != "installed=true\n" || !bytes.Equal(run.installed(t), older) {
			t.Errorf("at %s with version v1.0.0: exit %d, $GITHUB_OUTPUT %q, binary %q; log:\n%s",
				ref, run.code, run.output, run.installed(t), run.out)
		}
	}
	before := len(rel.requests())
	run := runInstall(t, srv, "v1.2.3", "CLARIFY_VERSION=1.0")
	if run.code == 0 || !strings.Contains(run.out, `::error::version "1.0" is not a release tag`) {
		t.Errorf("version 1.0: exit %d; log:\n%s", run.code, run.out)
	}
	if after := len(rel.requests()); after != before {
		t.Errorf("version 1.0 made %d requests", after-before)
	}
}

// TestInstallPicksTheRunnersAsset: RUNNER_OS and RUNNER_ARCH name the release's asset; a
// runner the release has no binary for builds from source.
func TestInstallPicksTheRunnersAsset(t *testing.T) {
	t.Parallel()
	assets := map[string][]byte{}
	for _, name := range []string{"clarify_linux_amd64", "clarify_linux_arm64", "clarify_darwin_amd64",
		"clarify_darwin_arm64", "clarify_windows_amd64.exe"} {
		assets[name] = []byte("binary " + name)
	}
	srv := serve(t, newRelease("v1.2.3", assets))
	cases := []struct{ os, arch, asset string }{
		{"Linux", "ARM64", "clarify_linux_arm64"},
		{"macOS", "ARM64", "clarify_darwin_arm64"},
		{"macOS", "X64", "clarify_darwin_amd64"},
		{"Windows", "X64", "clarify_windows_amd64.exe"},
		{"Linux", "ARM", ""},
	}
	for _, tc := range cases {
		run := runInstall(t, srv, "v1.2.3", "RUNNER_OS="+tc.os, "RUNNER_ARCH="+tc.arch)
		got := run.installed(t)
		if tc.asset == "" {
			if run.code != 0 || run.output != "installed=false\n" || !strings.Contains(run.out, "no release binary for Linux/ARM") {
				t.Errorf("%s/%s: exit %d, $GITHUB_OUTPUT %q; log:\n%s", tc.os, tc.arch, run.code, run.output, run.out)
			}
			continue
		}
		if run.code != 0 || !bytes.Equal(got, assets[tc.asset]) {
			t.Errorf("%s/%s: exit %d, installed %q, want %s; log:\n%s", tc.os, tc.arch, run.code, got, tc.asset, run.out)
		}
	}
}

// TestReleaseBuildsEveryAssetTheInstallAsksFor: the release workflow, run on a pushed tag
// v* with only contents: write and what its attestations need, builds exactly the files scripts/action-install.sh
// downloads, so no supported runner falls back to a build for want of a name.
func TestReleaseBuildsEveryAssetTheInstallAsksFor(t *testing.T) {
	raw, err := os.ReadFile("../../.github/workflows/release.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		On struct {
			Push struct {
				Tags []string `yaml:"tags"`
			} `yaml:"push"`
		} `yaml:"on"`
		Permissions map[string]string `yaml:"permissions"`
	}
	if err := yaml.Unmarshal(raw, &wf); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"contents": "write", "id-token": "write", "attestations": "write"}
	if !reflect.DeepEqual(wf.On.Push.Tags, []string{"v*"}) || !reflect.DeepEqual(wf.Permissions, want) {
		t.Errorf("release.yml runs on tags %v with permissions %v, want [v*] and %v only", wf.On.Push.Tags, wf.Permissions, want)
	}
	_, targets, _ := strings.Cut(string(raw), "for target in ")
	targets, _, _ = strings.Cut(targets, ";")
	var built []string
	for _, target := range strings.Fields(targets) {
		goos, goarch, _ := strings.Cut(target, "/")
		name := "clarify_" + goos + "_" + goarch
		if goos == "windows" {
			name += ".exe"
		}
		built = append(built, name)
	}
	script, err := os.ReadFile("../../scripts/action-install.sh")
	if err != nil {
		t.Fatal(err)
	}
	asked := regexp.MustCompile(`\) asset=(\S+) ;;`).FindAllStringSubmatch(string(script), -1)
	var names []string
	for _, m := range asked {
		names = append(names, m[1])
	}
	sort.Strings(built)
	sort.Strings(names)
	if len(names) == 0 || !reflect.DeepEqual(built, names) {
		t.Errorf("release.yml builds %v; the install asks for %v", built, names)
	}
}
