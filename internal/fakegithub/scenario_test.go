package fakegithub

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
)

const demoScript = `# A clarification round on one issue.
repo octo/widgets                      # the default anyway
user alice write
user bob maintain
user drive-by
bot coder-agent
team octo/maintainers bob
file .github/clarify.yml:
  sla: 30m
  max_per_issue: 1

issue #42 "Pick a timezone" by alice   # opens issue 42
coder-agent comments on #42:
  /clarify @bob --non-blocking Which timezone?
  Options:

  a) UTC
  b) local # not a comment

alice comments on #42: Which timezone? # part of the body
wait 31m
alice edits her last comment on #42: new text
alice deletes her last comment on #42
close #42 by alice   # done
reopen #42 by bob
expect #42 bot says "Still waiting" once # all of it is the check
expect CLR-42-001 stale
`

func TestParseScenario(t *testing.T) {
	steps, err := ParseScenario(strings.NewReader(demoScript))
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, s := range steps {
		actions = append(actions, string(s.Action))
		if s.Repo != "octo/widgets" {
			t.Errorf("line %d: repo %q", s.Line, s.Repo)
		}
	}
	want := "repo user user user bot team file issue comment comment wait edit delete close reopen expect expect"
	if got := strings.Join(actions, " "); got != want {
		t.Fatalf("actions:\n  %s\nwant\n  %s", got, want)
	}
	byLine := map[int]Step{}
	for _, s := range steps {
		byLine[s.Line] = s
	}
	for _, c := range demoScriptLineChecks {
		if msg := c.check(byLine[c.line]); msg != "" {
			t.Errorf("line %d: %s", c.line, msg)
		}
	}
}

// demoScriptLineChecks are what demoScript's lines parse to: each check returns what is
// wrong with its line's step, or "" when it is right.
var demoScriptLineChecks = []struct {
	line  int
	check func(Step) string
}{
	{4, func(s Step) string {
		return unless(s.Login == "bob" && s.Permission == "maintain", "user line: %+v", s)
	}},
	{5, func(s Step) string {
		return unless(s.Login == "drive-by" && s.Permission == "", "user without permission: %+v", s)
	}},
	{7, func(s Step) string {
		return unless(s.Team == "octo/maintainers" && strings.Join(s.Members, ",") == "bob", "team line: %+v", s)
	}},
	{8, func(s Step) string {
		return unless(s.Path == ".github/clarify.yml" && s.Body == "sla: 30m\nmax_per_issue: 1", "file line: %+v", s)
	}},
	{12, func(s Step) string {
		return unless(s.Issue == 42 && s.Title == "Pick a timezone" && s.Login == "alice", "issue line: %+v", s)
	}},
	{13, func(s Step) string {
		wantBody := "/clarify @bob --non-blocking Which timezone?\nOptions:\n\na) UTC\nb) local # not a comment"
		return unless(s.Login == "coder-agent" && s.Body == wantBody, "multi-line comment body = %q, want %q", s.Body, wantBody)
	}},
	{20, func(s Step) string {
		return unless(s.Body == "Which timezone? # part of the body", "one-line comment body = %q", s.Body)
	}},
	{21, func(s Step) string {
		return unless(s.Wait == 31*time.Minute, "wait = %v", s.Wait)
	}},
	{22, func(s Step) string {
		return unless(s.Action == ActionEdit && s.Body == "new text", "edit = %+v", s)
	}},
	{26, func(s Step) string {
		return unless(s.Subject == "#42" && s.Issue == 42 && s.Check == `bot says "Still waiting" once # all of it is the check`, "expect about an issue = %+v", s)
	}},
	{27, func(s Step) string {
		return unless(s.Subject == "CLR-42-001" && s.Issue == 42 && s.Check == "stale", "expect about a clarification = %+v", s)
	}},
}

// unless is "" when ok holds, and the formatted complaint when it does not.
func unless(ok bool, format string, args ...any) string {
	if ok {
		return ""
	}
	return fmt.Sprintf(format, args...)
}

func TestParseScenarioErrors(t *testing.T) {
	tests := map[string]struct {
		script string
		want   string
	}{
		"unknownAction":          {"frobnicate #1", `line 1: "frobnicate #1": expected one of:`},
		"badRepo":                {"repo widgets", "line 1: \"repo widgets\": expected: repo OWNER/NAME"},
		"badPermission":          {"user alice root", `permission "root": expected one of admin, maintain, write, triage, read, none`},
		"issueWithoutQuotes":     {"issue #4 Pick by alice", `expected: issue #N "TITLE" by LOGIN`},
		"issueUnclosedTitle":     {`issue #4 "Pick by alice`, "no closing"},
		"issueBadNumber":         {`issue 4 "T" by alice`, `expected an issue reference #N (like #42), found "4"`},
		"commentWithoutColon":    {"alice comments on #4 hello", "followed by a colon"},
		"commentWithoutOn":       {"alice comments #4: hello", `expected "on", found "#4:"`},
		"blockWithoutBody":       {"alice comments on #4:\nwait 1m", "line 1: \"alice comments on #4:\" ends in ':'"},
		"strayIndentedLine":      {"wait 1m\n  hello", "line 2: indented line outside a body"},
		"tabIndentedBody":        {"alice comments on #4:\n\thello", "line 2: a body line must be indented by two spaces"},
		"badDuration":            {"wait soon", "expected: wait DURATION"},
		"negativeDuration":       {"wait -5m", "expected: wait DURATION"},
		"editWithoutPronoun":     {"alice edits last comment on #4: x", "her|his|their"},
		"deleteWithTrailingText": {"alice deletes her last comment on #4 now", "expected: alice deletes her last comment on #N"},
		"closeWithoutBy":         {"close #4 alice", `expected "by", found "alice"`},
		"secondLineReported":     {"wait 1m\n\n# fine\nclose #4", "line 4:"},
		"expectWithoutSubject":   {"expect labels none", `expected an issue reference #N (like #42), found "labels"`},
		"expectBadClarification": {"expect CLR-4 stale", `expected a clarification id like CLR-42-001, found "CLR-4"`},
		"expectWithoutCheck":     {"expect #4", "nothing to check"},
		"expectInsideBody":       {"alice comments on #4:\nexpect #4 labels none", "line 1: \"alice comments on #4:\" ends in ':'"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := ParseScenario(strings.NewReader(tc.script))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestRunScenario(t *testing.T) {
	s := New(Options{AppID: testAppID})
	steps, err := ParseScenario(strings.NewReader(demoScript))
	if err != nil {
		t.Fatal(err)
	}
	events := runSteps(t, s, steps)
	want := []string{
		"issues.opened by alice",
		"issue_comment.created by coder-agent",
		"issue_comment.created by alice",
		"issue_comment.edited by alice",
		"issue_comment.deleted by alice",
		"issues.closed by alice",
		"issues.reopened by bob",
	}
	if strings.Join(events, "\n") != strings.Join(want, "\n") {
		t.Errorf("deliveries:\n%s\nwant\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
	}
	if got := s.Now(); !got.Equal(DefaultStart.Add(31 * time.Minute)) {
		t.Errorf("clock = %v", got)
	}
	comments := s.Comments("octo/widgets", 42)
	if len(comments) != 1 || comments[0].User != "coder-agent" || comments[0].UserType != "Bot" {
		t.Errorf("comments = %+v", comments)
	}
	if s.IssueState("octo/widgets", 42) != "open" {
		t.Error("issue not reopened")
	}

	// The repository was created in installation 1, with the file and roles.
	srv := newFixtureFor(t, s)
	c := tokenClient(t, srv, s.IssueToken(1))
	file, _, _, err := c.Repositories.GetContents(t.Context(), "octo", "widgets", ".github/clarify.yml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if content, _ := file.GetContent(); content != "sla: 30m\nmax_per_issue: 1\n" {
		t.Errorf("file = %q", content)
	}
	lvl, _, err := c.Repositories.GetPermissionLevel(t.Context(), "octo", "widgets", "bob")
	if err != nil || lvl.GetPermission() != "write" {
		t.Errorf("bob: %v %v", lvl.GetPermission(), err)
	}
	if _, _, err := c.Teams.GetTeamMembershipBySlug(t.Context(), "octo", "maintainers", "bob"); err != nil {
		t.Errorf("team: %v", err)
	}
}

// runSteps runs the scenario's steps on s and names each issue and comment delivery they
// made, "issue_comment.created by alice".
func runSteps(t *testing.T, s *Server, steps []Step) []string {
	t.Helper()
	var events []string
	for _, st := range steps {
		ds, err := s.Run(st)
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		for _, d := range ds {
			ev, err := github.ParseWebHook(d.Event, d.Body)
			if err != nil {
				t.Fatal(err)
			}
			switch e := ev.(type) {
			case *github.IssueCommentEvent:
				events = append(events, d.Event+"."+e.GetAction()+" by "+e.GetSender().GetLogin())
			case *github.IssuesEvent:
				events = append(events, d.Event+"."+e.GetAction()+" by "+e.GetSender().GetLogin())
			}
		}
	}
	return events
}

func TestRunErrors(t *testing.T) {
	s := New(Options{})
	tests := map[string]string{
		"alice comments on #9: hi":              "issue octo/widgets#9 does not exist",
		"alice edits her last comment on #1: x": "alice has no comment on octo/widgets#1",
		"close #1 by alice\nclose #1 by alice":  "line 2: \"close #1 by alice\": issue octo/widgets#1 is already closed",
		"issue #1 \"again\" by alice":           "already exists",
	}
	if _, err := s.Run(mustParse(t, `issue #1 "First" by bob`)[0]); err != nil {
		t.Fatal(err)
	}
	for script, want := range tests {
		var err error
		for _, st := range mustParse(t, script) {
			if _, err = s.Run(st); err != nil {
				break
			}
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", script, err, want)
		}
	}
}

func TestScenarioRepoJoinsOwnersInstallation(t *testing.T) {
	s := New(Options{})
	s.AddInstallation(5, "acme", "acme/one")
	for _, st := range mustParse(t, "repo acme/two\nissue #1 \"T\" by wile\nrepo other/three\nissue #1 \"T\" by wile") {
		if _, err := s.Run(st); err != nil {
			t.Fatal(err)
		}
	}
	fp := s.Fingerprint()
	for _, want := range []string{"repo acme/two installation=5", "repo other/three installation=1"} {
		if !strings.Contains(fp, want) {
			t.Errorf("fingerprint lacks %q:\n%s", want, fp)
		}
	}
}

func mustParse(t *testing.T, script string) []Step {
	t.Helper()
	steps, err := ParseScenario(strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	return steps
}

func TestExpectStepChangesNothing(t *testing.T) {
	s := New(Options{})
	before := s.Fingerprint()
	ds, err := s.Run(mustParse(t, "repo acme/new\nexpect #1 labels none")[1])
	if err != nil || len(ds) != 0 {
		t.Fatalf("Run of an expect step = %v, %v; want no deliveries", ds, err)
	}
	if after := s.Fingerprint(); after != before {
		t.Errorf("an expect step changed the world (a check must not even create its repository):\n%s", after)
	}
}
