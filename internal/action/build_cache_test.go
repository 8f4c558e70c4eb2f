package action_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/clarify-app/clarify/internal/ghexpr"
)

// copyAction copies the action's files, as a runner unpacks them: no .git, at
// _actions/clarify-app/clarify/<ref>.
func copyAction(t *testing.T, ref string) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "_actions", "clarify-app", "clarify", ref)
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), body, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// buildKey runs scripts/action-build-key.sh of the action at dir as a runner would, and
// returns its outputs.
func buildKey(t *testing.T, dir, runnerOS, arch string) map[string]string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "github_output")
	temp := filepath.Join(filepath.Dir(out), "_temp")
	cmd := exec.Command("bash", filepath.Join(dir, "scripts", "action-build-key.sh"))
	cmd.Dir = t.TempDir() // the workspace, not the action
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "GITHUB_ACTION_PATH=" + dir, "GITHUB_OUTPUT=" + out,
		"RUNNER_TEMP=" + temp, "RUNNER_OS=" + runnerOS, "RUNNER_ARCH=" + arch, "GITHUB_WORKSPACE=" + cmd.Dir}
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Run(); err != nil {
		t.Fatalf("action-build-key.sh: %v\n%s", err, log.String())
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{"temp": temp}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		got[k] = v
	}
	return got
}

// TestTheBuildsCacheKeyFollowsTheSource: the key of the cached build changes when a Go
// source, go.mod, go.sum or an embedded file changes, and only then (not for a test, the
// docs or another ref's directory holding the same source), and differs per OS and
// architecture; the binary lives outside the workspace, where the run step runs it.
func TestTheBuildsCacheKeyFollowsTheSource(t *testing.T) {
	t.Parallel()
	dir := copyAction(t, "main")
	first := buildKey(t, dir, "Linux", "X64")
	key := first["key"]
	if !strings.HasPrefix(key, "clarify-bot-Linux-X64-") || len(key) != len("clarify-bot-Linux-X64-")+64 {
		t.Fatalf("key %q, want clarify-bot-Linux-X64-<sha256>", key)
	}
	if first["path"] != filepath.Join(first["temp"], "clarify-bot") {
		t.Errorf("path %q, want $RUNNER_TEMP/clarify-bot, where the run step runs it", first["path"])
	}
	if k := buildKey(t, copyAction(t, "0123456789abcdef0123456789abcdef01234567"), "Linux", "X64")["key"]; k != key {
		t.Errorf("the same source at another ref: key %q, want %q", k, key)
	}
	for _, other := range [][2]string{{"Linux", "ARM64"}, {"macOS", "ARM64"}, {"Windows", "X64"}} {
		if k := buildKey(t, dir, other[0], other[1])["key"]; k == key || !strings.Contains(k, other[0]+"-"+other[1]) {
			t.Errorf("%s/%s: key %q, want one of its own", other[0], other[1], k)
		}
	}
	cases := []struct {
		file    string
		changes bool
	}{
		{"handlers/issue_comment.go", true}, {"go.mod", true}, {"go.sum", true},
		{"internal/replay/testdata/scenarios/demo.txt", true}, {"app.yml", true}, // embedded in the binary
		{"handlers/new_file.go", true},
		{"handlers/seen_test.go", false}, {"README.md", false}, {"docs/workflow.yml", false}, {"action.yml", false},
	}
	for _, tc := range cases {
		if changed := keyAfterChange(t, dir, tc.file) != key; changed != tc.changes {
			t.Errorf("%s changed: key changed %v, want %v", tc.file, changed, tc.changes)
		}
	}
	if k := buildKey(t, dir, "Linux", "X64")["key"]; k != key {
		t.Errorf("the source put back: key %q, want %q again", k, key)
	}
}

// keyAfterChange is the Linux/X64 key once a line is added to file (made if missing),
// which is then put back as it was.
func keyAfterChange(t *testing.T, dir, file string) string {
	t.Helper()
	path := filepath.Join(dir, file)
	before, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(append([]byte(nil), before...), "\n// changed\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	key := buildKey(t, dir, "Linux", "X64")["key"]
	if before == nil {
		err = os.Remove(path)
	} else {
		err = os.WriteFile(path, before, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// actionStep is one step of action.yml.
type actionStep struct {
	ID   string            `yaml:"id"`
	Name string            `yaml:"name"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
	With map[string]string `yaml:"with"`
}

// TestActionYmlRunsABinaryNeverAColdBuildTwice: the steps action.yml runs, their if:
// evaluated as GitHub does: a release's verified binary runs without Go; at a branch, the
// cached build is restored under the key the key step computed, and Go is set up and the
// source built and saved under that key only when the cache has no entry.
func TestActionYmlRunsABinaryNeverAColdBuildTwice(t *testing.T) {
	raw, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Description string `yaml:"description"`
			Default     string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Steps []actionStep `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(raw, &action); err != nil {
		t.Fatal(err)
	}
	if in, ok := action.Inputs["version"]; !ok || in.Default != "" || in.Description == "" {
		t.Errorf("input version: %+v, want a described input defaulting to empty", in)
	}
	steps := action.Runs.Steps
	var order []string
	for _, s := range steps {
		order = append(order, stepRole(s))
	}
	want := []string{"install", "key", "restore", "setup-go", "build", "save", "run"}
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("steps %v, want %v", order, want)
	}
	if steps[0].ID != "install" || steps[1].ID != "build-key" || steps[2].ID != "restore" {
		t.Fatalf("step ids %q %q %q, want install, build-key, restore", steps[0].ID, steps[1].ID, steps[2].ID)
	}
	cases := []struct {
		name, installed, hit string
		runs                 []string
	}{
		{"a release", "true", "", []string{"install", "run"}},
		{"a branch, built before", "false", "true", []string{"install", "key", "restore", "run"}},
		{"a branch, first job after a change", "false", "false", want},
	}
	for _, tc := range cases {
		ran := stepsRun(t, steps, tc.installed, tc.hit)
		if !reflect.DeepEqual(ran, tc.runs) {
			t.Errorf("%s: runs %v, want %v", tc.name, ran, tc.runs)
		}
	}
}

// stepRole names what a step of action.yml is for, from what it runs.
func stepRole(s actionStep) string {
	switch {
	case strings.Contains(s.Run, "scripts/action-install.sh") && s.Env["CLARIFY_VERSION"] == "${{ inputs.version }}":
		return "install"
	case strings.Contains(s.Run, "scripts/action-build-key.sh"):
		return "key"
	case strings.HasPrefix(s.Uses, "actions/cache/restore@") && cachesTheBuild(s):
		return "restore"
	case strings.HasPrefix(s.Uses, "actions/setup-go@") && s.With["cache"] == "false":
		return "setup-go"
	case strings.Contains(s.Run, `go build -trimpath -o "$CLARIFY_BIN" ./cmd/bot`) && s.Env["CLARIFY_BIN"] == "${{ steps.build-key.outputs.path }}":
		return "build"
	case strings.HasPrefix(s.Uses, "actions/cache/save@") && cachesTheBuild(s):
		return "save"
	case s.Run == `"$RUNNER_TEMP/clarify-bot" action`:
		return "run"
	}
	return "unknown: " + s.Name
}

// cachesTheBuild says whether a cache step holds the path under the key the key step
// wrote.
func cachesTheBuild(s actionStep) bool {
	return s.With["key"] == "${{ steps.build-key.outputs.key }}" && s.With["path"] == "${{ steps.build-key.outputs.path }}"
}

// stepsRun lists the roles of the steps whose if: holds, as GitHub evaluates it, when
// the install step wrote installed and the cache restore cache-hit (a skipped step has
// no outputs).
func stepsRun(t *testing.T, steps []actionStep, installed, hit string) []string {
	t.Helper()
	restore := map[string]any{"outputs": map[string]any{}}
	if installed != "true" {
		restore = map[string]any{"outputs": map[string]any{"cache-hit": hit}}
	}
	ctx := map[string]any{"steps": map[string]any{
		"install":   map[string]any{"outputs": map[string]any{"installed": installed}},
		"build-key": map[string]any{"outputs": map[string]any{"key": "k", "path": "/tmp/clarify-bot"}},
		"restore":   restore,
	}}
	var ran []string
	for _, s := range steps {
		ok := true
		if s.If != "" {
			var err error
			if ok, err = ghexpr.If(s.If, ctx); err != nil {
				t.Fatalf("%s: if: %v", s.Name, err)
			}
		}
		if ok {
			ran = append(ran, stepRole(s))
		}
	}
	return ran
}
