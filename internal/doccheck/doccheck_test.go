package doccheck_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/clarify-app/clarify/internal/doccheck"
	"github.com/clarify-app/clarify/repoconfig"
)

// TestEveryExampleParsesAndEveryLinkResolves: a reader copies the examples of the README
// and docs/ and follows their links. Each yaml block parses (a .github/clarify.yml one is
// a file Clarify accepts), each json block parses, and each relative link and #anchor
// leads somewhere. .ci/run gives the workflow examples to actionlint.
func TestEveryExampleParsesAndEveryLinkResolves(t *testing.T) {
	problems, err := check("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestTheCheckFindsEachKindOfMistake: a page with one mistake of each kind gets one
// problem each, at its line; the same page put right gets none.
func TestTheCheckFindsEachKindOfMistake(t *testing.T) {
	root := t.TempDir()
	write(t, root, "README.md", "# Title\n\nSee [the page](docs/page.md#right-heading).\n")
	write(t, root, "docs/there.md", "# There\n")
	broken := strings.Join([]string{
		"# Page",           // 1
		"## Right heading", // 2
		"```yaml",          // 3
		"run: echo \"$ID was answered: $ANSWER\"", // 4
		"```",                   // 5
		"```json",               // 6
		`{"issue": 42,}`,        // 7
		"```",                   // 8
		"```yaml",               // 9
		"# .github/clarify.yml", // 10
		"sla: 30",               // 11
		"```",                   // 12
		"[gone](missing.md) and [wrong](#nowhere)", // 13
		"[elsewhere](there.md#not-there)",          // 14
		"",
	}, "\n")
	write(t, root, "docs/page.md", broken)
	problems, err := check(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"docs/page.md:3: yaml does not parse",
		"docs/page.md:6: json does not parse",
		"docs/page.md:9: .github/clarify.yml is refused",
		"docs/page.md:13: missing.md: no such file",
		"docs/page.md:13: #nowhere: no such heading",
		"docs/page.md:14: there.md#not-there: no such heading",
	}
	if len(problems) != len(want) {
		t.Fatalf("problems:\n%s\nwant one for each of:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(problems[i], w) {
			t.Errorf("problem %d: %q, want it to start with %q", i, problems[i], w)
		}
	}

	fixed := strings.NewReplacer(
		"run: echo \"$ID was answered: $ANSWER\"", "run: |\n  echo \"$ID was answered: $ANSWER\"",
		`{"issue": 42,}`, `{"issue": 42}`,
		"sla: 30", "sla: 30m",
		"missing.md", "there.md", "#nowhere", "#page", "#not-there", "#there",
	).Replace(broken)
	write(t, root, "docs/page.md", fixed)
	if problems, err := check(root); err != nil || len(problems) != 0 {
		t.Errorf("the page put right still has problems: %v %v", problems, err)
	}
}

func TestBlocks(t *testing.T) {
	src := "text\n```yaml\na: 1\n```\n1. step:\n\n   ```sh\n   go run .\n   ```\n```\nno language\n````\n"
	got := doccheck.Blocks(src)
	want := []doccheck.Block{
		{Line: 2, Lang: "yaml", Text: "a: 1\n"},
		{Line: 7, Lang: "sh", Text: "go run .\n"},
		{Line: 10, Lang: "", Text: "no language\n"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Blocks = %+v\nwant    %+v", got, want)
	}
}

func TestAnchorsAreGitHubsIDs(t *testing.T) {
	src := "# Running it as a GitHub Actions workflow (`bot action`)\n" +
		"## Whose comments are Clarify's\n## Notes\n## Notes\n" +
		"## See [the App](app.md)\n```\n# not a heading\n```\n"
	got := doccheck.Anchors(src)
	want := map[string]bool{
		"running-it-as-a-github-actions-workflow-bot-action": true,
		"whose-comments-are-clarifys":                        true,
		"notes":                                              true,
		"notes-1":                                            true,
		"see-the-app":                                        true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Anchors = %v\nwant      %v", got, want)
	}
}

func TestLinksSkipCode(t *testing.T) {
	src := "[a](a.md) `[b](b.md)` ![c](c.png \"title\")\n```\n[d](d.md)\n```\n[e]: e.md\n" +
		"a [link over\ntwo lines](f.md)\n"
	var got []string
	for _, l := range doccheck.Links(src) {
		got = append(got, fmt.Sprintf("%d %s", l.Line, l.Target))
	}
	want := []string{"1 a.md", "1 c.png", "5 e.md", "7 f.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Links = %v, want %v", got, want)
	}
}

func TestIsWorkflow(t *testing.T) {
	for text, want := range map[string]bool{
		"on:\n  push:\njobs:\n  a: {}\n":            true,
		"on: push\njobs:\n  a:\n    run: a: b\n":    true, // does not parse: actionlint says where
		"name: x\nsteps:\n  - run: echo\n":          false,
		"roles:\n  on: [a]\n  jobs: [b]\n":          false,
		"\"on\":\n  workflow_dispatch:\njobs: {}\n": true,
	} {
		if got := doccheck.IsWorkflow(text); got != want {
			t.Errorf("IsWorkflow(%q) = %v, want %v", text, got, want)
		}
	}
}

// check reads every page of root and returns its problems, "page:line: what".
func check(root string) ([]string, error) {
	pages, err := doccheck.Pages(root)
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, page := range pages {
		src, err := os.ReadFile(page)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(root, page)
		rel = filepath.ToSlash(rel)
		for _, b := range doccheck.Blocks(string(src)) {
			if err := checkBlock(b); err != nil {
				problems = append(problems, fmt.Sprintf("%s:%d: %v", rel, b.Line, err))
			}
		}
		for _, l := range doccheck.Links(string(src)) {
			if err := checkLink(root, page, string(src), l.Target); err != nil {
				problems = append(problems, fmt.Sprintf("%s:%d: %s: %v", rel, l.Line, l.Target, err))
			}
		}
	}
	return problems, nil
}

func checkBlock(b doccheck.Block) error {
	switch b.Lang {
	case "yaml", "yml":
		if err := parseYAML(b.Text); err != nil {
			return fmt.Errorf("yaml does not parse: %w", err)
		}
		if strings.HasPrefix(b.Text, "# .github/clarify.yml") {
			if _, err := repoconfig.Parse([]byte(b.Text)); err != nil {
				return fmt.Errorf(".github/clarify.yml is refused: %w", err)
			}
		}
	case "json":
		var v any
		if err := json.Unmarshal([]byte(b.Text), &v); err != nil {
			return fmt.Errorf("json does not parse: %w", err)
		}
	}
	return nil
}

// parseYAML reads every document of text.
func parseYAML(text string) error {
	dec := yaml.NewDecoder(bytes.NewReader([]byte(text)))
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// checkLink: a relative link names a file or directory of the repository, and its
// #anchor, into a Markdown page, one of that page's headings.
func checkLink(root, page, src, target string) error {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return nil
	}
	path, anchor, _ := strings.Cut(target, "#")
	headings := src
	if path != "" {
		file := filepath.Join(filepath.Dir(page), filepath.FromSlash(path))
		if rel, err := filepath.Rel(root, file); err != nil || strings.HasPrefix(rel, "..") {
			return errors.New("leads out of the repository")
		}
		info, err := os.Stat(file)
		if err != nil {
			return errors.New("no such file")
		}
		if info.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		headings = string(b)
	}
	if anchor != "" && !doccheck.Anchors(headings)[anchor] {
		return errors.New("no such heading")
	}
	return nil
}

func write(t *testing.T, root, name, body string) {
	t.Helper()
	path := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
