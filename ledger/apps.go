package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
)

// Comments made through a GitHub App on someone's behalf: GitHub marks such a comment with
// performed_via_github_app, in the issue_comment payload and in the REST comment, and
// go-github's IssueComment leaves the field out. A question that needs several people
// counts such a comment as the App's, not the person's (clarify/needs.go), so comments are
// read here with the App they were made through.
// https://docs.github.com/rest/issues/comments#get-an-issue-comment

// CommentApps maps the id of each comment made through a GitHub App to the App's slug.
type CommentApps map[int64]string

// appComment is a comment as GitHub sends it, with the App it was made through.
type appComment struct {
	github.IssueComment
	PerformedViaGithubApp *struct {
		Slug string `json:"slug"`
	} `json:"performed_via_github_app"`
}

// note records the App c was made through, if any, in apps (nil: nobody asked).
func (apps CommentApps) note(c *appComment) *github.IssueComment {
	if apps != nil && c.PerformedViaGithubApp != nil {
		apps[c.GetID()] = c.PerformedViaGithubApp.Slug
	}
	return &c.IssueComment
}

// PayloadCommentApp is the slug of the App an issue_comment payload's comment was made
// through, "" when none (or the payload is no such event).
func PayloadCommentApp(payload []byte) string {
	var p struct {
		Comment appComment `json:"comment"`
	}
	apps := CommentApps{}
	if json.Unmarshal(payload, &p) != nil {
		return ""
	}
	apps.note(&p.Comment)
	return apps[p.Comment.GetID()]
}

// listPage reads one page (0: the first) of the issue's comments updated since since
// (zero: all), noting in apps the App each was made through: go-github's ListComments,
// with the field it drops.
func listPage(ctx context.Context, client *github.Client, ref clarify.IssueRef, since time.Time, page int, apps CommentApps) (
	[]*github.IssueComment, *github.Response, error) {
	q := url.Values{"per_page": {strconv.Itoa(CommentsPage)}}
	if page > 0 {
		q.Set("page", strconv.Itoa(page))
	}
	if !since.IsZero() {
		q.Set("since", since.UTC().Format(time.RFC3339))
	}
	req, err := client.NewRequest(http.MethodGet, fmt.Sprintf("repos/%s/%s/issues/%d/comments?%s", ref.Owner, ref.Repo, ref.Number, q.Encode()), nil)
	if err != nil {
		return nil, nil, err
	}
	var list []*appComment
	resp, err := client.Do(ctx, req, &list)
	out := make([]*github.IssueComment, 0, len(list))
	for _, c := range list {
		out = append(out, apps.note(c))
	}
	return out, resp, err
}

// GetComment reads the comment of that id in ref's repository, noting in apps the App it
// was made through.
func GetComment(ctx context.Context, client *github.Client, ref clarify.IssueRef, id int64, apps CommentApps) (*github.IssueComment, error) {
	req, err := client.NewRequest(http.MethodGet, fmt.Sprintf("repos/%s/%s/issues/comments/%d", ref.Owner, ref.Repo, id), nil)
	if err != nil {
		return nil, err
	}
	var c appComment
	if _, err := client.Do(ctx, req, &c); err != nil {
		return nil, err
	}
	return apps.note(&c), nil
}
