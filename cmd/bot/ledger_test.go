package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/agentx"
	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/readcmd"
	"github.com/clarify-app/clarify/internal/replay"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// ledgerEnv sets the environment `bot ledger` reads, everything else of it empty, so
// that the machine's own settings never leak into a test.
func ledgerEnv(t *testing.T, set map[string]string) {
	t.Helper()
	for _, k := range []string{"GITHUB_TOKEN", "GITHUB_V3_API_URL", "CLARIFY_APP_SLUG", "CLARIFY_LEDGER_KEY",
		"GITHUB_APP_PRIVATE_KEY", "GITHUB_APP_PRIVATE_KEY_FILE", "GITHUB_APP_WEBHOOK_SECRET"} {
		t.Setenv(k, set[k])
	}
}

// runLedger runs `bot ledger args…` and returns its stdout, its stderr and its error.
func runLedger(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errs bytes.Buffer
	err := readcmd.Ledger(args, readcmd.Keyed(), cli.Std{In: strings.NewReader(stdin), Out: &out, Err: &errs})
	return out.String(), errs.String(), err
}

// demoIssue plays the demo (ask, answer, follow-up, answer, resolve) and an /assume through
// the real app, then leaves a look-alike status comment by someone else beside the app's.
func demoIssue(t *testing.T) *replay.Harness {
	t.Helper()
	h, err := replay.NewHarness(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	ctx := context.Background()
	if err := replay.Play(ctx, h, nil, io.Discard); err != nil {
		t.Fatal(err)
	}
	d, _ := h.Fake.Comment("octo/widgets", 42, "coder-agent", "/assume Keys are never shared between tenants\nConfidence: high\nRisk: low")
	if _, err := h.Deliver(ctx, d); err != nil {
		t.Fatal(err)
	}
	forged := render.Status(clarify.Ledger{Issue: 42}, mustBlock(t, clarify.Ledger{Issue: 42, Rev: 99}, []byte("not the app's key")))
	h.Fake.Comment("octo/widgets", 42, "mallory", forged)
	return h
}

func mustBlock(t *testing.T, l clarify.Ledger, key []byte) string {
	t.Helper()
	block, err := render.EncodeLedger(l, key)
	if err != nil {
		t.Fatal(err)
	}
	return block
}

func TestLedgerReadsAnIssueThroughTheAPI(t *testing.T) {
	h := demoIssue(t)
	want, err := h.Ledger("octo/widgets", 42)
	if err != nil {
		t.Fatal(err)
	}
	ledgerEnv(t, map[string]string{
		"GITHUB_TOKEN": h.Fake.IssueToken(1), "GITHUB_V3_API_URL": h.GitHub.URL,
		"GITHUB_APP_PRIVATE_KEY": h.Config.Github.App.PrivateKey,
	})

	out, errs, err := runLedger(t, "", "octo/widgets#42")
	if err != nil {
		t.Fatalf("bot ledger octo/widgets#42: %v\n%s", err, errs)
	}
	for _, line := range []string{
		"octo/widgets#42 · 1 clarification · 1 assumption · ledger rev",
		"CLR-42-001 · rate-limit scope",
		"  coder-agent → @maria · resolved · round 2/5 · blocking",
		"  asked 2026-01-05T09:00:00Z · resolved 2026-01-05T09:45:00Z",
		"  round 1 · question · coder-agent · " + want.Clarifications[0].Thread[0].At.UTC().Format(time.RFC3339),
		"      Should the limit apply per API key or per client IP?",
		"  round 2 · answer · maria · ",
		"      1000 per minute, with bursts of up to 100.",
		"  decision: Per API key, 1000 requests/minute, bursts of 100.",
		"assumptions",
		"· coder-agent · Keys are never shared between tenants · confidence high · risk low",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("the issue's ledger lacks %q:\n%s", line, out)
		}
	}
	if strings.Contains(errs, "MAC not checked") || !strings.Contains(errs, "ignored 1 comment that look like a status comment but are not by clarify[bot]") {
		t.Errorf("stderr %q: want the look-alike ignored, and the MAC checked", errs)
	}

	// Flags go after the issue as well as before it.
	checkLedgerJSON(t, want)

	// Without any key it reads the same, and says the MAC was not checked.
	ledgerEnv(t, map[string]string{"GITHUB_TOKEN": h.Fake.IssueToken(1), "GITHUB_V3_API_URL": h.GitHub.URL})
	unchecked, errs, err := runLedger(t, "", "octo/widgets#42")
	if err != nil || unchecked != out || !strings.Contains(errs, "MAC not checked: no ledger key given\n") {
		t.Errorf("without a key: err %v, stderr %q, same output %v", err, errs, unchecked == out)
	}

	// With the wrong key, the ledger does not verify.
	if _, _, err := runLedger(t, "", "-key", "another key", "octo/widgets#42"); !errors.Is(err, render.ErrTampered) {
		t.Errorf("wrong key: err %v, want ErrTampered", err)
	}
	// Another app's slug finds no status comment of its own.
	if _, _, err := runLedger(t, "", "-app", "other", "octo/widgets#42"); err == nil || !strings.Contains(err.Error(), "no status comment by other[bot]") {
		t.Errorf("-app other: err %v", err)
	}
	// A token the API refuses is an error, not an empty ledger.
	t.Setenv("GITHUB_TOKEN", "ghs_revoked")
	if _, _, err := runLedger(t, "", "octo/widgets#42"); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("refused token: err %v", err)
	}
}

// checkLedgerJSON fails t unless `bot ledger octo/widgets#42 --json` prints an AgentX
// ledger file of octo/widgets holding want, in AgentX's field names.
func checkLedgerJSON(t *testing.T, want clarify.Ledger) {
	t.Helper()
	js, _, err := runLedger(t, "", "octo/widgets#42", "--json")
	if err != nil {
		t.Fatal(err)
	}
	f, unknown, err := agentx.Parse([]byte(js))
	if err != nil || len(unknown) > 0 {
		t.Fatalf("--json is no AgentX ledger file: %v, %v\n%s", err, unknown, js)
	}
	got, err := agentx.ToLedger(f)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := ledgerJSON(t, got), ledgerJSON(t, want); g != w || f.Repo() != "octo/widgets" {
		t.Errorf("--json holds another ledger (repository %q):\n got: %s\nwant: %s", f.Repo(), g, w)
	}
	for _, field := range []string{`"issueNumber": 42`, `"id": "CLR-42-001"`, `"from": "coder-agent"`, `"to": "@maria"`, `"maxRounds": 5`, `"type": "resolution"`, `"resolvedAt"`, `"commentId"`} {
		if !strings.Contains(js, field) {
			t.Errorf("--json lacks %s", field)
		}
	}
}

// archivedIssue is octo/widgets#7 with a status comment of the app's whose ledger lists
// an archive comment of the app's, both written through the API as the app writes them,
// signed under key; and a second archive-like comment by someone else.
func archivedIssue(t *testing.T, key []byte) (gh *httptest.Server, fake *fakegithub.Server, full clarify.Ledger) {
	t.Helper()
	fake = fakegithub.New(fakegithub.Options{AppID: 1, AppSlug: "clarify"})
	gh = httptest.NewServer(fake)
	t.Cleanup(gh.Close)
	fake.AddInstallation(1, "octo", "octo/widgets")
	fake.AddUser("maria", "User")
	fake.OpenIssue("octo/widgets", 7, "Retries", "maria")
	client := github.NewClient(nil).WithAuthToken(fake.IssueToken(1))
	client.BaseURL, _ = client.BaseURL.Parse(gh.URL + "/")
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	clar := func(seq int, status clarify.Status) clarify.Clarification {
		return clarify.Clarification{
			ID: clarify.FormatID(7, seq), Asker: clarify.Party{Login: "coder-agent", Role: "engineer"},
			Target: clarify.Target{Kind: clarify.TargetTeam, Name: "octo/api"}, Status: status, Round: 1, MaxRounds: 5,
			Blocking: true, CreatedAt: at, Thread: []clarify.Entry{{Kind: clarify.KindQuestion, Round: 1, Author: "coder-agent", At: at, Text: "Question " + clarify.FormatID(7, seq)}},
		}
	}
	issueKey := ledger.IssueLedgerKey(key, "octo", "widgets", 7)
	post := func(body string) int64 {
		c, _, err := client.Issues.CreateComment(context.Background(), "octo", "widgets", 7, &github.IssueComment{Body: &body})
		if err != nil {
			t.Fatal(err)
		}
		return c.GetID()
	}
	moved := []clarify.Clarification{clar(1, clarify.Resolved), clar(2, clarify.Abandoned)}
	ab, err := render.EncodeArchive(clarify.Ledger{Version: clarify.LedgerVersion, Issue: 7, Clarifications: moved}, issueKey)
	if err != nil {
		t.Fatal(err)
	}
	archive := post(render.Archive(moved, ab, "archive:CLR-7-001:CLR-7-002"))
	open := clar(3, clarify.Pending)
	open.Options, open.Fallback = []clarify.Option{{Key: "a", Text: "three tries"}, {Key: "b", Text: "none"}}, "a"
	open.Thread[0].Text = "Retry how often?\n\x1b[2Jcleared your screen"
	current := clarify.Ledger{Version: clarify.LedgerVersion, Issue: 7, Seq: 3, Cursor: 5, Rev: 4, Archives: []int64{archive},
		Clarifications: []clarify.Clarification{open}}
	post(render.Status(current, mustBlock(t, current, issueKey)))
	full = current
	full.Clarifications = append(append([]clarify.Clarification{}, moved...), current.Clarifications...)
	return gh, fake, full
}

func TestLedgerExportReadsTheArchivesAndImportGivesTheLedgerBack(t *testing.T) {
	gh, fake, want := archivedIssue(t, []byte("k3y"))
	ledgerEnv(t, map[string]string{"GITHUB_TOKEN": fake.IssueToken(1), "CLARIFY_LEDGER_KEY": "k3y"})
	t.Chdir(t.TempDir())

	out, errs, err := runLedger(t, "", "export", "-api", gh.URL, "octo/widgets#7")
	if err != nil {
		t.Fatalf("export: %v\n%s", err, errs)
	}
	path := filepath.Join(".agentx", "state", "clarifications", "issue-7.json")
	if out != "wrote "+path+": octo/widgets#7, 3 clarifications, 0 assumptions\n" {
		t.Errorf("export said %q", out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"to": "@octo/api"`) || !strings.Contains(string(data), `"repository": "octo/widgets"`) {
		t.Errorf("the exported file:\n%s", data)
	}

	js, errs, err := runLedger(t, "", "import", path)
	if err != nil {
		t.Fatalf("import: %v\n%s", err, errs)
	}
	var got clarify.Ledger
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	if g, w := ledgerJSON(t, got), ledgerJSON(t, want); g != w {
		t.Errorf("export then import changed the ledger:\n got: %s\nwant: %s", g, w)
	}

	// Export again, from what import gave: the same file.
	f, _, err := agentx.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	again, err := agentx.Marshal(agentx.FromLedger(got, f.Repo()))
	if err != nil || !bytes.Equal(again, data) {
		t.Errorf("export, import, export: another file (%v):\n%s", err, again)
	}

	checkStatusImport(t, path)
	checkReadShowsArchives(t, gh.URL)
}

// checkStatusImport fails t unless `bot ledger import -status` signs the exported file at
// path for octo/widgets#7, with the archived clarifications written in.
func checkStatusImport(t *testing.T, path string) {
	t.Helper()
	body, errs, err := runLedger(t, "", "import", "-status", path)
	if err != nil {
		t.Fatalf("import -status: %v", err)
	}
	if !strings.Contains(errs, "the clarifications of 1 archive comment are written into the status body") {
		t.Errorf("stderr %q", errs)
	}
	l, err := render.DecodeLedger(body, ledger.IssueLedgerKey([]byte("k3y"), "octo", "widgets", 7))
	if err != nil || !render.IsStatus(body) || len(l.Clarifications) != 3 || len(l.Archives) != 0 {
		t.Errorf("import -status: err %v, %d clarifications, archives %v:\n%s", err, len(l.Clarifications), l.Archives, body)
	}
}

// checkReadShowsArchives fails t unless reading octo/widgets#7 through the API at api shows
// the archived clarifications too, in the order they were asked.
func checkReadShowsArchives(t *testing.T, api string) {
	t.Helper()
	read, _, err := runLedger(t, "", "-api", api, "octo/widgets#7")
	if err != nil {
		t.Fatal(err)
	}
	first, third := strings.Index(read, "CLR-7-001"), strings.Index(read, "CLR-7-003")
	for _, line := range []string{
		"  engineer (coder-agent) → @octo/api · resolved · round 1/5 · blocking",
		"  option a) three tries (fallback)\n  option b) none\n",
		"      Retry how often?\n      \ufffd[2Jcleared your screen\n",
	} {
		if !strings.Contains(read, line) {
			t.Errorf("read lacks %q", line)
		}
	}
	if first < 0 || third < first {
		t.Errorf("read:\n%s", read)
	}
}

func TestLedgerExportRefusesALedgerWhoseArchiveIsGone(t *testing.T) {
	gh, fake, want := archivedIssue(t, []byte("k3y"))
	ledgerEnv(t, map[string]string{"GITHUB_TOKEN": fake.IssueToken(1), "CLARIFY_LEDGER_KEY": "k3y"})
	fake.DeleteComment("octo/widgets", want.Archives[0], "maria")
	_, _, err := runLedger(t, "", "export", "-o", "-", "-api", gh.URL, "octo/widgets#7")
	if err == nil || !strings.Contains(err.Error(), "is gone") {
		t.Errorf("err %v, want the missing archive named", err)
	}
}

func TestLedgerExportToStdoutWithoutAKey(t *testing.T) {
	gh, fake, _ := archivedIssue(t, []byte("k3y"))
	ledgerEnv(t, map[string]string{"GITHUB_TOKEN": fake.IssueToken(1), "GITHUB_V3_API_URL": gh.URL})
	out, errs, err := runLedger(t, "", "export", "octo/widgets#7", "-o", "-")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errs, "MAC not checked: no ledger key given") || !strings.Contains(out, `"id": "CLR-7-001"`) {
		t.Errorf("stdout:\n%s\nstderr: %s", out, errs)
	}
}

func TestLedgerFileFormStillReadsAStatusBody(t *testing.T) {
	l := clarify.Ledger{Version: clarify.LedgerVersion, Issue: 9, Seq: 0, Rev: 2}
	body := render.Status(l, mustBlock(t, l, ledger.IssueLedgerKey([]byte("k3y"), "octo", "widgets", 9)))
	path := filepath.Join(t.TempDir(), "status.md")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		env     map[string]string
		args    []string
		stdin   string
		note    bool
		wantErr string
	}{
		"keyAndIssue":        {env: map[string]string{"CLARIFY_LEDGER_KEY": "k3y"}, args: []string{"-issue", "octo/widgets#9", path}},
		"keyFlagAfterFile":   {args: []string{path, "-issue", "octo/widgets#9", "-key", "k3y"}},
		"stdin":              {env: map[string]string{"CLARIFY_LEDGER_KEY": "k3y"}, args: []string{"-issue", "octo/widgets#9", "-"}, stdin: body},
		"noKey":              {args: []string{path}, note: true},
		"noIssue":            {env: map[string]string{"CLARIFY_LEDGER_KEY": "k3y"}, args: []string{path}, wantErr: "give -issue OWNER/REPO#N"},
		"anotherIssuesBody":  {env: map[string]string{"CLARIFY_LEDGER_KEY": "k3y"}, args: []string{"-issue", "octo/widgets#10", path}, wantErr: "does not match its MAC"},
		"anotherIssueNoKey":  {args: []string{"-issue", "octo/widgets#10", path}, note: true, wantErr: "issue #9's, not #10's"},
		"unreadableKeyFile":  {env: map[string]string{"GITHUB_APP_PRIVATE_KEY_FILE": "/nonexistent/app.pem"}, args: []string{path}, wantErr: "could not be read"},
		"noFile":             {args: []string{"/nonexistent/status.md"}, wantErr: "no such file"},
		"issueWithIssueForm": {args: []string{"-issue", "octo/widgets#9", "octo/widgets#9"}, wantErr: "-issue goes with FILE"},
		"twoArguments":       {args: []string{path, path}, wantErr: "give OWNER/REPO#N, or one file"},
		"malformedIssueFlag": {args: []string{"-issue", "widgets#9", path}, wantErr: `-issue "widgets#9": write OWNER/REPO#N`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			ledgerEnv(t, tc.env)
			out, errs, err := runLedger(t, tc.stdin, tc.args...)
			if strings.Contains(errs, ledger.UncheckedNote) != tc.note {
				t.Errorf("stderr %q: the MAC note should show: %v", errs, tc.note)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got clarify.Ledger
			if err := json.Unmarshal([]byte(out), &got); err != nil || got.Issue != 9 || got.Rev != 2 {
				t.Errorf("printed %s (%v)", out, err)
			}
		})
	}
}

// TestLedgerImportTranslatesAnAgentXFileOffline: an AgentX ledger file becomes Clarify's
// ledger, saying which fields it drops, and -status prints the status comment's body
// signed for the repository named; no API is called.
func TestLedgerImportTranslatesAnAgentXFileOffline(t *testing.T) {
	seed, _ := importFiles(t)
	out, errs, err := runLedger(t, "", "import", seed)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errs, "not kept: fields neither AgentX nor Clarify defines: priority") || !strings.Contains(out, `"role": "engineer"`) {
		t.Errorf("stdout:\n%s\nstderr: %s", out, errs)
	}
	t.Setenv("CLARIFY_LEDGER_KEY", "k3y")
	body, _, err := runLedger(t, "", "import", seed, "-status", "-repo", "octo/widgets")
	if err != nil {
		t.Fatal(err)
	}
	if l, err := render.DecodeLedger(body, ledger.IssueLedgerKey([]byte("k3y"), "octo", "widgets", 42)); err != nil || l.Clarifications[0].Target.Name != "architect" {
		t.Errorf("-status body does not verify for octo/widgets#42: %v", err)
	}
}

// TestLedgerImportRefusesWhatItCannotTake: a status AgentX does not define, -status
// without a repository or a key, and a file that is not JSON each get an error naming
// what is wrong.
func TestLedgerImportRefusesWhatItCannotTake(t *testing.T) {
	seed, bad := importFiles(t)
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"import", bad}, `status "done"`},
		{"", []string{"import", "-status", seed}, "names no repository"},
		{"", []string{"import", "-status", "-repo", "octo/widgets", seed}, "-status signs the ledger"},
		{"{", []string{"import", "-"}, "not an AgentX ledger file"},
	} {
		if _, _, err := runLedger(t, tc.stdin, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ledger %v: err %v, want one saying %q", tc.args, err, tc.want)
		}
	}
}

// importFiles writes an AgentX ledger file (with a field neither defines) and one with a
// status AgentX does not define, and points the API at a port where nothing answers: an
// import that tried the API would fail.
func importFiles(t *testing.T) (seed, bad string) {
	t.Helper()
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	seed = write("seed.json", `{"issueNumber": 42, "priority": "high", "clarifications": [{"id": "CLR-42-001", "from": "engineer", "to": "architect",
		"topic": "db", "blocking": true, "status": "pending", "round": 1, "maxRounds": 5, "thread": [{"round": 1, "from": "engineer", "type": "question", "body": "Which?"}]}]}`)
	bad = write("bad.json", `{"issueNumber": 42, "clarifications": [{"id": "CLR-42-001", "status": "done", "thread": []}]}`)
	ledgerEnv(t, map[string]string{"GITHUB_V3_API_URL": "http://127.0.0.1:1/"})
	return seed, bad
}

func TestLedgerHelpNamesTheEnvironment(t *testing.T) {
	tests := map[string]struct {
		args []string
		want []string
	}{
		"read":   {[]string{"-h"}, []string{"GITHUB_TOKEN", "GITHUB_V3_API_URL", "CLARIFY_APP_SLUG", "CLARIFY_LEDGER_KEY", "GITHUB_APP_PRIVATE_KEY_FILE", "MAC not checked: no ledger key given", "https://api.github.com/", "-json"}},
		"export": {[]string{"export", "-h"}, []string{".agentx/state/clarifications/issue-N.json", "FILE.lock", "GITHUB_TOKEN", "-o"}},
		"import": {[]string{"import", "-h"}, []string{"Offline and read-only", "calls no API and writes no file", "-status", "-repo", "CLARIFY_LEDGER_KEY"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			ledgerEnv(t, nil)
			help, _, err := runLedger(t, "", tc.args...)
			if !errors.Is(err, flag.ErrHelp) {
				t.Errorf("err %v, want flag.ErrHelp (exit 0)", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(help, w) {
					t.Errorf("help lacks %q:\n%s", w, help)
				}
			}
		})
	}
}

func ledgerJSON(t *testing.T, l clarify.Ledger) string {
	t.Helper()
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
