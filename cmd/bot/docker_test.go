package main

import (
	"bufio"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// There is no Docker engine where the tests run, so what `docker run IMAGE sweep` needs
// is checked in the files: the last stage's ENTRYPOINT is the binary alone, in exec form
// (a shell form would swallow the arguments), and CMD names a subcommand the binary has.
func TestTheImageRunsEverySubcommand(t *testing.T) {
	final := lastStage(t, dockerfile(t))
	entry, cmd := execForm(t, final, "ENTRYPOINT"), execForm(t, final, "CMD")
	if !slices.Equal(entry, []string{"/bot"}) {
		t.Errorf(`ENTRYPOINT %q: want ["/bot"], so that docker run's arguments are the subcommand and its flags`, entry)
	}
	if !slices.ContainsFunc(final, func(l string) bool { return strings.HasPrefix(l, "COPY --from=build /out/bot /bot") }) {
		t.Error("the last stage does not copy the binary to /bot, where ENTRYPOINT runs it")
	}
	if !slices.Equal(cmd, []string{"serve"}) {
		t.Errorf(`CMD %q: want ["serve"], so that docker run IMAGE with no arguments serves`, cmd)
	}
	subcommands := [][]string{{"serve"}, {"sweep"}, {"replay"}, {"ledger"}, {"config", "check"}, {"key", "new"}, {"key", "public"}, {"stats"}, {"setup"}, {"action"},
		{"ask"}, {"wait"}, {"status"}, {"resolve"}, {"followup"}, {"abandon"}, {"inbox"}, {"mcp"}}
	for _, sub := range subcommands {
		if code := run(append(sub, "-h"), io.Discard, io.Discard); code != 0 {
			t.Errorf("docker run IMAGE %s -h would exit %d", strings.Join(sub, " "), code)
		}
	}
	// A command the usage lists and this test does not is one nobody checked.
	var usage strings.Builder
	bot.Help(&usage)
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z]+)`).FindAllStringSubmatch(usage.String(), -1) {
		if !slices.ContainsFunc(subcommands, func(sub []string) bool { return sub[0] == m[1] }) {
			t.Errorf("the usage lists %q: add it to this test", m[1])
		}
	}
	if code := run([]string{"--version"}, io.Discard, io.Discard); code != 0 {
		t.Errorf("docker run IMAGE --version would exit %d", code)
	}
	if !slices.ContainsFunc(final, func(l string) bool { return strings.HasPrefix(l, "USER nonroot") }) {
		t.Error("the image does not run as the nonroot user")
	}
}

// TestTheImageIsStampedWithItsVersion: a build in a container has no .git, so the version
// and revision only reach the binary through -ldflags -X on these very variables.
func TestTheImageIsStampedWithItsVersion(t *testing.T) {
	_, _ = version, revision // renaming them must break this test's build, not the image's stamp
	var build string
	for _, l := range dockerfile(t) {
		if strings.HasPrefix(l, "RUN ") && strings.Contains(l, "go build") {
			build = l
		}
	}
	for _, want := range []string{"-X main.version=${VERSION}", "-X main.revision=${REVISION}"} {
		if !strings.Contains(build, want) {
			t.Errorf("the go build line lacks %s: %s", want, build)
		}
	}
}

// TestDockerignoreKeepsSecretsAndHistoryOut: whatever is in the build context can end up
// in a layer of the build stage, and a key or a config.yml there is a leaked secret.
func TestDockerignoreKeepsSecretsAndHistoryOut(t *testing.T) {
	b, err := os.ReadFile("../../.dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	ignore := parseDockerignore(string(b))
	for _, p := range []string{".git", ".git/config", "config.yml", "deploy/config.yml", "app.pem", "secrets/app.private-key.pem",
		"app.key", ".env", "prod.env", "webhook-secret.txt", "bot"} {
		if !ignore.excludes(p) {
			t.Errorf(".dockerignore lets %s into the build context", p)
		}
	}
	// Everything the build needs stays: the sources, the module files, embedded files.
	needed := []string{"go.mod", "go.sum", "internal/replay/testdata/scenarios/demo.txt", "cmd/bot"}
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("../..", path)
		if d.IsDir() && (rel == ".git" || strings.HasPrefix(d.Name(), ".") && rel != ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go") {
			needed = append(needed, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range needed {
		if ignore.excludes(p) {
			t.Errorf(".dockerignore leaves out %s, which the build needs", p)
		}
	}
}

// dockerfile returns the Dockerfile's instructions, continuation lines joined, comments out.
func dockerfile(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	var cur strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") || (line == "" && cur.Len() == 0) {
			continue
		}
		if more, ok := strings.CutSuffix(line, `\`); ok {
			cur.WriteString(more)
			continue
		}
		cur.WriteString(line)
		out = append(out, strings.Join(strings.Fields(cur.String()), " "))
		cur.Reset()
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// lastStage returns the instructions of the image's last stage, the one that runs.
func lastStage(t *testing.T, lines []string) []string {
	t.Helper()
	from := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "FROM ") {
			from = i
		}
	}
	if from < 0 {
		t.Fatal("the Dockerfile has no FROM")
	}
	return lines[from:]
}

// execForm returns the JSON array of the stage's last instruction of that name; a shell
// form fails the test.
func execForm(t *testing.T, stage []string, name string) []string {
	t.Helper()
	var arg string
	for _, l := range stage {
		if rest, ok := strings.CutPrefix(l, name+" "); ok {
			arg = rest
		}
	}
	var out []string
	if err := json.Unmarshal([]byte(arg), &out); err != nil {
		t.Fatalf("%s %s is not in exec form (a JSON array): %v", name, arg, err)
	}
	return out
}

// dockerignore is a .dockerignore's patterns, matched as Docker matches them: against the
// path from the context's root and each of its parent directories, with ** for any number
// of directories, and the last matching pattern deciding (! keeps a path back in).
type dockerignore []ignorePattern

type ignorePattern struct {
	re     *regexp.Regexp
	except bool
}

func parseDockerignore(text string) dockerignore {
	var out dockerignore
	for _, line := range strings.Split(text, "\n") {
		p := strings.TrimSpace(line)
		if p == "" || strings.HasPrefix(p, "#") {
			continue
		}
		except := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(filepath.ToSlash(filepath.Clean(strings.TrimPrefix(p, "!"))), "/")
		var re strings.Builder
		re.WriteString("^")
		for i := 0; i < len(p); i++ {
			switch {
			case strings.HasPrefix(p[i:], "**/"):
				re.WriteString("(.*/)?")
				i += 2
			case strings.HasPrefix(p[i:], "**"):
				re.WriteString(".*")
				i++
			case p[i] == '*':
				re.WriteString("[^/]*")
			case p[i] == '?':
				re.WriteString("[^/]")
			default:
				re.WriteString(regexp.QuoteMeta(p[i : i+1]))
			}
		}
		re.WriteString("$")
		out = append(out, ignorePattern{regexp.MustCompile(re.String()), except})
	}
	return out
}

func (d dockerignore) excludes(path string) bool {
	excluded := false
	for _, p := range d {
		if p.matches(path) {
			excluded = !p.except
		}
	}
	return excluded
}

// matches reports whether the pattern matches the path or one of its parent directories,
// which takes the whole directory out.
func (p ignorePattern) matches(path string) bool {
	for {
		if p.re.MatchString(path) {
			return true
		}
		i := strings.LastIndexByte(path, '/')
		if i < 0 {
			return false
		}
		path = path[:i]
	}
}
