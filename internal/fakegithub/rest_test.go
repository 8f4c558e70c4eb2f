package fakegithub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
)

// seventyFiveComments is a fixture whose issue #42 holds comments "comment 1" to
// "comment 75": three pages of 30.
func seventyFiveComments(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t)
	for i := 1; i <= 75; i++ {
		f.s.Comment(testRepo, 42, "alice", fmt.Sprintf("comment %d", i))
	}
	return f
}

func TestCommentsPaginateWithLinkHeaders(t *testing.T) {
	f := seventyFiveComments(t)
	// go-github walks the pages through Response.NextPage, parsed from Link.
	var bodies []string
	opt := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 30}}
	pages := 0
	for {
		page, resp, err := f.client.Issues.ListComments(f.ctx, "octo", "widgets", 42, opt)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if pages == 1 && (resp.NextPage != 2 || resp.LastPage != 3) {
			t.Errorf("page 1: next %d last %d, want 2 and 3", resp.NextPage, resp.LastPage)
		}
		for _, c := range page {
			bodies = append(bodies, c.GetBody())
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	if pages != 3 || len(bodies) != 75 || bodies[0] != "comment 1" || bodies[74] != "comment 75" {
		t.Errorf("walked %d pages, %d comments (%q … %q)", pages, len(bodies), bodies[0], bodies[len(bodies)-1])
	}
}

// TestCommentsLinkHeaderAndPageSizes: the Link header exactly as GitHub spells it, none
// on a single page, per_page capped at 100 and 30 by default.
func TestCommentsLinkHeaderAndPageSizes(t *testing.T) {
	f := seventyFiveComments(t)
	resp, _ := f.do(t, "GET", "/repos/octo/widgets/issues/42/comments?per_page=30&page=2", "")
	base := f.srv.URL + "/repos/octo/widgets/issues/42/comments"
	want := fmt.Sprintf(`<%[1]s?page=1&per_page=30>; rel="prev", <%[1]s?page=3&per_page=30>; rel="next", <%[1]s?page=3&per_page=30>; rel="last", <%[1]s?page=1&per_page=30>; rel="first"`, base)
	if got := resp.Header.Get("Link"); got != want {
		t.Errorf("Link =\n  %s\nwant\n  %s", got, want)
	}
	resp, _ = f.do(t, "GET", "/repos/octo/widgets/issues/42/comments?per_page=100", "")
	if got := resp.Header.Get("Link"); got != "" {
		t.Errorf("a single page has Link %q", got)
	}
	_, body := f.do(t, "GET", "/repos/octo/widgets/issues/42/comments?per_page=500", "")
	var all []json.RawMessage
	json.Unmarshal([]byte(body), &all)
	if len(all) != 75 {
		t.Errorf("per_page=500 gave %d comments; GitHub caps it at 100, so all 75", len(all))
	}
	_, body = f.do(t, "GET", "/repos/octo/widgets/issues/42/comments", "")
	json.Unmarshal([]byte(body), &all)
	if len(all) != 30 {
		t.Errorf("default page size = %d, want 30", len(all))
	}
}

func TestCommentsSince(t *testing.T) {
	f := newFixture(t)
	f.s.Comment(testRepo, 42, "alice", "early")
	f.s.Advance(time.Hour)
	cut := f.s.Now()
	f.s.Comment(testRepo, 42, "alice", "late")
	got, _, err := f.client.Issues.ListComments(f.ctx, "octo", "widgets", 42, &github.IssueListCommentsOptions{Since: &cut})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].GetBody() != "late" {
		t.Errorf("since: %d comments", len(got))
	}
}

func TestETagAndNotModified(t *testing.T) {
	f := newFixture(t)
	path := "/repos/octo/widgets/issues/42/comments"
	resp, _ := f.do(t, "GET", path, "")
	etag := resp.Header.Get("ETag")
	if !strings.HasPrefix(etag, `W/"`) {
		t.Fatalf("ETag = %q", etag)
	}
	used := resp.Header.Get("X-RateLimit-Used")

	resp, body := f.do(t, "GET", path, "", "If-None-Match", etag)
	if resp.StatusCode != http.StatusNotModified || body != "" {
		t.Errorf("If-None-Match: %d %q, want 304 and no body", resp.StatusCode, body)
	}
	if resp.Header.Get("X-RateLimit-Used") != used {
		t.Errorf("a 304 counted against the rate limit: used %s then %s", used, resp.Header.Get("X-RateLimit-Used"))
	}
	if r := lastRequest(t, f.s); r.Status != http.StatusNotModified {
		t.Errorf("logged status %d, want 304", r.Status)
	}

	f.s.Comment(testRepo, 42, "alice", "news")
	resp, _ = f.do(t, "GET", path, "", "If-None-Match", etag)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") == etag {
		t.Errorf("after a change: %d with ETag %s, want 200 and a new ETag", resp.StatusCode, resp.Header.Get("ETag"))
	}
	if !strings.Contains(f.s.Summary(), "(304s 1)") {
		t.Errorf("summary does not count the 304:\n%s", f.s.Summary())
	}
}

func TestEveryResponseCarriesGitHubHeaders(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{"/repos/octo/widgets/issues/42", "/repos/octo/widgets/issues/999", "/nowhere"} {
		resp, _ := f.do(t, "GET", p, "")
		for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Used", "X-RateLimit-Reset", "X-RateLimit-Resource", "X-GitHub-Request-Id"} {
			if resp.Header.Get(h) == "" {
				t.Errorf("GET %s: no %s", p, h)
			}
		}
	}
}

func TestCommentBodyLimit(t *testing.T) {
	f := newFixture(t)
	atLimit := strings.Repeat("é", MaxCommentBody) // characters, not bytes
	c, _, err := f.client.Issues.CreateComment(f.ctx, "octo", "widgets", 42, &github.IssueComment{Body: &atLimit})
	if err != nil {
		t.Fatalf("65,536 characters: %v", err)
	}

	over := atLimit + "x"
	_, _, err = f.client.Issues.CreateComment(f.ctx, "octo", "widgets", 42, &github.IssueComment{Body: &over})
	assertTooLong(t, err)
	_, _, err = f.client.Issues.EditComment(f.ctx, "octo", "widgets", c.GetID(), &github.IssueComment{Body: &over})
	assertTooLong(t, err)

	_, body := f.do(t, "POST", "/repos/octo/widgets/issues/42/comments", strings.Replace(`{"body":"X"}`, "X", strings.Repeat("a", MaxCommentBody+1), 1))
	want := `{"message":"Validation Failed","errors":[{"resource":"IssueComment","code":"custom","field":"body","message":"Body is too long (maximum is 65536 characters)"}],"documentation_url":"https://docs.github.com/rest/issues/comments#create-an-issue-comment","status":"422"}`
	if body != want {
		t.Errorf("body =\n  %s\nwant\n  %s", body, want)
	}

	empty := ""
	if _, _, err := f.client.Issues.CreateComment(f.ctx, "octo", "widgets", 42, &github.IssueComment{Body: &empty}); statusOf(err) != http.StatusUnprocessableEntity {
		t.Errorf("empty body: err = %v, want 422", err)
	}
	if resp, _ := f.do(t, "POST", "/repos/octo/widgets/issues/42/comments", `{}`); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("missing body: %d, want 422", resp.StatusCode)
	}
	if resp, _ := f.do(t, "POST", "/repos/octo/widgets/issues/42/comments", `{nope`); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("broken JSON: %d, want 400", resp.StatusCode)
	}
	if got := len(f.s.Comments(testRepo, 42)); got != 1 {
		t.Errorf("%d comments stored, want only the one at the limit", got)
	}
}

func assertTooLong(t *testing.T, err error) {
	t.Helper()
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("err = %v, want 422", err)
	}
	if len(er.Errors) != 1 || er.Errors[0].Field != "body" || er.Errors[0].Code != "custom" || !strings.Contains(er.Errors[0].Message, "maximum is 65536") {
		t.Errorf("errors = %+v", er.Errors)
	}
}

func TestCommentCRUDAndOutbox(t *testing.T) {
	f := newFixture(t)
	_, humanID := f.s.Comment(testRepo, 42, "alice", "human words")
	c := createBotComment(t, f, humanID)
	editTwiceThenDeleteTwice(t, f, c.GetID())
	checkCommentOutbox(t, f, c.GetID())
	if got := f.s.Comments(testRepo, 42); len(got) != 1 || got[0].ID != humanID {
		t.Errorf("comments after delete = %+v", got)
	}
}

// createBotComment posts "status v1" as the app and checks what GitHub answers: 201, the
// next id after humanID, an HTML URL anchor, and performed_via_github_app on a GET.
func createBotComment(t *testing.T, f *fixture, humanID int64) *github.IssueComment {
	t.Helper()
	c, resp, err := f.client.Issues.CreateComment(f.ctx, "octo", "widgets", 42, &github.IssueComment{Body: github.String("status v1")})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusCreated || c.GetID() != humanID+1 {
		t.Errorf("status %d id %d, want 201 and id %d (ids grow across the server)", resp.StatusCode, c.GetID(), humanID+1)
	}
	if c.GetAuthorAssociation() == "" || !strings.HasSuffix(c.GetHTMLURL(), fmt.Sprintf("#issuecomment-%d", c.GetID())) {
		t.Errorf("comment = %+v", c)
	}
	_, raw := f.do(t, "GET", fmt.Sprintf("/repos/octo/widgets/issues/comments/%d", c.GetID()), "")
	if !strings.Contains(raw, `"performed_via_github_app":{"id":4242,"slug":"clarify"`) {
		t.Errorf("bot comment without performed_via_github_app: %s", raw)
	}
	return c
}

// editTwiceThenDeleteTwice edits comment id to "status v2" twice (the second changes
// nothing), deletes it twice (the second is a 404) and edits an unknown comment (404).
func editTwiceThenDeleteTwice(t *testing.T, f *fixture, id int64) {
	t.Helper()
	for i := 0; i < 2; i++ {
		if _, _, err := f.client.Issues.EditComment(f.ctx, "octo", "widgets", id, &github.IssueComment{Body: github.String("status v2")}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.client.Issues.DeleteComment(f.ctx, "octo", "widgets", id); err != nil {
		t.Fatal(err)
	}
	if _, err := f.client.Issues.DeleteComment(f.ctx, "octo", "widgets", id); statusOf(err) != http.StatusNotFound {
		t.Errorf("deleting twice: err = %v, want 404", err)
	}
	if _, _, err := f.client.Issues.EditComment(f.ctx, "octo", "widgets", 999, &github.IssueComment{Body: github.String("x")}); statusOf(err) != http.StatusNotFound {
		t.Errorf("editing an unknown comment: err = %v, want 404", err)
	}
}

// checkCommentOutbox wants exactly created, edited, deleted deliveries for comment id,
// sent by the app, and an outbox that TakeOutbox empties.
func checkCommentOutbox(t *testing.T, f *fixture, id int64) {
	t.Helper()
	var actions []string
	for _, d := range f.s.TakeOutbox() {
		ev := parseEvent(t, d).(*github.IssueCommentEvent)
		actions = append(actions, ev.GetAction())
		if ev.GetSender().GetLogin() != "clarify[bot]" || ev.GetComment().GetID() != id {
			t.Errorf("%s delivery: sender %s comment %d", ev.GetAction(), ev.GetSender().GetLogin(), ev.GetComment().GetID())
		}
		if ev.GetAction() == "edited" && ev.GetChanges().GetBody().GetFrom() != "status v1" {
			t.Errorf("edited: changes.body.from = %q", ev.GetChanges().GetBody().GetFrom())
		}
	}
	if strings.Join(actions, ",") != "created,edited,deleted" {
		t.Errorf("outbox = %v, want created,edited,deleted (an edit that changes nothing sends nothing)", actions)
	}
	if len(f.s.TakeOutbox()) != 0 {
		t.Error("TakeOutbox does not clear the outbox")
	}
}

func TestIssues(t *testing.T) {
	f := newFixture(t)
	f.s.Advance(time.Minute)
	f.s.OpenIssue(testRepo, 43, "Second", "bob")
	f.s.Advance(time.Minute)
	f.s.OpenIssue(testRepo, 44, "Third", "alice")
	f.s.CloseIssue(testRepo, 44, "alice")
	f.s.Comment(testRepo, 42, "bob", "hi")
	if _, _, err := f.client.Issues.AddLabelsToIssue(f.ctx, "octo", "widgets", 42, []string{"clarification:active"}); err != nil {
		t.Fatal(err)
	}

	is, _, err := f.client.Issues.Get(f.ctx, "octo", "widgets", 42)
	if err != nil {
		t.Fatal(err)
	}
	if is.GetTitle() != "Pick a timezone" || is.GetState() != "open" || is.GetComments() != 1 || is.GetUser().GetLogin() != "alice" || len(is.Labels) != 1 {
		t.Errorf("issue = %+v", is)
	}
	if _, _, err := f.client.Issues.Get(f.ctx, "octo", "widgets", 7); statusOf(err) != http.StatusNotFound {
		t.Errorf("unknown issue: err = %v, want 404", err)
	}

	numbers := func(opt *github.IssueListByRepoOptions) []int {
		list, _, err := f.client.Issues.ListByRepo(f.ctx, "octo", "widgets", opt)
		if err != nil {
			t.Fatal(err)
		}
		var out []int
		for _, is := range list {
			out = append(out, is.GetNumber())
		}
		return out
	}
	if got := fmt.Sprint(numbers(nil)); got != "[43 42]" {
		t.Errorf("open issues, newest first = %s", got)
	}
	if got := fmt.Sprint(numbers(&github.IssueListByRepoOptions{State: "all", Direction: "asc"})); got != "[42 43 44]" {
		t.Errorf("all issues ascending = %s", got)
	}
	if got := fmt.Sprint(numbers(&github.IssueListByRepoOptions{State: "closed"})); got != "[44]" {
		t.Errorf("closed issues = %s", got)
	}
	if got := fmt.Sprint(numbers(&github.IssueListByRepoOptions{Labels: []string{"Clarification:Active"}})); got != "[42]" {
		t.Errorf("labelled issues = %s", got)
	}
}

func TestLabels(t *testing.T) {
	f := newFixture(t)
	f.s.SetLabel(testRepo, "bug", "d73a4a", "Something isn't working")
	checkAddLabels(t, f)
	checkRemoveLabels(t, f)
	checkRepoLabels(t, f)

	if _, _, err := f.client.Issues.ReplaceLabelsForIssue(f.ctx, "octo", "widgets", 42, []string{"bug"}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(f.s.IssueLabels(testRepo, 42), ","); got != "bug" {
		t.Errorf("after replace: %s", got)
	}
}

// checkAddLabels adds clarification:active and the existing bug to #42, then
// clarification:stale in GitHub's other body form: a new label gets GitHub's default
// colour, an existing one keeps its own.
func checkAddLabels(t *testing.T, f *fixture) {
	t.Helper()
	labels, _, err := f.client.Issues.AddLabelsToIssue(f.ctx, "octo", "widgets", 42, []string{"clarification:active", "bug"})
	if err != nil {
		t.Fatal(err)
	}
	if len(labels) != 2 || labels[0].GetName() != "bug" || labels[1].GetName() != "clarification:active" {
		t.Errorf("returned labels = %v", labels)
	}
	if color, desc, ok := f.s.RepoLabel(testRepo, "clarification:active"); !ok || color != "ededed" || desc != "" {
		t.Errorf("created label: %q %q %v, want GitHub's default colour ededed", color, desc, ok)
	}
	if color, _, _ := f.s.RepoLabel(testRepo, "bug"); color != "d73a4a" {
		t.Errorf("existing label recoloured to %s", color)
	}

	// The other body form GitHub accepts.
	if resp, body := f.do(t, "POST", "/repos/octo/widgets/issues/42/labels", `{"labels":["clarification:stale"]}`); resp.StatusCode != http.StatusOK || !strings.Contains(body, "clarification:stale") {
		t.Errorf("{labels:[…]}: %d %s", resp.StatusCode, body)
	}
}

// checkRemoveLabels removes clarification:stale and bug from #42 (each answer is the
// labels left), puts bug back, and wants removing a label the issue lacks to be a 404.
func checkRemoveLabels(t *testing.T, f *fixture) {
	t.Helper()
	resp, err := f.client.Issues.RemoveLabelForIssue(f.ctx, "octo", "widgets", 42, "clarification:stale")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("remove: %v %v", resp, err)
	}
	raw, body := f.do(t, "DELETE", "/repos/octo/widgets/issues/42/labels/bug", "")
	if raw.StatusCode != http.StatusOK || !strings.Contains(body, `"name":"clarification:active"`) || strings.Contains(body, `"name":"bug"`) {
		t.Errorf("remove answers the remaining labels: %d %s", raw.StatusCode, body)
	}
	f.client.Issues.AddLabelsToIssue(f.ctx, "octo", "widgets", 42, []string{"bug"})
	_, err = f.client.Issues.RemoveLabelForIssue(f.ctx, "octo", "widgets", 42, "clarification:stale")
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response.StatusCode != http.StatusNotFound || er.Message != "Label does not exist" {
		t.Errorf("removing a label not on the issue: %v, want 404 Label does not exist", err)
	}
	if got := strings.Join(f.s.IssueLabels(testRepo, 42), ","); got != "bug,clarification:active" {
		t.Errorf("issue labels = %s", got)
	}
}

// checkRepoLabels gets, creates and re-creates clarification:escalated in the repository:
// 404 before, 201 with the colour in lower case, 422 already_exists whatever the case.
func checkRepoLabels(t *testing.T, f *fixture) {
	t.Helper()
	if _, _, err := f.client.Issues.GetLabel(f.ctx, "octo", "widgets", "clarification:escalated"); statusOf(err) != http.StatusNotFound {
		t.Errorf("missing label: err = %v, want 404", err)
	}
	l, resp, err := f.client.Issues.CreateLabel(f.ctx, "octo", "widgets", &github.Label{Name: github.String("clarification:escalated"), Color: github.String("B60205"), Description: github.String("Needs a maintainer")})
	if err != nil || resp.StatusCode != http.StatusCreated || l.GetColor() != "b60205" {
		t.Errorf("create label: %v %v %v", l, resp, err)
	}
	_, _, err = f.client.Issues.CreateLabel(f.ctx, "octo", "widgets", &github.Label{Name: github.String("Clarification:Escalated")})
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response.StatusCode != http.StatusUnprocessableEntity || len(er.Errors) != 1 || er.Errors[0].Code != "already_exists" {
		t.Errorf("duplicate label: %v, want 422 already_exists", err)
	}
	if got, _, err := f.client.Issues.GetLabel(f.ctx, "octo", "widgets", "clarification:escalated"); err != nil || got.GetDescription() != "Needs a maintainer" {
		t.Errorf("get label: %v %v", got, err)
	}
}

func TestReactions(t *testing.T) {
	f := newFixture(t)
	_, id := f.s.Comment(testRepo, 42, "alice", "answer")
	r1, resp, err := f.client.Reactions.CreateIssueCommentReaction(f.ctx, "octo", "widgets", id, "+1")
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("first reaction: %v %v", resp, err)
	}
	r2, resp, err := f.client.Reactions.CreateIssueCommentReaction(f.ctx, "octo", "widgets", id, "+1")
	if err != nil || resp.StatusCode != http.StatusOK || r2.GetID() != r1.GetID() {
		t.Errorf("same reaction again: %v %v, want 200 with the same reaction", resp, err)
	}
	if _, _, err := f.client.Reactions.CreateIssueCommentReaction(f.ctx, "octo", "widgets", id, "thumbsup"); statusOf(err) != http.StatusUnprocessableEntity {
		t.Errorf("invalid content: err = %v, want 422", err)
	}
	if _, _, err := f.client.Reactions.CreateIssueCommentReaction(f.ctx, "octo", "widgets", 5, "eyes"); statusOf(err) != http.StatusNotFound {
		t.Errorf("unknown comment: err = %v, want 404", err)
	}
	f.s.React(testRepo, id, "bob", "+1")
	list, _, err := f.client.Reactions.ListIssueCommentReactions(f.ctx, "octo", "widgets", id, nil)
	if err != nil || len(list) != 2 {
		t.Fatalf("list: %v %v", list, err)
	}
	got := f.s.Comments(testRepo, 42)[0].Reactions["+1"]
	if strings.Join(got, ",") != "clarify[bot],bob" {
		t.Errorf("reactions = %v", got)
	}
	c, _, _ := f.client.Issues.GetComment(f.ctx, "octo", "widgets", id)
	if c.GetReactions().GetPlusOne() != 2 || c.GetReactions().GetTotalCount() != 2 {
		t.Errorf("rollup = %+v", c.GetReactions())
	}
	if _, err := f.client.Reactions.DeleteIssueCommentReaction(f.ctx, "octo", "widgets", id, r1.GetID()); err != nil {
		t.Errorf("delete reaction: %v", err)
	}
}

func TestPermission(t *testing.T) {
	f := newFixture(t)
	f.s.SetPermission(testRepo, "mia", "maintain")
	f.s.SetPermission(testRepo, "tom", "triage")
	f.s.SetPermission(testRepo, "nobody", "none")
	tests := map[string]struct{ permission, role string }{
		"alice":    {"write", "write"},
		"mia":      {"write", "maintain"},
		"tom":      {"read", "triage"},
		"nobody":   {"none", "none"},
		"stranger": {"read", "read"},
		"octo":     {"admin", "admin"},
	}
	for login, want := range tests {
		t.Run(login, func(t *testing.T) {
			_, body := f.do(t, "GET", "/repos/octo/widgets/collaborators/"+login+"/permission", "")
			var got permissionJSON
			if err := json.Unmarshal([]byte(body), &got); err != nil {
				t.Fatal(err)
			}
			if got.Permission != want.permission || got.RoleName != want.role || got.User.Login != login {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
	lvl, _, err := f.client.Repositories.GetPermissionLevel(f.ctx, "octo", "widgets", "alice")
	if err != nil || lvl.GetPermission() != "write" {
		t.Errorf("go-github: %v %v", lvl, err)
	}
}

func TestContents(t *testing.T) {
	f := newFixture(t)
	_, _, _, err := f.client.Repositories.GetContents(f.ctx, "octo", "widgets", ".github/clarify.yml", nil)
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response.StatusCode != http.StatusNotFound || er.Message != "Not Found" {
		t.Errorf("missing file: %v, want 404 Not Found", err)
	}
	content := strings.Repeat("sla: 30m\n", 20)
	f.s.SetFile(testRepo, ".github/clarify.yml", content)
	file, dir, _, err := f.client.Repositories.GetContents(f.ctx, "octo", "widgets", ".github/clarify.yml", &github.RepositoryContentGetOptions{Ref: "main"})
	if err != nil || dir != nil {
		t.Fatalf("file: %v %v", dir, err)
	}
	got, err := file.GetContent()
	if err != nil || got != content || file.GetSize() != len(content) || file.GetEncoding() != "base64" || len(file.GetSHA()) != 40 {
		t.Errorf("file = %+v (%v)", file, err)
	}
	_, dir, _, err = f.client.Repositories.GetContents(f.ctx, "octo", "widgets", ".github", nil)
	if err != nil || len(dir) != 1 || dir[0].GetName() != "clarify.yml" {
		t.Errorf("directory: %v %v", dir, err)
	}
}

func TestRepository(t *testing.T) {
	f := newFixture(t)
	repo, _, err := f.client.Repositories.Get(f.ctx, "octo", "widgets")
	if err != nil || repo.GetDefaultBranch() != "main" {
		t.Errorf("repository: %v %v", repo, err)
	}
	if _, _, err := f.client.Repositories.Get(f.ctx, "octo", ".github"); statusOf(err) != http.StatusNotFound {
		t.Errorf("missing repository: err = %v, want 404", err)
	}
}

func TestTeamMembership(t *testing.T) {
	f := newFixture(t)
	f.s.AddTeamMember("octo", "maintainers", "Bob")
	m, _, err := f.client.Teams.GetTeamMembershipBySlug(f.ctx, "octo", "maintainers", "bob")
	if err != nil || m.GetState() != "active" || m.GetRole() != "member" {
		t.Errorf("member: %v %v", m, err)
	}
	if _, _, err := f.client.Teams.GetTeamMembershipBySlug(f.ctx, "octo", "maintainers", "alice"); statusOf(err) != http.StatusNotFound {
		t.Errorf("non-member: err = %v, want 404", err)
	}
}

func TestUnhandledRouteIsFlagged(t *testing.T) {
	f := newFixture(t)
	if len(f.s.Unhandled()) != 0 {
		t.Fatal("unhandled requests before any call")
	}
	resp, body := f.do(t, "GET", "/repos/octo/widgets/pulls/1", "")
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(body, `"message":"Not Found","documentation_url":"https://docs.github.com/rest"`) {
		t.Errorf("unknown route: %d %s", resp.StatusCode, body)
	}
	f.do(t, "PUT", "/repos/octo/widgets/issues/42", "{}") // known path, unknown method
	un := f.s.Unhandled()
	if len(un) != 2 || un[0].Path != "/repos/octo/widgets/pulls/1" || un[0].Route != "" || !un[0].Unhandled || un[0].Status != 404 {
		t.Errorf("unhandled = %+v", un)
	}
	// A 404 from a known route is not unhandled.
	f.do(t, "GET", "/repos/octo/widgets/issues/999", "")
	if r := lastRequest(t, f.s); r.Unhandled || r.Route != "GET /repos/{owner}/{repo}/issues/{issue_number}" || r.Status != 404 {
		t.Errorf("known route 404 logged as %+v", r)
	}
	if !strings.Contains(f.s.Summary(), "UNHANDLED GET /repos/octo/widgets/pulls/1") {
		t.Errorf("summary:\n%s", f.s.Summary())
	}
}

func TestFailNext(t *testing.T) {
	f := newFixture(t)
	route := "POST /repos/{owner}/{repo}/issues/{issue_number}/comments"
	f.s.FailNext(route, http.StatusBadGateway, 2)
	before := f.s.Fingerprint()
	for i := 0; i < 2; i++ {
		if _, _, err := f.client.Issues.CreateComment(f.ctx, "octo", "widgets", 42, &github.IssueComment{Body: github.String("x")}); statusOf(err) != http.StatusBadGateway {
			t.Errorf("attempt %d: err = %v, want 502", i, err)
		}
	}
	if f.s.Fingerprint() != before || len(f.s.TakeOutbox()) != 0 {
		t.Error("a failed request changed the state")
	}
	if _, _, err := f.client.Issues.CreateComment(f.ctx, "octo", "widgets", 42, &github.IssueComment{Body: github.String("x")}); err != nil {
		t.Errorf("third attempt: %v", err)
	}

	f.s.FailNext("GET /repos/{owner}/{repo}/issues/{issue_number}", http.StatusForbidden, 1)
	_, _, err := f.client.Issues.Get(f.ctx, "octo", "widgets", 42)
	var rl *github.RateLimitError
	if !errors.As(err, &rl) || rl.Rate.Remaining != 0 || rl.Rate.Limit != 5000 {
		t.Errorf("403: err = %v, want go-github's RateLimitError", err)
	}
	if r := lastRequest(t, f.s); r.Status != http.StatusForbidden || r.Installation != 1 {
		t.Errorf("logged %+v", r)
	}

	f.s.FailNext("GET /repos/{owner}/{repo}/issues/{issue_number}", http.StatusTooManyRequests, 1)
	resp, _ := f.do(t, "GET", "/repos/octo/widgets/issues/42", "")
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("429: %d remaining %q", resp.StatusCode, resp.Header.Get("X-RateLimit-Remaining"))
	}

	defer func() {
		if recover() == nil {
			t.Error("FailNext accepted a route that does not exist")
		}
	}()
	f.s.FailNext("GET /nowhere", 500, 1)
}

func TestFailNextAfterApply(t *testing.T) {
	f := newFixture(t)
	f.s.FailNextAfterApply("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", http.StatusBadGateway, 1)
	if _, _, err := f.client.Issues.CreateComment(f.ctx, "octo", "widgets", 42, &github.IssueComment{Body: github.String("posted")}); statusOf(err) != http.StatusBadGateway {
		t.Errorf("err = %v, want 502", err)
	}
	if got := f.s.Comments(testRepo, 42); len(got) != 1 || got[0].Body != "posted" {
		t.Errorf("the write did not happen: %+v", got)
	}
	if len(f.s.TakeOutbox()) != 1 {
		t.Error("the write's delivery is missing")
	}
}

func TestLatency(t *testing.T) {
	f := newFixture(t)
	f.s.SetLatency(time.Minute)
	ctx, cancel := context.WithTimeout(f.ctx, 50*time.Millisecond)
	defer cancel()
	if _, _, err := f.client.Issues.Get(ctx, "octo", "widgets", 42); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the client's deadline to pass first", err)
	}
	f.s.SetLatency(0)
	if _, _, err := f.client.Issues.Get(f.ctx, "octo", "widgets", 42); err != nil {
		t.Error(err)
	}
}

func TestSummary(t *testing.T) {
	f := newFixture(t)
	f.client.Issues.Get(f.ctx, "octo", "widgets", 42)
	f.client.Issues.Get(f.ctx, "octo", "widgets", 42)
	f.client.Issues.CreateComment(f.ctx, "octo", "widgets", 42, &github.IssueComment{Body: github.String("x")})
	got := f.s.Summary()
	want := "   2  GET /repos/{owner}/{repo}/issues/{issue_number}\n" +
		"   1  POST /repos/{owner}/{repo}/issues/{issue_number}/comments\n" +
		"total 3: reads 2 (304s 0), writes 1, token exchanges 0, unhandled 0\n"
	if got != want {
		t.Errorf("summary =\n%s\nwant\n%s", got, want)
	}
}

// TestACommentThroughAnotherAppNamesIt: a person's comment made through another App carries
// performed_via_github_app naming that App, in its delivery and on a GET, as on GitHub; a
// plain comment carries null.
func TestACommentThroughAnotherAppNamesIt(t *testing.T) {
	f := newFixture(t)
	d, id := f.s.CommentThroughApp(testRepo, 42, "alice", "helper-app", "Yes.")
	_, plain := f.s.Comment(testRepo, 42, "alice", "No.")
	want := `"performed_via_github_app":{"id":`
	if !strings.Contains(string(d.Body), want) || !strings.Contains(string(d.Body), `"slug":"helper-app"`) {
		t.Errorf("delivery of a comment through helper-app: %s", d.Body)
	}
	_, raw := f.do(t, "GET", fmt.Sprintf("/repos/octo/widgets/issues/comments/%d", id), "")
	if !strings.Contains(raw, want) || !strings.Contains(raw, `"slug":"helper-app"`) || !strings.Contains(raw, `"login":"alice"`) {
		t.Errorf("GET of a comment through helper-app: %s", raw)
	}
	if _, raw := f.do(t, "GET", fmt.Sprintf("/repos/octo/widgets/issues/comments/%d", plain), ""); !strings.Contains(raw, `"performed_via_github_app":null`) {
		t.Errorf("GET of a plain comment: %s", raw)
	}
}
